//! The answer in the order of the file: each rank sorts the vertices it owns by their first
//! appearance, and rank 0 merges the sorted runs of all ranks (a `K`-way merge), pulling a batch
//! from a rank whenever its buffer runs dry. Rank 0 holds at most a batch a rank, never the
//! whole answer; every merge round is two exchanges (the requests, then the batches).

use super::graph::GraphPart;
use super::loopy::LoopyShare;
use super::retrograde::PartOutcomes;
use super::wire::{put, put_bytes, Read};
use super::{Bsp, Comm};
use crate::error::Result;
use crate::solve::loopy::Gamma;
use crate::solve::Outcome;
use std::collections::VecDeque;

/// One vertex of the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The vertex's name.
    pub name: String,
    /// Its outcome.
    pub outcome: Outcome,
    /// Its remoteness (`None` for a draw).
    pub remoteness: Option<u64>,
    /// Its `γ` value, when values were computed.
    pub value: Option<Gamma>,
}

/// Records a rank sends in one batch.
const BATCH: usize = 1 << 13;

/// Requests from rank 0: what a rank should do this merge round.
const IDLE: u8 = 0;
const SEND: u8 = 1;
const FINISH: u8 = 2;

fn encode(
    buf: &mut Vec<u8>,
    part: &GraphPart,
    outcomes: &PartOutcomes,
    values: Option<&LoopyShare>,
    i: usize,
) {
    put(buf, part.first(i));
    put_bytes(buf, part.name(i).as_bytes());
    put(buf, outcomes.outcome(i) as u64);
    put(buf, outcomes.remoteness(i).map_or(0, |r| r + 1));
    match values.map(|v| v.value(i)) {
        None => put(buf, 0),
        Some(Gamma::Finite(a)) => {
            put(buf, 1);
            put(buf, a);
        }
        Some(Gamma::Infinite(k)) => {
            put(buf, 2);
            put(buf, k.len() as u64);
            for x in k {
                put(buf, x);
            }
        }
    }
}

fn decode(r: &mut Read<'_>) -> Result<(u64, Line)> {
    let first = r.get()?;
    let name = r.get_str()?.to_string();
    let outcome = match r.get()? {
        0 => Outcome::P,
        1 => Outcome::N,
        _ => Outcome::D,
    };
    let remoteness = r.get()?.checked_sub(1);
    let value = match r.get()? {
        0 => None,
        1 => Some(Gamma::Finite(r.get()?)),
        _ => {
            let len = r.get()?;
            let mut k = Vec::new();
            for _ in 0..len {
                k.push(r.get()?);
            }
            Some(Gamma::Infinite(k))
        }
    };
    Ok((
        first,
        Line {
            name,
            outcome,
            remoteness,
            value,
        },
    ))
}

/// Calls `sink` at rank 0 on every vertex of the graph in order of first appearance
/// (collective; other ranks only send). An error of the sink stops the merge on every rank and
/// is returned at rank 0 (the other ranks return `Ok`).
pub fn for_each<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    part: &GraphPart,
    outcomes: &PartOutcomes,
    values: Option<&LoopyShare>,
    mut sink: impl FnMut(Line) -> Result<()>,
) -> Result<()> {
    let k = bsp.size();
    let root = bsp.rank() == 0;
    let mut order: Vec<u32> = (0..part.len() as u32).collect();
    order.sort_unstable_by_key(|&i| part.first(i as usize));
    let mut next = 0usize;
    // Rank 0's buffers and which ranks have sent their last batch.
    let mut buffers: Vec<VecDeque<(u64, Line)>> = vec![VecDeque::new(); k];
    let mut ended = vec![false; k];
    let mut failed: Option<crate::Error> = None;
    loop {
        let mut requests = vec![Vec::new(); k];
        if root {
            let finished = failed.is_some() || (0..k).all(|r| ended[r] && buffers[r].is_empty());
            for (r, req) in requests.iter_mut().enumerate() {
                req.push(if finished {
                    FINISH
                } else if !ended[r] && buffers[r].is_empty() {
                    SEND
                } else {
                    IDLE
                });
            }
        }
        let got = bsp.comm.all_to_all(requests);
        let request = got[0].first().copied().unwrap_or(FINISH);
        if request == FINISH {
            break;
        }
        let mut batches = vec![Vec::new(); k];
        if request == SEND {
            let end = (next + BATCH).min(order.len());
            let b = &mut batches[0];
            put(b, u64::from(end == order.len()));
            for &i in &order[next..end] {
                encode(b, part, outcomes, values, i as usize);
            }
            next = end;
        }
        let got = bsp.comm.all_to_all(batches);
        if !root {
            continue;
        }
        for (r, batch) in got.iter().enumerate() {
            if batch.is_empty() {
                continue;
            }
            let mut read = Read::new(batch);
            ended[r] = read.get()? == 1;
            while !read.is_empty() {
                buffers[r].push_back(decode(&mut read)?);
            }
        }
        // Emit while every rank that may still send has something buffered.
        while failed.is_none() {
            if (0..k).any(|r| !ended[r] && buffers[r].is_empty()) {
                break;
            }
            let Some(r) = (0..k)
                .filter(|&r| !buffers[r].is_empty())
                .min_by_key(|&r| buffers[r][0].0)
            else {
                break;
            };
            if let Some((_, line)) = buffers[r].pop_front() {
                if let Err(e) = sink(line) {
                    failed = Some(e);
                }
            }
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
