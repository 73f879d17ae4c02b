//! Ctrl-C (SIGINT) stops a long command within 2 s, with a message and status 130.
#![cfg(unix)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `grundy ARGS`, sends it SIGINT once it has computed for a while, and returns its exit
/// status, its stderr and how long it took to end after the signal.
fn interrupt(args: &[&str]) -> (Option<i32>, String, Duration) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "grundy {args:?} ended before the signal: not a long command"
    );
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("grundy {args:?} still runs 10 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err, took)
}

/// `0x123456789abcdef01122334455667789` to the power `0xdeadbeefcafe`, in nim arithmetic.
const LOG_TARGET: &str = "99001173482107797217733585398516693635";

#[test]
fn ctrl_c_stops_long_commands() {
    // A script whose every call takes millions of operations: stopped inside a call.
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("slow.rhai");
    std::fs::write(
        &script,
        "fn options(n) { let s = 0; for i in 0..1000000 { s += i; } [[n - 1]] }",
    )
    .unwrap();
    let script_game = format!("script:{}", script.display());
    let heaps = ["200"; 32];
    let mut misere = vec!["position", "grundys-game", "--misere", "--memory", "2G"];
    misere.extend(heaps);
    // A discrete logarithm in the field of 128-bit nimbers: seconds of baby and giant steps.
    let log = [
        "nimber",
        "log",
        "0x123456789abcdef01122334455667789",
        LOG_TARGET,
    ];
    // A product of two ordinals of 5000 terms each: 2.5·10^7 products of terms.
    let terms: Vec<String> = (0..5000)
        .rev()
        .map(|i| format!("w^{i}*{}", i + 1))
        .collect();
    let wide = terms.join("+");
    let product = ["ordinal", "nim-mul", &wide, &wide, "--no-cache"];
    let long_commands: [&[&str]; 6] = [
        &log,
        &product,
        // A game leaving three heaps: minutes of values.
        &["seq", "octal:0.8", "-n", "100000"],
        // A misère search growing towards its memory budget.
        &misere,
        // Its analysis, through the same engine.
        &["analyze", "octal:0.8", "--max", "100000"],
        &["seq", &script_game, "-n", "100000"],
    ];
    for args in long_commands {
        let (code, err, took) = interrupt(args);
        assert_eq!(code, Some(130), "grundy {args:?}: {err}");
        // Work estimated at minutes is announced first; the last line says it was interrupted.
        assert!(
            err.ends_with("grundy: interrupted\n"),
            "grundy {args:?}: {err}"
        );
        assert!(
            took < Duration::from_secs(2),
            "grundy {args:?} took {took:?}"
        );
    }
}
