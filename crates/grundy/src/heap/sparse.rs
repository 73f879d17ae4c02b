//! The sparse-space ("rare values") engine for games whose moves leave at most two heaps:
//! take-and-break codes without bit 8, and Grundy's game.
//!
//! **Classes.** Fix a mask m ≠ 0 and call a value v *rare* when popcount(v & m) is even,
//! *common* when it is odd. The parity of popcount(v & m) is linear over xor, so
//! rare ⊕ rare and common ⊕ common are rare, while rare ⊕ common is common. In many octal games
//! (Gangolli-Plambeck; Flammenkamp's tables) some mask makes the rare class hold only finitely
//! many positions; then:
//!
//! **Common options.** A common option value of heap n comes from a single heap, or from a
//! split a + b whose parts are one rare and one common. Listing the positions r with G(r) rare
//! (the *rare positions*) and marking G(r) ⊕ G(n-k-r) for each of them gives every common option
//! value in about (number of rare positions) steps. Let c be the least common value not marked.
//!
//! **Rare options (verification).** G(n) = c exactly when every rare value below c is an option
//! value. Rare option values from pairs containing a rare part are already marked; the others
//! come from common ⊕ common pairs, so the engine scans all splits a + b, stopping as soon as
//! every missing rare value below c has been seen. If some remain unseen, G(n) is the least of
//! them (a new rare position). The answer is the exact mex whatever the mask; the mask only
//! decides the speed.
//!
//! **Choosing the mask.** With h(v) the histogram of the values so far, the Walsh-Hadamard
//! transform W(m) = Σ_v h(v)·(-1)^popcount(v & m) equals (#rare − #common) under mask m; the
//! engine picks the m ≠ 0 minimising W(m). It re-chooses whenever n doubles or the values
//! outgrow the current bound, and rebuilds the rare-position list (O(n), so O(1) amortised).

use crate::error::Result;
use crate::heap::naive::{bound, Marks, Splits};
use crate::heap::rule::Rule;
use crate::heap::sequence::{push, Cell, Progress, Run, PROGRESS_EVERY};
use rayon::prelude::*;

/// Whether the sparse engine handles `rule` (moves leave at most two heaps).
pub fn handles(rule: &Rule) -> bool {
    match rule {
        Rule::TakeBreak(c) => c.max_heaps() <= 2,
        Rule::GrundysGame => true,
        _ => false,
    }
}

