//! Periods of Grundy sequences: found in finitely many values, and proved where a theorem
//! turns finitely many checks into a statement about every heap.
//!
//! A sequence `G` is *periodic from `n0` with period `p`* if `G(n + p) = G(n)` for every
//! `n >= n0`, and *arithmetic-periodic with saltus `s`* if `G(n + p) = G(n) + s`. Of an
//! eventually periodic sequence we report the smallest period `p` and the smallest such `n0`
//! (the *preperiod*): every period is a multiple of the smallest one, and all periods share the
//! same preperiod (if `G(n + kp) = G(n)` held from `m < n0` then `G(n0 - 1) = G(n0 - 1 + kp) =
//! G(n0 - 1 + p)`, the last two both being at or beyond `n0`, against the minimality of `n0`).
//!
//! # The theorems
//!
//! **Subtraction games** with a finite set `S` of largest element `t`: for `n >= t` the value
//! `G(n) = mex { G(n - s) : s ∈ S }` is one fixed function of the window `G(n-t) .. G(n-1)`.
//! If `G(n + p) = G(n)` for `n0 <= n < n0 + t`, the windows ending at `n0 + t` and `n0 + p + t`
//! agree, so by induction every later pair does: the sequence is periodic from `n0`.
//!
//! **Take-and-break games** whose code has last non-zero digit `d_t` and whose moves leave at
//! most `h` heaps: if `G(n + p) = G(n)` for `n0 <= n < h·n0 + (h-1)·p + t` (with `n0 >= 1`),
//! then for every `n >= n0`. For `h = 2` this is the Guy–Smith periodicity theorem; for `h = 3`
//! (hexadecimal digits) and `h = 1` the same argument gives the bound, which we derive here.
//! Let `B = h·n0 + (h-1)·p + t` and suppose the claim holds below some `n >= B`. A move from a
//! heap of `n + p` removes `k <= t` tokens and leaves `j <= h` non-empty heaps summing to
//! `n + p - k >= h·n0 + h·p`; the largest, `a`, is at least `n0 + p`, so `G(a) = G(a - p)` by
//! induction (`n0 <= a - p < n`), and replacing `a` by `a - p >= 1` gives a legal move of the
//! same kind (`k`, `j` unchanged; `n > t` so "remove the whole heap" is not involved) from
//! `n`, with the same value. Conversely a move from `n` leaves heaps summing to
//! `n - k >= h·n0` whose largest `a >= n0` satisfies `G(a + p) = G(a)` (`a < n`), and
//! replacing `a` by `a + p` is a move from `n + p`. Both heaps have the same set of option
//! values, so `G(n + p) = G(n)`. With `h = 1` the bound is `n0 + t`, the subtraction-game bound;
//! a code whose digits only remove whole heaps (`h = 0`) has no moves beyond `t` and is treated
//! as `h = 1`. The premise `n0 >= 1` keeps `a - p` a real heap; a preperiod of 0 is proved from
//! `n0 = 1` plus the checked value `G(p) = G(0)`.
//!
//! Arithmetic periodicity (`s > 0`) is detected and reported, but proved only for Nim
//! (`G(n) = n`, since the options of `n` are all smaller heaps); no other theorem is
//! implemented, so every other saltus is reported as not proved.

use crate::heap::sequence::Cell;
use std::fmt;

/// An eventual period of a sequence: `G(n + period) = G(n) + saltus` for `n >= preperiod`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Periodicity {
    /// The first `n` from which the relation holds.
    pub preperiod: usize,
    /// The period `p >= 1`.
    pub period: usize,
    /// The saltus `s` (0 for plain periodicity).
    pub saltus: u64,
}

/// A theorem that proves periodicity from finitely many checked values.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Theorem {
    /// Subtraction game with a finite set of largest element `t`: check `n0 <= n < n0 + t`.
    Subtraction {
        /// The largest element of the subtraction set.
        t: u64,
    },
    /// Take-and-break game with last digit index `t` leaving at most `h` heaps: check
    /// `n0 <= n < h·n0 + (h-1)·p + t` (with `n0 >= 1`).
    TakeBreak {
        /// The largest number of heaps a move leaves (0 is treated as 1).
        h: u64,
        /// The index of the last non-zero digit.
        t: u64,
    },
}

