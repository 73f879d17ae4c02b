//! The playground's limits, and how heavy work is run under them.
//!
//! Every request is checked against [`Limits`] before any work starts (sizes of the body, of the
//! heaps, of sequences, graphs and scripts). Work that may still take long runs on Tokio's
//! blocking pool through [`Heavy::run`]: at most [`Limits::workers`] jobs at once (a semaphore;
//! a request that cannot get a permit within [`Limits::busy_wait`] is answered 503), each with a
//! deadline of [`Limits::deadline`].
//!
//! **Cancellation.** Every job gets a [`Control`] holding a cancel token and the job's deadline;
//! the engines check it every few thousand steps (sequence engines, analyses, the misère search
//! of hints and moves, graph solvers, scripts between operations) and return
//! `Err(Error::Cancelled)` once the deadline has passed, which [`Heavy::run`] answers with a
//! 503. Nothing panics or unwinds to stop a job, and nothing of it survives (every job builds its
//! own rule and buffers). The token is also cancelled when the request goes away (its future is
//! dropped) or is answered, so a job nobody waits for stops at its next check. The job's permit
//! is released only when its thread ends, so the number of running jobs never exceeds the
//! limit; a job that panics (a bug) is answered 500 and frees its worker like any other.

use grundy::control::{CancelToken, Control};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

use super::api::ApiError;

/// What one request may ask for. The limits table of docs/playground.md lists the defaults.
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

/// Cancels a token when dropped: held by [`Heavy::run`] while it waits for its job, so a job
/// whose request is answered or dropped is told to stop.
struct CancelOnDrop(CancelToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
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
        Heavy {
            permits: Arc::new(Semaphore::new(limits.workers)),
            busy_wait: limits.busy_wait,
            deadline: limits.deadline,
        }
    }

    /// Runs `job` on the blocking pool under a [`Control`] with the pool's deadline: 503 when
    /// no worker is free within the busy wait or when the job is stopped at its deadline, 500
    /// when the job panics, otherwise the job's own answer.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Control<'static>) -> Result<T, ApiError> + Send + 'static,
    {
        let permit = tokio::time::timeout(self.busy_wait, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| {
                ApiError::busy(
                    "the server is busy: every worker is computing; try again in a moment",
                )
            })?
            .map_err(|_| ApiError::internal("the worker pool is closed"))?;
        let token = CancelToken::new();
        let _stop = CancelOnDrop(token.clone());
        let ctl = Control::none()
            .with_token(token)
            .with_deadline(Instant::now() + self.deadline);
        let seconds = self.deadline.as_secs_f64();
        let timeout = || ApiError::timeout(seconds);
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit; // released when the job's thread is done
            let answer = job(&ctl);
            (answer, ctl.should_stop())
        });
        // A little grace beyond the deadline for a job to reach its next check and return.
        let (answer, stopped) =
            tokio::time::timeout(self.deadline + Duration::from_millis(500), handle)
                .await
                .map_err(|_| timeout())?
                .map_err(|_| ApiError::internal("the computation failed unexpectedly"))?;
        match answer {
            // Any failure of a job stopped at its deadline (`Error::Cancelled`, or an error
            // a script raised when it was stopped) is the deadline's.
            Err(_) if stopped => Err(timeout()),
            other => other,
        }
    }
}
