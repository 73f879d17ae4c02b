//! Grundy values of acyclic games: `g(v) = mex { g(w) : w option of v }` (Sprague 1935,
//! Grundy 1939), for implicit games by memoised depth-first search and for explicit graphs by
//! a pass in reverse topological order.
//!
//! Both run without recursion, so depth is limited by memory, not by the call stack (a chain of
//! 10^7 positions is solved). A cycle makes `g` undefined: both report [`Error::Invalid`]
//! naming a position on the cycle; the generalized function of [`super::loopy`] handles cycles.

use crate::control::{Control, Reservation};
use crate::error::{Error, Result};
use crate::game::graph::{Graph, VertexId};
use crate::game::hash::FxHashMap;
use crate::game::mex;
use crate::game::Game;
use std::fmt::Debug;

/// Memo entry of a position whose value is being computed (it is on the search path).
const ON_PATH: u64 = u64::MAX;

/// A memoised Grundy-value solver for an acyclic implicit game.
///
/// `value(p)` explores the positions below `p` depth first with an explicit stack: a frame
/// holds a position and the range of its options in a shared arena; a frame's options are
/// looked up one by one, unknown ones pushed as new frames, and when all are known the frame's
/// value is the mex of theirs. Meeting a position that is on the path is meeting a cycle.
///
/// **Memory.** Besides the count limit, the memo table is charged to the memory budget of the
/// [`Control`] of the first call that stores values, at [`AcyclicSolver::ENTRY_BYTES`] bytes an
/// entry (the key and value inline, and the hash table's spare capacity and control bytes),
/// in steps of [`CHARGE_EVERY`] entries; a budget exceeded is [`Error::Limit`] of kind
/// [`LimitKind::Memory`](crate::LimitKind::Memory). Heap data owned by a position (a `Vec` inside
/// it) is not counted: games whose positions own large buffers should budget them themselves.
pub struct AcyclicSolver<G: Game> {
    game: G,
    memo: FxHashMap<G::Position, u64>,
    max_positions: usize,
    charged: Option<Reservation>,
}

/// How many memo entries are charged to the memory budget at a time.
pub const CHARGE_EVERY: usize = 4096;

struct Frame<P> {
    position: P,
    start: usize,
    end: usize,
    next: usize,
}

