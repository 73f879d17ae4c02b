//! A dedicated engine for Node-Kayles on graphs of at most 127 vertices: vertex sets as `u128`
//! masks, components with their values in a table of fixed size, and the pruned nimber search
//! of Beling and Rogalski.
//!
//! # Positions
//!
//! A position of Node-Kayles on a graph `G` is the subgraph induced by the vertices left: a
//! mask of `G`'s vertices. Taking `v` leaves `mask ∖ N[v]` (`N[v]` is `v` with its
//! neighbours), one word operation. A move touches one connected component, so a position is
//! the disjunctive sum of its components and its value the xor of theirs (Sprague-Grundy);
//! components are found by flood fill over the adjacency masks.
//!
//! **Paths, cycles and cliques** are answered without the table, from the degrees inside the
//! component (`m` vertices, connected): all degrees `m − 1` is the clique `K_m`, of value 1
//! (every move empties it); degrees at most 2 summing to `2(m − 1)` is a path (a connected
//! graph with `m − 1` edges is a tree, and a tree of degree at most 2 a path), of value
//! Dawson's Chess at `m` (`octal:0.137`: taking vertex `i` leaves paths of `i − 1` and
//! `m − i − 2` vertices); summing to `2m` is the cycle `C_m`, every move leaving the path of
//! `m − 3` vertices, so of value 1 if that path's value is 0 and 0 otherwise.
//!
//! **Keys.** Any other component is stored under an image of its mask under the automorphisms
//! of `G` (up to 128 of them, found by backtracking when the engine starts): the least image
//! under those that map one of its anchors (its vertices of least degree inside it, then of
//! least orbit) onto the least vertex of the anchor's orbit. An automorphism maps a set of
//! vertices onto one inducing an isomorphic subgraph, so any image is a sound key, and when
//! the whole group is found every image of a component gets the same key (the `symmetry`
//! module has the proof): a component met rotated or reflected in a generalized Petersen
//! graph, a cycle or a queens graph is searched once. When `G` is the `r × c` grid (vertex
//! `i · c + j` at row `i`, column `j`, as [`BitGraph::grid`] numbers it), a component is
//! stored instead as its cells cropped to their bounding box, the least image under the
//! symmetries of the box (four reflections of a rectangle oriented with fewer rows than
//! columns, eight for a square): two sets of cells that are translates or reflections of each
//! other induce isomorphic subgraphs of the grid (adjacency is being at distance 1, which
//! translations and the symmetries of the square lattice keep), hence have equal values.
//!
//! # The nimber search (Beling and Rogalski, "On pruning search trees of impartial games",
//! Artificial Intelligence 283, 2020)
//!
//! `value_in(C, R)` returns `g(C)` when `g(C) ∈ R` and may answer "not in `R`" otherwise. A
//! component with `m` vertices has `m` options, so `g(C) ≤ m ≤ 127`. The search keeps a set
//! `P` of candidates, starting from `{0, …, m}`, and asks each option about
//! `Q = (P ∖ {max P}) ∩ [0, max R]`: an exact answer `v` removes `v` from `P` if `v ∈ P`, and
//! `max P` otherwise; "not in `Q`" removes `max P`.
//!
//! *Claim.* After the last option `P = {x}` (it lost one element per option); if `x ≤ max R`
//! then `g(C) = x`, otherwise `g(C) > max R`. *Proof.* An element `y < x` was removed at some
//! step; had it been removed as `max P` it would exceed `x`, which was still in `P`: so `y` is
//! an option's value, and `g(C) ≥ x`. If `x ≤ max R` and an option had the value `x`: when it
//! was asked, `x ∈ P`; if `x = max P` either answer removed `x`, otherwise `x ∈ Q` and the
//! answer was exact and removed `x` — yet `x` is left. So `g(C) = x`. ∎ Hence once
//! `P ∩ R = ∅` the answer is "not in `R`" and the search stops.
//!
//! *Negative answers are kept.* If `g(C) ≤ max R`, then `g(C)` is never removed from `P` (it
//! is no option's value, and removed as `max P` it would exceed the final `x`, so
//! `x < g(C) ≤ max R` and the claim gives `g(C) = x`, absurd). So a search that stops with
//! candidates `P` shows that `C` has no value in `[0, max R] ∖ P`. The table keeps these
//! values (those below 64) for `C` when it learns no exact value; a later question `R′`
//! about `C` is asked as `R′ ∖ X` for the values `X` excluded so far, and answered "not in
//! `R′`" at once when nothing is left.
//!
//! An option that is a sum `D₁ + … + Dᵣ` of components has `g = g(D₁) ⊕ … ⊕ g(Dᵣ)`: the
//! values of all but the largest are computed, and the largest is asked about `Q ⊕ x`, the set
//! `{q ⊕ x : q ∈ Q}` for `x` the xor of the others (`g(D₁ + … + Dᵣ) ∈ Q` iff
//! `g(Dᵣ) ∈ Q ⊕ x`): the question "is `G + *k` a P-position" of Lemoine and Viennot ("Nimbers
//! are inevitable", 2012) for a set of `k` at once. Options whose components are all in the
//! table are settled before the others are asked.
//!
//! # Memory
//!
//! The table holds exact values and excluded values in buckets of one cache line (two entries
//! of a key, a tag, the value and the excluded values: the wide entries of the table the
//! dedicated engines share), reserved in full from the [`Control`]'s budget when the engine
//! starts ([`table_bytes`]); it starts small and doubles while half full, and a new entry takes
//! the slot of its key, else an empty slot of its bucket, else the slot of the component with
//! fewer vertices (the cheaper to recompute). The automorphisms take at most 33 KB
//! (128 permutations of 128 bytes, and the lists of those fixing each vertex's orbit).

