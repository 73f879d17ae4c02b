//! The families and the search engine against definition-level brute force, published facts
//! and each other.

use super::chomp::{self, Chomp};
use super::cram::{self, Board, Cram};
use super::node_kayles::{self, BitGraph, NodeKayles};
use super::wythoff::{self, Wythoff};
use super::{reference_misere_win, reference_value};
use crate::control::{Control, MemoryBudget};
use crate::error::{Error, LimitKind};
use crate::game::{Canonical, Show, Structured};
use crate::heap::HeapGame;
use crate::solve::search::{solve, Method, Search, Settings};
use crate::solve::{Outcome, Play};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// Every combination of the engine's switches.
fn all_settings() -> Vec<Settings> {
    let mut out = Vec::new();
    for decompose in [false, true] {
        for symmetry in [false, true] {
            for method in [Method::Mex, Method::Outcome] {
                out.push(
                    Settings::new()
                        .decompose(decompose)
                        .symmetry(symmetry)
                        .method(method),
                );
            }
        }
    }
    out
}

/// The engine's value of `p` under every combination of switches, checked equal, and the
/// common value returned.
fn engine_value<F: Structured>(f: &F, p: &F::Position) -> u64 {
    let ctl = Control::none();
    let values: Vec<u64> = all_settings()
        .into_iter()
        .map(|s| Search::new(f, s, &ctl).value(p).unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] == w[1]), "{p:?}: {values:?}");
    values[0]
}

/// The engine's misère outcome under every combination of switches (checked equal).
fn engine_misere_win<F: Structured>(f: &F, p: &F::Position) -> bool {
    let ctl = Control::none();
    let wins: Vec<bool> = all_settings()
        .into_iter()
        .map(|s| Search::new(f, s, &ctl).misere_win(p).unwrap())
        .collect();
    assert!(wins.windows(2).all(|w| w[0] == w[1]), "{p:?}: {wins:?}");
    wins[0]
}

fn young_diagram() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(1u32..=5, 1..=4).prop_map(|mut rows| {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows
    })
}

fn cram_grid() -> impl Strategy<Value = Vec<Vec<bool>>> {
    (1usize..=4, 1usize..=4).prop_flat_map(|(r, c)| {
        proptest::collection::vec(
            proptest::collection::vec(proptest::bool::weighted(0.8), c),
            r,
        )
    })
}

fn board_of(grid: &[Vec<bool>]) -> Board {
    let mut b = Board::blocked(grid.len(), grid[0].len()).unwrap();
    for (r, row) in grid.iter().enumerate() {
        for (c, &free) in row.iter().enumerate() {
            b.set_cell(r, c, free);
        }
    }
    b
}

