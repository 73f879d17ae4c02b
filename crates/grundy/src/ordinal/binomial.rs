//! Finite pieces `GF(2^M)` of the field below `ω^(ω^ω)` kept as towers of binomial extensions,
//! never flattened: memory linear in `M`, products through one carry-less polynomial product,
//! squares and Frobenius powers without exponent-sized chains.
//!
//! ## The tower
//! Level 0 is the field of nimbers below `2^D` (`D = 2^J ≤ 64`) in a polynomial basis
//! `GF(2)[z]/(P_0)` (from [`super::tower::Tower::nimbers`]). Level `i ≥ 1` adjoins
//! `Y_i = κ_(p^K)` for one odd prime `p` with `Y_i^(n_i) = α_p`, `n_i = p^K`; `α_p` lies in level
//! `i - 1` and is irreducible-making (`Y^n - α_p` is irreducible because `α_p` is not a `p`-th
//! power there: Capelli). So `F_i = F_(i-1)[Y_i]/(Y_i^(n_i) - α_i)` and an element of `F_L` is an
//! array of `W_L = n_1 ⋯ n_L` level-0 words indexed by `t_1 + n_1·(t_2 + n_2·(…))`: the
//! coefficient of `Y_1^(t_1) ⋯ Y_L^(t_L)`. These coordinates are exactly the κ-polynomial's
//! ([`super::nim_mul`]): the monomial `ω^(ω^j·a)` is `Y^(a reversed in K base-p digits)`, so
//! conversion is a relabelling.
//!
//! The excesses are *sparse* in these coordinates: `α_p = κ_(f) + m_p` has a term per prime part
//! of `f` and a nimber. Multiplying by a monomial `c·Y_1^(e_1)⋯Y_i^(e_i)` moves blocks (the
//! blocks pushed past `Y_i^(n_i)` wrap round times `α_i`, recursively sparse): `O(W)` work.
//!
//! ## The product
//! Substitute `Y_i ↦ x^(S_(i-1))` with `S_0 = 2D - 1` and `S_i = S_(i-1)·(2n_i - 1)` (Kronecker):
//! the product of the two images in `GF(2)[x]` ([`super::gf2::mul`]: Karatsuba on carry-less word
//! products) holds every coefficient of the product polynomial in its own slot, since each
//! exponent of the product of two reduced monomials stays below `2n_i - 1` (below `2D - 1` at
//! level 0). Reading the slots back gives the unreduced product; it is reduced level by level
//! from the bottom: level-0 coefficients modulo `P_0`, then at each level `i` the blocks
//! `Y_i^(n_i + u)` folded onto `Y_i^u` times `α_i` (a sparse product in the already reduced
//! `F_(i-1)`). A square is the same reduction of `Σ a_t² Y^(2t)` (characteristic 2), without any
//! product: linear in `W`.
//!
//! ## Frobenius powers
//! `φ_s(x) = x^(2^s)` is a field automorphism. At level `i` write `Y^(2^s) = Y^r·γ` with
//! `r = 2^s mod n` and `γ = α^((2^s - r)/n) ∈ F_(i-1)`. Then
//! `φ_s(Σ_t x_t Y^t) = Σ_t φ_s(x_t)·Y^(rt mod n)·δ_t` with `δ_t = γ^t·α^(⌊rt/n⌋)`: recursive,
//! `n` products in `F_(i-1)` a level once the `δ_t` are tabulated. Tables compose: from
//! `Y^(2^(s+u)) = φ_u(Y^(r_s) γ_s) = Y^(r_s r_u)·γ_u^(r_s)·φ_u(γ_s)` follows
//! `r_(s+u) = r_s r_u mod n` and `γ_(s+u) = γ_u^(r_s)·φ_u(γ_s)·α^(⌊r_s r_u/n⌋)`, starting from
//! `φ_1` (`r = 2`, `γ = 1`). So `φ_s` costs `O(log s)` compositions, never `s` squarings.
//!
//! ## The `p`-th power test by a norm
//! For `x ∈ GF(2^M)` and `f | M` ([`super::excess`]: `x` is not a `p`-th power iff
//! `x^((2^M-1)/p) ≠ 1`), `(2^M - 1)/p = ((2^M - 1)/(2^f - 1))·((2^f - 1)/p)` and the first factor
//! is the norm to `GF(2^f)`: `N(x) = x^(1 + 2^f + 2^(2f) + ⋯) = Π_(i < M/f) φ_(if)(x)`. With
//! `N_j = Π_(i<j) φ_(if)(x)`, `N_(2j) = N_j·φ_(jf)(N_j)` and `N_(2j+1) = x·φ_f(N_(2j))`
//! (Itoh–Tsujii), so `N_(M/f)` takes `O(log(M/f))` products and Frobenius powers; the remaining
//! exponent `(2^f - 1)/p` has `f` bits (`f < p`).

