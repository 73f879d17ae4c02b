//! The candidate for `Q_n` by extension of `Q_{n-1}` with heap `n` (the column construction of
//! Plambeck and Siegel's algorithm).
//!
//! **The assumption.** Every sum of heaps `1..=n` is `y + k·[n]` with `y` a sum of heaps below
//! `n`. Suppose the outcome of `y + k·[n]` depends only on the class `a = Φ_{n-1}(y)` and on `k`
//! (write `o(a, k)`), and that the options of any representative of `a` fall into the classes
//! of the options of one chosen representative `y_a`. Then for `k >= 1`, `y_a + k·[n]` is a
//! P-position exactly when every option is an N-position:
//!
//! - a move inside `y_a` leads to `(b, k)` for `b` one of the classes `opts(a)` of the options
//!   of `y_a`; when `y_a` is a representative of least weight (`Σ (2^20·h - 1)`, see
//!   [`super::build::weight`]), every such `b` has a
//!   representative lighter than `y_a`, so `o(b, k)` is known when the elements are taken by
//!   increasing weight of their representatives;
//! - a move in one copy of heap `n` leads to `(a·φ(o), k - 1)` for each option `o` of `[n]`.
//!
//! And `o(a, 0)` is `a ∈ P`. So the column `o(·, k)` is a function of the column `o(·, k - 1)`:
//! once a column repeats, the columns are periodic from there on (preperiod `m`, period `p`,
//! exponents reduced accordingly).
//!
//! **The candidate.** Pairs `(a, k)` multiply as `(a, k)(b, l) = (ab, k + l)`. Two pairs are
//! identified when `o(a·c, k + j) = o(b·c, l + j)` for every `c` and `j`: this relation is a
//! congruence (the signature of a product is a sub-table of the signature of a factor), the
//! classes form a commutative monoid whose every element is the image of a sum (surjective),
//! and any two classes are told apart by a multiplier `(c, j)` (reduced). With the P-portion
//! `{(a, k) : o(a, k)}` it satisfies conditions (i) and (ii) of the `certificate` module.
//!
//! **Why it is only a candidate.** The assumption fails exactly when heap `n` splits a class of
//! `Q_{n-1}` (in Kayles, `[5] + [5]` and `0` are one class over heaps up to 8, but `[9]` is a
//! P-position and `[5] + [5] + [9]` is not). The candidate is therefore never trusted: the
//! construction keeps it only when the certificate (condition (iii)) proves it, and that proof
//! does not use the assumption.

use super::build::{weight, Heaps, Stage};
use super::recalibration::moore;
use crate::control::Control;
use crate::error::{Error, Result};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The most copies of the new heap whose outcome columns are followed before they repeat.
pub const MAX_EXPONENT: usize = 4096;

/// Representatives of least weight (see [`weight`]) of every element of `st` (sums of heaps
/// `1..n-1`, as sorted heap lists), by Dijkstra's walk from the identity over the Cayley graph whose
/// generators are the smallest heap of each element the heaps map to (a smallest heap is
/// never worse than a larger heap of the same element). Every prefix of the walk's word is
/// the representative of its own element.
fn least_representatives(st: &Stage, heaps: &Heaps<'_>, ctl: &Control) -> Result<Vec<Vec<u64>>> {
    let mut letters: Vec<(u64, u32)> = Vec::new();
    for h in 1..st.heap_map.len() as u64 {
        let g = st.heap_map[h as usize];
        if heaps.has_moves(h) && g != 0 && !letters.iter().any(|&(_, e)| e == g) {
            letters.push((h, g));
        }
    }
    let mut size = vec![u64::MAX; st.q];
    let mut from: Vec<(u32, u64)> = vec![(u32::MAX, 0); st.q];
    let mut done = vec![false; st.q];
    let mut queue = BinaryHeap::from([Reverse((0u64, 0u32))]);
    size[0] = 0;
    while let Some(Reverse((s, a))) = queue.pop() {
        if done[a as usize] {
            continue;
        }
        done[a as usize] = true;
        ctl.tick()?;
        for &(h, g) in &letters {
            let b = st.m(a, g);
            if s + weight(h) < size[b as usize] {
                size[b as usize] = s + weight(h);
                from[b as usize] = (a, h);
                queue.push(Reverse((s + weight(h), b)));
            }
        }
    }
    let mut reps = vec![Vec::new(); st.q];
    let mut order: Vec<u32> = (0..st.q as u32).collect();
    order.sort_by_key(|&a| size[a as usize]);
    for &a in &order {
        if a == 0 {
            continue;
        }
        let (p, h) = from[a as usize];
        if p == u32::MAX {
            return Err(Error::Internal(format!(
                "misère quotient: element {a} is not a product of heaps"
            )));
        }
        let mut r = reps[p as usize].clone();
        r.push(h);
        r.sort_unstable();
        reps[a as usize] = r;
    }
    Ok(reps)
}

