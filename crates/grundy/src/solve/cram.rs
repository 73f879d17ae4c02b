//! A dedicated engine for Cram on boards of at most 128 cells: bitboards, a transposition table
//! of fixed size, components under symmetry, and the pruned nimber search of Beling and
//! Rogalski.
//!
//! # Positions
//!
//! A region of free cells is a [`Shape`]: a `u128` holding its cells row by row inside its
//! bounding box (`h` rows of `w` cells, bit `r·w + c`). A domino is two set bits at distance 1
//! (same row) or `w`; the horizontal ones are `b & (b >> 1)` without the last column, the
//! vertical ones `b & (b >> w)`, so every move is found with a few word operations and no
//! allocation.
//!
//! **Components.** A move touches one 4-connected region of free cells, so a board is the
//! disjunctive sum of its regions and its value the xor of theirs (Sprague-Grundy). Regions are
//! found by flood fill on the bitboard (`x ← (x ∪ neighbours(x)) ∩ free` until stable). A lone
//! cell can never be covered by a domino and is dropped; every other free cell has a free
//! neighbour, so nothing else is dead.
//!
//! **Symmetry.** Each region is cropped to its bounding box (translated to the corner) and
//! stored as the least of its images under the symmetries of the rectangle, oriented with
//! `h ≤ w`: the four reflections of a non-square box, the eight symmetries of a square.
//! Isomorphic game graphs have equal values, so one table entry serves every image.
//!
//! **Mirror strategy.** If a region is invariant under a symmetry `σ` of its box (the half turn,
//! or a reflection) and no domino meets its own image (no free cell is fixed by `σ` and no
//! domino `{a, b}` has `σ(a) = b`), its value is 0: the second player answers every move `m`
//! with `σ(m)`, which is free (the position before `m` was symmetric) and disjoint from `m`,
//! and the position stays symmetric. This settles every even × even rectangle at once.
//!
//! # The nimber search (Beling and Rogalski, "On pruning search trees of impartial games",
//! Artificial Intelligence 283, 2020)
//!
//! `value_in(G, R)` returns `g(G)` when `g(G) ∈ R` and may answer "not in `R`" otherwise. A
//! position with `m` options has `g(G) ≤ m`, so `g(G) = min C` for the candidates
//! `C = {0, …, m} ∖ {g(G') : G → G'}`. The search keeps a set `P ⊇` of candidates, starting
//! from `{0, …, m}`, and asks each option only about `Q = (P ∖ {max P}) ∩ [0, max R]`:
//!
//! * an exact answer `g(G')` removes it from `P`;
//! * "not in `Q`" removes `max P` instead.
//!
//! *Claim.* After the last option, `P` is not empty (it lost at most one element per option),
//! and if `x = min P ≤ max R` then `g(G) = x`, otherwise `g(G) > max R`. *Proof.* An element
//! removed from `P` without being an option's value was `max P` at the time, so it exceeds every
//! element left at the end, in particular `x`: such removals never hide a candidate below `x`.
//! And no option has the value `x`: when such an option was asked, `x` was in `P`; if it was
//! `max P`, either answer removed it; otherwise `x ∈ Q` (as `x ≤ max R`), so the answer was
//! exact and removed it; yet `x` is left at the end. Hence `min C = x`; the same argument with
//! `P ∩ [0, max R] = ∅` shows that `C` has no element `≤ max R`. ∎
//!
//! Two cut-offs follow: once `P ∩ R = ∅` the answer is "not in `R`" (`min P` at the end is in
//! every earlier `P`), and once `|P| = 1` its element is the value. Before any recursion every
//! option whose components are all in the table is settled (the enhanced transposition
//! cutoff), and the remaining options are searched with those that leave the smallest largest
//! component first.
//!
//! An option that is a sum `D₁ + … + Dᵣ` has `g = g(D₁) ⊕ … ⊕ g(Dᵣ)`: the values of all parts
//! but the largest unknown one are computed, and the largest is asked about `Q ⊕ x`, the set
//! `{q ⊕ x}` for `x` the xor of the others (`g(D₁ + … + Dᵣ) ∈ Q` iff `g(Dᵣ) ∈ Q ⊕ x`). This is
//! the question "is `G + *k` a P-position" of Lemoine and Viennot ("Nimbers are inevitable",
//! 2012) asked for a whole set of `k` at once.
//!
//! # Memory
//!
//! The transposition table is one array of two-slot buckets reserved in full from the
//! [`Control`]'s budget when the engine starts ([`table_bytes`]); a new entry takes an empty
//! slot or that of its own key, otherwise the first slot keeps the larger region (more cells:
//! more work to recompute) and the second is always replaced. The search itself keeps its
//! options in fixed arrays on a thread stack of [`STACK_BYTES`], also reserved; nothing grows
//! with the search.

