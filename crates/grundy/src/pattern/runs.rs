//! Run-length tables and self-similar rules, found in the values of any heap game.
//!
//! A *run* is a maximal interval of heaps with one Grundy value. Games whose moves shrink a
//! heap by a factor (the floor-division games) have few, geometrically growing runs, and often
//! obey a *self-similar rule* `G(n) = G(⌊n/r⌋)` for `n >= n0`. Such a rule shows in the run
//! table: if `S - 1 >= n0` starts a run, `G(⌊(S-1)/r⌋) != G(⌊S/r⌋)`, so `r` divides `S` and
//! `S/r` starts a run too — run starts beyond `r·n0` are `r` times earlier ones. Candidate
//! ratios are therefore `S_last / s` over run starts `s` dividing the last start `S_last`.
//!
//! Found in finite data a rule is only *apparent*; [`crate::pattern::divide`] proves rules of
//! floor-division games.

use crate::heap::sequence::Cell;
use std::fmt::Write;

/// The runs of a Grundy sequence over `[0, end)`: run `i` is `[starts[i], starts[i+1])` (the
/// last ends at `end`) with value `values[i]`; adjacent runs have different values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunTable {
    starts: Vec<u128>,
    values: Vec<u32>,
    end: u128,
}

impl RunTable {
    /// The run table of an explicit sequence `G(0), G(1), ...`.
    pub fn from_values(values: &[u32]) -> Self {
        let mut t = RunTable {
            starts: Vec::new(),
            values: Vec::new(),
            end: values.len() as u128,
        };
        for (n, &v) in values.iter().enumerate() {
            if t.values.last() != Some(&v) {
                t.starts.push(n as u128);
                t.values.push(v);
            }
        }
        t
    }

    /// An empty table that will describe `[0, end)`; fill it with [`RunTable::push`].
    pub(crate) fn with_end(end: u128) -> Self {
        RunTable {
            starts: Vec::new(),
            values: Vec::new(),
            end,
        }
    }

    /// Appends a run starting at `start` (above every earlier start) with value `value`.
    pub(crate) fn push(&mut self, start: u128, value: u32) {
        self.starts.push(start);
        self.values.push(value);
    }

    /// The value of the run holding `n`, for `n` at or after the first start (the table may
    /// still be growing, so `end` is not checked).
    pub(crate) fn value_in(&self, n: u128) -> u32 {
        self.values[self.index(n)]
    }

    /// The run start points, ascending (the first is 0).
    pub fn starts(&self) -> &[u128] {
        &self.starts
    }

    /// The value of each run.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The first heap not covered: runs describe `[0, end)`.
    pub fn end(&self) -> u128 {
        self.end
    }

    /// The number of runs.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no runs (an empty sequence).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The run `(start, end, value)` number `i`.
    pub fn run(&self, i: usize) -> (u128, u128, u32) {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.end);
        (self.starts[i], end, self.values[i])
    }

    /// The index of the run holding `n` (`n < end`).
    fn index(&self, n: u128) -> usize {
        self.starts.partition_point(|&s| s <= n) - 1
    }

    /// `G(n)`, or `None` if `n` is beyond the table.
    pub fn value(&self, n: u128) -> Option<u32> {
        (n < self.end && !self.is_empty()).then(|| self.values[self.index(n)])
    }

    /// The smallest `n0 >= 1` such that `G(n) = G(⌊n/r⌋)` for every `n0 <= n < end`.
    ///
    /// Both sides are piecewise constant: `G` changes only at run starts `s`, `G(⌊n/r⌋)` only at
    /// `r·s`. Walking the merged breakpoints from the top down, the first interval on which
    /// they differ ends at `n0`.
    pub fn self_similar_from(&self, r: u128) -> u128 {
        let mut points: Vec<u128> = self
            .starts
            .iter()
            .copied()
            .chain(self.starts.iter().filter_map(|&s| s.checked_mul(r)))
            .filter(|&p| p >= 1 && p < self.end)
            .collect();
        points.push(1);
        points.sort_unstable();
        points.dedup();
        let mut hi = self.end;
        for &lo in points.iter().rev() {
            // Constant on [lo, hi) on both sides.
            if self.values[self.index(lo)] != self.values[self.index(lo / r)] {
                return hi;
            }
            hi = lo;
        }
        1
    }

    /// Candidate ratios of a self-similar rule: `S_last / s` for run starts `1 <= s < S_last`
    /// dividing the last run start, ascending.
    pub fn candidate_ratios(&self) -> Vec<u128> {
        let Some(&last) = self.starts.last() else {
            return Vec::new();
        };
        let mut r: Vec<u128> = self
            .starts
            .iter()
            .filter(|&&s| s >= 1 && s < last && last % s == 0)
            .map(|&s| last / s)
            .collect();
        r.sort_unstable();
        r.dedup();
        r
    }

    /// The table as text: one `start-end: value` item per run (at most `limit` runs, then the
    /// number left out).
    pub fn describe(&self, limit: usize) -> String {
        let mut s = String::new();
        for i in 0..self.len().min(limit) {
            let (a, b, v) = self.run(i);
            let sep = if i > 0 { ", " } else { "" };
            if b == a + 1 {
                let _ = write!(s, "{sep}{a}: {v}");
            } else {
                let _ = write!(s, "{sep}{a}-{}: {v}", b - 1);
            }
        }
        if self.len() > limit {
            let _ = write!(s, ", ... ({} runs in all)", self.len());
        }
        s
    }
}

