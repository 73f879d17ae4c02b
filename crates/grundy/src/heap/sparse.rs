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
//! The transform may also run over the value bits plus one bit for the heap's parity, so that
//! games whose rare values follow the parity of n get a small rare set (the state's documentation
//! derives why the classes still combine as above; see [`Parity`]).
//!
//! **Costs.** The rare passes of 32 heaps are done together (transposed, see `propose`); the
//! verification marks pairs while many rare values are wanted and compares each pair's xor
//! with the last few, lane-parallel (see `scan_pairs`).

use crate::control::{Control, Reservation};
use crate::error::Result;
use crate::heap::naive::{bound, Marks, Splits};
use crate::game::spec::GameSpec;
use crate::heap::HeapGame;
use crate::heap::sequence::{push, Cell, Fill, PROGRESS_EVERY};
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// Whether the sparse engine handles `rule` (moves leave at most two heaps).
pub fn handles(rule: &HeapGame) -> bool {
    match rule.spec() {
        GameSpec::TakeBreak(c) => c.max_heaps() <= 2,
        GameSpec::GrundysGame => true,
        _ => false,
    }
}

/// Fast Walsh-Hadamard transform in place: a\[m\] ← Σ_v a\[v\]·(-1)^popcount(v & m). Each
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

/// Whether the classes may use the heap's parity as an extra bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// Chosen from the histogram with the value bits (the default).
    Auto,
    /// Always: classes by (value & mask, n mod 2).
    On,
    /// Never: classes by value & mask only.
    Off,
}

/// The class mask m ≠ 0 below `2b` (b a power of two) that makes the fewest positions rare,
/// from the histogram `hist` of length 2b: entry v + b·q counts the positions n with G(n) = v
/// and heap parity q. Bit log2(b) of m stands for the parity: a position is rare when
/// popcount(G(n) & m) + q·(that bit) is even. The Walsh-Hadamard transform of the histogram at
/// m is (#rare − #common) under m, so the least transform value wins; `parity` restricts m to
/// masks with (On) or without (Off) the parity bit.
pub fn choose_mask(hist: &[u64], b: usize, parity: Parity) -> u32 {
    let mut a: Vec<i64> = (0..2 * b)
        .map(|v| hist.get(v).copied().unwrap_or(0) as i64)
        .collect();
    walsh_hadamard(&mut a);
    let masks = match parity {
        Parity::Auto => 1..2 * b,
        Parity::On => b..2 * b,
        Parity::Off => 1..b,
    };
    masks.min_by_key(|&m| (a[m], m)).unwrap_or(1) as u32
}

#[inline(always)]
fn is_rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

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
struct State {
    /// The value bits of the class mask.
    mask: u32,
    /// 1 when the heap's parity is part of the class, else 0.
    parity: usize,
    /// s: the parity of the tokens removed by every two-heap split.
    shift: usize,
    /// Which masks may be chosen.
    allow: Parity,
    /// The current value bound B (power of two, values < B).
    b: usize,
    /// Entry v + B·((n + s) mod 2): how many positions n have G(n) = v.
    hist: Vec<u64>,
    /// Positions r >= 1 with G(r) rare, ascending.
    rare_pos: Vec<u32>,
    /// G(r) for each position of `rare_pos`.
    rare_val: Vec<u32>,
    /// For heaps n with p·((n + s) mod 2) = q: the common values below 2B, ascending.
    common: [Vec<u32>; 2],
    /// The same for the rare values.
    rare_vals: [Vec<u32>; 2],
    /// Next heap count at which the mask is re-chosen.
    next_review: usize,
    /// How many times the rare list was rebuilt (indices into it are stale after).
    reviews: u64,
    /// The bytes of the working tables ([`table_bytes`]) and of the rare list, held from the
    /// memory budget before they grow.
    held: Reservation,
}

/// What the engine's working tables are called in memory limit errors.
const TABLES: &str = "the sparse engine's working tables";

/// The bytes of the working tables that grow with the value bound `b` (a power of two, values
/// below `b`, xors below `2b`): the histogram (`2b` counts of 8 bytes), the class lists (`2b`
/// values of 4 bytes for each parity), the run's mark tables ([`RUN`] heaps of `2b` bytes), the
/// naive step's marks (`2b` bytes), and one verification scratch per thread (`2b` stamps of 4
/// bytes; counted for two threads). About `114·b` bytes.
fn table_bytes(b: usize) -> u64 {
    let b2 = 2 * b as u64;
    b2 * 8 + 2 * b2 * 4 + RUN as u64 * b2 + b2 + 2 * b2 * 4
}

