//! The ordinal engine, and games whose positions may have infinitely many options.
//!
//! [`TransfiniteSolver`] computes Grundy values of games given by option families
//! ([`Transfinite`], the capability beside [`Game`](crate::game::Game) that describes them, with
//! the theorem behind them): the mex of the union of the families' values, an ordinal. It
//! checks the *induction step* of a game's theory (the mex of the stated option values is the
//! claimed value), while the truncation tests of [`games`] check the theory as a whole against
//! a finite game solved by brute force. On positions whose options are finitely many all the
//! way down, the finite engines run the same games through [`Game::options`](crate::game::Game)
//! and agree with it (tested).
//!
//! | module | what it holds |
//! |---|---|
//! | this one | the ordinal engine: values, sums, winning moves |
//! | [`games`] | cascading nim, nim with increases, the Codeforces 1451F matrix game, the DAG path game, the Codeforces 1149E game |

pub mod games;

use crate::error::{Error, Result};
use crate::game::transfinite::{OptionFamily, Transfinite};
use crate::ordinal::nim_sum::{nim_sum, nim_sum_all, OrdinalSet};
use crate::ordinal::Ordinal;
use std::collections::HashMap;

/// A winning move in a sum of positions.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SumMove<P> {
    /// The index (0-based) of the component moved in.
    pub component: usize,
    /// The component's position after the move.
    pub to: P,
    /// The component's value after the move (the nim-sum of the others, so the sum becomes 0).
    pub to_value: Ordinal,
}

/// The analysis of a sum of positions: its value, outcome and a winning move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SumAnalysis<P> {
    /// The value of each component.
    pub values: Vec<Ordinal>,
    /// Their nim-sum, the value of the sum.
    pub value: Ordinal,
    /// A winning move, if the player to move wins (value ≠ 0).
    pub winning_move: Option<SumMove<P>>,
}

/// Memoising Grundy solver over a [`Transfinite`] game, with a bound on positions evaluated:
/// `g(p)` is the ordinal mex of the values of the option families (see the module
/// documentation), and a sum's value is the ordinal nim-sum of its components' values.
pub struct TransfiniteSolver<'g, G: Transfinite> {
    game: &'g G,
    memo: HashMap<G::Position, Ordinal>,
    max_positions: usize,
}

impl<'g, G: Transfinite> TransfiniteSolver<'g, G> {
    /// An engine that evaluates at most `max_positions` distinct positions (beyond that it
    /// returns [`Error::Limit`]).
    pub fn new(game: &'g G, max_positions: usize) -> Self {
        TransfiniteSolver {
            game,
            memo: HashMap::new(),
            max_positions,
        }
    }

    /// The Grundy value of `p`: `mex` of the union of its families' values, single options
    /// evaluated first (depth-first with an explicit stack, so deep games do not overflow).
    pub fn value(&mut self, p: &G::Position) -> Result<Ordinal> {
        if let Some(v) = self.memo.get(p) {
            return Ok(v.clone());
        }
        let mut stack: Vec<G::Position> = vec![p.clone()];
        while let Some(top) = stack.last() {
            if self.memo.contains_key(top) {
                stack.pop();
                continue;
            }
            let families = self.game.families(top)?;
            let mut set = OrdinalSet::new();
            let mut pending = Vec::new();
            for f in families {
                match f {
                    OptionFamily::One(q) => match self.memo.get(&q) {
                        Some(v) => set.insert(v.clone()),
                        None => pending.push(q),
                    },
                    OptionFamily::Values { values, .. } => set.extend(values),
                }
            }
            if pending.is_empty() {
                let top = stack.pop().expect("stack is not empty");
                if self.memo.len() >= self.max_positions {
                    return Err(Error::limit(
                        crate::LimitKind::Positions,
                        format!(
                            "the game has more than {} positions to evaluate",
                            self.max_positions
                        ),
                        "use smaller positions",
                    ));
                }
                self.memo.insert(top, set.mex());
            } else {
                if stack.len() > self.max_positions {
                    return Err(Error::limit(
                        crate::LimitKind::Positions,
                        format!(
                            "more than {} positions await evaluation (or the game's options \
                             run in a cycle, and it is not well-founded)",
                            self.max_positions
                        ),
                        "use smaller positions",
                    ));
                }
                stack.extend(pending);
            }
        }
        Ok(self.memo[p].clone())
    }

    /// An option of `p` whose value is `target`, if there is one.
    pub fn option_with_value(
        &mut self,
        p: &G::Position,
        target: &Ordinal,
    ) -> Result<Option<G::Position>> {
        for f in self.game.families(p)? {
            match f {
                OptionFamily::One(q) => {
                    if &self.value(&q)? == target {
                        return Ok(Some(q));
                    }
                }
                OptionFamily::Values { values, pick } => {
                    if values.contains(target) {
                        if let Some(q) = pick(target) {
                            return Ok(Some(q));
                        }
                    }
                }
            }
        }
        Ok(None)
    }

