//! Progress bars: drawn on stderr when it is a terminal, never otherwise (SPEC: "Progress bars
//! only when stderr is a terminal"). The terminal is a pseudo-terminal from util-linux `script`.

use assert_cmd::cargo::cargo_bin;
use assert_cmd::Command;

/// The long-running commands and the message of their bar.
fn cases() -> Vec<(Vec<String>, &'static str)> {
    let graph = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("progress-graph.txt");
    std::fs::write(&graph, "a: b\nb: c\nc: a d\nd: e\n").unwrap();
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    vec![
        (words("seq kayles -n 1000"), "computing"),
        (words("analyze kayles"), "computing"),
        (words("value kayles 5 1000000000000"), "computing"),
        (words("position kayles 3 5 6"), "computing"),
        (words("count kayles --heaps 3 --max 100"), "analysing"),
        (
            vec!["graph".into(), "solve".into(), graph.display().to_string()],
            "outcomes",
        ),
        (words("nimber order 2"), "computing the order"),
        (
            words("ordinal nim-mul w w --no-cache"),
            "computing in the field",
        ),
    ]
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    for (args, _) in cases() {
        Command::cargo_bin("grundy")
            .unwrap()
            .args(&args)
            .assert()
            .success()
            .stderr("");
    }
}

#[test]
fn progress_bar_on_a_terminal() {
    let grundy = cargo_bin("grundy");
    for (args, message) in cases() {
        // `script` runs the command on a pseudo-terminal and copies what it shows to stdout;
        // the command's own stdout is sent to /dev/null, so only stderr is seen.
        let line = format!("'{}' {} > /dev/null", grundy.display(), args.join(" "));
        let out = std::process::Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .output()
            .expect("util-linux `script` runs the command on a pseudo-terminal");
        assert!(out.status.success(), "{line}");
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(
            shown.contains(message),
            "{line}: no '{message}' bar in {shown:?}"
        );
    }
}
