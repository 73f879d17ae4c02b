//! Control of long computations: progress reports, cancellation and deadlines, through one
//! handle.
//!
//! Every engine that may run for long takes a [`Control`]: an optional progress callback, a
//! [`CancelToken`] and an optional deadline. A caller that needs none of them passes
//! [`Control::none()`].
//!
//! **The contract.**
//! - Engines call [`Control::check`] at their progress points, every few thousand steps of work
//!   (every 16384 values of a sequence, every few thousand vertices of a graph): it reports the
//!   number of items done to the callback, then asks whether to stop. Searches with no natural
//!   count call [`Control::tick`] once per step instead: it counts the steps and asks whether to
//!   stop only once every [`TICKS_PER_CHECK`] of them.
//! - Asking whether to stop costs one atomic load (the token); the clock is read only when a
//!   deadline is set, and only at those checks, never once per step.
//! - Once the token is cancelled or the deadline has passed, the next check returns
//!   `Err(Error::Cancelled(_))` and the engine returns that error at once. A cancelled computation
//!   leaves no partial result: the engines build their answers in buffers of their own and hand
//!   nothing back but the error.
//! - Nothing panics or unwinds to stop a computation: cancellation is an ordinary error value.
//!
//! - A long search may also say where it stands in words ([`Control::note`]: which value of
//!   the board it is asking about, how many of the board's options it has asked), for people
//!   watching a search of hours; the fronts print the last note beside the count. Notes are
//!   rare (a few per option of the board) and cost nothing without a callback.
//!
//! A token is shared: clones see the same flag, so another thread (a signal handler, a server
//! watching the clock) cancels a computation by cancelling its own clone.
//!
//! **Memory.** A [`Control`] also carries a [`MemoryBudget`]: a number of bytes shared by every
//! table and buffer that a computation grows with its input (memo tables, transposition tables,
//! sequences, the text of an input). Engines reserve bytes through [`Control::reserve`] *before*
//! they grow, and get [`Error::Limit`] of kind [`LimitKind::Memory`] when the budget would be
//! exceeded, so a computation stops at its stated limit instead of being killed by the operating
//! system. A [`Reservation`] gives its bytes back when it is dropped, so the budget of a long-lived
//! process (a server running one job after another) is not used up by finished work. Budgets are
//! accounted, not measured: each engine states what an entry of its tables costs.

use crate::error::{Error, LimitKind, Result};
pub mod alloc;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How many [`Control::tick`] calls pass between two checks of the token and the clock.
pub const TICKS_PER_CHECK: u32 = 1024;

/// A shared flag that asks computations to stop. Cheap to clone; every clone sees the same flag.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Asks every computation watching this token (or a clone) to stop. Cannot be undone.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called on this token or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The advice of the library's memory limit errors (a host replaces it with the setting that
/// raises its budget).
pub const LIBRARY_MEMORY_ADVICE: &str = "a larger memory budget";

/// A number of bytes that computations may hold, shared by clones (so that several computations,
/// or the threads of one, draw on one budget). [`MemoryBudget::unlimited`] never refuses.
#[derive(Clone, Debug)]
pub struct MemoryBudget {
    inner: Arc<alloc::Account>,
}

impl Default for MemoryBudget {
    fn default() -> Self {
        MemoryBudget::unlimited()
    }
}

impl MemoryBudget {
    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> MemoryBudget {
        MemoryBudget {
            inner: Arc::new(alloc::Account::new(limit)),
        }
    }

    /// A budget that never refuses (`u64::MAX` bytes).
    pub fn unlimited() -> MemoryBudget {
        MemoryBudget::new(u64::MAX)
    }

    /// The limit in bytes.
    pub fn limit(&self) -> u64 {
        self.inner.limit
    }

    /// The bytes reserved now, by every clone of this budget.
    pub fn used(&self) -> u64 {
        self.inner.reserved.load(Ordering::Relaxed)
    }

