//! Hints for people playing a sum of heaps: the winning move, and why it wins.
//!
//! **Normal play.** By the Sprague-Grundy theorem a heap of value g = G(h) plays exactly like a
//! Nim heap of g tokens, and a sum of heaps has value X = G(h1) ⊕ ... ⊕ G(hk). Writing the
//! values in binary, X is the column-wise parity without carries. If X = 0 every column holds an
//! even number of 1s; a move changes one value and so flips at least one bit of it, leaving
//! X ≠ 0: the player to move loses (P). If X ≠ 0, let b be the highest 1 bit of X. Some heap's
//! value g has bit b set (otherwise column b would be even), and t = g ⊕ X < g because the
//! highest bit that changes, b, goes from 1 to 0. Since g = mex of the values of the heap's
//! options, every value below g, t among them, is the value of some option ("mex is a
//! promise"); moving there leaves g ⊕ X ⊕ t = 0. For Nim, G(h) = h and the move is "make heap h
//! into h ⊕ X".
//!
//! **Misère play.** Values do not add. Nim follows Bouton's rule: while some heap has two or
//! more tokens, play as in normal Nim, except that the move which would leave only heaps of 0
//! or 1 tokens must leave an odd number of 1-heaps; once every heap has at most one token, the
//! player to move wins exactly when the number of 1-heaps is even. Other games are decided by
//! the memoised search of [`position::misere`].
//!
//! This module explains; [`position`] computes. The engine of the playgrounds plays
//! [`engine_move`]: a winning move when there is one, otherwise the smallest move it can find,
//! to keep the game long and leave room for a mistake.

use crate::control::Control;
use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::heap::position::{self, Move};
use crate::heap::rule::Options;
use crate::heap::HeapGame;
use crate::solve::Outcome;

/// Everything a learner needs to see why a position is won or lost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Hint {
    /// P (the player to move loses against perfect play) or N (the player to move wins).
    pub outcome: Outcome,
    /// Whether the hint is for misère play (the player who cannot move wins).
    pub misere: bool,
    /// G(h) of each heap, where the values decide the game: normal play, and misère Nim (whose
    /// values are the heap sizes, used by Bouton's rule); `None` for other misère games.
    pub values: Option<Vec<u64>>,
    /// The xor of `values`.
    pub nim_sum: Option<u64>,
    /// Every winning move (empty for P positions).
    pub winning_moves: Vec<Move>,
    /// The one move the hint recommends (`None` for P positions).
    pub suggested: Option<Move>,
    /// The values and their xor in binary columns (when `values` is given).
    pub columns: Option<NimColumns>,
    /// The explanation, as plain English lines ready to print.
    pub explanation: Vec<String>,
}

/// The heaps' values and their xor written in binary, one row a heap, as in a worked example of
/// Nim: the nim-sum is the parity of each column.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct NimColumns {
    /// The number of bit columns (at least 1).
    pub width: usize,
    /// Each heap's value in binary, zero-padded to `width`.
    pub rows: Vec<String>,
    /// The nim-sum in binary, zero-padded to `width`.
    pub nim_sum: String,
    /// The column (0 = leftmost) of the nim-sum's highest 1 bit; `None` when the nim-sum is 0.
    pub top_bit: Option<usize>,
}

impl NimColumns {
    /// The columns of `values` and their xor `x`.
    pub fn new(values: &[u64], x: u64) -> NimColumns {
        let top = values.iter().copied().fold(x, u64::max);
        let width = (64 - top.leading_zeros() as usize).max(1);
        NimColumns {
            width,
            rows: values.iter().map(|v| format!("{v:0width$b}")).collect(),
            nim_sum: format!("{x:0width$b}"),
            top_bit: (x != 0).then(|| width - 1 - (63 - x.leading_zeros() as usize)),
        }
    }
}

/// The hint for the sum of `heaps` of `rule`: outcome, values, winning moves, a suggested move
/// and an explanation (see the module documentation for the reasoning it spells out).
/// `ctl` reaches the sequence and the searches behind the hint.
pub fn hint(game: &HeapGame, heaps: &[u64], misere: bool, ctl: &Control) -> Result<Hint> {
    if misere {
        misere_hint(game, heaps, ctl)
    } else {
        normal_hint(game, heaps, ctl)
    }
}

/// The name of the column of bit `b` (the 1s, 2s, 4s, ... column).
fn column_name(x: u64) -> String {
    let b = 63 - x.leading_zeros();
    format!("{}s", 1u64 << b)
}

