//! Games with transfinite values: cascading nim, the Codeforces 1451F matrix game,
//! the DAG path game, the Codeforces 1149E game, and nim with increases.
//!
//! # Level games
//! Four of the games share one shape, a [`LevelGame`]: a finite DAG whose vertices hold heaps
//! `a_v`. A move picks a vertex `v` with `a_v > 0`, lowers `a_v` to any `a' < a_v`, and then
//! sets the heaps of some vertices *after* `v` to any natural numbers:
//!
//! * [`FreeSet::Path`]: the vertices of one path leaving `v` (any path, of any length);
//! * [`FreeSet::Successors`]: the direct successors of `v`.
//!
//! Give every vertex a *level* `L(v)` such that (i) every vertex that a move at `v` may change
//! has a level other than `L(v)`, at most one of them per level below `L(v)`, and (ii) for each
//! level `l < L(v)` a move at `v` may change some vertex of level `l`, all at once. Then
//!
//! **Theorem.** `g = ⊕_v ω^L(v)·a_v = Σ_l ω^l·X_l` with `X_l` the xor of the heaps of level `l`.
//!
//! *Proof* (induction on the well-founded game). An option changes `a_v` and no other heap of
//! level `L(v)`, so `X_L(v)` changes: no option has value `g`. Conversely let `h < g`, first
//! differing from `g` at `ω^l`, `h_l < X_l`. As in nim, some `v` of level `l` has
//! `a_v xor X_l xor h_l < a_v`; lower `a_v` to it, and for each level `l' < l` set one vertex of
//! that level (by (ii)) so that `X_l'` becomes `h_l'`; leave the rest. That option has value
//! `h`. So `g = mex` of the options. ∎
//!
//! * Path rule: `L(v)` = the length of the longest path from `v` (to a sink). An arc lowers `L`
//!   by at least 1, so a path meets each level at most once, below `L(v)` (i); a longest path
//!   lowers it by exactly 1 a step, meeting every level below (ii).
//! * Successor rule: `L(v) = mex { L(u) : v → u }` (Codeforces 1149E). No successor has level
//!   `L(v)` and every smaller level has a successor (ii); successors of one level are set one at
//!   a time (the others left as they are), and a move may also change successors of *higher*
//!   levels — those options are extra, differ from `g` at `ω^L(v)`, and do not affect the mex.
//!
//! Instances: **cascading nim** (a row `[a_n, ..., a_0]`; take from a pile and set any piles
//! to its right) is the path rule on a chain, so a row is worth `Σ a_i·ω^i` and the rows of a
//! matrix, played side by side, add by nim-sum: coefficient-wise xor. **Codeforces 1451F**
//! (decrease a cell, then change the cells of a monotone right/down path from it) is the path
//! rule on the grid, where `L(r, c) = (n−1−r) + (m−1−c)`: the anti-diagonal `r + c = d` is the
//! coefficient of `ω^(n+m−2−d)`, and the first player wins iff some anti-diagonal's xor is not 0.
//!
//! # Nim with increases
//! See [`IncreaseRule`] and [`increases_value`].

//!
//! ```
//! use grundy::transfinite::games::{FreeSet, LevelGame};
//! use num_bigint::BigUint;
//!
//! // Codeforces 1149E, sample 3: roads 1→2, 1→3, 3→2 and taxes 314 159 265.
//! let game = LevelGame::new(vec![vec![1, 2], vec![], vec![1]], FreeSet::Successors).unwrap();
//! let taxes: Vec<BigUint> = [314u32, 159, 265].map(BigUint::from).to_vec();
//! assert_eq!(game.value(&taxes).unwrap().to_string(), "w^2*314+w*265+159");
//! let m = game.winning_move(&taxes).unwrap().unwrap();
//! assert_eq!((m.vertex, m.to.clone()), (0, BigUint::from(0u8)));
//! ```

use crate::error::{Error, Result};
use crate::game::transfinite::{infinitely_many_options, OptionFamily, Transfinite};
use crate::game::Game;
use crate::ordinal::nim_sum::{nim_sum_all, OrdinalSet};
use crate::ordinal::Ordinal;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Which vertices a move at `v` may set freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeSet {
    /// The vertices of any one path leaving `v` (cascading nim, Codeforces 1451F, DAG path game).
    Path,
    /// The direct successors of `v` (Codeforces 1149E).
    Successors,
}

