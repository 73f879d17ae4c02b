//! The generalized Sprague-Grundy function `γ` in bulk-synchronous rounds: the stage-wise
//! labelling with counters of [`crate::solve::loopy`], its events carried as messages.
//!
//! Stage `i` labels `i` the open vertices that (1) have no option of value `i` and (2) whose
//! options without a finite value are all *reversible* (have an option of value `i`). Two kinds
//! of message travel along reverse arcs, both batched into one exchange a round:
//!
//! * **A** "an option of yours got the value `i`", from the option's owner to each
//!   predecessor's owner. The predecessor `w` is *hit* (it can no longer take `i`), its count of
//!   arcs to vertices without finite value drops by one, and, the first time in the stage, if
//!   `w` itself has no finite value it has just become reversible: it sends **B** to each of its
//!   predecessors.
//! * **B** "an option of yours without finite value became reversible": the predecessor's stage
//!   counter (its arcs to vertices without finite value at the start of the stage) drops by
//!   one; at 0 the vertex is ready and, unless hit, is labelled `i` and sends **A**.
//!
//! **Order does not matter.** The one-process solver takes ready vertices one at a time; here a
//! round labels all of them at once, and messages arrive a round late. A ready vertex `x` has
//! every option without finite value reversible, that is hit, so none of them can be labelled
//! `i`: labelling one ready vertex never blocks another, and `x` is never hit after it is
//! ready (an option labelled `i` is never reversible, so its arc is never counted down). The
//! labelled set of the stage, hence `γ` (which is unique), is the same. The stage ends when no
//! message moves; open vertices that are not hit then get `∞`, as in the one-process solver.
//!
//! **`K` of `∞(K)`.** A vertex that becomes `∞` at the end of stage `j` was hit in every stage
//! before (else it would have become `∞` earlier) and not in stage `j`, so `K ⊇ {0, …, j−1}`
//! and `j ∉ K`; the later values of `K` are the later stages in which it is hit, recorded as the
//! A messages arrive. No arc is looked at again for `K`.
//!
//! Per rank: 16 bytes a vertex (state word and stage counter), a bit (hit), the `K` values above
//! the first stage of the `∞` vertices, and a round's messages.

use super::graph::GraphPart;
use super::wire::{put, Read};
use super::{numbers, Bsp, Comm, Keyed, Outbox};
use crate::error::{Error, Result};
use crate::game::hash::FxHashMap;
use crate::solve::loopy::Gamma;

/// Flag of an open vertex's word (the rest counts its arcs to vertices without finite value).
const OPEN: u64 = 1 << 63;
/// Flag of an `∞` vertex's word (the rest is the stage `j` it became `∞` at). Finite values
/// are below it, and every word at or above it has no finite value.
const INFINITE: u64 = 1 << 62;

/// The `γ` values of the vertices a rank owns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopyShare {
    label: Vec<u64>,
    later: FxHashMap<u32, Vec<u64>>,
}

impl LoopyShare {
    /// The value of owned vertex `i`.
    pub fn value(&self, i: usize) -> Gamma {
        let l = self.label[i];
        if l < INFINITE {
            return Gamma::Finite(l);
        }
        let j = l & !INFINITE;
        let mut k: Vec<u64> = (0..j).collect();
        if let Some(more) = self.later.get(&(i as u32)) {
            k.extend_from_slice(more);
        }
        Gamma::Infinite(k)
    }
}

/// Bytes a rank needs for `n` owned vertices, besides the part and the messages.
pub fn bytes_needed(n: u64) -> u64 {
    16 * n + n.div_ceil(8) + 64
}

/// The state of a rank between two stages: every vertex's word (open, finite or `∞`), the `K`
/// values recorded so far, and the next stage. A checkpoint of the pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    label: Vec<u64>,
    later: FxHashMap<u32, Vec<u64>>,
    stage: u64,
}

impl Stage {
    /// The stage to run next.
    pub fn next(&self) -> u64 {
        self.stage
    }

    /// The state as bytes (varints).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put(&mut out, self.stage);
        put(&mut out, self.label.len() as u64);
        for &l in &self.label {
            put(&mut out, l);
        }
        let mut later: Vec<_> = self.later.iter().collect();
        later.sort_unstable();
        put(&mut out, later.len() as u64);
        for (&i, ks) in later {
            put(&mut out, u64::from(i));
            put(&mut out, ks.len() as u64);
            for &k in ks {
                put(&mut out, k);
            }
        }
        out
    }

    /// The state of a part of `n` vertices from [`Stage::to_bytes`] (bytes of another part are
    /// an error).
    pub fn from_bytes(bytes: &[u8], n: usize) -> Result<Stage> {
        let bad = || Error::invalid("a checkpoint of values that does not fit this graph");
        let mut r = Read::new(bytes);
        let stage = r.get()?;
        if r.get()? != n as u64 {
            return Err(bad());
        }
        let label = (0..n).map(|_| r.get()).collect::<Result<Vec<u64>>>()?;
        let mut later = FxHashMap::default();
        for _ in 0..r.get()? {
            let i = u32::try_from(r.get()?).map_err(|_| bad())?;
            let len = r.get()?;
            let ks = (0..len).map(|_| r.get()).collect::<Result<Vec<u64>>>()?;
            later.insert(i, ks);
        }
        if !r.is_empty() {
            return Err(bad());
        }
        Ok(Stage {
            label,
            later,
            stage,
        })
    }
}

