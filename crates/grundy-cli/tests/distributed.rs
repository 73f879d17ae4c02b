//! `--distributed` under a real `mpirun`: 1, 2 and 3 ranks print what the one-process command
//! prints (`graph solve`: random graphs with cycles and self-loops, both file formats, normal
//! and misère play, text and JSON; `solve`: Chomp, Cram, Node-Kayles on built-in graphs and a
//! graph file, Wythoff, scripts and a sum of heaps by script, with winning moves), agree on one
//! error and its status, a killed rank ends the whole job with an error instead of a hang, and
//! a job killed after a checkpoint (`solve` and `graph solve`) resumes from it to the same
//! answer.
//!
//! Needs `mpirun` (Debian `openmpi-bin`, installed by `.ci/run`) and a build with the `mpi`
//! feature: `cargo test -p grundy-cli --release --features mpi --test distributed`. Without
//! `mpirun` the tests are reported as *ignored*, except under `CI`, where they run and fail. The
//! binary has its own `main` (libtest-mimic) so that this is decided when the tests run.
//! As root, OpenMPI needs `OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1` (set
//! here); `--oversubscribe` lets 3 ranks share fewer cores.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn mpirun() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("mpirun"))
        .find(|p| p.is_file())
}

fn main() {
    let mut args = Arguments::from_args();
    // One mpirun at a time: OpenMPI's session directories race when jobs start together.
    args.test_threads = Some(1);
    let cannot_run = mpirun().is_none() && std::env::var_os("CI").is_none();
    let trials = vec![
        Trial::test(
            "ranks_print_what_one_process_prints_on_random_graphs",
            random_graphs_match,
        ),
        Trial::test(
            "ranks_agree_on_the_first_error_and_its_status",
            errors_match,
        ),
        Trial::test(
            "a_rank_over_its_memory_budget_exits_3_naming_the_flag",
            memory_limit,
        ),
        Trial::test("a_killed_rank_ends_the_job_with_an_error", killed_rank),
        Trial::test(
            "ranks_solve_games_by_their_rules_as_one_process",
            games_match,
        ),
        Trial::test(
            "ranks_solve_cram_by_components_as_one_process",
            cram_by_components,
        ),
        Trial::test(
            "ranks_agree_on_errors_of_games_by_their_rules",
            game_errors_match,
        ),
        Trial::test(
            "a_killed_job_resumes_from_its_checkpoint",
            killed_job_resumes,
        ),
        Trial::test(
            "a_killed_graph_job_resumes_from_its_checkpoint",
            killed_graph_job_resumes,
        ),
    ]
    .into_iter()
    .map(|t| t.with_ignored_flag(cannot_run))
    .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn grundy() -> &'static str {
    env!("CARGO_BIN_EXE_grundy")
}

/// `mpirun -np ranks grundy ARGS --distributed`.
fn mpi_command(ranks: usize, args: &[&str]) -> Result<Command, Failed> {
    let mpirun = mpirun().ok_or("mpirun not found on PATH (install openmpi-bin)")?;
    let mut c = Command::new(mpirun);
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-np", &ranks.to_string(), grundy()])
        .args(args)
        .arg("--distributed")
        .stdin(Stdio::null());
    Ok(c)
}

