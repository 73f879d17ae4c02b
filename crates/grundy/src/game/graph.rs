//! Explicit game graphs in compact adjacency form.
//!
//! A finite game graph `G = (V, E)` with `V = {0, …, n-1}` is stored twice in compressed sparse
//! row (CSR) form: the options of `v` are `targets[offsets[v] .. offsets[v+1]]`, and the
//! predecessors (positions from which `v` is reached in one move) are the same slice of the
//! reverse arrays. Vertex ids, offsets and targets share one width, the type parameter `I` of
//! [`Graph<I>`] ([`VertexId`]: `u32`, the default, or `u64`), so a graph costs
//! `2·w·|E| + 2·w·(|V|+1)` bytes with `w` = 4 or 8: `w` bytes an arc and a vertex in each
//! direction. The top bit of a word stays free for the solvers' flags, so a `Graph<u32>` holds at
//! most `2^31 - 2` vertices and `2^31 - 1` arcs (about 2·10^9), and a `Graph<u64>` at most
//! `2^63 - 2` and `2^63 - 1` (in practice, what fits in memory); larger inputs are refused with
//! [`Error::Limit`]. [`AnyGraph`] holds either, choosing `u32` whenever the size allows.
//!
//! Arcs may repeat (a multigraph) and may be self-loops; every solver counts an arc with its
//! multiplicity, which changes nothing in the game (a repeated move is the same move).

use super::hash::FxHashMap;
use super::{Game, Retrograde};
use crate::control::Control;
use crate::error::{Error, Result};
use num_traits::{NumAssignOps, PrimInt};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The largest number of vertices a `Graph<u32>` holds: below 2^31, so that solvers can keep a
/// flag bit beside a vertex count or remoteness in one 32-bit word.
pub const MAX_VERTICES: u64 = (1 << 31) - 2;
/// The largest number of arcs a `Graph<u32>` holds: below 2^31 too, so that an out-degree (a
/// move counter of the solvers) leaves the top bit of a 32-bit word free for a flag. At 12 bytes
/// an arc this is 25 GB, beyond this machine.
pub const MAX_ARCS: u64 = (1 << 31) - 1;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The integer type of the vertex ids, offsets and solver state words of a [`Graph`]: `u32` or
/// `u64` (sealed). With `b` bits, the caps are `2^(b-1) - 2` vertices and `2^(b-1) - 1` arcs, so
/// that [`FLAG`](VertexId::FLAG), the top bit, is free in any vertex count, degree or remoteness
/// (each is at most the number of vertices or arcs), and `MAX` is never a vertex id (the solvers
/// use it as an end marker).
pub trait VertexId:
    PrimInt
    + NumAssignOps
    + std::hash::Hash
    + std::fmt::Debug
    + std::fmt::Display
    + Default
    + Send
    + Sync
    + 'static
    + sealed::Sealed
{
    /// The atomic integer of the same width.
    type Atomic: AtomicId<Self>;
    /// The largest number of vertices a graph of this id width holds.
    const MAX_VERTICES: u64;
    /// The largest number of arcs a graph of this id width holds.
    const MAX_ARCS: u64;
    /// The top bit, free for a flag beside any count or remoteness.
    const FLAG: Self;
    /// All bits set: never a vertex id.
    const MAX: Self;
    /// Bytes a word.
    const BYTES: u64;
    /// `x` as an id; callers keep `x` within the caps above (checked when a graph is built).
    fn from_usize(x: usize) -> Self;
    /// The id as an index.
    fn index(self) -> usize;
    /// The id as a `u64`.
    fn to_u64_lossless(self) -> u64;
}

/// Relaxed atomic operations on a word of an id type (what the parallel passes need).
pub trait AtomicId<I>: Send + Sync {
    /// A new atomic word.
    fn new(v: I) -> Self;
    /// Relaxed load.
    fn load(&self) -> I;
    /// Relaxed store.
    fn store(&self, v: I);
    /// Relaxed fetch-and-add, returning the previous value.
    fn fetch_add(&self, v: I) -> I;
    /// Relaxed weak compare-and-swap.
    fn compare_exchange_weak(&self, current: I, new: I) -> std::result::Result<I, I>;
    /// The value, consuming the atomic.
    fn into_inner(self) -> I;
}

