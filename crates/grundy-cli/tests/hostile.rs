//! Hostile inputs, replayed: devices and pipes that never end, huge lines, deep nesting,
//! scripts that sleep, loop or grow without end, poisoned caches, kills during writes and
//! searches that outgrow any memory. Each command must end by itself with the status of the
//! specification (2 bad input, 3 a stated limit), within a generous time, and with a peak
//! memory (the child's maximum resident set, from `wait4`) well under 1 GB when run with
//! `--memory 512M`.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The time any of these commands may take (they take well under a second on an idle machine;
/// the bound leaves room for a loaded one).
const TIME_BOUND: Duration = Duration::from_secs(20);
/// The peak memory any of them may reach, run with `--memory 512M`.
const PEAK_BOUND_KIB: u64 = 1 << 20;

/// What one run of the binary did.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    took: Duration,
    peak_kib: u64,
    stdout: String,
    stderr: String,
}

/// Where a command's standard input comes from.
enum Input<'a> {
    Nothing,
    /// A file or device opened for reading.
    File(&'a Path),
    /// A pipe fed with zero bytes until the command closes it.
    EndlessZeros,
}

/// Runs `grundy ARGS` with `--memory 512M`, killing it should it outlive twice [`TIME_BOUND`],
/// and measures its peak memory with `wait4`.
fn run(args: &[&str], input: Input) -> Run {
    run_with_memory(args, input, "512M")
}

/// [`run`] with `--memory MEMORY`.
fn run_with_memory(args: &[&str], input: Input, memory: &str) -> Run {
    run_with_env(args, input, memory, &[])
}