/// A level game: a DAG with heaps and a [`FreeSet`] rule (see the module documentation).
#[derive(Clone, Debug)]
pub struct LevelGame {
    succ: Vec<Vec<usize>>,
    rule: FreeSet,
    levels: Vec<usize>,
    /// For the path rule: a successor of `v` on a longest path (none at a sink).
    next_on_longest: Vec<Option<usize>>,
}

/// The largest number of vertices a level game may have (positions are vectors of this length
/// and values polynomials of this degree).
pub const MAX_VERTICES: usize = 1_000_000;

impl LevelGame {
    /// A level game on the DAG with successor lists `succ` (vertices `0..succ.len()`).
    /// Errors: a cycle, a successor out of range, or more than [`MAX_VERTICES`] vertices.
    pub fn new(succ: Vec<Vec<usize>>, rule: FreeSet) -> Result<Self> {
        let n = succ.len();
        if n > MAX_VERTICES {
            return Err(Error::limit(
                crate::LimitKind::Fixed,
                format!("the graph has {n} vertices, above the {MAX_VERTICES} limit"),
                "use a smaller graph",
            ));
        }
        if let Some((v, _)) = succ
            .iter()
            .enumerate()
            .find(|(_, s)| s.iter().any(|&u| u >= n))
        {
            return Err(Error::invalid(format!(
                "vertex {v} has a successor out of range"
            )));
        }
        let order = reverse_topological_order(&succ)?;
        let mut levels = vec![0usize; n];
        let mut next_on_longest = vec![None; n];
        for &v in &order {
            match rule {
                FreeSet::Path => {
                    // L(v) = 1 + max L(u), 0 at a sink.
                    if let Some(&u) = succ[v].iter().max_by_key(|&&u| levels[u]) {
                        levels[v] = levels[u] + 1;
                        next_on_longest[v] = Some(u);
                    }
                }
                FreeSet::Successors => {
                    let mut seen = vec![false; succ[v].len() + 1];
                    for &u in &succ[v] {
                        if levels[u] < seen.len() {
                            seen[levels[u]] = true;
                        }
                    }
                    levels[v] = seen.iter().position(|&s| !s).unwrap_or(seen.len());
                }
            }
        }
        Ok(LevelGame {
            succ,
            rule,
            levels,
            next_on_longest,
        })
    }

    /// Cascading nim on rows of piles, each row leftmost the highest power (`[a_n, ..., a_0]`):
    /// the path rule on one chain per row. Positions list the piles row by row, left to right.
    pub fn cascade(row_lengths: &[usize]) -> Result<Self> {
        let mut succ = Vec::new();
        for &len in row_lengths {
            let base = succ.len();
            for i in 0..len {
                succ.push(if i + 1 < len {
                    vec![base + i + 1]
                } else {
                    vec![]
                });
            }
        }
        Self::new(succ, FreeSet::Path)
    }

