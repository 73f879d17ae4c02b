//! The Walsh-Hadamard transform: the Fourier transform of the group (Z/2)^d, which turns xor
//! convolution into pointwise multiplication.
//!
//! For `a: (Z/2)^d → R` the transform is `â(y) = Σ_x (-1)^{popcount(x & y)} a(x)`. It factors
//! as `H_{2^d} = H_2 ⊗ H_2 ⊗ ... ⊗ H_2`, one factor per bit, and the factor of bit `j` is the
//! butterfly `(a[i], a[i + 2^j]) ← (a[i] + a[i + 2^j], a[i] - a[i + 2^j])` over every `i` with
//! bit `j` clear. The factors commute, so they may be applied in any order and grouped at will;
//! [`wht`] groups them for the memory hierarchy (see there). Applying `H` twice multiplies by
//! `2^d` (`H·H = 2^d I`, since `Σ_y (-1)^{popcount((x ⊕ z) & y)} = 2^d [x = z]`).
//!
//! **Convolution theorem.** For `(a ∗ b)(z) = Σ_{x ⊕ y = z} a(x) b(y)`, `(a ∗ b)^ = â · b̂`,
//! because `(-1)^{popcount((x ⊕ y) & t)} = (-1)^{popcount(x & t)} (-1)^{popcount(y & t)}`.
//! Hence `a ∗ b = 2^{-d} H(â · b̂)` and the `K`-th convolution power is `2^{-d} H(â^K)`.
//!
//! **Dividing by `2^d` modulo any `Q`.** Write `Q = o · 2^a` with `o` odd. Modulo `o`, `2^d` is
//! invertible and we multiply by its inverse. Modulo `2^a` it is not, so we compute modulo
//! `2^{a+d}` (here: in wrapping `u128` arithmetic, a ring homomorphism image of Z, valid while
//! `a + d ≤ 128`): the true integer result `c` satisfies `H(â^K) = 2^d c` in Z, so the computed
//! residue is `x = 2^d c - t 2^{a+d}` for some integer `t`; both terms are divisible by `2^d` and
//! `x / 2^d = c - t 2^a ≡ c (mod 2^a)`. The two residues are joined by the Chinese remainder
//! theorem ([`crt_odd_pow2`]). The same argument divides by any `D` (such as `K!·2^d` for
//! multisets): compute modulo `Q·D` and divide exactly.

use num_bigint::{BigInt, BigUint};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// The additive structure the transform needs: a sum and a difference of two elements.
///
/// Implementations are small `Copy` descriptions of a ring (a modulus); the elements are plain
/// machine words so that the kernel compiles to straight-line vector code.
pub trait Butterfly: Sync + Send {
    /// An element of the ring.
    type E: Copy + Send + Sync + Default;
    /// `a + b` in the ring.
    fn add(&self, a: Self::E, b: Self::E) -> Self::E;
    /// `a - b` in the ring.
    fn sub(&self, a: Self::E, b: Self::E) -> Self::E;
}

/// A ring with a multiplication, for pointwise products and powers of transformed values.
pub trait Ring: Butterfly {
    /// `a · b` in the ring.
    fn mul(&self, a: Self::E, b: Self::E) -> Self::E;
    /// The unit.
    fn one(&self) -> Self::E;
    /// The image of an integer.
    fn image_i128(&self, x: i128) -> Self::E;
    /// The image of an integer of any size.
    fn image_bigint(&self, x: &BigInt) -> Self::E;

    /// `x^k` by binary exponentiation over the bits of `k` (`x^0 = 1`, also for `x = 0`).
    fn pow(&self, x: Self::E, k: &BigUint) -> Self::E {
        // Left-to-right: after the bits b_{n-1}..b_i, acc = x^(b_{n-1}..b_i in binary).
        let mut acc = self.one();
        for i in (0..k.bits()).rev() {
            acc = self.mul(acc, acc);
            if k.bit(i) {
                acc = self.mul(acc, x);
            }
        }
        acc
    }
}

/// Integers modulo 2^64 (wrapping `u64`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wrapping64;

impl Butterfly for Wrapping64 {
    type E = u64;
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        a.wrapping_sub(b)
    }
}

