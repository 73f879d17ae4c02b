//! The playground's limits, and the two lanes its jobs run in.
//!
//! Every request is checked against [`Limits`] before any work starts (sizes of the body, of the
//! game notation, of the heaps, of sequences, graphs and scripts), and given a **cost
//! estimate**: an upper bound on the options its engines may visit (see `api.rs`). Cheap
//! requests (at most [`Limits::fast_operations`]) run in the **fast lane**, everything else in
//! the **heavy lane**, so a cheap hint never waits behind a long analysis:
//!
//! - fast lane: at most [`Limits::fast_workers`] jobs at once, each with the short deadline
//!   [`Limits::fast_deadline`];
//! - heavy lane: at most [`Limits::workers`] jobs at once, each on a thread of its own running
//!   at a lower scheduling priority (nice 10 on Linux, so the fast lane and the connections get
//!   the processor first), with the deadline [`Limits::deadline`]. When a heavy job ends, its
//!   thread hands the freed memory back to the system (`malloc_trim(0)` with glibc, which
//!   otherwise keeps freed small blocks of every thread's arena resident).
//!
//! A request that cannot get a place in its lane within [`Limits::busy_wait`] is answered 503.
//! Every job runs on a thread of its own with a stack of [`JOB_STACK_BYTES`], so that no value
//! a script builds can overflow it, and every allocation of that thread is charged to the job's
//! [`MemoryBudget`] (the counting allocator of `grundy::control::alloc`): a job holding more than
//! its budget stops at its next check (a script at its next operation) with a memory limit, 422.
//!
//! **Cancellation.** Every job gets a [`Control`] holding a cancel token, the job's deadline and
//! a [`MemoryBudget`] of [`Limits::job_memory`] bytes; the engines check it every few thousand
//! steps and return `Err(Error::Cancelled(_))` once the deadline has passed (answered 503), or
//! `Error::Limit` of kind memory once a table would outgrow the budget (answered 422). Nothing
//! panics or unwinds to stop a job, and nothing of it survives (every job builds its own rule
//! and buffers). The token is also cancelled when the request goes away (its future is dropped)
//! or is answered, and when the server shuts down ([`Lane::stop_all`]), so a job nobody waits
//! for stops at its next check. A job's place is released only when its thread is done, so the
//! number of running jobs never exceeds the limit; a job that panics (a bug) is answered 500 and
//! frees its place like any other.

use grundy::control::{CancelToken, Control, MemoryBudget};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

use super::api::ApiError;

/// What one request may ask for, and what the server grants it. The limits table of
/// docs/playground.md lists the defaults.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of a request body.
    pub body_bytes: usize,
    /// Bytes of the GAME notation of a request (`sub:...`, `octal:...`): longer codes and sets
    /// cost time to parse and build before any deadline applies.
    pub game_bytes: usize,
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
    /// The largest cost estimate (options visited) of a request: beyond it the work cannot end
    /// within the deadline, and is refused before it starts.
    pub max_operations: u128,
    /// Vertices of a graph.
    pub graph_vertices: usize,
    /// Arcs of a graph.
    pub graph_arcs: usize,
    /// Bytes of a script.
    pub script_bytes: usize,
    /// Operations of one call of a script's `options`.
    pub script_operations: u64,
    /// Rows and columns of a Chomp board (`/api/board`).
    pub chomp_side: usize,
    /// Rows and columns of a Cram board (`/api/board`).
    pub cram_side: usize,
    /// Free cells of a Cram board (`/api/board`): a 5×6 board takes seconds under misère
    /// play, a 6×6 board minutes.
    pub cram_cells: usize,
    /// Games in a sum (`/api/sum`).
    pub sum_parts: usize,
    /// Positions a misère search of a sum may visit (`/api/sum` with `misere`): values do not
    /// add under misère play, so the sums reachable are searched one by one.
    pub sum_positions: usize,
    /// Heavy jobs running at once.
    pub workers: usize,
    /// How long a request waits for a free place in its lane before 503.
    pub busy_wait: Duration,
    /// How long a heavy job may run before 503.
    pub deadline: Duration,
    /// The largest cost estimate of a request that runs in the fast lane.
    pub fast_operations: u128,
    /// Fast jobs running at once.
    pub fast_workers: usize,
    /// How long a fast job may run before 503.
    pub fast_deadline: Duration,
    /// Bytes of memory one job may hold (its [`MemoryBudget`]); `grundy serve` sets it from
    /// the run's memory budget ([`Limits::sharing`]).
    pub job_memory: u64,
    /// How long the server waits for the head of a request (its request line and headers),
    /// counted from the moment it starts waiting: this bounds a half-sent head and an idle
    /// keep-alive connection alike.
    pub header_timeout: Duration,
    /// How long the server waits for a request's whole body, once its head has arrived.
    pub body_timeout: Duration,
    /// Connections open at once; a new one beyond this closes the connection idle longest.
    pub connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 64 * 1024,
            game_bytes: 1024,
            heaps: 32,
            heap_size: 10_000,
            moves_per_heap: 50_000,
            misere_heap_size: 200,
            seq_n: 100_000,
            analyze_max: 100_000,
            three_heap_values: 5_000,
            max_operations: 20_000_000_000,
            graph_vertices: 500,
            graph_arcs: 5_000,
            script_bytes: 16 * 1024,
            script_operations: 1_000_000,
            chomp_side: 8,
            cram_side: 6,
            cram_cells: 25,
            sum_parts: 4,
            sum_positions: 200_000,
            workers: 2,
            busy_wait: Duration::from_secs(2),
            deadline: Duration::from_secs(10),
            fast_operations: 2_000_000,
            fast_workers: 4,
            fast_deadline: Duration::from_secs(1),
            job_memory: 1 << 30,
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            connections: 256,
        }
    }
}

