//! A game given by its rules ([`Structured`] games), solved over ranks:
//! the answer of [`solve::search::solve`](crate::solve::search::solve) (outcome, Grundy value
//! in normal play, every winning move in the family's order), from a distributed exploration
//! ([`explore`]) and a distributed retrograde pass ([`acyclic`]).
//!
//! **Whole positions.** The one-process engine splits positions into components and adds
//! their values (Sprague-Grundy); the values of the options of a component are then sums,
//! which a pass that counts settled options cannot combine. Here the graph of whole positions
//! (each made canonical) is solved instead: the simplest correct choice, and the only one for
//! misère play, where components do not add. It may hold many more positions than the
//! components the one-process engine stores (a board of two regions of `a` and `b` positions
//! has up to `a·b`).
//!
//! **The answer.** After the pass, rank 0 asks for the values it needs by key: the start's,
//! and for `--moves` those of the positions after each move of
//! [`Show::described_moves`](crate::game::Show::described_moves) in that order.
//! A move wins iff the position after it has value 0 (normal play: a P-position) or is lost
//! for the player to move there (misère play). The keys go to their owners in one exchange and
//! the values come back in another.

use super::acyclic::{self, AcyclicShare};
use super::explore::{explore, key, ExploredShare, Journal};
use super::wire::{put, put_bytes, Read};
use super::{Bsp, Comm};
use crate::error::{Error, Result};
use crate::game::{Encoding, Structured};
use crate::solve::search::{Solution, Stats, WinningMove};
use crate::solve::{Outcome, Play};
use std::time::Instant;

/// What a distributed solve did, besides the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Work {
    /// Positions explored (all ranks).
    pub positions: u64,
    /// Arcs (moves from explored positions, all ranks).
    pub arcs: u64,
    /// Rounds of exploration, and how many were replayed from a checkpoint.
    pub explore_rounds: u64,
    /// Rounds of exploration replayed from a checkpoint.
    pub resumed_rounds: u64,
    /// Rounds of the retrograde pass.
    pub value_rounds: u64,
    /// Bytes this rank charged for its positions.
    pub bytes: u64,
    /// Bytes sent to other ranks (all ranks), exploring and in the retrograde pass.
    pub bytes_sent: [u64; 2],
    /// Seconds exploring and in the retrograde pass.
    pub seconds: [f64; 2],
}

/// Solves `root` under `play` over the ranks of `bsp` (collective). Every rank returns the
/// same outcome and value; the winning moves (when `moves` is set) are on rank 0 only. The
/// [`Solution::stats`] count: `positions` explored, `lookups` the arcs, `hits` the arcs to a
/// position stored before, `table_bytes` the bytes charged on all ranks.
pub fn solve<F: Structured + Encoding, C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    family: &F,
    root: &F::Position,
    play: Play,
    moves: bool,
    journal: Option<&mut dyn Journal>,
) -> Result<(Solution, Work)> {
    let t0 = Instant::now();
    let part = explore(bsp, family, root, true, journal)?;
    let t1 = t0.elapsed().as_secs_f64();
    let sent1 = bsp.stats().bytes_sent;
    let values = acyclic::solve(bsp, &part, play)?;
    let t2 = t0.elapsed().as_secs_f64() - t1;
    let sent = bsp.all_gather(&[sent1, bsp.stats().bytes_sent - sent1]);
    let bytes_sent = [
        sent.chunks(2).map(|w| w[0]).sum(),
        sent.chunks(2).map(|w| w[1]).sum(),
    ];
    if values.open_total > 0 {
        return Err(Error::invalid(format!(
            "the game does not end: a line of play from {} repeats a position ({} positions \
             lie on or lead into a cycle)",
            family.show(root)?,
            values.open_total
        )));
    }
    // Rank 0: the keys asked for (the start, then the position after each move).
    let asked = if bsp.rank() == 0 {
        let mut asked = vec![(String::new(), String::new(), key(family, root, true)?)];
        if moves {
            for (name, after, q) in family.described_moves(root)? {
                asked.push((name, after, key(family, &q, true)?));
            }
        }
        Ok(asked)
    } else {
        Ok(Vec::new())
    };
    let asked = bsp.check(asked)?;
    let keys: Vec<&[u8]> = asked.iter().map(|(_, _, k)| &k[..]).collect();
    let got = lookup(bsp, &part, &values, &keys)?;
    let start = bsp.all_gather(&[got.first().copied().unwrap_or(0)])[0];
    let (outcome, value) = match play {
        Play::Normal => (
            if start == 0 { Outcome::P } else { Outcome::N },
            Some(start),
        ),
        Play::Misere => (if start == 1 { Outcome::N } else { Outcome::P }, None),
    };
    let mut winning_moves = Vec::new();
    if outcome == Outcome::N {
        // Normal play: value 0, a P-position; misère play: 0, lost for the player to move.
        for ((name, after, _), &v) in asked.into_iter().zip(&got).skip(1) {
            if v == 0 {
                winning_moves.push(WinningMove { name, after });
            }
        }
    }
    let (positions, arcs) = part.totals();
    let bytes = bsp.sum(part.bytes());
    let (explore_rounds, resumed_rounds) = part.rounds();
    let stats = Stats {
        positions,
        lookups: arcs,
        hits: arcs.saturating_sub(positions.saturating_sub(1)),
        table_bytes: bytes,
        ..Stats::default()
    };
    let work = Work {
        positions,
        arcs,
        explore_rounds,
        resumed_rounds,
        value_rounds: values.rounds,
        bytes: part.bytes(),
        bytes_sent,
        seconds: [t1, t2],
    };
    Ok((
        Solution {
            outcome,
            value,
            winning_moves,
            stats,
            seconds: t0.elapsed().as_secs_f64(),
        },
        work,
    ))
}

