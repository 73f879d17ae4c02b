//! Both cores on one board: two engines search the board's regions at once and share the values
//! of the regions they solve ([`super::solve_with_two_engines`]).
//!
//! Each engine has its own transposition table (half the bytes one engine would have) and both
//! read and write one table of values shared between them ([`Shared`], regions of at least
//! [`SHARED_MIN_CELLS`] cells, in shards behind locks). The first engine asks the options of the
//! board's regions in its usual order (easiest first); the second asks them in the opposite
//! order, so that it solves first the regions the first engine reaches last, and the first
//! finds them in the shared table when it gets there. Whichever finishes first gives the value
//! and stops the other.
//!
//! *Why the answer does not depend on the threads.* Each engine computes the value of the same
//! position, exactly; the order of the options and the values read from the shared table change
//! which positions are searched, not the value (a value in the shared table was computed
//! exactly by one of the engines, and the table holds values only). So the two agree, and the
//! value returned is the one of the one-thread engine. If both finish, their values are
//! compared; a difference would be an internal error.

use super::{
    Archive, Bits, CramEngine, Result, Setup, Shape, Solution, ARCHIVE_MIN_CELLS, STACK_BYTES,
};
use crate::control::Control;
use crate::error::Error;
use crate::game::hash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The fewest cells of a region whose value the two engines share: smaller regions are
/// searched again faster than a lock is taken.
pub const SHARED_MIN_CELLS: u32 = 12;

/// The fewest free cells of a board that two engines search: below, one is as fast.
pub const PARALLEL_MIN_CELLS: u32 = 30;

/// Shards of the shared table, each behind its own lock.
const SHARDS: usize = 64;

/// Bytes counted for one entry of the shared table (key, value, the map's own slot and spare
/// capacity).
const ENTRY_BYTES: u64 = 64;

/// The message of an engine stopped because the other one finished.
const SUPERSEDED: &str = "the other search finished first";

/// The values shared by the two engines, in front of the caller's archive (if any): a value not
/// found here is asked of the archive, and every value put here goes to the archive too when
/// its region is large enough for it.
pub(super) struct Shared<'a> {
    shards: Vec<Mutex<FxHashMap<[u8; 18], u8>>>,
    len: AtomicUsize,
    cap: usize,
    below: Option<&'a dyn Archive>,
}

/// The cells of a region from its archive key (see [`super::archive_key`]).
fn key_cells(k: &[u8; 18]) -> u32 {
    k[2..].iter().map(|b| b.count_ones()).sum()
}

impl<'a> Shared<'a> {
    /// A shared table of at most `cap` entries, in front of `below`.
    pub(super) fn new(cap: usize, below: Option<&'a dyn Archive>) -> Shared<'a> {
        Shared {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(FxHashMap::default()))
                .collect(),
            len: AtomicUsize::new(0),
            cap,
            below,
        }
    }

    fn shard(&self, k: &[u8; 18]) -> &Mutex<FxHashMap<[u8; 18], u8>> {
        let lo = u64::from_le_bytes(k[2..10].try_into().expect("8 bytes"));
        let hi = u64::from_le_bytes(k[10..18].try_into().expect("8 bytes"));
        let h = (lo ^ hi.rotate_left(17) ^ u64::from(k[1])).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(h >> 58) as usize % SHARDS]
    }

    fn insert(&self, k: [u8; 18], v: u8) {
        if self.len.load(Ordering::Relaxed) >= self.cap {
            return;
        }
        let mut m = self.shard(&k).lock().unwrap_or_else(|e| e.into_inner());
        if m.insert(k, v).is_none() {
            self.len.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Archive for Shared<'_> {
    fn get(&self, key: &[u8]) -> Option<u64> {
        let k: [u8; 18] = key.try_into().ok()?;
        let found = self
            .shard(&k)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&k)
            .copied();
        if let Some(v) = found {
            return Some(u64::from(v));
        }
        let below = self.below.filter(|_| key_cells(&k) >= ARCHIVE_MIN_CELLS)?;
        let v = below.get(key)?;
        self.insert(k, u8::try_from(v).ok()?);
        Some(v)
    }

    fn put(&self, key: &[u8], value: u64) {
        let Ok(k) = <[u8; 18]>::try_from(key) else {
            return;
        };
        if let Ok(v) = u8::try_from(value) {
            self.insert(k, v);
        }
        if let Some(b) = self.below.filter(|_| key_cells(&k) >= ARCHIVE_MIN_CELLS) {
            b.put(key, value);
        }
    }

    fn min_cells(&self) -> u32 {
        SHARED_MIN_CELLS
    }
}

/// Whether two engines should search `shape`: the `parallel` feature, two threads or more in
/// rayon's pool, and a board of [`PARALLEL_MIN_CELLS`] free cells or more.
pub(super) fn pays<B: Bits>(shape: &Shape<B>) -> bool {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads() >= 2 && shape.cells() >= PARALLEL_MIN_CELLS
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = shape;
        false
    }
}

/// [`super::solve_in`] with two engines (see the module documentation).
pub(super) fn solve_in<B: Bits>(shape: &Shape<B>, setup: Setup, ctl: &Control) -> Result<Solution> {
    let start = Instant::now();
    let shared_bytes = (setup.table / 4).max(ENTRY_BYTES);
    let _shared_reservation = ctl.reserve(shared_bytes, "the values the two searches share")?;
    let shared = Shared::new((shared_bytes / ENTRY_BYTES) as usize, setup.archive);
    let stop = AtomicBool::new(false);
    let half = setup.table / 2;
    let (layout, shared) = (setup.layout, Some(&shared as &dyn Archive));
    let mut main = CramEngine::<B>::with_entries(ctl, half, layout)?.with_archive(shared);
    let mut helper = CramEngine::<B>::with_entries(ctl, half, layout)?.with_archive(shared);
    main.stop = Some(&stop);
    helper.stop = Some(&stop);
    helper.reverse_root = true;
    let (mine, theirs) = std::thread::scope(|scope| {
        let h = std::thread::Builder::new()
            .name("grundy-cram-2".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let r = helper.value(shape);
                stop.store(true, Ordering::Relaxed);
                r
            })
            .map_err(|e| Error::Internal(format!("cannot start the second search: {e}")))?;
        let mine = main.value(shape);
        stop.store(true, Ordering::Relaxed);
        let theirs = h
            .join()
            .map_err(|_| Error::Internal("the second search failed".into()))?;
        Ok::<_, Error>((mine, theirs))
    })?;
    let is_superseded = |e: &Error| matches!(e, Error::Internal(m) if m == SUPERSEDED);
    let v = match (mine, theirs) {
        (Ok(a), Ok(b)) if a != b => {
            return Err(Error::Internal(format!(
                "the two searches disagree: {a} and {b}"
            )))
        }
        (Ok(a), _) | (_, Ok(a)) => a,
        (Err(e), Err(f)) => return Err(if is_superseded(&e) { f } else { e }),
    };
    stop.store(false, Ordering::Relaxed);
    let winning_moves = super::winning_moves(&mut main, setup.board, setup.moves, v)?;
    let (a, b) = (main.stats(), helper.stats());
    let mut stats = a;
    stats.positions += b.positions;
    stats.lookups += b.lookups;
    stats.hits += b.hits;
    stats.table_bytes += b.table_bytes;
    Ok(super::solution(v, winning_moves, stats, start))
}

/// The error an engine returns when `stop` was raised.
pub(super) fn superseded() -> Error {
    Error::Internal(SUPERSEDED.into())
}