/// Integers modulo 2^128 (wrapping `u128`). Read as `i128`, exact for integers of absolute value
/// below 2^127: the exact transform of a histogram whose total is below 2^127.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wrapping128;

impl Butterfly for Wrapping128 {
    type E = u128;
    #[inline(always)]
    fn add(&self, a: u128, b: u128) -> u128 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn sub(&self, a: u128, b: u128) -> u128 {
        a.wrapping_sub(b)
    }
}

impl Ring for Wrapping128 {
    #[inline(always)]
    fn mul(&self, a: u128, b: u128) -> u128 {
        a.wrapping_mul(b)
    }
    fn one(&self) -> u128 {
        1
    }
    fn image_i128(&self, x: i128) -> u128 {
        x as u128
    }
    fn image_bigint(&self, x: &BigInt) -> u128 {
        // x mod 2^128: the low 128 bits of the two's complement.
        let m = BigInt::from(1u8) << 128u32;
        let r = num_integer::Integer::mod_floor(x, &m);
        u128::try_from(r).unwrap_or(0)
    }
}

/// Floating point, for estimates (probabilities) where exact counts are not needed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Float64;

impl Butterfly for Float64 {
    type E = f64;
    #[inline(always)]
    fn add(&self, a: f64, b: f64) -> f64 {
        a + b
    }
    #[inline(always)]
    fn sub(&self, a: f64, b: f64) -> f64 {
        a - b
    }
}

/// Residues modulo `n` (any `n ≥ 1` below 2^64), stored in `[0, n)`; only addition and
/// subtraction (the transform itself needs nothing else).
#[derive(Clone, Copy, Debug)]
pub struct ModU64 {
    /// The modulus.
    pub n: u64,
}

impl Butterfly for ModU64 {
    type E = u64;
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        // a, b < n ≤ 2^64: the true sum s is below 2n, and the answer is s − n unless s < n,
        // i.e. unless there was no carry out of 64 bits and s − n borrowed. Branch-free (masks
        // instead of jumps): residues are random, so a branch would be mispredicted half the
        // time.
        let (s, carry) = a.overflowing_add(b);
        let (t, borrow) = s.overflowing_sub(self.n);
        let keep_s = borrow & !carry;
        t.wrapping_add(self.n & (keep_s as u64).wrapping_neg())
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        let (d, borrow) = a.overflowing_sub(b);
        d.wrapping_add(self.n & (borrow as u64).wrapping_neg())
    }
}

/// Residues modulo `n ≤ 2^63`, stored in `[0, n)`: a cheaper [`ModU64`]. With no carry out of
/// 64 bits possible, `a + b mod n = min(s, s − n)` for `s = a + b` (when `s < n`, `s − n` wraps
/// above `2^63`), and `a − b mod n = min(d, d + n)` for `d = a − b` wrapped (when `a < b`,
/// `d ≥ 2^64 − n ≥ n` while `d + n` wraps to `a − b + n < n`): three vector instructions.
#[derive(Clone, Copy, Debug)]
pub struct ModHalfWord {
    n: u64,
}

impl ModHalfWord {
    /// Residues modulo `n`, if `1 ≤ n ≤ 2^63`.
    pub fn new(n: u64) -> Option<ModHalfWord> {
        (1..=1 << 63).contains(&n).then_some(ModHalfWord { n })
    }
}

impl Butterfly for ModHalfWord {
    type E = u64;
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        s.min(s.wrapping_sub(self.n))
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        let d = a.wrapping_sub(b);
        d.min(d.wrapping_add(self.n))
    }
}

/// Arithmetic modulo an odd `n < 2^64` in Montgomery form: `x` is stored as `x·2^64 mod n`.
///
/// Montgomery reduction of `t < n·2^64`: with `n' = n^{-1} mod 2^64` and `m = (t mod 2^64)·n'
/// mod 2^64`, `m·n ≡ t (mod 2^64)`, so `t - m·n` is divisible by 2^64 and, the low words being
/// equal, `(t - m·n)/2^64 = hi(t) - hi(m·n) ∈ (-n, n)`; adding `n` when negative gives
/// `t·2^{-64} mod n`. The product of two stored values `x·R, y·R` reduces to `x·y·R`.
#[derive(Clone, Copy, Debug)]
pub struct Montgomery {
    n: u64,
    /// n^{-1} mod 2^64.
    n_inv: u64,
    /// 2^128 mod n: `reduce(x · r2) = x·2^64 mod n` puts `x` into Montgomery form.
    r2: u64,
}