    /// Analyses the sum of `components`: the nim-sum of their values and, when it is not 0, a
    /// winning move.
    ///
    /// Derivation: let `s ≠ 0` be the nim-sum and `2^(ω·e+k)` its largest power of 2 (the top
    /// bit `k` of its leading coefficient, at `ω^e`). Some component's value `g` has that power
    /// too (it is the xor of theirs); then `t = g ⊕ s` agrees with `g` above it and lacks it, so
    /// `t < g` and, `g` being a mex, some option of that component has value `t`, which makes
    /// the sum's value `s ⊕ g ⊕ t = 0`.
    pub fn analyze_sum(&mut self, components: &[G::Position]) -> Result<SumAnalysis<G::Position>> {
        let values = components
            .iter()
            .map(|c| self.value(c))
            .collect::<Result<Vec<_>>>()?;
        let value = nim_sum_all(&values);
        let mut winning_move = None;
        if let Some(lead) = value.terms().first() {
            let k = lead.coefficient.bits() - 1;
            let i = values
                .iter()
                .position(|g| g.coefficient(&lead.exponent).bit(k))
                .ok_or_else(|| Error::Internal("nim-sum bit in no component".into()))?;
            let target = nim_sum(&values[i], &value);
            let to = self
                .option_with_value(&components[i], &target)?
                .ok_or_else(|| {
                    Error::Internal(format!(
                        "no option of value {target} below the component's value {}",
                        values[i]
                    ))
                })?;
            winning_move = Some(SumMove {
                component: i,
                to,
                to_value: target,
            });
        }
        Ok(SumAnalysis {
            values,
            value,
            winning_move,
        })
    }
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level Grundy values of finite games, used by the truncation tests: a plain
/// memoised mex over explicitly listed options.
pub mod reference {
    use std::collections::HashMap;
    use std::hash::Hash;

    /// `g(p) = mex { g(q) : q ∈ options(p) }` by recursion with memo (finite acyclic games).
    pub fn grundy<P: Clone + Eq + Hash>(
        p: &P,
        options: &dyn Fn(&P) -> Vec<P>,
        memo: &mut HashMap<P, u64>,
    ) -> u64 {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let mut seen: Vec<u64> = options(p)
            .iter()
            .map(|q| grundy(q, options, memo))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        let v = seen
            .iter()
            .enumerate()
            .find(|&(i, &x)| i as u64 != x)
            .map_or(seen.len() as u64, |(i, _)| i as u64);
        memo.insert(p.clone(), v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::transfinite::infinitely_many_options;
    use crate::game::Game;

    /// Nim on ordinals below ω·2: a heap `(a, b)` is ω·a + b with `a ≤ 1`; from ω·1 + b one may
    /// move to `(0, x)` for *any* natural x, or to `(1, b')` for b' < b.
    struct SmallOrdinalNim;

    /// The finite positions `(0, b)` list their options; `(1, b)` has infinitely many.
    impl Game for SmallOrdinalNim {
        type Position = (u8, u64);
        fn options(&self, p: &(u8, u64), out: &mut Vec<(u8, u64)>) -> Result<()> {
            if p.0 == 1 {
                return Err(infinitely_many_options("a heap of ω or more"));
            }
            out.extend((0..p.1).map(|b| (0, b)));
            Ok(())
        }
    }

    impl Transfinite for SmallOrdinalNim {
        fn families(&self, p: &(u8, u64)) -> Result<Vec<OptionFamily<'_, (u8, u64)>>> {
            let mut f: Vec<OptionFamily<'_, (u8, u64)>> =
                (0..p.1).map(|b| OptionFamily::One((p.0, b))).collect();
            if p.0 == 1 {
                let mut values = OrdinalSet::new();
                values.insert_below(Ordinal::omega());
                f.push(OptionFamily::Values {
                    values,
                    pick: Box::new(|v| {
                        v.as_natural()
                            .and_then(|n| u64::try_from(n).ok())
                            .map(|n| (0, n))
                    }),
                });
            }
            Ok(f)
        }
    }

    #[test]
    fn finite_positions_run_in_the_finite_engine() {
        let mut e = TransfiniteSolver::new(&SmallOrdinalNim, 10_000);
        for b in 0..40 {
            let finite = crate::solve::acyclic::grundy(&SmallOrdinalNim, &(0, b), 10_000).unwrap();
            assert_eq!(Ordinal::from(finite), e.value(&(0, b)).unwrap());
        }
        let err = crate::solve::acyclic::grundy(&SmallOrdinalNim, &(1, 0), 10_000).unwrap_err();
        assert!(
            matches!(&err, Error::Limit(l) if l.kind == crate::LimitKind::Fixed),
            "{err:?}"
        );
        assert!(err.to_string().contains("infinitely many options"), "{err}");
    }

    #[test]
    fn ordinal_nim_heaps_have_their_own_value() {
        let mut e = TransfiniteSolver::new(&SmallOrdinalNim, 10_000);
        assert_eq!(e.value(&(0, 5)).unwrap(), Ordinal::from(5));
        assert_eq!(e.value(&(1, 0)).unwrap().to_string(), "w");
        assert_eq!(e.value(&(1, 3)).unwrap().to_string(), "w+3");
        // (ω+3) ⊕ (ω+1) ⊕ 7 = 2 ⊕ 7 = 5, whose top bit 4 is only in 7: move 7 to 7 ⊕ 5 = 2.
        let a = e.analyze_sum(&[(1, 3), (1, 1), (0, 7)]).unwrap();
        assert_eq!(a.value, Ordinal::from(5));
        let m = a.winning_move.unwrap();
        assert_eq!((m.component, m.to), (2, (0, 2)));
        // ω ⊕ 3: move the ω heap to 3.
        let a = e.analyze_sum(&[(1, 0), (0, 3)]).unwrap();
        assert_eq!(a.value.to_string(), "w+3");
        assert_eq!(a.winning_move.unwrap().to, (0, 3));
        assert!(e
            .analyze_sum(&[(1, 2), (1, 2)])
            .unwrap()
            .winning_move
            .is_none());
    }

    #[test]
    fn limits_are_enforced() {
        let mut e = TransfiniteSolver::new(&SmallOrdinalNim, 10);
        assert!(matches!(e.value(&(0, 100)), Err(Error::Limit(_))));
    }
}
