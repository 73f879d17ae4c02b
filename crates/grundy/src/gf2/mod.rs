//! Polynomials over GF(2) and the finite fields `GF(2)[z]/(P)` they give: the ground arithmetic
//! under the nim field (the carry-less product of the nimber kernels, Lenstra's computation of
//! the excesses in [`crate::ordinal::excess`]). Products of very long operands go to the
//! additive Fourier transform of [`fft`].
//!
//! A polynomial is a little-endian slice of 64-bit words, bit `i` the coefficient of `z^i`.
//! Addition is xor. The product rests on the carry-less product of two words (`PCLMULQDQ` on
//! x86-64 when the processor has it, detected at run time; a shift-xor loop otherwise), used
//! schoolbook-wise on short operands and under Karatsuba on long ones:
//!
//! with `a = a0 + T·a1`, `b = b0 + T·b1` (`T = z^(64h)`) and `lo = a0·b0`, `hi = a1·b1`,
//! `a·b = lo + T·((a0 + a1)(b0 + b1) + lo + hi) + T²·hi` — three half-size products, not four
//! (in characteristic 2 the minus signs of the usual identity are plus signs).
//!
//! Reduction modulo a fixed `P` of degree `m` is Barrett's, which for polynomials is exact: with
//! `μ = ⌊z^(2m)/P⌋` and `c` of degree below `2m`, the quotient `⌊c/P⌋` is `q = ⌊⌊c/z^m⌋·μ / z^m⌋`,
//! so `c mod P = c + q·P` costs two products and no division. Proof: write `c = c1·z^m + c0`,
//! `z^(2m) = μ·P + ρ` (`deg ρ < m`) and `c1·μ = q·z^m + s` (`deg s < m`). Then
//! `c·z^m = q·P·z^m + (s·P + c1·ρ + c0·z^m)`, and the bracket has degree below `2m = deg(P·z^m)`,
//! so `q = ⌊c·z^m / (P·z^m)⌋ = ⌊c/P⌋`.

pub mod fft;

use num_bigint::BigUint;
use std::sync::OnceLock;

/// Below this many words a product is computed schoolbook; above it Karatsuba splits.
const KARATSUBA_WORDS: usize = 24;

/// From this many words on, Karatsuba's three half products run on two threads (feature
/// `parallel`).
#[cfg(feature = "parallel")]
const PARALLEL_WORDS: usize = 2048;

/// From this many words in the shorter operand on, products go to the additive transform of
/// [`fft`].
pub const FFT_WORDS: usize = 6144;

static FFT_FROM: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(FFT_WORDS);

/// The size from which [`mul`] uses the transform: [`FFT_WORDS`] unless changed by
/// [`set_fft_words`].
fn fft_words() -> usize {
    FFT_FROM.load(std::sync::atomic::Ordering::Relaxed)
}

