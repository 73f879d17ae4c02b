//! Capability: positions whose options may be infinitely many, described by finitely many
//! families.
//!
//! **Theorem (Sprague-Grundy for well-founded games).** If every play of an impartial game ends
//! after finitely many moves (the game is well-founded, though a position may have infinitely
//! many options and plays have no common bound), then `g(p) = mex { g(q) : q an option of p }`
//! is a well-defined ordinal, `p` is lost for the player to move iff `g(p) = 0`, and a sum of
//! games has the nim-sum of its components' values (Conway, *On Numbers and Games*, ch. 11).
//! When a move may set a pile to any natural number, the values leave ℕ: the mex of all
//! naturals is ω.
//!
//! An infinite set of options cannot be listed, so a [`Transfinite`] game describes each
//! position's options by finitely many [`OptionFamily`]s: a single option, whose value the
//! engine ([`crate::transfinite::TransfiniteSolver`]) computes recursively, or an infinite
//! family whose values the game states as an [`OrdinalSet`] (finitely many points and intervals
//! — "any x < a", "the prefix followed by anything below ω^i"), together with a way to pick a
//! member of a given value.
//!
//! Such a game is still one [`Game`]: [`Game::options`] lists the options of a position that
//! has finitely many, and refuses one that has infinitely many with a stated limit
//! ([`Error::Limit`] of kind [`LimitKind::Fixed`](crate::LimitKind::Fixed): no setting lists an
//! infinite set). So the finite engines ([`crate::solve::acyclic`], ...) run on the positions
//! from which every position reached has finitely many options, and agree there with the
//! ordinal engine: on such positions the two definitions of `g` coincide, the mex of finitely
//! many naturals being a natural.

use super::Game;
use crate::error::{Error, Result};
use crate::ordinal::nim_sum::OrdinalSet;
use crate::ordinal::Ordinal;

/// Picks an option of a given value out of an infinite family.
pub type Pick<'a, P> = Box<dyn Fn(&Ordinal) -> Option<P> + 'a>;

/// A finite description of some of a position's options.
pub enum OptionFamily<'a, P> {
    /// One option; its value is computed by the engine.
    One(P),
    /// Infinitely (or very) many options. `values` is the set of their Grundy values — or a
    /// subset of it with the same mex over the whole position (options whose values are
    /// already covered elsewhere may be left out). `pick(v)` returns an option of value `v`
    /// for every `v` in `values`.
    Values {
        /// The option values.
        values: OrdinalSet,
        /// An option with the given value.
        pick: Pick<'a, P>,
    },
}

/// Capability: a well-founded game whose positions' options come in finitely many families,
/// some of which may be infinite (see the module documentation).
///
/// [`Game::options`] of such a game lists the options where they are finitely many and
/// returns [`Error::Limit`] of kind [`LimitKind::Fixed`](crate::LimitKind::Fixed), "infinitely
/// many options", where they are not.
pub trait Transfinite: Game {
    /// The option families of `p` (none for a terminal position). Errors: a position that is
    /// not one of the game's (a wrong number of heaps).
    fn families(&self, p: &Self::Position) -> Result<Vec<OptionFamily<'_, Self::Position>>>;
}

/// The stated limit [`Game::options`] of a [`Transfinite`] game returns for a position with
/// infinitely many options (`what` names the position or the move): [`Error::Limit`] of kind
/// [`LimitKind::Fixed`](crate::LimitKind::Fixed).
pub(crate) fn infinitely_many_options(what: &str) -> Error {
    Error::limit(
        crate::LimitKind::Fixed,
        format!("{what} has infinitely many options, which cannot be listed"),
        "ask the ordinal engine (TransfiniteSolver), which takes infinite option families",
    )
}
