//! A game graph with cycles: win/loss/draw, remoteness, and generalized Sprague-Grundy values.
//!
//! `cargo run -p grundy --example graph_with_cycles`
//!
//! In a game with cycles play may go on forever. Label the terminal vertices P (under normal
//! play the player to move there loses), then repeatedly: a vertex with a P option is N, a
//! vertex whose options are all N is P. What is never labelled is a draw D: no option is P,
//! and some option is D, so neither player can force the end. The remoteness counts the moves
//! to the end when the winner hurries and the loser delays. Smith's generalized Sprague-Grundy
//! function `γ` gives finite values to some vertices and `∞(K)` to the others (`K` the finite
//! values among the options); `γ` decides the outcome of a vertex, and of sums of such games.

use grundy::prelude::*;
use grundy::solve::{loopy, outcome};

fn main() -> Result<(), Error> {
    // 0 ⇄ 1 ⇄ 2 is a cycle with an exit: 2 → 3 → 4 (terminal), and 1 → 5 → 6 → 5 loops.
    // 7 → 0 and 7 → 4; 8 → 7.
    let arcs: [(u32, u32); 10] = [
        (0, 1),
        (1, 0),
        (1, 2),
        (2, 1),
        (2, 3),
        (3, 4),
        (1, 5),
        (5, 6),
        (6, 5),
        (7, 0),
    ];
    let mut arcs = arcs.to_vec();
    arcs.extend([(7, 4), (8, 7)]);
    let g: Graph = Graph::from_arcs(9, &arcs)?;

    let outcomes = outcome::solve(&g, Play::Normal, &Control::none())?;
    let gamma = loopy::solve(&g, &Control::none())?;
    println!("vertex  outcome  remoteness  γ");
    for v in 0..g.vertex_count() as u32 {
        let o = outcomes.outcome(v);
        let r = outcomes.remoteness(v);
        let gv = gamma.value(&g, v);
        let r_text = r.map_or("-".to_string(), |r| r.to_string());
        println!("{v:6}  {:7}  {r_text:10}  {gv:?}", o.to_string());

        // The labelling rules hold at every vertex.
        let options: Vec<Outcome> = g.options(v).iter().map(|&w| outcomes.outcome(w)).collect();
        match o {
            Outcome::P => assert!(options.iter().all(|&w| w == Outcome::N), "{v}"),
            Outcome::N => assert!(options.contains(&Outcome::P), "{v}"),
            _ => assert!(
                !options.contains(&Outcome::P) && options.contains(&Outcome::D),
                "{v}"
            ),
        }
        // γ determines the outcome: 0 is P, other finite values and ∞(K) with 0 ∈ K are N.
        assert_eq!(gv.outcome(), o, "{v}");
    }
    // 4 is terminal, 3 moves there: P at remoteness 0, N at remoteness 1.
    assert_eq!(
        (outcomes.outcome(4), outcomes.remoteness(4)),
        (Outcome::P, Some(0))
    );
    assert_eq!(
        (outcomes.outcome(3), outcomes.remoteness(3)),
        (Outcome::N, Some(1))
    );
    // 2 can only move to 1 or to the N vertex 3: a draw, like the rest of its cycle.
    assert_eq!(outcomes.outcome(2), Outcome::D);
    assert_eq!(outcomes.outcome(5), Outcome::D);
    // 7 wins at once by moving to 4, so 8 (whose only option is 7) is lost.
    assert_eq!(outcomes.outcome(7), Outcome::N);
    assert_eq!(
        (outcomes.outcome(8), outcomes.remoteness(8)),
        (Outcome::P, Some(2))
    );
    assert_eq!(gamma.value(&g, 3), Gamma::Finite(1));
    Ok(())
}
