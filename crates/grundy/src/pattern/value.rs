//! The analysis of a heap game (`grundy analyze`) and Grundy values of heaps of any size
//! (`grundy value`), from whatever is proved.
//!
//! [`analyze`] picks the strongest tool the game allows:
//!
//! * Nim: `G(n) = n` (the options of `n` are all smaller heaps, so `G(n) = mex{0..n-1}`):
//!   arithmetic-periodic with period 1 and saltus 1, proved.
//! * `divide:D`: the run engine of [`divide`] covers heaps below 2^64 and proves a
//!   self-similar rule `G(n) = G(⌊n/r⌋)` when there is one.
//! * Finite subtraction sets and take-and-break codes: values are computed, doubling the count,
//!   until a period is proved by the theorem of [`periodic`] or `max` values are done.
//! * Other games (Grundy's game, squares, scripts): `max` values, searched for apparent periods,
//!   arithmetic periods and self-similar rules, none of them proved.
//!
//! [`SequenceAnalysis::value`] then answers `G(n)` for any `n`: through a proved period (reducing `n`
//! modulo the period), a proved self-similar rule (dividing `n` by the ratio), the run table, or
//! the computed values; beyond all of them it fails with [`Error::Limit`], never guessing and
//! never computing without bound.

use super::divide::{self, SelfSimilarRule, DEFAULT_MAX_RUNS};
use super::periodic::{self, PeriodOutcome, PeriodProof, Periodicity, Theorem};
use super::runs::{self, RunStats, RunTable};
use crate::control::Control;
use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::heap::sequence::{self, with_cells, Cell, SaveFn, Sequence};
use crate::heap::HeapGame;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// The default number of values [`analyze`] computes at most, for games whose values cost
/// little each (see [`default_max`]).
pub const DEFAULT_MAX: u64 = 1_000_000;

/// The default `max` for a game: [`DEFAULT_MAX`], but 10^4 for take-and-break codes leaving
/// three heaps and 10^5 for `squares` and scripts, whose values cost about `n` resp. `√n`
/// options (or a script call) each; 10^3 for a program's own rule (its cost per value is its
/// own: a Python callable pays an interpreter call each); for a finite subtraction set, the
/// values that prove its period ([`subtraction_values_bound`]), at most [`SUBTRACTION_MAX`].
pub fn default_max(spec: &GameSpec) -> u64 {
    match spec {
        GameSpec::Custom(_) => 1_000,
        GameSpec::TakeBreak(c) if c.max_heaps() >= 3 => 10_000,
        GameSpec::Squares | GameSpec::Script(_) => 100_000,
        GameSpec::Subtraction(s) if s.is_finite() => {
            subtraction_values_bound(s).min(SUBTRACTION_MAX as u128) as u64
        }
        _ => DEFAULT_MAX,
    }
}

/// The most values [`default_max`] lets a finite subtraction game compute: 2^26 (values of
/// such games cost a few nanoseconds each, so a few seconds and at most 256 MiB).
pub const SUBTRACTION_MAX: u64 = 1 << 26;

/// How many values surely prove the period of the subtraction game with the finite set `s`:
/// `(|S|+1)^t + t` (saturating), `t` the largest element.
///
/// Why. A heap `n` has at most `|S|` options, so `G(n) <= |S|`: values lie in `{0..|S|}`. For
/// `n >= t`, `G(n)` is the mex of `G(n-s)`, `s ∈ S`, so it is a function of the window
/// `W(n) = (G(n-t), ..., G(n-1))`, and `W(n)` determines `W(n+1)`. Among the
/// `M = (|S|+1)^t + 1` windows `W(t), ..., W(t+M-1)` two are equal (there are only
/// `(|S|+1)^t` windows), say `W(i) = W(j)` with `t <= i < j <= t + M - 1`; then
/// `G(n + (j-i)) = G(n)` for every `n >= i - t`, a preperiod `n0 = i - t` and a period
/// `p = j - i` with `n0 + p = j - t <= M - 1`. The smallest period divides `p` and the smallest
/// preperiod is at most `n0`, so [`Theorem::Subtraction`], which checks `n0 <= n < n0 + t`
/// with `G(n+p)` known, proves the period from the first `n0 + p + t <= (|S|+1)^t + t` values.
pub fn subtraction_values_bound(s: &crate::game::spec::SubtractionSet) -> u128 {
    let t = s.max();
    let base = s.len().saturating_add(1);
    let windows = u32::try_from(t)
        .ok()
        .and_then(|t| base.checked_pow(t))
        .unwrap_or(u128::MAX);
    windows.saturating_add(t as u128)
}

