//! Patterns: values of huge heaps of the floor-division game through the run engine and its
//! proved self-similar rule, the proof of the period of 0.16, and period search throughput.
//!
//! Run with `cargo bench -p grundy --bench pattern`. Each fast method is timed beside a naive
//! one in the same run; where the naive method cannot reach the same size the row says which
//! smaller size it ran on.

mod common;

use common::{header, median_time, row};
use grundy::control::Control;
use grundy::heap::sequence::{self, compute, compute_with, Sequence, SequenceEngine};
use grundy::heap::HeapGame;
use grundy::pattern::periodic::{self, reference};
use grundy::pattern::{divide, value};
use num_bigint::BigUint;

fn main() {
    header("Patterns: huge heaps, proved periods, period search");

    // value divide:2,3,4,5,6 10^18, beside the naive engine computing G(0..10^6).
    let game: HeapGame = "divide:2,3,4,5,6".parse().unwrap();
    let n = BigUint::from(10u64.pow(18));
    let fast = median_time(101, || {
        value::values(&game, std::slice::from_ref(&n), 1000, &Control::none())
            .expect("value")
            .len()
    });
    let naive_n = 1_000_000;
    let naive = median_time(3, || {
        compute_with(&game, naive_n, SequenceEngine::Naive, &Control::none())
            .expect("computes")
            .len()
    });
    row(
        "value divide:2,3,4,5,6 10^18 (naive: engine to n = 10^6)",
        1,
        fast,
        Some(naive),
    );
    let runs = median_time(101, || {
        divide::runs(
            &[2, 3, 4, 5, 6],
            10u128.pow(18) + 1,
            divide::DEFAULT_MAX_RUNS,
        )
        .expect("runs")
        .len()
    });
    row(
        "run engine alone: all runs of divide:2,3,4,5,6 below 10^18",
        1,
        runs,
        None,
    );

    // The period of 0.16 (149459 from 105351) proved: analyze computes and proves.
    let game: HeapGame = "octal:0.16".parse().unwrap();
    let prove = median_time(3, || {
        let a = value::analyze(&game, 1_000_000, &Control::none()).expect("analyze");
        assert!(a.proved && a.period.map(|p| p.period) == Some(149_459));
        a.computed
    });
    row(
        "analyze octal:0.16: period 149459 from 105351 proved (524288 values)",
        524_288,
        prove,
        None,
    );

    // Period search on the computed values alone, and against brute force on a prefix.
    let values = compute(&game, 524_288, &Control::none()).unwrap().to_vec();
    let theorem = value::theorem(&game).unwrap();
    let search = median_time(5, || periodic::prove_period(&values, &theorem));
    row(
        "prove_period on 524288 values of 0.16 (values/s)",
        values.len() as u64,
        search,
        None,
    );
    // The same proof read from the stored one-byte cells, against widening them to u32 first
    // (what the analysis did before reading cells in their stored width).
    let cells = compute(&game, 524_288, &Control::none()).unwrap();
    let Sequence::U8(bytes) = &cells else {
        panic!("0.16 has values below 256")
    };
    let compact = median_time(5, || periodic::prove_period(bytes, &theorem));
    let widened = median_time(5, || periodic::prove_period(&cells.to_vec(), &theorem));
    row(
        "prove_period on 524288 one-byte cells of 0.16 vs widened to u32 first",
        bytes.len() as u64,
        compact,
        Some(widened),
    );

    // Computing in checkpoint steps (the engine restarts every 2^20 values) against one run.
    let game: HeapGame = "octal:0.1777".parse().unwrap();
    let n = 1u64 << 22;
    let stepped = median_time(3, || {
        sequence::extend_saving(
            &game,
            Sequence::U8(Vec::new()),
            n,
            &Control::none(),
            &mut |_| Ok(()),
        )
        .expect("computes")
        .len()
    });
    let whole = median_time(3, || {
        compute(&game, n, &Control::none()).expect("computes").len()
    });
    row(
        "octal:0.1777, 2^22 values in checkpoint steps vs in one run",
        n,
        stepped,
        Some(whole),
    );

    let prefix = &values[..3000];
    let fast = median_time(21, || periodic::find_period(prefix));
    let brute = median_time(3, || {
        reference::find(prefix, false, periodic::MIN_APPARENT_STRETCH)
    });
    row(
        "find_period, 3000 values of 0.16 (no period yet) vs brute force",
        prefix.len() as u64,
        fast,
        Some(brute),
    );
}