macro_rules! vertex_id {
    ($t:ty, $atomic:ty) => {
        impl AtomicId<$t> for $atomic {
            #[inline]
            fn new(v: $t) -> Self {
                <$atomic>::new(v)
            }
            #[inline]
            fn load(&self) -> $t {
                <$atomic>::load(self, Ordering::Relaxed)
            }
            #[inline]
            fn store(&self, v: $t) {
                <$atomic>::store(self, v, Ordering::Relaxed)
            }
            #[inline]
            fn fetch_add(&self, v: $t) -> $t {
                <$atomic>::fetch_add(self, v, Ordering::Relaxed)
            }
            #[inline]
            fn compare_exchange_weak(&self, c: $t, n: $t) -> std::result::Result<$t, $t> {
                <$atomic>::compare_exchange_weak(self, c, n, Ordering::Relaxed, Ordering::Relaxed)
            }
            #[inline]
            fn into_inner(self) -> $t {
                <$atomic>::into_inner(self)
            }
        }
        impl VertexId for $t {
            type Atomic = $atomic;
            const MAX_VERTICES: u64 = (1 << (<$t>::BITS - 1)) - 2;
            const MAX_ARCS: u64 = (1 << (<$t>::BITS - 1)) - 1;
            const FLAG: $t = 1 << (<$t>::BITS - 1);
            const MAX: $t = <$t>::MAX;
            const BYTES: u64 = <$t>::BITS as u64 / 8;
            #[inline(always)]
            fn from_usize(x: usize) -> $t {
                x as $t
            }
            #[inline(always)]
            fn index(self) -> usize {
                self as usize
            }
            #[inline(always)]
            fn to_u64_lossless(self) -> u64 {
                self as u64
            }
        }
    };
}
vertex_id!(u32, AtomicU32);
vertex_id!(u64, AtomicU64);

/// A finite directed graph of game positions, with forward and reverse adjacency, its ids of
/// type `I` (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph<I: VertexId = u32> {
    out_offsets: Vec<I>,
    out_targets: Vec<I>,
    in_offsets: Vec<I>,
    in_sources: Vec<I>,
}

/// Asks the processor to bring the cache line holding `p` closer (a hint: no effect on
/// results, never a fault, whatever the address).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is a hint that never faults, whatever the address; SSE is part of the
    // x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Fails with [`Error::Limit`] unless a graph of this size fits the `u32` representation.
pub fn check_size(vertices: u64, arcs: u64) -> Result<()> {
    check_size_for::<u32>(vertices, arcs)
}

/// How to get past the id caps, in the [`Error::Limit`] of [`check_size_for`].
const ID_CAP_HINT: &str = "split the game or solve it as a sum of smaller components";

/// True if `e` is the [`Error::Limit`] of a graph too large for its id width (from
/// [`check_size_for`]), as opposed to a memory budget: reading again with wider ids may help.
pub fn is_id_cap(e: &Error) -> bool {
    matches!(e, Error::Limit(l) if l.kind == crate::LimitKind::Ids)
}

/// Fails with [`Error::Limit`] unless a graph of this size fits ids of type `I`.
pub fn check_size_for<I: VertexId>(vertices: u64, arcs: u64) -> Result<()> {
    let bits = 8 * I::BYTES;
    if vertices > I::MAX_VERTICES {
        return Err(Error::limit(
            crate::LimitKind::Ids,
            format!(
                "the graph has {vertices} vertices, above the {} a graph with {bits}-bit ids holds",
                I::MAX_VERTICES
            ),
            ID_CAP_HINT,
        ));
    }
    if arcs > I::MAX_ARCS {
        return Err(Error::limit(
            crate::LimitKind::Ids,
            format!(
                "the graph has {arcs} arcs, above the {} a graph with {bits}-bit ids holds",
                I::MAX_ARCS
            ),
            ID_CAP_HINT,
        ));
    }
    Ok(())
}

