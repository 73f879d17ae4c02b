//! The search engine for games given by their rules ([`Structured`] games): memoised search over
//! canonical components, a transposition table bounded in bytes, an outcome-only search of
//! `G + *k`, and misère play by direct search.
//!
//! # The mathematics
//!
//! **Components.** If `G = G₁ + … + Gₘ` (a disjunctive sum: a move is a move in one part), then
//! `g(G) = g(G₁) ⊕ … ⊕ g(Gₘ)` (Sprague-Grundy). The engine splits every position it meets
//! ([`Components::split`](crate::game::Components::split)) and stores each part's value under the part's own key, so a region met in
//! a thousand different boards is searched once.
//!
//! **Symmetry.** A part is stored under [`Canonical::canonical`](crate::game::Canonical::canonical): isomorphic positions have equal
//! values because a value depends only on the graph of positions reachable.
//!
//! **Outcome of `G + *k` without `g(G)`.** Write `P(G, k)` for "`G + *k` is a P-position",
//! which holds iff `g(G) = k`. The options of `G + *k` are `G' + *k` (a move in `G`) and
//! `G + *j` for `j < k` (a move in the nim heap), and a position is P iff none of its options
//! is. Hence
//!
//! ```text
//!   P(G, k)  ⇔  no option G' of G has P(G', k)   and   no j < k has P(G, j).
//! ```
//!
//! Both conditions stop at the first witness: a single option `G'` with `g(G') = k` settles
//! `P(G, k) = false` without the values of the other options, which the full `mex` would need.
//! When `G'` is itself a sum `D₁ + … + Dᵣ`, `P(G', k) = P(Dᵣ, k ⊕ g(D₁) ⊕ … ⊕ g(Dᵣ₋₁))`: the
//! values of the smaller parts are computed (and cached), the largest part is only tested. The
//! value itself follows as the `k` with `P(G, k)`: `k = 0, 1, 2, …` in turn
//! ([`Method::Outcome`]; every `P(G, j)`, `j < k`, asked on the way is what `P(G, k)` needs
//! anyway). This is the method Lemoine and Viennot used for Cram and Sprouts ("Nimbers are
//! inevitable", 2012). [`Method::Mex`] computes `g(G) = mex { g(G') }` directly.
//!
//! **Choosing between them.** Finding `g(G) = k` by the outcome search asks `P(G, 0), …,
//! P(G, k)`, each a scan of the options, so its cost grows with the values; the mex table costs
//! one look at every option of every position reachable, whatever the values. The outcome search
//! wins when the values are small and pruning leaves most positions unvisited (Cram, whose values
//! are mostly 0 and 1); the table wins when the positions are few and the values large (Wythoff's
//! `(a, b)` has about `a + b + min(a, b)` options and a value near `a + b`). [`Method::Auto`]
//! does not guess: it runs the two in turn, each with a budget of new table entries that doubles
//! on every round (`2¹⁰, 2¹¹, …`), until one finishes. Both fill the same tables with facts that
//! are true whoever found them (`g(C) = v`, `P(C, k)` false), so a method resumed in a later
//! round finds what it settled before, and neither redoes the other's values. If the faster
//! method needs `n` entries, the rounds stop by the one whose budget reaches `n`: at most about
//! `4n` entries are made in all, a constant factor of the better method whichever it is.
//!
//! **Misère play.** Components do not add under misère play, so a misère position is searched
//! as a whole: a position is won by the player to move iff it is terminal or some option is
//! lost. Positions are still stored as multisets of canonical components (a sum is commutative
//! and each part may be replaced by an isomorphic one), and parts without moves are dropped.
//!
//! **Memory.** Every stored entry is charged its key's bytes ([`Footprint::bytes`](crate::game::Footprint::bytes)) plus
//! [`ENTRY_OVERHEAD`] to the [`Control`]'s memory budget, through one reservation named "the
//! transposition table"; when the budget is exhausted the search returns [`Error::Limit`] of
//! kind [`LimitKind::Memory`].

use crate::control::{Control, Reservation};
use crate::error::{Error, LimitKind, Result};
use crate::game::mex;
use crate::game::Structured;
use crate::solve::{Outcome, Play};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::time::Instant;

/// Bytes charged per table entry beyond its key: the hash table's slot, value and spare
/// capacity.
pub const ENTRY_OVERHEAD: usize = 48;

