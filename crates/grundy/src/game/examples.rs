//! Small classical games as implicit [`Game`]s: examples of the trait, test subjects for the
//! solvers and benchmarks.

use super::{Game, Retrograde};

/// One Nim heap: from `n` move to any `m < n`. Its Grundy value is `n`.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimHeap;

impl Game for NimHeap {
    type Position = u64;
    fn options(&self, p: &u64, out: &mut Vec<u64>) -> crate::error::Result<()> {
        out.extend(0..*p);
        Ok(())
    }
}

/// A subtraction game: from `n` move to `n - s` for each `s` in the set with `s ≤ n`.
#[derive(Clone, Debug)]
pub struct Subtraction(pub Vec<u64>);

impl Game for Subtraction {
    type Position = u64;
    fn options(&self, p: &u64, out: &mut Vec<u64>) -> crate::error::Result<()> {
        out.extend(self.0.iter().filter(|&&s| s <= *p).map(|&s| p - s));
        Ok(())
    }
}

impl Retrograde for Subtraction {
    /// The positions `n + s`: every heap is reached from larger ones by removing `s` (heaps are
    /// unbounded, so callers bound the retrograde search themselves).
    fn predecessors(&self, p: &u64, out: &mut Vec<u64>) {
        out.extend(self.0.iter().filter_map(|&s| p.checked_add(s)));
    }
}
