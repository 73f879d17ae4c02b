//! Every engine against the reference (published values are in `tests/published.rs`).

use super::naive;
use super::reference;
use super::sequence::{compute, compute_with, Sequence, SequenceEngine};
use super::sparse;
use super::HeapGame;
use crate::control::Control;
use crate::game::spec::{GameSpec, TakeBreak};
use proptest::prelude::*;

fn rule(game: &str) -> HeapGame {
    game.parse::<HeapGame>().unwrap()
}

fn heap_game(game: &str) -> HeapGame {
    game.parse().unwrap()
}

fn seq(game: &str, n: u64, engine: SequenceEngine) -> Vec<u32> {
    compute_with(&rule(game), n, engine, &Control::none())
        .unwrap()
        .to_vec()
}

fn reference(game: &str, n: usize) -> Vec<u32> {
    reference::sequence(&rule(game), n).unwrap()
}

/// All three engines agree with the reference on `r` for `n` values, and naive with sparse on
/// `long` values.
fn cross_check(r: &HeapGame, n: usize, long: u64) {
    let want = reference::sequence(r, n).unwrap();
    for e in [
        SequenceEngine::Naive,
        SequenceEngine::Sparse,
        SequenceEngine::Auto,
    ] {
        let got = compute_with(r, n as u64, e, &Control::none())
            .unwrap()
            .to_vec();
        assert_eq!(got, want, "{r:?} engine {e:?}");
    }
    if long > n as u64 {
        let a = compute_with(r, long, SequenceEngine::Naive, &Control::none()).unwrap();
        let b = compute_with(r, long, SequenceEngine::Sparse, &Control::none()).unwrap();
        assert_eq!(a.to_vec(), b.to_vec(), "{r:?} naive vs sparse");
        // The classes with the heap's parity as an extra bit, forced on and off.
        for parity in [sparse::Parity::On, sparse::Parity::Off] {
            let mut v: Vec<u32> = Vec::new();
            sparse::extend_with(r, &mut v, long as usize, &Control::none(), parity).unwrap();
            assert_eq!(a.to_vec(), v, "{r:?} naive vs sparse, parity {parity:?}");
        }
    }
}

#[test]
fn every_octal_code_with_three_digits() {
    for code in 0..512u32 {
        let digits = [
            0,
            (code >> 6) as u8,
            (code >> 3 & 7) as u8,
            (code & 7) as u8,
        ];
        let r = HeapGame::from_spec(GameSpec::TakeBreak(TakeBreak::new(&digits).unwrap())).unwrap();
        cross_check(&r, 40, 300);
    }
}

#[test]
fn codes_splitting_without_removal() {
    for code in 0..64u32 {
        let digits = [4, (code >> 3) as u8, (code & 7) as u8];
        let r = HeapGame::from_spec(GameSpec::TakeBreak(TakeBreak::new(&digits).unwrap())).unwrap();
        cross_check(&r, 40, 300);
    }
}

#[test]
fn hexadecimal_codes_sample() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for _ in 0..60 {
        let d0 = [0u8, 4, 8, 12][rng.gen_range(0..4)];
        let digits = [
            d0,
            rng.gen_range(0..16),
            rng.gen_range(0..16),
            rng.gen_range(0..16),
        ];
        let r = HeapGame::from_spec(GameSpec::TakeBreak(TakeBreak::new(&digits).unwrap())).unwrap();
        cross_check(&r, 30, 0);
    }
    // Long enough for the pair table to be rebuilt as values outgrow their bound.
    let r = rule("octal:0.FFF");
    assert_eq!(
        compute_with(&r, 70, SequenceEngine::Naive, &Control::none())
            .unwrap()
            .to_vec(),
        reference::sequence(&r, 70).unwrap()
    );
}

#[test]
fn grundys_game() {
    cross_check(&rule("grundys-game"), 80, 3000);
}

#[cfg(feature = "script")]
#[test]
fn scripts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("floor.rhai");
    std::fs::write(
        &path,
        "fn options(n) { let r = []; for d in 2..=6 { r.push([n / d]); } r }",
    )
    .unwrap();
    let script = seq(
        &format!("script:{}", path.display()),
        500,
        SequenceEngine::Auto,
    );
    assert_eq!(script, seq("divide:2,3,4,5,6", 500, SequenceEngine::Auto));
    assert_eq!(script, reference("divide:2,3,4,5,6", 500));
}

