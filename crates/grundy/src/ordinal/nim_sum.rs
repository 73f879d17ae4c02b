//! Nim-addition of ordinals, and the mex of sets that contain whole initial segments.
//!
//! **Theorem (Conway, *On Numbers and Games*, ch. 6).** Every ordinal is uniquely a finite sum
//! of distinct powers of 2 in decreasing order (its base-2 expansion), and the nim-sum
//! `α ⊕ β = mex { α' ⊕ β, α ⊕ β' : α' < α, β' < β }` is the exclusive or of the two expansions.
//! The ordinals form a group of exponent 2 under `⊕` (identity 0, every element its own inverse).
//!
//! **Reduction to coefficients.** `2^ω = ω`, so `2^(ω·e + k) = ω^e·2^k`; the powers of 2 below
//! epsilon-0 are exactly the `ω^e·2^k`. The base-2 expansion of `Σ ω^eᵢ·cᵢ` therefore lists, for
//! each term, `ω^eᵢ·2^k` for the bits `k` of `cᵢ`. Xoring two expansions xors the bits power by
//! power: `α ⊕ β` has coefficient `cₑ(α) xor cₑ(β)` at every `ω^e`. This is what
//! [`nim_sum`] computes; `reference::nim_sum_by_binary_expansion` computes the same thing the
//! long way, from the explicit expansions, and is the test oracle.
//!
//! Worked example: `(ω^ω·4 + ω^3·9 + 11) ⊕ (ω^ω·6 + ω^3·5 + ω) = ω^ω·2 + ω^3·12 + ω + 11`.

use super::Ordinal;

/// The nim-sum `α ⊕ β`: coefficient-wise xor on the powers of ω (see the module documentation).
pub fn nim_sum(a: &Ordinal, b: &Ordinal) -> Ordinal {
    a.merge_by(b, |x, y| x ^ y)
}

/// The nim-sum of any number of ordinals (0 for none).
pub fn nim_sum_all<'a>(xs: impl IntoIterator<Item = &'a Ordinal>) -> Ordinal {
    xs.into_iter()
        .fold(Ordinal::zero(), |acc, x| nim_sum(&acc, x))
}

/// A set of ordinals given by finitely many points and half-open intervals `[lo, hi)`. Used as
/// the value set of a position's options: an option family "any value below a" contributes
/// `[0, a)`, a family "prefix followed by anything below ω^i" contributes `[p, p + ω^i)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrdinalSet {
    points: Vec<Ordinal>,
    intervals: Vec<(Ordinal, Ordinal)>,
}

impl OrdinalSet {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one ordinal.
    pub fn insert(&mut self, x: Ordinal) {
        self.points.push(x);
    }

    /// Adds every ordinal below `hi` (the initial segment `[0, hi)`).
    pub fn insert_below(&mut self, hi: Ordinal) {
        self.insert_interval(Ordinal::zero(), hi);
    }

    /// Adds every ordinal `x` with `lo ≤ x < hi` (nothing if `hi ≤ lo`).
    pub fn insert_interval(&mut self, lo: Ordinal, hi: Ordinal) {
        if lo < hi {
            self.intervals.push((lo, hi));
        }
    }

    /// Adds all members of another set.
    pub fn extend(&mut self, other: OrdinalSet) {
        self.points.extend(other.points);
        self.intervals.extend(other.intervals);
    }

    /// Whether `x` is in the set.
    pub fn contains(&self, x: &Ordinal) -> bool {
        self.points.contains(x) || self.intervals.iter().any(|(lo, hi)| lo <= x && x < hi)
    }