    /// The bytes that the threads charging this budget hold now, as the counting allocator
    /// measures them (0 where [`alloc::CountingAlloc`] is not the global allocator).
    pub fn held(&self) -> u64 {
        self.inner.held()
    }

    /// The most bytes the threads charging this budget held at once above its soft limit (see
    /// [`MemoryBudget::held`] and [`alloc::soft_limit`]); 0 while they never passed it.
    pub fn peak(&self) -> u64 {
        self.inner.peak()
    }

    /// Whether the bytes held have passed the soft limit ([`alloc::soft_limit`], the limit and a
    /// sixteenth) at some point: the computation must stop
    /// ([`Control::stop_check`] then returns the memory limit error of [`MemoryBudget::over`]).
    pub fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The memory limit error of a computation whose measured bytes passed the limit.
    pub fn over(&self) -> Error {
        let held = self.held().max(self.peak());
        Error::limit_with_amounts(
            LimitKind::Memory,
            format!(
                "the computation holds {}, above the memory budget of {}",
                format_bytes(held),
                format_bytes(self.limit())
            ),
            LIBRARY_MEMORY_ADVICE,
            held,
            self.limit(),
        )
    }

    /// Charges every allocation of the calling thread to this budget until the guard is
    /// dropped (with [`alloc::CountingAlloc`] as the global allocator). A host enters the
    /// budget of a job on the thread that runs it; engines that start threads of their own
    /// enter their caller's budget on them.
    pub fn enter(&self) -> alloc::Entered {
        alloc::enter(self)
    }

    /// Reserves `bytes` for `what` (a few words naming the table, e.g. "the misère search's
    /// table"), or returns the memory [`Error::Limit`] naming `what`, the bytes it needs and the
    /// limit. The bytes are given back when the [`Reservation`] is dropped.
    pub fn reserve(&self, bytes: u64, what: &str) -> Result<Reservation> {
        let mut r = Reservation {
            budget: self.clone(),
            bytes: 0,
        };
        r.grow(bytes, what)?;
        Ok(r)
    }

    /// Takes `bytes` from the budget if they fit (one compare-and-swap loop, never above the
    /// limit even when threads race).
    fn take(&self, bytes: u64, what: &str) -> Result<()> {
        let limit = self.limit();
        let mut used = self.used();
        loop {
            let new = used.saturating_add(bytes);
            if new > limit {
                return Err(Error::limit_with_amounts(
                    LimitKind::Memory,
                    format!(
                        "{what} needs {} more, above the memory budget of {} ({} in use)",
                        format_bytes(bytes),
                        format_bytes(limit),
                        format_bytes(used)
                    ),
                    LIBRARY_MEMORY_ADVICE,
                    new,
                    limit,
                ));
            }
            match self.inner.reserved.compare_exchange_weak(
                used,
                new,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(now) => used = now,
            }
        }
    }
}

/// Bytes held from a [`MemoryBudget`]; given back when dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: MemoryBudget,
    bytes: u64,
}

