//! [`NimBig`]: nimbers of any size, with products by the recursive Karatsuba formula.
//!
//! # Representation
//! A nimber is a little-endian vector of 64-bit words with no trailing zero word. An element of
//! the field `F_k` (`k ≥ 6`) occupies `2^(k-6)` words once padded; every recursive routine below
//! takes slices whose length is a power of two, the low half holding `al` and the high half `ah`
//! in `a = ah·T ⊕ al` with `T = 2^(2^(k-1))`. The base case is one word, the field `F_6`.
//!
//! # The identities (with `T² = T ⊕ h`, `h = T/2 = 2^(2^(k-1) - 1)`, all halves below `T`)
//! - product: `(ah T ⊕ al)(bh T ⊕ bl) = (ah bh ⊕ ah bl ⊕ al bh)·T ⊕ (al bl ⊕ h·ah bh)`. With
//!   Karatsuba's `p0 = al bl`, `p2 = ah bh`, `p1 = (ah ⊕ al)(bh ⊕ bl) = p2 ⊕ ah bl ⊕ al bh ⊕ p0`:
//!   high half `p1 ⊕ p0`, low half `p0 ⊕ h·p2`: three half-size products and one product by `h`.
//! - product by `h` ("the half"): on `F_k`, `h_k = 2^(2^(k-1) - 1) = S·h'` where `S = 2^(2^(k-2))`
//!   and `h' = S/2` (exponents add: `2^(k-2) + 2^(k-2) - 1`; distinct Fermat 2-powers multiply
//!   as integers). For `x = xh S ⊕ xl`: `S·x = (xh ⊕ xl)·S ⊕ h'·xh`, so
//!   `h·x = (h'xh ⊕ h'xl)·S ⊕ h'(h'xh)`: three half-size products by `h'`. One word: `x ⊗ 2^63`.
//! - square (Frobenius, additive): `(ah T ⊕ al)² = ah²·T ⊕ (h·ah² ⊕ al²)`.
//! - square root (its inverse): `√a = √ah·T ⊕ √(al ⊕ h·ah)`, since squaring the right side gives
//!   `ah T ⊕ h ah ⊕ al ⊕ h ah`.
//! - inverse (conjugate over `F_(k-1)`): the Frobenius `x ↦ x^(2^(2^(k-1)))` fixes `F_(k-1)` and
//!   sends `T` to the other root `T ⊕ 1` of `X² ⊕ X ⊕ h`, so `conj(a) = ah T ⊕ (ah ⊕ al)`; the
//!   norm `N = a·conj(a) = h·ah² ⊕ ah al ⊕ al²` lies in `F_(k-1)`, and `a⁻¹ = conj(a)·N⁻¹`:
//!   one half-size inverse and a few half-size products, so an inverse costs about a product.
//! - `x² ⊕ x = a`: with `x = xh T ⊕ xl`, `x² ⊕ x = (xh² ⊕ xh)·T ⊕ (h·xh² ⊕ xl² ⊕ xl)`, so solve
//!   `xh² ⊕ xh = ah`, then `xl² ⊕ xl = al ⊕ h·xh²`; of the two choices `xh`, `xh ⊕ 1` exactly
//!   one makes the second solvable (they change its right side by `h`, of trace 1).
//! - trace: `Tr_k(ah T ⊕ al) = Tr_(k-1)(ah·Tr_{F_k/F_(k-1)}(T)) = Tr_(k-1)(ah)` (the relative
//!   trace of `T` is `T ⊕ (T ⊕ 1) = 1`, of `al` is `al ⊕ al = 0`), hence by induction the trace
//!   of `a` in `F_k` is bit `2^k - 1` of `a`.

use super::algebra;
use super::field::NimberField;
use super::kernel::frobenius::{sqrt64, square64};
use crate::error::{Error, Result};
use num_bigint::BigUint;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Sub};

/// The product of two one-word nimbers (the field `F_6`), by the fast kernel.
#[inline]
fn wmul(a: u64, b: u64) -> u64 {
    super::kernel::mul64(a, b)
}