use super::gf2::{self, clmul};
use crate::control::Control;
use crate::{Error, Result};
use num_bigint::BigUint;
use num_traits::One;

/// The largest degree `M` over GF(2) of a binomial tower (elements take `M/D` words; a product
/// needs about `2^(L+1)·M` bits for `L` levels).
pub const MAX_BINOMIAL_DEGREE: usize = 1 << 28;

/// A monomial `c·Y_1^(e_1)⋯Y_i^(e_i)` of level `i`: the level-0 coefficient and the exponents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monomial {
    /// The coefficient, an element of level 0.
    pub c: u64,
    /// `e[k]` is the exponent of `Y_(k+1)`.
    pub e: Vec<usize>,
}

/// An element given by its few nonzero monomials.
pub type Sparse = Vec<Monomial>;

/// One binomial level `Y^n = α`.
#[derive(Clone, Debug)]
struct Level {
    n: usize,
    alpha: Sparse,
}

/// A tower of binomial extensions over the nimbers below `2^D` (module documentation).
#[derive(Clone, Debug)]
pub struct BinomialTower {
    d: usize,
    /// `P_0 = z^D + low`.
    low: u64,
    levels: Vec<Level>,
    /// `α_1` as a level-0 word (0 before level 1 is adjoined).
    alpha1: u64,
    /// `w[i]` words per element of level `i`.
    w: Vec<usize>,
}

/// A Frobenius power `φ_s` tabulated per level (module documentation); `lv[i-1]` for level `i`.
#[derive(Clone, Debug)]
pub struct Frobenius {
    s: u64,
    lv: Vec<FrobLevel>,
}

#[derive(Clone, Debug)]
struct FrobLevel {
    r: usize,
    gamma: Vec<u64>,
    delta: Vec<Vec<u64>>,
}

impl Frobenius {
    /// The exponent `s` of `x ↦ x^(2^s)`.
    pub fn s(&self) -> u64 {
        self.s
    }
}

fn xor_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&w| w == 0)
}

/// Writes the low `bits` bits of `v` at bit `pos` of `out` (`bits ≤ 64`, the target zero).
fn put_bits(out: &mut [u64], pos: usize, v: u64) {
    let (w, b) = (pos / 64, pos % 64);
    out[w] |= v << b;
    if b > 0 {
        let hi = v >> (64 - b);
        if hi != 0 {
            out[w + 1] |= hi;
        }
    }
}

/// Reads `bits ≤ 128` bits at bit `pos` of `a` (zero beyond its end).
fn get_bits(a: &[u64], pos: usize, bits: usize) -> u128 {
    let (w, b) = (pos / 64, pos % 64);
    let g = |i: usize| a.get(i).copied().unwrap_or(0) as u128;
    let mut v = g(w) >> b;
    v |= g(w + 1) << (64 - b);
    if b > 0 {
        v |= g(w + 2) << (128 - b);
    }
    if bits < 128 {
        v &= (1u128 << bits) - 1;
    }
    v
}

impl BinomialTower {
    /// Level 0 alone: `GF(2)[z]/(P_0)` for the modulus `P_0` of degree `D ≤ 64` given by its
    /// words (bit `D` set).
    pub fn new(modulus: &[u64]) -> Result<Self> {
        let d = gf2::degree(modulus).unwrap_or(0);
        if !(1..=64).contains(&d) {
            return Err(Error::Internal(format!("level-0 degree {d} out of 1..=64")));
        }
        let low = modulus[0] & if d == 64 { u64::MAX } else { (1u64 << d) - 1 };
        Ok(BinomialTower {
            d,
            low,
            levels: Vec::new(),
            alpha1: 0,
            w: vec![1],
        })
    }

