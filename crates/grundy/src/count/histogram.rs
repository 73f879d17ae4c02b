//! Histograms of Grundy values over a range of heap sizes `[M, N]`: `h[v] = #{n ∈ [M, N] :
//! G(n) = v}`, the input of every count.
//!
//! Heap ranges are `u128` (up to 2^128 − 2), so the histogram is computed from a description
//! of the sequence, not by enumeration:
//! - [`Periodic`]: `G(n) = preperiod[n]` for `n < pre`, then `G(n) = period[r] + s·q` where
//!   `n − pre = q·p + r`, `0 ≤ r < p` (arithmetic periodicity with saltus `s`; `s = 0` is plain
//!   periodicity). Cost `O(pre + p + V)` for values below `V`, whatever the range.
//! - [`RunList`] (and any [`RunSource`], such as a self-similar rule supplied by the pattern
//!   module): maximal runs of equal values; cost proportional to the runs meeting the range.
//! - explicit values ([`histogram_of_values`], [`histogram_of_fn`]): enumeration, with a limit.
//!
//! Every histogram is dense over the values `0..V`, and the counting transform needs the power
//! of two above the largest value, so values are limited by [`Limits::max_value`].

use crate::control::Control;
use crate::error::{Error, Result};

/// Resource limits for building histograms; the defaults suit a machine with a few GiB.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// Grundy values must be below this (the transform has the power of two above the largest
    /// value entries; 2^25 entries of 16 bytes is 512 MiB).
    pub max_value: u64,
    /// The most heap sizes enumerated one by one (explicit values, [`histogram_of_fn`]).
    pub max_enumeration: u128,
    /// The most runs visited in a run table.
    pub max_runs: u64,
}

impl Limits {
    /// Sets [`Limits::max_value`].
    pub fn with_max_value(mut self, max_value: u64) -> Limits {
        self.max_value = max_value;
        self
    }

    /// Sets [`Limits::max_enumeration`].
    pub fn with_max_enumeration(mut self, max_enumeration: u128) -> Limits {
        self.max_enumeration = max_enumeration;
        self
    }

    /// Sets [`Limits::max_runs`].
    pub fn with_max_runs(mut self, max_runs: u64) -> Limits {
        self.max_runs = max_runs;
        self
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_value: 1 << 25,
            max_enumeration: 1 << 32,
            max_runs: 1 << 28,
        }
    }
}

/// How many heaps in the range have each Grundy value: `counts()[v]` heaps have value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u128>,
}

impl Histogram {
    /// The histogram with these counts (`counts[v]` heaps of value `v`); trailing zeros are
    /// dropped. The total must stay below 2^126 (the transform is exact in 128-bit words).
    pub fn from_counts(mut counts: Vec<u128>) -> Result<Histogram> {
        while counts.last() == Some(&0) {
            counts.pop();
        }
        let mut total: u128 = 0;
        for &c in &counts {
            total = total
                .checked_add(c)
                .filter(|&t| t < 1 << 126)
                .ok_or_else(|| {
                    Error::limit(
                        crate::LimitKind::HeapRange,
                        "the histogram holds 2^126 heaps or more",
                        "count over a smaller range of heap sizes",
                    )
                })?;
        }
        Ok(Histogram { counts })
    }

    /// `counts()[v]` is the number of heaps whose Grundy value is `v`; the last entry is
    /// nonzero (the slice is empty when the range is).
    pub fn counts(&self) -> &[u128] {
        &self.counts
    }

    /// The number of heaps in the range.
    pub fn total(&self) -> u128 {
        self.counts.iter().sum()
    }

    /// The transform length: the least power of two above every value present (1 if none).
    /// Nim-sums of values present are below it.
    pub fn transform_len(&self) -> usize {
        self.counts.len().max(1).next_power_of_two()
    }
}

