//! The search engine for games by rules: positions per second and table hit rate, and the gain
//! from decomposition and from symmetry, each measured against the engine without it on the
//! same positions, side by side; the method chosen by the game ([`Method::Auto`]) against each
//! method alone.
//!
//! `cargo bench -p grundy --bench search`. With `-- largest SECONDS` it instead solves empty
//! Cram boards of growing size (3×n, 4×n, 5×n, 6×n, 7×7 …) within a total time budget and
//! prints each value with its time: the figures of the "largest Cram boards" table of
//! `docs/performance.md`.

mod common;

use common::{fmt_duration, header, median_time, row};
use grundy::control::Control;
use grundy::game::families::chomp::{self, Chomp};
use grundy::game::families::cram::{Board, Cram};
use grundy::game::families::node_kayles::{BitGraph, NodeKayles};
use grundy::game::families::wythoff::Wythoff;
use grundy::game::Structured;
use grundy::solve::search::{Method, Search, Settings};
use std::time::{Duration, Instant};

/// Solves `p` with fresh tables under `settings`: (value, positions, hit rate, method).
fn run<F: Structured>(f: &F, p: &F::Position, settings: Settings) -> (u64, u64, f64, Method) {
    let ctl = Control::none();
    let mut s = Search::new(f, settings, &ctl);
    let (v, m) = s.value_by(p).expect("bench positions are solvable");
    (v, s.stats().positions, s.stats().hit_rate(), m)
}

/// One comparison: the engine with everything on, and with `off` (the naive column).
fn compare<F: Structured>(what: &str, f: &F, p: &F::Position, off: Settings, runs: usize) {
    compare_with(what, f, p, Settings::new(), off, runs);
}

/// One comparison: the engine under `on`, and under `off` (the naive column).
fn compare_with<F: Structured>(
    what: &str,
    f: &F,
    p: &F::Position,
    on: Settings,
    off: Settings,
    runs: usize,
) {
    let (v1, positions, hits, method) = run(f, p, on);
    let (v2, positions_off, _, _) = run(f, p, off);
    assert_eq!(v1, v2, "{what}: the switches must not change the value");
    let fast = median_time(runs, || run(f, p, on));
    let slow = median_time(runs, || run(f, p, off));
    let chose = match on.method {
        Method::Auto => format!("; chose the {method}"),
        _ => String::new(),
    };
    row(
        &format!(
            "{what} (value {v1}; {positions} vs {positions_off} positions; hit rate {:.0}%{chose})",
            100.0 * hits
        ),
        positions,
        fast,
        Some(slow),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "largest") {
        let secs: u64 = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(600);
        largest(Duration::from_secs(secs));
        return;
    }
    let runs = 5;
    header("Search engine: everything on vs decomposition off (positions/s of the full engine)");
    let no_split = Settings::new().decompose(false);
    compare(
        "cram 1x14",
        &Cram,
        &Board::empty(1, 14).unwrap(),
        no_split,
        runs,
    );
    compare(
        "cram 3x5",
        &Cram,
        &Board::empty(3, 5).unwrap(),
        no_split,
        runs,
    );
    compare(
        "node-kayles path 24",
        &NodeKayles::default(),
        &BitGraph::path(24).unwrap(),
        no_split,
        runs,
    );

    header("Search engine: everything on vs symmetry off");
    let no_sym = Settings::new().symmetry(false);
    compare(
        "cram 4x4",
        &Cram,
        &Board::empty(4, 4).unwrap(),
        no_sym,
        runs,
    );
    compare(
        "cram 3x6",
        &Cram,
        &Board::empty(3, 6).unwrap(),
        no_sym,
        runs,
    );
    compare("chomp 6x6", &Chomp, &chomp::rectangle(6, 6), no_sym, runs);
    compare(
        "node-kayles grid 3x4",
        &NodeKayles::default(),
        &BitGraph::grid(3, 4).unwrap(),
        no_sym,
        runs,
    );

    header("Search engine: outcome-only search of G + *k vs mex of every option's value");
    let mex = Settings::new().method(Method::Mex);
    let outcome = Settings::new().method(Method::Outcome);
    let (cram44, cram37) = (Board::empty(4, 4).unwrap(), Board::empty(3, 7).unwrap());
    compare_with("cram 4x4", &Cram, &cram44, outcome, mex, runs);
    compare_with("cram 3x7", &Cram, &cram37, outcome, mex, runs);
    compare_with(
        "chomp 6x6",
        &Chomp,
        &chomp::rectangle(6, 6),
        outcome,
        mex,
        runs,
    );

    header("Search engine: the method chosen by the game (auto) vs the outcome search alone");
    compare("cram 4x4", &Cram, &cram44, outcome, runs);
    compare("cram 3x7", &Cram, &cram37, outcome, runs);
    compare("chomp 8x8", &Chomp, &chomp::rectangle(8, 8), outcome, runs);
    compare("wythoff 60,60", &Wythoff, &(60, 60), outcome, runs);

    header("Search engine: the method chosen by the game (auto) vs the better method alone");
    compare("cram 3x7 (vs outcome)", &Cram, &cram37, outcome, runs);
    compare(
        "chomp 8x8 (vs mex)",
        &Chomp,
        &chomp::rectangle(8, 8),
        mex,
        runs,
    );
    compare("wythoff 200,200 (vs mex)", &Wythoff, &(200, 200), mex, 3);
}

/// Empty Cram boards `r × c` for `r = 3..=7` and `c = r, r+1, …`, each number of rows with a
/// fifth of `budget` and a table of its own (at most 4 GiB), until its time or memory runs out:
/// the value and time of each board solved, and where each series stopped.
fn largest(budget: Duration) {
    println!(
        "\n### Cram boards solved within {} in all\n",
        fmt_duration(budget)
    );
    println!("| board | value | time | positions so far | table |");
    println!("|---|---|---|---|---|");
    for r in 3..=7usize {
        let start = Instant::now();
        let ctl = Control::none()
            .with_deadline(start + budget / 5)
            .with_memory(grundy::MemoryBudget::new(4 << 30));
        let mut search = Search::new(&Cram, Settings::new().method(Method::Outcome), &ctl);
        for c in r..=40 {
            let t = Instant::now();
            match search.value(&Board::empty(r, c).unwrap()) {
                Ok(v) => {
                    let st = search.stats();
                    println!(
                        "| {r}x{c} | {v} | {} | {} | {} MiB |",
                        fmt_duration(t.elapsed()),
                        st.positions,
                        st.table_bytes >> 20
                    );
                }
                Err(e) => {
                    println!(
                        "| {r}x{c} | stopped: {e} | {} | | |",
                        fmt_duration(t.elapsed())
                    );
                    break;
                }
            }
        }
    }
}
