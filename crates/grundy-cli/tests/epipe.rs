//! A reader that goes away (`grundy ... | head -c 1`) ends every command quietly: exit status
//! 0, nothing on stderr about the pipe, never a panic (exit status 101). Every command of the
//! tree is run with a small input, and every shell of `grundy completions`.

mod cli_tree;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// A small run of every command that writes to stdout, by command path. The files it reads are
/// in `dir`.
fn cases(dir: &std::path::Path) -> Vec<(&'static str, Vec<String>, &'static str)> {
    let graph = dir.join("g.txt").to_string_lossy().into_owned();
    let dag = dir.join("dag.txt").to_string_lossy().into_owned();
    let matrix = dir.join("m.txt").to_string_lossy().into_owned();
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let mut v = vec![
        ("nimber add", s(&["nimber", "add", "5", "3"]), ""),
        ("nimber mul", s(&["nimber", "mul", "8", "9"]), ""),
        ("nimber div", s(&["nimber", "div", "5", "9"]), ""),
        ("nimber inv", s(&["nimber", "inv", "2"]), ""),
        ("nimber pow", s(&["nimber", "pow", "2", "3"]), ""),
        ("nimber sqrt", s(&["nimber", "sqrt", "123456789"]), ""),
        ("nimber order", s(&["nimber", "order", "2"]), ""),
        ("nimber log", s(&["nimber", "log", "2", "3"]), ""),
        ("nimber solve", s(&["nimber", "solve", "1", "1"]), ""),
        (
            "nimber product",
            s(&["nimber", "product"]),
            "3\n1 1\n2 2\n8 9\n",
        ),
        ("graph solve", s(&["graph", "solve", &graph]), ""),
        ("graph dot", s(&["graph", "dot", &graph]), ""),
        ("seq", s(&["seq", "kayles", "-n", "20000"]), ""),
        ("position", s(&["position", "kayles", "3", "5", "6"]), ""),
        ("analyze", s(&["analyze", "kayles"]), ""),
        ("value", s(&["value", "kayles", "1000000"]), ""),
        ("misere", s(&["misere", "kayles", "--max-heap", "40"]), ""),
        (
            "count",
            s(&["count", "nim", "--heaps", "3", "--max", "7"]),
            "",
        ),
        (
            "ordinal nim-sum",
            s(&["ordinal", "nim-sum", "w+1", "w+2"]),
            "",
        ),
        ("ordinal add", s(&["ordinal", "add", "w", "1"]), ""),
        ("ordinal mul", s(&["ordinal", "mul", "w+1", "2"]), ""),
        ("ordinal pow", s(&["ordinal", "pow", "w+1", "3"]), ""),
        ("ordinal cmp", s(&["ordinal", "cmp", "w", "w^2"]), ""),
        (
            "ordinal cascade",
            s(&["ordinal", "cascade", "1,0", "0,3"]),
            "",
        ),
        ("ordinal matrix", s(&["ordinal", "matrix", &matrix]), ""),
        ("ordinal dag", s(&["ordinal", "dag", &dag]), ""),
        ("ordinal election", s(&["ordinal", "election", &dag]), ""),
        (
            "ordinal increases",
            s(&["ordinal", "increases", "--zero", "0:2"]),
            "",
        ),
        (
            "ordinal nim-mul",
            s(&["ordinal", "nim-mul", "w", "w^2", "--no-cache"]),
            "",
        ),
        (
            "ordinal nim-inv",
            s(&["ordinal", "nim-inv", "w", "--no-cache"]),
            "",
        ),
        (
            "ordinal nim-pow",
            s(&["ordinal", "nim-pow", "w", "3", "--no-cache"]),
            "",
        ),
        (
            "ordinal excess",
            s(&["ordinal", "excess", "7", "--no-cache"]),
            "",
        ),
        ("solve", s(&["solve", "chomp:3,2,2", "--moves"]), ""),
        (
            "play",
            s(&["play", "nim", "1", "2", "3"]),
            "hint\n1 -> 0\nquit\n",
        ),
        ("manpage", s(&["manpage"]), ""),
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        v.push(("completions", s(&["completions", shell]), ""));
    }
    // Every JSON document too, where the command has one.
    let json: Vec<_> = v
        .iter()
        .filter(|(path, args, _)| {
            ![
                "manpage",
                "completions",
                "play",
                "graph dot",
                "nimber product",
            ]
            .contains(path)
                && !args.contains(&"--json".to_string())
        })
        .map(|(path, args, input)| {
            let mut a = args.clone();
            a.push("--json".into());
            (*path, a, *input)
        })
        .collect();
    v.extend(json);
    v
}

/// Commands that write nothing to stdout: `serve` prints its address on stderr.
const NO_STDOUT: &[&str] = &["serve"];

fn files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.txt"), "a: b\nb: c\nc: a d\nd: e\n").unwrap();
    std::fs::write(dir.path().join("dag.txt"), "a=1: b c\nb=1: c\nc=1\n").unwrap();
    std::fs::write(dir.path().join("m.txt"), "1 2\n3 4\n").unwrap();
    dir
}

/// Asserts that the run ended quietly on the closed pipe.
fn check_quiet(what: &str, status: std::process::ExitStatus, stderr: &[u8]) {
    let stderr = String::from_utf8_lossy(stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.to_lowercase().contains("broken pipe"),
        "{what}: {stderr}"
    );
    assert_eq!(status.code(), Some(0), "{what}: {stderr}");
}

#[test]
fn every_command_is_covered() {
    let dir = files();
    let covered: Vec<&str> = cases(dir.path()).iter().map(|c| c.0).collect();
    for (path, text) in cli_tree::tree() {
        // Leaves only: a command with subcommands prints its help.
        if path.is_empty() || text.contains("\nCommands:") {
            continue;
        }
        let name = path.join(" ");
        assert!(
            covered.contains(&name.as_str()) || NO_STDOUT.contains(&name.as_str()),
            "`grundy {name}` has no broken-pipe case"
        );
    }
}

/// Starts `grundy ARGS` with piped stdin, stdout and stderr, and writes `input` (a command that
/// does not read its input may have exited already: a failed write is ignored).
fn start(args: &[String], input: &str, cache: &std::path::Path) -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child
}

/// The reader closes its end before the command writes anything: the first write fails.
#[test]
fn closed_before_the_first_write() {
    let dir = files();
    for (_, args, input) in cases(dir.path()) {
        let mut child = start(&args, input, dir.path());
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        check_quiet(&args.join(" "), out.status, &out.stderr);
    }
}

/// As the shell runs it: `grundy ... | head -c 1`, one byte read and the pipe closed.
#[test]
fn piped_into_head() {
    let dir = files();
    for (_, args, input) in cases(dir.path()) {
        let mut child = start(&args, input, dir.path());
        let mut stdout = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        stdout.read_exact(&mut byte).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        check_quiet(&args.join(" "), out.status, &out.stderr);
    }
}

/// The real `head`, through a shell pipeline, for the commands of the report: the status of
/// grundy (not of head) is 0 and nothing is said.
#[test]
fn shell_pipeline_into_head() {
    let bin = env!("CARGO_BIN_EXE_grundy");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "'{bin}' completions {shell} | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}"
            ))
            .output()
            .unwrap();
        check_quiet(&format!("completions {shell}"), out.status, &out.stderr);
    }
}
