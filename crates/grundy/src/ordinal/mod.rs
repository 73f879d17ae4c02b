//! Ordinals: the values of transfinite games, and the field of ordinals under nim arithmetic.
//!
//! When a move may set a pile to *any* natural number, a position can reach every natural
//! Grundy value and its value is `ω = mex ℕ`. This module holds the arithmetic such values
//! need (the games and their engine are [`crate::transfinite`]):
//!
//! | module | what it holds |
//! |---|---|
//! | [`cnf`] | ordinals below epsilon-0 in Cantor normal form: order, sum, product, powers |
//! | [`nim_sum`] | the nim-sum (xor of base-2 expansions, coefficient-wise on powers of ω) and the mex of sets with initial segments |
//! | [`nim_mul`] | the nim product below `ω^(ω^ω)`, the algebraic closure of GF(2): ordinals as polynomials in Lenstra's κ's; product, power, inverse, quotient |
//! | [`excess`] | the excesses `α_p = κ_p^p` by Lenstra's algorithm, computed on demand, with a cache format |
//! | [`binomial`] | the same pieces kept as towers of binomial extensions `Y^n = α`, never flattened: Kronecker products (in the large towers through the polynomial basis of a lower level), Frobenius powers by composed tables, the `p`-th power test by a norm (Itoh–Tsujii); memory linear in `M` |
//! | [`tower`] | finite pieces `GF(2^M)` of that field written flat, `GF(2)[z]/(P)`, by Gaussian elimination over a tower of radical extensions |
//!
//! The polynomial arithmetic over GF(2) beneath the field (carry-less products, Karatsuba, the
//! additive transform, Barrett reduction) is [`crate::gf2`].
//!
//! Ordinals are written in the notation of [`crate::notation::ordinal`].

pub mod binomial;
pub mod cnf;
pub mod excess;
pub mod nim_mul;
pub mod nim_sum;
pub mod tower;

pub use cnf::{Ordinal, Term};
