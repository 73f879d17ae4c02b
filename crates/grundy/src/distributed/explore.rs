//! The positions of a game given by its rules, explored by breadth over ranks: each position
//! has one owner, which stores it, generates its moves and keeps its reverse arcs. No rank
//! holds the whole game.
//!
//! **Owners.** A position is stored under its key, the bytes ([`Encoding`]) of its canonical
//! form ([`Canonical::canonical`](crate::game::Canonical::canonical), symmetric positions sharing one key), and owned by rank
//! `owner_hash(key) mod K`. Its id is `index·K + owner`, `index` counting the positions its
//! owner stored before it.
//!
//! **Rounds.** Round `r` expands the *frontier*, the positions stored in round `r − 1` (round 0:
//! the start, stored by its owner): for each frontier position `p` its owner generates the
//! options `q`, and sends "`key(q)`, an option of `id(p)`" to the owner of `q`, all batched
//! into one all-to-all exchange ([`Bsp::exchange`]). The owner looks each key up: a key not
//! seen before is stored (a new index) and joins the next frontier; either way the reverse arc
//! `q ← p` is kept. Positions are stored in the order the messages arrive (by sender rank,
//! then in the sender's order), so a run with the same `K` numbers every position the same way.
//! After round `r` every position at distance `≤ r + 1` from the start is stored, and the
//! exploration ends with the first round in which no rank has a frontier: every position
//! reachable from the start is stored once, with its out-degree (arcs counted with their
//! multiplicity) and its reverse arcs.
//!
//! **What a round adds** is appended, never rewritten: out-degrees of the frontier, new keys,
//! reverse arcs. That makes the log of a round ([`Journal`]) a checkpoint: replaying the logs
//! of rounds `0..=r` in order rebuilds the state after round `r`, numbering included.
//!
//! **Memory per rank** (reserved from the control's budget before a round's messages are
//! applied): [`POSITION_BYTES`] plus the key a position, [`ARC_BYTES`] a reverse arc while
//! exploring (8 once the arcs are sorted into [`ExploredShare`]), and the round's messages (the key
//! and a varint id an arc into the frontier's options).

use super::wire::{put, put_bytes, Read};
use super::{owner_hash, Bsp, Comm, Keyed, Outbox};
use crate::control::Reservation;
use crate::error::{Error, LimitKind, Result};
use crate::game::hash::FxHashMap;
use crate::game::{Encoding, Structured};

/// Bytes charged a stored position besides its key: the hash table's entry (a boxed key and an
/// index, at the table's lowest load), the allocation of the key, the out-degree and the
/// position's start in the sorted reverse arcs.
pub const POSITION_BYTES: u64 = 80;

/// Bytes charged a reverse arc while exploring (the position's index and the predecessor's
/// id).
pub const ARC_BYTES: u64 = 16;

/// The log of an exploration: what each finished round added on this rank, to be replayed by
/// a later run. Collective use: [`explore`] calls [`Journal::record`] on every rank after a
/// round, agrees on failures, then calls [`Journal::commit`] on every rank.
pub trait Journal {
    /// The logs of the rounds an earlier run finished, in order (empty: start afresh).
    fn replay(&mut self) -> Result<Vec<Vec<u8>>>;
    /// Writes the log of round `round` of this rank (not yet valid until committed).
    fn record(&mut self, round: u64, log: &[u8]) -> Result<()>;
    /// Every rank has recorded round `round`: it is now the one to resume after.
    fn commit(&mut self, round: u64) -> Result<()>;
}

/// The positions a rank owns, with their out-degrees and reverse arcs.
#[derive(Debug)]
pub struct ExploredShare {
    index: FxHashMap<Box<[u8]>, u32>,
    degree: Vec<u32>,
    pred_start: Vec<usize>,
    preds: Vec<u64>,
    totals: (u64, u64),
    rounds: u64,
    resumed: u64,
    bytes: u64,
    _held: Reservation,
}

