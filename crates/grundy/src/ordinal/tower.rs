//! A finite piece of the field below `ω^(ω^ω)` written out flat: `GF(2^M) = GF(2)[z]/(P)`, with
//! the images of the nimbers and of the generators `κ` in it.
//!
//! The piece is built as a tower. Level 0 is the field of nimbers below `2^D` (`D = 2^J`), and
//! each further level adjoins the top generator `Y = κ_(p^K)` of one odd prime `p`, whose minimal
//! polynomial over everything below `κ_p` is `Y^(p^K) - α_p` (irreducible because `α_p` is not a
//! `p`-th power there; Capelli's theorem, `p` odd). So level `i` is `F_(i-1)[Y]/(Y^N - α_p)`,
//! `N = p^K`, of degree `N·m_(i-1)` over GF(2), with `α_p` already an element of `F_(i-1)`
//! because it lies below `κ_p`.
//!
//! **Flattening a level.** A vector over `F_(i-1)` of length `N` is a bit vector of length
//! `m = N·m_(i-1)`. Take `w = Y + c` for a small `c ∈ F_(i-1)` and compute `1, w, w², …` in tower
//! coordinates (multiplying by `w` is a shift of the `N` blocks, the top one wrapping round times
//! `α`, plus `N` products by `c`). Gaussian elimination over GF(2) finds the first linear
//! dependency among the powers. If it comes at `w^m`, then `w` generates the level, its minimal
//! polynomial `P` (read off the dependency) has degree `m`, and the level is `GF(2)[z]/(P)` with
//! `z ↦ w`; otherwise the next `c` is tried. The elimination also converts between the two
//! coordinate systems: tower → flat by reducing against the echelon rows (their tracked
//! combinations give the coefficients on the powers of `w`), flat → tower by adding up the
//! stored powers. Cost: `O(m³/64)` word operations for the elimination, once per level.

use super::gf2::{self, Gf2Field};
use crate::{Error, Result};

/// Row echelon form over GF(2) with each row's combination of the inserted vectors tracked.
struct Echelon {
    /// `pivot[b]` = index in `rows` of the row whose highest set bit is `b`.
    pivot: Vec<u32>,
    rows: Vec<(Vec<u64>, Vec<u64>)>,
    track_words: usize,
}

const NONE: u32 = u32::MAX;

impl Echelon {
    fn new(width_bits: usize, track_bits: usize) -> Self {
        Echelon {
            pivot: vec![NONE; width_bits],
            rows: Vec::new(),
            track_words: track_bits.div_ceil(64),
        }
    }

    /// Reduces `v` (and its tracked combination `t`) by the rows from the highest bit down; stops
    /// at the first set bit without a pivot and returns it (`None` when `v` became zero).
    fn reduce(&self, v: &mut [u64], t: &mut [u64]) -> Option<usize> {
        let mut w = v.len();
        while w > 0 {
            let word = v[w - 1];
            if word == 0 {
                w -= 1;
                continue;
            }
            let b = 64 * (w - 1) + 63 - word.leading_zeros() as usize;
            let r = self.pivot[b];
            if r == NONE {
                return Some(b);
            }
            let (row, track) = &self.rows[r as usize];
            for (x, y) in v[..w].iter_mut().zip(row) {
                *x ^= y;
            }
            for (x, y) in t.iter_mut().zip(track) {
                *x ^= y;
            }
        }
        None
    }

    /// Inserts `v` tracked as `t`; returns the combination giving zero if `v` depends on the rows.
    fn insert(&mut self, mut v: Vec<u64>, mut t: Vec<u64>) -> Option<Vec<u64>> {
        match self.reduce(&mut v, &mut t) {
            None => Some(t),
            Some(b) => {
                self.pivot[b] = self.rows.len() as u32;
                self.rows.push((v, t));
                None
            }
        }
    }
}

/// One level of the tower: its flat field and the conversions to and from tower coordinates.
struct Level {
    field: Gf2Field,
    /// The extension made here: `(prime index j, prime p, digits K, N = p^K)`; `None` at level 0.
    ext: Option<(usize, u64, u32, usize)>,
    /// `rows[k]` = tower coordinates of `z^k` (`N` blocks of the previous level's words; at level 0
    /// one word, the nimber itself).
    rows: Vec<Vec<u64>>,
    basis: Echelon,
}

/// A flat finite field `GF(2^M)` built as a tower over the nimbers below `2^(2^J)`, with the
/// images of the nimber bits and of each level's generator in its top level.
pub struct Tower {
    levels: Vec<Level>,
    /// Image in the top field of the nimber `2^b`, `b < 2^J`.
    nim_img: Vec<Vec<u64>>,
    /// Image in the top field of the generator `Y` of level `i` (index `i - 1`).
    gen_img: Vec<Vec<u64>>,
}

