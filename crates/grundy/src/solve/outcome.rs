//! Outcomes (P, N, D) and remoteness of every position of a finite game graph, by retrograde
//! analysis with move counters, in `O(V + E)`.
//!
//! **Definitions.** Under normal play a terminal position (no options) is P: the player to move
//! cannot move and loses. Under misère play a terminal position is N: the player to move has
//! already won, since the previous player made the last move. Otherwise a position is N if some
//! option is P, P if every option is N, and D (a draw: with perfect play the game never ends)
//! if neither can be established, i.e. the least fixpoint of these two rules leaves it open.
//!
//! The *remoteness* `R(v)` (Steinhaus; Smith 1966) is the number of moves to the end when the
//! winner hurries and the loser delays:
//! `R(v) = 0` for terminal `v`; `R(v) = 1 + min { R(w) : w option of v, w is P }` for N `v`
//! (not terminal); `R(v) = 1 + max { R(w) : w option of v }` for P `v` (not terminal); draws have
//! no remoteness. Consequence used below: a non-terminal position's outcome and the parity of its
//! remoteness agree — under normal play P positions have even remoteness and N positions odd;
//! under misère play N positions have even remoteness and P positions odd (by induction: each
//! rule adds 1 to a remoteness of the opposite class).
//!
//! **Algorithm.** Give every position a counter, its out-degree. Label the terminal positions
//! (remoteness 0) and put them in a FIFO queue. Take `v` from the queue; for each predecessor
//! `u` not yet labelled: if `v` is P, label `u` N with `R(u) = R(v) + 1`; if `v` is N, decrement
//! `u`'s counter, and when it reaches 0 (every option of `u` is N) label `u` P with
//! `R(u) = R(v) + 1`. Labels enter the queue in non-decreasing remoteness, so the first P option
//! to reach an N position has the least remoteness (the winner hurries) and the last N option
//! to release a P position has the greatest (the loser delays). Positions never labelled are
//! draws. Each arc is looked at once from its head: `O(V + E)` time, and memory beside the
//! graph of 8 bytes a vertex (one state word, the counter and then the label, and a queue
//! slot); 12 for the parallel solver by layers ([`solve_parallel`]).

use super::{Outcome, Play};
use crate::control::Control;
use crate::error::Result;
use crate::game::graph::{prefetch, AtomicId, Graph, VertexId};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// The outcome and remoteness of every vertex of a graph with ids of type `I`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcomes<I: VertexId = u32> {
    play: Play,
    /// `remoteness + 1`, or 0 for a draw. The outcome follows from the parity (see the module).
    /// A remoteness is below the number of vertices, so it fits `I` with the flag bit free.
    rank: Vec<I>,
}

impl<I: VertexId> Outcomes<I> {
    /// The winning convention these outcomes are for.
    pub fn play(&self) -> Play {
        self.play
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.rank.len()
    }

    /// True for the empty graph.
    pub fn is_empty(&self) -> bool {
        self.rank.is_empty()
    }

    /// The outcome of vertex `v`.
    #[inline]
    pub fn outcome(&self, v: I) -> Outcome {
        outcome_of_rank(self.rank[v.index()], self.play)
    }

    /// The remoteness of `v`, or `None` for a draw.
    #[inline]
    pub fn remoteness(&self, v: I) -> Option<I> {
        self.rank[v.index()].checked_sub(&I::one())
    }

    /// The winning moves from `v` (its P options, the fastest first), empty unless `v` is N.
    pub fn winning_moves(&self, graph: &Graph<I>, v: I) -> Vec<I> {
        if self.outcome(v) != Outcome::N {
            return Vec::new();
        }
        let mut moves: Vec<I> = graph
            .options(v)
            .iter()
            .copied()
            .filter(|&w| self.outcome(w) == Outcome::P)
            .collect();
        moves.sort_by_key(|&w| (self.rank[w.index()], w));
        moves.dedup();
        moves
    }
}

