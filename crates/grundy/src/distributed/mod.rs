//! Bulk-synchronous solving over ranks: the game-graph engines of [`solve`](crate::solve) split
//! across processes that share no memory (MPI ranks on a cluster), for graphs no one machine
//! holds.
//!
//! **Model.** `K` ranks run the same program. Each vertex has one *owner*, the rank
//! `hash(name) mod K` (a vertex's id `gid = index·K + owner` names its owner too), and only the
//! owner holds the vertex's state and its *reverse arcs* (its predecessors). The computation goes
//! in *rounds* (Valiant's bulk-synchronous parallel model): in a round every rank does local work
//! on what it owns and writes messages addressed to other vertices' owners, then all ranks take
//! part in one all-to-all exchange ([`Comm::all_to_all`], `MPI_Alltoallv`), which is also the
//! barrier between rounds. A round's messages are batched per destination rank, each message a
//! few LEB128 bytes.
//!
//! Retrograde analysis fits this model because every rule it applies is local to an arc: "an
//! option of yours is decided" travels from the option's owner (who holds the reverse arc) to
//! the predecessor's owner (who holds the counter). See [`retrograde`] for outcomes and
//! remoteness, [`loopy`] for the generalized Sprague-Grundy function, [`graph`] for reading a
//! graph file by byte ranges, [`order`] for writing the answer in the file's order.
//!
//! **Failures.** Every rank calls the same collectives in the same order, so an error found by
//! one rank (bad input, a memory limit, a cancel) cannot simply return: the others would wait
//! forever in the next collective. Each exchange therefore begins with an agreement
//! ([`Bsp::exchange`], [`Bsp::agree`]): every rank states whether it failed, the failure that
//! comes first (the least key: a line of the input, else the lowest rank) is sent to all, and
//! every rank returns that same error. A rank that dies is the launcher's business (`mpirun`
//! ends the job when a process exits without finalizing).
//!
//! The algorithms here only need [`Comm`]: [`threads`] runs ranks as threads of one process
//! (what the tests pit against the one-process solvers), and the `mpi` feature adds
//! `distributed::mpi`, ranks as MPI processes.

pub mod acyclic;
pub mod checkpoint;
pub mod cram;
pub mod explore;
pub mod game;
pub mod graph;
pub mod loopy;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod order;
pub mod retrograde;
pub mod threads;
pub(crate) mod wire;

use crate::control::Control;
use crate::error::{Error, Result};
use std::cell::Cell;
pub use wire::{get_error, put_error};
use wire::{put, Read};

/// What the algorithms need from a set of ranks: who am I, how many are we, and two collectives.
pub trait Comm {
    /// This rank, in `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// The personalized all-to-all exchange (`MPI_Alltoallv`): `send[r]` goes to rank `r`;
    /// returns the bytes every rank sent to this one, indexed by sender. Collective.
    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
    /// Every rank's `words` (of the same length on every rank), concatenated in rank order
    /// (`MPI_Allgather`). Collective.
    fn all_gather(&self, words: &[u64]) -> Vec<u64>;
}

/// Counters of the communication of one rank: rounds, messages and bytes it sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommStats {
    /// All-to-all exchanges taken part in.
    pub rounds: u64,
    /// Bytes this rank sent to other ranks (what it sends itself stays in memory).
    pub bytes_sent: u64,
    /// Bytes this rank sent to itself.
    pub bytes_local: u64,
}

/// A rank's view of a bulk-synchronous computation: the communicator, its control (cancel,
/// memory budget) and its counters.
pub struct Bsp<'a, C: Comm + ?Sized> {
    comm: &'a C,
    ctl: &'a Control<'a>,
    stats: Cell<CommStats>,
}

/// A failure that comes first among ranks by its key (the least key wins: a line of the input,
/// or 0 for failures that are not the input's).
pub type Keyed = (u64, Error);

