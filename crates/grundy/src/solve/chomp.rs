//! A dedicated engine for Chomp: every position below the start, in one array indexed by the
//! position's rank, filled in an order where options come first.
//!
//! # Positions
//!
//! A Chomp position inside a box of `r` rows and `c` columns is a staircase: row lengths
//! `a₀ ≥ a₁ ≥ … ≥ a_{r−1} ≥ 0` with `a₀ ≤ c` (rows beyond the last are of length 0). The
//! positions reachable from a start `s` are the staircases `a ≤ s` (row by row) with `a₀ ≥ 1`:
//! a move cuts rows `i, i+1, …` to a length `x`, which keeps the rows non-increasing, and any
//! staircase `a ≤ s` is reached by cutting the rows of `s` one at a time from the top.
//!
//! **Ranks.** The staircases of the box are numbered in lexicographic order of `(a₀, a₁, …)`.
//! Those agreeing with `a` before row `i` and smaller in row `i` have `aᵢ = v < aᵢ` and any
//! staircase of `k = r − 1 − i` rows and at most `v` columns after it: `C(k + v, k)` of them
//! (multisets of `k` lengths from `0..=v`). Summed over `v < aᵢ` (the hockey-stick identity),
//! `rank(a) = Σᵢ C(r − 1 − i + aᵢ, r − i)`, a sum of one term per row, and the box holds
//! `C(r + c, r)` staircases. Cutting rows `i₀, …` to `x` changes only the terms of those rows,
//! so an option's rank is the position's minus `Σ_{j ≥ i₀, aⱼ > x} (T(j, aⱼ) − T(j, x))`,
//! which the move generator accumulates row by row from the top: one addition per option, no
//! position built.
//!
//! **Order.** If `b ≤ a` row by row and `b ≠ a`, the first row where they differ has
//! `bᵢ < aᵢ`, so `b` comes first in lexicographic order. Visiting the staircases below the
//! start in increasing order therefore meets every option before the position itself, and
//! each value is `mex` of values already in the array (`g(a) = mex{g(a′)}`, Sprague-Grundy),
//! with no recursion and no hashing. Under misère play the array holds the outcome instead:
//! a position is won iff it has no move or some option is lost.
//!
//! **Symmetry.** A position and its transpose (the conjugate partition) have equal values
//! (see [`chomp`]); the start is oriented with no more rows than
//! columns, which keeps the work per position (`O(r)` to rank it) small.
//!
//! **Why no pruning.** Every staircase below a rectangle is reached from it, and `C(r + c, r)`
//! is small for the boards within reach (12 870 for 8 × 8, 12 341 for 3 × 40); filling them
//! all in order costs one array read per option, less than a pruned search spends on a single
//! table probe. The array takes two bytes per staircase of the box, reserved from the
//! [`Control`]'s budget; when it would take more than [`table_bytes`] allows, the position
//! goes to the generic engine ([`search::solve`](crate::solve::search::solve)) instead.

use crate::control::{Control, Reservation};
use crate::error::{Error, Result};
use crate::game::families::chomp::{self, Chomp, Rows};
use crate::game::Show;
use crate::solve::search::{Settings, Solution, Stats, WinningMove};
use crate::solve::table;
use crate::solve::{Outcome, Play};
use std::time::Instant;

/// The largest array the engine takes: 1 GiB (2^29 staircases).
pub const MAX_TABLE_BYTES: u64 = 1 << 30;

/// Positions between two progress reports to the control.
const PROGRESS_EVERY: u64 = 1 << 14;

/// The most cells a position of this engine may have: values are kept in 16 bits and are at
/// most the number of options, one fewer than the cells.
pub const MAX_CELLS: u64 = 1 << 16;

/// `C(n, k)`, or `None` if it does not fit 64 bits.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for j in 1..=u128::from(k) {
        // c · (n − k + j) / j is C(n − k + j, j), an integer.
        c = c * (u128::from(n - k) + j) / j;
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// The lexicographic ranks of the staircases of a box of `r` rows and `c` columns (see the
/// module documentation).
#[derive(Clone, Debug)]
pub struct Ranks {
    cols: usize,
    /// `terms[i · (c + 1) + x] = C(r − 1 − i + x, r − i)`.
    terms: Vec<u64>,
    count: u64,
}

