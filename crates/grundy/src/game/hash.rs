//! A fast, non-cryptographic hasher for memo tables keyed by game positions.
//!
//! Positions are small values (integers, tuples, short vectors) produced by our own move
//! generators, so resistance to hash flooding is not needed, and the standard SipHash costs
//! more than the rest of a memo lookup. This is the multiply-rotate scheme used by the Rust
//! compiler's "Fx" hash: for each 64-bit word `w` of input, `h = (rotl(h, 5) ^ w) · K` with the
//! odd constant `K = 0x51_7c_c1_b7_27_22_0a_95` (derived from the golden ratio).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The multiply-rotate hasher described in the module documentation.
#[derive(Clone, Copy, Default, Debug)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // A final mixing step spreads the high bits of the product into the low bits that
        // hashbrown uses to pick a bucket.
        let h = self.hash;
        (h ^ (h >> 29)).wrapping_mul(K) ^ (h >> 32)
    }
}

/// A `HashMap` using [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
