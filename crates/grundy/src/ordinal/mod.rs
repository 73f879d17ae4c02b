//! Ordinals and transfinite games.
//!
//! When a move may set a pile to *any* natural number, a position can reach every natural
//! Grundy value and its value is `ω = mex ℕ`. This module holds what such games need:
//!
//! | module | what it holds |
//! |---|---|
//! | [`cnf`] | ordinals below epsilon-0 in Cantor normal form: order, sum, product, powers |
//! | [`nim_sum`] | the nim-sum (xor of base-2 expansions, coefficient-wise on powers of ω) and the mex of sets with initial segments |
//! | [`transfinite`] | a Grundy engine for games whose positions have infinitely many options, given as finitely many families |
//! | [`games`] | cascading nim, nim with increases, the Codeforces 1451F matrix game, the DAG path game, the Codeforces 1149E game |
//!
//! Ordinals are written in the notation of [`crate::notation::ordinal`].

pub mod cnf;
pub mod excess;
pub mod games;
pub mod gf2;
pub mod nim_mul;
pub mod nim_sum;
pub mod tower;
pub mod transfinite;

pub use cnf::{Ordinal, Term};