fn small_graph() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (0usize..=8).prop_flat_map(|n| {
        let edge = (0..n.max(1), 0..n.max(1));
        (Just(n), proptest::collection::vec(edge, 0..=12))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn chomp_matches_the_definition(rows in young_diagram()) {
        let want = chomp::reference::value(&chomp::reference::cells(&rows), &mut HashMap::new());
        prop_assert_eq!(engine_value(&Chomp, &rows), want);
        let misere = reference_misere_win(&Chomp, &rows, &mut HashMap::new()).unwrap();
        prop_assert_eq!(engine_misere_win(&Chomp, &rows), misere);
    }

    #[test]
    fn cram_matches_the_definition(grid in cram_grid()) {
        let board = board_of(&grid);
        let want = cram::reference::value(&grid, &mut HashMap::new());
        prop_assert_eq!(engine_value(&Cram, &board), want);
        let misere = reference_misere_win(&Cram, &board, &mut HashMap::new()).unwrap();
        prop_assert_eq!(engine_misere_win(&Cram, &board), misere);
    }

    #[test]
    fn node_kayles_matches_the_definition((n, edges) in small_graph()) {
        let edges: Vec<_> = edges.into_iter().filter(|_| n > 0).collect();
        let g = BitGraph::from_edges(n, &edges).unwrap();
        let mut adj = vec![Vec::new(); n];
        for &(u, v) in &edges {
            if u != v {
                adj[u].push(v);
                adj[v].push(u);
            }
        }
        let all: BTreeSet<usize> = (0..n).collect();
        let want = node_kayles::reference::value(&adj, &all, &mut HashMap::new());
        let f = NodeKayles::default();
        prop_assert_eq!(engine_value(&f, &g), want);
        let misere = reference_misere_win(&f, &g, &mut HashMap::new()).unwrap();
        prop_assert_eq!(engine_misere_win(&f, &g), misere);
    }

    /// Graphs of at most 6 vertices get an exact canonical labelling: every relabelling of a
    /// graph has the same canonical form.
    #[test]
    fn node_kayles_canonical_form_is_a_labelling_invariant(
        (n, edges) in (1usize..=6).prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n, 0..n), 0..=10))),
        seed in any::<u64>(),
    ) {
        let mut perm: Vec<usize> = (0..n).collect();
        let mut s = seed;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(i, (s >> 33) as usize % (i + 1));
        }
        let g = BitGraph::from_edges(n, &edges).unwrap();
        let moved: Vec<_> = edges.iter().map(|&(u, v)| (perm[u], perm[v])).collect();
        let h = BitGraph::from_edges(n, &moved).unwrap();
        let f = NodeKayles::default();
        prop_assert_eq!(f.canonical(&g).unwrap(), f.canonical(&h).unwrap());
    }

    #[test]
    fn wythoff_matches_the_definition(a in 0u64..12, b in 0u64..12) {
        let want = reference_value(&Wythoff, &(a, b), &mut HashMap::new()).unwrap();
        prop_assert_eq!(engine_value(&Wythoff, &(a, b)), want);
    }

    /// The engine on sums of heaps agrees with `heap::position` (values from Grundy sequences).
    #[test]
    fn heap_sums_match_heap_position(
        game in prop::sample::select(vec!["octal:0.07", "sub:1,3,4", "grundys-game", "kayles", "divide:2,3"]),
        heaps in proptest::collection::vec(0u64..25, 0..5),
    ) {
        let g: HeapGame = game.parse().unwrap();
        let ctl = Control::none();
        let want = crate::heap::position::normal(&g, &heaps, &ctl).unwrap();
        let p = HeapGame::position(&heaps);
        // Without decomposition the search runs over whole multisets of heaps: small sums only.
        let small = heaps.iter().sum::<u64>() <= 14;
        for s in all_settings().into_iter().filter(|s| s.decompose || small) {
            prop_assert_eq!(Some(Search::new(&g, s, &ctl).value(&p).unwrap()), want.nim_sum);
        }
        // Misère play is searched over whole positions (multisets of heaps): small sums only.
        if small {
            let misere = crate::heap::position::misere(&g, &heaps, &ctl).unwrap();
            let win = engine_misere_win(&g, &p);
            prop_assert_eq!(if win { Outcome::N } else { Outcome::P }, misere.outcome);
        }
    }

    /// The outcome-only search of G + *k says P exactly for k = g(G).
    #[test]
    fn outcome_of_g_plus_star_k(grid in cram_grid(), k in 0u64..5) {
        let board = board_of(&grid);
        let ctl = Control::none();
        let value = cram::reference::value(&grid, &mut HashMap::new());
        for s in all_settings() {
            prop_assert_eq!(Search::new(&Cram, s, &ctl).is_p_with(&board, k).unwrap(), value == k);
        }
    }
}

/// Dawson's Kayles (`octal:0.07`) and Dawson's Chess (`octal:0.137`) values of heaps `0..n`.
fn heap_values(game: &str, n: u64) -> Vec<u64> {
    let g: HeapGame = game.parse().unwrap();
    (0..n)
        .map(|h| crate::solve::acyclic::grundy(&g, &HeapGame::position(&[h]), 1 << 20).unwrap())
        .collect()
}

#[test]
fn one_row_cram_is_dawsons_kayles() {
    let want = heap_values("octal:0.07", 40);
    let ctl = Control::none();
    let mut search = Search::new(&Cram, Settings::new(), &ctl);
    for (n, &g) in want.iter().enumerate().skip(1) {
        let strip = Board::empty(1, n).unwrap();
        assert_eq!(search.value(&strip).unwrap(), g, "1x{n}");
        let column = Board::empty(n, 1).unwrap();
        assert_eq!(search.value(&column).unwrap(), g, "{n}x1");
    }
}

#[test]
fn node_kayles_on_a_path_is_dawsons_chess() {
    let want = heap_values("octal:0.137", 40);
    let ctl = Control::none();
    let f = NodeKayles::default();
    let mut search = Search::new(&f, Settings::new(), &ctl);
    for (n, &g) in want.iter().enumerate() {
        assert_eq!(
            search.value(&BitGraph::path(n).unwrap()).unwrap(),
            g,
            "path {n}"
        );
    }
    // A first move on a cycle of n >= 4 deletes three vertices and leaves a path of n - 3.
    for n in 4..40 {
        let g = search.value(&BitGraph::cycle(n).unwrap()).unwrap();
        assert_eq!(g, u64::from(want[n - 3] == 0), "cycle {n}");
    }
}