    /// The minimal excludant: the least ordinal not in the set.
    ///
    /// Derivation: start at `m = 0`; while `m` is in the set, jump past what covers it — to
    /// `hi` if an interval `[lo, hi)` holds `m`, else to `m + 1`. Every ordinal skipped is in the
    /// set, and each jump passes at least one point or interval for good (m only grows, and a
    /// point or interval, once passed, never covers `m` again), so at most
    /// `points + intervals` jumps happen. Sorting first makes each check a scan forward.
    pub fn mex(&self) -> Ordinal {
        let mut points: Vec<&Ordinal> = self.points.iter().collect();
        points.sort();
        let mut intervals: Vec<&(Ordinal, Ordinal)> = self.intervals.iter().collect();
        intervals.sort_by(|a, b| a.0.cmp(&b.0));
        let (mut i, mut j) = (0, 0);
        let mut m = Ordinal::zero();
        let mut reach: Option<Ordinal> = None; // the largest hi of intervals starting ≤ m
        loop {
            while j < intervals.len() && intervals[j].0 <= m {
                if reach.as_ref().is_none_or(|r| *r < intervals[j].1) {
                    reach = Some(intervals[j].1.clone());
                }
                j += 1;
            }
            if let Some(r) = reach.take() {
                if m < r {
                    m = r;
                    continue;
                }
            }
            while i < points.len() && *points[i] < m {
                i += 1;
            }
            if i < points.len() && *points[i] == m {
                m = m.succ();
                continue;
            }
            return m;
        }
    }
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level implementations used as test oracles.
pub mod reference {
    use super::Ordinal;
    use num_bigint::BigUint;

    /// The base-2 expansion of `α`: the exponents `ω·e + k` of its powers of 2
    /// `2^(ω·e+k) = ω^e·2^k`, as pairs `(e, k)`, in decreasing order.
    pub fn binary_expansion(a: &Ordinal) -> Vec<(Ordinal, u64)> {
        let mut out = Vec::new();
        for t in a.terms() {
            for k in (0..t.coefficient.bits()).rev() {
                if t.coefficient.bit(k) {
                    out.push((t.exponent.clone(), k));
                }
            }
        }
        out
    }

    /// Rebuilds an ordinal from distinct powers of 2 `(e, k)`, in any order.
    pub fn from_binary_expansion(powers: &[(Ordinal, u64)]) -> Ordinal {
        Ordinal::from_terms(
            powers
                .iter()
                .map(|(e, k)| (e.clone(), BigUint::from(1u8) << *k)),
        )
    }

