//! A dedicated engine for Cram on boards of at most 128 cells: bitboards, simplified components
//! under symmetry, a transposition table of bounded size, and the pruned nimber search of
//! Beling and Rogalski.
//!
//! # Positions
//!
//! A region of free cells is a [`Shape`]: a word of [`Bits`] holding its cells row by row
//! inside its bounding box (`h` rows of `w` cells, bit `r·w + c`); the word is a `u64` when the
//! board's box has at most 64 cells and a `u128` otherwise. A domino is two set bits at
//! distance 1 (same row) or `w`; the horizontal ones are `b & (b >> 1)` without the last
//! column, the vertical ones `b & (b >> w)`, so every move is found with a few word operations
//! and no allocation.
//!
//! Cram on a region is Cram on its grid graph: a move removes the two ends of an edge. The
//! statements below are about such graphs; each is proved by induction on the number of
//! vertices, comparing the sets of values of the options (equal sets give equal `mex`).
//!
//! **Components.** A move touches one connected region, so a position is the disjunctive sum
//! of its regions and its value the xor of theirs (Sprague-Grundy). Regions are found by flood
//! fill on the bitboard. A lone cell is dropped (no domino covers it). Two equal regions (after
//! the symmetry below) have values `g ⊕ g = 0` and are both dropped. Regions of two cells (a
//! fifth of all regions met on 3-row and 5-row boards) are found before the flood fill, as the
//! pairs of neighbouring cells that have no other neighbour: each is a domino of value 1, so
//! only the parity of their number is kept.
//!
//! **Pendant twins.** If two cells `t₁, t₂` each have one neighbour, the same cell `c`, then
//! removing `t₂` keeps the value. *Proof.* Every option of `G` not covering `c` is an option of
//! `G − t₂` with `t₂` added back, of equal value by induction (`t₁, t₂` are still pendant on
//! `c`); the options covering `c` without `t₂` are the same in both games (`t₂` is then a lone
//! cell); and the option `{t₂, c}` of `G` is the image of `{t₁, c}` under the automorphism
//! swapping `t₁` and `t₂`. ∎
//!
//! **Bridges.** Call a cell with one neighbour a *tuft* and a neighbour of a tuft a *star*. A
//! cell `x` that is not a tuft and whose neighbours are all stars can be removed. *Proof.* Let
//! `s` be a neighbour of `x` with tuft `t` (`t ≠ x`, as `x` is no tuft). The option `{x, s}`
//! of `G` leaves `t` alone; the option `{t, s}` leaves `x`, which is still such a cell (its
//! other neighbours are still stars, their tufts untouched), so by induction it equals
//! `G − {t, s} − x = G − {x, s}` up to the lone `t`. Every other option keeps `x`'s property
//! (a tuft leaves only with its star) and is equal, by induction, to the same option of
//! `G − x`. ∎ No two such cells are neighbours (a neighbour of `x` is a star, and a star all
//! of whose neighbours are stars would be a tuft's only neighbour, hence a tuft), so all are
//! removed at once; the rules are applied until nothing changes.
//!
//! **Twins in a square.** Let `A, B, C, D` be the free cells of a 2×2 square (`A, B` on top,
//! `C, D` below) and let the neighbours of `A` and of `D` be exactly `B` and `C`, or those of
//! `B` and of `C` be exactly `A` and `D`. Then deleting the horizontal edges `AB` and `CD` keeps
//! the value. *Proof* (for twins `X, Y` with neighbours `{P, Q}`, deleting `XP` and `YQ`). The
//! option `{X, P}` is the image of `{Y, P}` under the automorphism swapping `X` and `Y`, and
//! `{Y, P}` is an option of both games; likewise `{Y, Q}` and `{X, Q}`. The options `{X, Q}`,
//! `{Y, P}` and those away from the square are the same or equal by induction. An option that
//! covers `P` with another cell leaves `X` and `Y` pendant on `Q` in `G` and one of them alone
//! in the other game: equal by the pendant twins. ∎ The flood fill ignores those edges, so such
//! a square may split a region in two; a part that lost edges is simplified again (its cells
//! may have become tufts). Each part is then evaluated as a region of the grid again, with
//! its own square's edges, which by the same statement does not change its value.
//!
//! **Symmetry.** Each region is cropped to its bounding box and stored as the least of its
//! images under the symmetries of the rectangle, oriented with `h ≤ w`: the four reflections
//! of a non-square box, the eight symmetries of a square. Isomorphic graphs have equal values.
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
//! position with `m` options has `g(G) ≤ m`. The search keeps a set `P` of candidates, starting
//! from `{0, …, m}`, and asks each option in turn about `Q = (P ∖ {max P}) ∩ [0, max R]`:
//!
//! * an exact answer `v` removes `v` from `P` if `v ∈ P`, and `max P` otherwise;
//! * "not in `Q`" removes `max P`.
//!
//! *Claim.* After the last option `P = {x}` (it lost one element per option); if
//! `x ≤ max R` then `g(G) = x`, otherwise `g(G) > max R`. *Proof.* An element `y < x` was
//! removed at some step; had it been removed as `max P` it would exceed `x`, which was still in
//! `P`: so `y` is an option's value, and `g(G) ≥ x`. If `x ≤ max R` and an option had the value
//! `x`: when it was asked, `x ∈ P`; if `x = max P` either answer removed `x`, otherwise `x ∈ Q`
//! and the answer was exact and removed `x` — yet `x` is left. So `g(G) = x`. ∎
//!
//! Two cut-offs follow: once `P ∩ R = ∅` the answer is "not in `R`" (the final `x` is in every
//! earlier `P`, and `g(G) = x ∉ R` or `g(G) > max R`). Options whose parts are all in the table
//! are settled first, while they are generated (the enhanced transposition cutoff), and the
//! search stops as soon as `P ∩ R = ∅`; the others are asked easiest first (the least sum of
//! the squares of their unknown parts' cells). Options of equal sums are asked in the order of
//! their moves, generated from the central column out (vertical dominoes) and then from the
//! central row out (horizontal ones); in a region of at most three rows and fewer than
//! [`NARROW_ORDER_CELLS`] cells, the option whose unknown parts have fewer moves first. That
//! tie-break is measured, not derived: on boards of three rows it cuts the positions searched
//! (3×11: 2,937 against 4,303; 3×12: 4,813 against 5,567) and the time by 9–50% on 3×10 to
//! 3×13, while for taller or larger regions the order of generation searches fewer (on 4×9 the
//! moves first searched 7% more positions).
//!
//! An option that is a sum `D₁ + … + Dᵣ` has `g = g(D₁) ⊕ … ⊕ g(Dᵣ)`: the values of all parts
//! but the largest unknown one are computed, and the largest is asked about `Q ⊕ x`, the set
//! `{q ⊕ x}` for `x` the xor of the others (`g(D₁ + … + Dᵣ) ∈ Q` iff `g(Dᵣ) ∈ Q ⊕ x`). This is
//! the question "is `G + *k` a P-position" of Lemoine and Viennot ("Nimbers are inevitable",
//! 2012) asked for a whole set of `k` at once.
//!
//! The board's own regions are solved by aspiration: for `k = 0, 1, …` each option not yet
//! settled is asked whether its value is `k`; an exact answer settles the option for good, and
//! the first `k` that no option has is the value (a `k` the table excludes is skipped: some
//! option has it).
//!
//! # Memory
//!
//! The transposition table (the one the dedicated engines share, in `solve::table`) holds
//! exact values and *exclusions*: a search that answered "not in `R`" records `R` and the values
//! of the options it met (none of which is `g`), so that the region is asked about the rest of
//! a later question only, or answered at once when nothing is left. Values above the number of
//! moves are left out of every question. Entries are in buckets of one cache line: four entries
//! of two words (the shape's bits, its width, value and the exclusions of the values below 48)
//! when the board's box has at most 64 cells, four of two words keeping the exclusions below 8
//! up to 104 cells, two entries of four words otherwise. Its largest size is reserved in full from the [`Control`]'s budget when the engine starts ([`table_bytes`]); it starts small and doubles
//! (splitting each bucket in place) while it is half full, so that a small search stays in the
//! cache, and once at its largest a new entry takes the slot of the region with the fewest
//! cells (the cheapest to recompute). The options of the searches on the current line are kept
//! in two arrays reserved up front; a search that would outgrow them recomputes its options'
//! parts when it asks them instead.

mod bits;
mod parallel;
mod saved;

pub use bits::Bits;
pub use parallel::PARALLEL_MIN_CELLS;
pub use saved::{TableFile, TableFileInfo};

use crate::control::{Control, Reservation};
use crate::error::{Error, LimitKind, Result};
use crate::game::families::cram::{Board, Cram};
use crate::game::{Footprint, Show};
use crate::solve::search::{Settings, Solution, Stats, WinningMove};
use crate::solve::table::{self, Known, Layout, Table, TableRef, BUCKET_BYTES};
use crate::solve::{Outcome, Play};
use std::time::Instant;

