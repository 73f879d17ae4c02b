//! Counting the losing positions of k heaps.
//!
//! `cargo run --release -p grundy --example count_losing`
//!
//! A position of k heaps (sizes in 1..=N) is lost for the player to move exactly when the
//! nim-sum of the heaps' Grundy values is 0. So the count needs only the histogram of values
//! over 1..=N: with `c_v` heaps of value `v`, the number of ordered k-tuples of nim-sum 0 is
//! the coefficient of `x^0` in the k-th xor-convolution power of `c`, which the Walsh-Hadamard
//! transform turns into k-th powers of numbers: `(1/F) Σ_s (ĉ_s)^k`. That works for any k, even
//! astronomically large, modulo a number.

use grundy::control::Control;
use grundy::count::histogram::{histogram_of_analysis, Limits};
use grundy::count::{count_from_histogram, CountSpec};
use grundy::heap::sequence;
use grundy::pattern::value;
use grundy::prelude::*;
use num_bigint::BigUint;

fn main() -> Result<(), Error> {
    // Dawson's Kayles (octal:0.07): period 34 from n = 52, proved.
    let game: HeapGame = "dawsons-kayles".parse()?;
    let analysis = value::analyze(&game, 4096, &Control::none())?;
    assert!(analysis.proved);

    // Three heaps of 1..=30 tokens: count by the transform, and by enumeration.
    let n = 30u64;
    let h = histogram_of_analysis(
        &game,
        &analysis,
        1,
        n as u128,
        &Limits::default(),
        &Control::none(),
    )?;
    let spec = CountSpec::new(BigUint::from(3u8), BigUint::from(0u8));
    let by_transform = count_from_histogram(&h, &spec)?.count;
    let g = sequence::compute(&game, n + 1, &Control::none())?.to_vec();
    let mut by_enumeration = 0u64;
    for a in 1..=n as usize {
        for b in 1..=n as usize {
            for c in 1..=n as usize {
                if g[a] ^ g[b] ^ g[c] == 0 {
                    by_enumeration += 1;
                }
            }
        }
    }
    println!("losing ordered triples of heaps 1..={n}: {by_transform}");
    assert_eq!(by_transform, BigUint::from(by_enumeration));

    // Unordered: multisets of three heaps, counted by Pólya's theorem; check by enumeration.
    let multisets = count_from_histogram(&h, &spec.clone().with_unordered(true))?.count;
    let mut sorted = 0u64;
    for a in 1..=n as usize {
        for b in a..=n as usize {
            for c in b..=n as usize {
                if g[a] ^ g[b] ^ g[c] == 0 {
                    sorted += 1;
                }
            }
        }
    }
    println!("losing multisets of three heaps: {multisets}");
    assert_eq!(multisets, BigUint::from(sorted));

    // A billion heaps of up to 10^18 tokens each, modulo the prime 10^9 + 7: the proved period
    // makes the histogram cheap, the transform makes k cheap.
    let big = histogram_of_analysis(
        &game,
        &analysis,
        1,
        10u128.pow(18),
        &Limits::default(),
        &Control::none(),
    )?;
    assert_eq!(big.total(), 10u128.pow(18));
    let q = BigUint::from(1_000_000_007u64);
    let spec = CountSpec::new(BigUint::from(10u64.pow(9)), BigUint::from(0u8))
        .with_modulus(Some(q.clone()));
    let count = count_from_histogram(&big, &spec)?.count;
    println!("losing positions of 10^9 heaps of 1..=10^18 tokens, mod 10^9+7: {count}");
    assert!(count < q);
    Ok(())
}