/// The product of two two-word nimbers (the field `F_7`), by the fast kernel.
#[inline]
fn dmul(a: &[u64], b: &[u64], out: &mut [u64]) {
    let p = super::kernel::mul128(
        a[0] as u128 | (a[1] as u128) << 64,
        b[0] as u128 | (b[1] as u128) << 64,
    );
    out[0] = p as u64;
    out[1] = (p >> 64) as u64;
}

/// `out = a ⊗ b` for one- or two-word slices, by the fast kernels.
#[inline]
fn mul_base(a: &[u64], b: &[u64], out: &mut [u64]) {
    if a.len() == 1 {
        out[0] = wmul(a[0], b[0]);
    } else {
        dmul(a, b, out);
    }
}

/// The one-word nimber `2^63`, the `h` of `F_7 = F_6[2^64]`.
const H_WORD: u64 = 1 << 63;

/// The inverse of a nonzero word by Fermat in `F_6` (see [`algebra::inv_by_fermat`]), with
/// the squarings by the kernel's Frobenius tables.
fn winv(a: u64) -> u64 {
    // f = a^(2^m - 1), Itoh-Tsujii chain up to m = 63, then square.
    let mut f = a;
    let mut m = 1u32;
    for _ in 1..6 {
        let mut g = f;
        for _ in 0..m {
            g = square64(g);
        }
        f = wmul(g, f);
        m *= 2;
        f = wmul(square64(f), a);
        m += 1;
    }
    debug_assert_eq!(m, 63);
    square64(f)
}

/// The square root of a word (the inverse Frobenius `a^(2^63)` in `F_6`), by the kernel's
/// tables.
fn wsqrt(a: u64) -> u64 {
    sqrt64(a)
}

/// A root of `x² ⊕ x = a` for `a` of the given level `≤ 6`, by the halving recursion of the
/// module documentation; `None` when the trace of `a` in `F_level` is 1.
fn wartin_schreier(a: u64, level: u32) -> Option<u64> {
    if level == 0 {
        // In GF(2), x² ⊕ x = 0 for both x.
        return (a == 0).then_some(0);
    }
    let half = 1u32 << (level - 1);
    let mask = (1u64 << half) - 1;
    let h = 1u64 << (half - 1);
    let (ah, al) = (a >> half, a & mask);
    let mut xh = wartin_schreier(ah, level - 1)?;
    let mut c = al ^ wmul(h, wmul(xh, xh));
    let xl = match wartin_schreier(c, level - 1) {
        Some(xl) => xl,
        None => {
            xh ^= 1;
            c ^= h;
            wartin_schreier(c, level - 1)?
        }
    };
    Some((xh << half) | xl)
}

/// `out = a ⊗ b` for slices of equal power-of-two length `n`; `scratch.len() ≥ 2n`.
fn mul_rec(a: &[u64], b: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let n = a.len();
    if n <= 2 {
        mul_base(a, b, out);
        return;
    }
    let h = n / 2;
    let (al, ah) = a.split_at(h);
    let (bl, bh) = b.split_at(h);
    let (out_lo, out_hi) = out.split_at_mut(h);
    // p0 = al·bl in the low half of the output.
    mul_rec(al, bl, out_lo, &mut scratch[..2 * h]);
    // p1 = (ah ⊕ al)(bh ⊕ bl) in the high half.
    {
        let (sa, rest) = scratch.split_at_mut(h);
        let (sb, rest) = rest.split_at_mut(h);
        for i in 0..h {
            sa[i] = al[i] ^ ah[i];
            sb[i] = bl[i] ^ bh[i];
        }
        mul_rec(sa, sb, out_hi, rest);
    }
    // p2 = ah·bh, then h·p2.
    let (p2, rest) = scratch.split_at_mut(h);
    mul_rec(ah, bh, p2, rest);
    let (hp2, rest) = rest.split_at_mut(h);
    mul_half_rec(p2, hp2, rest);
    for i in 0..h {
        out_hi[i] ^= out_lo[i];
        out_lo[i] ^= hp2[i];
    }
}

