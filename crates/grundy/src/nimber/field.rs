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

    /// The nimber `2^i` (an ordinary power of two), if this type holds it. The default knows
    /// `i < 64` through [`NimberField::from_u64`]; types holding larger nimbers override it (the
    /// field algorithms need `2^(2^k)` and `2^(2^k - 1)` to leave or enter the field `F_k`).
    fn power_of_two(i: u32) -> Option<Self> {
        (i < 64).then(|| Self::from_u64(1u64 << i))
    }

    /// The nim-inverse, `None` for 0. The default is Fermat's `a^(2^(2^k) - 2)` in the field
    /// `F_k` of the element (Fermat inversion); types may specialise it.
    fn nim_inv(&self) -> Option<Self> {
        super::algebra::inv_by_fermat(self)
    }

    /// The nim-square root (unique: squaring is a bijection in characteristic 2). The default is
    /// the inverse Frobenius `a^(2^(2^k - 1))` in `F_k` ([`super::algebra::sqrt_by_frobenius`]).
    fn nim_sqrt(&self) -> Self {
        super::algebra::sqrt_by_frobenius(self)
    }

    /// A root `x` of `x² ⊕ x = self` in the field `F_k` of the element (`k = level()`), or `None`
    /// when there is none in `F_k` (exactly when the trace of `self` over `GF(2)` is 1); the other
    /// root is `x ⊕ 1`. The default is the trace formula
    /// ([`super::algebra::artin_schreier_by_trace_formula`]); types may specialise it.
    fn nim_artin_schreier(&self) -> Option<Self> {
        super::algebra::artin_schreier_by_trace_formula(self)
    }
}
