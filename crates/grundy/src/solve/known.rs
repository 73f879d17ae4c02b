//! Solutions found without a search: positions that are heap games in disguise (one-row Chomp
//! is a Nim heap, a Node-Kayles path a heap of the octal game 0.137, a strip of Cram one of
//! Dawson's Kayles 0.07, Wythoff with an empty heap a Nim heap) are answered from the Grundy
//! values of their heap game, and the host builds the [`Solution`] with [`Solution::known`].

use super::search::{Solution, Stats, WinningMove};
use super::Outcome;

impl Solution {
    /// The solution under normal play of a position of Grundy value `value`, with its winning
    /// moves (empty when not asked for), found in `seconds` without a search (the statistics of
    /// the search are zero).
    pub fn known(value: u64, winning_moves: Vec<WinningMove>, seconds: f64) -> Solution {
        Solution {
            outcome: if value == 0 { Outcome::P } else { Outcome::N },
            value: Some(value),
            winning_moves,
            stats: Stats::default(),
            seconds,
        }
    }
}

impl WinningMove {
    /// The move `name`, leading to the position `after` (both in the family's notation).
    pub fn new(name: impl Into<String>, after: impl Into<String>) -> WinningMove {
        WinningMove {
            name: name.into(),
            after: after.into(),
        }
    }
}