/// Heaps the run engine covers when analysing a `divide:D` game: `[0, 2^64)`.
const DIVIDE_END: u128 = 1 << 64;

/// How many runs the text of a pattern lists.
const RUNS_SHOWN: usize = 12;

/// The values a period is listed in full in a pattern text, at most.
const PERIOD_SHOWN: usize = 40;

/// What is known about a game, and how its values are obtained.
#[derive(Clone, Debug)]
enum Knowledge {
    /// `G(n) = n`.
    Nim,
    /// Periodic forever (proved): the first `preperiod + period` values suffice.
    Period {
        /// `G(0 .. preperiod + period)`.
        head: Sequence,
        /// Smallest preperiod and period.
        per: Periodicity,
    },
    /// A run table, with a proved self-similar rule if one was found.
    Runs {
        /// Runs over `[0, table.end())`.
        table: RunTable,
        /// The proved rule.
        rule: Option<SelfSimilarRule>,
    },
    /// Only the values computed.
    Values(Sequence),
}

/// What is known about a heap game's Grundy sequence `G(0), G(1), ...`: the result of
/// [`analyze`], what `grundy analyze` reports, and the means to answer `value`.
///
/// A period is *proved* when a periodicity theorem applies (for subtraction and take-and-break
/// games: if `G(n + p) = G(n)` holds on a finite window fixed by the rule, it holds for every
/// `n` from the preperiod on, by induction over the options); otherwise it is only *apparent*
/// and [`SequenceAnalysis::value`] refuses heaps beyond the computed ones.
///
/// With the feature `serde` it is written as its [`AnalysisDocument`], the one JSON answer of
/// `grundy analyze --json`, `POST /api/analyze` and Python's `Analysis.to_dict()`.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(into = "AnalysisDocument")
)]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SequenceAnalysis {
    /// The game in canonical notation.
    pub game: String,
    /// The number of heaps whose values were computed (for `divide:D`: covered by runs).
    pub computed: u128,
    /// The period found (plain or arithmetic), proved or apparent.
    pub period: Option<Periodicity>,
    /// Whether the reported regularity (the period, or for `divide:D` the self-similar rule)
    /// is proved to hold for every heap.
    pub proved: bool,
    /// The theorem and inequality of a proved period.
    pub proof: Option<PeriodProof>,
    /// Every regularity found, in words and formulae.
    pub pattern: String,
    knowledge: Knowledge,
}

answer_document! {
    "analysis";
    /// The answer to "what does this heap game's Grundy sequence do?" as a document: a
    /// `SequenceAnalysis` without the means to compute further values. The command line, the server
    /// and Python all write exactly this (JSON Schema: `docs/schemas/analysis.json`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct AnalysisDocument {
        /// The game in canonical notation.
        pub game: String,
        /// The number of heaps whose values were computed (for `divide:D`: covered by runs, up to
        /// `2^64`), an exact JSON integer.
        pub computed: u128,
        /// The period `p` found (`G(n + p) = G(n) + saltus` from the preperiod on), proved or
        /// apparent; `null` when none was found.
        pub period: Option<usize>,
        /// The first heap from which the period holds.
        pub preperiod: Option<usize>,
        /// The saltus `s` of an arithmetic period (0 for plain periodicity).
        pub saltus: Option<u64>,
        /// Whether the reported regularity (the period, or for `divide:D` the self-similar rule) is
        /// proved to hold for every heap.
        pub proved: bool,
        /// The theorem applied and the finite check carried out, in words, when proved by a
        /// periodicity theorem.
        pub proof: Option<String>,
        /// Every regularity found, in words and formulae.
        pub pattern: String,
        /// The number of runs of equal values, when the values were computed run by run.
        pub runs: Option<usize>,
    }
}

