//! One module per command group of the specification.

pub mod count;
pub mod nimber;
