//! Misère quotients of heap games (Plambeck and Siegel).
//!
//! In misère play the player who makes the last move loses, and the Sprague-Grundy theory no
//! longer adds: the outcome of a sum is not a function of the nim-values of its parts. Plambeck
//! ("Taming the wild in impartial combinatorial games", INTEGERS 5, 2005) and Plambeck and
//! Siegel ("Misère quotients for impartial games", J. Combin. Theory Ser. A 115, 2008) restore
//! a finite algebra on a restricted set of positions.
//!
//! **Definitions.** Let `A` be a set of games closed under sums and options (here: the
//! *closure* of the heaps `1..=N` of one game, all sums of such heaps). Two games are
//! *indistinguishable* over `A`,
//!
//! > `x ≡ y`  iff  `o⁻(x + z) = o⁻(y + z)` for every `z` in `A`,
//!
//! where `o⁻` is the misère outcome. `≡` is a congruence for `+`, so the classes form a
//! commutative monoid `Q = A/≡`, the *misère quotient*, with the *quotient map* `φ: A → Q`,
//! `φ(x + y) = φ(x)·φ(y)` and `φ(0) = 1`. The *P-portion* `P ⊆ Q` is the set of classes of
//! misère P-positions; it is well defined because `z = 0` is allowed above. Then a sum of heaps
//! `h1 + ... + hk` is a P-position exactly when `φ(h1)···φ(hk)` lies in `P`: outcomes of sums
//! of any number of heaps cost `k` table look-ups.
//!
//! **Facts used** (Plambeck–Siegel 2008):
//! - `Q` is *reduced*: distinct elements `a ≠ b` are told apart by some `c`, with exactly one
//!   of `ac`, `bc` in `P`. Conversely, a reduced bipartite monoid `(Q, P)` with a surjective
//!   homomorphism `φ` for which "φ(x) ∈ P iff every option of `x` maps outside `P` and `x` has
//!   an option" holds for every `x` in `A` is the misère quotient of `A`.
//! - The order `|Q|` of a quotient of a non-trivial closure is even.
//! - The quotient of misère Nim restricted to heaps below `2^(j+1)` (`j >= 1`) is the *tame*
//!   quotient of order `2 + 2^(j+1)`: the two sums of 1-heaps of each parity, and one element
//!   for each nim-sum of sums holding a larger heap; the P-portion is {odd number of 1-heaps,
//!   nim-sum 0}. A game whose quotient is one of these (or `Z/2`, from the heap of size 1) is
//!   *tame*: Conway's genus theory describes it. Otherwise it is *wild*.
//! - Periodicity (the misère form of the Guy–Smith theorem, proved in Plambeck–Siegel and in
//!   Siegel's lecture notes "Misère games and misère quotients"): for a take-and-break game
//!   removing at most `t` tokens and leaving at most `r` heaps, if the heap map of `Q_N` is
//!   periodic, `φ(n + p) = φ(n)` for `n0 <= n <= N - p`, and `N >= r·(n0 + p) + t`, then every
//!   heap `n > N` has the same image and the same images of options as heap `n - p` (its
//!   largest part `a` is at least `n0 + p`, and `a - p >= n0 >= 1` is again a heap when the
//!   move leaves several heaps), so `Q_N` is the quotient of the whole game and the heap map
//!   is periodic for all heap sizes. In terms of the `certificate` module: the certificate of
//!   `Q_N` depends on the heaps only through their types (element, classes of the options),
//!   and by induction on `n` every heap `n > N` has the type of heap `n - p`, so the certified
//!   `Q_N` stays certified with every larger heap adjoined.
//!
//! The construction ([`quotient`]) follows Plambeck and Siegel's algorithm: heaps are adjoined
//! one at a time, each stage's candidate is the extension of the previous quotient by the new
//! heap (the `extension` module), revised when the new heap splits an old class, and every
//! stage is certified; see the `build` module for the stage and its check. The `reference`
//! module (public with the `testing` feature) is the slow direct search the tests compare with.