impl From<&SequenceAnalysis> for AnalysisDocument {
    fn from(a: &SequenceAnalysis) -> AnalysisDocument {
        AnalysisDocument {
            game: a.game.clone(),
            computed: a.computed,
            period: a.period.map(|p| p.period),
            preperiod: a.period.map(|p| p.preperiod),
            saltus: a.period.map(|p| p.saltus),
            proved: a.proved,
            proof: a.proof.as_ref().map(|p| p.to_string()),
            pattern: a.pattern.clone(),
            runs: a.run_count(),
        }
    }
}

impl From<SequenceAnalysis> for AnalysisDocument {
    fn from(a: SequenceAnalysis) -> AnalysisDocument {
        AnalysisDocument::from(&a)
    }
}

/// The periodicity theorem that applies to a game, if any: by its notation (finite subtraction
/// sets, take-and-break codes), or as a program's own rule declares it ([`HeapRule::shape`](crate::heap::HeapRule::shape)).
pub fn theorem(game: &HeapGame) -> Option<Theorem> {
    match game.spec() {
        GameSpec::Custom(_) => game.shape(),
        GameSpec::Subtraction(s) if s.is_finite() => Some(Theorem::Subtraction { t: s.max() }),
        GameSpec::TakeBreak(c) => Some(Theorem::TakeBreak {
            h: c.max_heaps() as u64,
            t: c.last_digit() as u64,
        }),
        _ => None,
    }
}

/// Analyses the game `spec` (whose rule is `rule`), computing at most `max` values.
///
/// `progress` is called with the number of values done in the current round.
pub fn analyze(game: &HeapGame, max: u64, ctl: &Control) -> Result<SequenceAnalysis> {
    let (spec, rule) = (game.spec(), game);
    let heap_game = game;
    let game = spec.to_string();
    match spec {
        GameSpec::Nim => Ok(nim(game)),
        GameSpec::Divide(d) => match divide::runs_with(d, DIVIDE_END, DEFAULT_MAX_RUNS, ctl) {
            Ok(table) => Ok(divide_analysis(game, d, table)),
            Err(Error::Limit(l)) if l.kind != crate::LimitKind::Memory => {
                computed_analysis(game, rule, None, max, ctl, Start::fresh())
            }
            Err(e) => Err(e),
        },
        _ => computed_analysis(game, rule, theorem(heap_game), max, ctl, Start::fresh()),
    }
}

/// [`analyze`] resuming from `start`, the first values of the game's sequence (from an earlier
/// run), and calling `saved` with the values computed so far every few million values (see
/// [`sequence::extend_saving`]), so that a run of hours can be stopped and resumed. Games
/// analysed without computing values (Nim, `divide:D`) ignore both.
///
/// `start` must hold values of this game: they are trusted, not recomputed.
pub fn analyze_saving(
    game: &HeapGame,
    max: u64,
    start: Sequence,
    ctl: &Control,
    saved: &mut SaveFn<'_>,
) -> Result<SequenceAnalysis> {
    let spec = game.spec();
    match spec {
        GameSpec::Nim | GameSpec::Divide(_) => analyze(game, max, ctl),
        _ => computed_analysis(
            spec.to_string(),
            game,
            theorem(game),
            max,
            ctl,
            Start {
                values: start,
                saved: Some(saved),
            },
        ),
    }
}

/// Where a computed analysis starts: values already known, and the hook that saves them.
struct Start<'s, 'a> {
    values: Sequence,
    saved: Option<&'s mut SaveFn<'a>>,
}