impl State {
    fn new<T: Cell>(values: &[T], sp: &Splits, allow: Parity, ctl: &Control) -> Result<State> {
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
            common: Default::default(),
            rare_vals: Default::default(),
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
    fn charge(&mut self, b: usize, cap: usize) -> Result<()> {
        let rare = 4 * (cap as u64).saturating_mul(2);
        self.held.resize(table_bytes(b).saturating_add(rare), TABLES)
    }

    /// Appends the rare position r of value v, reserving the list's growth first.
    fn push_rare(&mut self, r: usize, v: u32) -> Result<()> {
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
    fn q(&self, n: usize) -> usize {
        self.parity & (n + self.shift)
    }

    /// Whether position n with value v is rare.
    #[inline(always)]
    fn rare_at(&self, n: usize, v: u32) -> bool {
        is_rare(v, self.mask) != (self.q(n) == 1)
    }

    /// Re-chooses the mask from the histogram; rebuilds the class lists and the rare list.
    fn review<T: Cell>(&mut self, values: &[T]) -> Result<()> {
        self.reviews += 1;
        let m = choose_mask(&self.hist, self.b, self.allow) as usize;
        self.mask = (m % self.b) as u32;
        self.parity = m / self.b;
        for q in 0..2 {
            let all = 0..(2 * self.b) as u32;
            let mask = self.mask;
            (self.rare_vals[q], self.common[q]) = all.partition(|&v| is_rare(v, mask) != (q == 1));
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
    fn record<T: Cell>(&mut self, values: &[T], h: usize, g: u32) -> Result<()> {
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

/// Heaps computed one by one, exactly, before speculation starts.
const SPECULATE_FROM: usize = 1 << 15;
/// Heaps per speculative block.
const BLOCK: usize = 1 << 13;

/// Extends `values` to G(0..n) for a rule that [`handles`] accepts.
///
/// **Speculation on both cores.** Once rare values have become rare, G(n) is almost always the
/// candidate c of the rare pass. Beyond `SPECULATE_FROM` (2^15) heaps the engine therefore proposes
/// a block of heaps with G(n) = c (the cheap rare pass only), and verifies the rare values below
/// each c of that block in parallel (every heap of the block is independent given the values)
/// *while* the next block is proposed. The first heap whose verification fails is recomputed
/// exactly and everything after it is dropped, so the result is exactly the sequential one.
pub fn extend<T: Cell>(
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    extend_with(rule, values, n, ctl, Parity::Auto)
}

/// [`extend`] with the use of the heap's parity in the classes chosen by `parity` (the result
/// is the same; only the speed differs). The parity bit is never used when the two-heap splits
/// remove numbers of tokens of both parities.
#[inline(never)]
pub fn extend_with<T: Cell>(
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
    parity: Parity,
) -> Result<Fill> {
    let sp = match rule.spec() {
        GameSpec::TakeBreak(c) if c.max_heaps() <= 2 => Splits::of_code(c),
        GameSpec::GrundysGame => Splits::grundy(),
        _ => return crate::heap::naive::extend(rule, values, n, ctl),
    };
    if values
        .try_reserve_exact(n.saturating_sub(values.len()))
        .is_err()
    {
        return Err(crate::error::Error::limit(
            crate::LimitKind::Memory,
            format!("not enough memory for {n} values"),
            "ask for fewer values",
        ));
    }
    let mut st = State::new(values, &sp, parity, ctl)?;
    let mut mirror = Mirror::new(values);
    let mut marks = Marks::default();
    let mut scratch = Scratch::default();
    let mut tables = Tables::default();
    let mut want: Vec<u32> = Vec::new();
    let mut exact_until = SPECULATE_FROM;
    let mut pending: Option<Block> = None;
    while values.len() < n || pending.is_some() {
        if let Some(p) = pending.take() {
            let base = Shared(values.as_mut_ptr());
            let start = p.start + p.len;
            let (fail, next) = if start < n && !p.overflow {
                let end = (start + BLOCK).min(n);
                let check = || verify(base, &mirror, &p, &sp);
                let next = || Some(propose(&sp, &mut st, base, start, end, &mut tables));
                #[cfg(feature = "parallel")]
                let both = rayon::join(check, next);
                #[cfg(not(feature = "parallel"))]
                let both = {
                    let mut next = next;
                    (check(), next())
                };
                both
            } else {
                (verify(base, &mirror, &p, &sp), None)
            };
            let good = fail.unwrap_or(p.len);
            // SAFETY: capacity >= n was reserved above, and `propose` initialised every heap
            // below p.start + p.len (the values up to p.start were already in the vector).
            unsafe { values.set_len(p.start + good) };
            if fail.is_some() || p.overflow {
                // A rare heap (or a value too wide for the cells): redo it exactly. The old
                // state's bytes are given back before the new one reserves its own.
                drop(st);
                st = State::new(values, &sp, parity, ctl)?;
                exact_until = values.len() + BLOCK;
            } else {
                pending = next.transpose()?.filter(|b| b.len > 0 || b.overflow);
            }
            ctl.check(values.len() as u64)?;
            continue;
        }
        let h0 = values.len();
        if st.rare_pos.len() * 4 > h0 {
            // No sparse space (yet): a quarter or more of the positions are rare, so the rare
            // pass would cost as much as scanning every split. Take the naive step.
            marks.reset(2 * st.b);
            sp.mark_small(h0, values, &mut marks);
            sp.mark_pairs(h0, values, &mut marks);
            let g = marks.mex();
            if let Some(r) = push(values, g) {
                return Ok(r);
            }
            mirror.set(h0, T::from_u32(g));
            st.record(values, h0, g)?;
            if h0.is_multiple_of(PROGRESS_EVERY) {
                ctl.check(h0 as u64)?;
            }
            continue;
        }
        if h0 < exact_until || n - h0 < BLOCK / 4 {
            let c = st.rare_pass(&sp, values, h0, &mut scratch, &mut want);
            scan_pairs(
                values,
                &mirror,
                h0,
                &sp.two,
                2 * st.b,
                &mut want,
                &mut scratch,
            );
            // `want` is ascending: its head is the least rare value below c still missing.
            let g = want.first().copied().unwrap_or(c);
            if let Some(r) = push(values, g) {
                return Ok(r);
            }
            mirror.set(h0, T::from_u32(g));
            st.record(values, h0, g)?;
            if h0.is_multiple_of(PROGRESS_EVERY) {
                ctl.check(h0 as u64)?;
            }
            continue;
        }
        let base = Shared(values.as_mut_ptr());
        let end = (h0 + BLOCK).min(n);
        pending = Some(propose(&sp, &mut st, base, h0, end, &mut tables)?);
    }
    Ok(Fill::Done)
}

/// A block of heaps whose values were proposed by the rare pass and await verification.
struct Block {
    /// First heap of the block.
    start: usize,
    /// Heaps proposed.
    len: usize,
    /// Every value and xor of two values is below this bound (2B when proposed).
    bits: usize,
    /// For each heap in turn, the rare values below its candidate not seen by the rare pass,
    /// ascending.
    needs: Vec<u32>,
    /// Where each heap's list ends in `needs`.
    ends: Vec<u32>,
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

/// Heaps whose rare passes are done together by [`propose`].
const RUN: usize = 32;

/// Proposes G(h) = c for h in start..end (stopping early when the value bound grows or a value
/// does not fit the cells), writing the values at `base + h`.
///
/// The rare passes of a run of [`RUN`] heaps h0 + j are done together, transposed: a rare
/// position r >= RUN - k pairs with m - r = h0 + j - k - r < h0 for every heap of the run, so
/// its marks g ⊕ G(h0 - k - r + j), j < RUN, read consecutive values already known and go to
/// one mark table per heap; a loop over j with g fixed costs a load, a xor and a store per
/// mark. The few rare positions that pair with a heap of the run itself (r < RUN - k, or
/// r >= h0 - k, or r = m/2 for unequal parts) are marked heap by heap once the heaps before
/// are proposed.
fn propose<T: Cell>(
    sp: &Splits,
    st: &mut State,
    base: Shared<T>,
    start: usize,
    end: usize,
    tables: &mut Tables,
) -> Result<Block> {
    let b0 = st.b;
    let mut block = Block {
        start,
        len: 0,
        bits: 2 * b0,
        needs: Vec::new(),
        ends: Vec::with_capacity(end - start),
        overflow: false,
    };
    let mut want = Vec::new();
    let mut h0 = start;
    'runs: while h0 < end {
        let h1 = (h0 + RUN).min(end);
        let reviews = st.reviews;
        // Every mark is a value or a xor of two, so below B.
        tables.start(h1 - h0, st.b);
        // The ranges of rare-list indices marked for the whole run, per split.
        let mut ranges: Vec<[(usize, usize); 2]> = Vec::with_capacity(sp.two.len());
        {
            // SAFETY: heaps below h0 are initialised and nothing writes them now.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h0) };
            for &(k, unequal) in &sp.two {
                let idx = |r: usize| st.rare_pos.partition_point(|&p| (p as usize) < r);
                // r >= len - k keeps h0 + j - k - r below h0; r < h0 - k keeps it above 0.
                let hi = idx(h0.saturating_sub(k));
                let lo = idx((h1 - h0).saturating_sub(k)).min(hi);
                // Unequal parts: r = m/2 for some heap of the run is left to the heaps.
                let (e0, e1) = if unequal {
                    let m0 = h0.saturating_sub(k);
                    (
                        idx(m0 / 2).clamp(lo, hi),
                        idx((m0 + (h1 - h0)) / 2 + 1).clamp(lo, hi),
                    )
                } else {
                    (hi, hi)
                };
                let r = [(lo, e0), (e1, hi)];
                for &(i0, i1) in &r {
                    let (pos, val) = (&st.rare_pos[i0..i1], &st.rare_val[i0..i1]);
                    tables.mark_rare(pos, val, vals, h0 - k, h1 - h0);
                }
                ranges.push(r);
            }
        }
        let mut next = h1;
        for h in h0..h1 {
            let j = h - h0;
            // SAFETY: heaps below h are initialised (verified values, the pending block, or
            // this block so far) and nothing writes them while this slice lives.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h) };
            for &k in &sp.whole {
                if k == h {
                    tables.mark(j, 0);
                }
            }
            for &k in &sp.one {
                if k < h {
                    tables.mark(j, vals[h - k].get());
                }
            }
            for (&(k, unequal), r) in sp.two.iter().zip(&ranges) {
                if h < k + 2 {
                    continue;
                }
                let m = h - k;
                let below = st.rare_pos.partition_point(|&p| (p as usize) < m);
                let rest = [(0, r[0].0), (r[0].1, r[1].0), (r[1].1, below)];
                for (i0, i1) in rest {
                    for (&rp, &g) in st.rare_pos[i0..i1].iter().zip(&st.rare_val[i0..i1]) {
                        if !(unequal && 2 * rp as usize == m) {
                            tables.mark(j, g ^ vals[m - rp as usize].get());
                        }
                    }
                }
            }
            let c = st.candidate(h, |v| tables.has(j, v), &mut want);
            if c > T::MAX {
                block.overflow = true;
                break 'runs;
            }
            // SAFETY: h < end <= n <= capacity, and no other thread reads or writes heap h.
            unsafe { base.0.add(h).write(T::from_u32(c)) };
            block.needs.extend_from_slice(&want);
            block.ends.push(block.needs.len() as u32);
            block.len += 1;
            // SAFETY: as above, now including heap h.
            let vals = unsafe { std::slice::from_raw_parts(base.0, h + 1) };
            st.record(vals, h, c)?;
            if st.b != b0 {
                break 'runs;
            }
            if st.reviews != reviews {
                // The rare list was rebuilt: start a new run after h.
                next = h + 1;
                break;
            }
        }
        h0 = next;
    }
    Ok(block)
}

/// Marks of a run of heaps, one table of `stride` bytes per heap (small enough to stay in the
/// first-level cache for a whole run): value v is marked for
/// heap j when `marks[j * stride + v] == generation` (a new run is one increment, not a clear).
#[derive(Default)]
struct Tables {
    marks: Vec<u8>,
    stride: usize,
    generation: u8,
}

impl Tables {
    /// Unmarks everything, for `heaps` heaps with values below `bits`.
    fn start(&mut self, heaps: usize, bits: usize) {
        self.stride = bits;
        if self.marks.len() < heaps * bits {
            self.marks.resize(heaps * bits, 0);
        }
        if self.generation == u8::MAX {
            self.marks.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    #[inline(always)]
    fn mark(&mut self, j: usize, v: u32) {
        self.marks[j * self.stride + v as usize] = self.generation;
    }

    /// Whether v is marked for heap j (never, for v beyond the table).
    #[inline(always)]
    fn has(&self, j: usize, v: u32) -> bool {
        (v as usize) < self.stride && self.marks[j * self.stride + v as usize] == self.generation
    }

    /// For each rare position r (ascending in `pos`, with value G(r) = g in `val`), marks
    /// g ⊕ G(m0 - r + j) for heap j, for every j < `len` (`vals` holds G(0..), and every
    /// m0 - r + j is below its length).
    ///
    /// The table width is a power of two and every mark is below it (a xor of two values below
    /// the bound), so the kernel is instantiated for the usual widths with the index masked by
    /// width − 1: a no-op on valid marks that lets the compiler drop the bounds check, and for
    /// whole runs of [`RUN`] heaps the loop over the heaps has a fixed count and is unrolled.
    fn mark_rare<T: Cell>(&mut self, pos: &[u32], val: &[u32], vals: &[T], m0: usize, len: usize) {
        match self.stride {
            256 => self.mark_rare_n::<T, 256>(pos, val, vals, m0, len),
            512 => self.mark_rare_n::<T, 512>(pos, val, vals, m0, len),
            1024 => self.mark_rare_n::<T, 1024>(pos, val, vals, m0, len),
            _ => {
                let (generation, stride) = (self.generation, self.stride);
                for (&r, &g) in pos.iter().zip(val) {
                    let from = m0 - r as usize;
                    let tables = self.marks.chunks_exact_mut(stride);
                    for (table, v) in tables.zip(&vals[from..from + len]) {
                        table[(g ^ v.get()) as usize] = generation;
                    }
                }
            }
        }
    }

    /// [`Tables::mark_rare`] for tables of width `S` (= `self.stride`).
    #[inline]
    fn mark_rare_n<T: Cell, const S: usize>(
        &mut self,
        pos: &[u32],
        val: &[u32],
        vals: &[T],
        m0: usize,
        len: usize,
    ) {
        let generation = self.generation;
        let (tables, _) = self.marks[..len * S].as_chunks_mut::<S>();
        if let Ok(tables) = <&mut [[u8; S]; RUN]>::try_from(&mut *tables) {
            for (&r, &g) in pos.iter().zip(val) {
                let from = m0 - r as usize;
                let run: &[T; RUN] = vals[from..from + RUN].try_into().expect("RUN values");
                for (table, v) in tables.iter_mut().zip(run) {
                    table[(g ^ v.get()) as usize & (S - 1)] = generation;
                }
            }
        } else {
            for (&r, &g) in pos.iter().zip(val) {
                let from = m0 - r as usize;
                for (table, v) in tables.iter_mut().zip(&vals[from..from + len]) {
                    table[(g ^ v.get()) as usize & (S - 1)] = generation;
                }
            }
        }
    }
}

/// The index (in the block) of the first heap whose rare values below its candidate are not all
/// options, or `None` if the whole block is right; heaps are checked in parallel.
fn verify<T: Cell>(base: Shared<T>, mirror: &Mirror<T>, p: &Block, sp: &Splits) -> Option<usize> {
    // SAFETY: every heap below p.start + p.len is initialised, and only read while this lives.
    let done = unsafe { std::slice::from_raw_parts(base.0 as *const T, p.start + p.len) };
    let init = || (Scratch::default(), Vec::new());
    let fails = |(scratch, want): &mut (Scratch, Vec<u32>), i: usize| {
        let from = if i == 0 { 0 } else { p.ends[i - 1] as usize };
        want.clear();
        want.extend_from_slice(&p.needs[from..p.ends[i] as usize]);
        scan_pairs(done, mirror, p.start + i, &sp.two, p.bits, want, scratch);
        !want.is_empty()
    };
    #[cfg(feature = "parallel")]
    let first = (0..p.len)
        .into_par_iter()
        .with_min_len(64)
        .map_init(init, fails)
        .position_first(|f| f);
    #[cfg(not(feature = "parallel"))]
    let first = {
        let mut buffers = init();
        (0..p.len).position(|i| fails(&mut buffers, i))
    };
    first
}

/// Marks for one heap: value v is marked when `stamp[v] == generation`, so starting the next
/// heap is one increment instead of clearing, and marking is a plain store (no read of the old
/// word, so consecutive marks do not wait on each other).
#[derive(Default)]
struct Scratch {
    stamp: Vec<u32>,
    generation: u32,
}

impl Scratch {
    /// Unmarks everything and makes room for values below `bits`.
    #[inline]
    fn next(&mut self, bits: usize) {
        if self.stamp.len() < bits {
            self.stamp.resize(bits, 0);
        }
        if self.generation == u32::MAX {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
    }

    #[inline(always)]
    fn mark(&mut self, v: u32) {
        self.stamp[v as usize] = self.generation;
    }

    /// Marks x ⊕ y for the pairs of `low` read forwards with `high` read backwards; every
    /// value is below `bits` (a power of two at most the length given to [`Scratch::next`]),
    /// so every xor is. As in [`Tables::mark_rare`], the usual widths get a kernel whose index
    /// is masked by width − 1 (a no-op on valid marks) so that it has no bounds check.
    #[inline]
    fn mark_pairs<T: Cell>(&mut self, bits: usize, low: &[T], high: &[T]) {
        match bits {
            512 => self.mark_pairs_n::<T, 512>(low, high),
            1024 => self.mark_pairs_n::<T, 1024>(low, high),
            2048 => self.mark_pairs_n::<T, 2048>(low, high),
            _ => {
                for (x, y) in low.iter().zip(high.iter().rev()) {
                    self.mark(x.get() ^ y.get());
                }
            }
        }
    }

    /// [`Scratch::mark_pairs`] for `bits` = `S`, in chunks of 8 pairs with fixed offsets (kept
    /// out of line so that the loop has registers of its own).
    #[inline(never)]
    fn mark_pairs_n<T: Cell, const S: usize>(&mut self, low: &[T], high: &[T]) {
        const C: usize = 8;
        let generation = self.generation;
        let (stamp, _) = self.stamp.as_chunks_mut::<S>();
        let stamp = &mut stamp[0];
        let n = low.len().min(high.len());
        let (low, high) = (&low[..n], &high[high.len() - n..]);
        let (lc, lr) = low.as_chunks::<C>();
        let (hr, hc) = high.as_rchunks::<C>();
        for (l, h) in lc.iter().zip(hc.iter().rev()) {
            for i in 0..C {
                stamp[(l[i].get() ^ h[C - 1 - i].get()) as usize & (S - 1)] = generation;
            }
        }
        for (x, y) in lr.iter().zip(hr.iter().rev()) {
            stamp[(x.get() ^ y.get()) as usize & (S - 1)] = generation;
        }
    }

    #[inline(always)]
    fn has(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.generation
    }
}

impl State {
    /// The rare pass for heap `h`: marks the single-heap options and every split with a rare
    /// part; returns the least unmarked common value c, and leaves in `want` the rare values
    /// below c not marked (ascending).
    fn rare_pass<T: Cell>(
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
        self.candidate(h, |v| marks.has(v), want)
    }

    /// The least common value c not marked (below B, since marks stay below B and some common
    /// value is below B); leaves in `want` the rare values below c not marked, ascending.
    fn candidate(&self, h: usize, has: impl Fn(u32) -> bool, want: &mut Vec<u32>) -> u32 {
        let q = self.q(h);
        let c = self.common[q]
            .iter()
            .copied()
            .find(|&v| !has(v))
            .unwrap_or((2 * self.b) as u32);
        want.clear();
        want.extend(
            self.rare_vals[q]
                .iter()
                .copied()
                .take_while(|&v| v < c)
                .filter(|&v| !has(v)),
        );
        c
    }
}

/// Pairs scanned between two looks at which wanted values remain, while marking.
const SCAN_STEP: usize = 512;
/// At most this many wanted values left: compare instead of marking.
const COMPARE_AT: usize = 16;
/// Pairs (per split) compared between two looks at which wanted values remain.
const COMPARE_STEP: usize = 512;

/// Removes from `want` (values below `bits`, ascending) every two-heap option value of heap
/// `h`: G(a) ⊕ G(m-a), m = h - k, 1 <= a <= m/2 (a ≠ m-a if unequal), for every split
/// `(k, unequal)`, stopping as soon as `want` is empty. Every value of `values` must be below
/// `bits` (a power of two), so every xor is. The splits advance together over a, in two modes:
///
/// * *marking*, while many values are wanted: each pair is one store into `scratch`, and
///   `want` is filtered every [`SCAN_STEP`] values of a;
/// * *comparing*, once at most [`COMPARE_AT`] are left (the last wanted values are the ones
///   few pairs form, found late: in Officers about two thirds of the pairs of a heap are
///   scanned for the last eight): each xor is compared with the K <= 16 wanted values,
///   lane-parallel over 16 pairs at a time, cheaper per pair than a store while K is small.
fn scan_pairs<T: Cell>(
    values: &[T],
    mirror: &Mirror<T>,
    h: usize,
    two: &[(usize, bool)],
    bits: usize,
    want: &mut Vec<u32>,
    scratch: &mut Scratch,
) {
    if want.is_empty() {
        return;
    }
    scratch.next(bits);
    // For each split: m and the largest a.
    let tops = || {
        two.iter()
            .filter_map(move |&(k, unequal)| match h.checked_sub(k) {
                Some(m) if m >= 2 => Some((m, if unequal { (m - 1) / 2 } else { m / 2 })),
                _ => None,
            })
    };
    let last = tops().map(|(_, top)| top).max().unwrap_or(0);
    let mut a = 1;
    while a <= last && want.len() > COMPARE_AT {
        let end = (a + SCAN_STEP).min(last + 1);
        for (m, top) in tops() {
            let hi = end.min(top + 1);
            if a >= hi {
                continue;
            }
            // G(a') ascending against G(m - a') read downwards from m - a.
            scratch.mark_pairs(bits, &values[a..hi], &values[m + 1 - hi..=m - a]);
        }
        a = end;
        keep(want, |v| !scratch.has(v));
    }
    // A wanted value above T::MAX is no xor of two cells: it stays wanted, uncompared.
    while a <= last && want.first().is_some_and(|&v| v <= T::MAX) {
        let end = (a + COMPARE_STEP).min(last + 1);
        let mut w = [T::default(); COMPARE_AT];
        let k = want.iter().take_while(|&&v| v <= T::MAX).count();
        for (x, &v) in w.iter_mut().zip(want.iter()) {
            *x = T::from_u32(v);
        }
        // Pad with a repeat of a wanted value: the kernel compares with all K.
        for i in k..COMPARE_AT {
            w[i] = w[0];
        }
        let mut found = 0u32;
        for (m, top) in tops() {
            let hi = end.min(top + 1);
            if a >= hi {
                continue;
            }
            // G(a') for a <= a' < hi descending, as a forward slice of the mirror where it
            // reaches, paired with G(m - hi + 1 ..= m - a) ascending.
            let high = &values[m + 1 - hi..=m - a];
            let low = mirror.descending(a, hi);
            found |= if k <= 4 {
                compare::<T, 4>(
                    low,
                    &values[a..hi],
                    high,
                    w[..4].try_into().unwrap_or_default(),
                )
            } else if k <= 8 {
                compare::<T, 8>(
                    low,
                    &values[a..hi],
                    high,
                    w[..8].try_into().unwrap_or_default(),
                )
            } else {
                compare::<T, 16>(low, &values[a..hi], high, w)
            };
        }
        a = end;
        let mut i = 0;
        want.retain(|_| {
            i += 1;
            i > k || found >> (i - 1) & 1 == 0
        });
    }
}

/// Keeps the elements of `v` for which `f` holds, in order, without a branch per element (which
/// of them were seen is unpredictable, so `retain`'s branch mispredicts about half the time).
#[inline]
fn keep(v: &mut Vec<u32>, f: impl Fn(u32) -> bool) {
    let mut kept = 0;
    for i in 0..v.len() {
        let x = v[i];
        v[kept] = x;
        kept += f(x) as usize;
    }
    v.truncate(kept);
}

/// The first [`MIRROR`] values in reverse order, so that the pairs (G(a), G(m - a)) of a run
/// of a are two forward slices.
pub(crate) struct Mirror<T> {
    rev: Vec<T>,
}

/// Values held reversed by [`Mirror`] (at most [`SPECULATE_FROM`], so that the mirror is
/// complete before speculation starts and read-only afterwards).
const MIRROR: usize = 1 << 15;

impl<T: Cell> Mirror<T> {
    fn new(values: &[T]) -> Mirror<T> {
        let mut m = Mirror {
            rev: vec![T::default(); MIRROR],
        };
        for (p, &v) in values.iter().enumerate().take(MIRROR) {
            m.set(p, v);
        }
        m
    }

    /// Records G(p) = v (ignored beyond the mirror).
    #[inline]
    fn set(&mut self, p: usize, v: T) {
        if p < MIRROR {
            self.rev[MIRROR - 1 - p] = v;
        }
    }

    /// G(hi - 1), G(hi - 2), ..., G(a) (if all are mirrored).
    #[inline]
    fn descending(&self, a: usize, hi: usize) -> Option<&[T]> {
        (hi <= MIRROR).then(|| &self.rev[MIRROR - hi..MIRROR - a])
    }
}

/// Bit q set when w[q] = G(a') ⊕ G(m - a') for one of the pairs given either as two forward
/// slices `mirrored` (descending G(a')) and `high` paired index by index, or (when the mirror
/// does not reach) as `low` ascending paired with `high` read backwards. The mirrored form is
/// written over fixed chunks of 16 pairs without branches, so that the compiler turns each
/// chunk into a few vector xors and compares.
///
/// On x86-64 processors with AVX2 (detected at run time) the same code is compiled for 256-bit
/// vectors: twice the pairs per instruction of the SSE2 baseline; with AVX-512 BW and VL, for
/// the same vectors but 32 registers.
#[inline]
fn compare<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the processor has AVX-512 F (implied by BW), BW and VL, checked above.
            return unsafe { compare_avx512(mirrored, low, high, w) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { compare_avx2(mirrored, low, high, w) };
        }
    }
    compare_body(mirrored, low, high, w)
}

/// [`compare_body`] compiled with AVX-512 (BW, VL) enabled: the same 256-bit operations, but
/// with 32 vector registers instead of 16, so the 16 accumulators of the K = 16 kernel, the
/// xors and the wanted values all stay in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
fn compare_avx512<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    compare_body(mirrored, low, high, w)
}

/// [`compare_body`] compiled with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn compare_avx2<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    compare_body(mirrored, low, high, w)
}

/// The portable body of [`compare`].
#[inline(always)]
fn compare_body<T: Cell, const K: usize>(
    mirrored: Option<&[T]>,
    low: &[T],
    high: &[T],
    w: [T; K],
) -> u32 {
    const C: usize = 16;
    let mut found = [false; K];
    match mirrored {
        Some(low) => {
            let n = low.len().min(high.len());
            let (lc, lr) = low[..n].as_chunks::<C>();
            let (hc, hr) = high[..n].as_chunks::<C>();
            // acc[q][j] is the least x ⊕ w[q] seen in lane j: zero exactly when some pair's
            // xor x equals w[q]. A xor and an unsigned minimum per lane (two vector
            // instructions), where a comparison into booleans also needs narrowing.
            let mut acc = [[T::from_u32(T::MAX); C]; K];
            for (l, h) in lc.iter().zip(hc) {
                let mut x = [T::default(); C];
                for j in 0..C {
                    x[j] = l[j] ^ h[j];
                }
                for q in 0..K {
                    for j in 0..C {
                        acc[q][j] = acc[q][j].min(x[j] ^ w[q]);
                    }
                }
            }
            for (f, a) in found.iter_mut().zip(acc) {
                *f = a.contains(&T::default());
            }
            for (&x, &y) in lr.iter().zip(hr) {
                for (f, &wq) in found.iter_mut().zip(&w) {
                    *f |= x ^ y == wq;
                }
            }
        }
        None => {
            for (&x, &y) in low.iter().zip(high.iter().rev()) {
                for (f, &wq) in found.iter_mut().zip(&w) {
                    *f |= x ^ y == wq;
                }
            }
        }
    }
    found
        .iter()
        .enumerate()
        .fold(0, |bits, (q, &f)| bits | (f as u32) << q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The wanted values that are no G(a) ⊕ G(m-a), from the definition.
    fn unseen(values: &[u8], h: usize, two: &[(usize, bool)], want: &[u32]) -> Vec<u32> {
        let mut seen = std::collections::HashSet::new();
        for &(k, unequal) in two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            for a in 1..=m / 2 {
                if !(unequal && 2 * a == m) {
                    seen.insert(u32::from(values[a] ^ values[m - a]));
                }
            }
        }
        want.iter().copied().filter(|v| !seen.contains(v)).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The scan (marking, then comparing, with and without the mirror: heaps beyond twice
        /// the mirror) leaves exactly the wanted values no pair forms.
        #[test]
        fn scan_pairs_leaves_the_values_no_pair_forms(
            seed in any::<u64>(),
            h in 3usize..80_000,
            spread in 1u8..=255,
            want_bits in any::<u64>(),
            unequal in any::<bool>(),
            k2 in 0usize..4,
            width in 8u32..12,
        ) {
            // Values in a small range so that some wanted values occur and some do not.
            let mut x = seed | 1;
            let values: Vec<u8> = (0..h)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % (u64::from(spread) + 1)) as u8 & spread
                })
                .collect();
            let two = [(1usize, unequal), (k2, false)];
            let want: Vec<u32> = (0..64).filter(|&v| want_bits >> v & 1 == 1).collect();
            let mirror = Mirror::new(&values);
            let mut got = want.clone();
            let mut scratch = Scratch::default();
            // Widths 2^8 (generic kernel) to 2^11 (the instantiated ones): all hold the values.
            scan_pairs(&values, &mirror, h, &two, 1 << width, &mut got, &mut scratch);
            prop_assert_eq!(got, unseen(&values, h, &two, &want));
        }

        /// The rare-pass kernel marks exactly g ⊕ G(m0 - r + j) for heap j, every width, for a
        /// whole run and a short one (widths instantiated or not).
        #[test]
        fn mark_rare_marks_its_definition(
            seed in any::<u64>(),
            width in 6u32..12,
            short in 1usize..RUN,
            rare in proptest::collection::btree_set(1u32..200, 0..40),
        ) {
            let stride = 1usize << width;
            let mut x = seed | 1;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % stride as u64) as u16
            };
            let m0 = 200 + RUN;
            let vals: Vec<u16> = (0..m0 + RUN).map(|_| next()).collect();
            let pos: Vec<u32> = rare.into_iter().collect();
            let val: Vec<u32> = pos.iter().map(|_| u32::from(next())).collect();
            for len in [RUN, short] {
            let mut tables = Tables::default();
            // A stale generation first, so that old marks must not count.
            tables.start(len, stride);
            tables.mark_rare(&pos, &val, &vals, m0 - 1, len);
            tables.start(len, stride);
            tables.mark_rare(&pos, &val, &vals, m0, len);
            for j in 0..len {
                let want: std::collections::BTreeSet<u32> = pos
                    .iter()
                    .zip(&val)
                    .map(|(&r, &g)| g ^ u32::from(vals[m0 - r as usize + j]))
                    .collect();
                let got: std::collections::BTreeSet<u32> =
                    (0..stride as u32).filter(|&v| tables.has(j, v)).collect();
                prop_assert_eq!(got, want);
            }
            }
        }

        /// Every compiled form of the comparison kernel (portable, AVX2, AVX-512 where the
        /// processor has them), mirrored or not, finds exactly the wanted values that are the
        /// xor of a pair, for K = 4, 8, 16.
        #[test]
        fn compare_kernels_find_the_pair_xors(
            low in proptest::collection::vec(0u16..64, 0..100),
            seed in any::<u64>(),
            w in proptest::array::uniform16(0u16..64),
        ) {
            let n = low.len();
            let high: Vec<u16> = (0..n).map(|i| ((seed >> (i % 60)) % 64) as u16).collect();
            // `low` descending (the mirrored form) is `rev` ascending.
            let rev: Vec<u16> = low.iter().rev().copied().collect();
            let expect = |k: usize| -> u32 {
                (0..k)
                    .filter(|&q| (0..n).any(|i| low[i] ^ high[i] == w[q]))
                    .fold(0, |b, q| b | 1 << q)
            };
            type Kernel<'a> = &'a dyn Fn(Option<&[u16]>, &[u16], &[u16]) -> [u32; 3];
            let check = |f: Kernel| (f(Some(&low), &rev, &high), f(None, &rev, &high));
            let portable: Kernel = &|m, l, h| {
                [
                    compare_body::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_body::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_body::<u16, 16>(m, l, h, w),
                ]
            };
            let mut kernels = vec![portable];
            // SAFETY (both): only called when the processor has the features, checked below.
            #[cfg(target_arch = "x86_64")]
            let avx2: Kernel = &|m, l, h| unsafe {
                [
                    compare_avx2::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_avx2::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_avx2::<u16, 16>(m, l, h, w),
                ]
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push(avx2);
            }
            #[cfg(target_arch = "x86_64")]
            let avx512: Kernel = &|m, l, h| unsafe {
                [
                    compare_avx512::<u16, 4>(m, l, h, w[..4].try_into().unwrap()),
                    compare_avx512::<u16, 8>(m, l, h, w[..8].try_into().unwrap()),
                    compare_avx512::<u16, 16>(m, l, h, w),
                ]
            };
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                kernels.push(avx512);
            }
            let want = [expect(4), expect(8), expect(16)];
            for f in kernels {
                let (a, b) = check(f);
                prop_assert_eq!(a, want);
                prop_assert_eq!(b, want);
            }
        }

        #[test]
        fn keep_is_retain(v in proptest::collection::vec(0u32..100, 0..80), d in 1u32..5) {
            let mut a = v.clone();
            keep(&mut a, |x| x % d == 0);
            let mut b = v;
            b.retain(|x| x % d == 0);
            prop_assert_eq!(a, b);
        }
    }

