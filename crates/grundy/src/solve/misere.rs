//! Misère play: the player who cannot move *wins*.
//!
//! Outcomes of any explicit graph under misère play come from the retrograde solver with
//! terminal positions counted as N: [`super::outcome::solve`] with [`Play::Misere`](super::Play::Misere). Sums do
//! not follow the xor rule under misère play, but Nim does follow a rule:
//!
//! **Bouton's rule for misère Nim** (Bouton 1901). If some heap has two or more counters, the
//! position is P iff the xor of the heaps is 0 (as in normal play). If every heap has at most
//! one counter, it is P iff the number of heaps of size 1 is odd.
//!
//! *Why* (induction on the number of counters). With all heaps at most 1 every move removes
//! one single heap and parity decides. With exactly one big heap the player to move wins by
//! reducing it to 0 or 1 so as to leave an odd number of single heaps: N, and the xor is not 0
//! there (the big heap's high bits cannot be cancelled by heaps of size ≤ 1). With two or more
//! big heaps and xor 0, a move changes one heap, so a big heap remains and the xor becomes
//! non-zero: the result is N (one big heap: above; two or more: induction), so the position is
//! P. With two or more big heaps and xor ≠ 0, the normal-play move to xor 0 cannot leave a
//! single big heap (its xor would not be 0) nor none (a big heap is untouched): it reaches P.

use super::Outcome;

/// The misère outcome of a Nim position (Bouton's rule).
pub fn misere_nim_outcome(heaps: &[u64]) -> Outcome {
    let big = heaps.iter().any(|&h| h >= 2);
    let p = if big {
        heaps.iter().fold(0, |x, &h| x ^ h) == 0
    } else {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
    };
    if p {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// Every winning move of a misère Nim position, as `(heap index, new size)`, ascending by
/// index; empty for P positions.
///
/// A move of heap `i` to `s < hᵢ` wins iff the result is P. If another heap is big, the result
/// has a big heap, so it is P iff `s` is the xor `xᵢ` of the other heaps. Otherwise a result
/// with `s ≥ 2` would have one big heap and be N; with `s ≤ 1` it is P iff the number of
/// single heaps, `onesᵢ + s`, is odd: `s = (onesᵢ + 1) mod 2`.
pub fn misere_nim_winning_moves(heaps: &[u64]) -> Vec<(usize, u64)> {
    let total = heaps.iter().fold(0, |x, &h| x ^ h);
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
    let mut moves = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        let others_big = big - usize::from(h >= 2) > 0;
        let s = if others_big {
            total ^ h
        } else {
            let ones_others = ones - u64::from(h == 1);
            (ones_others + 1) % 2
        };
        if s < h {
            moves.push((i, s));
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::game::examples::NimHeap;
    use crate::game::graph::explore;
    use crate::game::sum::SumOf;
    use crate::solve::{outcome, Play};
    use std::collections::HashMap;

    #[test]
    fn bouton_matches_retrograde_analysis_of_the_game_graph() {
        // All positions of up to 3 heaps of at most 5 counters, solved as explicit graphs.
        for k in 0..=3usize {
            let start = vec![5u64; k];
            let e = explore(&SumOf(NimHeap), &[start], 1 << 16, &Control::none()).unwrap();
            let o = outcome::solve(&e.graph, Play::Misere, &Control::none()).unwrap();
            let id: HashMap<&Vec<u64>, u32> = e
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| (p, i as u32))
                .collect();
            for (i, p) in e.positions.iter().enumerate() {
                assert_eq!(misere_nim_outcome(p), o.outcome(i as u32), "{p:?}");
                let mut expected: Vec<u32> = o.winning_moves(&e.graph, i as u32);
                expected.sort_unstable();
                let mut got: Vec<u32> = misere_nim_winning_moves(p)
                    .into_iter()
                    .map(|(j, s)| {
                        let mut q = p.clone();
                        q[j] = s;
                        id[&q]
                    })
                    .collect();
                got.sort_unstable();
                assert_eq!(got, expected, "{p:?}");
            }
        }
    }
}
