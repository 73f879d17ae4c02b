//! Squares and square roots of nimbers below `2^64` as GF(2)-linear maps.
//!
//! In characteristic 2, `(a ⊕ b)² = a² ⊕ b²`, so squaring (the Frobenius map) is linear over
//! GF(2): it is the matrix whose column `j` is `2^j ⊗ 2^j`, applied by eight byte-table lookups.
//! Squaring is a bijection of the finite field `F_6`, and its inverse, the square root
//! `x ↦ x^(2^63)`, is the inverse matrix (Gauss-Jordan), tabulated the same way.

use super::basis::{invert, ByteTable, Matrix};
use std::sync::OnceLock;

/// The byte tables of the squaring map and of its inverse.
pub struct Frobenius {
    square: Box<ByteTable>,
    sqrt: Box<ByteTable>,
}

impl Frobenius {
    fn build() -> Frobenius {
        let square: Matrix = std::array::from_fn(|j| super::mul64(1 << j, 1 << j));
        let sqrt = invert(&square).expect("squaring is a bijection of a finite field");
        Frobenius {
            square: ByteTable::new(&square),
            sqrt: ByteTable::new(&sqrt),
        }
    }

    /// The tables, built on first use (64 products and one matrix inversion).
    pub fn get() -> &'static Frobenius {
        static TABLES: OnceLock<Frobenius> = OnceLock::new();
        TABLES.get_or_init(Frobenius::build)
    }
}

/// `a ⊗ a` for `a < 2^64`, by eight table lookups.
#[inline]
pub fn square64(a: u64) -> u64 {
    Frobenius::get().square.apply(a)
}

/// The nim-square root of `a < 2^64` (the `x` with `x ⊗ x = a`), by eight table lookups.
#[inline]
pub fn sqrt64(a: u64) -> u64 {
    Frobenius::get().sqrt.apply(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference;
    use proptest::prelude::*;

    #[test]
    fn published_square_root() {
        // nim-sqrt(123456789) = 98433322 (Library Checker / OEIS-style published value).
        assert_eq!(sqrt64(123456789), 98433322);
        assert_eq!(reference::mul_u64(98433322, 98433322), 123456789);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn square_and_root_agree_with_reference(a: u64) {
            prop_assert_eq!(square64(a), reference::mul_u64(a, a));
            let r = sqrt64(a);
            prop_assert_eq!(reference::mul_u64(r, r), a);
        }
    }
}
