//! Games by their rules solved over ranks (as threads) against the one-process search engine
//! and the definitions: the same outcome, value and winning moves in the same order; the same
//! error on every rank; checkpoints that resume to the same answer.

use super::checkpoint::Directory;
use super::explore::Journal;
use super::game::{solve, Work};
use super::{threads, Bsp, Comm};
use crate::control::{Control, MemoryBudget};
use crate::error::{Error, LimitKind, Result};
use crate::game::families::chomp::Chomp;
use crate::game::families::cram::{Board, Cram};
use crate::game::families::node_kayles::{BitGraph, NodeKayles};
use crate::game::families::wythoff::Wythoff;
use crate::game::families::{reference_misere_win, reference_value};
use crate::game::{Encoding, Structured};
use crate::heap::HeapGame;
use crate::solve::search::{solve_here, Settings, Solution};
use crate::solve::{Outcome, Play};
use proptest::prelude::*;
use std::collections::HashMap;

/// The answer of `ranks` ranks (rank 0's; every rank must agree on the outcome, the value and
/// any error), with rank 0's work.
fn over_ranks<F: Structured + Encoding + Sync>(
    family: &F,
    root: &F::Position,
    play: Play,
    ranks: usize,
    budget: Option<u64>,
) -> Result<(Solution, Work)>
where
    F::Position: Sync,
{
    let results = threads::run(ranks, |c| {
        let ctl = match budget {
            Some(b) => Control::none().with_memory(MemoryBudget::new(b)),
            None => Control::none(),
        };
        let bsp = Bsp::new(c, &ctl);
        solve(&bsp, family, root, play, true, None)
    });
    agreed(results)
}

/// Rank 0's result, after checking that the other ranks agree with it.
fn agreed(results: Vec<Result<(Solution, Work)>>) -> Result<(Solution, Work)> {
    let mut results = results.into_iter();
    let first = results.next().expect("one rank at least");
    for other in results {
        match (&first, other) {
            (Ok((a, _)), Ok((b, _))) => {
                assert_eq!((a.outcome, a.value), (b.outcome, b.value));
                assert!(b.winning_moves.is_empty(), "only rank 0 lists moves");
            }
            (Err(a), Err(b)) => assert_eq!(a, &b, "every rank returns the same error"),
            (a, b) => panic!("ranks disagree: {a:?} / {b:?}"),
        }
    }
    first
}

/// Checks the answer of 1 to 4 ranks against the one-process engine (outcome, value, winning
/// moves in order) and the definition (value or misère outcome).
fn check_family<F: Structured + Encoding + Sync>(
    family: &F,
    root: &F::Position,
) -> std::result::Result<(), TestCaseError>
where
    F::Position: Sync,
{
    let ctl = Control::none();
    for play in [Play::Normal, Play::Misere] {
        let one = solve_here(family, root, play, Settings::new(), true, &ctl).unwrap();
        match play {
            Play::Normal => {
                let v = reference_value(family, root, &mut HashMap::new()).unwrap();
                prop_assert_eq!(one.value, Some(v));
            }
            Play::Misere => {
                let win = reference_misere_win(family, root, &mut HashMap::new()).unwrap();
                prop_assert_eq!(one.outcome, if win { Outcome::N } else { Outcome::P });
            }
        }
        for ranks in 1..=4 {
            let (s, _) = over_ranks(family, root, play, ranks, None).unwrap();
            prop_assert_eq!(
                s.outcome,
                one.outcome,
                "{:?} {:?} ranks {}",
                root,
                play,
                ranks
            );
            prop_assert_eq!(s.value, one.value);
            prop_assert_eq!(&s.winning_moves, &one.winning_moves);
        }
    }
    Ok(())
}

fn young_diagram() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(1u32..=4, 1..=4).prop_map(|mut rows| {
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows
    })
}

