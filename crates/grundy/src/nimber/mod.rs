//! The field of nimbers.
//!
//! The nimbers are the natural numbers with nim-addition `a ⊕ b` (bitwise xor) and
//! nim-multiplication `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }` (Conway). The
//! numbers below `2^(2^k)` form a subfield of order `2^(2^k)` for every `k`; these "Fermat 2-powers"
//! `F_k = 2^(2^k)` satisfy `F_k ⊗ F_k = F_k ⊕ F_k/2` (that is, `3/2·F_k` in ordinary arithmetic), and
//! a product of distinct Fermat 2-powers is their ordinary product.

pub mod algebra;
pub mod any;
pub mod batch;
pub mod big;
pub mod field;
mod fixed;
pub mod n128;
pub mod n64;
pub mod product_io;
testing_pub! {
    pub mod kernel;
    pub mod reference;
}

pub use any::AnyNimber;
pub use big::NimBig;
pub use field::NimberField;
pub use n128::Nim128;
pub use n64::Nim64;