/// Moves the size from which [`mul`] uses the transform (`usize::MAX`: never), for benchmarks
/// that compare the two methods on whole computations in one run.
#[cfg(any(test, feature = "testing"))]
pub fn set_fft_words(words: usize) {
    FFT_FROM.store(words, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the processor has the carry-less multiply instruction (checked once).
pub fn has_clmul() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("pclmulqdq")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// The carry-less product of two words by shifts and xors: `(low word, high word)`.
pub fn clmul_portable(a: u64, b: u64) -> (u64, u64) {
    let (mut lo, mut hi) = (0u64, 0u64);
    for i in 0..64 {
        if (b >> i) & 1 == 1 {
            lo ^= a << i;
            if i > 0 {
                hi ^= a >> (64 - i);
            }
        }
    }
    (lo, hi)
}

/// The carry-less product of two words, `(low word, high word)`: the hardware instruction when
/// present, [`clmul_portable`] otherwise.
#[inline]
pub fn clmul(a: u64, b: u64) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    if has_clmul() {
        // SAFETY: the instruction's presence was checked at run time just above.
        return unsafe { clmul_hw(a, b) };
    }
    clmul_portable(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn clmul_hw(a: u64, b: u64) -> (u64, u64) {
    use core::arch::x86_64::*;
    let r = _mm_clmulepi64_si128(_mm_set_epi64x(0, a as i64), _mm_set_epi64x(0, b as i64), 0);
    let mut w = [0u64; 2];
    _mm_storeu_si128(w.as_mut_ptr() as *mut __m128i, r);
    (w[0], w[1])
}

/// Schoolbook product with the hardware instruction: `out ^= a·b` (`out` has room for it).
/// Product scanning: output word `k` gathers the 128-bit products `a_i·b_(k-i)` in a register,
/// its low half added at `k` and its high half at `k + 1`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn school_clmul_hw(a: &[u64], b: &[u64], out: &mut [u64]) {
    use core::arch::x86_64::*;
    let (na, nb) = (a.len(), b.len());
    let mut carry = 0u64;
    for k in 0..na + nb - 1 {
        let i0 = k.saturating_sub(nb - 1);
        let i1 = k.min(na - 1);
        let mut acc = _mm_setzero_si128();
        for i in i0..=i1 {
            let x = _mm_cvtsi64_si128(a[i] as i64);
            let y = _mm_cvtsi64_si128(b[k - i] as i64);
            acc = _mm_xor_si128(acc, _mm_clmulepi64_si128(x, y, 0));
        }
        out[k] ^= _mm_cvtsi128_si64(acc) as u64 ^ carry;
        carry = _mm_cvtsi128_si64(_mm_srli_si128::<8>(acc)) as u64;
    }
    out[na + nb - 1] ^= carry;
}

/// Schoolbook product word by word: `out ^= a·b`, `out.len() >= a.len() + b.len()`.
pub fn mul_schoolbook_into(a: &[u64], b: &[u64], out: &mut [u64]) {
    if a.is_empty() || b.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if has_clmul() {
        // SAFETY: the instruction's presence was checked at run time just above.
        unsafe { school_clmul_hw(a, b, out) };
        return;
    }
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            let (lo, hi) = clmul_portable(x, y);
            out[i + j] ^= lo;
            out[i + j + 1] ^= hi;
        }
    }
}

/// The product `a·b` (length `a.len() + b.len()` words): Karatsuba above
/// `KARATSUBA_WORDS`, schoolbook below.
pub fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    if a.len().min(b.len()) >= fft_words() {
        return fft::mul(a, b);
    }
    mul_karatsuba(a, b)
}

/// [`mul`], stopped part-way when `stop` says so if it goes to the transform
/// ([`fft::mul_until`]; Karatsuba below its size runs to the end).
pub fn mul_until<S: fft::Stop>(a: &[u64], b: &[u64], stop: &S) -> Result<Vec<u64>, S::Err> {
    if a.len().min(b.len()) >= fft_words() {
        return fft::mul_until(a, b, stop);
    }
    Ok(mul_karatsuba(a, b))
}

/// The product `a·b` by Karatsuba (above `KARATSUBA_WORDS`) and schoolbook, whatever the size.
pub fn mul_karatsuba(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; a.len() + b.len()];
    if a.is_empty() || b.is_empty() {
        return out;
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let n = short.len();
    if n <= KARATSUBA_WORDS {
        mul_schoolbook_into(long, short, &mut out);
        return out;
    }
    let mut scratch = vec![0u64; karatsuba_scratch(n)];
    if long.len() == n {
        karatsuba(long, short, &mut out, &mut scratch);
        return out;
    }
    // Unequal lengths: cut the longer one into pieces of the shorter one's length.
    let mut tmp = vec![0u64; 2 * n];
    for (k, chunk) in long.chunks(n).enumerate() {
        if chunk.len() == n {
            karatsuba(chunk, short, &mut tmp, &mut scratch);
        } else {
            tmp.iter_mut().for_each(|w| *w = 0);
            mul_schoolbook_into(chunk, short, &mut tmp);
        }
        let dst = &mut out[k * n..];
        for (o, w) in dst.iter_mut().zip(&tmp) {
            *o ^= w;
        }
    }
    out
}