impl Start<'_, '_> {
    fn fresh() -> Self {
        Start {
            values: Sequence::U8(Vec::new()),
            saved: None,
        }
    }
}

fn nim(game: String) -> SequenceAnalysis {
    SequenceAnalysis {
        game,
        computed: 0,
        period: Some(Periodicity {
            preperiod: 0,
            period: 1,
            saltus: 1,
        }),
        proved: true,
        proof: None,
        pattern: "G(n) = n for every n: arithmetic-periodic with period 1 and saltus 1 from 0 \
                  (proved: the options of n are all smaller heaps, so by induction \
                  G(n) = mex{0, ..., n-1} = n)"
            .to_string(),
        knowledge: Knowledge::Nim,
    }
}

fn divide_analysis(game: String, divisors: &[u64], table: RunTable) -> SequenceAnalysis {
    let d_max = divisors.iter().max().copied().unwrap_or(2);
    let rule = divide::prove_self_similar(divisors, &table);
    let runs_text = table.describe(RUNS_SHOWN);
    let pattern = match rule {
        Some(r) => format!(
            "self-similar: G(n) = G(floor(n/{ratio})) for every n >= {from} (proved: checked \
             for {from} <= n < {to} = max({d_max}·{from}, {ratio}); beyond, every option \
             floor(n/d) is at least {from}, so n and floor(n/{ratio}) have the same option \
             values); run boundaries grow by the factor {ratio}; runs (start-end: value): \
             {runs_text}",
            ratio = r.ratio,
            from = r.from,
            to = r.checked_to,
        ),
        None => format!(
            "no self-similar rule found in heaps below {}; {} runs (start-end: value): \
             {runs_text}",
            table.end(),
            table.len()
        ),
    };
    SequenceAnalysis {
        game,
        computed: table.end(),
        period: None,
        proved: rule.is_some(),
        proof: None,
        pattern,
        knowledge: Knowledge::Runs { table, rule },
    }
}

/// Computes values (doubling from 1024, each round extending the last) until `theorem` proves a period or `max` values are
/// done, then describes what was found.
fn computed_analysis(
    game: String,
    rule: &HeapGame,
    theorem: Option<Theorem>,
    max: u64,
    ctl: &Control,
    start: Start<'_, '_>,
) -> Result<SequenceAnalysis> {
    // Refused before any work: a three-heap code's cost grows as the square of `max`.
    sequence::check_len(rule, max)?;
    if max > sequence::MAX_LEN {
        return Err(Error::limit(
            crate::LimitKind::Length,
            format!(
                "{max} values asked, above the limit of {} values",
                sequence::MAX_LEN
            ),
            "ask for fewer values",
        ));
    }
    let Start {
        values: mut seq,
        mut saved,
    } = start;
    if seq.len() as u64 > max {
        seq.truncate(max as usize);
    }
    let mut n = if theorem.is_some() {
        max.min(1024)
    } else {
        max
    };
    loop {
        // Rounds that resumed values already cover are replayed on a prefix, so that a resumed
        // analysis stops where an uninterrupted one does.
        if (seq.len() as u64) < n {
            seq = match saved.as_deref_mut() {
                Some(save) => sequence::extend_saving(rule, seq, n, ctl, save)?,
                None => sequence::extend(rule, seq, n, ctl)?,
            };
        }
        let outcome = match &theorem {
            Some(t) => {
                with_cells!(&seq, v => periodic::prove_period_with(&v[..n as usize], t, ctl))?
            }
            None => PeriodOutcome::None,
        };
        if let PeriodOutcome::Proved(per, proof) = outcome {
            seq.truncate(n as usize);
            return Ok(proved_period(game, seq, per, proof));
        }
        ctl.stop_check()?;
        if n >= max {
            return Ok(unproved(game, seq, theorem, outcome));
        }
        let need = match outcome {
            PeriodOutcome::Apparent(_, Some(need)) => need.min(max as u128) as u64,
            _ => 0,
        };
        n = n.saturating_mul(2).max(need).min(max);
    }
}