/// Fast Walsh-Hadamard transform in place: a[m] ← Σ_v a[v]·(-1)^popcount(v & m). Each
/// butterfly (x, y) → (x + y, x − y) handles one bit of m; after all bits the sum holds.
pub fn walsh_hadamard(a: &mut [i64]) {
    let n = a.len();
    let mut h = 1;
    while h < n {
        for i in (0..n).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// The mask m ≠ 0 below `b` (a power of two) that makes the fewest values rare, from the
/// histogram `hist` (indexed by value), by the Walsh-Hadamard transform.
pub fn choose_mask(hist: &[u64], b: usize) -> u32 {
    let mut a: Vec<i64> = (0..b)
        .map(|v| hist.get(v).copied().unwrap_or(0) as i64)
        .collect();
    walsh_hadamard(&mut a);
    (1..b).min_by_key(|&m| (a[m], m)).unwrap_or(1) as u32
}

#[inline(always)]
fn is_rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

/// The engine's state between heaps.
#[derive(Clone)]
struct State {
    mask: u32,
    /// The current value bound B (power of two, values < B).
    b: usize,
    hist: Vec<u64>,
    /// Positions r >= 1 with G(r) rare, ascending, with their values G(r).
    rare: Vec<(u32, u32)>,
    /// Bit v set iff v < 2B is common.
    common: Vec<u64>,
    /// Bit v set iff v < 2B is rare.
    rare_bits: Vec<u64>,
    /// Next heap count at which the mask is re-chosen.
    next_review: usize,
}

impl State {
    fn new<T: Cell>(values: &[T]) -> State {
        let max = values.iter().map(|v| v.get()).max().unwrap_or(0);
        let b = bound(max);
        let mut hist = vec![0u64; b];
        values.iter().for_each(|v| hist[v.get() as usize] += 1);
        let mut s = State {
            mask: 0,
            b,
            hist,
            rare: Vec::new(),
            common: Vec::new(),
            rare_bits: Vec::new(),
            next_review: (values.len() * 2).max(64),
        };
        s.review(values);
        s
    }

    /// Re-chooses the mask from the histogram; rebuilds the class bitsets and the rare list.
    fn review<T: Cell>(&mut self, values: &[T]) {
        let mask = choose_mask(&self.hist, self.b);
        let words = 2 * self.b / 64;
        self.common = vec![0; words];
        self.rare_bits = vec![0; words];
        for v in 0..(2 * self.b) as u32 {
            let (w, bit) = ((v >> 6) as usize, 1u64 << (v & 63));
            if is_rare(v, mask) {
                self.rare_bits[w] |= bit;
            } else {
                self.common[w] |= bit;
            }
        }
        self.mask = mask;
        self.rare = (1..values.len())
            .filter(|&r| is_rare(values[r].get(), mask))
            .map(|r| (r as u32, values[r].get()))
            .collect();
    }

    /// Records G(h) = g.
    fn record<T: Cell>(&mut self, values: &[T], h: usize, g: u32) {
        if g as usize >= self.b {
            self.b = bound(g);
            self.hist.resize(self.b, 0);
            self.hist[g as usize] += 1;
            self.review(values);
            return;
        }
        self.hist[g as usize] += 1;
        if h >= 1 && is_rare(g, self.mask) {
            self.rare.push((h as u32, g));
        }
        if h + 1 >= self.next_review {
            self.next_review = 2 * (h + 1);
            self.review(values);
        }
    }
}

/// Heaps computed one by one, exactly, before speculation starts.
const SPECULATE_FROM: usize = 1 << 15;
/// Heaps per speculative block.
const BLOCK: usize = 1 << 13;

/// Extends `values` to G(0..n) for a rule that [`handles`] accepts.
///
/// **Speculation on both cores.** Once rare values have become rare, G(n) is almost always the
/// candidate c of the rare pass. Beyond [`SPECULATE_FROM`] heaps the engine therefore proposes
/// a block of heaps with G(n) = c (the cheap rare pass only), and verifies the rare values below
/// each c of that block in parallel (every heap of the block is independent given the values)
/// *while* the next block is proposed. The first heap whose verification fails is recomputed
/// exactly and everything after it is dropped, so the result is exactly the sequential one.
pub fn extend<T: Cell>(
    rule: &Rule,
    values: &mut Vec<T>,
    n: usize,
    progress: Progress,
) -> Result<Run> {
    let sp = match rule {
        Rule::TakeBreak(c) if c.max_heaps() <= 2 => Splits::of_code(c),
        Rule::GrundysGame => Splits::grundy(),
        _ => return crate::heap::naive::extend(rule, values, n, progress),
    };
    if values
        .try_reserve_exact(n.saturating_sub(values.len()))
        .is_err()
    {
        return Err(crate::error::Error::limit(
            format!("not enough memory for {n} values"),
            "ask for fewer values (-n)",
        ));
    }
    let mut st = State::new(values);
    let mut marks = Marks::default();
    let mut need = Marks::default();
    let mut seen: Vec<u64> = Vec::new();
    let mut exact_until = SPECULATE_FROM;
    let mut pending: Option<Block> = None;
    while values.len() < n || pending.is_some() {
        if let Some(p) = pending.take() {
            let base = Shared(values.as_mut_ptr());
            let start = p.start + p.len;
            let (fail, next) = if start < n && !p.overflow {
                let end = (start + BLOCK).min(n);
                rayon::join(
                    || verify(base, &p, &sp),
                    || {
                        Some(propose(
                            &sp, &mut st, base, start, end, &mut marks, &mut need,
                        ))
                    },
                )
            } else {
                (verify(base, &p, &sp), None)
            };
            let good = fail.unwrap_or(p.len);
            // SAFETY: capacity >= n was reserved above, and `propose` initialised every heap
            // below p.start + p.len (the values up to p.start were already in the vector).
            unsafe { values.set_len(p.start + good) };
            if fail.is_some() || p.overflow {
                // A rare heap (or a value too wide for the cells): redo it exactly.
                st = State::new(values);
                exact_until = values.len() + BLOCK;
            } else {
                pending = next.filter(|b| b.len > 0 || b.overflow);
            }
            progress(values.len() as u64);
            continue;
        }
        let h0 = values.len();
        if st.rare.len() * 4 > h0 {
            // No sparse space (yet): a quarter or more of the positions are rare, so the rare
            // pass would cost as much as scanning every split. Take the naive step.
            marks.reset(2 * st.b);
            sp.mark_small(h0, values, &mut marks);
            sp.mark_pairs(h0, values, &mut marks);
            let g = marks.mex();
            if let Some(r) = push(values, g) {
                return Ok(r);
            }
            st.record(values, h0, g);
            if h0.is_multiple_of(PROGRESS_EVERY) {
                progress(h0 as u64);
            }
            continue;
        }
        if h0 < exact_until || n - h0 < BLOCK / 4 {
            let (c, mut missing) = st.rare_pass(&sp, values, h0, &mut marks, &mut need);
            if missing > 0 {
                missing = scan_pairs(values, h0, &sp.two, &mut need.words, &mut seen);
            }
            let g = if missing > 0 { c.min(need.least()) } else { c };
            if let Some(r) = push(values, g) {
                return Ok(r);
            }
            st.record(values, h0, g);
            if h0.is_multiple_of(PROGRESS_EVERY) {
                progress(h0 as u64);
            }
            continue;
        }
        let base = Shared(values.as_mut_ptr());
        let end = (h0 + BLOCK).min(n);
        pending = Some(propose(&sp, &mut st, base, h0, end, &mut marks, &mut need));
    }
    Ok(Run::Done)
}

/// A block of heaps whose values were proposed by the rare pass and await verification.
struct Block {
    /// First heap of the block.
    start: usize,
    /// Heaps proposed.
    len: usize,
    /// Words per heap in `needs`.
    stride: usize,
    /// For each heap, the rare values below its candidate not seen by the rare pass.
    needs: Vec<u64>,
    /// For each heap, how many such values.
    missing: Vec<u32>,
    /// The proposal stopped at a value too wide for the cells.
    overflow: bool,
}

/// The vector's buffer, shared by the thread that proposes a block (writing only beyond the
/// pending block) and the threads that verify the pending block (reading only below its end).
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);
// SAFETY: the threads touch disjoint ranges as described above, and only read what another
// thread wrote after `rayon::join` has ordered the two.
unsafe impl<T: Send> Send for Shared<T> {}
unsafe impl<T: Sync> Sync for Shared<T> {}

/// Proposes G(h) = c for h in start..end (stopping early when the value bound grows or a value
/// does not fit the cells), writing the values at `base + h`.
fn propose<T: Cell>(
    sp: &Splits,
    st: &mut State,
    base: Shared<T>,
    start: usize,
    end: usize,
    marks: &mut Marks,
    need: &mut Marks,
) -> Block {
    let b0 = st.b;
    let stride = 2 * b0 / 64;
    let mut block = Block {
        start,
        len: 0,
        stride,
        needs: Vec::with_capacity((end - start) * stride),
        missing: Vec::with_capacity(end - start),
        overflow: false,
    };
    for h in start..end {
        // SAFETY: heaps below h are initialised (verified values, the pending block, or this
        // block so far) and nothing writes them while this slice lives.
        let vals = unsafe { std::slice::from_raw_parts(base.0, h) };
        let (c, missing) = st.rare_pass(sp, vals, h, marks, need);
        if c > T::MAX {
            block.overflow = true;
            break;
        }
        // SAFETY: h < end <= n <= capacity, and no other thread reads or writes heap h now.
        unsafe { base.0.add(h).write(T::from_u32(c)) };
        block.needs.extend_from_slice(&need.words[..stride]);
        block.missing.push(missing);
        block.len += 1;
        // SAFETY: as above, now including heap h.
        let vals = unsafe { std::slice::from_raw_parts(base.0, h + 1) };
        st.record(vals, h, c);
        if st.b != b0 {
            break;
        }
    }
    block
}

/// The index (in the block) of the first heap whose rare values below its candidate are not all
/// options, or `None` if the whole block is right; heaps are checked in parallel.
fn verify<T: Cell>(base: Shared<T>, p: &Block, sp: &Splits) -> Option<usize> {
    // SAFETY: every heap below p.start + p.len is initialised, and only read while this lives.
    let done = unsafe { std::slice::from_raw_parts(base.0 as *const T, p.start + p.len) };
    (0..p.len)
        .into_par_iter()
        .with_min_len(64)
        .map_init(Vec::new, |seen, i| {
            if p.missing[i] == 0 {
                return false;
            }
            let mut nd = p.needs[i * p.stride..(i + 1) * p.stride].to_vec();
            scan_pairs(done, p.start + i, &sp.two, &mut nd, seen) > 0
        })
        .position_first(|f| f)
}

impl State {
    /// The rare pass for heap `h`: marks the single-heap options and every split with a rare
    /// part; returns the least unmarked common value c and the number of rare values below c
    /// left unmarked, which it writes into `need`.
    fn rare_pass<T: Cell>(
        &self,
        sp: &Splits,
        values: &[T],
        h: usize,
        marks: &mut Marks,
        need: &mut Marks,
    ) -> (u32, u32) {
        let b = self.b;
        marks.reset(2 * b);
        sp.mark_small(h, values, marks);
        for &(k, unequal) in &sp.two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            for &(r, g) in &self.rare {
                let r = r as usize;
                if r >= m {
                    break;
                }
                if !(unequal && 2 * r == m) {
                    marks.set(g ^ values[m - r].get());
                }
            }
        }
        // c: the least common value not marked (below 2B, since marks stay below B).
        let mut c = (2 * b) as u32;
        for (i, (&cw, &mw)) in self.common.iter().zip(&marks.words).enumerate() {
            let free = cw & !mw;
            if free != 0 {
                c = (i as u32) * 64 + free.trailing_zeros();
                break;
            }
        }
        // The rare values below c not yet seen.
        need.reset(2 * b);
        let mut missing = 0u32;
        let top = (c as usize).div_ceil(64);
        for i in 0..top {
            let mut w = self.rare_bits[i] & !marks.words[i];
            if (i + 1) * 64 > c as usize {
                w &= (1u64 << (c & 63)) - 1;
            }
            need.words[i] = w;
            missing += w.count_ones();
        }
        (c, missing)
    }
}