/// An eventually (arithmetic-)periodic sequence: `G(n) = preperiod[n]` for `n < pre`, and
/// `G(pre + q·p + r) = period[r] + saltus·q` for `0 ≤ r < p = period.len()`.
///
/// For the subtraction game with moves `1..m`, `G(n) = n mod (m + 1)`: no preperiod, period
/// `0, 1, ..., m`, saltus 0 (the options of `n` are `n−1, ..., n−m`, whose values by induction
/// are every residue mod `m+1` except `n mod (m+1)`, and those below it are all present).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Periodic {
    /// `G(0), ..., G(pre − 1)`.
    pub preperiod: Vec<u64>,
    /// `G(pre), ..., G(pre + p − 1)`; must not be empty.
    pub period: Vec<u64>,
    /// `s` in `G(n + p) = G(n) + s` for `n ≥ pre` (0 for plain periodicity).
    pub saltus: u64,
}

/// One run of a run table: `G(n) = value` from `start` up to the next run's start.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The first heap size of the run.
    pub start: u128,
    /// The Grundy value throughout the run.
    pub value: u64,
}

/// A sequence given by its runs of equal values: `runs` sorted by strictly increasing `start`,
/// the first starting at 0; the last run extends to `end` (exclusive), or forever if `None`.
///
/// A list written out by hand or by a rule, possibly endless; the table of runs found in
/// computed values is [`crate::pattern::runs::RunTable`].
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunList {
    /// The runs, in increasing order of start.
    pub runs: Vec<Run>,
    /// Heap sizes from here on are unknown (`None`: the last run never ends).
    pub end: Option<u128>,
}

/// Anything that can list the maximal runs of a sequence meeting a range: run tables, and
/// self-similar or other rule-based descriptions provided by the pattern module.
pub trait RunSource {
    /// Calls `visit(start, end, value)` (inclusive bounds) for runs covering every heap size in
    /// `[lo, hi]` exactly once, clipped to it, in increasing order; an error from `visit` stops
    /// the walk and is returned. Fails if some heap size in the range is not described.
    fn runs_in(
        &self,
        lo: u128,
        hi: u128,
        visit: &mut dyn FnMut(u128, u128, u64) -> Result<()>,
    ) -> Result<()>;
}

impl RunSource for RunList {
    fn runs_in(
        &self,
        lo: u128,
        hi: u128,
        visit: &mut dyn FnMut(u128, u128, u64) -> Result<()>,
    ) -> Result<()> {
        if self.runs.first().map(|r| r.start) != Some(0) {
            return Err(Error::invalid(
                "a run table must start with a run at heap size 0",
            ));
        }
        if self.runs.windows(2).any(|w| w[0].start >= w[1].start) {
            return Err(Error::invalid(
                "the runs of a run table must have strictly increasing starts",
            ));
        }
        if let Some(end) = self.end {
            if hi >= end {
                return Err(Error::limit(
                    crate::LimitKind::HeapRange,
                    format!("the run table describes heap sizes below {end} only, not {hi}"),
                    "count over a smaller range of heap sizes, or extend the table",
                ));
            }
        }
        // The run containing lo: the last whose start is ≤ lo.
        let first = self.runs.partition_point(|r| r.start <= lo) - 1;
        for (i, run) in self.runs.iter().enumerate().skip(first) {
            if run.start > hi {
                break;
            }
            let next = self.runs.get(i + 1).map_or(u128::MAX, |r| r.start - 1);
            visit(run.start.max(lo), next.min(hi), run.value)?;
        }
        Ok(())
    }
}

/// A dense counter over values below `limits.max_value`.
struct Counter {
    counts: Vec<u128>,
    max_value: u64,
}

impl Counter {
    /// A counter for the range `[min, max]`, or `None` if the range is empty. Checks the upper
    /// end, so that `max − min + 1` never overflows.
    fn for_range(min: u128, max: u128, limits: &Limits) -> Result<Option<Counter>> {
        if max == u128::MAX {
            return Err(Error::invalid("heap sizes must be below 2^128 - 1"));
        }
        Ok((min <= max).then(|| Counter {
            counts: Vec::new(),
            max_value: limits.max_value,
        }))
    }

