//! Cram over ranks by components: the pruned search of the one-process engine
//! ([`solve::cram`](crate::solve::cram)) on every rank, the options of the board's regions
//! shared out among the ranks, and the values of large regions sent to every rank.
//!
//! **The root.** The board splits into regions, and its value is the xor of theirs
//! (Sprague-Grundy). A region `C` (not settled by the mirror strategy, nor by rank 0's store)
//! has the value `mex{g(O) : O an option of C}`. Its options are listed the same way on every
//! rank: each option is the list of its parts (split, simplified, canonical, sorted), and equal
//! lists are one option, since they have one value. The options are sorted easiest first (by
//! the sum of the squares of their parts' cells, as the one-process engine orders them), and
//! option `i` belongs to rank `i mod K`.
//!
//! **One round a candidate value.** For `k = 0, 1, …`: if an option is known to have the value
//! `k`, `k` is not the mex; otherwise every rank asks its engine, for each of its options of
//! unknown value, whether `g(O) = k` (the outcome search of `O + *k`,
//! [`CramEngine::value_in_set`]), and stops at the first that has it. An answer may give the
//! option's exact value, `k` or another. The ranks then exchange the exact values found, and
//! `g(C) = k` if none of them is `k`: then every option was shown to differ from `k` (by its
//! owner, in the round of `k`) and every smaller value is the value of some option (earlier
//! rounds).
//!
//! **The shared database.** Each rank's engine keeps its own table; the values of regions of
//! [`ARCHIVE_MIN_CELLS`](crate::solve::cram::ARCHIVE_MIN_CELLS) cells or more that an engine
//! computes by storing [`ARCHIVE_MIN_COST`](crate::solve::cram::ARCHIVE_MIN_COST) positions or
//! more are sent to every rank in the next exchange, and each engine reads them before
//! searching such a region (as it reads the on-disk store in one process, through
//! [`Archive`]). They are held in an eighth of each rank's budget, reserved at the start; once
//! it is full, no more are kept or sent (the answer does not depend on them). Rank 0 also reads
//! and writes the on-disk store when it is given one, so the values found by every rank
//! outlive the run.
//!
//! **The winning moves.** When the value `v` is not 0, the moves of the board (in the family's
//! order) are shared out the same way, each rank asks whether the position after each of its
//! moves has value 0, and rank 0 gathers the answers: the one-process engine's moves, in its
//! order.
//!
//! **Cost.** Against one process, the work is the same search with the options of the root
//! regions asked side by side instead of one after another: a rank may search an option that
//! one process would not reach (its value `k` already shown by another option), and ranks wait
//! for the slowest at each round. The values of large regions cross ranks, so no two ranks
//! search the same large region after it is solved once.

use super::wire::{put, put_bytes, Read};
use super::{Bsp, Comm};
use crate::error::{Error, Result};
use crate::game::families::cram::{Board, Cram};
use crate::game::Show;
use crate::solve::cram::{self, archive_key, Archive, Bits, CramEngine, Parts, Shape, STACK_BYTES};
use crate::solve::search::{Solution, Stats, WinningMove};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// What a distributed Cram search did, besides the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct CramWork {
    /// Exchanges (one a candidate value of a root region, one for the winning moves).
    pub rounds: u64,
    /// Distinct options of the board's regions shared out among the ranks.
    pub options: u64,
    /// Values of regions received from other ranks (this rank).
    pub received: u64,
    /// Bytes sent to other ranks (all ranks).
    pub bytes_sent: u64,
}

/// Bytes charged for a region received from another rank: its key, its value and the hash
/// map's share of slots and control bytes.
const RECEIVED_BYTES: u64 = 48;

/// The share of a rank's budget that holds the regions received from other ranks, reserved at
/// the start: one part in `SHARED_PART` (the table takes half). Once it is full, further values
/// are not kept (nor sent): the search stays right, only the sharing stops.
const SHARED_PART: u64 = 8;

/// The key of a region in the shared database ([`archive_key`]).
type Key = [u8; 18];

/// The regions' values that travel between ranks, seen by the engine as an [`Archive`].
struct Exchanged<'s> {
    /// Values received from other ranks.
    known: Mutex<HashMap<Key, u8>>,
    /// Values this rank's engine computed since the last exchange.
    fresh: Mutex<Vec<(Key, u8)>>,
    /// The on-disk store (rank 0 only).
    store: Option<&'s dyn Archive>,
    /// The most values kept in `known`, and in `fresh`.
    cap: usize,
}

