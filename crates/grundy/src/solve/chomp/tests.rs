use super::*;
use crate::control::MemoryBudget;
use crate::game::families::chomp::reference;
use crate::game::families::reference_misere_win;
use proptest::prelude::*;
use std::collections::HashMap;

/// Every staircase `a ≤ s` with `a₀ ≥ 1` (rows of length 0 dropped).
fn below(s: &[u32]) -> Vec<Rows> {
    let mut out = vec![Vec::new()];
    for &limit in s {
        let mut next = Vec::new();
        for a in &out {
            let cap = a.last().copied().unwrap_or(u32::MAX).min(limit);
            for x in 0..=cap {
                let mut b = a.clone();
                b.push(x);
                next.push(b);
            }
        }
        out = next;
    }
    out.into_iter()
        .map(|mut a| {
            while a.last() == Some(&0) {
                a.pop();
            }
            a
        })
        .filter(|a| !a.is_empty())
        .collect()
}

fn engine(start: &[u32], play: Play) -> ChompEngine {
    ChompEngine::solve(start, play, &Control::none())
        .unwrap()
        .expect("the box fits")
}

fn generic(rows: &Rows, play: Play) -> Solution {
    crate::solve::search::solve_here(&Chomp, rows, play, Settings::new(), true, &Control::none())
        .unwrap()
}

#[test]
fn ranks_number_the_staircases_of_a_box_in_lexicographic_order() {
    for (r, c) in [(1, 5), (3, 4), (4, 3), (5, 5)] {
        let ranks = Ranks::new(r, c, u64::MAX).unwrap();
        // Every staircase of the box, rows of length 0 included, in lexicographic order.
        let mut all: Vec<Vec<u32>> = vec![Vec::new()];
        for _ in 0..r {
            all = all
                .iter()
                .flat_map(|a| {
                    let cap = a.last().copied().unwrap_or(c as u32);
                    (0..=cap).map(move |x| {
                        let mut b = a.clone();
                        b.push(x);
                        b
                    })
                })
                .collect();
        }
        all.sort();
        assert_eq!(all.len() as u64, ranks.count());
        assert_eq!(ranks.count(), binomial((r + c) as u64, r as u64).unwrap());
        for (i, a) in all.iter().enumerate() {
            assert_eq!(ranks.rank(a), i as u64, "{a:?} in {r}x{c}");
        }
    }
}

#[test]
fn binomials_are_exact_or_refused() {
    assert_eq!(binomial(16, 8), Some(12870));
    assert_eq!(binomial(43, 3), Some(12341));
    assert_eq!(binomial(3, 5), Some(0));
    assert_eq!(binomial(66, 33), Some(7_219_428_434_016_265_740));
    assert_eq!(binomial(68, 34), None);
}

/// The whole array of a 6 × 6 box and of 4 × 8 (every staircase below, 923 and 494 of them)
/// against the definition, in both plays.
#[test]
fn every_staircase_below_a_rectangle_matches_the_definition() {
    let mut memo = HashMap::new();
    let mut misere_memo = HashMap::new();
    for (r, c) in [(6, 6), (4, 8), (8, 3)] {
        let start = chomp::rectangle(r, c);
        let normal = engine(&start, Play::Normal);
        let misere = engine(&start, Play::Misere);
        for a in below(&start) {
            let want = reference::value(&reference::cells(&a), &mut memo);
            assert_eq!(u64::from(normal.entry(&a).unwrap()), want, "{a:?}");
            let win = reference_misere_win(&Chomp, &a, &mut misere_memo).unwrap();
            assert_eq!(misere.entry(&a).unwrap() == 1, win, "misère {a:?}");
        }
    }
}