/// The scratch words [`karatsuba`] needs for operands of `n` words: `4⌈n/2⌉` at the top
/// (the two half sums and their product) plus what the middle product needs, recursively.
fn karatsuba_scratch(n: usize) -> usize {
    if n <= KARATSUBA_WORDS {
        0
    } else {
        let h = n.div_ceil(2);
        4 * h + karatsuba_scratch(h)
    }
}

/// `out[..2n] = a·b` for `a`, `b` of equal length `n` (overwriting), with `scratch` of at least
/// `karatsuba_scratch(n)` words: no allocation below the top.
fn karatsuba(a: &[u64], b: &[u64], out: &mut [u64], scratch: &mut [u64]) {
    let n = a.len();
    if n <= KARATSUBA_WORDS {
        out[..2 * n].iter_mut().for_each(|w| *w = 0);
        mul_schoolbook_into(a, b, out);
        return;
    }
    let h = n.div_ceil(2);
    let l = n - h;
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    let (sums, rest) = scratch.split_at_mut(2 * h);
    let (mid, rest) = rest.split_at_mut(2 * h);
    let (sa, sb) = sums.split_at_mut(h);
    sa.copy_from_slice(a0);
    sb.copy_from_slice(b0);
    for i in 0..l {
        sa[i] ^= a1[i];
        sb[i] ^= b1[i];
    }
    {
        let (lo, hi) = out[..2 * n].split_at_mut(2 * h);
        #[cfg(feature = "parallel")]
        if n >= PARALLEL_WORDS {
            // The three half-size products are independent: two threads share them, the
            // second with scratch of its own.
            rayon::join(
                || {
                    karatsuba(a0, b0, lo, rest);
                    karatsuba(a1, b1, hi, rest);
                },
                || {
                    let mut own = vec![0u64; karatsuba_scratch(h)];
                    karatsuba(sa, sb, mid, &mut own)
                },
            );
        } else {
            karatsuba(a0, b0, lo, rest);
            karatsuba(a1, b1, hi, rest);
            karatsuba(sa, sb, mid, rest);
        }
        #[cfg(not(feature = "parallel"))]
        {
            karatsuba(a0, b0, lo, rest);
            karatsuba(a1, b1, hi, rest);
            karatsuba(sa, sb, mid, rest);
        }
    }
    // mid = (a0 + a1)(b0 + b1) + lo + hi, added at T = z^(64h).
    for i in 0..2 * h {
        mid[i] ^= out[i];
    }
    for i in 0..2 * l {
        mid[i] ^= out[2 * h + i];
    }
    for (o, m) in out[h..h + 2 * h].iter_mut().zip(mid.iter()) {
        *o ^= m;
    }
}

/// The square `a²`: in characteristic 2, `(Σ a_i z^i)² = Σ a_i z^(2i)`, the bits spread apart.
pub fn square(a: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; 2 * a.len()];
    for (i, &x) in a.iter().enumerate() {
        out[2 * i] = spread32(x as u32);
        out[2 * i + 1] = spread32((x >> 32) as u32);
    }
    out
}

/// Moves bit `i` of `x` to bit `2i`.
fn spread32(x: u32) -> u64 {
    let mut v = x as u64;
    v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
    v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
    v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    v = (v | (v << 2)) & 0x3333_3333_3333_3333;
    v = (v | (v << 1)) & 0x5555_5555_5555_5555;
    v
}

/// The degree of `a` (index of its highest set bit), `None` for the zero polynomial.
pub fn degree(a: &[u64]) -> Option<usize> {
    a.iter()
        .rposition(|&w| w != 0)
        .map(|i| 64 * i + 63 - a[i].leading_zeros() as usize)
}

