//! The types most programs need, for `use grundy::prelude::*;`.
//!
//! Nimbers ([`Nim64`], [`Nim128`], [`NimBig`] and their field operations [`NimberField`]),
//! ordinals ([`Ordinal`]), heap games ([`HeapGame`], [`GameSpec`], [`Sequence`]), games in
//! general ([`Game`], [`Graph`]), their solutions ([`Outcome`], [`Play`], [`Gamma`]) and the
//! errors ([`Error`], [`ParseError`], [`LimitError`]). The crate's [`Result`](crate::Result)
//! is left out so that it does not shadow the standard one.

pub use crate::control::{CancelToken, Control, MemoryBudget};
pub use crate::error::{Error, LimitError, ParseError};
pub use crate::game::graph::Graph;
pub use crate::game::spec::GameSpec;
pub use crate::game::{Canonical, Components, Footprint, Game, Show};
pub use crate::heap::{HeapGame, Sequence};
pub use crate::nimber::{Nim128, Nim64, NimBig, NimberField};
pub use crate::ordinal::Ordinal;
pub use crate::solve::loopy::Gamma;
pub use crate::solve::{Outcome, Play};