impl Reservation {
    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Holds `more` bytes in addition, for `what`, or returns the memory limit error (the bytes
    /// already held stay held).
    pub fn grow(&mut self, more: u64, what: &str) -> Result<()> {
        self.budget.take(more, what)?;
        self.bytes += more;
        Ok(())
    }

    /// Holds exactly `total` bytes: grows (which may fail) or gives back the difference.
    pub fn resize(&mut self, total: u64, what: &str) -> Result<()> {
        if total > self.bytes {
            self.grow(total - self.bytes, what)
        } else {
            self.budget
                .inner
                .reserved
                .fetch_sub(self.bytes - total, Ordering::Relaxed);
            self.bytes = total;
            Ok(())
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget
            .inner
            .reserved
            .fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// Why a computation watching `token` and `deadline` should stop now, if it should: the token
/// is looked at first (it reads no clock), then the deadline.
pub fn interruption(
    token: &CancelToken,
    deadline: Option<Instant>,
) -> Option<crate::error::Interruption> {
    use crate::error::Interruption;
    if token.is_cancelled() {
        Some(Interruption::Token)
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        Some(Interruption::Deadline)
    } else {
        None
    }
}

/// A byte count in the largest binary unit that keeps it at least 1 (`1.5 GiB`, `512 B`).
pub fn format_bytes(b: u64) -> String {
    Bytes(b).to_string()
}

/// A byte count displayed as [`format_bytes`] writes it, without allocating (for messages
/// written where allocating is not allowed, such as inside an allocator).
#[derive(Clone, Copy, Debug)]
pub struct Bytes(pub u64);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut v = self.0 as f64;
        let mut u = 0;
        while v >= 1024.0 && u + 1 < UNITS.len() {
            v /= 1024.0;
            u += 1;
        }
        if u == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{v:.1} {}", UNITS[u])
        }
    }
}

/// A progress callback: called with the number of items done so far.
pub type ProgressFn<'a> = &'a (dyn Fn(u64) + Sync);

/// A note callback: called with where a long search stands, in words ([`Control::note`]).
pub type NoteFn<'a> = &'a (dyn Fn(&str) + Sync);

/// The handle every long computation takes: progress callback, cancel token, deadline. See the
/// module documentation for the contract. Shared by reference (`&Control`), also across the
/// threads of a parallel engine.
#[derive(Debug, Default)]
pub struct Control<'a> {
    progress: Option<Progress<'a>>,
    notes: Option<Notes<'a>>,
    token: CancelToken,
    deadline: Option<Instant>,
    memory: MemoryBudget,
    ticks: AtomicU32,
    /// The items done so far by every thread sharing this handle ([`Control::advance`]).
    done: AtomicU64,
}

/// A progress callback with a `Debug` implementation (callbacks have none).
#[derive(Clone, Copy)]
struct Progress<'a>(ProgressFn<'a>);

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// A note callback with a `Debug` implementation.
#[derive(Clone, Copy)]
struct Notes<'a>(NoteFn<'a>);

impl std::fmt::Debug for Notes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notes")
    }
}