use crate::control::{Control, Reservation};
use crate::error::{Error, Result};
use crate::game::families::node_kayles::{BitGraph, NodeKayles};
use crate::game::Show;
use crate::solve::search::{Settings, Solution, Stats, WinningMove};
use crate::solve::table::{self, Known, Layout, Table, BUCKET_BYTES};
use crate::solve::{Outcome, Play};
use std::time::Instant;
use symmetry::Symmetries;

/// The most vertices a graph may have for this engine (values are kept as 128-bit sets).
pub const MAX_VERTICES: usize = 127;

/// The largest table [`table_bytes`] takes: 1 GiB.
pub const MAX_TABLE_BYTES: u64 = 1 << 30;

/// The stack of the search thread (the search recurses at most twice per vertex taken, in
/// frames of a few hundred bytes).
pub const STACK_BYTES: usize = 8 << 20;

/// Positions (new table entries) between two progress reports to the control.
const PROGRESS_EVERY: u64 = 1 << 14;

/// Every value the engine represents.
const ALL: u128 = u128::MAX;

/// How components are keyed (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Geometry {
    /// By the least image of their mask under automorphisms of the graph.
    Masks,
    /// Cells of an `rows × cols` grid, cropped and under the symmetries of their box.
    Grid { cols: usize },
}

/// A graph of at most [`MAX_VERTICES`] vertices as masks.
#[derive(Clone, Debug)]
pub struct Masks {
    n: usize,
    /// `adj[v]`: the neighbours of `v`.
    adj: Vec<u128>,
    geometry: Geometry,
    /// Automorphisms of the graph (none kept for a grid, keyed by its geometry).
    syms: Symmetries,
    /// `paths[k]`: the value of a path of `k` vertices (Dawson's Chess, `octal:0.137`).
    paths: [u8; MAX_VERTICES + 1],
}