/// Bit `i` of `a` (0 beyond its end).
pub fn bit(a: &[u64], i: usize) -> bool {
    a.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// `⌊a / z^s⌋`, keeping `words` words.
fn shift_right(a: &[u64], s: usize, words: usize) -> Vec<u64> {
    let (ws, bs) = (s / 64, s % 64);
    (0..words)
        .map(|i| {
            let lo = a.get(i + ws).copied().unwrap_or(0);
            let hi = a.get(i + ws + 1).copied().unwrap_or(0);
            if bs == 0 {
                lo
            } else {
                (lo >> bs) | (hi << (64 - bs))
            }
        })
        .collect()
}

/// The remainder of `a` modulo `p` by long division, bit by bit (used once per field, for `μ`,
/// and as the reference in tests).
pub fn rem_long(a: &[u64], p: &[u64]) -> Vec<u64> {
    let (q, r) = divrem_long(a, p);
    drop(q);
    r
}

/// Quotient and remainder of `a` by `p ≠ 0`, by long division.
pub fn divrem_long(a: &[u64], p: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let m = degree(p).expect("division by the zero polynomial");
    let mut r = a.to_vec();
    let mut q = vec![0u64; a.len().max(1)];
    while let Some(d) = degree(&r) {
        if d < m {
            break;
        }
        let s = d - m;
        q[s / 64] |= 1 << (s % 64);
        let (ws, bs) = (s / 64, s % 64);
        for (i, &w) in p.iter().enumerate() {
            if w == 0 {
                continue;
            }
            r[i + ws] ^= w << bs;
            if bs > 0 && i + ws + 1 < r.len() {
                r[i + ws + 1] ^= w >> (64 - bs);
            }
        }
    }
    let words = m.div_ceil(64).max(1);
    r.resize(words.max(r.len()), 0);
    r.truncate(words);
    (q, r)
}

/// The field `GF(2)[z]/(P)` for an irreducible `P` of degree `m ≥ 1`: elements are polynomials of
/// degree below `m`, stored in exactly `⌈m/64⌉` words.
#[derive(Clone, Debug)]
pub struct Gf2Field {
    m: usize,
    words: usize,
    modulus: Vec<u64>,
    mu: Vec<u64>,
}

impl Gf2Field {
    /// The field modulo `modulus` (its degree `m` is its highest set bit; irreducibility is the
    /// caller's promise: the arithmetic is that of the ring `GF(2)[z]/(P)` in any case).
    pub fn new(modulus: &[u64]) -> Self {
        let m = degree(modulus).expect("modulus must be nonzero");
        assert!(m >= 1, "modulus must have degree at least 1");
        let words = m.div_ceil(64);
        let mut x2m = vec![0u64; (2 * m) / 64 + 1];
        x2m[(2 * m) / 64] |= 1 << ((2 * m) % 64);
        let (mu, _) = divrem_long(&x2m, modulus);
        let mut modulus = modulus.to_vec();
        modulus.truncate(m / 64 + 1);
        Gf2Field {
            m,
            words,
            modulus,
            mu,
        }
    }

    /// Words per element.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The modulus `P`.
    pub fn modulus(&self) -> &[u64] {
        &self.modulus
    }

    /// The residue of a polynomial of degree below `2m` (Barrett, see the module documentation).
    pub fn reduce(&self, c: &[u64]) -> Vec<u64> {
        if degree(c).is_none_or(|d| d < self.m) {
            let mut r = c.to_vec();
            r.resize(self.words, 0);
            r.truncate(self.words);
            return r;
        }
        debug_assert!(degree(c).unwrap() < 2 * self.m);
        let hi_words = self.words + 1;
        let c1 = shift_right(c, self.m, hi_words);
        let t = mul(&c1, &self.mu);
        let q = shift_right(&t, self.m, hi_words);
        let qp = mul(&q, &self.modulus);
        let mut r: Vec<u64> = (0..self.words)
            .map(|i| c.get(i).copied().unwrap_or(0) ^ qp.get(i).copied().unwrap_or(0))
            .collect();
        let top = self.m % 64;
        if top != 0 {
            r[self.words - 1] &= (1u64 << top) - 1;
        }
        r
    }

    /// The product `a·z mod P` (a shift and at most one subtraction of `P`).
    pub fn mul_by_z(&self, a: &[u64]) -> Vec<u64> {
        let mut r = vec![0u64; self.words + 1];
        for (i, &w) in a.iter().enumerate() {
            r[i] |= w << 1;
            r[i + 1] |= w >> 63;
        }
        if bit(&r, self.m) {
            for (i, &w) in self.modulus.iter().enumerate() {
                r[i] ^= w;
            }
        }
        r.truncate(self.words);
        r
    }
}

/// A finite field of characteristic 2 whose elements are word vectors: what the exponentiation,
/// Frobenius and degree algorithms need. Implemented by [`Gf2Field`] and by the radical
/// extensions of [`crate::ordinal::tower`].
pub trait BinaryField {
    /// The degree `m` over GF(2): the field has `2^m` elements.
    fn degree(&self) -> usize;
    /// The element 1.
    fn one(&self) -> Vec<u64>;
    /// The element 0.
    fn zero(&self) -> Vec<u64>;
    /// Whether `a` is 1.
    fn is_one(&self, a: &[u64]) -> bool;
    /// The product `a·b`.
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64>;
    /// The square `a²`.
    fn square(&self, a: &[u64]) -> Vec<u64>;

    /// `a^e` by left-to-right square-and-multiply over a sliding window of at most 4 bits.
    fn pow(&self, a: &[u64], e: &BigUint) -> Vec<u64> {
        let never = |_: u64| -> Result<(), std::convert::Infallible> { Ok(()) };
        match window_pow(
            a,
            e,
            || self.one(),
            |x| self.square(x),
            |x, y| Ok(self.mul(x, y)),
            never,
        ) {
            Ok(r) => r,
            Err(never) => match never {},
        }
    }

    /// `a^(2^k)`: `k` Frobenius steps.
    fn frobenius(&self, a: &[u64], k: usize) -> Vec<u64> {
        let mut x = a.to_vec();
        for _ in 0..k {
            x = self.square(&x);
        }
        x
    }

    /// The degree over GF(2) of the least subfield holding `a`: the least divisor `d` of `m` with
    /// `a^(2^d) = a` (the subfields of `GF(2^m)` are the `GF(2^d)`, `d | m`, and `GF(2^d)` is the
    /// set of roots of `x^(2^d) - x`). Found by removing prime factors of `m` while the smaller
    /// subfield still holds `a`.
    fn element_degree(&self, a: &[u64]) -> usize {
        let mut d = self.degree();
        for l in prime_factors(self.degree() as u64) {
            let l = l as usize;
            while d.is_multiple_of(l) && self.frobenius(a, d / l) == a {
                d /= l;
            }
        }
        d
    }
}

impl BinaryField for Gf2Field {
    fn degree(&self) -> usize {
        self.m
    }
    fn one(&self) -> Vec<u64> {
        let mut v = vec![0; self.words];
        v[0] = 1;
        v
    }
    fn zero(&self) -> Vec<u64> {
        vec![0; self.words]
    }
    fn is_one(&self, a: &[u64]) -> bool {
        a[0] == 1 && a[1..].iter().all(|&w| w == 0)
    }
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        self.reduce(&mul(a, b))
    }
    fn square(&self, a: &[u64]) -> Vec<u64> {
        self.reduce(&square(a))
    }
}

