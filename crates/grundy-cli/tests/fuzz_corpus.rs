//! Replays every file of the fuzz corpora (`fuzz/corpus/TARGET/`) through the fuzz targets'
//! entry points (`fuzz/src/entries.rs`, the same code libFuzzer drives), so that a plain
//! `cargo test` re-runs the inputs the fuzzer kept, including those that once found a bug
//! (docs/fuzzing.md).

#[path = "../../../fuzz/src/entries.rs"]
mod entries;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

fn replay(target: &str, entry: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).unwrap();
            catch_unwind(AssertUnwindSafe(|| entry(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target}: inputs that fail: {failed:#?}");
}

#[test]
fn game_corpus() {
    replay("game", entries::game);
}

#[test]
fn graph_corpus() {
    replay("graph", entries::graph);
}

#[test]
fn ordinal_corpus() {
    replay("ordinal", entries::ordinal);
}

#[test]
fn product_io_corpus() {
    replay("product_io", entries::product_io);
}

#[test]
fn script_corpus() {
    replay("script", entries::script);
}

#[test]
fn api_corpus() {
    replay("api", entries::api);
}