mod build;
mod certificate;
mod extension;
mod nim;
mod present;
mod recalibration;
mod syntactic;
testing_pub! {
    pub mod reference;
}
#[cfg(test)]
mod tests;

pub use present::{Generator, Relation};

use crate::control::Control;
use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::heap::position::{Move, PositionAnalysis};
use crate::heap::rule::Options;
use crate::heap::HeapGame;
use crate::solve::Outcome;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// The most elements [`quotient`] builds by default.
pub const MAX_ORDER: usize = 4096;

/// The largest heap bound accepted.
pub const MAX_HEAP: u64 = 100_000;

/// The largest heap for which `position --misere` builds a quotient on its own.
pub const POSITION_MAX_HEAP: u64 = 200;

/// The most elements a quotient built for `position --misere` may have.
pub const POSITION_MAX_ORDER: usize = 1024;

/// The longest time `position --misere` spends building a quotient before it searches instead.
pub const POSITION_BUILD_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Tame or wild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Tameness {
    /// The trivial quotient {1}: no heap has a move.
    Trivial,
    /// Isomorphic to a quotient of misère Nim: `Z/2` (order 2) or the tame quotient of
    /// order `2 + 2^(j+1)`; `nim_bits` is `j + 1` (0 for `Z/2`).
    Tame {
        /// The number of binary digits of the nim-sums it tells apart (0 for `Z/2`).
        nim_bits: u32,
    },
    /// Not a quotient of misère Nim.
    Wild,
}

/// Why a quotient computed for heaps up to `N` holds for every heap size.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Proof {
    /// The heap map is periodic from this heap size on.
    pub preperiod: u64,
    /// Its period.
    pub period: u64,
    /// The most tokens a move removes (`t`).
    pub removal: u64,
    /// The most heaps a move leaves (`r`).
    pub parts: u64,
}

impl Proof {
    /// The criterion in words.
    pub fn describe(&self, max_heap: u64) -> String {
        format!(
            "the heap map is periodic with period {} from heap {} up to {max_heap}, and \
             {max_heap} >= r(n0 + p) + t = {}(n0 + p) + {} (periodicity theorem)",
            self.period, self.preperiod, self.parts, self.removal
        )
    }
}

answer_document! {
    "quotient";
    /// The answer to "what is this game's misère quotient?" as a document: what `grundy misere
    /// --json` writes (JSON Schema: `docs/schemas/quotient.json`). Elements are numbered
    /// `0..order`, the identity (the class of the empty sum) first.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct QuotientDocument {
        /// The game in canonical notation.
        pub game: String,
        /// The largest heap size of the closure: the quotient is that of the sums of heaps up to it.
        pub max_heap: u64,
        /// The number of elements `|Q|`.
        pub order: usize,
        /// Each element as its normal word in the generators.
        pub elements: Vec<String>,
        /// The multiplication table: `mul[a][b]` is the element `a·b`.
        pub mul: Vec<Vec<usize>>,
        /// The identity element (0).
        pub identity: usize,
        /// The P-portion: the elements whose sums are lost for the player to move.
        pub p_portion: Vec<usize>,
        /// The element of each heap size `0..=max_heap`.
        pub heap_map: Vec<usize>,
        /// The heaps whose element is new, as generators.
        pub generators: Vec<Generator>,
        /// The defining relations between words in the generators.
        pub relations: Vec<Relation>,
        /// Whether the quotient is proved for every heap size (periodicity theorem), not only up to
        /// `max_heap`.
        pub proved: bool,
        /// With `proved`: the heap map is periodic with `period` from heap `preperiod` on.
        pub preperiod: Option<u64>,
        /// With `proved`: the period of the heap map.
        pub period: Option<u64>,
        /// Whether the quotient is tame (that of misère Nim restricted to some heaps).
        pub tame: bool,
    }
}

