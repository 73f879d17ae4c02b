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

/// The largest total [`Exhaustive`] handles (a position of total `T` is encoded in `2T + 1`
/// bits of a 256-bit key).
pub const MAX_TOTAL: u64 = 127;

/// Misère outcomes of **every** sum of heaps whose total number of tokens is at most `T`, from
/// the definition: a sum is a P-position exactly when it has a move and every move leads to an
/// N-position.
///
/// Positions are sorted partitions (multisets of heap sizes). Heaps without a move are the
/// game 0 and are left out. Every move leaves a position of no larger total (moves remove
/// tokens or split heaps), so the positions of total at most `T` are closed under moves and
/// their outcomes are all computed, each once (memoised depth-first search). A position is
/// stored as the bit string that writes, for each part `a_i` in ascending order, `a_i - a_{i-1}`
/// zeros and a one, after a leading one: at most `2T + 1` bits, so a 256-bit key for `T <= 127`.
/// [`Exhaustive::on_demand`] computes outcomes only when asked ([`Exhaustive::outcome`]), for
/// totals whose every position would be too many to tabulate.
///
/// Nothing here knows about quotients. It gives two independent checks of a quotient `Q_N`:
/// its answer on every position of heaps up to `N` of total at most `T`, and a **lower bound**
/// on its order: positions `x`, `x'` with a `y` (heaps up to `N`, totals within `T`) such that
/// `o⁻(x + y) ≠ o⁻(x' + y)` lie in different classes of `Q_N`, so a set of positions told
/// apart pairwise ([`Exhaustive::tell_apart`]) has at most `|Q_N|` members.
pub struct Exhaustive {
    total: u64,
    moveless: Vec<bool>,
    options: Vec<Vec<Vec<u8>>>,
    memo: crate::game::hash::FxHashMap<[u64; 4], bool>,
}

impl Exhaustive {
    /// The outcomes of every position of `game` of total at most `total` (at most
    /// [`MAX_TOTAL`]).
    pub fn new(game: &HeapGame, total: u64) -> Result<Self> {
        let mut ex = Self::on_demand(game, total)?;
        for pos in ex.positions(total, total) {
            ex.solve(&pos);
        }
        Ok(ex)
    }

    /// The same search with nothing computed in advance: each outcome is found when
    /// [`Exhaustive::outcome`] asks for it (with the positions it needs).
    pub fn on_demand(game: &HeapGame, total: u64) -> Result<Self> {
        if total > MAX_TOTAL {
            return Err(Error::invalid(format!(
                "totals above {MAX_TOTAL} are not supported"
            )));
        }
        let mut moveless = vec![true; total as usize + 1];
        let mut options = vec![Vec::new(); total as usize + 1];
        let mut opts = Options::new();
        for h in 1..=total {
            opts.clear();
            game.heap_options(h, &mut opts)?;
            moveless[h as usize] = opts.is_empty();
            let mut list: Vec<Vec<u8>> = Vec::new();
            for o in opts.iter() {
                if o.iter().sum::<u64>() > h || o.iter().any(|&x| x >= h) {
                    return Err(Error::invalid(format!(
                        "heap {h} has an option with more tokens or a heap as large"
                    )));
                }
                let mut v: Vec<u8> = o
                    .iter()
                    .copied()
                    .filter(|&x| x > 0 && !moveless[x as usize])
                    .map(|x| x as u8)
                    .collect();
                v.sort_unstable();
                list.push(v);
            }
            list.sort();
            list.dedup();
            options[h as usize] = list;
        }
        Ok(Exhaustive {
            total,
            moveless,
            options,
            memo: Default::default(),
        })
    }

    /// Whether the sum of `heaps` (any order; heaps without moves allowed) is a misère
    /// P-position, searched now if it is not known yet: `None` when its total is above the
    /// bound.
    pub fn outcome(&mut self, heaps: &[u64]) -> Option<bool> {
        let pos = self.sorted(heaps)?;
        Some(self.solve(&pos))
    }

