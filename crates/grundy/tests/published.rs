//! Published values, gathered in one place: every fact here comes from the literature, with its
//! source beside it, and is recomputed from scratch by the library's engines.
//!
//! Each table lists the game in grundy's notation, what was published, and where. The tests
//! below the tables only walk them. Values that the engines compare against slow definition-level
//! implementations live beside those engines; this file holds what a researcher can check against
//! a book, a paper or the OEIS.

use grundy::game::families::node_kayles::{BitGraph, NodeKayles};
use grundy::game::families::wythoff::{p_position, Wythoff};
use grundy::heap::HeapGame;
use grundy::nimber::reference::mul_u64;
use grundy::nimber::Nim64;
use grundy::ordinal::nim_mul::ClosureField;
use grundy::pattern::value::{analyze, DEFAULT_MAX};
use grundy::solve::acyclic::AcyclicSolver;
use grundy::solve::nodekayles::{self, petersen, queens};
use grundy::solve::Play;
use grundy::Control;

fn game(name: &str) -> HeapGame {
    name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sequence(name: &str, n: u64) -> Vec<u32> {
    grundy::heap::compute(&game(name), n, &Control::none())
        .unwrap()
        .to_vec()
}

/// Grundy values `G(0), G(1), …` of heap games, as published.
const SEQUENCES: &[(&str, &[u32], &str)] = &[
    (
        "kayles",
        &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6],
        "OEIS A002186; Winning Ways ch. 4",
    ),
    (
        "dawsons-chess",
        &[
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
            4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3,
        ],
        "OEIS A002187 (octal 0.137)",
    ),
    (
        "grundys-game",
        &[
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1,
            2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2,
            1, 3,
        ],
        "OEIS A002188",
    ),
    (
        "squares",
        &[0, 1, 0, 1, 2, 0, 1, 0, 1, 2],
        "subtract-a-square, OEIS A030193",
    ),
    (
        "octal:0.127",
        &[0, 1, 0, 2, 2, 1, 0, 4, 4, 1, 2, 2, 0],
        "OEIS A071464 (Gangolli and Plambeck)",
    ),
    (
        "octal:0.177",
        &[0, 1, 1, 2, 2, 3, 1, 1, 4, 4, 3, 2, 2],
        "OEIS A071435",
    ),
];

/// Eventual periods as published: (game, period, last exception + 1 = first `n` of the periodic
/// part, source). The engines must find each, and prove it where a theorem applies.
const PERIODS: &[(&str, usize, usize, &str)] = &[
    ("kayles", 12, 71, "Guy and Smith 1956; Winning Ways ch. 4"),
    ("dawsons-kayles", 34, 53, "Guy and Smith 1956 (octal 0.07)"),
    ("dawsons-chess", 34, 52, "Guy and Smith 1956 (octal 0.137)"),
    ("sub:1,2,3", 4, 0, "Winning Ways ch. 2"),
    ("sub:2,5,7", 22, 0, "Winning Ways ch. 2"),
];

/// Periods of octal games whose last exception lies far out: (game, period, first `n` of the
/// periodic part, source). Checked on the computed sequence (a few times past the exception).
const LATE_PERIODS: &[(&str, usize, usize, &str)] = &[
    (
        "octal:0.127",
        4,
        46_578,
        "Gangolli and Plambeck 1989 (OEIS A071464): last exception at 46577",
    ),
    (
        "octal:0.177",
        20,
        497,
        "OEIS A071435: last exception at 496",
    ),
];