impl From<&MisereQuotient> for QuotientDocument {
    fn from(q: &MisereQuotient) -> QuotientDocument {
        QuotientDocument {
            game: q.game().to_string(),
            max_heap: q.max_heap(),
            order: q.order(),
            elements: q.elements(),
            mul: q.table(),
            identity: q.identity(),
            p_portion: q.p_portion(),
            heap_map: q.heap_map(),
            generators: q.generators().to_vec(),
            relations: q.relations().to_vec(),
            proved: q.proof().is_some(),
            preperiod: q.proof().map(|p| p.preperiod),
            period: q.proof().map(|p| p.period),
            tame: matches!(q.tameness(), Tameness::Tame { .. }),
        }
    }
}

/// The misère quotient of a heap game restricted to heaps of at most `max_heap` tokens.
///
/// Elements are numbered `0..order()`, the identity (the class of the empty sum) being 0.
///
/// ```
/// use grundy::{Control, HeapGame};
/// use grundy::misere::quotient;
///
/// // 0.75: the 8-element quotient R8 of Plambeck and Siegel.
/// let game: HeapGame = "octal:0.75".parse()?;
/// let q = quotient(&game, 20, &Control::none())?;
/// assert_eq!(q.order(), 8);
/// let (a, b) = (q.of_heap(2).unwrap(), q.of_heap(3).unwrap());
/// assert_eq!(q.is_p(q.mul(a, b)), grundy::misere::reference::Search::new(&game, 10_000).is_p(&[2, 3])?);
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MisereQuotient {
    game: String,
    max_heap: u64,
    q: usize,
    mul: Vec<u32>,
    p: Vec<bool>,
    heap_map: Vec<u32>,
    generators: Vec<Generator>,
    words: Vec<Vec<u32>>,
    relations: Vec<Relation>,
    tameness: Tameness,
    proof: Option<Proof>,
}

/// Computes the misère quotient of `game` restricted to heaps of at most `max_heap` tokens
/// (at most [`MAX_ORDER`] elements). Every stage of the construction is certified (see the
/// `build` and `certificate` modules), so the result is the quotient of the heaps up to
/// `max_heap`, and of all heap sizes when [`MisereQuotient::proof`] says so.
pub fn quotient(game: &HeapGame, max_heap: u64, ctl: &Control) -> Result<MisereQuotient> {
    quotient_limited(game, max_heap, MAX_ORDER, ctl)
}

/// [`quotient`] with at most `max_order` elements ([`Error::Limit`] beyond).
pub fn quotient_limited(
    game: &HeapGame,
    max_heap: u64,
    max_order: usize,
    ctl: &Control,
) -> Result<MisereQuotient> {
    if max_heap > MAX_HEAP {
        return Err(Error::limit(
            crate::LimitKind::HeapSize,
            format!("the heap bound {max_heap} is above the limit of {MAX_HEAP}"),
            "use a smaller heap bound",
        ));
    }
    if matches!(game.spec(), GameSpec::Nim) {
        // Written down from Conway's theorem (see the `nim` module), in the numbering of the
        // general construction: heaps of any size up to the limits cost no search.
        return Ok(quotient_from_stage(
            game,
            nim::stage(max_heap, max_order, ctl)?,
        ));
    }
    quotient_with(game, max_heap, max_order, build::Method::Full, ctl)
}

testing_pub! {
    /// [`quotient`] by learning the quotient afresh at every heap that is not equivalent to
    /// an earlier one, without the extension: the slower construction, for comparisons.
    pub fn quotient_by_learning(game: &HeapGame, max_heap: u64, ctl: &Control) -> Result<MisereQuotient> {
        quotient_with(game, max_heap, MAX_ORDER, build::Method::Learning, ctl)
    }
}

