//! Positions checked against definitions: winning moves lead to P positions (by the reference
//! sequence), and misère outcomes against a direct recursive search.

use super::*;
use crate::control::Control;
use crate::heap::reference;
use proptest::prelude::*;

fn rule(game: &str) -> HeapGame {
    game.parse().unwrap()
}

/// The nim-sum of a position by the reference sequence.
fn nim_sum(g: &[u32], heaps: &[u64]) -> u32 {
    heaps.iter().fold(0, |a, &h| a ^ g[h as usize])
}

/// Every option of every heap of the position, as (index, heaps left).
fn all_moves(r: &HeapGame, heaps: &[u64]) -> Vec<(usize, Vec<u64>)> {
    let mut out = Vec::new();
    let mut o = Options::new();
    for (i, &h) in heaps.iter().enumerate() {
        o.clear();
        r.heap_options(h, &mut o).unwrap();
        for opt in o.iter() {
            let mut to = opt.to_vec();
            to.sort_unstable();
            if !out.contains(&(i, to.clone())) {
                out.push((i, to));
            }
        }
    }
    out
}

fn after(heaps: &[u64], i: usize, to: &[u64]) -> Vec<u64> {
    let mut q: Vec<u64> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
    q.extend_from_slice(to);
    q
}

/// Misère outcome by plain recursion (no memo): N iff no move or some option is P.
fn misere_n(r: &HeapGame, heaps: &[u64]) -> bool {
    let moves = all_moves(r, heaps);
    moves.is_empty()
        || moves
            .iter()
            .any(|(i, to)| !misere_n(r, &after(heaps, *i, to)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn normal_play_moves_are_exactly_the_moves_to_p(
        game in prop::sample::select(vec!["kayles", "octal:0.137", "octal:4.07", "octal:0.8B",
                                          "grundys-game", "sub:1,3,4", "squares", "divide:2,3",
                                          "nim"]),
        heaps in prop::collection::vec(0u64..25, 1..5),
    ) {
        let r = rule(game);
        let g = reference::sequence(&r, 25).unwrap();
        let a = normal(&r, &heaps, &Control::none()).unwrap();
        let x = nim_sum(&g, &heaps);
        prop_assert_eq!(a.nim_sum, Some(x as u64));
        prop_assert_eq!(a.outcome == Outcome::P, x == 0);
        let want: Vec<(usize, Vec<u64>)> = all_moves(&r, &heaps)
            .into_iter()
            .filter(|(i, to)| nim_sum(&g, &after(&heaps, *i, to)) == 0)
            .collect();
        let got: Vec<(usize, Vec<u64>)> =
            a.winning_moves.iter().map(|m| (m.heap, m.to.clone())).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn misere_matches_direct_search(
        game in prop::sample::select(vec!["kayles", "octal:0.137", "grundys-game", "sub:1,2",
                                          "divide:2,3", "nim"]),
        heaps in prop::collection::vec(0u64..7, 1..4),
    ) {
        let r = rule(game);
        let a = misere(&r, &heaps, &Control::none()).unwrap();
        let n = misere_n(&r, &heaps);
        prop_assert_eq!(a.outcome == Outcome::N, n);
        prop_assert_eq!(a.nim_sum, None);
        let want: Vec<(usize, Vec<u64>)> = all_moves(&r, &heaps)
            .into_iter()
            .filter(|(i, to)| !misere_n(&r, &after(&heaps, *i, to)))
            .collect();
        let got: Vec<(usize, Vec<u64>)> =
            a.winning_moves.iter().map(|m| (m.heap, m.to.clone())).collect();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn limits() {
    let e = normal(&rule("kayles"), &[MAX_HEAP + 1], &Control::none()).unwrap_err();
    assert!(matches!(e, Error::Limit(_)));
    // Dawson's Kayles has no certified quotient over heaps past 24, so this sum is searched.
    let e = misere(&rule("dawsons-kayles"), &[30, 31, 32, 33], &Control::none()).unwrap_err();
    assert!(matches!(e, Error::Limit(_)));
    // Nim and divide games take any heap.
    let a = normal(&rule("nim"), &[u64::MAX, 1], &Control::none()).unwrap();
    assert_eq!(a.winning_moves[0].to, vec![1]);
    let a = normal(
        &rule("divide:2,3,4,5,6"),
        &[1_000_000_000_000_000_000],
        &Control::none(),
    );
    assert!(a.is_ok());
}

/// A misère search whose stack of options outgrows the memory budget stops with the memory
/// limit (a sum of 32 heaps of 200 in Grundy's game is thousands of moves deep, with thousands
/// of options a level), and gives every byte back.
#[test]
fn misere_search_stops_at_the_memory_budget() {
    use crate::control::MemoryBudget;
    let budget = MemoryBudget::new(64 << 20);
    let ctl = Control::none().with_memory(budget.clone());
    let start = std::time::Instant::now();
    let e = misere(&rule("grundys-game"), &[200; 32], &ctl).unwrap_err();
    assert!(
        matches!(e, Error::Limit(ref l) if l.kind == crate::LimitKind::Memory),
        "{e}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(budget.used(), 0);
    // A small search fits a small budget, and answers as without one.
    let small = Control::none().with_memory(MemoryBudget::new(1 << 20));
    assert_eq!(
        misere(&rule("kayles"), &[3, 4, 5], &small).unwrap(),
        misere(&rule("kayles"), &[3, 4, 5], &Control::none()).unwrap()
    );
}

/// Options of heaps of any size: for heaps below 2^64 they are the rule's own options, sorted
/// and without empty heaps; a subtraction game takes each amount from a heap beyond 2^64.
#[test]
fn options_of_big_heaps_follow_the_rule() {
    use num_bigint::BigUint;
    for notation in [
        "kayles",
        "octal:0.137",
        "grundys-game",
        "sub:1,3,4",
        "divide:2,3",
    ] {
        let game = rule(notation);
        for n in 0..40u64 {
            let mut opts = crate::heap::rule::Options::new();
            game.heap_options(n, &mut opts).unwrap();
            let mut want: Vec<Vec<BigUint>> = opts
                .iter()
                .map(|o| {
                    let mut to: Vec<u64> = o.iter().copied().filter(|&p| p > 0).collect();
                    to.sort_unstable();
                    to.into_iter().map(BigUint::from).collect()
                })
                .collect();
            let mut got = options_of_big(&game, &BigUint::from(n)).unwrap();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{notation} heap {n}");
        }
    }
    let huge = BigUint::from(u64::MAX) * 7u32;
    let game = rule("sub:1,3,4");
    let got = options_of_big(&game, &huge).unwrap();
    let want: Vec<Vec<BigUint>> = [1u32, 3, 4].iter().map(|&s| vec![&huge - s]).collect();
    assert_eq!(got, want);
    assert!(options_of_big(&rule("kayles"), &huge).is_err());
}

/// The moves of an analysis as a sorted list (the engines and the pattern path list options in
/// different orders).
fn sorted_moves(a: &BigPositionAnalysis) -> Vec<(usize, BigUint, Vec<BigUint>)> {
    let mut m: Vec<_> = a
        .winning_moves
        .iter()
        .map(|m| (m.heap, m.from.clone(), m.to.clone()))
        .collect();
    m.sort();
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// On heaps the engines hold, the pattern path gives the engines' outcome, nim-sum and
    /// winning moves (Nim's xor rule, proved patterns, and values within those computed).
    #[test]
    fn by_pattern_agrees_with_the_engines(
        game in prop::sample::select(vec!["nim", "kayles", "octal:0.137", "sub:1,3,4", "grundys-game"]),
        heaps in prop::collection::vec(0u64..150, 1..5),
    ) {
        let game = rule(game);
        let want = BigPositionAnalysis::from(normal(&game, &heaps, &Control::none()).unwrap());
        let big: Vec<BigUint> = heaps.iter().map(|&h| BigUint::from(h)).collect();
        let got = normal_by_pattern(&game, &big, Some(5000), &Control::none()).unwrap();
        prop_assert_eq!(&got.outcome, &want.outcome);
        prop_assert_eq!(&got.nim_sum, &want.nim_sum);
        prop_assert_eq!(sorted_moves(&got), sorted_moves(&want));
    }
}

/// Heaps beyond 2^64 in a subtraction game (period 7 for {1, 3, 4}) and in Nim: the analysis
/// equals that of small heaps congruent to them (the engines' answer, shifted), and a cancelled
/// control stops the pattern's analysis.
#[test]
fn by_pattern_takes_heaps_beyond_64_bits() {
    let game = rule("sub:1,3,4");
    let huge = (BigUint::from(u64::MAX) << 40u32) + 12345u32;
    let r = 70 + (&huge % 7u32).to_u64().unwrap();
    let shift = &huge - r;
    for other in [0u64, 1, 2, 3, 5, 6] {
        let small =
            BigPositionAnalysis::from(normal(&game, &[r, other], &Control::none()).unwrap());
        let got = normal_by_pattern(
            &game,
            &[huge.clone(), BigUint::from(other)],
            None,
            &Control::none(),
        )
        .unwrap();
        assert_eq!((got.outcome, &got.nim_sum), (small.outcome, &small.nim_sum));
        let shifted: Vec<_> = sorted_moves(&small)
            .into_iter()
            .map(|(i, from, to)| {
                if i == 0 {
                    (
                        i,
                        from + &shift,
                        to.into_iter().map(|t| t + &shift).collect(),
                    )
                } else {
                    (i, from, to)
                }
            })
            .collect();
        assert_eq!(sorted_moves(&got), shifted, "other heap {other}");
    }
    // Nim: the xor rule at any size (an even heap and the next one have nim-sum 1, and the
    // only winning move takes one token from the odd one).
    let nim = rule("nim");
    let even = &huge - 1u32;
    let next = &even + 1u32;
    let a = normal_by_pattern(&nim, &[even.clone(), next.clone()], None, &Control::none()).unwrap();
    assert_eq!(a.nim_sum, BigUint::from(1u32));
    assert_eq!(sorted_moves(&a), vec![(1, next, vec![even])]);
    let token = crate::control::CancelToken::new();
    token.cancel();
    let stopped = Control::none().with_token(token);
    assert!(matches!(
        normal_by_pattern(
            &rule("octal:0.137"),
            std::slice::from_ref(&huge),
            None,
            &stopped
        ),
        Err(Error::Cancelled(_))
    ));
}