/// [`run_with_memory`] with the environment variables `env` set.
fn run_with_env(args: &[&str], input: Input, memory: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("grundy"));
    cmd.args(args)
        .args(["--memory", memory])
        .env_remove("GRUNDY_MEMORY")
        .env_remove("RAYON_NUM_THREADS")
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match input {
        Input::Nothing => cmd.stdin(Stdio::null()),
        Input::File(p) => cmd.stdin(std::fs::File::open(p).unwrap()),
        Input::EndlessZeros => cmd.stdin(Stdio::piped()),
    };
    let start = Instant::now();
    // Reaped by `wait4` below, which also reports its peak memory.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    if let Some(mut stdin) = child.stdin.take() {
        std::thread::spawn(move || {
            let zeros = vec![0u8; 1 << 16];
            // Ends when the command closes its end (a broken pipe).
            while stdin.write_all(&zeros).is_ok() {}
        });
    }
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    // A watchdog: a command still running long after the bound is killed (and the assertion on
    // the time then fails).
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        let start = Instant::now();
        while start.elapsed() < 2 * TIME_BOUND {
            if seen.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if !seen.load(std::sync::atomic::Ordering::Relaxed) {
            // SAFETY: kill(2) on the child's pid, which is not reaped before `done` is set.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child, with valid pointers to the status and the usage.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(r, pid, "wait4 failed");
    let took = start.elapsed();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        took,
        // Linux reports ru_maxrss in KiB.
        peak_kib: usage.ru_maxrss as u64,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Asserts the status, the time bound and the peak memory bound of a run.
fn check(what: &str, r: &Run, code: i32) {
    assert_eq!(r.code, Some(code), "{what}: {r:?}");
    assert!(r.took < TIME_BOUND, "{what} took {:?}", r.took);
    assert!(
        r.peak_kib < PEAK_BOUND_KIB,
        "{what} peaked at {} KiB",
        r.peak_kib
    );
    assert!(
        !r.stderr.contains("panicked"),
        "{what} panicked: {}",
        r.stderr
    );
}

/// A fresh directory for one test's files, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("grundy-hostile-{name}-"))
        .tempdir()
        .unwrap()
}

/// Writes `body` to the file `name` of `dir`; its path.
fn written(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p.display().to_string()
}

fn is_char_device(p: &str) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// Devices and pipes report a size of 0 and never end: every reader refuses them after a
/// bounded read, and nothing replaces the device.
#[test]
fn devices_and_endless_pipes() {
    let zero = Path::new("/dev/zero");
    let cases: [(&str, &[&str], Input, i32); 8] = [
        (
            "graph file",
            &["graph", "solve", "/dev/zero"],
            Input::Nothing,
            2,
        ),
        (
            "graph stdin",
            &["graph", "solve", "-"],
            Input::File(zero),
            2,
        ),
        (
            "graph pipe",
            &["graph", "solve", "-"],
            Input::EndlessZeros,
            2,
        ),
        (
            "arc list",
            &["graph", "solve", "--edges", "/dev/zero"],
            Input::Nothing,
            2,
        ),
        (
            "script",
            &["seq", "script:/dev/zero", "-n", "3"],
            Input::Nothing,
            3,
        ),
        (
            "product stdin",
            &["nimber", "product"],
            Input::File(zero),
            2,
        ),
        (
            "product pipe",
            &["nimber", "product"],
            Input::EndlessZeros,
            2,
        ),
        (
            "cache",
            &["ordinal", "excess", "11", "--cache", "/dev/zero"],
            Input::Nothing,
            0,
        ),
    ];
    for (what, args, input, code) in cases {
        let r = run(args, input);
        check(what, &r, code);
    }
    // The cache was not renamed over the device.
    assert!(is_char_device("/dev/zero"), "/dev/zero was replaced");
}

/// A FIFO whose writer never stops is read like a pipe.
#[test]
fn an_endless_fifo() {
    let scratch_dir = scratch("fifo");
    let dir = scratch_dir.path();
    let fifo = dir.join("graph");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let writer_path = fifo.clone();
    std::thread::spawn(move || {
        if let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(&writer_path) {
            let line = b"a: b\n".repeat(1 << 12);
            while w.write_all(&line).is_ok() {}
        }
    });
    let r = run(&["graph", "solve", fifo.to_str().unwrap()], Input::Nothing);
    // An endless valid text: refused at the memory budget.
    check("fifo", &r, 3);
    assert!(r.stderr.contains("--memory"), "{}", r.stderr);
}

/// Lines longer than any valid line, and nesting deeper than any parser recursion.
#[test]
fn huge_lines_and_deep_nesting() {
    let scratch_dir = scratch("lines");
    let dir = scratch_dir.path();
    let huge = dir.join("huge.txt");
    std::fs::write(&huge, format!("1\n{}\n", "1".repeat(10_000_000))).unwrap();
    let r = run(&["nimber", "product"], Input::File(&huge));
    check("product line", &r, 2);
    let arcs = dir.join("arcs.txt");
    std::fs::write(&arcs, "7".repeat(3 << 20)).unwrap();
    let r = run(
        &["graph", "solve", "--edges", arcs.to_str().unwrap()],
        Input::Nothing,
    );
    check("arc line", &r, 2);
    let tower = format!("{}1{}", "w^(".repeat(20_000), ")".repeat(20_000));
    let parens = format!("{}1{}", "(".repeat(60_000), ")".repeat(60_000));
    for (what, x) in [("tower", &tower), ("parentheses", &parens)] {
        let r = run(&["ordinal", "nim-sum", x, "1"], Input::Nothing);
        check(what, &r, 2);
    }
}

/// Scripts that sleep, read files, loop, fill arrays without end or print: each ends by itself
/// with the right status, and nothing they print reaches standard output.
#[test]
fn sleeping_looping_and_printing_scripts() {
    let scratch_dir = scratch("scripts");
    let dir = scratch_dir.path();
    let script = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        format!("script:{}", p.display())
    };
    let sleeps = script("sleep.rhai", "fn options(n) { sleep(1000); [[n - 1]] }");
    let imports = script(
        "import.rhai",
        "import \"/etc/hostname\" as m; fn options(n) { [[n - 1]] }",
    );
    let loops = script("loop.rhai", "fn options(n) { loop { } }");
    let pushes = script(
        "push.rhai",
        "fn options(n) { let a = []; loop { a.push(n); } }",
    );
    // Every call is short; the whole run is long: the script time limit stops it.
    let slow = script(
        "slow.rhai",
        "fn options(n) { let s = 0; for i in 0..200000 { s += i; } [[n - 1]] }",
    );
    let prints = script(
        "print.rhai",
        "fn options(n) { print(\"to stderr\"); debug(n); [[n - 1]] }",
    );
    for (what, game) in [
        ("sleep", &sleeps),
        ("import", &imports),
        ("loop", &loops),
        ("push", &pushes),
    ] {
        let r = run(&["seq", game, "-n", "5"], Input::Nothing);
        check(what, &r, 2);
    }
    let start = Instant::now();
    let r = run(
        &["analyze", &slow, "--max", "1000000", "--script-time", "2"],
        Input::Nothing,
    );
    check("script time", &r, 3);
    assert!(r.stderr.contains("--script-time"), "{}", r.stderr);
    assert!(start.elapsed() >= Duration::from_secs(2));
    let r = run(&["seq", &prints, "-n", "3", "--json"], Input::Nothing);
    check("print", &r, 0);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("stdout is one JSON");
    assert_eq!(doc["values"], serde_json::json!([0, 1, 0]));
    assert!(r.stderr.contains("to stderr"), "{}", r.stderr);
}