/// Lenstra's excesses: `α_p = κ_p^p = κ_(f(p)) + m_p` in the nim field below `ω^(ω^ω)`, `f(p)`
/// the order of 2 modulo `p`; `(p, m_p)` for the odd primes to 137 (Lenstra, "On the algebraic
/// closure of two", 1977; OEIS A380496).
const EXCESSES: &[(u64, u64)] = &[
    (3, 0),
    (5, 0),
    (7, 1),
    (11, 1),
    (13, 0),
    (17, 0),
    (19, 4),
    (23, 1),
    (29, 0),
    (31, 1),
    (37, 0),
    (41, 1),
    (43, 1),
    (47, 1),
    (53, 1),
    (59, 1),
    (61, 0),
    (67, 0),
    (71, 0),
    (73, 1),
    (79, 1),
    (83, 1),
    (89, 1),
    (97, 0),
    (101, 1),
    (103, 0),
    (107, 1),
    (109, 0),
    (113, 0),
    (127, 1),
    (131, 0),
    (137, 1),
];

/// Orders of misère quotients: (game, largest heap, order, source).
const MISERE_ORDERS: &[(&str, u64, usize, &str)] = &[
    (
        "octal:0.75",
        40,
        8,
        "Plambeck and Siegel, Misère quotients for impartial games (2008): R8",
    ),
    (
        "dawsons-kayles",
        30,
        360,
        "Siegel, Some MisereSolver questions answered (2007)",
    ),
];

#[test]
fn grundy_sequences() {
    for &(name, want, source) in SEQUENCES {
        let got = sequence(name, want.len() as u64);
        assert_eq!(got, want, "{name} ({source})");
    }
    // Dawson's Kayles 0.07 is Dawson's Chess 0.137 shifted by one heap.
    let chess = sequence("dawsons-chess", 3000);
    let kayles = sequence("dawsons-kayles", 3000);
    assert_eq!(kayles[0], 0);
    assert!((1..3000).all(|n| kayles[n] == chess[n - 1]));
}

#[test]
fn periods_are_found_and_proved() {
    for &(name, period, from, source) in PERIODS {
        let a = analyze(&game(name), DEFAULT_MAX, &Control::none()).unwrap();
        let p = a
            .period
            .unwrap_or_else(|| panic!("{name}: no period ({source})"));
        assert_eq!(
            (p.period, p.preperiod, a.proved),
            (period, from, true),
            "{name} ({source})"
        );
    }
}

#[test]
fn late_periods_of_octal_games() {
    for &(name, period, from, source) in LATE_PERIODS {
        let s = sequence(name, (from + from / 4 + 4 * period) as u64);
        let periodic_from = |n0: usize| (n0..s.len() - period).all(|n| s[n + period] == s[n]);
        assert!(periodic_from(from), "{name} ({source})");
        assert!(
            !periodic_from(from - 1),
            "{name}: exception at {} ({source})",
            from - 1
        );
    }
}

/// Wythoff's game (Wythoff 1907; Winning Ways ch. 3): rows 0 to 2 of the Grundy table, and the
/// P-positions `(⌊nφ⌋, ⌊nφ²⌋)`.
#[test]
fn wythoff() {
    let mut s = AcyclicSolver::new(Wythoff, 1 << 20);
    let row = |s: &mut AcyclicSolver<Wythoff>, a: u64| -> Vec<u64> {
        (0..12).map(|b| s.value(&(a, b)).unwrap()).collect()
    };
    assert_eq!(row(&mut s, 0), (0..12).collect::<Vec<u64>>());
    assert_eq!(row(&mut s, 1), [1, 2, 0, 4, 5, 3, 7, 8, 6, 10, 11, 9]);
    assert_eq!(row(&mut s, 2), [2, 0, 1, 5, 3, 4, 8, 6, 7, 11, 9, 10]);
    assert_eq!(
        (0..8).map(p_position).collect::<Vec<_>>(),
        [
            (0, 0),
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18)
        ]
    );
    for a in 0..40u64 {
        for b in 0..40u64 {
            let p = (0..40)
                .map(p_position)
                .any(|(x, y)| (a, b) == (x, y) || (a, b) == (y, x));
            assert_eq!(s.value(&(a, b)).unwrap() == 0, p, "({a}, {b})");
        }
    }
}

