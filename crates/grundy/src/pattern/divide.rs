//! The run-based engine of floor-division games, and proofs of their self-similar rules.
//!
//! In `divide:D` a move replaces a heap `n >= 1` by `⌊n/d⌋` for some `d ∈ D` (every `d >= 2`);
//! heap 0 has no moves. So `G(0) = 0` and `G(n) = mex { G(⌊n/d⌋) : d ∈ D }`.
//!
//! # Runs instead of values
//!
//! `G` is constant on long intervals (*runs*). Keep the runs found so far as their start points
//! `0 = s_0 < s_1 < ...`. For `n` in an interval `[x, y)` the option `⌊n/d⌋` moves from one run
//! into the next exactly when `n` passes `d·s_i` (since `⌊n/d⌋ >= s_i ⟺ n >= d·s_i`). So if no
//! `d·s_i` lies in `(x, y)`, every option stays inside one run and `G` is constant on `[x, y)`:
//! one mex gives the value of the whole interval. The intervals must also keep the options
//! behind the frontier: `⌊n/d⌋ < x ⟺ n < d·x`, so `y <= d_min·x`. Walking `x` upwards through
//! the breakpoints `{d·s_i} ∪ {d_min·x}` computes every run up to `N` in
//! `O(R·|D|·log R)` operations for `R` runs — for `divide:2,3,4,5,6`, a few hundred runs reach
//! `10^38`.
//!
//! # Self-similar rules, proved
//!
//! **Theorem.** Let `r >= 2`, `n0 >= 1`, `d_max = max D`, and `L = max(d_max·n0, r)`. If
//! `G(n) = G(⌊n/r⌋)` for `n0 <= n < L`, then it holds for every `n >= n0`.
//!
//! *Proof* by induction on `n >= L`. Every option `m = ⌊n/d⌋` satisfies `n0 <= m < n` (as
//! `n >= d·n0`), so `G(m) = G(⌊m/r⌋)`, and `⌊⌊n/d⌋/r⌋ = ⌊n/(dr)⌋ = ⌊⌊n/r⌋/d⌋`. The heap
//! `q = ⌊n/r⌋ >= 1` (as `n >= r`) has exactly the options `⌊q/d⌋`, so `n` and `q` have the same
//! set of option values and `G(n) = G(q)`. ∎
//!
//! A run start `S > n0·r` of a sequence obeying the rule is `r` times a run start (`G(S-1) !=
//! G(S)` forces `⌊(S-1)/r⌋ != ⌊S/r⌋`), so candidate ratios are read off the run table as
//! `S_last / s` over run starts `s` dividing the last one.

use super::runs::RunTable;
use crate::control::Control;
use crate::error::{Error, Result};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most runs [`runs`] keeps by default (about 24 bytes each).
pub const DEFAULT_MAX_RUNS: usize = 1 << 22;

/// The most breakpoints `d·s` [`runs`] queues (16 bytes each): with `|D|` divisors at most
/// `MAX_BREAKPOINTS / |D|` runs are kept, whatever `max_runs` says.
pub const MAX_BREAKPOINTS: usize = 1 << 25;

/// The run table of `divide:D` over `[0, end)`, computed run by run (see the module docs).
///
/// `divisors` must be non-empty with every element at least 2 (as the GAME parser ensures).
/// Fails with [`Error::Limit`] if more than `max_runs` runs (or [`MAX_BREAKPOINTS`] queued
/// breakpoints) are needed.
pub fn runs(divisors: &[u64], end: u128, max_runs: usize) -> Result<RunTable> {
    runs_with(divisors, end, max_runs, &Control::none())
}

/// Bytes of one run of [`runs`]: its start (16) and value (4) in the table, at most doubled by
/// the growth of the table's vectors.
pub const RUN_BYTES: u64 = 40;

