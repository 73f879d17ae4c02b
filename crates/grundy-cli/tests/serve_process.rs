//! The server as a process: Ctrl-C stops it within two seconds even while jobs run, scripts'
//! `print` and `debug` reach none of its output, and the memory of a heavy job is handed back
//! to the system once the job ends.

#[path = "support/server.rs"]
mod support;

use grundy_cli::serve::limits::Limits;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{exchange, post_raw, Server};

/// `grundy serve --port 0`, and the port it reports.
fn spawn_server() -> (Child, u16) {
    spawn_server_with(&[], None)
}

/// `grundy FLAGS serve --port 0` with `GRUNDY_MEMORY` set to `memory` (or unset), and the port
/// it reports.
fn spawn_server_with(flags: &[&str], memory: Option<&str>) -> (Child, u16) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(flags)
        .args(["serve", "--port", "0"])
        .env_remove("GRUNDY_MEMORY");
    if let Some(m) = memory {
        command.env("GRUNDY_MEMORY", m);
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .parse()
        .unwrap();
    (child, port)
}

/// Sends SIGINT (what Ctrl-C sends) to `child` and waits at most `wait` for it to end: its exit
/// status and the time it took, or `None` (then it is killed).
fn interrupt(child: &mut Child, wait: Duration) -> Option<(std::process::ExitStatus, Duration)> {
    // SAFETY: kill only sends a signal to the child we started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let start = Instant::now();
    while start.elapsed() < wait {
        if let Some(status) = child.try_wait().unwrap() {
            return Some((status, start.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn post_json(port: u16, path: &str, json: &str) -> std::thread::JoinHandle<(u16, String)> {
    let raw = post_raw(
        &format!("127.0.0.1:{port}"),
        path,
        Some("application/json"),
        json,
    );
    std::thread::spawn(move || exchange(port, &raw, Duration::from_secs(30)))
}

#[test]
fn ctrl_c_stops_the_server_within_two_seconds_while_jobs_run() {
    let (mut child, port) = spawn_server();
    let heaps200 = format!("[{}]", vec!["200"; 32].join(","));
    let jobs = vec![
        // Two misère searches without a proved quotient: each grows until its deadline or
        // budget (a sequence of Grundy's game, tried before, ends within a second).
        post_json(
            port,
            "/api/hint",
            &format!(r#"{{"game":"octal:0.FFFFFFFF","heaps":{heaps200},"misere":true}}"#),
        ),
        post_json(
            port,
            "/api/hint",
            &format!(r#"{{"game":"grundys-game","heaps":{heaps200},"misere":true}}"#),
        ),
    ];
    // Both jobs are running (each would take well over the 10 s deadline).
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server ended early"
    );
    let (status, took) = interrupt(&mut child, Duration::from_secs(2))
        .expect("the server did not stop within 2 s of Ctrl-C");
    assert!(status.success(), "{status:?} after {took:?}");
    for job in jobs {
        // Each request was answered (503, the job stopped) or its connection closed.
        let (status, _) = job.join().unwrap();
        assert!(status == 503 || status == 0, "{status}");
    }
}

#[test]
fn scripts_print_nothing_to_the_server_output() {
    let (mut child, port) = spawn_server();
    let script = r#"fn options(n) { print("LEAKED-PRINT"); debug("LEAKED-DEBUG"); [[n - 1]] }"#;
    let body = serde_json::json!({"game": "script", "script": script, "n": 5}).to_string();
    let (status, answer) = post_json(port, "/api/seq", &body).join().unwrap();
    assert_eq!(status, 200, "{answer}");
    interrupt(&mut child, Duration::from_secs(5)).expect("the server did not stop");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(
        !out.contains("LEAKED") && !err.contains("LEAKED"),
        "{out}\n{err}"
    );
}

/// The field `key` (`VmRSS:`, `VmHWM:`) of `/proc/PROCESS/status`, in bytes (Linux).
fn status_bytes(process: &str, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb * 1024
}

/// This process's resident memory, in bytes (Linux).
fn rss() -> u64 {
    status_bytes("self", "VmRSS:")
}

const MB: u64 = 1 << 20;

/// Runs one heavy job on `server` and returns this process's resident memory before it, at its
/// peak, and one second after its answer.
fn memory_around(server: &Server, path: &str, body: &str) -> (u64, u64, u64) {
    let before = rss();
    let job = post_json(server.port, path, body);
    let mut peak = before;
    while !job.is_finished() {
        peak = peak.max(rss());
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, answer) = job.join().unwrap();
    // The job ends at its deadline (503), its memory budget (422) or the search's position
    // limit (400): each is a job that grew and was stopped.
    assert!(
        status == 503 || status == 422 || (status == 400 && answer.contains("limit reached")),
        "{status} {answer}"
    );
    std::thread::sleep(Duration::from_secs(1));
    (before, peak, rss())
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_memory_of_a_heavy_job_is_returned_when_it_ends() {
    let server = Server::start(Limits {
        deadline: Duration::from_secs(3),
        ..Limits::default()
    });
    // Misère searches, each growing until its deadline. Grundy's game on 32 heaps holds large
    // tables of options (hundreds of megabytes); Dawson's Kayles (searched: it has no certified
    // quotient over heaps this large) holds many small positions, which glibc
    // keeps in the job thread's arena after they are freed (about 50 MB of this run stay
    // resident without the trim at the end of the job).
    let heaps200 = format!("[{}]", vec!["200"; 32].join(","));
    let cases = [
        (
            format!(r#"{{"game":"grundys-game","heaps":{heaps200},"misere":true}}"#),
            200 * MB,
            100 * MB,
        ),
        (
            r#"{"game":"dawsons-kayles","heaps":[200,199,198,197,196,195,194,193,192,191],"misere":true}"#.to_string(),
            40 * MB,
            20 * MB,
        ),
    ];
    for (body, growth, kept) in cases {
        let (before, peak, after) = memory_around(&server, "/api/hint", &body);
        let mb = |b: u64| b / MB;
        assert!(
            peak > before + growth,
            "{body}: the job grew only from {} MB to {} MB, not a test of returning memory",
            mb(before),
            mb(peak)
        );
        assert!(
            after <= before + kept,
            "{body}: {} MB resident a second after the job, {} MB before it, {} MB at its peak",
            mb(after),
            mb(before),
            mb(peak)
        );
    }
}

/// The body of an `/api/seq` request whose script holds copies of a 32 KB string in map keys
/// or closures (which Rhai's size limits do not see) until its job's memory budget stops it.
fn hoarding_script(hold: &str) -> String {
    let long = r#"let s = \"x\"; while s.len() < 30000 { s += s; }"#;
    format!(r#"{{"game":"script","script":"fn options(n) {{ {long} {hold} [] }}","n":3}}"#)
}

const HOARDS: [&str; 2] = [
    r#"let m = #{}; for i in 0..300000 { m[s + i] = i; }"#,
    r#"let f = []; for i in 0..300000 { let t = s + i; f.push(|| t); }"#,
];

/// Under `--memory 6G` the six jobs that may run at once (two heavy, four fast) get 1 GiB each:
/// scripts hoarding memory stop at that budget with 422, and the server's peak resident memory
/// stays within 1.3 times it.
#[test]
#[cfg(target_os = "linux")]
fn scripts_stop_at_the_job_memory_budget() {
    let (mut child, port) = spawn_server_with(&["--memory", "6G"], None);
    for hold in HOARDS {
        let body = hoarding_script(hold);
        let start = Instant::now();
        let (status, answer) = post_json(port, "/api/seq", &body).join().unwrap();
        assert_eq!(status, 422, "{answer}");
        assert!(answer.contains("memory budget of 1.0 GiB"), "{answer}");
        assert!(start.elapsed() < Duration::from_secs(12));
        let peak = status_bytes(&child.id().to_string(), "VmHWM:");
        assert!(
            peak * 10 <= (1u64 << 30) * 13,
            "the server peaked at {} MiB",
            peak >> 20
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The job's budget is a share of the run's memory budget, from `--memory` or else
/// `GRUNDY_MEMORY`: 60 MiB shared by six jobs stops a hoarding script at 10 MiB, and the flag
/// wins over the variable.
#[test]
#[cfg(target_os = "linux")]
fn the_job_budget_is_a_share_of_the_run_budget() {
    for (flags, memory, share) in [
        (&["--memory", "60M"][..], None, "10.0 MiB"),
        (&[][..], Some("60M"), "10.0 MiB"),
        (&["--memory", "120M"][..], Some("60M"), "20.0 MiB"),
    ] {
        let (mut child, port) = spawn_server_with(flags, memory);
        let (status, answer) = post_json(port, "/api/seq", &hoarding_script(HOARDS[0]))
            .join()
            .unwrap();
        assert_eq!(status, 422, "{answer}");
        assert!(
            answer.contains(&format!("memory budget of {share}")),
            "{flags:?} {memory:?}: {answer}"
        );
        assert!(answer.contains("grundy serve --memory"), "{answer}");
        let _ = child.kill();
        let _ = child.wait();
    }
}