use crate::control::{Control, Reservation};
use crate::error::{Error, LimitKind, Result};
use crate::game::families::cram::{Board, Cram};
use crate::game::{Footprint, Show};
use crate::solve::search::{Settings, Solution, Stats, WinningMove};
use crate::solve::{Outcome, Play};
use std::time::Instant;

/// The most cells (rows × columns of the bounding box) a board may have for this engine.
pub const MAX_CELLS: usize = 128;

/// The largest table [`table_bytes`] takes by default: 1 GiB.
pub const DEFAULT_TABLE_BYTES: u64 = 1 << 30;

/// The stack of the search thread (the search recurses at most once per domino, 64 levels of a
/// few kilobytes each).
pub const STACK_BYTES: usize = 4 << 20;

/// Positions (new table entries) between two progress reports to the control.
const PROGRESS_EVERY: u64 = 1 << 14;

/// Every nimber the search represents: values are kept as 64-bit sets, so a region of value 64
/// or more is reported as a limit (no Cram region of 128 cells comes near: values up to 9×9
/// boards are below 8).
const ALL: u64 = u64::MAX;

/// Bits of column 0 of a board `w` cells wide (bits `0, w, 2w, …`), for `w` in `1..=128`.
const FIRST_COL: [u128; 129] = first_cols();

const fn first_cols() -> [u128; 129] {
    let mut t = [0u128; 129];
    let mut w = 1;
    while w <= 128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < 128 {
            m |= 1 << i;
            i += w;
        }
        t[w] = m;
        w += 1;
    }
    t
}

#[inline]
fn shr(x: u128, n: usize) -> u128 {
    x.checked_shr(n as u32).unwrap_or(0)
}

#[inline]
fn shl(x: u128, n: usize) -> u128 {
    x.checked_shl(n as u32).unwrap_or(0)
}

/// The lowest `n` bits.
#[inline]
fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

#[inline]
fn last_col(w: usize) -> u128 {
    FIRST_COL[w] << (w - 1)
}

/// A set of free cells inside an `h × w` box (`h · w ≤ 128`), bit `r·w + c` for cell `(r, c)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Shape {
    /// The free cells.
    pub bits: u128,
    /// Cells per row.
    pub w: u8,
    /// Rows.
    pub h: u8,
}

impl Shape {
    /// The board's free cells, or `None` if its box has more than [`MAX_CELLS`] cells.
    pub fn from_board(b: &Board) -> Option<Shape> {
        let (h, w) = (b.rows(), b.cols());
        if h * w > MAX_CELLS || h == 0 || w == 0 {
            return None;
        }
        let mut bits = 0u128;
        for r in 0..h {
            for c in 0..w {
                if b.is_free(r, c) {
                    bits |= 1 << (r * w + c);
                }
            }
        }
        Some(Shape {
            bits,
            w: w as u8,
            h: h as u8,
        })
    }

    /// The shape as a board of the family (same box).
    pub fn to_board(&self) -> Board {
        let (h, w) = (self.h as usize, self.w as usize);
        let mut b = Board::blocked(h, w).expect("at most 128 cells");
        for r in 0..h {
            for c in 0..w {
                if self.bits >> (r * w + c) & 1 == 1 {
                    b.set_cell(r, c, true);
                }
            }
        }
        b
    }

    #[inline]
    fn width(&self) -> usize {
        self.w as usize
    }