    fn check_value(&self, value: u64) -> Result<usize> {
        if value >= self.max_value {
            return Err(Error::limit(
                crate::LimitKind::CountValue,
                format!(
                    "the Grundy value {value} occurs in the range, and counting needs a transform \
                     of the power of two above the largest value; values are limited to below {}",
                    self.max_value
                ),
                "count over a smaller range of heap sizes, or raise Limits::max_value",
            ));
        }
        Ok(value as usize)
    }

    fn add(&mut self, value: u64, count: u128) -> Result<()> {
        let v = self.check_value(value)?;
        if v >= self.counts.len() {
            self.counts.resize(v + 1, 0);
        }
        self.counts[v] += count;
        Ok(())
    }

    fn finish(self) -> Result<Histogram> {
        Histogram::from_counts(self.counts)
    }
}

/// The histogram of `G` over `[min, max]` for an eventually periodic `G` (see [`Periodic`]).
///
/// Without saltus: heap sizes `n ≥ pre` with `n − pre ≡ r (mod p)` in `[lo, max]` number
/// `c(max − pre) − c(lo − pre − 1)`, where `c(x) = #{t ∈ [0, x] : t ≡ r} = ⌊(x − r)/p⌋ + 1` for
/// `x ≥ r` and 0 otherwise. With saltus `s`, residue `r` takes the values `period[r] + s·q` for
/// `q` in an interval, an arithmetic progression of step `s`, added in `O(1)` to a difference
/// array along step `s` and summed afterwards: cost `O(p + V)`.
pub fn histogram_of_periodic(
    g: &Periodic,
    min: u128,
    max: u128,
    limits: &Limits,
) -> Result<Histogram> {
    let p = g.period.len() as u128;
    if p == 0 {
        return Err(Error::invalid(
            "the period of a periodic sequence must not be empty",
        ));
    }
    let Some(mut counter) = Counter::for_range(min, max, limits)? else {
        return Histogram::from_counts(vec![]);
    };
    let pre = g.preperiod.len() as u128;
    for n in min..=max.min(pre.saturating_sub(1)) {
        if n < pre {
            counter.add(g.preperiod[n as usize], 1)?;
        }
    }
    let lo = min.max(pre);
    if lo > max {
        return counter.finish();
    }
    // t = n − pre ranges over [t_lo, t_hi]; q_range(r) = the q with t = q·p + r in range.
    let (t_lo, t_hi) = (lo - pre, max - pre);
    let q_range = |r: u128| -> Option<(u128, u128)> {
        let q_first = if t_lo <= r { 0 } else { (t_lo - r).div_ceil(p) };
        if t_hi < r {
            return None;
        }
        let q_last = (t_hi - r) / p;
        (q_first <= q_last).then_some((q_first, q_last))
    };
    if g.saltus == 0 {
        for (r, &v) in g.period.iter().enumerate() {
            if let Some((a, b)) = q_range(r as u128) {
                counter.add(v, b - a + 1)?;
            }
        }
        return counter.finish();
    }
    // Saltus: find the largest value first, so the limit is checked before any allocation.
    let s = g.saltus as u128;
    let mut top = 0u64;
    for (r, &v) in g.period.iter().enumerate() {
        if let Some((_, b)) = q_range(r as u128) {
            let value = s
                .checked_mul(b)
                .and_then(|x| x.checked_add(v as u128))
                .and_then(|x| u64::try_from(x).ok())
                .unwrap_or(u64::MAX);
            counter.check_value(value)?;
            top = top.max(value);
        }
    }
    // Difference array along step s: diff[v] += 1, diff[v + s·len] −= 1, then
    // counts[v] = diff[v] + counts[v − s] (prefix sums within each class mod s).
    let len = top as usize + 1;
    let step = g.saltus as usize;
    let mut diff = vec![0i128; len];
    for (r, &v) in g.period.iter().enumerate() {
        if let Some((a, b)) = q_range(r as u128) {
            // first ≤ top (checked above); past may lie beyond the array, or beyond usize when
            // the saltus is huge and only q = 0 is in range: then there is nothing to cancel.
            let first = v as usize + step * a as usize;
            diff[first] += 1;
            let past = (b as usize + 1)
                .checked_mul(step)
                .and_then(|x| x.checked_add(v as usize));
            if let Some(past) = past.filter(|&p| p < len) {
                diff[past] -= 1;
            }
        }
    }
    for i in step..len {
        diff[i] += diff[i - step];
    }
    for (v, &c) in diff[..len].iter().enumerate() {
        if c != 0 {
            counter.add(v as u64, c as u128)?;
        }
    }
    counter.finish()
}

