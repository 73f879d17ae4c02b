use super::super::TransfiniteSolver;
use super::*;
use crate::notation::ordinal::parse_ordinal;
use proptest::prelude::*;

fn big(v: &[u64]) -> Vec<BigUint> {
    v.iter().map(|&x| BigUint::from(x)).collect()
}

/// The ordinal with ω replaced by `b` (all coefficients below `b`, exponents natural).
fn at(x: &Ordinal, b: u64) -> u64 {
    x.terms()
        .iter()
        .map(|t| {
            let e = u32::try_from(t.exponent.as_natural().unwrap()).unwrap();
            u64::try_from(t.coefficient.clone()).unwrap() * b.pow(e)
        })
        .sum()
}

#[test]
fn cascade_examples() {
    let v = cascade_value(&[big(&[1, 0]), big(&[0, 3])]);
    assert_eq!(v.to_string(), "w+3");
    let v = cascade_value(&[big(&[4, 0, 9, 11]), big(&[6, 0, 5, 0])]);
    assert_eq!(v, parse_ordinal("w^3*2+w*12+11").unwrap());
    assert!(cascade_value(&[big(&[5, 7]), big(&[5, 7])]).is_zero());
}

#[test]
fn grid_levels_are_anti_diagonals() {
    let g = LevelGame::grid(3, 4).unwrap();
    for r in 0..3 {
        for c in 0..4 {
            assert_eq!(g.levels()[r * 4 + c], (2 - r) + (3 - c));
        }
    }
}

#[test]
fn successor_levels_are_mex_levels() {
    // 0 → 1, 0 → 2, 1 → 2: L(2) = 0, L(1) = 1, L(0) = mex{1, 0} = 2; 3 → 0: mex{2} = 0.
    let g = LevelGame::new(
        vec![vec![1, 2], vec![2], vec![], vec![0]],
        FreeSet::Successors,
    )
    .unwrap();
    assert_eq!(g.levels(), &[2, 1, 0, 0]);
    let p = LevelGame::new(vec![vec![1, 2], vec![2], vec![], vec![0]], FreeSet::Path).unwrap();
    assert_eq!(p.levels(), &[2, 1, 0, 3]);
}

#[test]
fn cycles_and_bad_arcs_are_errors() {
    assert!(LevelGame::new(vec![vec![1], vec![0]], FreeSet::Path).is_err());
    assert!(LevelGame::new(vec![vec![0]], FreeSet::Path).is_err());
    assert!(LevelGame::new(vec![vec![5]], FreeSet::Path).is_err());
}

