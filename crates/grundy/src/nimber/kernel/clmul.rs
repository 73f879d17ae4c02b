//! The nim product by one carry-less multiplication (`pclmulqdq`) between two basis changes.
//!
//! `a ⊗ b = φ⁻¹(φ(a)·φ(b) mod P)` ([`super::basis`]): the basis changes are eight table lookups
//! each, the product is one `pclmulqdq`, and Barrett's reduction two more:
//! `q = c_hi ⊕ (c_hi·μ')_hi`, `c mod P = c_lo ⊕ (q·r)_lo`. The 128-bit product applies the
//! Karatsuba step over `T = 2^64` (`T ⊗ T = T ⊕ h`, `h = 2^63`) inside the polynomial domain, so
//! that its three half products and the product by `h` share four basis changes in and two out.

use super::basis::BasisChange;
use std::arch::x86_64::*;

/// Whether the CPU has the instructions of this module.
pub fn available() -> bool {
    crate::gf2::has_clmul() && is_x86_feature_detected!("sse4.1")
}

/// `φ(a)·φ(b) mod P` as a 64-bit polynomial: one product and a Barrett reduction, all in
/// vector registers.
///
/// # Safety
/// The CPU must have `pclmulqdq` and `sse4.1`.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub unsafe fn mul_reduce(basis: &BasisChange, pa: u64, pb: u64) -> u64 {
    let c = _mm_clmulepi64_si128(
        _mm_cvtsi64_si128(pa as i64),
        _mm_cvtsi64_si128(pb as i64),
        0x00,
    );
    reduce(basis, c)
}

/// `c mod P` for a 128-bit carry-less product `c` held in a vector register.
///
/// # Safety
/// The CPU must have `pclmulqdq` and `sse4.1`.
#[inline]
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub unsafe fn reduce(basis: &BasisChange, c: __m128i) -> u64 {
    let constants = _mm_set_epi64x(basis.r as i64, basis.mu as i64);
    // t = c_hi·μ'; its high half xored into c_hi gives the quotient q (in the high lane).
    let t = _mm_clmulepi64_si128(c, constants, 0x01);
    let q = _mm_xor_si128(c, t);
    // u = q·r; its low half xored into c_lo is the remainder.
    let u = _mm_clmulepi64_si128(q, constants, 0x11);
    _mm_cvtsi128_si64(_mm_xor_si128(c, u)) as u64
}

/// `a ⊗ b` below `2^64`.
///
/// # Safety
/// The CPU must have `pclmulqdq` and `sse4.1`.
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub unsafe fn mul64(basis: &BasisChange, a: u64, b: u64) -> u64 {
    let (pa, pb) = (basis.to_poly_table.apply(a), basis.to_poly_table.apply(b));
    basis.from_poly_table.apply(mul_reduce(basis, pa, pb))
}

/// `a ⊗ b` below `2^128`, where `h_poly = φ(2^63)`.
///
/// With `T = 2^64`, `h = 2^63` and halves below `T`:
/// `a ⊗ b = ((ah⊕al)⊗(bh⊕bl) ⊕ al⊗bl)·T ⊕ (al⊗bl ⊕ (ah⊗bh)⊗h)`. Mapped by `φ`, the three half
/// products are carry-less products; the sums are taken before reducing, so only three
/// reductions are needed: the high half, `ah⊗bh` (before its product by `φ(h)`), and the low half.
///
/// # Safety
/// The CPU must have `pclmulqdq` and `sse4.1`.
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub unsafe fn mul128(basis: &BasisChange, h_poly: u64, a: u128, b: u128) -> u128 {
    let t = &basis.to_poly_table;
    let (ah, al) = (t.apply((a >> 64) as u64), t.apply(a as u64));
    let (bh, bl) = (t.apply((b >> 64) as u64), t.apply(b as u64));
    let x = _mm_set_epi64x(ah as i64, al as i64);
    let y = _mm_set_epi64x(bh as i64, bl as i64);
    let low = _mm_clmulepi64_si128(x, y, 0x00);
    let high = _mm_clmulepi64_si128(x, y, 0x11);
    let xs = _mm_cvtsi64_si128((ah ^ al) as i64);
    let ys = _mm_cvtsi64_si128((bh ^ bl) as i64);
    let mid = _mm_clmulepi64_si128(xs, ys, 0x00);
    let hi_part = reduce(basis, _mm_xor_si128(mid, low));
    let hh = reduce(basis, high);
    let hh_h = _mm_clmulepi64_si128(
        _mm_cvtsi64_si128(hh as i64),
        _mm_cvtsi64_si128(h_poly as i64),
        0x00,
    );
    let lo_part = reduce(basis, _mm_xor_si128(low, hh_h));
    let f = &basis.from_poly_table;
    ((f.apply(hi_part) as u128) << 64) | f.apply(lo_part) as u128
}