impl<I: VertexId> Graph<I> {
    /// Bytes a graph of this size occupies (both directions), for estimates before allocating:
    /// one word of `I` an arc and a vertex (plus one) in each direction.
    pub fn bytes_needed(vertices: u64, arcs: u64) -> u64 {
        2 * I::BYTES * (arcs + vertices + 1)
    }

    /// Builds a graph from forward CSR arrays: the options of `v` are
    /// `targets[offsets[v] .. offsets[v + 1]]`. The reverse arrays are built
    /// here (in-degrees counted in parallel, then one counting-sort pass).
    ///
    /// Fails with [`Error::Invalid`] if the arrays are inconsistent (offsets not starting at 0,
    /// decreasing, not ending at `targets.len()`, or a target out of range), and with
    /// [`Error::Limit`] beyond the caps of `I`.
    pub fn from_csr(offsets: Vec<I>, targets: Vec<I>) -> Result<Graph<I>> {
        Graph::from_csr_with(offsets, targets, false)
    }

    /// As [`from_csr`](Graph::from_csr), placing the reverse arcs on all threads (atomic slot
    /// cursors, then each predecessor list sorted: the same graph). Measured on the shared
    /// 2-core machine under load, this was about twice *slower* than the sequential placement
    /// (see docs/performance.md), so the default stays sequential; it pays off only with idle
    /// cores.
    pub fn from_csr_parallel(offsets: Vec<I>, targets: Vec<I>) -> Result<Graph<I>> {
        Graph::from_csr_with(offsets, targets, true)
    }

