//! What the fixed-width nimber types [`super::Nim64`] and [`super::Nim128`] share: operators,
//! formatting, iterator sums and products (parsing is in [`crate::notation::number`]). Addition and subtraction are both xor (the
//! field has characteristic 2, so `-a = a`); multiplication is the type's fast product; division
//! multiplies by the inverse.

/// Implements the arithmetic operators and formatting for a nimber newtype over an unsigned
/// integer, given its product.
macro_rules! fixed_nimber_ops {
    ($t:ident, $u:ty, $mul:path) => {
        impl std::ops::Add for $t {
            type Output = $t;
            /// Nim-sum: bitwise xor.
            #[inline]
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn add(self, rhs: $t) -> $t {
                $t(self.0 ^ rhs.0)
            }
        }
        impl std::ops::Sub for $t {
            type Output = $t;
            /// Nim-difference, equal to the nim-sum (characteristic 2).
            #[inline]
            #[allow(clippy::suspicious_arithmetic_impl)]
            fn sub(self, rhs: $t) -> $t {
                $t(self.0 ^ rhs.0)
            }
        }
        impl std::ops::Neg for $t {
            type Output = $t;
            /// The additive inverse of a nimber is itself.
            #[inline]
            fn neg(self) -> $t {
                self
            }
        }
        impl std::ops::Mul for $t {
            type Output = $t;
            /// Nim-product.
            #[inline]
            fn mul(self, rhs: $t) -> $t {
                $t($mul(self.0, rhs.0))
            }
        }
        impl std::ops::Div for $t {
            type Output = $t;
            /// Nim-quotient `self ⊗ rhs⁻¹`.
            ///
            /// # Panics
            /// If `rhs` is zero, like integer division; use `checked_div` to avoid it.
            #[inline]
            fn div(self, rhs: $t) -> $t {
                self.checked_div(rhs).expect("nimber division by zero")
            }
        }
        impl std::ops::AddAssign for $t {
            #[inline]
            fn add_assign(&mut self, rhs: $t) {
                *self = *self + rhs;
            }
        }
        impl std::ops::SubAssign for $t {
            #[inline]
            fn sub_assign(&mut self, rhs: $t) {
                *self = *self - rhs;
            }
        }
        impl std::ops::MulAssign for $t {
            #[inline]
            fn mul_assign(&mut self, rhs: $t) {
                *self = *self * rhs;
            }
        }
        impl std::ops::DivAssign for $t {
            #[inline]
            fn div_assign(&mut self, rhs: $t) {
                *self = *self / rhs;
            }
        }
        impl std::iter::Sum for $t {
            fn sum<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold($t(0), |a, b| a + b)
            }
        }
        impl std::iter::Product for $t {
            fn product<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold($t(1), |a, b| a * b)
            }
        }
        impl From<$u> for $t {
            fn from(x: $u) -> $t {
                $t(x)
            }
        }
        impl From<$t> for $u {
            fn from(x: $t) -> $u {
                x.0
            }
        }
        impl std::fmt::Display for $t {
            /// The nimber as a decimal natural number.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }
        impl std::fmt::LowerHex for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::LowerHex::fmt(&self.0, f)
            }
        }
        impl $t {
            /// The nimber 0.
            pub const ZERO: $t = $t(0);
            /// The nimber 1.
            pub const ONE: $t = $t(1);

            /// `self ⊗ rhs⁻¹`, or `None` when `rhs` is zero.
            #[inline]
            pub fn checked_div(self, rhs: $t) -> Option<$t> {
                rhs.inv().map(|r| self * r)
            }

            /// The least `k` with `self < 2^(2^k)` (the smallest subfield `F_k` holding it); 0 for
            /// 0 and 1.
            #[inline]
            pub fn level(self) -> u32 {
                let bits = <$u>::BITS - self.0.leading_zeros();
                if bits == 0 {
                    0
                } else {
                    bits.next_power_of_two().trailing_zeros()
                }
            }
        }
    };
}

pub(crate) use fixed_nimber_ops;

