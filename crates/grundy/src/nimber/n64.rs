//! [`Nim64`]: the field `F_6` of the `2^64` nimbers below `2^64`, as a `Copy` value.
//!
//! Products go through the `kernel` module (a carry-less multiplication between two basis changes
//! where the CPU has one, logarithm tables otherwise); squares and square roots are the linear
//! Frobenius map and its inverse, eight table lookups each. The other field algorithms (powers,
//! orders, traces, quadratic equations, logarithms) are the generic ones of
//! [`super::algebra`].
//!
//! ```
//! use grundy::nimber::Nim64;
//! let a = Nim64(8);
//! assert_eq!(a * Nim64(9), Nim64(5));
//! assert_eq!((a * Nim64(9)) / Nim64(9), a);
//! assert_eq!(Nim64(123456789).sqrt(), Nim64(98433322));
//! ```

use super::fixed::{fixed_nimber_algebra, fixed_nimber_field, fixed_nimber_ops};
use super::kernel;

/// A nimber below `2^64`. `+` and `-` are nim-addition (xor), `*` and `/` nim-multiplication and
/// its inverse.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Debug)]
#[repr(transparent)]
pub struct Nim64(pub u64);

fixed_nimber_ops!(Nim64, u64, kernel::mul64);
fixed_nimber_algebra!(Nim64, u64);
fixed_nimber_field!(Nim64, u64);

impl Nim64 {
    /// `self ⊗ self`, by the linear Frobenius map (eight table lookups).
    #[inline]
    pub fn square(self) -> Nim64 {
        Nim64(kernel::frobenius::square64(self.0))
    }

    /// The nim-square root: the unique `x` with `x ⊗ x = self`, by the inverse of the Frobenius
    /// map as a bit matrix (`x = self^(2^63)`).
    #[inline]
    pub fn sqrt(self) -> Nim64 {
        Nim64(kernel::frobenius::sqrt64(self.0))
    }

    /// The nim-inverse by the conjugate recursion down to logarithm tables
    /// (`kernel::portable::inv64`: `a⁻¹ = ā ⊗ N(a)⁻¹` with the norm one level down); `None` for
    /// 0. [`Nim64::inv`] is this.
    pub fn conjugate_inv(self) -> Option<Nim64> {
        kernel::portable::inv64(self.0).map(Nim64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::{algebra, reference};
    use proptest::prelude::*;

    #[test]
    fn operators_and_published_values() {
        let expect = [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128];
        for (n, &e) in (1..=16u64).zip(expect.iter()) {
            assert_eq!(Nim64(8) * Nim64(n), Nim64(e));
        }
        assert_eq!(Nim64(5) + Nim64(3), Nim64(6));
        assert_eq!(Nim64(5) - Nim64(3), Nim64(6));
        assert_eq!(-Nim64(7), Nim64(7));
        assert_eq!(Nim64(0).inv(), None);
        assert_eq!(Nim64(3).checked_div(Nim64(0)), None);
        assert_eq!(Nim64(123456789).sqrt(), Nim64(98433322));
        assert_eq!(
            [Nim64(1), Nim64(2), Nim64(4)].into_iter().sum::<Nim64>(),
            Nim64(7)
        );
        assert_eq!(
            [Nim64(2), Nim64(2)].into_iter().product::<Nim64>(),
            Nim64(3)
        );
        let mut x = Nim64(2);
        x *= Nim64(3);
        x += Nim64(1);
        x /= Nim64(1);
        x -= Nim64(0);
        assert_eq!(x, Nim64(0));
        assert_eq!(Nim64(0).level(), 0);
        assert_eq!(Nim64(1).level(), 0);
        assert_eq!(Nim64(2).level(), 1);
        assert_eq!(Nim64(4).level(), 2);
        assert_eq!(Nim64(1 << 32).level(), 6);
        assert_eq!(Nim64(u64::MAX).to_string(), "18446744073709551615");
        assert_eq!("0xff".parse::<Nim64>(), Ok(Nim64(255)));
        assert!("18446744073709551616".parse::<Nim64>().is_err());
        assert!("12a".parse::<Nim64>().is_err());
    }

    #[test]
    fn inverses_below_256_by_the_mex_table() {
        let t = reference::mul_mex_table();
        for a in 1..256u64 {
            let i = Nim64(a).inv().unwrap().0;
            assert!(i < 256, "the inverse stays in the subfield");
            assert_eq!(t[a as usize][i as usize], 1, "{a}⁻¹ = {i}");
        }
    }

    #[test]
    #[should_panic(expected = "division by zero")]
    fn division_by_zero_panics_like_integers() {
        let _ = Nim64(1) / Nim64(0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn agrees_with_reference_and_generic_algebra(a: u64, b: u64) {
            let (x, y) = (Nim64(a), Nim64(b));
            prop_assert_eq!((x * y).0, reference::mul_u64(a, b));
            prop_assert_eq!(x.square().0, reference::mul_u64(a, a));
            prop_assert_eq!(x.sqrt(), algebra::sqrt_by_frobenius(&x));
            prop_assert_eq!(x.inv(), algebra::inv_by_fermat(&x));
            prop_assert_eq!(x.conjugate_inv(), algebra::inv_by_fermat(&x));
            if b != 0 {
                prop_assert_eq!((x / y) * y, x);
                prop_assert_eq!(reference::mul_u64(y.inv().unwrap().0, b), 1);
            }
            prop_assert_eq!(x.to_string().parse::<Nim64>(), Ok(x));
        }
    }
}