/// Misère searches of sums of many large heaps grow their stack of options without bound:
/// they stop at the memory budget.
#[test]
fn huge_misere_searches_stop_at_the_budget() {
    let heaps: Vec<String> = vec!["200".to_string(); 32];
    for game in ["grundys-game", "octal:0.FFFFFFFF"] {
        let mut args = vec!["position", game, "--misere"];
        args.extend(heaps.iter().map(String::as_str));
        let r = run(&args, Input::Nothing);
        check(game, &r, 3);
        assert!(r.stderr.contains("--memory"), "{game}: {}", r.stderr);
    }
}

/// Positions of huge heaps answered through a pattern list their winning moves from every
/// option of a heap: 5·10^7 options of Kayles would take gigabytes, so the options are charged
/// to the budget before they are made. A Node-Kayles graph read from a device is refused after
/// a bounded read.
#[test]
fn huge_positions_and_graph_devices_stop_at_their_limits() {
    let r = run(&["position", "kayles", "50000001", "1"], Input::Nothing);
    check("position kayles 50000001 1", &r, 3);
    assert!(r.stderr.contains("--memory"), "{}", r.stderr);
    if is_char_device("/dev/zero") {
        let r = run(&["solve", "node-kayles:/dev/zero"], Input::Nothing);
        check("solve node-kayles:/dev/zero", &r, 3);
        assert!(r.stderr.contains("16 MiB"), "{}", r.stderr);
    }
}

/// A scratch directory `name` with an excess cache filled by one run of `ordinal nim-pow
/// --cache CACHE w^(w^23) 97`: the directory (removed when dropped), the cache, that command,
/// and the cache's text.
fn filled_cache(name: &str) -> (tempfile::TempDir, PathBuf, Vec<String>, String) {
    let tmp = scratch(name);
    let dir = tmp.path();
    let cache = dir.join("excess.tsv");
    let c = cache.to_str().unwrap();
    let args = ["ordinal", "nim-pow", "--cache", c, "w^(w^23)", "97"];
    let r = run(&args, Input::Nothing);
    check("fresh cache", &r, 0);
    assert_eq!(r.stdout.trim(), "w+256");
    let good = std::fs::read_to_string(&cache).unwrap();
    let args = args.iter().map(|a| a.to_string()).collect();
    (tmp, cache, args, good)
}

/// A damaged line of the excess cache is ignored with a warning and computed again, never used.
#[test]
fn poisoned_caches_are_not_trusted() {
    let (_dir, cache, args, good) = filled_cache("cache");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let line = good
        .lines()
        .find(|l| l.starts_with("97\t"))
        .expect("the cache has the line of 97");
    // Cut the line short by one byte at every position of its value and checksum fields, and
    // change one byte of it.
    let mut poisons: Vec<String> = (1..=line.len().min(40))
        .map(|k| good.replace(line, &line[..line.len() - k]))
        .collect();
    poisons.push(good.replace(line, &line.replace("w+256", "w+25")));
    poisons.push(good.replace(line, &line.replace("w+256", "w+257")));
    for poison in poisons {
        std::fs::write(&cache, &poison).unwrap();
        let r = run(&args, Input::Nothing);
        check("poisoned cache", &r, 0);
        assert_eq!(r.stdout.trim(), "w+256", "cache:\n{poison}");
    }
}

