//! The construction of `Q_N`, heap by heap, every stage certified.
//!
//! Write `H_n` for the closure of the heaps `1..=n` (all finite sums of them) and `Q_n`, `Φ_n`
//! for its quotient and quotient map. `H_{n-1} ⊂ H_n`, but `Q_{n-1}` is in general *not* a
//! submonoid of `Q_n`: heap `n` may tell apart sums that no sum of smaller heaps tells apart
//! (in Kayles, `[5] + [5] ≡ 0` over `H_8`, but `[9]` is a P-position and `[5] + [5] + [9]` an
//! N-position). So no stage trusts the classes of the previous one; each stage proposes a
//! candidate `(Q, P, Φ)` for `H_n` and keeps it only when the finite certificate of the
//! `certificate` module proves it is the quotient of `H_n`. The stage for heap `n`:
//!
//! 1. **A heap without moves** is the game 0: `Φ(n) = 1`, nothing else changes.
//! 2. **Equal options.** If the options of heap `n` map onto the same set of classes as the
//!    options of an earlier heap `h`, then `[n] ≡ [h]`, by induction on `z`: the options of
//!    `[n] + z` and `[h] + z` are pairwise indistinguishable (moves in the heap by hypothesis,
//!    moves in `z` by induction), so they have the same outcome. `Φ(n) = Φ(h)`, and the
//!    certificate is unchanged (it depends on the heaps only through the pairs
//!    (element, option classes)). This is the step that repeats in a periodic tail.
//! 3. **The extension.** Otherwise the candidate is the extension of `Q_{n-1}` by heap `n`
//!    (the `extension` module: Plambeck and Siegel's column construction, pairs
//!    `(element of Q_{n-1}, copies of heap n)` identified by their outcome signatures). It
//!    costs a few passes over `|Q_{n-1}| × (preperiod + period)` pairs and no search. The
//!    candidate is certified; this is the common path, also when `Q_n` is larger than
//!    `Q_{n-1}`.
//! 4. **Revision.** When the certificate fails, heap `n` splits a class of `Q_{n-1}`: the
//!    extension assumed that sums of one class of `Q_{n-1}` keep one outcome beside copies of
//!    heap `n`. The base is then refined to the pairs (element, set of multipliers for which
//!    the failed candidate puts a winning move inside the sum) ([`extension::refine`]), which
//!    tells apart the sums whose options differ in what the columns use, and the extension of
//!    the refined base is certified in turn (at most `MAX_REFINEMENTS` times, while the
//!    refinement splits classes and stays within [`extension::MAX_BASE`] elements; a
//!    refinement that splits nothing proves its base exact, see [`extension::refine`]).
//!    Refined bases grow fast (Dawson's Kayles at heap 25: 24, 379, 685, 1542, 2800 elements,
//!    each failing one move deeper), so one refinement is tried, then:
//! 5. **Recalibration.** The first candidate, rejected at its failing sum of least total
//!    (whose true outcome the certificate then knows), is recalibrated: the heaps of that sum
//!    are set free in a reduced free product (the `recalibration` module, after Siegel's
//!    MisereSolver), the first such candidate that judges the failure right is certified,
//!    and so on (at most `MAX_RECALIBRATIONS` rounds). Dawson's Kayles at heap 25: 11 rounds
//!    to the 144-element quotient, in about half a second. When every product that would
//!    judge the failure right passes the order bound (Dawson's Kayles at heap 34, Grundy's
//!    game at heap 29), the first candidate is recalibrated again in the loose form of
//!    [`recalibration::Mode::Loose`] (MisereSolver's products), whose candidates may pass the
//!    order bound up to `MAX_CANDIDATE` elements on the way. Each round (candidate, failure,
//!    the sets tried) is logged through the `log` crate at the debug level, target
//!    `grundy::misere` (`grundy misere -v` prints them).
//! 6. **Learning.** When neither certifies, `Q_n` is learned afresh as the syntactic monoid of the P-positions of `H_n` (the `syntactic`
//!    module), from exact outcomes ([`Outcomes`]: an exact search in which every position
//!    without heap `n` is answered by the certified `Q_{n-1}`), with counterexamples from the
//!    certificate, until it certifies. Only this last step searches, and it is exponential in
//!    the size of the sums it needs.
//!
//! Whatever produced it, a candidate is kept only once certified, so the revision needs no
//! proof of its own: the certificate is the proof that the stage is the quotient of `H_n`.
//! Every stage is thus the quotient of `H_n`, not a guess: the tests compare it with the
//! definition-level search of the `reference` module.

