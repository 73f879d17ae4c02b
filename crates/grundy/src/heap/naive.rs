//! The naive engines: G(n) = mex of the option values, each rule with a tight loop of its own,
//! marks in a bitset, and no allocation per option.
//!
//! * take-and-break: for digit `d_k`, bit 1 gives value 0 when n = k, bit 2 gives G(n-k), bit 4
//!   gives G(a) ⊕ G(b) for a + b = n - k, 1 <= a <= b (n/2 pairs); bit 8 (three heaps) uses a
//!   pair table P(s) = { G(b) ⊕ G(s-b) : 1 <= b <= s/2 } stored as a bitset per s, so that the
//!   three-heap options of n are the union over a of G(a) ⊕ P(n-k-a): O(n · B/64) word
//!   operations (B the value bound) instead of O(n²);
//! * subtraction by ranges: the options of n are the values in the windows [n-hi, n-lo];
//!   sliding each window by one changes two counts, and a two-level bitset of the values with a
//!   non-zero count gives the mex, so `sub:1-1000000` costs O(1) per value, not 10^6;
//! * divide, squares, nim: direct.

use crate::control::Control;
use crate::error::{Error, Result};
use crate::heap::reference;
use crate::game::spec::GameSpec;
use crate::heap::HeapGame;
use crate::heap::sequence::{push, Cell, Fill, PROGRESS_EVERY};
use crate::game::spec::{SubtractionSet, TakeBreak};

/// A bitset of values, cleared per heap, giving the mex.
#[derive(Default)]
pub(crate) struct Marks {
    pub(crate) words: Vec<u64>,
}

impl Marks {
    /// Clears and sizes the set for values below `bits` (a multiple of 64).
    #[inline]
    pub(crate) fn reset(&mut self, bits: usize) {
        let w = bits.div_ceil(64);
        self.words.clear();
        self.words.resize(w, 0);
    }

    #[inline(always)]
    pub(crate) fn set(&mut self, v: u32) {
        self.words[(v >> 6) as usize] |= 1u64 << (v & 63);
    }

    /// The least value not in the set (the set must not be full).
    #[inline]
    pub(crate) fn mex(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return (i as u32) * 64 + w.trailing_ones();
            }
        }
        (self.words.len() * 64) as u32
    }
}

/// `{ v ⊕ c : v ∈ x }` for a 64-bit word of a bitset and the low 6 bits `s` of `c`: bit j
/// moves to bit j ⊕ s, done as one swap of 2^i-blocks per set bit i of s.
#[inline(always)]
pub(crate) fn xor_permute(mut x: u64, s: u32) -> u64 {
    const M: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (i, m) in M.iter().enumerate() {
        if s >> i & 1 != 0 {
            let sh = 1 << i;
            x = ((x & m) << sh) | ((x >> sh) & m);
        }
    }
    x
}

/// The value bound B: a power of two above every value so far (at least 64), so every xor of
/// values is below B and every mex at most B.
#[inline]
pub(crate) fn bound(max: u32) -> usize {
    ((max as usize) + 1).next_power_of_two().max(64)
}

/// Extends `values` to G(0..n) with the naive engine for `rule`.
pub fn extend<T: Cell>(
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    match rule.spec() {
        GameSpec::Nim => {
            while values.len() < n {
                let h = values.len() as u32;
                if let Some(r) = push(values, h) {
                    return Ok(r);
                }
                if (h as usize).is_multiple_of(PROGRESS_EVERY) {
                    ctl.check(h as u64)?;
                }
            }
            Ok(Fill::Done)
        }
        GameSpec::Subtraction(s) => subtraction(s, values, n, ctl),
        GameSpec::TakeBreak(c) => take_break(&Splits::of_code(c), values, n, ctl),
        GameSpec::GrundysGame => take_break(&Splits::grundy(), values, n, ctl),
        GameSpec::Divide(ds) => simple(values, n, ctl, |h, marks, vals: &[T]| {
            if h > 0 {
                ds.iter()
                    .for_each(|&d| marks.set(vals[h / d as usize].get()));
            }
        }),
        GameSpec::Squares => simple(values, n, ctl, |h, marks, vals: &[T]| {
            let mut k = 1;
            while k * k <= h {
                marks.set(vals[h - k * k].get());
                k += 1;
            }
        }),
        // Rules that are user code: every option generated, then mex.
        GameSpec::Script(_) | GameSpec::Custom(_) => reference::extend(rule, values, n, ctl),
    }
}

