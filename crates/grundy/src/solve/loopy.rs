//! The generalized Sprague-Grundy function `γ` of a finite game graph with cycles (Smith 1966;
//! Fraenkel and Yesha 1986), by stage-wise labelling with counters.
//!
//! **Definition.** `γ` maps each vertex to a natural number or to `∞(K)`, where `K` is the set of
//! finite values among the vertex's options. With `c` a *counter* (a well-ordering of the
//! vertices of finite value) and `mex F(u)` the least natural number not among the finite
//! values of `u`'s options, `γ` is characterised by:
//!
//! * (A) if `γ(u) = a` is finite then `a = mex F(u)`;
//! * (B) if `γ(u) = a` is finite and `v` is an option of `u` with `γ(v) > a` (including `∞`),
//!   then `v` has an option `w` with `γ(w) = a` and `c(w) < c(u)` (a move up is *reversible*,
//!   and reversing it brings the game closer to the end);
//! * (C) if `γ(u) = ∞` then `u` has an option `v` with `γ(v) = ∞(K)` and `mex F(u) ∉ K`.
//!
//! **Use.** A vertex is P iff `γ = 0`; N iff `γ` is finite and positive, or `γ = ∞(K)` with
//! `0 ∈ K`; otherwise a draw. Sums behave like Nim: see [`super::sum`].
//!
//! **Algorithm** (stage `i = 0, 1, 2, …`, while unlabelled vertices remain). A vertex `u`
//! still unlabelled may get the value `i` once (1) no option of `u` has the value `i` and
//! (2) every option of `u` that has no finite value yet is *reversible*: has an option of value
//! `i`. Keep for each unlabelled `u` a counter `cnt(u)` of its arcs to vertices without finite
//! value that are not yet reversible; when a vertex gets value `i`, each predecessor `w` gains
//! an option of value `i` (so `w` may no longer get `i`, and, if `w` has no finite value, it
//! becomes reversible, decrementing `cnt` of each of its unlabelled predecessors). Vertices
//! whose counter reaches 0 and that have no option of value `i` are labelled `i`, in order
//! (their labelling order is the counter `c` of (B)). At the end of the stage, an unlabelled
//! vertex with no option of value `i` gets `∞`: it has options of every value below `i` (it
//! survived the earlier stages) but cannot take the value `i`. Each stage costs `O(V + E)` over
//! the vertices still unlabelled, and the number of stages is at most the greatest finite value
//! plus 2, so the worst case is `O(V·E)` and random graphs take a few stages.

use super::Outcome;
use crate::control::Control;
use crate::error::Result;
use crate::game::graph::{Graph, VertexId};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use std::fmt;

/// A value of the generalized Sprague-Grundy function: `n`, or `∞(K)` with `K` the set of
/// finite values among the options (ascending, without repetition).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gamma {
    /// A natural number.
    Finite(u64),
    /// `∞(K)`.
    Infinite(Vec<u64>),
}

/// One vertex of a solved game graph as a document: its outcome (`P`, `N`, or `D` for a draw),
/// its remoteness (`null` for a draw) and, under normal play, its generalized Sprague-Grundy
/// value: a number in `value`, or `∞(K)` as `value: null` with `K` in `infinite_options`;
/// both `null` under misère play.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexDocument {
    /// The vertex's name in the graph file.
    pub name: String,
    /// `P`, `N` or `D`.
    pub outcome: Outcome,
    /// The number of moves to the end with perfect play; `null` for a draw.
    pub remoteness: Option<u64>,
    /// The finite generalized Sprague-Grundy value; `null` when it is infinite or under misère
    /// play.
    pub value: Option<u64>,
    /// For an infinite value `∞(K)`: the set `K` of finite values among the options,
    /// ascending; `null` when the value is finite or under misère play.
    pub infinite_options: Option<Vec<u64>>,
}