impl Masks {
    /// The masks of `g`, or `None` beyond [`MAX_VERTICES`] vertices. A graph equal to
    /// [`BitGraph::grid`] of some shape is keyed as a grid.
    pub fn new(g: &BitGraph) -> Option<Masks> {
        let n = g.len();
        if n > MAX_VERTICES {
            return None;
        }
        let adj: Vec<u128> = (0..n)
            .map(|u| g.neighbours(u).fold(0u128, |m, v| m | 1 << v))
            .collect();
        let geometry = (1..=n)
            .filter(|&r| n.is_multiple_of(r))
            .find(|&r| BitGraph::grid(r, n / r).as_ref() == Some(g))
            .map_or(Geometry::Masks, |r| Geometry::Grid { cols: n / r });
        let syms = match geometry {
            Geometry::Masks => Symmetries::of(&adj),
            Geometry::Grid { .. } => Symmetries::default(),
        };
        Some(Masks {
            n,
            adj,
            geometry,
            syms,
            paths: dawsons_chess(),
        })
    }

    /// Every vertex.
    pub fn all(&self) -> u128 {
        low(self.n)
    }

    /// The vertices left after taking `v` in `mask`.
    #[inline]
    pub fn take(&self, mask: u128, v: usize) -> u128 {
        mask & !self.adj[v] & !(1 << v)
    }

    /// The component of `mask` holding its lowest vertex.
    #[inline]
    fn component(&self, mask: u128) -> u128 {
        let mut comp = mask & mask.wrapping_neg();
        let mut frontier = comp;
        while frontier != 0 {
            let v = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = self.adj[v] & mask & !comp;
            comp |= new;
            frontier |= new;
        }
        comp
    }

    /// A component's value if it is a path, a cycle or a clique (see the module
    /// documentation), found from the degrees inside it; otherwise its key: its bits and a
    /// tag.
    #[inline]
    fn classify(&self, comp: u128) -> std::result::Result<u8, (u128, u32)> {
        let m = comp.count_ones();
        let (mut sum, mut max, mut min) = (0, 0, u32::MAX);
        let mut deg = [0u8; 128];
        let mut b = comp;
        while b != 0 {
            let v = b.trailing_zeros() as usize;
            b &= b - 1;
            let d = (self.adj[v] & comp).count_ones();
            deg[v] = d as u8;
            (sum, max, min) = (sum + d, max.max(d), min.min(d));
        }
        if min == m - 1 {
            Ok(1)
        } else if max <= 2 && sum == 2 * (m - 1) {
            Ok(self.paths[m as usize])
        } else if max <= 2 && sum == 2 * m {
            Ok(u8::from(self.paths[m as usize - 3] != 0) ^ 1)
        } else {
            Err(match self.geometry {
                Geometry::Masks => (self.syms.key(comp, &deg), 1),
                Geometry::Grid { cols } => grid_key(comp, cols),
            })
        }
    }
}

/// The generalized Petersen graph `P(n, k)`: the outer cycle `0..n`, the spokes `i – n + i`
/// and the inner edges `n + i – n + (i + k) mod n` (`None` past the graphs' vertex limit).
pub fn petersen(n: usize, k: usize) -> Option<BitGraph> {
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| [(i, (i + 1) % n), (i, n + i), (n + i, n + (i + k) % n)])
        .collect();
    BitGraph::from_edges(2 * n, &edges)
}

/// The `n × n` queens graph: cell `r · n + c` at row `r`, column `c`, two cells joined when
/// they share a row, a column or a diagonal (`None` past the graphs' vertex limit).
pub fn queens(n: usize) -> Option<BitGraph> {
    let cells = n.checked_mul(n)?;
    BitGraph::empty(cells)?;
    let mut edges = Vec::new();
    for a in 0..cells {
        for b in a + 1..cells {
            let (r, c, s, t) = (a / n, a % n, b / n, b % n);
            if r == s || c == t || r.abs_diff(s) == c.abs_diff(t) {
                edges.push((a, b));
            }
        }
    }
    BitGraph::from_edges(cells, &edges)
}

