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
//! the product of the two images in `GF(2)[x]` ([`crate::gf2::mul`]: Karatsuba on carry-less word
//! products) holds every coefficient of the product polynomial in its own slot, since each
//! exponent of the product of two reduced monomials stays below `2n_i - 1` (below `2D - 1` at
//! level 0). Reading the slots back gives the unreduced product; it is reduced level by level
//! from the bottom: level-0 coefficients modulo `P_0`, then at each level `i` the blocks
//! `Y_i^(n_i + u)` folded onto `Y_i^u` times `α_i` (a sparse product in the already reduced
//! `F_(i-1)`). A square is the same reduction of `Σ a_t² Y^(2t)` (characteristic 2), without any
//! product: linear in `W`.
//!
//! The product's operands need only the lower half of each level's slots (exponents below
//! `n_i`), so their images are cut there: the transform's length follows the operands, not the
//! product's padded length.
//!
//! ## Products through a polynomial basis
//! The Kronecker image pads every level to `2n_i - 1` slots, about `2^(L+1)·M` bits for `L`
//! levels. For the large towers ([`FLAT_FROM_WORDS`] words and more), a level `k` below the top
//! of at most [`FLAT_BITS`] bits is put in a polynomial basis once: an element `θ` of `F_k`
//! whose powers `1, θ, …, θ^(deg-1)` (`deg = D·n_1⋯n_k`) are linearly independent over GF(2)
//! (tried among a few pseudo-random elements; one that generates the field has this property)
//! gives the isomorphism `Ψ: GF(2)[z]/(P) → F_k`, `z ↦ θ`, and its inverse by Gauss–Jordan
//! elimination on the matrix of those powers. `Ψ` (evaluation at `θ`) is a ring morphism on
//! all of `GF(2)[z]`: so for the blocks `a_u, b_v ∈ F_k` of two elements of level `i > k` (`u`,
//! `v` exponent vectors of the levels `k+1..i`), with `A_u = Ψ^(-1)(a_u)` of degree below
//! `deg`, the unreduced coefficient `c_w = Σ_(u+v=w) a_u b_v` is `Ψ(Σ A_u B_v)`. One Kronecker
//! substitution of the levels above `k` only, with slots of `2·deg - 1` bits (the degree of
//! `A_u B_v` is at most `2·deg - 2`), yields every `C_w = Σ A_u B_v` in its own slot, and
//! `c_w = Σ_j C_(w,j)·θ^j` from the tabulated `θ^j`, `j < 2·deg - 1` (the reduction modulo
//! `P` and the change of basis in one step). The levels `k+1..i` are then reduced as before.
//! The image has about `2^(L-k)·M` bits instead of `2^L·(2 - 1/D)·M`: with the operands cut
//! as above, the transform of a product for `p = 359` (`D = 4`, levels 5, 11, 89, 179, `k = 2`)
//! has `2^20` values instead of `2^23`, for `p = 557` (levels 3, 5, 11, 23, 139, `k = 3`)
//! `2^19` instead of `2^23`.
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

use crate::control::Control;
use crate::gf2::fft::{Deadline, Never, Stop};
use crate::gf2::{self, clmul};
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
    /// The level below the top kept also in a polynomial basis for products ([`Flat`]), built
    /// on first use; reset when a level is adjoined.
    flat: std::sync::OnceLock<Option<Flat>>,
    /// Products go through [`Flat`] when the top field has at least this many words.
    flat_from_words: usize,
    /// The largest degree of the level put in a polynomial basis ([`FLAT_BITS`]).
    flat_bits: usize,
}

/// The largest degree over GF(2) of a level put in a polynomial basis for products.
pub const FLAT_BITS: usize = 2048;

/// From this many words in the top field on, products use the polynomial basis of a lower level
/// (below, building it would cost more than it saves).
pub const FLAT_FROM_WORDS: usize = 1 << 12;

static FLAT_FROM: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(FLAT_FROM_WORDS);

/// Moves the size from which towers built afterwards use a polynomial basis for products
/// (`usize::MAX`: never), for benchmarks that compare the two products on whole computations
/// in one run.
#[cfg(any(test, feature = "testing"))]
pub fn set_flat_from_words(words: usize) {
    FLAT_FROM.store(words, std::sync::atomic::Ordering::Relaxed);
}

