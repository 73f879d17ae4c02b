//! One module per command group of the specification.

pub mod graph;
pub mod nimber;