    /// The first cells of the horizontal dominoes.
    #[inline]
    fn horizontal(&self) -> u128 {
        self.bits & (self.bits >> 1) & !last_col(self.width())
    }

    /// The upper cells of the vertical dominoes.
    #[inline]
    fn vertical(&self) -> u128 {
        self.bits & shr(self.bits, self.width())
    }

    /// The number of moves.
    #[inline]
    fn moves(&self) -> u32 {
        self.horizontal().count_ones() + self.vertical().count_ones()
    }

    #[inline]
    fn row(&self, r: usize) -> u128 {
        shr(self.bits, r * self.width()) & low(self.width())
    }

    /// The image under `c ↦ w − 1 − c`.
    fn flip_cols(&self) -> Shape {
        let w = self.width();
        let mut out = 0;
        for r in 0..self.h as usize {
            out |= (self.row(r).reverse_bits() >> (128 - w)) << (r * w);
        }
        Shape { bits: out, ..*self }
    }

    /// The image under `r ↦ h − 1 − r`.
    fn flip_rows(&self) -> Shape {
        let (h, w) = (self.h as usize, self.width());
        let mut out = 0;
        for r in 0..h {
            out |= self.row(r) << ((h - 1 - r) * w);
        }
        Shape { bits: out, ..*self }
    }

    /// The image under `(r, c) ↦ (c, r)`: a `w × h` shape.
    fn transpose(&self) -> Shape {
        let (h, w) = (self.h as usize, self.width());
        let mut out = 0u128;
        let mut b = self.bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            out |= 1 << ((i % w) * h + i / w);
        }
        Shape {
            bits: out,
            w: self.h,
            h: self.w,
        }
    }

    /// The canonical image: oriented with `h ≤ w`, the least `bits` over the reflections (and,
    /// for a square, the transposes).
    fn canonical(&self) -> Shape {
        let base = if self.h > self.w {
            self.transpose()
        } else {
            *self
        };
        let least = |s: Shape| {
            let a = s.flip_cols();
            let b = s.flip_rows();
            let c = a.flip_rows();
            s.bits.min(a.bits).min(b.bits).min(c.bits)
        };
        let mut bits = least(base);
        if base.h == base.w {
            bits = bits.min(least(base.transpose()));
        }
        Shape { bits, ..base }
    }

    /// The cells of `comp` (bits of a shape `w` wide) cropped to their bounding box.
    fn crop(comp: u128, w: usize) -> Shape {
        let r0 = comp.trailing_zeros() as usize / w;
        let r1 = (127 - comp.leading_zeros() as usize) / w;
        let mut cols = 0u128;
        for r in r0..=r1 {
            cols |= shr(comp, r * w) & low(w);
        }
        let c0 = cols.trailing_zeros() as usize;
        let c1 = 127 - cols.leading_zeros() as usize;
        let nw = c1 - c0 + 1;
        let mut out = 0u128;
        for r in r0..=r1 {
            out |= (shr(comp, r * w + c0) & low(nw)) << ((r - r0) * nw);
        }
        Shape {
            bits: out,
            w: nw as u8,
            h: (r1 - r0 + 1) as u8,
        }
    }

    /// Appends the regions of at least two cells of the free cells `bits` (a shape `w` wide),
    /// each in canonical form, to `out`; returns how many.
    fn split(bits: u128, w: usize, out: &mut Parts) {
        out.len = 0;
        let not_first = !FIRST_COL[w];
        let not_last = !last_col(w);
        let mut rest = bits;
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            loop {
                let grown = (comp
                    | ((comp << 1) & not_first)
                    | ((comp >> 1) & not_last)
                    | shl(comp, w)
                    | shr(comp, w))
                    & rest;
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            rest &= !comp;
            if comp & (comp - 1) != 0 {
                out.items[out.len] = Shape::crop(comp, w).canonical();
                out.len += 1;
            }
        }
    }

    /// Whether the mirror strategy shows the value to be 0 (see the module documentation).
    fn mirror_zero(&self) -> bool {
        let (h, w) = (self.h as usize, self.width());
        let b = self.bits;
        let cell = |r: usize, c: usize| b >> (r * w + c) & 1 == 1;
        let fc = self.flip_cols();
        if fc.flip_rows().bits == b {
            let ok = match (h % 2, w % 2) {
                (0, 0) => true,
                (1, 1) => !cell(h / 2, w / 2),
                (0, _) => !(cell(h / 2 - 1, w / 2) && cell(h / 2, w / 2)),
                (_, _) => !(cell(h / 2, w / 2 - 1) && cell(h / 2, w / 2)),
            };
            if ok {
                return true;
            }
        }
        if fc.bits == b {
            let ok = if w % 2 == 1 {
                b & (FIRST_COL[w] << (w / 2)) == 0
            } else {
                b & (b >> 1) & (FIRST_COL[w] << (w / 2 - 1)) == 0
            };
            if ok {
                return true;
            }
        }
        if h % 2 == 0 && self.flip_rows().bits == b {
            return b & shr(b, w) & (low(w) << ((h / 2 - 1) * w)) == 0;
        }
        false
    }

    #[inline]
    fn cells(&self) -> u32 {
        self.bits.count_ones()
    }
}

