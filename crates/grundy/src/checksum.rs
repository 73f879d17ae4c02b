//! The checksum of the files the library and the command line write (checkpoints, caches) and
//! the digest of the inputs they stand for: 64-bit FNV-1a, by the `fnv` crate.
//!
//! FNV-1a starts from the offset basis `0xcbf29ce484222325` and, for each byte `b`, sets
//! `h = (h xor b) · 0x100000001b3 mod 2^64`. It guards against files cut short or altered by
//! accident (a crash while writing, an edit), not against a forger: every reader also checks
//! what it takes for consistency.

use std::hash::Hasher;

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    /// The published test vectors of FNV-1a (the reference page of Fowler, Noll and Vo), and
    /// the definition byte by byte.
    #[test]
    fn fnv1a_matches_its_test_vectors_and_definition() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        let definition = |bytes: &[u8]| {
            bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            })
        };
        let text: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        assert_eq!(fnv1a(&text), definition(&text));
    }
}