/// A self-similar rule `G(n) = G(⌊n/ratio⌋)` seen in data for every `from <= n < end`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfSimilar {
    /// The ratio `r >= 2`.
    pub ratio: u128,
    /// The smallest `n0 >= 1` from which the data obey the rule.
    pub from: u128,
}

/// The apparent self-similar rule with the smallest ratio: the data obey it from `n0`, cover
/// two generations of it (`n0·r² <= end`), and the rule has reproduced a run boundary (the
/// last run starts at or beyond `n0·r`; otherwise the data are merely constant at the end).
/// Not a proof.
pub fn find_self_similar(table: &RunTable) -> Option<SelfSimilar> {
    let &last = table.starts().last()?;
    table.candidate_ratios().into_iter().find_map(|r| {
        let from = table.self_similar_from(r);
        let reproduced = from.checked_mul(r)?;
        let two_generations = reproduced.checked_mul(r)?;
        (two_generations <= table.end() && last >= reproduced)
            .then_some(SelfSimilar { ratio: r, from })
    })
}

/// What [`RunStats::of`] reads off a sequence in one pass, without a run table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunStats {
    /// The number of runs.
    pub count: usize,
    /// The first of the longest runs `(start, end, value)`, if any value.
    pub longest: Option<(u128, u128, u32)>,
    /// The start of the last run (0 if there are no values).
    pub last_start: usize,
}

impl RunStats {
    /// The runs of `values`, counted in one pass (the same as [`RunTable::from_values`]'s
    /// length and its first longest run, in constant memory).
    pub fn of<T: Cell>(values: &[T]) -> RunStats {
        let mut st = RunStats {
            count: 0,
            longest: None,
            last_start: 0,
        };
        let close = |st: &mut RunStats, b: usize, v: u32| {
            let a = st.last_start;
            if st.longest.is_none_or(|(x, y, _)| (b - a) as u128 > y - x) {
                st.longest = Some((a as u128, b as u128, v));
            }
        };
        for n in 1..values.len() {
            if values[n] != values[n - 1] {
                close(&mut st, n, values[n - 1].get());
                st.count += 1;
                st.last_start = n;
            }
        }
        if let Some(v) = values.last() {
            close(&mut st, values.len(), v.get());
            st.count += 1;
        }
        st
    }
}