/// `out = h ⊗ x` where `h = 2^(64n - 1)` is the top bit of the `n`-word field; `scratch.len() ≥ n`.
fn mul_half_rec(x: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let n = x.len();
    if n <= 2 {
        mul_base(x, &[0, H_WORD][2 - n..], out);
        return;
    }
    let h = n / 2;
    let (xl, xh) = x.split_at(h);
    let (out_lo, out_hi) = out.split_at_mut(h);
    mul_half_rec(xh, out_hi, scratch); // u = h'·xh
    mul_half_rec(xl, out_lo, scratch); // v = h'·xl
    let (w, rest) = scratch.split_at_mut(h);
    mul_half_rec(out_hi, w, rest); // w = h'·u
    xor_into(out_hi, out_lo);
    out_lo.copy_from_slice(w);
}

/// `out = x²` for a slice of power-of-two length `n`; `scratch.len() ≥ n`.
fn square_rec(x: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let n = x.len();
    if n == 1 {
        out[0] = square64(x[0]);
        return;
    }
    let h = n / 2;
    let (xl, xh) = x.split_at(h);
    let (out_lo, out_hi) = out.split_at_mut(h);
    square_rec(xh, out_hi, scratch);
    square_rec(xl, out_lo, scratch);
    let (w, rest) = scratch.split_at_mut(h);
    mul_half_rec(out_hi, w, rest);
    for i in 0..h {
        out_lo[i] ^= w[i];
    }
}

fn mul_vec(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0; a.len()];
    let mut scratch = vec![0; 2 * a.len()];
    mul_rec(a, b, &mut out, &mut scratch);
    out
}

fn mul_half_vec(x: &[u64]) -> Vec<u64> {
    let mut out = vec![0; x.len()];
    let mut scratch = vec![0; x.len()];
    mul_half_rec(x, &mut out, &mut scratch);
    out
}

fn square_vec(x: &[u64]) -> Vec<u64> {
    let mut out = vec![0; x.len()];
    let mut scratch = vec![0; x.len()];
    square_rec(x, &mut out, &mut scratch);
    out
}

fn xor_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// The inverse of a nonzero element of the `n`-word field, by the conjugate recursion.
fn inv_rec(x: &[u64]) -> Vec<u64> {
    let n = x.len();
    if n == 1 {
        return vec![winv(x[0])];
    }
    let h = n / 2;
    let (al, ah) = x.split_at(h);
    let mut norm = mul_half_vec(&square_vec(ah));
    xor_into(&mut norm, &mul_vec(ah, al));
    xor_into(&mut norm, &square_vec(al));
    let norm_inv = inv_rec(&norm);
    let mut sum = al.to_vec();
    xor_into(&mut sum, ah);
    let mut out = mul_vec(&sum, &norm_inv);
    out.extend_from_slice(&mul_vec(ah, &norm_inv));
    out
}

/// The square root in the `n`-word field, by the halving recursion.
fn sqrt_rec(x: &[u64]) -> Vec<u64> {
    let n = x.len();
    if n == 1 {
        return vec![wsqrt(x[0])];
    }
    let h = n / 2;
    let (al, ah) = x.split_at(h);
    let mut low = mul_half_vec(ah);
    xor_into(&mut low, al);
    let mut out = sqrt_rec(&low);
    out.extend_from_slice(&sqrt_rec(ah));
    out
}

/// A root of `x² ⊕ x = a` in the `n`-word field, or `None` when the trace of `a` there is 1.
fn artin_schreier_rec(a: &[u64]) -> Option<Vec<u64>> {
    let n = a.len();
    if n == 1 {
        return wartin_schreier(a[0], 6).map(|x| vec![x]);
    }
    let h = n / 2;
    let (al, ah) = a.split_at(h);
    let mut xh = artin_schreier_rec(ah)?;
    let mut c = mul_half_vec(&square_vec(&xh));
    xor_into(&mut c, al);
    let xl = match artin_schreier_rec(&c) {
        Some(xl) => xl,
        None => {
            xh[0] ^= 1;
            c[h - 1] ^= H_WORD;
            artin_schreier_rec(&c)?
        }
    };
    let mut out = xl;
    out.extend_from_slice(&xh);
    Some(out)
}