impl Theorem {
    /// The heaps a proof from `n0` with period `p` must check: `G(n + p) = G(n)` for
    /// `start <= n < end`, returned as `(start, end)`; `None` on overflow.
    pub fn check_range(&self, n0: usize, p: usize) -> Option<(u128, u128)> {
        let (n0, p) = (n0 as u128, p as u128);
        match *self {
            Theorem::Subtraction { t } => Some((n0, n0.checked_add(t as u128)?)),
            Theorem::TakeBreak { h, t } => {
                let h = h.max(1) as u128;
                let n0 = n0.max(1);
                let end = h
                    .checked_mul(n0)?
                    .checked_add((h - 1).checked_mul(p)?)?
                    .checked_add(t as u128)?;
                Some((n0, end))
            }
        }
    }

    /// The number of values a proof from `n0` with period `p` needs (`end + p`).
    pub fn values_needed(&self, n0: usize, p: usize) -> Option<u128> {
        let (_, end) = self.check_range(n0, p)?;
        end.checked_add(p as u128)
    }

    /// The name of the theorem and its inequality, for reports.
    pub fn statement(&self) -> String {
        match *self {
            Theorem::Subtraction { t } => format!(
                "subtraction-game periodicity (finite set, largest element t = {t}): \
                 G(n+p) = G(n) for n0 <= n < n0 + t implies it for all n >= n0"
            ),
            Theorem::TakeBreak { h, t } => {
                let h = h.max(1);
                let name = match h {
                    1 => "take-and-break periodicity for moves leaving at most one heap",
                    2 => "the Guy-Smith periodicity theorem",
                    _ => "the Guy-Smith theorem generalised to moves leaving three heaps",
                };
                format!(
                    "{name} (h = {h} heaps, last digit t = {t}): G(n+p) = G(n) for \
                     n0 <= n < {h}·n0 + {}·p + t implies it for all n >= n0",
                    h - 1
                )
            }
        }
    }
}

/// A proof of periodicity: the theorem, and the finite check that was carried out.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PeriodProof {
    /// The theorem applied.
    pub theorem: Theorem,
    /// The preperiod and period the theorem was applied to (before reduction to the smallest).
    pub applied: Periodicity,
    /// `G(n + p) = G(n)` was checked for `check.0 <= n < check.1`.
    pub check: (u128, u128),
}

impl fmt::Display for PeriodProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; checked G(n+{p}) = G(n) for {} <= n < {}",
            self.theorem.statement(),
            self.check.0,
            self.check.1,
            p = self.applied.period
        )
    }
}

/// The largest `n < values.len() - p` with `G(n + p) != G(n) + s`, plus one (0 if none):
/// the smallest `n0` from which the finite sequence satisfies the relation.
///
/// Scans backwards from the end, so a wrong `p` usually costs a few comparisons.
pub fn start_of_relation<T: Cell>(values: &[T], p: usize, s: u64) -> usize {
    let n = values.len();
    if p >= n {
        return 0;
    }
    let mut i = n - p;
    while i > 0 {
        let (a, b) = (values[i - 1].get() as u64, values[i - 1 + p].get() as u64);
        if b != a + s {
            return i;
        }
        i -= 1;
    }
    0
}

/// The shortest stretch of matched values (`len - p - n0`) for a relation to count as
/// *apparent* in finite data: a full period, and at least this many values.
pub const MIN_APPARENT_STRETCH: usize = 16;

/// Whether the relation from `n0` with period `p` is apparent in `len` values: the matched
/// stretch `len - p - n0` covers a whole period and at least [`MIN_APPARENT_STRETCH`] values.
fn apparent(len: usize, n0: usize, p: usize) -> bool {
    len.saturating_sub(p + n0) >= p.max(MIN_APPARENT_STRETCH)
}

