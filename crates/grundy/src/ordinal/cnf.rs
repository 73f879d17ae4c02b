//! Ordinals below epsilon-0 in Cantor normal form.
//!
//! **Theorem (Cantor normal form).** Every ordinal `α > 0` is uniquely
//! `α = ω^e₁·c₁ + ω^e₂·c₂ + ... + ω^eₖ·cₖ` with `e₁ > e₂ > ... > eₖ` ordinals and `cᵢ ≥ 1`
//! natural numbers. Below epsilon-0 every exponent is smaller than the ordinal itself, so
//! writing the exponents again in Cantor normal form ends after finitely many steps: an
//! [`Ordinal`] is a finite tree of [`Term`]s.
//!
//! **Comparison.** Two ordinals in normal form compare as their term lists compare
//! lexicographically, each term compared first by exponent and then by coefficient, and a proper
//! prefix being smaller: the first differing term decides, because
//! `ω^e·c > ω^e·c' + (anything below ω^e)` when `c > c'`, and `ω^e > (anything below ω^e)·k`.
//! Hence the derived `Ord` of the canonical representation *is* the ordinal order.
//!
//! **Addition** (not commutative): a term `ω^e·c` is absorbed by a later term of larger
//! exponent, `ω^e·c + ω^f = ω^f` for `e < f`: write `f = e + g` with `g ≥ 1`, then
//! `ω^e·c + ω^f = ω^e·(c + ω^g) = ω^e·ω^g = ω^f`, as a natural number `c` is absorbed by the
//! infinite `ω^g = ω·(1 + δ) = ω + ω·δ`: `c + ω = sup_n (c + n) = ω`.
//! So `α + β` keeps the terms of α with exponent above β's leading exponent `b`, adds α's
//! coefficient at `b` (if any) to β's leading coefficient, and appends the rest of β.
//! Example: `1 + ω = ω`, but `ω + 1 > ω`.
//!
//! **Multiplication** (not commutative, distributive on the left only:
//! `α·(β + γ) = α·β + α·γ`). For `α = ω^a·c + (lower terms) ≠ 0`:
//! `α·ω^f = ω^(a+f)` for `f > 0` (the finite coefficient and the lower terms are absorbed),
//! and `α·d = ω^a·(c·d) + (lower terms of α)` for a natural `d ≥ 1` (the middle copies of the
//! lower terms are absorbed by the next leading term). Expanding `β = Σ ω^fⱼ·dⱼ` with left
//! distributivity gives `α·β = Σ_{fⱼ>0} ω^(a+fⱼ)·dⱼ + α·d₀`. Example: `2·ω = ω`, `ω·2 = ω+ω`.

//!
//! ```
//! use grundy::notation::ordinal::parse_ordinal;
//! use grundy::ordinal::{nim_sum::nim_sum, Ordinal};
//!
//! let w = Ordinal::omega();
//! assert_eq!(Ordinal::one().add(&w), w); // 1 + ω = ω
//! assert_eq!(w.add(&Ordinal::one()).to_string(), "w+1");
//! let a = parse_ordinal("w^(w)*4+w^3*9+11").unwrap();
//! let b = parse_ordinal("w^(w)*6+w^3*5+w").unwrap();
//! assert_eq!(nim_sum(&a, &b).to_string(), "w^(w)*2+w^3*12+w+11");
//! // ω + γ = ω·2 has the solution γ = ω (left subtraction).
//! assert_eq!(w.mul(&Ordinal::from(2)).left_sub(&w), Some(w.clone()));
//! ```

use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::fmt;

/// One term `ω^exponent · coefficient` of a Cantor normal form (coefficient ≥ 1 inside an
/// [`Ordinal`]). Ordered by exponent, then coefficient, which is the order of the terms' values.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Term {
    /// The exponent `e` of `ω^e`.
    pub exponent: Ordinal,
    /// The coefficient, a positive natural number of any size.
    pub coefficient: BigUint,
}

/// An ordinal below epsilon-0 in Cantor normal form: terms in strictly decreasing order of
/// exponent, no zero coefficient. Zero has no terms. The derived order is the ordinal order (see
/// the module documentation).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ordinal {
    terms: Vec<Term>,
}

impl Ordinal {
    /// The ordinal 0.
    pub fn zero() -> Self {
        Ordinal { terms: Vec::new() }
    }

    /// The ordinal 1.
    pub fn one() -> Self {
        Self::from_natural(BigUint::one())
    }

    /// The ordinal ω, the first infinite ordinal.
    pub fn omega() -> Self {
        Self::omega_pow(Self::one())
    }