/// The values of the positions with keys `keys` (asked on any rank, answered to it, in
/// order), from their owners. Collective: one exchange of keys, one of values.
pub fn lookup<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    part: &ExploredShare,
    values: &AcyclicShare,
    keys: &[&[u8]],
) -> Result<Vec<u64>> {
    let k = bsp.size();
    let mut out = vec![Vec::new(); k];
    let owners: Vec<usize> = keys
        .iter()
        .map(|key| ExploredShare::owner_of(key, k))
        .collect();
    for (key, &to) in keys.iter().zip(&owners) {
        put_bytes(&mut out[to], key);
    }
    let (inbox, _) = bsp.exchange(Ok(out))?;
    let answer = || -> Result<Vec<Vec<u8>>> {
        let mut replies = vec![Vec::new(); k];
        for (from, batch) in inbox.iter().enumerate() {
            let mut r = Read::new(batch);
            while !r.is_empty() {
                let key = r.get_bytes()?;
                let v = part
                    .index_of(key)
                    .and_then(|i| values.value(i))
                    .ok_or_else(|| Error::Internal("a position asked for is not stored".into()))?;
                put(&mut replies[from], v);
            }
        }
        Ok(replies)
    };
    let replies = answer();
    let (inbox, _) = bsp.exchange(replies.map_err(|e| (0, e)))?;
    let mut readers: Vec<Read<'_>> = inbox.iter().map(|b| Read::new(b)).collect();
    let got = owners.iter().map(|&o| readers[o].get()).collect();
    bsp.check(got)
}

/// [`solve`] for a loaded game of the rules notation
/// ([`notation::board::load`](crate::notation::board::load)).
pub fn solve_loaded<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    loaded: &crate::game::families::Loaded,
    play: Play,
    moves: bool,
    journal: Option<&mut dyn Journal>,
) -> Result<(Solution, Work)> {
    use crate::game::families::{chomp::Chomp, cram::Cram, wythoff::Wythoff, Loaded};
    match loaded {
        Loaded::Chomp(p) => solve(bsp, &Chomp, p, play, moves, journal),
        Loaded::Cram(p) => solve(bsp, &Cram, p, play, moves, journal),
        Loaded::NodeKayles(f, p) => solve(bsp, f, p, play, moves, journal),
        Loaded::Wythoff(p) => solve(bsp, &Wythoff, p, play, moves, journal),
        #[cfg(feature = "script")]
        Loaded::Rules(f, p) => solve(bsp, f.as_ref(), p, play, moves, journal),
    }
}
