//! Sums of heaps: who wins, and every winning move.
//!
//! **Normal play.** By the Sprague-Grundy theorem a sum of heaps h1, ..., hk has value
//! X = G(h1) ⊕ ... ⊕ G(hk) and is lost for the player to move (P) exactly when X = 0. From an
//! N position (X ≠ 0) the winning moves are the moves to P positions: replacing heap i by an
//! option whose value is G(hi) ⊕ X, since the new nim-sum is then X ⊕ G(hi) ⊕ (G(hi) ⊕ X) = 0.
//!
//! **Misère play** (the player who cannot move wins). For Nim, Bouton's rule: if some heap has
//! two or more tokens, play as in normal play except that a move leaving only heaps of size
//! at most 1 must leave an odd number of them; if every heap has at most one token, the
//! position is P exactly when the number of 1-heaps is odd. For other games the values do not
//! add, so the outcome comes from a memoised search over positions (sorted multisets of heaps):
//! a position is N when it has no move or some option is P. The search stops with
//! [`Error::Limit`] beyond [`MISERE_MAX_POSITIONS`] positions, and with the memory
//! [`Error::Limit`] when its bytes would pass the budget of its [`Control`].
//!
//! **Bytes of the misère search.** Its memory is the table of settled positions and the stack
//! of the depth-first search, where every open position holds all its options. Both are counted
//! against the [`Control`]'s budget before they grow: a settled position of `k` heaps costs
//! [`MEMO_ENTRY_BYTES`] + 8k bytes; an open position of `k` heaps with options of `k_i` heaps
//! costs [`FRAME_BYTES`] + 8k + Σ ([`OPTION_BYTES`] + 8k_i). The options of a position are
//! counted from the bound on their number before they are generated, then at their true size, so a
//! search whose stack of options outgrows the budget (sums of many large heaps, whose depth is
//! their total size) stops before it allocates them.

use crate::control::{Control, Reservation};
use crate::document::Natural;
use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::game::Game;
use crate::heap::rule::Options;
use crate::heap::sequence::{compute, Sequence};
use crate::heap::HeapGame;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use std::collections::{HashMap, HashSet};

/// Heaps above this size are refused (except in Nim, where G(n) = n, and divide games, whose
/// values are found by a memoised recursion over the few heaps floor(n/(d1·d2·...))).
pub const MAX_HEAP: u64 = 10_000_000;

/// The most options of one heap that the winning-move listing enumerates.
pub const MAX_OPTIONS: u128 = 100_000_000;

/// How many options [`winning_options`] examines between two checks of its [`Control`].
const CHECK_EVERY: usize = 4096;

/// The most positions the misère search visits.
pub const MISERE_MAX_POSITIONS: usize = 200_000;

/// Bytes of a settled position in the misère search's table, besides 8 bytes a heap: the
/// `Vec` header (24), the outcome, and the hash table's slot and control byte at its lowest load
/// (7/8 full after growth, half full just after it doubles), rounded up.
pub const MEMO_ENTRY_BYTES: u64 = 64;
/// Bytes of an open position on the misère search's stack, besides its heaps and options: the
/// position's `Vec` header, the options' `Vec` header and the index of the next option.
pub const FRAME_BYTES: u64 = 56;
/// Bytes of one option of an open position, besides 8 bytes a heap: its `Vec` header.
pub const OPTION_BYTES: u64 = 24;

use crate::solve::Outcome;

/// One winning move: heap `heap` (0-based index in the input) of size `from` becomes the heaps
/// `to` (ascending; empty when the heap is removed).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Move {
    /// 0-based index of the heap moved in.
    pub heap: usize,
    /// Its size.
    pub from: u64,
    /// The heaps it becomes, ascending.
    pub to: Vec<u64>,
}

impl Move {
    /// The move in heap `heap` (0-based) of size `from` leaving the heaps `to` (sorted here).
    pub fn new(heap: usize, from: u64, mut to: Vec<u64>) -> Move {
        to.sort_unstable();
        Move { heap, from, to }
    }
}

