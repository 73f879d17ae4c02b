//! The verification's scan over the two-heap splits: marking pairs while many rare values are
//! wanted, comparing each pair's xor with the last few ([`super::compare`]) after.

use super::compare::compare;
use crate::heap::sequence::Cell;

/// Marks for one heap: value v is marked when `stamp[v] == generation`, so starting the next
/// heap is one increment instead of clearing, and marking is a plain store (no read of the old
/// word, so consecutive marks do not wait on each other).
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) stamp: Vec<u32>,
    pub(super) generation: u32,
}

impl Scratch {
    /// Unmarks everything and makes room for values below `bits`.
    #[inline]
    pub(super) fn next(&mut self, bits: usize) {
        if self.stamp.len() < bits {
            self.stamp.resize(bits, 0);
        }
        if self.generation == u32::MAX {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    #[inline(always)]
    pub(super) fn mark(&mut self, v: u32) {
        self.stamp[v as usize] = self.generation;
    }

    /// Marks x ⊕ y for the pairs of `low` read forwards with `high` read backwards; every
    /// value is below `bits` (a power of two at most the length given to [`Scratch::next`]),
    /// so every xor is. As in [`Tables::mark_rare`], the usual widths get a kernel whose index
    /// is masked by width − 1 (a no-op on valid marks) so that it has no bounds check.
    #[inline]
    pub(super) fn mark_pairs<T: Cell>(&mut self, bits: usize, low: &[T], high: &[T]) {
        match bits {
            512 => self.mark_pairs_n::<T, 512>(low, high),
            1024 => self.mark_pairs_n::<T, 1024>(low, high),
            2048 => self.mark_pairs_n::<T, 2048>(low, high),
            _ => {
                for (x, y) in low.iter().zip(high.iter().rev()) {
                    self.mark(x.get() ^ y.get());
                }
            }
        }
    }

    /// [`Scratch::mark_pairs`] for `bits` = `S`, in chunks of 8 pairs with fixed offsets (kept
    /// out of line so that the loop has registers of its own).
    #[inline(never)]
    pub(super) fn mark_pairs_n<T: Cell, const S: usize>(&mut self, low: &[T], high: &[T]) {
        const C: usize = 8;
        let generation = self.generation;
        let (stamp, _) = self.stamp.as_chunks_mut::<S>();
        let stamp = &mut stamp[0];
        let n = low.len().min(high.len());
        let (low, high) = (&low[..n], &high[high.len() - n..]);
        let (lc, lr) = low.as_chunks::<C>();
        let (hr, hc) = high.as_rchunks::<C>();
        for (l, h) in lc.iter().zip(hc.iter().rev()) {
            for i in 0..C {
                stamp[(l[i].get() ^ h[C - 1 - i].get()) as usize & (S - 1)] = generation;
            }
        }
        for (x, y) in lr.iter().zip(hr.iter().rev()) {
            stamp[(x.get() ^ y.get()) as usize & (S - 1)] = generation;
        }
    }

    #[inline(always)]
    pub(super) fn has(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.generation
    }
}

/// Pairs scanned between two looks at which wanted values remain, while marking.
pub(super) const SCAN_STEP: usize = 512;
/// At most this many wanted values left: compare instead of marking.
pub(super) const COMPARE_AT: usize = 16;
/// Pairs (per split) compared between two looks at which wanted values remain.
pub(super) const COMPARE_STEP: usize = 512;

/// Removes from `want` (values below `bits`, ascending) every two-heap option value of heap
/// `h`: G(a) ⊕ G(m-a), m = h - k, 1 <= a <= m/2 (a ≠ m-a if unequal), for every split
/// `(k, unequal)`, stopping as soon as `want` is empty. Every value of `values` must be below
/// `bits` (a power of two), so every xor is. The splits advance together over a, in two modes:
///
/// * *marking*, while many values are wanted: each pair is one store into `scratch`, and
///   `want` is filtered every [`SCAN_STEP`] values of a;
/// * *comparing*, once at most [`COMPARE_AT`] are left (the last wanted values are the ones
///   few pairs form, found late: in Officers about two thirds of the pairs of a heap are
///   scanned for the last eight): each xor is compared with the K <= 16 wanted values,
///   lane-parallel over 16 pairs at a time, cheaper per pair than a store while K is small.
pub(super) fn scan_pairs<T: Cell>(
    values: &[T],
    mirror: &Mirror<T>,
    h: usize,
    two: &[(usize, bool)],
    bits: usize,
    want: &mut Vec<u32>,
    scratch: &mut Scratch,
) {
    if want.is_empty() {
        return;
    }
    scratch.next(bits);
    // For each split: m and the largest a.
    let tops = || {
        two.iter()
            .filter_map(move |&(k, unequal)| match h.checked_sub(k) {
                Some(m) if m >= 2 => Some((m, if unequal { (m - 1) / 2 } else { m / 2 })),
                _ => None,
            })
    };
    let last = tops().map(|(_, top)| top).max().unwrap_or(0);
    let mut a = 1;
    while a <= last && want.len() > COMPARE_AT {
        let end = (a + SCAN_STEP).min(last + 1);
        for (m, top) in tops() {
            let hi = end.min(top + 1);
            if a >= hi {
                continue;
            }
            // G(a') ascending against G(m - a') read downwards from m - a.
            scratch.mark_pairs(bits, &values[a..hi], &values[m + 1 - hi..=m - a]);
        }
        a = end;
        keep(want, |v| !scratch.has(v));
    }
    // A wanted value above T::MAX is no xor of two cells: it stays wanted, uncompared.
    while a <= last && want.first().is_some_and(|&v| v <= T::MAX) {
        let end = (a + COMPARE_STEP).min(last + 1);
        let mut w = [T::default(); COMPARE_AT];
        let k = want.iter().take_while(|&&v| v <= T::MAX).count();
        for (x, &v) in w.iter_mut().zip(want.iter()) {
            *x = T::from_u32(v);
        }
        // Pad with a repeat of a wanted value: the kernel compares with all K.
        for i in k..COMPARE_AT {
            w[i] = w[0];
        }
        let mut found = 0u32;
        for (m, top) in tops() {
            let hi = end.min(top + 1);
            if a >= hi {
                continue;
            }
            // G(a') for a <= a' < hi descending, as a forward slice of the mirror where it
            // reaches, paired with G(m - hi + 1 ..= m - a) ascending.
            let high = &values[m + 1 - hi..=m - a];
            let low = mirror.descending(a, hi);
            found |= if k <= 4 {
                compare::<T, 4>(
                    low,
                    &values[a..hi],
                    high,
                    w[..4].try_into().unwrap_or_default(),
                )
            } else if k <= 8 {
                compare::<T, 8>(
                    low,
                    &values[a..hi],
                    high,
                    w[..8].try_into().unwrap_or_default(),
                )
            } else {
                compare::<T, 16>(low, &values[a..hi], high, w)
            };
        }
        a = end;
        let mut i = 0;
        want.retain(|_| {
            i += 1;
            i > k || found >> (i - 1) & 1 == 0
        });
    }
}

/// Keeps the elements of `v` for which `f` holds, in order, without a branch per element (which
/// of them were seen is unpredictable, so `retain`'s branch mispredicts about half the time).
#[inline]
pub(super) fn keep(v: &mut Vec<u32>, f: impl Fn(u32) -> bool) {
    let mut kept = 0;
    for i in 0..v.len() {
        let x = v[i];
        v[kept] = x;
        kept += f(x) as usize;
    }
    v.truncate(kept);
}

/// The first [`MIRROR`] values in reverse order, so that the pairs (G(a), G(m - a)) of a run
/// of a are two forward slices.
pub(crate) struct Mirror<T> {
    rev: Vec<T>,
}

/// Values held reversed by [`Mirror`] (at most [`SPECULATE_FROM`], so that the mirror is
/// complete before speculation starts and read-only afterwards).
pub(super) const MIRROR: usize = 1 << 15;

impl<T: Cell> Mirror<T> {
    pub(super) fn new(values: &[T]) -> Mirror<T> {
        let mut m = Mirror {
            rev: vec![T::default(); MIRROR],
        };
        for (p, &v) in values.iter().enumerate().take(MIRROR) {
            m.set(p, v);
        }
        m
    }

    /// Records G(p) = v (ignored beyond the mirror).
    #[inline]
    pub(super) fn set(&mut self, p: usize, v: T) {
        if p < MIRROR {
            self.rev[MIRROR - 1 - p] = v;
        }
    }

    /// G(hi - 1), G(hi - 2), ..., G(a) (if all are mirrored).
    #[inline]
    pub(super) fn descending(&self, a: usize, hi: usize) -> Option<&[T]> {
        (hi <= MIRROR).then(|| &self.rev[MIRROR - hi..MIRROR - a])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The wanted values that are no G(a) ⊕ G(m-a), from the definition.
    fn unseen(values: &[u8], h: usize, two: &[(usize, bool)], want: &[u32]) -> Vec<u32> {
        let mut seen = std::collections::HashSet::new();
        for &(k, unequal) in two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            for a in 1..=m / 2 {
                if !(unequal && 2 * a == m) {
                    seen.insert(u32::from(values[a] ^ values[m - a]));
                }
            }
        }
        want.iter().copied().filter(|v| !seen.contains(v)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The scan (marking, then comparing, with and without the mirror: heaps beyond twice
        /// the mirror) leaves exactly the wanted values no pair forms.
        #[test]
        fn scan_pairs_leaves_the_values_no_pair_forms(
            seed in any::<u64>(),
            h in 3usize..80_000,
            spread in 1u8..=255,
            want_bits in any::<u64>(),
            unequal in any::<bool>(),
            k2 in 0usize..4,
            width in 8u32..12,
        ) {
            // Values in a small range so that some wanted values occur and some do not.
            let mut x = seed | 1;
            let values: Vec<u8> = (0..h)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % (u64::from(spread) + 1)) as u8 & spread
                })
                .collect();
            let two = [(1usize, unequal), (k2, false)];
            let want: Vec<u32> = (0..64).filter(|&v| want_bits >> v & 1 == 1).collect();
            let mirror = Mirror::new(&values);
            let mut got = want.clone();
            let mut scratch = Scratch::default();
            // Widths 2^8 (generic kernel) to 2^11 (the instantiated ones): all hold the values.
            scan_pairs(&values, &mirror, h, &two, 1 << width, &mut got, &mut scratch);
            prop_assert_eq!(got, unseen(&values, h, &two, &want));
        }

        #[test]
        fn keep_is_retain(v in proptest::collection::vec(0u32..100, 0..80), d in 1u32..5) {
            let mut a = v.clone();
            keep(&mut a, |x| x % d == 0);
            let mut b = v;
            b.retain(|x| x % d == 0);
            prop_assert_eq!(a, b);
        }
    }
}
