//! The finite certificate that a candidate `(Q, P, Φ)` is the misère quotient of `H_n`.
//!
//! **What must be shown.** Let `H` be the closure of the heaps `1..=n`, `(Q, P)` a finite
//! commutative monoid with a subset `P`, and `Φ: H → Q` the homomorphism given by the images of
//! the heaps. Suppose
//!
//! - (i) `Φ` is surjective,
//! - (ii) `(Q, P)` is reduced: for `a ≠ b` some `c` has exactly one of `ac`, `bc` in `P`,
//! - (iii) for every `x` in `H`: `Φ(x) ∈ P` exactly when `x` has a move and no option `x'` of
//!   `x` has `Φ(x') ∈ P`.
//!
//! Then (iii) gives, by induction on `x` (every move replaces a heap by smaller heaps, so the
//! multiset order is well founded), `Φ(x) ∈ P ⇔ x` is a misère P-position. So `Φ(x) = Φ(y)`
//! gives `o⁻(x + z) = o⁻(y + z)` for all `z` (as `Φ(x + z) = Φ(y + z)`), and `Φ(x) ≠ Φ(y)` gives,
//! by (ii) and (i), a `z` with `Φ(z) = c` and `o⁻(x + z) ≠ o⁻(y + z)`. The kernel of `Φ` is
//! indistinguishability: `(Q, P)` *is* the quotient (Plambeck and Siegel's characterisation).
//! (i) and (ii) hold by construction (the `syntactic` module); this module decides (iii),
//! which speaks of infinitely many `x`, by a finite computation.
//!
//! **Reduction to a finite automaton.** For `x` in `H` let `U(x)` be the set of classes of
//! the options of `x`, and
//!
//! > `D(x) = { c ∈ Q : c·u ∈ P for some u ∈ U(x) }`,
//!
//! the multipliers `c` for which `x + z` (with `Φ(z) = c`) has a move inside `x` to a
//! P-element. The identity `1` lies in `D(x)` exactly when `x` has an option in `Φ⁻¹(P)`, so
//! (iii) at `x ≠ 0` reads `Φ(x) ∈ P ⇔ 1 ∉ D(x)` (every non-empty sum here has a move: heaps
//! without moves are dropped), and at `x = 0` it reads `1 ∉ P`. Adding a heap `h` of element
//! `g = Φ(h)` whose options have the classes `O(h)`:
//!
//! > `Φ(x + h) = Φ(x)·g`,  `U(x + h) = g·U(x) ∪ Φ(x)·O(h)`,
//! > `D(x + h) = { c : c·g ∈ D(x) } ∪ ⋃_{o ∈ O(h)} { c : c·Φ(x)·o ∈ P }`,
//!
//! a function of `(Φ(x), D(x))` and of the *type* `(g, O(h))` of the heap. So the pairs
//! `(Φ(x), D(x))` over all `x` are exactly the states reachable from `(1, ∅)` by these
//! transitions, one per heap type: at most `|Q|·2^|Q|`, in practice few. (iii) holds for every
//! `x` exactly when it holds at every reachable state. [`check`] walks them breadth first; a
//! failing state comes with a sum of heaps reaching it, at which (iii) fails.
//!
//! The condition depends on the heaps only through the set of types, so adjoining a heap whose
//! type is already present leaves the verdict unchanged.
//!
//! **Checking again after new types.** The states reachable with a set of types `T ∪ N` are
//! those reachable with `T`, and what the types of `N` lead to: along any sum, the first heap
//! of a type in `N` leaves a state reachable with `T`, and after it every state is either one of
//! those (whose successors by `T` are among them) or new. So once a candidate passed with the
//! types `T`, a candidate with the same monoid, the same `P` and the types `T ∪ N` passes
//! exactly when the old states under the types of `N`, and every new state under all types,
//! meet (iii): [`check_cached`] keeps the states of the last success ([`Reached`]) and explores
//! only those. This is what makes a stable quotient cheap: while the heaps added bring new
//! types but no new element (Kayles from heap 40 on), each check visits the new states only.

use super::build::{weight, Letters, Stage};
use super::extension::pull_back;
use crate::control::Control;
use crate::control::Reservation;
use crate::error::Result;
use crate::game::hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

/// A heap as the certificate sees it: its element and the classes of its options.
#[derive(Clone, Debug)]
pub(crate) struct HeapType {
    /// A heap of this type (for reporting failing sums).
    pub heap: u64,
    /// Its element.
    pub elem: u32,
    /// The classes of its options, sorted, without repetition.
    pub opts: Vec<u32>,
}