fn one_process(args: &[&str]) -> Result<Output, Failed> {
    Ok(Command::new(grundy())
        .args(args)
        .stdin(Stdio::null())
        .output()?)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A random graph with cycles and self-loops: adjacency lines (some vertices unlisted, a
/// comment, CRLF ends) or an arc list (some ids in hex).
fn random_file(dir: &Path, seed: u64, n: u64, arcs: u64, edges: bool) -> PathBuf {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = String::from("# a random game\n");
    if edges {
        for _ in 0..arcs {
            let (u, v) = (next() % n, next() % n);
            if next() % 7 == 0 {
                out.push_str(&format!("0x{u:x} {v}\n"));
            } else {
                out.push_str(&format!("{u} {v}\n"));
            }
        }
    } else {
        let mut options = vec![Vec::new(); n as usize];
        for _ in 0..arcs {
            let u = next() % n;
            // Mostly downward arcs (long acyclic stretches), some upward ones and self-loops.
            let v = match next() % 10 {
                0 => u,
                1 | 2 => next() % n,
                _ => next() % (u + 1),
            };
            options[u as usize].push(format!("v{v}"));
        }
        for (u, o) in options.iter().enumerate().rev() {
            if o.is_empty() && next() % 2 == 0 {
                continue;
            }
            let end = if next() % 4 == 0 { "\r\n" } else { "\n" };
            out.push_str(&format!("v{u}: {}{end}", o.join(" ")));
        }
    }
    let path = dir.join(format!("g{seed}-{edges}.txt"));
    std::fs::write(&path, out).expect("write a temporary graph");
    path
}

/// Runs `args` in one process and on 1 to 3 ranks, and checks that every run succeeds and
/// that `same` holds of the outputs.
fn matches_one_process(
    args: &[&str],
    same: impl Fn(&[u8], &[u8]) -> Result<bool, Failed>,
) -> Result<(), Failed> {
    let want = one_process(args)?;
    if !want.status.success() {
        return Err(format!("one process failed: {}", text(&want.stderr)).into());
    }
    for ranks in 1..=3 {
        let got = mpi_command(ranks, args)?.output()?;
        if !got.status.success() {
            return Err(format!("{ranks} ranks on {args:?} failed: {}", text(&got.stderr)).into());
        }
        if !same(&got.stdout, &want.stdout)? {
            return Err(format!(
                "{ranks} ranks on {args:?} differ from one process:\n{}\n---\n{}",
                text(&got.stdout),
                text(&want.stdout)
            )
            .into());
        }
    }
    Ok(())
}

fn random_graphs_match() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    for (seed, n, arcs) in [(1u64, 60u64, 150u64), (2, 400, 900), (3, 2000, 6000)] {
        for edges in [false, true] {
            let path = random_file(dir.path(), seed, n, arcs, edges);
            let file = path.to_str().ok_or("a UTF-8 path")?;
            for flags in [&[][..], &["--misere"], &["--json"], &["--misere", "--json"]] {
                let mut args = vec!["graph", "solve", file];
                if edges {
                    args.push("--edges");
                }
                args.extend_from_slice(flags);
                matches_one_process(&args, |a, b| Ok(a == b))?;
            }
        }
    }
    Ok(())
}

fn errors_match() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let cases: [(&str, &[&str]); 4] = [
        // A relisted vertex early, a syntax error late: the relisting is reported.
        (
            "a: b\nb: c\nc: a\nd: e\na: d\nx: y\ny: z\nz: q\nq: r\nr: !\n",
            &[],
        ),
        // A syntax error on line 2 only.
        ("a: b\nb c\nc: a\nd: e\ne: f\nf: g\ng: h\nh: i\ni: j\n", &[]),
        // Invalid UTF-8 late beats a syntax error early.
        (
            "a: b\nb c\nc: a\nd: e\ne: f\nf: g\ng: h\nh: i\ni: \u{1}\u{7f}\n",
            &[],
        ),
        ("1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 x\n8 9\n", &["--edges"]),
    ];
    for (i, (body, flags)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.txt"));
        std::fs::write(&path, body)?;
        let mut args = vec!["graph", "solve", path.to_str().ok_or("a UTF-8 path")?];
        args.extend_from_slice(flags);
        let want = one_process(&args)?;
        // One message, rank 0's, the one-process message (mpirun may add its own notice, and
        // its forwarding may join it to the last line).
        let status = want.status.code().ok_or("one process killed")?;
        one_error(&args, status, text(&want.stderr).trim_end())?;
    }
    // Standard input cannot be split among ranks: bad usage.
    let got = mpi_command(2, &["graph", "solve", "-"])?.output()?;
    if got.status.code() != Some(2) {
        return Err(format!("stdin: status {:?}", got.status.code()).into());
    }
    Ok(())
}

fn memory_limit() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let path = random_file(dir.path(), 7, 20000, 60000, true);
    let file = path.to_str().ok_or("a UTF-8 path")?;
    let got = mpi_command(2, &["graph", "solve", file, "--edges", "--memory", "64K"])?.output()?;
    let err = text(&got.stderr);
    if got.status.code() != Some(3) || !err.contains("--memory") {
        return Err(format!("status {:?}: {err}", got.status.code()).into());
    }
    Ok(())
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the comm may hold spaces, so split after its ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(child);
        }
    }
    out
}