    /// `α ⊕ β` straight from Conway's theorem: the symmetric difference of the two sets of
    /// powers of 2.
    pub fn nim_sum_by_binary_expansion(a: &Ordinal, b: &Ordinal) -> Ordinal {
        let x = binary_expansion(a);
        let y = binary_expansion(b);
        let mut sym: Vec<(Ordinal, u64)> = x.iter().filter(|p| !y.contains(p)).cloned().collect();
        sym.extend(y.iter().filter(|p| !x.contains(p)).cloned());
        from_binary_expansion(&sym)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::ordinal::parse_ordinal;
    use crate::ordinal::cnf::tests::arb_ordinal;
    use proptest::prelude::*;

    fn o(s: &str) -> Ordinal {
        parse_ordinal(s).unwrap()
    }

    #[test]
    fn worked_example() {
        let a = o("w^(w)*4+w^3*9+11");
        let b = o("w^(w)*6+w^3*5+w");
        assert_eq!(nim_sum(&a, &b), o("w^(w)*2+w^3*12+w+11"));
        assert_eq!(
            reference::nim_sum_by_binary_expansion(&a, &b),
            o("w^(w)*2+w^3*12+w+11")
        );
    }

    #[test]
    fn finite_nim_sum_is_xor() {
        for x in 0u64..40 {
            for y in 0u64..40 {
                assert_eq!(nim_sum(&x.into(), &y.into()), Ordinal::from(x ^ y));
            }
        }
    }

    #[test]
    fn nim_sum_matches_mex_definition_on_small_ordinals() {
        // α ⊕ β = mex{α' ⊕ β, α ⊕ β' : α' < α, β' < β} for α = ω·a1 + b1, β = ω·a2 + b2.
        // The α' < α are ω·a + t (a < a1, t any natural) and ω·a1 + b (b < b1); as t runs
        // over ℕ so does t xor b2, so the first kind gives the interval [ω·(a^a2), ω·(a^a2)+ω).
        for a1 in 0u64..4 {
            for b1 in 0u64..6 {
                for a2 in 0u64..4 {
                    for b2 in 0u64..6 {
                        let x = o(&format!("w*{a1}+{b1}"));
                        let y = o(&format!("w*{a2}+{b2}"));
                        let mut s = OrdinalSet::new();
                        // (ω·a' + t) ⊕ y over all naturals t: ω·(a' xor a2) + (anything): an interval.
                        for a in 0..a1 {
                            let base = o(&format!("w*{}", a ^ a2));
                            s.insert_interval(base.clone(), base.add(&Ordinal::omega()));
                        }
                        for a in 0..a2 {
                            let base = o(&format!("w*{}", a ^ a1));
                            s.insert_interval(base.clone(), base.add(&Ordinal::omega()));
                        }
                        for b in 0..b1 {
                            s.insert(o(&format!("w*{}+{}", a1 ^ a2, b ^ b2)));
                        }
                        for b in 0..b2 {
                            s.insert(o(&format!("w*{}+{}", a1 ^ a2, b ^ b1)));
                        }
                        assert_eq!(s.mex(), nim_sum(&x, &y), "{x} + {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn mex_with_intervals() {
        let mut s = OrdinalSet::new();
        assert_eq!(s.mex(), Ordinal::zero());
        s.insert(0u64.into());
        s.insert(2u64.into());
        assert_eq!(s.mex(), Ordinal::one());
        s.insert_below(o("w"));
        assert_eq!(s.mex(), o("w"));
        s.insert(o("w"));
        s.insert(o("w+1"));
        s.insert(o("w+3"));
        assert_eq!(s.mex(), o("w+2"));
        s.insert_interval(o("w+2"), o("w*2"));
        s.insert_interval(o("w*2+5"), o("w^2"));
        assert_eq!(s.mex(), o("w*2"));
        s.insert_interval(o("w*2"), o("w*2+5"));
        assert_eq!(s.mex(), o("w^2"));
        assert!(s.contains(&o("w*7")));
        assert!(!s.contains(&o("w^2")));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn group_laws(a in arb_ordinal(2), b in arb_ordinal(2), c in arb_ordinal(2)) {
            prop_assert_eq!(nim_sum(&a, &b), nim_sum(&b, &a));
            prop_assert_eq!(nim_sum(&nim_sum(&a, &b), &c), nim_sum(&a, &nim_sum(&b, &c)));
            prop_assert_eq!(nim_sum(&a, &Ordinal::zero()), a.clone());
            prop_assert!(nim_sum(&a, &a).is_zero());
            prop_assert!(nim_sum(&a, &b) <= a.natural_add(&b));
        }

        #[test]
        fn matches_binary_expansion(a in arb_ordinal(3), b in arb_ordinal(3)) {
            prop_assert_eq!(nim_sum(&a, &b), reference::nim_sum_by_binary_expansion(&a, &b));
            prop_assert_eq!(reference::from_binary_expansion(&reference::binary_expansion(&a)), a);
        }

        #[test]
        fn mex_matches_scan(points in proptest::collection::vec(0u64..30, 0..12),
                            ivs in proptest::collection::vec((0u64..30, 0u64..30), 0..4)) {
            let mut s = OrdinalSet::new();
            let mut member = [false; 64];
            for &p in &points { s.insert(p.into()); member[p as usize] = true; }
            for &(lo, hi) in &ivs {
                s.insert_interval(lo.into(), hi.into());
                for x in lo..hi { member[x as usize] = true; }
            }
            let m = member.iter().position(|b| !b).unwrap() as u64;
            prop_assert_eq!(s.mex(), Ordinal::from(m));
        }
    }
}
