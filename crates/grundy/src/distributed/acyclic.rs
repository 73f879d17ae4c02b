//! Grundy values (normal play) and misère outcomes of a finite acyclic game, in
//! bulk-synchronous rounds over the explored positions ([`ExploredShare`]).
//!
//! **Layers.** Write `h(p)` for the height of `p`, the length of the longest line of play from
//! it (0 for a terminal position). Every option of `p` has a smaller height, so round `h`
//! can settle every position of height `h` once the options of height `< h` are known: in
//! round 0 the terminal positions are settled; a position settled in round `h` tells each
//! predecessor (a reverse arc held by its owner) its value, and the predecessor's owner counts
//! down its out-degree; the last option told settles it in the next round. This is Kahn's
//! topological order by layers, and the value rules are the definitions:
//!
//! * normal play, `g(p) = mex { g(q) : p → q }`: the owner keeps the set of option values
//!   below `deg(p) + 1` (the mex of `deg(p)` values is at most `deg(p)`, so larger ones never
//!   matter) as bits, one word for positions of fewer than 64 options;
//! * misère play, `p` is won by the player to move iff `p` is terminal or some option is lost;
//!   the owner keeps one bit, "an option is lost".
//!
//! **Cycles.** A position on a cycle, or with a line of play into one, never has all its
//! options settled: its counter stays above 0 after the last round. The start can reach every
//! explored position, so it is then unsettled too, and the game does not end: the pass reports
//! how many positions stay open, and the caller refuses the game.
//!
//! Per rank: 12 bytes a position (the value or bit set word and the counter), a side table of
//! bit sets for positions of 64 options or more, and the messages of a round (the
//! predecessor's index and the value, two varints an arc out of the layer).

use super::explore::ExploredShare;
use super::wire::{put, Read};
use super::{Bsp, Comm, Keyed, Outbox};
use crate::error::{Error, Result};
use crate::game::hash::FxHashMap;
use crate::solve::Play;

/// The values of the positions a rank owns: the Grundy value (normal play) or 1 for a position
/// won by the player to move and 0 for a lost one (misère play); `None` for a position whose
/// lines of play do not all end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcyclicShare {
    value: Vec<u64>,
    open: Vec<u32>,
    /// Positions left open on all ranks.
    pub open_total: u64,
    /// Rounds taken.
    pub rounds: u64,
}

impl AcyclicShare {
    /// The value of owned position `i` (see [`AcyclicShare`]).
    pub fn value(&self, i: usize) -> Option<u64> {
        (self.open[i] == 0).then_some(self.value[i])
    }
}

/// Bytes a rank needs for `n` owned positions, besides the side table and the messages.
pub fn bytes_needed(n: u64) -> u64 {
    12 * n + 64
}

/// The least natural number whose bit is clear in `word` and, from 64 on, in `more`.
fn mex_of(word: u64, more: Option<&Vec<u64>>) -> u64 {
    if word != u64::MAX {
        return u64::from(word.trailing_ones());
    }
    let more = more.map_or(&[][..], |v| &v[..]);
    for (j, &w) in more.iter().enumerate() {
        if w != u64::MAX {
            return 64 * (j as u64 + 1) + u64::from(w.trailing_ones());
        }
    }
    64 * (more.len() as u64 + 1)
}

/// Settles the positions of `part` under `play` (collective; see the module documentation).
pub fn solve<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    part: &ExploredShare,
    play: Play,
) -> Result<AcyclicShare> {
    let n = part.len();
    let k = bsp.size() as u64;
    let ctl = bsp.control();
    let what = "the values of this rank's positions";
    let mut held = bsp.check(ctl.reserve(bytes_needed(n as u64), what))?;
    // While open: `word` holds the option values below 64 seen (normal) or bit 0 "an option
    // is lost" (misère); settled: the value.
    let mut word = vec![0u64; n];
    let mut open: Vec<u32> = (0..n).map(|i| part.out_degree(i) as u32).collect();
    let mut big: FxHashMap<u32, Vec<u64>> = FxHashMap::default();
    let big_words: u64 = (0..n)
        .map(|i| part.out_degree(i))
        .filter(|&d| d >= 64)
        .map(|d| (d + 1).div_ceil(64))
        .sum();
    bsp.check(held.grow(8 * big_words + 48 * big_words.min(n as u64), what))?;
    let settle = |i: usize, word: &mut [u64], big: &mut FxHashMap<u32, Vec<u64>>| {
        word[i] = match play {
            Play::Normal => mex_of(word[i], big.remove(&(i as u32)).as_ref()),
            // Won iff terminal or some option is lost.
            Play::Misere => u64::from(part.out_degree(i) == 0 || word[i] & 1 == 1),
        };
    };
    let mut layer: Vec<u32> = Vec::new();
    for (i, _) in open.iter().enumerate().filter(|&(_, &c)| c == 0) {
        settle(i, &mut word, &mut big);
        layer.push(i as u32);
    }
    let mut rounds = 0u64;
    let mut settled = layer.len() as u64;
    loop {
        let mut out = Outbox::new(bsp.size());
        for &v in &layer {
            let g = word[v as usize];
            for &u in part.predecessors(v as usize) {
                let to = bsp.owner(u);
                match play {
                    Play::Normal => {
                        put(&mut out.to[to], u / k);
                        put(&mut out.to[to], g);
                    }
                    Play::Misere => put(&mut out.to[to], (u / k) << 1 | g),
                }
            }
        }
        let checked: Result<Vec<Vec<u8>>, Keyed> = ctl
            .check(settled)
            .and_then(|()| held.resize(bytes_needed(n as u64) + 2 * out.bytes(), what))
            .map(|()| out.to)
            .map_err(|e| (0, e));
        let (inbox, total) = bsp.exchange(checked)?;
        rounds += 1;
        if total == 0 {
            break;
        }
        layer.clear();
        let mut apply = || -> Result<()> {
            let bad = || Error::Internal("a message for a position not owned here".into());
            for batch in &inbox {
                let mut r = Read::new(batch);
                while !r.is_empty() {
                    let (u, g) = match play {
                        Play::Normal => (r.get()? as usize, r.get()?),
                        Play::Misere => {
                            let m = r.get()?;
                            ((m >> 1) as usize, m & 1)
                        }
                    };
                    if u >= n || open[u] == 0 {
                        return Err(bad());
                    }
                    match play {
                        Play::Normal if g < 64 => word[u] |= 1 << g,
                        Play::Normal => {
                            let d = part.out_degree(u);
                            if g <= d {
                                let bits = big
                                    .entry(u as u32)
                                    .or_insert_with(|| vec![0; (d + 1).div_ceil(64) as usize]);
                                let j = (g - 64) as usize;
                                bits[j / 64] |= 1 << (j % 64);
                            }
                        }
                        // A lost option (value 0) makes the position won.
                        Play::Misere => word[u] |= u64::from(g == 0),
                    }
                    open[u] -= 1;
                    if open[u] == 0 {
                        settle(u, &mut word, &mut big);
                        layer.push(u as u32);
                    }
                }
            }
            Ok(())
        };
        let applied = apply();
        drop(inbox);
        bsp.check(applied)?;
        settled += layer.len() as u64;
    }
    let open_here = open.iter().filter(|&&c| c > 0).count() as u64;
    let open_total = bsp.sum(open_here);
    Ok(AcyclicShare {
        value: word,
        open,
        open_total,
        rounds,
    })
}
