//! Counting positions: how many `K`-tuples (or multisets) of heaps in a range have Grundy values
//! whose nim-sum is `X`.
//!
//! **Ordered tuples.** With `h` the value histogram of the range (heaps counted by Grundy
//! value), the tuples with nim-sum `z` number `h^{∗K}(z)`, the `K`-th xor-convolution power.
//! With `ĥ` its Walsh-Hadamard transform over `F = 2^d` entries, `h^{∗K} = F^{-1} H(ĥ^K)`
//! (see [`wht`](super::wht)), so one count is `F^{-1} Σ_y (-1)^{popcount(X & y)} ĥ(y)^K`:
//! a transform, `F` powers, and a signed sum (the full inverse transform for the distribution).
//!
//! **Multisets (Pólya / Burnside).** Multisets of size `K` are the orbits of `K`-tuples under
//! the symmetric group `S_K` permuting positions, and the nim-sum is invariant under it, so by
//! Burnside `K!·#multisets(z) = Σ_{σ ∈ S_K} #{tuples fixed by σ with nim-sum z}`. A tuple fixed
//! by `σ` holds one heap per cycle of `σ`; a cycle of length `j` contributes its heap's value
//! xored `j` times: the value itself for odd `j`, 0 for even `j`. So the fixed tuples of a `σ`
//! with `a` odd and `b` even cycles have nim-sum distribution `h^{∗a} ∗ (T e_0)^{∗b}` (`T` the
//! number of heaps), whose transform is `ĥ(y)^a T^b`. Summing over `S_K`:
//! `K!·F·#multisets(z) = Σ_y (-1)^{popcount(z & y)} P_K(ĥ(y))` with the integer polynomial
//! `P_m(x) = Σ_{σ ∈ S_m} x^{odd cycles(σ)} T^{even cycles(σ)}`. Choosing the cycle through the
//! element `m` (length `j`: `(m−1)!/(m−j)!` ways) gives `P_m = Σ_{j=1}^{m} (m−1)!/(m−j)! ·
//! w_j · P_{m−j}` with `w_j = x` for odd `j`, `T` for even `j`, and `P_0 = 1`.
//!
//! **Division.** Both formulas produce `D·c` for the count `c`, with `D = F` (tuples) or
//! `D = K!·F` (multisets). Exactly: divide. Modulo `Q = o·2^a` (`o` odd): modulo `o`, multiply
//! by `D^{-1}` when `gcd(o, D) = 1`; modulo `2^a`, compute modulo `2^{a+v}` where `2^v ∥ D`,
//! drop `v` bits and multiply by the inverse of the odd part of `D`; join by CRT. When a part
//! cannot be done that way (`o` shares a factor with `K!`, `a + v > 128`, `Q ≥ 2^64`), it is
//! computed modulo `m·D` in big integers and divided exactly: if `R ≡ D·c (mod m·D)` with
//! `0 ≤ R < m·D`, then `R = D·c − t·m·D`, so `R/D = c − t·m ≡ c (mod m)`. Every positive
//! modulus therefore works, for tuples and multisets alike.

use super::histogram::Histogram;
use super::wht::{
    crt_odd_pow2, split_odd, wht, wht_bigint, Float64, Montgomery, Ring, Wrapping128,
};
use crate::control::Control;
use crate::document::Natural;
use crate::error::{Error, Result};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// The largest `K` for multisets: the Pólya polynomial has degree `K` and `K³` big-integer
/// operations go into it.
pub const MAX_UNORDERED_HEAPS: u64 = 100;

/// The largest exact count computed, in bits (beyond it, ask for a count modulo `Q`).
pub const MAX_EXACT_BITS: u64 = 1 << 24;

/// The most big-integer work (estimated 64-bit word operations) one count may take.
pub const MAX_BIG_WORK: f64 = 2e10;

/// The most memory (bytes) the big-integer values of one count may take.
pub const MAX_BIG_MEMORY: f64 = 2.0 * 1073741824.0;

/// The function applied to each transformed value.
#[derive(Clone, Debug)]
enum Spectrum {
    /// `x ↦ x^K` (ordered tuples).
    Power(BigUint),
    /// `x ↦ Σ_a c_a x^a` (multisets: the Pólya polynomial `P_K`).
    Poly(Vec<BigInt>),
}

/// Which counts are wanted: one nim-sum, or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Target(usize),
    All,
}

/// One counting problem in the transform domain: the exact transform of the histogram, the
/// function to apply, and the divisor `D` of the result; and the [`Control`] that may stop it
/// (looked at between the transforms and every [`BLOCK`] elements of the pointwise step,
/// which reports the elements done as progress).
struct Problem<'c> {
    hat: Vec<i128>,
    spectrum: Spectrum,
    divisor: BigUint,
    want: Want,
    ctl: &'c Control<'c>,
}

/// Elements of the pointwise step (powers, polynomials) done between two looks at the control:
/// in a word ring, a few milliseconds for exponents of a few hundred bits.
const BLOCK: usize = 1 << 14;

/// Distinct values of the big-integer pointwise step done between two looks at the control.
const BIG_BLOCK: usize = 64;

/// `(-1)^{popcount(x & y)}` as a boolean: true for minus.
#[inline]
fn minus(x: usize, y: usize) -> bool {
    (x & y).count_ones() % 2 == 1
}

/// The exact transform of a histogram (`|ĥ(y)| ≤ T < 2^126`, so 128-bit wrapping arithmetic
/// is exact when read back as signed).
fn exact_transform(h: &Histogram) -> Vec<i128> {
    let f = h.transform_len();
    let mut x = vec![0u128; f];
    x[..h.counts().len()].copy_from_slice(h.counts());
    wht(&mut x, &Wrapping128);
    x.into_iter().map(|v| v as i128).collect()
}

