//! The game engine at scale: retrograde W/L/D and the generalized Sprague-Grundy function on
//! random graphs, and an implicit game of 10^7 positions, each beside a naive method.
//!
//! `cargo bench -p grundy --bench engine`. Rows marked "1 thread" run in a one-thread rayon
//! pool (arcs/s per core; the CPU row is the solving thread's), rows marked "2 threads" use
//! both cores (wall clock only: the work is spread over threads).

mod common;

use common::{header, row};
use grundy::control::Control;
use grundy::game::examples::Subtraction;
use grundy::game::graph::{explore, Graph};
use grundy::game::sum::Sum;
use grundy::solve::acyclic::{self, AcyclicSolver};
use grundy::solve::{loopy, outcome, Outcome, Play};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// A random graph on `n` vertices: each vertex gets a uniform out-degree in `0..=2d` (mean `d`,
/// about 1 vertex in `2d+1` terminal, so that retrograde analysis has work) and uniform targets.
fn random_arcs(n: usize, d: u32, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut arcs = Vec::with_capacity(n * d as usize);
    for u in 0..n as u32 {
        for _ in 0..rng.gen_range(0..=2 * d) {
            arcs.push((u, rng.gen_range(0..n as u32)));
        }
    }
    arcs
}

/// CPU time of the calling thread so far (`/proc/thread-self/schedstat`, nanoseconds on CPU),
/// or zero where that file does not exist.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// Median wall-clock and median CPU time of the calling thread over `runs` runs (after one
/// warm-up). On a shared, loaded machine the wall time includes time spent descheduled; the
/// thread's CPU time is the cost on one core.
fn measure<R>(runs: usize, mut f: impl FnMut() -> R) -> (Duration, Duration) {
    std::hint::black_box(f());
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..runs.max(1) {
        let (t, c) = (Instant::now(), thread_cpu());
        std::hint::black_box(f());
        wall.push(t.elapsed());
        cpu.push(thread_cpu().saturating_sub(c));
    }
    wall.sort();
    cpu.sort();
    (wall[wall.len() / 2], cpu[cpu.len() / 2])
}

/// Prints a wall-clock row and a CPU-time row for the same measurement.
fn rows(what: &str, items: u64, fast: (Duration, Duration), naive: Option<(Duration, Duration)>) {
    row(&format!("{what}, wall"), items, fast.0, naive.map(|n| n.0));
    row(
        &format!("{what}, CPU of the solving thread"),
        items,
        fast.1,
        naive.map(|n| n.1),
    );
}

/// Shorthand for a measurement without a CPU-time row.
fn median_time<R>(runs: usize, f: impl FnMut() -> R) -> Duration {
    measure(runs, f).0
}