#[test]
fn wythoff_p_positions_are_the_beatty_pairs() {
    let ctl = Control::none();
    let mut search = Search::new(&Wythoff, Settings::new(), &ctl);
    let mut beatty = BTreeSet::new();
    for n in 0..40 {
        let (a, b) = wythoff::p_position(n);
        // ⌊nφ⌋ by floating point agrees for these small n.
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        assert_eq!(
            (a, b),
            (
                (n as f64 * phi).floor() as u64,
                (n as f64 * phi * phi).floor() as u64
            )
        );
        beatty.insert((a, b));
        beatty.insert((b, a));
    }
    for a in 0..40 {
        for b in 0..40 {
            let p = search.is_p_with(&(a, b), 0).unwrap();
            assert_eq!(p, beatty.contains(&(a, b)), "({a}, {b})");
        }
    }
}

#[test]
fn every_chomp_rectangle_but_one_cell_is_won_with_a_move_found() {
    let ctl = Control::none();
    for r in 1..=6 {
        for c in 1..=7 {
            let rect = chomp::rectangle(r, c);
            let s = solve(&Chomp, &rect, Play::Normal, Settings::new(), true, &ctl).unwrap();
            if (r, c) == (1, 1) {
                assert_eq!(s.outcome, Outcome::P);
                continue;
            }
            assert_eq!(s.outcome, Outcome::N, "{r}x{c}");
            assert!(!s.winning_moves.is_empty(), "{r}x{c}");
            for m in &s.winning_moves {
                // The position after a winning move is P, by the definition-level reference.
                let rows: Vec<u32> = m.after["chomp:".len()..]
                    .split(',')
                    .map(|x| x.parse().unwrap())
                    .collect();
                let v =
                    chomp::reference::value(&chomp::reference::cells(&rows), &mut HashMap::new());
                assert_eq!(v, 0, "{r}x{c} -> {}", m.after);
            }
        }
    }
}

/// Facts about Cram proved by symmetry: an even × even board is P (the second player mirrors
/// through the centre), an even × odd board is N (the first player takes the two central cells,
/// then mirrors).
#[test]
fn cram_symmetry_theorems() {
    let ctl = Control::none();
    let mut search = Search::new(&Cram, Settings::new(), &ctl);
    for r in 1..=4 {
        for c in 1..=6 {
            if r * c > 20 {
                continue;
            }
            let v = search.value(&Board::empty(r, c).unwrap()).unwrap();
            match (r % 2, c % 2) {
                (0, 0) => assert_eq!(v, 0, "{r}x{c}"),
                (0, 1) | (1, 0) => assert_ne!(v, 0, "{r}x{c}"),
                _ => {}
            }
        }
    }
}

/// The odd × odd boards, which no symmetry argument settles: the engine (every switch) against
/// the definition-level brute force, on the boards the brute force finishes in a moment
/// (3×7 has 94,682 reachable positions). A separate bitmask mex gives the same: 3×3 = 0,
/// 3×5 = 1, 3×7 = 1.
#[test]
fn odd_by_odd_cram_matches_the_definition() {
    for (c, want) in [(3, 0), (5, 1), (7, 1)] {
        let board = Board::empty(3, c).unwrap();
        let reference = reference_value(&Cram, &board, &mut HashMap::new()).unwrap();
        assert_eq!(reference, want, "3x{c} by the definition");
        assert_eq!(engine_value(&Cram, &board), want, "3x{c} by the engine");
    }
}

#[test]
fn winning_moves_lead_to_p_positions() {
    let ctl = Control::none();
    let board = Board::empty(3, 3).unwrap();
    for play in [Play::Normal, Play::Misere] {
        let s = solve(&Cram, &board, play, Settings::new(), true, &ctl).unwrap();
        let mut search = Search::new(&Cram, Settings::new(), &ctl);
        for (_, after, q) in Cram.described_moves(&board).unwrap() {
            let lost = match play {
                Play::Normal => search.value(&q).unwrap() == 0,
                Play::Misere => !search.misere_win(&q).unwrap(),
            };
            assert_eq!(
                lost,
                s.winning_moves.iter().any(|m| m.after == after),
                "{play:?} {after}"
            );
        }
    }
}

#[test]
fn a_tiny_memory_budget_stops_the_search() {
    let ctl = Control::none().with_memory(MemoryBudget::new(1000));
    let err = Search::new(&Cram, Settings::new(), &ctl)
        .value(&Board::empty(4, 4).unwrap())
        .unwrap_err();
    match err {
        Error::Limit(l) => {
            assert_eq!(l.kind, LimitKind::Memory);
            assert!(l.what.contains("the transposition table"), "{}", l.what);
        }
        e => panic!("expected a memory limit, got {e}"),
    }
}

#[test]
fn a_cancelled_search_stops() {
    let token = crate::control::CancelToken::new();
    token.cancel();
    let ctl = Control::none().with_token(token);
    let err = Search::new(&Cram, Settings::new(), &ctl)
        .value(&Board::empty(5, 5).unwrap())
        .unwrap_err();
    assert!(matches!(err, Error::Cancelled(_)));
}

