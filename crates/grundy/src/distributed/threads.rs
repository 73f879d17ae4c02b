//! Ranks as threads of one process: a [`Comm`] whose collectives meet at a barrier. It runs the
//! distributed algorithms without MPI, so that their tests compare them with the one-process
//! solvers on any machine, with any number of ranks.

use super::Comm;
use std::sync::{Barrier, Mutex};

/// The state the ranks of [`run`] share.
struct Shared {
    size: usize,
    barrier: Barrier,
    /// `slots[from · size + to]`: bytes in transit.
    slots: Mutex<Vec<Vec<u8>>>,
    /// Every rank's words of the current gather.
    words: Mutex<Vec<Vec<u64>>>,
}

/// One thread's rank.
pub struct ThreadComm<'a> {
    rank: usize,
    shared: &'a Shared,
}

impl Comm for ThreadComm<'_> {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let n = self.shared.size;
        assert_eq!(send.len(), n, "one buffer a rank");
        {
            let mut slots = lock(&self.shared.slots);
            for (to, b) in send.into_iter().enumerate() {
                slots[self.rank * n + to] = b;
            }
        }
        self.shared.barrier.wait();
        let got = {
            let mut slots = lock(&self.shared.slots);
            (0..n)
                .map(|from| std::mem::take(&mut slots[from * n + self.rank]))
                .collect()
        };
        self.shared.barrier.wait();
        got
    }

    fn all_gather(&self, words: &[u64]) -> Vec<u64> {
        lock(&self.shared.words)[self.rank] = words.to_vec();
        self.shared.barrier.wait();
        let all = lock(&self.shared.words).concat();
        self.shared.barrier.wait();
        all
    }
}

/// Locks a mutex, recovering the data of one poisoned by another rank's panic (that panic is
/// reported by [`run`]).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `f` on `ranks` threads, each with its own rank, and returns their results in rank order.
/// A panic in one rank propagates (the others may then wait at the barrier forever, so `f` must
/// not panic: it is for tests and benchmarks).
pub fn run<T: Send>(ranks: usize, f: impl Fn(&ThreadComm<'_>) -> T + Sync) -> Vec<T> {
    let ranks = ranks.max(1);
    let shared = Shared {
        size: ranks,
        barrier: Barrier::new(ranks),
        slots: Mutex::new(vec![Vec::new(); ranks * ranks]),
        words: Mutex::new(vec![Vec::new(); ranks]),
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..ranks)
            .map(|rank| {
                let (shared, f) = (&shared, &f);
                s.spawn(move || f(&ThreadComm { rank, shared }))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchanges_deliver_every_batch_to_its_rank() {
        let got = run(3, |c| {
            let send = (0..3).map(|to| vec![c.rank() as u8, to as u8]).collect();
            let recv = c.all_to_all(send);
            let words = c.all_gather(&[c.rank() as u64 * 10, 1]);
            (recv, words)
        });
        for (me, (recv, words)) in got.into_iter().enumerate() {
            for (from, b) in recv.iter().enumerate() {
                assert_eq!(b, &vec![from as u8, me as u8]);
            }
            assert_eq!(words, [0, 1, 10, 1, 20, 1]);
        }
    }
}
