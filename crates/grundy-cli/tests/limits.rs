//! Every limit message names a flag or an input that lowers the cost, and following it works:
//! for each kind of limit a command can reach, the command is run until it stops (status 3),
//! the advice is read from the message, and the command run again as advised succeeds.

use assert_cmd::Command;

/// Runs `stopped` (which must reach a limit), checks that its message gives `advice` and not
/// `wrong` (a flag that cannot help), then runs `followed`, which must succeed.
fn advice_works(stopped: &[&str], advice: &str, wrong: Option<&str>, followed: &[&str]) {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(stopped)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stopped:?}: {err}");
    assert!(err.contains(advice), "{stopped:?}: {err}");
    if let Some(wrong) = wrong {
        assert!(!err.contains(wrong), "{stopped:?}: {err}");
    }
    Command::cargo_bin("grundy")
        .unwrap()
        .args(followed)
        .assert()
        .success();
}

#[test]
fn sequence_length_and_memory() {
    advice_works(
        &["seq", "kayles", "-n", "3000000000"],
        "fewer values with -n",
        None,
        &["seq", "kayles", "-n", "1000"],
    );
    advice_works(
        &["seq", "kayles", "-n", "10000000", "--memory", "1M"],
        "fewer values with -n",
        None,
        &["seq", "kayles", "-n", "100000", "--memory", "1M"],
    );
}

#[test]
fn values_of_huge_heaps() {
    advice_works(
        &["value", "kayles", "1000000000000", "--max", "50"],
        "raise --max",
        None,
        &["value", "kayles", "1000000000000", "--max", "1000"],
    );
}

#[test]
fn positions_in_normal_and_misere_play() {
    advice_works(
        &["position", "kayles", "5000000", "--memory", "1M"],
        "use smaller heaps",
        None,
        &["position", "kayles", "50000", "--memory", "1M"],
    );
    // --max plays no part in misère play: the advice names the heaps.
    advice_works(
        &[
            "position",
            "grundys-game",
            "200",
            "200",
            "--misere",
            "--memory",
            "64M",
        ],
        "use fewer or smaller heaps",
        Some("--max"),
        &[
            "position",
            "grundys-game",
            "20",
            "20",
            "20",
            "20",
            "--misere",
            "--memory",
            "64M",
        ],
    );
}

#[test]
fn misere_quotients() {
    advice_works(
        &["misere", "kayles", "--max-heap", "1000000"],
        "use a smaller --max-heap",
        None,
        &["misere", "kayles", "--max-heap", "100"],
    );
    advice_works(
        &["misere", "kayles", "--max-heap", "100", "--memory", "64K"],
        "use a smaller --max-heap",
        None,
        &["misere", "kayles", "--max-heap", "10", "--memory", "64K"],
    );
}
