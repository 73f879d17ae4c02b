//! The nimber field `F_6` (nimbers below `2^64`) as polynomials over GF(2) modulo an irreducible
//! `P`, so that a nim product becomes a carry-less multiplication.
//!
//! Any element `θ` of `F_6` outside the subfield `F_5` (below `2^32`) has degree 64 over GF(2):
//! the subfields of a field of order `2^64` have orders `2^(2^j)`, and the largest proper one is
//! `F_5`. We take `θ = 2^32`. Then `1, θ, ..., θ^63` is a basis of `F_6` over GF(2) and
//! `θ^64 = Σ r_i θ^i` for unique bits `r_i`; `P(x) = x^64 + Σ r_i x^i` is the minimal polynomial
//! of `θ`, so `φ⁻¹ : c(x) ↦ c(θ)` is a ring isomorphism `GF(2)[x]/(P) → F_6`. With `φ` its inverse,
//!
//! ```text
//! a ⊗ b = φ⁻¹( φ(a)·φ(b) mod P )
//! ```
//!
//! where `·` is the carry-less product. `φ⁻¹` is the GF(2)-linear map whose columns are the
//! powers `θ^i` (computed with the portable product), `φ` its inverse matrix (Gauss-Jordan), and
//! `r = φ(θ^64)`. Nothing here is a pasted constant: everything follows from `θ` at run time.
//!
//! Reduction modulo `P` is Barrett's: for `c = c_hi·x^64 + c_lo` of degree `< 128` and
//! `μ = ⌊x^128 / P⌋ = x^64 + μ'`, the quotient is `q = ⌊c_hi·μ / x^64⌋ = c_hi ⊕ ⌊c_hi·μ' / x^64⌋`
//! (exact for polynomials of degree below `2·64`), and `c mod P = c_lo ⊕ (q·r mod x^64)`, since
//! `q·P = q·x^64 ⊕ q·r` and the high parts cancel.

use super::portable;
use std::sync::OnceLock;

/// A 64×64 matrix over GF(2), stored by columns: `cols[j]` is the image of bit `j`.
pub type Matrix = [u64; 64];

/// `M·v`: the xor of the columns selected by the bits of `v`.
pub fn apply(m: &Matrix, v: u64) -> u64 {
    let mut y = 0;
    for (j, &c) in m.iter().enumerate() {
        if v >> j & 1 == 1 {
            y ^= c;
        }
    }
    y
}

/// The transpose: rows become columns.
pub fn transpose(m: &Matrix) -> Matrix {
    let mut t = [0u64; 64];
    for (j, &c) in m.iter().enumerate() {
        for (i, ti) in t.iter_mut().enumerate() {
            *ti |= (c >> i & 1) << j;
        }
    }
    t
}

/// The inverse matrix, by Gauss-Jordan elimination on rows; `None` if `m` is singular.
pub fn invert(m: &Matrix) -> Option<Matrix> {
    // Row i of `m` (bit j = entry (i, j)) beside row i of the identity.
    let mut rows = transpose(m);
    let mut inv: Matrix = std::array::from_fn(|i| 1u64 << i);
    for col in 0..64 {
        let pivot = (col..64).find(|&i| rows[i] >> col & 1 == 1)?;
        rows.swap(col, pivot);
        inv.swap(col, pivot);
        for i in 0..64 {
            if i != col && rows[i] >> col & 1 == 1 {
                rows[i] ^= rows[col];
                inv[i] ^= inv[col];
            }
        }
    }
    // `inv` now holds the rows of m⁻¹; return its columns.
    Some(transpose(&inv))
}

/// A matrix applied byte by byte: `table[k][x]` is the image of `x << 8k`, so `M·v` is the xor of
/// eight lookups.
pub struct ByteTable(pub [[u64; 256]; 8]);

impl ByteTable {
    /// Tabulates `m` (2 KiB a byte position, 16 KiB in all).
    pub fn new(m: &Matrix) -> Box<ByteTable> {
        let mut t = Box::new(ByteTable([[0; 256]; 8]));
        for k in 0..8 {
            for x in 1..256usize {
                let low = x & (x - 1); // x without its lowest bit
                let bit = x.trailing_zeros() as usize;
                t.0[k][x] = t.0[k][low] ^ m[8 * k + bit];
            }
        }
        t
    }

    /// `M·v` by eight lookups.
    #[inline(always)]
    pub fn apply(&self, v: u64) -> u64 {
        let t = &self.0;
        (t[0][(v & 255) as usize] ^ t[1][(v >> 8 & 255) as usize])
            ^ (t[2][(v >> 16 & 255) as usize] ^ t[3][(v >> 24 & 255) as usize])
            ^ ((t[4][(v >> 32 & 255) as usize] ^ t[5][(v >> 40 & 255) as usize])
                ^ (t[6][(v >> 48 & 255) as usize] ^ t[7][(v >> 56) as usize]))
    }
}