impl Ranks {
    /// The ranks of the `r × c` box, or `None` if it holds more than `max` staircases.
    pub fn new(r: usize, c: usize, max: u64) -> Option<Ranks> {
        let count = binomial(r as u64 + c as u64, r.min(c) as u64).filter(|&n| n <= max)?;
        let mut terms = Vec::with_capacity(r * (c + 1));
        for i in 0..r {
            let k = (r - 1 - i) as u64;
            for x in 0..=c as u64 {
                terms.push(binomial(k + x, k + 1)?);
            }
        }
        Some(Ranks {
            cols: c,
            terms,
            count,
        })
    }

    /// The staircases of the box: `C(r + c, r)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The term of row `i` at length `x`.
    #[inline]
    fn term(&self, i: usize, x: u32) -> u64 {
        self.terms[i * (self.cols + 1) + x as usize]
    }

    /// The rank of the staircase `rows` (at most `r` rows, each at most `c`, non-increasing).
    pub fn rank(&self, rows: &[u32]) -> u64 {
        rows.iter().enumerate().map(|(i, &x)| self.term(i, x)).sum()
    }
}

/// The bytes of the array for a box of `count` staircases under a budget of `limit` bytes, or
/// `None` if it takes more than half the budget or [`MAX_TABLE_BYTES`].
pub fn table_bytes(count: u64, limit: u64) -> Option<u64> {
    count
        .checked_mul(2)
        .filter(|&b| b <= table::share(limit, MAX_TABLE_BYTES))
}

/// The values (or misère outcomes) of every staircase below a start.
pub struct ChompEngine {
    ranks: Ranks,
    /// The start, oriented with no more rows than columns, padded with empty rows to `r`.
    start: Vec<u32>,
    transposed: bool,
    play: Play,
    /// By rank: the Grundy value under normal play, 1 (won) or 0 (lost) under misère play.
    table: Vec<u16>,
    stats: Stats,
    _reservation: Reservation,
}

impl ChompEngine {
    /// Fills the array for `start` (a Chomp position) under `play`, or returns `Ok(None)` when
    /// its box holds too many staircases for the budget (see [`table_bytes`]).
    pub fn solve(start: &[u32], play: Play, ctl: &Control) -> Result<Option<ChompEngine>> {
        let cells: u64 = start.iter().map(|&x| u64::from(x)).sum();
        if start.is_empty() || start[0] == 0 || cells > MAX_CELLS {
            return Ok(None);
        }
        let transposed = start.len() > start[0] as usize;
        let mut oriented = if transposed {
            chomp::transpose(start)
        } else {
            start.to_vec()
        };
        let (r, c) = (oriented.len(), oriented[0] as usize);
        let max = ctl.memory().limit().min(MAX_TABLE_BYTES) / 4;
        let Some(ranks) = Ranks::new(r, c, max) else {
            return Ok(None);
        };
        let Some(bytes) = table_bytes(ranks.count(), ctl.memory().limit()) else {
            return Ok(None);
        };
        let reservation = ctl.reserve(bytes, "the Chomp engine's array of staircases")?;
        oriented.resize(r, 0);
        let mut engine = ChompEngine {
            table: vec![0; ranks.count() as usize],
            ranks,
            start: oriented,
            transposed,
            play,
            stats: Stats {
                table_bytes: bytes,
                ..Stats::default()
            },
            _reservation: reservation,
        };
        engine.fill(ctl)?;
        Ok(Some(engine))
    }

    /// What the engine did.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The entry of the staircase `rows` (below the start, in the start's orientation as
    /// given to [`ChompEngine::solve`]): its value, or under misère play 1 if the player to move
    /// wins and 0 otherwise.
    pub fn entry(&self, rows: &[u32]) -> Result<u16> {
        let oriented = if self.transposed {
            chomp::transpose(rows)
        } else {
            rows.to_vec()
        };
        let below = oriented.len() <= self.start.len()
            && oriented.iter().zip(&self.start).all(|(a, s)| a <= s)
            && oriented.first().is_some_and(|&x| x >= 1)
            && oriented.windows(2).all(|w| w[0] >= w[1]);
        if !below {
            return Err(Error::Internal(format!(
                "the Chomp position {rows:?} is not below the start"
            )));
        }
        Ok(self.table[self.ranks.rank(&oriented) as usize])
    }

