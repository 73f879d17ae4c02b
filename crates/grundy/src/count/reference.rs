//! Definition-level implementations, slow and obviously right, to test the fast ones against:
//! the transform as a sum over all pairs, the textbook butterfly loop, xor convolution as a
//! double sum, convolution powers by repeated squaring of that double sum, and brute-force
//! enumeration of tuples and multisets of heaps.

use super::wht::Butterfly;
use num_bigint::{BigInt, BigUint};

/// `â(y) = Σ_x (-1)^{popcount(x & y)} a(x)`, straight from the definition (quadratic).
pub fn wht_definition(a: &[i64]) -> Vec<i64> {
    (0..a.len())
        .map(|y| {
            a.iter()
                .enumerate()
                .map(|(x, &v)| if (x & y).count_ones() % 2 == 0 { v } else { -v })
                .sum()
        })
        .collect()
}

/// The textbook in-place transform: for each level, for each block, for each pair, one
/// butterfly. No blocking, no threads: what the fast kernel is measured against.
pub fn wht_textbook<A: Butterfly>(a: &mut [A::E], ar: &A) {
    let n = a.len();
    let mut h = 1;
    while h < n {
        let mut i = 0;
        while i < n {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = ar.add(x, y);
                a[j + h] = ar.sub(x, y);
            }
            i += 2 * h;
        }
        h *= 2;
    }
}

/// `c[z] = Σ_{x ⊕ y = z} a[x]·b[y] mod q`, as a double sum (length: the power of two covering
/// both inputs).
pub fn xor_convolution_quadratic_mod(a: &[u64], b: &[u64], q: u64) -> Vec<u64> {
    let f = a.len().max(b.len()).max(1).next_power_of_two();
    let mut c = vec![0u128; f];
    for (x, &ax) in a.iter().enumerate() {
        for (y, &by) in b.iter().enumerate() {
            let z = &mut c[x ^ y];
            *z = (*z + ax as u128 % q as u128 * (by as u128 % q as u128)) % q as u128;
        }
    }
    c.into_iter().map(|v| v as u64).collect()
}

/// The exact xor convolution of integer sequences, as a double sum.
pub fn xor_convolution_quadratic_exact(a: &[i64], b: &[i64]) -> Vec<BigInt> {
    let f = a.len().max(b.len()).max(1).next_power_of_two();
    let mut c = vec![BigInt::default(); f];
    for (x, &ax) in a.iter().enumerate() {
        for (y, &by) in b.iter().enumerate() {
            c[x ^ y] += BigInt::from(ax) * by;
        }
    }
    c
}

/// The `k`-th xor convolution power of `h` modulo `q` by repeated squaring of double-sum
/// convolutions (`k` any size; `h^0` is the unit `e_0`). No transform is involved, so this is
/// an independent check of the transform route; it costs `O(F² log k)`.
pub fn xor_power_by_squaring_mod(h: &[u64], k: &BigUint, q: u64) -> Vec<u64> {
    let f = h.len().max(1).next_power_of_two();
    let mut result = vec![0u64; f];
    result[0] = 1 % q;
    let mut base: Vec<u64> = h.iter().map(|x| x % q).collect();
    base.resize(f, 0);
    for i in 0..k.bits() {
        if k.bit(i) {
            result = xor_convolution_quadratic_mod(&result, &base, q);
        }
        if i + 1 < k.bits() {
            base = xor_convolution_quadratic_mod(&base, &base, q);
        }
    }
    result
}

