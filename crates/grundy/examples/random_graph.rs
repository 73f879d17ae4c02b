//! Writes a random game graph as an arc list (`U V` a line), for trying `grundy graph solve
//! --edges` at scale: each vertex gets a uniform out-degree in `0..=2·D` and uniform targets.
//!
//! `cargo run --release -p grundy --example random_graph -- VERTICES D SEED > graph.txt`

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("arguments: VERTICES D SEED (natural numbers)")
        })
        .collect();
    let (n, d, seed) = match args[..] {
        [n, d, seed] => (n, d, seed),
        _ => panic!("arguments: VERTICES D SEED"),
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    for u in 0..n {
        for _ in 0..rng.gen_range(0..=2 * d) {
            writeln!(out, "{u} {}", rng.gen_range(0..n))?;
        }
    }
    out.flush()
}