/// The analysis of a sum of heaps: its outcome and every winning move.
///
/// Under normal play the sum `h1 + ... + hk` has value `X = G(h1) ⊕ ... ⊕ G(hk)` and is P
/// exactly when `X = 0` (Sprague-Grundy); the winning moves replace a heap `hi` by an option of
/// value `G(hi) ⊕ X`, which makes the nim-sum 0. Under misère play the outcome comes from
/// Bouton's rule (Nim) or a search over positions (see the module documentation).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PositionAnalysis {
    /// P or N.
    pub outcome: Outcome,
    /// The nim-sum of the heaps' values (normal play only).
    pub nim_sum: Option<u64>,
    /// Every winning move, by heap index then option order (none for P positions).
    pub winning_moves: Vec<Move>,
}

/// Grundy values G(n) of single heaps of a rule, for every n up to the largest heap it was made
/// for: the sequence is computed once (Nim and divide games need none).
pub struct Values<'r> {
    rule: &'r HeapGame,
    seq: Option<Sequence>,
    memo: HashMap<u64, u64>,
}

impl<'r> Values<'r> {
    /// Prepares G(n) for every n up to the largest of `heaps`; heaps above [`MAX_HEAP`] are
    /// refused with [`Error::Limit`] for games that need their sequence.
    pub fn new(game: &'r HeapGame, heaps: &[u64], ctl: &Control) -> Result<Values<'r>> {
        let rule = game;
        let max = heaps.iter().copied().max().unwrap_or(0);
        let seq = match rule.spec() {
            GameSpec::Nim | GameSpec::Divide(_) => None,
            _ => {
                if max > MAX_HEAP {
                    return Err(Error::limit(
                        crate::LimitKind::HeapSize,
                        format!("heap {max} is above the limit of {MAX_HEAP} for this game"),
                        "use smaller heaps",
                    ));
                }
                Some(compute(rule, max + 1, ctl)?)
            }
        };
        Ok(Values {
            rule,
            seq,
            memo: HashMap::new(),
        })
    }

    /// G(n), for n at most the largest heap given to [`Values::new`] (any n for Nim and divide
    /// games).
    pub fn get(&mut self, n: u64) -> u64 {
        match (self.rule.spec(), &self.seq) {
            (GameSpec::Nim, _) => n,
            (GameSpec::Divide(ds), _) => divide_value(ds, n, &mut self.memo),
            (_, Some(s)) => s.get(n as usize) as u64,
            _ => 0,
        }
    }
}

/// The Grundy value G(h) of each heap of `heaps` (computed once up to the largest heap; Nim and
/// divide games need no sequence). Heaps above [`MAX_HEAP`] are refused with [`Error::Limit`]
/// for games that need their sequence.
pub fn heap_values(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<Vec<u64>> {
    let mut vals = Values::new(game, heaps, ctl)?;
    Ok(heaps.iter().map(|&h| vals.get(h)).collect())
}

/// G(n) of `divide:D`: mex { G(floor(n/d)) : d ∈ D } with G(0) = 0, memoised. The recursion
/// depth is at most log2(n) + 1 because every d >= 2.
pub fn divide_value(ds: &[u64], n: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if n == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&n) {
        return v;
    }
    let mut seen: Vec<u32> = ds
        .iter()
        .map(|&d| divide_value(ds, n / d, memo) as u32)
        .collect();
    let g = crate::heap::reference::mex(&mut seen) as u64;
    memo.insert(n, g);
    g
}

/// Outcome, nim-sum and every winning move of the sum of `heaps` under normal play.
pub fn normal(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<PositionAnalysis> {
    let rule = game;
    let mut vals = Values::new(game, heaps, ctl)?;
    let g: Vec<u64> = heaps.iter().map(|&h| vals.get(h)).collect();
    let x = g.iter().fold(0, |a, b| a ^ b);
    let mut moves = Vec::new();
    if x != 0 {
        let mut opts = Options::new();
        for (i, &h) in heaps.iter().enumerate() {
            let target = g[i] ^ x;
            if let GameSpec::Nim = rule.spec() {
                if target < h {
                    moves.push(Move {
                        heap: i,
                        from: h,
                        to: if target == 0 { vec![] } else { vec![target] },
                    });
                }
                continue;
            }
            moves.extend(winning_options(rule, heaps, i, &mut opts, ctl, |o| {
                Ok(o.iter().fold(0, |a, &p| a ^ vals.get(p)) == target)
            })?);
        }
    }
    Ok(PositionAnalysis {
        outcome: if x == 0 { Outcome::P } else { Outcome::N },
        nim_sum: Some(x),
        winning_moves: moves,
    })
}

/// The distinct options of heap `i` (parts ascending) for which `wins` holds, as moves.
pub(crate) fn winning_options(
    rule: &HeapGame,
    heaps: &[u64],
    i: usize,
    opts: &mut Options,
    ctl: &Control,
    mut wins: impl FnMut(&[u64]) -> Result<bool>,
) -> Result<Vec<Move>> {
    let h = heaps[i];
    check_option_count(rule, h)?;
    opts.clear();
    rule.heap_options(h, opts)?;
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    let mut moves = Vec::new();
    for (k, o) in opts.iter().enumerate() {
        if k.is_multiple_of(CHECK_EVERY) {
            ctl.stop_check()?;
        }
        if wins(o)? {
            let mut to = o.to_vec();
            to.sort_unstable();
            if seen.insert(to.clone()) {
                moves.push(Move {
                    heap: i,
                    from: h,
                    to,
                });
            }
        }
    }
    Ok(moves)
}

fn check_option_count(rule: &HeapGame, h: u64) -> Result<()> {
    let c = rule.option_count_bound(h);
    if c > MAX_OPTIONS {
        return Err(Error::limit(
            crate::LimitKind::Options,
            format!("heap {h} has about {c} options, above the limit of {MAX_OPTIONS}"),
            "use smaller heaps",
        ));
    }
    Ok(())
}

/// Outcome and every winning move of the sum of `heaps` under misère play: Bouton's rule for
/// Nim, else the misère quotient of the heaps up to the largest one when it can be built
/// ([`crate::misere::through_quotient`]), else the search, which checks `ctl` at every
/// position it opens.
pub fn misere(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<PositionAnalysis> {
    let rule = game;
    if let GameSpec::Nim = rule.spec() {
        return Ok(misere_nim(heaps));
    }
    if let Some(found) = crate::misere::through_quotient(game, heaps, ctl)? {
        return Ok(found.analysis);
    }
    let mut search = MisereSearch::new(game, ctl)?;
    let start = HeapGame::position(heaps);
    let win = search.is_n(&start)?;
    let mut moves = Vec::new();
    if win {
        let mut opts = Options::new();
        for i in 0..heaps.len() {
            moves.extend(winning_options(rule, heaps, i, &mut opts, ctl, |o| {
                let mut rest: Vec<u64> =
                    heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                rest.extend_from_slice(o);
                Ok(!search.is_n(&HeapGame::position(&rest))?)
            })?);
        }
    }
    Ok(PositionAnalysis {
        outcome: if win { Outcome::N } else { Outcome::P },
        nim_sum: None,
        winning_moves: moves,
    })
}

/// Misère Nim by Bouton's rule (see the module documentation).
pub fn misere_nim(heaps: &[u64]) -> PositionAnalysis {
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
    let x = heaps.iter().fold(0, |a, b| a ^ b);
    let mut moves = Vec::new();
    let win = if big == 0 {
        ones.is_multiple_of(2)
    } else {
        x != 0
    };
    if win {
        for (i, &h) in heaps.iter().enumerate() {
            let target = if big == 0 {
                // Take a whole 1-heap, leaving an odd number of them.
                if h == 1 {
                    0
                } else {
                    continue;
                }
            } else if big == 1 && h >= 2 {
                // The last big heap: leave an odd number of 1-heaps in all.
                if ones.is_multiple_of(2) {
                    1
                } else {
                    0
                }
            } else {
                let t = h ^ x;
                if t >= h {
                    continue;
                }
                t
            };
            moves.push(Move {
                heap: i,
                from: h,
                to: if target == 0 { vec![] } else { vec![target] },
            });
        }
    }
    PositionAnalysis {
        outcome: if win { Outcome::N } else { Outcome::P },
        nim_sum: None,
        winning_moves: moves,
    }
}

/// The memoised misère search: N iff terminal or some option is P.
struct MisereSearch<'r, 'c> {
    game: &'r HeapGame,
    memo: HashMap<Vec<u64>, bool>,
    ctl: &'c Control<'c>,
    /// The bytes of `memo` (see the module documentation).
    memo_bytes: Reservation,
    /// The bytes of the frames on the stack.
    stack_bytes: Reservation,
}

/// What the misère search's memory limit error names.
const MISERE_MEMORY: &str = "the misère search";

impl<'r, 'c> MisereSearch<'r, 'c> {
    fn new(game: &'r HeapGame, ctl: &'c Control<'c>) -> Result<Self> {
        Ok(MisereSearch {
            game,
            memo: HashMap::new(),
            ctl,
            memo_bytes: ctl.reserve(0, MISERE_MEMORY)?,
            stack_bytes: ctl.reserve(0, MISERE_MEMORY)?,
        })
    }

    /// Whether `p` is an N position under misère play (iterative depth-first search).
    fn is_n(&mut self, p: &[u64]) -> Result<bool> {
        if let Some(&w) = self.memo.get(p) {
            return Ok(w);
        }
        // Frames: a position, its options, and the next option to look at.
        let mut stack: Vec<Frame> = Vec::new();
        self.open(&mut stack, p.to_vec())?;
        while let Some((pos, opts, next, _)) = stack.last_mut() {
            if *next == opts.len() {
                // No option is P (or there are none: terminal, so N).
                let win = opts.is_empty();
                let pos = std::mem::take(pos);
                self.pop(&mut stack);
                self.settle(pos, win)?;
                continue;
            }
            match self.memo.get(&opts[*next]) {
                Some(false) => {
                    let pos = std::mem::take(pos);
                    self.pop(&mut stack);
                    self.settle(pos, true)?;
                }
                Some(true) => *next += 1,
                None => {
                    let q = opts[*next].clone();
                    self.open(&mut stack, q)?;
                }
            }
        }
        self.memo
            .get(p)
            .copied()
            .ok_or_else(|| Error::Internal("misère search lost its root".into()))
    }

    /// Pushes the frame of position `q` with its options, counting its bytes first from the
    /// bound on the number of options (each leaving at most two heaps more), then exactly. A
    /// position of many heaps has thousands of options, so the token and the clock are looked
    /// at for every one opened, not every few thousand.
    fn open(&mut self, stack: &mut Vec<Frame>, q: Vec<u64>) -> Result<()> {
        self.ctl.stop_check()?;
        let rule = self.game;
        let mut bound: u128 = 0;
        for (i, &h) in q.iter().enumerate() {
            check_option_count(rule, h)?;
            // Options are generated once per distinct heap size.
            if i == 0 || q[i - 1] != h {
                bound = bound.saturating_add(rule.option_count_bound(h));
            }
        }
        let heap_bytes = 8 * q.len() as u64;
        let option_bytes = OPTION_BYTES + heap_bytes + 16;
        let estimate = u64::try_from(bound)
            .unwrap_or(u64::MAX)
            .saturating_mul(option_bytes)
            .saturating_add(FRAME_BYTES + heap_bytes);
        let held = self.stack_bytes.bytes();
        self.stack_bytes.grow(estimate, MISERE_MEMORY)?;
        let mut opts = Vec::new();
        self.game.options(&q, &mut opts)?;
        let bytes = FRAME_BYTES
            + heap_bytes
            + opts
                .iter()
                .map(|o| OPTION_BYTES + 8 * o.len() as u64)
                .sum::<u64>();
        self.stack_bytes.resize(held + bytes, MISERE_MEMORY)?;
        stack.push((q, opts, 0, bytes));
        Ok(())
    }

    /// Pops the top frame and gives back its bytes.
    fn pop(&mut self, stack: &mut Vec<Frame>) {
        if let Some((.., bytes)) = stack.pop() {
            let held = self.stack_bytes.bytes().saturating_sub(bytes);
            // Shrinking never fails.
            let _ = self.stack_bytes.resize(held, MISERE_MEMORY);
        }
    }

    /// Records the outcome of a finished position.
    fn settle(&mut self, pos: Vec<u64>, win: bool) -> Result<()> {
        self.memo_bytes
            .grow(MEMO_ENTRY_BYTES + 8 * pos.len() as u64, MISERE_MEMORY)?;
        if self.memo.len() >= MISERE_MAX_POSITIONS {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!(
                    "the misère search visited {MISERE_MAX_POSITIONS} positions without an answer"
                ),
                "use fewer or smaller heaps",
            ));
        }
        self.memo.insert(pos, win);
        Ok(())
    }
}

/// A search frame: a position, its options, the index of the next option to examine, and the
/// bytes counted for it.
type Frame = (Vec<u64>, Vec<Vec<u64>>, usize, u64);

/// The options of one heap of any size `h`, each as the heaps it leaves (ascending, empty heaps
/// dropped), at most [`MAX_OPTIONS`] of them (else [`Error::Limit`] of kind
/// [`LimitKind::Options`](crate::LimitKind::Options)). A subtraction game's heap is never
/// narrowed to 64 bits: `h - s` for each `s` of the set; other rules need `h` below 2^64.
pub fn options_of_big(game: &HeapGame, h: &BigUint) -> Result<Vec<Vec<BigUint>>> {
    let too_many = |count: &dyn std::fmt::Display| too_many_options(h, count);
    if let crate::game::spec::GameSpec::Subtraction(set) = game.spec() {
        if set.len() > MAX_OPTIONS {
            return Err(too_many(&set.len()));
        }
        let mut out = Vec::new();
        for &(a, b) in set.ranges() {
            for s in a..=b {
                let s = BigUint::from(s);
                if &s <= h {
                    let rest = h - s;
                    out.push(if rest.is_zero() { vec![] } else { vec![rest] });
                }
            }
        }
        return Ok(out);
    }
    let Some(n) = h.to_u64() else {
        return Err(too_many(h));
    };
    let bound = game.option_count_bound(n);
    if bound > MAX_OPTIONS {
        return Err(too_many(&bound));
    }
    let mut opts = Options::new();
    game.heap_options(n, &mut opts)?;
    Ok(opts
        .iter()
        .map(|o| {
            let mut to: Vec<u64> = o.iter().copied().filter(|&p| p > 0).collect();
            to.sort_unstable();
            to.into_iter().map(BigUint::from).collect()
        })
        .collect())
}

/// A winning move in a sum of heaps of any size: heap `heap` (0-based) of size `from` becomes
/// the heaps `to` (ascending; empty when the heap is removed).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BigMove {
    /// 0-based index of the heap moved in.
    pub heap: usize,
    /// Its size.
    pub from: BigUint,
    /// The heaps it becomes, ascending.
    pub to: Vec<BigUint>,
}

