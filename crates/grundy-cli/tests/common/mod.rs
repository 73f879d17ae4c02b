//! Helpers shared by the command-line tests: the binary, the output of a run that succeeds, and
//! the exit status and message of one that fails.

// Each test binary uses some of them.
#![allow(dead_code)]

use assert_cmd::Command;
use predicates::str::contains;

/// The `grundy` binary built for the tests.
pub fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// The stdout of a successful `grundy ARGS`.
pub fn stdout_of(args: &[&str]) -> String {
    let out = grundy().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

/// The JSON document a successful `grundy ARGS` prints.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

/// Asserts that `grundy ARGS` exits with status `code` and that its stderr contains each of
/// `needles`.
pub fn fails(args: &[&str], code: i32, needles: &[&str]) {
    let mut run = grundy().args(args).assert().code(code);
    for needle in needles {
        run = run.stderr(contains(*needle));
    }
}

/// A temporary file holding `text`, removed when dropped; its name ends in `name`.
pub fn temp(name: &str, text: &str) -> tempfile::TempPath {
    let file = tempfile::Builder::new()
        .prefix("grundy-test-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), text).unwrap();
    file.into_temp_path()
}

/// The library's solution document that an answer of the playground holds beside its own
/// fields `beside`: each of those is present, and the rest reads into the library's type
/// (which refuses unknown keys) and writes back to the same JSON.
pub fn solution_beside(
    doc: &serde_json::Value,
    beside: &[&str],
) -> grundy::solve::search::SolutionDocument {
    let mut solution = doc.as_object().unwrap().clone();
    for key in beside {
        assert!(solution.remove(*key).is_some(), "{key} missing: {doc}");
    }
    let solution = serde_json::Value::Object(solution);
    let read: grundy::solve::search::SolutionDocument =
        serde_json::from_value(solution.clone()).unwrap();
    assert_eq!(serde_json::to_value(&read).unwrap(), solution);
    read
}