    /// Visits every staircase `a ≤ start` with `a₀ ≥ 1` in lexicographic order (see the module
    /// documentation) and stores its entry.
    fn fill(&mut self, ctl: &Control) -> Result<()> {
        let r = self.start.len();
        let mut a = vec![0u32; r];
        a[0] = 1;
        // Values seen among the options (values are below 2^16).
        let mut seen = vec![0u64; (MAX_CELLS / 64) as usize];
        loop {
            ctl.tick()?;
            let rank = self.ranks.rank(&a);
            let entry = match self.play {
                Play::Normal => self.mex(&a, rank, &mut seen),
                Play::Misere => u16::from(self.misere_win(&a, rank)),
            };
            self.table[rank as usize] = entry;
            self.stats.positions += 1;
            if self.stats.positions.is_multiple_of(PROGRESS_EVERY) {
                ctl.check(self.stats.positions)?;
            }
            // The next staircase: raise the last row that can grow, empty the rows above it.
            let Some(j) = (0..r)
                .rev()
                .find(|&j| a[j] < self.start[j] && (j == 0 || a[j] < a[j - 1]))
            else {
                return Ok(());
            };
            a[j] += 1;
            a[j + 1..].fill(0);
        }
    }

    /// Calls `f` with the rank of every option of the staircase `a` of rank `rank` (see the
    /// module documentation); stops early when `f` returns `true`.
    #[inline]
    fn for_each_option(&mut self, a: &[u32], rank: u64, mut f: impl FnMut(u16) -> bool) {
        // Rows of length above x: 0..h.
        let mut h = a.iter().take_while(|&&x| x > 0).count();
        for x in 0..a[0] {
            while h > 0 && a[h - 1] <= x {
                h -= 1;
            }
            let lowest = usize::from(x == 0);
            let mut delta = 0;
            for i in (lowest..h).rev() {
                delta += self.ranks.term(i, a[i]) - self.ranks.term(i, x);
                self.stats.lookups += 1;
                if f(self.table[(rank - delta) as usize]) {
                    return;
                }
            }
        }
    }

    /// `mex` of the options' values.
    fn mex(&mut self, a: &[u32], rank: u64, seen: &mut [u64]) -> u16 {
        let mut top = 0;
        self.for_each_option(a, rank, |v| {
            let w = usize::from(v >> 6);
            seen[w] |= 1 << (v & 63);
            top = top.max(w);
            false
        });
        let words = &mut seen[..=top];
        let w = words.iter().position(|&x| x != u64::MAX).unwrap_or(top + 1);
        let mex = w * 64 + words.get(w).map_or(0, |x| x.trailing_ones() as usize);
        words.fill(0);
        mex as u16
    }

    /// Whether the player to move wins under misère play: no move, or an option that is lost.
    fn misere_win(&mut self, a: &[u32], rank: u64) -> bool {
        let mut moves = false;
        let mut win = false;
        self.for_each_option(a, rank, |v| {
            moves = true;
            win = v == 0;
            win
        });
        win || !moves
    }
}

/// Solves a Chomp position as `grundy solve` does: with this engine when the staircases of its
/// box fit the budget ([`table_bytes`]), otherwise with the generic engine.
pub fn solve(start: &Rows, play: Play, moves: bool, ctl: &Control) -> Result<Solution> {
    let clock = Instant::now();
    let Some(engine) = ChompEngine::solve(start, play, ctl)? else {
        return crate::solve::search::solve(&Chomp, start, play, Settings::new(), moves, ctl);
    };
    let entry = engine.entry(start)?;
    let (outcome, value) = match play {
        Play::Normal => (
            if entry == 0 { Outcome::P } else { Outcome::N },
            Some(u64::from(entry)),
        ),
        Play::Misere => (if entry == 1 { Outcome::N } else { Outcome::P }, None),
    };
    let mut winning_moves = Vec::new();
    if moves && outcome == Outcome::N {
        for (name, after, q) in Chomp.described_moves(start)? {
            if engine.entry(&q)? == 0 {
                winning_moves.push(WinningMove { name, after });
            }
        }
    }
    Ok(Solution {
        outcome,
        value,
        winning_moves,
        stats: Stats {
            hits: engine.stats.lookups,
            ..engine.stats()
        },
        seconds: clock.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests;