impl<G: Game> AcyclicSolver<G>
where
    G::Position: Debug,
{
    /// A solver that stores at most `max_positions` values (beyond that: [`Error::Limit`]).
    pub fn new(game: G, max_positions: usize) -> Self {
        AcyclicSolver {
            game,
            memo: FxHashMap::default(),
            max_positions,
            charged: None,
        }
    }

    /// Bytes charged to the memory budget for one memo entry: the position and its value
    /// inline, doubled for the table's load factor and growth.
    pub const ENTRY_BYTES: u64 = 2 * (std::mem::size_of::<G::Position>() as u64 + 8) + 1;

    /// Charges the memory budget for the entries stored so far plus one step, when the table
    /// has outgrown what was charged.
    fn charge(&mut self, ctl: &Control) -> Result<()> {
        let want = (self.memo.len() + CHARGE_EVERY) as u64 * Self::ENTRY_BYTES;
        let what = "the memo table of the Grundy search";
        match &mut self.charged {
            Some(r) if r.bytes() >= want => Ok(()),
            Some(r) => r.resize(want, what),
            None => {
                self.charged = Some(ctl.reserve(want, what)?);
                Ok(())
            }
        }
    }

    /// The number of positions whose value is stored.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// True if no value is stored yet.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The stored value of `p`, if computed.
    pub fn known(&self, p: &G::Position) -> Option<u64> {
        self.memo.get(p).copied().filter(|&v| v != ON_PATH)
    }

    /// The Grundy value of `p`. Fails with [`Error::Invalid`] naming a position on a cycle, or
    /// [`Error::Limit`] when more than the stated number of positions would be stored; after a
    /// failure the values already computed stay valid.
    pub fn value(&mut self, p: &G::Position) -> Result<u64> {
        self.value_with_control(p, &Control::none())
    }

    /// As [`value`](Self::value), reporting the number of positions stored now and then to
    /// `ctl`, which may stop the search (`Err(Error::Cancelled(_))`; the values already stored stay
    /// valid).
    pub fn value_with_control(&mut self, p: &G::Position, ctl: &Control) -> Result<u64> {
        if let Some(v) = self.known(p) {
            return Ok(v);
        }
        let mut frames: Vec<Frame<G::Position>> = Vec::new();
        let mut arena: Vec<G::Position> = Vec::new();
        let mut values: Vec<u64> = Vec::new();
        let mut seen = Vec::new();
        let result = self.search(p, &mut frames, &mut arena, &mut values, &mut seen, ctl);
        if result.is_err() {
            for f in &frames {
                self.memo.remove(&f.position);
            }
        }
        result
    }

    fn open(
        &mut self,
        p: G::Position,
        frames: &mut Vec<Frame<G::Position>>,
        arena: &mut Vec<G::Position>,
        values: &mut Vec<u64>,
        ctl: &Control,
    ) -> Result<()> {
        // Values replace their on-path marks in place, so only opening a position grows the
        // table.
        if self
            .charged
            .as_ref()
            .is_none_or(|r| r.bytes() < (self.memo.len() as u64 + 1) * Self::ENTRY_BYTES)
        {
            self.charge(ctl)?;
        }
        if self.memo.len() >= self.max_positions {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!("more than {} positions would be stored", self.max_positions),
                "raise the position limit (or the memory limit that sets it)",
            ));
        }
        let start = arena.len();
        self.game.options(&p, arena)?;
        values.resize(arena.len(), 0);
        self.memo.insert(p.clone(), ON_PATH);
        frames.push(Frame {
            position: p,
            start,
            end: arena.len(),
            next: start,
        });
        Ok(())
    }

    fn search(
        &mut self,
        p: &G::Position,
        frames: &mut Vec<Frame<G::Position>>,
        arena: &mut Vec<G::Position>,
        values: &mut Vec<u64>,
        seen: &mut Vec<bool>,
        ctl: &Control,
    ) -> Result<u64> {
        self.open(p.clone(), frames, arena, values, ctl)?;
        loop {
            let top = frames.len() - 1;
            let mut child = None;
            {
                let f = &mut frames[top];
                while f.next < f.end {
                    match self.memo.get(&arena[f.next]) {
                        Some(&ON_PATH) => {
                            return Err(Error::invalid(format!(
                                "the game has a cycle through position {:?}; \
                                 use the loopy solver for games with cycles",
                                arena[f.next]
                            )))
                        }
                        Some(&v) => {
                            values[f.next] = v;
                            f.next += 1;
                        }
                        None => {
                            child = Some(arena[f.next].clone());
                            break;
                        }
                    }
                }
            }
            if let Some(q) = child {
                self.open(q, frames, arena, values, ctl)?;
                continue;
            }
            let f = frames.pop().expect("a frame is open");
            let g = mex(&values[f.start..f.end], seen);
            arena.truncate(f.start);
            values.truncate(f.start);
            self.memo.insert(f.position, g);
            if self.memo.len() & 0x3FFF == 0 {
                ctl.check(self.memo.len() as u64)?;
            }
            if frames.is_empty() {
                return Ok(g);
            }
        }
    }
}

/// The Grundy value of one position of an acyclic game (a fresh [`AcyclicSolver`]).
pub fn grundy<G: Game>(game: &G, p: &G::Position, max_positions: usize) -> Result<u64>
where
    G::Position: Debug,
{
    AcyclicSolver::new(game, max_positions).value(p)
}

