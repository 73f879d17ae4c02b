//! Engines over games: Grundy values of acyclic games, outcomes with remoteness, the generalized
//! Sprague-Grundy function of games with cycles, sums, products and misère play.
//!
//! | module | what it computes | cost |
//! |---|---|---|
//! | [`acyclic`] | Grundy values `g(v) = mex g(options)` of acyclic games, implicit or explicit; a cycle is an error naming a position on it | `O(V+E)` |
//! | [`outcome`] | P / N / D and remoteness under normal or misère play, on any finite graph | `O(V+E)` |
//! | [`loopy`] | the generalized Sprague-Grundy function `γ` (values `n` or `∞(K)`) of any finite graph | `O(V+E)` a stage |
//! | [`sum`] | values, outcomes and winning moves of sums from those of their components | per component |
//! | [`tartan`] | the Tartan theorem for products of games: `G(g×h) = G(g) ⊗ G(h)` | — |
//! | [`misere`] | misère Nim by Bouton's rule | `O(heaps)` |
//! | [`chomp`] | Chomp: every staircase below the start in one array by rank, options first | staircases of the box |
//! | [`cram`] | Cram on boards of at most 128 cells: bitboards, a fixed-size table, the pruned nimber search of Beling and Rogalski | positions searched |
//! | [`nodekayles`] | Node-Kayles on graphs of at most 127 vertices: vertex masks, components in a fixed-size table, the pruned nimber search | positions searched |
//! | [`search`] | games by rules ([`families`](crate::game::families)): memoised search over canonical components, outcome of `G + *k`, misère play | positions searched |
//!
//! The engines over whole graphs take a [`Control`](crate::control::Control): it receives the
//! number of vertices labelled (or positions explored) now and then, and may stop the engine
//! with `Err(Error::Cancelled(_))`.
//!
//! Every engine has a `reference` submodule computing the same thing straight from the
//! definition, slowly; the tests pit the two against each other.

pub mod acyclic;
pub mod chomp;
pub mod cram;
mod known;
pub mod loopy;
pub mod misere;
pub mod nodekayles;
pub mod outcome;
pub mod search;
#[cfg(feature = "store")]
pub mod store;
pub mod sum;
mod table;
pub mod tartan;

use std::fmt;

/// The outcome class of a position: who wins with perfect play.
///
/// Every position of an impartial game is in exactly one class. If some option is a `P`
/// position, moving there wins (`N`); if every option is `N` (or there is none, under normal
/// play), every move hands the opponent a win (`P`). In a game with cycles the positions left
/// unlabelled when no more can be labelled this way are `D`: from them the player to move has
/// no move to a `P` position but a move to another `D` position, so neither side can force an
/// end. Finite games (sums of heaps, acyclic graphs) have only `P` and `N` positions.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins: the player to move loses.
    P,
    /// The next player (the one to move) wins.
    N,
    /// Neither player can force a win: with perfect play the game never ends.
    D,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        })
    }
}

/// The winning convention.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Play {
    /// Normal play: the player who cannot move loses.
    #[default]
    Normal,
    /// Misère play: the player who cannot move wins.
    Misere,
}

/// Solves the starting position of a loaded game of the rules notation: Cram, Chomp and
/// Node-Kayles with their own engines ([`cram::solve`], [`chomp::solve`], [`nodekayles::solve`],
/// each handing what it does not take to the general search), every other game with the
/// search engine for games by rules ([`search::solve`]). The CLI's `grundy solve`, the playground and Python all answer
/// through here.
pub fn solve_loaded(
    loaded: &crate::game::families::Loaded,
    play: Play,
    moves: bool,
    ctl: &crate::control::Control,
) -> crate::error::Result<search::Solution> {
    use crate::game::families::{wythoff::Wythoff, Loaded};
    use search::{solve, Settings};
    match loaded {
        Loaded::Chomp(p) => chomp::solve(p, play, moves, ctl),
        Loaded::Cram(p) => cram::solve(p, play, moves, ctl),
        Loaded::NodeKayles(f, p) => nodekayles::solve(f, p, play, moves, ctl),
        Loaded::Wythoff(p) => solve(&Wythoff, p, play, Settings::new(), moves, ctl),
        #[cfg(feature = "script")]
        Loaded::Rules(f, p) => solve(f.as_ref(), p, play, Settings::new(), moves, ctl),
    }
}

/// Shared strategies for the solver tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use proptest::prelude::*;

    /// A random multigraph on `1..=max_n` vertices with up to `max_arcs` arcs, self-loops and
    /// cycles included.
    pub fn random_graph(
        max_n: usize,
        max_arcs: usize,
    ) -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
        (1..=max_n).prop_flat_map(move |n| {
            let arc = (0..n as u32, 0..n as u32);
            (Just(n), proptest::collection::vec(arc, 0..=max_arcs))
        })
    }
}
