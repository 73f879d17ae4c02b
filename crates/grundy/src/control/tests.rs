//! The handle itself, and every engine family stopping through it.

use super::*;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

#[test]
fn none_never_stops() {
    let c = Control::none();
    for i in 0..10 * TICKS_PER_CHECK as u64 {
        assert_eq!(c.tick(), Ok(()));
        assert_eq!(c.check(i), Ok(()));
    }
    assert!(!c.should_stop());
}

#[test]
fn check_reports_progress_then_stops_on_cancel() {
    let last = AtomicU64::new(0);
    let f = |d| last.store(d, Ordering::Relaxed);
    let token = CancelToken::new();
    let c = Control::none().with_progress(&f).with_token(token.clone());
    assert_eq!(c.check(7), Ok(()));
    assert_eq!(last.load(Ordering::Relaxed), 7);
    token.cancel();
    assert!(c.token().is_cancelled());
    assert!(matches!(c.check(9), Err(Error::Cancelled(_))));
    assert_eq!(last.load(Ordering::Relaxed), 9);
}

#[test]
fn tick_stops_within_one_check_period() {
    let token = CancelToken::new();
    let c = Control::none().with_token(token.clone());
    token.cancel();
    let steps = (0..2 * TICKS_PER_CHECK)
        .position(|_| c.tick().is_err())
        .expect("a cancelled token stops the ticks");
    assert!(steps < TICKS_PER_CHECK as usize);
}

#[test]
fn a_past_deadline_stops_at_the_first_check() {
    let past = Instant::now();
    let c = Control::none().with_deadline(past);
    assert_eq!(c.deadline(), Some(past));
    assert!(matches!(c.check(0), Err(Error::Cancelled(_))));
    let later = Control::none().with_deadline(Instant::now() + Duration::from_secs(3600));
    assert_eq!(later.check(0), Ok(()));
}

// ---- every engine family returns `Err(Error::Cancelled(_))` when stopped ----

use crate::count::histogram::{histogram_of_fn, Limits};
use crate::game::graph::Graph;
use crate::heap::position;
use crate::heap::sequence::{compute, compute_with, SequenceEngine};
use crate::heap::HeapGame;
use crate::pattern::value;
use crate::solve::{acyclic, loopy, outcome, Play};

/// A control whose token is already cancelled.
fn cancelled() -> Control<'static> {
    let token = CancelToken::new();
    token.cancel();
    Control::none().with_token(token)
}

/// A control whose deadline is already past.
fn late() -> Control<'static> {
    Control::none().with_deadline(Instant::now())
}

/// A cycle of `n` vertices with a tail: loopy values need several stages.
fn cyclic_graph(n: u32) -> Graph<u32> {
    let mut arcs: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    arcs.push((0, n));
    Graph::<u32>::from_arcs(n as usize + 1, &arcs).unwrap()
}

#[test]
fn sequence_engines_stop_on_a_cancelled_token_and_a_past_deadline() {
    for game in [
        "kayles",
        "octal:0.137",
        "sub:1,3,4",
        "grundys-game",
        "divide:2,3",
        "squares",
    ] {
        let r = game.parse::<HeapGame>().unwrap();
        for engine in [
            SequenceEngine::Auto,
            SequenceEngine::Naive,
            SequenceEngine::Sparse,
            SequenceEngine::Reference,
        ] {
            for ctl in [cancelled(), late()] {
                assert!(
                    matches!(
                        compute_with(&r, 50_000, engine, &ctl),
                        Err(Error::Cancelled(_))
                    ),
                    "{game} {engine:?}"
                );
            }
            // The same computation without a control runs to its end.
            let full = compute_with(&r, 2_000, engine, &Control::none()).unwrap();
            assert_eq!(full.len(), 2_000);
        }
    }
    assert!(matches!(
        compute(&"nim".parse::<HeapGame>().unwrap(), 50_000, &cancelled()),
        Err(Error::Cancelled(_))
    ));
}

#[test]
fn a_long_sequence_stops_soon_after_its_token_is_cancelled() {
    // A game leaving three heaps: 100 000 values take minutes; the engine checks every 64.
    let r: HeapGame = "octal:0.8".parse().unwrap();
    let token = CancelToken::new();
    let ctl = Control::none().with_token(token.clone());
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        token.cancel();
    });
    let start = Instant::now();
    assert!(matches!(
        compute(&r, 100_000, &ctl),
        Err(Error::Cancelled(_))
    ));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    stopper.join().unwrap();
}

#[test]
fn analysis_stops_when_cancelled() {
    for game in ["dawsons-kayles", "sub:1,3,4", "octal:4.07"] {
        let r: HeapGame = game.parse().unwrap();
        assert!(
            matches!(
                value::analyze(&r, 100_000, &cancelled()).map(|a| a.computed),
                Err(Error::Cancelled(_))
            ),
            "{game}"
        );
        assert!(
            matches!(
                value::analyze(&r, 100_000, &late()).map(|a| a.computed),
                Err(Error::Cancelled(_))
            ),
            "{game}"
        );
    }
}

#[test]
fn positions_and_the_misere_search_stop_when_cancelled() {
    // Dawson's Kayles has no quotient built for `position` past heap 24 (heap 25 would need it
    // learned afresh), so these sums go to the search.
    let game: HeapGame = "dawsons-kayles".parse().unwrap();
    // Thousands of positions to search: stopped long before the position limit.
    for ctl in [cancelled(), late()] {
        assert!(matches!(
            position::misere(&game, &[30, 31, 32, 33], &ctl).map(|a| a.outcome),
            Err(Error::Cancelled(_))
        ));
        assert!(matches!(
            position::normal(&game, &[3, 5, 700], &ctl).map(|a| a.outcome),
            Err(Error::Cancelled(_))
        ));
        assert!(matches!(
            crate::heap::hint::hint(&game, &[30, 31, 32, 33], true, &ctl).map(|h| h.outcome),
            Err(Error::Cancelled(_))
        ));
    }
    // Without a control the same misère search ends (here at its position limit).
    assert!(matches!(
        position::misere(&game, &[30, 31, 32, 33], &Control::none()),
        Err(Error::Limit(_))
    ));
}