/// Outcome from `remoteness + 1` by the parity rule of the module documentation.
#[inline]
pub(crate) fn outcome_of_rank<I: VertexId>(rank: I, play: Play) -> Outcome {
    if rank == I::zero() {
        return Outcome::D;
    }
    // rank ≥ 1: remoteness = rank - 1 is even iff rank is odd.
    let even = rank & I::one() == I::one();
    match (even, play) {
        (true, Play::Normal) | (false, Play::Misere) => Outcome::P,
        _ => Outcome::N,
    }
}

/// Bytes the solver allocates beside a `Graph<u32>`, for estimates before solving: a state word
/// and a queue slot a vertex, plus (parallel solver) the next layer's pieces or the result array
/// while the state words are released, 4 more bytes a vertex at most.
pub fn bytes_needed(vertices: u64) -> u64 {
    bytes_needed_for::<u32>(vertices)
}

/// As [`bytes_needed`] for ids of type `I`: three words of `I` a vertex.
pub fn bytes_needed_for<I: VertexId>(vertices: u64) -> u64 {
    3 * I::BYTES * vertices
}

/// Holds [`bytes_needed_for`] the vertices of `graph` from the budget of `ctl` while a solver
/// runs (the answer it returns is then the caller's), or the memory limit error naming the
/// outcomes.
fn reserve<I: VertexId>(graph: &Graph<I>, ctl: &Control) -> Result<crate::control::Reservation> {
    let n = graph.vertex_count() as u64;
    ctl.reserve(bytes_needed_for::<I>(n), "solving the graph's outcomes")
}

/// How far ahead in the queue the solver prefetches.
const LOOKAHEAD: usize = 4;

/// Solves every vertex of `graph` (see the module documentation for the algorithm).
/// `ctl` receives the number of vertices labelled so far, and may stop the solver
/// (`Err(Error::Cancelled(_))`); the solver's words ([`bytes_needed_for`]) are reserved from its
/// budget before they are allocated.
///
/// One state word of type `I` a vertex holds either its move counter (unlabelled) or
/// `LABELLED | (remoteness + 1)` with `LABELLED` the top bit [`VertexId::FLAG`], so each arc costs
/// one random memory access; the queue is a plain array of vertex ids (two words a vertex in
/// all). The counter is an out-degree, at most the number of arcs, and the remoteness is below
/// the number of vertices; both caps of `I` are below the top bit
/// ([`VertexId::MAX_VERTICES`], [`VertexId::MAX_ARCS`]), so the flag never collides.
/// This runs on the calling thread: the parallel [`solve_parallel`] gives the same result but
/// is about three times slower on two cores (compare-and-swap on every arc, a barrier a layer;
/// see docs/performance.md).
pub fn solve<I: VertexId>(graph: &Graph<I>, play: Play, ctl: &Control) -> Result<Outcomes<I>> {
    solve_sequential(graph, play, ctl)
}

/// Frontiers smaller than this are processed on the calling thread.
const PARALLEL_FRONTIER: usize = 1 << 12;

/// The retrograde analysis of [`solve`] by layers, on all threads: layer `k` is the set of
/// vertices of remoteness `k`. The FIFO queue of the sequential method processes exactly these
/// layers in order, and a vertex labelled while layer `k` is processed gets remoteness `k + 1`
/// whatever the order within the layer (the first P option to reach an N vertex and the last N
/// option to release a P vertex are both in layer `k`), so the layers can be processed in
/// parallel with the same result. Each state word is updated by compare-and-swap: a P vertex
/// labels an open predecessor N; an N vertex decrements an open predecessor's counter, and the
/// thread that takes it from 1 labels it P. Exactly one thread labels a vertex, and only that
/// thread puts it in the next layer.
pub fn solve_parallel<I: VertexId>(
    graph: &Graph<I>,
    play: Play,
    ctl: &Control,
) -> Result<Outcomes<I>> {
    solve_layers(graph, play, ctl, PARALLEL_FRONTIER)
}

