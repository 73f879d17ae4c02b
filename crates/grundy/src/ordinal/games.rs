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
//! use grundy::ordinal::games::{FreeSet, LevelGame};
//! use num_bigint::BigUint;
//!
//! // Codeforces 1149E, sample 3: roads 1→2, 1→3, 3→2 and taxes 314 159 265.
//! let game = LevelGame::new(vec![vec![1, 2], vec![], vec![1]], FreeSet::Successors).unwrap();
//! let taxes: Vec<BigUint> = [314u32, 159, 265].map(BigUint::from).to_vec();
//! assert_eq!(game.value(&taxes).unwrap().to_string(), "w^2*314+w*265+159");
//! let m = game.winning_move(&taxes).unwrap().unwrap();
//! assert_eq!((m.vertex, m.to.clone()), (0, BigUint::from(0u8)));
//! ```

use super::nim_sum::{nim_sum_all, OrdinalSet};
use super::transfinite::{OptionFamily, TransfiniteGame};
use super::Ordinal;
use crate::error::{Error, Result};
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
    /// tests check this against the generic engine's [`analyze_sum`](super::transfinite::TransfiniteSolver::analyze_sum).)
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

impl TransfiniteGame for LevelGame {
    type Position = Vec<BigUint>;

    /// One family per vertex `v` with `a_v > 0`: the moves at `v`. By the theorem, their values
    /// are `P + ω^l·y + (anything below ω^l)` with `P` the part of the value above `ω^l`
    /// (`l = L(v)`) and `y = X_l xor a_v xor a'` for `a' < a_v`: for each block `[b, b')` of
    /// [`xor_blocks`], the interval `[P + ω^l·b, P + ω^l·b')`. (Under the successor rule the
    /// options that also change higher-level successors are left out: they differ from the
    /// value at `ω^l` and all values below it are already here, so the mex is the same.)
    fn families(&self, heaps: &Vec<BigUint>) -> Vec<OptionFamily<'_, Vec<BigUint>>> {
        if heaps.len() != self.len() {
            return Vec::new();
        }
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
        out
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

/// The rules of nim with increases (on one heap with a budget of increase tokens).
///
/// A position is `(n, t)`: a heap of `n` and `t` tokens. An *increase* spends a token and sets
/// the heap to a larger size `m > n` — or `m ≥ n` when `zero_allowed` (an increase by zero,
/// which amounts to burning a token). A *removal* takes at least one from the heap; when
/// `forced`, removals are allowed only once the tokens are spent (while tokens remain every
/// move must be an increase). Every play ends: each move lowers `(t, n)` lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IncreaseRule {
    /// Increases are the only moves while tokens remain.
    pub forced: bool,
    /// An increase may add zero.
    pub zero_allowed: bool,
}

/// The Grundy value of `(n, t)` in nim with increases. Piecewise:
///
/// * optional, increase by zero banned: `g = n` (increases are *reversible* — any increase can
///   be answered by removing the stones again — so as in Poker Nim they change nothing).
///   Induction: the options are `(m, t)`, `m < n`, of values `0..n`, and `(m, t−1)`, `m > n`, of
///   values `m > n`; the mex is `n`.
/// * optional, increase by zero allowed: `g = n − t` for `n ≥ t`, `g = ω + (t−1−n)` for `n < t`.
///   Induction on `(t, n)`: the increases reach `{g(m, t−1) : m ≥ n}`, which is every natural
///   `≥ n−t+1` (when `n ≥ t`) or every natural and `ω..ω+(t−2−n)` (when `n < t`); the removals
///   reach `g(m, t)` for `m < n`: `ω+(t−1)` down to `ω`, then `0 .. n−t−1`. The mex is the
///   formula (first `n−t` when the naturals are short of it, else the next ω-value).
/// * forced: `g = n` for `t = 0`; for `t ≥ 1` every option is `(m, t−1)` with `m > n`
///   (or `m ≥ n`), so `g(n, 1) = mex {m > n} = 0` — except `g(0, 1) = mex ℕ = ω` with zero
///   increases allowed — and for `t ≥ 2` the options all have the value `(t−2) mod 2`
///   (apart from an ω), so `g = (t−1) mod 2`.
pub fn increases_value(rule: IncreaseRule, n: &BigUint, t: u64) -> Ordinal {
    let tb = BigUint::from(t);
    match (rule.forced, rule.zero_allowed) {
        (false, false) => Ordinal::from(n.clone()),
        (false, true) => {
            if *n >= tb {
                Ordinal::from(n - &tb)
            } else {
                Ordinal::omega().add(&Ordinal::from(&tb - 1u8 - n))
            }
        }
        (true, zero) => match t {
            0 => Ordinal::from(n.clone()),
            1 if zero && n.is_zero() => Ordinal::omega(),
            _ => Ordinal::from((t - 1) % 2),
        },
    }
}