/// The histogram over `[min, max]` of a sequence given by its runs.
pub fn histogram_of_runs(
    src: &dyn RunSource,
    min: u128,
    max: u128,
    limits: &Limits,
) -> Result<Histogram> {
    let Some(mut counter) = Counter::for_range(min, max, limits)? else {
        return Histogram::from_counts(vec![]);
    };
    let mut visited = 0u64;
    let mut expected = min;
    src.runs_in(min, max, &mut |a, b, v| {
        visited += 1;
        if visited > limits.max_runs {
            return Err(Error::limit(
                crate::LimitKind::Runs,
                format!("more than {} runs meet the range", limits.max_runs),
                "count over a smaller range of heap sizes, or raise Limits::max_runs",
            ));
        }
        if a != expected || b < a || b > max {
            return Err(Error::Internal(format!(
                "a run source gave the run [{a}, {b}] where one starting at {expected} was due"
            )));
        }
        expected = b.wrapping_add(1);
        counter.add(v, b - a + 1)
    })?;
    if expected != max.wrapping_add(1) {
        return Err(Error::Internal(format!(
            "a run source stopped at heap size {expected}, short of {max}"
        )));
    }
    counter.finish()
}

/// The histogram over `[min, max]` of explicitly listed values: `values[n] = G(n)`.
pub fn histogram_of_values(
    values: &[u64],
    min: u128,
    max: u128,
    limits: &Limits,
) -> Result<Histogram> {
    let Some(mut counter) = Counter::for_range(min, max, limits)? else {
        return Histogram::from_counts(vec![]);
    };
    if max >= values.len() as u128 {
        return Err(Error::limit(
            crate::LimitKind::Values,
            format!(
                "values are known for heap sizes below {} only, not up to {max}",
                values.len()
            ),
            "count over a smaller range of heap sizes, or analyse more values",
        ));
    }
    for &v in &values[min as usize..=max as usize] {
        counter.add(v, 1)?;
    }
    counter.finish()
}

/// How many heap sizes [`histogram_of_fn`] enumerates between two checks of its [`Control`].
const CHECK_EVERY: u128 = 1 << 14;

/// The histogram over `[min, max]` of `g`, by evaluating it at every heap size: at most
/// `limits.max_enumeration` of them. `ctl` receives the number of heap sizes done every few
/// thousand, and may stop the enumeration (`Err(Error::Cancelled(_))`).
pub fn histogram_of_fn(
    min: u128,
    max: u128,
    limits: &Limits,
    ctl: &Control,
    mut g: impl FnMut(u128) -> Result<u64>,
) -> Result<Histogram> {
    let Some(mut counter) = Counter::for_range(min, max, limits)? else {
        return Histogram::from_counts(vec![]);
    };
    if max - min >= limits.max_enumeration {
        return Err(Error::limit(
            crate::LimitKind::Enumeration,
            format!(
                "the range holds {} heap sizes, and without a proved pattern they are enumerated \
                 one by one, at most {}",
                max - min + 1,
                limits.max_enumeration
            ),
            "count over a smaller range of heap sizes",
        ));
    }
    for n in min..=max {
        if (n - min).is_multiple_of(CHECK_EVERY) {
            ctl.check((n - min) as u64)?;
        }
        counter.add(g(n)?, 1)?;
    }
    counter.finish()
}