/// A writer killed (SIGKILL) at any moment leaves the previous plot intact: the new one goes to
/// a temporary file renamed over the old only once complete.
#[test]
fn kills_during_writes_leave_the_previous_file() {
    let scratch_dir = scratch("kill");
    let dir = scratch_dir.path();
    let plot = dir.join("plot.svg");
    let p = plot.to_str().unwrap();
    let args = ["seq", "kayles", "-n", "100000", "--plot", p];
    let start = Instant::now();
    let r = run(&args, Input::Nothing);
    let full = start.elapsed();
    check("plot", &r, 0);
    let reference = std::fs::read(&plot).unwrap();
    assert!(reference.len() > 1 << 20, "a large plot");
    // Kills spread over the whole run, from its start to past its end.
    let kills = 60;
    for i in 0..kills {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(full.mul_f64(1.2 * i as f64 / kills as f64));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(&plot).unwrap();
        assert!(
            now == reference,
            "kill {i}: the plot is damaged ({} bytes)",
            now.len()
        );
    }
}

/// Asserts that a run stopped at its memory budget of `budget_mib` MiB: exit status 3, a
/// message naming `--memory`, and a peak resident set of at most 1.3 times the budget.
fn check_budget(what: &str, r: &Run, budget_mib: u64) {
    assert_eq!(r.code, Some(3), "{what}: {r:?}");
    assert!(r.took < TIME_BOUND, "{what} took {:?}", r.took);
    assert!(r.stderr.contains("--memory"), "{what}: {}", r.stderr);
    assert!(
        r.peak_kib * 10 <= budget_mib * 1024 * 13,
        "{what} peaked at {} KiB, above 1.3 times its budget of {budget_mib} MiB",
        r.peak_kib
    );
}

/// Script values nested 5 000 levels deep (within Rhai's size limits, which count the arrays
/// of a value; Rhai walks the whole value after each operation, so building one costs time in
/// the square of its depth) neither overflow a stack nor reach grundy: a deep position is
/// refused (status 2), a deep value the script drops itself is dropped.
#[test]
fn deep_script_values_do_not_abort() {
    let scratch_dir = scratch("deep");
    let dir = scratch_dir.path();
    let write = |name: &str, body: &str| written(dir, name, body);
    let deep = "let a = []; for i in 0..5000 { a = [a]; }";
    let start = write(
        "start.rhai",
        &format!("fn start() {{ {deep} a }} fn moves(p) {{ [] }}"),
    );
    let r = run(&["solve", &format!("rules:{start}")], Input::Nothing);
    check("deep start()", &r, 2);
    assert!(r.stderr.contains("nested more than"), "{}", r.stderr);
    let opts = write(
        "opts.rhai",
        &format!("fn options(n) {{ {deep} [[n - 1]] }}"),
    );
    let r = run(
        &["seq", &format!("script:{opts}"), "-n", "2"],
        Input::Nothing,
    );
    check("deep options()", &r, 0);
    assert_eq!(r.stdout.trim(), "0 1");
    let answer = write("answer.rhai", &format!("fn options(n) {{ {deep} [a] }}"));
    let r = run(
        &["seq", &format!("script:{answer}"), "-n", "2"],
        Input::Nothing,
    );
    check("deep answer of options()", &r, 2);
}

/// Scripts that hold copies of a long string in map keys or closures, or whose positions grow,
/// stop at the memory budget (status 3) under `seq`, `misere` and `solve`, with a peak resident
/// set within 1.3 times the budget.
#[test]
fn script_values_stay_inside_the_budget() {
    let scratch_dir = scratch("script-memory");
    let dir = scratch_dir.path();
    let write = |name: &str, body: &str| written(dir, name, body);
    let long = "let s = \"x\"; while s.len() < 30000 { s += s; }";
    let keys = write(
        "keys.rhai",
        &format!(
            "fn options(n) {{ {long} let m = #{{}}; for i in 0..100000 {{ m[s + i] = i; }} [] }}"
        ),
    );
    let closures = write(
        "closures.rhai",
        &format!("fn options(n) {{ {long} let f = []; for i in 0..100000 {{ let t = s + i; f.push(|| t); }} [] }}"),
    );
    for script in [&keys, &closures] {
        let game = format!("script:{script}");
        for args in [
            vec!["seq", game.as_str(), "-n", "3"],
            vec!["misere", game.as_str(), "--max-heap", "3"],
        ] {
            let r = run(&args, Input::Nothing);
            check_budget(&args.join(" "), &r, 512);
        }
    }
    let grow = write(
        "grow.rhai",
        "fn start() { [0] } \
         fn moves(p) { if p.len() > 20000 { return []; } let q = p; q.push(p.len()); [q, q + [1]] }",
    );
    let r = run(&["solve", &format!("rules:{grow}")], Input::Nothing);
    check_budget("solve rules:grow", &r, 512);
}