/// [`find_self_similar`] read straight off the values, without a run table (whose starts cost
/// 16 bytes a run): the candidate ratios `S_last / s` are found from the divisors `s` of the
/// last run start `S_last` that start a run, and the smallest start `n0` of a ratio `r` by
/// scanning `G(n) = G(⌊n/r⌋)` down from the last value to the first `n` where it fails.
pub fn find_self_similar_in<T: Cell>(values: &[T], stats: &RunStats) -> Option<SelfSimilar> {
    let len = values.len();
    let last = stats.last_start;
    if len == 0 || last < 2 {
        return None;
    }
    let starts_run = |s: usize| values[s] != values[s - 1];
    let mut divisors = Vec::new();
    let mut d = 1;
    while d * d <= last {
        if last.is_multiple_of(d) {
            divisors.push(d);
            divisors.push(last / d);
        }
        d += 1;
    }
    let mut ratios: Vec<usize> = divisors
        .into_iter()
        .filter(|&s| s >= 1 && s < last && starts_run(s))
        .map(|s| last / s)
        .collect();
    ratios.sort_unstable();
    ratios.dedup();
    ratios.into_iter().find_map(|r| {
        let mut from = len;
        while from > 1 && values[from - 1] == values[(from - 1) / r] {
            from -= 1;
        }
        let from = from.max(1) as u128;
        let (r, end) = (r as u128, len as u128);
        let reproduced = from.checked_mul(r)?;
        let two_generations = reproduced.checked_mul(r)?;
        (two_generations <= end && last as u128 >= reproduced)
            .then_some(SelfSimilar { ratio: r, from })
    })
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level search, for testing [`find_self_similar`].
pub mod reference {
    /// The smallest `(r, n0)` with `G(n) = G(⌊n/r⌋)` for `n0 <= n < len`, `n0·r² <= len`
    /// and the last change of value at or beyond `n0·r`, trying every ratio and start.
    pub fn find_self_similar(values: &[u32]) -> Option<(u128, u128)> {
        let len = values.len();
        let last = (1..len)
            .rev()
            .find(|&n| values[n] != values[n - 1])
            .unwrap_or(0);
        for r in 2..=len {
            for n0 in 1..=len {
                if n0 * r * r > len {
                    break;
                }
                if last >= n0 * r && (n0..len).all(|n| values[n] == values[n / r]) {
                    return Some((r as u128, n0 as u128));
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

    #[test]
    fn runs_of_a_short_sequence() {
        let t = RunTable::from_values(&[0, 1, 1, 2, 2, 2, 0]);
        assert_eq!(t.starts(), &[0, 1, 3, 6]);
        assert_eq!(t.values(), &[0, 1, 2, 0]);
        assert_eq!(t.describe(10), "0: 0, 1-2: 1, 3-5: 2, 6: 0");
        assert_eq!(t.describe(2), "0: 0, 1-2: 1, ... (4 runs in all)");
        assert_eq!(t.value(5), Some(2));
        assert_eq!(t.value(7), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Sequences built from a seed by a self-similar rule (with noise below n0), and
        /// random sequences: the run-table search agrees with trying every (r, n0).
        #[test]
        fn self_similar_search_matches_brute_force(
            seed in proptest::collection::vec(0u32..3, 1..12),
            r in 2usize..6,
            len in 1usize..400,
            random in proptest::collection::vec(0u32..2, 1..60),
        ) {
            let n0 = seed.len();
            let v: Vec<u32> = (0..len)
                .scan(Vec::new(), |g: &mut Vec<u32>, n| {
                    let x = if n < n0 { seed[n] } else { g[n / r] };
                    g.push(x);
                    Some(x)
                })
                .collect();
            for data in [&v, &random] {
                let found = find_self_similar(&RunTable::from_values(data))
                    .map(|s| (s.ratio, s.from));
                prop_assert_eq!(found, reference::find_self_similar(data));
                let stats = RunStats::of(data.as_slice());
                let table = RunTable::from_values(data);
                prop_assert_eq!(stats.count, table.len());
                prop_assert_eq!(stats.last_start as u128, *table.starts().last().unwrap());
                let longest = (0..table.len()).rev().map(|i| table.run(i)).max_by_key(|&(a, b, _)| b - a);
                prop_assert_eq!(stats.longest, longest);
                prop_assert_eq!(find_self_similar_in(data.as_slice(), &stats).map(|s| (s.ratio, s.from)), found);
                let narrow: Vec<u8> = data.iter().map(|&x| x as u8).collect();
                prop_assert_eq!(find_self_similar_in(&narrow, &RunStats::of(&narrow)).map(|s| (s.ratio, s.from)), found);
            }
        }
    }
}