/// [`solve_parallel`] with frontiers cut in pieces of `piece` vertices, frontiers of fewer
/// being processed on the calling thread (small pieces let the tests exercise the parallel
/// path on small graphs).
fn solve_layers<I: VertexId>(
    graph: &Graph<I>,
    play: Play,
    ctl: &Control,
    piece: usize,
) -> Result<Outcomes<I>> {
    let _held = reserve::<I>(graph, ctl)?;
    let piece = piece.max(1);
    let labelled = I::FLAG;
    let (zero, one) = (I::zero(), I::one());
    let state: Vec<I::Atomic> = graph
        .out_degrees()
        .into_iter()
        .map(|d| I::Atomic::new(if d == zero { labelled | one } else { d }))
        .collect();
    let mut queue: Vec<I> = Vec::with_capacity(graph.vertex_count());
    queue.extend(
        (0..graph.vertex_count())
            .map(I::from_usize)
            .filter(|&v| graph.out_degree(v) == zero),
    );
    let visit = |v: I, next: &mut Vec<I>| {
        let r = state[v.index()].load() & !labelled;
        let v_is_p = outcome_of_rank(r, play) == Outcome::P;
        let label = labelled | (r + one);
        for &u in graph.predecessors(v) {
            let word = &state[u.index()];
            let mut s = word.load();
            loop {
                if s & labelled != zero {
                    break;
                }
                let (new, done) = if v_is_p || s == one {
                    (label, true)
                } else {
                    (s - one, false)
                };
                match word.compare_exchange_weak(s, new) {
                    Ok(_) => {
                        if done {
                            next.push(u);
                        }
                        break;
                    }
                    Err(now) => s = now,
                }
            }
        }
    };
    let mut start = 0;
    while start < queue.len() {
        let end = queue.len();
        ctl.check(end as u64)?;
        if end - start < piece {
            let mut next = Vec::new();
            for &v in &queue[start..end] {
                visit(v, &mut next);
            }
            queue.extend(next);
        } else {
            #[cfg(feature = "parallel")]
            let chunks = queue[start..end].par_chunks(piece);
            #[cfg(not(feature = "parallel"))]
            let chunks = queue[start..end].chunks(piece);
            let parts: Vec<Vec<I>> = chunks
                .map(|chunk| {
                    let mut next = Vec::new();
                    for &v in chunk {
                        visit(v, &mut next);
                    }
                    next
                })
                .collect();
            for part in parts {
                queue.extend(part);
            }
        }
        start = end;
    }
    ctl.check(queue.len() as u64)?;
    drop(queue);
    #[cfg(feature = "parallel")]
    let states = state.into_par_iter();
    #[cfg(not(feature = "parallel"))]
    let states = state.into_iter();
    let rank = states
        .map(|s| {
            let s = s.into_inner();
            if s & labelled != zero {
                s & !labelled
            } else {
                zero
            }
        })
        .collect();
    Ok(Outcomes { play, rank })
}