/// The most states [`check`] visits.
pub const MAX_STATES: usize = 10_000_000;

/// Decides condition (iii) of the module documentation for `st` with heaps of the given
/// types: `None` when it holds for every sum, else a sum of heaps (sizes, largest first) where
/// it fails, of least weight among the failing sums (the weight `Σ (2^20·h - 1)` of
/// [`super::build::weight`]; the states are settled in the order of the least weight of a sum
/// reaching them, and a heap of each type is its smallest heap, as
/// [`super::build::Heaps::types`] lists them).
///
/// **The least failure tells the truth.** Every option of a sum weighs less than the sum, so
/// when `x` is a failing sum of least weight, (iii) holds at every sum of smaller weight, and
/// by induction on the weight `Φ` tells the outcome of each of them, in particular of every
/// option of `x`. Hence `x` is a P-position exactly when `Φ(x) ∉ P`: the candidate is wrong at
/// `x`, and the true outcome of `x` is known without search.
pub(crate) fn check(st: &Stage, types: &[HeapType], ctl: &Control) -> Result<Option<Vec<u64>>> {
    check_keeping(st, types, None, ctl)
}

/// The states `(Φ(x), D(x))` of the automaton, each stored as `1 + w` words: the element, then
/// `D(x)` as a bit set of `w` words. A state is looked up by its words, so a transition that
/// reaches a known state allocates nothing.
#[derive(Default)]
struct States {
    stride: usize,
    arena: Vec<u64>,
    index: FxHashMap<Box<[u64]>, u32>,
}

impl States {
    fn new(w: usize) -> States {
        States {
            stride: 1 + w,
            ..States::default()
        }
    }

    fn len(&self) -> usize {
        self.index.len()
    }

    fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The element and the set `D` of state `i`.
    fn get(&self, i: usize) -> (u32, &[u64]) {
        let s = &self.arena[i * self.stride..(i + 1) * self.stride];
        (s[0] as u32, &s[1..])
    }

    fn find(&self, key: &[u64]) -> Option<u32> {
        self.index.get(key).copied()
    }

    fn insert(&mut self, key: &[u64]) -> u32 {
        let id = self.len() as u32;
        self.arena.extend_from_slice(key);
        self.index.insert(key.into(), id);
        id
    }
}

/// The states reached by the last successful [`check_cached`], with what they were reached
/// under: the monoid, its P-portion and the heap types (element, classes of the options).
#[derive(Default)]
pub(crate) struct Reached {
    q: usize,
    mul: Vec<u32>,
    letters: Option<Rc<Letters>>,
    p: Vec<bool>,
    types: Vec<(u32, Vec<u32>)>,
    states: States,
    mem: Option<Reservation>,
}

impl Reached {
    /// Whether the states were reached under the monoid and P-portion of `st`.
    fn same_stage(&self, st: &Stage) -> bool {
        self.q == st.q && self.p == st.p && self.mul == st.mul && self.letters == st.letters
    }
}

/// `pd[u] = { c : u·c ∈ P }`, `w` words a row. From the table, row by row; from the letters
/// (a [`super::build::Letters`] stage), by a depth-first walk over the tree of the `last`
/// entries, the row of `y = f·g_l` being the row of `f` taken through the letter `l`
/// (`c·y = (c·f)·g_l`): `|Q|²` look-ups either way, with one row per level of the walk
/// (reserved from the budget of `ctl`).
fn p_multipliers(st: &Stage, w: usize, ctl: &Control) -> Result<Vec<u64>> {
    let q = st.q;
    let mut pd = vec![0u64; q * w];
    let mut mark = |u: usize, row: &[u32]| {
        for (c, &e) in row.iter().enumerate() {
            if st.p[e as usize] {
                pd[u * w + c / 64] |= 1 << (c % 64);
            }
        }
    };
    match &st.letters {
        None => {
            for u in 0..q {
                mark(u, &st.mul[u * q..(u + 1) * q]);
            }
        }
        Some(t) => {
            let mut children: Vec<Vec<u32>> = vec![Vec::new(); q];
            let mut depth = vec![0usize; q];
            for y in 1..q {
                let f = t.last[y].0 as usize;
                children[f].push(y as u32);
                depth[y] = depth[f] + 1;
            }
            let levels = depth.iter().max().map_or(1, |d| d + 1);
            let _mem = ctl.reserve(
                (levels * q * 4 + q * 40) as u64,
                "misère quotient certificate",
            )?;
            // rows[d]: the row of the element at depth d of the walk; path: the elements of
            // the walk with the next child of each to visit.
            let mut rows: Vec<Vec<u32>> = vec![(0..q as u32).collect()];
            let mut path: Vec<(u32, usize)> = vec![(0, 0)];
            mark(0, &rows[0]);
            while !path.is_empty() {
                let d = path.len() - 1;
                let (u, i) = &mut path[d];
                let Some(&y) = children[*u as usize].get(*i) else {
                    path.pop();
                    continue;
                };
                *i += 1;
                ctl.stop_check()?;
                let l = t.last[y as usize].1 as usize;
                if rows.len() == d + 1 {
                    rows.push(vec![0; q]);
                }
                let (lo, hi) = rows.split_at_mut(d + 1);
                for (x, &e) in hi[0].iter_mut().zip(&lo[d]) {
                    *x = t.by_letter[e as usize * t.nl + l];
                }
                mark(y as usize, &hi[0]);
                path.push((y, 0));
            }
        }
    }
    Ok(pd)
}