    fn from_csr_with(offsets: Vec<I>, targets: Vec<I>, parallel: bool) -> Result<Graph<I>> {
        if offsets.is_empty() {
            return Err(Error::invalid("CSR offsets must hold at least one entry"));
        }
        let n = offsets.len() - 1;
        check_size_for::<I>(n as u64, targets.len() as u64)?;
        if offsets[0] != I::zero() || offsets[n].index() != targets.len() {
            return Err(Error::invalid(
                "CSR offsets must start at 0 and end at the number of arcs",
            ));
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::invalid("CSR offsets must be non-decreasing"));
        }
        #[cfg(feature = "parallel")]
        let out_of_range = targets.par_iter().any(|&t| t.index() >= n);
        #[cfg(not(feature = "parallel"))]
        let out_of_range = targets.iter().any(|&t| t.index() >= n);
        if out_of_range {
            return Err(Error::invalid("an arc points to a vertex out of range"));
        }
        let (in_offsets, in_sources) = reverse_csr(&offsets, &targets, parallel);
        Ok(Graph {
            out_offsets: offsets,
            out_targets: targets,
            in_offsets,
            in_sources,
        })
    }

    /// Builds a graph on vertices `0..n` from a list of arcs `(from, to)`.
    pub fn from_arcs(n: usize, arcs: &[(I, I)]) -> Result<Graph<I>> {
        check_size_for::<I>(n as u64, arcs.len() as u64)?;
        if let Some(&(u, v)) = arcs
            .iter()
            .find(|&&(u, v)| u.index() >= n || v.index() >= n)
        {
            return Err(Error::invalid(format!(
                "arc {u} -> {v} leaves the vertex range 0..{n}"
            )));
        }
        let mut offsets = vec![I::zero(); n + 1];
        for &(u, _) in arcs {
            offsets[u.index() + 1] += I::one();
        }
        for i in 0..n {
            let prev = offsets[i];
            offsets[i + 1] += prev;
        }
        let mut fill = offsets.clone();
        let mut targets = vec![I::zero(); arcs.len()];
        for &(u, v) in arcs {
            targets[fill[u.index()].index()] = v;
            fill[u.index()] += I::one();
        }
        Graph::from_csr(offsets, targets)
    }

    /// The same graph with ids of another width (`None` if it exceeds that width's caps):
    /// used to check that both widths give the same answers.
    pub fn to_width<J: VertexId>(&self) -> Option<Graph<J>> {
        check_size_for::<J>(self.vertex_count() as u64, self.arc_count() as u64).ok()?;
        let cast = |x: &Vec<I>| x.iter().map(|&v| J::from_usize(v.index())).collect();
        Some(Graph {
            out_offsets: cast(&self.out_offsets),
            out_targets: cast(&self.out_targets),
            in_offsets: cast(&self.in_offsets),
            in_sources: cast(&self.in_sources),
        })
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.out_offsets.len() - 1
    }

    /// The number of arcs (with multiplicity).
    pub fn arc_count(&self) -> usize {
        self.out_targets.len()
    }

    /// The options of `v`: the vertices reached from `v` in one move.
    #[inline]
    pub fn options(&self, v: I) -> &[I] {
        let v = v.index();
        &self.out_targets[self.out_offsets[v].index()..self.out_offsets[v + 1].index()]
    }

    /// The predecessors of `v`: the vertices from which `v` is reached in one move.
    #[inline]
    pub fn predecessors(&self, v: I) -> &[I] {
        let v = v.index();
        &self.in_sources[self.in_offsets[v].index()..self.in_offsets[v + 1].index()]
    }

    /// Hints the processor to fetch the adjacency offsets and the first predecessors of `v`
    /// (for solvers that know which vertex they will visit a few steps ahead).
    #[inline]
    pub fn prefetch_predecessors(&self, v: I) {
        prefetch(self.in_offsets.as_ptr().wrapping_add(v.index()));
        let start = self.in_offsets[v.index()].index();
        prefetch(self.in_sources.as_ptr().wrapping_add(start));
    }

    /// The number of arcs leaving `v`.
    #[inline]
    pub fn out_degree(&self, v: I) -> I {
        self.out_offsets[v.index() + 1] - self.out_offsets[v.index()]
    }

    /// Out-degrees of all vertices (computed in parallel), the starting move counters of
    /// retrograde analysis.
    pub fn out_degrees(&self) -> Vec<I> {
        #[cfg(feature = "parallel")]
        let pairs = self.out_offsets.par_windows(2);
        #[cfg(not(feature = "parallel"))]
        let pairs = self.out_offsets.windows(2);
        pairs.map(|w| w[1] - w[0]).collect()
    }

    /// Bytes this graph occupies.
    pub fn memory_bytes(&self) -> u64 {
        Graph::<I>::bytes_needed(self.vertex_count() as u64, self.arc_count() as u64)
    }

    /// The disjunctive sum `G + H` as an explicit graph on `V(G) × V(H)`: vertex
    /// `(g, h)` has id `g·|V(H)| + h`, and its options are `(g', h)` for `g → g'` and `(g, h')`
    /// for `h → h'`. Used to check the sum rules of the solvers on explicit graphs.
    pub fn sum(&self, other: &Graph<I>) -> Result<Graph<I>> {
        let (n1, n2) = (self.vertex_count() as u64, other.vertex_count() as u64);
        let arcs = self.arc_count() as u64 * n2 + other.arc_count() as u64 * n1;
        check_size_for::<I>(n1 * n2, arcs)?;
        let mut offsets = Vec::with_capacity((n1 * n2 + 1) as usize);
        let mut targets = Vec::with_capacity(arcs as usize);
        offsets.push(I::zero());
        let n2i = I::from_usize(n2 as usize);
        for g in 0..n1 as usize {
            let g = I::from_usize(g);
            for h in 0..n2 as usize {
                let h = I::from_usize(h);
                targets.extend(self.options(g).iter().map(|&g2| g2 * n2i + h));
                targets.extend(other.options(h).iter().map(|&h2| g * n2i + h2));
                offsets.push(I::from_usize(targets.len()));
            }
        }
        Graph::from_csr(offsets, targets)
    }
}