/// The normal-play analysis of a sum of heaps of any size: its outcome, its nim-sum and every
/// winning move (see [`PositionAnalysis`] for the theorem).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BigPositionAnalysis {
    /// P exactly when the nim-sum is 0.
    pub outcome: Outcome,
    /// The nim-sum of the heaps' values.
    pub nim_sum: BigUint,
    /// Every winning move, by heap index then option order (none for P positions).
    pub winning_moves: Vec<BigMove>,
}

impl From<PositionAnalysis> for BigPositionAnalysis {
    /// The analysis of heaps below 2^64 written with heaps of any size (normal play: the
    /// nim-sum is present).
    fn from(a: PositionAnalysis) -> Self {
        BigPositionAnalysis {
            outcome: a.outcome,
            nim_sum: BigUint::from(a.nim_sum.unwrap_or(0)),
            winning_moves: a
                .winning_moves
                .into_iter()
                .map(|m| BigMove {
                    heap: m.heap,
                    from: BigUint::from(m.from),
                    to: m.to.into_iter().map(BigUint::from).collect(),
                })
                .collect(),
        }
    }
}

/// The answer to "who wins this sum of heaps, and how?" as a document: what `grundy position
/// --json` and Python's `Position.to_dict()` write (JSON Schema: `docs/schemas/position.json`).
/// Heaps are numbered from 1 in the document, as on the command line; every number is an exact
/// JSON integer of any size ([`Natural`]).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
    serde(deny_unknown_fields),
    schemars(
        title = "position",
        description = "The outcome of a sum of heaps and every winning move. Heaps are \
                       numbered from 1, in the order given; numbers are exact JSON integers of \
                       any size."
    )
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionDocument {
    /// `P` (the player to move loses) or `N` (the player to move wins).
    pub outcome: Outcome,
    /// The nim-sum of the heaps' Grundy values; `null` under misère play, where values do not
    /// add.
    pub nim_sum: Option<Natural>,
    /// Every winning move, by heap then option order (empty for a P-position).
    pub winning_moves: Vec<MoveDocument>,
}

