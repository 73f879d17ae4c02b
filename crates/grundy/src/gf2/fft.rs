//! Products in GF(2)\[x\] by the additive Fourier transform over `GF(2^64)` in Cantor's basis:
//! `O(N log N)` word operations for `N`-bit operands, against Karatsuba's `N^1.585`.
//!
//! ## Segmentation
//! Cut `a` and `b` into 32-bit pieces: `a(x) = A(x^32)` with `A(y) = Σ A_i y^i`, each `A_i` a
//! polynomial of degree below 32. Read every `A_i` as an element of
//! `K = GF(2^64) = GF(2)[t]/(t^64 + t^4 + t^3 + t + 1)`. The product `C = A·B` in `K[y]` has
//! coefficients `C_k = Σ A_i B_(k-i)`, and each product `A_i B_j` has degree at most 62 < 64, so
//! the reduction modulo the field's polynomial never acts: `C_k` *is* the polynomial
//! `Σ A_i(t) B_(k-i)(t)`, and `a·b = Σ C_k(x)·x^(32k)` (overlapping sums of 63-bit pieces).
//! `C` has degree below `2^k` for the least `2^k ≥ deg A + deg B + 1`; it is found from its
//! values at the `2^k` points of a subspace of `K` (evaluation, pointwise products,
//! interpolation).
//!
//! ## Cantor's basis
//! `β_0 = 1` and `β_i² + β_i = β_(i-1)`: solvable in `GF(2^64)` for `i < 64` because `64` is a
//! power of two (Cantor, 1989), by linear algebra over GF(2) on the map `x ↦ x² + x`. Let
//! `V_i = span(β_0, …, β_(i-1))` and `s_i(x) = Π_(v ∈ V_i) (x - v)`, the subspace polynomial.
//! Then `s_1(x) = x² + x` and `s_i = s_1 ∘ s_(i-1)`: `s_(i-1)` maps `V_i` onto the line
//! `{0, s_(i-1)(β_(i-1))}` with kernel `V_(i-1)`, and `s_(i-1)(β_(i-1)) = 1` by induction
//! (`s_(i-1)(β_(i-1)) = s_1^(i-1)(β_(i-1)) = β_0`). `s_1` is additive with coefficients in
//! GF(2), so `s_i = (F + 1)^i` for the Frobenius `F`, and `s_i(x) = Σ_(j ⊆ i) x^(2^j)` (Lucas:
//! `C(i, j)` is odd iff the bits of `j` lie among those of `i`). Also `s_i(β_j) = β_(j-i)` for
//! `j ≥ i` and `s_i(β_j) = 0` for `j < i`.
//!
//! ## The novel basis (Lin, Chung and Han, 2014)
//! `X_j = Π_(bit b of j) s_b(x)` has degree `j`, so the `X_j`, `j < 2^k`, are a basis of the
//! polynomials of degree below `2^k`. Write `f = f_0 + s_(k-1)·f_1` with `f_0`, `f_1` in the
//! span of the `X_j`, `j < 2^(k-1)`. On the coset `β + V_k`, `s_(k-1)` is `c = s_(k-1)(β)` on
//! `β + V_(k-1)` and `c + 1` on `β + β_(k-1) + V_(k-1)`; so the values of `f` on the two halves
//! are those of `g_0 = f_0 + c·f_1` and `g_1 = g_0 + f_1`, each transformed in turn: the
//! butterfly, one product in `K` per pair, undone by `f_1 = g_1 + g_0`, `f_0 = g_0 + c·f_1`.
//! At the level of blocks of `2^(i+1)` values, block `m` has offset `ω_(m·2^(i+1))`, where
//! `ω_u = Σ_(bit t of u) β_t`, and its constant is `c = s_i(ω_(m·2^(i+1))) = ω_(2m)`, the
//! same at every level.
//!
//! ## Between the bases
//! From monomials: for `f` of degree below `2^m`, divide by `s_(m-1)` (degree `2^(m-1)`, its
//! terms `x^(2^j)` for `j ⊆ m - 1`: only xors), `f = r + s_(m-1)·q`; then the novel coordinates
//! of `f` are those of `r` followed by those of `q`, recursively. The way back undoes each step
//! in the opposite order. Both cost `2^m` xors times the number of terms of `s_(m-1)`, per level.