/// The candidate `Q_n` obtained from the base `st` (`Q_{n-1}` or a refinement of it, see
/// [`refine`]) by adjoining heap `n` (`heaps.top()`), as described in the module
/// documentation; at most `max_order` elements. Also returns the *labels*: the candidate's
/// element of each base element `b` (the class of the pair `(b, 0)`), a homomorphism from the
/// base into the candidate.
pub(crate) fn extend(
    st: &Stage,
    heaps: &mut Heaps<'_>,
    max_order: usize,
    ctl: &Control,
) -> Result<(Stage, Vec<u32>)> {
    let n = heaps.top();
    let q = st.q;
    let reps = least_representatives(st, heaps, ctl)?;
    let size: Vec<u64> = reps
        .iter()
        .map(|r| r.iter().map(|&h| weight(h)).sum())
        .collect();
    let mut rep_opts: Vec<Vec<u32>> = Vec::with_capacity(q);
    let mut opts_mem = ctl.reserve(0, "misère quotient option classes")?;
    for r in &reps {
        ctl.tick()?;
        let mut v: Vec<u32> = heaps
            .position_options(r)?
            .iter()
            .map(|o| st.image(o))
            .collect();
        v.sort_unstable();
        v.dedup();
        opts_mem.grow((v.len() * 4 + 24) as u64, "misère quotient option classes")?;
        rep_opts.push(v);
    }
    let g_opts = heaps.heap_type(st, n, 0)?.opts;
    let mut by_size: Vec<u32> = (0..q as u32).collect();
    by_size.sort_by_key(|&a| size[a as usize]);
    // Columns o(·, k) (true: P), until one repeats.
    let mut cols: Vec<Vec<bool>> = vec![st.p.clone()];
    let mut seen: HashMap<Vec<bool>, usize> = HashMap::from([(st.p.clone(), 0)]);
    let mut cols_mem = ctl.reserve(q as u64, "misère quotient columns")?;
    let (pre, per) = loop {
        ctl.stop_check()?;
        let k = cols.len();
        if k > MAX_EXPONENT {
            return Err(Error::limit(
                crate::LimitKind::Positions,
                format!("copies of heap {n} kept changing outcomes for {MAX_EXPONENT} copies"),
                "use a smaller heap bound",
            ));
        }
        let prev = &cols[k - 1];
        let mut col = vec![false; q];
        for &a in &by_size {
            let a = a as usize;
            col[a] = rep_opts[a].iter().all(|&b| !col[b as usize])
                && g_opts.iter().all(|&g| !prev[st.m(a as u32, g) as usize]);
        }
        if let Some(&m) = seen.get(&col) {
            break (m, k - m);
        }
        cols_mem.grow(q as u64 + 64, "misère quotient columns")?;
        seen.insert(col.clone(), k);
        cols.push(col);
    };
    let len = pre + per;
    let red = |e: usize| if e < len { e } else { pre + (e - pre) % per };
    // The pairs (a, k), a·len + k, are told apart by their signatures, bit (c, j) being
    // o(a·c, k + j). Every multiplier (c, j) is a word in the base's letters (the elements of
    // the heaps, which generate it) and in t = (1, 1), so two pairs have one signature exactly
    // when Moore's partition refinement of the automaton (pairs; letters acting as
    // (a, k)·g = (a·g, k), (a, k)·t = (a, k + 1) reduced; accepting o) leaves them in one
    // class: the classes are the minimal automaton's states.
    let mut gens: Vec<u32> = Vec::new();
    for h in 1..st.heap_map.len() as u64 {
        let g = st.heap_map[h as usize];
        if heaps.has_moves(h) && g != 0 && !gens.contains(&g) {
            gens.push(g);
        }
    }
    let pairs = q * len;
    let nl = gens.len() + 1;
    let _sig_mem = ctl.reserve(
        (pairs * (2 * nl + 6) * 4) as u64,
        "misère quotient signatures",
    )?;
    let mut trans = vec![0u32; pairs * nl];
    for a in 0..q {
        ctl.tick()?;
        for k in 0..len {
            let row = &mut trans[(a * len + k) * nl..(a * len + k + 1) * nl];
            for (x, &g) in row.iter_mut().zip(&gens) {
                *x = (st.m(a as u32, g) as usize * len + k) as u32;
            }
            row[nl - 1] = (a * len + red(k + 1)) as u32;
        }
    }
    let mut class: Vec<u32> = (0..pairs).map(|i| cols[i % len][i / len] as u32).collect();
    let count = moore(&mut class, &trans, nl, ctl)?;
    drop(trans);
    // Classes numbered in the order of their least representatives.
    let mut order: Vec<usize> = (0..pairs).collect();
    order.sort_by_key(|&i| (size[i / len] + (i % len) as u64 * weight(n), i));
    let mut renum = vec![u32::MAX; count];
    let mut firsts: Vec<usize> = Vec::new();
    for &i in &order {
        let c = &mut renum[class[i] as usize];
        if *c == u32::MAX {
            *c = firsts.len() as u32;
            firsts.push(i);
        }
    }
    if firsts.len() > max_order {
        return Err(super::build::too_many(max_order, n));
    }
    let cls: Vec<u32> = class.iter().map(|&c| renum[c as usize]).collect();
    let nq = firsts.len();
    let _mul_mem = ctl.reserve((nq * nq * 4) as u64, "misère quotient table")?;
    let pair = |a: u32, k: usize| cls[a as usize * len + k];
    let mut mul = vec![0u32; nq * nq];
    for (x, &rx) in firsts.iter().enumerate() {
        ctl.tick()?;
        let (a, k) = ((rx / len) as u32, rx % len);
        for (y, &ry) in firsts.iter().enumerate() {
            let (b, l) = ((ry / len) as u32, ry % len);
            mul[x * nq + y] = pair(st.m(a, b), red(k + l));
        }
    }
    let p = firsts.iter().map(|&r| cols[r % len][r / len]).collect();
    let new_reps = firsts
        .iter()
        .map(|&r| {
            let mut w = reps[r / len].clone();
            w.extend(std::iter::repeat_n(n, r % len));
            w
        })
        .collect();
    let mut heap_map: Vec<u32> = st.heap_map.iter().map(|&e| pair(e, 0)).collect();
    heap_map.push(pair(0, red(1)));
    let labels = (0..q as u32).map(|b| pair(b, 0)).collect();
    Ok((
        Stage {
            q: nq,
            mul,
            letters: None,
            p,
            heap_map,
            reps: new_reps,
        },
        labels,
    ))
}

