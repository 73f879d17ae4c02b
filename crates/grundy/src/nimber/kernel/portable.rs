//! The portable nim product: logarithm tables over the 2^16 subfield, Karatsuba above it.
//!
//! The nimbers below `2^16` form the field `F_4`, whose multiplicative group is cyclic of order
//! `65535`. With a generator `g`, `a ⊗ b = g^(log a + log b)` for non-zero `a, b`, one addition
//! and three table lookups. Larger nimbers are split in halves over a Fermat 2-power `T`, where
//! `T ⊗ T = T ⊕ h` with `h = T/2`; for `a = ah·T ⊕ al`, `b = bh·T ⊕ bl` (halves below `T`):
//!
//! ```text
//! a ⊗ b = (ah⊗bh ⊕ ah⊗bl ⊕ al⊗bh)·T ⊕ (al⊗bl ⊕ (ah⊗bh)⊗h)
//!       = ((ah⊕al)⊗(bh⊕bl) ⊕ al⊗bl)·T ⊕ (al⊗bl ⊕ (ah⊗bh)⊗h)
//! ```
//!
//! three half-size products (Karatsuba) and one product by the constant `h`. This path needs no
//! special instruction and serves every CPU; it also bootstraps the basis change of
//! [`super::basis`].

use crate::nimber::reference;
use std::sync::OnceLock;

/// The order of the multiplicative group of `F_4` (the nimbers below `2^16`).
const ORDER16: usize = 65535;

/// Logarithm and exponential tables of `F_4` for a generator found at run time.
pub struct LogExp16 {
    /// `log[a]` for `a != 0`: the `e < 65535` with `g^e = a`.
    log: Box<[u32]>,
    /// `exp[e] = g^e` for `e < 2·65535` (so that a sum of two logarithms needs no reduction).
    exp: Box<[u16]>,
    /// `log(2^15)`, the half of the Fermat 2-power `2^16`.
    log_half: u32,
}

impl LogExp16 {
    /// Finds a generator of `F_4^*` and tabulates its powers.
    ///
    /// `x ↦ g ⊗ x` is linear over GF(2), so it is fixed by the images `g ⊗ 2^j` of the 16 bits
    /// (16 slow products); the powers `g^0, g^1, ...` then cost a few xors each. `g` generates the
    /// group exactly when the powers first return to 1 after 65535 steps. The nimbers below 256
    /// form the subfield `F_3`, whose elements have orders dividing 255, so the candidates are
    /// `256, 257, ...` in turn.
    fn build() -> Self {
        let mut exp = vec![0u16; 2 * ORDER16].into_boxed_slice();
        for g in 256u16.. {
            let images: Vec<u16> = (0..16).map(|j| reference::mul_u16(g, 1 << j)).collect();
            let times_g = |x: u16| -> u16 {
                let mut y = 0;
                for (j, &im) in images.iter().enumerate() {
                    if x >> j & 1 == 1 {
                        y ^= im;
                    }
                }
                y
            };
            let mut x = 1u16;
            let mut period = 0;
            loop {
                exp[period] = x;
                x = times_g(x);
                period += 1;
                if x == 1 || period == ORDER16 {
                    break;
                }
            }
            if x == 1 && period == ORDER16 {
                break;
            }
        }
        let mut log = vec![0u32; 1 << 16].into_boxed_slice();
        for e in 0..ORDER16 {
            exp[e + ORDER16] = exp[e];
            log[exp[e] as usize] = e as u32;
        }
        let log_half = log[1 << 15];
        LogExp16 { log, exp, log_half }
    }

