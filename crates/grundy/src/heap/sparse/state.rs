//! The engine's state between heaps (the mask, the class lists, the rare positions) and the rare
//! pass, which marks every option value with a rare part and proposes the candidate.

use super::block::RUN;
use super::classes::{choose_mask, is_rare, Parity};
use super::pairs::Scratch;
use crate::control::{Control, Reservation};
use crate::error::Result;
use crate::heap::naive::{bound, Splits};
use crate::heap::sequence::Cell;

/// The engine's state between heaps.
///
/// **The parity bit.** With splits n → a + b removing k tokens, a + b = n - k. Give position n
/// the class bit f(n) = popcount(G(n) & mask) + p·((n + s) mod 2) (rare when even), where s
/// is k mod 2 (the same for every split, or p is 0). For a split value v = G(a) ⊕ G(b),
/// popcount(v & mask) + p·(n + s) ≡ f(a) + f(b) + p·(n + s − a − b − 2s) ≡ f(a) + f(b) +
/// p·(k − s) ≡ f(a) + f(b): a value v *would* be common at heap n (odd class taking n's parity)
/// exactly when it comes from one rare and one common part, as without the parity bit. So
/// everything below holds with "rare value at heap n" meaning even class at n's parity; the
/// class lists are kept for both parities.
pub(super) struct State {
    /// The value bits of the class mask.
    pub(super) mask: u32,
    /// 1 when the heap's parity is part of the class, else 0.
    pub(super) parity: usize,
    /// s: the parity of the tokens removed by every two-heap split.
    pub(super) shift: usize,
    /// Which masks may be chosen.
    pub(super) allow: Parity,
    /// The current value bound B (power of two, values < B).
    pub(super) b: usize,
    /// Entry v + B·((n + s) mod 2): how many positions n have G(n) = v.
    pub(super) hist: Vec<u64>,
    /// Positions r >= 1 with G(r) rare, ascending.
    pub(super) rare_pos: Vec<u32>,
    /// G(r) for each position of `rare_pos`.
    pub(super) rare_val: Vec<u32>,
    /// For heaps n with p·((n + s) mod 2) = q: the rare values below 2B as words, bit i of
    /// word w for value 64·w + i (the values from 2B up to the word's end are neither rare
    /// nor common: see [`State::candidate`]).
    pub(super) rare_words: [Vec<u64>; 2],
    /// Next heap count at which the mask is re-chosen.
    pub(super) next_review: usize,
    /// How many times the rare list was rebuilt (indices into it are stale after).
    pub(super) reviews: u64,
    /// The bytes of the working tables ([`table_bytes`]) and of the rare list, held from the
    /// memory budget before they grow.
    pub(super) held: Reservation,
}

/// What the engine's working tables are called in memory limit errors.
pub(super) const TABLES: &str = "the sparse engine's working tables";

/// The bytes of the working tables that grow with the value bound `b` (a power of two, values
/// below `b`, xors below `2b`): the histogram (`2b` counts of 8 bytes), the class lists (`2b`
/// values of 4 bytes for each parity), the run's mark tables ([`RUN`] heaps of `2b` bytes), the
/// naive step's marks (`2b` bytes), and one verification scratch per thread (`2b` one-byte
/// stamps, at least 64; counted for two threads). About `92·b` bytes.
pub(super) fn table_bytes(b: usize) -> u64 {
    let b2 = 2 * b as u64;
    b2 * 8 + 2 * b2 * 4 + RUN as u64 * b2 + b2 + 2 * b2.max(64)
}

impl State {
    pub(super) fn new<T: Cell>(
        values: &[T],
        sp: &Splits,
        allow: Parity,
        ctl: &Control,
    ) -> Result<State> {
        let max = values.iter().map(|v| v.get()).max().unwrap_or(0);
        let b = bound(max);
        let held = ctl.reserve(table_bytes(b), TABLES)?;
        let shift = sp.two.first().map_or(0, |&(k, _)| k % 2);
        // The parity bit needs one parity of k for every split.
        let allow = if sp.two.iter().all(|&(k, _)| k % 2 == shift) {
            allow
        } else {
            Parity::Off
        };
        let mut s = State {
            mask: 0,
            parity: 0,
            shift,
            allow,
            b,
            hist: vec![0u64; 2 * b],
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            rare_words: Default::default(),
            next_review: (values.len() * 2).max(64),
            reviews: 0,
            held,
        };
        for (n, v) in values.iter().enumerate() {
            s.hist[v.get() as usize + b * ((n + shift) % 2)] += 1;
        }
        s.review(values)?;
        Ok(s)
    }