/// `out |= { c : row[c] ∈ d }` for the row `row[c] = b·c` of an element `b`: the multipliers
/// `c` with `b·c` in the set `d` (bit sets, 64 elements a word), without branches.
pub(crate) fn pull_back(row: &[u32], d: &[u64], out: &mut [u64]) {
    for (x, chunk) in out.iter_mut().zip(row.chunks(64)) {
        let mut acc = 0u64;
        for (i, &e) in chunk.iter().enumerate() {
            acc |= (d[(e >> 6) as usize] >> (e & 63) & 1) << i;
        }
        *x |= acc;
    }
}

/// The most elements a refined base ([`refine`]) may have.
pub const MAX_BASE: usize = 4096;

/// The refinement of a base `st` for heaps below `n = heaps.top()` by a candidate `cand` (a
/// monoid with P-portion `P` and a homomorphism `π` from the base, given by `labels`): the
/// monoid of the pairs `(Φ(y), D(y))`, where `Φ` is the base's map and
///
/// > `D(y) = { c ∈ cand : π(Φ(y'))·c ∈ P for some option y' of y }`,
///
/// the multipliers `c` for which the candidate says `y + z` (`z` of class `c`) has a winning
/// move inside `y`: the sets of the `certificate` module, for the sums below heap `n`.
///
/// **It is a monoid and a refinement.** For sums `y`, `w`, the options of `y + w` are the
/// options of `y` plus `w` and `y` plus the options of `w`, and `π∘Φ` is a homomorphism, so
///
/// > `D(y + w) = π(Φ(w))⁻¹·D(y) ∪ π(Φ(y))⁻¹·D(w)`, where `b⁻¹·D = { c : b·c ∈ D }`:
///
/// the pair of a sum is a function of the pairs of its parts, and the product
/// `(a, D)(b, E) = (ab, π(b)⁻¹D ∪ π(a)⁻¹E)` (commutative, with identity `(1, ∅)`) makes the
/// map `y ↦ (Φ(y), D(y))` a homomorphism onto the pairs reached (by the heaps below `n`, so
/// every pair is the image of a sum). Its kernel is contained in the kernel of `Φ`, and
/// `(a, D)` is a P-element when `a` is. In Kayles over heaps up to 8, `[5] + [5]` and `0` have
/// one element of `Q_8` but different sets `D`: the refinement tells apart what heap 9 tells
/// apart.
///
/// **Why these sets.** The column construction over a base needs of the options of a sum `y`
/// only whether one of them, beside `k` copies of heap `n` and a multiplier, is a P-position:
/// in the candidate that is `t^k·c ∈ D(y)` (`t` the element of heap `n`). `D` records exactly
/// that, and no more, so the refinement stays small where the sets of the options' classes
/// themselves would multiply.
///
/// **When it stops.** If the refinement has no more elements than its base, the two induce
/// the same partition of the sums (the map from the refinement onto the base is onto), so the
/// base element of a sum `y` determines `D(y)`. The columns computed for the least
/// representative of `Φ(y)` then satisfy the recursion of the module documentation at every
/// representative (a move inside `y` to a P-position beside `k` copies exists exactly when
/// `t^k ∈ D(y)`), and by induction on `y` and the copies `k` the outcome of `y + k·[n]` is the
/// column value of `(Φ(y), k)`: the candidate is the quotient of `H_n`. Before that point a
/// refined base's extension is a candidate like any other and is certified. `None` when the
/// refinement has more than `max_base` elements (at most [`MAX_BASE`]).
pub(crate) fn refine(
    st: &Stage,
    cand: &Stage,
    labels: &[u32],
    below: u64,
    max_base: usize,
    heaps: &mut Heaps<'_>,
    ctl: &Control,
) -> Result<Option<Stage>> {
    let q = cand.q;
    let w = q.div_ceil(64);
    let mut mem = ctl.reserve((q * w * 8) as u64, "misère quotient refinement")?;
    // pd[u] = { c : u·c ∈ P }.
    let mut pd = vec![0u64; q * w];
    for u in 0..q {
        for c in 0..q {
            if cand.p[cand.m(u as u32, c as u32) as usize] {
                pd[u * w + c / 64] |= 1 << (c % 64);
            }
        }
    }
    // π(b)⁻¹·D, read off the row of π(b) (the monoid is commutative).
    let act = |d: &[u64], b: u32, out: &mut [u64]| {
        let b = labels[b as usize] as usize;
        pull_back(&cand.mul[b * q..(b + 1) * q], d, out);
    };
    let product = |x: &(u32, Vec<u64>), y: &(u32, Vec<u64>)| {
        let mut u = vec![0u64; w];
        act(&x.1, y.0, &mut u);
        act(&y.1, x.0, &mut u);
        (st.m(x.0, y.0), u)
    };
    // The letters: the pair of each heap with moves below n.
    let top = below;
    let mut letters: Vec<(u32, Vec<u64>)> = Vec::new();
    let mut letter_of: Vec<u32> = vec![u32::MAX; top as usize];
    let mut letter_heap: Vec<u64> = Vec::new();
    for h in 1..top {
        ctl.tick()?;
        if !heaps.has_moves(h) {
            continue;
        }
        let mut u = vec![0u64; w];
        for o in heaps.options_shared(h)?.iter() {
            let e = labels[st.image(o) as usize] as usize;
            for (x, y) in u.iter_mut().zip(&pd[e * w..e * w + w]) {
                *x |= y;
            }
        }
        let l = (st.heap_map[h as usize], u);
        letter_of[h as usize] = match letters.iter().position(|x| *x == l) {
            Some(i) => i as u32,
            None => {
                letters.push(l);
                letter_heap.push(h);
                (letters.len() - 1) as u32
            }
        };
    }
    // The elements reached from the identity, breadth first, with their transitions.
    let mut elems: Vec<(u32, Vec<u64>)> = vec![(0, vec![0u64; w])];
    let mut index: HashMap<(u32, Vec<u64>), u32> = HashMap::from([(elems[0].clone(), 0)]);
    let mut parent: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX)];
    let nl = letters.len();
    let mut trans: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < elems.len() {
        ctl.tick()?;
        for (l, letter) in letters.iter().enumerate() {
            let x = product(&elems[i], letter);
            let id = match index.get(&x) {
                Some(&id) => id,
                None => {
                    if elems.len() >= max_base.min(MAX_BASE) {
                        return Ok(None);
                    }
                    mem.grow((16 * w + 8 * nl + 64) as u64, "misère quotient refinement")?;
                    let id = elems.len() as u32;
                    index.insert(x.clone(), id);
                    elems.push(x);
                    parent.push((i as u32, l as u32));
                    id
                }
            };
            trans.push(id);
        }
        i += 1;
    }
    let nb = elems.len();
    mem.grow((nb * nb * 4) as u64, "misère quotient refinement table")?;
    // x·y = (x·parent(y))·letter(y), y taken in the order reached.
    let mut mul = vec![0u32; nb * nb];
    for x in 0..nb {
        ctl.tick()?;
        mul[x * nb] = x as u32;
        for y in 1..nb {
            let (py, l) = parent[y];
            let xp = mul[x * nb + py as usize] as usize;
            mul[x * nb + y] = trans[xp * nl + l as usize];
        }
    }
    let mut reps: Vec<Vec<u64>> = vec![Vec::new(); nb];
    for y in 1..nb {
        let (py, l) = parent[y];
        let mut r = reps[py as usize].clone();
        r.push(letter_heap[l as usize]);
        r.sort_unstable();
        reps[y] = r;
    }
    let heap_map = (0..top)
        .map(|h| match letter_of[h as usize] {
            u32::MAX => 0,
            l => trans[l as usize],
        })
        .collect();
    Ok(Some(Stage {
        q: nb,
        mul,
        letters: None,
        p: elems.iter().map(|(a, _)| st.p[*a as usize]).collect(),
        heap_map,
        reps,
    }))
}