    /// The Codeforces 1451F game on an `rows × cols` matrix: the path rule on the grid with arcs
    /// right and down. Positions list the cells row by row.
    pub fn grid(rows: usize, cols: usize) -> Result<Self> {
        let cells = rows
            .checked_mul(cols)
            .filter(|&c| c <= MAX_VERTICES)
            .ok_or_else(|| {
                Error::limit(
                    crate::LimitKind::Fixed,
                    format!("a {rows}×{cols} matrix is above the {MAX_VERTICES}-cell limit"),
                    "use a smaller matrix",
                )
            })?;
        let succ = (0..cells)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut s = Vec::new();
                if c + 1 < cols {
                    s.push(i + 1);
                }
                if r + 1 < rows {
                    s.push(i + cols);
                }
                s
            })
            .collect();
        Self::new(succ, FreeSet::Path)
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.succ.len()
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.succ.is_empty()
    }

    /// The successors of `v`.
    pub fn successors(&self, v: usize) -> &[usize] {
        &self.succ[v]
    }

    /// The rule of the game.
    pub fn rule(&self) -> FreeSet {
        self.rule
    }

    /// The level `L(v)` of every vertex: `ω^L(v)` is the power its heap counts at.
    pub fn levels(&self) -> &[usize] {
        &self.levels
    }

    /// The xor `X_l` of the heaps of each level `l` (the coefficients of the value).
    pub fn level_xors(&self, heaps: &[BigUint]) -> Vec<BigUint> {
        let top = self.levels.iter().max().map_or(0, |&l| l + 1);
        let mut x = vec![BigUint::zero(); top];
        for (v, a) in heaps.iter().enumerate() {
            x[self.levels[v]] ^= a;
        }
        x
    }

    /// The Grundy value `Σ_l ω^l·X_l` of the position `heaps` (see the theorem above).
    pub fn value(&self, heaps: &[BigUint]) -> Result<Ordinal> {
        self.check(heaps)?;
        Ok(polynomial(&self.level_xors(heaps)))
    }

    fn check(&self, heaps: &[BigUint]) -> Result<()> {
        if heaps.len() != self.len() {
            return Err(Error::invalid(format!(
                "the position has {} heaps for {} vertices",
                heaps.len(),
                self.len()
            )));
        }
        Ok(())
    }

    /// The vertices a move at `v` changes to reach a wanted value: for each level below
    /// `L(v)`, one vertex of that level it may set (a longest path, or one successor a level).
    fn free_vertices(&self, v: usize) -> Vec<usize> {
        match self.rule {
            FreeSet::Path => {
                let mut out = Vec::new();
                let mut u = self.next_on_longest[v];
                while let Some(w) = u {
                    out.push(w);
                    u = self.next_on_longest[w];
                }
                out
            }
            FreeSet::Successors => {
                let mut chosen: Vec<Option<usize>> = vec![None; self.levels[v]];
                for &u in &self.succ[v] {
                    if self.levels[u] < self.levels[v] && chosen[self.levels[u]].is_none() {
                        chosen[self.levels[u]] = Some(u);
                    }
                }
                chosen.into_iter().flatten().collect()
            }
        }
    }

    /// The option of `heaps` reached by moving at `v` to the value `target` (which must be
    /// below the value and equal to it above `ω^L(v)`), or `None` if no move at `v` does it.
    pub fn move_to(&self, heaps: &[BigUint], v: usize, target: &Ordinal) -> Option<Vec<BigUint>> {
        let l = self.levels[v];
        let x = self.level_xors(heaps);
        // The target's coefficients by exponent; an exponent beyond the levels is no target.
        let mut want = vec![BigUint::zero(); x.len()];
        for t in target.terms() {
            let e = t
                .exponent
                .as_natural()
                .and_then(|e| usize::try_from(e).ok());
            match e {
                Some(e) if e < want.len() => want[e] = t.coefficient.clone(),
                _ => return None,
            }
        }
        // Above ω^l the target must agree with the position.
        if (l + 1..x.len()).any(|e| want[e] != x[e]) {
            return None;
        }
        let new_a = &heaps[v] ^ &x[l] ^ &want[l];
        if new_a >= heaps[v] {
            return None;
        }
        let mut out = heaps.to_vec();
        out[v] = new_a;
        for u in self.free_vertices(v) {
            let e = self.levels[u];
            out[u] = &heaps[u] ^ &x[e] ^ &want[e];
        }
        Some(out)
    }
}

/// A move in a level game: lower the heap at `vertex` from `from` to `to`, and set the heaps
/// listed in `set` (vertex, new size).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LevelMove {
    /// The vertex moved at.
    pub vertex: usize,
    /// Its heap before the move.
    pub from: BigUint,
    /// Its heap after the move (smaller).
    pub to: BigUint,
    /// The other heaps the move changes, with their new sizes, in vertex order.
    pub set: Vec<(usize, BigUint)>,
}