impl<'c> Problem<'c> {
    fn new(
        h: &Histogram,
        spectrum: Spectrum,
        extra_divisor: BigUint,
        want: Want,
        ctl: &'c Control<'c>,
    ) -> Result<Problem<'c>> {
        ctl.stop_check()?;
        let hat = exact_transform(h);
        let divisor = extra_divisor * BigUint::from(hat.len());
        Ok(Problem {
            hat,
            spectrum,
            divisor,
            want,
            ctl,
        })
    }

    /// `Σ_y ± f(ĥ(y))` (one target) or `H(f(ĥ))` (all) in a word-sized ring.
    fn solve_in<R: Ring>(&self, ring: &R) -> Result<Vec<R::E>> {
        #[cfg(feature = "parallel")]
        let hat = self.hat.par_iter();
        #[cfg(not(feature = "parallel"))]
        let hat = self.hat.iter();
        let mut e: Vec<R::E> = hat.map(|&v| ring.image_i128(v)).collect();
        let c: Vec<R::E> = match &self.spectrum {
            Spectrum::Poly(c) => c.iter().map(|x| ring.image_bigint(x)).collect(),
            Spectrum::Power(_) => Vec::new(),
        };
        for (i, block) in e.chunks_mut(BLOCK).enumerate() {
            self.ctl.check((i * BLOCK) as u64)?;
            match &self.spectrum {
                Spectrum::Power(k) => super::wht::pow_pointwise(block, ring, k),
                Spectrum::Poly(_) => {
                    #[cfg(feature = "parallel")]
                    let elements = block.par_iter_mut();
                    #[cfg(not(feature = "parallel"))]
                    let elements = block.iter_mut();
                    elements.for_each(|x| {
                        // Horner: P(x) = (...(c_K x + c_{K−1}) x + ...) x + c_0.
                        let mut acc = ring.image_i128(0);
                        for &ca in c.iter().rev() {
                            acc = ring.add(ring.mul(acc, *x), ca);
                        }
                        *x = acc;
                    });
                }
            }
        }
        self.ctl.check(e.len() as u64)?;
        match self.want {
            Want::Target(t) => {
                let zero = ring.image_i128(0);
                let term = |acc, (y, &v): (usize, &R::E)| {
                    if minus(t, y) {
                        ring.sub(acc, v)
                    } else {
                        ring.add(acc, v)
                    }
                };
                #[cfg(feature = "parallel")]
                let sum = e
                    .par_iter()
                    .enumerate()
                    .fold(|| zero, term)
                    .reduce(|| zero, |a, b| ring.add(a, b));
                #[cfg(not(feature = "parallel"))]
                let sum = e.iter().enumerate().fold(zero, term);
                Ok(vec![sum])
            }
            Want::All => {
                wht(&mut e, ring);
                Ok(e)
            }
        }
    }

    /// The same in big integers, modulo `w` (or exactly when `w` is `None`), results in
    /// `[0, w)`. Equal transformed values are evaluated once.
    fn solve_big(&self, w: Option<&BigUint>, width_bits: u64) -> Result<Vec<BigInt>> {
        let w_int = w.map(|w| BigInt::from(w.clone()));
        let reduce = |x: BigInt| match &w_int {
            Some(w) => x.mod_floor(w),
            None => x,
        };
        // Group the y by ĥ(y).
        let mut order: Vec<usize> = (0..self.hat.len()).collect();
        order.sort_unstable_by_key(|&y| self.hat[y]);
        let mut distinct: Vec<i128> = order.iter().map(|&y| self.hat[y]).collect();
        distinct.dedup();
        self.check_big_work(distinct.len(), width_bits, w.is_none())?;
        let value = |&v: &i128| {
            let x = reduce(BigInt::from(v));
            match &self.spectrum {
                Spectrum::Power(k) => match (&w_int, x.to_biguint()) {
                    (Some(w), Some(xu)) => BigInt::from(xu.modpow(k, &w.magnitude().clone())),
                    _ => {
                        // Exact: the caller bounded the size, so k fits comfortably.
                        let k = k.to_u32().unwrap_or(u32::MAX);
                        num_traits::pow::Pow::pow(&x, k)
                    }
                },
                Spectrum::Poly(c) => c
                    .iter()
                    .rev()
                    .fold(BigInt::zero(), |acc, ca| reduce(acc * &x + ca)),
            }
        };
        let mut values: Vec<BigInt> = Vec::with_capacity(distinct.len());
        for (i, block) in distinct.chunks(BIG_BLOCK).enumerate() {
            self.ctl.check((i * BIG_BLOCK) as u64)?;
            #[cfg(feature = "parallel")]
            values.par_extend(block.par_iter().map(value));
            #[cfg(not(feature = "parallel"))]
            values.extend(block.iter().map(value));
        }
        self.ctl.check(distinct.len() as u64)?;
        let index_of = |v: i128| distinct.binary_search(&v).unwrap_or(0);
        match self.want {
            Want::Target(t) => {
                // Σ_v f(v)·(Σ_{y: ĥ(y) = v} ±1): the inner sums are small integers.
                let mut signs = vec![0i64; distinct.len()];
                for (y, &v) in self.hat.iter().enumerate() {
                    signs[index_of(v)] += if minus(t, y) { -1 } else { 1 };
                }
                let sum = values
                    .iter()
                    .zip(&signs)
                    .filter(|(_, &s)| s != 0)
                    .fold(BigInt::zero(), |acc, (f, &s)| acc + f * s);
                Ok(vec![reduce(sum)])
            }
            Want::All => {
                let mut e: Vec<BigInt> = self
                    .hat
                    .iter()
                    .map(|&v| values[index_of(v)].clone())
                    .collect();
                wht_bigint(&mut e);
                Ok(e.into_iter().map(reduce).collect())
            }
        }
    }

    /// Refuses big-integer work beyond [`MAX_BIG_WORK`] word operations or [`MAX_BIG_MEMORY`]
    /// bytes, estimated from the number of distinct transformed values, the width of the numbers
    /// (`width_bits`) and the schoolbook (modular) or Karatsuba-like (exact powers) costs.
    fn check_big_work(&self, distinct: usize, width_bits: u64, exact: bool) -> Result<()> {
        let words = (width_bits / 64 + 1) as f64;
        let per_value = match &self.spectrum {
            Spectrum::Power(_) if exact => 3.0 * words.powf(1.6),
            // Each multiplication also pays a fixed cost (allocation, calls) of ~50 word operations.
            Spectrum::Power(k) => 2.0 * k.bits() as f64 * (words * words + 50.0),
            Spectrum::Poly(c) if exact => c.len() as f64 * words,
            Spectrum::Poly(c) => c.len() as f64 * (words * words + 50.0),
        };
        let f = self.hat.len() as f64;
        let (kept, transform) = match self.want {
            Want::Target(_) => (distinct as f64, 0.0),
            Want::All => (f, f * f.log2().max(1.0) * words),
        };
        let work = distinct as f64 * per_value + transform;
        let memory = kept * (words * 8.0 + 32.0);
        if work > MAX_BIG_WORK || memory > MAX_BIG_MEMORY {
            return Err(Error::limit(
                crate::LimitKind::ExactCount,
                format!(
                    "the count needs big-integer arithmetic on {distinct} distinct transformed \
                     values of about {width_bits} bits (about {work:.1e} word operations and \
                     {:.1} GiB; limits {MAX_BIG_WORK:.1e} and {:.1} GiB)",
                    memory / 1073741824.0,
                    MAX_BIG_MEMORY / 1073741824.0
                ),
                "count modulo a number below 2^64 that is coprime to K! (for --unordered), \
                 or over a smaller range of heap sizes",
            ));
        }
        Ok(())
    }

    /// The counts exactly.
    fn exact(&self, width_bits: u64) -> Result<Vec<BigUint>> {
        let d = BigInt::from(self.divisor.clone());
        self.solve_big(None, width_bits)?
            .into_iter()
            .map(|r| {
                let (q, rem) = r.div_rem(&d);
                if !rem.is_zero() || q.sign() == Sign::Minus {
                    return Err(Error::Internal(format!(
                        "the transform sum {r} is not a nonnegative multiple of {d}"
                    )));
                }
                Ok(q.magnitude().clone())
            })
            .collect()
    }

    /// The counts modulo `m` through big integers modulo `m·D` and exact division.
    fn modulo_big(&self, m: &BigUint) -> Result<Vec<BigUint>> {
        let w = m * &self.divisor;
        self.solve_big(Some(&w), w.bits())?
            .into_iter()
            .map(|r| {
                let r = r.magnitude().clone();
                if !(&r % &self.divisor).is_zero() {
                    return Err(Error::Internal(
                        "a transform residue is not divisible by the divisor".into(),
                    ));
                }
                Ok(r / &self.divisor % m)
            })
            .collect()
    }

    /// The counts modulo an odd `o > 1`: Montgomery words when `D` is invertible, else big.
    fn modulo_odd(&self, o: u64) -> Result<Vec<u64>> {
        let ring = Montgomery::new(o).ok_or_else(|| Error::Internal("even modulus".into()))?;
        match ring.inverse_of(&self.divisor) {
            Some(inv) => Ok(self
                .solve_in(&ring)?
                .into_iter()
                .map(|v| ring.from_mont(ring.mul(v, inv)))
                .collect()),
            None => self.big_to_u64(&BigUint::from(o)),
        }
    }

    /// The counts modulo `2^a` (`1 ≤ a ≤ 63`): modulo 2^128 with `v` spare bits when
    /// `a + v ≤ 128`, else big.
    fn modulo_pow2(&self, a: u32) -> Result<Vec<u64>> {
        let v = self.divisor.trailing_zeros().unwrap_or(0);
        if a as u64 + v > 128 {
            return self.big_to_u64(&(BigUint::one() << a));
        }
        let odd = &self.divisor >> v;
        let two_a = BigUint::one() << a;
        let inv = odd
            .modinv(&two_a)
            .and_then(|x| x.to_u128())
            .ok_or_else(|| Error::Internal("odd divisor not invertible mod 2^a".into()))?;
        let keep = a + v as u32; // ≤ 128
        let mask = if keep == 128 {
            u128::MAX
        } else {
            (1u128 << keep) - 1
        };
        let amask = (1u128 << a) - 1;
        Ok(self
            .solve_in(&Wrapping128)?
            .into_iter()
            .map(|r| ((((r & mask) >> v).wrapping_mul(inv)) & amask) as u64)
            .collect())
    }

    fn big_to_u64(&self, m: &BigUint) -> Result<Vec<u64>> {
        self.modulo_big(m)?
            .into_iter()
            .map(|x| {
                x.to_u64()
                    .ok_or_else(|| Error::Internal("residue above its modulus".into()))
            })
            .collect()
    }

    /// The counts modulo `q ≥ 1`.
    fn modulo(&self, q: &BigUint) -> Result<Vec<BigUint>> {
        let Some(q64) = q.to_u64() else {
            return self.modulo_big(q);
        };
        let len = match self.want {
            Want::Target(_) => 1,
            Want::All => self.hat.len(),
        };
        let (o, a) = split_odd(q64);
        let odd = if o > 1 {
            self.modulo_odd(o)?
        } else {
            vec![0; len]
        };
        let two = if a > 0 {
            self.modulo_pow2(a)?
        } else {
            vec![0; len]
        };
        Ok(odd
            .into_iter()
            .zip(two)
            .map(|(r_o, r_2)| BigUint::from(crt_odd_pow2(r_o, o, r_2, a)))
            .collect())
    }

    /// Checks that an exact answer stays within [`MAX_EXACT_BITS`]: the count is at most
    /// `base^K` with `base = T` (tuples) or `T + K` (multisets, `C(T+K−1, K) ≤ (T+K)^K`), and
    /// the intermediate sums carry `D` more.
    fn check_exact_size(&self, base: u128, k: &BigUint) -> Result<u64> {
        let per_heap = 128 - base.saturating_add(1).leading_zeros() as u64 + 1;
        let bits = k
            .to_u64()
            .and_then(|k| k.checked_mul(per_heap))
            .map(|b| b + self.divisor.bits())
            .unwrap_or(u64::MAX);
        if bits > MAX_EXACT_BITS {
            return Err(Error::limit(crate::LimitKind::ExactCount,
                format!(
                    "the exact count may need about {bits} bits, above the limit of {MAX_EXACT_BITS}"
                ),
                "count modulo a number instead",
            ));
        }
        Ok(bits)
    }

    fn run(&self, base: u128, k: &BigUint, modulus: Option<&BigUint>) -> Result<Vec<BigUint>> {
        match modulus {
            Some(q) if q.is_zero() => Err(Error::invalid("the modulus must be positive")),
            Some(q) => self.modulo(q),
            None => {
                let bits = self.check_exact_size(base, k)?;
                self.exact(bits)
            }
        }
    }
}

