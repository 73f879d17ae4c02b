//! # grundy — impartial combinatorial games
//!
//! The mathematics and the engines behind the `grundy` command line, usable on their own.
//!
//! An impartial game is a directed graph of positions; a move follows an arc. Under normal play
//! the player who cannot move loses. The Sprague-Grundy theorem assigns every position of an
//! acyclic game a natural number, its Grundy value `g(v) = mex { g(w) : v → w }`, such that a sum
//! of games has the xor ("nim-sum") of its components' values and a position is lost for the
//! player to move exactly when its value is 0.
//!
//! The crate is organised by the mathematics it holds:
//!
//! | module | what it holds |
//! |---|---|
//! | [`nimber`] | the field of nimbers: 64-bit, 128-bit and any-size elements, batch kernels, logarithms, roots |
//! | [`game`] | what a game is: the implicit-game trait, explicit graphs, sums and products |
//! | [`solve`] | engines: Grundy values, outcomes and remoteness, the generalized Sprague-Grundy function of games with cycles, sums, misère Nim |
//! | [`heap`] | heap games: rules (octal, subtraction, divide, scripts), Grundy sequence engines, sums of heaps |
//! | [`count`] | counting positions: value histograms over huge heap ranges, the Walsh-Hadamard transform, xor-convolution powers, multisets by Pólya counting |
//! | [`ordinal`] | ordinals below epsilon-0 (Cantor normal form, arithmetic, nim-sum) and transfinite games: cascading nim, nim with increases, games with "any number" moves |
//! | [`notation`] | parsing of the notations of the command line (numbers, games, ordinals, graph files) |
//! | [`pattern`] | what a sequence does: periods with proofs, arithmetic periods, run tables, self-similar rules, values of huge heaps |
//! | [`control`] | the handle every long computation takes: progress reports, cancellation, deadlines |
//! | [`error`] | the error values shared by all parsers and engines |
//!
//! The library never prints; errors are values carrying the line, column or argument at fault,
//! rendered once by the caller.

#![warn(missing_docs)]

pub mod control;
pub mod count;
pub mod error;
pub mod game;
pub mod heap;
pub mod nimber;
pub mod notation;
pub mod ordinal;
pub mod pattern;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod solve;

pub use error::{Error, LimitError, ParseError, Result};
