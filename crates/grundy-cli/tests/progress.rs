//! Progress bars: drawn on stderr when it is a terminal, never otherwise (SPEC: "Progress bars
//! only when stderr is a terminal"). The terminal is a pseudo-terminal from util-linux `script`.

use assert_cmd::cargo::cargo_bin;
use assert_cmd::Command;
use predicates::prelude::*;

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
        (words("solve cram:4x7 --no-cache"), "searching"),
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

/// Long work is announced up front with an estimate, and `--progress` writes plain lines for
/// logs (stderr here is a pipe, where no bar is drawn).
#[test]
fn long_work_is_announced_and_progress_lines_go_to_pipes() {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(["seq", "squares", "-n", "1000000000", "--progress"])
        .timeout(std::time::Duration::from_secs(6))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("grundy: computing 1000000000 values: about "),
        "{stderr}"
    );
    assert!(stderr.contains("grundy: computing: "), "{stderr}");
    assert!(stderr.contains(" of 1000000000 ("), "{stderr}");
    // Short work: no estimate; --progress says when it is done.
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["seq", "kayles", "-n", "1000", "--progress"])
        .assert()
        .success()
        .stderr(predicates::str::contains("computing: done in"))
        .stderr(predicates::str::contains("values: about").not());
    for cmd in ["seq", "analyze", "value", "count", "solve"] {
        Command::cargo_bin("grundy")
            .unwrap()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicates::str::contains("--progress"));
    }
}

/// A search says how many positions every thread has searched so far: `--progress` writes a
/// plain line every 2 s to a pipe, with where the search stands at the board (the value asked
/// about, the options asked), then how long the search took.
#[test]
fn a_long_search_reports_its_positions_in_plain_lines() {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args([
            "solve",
            "cram:7x7",
            "--no-cache",
            "--progress",
            "--memory",
            "1G",
        ])
        .timeout(std::time::Duration::from_secs(7))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .rfind(|l| l.starts_with("grundy: searching: ") && l.contains(" s elapsed"))
        .unwrap_or_else(|| panic!("no progress line in {stderr:?}"));
    let positions: u64 = line["grundy: searching: ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {line:?}"));
    assert!(positions > 0, "{line}");
    assert!(line.contains(" positions, "), "{line}");
    // 7×7 has 84 moves; its value is 1, so the search asks first whether an option has 0.
    let note = line.split_once(" s elapsed; ").map(|(_, n)| n);
    let note = note.unwrap_or_else(|| panic!("no note in {line:?}"));
    assert!(
        note.starts_with("asking whether the board's value is 0: ")
            || note.starts_with("the board: value at least 1; asking whether its value is 1: "),
        "{line}"
    );
    // The search of the option being asked (47 cells) may say where it stands, after
    // "; inside the option(s) being asked: ": "A of O" an engine, with "> A of O" for each
    // level of search below it, "-" for an engine that has not said.
    let (note, inside) = match note.split_once("; inside the option") {
        Some((n, i)) => (n, Some(i)),
        None => (note, None),
    };
    if let Some(inside) = inside {
        let each = inside.split_once(" being asked: ").map(|(_, e)| e);
        let each = each.and_then(|e| e.strip_suffix(" options asked"));
        let each = each.unwrap_or_else(|| panic!("no inner counts in {line:?}"));
        for e in each
            .split(" + ")
            .flat_map(|e| e.split(" > "))
            .filter(|&e| e != "-")
        {
            let (a, o) = e.split_once(" of ").unwrap();
            assert!(
                a.parse::<u32>().unwrap() <= o.parse::<u32>().unwrap(),
                "{line}"
            );
        }
    }
    // One engine: "A of O options asked"; several: "A + B of O options asked by 2 engines".
    let counts = note.rsplit_once(": ").map(|(_, c)| c);
    let counts = counts.unwrap_or_else(|| panic!("no counts in {line:?}"));
    let counts = counts.split(" options asked").next().unwrap();
    let (asked, options) = counts.split_once(" of ").unwrap();
    let options: u32 = options.parse().unwrap();
    for a in asked.split(" + ") {
        assert!(a.parse::<u32>().unwrap() <= options, "{line}");
    }
    assert!(options <= 84, "{line}");
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["solve", "cram:4x7", "--no-cache", "--progress"])
        .assert()
        .success()
        .stdout("N\nvalue 3\n")
        .stderr(predicates::str::starts_with("grundy: searching: done in"));
}