/// `target` as an index below `f`, or `None` if no nim-sum of values below `f` reaches it.
fn target_index(target: &BigUint, f: usize) -> Option<usize> {
    target.to_usize().filter(|&t| t < f)
}

/// The number of ordered `k`-tuples of heaps of the histogram whose Grundy values xor to
/// `target`, exactly or modulo `modulus` (any positive number). `k` may be any size when a
/// modulus is given.
pub fn count_tuples(
    h: &Histogram,
    k: &BigUint,
    target: &BigUint,
    modulus: Option<&BigUint>,
) -> Result<BigUint> {
    count_tuples_with(h, k, target, modulus, &Control::none())
}

/// [`count_tuples`] under `ctl`: `Err(Error::Cancelled(_))` once its token is cancelled or its
/// deadline passed (looked at between the transforms and every few thousand elements of the
/// pointwise powers, which are reported as progress).
pub fn count_tuples_with(
    h: &Histogram,
    k: &BigUint,
    target: &BigUint,
    modulus: Option<&BigUint>,
    ctl: &Control,
) -> Result<BigUint> {
    let Some(t) = target_index(target, h.transform_len()) else {
        return Ok(BigUint::zero());
    };
    let power = Spectrum::Power(k.clone());
    let p = Problem::new(h, power, BigUint::one(), Want::Target(t), ctl)?;
    Ok(p.run(h.total(), k, modulus)?.swap_remove(0))
}

