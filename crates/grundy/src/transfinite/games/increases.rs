//! Nim with increases: a heap and a budget of tokens, each spent to set the heap larger.

use super::*;

/// The rules of nim with increases (on one heap with a budget of increase tokens).
///
/// A position is `(n, t)`: a heap of `n` and `t` tokens. An *increase* spends a token and sets
/// the heap to a larger size `m > n` — or `m ≥ n` when `zero_allowed` (an increase by zero,
/// which amounts to burning a token). A *removal* takes at least one from the heap; when
/// `forced`, removals are allowed only once the tokens are spent (while tokens remain every
/// move must be an increase). Every play ends: each move lowers `(t, n)` lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IncreaseRule {
    /// Increases are the only moves while tokens remain.
    pub forced: bool,
    /// An increase may add zero.
    pub zero_allowed: bool,
}

/// The Grundy value of `(n, t)` in nim with increases. Piecewise:
///
/// * optional, increase by zero banned: `g = n` (increases are *reversible* — any increase can
///   be answered by removing the stones again — so as in Poker Nim they change nothing).
///   Induction: the options are `(m, t)`, `m < n`, of values `0..n`, and `(m, t−1)`, `m > n`, of
///   values `m > n`; the mex is `n`.
/// * optional, increase by zero allowed: `g = n − t` for `n ≥ t`, `g = ω + (t−1−n)` for `n < t`.
///   Induction on `(t, n)`: the increases reach `{g(m, t−1) : m ≥ n}`, which is every natural
///   `≥ n−t+1` (when `n ≥ t`) or every natural and `ω..ω+(t−2−n)` (when `n < t`); the removals
///   reach `g(m, t)` for `m < n`: `ω+(t−1)` down to `ω`, then `0 .. n−t−1`. The mex is the
///   formula (first `n−t` when the naturals are short of it, else the next ω-value).
/// * forced: `g = n` for `t = 0`; for `t ≥ 1` every option is `(m, t−1)` with `m > n`
///   (or `m ≥ n`), so `g(n, 1) = mex {m > n} = 0` — except `g(0, 1) = mex ℕ = ω` with zero
///   increases allowed — and for `t ≥ 2` the options all have the value `(t−2) mod 2`
///   (apart from an ω), so `g = (t−1) mod 2`.
pub fn increases_value(rule: IncreaseRule, n: &BigUint, t: u64) -> Ordinal {
    let tb = BigUint::from(t);
    match (rule.forced, rule.zero_allowed) {
        (false, false) => Ordinal::from(n.clone()),
        (false, true) => {
            if *n >= tb {
                Ordinal::from(n - &tb)
            } else {
                Ordinal::omega().add(&Ordinal::from(&tb - 1u8 - n))
            }
        }
        (true, zero) => match t {
            0 => Ordinal::from(n.clone()),
            1 if zero && n.is_zero() => Ordinal::omega(),
            _ => Ordinal::from((t - 1) % 2),
        },
    }
}

/// Nim with increases as a [`Transfinite`] game on positions `(n, t)`, for the engine: the
/// removals are single options, the increases one family whose values come from
/// [`increases_value`] at `t − 1` (the induction hypothesis).
#[derive(Clone, Copy, Debug)]
pub struct NimWithIncreases(pub IncreaseRule);

impl NimWithIncreases {
    /// `{ g(m, s) : m ≥ lo }` from the closed form, as points and intervals.
    fn ray_values(&self, lo: &BigUint, s: u64) -> OrdinalSet {
        let rule = self.0;
        let sb = BigUint::from(s);
        let mut set = OrdinalSet::new();
        match (rule.forced, rule.zero_allowed) {
            // g(m, s) = m, and forced play with no token left is nim.
            (false, false) | (true, _) if !rule.forced || s == 0 => {
                set.insert_interval(Ordinal::from(lo.clone()), Ordinal::omega());
            }
            (false, _) => {
                // m ≥ s: m − s, every natural from max(lo, s) − s; lo ≤ m < s: ω + (s−1−m),
                // the values ω .. ω + (s−1−lo).
                let from = if *lo > sb { lo - &sb } else { BigUint::zero() };
                set.insert_interval(Ordinal::from(from), Ordinal::omega());
                if *lo < sb {
                    let top = Ordinal::omega().add(&Ordinal::from(&sb - lo));
                    set.insert_interval(Ordinal::omega(), top);
                }
            }
            (true, zero) => {
                if s == 1 && zero && lo.is_zero() {
                    set.insert(Ordinal::omega());
                }
                set.insert(increases_value(rule, &(lo + 1u8), s));
            }
        }
        set
    }