/// The nimber product of two nimbers below `2^64`, supplied by the caller (the shared nimber
/// field types).
pub type NimMul<'a> = &'a dyn Fn(u64, u64) -> u64;

impl Tower {
    /// Level 0: the nimbers below `2^D`, `D = 2^level` (`1 ≤ level ≤ 6`), made flat by a
    /// generator found as described in the module documentation, with `mul` the nimber product.
    pub fn nimbers(level: u32, mul: NimMul<'_>) -> Result<Tower> {
        if !(1..=6).contains(&level) {
            return Err(Error::Internal(format!(
                "nimber level {level} out of 1..=6"
            )));
        }
        let d = 1usize << level;
        // The Fermat 2-power w = 2^(d/2) lies outside the subfield of nimbers below 2^(d/2), and
        // the subfields of GF(2^d) have degrees dividing d (powers of 2): so w has degree d.
        let w = 1u64 << (d / 2);
        let mut basis = Echelon::new(d, d + 1);
        let mut rows = Vec::with_capacity(d);
        let mut x = 1u64;
        let mut found = None;
        for k in 0..=d {
            let mut t = vec![0u64; (d + 1).div_ceil(64)];
            t[k / 64] |= 1 << (k % 64);
            if let Some(dep) = basis.insert(vec![x], t) {
                found = Some((k, dep));
                break;
            }
            rows.push(vec![x]);
            x = mul(x, w);
        }
        let Some((k, minpoly)) = found.filter(|(k, _)| *k == d) else {
            return Err(Error::Internal(format!(
                "the nimber 2^{} does not have degree {d}",
                d / 2
            )));
        };
        debug_assert_eq!(k, d);
        rows.truncate(d);
        let mut tower = Tower {
            levels: vec![Level {
                field: Gf2Field::new(&minpoly),
                ext: None,
                rows,
                basis,
            }],
            nim_img: Vec::new(),
            gen_img: Vec::new(),
        };
        tower.nim_img = (0..d)
            .map(|b| tower.solve_top(vec![1u64 << b]))
            .collect::<Result<_>>()?;
        Ok(tower)
    }

    /// The top (flat) field.
    pub fn field(&self) -> &Gf2Field {
        &self.levels.last().expect("a tower has a level").field
    }

    /// The degree `M` of the top field over GF(2).
    pub fn degree(&self) -> usize {
        self.field().degree()
    }

    /// The number `D` of nimber bits at level 0.
    pub fn nimber_bits(&self) -> usize {
        self.levels[0].field.degree()
    }

    /// The prime indices adjoined, with their digit counts `K`, bottom to top.
    pub fn extensions(&self) -> Vec<(usize, u32)> {
        self.levels
            .iter()
            .filter_map(|l| l.ext.map(|(j, _, k, _)| (j, k)))
            .collect()
    }

    /// Image of the nimber `x < 2^D` in the top field.
    pub fn nimber(&self, x: u64) -> Vec<u64> {
        let f = self.field();
        let mut v = f.zero();
        for (b, img) in self.nim_img.iter().enumerate() {
            if (x >> b) & 1 == 1 {
                for (a, c) in v.iter_mut().zip(img) {
                    *a ^= c;
                }
            }
        }
        v
    }

    /// Image of the generator `κ_(p^K)` of the level adjoining prime index `j`, with `K`.
    pub fn generator(&self, j: usize) -> Option<(&[u64], u32)> {
        self.levels[1..]
            .iter()
            .zip(&self.gen_img)
            .find(|(l, _)| l.ext.is_some_and(|e| e.0 == j))
            .map(|(l, g)| (g.as_slice(), l.ext.expect("found by ext").2))
    }

    /// Tower coordinates (at the top level) → flat coordinates.
    fn solve_top(&self, mut v: Vec<u64>) -> Result<Vec<u64>> {
        let top = self.levels.last().expect("a tower has a level");
        let mut t = vec![0u64; top.basis.track_words];
        if top.basis.reduce(&mut v, &mut t).is_some() {
            return Err(Error::Internal(
                "vector outside the span of the basis".into(),
            ));
        }
        t.truncate(top.field.words());
        Ok(t)
    }

    /// Flat coordinates of the top level (or of `level`) → tower coordinates: the sum of the
    /// stored powers `z^k` for the set bits `k`.
    pub fn to_tower(&self, level: usize, v: &[u64]) -> Vec<u64> {
        let l = &self.levels[level];
        let mut out = vec![0u64; l.rows[0].len()];
        for (k, row) in l.rows.iter().enumerate() {
            if gf2::bit(v, k) {
                for (a, b) in out.iter_mut().zip(row) {
                    *a ^= b;
                }
            }
        }
        out
    }