/// The number of words of an element of `F_k` once padded: `2^(k-6)`, at least 1.
fn words_for_level(k: u32) -> usize {
    1usize << k.saturating_sub(6)
}

/// A nimber of any size: an element of the field of nimbers below `2^(2^k)` for some `k`.
///
/// `+`, `-` (both xor), `*`, `/` are the field operations (`/` panics on a zero divisor like
/// integer division; use [`NimBig::checked_div`]). Ordering is the ordering of the integers.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct NimBig {
    /// Little-endian words, no trailing zero word.
    words: Vec<u64>,
}

impl NimBig {
    /// The nimber with these little-endian 64-bit words.
    pub fn from_words(mut words: Vec<u64>) -> Self {
        while words.last() == Some(&0) {
            words.pop();
        }
        NimBig { words }
    }

    /// The little-endian 64-bit words (no trailing zero word; empty for 0).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The nimber equal to the integer `x`.
    pub fn from_u128(x: u128) -> Self {
        Self::from_words(vec![x as u64, (x >> 64) as u64])
    }

    /// The integer value if it is below `2^64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.words.len() {
            0 => Some(0),
            1 => Some(self.words[0]),
            _ => None,
        }
    }

    /// The integer value if it is below `2^128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self.words.len() {
            0..=2 => Some(
                self.words
                    .iter()
                    .rev()
                    .fold(0u128, |acc, &w| (acc << 64) | w as u128),
            ),
            _ => None,
        }
    }

    /// The nimber equal to the integer `x`.
    pub fn from_biguint(x: &BigUint) -> Self {
        Self::from_words(x.to_u64_digits())
    }

    /// The integer value.
    pub fn to_biguint(&self) -> BigUint {
        let mut x = BigUint::default();
        for &w in self.words.iter().rev() {
            x = (x << 64u32) | BigUint::from(w);
        }
        x
    }

    /// The number of binary digits of the integer (0 for 0).
    pub fn bits(&self) -> u64 {
        match self.words.last() {
            None => 0,
            Some(&top) => 64 * (self.words.len() as u64 - 1) + 64 - top.leading_zeros() as u64,
        }
    }

    /// Bit `i` of the integer.
    pub fn bit(&self, i: u64) -> bool {
        self.words
            .get((i / 64) as usize)
            .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
    }

    /// The nimber `2^i`.
    pub fn pow2(i: u64) -> Self {
        let mut words = vec![0u64; (i / 64) as usize + 1];
        words[(i / 64) as usize] = 1 << (i % 64);
        NimBig { words }
    }

    /// The Fermat 2-power `2^(2^k)`, which generates `F_(k+1)` over `F_k`.
    pub fn fermat_power(k: u32) -> Self {
        Self::pow2(1u64 << k)
    }

    /// The words padded with zeros to `n`.
    fn padded(&self, n: usize) -> Vec<u64> {
        let mut w = self.words.clone();
        w.resize(n, 0);
        w
    }

    /// The nim-square `self ⊗ self` (Frobenius: `(ah T ⊕ al)² = ah² T ⊕ h ah² ⊕ al²`).
    pub fn square(&self) -> Self {
        let n = words_for_level(self.level());
        Self::from_words(square_vec(&self.padded(n)))
    }

    /// The nim-inverse by the conjugate recursion (module documentation), `None` for 0.
    pub fn inv(&self) -> Option<Self> {
        if self.words.is_empty() {
            return None;
        }
        let n = words_for_level(self.level());
        Some(Self::from_words(inv_rec(&self.padded(n))))
    }

    /// `self ⊗ other⁻¹`, `None` when `other` is 0.
    pub fn checked_div(&self, other: &Self) -> Option<Self> {
        other.inv().map(|i| self * &i)
    }

    /// The nim-square root by the halving recursion (module documentation).
    pub fn sqrt(&self) -> Self {
        if self.words.is_empty() {
            return Self::default();
        }
        let n = words_for_level(self.level());
        Self::from_words(sqrt_rec(&self.padded(n)))
    }

    /// The trace over `GF(2)` in the element's own field `F_k`: bit `2^k - 1` (module
    /// documentation; [`algebra::trace_in`] is the definition it is tested against).
    pub fn trace(&self) -> bool {
        self.bit((1u64 << self.level()) - 1)
    }

    /// `self^e` by square-and-multiply ([`algebra::pow`]), checking the work first: the exponent
    /// is reduced modulo the group order, and at most about `2^28` word products are allowed
    /// (`Error::Limit` otherwise; this admits any exponent in fields up to `2^16384`).
    pub fn checked_pow(&self, e: &BigUint) -> Result<Self> {
        let k = self.level();
        let bits = if self.is_zero() || e.bits() <= 1u64 << k.min(40) {
            e.bits()
        } else {
            1u64 << k
        };
        // A square or product of n words costs about 3^log2(n) word products, up to a small
        // factor for the products by h.
        let cost = bits.saturating_mul(2 * 3u64.saturating_pow(k.saturating_sub(6)));
        if cost > 1 << 28 {
            return Err(Error::limit(crate::LimitKind::Fixed,
                format!(
                    "a power of a nimber of {} bits with a {bits}-bit exponent needs about {cost} \
                     word products, above the limit of 2^28",
                    self.bits()
                ),
                "use a smaller exponent (exponents are reduced modulo 2^(2^k)-1) or a smaller nimber",
            ));
        }
        Ok(algebra::pow(self, e))
    }

    /// All roots of `x² ⊕ b x ⊕ c = 0` in the nimbers, ascending ([`algebra::solve_quadratic`]).
    pub fn solve_quadratic(b: &Self, c: &Self) -> Result<Vec<Self>> {
        algebra::solve_quadratic(b, c)
    }
}