/// `F^{-1} Σ_y (-1)^{popcount(target & y)} ĥ(y)^k mod q` for an odd `q < 2^32`, written
/// without the fast kernel or Montgomery arithmetic: textbook butterflies on residues with `%`,
/// powers by square-and-multiply with `%`, and `F^{-1} = ((q+1)/2)^d`.
pub fn count_by_textbook_transform(counts: &[u128], k: &BigUint, target: usize, q: u64) -> u64 {
    assert!(q % 2 == 1 && q < 1 << 32, "odd modulus below 2^32");
    let f = counts.len().max(1).next_power_of_two();
    let mut a: Vec<u64> = vec![0; f];
    for (x, &c) in a.iter_mut().zip(counts) {
        *x = (c % q as u128) as u64;
    }
    let mut h = 1;
    while h < f {
        for i in (0..f).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = (x + y) % q;
                a[j + h] = (x + q - y) % q;
            }
        }
        h *= 2;
    }
    let pow = |x: u64, e: &BigUint| {
        let mut acc = 1 % q;
        for i in (0..e.bits()).rev() {
            acc = acc * acc % q;
            if e.bit(i) {
                acc = acc * x % q;
            }
        }
        acc
    };
    let mut sum = 0u64;
    for (y, &v) in a.iter().enumerate() {
        let p = pow(v, k);
        sum = if (target & y).count_ones() % 2 == 1 {
            (sum + q - p) % q
        } else {
            (sum + p) % q
        };
    }
    let half = q.div_ceil(2); // the inverse of 2 modulo odd q
    let inv_f = pow(half, &BigUint::from(f.trailing_zeros()));
    sum * inv_f % q
}

/// The number of `k`-tuples of heaps (heap `i` having Grundy value `values[i]`) whose values xor
/// to each possible nim-sum, by enumerating all `values.len()^k` tuples.
pub fn tuples_by_enumeration(values: &[u64], k: usize) -> Vec<u128> {
    let f = values
        .iter()
        .max()
        .map_or(1, |&m| (m + 1).next_power_of_two()) as usize;
    let mut dist = vec![0u128; f];
    let n = values.len();
    if n == 0 {
        if k == 0 {
            dist[0] = 1;
        }
        return dist;
    }
    // An odometer over the k positions.
    let mut idx = vec![0usize; k];
    loop {
        let x = idx.iter().fold(0u64, |acc, &i| acc ^ values[i]);
        dist[x as usize] += 1;
        let mut p = 0;
        loop {
            if p == k {
                return dist;
            }
            idx[p] += 1;
            if idx[p] < n {
                break;
            }
            idx[p] = 0;
            p += 1;
        }
    }
}

/// The number of multisets of `k` heaps (heaps are distinct objects; heap `i` has value
/// `values[i]`) whose values xor to each nim-sum, by enumerating non-decreasing index sequences.
pub fn multisets_by_enumeration(values: &[u64], k: usize) -> Vec<u128> {
    let f = values
        .iter()
        .max()
        .map_or(1, |&m| (m + 1).next_power_of_two()) as usize;
    let mut dist = vec![0u128; f];
    fn rec(values: &[u64], from: usize, left: usize, acc: u64, dist: &mut [u128]) {
        if left == 0 {
            dist[acc as usize] += 1;
            return;
        }
        for i in from..values.len() {
            rec(values, i, left - 1, acc ^ values[i], dist);
        }
    }
    rec(values, 0, k, 0, &mut dist);
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_small_cases_by_hand() {
        // Heaps with values 0, 1, 1: pairs (ordered) with xor 0: (0,0),(1,1),(1,1'),(1',1),(1',1').
        assert_eq!(tuples_by_enumeration(&[0, 1, 1], 2), vec![5, 4]);
        // Multisets of size 2: {0,0},{1,1},{1,1'},{1',1'} xor 0; {0,1},{0,1'} xor 1.
        assert_eq!(multisets_by_enumeration(&[0, 1, 1], 2), vec![4, 2]);
        assert_eq!(tuples_by_enumeration(&[], 0), vec![1]);
        assert_eq!(multisets_by_enumeration(&[3], 0), vec![1, 0, 0, 0]);
    }

    #[test]
    fn squaring_power_equals_enumeration() {
        let values = [0u64, 1, 2, 2, 3, 1, 0];
        let mut h = vec![0u64; 4];
        for &v in &values {
            h[v as usize] += 1;
        }
        for k in 0..5 {
            let want: Vec<u64> = tuples_by_enumeration(&values, k)
                .iter()
                .map(|&x| (x % 1000) as u64)
                .collect();
            assert_eq!(xor_power_by_squaring_mod(&h, &BigUint::from(k), 1000), want);
        }
    }
}