#[cfg(feature = "script")]
mod scripts {
    use super::*;
    use crate::game::families::rules::{Rules, Value};

    /// Dawson's Kayles as a script over arrays of heaps, with `split` and `canonical`,
    /// starting from the heaps 5, 7 and 4.
    const DAWSON: &str = include_str!("../../../../../docs/examples/dawsons-kayles.rhai");

    #[test]
    fn a_script_game_matches_the_heap_game() {
        let ctl = Control::none();
        let rules =
            Rules::compile(DAWSON, "dawson.rhai", crate::script::MAX_OPERATIONS, &ctl).unwrap();
        let want = heap_values("octal:0.07", 13);
        for n in 0..13i64 {
            let p = Value::Array(vec![Value::Int(n)]);
            assert_eq!(engine_value(&rules, &p), want[n as usize], "heap {n}");
        }
        let start = rules.start().unwrap();
        let s = solve(&rules, &start, Play::Normal, Settings::new(), true, &ctl).unwrap();
        assert_eq!(s.value, Some(want[5] ^ want[7] ^ want[4]));
        assert!(!s.winning_moves.is_empty());
        assert!(s
            .winning_moves
            .iter()
            .all(|m| m.after.starts_with("heaps [")));
    }

    /// A position nested past the limit is refused, and dropped, without overflowing the
    /// stack of a test thread (2 MiB), however deep the script built it.
    #[test]
    fn deep_positions_are_refused() {
        let ctl = Control::none();
        let deep = "fn start() { let a = []; for i in 0..20000 { a = [a]; } a } \
                    fn moves(p) { [] }";
        let rules = Rules::compile(deep, "deep.rhai", crate::script::MAX_OPERATIONS, &ctl);
        let e = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || rules.unwrap().start().unwrap_err().to_string())
            .unwrap()
            .join()
            .unwrap();
        assert!(e.contains("nested more than 257 levels"), "{e}");
        // At the limit, a position is taken.
        let mut shallow = crate::script::MAX_VALUE_DEPTH;
        let at = format!("fn start() {{ let a = []; for i in 1..{shallow} {{ a = [a]; }} a }} fn moves(p) {{ [] }}");
        let rules = Rules::compile(&at, "at.rhai", crate::script::MAX_OPERATIONS, &ctl).unwrap();
        let mut p = rules.start().unwrap();
        while let Value::Array(mut a) = p {
            shallow -= 1;
            p = a.pop().unwrap_or(Value::Int(0));
        }
        assert_eq!(shallow, 0);
    }

    /// `show` cannot write control characters into a listing of moves.
    #[test]
    fn shown_positions_carry_no_control_characters() {
        let ctl = Control::none();
        let src = "fn start() { 1 } fn moves(p) { if p > 0 { [0] } else { [] } } \
                   fn show(p) { \"x\\nP 0\\u001b[2J\" + p }";
        let rules = Rules::compile(src, "show.rhai", crate::script::MAX_OPERATIONS, &ctl).unwrap();
        let shown = rules.show(&Value::Int(0)).unwrap();
        assert_eq!(shown, "x\\nP 0\\u{1b}[2J0");
        assert!(!shown.chars().any(char::is_control));
    }

    #[test]
    fn a_looping_script_is_an_error() {
        let ctl = Control::none();
        let src = "fn start() { 0 } fn moves(p) { [1 - p] }";
        let rules = Rules::compile(src, "loop.rhai", 10_000, &ctl).unwrap();
        for s in all_settings() {
            let e = Search::new(&rules, s, &ctl)
                .value(&Value::Int(0))
                .unwrap_err();
            assert!(e.to_string().contains("does not end"), "{e}");
            let e = Search::new(&rules, s, &ctl)
                .misere_win(&Value::Int(0))
                .unwrap_err();
            assert!(e.to_string().contains("does not end"), "{e}");
        }
    }

    #[test]
    fn script_errors_are_values() {
        let ctl = Control::none();
        assert!(Rules::compile("fn start() { 0 }", "x", 1000, &ctl).is_err());
        let rules = Rules::compile("fn start() { 0 } fn moves(p) { 5 }", "x", 1000, &ctl).unwrap();
        let e = Search::new(&rules, Settings::new(), &ctl)
            .value(&Value::Int(0))
            .unwrap_err();
        assert!(
            e.to_string().contains("expected an array of positions"),
            "{e}"
        );
        let rules = Rules::compile(
            "fn start() { 0 } fn moves(p) { [#{a: 1}] }",
            "x",
            1000,
            &ctl,
        )
        .unwrap();
        assert!(Search::new(&rules, Settings::new(), &ctl)
            .value(&Value::Int(0))
            .is_err());
    }
}
