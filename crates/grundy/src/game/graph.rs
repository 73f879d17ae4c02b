//! Explicit game graphs in compact adjacency form.
//!
//! A finite game graph `G = (V, E)` with `V = {0, …, n-1}` is stored twice in compressed sparse
//! row (CSR) form: the options of `v` are `targets[offsets[v] .. offsets[v+1]]`, and the
//! predecessors (positions from which `v` is reached in one move) are the same slice of the
//! reverse arrays. Vertex ids, offsets and targets are `u32`, so a graph costs
//! `8·|E| + 8·(|V|+1)` bytes: 4 bytes an arc and 4 bytes a vertex in each direction. This caps a
//! graph at `2^31 - 2` vertices and `2^31 - 1` arcs (about 2·10^9), beyond what fits in this
//! machine's memory at the rates above; larger inputs are refused with [`Error::Limit`].
//!
//! Arcs may repeat (a multigraph) and may be self-loops; every solver counts an arc with its
//! multiplicity, which changes nothing in the game (a repeated move is the same move).

use super::hash::FxHashMap;
use super::{Game, Retrograde};
use crate::error::{Error, Result};
use crate::solve::{report, Progress};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// The largest number of vertices a [`Graph`] holds: below 2^31, so that solvers can keep a
/// flag bit beside a vertex count or remoteness in one 32-bit word.
pub const MAX_VERTICES: u64 = (1 << 31) - 2;
/// The largest number of arcs a [`Graph`] holds: below 2^31 too, so that an out-degree (a move
/// counter of the solvers) leaves the top bit of a 32-bit word free for a flag. At 12 bytes an
/// arc this is 25 GB, beyond this machine.
pub const MAX_ARCS: u64 = (1 << 31) - 1;

/// A finite directed graph of game positions, with forward and reverse adjacency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    out_offsets: Vec<u32>,
    out_targets: Vec<u32>,
    in_offsets: Vec<u32>,
    in_sources: Vec<u32>,
}

/// Asks the processor to bring the cache line holding `p` closer (a hint: no effect on
/// results, never a fault, whatever the address).
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 is a hint that never faults, whatever the address; SSE is part of the
    // x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// A byte count for messages: `100 B`, `37.5 KiB`, `2.9 GiB` (binary units, one decimal).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// How to raise the memory budget, for limit errors.
pub const RAISE_MEMORY: &str =
    "raise it with --memory (e.g. --memory 16G) or the GRUNDY_MEMORY environment variable";

/// Fails with [`Error::Limit`] unless a graph of this size fits the `u32` representation.
pub fn check_size(vertices: u64, arcs: u64) -> Result<()> {
    if vertices > MAX_VERTICES {
        return Err(Error::limit(
            format!("the graph has {vertices} vertices, above the {MAX_VERTICES} a graph holds"),
            "split the game or solve it as a sum of smaller components",
        ));
    }
    if arcs > MAX_ARCS {
        return Err(Error::limit(
            format!("the graph has {arcs} arcs, above the {MAX_ARCS} a graph holds"),
            "split the game or solve it as a sum of smaller components",
        ));
    }
    Ok(())
}

impl Graph {
    /// Bytes a graph of this size occupies (both directions), for estimates before allocating.
    pub fn bytes_needed(vertices: u64, arcs: u64) -> u64 {
        8 * arcs + 8 * (vertices + 1)
    }

    /// Builds a graph from forward CSR arrays: the options of `v` are
    /// `targets[offsets[v] as usize .. offsets[v + 1] as usize]`. The reverse arrays are built
    /// here (in-degrees counted in parallel, then one counting-sort pass).
    ///
    /// Fails with [`Error::Invalid`] if the arrays are inconsistent (offsets not starting at 0,
    /// decreasing, not ending at `targets.len()`, or a target out of range).
    pub fn from_csr(offsets: Vec<u32>, targets: Vec<u32>) -> Result<Graph> {
        Graph::from_csr_with(offsets, targets, false)
    }

    /// As [`from_csr`](Graph::from_csr), placing the reverse arcs on all threads (atomic slot
    /// cursors, then each predecessor list sorted: the same graph). Measured on the shared
    /// 2-core machine under load, this was about twice *slower* than the sequential placement
    /// (see README, Performance), so the default stays sequential; it pays off only with idle
    /// cores.
    pub fn from_csr_parallel(offsets: Vec<u32>, targets: Vec<u32>) -> Result<Graph> {
        Graph::from_csr_with(offsets, targets, true)
    }