use super::certificate::{self, HeapType};
use super::extension;
use super::recalibration::{self, Free};
use super::syntactic;
use crate::control::{Control, Reservation};
use crate::error::{Error, Result};
use crate::game::hash::FxHashMap;
use crate::heap::rule::Options;
use crate::heap::HeapGame;
use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

/// The *weight* of a heap of `h >= 1` tokens, `2^20·h - 1`; the weight of a sum is the sum of
/// its heaps': sums are ordered by their number of tokens, and among sums of as many tokens
/// the one of more heaps weighs less.
///
/// **Every option of a sum weighs less than the sum.** A move replaces one heap `h` by heaps
/// `a_1, …, a_r` with `a_i < h` and `a_1 + … + a_r <= h` (take-and-break games never add
/// tokens). With `K = 2^20` their weight is `K(a_1 + … + a_r) - r`: for `r = 0` it is
/// `0 < Kh - 1`, for `r = 1` `Ka_1 - 1 < Kh - 1`, for `r >= 2` at most `Kh - 2`. The number of
/// tokens alone does not do this: Grundy's game and 4.7 split a heap without removing a token.
/// The searches by least representative (the extension's columns, the certificate's least
/// failure, the marking of free products) walk sums in the order of this weight. Heaps are at
/// most [`super::MAX_HEAP`] `< 2^17` tokens, so a weight takes 37 bits.
pub(crate) fn weight(h: u64) -> u64 {
    (h << 20) - 1
}

/// Logs a step of the construction (debug level, target `grundy::misere`): the rounds of a
/// recalibration, its candidates, failures and the free sets tried.
macro_rules! trace {
    ($($t:tt)*) => {
        log::debug!(target: "grundy::misere", $($t)*)
    };
}

/// The error of a quotient that passes `max_order` elements once heap `n` is adjoined.
pub(crate) fn too_many(max_order: usize, n: u64) -> Error {
    Error::limit(
        crate::LimitKind::Positions,
        format!("the misère quotient has more than {max_order} elements once heap {n} is adjoined"),
        "use a smaller heap bound",
    )
}

/// A quotient with its quotient map, as the construction keeps it.
#[derive(Clone)]
pub(crate) struct Stage {
    /// |Q|.
    pub q: usize,
    /// The multiplication table, `q × q`, row-major; element 0 is the identity. Empty when
    /// the products are given by `letters` instead.
    pub mul: Vec<u32>,
    /// The products as the action of the heaps' elements (large candidates of the
    /// recalibration, see [`Letters`]); `None` when `mul` holds the table.
    pub letters: Option<Rc<Letters>>,
    /// Membership of the P-portion.
    pub p: Vec<bool>,
    /// The element of each heap size `0..=n` (heap 0 is the identity, 0).
    pub heap_map: Vec<u32>,
    /// A representative of each element as a word in the heaps.
    pub reps: Vec<Vec<u64>>,
}

impl Stage {
    /// The quotient of the closure of the empty heap alone: the trivial monoid {1}, whose one
    /// element (the empty sum, a misère N-position) is not in the P-portion.
    pub fn trivial() -> Stage {
        Stage {
            q: 1,
            mul: vec![0],
            letters: None,
            p: vec![false],
            heap_map: vec![0],
            reps: vec![vec![]],
        }
    }

    #[inline]
    pub fn m(&self, a: u32, b: u32) -> u32 {
        match &self.letters {
            None => self.mul[a as usize * self.q + b as usize],
            Some(t) => t.m(a, b),
        }
    }

