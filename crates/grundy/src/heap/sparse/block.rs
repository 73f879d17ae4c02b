//! Speculation: a block of heaps is proposed by the transposed rare passes of runs of [`RUN`]
//! heaps, and verified heap by heap in parallel.

use super::pairs::{equal_bits, scan_pairs, Mirror, Scratch};
use super::state::State;
use crate::error::Result;
use crate::heap::naive::Splits;
use crate::heap::sequence::Cell;
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// A block of heaps whose values were proposed by the rare pass and await verification.
pub(super) struct Block {
    /// First heap of the block.
    pub(super) start: usize,
    /// Heaps proposed.
    pub(super) len: usize,
    /// Every value and xor of two values is below this bound (2B when proposed).
    pub(super) bits: usize,
    /// For each heap in turn, the rare values below its candidate not seen by the rare pass,
    /// ascending.
    pub(super) needs: Vec<u32>,
    /// Where each heap's list ends in `needs`.
    pub(super) ends: Vec<u32>,
    /// The proposal stopped at a value too wide for the cells.
    pub(super) overflow: bool,
}

/// The vector's buffer, shared by the thread that proposes a block (writing only beyond the
/// pending block) and the threads that verify the pending block (reading only below its end).
#[derive(Clone, Copy)]
pub(super) struct Shared<T>(pub(super) *mut T);
// SAFETY: the threads touch disjoint ranges as described above, and only read what another
// thread wrote after `rayon::join` has ordered the two.
unsafe impl<T: Send> Send for Shared<T> {}
unsafe impl<T: Sync> Sync for Shared<T> {}

/// Heaps whose rare passes are done together by [`propose`].
pub(super) const RUN: usize = 32;

/// Proposes G(h) = c for h in start..end (stopping early when the value bound grows or a value
/// does not fit the cells), writing the values at `base + h`.
///
/// The rare passes of a run of [`RUN`] heaps h0 + j are done together, transposed: a rare
/// position r >= RUN - k pairs with m - r = h0 + j - k - r < h0 for every heap of the run, so
/// its marks g ⊕ G(h0 - k - r + j), j < RUN, read consecutive values already known and go to
/// one mark table per heap; a loop over j with g fixed costs a load, a xor and a store per
/// mark. The few rare positions that pair with a heap of the run itself (r < RUN - k, or
/// r >= h0 - k, or r = m/2 for unequal parts) are marked heap by heap once the heaps before
/// are proposed.
pub(super) fn propose<T: Cell>(
    sp: &Splits,
    st: &mut State,
    base: Shared<T>,
    start: usize,
    end: usize,
    tables: &mut Tables,
) -> Result<Block> {
    let b0 = st.b;
    let mut block = Block {
        start,
        len: 0,
        bits: 2 * b0,
        needs: Vec::new(),
        ends: Vec::with_capacity(end - start),
        overflow: false,
    };
    let mut want = Vec::new();
    let mut h0 = start;
    'runs: while h0 < end {
        let h1 = (h0 + RUN).min(end);
        let reviews = st.reviews;
        // Every mark is a value or a xor of two, so below B.
        tables.start(h1 - h0, st.b);
        // The ranges of rare-list indices marked for the whole run, per split.
        let mut ranges: Vec<[(usize, usize); 2]> = Vec::with_capacity(sp.two.len());
        {
            // SAFETY: heaps below h0 are initialised and nothing writes them now.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h0) };
            for &(k, unequal) in &sp.two {
                let idx = |r: usize| st.rare_pos.partition_point(|&p| (p as usize) < r);
                // r >= len - k keeps h0 + j - k - r below h0; r < h0 - k keeps it above 0.
                let hi = idx(h0.saturating_sub(k));
                let lo = idx((h1 - h0).saturating_sub(k)).min(hi);
                // Unequal parts: r = m/2 for some heap of the run is left to the heaps.
                let (e0, e1) = if unequal {
                    let m0 = h0.saturating_sub(k);
                    (
                        idx(m0 / 2).clamp(lo, hi),
                        idx((m0 + (h1 - h0)) / 2 + 1).clamp(lo, hi),
                    )
                } else {
                    (hi, hi)
                };
                let r = [(lo, e0), (e1, hi)];
                for &(i0, i1) in &r {
                    let (pos, val) = (&st.rare_pos[i0..i1], &st.rare_val[i0..i1]);
                    tables.mark_rare(pos, val, vals, h0 - k, h1 - h0);
                }
                ranges.push(r);
            }
        }
        let mut next = h1;
        for h in h0..h1 {
            let j = h - h0;
            // SAFETY: heaps below h are initialised (verified values, the pending block, or
            // this block so far) and nothing writes them while this slice lives.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h) };
            for &k in &sp.whole {
                if k == h {
                    tables.mark(j, 0);
                }
            }
            for &k in &sp.one {
                if k < h {
                    tables.mark(j, vals[h - k].get());
                }
            }
            for (&(k, unequal), r) in sp.two.iter().zip(&ranges) {
                if h < k + 2 {
                    continue;
                }
                let m = h - k;
                let below = st.rare_pos.partition_point(|&p| (p as usize) < m);
                let rest = [(0, r[0].0), (r[0].1, r[1].0), (r[1].1, below)];
                for (i0, i1) in rest {
                    for (&rp, &g) in st.rare_pos[i0..i1].iter().zip(&st.rare_val[i0..i1]) {
                        if !(unequal && 2 * rp as usize == m) {
                            tables.mark(j, g ^ vals[m - rp as usize].get());
                        }
                    }
                }
            }
            let c = st.candidate(h, |w| tables.marked_word(j, w), &mut want);
            if c > T::MAX {
                block.overflow = true;
                break 'runs;
            }
            // SAFETY: h < end <= n <= capacity, and no other thread reads or writes heap h.
            unsafe { base.0.add(h).write(T::from_u32(c)) };
            block.needs.extend_from_slice(&want);
            block.ends.push(block.needs.len() as u32);
            block.len += 1;
            // SAFETY: as above, now including heap h.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h + 1) };
            st.record(vals, h, c)?;
            if st.b != b0 {
                break 'runs;
            }
            if st.reviews != reviews {
                // The rare list was rebuilt: start a new run after h.
                next = h + 1;
                break;
            }
        }
        h0 = next;
    }
    Ok(block)
}