impl Exchanged<'_> {
    /// The value in the on-disk store of `c`, if any.
    fn stored<B: Bits>(&self, c: &Shape<B>) -> Option<u8> {
        let store = self.store?;
        (c.cells() >= store.min_cells())
            .then(|| store.get(&archive_key(c)))
            .flatten()
            .and_then(|v| u8::try_from(v).ok())
    }
}

impl Archive for Exchanged<'_> {
    fn get(&self, key: &[u8]) -> Option<u64> {
        let k: Key = key.try_into().ok()?;
        if let Some(&v) = lock(&self.known).get(&k) {
            return Some(u64::from(v));
        }
        self.store?.get(key)
    }

    fn fed_from_elsewhere(&self) -> bool {
        true
    }

    fn put(&self, key: &[u8], value: u64) {
        if let (Ok(k), Ok(v)) = (Key::try_from(key), u8::try_from(value)) {
            let mut fresh = lock(&self.fresh);
            if fresh.len() < self.cap {
                fresh.push((k, v));
            }
        }
        if let Some(store) = self.store {
            store.put(key, value);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Solves the Cram `board` (normal play) over the ranks of `bsp` (collective): every rank
/// returns the same outcome and value, and rank 0 the winning moves when `moves` is set, those
/// of [`cram::solve_with`] in the same order. `store` (read and written by rank 0 only) is the
/// on-disk store of region values. The [`Solution::stats`] add up the ranks' engines
/// (`table_bytes` the bytes charged on all ranks, `threads` the number of ranks).
pub fn solve<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    board: &Board,
    moves: bool,
    store: Option<&dyn Archive>,
) -> Result<(Solution, CramWork)> {
    let start = Instant::now();
    let shape = bsp.check(Shape::from_board(board).ok_or_else(|| {
        Error::invalid(format!(
            "cram: over ranks, boards of at most {} cells (this one has {})",
            cram::MAX_CELLS,
            board.rows() * board.cols()
        ))
    }))?;
    let cells = board.rows() * board.cols();
    let store = if bsp.rank() == 0 { store } else { None };
    // The searches recurse deeply: on a stack of their size, on this thread (the collectives
    // must be called from the thread that started MPI).
    stacker::maybe_grow(STACK_BYTES, 2 * STACK_BYTES, || {
        if cells <= 64 {
            run::<u64, C>(bsp, board, &shape.narrow(), moves, store, start)
        } else {
            run::<u128, C>(bsp, board, &shape, moves, store, start)
        }
    })
}

fn run<B: Bits, C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    board: &Board,
    shape: &Shape<B>,
    moves: bool,
    store: Option<&dyn Archive>,
    start: Instant,
) -> Result<(Solution, CramWork)> {
    let ctl = bsp.control();
    let cells = board.rows() * board.cols();
    let shared = Exchanged {
        known: Mutex::new(HashMap::new()),
        fresh: Mutex::new(Vec::new()),
        store,
        cap: (ctl.memory().limit() / SHARED_PART / RECEIVED_BYTES) as usize,
    };
    let table = cram::table_bytes(
        ctl.memory().limit().saturating_sub(STACK_BYTES as u64),
        cells,
    );
    let engine = bsp.check(CramEngine::<B>::for_cells(ctl, table, cells))?;
    let _shared = bsp.check(ctl.reserve(
        shared.cap as u64 * RECEIVED_BYTES,
        "the values of regions shared between ranks",
    ))?;
    let mut ranks = Ranks {
        bsp,
        engine: engine.with_archive(Some(&shared)),
        shared: &shared,
        work: CramWork::default(),
    };
    let mut parts = Parts::new();
    Shape::split(shape.bits, shape.width(), &mut parts);
    let mut v = 0;
    for c in parts.as_slice() {
        v ^= ranks.region_value(c)?;
    }
    let winning_moves = if moves && v != 0 {
        ranks.winning_moves(board)?
    } else {
        Vec::new()
    };
    let s = ranks.engine.stats();
    let sums = bsp.all_gather(&[
        s.positions,
        s.lookups,
        s.hits,
        s.table_bytes,
        bsp.stats().bytes_sent,
    ]);
    let sum = |j: usize| sums.chunks(5).map(|w| w[j]).sum::<u64>();
    let mut work = ranks.work;
    work.bytes_sent = sum(4);
    let stats = Stats {
        positions: sum(0),
        lookups: sum(1),
        hits: sum(2),
        table_bytes: sum(3),
        threads: u32::try_from(bsp.size()).unwrap_or(u32::MAX),
        ..Stats::default()
    };
    Ok((cram::solution(v, winning_moves, stats, start), work))
}