    /// The heaps with moves of a sum, sorted: `None` when its total is above the bound.
    fn sorted(&self, heaps: &[u64]) -> Option<Vec<u8>> {
        if heaps.iter().sum::<u64>() > self.total {
            return None;
        }
        let mut pos: Vec<u8> = heaps
            .iter()
            .filter(|&&h| h > 0 && !self.moveless[h as usize])
            .map(|&h| h as u8)
            .collect();
        pos.sort_unstable();
        Some(pos)
    }

    fn key(pos: &[u8]) -> [u64; 4] {
        let mut key = [1u64, 0, 0, 0];
        let mut bit = 0usize;
        let mut prev = 0;
        for &a in pos {
            bit += 1 + (a - prev) as usize;
            key[bit / 64] |= 1 << (bit % 64);
            prev = a;
        }
        key
    }

    fn solve(&mut self, pos: &[u8]) -> bool {
        let key = Self::key(pos);
        if let Some(&p) = self.memo.get(&key) {
            return p;
        }
        // A non-empty position of heaps with moves has a move.
        let mut p = !pos.is_empty();
        'parts: for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue;
            }
            for j in 0..self.options[pos[i] as usize].len() {
                let mut next: Vec<u8> = Vec::with_capacity(pos.len() + 2);
                next.extend_from_slice(&pos[..i]);
                next.extend_from_slice(&pos[i + 1..]);
                next.extend_from_slice(&self.options[pos[i] as usize][j]);
                next.sort_unstable();
                if self.solve(&next) {
                    p = false;
                    break 'parts;
                }
            }
        }
        self.memo.insert(key, p);
        p
    }

    /// The number of positions stored.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// Whether no position is stored (never: the empty sum is).
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// Every position (sorted, heaps with moves only) of total at most `total` whose heaps
    /// have at most `max_heap` tokens, in order of total.
    pub fn positions(&self, total: u64, max_heap: u64) -> Vec<Vec<u8>> {
        let total = total.min(self.total);
        let max_heap = max_heap.min(total);
        let mut out = Vec::new();
        for t in 0..=total {
            // Partitions of t into heaps with moves of at most max_heap, parts ascending.
            let mut stack: Vec<(Vec<u8>, u64)> = vec![(Vec::new(), t)];
            while let Some((pos, left)) = stack.pop() {
                if left == 0 {
                    out.push(pos);
                    continue;
                }
                let from = pos.last().map_or(1, |&a| a as u64);
                for a in from..=left.min(max_heap) {
                    if self.moveless[a as usize] {
                        continue;
                    }
                    let mut next = pos.clone();
                    next.push(a as u8);
                    stack.push((next, left - a));
                }
            }
        }
        out
    }

    /// Whether the sum of `heaps` (any order; heaps without moves allowed) is a misère
    /// P-position: `None` when its total is above the bound.
    pub fn is_p(&self, heaps: &[u64]) -> Option<bool> {
        let pos = self.sorted(heaps)?;
        self.memo.get(&Self::key(&pos)).copied()
    }

    /// The outcome of the sum of two sorted positions, whose totals add up to at most the
    /// bound.
    fn sum_is_p(&self, x: &[u8], y: &[u8]) -> bool {
        let mut s: Vec<u8> = x.iter().chain(y).copied().collect();
        s.sort_unstable();
        self.memo[&Self::key(&s)]
    }

    /// A position `y` of heaps up to `max_heap`, with `total(x) + total(y)` and
    /// `total(x') + total(y)` at most the bound, such that `x + y` and `x' + y` have different
    /// misère outcomes: a proof that `x` and `x'` are distinguishable (they lie in different
    /// classes of any quotient whose closure holds `x`, `x'` and `y`). `ys` must be
    /// [`Exhaustive::positions`] of the bound and `max_heap` (in order of total); `None` when no
    /// such `y` exists within the bound.
    pub fn tell_apart<'y>(&self, x: &[u8], x2: &[u8], ys: &'y [Vec<u8>]) -> Option<&'y [u8]> {
        let total = |p: &[u8]| p.iter().map(|&a| a as u64).sum::<u64>();
        let room = self.total - total(x).max(total(x2));
        ys.iter()
            .take_while(|y| total(y) <= room)
            .find(|y| self.sum_is_p(x, y) != self.sum_is_p(x2, y))
            .map(|y| y.as_slice())
    }
}