    /// The row of `g`: `g·c` for every element `c`, borrowed from the table when there is one.
    pub fn row(&self, g: u32) -> Cow<'_, [u32]> {
        match &self.letters {
            None => Cow::Borrowed(&self.mul[g as usize * self.q..(g as usize + 1) * self.q]),
            Some(t) => Cow::Owned((0..self.q as u32).map(|c| t.m(c, g)).collect()),
        }
    }

    /// The same stage with its multiplication table written out (`4·q²` bytes, within the
    /// memory budget of `ctl`).
    pub fn dense(mut self, ctl: &Control) -> Result<Stage> {
        let Some(t) = self.letters.take() else {
            return Ok(self);
        };
        let q = self.q;
        let _mem = ctl.reserve((q * q * 4) as u64, "misère quotient table")?;
        self.mul = t.table(ctl)?;
        Ok(self)
    }

    /// The element of the sum of `heaps` (each already mapped).
    pub fn image(&self, heaps: &[u64]) -> u32 {
        heaps
            .iter()
            .fold(0, |acc, &h| self.m(acc, self.heap_map[h as usize]))
    }
}

/// The products of a monoid given by the action of its letters (the elements of the heaps),
/// `|Q|·(letters + 2)` words instead of the `|Q|²` of a table: what lets the candidates of the
/// recalibration pass a few thousand elements.
///
/// Every element `y ≠ 1` is written `y = f·g_l` with a letter `g_l` and an element `f`
/// numbered before `y` (`last[y] = (f, l)`: the last letter of a least representative of
/// `y`, whose prefix `f` weighs less and so is numbered first), so following `last` from `y`
/// reaches the identity and spells `y` as a product of letters `g_(l_1)···g_(l_k)`. Then
/// `x·y = (···((x·g_(l_1))·g_(l_2))···)·g_(l_k)` by associativity (the monoid is commutative,
/// so the order of the letters does not matter): `k` look-ups in `by_letter`, where
/// `by_letter[x·nl + l] = x·g_l`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Letters {
    /// The number of letters.
    pub nl: usize,
    /// `x·g_l` at `x·nl + l`.
    pub by_letter: Vec<u32>,
    /// `(f, l)` with `y = f·g_l` and `f < y`; the identity's entry is unused.
    pub last: Vec<(u32, u32)>,
}

impl Letters {
    /// `x·y`, following the letters of `y`.
    #[inline]
    pub fn m(&self, x: u32, y: u32) -> u32 {
        let (mut acc, mut e) = (x, y);
        while e != 0 {
            let (f, l) = self.last[e as usize];
            acc = self.by_letter[acc as usize * self.nl + l as usize];
            e = f;
        }
        acc
    }

    /// The table `x·y`, `q × q`: row by row, `x·y = (x·f)·g_l` from the entry of `f`, written
    /// before that of `y`.
    pub fn table(&self, ctl: &Control) -> Result<Vec<u32>> {
        let q = self.last.len();
        let mut mul = vec![0u32; q * q];
        for x in 0..q {
            ctl.tick()?;
            mul[x * q] = x as u32;
            for y in 1..q {
                let (f, l) = self.last[y];
                let xf = mul[x * q + f as usize] as usize;
                mul[x * q + y] = self.by_letter[xf * self.nl + l as usize];
            }
        }
        Ok(mul)
    }
}

/// The options of the heaps adjoined so far, as sorted sums of heaps that have moves (heaps
/// without moves are the game 0 and are dropped).
pub(crate) struct Heaps<'g> {
    game: &'g HeapGame,
    /// Whether each heap size `0..=n` has no move.
    moveless: Vec<bool>,
    cache: HashMap<u64, Rc<Vec<Vec<u64>>>>,
    scratch: Options,
    mem: Reservation,
}

/// The most heap option lists [`Heaps`] keeps at once.
const OPTION_CACHE: usize = 4096;

impl<'g> Heaps<'g> {
    fn new(game: &'g HeapGame, ctl: &Control) -> Result<Self> {
        Ok(Heaps {
            game,
            moveless: vec![true],
            cache: HashMap::new(),
            scratch: Options::new(),
            mem: ctl.reserve(0, "misère quotient heap options")?,
        })
    }

