//! Nimbers of any size on the fastest path that holds them.
//!
//! [`AnyNimber`] is the one type of the front ends (the command line, Python) for a nimber whose
//! size is not known in advance: a [`Nim128`] while the value is below `2^128`, a [`NimBig`]
//! above. The field `F_7` of the nimbers below `2^128` is closed under every field operation
//! (sum, product, inverse, square root, the roots of `x² ⊕ x = a`), so an operation on two
//! 128-bit operands stays on the fixed-width kernels; only an operand of `2^128` or more takes
//! the result to [`NimBig`], and a big result that falls below `2^128` (a sum that cancels the
//! high words) comes back. The representation is therefore unique: `Big` holds exactly the
//! values of `2^128` and more, and derived equality is the equality of the numbers.

use super::{Nim128, NimBig, NimberField};
use num_bigint::BigUint;
use std::cmp::Ordering;
use std::fmt;

/// A nimber of any size: [`Nim128`] below `2^128`, [`NimBig`] from `2^128` on (see the module
/// documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyNimber {
    /// A nimber below `2^128`.
    Fixed(Nim128),
    /// A nimber of `2^128` or more.
    Big(NimBig),
}

impl AnyNimber {
    /// The nimber `x`, in the fixed-width type when it fits.
    pub fn from_big(x: NimBig) -> AnyNimber {
        match x.to_u128() {
            Some(v) => AnyNimber::Fixed(Nim128(v)),
            None => AnyNimber::Big(x),
        }
    }

    /// The nimber equal to the natural number `x`.
    pub fn from_biguint(x: &BigUint) -> AnyNimber {
        AnyNimber::from_big(NimBig::from_biguint(x))
    }

    /// The same nimber as a [`NimBig`].
    pub fn to_big(&self) -> NimBig {
        match self {
            AnyNimber::Fixed(x) => NimBig::from(x.0),
            AnyNimber::Big(x) => x.clone(),
        }
    }

    /// The natural number equal to this nimber.
    pub fn to_biguint(&self) -> BigUint {
        match self {
            AnyNimber::Fixed(x) => BigUint::from(x.0),
            AnyNimber::Big(x) => x.to_biguint(),
        }
    }

    /// Both operands in the fixed-width type, if they are.
    fn both(&self, other: &AnyNimber) -> Option<(Nim128, Nim128)> {
        match (self, other) {
            (AnyNimber::Fixed(a), AnyNimber::Fixed(b)) => Some((*a, *b)),
            _ => None,
        }
    }
}

impl From<u128> for AnyNimber {
    fn from(x: u128) -> AnyNimber {
        AnyNimber::Fixed(Nim128(x))
    }
}

impl From<NimBig> for AnyNimber {
    fn from(x: NimBig) -> AnyNimber {
        AnyNimber::from_big(x)
    }
}

impl fmt::Display for AnyNimber {
    /// In decimal, as the numbers it stands for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyNimber::Fixed(x) => fmt::Display::fmt(x, f),
            AnyNimber::Big(x) => fmt::Display::fmt(x, f),
        }
    }
}