#[test]
fn xor_blocks_are_the_xor_image() {
    for y in 0u64..20 {
        for a in 0u64..20 {
            let mut got: Vec<u64> = xor_blocks(&y.into(), &a.into())
                .iter()
                .flat_map(|(lo, hi)| {
                    u64::try_from(lo.clone()).unwrap()..u64::try_from(hi.clone()).unwrap()
                })
                .collect();
            got.sort_unstable();
            let mut want: Vec<u64> = (0..a).map(|x| x ^ y).collect();
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }
}

/// A random DAG on `n` vertices (arcs from lower to higher index).
fn arb_dag(n: usize) -> impl Strategy<Value = Vec<Vec<usize>>> {
    proptest::collection::vec(proptest::bool::weighted(0.4), n * n).prop_map(move |bits| {
        (0..n)
            .map(|v| (v + 1..n).filter(|&u| bits[v * n + u]).collect())
            .collect()
    })
}

fn engine_agrees(game: &LevelGame, heaps: &[BigUint]) -> Ordinal {
    let v = game.value(heaps).unwrap();
    match game.winning_move(heaps).unwrap() {
        None => assert!(v.is_zero()),
        Some(m) => {
            let mut after = heaps.to_vec();
            after[m.vertex] = m.to.clone();
            assert!(m.to < m.from);
            for (u, x) in &m.set {
                after[*u] = x.clone();
                // Only vertices the rule lets a move at m.vertex change.
                match game.rule() {
                    FreeSet::Successors => assert!(game.successors(m.vertex).contains(u)),
                    FreeSet::Path => assert!(game.levels()[*u] < game.levels()[m.vertex]),
                }
            }
            assert!(game.value(&after).unwrap().is_zero());
        }
    }
    let mut e = TransfiniteSolver::new(game, 1000);
    assert_eq!(e.value(&heaps.to_vec()).unwrap(), v);
    let a = e.analyze_sum(&[heaps.to_vec()]).unwrap();
    match a.winning_move {
        None => assert!(v.is_zero()),
        Some(m) => {
            assert!(
                game.value(&m.to).unwrap().is_zero(),
                "winning move to {:?}",
                m.to
            );
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cascade_matches_truncated_game(rows in proptest::collection::vec(
        proptest::collection::vec(0u64..4, 1..3), 1..3)) {
        let lens: Vec<usize> = rows.iter().map(Vec::len).collect();
        prop_assume!(lens.iter().sum::<usize>() <= 4);
        let game = LevelGame::cascade(&lens).unwrap();
        let heaps: Vec<u64> = rows.iter().flatten().copied().collect();
        let v = engine_agrees(&game, &big(&heaps));
        let rows_big: Vec<Vec<BigUint>> = rows.iter().map(|r| big(r)).collect();
        prop_assert_eq!(&cascade_value(&rows_big), &v);
        let b = 4;
        prop_assert_eq!(reference::level_game_truncated(&game.succ, FreeSet::Path, &heaps, b), at(&v, b));
    }

    #[test]
    fn matrix_game_matches_truncated_game(rows in 1usize..3, cols in 1usize..3,
                                          cells in proptest::collection::vec(0u64..4, 4)) {
        let game = LevelGame::grid(rows, cols).unwrap();
        let heaps = &cells[..rows * cols];
        let v = engine_agrees(&game, &big(heaps));
        prop_assert_eq!(reference::level_game_truncated(&game.succ, FreeSet::Path, heaps, 4), at(&v, 4));
    }

    #[test]
    fn dag_path_game_matches_truncated_game(succ in arb_dag(4), heaps in proptest::collection::vec(0u64..3, 4)) {
        let game = LevelGame::new(succ.clone(), FreeSet::Path).unwrap();
        let v = engine_agrees(&game, &big(&heaps));
        prop_assert_eq!(reference::level_game_truncated(&succ, FreeSet::Path, &heaps, 4), at(&v, 4));
    }

    #[test]
    fn election_game_matches_truncated_game(succ in arb_dag(4), heaps in proptest::collection::vec(0u64..3, 4)) {
        let game = LevelGame::new(succ.clone(), FreeSet::Successors).unwrap();
        let v = engine_agrees(&game, &big(&heaps));
        prop_assert_eq!(reference::level_game_truncated(&succ, FreeSet::Successors, &heaps, 4), at(&v, 4));
    }

    #[test]
    fn increases_match_truncated_game(forced: bool, zero_allowed: bool,
                                      heaps in proptest::collection::vec((0u64..5, 0u64..4), 1..3)) {
        let rule = IncreaseRule { forced, zero_allowed };
        let b = 16;
        let values: Vec<Ordinal> = heaps
            .iter()
            .map(|&(n, t)| increases_value(rule, &n.into(), t))
            .collect();
        let sum = nim_sum_all(&values);
        prop_assert_eq!(reference::increases_truncated(rule, &heaps, b), at(&sum, b));
        let game = NimWithIncreases(rule);
        let mut e = TransfiniteSolver::new(&game, 10_000);
        let pos: Vec<(BigUint, u64)> = heaps.iter().map(|&(n, t)| (n.into(), t)).collect();
        let a = e.analyze_sum(&pos).unwrap();
        prop_assert_eq!(&a.values, &values);
        if let Some(m) = a.winning_move {
            let mut after = values.clone();
            after[m.component] = increases_value(rule, &m.to.0, m.to.1);
            prop_assert!(nim_sum_all(&after).is_zero());
        } else {
            prop_assert!(sum.is_zero());
        }
    }
}

/// The sample tests of Codeforces 1451F: Ashish (the first player) wins iff the value is
/// not 0.
#[test]
fn codeforces_1451f_samples() {
    let cases: [(&[&[u64]], bool); 4] = [
        (&[&[0]], false),
        (&[&[0, 0, 5]], true),
        (&[&[0, 1], &[1, 0]], false),
        (&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]], true),
    ];
    for (rows, ashish) in cases {
        let g = LevelGame::grid(rows.len(), rows[0].len()).unwrap();
        let heaps: Vec<BigUint> = rows.iter().flat_map(|r| big(r)).collect();
        assert_eq!(!g.value(&heaps).unwrap().is_zero(), ashish, "{rows:?}");
    }
}

/// The sample tests of Codeforces 1149E, including the published winning moves (which our
/// move reproduces on samples 1 and 3).
#[test]
fn codeforces_1149e_samples() {
    // (taxes, roads 1-based, published answer: None for LOSE, else the taxes after the move)
    type Case<'a> = (&'a [u64], &'a [(usize, usize)], Option<&'a [u64]>);
    let cases: [Case; 4] = [
        (&[2, 1, 1, 5], &[(1, 2), (3, 4)], Some(&[1, 5, 1, 5])),
        (&[1, 5, 1, 5], &[(1, 2), (3, 4)], None),
        (
            &[314, 159, 265],
            &[(1, 2), (1, 3), (3, 2)],
            Some(&[0, 0, 0]),
        ),
        (&[2, 2, 5, 5, 6, 6], &[(1, 3), (2, 4), (3, 5), (4, 6)], None),
    ];
    for (h, roads, answer) in cases {
        let mut succ = vec![Vec::new(); h.len()];
        for &(a, b) in roads {
            succ[a - 1].push(b - 1);
        }
        let g = LevelGame::new(succ, FreeSet::Successors).unwrap();
        let heaps = big(h);
        let mv = g.winning_move(&heaps).unwrap();
        match answer {
            None => {
                assert!(g.value(&heaps).unwrap().is_zero());
                assert!(mv.is_none());
            }
            Some(after) => {
                let m = mv.unwrap();
                let mut ours = heaps.clone();
                ours[m.vertex] = m.to;
                for (u, x) in m.set {
                    ours[u] = x;
                }
                assert_eq!(ours, big(after));
            }
        }
    }
}