/// The most cells (rows × columns of the bounding box) a board may have for this engine.
pub const MAX_CELLS: usize = 128;

/// The stack of the search thread (the search recurses at most a few times per domino, 64
/// dominoes at most, in frames of a few hundred bytes).
pub const STACK_BYTES: usize = 4 << 20;

/// Positions (new table entries) between two progress reports to the control: each engine adds
/// them to the count the control keeps for every thread ([`Control::advance`]), so that a report
/// gives the positions of all engines.
const PROGRESS_EVERY: u64 = 1 << 14;

/// Every nimber the search represents: values are kept as 64-bit sets, so a region of value 64
/// or more is reported as a limit (no Cram region of 128 cells comes near: values up to 9×9
/// boards are below 8).
const ALL: u64 = u64::MAX;

/// The lowest `n` bits of a set of nimbers.
#[inline]
fn low64(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// `⌈2^16 / w⌉` for `w` in `1..=128` (0 for `w = 0`), so that `i / w = (i · R[w]) ≫ 16` for
/// every `i < 128`: with `R[w] = 2^16 / w + ε` (`0 ≤ ε < 1`), `i · R[w] / 2^16 = i / w + i · ε / 2^16`
/// and the error `i · ε / 2^16 < 1/512` is below the gap `1/w` between `i / w` and the next
/// integer.
const RECIPROCALS: [u32; 129] = reciprocals();

const fn reciprocals() -> [u32; 129] {
    let mut t = [0u32; 129];
    let mut w = 1;
    while w <= 128 {
        t[w] = (1u32 << 16).div_ceil(w as u32);
        w += 1;
    }
    t
}

/// The row of bit `i` (below 128) in a box `w` wide: `i / w` without a division.
#[inline]
fn row_of(i: usize, w: usize) -> usize {
    ((i as u32 * RECIPROCALS[w]) >> 16) as usize
}

/// A set of free cells inside an `h × w` box (`h · w ≤ 128`), bit `r·w + c` for cell `(r, c)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Shape<B = u128> {
    /// The free cells.
    pub bits: B,
    /// Cells per row.
    pub w: u8,
    /// Rows.
    pub h: u8,
}

impl Shape<u128> {
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

    /// The same shape in the word `B` (which must hold its box).
    pub(crate) fn narrow<B: Bits>(&self) -> Shape<B> {
        Shape {
            bits: B::narrow(self.bits),
            w: self.w,
            h: self.h,
        }
    }
}

/// Free cells whose right, left, lower and upper neighbour is free, in a box `w` wide.
#[inline]
fn neighbours<B: Bits>(p: B, w: usize) -> [B; 4] {
    [
        p & p.shr(1) & !B::last_col(w),
        p & p.shl(1) & !B::first_col(w),
        p & p.shr(w),
        p & p.shl(w),
    ]
}

/// The free cells `p` (a box `w` wide) without lone cells, without all but one of the pendant
/// twins of each cell, and without bridges, until nothing changes (see the module
/// documentation): a position of the same value.
pub fn simplify<B: Bits>(p: B, w: usize) -> B {
    simplified(p, w).0
}

/// [`simplify`], with the tufts of the result (its cells of one neighbour) and the cells of the
/// result whose right and whose lower neighbour is in it.
#[inline]
fn simplified<B: Bits>(mut p: B, w: usize) -> (B, B, B, B) {
    loop {
        let [r, l, d, u] = neighbours(p, w);
        let any = r | l | d | u;
        let tufts = any & !((r & l) | (d & u) | ((r | l) & (d | u)));
        // Stars by the side their tuft is on: left, right, above, below.
        let on_left = (tufts & r).shl(1);
        let on_right = (tufts & l).shr(1);
        let above = (tufts & d).shl(w);
        let below = (tufts & u).shr(w);
        let stars = on_left | on_right | above | below;
        // Each star keeps the first of its tufts in that order.
        let mut seen = on_left;
        let mut twins = (seen & on_right).shl(1);
        seen |= on_right;
        twins |= (seen & above).shr(w);
        seen |= above;
        twins |= (seen & below).shl(w);
        let not_star_neighbour =
            (r & !stars.shr(1)) | (l & !stars.shl(1)) | (d & !stars.shr(w)) | (u & !stars.shl(w));
        let bridges = any & !tufts & !stars & !not_star_neighbour;
        let q = p & any & !twins & !bridges;
        if q == p {
            return (p, tufts, r, d);
        }
        p = q;
    }
}

/// The left cells of the horizontal edges that the twins in a square let the flood fill
/// ignore (see the module documentation), in the free cells `p` of a box `w` wide.
pub fn square_cuts<B: Bits>(p: B, w: usize) -> B {
    let not_last = !B::last_col(w);
    // Top left corners of 2×2 squares of free cells.
    let square = p & p.shr(1) & p.shr(w) & p.shr(w + 1) & not_last;
    if square == B::ZERO {
        return B::ZERO;
    }
    let no_up = !p.shl(w);
    let no_left = !(p.shl(1) & !B::first_col(w));
    let no_right = !(p.shr(1) & not_last);
    let no_down = !p.shr(w);
    // A and D pendant on B and C, or B and C pendant on A and D.
    let main = square & no_up & no_left & (no_right & no_down).shr(w + 1);
    let anti = square & (no_up & no_right).shr(1) & (no_left & no_down).shr(w);
    let corners = main | anti;
    corners | corners.shl(w)
}

impl<B: Bits> Shape<B> {
    /// A region of two cells in canonical form: one row of two.
    const DOMINO: Shape<B> = Shape {
        bits: B::THREE,
        w: 2,
        h: 1,
    };

    /// Cells per row.
    #[inline]
    pub fn width(&self) -> usize {
        self.w as usize
    }

    /// The first cells of the horizontal dominoes.
    #[inline]
    fn horizontal(&self) -> B {
        self.bits & self.bits.shr(1) & !B::last_col(self.width())
    }

    /// The upper cells of the vertical dominoes.
    #[inline]
    fn vertical(&self) -> B {
        self.bits & self.bits.shr(self.width())
    }

    /// The cells left by each move, in the order the engine asks them before it sorts them:
    /// vertical dominoes, then horizontal ones, each by lines (columns, then rows) from the
    /// centre out, each line from the lowest bit up.
    pub fn afters(&self) -> Vec<B> {
        let mut out = Vec::with_capacity(self.moves() as usize);
        self.each_after(|after| {
            out.push(after);
            true
        });
        out
    }

