//! The quotient as the syntactic monoid of the P-positions, learned from exact outcomes.
//!
//! **The quotient is a minimal automaton.** Read a sum of heaps as a word over the alphabet of
//! heap sizes (in any order: sums are commutative). The P-positions of `H_n` form a language
//! `L`, and `x ≡ y` over `H_n` says `x·z ∈ L ⇔ y·z ∈ L` for every word `z`: this is the
//! Myhill–Nerode congruence of `L`. So the elements of `Q_n` are the states of the minimal
//! deterministic automaton of `L` (the state of `x` is its class), the P-portion its accepting
//! states, and the product `Φ(x)·Φ(y)` the state reached from `Φ(x)` by reading `y`.
//!
//! **Learning it.** The automaton is found with an observation table (Angluin's L*, with
//! counterexamples handled by adding all their suffixes as in Maler and Pnueli's variant):
//!
//! - `S` is a prefix-closed set of words with pairwise distinct rows, `E` a suffix-closed set
//!   of words containing the empty word, and the row of a word `s` is the vector of outcomes
//!   of the sums `s·e`, `e ∈ E` (exact: [`Outcomes`]).
//! - The table is *closed* when every `s·h` (`s ∈ S`, `h` a heap) has the row of some `s' ∈ S`:
//!   missing rows are added to `S`. The hypothesis then has the states `S`, the transitions
//!   `s —h→ s'`, and accepts the states whose empty-suffix entry is P. By induction on `e`, it
//!   accepts `s·e` exactly when the table says `s·e` is P, for `s ∈ S ∪ S·Σ`, `e ∈ E`.
//! - Its states are pairwise told apart by a suffix in `E`, so the monoid read off it is
//!   reduced, and every state is reached (by its word in `S`), so the map is surjective.
//! - **A monoid.** If reading `g` then `h` and `h` then `g` lead to the same state from every
//!   state, the state reached by a word depends only on its multiset; then
//!   `δ(p, y) = δ(p, y')` whenever `y`, `y'` reach the same state from the start (write
//!   `p = δ(start, x)`: `δ(p, y) = δ(start, y·x) = δ(δ(start, y), x)`), so the product
//!   `p·r = δ(p, word of r)` is well defined, commutative and associative, and `Φ` is a
//!   homomorphism. If two orders disagree at a state, they lead to states with different rows
//!   at some `e ∈ E`; the two words then differ only in order but the hypothesis answers them
//!   differently, so one of them is a counterexample.
//! - The candidate monoid is checked by the `certificate` module. If condition (iii) fails at a
//!   sum `x`, then `Φ` is wrong at `x` or at one of its options (were it right at all of them,
//!   (iii) would hold at `x`, being the definition of the outcome): that sum, whose outcome the
//!   hypothesis gets wrong, is the counterexample.
//! - A counterexample's suffixes are added to `E`; the new hypothesis answers it correctly, so
//!   it has more states. As the minimal automaton has `|Q_n|` states, the loop ends, with the
//!   certified quotient.

use super::build::{Outcomes, Stage};
use crate::control::Control;
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};