    /// The options of the heaps `1..=n` of `game`, all adjoined (as the construction adjoins
    /// them one at a time).
    #[cfg(test)]
    pub fn up_to(game: &'g HeapGame, n: u64, ctl: &Control) -> Result<Self> {
        let mut heaps = Heaps::new(game, ctl)?;
        for h in 1..=n {
            heaps.moveless.push(false);
            if heaps.options(h)?.is_empty() {
                heaps.moveless[h as usize] = true;
            }
        }
        Ok(heaps)
    }

    /// The largest heap adjoined.
    pub fn top(&self) -> u64 {
        self.moveless.len() as u64 - 1
    }

    /// Whether heap `h` (adjoined) has a move.
    pub fn has_moves(&self, h: u64) -> bool {
        !self.moveless[h as usize]
    }

    /// The options of heap `h <= top()`, normalised.
    pub fn options(&mut self, h: u64) -> Result<&[Vec<u64>]> {
        self.options_shared(h)?;
        Ok(self.cache.get(&h).map(|v| v.as_slice()).unwrap_or(&[]))
    }

    /// [`Heaps::options`], shared.
    pub fn options_shared(&mut self, h: u64) -> Result<Rc<Vec<Vec<u64>>>> {
        if let Some(v) = self.cache.get(&h) {
            return Ok(v.clone());
        }
        {
            if self.cache.len() >= OPTION_CACHE {
                self.cache.clear();
                self.mem.resize(0, "misère quotient heap options")?;
            }
            self.scratch.clear();
            self.game.heap_options(h, &mut self.scratch)?;
            let mut list: Vec<Vec<u64>> = Vec::with_capacity(self.scratch.len());
            for o in self.scratch.iter() {
                if let Some(&big) = o.iter().find(|&&x| x >= h) {
                    return Err(Error::invalid(format!(
                        "heap {h} has an option with a heap of {big}: misère quotients are \
                         built for games whose moves leave only smaller heaps"
                    )));
                }
                let mut v: Vec<u64> = o
                    .iter()
                    .copied()
                    .filter(|&x| x > 0 && !self.moveless[x as usize])
                    .collect();
                v.sort_unstable();
                list.push(v);
            }
            list.sort();
            list.dedup();
            let bytes: usize = list.iter().map(|v| 24 + 8 * v.len()).sum();
            self.mem
                .grow(bytes as u64 + 64, "misère quotient heap options")?;
            let list = Rc::new(list);
            self.cache.insert(h, list.clone());
            Ok(list)
        }
    }

    /// The options of a sorted sum of heaps: for each distinct heap, each of its options in
    /// its place, sorted.
    pub fn position_options(&mut self, x: &[u64]) -> Result<Vec<Vec<u64>>> {
        let mut out = Vec::new();
        for i in 0..x.len() {
            if i > 0 && x[i] == x[i - 1] {
                continue;
            }
            let opts = self.options_shared(x[i])?;
            for o in opts.iter() {
                let mut next: Vec<u64> = x[..i].iter().chain(&x[i + 1..]).copied().collect();
                next.extend(o.iter().copied());
                next.sort_unstable();
                out.push(next);
            }
        }
        Ok(out)
    }

    /// The certificate's heap types of every heap `1..=top()` with moves under `st`.
    pub fn types(&mut self, st: &Stage, ctl: &Control) -> Result<Vec<HeapType>> {
        let mut seen: HashMap<(u32, Vec<u32>), ()> = HashMap::new();
        let mut types = Vec::new();
        for h in 1..=self.top() {
            ctl.tick()?;
            if !self.has_moves(h) {
                continue;
            }
            let ty = self.heap_type(st, h, st.heap_map[h as usize])?;
            if seen.insert((ty.elem, ty.opts.clone()), ()).is_none() {
                types.push(ty);
            }
        }
        Ok(types)
    }