    /// Adjoins `Y` with `Y^n = α`, `α` an element of the current top level given sparsely (its
    /// exponent vectors as long as the number of levels). The caller promises `Y^n - α`
    /// irreducible (`n` odd, `α` not an `l`-th power for the primes `l | n`).
    pub fn adjoin(&mut self, n: usize, alpha: Sparse) -> Result<()> {
        let top = self.levels.len();
        if n < 2 || alpha.iter().any(|m| m.e.len() != top) {
            return Err(Error::Internal("malformed binomial level".into()));
        }
        let w = self.w[top]
            .checked_mul(n)
            .filter(|&w| w.saturating_mul(self.d) <= MAX_BINOMIAL_DEGREE)
            .ok_or_else(|| {
                Error::limit(
                    crate::LimitKind::FieldDegree,
                    format!(
                        "the finite field needed has degree {}·{n} over GF(2), above \
                         {MAX_BINOMIAL_DEGREE}",
                        self.degree()
                    ),
                    "this is the largest field the binomial towers hold",
                )
            })?;
        for (k, m) in alpha.iter().enumerate() {
            if m.e.iter().zip(&self.levels).any(|(&e, l)| e >= l.n) {
                return Err(Error::Internal(format!("term {k} of α is not reduced")));
            }
        }
        if top == 0 {
            self.alpha1 = alpha.iter().fold(0, |a, m| a ^ self.reduce0(m.c as u128));
        }
        self.levels.push(Level { n, alpha });
        self.w.push(w);
        Ok(())
    }

    /// The number of binomial levels `L`.
    pub fn height(&self) -> usize {
        self.levels.len()
    }

    /// The degree `M = D·n_1⋯n_L` of the top field over GF(2).
    pub fn degree(&self) -> usize {
        self.d * self.w[self.levels.len()]
    }

    /// Words per element of the top field.
    pub fn words(&self) -> usize {
        self.w[self.levels.len()]
    }

    /// The bytes a product in the top field works in at most: its Kronecker operands and
    /// product, the unreduced coefficients, and Karatsuba's scratch or the additive transforms
    /// of [`super::cantor_fft`] (a bound, for the budget).
    pub fn product_bytes(&self) -> u64 {
        let slots: u64 = self.levels.iter().map(|l| 2 * l.n as u64 - 1).product();
        let bits = slots * (2 * self.d as u64 - 1);
        let words = bits.div_ceil(64) + 1;
        let work = if words as usize >= gf2::FFT_WORDS {
            super::cantor_fft::product_bytes(words as usize, words as usize)
        } else {
            // Karatsuba's scratch: about four words per operand word.
            32 * words
        };
        // Two operands and their product (four words per operand word), the work, and the
        // unreduced coefficients.
        32 * words + work + 8 * slots + 64
    }

    /// The bytes an excess test works in, at most: a product's ([`Self::product_bytes`]), the
    /// window of odd powers and the operands (a dozen elements), and four Frobenius tables (each
    /// an element per level, the `δ_t`, about `1 + 1/n_L + …` top elements).
    pub fn working_bytes(&self) -> u64 {
        let element = 8 * self.words() as u64;
        self.product_bytes() + 12 * element + 4 * 2 * element
    }

    /// The element `c·Y_1^(e_1)⋯Y_L^(e_L)` of the top field (exponents reduced).
    pub fn monomial(&self, m: &Monomial) -> Result<Vec<u64>> {
        let top = self.levels.len();
        if m.e.len() != top || m.e.iter().zip(&self.levels).any(|(&e, l)| e >= l.n) {
            return Err(Error::Internal("monomial outside the tower".into()));
        }
        let mut v = vec![0u64; self.words()];
        v[self.index(&m.e)] = self.reduce0(m.c as u128);
        Ok(v)
    }

    fn index(&self, e: &[usize]) -> usize {
        e.iter().zip(&self.w).map(|(&t, &w)| t * w).sum::<usize>()
    }

    /// The element 1 of level `i`.
    fn one_at(&self, i: usize) -> Vec<u64> {
        let mut v = vec![0u64; self.w[i]];
        v[0] = 1;
        v
    }

    /// The element 1 of the top field.
    pub fn one(&self) -> Vec<u64> {
        self.one_at(self.levels.len())
    }

    /// Whether `a` is 1.
    pub fn is_one(&self, a: &[u64]) -> bool {
        a.first() == Some(&1) && is_zero(&a[1..])
    }

    /// `v mod P_0` for `v` of degree below `2D - 1`: `z^D ≡ low`, repeated.
    fn reduce0(&self, mut v: u128) -> u64 {
        let d = self.d as u32;
        while v >> d != 0 {
            let hi = (v >> d) as u64;
            let lo = if d == 64 {
                v as u64 as u128
            } else {
                v & ((1u128 << d) - 1)
            };
            let (a, b) = clmul(hi, self.low);
            v = lo ^ (a as u128 | ((b as u128) << 64));
        }
        v as u64
    }

    fn mul0(&self, a: u64, b: u64) -> u64 {
        let (lo, hi) = clmul(a, b);
        self.reduce0(lo as u128 | ((hi as u128) << 64))
    }