/// The smallest apparent eventual period of the finite sequence (saltus 0), with its smallest
/// preperiod: the least `p` whose relation holds from some `n0` over a stretch of at least one
/// full period and [`MIN_APPARENT_STRETCH`] values. Not a proof.
pub fn find_period<T: Cell>(values: &[T]) -> Option<Periodicity> {
    find_relation(values, 0)
}

/// The smallest apparent arithmetic period with a positive saltus (see [`find_period`]); the
/// saltus of period `p` is read off the last values, `G(N-1) - G(N-1-p)`.
pub fn find_arithmetic_period<T: Cell>(values: &[T]) -> Option<Periodicity> {
    find_relation(values, 1)
}

/// [`find_period`] (`min_saltus = 0`, only saltus 0) or [`find_arithmetic_period`]
/// (`min_saltus = 1`, any positive saltus).
fn find_relation<T: Cell>(values: &[T], min_saltus: u64) -> Option<Periodicity> {
    let len = values.len();
    for p in 1..=len / 2 {
        let (last, before) = (
            values[len - 1].get() as u64,
            values[len - 1 - p].get() as u64,
        );
        let s = if min_saltus == 0 {
            0
        } else if last > before {
            last - before
        } else {
            continue;
        };
        let n0 = start_of_relation(values, p, s);
        if apparent(len, n0, p) {
            return Some(Periodicity {
                preperiod: n0,
                period: p,
                saltus: s,
            });
        }
    }
    None
}

/// What [`prove_period`] concluded about a finite sequence.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PeriodOutcome {
    /// The sequence is periodic forever: smallest period and preperiod, and the proof.
    Proved(Periodicity, PeriodProof),
    /// A period is apparent in the data but the theorem needs more values (how many, if the
    /// count fits).
    Apparent(Periodicity, Option<u128>),
    /// No period is apparent.
    None,
}

/// Finds the smallest period the theorem proves from `values` (the first values of the game's
/// Grundy sequence), reduced to the smallest period and preperiod of the infinite sequence.
///
/// For each `p` in increasing order the smallest `n0` of the data is found by a backward scan;
/// `(n0, p)` is proved when the theorem's check range lies inside the data. Multiples of an
/// apparent but unproved period are skipped: their preperiod is no smaller in true data and
/// their bound is larger, so they would only cost time.
pub fn prove_period<T: Cell>(values: &[T], theorem: &Theorem) -> PeriodOutcome {
    match prove_period_with(values, theorem, &crate::control::Control::none()) {
        Ok(outcome) => outcome,
        // A control that never stops: no error is possible.
        Err(_) => PeriodOutcome::None,
    }
}

/// [`prove_period`], checking `ctl` before each candidate period (each costs time in the length
/// of `values`): it returns [`crate::Error::Cancelled`] once `ctl` asks to stop.
pub fn prove_period_with<T: Cell>(
    values: &[T],
    theorem: &Theorem,
    ctl: &crate::control::Control,
) -> crate::error::Result<PeriodOutcome> {
    let len = values.len();
    let mut first_apparent: Option<(Periodicity, Option<u128>)> = None;
    for p in 1..len {
        ctl.stop_check()?;
        if let Some((a, _)) = &first_apparent {
            if p % a.period == 0 {
                continue;
            }
        }
        // Even from n0 = 0 the check range needs at least `values_needed(0, p)` values.
        match theorem.values_needed(0, p) {
            Some(need) if need <= len as u128 => {}
            _ if first_apparent.is_some() || p > len / 2 => break,
            _ => {}
        }
        let n0 = start_of_relation(values, p, 0);
        let need = theorem.values_needed(n0, p);
        if need.is_some_and(|need| need <= len as u128) {
            let (start, end) = theorem.check_range(n0, p).unwrap_or((0, 0));
            let applied = Periodicity {
                preperiod: n0,
                period: p,
                saltus: 0,
            };
            let proof = PeriodProof {
                theorem: *theorem,
                applied,
                check: (start, end),
            };
            return Ok(PeriodOutcome::Proved(smallest(values, applied), proof));
        }
        if first_apparent.is_none() && apparent(len, n0, p) {
            first_apparent = Some((
                Periodicity {
                    preperiod: n0,
                    period: p,
                    saltus: 0,
                },
                need,
            ));
        }
    }
    Ok(match first_apparent {
        Some((a, need)) => PeriodOutcome::Apparent(a, need),
        None => PeriodOutcome::None,
    })
}

