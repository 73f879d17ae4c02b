//! The excesses `α_p = κ_p^p`, computed by Lenstra's algorithm ("On the algebraic closure of
//! two", 1977; see also OEIS A380496).
//!
//! **What is sought.** For the odd prime `p`, `α_p` is the least ordinal below `κ_p` that is not a
//! `p`-th power of an ordinal below `κ_p` ([`super::nim_mul`]). The ordinals below `κ_p` are the
//! union of the finite fields `GF(2^M)` with all prime factors of `M` below `p`.
//!
//! **When is `x` a `p`-th power?** Let `f = f(p)` be the order of 2 modulo `p` (the least `f` with
//! `p | 2^f - 1`; it divides `p - 1`, so its prime factors are below `p`). Take `x ∈ GF(2^M)`.
//! If `f ∤ M`, then `p ∤ 2^M - 1 = |GF(2^M)^×|`, so `y ↦ y^p` is a bijection and `x` is a `p`-th
//! power. If `f | M`, the `p`-th powers of the cyclic group `GF(2^M)^×` are the `x` with
//! `x^((2^M-1)/p) = 1`; and enlarging `M` by factors below `p` does not change the answer,
//! because `v_p(2^M - 1) = v_p(2^f - 1) + v_p(M/f)` (lifting the exponent) stays the same, while
//! `x` is a `p`-th power in `GF(2^M')` exactly when `v_p(ord x) < v_p(2^M' - 1)`.
//! So: `x` is not a `p`-th power ⇔ `f | M` and `x^((2^M-1)/p) ≠ 1`, for any `M` whose field holds
//! `x`.
//!
//! **Where to look (Lenstra).** Define `κ_h` for every `h ≥ 2`: for a prime power `q = r^e`,
//! `κ_(2^e) = 2^(2^(e-1))` (a Fermat 2-power) and `κ_(r^e)` as in [`super::nim_mul`] for odd `r`;
//! otherwise let `q` be the part of `h` of its smallest prime and `g = h/q`, and put
//! `κ_h = κ_g` if `q` divides the degree `d(κ_g)` of `κ_g` over GF(2), else `κ_h = κ_g + κ_q`.
//! Lenstra proved that `α_p = κ_(f(p)) + m_p` (ordinal sum) for a natural number `m_p`, the
//! *Lenstra excess*: every ordinal below `κ_(f(p))` has degree prime to `f`'s largest prime parts
//! and is a `p`-th power. So the candidates `κ_f, κ_f + 1, κ_f + 2, …` are tested in turn, each in
//! the finite field of [`super::tower`] that holds it, by the criterion above: one exponentiation
//! with an exponent of `M` bits in `GF(2^M)`. Degrees `d(κ_g)` are computed in the same fields
//! (the least `d | M` with `x^(2^d) = x`). Known values of `m_p` for `p = 3, 5, 7, …`:
//! 0, 0, 1, 1, 0, 0, 4, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1 (OEIS A380496).

use super::binomial::{BinomialTower, Monomial, Sparse};
use super::nim_mul::{
    digits, odd_prime, odd_prime_index, reverse_digits, small_nim_mul, ClosureField, Coefficient,
    KappaPoly, TOWER_CACHE,
};
use super::tower::{TopField, Tower};
use super::Ordinal;
use crate::control::Control;
use crate::{Error, Result};
use num_traits::ToPrimitive;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The excess of one odd prime: `α_p = κ_(f(p)) + m_p`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excess {
    /// The odd prime `p`.
    pub p: u64,
    /// `f(p)`, the multiplicative order of 2 modulo `p`.
    pub f: u64,
    /// The Lenstra excess `m_p` (OEIS A380496).
    pub m: u64,
    /// `α_p = κ_p^p`, the least non-`p`-th power below `κ_p`.
    pub alpha: Ordinal,
    /// The degree `M` over GF(2) of the finite field in which `α_p` was tested.
    pub field_degree: usize,
    /// The time this prime's own computation took (without the smaller primes it needed);
    /// `None` when read from a cache.
    pub time: Option<Duration>,
}

/// The largest prime whose excess is attempted.
pub const MAX_EXCESS_PRIME: u64 = 1_000_000;

/// The multiplicative order of 2 modulo the odd number `p > 1`.
pub fn order_of_two(p: u64) -> u64 {
    let mut x = 2 % p;
    let mut h = 1;
    while x != 1 {
        x = (x as u128 * 2 % p as u128) as u64;
        h += 1;
    }
    h
}

