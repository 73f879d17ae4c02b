use super::*;
use crate::control::MemoryBudget;
use crate::game::families::cram::reference;
use crate::solve::search::Search;
use crate::solve::table::FIRST_BUCKETS;
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
    let mut e = CramEngine::new(&ctl, table).unwrap();
    e.value(&Shape::from_board(b).unwrap()).unwrap()
}

/// Every board of a few boxes of 12 cells or fewer (every subset of free cells), one engine
/// and one table for all of them, against the definition.
#[test]
fn every_small_board_matches_the_definition() {
    let ctl = Control::none();
    let mut engine = CramEngine::new(&ctl, 1 << 16).unwrap();
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

/// Every set of free cells of each box `(h, w)`.
fn every_shape(boxes: &[(usize, usize)]) -> impl Iterator<Item = Shape> + '_ {
    boxes.iter().flat_map(|&(h, w)| {
        (0u128..1 << (h * w)).map(move |free| Shape {
            bits: free,
            w: w as u8,
            h: h as u8,
        })
    })
}

/// The mirror strategy's claim, checked against the definition on every board it settles.
#[test]
fn mirror_strategy_positions_have_value_zero() {
    let mut memo = HashMap::new();
    let mut settled = 0;
    for s in every_shape(&[(3, 4), (4, 3), (2, 6), (3, 3)]) {
        if s.mirror_zero() {
            settled += 1;
            assert_eq!(
                reference::value(&grid(&s), &mut memo),
                0,
                "{}",
                s.to_board()
            );
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

fn low(n: usize) -> u128 {
    <u128 as Bits>::low(n)
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

/// The transpose by multiplication is the map `(r, c) ↦ (c, r)` cell by cell, on every box of
/// at most 128 cells, in words of both widths: each cell alone, the full box (where every
/// product term is present, so a carry would show) and boxes three cells in four free.
#[test]
fn transpose_by_multiplication_moves_each_cell() {
    fn by_cells(bits: u128, h: usize, w: usize) -> u128 {
        let mut out = 0;
        for r in 0..h {
            for c in 0..w {
                if bits >> (r * w + c) & 1 == 1 {
                    out |= 1 << (c * h + r);
                }
            }
        }
        out
    }
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        u128::from(rng) << 64 | u128::from(rng.rotate_left(29))
    };
    for h in 1..=128usize {
        for w in 1..=128 / h {
            let n = h * w;
            let mut cases: Vec<u128> = (0..n).map(|i| 1 << i).collect();
            cases.push(low(n));
            for _ in 0..8 {
                cases.push(next() & next() & low(n) | next() & low(n));
            }
            for bits in cases {
                let s = Shape {
                    bits,
                    w: w as u8,
                    h: h as u8,
                };
                let t = s.transpose();
                assert_eq!((t.h as usize, t.width()), (w, h));
                assert_eq!(t.bits, by_cells(bits, h, w), "{h}x{w} {bits:#x}");
                if n <= 64 {
                    let t64 = s.narrow::<u64>().transpose();
                    assert_eq!(u128::from(t64.bits), t.bits, "{h}x{w} {bits:#x} in u64");
                }
            }
        }
    }
}

/// The row of a bit without a division is the quotient, for every bit and width.
#[test]
fn rows_without_division_are_quotients() {
    for w in 1..=128 {
        for i in 0..128 {
            assert_eq!(row_of(i, w), i / w, "{i} / {w}");
        }
    }
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

    /// The segments found by carries are those a flood fill along the followed horizontal
    /// edges finds one step at a time, on words of both widths.
    #[test]
    fn segments_by_carries_are_the_flood_fill(
        s in shape(),
        more in any::<u128>(),
        follow in any::<[u128; 3]>(),
        pick in any::<[u128; 2]>(),
    ) {
        // Three cells in four free, seven edges in eight followed, one seed in four cells.
        let w = s.width();
        let p = (s.bits | more) & low(s.h as usize * w);
        let seeds = p & pick[0] & pick[1];
        let right = !<u128 as Bits>::last_col(w) & (follow[0] | follow[1] | follow[2]);
        let mut fill = seeds;
        loop {
            let grown = (fill | (fill & right) << 1 | (fill >> 1 & right)) & p;
            if grown == fill {
                break;
            }
            fill = grown;
        }
        prop_assert_eq!(Rows::new(p, right, w).spans(seeds), fill);
        if s.h as usize * w <= 64 {
            let narrow = Rows::new(p as u64, right as u64, w).spans(seeds as u64);
            prop_assert_eq!(u128::from(narrow), fill);
        }
    }

    /// Every part lies inside the position, has at least two cells and is in canonical form.
    #[test]
    fn parts_are_canonical_pieces_of_the_position(s in shape()) {
        let mut parts = Parts::new();
        Shape::split(s.bits, s.width(), &mut parts);
        let cells: u32 = parts.as_slice().iter().map(Shape::cells).sum();
        prop_assert!(cells <= s.cells());
        for p in parts.as_slice() {
            prop_assert!(p.cells() >= 2);
            prop_assert_eq!(p.canonical(), *p);
        }
    }
}

/// The grid of a shape, for the reference.
fn grid(s: &Shape) -> Vec<Vec<bool>> {
    grid_of(s.h as usize, s.width(), s.bits)
}

/// Every position of a few boxes of up to 16 cells (every subset of free cells): the simplified
/// position, and the xor of the parts of the split, have the value of the position, by the
/// definition. The three simplifications and the squares' twins each change many of them.
#[test]
fn simplifications_keep_the_value() {
    let mut memo = HashMap::new();
    let (mut simplified, mut cut) = (0, 0);
    for s in every_shape(&[(4, 4), (3, 5), (2, 7), (5, 3)]) {
        let (w, free) = (s.width(), s.bits);
        let want = reference::value(&grid(&s), &mut memo);
        let simple = Shape {
            bits: simplify(free, w),
            ..s
        };
        if simple != s {
            simplified += 1;
            assert_eq!(
                reference::value(&grid(&simple), &mut memo),
                want,
                "{}",
                s.to_board()
            );
        }
        if square_cuts(simple.bits, w) != 0 {
            cut += 1;
        }
        let mut parts = Parts::new();
        Shape::split(free, w, &mut parts);
        let got = parts
            .as_slice()
            .iter()
            .fold(0, |x, p| x ^ reference::value(&grid(p), &mut memo));
        assert_eq!(got, want, "{}", s.to_board());
    }
    assert!(
        simplified > 10_000,
        "only {simplified} positions simplified"
    );
    assert!(cut > 100, "only {cut} positions with twins in a square");
}

/// Two equal parts cancel: two separate dominoes leave no part, three leave one.
#[test]
fn equal_parts_cancel() {
    let mut parts = Parts::new();
    Shape::split(0b11011u128, 5, &mut parts);
    assert_eq!(parts.len, 0);
    Shape::split(0b11011011u128, 8, &mut parts);
    assert_eq!(parts.len, 1);
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
        prop_assert_eq!(u64::from(engine_value(&b, 16 * 64)), want, "{} (16 buckets)", b);
    }

    /// Random positions in boxes of up to 6 × 10 (two cells in four free): the engine on `u64`
    /// words with small entries, on `u128` words with narrow and with wide entries, and with a
    /// table of one bucket, agree.
    #[test]
    fn words_and_entries_agree(h in 1usize..=6, w in 1usize..=10, a in any::<u64>(), b in any::<u64>()) {
        let free = u128::from(a ^ b) & low(h * w);
        let s = Shape { bits: free, w: w as u8, h: h as u8 };
        let ctl = Control::none();
        let v64 = CramEngine::<u64>::with_entries(&ctl, 1 << 20, Layout::Small).unwrap().value(&s.narrow()).unwrap();
        let narrow = CramEngine::<u128>::with_entries(&ctl, 1 << 20, Layout::Narrow).unwrap().value(&s).unwrap();
        let wide = CramEngine::<u128>::with_entries(&ctl, 1 << 20, Layout::Wide).unwrap().value(&s).unwrap();
        let tiny = CramEngine::<u64>::with_entries(&ctl, 64, Layout::Small).unwrap().value(&s.narrow()).unwrap();
        prop_assert_eq!(v64, narrow);
        prop_assert_eq!(v64, wide);
        prop_assert_eq!(v64, tiny);
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
        CramEngine::<u64>::new(&ctl, 1 << 10),
        Err(Error::Limit(l)) if l.kind == LimitKind::Memory
    ));
    let ctl = Control::none().with_memory(MemoryBudget::new(64 << 20));
    let e = CramEngine::<u128>::new(&ctl, 1 << 20).unwrap();
    assert_eq!(e.stats().table_bytes, 64 << 14);
    let arrays = ARENA_CAPACITY * std::mem::size_of::<Shape>()
        + PENDING_CAPACITY * std::mem::size_of::<Pending<u128>>();
    assert_eq!(
        ctl.memory().used(),
        (64 << 14) + (STACK_BYTES + arrays) as u64
    );
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

/// Dense random boards in boxes of 30 to 36 cells (seven cells in eight free).
fn dense_board() -> impl Strategy<Value = Board> {
    prop_oneof![Just((5, 6)), Just((3, 11)), Just((4, 8)), Just((3, 12))].prop_flat_map(|(h, w)| {
        (any::<u128>(), any::<u128>(), any::<u128>())
            .prop_map(move |(a, b, c)| board_of(h, w, (a | b | c) & low(h * w)))
    })
}

/// The value of `b` by `n` engines sharing one table ([`parallel`]) with the given archive, the
/// first one alone until its table has `from` bytes.
fn engines_from(n: usize, from: u64, b: &Board, archive: Option<&dyn Archive>) -> Solution {
    let ctl = Control::none();
    let s = Shape::from_board(b).unwrap().narrow::<u64>();
    let setup = Setup::new(b, true, 1 << 22, archive, n);
    parallel::solve_sharing_from(&s, setup, n, from, &ctl).unwrap()
}

/// [`engines_from`], sharing from the first entry on.
fn engines(n: usize, b: &Board, archive: Option<&dyn Archive>) -> Solution {
    engines_from(n, 0, b, archive)
}

/// The value of `b` by one engine.
fn one_engine(b: &Board, archive: Option<&dyn Archive>) -> Solution {
    let ctl = Control::none();
    let s = Shape::from_board(b).unwrap().narrow::<u64>();
    solve_in(&s, Setup::new(b, true, 1 << 22, archive, 1), &ctl).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Two and three engines sharing one table, from the first entry on or once the first
    /// engine's table has doubled, find the value and the winning moves of one engine.
    #[test]
    fn engines_sharing_a_table_agree_with_one(b in dense_board()) {
        let one = one_engine(&b, None);
        for (n, from) in [(2, 0), (3, 0), (2, 2 * FIRST_BUCKETS as u64 * BUCKET_BYTES)] {
            let many = engines_from(n, from, &b, None);
            prop_assert_eq!(one.value, many.value, "{} engines from {}: {}", n, from, b);
            prop_assert_eq!(&one.winning_moves, &many.winning_moves, "{} engines: {}", n, b);
            if from == 0 {
                prop_assert_eq!(many.stats.threads, n as u32);
            }
        }
        prop_assert_eq!(one.stats.threads, 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Boards solved before the first engine's table reaches its sharing size are solved by
    /// that engine alone, with the counts of one engine.
    #[test]
    fn small_boards_are_solved_by_one_engine(b in dense_board()) {
        let one = one_engine(&b, None);
        let alone = engines_from(2, 1 << 40, &b, None);
        prop_assert_eq!(one.value, alone.value);
        prop_assert_eq!(one.stats.positions, alone.stats.positions);
        prop_assert_eq!(one.stats.lookups, alone.stats.lookups);
        prop_assert_eq!(alone.stats.threads, 1);
    }
}

/// An archive in memory that counts what it is asked and told; `cost` overrides
/// [`Archive::min_cost`] when set.
#[derive(Default)]
struct Memo {
    map: std::sync::Mutex<HashMap<Vec<u8>, u64>>,
    hits: std::sync::atomic::AtomicUsize,
    cost: Option<u64>,
}

impl Archive for Memo {
    fn get(&self, key: &[u8]) -> Option<u64> {
        let v = self.map.lock().unwrap().get(key).copied();
        if v.is_some() {
            self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        v
    }
    fn put(&self, key: &[u8], value: u64) {
        self.map.lock().unwrap().insert(key.to_vec(), value);
    }
    fn min_cost(&self) -> u64 {
        self.cost.unwrap_or(ARCHIVE_MIN_COST)
    }
}

/// Only regions whose search stored at least [`Archive::min_cost`] positions are told to the
/// archive: with a threshold of one position every large region searched is told, with the
/// default fewer of them (on 5×6, whose regions of 24 cells or more are all near the board,
/// about half), and the board itself (the costliest search) either way.
#[test]
fn the_archive_is_told_only_costly_regions() {
    let b = Board::empty(5, 6).unwrap();
    let key = archive_key(&Shape::from_board(&b).unwrap().narrow::<u64>().canonical());
    let told = |cost| {
        let memo = Memo {
            cost,
            ..Memo::default()
        };
        assert_eq!(one_engine(&b, Some(&memo)).value, Some(2));
        let map = memo.map.into_inner().unwrap();
        assert_eq!(map.get(&key[..]), Some(&2));
        map
    };
    let (all, costly) = (told(Some(1)), told(None));
    assert!(costly.len() < all.len() && costly.len() > 1);
    assert!(costly.iter().all(|(k, v)| all.get(k) == Some(v)));
}

/// Values told to an archive are regions of at least [`ARCHIVE_MIN_CELLS`] cells with their
/// values by a fresh engine; a second board asks them back and finds its published value, by
/// one engine and by two.
#[test]
fn the_archive_gets_exact_values_of_large_regions() {
    let memo = Memo::default();
    let b = Board::empty(4, 7).unwrap();
    assert_eq!(one_engine(&b, Some(&memo)).value, Some(3));
    let stored: Vec<(Vec<u8>, u64)> = memo.map.lock().unwrap().clone().into_iter().collect();
    assert!(stored.len() > 10, "{} values", stored.len());
    for (k, v) in stored {
        let bits = u128::from_le_bytes(k[2..].try_into().unwrap());
        let s = Shape {
            bits,
            w: k[1],
            h: k[0],
        };
        assert!(s.cells() >= ARCHIVE_MIN_CELLS);
        assert_eq!(s.canonical(), s);
        assert_eq!(u64::from(engine_value(&s.to_board(), 1 << 20)), v);
    }
    // The board itself is in the archive: its value (without the winning moves, which search
    // its options) takes no search.
    let ctl = Control::none();
    let s = Shape::from_board(&b).unwrap().narrow::<u64>();
    let setup = Setup::new(&b, false, 1 << 22, Some(&memo), 1);
    let again = solve_in(&s, setup, &ctl).unwrap();
    assert_eq!(again.value, Some(3));
    assert_eq!(again.stats.positions, 0);
    let b = Board::empty(5, 6).unwrap();
    assert_eq!(one_engine(&b, Some(&memo)).value, Some(2));
    assert_eq!(engines(2, &b, Some(&memo)).value, Some(2));
    assert!(memo.hits.load(std::sync::atomic::Ordering::Relaxed) > 0);
}

/// An archive that counts how often each key is asked about, and says whether values reach it
/// from elsewhere.
struct Asked {
    fed: bool,
    asked: std::sync::Mutex<HashMap<Vec<u8>, u32>>,
}

impl Archive for Asked {
    fn get(&self, key: &[u8]) -> Option<u64> {
        *self.asked.lock().unwrap().entry(key.to_vec()).or_default() += 1;
        None
    }
    fn put(&self, _key: &[u8], _value: u64) {}
    fn fed_from_elsewhere(&self) -> bool {
        self.fed
    }
}

/// An archive that only this engine tells is asked about each region once (its table, large
/// enough to keep every entry, remembers what it learnt since); one fed from elsewhere is asked
/// again when a region is searched again. The values are the published ones either way.
#[test]
fn an_archive_only_this_engine_feeds_is_asked_about_each_region_once() {
    let b = Board::empty(4, 7).unwrap();
    let most = |fed| {
        let a = Asked {
            fed,
            asked: Default::default(),
        };
        assert_eq!(one_engine(&b, Some(&a)).value, Some(3));
        let asked = a.asked.into_inner().unwrap();
        assert!(asked.len() > 10, "{} regions asked about", asked.len());
        asked.into_values().max().unwrap()
    };
    assert_eq!(most(false), 1);
    assert!(most(true) > 1);
}

/// Regions of three rows and fewer than [`NARROW_ORDER_CELLS`] cells ask their options of equal
/// cost fewer moves first: 3×11 and 3×12 search 2,937 and 4,813 positions that way, against
/// 4,303 and 5,567 in the order of generation (docs/performance.md, "Cram beside igsolve"). The
/// bounds leave room for other changes to the engine, not for losing the order.
#[test]
fn narrow_regions_search_fewer_positions_fewer_moves_first() {
    for (cols, value, most) in [(11, 0, 3_500), (12, 1, 5_200)] {
        let b = Board::empty(3, cols).unwrap();
        let s = Shape::from_board(&b).unwrap().narrow::<u64>();
        let sol = solve_in(
            &s,
            Setup::new(&b, false, 1 << 26, None, 1),
            &Control::none(),
        )
        .unwrap();
        assert_eq!(sol.value, Some(value), "3x{cols}");
        assert!(
            sol.stats.positions <= most,
            "3x{cols}: {} positions searched",
            sol.stats.positions
        );
    }
}

/// A directory for table files, the empty 5 × 7 board, its shape and its solution by one
/// engine from scratch.
fn five_by_seven() -> (tempfile::TempDir, Board, Shape<u64>, Solution) {
    let b = Board::empty(5, 7).unwrap();
    let s = Shape::from_board(&b).unwrap().narrow::<u64>();
    let fresh = one_engine(&b, None);
    (tempfile::tempdir().unwrap(), b, s, fresh)
}

/// A search stopped midway saves its table; a run from that file finds the value of a search
/// from scratch and searches fewer positions; with several engines sharing the table too.
#[test]
fn a_search_stopped_midway_resumes_from_its_saved_table() {
    let (dir, b, s, fresh) = five_by_seven();
    assert_eq!(fresh.value, Some(1));
    // One engine (solve_in), then two sharing the table from the start (the rounds of
    // `parallel`), each stopped after 2^15 positions.
    for n in [1, 2] {
        let file = TableFile::new(dir.path().join(format!("t{n}")), &b).unwrap();
        let token = crate::control::CancelToken::new();
        let report = |done: u64| {
            if done >= 1 << 15 {
                token.cancel();
            }
        };
        let ctl = Control::none()
            .with_token(token.clone())
            .with_progress(&report);
        let setup = Setup {
            checkpoint: Some(&file),
            ..Setup::new(&b, true, 1 << 22, None, n)
        };
        let run = |setup: Setup, ctl: &Control| match n {
            1 => solve_in(&s, setup, ctl),
            _ => parallel::solve_sharing_from(&s, setup, n, 0, ctl),
        };
        let stopped = run(setup, &ctl);
        assert!(
            matches!(stopped, Err(Error::Cancelled(_))),
            "{n}: {stopped:?}"
        );
        let written = file.saved().unwrap().unwrap();
        assert_eq!(written, std::fs::metadata(file.path()).unwrap().len());
        assert!(file.info().unwrap().unwrap().entries > 0);

        let resumed = run(setup, &Control::none()).unwrap();
        assert_eq!(resumed.value, fresh.value, "{n} engines");
        assert_eq!(resumed.winning_moves, fresh.winning_moves, "{n} engines");
        assert!(file.entries_read().unwrap() > 0);
        assert!(
            resumed.stats.positions < fresh.stats.positions,
            "{n} engines: {} positions resumed, {} from scratch",
            resumed.stats.positions,
            fresh.stats.positions
        );
        // The finished search saved its table too: a third run answers at once.
        let again = run(setup, &Control::none()).unwrap();
        assert_eq!(again.value, fresh.value);
        assert!(again.stats.positions < resumed.stats.positions);
    }
}

/// A table file that is not a sound table of the board is refused before any search: another
/// board, a changed word, a file cut short, bytes added, a table larger than the run may take.
#[test]
fn a_damaged_or_foreign_table_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let b = Board::empty(4, 7).unwrap();
    let s = Shape::from_board(&b).unwrap().narrow::<u64>();
    let path = dir.path().join("t");
    let file = TableFile::new(&path, &b).unwrap();
    let setup = Setup {
        checkpoint: Some(&file),
        ..Setup::new(&b, false, 1 << 22, None, 1)
    };
    assert_eq!(
        solve_in(&s, setup, &Control::none()).unwrap().value,
        Some(3)
    );
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], board: &Board, table: u64| {
        std::fs::write(&path, bytes).unwrap();
        let file = TableFile::new(&path, board).unwrap();
        let setup = Setup {
            checkpoint: Some(&file),
            ..Setup::new(&b, false, table, None, 1)
        };
        solve_in(&s, setup, &Control::none()).unwrap_err()
    };
    let invalid = |e: Error| matches!(e, Error::Invalid(_));
    assert!(invalid(refused(
        &good,
        &Board::empty(4, 8).unwrap(),
        1 << 22
    )));
    let mut changed = good.clone();
    let mid = changed.len() - 100;
    changed[mid] ^= 4;
    assert!(invalid(refused(&changed, &b, 1 << 22)));
    assert!(invalid(refused(&good[..good.len() - 1], &b, 1 << 22)));
    assert!(invalid(refused(&[&good[..], b"x"].concat(), &b, 1 << 22)));
    assert!(invalid(refused(
        format!("grundy table 1\nabout: {}\n", Cram.show(&b).unwrap()).as_bytes(),
        &b,
        1 << 22
    )));
    assert!(invalid(refused(b"not a table at all", &b, 1 << 22)));
    assert!(matches!(
        refused(&good, &b, FIRST_BUCKETS as u64 * BUCKET_BYTES / 2),
        Error::Limit(_)
    ));
    // The sound file is read again.
    std::fs::write(&path, &good).unwrap();
    assert_eq!(
        solve_in(&s, setup, &Control::none()).unwrap().value,
        Some(3)
    );
    assert!(file.entries_read().is_some());
}

/// Saved every few milliseconds, the table is written between rounds of the engines, which
/// then search on from the board: the value and winning moves are those of one engine, with
/// one engine (routed through the rounds) and with two.
#[test]
fn a_table_saved_periodically_gives_the_same_answer() {
    let (dir, b, s, fresh) = five_by_seven();
    for n in [1, 2] {
        let file = TableFile::new(dir.path().join(format!("t{n}")), &b)
            .unwrap()
            .every(std::time::Duration::from_millis(20));
        let setup = Setup {
            checkpoint: Some(&file),
            ..Setup::new(&b, true, 1 << 22, None, n)
        };
        let run = parallel::solve_sharing_from(&s, setup, n, 0, &Control::none()).unwrap();
        assert_eq!(run.value, fresh.value, "{n} engines");
        assert_eq!(run.winning_moves, fresh.winning_moves, "{n} engines");
        assert!(file.saves() >= 2, "{n} engines: {} saves", file.saves());
        assert!(matches!(file.saved(), Some(Ok(_))));
    }
}

/// The notes of the aspiration at the board's regions, as `(region, k, asked, options)`:
/// `region` is the text before the first colon ("the board" or "region i of n (c cells)"),
/// `asked` the options asked by one engine (several: the sum of `a + b + …`, "by n engines").
fn read_note(note: &str) -> (String, u8, usize, usize) {
    read_note_by(note).0
}

/// [`read_note`] and the options asked by each engine.
fn read_note_by(note: &str) -> ((String, u8, usize, usize), Vec<usize>) {
    read_note_inside(note).0
}

/// [`read_note_by`] and where the searches under the option each engine is asking stand, as
/// `(asked, options)` a level, outermost first (none for an engine that has not said; no
/// entries without the part "inside the option(s) being asked").
#[allow(clippy::type_complexity)]
fn read_note_inside(
    note: &str,
) -> (
    ((String, u8, usize, usize), Vec<usize>),
    Vec<Vec<(usize, usize)>>,
) {
    let number = |s: &str| s.trim().parse::<usize>().unwrap();
    let (note, inside) = match note.split_once("; inside the option") {
        Some((n, rest)) => {
            let (_, each) = rest.split_once(" being asked: ").unwrap();
            let each = each.strip_suffix(" options asked").unwrap();
            let each = each
                .split(" + ")
                .map(|a| {
                    a.split(" > ")
                        .filter(|&l| l != "-")
                        .map(|l| {
                            let (x, y) = l.split_once(" of ").unwrap();
                            (number(x), number(y))
                        })
                        .collect()
                })
                .collect();
            (n, each)
        }
        None => (note, Vec::new()),
    };
    (read_root_note(note), inside)
}

/// [`read_note_by`] of a note without the part about the option being asked.
fn read_root_note(note: &str) -> ((String, u8, usize, usize), Vec<usize>) {
    let number = |s: &str| s.trim().parse::<usize>().unwrap();
    let (head, counts) = note.rsplit_once(": ").unwrap();
    let (asked, rest) = counts.split_once(" of ").unwrap();
    let by: Vec<usize> = asked.split(" + ").map(number).collect();
    let (rest, engines) = match rest.split_once(" options asked by ") {
        Some((r, e)) => (r, number(e.strip_suffix(" engines").unwrap())),
        None => (rest.strip_suffix(" options asked").unwrap(), 1),
    };
    assert_eq!(by.len(), engines, "{note}");
    let options = rest;
    let k = head.rsplit_once("value is ").unwrap().1;
    let region = match head.split_once(": value at least ") {
        Some((region, _)) => region.to_string(),
        None => head
            .strip_prefix("asking whether ")
            .unwrap()
            .strip_suffix(&format!("'s value is {k}"))
            .unwrap()
            .to_string(),
    };
    let asked = by.iter().sum();
    ((region, number(k) as u8, asked, number(options)), by)
}

/// A search notes, for each of the board's regions, the value it asks about and how many of
/// the options left it has asked: the values asked about only grow, "value at least k" is
/// said from the second on, and the last note of each region has asked every option left
/// about the region's value.
#[test]
fn the_aspiration_notes_where_it_stands() {
    // 3×12 with its seventh column blocked: regions of 3×6 (value 4) and 3×5 (value 1).
    let free = (0..36u32)
        .filter(|i| i % 12 != 6)
        .fold(0u128, |b, i| b | 1 << i);
    for (board, regions) in [
        (
            board_of(3, 6, (1 << 18) - 1),
            vec![("the board".to_string(), 4)],
        ),
        (
            board_of(3, 12, free),
            vec![
                ("region 1 of 2 (18 cells)".to_string(), 4),
                ("region 2 of 2 (15 cells)".to_string(), 1),
            ],
        ),
    ] {
        let notes = std::sync::Mutex::new(Vec::new());
        let note = |n: &str| notes.lock().unwrap().push(n.to_string());
        let ctl = Control::none().with_notes(&note);
        let mut e = CramEngine::new(&ctl, 1 << 16).unwrap();
        let v = e.value(&Shape::from_board(&board).unwrap()).unwrap();
        assert_eq!(v, regions.iter().fold(0, |x, r| x ^ r.1));
        let notes = notes.into_inner().unwrap();
        for (region, value) in &regions {
            let mine: Vec<_> = notes
                .iter()
                .filter(|n| {
                    n.starts_with(&format!("{region}:")) || n.contains(&format!(" {region}'s "))
                })
                .map(|n| (n, read_note(n)))
                .collect();
            assert!(!mine.is_empty(), "no note about {region}: {notes:?}");
            for w in mine.windows(2) {
                assert!(w[0].1 .1 <= w[1].1 .1, "{} then {}", w[0].0, w[1].0);
            }
            for (n, (r, k, asked, options)) in &mine {
                assert_eq!(&r, &region, "{n}");
                assert!(asked <= options, "{n}");
                assert_eq!(n.contains("value at least"), *k > 0, "{n}");
            }
            let (_, (_, k, asked, options)) = mine.last().unwrap();
            assert_eq!((*k, asked), (*value, options), "{notes:?}");
        }
        // Without a callback nothing is made.
        let ctl = Control::none();
        let mut e = CramEngine::new(&ctl, 1 << 16).unwrap();
        assert_eq!(e.value(&Shape::from_board(&board).unwrap()).unwrap(), v);
    }
}

/// Where the engines of a round stand: the largest value asked about at a region, and the
/// options each engine at that value has asked.
#[test]
fn root_notes_give_the_engines_furthest_on() {
    let notes = parallel::RootNotes::new(3);
    assert_eq!(notes.furthest(0), None);
    notes.record(0, 0, 1, 5, 40);
    notes.record(1, 0, 2, 3, 39);
    notes.record(2, 1, 4, 9, 12);
    let none = parallel::Inner::default();
    assert_eq!(notes.furthest(0), Some((2, vec![(3, none)], 39)));
    assert_eq!(notes.furthest(1), Some((4, vec![(9, none)], 12)));
    notes.record(0, 0, 2, 7, 38);
    // Three levels under the option kept whole; a level past the last said is not; a level
    // said again drops the ones below it; counts past ten bits are kept at the largest.
    let mut inner = parallel::Inner::default();
    inner.set(1, 1, 1);
    assert_eq!(inner.levels().count(), 0);
    inner.set(0, 5, 60);
    inner.set(1, 2, 58);
    inner.set(2, 3000, 3000);
    inner.set(3, 1, 1);
    assert_eq!(
        inner.levels().collect::<Vec<_>>(),
        [(5, 60), (2, 58), (1023, 1023)]
    );
    notes.record_inner(1, inner);
    assert_eq!(
        notes.furthest(0),
        Some((2, vec![(7, Default::default()), (3, inner)], 39))
    );
    inner.set(0, 6, 60);
    assert_eq!(inner.levels().collect::<Vec<_>>(), [(6, 60)]);
    notes.record_inner(1, Default::default());
    // Counts past 24 bits are kept at the largest.
    notes.record(2, 0, 2, 1 << 30, 1 << 30);
    assert_eq!(
        notes.furthest(0),
        Some((
            2,
            vec![(7, none), (3, none), ((1 << 24) - 1, none)],
            (1 << 24) - 1
        ))
    );
}

/// Two engines sharing one table note the options both have asked: every note reads, each
/// engine's count is at most the options left, and the value found is the largest asked about.
#[test]
fn two_engines_note_the_options_both_asked() {
    let b = Board::empty(5, 6).unwrap();
    let notes = std::sync::Mutex::new(Vec::new());
    let note = |n: &str| notes.lock().unwrap().push(n.to_string());
    let ctl = Control::none().with_notes(&note);
    let s = Shape::from_board(&b).unwrap().narrow::<u64>();
    let setup = Setup::new(&b, false, 1 << 22, None, 2);
    let solved = parallel::solve_sharing_from(&s, setup, 2, 0, &ctl).unwrap();
    assert_eq!(solved.value, Some(2));
    let notes = notes.into_inner().unwrap();
    let read: Vec<_> = notes.iter().map(|n| read_note_by(n)).collect();
    for (n, ((region, _, _, options), by)) in notes.iter().zip(&read) {
        assert_eq!(region, "the board", "{n}");
        assert!(by.iter().all(|a| a <= options), "{n}");
    }
    assert!(read.iter().any(|r| r.1.len() == 2), "{notes:?}");
    assert_eq!(read.iter().map(|r| r.0 .1).max(), Some(2), "{notes:?}");
    // The options of 5×6 have 28 cells: their searches say where they stand, one entry an
    // engine counted in the note, each within its options.
    let mut inside = 0;
    for n in &notes {
        let ((_, by), each) = read_note_inside(n);
        if !each.is_empty() {
            inside += 1;
            assert_eq!(each.len(), by.len(), "{n}");
            assert!(each.iter().flatten().all(|(a, o)| a <= o), "{n}");
            assert!(
                each.iter().all(|l| l.len() <= parallel::INNER_LEVELS),
                "{n}"
            );
        }
    }
    assert!(inside > 0, "{notes:?}");
}

/// The search of an option of the board's region of at least [`INNER_NOTE_CELLS`] cells says
/// where it stands, and so do the searches under it to [`parallel::INNER_LEVELS`] levels:
/// each such note repeats the region's last note, the option's own count of options asked
/// does not fall while its search goes on, a new note of the region drops every level, and
/// each count stays within its options; a region of smaller options never says it.
#[test]
fn the_option_being_asked_notes_where_it_stands() {
    for (rows, cols, inner) in [(5, 7, true), (3, 8, false)] {
        let b = Board::empty(rows, cols).unwrap();
        let notes = std::sync::Mutex::new(Vec::new());
        let note = |n: &str| notes.lock().unwrap().push(n.to_string());
        let ctl = Control::none().with_notes(&note);
        let mut e = CramEngine::new(&ctl, 1 << 20).unwrap();
        e.value(&Shape::from_board(&b).unwrap()).unwrap();
        let notes = notes.into_inner().unwrap();
        let mut last_root: Option<String> = None;
        let mut last_inner: Option<(usize, usize)> = None;
        let (mut said, mut deeper) = (0, 0);
        for n in &notes {
            let (root, each) = read_note_inside(n);
            let head = n.split("; inside").next().unwrap().to_string();
            match each.as_slice() {
                [] => {
                    last_root = Some(head);
                    last_inner = None;
                }
                [levels] => {
                    let (a, o) = &levels[0];
                    assert!(levels.len() <= parallel::INNER_LEVELS, "{n}");
                    assert!(levels.iter().all(|(a, o)| a <= o), "{n}");
                    said += 1;
                    deeper += usize::from(levels.len() > 1);
                    assert!(a <= o, "{n}");
                    assert_eq!(last_root.as_ref(), Some(&head), "{n} after {last_root:?}");
                    if let Some((pa, po)) = last_inner {
                        assert!(po != *o || pa <= *a, "{n} after {pa} of {po}");
                    }
                    last_inner = Some((*a, *o));
                    assert!(root.0 .2 <= root.0 .3, "{n}");
                }
                _ => panic!("one engine, one count: {n}"),
            }
        }
        assert_eq!(said > 0, inner, "{rows}x{cols}: {notes:?}");
        assert_eq!(deeper > 0, inner, "{rows}x{cols}: {notes:?}");
    }
}

/// A board the mirror strategy settles (every even × even one) is answered without a table:
/// value 0, no winning move, nothing charged to the budget; a board it does not settle is
/// searched with one.
#[test]
fn boards_the_mirror_settles_take_no_table() {
    for (rows, cols) in [(2, 2), (4, 10), (6, 6), (8, 8)] {
        let b = Board::empty(rows, cols).unwrap();
        let s = solve(&b, Play::Normal, true, &Control::none()).unwrap();
        assert_eq!(s.value, Some(0), "{rows}x{cols}");
        assert!(s.winning_moves.is_empty());
        assert_eq!((s.stats.table_bytes, s.stats.positions), (0, 0));
        assert_eq!(engine_value(&b, 1 << 16), 0);
    }
    let s = solve(
        &Board::empty(3, 4).unwrap(),
        Play::Normal,
        true,
        &Control::none(),
    )
    .unwrap();
    assert!(s.stats.table_bytes > 0 && s.stats.positions > 0);
    // With a table file the board is searched as any other, so the file is written (and a
    // file of another board refused).
    let dir = tempfile::tempdir().unwrap();
    let b = Board::empty(4, 6).unwrap();
    let file = TableFile::new(dir.path().join("t"), &b).unwrap();
    let s = solve_saving(&b, false, None, &file, &Control::none()).unwrap();
    assert_eq!(s.value, Some(0));
    assert!(matches!(file.saved(), Some(Ok(bytes)) if bytes > 0));
    let b = Board::empty(4, 8).unwrap();
    let other = TableFile::new(dir.path().join("t"), &b).unwrap();
    let refused = solve_saving(&b, false, None, &other, &Control::none());
    assert!(matches!(refused, Err(Error::Invalid(_))), "{refused:?}");
}
