//! Outcomes and remoteness by retrograde analysis in bulk-synchronous rounds.
//!
//! The one-process analysis ([`crate::solve::outcome`]) takes the labelled vertices from a FIFO
//! queue, which processes them by *layers*: layer `k` holds the vertices of remoteness `k`, and
//! a vertex labelled while layer `k` is processed gets remoteness `k + 1`, whatever the order
//! within the layer (the first P option to reach an N vertex and the last N option to release a
//! P vertex both lie in layer `k`). So round `k` here processes layer `k` on every rank at
//! once: for each vertex `v` of the layer and each predecessor `u` (a reverse arc held by `v`'s
//! owner), the message "an option of yours is P (or N)" goes to `u`'s owner, which applies the
//! rules of the definition: a P option labels an open `u` N; an N option decrements `u`'s
//! counter (its out-degree at the start), and the last one labels `u` P. The labels of round
//! `k` form layer `k + 1`. The rounds end when no message moves; open vertices are draws.
//!
//! Per rank: 8 bytes a vertex (state word), 4 a vertex of the current layer, and the messages
//! of a round (1 to 5 bytes an arc into the layer: the predecessor's index and the option's
//! class, as one varint).

use super::graph::GraphPart;
use super::wire::{put, Read};
use super::{numbers, Bsp, Comm, Keyed, Outbox};
use crate::error::{Error, Result};
use crate::solve::outcome::outcome_of_rank;
use crate::solve::{Outcome, Play};

/// The flag of a labelled vertex's state word (the rest is `remoteness + 1`); an open vertex's
/// word is its count of options not yet known to be N.
const LABELLED: u64 = 1 << 63;

/// The outcome and remoteness of each vertex a rank owns: `remoteness + 1`, or 0 for a draw
/// (as [`crate::solve::outcome::Outcomes`], whose outcome follows from the parity).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartOutcomes {
    play: Play,
    rank: Vec<u64>,
}

impl PartOutcomes {
    /// The outcome of owned vertex `i`.
    pub fn outcome(&self, i: usize) -> Outcome {
        outcome_of_rank(self.rank[i], self.play)
    }

    /// The remoteness of owned vertex `i`, `None` for a draw.
    pub fn remoteness(&self, i: usize) -> Option<u64> {
        self.rank[i].checked_sub(1)
    }

    /// The words as bytes (a checkpoint of the finished pass): `remoteness + 1` or 0 for each
    /// owned vertex, as varints.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rank.len() * 2);
        put(&mut out, self.rank.len() as u64);
        for &r in &self.rank {
            put(&mut out, r);
        }
        out
    }

    /// The outcomes under `play` of the `n` owned vertices from [`PartOutcomes::to_bytes`]
    /// (bytes of another part are an error).
    pub fn from_bytes(bytes: &[u8], play: Play, n: usize) -> Result<PartOutcomes> {
        let mut r = Read::new(bytes);
        let bad = || Error::invalid("a checkpoint of outcomes that does not fit this graph");
        if r.get()? != n as u64 {
            return Err(bad());
        }
        let rank = (0..n).map(|_| r.get()).collect::<Result<Vec<u64>>>()?;
        if !r.is_empty() {
            return Err(bad());
        }
        Ok(PartOutcomes { play, rank })
    }
}

/// Solves the outcomes of the vertices of `part` (collective; see the module documentation).
pub fn solve<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    part: &GraphPart,
    play: Play,
) -> Result<PartOutcomes> {
    let n = part.len();
    let k = bsp.size() as u64;
    let ctl = bsp.control();
    let held = ctl.reserve(12 * n as u64, "the outcomes of this rank's vertices");
    let mut state: Vec<u64> = Vec::new();
    let mut layer: Vec<u32> = Vec::new();
    if held.is_ok() {
        state = (0..n).map(|i| part.out_degree(i)).collect();
        for (i, s) in state.iter_mut().enumerate() {
            if *s == 0 {
                *s = LABELLED | 1;
                layer.push(i as u32);
            }
        }
    }
    let _held = bsp.check(held)?;

    let mut rank = 1u64;
    let mut done = layer.len() as u64;
    loop {
        let mut out = Outbox::new(bsp.size());
        let is_p = u64::from(outcome_of_rank(rank, play) == Outcome::P);
        for &v in &layer {
            for &u in part.predecessors(v as usize) {
                out.put(bsp.owner(u), (u / k) << 1 | is_p);
            }
        }
        let checked: Result<Vec<Vec<u8>>, Keyed> =
            ctl.check(done).map(|()| out.to).map_err(|e| (0, e));
        let (inbox, total) = bsp.exchange(checked)?;
        if total == 0 {
            break;
        }
        layer.clear();
        let next = LABELLED | (rank + 1);
        let apply = |layer: &mut Vec<u32>, state: &mut [u64]| -> Result<()> {
            for batch in &inbox {
                let mut r = numbers(batch);
                while !r.is_empty() {
                    let m = r.get()?;
                    let u = (m >> 1) as usize;
                    let s = state.get_mut(u).ok_or_else(|| {
                        Error::Internal("a message for a vertex not owned here".into())
                    })?;
                    if *s & LABELLED != 0 {
                        continue;
                    }
                    if m & 1 == 1 || *s == 1 {
                        *s = next;
                        layer.push(u as u32);
                    } else {
                        *s -= 1;
                    }
                }
            }
            Ok(())
        };
        let applied = apply(&mut layer, &mut state);
        bsp.check(applied)?;
        done += layer.len() as u64;
        rank += 1;
    }
    for s in state.iter_mut() {
        *s = if *s & LABELLED != 0 {
            *s & !LABELLED
        } else {
            0
        };
    }
    Ok(PartOutcomes { play, rank: state })
}
