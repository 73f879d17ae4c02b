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
//!
//! **The top level stays radical.** Exponentiation (the `p`-th power test, inverses) needs only
//! products, and in `F[Y]/(Y^N - α)` a product is a polynomial product over the flat `F` (the raw
//! carry-less products added up, each of the `2N - 1` coefficients reduced once) folded with
//! `Y^N = α`; a square is `Σ a_t² Y^(2t)`. So only the levels below the top are flattened, which
//! makes the largest elimination `N` times smaller (for `p = 107`, 156 instead of 8268 bits).

use crate::gf2::{self, BinaryField, Gf2Field};
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
            for (x, y) in v.iter_mut().zip(row) {
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
                // Trailing zero words of either vector need no xor later (`reduce` zips).
                while t.last() == Some(&0) {
                    t.pop();
                }
                while v.last() == Some(&0) {
                    v.pop();
                }
                self.pivot[b] = self.rows.len() as u32;
                self.rows.push((v, t));
                None
            }
        }
    }
}

/// A radical extension `F[Y]/(Y^n - α)` of a flat field `F`, kept in tower coordinates: an
/// element is `n` blocks of `F`'s words, block `t` the coefficient of `Y^t`. Products are
/// polynomial products whose `2n - 1` coefficients are reduced in `F` once each (the raw
/// carry-less products are added up first), then folded with `Y^n = α`.
#[derive(Clone, Debug)]
pub struct RadicalField {
    base: Gf2Field,
    n: usize,
    alpha: Vec<u64>,
}

impl RadicalField {
    fn fold(&self, wide: Vec<Vec<u64>>) -> Vec<u64> {
        let (n, pw) = (self.n, self.base.words());
        let mut out = vec![0u64; n * pw];
        for (t, c) in wide.into_iter().enumerate() {
            let c = if t >= n {
                self.base.mul(&c, &self.alpha)
            } else {
                c
            };
            for (x, y) in out[(t % n) * pw..(t % n + 1) * pw].iter_mut().zip(&c) {
                *x ^= y;
            }
        }
        out
    }
}

impl BinaryField for RadicalField {
    fn degree(&self) -> usize {
        self.n * self.base.degree()
    }
    fn one(&self) -> Vec<u64> {
        let mut v = self.zero();
        v[0] = 1;
        v
    }
    fn zero(&self) -> Vec<u64> {
        vec![0; self.n * self.base.words()]
    }
    fn is_one(&self, a: &[u64]) -> bool {
        a[0] == 1 && a[1..].iter().all(|&w| w == 0)
    }
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let (n, pw) = (self.n, self.base.words());
        let mut acc = vec![0u64; (2 * n - 1) * 2 * pw];
        for i in 0..n {
            let ai = &a[i * pw..(i + 1) * pw];
            if ai.iter().all(|&w| w == 0) {
                continue;
            }
            for j in 0..n {
                let bj = &b[j * pw..(j + 1) * pw];
                if bj.iter().all(|&w| w == 0) {
                    continue;
                }
                let slot = &mut acc[(i + j) * 2 * pw..(i + j + 1) * 2 * pw];
                if pw <= 24 {
                    gf2::mul_schoolbook_into(ai, bj, slot);
                } else {
                    for (x, y) in slot.iter_mut().zip(gf2::mul(ai, bj)) {
                        *x ^= y;
                    }
                }
            }
        }
        let wide = acc.chunks(2 * pw).map(|c| self.base.reduce(c)).collect();
        self.fold(wide)
    }
    fn square(&self, a: &[u64]) -> Vec<u64> {
        // (Σ a_t Y^t)² = Σ a_t² Y^(2t) in characteristic 2.
        let (n, pw) = (self.n, self.base.words());
        let mut wide = vec![vec![0u64; pw]; 2 * n - 1];
        for t in 0..n {
            wide[2 * t] = self.base.square(&a[t * pw..(t + 1) * pw]);
        }
        self.fold(wide)
    }
}