/// The values of one period, listed when short.
fn period_values(values: &Sequence, per: &Periodicity) -> String {
    if per.period > PERIOD_SHOWN {
        return String::new();
    }
    let start = per.preperiod;
    let list: Vec<String> = (start..start + per.period)
        .map(|n| values.get(n).to_string())
        .collect();
    format!("; one period from n = {start}: {}", list.join(" "))
}

fn proved_period(
    game: String,
    mut values: Sequence,
    per: Periodicity,
    proof: PeriodProof,
) -> SequenceAnalysis {
    let pattern = format!(
        "periodic: G(n+{p}) = G(n) for every n >= {n0} (proved by {proof}){}",
        period_values(&values, &per),
        p = per.period,
        n0 = per.preperiod,
    );
    let computed = values.len() as u128;
    // Only the preperiod and one period are kept: the rest follows from them.
    values.truncate(per.preperiod + per.period);
    let head = values;
    SequenceAnalysis {
        game,
        computed,
        period: Some(per),
        proved: true,
        proof: Some(proof),
        pattern,
        knowledge: Knowledge::Period { head, per },
    }
}

fn unproved(
    game: String,
    values: Sequence,
    theorem: Option<Theorem>,
    outcome: PeriodOutcome,
) -> SequenceAnalysis {
    let (pattern, period) =
        with_cells!(&values, v => unproved_pattern(v, &values, theorem, outcome));
    SequenceAnalysis {
        game,
        computed: values.len() as u128,
        period,
        proved: false,
        proof: None,
        pattern,
        knowledge: Knowledge::Values(values),
    }
}

/// The pattern text of [`unproved`] and the period it reports, from the cells `values` of
/// `seq` (read in their stored width: no table a value).
fn unproved_pattern<T: Cell>(
    values: &[T],
    seq: &Sequence,
    theorem: Option<Theorem>,
    outcome: PeriodOutcome,
) -> (String, Option<Periodicity>) {
    let len = values.len();
    let why = |need: Option<u128>| {
        match (&theorem, need) {
        (Some(t), Some(need)) => format!(
            "not proved: {} needs {need} values, {len} computed (raise max, the number of values computed)",
            t.statement()
        ),
        (Some(_), None) => "not proved: the theorem's bound overflows".to_string(),
        (None, _) => "not proved: no periodicity theorem applies to this game".to_string(),
    }
    };
    let mut parts = Vec::new();
    let mut period = None;
    // A self-similar rule explains long final runs better than an apparent period 1 (which is
    // then only the last run), so it is looked for first and such a period is dropped.
    let stats = RunStats::of(values);
    let similar = runs::find_self_similar_in(values, &stats);
    if let Some(s) = similar {
        parts.push(format!(
            "apparently self-similar: G(n) = G(floor(n/{})) for {} <= n < {len} (not proved: \
             no theorem for this game); run boundaries grow by the factor {}",
            s.ratio, s.from, s.ratio
        ));
    }
    let apparent = match outcome {
        PeriodOutcome::Apparent(per, need) => Some((per, need)),
        _ => periodic::find_period(values).map(|per| {
            let need = theorem.and_then(|t| t.values_needed(per.preperiod, per.period));
            (per, need)
        }),
    };
    let apparent = apparent.filter(|(per, _)| similar.is_none() || per.period > 1);
    match apparent {
        Some((per, need)) => {
            parts.push(format!(
                "apparently periodic: G(n+{}) = G(n) for {} <= n < {} ({}){}",
                per.period,
                per.preperiod,
                len - per.period,
                why(need),
                period_values(seq, &per)
            ));
            period = Some(per);
        }
        None if similar.is_some() => {}
        None => {
            if let Some(per) = periodic::find_arithmetic_period(values) {
                parts.push(format!(
                    "apparently arithmetic-periodic: G(n+{}) = G(n) + {} for {} <= n < {} \
                     (not proved: no arithmetic-periodicity theorem is implemented for this \
                     game)",
                    per.period,
                    per.saltus,
                    per.preperiod,
                    len - per.period
                ));
                period = Some(per);
            }
        }
    }
    if parts.is_empty() {
        parts.push(format!(
            "no period, arithmetic period or self-similar rule found in the first {len} values"
        ));
    }
    if let Some((a, b, v)) = stats.longest {
        parts.push(format!(
            "{} runs of equal values; the first longest: G(n) = {v} for {a} <= n < {b}",
            stats.count
        ));
    }
    (parts.join("; "), period)
}

