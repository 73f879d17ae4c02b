//! Counting positions: how many `K`-heap positions have a given nim-sum, for astronomically
//! many heaps and heap sizes.
//!
//! The pipeline: a [`histogram`] of Grundy values over the heap range (from a proved period,
//! a run table or explicit values), its Walsh-Hadamard transform ([`wht`]), powers (or the
//! Pólya polynomial, for multisets) of the transformed values, and the inverse transform or one
//! signed sum ([`tuples`]). `reference` holds the definitions the fast code is tested against.
//!
//! ```
//! use grundy::count::{count_tuples, histogram::{histogram_of_periodic, Limits, Periodic}};
//! use grundy::count::reference::tuples_by_enumeration;
//! use num_bigint::BigUint;
//!
//! // The subtraction game with moves {1, 2}: G(n) = n mod 3.
//! let g = Periodic { preperiod: vec![], period: vec![0, 1, 2], saltus: 0 };
//! // Heap sizes 1..=10^15, 10^18 heaps: losing positions modulo 998244353.
//! let h = histogram_of_periodic(&g, 1, 1_000_000_000_000_000, &Limits::default())?;
//! let k = BigUint::from(10u8).pow(18);
//! let q = BigUint::from(998_244_353u32);
//! let _p_positions = count_tuples(&h, &k, &BigUint::from(0u8), Some(&q))?;
//!
//! // Small enough to enumerate: heap sizes 1..=6, 3 heaps.
//! let h = histogram_of_periodic(&g, 1, 6, &Limits::default())?;
//! let values: Vec<u64> = (1..=6).map(|n| n % 3).collect();
//! let by_enumeration = tuples_by_enumeration(&values, 3)[0];
//! let exact = count_tuples(&h, &BigUint::from(3u8), &BigUint::from(0u8), None)?;
//! assert_eq!(exact, BigUint::from(by_enumeration));
//! # Ok::<(), grundy::Error>(())
//! ```

pub mod histogram;
testing_pub! {
    pub mod reference;
}
pub mod tuples;
pub mod wht;

pub use histogram::{Histogram, Limits, Periodic, Run, RunList, RunSource};
pub use tuples::{
    count_from_histogram, count_from_histogram_with, count_multisets, count_multisets_with,
    count_tuples, count_tuples_with, multiset_distribution, multiset_distribution_with,
    tuple_distribution, tuple_distribution_with, tuple_probability_f64, CountAnswer, CountDocument,
    CountSpec,
};