/// The field polynomial's low part: `t^64 = t^4 + t^3 + t + 1` in `GF(2^64)`.
const LOW: u64 = 0x1b;

/// From this many values on, a transform's halves run on two threads (feature `parallel`).
#[cfg(feature = "parallel")]
const PARALLEL_VALUES: usize = 1 << 14;

/// Sizes of transform up to `2^MAX_LOG` values (`MAX_LOG < 64`: Cantor's basis has 64 terms).
pub const MAX_LOG: u32 = 40;

/// Multiplication in `K = GF(2^64)` through a carry-less product (the argument).
#[inline(always)]
fn kmul(a: u64, b: u64, clmul: impl Fn(u64, u64) -> (u64, u64)) -> u64 {
    let (lo, hi) = clmul(a, b);
    // hi·t^64 = hi·(t^4 + t^3 + t + 1): at most 68 bits, folded once more.
    let (l2, h2) = clmul(hi, LOW);
    let (l3, _) = clmul(h2, LOW);
    lo ^ l2 ^ l3
}

/// Multiplication in `K = GF(2^64)`.
pub fn gf64_mul(a: u64, b: u64) -> u64 {
    kmul(a, b, super::clmul)
}

/// The first `count` terms of Cantor's basis of `GF(2^64)` (module documentation).
pub fn cantor_basis(count: usize) -> Vec<u64> {
    // Columns of the GF(2)-linear map x ↦ x² + x, eliminated once.
    let cols: Vec<u64> = (0..64)
        .map(|j| {
            let x = 1u64 << j;
            gf64_mul(x, x) ^ x
        })
        .collect();
    // pivots[b] = (vector with top bit b, the combination of columns giving it).
    let mut pivots: [Option<(u64, u64)>; 64] = [None; 64];
    for (j, &c) in cols.iter().enumerate() {
        let (mut v, mut comb) = (c, 1u64 << j);
        while v != 0 {
            let top = 63 - v.leading_zeros() as usize;
            match pivots[top] {
                Some((pv, pc)) => {
                    v ^= pv;
                    comb ^= pc;
                }
                None => {
                    pivots[top] = Some((v, comb));
                    break;
                }
            }
        }
    }
    let solve = |mut c: u64| -> Option<u64> {
        let mut x = 0u64;
        while c != 0 {
            let top = 63 - c.leading_zeros() as usize;
            let (pv, pc) = pivots[top]?;
            c ^= pv;
            x ^= pc;
        }
        Some(x)
    };
    let mut out = vec![1u64];
    while out.len() < count.min(64) {
        let prev = out[out.len() - 1];
        match solve(prev) {
            Some(x) => out.push(x),
            None => break,
        }
    }
    out
}

/// The constants `ω_(2m)` of the blocks `m < count` (module documentation).
fn twiddles(count: usize, basis: &[u64]) -> Vec<u64> {
    let mut tw = vec![0u64; count.max(1)];
    for m in 1..count {
        let t = m.trailing_zeros() as usize;
        tw[m] = tw[m & (m - 1)] ^ basis[t + 1];
    }
    tw
}

/// The exponents `2^j`, `j ⊆ i`, `j ≠ i`, of the terms of `s_i` below its leading one.
fn lower_terms(i: u32) -> Vec<usize> {
    let mut out = Vec::new();
    let mut j = i;
    // All subsets j of i, by the usual walk (j - 1) & i.
    loop {
        if j != i {
            out.push(1usize << j);
        }
        if j == 0 {
            break;
        }
        j = (j - 1) & i;
    }
    out
}

/// Monomial to novel coordinates, in place (`a.len()` a power of two).
fn to_novel(a: &mut [u64]) {
    let len = a.len();
    if len <= 1 {
        return;
    }
    let h = len / 2;
    let terms = lower_terms(h.trailing_zeros());
    for idx in (h..len).rev() {
        let q = a[idx];
        if q != 0 {
            for &e in &terms {
                a[idx - h + e] ^= q;
            }
        }
    }
    let (lo, hi) = a.split_at_mut(h);
    join_if(len, || to_novel(lo), || to_novel(hi));
}

