//! What a Grundy sequence does: periods (plain and arithmetic) found and proved, run-length
//! tables and self-similar rules, the run-based engine of floor-division games, and values of
//! huge heaps from whatever is proved.
//!
//! | module | what it holds |
//! |---|---|
//! | [`periodic`] | smallest period and preperiod of finite data; proofs by the subtraction-game and Guy–Smith theorems |
//! | [`runs`] | run-length tables and self-similar rules `G(n) = G(⌊n/r⌋)` found in values |
//! | [`divide`] | the run-based engine for `divide:D` games, and its proof of self-similar rules |
//! | [`value`] | the analysis driver (`analyze`) and `value` for heaps of any size |

pub mod divide;
pub mod periodic;
pub mod runs;
pub mod value;
