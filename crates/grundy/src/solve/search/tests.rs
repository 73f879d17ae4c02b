//! [`Method::Auto`] against the definition (`g = mex` of the options' values, no components, no
//! symmetry) and against each method alone, with budgets small enough that the rounds switch
//! methods many times within one search.

use super::{solve_here, Method, Search, Settings, AUTO_FIRST_BUDGET};
use crate::control::Control;
use crate::game::families::chomp::{rectangle, Chomp};
use crate::game::families::cram::{Board, Cram};
use crate::game::families::node_kayles::{BitGraph, NodeKayles};
use crate::game::families::reference_value;
use crate::game::families::wythoff::Wythoff;
use crate::game::Structured;
use crate::solve::Play;
use proptest::prelude::*;
use std::collections::HashMap;

/// The value of `p` by [`Method::Auto`] starting from a budget of `first` entries, checked
/// against the definition; the method that finished is returned with it.
fn auto_matches_reference<F: Structured>(f: &F, p: &F::Position, first: u64) -> (u64, Method) {
    let ctl = Control::none();
    let mut search = Search::new(f, Settings::new(), &ctl).with_first_budget(first);
    let (v, m) = search.value_by(p).unwrap();
    assert_ne!(m, Method::Auto);
    let want = reference_value(f, p, &mut HashMap::new()).unwrap();
    assert_eq!(v, want, "{p:?} with a first budget of {first}");
    (v, m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn auto_is_the_definition_on_wythoff(a in 0u64..14, b in 0u64..14, first in 1u64..40) {
        auto_matches_reference(&Wythoff, &(a, b), first);
    }

    #[test]
    fn auto_is_the_definition_on_chomp(
        rows in proptest::collection::vec(1u32..=5, 1..=4),
        first in 1u64..40,
    ) {
        let mut rows = rows;
        rows.sort_unstable_by(|a, b| b.cmp(a));
        auto_matches_reference(&Chomp, &rows, first);
    }

    #[test]
    fn auto_is_the_definition_on_cram(
        cells in proptest::collection::vec(proptest::bool::weighted(0.8), 12),
        first in 1u64..40,
    ) {
        let mut board = Board::empty(3, 4).unwrap();
        for (i, &free) in cells.iter().enumerate() {
            board.set_cell(i / 4, i % 4, free);
        }
        auto_matches_reference(&Cram, &board, first);
    }

    #[test]
    fn auto_is_the_definition_on_node_kayles(
        n in 1usize..9,
        edges in proptest::collection::vec((0usize..9, 0usize..9), 0..14),
        first in 1u64..40,
    ) {
        let edges: Vec<_> = edges.into_iter().filter(|&(u, v)| u < n && v < n && u != v).collect();
        let g = BitGraph::from_edges(n, &edges).unwrap();
        auto_matches_reference(&NodeKayles::default(), &g, first);
    }
}

/// Every first budget from 1 to 64 (so every point at which a round can stop) on positions
/// whose values reach 10 and more, and the winning moves equal those of each method alone.
#[test]
fn every_switching_point_gives_the_same_answer() {
    let ctl = Control::none();
    for first in 1..=64 {
        auto_matches_reference(&Wythoff, &(9, 12), first);
        auto_matches_reference(&Chomp, &rectangle(4, 5), first);
        auto_matches_reference(&Cram, &Board::empty(3, 4).unwrap(), first);
    }
    let board = Board::empty(3, 5).unwrap();
    let moves = |m: Method| {
        let s = solve_here(
            &Cram,
            &board,
            Play::Normal,
            Settings::new().method(m),
            true,
            &ctl,
        );
        let s = s.unwrap();
        (s.value, s.winning_moves)
    };
    let auto = moves(Method::Auto);
    assert_eq!(auto, moves(Method::Mex));
    assert_eq!(auto, moves(Method::Outcome));
}

/// Wythoff's `(a, b)` has about `a + b + min(a, b)` options and a value near `a + b`: the mex
/// table finishes first. The method is reported in the statistics.
#[test]
fn large_values_over_few_positions_take_the_mex_table() {
    let ctl = Control::none();
    let s = solve_here(
        &Wythoff,
        &(60, 60),
        Play::Normal,
        Settings::new(),
        false,
        &ctl,
    )
    .unwrap();
    assert_eq!(s.stats.method, Some(Method::Mex));
    let misere = solve_here(
        &Wythoff,
        &(3, 4),
        Play::Misere,
        Settings::new(),
        false,
        &ctl,
    );
    assert_eq!(misere.unwrap().stats.method, None);
}

/// A budget stop is not the caller's error: a cancelled search under [`Method::Auto`] still
/// reports the cancellation, whichever round it falls in.
#[test]
fn a_cancelled_auto_search_is_cancelled() {
    let token = crate::control::CancelToken::new();
    token.cancel();
    let ctl = Control::none().with_token(token);
    for first in [1, AUTO_FIRST_BUDGET] {
        let err = Search::new(&Wythoff, Settings::new(), &ctl)
            .with_first_budget(first)
            .value(&(150, 150))
            .unwrap_err();
        assert_eq!(
            err,
            crate::error::Error::Cancelled(crate::error::Interruption::Token)
        );
    }
}
