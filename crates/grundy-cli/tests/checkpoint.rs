//! `--checkpoint FILE` of `grundy seq` and `grundy analyze`: a run killed midway resumes from
//! what it saved, with the same result as an uninterrupted run; foreign or damaged files are
//! refused.

use assert_cmd::Command;
use predicates::str::contains;
use std::path::Path;
use std::time::{Duration, Instant};

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// A fresh directory for one test's files, removed when dropped.
fn dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("grundy-checkpoint-{name}-"))
        .tempdir()
        .unwrap()
}

/// The value count in a checkpoint's header (None while there is no complete file).
fn saved_count(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_string();
    head.lines()
        .find_map(|l| l.strip_prefix("values: "))
        .and_then(|n| n.parse().ok())
}

fn stdout_of(args: &[&str]) -> (String, String) {
    let out = grundy().args(args).assert().success().get_output().clone();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Starts a run, kills it (SIGKILL) once it has saved a checkpoint and before it ends, reruns
/// it: the rerun says it resumed from the saved values and prints what an uninterrupted run
/// prints.
#[test]
fn a_killed_run_resumes_from_its_checkpoint() {
    let scratch = dir("kill");
    let d = scratch.path();
    let file = d.join("octal.ckpt");
    let f = file.to_str().unwrap();
    let n = "6000000";
    let args = [
        "seq",
        "octal:0.1777",
        "-n",
        n,
        "--checkpoint",
        f,
        "--checkpoint-every",
        "0",
    ];
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = std::process::Command::new(&bin)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let saved = loop {
        if let Some(k) = saved_count(&file) {
            break k;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before its first checkpoint"
        );
        assert!(start.elapsed() < Duration::from_secs(600), "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    // What the killed run left (a later checkpoint may have been renamed in meanwhile).
    let left = saved_count(&file).unwrap();
    assert!(left >= saved && left >= 1 << 20, "{left}");
    assert!(left < 6_000_000, "the run had finished before the kill");
    let (resumed, err) = stdout_of(&args);
    assert!(
        err.contains(&format!("resuming from checkpoint {f}: {left} values")),
        "{err}"
    );
    let (fresh, _) = stdout_of(&["seq", "octal:0.1777", "-n", n]);
    assert_eq!(resumed, fresh);
    assert_eq!(saved_count(&file), Some(6_000_000));
    // A shorter request is answered from the longer checkpoint, which stays as it is.
    let (short, err) = stdout_of(&["seq", "octal:0.1777", "-n", "10", "--checkpoint", f]);
    assert!(err.contains("resuming from checkpoint"), "{err}");
    assert_eq!(short, "0 1 1 2 2 3 4 1 1 6\n");
    assert_eq!(saved_count(&file), Some(6_000_000));
}

/// An analysis resumed from a checkpoint (here one a `seq` run left) reports what a fresh one
/// reports: the proved period of 0.16.
#[test]
fn analyze_resumes_and_proves_the_same_period() {
    let scratch = dir("analyze");
    let d = scratch.path();
    let file = d.join("016.ckpt");
    let f = file.to_str().unwrap();
    let (fresh, _) = stdout_of(&["analyze", "octal:0.16"]);
    assert!(
        fresh.contains("period 149459, preperiod 105351 (proved)"),
        "{fresh}"
    );
    stdout_of(&["seq", "octal:0.16", "-n", "300000", "--checkpoint", f]);
    let (resumed, err) = stdout_of(&["analyze", "octal:0.16", "--checkpoint", f]);
    assert!(
        err.contains(&format!("resuming from checkpoint {f}: 300000 values")),
        "{err}"
    );
    assert_eq!(resumed, fresh);
}

/// A checkpoint of another game, or a damaged one, is refused with exit status 2 and left
/// untouched.
#[test]
fn foreign_and_damaged_checkpoints_are_refused() {
    let scratch = dir("refuse");
    let d = scratch.path();
    let file = d.join("kayles.ckpt");
    let f = file.to_str().unwrap();
    stdout_of(&["seq", "kayles", "-n", "100", "--checkpoint", f]);
    let good = std::fs::read(&file).unwrap();
    grundy()
        .args(["analyze", "dawsons-kayles", "--checkpoint", f])
        .assert()
        .code(2)
        .stderr(contains("holds values of octal:0.77, not of octal:0.07"));
    assert_eq!(std::fs::read(&file).unwrap(), good);
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&file, &bad).unwrap();
    grundy()
        .args(["seq", "kayles", "-n", "200", "--checkpoint", f])
        .assert()
        .code(2)
        .stderr(contains("checksum mismatch"));
    std::fs::write(&file, &good[..good.len() - 3]).unwrap();
    grundy()
        .args(["analyze", "kayles", "--checkpoint", f])
        .assert()
        .code(2)
        .stderr(contains("cut short"));
    std::fs::write(&file, b"hello\n").unwrap();
    grundy()
        .args(["analyze", "kayles", "--checkpoint", f])
        .assert()
        .code(2)
        .stderr(contains("not a sound checkpoint"));
    assert_eq!(std::fs::read(&file).unwrap(), b"hello\n");
}

/// Runs `grundy ARGS` (a Cram search with `--checkpoint TABLE`) on one thread, sends it SIGINT
/// after a second, once more `again` milliseconds later if `again` is given, and checks that it
/// ended with status 130 after saving a table of more than 1 MiB to `table`.
#[cfg(unix)]
fn stop_and_check_saved(args: &[&str], table: &Path, again: Option<u64>) {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .env("RAYON_NUM_THREADS", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    let pid = child.id().to_string();
    for pause in std::iter::once(0).chain(again) {
        std::thread::sleep(Duration::from_millis(pause));
        assert!(std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success());
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("the same command goes on from it"), "{err}");
    assert!(std::fs::metadata(table).unwrap().len() > 1 << 20);
}

/// One stop delivered twice within a few milliseconds, as GNU `timeout -s INT` delivers it (to
/// the command, then to its process group), is one Ctrl-C: the table is saved, not dropped as
/// by a second Ctrl-C.
#[cfg(unix)]
#[test]
fn a_stop_delivered_twice_at_once_still_saves_the_table() {
    let d = dir("cram-twice");
    let table = d.path().join("4x11.table");
    let t = table.to_str().unwrap();
    let args = ["solve", "cram:4x11", "--no-cache", "--checkpoint", t];
    stop_and_check_saved(&args, &table, Some(20));
}

/// `grundy solve cram:... --checkpoint FILE`: a search stopped by Ctrl-C saves its table and
/// ends with status 130; the same command says it resumes from the table, prints the value of
/// a run without it, and saves the table again; a table of another board, a damaged one, and
/// a game without such a table are refused (exit status 2).
#[cfg(unix)]
#[test]
fn a_cram_search_stopped_by_ctrl_c_goes_on_from_its_table() {
    let d = dir("cram");
    let table = d.path().join("4x11.table");
    let t = table.to_str().unwrap();
    let args = ["solve", "cram:4x11", "--no-cache", "--checkpoint", t];
    stop_and_check_saved(&args, &table, None);

    let (stdout, stderr) = stdout_of(&args);
    assert_eq!(stdout, "N\nvalue 1\n");
    assert!(
        stderr.contains("grundy: resuming from the table in"),
        "{stderr}"
    );
    assert!(
        stderr.contains("grundy: the table was saved to"),
        "{stderr}"
    );

    // Another board's table, a changed byte, another game: refused before any search.
    grundy()
        .args(["solve", "cram:5x8", "--no-cache", "--checkpoint", t])
        .assert()
        .code(2)
        .stderr(contains("it is the table of 'cram:"));
    let mut bytes = std::fs::read(&table).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&table, &bytes).unwrap();
    grundy()
        .args(args)
        .assert()
        .code(2)
        .stderr(contains("its checksum fails"));
    grundy()
        .args([
            "solve",
            "cram:4x11",
            "--checkpoint",
            d.path().to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(contains("is a directory: name a file"));
    grundy()
        .args([
            "solve",
            "cram:4x11",
            "--checkpoint",
            t,
            "--checkpoint-every",
            "soon",
        ])
        .assert()
        .code(2)
        .stderr(contains("--checkpoint-every"));
    grundy()
        .args(["solve", "chomp:4x4", "--checkpoint", t])
        .assert()
        .code(2)
        .stderr(contains("only a Cram board in normal play"));
}