/// [`quotient_limited`] by the steps `method` allows.
fn quotient_with(
    game: &HeapGame,
    max_heap: u64,
    max_order: usize,
    method: build::Method,
    ctl: &Control,
) -> Result<MisereQuotient> {
    quotient_traced(game, max_heap, max_order, method, &mut Vec::new(), ctl)
}

/// [`quotient_with`], recording in `trace` how each heap that needed a new candidate got it.
fn quotient_traced(
    game: &HeapGame,
    max_heap: u64,
    max_order: usize,
    method: build::Method,
    trace: &mut Vec<build::Step>,
    ctl: &Control,
) -> Result<MisereQuotient> {
    let stage = build::build(game, max_heap, max_order, method, trace, ctl)?;
    Ok(quotient_from_stage(game, stage))
}

/// The quotient of `game` whose table, P-portion and heap map are `stage`, with its
/// presentation, tameness and proof.
fn quotient_from_stage(game: &HeapGame, stage: build::Stage) -> MisereQuotient {
    let max_heap = stage.heap_map.len() as u64 - 1;
    let (generators, words, relations) = present::presentation(&stage);
    let tameness = present::tameness(&stage);
    let proof = proof(game.spec(), &stage.heap_map);
    MisereQuotient {
        game: game.spec().to_string(),
        max_heap,
        q: stage.q,
        mul: stage.mul,
        p: stage.p,
        heap_map: stage.heap_map,
        generators,
        words,
        relations,
        tameness,
        proof,
    }
}

/// The periodicity criterion for games of finite code: the smallest period `p` whose
/// preperiod `n0` satisfies `N >= r·(n0 + p) + t`.
fn proof(spec: &GameSpec, map: &[u32]) -> Option<Proof> {
    let (removal, parts): (u64, u64) = match spec {
        GameSpec::TakeBreak(c) => {
            let d = c.digits();
            let parts = d.iter().map(|&x| {
                if x & 8 != 0 {
                    3
                } else if x & 4 != 0 {
                    2
                } else {
                    1
                }
            });
            (c.last_digit() as u64, parts.max().unwrap_or(1))
        }
        GameSpec::Subtraction(s) => (s.ranges().last()?.1, 1),
        _ => return None,
    };
    let n = map.len() as u64 - 1;
    for p in 1..=n / 2 {
        // Smallest n0 with map[m + p] == map[m] for n0 <= m <= n - p.
        let mut n0 = n - p + 1;
        while n0 > 0 && map[(n0 - 1) as usize] == map[(n0 - 1 + p) as usize] {
            n0 -= 1;
        }
        // A move leaving several heaps maps its largest part `a >= n0 + p` to `a - p`, which
        // must stay a heap: `n0 >= 1`.
        if parts > 1 {
            n0 = n0.max(1);
        }
        if n0 + p > n {
            continue;
        }
        if parts
            .checked_mul(n0 + p)
            .and_then(|x| x.checked_add(removal))
            <= Some(n)
        {
            return Some(Proof {
                preperiod: n0,
                period: p,
                removal,
                parts,
            });
        }
    }
    None
}

impl MisereQuotient {
    /// The game, in the GAME notation.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The largest heap size of the closure it was computed for.
    pub fn max_heap(&self) -> u64 {
        self.max_heap
    }

    /// The order |Q|.
    pub fn order(&self) -> usize {
        self.q
    }

    /// The identity: the class of the empty sum (always 0).
    pub fn identity(&self) -> usize {
        0
    }

    /// The product of two elements.
    pub fn mul(&self, a: usize, b: usize) -> usize {
        self.mul[a * self.q + b] as usize
    }

    /// Whether element `a` lies in the P-portion.
    pub fn is_p(&self, a: usize) -> bool {
        self.p[a]
    }

    /// The P-portion, ascending.
    pub fn p_portion(&self) -> Vec<usize> {
        (0..self.q).filter(|&a| self.p[a]).collect()
    }