    /// Calls `f` with the cells left by each move until it returns `false` (then `false`):
    /// vertical dominoes, then horizontal ones, each by lines (columns, then rows) from the
    /// centre out, each line from the lowest bit up.
    #[inline(always)]
    fn each_after(&self, mut f: impl FnMut(B) -> bool) -> bool {
        let (w, h, b) = (self.width(), self.h as usize, self.bits);
        for (set, step, lines) in [(self.vertical(), w, w), (self.horizontal(), 1, h)] {
            for k in 0..lines {
                let line = centre_out(lines, k);
                let mask = if step == w {
                    B::first_col(w).shl(line)
                } else {
                    B::low(w).shl(line * w)
                };
                let mut s = set & mask;
                while s != B::ZERO {
                    let i = s.tz();
                    s = s.clear_lowest();
                    if !f(b & !B::bit(i) & !B::bit(i + step)) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The number of moves.
    #[inline]
    pub fn moves(&self) -> u32 {
        self.horizontal().ones() + self.vertical().ones()
    }

    /// The number of free cells.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.bits.ones()
    }

    /// The shape's key in the table: its bits and its width (the box's height is that of its
    /// highest cell, as a canonical shape is cropped).
    #[inline]
    fn key(&self) -> (u128, u32) {
        (self.bits.wide(), u32::from(self.w))
    }

    /// The image under `r ↦ h − 1 − r`.
    #[inline]
    pub fn flip_rows(&self) -> Shape<B> {
        let (h, w) = (self.h as usize, self.width());
        let row = B::low(w);
        let b = self.bits;
        // Boxes of one to three rows (the most frequent regions) without a loop.
        let out = match h {
            1 => b,
            2 => (b & row).shl(w) | b.shr(w),
            3 => (b & row).shl(2 * w) | (b & row.shl(w)) | b.shr(2 * w),
            _ => {
                let mut out = B::ZERO;
                for r in 0..h {
                    out |= (b.shr(r * w) & row).shl((h - 1 - r) * w);
                }
                out
            }
        };
        Shape { bits: out, ..*self }
    }

    /// The image under the half turn `(r, c) ↦ (h − 1 − r, w − 1 − c)`: the bit order of the
    /// box reversed.
    #[inline]
    pub fn rotate_half(&self) -> Shape<B> {
        let n = self.h as usize * self.width();
        Shape {
            bits: self.bits.rev().shr(B::BITS - n),
            ..*self
        }
    }

    /// The image under `c ↦ w − 1 − c`.
    pub fn flip_cols(&self) -> Shape<B> {
        self.rotate_half().flip_rows()
    }

    /// The image under `(r, c) ↦ (c, r)`: a `w × h` shape.
    ///
    /// A row or a column at a time, by multiplication: a product `x · Σⱼ 2^{eⱼ}` is the sum of
    /// the shifted copies `x ≪ eⱼ`, and when no two pairs (bit of `x`, term `j`) land on the
    /// same bit there is no carry, so the product is the union of the copies and a mask keeps
    /// the wanted ones.
    ///
    /// * `h ≤ w`, by columns. Column `c` holds the bits `k·w` (`k < h`) of `x = (b ≫ c) ∧ F_w`
    ///   (`F_w`: column 0). With `M = Σ_{j<h} 2^{(h−1−j)·w + j}`, bit `k·w` and term `j` land on
    ///   `(k + h − 1 − j)·w + j`; as `j < h ≤ w`, that bit names `(k, j)` alone, and `j = k`
    ///   lands on `(h − 1)·w + k`. So `(x · M ≫ (h − 1)·w) ∧ (2^h − 1)` is the column as a row
    ///   of `h` bits: row `c` of the image.
    /// * `h > w`, by rows. Row `r` is `x = (b ≫ r·w) ∧ (2^w − 1)`; its bit `c` goes to `c·h`.
    ///   With `M = Σ_{j<w} 2^{j·(h−1)}`, bit `c` and term `j` land on `c + j·(h − 1)`; two pairs
    ///   land on one bit only if `c₁ − c₂ = (j₂ − j₁)(h − 1)`, impossible for `|c₁ − c₂| < w ≤
    ///   h − 1` unless both are equal; `j = c` lands on `c·h`. So `(x · M) ∧ Σ_{c<w} 2^{c·h}`,
    ///   shifted by `r`, is the row's part of the image.
    ///
    /// Every bit the mask keeps lies below `h·w ≤` the word's width, so products are taken
    /// modulo the word.
    pub fn transpose(&self) -> Shape<B> {
        let (h, w) = (self.h as usize, self.width());
        let b = self.bits;
        let mut out = B::ZERO;
        if h <= w {
            let col = B::first_col(w) & B::low(h * w);
            let mut m = B::ZERO;
            for j in 0..h {
                m |= B::bit((h - 1 - j) * w + j);
            }
            let row = B::low(h);
            for c in 0..w {
                let x = b.shr(c) & col;
                if x != B::ZERO {
                    out |= (x.mul(m).shr((h - 1) * w) & row).shl(c * h);
                }
            }
        } else {
            let mut m = B::ZERO;
            for j in 0..w {
                m |= B::bit(j * (h - 1));
            }
            let spread = B::first_col(h) & B::low(h * w);
            let row = B::low(w);
            for r in 0..h {
                let x = b.shr(r * w) & row;
                if x != B::ZERO {
                    out |= (x.mul(m) & spread).shl(r);
                }
            }
        }
        Shape {
            bits: out,
            w: self.h,
            h: self.w,
        }
    }

    /// The canonical image: oriented with `h ≤ w`, the least `bits` over the reflections (and,
    /// for a square, the transposes).
    pub fn canonical(&self) -> Shape<B> {
        let base = if self.h > self.w {
            self.transpose()
        } else {
            *self
        };
        let least = |s: Shape<B>| {
            let half = s.rotate_half();
            s.bits
                .min(half.bits)
                .min(s.flip_rows().bits)
                .min(half.flip_rows().bits)
        };
        let mut bits = least(base);
        if base.h == base.w {
            bits = bits.min(least(base.transpose()));
        }
        Shape { bits, ..base }
    }

    /// The cells of `comp` (bits of a shape `w` wide) cropped to their bounding box.
    fn crop(comp: B, w: usize) -> Shape<B> {
        let r0 = row_of(comp.tz(), w);
        let r1 = row_of(B::BITS - 1 - comp.lz(), w);
        let h = r1 - r0 + 1;
        let top = comp.shr(r0 * w);
        // The union of the rows, folded by doubling strides.
        let mut cols = top;
        let mut stride = w;
        while stride < h * w {
            cols |= cols.shr(stride);
            stride *= 2;
        }
        cols &= B::low(w);
        let c0 = cols.tz();
        let nw = B::BITS - cols.lz() - c0;
        let moved = top.shr(c0);
        if nw == w {
            return Shape {
                bits: moved,
                w: nw as u8,
                h: h as u8,
            };
        }
        let row = B::low(nw);
        let mut out = B::ZERO;
        for r in 0..h {
            out |= (moved.shr(r * w) & row).shl(r * nw);
        }
        Shape {
            bits: out,
            w: nw as u8,
            h: h as u8,
        }
    }

    /// The parts of the free cells `bits` (a shape `w` wide), simplified and in canonical form,
    /// pairs of equal parts left out, in `out` (see the module documentation).
    pub fn split(bits: B, w: usize, out: &mut Parts<B>) {
        out.len = 0;
        Shape::split_into(bits, w, out);
    }

    fn split_into(bits: B, w: usize, out: &mut Parts<B>) {
        let (mut p, tufts, r, d) = simplified(bits, w);
        // Regions of two cells, found without the flood fill: all are dominoes (value 1), so
        // only the parity of their number counts (`g ⊕ g = 0`).
        let across = tufts & r & tufts.shr(1);
        let down = tufts & d & tufts.shr(w);
        if (across | down) != B::ZERO {
            p &= !(across | across.shl(1) | down | down.shl(w));
            if (across.ones() + down.ones()) % 2 == 1 {
                out.push_or_cancel(Shape::DOMINO);
            }
        }
        let cut = square_cuts(p, w);
        let rows = Rows::new(p, !B::last_col(w) & !cut, w);
        let mut rest = p;
        while rest != B::ZERO {
            let mut comp = rows.spans(rest.lowest());
            loop {
                let new = (comp.shl(w) | comp.shr(w)) & rest & !comp;
                if new == B::ZERO {
                    break;
                }
                comp |= rows.spans(new);
            }
            rest &= !comp;
            if cut != B::ZERO && comp != p {
                Shape::split_into(comp, w, out);
            } else {
                out.push_or_cancel(Shape::crop(comp, w).canonical());
            }
        }
    }

    /// Whether the mirror strategy shows the value to be 0 (see the module documentation).
    pub fn mirror_zero(&self) -> bool {
        let (h, w) = (self.h as usize, self.width());
        let b = self.bits;
        let cell = |r: usize, c: usize| b.shr(r * w + c) & B::bit(0) != B::ZERO;
        let half = self.rotate_half();
        if half.bits == b {
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
        if half.flip_rows().bits == b {
            let ok = if w % 2 == 1 {
                b & B::first_col(w).shl(w / 2) == B::ZERO
            } else {
                b & b.shr(1) & B::first_col(w).shl(w / 2 - 1) == B::ZERO
            };
            if ok {
                return true;
            }
        }
        if h % 2 == 0 && self.flip_rows().bits == b {
            return b & b.shr(w) & B::low(w).shl((h / 2 - 1) * w) == B::ZERO;
        }
        false
    }
}

/// The horizontal segments of a set of cells `p` (a box `w` wide): maximal runs of cells of a
/// row joined by the horizontal edges the flood fill follows, so that a region's cells along
/// its rows are found in a few word operations instead of a step per cell.
///
/// Let `T` be the cells whose right edge is followed (the right neighbour is in `p` too): a
/// segment `a..=b` (bits `a` to `b`, one row) has `a..b` in `T` and `b ∉ T`.
///
/// *Rightwards.* Adding `2^s` for a cell `s` of `T` carries through the ones of `T` from `s`
/// and stops at `b`, a zero of `T`, so carries stay in their segments; for seeds `S` the bits
/// of `(T + (S ∩ T)) ⊕ T` in a segment are `s₁..=b` (`s₁` its least seed in `T`) except the
/// other seeds in `T`.
///
/// *Leftwards* (a carry only runs towards the high bits), by doubling: with `T₀ = T` and
/// `T_{k+1} = T_k ∩ (T_k ≫ 2^k)` (the cells `i` whose edges up to `i + 2^{k+1}` are all
/// followed), the step `F ← F ∪ (T_k ∩ (F ≫ 2^k))` for `k = 0, 1, …` while `2^k < w` adds to
/// `F` every cell at most `2^{k+1} − 1` cells left of a cell of `F` along followed edges
/// (induction on `k`), which covers a row.
#[derive(Clone, Copy)]
struct Rows<B> {
    /// `T_k` for `k < levels`.
    right: [B; 7],
    levels: usize,
}

impl<B: Bits> Rows<B> {
    /// The segments of `p` (a box `w` wide) joined by the right edges of the cells of `follow`.
    #[inline]
    fn new(p: B, follow: B, w: usize) -> Rows<B> {
        let mut right = [B::ZERO; 7];
        right[0] = p & p.shr(1) & follow;
        let mut levels = 1;
        while 1 << levels < w {
            let t = right[levels - 1];
            right[levels] = t & t.shr(1 << (levels - 1));
            levels += 1;
        }
        Rows { right, levels }
    }

    /// The cells of the segments holding a cell of `seeds` (a subset of the cells).
    #[inline]
    fn spans(&self, seeds: B) -> B {
        let t = self.right[0];
        let fill = seeds | (t.add(seeds & t) ^ t);
        let mut left = seeds;
        for (k, &r) in self.right[..self.levels].iter().enumerate() {
            left |= r & left.shr(1 << k);
        }
        fill | left
    }
}

/// The parts of one position: at most 64 (each has two cells or more).
pub struct Parts<B = u128> {
    /// The parts, `items[..len]`.
    pub items: [Shape<B>; 64],
    /// How many.
    pub len: usize,
}

impl<B: Bits> Parts<B> {
    /// No parts.
    pub fn new() -> Parts<B> {
        Parts {
            items: [Shape::default(); 64],
            len: 0,
        }
    }

    /// Adds `s`, or removes it if it is there already (`g ⊕ g = 0`).
    #[inline]
    fn push_or_cancel(&mut self, s: Shape<B>) {
        if let Some(i) = self.items[..self.len].iter().position(|x| *x == s) {
            self.len -= 1;
            self.items[i] = self.items[self.len];
        } else {
            self.items[self.len] = s;
            self.len += 1;
        }
    }

    /// The parts.
    pub fn as_slice(&self) -> &[Shape<B>] {
        &self.items[..self.len]
    }
}

impl<B: Bits> Default for Parts<B> {
    fn default() -> Self {
        Parts::new()
    }
}

/// The bytes of the transposition table for a board of `cells` cells and a budget of `limit`
/// bytes: half the budget (so that `--memory` sizes the table of a long search), at most
/// [`MAX_TABLE_BYTES`], and at most `2^(cells/2 + 4)` buckets (the regions a board reaches grow
/// about as fast). The table grows to it only as it fills.
pub fn table_bytes(limit: u64, cells: usize) -> u64 {
    let by_cells = BUCKET_BYTES << (cells / 2 + 4).min(40);
    table::share(limit, MAX_TABLE_BYTES).min(by_cells)
}

/// The largest table [`CramEngine::new`] builds whatever it is asked: 64 GiB.
pub const MAX_TABLE_BYTES: u64 = 1 << 36;

/// Values of regions kept outside the engine, such as the on-disk store
/// (`solve::store::GameStore` with the `store` feature): asked before a
/// region of at least [`ARCHIVE_MIN_CELLS`] cells is searched, and told the value of every such
/// region the engine computes. The key of a region is [`archive_key`]; an archive must give
/// back only values it was told under the same key (a wrong value would make a wrong answer).
pub trait Archive: Sync {
    /// The value recorded under `key`, if any.
    fn get(&self, key: &[u8]) -> Option<u64>;
    /// Records `key → value`.
    fn put(&self, key: &[u8], value: u64);
    /// The fewest cells of a region this archive is asked about.
    fn min_cells(&self) -> u32 {
        ARCHIVE_MIN_CELLS
    }
    /// The fewest positions the engine stored while it searched a region (the region included)
    /// for the archive to be told its value.
    fn min_cost(&self) -> u64 {
        ARCHIVE_MIN_COST
    }

    /// Whether values reach this archive from elsewhere while the engine searches (from other
    /// ranks of a distributed search). If not, a region is looked up only while the table
    /// holds nothing about it: a search that leaves what a region's value is not in the table
    /// began by asking the archive, which can only have learned the region's value since from
    /// this engine, and then the table has the value too.
    fn fed_from_elsewhere(&self) -> bool {
        false
    }
}

/// The fewest cells of a region whose value goes to the [`Archive`]: smaller regions are
/// searched again faster than a record is read.
pub const ARCHIVE_MIN_CELLS: u32 = 24;

/// The fewest positions whose search tells the [`Archive`] a region's value: 16.
///
/// Most regions are settled after storing a handful of positions, and a record costs more than
/// that: at the scale of 7×8 a value written to the on-disk store changes a random leaf of a
/// B-tree of gigabytes, and writing every region took about a quarter of the search's CPU time,
/// where the engine stores a position in about 20 µs, lookups included (1.26 million positions
/// of cram:5x9 in 26.5 s on one thread). Counted on cram:5x9 from an empty store, the regions
/// told number 283,579 with no threshold, 76,971 from 4 positions, 17,540 from 16 and 3,966 from
/// 64 (docs/performance.md). From 16, a region left out is searched again in a few hundred
/// microseconds, and the store is written about sixteen times less.
pub const ARCHIVE_MIN_COST: u64 = 16;

/// The tag of this engine's values in an archive: a change of the key's layout changes it.
pub const ARCHIVE_TAG: &str = "cram-regions-1";

/// The key of a region in canonical form: its rows, its width, then its cells as 16 bytes
/// (little-endian, bit `r·w + c` for cell `(r, c)`).
pub fn archive_key<B: Bits>(c: &Shape<B>) -> [u8; 18] {
    let mut k = [0u8; 18];
    k[0] = c.h;
    k[1] = c.w;
    k[2..].copy_from_slice(&c.bits.wide().to_le_bytes());
    k
}

#[cfg(feature = "store")]
impl Archive for crate::solve::store::GameStore<'_> {
    fn get(&self, key: &[u8]) -> Option<u64> {
        crate::solve::store::GameStore::get(self, key)
    }
    fn put(&self, key: &[u8], value: u64) {
        crate::solve::store::GameStore::put(self, key, value);
    }
}

/// How many options ahead of the one it settles [`CramEngine::options`] splits, so that the
/// table's buckets for their parts are on their way into the cache when they are read.
const AHEAD: usize = 2;

/// Options kept for the searches on the current line before they recompute their parts.
const PENDING_CAPACITY: usize = 1 << 14;

/// Parts kept for the searches on the current line before they recompute them.
const ARENA_CAPACITY: usize = 1 << 16;

/// An option not settled by the table: its sort key, the position after it, and its parts
/// (`arena[start..start + len]`, unknown ones first), or `len == 0` when they did not fit and
/// are recomputed from `after`.
#[derive(Clone, Copy)]
struct Pending<B> {
    key: u32,
    start: u32,
    len: u32,
    after: B,
}

/// The least cells of an option of the board's region whose search says where it stands in
/// the notes ([`CramEngine::note_root`]).
const INNER_NOTE_CELLS: u32 = 24;

/// The table lookups an engine makes between two notes of the searches below the option being
/// asked ([`CramEngine::note_inner`]): lookups, not positions stored, so that the notes go on
/// while a search walks back through what its table already holds.
const INNER_NOTE_EVERY: u64 = 1 << 20;

/// Which of the board's regions an aspiration is about (for [`CramEngine::note_root`]).
#[derive(Clone, Copy)]
struct Root {
    part: usize,
    parts: usize,
}

/// The regions of at most three rows whose options of equal cost are asked fewer moves first
/// have fewer cells than this (see the module documentation).
pub const NARROW_ORDER_CELLS: u32 = 34;

/// The engine: a transposition table and counters, kept from one question to the next.
pub struct CramEngine<'a, 'c, B = u128> {
    ctl: &'a Control<'c>,
    table: TableRef<'a>,
    /// Parts of the pending options of the searches on the current line.
    arena: Vec<Shape<B>>,
    /// Pending options of the searches on the current line.
    pending: Vec<Pending<B>>,
    /// The parts of the last options generated (see [`AHEAD`]).
    scratch: [Parts<B>; AHEAD + 1],
    _reservation: Reservation,
    stats: Stats,
    archive: Option<&'a dyn Archive>,
    /// Raised when another engine on the same board has finished (see [`parallel`]).
    stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// The order of the options of the board's own regions (see [`parallel`]).
    root_order: parallel::RootOrder,
    /// Whether the options being generated are of a region of at most three rows and fewer
    /// than [`NARROW_ORDER_CELLS`] cells, whose options of equal cost are ordered by their
    /// moves: set by [`CramEngine::options`] for the options it settles.
    narrow: bool,
    /// The buckets of its own table at which the engine stops, so that its table is shared
    /// with engines on other threads (see [`parallel`]).
    share_from: Option<usize>,
    /// The regions the engines sharing its table are searching (see [`parallel`]).
    busy: Option<&'a parallel::Busy>,
    /// Where each engine on the board stands at the board's regions, and this engine's index
    /// there (see [`CramEngine::note_root`]).
    root_notes: Option<(&'a parallel::RootNotes, usize)>,
    /// How many searches of regions (`value_in`) are under way on the current line: 1 while
    /// an option of the board's region is searched for itself.
    depth: u32,
    /// The last note of the aspiration at the board's regions ([`CramEngine::note_root`]),
    /// said again with the progress of the option being asked.
    last_root: Option<(Root, Shape<B>, u8, usize, usize)>,
    /// Where the searches under the option being asked stand.
    inner: parallel::Inner,
    /// The table lookups made when a level below the first of [`CramEngine::inner`] was last
    /// said.
    inner_said: u64,
}

/// The error for a region whose value does not fit the engine's 64-bit sets of nimbers.
pub(crate) fn too_large_value() -> Error {
    Error::limit(
        LimitKind::Fixed,
        "a Cram region of Grundy value 64 or more (the dedicated engine keeps nimbers below 64)",
        "solve the board with the generic engine",
    )
}

/// `{q ⊕ x : q ∈ set} ∩ [0, 64)` for values below 64 (the shared [`table::xor_set`]).
#[inline]
fn xor_set(set: u64, x: u8) -> u64 {
    table::xor_set(u128::from(set), x) as u64
}

/// The candidates `P` of the search: a set below 64 and a count of candidates above 63.
#[derive(Clone, Copy)]
struct Candidates {
    low: u64,
    above: usize,
}

impl Candidates {
    /// `{0, …, m}`.
    fn upto(m: usize) -> Candidates {
        Candidates {
            low: low64(m + 1),
            above: m.saturating_sub(63),
        }
    }

    /// `P ∖ {max P}` below 64.
    #[inline]
    fn without_max(&self) -> u64 {
        if self.above > 0 || self.low == 0 {
            self.low
        } else {
            self.low & !(1u64 << (63 - self.low.leading_zeros()))
        }
    }

    #[inline]
    fn remove_max(&mut self) {
        if self.above > 0 {
            self.above -= 1;
        } else {
            self.low = self.without_max();
        }
    }

    /// Removes `v` if it is a candidate, otherwise the largest candidate.
    #[inline]
    fn remove(&mut self, v: u8) {
        if v < 64 && self.low >> v & 1 == 1 {
            self.low &= !(1 << v);
        } else {
            self.remove_max();
        }
    }
}

/// The `k`-th of `0..n` from the centre out: `c, c + 1, c − 1, c + 2, …` for `c = (n − 1) / 2`.
#[inline]
fn centre_out(n: usize, k: usize) -> usize {
    let c = (n - 1) / 2;
    if k % 2 == 1 {
        c + k.div_ceil(2)
    } else {
        c - k / 2
    }
}

impl<'a, 'c, B: Bits> CramEngine<'a, 'c, B> {
    /// An engine whose table takes at most `table_bytes` (rounded down to a power of two of
    /// buckets), with entries for keys of `B`'s bits (small ones on `u64` words, wide ones on
    /// `u128`), reserved from `ctl`'s budget together with the search's stack and option arrays.
    pub fn new(ctl: &'a Control<'c>, table_bytes: u64) -> Result<Self> {
        Self::with_entries(ctl, table_bytes, Layout::for_keys(B::BITS))
    }

    /// [`CramEngine::new`] with the table's entries laid out for the keys of a board whose box
    /// has `cells` cells (the layout [`solve_with`] takes), so that boards of 65 to 104 cells
    /// keep entries of two words.
    pub fn for_cells(ctl: &'a Control<'c>, table_bytes: u64, cells: usize) -> Result<Self> {
        Self::with_entries(ctl, table_bytes, Layout::for_keys(cells))
    }

    /// [`CramEngine::new`] with the table's entries laid out as `layout` (which must hold the
    /// keys of the positions searched).
    fn with_entries(ctl: &'a Control<'c>, table_bytes: u64, layout: Layout) -> Result<Self> {
        let cap = Table::buckets(table_bytes.min(MAX_TABLE_BYTES));
        Self::with_table(ctl, cap as u64 * BUCKET_BYTES, || {
            TableRef::Own(Table::new(cap, layout))
        })
    }

    /// An engine searching with `table`, which engines on other threads search with too (see
    /// [`parallel`]); its search stack and option arrays are reserved from `ctl`'s budget, the
    /// table is not (its owner reserved it).
    fn on_shared(ctl: &'a Control<'c>, table: &'a Table) -> Result<Self> {
        let mut engine = Self::with_table(ctl, 0, || TableRef::Shared(table))?;
        engine.stats.table_bytes = table.bytes();
        Ok(engine)
    }

    /// An engine with the table `table()`, reserving `table_bytes` for it from `ctl`'s budget
    /// together with the search's stack and option arrays.
    fn with_table(
        ctl: &'a Control<'c>,
        table_bytes: u64,
        table: impl FnOnce() -> TableRef<'a>,
    ) -> Result<Self> {
        let arrays = ARENA_CAPACITY * std::mem::size_of::<Shape<B>>()
            + PENDING_CAPACITY * std::mem::size_of::<Pending<B>>();
        let reservation = ctl.reserve(
            table_bytes + (STACK_BYTES + arrays) as u64,
            "the Cram engine's transposition table and search stack",
        )?;
        Ok(CramEngine {
            ctl,
            stats: Stats {
                table_bytes,
                ..Stats::default()
            },
            table: table(),
            arena: Vec::with_capacity(ARENA_CAPACITY),
            pending: Vec::with_capacity(PENDING_CAPACITY),
            scratch: std::array::from_fn(|_| Parts::new()),
            _reservation: reservation,
            archive: None,
            stop: None,
            root_order: parallel::RootOrder::Usual,
            narrow: false,
            share_from: None,
            busy: None,
            root_notes: None,
            depth: 0,
            last_root: None,
            inner: parallel::Inner::default(),
            inner_said: 0,
        })
    }

    /// Asks `archive` for the values of large regions before searching them, and tells it
    /// those it computes.
    pub fn with_archive(mut self, archive: Option<&'a dyn Archive>) -> Self {
        self.archive = archive;
        self
    }

    /// The value of `c` from the archive, if it is large enough to be there and is; it goes
    /// to the table too. `told` is whether the table holds what the value of `c` is not (see
    /// [`Archive::fed_from_elsewhere`]).
    fn archived(&mut self, c: &Shape<B>, told: bool) -> Option<u8> {
        let a = self
            .archive
            .filter(|a| c.cells() >= a.min_cells() && (!told || a.fed_from_elsewhere()))?;
        let v = u8::try_from(a.get(&archive_key(c))?)
            .ok()
            .filter(|&v| v < 64)?;
        self.table.put(c.key(), v);
        Some(v)
    }

    /// Tells the archive the value of `c` if it is large enough and cost enough: `cost` is the
    /// number of positions this engine stored while it searched `c`, `c` included.
    fn archive(&self, c: &Shape<B>, v: u8, cost: u64) {
        if let Some(a) = self
            .archive
            .filter(|a| c.cells() >= a.min_cells() && cost >= a.min_cost())
        {
            a.put(&archive_key(c), u64::from(v));
        }
    }

    /// What the engine has done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Its own table, with what reserved it from the budget, once it is done with it; `None`
    /// when it searches a shared one.
    fn into_table(self) -> Option<(Table, Reservation)> {
        match self.table {
            TableRef::Own(t) => Some((t, self._reservation)),
            TableRef::Shared(_) => None,
        }
    }

    /// The bytes of the table in use (it grows up to [`Stats::table_bytes`]).
    pub fn table_bytes_used(&self) -> u64 {
        self.table.bytes()
    }

    /// The Grundy value of a position.
    pub fn value(&mut self, s: &Shape<B>) -> Result<u8> {
        let mut parts = Parts::new();
        Shape::split(s.bits, s.width(), &mut parts);
        let mut v = 0;
        let parts = parts.as_slice();
        for (i, p) in parts.iter().enumerate() {
            v ^= self.aspiration(
                p,
                Root {
                    part: i,
                    parts: parts.len(),
                },
            )?;
        }
        Ok(v)
    }

    /// Whether a position has value 0 (a P-position).
    pub fn is_p(&mut self, s: &Shape<B>) -> Result<bool> {
        Ok(self.value_in_set(s, 1)? == Some(0))
    }

    /// The value of a position (any set of cells, split here) if it lies in the set of nimbers
    /// `q` (bit `k` for `*k`, values below 64), `None` if it does not; the answer may also be
    /// the value when it lies outside `q`. This is the outcome search of `G + *k` for every
    /// `k` of `q` at once: all parts but the largest are valued exactly, and the largest is
    /// searched for the values that would make the sum lie in `q`.
    pub fn value_in_set(&mut self, s: &Shape<B>, q: u64) -> Result<Option<u8>> {
        let start = self.arena.len();
        Shape::split(s.bits, s.width(), &mut self.scratch[0]);
        self.arena.extend_from_slice(self.scratch[0].as_slice());
        let e = Pending {
            key: 0,
            start: start as u32,
            len: (self.arena.len() - start) as u32,
            after: s.bits,
        };
        let answer = self.option_value_in(&e, s.width(), q);
        self.arena.truncate(start);
        answer
    }

    /// The value of the part `q` if the table has it (counted as a lookup, and a hit when
    /// found). A domino (a fifth of the parts) is answered without the table: its value is 1,
    /// its one move leaving nothing.
    #[inline]
    fn known(table: &Table, stats: &mut Stats, q: &Shape<B>) -> Option<u8> {
        stats.lookups += 1;
        let v = if *q == Shape::DOMINO {
            Some(1)
        } else {
            table.get(q.key())
        };
        stats.hits += u64::from(v.is_some());
        v
    }

    /// `g` of the option `e` (positions `w` wide) if it lies in `q` (values below 64), `None`
    /// if it does not; may answer with a value outside `q`.
    fn option_value_in(&mut self, e: &Pending<B>, w: usize, q: u64) -> Result<Option<u8>> {
        if e.len == 0 {
            return self.recomputed_value_in(e, w, q);
        }
        let (start, len) = (e.start as usize, e.len as usize);
        let mut x = 0u8;
        let mut open = 0u64;
        let mut largest: Option<usize> = None;
        for i in 0..len {
            let p = self.arena[start + i];
            if let Some(v) = Self::known(&self.table, &mut self.stats, &p) {
                x ^= v;
            } else {
                open |= 1 << i;
                if largest.is_none_or(|l| self.arena[start + l].cells() < p.cells()) {
                    largest = Some(i);
                }
            }
        }
        let Some(l) = largest else {
            return Ok(Some(x));
        };
        open &= !(1 << l);
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            let p = self.arena[start + i];
            x ^= self.value_in(&p, ALL)?.ok_or_else(too_large_value)?;
        }
        let want = xor_set(q, x);
        if want == 0 {
            return Ok(None);
        }
        let p = self.arena[start + l];
        Ok(self.value_in(&p, want)?.map(|v| v ^ x))
    }

    /// [`CramEngine::option_value_in`] for an option whose parts did not fit the arena: they are
    /// computed again, on this frame.
    #[cold]
    #[inline(never)]
    fn recomputed_value_in(&mut self, e: &Pending<B>, w: usize, q: u64) -> Result<Option<u8>> {
        let mut parts = Parts::new();
        Shape::split(e.after, w, &mut parts);
        let mut x = 0u8;
        let mut largest: Option<Shape<B>> = None;
        for p in parts.as_slice() {
            if largest.is_none_or(|l| l.cells() < p.cells()) {
                largest = Some(*p);
            }
        }
        let Some(l) = largest else {
            return Ok(Some(0));
        };
        for p in parts.as_slice() {
            if *p != l {
                x ^= self.value_in(p, ALL)?.ok_or_else(too_large_value)?;
            }
        }
        let want = xor_set(q, x);
        if want == 0 {
            return Ok(None);
        }
        Ok(self.value_in(&l, want)?.map(|v| v ^ x))
    }

    /// `g(c)` for a region `c` in canonical form if it lies in `r`, else `None` (or the value
    /// outside `r`). See the module documentation.
    fn value_in(&mut self, c: &Shape<B>, r: u64) -> Result<Option<u8>> {
        self.stats.lookups += 1;
        let excluded = match self.table.probe(c.key()) {
            Some(Known::Value(v)) => {
                self.stats.hits += 1;
                return Ok(Some(v));
            }
            Some(Known::Not(x)) => x,
            None => 0,
        };
        let r = r & !excluded & low64(c.moves() as usize + 1);
        if r == 0 {
            self.stats.hits += 1;
            return Ok(None);
        }
        if c.mirror_zero() {
            self.store(c, 0)?;
            return Ok(Some(0));
        }
        if let Some(v) = self.archived(c, excluded != 0) {
            return Ok(Some(v));
        }
        let (pending, arena) = (self.pending.len(), self.arena.len());
        let mut seen = 0;
        let mark = match self.busy {
            Some(busy) if c.cells() >= parallel::BUSY_MIN_CELLS => {
                let h = table::hash(c.bits.wide(), u32::from(c.w));
                busy.mark(h).then_some((busy, h))
            }
            _ => None,
        };
        let before = self.stats.positions;
        self.depth += 1;
        let answer = self.search(c, r, pending, &mut seen);
        self.depth -= 1;
        if let Some((busy, h)) = mark {
            busy.unmark(h);
        }
        self.pending.truncate(pending);
        self.arena.truncate(arena);
        if let Some(v) = answer? {
            self.store(c, v)?;
            self.archive(c, v, self.stats.positions - before);
            return Ok(Some(v));
        }
        self.table.exclude(c.key(), r | seen);
        Ok(None)
    }

    /// Generates the options of `c` (see the module documentation): those whose parts are all
    /// in the table remove their values from `p` (and are added to `known`), the others are
    /// pushed on `self.pending`, easiest first. `false` as soon as `p` and `r` are disjoint.
    ///
    /// The table is read [`AHEAD`] options behind: the buckets of an option's parts are fetched
    /// into the cache while the next options are split.
    fn options(&mut self, c: &Shape<B>, p: &mut Candidates, r: u64, known: &mut u64) -> bool {
        let w = c.width();
        self.narrow = c.h <= 3 && c.cells() < NARROW_ORDER_CELLS;
        let first = self.pending.len();
        let mut index = 0u32;
        let mut cur = 0;
        // Options split and not yet settled, oldest first: the position after, its index and
        // the buffer of its parts.
        let mut waiting = [(B::ZERO, 0u32, 0usize); AHEAD];
        let mut queued = 0;
        let all = c.each_after(|after| {
            Shape::split(after, w, &mut self.scratch[cur]);
            for q in self.scratch[cur].as_slice() {
                if *q != Shape::DOMINO {
                    self.table.prefetch(q.key());
                }
            }
            if queued == AHEAD {
                let (after, index, buffer) = waiting[0];
                if !self.settle(buffer, after, index, p, r, known) {
                    return false;
                }
                waiting.copy_within(1.., 0);
                queued -= 1;
            }
            waiting[queued] = (after, index, cur);
            queued += 1;
            cur = (cur + 1) % (AHEAD + 1);
            index += 1;
            true
        });
        if !all {
            return false;
        }
        for &(after, index, buffer) in &waiting[..queued] {
            if !self.settle(buffer, after, index, p, r, known) {
                return false;
            }
        }
        self.pending[first..].sort_unstable_by_key(|e| e.key);
        true
    }

    /// Settles the option `after` (the `index`-th generated) from the parts in
    /// `self.scratch[buffer]` if they are all in the table, or pushes it on `self.pending` under
    /// its key (the sum of its unknown parts' cells squared, then, in a narrow region, the sum
    /// of their moves, then `index`); `false` once `p` and `r` are disjoint.
    fn settle(
        &mut self,
        buffer: usize,
        after: B,
        index: u32,
        p: &mut Candidates,
        r: u64,
        known: &mut u64,
    ) -> bool {
        let parts = self.scratch[buffer].as_slice();
        let mut x = 0u8;
        let mut cost = 0u32;
        let start = self.arena.len();
        let room = self.arena.capacity() - start >= parts.len()
            && self.pending.len() < self.pending.capacity();
        for q in parts {
            match Self::known(&self.table, &mut self.stats, q) {
                Some(v) => x ^= v,
                None => {
                    cost += if self.narrow {
                        q.cells() * q.cells() * 64 + q.moves().min(63)
                    } else {
                        q.cells() * q.cells()
                    };
                    if room {
                        self.arena.push(*q);
                    }
                }
            }
        }
        if cost == 0 {
            p.remove(x);
            if x < 64 {
                *known |= 1 << x;
            }
            return p.low & r != 0;
        }
        if room {
            // The known parts too: they are read again when the option is asked.
            let unknown = self.arena.len();
            for q in parts {
                if !self.arena[start..unknown].contains(q) {
                    self.arena.push(*q);
                }
            }
        }
        self.pending.push(Pending {
            key: cost << 9 | index,
            start: start as u32,
            len: (self.arena.len() - start) as u32,
            after,
        });
        true
    }

    /// The search of [`CramEngine::value_in`] for a region not settled by the table; its options
    /// go on `self.pending` from `first` on.
    fn search(&mut self, c: &Shape<B>, r: u64, first: usize, seen: &mut u64) -> Result<Option<u8>> {
        self.ctl.tick()?;
        self.stop_check()?;
        let m = c.moves() as usize;
        let mut p = Candidates::upto(m);
        let max_r = 63 - r.leading_zeros();
        let upto_r = low64(max_r as usize + 1);
        if !self.options(c, &mut p, r, seen) {
            return Ok(None);
        }
        let w = c.width();
        // Options whose parts another engine is searching, put off until the others are asked
        // (bit `k - first`); only with engines sharing the table.
        let mut later = 0u64;
        let (end, mut next) = (self.pending.len(), first);
        // The level of this search under the option of the board's region being asked, if
        // it says where it stands.
        let level = (self.depth as usize)
            .checked_sub(1)
            .filter(|&l| l < parallel::INNER_LEVELS && c.cells() >= INNER_NOTE_CELLS);
        if let Some(l) = level {
            self.note_inner(l, 0, end - first);
        }
        loop {
            let (k, put_off) = if next < end {
                next += 1;
                (next - 1, self.busy.is_some() && next - 1 - first < 64)
            } else if later != 0 {
                let k = first + later.trailing_zeros() as usize;
                later &= later - 1;
                (k, false)
            } else {
                break;
            };
            if p.low & r == 0 {
                return Ok(None);
            }
            let e = self.pending[k];
            if put_off && self.in_search_elsewhere(&e) {
                later |= 1 << (k - first);
                continue;
            }
            let q = p.without_max() & upto_r;
            let answer = if q == 0 {
                None
            } else {
                self.option_value_in(&e, w, q)?
            };
            match answer {
                Some(v) => {
                    p.remove(v);
                    if v < 64 {
                        *seen |= 1 << v;
                    }
                }
                None => p.remove_max(),
            }
            if let Some(l) = level {
                let asked = next - first - later.count_ones() as usize;
                self.note_inner(l, asked, end - first);
            }
        }
        if p.low == 0 {
            return Ok(None);
        }
        let x = p.low.trailing_zeros();
        Ok((x <= max_r).then_some(x as u8))
    }

    /// Whether a part of the option `e` not in the table when it was generated is being
    /// searched by another engine sharing the table.
    #[inline]
    fn in_search_elsewhere(&self, e: &Pending<B>) -> bool {
        let Some(busy) = self.busy else {
            return false;
        };
        let parts = &self.arena[e.start as usize..(e.start + e.len) as usize];
        parts.iter().any(|q| {
            q.cells() >= parallel::BUSY_MIN_CELLS
                && busy.is_marked(table::hash(q.bits.wide(), u32::from(q.w)))
        })
    }

    /// The exact value of a region in canonical form by aspiration (see the module
    /// documentation).
    fn aspiration(&mut self, c: &Shape<B>, root: Root) -> Result<u8> {
        let excluded = match self.table.probe(c.key()) {
            Some(Known::Value(v)) => return Ok(v),
            Some(Known::Not(x)) => x,
            None => 0,
        };
        if c.mirror_zero() {
            self.store(c, 0)?;
            return Ok(0);
        }
        if let Some(v) = self.archived(c, excluded != 0) {
            return Ok(v);
        }
        let (first, arena) = (self.pending.len(), self.arena.len());
        let before = self.stats.positions;
        let answer = self.aspiration_search(c, first, excluded, root);
        self.pending.truncate(first);
        self.arena.truncate(arena);
        let v = answer?;
        self.store(c, v)?;
        self.archive(c, v, self.stats.positions - before);
        Ok(v)
    }

    /// `Err` once another engine on the same board has finished.
    #[inline]
    fn stop_check(&self) -> Result<()> {
        match self.stop {
            Some(s) if s.load(std::sync::atomic::Ordering::Relaxed) => Err(parallel::superseded()),
            _ => Ok(()),
        }
    }

    fn aspiration_search(
        &mut self,
        c: &Shape<B>,
        first: usize,
        excluded: u64,
        root: Root,
    ) -> Result<u8> {
        self.ctl.tick()?;
        self.stop_check()?;
        let m = c.moves() as usize;
        // The values of the options settled so far.
        let mut taken = 0u64;
        let arena = self.arena.len();
        if !self.options(c, &mut Candidates::upto(m), ALL, &mut taken) {
            // Every candidate below 64 is gone: the value is 64 or more.
            return Err(too_large_value());
        }
        self.root_order.apply(&mut self.pending[first..]);
        // Parts settled by the mirror strategy go to the table first, so that an option leaving
        // only such parts (the central domino of an even × odd board) answers at once.
        for i in arena..self.arena.len() {
            let p = self.arena[i];
            if self.table.get(p.key()).is_none() && p.mirror_zero() {
                self.store(&p, 0)?;
            }
        }
        let w = c.width();
        'values: for k in 0..64u8 {
            if (taken | excluded) >> k & 1 == 1 {
                continue;
            }
            let mut i = first;
            let (mut asked, options) = (0, self.pending.len() - first);
            self.note_root(root, c, k, asked, options);
            while i < self.pending.len() {
                let e = self.pending[i];
                let answer = self.option_value_in(&e, w, 1 << k)?;
                asked += 1;
                match answer {
                    Some(v) => {
                        self.pending.remove(i);
                        if v == k {
                            continue 'values;
                        }
                        if v < 64 {
                            taken |= 1 << v;
                        }
                    }
                    None => i += 1,
                }
                self.note_root(root, c, k, asked, options);
            }
            return Ok(k);
        }
        Err(too_large_value())
    }

    /// Tells the control's notes where the aspiration of a region of the board stands: its
    /// value is at least `k` (options of every value below were found), and `asked` of the
    /// `options` left have been asked whether their value is `k`. With several engines on the
    /// board, each records where it stands ([`parallel::RootNotes`]) and the note gives the
    /// options asked by the engines furthest on, which ask them in different orders. The note
    /// is kept, so that the search of the option being asked can say it again with its own
    /// progress ([`CramEngine::note_inner`]), which a new note of the region drops.
    fn note_root(&mut self, root: Root, c: &Shape<B>, k: u8, asked: usize, options: usize) {
        if !self.ctl.has_notes() {
            return;
        }
        self.last_root = Some((root, *c, k, asked, options));
        self.inner = parallel::Inner::default();
        if let Some((notes, engine)) = self.root_notes {
            notes.record_inner(engine, self.inner);
        }
        self.say_root();
    }

    /// Tells the notes where the search at `level` under the option being asked at the
    /// board's region stands (level 0: the option's own search): `asked` of its `options`,
    /// the root's note said again with it. The deeper levels, which change far more often,
    /// are said once the engine has made [`INNER_NOTE_EVERY`] lookups since it last said one.
    fn note_inner(&mut self, level: usize, asked: usize, options: usize) {
        if self.last_root.is_none() || !self.ctl.has_notes() {
            return;
        }
        self.inner.set(level, asked, options);
        if level > 0 {
            if self.stats.lookups < self.inner_said + INNER_NOTE_EVERY {
                return;
            }
            self.inner_said = self.stats.lookups;
        }
        if let Some((notes, engine)) = self.root_notes {
            notes.record_inner(engine, self.inner);
        }
        self.say_root();
    }

    /// The note of [`CramEngine::note_root`] from what was last recorded.
    fn say_root(&self) {
        let Some((root, c, k, asked, options)) = self.last_root else {
            return;
        };
        let (by_engine, options) = match self.root_notes {
            Some((notes, engine)) => {
                notes.record(engine, root.part, k, asked, options);
                match notes.furthest(root.part) {
                    // Another engine is further on: its own note says so.
                    Some((far, _, _)) if far != k => return,
                    Some((_, by_engine, options)) => (by_engine, options),
                    None => return,
                }
            }
            None => (vec![(asked, self.inner)], options),
        };
        self.ctl.note(|| {
            let what = if root.parts == 1 {
                "the board".to_string()
            } else {
                format!(
                    "region {} of {} ({} cells)",
                    root.part + 1,
                    root.parts,
                    c.cells()
                )
            };
            let at_least = if k == 0 {
                String::new()
            } else {
                format!("{what}: value at least {k}; ")
            };
            let whose = if k == 0 {
                format!("{what}'s")
            } else {
                "its".into()
            };
            let by = match by_engine.len() {
                1 => String::new(),
                n => format!(" by {n} engines"),
            };
            let asked = by_engine
                .iter()
                .map(|a| a.0.to_string())
                .collect::<Vec<_>>()
                .join(" + ");
            let inside = if by_engine.iter().any(|a| a.1.levels().next().is_some()) {
                let each = by_engine
                    .iter()
                    .map(|a| {
                        let levels = a
                            .1
                            .levels()
                            .map(|(asked, options)| format!("{asked} of {options}"))
                            .collect::<Vec<_>>();
                        if levels.is_empty() {
                            "-".into()
                        } else {
                            levels.join(" > ")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" + ");
                let option = if by_engine.len() == 1 {
                    "the option being asked"
                } else {
                    "the options being asked"
                };
                format!("; inside {option}: {each} options asked")
            } else {
                String::new()
            };
            format!(
                "{at_least}asking whether {whose} value is {k}: {asked} of {options} options asked{by}{inside}"
            )
        });
    }

    fn store(&mut self, c: &Shape<B>, value: u8) -> Result<()> {
        self.table.put(c.key(), value);
        self.stats.positions += 1;
        let grown = match &self.table {
            TableRef::Own(t) => self.share_from.is_some_and(|n| t.len() >= n),
            // Only in a round of engines, not while the winning moves are found after it.
            TableRef::Shared(t) => self.stop.is_some() && t.wants_to_grow(),
        };
        if grown {
            return Err(parallel::to_share());
        }
        if self.stats.positions.is_multiple_of(PROGRESS_EVERY) {
            self.ctl.advance(PROGRESS_EVERY)?;
        }
        Ok(())
    }
}

/// Solves a Cram board under normal play as `grundy solve` does: with this engine when its box
/// has at most [`MAX_CELLS`] cells, otherwise with the generic engine
/// ([`search::solve`](crate::solve::search::solve)), whose line of play (the options of every
/// position on it) is first reserved from the budget in full, so that a board too large for
/// the budget stops at once with a memory limit. Misère play always goes to the generic engine.
pub fn solve(board: &Board, play: Play, moves: bool, ctl: &Control) -> Result<Solution> {
    solve_with(board, play, moves, None, ctl)
}

/// [`solve`] asking `archive` (if any) for the values of large regions and telling it the
/// values it computes.
pub fn solve_with(
    board: &Board,
    play: Play,
    moves: bool,
    archive: Option<&dyn Archive>,
    ctl: &Control,
) -> Result<Solution> {
    solve_on(board, play, moves, archive, 1, None, ctl)
}

/// [`solve_with`] by one engine on every thread of rayon's pool (the `parallel` feature), all
/// searching with one shared table, when the board has [`PARALLEL_MIN_CELLS`] free cells or
/// more and its box at most 104 (the `parallel` module of this file); else as [`solve_with`].
/// The value and the winning moves are those of [`solve_with`].
pub fn solve_with_threads(
    board: &Board,
    play: Play,
    moves: bool,
    archive: Option<&dyn Archive>,
    ctl: &Control,
) -> Result<Solution> {
    solve_on(board, play, moves, archive, usize::MAX, None, ctl)
}

/// [`solve_with_threads`] for a board in normal play, starting from the table saved in `file`
/// if there is one, and saving the table to `file` when the search stops with an answer or is
/// interrupted ([`Error::Cancelled`]); see [`TableFile`]. A file that is not a sound table of
/// this board is refused ([`Error::Invalid`]) before any search. The value is that of a search
/// from scratch: every entry of a saved table is a true statement about its region.
pub fn solve_saving(
    board: &Board,
    moves: bool,
    archive: Option<&dyn Archive>,
    file: &TableFile,
    ctl: &Control,
) -> Result<Solution> {
    solve_on(
        board,
        Play::Normal,
        moves,
        archive,
        usize::MAX,
        Some(file),
        ctl,
    )
}

fn solve_on(
    board: &Board,
    play: Play,
    moves: bool,
    archive: Option<&dyn Archive>,
    threads: usize,
    checkpoint: Option<&TableFile>,
    ctl: &Control,
) -> Result<Solution> {
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
    // A board the mirror strategy settles (every even × even one) takes no table, no thread
    // and no count of the cores: a P-position has no winning move. With a table file the
    // search goes on as usual, so that the file is checked and written as for any board.
    if checkpoint.is_none() && shape.mirror_zero() {
        return Ok(solution(0, Vec::new(), Stats::default(), Instant::now()));
    }
    let table = table_bytes(
        ctl.memory().limit().saturating_sub(STACK_BYTES as u64),
        board.rows() * board.cols(),
    );
    table::on_search_thread("grundy-cram", STACK_BYTES, || {
        solve_setup(
            &shape,
            Setup {
                checkpoint,
                ..Setup::new(board, moves, table, archive, threads)
            },
            ctl,
        )
    })
}

/// [`solve`] with this engine, on the calling thread, with a table of at most `table` bytes:
/// on `u64` words with small table entries when the board's box has at most 64 cells, with
/// narrow ones up to 104 cells.
pub fn solve_shape(
    board: &Board,
    shape: &Shape,
    moves: bool,
    table: u64,
    archive: Option<&dyn Archive>,
    ctl: &Control,
) -> Result<Solution> {
    solve_setup(shape, Setup::new(board, moves, table, archive, 1), ctl)
}

/// [`solve_in`] on `u64` words when the board's box has at most 64 cells, with the table's
/// entries laid out for the box's cells.
fn solve_setup(shape: &Shape, setup: Setup, ctl: &Control) -> Result<Solution> {
    let cells = shape.h as usize * shape.width();
    let setup = Setup {
        layout: Layout::for_keys(cells),
        ..setup
    };
    if cells <= 64 {
        solve_in::<u64>(&shape.narrow(), setup, ctl)
    } else {
        solve_in::<u128>(shape, setup, ctl)
    }
}

/// What [`solve_in`] is given besides the position: the board it comes from, whether to find
/// the winning moves, the table's bytes and entries, and the archive.
#[derive(Clone, Copy)]
struct Setup<'a> {
    board: &'a Board,
    moves: bool,
    table: u64,
    archive: Option<&'a dyn Archive>,
    /// The most engines that search the board at once, each on a thread (when it pays, see
    /// [`solve_with_threads`]).
    threads: usize,
    /// How the table's entries are laid out (by the cells of the board's box).
    layout: Layout,
    /// The file the table starts from and is saved to ([`solve_saving`]).
    checkpoint: Option<&'a TableFile>,
}

impl<'a> Setup<'a> {
    /// Narrow entries unless changed.
    fn new(
        board: &'a Board,
        moves: bool,
        table: u64,
        archive: Option<&'a dyn Archive>,
        threads: usize,
    ) -> Setup<'a> {
        Setup {
            board,
            moves,
            table,
            archive,
            threads,
            layout: Layout::Small,
            checkpoint: None,
        }
    }

    /// The largest number of buckets of the search's table.
    fn buckets(&self) -> usize {
        Table::buckets(self.table.min(MAX_TABLE_BYTES))
    }

    /// Gives `engine` the table saved in the checkpoint file, if there is one; whether it did.
    fn resume<B: Bits>(&self, engine: &mut CramEngine<B>) -> Result<bool> {
        let Some(f) = self.checkpoint else {
            return Ok(false);
        };
        // The engine's own table goes first, so that two tables of the largest size are never
        // held at once.
        engine.table = TableRef::Own(Table::new(1, self.layout));
        let saved = f.load(self.buckets(), self.layout)?;
        let loaded = saved.is_some();
        engine.table =
            TableRef::Own(saved.unwrap_or_else(|| Table::new(self.buckets(), self.layout)));
        Ok(loaded)
    }

    /// Saves `table` to the checkpoint file (if any) when `r` is an answer or an interruption,
    /// and gives `r` back.
    fn saving<T>(&self, table: &Table, r: Result<T>) -> Result<T> {
        if let Some(f) = self.checkpoint {
            if matches!(r, Ok(_) | Err(Error::Cancelled(_))) {
                f.save(table);
            }
        }
        r
    }
}

/// Solves `shape` (the board of `setup`) with several engines when that pays, else one on the
/// calling thread.
fn solve_in<B: Bits>(shape: &Shape<B>, setup: Setup, ctl: &Control) -> Result<Solution> {
    // Entries of four words cannot be shared (`Table::into_shared`): one engine.
    let n = match setup.layout {
        Layout::Wide => 1,
        _ => setup.threads.min(parallel::engines(shape)),
    };
    // Periodic saves of the table are made between the rounds of engines sharing it.
    let periodic = setup.checkpoint.is_some_and(|f| f.interval().is_some());
    if n >= 2 || (periodic && setup.layout != Layout::Wide) {
        return parallel::solve_in(shape, setup, n, ctl);
    }
    let start = Instant::now();
    let mut engine =
        CramEngine::<B>::with_entries(ctl, setup.table, setup.layout)?.with_archive(setup.archive);
    setup.resume(&mut engine)?;
    let r = engine.value(shape).and_then(|v| {
        let winning_moves = winning_moves(&mut engine, setup.board, setup.moves, v)?;
        Ok((v, winning_moves))
    });
    let (v, winning_moves) = setup.saving(&engine.table, r)?;
    Ok(solution(v, winning_moves, engine.stats(), start))
}

/// The winning moves of `board` (of value `v`) if `moves`, each checked with `engine`.
fn winning_moves<B: Bits>(
    engine: &mut CramEngine<B>,
    board: &Board,
    moves: bool,
    v: u8,
) -> Result<Vec<WinningMove>> {
    let mut winning_moves = Vec::new();
    if moves && v != 0 {
        for (name, after, q) in Cram.described_moves(board)? {
            let s =
                Shape::from_board(&q).ok_or_else(|| Error::Internal("a larger board".into()))?;
            if engine.is_p(&s.narrow())? {
                winning_moves.push(WinningMove { name, after });
            }
        }
    }
    Ok(winning_moves)
}

pub(crate) fn solution(
    v: u8,
    winning_moves: Vec<WinningMove>,
    stats: Stats,
    start: Instant,
) -> Solution {
    Solution {
        outcome: if v == 0 { Outcome::P } else { Outcome::N },
        value: Some(u64::from(v)),
        winning_moves,
        stats,
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests;
