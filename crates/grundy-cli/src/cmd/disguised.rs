//! Boards of `grundy solve` that are heap games in disguise, answered from the Grundy values of
//! their heap game before any board is built or searched (normal play):
//!
//! - one-row Chomp `chomp:N` (or `chomp:1xN`): taking the square in column `k ≥ 2` leaves the
//!   first `k − 1` squares, so the row is a Nim heap of `N − 1` (the poisoned square is never
//!   taken), value `N − 1`;
//! - Wythoff with an empty heap `wythoff:A,0` (or `0,B`): no diagonal move is possible, so it is
//!   a Nim heap of `A`;
//! - Node-Kayles on a path `node-kayles:path:N`: taking vertex `v` removes `v` and its
//!   neighbours, leaving paths of `v − 2` and `N − v − 1` vertices: a heap of the octal game
//!   0.137 (take one from the end, two from the end or from an end leaving one heap, three
//!   leaving any two heaps);
//! - an empty Cram strip `cram:1xN` or `cram:Nx1`: a domino fills two adjacent cells, leaving
//!   strips of `i` and `N − i − 2` cells: a heap of Dawson's Kayles, octal 0.07.
//!
//! These notations are recognised from their text, so that sizes far beyond the boards' own
//! limits (`chomp:100000`) are answered too. The winning moves are named and shown exactly as
//! the board engines name and show them (the tests compare both on small boards).

use crate::error::CliError;
use grundy::control::Control;
use grundy::pattern::value::{analyze, default_max};
use grundy::solve::search::{Solution, WinningMove};
use grundy::HeapGame;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::time::Instant;

/// The largest strip or path answered here: a winning move shows the board after it, a
/// character (or a number) a cell.
pub const MAX_LENGTH: u64 = 1 << 24;

/// A board recognised as a heap game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disguised {
    /// One-row Chomp of `N ≥ 1` squares.
    ChompRow(u64),
    /// Wythoff `(A, 0)` (`first` true) or `(0, B)`.
    WythoffNim { first: bool, heap: u64 },
    /// Node-Kayles on a path of `N` vertices.
    Path(u64),
    /// An empty Cram strip of `N ≥ 1` cells, one row (`row` true) or one column.
    CramStrip { row: bool, cells: u64 },
}

