//! Brute-force solutions of the finite games obtained by replacing "any natural number" with
//! "any number below `b`" — the truncation oracle. With every heap below `b`, the level games'
//! values must be the ordinal values with ω replaced by `b` (the coefficients stay below `b`,
//! so xor stays coefficient-wise).

use super::super::reference::grundy;
use super::{FreeSet, IncreaseRule};
use std::collections::HashMap;

/// The sets of vertices a move at `v` may set freely: every path's vertices (path rule) or
/// the successors (successor rule).
fn free_sets(succ: &[Vec<usize>], rule: FreeSet, v: usize) -> Vec<Vec<usize>> {
    match rule {
        FreeSet::Successors => vec![succ[v].clone()],
        FreeSet::Path => {
            let mut out = vec![vec![]];
            let mut stack: Vec<Vec<usize>> = vec![vec![v]];
            while let Some(path) = stack.pop() {
                let last = *path.last().unwrap_or(&v);
                for &u in &succ[last] {
                    let mut p = path.clone();
                    p.push(u);
                    out.push(p[1..].to_vec());
                    stack.push(p);
                }
            }
            out
        }
    }
}

/// The Grundy value of a level game's position in the truncated game (heaps `< b`), by a
/// plain mex search over every option.
pub fn level_game_truncated(succ: &[Vec<usize>], rule: FreeSet, heaps: &[u64], b: u64) -> u64 {
    let options = |h: &Vec<u64>| -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for v in 0..h.len() {
            for free in free_sets(succ, rule, v) {
                for a in 0..h[v] {
                    // Every assignment of values below b to the free vertices.
                    let count = b.pow(free.len() as u32);
                    for code in 0..count {
                        let mut q = h.clone();
                        q[v] = a;
                        let mut c = code;
                        for &u in &free {
                            q[u] = c % b;
                            c /= b;
                        }
                        out.push(q);
                    }
                }
            }
        }
        out
    };
    grundy(&heaps.to_vec(), &options, &mut HashMap::new())
}

/// The size bound of an increase that leaves `s` tokens, in the truncation of
/// [`increases_truncated`] (`top` is the largest token count of the position).
///
/// The bound must not cut off a kind of move that the infinite game always has, or the
/// values near the bound change and the change travels down through the tokens:
/// * optional increases: below `b + s`. With zero increases allowed, `g(m, s) = m − s`, so
///   the sizes `m < b + s` give exactly the naturals below `b` (a flat bound `b` would
///   leave the values `b − s ..` missing and lower the mex).
/// * forced increases by at least one: below `b + top − s`, so that a heap at the bound
///   for `s` tokens still has a larger size under the bound for `s − 1` (a stuck heap
///   would have value 0 instead of `(s−1) mod 2`).
/// * forced increases that may add zero: below `b` (a heap can always stay).
pub fn increase_bound(rule: IncreaseRule, b: u64, top: u64, s: u64) -> u64 {
    match (rule.forced, rule.zero_allowed) {
        (false, _) => b + s,
        (true, false) => b + top - s,
        (true, true) => b,
    }
}

/// The Grundy value of a sum of heaps `(n, t)` (all `n < b`) of nim with increases,
/// truncated: an increase leaving `s` tokens goes to a size below
/// [`increase_bound`]`(rule, b, top, s)`. It must be the ordinal value with ω replaced by
/// `b`.
pub fn increases_truncated(rule: IncreaseRule, heaps: &[(u64, u64)], b: u64) -> u64 {
    let top = heaps.iter().map(|h| h.1).max().unwrap_or(0);
    let options = |h: &Vec<(u64, u64)>| -> Vec<Vec<(u64, u64)>> {
        let mut out = Vec::new();
        for (i, &(n, t)) in h.iter().enumerate() {
            if !rule.forced || t == 0 {
                for m in 0..n {
                    let mut q = h.clone();
                    q[i] = (m, t);
                    out.push(q);
                }
            }
            if t > 0 {
                let lo = if rule.zero_allowed { n } else { n + 1 };
                for m in lo..increase_bound(rule, b, top, t - 1) {
                    let mut q = h.clone();
                    q[i] = (m, t - 1);
                    out.push(q);
                }
            }
        }
        out
    };
    grundy(&heaps.to_vec(), &options, &mut HashMap::new())
}
