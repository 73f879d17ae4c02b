//! Runs every program of `examples/`: each asserts its own results, so a run that succeeds is a
//! check. `cargo test` builds the examples next to the test binaries before running the tests.

use std::path::PathBuf;
use std::process::Command;

/// The examples directory of the profile this test was built with.
fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/examples-<hash> → target/<profile>/examples
    exe.parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary lies in target/<profile>/deps")
        .join("examples")
}

/// Runs the example `name` and returns its standard output; fails if it is missing or fails.
fn run(name: &str) -> String {
    let path = examples_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds the examples (or run `cargo build --examples` with \
         the same profile)",
        path.display()
    );
    let out = Command::new(&path).output().expect("the example starts");
    assert!(
        out.status.success(),
        "{name} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn nim_product_table() {
    let out = run("nim_product_table");
    assert!(out.contains("agrees with the mex definition"), "{out}");
}

#[test]
fn kayles_period() {
    let out = run("kayles_period");
    assert!(out.contains("period 12 from n = 71"), "{out}");
}

#[test]
fn custom_game() {
    let out = run("custom_game");
    assert!(
        out.contains("value 3, nim-sum of the kings' values 3"),
        "{out}"
    );
}

#[test]
fn graph_with_cycles() {
    let out = run("graph_with_cycles");
    assert!(out.contains("Infinite([1])"), "{out}");
}

#[test]
fn count_losing() {
    let out = run("count_losing");
    assert!(
        out.contains("losing ordered triples of heaps 1..=30: 5128"),
        "{out}"
    );
}