fn killed_rank() -> Result<(), Failed> {
    // A long path: one round a vertex, so the job runs long enough to be killed midway.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("path.txt");
    let mut body = String::new();
    for i in 0..200_000u32 {
        body.push_str(&format!("{i} {}\n", i + 1));
    }
    std::fs::write(&path, body)?;
    let file = path.to_str().ok_or("a UTF-8 path")?;
    let mut child = mpi_command(3, &["graph", "solve", file, "--edges"])?
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mpirun = child.id();
    // Wait for the ranks to start, then kill one.
    let start = Instant::now();
    let ranks = loop {
        let r: Vec<u32> = children(mpirun)
            .into_iter()
            .filter(|&p| {
                std::fs::read_to_string(format!("/proc/{p}/comm"))
                    .is_ok_and(|c| c.trim() == "grundy")
            })
            .collect();
        if r.len() == 3 || start.elapsed() > Duration::from_secs(30) {
            break r;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if ranks.len() != 3 {
        let _ = child.kill();
        return Err(format!("found the ranks {ranks:?} under mpirun").into());
    }
    std::thread::sleep(Duration::from_millis(1500));
    let victim = ranks[1];
    Command::new("kill")
        .args(["-KILL", &victim.to_string()])
        .status()?;
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err("the job hangs after a rank was killed".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        e.read_to_string(&mut err)?;
    }
    if status.success() {
        return Err(format!("the job succeeded after a rank was killed: {err}").into());
    }
    // The survivors are gone too.
    for p in ranks {
        if Path::new(&format!("/proc/{p}")).exists()
            && std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| !s.contains(") Z"))
        {
            return Err(format!("rank process {p} outlived the job").into());
        }
    }
    Ok(())
}

/// Dawson's Kayles as a script over arrays of heaps (a sum of heaps), with `split`,
/// `canonical` and `show`.
const HEAP_SUM: &str = include_str!("../../../docs/examples/dawsons-kayles.rhai");

/// A take-away game on a counter, without `show`, `split` or `canonical`.
const COUNTER: &str = "fn start() { 17 }\nfn moves(p) { let out = []; for t in [1, 3, 4] { if p >= t { out.push(p - t); } } out }\n";

/// The JSON document without its `stats`, which count a different search (checked to have the
/// same fields).
fn without_stats(out: &[u8]) -> Result<serde_json::Value, Failed> {
    let mut v: serde_json::Value = serde_json::from_slice(out)?;
    let stats = v
        .as_object_mut()
        .and_then(|o| o.remove("stats"))
        .ok_or("no stats")?;
    let keys: Vec<&str> = stats
        .as_object()
        .ok_or("stats is no object")?
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys = keys;
    keys.sort_unstable();
    let want = [
        "hit_rate",
        "hits",
        "lookups",
        "positions",
        "seconds",
        "table_bytes",
    ];
    if keys != want {
        return Err(format!("stats fields {keys:?}").into());
    }
    Ok(v)
}

fn games_match() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let heaps = dir.path().join("heaps.rhai");
    std::fs::write(&heaps, HEAP_SUM)?;
    let counter = dir.path().join("counter.rhai");
    std::fs::write(&counter, COUNTER)?;
    let graph = dir.path().join("nk.txt");
    std::fs::write(
        &graph,
        "a: b c\nb: d\nc: d e\nd: f\ne: f g\nf: h\ng: h\nh:\nx: y\n",
    )?;
    let graph = format!("node-kayles:{}", graph.to_str().ok_or("a UTF-8 path")?);
    let heaps = format!("rules:{}", heaps.to_str().ok_or("a UTF-8 path")?);
    let counter = format!("rules:{}", counter.to_str().ok_or("a UTF-8 path")?);
    let games = [
        "cram:3x4",
        "cram:.#../..../...#",
        "chomp:4,3,3,1",
        "chomp:3x3",
        "node-kayles:grid:3x3",
        "node-kayles:path:9",
        &graph,
        "wythoff:5,7",
        "wythoff:0,0",
        &heaps,
        &counter,
    ];
    for game in games {
        for flags in [
            &[][..],
            &["--misere"],
            &["--moves"],
            &["--misere", "--moves"],
            &["--json", "--moves"],
            &["--json", "--misere"],
        ] {
            let mut args = vec!["solve", game];
            args.extend_from_slice(flags);
            if flags.contains(&"--json") {
                matches_one_process(&args, |a, b| Ok(without_stats(a)? == without_stats(b)?))?;
            } else {
                matches_one_process(&args, |a, b| Ok(a == b))?;
            }
        }
    }
    Ok(())
}

