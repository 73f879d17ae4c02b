//! Any-size nimber arithmetic and the field algorithms, each beside a naive method:
//! the Karatsuba product beside the schoolbook four-product recursion, the conjugate inverse
//! beside Fermat's `a^(2^n - 2)`, the halving square root beside `2^n - 1` squarings, and the
//! Pohlig-Hellman logarithm beside walking the powers or a baby-step giant-step search over the
//! whole group.
//!
//! `cargo bench --bench nimber_algebra`

mod common;

use common::{header, median_time, row};
use grundy::nimber::big::mul_schoolbook;
use grundy::nimber::{algebra, Nim128, Nim64, NimBig, NimberField};
use std::collections::HashMap;

/// A deterministic stream of 64-bit words (xorshift).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn big(&mut self, bits: usize) -> NimBig {
        NimBig::from_words((0..bits / 64).map(|_| self.next()).collect())
    }
}

/// The least `x` with `a^x = b` by walking all powers of `a` (naive).
fn log_by_walking<T: NimberField>(a: &T, b: &T) -> Option<u64> {
    let mut p = T::one();
    for x in 0.. {
        if p == *b {
            return Some(x);
        }
        p = p.nim_mul(a);
        if p == T::one() {
            return None;
        }
    }
    None
}

/// Baby-step giant-step over the whole group `F_5*` of order `2^32 - 1`, with a hash map of
/// `2^16` baby steps (the method without Pohlig-Hellman).
fn log_by_plain_bsgs(a: Nim64, b: Nim64) -> Option<u64> {
    let n: u64 = (1 << 32) - 1;
    let m: u64 = 1 << 16;
    let mut baby = HashMap::with_capacity(m as usize);
    let mut p = Nim64(1);
    for j in 0..m {
        baby.entry(p).or_insert(j);
        p *= a;
    }
    let giant = p.inv()?;
    let mut walk = b;
    for i in 0..n.div_ceil(m) {
        if let Some(&j) = baby.get(&walk) {
            let x = i * m + j;
            // The least solution is x mod ord(a).
            return Some(x % a.order() as u64);
        }
        walk *= giant;
    }
    None
}

fn main() {
    let mut w = Words(0x9e37_79b9_7f4a_7c15);

    header("NimBig: products, inverses, square roots (2-core AMD EPYC VM)");
    for bits in [256usize, 1024, 4096] {
        let pairs: Vec<(NimBig, NimBig)> = (0..64).map(|_| (w.big(bits), w.big(bits))).collect();
        let fast = median_time(7, || pairs.iter().map(|(a, b)| a * b).collect::<Vec<_>>());
        let naive = median_time(3, || {
            pairs
                .iter()
                .map(|(a, b)| mul_schoolbook(a, b))
                .collect::<Vec<_>>()
        });
        row(
            &format!("{bits}-bit product: Karatsuba (naive: 4-product recursion)"),
            pairs.len() as u64,
            fast,
            Some(naive),
        );
    }
    for bits in [256usize, 1024, 4096] {
        let xs: Vec<NimBig> = (0..16).map(|_| w.big(bits)).collect();
        let fast = median_time(5, || xs.iter().map(|x| x.inv()).collect::<Vec<_>>());
        let naive = median_time(1, || {
            xs.iter().map(algebra::inv_by_fermat).collect::<Vec<_>>()
        });
        row(
            &format!("{bits}-bit inverse: conjugate recursion (naive: Fermat a^(2^n-2))"),
            xs.len() as u64,
            fast,
            Some(naive),
        );
        let fast = median_time(5, || xs.iter().map(|x| x.sqrt()).collect::<Vec<_>>());
        let naive = median_time(1, || {
            xs.iter()
                .map(algebra::sqrt_by_frobenius)
                .collect::<Vec<_>>()
        });
        row(
            &format!("{bits}-bit square root: halving (naive: 2^n-1 squarings)"),
            xs.len() as u64,
            fast,
            Some(naive),
        );
    }

    header("Discrete logarithms, Pohlig-Hellman + baby-step giant-step (2-core AMD EPYC VM)");
    // F_4 (2^16 nimbers): beside walking the powers.
    let pairs16: Vec<(Nim64, Nim64)> = (0..32)
        .map(|_| (Nim64(w.next() & 0xffff | 2), Nim64(w.next() & 0xffff | 1)))
        .collect();
    let fast = median_time(5, || {
        pairs16
            .iter()
            .map(|(a, b)| algebra::log(a, b).unwrap())
            .collect::<Vec<_>>()
    });
    let naive = median_time(3, || {
        pairs16
            .iter()
            .map(|(a, b)| log_by_walking(a, b))
            .collect::<Vec<_>>()
    });
    row(
        "log in F_4 = 2^16 (naive: walking the powers)",
        32,
        fast,
        Some(naive),
    );
    // F_5 (2^32 nimbers): beside BSGS over the whole group.
    let pairs32: Vec<(Nim64, Nim64)> = (0..4)
        .map(|_| {
            let a = Nim64(w.next() & 0xffff_ffff | 1 << 31);
            (a, a.pow(w.next() as u128))
        })
        .collect();
    for (a, b) in &pairs32 {
        let x = algebra::log(a, b).unwrap().unwrap();
        let plain = log_by_plain_bsgs(*a, *b).map(num_bigint::BigUint::from);
        assert_eq!(plain, Some(x), "the two logarithms disagree");
    }
    let fast = median_time(5, || {
        pairs32
            .iter()
            .map(|(a, b)| algebra::log(a, b).unwrap())
            .collect::<Vec<_>>()
    });
    let naive = median_time(1, || {
        pairs32
            .iter()
            .map(|(a, b)| log_by_plain_bsgs(*a, *b))
            .collect::<Vec<_>>()
    });
    row(
        "log in F_5 = 2^32 (naive: BSGS over the whole group)",
        4,
        fast,
        Some(naive),
    );
    // F_6 and F_7: no naive method is feasible (2^32 and 2^64 baby steps).
    let pairs64: Vec<(Nim64, Nim64)> = (0..4)
        .map(|_| {
            let a = Nim64(w.next() | 1 << 63);
            (a, a.pow(w.next() as u128))
        })
        .collect();
    let fast = median_time(3, || {
        pairs64
            .iter()
            .map(|(a, b)| algebra::log(a, b).unwrap())
            .collect::<Vec<_>>()
    });
    row("log in F_6 = 2^64 (largest prime 6700417)", 4, fast, None);
    let a = Nim128(((w.next() as u128) << 64) | w.next() as u128);
    let b = a.pow(((w.next() as u128) << 64) | w.next() as u128);
    let fast = median_time(1, || algebra::log(&a, &b).unwrap());
    row(
        "log in F_7 = 2^128 (largest prime 67280421310721)",
        1,
        fast,
        None,
    );
    let big = NimBig::from(a.0);
    let bigb = NimBig::from(b.0);
    let fast = median_time(1, || algebra::log(&big, &bigb).unwrap());
    row("log in F_7 through NimBig (any-size type)", 1, fast, None);
}