/// A graph of either id width: `u32` when its size fits the `u32` caps (half the memory), `u64`
/// beyond. Code that works on any graph is written once, generic over [`VertexId`], and called
/// through [`with_graph!`](crate::with_graph).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGraph {
    /// Ids, offsets and targets of 32 bits.
    U32(Graph<u32>),
    /// Ids, offsets and targets of 64 bits.
    U64(Graph<u64>),
}

/// Whether a graph of this size needs 64-bit ids: more than [`MAX_VERTICES`] vertices or
/// [`MAX_ARCS`] arcs.
pub fn needs_u64(vertices: u64, arcs: u64) -> bool {
    vertices > MAX_VERTICES || arcs > MAX_ARCS
}

impl AnyGraph {
    /// Builds the graph from forward CSR arrays in the narrowest width its size allows
    /// ([`needs_u64`]), or in `u64` whatever the size if `force_u64` (to test the wide path on
    /// small graphs). Errors as [`Graph::from_csr`].
    pub fn from_csr_u32(offsets: Vec<u32>, targets: Vec<u32>, force_u64: bool) -> Result<AnyGraph> {
        if force_u64 {
            let widen = |x: Vec<u32>| x.into_iter().map(u64::from).collect();
            return Ok(AnyGraph::U64(Graph::from_csr(
                widen(offsets),
                widen(targets),
            )?));
        }
        Ok(AnyGraph::U32(Graph::from_csr(offsets, targets)?))
    }

    /// Builds the graph from 64-bit forward CSR arrays, narrowed to `u32` when the size allows
    /// ([`needs_u64`]) and `force_u64` is false.
    pub fn from_csr_u64(offsets: Vec<u64>, targets: Vec<u64>, force_u64: bool) -> Result<AnyGraph> {
        let n = offsets.len().saturating_sub(1) as u64;
        if force_u64 || needs_u64(n, targets.len() as u64) {
            return Ok(AnyGraph::U64(Graph::from_csr(offsets, targets)?));
        }
        let narrow = |x: Vec<u64>| x.into_iter().map(|v| v as u32).collect();
        Ok(AnyGraph::U32(Graph::from_csr(
            narrow(offsets),
            narrow(targets),
        )?))
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        crate::with_graph!(self, g => g.vertex_count())
    }

    /// The number of arcs.
    pub fn arc_count(&self) -> usize {
        crate::with_graph!(self, g => g.arc_count())
    }

    /// Bytes this graph occupies.
    pub fn memory_bytes(&self) -> u64 {
        crate::with_graph!(self, g => g.memory_bytes())
    }

    /// Bytes a word of this graph's id type.
    pub fn id_bytes(&self) -> u64 {
        match self {
            AnyGraph::U32(_) => 4,
            AnyGraph::U64(_) => 8,
        }
    }

    /// The options of vertex `v`, as `u64` ids (for output; solvers use the typed graph).
    pub fn options_u64(&self, v: u64) -> Vec<u64> {
        match self {
            AnyGraph::U32(g) => g.options(v as u32).iter().map(|&w| u64::from(w)).collect(),
            AnyGraph::U64(g) => g.options(v).to_vec(),
        }
    }
}

/// Runs one generic expression on the graph inside an [`AnyGraph`](crate::game::graph::AnyGraph),
/// binding it to `$g` (a `&Graph<u32>` or a `&Graph<u64>`): the expression is compiled once per
/// width, so code written generically over `VertexId` serves both without duplication.
#[macro_export]
macro_rules! with_graph {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::graph::AnyGraph::U32($g) => $body,
            $crate::game::graph::AnyGraph::U64($g) => $body,
        }
    };
}

