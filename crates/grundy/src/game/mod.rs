//! What a game is.
//!
//! An impartial game is a directed graph `G = (V, δ)` of positions, where `δ(v)` is the set of
//! options of `v`: the positions reachable from `v` in one move. Both players have the same
//! moves, so a position alone (not whose turn it is) determines the game. Users meet games in
//! three shapes, all of which the solvers accept:
//!
//! * an implicit game: a Rust type implementing [`Game`], whose positions are generated on demand;
//! * an explicit graph, read from a file or built by exploring an implicit game;
//! * sums and products of games.

pub mod examples;
pub mod families;
pub mod graph;
pub(crate) mod hash;
pub mod product;
pub mod spec;
pub mod sum;

use std::hash::Hash;

/// An impartial game given implicitly by its move generator.
///
/// `options(p, out)` appends to `out` every position reachable from `p` in one move (an
/// option may be listed more than once; solvers do not rely on uniqueness). A position with no
/// options is terminal: under normal play the player to move there loses.
///
/// The trait is object-safe in spirit but kept generic for speed: solvers are monomorphised per
/// game, and generation writes into a caller-owned buffer so that no allocation happens per
/// position.
pub trait Game {
    /// A position of the game. Hashable so that solvers can memoise values.
    type Position: Clone + Eq + Hash;

    /// Appends the options of `p` to `out` (without clearing it).
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>);
}

/// The minimum excluded value, which defines the Grundy value `g(v) = mex { g(w) : v → w }`: the least natural number not in `values`. The mex of `k`
/// values is at most `k`, so a bitmap of `k + 1` flags (`seen`, reused across calls) suffices:
/// `O(k)` time, no sorting.
pub fn mex(values: &[u64], seen: &mut Vec<bool>) -> u64 {
    seen.clear();
    seen.resize(values.len() + 1, false);
    for &v in values {
        if v < seen.len() as u64 {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|&b| !b).unwrap_or(values.len()) as u64
}

/// A game that can also enumerate the positions *from* which a position is reached, for
/// retrograde analysis (work backwards from terminal positions without storing the arcs).
pub trait Retrograde: Game {
    /// Appends every position `q` with `p ∈ options(q)` to `out` (without clearing it).
    fn predecessors(&self, p: &Self::Position, out: &mut Vec<Self::Position>);
}

impl<G: Game + ?Sized> Game for &G {
    type Position = G::Position;
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).options(p, out)
    }
}