impl SequenceAnalysis {
    /// The pattern for a reader who is shown [`SequenceAnalysis::proof`] beside it: a proved period
    /// without the proof repeated; otherwise [`SequenceAnalysis::pattern`].
    pub fn pattern_beside_proof(&self) -> String {
        match (&self.proof, &self.knowledge) {
            (Some(_), Knowledge::Period { head, per }) => format!(
                "periodic: G(n+{p}) = G(n) for every n >= {n0} (proved){}",
                period_values(head, per),
                p = per.period,
                n0 = per.preperiod,
            ),
            _ => self.pattern.clone(),
        }
    }

    /// The number of runs, when the values were computed run by run (`divide:D`).
    pub fn run_count(&self) -> Option<usize> {
        match &self.knowledge {
            Knowledge::Runs { table, .. } => Some(table.len()),
            _ => None,
        }
    }

    /// `G(n)` from what the analysis proved or computed; [`Error::Limit`] when `n` is beyond
    /// both.
    pub fn value(&self, n: &BigUint) -> Result<BigUint> {
        let beyond = |computed: &dyn std::fmt::Display| {
            Error::limit(
                crate::LimitKind::Values,
                format!(
                    "no pattern of {} is proved and heap {n} is beyond the {computed} values \
                     computed",
                    self.game
                ),
                "raise max, the number of values computed",
            )
        };
        match &self.knowledge {
            Knowledge::Nim => Ok(n.clone()),
            Knowledge::Period { head, per } => {
                let i = match n.to_usize() {
                    Some(i) if i < head.len() => i,
                    _ => {
                        let off = (n - BigUint::from(per.preperiod)) % BigUint::from(per.period);
                        per.preperiod + off.to_usize().unwrap_or(0)
                    }
                };
                Ok(BigUint::from(head.get(i)))
            }
            Knowledge::Runs { table, rule } => {
                let mut m = n.clone();
                if let Some(r) = rule {
                    let (from, ratio) = (BigUint::from(r.from), BigUint::from(r.ratio));
                    while m >= from {
                        m /= &ratio;
                    }
                }
                m.to_u128()
                    .and_then(|m| table.value(m))
                    .map(BigUint::from)
                    .ok_or_else(|| beyond(&table.end()))
            }
            Knowledge::Values(v) => n
                .to_usize()
                .filter(|&i| i < v.len())
                .map(|i| BigUint::from(v.get(i)))
                .ok_or_else(|| beyond(&v.len())),
        }
    }
}