/// The excesses of several odd primes, each in a field of its own (the smaller excesses it
/// needs computed afresh there, so the results do not depend on each other), the primes spread
/// over rayon's threads (feature `parallel`; one after the other without it), the largest
/// first. Results in the order of `primes`; `ctl` is shared: its cancel token and deadline stop
/// every search, and every test's working memory is reserved against its one budget.
pub fn excesses_of<C: Coefficient>(primes: &[u64], ctl: &Control) -> Vec<Result<Excess>> {
    let one = |p: u64| ClosureField::<C>::new().excess_with(p, ctl);
    // Largest first: the long ones start early and the short ones fill in behind them.
    let mut order: Vec<usize> = (0..primes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(primes[i]));
    #[cfg(feature = "parallel")]
    let found: Vec<(usize, Result<Excess>)> = {
        use rayon::prelude::*;
        order
            .par_iter()
            .with_max_len(1)
            .map(|&i| (i, one(primes[i])))
            .collect()
    };
    #[cfg(not(feature = "parallel"))]
    let found: Vec<(usize, Result<Excess>)> = order.iter().map(|&i| (i, one(primes[i]))).collect();
    let mut out: Vec<Option<Result<Excess>>> = (0..primes.len()).map(|_| None).collect();
    for (i, r) in found {
        out[i] = Some(r);
    }
    out.into_iter().flatten().collect()
}

/// The smallest prime factor of `h ≥ 2`.
fn smallest_prime_factor(h: u64) -> u64 {
    (2..)
        .find(|d| h.is_multiple_of(*d) || d * d > h)
        .map_or(h, |d| if h.is_multiple_of(d) { d } else { h })
}

impl<C: Coefficient> ClosureField<C> {
    /// The excess of the odd prime `p`, computed (with those of all smaller primes it needs) if
    /// not known yet. [`Error::Invalid`] if `p` is not an odd prime; [`Error::Limit`] if a field
    /// beyond [`ClosureField::max_degree`] would be needed.
    pub fn excess(&mut self, p: u64) -> Result<Excess> {
        let ctl = self.stop_control();
        self.excess_with(p, &ctl)
    }

    /// As [`excess`](Self::excess), checking `ctl` before each candidate and during each test
    /// (a norm and an `f`-bit power in a binomial tower of up to
    /// [`super::binomial::MAX_BINOMIAL_DEGREE`] bits); `ctl` receives the number of candidates
    /// tested, and each test's working memory is reserved against its budget first (an
    /// [`Error::Limit`] of kind memory when it does not fit), for this prime and the smaller
    /// ones it needs. `Err(Error::Cancelled(_))` when stopped; nothing is recorded for `p` then.
    pub fn excess_with(&mut self, p: u64, ctl: &Control) -> Result<Excess> {
        if let Some(e) = self.excess.get(&p) {
            return Ok(e.clone());
        }
        if p > MAX_EXCESS_PRIME {
            return Err(Error::limit(
                crate::LimitKind::Fixed,
                format!("excesses are computed for primes up to {MAX_EXCESS_PRIME}, not {p}"),
                "the fields needed grow quickly with p: some primes near 350 need fields of millions of bits",
            ));
        }
        if odd_prime_index(p).is_none() {
            return Err(Error::invalid(format!("{p} is not an odd prime")));
        }
        let start = Instant::now();
        self.nested.push(Duration::ZERO);
        // The excesses this one needs draw on the same memory budget.
        let outer_budget = std::mem::replace(&mut self.memory, ctl.memory().clone());
        let r = self.search_excess(p, ctl);
        self.memory = outer_budget;
        let inner = self.nested.pop().unwrap_or_default();
        let total = start.elapsed();
        if let Some(outer) = self.nested.last_mut() {
            *outer += total;
        }
        let mut ex = r?;
        ex.time = Some(total.saturating_sub(inner));
        self.excess.insert(p, ex.clone());
        Ok(ex)
    }

    /// The search of the module documentation: the first candidate `κ_f + m` that is not a
    /// `p`-th power, each tested in a binomial tower ([`KappaTower`]) by the norm to `GF(2^f)`
    /// ([`super::binomial`]), its working memory reserved against `ctl`'s budget first.
    fn search_excess(&mut self, p: u64, ctl: &Control) -> Result<Excess> {
        let f = order_of_two(p);
        for m in 0u64..1 << 16 {
            ctl.check(m)?;
            let x = self.candidate(f, m)?;
            let tower = self.kappa_tower(&[&x])?;
            let deg = tower.tower.degree();
            if !(deg as u64).is_multiple_of(f) {
                continue;
            }
            let _memory = ctl.reserve(
                tower.tower.working_bytes(),
                "the finite field in which an excess candidate is tested",
            )?;
            let v = tower.element(&x)?;
            let chi = tower.tower.pth_power_character(&v, p, f, ctl)?;
            if !tower.tower.is_one(&chi) {
                return Ok(Excess {
                    p,
                    f,
                    m,
                    alpha: x.to_ordinal(),
                    field_degree: deg,
                    time: None,
                });
            }
        }
        Err(Error::Internal(format!(
            "no excess found for {p} among the first 65536 candidates"
        )))
    }