/// Single-heap options given by `mark(h, marks, values)`, mex per heap.
fn simple<T: Cell>(
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
    mark: impl Fn(usize, &mut Marks, &[T]),
) -> Result<Fill> {
    let mut marks = Marks::default();
    let mut max = values.iter().map(|v| v.get()).max().unwrap_or(0);
    while values.len() < n {
        let h = values.len();
        marks.reset(bound(max) + 64);
        mark(h, &mut marks, values);
        let g = marks.mex();
        max = max.max(g);
        if let Some(r) = push(values, g) {
            return Ok(r);
        }
        if h.is_multiple_of(PROGRESS_EVERY) {
            ctl.check(h as u64)?;
        }
    }
    Ok(Fill::Done)
}

/// Counts of the values in a sliding window, with the mex of the values present.
///
/// The present values are the leaves of a tree of 64-bit words: level 0 has bit `v` set when
/// `v` is present, and level `k + 1` has bit `i` set when word `i` of level `k` is full (all 64
/// bits set). So a word of level `k` is full exactly when all `64^(k+1)` values below it are
/// present, and the mex is found by descending from the top (a single word) to the first clear
/// bit of each level: `O(log_64 V)` for values below `V`, as are adding and removing a value
/// (a change moves up only while it fills or unfills a word). A flat summary scanned from 0
/// costs `V / 4096` a call instead, quadratic over a window whose values all differ
/// (`sub:1-1000000000`, where `G(n) = n`).
#[derive(Default)]
struct WindowCounts {
    count: Vec<u32>,
    /// `levels[0]`: present values; `levels[k + 1]`: full words of `levels[k]`; the last level
    /// is one word.
    levels: Vec<Vec<u64>>,
}

impl WindowCounts {
    /// Makes room for value `v`: `count` grows to a power of two of at least 4096 and the
    /// levels are rebuilt from it.
    fn grow(&mut self, v: usize) {
        let len = (v + 1).next_power_of_two().max(4096);
        self.count.resize(len, 0);
        let mut level: Vec<u64> = vec![0; len / 64];
        for (i, &c) in self.count.iter().enumerate() {
            if c > 0 {
                level[i / 64] |= 1 << (i % 64);
            }
        }
        self.levels.clear();
        loop {
            let next: Vec<u64> = level
                .chunks(64)
                .map(|words| {
                    words
                        .iter()
                        .enumerate()
                        .filter(|(_, &w)| w == u64::MAX)
                        .fold(0, |acc, (i, _)| acc | 1 << i)
                })
                .collect();
            let top = level.len() == 1;
            self.levels.push(level);
            if top {
                break;
            }
            level = next;
        }
    }

    fn add(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.count.len() {
            self.grow(v);
        }
        self.count[v] += 1;
        if self.count[v] == 1 {
            let mut i = v;
            for level in &mut self.levels {
                let word = &mut level[i / 64];
                *word |= 1 << (i % 64);
                if *word != u64::MAX {
                    break;
                }
                i /= 64;
            }
        }
    }

    fn remove(&mut self, v: u32) {
        let v = v as usize;
        self.count[v] -= 1;
        if self.count[v] == 0 {
            let mut i = v;
            for level in &mut self.levels {
                let word = &mut level[i / 64];
                let was_full = *word == u64::MAX;
                *word &= !(1 << (i % 64));
                if !was_full {
                    break;
                }
                i /= 64;
            }
        }
    }

    fn mex(&self) -> u32 {
        let mut i = 0;
        for (k, level) in self.levels.iter().enumerate().rev() {
            // Word `i` of this level is not full (its bit in the level above is clear), except
            // at the top, where all may be.
            i = i * 64 + level[i].trailing_ones() as usize;
            if k > 0 && i >= self.levels[k - 1].len() {
                return self.count.len() as u32;
            }
        }
        i.min(self.count.len()) as u32
    }
}