    fn from_csr_with(offsets: Vec<u32>, targets: Vec<u32>, parallel: bool) -> Result<Graph> {
        if offsets.is_empty() {
            return Err(Error::invalid("CSR offsets must hold at least one entry"));
        }
        let n = offsets.len() - 1;
        check_size(n as u64, targets.len() as u64)?;
        if offsets[0] != 0 || offsets[n] as usize != targets.len() {
            return Err(Error::invalid(
                "CSR offsets must start at 0 and end at the number of arcs",
            ));
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::invalid("CSR offsets must be non-decreasing"));
        }
        if targets.par_iter().any(|&t| t as usize >= n) {
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
    pub fn from_arcs(n: usize, arcs: &[(u32, u32)]) -> Result<Graph> {
        check_size(n as u64, arcs.len() as u64)?;
        if let Some(&(u, v)) = arcs
            .iter()
            .find(|&&(u, v)| u as usize >= n || v as usize >= n)
        {
            return Err(Error::invalid(format!(
                "arc {u} -> {v} leaves the vertex range 0..{n}"
            )));
        }
        let mut offsets = vec![0u32; n + 1];
        for &(u, _) in arcs {
            offsets[u as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; arcs.len()];
        for &(u, v) in arcs {
            targets[fill[u as usize] as usize] = v;
            fill[u as usize] += 1;
        }
        Graph::from_csr(offsets, targets)
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
    pub fn options(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.out_targets[self.out_offsets[v] as usize..self.out_offsets[v + 1] as usize]
    }

    /// The predecessors of `v`: the vertices from which `v` is reached in one move.
    #[inline]
    pub fn predecessors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.in_sources[self.in_offsets[v] as usize..self.in_offsets[v + 1] as usize]
    }

    /// Hints the processor to fetch the adjacency offsets and the first predecessors of `v`
    /// (for solvers that know which vertex they will visit a few steps ahead).
    #[inline]
    pub fn prefetch_predecessors(&self, v: u32) {
        prefetch(self.in_offsets.as_ptr().wrapping_add(v as usize));
        let start = self.in_offsets[v as usize] as usize;
        prefetch(self.in_sources.as_ptr().wrapping_add(start));
    }

    /// The number of arcs leaving `v`.
    #[inline]
    pub fn out_degree(&self, v: u32) -> u32 {
        self.out_offsets[v as usize + 1] - self.out_offsets[v as usize]
    }

    /// Out-degrees of all vertices (computed in parallel), the starting move counters of
    /// retrograde analysis.
    pub fn out_degrees(&self) -> Vec<u32> {
        self.out_offsets
            .par_windows(2)
            .map(|w| w[1] - w[0])
            .collect()
    }

    /// Bytes this graph occupies.
    pub fn memory_bytes(&self) -> u64 {
        Graph::bytes_needed(self.vertex_count() as u64, self.arc_count() as u64)
    }

    /// The disjunctive sum `G + H` as an explicit graph on `V(G) × V(H)`: vertex
    /// `(g, h)` has id `g·|V(H)| + h`, and its options are `(g', h)` for `g → g'` and `(g, h')`
    /// for `h → h'`. Used to check the sum rules of the solvers on explicit graphs.
    pub fn sum(&self, other: &Graph) -> Result<Graph> {
        let (n1, n2) = (self.vertex_count() as u64, other.vertex_count() as u64);
        let arcs = self.arc_count() as u64 * n2 + other.arc_count() as u64 * n1;
        check_size(n1 * n2, arcs)?;
        let mut offsets = Vec::with_capacity((n1 * n2 + 1) as usize);
        let mut targets = Vec::with_capacity(arcs as usize);
        offsets.push(0u32);
        for g in 0..n1 as u32 {
            for h in 0..n2 as u32 {
                targets.extend(self.options(g).iter().map(|&g2| g2 * n2 as u32 + h));
                targets.extend(other.options(h).iter().map(|&h2| g * n2 as u32 + h2));
                offsets.push(targets.len() as u32);
            }
        }
        Graph::from_csr(offsets, targets)
    }
}

/// The reverse CSR of a forward CSR: in-degrees counted in parallel (atomic counters), prefix
/// sums, then each source `u` placed in the slot of each of its targets. The result lists the
/// predecessors of each vertex in increasing order, whatever the thread timing: the sequential
/// pass visits sources in increasing order; the parallel one (large graphs, several threads)
/// claims slots with atomic cursors, in any order, then sorts each vertex's slice.
fn reverse_csr(offsets: &[u32], targets: &[u32], parallel: bool) -> (Vec<u32>, Vec<u32>) {
    let n = offsets.len() - 1;
    let cursors: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
    targets.par_chunks(1 << 16).for_each(|chunk| {
        for &t in chunk {
            cursors[t as usize].fetch_add(1, Ordering::Relaxed);
        }
    });
    let mut in_offsets = Vec::with_capacity(n + 1);
    in_offsets.push(0u32);
    let mut acc = 0u32;
    for c in &cursors {
        let degree = c.load(Ordering::Relaxed);
        c.store(acc, Ordering::Relaxed);
        acc += degree;
        in_offsets.push(acc);
    }
    if !parallel || rayon::current_num_threads() < 2 {
        let mut fill: Vec<u32> = cursors.into_iter().map(AtomicU32::into_inner).collect();
        let mut sources = vec![0u32; targets.len()];
        for u in 0..n {
            for &t in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
                let slot = &mut fill[t as usize];
                sources[*slot as usize] = u as u32;
                *slot += 1;
            }
        }
        return (in_offsets, sources);
    }
    let slots: Vec<AtomicU32> = (0..targets.len()).map(|_| AtomicU32::new(0)).collect();
    (0..n).into_par_iter().with_min_len(1 << 12).for_each(|u| {
        for &t in &targets[offsets[u] as usize..offsets[u + 1] as usize] {
            let slot = cursors[t as usize].fetch_add(1, Ordering::Relaxed);
            slots[slot as usize].store(u as u32, Ordering::Relaxed);
        }
    });
    drop(cursors);
    let mut sources: Vec<u32> = slots.into_iter().map(AtomicU32::into_inner).collect();
    // Sort each vertex's predecessors, in pieces of consecutive vertices on all threads.
    let mut pieces: Vec<(usize, &mut [u32])> = Vec::new();
    let mut rest: &mut [u32] = &mut sources;
    let step = n.div_ceil(256).max(1);
    for first in (0..n).step_by(step) {
        let last = (first + step).min(n);
        let len = (in_offsets[last] - in_offsets[first]) as usize;
        let (piece, tail) = rest.split_at_mut(len);
        pieces.push((first, piece));
        rest = tail;
    }
    pieces.into_par_iter().for_each(|(first, piece)| {
        let base = in_offsets[first];
        let last = (first + step).min(n);
        for v in first..last {
            let (a, b) = (in_offsets[v] - base, in_offsets[v + 1] - base);
            piece[a as usize..b as usize].sort_unstable();
        }
    });
    (in_offsets, sources)
}

impl Game for Graph {
    type Position = u32;
    fn options(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(Graph::options(self, *p));
    }
}

impl Retrograde for Graph {
    fn predecessors(&self, p: &u32, out: &mut Vec<u32>) {
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
/// Fails with [`Error::Limit`] when more than `max_positions` positions are reachable.
pub fn explore<G: Game>(
    game: &G,
    starts: &[G::Position],
    max_positions: usize,
    progress: Progress,
) -> Result<Explored<G::Position>> {
    let max_positions = max_positions.min(MAX_VERTICES as usize);
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    let mut positions: Vec<G::Position> = Vec::new();
    let too_many = || {
        Error::limit(
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
        game.options(&positions[next], &mut buf);
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
            report(progress, next as u64);
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
        let g = Graph::from_arcs(4, &arcs).unwrap();
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
        #[test]
        fn parallel_reverse_equals_sequential(
            (n, arcs) in crate::solve::tests_support::random_graph(200, 2000),
        ) {
            let g = Graph::from_arcs(n, &arcs).unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let (o, s) = pool.install(|| reverse_csr(&g.out_offsets, &g.out_targets, true));
            proptest::prop_assert_eq!(&o, &g.in_offsets);
            proptest::prop_assert_eq!(&s, &g.in_sources);
        }
    }

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(human_bytes(100), "100 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }

    #[test]
    fn bad_arrays_are_refused() {
        assert!(Graph::from_arcs(2, &[(0, 2)]).is_err());
        assert!(Graph::from_csr(vec![], vec![]).is_err());
        assert!(Graph::from_csr(vec![0, 2, 1], vec![0]).is_err());
        assert!(Graph::from_csr(vec![1, 1], vec![0]).is_err());
    }

    struct Countdown;
    impl Game for Countdown {
        type Position = u32;
        fn options(&self, p: &u32, out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|&k| k <= *p).map(|k| p - k));
        }
    }

    #[test]
    fn explore_numbers_positions_breadth_first_and_enforces_the_limit() {
        let e = explore(&Countdown, &[5], 100, None).unwrap();
        assert_eq!(e.positions, vec![5, 4, 3, 2, 1, 0]);
        assert_eq!(e.graph.arc_count(), 9);
        assert_eq!(e.graph.options(0), &[1, 2]);
        assert_eq!(e.id_of(&0), Some(5));
        assert!(matches!(
            explore(&Countdown, &[5], 5, None),
            Err(Error::Limit(_))
        ));
    }
}