impl NimberField for NimBig {
    const MAX_LEVEL: u32 = u32::MAX;

    fn zero() -> Self {
        Self::default()
    }

    fn one() -> Self {
        NimBig { words: vec![1] }
    }

    fn from_u64(x: u64) -> Self {
        Self::from_words(vec![x])
    }

    fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    fn nim_add(&self, other: &Self) -> Self {
        let (long, short) = if self.words.len() >= other.words.len() {
            (self, other)
        } else {
            (other, self)
        };
        let mut w = long.words.clone();
        xor_into(&mut w, &short.words);
        Self::from_words(w)
    }

    fn nim_mul(&self, other: &Self) -> Self {
        if self.is_zero() || other.is_zero() {
            return Self::default();
        }
        let n = words_for_level(self.level().max(other.level()));
        if n == 1 {
            return Self::from_words(vec![wmul(self.words[0], other.words[0])]);
        }
        if n == 2 {
            let (a, b) = (self.to_u128().unwrap_or(0), other.to_u128().unwrap_or(0));
            return Self::from_u128(super::kernel::mul128(a, b));
        }
        // One buffer: a, b, then the product, then 2n words of scratch.
        let mut buf = vec![0u64; 5 * n];
        buf[..self.words.len()].copy_from_slice(&self.words);
        buf[n..n + other.words.len()].copy_from_slice(&other.words);
        let (ab, rest) = buf.split_at_mut(2 * n);
        let (out, scratch) = rest.split_at_mut(n);
        mul_rec(&ab[..n], &ab[n..], out, scratch);
        Self::from_words(out.to_vec())
    }

    fn nim_square(&self) -> Self {
        self.square()
    }

    fn level(&self) -> u32 {
        let b = self.bits();
        if b <= 1 {
            0
        } else {
            64 - (b - 1).leading_zeros()
        }
    }

    fn power_of_two(i: u32) -> Option<Self> {
        Some(Self::pow2(i as u64))
    }

    fn nim_inv(&self) -> Option<Self> {
        self.inv()
    }

    fn nim_sqrt(&self) -> Self {
        self.sqrt()
    }

    fn nim_artin_schreier(&self) -> Option<Self> {
        let k = self.level();
        if k < 6 {
            let a = self.to_u64().unwrap_or(0);
            return wartin_schreier(a, k).map(Self::from_u64);
        }
        artin_schreier_rec(&self.padded(words_for_level(k))).map(Self::from_words)
    }
}