/// For every nim-sum `z` below [`Histogram::transform_len`], the number of ordered `k`-tuples
/// whose values xor to `z` (exactly or modulo `modulus`).
pub fn tuple_distribution(
    h: &Histogram,
    k: &BigUint,
    modulus: Option<&BigUint>,
) -> Result<Vec<BigUint>> {
    tuple_distribution_with(h, k, modulus, &Control::none())
}

/// [`tuple_distribution`] under `ctl` (as [`count_tuples_with`]).
pub fn tuple_distribution_with(
    h: &Histogram,
    k: &BigUint,
    modulus: Option<&BigUint>,
    ctl: &Control,
) -> Result<Vec<BigUint>> {
    let p = Problem::new(
        h,
        Spectrum::Power(k.clone()),
        BigUint::one(),
        Want::All,
        ctl,
    )?;
    p.run(h.total(), k, modulus)
}

/// `P_K(x) = Σ_{σ ∈ S_K} x^{odd cycles} T^{even cycles}` (module docs), coefficients from
/// `x^0` up.
pub fn polya_polynomial(k: u64, total: u128) -> Vec<BigInt> {
    let k = k as usize;
    let t = BigInt::from(total);
    let mut p: Vec<Vec<BigInt>> = vec![vec![BigInt::one()]];
    for m in 1..=k {
        let mut pm = vec![BigInt::zero(); m + 1];
        // ways = (m−1)!/(m−j)!, built up as j grows.
        let mut ways = BigInt::one();
        for j in 1..=m {
            if j > 1 {
                ways *= m - j + 1;
            }
            let prev = &p[m - j];
            for (a, c) in prev.iter().enumerate() {
                if c.is_zero() {
                    continue;
                }
                if j % 2 == 1 {
                    pm[a + 1] += &ways * c;
                } else {
                    pm[a] += &ways * c * &t;
                }
            }
        }
        p.push(pm);
    }
    p.swap_remove(k)
}