/// The regions of one position: at most 64 (each has two cells or more).
struct Parts {
    items: [Shape; 64],
    len: usize,
}

impl Parts {
    fn new() -> Parts {
        Parts {
            items: [Shape::default(); 64],
            len: 0,
        }
    }
}

/// A fast mix of a shape's bits and width (the finaliser of splitmix64).
#[inline]
fn hash(s: &Shape) -> u64 {
    let lo = s.bits as u64;
    let hi = (s.bits >> 64) as u64;
    let mut x = lo
        ^ (hi ^ u64::from(s.w) << 56)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Bytes of one bucket of the table: two slots of three words.
const BUCKET_BYTES: u64 = 48;

/// The transposition table: buckets of two slots `(low bits, high bits, meta)`, `meta` packing
/// the width (bits 0–7, never 0 in a used slot), the cells (8–15), whether the value is known
/// (bit 16), the value (24–31), and the values `g` is known not to take among `0..32` (32–63).
struct Table {
    words: Vec<u64>,
    mask: usize,
}

/// What the table knows of a region.
#[derive(Clone, Copy, Default)]
struct Known {
    value: Option<u8>,
    /// Values (below 32) the region is known not to have.
    not: u64,
}

const EXACT: u64 = 1 << 16;

impl Table {
    /// The buckets of a table of at most `bytes` (a power of two, at least one).
    fn buckets(bytes: u64) -> usize {
        let b = (bytes / BUCKET_BYTES).max(1);
        1usize << (63 - b.leading_zeros())
    }

    fn new(buckets: usize) -> Table {
        Table {
            words: vec![0; buckets * 6],
            mask: buckets - 1,
        }
    }

    /// The bucket of `s` and the index of its slot there, if any.
    #[inline]
    fn find(&self, s: &Shape) -> (usize, Option<usize>) {
        let b = (hash(s) as usize & self.mask) * 6;
        let (lo, hi) = (s.bits as u64, (s.bits >> 64) as u64);
        let slots = &self.words[b..b + 6];
        let k = (0..2).find(|&k| {
            slots[3 * k] == lo
                && slots[3 * k + 1] == hi
                && slots[3 * k + 2] & 0xff == u64::from(s.w)
        });
        (b, k)
    }

    #[inline]
    fn get(&self, s: &Shape) -> Known {
        match self.find(s) {
            (b, Some(k)) => {
                let meta = self.words[b + 3 * k + 2];
                Known {
                    value: (meta & EXACT != 0).then_some((meta >> 24) as u8),
                    not: meta >> 32,
                }
            }
            _ => Known::default(),
        }
    }

    /// Records `g(s) = v` (`Some`) or that `g(s)` is none of `not`.
    #[inline]
    fn put(&mut self, s: &Shape, value: Option<u8>, not: u64) {
        let (b, found) = self.find(s);
        let cells = u64::from(s.cells());
        let mut meta = u64::from(s.w) | cells << 8 | (not & 0xffff_ffff) << 32;
        if let Some(v) = value {
            meta |= EXACT | u64::from(v) << 24;
        }
        let slots = &mut self.words[b..b + 6];
        let k = match found {
            Some(k) => {
                meta |= slots[3 * k + 2] & !0xffff;
                k
            }
            None if slots[2] == 0 => 0,
            None if slots[5] == 0 => 1,
            None if cells >= slots[2] >> 8 & 0xff => {
                // The first slot keeps the larger region; its old entry moves to the second.
                slots.copy_within(0..3, 3);
                0
            }
            None => 1,
        };
        slots[3 * k] = s.bits as u64;
        slots[3 * k + 1] = (s.bits >> 64) as u64;
        slots[3 * k + 2] = meta;
    }
}

/// The bytes of the transposition table for a board of `cells` cells and a budget of `limit`
/// bytes: half the budget, at most [`DEFAULT_TABLE_BYTES`], and at most `2^(cells/2 + 4)`
/// buckets (the regions a board reaches grow about as fast; a small board gets a small table
/// that is quick to set up).
pub fn table_bytes(limit: u64, cells: usize) -> u64 {
    let by_cells = BUCKET_BYTES << (cells / 2 + 4).min(40);
    (limit / 2).min(DEFAULT_TABLE_BYTES).min(by_cells)
}

/// The largest table [`Engine::new`] builds whatever it is asked: 64 GiB.
pub const MAX_TABLE_BYTES: u64 = 1 << 36;

/// The engine: a transposition table and counters, kept from one question to the next.
pub struct Engine<'a, 'c> {
    ctl: &'a Control<'c>,
    table: Table,
    _reservation: Reservation,
    stats: Stats,
}

/// Moves of one region, at most 2 · 128.
const MAX_MOVES: usize = 256;

/// The error for a region whose value does not fit the engine's 64-bit sets of nimbers.
fn too_large_value() -> Error {
    Error::limit(
        LimitKind::Fixed,
        "a Cram region of Grundy value 64 or more (the dedicated engine keeps nimbers below 64)",
        "solve the board with the generic engine",
    )
}

/// `{q ⊕ x : q ∈ set}` for values below 64.
#[inline]
fn xor_set(set: u64, x: u8) -> u64 {
    if x == 0 {
        return set;
    }
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let q = s.trailing_zeros() as u8;
        s &= s - 1;
        let y = q ^ x;
        if y < 64 {
            out |= 1 << y;
        }
    }
    out
}