/// Subtraction by ranges: the options of n are G(p) for p in the windows [n-hi, n-lo] (clipped
/// at 0); from n-1 to n each window gains position n-lo and loses position n-1-hi.
fn subtraction<T: Cell>(
    s: &SubtractionSet,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    let mut w = WindowCounts::default();
    // Rebuild the windows for heap h = len (positions h-hi ..= h-lo).
    let h0 = values.len();
    for &(lo, hi) in s.ranges() {
        if (lo as usize) > h0 {
            continue;
        }
        let top = h0 - lo as usize;
        let bottom = h0.saturating_sub(hi.min(h0 as u64) as usize);
        (bottom..=top).for_each(|p| w.add(values[p].get()));
    }
    while values.len() < n {
        let h = values.len();
        if h > h0 {
            for &(lo, hi) in s.ranges() {
                if lo as usize <= h {
                    w.add(values[h - lo as usize].get());
                }
                if hi < h as u64 {
                    w.remove(values[h - 1 - hi as usize].get());
                }
            }
        }
        if let Some(r) = push(values, w.mex()) {
            return Ok(r);
        }
        if h.is_multiple_of(PROGRESS_EVERY) {
            ctl.check(h as u64)?;
        }
    }
    Ok(Fill::Done)
}

/// The moves of a splitting game, by the number of tokens removed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Splits {
    /// k: a heap of exactly k may be removed.
    pub(crate) whole: Vec<usize>,
    /// k: n → n - k (one heap left, n > k).
    pub(crate) one: Vec<usize>,
    /// (k, unequal): n → a + b = n - k, a, b >= 1 (a ≠ b if unequal).
    pub(crate) two: Vec<(usize, bool)>,
    /// k: n → a + b + c = n - k, all >= 1.
    pub(crate) three: Vec<usize>,
}

impl Splits {
    pub(crate) fn of_code(c: &TakeBreak) -> Splits {
        let mut s = Splits::default();
        for (k, &d) in c.digits().iter().enumerate() {
            if d & 1 != 0 {
                s.whole.push(k);
            }
            if d & 2 != 0 {
                s.one.push(k);
            }
            if d & 4 != 0 {
                s.two.push((k, false));
            }
            if d & 8 != 0 {
                s.three.push(k);
            }
        }
        s
    }

    pub(crate) fn grundy() -> Splits {
        Splits {
            two: vec![(0, true)],
            ..Splits::default()
        }
    }

    /// Marks every two-heap option of heap `h`: G(a) ⊕ G(m-a) for m = h - k, 1 <= a <= m/2.
    #[inline]
    pub(crate) fn mark_pairs<T: Cell>(&self, h: usize, vals: &[T], marks: &mut Marks) {
        for &(k, unequal) in &self.two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            let top = if unequal { (m - 1) / 2 } else { m / 2 };
            for a in 1..=top {
                marks.set(vals[a].get() ^ vals[m - a].get());
            }
        }
    }

    /// Marks the options of heap `h` that leave at most one heap.
    #[inline(always)]
    pub(crate) fn mark_small<T: Cell>(&self, h: usize, vals: &[T], marks: &mut Marks) {
        for &k in &self.whole {
            if k == h {
                marks.set(0);
            }
        }
        for &k in &self.one {
            if k < h {
                marks.set(vals[h - k].get());
            }
        }
    }
}

/// The largest pair table the naive engine builds for three-heap moves.
pub const MAX_PAIR_TABLE_BYTES: usize = 4 << 30;

/// Word operations between two looks at the control in the take-and-break engine: about a
/// millisecond of work, so that a cancelled token or a passed deadline stops it within
/// milliseconds however long each value takes (G(n) costs `n/2` pairs, and `n·B/64` words with
/// three heaps), while the look (an atomic load, and a clock read when there is a deadline)
/// stays a vanishing part of the work.
pub(crate) const WORK_PER_CHECK: usize = 1 << 21;

