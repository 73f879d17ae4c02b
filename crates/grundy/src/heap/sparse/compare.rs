//! The comparison kernel of the pair scan: which of K wanted values are the xor of a pair,
//! lane-parallel, compiled for the processor's widest vectors.

use crate::heap::sequence::Cell;

/// Bit q set when w[q] = G(a') ⊕ G(m - a') for one of the pairs given either as two forward
/// slices `mirrored` (descending G(a')) and `high` paired index by index, or (when the mirror
/// does not reach) as `low` ascending paired with `high` read backwards. The mirrored form is
/// written over fixed chunks of 16 pairs without branches, so that the compiler turns each
/// chunk into a few vector xors and compares.
///
/// On x86-64 processors with AVX2 (detected at run time) the same code is compiled for 256-bit
/// vectors: twice the pairs per instruction of the SSE2 baseline; with AVX-512 BW and VL, for
/// the same vectors but 32 registers.
#[inline]
pub(super) fn compare<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the processor has AVX-512 F (implied by BW), BW and VL, checked above.
            return unsafe { compare_avx512(mirrored, low, high, w) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { compare_avx2(mirrored, low, high, w) };
        }
    }
    compare_body(mirrored, low, high, w)
}

/// [`compare_body`] compiled with AVX-512 (BW, VL) enabled: the same 256-bit operations, but
/// with 32 vector registers instead of 16, so the 16 accumulators of the K = 16 kernel, the
/// xors and the wanted values all stay in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(super) fn compare_avx512<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    compare_body(mirrored, low, high, w)
}

/// [`compare_body`] compiled with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn compare_avx2<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    compare_body(mirrored, low, high, w)
}

/// The portable body of [`compare`].
#[inline(always)]
pub(super) fn compare_body<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    const C: usize = 16;
    let mut found = [false; K];
    match mirrored {
        Some(low) => {
            let n = low.len().min(high.len());
            let (lc, lr) = low[..n].as_chunks::<C>();
            let (hc, hr) = high[..n].as_chunks::<C>();
            // acc[q][j] is the least x ⊕ w[q] seen in lane j: zero exactly when some pair's
            // xor x equals w[q]. A xor and an unsigned minimum per lane (two vector
            // instructions), where a comparison into booleans also needs narrowing.
            let mut acc = [[T::from_u32(T::MAX); C]; K];
            for (l, h) in lc.iter().zip(hc) {
                let mut x = [T::default(); C];
                for j in 0..C {
                    x[j] = l[j] ^ h[j];
                }
                for q in 0..K {
                    for j in 0..C {
                        acc[q][j] = acc[q][j].min(x[j] ^ w[q]);
                    }
                }
            }
            for (f, a) in found.iter_mut().zip(acc) {
                *f = a.contains(&T::default());
            }
            for (&x, &y) in lr.iter().zip(hr) {
                for (f, &wq) in found.iter_mut().zip(&w) {
                    *f |= x ^ y == wq;
                }
            }
        }
        None => {
            for (&x, &y) in low.iter().zip(high.iter().rev()) {
                for (f, &wq) in found.iter_mut().zip(&w) {
                    *f |= x ^ y == wq;
                }
            }
        }
    }
    found
        .iter()
        .enumerate()
        .fold(0, |bits, (q, &f)| bits | (f as u32) << q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Every compiled form of the comparison kernel (portable, AVX2, AVX-512 where the
        /// processor has them), mirrored or not, finds exactly the wanted values that are the
        /// xor of a pair, for K = 4, 8, 16.
        #[test]
        fn compare_kernels_find_the_pair_xors(
            low in proptest::collection::vec(0u16..64, 0..100),
            seed in any::<u64>(),
            w in proptest::array::uniform16(0u16..64),
        ) {
            let n = low.len();
            let high: Vec<u16> = (0..n).map(|i| ((seed >> (i % 60)) % 64) as u16).collect();
            // `low` descending (the mirrored form) is `rev` ascending.
            let rev: Vec<u16> = low.iter().rev().copied().collect();
            let expect = |k: usize| -> u32 {
                (0..k)
                    .filter(|&q| (0..n).any(|i| low[i] ^ high[i] == w[q]))
                    .fold(0, |b, q| b | 1 << q)
            };
            type Kernel<'a> = &'a dyn Fn(Option<&[u16]>, &[u16], &[u16]) -> [u32; 3];
            let check = |f: Kernel| (f(Some(&low), &rev, &high), f(None, &rev, &high));
            let portable: Kernel = &|m, l, h| {
                [
                    compare_body::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_body::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_body::<u16, 16>(m, l, h, w),
                ]
            };
            let mut kernels = vec![portable];
            // SAFETY (both): only called when the processor has the features, checked below.
            #[cfg(target_arch = "x86_64")]
            let avx2: Kernel = &|m, l, h| unsafe {
                [
                    compare_avx2::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_avx2::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_avx2::<u16, 16>(m, l, h, w),
                ]
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push(avx2);
            }
            #[cfg(target_arch = "x86_64")]
            let avx512: Kernel = &|m, l, h| unsafe {
                [
                    compare_avx512::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_avx512::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_avx512::<u16, 16>(m, l, h, w),
                ]
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                kernels.push(avx512);
            }
            let want = [expect(4), expect(8), expect(16)];
            for f in kernels {
                let (a, b) = check(f);
                prop_assert_eq!(a, want);
                prop_assert_eq!(b, want);
            }
        }
    }
}