/// The basis change between nimbers and polynomials modulo `P`, with the Barrett constants.
pub struct BasisChange {
    /// `φ`: nimber to polynomial, by columns.
    pub to_poly: Matrix,
    /// `φ⁻¹`: polynomial to nimber, by columns (column `i` is `θ^i`).
    pub from_poly: Matrix,
    /// `φ` by byte tables.
    pub to_poly_table: Box<ByteTable>,
    /// `φ⁻¹` by byte tables.
    pub from_poly_table: Box<ByteTable>,
    /// `P(x) = x^64 + r(x)`: the low 64 coefficients.
    pub r: u64,
    /// `⌊x^128 / P⌋ = x^64 + μ'`: the low 64 coefficients `μ'`.
    pub mu: u64,
}

/// The carry-less product of two polynomials of degree `< 64` (portable, bit by bit).
pub fn clmul_portable(a: u64, b: u64) -> u128 {
    let mut c = 0u128;
    for j in 0..64 {
        if b >> j & 1 == 1 {
            c ^= (a as u128) << j;
        }
    }
    c
}

impl BasisChange {
    /// Builds the basis change from `θ = 2^32` (see the module documentation).
    fn build() -> BasisChange {
        let theta = 1u64 << 32;
        let mut from_poly = [0u64; 64];
        let mut power = 1u64;
        for col in from_poly.iter_mut() {
            *col = power;
            power = portable::mul64(power, theta);
        }
        // `power` is now θ^64.
        let to_poly = invert(&from_poly)
            .expect("θ = 2^32 lies outside F_5, so its first 64 powers are independent");
        let r = apply(&to_poly, power);
        // μ = ⌊x^128 / P⌋ by long division: the bit x^128 of the dividend is cancelled by
        // x^64·P (quotient bit 64), leaving r·x^64; then the bits 127 down to 64 in turn.
        let mut rem: u128 = (r as u128) << 64;
        let mut mu = 0u64;
        for d in (64..128).rev() {
            if rem >> d & 1 == 1 {
                mu |= 1 << (d - 64);
                rem ^= ((r as u128) << (d - 64)) ^ (1u128 << d);
            }
        }
        BasisChange {
            to_poly_table: ByteTable::new(&to_poly),
            from_poly_table: ByteTable::new(&from_poly),
            to_poly,
            from_poly,
            r,
            mu,
        }
    }

    /// The basis change, built on first use.
    pub fn get() -> &'static BasisChange {
        static BASIS: OnceLock<BasisChange> = OnceLock::new();
        BASIS.get_or_init(BasisChange::build)
    }

    /// `c mod P` for `c` of degree `< 128`, by Barrett reduction with a portable carry-less
    /// product (the reference for the hardware versions).
    pub fn reduce_portable(&self, c: u128) -> u64 {
        let (hi, lo) = ((c >> 64) as u64, c as u64);
        let q = hi ^ (clmul_portable(hi, self.mu) >> 64) as u64;
        lo ^ clmul_portable(q, self.r) as u64
    }

    /// `a ⊗ b` through the basis change with a portable carry-less product (slow; the
    /// reference for the hardware versions).
    pub fn mul_portable(&self, a: u64, b: u64) -> u64 {
        let c = clmul_portable(apply(&self.to_poly, a), apply(&self.to_poly, b));
        apply(&self.from_poly, self.reduce_portable(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference;

    #[test]
    fn basis_change_is_inverse_and_maps_theta_to_x() {
        let b = BasisChange::get();
        assert_eq!(apply(&b.to_poly, 1), 1);
        assert_eq!(apply(&b.to_poly, 1 << 32), 2);
        for v in [1u64, 2, 3, 1 << 40, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(apply(&b.from_poly, apply(&b.to_poly, v)), v);
            assert_eq!(b.to_poly_table.apply(v), apply(&b.to_poly, v));
            assert_eq!(b.from_poly_table.apply(v), apply(&b.from_poly, v));
        }
    }

    #[test]
    fn barrett_reduction_is_remainder() {
        // x^64 ≡ r, and reduction of x^64·c_hi must agree with repeated x^64 ≡ r folding.
        let b = BasisChange::get();
        assert_eq!(b.reduce_portable(1u128 << 64), b.r);
        for c in [1u128 << 127, u128::MAX, 0xdead_beef_u128 << 70 | 12345] {
            let mut v = c;
            while v >> 64 != 0 {
                let hi = (v >> 64) as u64;
                v = (v as u64 as u128) ^ clmul_portable(hi, b.r);
            }
            assert_eq!(b.reduce_portable(c), v as u64);
        }
    }

    #[test]
    fn polynomial_product_is_nim_product() {
        let b = BasisChange::get();
        let xs = [
            0u64,
            1,
            2,
            7,
            255,
            1 << 32,
            1 << 63,
            u64::MAX,
            0x9e37_79b9_7f4a_7c15,
        ];
        for &x in &xs {
            for &y in &xs {
                assert_eq!(b.mul_portable(x, y), reference::mul_u64(x, y), "{x} ⊗ {y}");
            }
        }
    }
}