/// Take-and-break (and Grundy's game) by scanning all splits, with a pair table for three heaps.
///
/// The control is looked at every [`PROGRESS_EVERY`] values and whenever [`WORK_PER_CHECK`]
/// word operations have been done since the last look (see there).
fn take_break<T: Cell>(
    sp: &Splits,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    let mut marks = Marks::default();
    let mut max = values.iter().map(|v| v.get()).max().unwrap_or(0);
    let mut pairs = PairTable::new(ctl)?;
    let mut work = 0usize;
    while values.len() < n {
        let h = values.len();
        let b = bound(max);
        marks.reset(2 * b);
        sp.mark_small(h, values, &mut marks);
        sp.mark_pairs(h, values, &mut marks);
        work += (sp.two.len() * h / 2).max(1);
        if !sp.three.is_empty() && h >= 3 {
            pairs.update(values, h, b, ctl)?;
            for &k in &sp.three {
                if h < k + 3 {
                    continue;
                }
                let m = h - k;
                for (i, g) in values[1..m - 1].iter().enumerate() {
                    pairs.mark_shifted(m - 1 - i, g.get(), &mut marks);
                }
                work += m * (b / 64 + 1);
            }
        }
        let g = marks.mex();
        max = max.max(g);
        if let Some(r) = push(values, g) {
            return Ok(r);
        }
        if work >= WORK_PER_CHECK || h.is_multiple_of(PROGRESS_EVERY) {
            work = 0;
            ctl.check(h as u64)?;
        }
    }
    Ok(Fill::Done)
}

/// P(s) = { G(b) ⊕ G(s-b) : 1 <= b <= s/2 } as bitsets of `bits` bits, for s < len, with its
/// bytes held from the memory budget before it grows.
struct PairTable {
    bits: usize,
    sets: Vec<u64>,
    len: usize,
    held: crate::control::Reservation,
}

/// What the pair table is called in memory limit errors.
const PAIR_TABLE: &str = "the three-heap pair table";

impl PairTable {
    fn new(ctl: &Control) -> Result<PairTable> {
        Ok(PairTable {
            bits: 0,
            sets: Vec::new(),
            len: 0,
            held: ctl.reserve(0, PAIR_TABLE)?,
        })
    }

    /// Makes P(s) available for every s < h (needs G below h) with room for values below `b`.
    /// The table's growth (to at least twice its length, `8·b/64` bytes a row) is reserved from
    /// the budget of `ctl` first, and a rebuild (when the value bound grows: `h²/4` pairs)
    /// looks at `ctl` every [`WORK_PER_CHECK`] pairs.
    fn update<T: Cell>(&mut self, values: &[T], h: usize, b: usize, ctl: &Control) -> Result<()> {
        if b != self.bits {
            self.bits = b;
            self.sets = Vec::new();
            self.len = 0;
        }
        let w = b / 64;
        if h.saturating_mul(w).saturating_mul(8) > MAX_PAIR_TABLE_BYTES {
            return Err(Error::limit(
                crate::LimitKind::Memory,
                format!(
                    "the three-heap pair table for {h} values below {b} needs more than \
                     {} GiB",
                    MAX_PAIR_TABLE_BYTES >> 30
                ),
                "ask for fewer values",
            ));
        }
        if h * w > self.sets.capacity() {
            let rows = h.max(2 * self.len).max(64);
            let bytes = (rows * w * 8) as u64;
            if bytes > self.held.bytes() {
                self.held.resize(bytes, PAIR_TABLE)?;
            }
            self.sets.reserve_exact(rows * w - self.sets.len());
        }
        let mut work = 0usize;
        while self.len < h {
            let s = self.len;
            let start = self.sets.len();
            self.sets.resize(start + w, 0);
            work += s / 2 + w;
            if work >= WORK_PER_CHECK {
                work = 0;
                ctl.stop_check()?;
            }
            for a in 1..=s / 2 {
                let v = values[a].get() ^ values[s - a].get();
                self.sets[start + (v >> 6) as usize] |= 1 << (v & 63);
            }
            self.len += 1;
        }
        Ok(())
    }