fn cram_board() -> impl Strategy<Value = Board> {
    (1usize..=3, 1usize..=4).prop_flat_map(|(r, c)| {
        proptest::collection::vec(proptest::bool::weighted(0.8), r * c).prop_map(move |cells| {
            let mut b = Board::blocked(r, c).unwrap();
            for (i, &free) in cells.iter().enumerate() {
                b.set_cell(i / c, i % c, free);
            }
            b
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn chomp_over_ranks_is_the_one_process_answer(rows in young_diagram()) {
        check_family(&Chomp, &rows)?;
    }

    #[test]
    fn cram_over_ranks_is_the_one_process_answer(b in cram_board()) {
        check_family(&Cram, &b)?;
    }

    #[test]
    fn node_kayles_over_ranks_is_the_one_process_answer(
        (n, edges) in (1usize..=7).prop_flat_map(|n| {
            (Just(n), proptest::collection::vec((0..n, 0..n), 0..=10))
        })
    ) {
        let g = BitGraph::from_edges(n, &edges).unwrap();
        check_family(&NodeKayles::with_names(Vec::new()), &g)?;
    }

    #[test]
    fn wythoff_over_ranks_is_the_one_process_answer(a in 0u64..7, b in 0u64..7) {
        check_family(&Wythoff, &(a, b))?;
    }

    #[test]
    fn heap_sums_over_ranks_are_the_one_process_answer(
        game in prop::sample::select(vec!["octal:0.07", "sub:1,3,4", "kayles", "grundys-game"]),
        heaps in proptest::collection::vec(0u64..9, 0..4),
    ) {
        let g: HeapGame = game.parse().unwrap();
        check_family(&g, &HeapGame::position(&heaps))?;
    }

    /// Positions survive their bytes, and only equal positions share them.
    #[test]
    fn encodings_are_faithful(a in cram_board(), b in cram_board(), r in young_diagram()) {
        let enc = |b: &Board| { let mut v = Vec::new(); Cram.encode(b, &mut v); v };
        prop_assert_eq!(Cram.decode(&enc(&a)).unwrap(), a.clone());
        prop_assert_eq!(enc(&a) == enc(&b), a == b);
        let mut v = Vec::new();
        Chomp.encode(&r, &mut v);
        prop_assert_eq!(Chomp.decode(&v).unwrap(), r);
    }
}

#[test]
fn every_rank_stops_at_the_memory_budget() {
    let b = Board::empty(3, 4).unwrap();
    for ranks in 1..=3 {
        let e = over_ranks(&Cram, &b, Play::Normal, ranks, Some(2000)).unwrap_err();
        assert!(
            matches!(&e, Error::Limit(l) if l.kind == LimitKind::Memory),
            "{e:?}"
        );
    }
}

/// A journal that fails once round `stop` is committed: a run killed after that round.
struct KilledAfter {
    dir: Directory,
    stop: u64,
}

impl Journal for KilledAfter {
    fn replay(&mut self) -> Result<Vec<Vec<u8>>> {
        self.dir.replay()
    }
    fn record(&mut self, round: u64, log: &[u8]) -> Result<()> {
        self.dir.record(round, log)
    }
    fn commit(&mut self, round: u64) -> Result<()> {
        self.dir.commit(round)?;
        if round == self.stop {
            return Err(Error::Cancelled(crate::error::Interruption::Token));
        }
        Ok(())
    }
}

/// A path for one test's checkpoint directory (not created), inside a temporary directory
/// removed when the guard is dropped.
fn temp_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let guard = tempfile::tempdir().unwrap();
    let d = guard.path().join(name);
    (guard, d)
}

/// A run stopped after a round and run again resumes after that round, with the same answer
/// as a run never stopped; a checkpoint of another input or rank count is refused.
#[test]
fn a_resumed_exploration_gives_the_same_answer() {
    let b = Board::empty(3, 4).unwrap();
    let ctl = Control::none();
    let want = solve_here(&Cram, &b, Play::Normal, Settings::new(), true, &ctl).unwrap();
    for ranks in 1..=3 {
        let (_guard, dir) = temp_dir(&format!("resume-{ranks}"));
        let open = |rank: usize| Directory::open(&dir, "solve", "cram:3x4", rank, ranks).unwrap();
        let stopped = threads::run(ranks, |c| {
            let ctl = Control::none();
            let bsp = Bsp::new(c, &ctl);
            let mut j = KilledAfter {
                dir: open(c.rank()),
                stop: 2,
            };
            solve(&bsp, &Cram, &b, Play::Normal, true, Some(&mut j))
        });
        assert!(stopped
            .iter()
            .all(|r| r == &Err(Error::Cancelled(crate::error::Interruption::Token))));
        let resumed = threads::run(ranks, |c| {
            let ctl = Control::none();
            let bsp = Bsp::new(c, &ctl);
            let mut j = open(c.rank());
            solve(&bsp, &Cram, &b, Play::Normal, true, Some(&mut j))
        });
        let (s, work) = agreed(resumed).unwrap();
        assert_eq!(work.resumed_rounds, 3, "rounds 0, 1 and 2 are replayed");
        assert!(work.explore_rounds > 3);
        assert_eq!(
            (s.outcome, s.value, &s.winning_moves),
            (want.outcome, want.value, &want.winning_moves)
        );
        // Other input, other ranks: refused, not used.
        let e = Directory::open(&dir, "solve", "cram:3x5", 0, ranks).unwrap_err();
        assert!(e.to_string().contains("other input"), "{e}");
        let e = Directory::open(&dir, "solve", "cram:3x4", 0, ranks + 1).unwrap_err();
        assert!(e.to_string().contains("ranks"), "{e}");
        // A damaged log is refused.
        let log = dir.join("rank-0").join("round-1.log");
        let mut bytes = std::fs::read(&log).unwrap();
        bytes[0] ^= 1;
        std::fs::write(&log, bytes).unwrap();
        let e = Directory::open(&dir, "solve", "cram:3x4", 0, ranks)
            .unwrap()
            .replay()
            .unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[cfg(feature = "script")]
mod scripts {
    use super::*;
    use crate::game::families::rules::Rules;

    fn rules(src: &str) -> Rules {
        Rules::compile(
            src,
            "t.rhai",
            crate::script::MAX_OPERATIONS,
            &Control::none(),
        )
        .unwrap()
    }

    #[test]
    fn a_script_game_over_ranks_is_the_one_process_answer() {
        // Subtraction {1, 2, 3} on two heaps, as a script.
        let r = rules(
            "fn start() { [5, 7] }
             fn moves(p) { let out = [];
               for i in 0..2 { for t in 1..=3 { if p[i] >= t { let q = p; q[i] -= t; out.push(q); } } }
               out }",
        );
        let root = r.start().unwrap();
        check_family(&r, &root).unwrap();
    }

    #[test]
    fn a_script_error_is_the_same_on_every_rank() {
        let r = rules("fn start() { 6 } fn moves(p) { if p == 2 { throw \"bad\" } if p == 0 { [] } else { [p - 1] } }");
        let root = r.start().unwrap();
        for ranks in 1..=3 {
            let e = over_ranks(&r, &root, Play::Normal, ranks, None).unwrap_err();
            assert!(e.to_string().contains("bad"), "{e}");
        }
    }

    #[test]
    fn a_game_that_does_not_end_is_refused() {
        let r = rules("fn start() { 0 } fn moves(p) { [1 - p] }");
        let root = r.start().unwrap();
        for ranks in 1..=3 {
            for play in [Play::Normal, Play::Misere] {
                let e = over_ranks(&r, &root, play, ranks, None).unwrap_err();
                assert!(e.to_string().contains("does not end"), "{e}");
            }
        }
    }
}
