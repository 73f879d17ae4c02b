//! Parsing and printing of the notations fixed by the specification: numbers, games, ordinals
//! and graph files. Every parser returns a [`ParseError`](crate::ParseError) naming the column
//! (and line, for files) at fault and what was expected there.

pub mod board;
pub mod game;
pub mod graph;
pub mod number;
pub mod ordinal;