impl Limits {
    /// These limits with the memory budget `total` of the whole server (`--memory`,
    /// `GRUNDY_MEMORY`, or a quarter of the physical memory) shared evenly by the jobs that may
    /// run at once, [`Limits::workers`] heavy and [`Limits::fast_workers`] fast ones: each job's
    /// budget is `total / (workers + fast_workers)`, so that the jobs together never hold more
    /// than `total`, however many requests arrive.
    pub fn sharing(mut self, total: u64) -> Limits {
        let jobs = (self.workers + self.fast_workers).max(1) as u64;
        self.job_memory = total / jobs;
        self
    }
}

/// Cancels a token when dropped: held by [`Lane::run`] while it waits for its job, so a job
/// whose request is answered or dropped is told to stop; it also takes the job off the lane's
/// list of running jobs.
struct JobGuard<'a> {
    token: CancelToken,
    lane: &'a Lane,
    id: u64,
}

impl Drop for JobGuard<'_> {
    fn drop(&mut self) {
        self.token.cancel();
        if let Ok(mut running) = self.lane.running.lock() {
            running.remove(&self.id);
        }
    }
}

/// One lane of jobs: a semaphore of places, a deadline and a memory budget per job.
#[derive(Debug)]
pub struct Lane {
    permits: Arc<Semaphore>,
    busy_wait: Duration,
    deadline: Duration,
    memory: u64,
    /// Heavy: each job on a thread of its own at a lower priority, memory trimmed after it.
    heavy: bool,
    /// The cancel tokens of the jobs running now, by job number.
    running: Mutex<HashMap<u64, CancelToken>>,
    next_id: AtomicU64,
}

impl Lane {
    /// The heavy lane of `limits`.
    pub fn heavy(limits: &Limits) -> Lane {
        Lane::new(limits.workers, limits.deadline, limits, true)
    }

    /// The fast lane of `limits`.
    pub fn fast(limits: &Limits) -> Lane {
        Lane::new(limits.fast_workers, limits.fast_deadline, limits, false)
    }

    fn new(workers: usize, deadline: Duration, limits: &Limits, heavy: bool) -> Lane {
        Lane {
            permits: Arc::new(Semaphore::new(workers)),
            busy_wait: limits.busy_wait,
            deadline,
            memory: limits.job_memory,
            heavy,
            running: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        }
    }

    /// Tells every running job to stop (the server is shutting down).
    pub fn stop_all(&self) {
        if let Ok(running) = self.running.lock() {
            running.values().for_each(CancelToken::cancel);
        }
    }

    /// Runs `job` under a [`Control`] with the lane's deadline and memory budget: 503 when no
    /// place is free within the busy wait or when the job is stopped at its deadline, 500 when
    /// the job panics, otherwise the job's own answer.
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
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut running) = self.running.lock() {
            running.insert(id, token.clone());
        }
        let _guard = JobGuard {
            token: token.clone(),
            lane: self,
            id,
        };
        let ctl = Control::none()
            .with_token(token)
            .with_deadline(Instant::now() + self.deadline)
            .with_memory(MemoryBudget::new(self.memory));
        let seconds = self.deadline.as_secs_f64();
        let timeout = || ApiError::timeout(seconds);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let heavy = self.heavy;
        let work = move || {
            let charged = ctl.memory().enter();
            let answer = catch_unwind(AssertUnwindSafe(|| job(&ctl)));
            drop(charged);
            let stopped = ctl.should_stop();
            drop(ctl);
            let _ = tx.send((answer, stopped));
            if heavy {
                return_memory();
            }
            drop(permit); // the place is free once the job's memory is back
        };
        std::thread::Builder::new()
            .name("grundy-job".into())
            .stack_size(JOB_STACK_BYTES)
            .spawn(move || {
                if heavy {
                    lower_priority();
                }
                work()
            })
            .map_err(|e| ApiError::internal(format!("cannot start a worker thread: {e}")))?;
        // A little grace beyond the deadline for a job to reach its next check and return.
        let (answer, stopped) =
            tokio::time::timeout(self.deadline + Duration::from_millis(500), rx)
                .await
                .map_err(|_| timeout())?
                .map_err(|_| ApiError::internal("the computation failed unexpectedly"))?;
        match answer {
            Err(_) => Err(ApiError::internal(
                "internal error: the computation failed on this request",
            )),
            // Any failure of a job stopped at its deadline (`Error::Cancelled(_)`, or an error
            // a script raised when it was stopped) is the deadline's.
            Ok(Err(_)) if stopped => Err(timeout()),
            Ok(other) => other,
        }
    }
}

/// The stack of a job's thread: scripts build values that Rhai walks and drops recursively (a
/// value nested 60 000 arrays deep is within its size limits). Only the pages used are touched.
pub const JOB_STACK_BYTES: usize = 1 << 30;

/// Lowers the calling thread's scheduling priority to nice 10 (Linux keeps a nice value per
/// thread), so that heavy jobs yield the processor to the fast lane and the connections.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority has no memory effects; `who` 0 is the calling thread on Linux.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Hands freed heap memory back to the system. glibc keeps the blocks a thread freed in its
/// arena for reuse, so the tables of a finished job would stay resident; `malloc_trim(0)`
/// releases the free pages of every arena.
pub fn return_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}
