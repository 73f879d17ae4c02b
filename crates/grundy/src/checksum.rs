//! The checksum of the files the library and the command line write (checkpoints, caches,
//! saved tables) and the digest of the inputs they stand for: 64-bit FNV-1a, by the `fnv`
//! crate, and over 64-bit words for files of gigabytes ([`fnv1a_words`]).
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

/// 64-bit FNV-1a continued from `h` over 64-bit words instead of bytes (the checksum of the
/// large files, such as a saved transposition table): each word is mixed in as FNV-1a mixes a
/// byte, `h = (h ⊕ w) · 0x100000001b3 mod 2^64`. The product by an odd number is a bijection
/// of the 64-bit words, so changing one word always changes the sum; it reads gigabytes eight
/// times faster than byte by byte.
pub fn fnv1a_words(mut h: u64, words: impl IntoIterator<Item = u64>) -> u64 {
    for w in words {
        h = (h ^ w).wrapping_mul(0x100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::{fnv1a, fnv1a_words};

    /// Over words, from the byte sum of a header: the definition word by word, and one word
    /// changed anywhere changes the sum.
    #[test]
    fn fnv1a_over_words_follows_its_definition() {
        let words: Vec<u64> = (0..100u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let start = fnv1a(b"header");
        let definition = words
            .iter()
            .fold(start, |h, &w| (h ^ w).wrapping_mul(0x100_0000_01b3));
        let sum = fnv1a_words(start, words.iter().copied());
        assert_eq!(sum, definition);
        for i in [0, 37, 99] {
            let mut changed = words.clone();
            changed[i] ^= 1 << (i % 64);
            assert_ne!(fnv1a_words(start, changed), sum);
        }
    }

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
