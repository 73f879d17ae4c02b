//! One module per command group of the specification.

pub mod nimber;
pub mod ordinal;
