//! The Tartan theorem (Conway, *On Numbers and Games*, ch. 14): for acyclic games `G`, `H`, the
//! pair `(g, h)` in the product game [`Product`](crate::game::product::Product) has the value
//! `G(g) ⊗ G(h)`, the nim product of the factors' values, and a set of pairs has the xor of its
//! pairs' values.
//!
//! *Why.* The options of `{(g, h)}` are the sets `{(g', h), (g, h'), (g', h')}`, of value
//! `G(g')⊗G(h) ⊕ G(g)⊗G(h') ⊕ G(g')⊗G(h')` by induction. As `g'` ranges over the options of
//! `g`, `G(g')` takes every value below `G(g)` (and perhaps larger ones), likewise for `h'`; so
//! the mex is Conway's definition `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`, the
//! larger option values being excluded from the mex by the usual argument (they are reversible
//! in Nim). The xor for sets is the sum rule: coins on distinct squares are independent games.

use crate::game::Game;

/// The nim product of two 64-bit nimbers, by the field's fast kernel
/// (`nimber::kernel::mul64`: a basis change to a polynomial basis and a carry-less
/// multiply), which is checked against Conway's definition in the `nimber` module.
pub fn nim_mul(a: u64, b: u64) -> u64 {
    crate::nimber::kernel::mul64(a, b)
}

/// The value of a product position from the Grundy values of the pairs' coordinates, by the
/// Tartan theorem: `⊕ G(g) ⊗ G(h)` over the pairs. `value_g`, `value_h` are the factors'
/// Grundy functions.
pub fn product_value<A: Game, B: Game>(
    set: &[(A::Position, B::Position)],
    mut value_g: impl FnMut(&A::Position) -> u64,
    mut value_h: impl FnMut(&B::Position) -> u64,
) -> u64 {
    set.iter()
        .fold(0, |acc, (g, h)| acc ^ nim_mul(value_g(g), value_h(h)))
}

#[cfg(any(test, feature = "testing"))]
/// Definition-level nim multiplication.
pub mod reference {
    /// `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }` (Conway), as a table for
    /// `a, b < n`.
    pub fn nim_mul_table(n: usize) -> Vec<Vec<u64>> {
        let mut t = vec![vec![0u64; n]; n];
        for a in 0..n {
            for b in 0..n {
                let mut seen = Vec::new();
                for a2 in 0..a {
                    for b2 in 0..b {
                        seen.push(t[a2][b] ^ t[a][b2] ^ t[a2][b2]);
                    }
                }
                t[a][b] = (0..).find(|x| !seen.contains(x)).expect("mex exists");
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::examples::{NimHeap, Subtraction};
    use crate::game::product::Product;
    use crate::solve::acyclic::AcyclicSolver;

    #[test]
    fn nim_mul_matches_the_definition_and_known_values() {
        let t = reference::nim_mul_table(20);
        for (a, row) in t.iter().enumerate() {
            for (b, &ab) in row.iter().enumerate() {
                assert_eq!(nim_mul(a as u64, b as u64), ab, "{a} ⊗ {b}");
            }
        }
        // F ⊗ F = 3F/2 for Fermat 2-powers; 2^63 ⊗ 2^63 and known 64-bit products.
        assert_eq!(nim_mul(16, 16), 24);
        assert_eq!(nim_mul(256, 256), 384);
        assert_eq!(nim_mul(1 << 32, 1 << 32), 3 << 31);
        // Distinct Fermat 2-powers multiply as ordinary numbers.
        assert_eq!(nim_mul(4, 16), 64);
        assert_eq!(nim_mul(1 << 16, 1 << 32), 1 << 48);
        // Associativity and commutativity on a sample.
        let xs = [3u64, 0xdead_beef, 1 << 63, 0x1234_5678_9abc_def0, u64::MAX];
        for &x in &xs {
            for &y in &xs {
                assert_eq!(nim_mul(x, y), nim_mul(y, x));
                for &z in &xs {
                    assert_eq!(nim_mul(nim_mul(x, y), z), nim_mul(x, nim_mul(y, z)));
                    assert_eq!(nim_mul(x, y ^ z), nim_mul(x, y) ^ nim_mul(x, z));
                }
            }
        }
    }

    #[test]
    fn tartan_product_values_are_nim_products_by_direct_search() {
        // Factors: Nim heaps (values = size) and the subtraction game {1, 2} (values n mod 3).
        let mut nim = AcyclicSolver::new(Product(NimHeap, NimHeap), 1 << 22);
        for a in 0..5u64 {
            for b in 0..5u64 {
                let v = nim.value(&vec![(a, b)]).unwrap();
                assert_eq!(v, nim_mul(a, b), "({a}, {b})");
            }
        }
        let sub = Subtraction(vec![1, 2]);
        let mut mixed = AcyclicSolver::new(Product(NimHeap, sub), 1 << 22);
        for a in 0..4u64 {
            for b in 0..7u64 {
                let v = mixed.value(&vec![(a, b)]).unwrap();
                assert_eq!(v, nim_mul(a, b % 3), "({a}, {b})");
            }
        }
        // Sets of pairs have the xor of their pairs' values.
        let set =
            Product::<NimHeap, NimHeap>::position(vec![(2, 3), (3, 3), (1, 2), (2, 3), (3, 1)]);
        assert_eq!(set, vec![(1, 2), (3, 1), (3, 3)]);
        let v = nim.value(&set).unwrap();
        assert_eq!(v, product_value::<NimHeap, NimHeap>(&set, |&g| g, |&h| h));
    }
}