impl Montgomery {
    /// The arithmetic modulo the odd number `n` (`None` if `n` is even).
    pub fn new(n: u64) -> Option<Montgomery> {
        if n.is_multiple_of(2) {
            return None;
        }
        // Newton's iteration x ← x(2 - n x) doubles the number of correct low bits; n·n ≡ 1
        // (mod 8) for odd n gives 3 bits to start with, and 3·2^5 = 96 ≥ 64.
        let mut n_inv = n;
        for _ in 0..5 {
            n_inv = n_inv.wrapping_mul(2u64.wrapping_sub(n.wrapping_mul(n_inv)));
        }
        let r = (u128::MAX % n as u128 + 1) % n as u128; // 2^128 mod n
        Some(Montgomery {
            n,
            n_inv,
            r2: r as u64,
        })
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.n
    }

    #[inline(always)]
    fn reduce(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.n_inv);
        let mn = m as u128 * self.n as u128;
        let (t_hi, mn_hi) = ((t >> 64) as u64, (mn >> 64) as u64);
        if t_hi >= mn_hi {
            t_hi - mn_hi
        } else {
            t_hi.wrapping_sub(mn_hi).wrapping_add(self.n)
        }
    }

    /// `x mod n` in Montgomery form.
    pub fn to_mont(&self, x: u64) -> u64 {
        self.reduce((x % self.n) as u128 * self.r2 as u128)
    }

    /// The ordinary residue in `[0, n)` of a Montgomery-form value.
    pub fn from_mont(&self, x: u64) -> u64 {
        let r = self.reduce(x as u128);
        if r >= self.n {
            r - self.n
        } else {
            r
        }
    }

    /// The Montgomery form of the inverse of `x` modulo `n`, if `gcd(x, n) = 1`.
    pub fn inverse_of(&self, x: &BigUint) -> Option<u64> {
        let n = BigUint::from(self.n);
        // n is odd, so n ≥ 1 (num-bigint's inverse refuses a zero modulus).
        let inv = x.modinv(&n)?;
        Some(self.to_mont(u64::try_from(inv).ok()?))
    }
}

impl Butterfly for Montgomery {
    type E = u64;
    #[inline(always)]
    fn add(&self, a: u64, b: u64) -> u64 {
        if self.n <= 1 << 63 {
            ModHalfWord { n: self.n }.add(a, b)
        } else {
            ModU64 { n: self.n }.add(a, b)
        }
    }
    #[inline(always)]
    fn sub(&self, a: u64, b: u64) -> u64 {
        if self.n <= 1 << 63 {
            ModHalfWord { n: self.n }.sub(a, b)
        } else {
            ModU64 { n: self.n }.sub(a, b)
        }
    }
}

impl Ring for Montgomery {
    #[inline(always)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce(a as u128 * b as u128)
    }
    fn one(&self) -> u64 {
        self.to_mont(1)
    }
    fn image_i128(&self, x: i128) -> u64 {
        self.to_mont(x.rem_euclid(self.n as i128) as u64)
    }
    fn image_bigint(&self, x: &BigInt) -> u64 {
        let r = num_integer::Integer::mod_floor(x, &BigInt::from(self.n));
        self.to_mont(u64::try_from(r).unwrap_or(0))
    }
}

/// Joins `r_o mod o` (`o` odd) and `r_2 mod 2^a` into the residue modulo `o·2^a < 2^64`.
///
/// `c = r_2 + 2^a t` satisfies the second congruence for every `t`, and the first exactly when
/// `t ≡ (r_o - r_2)·(2^a)^{-1} (mod o)`.
pub fn crt_odd_pow2(r_o: u64, o: u64, r_2: u64, a: u32) -> u64 {
    if a == 0 {
        return r_o % o;
    }
    let p = 1u128 << a;
    // o is odd, so o ≥ 1; modulo 1 the inverse is 0.
    let inv = BigUint::from(p % o as u128)
        .modinv(&BigUint::from(o))
        .and_then(|x| u64::try_from(x).ok())
        .unwrap_or(0); // o = 1: every t works.
    let diff = (r_o as u128 + o as u128 - r_2 as u128 % o as u128) % o as u128;
    let t = diff * inv as u128 % o as u128;
    (r_2 as u128 + p * t) as u64
}