    /// Holds the bytes of the tables for the bound `b` and of a rare list of `cap` entries.
    pub(super) fn charge(&mut self, b: usize, cap: usize) -> Result<()> {
        let rare = 4 * (cap as u64).saturating_mul(2);
        self.held
            .resize(table_bytes(b).saturating_add(rare), TABLES)
    }

    /// Appends the rare position r of value v, reserving the list's growth first.
    pub(super) fn push_rare(&mut self, r: usize, v: u32) -> Result<()> {
        let len = self.rare_pos.len();
        if len == self.rare_pos.capacity() || len == self.rare_val.capacity() {
            let cap = (2 * len).max(1024);
            self.charge(self.b, cap)?;
            self.rare_pos.reserve_exact(cap - len);
            self.rare_val.reserve_exact(cap - len);
        }
        self.rare_pos.push(r as u32);
        self.rare_val.push(v);
        Ok(())
    }

    /// Which class lists apply to heap n.
    #[inline(always)]
    pub(super) fn q(&self, n: usize) -> usize {
        self.parity & (n + self.shift)
    }

    /// Whether position n with value v is rare.
    #[inline(always)]
    pub(super) fn rare_at(&self, n: usize, v: u32) -> bool {
        is_rare(v, self.mask) != (self.q(n) == 1)
    }

    /// Re-chooses the mask from the histogram; rebuilds the class lists and the rare list.
    pub(super) fn review<T: Cell>(&mut self, values: &[T]) -> Result<()> {
        self.reviews += 1;
        let m = choose_mask(&self.hist, self.b, self.allow) as usize;
        self.mask = (m % self.b) as u32;
        self.parity = m / self.b;
        for q in 0..2 {
            let words = &mut self.rare_words[q];
            words.clear();
            words.resize((2 * self.b).div_ceil(64), 0);
            for v in 0..(2 * self.b) as u32 {
                if is_rare(v, self.mask) != (q == 1) {
                    words[v as usize / 64] |= 1 << (v % 64);
                }
            }
        }
        self.rare_pos.clear();
        self.rare_val.clear();
        for (r, v) in values.iter().enumerate().skip(1) {
            if self.rare_at(r, v.get()) {
                self.push_rare(r, v.get())?;
            }
        }
        Ok(())
    }

    /// Records G(h) = g; the memory limit error when the tables for a larger value bound, or
    /// a longer rare list, do not fit the budget.
    pub(super) fn record<T: Cell>(&mut self, values: &[T], h: usize, g: u32) -> Result<()> {
        let q = (h + self.shift) % 2;
        if g as usize >= self.b {
            let b = bound(g);
            self.charge(b, self.rare_pos.capacity())?;
            let old = std::mem::take(&mut self.hist);
            self.hist = vec![0; 2 * b];
            for (i, &c) in old.iter().enumerate() {
                self.hist[i % self.b + b * (i / self.b)] = c;
            }
            self.b = b;
            self.hist[g as usize + b * q] += 1;
            return self.review(values);
        }
        self.hist[g as usize + self.b * q] += 1;
        if h >= 1 && self.rare_at(h, g) {
            self.push_rare(h, g)?;
        }
        if h + 1 >= self.next_review {
            self.next_review = 2 * (h + 1);
            self.review(values)?;
        }
        Ok(())
    }
}

