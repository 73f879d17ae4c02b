//! `--distributed` under a real `mpirun`: 1, 2 and 3 ranks print what the one-process command
//! prints (random graphs with cycles and self-loops, both file formats, normal and misère play,
//! text and JSON), agree on one error and its status, and a killed rank ends the whole job with
//! an error instead of a hang.
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
                let want = one_process(&args)?;
                if !want.status.success() {
                    return Err(format!("one process failed: {}", text(&want.stderr)).into());
                }
                for ranks in 1..=3 {
                    let got = mpi_command(ranks, &args)?.output()?;
                    if !got.status.success() {
                        return Err(format!(
                            "{ranks} ranks on {args:?} failed: {}",
                            text(&got.stderr)
                        )
                        .into());
                    }
                    if got.stdout != want.stdout {
                        return Err(format!(
                            "{ranks} ranks on {args:?} differ from one process:\n{}\n---\n{}",
                            text(&got.stdout),
                            text(&want.stdout)
                        )
                        .into());
                    }
                }
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
        for ranks in 1..=3 {
            let got = mpi_command(ranks, &args)?.output()?;
            if got.status.code() != want.status.code() {
                return Err(format!(
                    "{ranks} ranks: status {:?}, one process {:?}: {}",
                    got.status.code(),
                    want.status.code(),
                    text(&got.stderr)
                )
                .into());
            }
            // One message, rank 0's, the one-process message (mpirun may add its own notice,
            // and its forwarding may join it to the last line).
            let got_err = text(&got.stderr);
            let want_err = text(&want.stderr);
            if got_err.matches("grundy:").count() != 1 || !got_err.contains(want_err.trim_end()) {
                return Err(format!("{ranks} ranks: {got_err}, one process {want_err}").into());
            }
        }
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
