use super::*;
use crate::control::MemoryBudget;
use crate::game::families::node_kayles::reference;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// Adjacency lists of `g`, for the reference.
fn lists(g: &BitGraph) -> Vec<Vec<usize>> {
    (0..g.len()).map(|u| g.neighbours(u).collect()).collect()
}

/// The vertices of `mask`.
fn set(mask: u128) -> BTreeSet<usize> {
    (0..128).filter(|&v| mask >> v & 1 == 1).collect()
}

/// An engine for `g` with a table of `buckets` buckets.
fn engine<'a>(
    g: &BitGraph,
    ctl: &'a Control<'static>,
    buckets: u64,
) -> NodeKaylesEngine<'a, 'static> {
    NodeKaylesEngine::new(ctl, Masks::new(g).unwrap(), buckets * BUCKET_BYTES).unwrap()
}

/// The graph on `n` vertices with the edges of `bits` (one bit per pair `u < v`, in order).
fn graph_of(n: usize, bits: u64) -> BitGraph {
    let mut edges = Vec::new();
    let mut k = 0;
    for u in 0..n {
        for v in u + 1..n {
            if bits >> k & 1 == 1 {
                edges.push((u, v));
            }
            k += 1;
        }
    }
    BitGraph::from_edges(n, &edges).unwrap()
}

/// Every graph on `n` vertices (every set of edges): the value of the whole graph against the
/// definition, with a table of two buckets (entries replaced all the time) and a roomy one.
fn every_graph_on(n: usize) {
    let ctl = Control::none();
    let pairs = n * (n - 1) / 2;
    for bits in 0..1u64 << pairs {
        let g = graph_of(n, bits);
        let want = reference::value(&lists(&g), &set(low(n)), &mut HashMap::new());
        for buckets in [2, 256] {
            let mut e = engine(&g, &ctl, buckets);
            assert_eq!(
                u64::from(e.value(e.graph.all()).unwrap()),
                want,
                "{n} vertices, edges {bits:b}, {buckets} buckets"
            );
        }
    }
}

#[test]
fn every_graph_of_at_most_six_vertices_matches_the_definition() {
    for n in 1..=6 {
        every_graph_on(n);
    }
}

#[test]
#[ignore = "takes about 2 min of CPU (2^21 graphs, two tables each); run with --ignored"]
fn every_graph_of_seven_vertices_matches_the_definition() {
    every_graph_on(7);
}

/// Every set of cells of a few grids (keyed as grids: cropped, under the box's symmetries)
/// against the definition, with a roomy table and a table of four buckets.
#[test]
fn every_position_of_small_grids_matches_the_definition() {
    let ctl = Control::none();
    for (r, c) in [(3, 4), (4, 3), (2, 6), (1, 8), (3, 3)] {
        let g = BitGraph::grid(r, c).unwrap();
        let masks = Masks::new(&g).unwrap();
        assert_eq!(masks.geometry, Geometry::Grid { cols: c });
        let adj = lists(&g);
        let mut memo = HashMap::new();
        let mut roomy = engine(&g, &ctl, 1 << 12);
        let mut tight = engine(&g, &ctl, 4);
        for mask in 0..1u128 << (r * c) {
            let want = reference::value(&adj, &set(mask), &mut memo);
            assert_eq!(
                u64::from(roomy.value(mask).unwrap()),
                want,
                "{r}x{c} {mask:b}"
            );
            assert_eq!(
                u64::from(tight.value(mask).unwrap()),
                want,
                "{r}x{c} {mask:b}"
            );
        }
    }
}

#[test]
fn grid_keys_are_equal_for_translates_and_reflections() {
    // An L of three cells in a 4 × 5 grid, moved and turned.
    let cell = |r: usize, c: usize| 1u128 << (r * 5 + c);
    let l1 = cell(0, 0) | cell(1, 0) | cell(1, 1);
    let l2 = cell(2, 3) | cell(3, 3) | cell(3, 4);
    let l3 = cell(1, 2) | cell(1, 3) | cell(2, 2);
    assert_eq!(grid_key(l1, 5), grid_key(l2, 5));
    assert_eq!(grid_key(l1, 5), grid_key(l3, 5));
    // A row of three and a column of three.
    let row = cell(0, 0) | cell(0, 1) | cell(0, 2);
    let col = cell(1, 4) | cell(2, 4) | cell(3, 4);
    assert_eq!(grid_key(row, 5), grid_key(col, 5));
    assert_ne!(grid_key(row, 5), grid_key(l1, 5));
}