    /// The natural number `n` as a (finite) ordinal.
    pub fn from_natural(n: impl Into<BigUint>) -> Self {
        Self::term(Self::zero(), n)
    }

    /// `ω^e`.
    pub fn omega_pow(e: Ordinal) -> Self {
        Self::term(e, BigUint::one())
    }

    /// `ω^e · c` (zero when `c = 0`).
    pub fn term(e: Ordinal, c: impl Into<BigUint>) -> Self {
        let c = c.into();
        if c.is_zero() {
            return Self::zero();
        }
        Ordinal {
            terms: vec![Term {
                exponent: e,
                coefficient: c,
            }],
        }
    }

    /// Builds an ordinal from terms in any order, with repeated exponents and zero
    /// coefficients allowed: the terms are *added as coefficients of equal powers* (the natural
    /// sum of the terms), i.e. the result is `Σ ω^eᵢ·cᵢ` with the terms sorted decreasingly.
    pub fn from_terms(terms: impl IntoIterator<Item = (Ordinal, BigUint)>) -> Self {
        let mut v: Vec<Term> = terms
            .into_iter()
            .filter(|(_, c)| !c.is_zero())
            .map(|(exponent, coefficient)| Term {
                exponent,
                coefficient,
            })
            .collect();
        v.sort_by(|a, b| b.exponent.cmp(&a.exponent));
        let mut out: Vec<Term> = Vec::with_capacity(v.len());
        for t in v {
            match out.last_mut() {
                Some(last) if last.exponent == t.exponent => last.coefficient += t.coefficient,
                _ => out.push(t),
            }
        }
        Ordinal { terms: out }
    }

    /// Builds an ordinal from terms already canonical (strictly decreasing exponents, nonzero
    /// coefficients). Internal: callers guarantee canonicity.
    pub(crate) fn from_canonical(terms: Vec<Term>) -> Self {
        debug_assert!(terms.windows(2).all(|w| w[0].exponent > w[1].exponent));
        debug_assert!(terms.iter().all(|t| !t.coefficient.is_zero()));
        Ordinal { terms }
    }

