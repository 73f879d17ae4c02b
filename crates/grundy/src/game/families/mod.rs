//! Games given by their rules: Chomp, Cram, Node-Kayles, Wythoff's game, sums of heaps, and
//! rules written as Rhai scripts.
//!
//! Each family implements [`Game`](crate::Game) (its move generator) and [`Family`], the
//! structure the search engine ([`solve::search`](crate::solve::search)) exploits:
//!
//! * **components** ([`Family::split`]): a position that is a disjunctive sum `G = G₁ + … + Gₘ`
//!   of independent parts has the Grundy value `g(G₁) ⊕ … ⊕ g(Gₘ)` (Sprague-Grundy), so each part
//!   is solved, and cached, on its own. A Cram board whose free cells fall apart into regions, a
//!   Node-Kayles graph with several connected components, a sum of heaps.
//! * **symmetry** ([`Family::canonical`]): isomorphic positions have equal values (a game's
//!   value depends on its graph of positions only), so a component is stored under one
//!   representative of its class: the least of a board's reflections and rotations, a relabelled
//!   graph. A representative need not be unique for the search to be right: two positions with
//!   the same key must only be isomorphic; a unique representative merely finds more hits.
//! * **display** ([`Family::show`]) for the winning moves that `grundy solve --moves` prints.
//!
//! Every family has a `reference` function computing values straight from the definition
//! (`g(p) = mex g(options)`, no splitting, no symmetry) that the tests compare the engine with.

pub mod chomp;
pub mod cram;
pub mod heaps;
pub mod node_kayles;
#[cfg(feature = "script")]
pub mod rules;
pub mod wythoff;

#[cfg(test)]
mod tests;

use crate::error::Result;
use std::hash::Hash;

/// A move described: its name, the position after it as text, and that position.
pub type Described<P> = (String, String, P);

/// The structure of a family of games that the search engine uses.
///
/// Methods are fallible because rules written as scripts may fail; the built-in families never
/// do.
pub trait Family {
    /// A position (or a component of one).
    type Position: Clone + Eq + Ord + Hash + std::fmt::Debug;

    /// Appends the options of `p` (the positions one move away) to `out`.
    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()>;

    /// Appends the independent components of `p` to `out`: positions whose disjunctive sum is
    /// `p`. Components without moves may be left out. The default keeps `p` whole.
    fn split(&self, p: &Self::Position, out: &mut Vec<Self::Position>) -> Result<()> {
        out.push(p.clone());
        Ok(())
    }

    /// A position isomorphic to `p` (same game graph from there on) chosen so that symmetric
    /// positions tend to share it. The default is `p` itself.
    fn canonical(&self, p: &Self::Position) -> Result<Self::Position> {
        Ok(p.clone())
    }

    /// The position in the family's notation, e.g. `cram:../#.`.
    fn show(&self, p: &Self::Position) -> Result<String>;

    /// The moves from `p` as `(move, position after as text, position after)`, every move of
    /// [`Family::moves`] once. The default names a move by its number (from 1) and shows the
    /// position after with [`Family::show`].
    fn described_moves(&self, p: &Self::Position) -> Result<Vec<Described<Self::Position>>> {
        let mut out = Vec::new();
        self.moves(p, &mut out)?;
        out.into_iter()
            .enumerate()
            .map(|(i, q)| Ok(((i + 1).to_string(), self.show(&q)?, q)))
            .collect()
    }

    /// Whether every line of play is known to end. A family that cannot promise it (rules
    /// written by users) says `false`, and the engine then watches for a position repeating
    /// on the line it searches, reporting it as an error instead of recursing forever.
    fn surely_finite(&self) -> bool {
        true
    }

    /// A measure of how much game is left in `p` (cells, vertices, tokens): among the parts of
    /// a sum, the engine tests the largest and computes the values of the others. The default
    /// is [`Family::bytes`].
    fn size(&self, p: &Self::Position) -> usize {
        self.bytes(p)
    }

    /// The bytes a stored copy of `p` takes, heap included, for the memory budget of the
    /// engine's tables.
    fn bytes(&self, p: &Self::Position) -> usize;
}