/// The distinct prime factors of `n`, increasing.
pub fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            out.push(d);
            while n.is_multiple_of(d) {
                n /= d;
            }
        }
        d += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

#[cfg(any(test, feature = "testing"))]
/// Slow products from the definition, to test the fast ones against.
pub mod reference {
    /// `a·b` bit by bit: for each set bit `i` of `b`, add `a·z^i` (the naive method).
    pub fn mul_shift_xor(a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; a.len() + b.len()];
        for i in 0..64 * b.len() {
            if super::bit(b, i) {
                let (ws, bs) = (i / 64, i % 64);
                for (k, &w) in a.iter().enumerate() {
                    out[k + ws] ^= w << bs;
                    if bs > 0 {
                        out[k + ws + 1] ^= w >> (64 - bs);
                    }
                }
            }
        }
        out
    }
}

/// `a^e` by left-to-right square-and-multiply over a sliding window of at most 4 bits.
///
/// With the odd powers `a, a³, …, a^15` at hand, the exponent is read from its top bit: a zero
/// bit squares the result; a set bit `i` starts the longest window `e[i..=j]` of at most 4 bits
/// ending in a set bit `j`, whose value `v` is odd, and `r ↦ r^(2^(i-j+1))·a^v`. This costs
/// `bits` squarings and about `bits/5` products, against `bits/2` for the binary method.
/// `check` is called with the number of bits read before each step and may stop the work;
/// so may `mul` (a product stopped part-way).
pub(crate) fn window_pow<E>(
    a: &[u64],
    e: &BigUint,
    one: impl Fn() -> Vec<u64>,
    square: impl Fn(&[u64]) -> Vec<u64>,
    mul: impl Fn(&[u64], &[u64]) -> std::result::Result<Vec<u64>, E>,
    mut check: impl FnMut(u64) -> std::result::Result<(), E>,
) -> std::result::Result<Vec<u64>, E> {
    let bits = e.bits();
    if bits == 0 {
        return Ok(one());
    }
    let a2 = square(a);
    let mut odd = vec![a.to_vec()];
    for k in 1..8 {
        let next = mul(&odd[k - 1], &a2)?;
        odd.push(next);
    }
    let mut r: Option<Vec<u64>> = None;
    let mut i = bits as i64 - 1;
    while i >= 0 {
        check(bits - i as u64)?;
        if !e.bit(i as u64) {
            r = r.map(|x| square(&x));
            i -= 1;
            continue;
        }
        let mut j = (i - 3).max(0);
        while !e.bit(j as u64) {
            j += 1;
        }
        let mut val = 0usize;
        for k in (j..=i).rev() {
            val = (val << 1) | e.bit(k as u64) as usize;
        }
        r = Some(match r {
            None => odd[val >> 1].clone(),
            Some(mut x) => {
                for _ in j..=i {
                    x = square(&x);
                }
                mul(&x, &odd[val >> 1])?
            }
        });
        i = j - 1;
    }
    Ok(r.unwrap_or_else(one))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn trim(mut v: Vec<u64>) -> Vec<u64> {
        while v.last() == Some(&0) {
            v.pop();
        }
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn karatsuba_and_schoolbook_agree_with_shift_xor(
            a in proptest::collection::vec(any::<u64>(), 1..80),
            b in proptest::collection::vec(any::<u64>(), 1..80),
        ) {
            prop_assert_eq!(trim(mul(&a, &b)), trim(reference::mul_shift_xor(&a, &b)));
            prop_assert_eq!(trim(square(&a)), trim(reference::mul_shift_xor(&a, &a)));
        }

        #[test]
        fn portable_clmul_agrees_with_shift_xor(a in any::<u64>(), b in any::<u64>()) {
            let (lo, hi) = clmul_portable(a, b);
            prop_assert_eq!(vec![lo, hi], reference::mul_shift_xor(&[a], &[b]));
        }

        #[test]
        fn barrett_agrees_with_long_division(
            p in proptest::collection::vec(any::<u64>(), 1..6),
            a in proptest::collection::vec(any::<u64>(), 1..6),
            b in proptest::collection::vec(any::<u64>(), 1..6),
        ) {
            prop_assume!(degree(&p).is_some_and(|d| d >= 1));
            let f = Gf2Field::new(&p);
            let a = rem_long(&a, &p);
            let b = rem_long(&b, &p);
            prop_assert_eq!(f.mul(&a, &b), rem_long(&reference::mul_shift_xor(&a, &b), &p));
        }
    }

    #[test]
    fn pow_matches_repeated_multiplication() {
        // z^8 + z^4 + z^3 + z + 1 is irreducible (the AES polynomial): GF(256), z of order 51.
        let f = Gf2Field::new(&[0x11b]);
        let z = vec![2u64];
        let mut x = f.one();
        for e in 0u32..300 {
            assert_eq!(f.pow(&z, &BigUint::from(e)), x, "z^{e}");
            x = f.mul(&x, &z);
        }
        assert_eq!(f.element_degree(&z), 8);
        assert_eq!(f.element_degree(&f.one()), 1);
        assert_eq!(f.mul_by_z(&[0x80]), vec![0x1b]);
    }
}