    /// The tables, built on first use.
    pub fn get() -> &'static LogExp16 {
        static TABLES: OnceLock<LogExp16> = OnceLock::new();
        TABLES.get_or_init(LogExp16::build)
    }

    /// `a ⊗ b` for `a, b < 2^16`: `g^(log a + log b)`.
    #[inline]
    pub fn mul16(&self, a: u32, b: u32) -> u32 {
        if a == 0 || b == 0 {
            return 0;
        }
        self.exp[(self.log[a as usize] + self.log[b as usize]) as usize] as u32
    }

    /// `a ⊗ 2^15` for `a < 2^16`.
    #[inline]
    fn mul16_half(&self, a: u32) -> u32 {
        if a == 0 {
            return 0;
        }
        self.exp[(self.log[a as usize] + self.log_half) as usize] as u32
    }

    /// `a ⊗ 2^15 ⊗ 2^15` for `a < 2^16`.
    #[inline]
    fn mul16_half2(&self, a: u32) -> u32 {
        if a == 0 {
            return 0;
        }
        let e = (self.log[a as usize] + 2 * self.log_half) as usize;
        self.exp[if e >= 2 * ORDER16 { e - ORDER16 } else { e }] as u32
    }

    /// `a ⊗ b` for `a, b < 2^32`: Karatsuba over `T = 2^16`, `h = 2^15`.
    #[inline]
    pub fn mul32(&self, a: u32, b: u32) -> u32 {
        let (ah, al, bh, bl) = (a >> 16, a & 0xffff, b >> 16, b & 0xffff);
        let low = self.mul16(al, bl);
        let high = self.mul16(ah, bh);
        let mid = self.mul16(ah ^ al, bh ^ bl);
        ((mid ^ low) << 16) | (low ^ self.mul16_half(high))
    }

    /// `a ⊗ 2^31` for `a < 2^32`. `2^31 = T ⊗ h` (`T = 2^16`, `h = 2^15`: distinct Fermat 2-power
    /// parts multiply ordinarily), and with `a = ah·T ⊕ al`,
    /// `a ⊗ T ⊗ h = h⊗(ah⊗(T ⊕ h) ⊕ al·T) = (h⊗(ah ⊕ al))·T ⊕ h⊗h⊗ah`.
    #[inline]
    fn mul32_half(&self, a: u32) -> u32 {
        let (ah, al) = (a >> 16, a & 0xffff);
        (self.mul16_half(ah ^ al) << 16) | self.mul16_half2(ah)
    }

    /// `a ⊗ b` for `a, b < 2^64`: Karatsuba over `T = 2^32`, `h = 2^31`.
    #[inline]
    pub fn mul64(&self, a: u64, b: u64) -> u64 {
        let (ah, al) = ((a >> 32) as u32, a as u32);
        let (bh, bl) = ((b >> 32) as u32, b as u32);
        let low = self.mul32(al, bl);
        let high = self.mul32(ah, bh);
        let mid = self.mul32(ah ^ al, bh ^ bl);
        (((mid ^ low) as u64) << 32) | (low ^ self.mul32_half(high)) as u64
    }

    /// `a ⊗ 2^63` for `a < 2^64`: as `mul32_half` one level up, `2^63 = 2^32 ⊗ 2^31`,
    /// `a ⊗ 2^63 = (H⊗(ah ⊕ al))·2^32 ⊕ H⊗H⊗ah` with `H = 2^31`.
    #[inline]
    pub fn mul64_half(&self, a: u64) -> u64 {
        let (ah, al) = ((a >> 32) as u32, a as u32);
        let hi = self.mul32_half(ah ^ al);
        let lo = self.mul32_half(self.mul32_half(ah));
        ((hi as u64) << 32) | lo as u64
    }

    /// `a ⊗ b` for `a, b < 2^128`: Karatsuba over `T = 2^64`, `h = 2^63`.
    #[inline]
    pub fn mul128(&self, a: u128, b: u128) -> u128 {
        let (ah, al) = ((a >> 64) as u64, a as u64);
        let (bh, bl) = ((b >> 64) as u64, b as u64);
        let low = self.mul64(al, bl);
        let high = self.mul64(ah, bh);
        let mid = self.mul64(ah ^ al, bh ^ bl);
        (((mid ^ low) as u128) << 64) | (low ^ self.mul64_half(high)) as u128
    }
}

impl LogExp16 {
    /// The inverse of `a != 0` below `2^16`: `g^(65535 - log a)`.
    #[inline]
    fn inv16(&self, a: u32) -> u32 {
        self.exp[ORDER16 - self.log[a as usize] as usize] as u32
    }

    /// The inverse of `a != 0` below `2^32` by the conjugate (see [`LogExp16::inv64`]).
    #[inline]
    fn inv32(&self, a: u32) -> u32 {
        let (ah, al) = (a >> 16, a & 0xffff);
        let norm = self.mul16_half(self.mul16(ah, ah)) ^ self.mul16(ah, al) ^ self.mul16(al, al);
        let n = self.inv16(norm);
        (self.mul16(ah, n) << 16) | self.mul16(ah ^ al, n)
    }

    /// The inverse of `a != 0` below `2^64`, by the conjugate over the subfield below `2^32`.
    ///
    /// With `T = 2^32`, `h = 2^31`, `a = ah·T ⊕ al`: the Frobenius power `x ↦ x^(2^32)` fixes the
    /// subfield and sends `T` to the other root `T ⊕ 1` of `X² ⊕ X ⊕ h`, so the conjugate is
    /// `ā = ah·T ⊕ (ah ⊕ al)`, and the norm `N = a⊗ā = ah²⊗h ⊕ ah⊗al ⊕ al²` (the `T` terms
    /// cancel) lies in the subfield. Then `a⁻¹ = ā⊗N⁻¹ = (ah⊗N⁻¹)·T ⊕ (ah ⊕ al)⊗N⁻¹`, with `N⁻¹`
    /// by the same step one level down, and `g^(65535 - log x)` at the bottom.
    #[inline]
    pub fn inv64(&self, a: u64) -> u64 {
        let (ah, al) = ((a >> 32) as u32, a as u32);
        let norm = self.mul32_half(self.mul32(ah, ah)) ^ self.mul32(ah, al) ^ self.mul32(al, al);
        let n = self.inv32(norm);
        ((self.mul32(ah, n) as u64) << 32) | self.mul32(ah ^ al, n) as u64
    }
}

/// The nim-inverse of `a` below `2^64` by the conjugate recursion and logarithm tables; `None`
/// for 0.
pub fn inv64(a: u64) -> Option<u64> {
    (a != 0).then(|| LogExp16::get().inv64(a))
}

/// `a ⊗ b` below `2^64` by logarithm tables and Karatsuba (any CPU).
pub fn mul64(a: u64, b: u64) -> u64 {
    LogExp16::get().mul64(a, b)
}

/// `a ⊗ b` below `2^128` by logarithm tables and Karatsuba (any CPU).
pub fn mul128(a: u128, b: u128) -> u128 {
    LogExp16::get().mul128(a, b)
}
