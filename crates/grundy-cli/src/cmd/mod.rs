//! One module per command group of the specification.

pub mod heap;
pub mod nimber;
pub mod pattern;