impl ExploredShare {
    /// The number of positions this rank owns.
    pub fn len(&self) -> usize {
        self.degree.len()
    }

    /// True if this rank owns no position.
    pub fn is_empty(&self) -> bool {
        self.degree.is_empty()
    }

    /// The number of options of owned position `i` (with multiplicity).
    #[inline]
    pub fn out_degree(&self, i: usize) -> u64 {
        u64::from(self.degree[i])
    }

    /// The ids (`index·K + owner`) of the positions with owned position `i` as an option, once
    /// an arc.
    #[inline]
    pub fn predecessors(&self, i: usize) -> &[u64] {
        &self.preds[self.pred_start[i]..self.pred_start[i + 1]]
    }

    /// The index of the owned position with key `key`.
    pub fn index_of(&self, key: &[u8]) -> Option<usize> {
        self.index.get(key).map(|&i| i as usize)
    }

    /// Positions and arcs of the whole game (all ranks).
    pub fn totals(&self) -> (u64, u64) {
        self.totals
    }

    /// Rounds of exploration (the greatest distance from the start, plus one), and how many
    /// of them were replayed from a journal.
    pub fn rounds(&self) -> (u64, u64) {
        (self.rounds, self.resumed)
    }

    /// Bytes this rank charged to its budget for the explored positions.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The owner of a key among `ranks` ranks.
    pub fn owner_of(key: &[u8], ranks: usize) -> usize {
        (owner_hash(key) % ranks as u64) as usize
    }
}

/// The key of `p`: the bytes of its canonical form (of `p` itself with `symmetry` off).
pub fn key<F: Structured + Encoding>(
    family: &F,
    p: &F::Position,
    symmetry: bool,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    if symmetry {
        family.encode(&family.canonical(p)?, &mut out);
    } else {
        family.encode(p, &mut out);
    }
    Ok(out)
}

/// A rank's state while exploring.
struct State {
    k: usize,
    rank: usize,
    index: FxHashMap<Box<[u8]>, u32>,
    degree: Vec<u32>,
    arc_index: Vec<u32>,
    arc_pred: Vec<u64>,
    /// Keys of the positions stored but not yet expanded (indices `degree.len()..`).
    frontier: Vec<Box<[u8]>>,
    key_bytes: u64,
}

impl State {
    /// Bytes of the state, as charged: the positions, their keys (twice for the frontier's,
    /// which are also listed there) and the reverse arcs.
    fn bytes(&self) -> u64 {
        let frontier: u64 = self.frontier.iter().map(|k| 16 + k.len() as u64).sum();
        POSITION_BYTES * self.index.len() as u64
            + self.key_bytes
            + frontier
            + ARC_BYTES * self.arc_index.len() as u64
    }

    /// Stores `key` if new (it joins the frontier); its index.
    fn store(&mut self, key: &[u8]) -> Result<u32> {
        if let Some(&i) = self.index.get(key) {
            return Ok(i);
        }
        let i = u32::try_from(self.index.len()).map_err(|_| {
            Error::limit(
                LimitKind::Positions,
                "a rank would own more than 2^32 positions",
                "run with more ranks",
            )
        })?;
        let boxed: Box<[u8]> = key.into();
        self.key_bytes += key.len() as u64;
        self.frontier.push(boxed.clone());
        self.index.insert(boxed, i);
        Ok(i)
    }

    /// Applies what the owners were sent in one round (`inbox[from]`: keys and predecessor
    /// ids), appending the new keys and arcs to `log`.
    fn apply(&mut self, inbox: &[Vec<u8>], log: &mut Vec<u8>) -> Result<()> {
        let before = self.index.len();
        let arcs_before = self.arc_index.len();
        for batch in inbox {
            let mut r = Read::new(batch);
            while !r.is_empty() {
                let key = r.get_bytes()?;
                let pred = r.get()?;
                let i = self.store(key)?;
                self.arc_index.push(i);
                self.arc_pred.push(pred);
            }
        }
        put(log, (self.index.len() - before) as u64);
        for key in &self.frontier {
            put_bytes(log, key);
        }
        put(log, (self.arc_index.len() - arcs_before) as u64);
        for a in arcs_before..self.arc_index.len() {
            put(log, u64::from(self.arc_index[a]));
            put(log, self.arc_pred[a]);
        }
        Ok(())
    }