/// The reverse CSR of a forward CSR: in-degrees counted in parallel (atomic counters), prefix
/// sums, then each source `u` placed in the slot of each of its targets. The result lists the
/// predecessors of each vertex in increasing order, whatever the thread timing: the sequential
/// pass visits sources in increasing order; the parallel one (large graphs, several threads)
/// claims slots with atomic cursors, in any order, then sorts each vertex's slice.
fn reverse_csr<I: VertexId>(offsets: &[I], targets: &[I], parallel: bool) -> (Vec<I>, Vec<I>) {
    let n = offsets.len() - 1;
    let cursors: Vec<I::Atomic> = (0..n).map(|_| I::Atomic::new(I::zero())).collect();
    #[cfg(feature = "parallel")]
    let chunks = targets.par_chunks(1 << 16);
    #[cfg(not(feature = "parallel"))]
    let chunks = targets.chunks(1 << 16);
    chunks.for_each(|chunk| {
        for &t in chunk {
            cursors[t.index()].fetch_add(I::one());
        }
    });
    let mut in_offsets = Vec::with_capacity(n + 1);
    in_offsets.push(I::zero());
    let mut acc = I::zero();
    for c in &cursors {
        let degree = c.load();
        c.store(acc);
        acc += degree;
        in_offsets.push(acc);
    }
    #[cfg(feature = "parallel")]
    if parallel && rayon::current_num_threads() >= 2 {
        let sources = fill_in_parallel(offsets, targets, cursors, &in_offsets);
        return (in_offsets, sources);
    }
    #[cfg(not(feature = "parallel"))]
    let _ = parallel;
    let mut fill: Vec<I> = cursors.into_iter().map(AtomicId::into_inner).collect();
    let mut sources = vec![I::zero(); targets.len()];
    for u in 0..n {
        for &t in &targets[offsets[u].index()..offsets[u + 1].index()] {
            let slot = &mut fill[t.index()];
            sources[slot.index()] = I::from_usize(u);
            *slot += I::one();
        }
    }
    (in_offsets, sources)
}

/// The parallel fill of [`reverse_csr`]: slots claimed with atomic cursors, then each vertex's
/// predecessors sorted.
#[cfg(feature = "parallel")]
fn fill_in_parallel<I: VertexId>(
    offsets: &[I],
    targets: &[I],
    cursors: Vec<I::Atomic>,
    in_offsets: &[I],
) -> Vec<I> {
    let n = offsets.len() - 1;
    let slots: Vec<I::Atomic> = (0..targets.len())
        .map(|_| I::Atomic::new(I::zero()))
        .collect();
    (0..n).into_par_iter().with_min_len(1 << 12).for_each(|u| {
        for &t in &targets[offsets[u].index()..offsets[u + 1].index()] {
            let slot = cursors[t.index()].fetch_add(I::one());
            slots[slot.index()].store(I::from_usize(u));
        }
    });
    drop(cursors);
    let mut sources: Vec<I> = slots.into_iter().map(AtomicId::into_inner).collect();
    // Sort each vertex's predecessors, in pieces of consecutive vertices on all threads.
    let mut pieces: Vec<(usize, &mut [I])> = Vec::new();
    let mut rest: &mut [I] = &mut sources;
    let step = n.div_ceil(256).max(1);
    for first in (0..n).step_by(step) {
        let last = (first + step).min(n);
        let len = (in_offsets[last] - in_offsets[first]).index();
        let (piece, tail) = rest.split_at_mut(len);
        pieces.push((first, piece));
        rest = tail;
    }
    pieces.into_par_iter().for_each(|(first, piece)| {
        let base = in_offsets[first];
        let last = (first + step).min(n);
        for v in first..last {
            let (a, b) = (in_offsets[v] - base, in_offsets[v + 1] - base);
            piece[a.index()..b.index()].sort_unstable();
        }
    });
    sources
}

impl<I: VertexId> Game for Graph<I> {
    type Position = I;
    fn options(&self, p: &I, out: &mut Vec<I>) -> crate::error::Result<()> {
        out.extend_from_slice(Graph::options(self, *p));
        Ok(())
    }
}