    /// The working tables and the rare list are charged to the memory budget before they
    /// grow: a budget without room for them refuses with the memory limit (also midway, when
    /// the rare list of Kayles outgrows it), a large one gives the naive engine's values and
    /// has every byte back afterwards.
    #[test]
    fn working_tables_are_charged_to_the_budget() {
        let is_memory = |r: Result<Fill>| {
            matches!(r, Err(crate::Error::Limit(l)) if l.kind == crate::LimitKind::Memory)
        };
        for game in ["octal:0.77", "grundys-game", "octal:0.137"] {
            let rule = game.parse::<HeapGame>().unwrap();
            let n = 60_000;
            let mut want: Vec<u32> = Vec::new();
            crate::heap::naive::extend(&rule, &mut want, n, &Control::none()).unwrap();
            let budget = crate::control::MemoryBudget::new(64 << 20);
            let mut v: Vec<u32> = Vec::new();
            extend(&rule, &mut v, n, &Control::none().with_memory(budget.clone())).unwrap();
            assert_eq!(v, want, "{game}");
            assert_eq!(budget.used(), 0, "{game}: the tables give their bytes back");
            let tiny = crate::control::MemoryBudget::new(table_bytes(1) - 1);
            let ctl = Control::none().with_memory(tiny.clone());
            assert!(is_memory(extend(&rule, &mut Vec::<u32>::new(), n, &ctl)), "{game}");
            assert_eq!(tiny.used(), 0);
        }
        // Taking one or two tokens (0.3) has G(n) = n mod 3, and 0 is rare under every mask,
        // so a third of the positions are rare: its rare list grows with n, 8 bytes an entry.
        // A budget with room for the tables and 64 KiB more stops it midway.
        let rule = "octal:0.3".parse::<HeapGame>().unwrap();
        let budget = crate::control::MemoryBudget::new(table_bytes(64) + (64 << 10));
        let ctl = Control::none().with_memory(budget.clone());
        assert!(is_memory(extend(&rule, &mut Vec::<u32>::new(), 200_000, &ctl)));
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn walsh_hadamard_counts_rare_minus_common() {
        let hist = [3u64, 1, 4, 1, 5, 9, 2, 6];
        // With b = 4: the top bit of the index is the parity; the masks it allows follow.
        assert!(choose_mask(&hist, 4, Parity::On) >= 4);
        assert!(choose_mask(&hist, 4, Parity::Off) < 4);
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