/// Novel to monomial coordinates, in place: [`to_novel`] undone step by step.
fn from_novel(a: &mut [u64]) {
    let len = a.len();
    if len <= 1 {
        return;
    }
    let h = len / 2;
    {
        let (lo, hi) = a.split_at_mut(h);
        join_if(len, || from_novel(lo), || from_novel(hi));
    }
    let terms = lower_terms(h.trailing_zeros());
    for idx in h..len {
        let q = a[idx];
        if q != 0 {
            for &e in &terms {
                a[idx - h + e] ^= q;
            }
        }
    }
}

/// Runs both closures, on two threads for large sizes (feature `parallel`).
fn join_if(len: usize, f: impl FnOnce() + Send, g: impl FnOnce() + Send) {
    #[cfg(feature = "parallel")]
    if len >= PARALLEL_VALUES {
        rayon::join(f, g);
        return;
    }
    let _ = len;
    f();
    g();
}

/// One level of butterflies on a block split into halves `lo`, `hi` with constant `c`.
#[inline(always)]
fn butterflies(
    lo: &mut [u64],
    hi: &mut [u64],
    c: u64,
    inverse: bool,
    clmul: impl Fn(u64, u64) -> (u64, u64) + Copy,
) {
    if !inverse {
        if c == 0 {
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *y ^= *x;
            }
        } else {
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                *x ^= kmul(c, *y, clmul);
                *y ^= *x;
            }
        }
    } else if c == 0 {
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            *y ^= *x;
        }
    } else {
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            *y ^= *x;
            *x ^= kmul(c, *y, clmul);
        }
    }
}

