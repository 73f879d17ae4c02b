//! A game of one's own, solved by the general solver through the `Game` trait.
//!
//! `cargo run -p grundy --example custom_game`
//!
//! A king stands on a board and may only step towards the corner (0, 0): one square left, one
//! down, or one diagonally down-left. Whoever cannot move (the king is in the corner) loses.
//! By induction the losing (P) squares are those with both coordinates even: from such a square
//! every step makes a coordinate odd, and from any other square a step makes both even again.
//! Several kings on the board form a sum of games, whose Grundy value is the nim-sum of the
//! kings' values (Sprague-Grundy).

use grundy::game::sum::SumOf;
use grundy::prelude::*;
use grundy::solve::acyclic::AcyclicSolver;

/// The king's walk to the corner; a position is the king's square `(x, y)`.
struct KingToCorner;

impl Game for KingToCorner {
    type Position = (u32, u32);

    fn options(&self, &(x, y): &(u32, u32), out: &mut Vec<(u32, u32)>) -> Result<(), Error> {
        if x > 0 {
            out.push((x - 1, y));
        }
        if y > 0 {
            out.push((x, y - 1));
        }
        if x > 0 && y > 0 {
            out.push((x - 1, y - 1));
        }
        Ok(())
    }
}

fn main() -> Result<(), Error> {
    const SIZE: u32 = 8;
    let mut solver = AcyclicSolver::new(KingToCorner, 1_000_000);
    println!("Grundy values of the king's squares (row y = 7 on top):");
    for y in (0..SIZE).rev() {
        let row: Vec<u64> = (0..SIZE)
            .map(|x| solver.value(&(x, y)))
            .collect::<Result<_, _>>()?;
        println!("  {row:?}");
        for (x, &v) in row.iter().enumerate() {
            // P exactly when both coordinates are even (see above).
            assert_eq!(v == 0, x % 2 == 0 && y % 2 == 0, "square ({x}, {y})");
            // A square has at most three options, so its value (their mex) is at most 3.
            assert!(v <= 3, "square ({x}, {y})");
        }
    }

    // Three kings: the sum of three copies of the game (a move moves one king).
    let three = SumOf(KingToCorner);
    let kings = vec![(3, 5), (2, 7), (6, 6)];
    let value = AcyclicSolver::new(&three, 1_000_000).value(&kings)?;
    let nim_sum = kings
        .iter()
        .map(|k| solver.value(k))
        .try_fold(0, |acc, v| v.map(|v| acc ^ v))?;
    println!("kings on {kings:?}: value {value}, nim-sum of the kings' values {nim_sum}");
    assert_eq!(value, nim_sum);
    Ok(())
}
