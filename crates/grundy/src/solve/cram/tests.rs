use super::*;
use crate::control::MemoryBudget;
use crate::game::families::cram::reference;
use crate::solve::search::Search;
use proptest::prelude::*;
use std::collections::HashMap;

fn board_of(h: usize, w: usize, free: u128) -> Board {
    let mut b = Board::blocked(h, w).unwrap();
    for i in 0..h * w {
        if free >> i & 1 == 1 {
            b.set_cell(i / w, i % w, true);
        }
    }
    b
}

fn grid_of(h: usize, w: usize, free: u128) -> Vec<Vec<bool>> {
    (0..h)
        .map(|r| (0..w).map(|c| free >> (r * w + c) & 1 == 1).collect())
        .collect()
}

fn generic_value(b: &Board) -> u64 {
    let ctl = Control::none();
    Search::new(&Cram, Settings::new(), &ctl).value(b).unwrap()
}

fn engine_value(b: &Board, table: u64) -> u8 {
    let ctl = Control::none();
    let mut e = Engine::new(&ctl, table).unwrap();
    e.value(&Shape::from_board(b).unwrap()).unwrap()
}

/// Every board of a few boxes of 12 cells or fewer (every subset of free cells), one engine
/// and one table for all of them, against the definition.
#[test]
fn every_small_board_matches_the_definition() {
    let ctl = Control::none();
    let mut engine = Engine::new(&ctl, 1 << 16).unwrap();
    let mut memo = HashMap::new();
    for (h, w) in [(3, 4), (4, 3), (2, 6), (1, 12), (2, 5)] {
        for free in 0u128..1 << (h * w) {
            let want = reference::value(&grid_of(h, w, free), &mut memo);
            let s = Shape {
                bits: free,
                w: w as u8,
                h: h as u8,
            };
            assert_eq!(
                u64::from(engine.value(&s).unwrap()),
                want,
                "{}",
                board_of(h, w, free)
            );
        }
    }
}

/// 1×n strips are Dawson's Kayles (octal 0.07, values of A002187 shifted by one).
#[test]
fn strips_are_dawsons_kayles() {
    let a002187 = [
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
    ];
    for n in 1..a002187.len() {
        let b = Board::empty(1, n).unwrap();
        assert_eq!(engine_value(&b, 1 << 16), a002187[n - 1], "1x{n}");
    }
}

/// The mirror strategy's claim, checked against the definition on every board it settles.
#[test]
fn mirror_strategy_positions_have_value_zero() {
    let mut memo = HashMap::new();
    let mut settled = 0;
    for (h, w) in [(3, 4), (4, 3), (2, 6), (3, 3)] {
        for free in 0u128..1 << (h * w) {
            let s = Shape {
                bits: free,
                w: w as u8,
                h: h as u8,
            };
            if s.mirror_zero() {
                settled += 1;
                assert_eq!(
                    reference::value(&grid_of(h, w, free), &mut memo),
                    0,
                    "{}",
                    s.to_board()
                );
            }
        }
    }
    assert!(settled > 100, "only {settled} boards settled by symmetry");
}