/// `G(n)` for each `n` of `heaps`: directly from the first values when every heap is below
/// `max`, otherwise through [`analyze`] (computing at most `max` values) and
/// [`SequenceAnalysis::value`]. Floor-division games use their run engine for any heap below 2^128.
pub fn values(game: &HeapGame, heaps: &[BigUint], max: u64, ctl: &Control) -> Result<Vec<BigUint>> {
    let (spec, rule) = (game.spec(), game);
    let largest = heaps.iter().max().cloned().unwrap_or_else(BigUint::zero);
    let direct = largest.to_u64().filter(|&l| l < max);
    let analysis = match (spec, direct) {
        (GameSpec::Nim, _) => nim(spec.to_string()),
        (GameSpec::Divide(d), _) => {
            let end = largest
                .to_u128()
                .and_then(|l| l.checked_add(1))
                .unwrap_or(u128::MAX)
                .max(DIVIDE_END);
            match divide::runs_with(d, end, DEFAULT_MAX_RUNS, ctl) {
                Ok(table) => divide_analysis(spec.to_string(), d, table),
                Err(e) => return Err(e),
            }
        }
        (_, Some(l)) => {
            let v = sequence::compute(rule, l + 1, ctl)?;
            unproved(spec.to_string(), v, None, PeriodOutcome::None)
        }
        _ => analyze(game, max, ctl)?,
    };
    heaps.iter().map(|n| analysis.value(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::heap::reference;
    use crate::notation::game::parse_game;

    fn analysis(game: &str, max: u64) -> SequenceAnalysis {
        let hg = HeapGame::from_spec(parse_game(game).unwrap()).unwrap();
        analyze(&hg, max, &Control::none()).unwrap()
    }

    fn period_of(game: &str) -> (usize, usize, bool) {
        let a = analysis(game, DEFAULT_MAX);
        let p = a.period.unwrap();
        (p.period, p.preperiod, a.proved)
    }

    /// A proved period agrees with the reference values far beyond the theorem's bound.
    #[test]
    fn proved_periods_match_reference_far_beyond_the_bound() {
        // (game, reference values): several times the theorem's check range each.
        for (game, len) in [
            ("kayles", 2000),
            ("dawsons-kayles", 2000),
            ("octal:0.51", 2000),
            ("octal:0.15", 2000),
            ("sub:1,4", 2000),
            ("octal:4.07", 2000),
            ("octal:0.F", 300),
        ] {
            let a = analysis(game, 4096);
            let hg = HeapGame::from_spec(parse_game(game).unwrap()).unwrap();
            let reference = reference::sequence(&hg, len).unwrap();
            assert!(a.proved, "{game}: {}", a.pattern);
            for (n, &v) in reference.iter().enumerate() {
                assert_eq!(
                    a.value(&BigUint::from(n)).unwrap(),
                    BigUint::from(v),
                    "{game} at {n}"
                );
            }
        }
    }

    /// Every subtraction set within {1..7}: the default search proves a period, the values
    /// it needed stay within the bound of [`subtraction_values_bound`], and the period agrees
    /// with the definition far beyond; `sub:1-1000000` is proved by default too.
    #[test]
    fn finite_subtraction_games_are_proved_within_the_window_bound() {
        for mask in 1u32..1 << 7 {
            let set: Vec<String> = (0..7)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| (b + 1).to_string())
                .collect();
            let game = format!("sub:{}", set.join(","));
            let spec = parse_game(&game).unwrap();
            let max = default_max(&spec);
            let bound = subtraction_values_bound(spec.subtraction().unwrap());
            assert_eq!(max as u128, bound.min(SUBTRACTION_MAX as u128));
            let a = analysis(&game, max);
            assert!(a.proved, "{game}: {}", a.pattern);
            let p = a.period.unwrap();
            let t = spec.subtraction().unwrap().max() as u128;
            assert!((p.preperiod + p.period) as u128 + t <= bound, "{game}");
            let rule = HeapGame::from_spec(spec.clone()).unwrap();
            let reference = reference::sequence(&rule, 3000).unwrap();
            for (n, &v) in reference.iter().enumerate() {
                assert_eq!(
                    a.value(&BigUint::from(n)).unwrap(),
                    BigUint::from(v),
                    "{game}"
                );
            }
        }
        let spec = parse_game("sub:1-1000000").unwrap();
        assert_eq!(default_max(&spec), SUBTRACTION_MAX);
        let game = HeapGame::from_spec(spec.clone()).unwrap();
        let v = values(
            &game,
            &[BigUint::from(12_983_567_378_251u64)],
            default_max(&spec),
            &Control::none(),
        )
        .unwrap();
        // S = {1..k}: G(n) = n mod (k+1), as every smaller residue is one move away.
        assert_eq!(v, [BigUint::from(12_983_567_378_251u64 % 1_000_001)]);
    }

    /// Officers' cousin 0.16: period 149459 from 105351 (Gangolli and Plambeck), proved.
    #[test]
    fn octal_016_has_its_published_period_proved() {
        assert_eq!(period_of("octal:0.16"), (149_459, 105_351, true));
    }

    /// `values` agrees with the definition for divide games (run engine and rule), Nim, and
    /// games answered from computed values; and refuses what it cannot know.
    #[test]
    fn values_agree_with_the_definition() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        for _ in 0..20 {
            let k = rng.gen_range(1..5);
            let d: Vec<u64> = (0..k).map(|_| rng.gen_range(2..30)).collect();
            let game = format!(
                "divide:{}",
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let hg = HeapGame::from_spec(parse_game(&game).unwrap()).unwrap();
            let spec = hg.spec();
            let naive = divide::reference::values(spec.divisors().unwrap(), 20_000);
            let heaps: Vec<BigUint> = (0..20_000u32).map(BigUint::from).collect();
            let got = values(&hg, &heaps, 10, &Control::none()).unwrap();
            for (n, g) in got.iter().enumerate() {
                assert_eq!(*g, BigUint::from(naive[n]), "{game} at {n}");
            }
        }
        for game in ["nim", "squares", "grundys-game", "octal:0.8"] {
            let hg = HeapGame::from_spec(parse_game(game).unwrap()).unwrap();
            let naive = reference::sequence(&hg, 300).unwrap();
            let heaps: Vec<BigUint> = (0..300u32).map(BigUint::from).collect();
            let got = values(&hg, &heaps, 1000, &Control::none()).unwrap();
            let want: Vec<BigUint> = naive.iter().map(|&v| BigUint::from(v)).collect();
            assert_eq!(got, want, "{game}");
        }
        let hg = HeapGame::from_spec(parse_game("grundys-game").unwrap()).unwrap();
        let huge = [BigUint::from(10u64).pow(30)];
        let e = values(&hg, &huge, 500, &Control::none()).unwrap_err();
        assert!(matches!(e, Error::Limit(_)), "{e}");
    }

    /// Every take-and-break code 0.ab and 4.ab (octal digits) and a sample of hexadecimal
    /// codes: whatever period is proved from at most 2048 values agrees with the reference
    /// values well past the theorem's check range.
    #[test]
    fn proofs_of_short_codes_agree_with_the_reference() {
        let mut codes: Vec<String> = Vec::new();
        for d0 in ["0", "4"] {
            for a in 0..8 {
                for b in 1..8 {
                    codes.push(format!("octal:{d0}.{a}{b}"));
                }
            }
        }
        for hex in [
            "0.8", "0.9", "0.B", "0.F", "0.18", "0.4C", "8.1", "0.0F", "C.3",
        ] {
            codes.push(format!("octal:{hex}"));
        }
        let mut proved = 0;
        for game in &codes {
            let a = analysis(game, 2048);
            let Some(proof) = &a.proof else { continue };
            proved += 1;
            let hg = HeapGame::from_spec(parse_game(game).unwrap()).unwrap();
            let spec = hg.spec();
            let three = spec.take_break().unwrap().max_heaps() == 3;
            let len = (proof.check.1 as usize * 3)
                .max(200)
                .min(if three { 250 } else { 1500 });
            let reference = reference::sequence(&hg, len).unwrap();
            for (n, &v) in reference.iter().enumerate() {
                assert_eq!(
                    a.value(&BigUint::from(n)).unwrap(),
                    BigUint::from(v),
                    "{game} at {n}"
                );
            }
        }
        // 90 of these 121 codes are proved from 2048 values (the rest need more, or are
        // arithmetic-periodic like 0.8, or are not known to be periodic).
        assert!(proved >= 90, "only {proved} of {} proved", codes.len());
    }
}
