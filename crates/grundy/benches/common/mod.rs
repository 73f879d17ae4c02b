//! Shared measurement for the benchmark binaries (`cargo bench --bench NAME`).
//!
//! These machines are noisy 2-core boxes, so every figure is the median of several runs, and
//! every fast method is timed beside a naive one in the same run so that the ratio, not the
//! absolute time, carries the claim. Each benchmark prints a Markdown table row a measurement:
//! `| what | median | per item | throughput | naive median | ratio |`.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// Runs `f` `runs` times (after one warm-up) and returns the median wall-clock time.
pub fn median_time<R>(runs: usize, mut f: impl FnMut() -> R) -> Duration {
    std::hint::black_box(f());
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// A human-readable duration with three significant figures.
pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.3} µs", s * 1e6)
    } else {
        format!("{:.1} ns", s * 1e9)
    }
}

/// Prints the table header once per benchmark binary.
pub fn header(title: &str) {
    println!("\n### {title}\n");
    println!("| what | median | per item | items/s | naive median | speed-up vs naive |");
    println!("|---|---|---|---|---|---|");
}

/// Prints one row: `items` items processed in `fast` by the method, in `naive` by the naive
/// method (if it was run on the same work).
pub fn row(what: &str, items: u64, fast: Duration, naive: Option<Duration>) {
    let per = fast.as_secs_f64() / items.max(1) as f64;
    let rate = items as f64 / fast.as_secs_f64().max(1e-12);
    let (naive_s, ratio) = match naive {
        Some(n) => (
            fmt_duration(n),
            format!("{:.1}×", n.as_secs_f64() / fast.as_secs_f64().max(1e-12)),
        ),
        None => ("—".into(), "—".into()),
    };
    println!(
        "| {what} | {} | {} | {:.3e} | {naive_s} | {ratio} |",
        fmt_duration(fast),
        fmt_duration(Duration::from_secs_f64(per)),
        rate
    );
}