fn images(s: Shape) -> Vec<Shape> {
    let t = s.transpose();
    vec![
        s,
        s.flip_cols(),
        s.flip_rows(),
        s.flip_cols().flip_rows(),
        t,
        t.flip_cols(),
        t.flip_rows(),
        t.flip_cols().flip_rows(),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    (1usize..=11, 1usize..=11)
        .prop_filter("128 cells", |(h, w)| h * w <= 128)
        .prop_flat_map(|(h, w)| {
            any::<u128>().prop_map(move |b| Shape {
                bits: b & low(h * w),
                w: w as u8,
                h: h as u8,
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The canonical form is the same for all eight images, and is itself an image.
    #[test]
    fn canonical_is_invariant(s in shape()) {
        let c = s.canonical();
        prop_assert!(images(s).contains(&c) || images(c).contains(&s));
        for im in images(s) {
            prop_assert_eq!(im.canonical(), c);
        }
    }

    /// The regions hold every cell but the isolated ones, each region once.
    #[test]
    fn regions_cover_the_coverable_cells(s in shape()) {
        let mut parts = Parts::new();
        Shape::split(s.bits, s.width(), &mut parts);
        let cells: u32 = parts.items[..parts.len].iter().map(Shape::cells).sum();
        let b = s.to_board();
        let mut isolated = 0;
        for r in 0..s.h as usize {
            for c in 0..s.w as usize {
                let free = |r: usize, c: usize| r < b.rows() && c < b.cols() && b.is_free(r, c);
                let neighbours = [
                    free(r + 1, c),
                    r > 0 && free(r - 1, c),
                    free(r, c + 1),
                    c > 0 && free(r, c - 1),
                ];
                if free(r, c) && !neighbours.contains(&true) {
                    isolated += 1;
                }
            }
        }
        prop_assert_eq!(cells + isolated, s.cells());
    }
}

fn sparse_board() -> impl Strategy<Value = Board> {
    (1usize..=4, 1usize..=6).prop_flat_map(|(h, w)| {
        (any::<u128>(), any::<u128>()).prop_map(move |(a, b)| board_of(h, w, (a | b) & low(h * w)))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random boards up to 4×6 (three cells in four free): the engine, with a table of 16
    /// buckets (entries overwritten all the time) and a roomy one, against the generic search.
    #[test]
    fn engine_matches_the_generic_search(b in sparse_board()) {
        let want = generic_value(&b);
        prop_assert_eq!(u64::from(engine_value(&b, 1 << 20)), want, "{}", b);
        prop_assert_eq!(u64::from(engine_value(&b, 16 * 48)), want, "{} (16 buckets)", b);
    }
}

/// The winning moves are those of the generic engine.
#[test]
fn winning_moves_match_the_generic_engine() {
    let ctl = Control::none();
    for b in [
        Board::empty(3, 4).unwrap(),
        Board::empty(1, 7).unwrap(),
        Board::empty(3, 5).unwrap(),
    ] {
        let fast = solve(&b, Play::Normal, true, &ctl).unwrap();
        let slow =
            crate::solve::search::solve(&Cram, &b, Play::Normal, Settings::new(), true, &ctl)
                .unwrap();
        assert_eq!(fast.value, slow.value, "{b}");
        assert_eq!(fast.outcome, slow.outcome, "{b}");
        assert_eq!(fast.winning_moves, slow.winning_moves, "{b}");
        assert!(!fast.winning_moves.is_empty() || fast.value == Some(0));
    }
}

/// A board beyond the engine's 128 cells goes to the generic engine, whose line of play is
/// reserved first: 64×64 within 1 GiB stops at once with a memory limit.
#[test]
fn large_boards_stay_within_the_budget() {
    let ctl = Control::none().with_memory(MemoryBudget::new(1 << 30));
    let b = Board::empty(64, 64).unwrap();
    match solve(&b, Play::Normal, false, &ctl) {
        Err(Error::Limit(l)) => assert_eq!(l.kind, LimitKind::Memory),
        other => panic!("{other:?}"),
    }
    assert_eq!(ctl.memory().used(), 0);
    // A long strip beyond 128 cells is still answered (by the generic engine).
    let strip = Board::empty(1, 140).unwrap();
    let s = solve(&strip, Play::Normal, false, &ctl).unwrap();
    assert_eq!(s.value, Some(generic_value(&strip)));
}

/// The table and the stack are reserved from the budget: a budget below them is refused.
#[test]
fn the_table_is_reserved() {
    let ctl = Control::none().with_memory(MemoryBudget::new(1 << 20));
    assert!(matches!(
        Engine::new(&ctl, 1 << 10),
        Err(Error::Limit(l)) if l.kind == LimitKind::Memory
    ));
    let ctl = Control::none().with_memory(MemoryBudget::new(64 << 20));
    let e = Engine::new(&ctl, 1 << 20).unwrap();
    assert_eq!(e.stats().table_bytes, 48 << 14);
    assert_eq!(ctl.memory().used(), (48 << 14) + STACK_BYTES as u64);
}

/// Published values of Cram on empty rectangles (normal play), as collected by Beling
/// (github.com/beling/impartial-games, after Lemoine and Viennot's Glop and Schneider's
/// thesis): rows, columns, value. Even × even boards are 0 by the mirror strategy. Only the
/// boards solved here in about a second each are in the suite.
const PUBLISHED: &[(usize, usize, u8)] = &[
    (4, 4, 0),
    (4, 5, 2),
    (4, 6, 0),
    (4, 7, 3),
    (4, 8, 0),
    (5, 5, 0),
    (5, 6, 2),
    (6, 6, 0),
];

#[test]
fn published_values() {
    let ctl = Control::none();
    for &(r, c, want) in PUBLISHED {
        let s = solve(&Board::empty(r, c).unwrap(), Play::Normal, false, &ctl).unwrap();
        assert_eq!(s.value, Some(u64::from(want)), "{r}x{c}");
    }
}