/// Every rectangle up to 5 × 5: the same outcome, value and winning moves as the generic
/// engine, in both plays.
#[test]
fn every_small_rectangle_matches_the_generic_engine() {
    let ctl = Control::none();
    for r in 1..=5 {
        for c in 1..=5 {
            let start = chomp::rectangle(r, c);
            for play in [Play::Normal, Play::Misere] {
                let fast = solve(&start, play, true, &ctl).unwrap();
                let slow = generic(&start, play);
                assert_eq!(fast.outcome, slow.outcome, "{r}x{c} {play:?}");
                assert_eq!(fast.value, slow.value, "{r}x{c} {play:?}");
                assert_eq!(fast.winning_moves, slow.winning_moves, "{r}x{c} {play:?}");
            }
        }
    }
}

/// Two rows `(a, b)` are a P-position iff `b = a − 1` (Gale, 1974: the first player restores
/// that shape after every move).
#[test]
fn two_rows_are_lost_exactly_when_the_top_is_one_shorter() {
    let e = engine(&[30, 30], Play::Normal);
    for a in 1..=30 {
        for b in 0..=a {
            let rows: Rows = if b == 0 { vec![a] } else { vec![a, b] };
            assert_eq!(e.entry(&rows).unwrap() == 0, b + 1 == a, "{rows:?}");
        }
    }
}

/// An L (a bottom row of `a` cells and a column of `k` rows) is two Nim heaps, `a − 1` and
/// `k − 1`: a move shortens one arm.
#[test]
fn an_l_is_two_nim_heaps() {
    let e = engine(&[12; 9], Play::Normal);
    for a in 1..=12u32 {
        for k in 1..=9usize {
            let mut rows = vec![1; k];
            rows[0] = a;
            assert_eq!(
                u64::from(e.entry(&rows).unwrap()),
                u64::from(a - 1) ^ (k as u64 - 1),
                "{rows:?}"
            );
        }
    }
}

#[test]
fn a_box_beyond_the_budget_goes_to_the_generic_engine() {
    let start = chomp::rectangle(3, 4);
    // 35 staircases: 70 bytes, more than half of a budget of 100.
    let ctl = Control::none().with_memory(MemoryBudget::new(100));
    assert!(ChompEngine::solve(&start, Play::Normal, &ctl)
        .unwrap()
        .is_none());
    // An L of 60 cells has a box of C(60, 30) staircases: the generic engine answers at once.
    let mut l = vec![1; 30];
    l[0] = 30;
    let ctl = Control::none();
    assert!(ChompEngine::solve(&l, Play::Normal, &ctl)
        .unwrap()
        .is_none());
    let s = solve(&l, Play::Normal, false, &ctl).unwrap();
    assert_eq!(s.value, Some(0));
}

#[test]
fn positions_not_below_the_start_are_refused() {
    let e = engine(&[3, 2], Play::Normal);
    assert!(e.entry(&[4]).is_err());
    assert!(e.entry(&[2, 2, 1]).is_err());
    assert!(e.entry(&[]).is_err());
    assert_eq!(e.entry(&[3, 1]).unwrap(), 3);
}

fn staircase() -> impl Strategy<Value = Rows> {
    proptest::collection::vec(1u32..=7, 1..=7).prop_map(|mut rows| {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random staircases up to 7 × 7, their transposes included: the value and misère outcome
    /// of the definition, and the generic engine's winning moves.
    #[test]
    fn random_staircases_match_the_definition(rows in staircase()) {
        let ctl = Control::none();
        let want = reference::value(&reference::cells(&rows), &mut HashMap::new());
        let s = solve(&rows, Play::Normal, true, &ctl).unwrap();
        prop_assert_eq!(s.value, Some(want));
        let t = solve(&chomp::transpose(&rows), Play::Normal, false, &ctl).unwrap();
        prop_assert_eq!(t.value, Some(want));
        prop_assert_eq!(s.winning_moves, generic(&rows, Play::Normal).winning_moves);
        let win = reference_misere_win(&Chomp, &rows, &mut HashMap::new()).unwrap();
        let m = solve(&rows, Play::Misere, false, &ctl).unwrap();
        prop_assert_eq!(m.outcome == Outcome::N, win);
    }
}