fn multiset_problem<'c>(
    h: &Histogram,
    k: u64,
    want: Want,
    ctl: &'c Control<'c>,
) -> Result<Problem<'c>> {
    if k > MAX_UNORDERED_HEAPS {
        return Err(Error::limit(
            crate::LimitKind::Heaps,
            format!("unordered counts are computed for up to {MAX_UNORDERED_HEAPS} heaps, not {k}"),
            "count ordered tuples instead, or use fewer heaps",
        ));
    }
    let factorial: BigUint = (1..=k).map(BigUint::from).product();
    let polya = Spectrum::Poly(polya_polynomial(k, h.total()));
    Problem::new(h, polya, factorial, want, ctl)
}

/// The number of multisets of `k` heaps of the histogram (heap sizes are distinguished, order
/// is not) whose Grundy values xor to `target`, exactly or modulo any positive `modulus`;
/// `k ≤` [`MAX_UNORDERED_HEAPS`].
pub fn count_multisets(
    h: &Histogram,
    k: u64,
    target: &BigUint,
    modulus: Option<&BigUint>,
) -> Result<BigUint> {
    count_multisets_with(h, k, target, modulus, &Control::none())
}

/// [`count_multisets`] under `ctl` (as [`count_tuples_with`]).
pub fn count_multisets_with(
    h: &Histogram,
    k: u64,
    target: &BigUint,
    modulus: Option<&BigUint>,
    ctl: &Control,
) -> Result<BigUint> {
    let Some(t) = target_index(target, h.transform_len()) else {
        // Still reject a k beyond the limit, for a consistent answer.
        multiset_problem(&Histogram::from_counts(vec![])?, k, Want::Target(0), ctl)?;
        return Ok(BigUint::zero());
    };
    let p = multiset_problem(h, k, Want::Target(t), ctl)?;
    Ok(p.run(
        h.total().saturating_add(k as u128),
        &BigUint::from(k),
        modulus,
    )?
    .swap_remove(0))
}

/// For every nim-sum below [`Histogram::transform_len`], the number of multisets of `k` heaps
/// whose values xor to it.
pub fn multiset_distribution(
    h: &Histogram,
    k: u64,
    modulus: Option<&BigUint>,
) -> Result<Vec<BigUint>> {
    multiset_distribution_with(h, k, modulus, &Control::none())
}

/// [`multiset_distribution`] under `ctl` (as [`count_tuples_with`]).
pub fn multiset_distribution_with(
    h: &Histogram,
    k: u64,
    modulus: Option<&BigUint>,
    ctl: &Control,
) -> Result<Vec<BigUint>> {
    let p = multiset_problem(h, k, Want::All, ctl)?;
    p.run(
        h.total().saturating_add(k as u128),
        &BigUint::from(k),
        modulus,
    )
}

/// An estimate in floating point of the probability that `k` heaps drawn uniformly and
/// independently from the range have nim-sum `target`: `F^{-1} Σ_y ± (ĥ(y)/T)^k`. (The count
/// is this times `T^k`.) Rounding errors are about `F·2^{-52}`.
pub fn tuple_probability_f64(h: &Histogram, k: &BigUint, target: &BigUint) -> f64 {
    let f = h.transform_len();
    let total = h.total() as f64;
    let Some(t) = target_index(target, f) else {
        return 0.0;
    };
    if total == 0.0 {
        return if k.is_zero() && t == 0 { 1.0 } else { 0.0 };
    }
    let mut x = vec![0.0f64; f];
    for (xi, &c) in x.iter_mut().zip(h.counts()) {
        *xi = c as f64 / total;
    }
    wht(&mut x, &Float64);
    let kf = k.to_f64().unwrap_or(f64::MAX);
    let odd = k.bit(0);
    let sum: f64 = x
        .iter()
        .enumerate()
        .map(|(y, &r)| {
            let p = r.abs().powf(kf);
            let p = if r < 0.0 && odd { -p } else { p };
            if minus(t, y) {
                -p
            } else {
                p
            }
        })
        .sum();
    (sum / f as f64).clamp(0.0, 1.0)
}

/// What to count: the options of `grundy count`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CountSpec {
    /// The number of heaps `K`.
    pub heaps: BigUint,
    /// The nim-sum `X` counted.
    pub nim_sum: BigUint,
    /// Count modulo this (any positive number); exactly when `None`.
    pub modulus: Option<BigUint>,
    /// Count multisets rather than ordered tuples.
    pub unordered: bool,
    /// Also give the count for every nim-sum.
    pub distribution: bool,
}

impl CountSpec {
    /// Count the ordered `heaps`-tuples of nim-sum `nim_sum`, exactly, without the distribution.
    pub fn new(heaps: BigUint, nim_sum: BigUint) -> CountSpec {
        CountSpec {
            heaps,
            nim_sum,
            ..CountSpec::default()
        }
    }

    /// Counts modulo `modulus` (exactly when `None`).
    pub fn with_modulus(mut self, modulus: Option<BigUint>) -> CountSpec {
        self.modulus = modulus;
        self
    }

    /// Counts multisets (`true`) or ordered tuples (`false`).
    pub fn with_unordered(mut self, unordered: bool) -> CountSpec {
        self.unordered = unordered;
        self
    }

    /// Also gives the count for every nim-sum.
    pub fn with_distribution(mut self, distribution: bool) -> CountSpec {
        self.distribution = distribution;
        self
    }
}

/// The answer of [`count_from_histogram`].
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CountAnswer {
    /// The count for the requested nim-sum.
    pub count: BigUint,
    /// With [`CountSpec::distribution`], the count for each nim-sum `0..F`.
    pub distribution: Option<Vec<BigUint>>,
}

