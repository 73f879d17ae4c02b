//! Slow nim products written straight from the definitions, against which every fast path is
//! tested.
//!
//! Two independent references:
//! - [`mul_mex_table`]: Conway's definition `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`
//!   tabulated for `a, b < 256` (the field `F_3` of 256 nimbers is closed, so the table is complete).
//! - [`mul_u128`] / [`mul_u64`]: the recursion on halves from the Fermat 2-power rules, with no
//!   tables, no Karatsuba and no shortcuts.
//!
//! These are deliberately simple; they are not meant to be fast.

use std::sync::OnceLock;

/// The nim-multiplication table for `a, b < 256` computed from the mex definition
/// `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`, as `table[a][b]`.
///
/// Entries are filled in increasing `a`, then `b`, so every option refers to entries already
/// known. Every option of `a ⊗ b` is a product of numbers below 256, hence below 256 itself (the
/// nimbers below `2^8` form a field), so a 256-bit set suffices for the mex. The product is
/// commutative by the symmetry of the definition, which halves the work: only `b <= a` is
/// computed from the definition and the rest is mirrored. Computed once (about a billion xor
/// steps) and cached.
pub fn mul_mex_table() -> &'static [[u8; 256]; 256] {
    static TABLE: OnceLock<Box<[[u8; 256]; 256]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; 256]; 256]);
        for a in 0..256 {
            for b in 0..=a {
                let mut seen = [0u64; 4];
                for a2 in 0..a {
                    let row = &t[a2];
                    let left = row[b];
                    for b2 in 0..b {
                        let v = (left ^ t[a][b2] ^ row[b2]) as usize;
                        seen[v >> 6] |= 1 << (v & 63);
                    }
                }
                let mut mex = 0usize;
                while seen[mex >> 6] & (1 << (mex & 63)) != 0 {
                    mex += 1;
                }
                t[a][b] = mex as u8;
                t[b][a] = mex as u8;
            }
        }
        t
    })
}

/// The nim-product of `a, b < 2^(2^level)`, recursively on halves.
///
/// With `T = 2^(2^(level-1))` (a Fermat 2-power, so `T ⊗ T = T ⊕ T/2` and `x ⊗ T = x·T` for
/// `x < T`), write `a = ah·T ⊕ al`, `b = bh·T ⊕ bl` with halves below `T`. Distributing,
/// `a ⊗ b = (ah⊗bh)⊗(T ⊕ T/2) ⊕ (ah⊗bl ⊕ al⊗bh)⊗T ⊕ al⊗bl`
/// `      = (ah⊗bh ⊕ ah⊗bl ⊕ al⊗bh)·T ⊕ (al⊗bl ⊕ (ah⊗bh)⊗(T/2))`,
/// all products now between numbers below `T`. At level 0 the field is `{0, 1}` and `⊗` is `and`.
fn mul_level(a: u128, b: u128, level: u32) -> u128 {
    if level == 0 {
        return a & b;
    }
    let half = 1u32 << (level - 1); // T = 2^half
    let mask = (1u128 << half) - 1;
    let (ah, al) = (a >> half, a & mask);
    let (bh, bl) = (b >> half, b & mask);
    let hh = mul_level(ah, bh, level - 1);
    let high = hh ^ mul_level(ah, bl, level - 1) ^ mul_level(al, bh, level - 1);
    let low = mul_level(al, bl, level - 1) ^ mul_level(hh, 1u128 << (half - 1), level - 1);
    (high << half) | low
}

/// The nim-product of two nimbers below `2^128`, from the Fermat 2-power recursion (slow: about
/// 80 000 elementary steps).
pub fn mul_u128(a: u128, b: u128) -> u128 {
    mul_level(a, b, 7)
}

/// The nim-product of two nimbers below `2^16`, from the Fermat 2-power recursion (about 600
/// elementary steps).
pub fn mul_u16(a: u16, b: u16) -> u16 {
    mul_level(a as u128, b as u128, 4) as u16
}

/// The nim-product of two nimbers below `2^64`, from the Fermat 2-power recursion (slow: about
/// 16 000 elementary steps).
pub fn mul_u64(a: u64, b: u64) -> u64 {
    mul_level(a as u128, b as u128, 6) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recursion_agrees_with_mex_definition_below_256() {
        let t = mul_mex_table();
        for a in 0..256u64 {
            for b in 0..256u64 {
                assert_eq!(mul_u64(a, b), t[a as usize][b as usize] as u64, "{a} ⊗ {b}");
            }
        }
    }

    #[test]
    fn published_values() {
        // 8 ⊗ n for n = 1..16 (Conway, On Numbers and Games; OEIS A051775 row 8).
        let expect = [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128];
        let t = mul_mex_table();
        for (n, &e) in (1..=16u64).zip(expect.iter()) {
            assert_eq!(mul_u64(8, n), e);
            if n < 16 {
                assert_eq!(t[8][n as usize] as u64, e);
            }
        }
        // Fermat 2-powers: F ⊗ F = 3/2·F.
        for k in 0..7 {
            let f = 1u128 << (1 << k);
            assert_eq!(mul_u128(f, f), f + f / 2, "2^(2^{k}) squared");
        }
        // Products of distinct Fermat 2-powers are ordinary products.
        assert_eq!(mul_u128(1 << 64, 1 << 32), 1 << 96);
        assert_eq!(mul_u64(1 << 16, 1 << 4), 1 << 20);
    }

    #[test]
    fn mul_u64_is_mul_u128_below_2_64() {
        let xs = [
            0u64,
            1,
            2,
            3,
            255,
            256,
            65535,
            1 << 32,
            u64::MAX,
            0x1234_5678_9abc_def0,
        ];
        for &a in &xs {
            for &b in &xs {
                assert_eq!(mul_u64(a, b) as u128, mul_u128(a as u128, b as u128));
            }
        }
    }
}