/// Nim with increases as a [`TransfiniteGame`] on positions `(n, t)`, for the engine: the
/// removals are single options, the increases one family whose values come from
/// [`increases_value`] at `t − 1` (the induction hypothesis).
#[derive(Clone, Copy, Debug)]
pub struct NimWithIncreases(pub IncreaseRule);

impl NimWithIncreases {
    /// `{ g(m, s) : m ≥ lo }` from the closed form, as points and intervals.
    fn ray_values(&self, lo: &BigUint, s: u64) -> OrdinalSet {
        let rule = self.0;
        let sb = BigUint::from(s);
        let mut set = OrdinalSet::new();
        match (rule.forced, rule.zero_allowed) {
            // g(m, s) = m, and forced play with no token left is nim.
            (false, false) | (true, _) if !rule.forced || s == 0 => {
                set.insert_interval(Ordinal::from(lo.clone()), Ordinal::omega());
            }
            (false, _) => {
                // m ≥ s: m − s, every natural from max(lo, s) − s; lo ≤ m < s: ω + (s−1−m),
                // the values ω .. ω + (s−1−lo).
                let from = if *lo > sb { lo - &sb } else { BigUint::zero() };
                set.insert_interval(Ordinal::from(from), Ordinal::omega());
                if *lo < sb {
                    let top = Ordinal::omega().add(&Ordinal::from(&sb - lo));
                    set.insert_interval(Ordinal::omega(), top);
                }
            }
            (true, zero) => {
                if s == 1 && zero && lo.is_zero() {
                    set.insert(Ordinal::omega());
                }
                set.insert(increases_value(rule, &(lo + 1u8), s));
            }
        }
        set
    }

    /// `{ g(m, t) : m < n }` (the removals) from the closed form, as points and intervals.
    fn removal_values(&self, n: &BigUint, t: u64) -> OrdinalSet {
        let rule = self.0;
        let tb = BigUint::from(t);
        let mut set = OrdinalSet::new();
        if rule.zero_allowed && !rule.forced {
            // m < min(n, t): ω + (t−1−m), the values ω + (t − min(n, t)) .. ω + (t−1);
            // t ≤ m < n: m − t, the naturals below n − t.
            let k = n.min(&tb).clone();
            set.insert_interval(
                Ordinal::omega().add(&Ordinal::from(&tb - &k)),
                Ordinal::omega().add(&Ordinal::from(tb.clone())),
            );
            if *n > tb {
                set.insert_below(Ordinal::from(n - &tb));
            }
        } else {
            // g(m, t) = m when removals are allowed (t = 0 under the forced rule).
            set.insert_below(Ordinal::from(n.clone()));
        }
        set
    }

    /// An `m` with `lo ≤ m < hi` (no upper bound for `None`) and `g(m, s) = v`, searched among
    /// the few candidates the closed form allows: the ends of the range, `v` and `v + s` for a
    /// natural `v`, `s − 1 − k` for `v = ω + k`.
    fn preimage(&self, lo: &BigUint, hi: Option<&BigUint>, s: u64, v: &Ordinal) -> Option<BigUint> {
        let sb = BigUint::from(s);
        let mut cands: Vec<BigUint> = (0u8..3).map(|i| lo + i).collect();
        if let Some(k) = v.as_natural() {
            cands.push(&k + &sb);
            cands.push(k);
        } else if let Some(k) = v.left_sub(&Ordinal::omega()).and_then(|d| d.as_natural()) {
            if k < sb {
                cands.push(&sb - 1u8 - k);
            }
        }
        cands
            .into_iter()
            .find(|m| m >= lo && hi.is_none_or(|h| m < h) && increases_value(self.0, m, s) == *v)
    }

