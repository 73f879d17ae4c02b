//! The nim multiplication table of 0..16, checked against Conway's definition.
//!
//! `cargo run -p grundy --example nim_product_table`
//!
//! Nim-multiplication is defined by `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`.
//! The nimbers below 16 = 2^(2^2) form a field with 16 elements, so every row but the first is
//! a permutation of 0..16, and the Fermat 2-powers 2, 4, 16, ... square to `3/2` of themselves.

use grundy::prelude::*;

const N: usize = 16;

fn main() {
    // The fast product of the library.
    let table: Vec<Vec<u64>> = (0..N as u64)
        .map(|a| (0..N as u64).map(|b| (Nim64(a) * Nim64(b)).0).collect())
        .collect();

    // The same table from the definition, filled in increasing order of (a, b).
    let mut by_definition = [[0u64; N]; N];
    for a in 0..N {
        for b in 0..N {
            let mut seen = [false; 2 * N];
            for a1 in 0..a {
                for b1 in 0..b {
                    let v = by_definition[a1][b] ^ by_definition[a][b1] ^ by_definition[a1][b1];
                    seen[v as usize] = true;
                }
            }
            by_definition[a][b] = seen.iter().position(|&s| !s).unwrap() as u64;
        }
    }

    print!("  ⊗ |");
    for b in 0..N {
        print!("{b:3}");
    }
    println!();
    println!("----+{}", "-".repeat(3 * N));
    for (a, row) in table.iter().enumerate() {
        print!("{a:3} |");
        for v in row {
            print!("{v:3}");
        }
        println!();
        assert_eq!(
            row[..],
            by_definition[a][..],
            "row {a} differs from the definition"
        );
    }

    for (a, row) in table.iter().enumerate() {
        // Commutative: the table is symmetric.
        for (b, &v) in row.iter().enumerate() {
            assert_eq!(v, table[b][a], "{a} ⊗ {b}");
        }
        // A field: every non-zero row is a permutation (each non-zero a has an inverse).
        if a > 0 {
            let mut sorted = row.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..N as u64).collect::<Vec<_>>(), "row {a}");
        }
    }
    // The Fermat 2-powers 2 and 4 (below 16): 2 ⊗ 2 = 3, 4 ⊗ 4 = 6.
    assert_eq!(table[2][2], 3);
    assert_eq!(table[4][4], 6);
    // Distinct Fermat 2-powers multiply as ordinary numbers: 2 ⊗ 4 = 8.
    assert_eq!(table[2][4], 8);
    println!("\nThe table agrees with the mex definition; 0..16 is a field under ⊕ and ⊗.");
}
