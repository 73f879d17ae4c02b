//! [`Nim128`]: the field `F_7` of the `2^128` nimbers below `2^128`, as a `Copy` value.
//!
//! A nimber below `2^128` is `a = ah·T ⊕ al` with `T = 2^64` and 64-bit halves, and
//! `T ⊗ T = T ⊕ h` with `h = 2^63`. Products take the Karatsuba step over the halves
//! (`kernel::mul128`); squares and square roots reduce to the 64-bit Frobenius tables:
//! `a² = ah²·T ⊕ (al² ⊕ ah²⊗h)` (the cross terms cancel in characteristic 2), so the root `x` of
//! `s = sh·T ⊕ sl` has `xh = √sh` and `xl = √(sl ⊕ sh⊗h)`.
//!
//! ```
//! use grundy::nimber::Nim128;
//! let t = Nim128(1 << 64);
//! assert_eq!(t * t, Nim128(3 << 63)); // 2^64 ⊗ 2^64 = 3/2 · 2^64
//! ```

use super::fixed::{fixed_nimber_algebra, fixed_nimber_field, fixed_nimber_ops};
use super::kernel;
use super::kernel::frobenius::{sqrt64, square64};

/// A nimber below `2^128`. `+` and `-` are nim-addition (xor), `*` and `/` nim-multiplication and
/// its inverse.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Debug)]
#[repr(transparent)]
pub struct Nim128(pub u128);

fixed_nimber_ops!(Nim128, u128, kernel::mul128);
fixed_nimber_algebra!(Nim128, u128);
fixed_nimber_field!(Nim128, u128);

/// `x ⊗ 2^63` for `x < 2^64`.
#[inline]
fn times_half(x: u64) -> u64 {
    kernel::mul64(x, 1 << 63)
}

impl Nim128 {
    /// `self ⊗ self = ah²·2^64 ⊕ (al² ⊕ ah²⊗2^63)`.
    #[inline]
    pub fn square(self) -> Nim128 {
        let (ah, al) = ((self.0 >> 64) as u64, self.0 as u64);
        let sh = square64(ah);
        Nim128(((sh as u128) << 64) | (square64(al) ^ times_half(sh)) as u128)
    }

    /// The nim-square root: `xh = √sh`, `xl = √(sl ⊕ sh⊗2^63)` (the inverse of [`Self::square`]).
    #[inline]
    pub fn sqrt(self) -> Nim128 {
        let (sh, sl) = ((self.0 >> 64) as u64, self.0 as u64);
        let xl = sqrt64(sl ^ times_half(sh));
        Nim128(((sqrt64(sh) as u128) << 64) | xl as u128)
    }

    /// The nim-inverse by the conjugate over the 64-bit subfield; `None` for 0.
    ///
    /// The conjugate of `a = ah·T ⊕ al` (`T = 2^64`, `h = 2^63`) is `ā = ah·T ⊕ (ah ⊕ al)`
    /// (`x ↦ x^(2^64)` sends `T` to `T ⊕ 1`), the norm `N = a⊗ā = ah²⊗h ⊕ ah⊗al ⊕ al²` is below
    /// `2^64`, and `a⁻¹ = (ah⊗N⁻¹)·T ⊕ (ah ⊕ al)⊗N⁻¹`.
    pub fn conjugate_inv(self) -> Option<Nim128> {
        let (ah, al) = ((self.0 >> 64) as u64, self.0 as u64);
        let norm = times_half(square64(ah)) ^ kernel::mul64(ah, al) ^ square64(al);
        let n = kernel::portable::inv64(norm)?;
        let hi = kernel::mul64(ah, n);
        Some(Nim128(
            ((hi as u128) << 64) | kernel::mul64(ah ^ al, n) as u128,
        ))
    }

    /// The value as a [`super::Nim64`] if it is below `2^64`.
    pub fn to_nim64(self) -> Option<super::Nim64> {
        u64::try_from(self.0).ok().map(super::Nim64)
    }
}

impl From<super::Nim64> for Nim128 {
    /// The embedding of `F_6` in `F_7` (the same number).
    fn from(x: super::Nim64) -> Nim128 {
        Nim128(x.0 as u128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::{algebra, reference, Nim64};
    use proptest::prelude::*;

    #[test]
    fn fermat_powers_and_embedding() {
        for k in 0..7 {
            let f = Nim128(1 << (1 << k));
            assert_eq!(f * f, Nim128(f.0 + f.0 / 2));
            assert_eq!(f.square(), f * f);
        }
        assert_eq!(Nim128::from(Nim64(8)) * Nim128(9), Nim128(5));
        assert_eq!(Nim128(5).to_nim64(), Some(Nim64(5)));
        assert_eq!(Nim128(1 << 64).to_nim64(), None);
        assert_eq!(Nim128(1 << 64).level(), 7);
        assert_eq!(Nim128(0).inv(), None);
        assert_eq!(
            Nim128(1 << 64).inv().map(|x| x * Nim128(1 << 64)),
            Some(Nim128(1))
        );
        assert_eq!(Nim128(123456789).sqrt(), Nim128(98433322));
        assert_eq!(
            "340282366920938463463374607431768211455".parse::<Nim128>(),
            Ok(Nim128(u128::MAX))
        );
        assert!("340282366920938463463374607431768211456"
            .parse::<Nim128>()
            .is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn agrees_with_reference_and_generic_algebra(a: u128, b: u128) {
            let (x, y) = (Nim128(a), Nim128(b));
            prop_assert_eq!((x * y).0, reference::mul_u128(a, b));
            prop_assert_eq!(x.square().0, reference::mul_u128(a, a));
            let r = x.sqrt();
            prop_assert_eq!(reference::mul_u128(r.0, r.0), a);
            prop_assert_eq!(r, algebra::sqrt_by_frobenius(&x));
            if b != 0 {
                prop_assert_eq!(reference::mul_u128(y.inv().unwrap().0, b), 1);
                prop_assert_eq!(y.inv(), algebra::inv_by_fermat(&y));
                prop_assert_eq!((x / y) * y, x);
            }
        }
    }
}