    /// `out ^= x·c·Y_1^(e_1)⋯Y_i^(e_i)` for `x` in level `i` (module documentation): blocks
    /// move up by `e_i`, those passing `Y_i^(n_i)` wrap round times `α_i`.
    fn mul_monomial_into(&self, i: usize, x: &[u64], c: u64, e: &[usize], out: &mut [u64]) {
        if i == 0 {
            out[0] ^= self.mul0(x[0], c);
            return;
        }
        let n = self.levels[i - 1].n;
        let shift = e[i - 1];
        if i == 1 {
            // Blocks are words and α_1 is a word.
            for (t, &v) in x.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let mut y = if c == 1 { v } else { self.mul0(v, c) };
                let mut u = t + shift;
                if u >= n {
                    u -= n;
                    y = self.mul0(y, self.alpha1);
                }
                out[u] ^= y;
            }
            return;
        }
        let b = self.w[i - 1];
        let mut tmp: Vec<u64> = Vec::new();
        for t in 0..n {
            let blk = &x[t * b..(t + 1) * b];
            if is_zero(blk) {
                continue;
            }
            let u = t + shift;
            if u < n {
                self.mul_monomial_into(i - 1, blk, c, &e[..i - 1], &mut out[u * b..(u + 1) * b]);
            } else {
                tmp.clear();
                tmp.resize(b, 0);
                self.mul_monomial_into(i - 1, blk, c, &e[..i - 1], &mut tmp);
                let u = u - n;
                self.mul_sparse_into(
                    i - 1,
                    &tmp,
                    &self.levels[i - 1].alpha,
                    &mut out[u * b..(u + 1) * b],
                );
            }
        }
    }

    /// `out ^= x·s` for `x` in level `i` and a sparse element `s` of level `i`.
    fn mul_sparse_into(&self, i: usize, x: &[u64], s: &Sparse, out: &mut [u64]) {
        for m in s {
            if m.c == 1 && m.e.iter().all(|&e| e == 0) {
                xor_into(out, x);
            } else {
                self.mul_monomial_into(i, x, m.c, &m.e, out);
            }
        }
    }

    /// `x·s` for `x` in level `i` and a sparse element `s` of level `i`.
    fn mul_sparse(&self, i: usize, x: &[u64], s: &Sparse) -> Vec<u64> {
        let mut out = vec![0u64; self.w[i]];
        self.mul_sparse_into(i, x, s, &mut out);
        out
    }

    /// Reduces unreduced coefficients: `v[idx]` is the level-0 coefficient (already reduced
    /// modulo `P_0`) of `Y_1^(u_1)⋯Y_i^(u_i)` with `u_k < 2n_k - 1`, `idx` in mixed radix
    /// `(2n_1 - 1, …, 2n_i - 1)`. Folds level by level from the bottom (module documentation).
    fn reduce_levels(&self, i: usize, mut v: Vec<u64>) -> Vec<u64> {
        for k in 1..=i {
            let (n, b) = (self.levels[k - 1].n, self.w[k - 1]);
            let s = 2 * n - 1;
            let groups = v.len() / (s * b);
            let mut out = vec![0u64; groups * n * b];
            for g in 0..groups {
                let src = &v[g * s * b..(g + 1) * s * b];
                let dst = &mut out[g * n * b..(g + 1) * n * b];
                dst.copy_from_slice(&src[..n * b]);
                for u in n..s {
                    let blk = &src[u * b..(u + 1) * b];
                    if is_zero(blk) {
                        continue;
                    }
                    self.mul_sparse_into(
                        k - 1,
                        blk,
                        &self.levels[k - 1].alpha,
                        &mut dst[(u - n) * b..(u - n + 1) * b],
                    );
                }
            }
            v = out;
        }
        v
    }

    /// The mixed-radix index `(2n_1 - 1, …)` of the compact index `idx` with every exponent
    /// multiplied by `mult` (1 for a product's operands, 2 for a square).
    fn padded_index(&self, i: usize, mut idx: usize, mult: usize) -> usize {
        let mut out = 0usize;
        let mut scale = 1usize;
        for l in &self.levels[..i] {
            out += mult * (idx % l.n) * scale;
            idx /= l.n;
            scale *= 2 * l.n - 1;
        }
        out
    }

    /// The product `a·b` in level `i`.
    fn mul_at(&self, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
        if i == 0 {
            return vec![self.mul0(a[0], b[0])];
        }
        let slots: usize = self.levels[..i].iter().map(|l| 2 * l.n - 1).product();
        let s0 = 2 * self.d - 1;
        let words = (slots * s0).div_ceil(64) + 1;
        let pack = |x: &[u64]| {
            let mut out = vec![0u64; words];
            for (idx, &c) in x.iter().enumerate() {
                if c != 0 {
                    put_bits(&mut out, self.padded_index(i, idx, 1) * s0, c);
                }
            }
            out
        };
        let (pa, pb) = (pack(a), pack(b));
        let prod = gf2::mul(&pa, &pb);
        drop((pa, pb));
        let v: Vec<u64> = (0..slots)
            .map(|c| self.reduce0(get_bits(&prod, c * s0, s0)))
            .collect();
        drop(prod);
        self.reduce_levels(i, v)
    }

    /// The square `a²` in level `i`: `Σ a_t² Y^(2t)`, reduced.
    fn square_at(&self, i: usize, a: &[u64]) -> Vec<u64> {
        if i == 0 {
            return vec![self.mul0(a[0], a[0])];
        }
        let slots: usize = self.levels[..i].iter().map(|l| 2 * l.n - 1).product();
        let mut v = vec![0u64; slots];
        for (idx, &c) in a.iter().enumerate() {
            if c != 0 {
                v[self.padded_index(i, idx, 2)] = self.mul0(c, c);
            }
        }
        self.reduce_levels(i, v)
    }

    /// The product `a·b` in the top field.
    pub fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        self.mul_at(self.levels.len(), a, b)
    }

    /// The square `a²` in the top field.
    pub fn square(&self, a: &[u64]) -> Vec<u64> {
        self.square_at(self.levels.len(), a)
    }

    /// `a·s` for a sparse `s` of the top field.
    pub fn mul_by_sparse(&self, a: &[u64], s: &Sparse) -> Vec<u64> {
        self.mul_sparse(self.levels.len(), a, s)
    }

    /// `a^e` in level `i`, left-to-right square-and-multiply with a 4-bit sliding window
    /// ([`super::gf2::window_pow`]), looking at `ctl` before each step.
    fn pow_at(&self, i: usize, a: &[u64], e: &BigUint, ctl: &Control) -> Result<Vec<u64>> {
        super::gf2::window_pow(
            a,
            e,
            || self.one_at(i),
            |x| self.square_at(i, x),
            |x, y| self.mul_at(i, x, y),
            |read| ctl.check(read),
        )
    }

    /// `a^e` in the top field.
    pub fn pow(&self, a: &[u64], e: &BigUint, ctl: &Control) -> Result<Vec<u64>> {
        self.pow_at(self.levels.len(), a, e, ctl)
    }

    /// `a^k` in level `i` for a small `k`.
    fn pow_small(&self, i: usize, a: &[u64], k: usize) -> Vec<u64> {
        let mut r = self.one_at(i);
        for b in (0..usize::BITS - k.leading_zeros()).rev() {
            r = self.square_at(i, &r);
            if (k >> b) & 1 == 1 {
                r = self.mul_at(i, &r, a);
            }
        }
        r
    }

    /// The table of `φ_1`, `x ↦ x²`: `r = 2`, `γ = 1` at every level.
    pub fn frobenius_one(&self) -> Frobenius {
        let mut lv: Vec<FrobLevel> = Vec::new();
        for i in 1..=self.levels.len() {
            let gamma = self.one_at(i - 1);
            lv.push(self.frob_level(i, 2 % self.levels[i - 1].n, gamma));
        }
        Frobenius { s: 1, lv }
    }

    /// The level-`i` table from `r` and `γ`: `δ_t = γ^t·α^(⌊rt/n⌋)`.
    fn frob_level(&self, i: usize, r: usize, gamma: Vec<u64>) -> FrobLevel {
        let n = self.levels[i - 1].n;
        let trivial = self.is_one(&gamma);
        let mut delta: Vec<Vec<u64>> = Vec::with_capacity(n);
        let mut cur = self.one_at(i - 1);
        for t in 0..n {
            if t > 0 {
                if !trivial {
                    cur = self.mul_at(i - 1, &cur, &gamma);
                }
                if (r * t) / n > (r * (t - 1)) / n {
                    cur = self.mul_sparse(i - 1, &cur, &self.levels[i - 1].alpha);
                }
            }
            delta.push(cur.clone());
        }
        FrobLevel { r, gamma, delta }
    }

    /// `φ_s(x)` for `x` in level `i` (module documentation).
    fn apply_at(&self, fr: &Frobenius, i: usize, x: &[u64]) -> Vec<u64> {
        if i == 0 {
            let mut v = x[0];
            for _ in 0..fr.s % self.d as u64 {
                v = self.mul0(v, v);
            }
            return vec![v];
        }
        let (n, b) = (self.levels[i - 1].n, self.w[i - 1]);
        let lv = &fr.lv[i - 1];
        let mut out = vec![0u64; self.w[i]];
        for t in 0..n {
            let blk = &x[t * b..(t + 1) * b];
            if is_zero(blk) {
                continue;
            }
            let y = self.apply_at(fr, i - 1, blk);
            let y = if t == 0 {
                y
            } else {
                self.mul_at(i - 1, &y, &lv.delta[t])
            };
            let u = (lv.r * t) % n;
            xor_into(&mut out[u * b..(u + 1) * b], &y);
        }
        out
    }

    /// `φ_s(x) = x^(2^s)` in the top field.
    pub fn apply(&self, fr: &Frobenius, x: &[u64]) -> Vec<u64> {
        self.apply_at(fr, self.levels.len(), x)
    }

    /// The table of `φ_(s+u)` from those of `φ_s` and `φ_u` (module documentation).
    pub fn compose(&self, fs: &Frobenius, fu: &Frobenius) -> Frobenius {
        let mut lv: Vec<FrobLevel> = Vec::with_capacity(self.levels.len());
        for i in 1..=self.levels.len() {
            let n = self.levels[i - 1].n;
            let (a, b) = (&fs.lv[i - 1], &fu.lv[i - 1]);
            let mut gamma = self.pow_small(i - 1, &b.gamma, a.r);
            let moved = self.apply_at(fu, i - 1, &a.gamma);
            gamma = self.mul_at(i - 1, &gamma, &moved);
            for _ in 0..(a.r * b.r) / n {
                gamma = self.mul_sparse(i - 1, &gamma, &self.levels[i - 1].alpha);
            }
            lv.push(self.frob_level(i, (a.r * b.r) % n, gamma));
        }
        Frobenius { s: fs.s + fu.s, lv }
    }

    /// The table of `φ_s`, `s ≥ 1`, by doubling and adding from `φ_1` (`O(log s)` compositions).
    pub fn frobenius(&self, s: u64, ctl: &Control) -> Result<Frobenius> {
        if s == 0 {
            return Err(Error::Internal("φ_0 is not tabulated".into()));
        }
        let one = self.frobenius_one();
        let mut fr = one.clone();
        for b in (0..63 - s.leading_zeros()).rev() {
            ctl.stop_check()?;
            fr = self.compose(&fr, &fr);
            if (s >> b) & 1 == 1 {
                fr = self.compose(&fr, &one);
            }
        }
        Ok(fr)
    }

    /// The norm `N(x) = Π_(i < M/f) x^(2^(if))` of `x` to `GF(2^f)`, `f | M`, by the
    /// Itoh–Tsujii chain of the module documentation.
    pub fn norm(&self, x: &[u64], f: u64, ctl: &Control) -> Result<Vec<u64>> {
        let m = self.degree() as u64;
        if f == 0 || !m.is_multiple_of(f) {
            return Err(Error::Internal(format!("{f} does not divide {m}")));
        }
        let k = m / f;
        if k == 1 {
            return Ok(x.to_vec());
        }
        let ff = self.frobenius(f, ctl)?;
        // fj = φ_(jf) for the current j.
        let mut fj = ff.clone();
        let mut nj = x.to_vec();
        let top = 63 - k.leading_zeros();
        for b in (0..top).rev() {
            ctl.stop_check()?;
            let moved = self.apply(&fj, &nj);
            nj = self.mul(&nj, &moved);
            let bit = (k >> b) & 1 == 1;
            if bit {
                nj = self.mul(x, &self.apply(&ff, &nj));
            }
            // The table for the next step (none needed after the last bit).
            if b > 0 {
                fj = self.compose(&fj, &fj);
                if bit {
                    fj = self.compose(&fj, &ff);
                }
            }
        }
        Ok(nj)
    }

    /// `x^((2^M - 1)/p)` for a prime `p` with `f(p) = f | M`: the norm to `GF(2^f)` raised to
    /// `(2^f - 1)/p` (module documentation). It is 1 exactly when `x` is a `p`-th power.
    pub fn pth_power_character(
        &self,
        x: &[u64],
        p: u64,
        f: u64,
        ctl: &Control,
    ) -> Result<Vec<u64>> {
        let n = self.norm(x, f, ctl)?;
        let e = ((BigUint::one() << f) - 1u32) / p;
        self.pow(&n, &e, ctl)
    }

    /// The same value by the other order, `N(x^((2^f - 1)/p))`: an independent route through
    /// the same field, for checks.
    pub fn pth_power_character_commuted(
        &self,
        x: &[u64],
        p: u64,
        f: u64,
        ctl: &Control,
    ) -> Result<Vec<u64>> {
        let e = ((BigUint::one() << f) - 1u32) / p;
        let y = self.pow(x, &e, ctl)?;
        self.norm(&y, f, ctl)
    }

    /// The degree over GF(2) of `x`: the least `d | M` with `x^(2^d) = x`, found by removing
    /// prime factors of `M` while `φ_(d/l)` still fixes `x` (the subfields of `GF(2^M)` are the
    /// `GF(2^d)`, `d | M`, the fixed fields of the `φ_d`).
    pub fn element_degree(&self, x: &[u64], ctl: &Control) -> Result<usize> {
        let m = self.degree();
        let mut d = m;
        for l in gf2::prime_factors(m as u64) {
            let l = l as usize;
            while d.is_multiple_of(l) {
                let fr = self.frobenius((d / l) as u64, ctl)?;
                if self.apply(&fr, x) != x {
                    break;
                }
                d /= l;
            }
        }
        Ok(d)
    }
}