    /// Marks { c ⊕ v : v ∈ P(s) }.
    #[inline]
    fn mark_shifted(&self, s: usize, c: u32, marks: &mut Marks) {
        let w = self.bits / 64;
        let set = &self.sets[s * w..(s + 1) * w];
        let hi = (c >> 6) as usize;
        let lo = c & 63;
        for (i, &x) in set.iter().enumerate() {
            if x != 0 {
                marks.words[i ^ hi] |= xor_permute(x, lo);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::{sequence, HeapGame};
    use crate::notation::game::parse_game;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The window's mex against a count per value and a linear search for the first
        /// missing one, through growth (values up to 2^14, so three levels) and removals.
        #[test]
        fn window_mex_matches_counting(ops in prop::collection::vec((any::<bool>(), 0u32..(1 << 14)), 0..200),
                                       dense in 0u32..9000) {
            let mut w = WindowCounts::default();
            let mut counts = vec![0u32; 1 << 14];
            let mex = |counts: &[u32]| counts.iter().position(|&c| c == 0).unwrap_or(counts.len()) as u32;
            // A dense run 0..dense first, so that the mex is far from 0 and whole words fill.
            for v in 0..dense {
                w.add(v);
                counts[v as usize] += 1;
            }
            prop_assert_eq!(w.mex(), mex(&counts));
            for (add, v) in ops {
                if add || counts[v as usize] == 0 {
                    w.add(v);
                    counts[v as usize] += 1;
                } else {
                    w.remove(v);
                    counts[v as usize] -= 1;
                }
                prop_assert_eq!(w.mex(), mex(&counts));
            }
        }
    }

    /// `sub:1-1000000000` to 4·10^7 values, the size at which the mex once scanned a summary
    /// from 0 each heap (quadratic): every value below the largest move is the heap itself.
    #[test]
    fn long_subtraction_window_of_distinct_values() {
        let game = HeapGame::from_spec(parse_game("sub:1-1000000000").unwrap()).unwrap();
        let n = 40_000_000;
        let seq = sequence::compute(&game, n, &Control::none()).unwrap();
        assert_eq!(seq.len(), n as usize);
        assert!(seq.iter().enumerate().all(|(i, g)| g as usize == i));
    }

    #[test]
    fn xor_permute_moves_bit_j_to_j_xor_s() {
        for s in 0..64 {
            for j in 0..64 {
                assert_eq!(xor_permute(1u64 << j, s), 1u64 << (j ^ s));
            }
        }
    }

    /// A three-heap code looks at its control by work, not only every `PROGRESS_EVERY`
    /// values: cancelled from its progress callback once 1500 values are done, it stops long
    /// before the next multiple of 16384; its pair table is charged to the budget (a budget
    /// without room for it refuses with the memory limit) and given back.
    #[test]
    fn three_heap_codes_stop_by_work_and_charge_their_pair_table() {
        let rule = "octal:0.FFF".parse::<HeapGame>().unwrap();
        let token = crate::control::CancelToken::new();
        let stop = token.clone();
        let report = move |done: u64| {
            if done >= 1500 {
                stop.cancel();
            }
        };
        let ctl = Control::none().with_token(token).with_progress(&report);
        let mut v: Vec<u32> = Vec::new();
        assert!(matches!(extend(&rule, &mut v, 16_000, &ctl), Err(Error::Cancelled(_))));
        assert!(v.len() >= 1500 && v.len() < 4000, "stopped at {}", v.len());

        let budget = crate::control::MemoryBudget::new(4 << 10);
        let ctl = Control::none().with_memory(budget.clone());
        let r = extend(&rule, &mut Vec::<u32>::new(), 3000, &ctl);
        assert!(
            matches!(&r, Err(Error::Limit(l)) if l.kind == crate::LimitKind::Memory),
            "{r:?}"
        );
        let budget = crate::control::MemoryBudget::new(64 << 20);
        let ctl = Control::none().with_memory(budget.clone());
        let mut got: Vec<u32> = Vec::new();
        extend(&rule, &mut got, 3000, &ctl).unwrap();
        let mut want: Vec<u32> = Vec::new();
        extend(&rule, &mut want, 3000, &Control::none()).unwrap();
        assert_eq!(got, want);
        assert_eq!(budget.used(), 0);
    }
}
