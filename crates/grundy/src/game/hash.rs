//! The hasher of memo tables keyed by game positions.
//!
//! Positions are small values (integers, tuples, short vectors, bitboards) produced by our own
//! move generators, so resistance to hash flooding is not needed, and the standard SipHash costs
//! more than the rest of a memo lookup. The tables use the multiply-based hash of the Rust
//! compiler ([`rustc_hash`]): a word `w` enters as `h = (h + w) · K` for an odd constant `K`, and
//! the final rotation moves the well-mixed high bits of the product to the low bits that
//! hashbrown uses to pick a bucket. It is deterministic (the same on every run and, for one
//! target, on every machine), which the distributed engines rely on to agree on owners.

pub use rustc_hash::{FxHashMap, FxHasher};
