//! Counting positions: how many `K`-heap positions have a given nim-sum, for astronomically
//! many heaps and heap sizes.
//!
//! The pipeline: a [`histogram`] of Grundy values over the heap range (from a proved period,
//! a run table or explicit values), its Walsh-Hadamard transform ([`wht`]), powers (or the
//! Pólya polynomial, for multisets) of the transformed values, and the inverse transform or one
//! signed sum ([`tuples`]). [`mod@reference`] holds the definitions the fast code is tested against.

pub mod histogram;
pub mod reference;
pub mod tuples;
pub mod wht;

pub use histogram::{Histogram, Limits, Periodic, Run, RunSource, RunTable};
pub use tuples::{
    count_from_histogram, count_multisets, count_tuples, multiset_distribution, tuple_distribution,
    tuple_probability_f64, CountAnswer, CountSpec,
};
