//! Disjunctive sums of games: a position of `G + H` is a pair of positions, and a move is a
//! move in exactly one component. The game ends when no component has a move. Under normal
//! play the Sprague-Grundy theorem gives `g(a, b) = g(a) ⊕ g(b)` for acyclic games, and
//! [`crate::solve::sum`] extends this to games with cycles.

use super::Game;
use crate::error::Result;

/// The sum of two (possibly different) games; positions are pairs.
#[derive(Clone, Debug, Default)]
pub struct Sum<A, B>(pub A, pub B);

impl<A: Game, B: Game> Game for Sum<A, B> {
    type Position = (A::Position, B::Position);
    fn options(&self, (a, b): &Self::Position, out: &mut Vec<Self::Position>) -> Result<()> {
        let mut left = Vec::new();
        self.0.options(a, &mut left)?;
        out.extend(left.into_iter().map(|a2| (a2, b.clone())));
        let mut right = Vec::new();
        self.1.options(b, &mut right)?;
        out.extend(right.into_iter().map(|b2| (a.clone(), b2)));
        Ok(())
    }

    fn surely_finite(&self) -> bool {
        self.0.surely_finite() && self.1.surely_finite()
    }
}

/// The sum of any number of components of one game; a position is the list of component
/// positions (a list of heaps, for heap games).
#[derive(Clone, Debug, Default)]
pub struct SumOf<G>(pub G);

impl<G: Game> Game for SumOf<G> {
    type Position = Vec<G::Position>;
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()> {
        let mut opts = Vec::new();
        for (i, c) in p.iter().enumerate() {
            opts.clear();
            self.0.options(c, &mut opts)?;
            for o in opts.drain(..) {
                let mut q = p.clone();
                q[i] = o;
                out.push(q);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::examples::{NimHeap, Subtraction};
    use crate::solve::acyclic::AcyclicSolver;

    #[test]
    fn sums_of_acyclic_games_have_the_xor_of_the_values() {
        let sub = Subtraction(vec![1, 3, 4]);
        let mut s = AcyclicSolver::new(Sum(NimHeap, sub.clone()), 1 << 20);
        let mut one = AcyclicSolver::new(sub, 1 << 20);
        for a in 0..12u64 {
            for b in 0..20u64 {
                assert_eq!(s.value(&(a, b)).unwrap(), a ^ one.value(&b).unwrap());
            }
        }
        let mut n = AcyclicSolver::new(SumOf(NimHeap), 1 << 20);
        assert_eq!(n.value(&vec![3, 5, 6]).unwrap(), 0);
        assert_eq!(n.value(&vec![3, 5, 7]).unwrap(), 1);
        assert_eq!(n.value(&vec![]).unwrap(), 0);
    }
}