impl VertexDocument {
    /// The document of vertex `name`, of outcome `outcome` and remoteness `remoteness`, with
    /// its value `value` under normal play (`None` under misère play).
    pub fn new(
        name: impl Into<String>,
        outcome: Outcome,
        remoteness: Option<u64>,
        value: Option<&Gamma>,
    ) -> VertexDocument {
        let (value, infinite_options) = match value {
            Some(Gamma::Finite(a)) => (Some(*a), None),
            Some(Gamma::Infinite(k)) => (None, Some(k.clone())),
            None => (None, None),
        };
        VertexDocument {
            name: name.into(),
            outcome,
            remoteness,
            value,
            infinite_options,
        }
    }
}

answer_document! {
    "graph";
    /// The answer to "who wins from each vertex of this game graph?" as a document: what `grundy
    /// graph solve --json` writes, vertex by vertex in the graph's order (JSON Schema:
    /// `docs/schemas/graph.json`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct GraphDocument {
        /// Every vertex, in the graph's order.
        pub vertices: Vec<VertexDocument>,
    }
}

impl Gamma {
    /// The outcome: P iff `0`; N iff finite positive or `∞(K)` with `0 ∈ K`; a draw otherwise.
    pub fn outcome(&self) -> Outcome {
        match self {
            Gamma::Finite(0) => Outcome::P,
            Gamma::Finite(_) => Outcome::N,
            Gamma::Infinite(k) if k.first() == Some(&0) => Outcome::N,
            Gamma::Infinite(_) => Outcome::D,
        }
    }

    /// The finite value, if any.
    pub fn finite(&self) -> Option<u64> {
        match self {
            Gamma::Finite(a) => Some(*a),
            Gamma::Infinite(_) => None,
        }
    }
}

impl fmt::Display for Gamma {
    /// `3`, `inf{}`, `inf{1,3}`: the notation of the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gamma::Finite(a) => write!(f, "{a}"),
            Gamma::Infinite(k) => {
                f.write_str("inf{")?;
                for (i, x) in k.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Marks an open (unlabelled) vertex in the solver's state word: the top bit
/// [`VertexId::FLAG`]; the other bits then count the vertex's arcs to vertices without a finite
/// value. Out-degrees are at most [`VertexId::MAX_ARCS`], below the top bit, so the count fits.
fn open_bit<I: VertexId>() -> I {
    I::FLAG
}
/// Label of a vertex of value `∞`: the flag bit minus one. Finite values are below it: a vertex
/// of value `a` has options of the `a` values below, so `a < |V| ≤` [`VertexId::MAX_VERTICES`]
/// `=` flag `- 2`.
fn infinite<I: VertexId>() -> I {
    I::FLAG - I::one()
}
/// Label of an open vertex in the reference sweeps.
#[cfg(any(test, feature = "testing"))]
const OPEN: u32 = u32::MAX;

/// The `γ` values of every vertex of a graph with ids of type `I` (labels in words of `I`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyValues<I: VertexId = u32> {
    label: Vec<I>,
}

impl<I: VertexId> LoopyValues<I> {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// True for the empty graph.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The finite value of `v`, or `None` if `γ(v) = ∞(…)`.
    #[inline]
    pub fn finite(&self, v: I) -> Option<I> {
        let l = self.label[v.index()];
        (l < infinite::<I>()).then_some(l)
    }

    /// The full value `γ(v)`; for an infinite one, `K` is gathered from `v`'s options.
    pub fn value(&self, graph: &Graph<I>, v: I) -> Gamma {
        match self.finite(v) {
            Some(a) => Gamma::Finite(a.to_u64_lossless()),
            None => {
                let mut k: Vec<u64> = graph
                    .options(v)
                    .iter()
                    .filter_map(|&w| self.finite(w).map(I::to_u64_lossless))
                    .collect();
                k.sort_unstable();
                k.dedup();
                Gamma::Infinite(k)
            }
        }
    }