#[test]
fn graph_solvers_stop_when_cancelled() {
    let g = cyclic_graph(1000);
    for ctl in [cancelled(), late()] {
        assert!(matches!(
            loopy::solve(&g, &ctl).map(|v| v.value(&g, 0)),
            Err(Error::Cancelled(_))
        ));
        assert!(matches!(
            outcome::solve(&g, Play::Normal, &ctl).map(|o| o.outcome(0)),
            Err(Error::Cancelled(_))
        ));
    }
    let path: Vec<(u32, u32)> = (0..999).map(|v| (v, v + 1)).collect();
    let acyclic_graph = Graph::<u32>::from_arcs(1000, &path).unwrap();
    assert!(matches!(
        acyclic::grundy_of_graph(&acyclic_graph, &cancelled()),
        Err(Error::Cancelled(_))
    ));
    // Without a control they answer.
    assert!(loopy::solve(&g, &Control::none()).is_ok());
    assert!(acyclic::grundy_of_graph(&acyclic_graph, &Control::none()).is_ok());
}

#[test]
fn counting_by_enumeration_stops_when_cancelled() {
    let limits = Limits::default();
    for ctl in [cancelled(), late()] {
        assert!(matches!(
            histogram_of_fn(0, 100_000, &limits, &ctl, |n| Ok(n as u64 % 7)).map(|h| h.total()),
            Err(Error::Cancelled(_))
        ));
    }
    let h = histogram_of_fn(0, 100_000, &limits, &Control::none(), |n| Ok(n as u64 % 7));
    assert_eq!(h.map(|h| h.total()), Ok(100_001));
}

#[test]
fn excess_search_stops_when_cancelled_and_records_nothing() {
    let mut field = crate::ordinal::nim_mul::tests::F::new();
    assert!(matches!(
        field.excess_with(7, &cancelled()),
        Err(Error::Cancelled(_))
    ));
    assert_eq!(field.known_excesses().count(), 0);
    // The same field then answers in full.
    assert_eq!(field.excess_with(7, &Control::none()).map(|e| e.m), Ok(1));
}

#[test]
fn memory_budget_refuses_past_its_limit_and_gives_back_on_drop() {
    let budget = MemoryBudget::new(1000);
    let c = Control::none().with_memory(budget.clone());
    let mut a = c.reserve(600, "table A").unwrap();
    assert_eq!(budget.used(), 600);
    let e = c.reserve(500, "table B").unwrap_err();
    match e {
        Error::Limit(l) => {
            assert_eq!(l.kind, LimitKind::Memory);
            assert_eq!(l.amounts, Some((1100, 1000)));
            assert!(l.what.contains("table B"), "{}", l.what);
        }
        other => panic!("expected a memory limit, got {other:?}"),
    }
    assert_eq!(budget.used(), 600, "a refused reservation holds nothing");
    a.grow(400, "table A").unwrap();
    assert!(a.grow(1, "table A").is_err());
    assert_eq!(a.bytes(), 1000);
    a.resize(100, "table A").unwrap();
    assert_eq!(budget.used(), 100);
    drop(a);
    assert_eq!(budget.used(), 0);
    assert!(Control::none().reserve(u64::MAX / 2, "x").is_ok());
}

#[test]
fn memory_budget_holds_under_racing_threads() {
    let budget = MemoryBudget::new(10_000);
    let held: Vec<Vec<Reservation>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let b = budget.clone();
                s.spawn(move || (0..10_000).filter_map(|_| b.reserve(1, "t").ok()).collect())
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let total: usize = held.iter().map(Vec::len).sum();
    assert_eq!(total, 10_000);
    assert_eq!(budget.used(), 10_000);
    drop(held);
    assert_eq!(budget.used(), 0);
}

#[test]
fn format_bytes_picks_the_unit() {
    assert_eq!(format_bytes(512), "512 B");
    assert_eq!(format_bytes(1536), "1.5 KiB");
    assert_eq!(format_bytes(3 << 30), "3.0 GiB");
}

#[test]
fn thread_counts_are_read_as_rayon_reads_them_up_to_the_limit() {
    assert_eq!(parse_threads("").unwrap(), None);
    assert_eq!(parse_threads("0").unwrap(), None);
    assert_eq!(parse_threads(" 3 ").unwrap(), Some(3));
    assert_eq!(parse_threads("1024").unwrap(), Some(MAX_THREADS));
    for bad in [
        "1025",
        "99999999999",
        "99999999999999999999999",
        "-1",
        "two",
        "2.5",
    ] {
        let e = parse_threads(bad).unwrap_err();
        assert!(
            matches!(&e, Error::Invalid(m) if m.contains("RAYON_NUM_THREADS") && m.contains(bad)),
            "{bad}: {e}"
        );
    }
}

/// `advance` adds the items of every thread sharing the control to one count, and the callback
/// is given the running total: its largest report is the sum of all.
#[test]
fn advance_reports_the_total_of_every_thread() {
    let largest = AtomicU64::new(0);
    let report = |done: u64| {
        largest.fetch_max(done, Ordering::Relaxed);
    };
    let ctl = Control::none().with_progress(&report);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..1000 {
                    ctl.advance(3).unwrap();
                }
            });
        }
    });
    assert_eq!(largest.load(Ordering::Relaxed), 12_000);
}