/// The values of Dawson's Chess (`octal:0.137`), Node-Kayles on paths: taking vertex `i` of a
/// path of `k` vertices leaves paths of `i − 1` and `k − i − 2` vertices (none when negative).
fn dawsons_chess() -> [u8; MAX_VERTICES + 1] {
    let mut g = [0u8; MAX_VERTICES + 1];
    for k in 1..=MAX_VERTICES {
        let mut seen = 0u128;
        for i in 0..k {
            seen |= 1 << (g[i.saturating_sub(1)] ^ g[(k - i).saturating_sub(2)]);
        }
        g[k] = (!seen).trailing_zeros() as u8;
    }
    g
}

/// The lowest `n` bits.
#[inline]
fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1 << n) - 1
    }
}

/// The key of a set of cells of a grid `cols` wide: the least image of the cells, cropped to
/// their `h × w` box, under the box's symmetries (oriented `h ≤ w`), and the tag `h · 256 + w`.
fn grid_key(comp: u128, cols: usize) -> (u128, u32) {
    let mut cells = [(0u8, 0u8); MAX_VERTICES];
    let mut k = 0;
    let (mut r0, mut c0, mut r1, mut c1) = (usize::MAX, usize::MAX, 0, 0);
    let mut b = comp;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        let (r, c) = (i / cols, i % cols);
        (r0, c0, r1, c1) = (r0.min(r), c0.min(c), r1.max(r), c1.max(c));
        cells[k] = (r as u8, c as u8);
        k += 1;
    }
    let (h, w) = (r1 + 1 - r0, c1 + 1 - c0);
    let cells = &cells[..k];
    // Each symmetry: whether it transposes, then reflects rows, then columns.
    let image = |t: bool, fr: bool, fc: bool| -> u128 {
        let (hh, ww) = if t { (w, h) } else { (h, w) };
        cells.iter().fold(0u128, |m, &(r, c)| {
            let (r, c) = (r as usize - r0, c as usize - c0);
            let (r, c) = if t { (c, r) } else { (r, c) };
            let r = if fr { hh - 1 - r } else { r };
            let c = if fc { ww - 1 - c } else { c };
            m | 1 << (r * ww + c)
        })
    };
    let mut best = u128::MAX;
    for t in [false, true] {
        let (hh, ww) = if t { (w, h) } else { (h, w) };
        if hh > ww {
            continue;
        }
        for (fr, fc) in [(false, false), (false, true), (true, false), (true, true)] {
            best = best.min(image(t, fr, fc));
        }
    }
    let (hh, ww) = (h.min(w), h.max(w));
    (best, (hh * 256 + ww) as u32)
}

/// The bytes of the table for a graph of `n` vertices and a budget of `limit` bytes: half the
/// budget, at most [`MAX_TABLE_BYTES`] and at most `2^(n + 4)` buckets, rounded down to a
/// power of two of buckets.
pub fn table_bytes(limit: u64, n: usize) -> u64 {
    let by_vertices = BUCKET_BYTES << (n + 4).min(40);
    Table::buckets(table::share(limit, MAX_TABLE_BYTES).min(by_vertices)) as u64 * BUCKET_BYTES
}

/// The error for a graph whose table does not fit the budget.
fn no_room() -> Error {
    Error::limit(
        crate::error::LimitKind::Memory,
        "the Node-Kayles engine's table needs a cache line at least",
        crate::control::LIBRARY_MEMORY_ADVICE,
    )
}

/// The engine: the graph's masks, the table and counters.
pub struct NodeKaylesEngine<'a, 'c> {
    ctl: &'a Control<'c>,
    graph: Masks,
    table: Table,
    stats: Stats,
    _reservation: Reservation,
}

/// The largest element of a non-empty set.
#[inline]
fn max_of(set: u128) -> u32 {
    127 - set.leading_zeros()
}