/// Marks of a run of heaps, one table of `stride` bytes per heap (small enough to stay in the
/// first-level cache for a whole run): value v is marked for
/// heap j when `marks[j * stride + v] == generation` (a new run is one increment, not a clear).
#[derive(Default)]
pub(super) struct Tables {
    pub(super) marks: Vec<u8>,
    pub(super) stride: usize,
    pub(super) generation: u8,
}

impl Tables {
    /// Unmarks everything, for `heaps` heaps with values below `bits`.
    pub(super) fn start(&mut self, heaps: usize, bits: usize) {
        self.stride = bits;
        if self.marks.len() < heaps * bits {
            self.marks.resize(heaps * bits, 0);
        }
        if self.generation == u8::MAX {
            self.marks.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    #[inline(always)]
    pub(super) fn mark(&mut self, j: usize, v: u32) {
        self.marks[j * self.stride + v as usize] = self.generation;
    }

    /// The marks of values 64·w to 64·w + 63 for heap j as a word, bit i for value 64·w + i
    /// (values beyond the table are never marked).
    #[inline]
    pub(super) fn marked_word(&self, j: usize, w: usize) -> u64 {
        let row = &self.marks[j * self.stride..][..self.stride];
        match row.get(64 * w..64 * (w + 1)) {
            Some(chunk) => equal_bits(chunk.try_into().expect("64 marks"), self.generation),
            None => (64 * w..self.stride).fold(0, |bits, v| {
                bits | u64::from(row[v] == self.generation) << (v - 64 * w)
            }),
        }
    }

    /// Whether v is marked for heap j (never, for v beyond the table): the tests' reference
    /// for [`Tables::marked_word`].
    #[cfg(test)]
    pub(super) fn has(&self, j: usize, v: u32) -> bool {
        (v as usize) < self.stride && self.marks[j * self.stride + v as usize] == self.generation
    }

    /// For each rare position r (ascending in `pos`, with value G(r) = g in `val`), marks
    /// g ⊕ G(m0 - r + j) for heap j, for every j < `len` (`vals` holds G(0..), and every
    /// m0 - r + j is below its length).
    ///
    /// The table width is a power of two and every mark is below it (a xor of two values below
    /// the bound), so the kernel is instantiated for the usual widths with the index masked by
    /// width − 1: a no-op on valid marks that lets the compiler drop the bounds check, and for
    /// whole runs of [`RUN`] heaps the loop over the heaps has a fixed count and is unrolled.
    pub(super) fn mark_rare<T: Cell>(
        &mut self,
        pos: &[u32],
        val: &[u32],
        vals: &[T],
        m0: usize,
        len: usize,
    ) {
        match self.stride {
            256 => self.mark_rare_n::<T, 256>(pos, val, vals, m0, len),
            512 => self.mark_rare_n::<T, 512>(pos, val, vals, m0, len),
            1024 => self.mark_rare_n::<T, 1024>(pos, val, vals, m0, len),
            _ => {
                let (generation, stride) = (self.generation, self.stride);
                for (&r, &g) in pos.iter().zip(val) {
                    let from = m0 - r as usize;
                    let tables = self.marks.chunks_exact_mut(stride);
                    for (table, v) in tables.zip(&vals[from..from + len]) {
                        table[(g ^ v.get()) as usize] = generation;
                    }
                }
            }
        }
    }

    /// [`Tables::mark_rare`] for tables of width `S` (= `self.stride`).
    #[inline]
    pub(super) fn mark_rare_n<T: Cell, const S: usize>(
        &mut self,
        pos: &[u32],
        val: &[u32],
        vals: &[T],
        m0: usize,
        len: usize,
    ) {
        let generation = self.generation;
        let (tables, _) = self.marks[..len * S].as_chunks_mut::<S>();
        if let Ok(tables) = <&mut [[u8; S]; RUN]>::try_from(&mut *tables) {
            for (&r, &g) in pos.iter().zip(val) {
                let from = m0 - r as usize;
                let run: &[T; RUN] = vals[from..from + RUN].try_into().expect("RUN values");
                for (table, v) in tables.iter_mut().zip(run) {
                    table[(g ^ v.get()) as usize & (S - 1)] = generation;
                }
            }
        } else {
            for (&r, &g) in pos.iter().zip(val) {
                let from = m0 - r as usize;
                for (table, v) in tables.iter_mut().zip(&vals[from..from + len]) {
                    table[(g ^ v.get()) as usize & (S - 1)] = generation;
                }
            }
        }
    }
}

/// The index (in the block) of the first heap whose rare values below its candidate are not all
/// options, or `None` if the whole block is right; heaps are checked in parallel.
pub(super) fn verify<T: Cell>(
    base: Shared<T>,
    mirror: &Mirror<T>,
    p: &Block,
    sp: &Splits,
) -> Option<usize> {
    // SAFETY: every heap below p.start + p.len is initialised, and only read while this lives.
    let done = unsafe { std::slice::from_raw_parts(base.0 as *const T, p.start + p.len) };
    let init = || (Scratch::default(), Vec::new());
    let fails = |(scratch, want): &mut (Scratch, Vec<u32>), i: usize| {
        let from = if i == 0 { 0 } else { p.ends[i - 1] as usize };
        want.clear();
        want.extend_from_slice(&p.needs[from..p.ends[i] as usize]);
        scan_pairs(done, mirror, p.start + i, &sp.two, p.bits, want, scratch);
        !want.is_empty()
    };
    #[cfg(feature = "parallel")]
    let first = (0..p.len)
        .into_par_iter()
        .with_min_len(64)
        .map_init(init, fails)
        .position_first(|f| f);
    #[cfg(not(feature = "parallel"))]
    let first = {
        let mut buffers = init();
        (0..p.len).position(|i| fails(&mut buffers, i))
    };
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The rare-pass kernel marks exactly g ⊕ G(m0 - r + j) for heap j, every width, for a
        /// whole run and a short one (widths instantiated or not), and the words of marks the
        /// candidate reads hold the same marks.
        #[test]
        fn mark_rare_marks_its_definition(
            seed in any::<u64>(),
            width in 6u32..12,
            short in 1usize..RUN,
            rare in proptest::collection::btree_set(1u32..200, 0..40),
        ) {
            let stride = 1usize << width;
            let mut x = seed | 1;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % stride as u64) as u16
            };
            let m0 = 200 + RUN;
            let vals: Vec<u16> = (0..m0 + RUN).map(|_| next()).collect();
            let pos: Vec<u32> = rare.into_iter().collect();
            let val: Vec<u32> = pos.iter().map(|_| u32::from(next())).collect();
            for len in [RUN, short] {
            let mut tables = Tables::default();
            // A stale generation first, so that old marks must not count.
            tables.start(len, stride);
            tables.mark_rare(&pos, &val, &vals, m0 - 1, len);
            tables.start(len, stride);
            tables.mark_rare(&pos, &val, &vals, m0, len);
            for j in 0..len {
                let want: std::collections::BTreeSet<u32> = pos
                    .iter()
                    .zip(&val)
                    .map(|(&r, &g)| g ^ u32::from(vals[m0 - r as usize + j]))
                    .collect();
                let got: std::collections::BTreeSet<u32> =
                    (0..stride as u32).filter(|&v| tables.has(j, v)).collect();
                prop_assert_eq!(&got, &want);
                // The marks as words (one word beyond the table: nothing marked there).
                for w in 0..stride / 64 + 1 {
                    let bits = tables.marked_word(j, w);
                    let from_has = (0..64u32)
                        .filter(|&i| got.contains(&(64 * w as u32 + i)))
                        .fold(0u64, |b, i| b | 1 << i);
                    prop_assert_eq!(bits, from_has);
                }
            }
            }
        }
    }
}
