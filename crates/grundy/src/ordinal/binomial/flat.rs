//! Products through a polynomial basis of the upper levels (the module documentation of
//! [`super`], "Products through a polynomial basis").

use super::bits::*;
use super::*;

impl BinomialTower {
    /// The polynomial basis of a lower level used for products (built on first use): the
    /// highest level `k` below the top of at most [`FLAT_BITS`] bits, when the top field has
    /// at least `flat_from_words` words; `None` when there is none, or when no element among
    /// those tried generates level `k` (then level `k` is not a field, only a ring).
    pub(super) fn flat(&self) -> Option<&Flat> {
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
    pub(super) fn compact(&self, x: &[u64], cw: usize) -> Vec<u64> {
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
    pub(super) fn spread(&self, c: &[u64], out: &mut [u64]) {
        for (t, o) in out.iter_mut().enumerate() {
            *o = get_bits(c, t * self.d, self.d) as u64;
        }
    }

    /// Builds [`Flat`] for level `k`: tries a few elements `θ` until `1, θ, …, θ^(deg-1)` are
    /// linearly independent over GF(2), i.e. `θ` generates level `k` (its minimal polynomial
    /// has degree `deg`), and inverts the matrix of those powers by Gauss–Jordan elimination.
    pub(super) fn build_flat(&self, k: usize) -> Option<Flat> {
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
    pub(super) fn mul_flat<S: Stop>(
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
}