answer_document! {
    "count";
    /// The answer to "how many sums of heaps have this nim-sum?" as a document: what `grundy count
    /// --json` writes (JSON Schema: `docs/schemas/count.json`), the question (game, range of heap
    /// sizes, [`CountSpec`]) with its [`CountAnswer`]. Every number is an exact JSON integer of any
    /// size ([`Natural`]).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct CountDocument {
        /// The game in canonical notation.
        pub game: String,
        /// The number of heaps `K`.
        pub heaps: Natural,
        /// The smallest heap size counted.
        pub min: Natural,
        /// The largest heap size counted.
        pub max: Natural,
        /// The nim-sum `X` counted.
        pub nim_sum: Natural,
        /// The modulus of the count; `null` when the count is exact.
        pub modulus: Option<Natural>,
        /// Whether multisets are counted rather than ordered tuples.
        pub unordered: bool,
        /// The count for `nim_sum`.
        pub count: Natural,
        /// With the distribution asked for: the count for each nim-sum `0, 1, ...`; absent
        /// otherwise.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        pub distribution: Option<Vec<Natural>>,
    }
}

impl CountDocument {
    /// The document of `answer`, counted for `spec` over the heaps of `game` of sizes
    /// `min..=max`.
    pub fn new(
        game: impl Into<String>,
        min: u128,
        max: u128,
        spec: &CountSpec,
        answer: &CountAnswer,
    ) -> CountDocument {
        CountDocument {
            game: game.into(),
            heaps: Natural(spec.heaps.clone()),
            min: Natural::from(min),
            max: Natural::from(max),
            nim_sum: Natural(spec.nim_sum.clone()),
            modulus: spec.modulus.clone().map(Natural),
            unordered: spec.unordered,
            count: Natural(answer.count.clone()),
            distribution: answer
                .distribution
                .as_ref()
                .map(|d| d.iter().cloned().map(Natural).collect()),
        }
    }
}

/// The core of `grundy count`: counts tuples or multisets of the histogram's heaps as `spec`
/// says.
pub fn count_from_histogram(h: &Histogram, spec: &CountSpec) -> Result<CountAnswer> {
    count_from_histogram_with(h, spec, &Control::none())
}