impl Ord for NimBig {
    fn cmp(&self, other: &Self) -> Ordering {
        self.words
            .len()
            .cmp(&other.words.len())
            .then_with(|| self.words.iter().rev().cmp(other.words.iter().rev()))
    }
}

impl PartialOrd for NimBig {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl From<u64> for NimBig {
    fn from(x: u64) -> Self {
        Self::from_u64(x)
    }
}

impl From<u128> for NimBig {
    fn from(x: u128) -> Self {
        Self::from_u128(x)
    }
}

impl From<super::Nim64> for NimBig {
    fn from(x: super::Nim64) -> Self {
        Self::from_u64(x.0)
    }
}

impl From<super::Nim128> for NimBig {
    fn from(x: super::Nim128) -> Self {
        Self::from_u128(x.0)
    }
}

impl TryFrom<&NimBig> for super::Nim64 {
    type Error = Error;
    /// The value as a [`super::Nim64`]; `Error::Invalid` if it is `2^64` or more.
    fn try_from(x: &NimBig) -> Result<Self> {
        x.to_u64()
            .map(super::Nim64)
            .ok_or_else(|| Error::invalid(format!("{x} does not fit in 64 bits")))
    }
}

impl TryFrom<&NimBig> for super::Nim128 {
    type Error = Error;
    /// The value as a [`super::Nim128`]; `Error::Invalid` if it is `2^128` or more.
    fn try_from(x: &NimBig) -> Result<Self> {
        x.to_u128()
            .map(super::Nim128)
            .ok_or_else(|| Error::invalid(format!("{x} does not fit in 128 bits")))
    }
}

impl From<&BigUint> for NimBig {
    fn from(x: &BigUint) -> Self {
        Self::from_biguint(x)
    }
}

impl From<&NimBig> for BigUint {
    fn from(x: &NimBig) -> Self {
        x.to_biguint()
    }
}

impl fmt::Display for NimBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_u128() {
            Some(x) => write!(f, "{x}"),
            None => write!(f, "{}", self.to_biguint()),
        }
    }
}

impl fmt::Debug for NimBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NimBig({self:#x})")
    }
}

impl fmt::LowerHex for NimBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "0x")?;
        }
        write!(f, "{:x}", self.to_biguint())
    }
}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $body:expr) => {
        impl $trait<&NimBig> for &NimBig {
            type Output = NimBig;
            fn $method(self, rhs: &NimBig) -> NimBig {
                let f: fn(&NimBig, &NimBig) -> NimBig = $body;
                f(self, rhs)
            }
        }
        impl $trait<NimBig> for NimBig {
            type Output = NimBig;
            fn $method(self, rhs: NimBig) -> NimBig {
                (&self).$method(&rhs)
            }
        }
    };
}

binary_op!(Add, add, |a, b| a.nim_add(b));
binary_op!(Sub, sub, |a, b| a.nim_add(b));
binary_op!(Mul, mul, |a, b| a.nim_mul(b));
binary_op!(Div, div, |a, b| a
    .checked_div(b)
    .expect("nimber division by zero"));

impl AddAssign<&NimBig> for NimBig {
    fn add_assign(&mut self, rhs: &NimBig) {
        *self = self.nim_add(rhs);
    }
}

impl MulAssign<&NimBig> for NimBig {
    fn mul_assign(&mut self, rhs: &NimBig) {
        *self = self.nim_mul(rhs);
    }
}

