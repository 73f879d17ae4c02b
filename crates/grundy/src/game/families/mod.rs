//! Games given by their rules: Chomp, Cram, Node-Kayles, Wythoff's game, sums of heaps, and
//! rules written as Rhai scripts.
//!
//! Each family implements the one game model, [`Game`](crate::Game) (its move generator), and
//! the capabilities beside it that the search engine ([`solve::search`](crate::solve::search))
//! exploits: [`Components`](crate::game::Components) (a Cram board's regions, a graph's
//! connected components), [`Canonical`](crate::game::Canonical) (the least of a board's
//! reflections, a relabelled graph), [`Show`](crate::game::Show) (the notation, and the moves
//! `grundy solve --moves` prints), [`Footprint`](crate::game::Footprint) (what a stored
//! position costs) and [`Encoding`](crate::game::Encoding) (bytes for the distributed engine).
//! Sums of heaps of a [`HeapGame`](crate::heap::HeapGame) have the same capabilities.
//!
//! Every family has a `reference` function computing values straight from the definition
//! (`g(p) = mex g(options)`, no splitting, no symmetry) that the tests compare the engine with.

pub mod chomp;
pub mod cram;
pub mod node_kayles;
#[cfg(feature = "script")]
pub mod rules;
pub mod wythoff;

#[cfg(test)]
mod tests;

use crate::error::Result;

/// The Grundy value of `p` straight from the definition `g(p) = mex { g(q) : p → q }`: no
/// components, no symmetry, a plain memo. The tests' reference for every family.
pub fn reference_value<F: crate::game::Game>(
    family: &F,
    p: &F::Position,
    memo: &mut std::collections::HashMap<F::Position, u64>,
) -> Result<u64> {
    if let Some(&v) = memo.get(p) {
        return Ok(v);
    }
    let mut options = Vec::new();
    family.options(p, &mut options)?;
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
pub fn reference_misere_win<F: crate::game::Game>(
    family: &F,
    p: &F::Position,
    memo: &mut std::collections::HashMap<F::Position, bool>,
) -> Result<bool> {
    if let Some(&w) = memo.get(p) {
        return Ok(w);
    }
    let mut options = Vec::new();
    family.options(p, &mut options)?;
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

/// A game of the rules notation, loaded: the game and its starting position. Built from the
/// notation by [`notation::board::load`](crate::notation::board::load), solved by
/// [`solve::solve_loaded`](crate::solve::solve_loaded).
#[derive(Debug)]
#[non_exhaustive]
pub enum Loaded {
    /// Chomp.
    Chomp(chomp::Rows),
    /// Cram.
    Cram(cram::Board),
    /// Node-Kayles, with the names of the starting graph's vertices.
    NodeKayles(node_kayles::NodeKayles, node_kayles::BitGraph),
    /// Wythoff's game.
    Wythoff(wythoff::Heaps),
    /// A scripted game.
    #[cfg(feature = "script")]
    Rules(Box<rules::Rules>, rules::Value),
}

impl Loaded {
    /// The starting position in its family's notation.
    pub fn show(&self) -> Result<String> {
        use crate::game::Show;
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