/// A winning move in a [`PositionDocument`]: heap number `heap` (from 1) of size `from` becomes
/// the heaps `to` (ascending; empty when the heap is removed).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDocument {
    /// The heap moved in, numbered from 1 in the order the heaps were given.
    pub heap: usize,
    /// Its size.
    pub from: Natural,
    /// The heaps it becomes, ascending.
    pub to: Vec<Natural>,
}

impl From<&Move> for MoveDocument {
    fn from(m: &Move) -> MoveDocument {
        MoveDocument {
            heap: m.heap + 1,
            from: Natural::from(m.from),
            to: m.to.iter().map(|&h| Natural::from(h)).collect(),
        }
    }
}

impl From<&BigMove> for MoveDocument {
    fn from(m: &BigMove) -> MoveDocument {
        MoveDocument {
            heap: m.heap + 1,
            from: Natural(m.from.clone()),
            to: m.to.iter().cloned().map(Natural).collect(),
        }
    }
}

impl From<&PositionAnalysis> for PositionDocument {
    /// The document of an analysis in either play (the nim-sum present in normal play only).
    fn from(a: &PositionAnalysis) -> PositionDocument {
        PositionDocument {
            outcome: a.outcome,
            nim_sum: a.nim_sum.map(Natural::from),
            winning_moves: a.winning_moves.iter().map(MoveDocument::from).collect(),
        }
    }
}