/// Cram boards with regions large enough for their values to cross ranks, solved by the
/// components engine (normal play, no checkpoint): the one-process output, byte for byte, and
/// `-v` says which engine ran and that values crossed ranks.
fn cram_by_components() -> Result<(), Failed> {
    for game in [
        "cram:4x7",
        "cram:5x6",
        "cram:3x10",
        "cram:.#.#....../........../......#...",
    ] {
        for flags in [&["--no-cache"][..], &["--moves", "--no-cache"]] {
            let mut args = vec!["solve", game];
            args.extend_from_slice(flags);
            matches_one_process(&args, |a, b| Ok(a == b))?;
        }
        let got = mpi_command(2, &["solve", game, "--no-cache", "-v"])?.output()?;
        let err = text(&got.stderr);
        if !got.status.success() || !err.contains("by components") {
            return Err(format!("{game} -v on 2 ranks: {err}").into());
        }
    }
    let got = mpi_command(2, &["solve", "cram:4x7", "--no-cache", "-v"])?.output()?;
    let err = text(&got.stderr);
    if err.contains("regions received by rank 0 0,") {
        return Err(format!("no value crossed ranks: {err}").into());
    }
    Ok(())
}

/// Runs `args` on 1 to 3 ranks and checks the status, and that one message (rank 0's)
/// contains `message`.
fn one_error(args: &[&str], status: i32, message: &str) -> Result<(), Failed> {
    for ranks in 1..=3 {
        let got = mpi_command(ranks, args)?.output()?;
        let err = text(&got.stderr);
        if got.status.code() != Some(status)
            || err.matches("grundy:").count() != 1
            || !err.contains(message)
        {
            return Err(format!(
                "{ranks} ranks on {args:?}: status {:?}, wanted {status} and `{message}`: {err}",
                got.status.code()
            )
            .into());
        }
    }
    Ok(())
}

fn game_errors_match() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    // A script failing on one position, reached by one rank: its message, status 2, as the
    // one-process command.
    let bad = dir.path().join("bad.rhai");
    std::fs::write(
        &bad,
        "fn start() { 6 }\nfn moves(p) { if p == 2 { throw \"no moves from 2\" } if p == 0 { [] } else { [p - 1] } }\n",
    )?;
    let bad = format!("rules:{}", bad.to_str().ok_or("a UTF-8 path")?);
    let want = one_process(&["solve", &bad])?;
    let want_err = text(&want.stderr);
    if want.status.code() != Some(2) {
        return Err(format!("one process: {:?} {want_err}", want.status.code()).into());
    }
    one_error(&["solve", &bad], 2, want_err.trim_end())?;
    // A bad notation.
    let want = one_process(&["solve", "cram:3y3"])?;
    one_error(&["solve", "cram:3y3"], 2, text(&want.stderr).trim_end())?;
    // A game that does not end.
    let loops = dir.path().join("loop.rhai");
    std::fs::write(&loops, "fn start() { 0 }\nfn moves(p) { [1 - p] }\n")?;
    let loops = format!("rules:{}", loops.to_str().ok_or("a UTF-8 path")?);
    one_error(&["solve", &loops], 2, "the game does not end")?;
    // The memory budget of a rank.
    one_error(&["solve", "cram:5x5", "--memory", "200K"], 3, "--memory")?;
    // A checkpoint of another game or another number of ranks is refused.
    let ck = dir.path().join("ck");
    let ck = ck.to_str().ok_or("a UTF-8 path")?;
    let got = mpi_command(2, &["solve", "cram:3x3", "--checkpoint", ck])?.output()?;
    if !got.status.success() {
        return Err(format!("checkpointed run: {}", text(&got.stderr)).into());
    }
    let got = mpi_command(2, &["solve", "cram:3x4", "--checkpoint", ck])?.output()?;
    let err = text(&got.stderr);
    if got.status.code() != Some(2) || !err.contains("other input") {
        return Err(format!("other input: {:?} {err}", got.status.code()).into());
    }
    let got = mpi_command(3, &["solve", "cram:3x3", "--checkpoint", ck])?.output()?;
    let err = text(&got.stderr);
    if got.status.code() != Some(2) || !err.contains("written by 2 ranks") {
        return Err(format!("other ranks: {:?} {err}", got.status.code()).into());
    }
    Ok(())
}

/// The last round a checkpoint's manifest names.
fn manifest_round(dir: &Path) -> Option<u64> {
    let m = std::fs::read_to_string(dir.join("manifest")).ok()?;
    m.lines()
        .find_map(|l| l.strip_prefix("round: ")?.parse().ok())
}