    /// The terms, leading (largest) first.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// Consumes the ordinal, returning its terms (leading first).
    pub fn into_terms(self) -> Vec<Term> {
        self.terms
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether this is a natural number (below ω).
    pub fn is_finite(&self) -> bool {
        self.terms.iter().all(|t| t.exponent.is_zero())
    }

    /// The natural number this ordinal is, if finite.
    pub fn as_natural(&self) -> Option<BigUint> {
        match self.terms.as_slice() {
            [] => Some(BigUint::zero()),
            [t] if t.exponent.is_zero() => Some(t.coefficient.clone()),
            _ => None,
        }
    }

    /// The exponent of the leading term (`None` for 0): `α < ω^(e+1)` and `α ≥ ω^e`.
    pub fn leading_exponent(&self) -> Option<&Ordinal> {
        self.terms.first().map(|t| &t.exponent)
    }

    /// The coefficient of `ω^e` in the normal form (0 if absent).
    pub fn coefficient(&self, e: &Ordinal) -> BigUint {
        self.terms
            .iter()
            .find(|t| &t.exponent == e)
            .map(|t| t.coefficient.clone())
            .unwrap_or_default()
    }

    /// The finite part: the coefficient of `ω^0`.
    pub fn finite_part(&self) -> BigUint {
        self.coefficient(&Self::zero())
    }

    /// Whether this is a successor ordinal (nonzero finite part).
    pub fn is_successor(&self) -> bool {
        self.terms.last().is_some_and(|t| t.exponent.is_zero())
    }

    /// Whether this is a limit ordinal (nonzero, finite part 0).
    pub fn is_limit(&self) -> bool {
        !self.is_zero() && !self.is_successor()
    }

    /// The depth of exponent nesting: 0 for 0, 1 for naturals, 2 for `ω^n·c + ...`, and so on.
    pub fn height(&self) -> usize {
        self.terms
            .iter()
            .map(|t| 1 + t.exponent.height())
            .max()
            .unwrap_or(0)
    }

    /// The successor `α + 1`.
    pub fn succ(&self) -> Ordinal {
        self.add(&Self::one())
    }

    /// Ordinal sum `α + β` (see the module documentation for the absorption rule).
    pub fn add(&self, other: &Ordinal) -> Ordinal {
        let Some(b) = other.leading_exponent() else {
            return self.clone();
        };
        // Terms of α strictly above β's leading power survive; the one at equal power merges.
        let mut terms: Vec<Term> = Vec::with_capacity(self.terms.len() + other.terms.len());
        let mut carry = BigUint::zero();
        for t in &self.terms {
            match t.exponent.cmp(b) {
                std::cmp::Ordering::Greater => terms.push(t.clone()),
                std::cmp::Ordering::Equal => carry = t.coefficient.clone(),
                std::cmp::Ordering::Less => break,
            }
        }
        let mut rest = other.terms.iter();
        if let Some(first) = rest.next() {
            terms.push(Term {
                exponent: first.exponent.clone(),
                coefficient: carry + &first.coefficient,
            });
        }
        terms.extend(rest.cloned());
        Ordinal::from_canonical(terms)
    }

    /// In-place ordinal sum `α := α + β`: pops α's terms from the end while they are absorbed
    /// (exponent below β's leading one) or merge (equal exponent), then appends β. Linear
    /// overall when a long sum is built term by term.
    pub fn add_assign(&mut self, other: &Ordinal) {
        let Some(first) = other.terms.first() else {
            return;
        };
        let mut carry = BigUint::zero();
        while let Some(last) = self.terms.last() {
            match last.exponent.cmp(&first.exponent) {
                std::cmp::Ordering::Greater => break,
                std::cmp::Ordering::Equal => {
                    carry = self.terms.pop().map(|t| t.coefficient).unwrap_or_default();
                    break;
                }
                std::cmp::Ordering::Less => {
                    self.terms.pop();
                }
            }
        }
        self.terms.push(Term {
            exponent: first.exponent.clone(),
            coefficient: carry + &first.coefficient,
        });
        self.terms.extend(other.terms[1..].iter().cloned());
    }

    /// Ordinal product `α·β` (see the module documentation for the derivation).
    pub fn mul(&self, other: &Ordinal) -> Ordinal {
        let Some(lead) = self.terms.first() else {
            return Ordinal::zero();
        };
        let a = &lead.exponent;
        let mut terms = Vec::with_capacity(other.terms.len() + self.terms.len());
        let mut finite = BigUint::zero();
        for t in &other.terms {
            if t.exponent.is_zero() {
                finite = t.coefficient.clone();
            } else {
                // α·ω^f·d = ω^(a+f)·d for f > 0.
                terms.push(Term {
                    exponent: a.add(&t.exponent),
                    coefficient: t.coefficient.clone(),
                });
            }
        }
        if !finite.is_zero() {
            // α·d = ω^a·(c·d) + (lower terms of α).
            terms.push(Term {
                exponent: a.clone(),
                coefficient: &lead.coefficient * &finite,
            });
            terms.extend(self.terms[1..].iter().cloned());
        }
        Ordinal::from_canonical(terms)
    }

    /// Left subtraction: for `β ≤ α`, the unique `γ` with `β + γ = α`; `None` if `β > α`.
    ///
    /// Derivation: find the first term where α and β differ; there α's term is larger (as
    /// `β ≤ α`). If it differs only in coefficient `c > c'` at the same exponent, `γ` starts with
    /// `ω^e·(c − c')`; otherwise γ starts with α's term. The rest of α follows, and the lower
    /// terms of β are absorbed by γ's leading term.
    pub fn left_sub(&self, beta: &Ordinal) -> Option<Ordinal> {
        if beta > self {
            return None;
        }
        let i = self
            .terms
            .iter()
            .zip(&beta.terms)
            .take_while(|(x, y)| x == y)
            .count();
        let mut terms = Vec::with_capacity(self.terms.len() - i);
        if let Some(t) = self.terms.get(i) {
            match beta.terms.get(i) {
                Some(u) if u.exponent == t.exponent => terms.push(Term {
                    exponent: t.exponent.clone(),
                    coefficient: &t.coefficient - &u.coefficient,
                }),
                _ => terms.push(t.clone()),
            }
            terms.extend(self.terms[i + 1..].iter().cloned());
        }
        Some(Ordinal::from_canonical(terms))
    }

    /// Natural (Hessenberg) sum `α ⊕_H β`: coefficients of equal powers add. Commutative,
    /// associative, strictly increasing in both arguments.
    pub fn natural_add(&self, other: &Ordinal) -> Ordinal {
        self.merge_by(other, |x, y| x + y)
    }

    /// Merges two normal forms power by power, combining the coefficients of a power present in
    /// both with `f` (terms whose combined coefficient is 0 are dropped). Used by the natural
    /// sum and the nim-sum.
    pub(crate) fn merge_by(
        &self,
        other: &Ordinal,
        f: impl Fn(&BigUint, &BigUint) -> BigUint,
    ) -> Ordinal {
        let (mut i, mut j) = (0, 0);
        let (x, y) = (&self.terms, &other.terms);
        let mut terms = Vec::with_capacity(x.len() + y.len());
        while i < x.len() && j < y.len() {
            match x[i].exponent.cmp(&y[j].exponent) {
                std::cmp::Ordering::Greater => {
                    terms.push(x[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Less => {
                    terms.push(y[j].clone());
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let c = f(&x[i].coefficient, &y[j].coefficient);
                    if !c.is_zero() {
                        terms.push(Term {
                            exponent: x[i].exponent.clone(),
                            coefficient: c,
                        });
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        terms.extend(x[i..].iter().cloned());
        terms.extend(y[j..].iter().cloned());
        Ordinal::from_canonical(terms)
    }

    /// Ordinal power `α^n` for a natural `n`, by repeated squaring (`α^(2m) = (α^m)·(α^m)`,
    /// `α^(2m+1) = α^(2m)·α`; ordinal multiplication is associative, so the order of the
    /// products does not matter even though it is not commutative).
    ///
    /// The result can be astronomically large (`2^(10^18)`); `max_bits` bounds the size of
    /// every coefficient and `max_terms` the number of terms: beyond them an
    /// [`Error::Limit`](crate::Error::Limit) is returned.
    pub fn pow(&self, n: &BigUint, max_bits: u64, max_terms: usize) -> crate::Result<Ordinal> {
        let check = |x: &Ordinal| -> crate::Result<()> {
            let bits = x
                .terms
                .iter()
                .map(|t| t.coefficient.bits())
                .max()
                .unwrap_or(0);
            if bits > max_bits || x.terms.len() > max_terms {
                return Err(crate::Error::limit(
                    crate::LimitKind::Fixed,
                    format!(
                        "the ordinal power has more than {max_bits}-bit coefficients or more \
                         than {max_terms} terms"
                    ),
                    "use a smaller exponent",
                ));
            }
            Ok(())
        };
        let mut result = Ordinal::one();
        for i in (0..n.bits()).rev() {
            result = result.mul(&result);
            check(&result)?;
            if n.bit(i) {
                result = result.mul(self);
                check(&result)?;
            }
        }
        Ok(result)
    }
}

impl From<u64> for Ordinal {
    fn from(n: u64) -> Self {
        Ordinal::from_natural(n)
    }
}

impl From<BigUint> for Ordinal {
    fn from(n: BigUint) -> Self {
        Ordinal::from_natural(n)
    }
}

impl fmt::Debug for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ordinal({self})")
    }
}

/// Prints the SPEC notation: `w^(w^2*3+1)*2+w^2*5+w+7`, `0` for zero. A term is `w^E*c`, with
/// `^E` left out for `E = 1`, `*c` left out for `c = 1`, the power left out for `E = 0`, and
/// `E` in parentheses unless it is a plain natural number.
impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return write!(f, "0");
        }
        for (i, t) in self.terms.iter().enumerate() {
            if i > 0 {
                write!(f, "+")?;
            }
            if t.exponent.is_zero() {
                write!(f, "{}", t.coefficient)?;
                continue;
            }
            write!(f, "w")?;
            match t.exponent.as_natural() {
                Some(n) if n.is_one() => {}
                Some(n) => write!(f, "^{n}")?,
                None => write!(f, "^({})", t.exponent)?,
            }
            if !t.coefficient.is_one() {
                write!(f, "*{}", t.coefficient)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    fn n(k: u64) -> Ordinal {
        Ordinal::from(k)
    }
    fn w() -> Ordinal {
        Ordinal::omega()
    }

    /// Random ordinals of bounded height, with small coefficients so that equal powers recur.
    pub(crate) fn arb_ordinal(height: u32) -> BoxedStrategy<Ordinal> {
        if height == 0 {
            return (0u64..6).prop_map(Ordinal::from).boxed();
        }
        proptest::collection::vec((arb_ordinal(height - 1), 0u64..4), 0..4)
            .prop_map(|ts| Ordinal::from_terms(ts.into_iter().map(|(e, c)| (e, BigUint::from(c)))))
            .boxed()
    }

    #[test]
    fn absorption_and_non_commutativity() {
        assert_eq!(n(1).add(&w()), w());
        assert_ne!(w().add(&n(1)), w());
        assert_eq!(n(2).mul(&w()), w());
        assert_eq!(w().mul(&n(2)).to_string(), "w*2");
        assert_eq!(w().add(&w()), w().mul(&n(2)));
        // (ω+1)·2 = ω·2 + 1, and (ω+1)·ω = ω².
        let w1 = w().succ();
        assert_eq!(w1.mul(&n(2)).to_string(), "w*2+1");
        assert_eq!(w1.mul(&w()).to_string(), "w^2");
        // ω^ω > ω^n·c for every n, c.
        let ww = Ordinal::omega_pow(w());
        assert!(ww > Ordinal::term(n(1000), 1_000_000u64));
        assert_eq!(ww.to_string(), "w^(w)");
        assert_eq!(
            (w().pow(&BigUint::from(3u8), 64, 64).unwrap()).to_string(),
            "w^3"
        );
        assert_eq!(
            (w1.pow(&BigUint::from(3u8), 64, 64).unwrap()).to_string(),
            "w^3+w^2+w+1"
        );
        assert_eq!(n(2).pow(&BigUint::from(10u8), 64, 64).unwrap(), n(1024));
        assert!(n(2).pow(&BigUint::from(1000u32), 64, 64).is_err());
    }

    #[test]
    fn order_is_ordinal_order() {
        let xs = [
            n(0),
            n(1),
            n(5),
            w(),
            w().succ(),
            w().mul(&n(2)),
            w().mul(&w()),
            Ordinal::omega_pow(w()),
            Ordinal::omega_pow(w().succ()),
        ];
        for i in 0..xs.len() {
            for j in 0..xs.len() {
                assert_eq!(xs[i].cmp(&xs[j]), i.cmp(&j), "{} vs {}", xs[i], xs[j]);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn add_assign_is_add(a in arb_ordinal(2), b in arb_ordinal(2)) {
            let mut x = a.clone();
            x.add_assign(&b);
            prop_assert_eq!(x, a.add(&b));
        }

        #[test]
        fn addition_is_associative(a in arb_ordinal(2), b in arb_ordinal(2), c in arb_ordinal(2)) {
            prop_assert_eq!(a.add(&b).add(&c), a.add(&b.add(&c)));
        }

        #[test]
        fn multiplication_is_associative(a in arb_ordinal(2), b in arb_ordinal(2), c in arb_ordinal(2)) {
            prop_assert_eq!(a.mul(&b).mul(&c), a.mul(&b.mul(&c)));
        }

        #[test]
        fn left_distributive(a in arb_ordinal(2), b in arb_ordinal(2), c in arb_ordinal(2)) {
            prop_assert_eq!(a.mul(&b.add(&c)), a.mul(&b).add(&a.mul(&c)));
        }

        #[test]
        fn addition_is_monotone(a in arb_ordinal(2), b in arb_ordinal(2), c in arb_ordinal(2)) {
            // Strictly increasing in the right argument, weakly in the left.
            prop_assert_eq!(b.cmp(&c), a.add(&b).cmp(&a.add(&c)));
            if b <= c {
                prop_assert!(b.add(&a) <= c.add(&a));
            }
            prop_assert!(a.add(&b) >= a.clone());
            prop_assert!(a.add(&b) >= b.clone());
        }

        #[test]
        fn identities(a in arb_ordinal(2)) {
            prop_assert_eq!(a.add(&Ordinal::zero()), a.clone());
            prop_assert_eq!(Ordinal::zero().add(&a), a.clone());
            prop_assert_eq!(a.mul(&Ordinal::one()), a.clone());
            prop_assert_eq!(Ordinal::one().mul(&a), a.clone());
            prop_assert!(a.mul(&Ordinal::zero()).is_zero());
            prop_assert!(a < a.succ());
        }

        #[test]
        fn left_subtraction_inverts_addition(a in arb_ordinal(2), b in arb_ordinal(2)) {
            let s = a.add(&b);
            prop_assert_eq!(s.left_sub(&a), Some(b.clone()));
            let (lo, hi) = if a <= b { (&a, &b) } else { (&b, &a) };
            let d = hi.left_sub(lo).unwrap();
            prop_assert_eq!(lo.add(&d), hi.clone());
        }

        #[test]
        fn natural_sum_is_commutative_and_above_ordinal_sum(a in arb_ordinal(2), b in arb_ordinal(2)) {
            prop_assert_eq!(a.natural_add(&b), b.natural_add(&a));
            prop_assert!(a.natural_add(&b) >= a.add(&b));
            prop_assert!(a.natural_add(&b) >= b.add(&a));
        }

        #[test]
        fn finite_arithmetic_is_arithmetic(x in 0u64..1000, y in 0u64..1000) {
            prop_assert_eq!(n(x).add(&n(y)), n(x + y));
            prop_assert_eq!(n(x).mul(&n(y)), n(x * y));
            prop_assert_eq!(n(x).cmp(&n(y)), x.cmp(&y));
        }
    }
}