/// One rank's side of the search: its engine, the shared values, and its counters.
struct Ranks<'r, 'a, B, C: Comm + ?Sized> {
    bsp: &'r Bsp<'a, C>,
    engine: CramEngine<'r, 'a, B>,
    shared: &'r Exchanged<'r>,
    work: CramWork,
}

/// An option of a region: the cells after the move, and how hard it is to search.
struct Choice<B> {
    after: B,
    cost: u64,
}

impl<B: Bits, C: Comm + ?Sized> Ranks<'_, '_, B, C> {
    /// `g(c)` for a region `c` in canonical form, found by all ranks (collective).
    fn region_value(&mut self, c: &Shape<B>) -> Result<u8> {
        if c.mirror_zero() {
            return Ok(0);
        }
        // A value in rank 0's store is told to every rank.
        let stored = self.shared.stored(c);
        let told = self.bsp.all_gather(&[stored.map_or(u64::MAX, u64::from)]);
        if let Some(&v) = told.first().filter(|&&v| v != u64::MAX) {
            return u8::try_from(v).map_err(|_| Error::Internal("a stored value past 63".into()));
        }
        let options = options_of(c);
        self.work.options += options.len() as u64;
        let (me, k_ranks) = (self.bsp.rank(), self.bsp.size());
        let mut value: Vec<Option<u8>> = vec![None; options.len()];
        for k in 0..64u8 {
            if value.contains(&Some(k)) {
                continue;
            }
            let mut found = Vec::new();
            let asked = (|| {
                for i in (me..options.len()).step_by(k_ranks) {
                    if value[i].is_some() {
                        continue;
                    }
                    let o = Shape {
                        bits: options[i].after,
                        ..*c
                    };
                    if let Some(v) = self.engine.value_in_set(&o, 1 << k)? {
                        found.push((i, v));
                        if v == k {
                            break;
                        }
                    }
                }
                Ok(())
            })();
            for (i, v) in self.exchange(asked.map(|()| found))? {
                value[i] = Some(v);
            }
            if !value.contains(&Some(k)) {
                // Rank 0's store keeps the region, as the one-process engine's does.
                if let Some(store) = self.shared.store.filter(|s| c.cells() >= s.min_cells()) {
                    store.put(&archive_key(c), u64::from(k));
                }
                return Ok(k);
            }
        }
        Err(cram::too_large_value())
    }

    /// The winning moves of `board`, on rank 0 (collective).
    fn winning_moves(&mut self, board: &Board) -> Result<Vec<WinningMove>> {
        let described = self.bsp.check(Cram.described_moves(board))?;
        let (me, k_ranks) = (self.bsp.rank(), self.bsp.size());
        let mut found = Vec::new();
        let asked = (|| {
            for (i, (_, _, q)) in described.iter().enumerate().skip(me).step_by(k_ranks) {
                let s = Shape::from_board(q)
                    .ok_or_else(|| Error::Internal("a larger board".into()))?
                    .narrow::<B>();
                if self.engine.is_p(&s)? {
                    found.push((i, 0));
                }
            }
            Ok(())
        })();
        let wins = self.exchange(asked.map(|()| found))?;
        let mut wins: Vec<usize> = wins.into_iter().map(|(i, _)| i).collect();
        wins.sort_unstable();
        Ok(wins
            .into_iter()
            .filter_map(|i| described.get(i))
            .map(|(name, after, _)| WinningMove {
                name: name.clone(),
                after: after.clone(),
            })
            .collect())
    }

