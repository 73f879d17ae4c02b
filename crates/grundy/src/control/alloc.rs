//! Measured memory: a counting global allocator that charges every allocation to the
//! [`MemoryBudget`] of the computation running on the thread.
//!
//! Engines reserve their tables through [`Control::reserve`](super::Control::reserve) before
//! they grow, which gives an early and clear refusal naming the table. What they allocate
//! besides (positions, buffers, the values a script builds) is not reserved; [`CountingAlloc`]
//! measures it. A binary installs it with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: grundy::control::alloc::CountingAlloc = grundy::control::alloc::CountingAlloc;
//! ```
//!
//! and every allocation of a thread is then charged to the budget the thread has entered
//! ([`MemoryBudget::enter`]), or, on a thread that entered none, to the process budget
//! ([`charge_every_thread`]), if one is set. The charge of a block is its size rounded the way
//! glibc's `malloc` rounds a chunk (the size plus an 8-byte header, to a multiple of 16, at least
//! 32 bytes), so that many small blocks are counted close to what they occupy.
//!
//! **Two thresholds.** When the bytes held pass the budget's *soft* limit (the limit and a
//! sixteenth, [`soft_limit`], so that the engines' reservations refuse first where they can),
//! the budget is *over*:
//! [`Control::stop_check`](super::Control::stop_check) (every engine's progress point) and the
//! script sandbox (every operation of a script) then stop the computation with a memory limit
//! error, which the host reports like any other. An allocation that would take the bytes held
//! past the *hard* limit (the limit and an eighth, [`hard_limit`]) of a budget given to
//! [`charge_every_thread`] with an `on_exhausted` function calls it instead of allocating: the
//! command line writes its memory limit message and exits with status 3, so even a single step
//! that allocates without end cannot outgrow the budget. Without that function the allocation
//! proceeds and the next check stops the computation.
//!
//! **Threads.** A block is credited back to the budget current on the thread that frees it. A
//! computation whose blocks cross between threads that charge different budgets (a job's answer
//! freed by the server thread that sends it) leaves a small error in the count, which ends with
//! the computation. Threads spawned by an engine enter their caller's budget; threads of rayon's
//! shared pool charge the process budget, or nothing where none is set.

use super::MemoryBudget;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, AtomicU64, Ordering};

/// What a [`MemoryBudget`] shares between its clones: the limit, the bytes reserved by engines,
/// and the bytes its threads hold, as the allocator measures them.
#[derive(Debug)]
pub(crate) struct Account {
    pub(crate) limit: u64,
    /// Bytes reserved through [`MemoryBudget::reserve`].
    pub(crate) reserved: AtomicU64,
    /// Bytes allocated and not yet freed on the threads charging this budget (it may go below
    /// zero when they free blocks allocated elsewhere).
    held: AtomicI64,
    /// The largest value `held` took above the soft limit (0 while it never passed it): kept
    /// only there, so that an allocation costs one atomic addition.
    peak: AtomicI64,
    /// Set once `held` passes the soft limit; never cleared.
    over: AtomicBool,
}

impl Account {
    pub(crate) fn new(limit: u64) -> Account {
        Account {
            limit,
            reserved: AtomicU64::new(0),
            held: AtomicI64::new(0),
            peak: AtomicI64::new(0),
            over: AtomicBool::new(false),
        }
    }

    pub(crate) fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed).max(0) as u64
    }

    pub(crate) fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed).max(0) as u64
    }

    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// Charges `bytes`; false when they would pass the hard limit (nothing is charged then).
    fn charge(&self, bytes: u64, hard: bool) -> bool {
        let bytes = bytes.min(i64::MAX as u64) as i64;
        let now = self.held.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if now > 0 && now as u64 > soft_limit(self.limit) {
            if hard && now as u64 > hard_limit(self.limit) {
                self.held.fetch_sub(bytes, Ordering::Relaxed);
                return false;
            }
            self.over.store(true, Ordering::Relaxed);
            self.peak.fetch_max(now, Ordering::Relaxed);
        }
        true
    }

    fn credit(&self, bytes: u64) {
        self.held
            .fetch_sub(bytes.min(i64::MAX as u64) as i64, Ordering::Relaxed);
    }
}

/// The soft limit of a budget of `limit` bytes: the limit and a sixteenth, and [`ALLOWANCE`].
/// Measured bytes stop
/// a computation only beyond it, so that an engine's own reservation, which names its table
/// and counts the bytes it will need, refuses first where it can (see the module
/// documentation).
pub fn soft_limit(limit: u64) -> u64 {
    limit.saturating_add(limit / 16).saturating_add(ALLOWANCE)
}

/// Bytes allowed beyond both limits for the host's own working memory (argument parsing,
/// buffers of its input and output): a budget of a few hundred bytes still bounds the engines'
/// tables, which refuse by their reservations, without stopping the host itself.
pub const ALLOWANCE: u64 = 2 << 20;

/// The hard limit of a budget of `limit` bytes: the limit and an eighth, and [`ALLOWANCE`] (see
/// the module documentation).
pub fn hard_limit(limit: u64) -> u64 {
    limit.saturating_add(limit / 8).saturating_add(ALLOWANCE)
}

