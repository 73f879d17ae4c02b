//! Times the batch nim product on 10^7 random pairs, per element: the Rust side of the
//! comparison with the Python `grundy.nim_mul` (docs/python.md, "Benchmarks").
//!
//! `cargo run --release -p grundy --example nim_mul_batch [N]` prints the median of 7 runs of
//! `batch::mul_slice` (one thread) and `batch::par_mul_slice` (rayon's pool), the latter also into
//! a freshly allocated output.

use grundy::nimber::{batch, Nim64};
use std::time::Instant;

/// The median wall time of `runs` calls of `f`, in seconds.
fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    // A xorshift generator: the values only need to spread over all 64 bits.
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        Nim64(s)
    };
    let a: Vec<Nim64> = (0..n).map(|_| next()).collect();
    let b: Vec<Nim64> = (0..n).map(|_| next()).collect();
    let mut out = vec![Nim64(0); n];
    let one = median(7, || batch::mul_slice(&a, &b, &mut out));
    let par = median(7, || batch::par_mul_slice(&a, &b, &mut out));
    // Into a new vector each run: the first touch of fresh pages is part of the cost, as for a
    // `nim_mul` without `out=`.
    let fresh = median(7, || {
        let mut out = vec![Nim64(0); n];
        batch::par_mul_slice(&a, &b, &mut out);
        std::hint::black_box(out);
    });
    println!("n = {n}");
    println!(
        "mul_slice (one thread):  {:.3} ms, {:.2} ns per element",
        one * 1e3,
        one * 1e9 / n as f64
    );
    println!(
        "par_mul_slice (rayon):   {:.3} ms, {:.2} ns per element",
        par * 1e3,
        par * 1e9 / n as f64
    );
    println!(
        "par_mul_slice, new output vector: {:.3} ms, {:.2} ns per element",
        fresh * 1e3,
        fresh * 1e9 / n as f64
    );
}