/// Searches charge everything they allocate, not only their tables: boards that outgrow the
/// budget stop with status 3 within 1.3 times it.
#[test]
fn board_searches_stay_inside_the_budget() {
    for (args, memory, mib) in [
        (&["solve", "cram:64x64", "--no-cache"][..], "64M", 64),
        (&["solve", "cram:2x2048", "--no-cache"][..], "256M", 256),
        (
            &["misere", "kayles", "--max-heap", "100000"][..],
            "256M",
            256,
        ),
    ] {
        let r = run_with_memory(args, Input::Nothing, memory);
        check_budget(&args.join(" "), &r, mib);
    }
}

/// A checkpoint of a script game is refused once the script is edited (its values belong to
/// the old rules); a checkpoint in a missing directory is refused when the command starts;
/// temporary files of killed writers are cleaned.
#[test]
fn checkpoints_follow_their_rules_and_directories() {
    let scratch_dir = scratch("checkpoint-rules");
    let dir = scratch_dir.path();
    let script = dir.join("rule.rhai");
    std::fs::write(
        &script,
        "fn options(n) { let r = []; for k in 1..=n { r.push([n - k]); } r }",
    )
    .unwrap();
    let game = format!("script:{}", script.display());
    let ckpt = dir.join("values.ckpt");
    let c = ckpt.to_str().unwrap();
    let r = run(
        &["seq", &game, "-n", "20", "--checkpoint", c],
        Input::Nothing,
    );
    check("first run", &r, 0);
    let nim: Vec<String> = (0..20).map(|n| n.to_string()).collect();
    assert_eq!(r.stdout.trim(), nim.join(" "));
    // Edited: take one or two.
    std::fs::write(
        &script,
        "fn options(n) { if n >= 2 { [[n - 1], [n - 2]] } else { [[0]] } }",
    )
    .unwrap();
    let r = run(
        &["seq", &game, "-n", "20", "--checkpoint", c],
        Input::Nothing,
    );
    check("edited script", &r, 2);
    assert!(
        r.stderr.contains("another version of the rules"),
        "{}",
        r.stderr
    );
    // A stale temporary of a dead process is removed by the next run.
    let stale = dir.join(".grundy-4000000000-x.tmp");
    std::fs::write(&stale, [0u8; 1000]).unwrap();
    let fresh = dir.join("fresh.ckpt");
    let r = run(
        &[
            "seq",
            &game,
            "-n",
            "5",
            "--checkpoint",
            fresh.to_str().unwrap(),
        ],
        Input::Nothing,
    );
    check("fresh checkpoint", &r, 0);
    assert!(!stale.exists());
    // A missing directory: refused at once, before any work.
    let missing = dir.join("no-such-dir").join("c.ckpt");
    let r = run(
        &[
            "seq",
            "kayles",
            "-n",
            "10",
            "--checkpoint",
            missing.to_str().unwrap(),
        ],
        Input::Nothing,
    );
    check("missing directory", &r, 2);
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
}

/// Random bytes on `nimber product` are refused at their first line, after one read, not after
/// reading the input limit.
#[test]
fn random_bytes_are_refused_at_the_first_bad_line() {
    if !is_char_device("/dev/urandom") {
        return;
    }
    let r = run(
        &["nimber", "product"],
        Input::File(Path::new("/dev/urandom")),
    );
    check("nimber product < /dev/urandom", &r, 2);
    assert!(r.took < Duration::from_secs(2), "took {:?}", r.took);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
}

/// Forged cache lines for huge primes (with valid checksums) never make an ordinal command
/// hang, and a line that is not UTF-8 is skipped with a warning while the rest is read.
#[test]
fn forged_and_invalid_cache_lines_are_skipped() {
    let (_dir, cache, args, good) = filled_cache("cache-forged");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let line = |fields: &str| {
        let sum = grundy::checksum::fnv1a(fields.as_bytes());
        format!("{fields}\t{sum:016x}\n")
    };
    let forged = format!(
        "{}{}",
        line("1000000007\t1\t500000003\t2\t1"),
        line("18446744073709551557\t1\t2\t2\t1")
    );
    let mut bytes = forged.into_bytes();
    bytes.extend_from_slice(b"\xff\xfe not text\n");
    bytes.extend_from_slice(good.as_bytes());
    std::fs::write(&cache, &bytes).unwrap();
    let r = run(&args, Input::Nothing);
    check("forged cache", &r, 0);
    assert!(r.took < Duration::from_secs(5), "took {:?}", r.took);
    assert_eq!(r.stdout.trim(), "w+256");
    assert!(r.stderr.contains("not UTF-8"), "{}", r.stderr);
}

