//! Frobenius powers, norms and the `p`-th power test (the module documentation of [`super`],
//! "Frobenius powers" and "The `p`-th power test by a norm").

use super::bits::*;
use super::*;

impl BinomialTower {
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
    pub(super) fn frob_level(&self, i: usize, r: usize, gamma: Vec<u64>) -> FrobLevel {
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
    pub(super) fn apply_at(&self, fr: &Frobenius, i: usize, x: &[u64]) -> Vec<u64> {
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