/// The row of each type's element (`rows[t][c] = g_t·c`), for [`step`].
fn type_rows(st: &Stage, types: &[HeapType]) -> Vec<Vec<u32>> {
    types.iter().map(|t| st.row(t.elem).into_owned()).collect()
}

/// The transition of the state `(a, ds)` by a heap of type `ty` (module documentation): the
/// new state written to `key` (as [`States`] stores it), and whether (iii) holds there.
///
/// `{ c : c·g ∈ D }` is read off the row of `g` (`c·g = g·c`: the monoid is commutative;
/// [`pull_back`]).
fn step(
    st: &Stage,
    pd: &[u64],
    a: u32,
    ds: &[u64],
    ty: &HeapType,
    row: &[u32],
    key: &mut [u64],
) -> bool {
    let a2 = st.m(a, ty.elem);
    key[0] = a2 as u64;
    let d = &mut key[1..];
    let w = d.len();
    d.iter_mut().for_each(|x| *x = 0);
    pull_back(row, ds, d);
    for &o in &ty.opts {
        let ao = st.m(a, o) as usize;
        for (x, y) in d.iter_mut().zip(&pd[ao * w..ao * w + w]) {
            *x |= y;
        }
    }
    let p_option = d[0] & 1 == 1;
    st.p[a2 as usize] != p_option
}

/// [`check`], starting from the states of the last success in `reached` when they were
/// reached under the same monoid and P-portion and types among `types` (module documentation,
/// "Checking again after new types"); on success `reached` holds the states of this check.
/// A failure is always the least failing sum of [`check`] (found by it).
pub(crate) fn check_cached(
    st: &Stage,
    types: &[HeapType],
    reached: &mut Reached,
    ctl: &Control,
) -> Result<Option<Vec<u64>>> {
    let key = |t: &HeapType| (t.elem, t.opts.clone());
    let now: Vec<(u32, Vec<u32>)> = types.iter().map(key).collect();
    let known = reached.same_stage(st)
        && !reached.states.is_empty()
        && reached.types.iter().all(|t| now.contains(t));
    if !known {
        *reached = Reached::default();
        return check_keeping(st, types, Some(reached), ctl);
    }
    let new: Vec<usize> = (0..types.len())
        .filter(|&t| !reached.types.contains(&now[t]))
        .collect();
    let all: Vec<usize> = (0..types.len()).collect();
    let w = st.q.div_ceil(64);
    let pd = p_multipliers(st, w, ctl)?;
    let rows = type_rows(st, types);
    let state_bytes = (w * 16 + 64) as u64;
    let mut key = vec![0u64; 1 + w];
    let mut ds = vec![0u64; w];
    let old = reached.states.len();
    let mut s = 0;
    while s < reached.states.len() {
        ctl.tick()?;
        let (a, d) = reached.states.get(s);
        ds.copy_from_slice(d);
        let which = if s < old { &new } else { &all };
        for &t in which {
            if !step(st, &pd, a, &ds, &types[t], &rows[t], &mut key) {
                // The least failing sum comes from the full check.
                *reached = Reached::default();
                return check(st, types, ctl);
            }
            if reached.states.find(&key).is_some() {
                continue;
            }
            if reached.states.len() >= MAX_STATES {
                *reached = Reached::default();
                return check(st, types, ctl);
            }
            match &mut reached.mem {
                Some(m) => m.grow(state_bytes, "misère quotient certificate")?,
                None => {
                    reached.mem = Some(ctl.reserve(state_bytes, "misère quotient certificate")?)
                }
            }
            reached.states.insert(&key);
        }
        s += 1;
    }
    reached.types = now;
    Ok(None)
}