/// Computes `γ` of the vertices of `part` (collective; see the module documentation).
pub fn solve<C: Comm + ?Sized>(bsp: &Bsp<'_, C>, part: &GraphPart) -> Result<LoopyShare> {
    solve_from(bsp, part, None, &mut |_, _| Ok(()))
}

/// [`solve`] from the state `from` (a checkpoint; `None`: the start), calling `finished` with
/// the state after each stage: `finished(state, false)` to save it, then, once every rank has
/// saved it, `finished(state, true)` (collective: the ranks agree on failures after each call).
pub fn solve_from<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    part: &GraphPart,
    from: Option<Stage>,
    finished: &mut dyn FnMut(&Stage, bool) -> Result<()>,
) -> Result<LoopyShare> {
    let n = part.len();
    let k = bsp.size() as u64;
    let ctl = bsp.control();
    let held =
        bsp.check(ctl.reserve(bytes_needed(n as u64), "the values of this rank's vertices"))?;
    let (mut label, mut later, mut stage) = match from {
        Some(s) => (s.label, s.later, s.stage),
        None => (
            (0..n).map(|i| OPEN | part.out_degree(i)).collect(),
            FxHashMap::default(),
            0,
        ),
    };
    let mut cnt = vec![0u64; n];
    let mut hit = vec![false; n];
    let mut open_count = label.iter().filter(|&&l| l & OPEN != 0).count() as u64;
    let mut labelled = n as u64 - open_count;
    let bad = || Error::Internal("a message for a vertex not owned here".into());
    loop {
        if bsp.sum(open_count) == 0 {
            break;
        }
        hit.fill(false);
        let mut ready: Vec<u32> = Vec::new();
        for u in 0..n {
            if label[u] & OPEN != 0 {
                cnt[u] = label[u] & !OPEN;
                if cnt[u] == 0 {
                    ready.push(u as u32);
                }
            }
        }
        let mut out = Outbox::new(bsp.size());
        loop {
            for &x in &ready {
                let x = x as usize;
                if label[x] & OPEN == 0 || hit[x] {
                    continue;
                }
                label[x] = stage;
                open_count -= 1;
                labelled += 1;
                for &w in part.predecessors(x) {
                    out.put(bsp.owner(w), (w / k) << 1);
                }
            }
            ready.clear();
            let checked: Result<Vec<Vec<u8>>, Keyed> =
                ctl.check(labelled).map(|()| out.to).map_err(|e| (0, e));
            let (inbox, total) = bsp.exchange(checked)?;
            out = Outbox::new(bsp.size());
            if total == 0 {
                break;
            }
            let mut apply = || -> Result<()> {
                for batch in &inbox {
                    let mut r = numbers(batch);
                    while !r.is_empty() {
                        let m = r.get()?;
                        let u = (m >> 1) as usize;
                        if u >= n {
                            return Err(bad());
                        }
                        if m & 1 == 0 {
                            // A: an option of u got the value `stage`.
                            if label[u] & OPEN != 0 {
                                label[u] -= 1;
                            }
                            if hit[u] {
                                continue;
                            }
                            hit[u] = true;
                            if label[u] < INFINITE {
                                continue;
                            }
                            if label[u] & OPEN == 0 {
                                later.entry(u as u32).or_default().push(stage);
                            }
                            for &x in part.predecessors(u) {
                                out.put(bsp.owner(x), (x / k) << 1 | 1);
                            }
                        } else if label[u] & OPEN != 0 {
                            // B: an option of u without finite value became reversible.
                            cnt[u] = cnt[u].checked_sub(1).ok_or_else(bad)?;
                            if cnt[u] == 0 {
                                ready.push(u as u32);
                            }
                        }
                    }
                }
                Ok(())
            };
            let applied = apply();
            bsp.check(applied)?;
        }
        for u in 0..n {
            if label[u] & OPEN != 0 && !hit[u] {
                label[u] = INFINITE | stage;
                open_count -= 1;
                labelled += 1;
            }
        }
        stage += 1;
        let mut state = Stage {
            label: std::mem::take(&mut label),
            later: std::mem::take(&mut later),
            stage,
        };
        let saved = finished(&state, false);
        bsp.check(saved)?;
        let committed = finished(&state, true);
        bsp.check(committed)?;
        label = std::mem::take(&mut state.label);
        later = std::mem::take(&mut state.later);
    }
    drop(held);
    Ok(LoopyShare { label, later })
}
