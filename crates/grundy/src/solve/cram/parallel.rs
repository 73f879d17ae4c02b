//! Every core on one board: engines on several threads search the same board with one shared
//! transposition table ([`super::solve_with_threads`]).
//!
//! *One engine first.* A board starts with one engine and its own table, which grows as it
//! fills. Most boards are solved before the table reaches [`SHARE_FROM_BYTES`]; a board that
//! is not is a long search, and only then do the other engines start: the first stops, its
//! table (everything it has learnt) is doubled and made shared ([`Table::into_shared`]), and
//! every engine, the first included, searches the board again from the start on that table,
//! which settles at once what the first had finished.
//!
//! *Rounds.* A shared table cannot grow while it is searched; when it is half full (and below
//! its largest size) the engines stop, it doubles, and a new round starts from the board again
//! on it, as above. A table of one engine grows the same way, by doubling when half full. A
//! search that saves its table periodically ([`super::TableFile::every`]) ends a round the same
//! way when it is time to save: the table is written while no engine searches it, and the next
//! round, on the same table, settles at once what the last one had finished.
//!
//! *Sharing.* Each engine reads what the others wrote (values and exclusions of regions) and
//! writes what it learns (the scheme chess programs call *lazy SMP*). Two things keep them
//! from doing the same work at the same time:
//! - they ask the options of the board's own regions in different orders: the first in its
//!   usual order (easiest first), the second in the opposite order, a third from the middle
//!   outwards, and so on, so that they start on different parts of the tree;
//! - an engine marks the regions of [`BUSY_MIN_CELLS`] cells or more that it is searching
//!   ([`Busy`]), and an engine about to ask an option with a marked part asks the position's
//!   other options first and that one last, when the other engine has most likely put its
//!   value in the table (the deferral of Weill's *ABDADA*).
//!
//! Whichever engine finishes first gives the value and stops the others.
//!
//! *Why the answer does not depend on the threads.* Each engine computes the value of the same
//! position exactly; the order of the options and what the table holds change which positions
//! are searched, not the value, because every entry of the shared table is a true statement
//! about its key (see the table's documentation on sharing: an entry is written and read whole,
//! and a lost entry is only missing). So the engines agree, and the value returned is the one
//! of the one-thread engine. If several finish, their values are compared; a difference would
//! be an internal error.

use super::{Bits, CramEngine, Result, Setup, Shape, Solution, Stats, WinningMove, STACK_BYTES};
use crate::control::Control;
use crate::error::Error;
use crate::solve::table::{Table, BUCKET_BYTES};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The fewest free cells of a board that several engines may search: smaller boards are
/// solved in milliseconds.
pub const PARALLEL_MIN_CELLS: u32 = 30;

/// The message of an engine stopped because another one finished.
const SUPERSEDED: &str = "the other search finished first";

/// The message of the first engine stopped so that its table is shared.
const TO_SHARE: &str = "the first search stopped to share its table";

/// The size of the first engine's table at which the other engines start: 256 MiB, reached
/// after some tens of seconds of search (a board solved sooner is solved by one engine, and
/// nothing is spent on starting others or zeroing the rest of the table).
pub const SHARE_FROM_BYTES: u64 = 256 << 20;

/// The regions being searched by some engine, so that another engine puts off asking for them
/// and does other work first (the deferral of the *ABDADA* scheme of parallel game-tree
/// search, J.-C. Weill, 1996): a fixed array of slots, each holding the hash of one region or 0. Marks are hints:
/// a region whose slot is taken by another is searched unmarked, and a mark seen says only
/// that the region is worth asking later, so the marks never change a value.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

/// Slots of [`Busy`].
const BUSY_SLOTS: usize = 1 << 14;

/// The fewest cells of a region marked busy: smaller ones are searched again faster than
/// another engine would get to them.
pub(super) const BUSY_MIN_CELLS: u32 = 16;

