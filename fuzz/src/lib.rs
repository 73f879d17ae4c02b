//! The fuzz targets' entry points, in a module of their own so that the main workspace's
//! replay test (`crates/grundy-cli/tests/fuzz_corpus.rs`) feeds every corpus file through the
//! very same code without libFuzzer.

#[path = "entries.rs"]
pub mod entries;