    /// The element of a heap of `n` tokens: for `n <= max_heap`, and for every `n` when the
    /// quotient is proved for all heaps ([`MisereQuotient::proof`]); `None` otherwise.
    pub fn of_heap(&self, n: u64) -> Option<usize> {
        if n <= self.max_heap {
            return Some(self.heap_map[n as usize] as usize);
        }
        let pr = self.proof.as_ref()?;
        let back = (n - self.max_heap).div_ceil(pr.period) * pr.period;
        Some(self.heap_map[(n - back) as usize] as usize)
    }

    /// The element of a sum of heaps, if every heap has one ([`MisereQuotient::of_heap`]).
    pub fn of_heaps(&self, heaps: &[u64]) -> Option<usize> {
        heaps
            .iter()
            .try_fold(0, |acc, &h| Some(self.mul(acc, self.of_heap(h)?)))
    }

    /// The heap map for heaps `0..=max_heap`.
    pub fn heap_map(&self) -> Vec<usize> {
        self.heap_map.iter().map(|&e| e as usize).collect()
    }

    /// The generators (heap sizes whose element is not a product of smaller heaps' elements),
    /// named `a`, `b`, `c`, ... in the order of their heap sizes.
    pub fn generators(&self) -> &[Generator] {
        &self.generators
    }

    /// Defining relations between words in the generators.
    pub fn relations(&self) -> &[Relation] {
        &self.relations
    }

    /// The presentation: generators and relations.
    pub fn presentation(&self) -> (&[Generator], &[Relation]) {
        (&self.generators, &self.relations)
    }

    /// Element `a` as its normal word in the generators, such as `ab^2` (`1` for the identity).
    pub fn word(&self, a: usize) -> String {
        present::format_word(&self.generators, &self.words[a])
    }

    /// Every element as a word, by index.
    pub fn elements(&self) -> Vec<String> {
        (0..self.q).map(|a| self.word(a)).collect()
    }

    /// The multiplication table, row by row.
    pub fn table(&self) -> Vec<Vec<usize>> {
        (0..self.q)
            .map(|a| (0..self.q).map(|b| self.mul(a, b)).collect())
            .collect()
    }

    /// Tame or wild.
    pub fn tameness(&self) -> Tameness {
        self.tameness
    }

    /// Why the quotient holds for all heap sizes, when the periodicity criterion applies.
    pub fn proof(&self) -> Option<&Proof> {
        self.proof.as_ref()
    }

    /// Outcome and every winning move of the sum of `heaps`, read from the quotient: `None`
    /// when a heap has no element ([`MisereQuotient::of_heap`]). A move is winning exactly when
    /// the element of the position it leaves is in the P-portion.
    pub fn analyze(
        &self,
        game: &HeapGame,
        heaps: &[u64],
        ctl: &Control,
    ) -> Result<Option<PositionAnalysis>> {
        let Some(imgs) = heaps
            .iter()
            .map(|&h| self.of_heap(h))
            .collect::<Option<Vec<usize>>>()
        else {
            return Ok(None);
        };
        // Products of all heaps but one, from prefix and suffix products.
        let k = imgs.len();
        let mut suffix = vec![0usize; k + 1];
        for i in (0..k).rev() {
            suffix[i] = self.mul(imgs[i], suffix[i + 1]);
        }
        let whole = suffix[0];
        let win = !self.p[whole];
        let mut moves = Vec::new();
        if win {
            let mut prefix = 0;
            let mut opts = Options::new();
            let mut done: HashMap<(u64, usize), Vec<Vec<u64>>> = HashMap::new();
            for i in 0..k {
                ctl.stop_check()?;
                let rest = self.mul(prefix, suffix[i + 1]);
                prefix = self.mul(prefix, imgs[i]);
                let h = heaps[i];
                if let Some(tos) = done.get(&(h, rest)) {
                    moves.extend(tos.iter().map(|to| Move::new(i, h, to.clone())));
                    continue;
                }
                let bound = game.option_count_bound(h);
                if bound > crate::heap::position::MAX_OPTIONS {
                    return Err(Error::limit(
                        crate::LimitKind::Options,
                        format!("heap {h} has about {bound} options to list winning moves from"),
                        "use smaller heaps",
                    ));
                }
                opts.clear();
                game.heap_options(h, &mut opts)?;
                let mut seen = HashSet::new();
                let mut tos = Vec::new();
                for o in opts.iter() {
                    let mut to: Vec<u64> = o.iter().copied().filter(|&x| x > 0).collect();
                    to.sort_unstable();
                    let Some(e) = self.of_heaps(&to) else {
                        return Ok(None);
                    };
                    if self.p[self.mul(rest, e)] && seen.insert(to.clone()) {
                        tos.push(to);
                    }
                }
                moves.extend(tos.iter().map(|to| Move::new(i, h, to.clone())));
                done.insert((h, rest), tos);
            }
        }
        Ok(Some(PositionAnalysis {
            outcome: if win { Outcome::N } else { Outcome::P },
            nim_sum: None,
            winning_moves: moves,
        }))
    }
}