fn main() {
    header("Game graphs: retrograde outcomes and generalized Sprague-Grundy values");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();

    let (n, d) = (1_000_000usize, 10u32);
    let arcs = random_arcs(n, d, 1);
    let e = arcs.len() as u64;
    let g = Graph::from_arcs(n, &arcs).unwrap();
    let o = outcome::solve(&g, Play::Normal, &Control::none()).unwrap();
    let decided = (0..n as u32)
        .filter(|&v| o.outcome(v) != Outcome::D)
        .count();
    eprintln!(
        "random graph: {n} vertices, {e} arcs, {decided} decided under normal play, \
         graph {} MiB",
        g.memory_bytes() >> 20
    );

    // Forward arrays once; then the reverse placement sequentially and on both cores.
    let mut offsets = vec![0u32; n + 1];
    for &(u, _) in &arcs {
        offsets[u as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let targets: Vec<u32> = arcs.iter().map(|&(_, v)| v).collect();
    type Build = fn(Vec<u32>, Vec<u32>) -> grundy::Result<Graph>;
    let builds: [(&str, &rayon::ThreadPool, Build); 2] = [
        ("1 thread", &one, Graph::from_csr),
        ("2 threads", &two, Graph::from_csr_parallel),
    ];
    for (threads, pool, build) in builds {
        let time =
            pool.install(|| median_time(3, || build(offsets.clone(), targets.clone()).unwrap()));
        row(
            &format!("build reverse CSR, {e} arcs, {threads} (arcs/s)"),
            e,
            time,
            None,
        );
    }
    let naive = measure(3, || {
        outcome::reference::textbook_queue(n, &arcs, Play::Normal)
    });
    let fast = one.install(|| {
        measure(5, || {
            outcome::solve_sequential(&g, Play::Normal, &Control::none()).unwrap()
        })
    });
    rows(
        &format!("W/L/D + remoteness, 10^6 V / {e} arcs, 1 thread (arcs/s)"),
        e,
        fast,
        Some(naive),
    );
    let par = two.install(|| {
        measure(5, || {
            outcome::solve_parallel(&g, Play::Normal, &Control::none()).unwrap()
        })
    });
    row(
        &format!("W/L/D + remoteness, 10^6 V / {e} arcs, 2 threads by layers (arcs/s), wall"),
        e,
        par.0,
        Some(naive.0),
    );
    let m = outcome::solve(&g, Play::Misere, &Control::none()).unwrap();
    let decided = (0..n as u32)
        .filter(|&v| m.outcome(v) != Outcome::D)
        .count();
    let fast = measure(5, || {
        outcome::solve(&g, Play::Misere, &Control::none()).unwrap()
    });
    rows(
        &format!("W/L/D misère ({decided} vertices decided), 10^6 V / {e} arcs (arcs/s)"),
        e,
        fast,
        None,
    );
    let gsg = measure(3, || loopy::solve(&g, &Control::none()).unwrap());
    let values = loopy::solve(&g, &Control::none()).unwrap();
    let top = (0..n as u32)
        .filter_map(|v| values.finite(v))
        .max()
        .unwrap_or(0);
    eprintln!("generalized SG: largest finite value {top}");
    rows(
        &format!("generalized SG, 10^6 V / {e} arcs (arcs/s)"),
        e,
        gsg,
        None,
    );

    // The naive sweeps cost O(E · degree) a sweep: compare on a tenth of the size.
    let small_arcs = random_arcs(n / 10, d, 2);
    let small = Graph::from_arcs(n / 10, &small_arcs).unwrap();
    let se = small_arcs.len() as u64;
    let fast = measure(3, || loopy::solve(&small, &Control::none()).unwrap());
    let naive = measure(1, || loopy::reference::sweeps(&small));
    assert_eq!(
        loopy::solve(&small, &Control::none()).unwrap(),
        loopy::reference::sweeps(&small)
    );
    rows(
        &format!("generalized SG, 10^5 V / {se} arcs (arcs/s)"),
        se,
        fast,
        Some(naive),
    );

    if std::env::var_os("ENGINE_BENCH_GRAPHS_ONLY").is_some() {
        return;
    }
    header(
        "Implicit game: sum of two subtraction games S(1,2,3) from (3161, 3161), 10^7 positions",
    );
    let game = Sum(Subtraction(vec![1, 2, 3]), Subtraction(vec![1, 2, 3]));
    let start = (3161u64, 3161u64);
    let positions = 3162u64 * 3162;
    let memo = measure(1, || {
        let mut s = AcyclicSolver::new(&game, 1 << 26);
        s.value(&start).unwrap()
    });
    let naive = measure(1, || acyclic::reference::grundy_recursive(&game, &start));
    rows(
        "Grundy by memoised DFS (positions/s)",
        positions,
        memo,
        Some(naive),
    );
    let explored = median_time(1, || {
        explore(&game, &[start], 1 << 26, &Control::none()).unwrap()
    });
    row(
        "explore to an explicit graph (positions/s)",
        positions,
        explored,
        None,
    );
    let x = explore(&game, &[start], 1 << 26, &Control::none()).unwrap();
    let xe = x.graph.arc_count() as u64;
    let topo = median_time(3, || {
        acyclic::grundy_of_graph(&x.graph, &Control::none()).unwrap()
    });
    row(
        &format!("Grundy on the explored graph, {xe} arcs (arcs/s)"),
        xe,
        topo,
        None,
    );
    let wld = measure(3, || {
        outcome::solve(&x.graph, Play::Normal, &Control::none()).unwrap()
    });
    rows(
        &format!("W/L/D on the explored graph, {xe} arcs (arcs/s)"),
        xe,
        wld,
        None,
    );
    let gsg = measure(1, || loopy::solve(&x.graph, &Control::none()).unwrap());
    rows(
        &format!("generalized SG on the explored graph, {xe} arcs (arcs/s)"),
        xe,
        gsg,
        None,
    );
}
