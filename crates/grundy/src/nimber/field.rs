//! The interface every nimber representation offers, so that the field algorithms
//! (powers, inverses, roots, quadratic equations, logarithms, subfields: [`super::algebra`]) are
//! written once and serve the 64-bit, 128-bit and any-size types alike.
//!
//! The nimbers below `2^(2^k)` form the field `F_k` of order `2^(2^k)`; `level()` is the least
//! such `k` containing the element (0 for 0 and 1). Any computation whose inputs lie in `F_k`
//! stays in `F_k`, so algorithms work in the field of the largest level among their inputs.

use std::fmt::Debug;

/// A representation of (some of) the nimbers with the field operations.
pub trait NimberField: Clone + Eq + Debug {
    /// The largest level `k` this type can represent (`F_k` is the whole type); `u32::MAX` for
    /// types of unbounded size.
    const MAX_LEVEL: u32;
    /// The nimber 0, the additive identity.
    fn zero() -> Self;
    /// The nimber 1, the multiplicative identity.
    fn one() -> Self;
    /// The nimber equal to the natural number `x`.
    fn from_u64(x: u64) -> Self;
    /// Whether this is 0.
    fn is_zero(&self) -> bool;
    /// Nim-sum: bitwise xor.
    fn nim_add(&self, other: &Self) -> Self;
    /// Nim-product.
    fn nim_mul(&self, other: &Self) -> Self;
    /// Nim-square (a Frobenius step: `(a ⊕ b)² = a² ⊕ b²`); types may specialise it.
    fn nim_square(&self) -> Self {
        self.nim_mul(self)
    }
    /// The least `k` with `self < 2^(2^k)`; 0 for 0 and 1.
    fn level(&self) -> u32;
}