testing_pub! {
    /// The schoolbook recursion with four half-size products, `(ah bh ⊕ ah bl ⊕ al bh)·T ⊕ (al bl ⊕
    /// h·ah bh)`, kept as the naive method the Karatsuba product is measured and tested against.
    pub fn mul_schoolbook(a: &NimBig, b: &NimBig) -> NimBig {
        fn rec(a: &[u64], b: &[u64]) -> Vec<u64> {
            let n = a.len();
            if n <= 2 {
                let mut out = vec![0; n];
                mul_base(a, b, &mut out);
                return out;
            }
            let h = n / 2;
            let (al, ah) = a.split_at(h);
            let (bl, bh) = b.split_at(h);
            let hh = rec(ah, bh);
            let mut high = rec(ah, bl);
            xor_into(&mut high, &rec(al, bh));
            xor_into(&mut high, &hh);
            let mut low = rec(al, bl);
            xor_into(&mut low, &mul_half_vec(&hh));
            low.extend_from_slice(&high);
            low
        }
        let n = words_for_level(a.level().max(b.level()));
        NimBig::from_words(rec(&a.padded(n), &b.padded(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference;
    use proptest::prelude::*;

    fn big(words: Vec<u64>) -> NimBig {
        NimBig::from_words(words)
    }

    #[test]
    fn published_values() {
        // 8 ⊗ n for n = 1..16 (Conway, On Numbers and Games).
        let expect = [8u64, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128];
        for (n, &e) in (1..=16u64).zip(&expect) {
            assert_eq!(NimBig::from(8u64) * NimBig::from(n), NimBig::from(e));
        }
        // The nim square root of 123456789 is 98433322.
        assert_eq!(NimBig::from(123456789u64).sqrt(), NimBig::from(98433322u64));
        assert_eq!(
            NimBig::from(98433322u64).square(),
            NimBig::from(123456789u64)
        );
    }

    #[test]
    fn fermat_powers_square_to_three_halves() {
        for k in 0..=10u32 {
            let f = NimBig::fermat_power(k);
            let expect = NimBig::from_biguint(&(f.to_biguint() * 3u32 / 2u32));
            assert_eq!(&f * &f, expect, "2^(2^{k}) squared");
            assert_eq!(f.square(), expect);
        }
        // Distinct Fermat 2-powers multiply as integers: 2^64 ⊗ 2^128 ⊗ 2^512 = 2^704.
        let p = NimBig::fermat_power(6) * NimBig::fermat_power(7) * NimBig::fermat_power(9);
        assert_eq!(p, NimBig::pow2(704));
    }

    #[test]
    fn trace_is_the_top_bit_exhaustively_in_f3() {
        for a in 0..256u64 {
            let x = NimBig::from(a);
            let k = x.level();
            assert_eq!(Some(x.trace()), algebra::trace_in(&x, k), "{a}");
        }
    }

    #[test]
    fn conversions_and_text() {
        let x: NimBig = "0x1234567890abcdef1234567890abcdef1234".parse().unwrap();
        assert_eq!(format!("{x:#x}"), "0x1234567890abcdef1234567890abcdef1234");
        let y: NimBig = x.to_string().parse().unwrap();
        assert_eq!(x, y);
        assert_eq!(NimBig::from_biguint(&x.to_biguint()), x);
        assert_eq!(NimBig::from(u128::MAX).to_u128(), Some(u128::MAX));
        assert_eq!(x.to_u128(), None);
        assert_eq!(NimBig::from(7u64).to_u64(), Some(7));
        assert!("12z".parse::<NimBig>().is_err());
        let n = crate::nimber::Nim128(u128::MAX - 5);
        assert_eq!(
            crate::nimber::Nim128::try_from(&NimBig::from(n)).unwrap(),
            n
        );
        assert_eq!(NimBig::from(crate::nimber::Nim64(9)), NimBig::from(9u64));
        assert_eq!(
            crate::nimber::Nim64::try_from(&NimBig::from(9u64))
                .unwrap()
                .0,
            9
        );
        assert!(crate::nimber::Nim64::try_from(&NimBig::pow2(64)).is_err());
        assert!(crate::nimber::Nim128::try_from(&x).is_err());
        assert!(NimBig::from(3u64) < NimBig::pow2(64));
        assert_eq!(NimBig::from(5u64) + NimBig::from(3u64), NimBig::from(6u64));
        assert_eq!(NimBig::from(5u64) - NimBig::from(3u64), NimBig::from(6u64));
        assert_eq!(
            NimBig::from(6u64) / NimBig::from(2u64) * NimBig::from(2u64),
            NimBig::from(6u64)
        );
        assert_eq!(NimBig::from(6u64).checked_div(&NimBig::zero()), None);
        assert_eq!(NimBig::zero().inv(), None);
        assert_eq!(NimBig::zero().level(), 0);
        assert_eq!(NimBig::one().level(), 0);
        assert_eq!(NimBig::from(2u64).level(), 1);
        assert_eq!(NimBig::pow2(64).level(), 7);
        assert_eq!(NimBig::pow2(63).level(), 6);
    }

    #[test]
    fn pow_limit_is_enforced() {
        let x = NimBig::pow2(1 << 20);
        let e = BigUint::from(u128::MAX);
        assert!(matches!(x.checked_pow(&e), Err(Error::Limit(_))));
        assert_eq!(x.checked_pow(&BigUint::from(2u32)).unwrap(), x.square());
    }

    fn words(n: usize) -> impl Strategy<Value = Vec<u64>> {
        proptest::collection::vec(any::<u64>(), n)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn products_below_2_128_match_the_reference(a: u128, b: u128) {
            prop_assert_eq!(
                NimBig::from(a) * NimBig::from(b),
                NimBig::from(reference::mul_u128(a, b))
            );
            prop_assert_eq!(NimBig::from(a).square(), NimBig::from(reference::mul_u128(a, a)));
        }

        #[test]
        fn karatsuba_matches_schoolbook(n in prop::sample::select(vec![4usize, 8, 16]), seed: u64) {
            let mut r = seed;
            let mut next = || { r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); r ^ (r >> 29) };
            let a = big((0..n).map(|_| next()).collect());
            let b = big((0..n).map(|_| next()).collect());
            prop_assert_eq!(&a * &b, mul_schoolbook(&a, &b));
            prop_assert_eq!(a.square(), mul_schoolbook(&a, &a));
        }

        #[test]
        fn field_axioms_256(a in words(4), b in words(4), c in words(4)) {
            axioms(big(a), big(b), big(c))?;
        }

        #[test]
        fn field_axioms_512(a in words(8), b in words(8), c in words(8)) {
            axioms(big(a), big(b), big(c))?;
        }

        #[test]
        fn field_axioms_1024(a in words(16), b in words(16), c in words(16)) {
            axioms(big(a), big(b), big(c))?;
        }

        #[test]
        fn mixed_sizes(a in words(1), b in words(8)) {
            let (a, b) = (big(a), big(b));
            prop_assert_eq!(&a * &b, &b * &a);
            prop_assert_eq!(&(&a * &b) / &b, a);
        }

        #[test]
        fn artin_schreier_agrees_with_trace_formula(a in words(2)) {
            let a = big(a);
            let fast = a.nim_artin_schreier();
            prop_assert_eq!(fast.is_none(), a.trace());
            if let Some(x) = &fast {
                prop_assert_eq!(&x.square() + x, a.clone());
            }
            let slow = algebra::artin_schreier_by_trace_formula(&a);
            prop_assert_eq!(slow.is_none(), a.trace());
            if let (Some(x), Some(y)) = (fast, slow) {
                prop_assert!(x == y || x == &y + &NimBig::one());
            }
        }

        #[test]
        fn artin_schreier_large(a in words(16)) {
            let a = big(a);
            match a.nim_artin_schreier() {
                Some(x) => prop_assert_eq!(&x.square() + &x, a),
                None => prop_assert!(a.trace()),
            }
        }
    }

    fn axioms(a: NimBig, b: NimBig, c: NimBig) -> Result<(), TestCaseError> {
        prop_assert_eq!(&a * &b, &b * &a);
        prop_assert_eq!(&(&a * &b) * &c, &a * &(&b * &c));
        prop_assert_eq!(&a * &(&b + &c), &(&a * &b) + &(&a * &c));
        prop_assert_eq!(&a * &NimBig::one(), a.clone());
        prop_assert_eq!(a.square(), &a * &a);
        prop_assert_eq!(a.sqrt().square(), a.clone());
        if !a.is_zero() {
            let i = a.inv().unwrap();
            prop_assert_eq!(&a * &i, NimBig::one());
        }
        // The trace closed form against the definition, in a large field.
        let k = a.level();
        if k <= 10 {
            prop_assert_eq!(Some(a.trace()), algebra::trace_in(&a, k));
        }
        Ok(())
    }
}