impl<'a, C: Comm + ?Sized> Bsp<'a, C> {
    /// A computation over `comm` under `ctl`.
    pub fn new(comm: &'a C, ctl: &'a Control<'a>) -> Self {
        Bsp {
            comm,
            ctl,
            stats: Cell::new(CommStats::default()),
        }
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.comm.rank()
    }

    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.comm.size()
    }

    /// The control of this rank's work.
    pub fn control(&self) -> &Control<'a> {
        self.ctl
    }

    /// The communication so far.
    pub fn stats(&self) -> CommStats {
        self.stats.get()
    }

    /// The owner of a vertex id `gid = index·K + owner`.
    #[inline]
    pub fn owner(&self, gid: u64) -> usize {
        (gid % self.size() as u64) as usize
    }

    /// Every rank's `words`, concatenated (no agreement on errors: callers have agreed first).
    pub fn all_gather(&self, words: &[u64]) -> Vec<u64> {
        self.comm.all_gather(words)
    }

    /// The sum over ranks of `x`.
    pub fn sum(&self, x: u64) -> u64 {
        self.all_gather(&[x]).iter().sum()
    }

    /// Agrees on failures ([`Bsp::agree`]) with key 0: the failure of the lowest rank wins.
    pub fn check<T>(&self, local: Result<T>) -> Result<T> {
        self.agree(local.map_err(|e| (0, e)))
    }

    /// Collective: if any rank failed, every rank returns the failure with the least key (ties:
    /// the lowest rank), sent from the rank that found it; else each its own value.
    pub fn agree<T>(&self, local: Result<T, Keyed>) -> Result<T> {
        let key = match &local {
            Ok(_) => u64::MAX,
            Err((k, _)) => (*k).min(u64::MAX - 1),
        };
        let keys = self.comm.all_gather(&[key]);
        self.settle(local, &keys, 1)
    }

    /// Given every rank's status word (`stride` words a rank, the first the failure key or
    /// `u64::MAX`), returns the first failure (collective when there is one) or `local`.
    fn settle<T>(&self, local: Result<T, Keyed>, words: &[u64], stride: usize) -> Result<T> {
        let first = (0..self.size())
            .map(|r| (words[r * stride], r))
            .min()
            .filter(|&(k, _)| k != u64::MAX);
        let Some((_, root)) = first else {
            return local.map_err(|(_, e)| e);
        };
        let mut send = vec![Vec::new(); self.size()];
        if self.rank() == root {
            let mut bytes = Vec::new();
            if let Err((_, e)) = &local {
                put_error(&mut bytes, e);
            }
            send.fill(bytes);
        }
        let got = self.comm.all_to_all(send);
        Err(get_error(&got[root]))
    }

    /// One round's exchange, collective: agrees on failures first (`out` an error: this rank
    /// failed), then sends `out[r]` to rank `r` and returns what each rank sent here, with the
    /// total number of bytes all ranks sent (0: nothing moved, and the exchange was skipped).
    pub fn exchange(&self, out: Result<Vec<Vec<u8>>, Keyed>) -> Result<(Vec<Vec<u8>>, u64)> {
        let (key, bytes) = match &out {
            Ok(o) => (u64::MAX, o.iter().map(|b| b.len() as u64).sum()),
            Err((k, _)) => ((*k).min(u64::MAX - 1), 0),
        };
        let words = self.comm.all_gather(&[key, bytes]);
        let out = self.settle(out, &words, 2)?;
        let total: u64 = words.chunks(2).map(|w| w[1]).sum();
        if total == 0 {
            return Ok((vec![Vec::new(); self.size()], 0));
        }
        let mut s = self.stats.get();
        s.rounds += 1;
        for (r, b) in out.iter().enumerate() {
            if r == self.rank() {
                s.bytes_local += b.len() as u64;
            } else {
                s.bytes_sent += b.len() as u64;
            }
        }
        self.stats.set(s);
        Ok((self.comm.all_to_all(out), total))
    }
}

/// Messages being written to every rank: one byte buffer a destination.
pub(crate) struct Outbox {
    pub(crate) to: Vec<Vec<u8>>,
}

impl Outbox {
    pub(crate) fn new(ranks: usize) -> Self {
        Outbox {
            to: vec![Vec::new(); ranks],
        }
    }

    /// Appends the number `x` to the batch for `rank`.
    #[inline]
    pub(crate) fn put(&mut self, rank: usize, x: u64) {
        put(&mut self.to[rank], x);
    }

    /// Bytes written so far.
    pub(crate) fn bytes(&self) -> u64 {
        self.to.iter().map(|b| b.capacity() as u64).sum()
    }
}

/// Reads the numbers of a received batch in order (a malformed batch is an internal error).
pub(crate) fn numbers(batch: &[u8]) -> Read<'_> {
    Read::new(batch)
}

/// The hash that decides owners: the multiply-rotate hash of the bytes (the same on every
/// rank and every run).
pub fn owner_hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::game::hash::FxHasher::default();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod tests;
