//! Ordinal arithmetic and transfinite game values, each beside a naive method.
//!
//! `cargo bench --bench ordinal`

mod common;

use common::{header, median_time, row};
use grundy::notation::ordinal::{parse_heap_graph, parse_matrix, parse_ordinal};
use grundy::ordinal::nim_sum::{nim_sum, reference};
use grundy::ordinal::Ordinal;
use grundy::transfinite::games::{reference as games_ref, FreeSet, LevelGame};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};

/// A random ordinal of the given height with up to `width` terms a level.
fn random_ordinal(rng: &mut impl Rng, height: u32, width: usize) -> Ordinal {
    if height == 0 {
        return Ordinal::from(rng.gen_range(0u64..1 << 40));
    }
    Ordinal::from_terms((0..rng.gen_range(1..=width)).map(|_| {
        (
            random_ordinal(rng, height - 1, width),
            BigUint::from(rng.gen_range(1u64..1 << 40)),
        )
    }))
}

fn main() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let runs = 7;
    header("Ordinals");

    let n = 2000;
    let xs: Vec<Ordinal> = (0..n).map(|_| random_ordinal(&mut rng, 2, 6)).collect();
    let ys: Vec<Ordinal> = (0..n).map(|_| random_ordinal(&mut rng, 2, 6)).collect();
    let fast = median_time(runs, || {
        xs.iter()
            .zip(&ys)
            .map(|(a, b)| nim_sum(a, b).terms().len())
            .sum::<usize>()
    });
    let naive = median_time(runs, || {
        xs.iter()
            .zip(&ys)
            .map(|(a, b)| reference::nim_sum_by_binary_expansion(a, b).terms().len())
            .sum::<usize>()
    });
    row(
        "nim-sum, height-2 ordinals, ~40-bit coefficients (vs xor of binary expansions)",
        n as u64,
        fast,
        Some(naive),
    );

    let fast = median_time(runs, || xs.iter().zip(&ys).filter(|(a, b)| a < b).count());
    let naive = median_time(runs, || {
        xs.iter()
            .zip(&ys)
            .filter(|(a, b)| {
                // The order of ordinals is the lexicographic order of their binary expansions.
                reference::binary_expansion(a) < reference::binary_expansion(b)
            })
            .count()
    });
    row(
        "comparison (vs comparing binary expansions)",
        n as u64,
        fast,
        Some(naive),
    );

    let texts: Vec<String> = xs.iter().map(Ordinal::to_string).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let fast = median_time(runs, || {
        texts
            .iter()
            .map(|t| parse_ordinal(t).map(|o| o.terms().len()).unwrap_or(0))
            .sum::<usize>()
    });
    row(
        &format!("parse (average {} bytes)", bytes / n),
        n as u64,
        fast,
        None,
    );
    let fast = median_time(runs, || {
        xs.iter().map(|x| x.to_string().len()).sum::<usize>()
    });
    row("print", n as u64, fast, None);

    // Game values: the closed form against the truncated finite game solved by mex search.
    let succ: Vec<Vec<usize>> = vec![vec![1, 2], vec![3], vec![3], vec![]];
    let game = LevelGame::new(succ.clone(), FreeSet::Path).unwrap();
    let heaps = [3u64, 2, 1, 3];
    let big: Vec<BigUint> = heaps.iter().map(|&h| BigUint::from(h)).collect();
    let fast = median_time(runs, || game.value(&big).unwrap());
    let naive = median_time(3, || {
        games_ref::level_game_truncated(&succ, FreeSet::Path, &heaps, 4)
    });
    row(
        "DAG path game, 4 vertices (vs truncated game, heaps < 4, mex search)",
        1,
        fast,
        Some(naive),
    );
    let rows = [vec![1u64, 2, 3], vec![3, 0, 1]];
    let cascade = LevelGame::cascade(&[3, 3]).unwrap();
    let flat: Vec<u64> = rows.iter().flatten().copied().collect();
    let flat_big: Vec<BigUint> = flat.iter().map(|&h| BigUint::from(h)).collect();
    let fast = median_time(runs, || cascade.value(&flat_big).unwrap());
    let succ: Vec<Vec<usize>> = (0..6)
        .map(|i| if i % 3 < 2 { vec![i + 1] } else { vec![] })
        .collect();
    let naive = median_time(3, || {
        games_ref::level_game_truncated(&succ, FreeSet::Path, &flat, 4)
    });
    row(
        "cascading nim, 2 rows of 3 piles (vs truncated game, piles < 4)",
        1,
        fast,
        Some(naive),
    );

    let (r, c) = (1000, 1000);
    let grid = LevelGame::grid(r, c).unwrap();
    let cells: Vec<BigUint> = (0..r * c)
        .map(|_| BigUint::from(rng.gen_range(0u64..1_000_000)))
        .collect();
    let fast = median_time(3, || grid.value(&cells).unwrap());
    row(
        "1451F matrix game, 1000×1000 cells (value)",
        (r * c) as u64,
        fast,
        None,
    );
    let fast = median_time(3, || grid.winning_move(&cells).unwrap());
    row(
        "1451F matrix game, 1000×1000 cells (winning move)",
        (r * c) as u64,
        fast,
        None,
    );

    // Wide inputs: a matrix of one row and a vertex with many successors, read and solved
    // (winning move). The "naive" column is twice the time of half the width, so a ratio near
    // 1.0× is linear growth.
    let wide = |w: usize| {
        let row: Vec<String> = (0..w).map(|i| (i % 10).to_string()).collect();
        let matrix = row.join(" ");
        let names: Vec<String> = (0..w).map(|i| format!("v{i}")).collect();
        let dag = format!("a=1: {}\n", names.join(" "));
        (matrix, dag)
    };
    let solve_matrix = |text: &str| {
        let rows = parse_matrix(text).unwrap();
        let game = LevelGame::grid(rows.len(), rows[0].len()).unwrap();
        let cells: Vec<BigUint> = rows.into_iter().flatten().collect();
        game.winning_move(&cells).unwrap().is_some()
    };
    let solve_dag = |text: &str| {
        let g = parse_heap_graph(text).unwrap();
        let game = LevelGame::new(g.succ, FreeSet::Path).unwrap();
        game.winning_move(&g.heaps).unwrap().is_some()
    };
    let (m100, d100) = wide(100_000);
    let (m200, d200) = wide(200_000);
    let half = median_time(runs, || solve_matrix(&m100));
    let full = median_time(runs, || solve_matrix(&m200));
    row(
        "matrix --move, one row of 2·10^5 entries (naive column: 2 × 10^5 entries)",
        200_000,
        full,
        Some(half * 2),
    );
    let half = median_time(runs, || solve_dag(&d100));
    let full = median_time(runs, || solve_dag(&d200));
    row(
        "dag --move, one vertex with 2·10^5 successors (naive column: 2 × 10^5)",
        200_000,
        full,
        Some(half * 2),
    );
}
