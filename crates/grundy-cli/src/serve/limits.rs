//! The playground's limits, and how heavy work is run under them.
//!
//! Every request is checked against [`Limits`] before any work starts (sizes of the body, of the
//! heaps, of sequences, graphs and scripts). Work that may still take long runs on Tokio's
//! blocking pool through [`Heavy::run`]: at most [`Limits::workers`] jobs at once (a semaphore;
//! a request that cannot get a permit within [`Limits::busy_wait`] is answered 503), each with a
//! deadline of [`Limits::deadline`].
//!
//! **Cancellation.** The library's progress callbacks are `Fn(u64)` and cannot ask the engine
//! to stop, so the callback given by [`Deadline::progress`] *unwinds*: once the deadline has
//! passed it panics with the private payload [`Cancelled`], which [`Heavy::run`] catches with
//! `catch_unwind` and turns into a 503. Nothing of the computation survives it (every job builds
//! its own rule and buffers), so no state is left half-updated. Scripts are stopped by their own
//! deadline ([`grundy::heap::script::ScriptRule::compile_limited`]). Work that calls no progress
//! callback (a hint, a graph) is bounded by the size limits; should it still outlive the
//! deadline, the request is answered 503 at the deadline and the job's permit is released only
//! when its thread ends, so the number of running jobs never exceeds the limit.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

use super::api::ApiError;

/// What one request may ask for. The README's "Limits" table lists the defaults.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of a request body.
    pub body_bytes: usize,
    /// Heaps in a position.
    pub heaps: usize,
    /// The largest heap.
    pub heap_size: u64,
    /// Moves of one heap (the rule's bound on its options): hints, moves and move lists
    /// enumerate them, and a list is sent to the page. Scripts are bounded by their deadline.
    pub moves_per_heap: u128,
    /// The largest heap of a misère game other than Nim: those are decided by a search over
    /// positions (at most 200 000 of them, then a limit error), which costs seconds beyond this.
    pub misere_heap_size: u64,
    /// Values of a sequence (`/api/seq` `n`).
    pub seq_n: u64,
    /// Values `/api/analyze` computes at most while looking for a period.
    pub analyze_max: u64,
    /// Values of a take-and-break game whose moves may leave three heaps (hexadecimal digits
    /// 8-F), for sequences, analyses and heaps alike: such values cost about n² word
    /// operations and the engine reports progress only every 16384 values.
    pub three_heap_values: u64,
    /// Vertices of a graph.
    pub graph_vertices: usize,
    /// Arcs of a graph.
    pub graph_arcs: usize,
    /// Bytes of a script.
    pub script_bytes: usize,
    /// Operations of one call of a script's `options`.
    pub script_operations: u64,
    /// Heavy jobs running at once.
    pub workers: usize,
    /// How long a request waits for a free worker before 503.
    pub busy_wait: Duration,
    /// How long a heavy job may run before 503.
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 64 * 1024,
            heaps: 32,
            heap_size: 10_000,
            moves_per_heap: 50_000,
            misere_heap_size: 200,
            seq_n: 100_000,
            analyze_max: 100_000,
            three_heap_values: 5_000,
            graph_vertices: 500,
            graph_arcs: 5_000,
            script_bytes: 16 * 1024,
            script_operations: 1_000_000,
            workers: 2,
            busy_wait: Duration::from_secs(2),
            deadline: Duration::from_secs(10),
        }
    }
}

/// The panic payload of a cancelled job (private: no other panic carries it).
pub struct Cancelled;

/// The deadline of one job.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(pub Instant);

impl Deadline {
    /// Whether the deadline has passed.
    pub fn passed(&self) -> bool {
        Instant::now() >= self.0
    }

    /// A progress callback for the library that cancels the job once the deadline has passed
    /// (by unwinding with [`Cancelled`], see the module documentation).
    pub fn progress(self) -> impl Fn(u64) + Sync {
        move |_done| {
            if self.passed() {
                std::panic::panic_any(Cancelled);
            }
        }
    }
}

/// Installs, once, a panic hook that stays silent for [`Cancelled`] (an expected way for a job
/// to end) and reports every other panic as before.
fn quiet_cancellations() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<Cancelled>() {
                previous(info);
            }
        }));
    });
}

/// The pool of heavy jobs: a semaphore of [`Limits::workers`] permits.
#[derive(Debug)]
pub struct Heavy {
    permits: Arc<Semaphore>,
    busy_wait: Duration,
    deadline: Duration,
}

impl Heavy {
    /// A pool for `limits`.
    pub fn new(limits: &Limits) -> Heavy {
        quiet_cancellations();
        Heavy {
            permits: Arc::new(Semaphore::new(limits.workers)),
            busy_wait: limits.busy_wait,
            deadline: limits.deadline,
        }
    }

    /// Runs `job` on the blocking pool with a deadline: 503 when no worker is free within the
    /// busy wait or when the deadline passes (by cancellation or by the clock), 500 when the job
    /// panics, otherwise the job's own answer.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Deadline) -> Result<T, ApiError> + Send + 'static,
    {
        let permit = tokio::time::timeout(self.busy_wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::busy(
                    "the server is busy: every worker is computing; try again in a moment",
                )
            })?
            .map_err(|_| ApiError::internal("the worker pool is closed"))?;
        let deadline = Deadline(Instant::now() + self.deadline);
        let seconds = self.deadline.as_secs_f64();
        let timeout = || ApiError::timeout(seconds);
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit; // released when the job's thread is done
            catch_unwind(AssertUnwindSafe(|| job(deadline))).map_err(|payload| {
                if payload.is::<Cancelled>() {
                    ApiError::timeout(seconds)
                } else {
                    ApiError::internal("the computation failed unexpectedly")
                }
            })
        });
        // A little grace beyond the deadline for a job to notice it and return.
        let outcome = tokio::time::timeout(self.deadline + Duration::from_millis(500), handle)
            .await
            .map_err(|_| timeout())?
            .map_err(|_| ApiError::internal("the computation's thread failed"))?;
        match outcome? {
            // A job that gave up with an error because its deadline passed (a script stopped by
            // its own deadline) timed out.
            Err(_) if deadline.passed() => Err(timeout()),
            other => other,
        }
    }
}