/// A decimal number (leading zeros allowed, as the board notation allows them).
fn number(s: &str) -> Option<u64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The heap game the board notation `game` disguises, if it is one of those of the module
/// documentation (anything else, malformed notations included, is left to the board parser).
pub fn recognise(game: &str) -> Option<Disguised> {
    let (kind, body) = game.split_once(':')?;
    let found = match kind {
        "chomp" => {
            let n = match body.split_once('x') {
                Some((r, c)) if number(r) == Some(1) => number(c)?,
                Some(_) => return None,
                None => number(body)?,
            };
            (n >= 1).then_some(Disguised::ChompRow(n))?
        }
        "wythoff" => {
            let (a, b) = body.split_once(',')?;
            match (number(a)?, number(b)?) {
                (a, 0) => Disguised::WythoffNim {
                    first: true,
                    heap: a,
                },
                (0, b) => Disguised::WythoffNim {
                    first: false,
                    heap: b,
                },
                _ => return None,
            }
        }
        "node-kayles" => Disguised::Path(number(body.strip_prefix("path:")?)?),
        "cram" => {
            let (r, c) = body.split_once('x')?;
            match (number(r)?, number(c)?) {
                (1, n) if n >= 1 => Disguised::CramStrip {
                    row: true,
                    cells: n,
                },
                (n, 1) if n >= 1 => Disguised::CramStrip {
                    row: false,
                    cells: n,
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(found)
}

/// The Grundy function of the octal game `code` for heaps up to `n`: through its period, proved
/// by the Guy-Smith theorem from a few hundred values ([`analyze`]), so that a heap of any size
/// costs no more than a small one.
fn values(code: &str, n: u64, ctl: &Control) -> Result<impl Fn(u64) -> u64, CliError> {
    if n > MAX_LENGTH {
        return Err(grundy::Error::limit(
            grundy::LimitKind::Fixed,
            format!("a strip or path of {n} cells or vertices, above {MAX_LENGTH}"),
            "use a smaller board",
        )
        .into());
    }
    let game: HeapGame = code.parse()?;
    let analysis = analyze(&game, default_max(game.spec()), ctl)?;
    // Every heap up to n must be answered: checked once, at n (the pattern covers all below).
    analysis.value(&BigUint::from(n))?;
    Ok(move |k: u64| {
        analysis
            .value(&BigUint::from(k))
            .ok()
            .and_then(|v| v.to_u64())
            .unwrap_or(0)
    })
}

/// Solves `d` under normal play, with its winning moves when `moves` is set.
pub fn solve(d: Disguised, moves: bool, ctl: &Control) -> Result<Solution, CliError> {
    let start = Instant::now();
    let mut winning = Vec::new();
    let value = match d {
        Disguised::ChompRow(n) => {
            if moves && n >= 2 {
                winning.push(WinningMove::new("(1,2)", "chomp:1"));
            }
            n - 1
        }
        Disguised::WythoffNim { first, heap } => {
            if moves && heap > 0 {
                let side = if first { "first" } else { "second" };
                winning.push(WinningMove::new(format!("{side} -{heap}"), "wythoff:0,0"));
            }
            heap
        }
        Disguised::Path(n) => {
            let at = values("octal:0.137", n, ctl)?;
            if moves && at(n) != 0 {
                for v in 1..=n {
                    if at(v.saturating_sub(2)) ^ at(n.saturating_sub(v + 1)) == 0 {
                        let left = (1..v.saturating_sub(1)).map(|u| u.to_string());
                        let right = (v + 2..=n).map(|u| u.to_string());
                        let after = left.chain(right).collect::<Vec<_>>().join(" ");
                        winning.push(WinningMove::new(v.to_string(), format!("{{{after}}}")));
                    }
                }
            }
            at(n)
        }
        Disguised::CramStrip { row, cells: n } => {
            let at = values("octal:0.07", n, ctl)?;
            if moves && at(n) != 0 {
                // The domino on cells i and i + 1 (0-based) leaves strips of i and n − i − 2.
                for i in 0..n - 1 {
                    if at(i) ^ at(n - i - 2) == 0 {
                        let cell = |k: u64| if row { (1, k + 1) } else { (k + 1, 1) };
                        let ((r1, c1), (r2, c2)) = (cell(i), cell(i + 1));
                        let marks: Vec<&str> = (0..n)
                            .map(|k| if k == i || k == i + 1 { "#" } else { "." })
                            .collect();
                        let after = marks.join(if row { "" } else { "/" });
                        winning.push(WinningMove::new(
                            format!("({r1},{c1})-({r2},{c2})"),
                            format!("cram:{after}"),
                        ));
                    }
                }
            }
            at(n)
        }
    };
    Ok(Solution::known(
        value,
        winning,
        start.elapsed().as_secs_f64(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::notation::board::parse_board_game;
    use grundy::Play;

    /// Every recognised board small enough for the board engines gets the same value and the
    /// same winning moves, named and shown alike, from both.
    #[test]
    fn shortcuts_agree_with_the_search() {
        let mut games: Vec<String> = Vec::new();
        for n in 1..=14 {
            games.push(format!("chomp:{n}"));
            games.push(format!("chomp:1x{n}"));
            games.push(format!("cram:1x{n}"));
            games.push(format!("cram:{n}x1"));
        }
        for n in 0..=16 {
            games.push(format!("node-kayles:path:{n}"));
            games.push(format!("wythoff:{n},0"));
            games.push(format!("wythoff:0,{n}"));
        }
        let ctl = Control::none();
        for game in &games {
            let d = recognise(game).unwrap_or_else(|| panic!("{game} not recognised"));
            let fast = solve(d, true, &ctl).unwrap();
            let board = parse_board_game(game).unwrap();
            let loaded = grundy::notation::board::load(&board, &ctl).unwrap();
            let slow = grundy::solve::solve_loaded(&loaded, Play::Normal, true, &ctl).unwrap();
            assert_eq!(fast.value, slow.value, "{game}");
            assert_eq!(fast.outcome, slow.outcome, "{game}");
            assert_eq!(fast.winning_moves, slow.winning_moves, "{game}");
        }
    }

    #[test]
    fn other_boards_are_left_to_the_search() {
        for game in [
            "chomp:3,2",
            "chomp:2x5",
            "chomp:0",
            "wythoff:3,5",
            "wythoff:0",
            "cram:2x3",
            "cram:1x0",
            "cram:..#..",
            "node-kayles:cycle:5",
            "node-kayles:path:x",
            "rules:chomp:3",
        ] {
            assert_eq!(recognise(game), None, "{game}");
        }
    }
}