/// Exposes the generic field algorithms of [`super::algebra`] as methods of a fixed-width nimber
/// type (whose levels, at most 7, are all within the factored group orders, so these never fail).
macro_rules! fixed_nimber_algebra {
    ($t:ident, $u:ty) => {
        impl $t {
            /// `self^e` (nim powers; `x^0 = 1`, also for 0).
            pub fn pow(self, e: u128) -> $t {
                crate::nimber::algebra::pow_u128(&self, e)
            }

            /// The nim-inverse, `None` for 0.
            pub fn inv(self) -> Option<$t> {
                crate::nimber::NimberField::nim_inv(&self)
            }

            /// The Frobenius automorphism `x ↦ x ⊗ x`.
            pub fn frobenius(self) -> $t {
                self.square()
            }

            /// The absolute trace over GF(2) in the smallest field `F_k` holding `self`:
            /// `x ⊕ x² ⊕ x⁴ ⊕ … ⊕ x^(2^(2^k - 1))`, which is 0 or 1.
            pub fn trace(self) -> bool {
                crate::nimber::algebra::trace(&self)
            }

            /// The two roots of `x² ⊕ x = self`; an error when they lie outside this type.
            pub fn solve_x2_plus_x(self) -> crate::error::Result<[$t; 2]> {
                crate::nimber::algebra::solve_x2_plus_x(&self)
            }

            /// All roots of `x² ⊕ b·x ⊕ c = 0`, ascending.
            pub fn solve_quadratic(b: $t, c: $t) -> crate::error::Result<Vec<$t>> {
                crate::nimber::algebra::solve_quadratic(&b, &c)
            }

            /// The multiplicative order of `self` (0 for 0).
            pub fn order(self) -> u128 {
                use num_traits::ToPrimitive;
                crate::nimber::algebra::order(&self)
                    .ok()
                    .and_then(|o| o.to_u128())
                    .expect("the group orders of all levels up to 7 are factored")
            }

            /// Whether `self` generates the multiplicative group of its smallest field `F_k`.
            pub fn is_primitive(self) -> bool {
                crate::nimber::algebra::is_primitive(&self)
                    .expect("the group orders of all levels up to 7 are factored")
            }

            /// Whether `self` lies in the subfield `F_k` of the nimbers below `2^(2^k)`.
            pub fn in_subfield(self, k: u32) -> bool {
                crate::nimber::algebra::in_subfield(&self, k)
            }

            /// The smallest `x >= 0` with `self^x = b`, or `None` if `b` is not a power of `self`.
            pub fn log(self, b: $t) -> Option<u128> {
                use num_traits::ToPrimitive;
                crate::nimber::algebra::log(&self, &b)
                    .expect("discrete logarithms work up to level 7")
                    .map(|x| x.to_u128().expect("a logarithm is below the group order"))
            }
        }
    };
}

pub(crate) use fixed_nimber_algebra;

/// Implements [`super::NimberField`] for a fixed-width nimber type with `square`, `sqrt`,
/// `conjugate_inv` and `level` methods; its largest level is `log2` of its bit width.
macro_rules! fixed_nimber_field {
    ($t:ident, $u:ty) => {
        impl crate::nimber::NimberField for $t {
            const MAX_LEVEL: u32 = <$u>::BITS.trailing_zeros();
            fn zero() -> Self {
                $t(0)
            }
            fn one() -> Self {
                $t(1)
            }
            fn from_u64(x: u64) -> Self {
                $t(x as $u)
            }
            fn is_zero(&self) -> bool {
                self.0 == 0
            }
            fn nim_add(&self, other: &Self) -> Self {
                *self + *other
            }
            fn nim_mul(&self, other: &Self) -> Self {
                *self * *other
            }
            fn nim_square(&self) -> Self {
                self.square()
            }
            fn nim_sqrt(&self) -> Self {
                self.sqrt()
            }
            fn nim_inv(&self) -> Option<Self> {
                $t::conjugate_inv(*self)
            }
            fn level(&self) -> u32 {
                $t::level(*self)
            }
            fn power_of_two(i: u32) -> Option<Self> {
                (i < <$u>::BITS).then(|| $t(1 << i))
            }
        }
    };
}

pub(crate) use fixed_nimber_field;