/// The histogram of a heap game's Grundy values over `[min, max]`, from what
/// [`crate::pattern::value::analyze`] established about it (`analysis` is the analysis of
/// `game`).
///
/// A *proved* period `G(n + p) = G(n) + s` (for `n ≥ pre`) determines every value from the
/// first `pre + p`, so the histogram over any range costs `O(pre + p + V)`
/// ([`histogram_of_periodic`]). Without a proof, each heap's value is asked of the analysis
/// ([`crate::pattern::value::SequenceAnalysis::value`]: a proved self-similar rule, a run table, or a
/// computed value), which enumerates the range under `limits`; a heap beyond what is known is an
/// [`Error::Limit`], never a guess.
///
/// Games whose moves divide the heap (`divide:D`) are described by their run table instead
/// ([`crate::pattern::divide::runs`], logarithmically many runs up to any bound), so their
/// histograms over ranges up to 2^128 cost the number of runs, not the number of heaps.
///
/// `ctl` is checked while heap sizes are enumerated ([`histogram_of_fn`]).
pub fn histogram_of_analysis(
    game: &crate::heap::HeapGame,
    analysis: &crate::pattern::value::SequenceAnalysis,
    min: u128,
    max: u128,
    limits: &Limits,
    ctl: &Control,
) -> Result<Histogram> {
    use num_traits::ToPrimitive;
    if let Some(divisors) = game.spec().divisors() {
        let end = max.checked_add(1).ok_or_else(|| {
            Error::limit(
                crate::LimitKind::HeapRange,
                "heap sizes up to 2^128 - 1",
                "count over a smaller range of heap sizes",
            )
        })?;
        let table = crate::pattern::divide::runs_with(
            divisors,
            end,
            usize::try_from(limits.max_runs).unwrap_or(usize::MAX),
            ctl,
        )?;
        let runs = RunList {
            runs: table
                .starts()
                .iter()
                .zip(table.values())
                .map(|(&start, &value)| Run {
                    start,
                    value: u64::from(value),
                })
                .collect(),
            end: Some(table.end()),
        };
        return histogram_of_runs(&runs, min, max, limits);
    }
    let value_of = |n: u128| -> Result<u64> {
        analysis
            .value(&num_bigint::BigUint::from(n))?
            .to_u64()
            .ok_or_else(|| {
                Error::limit(
                    crate::LimitKind::Fixed,
                    "a Grundy value above 2^64",
                    "count over a smaller range of heap sizes",
                )
            })
    };
    if let (true, Some(p)) = (analysis.proved, analysis.period) {
        let head = (0..p.preperiod as u128)
            .map(value_of)
            .collect::<Result<Vec<_>>>()?;
        let period = (p.preperiod as u128..(p.preperiod + p.period) as u128)
            .map(value_of)
            .collect::<Result<Vec<_>>>()?;
        let g = Periodic {
            preperiod: head,
            period,
            saltus: p.saltus,
        };
        return histogram_of_periodic(&g, min, max, limits);
    }
    histogram_of_fn(min, max, limits, ctl, value_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn periodic_value(g: &Periodic, n: u128) -> u64 {
        let pre = g.preperiod.len() as u128;
        if n < pre {
            return g.preperiod[n as usize];
        }
        let p = g.period.len() as u128;
        let (q, r) = ((n - pre) / p, (n - pre) % p);
        g.period[r as usize] + g.saltus * q as u64
    }

    fn periodic_strategy() -> impl Strategy<Value = Periodic> {
        (
            proptest::collection::vec(0u64..20, 0..6),
            proptest::collection::vec(0u64..20, 1..7),
            prop_oneof![Just(0u64), 1u64..5],
        )
            .prop_map(|(preperiod, period, saltus)| Periodic {
                preperiod,
                period,
                saltus,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn periodic_equals_enumeration(g in periodic_strategy(), min in 0u128..40, len in 0u128..80) {
            let max = min + len;
            let lim = Limits::default();
            let fast = histogram_of_periodic(&g, min, max, &lim).unwrap();
            let slow = histogram_of_fn(min, max, &lim, &Control::none(), |n| Ok(periodic_value(&g, n))).unwrap();
            prop_assert_eq!(fast, slow);
        }

        #[test]
        fn runs_equal_enumeration(
            lens in proptest::collection::vec((1u128..6, 0u64..9), 1..10),
            min in 0u128..30, len in 0u128..30,
        ) {
            let mut runs = Vec::new();
            let mut values = Vec::new();
            let mut start = 0;
            for &(l, v) in &lens {
                runs.push(Run { start, value: v });
                start += l;
                values.extend(std::iter::repeat_n(v, l as usize));
            }
            let last = lens.last().unwrap().1;
            values.extend(std::iter::repeat_n(last, 80));
            let table = RunList { runs, end: None };
            let lim = Limits::default();
            let max = min + len;
            prop_assert_eq!(
                histogram_of_runs(&table, min, max, &lim).unwrap(),
                histogram_of_values(&values, min, max, &lim).unwrap()
            );
        }
    }

    #[test]
    fn huge_range_periodic() {
        // Subtraction game 1..10^6: G(n) = n mod (10^6 + 1).
        let p = 1_000_001u64;
        let g = Periodic {
            preperiod: vec![],
            period: (0..p).collect(),
            saltus: 0,
        };
        let h = histogram_of_periodic(&g, 1, 12_983_567_378_251, &Limits::default()).unwrap();
        assert_eq!(h.total(), 12_983_567_378_251);
        // 12983567378251 = 12983554394·(10^6+1) + 12972857: residues 1..=12972857 get one more.
        let q = 12_983_567_378_251u128 / p as u128;
        let r = 12_983_567_378_251u128 % p as u128;
        assert_eq!(h.counts()[0], q); // n = 0 is outside the range
        assert_eq!(h.counts()[1], q + 1);
        assert_eq!(h.counts()[r as usize], q + 1);
        assert_eq!(h.counts()[r as usize + 1], q);
        assert_eq!(h.transform_len(), 1 << 20);
        // Near the top of u128.
        let top = u128::MAX - 1;
        let h = histogram_of_periodic(&g, top - 5, top, &Limits::default()).unwrap();
        assert_eq!(h.total(), 6);
    }

    #[test]
    fn limits_are_errors_not_crashes() {
        let lim = Limits::default();
        let g = Periodic {
            preperiod: vec![],
            period: vec![0, 1],
            saltus: 1,
        };
        let e = histogram_of_periodic(&g, 0, 1 << 40, &lim).unwrap_err();
        assert!(matches!(e, Error::Limit(_)), "{e}");
        // A huge saltus with only the first period in range: no huge allocation.
        let g = Periodic {
            preperiod: vec![],
            period: vec![0, 1, 2],
            saltus: 1 << 62,
        };
        let h = histogram_of_periodic(&g, 0, 2, &lim).unwrap();
        assert_eq!(h.counts(), &[1, 1, 1]);
        let e =
            histogram_of_fn(0, 1 << 40, &lim, &Control::none(), |n| Ok(n as u64 % 3)).unwrap_err();
        assert!(matches!(e, Error::Limit(_)));
        let e = histogram_of_values(&[0, 1, 2], 0, 3, &lim).unwrap_err();
        assert!(matches!(e, Error::Limit(_)));
        let bad = Periodic {
            preperiod: vec![],
            period: vec![],
            saltus: 0,
        };
        assert!(matches!(
            histogram_of_periodic(&bad, 0, 1, &lim),
            Err(Error::Invalid(_))
        ));
        assert!(histogram_of_values(&[0, 1, 2], 5, 3, &lim)
            .unwrap()
            .counts()
            .is_empty());
        let table = RunList {
            runs: vec![Run { start: 0, value: 1 }],
            end: Some(10),
        };
        assert!(matches!(
            histogram_of_runs(&table, 0, 10, &lim),
            Err(Error::Limit(_))
        ));
        let huge = Histogram::from_counts(vec![1 << 125, 1 << 125]);
        assert!(matches!(huge, Err(Error::Limit(_))));
    }
}
