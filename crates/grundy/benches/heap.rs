//! Grundy sequences of heap games: the sparse-space engine (both cores, and pinned to one core)
//! beside the naive engine, the naive engine beside the reference.
//!
//! Run with `cargo bench -p grundy --bench heap`. The naive engine is quadratic for splitting
//! games, so it runs on a smaller N where stated in the row, and the sparse engine is timed on
//! that same N for the ratio.

mod common;

use common::{header, median_time, row};
use grundy::control::Control;
use grundy::heap::sequence::{compute_with, SequenceEngine};
use grundy::heap::{reference, sparse, HeapGame};

fn time(rule: &HeapGame, n: u64, engine: SequenceEngine, runs: usize) -> std::time::Duration {
    median_time(runs, || {
        compute_with(rule, n, engine, &Control::none())
            .expect("computes")
            .len()
    })
}

/// User + system CPU seconds of the calling thread (Linux: /proc/thread-self/stat, in clock
/// ticks of 10 ms), or NaN where unavailable.
fn thread_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime and stime are the 12th and
    // 13th.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    match (tick(11), tick(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}

/// Median wall time of `runs` runs of `rule` to `n` by the sparse engine on a one-thread pool,
/// and the CPU time of that thread per run (the machine is shared: the CPU time is what the
/// work costs, the wall time also counts waiting for a core).
fn one_core_timed(rule: &HeapGame, n: u64, runs: usize) -> (std::time::Duration, f64) {
    one_core(|| {
        let c0 = thread_cpu();
        let wall = time(rule, n, SequenceEngine::Sparse, runs);
        // `time` does one warm-up run before the measured ones.
        (wall, (thread_cpu() - c0) / (runs + 1) as f64)
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

    let officers = "officers".parse::<HeapGame>().unwrap();
    let small = 30_000;
    let naive = time(&officers, small, SequenceEngine::Naive, 1);
    let sparse = time(&officers, small, SequenceEngine::Sparse, 3);
    row("officers 0.6, N = 3·10^4", small, sparse, Some(naive));
    let big = 1_000_000;
    let (one, cpu) = one_core_timed(&officers, big, 3);
    row(
        &format!("officers 0.6, N = 10^6, one core (thread CPU {cpu:.2} s per run)"),
        big,
        one,
        None,
    );
    let two = time(&officers, big, SequenceEngine::Sparse, 1);
    row("officers 0.6, N = 10^6, two cores", big, two, None);
    if !quick {
        let n = 10_000_000;
        let t = time(&officers, n, SequenceEngine::Sparse, 1);
        row("officers 0.6, N = 10^7, two cores", n, t, None);
    }

    // The heap's parity as a class bit: 0.207's rare values follow the parity of n.
    let rule = "octal:0.207".parse::<HeapGame>().unwrap();
    let n = 100_000;
    let with_parity = one_core(|| time(&rule, n, SequenceEngine::Sparse, 3));
    let without = one_core(|| {
        median_time(1, || {
            let mut v: Vec<u16> = Vec::new();
            sparse::extend_with(
                &rule,
                &mut v,
                n as usize,
                &Control::none(),
                sparse::Parity::Off,
            )
            .expect("computes");
            v.len()
        })
    });
    row(
        "octal:0.207, N = 10^5, parity bit chosen vs classes without it (one core)",
        n,
        with_parity,
        Some(without),
    );

    let grundy = "grundys-game".parse::<HeapGame>().unwrap();
    let naive = time(&grundy, small, SequenceEngine::Naive, 1);
    let sparse = time(&grundy, small, SequenceEngine::Sparse, 3);
    row("grundy's game, N = 3·10^4", small, sparse, Some(naive));
    let t = time(&grundy, big, SequenceEngine::Sparse, 1);
    row("grundy's game, N = 10^6, two cores", big, t, None);

    for game in ["dawsons-kayles", "kayles"] {
        let rule = game.parse::<HeapGame>().unwrap();
        let n = 100_000;
        let naive = time(&rule, n, SequenceEngine::Naive, 1);
        let sparse = time(&rule, n, SequenceEngine::Sparse, 3);
        row(&format!("{game}, N = 10^5"), n, sparse, Some(naive));
    }

    // Three-heap moves: the naive engine's pair table against the definition.
    let hex = "octal:0.8".parse::<HeapGame>().unwrap();
    let n = 1_000;
    let naive = time(&hex, n, SequenceEngine::Naive, 3);
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
    let sub = "sub:1-1000000".parse::<HeapGame>().unwrap();
    let n = 3_000_000;
    let t = time(&sub, n, SequenceEngine::Naive, 3);
    row("sub:1-1000000, N = 3·10^6, windows", n, t, None);
    let sub = "sub:1-1000".parse::<HeapGame>().unwrap();
    let n = 20_000;
    let naive = time(&sub, n, SequenceEngine::Naive, 3);
    let slow = median_time(1, || {
        reference::sequence(&sub, n as usize).expect("computes")
    });
    row(
        "sub:1-1000, N = 2·10^4, windows vs reference",
        n,
        naive,
        Some(slow),
    );

    // Linearity on a window whose values all differ (G(n) = n): the "naive" column is four
    // times the 10^7 time, so a ratio near 1.0× is linear growth.
    let sub = "sub:1-1000000000".parse::<HeapGame>().unwrap();
    let runs = if quick { 1 } else { 3 };
    let ten = time(&sub, 10_000_000, SequenceEngine::Naive, runs);
    let forty = time(&sub, 40_000_000, SequenceEngine::Naive, runs);
    row("sub:1-1000000000, N = 10^7", 10_000_000, ten, None);
    row(
        "sub:1-1000000000, N = 4·10^7 (naive column: 4 × the N = 10^7 time)",
        40_000_000,
        forty,
        Some(ten * 4),
    );
}