    /// One exchange (collective): this rank's `found` (index, value) pairs and the regions its
    /// engine solved since the last one go to every rank; returns every rank's pairs, this
    /// rank's included, and keeps the regions received.
    fn exchange(&mut self, found: Result<Vec<(usize, u8)>>) -> Result<Vec<(usize, u8)>> {
        let fresh = std::mem::take(&mut *lock(&self.shared.fresh));
        let (found, out) = match found {
            Ok(found) => {
                let out = self.batches(&found, &fresh);
                (found, Ok(out))
            }
            Err(e) => (Vec::new(), Err((0, e))),
        };
        let (got, _) = self.bsp.exchange(out)?;
        self.work.rounds += 1;
        let mut all = found;
        for (from, batch) in got.iter().enumerate() {
            if from == self.bsp.rank() || batch.is_empty() {
                continue;
            }
            let mut r = Read::new(batch);
            for _ in 0..r.get()? {
                let i = usize::try_from(r.get()?).map_err(|_| malformed())?;
                let v = u8::try_from(r.get()?).map_err(|_| malformed())?;
                all.push((i, v));
            }
            let n = r.get()?;
            let mut known = lock(&self.shared.known);
            for _ in 0..n {
                let key: Key = r.get_bytes()?.try_into().map_err(|_| malformed())?;
                let v = u8::try_from(r.get()?).map_err(|_| malformed())?;
                if known.len() < self.shared.cap || known.contains_key(&key) {
                    known.insert(key, v);
                }
                if let Some(store) = self.shared.store {
                    store.put(&key, u64::from(v));
                }
            }
            self.work.received += n;
        }
        Ok(all)
    }
}

impl<B: Bits, C: Comm + ?Sized> Ranks<'_, '_, B, C> {
    /// The batches of one exchange: `found` and `fresh` for every other rank, nothing for this
    /// one.
    fn batches(&self, found: &[(usize, u8)], fresh: &[(Key, u8)]) -> Vec<Vec<u8>> {
        let mut buf = Vec::new();
        put(&mut buf, found.len() as u64);
        for &(i, v) in found {
            put(&mut buf, i as u64);
            put(&mut buf, u64::from(v));
        }
        put(&mut buf, fresh.len() as u64);
        for (key, v) in fresh {
            put_bytes(&mut buf, key);
            put(&mut buf, u64::from(*v));
        }
        let mut to = vec![buf; self.bsp.size()];
        to[self.bsp.rank()].clear();
        to
    }
}

fn malformed() -> Error {
    Error::Internal("a malformed message between ranks".into())
}