/// A vertex name of a megabyte listed twice is named in the error by its first characters and
/// its length, not echoed whole.
#[test]
fn long_tokens_are_cut_in_messages() {
    let scratch_dir = scratch("long-token");
    let dir = scratch_dir.path();
    let name = "v".repeat(1 << 20);
    let graph = dir.join("g.txt");
    std::fs::write(&graph, format!("{name}:\n{name}:\n")).unwrap();
    let r = run(&["graph", "solve", graph.to_str().unwrap()], Input::Nothing);
    check("duplicate long name", &r, 2);
    assert!(
        r.stderr.contains("listed twice"),
        "{}",
        &r.stderr[..r.stderr.len().min(300)]
    );
    assert!(r.stderr.len() < 1000, "{} bytes of message", r.stderr.len());
}

/// Boards that are heap games in disguise are answered from their heap game, far beyond the
/// boards' own limits, each within a second.
#[test]
fn heap_games_in_disguise_are_answered_at_once() {
    for (game, value) in [
        ("chomp:100000", "99999"),
        ("node-kayles:path:100000", "1"),
        ("cram:1x100000", "3"),
        ("wythoff:100000,0", "100000"),
    ] {
        let r = run(&["solve", game], Input::Nothing);
        check(game, &r, 0);
        assert!(r.took < Duration::from_secs(1), "{game} took {:?}", r.took);
        assert_eq!(r.stdout, format!("N\nvalue {value}\n"), "{game}");
    }
}

/// The misère quotient of Nim is written down, not searched for: 1026 elements over heaps up to
/// 1000, within a second.
#[test]
fn the_misere_quotient_of_nim_is_given_at_once() {
    let r = run(&["misere", "nim", "--max-heap", "1000"], Input::Nothing);
    check("misere nim --max-heap 1000", &r, 0);
    assert!(r.took < Duration::from_secs(1), "took {:?}", r.took);
    assert!(
        r.stdout.contains("order: 1026"),
        "{}",
        &r.stdout[..r.stdout.len().min(300)]
    );
}

/// A thread count no machine can start is refused before any parallel work, by every command
/// that computes in parallel: rayon would otherwise spawn threads until the system refuses.
/// A count within the limit is obeyed, and the answers do not depend on it.
#[test]
fn absurd_thread_counts_are_refused_before_any_thread_starts() {
    let scratch_dir = scratch("threads");
    let graph = scratch_dir.path().join("g.txt");
    let lines: String = (0..5000).map(|i| format!("{i}: {}\n", i + 1)).collect();
    std::fs::write(&graph, lines).unwrap();
    let commands: [&[&str]; 4] = [
        &[
            "count",
            "nim",
            "--heaps",
            "1000000000000",
            "--max",
            "100000",
            "--mod",
            "998244353",
        ],
        &["seq", "sub:1-1000000", "-n", "2000000"],
        &["solve", "cram:5x6"],
        &["graph", "solve", graph.to_str().unwrap()],
    ];
    for args in commands {
        for bad in ["99999999999", "1025", "many"] {
            let r = run_with_env(args, Input::Nothing, "512M", &[("RAYON_NUM_THREADS", bad)]);
            check(&format!("RAYON_NUM_THREADS={bad} {args:?}"), &r, 2);
            assert!(r.stderr.contains("RAYON_NUM_THREADS"), "{}", r.stderr);
        }
        let one = run_with_env(args, Input::Nothing, "512M", &[("RAYON_NUM_THREADS", "1")]);
        check(&format!("RAYON_NUM_THREADS=1 {args:?}"), &one, 0);
        let many = run_with_env(args, Input::Nothing, "512M", &[("RAYON_NUM_THREADS", "64")]);
        check(&format!("RAYON_NUM_THREADS=64 {args:?}"), &many, 0);
        assert_eq!(one.stdout, many.stdout, "{args:?}");
    }
}