    /// The number of levels (1 + the number of primes adjoined).
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    /// Whether the tower has only its nimber level.
    pub fn is_empty(&self) -> bool {
        self.levels.len() <= 1
    }

    /// Words per element at `level`, and the extension `(j, p, K, N)` made there.
    pub fn level_shape(&self, level: usize) -> (usize, Option<(usize, u64, u32, usize)>) {
        let l = &self.levels[level];
        (l.field.words(), l.ext)
    }

    /// Adjoins `Y = κ_(p^K)` for the prime `p` of index `j`, with `alpha` the image of `α_p` in the
    /// current top field; refuses a top degree above `max_degree`.
    pub fn adjoin(
        &mut self,
        j: usize,
        p: u64,
        digits: u32,
        alpha: &[u64],
        max_degree: usize,
    ) -> Result<()> {
        let n = (p as usize)
            .checked_pow(digits)
            .ok_or_else(|| Error::Internal("extension degree overflows".into()))?;
        let prev = &self.field().clone();
        let mp = prev.degree();
        let m = n
            .checked_mul(mp)
            .filter(|&m| m <= max_degree)
            .ok_or_else(|| {
                Error::limit(
                    format!(
                        "the finite field needed has degree {}·{mp} over GF(2), above the limit {max_degree}",
                        n
                    ),
                    "raise the field-degree limit (--max-degree) or use smaller exponents",
                )
            })?;
        let pw = prev.words();
        let width = n * pw;
        for cand in 2u64.. {
            let c: Vec<u64> = {
                let mut c = prev.zero();
                c[0] = cand;
                if gf2::degree(&c).is_some_and(|d| d >= mp) {
                    return Err(Error::Internal("no generator for a tower level".into()));
                }
                c
            };
            let mut basis = Echelon::new(64 * width, m + 1);
            let mut rows: Vec<Vec<u64>> = Vec::with_capacity(m);
            let mut cur = vec![0u64; width];
            cur[0] = 1;
            let mut dep = None;
            for k in 0..=m {
                let mut t = vec![0u64; (m + 1).div_ceil(64)];
                t[k / 64] |= 1 << (k % 64);
                if let Some(d) = basis.insert(cur.clone(), t) {
                    dep = Some((k, d));
                    break;
                }
                rows.push(cur.clone());
                // cur ← cur·(Y + c): blocks shift up, the top block wraps round times α.
                let mut next = vec![0u64; width];
                let top = prev.mul(&cur[(n - 1) * pw..], alpha);
                next[..pw].copy_from_slice(&top);
                for b in 1..n {
                    next[b * pw..(b + 1) * pw].copy_from_slice(&cur[(b - 1) * pw..b * pw]);
                }
                for b in 0..n {
                    let blk = &cur[b * pw..(b + 1) * pw];
                    let cb = if cand == 2 {
                        prev.mul_by_z(blk)
                    } else {
                        prev.mul(blk, &c)
                    };
                    for (x, y) in next[b * pw..(b + 1) * pw].iter_mut().zip(&cb) {
                        *x ^= y;
                    }
                }
                cur = next;
            }
            let Some((k, minpoly)) = dep else {
                return Err(Error::Internal(
                    "more independent powers than the degree".into(),
                ));
            };
            if k < m {
                continue;
            }
            rows.truncate(m);
            // Map the existing images up: an element u of the previous top is the tower vector
            // (u, 0, …, 0).
            let embed = |u: &[u64]| {
                let mut v = vec![0u64; width];
                v[..pw].copy_from_slice(u);
                v
            };
            let old_nim: Vec<Vec<u64>> = self.nim_img.iter().map(|u| embed(u)).collect();
            let old_gen: Vec<Vec<u64>> = self.gen_img.iter().map(|u| embed(u)).collect();
            let mut y = vec![0u64; width];
            if n > 1 {
                y[pw] = 1;
            } else {
                y[..pw].copy_from_slice(alpha);
            }
            self.levels.push(Level {
                field: Gf2Field::new(&minpoly),
                ext: Some((j, p, digits, n)),
                rows,
                basis,
            });
            self.nim_img = old_nim
                .into_iter()
                .map(|v| self.solve_top(v))
                .collect::<Result<_>>()?;
            self.gen_img = old_gen
                .into_iter()
                .map(|v| self.solve_top(v))
                .collect::<Result<_>>()?;
            let yi = self.solve_top(y)?;
            self.gen_img.push(yi);
            return Ok(());
        }
        Err(Error::Internal("no generator for a tower level".into()))
    }
}
