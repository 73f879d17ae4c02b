//! The verification's scan over the two-heap splits: marking pairs while many rare values are
//! wanted, comparing each pair's xor with the last few ([`super::compare`]) after.

use super::compare::compare;
use crate::heap::sequence::Cell;

/// Marks for one heap: value v is marked when `stamp[v] == generation`, so starting the next
/// heap is one increment instead of clearing (and one clear every 255 heaps), and marking is a
/// plain store (no read of the old byte, so consecutive marks do not wait on each other).
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) stamp: Vec<u8>,
    pub(super) generation: u8,
    /// The wanted values of the marking phase of [`scan_pairs`], as (word w, bits): bit i of
    /// the word stands for value 64·w + i.
    pub(super) groups: Vec<(usize, u64)>,
}

impl Scratch {
    /// Unmarks everything and makes room for values below `bits` (at least one whole word of
    /// 64 values, for [`Scratch::marked_word`]).
    #[inline]
    pub(super) fn next(&mut self, bits: usize) {
        let len = bits.next_multiple_of(64).max(64);
        if self.stamp.len() < len {
            self.stamp.resize(len, 0);
        }
        if self.generation == u8::MAX {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// The marks of values 64·w to 64·w + 63 as a word, bit i for value 64·w + i (w below
    /// the length given to [`Scratch::next`] over 64, rounded up).
    #[inline]
    pub(super) fn marked_word(&self, w: usize) -> u64 {
        let chunk = self.stamp[64 * w..][..64].try_into().expect("64 stamps");
        equal_bits(chunk, self.generation)
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

    /// Whether v is marked (the tests' reference for [`Scratch::marked_word`]).
    #[cfg(test)]
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
    if a <= last && want.len() > COMPARE_AT {
        // The wanted values as words of 64 (`want` is ascending, so each word's values are
        // consecutive): one look at the marks costs a comparison of 64 stamps at a time per
        // word instead of a load per wanted value.
        let mut groups = std::mem::take(&mut scratch.groups);
        groups.clear();
        // The word being filled stays in registers until the next one starts.
        let mut word = (usize::MAX, 0u64);
        for &v in want.iter() {
            let w = v as usize / 64;
            if w != word.0 {
                if word.1 != 0 {
                    groups.push(word);
                }
                word = (w, 0);
            }
            word.1 |= 1u64 << (v % 64);
        }
        if word.1 != 0 {
            groups.push(word);
        }
        let mut left = want.len();
        while a <= last && left > COMPARE_AT {
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
            left = 0;
            groups.retain_mut(|(w, b)| {
                *b &= !scratch.marked_word(*w);
                left += b.count_ones() as usize;
                *b != 0
            });
        }
        // Back to the ascending list, written through a slice of its final length.
        want.resize(left, 0);
        let mut out = want.iter_mut();
        for &(w, mut b) in &groups {
            while b != 0 {
                if let Some(x) = out.next() {
                    *x = (64 * w) as u32 + b.trailing_zeros();
                }
                b &= b - 1;
            }
        }
        scratch.groups = groups;
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

/// Bit i set when `chunk[i] == g`: on x86-64 four SSE2 byte comparisons and mask moves (part of
/// the base instruction set), elsewhere the loop over the bytes.
#[inline]
pub(super) fn equal_bits(chunk: &[u8; 64], g: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        let mut bits = 0u64;
        // SAFETY: SSE2 is part of x86-64, and each load reads the 16 bytes of `part`
        // (unaligned loads).
        unsafe {
            let gv = _mm_set1_epi8(g as i8);
            for (i, part) in chunk.as_chunks::<16>().0.iter().enumerate() {
                let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
                let m = _mm_movemask_epi8(_mm_cmpeq_epi8(v, gv)) as u32 & 0xffff;
                bits |= u64::from(m) << (16 * i);
            }
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        equal_bits_scalar(chunk, g)
    }
}

/// The definition of [`equal_bits`], byte by byte.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
pub(super) fn equal_bits_scalar(chunk: &[u8; 64], g: u8) -> u64 {
    chunk
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &s)| bits | u64::from(s == g) << i)
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

        /// The word of marks is the byte-by-byte comparison, whatever the bytes and the
        /// generation (equal bytes placed at random, so that every bit pattern occurs).
        #[test]
        fn equal_bits_is_its_definition(
            bytes in proptest::collection::vec(any::<u8>(), 64),
            hits in any::<u64>(),
            g in any::<u8>(),
        ) {
            let mut chunk: [u8; 64] = bytes.try_into().unwrap();
            for (i, b) in chunk.iter_mut().enumerate() {
                if hits >> i & 1 == 1 {
                    *b = g;
                }
            }
            let want = (0..64).fold(0u64, |w, i| w | u64::from(chunk[i] == g) << i);
            prop_assert_eq!(equal_bits(&chunk, g), want);
            prop_assert_eq!(equal_bits_scalar(&chunk, g), want);
        }
    }
}