    /// A winning move in the sum of heaps `(n, t)`: the heap's index and its new `(n, t)`, or
    /// `None` if the sum's value is 0 (see [`TransfiniteSolver::analyze_sum`](super::transfinite::TransfiniteSolver)).
    pub fn winning_move(
        &self,
        heaps: &[(BigUint, u64)],
    ) -> Result<Option<(usize, (BigUint, u64))>> {
        let mut engine = super::transfinite::TransfiniteSolver::new(self, 100_000);
        let a = engine.analyze_sum(heaps)?;
        Ok(a.winning_move.map(|m| (m.component, m.to)))
    }
}

/// Heaps up to this size list their removals as single options for the engine to evaluate;
/// larger heaps give them as one family from the closed form.
const SMALL_HEAP: u64 = 16;

impl TransfiniteGame for NimWithIncreases {
    type Position = (BigUint, u64);

    fn families(&self, p: &(BigUint, u64)) -> Vec<OptionFamily<'_, (BigUint, u64)>> {
        let (n, t) = (p.0.clone(), p.1);
        let mut out = Vec::new();
        if !self.0.forced || t == 0 {
            if n <= BigUint::from(SMALL_HEAP) {
                let mut m = BigUint::zero();
                while m < n {
                    out.push(OptionFamily::One((m.clone(), t)));
                    m += 1u8;
                }
            } else {
                let values = self.removal_values(&n, t);
                let zero = BigUint::zero();
                out.push(OptionFamily::Values {
                    values,
                    pick: Box::new(move |v| self.preimage(&zero, Some(&n), t, v).map(|m| (m, t))),
                });
            }
        }
        if t > 0 {
            let lo = if self.0.zero_allowed {
                p.0.clone()
            } else {
                &p.0 + 1u8
            };
            let s = t - 1;
            out.push(OptionFamily::Values {
                values: self.ray_values(&lo, s),
                pick: Box::new(move |v| self.preimage(&lo, None, s, v).map(|m| (m, s))),
            });
        }
        out
    }
}

#[cfg(any(test, feature = "testing"))]
/// Brute-force solutions of the finite games obtained by replacing "any natural number" with
/// "any number below `b`" — the truncation oracle. With every heap below `b`, the level games'
/// values must be the ordinal values with ω replaced by `b` (the coefficients stay below `b`,
/// so xor stays coefficient-wise).
pub mod reference {
    use super::super::transfinite::reference::grundy;
    use super::{FreeSet, IncreaseRule};
    use std::collections::HashMap;

    /// The sets of vertices a move at `v` may set freely: every path's vertices (path rule) or
    /// the successors (successor rule).
    fn free_sets(succ: &[Vec<usize>], rule: FreeSet, v: usize) -> Vec<Vec<usize>> {
        match rule {
            FreeSet::Successors => vec![succ[v].clone()],
            FreeSet::Path => {
                let mut out = vec![vec![]];
                let mut stack: Vec<Vec<usize>> = vec![vec![v]];
                while let Some(path) = stack.pop() {
                    let last = *path.last().unwrap_or(&v);
                    for &u in &succ[last] {
                        let mut p = path.clone();
                        p.push(u);
                        out.push(p[1..].to_vec());
                        stack.push(p);
                    }
                }
                out
            }
        }
    }