impl<'a, 'c> NodeKaylesEngine<'a, 'c> {
    /// An engine for `graph` with a table of at most `table` bytes, reserved from `ctl`'s
    /// budget together with the search's stack.
    pub fn new(ctl: &'a Control<'c>, graph: Masks, table: u64) -> Result<Self> {
        if table < BUCKET_BYTES {
            return Err(no_room());
        }
        let buckets = Table::buckets(table);
        let bytes = buckets as u64 * BUCKET_BYTES;
        let reservation = ctl.reserve(
            bytes + STACK_BYTES as u64,
            "the Node-Kayles engine's table and search stack",
        )?;
        Ok(NodeKaylesEngine {
            ctl,
            graph,
            table: Table::new(buckets, Layout::Wide),
            stats: Stats {
                table_bytes: bytes,
                ..Stats::default()
            },
            _reservation: reservation,
        })
    }

    /// What the engine has done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The Grundy value of the position `mask` (any set of vertices).
    pub fn value(&mut self, mut mask: u128) -> Result<u8> {
        let mut x = 0;
        while mask != 0 {
            let c = self.graph.component(mask);
            mask &= !c;
            x ^= self.value_in(c, ALL)?.ok_or_else(|| internal("a value"))?;
        }
        Ok(x)
    }

    /// `g(c)` for a component `c` if it lies in `r`, else `None` (or the value outside `r`).
    fn value_in(&mut self, c: u128, r: u128) -> Result<Option<u8>> {
        let key = match self.graph.classify(c) {
            Ok(v) => return Ok(Some(v)),
            Err(key) => key,
        };
        self.stats.lookups += 1;
        let not = match self.table.probe(key) {
            Some(Known::Value(v)) => {
                self.stats.hits += 1;
                return Ok(Some(v));
            }
            Some(Known::Not(not)) => u128::from(not),
            None => 0,
        };
        if r & !not == 0 {
            self.stats.hits += 1;
            return Ok(None);
        }
        let answer = self.search(c, r & !not)?;
        self.stats.positions += 1;
        if self.stats.positions.is_multiple_of(PROGRESS_EVERY) {
            self.ctl.check(self.stats.positions)?;
        }
        Ok(match answer {
            Ok(v) => {
                self.table.put(key, v);
                Some(v)
            }
            Err(excluded) => {
                self.table.exclude(key, excluded as u64);
                None
            }
        })
    }

    /// The pruned search of [`NodeKaylesEngine::value_in`] (see the module documentation):
    /// `Ok(g(c))`, or `Err(x)` for a set `x ⊇ r` of values `c` does not have.
    fn search(&mut self, c: u128, r: u128) -> Result<std::result::Result<u8, u128>> {
        self.ctl.tick()?;
        let m = c.count_ones() as usize;
        let mut p: u128 = low(m + 1);
        let upto_r = low(max_of(r) as usize + 1);
        // Options not settled by the table, asked after those that are.
        let mut open = [0u128; MAX_VERTICES];
        let mut n_open = 0;
        let mut vs = c;
        while vs != 0 {
            let v = vs.trailing_zeros() as usize;
            vs &= vs - 1;
            let after = self.graph.take(c, v);
            match self.known_value(after) {
                Some(x) => remove(&mut p, x),
                None => {
                    open[n_open] = after;
                    n_open += 1;
                }
            }
            if p & r == 0 {
                return Ok(Err(upto_r & !p));
            }
        }
        for &after in &open[..n_open] {
            if p & r == 0 {
                return Ok(Err(upto_r & !p));
            }
            let q = (p & !(1 << max_of(p))) & upto_r;
            let answer = if q == 0 {
                None
            } else {
                self.option_value_in(after, q)?
            };
            match answer {
                Some(v) => remove(&mut p, v),
                None => p &= !(1 << max_of(p)),
            }
        }
        if p == 0 {
            return Err(internal("a candidate"));
        }
        let x = p.trailing_zeros();
        Ok(if x <= max_of(r) {
            Ok(x as u8)
        } else {
            Err(upto_r)
        })
    }