/// The distinct options of the region `c`, easiest first (by the sum of the squares of their
/// parts' cells, ties in the engine's order, [`Shape::afters`]), the same list on every rank.
fn options_of<B: Bits>(c: &Shape<B>) -> Vec<Choice<B>> {
    let mut parts = Parts::new();
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<Choice<B>> = Vec::new();
    for after in c.afters() {
        Shape::split(after, c.width(), &mut parts);
        let mut keys: Vec<(u8, u8, B)> = parts
            .as_slice()
            .iter()
            .map(|p| (p.h, p.w, p.bits))
            .collect();
        keys.sort_unstable();
        if !seen.insert(keys.clone()) {
            continue;
        }
        let cost = parts
            .as_slice()
            .iter()
            .map(|p| u64::from(p.cells()).pow(2))
            .sum();
        out.push(Choice { after, cost });
    }
    out.sort_by_key(|o| o.cost);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::{Control, MemoryBudget};
    use crate::distributed::threads;
    use crate::error::LimitKind;
    use crate::game::families::reference_value;
    use crate::solve::Play;
    use proptest::prelude::*;

    /// The answer of `ranks` ranks (rank 0's), after checking that every rank has the same
    /// value and that only rank 0 has the winning moves.
    fn over_ranks(b: &Board, ranks: usize, store: Option<&dyn Archive>) -> (Solution, CramWork) {
        with_moves(b, ranks, store, true)
    }

    /// [`over_ranks`], with the winning moves if `moves`.
    fn with_moves(
        b: &Board,
        ranks: usize,
        store: Option<&dyn Archive>,
        moves: bool,
    ) -> (Solution, CramWork) {
        let mut all = threads::run(ranks, |comm| {
            let ctl = Control::none();
            let bsp = Bsp::new(comm, &ctl);
            solve(&bsp, b, moves, store).unwrap()
        });
        for (r, (s, _)) in all.iter().enumerate() {
            assert_eq!(s.value, all[0].0.value, "rank {r}: {b:?}");
        }
        all.swap_remove(0)
    }

    fn board_of(h: usize, w: usize, free: u64) -> Board {
        let mut b = Board::blocked(h, w).unwrap();
        for i in 0..h * w {
            b.set_cell(i / w, i % w, free >> i & 1 == 1);
        }
        b
    }

    /// Boards of up to 30 cells, about three cells in four free.
    fn board() -> impl Strategy<Value = Board> {
        (1usize..=5, 1usize..=6, any::<u64>(), any::<u64>())
            .prop_map(|(h, w, a, c)| board_of(h, w, a | c))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// One, two and three ranks find the value and the winning moves of the one-process
        /// engine, in its order.
        #[test]
        fn ranks_agree_with_one_process(b in board(), ranks in 1usize..=3) {
            let one = cram::solve_with(&b, Play::Normal, true, None, &Control::none()).unwrap();
            let (many, _) = over_ranks(&b, ranks, None);
            prop_assert_eq!(one.value, many.value, "{:?}", b);
            prop_assert_eq!(one.outcome, many.outcome);
            prop_assert_eq!(&one.winning_moves, &many.winning_moves, "{:?}", b);
            prop_assert_eq!(many.stats.threads, ranks as u32);
        }
    }

    /// Small boards against the definition (the mex over every option, with no pruning, no
    /// splitting and no table of this engine).
    #[test]
    fn small_boards_have_the_values_of_the_definition() {
        for (h, w) in [(2, 2), (2, 3), (3, 3), (2, 5), (3, 4), (4, 4)] {
            let b = Board::empty(h, w).unwrap();
            let want = reference_value(&Cram, &b, &mut HashMap::new()).unwrap();
            for ranks in 1..=3 {
                assert_eq!(over_ranks(&b, ranks, None).0.value, Some(want), "{h}x{w}");
            }
        }
    }

    /// Published values (Uiterwijk, Lemoine–Viennot), and the values of large regions crossing
    /// ranks: each rank receives what the others solved.
    #[test]
    fn published_boards_share_their_large_regions() {
        for (h, w, v) in [(3, 7, 1), (4, 6, 0), (3, 9, 1), (5, 5, 0), (4, 7, 3)] {
            let b = Board::empty(h, w).unwrap();
            let (s, work) = over_ranks(&b, 2, None);
            assert_eq!(s.value, Some(v), "{h}x{w}");
            if h * w >= 30 && (h * w) % 2 == 1 {
                assert!(work.received > 0, "{h}x{w}: {work:?}");
            }
        }
    }

    /// An archive in memory.
    #[derive(Default)]
    struct Memo(Mutex<HashMap<Vec<u8>, u64>>);

    impl Archive for Memo {
        fn get(&self, key: &[u8]) -> Option<u64> {
            lock(&self.0).get(key).copied()
        }
        fn put(&self, key: &[u8], value: u64) {
            lock(&self.0).insert(key.to_vec(), value);
        }
    }

    /// Rank 0's store gets the regions every rank solved, and a second run reads the board's
    /// value from it without a search.
    #[test]
    fn the_store_of_rank_0_keeps_every_ranks_regions() {
        let b = Board::empty(3, 9).unwrap();
        let memo = Memo::default();
        let (first, _) = over_ranks(&b, 2, Some(&memo));
        let kept = lock(&memo.0).len();
        let (alone, _) = over_ranks(&b, 1, Some(&Memo::default()));
        assert!(kept > 0);
        assert_eq!(first.value, alone.value);
        let (again, work) = with_moves(&b, 2, Some(&memo), false);
        assert_eq!(again.value, first.value);
        assert_eq!((again.stats.positions, work.rounds), (0, 0));
    }

    /// The values kept for other ranks stop at the share of the budget: the rest are dropped,
    /// never an error.
    #[test]
    fn the_shared_values_stop_at_their_share() {
        let shared = Exchanged {
            known: Mutex::new(HashMap::new()),
            fresh: Mutex::new(Vec::new()),
            store: None,
            cap: 2,
        };
        for i in 0..5u8 {
            let mut key = [0u8; 18];
            key[2] = i;
            shared.put(&key, u64::from(i));
        }
        assert_eq!(lock(&shared.fresh).len(), 2);
    }

    /// A budget too small for a rank's table stops every rank with the memory limit.
    #[test]
    fn a_small_budget_stops_every_rank() {
        let b = Board::empty(4, 5).unwrap();
        let all = threads::run(2, |comm| {
            let ctl = Control::none().with_memory(MemoryBudget::new(1 << 10));
            let bsp = Bsp::new(comm, &ctl);
            solve(&bsp, &b, false, None).map(|(s, _)| s.value)
        });
        for r in all {
            assert!(
                matches!(r, Err(Error::Limit(ref l)) if l.kind == LimitKind::Memory),
                "{r:?}"
            );
        }
    }
}