    /// The type of heap `h` when it maps to `elem`: the classes of its options under `st`.
    pub fn heap_type(&mut self, st: &Stage, h: u64, elem: u32) -> Result<HeapType> {
        let mut opts: Vec<u32> = self.options(h)?.iter().map(|o| st.image(o)).collect();
        opts.sort_unstable();
        opts.dedup();
        Ok(HeapType {
            heap: h,
            elem,
            opts,
        })
    }
}

/// Exact misère outcomes of the sums of heaps `1..=n`, given the certified quotient `prev` of
/// heaps `1..n`: a sum without heap `n` is a P-position exactly when its element of `prev` is
/// in the P-portion; a sum with heap `n` has a move and is a P-position exactly when all its
/// options are N-positions (memoised search).
pub(crate) struct Outcomes<'a, 'g> {
    prev: &'a Stage,
    n: u64,
    memo: FxHashMap<Vec<u64>, bool>,
    mem: Reservation,
    ctl: &'a Control<'a>,
    /// The heaps' options.
    pub heaps: &'a mut Heaps<'g>,
}

/// Which steps the construction may take.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Method {
    /// Steps 1-4.
    Full,
    /// Steps 1-3 and the refinement of step 4; a heap that needs the quotient learned afresh
    /// ends the construction with [`Error::Limit`] at once.
    Extension,
    /// Steps 1, 2 and the learning of step 4 only (the construction before the extension
    /// existed, kept to measure the extension against).
    Learning,
}

/// How many times the base of the extension is refined before the quotient is learned afresh
/// (the refinement stops earlier once it no longer splits a class, or past
/// [`extension::MAX_BASE`] elements).
const MAX_REFINEMENTS: usize = 1;

/// The most elements a refined base may have when the quotient is built to answer positions
/// ([`Method::Extension`]).
const POSITION_BASE: usize = 1024;

/// How the construction obtained the quotient at a heap that needed a new candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The extension of the base refined `refinements` times (0: the previous quotient
    /// itself), of `base` elements, certified with `order` elements; `failures` holds the sum
    /// at which each less refined candidate failed the certificate.
    Extension {
        heap: u64,
        refinements: usize,
        base: usize,
        order: usize,
        failures: Vec<Vec<u64>>,
    },
    /// No extension certified: the bases tried, why no more were tried, the failures.
    Unresolved {
        heap: u64,
        bases: Vec<usize>,
        why: &'static str,
        failures: Vec<Vec<u64>>,
    },
    /// The extension of the previous quotient recalibrated `rounds` times (see the
    /// `recalibration` module), certified with `order` elements.
    Recalibrated {
        heap: u64,
        rounds: usize,
        order: usize,
        failures: Vec<Vec<u64>>,
    },
    /// Learned afresh, after the extensions failed at `failures`.
    Learned {
        heap: u64,
        order: usize,
        failures: Vec<Vec<u64>>,
    },
}

/// The most positions [`Outcomes`] stores.
pub const MAX_SEARCH: usize = 20_000_000;

impl<'a, 'g> Outcomes<'a, 'g> {
    fn new(prev: &'a Stage, heaps: &'a mut Heaps<'g>, ctl: &'a Control<'a>) -> Result<Self> {
        Ok(Outcomes {
            prev,
            n: heaps.top(),
            memo: FxHashMap::default(),
            mem: ctl.reserve(0, "misère quotient search")?,
            ctl,
            heaps,
        })
    }

