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
pub mod transfinite;

use crate::error::Result;
use std::hash::Hash;

/// An impartial game given implicitly by its move generator: the one game model of the library.
///
/// `options(p, out)` appends to `out` every position reachable from `p` in one move (an
/// option may be listed more than once; solvers do not rely on uniqueness). A position with no
/// options is terminal: under normal play the player to move there loses.
///
/// Generating options may fail: rules written as scripts (a Rhai script, a Python callable)
/// can raise errors, and the error then ends the solver's work with that error. The built-in
/// games never fail.
///
/// Every solver takes this trait. What a solver can exploit beyond the moves is told by small
/// capability traits beside it, in the manner of petgraph's `visit` traits; each has defaults
/// that are always right, so a game implements just the ones it has something to say in:
///
/// | capability | what it tells | who uses it |
/// |---|---|---|
/// | [`Components`] | a position as a disjunctive sum of independent parts | [`crate::solve::search`] |
/// | [`Canonical`] | one representative of symmetric positions | [`crate::solve::search`] |
/// | [`Show`] | positions and moves as text | `--moves`, errors, the playground |
/// | [`Footprint`] | the bytes a stored position takes, and its size | the memory budget |
/// | [`Encoding`] | positions as bytes and back | the distributed engine, checkpoints |
/// | [`Retrograde`] | the positions a position is reached from | retrograde analysis |
/// | [`Transfinite`](transfinite::Transfinite) | options in families, some infinite, with their ordinal values | [`crate::transfinite`] |
///
/// The trait is kept generic for speed: solvers are monomorphised per game, and generation
/// writes into a caller-owned buffer so that no allocation happens per position.
pub trait Game {
    /// A position of the game. Hashable so that solvers can memoise values.
    type Position: Clone + Eq + Hash;

    /// Appends the options of `p` to `out` (without clearing it). Fails only for games whose
    /// rules are user code (a script error, a malformed answer).
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()>;

    /// Whether every line of play is known to end. A game that cannot promise it (rules
    /// written by users) says `false`, and a solver that recurses then watches for a position
    /// repeating on its line, reporting it as an error instead of recursing forever.
    fn surely_finite(&self) -> bool {
        true
    }
}

/// Capability: positions that fall apart into independent components.
///
/// A position that is a disjunctive sum `G = G₁ + … + Gₘ` of independent parts has the Grundy
/// value `g(G₁) ⊕ … ⊕ g(Gₘ)` (Sprague-Grundy), so a solver may solve each part on its own and
/// cache it: a Cram board whose free cells fall apart into regions, a Node-Kayles graph with
/// several connected components, a sum of heaps.
pub trait Components: Game {
    /// Appends the independent components of `p` to `out`: positions whose disjunctive sum is
    /// `p`. Components without moves may be left out. The default keeps `p` whole.
    fn split(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()> {
        out.push(p.clone());
        Ok(())
    }
}

/// Capability: one representative for positions related by a symmetry of the game.
///
/// Isomorphic positions have equal values (a value depends on the graph of positions only), so
/// a solver may store a position under a representative of its class: the least of a board's
/// reflections and rotations, a relabelled graph. The representative need not be unique for a
/// solver to be right: two positions with the same representative must only be isomorphic; a
/// unique representative merely finds more hits.
pub trait Canonical: Game {
    /// A position isomorphic to `p` (same game graph from there on) chosen so that symmetric
    /// positions tend to share it. The default is `p` itself.
    fn canonical(&self, p: &Self::Position) -> Result<Self::Position> {
        Ok(p.clone())
    }
}

/// A move described: its name, the position after it as text, and that position.
pub type Described<P> = (String, String, P);

/// Capability: positions and moves as text, in the game's notation.
pub trait Show: Game {
    /// The position in the game's notation, e.g. `cram:../#.`.
    fn show(&self, p: &Self::Position) -> Result<String>;

    /// The moves from `p` as `(move, position after as text, position after)`, every option of
    /// [`Game::options`] once. The default names a move by its number (from 1) and shows the
    /// position after with [`Show::show`].
    fn described_moves(&self, p: &Self::Position) -> Result<Vec<Described<Self::Position>>> {
        let mut out = Vec::new();
        self.options(p, &mut out)?;
        out.into_iter()
            .enumerate()
            .map(|(i, q)| Ok(((i + 1).to_string(), self.show(&q)?, q)))
            .collect()
    }
}

/// Capability: what a stored position costs, for the memory budget of a solver's tables.
pub trait Footprint: Game {
    /// The bytes a stored copy of `p` takes, heap included.
    fn bytes(&self, p: &Self::Position) -> usize;

    /// A measure of how much game is left in `p` (cells, vertices, tokens): among the parts of
    /// a sum, a solver tests the largest and computes the values of the others. The default
    /// is [`Footprint::bytes`].
    fn size(&self, p: &Self::Position) -> usize {
        self.bytes(p)
    }
}

/// A position as bytes and back: what the distributed engine
/// ([`distributed::explore`](crate::distributed::explore)) sends between processes, hashes to
/// choose a position's owner, and keys its tables by.
///
/// The encoding is a function of the position (equal positions, equal bytes) and
/// `decode(encode(p)) = p`, so the bytes stand for the position: two positions are the same
/// exactly when their bytes are. Numbers are LEB128 varints, so small positions take few bytes.
pub trait Encoding: Game {
    /// Appends the bytes of `p` to `out`.
    fn encode(&self, p: &Self::Position, out: &mut Vec<u8>);

    /// The position whose bytes are `bytes` (bytes that are no position's are an internal
    /// error: they only ever come from [`Encoding::encode`]).
    fn decode(&self, bytes: &[u8]) -> Result<Self::Position>;
}

/// Everything the search engine for games by rules ([`crate::solve::search`]) exploits:
/// components, symmetry, text and the cost of a stored position. Implemented for every game
/// that has those capabilities (the engine also asks for ordered, printable positions).
pub trait Structured:
    Game<Position: Ord + std::fmt::Debug> + Components + Canonical + Show + Footprint
{
}

impl<G> Structured for G where
    G: Game<Position: Ord + std::fmt::Debug> + Components + Canonical + Show + Footprint
{
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
    fn options(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()> {
        (**self).options(p, out)
    }
    fn surely_finite(&self) -> bool {
        (**self).surely_finite()
    }
}