/// Starts `args` on `ranks` ranks and SIGKILLs mpirun and every process under it (the ranks
/// run in process groups of their own) as soon as `ready` holds of the checkpoint directory
/// `ck`: no handler runs, as when the nodes fail. Fails if the job ends first.
fn kill_when(
    ranks: usize,
    args: &[&str],
    ck: &Path,
    ready: impl Fn(&Path) -> bool,
) -> Result<(), Failed> {
    let mut child = mpi_command(ranks, args)?
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let start = Instant::now();
    loop {
        if ready(ck) {
            let mut all = vec![child.id()];
            let mut i = 0;
            while i < all.len() {
                all.extend(children(all[i]));
                i += 1;
            }
            let pids: Vec<String> = all.iter().map(u32::to_string).collect();
            Command::new("kill").arg("-KILL").args(&pids).status()?;
            child.wait()?;
            return Ok(());
        }
        if child.try_wait()?.is_some() {
            return Err("the job ended before it could be killed".into());
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            return Err("no checkpoint within 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn killed_job_resumes() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let ck = dir.path().join("ck");
    let ck_arg = ck.to_str().ok_or("a UTF-8 path")?;
    let args = ["solve", "cram:5x5", "--moves", "--checkpoint", ck_arg];
    let want = one_process(&["solve", "cram:5x5", "--moves"])?;
    kill_when(2, &args, &ck, |ck| {
        manifest_round(ck).is_some_and(|r| r >= 2)
    })?;
    let killed_after = 2;
    let round = manifest_round(&ck).ok_or("no manifest after the kill")?;
    if round < killed_after {
        return Err(format!("the manifest went back from {killed_after} to {round}").into());
    }
    let mut resumed_args = args.to_vec();
    resumed_args.push("-v");
    let got = mpi_command(2, &resumed_args)?.output()?;
    let err = text(&got.stderr);
    if !got.status.success() || got.stdout != want.stdout {
        return Err(format!(
            "resumed: {:?}\n{}\n---\n{}\n{err}",
            got.status.code(),
            text(&got.stdout),
            text(&want.stdout)
        )
        .into());
    }
    let skipped = format!("resuming after round {round} of the exploration");
    let replayed = format!("({} resumed)", round + 1);
    if !err.contains(&skipped) || !err.contains(&replayed) {
        return Err(format!("the rounds were not skipped ({skipped}, {replayed}): {err}").into());
    }
    Ok(())
}

fn killed_graph_job_resumes() -> Result<(), Failed> {
    // A long path: one round a vertex in each pass, so the job runs long enough to be killed
    // between the outcomes and the end of the values.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("path.txt");
    let mut body = String::new();
    for i in 0..100_000u32 {
        body.push_str(&format!("{i} {}\n", i + 1));
    }
    std::fs::write(&path, body)?;
    let file = path.to_str().ok_or("a UTF-8 path")?;
    let ck = dir.path().join("ck");
    let ck_arg = ck.to_str().ok_or("a UTF-8 path")?;
    let want = one_process(&["graph", "solve", file, "--edges"])?;
    let args = ["graph", "solve", file, "--edges", "--checkpoint", ck_arg];
    let outcomes_done = |ck: &Path| {
        std::fs::read_to_string(ck.join("manifest")).is_ok_and(|m| m.contains("outcomes: done"))
    };
    kill_when(2, &args, &ck, outcomes_done)?;
    let got = mpi_command(2, &args)?.output()?;
    let err = text(&got.stderr);
    if !got.status.success() || got.stdout != want.stdout {
        return Err(format!("resumed: {:?} {err}", got.status.code()).into());
    }
    if !err.contains("outcomes resumed") {
        return Err(format!("the outcome rounds were not skipped: {err}").into());
    }
    // Resumed again from the finished checkpoint: the values too.
    let got = mpi_command(2, &args)?.output()?;
    let err = text(&got.stderr);
    if got.stdout != want.stdout || !err.contains("values resumed") {
        return Err(format!("resumed twice: {:?} {err}", got.status.code()).into());
    }
    // Misère play is another command: the checkpoint is refused.
    let mut misere = args.to_vec();
    misere.push("--misere");
    let got = mpi_command(2, &misere)?.output()?;
    if got.status.code() != Some(2) || !text(&got.stderr).contains("checkpoint of") {
        return Err(format!("misère: {:?} {}", got.status.code(), text(&got.stderr)).into());
    }
    Ok(())
}
