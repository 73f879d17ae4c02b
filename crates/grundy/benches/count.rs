//! Counting benchmarks: the Walsh-Hadamard transform (blocked and parallel, against the
//! textbook loop in the same run, with memory bandwidth for scale) and the worked example of docs/counting.md end
//! to end (against the same formula computed with the textbook transform and `%`).
//!
//! Run: `cargo bench -p grundy --bench count`.

mod common;

use common::{fmt_duration, header, median_time, row};
use grundy::count::count_tuples;
use grundy::count::histogram::{histogram_of_periodic, Limits, Periodic};
use grundy::count::reference;
use grundy::count::wht::{wht, Butterfly, ModHalfWord, ModU64, Wrapping64};
use num_bigint::BigUint;
use std::time::Duration;

const RUNS: usize = 3;

fn gbps(bytes: usize, t: Duration) -> String {
    format!("{:.2} GB/s", bytes as f64 / t.as_secs_f64() / 1e9)
}

fn bench_transform<A: Butterfly<E = u64>>(name: &str, log: u32, ar: &A, init: &[u64]) {
    let n = 1usize << log;
    let mut a = init[..n].to_vec();
    let fast = median_time(RUNS, || {
        wht(&mut a, ar);
        a[1]
    });
    let naive = median_time(RUNS, || {
        reference::wht_textbook(&mut a, ar);
        a[1]
    });
    row(&format!("WHT 2^{log}, {name}"), n as u64, fast, Some(naive));
    println!(
        "|   (array bytes / time) | {} | | | {} | |",
        gbps(8 * n, fast),
        gbps(8 * n, naive)
    );
}

fn main() {
    let n = 1usize << 24;
    let init: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % 998_244_353)
        .collect();

    header("Memory bandwidth for scale (2^24 u64 = 128 MiB)");
    let mut dst = vec![0u64; n];
    let copy = median_time(RUNS, || {
        dst.copy_from_slice(&init);
        dst[7]
    });
    let sum = median_time(RUNS, || init.iter().fold(0u64, |a, &b| a.wrapping_add(b)));
    row("memcpy 2^24 u64", n as u64, copy, None);
    println!(
        "|   (bytes copied / time) | {} | | | | |",
        gbps(8 * n, copy)
    );
    row("sum 2^24 u64 (one thread)", n as u64, sum, None);
    println!("|   (bytes read / time) | {} | | | | |", gbps(8 * n, sum));

    header("Walsh-Hadamard transform: blocked + 2 threads vs textbook loop (same arithmetic)");
    let p = ModHalfWord::new(998_244_353).expect("below 2^63");
    let general = ModU64 { n: 998_244_353 };
    for log in [20, 24] {
        bench_transform("mod 998244353", log, &p, &init);
        bench_transform("mod 998244353, any-u64-modulus code", log, &general, &init);
        bench_transform("u64 wrapping", log, &Wrapping64, &init);
    }

    header("Seed example: moves 1..10^6, heaps 1..12983567378251, K = 98670634123, mod 998244353");
    let g = Periodic {
        preperiod: vec![],
        period: (0..=1_000_000).collect(),
        saltus: 0,
    };
    let k = BigUint::from(98_670_634_123u64);
    let q = BigUint::from(998_244_353u32);
    let max = 12_983_567_378_251u128;
    let mut answer = BigUint::default();
    let fast = median_time(RUNS, || {
        let h = histogram_of_periodic(&g, 1, max, &Limits::default()).unwrap();
        answer = count_tuples(&h, &k, &BigUint::default(), Some(&q)).unwrap();
    });
    let h = histogram_of_periodic(&g, 1, max, &Limits::default()).unwrap();
    let mut slow_answer = 0;
    let naive = median_time(1, || {
        slow_answer = reference::count_by_textbook_transform(h.counts(), &k, 0, 998_244_353);
    });
    assert_eq!(answer, BigUint::from(slow_answer));
    row("P-positions, end to end", 1, fast, Some(naive));
    println!(
        "\nanswer {answer} (fast {}, textbook {})",
        fmt_duration(fast),
        fmt_duration(naive)
    );
}