/// Below this many elements (32 KiB of `u64`, in L1) the transform runs level by level.
const BASE_LOG: u32 = 12;
/// The width of a column tile, in bytes: 1 KiB contiguous per row. Measured on 2^24 `u64`
/// (2-core EPYC): 8 elements 236 ms, 32: 128 ms, 128: 70 ms, 256: 175 ms. Wide tiles make each
/// gathered piece long enough for the prefetchers and few enough pages per tile for the TLB;
/// the tile buffer (4 MiB at 2^24) then lives in L3.
const TILE_BYTES: usize = 1024;

/// The Walsh-Hadamard transform of `a` in place (`a.len()` must be a power of two), unnormalised:
/// applying it twice multiplies by `a.len()`.
///
/// Cache blocking: view `a` (length `2^k`) as a matrix of `2^u` rows of length `2^l` (`l + u =
/// k`, row `r` is `a[r·2^l ..]`). The levels `j < l` act inside rows and the levels `j ≥ l` act
/// along columns, so `H_{2^k} = H_{2^u} ⊗ H_{2^l}`: transform every row (recursively, so a row
/// fits in cache), then every column. Columns are processed in tiles of adjacent columns
/// (1 KiB of each row), copied into a contiguous buffer (power-of-two strides would
/// otherwise collide in the cache's sets), transformed there and copied back. The whole array is
/// thus read and written twice, whatever its size. Rows and tiles are independent and shared
/// among the threads of rayon's pool.
pub fn wht<A: Butterfly>(a: &mut [A::E], ar: &A) {
    assert!(
        a.len().is_power_of_two(),
        "transform length must be a power of two"
    );
    wht_blocked(a, ar, true);
}

fn wht_blocked<A: Butterfly>(a: &mut [A::E], ar: &A, parallel: bool) {
    let k = a.len().trailing_zeros();
    if k <= BASE_LOG {
        levels(a, ar, 1);
        return;
    }
    // Rows of 2^l, at most 2^12 columns... rows small enough for L1/L2, columns at most 2^12
    // (so a tile buffer of 2^u rows × TILE_BYTES stays within L3).
    let l = BASE_LOG.max(k.saturating_sub(BASE_LOG)).min(k);
    let u = k - l;
    let row_len = 1usize << l;
    #[cfg(feature = "parallel")]
    if parallel {
        a.par_chunks_mut(row_len)
            .for_each(|row| wht_blocked(row, ar, false));
    }
    if !cfg!(feature = "parallel") || !parallel {
        for row in a.chunks_mut(row_len) {
            wht_blocked(row, ar, false);
        }
    }
    if u == 0 {
        return;
    }
    let rows = 1usize << u;
    // A power of two at most 1024, constant after monomorphisation; rows hold 2^l ≥ 2^12
    // elements, so tiles divide them.
    let tile_width = 1usize << (TILE_BYTES / std::mem::size_of::<A::E>()).max(1).ilog2();
    let ptr = SyncPtr(a.as_mut_ptr());
    let tile = |buf: &mut Vec<A::E>, t: usize| {
        let col = t * tile_width;
        // SAFETY: tile `t` reads and writes exactly the elements r·row_len + col + c for
        // r < rows, c < tile_width; distinct tiles touch disjoint elements (their column ranges are
        // disjoint), all indices are below rows·row_len = a.len(), and `a` is borrowed mutably
        // for the whole call, so no other reference observes these elements meanwhile.
        unsafe {
            let p = ptr.get();
            for r in 0..rows {
                let src = p.add(r * row_len + col);
                let dst = buf.as_mut_ptr().add(r * tile_width);
                std::ptr::copy_nonoverlapping(src, dst, tile_width);
            }
            levels(buf, ar, tile_width);
            for r in 0..rows {
                let dst = p.add(r * row_len + col);
                std::ptr::copy_nonoverlapping(buf.as_ptr().add(r * tile_width), dst, tile_width);
            }
        }
    };
    let tiles = row_len / tile_width;
    let new_buf = || vec![A::E::default(); rows * tile_width];
    #[cfg(feature = "parallel")]
    if parallel {
        (0..tiles).into_par_iter().for_each_init(new_buf, tile);
    }
    if !cfg!(feature = "parallel") || !parallel {
        let mut buf = new_buf();
        for t in 0..tiles {
            tile(&mut buf, t);
        }
    }
}