/// [`runs`], counting the bytes of the table ([`RUN_BYTES`] a run, and 16 bytes a queued
/// breakpoint) against the budget of `ctl` before it grows, and checking `ctl` as it goes.
pub fn runs_with(divisors: &[u64], end: u128, max_runs: usize, ctl: &Control) -> Result<RunTable> {
    let mut bytes = ctl.reserve(0, "the run table of the floor-division game")?;
    let per_run = RUN_BYTES + 16 * divisors.len() as u64;
    ctl.stop_check()?;
    let d_min = *divisors
        .iter()
        .min()
        .ok_or_else(|| Error::invalid("divide: the set of divisors is empty"))?;
    if d_min < 2 {
        return Err(Error::invalid("divide: every divisor must be at least 2"));
    }
    // Each run queues |D| breakpoints: bound the queue as well as the table.
    let max_runs = max_runs.min(MAX_BREAKPOINTS / divisors.len()).max(1);
    let mut table = RunTable::with_end(end.max(1));
    table.push(0, 0);
    // Breakpoints d·s for run starts s >= 1, smallest first.
    let mut breaks: BinaryHeap<Reverse<u128>> = BinaryHeap::new();
    let mut seen = vec![false; divisors.len() + 2];
    let mut x: u128 = 1;
    while x < end {
        ctl.tick()?;
        while breaks.peek().is_some_and(|b| b.0 <= x) {
            breaks.pop();
        }
        let mut y = x.saturating_mul(d_min as u128).min(end);
        if let Some(b) = breaks.peek() {
            y = y.min(b.0);
        }
        // mex of the option values at x (constant on [x, y)); values are at most |D|.
        seen.iter_mut().for_each(|s| *s = false);
        for &d in divisors {
            let v = table.value_in(x / d as u128) as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        }
        let g = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32;
        if table.values().last() != Some(&g) {
            if table.len() >= max_runs {
                return Err(Error::limit(
                    crate::LimitKind::Runs,
                    format!(
                        "the run engine needs more than {max_runs} runs to reach heap {end} \
                         (it stopped at heap {x})"
                    ),
                    "no self-similar rule was proved for this divisor set; ask for smaller \
                     heaps",
                ));
            }
            bytes.grow(per_run, "the run table of the floor-division game")?;
            table.push(x, g);
            for &d in divisors {
                if let Some(b) = x.checked_mul(d as u128) {
                    breaks.push(Reverse(b));
                }
            }
        }
        x = y;
    }
    Ok(table)
}

/// A proved self-similar rule: `G(n) = G(⌊n/ratio⌋)` for every `n >= from`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfSimilarRule {
    /// The ratio `r >= 2`.
    pub ratio: u128,
    /// The smallest `n0 >= 1` from which the rule holds.
    pub from: u128,
    /// The rule was checked for `from <= n < checked_to` (`max(d_max·from, r)`), which the
    /// theorem of the module docs extends to every `n`.
    pub checked_to: u128,
}

impl SelfSimilarRule {
    /// `G(n)` through the rule: divide by the ratio until below `from`, then read `table`.
    pub fn reduce(&self, mut n: u128) -> u128 {
        while n >= self.from {
            n /= self.ratio;
        }
        n
    }
}

/// Finds and proves the self-similar rule with the smallest ratio in a run table of `divide:D`.
///
/// Candidate ratios are `S_last / s` for run starts `s` dividing the last run start `S_last`
/// (see the module docs); a candidate is proved when the table covers the theorem's check
/// range `[n0, max(d_max·n0, r))`, where `n0` is the smallest start of the rule in the table.
pub fn prove_self_similar(divisors: &[u64], table: &RunTable) -> Option<SelfSimilarRule> {
    let d_max = *divisors.iter().max()? as u128;
    let ratios = table.candidate_ratios();
    ratios.into_iter().find_map(|r| {
        let from = table.self_similar_from(r);
        let checked_to = d_max.checked_mul(from)?.max(r);
        // The rule must have been seen at work: from·r inside the table.
        (checked_to <= table.end() && from.checked_mul(r)? < table.end()).then_some(
            SelfSimilarRule {
                ratio: r,
                from,
                checked_to,
            },
        )
    })
}

