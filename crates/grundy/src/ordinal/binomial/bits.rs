//! Bit strings as slices of words: the helpers of the tower's arithmetic.

pub(super) fn xor_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

pub(super) fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&w| w == 0)
}

/// Writes the low `bits` bits of `v` at bit `pos` of `out` (`bits ≤ 64`, the target zero).
pub(super) fn put_bits(out: &mut [u64], pos: usize, v: u64) {
    let (w, b) = (pos / 64, pos % 64);
    out[w] |= v << b;
    if b > 0 {
        let hi = v >> (64 - b);
        if hi != 0 {
            out[w + 1] |= hi;
        }
    }
}

/// Reads `bits ≤ 128` bits at bit `pos` of `a` (zero beyond its end).
pub(super) fn get_bits(a: &[u64], pos: usize, bits: usize) -> u128 {
    let (w, b) = (pos / 64, pos % 64);
    let g = |i: usize| a.get(i).copied().unwrap_or(0) as u128;
    let mut v = g(w) >> b;
    v |= g(w + 1) << (64 - b);
    if b > 0 {
        v |= g(w + 2) << (128 - b);
    }
    if bits < 128 {
        v &= (1u128 << bits) - 1;
    }
    v
}

/// The value of a product that cannot stop ([`Never`]'s error type has no values).
pub(super) fn unstoppable<T>(r: std::result::Result<T, std::convert::Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

/// Calls `f` with the index of every set bit of `a`.
pub(super) fn for_each_bit(a: &[u64], mut f: impl FnMut(usize)) {
    for (w, &x) in a.iter().enumerate() {
        let mut x = x;
        while x != 0 {
            f(64 * w + x.trailing_zeros() as usize);
            x &= x - 1;
        }
    }
}

/// `out ^= src·x^pos` (bits of `src` moved up by `pos`; `out` long enough).
pub(super) fn xor_shifted(out: &mut [u64], pos: usize, src: &[u64]) {
    let (w, b) = (pos / 64, pos % 64);
    for (i, &x) in src.iter().enumerate() {
        if x == 0 {
            continue;
        }
        out[w + i] ^= x << b;
        if b > 0 {
            out[w + i + 1] ^= x >> (64 - b);
        }
    }
}

/// The `bits` bits of `a` from bit `pos` into `out` (`⌈bits/64⌉` words; zero beyond `a`).
pub(super) fn read_bits(a: &[u64], pos: usize, bits: usize, out: &mut [u64]) {
    let (w, b) = (pos / 64, pos % 64);
    let g = |i: usize| a.get(i).copied().unwrap_or(0);
    for (i, o) in out.iter_mut().enumerate() {
        *o = if b == 0 {
            g(w + i)
        } else {
            (g(w + i) >> b) | (g(w + i + 1) << (64 - b))
        };
    }
    if !bits.is_multiple_of(64) {
        if let Some(o) = out.last_mut() {
            *o &= (1u64 << (bits % 64)) - 1;
        }
    }
}

/// The inverse of the `n × n` matrix over GF(2) given by its columns (`cw` words each), as its
/// columns; `None` if singular. Gauss–Jordan on the rows of `[A | I]`.
pub(super) fn invert_columns(cols: &[u64], n: usize, cw: usize) -> Option<Vec<u64>> {
    // Row r: bits j < n of A (A[r][j] = bit r of column j), then bits of I.
    let rw = 2 * cw;
    let mut rows = vec![0u64; n * rw];
    for j in 0..n {
        for_each_bit(&cols[j * cw..(j + 1) * cw], |r| {
            if r < n {
                rows[r * rw + j / 64] |= 1 << (j % 64);
            }
        });
    }
    for r in 0..n {
        rows[r * rw + cw + r / 64] |= 1 << (r % 64);
    }
    let bit = |rows: &[u64], r: usize, c: usize| (rows[r * rw + c / 64] >> (c % 64)) & 1 == 1;
    for c in 0..n {
        let p = (c..n).find(|&r| bit(&rows, r, c))?;
        if p != c {
            for t in 0..rw {
                rows.swap(p * rw + t, c * rw + t);
            }
        }
        let pivot: Vec<u64> = rows[c * rw..(c + 1) * rw].to_vec();
        for r in 0..n {
            if r != c && bit(&rows, r, c) {
                xor_into(&mut rows[r * rw..(r + 1) * rw], &pivot);
            }
        }
    }
    // Row j of the inverse is the right half of row j; column q has bit j = inverse[j][q].
    let mut inv = vec![0u64; n * cw];
    for j in 0..n {
        for_each_bit(&rows[j * rw + cw..(j + 1) * rw], |q| {
            inv[q * cw + j / 64] |= 1 << (j % 64);
        });
    }
    Some(inv)
}
