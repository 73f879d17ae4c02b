//! Kayles' Grundy sequence has period 12, and the library proves it.
//!
//! `cargo run --release -p grundy --example kayles_period`
//!
//! Kayles (Dudeney, Loyd): a row of pins; a move knocks down one pin or two adjacent ones, which
//! may split the row in two. As a take-and-break game it is `octal:0.77`. Its values G(n) are
//! periodic with period 12 from n = 71 on. The periodicity theorem for octal games (Guy and
//! Smith) says: if a game's moves remove at most `t` tokens and leave at most two heaps, and
//! `G(n + p) = G(n)` holds for `pre ≤ n < 2·pre + p + t`, it holds for every `n ≥ pre`. So a
//! finite computation proves a statement about every heap.

use grundy::control::Control;
use grundy::heap::sequence;
use grundy::pattern::value;
use grundy::prelude::*;
use num_bigint::BigUint;

fn main() -> Result<(), Error> {
    let kayles: HeapGame = "kayles".parse()?;
    println!("Kayles is {kayles}");

    let analysis = value::analyze(&kayles, 4096, &Control::none())?;
    let period = analysis.period.expect("Kayles' values are periodic");
    println!(
        "period {} from n = {} (saltus {})",
        period.period, period.preperiod, period.saltus
    );
    assert_eq!(
        (period.preperiod, period.period, period.saltus),
        (71, 12, 0)
    );
    assert!(analysis.proved, "the period is proved, not only seen");
    let proof = analysis
        .proof
        .as_ref()
        .expect("a proved period has a proof");
    println!("proof: {proof}");

    // The first values, and the period itself.
    let g = sequence::compute(&kayles, 96, &Control::none())?.to_vec();
    println!("G(0..24) = {:?}", &g[..24]);
    println!("G(72..84) = {:?}", &g[72..84]);
    assert_eq!(&g[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    // G(70) = 6 breaks the period one last time: G(70 + 12) = G(82) = 2.
    assert_eq!((g[70], g[82]), (6, 2));

    // The proof answers for heaps far beyond anything computed: n reduces modulo 12.
    let huge = BigUint::from(10u32).pow(40);
    let offset = (&huge - 72u32) % 12u32;
    let by_period = g[72 + usize::try_from(&offset).expect("below 12")];
    let value = analysis.value(&huge)?;
    println!("G(10^40) = {value}");
    assert_eq!(value, BigUint::from(by_period));
    Ok(())
}