impl<'a, 'c> Engine<'a, 'c> {
    /// An engine whose table takes `table_bytes` (rounded down to a power of two of buckets),
    /// reserved from `ctl`'s budget together with the search's stack.
    pub fn new(ctl: &'a Control<'c>, table_bytes: u64) -> Result<Self> {
        let buckets = Table::buckets(table_bytes.min(MAX_TABLE_BYTES));
        let bytes = buckets as u64 * BUCKET_BYTES;
        let reservation = ctl.reserve(
            bytes + STACK_BYTES as u64,
            "the Cram engine's transposition table and search stack",
        )?;
        Ok(Engine {
            ctl,
            table: Table::new(buckets),
            _reservation: reservation,
            stats: Stats {
                table_bytes: bytes,
                ..Stats::default()
            },
        })
    }

    /// What the engine has done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The Grundy value of a position of free cells `bits` in a box `w` wide.
    pub fn value(&mut self, s: &Shape) -> Result<u8> {
        let mut parts = Parts::new();
        Shape::split(s.bits, s.width(), &mut parts);
        let mut v = 0;
        for p in &parts.items[..parts.len] {
            v ^= self.exact(p)?;
        }
        Ok(v)
    }

    /// `g` of the sum of the regions of `bits` (a shape `w` wide) if it lies in `q` (values
    /// below 64), `None` if it does not; may answer with a value outside `q`.
    fn sum_value_in(&mut self, bits: u128, w: usize, q: u64) -> Result<Option<u8>> {
        let mut parts = Parts::new();
        Shape::split(bits, w, &mut parts);
        let mut x = 0u8;
        let mut open = 0usize;
        let mut largest: Option<usize> = None;
        for i in 0..parts.len {
            let p = parts.items[i];
            self.stats.lookups += 1;
            if let Some(v) = self.table.get(&p).value {
                self.stats.hits += 1;
                x ^= v;
            } else {
                parts.items[open] = p;
                if largest.is_none_or(|l| parts.items[l].cells() < p.cells()) {
                    largest = Some(open);
                }
                open += 1;
            }
        }
        let Some(l) = largest else {
            return Ok(Some(x));
        };
        for i in 0..open {
            if i != l {
                let p = parts.items[i];
                x ^= self.value_in(&p, ALL)?.ok_or_else(too_large_value)?;
            }
        }
        let want = xor_set(q, x);
        if want == 0 {
            return Ok(None);
        }
        let p = parts.items[l];
        Ok(self.value_in(&p, want)?.map(|v| v ^ x))
    }

