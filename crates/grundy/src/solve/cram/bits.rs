//! Words of cells: the engine runs on `u64` for boxes of at most 64 cells (half the work of a
//! `u128` per operation) and on `u128` up to 128.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Bits of column 0 of a board `w` cells wide (bits `0, w, 2w, …`), for `w` in `1..=128`.
pub const FIRST_COL: [u128; 129] = first_cols();

const fn first_cols() -> [u128; 129] {
    let mut t = [0u128; 129];
    let mut w = 1;
    while w <= 128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < 128 {
            m |= 1 << i;
            i += w;
        }
        t[w] = m;
        w += 1;
    }
    t
}

/// A word of cells: `u64` for boxes of at most 64 cells, `u128` up to 128.
pub trait Bits:
    Copy
    + Send
    + Sync
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Bits in the word.
    const BITS: usize;
    /// No cell.
    const ZERO: Self;
    /// The word 3 (bits 0 and 1).
    const THREE: Self;
    /// `self << n`, 0 when `n` is the width or more.
    fn shl(self, n: usize) -> Self;
    /// `self >> n`, 0 when `n` is the width or more.
    fn shr(self, n: usize) -> Self;
    /// `self + o`, modulo the word.
    fn add(self, o: Self) -> Self;
    /// `self · o`, modulo the word.
    fn mul(self, o: Self) -> Self;
    /// Set bits.
    fn ones(self) -> u32;
    /// Trailing zeros.
    fn tz(self) -> usize;
    /// Leading zeros.
    fn lz(self) -> usize;
    /// Bit order reversed.
    fn rev(self) -> Self;
    /// The lowest set bit alone.
    fn lowest(self) -> Self;
    /// Without its lowest set bit.
    fn clear_lowest(self) -> Self;
    /// The lowest `n` bits.
    fn low(n: usize) -> Self;
    /// Bit `i` alone.
    fn bit(i: usize) -> Self;
    /// Zero-extended to 128 bits.
    fn wide(self) -> u128;
    /// The low bits of `x`.
    fn narrow(x: u128) -> Self;
    /// Column 0 of a box `w` wide.
    #[inline]
    fn first_col(w: usize) -> Self {
        Self::narrow(FIRST_COL[w])
    }
    /// The last column of a box `w` wide.
    #[inline]
    fn last_col(w: usize) -> Self {
        Self::first_col(w).shl(w - 1)
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const THREE: Self = 3;
            #[inline]
            fn shl(self, n: usize) -> Self {
                self.checked_shl(n as u32).unwrap_or(0)
            }
            #[inline]
            fn shr(self, n: usize) -> Self {
                self.checked_shr(n as u32).unwrap_or(0)
            }
            #[inline]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn tz(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn lz(self) -> usize {
                self.leading_zeros() as usize
            }
            #[inline]
            fn rev(self) -> Self {
                self.reverse_bits()
            }
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn low(n: usize) -> Self {
                if n >= <Self as Bits>::BITS {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline]
            fn narrow(x: u128) -> Self {
                x as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);