/// "1 token" / "5 tokens".
fn tokens(n: u64) -> String {
    if n == 1 {
        "1 token".into()
    } else {
        format!("{n} tokens")
    }
}

/// Describes what a move leaves: "nothing" or the heaps.
fn leaves(to: &[u64]) -> String {
    if to.is_empty() {
        "nothing (the heap is removed)".into()
    } else {
        to.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The lines of the binary-columns table.
fn column_lines(
    label: &str,
    heaps: &[u64],
    values: &[u64],
    cols: &NimColumns,
    x: u64,
) -> Vec<String> {
    let w = values.iter().copied().fold(x, u64::max).to_string().len();
    let mut lines = Vec::new();
    for (i, (row, (&h, &v))) in cols.rows.iter().zip(heaps.iter().zip(values)).enumerate() {
        if label.is_empty() {
            lines.push(format!("  heap {:>2}: {v:>w$} = {row}", i + 1));
        } else {
            lines.push(format!(
                "  heap {:>2} ({}): {label} {v:>w$} = {row}",
                i + 1,
                tokens(h)
            ));
        }
    }
    let eq = lines[0].rfind(" = ").unwrap_or(0);
    let head = format!(
        "{:<lead$}{x:>w$}",
        "  nim-sum:",
        lead = eq.saturating_sub(w)
    );
    lines.push(format!("{head} = {}", cols.nim_sum));
    if let Some(t) = cols.top_bit {
        lines.push(format!("{} {}^", " ".repeat(eq + 2), " ".repeat(t)));
    }
    lines
}

fn normal_hint(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<Hint> {
    let rule = game;
    let mut table = position::Values::new(game, heaps, ctl)?;
    let values: Vec<u64> = heaps.iter().map(|&h| table.get(h)).collect();
    let analysis = position::normal(game, heaps, ctl)?;
    let x = values.iter().fold(0, |a, b| a ^ b);
    let cols = NimColumns::new(&values, x);
    let nim = matches!(rule.spec(), GameSpec::Nim);
    let mut ex = Vec::new();
    if heaps.is_empty() {
        ex.push("No heaps are left: the player to move cannot move and loses.".into());
    } else if nim {
        ex.push("Write each heap in binary and add the columns without carrying (xor):".into());
        ex.extend(column_lines("", heaps, &values, &cols, x));
    } else {
        ex.push(
            "Each heap's Grundy value G is the mex (least missing value) of its options' values; \
             a heap of value G plays like a Nim heap of G tokens (Sprague-Grundy)."
                .into(),
        );
        ex.push("Write the values in binary and add the columns without carrying (xor):".into());
        ex.extend(column_lines("G =", heaps, &values, &cols, x));
    }
    // The move the explanation can justify: on a heap whose value g has the top bit of X, to an
    // option of value g ⊕ X < g. (Other winning moves may raise a heap's value, e.g. Kayles
    // 4 + 6: 4 -> 3 takes G from 1 to 3; they win too but not by the column argument.)
    let suggested = analysis
        .winning_moves
        .iter()
        .find(|m| {
            let g = values[m.heap];
            // A winning move leaves nim-sum 0, so its parts' values xor to g ⊕ X already.
            g ^ x < g
        })
        .cloned();
    if !heaps.is_empty() {
        if x == 0 {
            ex.push(
                "The nim-sum is 0: every column holds an even number of 1s. Any move changes one \
                 heap's value and so flips at least one of its bits, leaving a nim-sum that is not \
                 0, which the opponent can make 0 again. There is no winning move: play a small \
                 move and hope for a mistake."
                    .into(),
            );
        } else {
            ex.push(format!(
                "The nim-sum is {x}, not 0: the player to move wins. Its highest 1 is in the {} \
                 column.",
                column_name(x)
            ));
            if let Some(m) = &suggested {
                let g = values[m.heap];
                let t = g ^ x;
                let what = if nim { "" } else { "value " };
                ex.push(format!(
                    "Heap {} ({what}{g}) has a 1 in that column, so {g} xor {x} = {t} is smaller \
                     than {g}.",
                    m.heap + 1
                ));
                if nim {
                    ex.push(format!(
                        "So change heap {} from {} to {t} (take {}): then every column holds an \
                         even number of 1s (nim-sum 0), and whatever the opponent does makes some \
                         column odd again, which you can always repair.",
                        m.heap + 1,
                        m.from,
                        m.from - t
                    ));
                } else {
                    let parts = position::heap_values(game, &m.to, ctl)?;
                    let shown: Vec<String> =
                        m.to.iter()
                            .zip(&parts)
                            .map(|(h, v)| format!("G({h}) = {v}"))
                            .collect();
                    let value_after = match shown.len() {
                        0 => "value 0".to_string(),
                        1 => shown[0].clone(),
                        _ => format!("{} (xor {t})", shown.join(", ")),
                    };
                    ex.push(format!(
                        "Since {g} is the mex of the values of heap {}'s options, some option has \
                         value {t} (mex is a promise): heap {} ({}) -> {}, with {value_after}. \
                         That leaves a nim-sum of 0.",
                        m.heap + 1,
                        m.heap + 1,
                        tokens(m.from),
                        leaves(&m.to),
                    ));
                }
            }
        }
    }
    Ok(Hint {
        outcome: analysis.outcome,
        misere: false,
        values: Some(values),
        nim_sum: Some(x),
        winning_moves: analysis.winning_moves,
        suggested,
        columns: Some(cols),
        explanation: ex,
    })
}

fn misere_hint(game: &HeapGame, heaps: &[u64], ctl: &Control) -> Result<Hint> {
    let rule = game;
    let analysis = position::misere(game, heaps, ctl)?;
    let suggested = analysis.winning_moves.first().cloned();
    let mut ex = Vec::new();
    let (values, nim_sum, columns) = if let GameSpec::Nim = rule.spec() {
        let x = heaps.iter().fold(0, |a, b| a ^ b);
        let cols = NimColumns::new(heaps, x);
        let big = heaps.iter().filter(|&&h| h >= 2).count();
        let ones = heaps.iter().filter(|&&h| h == 1).count();
        ex.push(
            "Misère Nim (Bouton): while some heap has 2 or more tokens, play as in ordinary Nim, \
             except that the move which would leave only heaps of 0 or 1 tokens must leave an odd \
             number of 1-heaps (so the opponent takes the last token)."
                .into(),
        );
        if big == 0 {
            ex.push(format!(
                "Every heap has at most one token: there are {ones} one-token heaps, and the player \
                 who takes the last token loses, so the player to move wins exactly when that \
                 number is even."
            ));
        } else if big == 1 {
            ex.push(
                "Only one heap has 2 or more tokens: reduce it to 0 or 1 so that an odd number of \
                 1-heaps remains."
                    .into(),
            );
        } else if !heaps.is_empty() {
            ex.push("Write each heap in binary and xor the columns:".into());
            ex.extend(column_lines("", heaps, heaps, &cols, x));
            ex.push(if x == 0 {
                "The nim-sum is 0: as in ordinary Nim, every move leaves a nim-sum the opponent can \
                 repair."
                    .into()
            } else {
                format!(
                    "The nim-sum is {x}: make it 0 by changing a heap with a 1 in the {} column.",
                    column_name(x)
                )
            });
        }
        (Some(heaps.to_vec()), Some(x), Some(cols))
    } else {
        ex.push(
            "Under misère play Grundy values do not add, so the outcome comes from a search of \
             every position reachable from this one: a position is won when it has no move or a \
             move to a lost position."
                .into(),
        );
        (None, None, None)
    };
    match (&suggested, analysis.outcome) {
        (Some(m), _) => ex.push(format!(
            "Winning move: heap {} ({}) -> {}. Every reply from there loses.",
            m.heap + 1,
            tokens(m.from),
            leaves(&m.to)
        )),
        (None, Outcome::P) => ex.push(
            "The player to move loses against perfect play: no move wins. Play a small move and \
             hope for a mistake."
                .into(),
        ),
        (None, Outcome::N) => {
            ex.push("The player to move has no move, and so wins under the misère rule.".into())
        }
        (None, Outcome::D) => {
            ex.push("Neither player can force a win: with perfect play the game never ends.".into())
        }
    }
    Ok(Hint {
        outcome: analysis.outcome,
        misere: true,
        values,
        nim_sum,
        winning_moves: analysis.winning_moves,
        suggested,
        columns,
        explanation: ex,
    })
}

/// Every distinct legal move of heap `i` (0-based): the options of heap `heaps[i]`, parts
/// ascending, each listed once, in the rule's order. Fails with [`Error::Invalid`] when `i` is
/// out of range, and with [`Error::Limit`] when the heap has too many options to list.
pub fn legal_moves(game: &HeapGame, heaps: &[u64], i: usize, ctl: &Control) -> Result<Vec<Move>> {
    let rule = game;
    heap_at(heaps, i)?;
    position::winning_options(rule, heaps, i, &mut Options::new(), ctl, |_| Ok(true))
}

/// The size of heap `i`, or [`Error::Invalid`] naming the heaps that exist.
fn heap_at(heaps: &[u64], i: usize) -> Result<u64> {
    heaps.get(i).copied().ok_or_else(|| {
        Error::invalid(format!(
            "heap {} does not exist: expected a heap number from 1 to {}",
            i + 1,
            heaps.len()
        ))
    })
}

/// Checks that `mv` is a legal move in `heaps` and returns the heaps after it: heap `mv.heap`
/// replaced, in place, by the heaps of `mv.to` (zeros dropped). Errors are [`Error::Invalid`]
/// and say what is wrong: a heap number out of range, a size that does not match, or an
/// option the rule does not allow.
pub fn apply(game: &HeapGame, heaps: &[u64], mv: &Move) -> Result<Vec<u64>> {
    let rule = game;
    let i = mv.heap;
    let h = heap_at(heaps, i)?;
    if mv.from != h {
        return Err(Error::invalid(format!(
            "heap {} has {}, not {}",
            i + 1,
            tokens(h),
            mv.from
        )));
    }
    let mut to: Vec<u64> = mv.to.iter().copied().filter(|&p| p > 0).collect();
    to.sort_unstable();
    let legal = match rule.spec() {
        // Nim: any smaller heap; no need to list the options.
        GameSpec::Nim => to.len() <= 1 && to.first().is_none_or(|&t| t < h),
        _ => legal_moves(game, heaps, i, &Control::none())?
            .iter()
            .any(|m| m.to == to),
    };
    if !legal {
        return Err(Error::invalid(format!(
            "heap {} ({}) cannot become {} under this game's rule",
            i + 1,
            tokens(h),
            leaves(&to)
        )));
    }
    let mut after = Vec::with_capacity(heaps.len() + to.len());
    after.extend_from_slice(&heaps[..i]);
    after.extend_from_slice(&to);
    after.extend_from_slice(&heaps[i + 1..]);
    Ok(after)
}

/// The engine's move in the sum of `heaps`: a winning move when there is one (the hint's
/// suggestion); otherwise the move that removes the fewest tokens from the largest heap that
/// can move, to keep the game long; `None` when no heap can move (the game is over).
pub fn engine_move(
    game: &HeapGame,
    heaps: &[u64],
    misere: bool,
    ctl: &Control,
) -> Result<Option<Move>> {
    let rule = game;
    let h = hint(game, heaps, misere, ctl)?;
    if h.suggested.is_some() {
        return Ok(h.suggested);
    }
    let mut order: Vec<usize> = (0..heaps.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(heaps[i]));
    for i in order {
        if let GameSpec::Nim = rule.spec() {
            let from = heaps[i];
            if from > 0 {
                return Ok(Some(Move {
                    heap: i,
                    from,
                    to: if from > 1 { vec![from - 1] } else { vec![] },
                }));
            }
            continue;
        }
        let moves = legal_moves(game, heaps, i, ctl)?;
        if let Some(best) = moves
            .into_iter()
            .max_by_key(|m| (m.to.iter().sum::<u64>(), std::cmp::Reverse(m.to.len())))
        {
            return Ok(Some(best));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(g: &str) -> HeapGame {
        g.parse().unwrap()
    }

    /// The worked example of the docs: 27, 16, 8, 2, 7 has nim-sum 6 and the only winning move
    /// changes the 7 to 1.
    #[test]
    fn nim_worked_example() {
        let h = hint(&rule("nim"), &[27, 16, 8, 2, 7], false, &Control::none()).unwrap();
        assert_eq!(h.outcome, Outcome::N);
        assert_eq!(h.nim_sum, Some(6));
        let m = h.suggested.clone().unwrap();
        assert_eq!((m.heap, m.from, m.to.clone()), (4, 7, vec![1]));
        assert_eq!(h.winning_moves, vec![m]);
        let c = h.columns.unwrap();
        assert_eq!(c.width, 5);
        assert_eq!(c.rows, ["11011", "10000", "01000", "00010", "00111"]);
        assert_eq!(c.nim_sum, "00110");
        assert_eq!(c.top_bit, Some(2));
        let text = h.explanation.join("\n");
        assert!(text.contains("4s column"), "{text}");
        assert!(text.contains("from 7 to 1 (take 6)"), "{text}");
    }

    /// In Kayles 4 + 6 (values 1 and 3) the move 4 -> 3 wins but raises the heap's value; the
    /// suggestion is the one the column argument explains: a heap whose value drops to g ⊕ X.
    #[test]
    fn suggestion_lowers_a_value() {
        let r = rule("kayles");
        for a in 0..12u64 {
            for b in 0..12u64 {
                let h = hint(&r, &[a, b], false, &Control::none()).unwrap();
                let (Some(m), Some(x), Some(v)) = (&h.suggested, h.nim_sum, &h.values) else {
                    continue;
                };
                assert!(v[m.heap] ^ x < v[m.heap], "kayles {a} {b}: {m:?}");
            }
        }
        let h = hint(&r, &[4, 6], false, &Control::none()).unwrap();
        assert_eq!(h.suggested.unwrap().heap, 1);
    }

    #[test]
    fn p_position_has_no_suggestion() {
        let h = hint(&rule("nim"), &[1, 2, 3], false, &Control::none()).unwrap();
        assert_eq!(h.outcome, Outcome::P);
        assert_eq!(h.suggested, None);
        assert_eq!(h.columns.unwrap().top_bit, None);
    }

    /// Following the hint from an N position always reaches 0 nim-sum; the engine, from a P
    /// position, makes a legal move; checked by brute force over small Nim and Kayles sums.
    #[test]
    fn hints_lead_to_p_positions() {
        for g in [
            "nim",
            "kayles",
            "dawsons-chess",
            "sub:1,3,4",
            "grundys-game",
        ] {
            let r = rule(g);
            for a in 0..9u64 {
                for b in 0..9u64 {
                    let heaps = [a, b, 5];
                    let h = hint(&r, &heaps, false, &Control::none()).unwrap();
                    match &h.suggested {
                        Some(m) => {
                            let after = apply(&r, &heaps, m).unwrap();
                            let again = hint(&r, &after, false, &Control::none()).unwrap();
                            assert_eq!(again.outcome, Outcome::P, "{g} {heaps:?} {m:?}");
                        }
                        None => assert_eq!(h.outcome, Outcome::P),
                    }
                    if let Some(m) = engine_move(&r, &heaps, false, &Control::none()).unwrap() {
                        apply(&r, &heaps, &m).unwrap();
                    } else {
                        for i in 0..heaps.len() {
                            assert!(legal_moves(&r, &heaps, i, &Control::none())
                                .unwrap()
                                .is_empty());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn misere_hints_lead_to_misere_p_positions() {
        for g in ["nim", "kayles"] {
            let r = rule(g);
            for a in 0..6u64 {
                for b in 0..6u64 {
                    let heaps = [a, b, 1];
                    let h = hint(&r, &heaps, true, &Control::none()).unwrap();
                    if let Some(m) = &h.suggested {
                        let after = apply(&r, &heaps, m).unwrap();
                        let again = hint(&r, &after, true, &Control::none()).unwrap();
                        assert_eq!(again.outcome, Outcome::P, "{g} {heaps:?} {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn apply_checks_legality() {
        let k = rule("kayles");
        assert_eq!(
            apply(
                &k,
                &[5],
                &Move {
                    heap: 0,
                    from: 5,
                    to: vec![1, 2]
                }
            )
            .unwrap(),
            vec![1, 2]
        );
        // Kayles takes one or two adjacent pins: 5 cannot become 1 + 1.
        assert!(apply(
            &k,
            &[5],
            &Move {
                heap: 0,
                from: 5,
                to: vec![1, 1]
            }
        )
        .is_err());
        assert!(apply(
            &k,
            &[5],
            &Move {
                heap: 1,
                from: 5,
                to: vec![]
            }
        )
        .is_err());
        assert!(apply(
            &k,
            &[5],
            &Move {
                heap: 0,
                from: 4,
                to: vec![]
            }
        )
        .is_err());
        let n = rule("nim");
        assert_eq!(
            apply(
                &n,
                &[3, 9],
                &Move {
                    heap: 1,
                    from: 9,
                    to: vec![0]
                }
            )
            .unwrap(),
            vec![3]
        );
        assert!(apply(
            &n,
            &[3, 9],
            &Move {
                heap: 1,
                from: 9,
                to: vec![9]
            }
        )
        .is_err());
        assert!(apply(
            &n,
            &[3, 9],
            &Move {
                heap: 1,
                from: 9,
                to: vec![1, 2]
            }
        )
        .is_err());
    }

    #[test]
    fn legal_moves_of_kayles() {
        let m = legal_moves(&rule("kayles"), &[4], 0, &Control::none()).unwrap();
        let mut tos: Vec<Vec<u64>> = m.into_iter().map(|m| m.to).collect();
        tos.sort();
        assert_eq!(tos, vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]);
    }
}