/// The deepest line of search (moves from the starting position, plus nim heaps tried); deeper
/// searches stop with [`Error::Limit`] of kind [`LimitKind::Fixed`].
pub const MAX_DEPTH: usize = 100_000;

/// Positions searched between two progress reports to the control ([`Control::check`]).
pub const PROGRESS_EVERY: u64 = 1 << 12;

/// Stack given to the thread [`solve`] runs the search on: the search recurses once per move
/// of the line it explores.
pub const STACK_BYTES: usize = 1 << 30;

/// First budget of table entries of [`Method::Auto`]'s rounds; it doubles every round.
pub const AUTO_FIRST_BUDGET: u64 = 1 << 10;

/// How the engine computes a Grundy value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum Method {
    /// [`Method::Mex`] and [`Method::Outcome`] in turn, with doubling budgets, until one
    /// finishes (see the module documentation); [`Stats::method`] says which.
    #[default]
    Auto,
    /// `g(G)` is the `k` with `G + *k` a P-position, found by outcome-only search for
    /// `k = 0, 1, …` (see the module documentation).
    Outcome,
    /// `g(G) = mex { g(G') : G → G' }`, every option's value computed: a table of the values of
    /// the positions reachable.
    Mex,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Auto => "auto",
            Method::Outcome => "outcome search of G + *k",
            Method::Mex => "mex table",
        })
    }
}

/// What the engine exploits; everything is on by default. Turning a part off is for
/// measurements and tests: the answers are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// Split positions into independent components ([`Components::split`](crate::game::Components::split)).
    pub decompose: bool,
    /// Store positions under their canonical form ([`Canonical::canonical`](crate::game::Canonical::canonical)).
    pub symmetry: bool,
    /// How values are computed.
    pub method: Method,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            decompose: true,
            symmetry: true,
            method: Method::Auto,
        }
    }
}

impl Settings {
    /// Every structure used ([`Settings::default`]).
    pub fn new() -> Settings {
        Settings::default()
    }

    /// With or without decomposition into components.
    pub fn decompose(mut self, on: bool) -> Settings {
        self.decompose = on;
        self
    }

    /// With or without symmetry reduction.
    pub fn symmetry(mut self, on: bool) -> Settings {
        self.symmetry = on;
        self
    }