    /// Replays one round's log (as written by [`State::apply`] after the out-degrees).
    fn replay(&mut self, log: &[u8]) -> Result<()> {
        let bad = || Error::Internal("a checkpoint log that does not fit this run".into());
        let mut r = Read::new(log);
        let expanded = r.get()?;
        if expanded != self.frontier.len() as u64 {
            return Err(bad());
        }
        self.frontier.clear();
        for _ in 0..expanded {
            let d = u32::try_from(r.get()?).map_err(|_| bad())?;
            self.degree.push(d);
        }
        for _ in 0..r.get()? {
            let key = r.get_bytes()?;
            let before = self.index.len();
            if self.store(key)? as usize != before {
                return Err(bad());
            }
        }
        for _ in 0..r.get()? {
            let i = u32::try_from(r.get()?).map_err(|_| bad())?;
            if i as usize >= self.index.len() {
                return Err(bad());
            }
            self.arc_index.push(i);
            self.arc_pred.push(r.get()?);
        }
        if !r.is_empty() {
            return Err(bad());
        }
        Ok(())
    }

    /// Expands the frontier: the out-degrees go to `log`, the options to their owners.
    fn expand<F: Structured + Encoding>(
        &mut self,
        family: &F,
        symmetry: bool,
        ctl: &crate::control::Control<'_>,
        out: &mut Outbox,
        log: &mut Vec<u8>,
    ) -> Result<u64> {
        let mut options = Vec::new();
        let mut key = Vec::new();
        let mut arcs = 0u64;
        let first = self.degree.len();
        put(log, self.frontier.len() as u64);
        for (j, bytes) in self.frontier.iter().enumerate() {
            ctl.tick()?;
            let p = family.decode(bytes)?;
            options.clear();
            family.options(&p, &mut options)?;
            let d = u32::try_from(options.len()).map_err(|_| {
                Error::limit(
                    LimitKind::Fixed,
                    "a position with more than 2^32 moves",
                    "solve a smaller game",
                )
            })?;
            let id = ((first + j) * self.k + self.rank) as u64;
            for q in &options {
                key.clear();
                if symmetry {
                    family.encode(&family.canonical(q)?, &mut key);
                } else {
                    family.encode(q, &mut key);
                }
                let to = ExploredShare::owner_of(&key, self.k);
                put_bytes(&mut out.to[to], &key);
                put(&mut out.to[to], id);
            }
            arcs += u64::from(d);
            self.degree.push(d);
            put(log, u64::from(d));
        }
        self.frontier.clear();
        Ok(arcs)
    }
}