#[cfg(any(test, feature = "testing"))]
/// Slow arithmetic from the definition, to test the binomial towers against: the product as a
/// polynomial product in all the variables, reduced by long division term by term.
pub mod reference {
    use super::BinomialTower;

    /// `a·b` in the top field: every pair of monomials multiplied, exponents added, and each
    /// exponent `≥ n_i` brought down by `Y_i^(n_i) = α_i` from the top level down.
    pub fn mul(t: &BinomialTower, a: &[u64], b: &[u64]) -> Vec<u64> {
        mul_at(t, t.levels.len(), a, b)
    }

    fn mul_at(t: &BinomialTower, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
        if i == 0 {
            // Shift-and-add product, then division bit by bit.
            let mut v: u128 = 0;
            for k in 0..64 {
                if (b[0] >> k) & 1 == 1 {
                    v ^= (a[0] as u128) << k;
                }
            }
            let p = (1u128 << t.d) | t.low as u128;
            for k in (t.d..128).rev() {
                if (v >> k) & 1 == 1 {
                    v ^= p << (k - t.d);
                }
            }
            return vec![v as u64];
        }
        let (n, w) = (t.levels[i - 1].n, t.w[i - 1]);
        // α as a dense element of level i - 1.
        let mut alpha = vec![0u64; w];
        for m in &t.levels[i - 1].alpha {
            let mut x = vec![0u64; w];
            let idx: usize = m.e.iter().zip(&t.w).map(|(&e, &ww)| e * ww).sum();
            x[idx] = m.c;
            for (s, y) in alpha.iter_mut().zip(x) {
                *s ^= y;
            }
        }
        let mut wide = vec![vec![0u64; w]; 2 * n - 1];
        for x in 0..n {
            for y in 0..n {
                let p = mul_at(t, i - 1, &a[x * w..(x + 1) * w], &b[y * w..(y + 1) * w]);
                for (s, v) in wide[x + y].iter_mut().zip(p) {
                    *s ^= v;
                }
            }
        }
        for u in (n..2 * n - 1).rev() {
            let p = mul_at(t, i - 1, &wide[u], &alpha);
            for (s, v) in wide[u - n].iter_mut().zip(p) {
                *s ^= v;
            }
        }
        wide[..n].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// GF(16) = GF(2)[z]/(z^4 + z + 1), then `Y^3 = z` (`z` generates GF(16)^×, of order
    /// 15, a multiple of 3, so it is no cube), then `U^5 = Y + 1`, then `V^7 = U·Y^2 + z`. The
    /// product, square, Frobenius and norm identities tested hold in any such ring; the
    /// irreducibility of the last two levels matters only to `sample_field_axioms_and_order`.
    fn sample() -> BinomialTower {
        let mut t = BinomialTower::new(&[0b10011]).unwrap();
        t.adjoin(3, vec![Monomial { c: 2, e: vec![] }]).unwrap();
        t.adjoin(
            5,
            vec![Monomial { c: 1, e: vec![1] }, Monomial { c: 1, e: vec![0] }],
        )
        .unwrap();
        t.adjoin(
            7,
            vec![
                Monomial {
                    c: 1,
                    e: vec![2, 1],
                },
                Monomial {
                    c: 2,
                    e: vec![0, 0],
                },
            ],
        )
        .unwrap();
        t
    }

    fn element(t: &BinomialTower) -> impl Strategy<Value = Vec<u64>> {
        let mask = (1u64 << t.d) - 1;
        proptest::collection::vec(any::<u64>().prop_map(move |x| x & mask), t.words())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn products_and_squares_agree_with_the_definition(
            (a, b) in (element(&sample()), element(&sample()))
        ) {
            let t = sample();
            prop_assert_eq!(t.mul(&a, &b), reference::mul(&t, &a, &b));
            prop_assert_eq!(t.square(&a), reference::mul(&t, &a, &a));
        }

        #[test]
        fn frobenius_tables_agree_with_repeated_squaring(
            a in element(&sample()), s in 1u64..200
        ) {
            let t = sample();
            let ctl = Control::none();
            let fr = t.frobenius(s, &ctl).unwrap();
            let mut want = a.clone();
            for _ in 0..s {
                want = t.square(&want);
            }
            prop_assert_eq!(t.apply(&fr, &a), want);
        }
    }

    /// A tower whose products are large enough to go through the additive transform
    /// ([`super::super::cantor_fft`]): the ring identities hold there too, against the square
    /// (which is linear and takes no product) and a Frobenius power (a ring morphism).
    #[test]
    fn transform_sized_products_keep_the_ring_identities() {
        let mut t = sample();
        t.adjoin(
            11,
            vec![
                Monomial {
                    c: 3,
                    e: vec![1, 2, 3],
                },
                Monomial {
                    c: 1,
                    e: vec![0, 4, 0],
                },
            ],
        )
        .unwrap();
        t.adjoin(
            13,
            vec![
                Monomial {
                    c: 7,
                    e: vec![2, 0, 5, 10],
                },
                Monomial {
                    c: 2,
                    e: vec![0, 0, 0, 0],
                },
            ],
        )
        .unwrap();
        let slots: usize = t.levels.iter().map(|l| 2 * l.n - 1).product();
        assert!(slots * (2 * t.d - 1) / 64 >= gf2::FFT_WORDS, "{slots}");
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & 15
        };
        let a: Vec<u64> = (0..t.words()).map(|_| next()).collect();
        let b: Vec<u64> = (0..t.words()).map(|_| next()).collect();
        let c: Vec<u64> = (0..t.words()).map(|_| next()).collect();
        assert_eq!(t.mul(&a, &a), t.square(&a));
        let bc: Vec<u64> = b.iter().zip(&c).map(|(x, y)| x ^ y).collect();
        let ab = t.mul(&a, &b);
        let lhs = t.mul(&a, &bc);
        let rhs: Vec<u64> = ab.iter().zip(t.mul(&a, &c)).map(|(x, y)| x ^ y).collect();
        assert_eq!(lhs, rhs);
        assert_eq!(t.mul(&ab, &c), t.mul(&a, &t.mul(&b, &c)));
        let fr = t.frobenius(3, &Control::none()).unwrap();
        assert_eq!(
            t.apply(&fr, &ab),
            t.mul(&t.apply(&fr, &a), &t.apply(&fr, &b))
        );
    }

