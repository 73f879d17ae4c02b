//! The product of two games (Conway, *On Numbers and Games*, ch. 14; Lenstra, "Nim
//! multiplication"; the two-dimensional coin-turning games of *Winning Ways*, ch. 14).
//!
//! A position of `G × H` is a finite set of pairs `(g, h)` of positions (coins showing heads on
//! the board `G × H`). A move picks a pair `(g, h)` of the set, an option `g'` of `g` and an
//! option `h'` of `h`, and toggles (adds if absent, removes if present) the four pairs
//! `(g, h)`, `(g', h)`, `(g, h')`, `(g', h')` — the "diminishing rectangles" move: the coin at
//! the corner `(g, h)` is turned from heads to tails together with the other three corners of
//! the rectangle. Sets, not multisets: two coins on one square cancel, which is exactly what the
//! xor of values does. When `G` and `H` are acyclic, so is `G × H`: a move removes `(g, h)` and
//! toggles only pairs of smaller depth sum `depth(g) + depth(h)`, so the number of pairs at each
//! depth sum, read from the deepest level down, decreases lexicographically. The **Tartan theorem**
//! says `G({(g, h)}) = G(g) ⊗ G(h)` (nim product), a set's value being the xor of its pairs':
//! see [`crate::solve::tartan`].

use super::Game;

/// The product `A × B` of two games; positions are sorted sets (vectors without repetition)
/// of pairs.
#[derive(Clone, Debug, Default)]
pub struct Product<A, B>(pub A, pub B);

/// Toggles `x` in the sorted set `set`.
fn toggle<T: Ord>(set: &mut Vec<T>, x: T) {
    match set.binary_search(&x) {
        Ok(i) => {
            set.remove(i);
        }
        Err(i) => set.insert(i, x),
    }
}

impl<A: Game, B: Game> Product<A, B>
where
    A::Position: Ord,
    B::Position: Ord,
{
    /// The position holding the single pair `(g, h)`.
    pub fn pair(g: A::Position, h: B::Position) -> Vec<(A::Position, B::Position)> {
        vec![(g, h)]
    }

    /// The canonical position of a list of pairs: sorted, with pairs listed an even number of
    /// times removed (they cancel).
    pub fn position(mut pairs: Vec<(A::Position, B::Position)>) -> Vec<(A::Position, B::Position)> {
        pairs.sort();
        let mut out: Vec<(A::Position, B::Position)> = Vec::with_capacity(pairs.len());
        for p in pairs {
            if out.last() == Some(&p) {
                out.pop();
            } else {
                out.push(p);
            }
        }
        out
    }
}

impl<A: Game, B: Game> Game for Product<A, B>
where
    A::Position: Ord,
    B::Position: Ord,
{
    type Position = Vec<(A::Position, B::Position)>;
    fn options(
        &self,
        set: &Self::Position,
        out: &mut Vec<Self::Position>,
    ) -> crate::error::Result<()> {
        let (mut gs, mut hs) = (Vec::new(), Vec::new());
        for (g, h) in set {
            gs.clear();
            hs.clear();
            self.0.options(g, &mut gs)?;
            self.1.options(h, &mut hs)?;
            for g2 in &gs {
                for h2 in &hs {
                    let mut next = set.clone();
                    toggle(&mut next, (g.clone(), h.clone()));
                    toggle(&mut next, (g2.clone(), h.clone()));
                    toggle(&mut next, (g.clone(), h2.clone()));
                    toggle(&mut next, (g2.clone(), h2.clone()));
                    out.push(next);
                }
            }
        }
        Ok(())
    }
}
