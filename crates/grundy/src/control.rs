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
//!   `Err(Error::Cancelled)` and the engine returns that error at once. A cancelled computation
//!   leaves no partial result: the engines build their answers in buffers of their own and hand
//!   nothing back but the error.
//! - Nothing panics or unwinds to stop a computation: cancellation is an ordinary error value.
//!
//! A token is shared: clones see the same flag, so another thread (a signal handler, a server
//! watching the clock) cancels a computation by cancelling its own clone.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
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

/// A progress callback: called with the number of items done so far.
pub type ProgressFn<'a> = &'a (dyn Fn(u64) + Sync);

/// The handle every long computation takes: progress callback, cancel token, deadline. See the
/// module documentation for the contract. Shared by reference (`&Control`), also across the
/// threads of a parallel engine.
#[derive(Debug, Default)]
pub struct Control<'a> {
    progress: Option<Progress<'a>>,
    token: CancelToken,
    deadline: Option<Instant>,
    ticks: AtomicU32,
}

/// A progress callback with a `Debug` implementation (callbacks have none).
#[derive(Clone, Copy)]
struct Progress<'a>(ProgressFn<'a>);

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
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
        self.token.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Reports `done` items to the progress callback, then returns `Err(Error::Cancelled)` if
    /// the computation should stop. Engines call it every few thousand steps.
    #[inline]
    pub fn check(&self, done: u64) -> Result<()> {
        if let Some(Progress(f)) = self.progress {
            f(done);
        }
        self.stop_check()
    }

    /// Returns `Err(Error::Cancelled)` if the computation should stop, without reporting
    /// progress.
    #[inline]
    pub fn stop_check(&self) -> Result<()> {
        if self.should_stop() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Counts one step of a search; once every [`TICKS_PER_CHECK`] steps, returns
    /// `Err(Error::Cancelled)` if the computation should stop. Cheap enough to call on every
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

#[cfg(test)]
mod tests;