impl LevelGame {
    /// A winning move from `heaps` (one to a position of value 0), or `None` if the position is
    /// lost for the player to move.
    ///
    /// The proof of the theorem with `h = 0`: let `ω^l` be the leading power of the value and
    /// `2^k` the top bit of `X_l`; a vertex `v` of level `l` whose heap has bit `k` gets
    /// `a_v xor X_l < a_v`, and the vertices of [`Self::move_to`] clear the levels below. (The
    /// tests check this against the generic engine's [`analyze_sum`](super::TransfiniteSolver::analyze_sum).)
    /// Linear in the input size, whatever the heaps' sizes.
    pub fn winning_move(&self, heaps: &[BigUint]) -> Result<Option<LevelMove>> {
        self.check(heaps)?;
        let x = self.level_xors(heaps);
        let Some(l) = (0..x.len()).rev().find(|&l| !x[l].is_zero()) else {
            return Ok(None);
        };
        let k = x[l].bits() - 1;
        let v = (0..heaps.len())
            .find(|&v| self.levels[v] == l && heaps[v].bit(k))
            .ok_or_else(|| Error::Internal("a level's xor has a bit no heap has".into()))?;
        let to = self
            .move_to(heaps, v, &Ordinal::zero())
            .ok_or_else(|| Error::Internal("the winning move is not a move".into()))?;
        let set = (0..heaps.len())
            .filter(|&u| u != v && to[u] != heaps[u])
            .map(|u| (u, to[u].clone()))
            .collect();
        Ok(Some(LevelMove {
            vertex: v,
            from: heaps[v].clone(),
            to: to[v].clone(),
            set,
        }))
    }
}

/// `Σ ω^e·c_e` for coefficients indexed by exponent.
pub fn polynomial(coefficients: &[BigUint]) -> Ordinal {
    Ordinal::from_terms(
        coefficients
            .iter()
            .enumerate()
            .rev()
            .map(|(e, c)| (Ordinal::from(e as u64), c.clone())),
    )
}