#[cfg(not(feature = "script"))]
#[test]
fn scripts_need_the_script_feature() {
    let e = "script:rules.rhai".parse::<HeapGame>().unwrap_err();
    assert!(
        matches!(&e, crate::error::Error::Invalid(m) if m.contains("`script` feature")),
        "{e:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn subtraction_sets(parts in prop::collection::vec((1u64..40, 0u64..12), 1..5)) {
        let text: Vec<String> = parts
            .iter()
            .map(|&(a, w)| if w == 0 { a.to_string() } else { format!("{a}-{}", a + w) })
            .collect();
        let game = format!("sub:{}", text.join(","));
        prop_assert_eq!(seq(&game, 300, SequenceEngine::Naive), reference(&game, 300));
    }

    #[test]
    fn divide_sets(ds in prop::collection::vec(2u64..20, 1..5)) {
        let text: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
        let game = format!("divide:{}", text.join(","));
        let want = reference(&game, 400);
        prop_assert_eq!(&seq(&game, 400, SequenceEngine::Naive), &want);
        let GameSpec::Divide(d) = crate::notation::game::parse_game(&game).unwrap() else {
            unreachable!()
        };
        let mut memo = std::collections::HashMap::new();
        for (n, &w) in want.iter().enumerate() {
            prop_assert_eq!(super::position::divide_value(&d, n as u64, &mut memo), w as u64);
        }
    }
}

#[test]
fn values_wider_than_a_byte() {
    // G(n) = n mod 1001 for sub:1-1000: values up to 1000 force u16 cells.
    let s = compute(&heap_game("sub:1-1000"), 3000, &Control::none()).unwrap();
    assert!(matches!(s, Sequence::U16(_)));
    assert!((0..3000).all(|n| s.get(n) == (n % 1001) as u32));
    assert_eq!(
        seq("sub:1-1000", 1200, SequenceEngine::Naive),
        reference("sub:1-1000", 1200)
    );
    let s = compute(&heap_game("nim"), 70_000, &Control::none()).unwrap();
    assert!(matches!(s, Sequence::U32(_)));
    assert_eq!(s.get(69_999), 69_999);
    // A huge range is stored as one range, not a million elements.
    let s = compute(&heap_game("sub:1-1000000"), 2000, &Control::none()).unwrap();
    assert!((0..2000).all(|n| s.get(n) == n as u32));
}

#[test]
fn limits_are_errors() {
    let e = compute(
        &heap_game("nim"),
        super::sequence::MAX_LEN + 1,
        &Control::none(),
    )
    .unwrap_err();
    assert!(matches!(e, crate::Error::Limit(_)));
    let n = super::sequence::MAX_LEN_THREE_HEAPS + 1;
    let e = compute(&heap_game("octal:0.8"), n, &Control::none()).unwrap_err();
    assert!(matches!(e, crate::Error::Limit(_)));
}

#[test]
fn subtract_a_square_naive_equals_reference() {
    assert_eq!(
        seq("squares", 500, SequenceEngine::Naive),
        reference("squares", 500)
    );
}

#[test]
fn officers_sparse_equals_naive() {
    let a = seq("officers", 20_000, SequenceEngine::Sparse);
    let b = seq("officers", 20_000, SequenceEngine::Naive);
    assert_eq!(a, b);
    assert_eq!(&a[..40], &reference("officers", 40)[..]);
}

#[test]
fn naive_xor_permute_is_used_for_wide_values() {
    // Values beyond 64 exercise the word-level translation of the pair table.
    let r = rule("octal:0.8F");
    let mut v: Vec<u32> = Vec::new();
    naive::extend(&r, &mut v, 120, &Control::none()).unwrap();
    assert_eq!(v, reference::sequence(&r, 120).unwrap());
}

/// Beyond 2^15 heaps the sparse engine speculates in blocks; .127 still has rare values up to
/// n = 46577, so blocks fail and are redone: the result must equal the naive engine's.
#[test]
fn speculative_blocks_equal_naive() {
    // .127 and Kayles have two split digits each (the verification scans them together); 0.07
    // has no sparse space and takes the naive step inside the sparse engine.
    // Grundy's game splits into unequal heaps only (r = m/2 is no move in the rare passes).
    for game in [
        "octal:0.127",
        "kayles",
        "octal:0.07",
        "officers",
        "grundys-game",
    ] {
        let a = seq(game, 50_000, SequenceEngine::Sparse);
        let b = seq(game, 50_000, SequenceEngine::Naive);
        assert_eq!(a, b, "{game}");
    }
}

#[test]
fn extending_a_sequence_equals_computing_it() {
    for (game, len) in [
        ("officers", 6000),
        ("sub:1-300", 6000),
        ("octal:0.8F", 600),
        ("grundys-game", 6000),
    ] {
        let r = heap_game(game);
        let full = compute(&r, len, &Control::none()).unwrap();
        let mut s = compute(&r, 100, &Control::none()).unwrap();
        for n in [len / 5, len / 2, len] {
            s = super::sequence::extend(&r, s, n, &Control::none()).unwrap();
        }
        assert_eq!(s.to_vec(), full.to_vec(), "{game}");
    }
}