/// Learns the quotient of `H_n`, `n` the newest heap of `out`; `seeds` are words whose
/// suffixes start the table's `E` (the representatives of the previous quotient).
pub(crate) fn learn(
    out: &mut Outcomes<'_, '_>,
    seeds: &[Vec<u64>],
    max_order: usize,
    ctl: &Control,
) -> Result<Stage> {
    let n = out.heaps.top();
    let letters: Vec<u64> = (1..=n).filter(|&h| out.heaps.has_moves(h)).collect();
    let nl = letters.len();
    let mut suffixes: Vec<Vec<u64>> = vec![vec![]];
    let mut in_e: HashSet<Vec<u64>> = HashSet::from([vec![]]);
    let mut add_suffixes = |suffixes: &mut Vec<Vec<u64>>, w: &[u64]| {
        for k in 0..w.len() {
            if in_e.insert(w[k..].to_vec()) {
                suffixes.push(w[k..].to_vec());
            }
        }
    };
    for s in seeds {
        add_suffixes(&mut suffixes, s);
    }
    loop {
        ctl.stop_check()?;
        // Close the table.
        let mut words: Vec<Vec<u64>> = vec![vec![]];
        let mut rows: Vec<Vec<bool>> = Vec::new();
        let mut by_row: HashMap<Vec<bool>, u32> = HashMap::new();
        let mut by_sum: HashMap<Vec<u64>, u32> = HashMap::new();
        let mut trans: Vec<u32> = Vec::new();
        let row = |out: &mut Outcomes<'_, '_>, w: &[u64]| -> Result<Vec<bool>> {
            let mut r = Vec::with_capacity(suffixes.len());
            for e in &suffixes {
                let mut x: Vec<u64> = w.iter().chain(e).copied().collect();
                x.sort_unstable();
                r.push(out.is_p(&x)?);
            }
            Ok(r)
        };
        let r0 = row(out, &[])?;
        by_row.insert(r0.clone(), 0);
        rows.push(r0);
        by_sum.insert(vec![], 0);
        let mut i = 0;
        while i < words.len() {
            for &h in &letters {
                let mut w = words[i].clone();
                w.push(h);
                let mut sum = w.clone();
                sum.sort_unstable();
                let id = match by_sum.get(&sum) {
                    Some(&id) => id,
                    None => {
                        let r = row(out, &w)?;
                        let id = match by_row.get(&r) {
                            Some(&id) => id,
                            None => {
                                if words.len() >= max_order {
                                    return Err(Error::limit(
                                        crate::LimitKind::Positions,
                                        format!(
                                            "the misère quotient has more than {max_order} \
                                             elements once heap {n} is adjoined"
                                        ),
                                        "use a smaller heap bound",
                                    ));
                                }
                                let id = words.len() as u32;
                                by_row.insert(r.clone(), id);
                                rows.push(r);
                                words.push(w);
                                id
                            }
                        };
                        by_sum.insert(sum, id);
                        id
                    }
                };
                trans.push(id);
            }
            i += 1;
        }
        let q = words.len();
        let t = |s: u32, l: usize| trans[s as usize * nl + l];
        // Transitions must commute.
        let mut cex = None;
        'comm: for s in 0..q as u32 {
            ctl.tick()?;
            for g in 0..nl {
                for h in g + 1..nl {
                    let (q1, q2) = (t(t(s, g), h), t(t(s, h), g));
                    if q1 == q2 {
                        continue;
                    }
                    let (r1, r2) = (&rows[q1 as usize], &rows[q2 as usize]);
                    let Some(j) = (0..suffixes.len()).find(|&j| r1[j] != r2[j]) else {
                        return Err(Error::Internal(
                            "misère quotient: two states with one row".into(),
                        ));
                    };
                    let mut w1 = words[s as usize].clone();
                    w1.extend([letters[g], letters[h]]);
                    w1.extend(&suffixes[j]);
                    let mut w2 = words[s as usize].clone();
                    w2.extend([letters[h], letters[g]]);
                    w2.extend(&suffixes[j]);
                    cex = Some(if out.is_p_word(&w1)? != r1[j] { w1 } else { w2 });
                    break 'comm;
                }
            }
        }
        if let Some(w) = cex {
            add_suffixes(&mut suffixes, &w);
            continue;
        }
        // The monoid.
        let run = |mut s: u32, w: &[u64]| {
            for &h in w {
                s = t(s, letters.partition_point(|&l| l < h));
            }
            s
        };
        let _mem = ctl.reserve((q * q * 4) as u64, "misère quotient table")?;
        let mut mul = vec![0u32; q * q];
        for a in 0..q {
            for b in 0..q {
                mul[a * q + b] = run(a as u32, &words[b]);
            }
        }
        let heap_map = (0..=n)
            .map(|h| {
                if h > 0 && out.heaps.has_moves(h) {
                    run(0, &[h])
                } else {
                    0
                }
            })
            .collect();
        let st = Stage {
            q,
            mul,
            letters: None,
            p: rows.iter().map(|r| r[0]).collect(),
            heap_map,
            reps: words,
        };
        // The certificate.
        let types = out.heaps.types(&st, ctl)?;
        let cert = super::certificate::check(&st, &types, ctl)?;
        let Some(mut x) = cert else {
            return Ok(st);
        };
        x.sort_unstable();
        let mut found = None;
        if out.is_p(&x)? != st.p[st.image(&x) as usize] {
            found = Some(x.clone());
        } else {
            for y in out.heaps.position_options(&x)? {
                if out.is_p(&y)? != st.p[st.image(&y) as usize] {
                    found = Some(y);
                    break;
                }
            }
        }
        let Some(w) = found else {
            return Err(Error::Internal(format!(
                "misère quotient: the certificate fails at {x:?}, but the outcomes of it and \
                 its options agree with the candidate"
            )));
        };
        add_suffixes(&mut suffixes, &w);
    }
}