    /// Whether the sum `x` (sorted, only heaps with moves) is a P-position.
    pub fn is_p(&mut self, x: &[u64]) -> Result<bool> {
        let n = self.n;
        if x.last() != Some(&n) {
            return Ok(self.prev.p[self.prev.image(x) as usize]);
        }
        if let Some(&p) = self.memo.get(x) {
            return Ok(p);
        }
        self.ctl.tick()?;
        let copies = x.iter().rev().take_while(|&&h| h == n).count();
        let mut p = true;
        let mut next: Vec<u64> = Vec::with_capacity(x.len() + 4);
        'heaps: for i in 0..x.len() {
            if i > 0 && x[i] == x[i - 1] {
                continue;
            }
            let opts = self.heaps.options_shared(x[i])?;
            if x[i] == n && copies == 1 {
                // The option has no heap n left: read its outcome from the quotient of the
                // smaller heaps.
                let rest = self.prev.image(&x[..i]);
                for o in opts.iter() {
                    let e = self.prev.m(rest, self.prev.image(o));
                    if self.prev.p[e as usize] {
                        p = false;
                        break 'heaps;
                    }
                }
                continue;
            }
            for o in opts.iter() {
                // Merge x without x[i] and the option, both sorted.
                next.clear();
                let (mut a, mut b) = (0, 0);
                while a < x.len() || b < o.len() {
                    if a == i {
                        a += 1;
                        continue;
                    }
                    if b == o.len() || (a < x.len() && x[a] <= o[b]) {
                        next.push(x[a]);
                        a += 1;
                    } else {
                        next.push(o[b]);
                        b += 1;
                    }
                }
                if self.is_p(&next)? {
                    p = false;
                    break 'heaps;
                }
            }
        }
        if self.memo.len() >= MAX_SEARCH {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!(
                    "the search for outcomes of sums with heap {n} stored {MAX_SEARCH} positions"
                ),
                "use a smaller heap bound",
            ));
        }
        self.mem.grow(
            48 + 8 * x.len() as u64,
            "misère quotient search (sums with the newest heap)",
        )?;
        self.memo.insert(x.to_vec(), p);
        Ok(p)
    }

    /// Whether the word `w` of heaps, as a sum, is a P-position.
    pub fn is_p_word(&mut self, w: &[u64]) -> Result<bool> {
        let mut x = w.to_vec();
        x.sort_unstable();
        self.is_p(&x)
    }
}