    /// The Grundy value of a level game's position in the truncated game (heaps `< b`), by a
    /// plain mex search over every option.
    pub fn level_game_truncated(succ: &[Vec<usize>], rule: FreeSet, heaps: &[u64], b: u64) -> u64 {
        let options = |h: &Vec<u64>| -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for v in 0..h.len() {
                for free in free_sets(succ, rule, v) {
                    for a in 0..h[v] {
                        // Every assignment of values below b to the free vertices.
                        let count = b.pow(free.len() as u32);
                        for code in 0..count {
                            let mut q = h.clone();
                            q[v] = a;
                            let mut c = code;
                            for &u in &free {
                                q[u] = c % b;
                                c /= b;
                            }
                            out.push(q);
                        }
                    }
                }
            }
            out
        };
        grundy(&heaps.to_vec(), &options, &mut HashMap::new())
    }

    /// The size bound of an increase that leaves `s` tokens, in the truncation of
    /// [`increases_truncated`] (`top` is the largest token count of the position).
    ///
    /// The bound must not cut off a kind of move that the infinite game always has, or the
    /// values near the bound change and the change travels down through the tokens:
    /// * optional increases: below `b + s`. With zero increases allowed, `g(m, s) = m − s`, so
    ///   the sizes `m < b + s` give exactly the naturals below `b` (a flat bound `b` would
    ///   leave the values `b − s ..` missing and lower the mex).
    /// * forced increases by at least one: below `b + top − s`, so that a heap at the bound
    ///   for `s` tokens still has a larger size under the bound for `s − 1` (a stuck heap
    ///   would have value 0 instead of `(s−1) mod 2`).
    /// * forced increases that may add zero: below `b` (a heap can always stay).
    pub fn increase_bound(rule: IncreaseRule, b: u64, top: u64, s: u64) -> u64 {
        match (rule.forced, rule.zero_allowed) {
            (false, _) => b + s,
            (true, false) => b + top - s,
            (true, true) => b,
        }
    }

    /// The Grundy value of a sum of heaps `(n, t)` (all `n < b`) of nim with increases,
    /// truncated: an increase leaving `s` tokens goes to a size below
    /// [`increase_bound`]`(rule, b, top, s)`. It must be the ordinal value with ω replaced by
    /// `b`.
    pub fn increases_truncated(rule: IncreaseRule, heaps: &[(u64, u64)], b: u64) -> u64 {
        let top = heaps.iter().map(|h| h.1).max().unwrap_or(0);
        let options = |h: &Vec<(u64, u64)>| -> Vec<Vec<(u64, u64)>> {
            let mut out = Vec::new();
            for (i, &(n, t)) in h.iter().enumerate() {
                if !rule.forced || t == 0 {
                    for m in 0..n {
                        let mut q = h.clone();
                        q[i] = (m, t);
                        out.push(q);
                    }
                }
                if t > 0 {
                    let lo = if rule.zero_allowed { n } else { n + 1 };
                    for m in lo..increase_bound(rule, b, top, t - 1) {
                        let mut q = h.clone();
                        q[i] = (m, t - 1);
                        out.push(q);
                    }
                }
            }
            out
        };
        grundy(&heaps.to_vec(), &options, &mut HashMap::new())
    }
}