/// The vertices in an order where every vertex comes after its successors; an error naming a
/// vertex on a cycle if there is one.
fn reverse_topological_order(succ: &[Vec<usize>]) -> Result<Vec<usize>> {
    let n = succ.len();
    // Kahn's algorithm on the reversed graph: repeatedly take vertices all of whose
    // successors are taken.
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut remaining: Vec<usize> = succ.iter().map(Vec::len).collect();
    for (v, s) in succ.iter().enumerate() {
        for &u in s {
            pred[u].push(v);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&v| remaining[v] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let u = order[i];
        i += 1;
        for &v in &pred[u] {
            remaining[v] -= 1;
            if remaining[v] == 0 {
                order.push(v);
            }
        }
    }
    if order.len() < n {
        let v = (0..n).find(|&v| remaining[v] > 0).unwrap_or(0);
        return Err(Error::invalid(format!(
            "the graph has a cycle through vertex {v}: the game must be acyclic"
        )));
    }
    Ok(order)
}

/// `{ y xor a' : a' < a }` as at most `bits(a)` disjoint intervals `[lo, hi)` of naturals.
///
/// Derivation: `a' < a` iff for some bit `k` set in `a`, `a'` agrees with `a` above `k`, has 0
/// at `k`, and anything below. Then `y xor a'` has fixed bits from `k` up — those of
/// `y xor a xor 2^k` — and free bits below: the aligned block `[b·2^k, (b+1)·2^k)`.
pub fn xor_blocks(y: &BigUint, a: &BigUint) -> Vec<(BigUint, BigUint)> {
    let mut out = Vec::new();
    let fixed = y ^ a;
    for k in 0..a.bits() {
        if a.bit(k) {
            let mut high = &fixed >> k;
            high ^= BigUint::one();
            let lo = high << k;
            let hi = &lo + (BigUint::one() << k);
            out.push((lo, hi));
        }
    }
    out
}

/// The moves of a level game as a [`Game`]: a position has finitely many options exactly when
/// every non-empty heap is at a vertex without successors (a sink), where a move only lowers the
/// heap; a move at any other vertex may set the heaps after it to any natural numbers, so such
/// a position has infinitely many options and [`Game::options`] refuses it with the stated
/// limit of [`Transfinite`] games. Positions of the first kind are Nim on the sinks' heaps.
impl Game for LevelGame {
    type Position = Vec<BigUint>;

    fn options(&self, heaps: &Vec<BigUint>, out: &mut Vec<Vec<BigUint>>) -> Result<()> {
        self.check(heaps)?;
        let moving = |v: &usize| !heaps[*v].is_zero();
        if let Some(v) = (0..heaps.len())
            .filter(moving)
            .find(|&v| !self.succ[v].is_empty())
        {
            return Err(infinitely_many_options(&format!(
                "a position with a heap at vertex {v}, which has successors,"
            )));
        }
        let count = (0..heaps.len())
            .filter(moving)
            .try_fold(0u64, |c, v| {
                u64::try_from(&heaps[v]).ok().and_then(|a| c.checked_add(a))
            })
            .filter(|&c| c <= MAX_LISTED_OPTIONS);
        if count.is_none() {
            return Err(Error::limit(
                crate::LimitKind::Options,
                format!("the position has more than {MAX_LISTED_OPTIONS} options to list"),
                "use smaller heaps",
            ));
        }
        for v in (0..heaps.len()).filter(moving) {
            let mut a = BigUint::zero();
            while a < heaps[v] {
                let mut q = heaps.clone();
                q[v] = a.clone();
                out.push(q);
                a += 1u8;
            }
        }
        Ok(())
    }
}

/// The most options [`Game::options`] lists for one position of a game of this module (a
/// heap to lower has that many): beyond it, a stated limit.
const MAX_LISTED_OPTIONS: u64 = 1 << 24;

impl Transfinite for LevelGame {
    /// One family per vertex `v` with `a_v > 0`: the moves at `v`. By the theorem, their values
    /// are `P + ω^l·y + (anything below ω^l)` with `P` the part of the value above `ω^l`
    /// (`l = L(v)`) and `y = X_l xor a_v xor a'` for `a' < a_v`: for each block `[b, b')` of
    /// [`xor_blocks`], the interval `[P + ω^l·b, P + ω^l·b')`. (Under the successor rule the
    /// options that also change higher-level successors are left out: they differ from the
    /// value at `ω^l` and all values below it are already here, so the mex is the same.)
    fn families(&self, heaps: &Vec<BigUint>) -> Result<Vec<OptionFamily<'_, Vec<BigUint>>>> {
        self.check(heaps)?;
        let x = self.level_xors(heaps);
        let mut out = Vec::new();
        for v in 0..heaps.len() {
            if heaps[v].is_zero() {
                continue;
            }
            let l = self.levels[v];
            let p = polynomial(&upper_part(&x, l));
            let w = Ordinal::omega_pow(Ordinal::from(l as u64));
            let mut values = OrdinalSet::new();
            for (lo, hi) in xor_blocks(&(&x[l] ^ &heaps[v]), &heaps[v]) {
                let at = |c: BigUint| p.add(&w.mul(&Ordinal::from(c)));
                values.insert_interval(at(lo), at(hi));
            }
            let heaps = heaps.clone();
            out.push(OptionFamily::Values {
                values,
                pick: Box::new(move |t| self.move_to(&heaps, v, t)),
            });
        }
        Ok(out)
    }
}

/// The coefficients above index `l` (those below and at `l` zeroed).
fn upper_part(x: &[BigUint], l: usize) -> Vec<BigUint> {
    x.iter()
        .enumerate()
        .map(|(e, c)| if e > l { c.clone() } else { BigUint::zero() })
        .collect()
}

/// The value of cascading nim on `rows` (each row leftmost the highest power): the nim-sum of
/// the rows' values `Σ a_i·ω^i`, i.e. coefficient-wise xor.
pub fn cascade_value(rows: &[Vec<BigUint>]) -> Ordinal {
    let values: Vec<Ordinal> = rows
        .iter()
        .map(|row| {
            let mut c: Vec<BigUint> = row.clone();
            c.reverse();
            polynomial(&c)
        })
        .collect();
    nim_sum_all(&values)
}

mod increases;
#[cfg(any(test, feature = "testing"))]
/// Brute-force solutions of the finite games obtained by replacing "any natural number" with
/// "any number below `b`" — the truncation oracle. With every heap below `b`, the level games'
/// values must be the ordinal values with ω replaced by `b` (the coefficients stay below `b`,
/// so xor stays coefficient-wise).
pub mod reference;
#[cfg(test)]
mod tests;

pub use increases::{increases_value, IncreaseRule, NimWithIncreases};