impl<'a> Control<'a> {
    /// No progress reports, no deadline, and a token nobody else holds: the computation runs to
    /// its end.
    pub fn none() -> Control<'static> {
        Control::default()
    }

    /// Reports progress to `f` (called with the number of items done so far).
    pub fn with_progress(mut self, f: ProgressFn<'a>) -> Control<'a> {
        self.progress = Some(Progress(f));
        self
    }

    /// Tells `f` where a long search stands, in words ([`Control::note`]).
    pub fn with_notes(mut self, f: NoteFn<'a>) -> Control<'a> {
        self.notes = Some(Notes(f));
        self
    }

    /// Whether notes are asked for (a callback was given with [`Control::with_notes`]).
    pub fn has_notes(&self) -> bool {
        self.notes.is_some()
    }

    /// Gives the note callback (if any) the text `text()` makes, e.g. "asking whether the
    /// board's value is 3: 11 of 26 options asked"; `text` is not called without a callback.
    pub fn note(&self, text: impl FnOnce() -> String) {
        if let Some(Notes(f)) = self.notes {
            f(&text());
        }
    }

    /// Stops when `token` (or a clone of it) is cancelled.
    pub fn with_token(mut self, token: CancelToken) -> Control<'a> {
        self.token = token;
        self
    }

    /// Stops once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: Instant) -> Control<'a> {
        self.deadline = Some(deadline);
        self
    }

    /// Draws the memory of the computation from `budget` (unlimited by default).
    pub fn with_memory(mut self, budget: MemoryBudget) -> Control<'a> {
        self.memory = budget;
        self
    }

    /// The memory budget of the computation.
    pub fn memory(&self) -> &MemoryBudget {
        &self.memory
    }

    /// Reserves `bytes` of the memory budget for `what` (see [`MemoryBudget::reserve`]).
    pub fn reserve(&self, bytes: u64, what: &str) -> Result<Reservation> {
        self.memory.reserve(bytes, what)
    }

    /// The token this handle watches (cancel a clone of it to stop the computation).
    pub fn token(&self) -> &CancelToken {
        &self.token
    }

    /// The deadline, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Whether the computation should stop now: the token is cancelled or the deadline has
    /// passed (reads the clock when a deadline is set).
    pub fn should_stop(&self) -> bool {
        self.interruption().is_some()
    }

    /// Why the computation should stop now, if it should: the token is looked at first (it
    /// reads no clock), then the deadline.
    pub fn interruption(&self) -> Option<crate::error::Interruption> {
        interruption(&self.token, self.deadline)
    }

    /// Reports `done` items to the progress callback, then returns `Err(Error::Cancelled(_))` if
    /// the computation should stop. Engines call it every few thousand steps.
    #[inline]
    pub fn check(&self, done: u64) -> Result<()> {
        if let Some(Progress(f)) = self.progress {
            f(done);
        }
        self.stop_check()
    }

    /// Adds `n` items to those done so far by every thread sharing this handle, reports their
    /// total to the progress callback, then returns as [`Control::check`]. For engines whose
    /// threads each count their own items (several searches sharing one table), so that the
    /// callback sees one count that only grows.
    #[inline]
    pub fn advance(&self, n: u64) -> Result<()> {
        let done = self.done.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        self.check(done)
    }

    /// Returns `Err(Error::Cancelled(_))` if the computation should stop, or the memory limit
    /// error once the bytes its threads hold have passed the budget ([`MemoryBudget::is_over`]),
    /// without reporting progress.
    #[inline]
    pub fn stop_check(&self) -> Result<()> {
        if let Some(why) = self.interruption() {
            Err(Error::Cancelled(why))
        } else if self.memory.is_over() {
            Err(self.memory.over())
        } else {
            Ok(())
        }
    }

    /// Counts one step of a search; once every [`TICKS_PER_CHECK`] steps, returns
    /// `Err(Error::Cancelled(_))` if the computation should stop. Cheap enough to call on every
    /// step (one relaxed atomic increment).
    #[inline]
    pub fn tick(&self) -> Result<()> {
        let t = self.ticks.fetch_add(1, Ordering::Relaxed);
        if t % TICKS_PER_CHECK == TICKS_PER_CHECK - 1 {
            self.stop_check()
        } else {
            Ok(())
        }
    }
}

/// The most threads a run may ask for through `RAYON_NUM_THREADS`: far more than any machine
/// has cores, few enough that starting them takes milliseconds.
pub const MAX_THREADS: usize = 1024;

/// The number of threads the environment asks for: `Ok(None)` when `RAYON_NUM_THREADS` is
/// unset, empty or `0` (rayon's default: one a core), `Ok(Some(n))` for a whole number `n` in
/// `1..=`[`MAX_THREADS`], and [`Error::Invalid`] for anything else.
///
/// Rayon itself ignores a value it cannot read and starts as many threads as a number asks
/// for, however large, so `RAYON_NUM_THREADS=99999999999` would have it spawn threads until
/// the system refuses; fronts call this once, before any parallel work, and refuse such a value
/// instead. The engines that count their own threads (the Cram engines) read it here too.
pub fn thread_setting() -> Result<Option<usize>> {
    match std::env::var_os("RAYON_NUM_THREADS") {
        None => Ok(None),
        Some(v) => parse_threads(&v.to_string_lossy()),
    }
}

/// The value of `RAYON_NUM_THREADS` read as [`thread_setting`] says.
fn parse_threads(v: &str) -> Result<Option<usize>> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(None);
    }
    match v.parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(n) if n <= MAX_THREADS => Ok(Some(n)),
        _ => Err(Error::Invalid(format!(
            "RAYON_NUM_THREADS: expected a number of threads from 0 (one a core) to \
             {MAX_THREADS}, found '{v}'"
        ))),
    }
}

#[cfg(test)]
mod tests;