/// [`check`]; on success, the states it reached are left in `keep`.
fn check_keeping(
    st: &Stage,
    types: &[HeapType],
    keep: Option<&mut Reached>,
    ctl: &Control,
) -> Result<Option<Vec<u64>>> {
    if st.p[0] {
        return Ok(Some(Vec::new()));
    }
    let q = st.q;
    let w = q.div_ceil(64);
    let pd = p_multipliers(st, w, ctl)?;
    let rows = type_rows(st, types);
    let mut mem = ctl.reserve(
        (pd.len() * 8 + rows.len() * q * 4) as u64,
        "misère quotient certificate",
    )?;
    let state_bytes = (w * 16 + 64) as u64;
    let mut states = States::new(w);
    // The least weight of a sum reaching each state, and the last heap type of such a sum.
    let mut best: Vec<u64> = Vec::new();
    let mut parent: Vec<(u32, u32)> = Vec::new();
    let mut done: Vec<bool> = Vec::new();
    states.insert(&vec![0u64; 1 + w]);
    best.push(0);
    parent.push((u32::MAX, u32::MAX));
    done.push(false);
    // Entries (weight, failure?, state or failure index): states are settled and failures
    // reported in the order of the weights of their sums (Dijkstra's order), so the first
    // failure popped is a failing sum of least weight.
    let mut queue: BinaryHeap<Reverse<(u64, bool, u32)>> =
        BinaryHeap::from([Reverse((0, false, 0))]);
    let mut failures: Vec<(u32, u32)> = Vec::new();
    let sum_of = |at: u32, parent: &[(u32, u32)]| {
        let mut sum = Vec::new();
        let mut at = at;
        while at != 0 {
            let (from, via) = parent[at as usize];
            sum.push(types[via as usize].heap);
            at = from;
        }
        sum
    };
    let mut key = vec![0u64; 1 + w];
    let mut ds = vec![0u64; w];
    while let Some(Reverse((total, failure, s))) = queue.pop() {
        ctl.tick()?;
        if failure {
            let (from, via) = failures[s as usize];
            let mut sum = sum_of(from, &parent);
            sum.push(types[via as usize].heap);
            sum.sort_unstable_by(|a, b| b.cmp(a));
            return Ok(Some(sum));
        }
        if done[s as usize] || best[s as usize] != total {
            continue;
        }
        done[s as usize] = true;
        let (a, d) = states.get(s as usize);
        ds.copy_from_slice(d);
        for (t, ty) in types.iter().enumerate() {
            let next_total = total + weight(ty.heap);
            if !step(st, &pd, a, &ds, ty, &rows[t], &mut key) {
                failures.push((s, t as u32));
                queue.push(Reverse((next_total, true, failures.len() as u32 - 1)));
                continue;
            }
            if let Some(id) = states.find(&key) {
                if !done[id as usize] && next_total < best[id as usize] {
                    best[id as usize] = next_total;
                    parent[id as usize] = (s, t as u32);
                    queue.push(Reverse((next_total, false, id)));
                }
                continue;
            }
            if states.len() >= MAX_STATES {
                return Err(crate::error::Error::limit(
                    crate::LimitKind::Positions,
                    format!(
                        "the misère quotient certificate visited {MAX_STATES} states (order {q})"
                    ),
                    "use a smaller heap bound",
                ));
            }
            mem.grow(state_bytes, "misère quotient certificate")?;
            let id = states.insert(&key);
            best.push(next_total);
            parent.push((s, t as u32));
            done.push(false);
            queue.push(Reverse((next_total, false, id)));
        }
    }
    if let Some(keep) = keep {
        *keep = Reached {
            q,
            mul: st.mul.clone(),
            letters: st.letters.clone(),
            p: st.p.clone(),
            types: types.iter().map(|t| (t.elem, t.opts.clone())).collect(),
            states,
            mem: Some(mem),
        };
    }
    Ok(None)
}