    /// Checks an excess by a second route: every candidate `κ_f + m'`, `m' ≤ m`, is tested
    /// again with the power and the norm taken in the other order, `N(x^((2^f-1)/p))`
    /// ([`BinomialTower::pth_power_character_commuted`]: other products, other Frobenius
    /// tables, the big exponentiation on `x` itself rather than on its norm); the last must not
    /// be a `p`-th power and the others must be. `Ok(false)` when the routes disagree.
    /// Cancellable through `ctl`, each test's memory reserved against its budget.
    pub fn check_excess(&mut self, e: &Excess, ctl: &Control) -> Result<bool> {
        for m in 0..=e.m {
            ctl.check(m)?;
            let x = self.candidate(e.f, m)?;
            let tower = self.kappa_tower(&[&x])?;
            let deg = tower.tower.degree();
            // A field of degree prime to f has no p-th roots of unity: every x is a p-th power.
            let is_power = if !(deg as u64).is_multiple_of(e.f) {
                true
            } else {
                let _memory = ctl.reserve(
                    tower.tower.working_bytes(),
                    "the finite field in which an excess is checked",
                )?;
                let v = tower.element(&x)?;
                let chi = tower
                    .tower
                    .pth_power_character_commuted(&v, e.p, e.f, ctl)?;
                tower.tower.is_one(&chi)
            };
            if is_power != (m < e.m) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The candidate `κ_f + m` (ordinal sum: `m` is added to the finite part of `κ_f`).
    pub fn candidate(&mut self, f: u64, m: u64) -> Result<KappaPoly<C>> {
        let kf = self.kappa(f)?;
        let c0 = kf
            .terms()
            .find(|(mono, _)| mono.is_empty())
            .map(|(_, c)| c.to_natural())
            .unwrap_or_default();
        let mut x = KappaPoly::zero();
        for (mono, c) in kf.terms() {
            if !mono.is_empty() {
                x.add_term(mono.clone(), c.clone());
            }
        }
        let finite = C::from_natural(&(&c0 + m))
            .ok_or_else(|| Error::Internal("finite part too large".into()))?;
        x.add_term(Vec::new(), finite);
        Ok(x)
    }

    /// The binomial tower holding all of `xs` (the same fields as [`ClosureField::tower_for`],
    /// unflattened), from a small cache.
    pub fn kappa_tower(&mut self, xs: &[&KappaPoly<C>]) -> Result<Rc<KappaTower>> {
        let key = self.needs(xs)?;
        if let Some(i) = self.binomial.iter().position(|(k, _)| *k == key) {
            let entry = self.binomial.remove(i);
            let t = entry.1.clone();
            self.binomial.push(entry);
            return Ok(t);
        }
        let mul = small_nim_mul::<C>;
        let base = Tower::nimbers(key.0, &mul)?;
        let TopField::Flat(f0) = base.field() else {
            return Err(Error::Internal("the nimber level is not flat".into()));
        };
        let mut kt = KappaTower {
            tower: BinomialTower::new(f0.modulus())?,
            nim: (0..base.nimber_bits())
                .map(|b| base.nimber(1u64 << b)[0])
                .collect(),
            gens: Vec::new(),
        };
        for (&j, &k) in &key.1 {
            let a = self.alpha(j)?;
            let sparse = kt.sparse(&a)?;
            let pj = odd_prime(j);
            let n = (pj as usize)
                .checked_pow(k)
                .ok_or_else(|| Error::Internal("extension degree overflows".into()))?;
            kt.tower.adjoin(n, sparse)?;
            kt.gens.push((j, pj, k));
        }
        let t = Rc::new(kt);
        if self.binomial.len() >= TOWER_CACHE {
            self.binomial.remove(0);
        }
        self.binomial.push((key, t.clone()));
        Ok(t)
    }

    /// The control of the searches this field starts itself ([`ClosureField::watch`]): its
    /// token and deadline, and the memory budget of the excess search under way.
    fn stop_control(&self) -> Control<'static> {
        let (token, deadline) = self.stop.clone();
        let ctl = Control::none()
            .with_token(token)
            .with_memory(self.memory.clone());
        match deadline {
            Some(d) => ctl.with_deadline(d),
            None => ctl,
        }
    }

    /// Lenstra's `κ_h` (module documentation).
    pub fn kappa(&mut self, h: u64) -> Result<KappaPoly<C>> {
        if h < 2 {
            return Err(Error::Internal(format!("κ_{h} is not defined")));
        }
        if let Some(k) = self.kappas.get(&h) {
            return Ok(k.clone());
        }
        let k = self.kappa_uncached(h)?;
        self.kappas.insert(h, k.clone());
        Ok(k)
    }

    fn kappa_uncached(&mut self, h: u64) -> Result<KappaPoly<C>> {
        let r = smallest_prime_factor(h);
        let mut q = 1u64;
        while h.is_multiple_of(q * r) {
            q *= r;
        }
        let e = q.ilog(r);
        let kq = if r == 2 {
            let bits = 1u32 << (e - 1);
            if bits >= 64 {
                return Err(Error::limit(
                    crate::LimitKind::Fixed,
                    format!("κ_{q} = 2^{bits} is beyond the 64-bit nimbers used here"),
                    "",
                ));
            }
            KappaPoly::constant(C::from_u64(1u64 << bits))
        } else {
            let j = odd_prime_index(r).expect("r is an odd prime");
            let mut mono = vec![0u64; j + 1];
            mono[j] = q / r;
            KappaPoly::monomial(mono, C::one())
        };
        let g = h / q;
        if g == 1 {
            return Ok(kq);
        }
        let kg = self.kappa(g)?;
        if self.degree_divisible(&kg, r, e)? {
            Ok(kg)
        } else {
            Ok(kg.add(&kq))
        }
    }

    /// The degree over GF(2) of the ordinal `x` (of its minimal polynomial), computed in a finite
    /// field holding it.
    pub fn degree_of(&mut self, x: &KappaPoly<C>) -> Result<usize> {
        let tower = self.kappa_tower(&[x])?;
        let v = tower.element(x)?;
        let ctl = self.stop_control();
        tower.tower.element_degree(&v, &ctl)
    }

    /// Whether `r^e` divides the degree `d(x)` (`r` prime, `e ≥ 1`), by one Frobenius power: with
    /// `v = v_r(M)` for the field `GF(2^M)` holding `x`, `d | M`, so `r^e ∤ d` when `v < e`;
    /// otherwise `s = M / r^(v-e+1)` has `v_r(s) = e - 1` and the other prime parts of `M`, so
    /// `d | s` (`x ∈ GF(2^s)`, `x^(2^s) = x`) exactly when `v_r(d) < e`.
    pub fn degree_divisible(&mut self, x: &KappaPoly<C>, r: u64, e: u32) -> Result<bool> {
        let tower = self.kappa_tower(&[x])?;
        let v = tower.element(x)?;
        let m = tower.tower.degree() as u64;
        let (mut rest, mut val) = (m, 0u32);
        while rest.is_multiple_of(r) {
            rest /= r;
            val += 1;
        }
        if val < e {
            return Ok(false);
        }
        let s = m / r.pow(val - e + 1);
        let ctl = self.stop_control();
        let fr = tower.tower.frobenius(s, &ctl)?;
        Ok(tower.tower.apply(&fr, &v) != v)
    }

    /// The excesses known so far, increasing in `p`.
    pub fn known_excesses(&self) -> impl Iterator<Item = &Excess> {
        self.excess.values()
    }

    /// The known excesses as a cache file: one line `p<TAB>m<TAB>f<TAB>field degree<TAB>α_p<TAB>sum`
    /// each, after a comment line. `sum` is the checksum ([`crate::checksum::fnv1a`]) of the five fields before it, so a
    /// line cut short or altered is recognised and not used.
    pub fn excesses_to_tsv(&self) -> String {
        let mut s =
            String::from("# grundy excess cache: p\tm_p\tf(p)\tfield degree\talpha_p\tchecksum\n");
        for e in self.excess.values() {
            let fields = format!("{}\t{}\t{}\t{}\t{}", e.p, e.m, e.f, e.field_degree, e.alpha);
            s.push_str(&format!(
                "{fields}\t{:016x}\n",
                crate::checksum::fnv1a(fields.as_bytes())
            ));
        }
        s
    }

    /// Takes the entries of a cache file written by [`Self::excesses_to_tsv`], as read by
    /// [`crate::notation::ordinal::read_excess_cache`] (which keeps only lines whose checksum
    /// matches their fields; `unreadable` counts the others). An entry is taken only when it is
    /// consistent (an odd prime, `f` its order of 2, `α_p` below `ω^(ω^ω)` using only smaller
    /// primes); any other is rejected and counted, never used.
    pub fn load_excesses(
        &mut self,
        entries: impl IntoIterator<Item = CachedExcess>,
        unreadable: usize,
    ) -> CacheLoad {
        let mut load = CacheLoad {
            taken: 0,
            rejected: unreadable,
        };
        for CachedExcess {
            p,
            m,
            f,
            field_degree: deg,
            alpha,
        } in entries
        {
            load.rejected += 1;
            // A prime the engine never computes an excess for is no cache entry, and finding
            // the index of a huge prime would take minutes: refused before.
            if p > MAX_EXCESS_PRIME {
                continue;
            }
            let Some(j) = odd_prime_index(p) else {
                continue;
            };
            let Ok(poly) = KappaPoly::<C>::from_ordinal(&alpha) else {
                continue;
            };
            let uses_smaller = poly.terms().all(|(mono, _)| mono.len() <= j);
            let finite = alpha.finite_part().to_u64().unwrap_or(0);
            if order_of_two(p) != f || !uses_smaller || finite < m || poly.is_zero() {
                continue;
            }
            self.excess.insert(
                p,
                Excess {
                    p,
                    f,
                    m,
                    alpha,
                    field_degree: deg,
                    time: None,
                },
            );
            load.rejected -= 1;
            load.taken += 1;
        }
        load
    }
}

/// A finite field `GF(2^M)` below `ω^(ω^ω)` as a [`BinomialTower`] over the nimbers below `2^D`,
/// with the images of the nimber bits and the primes adjoined: level `i` adjoins
/// `Y_i = κ_(p^K)` for `gens[i-1] = (j, p, K)`, so `Y_i^(p^K) = α_p`.
pub struct KappaTower {
    /// The field.
    pub tower: BinomialTower,
    /// Image of the nimber `2^b` at level 0.
    nim: Vec<u64>,
    gens: Vec<(usize, u64, u32)>,
}

impl KappaTower {
    /// The monomials of `x` in the tower's coordinates at its current height (module
    /// documentation of [`super::binomial`]: `ω^(ω^j·a) = Y^(a reversed in K base-p digits)`).
    fn sparse<C: Coefficient>(&self, x: &KappaPoly<C>) -> Result<Sparse> {
        let mut out = Vec::new();
        for (mono, c) in x.terms() {
            let c = c
                .to_natural()
                .to_u64()
                .filter(|&c| c >> (self.nim.len() - 1) >> 1 == 0)
                .ok_or_else(|| Error::Internal("coefficient outside the tower".into()))?;
            let c = (0..self.nim.len())
                .filter(|b| (c >> b) & 1 == 1)
                .fold(0u64, |acc, b| acc ^ self.nim[b]);
            let mut e = vec![0usize; self.gens.len()];
            for (j, &a) in mono.iter().enumerate() {
                if a == 0 {
                    continue;
                }
                let i = self
                    .gens
                    .iter()
                    .position(|g| g.0 == j)
                    .ok_or_else(|| Error::Internal("prime outside the tower".into()))?;
                let (_, p, k) = self.gens[i];
                if digits(a, p).len() > k as usize {
                    return Err(Error::Internal("exponent outside the tower".into()));
                }
                e[i] = reverse_digits(a, p, k) as usize;
            }
            out.push(Monomial { c, e });
        }
        Ok(out)
    }

