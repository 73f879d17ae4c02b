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

mod bits;
mod flat;
mod frobenius;
mod product;

use bits::*;

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
mod tests;
