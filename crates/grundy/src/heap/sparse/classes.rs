//! The classes: a mask m makes a value v rare when popcount(v & m) is even, and the mask is
//! chosen from the histogram of the values by a Walsh-Hadamard transform.

/// Fast Walsh-Hadamard transform in place: a\[m\] ← Σ_v a\[v\]·(-1)^popcount(v & m). Each
/// butterfly (x, y) → (x + y, x − y) handles one bit of m; after all bits the sum holds.
pub fn walsh_hadamard(a: &mut [i64]) {
    let n = a.len();
    let mut h = 1;
    while h < n {
        for i in (0..n).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// Whether the classes may use the heap's parity as an extra bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// Chosen from the histogram with the value bits (the default).
    Auto,
    /// Always: classes by (value & mask, n mod 2).
    On,
    /// Never: classes by value & mask only.
    Off,
}

/// The class mask m ≠ 0 below `2b` (b a power of two) that makes the fewest positions rare,
/// from the histogram `hist` of length 2b: entry v + b·q counts the positions n with G(n) = v
/// and heap parity q. Bit log2(b) of m stands for the parity: a position is rare when
/// popcount(G(n) & m) + q·(that bit) is even. The Walsh-Hadamard transform of the histogram at
/// m is (#rare − #common) under m, so the least transform value wins; `parity` restricts m to
/// masks with (On) or without (Off) the parity bit.
pub fn choose_mask(hist: &[u64], b: usize, parity: Parity) -> u32 {
    let mut a: Vec<i64> = (0..2 * b)
        .map(|v| hist.get(v).copied().unwrap_or(0) as i64)
        .collect();
    walsh_hadamard(&mut a);
    let masks = match parity {
        Parity::Auto => 1..2 * b,
        Parity::On => b..2 * b,
        Parity::Off => 1..b,
    };
    masks.min_by_key(|&m| (a[m], m)).unwrap_or(1) as u32
}

#[inline(always)]
pub(super) fn is_rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_counts_rare_minus_common() {
        let hist = [3u64, 1, 4, 1, 5, 9, 2, 6];
        // With b = 4: the top bit of the index is the parity; the masks it allows follow.
        assert!(choose_mask(&hist, 4, Parity::On) >= 4);
        assert!(choose_mask(&hist, 4, Parity::Off) < 4);
        let mut a: Vec<i64> = hist.iter().map(|&x| x as i64).collect();
        walsh_hadamard(&mut a);
        for m in 0..8u32 {
            let direct: i64 = (0..8u32)
                .map(|v| {
                    let s = if is_rare(v, m) { 1 } else { -1 };
                    s * hist[v as usize] as i64
                })
                .sum();
            assert_eq!(a[m as usize], direct);
        }
    }
}