impl Ord for AnyNimber {
    /// The order of the natural numbers (every `Big` exceeds every `Fixed`).
    fn cmp(&self, other: &AnyNimber) -> Ordering {
        match (self, other) {
            (AnyNimber::Fixed(a), AnyNimber::Fixed(b)) => a.0.cmp(&b.0),
            (AnyNimber::Fixed(_), AnyNimber::Big(_)) => Ordering::Less,
            (AnyNimber::Big(_), AnyNimber::Fixed(_)) => Ordering::Greater,
            (AnyNimber::Big(a), AnyNimber::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for AnyNimber {
    fn partial_cmp(&self, other: &AnyNimber) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl NimberField for AnyNimber {
    const MAX_LEVEL: u32 = u32::MAX;

    fn zero() -> AnyNimber {
        AnyNimber::Fixed(Nim128(0))
    }

    fn one() -> AnyNimber {
        AnyNimber::Fixed(Nim128(1))
    }

    fn from_u64(x: u64) -> AnyNimber {
        AnyNimber::Fixed(Nim128(x.into()))
    }

    fn is_zero(&self) -> bool {
        *self == AnyNimber::Fixed(Nim128(0))
    }

    fn nim_add(&self, other: &AnyNimber) -> AnyNimber {
        match self.both(other) {
            Some((a, b)) => AnyNimber::Fixed(a + b),
            None => AnyNimber::from_big(self.to_big().nim_add(&other.to_big())),
        }
    }

    fn nim_mul(&self, other: &AnyNimber) -> AnyNimber {
        match self.both(other) {
            Some((a, b)) => AnyNimber::Fixed(a * b),
            None => AnyNimber::from_big(self.to_big().nim_mul(&other.to_big())),
        }
    }

    fn nim_square(&self) -> AnyNimber {
        match self {
            AnyNimber::Fixed(a) => AnyNimber::Fixed(a.nim_square()),
            AnyNimber::Big(a) => AnyNimber::from_big(a.nim_square()),
        }
    }

    fn level(&self) -> u32 {
        match self {
            AnyNimber::Fixed(a) => NimberField::level(a),
            AnyNimber::Big(a) => a.level(),
        }
    }

    fn power_of_two(i: u32) -> Option<AnyNimber> {
        if i < 128 {
            Some(AnyNimber::Fixed(Nim128(1 << i)))
        } else {
            NimBig::power_of_two(i).map(AnyNimber::Big)
        }
    }

    fn nim_inv(&self) -> Option<AnyNimber> {
        match self {
            AnyNimber::Fixed(a) => a.nim_inv().map(AnyNimber::Fixed),
            AnyNimber::Big(a) => a.nim_inv().map(AnyNimber::from_big),
        }
    }

    fn nim_sqrt(&self) -> AnyNimber {
        match self {
            AnyNimber::Fixed(a) => AnyNimber::Fixed(a.nim_sqrt()),
            AnyNimber::Big(a) => AnyNimber::from_big(a.nim_sqrt()),
        }
    }

    fn nim_artin_schreier(&self) -> Option<AnyNimber> {
        match self {
            AnyNimber::Fixed(a) => a.nim_artin_schreier().map(AnyNimber::Fixed),
            AnyNimber::Big(a) => a.nim_artin_schreier().map(AnyNimber::from_big),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(x: &AnyNimber) -> NimBig {
        x.to_big()
    }

    /// Values around the 2^128 boundary and beyond, from three words.
    fn any_nimber() -> impl Strategy<Value = AnyNimber> {
        (any::<u64>(), any::<u64>(), 0u64..4).prop_map(|(lo, hi, top)| {
            AnyNimber::from_biguint(
                &((BigUint::from(top) << 128) + (BigUint::from(hi) << 64) + BigUint::from(lo)),
            )
        })
    }

    proptest! {
        /// Every operation agrees with NimBig, and the result is normalised.
        #[test]
        fn operations_agree_with_nimbig(a in any_nimber(), b in any_nimber()) {
            let normal = |x: &AnyNimber| match x {
                AnyNimber::Fixed(_) => true,
                AnyNimber::Big(v) => v.to_u128().is_none(),
            };
            for (got, want) in [
                (a.nim_add(&b), big(&a).nim_add(&big(&b))),
                (a.nim_mul(&b), big(&a).nim_mul(&big(&b))),
                (a.nim_square(), big(&a).nim_square()),
                (a.nim_sqrt(), big(&a).nim_sqrt()),
            ] {
                prop_assert!(normal(&got));
                prop_assert_eq!(got.to_big(), want);
            }
            prop_assert_eq!(a.nim_inv().map(|x| x.to_big()), big(&a).nim_inv());
            prop_assert_eq!(a.level(), big(&a).level());
            prop_assert_eq!(a.cmp(&b), big(&a).cmp(&big(&b)));
            prop_assert_eq!(a.to_string(), big(&a).to_string());
        }
    }

    #[test]
    fn a_sum_that_cancels_the_high_words_comes_back_to_128_bits() {
        let a = AnyNimber::from_biguint(&((BigUint::from(1u8) << 200) + 5u8));
        let b = AnyNimber::from_biguint(&(BigUint::from(1u8) << 200));
        assert!(matches!(a, AnyNimber::Big(_)));
        assert_eq!(a.nim_add(&b), AnyNimber::Fixed(Nim128(5)));
        assert_eq!(
            AnyNimber::power_of_two(127),
            Some(AnyNimber::Fixed(Nim128(1 << 127)))
        );
        assert!(matches!(
            AnyNimber::power_of_two(128),
            Some(AnyNimber::Big(_))
        ));
    }
}