    /// With the given method for values.
    pub fn method(mut self, method: Method) -> Settings {
        self.method = method;
        self
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Stats {
    /// Positions searched: entries created in the tables (values, outcomes of `G + *k`, misère
    /// outcomes).
    pub positions: u64,
    /// Table lookups.
    pub lookups: u64,
    /// Lookups that found their entry.
    pub hits: u64,
    /// Bytes charged to the memory budget for the tables.
    pub table_bytes: u64,
    /// The method that found the value of the starting position (under [`Method::Auto`], the
    /// one whose round finished); `None` under misère play and for the engines that have one
    /// method only.
    pub method: Option<Method>,
    /// The threads that searched at once: 1, or one a core for a long Cram search
    /// ([`cram::solve_with_threads`](crate::solve::cram::solve_with_threads)).
    pub threads: u32,
}

impl Default for Stats {
    /// Nothing searched yet, on one thread.
    fn default() -> Stats {
        Stats {
            positions: 0,
            lookups: 0,
            hits: 0,
            table_bytes: 0,
            method: None,
            threads: 1,
        }
    }
}

impl Stats {
    /// The share of lookups that found their entry (0 when there was none).
    pub fn hit_rate(&self) -> f64 {
        if self.lookups == 0 {
            0.0
        } else {
            self.hits as f64 / self.lookups as f64
        }
    }
}

/// A search over one family, keeping its tables from one question to the next.
pub struct Search<'f, 'c, F: Structured> {
    family: &'f F,
    settings: Settings,
    ctl: &'f Control<'c>,
    values: HashMap<F::Position, u64>,
    /// For each component, the `k` with `P(C, k)` known false (those found true become values).
    p_table: HashMap<F::Position, Vec<u64>>,
    misere: HashMap<Vec<F::Position>, bool>,
    on_line: HashSet<F::Position>,
    sums_on_line: HashSet<Vec<F::Position>>,
    reservation: Option<Reservation>,
    charged: u64,
    stats: Stats,
    depth: usize,
    /// The method running now: [`Settings::method`], or under [`Method::Auto`] the one whose
    /// round it is.
    active: Method,
    /// Under [`Method::Auto`], the count of [`Stats::positions`] at which the running round
    /// stops.
    budget: Option<u64>,
    /// Set when a round stopped on its budget (the error it returned is then not the caller's).
    over_budget: bool,
    /// The budget of the first [`Method::Auto`] round.
    first_budget: u64,
}

impl<'f, 'c, F: Structured> Search<'f, 'c, F> {
    /// A search with empty tables.
    pub fn new(family: &'f F, settings: Settings, ctl: &'f Control<'c>) -> Self {
        Search {
            family,
            settings,
            ctl,
            values: HashMap::default(),
            p_table: HashMap::default(),
            misere: HashMap::default(),
            on_line: HashSet::default(),
            sums_on_line: HashSet::default(),
            reservation: None,
            charged: 0,
            stats: Stats::default(),
            depth: 0,
            active: match settings.method {
                Method::Auto => Method::Mex,
                m => m,
            },
            budget: None,
            over_budget: false,
            first_budget: AUTO_FIRST_BUDGET,
        }
    }

    /// The same search with rounds of [`Method::Auto`] starting from a budget of `first`
    /// entries instead of [`AUTO_FIRST_BUDGET`] (small budgets make the tests switch methods
    /// often).
    pub fn with_first_budget(mut self, first: u64) -> Self {
        self.first_budget = first.max(1);
        self
    }

    /// What the search has done so far.
    pub fn stats(&self) -> Stats {
        Stats {
            table_bytes: self.charged,
            ..self.stats
        }
    }

    /// The components of `p` as the tables key them: split (if on), each canonical (if on).
    pub fn components(&self, p: &F::Position) -> Result<Vec<F::Position>> {
        let mut parts = Vec::new();
        self.components_into(p, &mut parts)?;
        Ok(parts)
    }

    /// [`Search::components`], appended to `parts`.
    fn components_into(&self, p: &F::Position, parts: &mut Vec<F::Position>) -> Result<()> {
        let from = parts.len();
        if self.settings.decompose {
            self.family.split(p, parts)?;
        } else {
            parts.push(p.clone());
        }
        if self.settings.symmetry {
            for part in &mut parts[from..] {
                *part = self.family.canonical(part)?;
            }
        }
        Ok(())
    }

    /// Gives back bytes charged for entries dropped (the reservation keeps them for later
    /// entries).
    fn uncharge(&mut self, bytes: u64) {
        self.charged = self.charged.saturating_sub(bytes);
    }

    /// Charges one new entry with key `key` to the memory budget.
    fn charge(&mut self, key: &F::Position) -> Result<()> {
        self.stats.positions += 1;
        if self.stats.positions.is_multiple_of(PROGRESS_EVERY) {
            // Progress counts positions searched (the total is unknown in advance).
            self.ctl.check(self.stats.positions)?;
        }
        self.charged += (self.family.bytes(key) + ENTRY_OVERHEAD) as u64;
        let held = self.reservation.as_ref().map_or(0, Reservation::bytes);
        if self.charged > held {
            // Reserve in steps of 64 KiB, so that the budget is asked once per ~1000 entries.
            let more = (self.charged - held).div_ceil(1 << 16) << 16;
            let what = "the transposition table";
            match &mut self.reservation {
                Some(r) => r.grow(more, what)?,
                None => self.reservation = Some(self.ctl.reserve(more, what)?),
            }
        }
        Ok(())
    }

    /// Enters one level of search: counts the depth and checks the control (and the budget of
    /// an [`Method::Auto`] round).
    fn descend(&mut self) -> Result<()> {
        self.ctl.tick()?;
        if self.budget.is_some_and(|b| self.stats.positions >= b) {
            // Unwinds the round; the caller sees `over_budget` and never returns this error.
            self.over_budget = true;
            return Err(Error::Cancelled(crate::error::Interruption::Deadline));
        }
        if self.depth >= MAX_DEPTH {
            return Err(Error::limit(
                LimitKind::Fixed,
                format!("the search is deeper than {MAX_DEPTH} moves"),
                "solve a smaller position",
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// The error for a position met again on the line that leads to it.
    fn repeats(&self, shown: Result<String>) -> Error {
        match shown {
            Ok(s) => Error::invalid(format!(
                "the game does not end: position {s} repeats on a line of play"
            )),
            Err(e) => e,
        }
    }

    /// Enters the search of component `p`: [`Search::descend`], and for families that may
    /// loop, checks that `p` is not already on the line.
    fn enter(&mut self, p: &F::Position) -> Result<()> {
        self.descend()?;
        if !self.family.surely_finite() && !self.on_line.insert(p.clone()) {
            self.depth -= 1;
            return Err(self.repeats(self.family.show(p)));
        }
        Ok(())
    }

    fn leave(&mut self, p: &F::Position) {
        self.depth -= 1;
        if !self.family.surely_finite() {
            self.on_line.remove(p);
        }
    }

    /// The Grundy value of a position (any position of the family: it is split and made
    /// canonical here), with the method of the settings, and the method that found it (under
    /// [`Method::Auto`], the one whose round finished; see the module documentation).
    pub fn value_by(&mut self, p: &F::Position) -> Result<(u64, Method)> {
        if self.settings.method != Method::Auto {
            return Ok((self.sum_value(p)?, self.settings.method));
        }
        let mut budget = self.first_budget;
        loop {
            for m in [Method::Mex, Method::Outcome] {
                self.active = m;
                self.budget = Some(self.stats.positions.saturating_add(budget));
                let r = self.sum_value(p);
                self.budget = None;
                match r {
                    Ok(v) => return Ok((v, m)),
                    Err(_) if self.over_budget => self.over_budget = false,
                    Err(e) => return Err(e),
                }
            }
            budget = budget.saturating_mul(2);
        }
    }

    /// The Grundy value of a position (any position of the family: it is split and made
    /// canonical here), with the method of the settings ([`Search::value_by`]).
    pub fn value(&mut self, p: &F::Position) -> Result<u64> {
        Ok(self.value_by(p)?.0)
    }

    /// The Grundy value of a position by the method running now.
    fn sum_value(&mut self, p: &F::Position) -> Result<u64> {
        let mut v = 0;
        for part in self.components(p)? {
            v ^= self.part_value(&part)?;
        }
        Ok(v)
    }

    /// Whether `p + *k` is a P-position (equivalently `g(p) = k`), by outcome-only search.
    pub fn is_p_with(&mut self, p: &F::Position, k: u64) -> Result<bool> {
        let parts = self.components(p)?;
        self.sum_is_p(parts, k)
    }

    /// The value of a component already in key form.
    fn part_value(&mut self, c: &F::Position) -> Result<u64> {
        self.stats.lookups += 1;
        if let Some(&v) = self.values.get(c) {
            self.stats.hits += 1;
            return Ok(v);
        }
        let v = match self.active {
            Method::Mex | Method::Auto => {
                self.enter(c)?;
                let r = self.mex_value(c);
                self.leave(c);
                r?
            }
            Method::Outcome => {
                // g(C) is at most the number of options of C (a mex of that many values).
                let mut options = Vec::new();
                self.family.options(c, &mut options)?;
                let bound = options.len() as u64;
                drop(options);
                let mut k = 0;
                loop {
                    if self.part_is_p(c, k)? {
                        break k;
                    }
                    if k == bound {
                        return Err(Error::Internal(format!(
                            "no k <= {bound} has P(G, k) for G = {}",
                            self.family.show(c)?
                        )));
                    }
                    k += 1;
                }
            }
        };
        if !self.values.contains_key(c) {
            self.charge(c)?;
            self.values.insert(c.clone(), v);
        }
        Ok(v)
    }

    fn mex_value(&mut self, c: &F::Position) -> Result<u64> {
        let mut options = Vec::new();
        self.family.options(c, &mut options)?;
        let mut seen = Vec::with_capacity(options.len());
        let mut parts = Vec::new();
        for o in &options {
            parts.clear();
            self.components_into(o, &mut parts)?;
            let mut v = 0;
            for part in &parts {
                v ^= self.part_value(part)?;
            }
            seen.push(v);
        }
        Ok(mex(&seen, &mut Vec::new()))
    }

    /// `P(D₁ + … + Dᵣ, k)`: the values of all parts but one (the largest of those whose value
    /// is not known) fold into `k`, and that one is tested.
    fn sum_is_p(&mut self, parts: Vec<F::Position>, mut k: u64) -> Result<bool> {
        let open = parts
            .iter()
            .enumerate()
            .filter(|(_, d)| !self.values.contains_key(*d))
            .max_by_key(|(_, d)| self.family.size(d))
            .map(|(i, _)| i);
        for (i, d) in parts.iter().enumerate() {
            if Some(i) != open {
                k ^= self.part_value(d)?;
            }
        }
        match open {
            None => Ok(k == 0),
            Some(i) => self.part_is_p(&parts[i], k),
        }
    }

    /// `P(C, k)` for a component `C` in key form (see the module documentation): first a
    /// search of the options for one with `P(C', k)`, then the nim heap's moves `P(C, j)`,
    /// `j < k`, each a question of its own.
    fn part_is_p(&mut self, c: &F::Position, k: u64) -> Result<bool> {
        self.stats.lookups += 1;
        if let Some(&v) = self.values.get(c) {
            self.stats.hits += 1;
            return Ok(v == k);
        }
        if self.p_table.get(c).is_some_and(|ks| ks.contains(&k)) {
            self.stats.hits += 1;
            return Ok(false);
        }
        self.enter(c)?;
        let r = self.option_with_p(c, k);
        self.leave(c);
        let mut p = !r?;
        if p {
            for j in 0..k {
                if self.part_is_p(c, j)? {
                    p = false;
                    break;
                }
            }
        }
        if p {
            // g(C) = k: stored as a value, which answers every later P(C, j); the entries
            // P(C, j) = false are no longer needed.
            if let Some(ks) = self.p_table.remove(c) {
                self.uncharge(8 * ks.len() as u64 + (self.family.bytes(c) + ENTRY_OVERHEAD) as u64);
            }
            if !self.values.contains_key(c) {
                self.charge(c)?;
                self.values.insert(c.clone(), k);
            }
        } else {
            match self.p_table.get_mut(c) {
                Some(ks) => {
                    ks.push(k);
                    self.charged += 8;
                    self.stats.positions += 1;
                }
                None => {
                    self.charge(c)?;
                    self.charged += 8;
                    self.p_table.insert(c.clone(), vec![k]);
                }
            }
        }
        Ok(p)
    }

    /// Whether some option `C'` of `C` has `P(C', k)`.
    fn option_with_p(&mut self, c: &F::Position, k: u64) -> Result<bool> {
        let mut options = Vec::new();
        self.family.options(c, &mut options)?;
        for o in &options {
            let parts = self.components(o)?;
            if self.sum_is_p(parts, k)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the player to move wins `p` under misère play (direct search).
    pub fn misere_win(&mut self, p: &F::Position) -> Result<bool> {
        let parts = self.components(p)?;
        self.misere_parts(parts)
    }

    /// The misère outcome of the sum of `parts` (key form, any order).
    fn misere_parts(&mut self, mut parts: Vec<F::Position>) -> Result<bool> {
        parts.sort();
        self.stats.lookups += 1;
        if let Some(&w) = self.misere.get(&parts) {
            self.stats.hits += 1;
            return Ok(w);
        }
        self.descend()?;
        if !self.family.surely_finite() && !self.sums_on_line.insert(parts.clone()) {
            self.depth -= 1;
            let shown: Result<Vec<String>> = parts.iter().map(|p| self.family.show(p)).collect();
            return Err(self.repeats(shown.map(|s| s.join(" + "))));
        }
        let r = self.misere_search(&parts);
        self.depth -= 1;
        if !self.family.surely_finite() {
            self.sums_on_line.remove(&parts);
        }
        let win = r?;
        for part in &parts {
            self.charge(part)?;
        }
        self.misere.insert(parts, win);
        Ok(win)
    }

    fn misere_search(&mut self, parts: &[F::Position]) -> Result<bool> {
        let mut any_move = false;
        let mut options = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 && parts[i - 1] == *part {
                continue;
            }
            options.clear();
            self.family.options(part, &mut options)?;
            for o in &options {
                any_move = true;
                let mut next: Vec<F::Position> =
                    parts[..i].iter().chain(&parts[i + 1..]).cloned().collect();
                next.extend(self.components(o)?);
                if !self.misere_parts(next)? {
                    return Ok(true);
                }
            }
        }
        // No move at all: the player to move cannot move, and wins under misère play.
        Ok(!any_move)
    }
}

/// A winning move: its name and the position after it, in the family's notation. In a
/// [`SolutionDocument`] it is written `{"move", "after"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
    serde(deny_unknown_fields)
)]
#[non_exhaustive]
pub struct WinningMove {
    /// The move (a cell, a domino, a vertex, …).
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub name: String,
    /// The position after the move.
    pub after: String,
}

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Solution {
    /// Who wins with perfect play.
    pub outcome: Outcome,
    /// The Grundy value (normal play only).
    pub value: Option<u64>,
    /// Every winning move (empty for a P-position, or when not asked).
    pub winning_moves: Vec<WinningMove>,
    /// What the search did.
    pub stats: Stats,
    /// Wall-clock seconds.
    pub seconds: f64,
}

answer_document! {
    "solution";
    /// The answer to "who wins this game given by its rules, and how?" as a document: a
    /// [`Solution`] with the game it answers. `grundy solve --json` and Python's
    /// `Solution.to_dict()` write exactly this (JSON Schema: `docs/schemas/solution.json`).
    #[derive(Clone, Debug, PartialEq)]
    pub struct SolutionDocument {
        /// The game, as it was given.
        pub game: String,
        /// `P` (the player to move loses) or `N` (the player to move wins).
        pub outcome: Outcome,
        /// The Grundy value under normal play; `null` under misère play, where values do not add.
        pub value: Option<u64>,
        /// Every winning move (empty for a P-position, or when the moves were not asked for).
        pub winning_moves: Vec<WinningMove>,
        /// What the search did.
        pub stats: StatsDocument,
    }
}

/// What a search did, as written in a [`SolutionDocument`]: the counters of [`Stats`], the
/// share of lookups that hit, and the wall-clock time.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq)]
pub struct StatsDocument {
    /// Positions searched: entries created in the tables.
    pub positions: u64,
    /// Table lookups.
    pub lookups: u64,
    /// Lookups that found their entry.
    pub hits: u64,
    /// `hits / lookups` (0 when there was no lookup).
    pub hit_rate: f64,
    /// Bytes charged to the memory budget for the tables.
    pub table_bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SolutionDocument {
    /// The document of the solution `s` of `game`.
    pub fn new(game: impl Into<String>, s: &Solution) -> SolutionDocument {
        SolutionDocument {
            game: game.into(),
            outcome: s.outcome,
            value: s.value,
            winning_moves: s.winning_moves.clone(),
            stats: StatsDocument {
                positions: s.stats.positions,
                lookups: s.stats.lookups,
                hits: s.stats.hits,
                hit_rate: s.stats.hit_rate(),
                table_bytes: s.stats.table_bytes,
                seconds: s.seconds,
            },
        }
    }
}

/// Solves `root` under `play`: the outcome, the Grundy value under normal play, and, when
/// `moves` is set, every winning move (under normal play, the options of value 0, found by
/// outcome-only search; under misère play, the options lost for the player to move there).
///
/// The search runs on a thread of its own with a stack of [`STACK_BYTES`] (it recurses once per
/// move of the line it explores), charging its allocations to the memory budget of `ctl`
/// ([`MemoryBudget::enter`](crate::control::MemoryBudget::enter)); the caller waits for it.
pub fn solve<F>(
    family: &F,
    root: &F::Position,
    play: Play,
    settings: Settings,
    moves: bool,
    ctl: &Control,
) -> Result<Solution>
where
    F: Structured + Sync,
    F::Position: Send + Sync,
{
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("grundy-search".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                let _charged = ctl.memory().enter();
                solve_here(family, root, play, settings, moves, ctl)
            })
            .map_err(|e| Error::Internal(format!("cannot start the search thread: {e}")))?
            .join()
            .map_err(|_| Error::Internal("the search thread failed".into()))?
    })
}

/// [`solve`] on the calling thread's stack.
pub fn solve_here<F>(
    family: &F,
    root: &F::Position,
    play: Play,
    settings: Settings,
    moves: bool,
    ctl: &Control,
) -> Result<Solution>
where
    F: Structured,
{
    let start = Instant::now();
    let mut search = Search::new(family, settings, ctl);
    let (outcome, value, method) = match play {
        Play::Normal => {
            let (v, m) = search.value_by(root)?;
            (
                if v == 0 { Outcome::P } else { Outcome::N },
                Some(v),
                Some(m),
            )
        }
        Play::Misere => {
            let win = search.misere_win(root)?;
            (if win { Outcome::N } else { Outcome::P }, None, None)
        }
    };
    let mut winning_moves = Vec::new();
    if moves && outcome == Outcome::N {
        for (name, after, q) in family.described_moves(root)? {
            let wins = match play {
                Play::Normal => search.is_p_with(&q, 0)?,
                Play::Misere => !search.misere_win(&q)?,
            };
            if wins {
                winning_moves.push(WinningMove { name, after });
            }
        }
    }
    Ok(Solution {
        outcome,
        value,
        winning_moves,
        stats: Stats {
            method,
            ..search.stats()
        },
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests;