    /// `g(c)` for a region `c` in canonical form if it lies in `r`, else `None` (or the value
    /// outside `r`). See the module documentation.
    fn value_in(&mut self, c: &Shape, r: u64) -> Result<Option<u8>> {
        self.stats.lookups += 1;
        let known = self.table.get(c);
        if let Some(v) = known.value {
            self.stats.hits += 1;
            return Ok(Some(v));
        }
        // g(c) ∈ r iff g(c) ∈ r ∖ not: only the values not excluded are asked.
        let r = r & !known.not;
        if r == 0 {
            self.stats.hits += 1;
            return Ok(None);
        }
        if c.mirror_zero() {
            self.store(c, Some(0), 0)?;
            return Ok(Some(0));
        }
        let answer = self.search(c, r)?;
        match answer {
            Some(v) => self.store(c, Some(v), 0)?,
            None => self.store(c, None, r)?,
        }
        Ok(answer)
    }

    /// The exact value of a region in canonical form, by asking `value_in(c, {k})` for
    /// `k = 0, 1, …` (the aspiration of Beling and Rogalski; each question is narrow, so its
    /// options are asked narrow questions in turn).
    fn exact(&mut self, c: &Shape) -> Result<u8> {
        for k in 0..64 {
            if let Some(v) = self.value_in(c, 1 << k)? {
                return Ok(v);
            }
        }
        Err(too_large_value())
    }

    /// The search of [`Engine::value_in`] for a region not settled by the table.
    fn search(&mut self, c: &Shape, r: u64) -> Result<Option<u8>> {
        self.ctl.tick()?;
        let w = c.width();
        let m = c.moves() as usize;
        // P = {0, …, m}: the bits below 64, and how many candidates lie above 63.
        let mut p: u64 = if m >= 63 { ALL } else { low(m + 1) as u64 };
        let mut above = m.saturating_sub(63);
        let max_r = 63 - r.leading_zeros();
        let upto_r: u64 = low(max_r as usize + 1) as u64;
        let mut pending = [(0u32, 0u128); MAX_MOVES];
        let mut n = 0;
        let mut parts = Parts::new();
        let mut dominoes = [(c.horizontal(), 1usize), (c.vertical(), w)];
        for (set, step) in &mut dominoes {
            while *set != 0 {
                let i = set.trailing_zeros() as usize;
                *set &= *set - 1;
                let after = c.bits & !(1 << i) & !(1 << (i + *step));
                Shape::split(after, w, &mut parts);
                let mut x = 0u8;
                let mut known = true;
                let mut biggest = 0;
                let mut unknown = 0;
                for k in 0..parts.len {
                    let q = &parts.items[k];
                    self.stats.lookups += 1;
                    match self.table.get(q).value {
                        Some(v) => {
                            self.stats.hits += 1;
                            x ^= v;
                        }
                        None => {
                            known = false;
                            biggest = biggest.max(q.cells());
                            unknown += 1;
                        }
                    }
                }
                if known {
                    if x < 64 {
                        p &= !(1 << x);
                    }
                } else {
                    pending[n] = (biggest << 8 | unknown, after);
                    n += 1;
                }
            }
        }
        if p & r == 0 {
            return Ok(None);
        }
        pending[..n].sort_unstable_by_key(|e| e.0);
        for &(_, after) in &pending[..n] {
            if p & r == 0 {
                return Ok(None);
            }
            if above == 0 && p.count_ones() == 1 {
                break;
            }
            let without_max = if above > 0 {
                p
            } else {
                p & !(1u64 << (63 - p.leading_zeros()))
            };
            let q = without_max & upto_r;
            let answer = if q == 0 {
                None
            } else {
                self.sum_value_in(after, w, q)?
            };
            match answer {
                Some(v) if v < 64 => p &= !(1 << v),
                Some(_) => {}
                None if above > 0 => above -= 1,
                None => p &= !(1u64 << (63 - p.leading_zeros())),
            }
        }
        if p == 0 {
            return Ok(None);
        }
        let x = p.trailing_zeros();
        Ok((x <= max_r).then_some(x as u8))
    }