/// The whole answer (outcome, value, winning moves) equals the generic engine's on grids,
/// cycles, a random graph, generalized Petersen graphs and queens graphs.
#[test]
fn solutions_match_the_generic_engine() {
    let ctl = Control::none();
    let mut graphs = vec![];
    for r in 1..=3 {
        for c in 1..=4 {
            graphs.push(BitGraph::grid(r, c).unwrap());
        }
    }
    for n in 3..=12 {
        graphs.push(BitGraph::cycle(n).unwrap());
    }
    graphs.push(graph_of(7, 0b1011_0110_1110_0101_1011));
    for (n, k) in [(7, 2), (8, 3), (9, 2)] {
        graphs.push(petersen(n, k).unwrap());
    }
    graphs.extend([queens(4).unwrap(), queens(5).unwrap()]);
    let f = NodeKayles::default();
    for g in &graphs {
        let fast = solve(&f, g, Play::Normal, true, &ctl).unwrap();
        let slow =
            crate::solve::search::solve(&f, g, Play::Normal, Settings::new(), true, &ctl).unwrap();
        assert_eq!(fast.value, slow.value, "{g:?}");
        assert_eq!(fast.outcome, slow.outcome, "{g:?}");
        assert_eq!(fast.winning_moves, slow.winning_moves, "{g:?}");
    }
}

/// On a path of `n` vertices, taking vertex `i` leaves paths of `i − 1` and `n − i − 2`
/// vertices (Dawson's Chess, `octal:0.137`); paths are grids of one row, so both keys are
/// checked.
#[test]
fn paths_are_dawsons_chess() {
    let mut chess = vec![0u64];
    for n in 1..=32usize {
        let seen: Vec<u64> = (0..n)
            .map(|i| chess[i.saturating_sub(1)] ^ chess[(n - i).saturating_sub(2)])
            .collect();
        chess.push(crate::game::mex(&seen, &mut Vec::new()));
    }
    let ctl = Control::none();
    for (n, &want) in chess.iter().enumerate().skip(1) {
        for g in [BitGraph::path(n).unwrap(), graph_path_relabelled(n)] {
            // Room for every sub-path (n² / 2 of them under mask keys).
            let mut e = engine(&g, &ctl, 1 << 14);
            assert_eq!(u64::from(e.value(e.graph.all()).unwrap()), want, "path {n}");
        }
    }
}

/// The path `0 – 2 – 4 – … – 5 – 3 – 1` (even vertices, then the odd ones back): no grid.
fn graph_path_relabelled(n: usize) -> BitGraph {
    let order: Vec<usize> = (0..n).step_by(2).chain((1..n).step_by(2).rev()).collect();
    let edges: Vec<(usize, usize)> = order.windows(2).map(|w| (w[0], w[1])).collect();
    BitGraph::from_edges(n, &edges).unwrap()
}

#[test]
fn large_graphs_and_misere_play_go_to_the_generic_engine() {
    assert!(Masks::new(&BitGraph::path(MAX_VERTICES + 1).unwrap()).is_none());
    let ctl = Control::none();
    let f = NodeKayles::default();
    let g = BitGraph::cycle(7).unwrap();
    let s = solve(&f, &g, Play::Misere, false, &ctl).unwrap();
    let mut memo = HashMap::new();
    let win = crate::game::families::reference_misere_win(&f, &g, &mut memo).unwrap();
    assert_eq!(s.outcome == Outcome::N, win);
}

#[test]
fn the_table_is_reserved_from_the_budget() {
    let ctl = Control::none().with_memory(MemoryBudget::new(1 << 20));
    let g = BitGraph::grid(3, 3).unwrap();
    // The stack alone is above the budget.
    assert!(matches!(
        solve(&NodeKayles::default(), &g, Play::Normal, false, &ctl),
        Err(Error::Limit(_))
    ));
    assert_eq!(table_bytes(1 << 30, 2), 64 << 6);
    assert_eq!(table_bytes(1 << 20, 100), 512 << 10);
}