    /// The image of `x` in the top field.
    pub fn element<C: Coefficient>(&self, x: &KappaPoly<C>) -> Result<Vec<u64>> {
        let mut v = vec![0u64; self.tower.words()];
        for m in self.sparse(x)? {
            let y = self.tower.monomial(&m)?;
            for (a, b) in v.iter_mut().zip(y) {
                *a ^= b;
            }
        }
        Ok(v)
    }
}

/// One entry of the excess cache as read from its line, not yet checked against the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedExcess {
    /// The odd prime `p`.
    pub p: u64,
    /// The excess `m_p`.
    pub m: u64,
    /// The order `f(p)` of 2 modulo `p`.
    pub f: u64,
    /// The degree of the field the excess was found in.
    pub field_degree: usize,
    /// `α_p`.
    pub alpha: Ordinal,
}

/// What [`ClosureField::load_excesses`] did with a cache file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheLoad {
    /// Entries taken.
    pub taken: usize,
    /// Non-comment lines not taken: a checksum that does not match (a line cut short or
    /// altered), or an entry that is not consistent.
    pub rejected: usize,
}

#[cfg(any(test, feature = "testing"))]
/// The defining property of `α_p` checked slowly and independently of the flat fields: with the
/// κ-polynomial product only.
pub mod reference {
    use super::super::nim_mul::{odd_prime, ClosureField, Coefficient, KappaPoly};
    use crate::Result;
    use num_bigint::BigUint;
    use num_integer::Integer;
    use num_traits::One;