    /// The outcome of `v` (normal play), from its value.
    pub fn outcome(&self, graph: &Graph<I>, v: I) -> Outcome {
        let zero = Some(I::zero());
        match self.finite(v) {
            Some(a) if a == I::zero() => Outcome::P,
            Some(_) => Outcome::N,
            None if graph.options(v).iter().any(|&w| self.finite(w) == zero) => Outcome::N,
            None => Outcome::D,
        }
    }
}

/// Bytes the solver allocates beside a `Graph<u32>`, for estimates before solving: the state
/// word and the counter of each vertex (8 bytes), a bit for "has an option of the current
/// value", and a list of the open vertices once they are fewer than an eighth (half a byte a
/// vertex).
pub fn bytes_needed(vertices: u64) -> u64 {
    bytes_needed_for::<u32>(vertices)
}

/// As [`bytes_needed`] for ids of type `I`: two words of `I` a vertex, the bit, and an eighth
/// of a word a vertex for the list.
pub fn bytes_needed_for<I: VertexId>(vertices: u64) -> u64 {
    2 * I::BYTES * vertices + vertices.div_ceil(64) * 8 + I::BYTES * vertices / 8 + 64
}

/// Computes `γ` for every vertex (see the module documentation). `ctl` receives the number of
/// vertices labelled so far and is checked at every stage; it may stop the solver
/// (`Err(Error::Cancelled(_))`). The solver's own words ([`bytes_needed_for`]) are reserved from
/// the budget of `ctl` before they are allocated.
pub fn solve<I: VertexId>(graph: &Graph<I>, ctl: &Control) -> Result<LoopyValues<I>> {
    solve_inner(graph, ctl, None)
}

/// As [`solve`], also returning the counter `c` of condition (B): the labelling order of each
/// vertex of finite value (`I::MAX` for infinite ones).
pub fn solve_with_counters<I: VertexId>(
    graph: &Graph<I>,
    ctl: &Control,
) -> Result<(LoopyValues<I>, Vec<I>)> {
    let mut counters = vec![I::MAX; graph.vertex_count()];
    let values = solve_inner(graph, ctl, Some(&mut counters))?;
    Ok((values, counters))
}

/// A set of vertices as one bit each.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    #[inline]
    fn get<I: VertexId>(&self, v: I) -> bool {
        let v = v.index();
        self.0[v / 64] >> (v % 64) & 1 != 0
    }
    /// Sets the bit of `v` and returns its previous state.
    #[inline]
    fn set<I: VertexId>(&mut self, v: I) -> bool {
        let v = v.index();
        let word = &mut self.0[v / 64];
        let bit = 1 << (v % 64);
        let was = *word & bit != 0;
        *word |= bit;
        was
    }
    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The ready vertices of a stage, a FIFO queue linked through their counters (a ready
/// vertex's counter is 0 and never used again in the stage, so its word can hold the next
/// vertex of the queue). First in, first out keeps the order of the scan and of discovery,
/// which on graphs numbered breadth first visits memory nearly in order (a LIFO stack was
/// measured six times slower on the explored 10^7-position game of the benchmark: 3.3 s
/// against 0.54 s).
/// The end of the queue is `I::MAX`, never a vertex id.
struct Ready<I> {
    head: I,
    tail: I,
}

impl<I: VertexId> Ready<I> {
    fn new() -> Ready<I> {
        Ready {
            head: I::MAX,
            tail: I::MAX,
        }
    }
    #[inline]
    fn push(&mut self, links: &mut [I], v: I) {
        links[v.index()] = I::MAX;
        if self.tail == I::MAX {
            self.head = v;
        } else {
            links[self.tail.index()] = v;
        }
        self.tail = v;
    }
    #[inline]
    fn pop(&mut self, links: &[I]) -> Option<I> {
        let v = self.head;
        if v == I::MAX {
            return None;
        }
        self.head = links[v.index()];
        if self.head == I::MAX {
            self.tail = I::MAX;
        }
        Some(v)
    }
}

/// The open vertices of a stage: all ids `0..n` scanned (while many are open), or a list.
enum Open<I> {
    Scan(usize),
    List(Vec<I>),
}

impl<I: VertexId> Open<I> {
    fn len(&self) -> usize {
        match self {
            Open::Scan(n) => *n,
            Open::List(l) => l.len(),
        }
    }
    #[inline]
    fn at(&self, i: usize) -> I {
        match self {
            Open::Scan(_) => I::from_usize(i),
            Open::List(l) => l[i],
        }
    }
}

/// The stage-wise labelling of the module documentation, in about 8.6 bytes a vertex (twice
/// that with 64-bit ids):
///
/// * `word[u]`: `OPEN_BIT | open(u)` while `u` is unlabelled, where `open(u)` counts `u`'s arcs
///   to vertices without a finite value; then `u`'s value, or [`infinite`]. It becomes the
///   result.
/// * `cnt[u]`: during a stage, `u`'s arcs to vertices without finite value not yet reversible;
///   once it reaches 0 the vertex is ready and the word holds instead the next vertex of a
///   linked queue of ready vertices ([`Ready`]). This reuse is sound because the counter of a ready vertex
///   is never decremented again: each arc `u → w` decrements it at most once a stage (when `w`
///   first gains an option of the stage's value), and it started at the number of such arcs.
/// * `hit`: one bit a vertex, set when the vertex gains an option of the stage's value.
///
/// The ready vertices may be labelled in any order (FIFO here): an open option `w` of a ready
/// vertex is reversible, so has an option of the stage's value and cannot itself be labelled in
/// this stage; hence labelling one ready vertex never blocks another, and the labels do not
/// depend on the order (the counters of (B) do, and any order satisfies (B)).
///
/// Only open vertices at the start of a stage are looked at, by scanning all ids while at least
/// an eighth are open and from a list afterwards. A vertex stays open after stage `i` only with
/// options of the values `0..=i`, so at most `E/(i+1)` are open then: scanning stops after
/// `8E/V` stages, `O(E)` work in all.
fn solve_inner<I: VertexId>(
    graph: &Graph<I>,
    ctl: &Control,
    mut counters: Option<&mut [I]>,
) -> Result<LoopyValues<I>> {
    let n = graph.vertex_count();
    // Held from the budget while the solver runs; the answer it returns is the caller's.
    let _held = ctl.reserve(
        bytes_needed_for::<I>(n as u64),
        "solving the graph's values",
    )?;
    let (zero, one) = (I::zero(), I::one());
    let (open_bit, infinite) = (open_bit::<I>(), infinite::<I>());
    let mut word = graph.out_degrees();
    #[cfg(feature = "parallel")]
    let words = word.par_iter_mut();
    #[cfg(not(feature = "parallel"))]
    let words = word.iter_mut();
    words.for_each(|w| *w = *w | open_bit);
    let mut cnt = vec![zero; n];
    let mut hit = Bits::new(n);
    let mut open: Open<I> = Open::Scan(n);
    let mut open_count = n;
    let mut labelled = 0u64;
    let mut next_counter = zero;
    let mut stage = zero;
    while open_count > 0 {
        // A stage costs at least a pass over the open vertices and the bitmap: check each one.
        ctl.stop_check()?;
        hit.clear();
        let mut ready = Ready::new();
        for i in 0..open.len() {
            let u = open.at(i);
            let w = word[u.index()];
            if w & open_bit == zero {
                continue;
            }
            let c = w & !open_bit;
            cnt[u.index()] = c;
            if c == zero {
                ready.push(&mut cnt, u);
            }
        }
        while let Some(u) = ready.pop(&cnt) {
            if hit.get(u) {
                continue;
            }
            word[u.index()] = stage;
            open_count -= 1;
            if let Some(c) = counters.as_deref_mut() {
                c[u.index()] = next_counter;
            }
            // At most one label a vertex: the counter stays below the number of vertices.
            next_counter += one;
            labelled += 1;
            if labelled & 0xFFFF == 0 {
                ctl.check(labelled)?;
            }
            for &w in graph.predecessors(u) {
                let ww = &mut word[w.index()];
                if *ww & open_bit != zero {
                    *ww -= one;
                }
                if hit.set(w) || *ww < infinite {
                    continue;
                }
                // w has no finite value and just became reversible to `stage`.
                for &x in graph.predecessors(w) {
                    if word[x.index()] & open_bit != zero {
                        let c = &mut cnt[x.index()];
                        *c -= one;
                        if *c == zero && !hit.get(x) {
                            ready.push(&mut cnt, x);
                        }
                    }
                }
            }
        }
        // Open vertices with no option of value `stage` cannot take it: they are ∞.
        for i in 0..open.len() {
            let u = open.at(i);
            if word[u.index()] & open_bit != zero && !hit.get(u) {
                word[u.index()] = infinite;
                open_count -= 1;
                labelled += 1;
            }
        }
        match &mut open {
            Open::List(l) => l.retain(|&u| word[u.index()] & open_bit != zero),
            Open::Scan(_) if open_count <= n / 8 => {
                open = Open::List(
                    (0..n)
                        .filter(|&u| word[u] & open_bit != zero)
                        .map(I::from_usize)
                        .collect(),
                );
            }
            Open::Scan(_) => {}
        }
        stage += one;
    }
    ctl.check(labelled)?;
    Ok(LoopyValues { label: word })
}

#[cfg(any(test, feature = "testing"))]
/// Slow methods from the definition, for checking [`solve`].
pub mod reference {
    use super::*;
    use crate::solve::outcome;
    use crate::solve::Play;

    /// Checks conditions (A), (B), (C) of the module documentation for given values and
    /// counters, straight from the definition (every arc, every pair of arcs).
    pub fn check_definition(
        graph: &Graph,
        values: &LoopyValues,
        counters: &[u32],
    ) -> Result<(), String> {
        let n = graph.vertex_count() as u32;
        let mut seen = Vec::new();
        for u in 0..n {
            let finite: Vec<u64> = graph
                .options(u)
                .iter()
                .filter_map(|&w| values.finite(w).map(u64::from))
                .collect();
            let m = crate::game::mex(&finite, &mut seen);
            match values.finite(u) {
                Some(a) => {
                    if a as u64 != m {
                        return Err(format!("(A) fails at {u}: value {a}, mex {m}"));
                    }
                    for &v in graph.options(u) {
                        if values.finite(v).is_some_and(|b| b <= a) {
                            continue;
                        }
                        let reversed = graph.options(v).iter().any(|&w| {
                            values.finite(w) == Some(a)
                                && counters[w as usize] < counters[u as usize]
                        });
                        if !reversed {
                            return Err(format!("(B) fails at {u} -> {v}"));
                        }
                    }
                }
                None => {
                    let witness = graph
                        .options(u)
                        .iter()
                        .any(|&v| match values.value(graph, v) {
                            Gamma::Infinite(k) => !k.contains(&m),
                            Gamma::Finite(_) => false,
                        });
                    if !witness {
                        return Err(format!("(C) fails at {u}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The stage-wise labelling by plain sweeps, without counters (the naive baseline of the
    /// benchmark): in stage `i`, sweep over the open vertices, labelling `i` each one with no
    /// option of value `i` whose options without finite value all have an option of value `i`,
    /// until a sweep changes nothing; then open vertices with no option of value `i` get `∞`.
    /// Each check rescans two levels of arcs: `O(E · degree)` a sweep.
    pub fn sweeps(graph: &Graph) -> LoopyValues {
        let n = graph.vertex_count() as u32;
        let mut label = vec![OPEN; n as usize];
        let mut stage = 0u32;
        let has_option = |label: &[u32], v: u32, i: u32| {
            graph.options(v).iter().any(|&w| label[w as usize] == i)
        };
        while label.contains(&OPEN) {
            loop {
                let mut changed = false;
                for u in 0..n {
                    if label[u as usize] != OPEN || has_option(&label, u, stage) {
                        continue;
                    }
                    let ok = graph.options(u).iter().all(|&v| {
                        let l = label[v as usize];
                        (l != OPEN && l != infinite::<u32>()) || has_option(&label, v, stage)
                    });
                    if ok {
                        label[u as usize] = stage;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            for u in 0..n {
                if label[u as usize] == OPEN && !has_option(&label, u, stage) {
                    label[u as usize] = infinite::<u32>();
                }
            }
            stage += 1;
        }
        LoopyValues { label }
    }

    /// `γ` from outcomes alone, an oracle independent of the labelling: by the sum theorem,
    /// `u + *n` is P iff `γ(u) = n`, and for `γ(u) = ∞(K)` it is N iff `n ∈ K` (a draw
    /// otherwise). Finite values are at most the out-degree, so heaps `n ≤ max degree + 1`
    /// decide every value. The outcomes of the sums are computed by the definition-level
    /// fixpoint [`outcome::reference::rounds`] on the explicit sum graph.
    pub fn by_nim_sums(graph: &Graph) -> Vec<Gamma> {
        let n = graph.vertex_count() as u32;
        let top = (0..n).map(|v| graph.out_degree(v)).max().unwrap_or(0) + 2;
        let mut nim_arcs = Vec::new();
        for h in 0..top {
            for h2 in 0..h {
                nim_arcs.push((h, h2));
            }
        }
        let nim = Graph::from_arcs(top as usize, &nim_arcs).expect("small nim graph");
        let sum = graph.sum(&nim).expect("small sum graph");
        let outcomes = outcome::reference::rounds(&sum, Play::Normal);
        (0..n)
            .map(|u| {
                let of = |h: u32| outcomes[(u * top + h) as usize].0;
                match (0..top).find(|&h| of(h) == Outcome::P) {
                    Some(a) => Gamma::Finite(a as u64),
                    None => Gamma::Infinite(
                        (0..top)
                            .filter(|&h| of(h) == Outcome::N)
                            .map(u64::from)
                            .collect(),
                    ),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::tests_support::random_graph;
    use proptest::prelude::*;

    fn values(g: &Graph) -> Vec<String> {
        let v = solve(g, &Control::none()).unwrap();
        (0..g.vertex_count() as u32)
            .map(|u| v.value(g, u).to_string())
            .collect()
    }

    #[test]
    fn hand_cases() {
        // a→b→c→a with c→d→e: e = 0, d = 1, c = ∞{1}, a = b = ∞{}.
        let g = Graph::<u32>::from_arcs(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]).unwrap();
        assert_eq!(values(&g), ["inf{}", "inf{}", "inf{1}", "1", "0"]);
        // A lone self-loop is ∞{}. A self-loop with an exit to a terminal vertex is ∞{0}, an N
        // position: it cannot be 1, since its own value would then be among its options' and
        // the mex would be 2 (and indeed u + *1 is a draw: passing forever is the only
        // alternative to losing moves).
        let g = Graph::<u32>::from_arcs(3, &[(0, 0), (1, 1), (1, 2)]).unwrap();
        assert_eq!(values(&g), ["inf{}", "inf{0}", "0"]);
        let v = solve(&g, &Control::none()).unwrap();
        assert_eq!(v.outcome(&g, 1), Outcome::N);
        assert_eq!(v.outcome(&g, 0), Outcome::D);
        // A two-cycle whose vertices both exit to a terminal vertex: neither can be 1 (the move
        // to the other is not reversible to 1), so both are ∞{0}: N, by moving to the terminal.
        let g = Graph::<u32>::from_arcs(3, &[(0, 1), (1, 0), (0, 2), (1, 2)]).unwrap();
        assert_eq!(values(&g), ["inf{0}", "inf{0}", "0"]);
        // A reversible cycle: 0 → 1 → 0 and 1 → 2 (terminal). 0 = 0, since its move up to 1 is
        // reversed by 1 → 2, closer to the end (condition B); 1 = mex{0, 0} = 1. No draw here.
        let g = Graph::<u32>::from_arcs(3, &[(0, 1), (1, 0), (1, 2)]).unwrap();
        assert_eq!(values(&g), ["0", "1", "0"]);
    }

    #[test]
    fn nim_heaps_as_graphs_give_their_size() {
        let mut arcs = Vec::new();
        for h in 0..40u32 {
            for h2 in 0..h {
                arcs.push((h, h2));
            }
        }
        let g = Graph::<u32>::from_arcs(40, &arcs).unwrap();
        let v = solve(&g, &Control::none()).unwrap();
        for h in 0..40 {
            assert_eq!(v.finite(h), Some(h));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn labelling_satisfies_the_definition((n, arcs) in random_graph(12, 30)) {
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let (v, c) = solve_with_counters(&g, &Control::none()).unwrap();
            prop_assert_eq!(reference::check_definition(&g, &v, &c), Ok(()));
            prop_assert_eq!(v, reference::sweeps(&g));
        }

        #[test]
        fn labelling_matches_the_sweeps_on_larger_graphs_with_large_values(
            n in 50usize..300,
            seed in any::<u64>(),
        ) {
            // Mostly downward arcs (long acyclic stretches, large values) plus a few upward
            // arcs and self-loops (cycles).
            let mut x = seed | 1;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let mut arcs = Vec::new();
            for u in 1..n as u32 {
                for _ in 0..(next() % 8) {
                    arcs.push((u, (next() % u as u64) as u32));
                }
                if next() % 10 == 0 {
                    arcs.push((u, (next() % n as u64) as u32));
                }
            }
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let (v, c) = solve_with_counters(&g, &Control::none()).unwrap();
            prop_assert_eq!(reference::check_definition(&g, &v, &c), Ok(()));
            prop_assert_eq!(&v, &reference::sweeps(&g));
            let fast = crate::solve::outcome::solve(&g, crate::solve::Play::Normal, &Control::none()).unwrap();
            for u in 0..n as u32 {
                prop_assert_eq!(v.outcome(&g, u), fast.outcome(u));
            }
        }

        #[test]
        fn labelling_matches_outcomes_of_sums_with_nim((n, arcs) in random_graph(9, 22)) {
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let v = solve(&g, &Control::none()).unwrap();
            let fast: Vec<Gamma> = (0..n as u32).map(|u| v.value(&g, u)).collect();
            prop_assert_eq!(fast, reference::by_nim_sums(&g));
        }

        #[test]
        fn u64_ids_give_the_same_values((n, arcs) in random_graph(200, 1500)) {
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let wide: Vec<(u64, u64)> = arcs.iter().map(|&(u, v)| (u.into(), v.into())).collect();
            let h = Graph::<u64>::from_arcs(n, &wide).unwrap();
            prop_assert_eq!(Some(h.clone()), g.to_width::<u64>());
            let (narrow, (values, counters)) = (solve(&g, &Control::none()).unwrap(), solve_with_counters(&h, &Control::none()).unwrap());
            prop_assert_eq!(&values, &solve(&h, &Control::none()).unwrap());
            let (_, narrow_counters) = solve_with_counters(&g, &Control::none()).unwrap();
            for v in 0..n {
                let (v32, v64) = (v as u32, v as u64);
                prop_assert_eq!(narrow.value(&g, v32), values.value(&h, v64));
                prop_assert_eq!(narrow.outcome(&g, v32), values.outcome(&h, v64));
                let c = narrow_counters[v];
                prop_assert_eq!(if c == u32::MAX { u64::MAX } else { c.into() }, counters[v]);
            }
        }
    }
}
