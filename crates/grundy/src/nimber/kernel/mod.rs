//! Fast nim products: the hardware path and the portable path, chosen at run time.
//!
//! - [`basis`]: the field of `2^64` nimbers as `GF(2)[x]` modulo an irreducible `P`, built at run
//!   time from the mathematics, so that `a ⊗ b = φ⁻¹(φ(a)·φ(b) mod P)`.
//! - `clmul` (x86-64): that formula with the carry-less multiply instruction.
//! - `avx512` (x86-64): eight products at a time, with the basis changes done by GFNI
//!   affine transforms and the products by VPCLMULQDQ (used by [`crate::nimber::batch`]).
//! - [`portable`]: logarithm tables over the `2^16` subfield and Karatsuba above (any CPU).
//!
//! [`mul64`] and [`mul128`] pick the fastest path the CPU supports; the `portable` functions
//! stay public so that tests and benchmarks can pit the paths against each other.

pub mod basis;
pub mod frobenius;
pub mod portable;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod clmul;

use basis::BasisChange;
use std::sync::OnceLock;

/// The state of the hardware path: the basis change, and `φ(2^63)` for 128-bit products.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Hardware {
    pub(crate) basis: &'static BasisChange,
    pub(crate) h_poly: u64,
}

/// The hardware path if the CPU supports it (checked once).
#[inline]
pub(crate) fn hardware() -> Option<&'static Hardware> {
    static HW: OnceLock<Option<Hardware>> = OnceLock::new();
    HW.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if clmul::available() {
            let basis = BasisChange::get();
            return Some(Hardware {
                basis,
                h_poly: basis.to_poly_table.apply(1 << 63),
            });
        }
        None
    })
    .as_ref()
}

/// Which path [`mul64`] takes on this CPU: `"pclmulqdq"` or `"portable"`.
pub fn path() -> &'static str {
    if hardware().is_some() {
        "pclmulqdq"
    } else {
        "portable"
    }
}

/// `a ⊗ b` for nimbers below `2^64`, by the fastest path of this CPU.
#[inline]
pub fn mul64(a: u64, b: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(hw) = hardware() {
        // SAFETY: `hardware()` is `Some` only when the CPU has the instructions.
        return unsafe { clmul::mul64(hw.basis, a, b) };
    }
    portable::mul64(a, b)
}

/// `a ⊗ b` for nimbers below `2^128`, by the fastest path of this CPU.
#[inline]
pub fn mul128(a: u128, b: u128) -> u128 {
    #[cfg(target_arch = "x86_64")]
    if let Some(hw) = hardware() {
        // SAFETY: `hardware()` is `Some` only when the CPU has the instructions.
        return unsafe { clmul::mul128(hw.basis, hw.h_poly, a, b) };
    }
    portable::mul128(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference;
    use proptest::prelude::*;

    #[test]
    fn all_paths_agree_with_mex_table_below_256() {
        let t = reference::mul_mex_table();
        for a in 0..256u64 {
            for b in 0..256u64 {
                let e = t[a as usize][b as usize] as u64;
                assert_eq!(mul64(a, b), e, "{a} ⊗ {b}");
                assert_eq!(portable::mul64(a, b), e, "portable {a} ⊗ {b}");
                assert_eq!(mul128(a as u128, b as u128), e as u128);
                assert_eq!(portable::mul128(a as u128, b as u128), e as u128);
            }
        }
    }

    #[test]
    fn published_values() {
        let expect = [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128];
        for (n, &e) in (1..=16u64).zip(expect.iter()) {
            assert_eq!(mul64(8, n), e);
            assert_eq!(portable::mul64(8, n), e);
        }
        for k in 0..7 {
            let f = 1u128 << (1 << k);
            assert_eq!(mul128(f, f), f + f / 2);
            assert_eq!(portable::mul128(f, f), f + f / 2);
            if k < 6 {
                assert_eq!(mul64(f as u64, f as u64) as u128, f + f / 2);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn mul64_agrees_with_reference(a: u64, b: u64) {
            let e = reference::mul_u64(a, b);
            prop_assert_eq!(mul64(a, b), e);
            prop_assert_eq!(portable::mul64(a, b), e);
        }

        #[test]
        fn mul128_agrees_with_reference(a: u128, b: u128) {
            let e = reference::mul_u128(a, b);
            prop_assert_eq!(mul128(a, b), e);
            prop_assert_eq!(portable::mul128(a, b), e);
        }

        #[test]
        fn field_axioms(a: u64, b: u64, c: u64) {
            prop_assert_eq!(mul64(a, b), mul64(b, a));
            prop_assert_eq!(mul64(mul64(a, b), c), mul64(a, mul64(b, c)));
            prop_assert_eq!(mul64(a, b ^ c), mul64(a, b) ^ mul64(a, c));
            prop_assert_eq!(mul64(a, 1), a);
        }

        #[test]
        fn field_axioms_128(a: u128, b: u128, c: u128) {
            prop_assert_eq!(mul128(a, b), mul128(b, a));
            prop_assert_eq!(mul128(mul128(a, b), c), mul128(a, mul128(b, c)));
            prop_assert_eq!(mul128(a, b ^ c), mul128(a, b) ^ mul128(a, c));
        }
    }
}
