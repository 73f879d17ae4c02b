//! The memory budget of a command, measured: the counting allocator charges every allocation of
//! the process to the budget of the run's [`Settings`](crate::settings::Settings) (`--memory`,
//! `GRUNDY_MEMORY`), and the command runs on a thread with a large stack.
//!
//! The allocator is the one `static` of the command line: a global allocator is process-wide by
//! nature (Rust has one per program). It holds no setting: the limit it enforces is the budget
//! `main` hands to [`charge_process`] from the settings value.
//!
//! Engines reserve their tables from the budget before they grow (an early refusal naming the
//! table); the allocator measures everything else, a script's values included. A command holding
//! more than its budget (and a sixteenth, [`alloc::soft_limit`]) stops at its next check with a
//! memory limit error (exit status 3); an
//! allocation that would pass the hard limit (the budget and an eighth, see
//! [`grundy::control::alloc`]) ends the process at once with the same status and message, so
//! that no single step can outgrow the budget. `grundy serve` charges each job to a budget of its own
//! instead, an equal share of the run's budget (see `serve::limits`).

use grundy::control::alloc::{self, CountingAlloc};
use grundy::control::{Bytes, MemoryBudget};
use std::io::Write;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// The stack of the thread a command runs on. Scripts build values that Rhai walks and drops
/// recursively (a value nested 60 000 arrays deep is within its size limits), and the game
/// searches recurse once per move; the memory is reserved, and only the pages used are touched.
pub const STACK_BYTES: usize = 1 << 30;

/// Charges every thread of the process to `budget`, ending the process with status 3 when an
/// allocation would pass its hard limit.
pub fn charge_process(budget: &MemoryBudget) {
    alloc::charge_every_thread(budget, Some(exhausted));
}

/// Writes the memory limit message and exits with status 3, without allocating (it runs inside
/// the allocator).
fn exhausted(limit: u64) -> ! {
    let mut buf = [0u8; 256];
    let mut w = &mut buf[..];
    let _ = writeln!(
        w,
        "grundy: limit reached: the computation needs more than its memory budget of {} ({})",
        Bytes(limit),
        crate::error::RAISE_MEMORY
    );
    let left = w.len();
    let n = buf.len() - left;
    let _ = std::io::stderr().write_all(&buf[..n]);
    // Ends the process without running destructors; its output so far is flushed.
    std::process::exit(3)
}

/// Runs `f` on a thread with a stack of [`STACK_BYTES`] and returns its answer (a panic of `f`
/// is raised again on the calling thread; a thread that cannot start is an internal error,
/// exit status 1).
pub fn on_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("grundy".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
        {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(e) => {
                eprintln!("grundy: internal error: cannot start the command's thread: {e}");
                std::process::exit(1)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::control::Control;
    use grundy::{Error, LimitKind};

    /// The counting allocator of this binary charges what a thread allocates to the budget it
    /// entered, credits what it frees, and a check then stops the computation at the limit.
    #[test]
    fn allocations_are_charged_to_the_entered_budget() {
        let budget = MemoryBudget::new(64 << 20);
        let ctl = Control::none().with_memory(budget.clone());
        {
            let _charged = budget.enter();
            let small = vec![1u8; 16 << 20];
            assert!(budget.held() >= 16 << 20, "{}", budget.held());
            assert_eq!(ctl.stop_check(), Ok(()));
            // Another thread, which entered no budget, is not charged.
            let before = budget.held();
            std::thread::scope(|s| {
                s.spawn(|| std::hint::black_box(vec![1u8; 32 << 20]));
            });
            assert!(budget.held() < before + (1 << 20));
            let large = vec![1u8; 60 << 20];
            assert!(budget.is_over());
            match ctl.stop_check() {
                Err(Error::Limit(l)) => {
                    assert_eq!(l.kind, LimitKind::Memory);
                    assert!(l.what.contains("64.0 MiB"), "{}", l.what);
                }
                other => panic!("expected the memory limit, got {other:?}"),
            }
            drop((small, large));
            assert!(budget.held() < 1 << 20, "{}", budget.held());
        }
        // Once the guard is gone, nothing more is charged.
        let after = budget.held();
        std::hint::black_box(vec![1u8; 8 << 20]);
        assert_eq!(budget.held(), after);
    }

    #[test]
    fn the_stack_is_large() {
        fn depth(n: u64) -> u64 {
            let pad = std::hint::black_box([n; 64]);
            if n == 0 {
                0
            } else {
                1 + depth(n - 1) + pad[0] - n
            }
        }
        // Some 100 MiB of frames: far beyond a default stack of 8 MiB.
        assert_eq!(on_large_stack(|| depth(200_000)), 200_000);
    }
}