thread_local! {
    /// The account the thread has entered (null: none). A raw pointer, kept alive by the
    /// [`Entered`] guard that set it, so that reading it never allocates or registers a
    /// destructor.
    static CURRENT: Cell<*const Account> = const { Cell::new(std::ptr::null()) };
}

/// The account of threads that entered none (null: such threads are not counted). Set once by
/// [`charge_every_thread`], to a budget kept alive for the rest of the process.
static PROCESS: AtomicPtr<Account> = AtomicPtr::new(std::ptr::null_mut());
/// What [`charge_every_thread`] calls when the process budget's hard limit would be passed.
static ON_EXHAUSTED: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());

/// The function called when an allocation would pass the hard limit of the process budget:
/// given the limit in bytes, it must not return (and must not allocate).
pub type Exhausted = fn(limit: u64) -> !;

/// Charges every thread that entered no budget to `budget` from now on, for the rest of the
/// process (the budget is kept alive). With `on_exhausted`, an allocation that would pass the
/// hard limit ([`hard_limit`]) of this budget calls it instead of allocating. Meant for a
/// command line, which runs one computation; a server enters a budget per job instead.
pub fn charge_every_thread(budget: &MemoryBudget, on_exhausted: Option<Exhausted>) {
    let account = std::sync::Arc::into_raw(budget.inner.clone()) as *mut Account;
    if let Some(f) = on_exhausted {
        ON_EXHAUSTED.store(f as *mut (), Ordering::Release);
    }
    // A budget set before is leaked rather than released: another thread may be charging it
    // right now.
    PROCESS.store(account, Ordering::Release);
}

/// The account charged by the calling thread now, if any.
fn current() -> *const Account {
    let entered = CURRENT.with(Cell::get);
    if entered.is_null() {
        PROCESS.load(Ordering::Acquire)
    } else {
        entered
    }
}

/// Bytes that a block of `layout` occupies, as glibc's `malloc` rounds it.
#[inline]
fn footprint(layout: &Layout) -> u64 {
    let size = layout
        .size()
        .saturating_add(layout.align().saturating_sub(16));
    (size.saturating_add(8 + 15) & !15).max(32) as u64
}

/// Marks the calling thread as charging `budget` until the guard is dropped (then the thread
/// charges what it charged before). See [`MemoryBudget::enter`].
#[derive(Debug)]
pub struct Entered {
    previous: *const Account,
    _budget: MemoryBudget,
}

impl Drop for Entered {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.previous));
    }
}

pub(crate) fn enter(budget: &MemoryBudget) -> Entered {
    let account = std::sync::Arc::as_ptr(&budget.inner);
    let previous = CURRENT.with(|c| c.replace(account));
    Entered {
        previous,
        _budget: budget.clone(),
    }
}

/// The system allocator, counting what each thread allocates against its budget (see the
/// module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

impl CountingAlloc {
    /// Charges `bytes` to the current account, or calls the exhaustion function.
    #[inline]
    fn charge(bytes: u64) -> bool {
        let account = current();
        if account.is_null() {
            return true;
        }
        let process = std::ptr::eq(account, PROCESS.load(Ordering::Relaxed));
        let exhausted = ON_EXHAUSTED.load(Ordering::Relaxed);
        let hard = process && !exhausted.is_null();
        // SAFETY: a non-null account is kept alive by the guard that entered it, or is the
        // process account, which is never freed.
        if unsafe { &*account }.charge(bytes, hard) {
            return true;
        }
        // SAFETY: ON_EXHAUSTED only ever holds an `Exhausted` function pointer.
        let f: Exhausted = unsafe { std::mem::transmute::<*mut (), Exhausted>(exhausted) };
        // SAFETY: as above.
        f(unsafe { &*account }.limit)
    }

    /// Charges a block of `layout`, then allocates it with `allocate` (credited back if that
    /// fails); null when the charge is refused.
    #[inline]
    fn charged(layout: Layout, allocate: impl FnOnce() -> *mut u8) -> *mut u8 {
        let bytes = footprint(&layout);
        if !Self::charge(bytes) {
            return std::ptr::null_mut();
        }
        let p = allocate();
        if p.is_null() {
            Self::credit(bytes);
        }
        p
    }

    #[inline]
    fn credit(bytes: u64) {
        let account = current();
        if !account.is_null() {
            // SAFETY: see `charge`.
            unsafe { &*account }.credit(bytes);
        }
    }
}

// SAFETY: every method forwards to `System` with the same arguments; the counting around it
// neither allocates nor touches the blocks.
unsafe impl GlobalAlloc for CountingAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::charged(layout, || System.alloc(layout))
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::charged(layout, || System.alloc_zeroed(layout))
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        Self::credit(footprint(&layout));
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = footprint(&layout);
        // SAFETY: the caller guarantees that `new_size` rounded to the alignment fits an isize.
        let new = footprint(&Layout::from_size_align_unchecked(new_size, layout.align()));
        if new > old && !Self::charge(new - old) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        match (p.is_null(), new > old) {
            (true, true) => Self::credit(new - old),
            (false, false) => Self::credit(old - new),
            _ => {}
        }
        p
    }
}