/// Nim products (Conway, On Numbers and Games ch. 6): the row of 8 (OEIS A051775), the squares
/// of the Fermat 2-powers `F ⊗ F = 3F/2`, and a published square root.
#[test]
fn nim_products() {
    let row8: Vec<u64> = (1..=16).map(|n| mul_u64(8, n)).collect();
    assert_eq!(
        row8,
        [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128]
    );
    for k in 0..6 {
        let f = 1u64 << (1 << k);
        assert_eq!(Nim64(f) * Nim64(f), Nim64(f + f / 2), "2^(2^{k}) squared");
    }
    // Library Checker "Nim Product" examples: the square root of 123456789.
    assert_eq!(Nim64(98433322) * Nim64(98433322), Nim64(123456789));
    assert_eq!(Nim64(123456789).sqrt(), Nim64(98433322));
}

#[test]
fn lenstra_excesses() {
    let mut field = ClosureField::<Nim64>::new();
    for &(p, m) in EXCESSES {
        assert_eq!(field.excess(p).unwrap().m, m, "m_{p} (OEIS A380496)");
    }
}

#[test]
fn misere_quotient_orders() {
    for &(name, max_heap, order, source) in MISERE_ORDERS {
        let q = grundy::misere::quotient(&game(name), max_heap, &Control::none()).unwrap();
        assert_eq!(q.order(), order, "{name} to heap {max_heap} ({source})");
    }
}

/// Node-Kayles on the `3 × n` grid, `n = 1, …, 16`: OEIS A316632 (Brown, Daugherty, Fiorini et
/// al., "Nimber sequences of Node-Kayles games", J. Integer Sequences 23, 2020).
const NODE_KAYLES_3XN: [u64; 16] = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3];

/// Node-Kayles on the generalized Petersen graph `P(n, 2)`, `n = 5, …, 26`: OEIS A316533.
const NODE_KAYLES_PETERSEN: [u64; 22] = [
    1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
];

/// Node-Kayles on the `n × n` queens graph (the non-attacking queens game), `n = 0, …, 11`:
/// OEIS A344227 (Noon and Van Brummelen, "The non-attacking queens game", College Math. J.
/// 37, 2006, for `n ≤ 10`).
const NODE_KAYLES_QUEENS: [u64; 12] = [0, 1, 1, 2, 1, 3, 1, 2, 3, 1, 0, 1];

fn node_kayles(g: BitGraph) -> u64 {
    let s = nodekayles::solve(
        &NodeKayles::default(),
        &g,
        Play::Normal,
        false,
        &Control::none(),
    );
    s.unwrap().value.unwrap()
}

#[test]
fn node_kayles_on_3xn_grids() {
    for (i, &want) in NODE_KAYLES_3XN.iter().enumerate() {
        let g = BitGraph::grid(3, i + 1).unwrap();
        assert_eq!(node_kayles(g), want, "3x{}", i + 1);
    }
}

/// `P(n, 2)` to `n = 20` and the queens graphs to `9 × 9` (a second each at most).
#[test]
fn node_kayles_on_petersen_and_queens_graphs() {
    for (i, &want) in NODE_KAYLES_PETERSEN[..16].iter().enumerate() {
        assert_eq!(
            node_kayles(petersen(i + 5, 2).unwrap()),
            want,
            "P({}, 2)",
            i + 5
        );
    }
    for (n, &want) in NODE_KAYLES_QUEENS[..10].iter().enumerate() {
        assert_eq!(node_kayles(queens(n).unwrap()), want, "{n} queens");
    }
}

#[test]
#[ignore = "takes about 1 min of CPU; run with --ignored"]
fn node_kayles_on_the_largest_published_petersen_and_queens_graphs() {
    for (i, &want) in NODE_KAYLES_PETERSEN.iter().enumerate().skip(16) {
        assert_eq!(
            node_kayles(petersen(i + 5, 2).unwrap()),
            want,
            "P({}, 2)",
            i + 5
        );
    }
    for (n, &want) in NODE_KAYLES_QUEENS.iter().enumerate().skip(10) {
        assert_eq!(node_kayles(queens(n).unwrap()), want, "{n} queens");
    }
}