    fn store(&mut self, c: &Shape, value: Option<u8>, not: u64) -> Result<()> {
        self.table.put(c, value, not);
        self.stats.positions += 1;
        if self.stats.positions.is_multiple_of(PROGRESS_EVERY) {
            self.ctl.check(self.stats.positions)?;
        }
        Ok(())
    }

    /// Whether the sum of the regions of `s` has value 0 (a P-position).
    pub fn is_p(&mut self, s: &Shape) -> Result<bool> {
        Ok(self.sum_value_in(s.bits, s.width(), 1)? == Some(0))
    }
}

/// Solves a Cram board under normal play as `grundy solve` does: with this engine when its box
/// has at most [`MAX_CELLS`] cells, otherwise with the generic engine
/// ([`search::solve`](crate::solve::search::solve)), whose line of play (the options of every
/// position on it) is first reserved from the budget in full, so that a board too large for
/// the budget stops at once with a memory limit. Misère play always goes to the generic engine.
pub fn solve(board: &Board, play: Play, moves: bool, ctl: &Control) -> Result<Solution> {
    let Some(shape) = Shape::from_board(board).filter(|_| play == Play::Normal) else {
        let cells = board.rows() * board.cols();
        // The generic search holds, on each of at most cells / 2 levels, up to 2 · cells
        // options of `Cram::bytes` bytes each.
        let line = (cells as u64 / 2 + 1)
            .saturating_mul(2 * cells as u64)
            .saturating_mul(Cram.bytes(board) as u64);
        let _line = ctl.reserve(line, "the generic search's line of play")?;
        return crate::solve::search::solve(&Cram, board, play, Settings::new(), moves, ctl);
    };
    let table = table_bytes(
        ctl.memory().limit().saturating_sub(STACK_BYTES as u64),
        board.rows() * board.cols(),
    );
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("grundy-cram".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || solve_shape(board, &shape, moves, table, ctl))
            .map_err(|e| Error::Internal(format!("cannot start the search thread: {e}")))?
            .join()
            .map_err(|_| Error::Internal("the search thread failed".into()))?
    })
}

/// [`solve`] with this engine, on the calling thread, with a table of `table` bytes.
pub fn solve_shape(
    board: &Board,
    shape: &Shape,
    moves: bool,
    table: u64,
    ctl: &Control,
) -> Result<Solution> {
    let start = Instant::now();
    let mut engine = Engine::new(ctl, table)?;
    let v = engine.value(shape)?;
    let outcome = if v == 0 { Outcome::P } else { Outcome::N };
    let mut winning_moves = Vec::new();
    if moves && v != 0 {
        for (name, after, q) in Cram.described_moves(board)? {
            let s =
                Shape::from_board(&q).ok_or_else(|| Error::Internal("a larger board".into()))?;
            if engine.is_p(&s)? {
                winning_moves.push(WinningMove { name, after });
            }
        }
    }
    Ok(Solution {
        outcome,
        value: Some(u64::from(v)),
        winning_moves,
        stats: engine.stats(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests;