/// The top field of a [`Tower`]: flat, or a radical extension of a flat field.
pub enum TopField<'a> {
    /// `GF(2)[z]/(P)`.
    Flat(&'a Gf2Field),
    /// `F[Y]/(Y^n - α)`.
    Radical(&'a RadicalField),
}

macro_rules! dispatch {
    ($self:ident, $f:ident ( $($a:expr),* )) => {
        match $self {
            TopField::Flat(x) => x.$f($($a),*),
            TopField::Radical(x) => x.$f($($a),*),
        }
    };
}

impl BinaryField for TopField<'_> {
    fn degree(&self) -> usize {
        dispatch!(self, degree())
    }
    fn one(&self) -> Vec<u64> {
        dispatch!(self, one())
    }
    fn zero(&self) -> Vec<u64> {
        dispatch!(self, zero())
    }
    fn is_one(&self, a: &[u64]) -> bool {
        dispatch!(self, is_one(a))
    }
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        dispatch!(self, mul(a, b))
    }
    fn square(&self, a: &[u64]) -> Vec<u64> {
        dispatch!(self, square(a))
    }
}

/// How a level is held.
enum Body {
    /// Flattened: its field, `rows[k]` = tower coordinates of `z^k` (`N` blocks of the previous
    /// level's words; at level 0 one word, the nimber itself), and the echelon form converting
    /// tower coordinates to flat ones.
    Flat {
        field: Gf2Field,
        rows: Vec<Vec<u64>>,
        basis: Echelon,
    },
    /// Not flattened (only ever the top level): tower coordinates are its coordinates.
    Radical(RadicalField),
}

/// One level of the tower.
struct Level {
    body: Body,
    /// The extension made here: `(prime index j, prime p, digits K, N = p^K)`; `None` at level 0.
    ext: Option<(usize, u64, u32, usize)>,
}

/// The largest degree over GF(2) of the top field (kept radical, so its memory is small; time
/// grows with the degree).
pub const MAX_TOP_DEGREE: usize = 1 << 20;