/// Every 2×3 and 3×2 matrix of bits against the truncated game with b = 2.
#[test]
fn small_matrices_exhaustively() {
    for (r, c) in [(2, 3), (3, 2)] {
        let g = LevelGame::grid(r, c).unwrap();
        for code in 0u64..64 {
            let heaps: Vec<u64> = (0..6).map(|i| (code >> i) & 1).collect();
            let v = g.value(&big(&heaps)).unwrap();
            assert_eq!(
                reference::level_game_truncated(&g.succ, FreeSet::Path, &heaps, 2),
                at(&v, 2),
                "{r}x{c} {heaps:?}"
            );
        }
    }
}

#[test]
fn increases_engine_on_large_heaps_uses_the_removal_family() {
    for forced in [false, true] {
        for zero_allowed in [false, true] {
            let rule = IncreaseRule {
                forced,
                zero_allowed,
            };
            let game = NimWithIncreases(rule);
            let mut e = TransfiniteSolver::new(&game, 100_000);
            for n in 0u64..40 {
                for t in 0u64..5 {
                    let p = (BigUint::from(n), t);
                    assert_eq!(e.value(&p).unwrap(), increases_value(rule, &p.0, t));
                    let heaps = [p.clone(), (BigUint::from(3u8), 1)];
                    let values: Vec<Ordinal> = heaps
                        .iter()
                        .map(|h| increases_value(rule, &h.0, h.1))
                        .collect();
                    match game.winning_move(&heaps).unwrap() {
                        None => assert!(nim_sum_all(&values).is_zero()),
                        Some((i, to)) => {
                            let mut after = values.clone();
                            after[i] = increases_value(rule, &to.0, to.1);
                            assert!(nim_sum_all(&after).is_zero(), "{rule:?} {heaps:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn increases_piecewise_values() {
    let r = IncreaseRule {
        forced: false,
        zero_allowed: true,
    };
    let g = |n: u64, t: u64| increases_value(r, &n.into(), t).to_string();
    assert_eq!(g(0, 1), "w");
    assert_eq!(g(1, 1), "0");
    assert_eq!(g(5, 1), "4");
    assert_eq!(g(0, 3), "w+2");
    assert_eq!(g(2, 3), "w");
    assert_eq!(g(3, 3), "0");
    let f = IncreaseRule {
        forced: true,
        zero_allowed: true,
    };
    assert_eq!(increases_value(f, &0u64.into(), 1).to_string(), "w");
    assert_eq!(increases_value(f, &7u64.into(), 1).to_string(), "0");
    assert_eq!(increases_value(f, &7u64.into(), 2).to_string(), "1");
}

/// The note about mex of Codeforces blog entry 85984, realised as cascading-nim
/// positions and evaluated by the generic engine (a mex over the option families, not the
/// level formula): from `[1, 1]` the options are `[0, x]` (every natural) and `[1, 0]` (ω),
/// so `mex(ℕ ∪ {ω}) = ω + 1`; from `[1, 0, 0]` they are `[0, a, b]`, every `ω·a + b`, so the
/// mex is `ω^2`.
#[test]
fn seed_note_about_mex() {
    let pair = LevelGame::cascade(&[2]).unwrap();
    let mut e = TransfiniteSolver::new(&pair, 100);
    assert_eq!(e.value(&big(&[1, 0])).unwrap(), Ordinal::omega());
    assert_eq!(e.value(&big(&[1, 1])).unwrap().to_string(), "w+1");
    let triple = LevelGame::cascade(&[3]).unwrap();
    let mut e = TransfiniteSolver::new(&triple, 100);
    assert_eq!(e.value(&big(&[1, 0, 0])).unwrap().to_string(), "w^2");
    // The same two sets given directly to the mex.
    let mut s = OrdinalSet::new();
    s.insert_below(Ordinal::omega());
    s.insert(Ordinal::omega());
    assert_eq!(s.mex().to_string(), "w+1");
    let mut s = OrdinalSet::new();
    for a in 0u64..50 {
        let w_a = Ordinal::omega().mul(&Ordinal::from(a));
        s.insert_interval(w_a.clone(), w_a.add(&Ordinal::omega()));
    }
    // Fifty blocks ω·a + ℕ are not all of them: the mex is ω·50, not yet ω^2.
    assert_eq!(s.mex().to_string(), "w*50");
}

/// The motivating problem of Codeforces blog entry 85984: a matrix, a move lowers one entry and
/// sets any entries to its right (same row) to anything. Rows have the same length, so
/// column `j` (from the right, 0-based) is the coefficient of `ω^j` and the first player
/// wins iff some column xors to a non-zero number. Checked exhaustively on 2×2 matrices of
/// entries below 4 against the truncated game whose moves set *every* entry to the right
/// (an independent encoding of "any items to the right": leaving an entry as it is, is
/// setting it to its own value).
#[test]
fn seed_motivating_problem_columns() {
    let b = 4u64;
    for code in 0u64..b.pow(4) {
        let m: Vec<u64> = (0..4).map(|i| (code / b.pow(i)) % b).collect();
        let rows = vec![big(&m[0..2]), big(&m[2..4])];
        let value = cascade_value(&rows);
        let columns_nonzero = (m[0] ^ m[2]) != 0 || (m[1] ^ m[3]) != 0;
        assert_eq!(!value.is_zero(), columns_nonzero, "{m:?}");
        let options = |h: &Vec<u64>| -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for r in 0..2 {
                for c in 0..2 {
                    let i = 2 * r + c;
                    for a in 0..h[i] {
                        // Entries right of (r, c): none for c = 1, one for c = 0.
                        let right = if c == 0 { b } else { 1 };
                        for x in 0..right {
                            let mut q = h.clone();
                            q[i] = a;
                            if c == 0 {
                                q[i + 1] = x;
                            }
                            out.push(q);
                        }
                    }
                }
            }
            out
        };
        let truncated = crate::transfinite::reference::grundy(
            &m,
            &options,
            &mut std::collections::HashMap::new(),
        );
        assert_eq!(truncated, at(&value, b), "{m:?}");
    }
}

/// Every single heap `(n, t)` with `n < 8`, `t < 5` and every pair of heaps with `n < 5`,
/// `t < 3`, under each of the four rules, against the truncated game at two different
/// bounds: the brute-force value must be the closed form with ω replaced by the bound.
/// (The bounds are powers of 2, so that xor stays coefficient-wise: with ω ↦ 17,
/// `ω ⊕ (ω+1) = 1` would become `17 xor 18 = 3`.)
#[test]
fn increases_exhaustively_against_two_truncations() {
    let mut singles = Vec::new();
    for n in 0u64..8 {
        for t in 0u64..5 {
            singles.push(vec![(n, t)]);
        }
    }
    let mut pairs = Vec::new();
    for n1 in 0u64..5 {
        for t1 in 0u64..3 {
            for n2 in 0u64..5 {
                for t2 in 0u64..3 {
                    pairs.push(vec![(n1, t1), (n2, t2)]);
                }
            }
        }
    }
    for forced in [false, true] {
        for zero_allowed in [false, true] {
            let rule = IncreaseRule {
                forced,
                zero_allowed,
            };
            for heaps in singles.iter().chain(&pairs) {
                let values: Vec<Ordinal> = heaps
                    .iter()
                    .map(|&(n, t)| increases_value(rule, &n.into(), t))
                    .collect();
                let sum = nim_sum_all(&values);
                for b in [16u64, 32] {
                    assert_eq!(
                        reference::increases_truncated(rule, heaps, b),
                        at(&sum, b),
                        "{rule:?} {heaps:?} b = {b}"
                    );
                }
            }
        }
    }
}

/// The lemma behind the name "nim with increases" (cp-algorithms, Sprague-Grundy: adding
/// stones under *any* rule that keeps the game acyclic changes nothing, since an increase
/// can be undone): a heap of `n` whose increases follow a random acyclic rule — from
/// `(n, s)` an increase goes to `(m, s')`, `m > n`, for each arc `s → s'` of a random DAG
/// of states — has value `n`, the value of the optional-increase rule.
#[test]
fn increases_lemma_any_acyclic_rule() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(85984);
    let b = 10u64;
    for _ in 0..20 {
        let k = 5usize;
        let arcs: Vec<Vec<usize>> = (0..k)
            .map(|s| (s + 1..k).filter(|_| rng.gen_bool(0.5)).collect())
            .collect();
        let options = |p: &(u64, usize)| -> Vec<(u64, usize)> {
            let (n, s) = *p;
            let mut out: Vec<(u64, usize)> = (0..n).map(|m| (m, s)).collect();
            for &s2 in &arcs[s] {
                out.extend((n + 1..b).map(|m| (m, s2)));
            }
            out
        };
        let mut memo = std::collections::HashMap::new();
        let rule = IncreaseRule {
            forced: false,
            zero_allowed: false,
        };
        for n in 0..b {
            for s in 0..k {
                let g = crate::transfinite::reference::grundy(&(n, s), &options, &mut memo);
                assert_eq!(g, n, "{arcs:?} ({n}, {s})");
                assert_eq!(increases_value(rule, &n.into(), s as u64), Ordinal::from(g));
            }
        }
    }
}

/// The positions with finitely many options all the way down (level games: heaps only on
/// sinks; nim with increases: no tokens) run in the finite engine through `Game::options`,
/// and its Grundy value is the ordinal engine's; the other positions are refused there with
/// the stated limit.
#[test]
fn finite_positions_agree_with_the_finite_engine() {
    use crate::game::Game;
    use crate::solve::acyclic;
    // 0 → 1 → 2 and 0 → 3: vertices 2 and 3 are sinks.
    for rule in [FreeSet::Path, FreeSet::Successors] {
        let game = LevelGame::new(vec![vec![1, 3], vec![2], vec![], vec![]], rule).unwrap();
        let mut e = TransfiniteSolver::new(&game, 100_000);
        for (a, b) in [(0, 0), (3, 0), (5, 6), (7, 7), (12, 9)] {
            let p = big(&[0, 0, a, b]);
            let finite = acyclic::grundy(&game, &p, 100_000).unwrap();
            assert_eq!(Ordinal::from(finite), e.value(&p).unwrap(), "{p:?}");
        }
        let err = game
            .options(&big(&[0, 1, 0, 0]), &mut Vec::new())
            .unwrap_err();
        assert!(matches!(err, Error::Limit(_)) && err.to_string().contains("infinitely"));
        let err = game.options(&big(&[1, 0]), &mut Vec::new()).unwrap_err();
        assert!(matches!(err, Error::Invalid(_)), "{err:?}");
    }
    for forced in [false, true] {
        for zero_allowed in [false, true] {
            let game = NimWithIncreases(IncreaseRule {
                forced,
                zero_allowed,
            });
            let mut e = TransfiniteSolver::new(&game, 100_000);
            for n in [0u64, 1, 5, 16, 17, 40] {
                let p = (BigUint::from(n), 0);
                let finite = acyclic::grundy(&game, &p, 100_000).unwrap();
                assert_eq!(Ordinal::from(finite), e.value(&p).unwrap(), "{p:?}");
            }
            let err = game.options(&(3u8.into(), 1), &mut Vec::new()).unwrap_err();
            assert!(matches!(err, Error::Limit(_)) && err.to_string().contains("infinitely"));
        }
    }
}