#[cfg(any(test, feature = "testing"))]
/// The definition, for testing the run engine: `G(n) = mex { G(⌊n/d⌋) }` heap by heap.
pub mod reference {
    /// `G(0), ..., G(len-1)` of `divide:D`.
    pub fn values(divisors: &[u64], len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::with_capacity(len);
        for n in 0..len {
            if n == 0 {
                g.push(0);
                continue;
            }
            let opts: Vec<u32> = divisors.iter().map(|&d| g[n / d as usize]).collect();
            g.push((0..).find(|v| !opts.contains(v)).unwrap_or(0));
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The run table counts its bytes against the budget: a budget below one run's bytes stops
    /// it with the memory limit, a cancelled token with `Cancelled`, and a budget large enough
    /// gives the table of the unbounded engine.
    #[test]
    fn run_tables_count_their_bytes_and_stop_when_asked() {
        use crate::control::{CancelToken, MemoryBudget};
        let small = Control::none().with_memory(MemoryBudget::new(RUN_BYTES));
        let e = runs_with(SEED, 1 << 40, DEFAULT_MAX_RUNS, &small).unwrap_err();
        assert!(
            matches!(e, Error::Limit(ref l) if l.kind == crate::LimitKind::Memory),
            "{e}"
        );
        let token = CancelToken::new();
        token.cancel();
        let cancelled = Control::none().with_token(token);
        assert_eq!(
            runs_with(&[2], u128::MAX, usize::MAX, &cancelled),
            Err(Error::Cancelled(crate::error::Interruption::Token))
        );
        let budget = MemoryBudget::new(64 << 20);
        let enough = Control::none().with_memory(budget.clone());
        assert_eq!(
            runs_with(SEED, 1 << 40, DEFAULT_MAX_RUNS, &enough).unwrap(),
            runs(SEED, 1 << 40, DEFAULT_MAX_RUNS).unwrap()
        );
        assert_eq!(budget.used(), 0);
    }

    const SEED: &[u64] = &[2, 3, 4, 5, 6];

    #[test]
    fn seed_game_first_values_and_runs() {
        let naive = reference::values(SEED, 100);
        assert_eq!(&naive[..14], &[0, 1, 2, 2, 3, 3, 0, 0, 0, 0, 0, 0, 1, 1]);
        let t = runs(SEED, 100, DEFAULT_MAX_RUNS).unwrap();
        for (n, &v) in naive.iter().enumerate() {
            assert_eq!(t.value(n as u128), Some(v), "n = {n}");
        }
        assert_eq!(t, RunTable::from_values(&naive));
    }

    /// The published closed form: G(n) = G(⌊n/12⌋) for n >= 6.
    #[test]
    fn seed_game_rule_is_proved_with_ratio_12_from_6() {
        let t = runs(SEED, 1 << 40, DEFAULT_MAX_RUNS).unwrap();
        let rule = prove_self_similar(SEED, &t).unwrap();
        assert_eq!((rule.ratio, rule.from, rule.checked_to), (12, 6, 36));
        // The rule against the naive values, far beyond its check range.
        let naive = reference::values(SEED, 200_000);
        for (n, &v) in naive.iter().enumerate().skip(6) {
            assert_eq!(naive[n / 12], v);
        }
        // And against the run engine at 10^38.
        let big = runs(SEED, u128::MAX, DEFAULT_MAX_RUNS).unwrap();
        for n in [
            10u128.pow(18),
            10u128.pow(38),
            u128::MAX - 1,
            123456789012345678901,
        ] {
            assert_eq!(big.value(n), t.value(rule.reduce(n)));
        }
    }

    #[test]
    fn run_limit_is_an_error_not_a_hang() {
        let e = runs(SEED, u128::MAX, 10).unwrap_err();
        assert!(matches!(e, Error::Limit(_)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The run engine against the definition for every heap below 10^5.
        #[test]
        fn run_engine_matches_definition(
            set in proptest::collection::btree_set(2u64..40, 1..6),
        ) {
            let d: Vec<u64> = set.into_iter().collect();
            let n = 100_000;
            let naive = reference::values(&d, n);
            let t = runs(&d, n as u128, DEFAULT_MAX_RUNS).unwrap();
            prop_assert_eq!(t, RunTable::from_values(&naive));
        }

        /// Every proved rule holds on the naive values.
        #[test]
        fn proved_rules_hold(set in proptest::collection::btree_set(2u64..13, 1..5)) {
            let d: Vec<u64> = set.into_iter().collect();
            let t = runs(&d, 1 << 50, DEFAULT_MAX_RUNS).unwrap();
            if let Some(rule) = prove_self_similar(&d, &t) {
                let naive = reference::values(&d, 50_000);
                for n in rule.from as usize..naive.len() {
                    prop_assert_eq!(naive[n], naive[n / rule.ratio as usize]);
                }
            }
        }
    }
}
