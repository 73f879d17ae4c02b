//! Heap games: rules, Grundy sequences and sums of heaps.
//!
//! A program parses a game once into a [`HeapGame`] (`"kayles".parse::<HeapGame>()`) and passes
//! it to every entry point: [`sequence::compute`], [`position::normal`], [`hint::hint`],
//! [`crate::pattern::value::analyze`], [`crate::count::histogram::histogram_of_analysis`]. A
//! [`HeapGame`] is also a [`crate::game::Game`] whose positions are sums of heaps, for the
//! general solvers.
//!
//! A heap game is given by what a single heap may become in one move ([`rule`]); a position is
//! a multiset of heaps, and by the Sprague-Grundy theorem its value is the xor of the values
//! G(h) of its heaps. So everything rests on the sequence G(0), G(1), ... ([`sequence`]), which
//! several engines compute:
//!
//! | engine | module | cost per value |
//! |---|---|---|
//! | definition: every option, mex | `reference` | number of options |
//! | tight loops, bitset mex, pair table for 3-heap splits | `naive` | n/2 pairs for 2-heap splits |
//! | rare/common value classes | `sparse` | about the number of rare values |
//!
//! [`position`] answers for sums of heaps: outcome and winning moves, under normal and misère
//! play; [`hint`] explains them to people (binary columns, mex is a promise) and picks the
//! playgrounds' engine moves.

mod game;
pub mod hint;
pub mod position;
pub mod rule;
#[cfg(feature = "script")]
pub mod script;
pub mod sequence;
testing_pub! {
    pub mod naive;
    pub mod reference;
    pub mod sparse;
}

pub use game::HeapGame;
pub use rule::{CustomRule, HeapRule, Options};
pub use sequence::{compute, Sequence};

#[cfg(test)]
mod custom_tests;
#[cfg(test)]
mod tests;