    #[test]
    fn sample_field_axioms_and_order() {
        // Every nonzero x satisfies x^(2^M - 1) = 1 in a field; the norm to GF(2^f) for f | M
        // agrees with the power (2^M - 1)/(2^f - 1).
        let t = sample();
        let ctl = Control::none();
        let m = t.degree();
        assert_eq!(m, 4 * 3 * 5 * 7);
        let mut x = vec![0u64; t.words()];
        x[1] = 3;
        x[t.words() - 1] = 5;
        x[7] = 1;
        let order = (BigUint::one() << m) - 1u32;
        assert!(t.is_one(&t.pow(&x, &order, &ctl).unwrap()));
        for f in [4u64, 12, 20, 60, 140] {
            let e = ((BigUint::one() << m) - 1u32) / ((BigUint::one() << f) - 1u32);
            assert_eq!(
                t.norm(&x, f, &ctl).unwrap(),
                t.pow(&x, &e, &ctl).unwrap(),
                "f={f}"
            );
        }
        // Y_1 = the cube root of z has degree 12; z^5 (a cube root of unity) degree 2.
        let y = t
            .monomial(&Monomial {
                c: 1,
                e: vec![1, 0, 0],
            })
            .unwrap();
        assert_eq!(t.element_degree(&y, &ctl).unwrap(), 12);
        let w = t
            .monomial(&Monomial {
                c: t.mul0(t.mul0(2, 2), t.mul0(t.mul0(2, 2), 2)),
                e: vec![0, 0, 0],
            })
            .unwrap();
        assert_eq!(t.element_degree(&w, &ctl).unwrap(), 2);
        assert_eq!(t.element_degree(&x, &ctl).unwrap(), m);
    }
}