    /// The value of the position `mask` if every component of it is in the table.
    fn known_value(&mut self, mut mask: u128) -> Option<u8> {
        let mut x = 0;
        while mask != 0 {
            let c = self.graph.component(mask);
            mask &= !c;
            let key = match self.graph.classify(c) {
                Ok(v) => {
                    x ^= v;
                    continue;
                }
                Err(key) => key,
            };
            self.stats.lookups += 1;
            x ^= self.table.get(key)?;
            self.stats.hits += 1;
        }
        Some(x)
    }

    /// `g` of the position `mask` if it lies in `q`, `None` if it does not; may answer with a
    /// value outside `q`.
    fn option_value_in(&mut self, mask: u128, q: u128) -> Result<Option<u8>> {
        let mut parts = [0u128; MAX_VERTICES];
        let mut k = 0;
        let mut largest = 0;
        let mut rest = mask;
        while rest != 0 {
            let c = self.graph.component(rest);
            rest &= !c;
            if c.count_ones() > parts[largest].count_ones() {
                largest = k;
            }
            parts[k] = c;
            k += 1;
        }
        if k == 0 {
            return Ok(Some(0));
        }
        let mut x = 0u8;
        for (i, &c) in parts[..k].iter().enumerate() {
            if i != largest {
                x ^= self.value_in(c, ALL)?.ok_or_else(|| internal("a value"))?;
            }
        }
        let want = table::xor_set(q, x);
        Ok(self.value_in(parts[largest], want)?.map(|v| v ^ x))
    }
}

/// Removes `v` from the candidates if it is one, otherwise the largest candidate.
#[inline]
fn remove(p: &mut u128, v: u8) {
    if *p >> v & 1 == 1 {
        *p &= !(1 << v);
    } else {
        *p &= !(1 << max_of(*p));
    }
}

fn internal(what: &str) -> Error {
    Error::Internal(format!("the Node-Kayles search lost {what}"))
}

/// Solves a Node-Kayles position as `grundy solve` does: with this engine under normal play on
/// graphs of at most [`MAX_VERTICES`] vertices, otherwise with the generic engine.
pub fn solve(
    family: &NodeKayles,
    g: &BitGraph,
    play: Play,
    moves: bool,
    ctl: &Control,
) -> Result<Solution> {
    let Some(masks) = Masks::new(g).filter(|_| play == Play::Normal) else {
        return crate::solve::search::solve(family, g, play, Settings::new(), moves, ctl);
    };
    let table = table_bytes(
        ctl.memory().limit().saturating_sub(STACK_BYTES as u64),
        g.len(),
    );
    table::on_search_thread("grundy-node-kayles", STACK_BYTES, || {
        solve_masks(family, g, masks, moves, table, ctl)
    })
}

/// [`solve`] with this engine on the calling thread, with a table of at most `table` bytes.
pub fn solve_masks(
    family: &NodeKayles,
    g: &BitGraph,
    masks: Masks,
    moves: bool,
    table: u64,
    ctl: &Control,
) -> Result<Solution> {
    let start = Instant::now();
    let all = masks.all();
    let mut engine = NodeKaylesEngine::new(ctl, masks, table)?;
    let v = engine.value(all)?;
    let outcome = if v == 0 { Outcome::P } else { Outcome::N };
    let mut winning_moves = Vec::new();
    if moves && v != 0 {
        // `described_moves` lists the moves by vertex, in order.
        for (vertex, (name, after, _)) in family.described_moves(g)?.into_iter().enumerate() {
            let q = engine.graph.take(all, vertex);
            if engine.value(q)? == 0 {
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

mod symmetry;

#[cfg(test)]
mod tests;