/// Reduces a proved periodicity `(n0, p)` of the infinite sequence to its smallest period and
/// preperiod.
///
/// The smallest period divides `p`; a divisor `d` is a period from `n0` iff `G(n + d) = G(n)`
/// over one full period `n0 <= n < n0 + p` (values beyond the data are read through the proved
/// period). The preperiod is then lowered while `G(n0 - 1) = G(n0 - 1 + d)`.
pub fn smallest<T: Cell>(values: &[T], proved: Periodicity) -> Periodicity {
    let Periodicity {
        preperiod: n0,
        period: p,
        ..
    } = proved;
    let g = |n: usize| {
        if n < values.len() {
            values[n]
        } else {
            values[n0 + (n - n0) % p]
        }
    };
    let d = (1..=p)
        .filter(|d| p % d == 0)
        .find(|&d| (n0..n0 + p).all(|n| g(n + d) == g(n)))
        .unwrap_or(p);
    let mut m = n0;
    while m > 0 && g(m - 1) == g(m - 1 + d) {
        m -= 1;
    }
    Periodicity {
        preperiod: m,
        period: d,
        saltus: 0,
    }
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level searches, for testing the fast ones.
pub mod reference {
    use super::Periodicity;

    /// Whether `G(n + p) = G(n) + s` for every `n0 <= n < len - p`, checked pair by pair.
    pub fn holds(values: &[u32], n0: usize, p: usize, s: u64) -> bool {
        (n0..values.len().saturating_sub(p)).all(|n| values[n + p] as u64 == values[n] as u64 + s)
    }

    /// The smallest `(p, n0)` (by `p`, then `n0`) with the relation holding over at least
    /// `max(p, min_stretch)` pairs, trying every pair; the saltus of `p` is `G(N-1) - G(N-1-p)`
    /// restricted to `s = 0` or `s >= 1` as asked.
    pub fn find(values: &[u32], arithmetic: bool, min_stretch: usize) -> Option<Periodicity> {
        let len = values.len();
        for p in 1..len {
            let s = values[len - 1] as i64 - values[len - 1 - p] as i64;
            if (arithmetic && s <= 0) || (!arithmetic && s != 0) {
                continue;
            }
            for n0 in 0..len - p {
                if len - p - n0 >= p.max(min_stretch) && holds(values, n0, p, s as u64) {
                    return Some(Periodicity {
                        preperiod: n0,
                        period: p,
                        saltus: s as u64,
                    });
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A cancelled search for a period stops with `Cancelled`; unwatched, the same data proves
    /// its period (G(n) = n mod 3 for the subtraction game {1, 2}).
    #[test]
    fn a_cancelled_period_search_stops() {
        let values: Vec<u32> = (0..64).map(|n| n % 3).collect();
        let theorem = Theorem::Subtraction { t: 2 };
        let token = crate::control::CancelToken::new();
        token.cancel();
        let ctl = crate::control::Control::none().with_token(token);
        assert_eq!(
            prove_period_with(&values, &theorem, &ctl),
            Err(crate::Error::Cancelled(crate::error::Interruption::Token))
        );
        assert!(matches!(
            prove_period(&values, &theorem),
            PeriodOutcome::Proved(..)
        ));
    }

    /// An eventually periodic sequence: `pre` then `block` repeated up to `len` values,
    /// each repetition raised by `saltus`.
    fn build(pre: &[u32], block: &[u32], saltus: u32, len: usize) -> Vec<u32> {
        let mut v = pre.to_vec();
        let mut k = 0;
        while v.len() < len {
            let i = (v.len() - pre.len()) % block.len();
            if i == 0 && v.len() > pre.len() {
                k += 1;
            }
            v.push(block[i] + k * saltus);
        }
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn period_search_matches_brute_force(
            pre in proptest::collection::vec(0u32..4, 0..20),
            block in proptest::collection::vec(0u32..4, 1..12),
            len in 1usize..120,
        ) {
            let v = build(&pre, &block, 0, len);
            prop_assert_eq!(find_period(&v), reference::find(&v, false, MIN_APPARENT_STRETCH));
        }

        #[test]
        fn arithmetic_search_matches_brute_force(
            pre in proptest::collection::vec(0u32..6, 0..15),
            block in proptest::collection::vec(0u32..6, 1..8),
            saltus in 1u32..4,
            len in 1usize..100,
        ) {
            let v = build(&pre, &block, saltus, len);
            prop_assert_eq!(
                find_arithmetic_period(&v),
                reference::find(&v, true, MIN_APPARENT_STRETCH)
            );
        }

        /// A subtraction-like recurrence (values fixed by the previous t values) is periodic
        /// forever, so whatever the theorem proves must hold far beyond the data it saw.
        #[test]
        fn proofs_hold_beyond_the_data(
            set in proptest::collection::btree_set(1u64..8, 1..4),
            len in 20usize..300,
        ) {
            let set: Vec<u64> = set.into_iter().collect();
            let t = *set.last().unwrap();
            let g = |n: usize| sub_values(&set, n);
            let far = g(4000);
            if let PeriodOutcome::Proved(per, proof) =
                prove_period(&far[..len], &Theorem::Subtraction { t })
            {
                prop_assert!(proof.check.1 as usize + proof.applied.period <= len);
                prop_assert!(reference::holds(&far, per.preperiod, per.period, 0));
                if per.preperiod > 0 {
                    let n = per.preperiod - 1;
                    prop_assert_ne!(far[n], far[n + per.period]);
                }
            }
        }
    }

    /// Subtraction game values from the definition.
    fn sub_values(set: &[u64], len: usize) -> Vec<u32> {
        let mut v: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len {
            let opts: Vec<u32> = set
                .iter()
                .filter(|&&s| s as usize <= n)
                .map(|&s| v[n - s as usize])
                .collect();
            v.push((0..).find(|x| !opts.contains(x)).unwrap());
        }
        v
    }

    #[test]
    fn subtraction_1_2_3_has_period_4() {
        let v = sub_values(&[1, 2, 3], 10);
        let PeriodOutcome::Proved(p, proof) = prove_period(&v, &Theorem::Subtraction { t: 3 })
        else {
            panic!("not proved")
        };
        assert_eq!((p.period, p.preperiod), (4, 0));
        assert_eq!(proof.check, (0, 3));
        // Too few values: apparent at best, never proved.
        assert!(!matches!(
            prove_period(&v[..6], &Theorem::Subtraction { t: 3 }),
            PeriodOutcome::Proved(..)
        ));
    }

    #[test]
    fn smallest_reduces_multiples_and_preperiod() {
        let v = build(&[5, 1, 2], &[1, 2], 0, 40);
        let s = smallest(
            &v,
            Periodicity {
                preperiod: 10,
                period: 6,
                saltus: 0,
            },
        );
        assert_eq!((s.preperiod, s.period), (1, 2));
    }

    #[test]
    fn bounds_of_the_theorems() {
        let guy_smith = Theorem::TakeBreak { h: 2, t: 2 };
        assert_eq!(guy_smith.check_range(53, 34), Some((53, 142)));
        assert_eq!(guy_smith.values_needed(53, 34), Some(176));
        let hex = Theorem::TakeBreak { h: 3, t: 1 };
        assert_eq!(hex.check_range(10, 5), Some((10, 41)));
        // n0 = 0 is proved from n0 = 1.
        assert_eq!(guy_smith.check_range(0, 4), Some((1, 8)));
        assert_eq!(
            Theorem::Subtraction { t: u64::MAX }.check_range(usize::MAX, 1),
            Some((usize::MAX as u128, usize::MAX as u128 + u64::MAX as u128))
        );
    }
}