/// A whole small transform, iteratively: block `m` of the input has block index `blk`.
#[inline(always)]
fn small_transform(
    a: &mut [u64],
    blk: usize,
    tw: &[u64],
    inverse: bool,
    clmul: impl Fn(u64, u64) -> (u64, u64) + Copy,
) {
    let k = a.len().trailing_zeros();
    let level = |a: &mut [u64], i: u32| {
        let size = 1usize << (i + 1);
        for (m, block) in a.chunks_mut(size).enumerate() {
            // Block index at this level: the top-level block's descendants.
            let b = (blk << (k - i - 1)) + m;
            let (lo, hi) = block.split_at_mut(size / 2);
            butterflies(lo, hi, tw[b], inverse, clmul);
        }
    };
    if inverse {
        for i in 0..k {
            level(a, i);
        }
    } else {
        for i in (0..k).rev() {
            level(a, i);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn small_transform_hw(a: &mut [u64], blk: usize, tw: &[u64], inverse: bool) {
    small_transform(a, blk, tw, inverse, |x, y| {
        // SAFETY: this function runs only where the instruction is present.
        unsafe { clmul_inline(x, y) }
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn butterflies_hw(lo: &mut [u64], hi: &mut [u64], c: u64, inverse: bool) {
    butterflies(lo, hi, c, inverse, |x, y| {
        // SAFETY: this function runs only where the instruction is present.
        unsafe { clmul_inline(x, y) }
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn pointwise_hw(a: &mut [u64], b: &[u64]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x = kmul(*x, y, |u, v| {
            // SAFETY: this function runs only where the instruction is present.
            unsafe { clmul_inline(u, v) }
        });
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "pclmulqdq", enable = "sse2")]
unsafe fn clmul_inline(a: u64, b: u64) -> (u64, u64) {
    use core::arch::x86_64::*;
    let r = _mm_clmulepi64_si128(_mm_cvtsi64_si128(a as i64), _mm_cvtsi64_si128(b as i64), 0);
    (
        _mm_cvtsi128_si64(r) as u64,
        _mm_cvtsi128_si64(_mm_srli_si128::<8>(r)) as u64,
    )
}

/// When a long product stops part-way ([`mul_until`]): [`Never`], or a cancel token and a
/// deadline ([`Deadline`]). Once `stopped` is true it stays true (a cancelled token stays
/// cancelled, a passed deadline stays passed), so work skipped part-way is always reported by
/// the `check` at the end and a product cut short is never returned.
pub trait Stop: Sync {
    /// What a stopped product returns.
    type Err;
    /// Whether to stop now.
    fn stopped(&self) -> bool;
    /// `Err` when stopped.
    fn check(&self) -> Result<(), Self::Err>;
}

/// A product that runs to its end.
pub struct Never;

impl Stop for Never {
    type Err = std::convert::Infallible;
    fn stopped(&self) -> bool {
        false
    }
    fn check(&self) -> Result<(), Self::Err> {
        Ok(())
    }
}

/// A product that stops when a token is cancelled or a deadline passes (those of a
/// [`crate::control::Control`]): [`crate::Error::Cancelled`].
pub struct Deadline {
    token: crate::control::CancelToken,
    deadline: Option<std::time::Instant>,
}

impl Deadline {
    /// The token and deadline of `ctl`.
    pub fn of(ctl: &crate::control::Control) -> Deadline {
        Deadline {
            token: ctl.token().clone(),
            deadline: ctl.deadline(),
        }
    }
}

impl Stop for Deadline {
    type Err = crate::Error;
    fn stopped(&self) -> bool {
        crate::control::interruption(&self.token, self.deadline).is_some()
    }
    fn check(&self) -> Result<(), Self::Err> {
        match crate::control::interruption(&self.token, self.deadline) {
            Some(why) => Err(crate::Error::Cancelled(why)),
            None => Ok(()),
        }
    }
}

/// From this many values on, a transform looks at its [`Stop`] before each level.
const STOP_VALUES: usize = 1 << 16;

/// Below this many values a transform is done iteratively in one call.
const SMALL: usize = 1 << 10;

/// The transform (or its inverse) of `a`, whose block index is `blk` at its level; given up
/// (leaving `a` part-way) when `stop` says so, looked at before each level of butterflies on
/// blocks of at least [`STOP_VALUES`] values.
fn transform_until<S: Stop>(a: &mut [u64], blk: usize, tw: &[u64], inverse: bool, stop: &S) {
    let len = a.len();
    if len >= STOP_VALUES && stop.stopped() {
        return;
    }
    if len <= SMALL {
        #[cfg(target_arch = "x86_64")]
        if super::has_clmul() {
            // SAFETY: the instruction's presence was checked at run time.
            unsafe { small_transform_hw(a, blk, tw, inverse) };
            return;
        }
        small_transform(a, blk, tw, inverse, super::clmul_portable);
        return;
    }
    let h = len / 2;
    let c = tw[blk];
    let level = |a: &mut [u64]| {
        let (lo, hi) = a.split_at_mut(h);
        split_butterflies(lo, hi, c, inverse);
    };
    if !inverse {
        level(a);
    }
    {
        let (lo, hi) = a.split_at_mut(h);
        join_if(
            len,
            || transform_until(lo, 2 * blk, tw, inverse, stop),
            || transform_until(hi, 2 * blk + 1, tw, inverse, stop),
        );
    }
    if inverse {
        if len >= STOP_VALUES && stop.stopped() {
            return;
        }
        level(a);
    }
}

/// [`butterflies`] on long halves, in two pieces on two threads when long (feature `parallel`).
fn split_butterflies(lo: &mut [u64], hi: &mut [u64], c: u64, inverse: bool) {
    let len = lo.len();
    if len >= PARALLEL_HALF {
        let (l0, l1) = lo.split_at_mut(len / 2);
        let (h0, h1) = hi.split_at_mut(len / 2);
        join_if(
            len,
            || split_butterflies(l0, h0, c, inverse),
            || split_butterflies(l1, h1, c, inverse),
        );
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if super::has_clmul() {
        // SAFETY: the instruction's presence was checked at run time.
        unsafe { butterflies_hw(lo, hi, c, inverse) };
        return;
    }
    butterflies(lo, hi, c, inverse, super::clmul_portable);
}

/// Half-blocks from this length on are cut in two for [`split_butterflies`] (on two threads
/// with the feature `parallel`).
const PARALLEL_HALF: usize = 1 << 15;

/// The pointwise products `a_i ← a_i·b_i` in `K`.
fn pointwise(a: &mut [u64], b: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    if super::has_clmul() {
        // SAFETY: the instruction's presence was checked at run time.
        unsafe { pointwise_hw(a, b) };
        return;
    }
    for (x, &y) in a.iter_mut().zip(b) {
        *x = gf64_mul(*x, y);
    }
}

/// The number of values `2^k` a product of operands of `wa` and `wb` words transforms
/// (`2(wa + wb) - 1` pieces of 32 bits, rounded up to a power of two).
pub fn transform_len(wa: usize, wb: usize) -> usize {
    (2 * (wa + wb)).saturating_sub(1).max(1).next_power_of_two()
}

/// The bytes a product of operands of `wa` and `wb` words works in: two transforms and the
/// product.
pub fn product_bytes(wa: usize, wb: usize) -> u64 {
    16 * transform_len(wa, wb) as u64 + 8 * (wa + wb) as u64
}

/// The product `a·b` (length `a.len() + b.len()` words) by the additive transform (module
/// documentation). Operands whose transform would pass `2^MAX_LOG` values (Cantor's basis
/// and the twiddles are built for at most that many) are cut: the longer one in halves,
/// `a = a_0 + x^(64h)·a_1`, `a·b = a_0·b + x^(64h)·a_1·b`, until the pieces fit; so every size
/// is taken, and no transform beyond the limit is ever built.
pub fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    match mul_until(a, b, &Never) {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

/// [`mul`], stopped part-way when `stop` says so: between the transforms and before each
/// level of their butterflies on long blocks; then `Err` and no product.
pub fn mul_until<S: Stop>(a: &[u64], b: &[u64], stop: &S) -> Result<Vec<u64>, S::Err> {
    mul_within(a, b, MAX_LOG, stop)
}

/// [`mul_until`] with transforms of at most `2^max_log` values.
fn mul_within<S: Stop>(a: &[u64], b: &[u64], max_log: u32, stop: &S) -> Result<Vec<u64>, S::Err> {
    let words = a.len() + b.len();
    let mut out = vec![0u64; words];
    if a.is_empty() || b.is_empty() {
        return Ok(out);
    }
    let n = transform_len(a.len(), b.len());
    let k = n.trailing_zeros();
    if k > max_log {
        let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        let h = long.len() / 2;
        for (off, half) in [(0, &long[..h]), (h, &long[h..])] {
            for (o, w) in out[off..]
                .iter_mut()
                .zip(mul_within(half, short, max_log, stop)?)
            {
                *o ^= w;
            }
        }
        return Ok(out);
    }
    let basis = cantor_basis(k as usize + 1);
    let tw = twiddles(n / 2, &basis);
    let load = |x: &[u64]| {
        let mut v = vec![0u64; n];
        for (i, &w) in x.iter().enumerate() {
            v[2 * i] = w & 0xffff_ffff;
            v[2 * i + 1] = w >> 32;
        }
        to_novel(&mut v);
        transform_until(&mut v, 0, &tw, false, stop);
        v
    };
    let mut fa = load(a);
    stop.check()?;
    if std::ptr::eq(a, b) {
        let fb = fa.clone();
        pointwise(&mut fa, &fb);
    } else {
        let fb = load(b);
        stop.check()?;
        pointwise(&mut fa, &fb);
    }
    transform_until(&mut fa, 0, &tw, true, stop);
    stop.check()?;
    from_novel(&mut fa);
    // C_k has at most 63 bits, at bit 32k.
    for (i, &c) in fa.iter().enumerate().take(2 * words) {
        let (w, s) = (i / 2, 32 * (i % 2));
        out[w] ^= c << s;
        if s > 0 && w + 1 < words {
            out[w + 1] ^= c >> (64 - s);
        }
    }
    Ok(out)
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

    #[test]
    fn cantor_basis_is_a_chain_of_artin_schreier_roots() {
        let b = cantor_basis(64);
        assert_eq!(b.len(), 64);
        assert_eq!(b[0], 1);
        for i in 1..64 {
            assert_eq!(gf64_mul(b[i], b[i]) ^ b[i], b[i - 1], "β_{i}");
        }
        // Linearly independent over GF(2): elimination keeps all 64.
        let mut rows = b.clone();
        for bit in (0..64).rev() {
            let Some(p) = rows
                .iter()
                .position(|&r| r >> bit & 1 == 1 && r >> bit == 1)
            else {
                panic!("dependent at bit {bit}");
            };
            let pr = rows.swap_remove(p);
            for r in rows.iter_mut() {
                if *r >> bit & 1 == 1 {
                    *r ^= pr;
                }
            }
        }
        // The field polynomial is irreducible: t^(2^64) = t and t^(2^32) ≠ t.
        let mut x = 2u64;
        for i in 1..=64 {
            x = gf64_mul(x, x);
            if i == 32 {
                assert_ne!(x, 2);
            }
        }
        assert_eq!(x, 2);
    }

    #[test]
    fn subspace_polynomials_vanish_on_their_subspaces() {
        // s_i(x) = Σ_(j ⊆ i) x^(2^j) vanishes on V_i and is 1 at β_i.
        let b = cantor_basis(12);
        let s = |i: u32, x: u64| {
            let mut terms = lower_terms(i);
            terms.push(1 << i);
            terms.iter().fold(0u64, |acc, &e| {
                let mut y = x;
                for _ in 0..e.trailing_zeros() {
                    y = gf64_mul(y, y);
                }
                acc ^ y
            })
        };
        for i in 0..8u32 {
            for u in 0..1usize << i {
                let v = (0..i as usize)
                    .filter(|t| u >> t & 1 == 1)
                    .fold(0, |a, t| a ^ b[t]);
                assert_eq!(s(i, v), 0, "s_{i}(ω_{u})");
            }
            assert_eq!(s(i, b[i as usize]), 1);
        }
    }

    #[test]
    fn transform_is_evaluation_in_the_novel_basis() {
        // Evaluate Σ d_j X_j at ω_u directly and compare with the transform's u-th value.
        let b = cantor_basis(8);
        let k = 5u32;
        let n = 1usize << k;
        let d: Vec<u64> = (0..n as u64)
            .map(|j| j.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 7)
            .collect();
        let s = |i: u32, x: u64| -> u64 {
            // s_i = s_1 applied i times.
            (0..i).fold(x, |y, _| gf64_mul(y, y) ^ y)
        };
        let mut t = d.clone();
        let tw = twiddles(n / 2, &b);
        transform_until(&mut t, 0, &tw, false, &Never);
        for u in 0..n {
            let x = (0..k as usize)
                .filter(|t| u >> t & 1 == 1)
                .fold(0, |a, t| a ^ b[t]);
            let mut want = 0u64;
            for (j, &dj) in d.iter().enumerate() {
                let xj = (0..k)
                    .filter(|bit| j >> bit & 1 == 1)
                    .fold(1u64, |acc, bit| gf64_mul(acc, s(bit, x)));
                want ^= gf64_mul(dj, xj);
            }
            assert_eq!(t[u], want, "value {u}");
        }
        transform_until(&mut t, 0, &tw, true, &Never);
        assert_eq!(t, d);
    }

    #[test]
    fn novel_basis_conversion_round_trips_and_matches_the_definition() {
        // X_j as monomial-basis polynomials over GF(2) ⊂ K; the conversion of X_j is e_j.
        let k = 6u32;
        let n = 1usize << k;
        let s_poly = |i: u32| {
            let mut p = vec![0u64; n];
            let mut terms = lower_terms(i);
            terms.push(1 << i);
            for e in terms {
                p[e] = 1;
            }
            p
        };
        let mul_poly = |a: &[u64], b: &[u64]| {
            let mut out = vec![0u64; n];
            for (i, &x) in a.iter().enumerate() {
                for (j, &y) in b.iter().enumerate() {
                    if x != 0 && y != 0 && i + j < n {
                        out[i + j] ^= gf64_mul(x, y);
                    }
                }
            }
            out
        };
        for j in 0..n {
            let mut xj = vec![0u64; n];
            xj[0] = 1;
            for bit in 0..k {
                if j >> bit & 1 == 1 {
                    xj = mul_poly(&xj, &s_poly(bit));
                }
            }
            let mut v = xj.clone();
            to_novel(&mut v);
            let mut e = vec![0u64; n];
            e[j] = 1;
            assert_eq!(v, e, "X_{j}");
            from_novel(&mut v);
            assert_eq!(v, xj);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn products_agree_with_shift_xor_and_karatsuba(
            a in proptest::collection::vec(any::<u64>(), 1..200),
            b in proptest::collection::vec(any::<u64>(), 1..200),
        ) {
            let want = super::super::reference::mul_shift_xor(&a, &b);
            prop_assert_eq!(trim(mul(&a, &b)), trim(want.clone()));
            prop_assert_eq!(trim(super::super::mul_karatsuba(&a, &b)), trim(want));
            prop_assert_eq!(mul(&a, &a), super::super::square(&a));
        }

        /// Past the size limit the operands are cut until their transforms fit: with a limit
        /// of `2^2..2^6` values instead of `2^MAX_LOG`, the cut products still agree.
        #[test]
        fn products_past_the_size_limit_are_cut(
            a in proptest::collection::vec(any::<u64>(), 1..100),
            b in proptest::collection::vec(any::<u64>(), 1..100),
            max_log in 2u32..7,
        ) {
            let want = super::super::reference::mul_shift_xor(&a, &b);
            let Ok(got) = mul_within(&a, &b, max_log, &Never);
            prop_assert_eq!(trim(got), trim(want));
        }
    }

    /// Stops from its `after`-th look on, counting the looks.
    struct StopAfter {
        looks: std::sync::atomic::AtomicUsize,
        after: usize,
    }

    impl Stop for StopAfter {
        type Err = ();
        fn stopped(&self) -> bool {
            self.looks
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                >= self.after
        }
        fn check(&self) -> Result<(), ()> {
            if self.stopped() {
                Err(())
            } else {
                Ok(())
            }
        }
    }

    /// A product of `2^18`-value transforms looks at its stop inside the transforms (more
    /// than the three checks between them) and returns no product once stopped, at any point;
    /// never stopped it is the product. A cancelled control stops it too.
    #[test]
    fn long_products_stop_part_way() {
        let a: Vec<u64> = (0..40_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9))
            .collect();
        let b: Vec<u64> = (0..40_000u64).map(|i| i ^ 0x5555).collect();
        let free = StopAfter {
            looks: 0.into(),
            after: usize::MAX,
        };
        assert_eq!(
            mul_until(&a, &b, &free).unwrap(),
            super::super::mul_karatsuba(&a, &b)
        );
        let looks = free.looks.into_inner();
        assert!(looks > 3, "{looks}");
        for after in [0, 1, 2, looks / 2, looks - 1] {
            let stop = StopAfter {
                looks: 0.into(),
                after,
            };
            assert_eq!(mul_until(&a, &b, &stop), Err(()), "{after} of {looks}");
        }
        let token = crate::control::CancelToken::new();
        token.cancel();
        let ctl = crate::control::Control::none().with_token(token);
        assert!(matches!(
            mul_until(&a, &b, &Deadline::of(&ctl)),
            Err(crate::Error::Cancelled(_))
        ));
    }

    #[test]
    fn large_products_agree_with_karatsuba() {
        // Edge sizes around powers of two, all-ones operands (the largest pieces) and random
        // ones, up to transforms past the parallel thresholds.
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (wa, wb) in [
            (1, 1),
            (2, 1),
            (8, 8),
            (511, 513),
            (4096, 4096),
            (3000, 70000),
        ] {
            let a: Vec<u64> = (0..wa).map(|_| next()).collect();
            let b: Vec<u64> = (0..wb).map(|_| next()).collect();
            assert_eq!(
                mul(&a, &b),
                super::super::mul_karatsuba(&a, &b),
                "{wa}×{wb}"
            );
            let ones_a = vec![u64::MAX; wa];
            let ones_b = vec![u64::MAX; wb];
            assert_eq!(
                mul(&ones_a, &ones_b),
                super::super::mul_karatsuba(&ones_a, &ones_b),
                "ones {wa}×{wb}"
            );
        }
    }
}
