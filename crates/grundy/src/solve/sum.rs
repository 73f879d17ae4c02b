//! Sums of games with cycles: the value, outcome and winning moves of `u₁ + … + u_k` from the
//! generalized Sprague-Grundy values `γ(u_i)` of its components ([`super::loopy`]).
//!
//! **Theorem** (Smith 1966; Fraenkel and Yesha 1986). With `a ⊕ ∞(L) = ∞(L ⊕ a)` (where
//! `L ⊕ a = { l ⊕ a : l ∈ L }`) and `∞(K) ⊕ ∞(L) = ∞(∅)`,
//! `γ(u₁ + u₂) = γ(u₁) ⊕ γ(u₂)`. So a sum of finite values is their xor (as for acyclic games);
//! one infinite component `∞(K)` beside finite ones of xor `a` gives `∞(K ⊕ a)`, an N position
//! iff `a ∈ K` and a draw otherwise; two or more infinite components give `∞(∅)`, a draw.
//!
//! *The `K` part, checked directly:* an option of `u₁ + u₂` moves in one component; with `u₁`
//! infinite and `u₂` finite of value `b`, the finite-valued options are exactly `u₁' + u₂` with
//! `γ(u₁') = k ∈ K` finite, of value `k ⊕ b`; with both infinite, every option keeps an
//! infinite component, so none is finite.
//!
//! **Winning moves** are the moves to a sum of value 0: with all components finite and
//! `a = ⊕ γ(u_i) ≠ 0`, move some `u_i` to an option of value `γ(u_i) ⊕ a`; with one infinite
//! component `∞(K)` and the others of xor `a ∈ K`, move that component to an option of value
//! `a`. No other move reaches value 0.

use super::loopy::Gamma;
use super::Outcome;

/// `γ` of a sum from the `γ` of its components (the theorem of the module documentation).
/// The empty sum has value 0.
pub fn sum_value(components: &[Gamma]) -> Gamma {
    let mut a = 0u64;
    let mut infinite: Option<&Vec<u64>> = None;
    let mut count_infinite = 0;
    for c in components {
        match c {
            Gamma::Finite(x) => a ^= x,
            Gamma::Infinite(k) => {
                count_infinite += 1;
                infinite = Some(k);
            }
        }
    }
    match (count_infinite, infinite) {
        (0, _) => Gamma::Finite(a),
        (1, Some(k)) => {
            let mut shifted: Vec<u64> = k.iter().map(|&x| x ^ a).collect();
            shifted.sort_unstable();
            Gamma::Infinite(shifted)
        }
        _ => Gamma::Infinite(Vec::new()),
    }
}

/// The outcome of a sum from the `γ` of its components.
pub fn sum_outcome(components: &[Gamma]) -> Outcome {
    sum_value(components).outcome()
}

/// The winning moves of a sum, component by component: pairs `(i, j)` meaning "move component
/// `i` to its option number `j`", where `options_of(i)` lists the `γ` values of the options of
/// component `i` in a fixed order. Empty unless the sum is an N position.
pub fn winning_moves(
    components: &[Gamma],
    mut options_of: impl FnMut(usize) -> Vec<Gamma>,
) -> Vec<(usize, usize)> {
    let total = sum_value(components);
    if total.outcome() != Outcome::N {
        return Vec::new();
    }
    let targets: Vec<(usize, u64)> = match total {
        Gamma::Finite(a) => components
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.finite().map(|g| (i, g ^ a)))
            .collect(),
        Gamma::Infinite(_) => {
            // Exactly one infinite component (two would be a draw); the others xor to `a`.
            let i = components
                .iter()
                .position(|c| c.finite().is_none())
                .expect("an infinite component");
            let a = components
                .iter()
                .filter_map(Gamma::finite)
                .fold(0, |x, y| x ^ y);
            vec![(i, a)]
        }
    };
    let mut moves = Vec::new();
    for (i, target) in targets {
        for (j, v) in options_of(i).iter().enumerate() {
            if v.finite() == Some(target) {
                moves.push((i, j));
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::game::graph::Graph;
    use crate::solve::tests_support::random_graph;
    use crate::solve::{loopy, outcome, Play};
    use proptest::prelude::*;

    #[test]
    fn rules_by_hand() {
        use Gamma::*;
        assert_eq!(sum_value(&[]), Finite(0));
        assert_eq!(sum_value(&[Finite(5), Finite(3)]), Finite(6));
        assert_eq!(
            sum_value(&[Infinite(vec![0, 2]), Finite(3)]),
            Infinite(vec![1, 3])
        );
        assert_eq!(sum_outcome(&[Infinite(vec![0, 2]), Finite(2)]), Outcome::N);
        assert_eq!(sum_outcome(&[Infinite(vec![0, 2]), Finite(1)]), Outcome::D);
        assert_eq!(
            sum_value(&[Infinite(vec![0]), Infinite(vec![0])]),
            Infinite(vec![])
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn the_sum_rule_holds_on_the_explicit_sum_graph(
            (n1, a1) in random_graph(8, 16),
            (n2, a2) in random_graph(8, 16),
        ) {
            let g1 = Graph::<u32>::from_arcs(n1, &a1).unwrap();
            let g2 = Graph::<u32>::from_arcs(n2, &a2).unwrap();
            let s = g1.sum(&g2).unwrap();
            let (v1, v2, vs) = (loopy::solve(&g1, &Control::none()).unwrap(), loopy::solve(&g2, &Control::none()).unwrap(), loopy::solve(&s, &Control::none()).unwrap());
            let direct = outcome::solve(&s, Play::Normal, &Control::none()).unwrap();
            for x in 0..n1 as u32 {
                for y in 0..n2 as u32 {
                    let id = x * n2 as u32 + y;
                    let parts = [v1.value(&g1, x), v2.value(&g2, y)];
                    prop_assert_eq!(sum_value(&parts), vs.value(&s, id));
                    prop_assert_eq!(sum_outcome(&parts), direct.outcome(id));
                    // Winning moves component-wise = moves to P positions of the sum graph.
                    let mut by_parts: Vec<u32> = winning_moves(&parts, |i| {
                        if i == 0 {
                            g1.options(x).iter().map(|&w| v1.value(&g1, w)).collect()
                        } else {
                            g2.options(y).iter().map(|&w| v2.value(&g2, w)).collect()
                        }
                    })
                    .into_iter()
                    .map(|(i, j)| if i == 0 {
                        g1.options(x)[j] * n2 as u32 + y
                    } else {
                        x * n2 as u32 + g2.options(y)[j]
                    })
                    .collect();
                    by_parts.sort_unstable();
                    by_parts.dedup();
                    let mut direct_moves = direct.winning_moves(&s, id);
                    direct_moves.sort_unstable();
                    prop_assert_eq!(by_parts, direct_moves);
                }
            }
        }
    }
}