    /// Whether `x` is a `p`-th power of an ordinal below `κ_p`, by the criterion of the module
    /// documentation, with `x^((2^M - 1)/p)` computed by repeated κ-polynomial products in a field
    /// degree `M` read off `x`'s generators: `M = lcm(2^J · Π p_j^(K_j), f(p))`.
    pub fn is_pth_power<C: Coefficient>(
        field: &mut ClosureField<C>,
        x: &KappaPoly<C>,
        p: u64,
    ) -> Result<bool> {
        let (level, k) = field.needs(&[x])?;
        let mut m: u64 = 1 << level;
        for (&j, &d) in &k {
            m *= odd_prime(j).pow(d);
        }
        let m = m.lcm(&super::order_of_two(p));
        let e = ((BigUint::one() << m) - 1u32) / p;
        let y = field.pow_by_products(x, &e)?;
        Ok(y == KappaPoly::constant(C::one()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::nim_mul::tests::F;
    use super::*;
    use crate::notation::ordinal::load_excess_cache;

    /// A watched field stops the excess searches that products start, once its token is
    /// cancelled, and records nothing; unwatched again, it computes the excess.
    #[test]
    fn watched_excess_searches_stop() {
        let mut field = F::new();
        let token = crate::control::CancelToken::new();
        token.cancel();
        field.watch(&Control::none().with_token(token));
        assert!(matches!(field.excess(11), Err(Error::Cancelled(_))));
        assert!(!field.known_excesses().any(|e| e.p == 11));
        field.watch(&Control::none());
        assert!(field.excess(11).is_ok());
    }

    /// OEIS A380496: the Lenstra excesses of the odd primes 3, 5, 7, …, 577 (105 terms).
    pub(crate) const PUBLISHED: [u64; 105] = [
        0, 0, 1, 1, 0, 0, 4, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 1,
        0, 1, 0, 1, 0, 1, 4, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 1,
        0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1,
        1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0,
    ];

    /// All 105 published excesses (p ≤ 577), each prime in a fresh field: about 6 minutes of
    /// CPU together (each prime's time is in `docs/performance.md`).
    /// `cargo test -p grundy --release --lib -- --ignored every_published_excess --nocapture`
    #[test]
    #[ignore = "about 6 min of CPU: all 105 published excesses from scratch; run with --ignored"]
    fn every_published_excess() {
        for (j, &want) in PUBLISHED.iter().enumerate() {
            let p = odd_prime(j);
            let start = Instant::now();
            let e = F::new().excess(p).unwrap();
            println!(
                "p = {p}: m = {}, field degree {}, {:.1} s",
                e.m,
                e.field_degree,
                start.elapsed().as_secs_f64()
            );
            assert_eq!(e.m, want, "m_{p}");
        }
    }

    /// Several primes at once (on two threads with the feature `parallel`) give the published
    /// values, in the order asked, and a cancelled control stops them all.
    #[test]
    fn excesses_of_several_primes() {
        let primes: Vec<u64> = (0..30).map(odd_prime).rev().collect();
        let got = excesses_of::<super::super::nim_mul::tests::TestNim>(&primes, &Control::none());
        for (p, e) in primes.iter().zip(got) {
            let j = odd_prime_index(*p).unwrap();
            let e = e.unwrap();
            assert_eq!((e.p, e.m), (*p, PUBLISHED[j]), "m_{p}");
        }
        // The second route agrees; a wrong excess (one too small or too large) is caught.
        let mut f = F::new();
        for p in [19u64, 47, 163] {
            let e = f.excess(p).unwrap();
            assert!(f.check_excess(&e, &Control::none()).unwrap(), "{p}");
            for wrong in [e.m + 1, e.m.wrapping_sub(1)] {
                if wrong > 8 {
                    continue;
                }
                let bad = Excess {
                    m: wrong,
                    ..e.clone()
                };
                assert!(
                    !f.check_excess(&bad, &Control::none()).unwrap(),
                    "{p}, {wrong}"
                );
            }
        }
        let token = crate::control::CancelToken::new();
        token.cancel();
        let ctl = Control::none().with_token(token);
        let got = excesses_of::<super::super::nim_mul::tests::TestNim>(&[47, 59], &ctl);
        assert_eq!(
            got,
            vec![
                Err(Error::Cancelled(crate::error::Interruption::Token)),
                Err(Error::Cancelled(crate::error::Interruption::Token))
            ]
        );
    }

    /// The norm test of the binomial towers agrees, candidate by candidate, with the plain
    /// power `x^((2^M - 1)/p)` in the flattened field of [`super::super::tower`] (fields up to
    /// 1200 bits), and with its own commuted order `N(x^((2^f-1)/p))`; the value is a `p`-th
    /// root of unity.
    #[test]
    fn norm_test_agrees_with_the_flat_power() {
        use crate::gf2::BinaryField;
        use num_bigint::BigUint;
        use num_traits::One;
        let mut f = F::new();
        let ctl = Control::none();
        let mut compared = 0;
        for j in 0..20 {
            let p = odd_prime(j);
            let e = f.excess(p).unwrap();
            for m in 0..=e.m + 1 {
                let x = f.candidate(e.f, m).unwrap();
                let kt = f.kappa_tower(&[&x]).unwrap();
                let deg = kt.tower.degree();
                if !deg.is_multiple_of(e.f as usize) || deg > 1200 {
                    continue;
                }
                let v = kt.element(&x).unwrap();
                let chi = kt.tower.pth_power_character(&v, p, e.f, &ctl).unwrap();
                let other = kt
                    .tower
                    .pth_power_character_commuted(&v, p, e.f, &ctl)
                    .unwrap();
                assert_eq!(chi, other, "p = {p}, m = {m}");
                let order = BigUint::from(p);
                assert!(kt.tower.is_one(&kt.tower.pow(&chi, &order, &ctl).unwrap()));
                let flat = f.tower_for(&[&x]).unwrap();
                assert_eq!(flat.degree(), deg);
                let fv = f.poly_to_flat(&flat, &x).unwrap();
                let exp = ((BigUint::one() << deg) - 1u32) / p;
                let want = flat.field().pow(&fv, &exp);
                assert_eq!(
                    kt.tower.is_one(&chi),
                    flat.field().is_one(&want),
                    "p = {p}, m = {m}"
                );
                if m <= e.m {
                    assert_eq!(!kt.tower.is_one(&chi), m == e.m, "p = {p}, m = {m}");
                }
                // The degrees of the candidate agree too.
                assert_eq!(
                    kt.tower.element_degree(&v, &ctl).unwrap(),
                    flat.field().element_degree(&fv),
                    "p = {p}, m = {m}"
                );
                compared += 1;
            }
        }
        assert!(compared >= 20, "{compared}");
    }

    /// In the towers of the excess search, products through the polynomial basis of a lower
    /// level agree with the Kronecker products of every level (random elements, and the norm
    /// test of each candidate), wherever a level of at most `FLAT_BITS` bits lies under the top.
    #[test]
    fn polynomial_basis_products_agree_in_the_excess_towers() {
        use super::super::binomial::FLAT_BITS;
        let mut f = F::new();
        let ctl = Control::none();
        let mut seed = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = 0;
        for j in 0..40 {
            let p = odd_prime(j);
            let e = f.excess(p).unwrap();
            for m in 0..=e.m {
                let x = f.candidate(e.f, m).unwrap();
                let kt = f.kappa_tower(&[&x]).unwrap();
                if kt.tower.degree() > 40_000 {
                    continue;
                }
                let mut flat = kt.tower.clone();
                flat.set_flat(0, FLAT_BITS);
                let mut plain = kt.tower.clone();
                plain.set_flat(usize::MAX, 0);
                let Some(k) = flat.flat_level() else {
                    continue;
                };
                let d = kt.tower.degree() / kt.tower.words();
                let mask = if d == 64 { u64::MAX } else { (1u64 << d) - 1 };
                let a: Vec<u64> = (0..flat.words()).map(|_| next() & mask).collect();
                let b: Vec<u64> = (0..flat.words()).map(|_| next() & mask).collect();
                assert_eq!(flat.mul(&a, &b), plain.mul(&a, &b), "p = {p}, k = {k}");
                if (kt.tower.degree() as u64).is_multiple_of(e.f) {
                    let v = kt.element(&x).unwrap();
                    let chi = flat.pth_power_character(&v, p, e.f, &ctl).unwrap();
                    let want = plain.pth_power_character(&v, p, e.f, &ctl).unwrap();
                    assert_eq!(chi, want, "p = {p}, m = {m}");
                    assert_eq!(!flat.is_one(&chi), m == e.m, "p = {p}, m = {m}");
                }
                compared += 1;
            }
        }
        assert!(compared >= 10, "{compared}");
    }

    /// A memory budget too small for the field of a test stops the search with a memory limit
    /// (for the prime asked and for the smaller ones it needs) and records nothing.
    #[test]
    fn excess_tests_are_charged_to_the_memory_budget() {
        let mut f = F::new();
        let ctl = Control::none().with_memory(crate::control::MemoryBudget::new(1000));
        match f.excess_with(47, &ctl) {
            Err(Error::Limit(l)) => assert_eq!(l.kind, crate::LimitKind::Memory),
            other => panic!("{other:?}"),
        }
        assert!(!f.known_excesses().any(|e| e.p == 47 || e.p == 23));
        assert_eq!(f.excess(47).unwrap().m, 1);
    }

    #[test]
    fn orders_of_two() {
        let want = [
            (3, 2),
            (5, 4),
            (7, 3),
            (11, 10),
            (23, 11),
            (47, 23),
            (73, 9),
        ];
        for (p, f) in want {
            assert_eq!(order_of_two(p), f, "f({p})");
        }
    }

    #[test]
    fn bad_primes_are_invalid() {
        let mut f = F::new();
        for p in [0, 1, 2, 4, 9, 15, 91] {
            assert!(matches!(f.excess(p), Err(Error::Invalid(_))), "{p}");
        }
    }

    #[test]
    fn lenstra_kappas() {
        // κ_12 = κ_3 + κ_4 = ω + 4 (4 ∤ d(ω) = 6); κ_18 = κ_9 = ω³ (2 | d(ω³) = 18);
        // κ_35 = κ_7 + κ_5 (5 ∤ d(κ_7) = 42).
        let mut f = F::new();
        assert_eq!(f.kappa(12).unwrap().to_ordinal().to_string(), "w+4");
        assert_eq!(f.kappa(18).unwrap().to_ordinal().to_string(), "w^3");
        assert_eq!(
            f.kappa(35).unwrap().to_ordinal().to_string(),
            "w^(w^2)+w^(w)"
        );
        let omega = f.kappa(3).unwrap();
        assert_eq!(f.degree_of(&omega).unwrap(), 6);
        // The one-Frobenius divisibility test agrees with the full degree.
        for h in [3u64, 5, 7, 12, 23, 35, 46, 94] {
            let x = f.kappa(h).unwrap();
            let d = f.degree_of(&x).unwrap() as u64;
            for (r, e) in [
                (2u64, 1u32),
                (2, 2),
                (2, 3),
                (3, 1),
                (3, 2),
                (5, 1),
                (23, 1),
                (47, 1),
            ] {
                assert_eq!(
                    f.degree_divisible(&x, r, e).unwrap(),
                    d.is_multiple_of(r.pow(e)),
                    "κ_{h}, {r}^{e}"
                );
            }
        }
    }

    #[test]
    fn cache_round_trip_and_bad_lines() {
        let mut f = F::new();
        for p in [3, 5, 7, 11, 13] {
            f.excess(p).unwrap();
        }
        let tsv = f.excesses_to_tsv();
        let mut g = F::new();
        assert_eq!(load_excess_cache(&mut g, &tsv).taken, 5);
        for p in [3, 5, 7, 11, 13] {
            let (a, b) = (f.excess(p).unwrap(), g.excess(p).unwrap());
            assert_eq!((a.m, a.f, &a.alpha), (b.m, b.f, &b.alpha));
        }
        // Inconsistent entries, each with a correct checksum: rejected by the consistency checks.
        let signed = |fields: &str| {
            format!(
                "{fields}\t{:016x}\n",
                crate::checksum::fnv1a(fields.as_bytes())
            )
        };
        let bad: String = ["9\t0\t6\t6\tw", "7\t1\t4\t6\tw+1", "7\t1\t3\t6\tw^(w^5)"]
            .into_iter()
            .map(signed)
            .chain(["x\n".to_string()])
            .collect();
        let load = load_excess_cache(&mut F::new(), &bad);
        assert_eq!((load.taken, load.rejected), (0, 4));
        // A file cut short anywhere inside its last line: that line is rejected, the others
        // taken; a one-byte change anywhere in a line rejects that line.
        let lines: Vec<&str> = tsv.lines().collect();
        let last = lines.last().unwrap();
        let head = tsv.len() - last.len() - 1;
        for cut in head + 1..tsv.len() - 1 {
            let load = load_excess_cache(&mut F::new(), &tsv[..cut]);
            assert_eq!((load.taken, load.rejected), (4, 1), "cut at {cut}");
        }
        for (i, line) in lines.iter().enumerate().skip(1) {
            for at in 0..line.len() {
                let mut bytes = line.as_bytes().to_vec();
                bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
                let altered = String::from_utf8(bytes).unwrap();
                let load = load_excess_cache(&mut F::new(), &altered);
                assert_eq!((load.taken, load.rejected), (0, 1), "line {i}, byte {at}");
            }
        }
        // The line format of old caches (no checksum) is not trusted.
        let old = "3\t1\t2\t2\t2\n";
        assert_eq!(load_excess_cache(&mut F::new(), old).rejected, 1);
    }
}