/// A misère position answered through a quotient.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Answer {
    /// Outcome and winning moves.
    pub analysis: PositionAnalysis,
    /// The quotient used.
    pub quotient: Arc<MisereQuotient>,
}

type Cache = Mutex<HashMap<(String, u64), Option<Arc<MisereQuotient>>>>;

fn cache() -> &'static Cache {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Answers a misère sum of heaps through the quotient of the heaps up to the largest of them,
/// when the extension builds that quotient within [`POSITION_MAX_HEAP`], [`POSITION_MAX_ORDER`]
/// and [`POSITION_BUILD_TIME`] (quotients are kept for the life of the process, except for
/// script games); `None` otherwise, and the caller searches instead. The quotient is never
/// learned afresh here (the one step of the construction that searches): a heap that would
/// need it ends the attempt at once. Nim is left to Bouton's rule.
///
/// Every quotient [`quotient`] returns is certified for the heaps up to its bound, so it
/// answers any sum of such heaps, however many.
pub fn through_quotient(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<Option<Answer>> {
    let max = heaps.iter().copied().max().unwrap_or(0);
    if matches!(game.spec(), GameSpec::Nim) {
        return Ok(None);
    }
    // Beyond the bound, a quotient proved for every heap size still answers.
    let max = max.min(POSITION_MAX_HEAP);
    let script = matches!(game.spec(), GameSpec::Script(_));
    let key = (game.spec().to_string(), max);
    let cached = if script {
        None
    } else {
        cache().lock().ok().and_then(|c| c.get(&key).cloned())
    };
    let q = match cached {
        Some(q) => q,
        None => {
            let bounded = Control::none()
                .with_token(ctl.token().clone())
                .with_memory(ctl.memory().clone())
                .with_deadline(std::time::Instant::now() + POSITION_BUILD_TIME);
            let built = match quotient_with(
                game,
                max,
                POSITION_MAX_ORDER,
                build::Method::Extension,
                &bounded,
            ) {
                Ok(q) => Some(Arc::new(q)),
                Err(Error::Limit(_)) => None,
                // Out of time (not stopped from outside): search instead.
                Err(Error::Cancelled(_)) if !ctl.should_stop() => None,
                Err(e) => return Err(e),
            };
            if !script {
                if let Ok(mut c) = cache().lock() {
                    c.insert(key, built.clone());
                }
            }
            built
        }
    };
    let Some(q) = q.filter(|q| q.max_heap() >= max) else {
        return Ok(None);
    };
    if heaps.iter().any(|&h| q.of_heap(h).is_none()) {
        return Ok(None);
    }
    Ok(q.analyze(game, heaps, ctl)?.map(|analysis| Answer {
        analysis,
        quotient: q,
    }))
}