/// Explores every position reachable from `root` (collective; see the module documentation),
/// resuming from `journal`'s rounds if it has any and logging each finished round to it.
/// Errors of the family (a script's) are agreed among ranks: every rank returns the one of
/// the lowest rank that met one.
pub fn explore<F: Structured + Encoding, C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    family: &F,
    root: &F::Position,
    symmetry: bool,
    mut journal: Option<&mut dyn Journal>,
) -> Result<ExploredShare> {
    let ctl = bsp.control();
    let (k, rank) = (bsp.size(), bsp.rank());
    let mut st = State {
        k,
        rank,
        index: FxHashMap::default(),
        degree: Vec::new(),
        arc_index: Vec::new(),
        arc_pred: Vec::new(),
        frontier: Vec::new(),
        key_bytes: 0,
    };
    let what = "the positions explored on this rank";
    let mut held = bsp.check(ctl.reserve(0, what))?;
    // The start, stored by its owner.
    let start = key(family, root, symmetry).and_then(|key| {
        if ExploredShare::owner_of(&key, k) == rank {
            held.grow(POSITION_BYTES + key.len() as u64, what)?;
            st.store(&key)?;
        }
        Ok(())
    });
    bsp.check(start)?;
    // Rounds an earlier run finished.
    let logs = match journal.as_mut() {
        Some(j) => j.replay(),
        None => Ok(Vec::new()),
    };
    let logs = bsp.check(logs)?;
    let resumed = bsp.all_gather(&[logs.len() as u64]);
    if resumed.iter().any(|&r| r != resumed[0]) {
        return Err(Error::invalid(
            "the checkpoint's ranks did not all finish the same rounds",
        ));
    }
    let replayed = logs.into_iter().try_for_each(|log| {
        st.replay(&log)?;
        held.resize(st.bytes(), what)
    });
    bsp.check(replayed)?;
    let resumed = resumed[0];
    let mut round = resumed;
    loop {
        let mut out = Outbox::new(k);
        let mut log = Vec::new();
        let expanded = st.expand(family, symmetry, ctl, &mut out, &mut log);
        let sent: Result<Vec<Vec<u8>>, Keyed> = expanded
            .and_then(|_| {
                ctl.check(st.index.len() as u64)?;
                // The batches, and the exchange's copy of them.
                held.resize(st.bytes() + 2 * out.bytes(), what)?;
                Ok(out.to)
            })
            .map_err(|e| (0, e));
        let (inbox, total) = bsp.exchange(sent)?;
        if total == 0 {
            break;
        }
        // Each message may store a position: reserve for all of them before applying.
        let incoming: u64 = inbox.iter().map(|b| b.len() as u64).sum();
        let messages = incoming / 2 + 1;
        let applied = held
            .resize(
                st.bytes() + incoming + messages * (POSITION_BYTES + ARC_BYTES),
                what,
            )
            .and_then(|()| st.apply(&inbox, &mut log));
        drop(inbox);
        bsp.check(applied.and_then(|()| held.resize(st.bytes(), what)))?;
        if let Some(j) = journal.as_mut() {
            bsp.check(j.record(round, &log))?;
            bsp.check(j.commit(round))?;
        }
        round += 1;
    }
    // Reverse arcs sorted by position (a counting sort): `pred_start`, `preds`.
    let n = st.degree.len();
    let sorted = held.resize(
        st.bytes() + 8 * (n as u64 + 1) + 8 * st.arc_index.len() as u64,
        what,
    );
    bsp.check(sorted)?;
    let mut pred_start = vec![0usize; n + 1];
    for &i in &st.arc_index {
        pred_start[i as usize + 1] += 1;
    }
    for i in 0..n {
        pred_start[i + 1] += pred_start[i];
    }
    let mut cursor = pred_start.clone();
    let mut preds = vec![0u64; st.arc_index.len()];
    for (&i, &p) in st.arc_index.iter().zip(&st.arc_pred) {
        preds[cursor[i as usize]] = p;
        cursor[i as usize] += 1;
    }
    drop(cursor);
    let (arc_index, arc_pred) = (
        std::mem::take(&mut st.arc_index),
        std::mem::take(&mut st.arc_pred),
    );
    drop((arc_index, arc_pred));
    let bytes = st.bytes() + 8 * (n as u64 + 1) + 8 * preds.len() as u64;
    bsp.check(held.resize(bytes, what))?;
    let arcs_here: u64 = st.degree.iter().map(|&d| u64::from(d)).sum();
    let totals = bsp.all_gather(&[n as u64, arcs_here]);
    let totals = (
        totals.chunks(2).map(|w| w[0]).sum(),
        totals.chunks(2).map(|w| w[1]).sum(),
    );
    Ok(ExploredShare {
        index: st.index,
        degree: st.degree,
        pred_start,
        preds,
        totals,
        rounds: round + 1,
        resumed,
        bytes,
        _held: held,
    })
}