/// Grundy values of every vertex of an acyclic graph, in reverse topological order: a vertex's
/// counter is its out-degree; terminal vertices come first; when a vertex is valued, each
/// predecessor's counter drops, and a predecessor whose counter reaches 0 has all its options
/// valued and is next. `O(V + E)`. If vertices remain, each has an option that remains, so
/// following such options from any of them must revisit a vertex: that vertex is on a cycle and
/// is named in the [`Error::Invalid`].
///
/// Its three words of `I` a vertex are reserved from the budget of `ctl` before they are
/// allocated.
///
/// Generic over the id width `I`: values are stored in words of `I`, which they fit since a
/// Grundy value is at most the vertex's out-degree (the mex of that many values), itself at most
/// [`VertexId::MAX_ARCS`].
pub fn grundy_of_graph<I: VertexId>(graph: &Graph<I>, ctl: &Control) -> Result<Vec<I>> {
    let n = graph.vertex_count();
    // A counter, a value and a queue slot a vertex, held from the budget while the solver runs
    // (the values it returns are then the caller's).
    let _held = ctl.reserve(3 * I::BYTES * n as u64, "the Grundy values of the graph")?;
    let (zero, one) = (I::zero(), I::one());
    let mut counter = graph.out_degrees();
    let mut value = vec![I::MAX; n];
    let mut queue: Vec<I> = (0..n)
        .filter(|&v| counter[v] == zero)
        .map(I::from_usize)
        .collect();
    let mut scratch: Vec<u64> = Vec::new();
    let mut seen = Vec::new();
    let mut head = 0;
    ctl.check(0)?;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        if head & 0xFFFF == 0 {
            ctl.check(head as u64)?;
        }
        scratch.clear();
        scratch.extend(
            graph
                .options(v)
                .iter()
                .map(|&w| value[w.index()].to_u64_lossless()),
        );
        value[v.index()] = I::from_usize(mex(&scratch, &mut seen) as usize);
        for &u in graph.predecessors(v) {
            counter[u.index()] -= one;
            if counter[u.index()] == zero {
                queue.push(u);
            }
        }
    }
    if queue.len() < n {
        let mut visited = vec![false; n];
        let mut v = I::from_usize(
            (0..n)
                .find(|&v| counter[v] > zero)
                .expect("a vertex remains"),
        );
        while !visited[v.index()] {
            visited[v.index()] = true;
            v = *graph
                .options(v)
                .iter()
                .find(|&&w| counter[w.index()] > zero)
                .expect("a remaining vertex has a remaining option");
        }
        return Err(Error::invalid(format!(
            "the graph has a cycle through vertex {v}; use the loopy solver for games with cycles"
        )));
    }
    Ok(value)
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level Grundy values, for checking the solvers on small games.
pub mod reference {
    use super::*;
    use std::collections::HashMap;
    use std::hash::Hash;

