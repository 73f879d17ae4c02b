//! A program's own heap rule runs in the same engines as the rules of the notation: the same
//! sequences, periods (proved when a shape is declared), values of huge heaps, positions, hints
//! and misère quotients as the built-in rule it imitates. The imitations are written here from
//! the games' definitions, sharing no code with the library's rules.

use super::rule::{HeapRule, Options};
use super::HeapGame;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::pattern::periodic::Theorem;
use num_bigint::BigUint;

/// Kayles from its definition: knock down one pin or two adjacent pins of a row of `n`, leaving
/// the pins to the left and to the right of the gap. Declares its shape when asked to.
struct Kayles {
    declare: bool,
}

impl HeapRule for Kayles {
    fn options(&self, n: u64, out: &mut Options) -> Result<()> {
        for k in 1..=2u64.min(n) {
            for left in 0..=(n - k) {
                let right = n - k - left;
                if left <= right {
                    out.push(&[left, right]);
                }
            }
        }
        Ok(())
    }

    fn shape(&self) -> Option<Theorem> {
        self.declare.then_some(Theorem::TakeBreak { h: 2, t: 2 })
    }
}

fn kayles(declare: bool) -> HeapGame {
    HeapGame::custom("my-kayles", Kayles { declare })
}

fn built_in() -> HeapGame {
    "kayles".parse().unwrap()
}

#[test]
fn the_sequence_is_the_built_in_one() {
    let ctl = Control::none();
    let mine = super::sequence::compute(&kayles(false), 400, &ctl).unwrap();
    let theirs = super::sequence::compute(&built_in(), 400, &ctl).unwrap();
    assert_eq!(mine.to_vec(), theirs.to_vec());
}

#[test]
fn a_declared_shape_proves_the_period_as_the_notation_does() {
    let ctl = Control::none();
    let mine = crate::pattern::value::analyze(&kayles(true), 5000, &ctl).unwrap();
    let theirs = crate::pattern::value::analyze(&built_in(), 5000, &ctl).unwrap();
    assert!(mine.proved, "{mine:?}");
    assert_eq!(mine.period, theirs.period);
    assert_eq!(
        mine.proof.as_ref().map(|p| p.theorem),
        Some(Theorem::TakeBreak { h: 2, t: 2 })
    );
    assert_eq!(mine.game, "my-kayles");
    // Period 12 from heap 71 (Guy and Smith).
    let p = mine.period.unwrap();
    assert_eq!((p.preperiod, p.period), (71, 12));
}

#[test]
fn without_a_shape_the_period_is_found_but_not_proved() {
    let a = crate::pattern::value::analyze(&kayles(false), 3000, &Control::none()).unwrap();
    assert!(!a.proved);
    let p = a.period.unwrap();
    assert_eq!((p.preperiod, p.period), (71, 12));
}

#[test]
fn values_of_huge_heaps_follow_the_proved_period() {
    let ctl = Control::none();
    let huge = vec![BigUint::from(10u64).pow(18), BigUint::from(12345u64)];
    let mine = crate::pattern::value::values(&kayles(true), &huge, 5000, &ctl).unwrap();
    let theirs = crate::pattern::value::values(&built_in(), &huge, 5000, &ctl).unwrap();
    assert_eq!(mine, theirs);
    // Without a proof a heap beyond the values computed is refused, not guessed.
    let e = crate::pattern::value::values(&kayles(false), &huge, 5000, &ctl).unwrap_err();
    assert!(matches!(e, Error::Limit(_)), "{e}");
}

#[test]
fn positions_hints_and_misere_play_are_the_built_in_ones() {
    let ctl = Control::none();
    for heaps in [
        vec![5, 11],
        vec![3, 4, 5],
        vec![1, 1, 2, 7],
        vec![20, 13, 6],
    ] {
        let (mine, theirs) = (kayles(true), built_in());
        let a = super::position::normal(&mine, &heaps, &ctl).unwrap();
        let b = super::position::normal(&theirs, &heaps, &ctl).unwrap();
        assert_eq!(a, b, "{heaps:?}");
        let a = super::position::misere(&mine, &heaps, &ctl).unwrap();
        let b = super::position::misere(&theirs, &heaps, &ctl).unwrap();
        assert_eq!(a.outcome, b.outcome, "{heaps:?}");
        let a = super::hint::hint(&mine, &heaps, false, &ctl).unwrap();
        let b = super::hint::hint(&theirs, &heaps, false, &ctl).unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{heaps:?}");
    }
    let a = crate::misere::quotient(&kayles(true), 30, &ctl).unwrap();
    let b = crate::misere::quotient(&built_in(), 30, &ctl).unwrap();
    assert_eq!(a.order(), b.order());
}

#[test]
fn a_closure_is_a_rule() {
    // Subtraction of 1, 2 or 5: the notation's sub:1,2,5.
    let take = |n: u64, out: &mut Options| {
        for k in [1, 2, 5] {
            if k <= n {
                out.push(&[n - k]);
            }
        }
        Ok(())
    };
    let ctl = Control::none();
    let mine = super::sequence::compute(&HeapGame::custom("take", take), 300, &ctl).unwrap();
    let sub: HeapGame = "sub:1,2,5".parse().unwrap();
    let theirs = super::sequence::compute(&sub, 300, &ctl).unwrap();
    assert_eq!(mine.to_vec(), theirs.to_vec());
}

/// A rule whose answers are wrong, in the ways a program's rule can be.
struct Faulty(u8);

impl HeapRule for Faulty {
    fn options(&self, n: u64, out: &mut Options) -> Result<()> {
        match self.0 {
            // A heap as large as the one moved from: the game would not end.
            0 => out.push(&[n]),
            // Takes 3 though it declares moves of at most 2.
            1 if n >= 3 => out.push(&[n - 3]),
            1 => {}
            // An error of its own.
            _ => return Err(Error::invalid("the rule's own failure")),
        }
        Ok(())
    }

    fn shape(&self) -> Option<Theorem> {
        (self.0 == 1).then_some(Theorem::Subtraction { t: 2 })
    }
}

#[test]
fn faulty_rules_give_errors_not_values() {
    let ctl = Control::none();
    for (which, needle) in [
        (0, "must be below"),
        (1, "declares a subtraction game"),
        (2, "own failure"),
    ] {
        let g = HeapGame::custom("faulty", Faulty(which));
        let e = super::sequence::compute(&g, 10, &ctl).unwrap_err();
        assert!(matches!(e, Error::Invalid(_)), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
        let e = crate::pattern::value::analyze(&g, 100, &ctl).unwrap_err();
        assert!(e.to_string().contains(needle), "{e}");
        let e = super::position::normal(&g, &[4, 5], &ctl).unwrap_err();
        assert!(e.to_string().contains(needle), "{e}");
    }
}

#[test]
fn a_custom_rule_has_no_notation() {
    let g = kayles(false);
    assert_eq!(g.to_string(), "my-kayles");
    let e = HeapGame::from_spec(g.spec().clone()).unwrap_err();
    assert!(e.to_string().contains("HeapGame::custom"), "{e}");
}