/// The retrograde analysis of [`solve`] on the calling thread, with a FIFO queue.
pub fn solve_sequential<I: VertexId>(
    graph: &Graph<I>,
    play: Play,
    ctl: &Control,
) -> Result<Outcomes<I>> {
    let _held = reserve::<I>(graph, ctl)?;
    let n = graph.vertex_count();
    let labelled = I::FLAG;
    let (zero, one) = (I::zero(), I::one());
    let mut state = graph.out_degrees();
    let mut queue: Vec<I> = Vec::with_capacity(n);
    for (v, s) in state.iter_mut().enumerate() {
        if *s == zero {
            *s = labelled | one;
            queue.push(I::from_usize(v));
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        if head & 0xFFFF == 0 {
            ctl.check(head as u64)?;
        }
        // Memory latency dominates on large graphs: ask for the state words of the
        // predecessors of a vertex a few places ahead in the queue, and for the adjacency
        // offsets of one further ahead, while this one is processed.
        if let Some(&w) = queue.get(head + LOOKAHEAD) {
            for &u in graph.predecessors(w) {
                prefetch(state.as_ptr().wrapping_add(u.index()));
            }
        }
        if let Some(&w) = queue.get(head + 2 * LOOKAHEAD) {
            graph.prefetch_predecessors(w);
        }
        let r = state[v.index()] & !labelled;
        let v_is_p = outcome_of_rank(r, play) == Outcome::P;
        let next = labelled | (r + one);
        for &u in graph.predecessors(v) {
            let s = &mut state[u.index()];
            if *s & labelled != zero {
                continue;
            }
            if v_is_p || *s == one {
                *s = next;
                queue.push(u);
            } else {
                *s -= one;
            }
        }
    }
    ctl.check(queue.len() as u64)?;
    drop(queue);
    #[cfg(feature = "parallel")]
    let states = state.par_iter_mut();
    #[cfg(not(feature = "parallel"))]
    let states = state.iter_mut();
    states.for_each(|s| {
        *s = if *s & labelled != zero {
            *s & !labelled
        } else {
            zero
        };
    });
    Ok(Outcomes { play, rank: state })
}

#[cfg(any(test, feature = "testing"))]
/// Slow methods for checking [`solve`] and for benchmarking against.
pub mod reference {
    use super::*;
    use std::collections::VecDeque;

    /// The least fixpoint of the definition, by synchronous rounds: in round `k` every open
    /// vertex whose options already decide it is labelled, with remoteness `k`, using only labels
    /// of earlier rounds. Round 0 labels the terminal vertices. A vertex is N in round `k` iff
    /// some P option has remoteness `< k` (so `k = 1 +` the least such), P in round `k` iff
    /// all options are N with remoteness `< k` (so `k = 1 +` the greatest): exactly the
    /// definition. `O(V·E)` time.
    pub fn rounds(graph: &Graph, play: Play) -> Vec<(Outcome, Option<u32>)> {
        let n = graph.vertex_count();
        let mut label: Vec<Option<(Outcome, u32)>> = vec![None; n];
        let terminal = match play {
            Play::Normal => Outcome::P,
            Play::Misere => Outcome::N,
        };
        for v in 0..n as u32 {
            if graph.options(v).is_empty() {
                label[v as usize] = Some((terminal, 0));
            }
        }
        let mut k = 1;
        loop {
            let mut new = Vec::new();
            for v in 0..n as u32 {
                if label[v as usize].is_some() {
                    continue;
                }
                let opts = graph.options(v);
                let wins = opts
                    .iter()
                    .any(|&w| matches!(label[w as usize], Some((Outcome::P, _))));
                let loses = opts
                    .iter()
                    .all(|&w| matches!(label[w as usize], Some((Outcome::N, _))));
                if wins {
                    new.push((v, Outcome::N));
                } else if loses {
                    new.push((v, Outcome::P));
                }
            }
            if new.is_empty() {
                break;
            }
            for (v, o) in new {
                label[v as usize] = Some((o, k));
            }
            k += 1;
        }
        label
            .into_iter()
            .map(|l| match l {
                Some((o, r)) => (o, Some(r)),
                None => (Outcome::D, None),
            })
            .collect()
    }

    /// The textbook queue method (the naive baseline of the benchmark): adjacency as a
    /// vector of vectors of predecessors, a `VecDeque`, and separate outcome and remoteness
    /// arrays. Same algorithm as [`solve`], plain data structures.
    pub fn textbook_queue(
        n: usize,
        arcs: &[(u32, u32)],
        play: Play,
    ) -> Vec<(Outcome, Option<u32>)> {
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut degree = vec![0u32; n];
        for &(u, v) in arcs {
            preds[v as usize].push(u);
            degree[u as usize] += 1;
        }
        let mut outcome = vec![Outcome::D; n];
        let mut remoteness: Vec<Option<u32>> = vec![None; n];
        let mut queue = VecDeque::new();
        for v in 0..n {
            if degree[v] == 0 {
                outcome[v] = if play == Play::Normal {
                    Outcome::P
                } else {
                    Outcome::N
                };
                remoteness[v] = Some(0);
                queue.push_back(v);
            }
        }
        while let Some(v) = queue.pop_front() {
            let r = remoteness[v].unwrap_or(0);
            for &u in &preds[v] {
                let u = u as usize;
                if outcome[u] != Outcome::D {
                    continue;
                }
                if outcome[v] == Outcome::P {
                    outcome[u] = Outcome::N;
                    remoteness[u] = Some(r + 1);
                    queue.push_back(u);
                } else {
                    degree[u] -= 1;
                    if degree[u] == 0 {
                        outcome[u] = Outcome::P;
                        remoteness[u] = Some(r + 1);
                        queue.push_back(u);
                    }
                }
            }
        }
        outcome.into_iter().zip(remoteness).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::tests_support::random_graph;
    use proptest::prelude::*;

    /// `f` on a pool of `threads` threads (on the calling thread without the `parallel`
    /// feature).
    fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        #[cfg(feature = "parallel")]
        let r = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(f);
        #[cfg(not(feature = "parallel"))]
        let r = {
            let _ = threads;
            f()
        };
        r
    }

    fn all(o: &Outcomes) -> Vec<(Outcome, Option<u32>)> {
        (0..o.len() as u32)
            .map(|v| (o.outcome(v), o.remoteness(v)))
            .collect()
    }

    #[test]
    fn hand_cases() {
        // a→b→c→a, c→d→e: e is terminal, so P(0); d is N(1); c's options are d (N) and a, which
        // no rule decides, and so on around the cycle: a, b, c are draws.
        let g = Graph::<u32>::from_arcs(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]).unwrap();
        let o = solve(&g, Play::Normal, &Control::none()).unwrap();
        assert_eq!(
            all(&o),
            vec![
                (Outcome::D, None),
                (Outcome::D, None),
                (Outcome::D, None),
                (Outcome::N, Some(1)),
                (Outcome::P, Some(0)),
            ]
        );
        // Misère: e is N(0), d is P(1), c moves to d and wins: N(2); b must move to c: P(3);
        // a moves to b: N(4).
        let m = solve(&g, Play::Misere, &Control::none()).unwrap();
        assert_eq!(
            all(&m),
            vec![
                (Outcome::N, Some(4)),
                (Outcome::P, Some(3)),
                (Outcome::N, Some(2)),
                (Outcome::P, Some(1)),
                (Outcome::N, Some(0)),
            ]
        );
        assert_eq!(m.winning_moves(&g, 2), vec![3]);
        // A lone self-loop is a draw; a self-loop with an exit to a terminal vertex is N(1).
        let g = Graph::<u32>::from_arcs(3, &[(0, 0), (1, 1), (1, 2)]).unwrap();
        let o = solve(&g, Play::Normal, &Control::none()).unwrap();
        assert_eq!(
            all(&o),
            vec![
                (Outcome::D, None),
                (Outcome::N, Some(1)),
                (Outcome::P, Some(0))
            ]
        );
    }

    #[test]
    fn loser_delays_and_winner_hurries() {
        // 0 → 1 → 2 (terminal) and 0 → 2: 0 is N in 1 move (not 2).
        // 3 → {4, 5}, 4 → 6 (terminal), 5 → 7 → 8 → 9 (terminal): 8 is N(1), 7 is P(2), 5 is
        // N(3), 4 is N(1); 3 has only N options and delays: P(4). But check 5 alone: N(3).
        let g = Graph::<u32>::from_arcs(
            10,
            &[
                (0, 1),
                (1, 2),
                (0, 2),
                (3, 4),
                (3, 5),
                (4, 6),
                (5, 7),
                (7, 8),
                (8, 9),
            ],
        )
        .unwrap();
        let o = solve(&g, Play::Normal, &Control::none()).unwrap();
        assert_eq!(o.remoteness(0), Some(1));
        assert_eq!((o.outcome(7), o.remoteness(7)), (Outcome::P, Some(2)));
        assert_eq!((o.outcome(5), o.remoteness(5)), (Outcome::N, Some(3)));
        assert_eq!((o.outcome(3), o.remoteness(3)), (Outcome::P, Some(4)));
        // 0 → {1, 2}, 1 → 3 (terminal), 2 → 4 → 5 → 6 (terminal): 1 is N(1), 2 is N(3); 0 is P
        // and the loser delays through 2: remoteness 4.
        let g =
            Graph::<u32>::from_arcs(7, &[(0, 1), (0, 2), (1, 3), (2, 4), (4, 5), (5, 6)]).unwrap();
        let o = solve(&g, Play::Normal, &Control::none()).unwrap();
        assert_eq!((o.outcome(0), o.remoteness(0)), (Outcome::P, Some(4)));
    }

    #[test]
    fn progress_reports_the_vertices_labelled() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let g = Graph::<u32>::from_arcs(4, &[(0, 1), (1, 2), (3, 3)]).unwrap();
        let last = AtomicU64::new(0);
        let report = |d: u64| last.store(d, Ordering::Relaxed);
        solve(&g, Play::Normal, &Control::none().with_progress(&report)).unwrap();
        assert_eq!(last.load(Ordering::Relaxed), 3);
        crate::solve::loopy::solve(&g, &Control::none().with_progress(&report)).unwrap();
        assert_eq!(last.load(Ordering::Relaxed), 4);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn layers_in_parallel_match_the_queue((n, arcs) in random_graph(300, 3000), misere: bool) {
            let play = if misere { Play::Misere } else { Play::Normal };
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let parallel = with_threads(4, || solve_layers(&g, play, &Control::none(), 2).unwrap());
            prop_assert_eq!(parallel, solve_sequential(&g, play, &Control::none()).unwrap());
        }

        #[test]
        fn retrograde_matches_the_definition((n, arcs) in random_graph(12, 30), misere: bool) {
            let play = if misere { Play::Misere } else { Play::Normal };
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let fast = all(&solve(&g, play, &Control::none()).unwrap());
            prop_assert_eq!(&fast, &reference::rounds(&g, play));
            prop_assert_eq!(&fast, &reference::textbook_queue(n, &arcs, play));
        }

        #[test]
        fn u64_ids_give_the_same_outcomes((n, arcs) in random_graph(200, 1500), misere: bool) {
            let play = if misere { Play::Misere } else { Play::Normal };
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let wide: Vec<(u64, u64)> = arcs.iter().map(|&(u, v)| (u.into(), v.into())).collect();
            let h = Graph::<u64>::from_arcs(n, &wide).unwrap();
            let (narrow, o) = (solve(&g, play, &Control::none()).unwrap(), solve(&h, play, &Control::none()).unwrap());
            prop_assert_eq!(&with_threads(3, || solve_layers(&h, play, &Control::none(), 2).unwrap()), &o);
            for v in 0..n {
                let (v32, v64) = (v as u32, v as u64);
                prop_assert_eq!(narrow.outcome(v32), o.outcome(v64));
                prop_assert_eq!(narrow.remoteness(v32).map(u64::from), o.remoteness(v64));
                let moves: Vec<u64> =
                    narrow.winning_moves(&g, v32).into_iter().map(u64::from).collect();
                prop_assert_eq!(moves, o.winning_moves(&h, v64));
            }
        }
    }
}