#[cfg(test)]
mod tests {
    use super::super::transfinite::TransfiniteSolver;
    use super::*;
    use crate::notation::ordinal::parse_ordinal;
    use proptest::prelude::*;

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| BigUint::from(x)).collect()
    }

    /// The ordinal with ω replaced by `b` (all coefficients below `b`, exponents natural).
    fn at(x: &Ordinal, b: u64) -> u64 {
        x.terms()
            .iter()
            .map(|t| {
                let e = u32::try_from(t.exponent.as_natural().unwrap()).unwrap();
                u64::try_from(t.coefficient.clone()).unwrap() * b.pow(e)
            })
            .sum()
    }

    #[test]
    fn cascade_examples() {
        let v = cascade_value(&[big(&[1, 0]), big(&[0, 3])]);
        assert_eq!(v.to_string(), "w+3");
        let v = cascade_value(&[big(&[4, 0, 9, 11]), big(&[6, 0, 5, 0])]);
        assert_eq!(v, parse_ordinal("w^3*2+w*12+11").unwrap());
        assert!(cascade_value(&[big(&[5, 7]), big(&[5, 7])]).is_zero());
    }

    #[test]
    fn grid_levels_are_anti_diagonals() {
        let g = LevelGame::grid(3, 4).unwrap();
        for r in 0..3 {
            for c in 0..4 {
                assert_eq!(g.levels()[r * 4 + c], (2 - r) + (3 - c));
            }
        }
    }

    #[test]
    fn successor_levels_are_mex_levels() {
        // 0 → 1, 0 → 2, 1 → 2: L(2) = 0, L(1) = 1, L(0) = mex{1, 0} = 2; 3 → 0: mex{2} = 0.
        let g = LevelGame::new(
            vec![vec![1, 2], vec![2], vec![], vec![0]],
            FreeSet::Successors,
        )
        .unwrap();
        assert_eq!(g.levels(), &[2, 1, 0, 0]);
        let p = LevelGame::new(vec![vec![1, 2], vec![2], vec![], vec![0]], FreeSet::Path).unwrap();
        assert_eq!(p.levels(), &[2, 1, 0, 3]);
    }

    #[test]
    fn cycles_and_bad_arcs_are_errors() {
        assert!(LevelGame::new(vec![vec![1], vec![0]], FreeSet::Path).is_err());
        assert!(LevelGame::new(vec![vec![0]], FreeSet::Path).is_err());
        assert!(LevelGame::new(vec![vec![5]], FreeSet::Path).is_err());
    }

    #[test]
    fn xor_blocks_are_the_xor_image() {
        for y in 0u64..20 {
            for a in 0u64..20 {
                let mut got: Vec<u64> = xor_blocks(&y.into(), &a.into())
                    .iter()
                    .flat_map(|(lo, hi)| {
                        u64::try_from(lo.clone()).unwrap()..u64::try_from(hi.clone()).unwrap()
                    })
                    .collect();
                got.sort_unstable();
                let mut want: Vec<u64> = (0..a).map(|x| x ^ y).collect();
                want.sort_unstable();
                assert_eq!(got, want);
            }
        }
    }

    /// A random DAG on `n` vertices (arcs from lower to higher index).
    fn arb_dag(n: usize) -> impl Strategy<Value = Vec<Vec<usize>>> {
        proptest::collection::vec(proptest::bool::weighted(0.4), n * n).prop_map(move |bits| {
            (0..n)
                .map(|v| (v + 1..n).filter(|&u| bits[v * n + u]).collect())
                .collect()
        })
    }

    fn engine_agrees(game: &LevelGame, heaps: &[BigUint]) -> Ordinal {
        let v = game.value(heaps).unwrap();
        match game.winning_move(heaps).unwrap() {
            None => assert!(v.is_zero()),
            Some(m) => {
                let mut after = heaps.to_vec();
                after[m.vertex] = m.to.clone();
                assert!(m.to < m.from);
                for (u, x) in &m.set {
                    after[*u] = x.clone();
                    // Only vertices the rule lets a move at m.vertex change.
                    match game.rule() {
                        FreeSet::Successors => assert!(game.successors(m.vertex).contains(u)),
                        FreeSet::Path => assert!(game.levels()[*u] < game.levels()[m.vertex]),
                    }
                }
                assert!(game.value(&after).unwrap().is_zero());
            }
        }
        let mut e = TransfiniteSolver::new(game, 1000);
        assert_eq!(e.value(&heaps.to_vec()).unwrap(), v);
        let a = e.analyze_sum(&[heaps.to_vec()]).unwrap();
        match a.winning_move {
            None => assert!(v.is_zero()),
            Some(m) => {
                assert!(
                    game.value(&m.to).unwrap().is_zero(),
                    "winning move to {:?}",
                    m.to
                );
            }
        }
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn cascade_matches_truncated_game(rows in proptest::collection::vec(
            proptest::collection::vec(0u64..4, 1..3), 1..3)) {
            let lens: Vec<usize> = rows.iter().map(Vec::len).collect();
            prop_assume!(lens.iter().sum::<usize>() <= 4);
            let game = LevelGame::cascade(&lens).unwrap();
            let heaps: Vec<u64> = rows.iter().flatten().copied().collect();
            let v = engine_agrees(&game, &big(&heaps));
            let rows_big: Vec<Vec<BigUint>> = rows.iter().map(|r| big(r)).collect();
            prop_assert_eq!(&cascade_value(&rows_big), &v);
            let b = 4;
            prop_assert_eq!(reference::level_game_truncated(&game.succ, FreeSet::Path, &heaps, b), at(&v, b));
        }

        #[test]
        fn matrix_game_matches_truncated_game(rows in 1usize..3, cols in 1usize..3,
                                              cells in proptest::collection::vec(0u64..4, 4)) {
            let game = LevelGame::grid(rows, cols).unwrap();
            let heaps = &cells[..rows * cols];
            let v = engine_agrees(&game, &big(heaps));
            prop_assert_eq!(reference::level_game_truncated(&game.succ, FreeSet::Path, heaps, 4), at(&v, 4));
        }

        #[test]
        fn dag_path_game_matches_truncated_game(succ in arb_dag(4), heaps in proptest::collection::vec(0u64..3, 4)) {
            let game = LevelGame::new(succ.clone(), FreeSet::Path).unwrap();
            let v = engine_agrees(&game, &big(&heaps));
            prop_assert_eq!(reference::level_game_truncated(&succ, FreeSet::Path, &heaps, 4), at(&v, 4));
        }

        #[test]
        fn election_game_matches_truncated_game(succ in arb_dag(4), heaps in proptest::collection::vec(0u64..3, 4)) {
            let game = LevelGame::new(succ.clone(), FreeSet::Successors).unwrap();
            let v = engine_agrees(&game, &big(&heaps));
            prop_assert_eq!(reference::level_game_truncated(&succ, FreeSet::Successors, &heaps, 4), at(&v, 4));
        }

        #[test]
        fn increases_match_truncated_game(forced: bool, zero_allowed: bool,
                                          heaps in proptest::collection::vec((0u64..5, 0u64..4), 1..3)) {
            let rule = IncreaseRule { forced, zero_allowed };
            let b = 16;
            let values: Vec<Ordinal> = heaps
                .iter()
                .map(|&(n, t)| increases_value(rule, &n.into(), t))
                .collect();
            let sum = nim_sum_all(&values);
            prop_assert_eq!(reference::increases_truncated(rule, &heaps, b), at(&sum, b));
            let game = NimWithIncreases(rule);
            let mut e = TransfiniteSolver::new(&game, 10_000);
            let pos: Vec<(BigUint, u64)> = heaps.iter().map(|&(n, t)| (n.into(), t)).collect();
            let a = e.analyze_sum(&pos).unwrap();
            prop_assert_eq!(&a.values, &values);
            if let Some(m) = a.winning_move {
                let mut after = values.clone();
                after[m.component] = increases_value(rule, &m.to.0, m.to.1);
                prop_assert!(nim_sum_all(&after).is_zero());
            } else {
                prop_assert!(sum.is_zero());
            }
        }
    }

    /// The sample tests of Codeforces 1451F: Ashish (the first player) wins iff the value is
    /// not 0.
    #[test]
    fn codeforces_1451f_samples() {
        let cases: [(&[&[u64]], bool); 4] = [
            (&[&[0]], false),
            (&[&[0, 0, 5]], true),
            (&[&[0, 1], &[1, 0]], false),
            (&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]], true),
        ];
        for (rows, ashish) in cases {
            let g = LevelGame::grid(rows.len(), rows[0].len()).unwrap();
            let heaps: Vec<BigUint> = rows.iter().flat_map(|r| big(r)).collect();
            assert_eq!(!g.value(&heaps).unwrap().is_zero(), ashish, "{rows:?}");
        }
    }

    /// The sample tests of Codeforces 1149E, including the published winning moves (which our
    /// move reproduces on samples 1 and 3).
    #[test]
    fn codeforces_1149e_samples() {
        // (taxes, roads 1-based, published answer: None for LOSE, else the taxes after the move)
        type Case<'a> = (&'a [u64], &'a [(usize, usize)], Option<&'a [u64]>);
        let cases: [Case; 4] = [
            (&[2, 1, 1, 5], &[(1, 2), (3, 4)], Some(&[1, 5, 1, 5])),
            (&[1, 5, 1, 5], &[(1, 2), (3, 4)], None),
            (
                &[314, 159, 265],
                &[(1, 2), (1, 3), (3, 2)],
                Some(&[0, 0, 0]),
            ),
            (&[2, 2, 5, 5, 6, 6], &[(1, 3), (2, 4), (3, 5), (4, 6)], None),
        ];
        for (h, roads, answer) in cases {
            let mut succ = vec![Vec::new(); h.len()];
            for &(a, b) in roads {
                succ[a - 1].push(b - 1);
            }
            let g = LevelGame::new(succ, FreeSet::Successors).unwrap();
            let heaps = big(h);
            let mv = g.winning_move(&heaps).unwrap();
            match answer {
                None => {
                    assert!(g.value(&heaps).unwrap().is_zero());
                    assert!(mv.is_none());
                }
                Some(after) => {
                    let m = mv.unwrap();
                    let mut ours = heaps.clone();
                    ours[m.vertex] = m.to;
                    for (u, x) in m.set {
                        ours[u] = x;
                    }
                    assert_eq!(ours, big(after));
                }
            }
        }
    }

    /// Every 2×3 and 3×2 matrix of bits against the truncated game with b = 2.
    #[test]
    fn small_matrices_exhaustively() {
        for (r, c) in [(2, 3), (3, 2)] {
            let g = LevelGame::grid(r, c).unwrap();
            for code in 0u64..64 {
                let heaps: Vec<u64> = (0..6).map(|i| (code >> i) & 1).collect();
                let v = g.value(&big(&heaps)).unwrap();
                assert_eq!(
                    reference::level_game_truncated(&g.succ, FreeSet::Path, &heaps, 2),
                    at(&v, 2),
                    "{r}x{c} {heaps:?}"
                );
            }
        }
    }

    #[test]
    fn increases_engine_on_large_heaps_uses_the_removal_family() {
        for forced in [false, true] {
            for zero_allowed in [false, true] {
                let rule = IncreaseRule {
                    forced,
                    zero_allowed,
                };
                let game = NimWithIncreases(rule);
                let mut e = TransfiniteSolver::new(&game, 100_000);
                for n in 0u64..40 {
                    for t in 0u64..5 {
                        let p = (BigUint::from(n), t);
                        assert_eq!(e.value(&p).unwrap(), increases_value(rule, &p.0, t));
                        let heaps = [p.clone(), (BigUint::from(3u8), 1)];
                        let values: Vec<Ordinal> = heaps
                            .iter()
                            .map(|h| increases_value(rule, &h.0, h.1))
                            .collect();
                        match game.winning_move(&heaps).unwrap() {
                            None => assert!(nim_sum_all(&values).is_zero()),
                            Some((i, to)) => {
                                let mut after = values.clone();
                                after[i] = increases_value(rule, &to.0, to.1);
                                assert!(nim_sum_all(&after).is_zero(), "{rule:?} {heaps:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn increases_piecewise_values() {
        let r = IncreaseRule {
            forced: false,
            zero_allowed: true,
        };
        let g = |n: u64, t: u64| increases_value(r, &n.into(), t).to_string();
        assert_eq!(g(0, 1), "w");
        assert_eq!(g(1, 1), "0");
        assert_eq!(g(5, 1), "4");
        assert_eq!(g(0, 3), "w+2");
        assert_eq!(g(2, 3), "w");
        assert_eq!(g(3, 3), "0");
        let f = IncreaseRule {
            forced: true,
            zero_allowed: true,
        };
        assert_eq!(increases_value(f, &0u64.into(), 1).to_string(), "w");
        assert_eq!(increases_value(f, &7u64.into(), 1).to_string(), "0");
        assert_eq!(increases_value(f, &7u64.into(), 2).to_string(), "1");
    }

    /// The note about mex of Codeforces blog entry 85984, realised as cascading-nim
    /// positions and evaluated by the generic engine (a mex over the option families, not the
    /// level formula): from `[1, 1]` the options are `[0, x]` (every natural) and `[1, 0]` (ω),
    /// so `mex(ℕ ∪ {ω}) = ω + 1`; from `[1, 0, 0]` they are `[0, a, b]`, every `ω·a + b`, so the
    /// mex is `ω^2`.
    #[test]
    fn seed_note_about_mex() {
        let pair = LevelGame::cascade(&[2]).unwrap();
        let mut e = TransfiniteSolver::new(&pair, 100);
        assert_eq!(e.value(&big(&[1, 0])).unwrap(), Ordinal::omega());
        assert_eq!(e.value(&big(&[1, 1])).unwrap().to_string(), "w+1");
        let triple = LevelGame::cascade(&[3]).unwrap();
        let mut e = TransfiniteSolver::new(&triple, 100);
        assert_eq!(e.value(&big(&[1, 0, 0])).unwrap().to_string(), "w^2");
        // The same two sets given directly to the mex.
        let mut s = OrdinalSet::new();
        s.insert_below(Ordinal::omega());
        s.insert(Ordinal::omega());
        assert_eq!(s.mex().to_string(), "w+1");
        let mut s = OrdinalSet::new();
        for a in 0u64..50 {
            let w_a = Ordinal::omega().mul(&Ordinal::from(a));
            s.insert_interval(w_a.clone(), w_a.add(&Ordinal::omega()));
        }
        // Fifty blocks ω·a + ℕ are not all of them: the mex is ω·50, not yet ω^2.
        assert_eq!(s.mex().to_string(), "w*50");
    }

    /// The motivating problem of Codeforces blog entry 85984: a matrix, a move lowers one entry and
    /// sets any entries to its right (same row) to anything. Rows have the same length, so
    /// column `j` (from the right, 0-based) is the coefficient of `ω^j` and the first player
    /// wins iff some column xors to a non-zero number. Checked exhaustively on 2×2 matrices of
    /// entries below 4 against the truncated game whose moves set *every* entry to the right
    /// (an independent encoding of "any items to the right": leaving an entry as it is, is
    /// setting it to its own value).
    #[test]
    fn seed_motivating_problem_columns() {
        let b = 4u64;
        for code in 0u64..b.pow(4) {
            let m: Vec<u64> = (0..4).map(|i| (code / b.pow(i)) % b).collect();
            let rows = vec![big(&m[0..2]), big(&m[2..4])];
            let value = cascade_value(&rows);
            let columns_nonzero = (m[0] ^ m[2]) != 0 || (m[1] ^ m[3]) != 0;
            assert_eq!(!value.is_zero(), columns_nonzero, "{m:?}");
            let options = |h: &Vec<u64>| -> Vec<Vec<u64>> {
                let mut out = Vec::new();
                for r in 0..2 {
                    for c in 0..2 {
                        let i = 2 * r + c;
                        for a in 0..h[i] {
                            // Entries right of (r, c): none for c = 1, one for c = 0.
                            let right = if c == 0 { b } else { 1 };
                            for x in 0..right {
                                let mut q = h.clone();
                                q[i] = a;
                                if c == 0 {
                                    q[i + 1] = x;
                                }
                                out.push(q);
                            }
                        }
                    }
                }
                out
            };
            let truncated = crate::ordinal::transfinite::reference::grundy(
                &m,
                &options,
                &mut std::collections::HashMap::new(),
            );
            assert_eq!(truncated, at(&value, b), "{m:?}");
        }
    }

    /// Every single heap `(n, t)` with `n < 8`, `t < 5` and every pair of heaps with `n < 5`,
    /// `t < 3`, under each of the four rules, against the truncated game at two different
    /// bounds: the brute-force value must be the closed form with ω replaced by the bound.
    /// (The bounds are powers of 2, so that xor stays coefficient-wise: with ω ↦ 17,
    /// `ω ⊕ (ω+1) = 1` would become `17 xor 18 = 3`.)
    #[test]
    fn increases_exhaustively_against_two_truncations() {
        let mut singles = Vec::new();
        for n in 0u64..8 {
            for t in 0u64..5 {
                singles.push(vec![(n, t)]);
            }
        }
        let mut pairs = Vec::new();
        for n1 in 0u64..5 {
            for t1 in 0u64..3 {
                for n2 in 0u64..5 {
                    for t2 in 0u64..3 {
                        pairs.push(vec![(n1, t1), (n2, t2)]);
                    }
                }
            }
        }
        for forced in [false, true] {
            for zero_allowed in [false, true] {
                let rule = IncreaseRule {
                    forced,
                    zero_allowed,
                };
                for heaps in singles.iter().chain(&pairs) {
                    let values: Vec<Ordinal> = heaps
                        .iter()
                        .map(|&(n, t)| increases_value(rule, &n.into(), t))
                        .collect();
                    let sum = nim_sum_all(&values);
                    for b in [16u64, 32] {
                        assert_eq!(
                            reference::increases_truncated(rule, heaps, b),
                            at(&sum, b),
                            "{rule:?} {heaps:?} b = {b}"
                        );
                    }
                }
            }
        }
    }

    /// The lemma behind the name "nim with increases" (cp-algorithms, Sprague-Grundy: adding
    /// stones under *any* rule that keeps the game acyclic changes nothing, since an increase
    /// can be undone): a heap of `n` whose increases follow a random acyclic rule — from
    /// `(n, s)` an increase goes to `(m, s')`, `m > n`, for each arc `s → s'` of a random DAG
    /// of states — has value `n`, the value of the optional-increase rule.
    #[test]
    fn increases_lemma_any_acyclic_rule() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(85984);
        let b = 10u64;
        for _ in 0..20 {
            let k = 5usize;
            let arcs: Vec<Vec<usize>> = (0..k)
                .map(|s| (s + 1..k).filter(|_| rng.gen_bool(0.5)).collect())
                .collect();
            let options = |p: &(u64, usize)| -> Vec<(u64, usize)> {
                let (n, s) = *p;
                let mut out: Vec<(u64, usize)> = (0..n).map(|m| (m, s)).collect();
                for &s2 in &arcs[s] {
                    out.extend((n + 1..b).map(|m| (m, s2)));
                }
                out
            };
            let mut memo = std::collections::HashMap::new();
            let rule = IncreaseRule {
                forced: false,
                zero_allowed: false,
            };
            for n in 0..b {
                for s in 0..k {
                    let g = crate::ordinal::transfinite::reference::grundy(
                        &(n, s),
                        &options,
                        &mut memo,
                    );
                    assert_eq!(g, n, "{arcs:?} ({n}, {s})");
                    assert_eq!(increases_value(rule, &n.into(), s as u64), Ordinal::from(g));
                }
            }
        }
    }
}