impl Busy {
    fn new() -> Busy {
        Busy {
            slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The slot and the mark (never 0) of the region of hash `h`.
    #[inline]
    fn slot(&self, h: u64) -> (&AtomicU64, u64) {
        (&self.slots[h as usize % BUSY_SLOTS], h | 1)
    }

    /// Marks the region of hash `h` as being searched; `false` if its slot was taken.
    #[inline]
    pub(super) fn mark(&self, h: u64) -> bool {
        let (slot, m) = self.slot(h);
        slot.compare_exchange(0, m, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Takes the mark of [`Busy::mark`] away.
    #[inline]
    pub(super) fn unmark(&self, h: u64) {
        let (slot, m) = self.slot(h);
        let _ = slot.compare_exchange(m, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether the region of hash `h` is marked.
    #[inline]
    pub(super) fn is_marked(&self, h: u64) -> bool {
        let (slot, m) = self.slot(h);
        slot.load(Ordering::Relaxed) == m
    }
}

/// How many engines may search `shape`: one a core (the `parallel` feature; at most
/// `RAYON_NUM_THREADS` when it is set to a number, as [`crate::control::thread_setting`] reads
/// it) when the board has [`PARALLEL_MIN_CELLS`]
/// free cells or more, else one.
pub(super) fn engines<B: Bits>(shape: &Shape<B>) -> usize {
    #[cfg(feature = "parallel")]
    {
        if shape.cells() < PARALLEL_MIN_CELLS {
            return 1;
        }
        // The cores, or fewer if `RAYON_NUM_THREADS` says so, read without starting rayon's
        // pool (the engines run on threads of their own, and a pool of the size a malformed
        // variable asks for is never built).
        // The cores are counted only when more than one thread may search: counting reads
        // the process's control groups, several system calls at the start of every run.
        let cores = || std::thread::available_parallelism().map_or(1, |n| n.get());
        match crate::control::thread_setting().ok().flatten() {
            Some(n) if n <= 1 => 1,
            Some(n) => n.min(cores()),
            None => cores(),
        }
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = shape;
        1
    }
}

/// The order in which engine `i` asks the options of the board's own regions: the usual one,
/// the opposite one, then rotations of the usual one by fractions of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RootOrder {
    /// Easiest first.
    Usual,
    /// Hardest first.
    Reversed,
    /// The usual order started at option `n · k / d` of `n` (and wrapped round).
    From { k: u32, d: u32 },
}

impl RootOrder {
    /// The order of engine `i` of `n`.
    fn of(i: usize, n: usize) -> RootOrder {
        match i {
            0 => RootOrder::Usual,
            1 => RootOrder::Reversed,
            _ => RootOrder::From {
                k: (i - 1) as u32,
                d: (n - 1).max(1) as u32,
            },
        }
    }

    /// Puts `options` in this order.
    pub(super) fn apply<T>(self, options: &mut [T]) {
        match self {
            RootOrder::Usual => {}
            RootOrder::Reversed => options.reverse(),
            RootOrder::From { k, d } => {
                let at = options.len() * k as usize / d as usize;
                options.rotate_left(at.min(options.len()));
            }
        }
    }
}

/// [`super::solve_in`] with one engine, then, if its table reaches [`SHARE_FROM_BYTES`], `n`
/// engines sharing that table (see the module documentation).
pub(super) fn solve_in<B: Bits>(
    shape: &Shape<B>,
    setup: Setup,
    n: usize,
    ctl: &Control,
) -> Result<Solution> {
    solve_sharing_from(shape, setup, n, SHARE_FROM_BYTES, ctl)
}

/// [`solve_in`] with the engines sharing the first one's table once it has `share_from` bytes.
pub(super) fn solve_sharing_from<B: Bits>(
    shape: &Shape<B>,
    setup: Setup,
    n: usize,
    share_from: u64,
    ctl: &Control,
) -> Result<Solution> {
    let start = Instant::now();
    let mut alone =
        CramEngine::<B>::with_entries(ctl, setup.table, setup.layout)?.with_archive(setup.archive);
    let share_buckets = (share_from / BUCKET_BYTES).max(1) as usize;
    alone.share_from = Some(share_buckets);
    // A saved table as large as a shared one is searched by every engine from the start.
    let resumed = setup.resume(&mut alone)? && alone.table.len() >= share_buckets;
    let before = if resumed {
        alone.stats()
    } else {
        match alone.value(shape) {
            Ok(v) => {
                alone.share_from = None;
                let r = super::winning_moves(&mut alone, setup.board, setup.moves, v);
                let winning_moves = setup.saving(&alone.table, r)?;
                return Ok(super::solution(v, winning_moves, alone.stats(), start));
            }
            Err(e) if is_to_share(&e) => alone.stats(),
            Err(e) => return setup.saving(&alone.table, Err(e)),
        }
    };
    let Some((mut table, _reservation)) = alone.into_table() else {
        return Err(Error::Internal(
            "the first search had no table of its own".into(),
        ));
    };
    let mut stats = Stats {
        threads: n as u32,
        ..before
    };
    let every = setup.checkpoint.and_then(|f| f.interval());
    let mut saved = Instant::now();
    let mut grow = true;
    // Rounds: the table doubles, the engines search it until one finishes or it is half full
    // (or, with a checkpoint file saved periodically, until it is time to save).
    loop {
        let buckets = if grow { 2 * table.len() } else { table.len() };
        // Boards of the wide layout are searched by one engine (`super::solve_in`).
        let shared = table
            .into_shared(buckets)
            .map_err(|_| Error::Internal("a table of wide entries cannot be shared".into()))?;
        let pause = every.map(|e| e.saturating_sub(saved.elapsed()).max(MIN_PAUSE));
        match round(shape, setup, n, &shared, pause, ctl, &mut stats) {
            Ok(RoundEnd::Stopped { full, pause }) => {
                if pause {
                    if let Some(f) = setup.checkpoint {
                        f.save(&shared);
                    }
                    saved = Instant::now();
                }
                grow = full;
                table = shared;
            }
            // An answer or an interruption: the table is saved if asked.
            Ok(RoundEnd::Answer(v, winning_moves)) => {
                setup.saving(&shared, Ok(()))?;
                return Ok(super::solution(v, winning_moves, stats, start));
            }
            Err(e) => return setup.saving(&shared, Err(e)),
        }
    }
}

/// The shortest round before a periodic save of the table, so that every round searches.
const MIN_PAUSE: Duration = Duration::from_millis(10);

/// How a [`round`] ended.
enum RoundEnd {
    /// With the value and the winning moves.
    Answer(u8, Vec<WinningMove>),
    /// With no answer: the table is half full (`full`), or it was time to save it (`pause`).
    Stopped { full: bool, pause: bool },
}

/// One round of `n` engines on the shared `table`: the value and winning moves, or a stop
/// because the table is half full (see [`Table::wants_to_grow`]) or because `pause` (if any)
/// has passed; the counts of the engines are added to `stats`.
fn round<B: Bits>(
    shape: &Shape<B>,
    setup: Setup,
    n: usize,
    table: &Table,
    pause: Option<Duration>,
    ctl: &Control,
    stats: &mut Stats,
) -> Result<RoundEnd> {
    let stop = AtomicBool::new(false);
    let paused = AtomicBool::new(false);
    let busy = Busy::new();
    let notes = RootNotes::new(n);
    let mut engines = (0..n)
        .map(|i| {
            let mut e = CramEngine::<B>::on_shared(ctl, table)?.with_archive(setup.archive);
            e.stop = Some(&stop);
            e.busy = Some(&busy);
            e.root_notes = Some((&notes, i));
            e.root_order = RootOrder::of(i, n);
            Ok(e)
        })
        .collect::<Result<Vec<_>>>()?;
    let (first, others) = engines.split_first_mut().expect("one engine at least");
    let values = std::thread::scope(|scope| {
        // The timer of `pause`: it stops the engines unless the round ends first (the sender
        // is dropped).
        let (ended, end) = mpsc::channel::<()>();
        if let Some(p) = pause {
            let (stop, paused) = (&stop, &paused);
            std::thread::Builder::new()
                .name("grundy-cram-timer".into())
                .spawn_scoped(scope, move || {
                    if let Err(RecvTimeoutError::Timeout) = end.recv_timeout(p) {
                        paused.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                    }
                })
                .map_err(|e| Error::Internal(format!("cannot start the timer: {e}")))?;
        }
        let handles = others
            .iter_mut()
            .enumerate()
            .map(|(i, e)| {
                std::thread::Builder::new()
                    .name(format!("grundy-cram-{}", i + 2))
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let r = e.value(shape);
                        stop.store(true, Ordering::Relaxed);
                        r
                    })
            })
            .collect::<Vec<_>>();
        let mut values = vec![first.value(shape)];
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            let h = h.map_err(|e| Error::Internal(format!("cannot start a search: {e}")))?;
            values.push(
                h.join()
                    .map_err(|_| Error::Internal("a search failed".into()))?,
            );
        }
        drop(ended);
        Ok::<_, Error>(values)
    })?;
    for e in engines.iter() {
        add_counts(stats, &e.stats());
    }
    let mut value = None;
    let mut failure = None;
    let mut full = false;
    for r in values {
        match r {
            Ok(v) if value.is_some_and(|u| u != v) => {
                return Err(Error::Internal(format!(
                    "the searches disagree: {} and {v}",
                    value.unwrap_or(v)
                )))
            }
            Ok(v) => value = Some(v),
            Err(e) if is_superseded(&e) => {}
            Err(e) if is_to_share(&e) => full = true,
            Err(e) => failure = failure.or(Some(e)),
        }
    }
    let pause = paused.load(Ordering::Relaxed);
    let v = match (value, failure) {
        (Some(v), _) => v,
        (None, Some(e)) => return Err(e),
        (None, None) if full || pause => return Ok(RoundEnd::Stopped { full, pause }),
        (None, None) => return Err(superseded()),
    };
    // The winning moves by the first engine, alone on the table (which may grow no more).
    let first = &mut engines[0];
    first.stop = None;
    first.busy = None;
    first.root_notes = None;
    let winning_moves = super::winning_moves(first, setup.board, setup.moves, v)?;
    Ok(RoundEnd::Answer(v, winning_moves))
}

/// Adds the positions, lookups and hits of `more` to `stats`.
fn add_counts(stats: &mut Stats, more: &Stats) {
    stats.positions += more.positions;
    stats.lookups += more.lookups;
    stats.hits += more.hits;
}

/// Where each engine of a round stands at the board's regions, for the notes of the search
/// ([`Control::note`]): each engine asks the options of a region, in its own order, whether one
/// has the value `k`, for `k = 0, 1, …`, and records its region, `k`, the options it has asked
/// and the options left. A note then gives the options asked by each engine at the largest
/// `k`: with the engines in opposite orders, their sum is how far the region's question has
/// gone (once it passes the options left, what is left is answered from the table).
pub(super) struct RootNotes {
    /// One slot an engine: 0 for none yet, else region + 1 (8 bits), `k` (8 bits), asked
    /// (24 bits), options (24 bits).
    slots: Vec<AtomicU64>,
    /// One slot an engine: where the searches under the option it is asking stand
    /// ([`Inner`], packed: the number of levels in 2 bits, then 20 bits a level).
    inner: Vec<AtomicU64>,
}

impl RootNotes {
    pub(super) fn new(engines: usize) -> RootNotes {
        RootNotes {
            slots: (0..engines).map(|_| AtomicU64::new(0)).collect(),
            inner: (0..engines).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records where `engine` stands.
    pub(super) fn record(&self, engine: usize, part: usize, k: u8, asked: usize, options: usize) {
        let field = |x: usize| x.min((1 << 24) - 1) as u64;
        let word = (part.min(254) as u64 + 1) << 56
            | u64::from(k) << 48
            | field(asked) << 24
            | field(options);
        if let Some(s) = self.slots.get(engine) {
            s.store(word, Ordering::Relaxed);
        }
    }

    /// Records where the searches under the option `engine` is asking stand.
    pub(super) fn record_inner(&self, engine: usize, inner: Inner) {
        if let Some(s) = self.inner.get(engine) {
            s.store(inner.pack(), Ordering::Relaxed);
        }
    }

    /// At region `part`: the largest `k` of the engines, the options each engine at that `k`
    /// has asked (in the engines' order) with where the search of the option it is asking
    /// stands, and the most options left among them.
    pub(super) fn furthest(&self, part: usize) -> Option<Furthest> {
        let at: Vec<(u8, usize, usize, Inner)> = self
            .slots
            .iter()
            .zip(&self.inner)
            .map(|(s, i)| (s.load(Ordering::Relaxed), i.load(Ordering::Relaxed)))
            .filter(|&(w, _)| w >> 56 == part.min(254) as u64 + 1)
            .map(|(w, i)| {
                let field = |shift: u32| (w >> shift & ((1 << 24) - 1)) as usize;
                ((w >> 48) as u8, field(24), field(0), Inner::unpack(i))
            })
            .collect();
        let k = at.iter().map(|a| a.0).max()?;
        let asked = at.iter().filter(|a| a.0 == k).map(|a| (a.1, a.3)).collect();
        let options = at.iter().filter(|a| a.0 == k).map(|a| a.2).max()?;
        Some((k, asked, options))
    }
}

/// The levels of search under the option an engine is asking that [`Inner`] follows.
pub(super) const INNER_LEVELS: usize = 3;

/// Where the searches under the option an engine is asking stand: for each level (the
/// option's own search, then the search of the option that one is asking, and so on), the
/// options asked and the options; no levels while nothing has said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Inner {
    levels: [(u16, u16); INNER_LEVELS],
    len: u8,
}

impl Inner {
    /// The largest count kept (ten bits, so that three levels fit one word).
    const MAX: usize = (1 << 10) - 1;

    /// Where the search at `level` stands, the levels below it dropped (their searches are
    /// over); a level past [`INNER_LEVELS`] is not kept.
    pub(super) fn set(&mut self, level: usize, asked: usize, options: usize) {
        if level >= INNER_LEVELS || level > self.len as usize {
            return;
        }
        self.levels[level] = (asked.min(Self::MAX) as u16, options.min(Self::MAX) as u16);
        self.len = level as u8 + 1;
    }

    /// The levels said, outermost first, as `(asked, options)`.
    pub(super) fn levels(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.levels[..self.len as usize]
            .iter()
            .map(|&(a, o)| (usize::from(a), usize::from(o)))
    }

    fn pack(&self) -> u64 {
        let mut w = u64::from(self.len);
        for (i, &(a, o)) in self.levels.iter().enumerate() {
            w |= (u64::from(a) << 10 | u64::from(o)) << (2 + 20 * i);
        }
        w
    }

    fn unpack(w: u64) -> Inner {
        let mut inner = Inner {
            len: (w & 3) as u8,
            ..Inner::default()
        };
        for (i, l) in inner.levels.iter_mut().enumerate() {
            let f = w >> (2 + 20 * i);
            *l = ((f >> 10 & 0x3ff) as u16, (f & 0x3ff) as u16);
        }
        inner
    }
}

/// The largest `k` of the engines at a region, the options each engine at that `k` has asked
/// with where the search of the option it is asking stands, and the most options left.
pub(super) type Furthest = (u8, Vec<(usize, Inner)>, usize);

/// The error an engine returns when `stop` was raised.
pub(super) fn superseded() -> Error {
    Error::Internal(SUPERSEDED.into())
}

fn is_superseded(e: &Error) -> bool {
    matches!(e, Error::Internal(m) if m == SUPERSEDED)
}

/// The error the first engine returns when its table has grown to be shared.
pub(super) fn to_share() -> Error {
    Error::Internal(TO_SHARE.into())
}

fn is_to_share(e: &Error) -> bool {
    matches!(e, Error::Internal(m) if m == TO_SHARE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mark is seen until it is taken away; a taken slot refuses another region's mark, and
    /// the other region is not seen as marked; taking away a mark one does not hold changes
    /// nothing.
    #[test]
    fn marks_are_seen_until_taken_away() {
        let busy = Busy::new();
        let (a, b) = (
            0x1234_5678_9abc_def0u64,
            0x1234_5678_9abc_def0u64 + BUSY_SLOTS as u64,
        );
        assert!(!busy.is_marked(a));
        assert!(busy.mark(a));
        assert!(busy.is_marked(a));
        // Same slot, another region.
        assert!(!busy.mark(b));
        assert!(!busy.is_marked(b));
        busy.unmark(b);
        assert!(busy.is_marked(a));
        busy.unmark(a);
        assert!(!busy.is_marked(a));
        assert!(busy.mark(b));
        assert!(busy.is_marked(b));
    }

    /// The orders of the engines: the usual one, the opposite, then rotations.
    #[test]
    fn root_orders() {
        let order = |i, n| {
            let mut v: Vec<u32> = (0..6).collect();
            RootOrder::of(i, n).apply(&mut v);
            v
        };
        assert_eq!(order(0, 3), [0, 1, 2, 3, 4, 5]);
        assert_eq!(order(1, 3), [5, 4, 3, 2, 1, 0]);
        assert_eq!(order(2, 3), [3, 4, 5, 0, 1, 2]);
        assert_eq!(order(3, 5), [3, 4, 5, 0, 1, 2]);
        assert_eq!(order(2, 5), [1, 2, 3, 4, 5, 0]);
        let mut none: [u8; 0] = [];
        RootOrder::of(4, 5).apply(&mut none);
    }
}
