//! The misère quotient of Nim, written down rather than searched for.
//!
//! **Theorem** (Conway; Plambeck and Siegel's `T_k`). A sum of Nim heaps is a misère P-position
//! exactly when either every heap has at most one token and the nim-sum is 1, or some heap has
//! two or more and the nim-sum is 0. Two sums are therefore indistinguishable in misère play
//! (added to any third sum, both lose or both win) exactly when they have the same nim-sum and
//! both or neither hold a heap of two or more tokens: the quotient over heaps below `2^k`
//! (`k ≥ 2`) has the `2^k` elements `(v, big)` for the nim-sums `v < 2^k` with a heap of two or
//! more, and the two elements `1` (no heap) and `a` (one heap of one token); the product adds
//! nim-sums (xor) and ors the flags. Over heaps up to 1 it is `Z/2 = {1, a}`, over heap 0 the
//! trivial monoid.
//!
//! The elements are numbered as the general construction numbers them: in the order of their
//! least representatives by weight `Σ (2^20·h − 1)`: `1`, `a`, and for `(v, big)` the heaps of
//! the binary digits of `v` when `v ≥ 2`, else `2 + 2` (`v = 0`) or `1 + 2 + 2` (`v = 1`). A
//! test compares the result with the general construction for every bound up to 64.

use super::build::Stage;
use crate::control::Control;
use crate::error::Result;
use std::collections::HashMap;

/// An element: the nim-sum and whether a heap of two or more tokens is in the sum.
type Element = (u64, bool);

/// The least representative of an element (heaps in increasing order).
fn representative(&(v, big): &Element) -> Vec<u64> {
    match (v, big) {
        (0, false) => vec![],
        (_, false) => vec![1],
        (0, true) => vec![2, 2],
        (1, true) => vec![1, 2, 2],
        _ => (0..64)
            .filter(|i| (v >> i) & 1 == 1)
            .map(|i| 1u64 << i)
            .collect(),
    }
}

/// The weight of a sum of heaps, `Σ (2^20·h − 1)`.
fn weight(heaps: &[u64]) -> i128 {
    heaps.iter().map(|&h| ((h as i128) << 20) - 1).sum()
}

/// The quotient of misère Nim over heaps `0..=max_heap`, with at most `max_order` elements (the
/// limit error of the general construction beyond).
pub(crate) fn stage(max_heap: u64, max_order: usize, ctl: &Control) -> Result<Stage> {
    // Heaps below 2^k: the bit length of max_heap.
    let k = 64 - max_heap.leading_zeros();
    let mut elements: Vec<Element> = vec![(0, false)];
    if max_heap >= 1 {
        elements.push((1, false));
    }
    if max_heap >= 2 {
        if (1usize << k) + 2 > max_order {
            // The order first passes the bound when the power of two that doubles it is adjoined.
            let n = (1..k)
                .map(|j| 1u64 << j)
                .find(|&h| (2 * h as usize) + 2 > max_order)
                .unwrap_or(1 << (k - 1));
            return Err(super::build::too_many(max_order, n));
        }
        elements.extend((0..1u64 << k).map(|v| (v, true)));
    }
    let q = elements.len();
    let _table = ctl.reserve((q * q * 4) as u64, "the misère quotient's table")?;
    elements.sort_by_key(|e| weight(&representative(e)));
    let index: HashMap<Element, u32> = elements
        .iter()
        .enumerate()
        .map(|(i, &e)| (e, i as u32))
        .collect();
    let mut mul = Vec::with_capacity(q * q);
    for &(v, big) in &elements {
        for &(w, other) in &elements {
            mul.push(index[&(v ^ w, big || other)]);
        }
    }
    let heap_map = (0..=max_heap).map(|h| index[&(h, h >= 2)]).collect();
    Ok(Stage {
        q,
        mul,
        letters: None,
        p: elements
            .iter()
            .map(|&(v, big)| v == u64::from(!big))
            .collect(),
        heap_map,
        reps: elements.iter().map(representative).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{build, quotient_from_stage, MAX_ORDER};
    use crate::control::Control;
    use crate::heap::HeapGame;

    /// The quotient written down equals the one the general construction finds, element for
    /// element (names, table, P-portion, heap map, presentation), for every bound up to 64.
    #[test]
    fn nim_quotient_matches_the_general_construction() {
        let game: HeapGame = "nim".parse().unwrap();
        let ctl = Control::none();
        for n in 0..=64 {
            let general = build::build(
                &game,
                n,
                MAX_ORDER,
                build::Method::Full,
                &mut Vec::new(),
                &ctl,
            )
            .unwrap();
            let direct = super::stage(n, MAX_ORDER, &ctl).unwrap();
            let (g, d) = (
                quotient_from_stage(&game, general),
                quotient_from_stage(&game, direct),
            );
            assert_eq!(format!("{g:?}"), format!("{d:?}"), "heaps up to {n}");
        }
    }

    /// Beyond the bound on the order, the same limit error as the general construction.
    #[test]
    fn the_order_bound_is_kept() {
        let game: HeapGame = "nim".parse().unwrap();
        let ctl = Control::none();
        let general =
            build::build(&game, 40, 20, build::Method::Full, &mut Vec::new(), &ctl).map(|_| ());
        let direct = super::stage(40, 20, &ctl).map(|_| ());
        assert!(general.is_err());
        assert_eq!(general, direct);
    }
}