impl From<&BigPositionAnalysis> for PositionDocument {
    fn from(a: &BigPositionAnalysis) -> PositionDocument {
        PositionDocument {
            outcome: a.outcome,
            nim_sum: Some(Natural(a.nim_sum.clone())),
            winning_moves: a.winning_moves.iter().map(MoveDocument::from).collect(),
        }
    }
}

/// Bytes counted for one option of a huge heap while the winning moves are listed: its `Vec`
/// header and up to three heaps of any size (each a `BigUint` header and its words).
const BIG_OPTION_BYTES: u64 = 24 + 3 * 48;

/// A sum of heaps of any size in normal play (heaps beyond [`MAX_HEAP`], for which no sequence
/// is computed): Nim by `G(n) = n`; any other game through the Grundy values its pattern gives
/// ([`crate::pattern::value::analyze`] with at most `max` values computed, by default
/// [`crate::pattern::value::default_max`]), which must be proved periodic or arithmetic-periodic,
/// or hold the heaps within the values computed ([`Error::Limit`] otherwise).
///
/// **Winning moves.** By the Sprague-Grundy theorem the sum has nim-sum
/// `X = G(h1) ⊕ … ⊕ G(hk)`, and the winning moves (when `X ≠ 0`) are the options of a heap `hi`
/// whose heaps have nim-sum `G(hi) ⊕ X` ([`options_of_big`] lists them, at most
/// [`MAX_OPTIONS`]). In Nim that option is the single heap `hi ⊕ X` when it is below `hi`.
/// An option met twice (two splits leaving the same heaps) is one move.
///
/// **Limits.** The options of a heap (a subtraction game's are generated one at a time and never
/// held; other rules' are held, 168 bytes an option) are reserved from the budget of
/// `ctl` before they are made, and `ctl` is looked at every 4096 options.
pub fn normal_by_pattern(
    game: &HeapGame,
    heaps: &[BigUint],
    max: Option<u64>,
    ctl: &Control,
) -> Result<BigPositionAnalysis> {
    let x_of = |g: &[BigUint]| g.iter().fold(BigUint::zero(), |a, b| a ^ b);
    let outcome = |x: &BigUint| if x.is_zero() { Outcome::P } else { Outcome::N };
    if let crate::game::spec::GameSpec::Nim = game.spec() {
        let x = x_of(heaps);
        let winning_moves = heaps
            .iter()
            .enumerate()
            .filter_map(|(heap, h)| {
                let t = h ^ &x;
                (!x.is_zero() && &t < h).then(|| BigMove {
                    heap,
                    from: h.clone(),
                    to: if t.is_zero() { vec![] } else { vec![t] },
                })
            })
            .collect();
        return Ok(BigPositionAnalysis {
            outcome: outcome(&x),
            nim_sum: x,
            winning_moves,
        });
    }
    let max = max.unwrap_or_else(|| crate::pattern::value::default_max(game.spec()));
    let pattern = crate::pattern::value::analyze(game, max, ctl)?;
    let g = heaps
        .iter()
        .map(|h| pattern.value(h))
        .collect::<Result<Vec<_>>>()?;
    let x = x_of(&g);
    let mut winning_moves = Vec::new();
    if !x.is_zero() {
        for (heap, h) in heaps.iter().enumerate() {
            let target = &g[heap] ^ &x;
            let mut seen = HashSet::new();
            let mut examined = 0usize;
            let mut consider = |to: Vec<BigUint>| -> Result<()> {
                examined += 1;
                if examined.is_multiple_of(CHECK_EVERY) {
                    ctl.stop_check()?;
                }
                let v = to
                    .iter()
                    .map(|p| pattern.value(p))
                    .collect::<Result<Vec<_>>>()?;
                if x_of(&v) == target && seen.insert(to.clone()) {
                    winning_moves.push(BigMove {
                        heap,
                        from: h.clone(),
                        to,
                    });
                }
                Ok(())
            };
            if let crate::game::spec::GameSpec::Subtraction(set) = game.spec() {
                if set.len() > MAX_OPTIONS {
                    return Err(too_many_options(h, &set.len()));
                }
                for &(a, b) in set.ranges() {
                    for s in a..=b {
                        let s = BigUint::from(s);
                        if &s <= h {
                            let rest = h - s;
                            consider(if rest.is_zero() { vec![] } else { vec![rest] })?;
                        }
                    }
                }
            } else {
                // Beyond MAX_OPTIONS, options_of_big refuses before it generates anything.
                let bound = h.to_u64().map_or(u128::MAX, |n| game.option_count_bound(n));
                let _held = match u64::try_from(bound) {
                    Ok(count) if bound <= MAX_OPTIONS => Some(ctl.reserve(
                        count.saturating_mul(BIG_OPTION_BYTES),
                        "the options of a heap",
                    )?),
                    _ => None,
                };
                for to in options_of_big(game, h)? {
                    consider(to)?;
                }
            }
        }
    }
    Ok(BigPositionAnalysis {
        outcome: outcome(&x),
        nim_sum: x,
        winning_moves,
    })
}

/// The limit error of a heap with `count` options, more than [`MAX_OPTIONS`].
fn too_many_options(h: &BigUint, count: &dyn std::fmt::Display) -> Error {
    Error::limit(
        crate::LimitKind::Options,
        format!(
            "heap {h} has about {count} options to list winning moves from, above the limit of {}",
            MAX_OPTIONS
        ),
        "use smaller heaps",
    )
}

#[cfg(test)]
mod tests;
