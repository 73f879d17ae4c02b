//! Misère quotients: the time to build and certify each quotient heap by heap, and the time to answer
//! every sum of three heaps up to N through it (build included) against the direct misère
//! search over the same sums in the same run.
//!
//! Run: `cargo bench -p grundy --bench misere`.

mod common;

use common::{header, median_time, row};
use grundy::misere::{quotient, reference::Search};
use grundy::{Control, HeapGame};

const RUNS: usize = 5;

fn main() {
    header("Misère quotients: build and certify Q_N (order, P-portion)");
    for (game, n) in [
        ("nim", 7),
        ("nim", 63),
        ("octal:0.75", 40),
        ("sub:1,3,4", 40),
        ("kayles", 12),
        ("kayles", 24),
        ("dawsons-kayles", 12),
        ("dawsons-kayles", 16),
        ("octal:4.7", 12),
        ("octal:0.137", 12),
        ("grundys-game", 14),
    ] {
        let g: HeapGame = game.parse().unwrap();
        let q = quotient(&g, n, &Control::none()).unwrap();
        let t = median_time(RUNS, || quotient(&g, n, &Control::none()).unwrap().order());
        let what = format!(
            "{game} --max-heap {n}: |Q| = {}, |P| = {}{}",
            q.order(),
            q.p_portion().len(),
            if q.proof().is_some() { ", proved" } else { "" }
        );
        row(&what, q.max_heap(), t, None);
    }

    header("Every sum of three heaps up to N: quotient (build included) vs direct search");
    for (game, n) in [
        ("octal:0.75", 12),
        ("sub:1,3,4", 12),
        ("kayles", 12),
        ("dawsons-kayles", 12),
    ] {
        let g: HeapGame = game.parse().unwrap();
        let sums: Vec<[u64; 3]> = (1..=n)
            .flat_map(|a| (a..=n).flat_map(move |b| (b..=n).map(move |c| [a, b, c])))
            .collect();
        let fast = median_time(RUNS, || {
            let q = quotient(&g, n, &Control::none()).unwrap();
            sums.iter()
                .filter(|s| q.is_p(q.of_heaps(&s[..]).unwrap()))
                .count()
        });
        let naive = median_time(RUNS, || {
            let mut search = Search::new(&g, 50_000_000);
            sums.iter().filter(|s| search.is_p(&s[..]).unwrap()).count()
        });
        row(
            &format!("{game}, heaps 1..{n}"),
            sums.len() as u64,
            fast,
            Some(naive),
        );
    }
}