impl<I: VertexId> Retrograde for Graph<I> {
    fn predecessors(&self, p: &I, out: &mut Vec<I>) {
        out.extend_from_slice(Graph::predecessors(self, *p));
    }
}

/// An implicit game made explicit: the graph of the positions reachable from the start
/// positions, and the position each vertex id stands for.
#[derive(Clone, Debug)]
pub struct Explored<P> {
    /// The game graph; vertex `i` is `positions[i]`.
    pub graph: Graph,
    /// The positions, in breadth-first order from the starts (the starts come first).
    pub positions: Vec<P>,
}

impl<P: Clone + Eq + std::hash::Hash> Explored<P> {
    /// The vertex id of a position, if it was reached (a linear-time lookup: build a map from
    /// `positions` for many queries).
    pub fn id_of(&self, p: &P) -> Option<u32> {
        self.positions.iter().position(|q| q == p).map(|i| i as u32)
    }
}

/// Explores the positions reachable from `starts` breadth first and returns the explicit graph.
///
/// Each new position gets the next id; the options of vertex `i` are generated when `i` is
/// dequeued, and since vertices are dequeued in id order the forward CSR is written in order,
/// without a second pass. Memory: the positions twice (the id map and the list) plus the graph.
/// Fails with [`Error::Limit`] when more than `max_positions` positions are reachable, or
/// beyond the caps of `Graph<u32>` ([`MAX_VERTICES`], [`MAX_ARCS`]): exploration keeps the
/// position list and its hash map beside the graph (tens of bytes a position), so a game too
/// large for 32-bit ids would not fit this machine's memory anyway; an implicit game that large
/// is better solved by its own engine or as a sum of components.
pub fn explore<G: Game>(
    game: &G,
    starts: &[G::Position],
    max_positions: usize,
    ctl: &Control,
) -> Result<Explored<G::Position>> {
    let max_positions = max_positions.min(MAX_VERTICES as usize);
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    let mut positions: Vec<G::Position> = Vec::new();
    let too_many = || {
        Error::limit(
            crate::LimitKind::Positions,
            format!("the game has more than {max_positions} reachable positions"),
            "raise the position limit (or the memory limit that sets it)",
        )
    };
    for s in starts {
        if !ids.contains_key(s) {
            if positions.len() >= max_positions {
                return Err(too_many());
            }
            ids.insert(s.clone(), positions.len() as u32);
            positions.push(s.clone());
        }
    }
    let mut offsets = vec![0u32];
    let mut targets: Vec<u32> = Vec::new();
    let mut buf = Vec::new();
    let mut next = 0usize;
    while next < positions.len() {
        buf.clear();
        game.options(&positions[next], &mut buf)?;
        for q in buf.drain(..) {
            let id = match ids.get(&q) {
                Some(&id) => id,
                None => {
                    if positions.len() >= max_positions {
                        return Err(too_many());
                    }
                    let id = positions.len() as u32;
                    ids.insert(q.clone(), id);
                    positions.push(q);
                    id
                }
            };
            targets.push(id);
        }
        check_size(positions.len() as u64, targets.len() as u64)?;
        offsets.push(targets.len() as u32);
        next += 1;
        if next & 0xFFFF == 0 {
            ctl.check(next as u64)?;
        }
    }
    drop(ids);
    let graph = Graph::from_csr(offsets, targets)?;
    Ok(Explored { graph, positions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_and_reverse_agree_with_arc_list() {
        let arcs = [(0, 1), (0, 2), (1, 2), (2, 0), (2, 2), (0, 1)];
        let g = Graph::<u32>::from_arcs(4, &arcs).unwrap();
        assert_eq!(g.vertex_count(), 4);
        assert_eq!(g.arc_count(), 6);
        assert_eq!(g.options(0), &[1, 2, 1]);
        assert_eq!(g.options(3), &[] as &[u32]);
        assert_eq!(g.predecessors(1), &[0, 0]);
        assert_eq!(g.predecessors(2), &[0, 1, 2]);
        assert_eq!(g.predecessors(0), &[2]);
        assert_eq!(g.out_degrees(), vec![3, 1, 2, 0]);
    }

    proptest::proptest! {
        #[cfg(feature = "parallel")]
        #[test]
        fn parallel_reverse_equals_sequential(
            (n, arcs) in crate::solve::tests_support::random_graph(200, 2000),
        ) {
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let (o, s) = pool.install(|| reverse_csr(&g.out_offsets, &g.out_targets, true));
            proptest::prop_assert_eq!(&o, &g.in_offsets);
            proptest::prop_assert_eq!(&s, &g.in_sources);
        }
    }

    #[test]
    fn any_graph_picks_the_narrow_width_unless_forced() {
        let (offsets, targets) = (vec![0u32, 2, 3, 3], vec![1u32, 2, 0]);
        let narrow = AnyGraph::from_csr_u32(offsets.clone(), targets.clone(), false).unwrap();
        let wide = AnyGraph::from_csr_u32(offsets, targets, true).unwrap();
        assert!(matches!(narrow, AnyGraph::U32(_)));
        assert!(matches!(wide, AnyGraph::U64(_)));
        assert_eq!(
            AnyGraph::from_csr_u64(vec![0, 2, 3, 3], vec![1, 2, 0], false).unwrap(),
            narrow
        );
        assert_eq!(
            (wide.vertex_count(), wide.arc_count(), wide.id_bytes()),
            (3, 3, 8)
        );
        assert_eq!(narrow.memory_bytes(), 56);
        assert_eq!(wide.memory_bytes(), 112);
        for v in 0..3 {
            assert_eq!(narrow.options_u64(v), wide.options_u64(v));
        }
        assert_eq!(wide.options_u64(0), vec![1, 2]);
        assert!(!needs_u64(MAX_VERTICES, MAX_ARCS));
        assert!(needs_u64(MAX_VERTICES + 1, 0) && needs_u64(0, MAX_ARCS + 1));
        assert!(check_size_for::<u64>(MAX_VERTICES + 1, MAX_ARCS + 1).is_ok());
        assert!(check_size_for::<u64>(1 << 63, 0).is_err());
        let cap = check_size(MAX_VERTICES + 1, 0).unwrap_err();
        assert!(is_id_cap(&cap) && cap.to_string().contains("32-bit ids"));
        assert!(is_id_cap(&check_size(0, MAX_ARCS + 1).unwrap_err()));
        assert!(!is_id_cap(&Error::limit(
            crate::LimitKind::Memory,
            "memory",
            crate::control::LIBRARY_MEMORY_ADVICE
        )));
    }

    #[test]
    fn bad_arrays_are_refused() {
        assert!(Graph::<u32>::from_arcs(2, &[(0, 2)]).is_err());
        assert!(Graph::<u32>::from_csr(vec![], vec![]).is_err());
        assert!(Graph::<u32>::from_csr(vec![0, 2, 1], vec![0]).is_err());
        assert!(Graph::<u32>::from_csr(vec![1, 1], vec![0]).is_err());
    }

    struct Countdown;
    impl Game for Countdown {
        type Position = u32;
        fn options(&self, p: &u32, out: &mut Vec<u32>) -> crate::error::Result<()> {
            out.extend((1..=2).filter(|&k| k <= *p).map(|k| p - k));
            Ok(())
        }
    }

    #[test]
    fn explore_numbers_positions_breadth_first_and_enforces_the_limit() {
        let e = explore(&Countdown, &[5], 100, &Control::none()).unwrap();
        assert_eq!(e.positions, vec![5, 4, 3, 2, 1, 0]);
        assert_eq!(e.graph.arc_count(), 9);
        assert_eq!(e.graph.options(0), &[1, 2]);
        assert_eq!(e.id_of(&0), Some(5));
        assert!(matches!(
            explore(&Countdown, &[5], 5, &Control::none()),
            Err(Error::Limit(_))
        ));
    }
}