    /// `g(p) = mex { g(q) : q option of p }` by plain recursion with a memo (small games
    /// only: recursion depth is the game's depth).
    pub fn grundy_recursive<G: Game>(game: &G, p: &G::Position) -> u64
    where
        G::Position: Hash,
    {
        fn go<G: Game>(game: &G, p: &G::Position, memo: &mut HashMap<G::Position, u64>) -> u64 {
            if let Some(&v) = memo.get(p) {
                return v;
            }
            let mut opts = Vec::new();
            game.options(p, &mut opts)
                .expect("the reference runs on games that cannot fail");
            let vals: Vec<u64> = opts.iter().map(|q| go(game, q, memo)).collect();
            let g = (0..).find(|x| !vals.contains(x)).expect("mex exists");
            memo.insert(p.clone(), g);
            g
        }
        go(game, p, &mut HashMap::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::examples::NimHeap;
    use crate::solve::tests_support::random_graph;
    use proptest::prelude::*;

    #[test]
    fn the_memo_table_is_charged_to_the_memory_budget() {
        use crate::control::MemoryBudget;
        /// Take one or two tokens: G(n) = n mod 3.
        struct Chain;
        impl Game for Chain {
            type Position = u64;
            fn options(&self, p: &u64, out: &mut Vec<u64>) -> crate::error::Result<()> {
                out.extend((1..=2).filter(|&t| t <= *p).map(|t| p - t));
                Ok(())
            }
        }
        // 100 001 entries of a u64 position need about 3 MB at ENTRY_BYTES each.
        let small = MemoryBudget::new(1 << 20);
        let mut s = AcyclicSolver::new(Chain, 1 << 30);
        let e = s
            .value_with_control(&100_000, &Control::none().with_memory(small.clone()))
            .unwrap_err();
        assert!(
            matches!(&e, Error::Limit(l) if l.kind == crate::LimitKind::Memory),
            "{e:?}"
        );
        assert!(small.used() <= 1 << 20);
        drop(s);
        assert_eq!(
            small.used(),
            0,
            "the solver gives its bytes back when dropped"
        );
        let large = MemoryBudget::new(1 << 26);
        let mut s = AcyclicSolver::new(Chain, 1 << 30);
        let ctl = Control::none().with_memory(large.clone());
        assert_eq!(s.value_with_control(&100_000, &ctl).unwrap(), 100_000 % 3);
        let per_entry = AcyclicSolver::<Chain>::ENTRY_BYTES;
        assert!(large.used() >= 100_001 * per_entry);
        assert!(large.used() <= (100_001 + CHARGE_EVERY as u64 + 1) * per_entry);
    }

    #[test]
    fn nim_heaps_give_their_size() {
        let mut s = AcyclicSolver::new(NimHeap, 1 << 20);
        for h in 0..100 {
            assert_eq!(s.value(&h).unwrap(), h);
        }
    }

    #[test]
    fn a_chain_of_ten_million_needs_no_call_stack() {
        let n = 10_000_000u64;
        let mut s = AcyclicSolver::new(NimChain, n as usize + 1);
        // A chain n → n-1 → … → 0 alternates 0, 1.
        assert_eq!(s.value(&n).unwrap(), n % 2);
        // The same chain as a graph: vertex v ≥ 1 has the one option v - 1.
        let offsets: Vec<u32> = (0..=n as u32 + 1).map(|v| v.saturating_sub(1)).collect();
        let targets: Vec<u32> = (0..n as u32).collect();
        let g = Graph::<u32>::from_csr(offsets, targets).unwrap();
        let vals = grundy_of_graph(&g, &Control::none()).unwrap();
        assert_eq!(vals[n as usize], (n % 2) as u32);
    }

    struct NimChain;
    impl Game for NimChain {
        type Position = u64;
        fn options(&self, p: &u64, out: &mut Vec<u64>) -> crate::error::Result<()> {
            if *p > 0 {
                out.push(p - 1);
            }
            Ok(())
        }
    }

    #[test]
    fn cycles_are_reported_with_a_position_on_them() {
        // 0 → 1 → 2 → 3 → 1, and 0 → 4.
        let g = Graph::<u32>::from_arcs(5, &[(0, 1), (1, 2), (2, 3), (3, 1), (0, 4)]).unwrap();
        let e = grundy_of_graph(&g, &Control::none())
            .unwrap_err()
            .to_string();
        assert!(
            ["vertex 1;", "vertex 2;", "vertex 3;"]
                .iter()
                .any(|s| e.contains(s)),
            "{e}"
        );
        let mut s = AcyclicSolver::new(&g, 100);
        let e = s.value(&0).unwrap_err().to_string();
        assert!(
            ["position 1;", "position 2;", "position 3;"]
                .iter()
                .any(|s| e.contains(s)),
            "{e}"
        );
        // Values off the cycle are still found, and the failed search left nothing behind.
        assert_eq!(s.value(&4).unwrap(), 0);
        assert!(s.known(&1).is_none());
    }

    #[test]
    fn the_position_limit_is_enforced() {
        let mut s = AcyclicSolver::new(NimHeap, 10);
        assert!(matches!(s.value(&50), Err(Error::Limit(_))));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn both_solvers_match_the_recursive_definition_on_random_dags((n, arcs) in random_graph(30, 80)) {
            // Orient every arc downwards to make the graph acyclic.
            let arcs: Vec<(u32, u32)> = arcs
                .into_iter()
                .filter(|(u, v)| u != v)
                .map(|(u, v)| (u.max(v), u.min(v)))
                .collect();
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let by_graph = grundy_of_graph(&g, &Control::none()).unwrap();
            let mut s = AcyclicSolver::new(&g, 1000);
            for v in 0..n as u32 {
                let r = reference::grundy_recursive(&g, &v);
                prop_assert_eq!(s.value(&v).unwrap(), r);
                prop_assert_eq!(by_graph[v as usize] as u64, r);
            }
            // The same graph with 64-bit ids, built from 64-bit arcs, gives the same values.
            let wide: Vec<(u64, u64)> = arcs.iter().map(|&(u, v)| (u.into(), v.into())).collect();
            let h = Graph::<u64>::from_arcs(n, &wide).unwrap();
            let by_wide = grundy_of_graph(&h, &Control::none()).unwrap();
            let narrow: Vec<u64> = by_graph.iter().map(|&x| x.into()).collect();
            prop_assert_eq!(narrow, by_wide);
        }

        #[test]
        fn cycles_are_refused_at_both_widths((n, arcs) in random_graph(30, 60)) {
            let g = Graph::<u32>::from_arcs(n, &arcs).unwrap();
            let h = g.to_width::<u64>().unwrap();
            let (a, b) = (grundy_of_graph(&g, &Control::none()), grundy_of_graph(&h, &Control::none()));
            prop_assert_eq!(a.is_ok(), b.is_ok());
            if let (Ok(a), Ok(b)) = (a, b) {
                prop_assert_eq!(a.into_iter().map(u64::from).collect::<Vec<_>>(), b);
            }
        }
    }
}
