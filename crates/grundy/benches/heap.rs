//! Grundy sequences of heap games: the sparse-space engine (both cores, and pinned to one core)
//! beside the naive engine, the naive engine beside the reference.
//!
//! Run with `cargo bench -p grundy --bench heap`. The naive engine is quadratic for splitting
//! games, so it runs on a smaller N where stated in the row, and the sparse engine is timed on
//! that same N for the ratio.

mod common;

use common::{header, median_time, row};
use grundy::heap::sequence::{compute_with, no_progress, Engine};
use grundy::heap::{reference, Rule};

fn time(rule: &Rule, n: u64, engine: Engine, runs: usize) -> std::time::Duration {
    median_time(runs, || {
        compute_with(rule, n, engine, &no_progress)
            .expect("computes")
            .len()
    })
}

fn one_core<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool")
        .install(f)
}

fn main() {
    header("Heap games: Grundy sequences (sparse-space engine vs naive, values per second)");
    let quick = std::env::var("GRUNDY_BENCH_QUICK").is_ok();

    let officers = Rule::parse("officers").unwrap();
    let small = 30_000;
    let naive = time(&officers, small, Engine::Naive, 1);
    let sparse = time(&officers, small, Engine::Sparse, 3);
    row("officers 0.6, N = 3·10^4", small, sparse, Some(naive));
    let big = 1_000_000;
    let one = one_core(|| time(&officers, big, Engine::Sparse, 1));
    row("officers 0.6, N = 10^6, one core", big, one, None);
    let two = time(&officers, big, Engine::Sparse, 1);
    row("officers 0.6, N = 10^6, two cores", big, two, None);
    if !quick {
        let n = 10_000_000;
        let t = time(&officers, n, Engine::Sparse, 1);
        row("officers 0.6, N = 10^7, two cores", n, t, None);
    }

    let grundy = Rule::parse("grundys-game").unwrap();
    let naive = time(&grundy, small, Engine::Naive, 1);
    let sparse = time(&grundy, small, Engine::Sparse, 3);
    row("grundy's game, N = 3·10^4", small, sparse, Some(naive));
    let t = time(&grundy, big, Engine::Sparse, 1);
    row("grundy's game, N = 10^6, two cores", big, t, None);

    for game in ["dawsons-kayles", "kayles"] {
        let rule = Rule::parse(game).unwrap();
        let n = 100_000;
        let naive = time(&rule, n, Engine::Naive, 1);
        let sparse = time(&rule, n, Engine::Sparse, 3);
        row(&format!("{game}, N = 10^5"), n, sparse, Some(naive));
    }

    // Three-heap moves: the naive engine's pair table against the definition.
    let hex = Rule::parse("octal:0.8").unwrap();
    let n = 1_000;
    let naive = time(&hex, n, Engine::Naive, 3);
    let slow = median_time(1, || {
        reference::sequence(&hex, n as usize).expect("computes")
    });
    row(
        "octal:0.8 (three heaps), N = 10^3, naive vs reference",
        n,
        naive,
        Some(slow),
    );

    // A subtraction range of a million elements: sliding windows, O(1) per value.
    let sub = Rule::parse("sub:1-1000000").unwrap();
    let n = 3_000_000;
    let t = time(&sub, n, Engine::Naive, 3);
    row("sub:1-1000000, N = 3·10^6, windows", n, t, None);
    let sub = Rule::parse("sub:1-1000").unwrap();
    let n = 20_000;
    let naive = time(&sub, n, Engine::Naive, 3);
    let slow = median_time(1, || {
        reference::sequence(&sub, n as usize).expect("computes")
    });
    row(
        "sub:1-1000, N = 2·10^4, windows vs reference",
        n,
        naive,
        Some(slow),
    );
}