/// A position as bytes and back: what the distributed engine
/// ([`distributed::explore`](crate::distributed::explore)) sends between processes, hashes to
/// choose a position's owner, and keys its tables by.
///
/// The encoding is a function of the position (equal positions, equal bytes) and
/// `decode(encode(p)) = p`, so the bytes stand for the position: two positions are the same
/// exactly when their bytes are. Numbers are LEB128 varints, so small positions take few bytes.
pub trait Encoding: Family {
    /// Appends the bytes of `p` to `out`.
    fn encode(&self, p: &Self::Position, out: &mut Vec<u8>);

    /// The position whose bytes are `bytes` (bytes that are no position's are an internal
    /// error: they only ever come from [`Encoding::encode`]).
    fn decode(&self, bytes: &[u8]) -> Result<Self::Position>;
}

/// Reads the varints of an encoded position; the whole of `bytes` must be used.
pub(crate) fn decode_with<T>(
    bytes: &[u8],
    f: impl FnOnce(&mut crate::varint::Read<'_>) -> Result<T>,
) -> Result<T> {
    let mut r = crate::varint::Read::new(bytes);
    let x = f(&mut r)?;
    if !r.is_empty() {
        return Err(crate::error::Error::Internal(
            "bytes left over after a position".into(),
        ));
    }
    Ok(x)
}

/// Appends `x` as a varint.
pub(crate) fn put(out: &mut Vec<u8>, x: u64) {
    crate::varint::put(out, x)
}

/// The Grundy value of `p` straight from the definition `g(p) = mex { g(q) : p → q }`: no
/// components, no symmetry, a plain memo. The tests' reference for every family.
pub fn reference_value<F: Family>(
    family: &F,
    p: &F::Position,
    memo: &mut std::collections::HashMap<F::Position, u64>,
) -> Result<u64> {
    if let Some(&v) = memo.get(p) {
        return Ok(v);
    }
    let mut options = Vec::new();
    family.moves(p, &mut options)?;
    let mut values = Vec::with_capacity(options.len());
    for q in &options {
        values.push(reference_value(family, q, memo)?);
    }
    let v = crate::game::mex(&values, &mut Vec::new());
    memo.insert(p.clone(), v);
    Ok(v)
}

/// Whether `p` is won by the player to move under misère play, from the definition: a
/// terminal position is won (the player who cannot move wins), any other is won iff some option
/// is lost. The tests' reference for misère search.
pub fn reference_misere_win<F: Family>(
    family: &F,
    p: &F::Position,
    memo: &mut std::collections::HashMap<F::Position, bool>,
) -> Result<bool> {
    if let Some(&w) = memo.get(p) {
        return Ok(w);
    }
    let mut options = Vec::new();
    family.moves(p, &mut options)?;
    let mut win = options.is_empty();
    for q in &options {
        if !reference_misere_win(family, q, memo)? {
            win = true;
            break;
        }
    }
    memo.insert(p.clone(), win);
    Ok(win)
}

/// A game of the rules notation, loaded: the family and its starting position.
#[derive(Debug)]
#[non_exhaustive]
pub enum Loaded {
    /// Chomp.
    Chomp(chomp::Rows),
    /// Cram.
    Cram(cram::Board),
    /// Node-Kayles, with the names of the starting graph's vertices.
    NodeKayles(node_kayles::NodeKayles, node_kayles::Graph),
    /// Wythoff's game.
    Wythoff(wythoff::Heaps),
    /// A scripted game.
    #[cfg(feature = "script")]
    Rules(Box<rules::Rules>, rules::Value),
}

/// Loads a parsed game: builds the graph of `node-kayles:` (reading a graph file, at most
/// `memory_limit` bytes while reading), reads and compiles a `rules:` script (its calls watch
/// `ctl`) and runs its `start()`.
pub fn load(
    game: &crate::notation::board::BoardGame,
    memory_limit: u64,
    ctl: &crate::control::Control,
) -> Result<Loaded> {
    use crate::error::{Error, LimitKind};
    use crate::notation::board::{BoardGame, GraphSpec};
    use node_kayles::{Graph, NodeKayles, MAX_VERTICES};
    let too_big = |n: usize| {
        Error::limit(
            LimitKind::Fixed,
            format!("a Node-Kayles graph of {n} vertices, above {MAX_VERTICES}"),
            "use a smaller graph",
        )
    };
    Ok(match game {
        BoardGame::Chomp(rows) => Loaded::Chomp(rows.clone()),
        BoardGame::Cram(b) => Loaded::Cram(b.clone()),
        BoardGame::Wythoff(a, b) => {
            wythoff::Wythoff::check((*a, *b))?;
            Loaded::Wythoff((*a, *b))
        }
        BoardGame::NodeKayles(spec) => {
            let (g, names) = match spec {
                GraphSpec::Path(n) => (Graph::path(*n).ok_or_else(|| too_big(*n))?, Vec::new()),
                GraphSpec::Cycle(n) => (Graph::cycle(*n).ok_or_else(|| too_big(*n))?, Vec::new()),
                GraphSpec::Grid(r, c) => (
                    Graph::grid(*r, *c).ok_or_else(|| too_big(r * c))?,
                    Vec::new(),
                ),
                GraphSpec::File(path) => {
                    use crate::notation::graph::{parse_graph_with, read_bounded, GraphFormat};
                    let what = format!("graph file {}", path.display());
                    let file = std::fs::File::open(path)
                        .map_err(|e| Error::invalid(format!("{what}: cannot read it: {e}")))?;
                    // A graph of at most MAX_VERTICES vertices fits well within 16 MiB of text:
                    // a longer file is refused whatever the budget.
                    const MAX_TEXT: u64 = 16 << 20;
                    let cap = memory_limit.min(MAX_TEXT);
                    let (bytes, _text) = match read_bounded(file, cap, &what, ctl) {
                        Err(Error::Limit(_)) if cap == MAX_TEXT => {
                            return Err(Error::limit(
                                LimitKind::Fixed,
                                format!("{what} is longer than 16 MiB"),
                                format!("a Node-Kayles graph has at most {MAX_VERTICES} vertices"),
                            ))
                        }
                        other => other?,
                    };
                    let parsed = parse_graph_with(&bytes, GraphFormat::Adjacency, ctl).map_err(
                        |e| match e {
                            Error::Parse(p) => {
                                Error::Parse(p.in_source(path.display().to_string()))
                            }
                            other => other,
                        },
                    )?;
                    let n = parsed.graph.vertex_count();
                    let mut edges = Vec::with_capacity(parsed.graph.arc_count());
                    for u in 0..n {
                        for &v in parsed.graph.options(u as u32) {
                            edges.push((u, v as usize));
                        }
                    }
                    let g = Graph::from_edges(n, &edges).ok_or_else(|| too_big(n))?;
                    let names = (0..n as u32)
                        .map(|v| parsed.names.get(v).into_owned())
                        .collect();
                    (g, names)
                }
            };
            Loaded::NodeKayles(NodeKayles::with_names(names), g)
        }
        #[cfg(feature = "script")]
        BoardGame::Rules(path) => {
            let r = rules::Rules::load(path, ctl)?;
            let start = r.start()?;
            Loaded::Rules(Box::new(r), start)
        }
        #[cfg(not(feature = "script"))]
        BoardGame::Rules(_) => {
            let _ = ctl;
            return Err(Error::invalid(
                "rules:PATH needs the library's `script` feature".to_string(),
            ));
        }
    })
}

impl Loaded {
    /// Solves the starting position with [`search::solve`](crate::solve::search::solve).
    pub fn solve(
        &self,
        play: crate::solve::Play,
        settings: crate::solve::search::Settings,
        moves: bool,
        ctl: &crate::control::Control,
    ) -> Result<crate::solve::search::Solution> {
        use crate::solve::search::solve;
        match self {
            Loaded::Chomp(p) => solve(&chomp::Chomp, p, play, settings, moves, ctl),
            Loaded::Cram(p) => solve(&cram::Cram, p, play, settings, moves, ctl),
            Loaded::NodeKayles(f, p) => solve(f, p, play, settings, moves, ctl),
            Loaded::Wythoff(p) => solve(&wythoff::Wythoff, p, play, settings, moves, ctl),
            #[cfg(feature = "script")]
            Loaded::Rules(f, p) => solve(f.as_ref(), p, play, settings, moves, ctl),
        }
    }

    /// The starting position in its family's notation.
    pub fn show(&self) -> Result<String> {
        match self {
            Loaded::Chomp(p) => chomp::Chomp.show(p),
            Loaded::Cram(p) => cram::Cram.show(p),
            Loaded::NodeKayles(f, p) => f.show(p),
            Loaded::Wythoff(p) => wythoff::Wythoff.show(p),
            #[cfg(feature = "script")]
            Loaded::Rules(f, p) => f.show(p),
        }
    }
}