    /// `{ g(m, t) : m < n }` (the removals) from the closed form, as points and intervals.
    fn removal_values(&self, n: &BigUint, t: u64) -> OrdinalSet {
        let rule = self.0;
        let tb = BigUint::from(t);
        let mut set = OrdinalSet::new();
        if rule.zero_allowed && !rule.forced {
            // m < min(n, t): ω + (t−1−m), the values ω + (t − min(n, t)) .. ω + (t−1);
            // t ≤ m < n: m − t, the naturals below n − t.
            let k = n.min(&tb).clone();
            set.insert_interval(
                Ordinal::omega().add(&Ordinal::from(&tb - &k)),
                Ordinal::omega().add(&Ordinal::from(tb.clone())),
            );
            if *n > tb {
                set.insert_below(Ordinal::from(n - &tb));
            }
        } else {
            // g(m, t) = m when removals are allowed (t = 0 under the forced rule).
            set.insert_below(Ordinal::from(n.clone()));
        }
        set
    }

    /// An `m` with `lo ≤ m < hi` (no upper bound for `None`) and `g(m, s) = v`, searched among
    /// the few candidates the closed form allows: the ends of the range, `v` and `v + s` for a
    /// natural `v`, `s − 1 − k` for `v = ω + k`.
    fn preimage(&self, lo: &BigUint, hi: Option<&BigUint>, s: u64, v: &Ordinal) -> Option<BigUint> {
        let sb = BigUint::from(s);
        let mut cands: Vec<BigUint> = (0u8..3).map(|i| lo + i).collect();
        if let Some(k) = v.as_natural() {
            cands.push(&k + &sb);
            cands.push(k);
        } else if let Some(k) = v.left_sub(&Ordinal::omega()).and_then(|d| d.as_natural()) {
            if k < sb {
                cands.push(&sb - 1u8 - k);
            }
        }
        cands
            .into_iter()
            .find(|m| m >= lo && hi.is_none_or(|h| m < h) && increases_value(self.0, m, s) == *v)
    }

    /// A winning move in the sum of heaps `(n, t)`: the heap's index and its new `(n, t)`, or
    /// `None` if the sum's value is 0 (see [`TransfiniteSolver::analyze_sum`](crate::transfinite::TransfiniteSolver::analyze_sum)).
    pub fn winning_move(
        &self,
        heaps: &[(BigUint, u64)],
    ) -> Result<Option<(usize, (BigUint, u64))>> {
        let mut engine = crate::transfinite::TransfiniteSolver::new(self, 100_000);
        let a = engine.analyze_sum(heaps)?;
        Ok(a.winning_move.map(|m| (m.component, m.to)))
    }
}

/// Heaps up to this size list their removals as single options for the engine to evaluate;
/// larger heaps give them as one family from the closed form.
const SMALL_HEAP: u64 = 16;

/// The moves of nim with increases as a [`Game`]: a heap without tokens has its removals,
/// finitely many; a heap with tokens may be increased to any larger size, so it has infinitely
/// many options and [`Game::options`] refuses it with the stated limit of [`Transfinite`] games.
impl Game for NimWithIncreases {
    type Position = (BigUint, u64);

    fn options(&self, p: &(BigUint, u64), out: &mut Vec<(BigUint, u64)>) -> Result<()> {
        if p.1 > 0 {
            return Err(infinitely_many_options(&format!(
                "a heap with {} increase tokens",
                p.1
            )));
        }
        if u64::try_from(&p.0).map_or(true, |n| n > MAX_LISTED_OPTIONS) {
            return Err(Error::limit(
                crate::LimitKind::Options,
                format!(
                    "a heap of {} has more than {MAX_LISTED_OPTIONS} options to list",
                    p.0
                ),
                "use smaller heaps",
            ));
        }
        let mut m = BigUint::zero();
        while m < p.0 {
            out.push((m.clone(), 0));
            m += 1u8;
        }
        Ok(())
    }
}

impl Transfinite for NimWithIncreases {
    fn families(&self, p: &(BigUint, u64)) -> Result<Vec<OptionFamily<'_, (BigUint, u64)>>> {
        let (n, t) = (p.0.clone(), p.1);
        let mut out = Vec::new();
        if !self.0.forced || t == 0 {
            if n <= BigUint::from(SMALL_HEAP) {
                let mut m = BigUint::zero();
                while m < n {
                    out.push(OptionFamily::One((m.clone(), t)));
                    m += 1u8;
                }
            } else {
                let values = self.removal_values(&n, t);
                let zero = BigUint::zero();
                out.push(OptionFamily::Values {
                    values,
                    pick: Box::new(move |v| self.preimage(&zero, Some(&n), t, v).map(|m| (m, t))),
                });
            }
        }
        if t > 0 {
            let lo = if self.0.zero_allowed {
                p.0.clone()
            } else {
                &p.0 + 1u8
            };
            let s = t - 1;
            out.push(OptionFamily::Values {
                values: self.ray_values(&lo, s),
                pick: Box::new(move |v| self.preimage(&lo, None, s, v).map(|m| (m, s))),
            });
        }
        Ok(out)
    }
}