/// A finite field `GF(2^M)` built as a tower over the nimbers below `2^(2^J)`, with the images of
/// the nimber bits and of each level's generator in its top level. Every level but the top is
/// flattened; the top is kept as the radical extension `F[Y]/(Y^N - α)` of the flat level below
/// (flattening it would cost `O(M³)` and gain nothing for exponentiation), and is flattened only
/// when a further level is adjoined.
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
    /// generator as described in the module documentation, with `mul` the nimber product.
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
        let Some((_, minpoly)) = found.filter(|(k, _)| *k == d) else {
            return Err(Error::Internal(format!(
                "the nimber 2^{} does not have degree {d}",
                d / 2
            )));
        };
        rows.truncate(d);
        let mut tower = Tower {
            levels: vec![Level {
                body: Body::Flat {
                    field: Gf2Field::new(&minpoly),
                    rows,
                    basis,
                },
                ext: None,
            }],
            nim_img: Vec::new(),
            gen_img: Vec::new(),
        };
        tower.nim_img = (0..d)
            .map(|b| tower.solve_top(vec![1u64 << b]))
            .collect::<Result<_>>()?;
        Ok(tower)
    }

    /// The top field.
    pub fn field(&self) -> TopField<'_> {
        match &self.levels.last().expect("a tower has a level").body {
            Body::Flat { field, .. } => TopField::Flat(field),
            Body::Radical(r) => TopField::Radical(r),
        }
    }

    /// The flat field of a flattened level.
    fn flat(&self, level: usize) -> &Gf2Field {
        match &self.levels[level].body {
            Body::Flat { field, .. } => field,
            Body::Radical(r) => &r.base,
        }
    }

    /// The degree `M` of the top field over GF(2).
    pub fn degree(&self) -> usize {
        self.field().degree()
    }

    /// The number `D` of nimber bits at level 0.
    pub fn nimber_bits(&self) -> usize {
        self.flat(0).degree()
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
        let mut v = self.field().zero();
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

    /// Tower coordinates (at the flattened top level) → flat coordinates.
    fn solve_top(&self, mut v: Vec<u64>) -> Result<Vec<u64>> {
        let Body::Flat { field, basis, .. } = &self.levels.last().expect("a level").body else {
            return Err(Error::Internal("solving in a radical level".into()));
        };
        let mut t = vec![0u64; basis.track_words];
        if basis.reduce(&mut v, &mut t).is_some() {
            return Err(Error::Internal(
                "vector outside the span of the basis".into(),
            ));
        }
        t.resize(field.words(), 0);
        Ok(t)
    }

    /// Coordinates of `level` → tower coordinates (`N` blocks of the level below): the sum of
    /// the stored powers `z^k` for the set bits `k` of a flattened level; the identity on the
    /// radical top.
    pub fn to_tower(&self, level: usize, v: &[u64]) -> Vec<u64> {
        let Body::Flat { rows, .. } = &self.levels[level].body else {
            return v.to_vec();
        };
        let mut out = vec![0u64; rows[0].len()];
        for (k, row) in rows.iter().enumerate() {
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

    /// Words per element of a flattened `level`, and the extension `(j, p, K, N)` made there.
    pub fn level_shape(&self, level: usize) -> (usize, Option<(usize, u64, u32, usize)>) {
        (self.flat(level).words(), self.levels[level].ext)
    }

    /// Adjoins `Y = κ_(p^K)` for the prime `p` of index `j`, with `alpha` the image of `α_p` in the
    /// current top field. The new top is kept radical; the old top is flattened first if it was
    /// radical, which is refused above `max_flat` (Gaussian elimination on `M × M` bits).
    pub fn adjoin(
        &mut self,
        j: usize,
        p: u64,
        digits: u32,
        alpha: &[u64],
        max_flat: usize,
    ) -> Result<()> {
        let alpha = if matches!(self.levels.last().map(|l| &l.body), Some(Body::Radical(_))) {
            let v = alpha.to_vec();
            self.flatten_top(max_flat)?;
            self.solve_top(v)?
        } else {
            alpha.to_vec()
        };
        let n = (p as usize)
            .checked_pow(digits)
            .ok_or_else(|| Error::Internal("extension degree overflows".into()))?;
        let prev = self.flat(self.levels.len() - 1).clone();
        let mp = prev.degree();
        n.checked_mul(mp)
            .filter(|&m| m <= MAX_TOP_DEGREE)
            .ok_or_else(|| {
                Error::limit(crate::LimitKind::Fixed,
                    format!(
                        "the finite field needed has degree {n}·{mp} over GF(2), above {MAX_TOP_DEGREE}"
                    ),
                    "use smaller exponents",
                )
            })?;
        let pw = prev.words();
        let embed = |u: &[u64]| {
            let mut v = vec![0u64; n * pw];
            v[..pw].copy_from_slice(u);
            v
        };
        self.nim_img = self.nim_img.iter().map(|u| embed(u)).collect();
        self.gen_img = self.gen_img.iter().map(|u| embed(u)).collect();
        let mut y = vec![0u64; n * pw];
        y[pw] = 1;
        self.gen_img.push(y);
        self.levels.push(Level {
            body: Body::Radical(RadicalField {
                base: prev,
                n,
                alpha,
            }),
            ext: Some((j, p, digits, n)),
        });
        Ok(())
    }

    /// Flattens the radical top level (module documentation) and converts the images to it.
    fn flatten_top(&mut self, max_flat: usize) -> Result<()> {
        let Some(Level {
            body: Body::Radical(r),
            ext,
        }) = self.levels.pop()
        else {
            return Ok(());
        };
        let (prev, n, alpha) = (&r.base, r.n, &r.alpha);
        let mp = prev.degree();
        let m = n * mp;
        if m > max_flat {
            return Err(Error::limit(crate::LimitKind::FieldDegree,
                format!(
                    "flattening a finite field of degree {n}·{mp} over GF(2), above the limit {max_flat}"
                ),
                "raise max_flat; memory grows as its square",
            ));
        }
        let pw = prev.words();
        let width = n * pw;
        for cand in 2u64.. {
            let mut c = prev.zero();
            c[0] = cand;
            if gf2::degree(&c).is_some_and(|d| d >= mp) {
                return Err(Error::Internal("no generator for a tower level".into()));
            }
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
            self.levels.push(Level {
                body: Body::Flat {
                    field: Gf2Field::new(&minpoly),
                    rows,
                    basis,
                },
                ext,
            });
            let nim = std::mem::take(&mut self.nim_img);
            self.nim_img = nim
                .into_iter()
                .map(|v| self.solve_top(v))
                .collect::<Result<_>>()?;
            let gens = std::mem::take(&mut self.gen_img);
            self.gen_img = gens
                .into_iter()
                .map(|v| self.solve_top(v))
                .collect::<Result<_>>()?;
            return Ok(());
        }
        Err(Error::Internal("no generator for a tower level".into()))
    }
}
