//! The dedicated engines for Chomp ([`grundy::solve::chomp`]) and Node-Kayles
//! ([`grundy::solve::nodekayles`]) beside the generic search for games by rules
//! ([`grundy::solve::search`], its default settings) on the same positions, in one run:
//! positions per second of the dedicated engine and its speed-up.
//!
//! `cargo bench -p grundy --bench boards` (`-- node-kayles`: Node-Kayles only). With
//! `-- reach SECONDS` it instead solves Node-Kayles on `3 × n` grids, on the generalized
//! Petersen graphs `P(n, 2)` and on the `n × n` queens graphs for growing `n` with the
//! dedicated engine, each family until a graph takes more than SECONDS, and prints each value
//! with its time in one process (the table "How far Node-Kayles reaches" of
//! `docs/games-by-rules.md` solves each graph in a run of its own).

mod common;

use common::{fmt_duration, header, median_time, row};
use grundy::control::Control;
use grundy::game::families::chomp::{self, Chomp};
use grundy::game::families::node_kayles::{BitGraph, NodeKayles};
use grundy::solve::search::{self, Settings, Solution};
use grundy::solve::{chomp as chomp_engine, nodekayles, Play};
use std::time::{Duration, Instant};

fn petersen(n: usize, k: usize) -> BitGraph {
    nodekayles::petersen(n, k).expect("at most 512 vertices")
}

fn queens(n: usize) -> BitGraph {
    nodekayles::queens(n).expect("at most 512 vertices")
}

fn solved(s: grundy::Result<Solution>) -> Solution {
    s.expect("bench positions are solvable")
}

fn chomp_rows(runs: usize) {
    header("Chomp: the dedicated engine against the generic search");
    let ctl = Control::none();
    for (r, c) in [(6, 6), (8, 8), (3, 20), (5, 9)] {
        let p = chomp::rectangle(r, c);
        let fast = solved(chomp_engine::solve(&p, Play::Normal, false, &ctl));
        let slow = solved(search::solve(
            &Chomp,
            &p,
            Play::Normal,
            Settings::new(),
            false,
            &ctl,
        ));
        assert_eq!(fast.value, slow.value, "chomp:{r}x{c}");
        let t_fast = median_time(runs, || chomp_engine::solve(&p, Play::Normal, false, &ctl));
        let t_slow = median_time(runs, || {
            search::solve(&Chomp, &p, Play::Normal, Settings::new(), false, &ctl)
        });
        row(
            &format!(
                "chomp:{r}x{c} (value {}; {} staircases)",
                fast.value.unwrap_or(0),
                fast.stats.positions
            ),
            fast.stats.positions,
            t_fast,
            Some(t_slow),
        );
    }
}

fn node_kayles_rows(runs: usize) {
    header("Node-Kayles: the dedicated engine against the generic search");
    let ctl = Control::none();
    let f = NodeKayles::default();
    let graphs = [
        ("grid:3x8", BitGraph::grid(3, 8).unwrap()),
        ("grid:4x5", BitGraph::grid(4, 5).unwrap()),
        ("grid:5x6", BitGraph::grid(5, 6).unwrap()),
        ("P(10,2)", petersen(10, 2)),
        ("P(12,2)", petersen(12, 2)),
        ("queens:5", queens(5)),
        ("cycle:30", BitGraph::cycle(30).unwrap()),
    ];
    for (name, g) in &graphs {
        let fast = solved(nodekayles::solve(&f, g, Play::Normal, false, &ctl));
        let slow = solved(search::solve(
            &f,
            g,
            Play::Normal,
            Settings::new(),
            false,
            &ctl,
        ));
        assert_eq!(fast.value, slow.value, "{name}");
        let t_fast = median_time(runs, || nodekayles::solve(&f, g, Play::Normal, false, &ctl));
        let t_slow = median_time(runs, || {
            search::solve(&f, g, Play::Normal, Settings::new(), false, &ctl)
        });
        row(
            &format!(
                "node-kayles:{name} (value {}; {} components searched)",
                fast.value.unwrap_or(0),
                fast.stats.positions
            ),
            fast.stats.positions,
            t_fast,
            Some(t_slow),
        );
    }
}

/// Solves `graph(n)` for `n = from, from + 1, …` until one takes more than `limit`.
fn reach(family: &str, from: usize, limit: Duration, graph: impl Fn(usize) -> Option<BitGraph>) {
    let ctl = Control::none();
    let f = NodeKayles::default();
    println!("\n| graph | vertices | value | seconds |\n|---|---|---|---|");
    for n in from.. {
        let Some(g) = graph(n) else { break };
        let t = Instant::now();
        let s = solved(nodekayles::solve(&f, &g, Play::Normal, false, &ctl));
        let took = t.elapsed();
        println!(
            "| {family}{n} | {} | {} | {:.2} |",
            g.len(),
            s.value.unwrap_or(0),
            took.as_secs_f64()
        );
        if took > limit {
            break;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "reach") {
        let secs: f64 = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(120.0);
        let limit = Duration::from_secs_f64(secs);
        reach("3×", 1, limit, |n| {
            (3 * n <= nodekayles::MAX_VERTICES).then(|| BitGraph::grid(3, n).unwrap())
        });
        reach("P(n,2), n = ", 5, limit, |n| {
            (2 * n <= nodekayles::MAX_VERTICES).then(|| petersen(n, 2))
        });
        reach("queens ", 1, limit, |n| {
            (n * n <= nodekayles::MAX_VERTICES).then(|| queens(n))
        });
        return;
    }
    let start = Instant::now();
    if !args.iter().any(|a| a == "node-kayles") {
        chomp_rows(5);
    }
    node_kayles_rows(3);
    println!("\n(total {})", fmt_duration(start.elapsed()));
}