/// [`count_from_histogram`] under `ctl`: the transforms stop with `Err(Error::Cancelled(_))` once
/// its token is cancelled or its deadline has passed (see [`count_tuples_with`]).
pub fn count_from_histogram_with(
    h: &Histogram,
    spec: &CountSpec,
    ctl: &Control,
) -> Result<CountAnswer> {
    if spec.modulus.as_ref().is_some_and(|q| q.is_zero()) {
        return Err(Error::invalid("the modulus must be positive"));
    }
    let modulus = spec.modulus.as_ref();
    let k_small = || {
        spec.heaps.to_u64().ok_or_else(|| {
            Error::limit(
                crate::LimitKind::Heaps,
                format!("unordered counts are computed for up to {MAX_UNORDERED_HEAPS} heaps"),
                "count ordered tuples instead",
            )
        })
    };
    if spec.distribution {
        let dist = if spec.unordered {
            multiset_distribution_with(h, k_small()?, modulus, ctl)?
        } else {
            tuple_distribution_with(h, &spec.heaps, modulus, ctl)?
        };
        let count =
            target_index(&spec.nim_sum, dist.len()).map_or_else(BigUint::zero, |t| dist[t].clone());
        return Ok(CountAnswer {
            count,
            distribution: Some(dist),
        });
    }
    let count = if spec.unordered {
        count_multisets_with(h, k_small()?, &spec.nim_sum, modulus, ctl)?
    } else {
        count_tuples_with(h, &spec.heaps, &spec.nim_sum, modulus, ctl)?
    };
    Ok(CountAnswer {
        count,
        distribution: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::histogram::{histogram_of_periodic, histogram_of_values, Limits, Periodic};
    use super::super::reference;
    use super::*;
    use proptest::prelude::*;

    fn hist(values: &[u64]) -> Histogram {
        let n = values.len() as u128;
        if n == 0 {
            return Histogram::from_counts(vec![]).unwrap();
        }
        histogram_of_values(values, 0, n - 1, &Limits::default()).unwrap()
    }

    fn big(x: u128) -> BigUint {
        BigUint::from(x)
    }

    const MODULI: [u64; 10] = [1, 2, 3, 4, 12, 97, 360, 1 << 40, 998_244_353, u64::MAX];

    /// Every target, every modulus (and exact), ordered and unordered, against enumeration.
    fn check_against_enumeration(values: &[u64], k: usize) {
        let h = hist(values);
        let f = h.transform_len();
        let kb = BigUint::from(k);
        let ordered = reference::tuples_by_enumeration(values, k);
        let unordered = reference::multisets_by_enumeration(values, k);
        for (want, is_multi) in [(&ordered, false), (&unordered, true)] {
            let mut want = want.clone();
            want.resize(f, 0);
            let dist = if is_multi {
                multiset_distribution(&h, k as u64, None).unwrap()
            } else {
                tuple_distribution(&h, &kb, None).unwrap()
            };
            assert_eq!(dist, want.iter().map(|&x| big(x)).collect::<Vec<_>>());
            for q in MODULI {
                let qb = BigUint::from(q);
                let dist = if is_multi {
                    multiset_distribution(&h, k as u64, Some(&qb)).unwrap()
                } else {
                    tuple_distribution(&h, &kb, Some(&qb)).unwrap()
                };
                for (t, w) in want.iter().enumerate() {
                    let w = big(w % q as u128);
                    assert_eq!(
                        dist[t], w,
                        "values {values:?} k={k} q={q} t={t} multi={is_multi}"
                    );
                    let one = if is_multi {
                        count_multisets(&h, k as u64, &BigUint::from(t), Some(&qb)).unwrap()
                    } else {
                        count_tuples(&h, &kb, &BigUint::from(t), Some(&qb)).unwrap()
                    };
                    assert_eq!(
                        one, w,
                        "values {values:?} k={k} q={q} t={t} multi={is_multi}"
                    );
                }
            }
            // A target beyond every nim-sum counts nothing.
            let far = BigUint::from(f);
            let c = if is_multi {
                count_multisets(&h, k as u64, &far, None).unwrap()
            } else {
                count_tuples(&h, &kb, &far, None).unwrap()
            };
            assert!(c.is_zero());
        }
    }

    #[test]
    fn small_games_exhaustively() {
        // Subtraction {1,2}: 0 1 2 0 1 2 ...; Kayles-like values; nim; a single heap; empty.
        let games: [&[u64]; 6] = [
            &[0, 1, 2, 0, 1, 2, 0],
            &[0, 1, 2, 3, 1, 4, 3, 2],
            &[0, 1, 2, 3, 4, 5],
            &[5],
            &[],
            &[0, 0, 0, 1],
        ];
        for values in games {
            for k in 0..=4 {
                check_against_enumeration(values, k);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn random_value_lists(values in proptest::collection::vec(0u64..12, 0..7), k in 0usize..4) {
            check_against_enumeration(&values, k);
        }

        #[test]
        fn big_moduli_and_exponents(
            values in proptest::collection::vec(0u64..9, 1..6),
            k in any::<u64>(),
            q in 2u64..1_000_000,
        ) {
            // Q ≥ 2^64 (big-integer route) must agree with Q = q (word route) after reduction;
            // and the transform route with repeated squaring of quadratic convolutions.
            let h = hist(&values);
            let kb = BigUint::from(k);
            let qb = BigUint::from(q);
            let q_big = &qb << 70u32;
            let small = tuple_distribution(&h, &kb, Some(&qb)).unwrap();
            let large = tuple_distribution(&h, &kb, Some(&q_big)).unwrap();
            for (s, l) in small.iter().zip(&large) {
                prop_assert_eq!(s, &(l % &qb));
            }
            let counts: Vec<u64> = h.counts().iter().map(|&c| c as u64).collect();
            let sq = reference::xor_power_by_squaring_mod(&counts, &kb, q);
            for (s, r) in small.iter().zip(&sq) {
                prop_assert_eq!(s, &BigUint::from(*r));
            }
        }
    }

    #[test]
    fn multisets_with_moduli_sharing_factors_with_k_factorial() {
        // 20! is divisible by every prime up to 19 and by 2^18: these moduli all need the
        // exact-division route, and must agree with the exact count.
        let values: Vec<u64> = (0..40).map(|n| n % 5).collect();
        let h = hist(&values);
        let k = 20;
        let exact = multiset_distribution(&h, k, None).unwrap();
        // Total multisets: C(40 + 20 − 1, 20).
        let total: BigUint = exact.iter().sum();
        let binom = (1..=20u64).fold(BigUint::one(), |acc, i| acc * (39 + i) / i);
        assert_eq!(total, binom);
        for q in [
            2u64,
            3,
            6,
            19 * 17,
            1 << 63,
            2_432_902_008_176_640_000,
            998_244_353,
        ] {
            let qb = BigUint::from(q);
            let m = multiset_distribution(&h, k, Some(&qb)).unwrap();
            for (a, b) in m.iter().zip(&exact) {
                assert_eq!(a, &(b % &qb), "q={q}");
            }
        }
        let q_big = BigUint::from(u64::MAX) * 7u8;
        let m = count_multisets(&h, k, &BigUint::from(3u8), Some(&q_big)).unwrap();
        assert_eq!(m, &exact[3] % &q_big);
        // K = 100: 2^97 divides 100!, so modulo 2^63 the 128-bit route is too narrow and the
        // big-integer route takes over.
        let exact = multiset_distribution(&h, 100, None).unwrap();
        let binom = (1..=100u64).fold(BigUint::one(), |acc, i| acc * (39 + i) / i);
        assert_eq!(exact.iter().sum::<BigUint>(), binom);
        let q = BigUint::one() << 63u32;
        let m = multiset_distribution(&h, 100, Some(&q)).unwrap();
        for (a, b) in m.iter().zip(&exact) {
            assert_eq!(a, &(b % &q));
        }
    }

    #[test]
    fn polya_polynomial_counts_permutations() {
        // P_K(1) with T = 1 counts all permutations: K!.
        for k in 0..8u64 {
            let p = polya_polynomial(k, 1);
            let s: BigInt = p.iter().sum();
            let fact: u64 = (1..=k).product();
            assert_eq!(s, BigInt::from(fact));
        }
        // P_2 = x² + T, P_3 = x³ + 3Tx + 2x.
        assert_eq!(polya_polynomial(2, 7), vec![7.into(), 0.into(), 1.into()]);
        assert_eq!(
            polya_polynomial(3, 7),
            vec![0.into(), 23.into(), 0.into(), 1.into()]
        );
    }

    /// The counts stop when told (a cancelled token, a passed deadline) in every form, report
    /// the elements of their pointwise steps as progress, and give the same answers under a
    /// control that lets them run.
    #[test]
    fn counts_stop_when_told_and_report_progress() {
        let values: Vec<u64> = (0..100_000u64).map(|n| n % 50_000).collect();
        let h = hist(&values);
        let (k, t, q) = (big(1_000_003), big(7), big(1_000_000_007));
        let token = crate::control::CancelToken::new();
        token.cancel();
        let stopped = Control::none().with_token(token);
        let past = Control::none().with_deadline(std::time::Instant::now());
        for ctl in [&stopped, &past] {
            assert!(matches!(
                count_tuples_with(&h, &k, &t, Some(&q), ctl),
                Err(Error::Cancelled(_))
            ));
            assert!(matches!(
                count_tuples_with(&h, &big(3), &t, None, ctl),
                Err(Error::Cancelled(_))
            ));
            let d = tuple_distribution_with(&h, &k, Some(&q), ctl);
            assert!(matches!(d, Err(Error::Cancelled(_))));
            assert!(matches!(
                count_multisets_with(&h, 5, &t, Some(&q), ctl),
                Err(Error::Cancelled(_))
            ));
            let d = multiset_distribution_with(&h, 5, Some(&q), ctl);
            assert!(matches!(d, Err(Error::Cancelled(_))));
        }
        let most = std::sync::atomic::AtomicU64::new(0);
        let report = |d: u64| {
            most.fetch_max(d, std::sync::atomic::Ordering::Relaxed);
        };
        let watched = Control::none().with_progress(&report);
        assert_eq!(
            count_tuples_with(&h, &k, &t, Some(&q), &watched),
            count_tuples(&h, &k, &t, Some(&q))
        );
        assert_eq!(most.into_inner(), h.transform_len() as u64);
        assert_eq!(
            count_multisets_with(&h, 5, &t, Some(&q), &Control::none()),
            count_multisets(&h, 5, &t, Some(&q))
        );
    }

    #[test]
    fn limits_and_bad_input() {
        let h = hist(&[0, 1, 2, 3]);
        let e = count_tuples(&h, &BigUint::from(1u64 << 40), &BigUint::zero(), None).unwrap_err();
        assert!(matches!(e, Error::Limit(_)), "{e}");
        let e = count_multisets(&h, 101, &BigUint::zero(), None).unwrap_err();
        assert!(matches!(e, Error::Limit(_)));
        let e = count_tuples(
            &h,
            &BigUint::one(),
            &BigUint::zero(),
            Some(&BigUint::zero()),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Invalid(_)));
        let spec = CountSpec {
            heaps: BigUint::from(10u8).pow(18),
            unordered: true,
            ..CountSpec::default()
        };
        assert!(matches!(
            count_from_histogram(&h, &spec),
            Err(Error::Limit(_))
        ));
    }

    #[test]
    fn big_integer_work_is_refused_before_it_starts() {
        // 2^20 distinct values, exact distribution of 1000-tuples: about 21000 bits for each of
        // 2^20 entries, beyond the memory limit.
        let h = Histogram::from_counts(vec![1; 1 << 20]).unwrap();
        let e = tuple_distribution(&h, &BigUint::from(1000u32), None).unwrap_err();
        assert!(matches!(e, Error::Limit(_)), "{e}");
    }

    #[test]
    fn float_estimate_is_close() {
        let values: Vec<u64> = (0..50).map(|n| n % 7).collect();
        let h = hist(&values);
        let k = BigUint::from(3u8);
        let exact = count_tuples(&h, &k, &BigUint::zero(), None).unwrap();
        let p = tuple_probability_f64(&h, &k, &BigUint::zero());
        let want = exact.to_f64().unwrap() / 50f64.powi(3);
        assert!((p - want).abs() < 1e-12, "{p} vs {want}");
    }

    /// The subtraction game with moves 1..m has G(n) = n mod (m+1).
    fn subtraction_histogram(m: u64, max: u128) -> Histogram {
        let g = Periodic {
            preperiod: vec![],
            period: (0..=m).collect(),
            saltus: 0,
        };
        histogram_of_periodic(&g, 1, max, &Limits::default()).unwrap()
    }

    #[test]
    fn a_large_range_and_heap_count_two_ways() {
        // A range of 1.3e13 heaps and 9.9e10 of them, with moves 1..m for small m: transform
        // powers against repeated squaring of quadratic convolutions (no transform at all).
        let k = BigUint::from(98_670_634_123u64);
        let q = 998_244_353u64;
        for m in [1u64, 2, 6, 100, 300] {
            let h = subtraction_histogram(m, 12_983_567_378_251);
            let counts: Vec<u64> = h.counts().iter().map(|&c| (c % q as u128) as u64).collect();
            let slow = reference::xor_power_by_squaring_mod(&counts, &k, q);
            let fast = tuple_distribution(&h, &k, Some(&BigUint::from(q))).unwrap();
            assert_eq!(
                fast,
                slow.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>()
            );
            let one = count_tuples(&h, &k, &BigUint::zero(), Some(&BigUint::from(q))).unwrap();
            assert_eq!(one, BigUint::from(slow[0]));
        }
    }

    #[test]
    fn seed_example_two_ways() {
        // Moves 1..10^6, heaps 1..12983567378251, 98670634123 heaps, modulo 998244353.
        let h = subtraction_histogram(1_000_000, 12_983_567_378_251);
        let k = BigUint::from(98_670_634_123u64);
        let q = 998_244_353u64;
        let fast = count_tuples(&h, &k, &BigUint::zero(), Some(&BigUint::from(q))).unwrap();
        // The same formula computed independently of the blocked kernel and of Montgomery
        // arithmetic: textbook butterflies with `%`, powers by u128 `%`.
        let slow = reference::count_by_textbook_transform(h.counts(), &k, 0, q);
        assert_eq!(fast, BigUint::from(slow));
        // Modulo Q·2^30 (word routes for both parts, then CRT), reduced modulo Q.
        let q2 = BigUint::from(q) << 30u32;
        let wide = count_tuples(&h, &k, &BigUint::zero(), Some(&q2)).unwrap();
        assert_eq!(wide % BigUint::from(q), BigUint::from(slow));
    }
}