/// The quotient of heaps `1..=max_heap` (at most `max_order` elements); see the module
/// documentation.
pub(crate) fn build(
    game: &HeapGame,
    max_heap: u64,
    max_order: usize,
    method: Method,
    trace: &mut Vec<Step>,
    ctl: &Control,
) -> Result<Stage> {
    let mut st = Stage::trivial();
    let mut heaps = Heaps::new(game, ctl)?;
    let mut types: Vec<HeapType> = Vec::new();
    // The states of the last certificate that passed, for the next candidate of the same
    // monoid (the certificate module's "Checking again after new types").
    let mut reached = certificate::Reached::default();
    for n in 1..=max_heap {
        ctl.check(n - 1)?;
        heaps.moveless.push(false);
        let opts = heaps.options(n)?;
        if opts.is_empty() {
            heaps.moveless[n as usize] = true;
            st.heap_map.push(0);
            continue;
        }
        // Step 2: the options' classes of an earlier heap.
        let probe = heaps.heap_type(&st, n, 0)?;
        if let Some(t) = types.iter().find(|t| t.opts == probe.opts) {
            st.heap_map.push(t.elem);
            continue;
        }
        // Step 3: the extension of the old quotient by heap n, then the extensions of its
        // refinements, each certified.
        let mut refined: Option<Stage> = None;
        let mut found = None;
        let mut failures: Vec<Vec<u64>> = Vec::new();
        let mut first: Option<(Stage, Vec<u64>)> = None;
        let mut bases: Vec<usize> = Vec::new();
        let mut why = "refinements";
        let levels = if method == Method::Learning {
            0
        } else {
            MAX_REFINEMENTS + 1
        };
        // Answering positions keeps the refinements small, so that a heap they do not resolve
        // hands over to the search quickly.
        let max_base = if method == Method::Extension {
            POSITION_BASE
        } else {
            extension::MAX_BASE
        };
        for level in 0..levels {
            let base = refined.as_ref().unwrap_or(&st);
            bases.push(base.q);
            let (cand, labels) = match extension::extend(base, &mut heaps, max_order, ctl) {
                Ok(x) => x,
                // A candidate past the bounds is no quotient; the learning decides.
                Err(Error::Limit(e)) => {
                    trace!("heap {n}: extension of base {} hits a limit: {e}", base.q);
                    why = "extension limit";
                    break;
                }
                Err(e) => return Err(e),
            };
            let cand_types = heaps.types(&cand, ctl)?;
            match certificate::check_cached(&cand, &cand_types, &mut reached, ctl)? {
                None => {
                    found = Some((cand, cand_types, level, base.q));
                    break;
                }
                Some(sum) => {
                    trace!(
                        "heap {n}: extension of base {} ({} elements) fails at {sum:?}",
                        base.q,
                        cand.q
                    );
                    if first.is_none() {
                        first = Some((cand.clone(), sum.clone()));
                    }
                    failures.push(sum)
                }
            }
            if level + 1 == levels {
                break;
            }
            match extension::refine(base, &cand, &labels, n, max_base, &mut heaps, ctl)? {
                // The same number of elements: the refinement induces the same partition of
                // the sums, so the base already determines the classes of the options, and
                // refining again changes nothing.
                Some(r) if r.q == base.q => {
                    why = "stable";
                    break;
                }
                Some(r) => refined = Some(r),
                None => {
                    why = "base limit";
                    break;
                }
            }
        }
        if found.is_none() && method != Method::Learning {
            if let Some((t, x)) = first.take() {
                // The exact recalibration first; when it gives up, the loose one, whose
                // candidates may pass the order bound on their way (answering positions
                // keeps to the exact one).
                let mut done = recalibrate(
                    &st,
                    t.clone(),
                    x.clone(),
                    recalibration::Mode::Exact,
                    &mut heaps,
                    max_order,
                    recalibration::DENSE_MAX,
                    &mut failures,
                    ctl,
                )?;
                if done.is_none() && method == Method::Full {
                    done = recalibrate(
                        &st,
                        t,
                        x,
                        recalibration::Mode::Loose,
                        &mut heaps,
                        max_order.max(MAX_CANDIDATE),
                        recalibration::DENSE_MAX,
                        &mut failures,
                        ctl,
                    )?;
                }
                if let Some((cand, cand_types, rounds)) = done {
                    if cand.q > max_order {
                        return Err(too_many(max_order, n));
                    }
                    trace!(
                        "heap {n}: recalibrated in {rounds} rounds: {} elements",
                        cand.q
                    );
                    trace.push(Step::Recalibrated {
                        heap: n,
                        rounds,
                        order: cand.q,
                        failures: failures.clone(),
                    });
                    st = cand.dense(ctl)?;
                    types = cand_types;
                    continue;
                }
            }
        }
        if let Some((cand, cand_types, refinements, base)) = found {
            trace.push(Step::Extension {
                heap: n,
                refinements,
                base,
                order: cand.q,
                failures,
            });
            st = cand;
            types = cand_types;
            continue;
        }
        // Step 4: a new quotient.
        trace!("heap {n}: learned afresh (bases {bases:?}, {why})");
        trace.push(Step::Unresolved {
            heap: n,
            bases,
            why,
            failures: failures.clone(),
        });
        if method == Method::Extension {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!(
                    "heap {n} splits a class of the quotient of the smaller heaps that the \
                     extension does not resolve, and learning the quotient afresh is not allowed"
                ),
                "use a smaller heap",
            ));
        }
        let next = {
            let mut out = Outcomes::new(&st, &mut heaps, ctl)?;
            syntactic::learn(&mut out, &st.reps, max_order, ctl)?
        };
        st = next;
        types = heaps.types(&st, ctl)?;
        trace.push(Step::Learned {
            heap: n,
            order: st.q,
            failures,
        });
    }
    ctl.check(max_heap)?;
    Ok(st)
}

/// The most recalibrations of one heap's candidate.
const MAX_RECALIBRATIONS: usize = 256;

/// The most elements a candidate of the loose recalibration may have on its way to the
/// quotient. Past [`recalibration::DENSE_MAX`] elements a candidate keeps the action of its
/// letters (`4·|Q|·(letters + 2)` bytes) instead of a table, and the certificate's sets of
/// multipliers take `|Q|²/8` bytes, reserved from the memory budget; the certified quotient
/// itself keeps to the order bound.
const MAX_CANDIDATE: usize = 32768;