/// Level `k` of the tower in a polynomial basis `GF(2)[z]/(P)`, `z ↦ θ` (module documentation,
/// "Products through a polynomial basis"). Vectors of `deg` bits are kept in `cw` words; a
/// level-`k` element's *compact* form puts its `j`-th level-0 coefficient at bits `jD..jD+D`.
#[derive(Clone, Debug)]
struct Flat {
    k: usize,
    deg: usize,
    cw: usize,
    /// For each compact bit `q < deg`: the coordinates in `1, θ, …, θ^(deg-1)` of the basis
    /// element `q` (`cw` words each).
    to_flat: Vec<u64>,
    /// `θ^j` in compact form for `j < 2·deg - 1` (`cw` words each): reading a product's slot
    /// back is the sum of the `θ^j` over its set bits.
    powers: Vec<u64>,
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

/// The value of a product that cannot stop ([`Never`]'s error type has no values).
fn unstoppable<T>(r: std::result::Result<T, std::convert::Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

/// Calls `f` with the index of every set bit of `a`.
fn for_each_bit(a: &[u64], mut f: impl FnMut(usize)) {
    for (w, &x) in a.iter().enumerate() {
        let mut x = x;
        while x != 0 {
            f(64 * w + x.trailing_zeros() as usize);
            x &= x - 1;
        }
    }
}

/// `out ^= src·x^pos` (bits of `src` moved up by `pos`; `out` long enough).
fn xor_shifted(out: &mut [u64], pos: usize, src: &[u64]) {
    let (w, b) = (pos / 64, pos % 64);
    for (i, &x) in src.iter().enumerate() {
        if x == 0 {
            continue;
        }
        out[w + i] ^= x << b;
        if b > 0 {
            out[w + i + 1] ^= x >> (64 - b);
        }
    }
}

/// The `bits` bits of `a` from bit `pos` into `out` (`⌈bits/64⌉` words; zero beyond `a`).
fn read_bits(a: &[u64], pos: usize, bits: usize, out: &mut [u64]) {
    let (w, b) = (pos / 64, pos % 64);
    let g = |i: usize| a.get(i).copied().unwrap_or(0);
    for (i, o) in out.iter_mut().enumerate() {
        *o = if b == 0 {
            g(w + i)
        } else {
            (g(w + i) >> b) | (g(w + i + 1) << (64 - b))
        };
    }
    if !bits.is_multiple_of(64) {
        if let Some(o) = out.last_mut() {
            *o &= (1u64 << (bits % 64)) - 1;
        }
    }
}

/// The inverse of the `n × n` matrix over GF(2) given by its columns (`cw` words each), as its
/// columns; `None` if singular. Gauss–Jordan on the rows of `[A | I]`.
fn invert_columns(cols: &[u64], n: usize, cw: usize) -> Option<Vec<u64>> {
    // Row r: bits j < n of A (A[r][j] = bit r of column j), then bits of I.
    let rw = 2 * cw;
    let mut rows = vec![0u64; n * rw];
    for j in 0..n {
        for_each_bit(&cols[j * cw..(j + 1) * cw], |r| {
            if r < n {
                rows[r * rw + j / 64] |= 1 << (j % 64);
            }
        });
    }
    for r in 0..n {
        rows[r * rw + cw + r / 64] |= 1 << (r % 64);
    }
    let bit = |rows: &[u64], r: usize, c: usize| (rows[r * rw + c / 64] >> (c % 64)) & 1 == 1;
    for c in 0..n {
        let p = (c..n).find(|&r| bit(&rows, r, c))?;
        if p != c {
            for t in 0..rw {
                rows.swap(p * rw + t, c * rw + t);
            }
        }
        let pivot: Vec<u64> = rows[c * rw..(c + 1) * rw].to_vec();
        for r in 0..n {
            if r != c && bit(&rows, r, c) {
                xor_into(&mut rows[r * rw..(r + 1) * rw], &pivot);
            }
        }
    }
    // Row j of the inverse is the right half of row j; column q has bit j = inverse[j][q].
    let mut inv = vec![0u64; n * cw];
    for j in 0..n {
        for_each_bit(&rows[j * rw + cw..(j + 1) * rw], |q| {
            inv[q * cw + j / 64] |= 1 << (j % 64);
        });
    }
    Some(inv)
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
            flat: std::sync::OnceLock::new(),
            flat_from_words: FLAT_FROM.load(std::sync::atomic::Ordering::Relaxed),
            flat_bits: FLAT_BITS,
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
                    crate::LimitKind::Fixed,
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
        self.flat = std::sync::OnceLock::new();
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

    /// The bytes a product or square in the top field works in at most: its Kronecker operands
    /// and product, the unreduced coefficients, and Karatsuba's scratch or the additive
    /// transforms of [`crate::gf2::fft`] (a bound, for the budget), counted for the image of
    /// every level with whole operands. A product through the polynomial basis of level `k`
    /// (module documentation) works in less: its slots of `2·deg - 1` bits replace
    /// `Π_(i ≤ k)(2n_i - 1)` slots of `2D - 1` bits, and its unreduced coefficients (`w[k]` words for each of the
    /// `Π_(i > k)(2n_i - 1)` slots) are fewer than the `Π(2n_i - 1)` words of the square's; its
    /// tables (`3·deg` vectors of `deg` bits) are added.
    pub fn product_bytes(&self) -> u64 {
        let slots: u64 = self.levels.iter().map(|l| 2 * l.n as u64 - 1).product();
        let bits = slots * (2 * self.d as u64 - 1);
        let words = bits.div_ceil(64) + 1;
        let work = if words as usize >= gf2::FFT_WORDS {
            crate::gf2::fft::product_bytes(words as usize, words as usize)
        } else {
            // Karatsuba's scratch: about four words per operand word.
            32 * words
        };
        // The tables of the polynomial basis, if one is used (not built here).
        let top = self.levels.len();
        let tables = (1..top)
            .rev()
            .find(|&k| self.d * self.w[k] <= self.flat_bits)
            .filter(|_| top >= 2 && self.w[top] >= self.flat_from_words)
            .map_or(0, |k| {
                let deg = (self.d * self.w[k]) as u64;
                8 * 3 * deg * deg.div_ceil(64)
            });
        // Two operands and their product (four words per operand word), the work, and the
        // unreduced coefficients (twice: reduced level by level into a new array).
        32 * words + work + 16 * slots + tables + 64
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
    fn reduce_levels(&self, i: usize, v: Vec<u64>) -> Vec<u64> {
        self.reduce_levels_from(1, i, v)
    }

    /// As [`Self::reduce_levels`] for coefficients already reduced up to level `from - 1`:
    /// `v[idx]` is a block of `w[from - 1]` words, an element of level `from - 1`, the
    /// coefficient of `Y_from^(u_from)⋯Y_i^(u_i)`, `idx` in mixed radix `(2n_from - 1, …)`.
    fn reduce_levels_from(&self, from: usize, i: usize, mut v: Vec<u64>) -> Vec<u64> {
        for k in from..=i {
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
    fn padded_index(&self, i: usize, idx: usize, mult: usize) -> usize {
        self.padded_index_from(0, i, idx, mult)
    }

    /// As [`Self::padded_index`] over the levels `from + 1 ..= i` only.
    fn padded_index_from(&self, from: usize, i: usize, mut idx: usize, mult: usize) -> usize {
        let mut out = 0usize;
        let mut scale = 1usize;
        for l in &self.levels[from..i] {
            out += mult * (idx % l.n) * scale;
            idx /= l.n;
            scale *= 2 * l.n - 1;
        }
        out
    }

    /// The product `a·b` in level `i`.
    fn mul_at(&self, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
        unstoppable(self.mul_at_until(i, a, b, &Never))
    }

    /// [`Self::mul_at`], stopped part-way when `stop` says so (in the transform of a large
    /// product: [`crate::gf2::fft::mul_until`]).
    fn mul_at_until<S: Stop>(
        &self,
        i: usize,
        a: &[u64],
        b: &[u64],
        stop: &S,
    ) -> Result<Vec<u64>, S::Err> {
        if i == 0 {
            return Ok(vec![self.mul0(a[0], b[0])]);
        }
        if let Some(fl) = self.flat() {
            if i > fl.k {
                return self.mul_flat(fl, i, a, b, stop);
            }
        }
        self.mul_kronecker_until(i, a, b, stop)
    }

    /// The product `a·b` in level `i` by one Kronecker substitution of every level (module
    /// documentation, "The product"), stopped part-way when `stop` says so.
    fn mul_kronecker_until<S: Stop>(
        &self,
        i: usize,
        a: &[u64],
        b: &[u64],
        stop: &S,
    ) -> Result<Vec<u64>, S::Err> {
        let slots: usize = self.levels[..i].iter().map(|l| 2 * l.n - 1).product();
        let s0 = 2 * self.d - 1;
        // An operand's last slot: every exponent at its largest, n - 1 (the product needs the
        // slots up to 2n - 2, the operands only their lower halves).
        let last = self.padded_index(i, self.w[i] - 1, 1);
        let words = ((last + 1) * s0).div_ceil(64) + 1;
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
        let prod = gf2::mul_until(&pa, &pb, stop)?;
        drop((pa, pb));
        let v: Vec<u64> = (0..slots)
            .map(|c| self.reduce0(get_bits(&prod, c * s0, s0)))
            .collect();
        drop(prod);
        Ok(self.reduce_levels(i, v))
    }

    /// The polynomial basis of a lower level used for products (built on first use): the
    /// highest level `k` below the top of at most [`FLAT_BITS`] bits, when the top field has
    /// at least `flat_from_words` words; `None` when there is none, or when no element among
    /// those tried generates level `k` (then level `k` is not a field, only a ring).
    fn flat(&self) -> Option<&Flat> {
        self.flat
            .get_or_init(|| {
                let top = self.levels.len();
                if top < 2 || self.w[top] < self.flat_from_words {
                    return None;
                }
                let k = (1..top)
                    .rev()
                    .find(|&k| self.d * self.w[k] <= self.flat_bits)?;
                self.build_flat(k)
            })
            .as_ref()
    }

    /// Products through the polynomial basis of a level of at most `bits` bits, from towers of
    /// at least `words` top words on (`usize::MAX`: never), for tests and benchmarks.
    #[cfg(any(test, feature = "testing"))]
    pub fn set_flat(&mut self, words: usize, bits: usize) {
        self.flat_from_words = words;
        self.flat_bits = bits;
        self.flat = std::sync::OnceLock::new();
    }

    /// The level `k` whose polynomial basis the products go through, if any (module
    /// documentation, "Products through a polynomial basis").
    pub fn flat_level(&self) -> Option<usize> {
        self.flat().map(|f| f.k)
    }

    /// The compact form of an element of level `k` (`w[k]` words of `D` bits): its bits in a
    /// row, `cw` words.
    fn compact(&self, x: &[u64], cw: usize) -> Vec<u64> {
        let mut out = vec![0u64; cw + 1];
        for (t, &c) in x.iter().enumerate() {
            if c != 0 {
                put_bits(&mut out, t * self.d, c);
            }
        }
        out.truncate(cw);
        out
    }

    /// The element of level `k` (`out`, `w[k]` words) of a compact form.
    fn spread(&self, c: &[u64], out: &mut [u64]) {
        for (t, o) in out.iter_mut().enumerate() {
            *o = get_bits(c, t * self.d, self.d) as u64;
        }
    }

    /// Builds [`Flat`] for level `k`: tries a few elements `θ` until `1, θ, …, θ^(deg-1)` are
    /// linearly independent over GF(2), i.e. `θ` generates level `k` (its minimal polynomial
    /// has degree `deg`), and inverts the matrix of those powers by Gauss–Jordan elimination.
    fn build_flat(&self, k: usize) -> Option<Flat> {
        let deg = self.d * self.w[k];
        let cw = deg.div_ceil(64);
        let mask = if self.d == 64 {
            u64::MAX
        } else {
            (1u64 << self.d) - 1
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..8 {
            let theta: Vec<u64> = (0..self.w[k])
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed & mask
                })
                .collect();
            let mut powers = Vec::with_capacity((2 * deg - 1) * cw);
            let mut cur = self.one_at(k);
            for j in 0..2 * deg - 1 {
                powers.extend(self.compact(&cur, cw));
                if j + 1 < 2 * deg - 1 {
                    cur = unstoppable(self.mul_kronecker_until(k, &cur, &theta, &Never));
                }
            }
            if let Some(to_flat) = invert_columns(&powers[..deg * cw], deg, cw) {
                return Some(Flat {
                    k,
                    deg,
                    cw,
                    to_flat,
                    powers,
                });
            }
        }
        None
    }

    /// The product `a·b` in level `i > k` through the polynomial basis of level `k` (module
    /// documentation, "Products through a polynomial basis").
    fn mul_flat<S: Stop>(
        &self,
        fl: &Flat,
        i: usize,
        a: &[u64],
        b: &[u64],
        stop: &S,
    ) -> Result<Vec<u64>, S::Err> {
        let (k, deg, cw) = (fl.k, fl.deg, fl.cw);
        let bk = self.w[k];
        let sb = 2 * deg - 1;
        let blocks = self.w[i] / bk;
        let slots: usize = self.levels[k..i].iter().map(|l| 2 * l.n - 1).product();
        let last = self.padded_index_from(k, i, blocks - 1, 1);
        let words = (last * sb) / 64 + cw + 2;
        let pack = |x: &[u64]| {
            let mut out = vec![0u64; words];
            let mut coords = vec![0u64; cw];
            for (blk, chunk) in x.chunks(bk).enumerate() {
                if is_zero(chunk) {
                    continue;
                }
                let c = self.compact(chunk, cw);
                coords.iter_mut().for_each(|w| *w = 0);
                for_each_bit(&c, |q| {
                    xor_into(&mut coords, &fl.to_flat[q * cw..(q + 1) * cw])
                });
                xor_shifted(&mut out, self.padded_index_from(k, i, blk, 1) * sb, &coords);
            }
            out
        };
        let prod = if std::ptr::eq(a, b) {
            let pa = pack(a);
            gf2::mul_until(&pa, &pa, stop)?
        } else {
            let (pa, pb) = (pack(a), pack(b));
            gf2::mul_until(&pa, &pb, stop)?
        };
        let mut v = vec![0u64; slots * bk];
        let mut slot = vec![0u64; sb.div_ceil(64)];
        let mut acc = vec![0u64; cw];
        for (s, out) in v.chunks_mut(bk).enumerate() {
            read_bits(&prod, s * sb, sb, &mut slot);
            if is_zero(&slot) {
                continue;
            }
            acc.iter_mut().for_each(|w| *w = 0);
            for_each_bit(&slot, |j| {
                xor_into(&mut acc, &fl.powers[j * cw..(j + 1) * cw])
            });
            self.spread(&acc, out);
        }
        drop(prod);
        Ok(self.reduce_levels_from(k + 1, i, v))
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

    /// The product `a·b` in the top field, stopped part-way when `stop` says so.
    pub fn mul_until<S: Stop>(&self, a: &[u64], b: &[u64], stop: &S) -> Result<Vec<u64>, S::Err> {
        self.mul_at_until(self.levels.len(), a, b, stop)
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
    /// ([`crate::gf2::window_pow`]), looking at `ctl` before each step.
    fn pow_at(&self, i: usize, a: &[u64], e: &BigUint, ctl: &Control) -> Result<Vec<u64>> {
        let stop = Deadline::of(ctl);
        crate::gf2::window_pow(
            a,
            e,
            || self.one_at(i),
            |x| self.square_at(i, x),
            |x, y| self.mul_at_until(i, x, y, &stop),
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
        let stop = Deadline::of(ctl);
        // fj = φ_(jf) for the current j.
        let mut fj = ff.clone();
        let mut nj = x.to_vec();
        let top = 63 - k.leading_zeros();
        for b in (0..top).rev() {
            ctl.stop_check()?;
            let moved = self.apply(&fj, &nj);
            nj = self.mul_until(&nj, &moved, &stop)?;
            let bit = (k >> b) & 1 == 1;
            if bit {
                nj = self.mul_until(x, &self.apply(&ff, &nj), &stop)?;
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
    /// ([`crate::gf2::fft`]): the ring identities hold there too, against the square
    /// (which is linear and takes no product) and a Frobenius power (a ring morphism).
    /// The Kronecker product of every level, in level `i`.
    fn kron(t: &BinomialTower, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
        unstoppable(t.mul_kronecker_until(i, a, b, &Never))
    }

    /// The sample tower with products through the polynomial basis of level `k`.
    fn sample_flat(k: usize) -> BinomialTower {
        let mut t = sample();
        t.set_flat(0, 4 * [1, 3, 15][k]);
        assert_eq!(t.flat_level(), Some(k));
        t
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn products_through_a_polynomial_basis_agree_with_the_definition(
            (a, b) in (element(&sample()), element(&sample())), k in 1usize..3
        ) {
            let t = sample_flat(k);
            let want = reference::mul(&t, &a, &b);
            prop_assert_eq!(t.mul(&a, &b), want.clone());
            prop_assert_eq!(kron(&t, 3, &a, &b), want);
            prop_assert_eq!(t.mul(&a, &a), reference::mul(&t, &a, &a));
            // Level 2 through level 1's basis.
            let (a2, b2) = (&a[..15], &b[..15]);
            prop_assert_eq!(t.mul_at(2, a2, b2), kron(&t, 2, a2, b2));
        }
    }

    /// A tower past `MAX_BINOMIAL_DEGREE` is refused with a limit no setting raises.
    #[test]
    fn towers_past_the_degree_limit_are_a_fixed_limit() {
        let mut t = BinomialTower::new(&[0b10011]).unwrap();
        let r = t.adjoin(1 << 27, vec![Monomial { c: 2, e: vec![] }]);
        assert!(
            matches!(&r, Err(Error::Limit(l)) if l.kind == crate::LimitKind::Fixed),
            "{r:?}"
        );
        assert_eq!(t.height(), 0);
    }

    #[test]
    fn polynomial_basis_edges() {
        let t = sample_flat(2);
        let fl = t.flat().unwrap();
        // θ^0 = 1, and the coordinates of 1 are (1, 0, …).
        assert_eq!(fl.powers[..fl.cw], t.compact(&t.one_at(2), fl.cw)[..]);
        assert_eq!(fl.to_flat[0], 1);
        // Zero, one, and elements with only top or only bottom coefficients.
        let w = t.words();
        let zero = vec![0u64; w];
        let mut top = vec![0u64; w];
        top[w - 1] = 15;
        let mut low = vec![0u64; w];
        low[0] = 9;
        for a in [&zero, &t.one(), &top, &low] {
            for b in [&zero, &t.one(), &top, &low] {
                assert_eq!(t.mul(a, b), reference::mul(&t, a, b));
            }
        }
        // No level of at most 3 bits: no polynomial basis; towers too small: none either.
        let mut none = sample();
        none.set_flat(0, 3);
        assert_eq!(none.flat_level(), None);
        assert_eq!(sample().flat_level(), None);
    }

    /// `count` pseudo-random elements of GF(16) (xorshift from `seed`).
    fn nibbles(count: usize, seed: u64) -> Vec<u64> {
        let mut x = 0x2545_f491_4f6c_dd1du64 ^ seed;
        (0..count)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x & 15
            })
            .collect()
    }

    /// The sample tower with two more levels, `W = 15015` words: large enough for the
    /// additive transform.
    fn big_sample() -> BinomialTower {
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
        t
    }

    #[test]
    fn transform_sized_products_keep_the_ring_identities() {
        let mut t = big_sample();
        t.set_flat(usize::MAX, 0);
        assert_eq!(t.flat_level(), None);
        // An operand's Kronecker image, the shorter factor of the product.
        let last = t.padded_index(5, t.words() - 1, 1);
        assert!((last + 1) * (2 * t.d - 1) / 64 >= gf2::FFT_WORDS, "{last}");
        let a = nibbles(t.words(), 1);
        let b = nibbles(t.words(), 2);
        let c = nibbles(t.words(), 3);
        // A product through the transform stops on a cancelled control, and runs to the same
        // product on a live one.
        let token = crate::control::CancelToken::new();
        let ctl = Control::none().with_token(token.clone());
        assert_eq!(t.mul_until(&a, &b, &Deadline::of(&ctl)), Ok(t.mul(&a, &b)));
        token.cancel();
        assert!(matches!(
            t.mul_until(&a, &b, &Deadline::of(&ctl)),
            Err(Error::Cancelled(_))
        ));
        assert!(matches!(
            t.pow(&a, &BigUint::from(12345u32), &ctl),
            Err(Error::Cancelled(_))
        ));
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

    /// At transform sizes, products through the polynomial basis of level 3 (420 bits) agree
    /// with the Kronecker products of every level, themselves through the transform.
    #[test]
    fn transform_sized_products_through_a_polynomial_basis() {
        let mut t = big_sample();
        t.set_flat(0, FLAT_BITS);
        assert_eq!(t.flat_level(), Some(3));
        let a = nibbles(t.words(), 4);
        let b = nibbles(t.words(), 5);
        let top = t.height();
        assert_eq!(t.mul(&a, &b), kron(&t, top, &a, &b));
        assert_eq!(t.mul(&a, &a), kron(&t, top, &a, &a));
        let w4 = t.w[4];
        assert_eq!(
            t.mul_at(4, &a[..w4], &b[..w4]),
            kron(&t, 4, &a[..w4], &b[..w4])
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