/// A raw pointer that may cross threads; see the safety argument at its one use.
#[derive(Clone, Copy)]
struct SyncPtr<T>(*mut T);
// SAFETY: used only to hand disjoint parts of one exclusively borrowed slice to rayon tasks.
unsafe impl<T: Send> Send for SyncPtr<T> {}
unsafe impl<T: Send> Sync for SyncPtr<T> {}
impl<T> SyncPtr<T> {
    /// A method (rather than field access) so closures capture the whole `Sync` wrapper.
    fn get(self) -> *mut T {
        self.0
    }
}

/// The butterfly levels of half-width `first_half, 2·first_half, ...` below `a.len()`, on a
/// block that is in cache. Compiled twice: for the baseline instruction set and with AVX2 (and
/// AVX-512 where the machine has it), chosen at run time; the inner loops run over contiguous
/// elements and vectorise.
#[inline]
fn levels<A: Butterfly>(a: &mut [A::E], ar: &A, first_half: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has the features the function is compiled for.
            return unsafe { levels_avx512(a, ar, first_half) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { levels_avx2(a, ar, first_half) };
        }
    }
    levels_portable(a, ar, first_half)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn levels_avx2<A: Butterfly>(a: &mut [A::E], ar: &A, first_half: usize) {
    levels_portable(a, ar, first_half)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn levels_avx512<A: Butterfly>(a: &mut [A::E], ar: &A, first_half: usize) {
    levels_portable(a, ar, first_half)
}

#[inline(always)]
fn levels_portable<A: Butterfly>(a: &mut [A::E], ar: &A, first_half: usize) {
    let n = a.len();
    let mut h = first_half;
    // Two levels at a time (radix 4): one pass over the block does the butterflies of half-width
    // h and 2h on the quadruple (x0, x1, x2, x3) = a[i], a[i+h], a[i+2h], a[i+3h].
    while 4 * h <= n {
        for block in a.chunks_exact_mut(4 * h) {
            let (lo, hi) = block.split_at_mut(2 * h);
            let (q0, q1) = lo.split_at_mut(h);
            let (q2, q3) = hi.split_at_mut(h);
            let quads = q0.iter_mut().zip(q1.iter_mut()).zip(q2.iter_mut().zip(q3));
            for ((y0, y1), (y2, y3)) in quads {
                let (x0, x1, x2, x3) = (*y0, *y1, *y2, *y3);
                let (s01, d01) = (ar.add(x0, x1), ar.sub(x0, x1));
                let (s23, d23) = (ar.add(x2, x3), ar.sub(x2, x3));
                *y0 = ar.add(s01, s23);
                *y2 = ar.sub(s01, s23);
                *y1 = ar.add(d01, d23);
                *y3 = ar.sub(d01, d23);
            }
        }
        h *= 4;
    }
    if 2 * h <= n {
        for block in a.chunks_exact_mut(2 * h) {
            let (x, y) = block.split_at_mut(h);
            for (u, v) in x.iter_mut().zip(y.iter_mut()) {
                let (s, d) = (ar.add(*u, *v), ar.sub(*u, *v));
                *u = s;
                *v = d;
            }
        }
    }
}

/// The Walsh-Hadamard transform over the integers, for exact results of any size.
pub fn wht_bigint(a: &mut [BigInt]) {
    assert!(
        a.len().is_power_of_two(),
        "transform length must be a power of two"
    );
    fn rec(a: &mut [BigInt]) {
        let n = a.len();
        if n == 1 {
            return;
        }
        let (x, y) = a.split_at_mut(n / 2);
        if cfg!(feature = "parallel") && n >= 1 << 10 {
            #[cfg(feature = "parallel")]
            rayon::join(|| rec(x), || rec(y));
        } else {
            rec(x);
            rec(y);
        }
        for (u, v) in x.iter_mut().zip(y.iter_mut()) {
            let s = &*u + &*v;
            *v = std::mem::take(u) - &*v;
            *u = s;
        }
    }
    rec(a)
}

/// `k`-th power of every element, in parallel.
///
/// Binary exponentiation is a chain of dependent multiplications, each waiting for the last
/// (a Montgomery product is three multiplications deep), so the elements are raised in groups
/// of 8: each step squares (and multiplies) the whole group, and the processor overlaps
/// the independent chains. The bits of `k` are read once, not once per element.
pub fn pow_pointwise<R: Ring>(a: &mut [R::E], ring: &R, k: &BigUint) {
    let bits: Vec<bool> = (0..k.bits()).rev().map(|i| k.bit(i)).collect();
    #[cfg(feature = "parallel")]
    let chunks = a.par_chunks_mut(1024);
    #[cfg(not(feature = "parallel"))]
    let chunks = a.chunks_mut(1024);
    chunks.for_each(|chunk| {
        let mut groups = chunk.chunks_exact_mut(LANES);
        for g in &mut groups {
            let x: [R::E; LANES] = std::array::from_fn(|j| g[j]);
            let mut acc = [ring.one(); LANES];
            for &bit in &bits {
                for v in acc.iter_mut() {
                    *v = ring.mul(*v, *v);
                }
                if bit {
                    for (v, &xj) in acc.iter_mut().zip(&x) {
                        *v = ring.mul(*v, xj);
                    }
                }
            }
            g.copy_from_slice(&acc);
        }
        for v in groups.into_remainder() {
            *v = ring.pow(*v, k);
        }
    });
}

/// The number of independent exponentiations interleaved by [`pow_pointwise`].
const LANES: usize = 8;

/// Splits `q ≥ 1` into its odd part and the exponent of 2: `q = o · 2^a`.
pub fn split_odd(q: u64) -> (u64, u32) {
    let a = q.trailing_zeros();
    (q >> a, a)
}

/// The xor convolution of `a` and `b` modulo `q` (any `q ≥ 1`): `c[z] = Σ_{x⊕y=z} a[x] b[y] mod q`
/// for `z` below the power of two covering both lengths.
///
/// By the convolution theorem (module docs): transform, multiply pointwise, transform, divide by
/// `2^d` — modulo the odd part of `q` by the inverse of `2^d`, modulo its power of two by exact
/// division of the residue modulo `2^{a+d}` (here modulo 2^128, as `a ≤ 63`, `d ≤ 64`).
pub fn xor_convolution_mod(a: &[u64], b: &[u64], q: u64) -> Vec<u64> {
    let f = a.len().max(b.len()).max(1).next_power_of_two();
    let d = f.trailing_zeros();
    let (o, two) = split_odd(q.max(1));
    let mut odd_part = vec![0u64; f];
    if o > 1 {
        let m = Montgomery::new(o).expect("odd");
        let load = |v: &[u64]| {
            let mut x = vec![0u64; f];
            for (xi, &vi) in x.iter_mut().zip(v) {
                *xi = m.to_mont(vi);
            }
            wht(&mut x, &m);
            x
        };
        let (mut x, y) = (load(a), load(b));
        #[cfg(feature = "parallel")]
        let pairs = x.par_iter_mut().zip(y.par_iter());
        #[cfg(not(feature = "parallel"))]
        let pairs = x.iter_mut().zip(y.iter());
        pairs.for_each(|(u, &v)| *u = m.mul(*u, v));
        wht(&mut x, &m);
        let inv_f = m
            .inverse_of(&BigUint::from(f))
            .expect("2^d is invertible modulo an odd number");
        for (out, &v) in odd_part.iter_mut().zip(&x) {
            *out = m.from_mont(m.mul(v, inv_f));
        }
    }
    let mut two_part = vec![0u64; f];
    if two > 0 {
        let load = |v: &[u64]| {
            let mut x = vec![0u128; f];
            for (xi, &vi) in x.iter_mut().zip(v) {
                *xi = vi as u128;
            }
            wht(&mut x, &Wrapping128);
            x
        };
        let (mut x, y) = (load(a), load(b));
        for (u, &v) in x.iter_mut().zip(&y) {
            *u = u.wrapping_mul(v);
        }
        wht(&mut x, &Wrapping128);
        let mask = (1u128 << two) - 1;
        for (out, &v) in two_part.iter_mut().zip(&x) {
            *out = ((v >> d) & mask) as u64;
        }
    }
    odd_part
        .iter()
        .zip(&two_part)
        .map(|(&r_o, &r_2)| crt_odd_pow2(r_o, o, r_2, two))
        .collect()
}

/// The exact xor convolution of `a` and `b` over the integers.
pub fn xor_convolution_exact(a: &[BigInt], b: &[BigInt]) -> Vec<BigInt> {
    let f = a.len().max(b.len()).max(1).next_power_of_two();
    let load = |v: &[BigInt]| {
        let mut x = vec![BigInt::default(); f];
        x[..v.len()].clone_from_slice(v);
        wht_bigint(&mut x);
        x
    };
    let (mut x, y) = (load(a), load(b));
    for (u, v) in x.iter_mut().zip(&y) {
        *u *= v;
    }
    wht_bigint(&mut x);
    let d = f.trailing_zeros() as usize;
    // H·H = 2^d I over the integers, so every entry is divisible by 2^d exactly.
    x.into_iter().map(|v| v >> d).collect()
}

/// The xor convolution of `a` and `b` in floating point (an estimate: rounding errors grow
/// with the magnitudes and the length).
pub fn xor_convolution_f64(a: &[f64], b: &[f64]) -> Vec<f64> {
    let f = a.len().max(b.len()).max(1).next_power_of_two();
    let load = |v: &[f64]| {
        let mut x = vec![0.0; f];
        x[..v.len()].copy_from_slice(v);
        wht(&mut x, &Float64);
        x
    };
    let (mut x, y) = (load(a), load(b));
    for (u, v) in x.iter_mut().zip(&y) {
        *u *= v;
    }
    wht(&mut x, &Float64);
    let scale = 1.0 / f as f64;
    x.iter().map(|v| v * scale).collect()
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn montgomery_matches_u128_arithmetic() {
        for n in [
            1u64,
            3,
            5,
            998_244_353,
            (1 << 61) - 1,
            u64::MAX,
            u64::MAX - 58,
        ] {
            let m = Montgomery::new(n).unwrap();
            for (x, y) in [
                (0u64, 0u64),
                (1, 1),
                (n - 1, n - 1),
                (12345, u64::MAX),
                (7, 3),
            ] {
                let want = (x as u128 % n as u128) * (y as u128 % n as u128) % n as u128;
                let got = m.from_mont(m.mul(m.to_mont(x), m.to_mont(y)));
                assert_eq!(got as u128, want, "n={n} x={x} y={y}");
                let s = (x as u128 % n as u128 + y as u128 % n as u128) % n as u128;
                assert_eq!(m.from_mont(m.add(m.to_mont(x), m.to_mont(y))) as u128, s);
            }
        }
        assert!(Montgomery::new(10).is_none());
    }

    #[test]
    fn blocked_transform_equals_textbook_at_every_size() {
        // Sizes around the blocking thresholds (rows, tiles, the radix-4 leftover level).
        for k in 0..=17u32 {
            let n = 1usize << k;
            let v: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7)
                .collect();
            let mut fast = v.clone();
            wht(&mut fast, &Wrapping64);
            let mut slow = v.clone();
            reference::wht_textbook(&mut slow, &Wrapping64);
            assert_eq!(fast, slow, "wrapping, 2^{k}");
            let wide: Vec<u128> = v.iter().map(|&x| (x as u128) << 60 | x as u128).collect();
            let (mut fast, mut slow) = (wide.clone(), wide);
            wht(&mut fast, &Wrapping128);
            reference::wht_textbook(&mut slow, &Wrapping128);
            assert_eq!(fast, slow, "wrapping 128, 2^{k}");
            let q = ModU64 { n: 1_000_000_007 };
            let mut fast: Vec<u64> = v.iter().map(|x| x % q.n).collect();
            let mut slow = fast.clone();
            wht(&mut fast, &q);
            reference::wht_textbook(&mut slow, &q);
            assert_eq!(fast, slow, "mod p, 2^{k}");
            for n in [1u64, 2, 1_000_000_007, 1 << 63] {
                let half = ModHalfWord::new(n).unwrap();
                let general = ModU64 { n };
                let mut fast: Vec<u64> = v.iter().map(|x| x % n).collect();
                let mut slow = fast.clone();
                wht(&mut fast, &half);
                reference::wht_textbook(&mut slow, &general);
                assert_eq!(fast, slow, "mod {n} half-word, 2^{k}");
            }
        }
    }

    #[test]
    fn transform_against_the_definition() {
        let v: Vec<i64> = vec![3, -1, 4, 1, -5, 9, 2, -6];
        let def = reference::wht_definition(&v);
        let mut x: Vec<BigInt> = v.iter().map(|&x| BigInt::from(x)).collect();
        wht_bigint(&mut x);
        assert_eq!(x, def.iter().map(|&x| BigInt::from(x)).collect::<Vec<_>>());
        let mut w: Vec<u128> = v.iter().map(|&x| x as i128 as u128).collect();
        wht(&mut w, &Wrapping128);
        let w: Vec<i128> = w.iter().map(|&x| x as i128).collect();
        assert_eq!(w, def.iter().map(|&x| x as i128).collect::<Vec<_>>());
    }

    #[test]
    fn round_trip_multiplies_by_length() {
        for k in [0u32, 1, 5, 13, 16] {
            let n = 1usize << k;
            let v: Vec<f64> = (0..n).map(|i| ((i * 37) % 101) as f64 - 50.0).collect();
            let mut x = v.clone();
            wht(&mut x, &Float64);
            wht(&mut x, &Float64);
            for (a, b) in x.iter().zip(&v) {
                assert!((a / n as f64 - b).abs() < 1e-9);
            }
            let q = ModU64 { n: 97 };
            let v: Vec<u64> = (0..n as u64).map(|i| (i * i + 3) % 97).collect();
            let mut x = v.clone();
            wht(&mut x, &q);
            wht(&mut x, &q);
            let n_mod = (n % 97) as u64;
            for (a, b) in x.iter().zip(&v) {
                assert_eq!(*a, b * n_mod % 97);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn convolution_theorem_mod_any_q(
            a in proptest::collection::vec(any::<u64>(), 0..40),
            b in proptest::collection::vec(any::<u64>(), 0..40),
            q in prop_oneof![Just(1u64), Just(2), Just(6), Just(998_244_353), Just(1 << 63),
                             Just(u64::MAX), Just(1_000_000_000), 1u64..5000, any::<u64>()],
        ) {
            let q = q.max(1);
            let a: Vec<u64> = a.iter().map(|x| x % q).collect();
            let b: Vec<u64> = b.iter().map(|x| x % q).collect();
            prop_assert_eq!(
                xor_convolution_mod(&a, &b, q),
                reference::xor_convolution_quadratic_mod(&a, &b, q)
            );
        }

        #[test]
        fn convolution_theorem_exact_and_float(
            a in proptest::collection::vec(-1000i64..1000, 0..33),
            b in proptest::collection::vec(-1000i64..1000, 0..33),
        ) {
            let want = reference::xor_convolution_quadratic_exact(&a, &b);
            let ab: Vec<BigInt> = a.iter().map(|&x| x.into()).collect();
            let bb: Vec<BigInt> = b.iter().map(|&x| x.into()).collect();
            let got = xor_convolution_exact(&ab, &bb);
            prop_assert_eq!(&got, &want);
            let af: Vec<f64> = a.iter().map(|&x| x as f64).collect();
            let bf: Vec<f64> = b.iter().map(|&x| x as f64).collect();
            for (g, w) in xor_convolution_f64(&af, &bf).iter().zip(&want) {
                let w: f64 = w.to_string().parse().unwrap();
                prop_assert!((g - w).abs() < 1e-6);
            }
        }
    }
}
