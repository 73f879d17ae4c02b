//! One module per command group of the specification.

pub mod graph;
pub mod count;
pub mod nimber;
pub mod nimber_product;
pub mod heap;
pub mod pattern;
pub mod ordinal;
