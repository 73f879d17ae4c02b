//! The slow reference: misère outcomes of sums of heaps straight from the definition.
//!
//! A sum of heaps is a P-position under misère play exactly when it has at least one move and
//! every move leads to an N-position; a sum with no move is an N-position (the player to move
//! has already won). Positions are sorted multisets of non-empty heaps; outcomes are memoised.
//! Nothing here knows about quotients: the quotient's answers are tested against it.

use crate::error::{Error, Result};
use crate::heap::rule::Options;
use crate::heap::HeapGame;
use std::collections::HashMap;

/// A memoised misère search over sums of heaps of one game.
pub struct Search<'g> {
    game: &'g HeapGame,
    memo: HashMap<Vec<u64>, bool>,
    max_positions: usize,
}

impl<'g> Search<'g> {
    /// A search that stores at most `max_positions` outcomes.
    pub fn new(game: &'g HeapGame, max_positions: usize) -> Self {
        Search {
            game,
            memo: HashMap::new(),
            max_positions,
        }
    }

    /// Whether the sum of `heaps` is a P-position under misère play.
    pub fn is_p(&mut self, heaps: &[u64]) -> Result<bool> {
        let mut pos: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        pos.sort_unstable();
        self.is_p_sorted(pos)
    }

    fn is_p_sorted(&mut self, pos: Vec<u64>) -> Result<bool> {
        if let Some(&p) = self.memo.get(&pos) {
            return Ok(p);
        }
        if self.memo.len() >= self.max_positions {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!("the reference search stored {} positions", self.max_positions),
                "use fewer or smaller heaps",
            ));
        }
        let mut opts = Options::new();
        let mut any_move = false;
        let mut p = true;
        'heaps: for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue;
            }
            opts.clear();
            self.game.heap_options(pos[i], &mut opts)?;
            for o in opts.iter() {
                any_move = true;
                let mut next: Vec<u64> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
                next.extend(o.iter().copied().filter(|&h| h > 0));
                next.sort_unstable();
                if self.is_p_sorted(next)? {
                    p = false;
                    break 'heaps;
                }
            }
        }
        let p = p && any_move;
        self.memo.insert(pos, p);
        Ok(p)
    }
}
