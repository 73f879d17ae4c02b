//! # grundy — impartial combinatorial games
//!
//! The mathematics and the engines behind the `grundy` command line, usable on their own.
//!
//! An impartial game is a directed graph of positions; a move follows an arc. Under normal play
//! the player who cannot move loses. The Sprague-Grundy theorem assigns every position of an
//! acyclic game a natural number, its Grundy value `g(v) = mex { g(w) : v → w }`, such that a sum
//! of games has the xor ("nim-sum") of its components' values and a position is lost for the
//! player to move exactly when its value is 0.
//!
//! ## A quick tour
//!
//! **Nimbers.** The Grundy values of sums are nim-sums, and Conway's nim-multiplication makes
//! the natural numbers a field: `2 ⊗ 2 = 3`, and the Fermat 2-power `16` squares to
//! `16 ⊕ 8 = 24` (`F ⊗ F = 3F/2` for `F = 2^(2^k)`).
//!
//! ```
//! use grundy::prelude::*;
//! assert_eq!(Nim64(2) * Nim64(2), Nim64(3));
//! assert_eq!(Nim64(16) * Nim64(16), Nim64(24));
//! assert_eq!(Nim64(5) + Nim64(3), Nim64(6)); // nim-addition is xor
//! assert_eq!((Nim64(7) * Nim64(9)) / Nim64(9), Nim64(7));
//! ```
//!
//! **A heap game's period, proved.** Kayles (knock down one pin or two adjacent pins of a row)
//! is the take-and-break game `octal:0.77`. Its Grundy sequence is periodic with period 12 from
//! heap 71 on (G(70) is the last exception); the periodicity theorem for take-and-break games
//! turns finitely many checked values into a proof for every heap.
//!
//! ```
//! use grundy::prelude::*;
//! use grundy::control::Control;
//! use grundy::pattern::value;
//!
//! let kayles: HeapGame = "kayles".parse()?;
//! let analysis = value::analyze(&kayles, 4096, &Control::none())?;
//! let period = analysis.period.expect("Kayles is periodic");
//! assert_eq!((period.preperiod, period.period), (71, 12));
//! assert!(analysis.proved);
//! # Ok::<(), grundy::Error>(())
//! ```
//!
//! **A position's winning move.** In Nim the heaps 3, 4, 5 have nim-sum `3 ⊕ 4 ⊕ 5 = 2`, so
//! the player to move wins by making it 0: heap 3 becomes `3 ⊕ 2 = 1`.
//!
//! ```
//! use grundy::prelude::*;
//! use grundy::heap::position;
//! use grundy::control::Control;
//!
//! let nim: HeapGame = "nim".parse()?;
//! let a = position::normal(&nim, &[3, 4, 5], &Control::none())?;
//! assert_eq!(a.outcome, Outcome::N);
//! assert_eq!(a.nim_sum, Some(2));
//! assert_eq!(a.winning_moves, vec![position::Move::new(0, 3, vec![1])]);
//! # Ok::<(), grundy::Error>(())
//! ```
//!
//! **A graph with a cycle.** Vertices 0 and 1 move to each other, 1 may also move to 2, and 2 to
//! the terminal vertex 3. Whoever moves from 1 to 2 hands the opponent the win (2 → 3), so
//! neither player leaves the cycle: 0 and 1 are draws. Smith's generalized Sprague-Grundy
//! function `γ` gives the finite values 0 and 1 to 3 and 2, and `∞(K)` to 0 and 1, `K` the
//! finite values among their options.
//!
//! ```
//! use grundy::prelude::*;
//! use grundy::solve::{loopy, outcome};
//!
//! let g: Graph = Graph::from_arcs(4, &[(0, 1), (1, 0), (1, 2), (2, 3)])?;
//! let o = outcome::solve(&g, Play::Normal, &Control::none())?;
//! let classes: Vec<Outcome> = (0..4).map(|v| o.outcome(v)).collect();
//! assert_eq!(classes, [Outcome::D, Outcome::D, Outcome::N, Outcome::P]);
//! assert_eq!(o.remoteness(2), Some(1));
//! let gamma = loopy::solve(&g, &Control::none())?;
//! assert_eq!(gamma.value(&g, 3), Gamma::Finite(0));
//! assert_eq!(gamma.value(&g, 2), Gamma::Finite(1));
//! assert_eq!(gamma.value(&g, 1), Gamma::Infinite(vec![1]));
//! assert_eq!(gamma.value(&g, 0), Gamma::Infinite(vec![]));
//! # Ok::<(), grundy::Error>(())
//! ```
//!
//! More complete programs are in the crate's `examples/` directory: a nim multiplication
//! table, the proof of Kayles' period, a game of one's own solved through [`Game`], a graph
//! with cycles, and counting the losing positions of k heaps.
//!
//! ## Map of the modules
//!
//! | module | what it holds |
//! |---|---|
//! | [`prelude`] | the common types, for `use grundy::prelude::*` |
//! | [`gf2`] | polynomials over GF(2): the carry-less product (PCLMULQDQ when present), Karatsuba, the additive Fourier transform, Barrett reduction, finite fields `GF(2)[z]/(P)` |
//! | [`nimber`] | the field of nimbers: 64-bit, 128-bit and any-size elements, batch products, logarithms, roots |
//! | [`game`] | what a game is: the implicit-game trait [`Game`], explicit graphs, sums and products |
//! | [`solve`] | engines: Grundy values, outcomes and remoteness, the generalized Sprague-Grundy function of games with cycles, sums, misère Nim |
//! | [`heap`] | heap games: [`HeapGame`] (octal, subtraction, divide, scripts), Grundy sequences, sums of heaps, hints |
//! | [`count`] | counting positions: value histograms over huge heap ranges, the Walsh-Hadamard transform, xor-convolution powers, multisets by Pólya counting |
//! | [`ordinal`] | ordinals below epsilon-0 (Cantor normal form, arithmetic, nim-sum) and the nim product of ordinals |
//! | [`transfinite`] | games with "any number" moves and their ordinal values: the ordinal engine, cascading nim, nim with increases, level games |
//! | [`notation`] | parsing of the notations of the command line (numbers, games, ordinals, graph files) |
//! | [`pattern`] | what a sequence does: periods with proofs, arithmetic periods, run tables, self-similar rules, values of huge heaps |
//! | [`control`] | the handle every long computation takes: progress reports, cancellation, deadlines, a memory budget in bytes |
//! | `script` | (feature `script`) the sandbox every user script runs in |
//! | [`error`] | the error values shared by all parsers and engines |
//!
//! The library never prints; errors are values carrying the line, column or argument at fault,
//! rendered once by the caller.
//!
//! The feature `testing` also makes public the engines' kernels and the slow definition-level
//! reference implementations the fast code is tested against; they are not part of the
//! interface.