/// Removes from `need` (the rare values still missing, below 64·need.len()) every two-heap
/// option value of heap `h`: G(a) ⊕ G(m-a), m = h - k, 1 <= a <= m/2 (a ≠ m-a if unequal),
/// for every split `(k, unequal)`, stopping early once none is missing; returns how many
/// remain. All splits advance together in blocks of 64 values of a, marked into `seen` without
/// branches, and `need` is checked once per block.
fn scan_pairs<T: Cell>(
    values: &[T],
    h: usize,
    two: &[(usize, bool)],
    need: &mut [u64],
    seen: &mut Vec<u64>,
) -> u32 {
    seen.clear();
    seen.resize(need.len().max(1) * 2, 0);
    let words = seen.len();
    let top_of = |k: usize, unequal: bool| match h.checked_sub(k) {
        Some(m) if m >= 2 => (m, if unequal { (m - 1) / 2 } else { m / 2 }),
        _ => (0, 0),
    };
    let last = two.iter().map(|&(k, u)| top_of(k, u).1).max().unwrap_or(0);
    let mut a = 1;
    while a <= last {
        let end = (a + 64).min(last + 1);
        for &(k, unequal) in two {
            let (m, top) = top_of(k, unequal);
            for i in a..end.min(top + 1) {
                let v = (values[i].get() ^ values[m - i].get()) as usize;
                // Values above the needed range land in the spare half and are ignored.
                seen[(v >> 6).min(words - 1)] |= 1u64 << (v & 63);
            }
        }
        a = end;
        if need.iter().zip(seen.iter()).all(|(n, s)| n & !s == 0) {
            need.iter_mut().for_each(|n| *n = 0);
            return 0;
        }
    }
    let mut missing = 0;
    for (n, s) in need.iter_mut().zip(seen.iter()) {
        *n &= !s;
        missing += n.count_ones();
    }
    missing
}

impl Marks {
    /// The least value in the set (the set must not be empty).
    fn least(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != 0 {
                return (i as u32) * 64 + w.trailing_zeros();
            }
        }
        u32::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_counts_rare_minus_common() {
        let hist = [3u64, 1, 4, 1, 5, 9, 2, 6];
        let mut a: Vec<i64> = hist.iter().map(|&x| x as i64).collect();
        walsh_hadamard(&mut a);
        for m in 0..8u32 {
            let direct: i64 = (0..8u32)
                .map(|v| {
                    let s = if is_rare(v, m) { 1 } else { -1 };
                    s * hist[v as usize] as i64
                })
                .sum();
            assert_eq!(a[m as usize], direct);
        }
    }
}
