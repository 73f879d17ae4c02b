//! One module per command group of the specification.

pub mod completions;
pub mod count;
pub mod disguised;
pub mod graph;
pub mod heap;
pub mod manpage;
pub mod misere;
pub mod nimber;
pub mod nimber_product;
pub mod ordinal;
pub mod ordinal_nim;
pub mod pattern;
pub mod play;
pub mod solve;
