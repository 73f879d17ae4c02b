//! Ranks as MPI processes (rsmpi over the system's MPI library): a [`Comm`] whose exchange is
//! `MPI_Alltoallv` and whose gather is `MPI_Allgather`.
//!
//! One exchange is an `MPI_Alltoall` of two words a pair of ranks (the bytes for that rank and
//! the sender's largest batch), then as many `MPI_Alltoallv` of bytes as the largest batch
//! needs: MPI counts and displacements are C `int`s, so a call moves at most
//! `(2^31 − 1)/K` bytes a pair of ranks.

use super::Comm;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// The MPI environment and its world communicator. MPI is finalized when this is dropped; a
/// process that exits without dropping it is taken by `mpirun` for a failed one.
pub struct MpiComm {
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
    _universe: mpi::environment::Universe,
}

impl MpiComm {
    /// Initializes MPI (`None` if it already was, in this process).
    pub fn init() -> Option<MpiComm> {
        let universe = mpi::initialize()?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        Some(MpiComm {
            world,
            rank,
            size,
            _universe: universe,
        })
    }

    /// Ends every rank of the job with exit status `code` (`MPI_Abort`): for a rank that cannot
    /// take part in the next collective (a panic), so that no other rank waits for it forever.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// The world communicator of this process, for [`MpiComm::abort`] from a panic hook: aborts
/// the job if MPI is running, and returns otherwise.
pub fn abort_world(code: i32) {
    if mpi::is_initialized() && !mpi::is_finalized() {
        SimpleCommunicator::world().abort(code)
    }
}

impl Comm for MpiComm {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn all_to_all(&self, mut send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let k = self.size;
        let largest = send.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let header: Vec<u64> = send
            .iter()
            .flat_map(|b| [b.len() as u64, largest])
            .collect();
        let mut got = vec![0u64; 2 * k];
        self.world.all_to_all_into(&header[..], &mut got[..]);
        let incoming: Vec<usize> = got.chunks(2).map(|w| w[0] as usize).collect();
        let global_largest = got.chunks(2).map(|w| w[1]).max().unwrap_or(0) as usize;
        let mut recv: Vec<Vec<u8>> = incoming.iter().map(|&n| Vec::with_capacity(n)).collect();
        let piece = (i32::MAX as usize / k).max(1);
        let mut at = 0usize;
        while at < global_largest {
            let part = |len: usize| len.saturating_sub(at).min(piece);
            let counts: Vec<Count> = send.iter().map(|b| part(b.len()) as Count).collect();
            let rcounts: Vec<Count> = incoming.iter().map(|&n| part(n) as Count).collect();
            let displs = prefix(&counts);
            let rdispls = prefix(&rcounts);
            // Never an empty buffer: the address of an empty `Vec` is 1, which is `MPI_IN_PLACE`
            // to OpenMPI (an empty send buffer would be taken for "send what you receive").
            let sent: usize = counts.iter().map(|&c| c as usize).sum();
            let mut sbuf = Vec::with_capacity(sent.max(1));
            for b in send.iter_mut() {
                let end = (at + piece).min(b.len());
                if at < end {
                    sbuf.extend_from_slice(&b[at..end]);
                }
                if end == b.len() {
                    // Sent in full: freed now, not when the exchange ends.
                    *b = Vec::new();
                }
            }
            let total: usize = rcounts.iter().map(|&c| c as usize).sum();
            let mut rbuf = vec![0u8; total.max(1)];
            {
                let s = Partition::new(&sbuf[..], &counts[..], &displs[..]);
                let mut r = PartitionMut::new(&mut rbuf[..], &rcounts[..], &rdispls[..]);
                self.world.all_to_all_varcount_into(&s, &mut r);
            }
            for (from, v) in recv.iter_mut().enumerate() {
                let (d, c) = (rdispls[from] as usize, rcounts[from] as usize);
                v.extend_from_slice(&rbuf[d..d + c]);
            }
            at += piece;
        }
        recv
    }

    fn all_gather(&self, words: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; words.len() * self.size];
        self.world.all_gather_into(words, &mut out[..]);
        out
    }
}

/// Displacements from counts (exclusive prefix sums).
fn prefix(counts: &[Count]) -> Vec<Count> {
    let mut d = Vec::with_capacity(counts.len());
    let mut s: Count = 0;
    for &c in counts {
        d.push(s);
        s += c;
    }
    d
}
