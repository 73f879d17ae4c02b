//! Products, squares and powers in the tower, level by level and through a Kronecker
//! substitution (the module documentation of [`super`], "The product").

use super::bits::*;
use super::*;

impl BinomialTower {
    /// `v mod P_0` for `v` of degree below `2D - 1`: `z^D ≡ low`, repeated.
    pub(super) fn reduce0(&self, mut v: u128) -> u64 {
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

    pub(super) fn mul0(&self, a: u64, b: u64) -> u64 {
        let (lo, hi) = clmul(a, b);
        self.reduce0(lo as u128 | ((hi as u128) << 64))
    }

    /// `out ^= x·c·Y_1^(e_1)⋯Y_i^(e_i)` for `x` in level `i` (module documentation): blocks
    /// move up by `e_i`, those passing `Y_i^(n_i)` wrap round times `α_i`.
    pub(super) fn mul_monomial_into(
        &self,
        i: usize,
        x: &[u64],
        c: u64,
        e: &[usize],
        out: &mut [u64],
    ) {
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
    pub(super) fn mul_sparse_into(&self, i: usize, x: &[u64], s: &Sparse, out: &mut [u64]) {
        for m in s {
            if m.c == 1 && m.e.iter().all(|&e| e == 0) {
                xor_into(out, x);
            } else {
                self.mul_monomial_into(i, x, m.c, &m.e, out);
            }
        }
    }

    /// `x·s` for `x` in level `i` and a sparse element `s` of level `i`.
    pub(super) fn mul_sparse(&self, i: usize, x: &[u64], s: &Sparse) -> Vec<u64> {
        let mut out = vec![0u64; self.w[i]];
        self.mul_sparse_into(i, x, s, &mut out);
        out
    }

    /// Reduces unreduced coefficients: `v[idx]` is the level-0 coefficient (already reduced
    /// modulo `P_0`) of `Y_1^(u_1)⋯Y_i^(u_i)` with `u_k < 2n_k - 1`, `idx` in mixed radix
    /// `(2n_1 - 1, …, 2n_i - 1)`. Folds level by level from the bottom (module documentation).
    pub(super) fn reduce_levels(&self, i: usize, v: Vec<u64>) -> Vec<u64> {
        self.reduce_levels_from(1, i, v)
    }

    /// As [`Self::reduce_levels`] for coefficients already reduced up to level `from - 1`:
    /// `v[idx]` is a block of `w[from - 1]` words, an element of level `from - 1`, the
    /// coefficient of `Y_from^(u_from)⋯Y_i^(u_i)`, `idx` in mixed radix `(2n_from - 1, …)`.
    pub(super) fn reduce_levels_from(&self, from: usize, i: usize, mut v: Vec<u64>) -> Vec<u64> {
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
    pub(super) fn padded_index(&self, i: usize, idx: usize, mult: usize) -> usize {
        self.padded_index_from(0, i, idx, mult)
    }

    /// As [`Self::padded_index`] over the levels `from + 1 ..= i` only.
    pub(super) fn padded_index_from(
        &self,
        from: usize,
        i: usize,
        mut idx: usize,
        mult: usize,
    ) -> usize {
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
    pub(super) fn mul_at(&self, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
        unstoppable(self.mul_at_until(i, a, b, &Never))
    }

    /// [`Self::mul_at`], stopped part-way when `stop` says so (in the transform of a large
    /// product: [`crate::gf2::fft::mul_until`]).
    pub(super) fn mul_at_until<S: Stop>(
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
    pub(super) fn mul_kronecker_until<S: Stop>(
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

    /// The square `a²` in level `i`: `Σ a_t² Y^(2t)`, reduced.
    pub(super) fn square_at(&self, i: usize, a: &[u64]) -> Vec<u64> {
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
    pub(super) fn pow_at(
        &self,
        i: usize,
        a: &[u64],
        e: &BigUint,
        ctl: &Control,
    ) -> Result<Vec<u64>> {
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
    pub(super) fn pow_small(&self, i: usize, a: &[u64], k: usize) -> Vec<u64> {
        let mut r = self.one_at(i);
        for b in (0..usize::BITS - k.leading_zeros()).rev() {
            r = self.square_at(i, &r);
            if (k >> b) & 1 == 1 {
                r = self.mul_at(i, &r, a);
            }
        }
        r
    }
}