/// Recalibrates the candidate `t`, rejected by the certificate at its least failing sum `x`,
/// until a candidate certifies (see the `recalibration` module): each round sets free the
/// heaps of the least failure, the smallest sets first, and keeps the first reduced free
/// product that judges the failure right. In [`recalibration::Mode::Exact`] heap `n` is
/// always free; in [`recalibration::Mode::Loose`] any set of the failure's heaps is, and heap
/// `n`, when not free, keeps its element. `None` when no set of heaps does, past
/// [`MAX_RECALIBRATIONS`] rounds, or when the products pass their bounds (at most
/// `max_order` elements).
#[allow(clippy::too_many_arguments)]
pub(crate) fn recalibrate(
    prev: &Stage,
    mut t: Stage,
    mut x: Vec<u64>,
    mode: recalibration::Mode,
    heaps: &mut Heaps<'_>,
    max_order: usize,
    dense_max: usize,
    failures: &mut Vec<Vec<u64>>,
    ctl: &Control,
) -> Result<Option<(Stage, Vec<HeapType>, usize)>> {
    let n = heaps.top();
    for round in 1..=MAX_RECALIBRATIONS {
        // The least failure's outcome is the opposite of the candidate's (see
        // `certificate::check`).
        let truth = !t.p[t.image(&x) as usize];
        let with_top = mode == recalibration::Mode::Loose;
        let mut involved: Vec<u64> = x.iter().copied().filter(|&h| with_top || h != n).collect();
        involved.sort_unstable();
        involved.dedup();
        let free_heap = |h: u64| {
            let (i, p) = recalibration::index_period(&t, t.heap_map[h as usize]);
            let e = x.iter().filter(|&&y| y == h).count();
            Free {
                heap: h,
                index: i.max(e).max(1),
                period: if p % 2 == 0 { p } else { 2 * p },
                marker: false,
            }
        };
        let lo = usize::from(with_top);
        trace!(
            "heap {n}: {mode:?} round {round}: candidate of {} elements fails at {x:?} (truly {})",
            t.q,
            if truth { "P" } else { "N" }
        );
        let mut next = None;
        'sets: for size in lo..=involved.len().min(recalibration::MAX_FREE - 1) {
            for set in subsets(&involved, size) {
                let mut free: Vec<Free> = set.iter().map(|&h| free_heap(h)).collect();
                if !set.contains(&n) {
                    free.push(if with_top {
                        Free {
                            heap: n,
                            index: 1,
                            period: 1,
                            marker: true,
                        }
                    } else {
                        free_heap(n)
                    });
                }
                match recalibration::free_product(
                    &t, prev, &free, mode, heaps, max_order, dense_max, ctl,
                ) {
                    Ok(c) if c.p[c.image(&x) as usize] == truth => {
                        trace!("  free {free:?}: {} elements, judges it right", c.q);
                        next = Some(c);
                        break 'sets;
                    }
                    Ok(c) => trace!("  free {free:?}: {} elements, judges it wrong", c.q),
                    Err(Error::Limit(e)) => trace!("  free {free:?}: {e}"),
                    Err(e) => return Err(e),
                }
            }
        }
        let Some(c) = next else {
            trace!("heap {n}: no set of free heaps judges {x:?} right");
            return Ok(None);
        };
        let types = heaps.types(&c, ctl)?;
        match certificate::check(&c, &types, ctl)? {
            None => return Ok(Some((c, types, round))),
            Some(f) => {
                failures.push(f.clone());
                t = c;
                x = f;
            }
        }
    }
    trace!("heap {n}: no candidate certified after {MAX_RECALIBRATIONS} rounds");
    Ok(None)
}

/// The subsets of `items` with `size` elements, in lexicographic order.
fn subsets(items: &[u64], size: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..size).collect();
    if size > items.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| items[i]).collect());
        let Some(j) = (0..size).rev().find(|&j| pick[j] < items.len() - size + j) else {
            return out;
        };
        pick[j] += 1;
        for k in j + 1..size {
            pick[k] = pick[k - 1] + 1;
        }
    }
}
