//! `grundy completions SHELL` and `grundy manpage`: a completion script for each shell that
//! names every subcommand (and a bash script bash accepts), manual pages for the whole command
//! tree; a bad shell or directory is a usage error.

mod cli_tree;

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    // Every command name anywhere in the tree (`nimber`, `mul`, `nim-mul`, `completions`, ...).
    let mut names: Vec<String> = cli_tree::tree()
        .into_iter()
        .filter_map(|(path, _)| path.last().cloned())
        .collect();
    names.sort();
    names.dedup();
    for expected in [
        "nimber", "graph", "seq", "analyze", "count", "ordinal", "nim-mul",
    ] {
        assert!(
            names.iter().any(|c| c == expected),
            "{expected} in {names:?}"
        );
    }
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = grundy().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for name in &names {
            assert!(
                script.contains(name.as_str()),
                "{shell} script lacks {name}"
            );
        }
        assert!(script.contains("grundy"), "{shell}");
    }
}

#[test]
fn bash_accepts_the_bash_script() {
    let out = grundy().args(["completions", "bash"]).output().unwrap();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("grundy.bash");
    std::fs::write(&path, &out.stdout).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.contains("complete -F"));
}

#[test]
fn bad_or_missing_shell_exits_2() {
    grundy()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("invalid value 'tcsh'").and(contains("bash")));
    grundy()
        .args(["completions"])
        .assert()
        .code(2)
        .stderr(contains("<SHELL>"));
}

#[test]
fn manpage_to_stdout_names_the_subcommands() {
    let out = grundy().arg("manpage").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH grundy 1"), "{page}");
    for (path, _) in cli_tree::tree().into_iter().filter(|(p, _)| p.len() == 1) {
        assert!(
            page.contains(&format!("grundy\\-{}(1)", path[0])),
            "{path:?}"
        );
    }
}

#[test]
fn manpage_dir_has_a_page_for_every_command() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("man1");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    grundy()
        .args(["manpage", "--dir"])
        .arg(&dir)
        .assert()
        .success()
        .stdout("");
    for (path, _) in cli_tree::tree() {
        let name = ["grundy".to_string()]
            .iter()
            .chain(&path)
            .cloned()
            .collect::<Vec<_>>()
            .join("-");
        let page = std::fs::read_to_string(dir.join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(".TH"), "{name}.1");
    }
    grundy()
        .args(["manpage", "--dir", "/nonexistent/man"])
        .assert()
        .code(2)
        .stderr(contains("expected an existing directory"));
}
