//! The store of solved values of `grundy solve` (Cram regions of 24 cells or more): it is read
//! back by a later run, left out with `--no-cache`, and a damaged file is reported and never
//! trusted. The boards' values are published (4×7 = 3, 5×5 = 0: Beling's table of Cram values,
//! which these agree with) and are checked against the run without a store.
#![cfg(feature = "store")]

use assert_cmd::Command;
use predicates::str::contains;
use std::path::Path;

/// `grundy solve ARGS` with its cache directory in `cache`.
fn grundy(cache: &Path, args: &[&str]) -> Command {
    let mut c = Command::cargo_bin("grundy").unwrap();
    c.env("XDG_CACHE_HOME", cache).arg("solve").args(args);
    c
}

/// The number after "positions searched" in the statistics of `-v`.
fn positions(stderr: &[u8]) -> u64 {
    let s = String::from_utf8_lossy(stderr);
    let rest = s
        .split("positions searched ")
        .nth(1)
        .unwrap_or_else(|| panic!("no statistics in {s}"));
    rest.split(',').next().unwrap().parse().unwrap()
}

#[test]
fn a_second_run_reads_the_values_of_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let first = grundy(dir.path(), &["cram:4x7", "-v"]).assert().success();
    let first = first.get_output();
    assert_eq!(String::from_utf8_lossy(&first.stdout), "N\nvalue 3\n");
    let file = dir.path().join("grundy").join("values.redb");
    assert!(file.exists(), "no store at {}", file.display());
    let second = grundy(dir.path(), &["cram:4x7", "-v"]).assert().success();
    let second = second.get_output();
    assert_eq!(String::from_utf8_lossy(&second.stdout), "N\nvalue 3\n");
    // The board itself is in the store: nothing is searched.
    assert!(
        positions(&second.stderr) < positions(&first.stderr),
        "{} then {}",
        positions(&first.stderr),
        positions(&second.stderr)
    );
    assert!(!String::from_utf8_lossy(&second.stderr).contains("warning"));
}

/// A board of 48 free cells or more reads the keys of the store into its filter before its
/// search asks about a region: the values of the first run still come back. The board is a 4×7
/// and a 4×5 side by side, apart (3 ⊕ 2 = 1).
#[test]
fn a_large_board_reads_the_values_of_the_first_run_through_its_index() {
    let dir = tempfile::tempdir().unwrap();
    let board = "cram:.......#...../.......#...../.......#...../.......#.....";
    let first = grundy(dir.path(), &[board, "-v"]).assert().success();
    let first = first.get_output();
    assert_eq!(String::from_utf8_lossy(&first.stdout), "N\nvalue 1\n");
    let second = grundy(dir.path(), &[board, "-v"]).assert().success();
    let second = second.get_output();
    assert_eq!(String::from_utf8_lossy(&second.stdout), "N\nvalue 1\n");
    assert!(
        positions(&second.stderr) < positions(&first.stderr) / 4,
        "{} then {}",
        positions(&first.stderr),
        positions(&second.stderr)
    );
    let (first, second) = (
        String::from_utf8_lossy(&first.stderr),
        String::from_utf8_lossy(&second.stderr),
    );
    assert!(!second.contains("warning"));
    // -v says what the store gave and took: nothing read and every value recorded on the
    // first run; on the second, the keys indexed and values read.
    assert!(first.contains("store: 0 read, "), "{first}");
    assert!(!first.contains("indexed"), "{first}");
    let read: u64 = second
        .split("store: ")
        .nth(1)
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no store line in {second}"));
    assert!(read > 0, "{second}");
    assert!(second.contains("keys indexed first"), "{second}");
}

/// A board settled without searching a region of 24 cells (4×10 and 6×6, even × even: the
/// second player mirrors) neither opens nor creates the store, and `-v` says so.
#[test]
fn a_board_settled_without_search_leaves_the_store_closed() {
    let dir = tempfile::tempdir().unwrap();
    for board in ["cram:4x10", "cram:6x6"] {
        grundy(dir.path(), &[board, "-v"])
            .assert()
            .success()
            .stdout("P\nvalue 0\n")
            .stderr(contains("store: not opened"));
    }
    assert!(!dir.path().join("grundy").exists());
    // A board that searches opens it.
    grundy(dir.path(), &["cram:4x7", "-v"])
        .assert()
        .success()
        .stderr(contains("store: 0 read, "));
    assert!(dir.path().join("grundy").join("values.redb").exists());
}

#[test]
fn no_cache_leaves_no_store() {
    let dir = tempfile::tempdir().unwrap();
    grundy(dir.path(), &["cram:4x7", "--no-cache"])
        .assert()
        .success()
        .stdout("N\nvalue 3\n");
    assert!(!dir.path().join("grundy").exists());
}

#[test]
fn a_full_store_takes_no_more_values() {
    let dir = tempfile::tempdir().unwrap();
    grundy(dir.path(), &["cram:4x7", "--cache-size", "1K"])
        .assert()
        .success()
        .stdout("N\nvalue 3\n");
    let second = grundy(dir.path(), &["cram:4x7", "-v", "--cache-size", "1K"])
        .assert()
        .success()
        .stdout("N\nvalue 3\n");
    let third = grundy(dir.path(), &["cram:4x7", "-v", "--no-cache"])
        .assert()
        .success();
    assert_eq!(
        positions(&second.get_output().stderr),
        positions(&third.get_output().stderr)
    );
}

#[test]
fn a_bad_cache_size_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    grundy(dir.path(), &["cram:4x7", "--cache-size", "lots"])
        .assert()
        .code(2)
        .stderr(contains("--cache-size"));
}

/// Every byte of the file overwritten, or a stretch in its middle: the answer stays right, and
/// a file that is not a store any more is reported.
#[test]
fn a_damaged_store_is_reported_and_not_trusted() {
    for damage in [Damage::Whole, Damage::Middle, Damage::Records] {
        let dir = tempfile::tempdir().unwrap();
        for board in ["cram:4x7", "cram:5x5"] {
            grundy(dir.path(), &[board]).assert().success();
        }
        let file = dir.path().join("grundy").join("values.redb");
        let mut bytes = std::fs::read(&file).unwrap();
        let n = bytes.len();
        match damage {
            Damage::Whole => bytes.iter_mut().for_each(|b| *b = 0x5a),
            Damage::Middle => bytes[n / 4..3 * n / 4].iter_mut().for_each(|b| *b ^= 0xa5),
            // Every 16-byte record of the value 3 (4×7) rewritten as 2 with its checksum
            // left: the checksum no longer holds.
            Damage::Records => {
                for i in 0..n.saturating_sub(16) {
                    if bytes[i..i + 8] == 3u64.to_le_bytes() {
                        bytes[i] = 2;
                    }
                }
            }
        }
        std::fs::write(&file, &bytes).unwrap();
        for (board, want) in [("cram:4x7", "N\nvalue 3\n"), ("cram:5x5", "P\nvalue 0\n")] {
            let out = grundy(dir.path(), &[board]).assert().success().stdout(want);
            let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
            if matches!(damage, Damage::Whole) {
                assert!(err.contains("warning"), "{damage:?}: {err}");
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Damage {
    Whole,
    Middle,
    Records,
}