fn random_graph() -> impl Strategy<Value = BitGraph> {
    (8usize..=13, 0.1f64..0.5).prop_flat_map(|(n, p)| {
        proptest::collection::vec(proptest::bool::weighted(p), n * (n - 1) / 2).prop_map(
            move |edges| {
                let bits = edges
                    .iter()
                    .enumerate()
                    .fold(0u64, |b, (i, &e)| b | u64::from(e) << i);
                graph_of(n, bits)
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random graphs of 8 to 13 vertices against the definition.
    #[test]
    fn random_graphs_match_the_definition(g in random_graph()) {
        let ctl = Control::none();
        let mut e = engine(&g, &ctl, 64);
        let all = e.graph.all();
        let want = reference::value(&lists(&g), &set(all), &mut HashMap::new());
        prop_assert_eq!(u64::from(e.value(all).unwrap()), want);
    }
}

/// Every set of vertices of a few graphs with automorphisms (keyed by their least image under
/// them) against the definition, with a roomy table and a table of four buckets: the
/// Petersen graph, the prism, the cube, a cycle and the 3 × 3 queens graph.
#[test]
fn every_position_of_symmetric_graphs_matches_the_definition() {
    let ctl = Control::none();
    for (g, syms) in [
        (petersen(5, 2).unwrap(), 119),
        (petersen(6, 1).unwrap(), 23),
        (petersen(4, 1).unwrap(), 47),
        (BitGraph::cycle(9).unwrap(), 17),
        (queens(3).unwrap(), 15),
    ] {
        let masks = Masks::new(&g).unwrap();
        assert_eq!(masks.geometry, Geometry::Masks);
        assert_eq!(masks.syms.count(), syms, "{g:?}");
        let adj = lists(&g);
        let mut memo = HashMap::new();
        let mut roomy = engine(&g, &ctl, 1 << 12);
        let mut tight = engine(&g, &ctl, 4);
        for mask in 0..1u128 << g.len() {
            let want = reference::value(&adj, &set(mask), &mut memo);
            assert_eq!(u64::from(roomy.value(mask).unwrap()), want, "{mask:b}");
            assert_eq!(u64::from(tight.value(mask).unwrap()), want, "{mask:b}");
        }
    }
}

/// Paths, cycles and cliques are answered from their degrees: the answers against the
/// definition, on such components placed anywhere in a graph of 14 vertices.
#[test]
fn paths_cycles_and_cliques_are_answered_directly() {
    let n = 14;
    let g = BitGraph::empty(n).unwrap();
    let mut masks = Masks::new(&g).unwrap();
    let mut memo = HashMap::new();
    // The vertices in a scrambled order, joined as a path, a cycle or a clique of `k`.
    let order: Vec<usize> = (0..n).map(|i| (i * 5 + 3) % n).collect();
    for k in 1..=n {
        let vs = &order[..k];
        let mut shapes: Vec<Vec<(usize, usize)>> =
            vec![vs.windows(2).map(|w| (w[0], w[1])).collect()];
        if k >= 3 {
            let mut cycle = shapes[0].clone();
            cycle.push((vs[k - 1], vs[0]));
            shapes.push(cycle);
        }
        shapes.push(
            (0..k)
                .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
                .map(|(i, j)| (vs[i], vs[j]))
                .collect(),
        );
        for edges in shapes {
            let h = BitGraph::from_edges(n, &edges).unwrap();
            masks.adj = (0..n)
                .map(|u| h.neighbours(u).fold(0u128, |m, v| m | 1 << v))
                .collect();
            let comp = vs.iter().fold(0u128, |m, &v| m | 1 << v);
            let want = reference::value(&lists(&h), &set(comp), &mut memo);
            memo.clear();
            assert_eq!(
                masks.classify(comp).ok().map(u64::from),
                Some(want),
                "{edges:?}"
            );
        }
    }
    // A star and a triangle with a tail are none of them.
    let star = BitGraph::from_edges(4, &[(0, 1), (0, 2), (0, 3)]).unwrap();
    let tail = BitGraph::from_edges(4, &[(0, 1), (1, 2), (2, 0), (2, 3)]).unwrap();
    for h in [star, tail] {
        assert!(Masks::new(&h).unwrap().classify(0b1111).is_err());
    }
}