#![warn(missing_docs)]

/// An answer document: a type the command line's `--json`, the server and Python all write.
/// With the feature `serde` it is `Serialize`, `Deserialize` (refusing unknown fields) and
/// `JsonSchema`, its schema titled `$title` (the file `docs/schemas/$title.json`).
macro_rules! answer_document {
    ($title:literal; $(#[$attr:meta])* $vis:vis struct $name:ident $($rest:tt)*) => {
        $(#[$attr])*
        #[cfg_attr(
            feature = "serde",
            derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
            serde(deny_unknown_fields),
            schemars(title = $title)
        )]
        $vis struct $name $($rest)*
    };
}

/// Declares items (modules, functions, types) that belong to the crate's engines and reference
/// code rather than to its interface: public to the crate's own tests and benchmarks (feature
/// `testing`), crate-private otherwise. Some of them serve only tests and benchmarks, hence
/// `dead_code` is allowed on the crate-private copy.
macro_rules! testing_pub {
    ($($(#[$attr:meta])* pub mod $name:ident;)+) => {$(
        $(#[$attr])*
        #[cfg(any(test, feature = "testing"))]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(any(test, feature = "testing")))]
        #[allow(dead_code)]
        pub(crate) mod $name;
    )+};
    ($(#[$attr:meta])* pub $($item:tt)+) => {
        $(#[$attr])*
        #[cfg(any(test, feature = "testing"))]
        pub $($item)+
        $(#[$attr])*
        #[cfg(not(any(test, feature = "testing")))]
        #[allow(dead_code)]
        pub(crate) $($item)+
    };
}

pub mod checksum;
pub mod control;
pub mod count;
pub mod distributed;
pub mod document;
pub mod error;
#[cfg(feature = "plot")]
pub mod figure;
pub mod file;
pub mod game;
pub mod gf2;
pub mod heap;
pub mod misere;
pub mod nimber;
pub mod notation;
pub mod ordinal;
pub mod pattern;
pub mod prelude;
#[cfg(feature = "script")]
pub mod script;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod solve;
pub mod transfinite;
pub(crate) mod varint;

pub use control::{CancelToken, Control, MemoryBudget};
pub use error::{Error, Interruption, LimitError, LimitKind, ParseError, Result};
pub use game::graph::Graph;
pub use game::Game;
pub use heap::HeapGame;
pub use nimber::{Nim128, Nim64, NimBig, NimberField};
pub use ordinal::Ordinal;
pub use solve::{Outcome, Play};