impl State {
    /// The rare pass for heap `h`: marks the single-heap options and every split with a rare
    /// part; returns the least unmarked common value c, and leaves in `want` the rare values
    /// below c not marked (ascending).
    pub(super) fn rare_pass<T: Cell>(
        &self,
        sp: &Splits,
        values: &[T],
        h: usize,
        marks: &mut Scratch,
        want: &mut Vec<u32>,
    ) -> u32 {
        marks.next(2 * self.b);
        for &k in &sp.whole {
            if k == h {
                marks.mark(0);
            }
        }
        for &k in &sp.one {
            if k < h {
                marks.mark(values[h - k].get());
            }
        }
        for &(k, unequal) in &sp.two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            // Rare positions r < m, each giving the split r + (m - r); with unequal parts
            // (Grundy's game) r = m/2 is not a move.
            let below = self.rare_pos.partition_point(|&r| (r as usize) < m);
            let skip = if unequal && m.is_multiple_of(2) {
                self.rare_pos[..below].binary_search(&((m / 2) as u32)).ok()
            } else {
                None
            };
            let (pos, val) = (&self.rare_pos[..below], &self.rare_val[..below]);
            let mut mark_range = |lo: usize, hi: usize| {
                for (&r, &g) in pos[lo..hi].iter().zip(&val[lo..hi]) {
                    marks.mark(g ^ values[m - r as usize].get());
                }
            };
            match skip {
                Some(i) => {
                    mark_range(0, i);
                    mark_range(i + 1, below);
                }
                None => mark_range(0, below),
            }
        }
        self.candidate(h, |w| marks.marked_word(w), want)
    }

    /// The least common value c not marked (below 2B; 2B if every common value below it is
    /// marked) and, in `want`, the rare values below c not marked, ascending. `marked(w)` gives
    /// the marks of values 64·w to 64·w + 63 as a word (bit i for value 64·w + i).
    ///
    /// Word by word: with `seen` the marks and `rare` the rare values of a word, the unmarked
    /// common values are `!seen & !rare` within 2B, and c is the lowest of the first word that
    /// has one; every unmarked rare value (`!seen & rare`) of the words before, and of c's word
    /// below c, is wanted.
    pub(super) fn candidate(
        &self,
        h: usize,
        marked: impl Fn(usize) -> u64,
        want: &mut Vec<u32>,
    ) -> u32 {
        let end = 2 * self.b;
        want.clear();
        for (w, &rare) in self.rare_words[self.q(h)].iter().enumerate() {
            let inside = if end >= 64 * (w + 1) {
                u64::MAX
            } else {
                (1u64 << (end - 64 * w)) - 1
            };
            let free = !marked(w) & inside;
            let (common, mut wanted) = (free & !rare, free & rare);
            let c = (common != 0).then(|| common.trailing_zeros());
            if let Some(i) = c {
                wanted &= (1u64 << i) - 1;
            }
            while wanted != 0 {
                want.push((64 * w) as u32 + wanted.trailing_zeros());
                wanted &= wanted - 1;
            }
            if let Some(i) = c {
                return (64 * w) as u32 + i;
            }
        }
        end as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The word-by-word candidate is its definition, value by value: the least common value
        /// below 2B not marked (2B if there is none) and the rare values below it not marked,
        /// ascending; for value bounds from 1 to 2^10 (tables narrower and wider than a word),
        /// the masks the histogram chooses with and without the parity bit, both parities of
        /// the heap, and marks of every density.
        #[test]
        fn candidate_is_its_definition(
            values in proptest::collection::vec(0u32..1000, 1..300),
            top in 0u32..10,
            seed in any::<u64>(),
            density in 0u64..=16,
            h in 0usize..4,
            parity in any::<bool>(),
        ) {
            let values: Vec<u32> = values.into_iter().map(|v| v % (2 << top)).collect();
            let allow = if parity { Parity::On } else { Parity::Off };
            let st = State::new(&values, &Splits::grundy(), allow, &Control::none()).unwrap();
            let end = 2 * st.b as u32;
            let mut marks = Scratch::default();
            marks.next(end as usize);
            let mut x = seed | 1;
            for v in 0..end {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 16 < density {
                    marks.mark(v);
                }
            }
            let c = (0..end)
                .find(|&v| !st.rare_at(h, v) && !marks.has(v))
                .unwrap_or(end);
            let wanted: Vec<u32> = (0..c).filter(|&v| st.rare_at(h, v) && !marks.has(v)).collect();
            let mut want = vec![7];
            prop_assert_eq!(st.candidate(h, |w| marks.marked_word(w), &mut want), c);
            prop_assert_eq!(want, wanted);
        }
    }
}
