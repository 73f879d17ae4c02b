//! Sums of games in the playground: `POST /api/sum` and `POST /api/sum/reply`.
//!
//! A sum `G1 + G2 + ... + Gk` of games (heaps of a heap game, a Chomp board, a Cram board) is
//! played by moving in exactly one of them; under normal play the player who cannot move (no
//! part has a move) loses.
//!
//! **Normal play** (Sprague–Grundy). Every part plays like a Nim heap of its Grundy value
//! `g_i`, so the sum has value `X = g_1 ⊕ ... ⊕ g_k` (xor, the nim-sum) and is a P-position
//! exactly when `X = 0`. A move from the sum changes one part, so it leaves nim-sum 0 exactly
//! when it takes some part `i` to an option of value `g_i ⊕ X`: those are the winning moves, and
//! one exists when `X ≠ 0` (take `i` with the highest bit of `X` set in `g_i`; then
//! `g_i ⊕ X < g_i`, and `g_i`, the mex of its options' values, has an option of every smaller
//! value). The answer lists every winning move with the value of the part after it; the values
//! of a heap part come from its Grundy sequence (the xor of its heaps' values), those of a board
//! from the library's search engine ([`grundy::solve::search`]).
//!
//! **Misère play** (the player who cannot move wins). Values do not add, so the sum is decided by
//! a memoised search over the sums reachable from it: a sum is won by the player to move when it
//! has no move, or a move to a sum that is lost. The search visits at most
//! [`Limits::sum_positions`] sums (else 400).
//!
//! The engine's reply ([`reply`]) is the first winning move, else the first legal move.

use super::api::{ApiError, ApiJson};
use super::boards::{self, BoardMove, Checked};
use super::games::{self, CheckedGame};
use super::limits::Limits;
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::control::Control;
use grundy::heap::hint::{self, NimColumns};
use grundy::heap::position::{self, Move};
use grundy::heap::HeapGame;
use grundy::solve::Play;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// One part of a sum: a heap game with its heaps, or a board (`chomp:...`, `cram:...`, no
/// heaps).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PartRequest {
    /// GAME notation of a heap game (not a script), or a board.
    pub game: String,
    /// The heaps of a heap game.
    #[serde(default)]
    pub heaps: Option<Vec<u64>>,
}

/// The body of both endpoints.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SumRequest {
    /// The parts, at least one and at most [`Limits::sum_parts`].
    pub parts: Vec<PartRequest>,
    /// Misère play: the player who cannot move wins.
    #[serde(default)]
    pub misere: bool,
}

/// A part's position.
#[derive(Clone, Debug)]
enum PartState {
    Heaps(Vec<u64>),
    Board(Checked),
}

/// A part as the answer shows it.
#[derive(Serialize, Debug)]
pub struct PartAnswer {
    /// The game in the notation (for a board: the board itself).
    game: String,
    /// `"heaps"`, `"chomp"` or `"cram"`.
    kind: &'static str,
    /// The heaps (heap games).
    heaps: Option<Vec<u64>>,
    /// G of each heap (heap games, normal play).
    values: Option<Vec<u64>>,
    /// The cells, as `/api/board` gives them (boards).
    cells: Option<Vec<Vec<&'static str>>>,
    /// The part's Grundy value (normal play).
    value: Option<u64>,
    /// Whether the part has no move left.
    over: bool,
}

/// A move of the sum: in part `part`, a heap move or a board move.
#[derive(Serialize, Debug, Clone)]
pub struct SumMove {
    /// The part moved in (0-based).
    part: usize,
    /// The move of a heap part, as `/api/move` names it (heaps from 0).
    heap_move: Option<Move>,
    /// The move of a board part, as `/api/board` names it.
    board_move: Option<BoardMove>,
    /// The part's Grundy value after the move (normal play).
    value: Option<u64>,
}

/// The answer of `/api/sum`.
#[derive(Serialize, Debug)]
pub struct SumAnswer {
    /// The parts.
    parts: Vec<PartAnswer>,
    misere: bool,
    /// `"P"` (the player to move loses) or `"N"`.
    outcome: &'static str,
    /// The xor of the parts' values (normal play).
    nim_sum: Option<u64>,
    /// The parts' values and their xor in binary columns (normal play).
    columns: Option<NimColumns>,
    /// Whether no part has a move.
    over: bool,
    /// Every winning move.
    winning_moves: Vec<SumMove>,
    /// Why, in plain lines.
    explanation: Vec<String>,
}

/// The answer of `/api/sum/reply`.
#[derive(Serialize, Debug)]
pub struct SumReply {
    /// The engine's move; `null` when no move was left.
    #[serde(rename = "move")]
    mv: Option<SumMove>,
    /// Whether it wins.
    winning: bool,
    /// The sum after it.
    sum: SumAnswer,
}

/// A checked sum: each part's game (`None` for boards) and position.
#[derive(Clone, Debug)]
struct SumPosition {
    games: Vec<Option<CheckedGame>>,
    parts: Vec<PartState>,
    misere: bool,
}

fn check(req: &SumRequest, limits: &Limits) -> Result<(SumPosition, u128), ApiError> {
    let n = req.parts.len();
    if n == 0 || n > limits.sum_parts {
        return Err(ApiError::bad(format!(
            "parts: {n} games, expected 1 to {}",
            limits.sum_parts
        )));
    }
    let mut games = Vec::with_capacity(n);
    let mut parts = Vec::with_capacity(n);
    let mut cost: u128 = 0;
    for (i, p) in req.parts.iter().enumerate() {
        let board = p.game.starts_with("chomp:") || p.game.starts_with("cram:");
        let at = |e: ApiError| ApiError {
            message: format!("parts[{i}]: {}", e.message),
            ..e
        };
        if board {
            if p.heaps.is_some() {
                return Err(at(ApiError::bad("a board has no heaps")));
            }
            let b = boards::check(&p.game, limits).map_err(at)?;
            // The board, then each of its options, is solved once.
            let options = b.moves().len() as u128;
            cost = cost.saturating_add(boards::cost(&b).saturating_mul(options + 1));
            games.push(None);
            parts.push(PartState::Board(b));
        } else {
            if p.game == "script" {
                return Err(at(ApiError::bad(
                    "a sum's heap games are named by the GAME notation; scripts are played in \
                     the Play panel",
                )));
            }
            let Some(heaps) = &p.heaps else {
                return Err(at(ApiError::bad(
                    "a heap game needs \"heaps\" (a board is chomp:... or cram:...)",
                )));
            };
            let g = games::check_game(&p.game, None, limits).map_err(at)?;
            // A heap part may be played out (no heaps left) while the others go on.
            if !heaps.is_empty() {
                games::check_heaps(&g, heaps, limits).map_err(at)?;
            }
            cost = cost.saturating_add(games::position_cost(&g, heaps, false));
            games.push(Some(g));
            parts.push(PartState::Heaps(heaps.clone()));
        }
    }
    if req.misere {
        cost = games::UNKNOWN_COST;
    }
    games::check_cost(cost, limits)?;
    Ok((
        SumPosition {
            games,
            parts,
            misere: req.misere,
        },
        cost,
    ))
}

/// The rules of a sum's heap parts, built inside the job.
struct Rules(Vec<Option<HeapGame>>);

impl Rules {
    fn new(games: &[Option<CheckedGame>], ctl: &Control) -> Result<Rules, ApiError> {
        games
            .iter()
            .map(|g| g.as_ref().map(|g| g.rule(ctl)).transpose())
            .collect::<Result<Vec<_>, _>>()
            .map(Rules)
    }

    fn rule(&self, i: usize) -> Result<&HeapGame, ApiError> {
        self.0[i]
            .as_ref()
            .ok_or_else(|| ApiError::internal("a heap part without its game"))
    }

    /// Every legal move of part `i` in state `st`, with the part after it.
    fn moves(
        &self,
        i: usize,
        st: &PartState,
        ctl: &Control,
    ) -> Result<Vec<(SumMove, PartState)>, ApiError> {
        let mut out = Vec::new();
        match st {
            PartState::Heaps(heaps) => {
                let rule = self.rule(i)?;
                for j in 0..heaps.len() {
                    for m in hint::legal_moves(rule, heaps, j, ctl)? {
                        let mut after = Vec::with_capacity(heaps.len() + m.to.len());
                        after.extend_from_slice(&heaps[..j]);
                        after.extend(m.to.iter().copied().filter(|&h| h > 0));
                        after.extend_from_slice(&heaps[j + 1..]);
                        let mv = SumMove {
                            part: i,
                            heap_move: Some(m),
                            board_move: None,
                            value: None,
                        };
                        out.push((mv, PartState::Heaps(after)));
                    }
                }
            }
            PartState::Board(b) => {
                for m in b.moves() {
                    let after = boards::checked_after(&m)?;
                    let mv = SumMove {
                        part: i,
                        heap_move: None,
                        board_move: Some(m),
                        value: None,
                    };
                    out.push((mv, PartState::Board(after)));
                }
            }
        }
        Ok(out)
    }
}

/// The Grundy value of a board under normal play.
fn board_value(b: &Checked, ctl: &Control) -> Result<u64, ApiError> {
    grundy::solve::solve_loaded(&b.loaded(), Play::Normal, false, ctl)?
        .value
        .ok_or_else(|| ApiError::internal("a board's normal-play solve gave no value"))
}

/// A key naming a sum's position up to the order of each part's heaps (a sum of heaps does not
/// depend on their order).
fn key(parts: &[PartState]) -> String {
    let mut k = String::new();
    for p in parts {
        match p {
            PartState::Heaps(h) => {
                let mut h = h.clone();
                h.sort_unstable();
                k.push_str(&format!("{h:?}|"));
            }
            PartState::Board(Checked::Chomp(rows)) => k.push_str(&format!("c{rows:?}|")),
            PartState::Board(Checked::Cram(b)) => k.push_str(&format!("r{b}|")),
        }
    }
    k
}

/// The misère search: whether the player to move wins the sum `parts` (no move: wins).
fn misere_wins(
    rules: &Rules,
    parts: &[PartState],
    memo: &mut HashMap<String, bool>,
    limit: usize,
    ctl: &Control,
) -> Result<bool, ApiError> {
    let k = key(parts);
    if let Some(&w) = memo.get(&k) {
        return Ok(w);
    }
    if memo.len() >= limit {
        return Err(ApiError::bad(format!(
            "the misère search of this sum passed {limit} positions, the playground's limit: \
             play smaller parts"
        )));
    }
    ctl.stop_check()?;
    let mut any = false;
    let mut wins = false;
    'parts: for (i, st) in parts.iter().enumerate() {
        for (_, after) in rules.moves(i, st, ctl)? {
            any = true;
            let mut next = parts.to_vec();
            next[i] = after;
            if !misere_wins(rules, &next, memo, limit, ctl)? {
                wins = true;
                break 'parts;
            }
        }
    }
    let w = wins || !any;
    memo.insert(k, w);
    Ok(w)
}

/// Analyses a sum: outcome, values (normal play) and every winning move.
fn analyse(
    sum: &SumPosition,
    rules: &Rules,
    limits: &Limits,
    ctl: &Control,
) -> Result<SumAnswer, ApiError> {
    let names: Vec<String> = sum
        .parts
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            PartState::Heaps(_) => sum.games[i].as_ref().map_or_else(String::new, |g| g.name()),
            PartState::Board(b) => b.loaded().show().unwrap_or_default(),
        })
        .collect();
    let mut all_moves: Vec<Vec<(SumMove, PartState)>> = Vec::new();
    for (i, st) in sum.parts.iter().enumerate() {
        all_moves.push(rules.moves(i, st, ctl)?);
    }
    let over = all_moves.iter().all(Vec::is_empty);
    let mut parts: Vec<PartAnswer> = sum
        .parts
        .iter()
        .zip(&names)
        .zip(&all_moves)
        .map(|((p, name), moves)| match p {
            PartState::Heaps(h) => PartAnswer {
                game: name.clone(),
                kind: "heaps",
                heaps: Some(h.clone()),
                values: None,
                cells: None,
                value: None,
                over: moves.is_empty(),
            },
            PartState::Board(b) => PartAnswer {
                game: name.clone(),
                kind: b.kind(),
                heaps: None,
                values: None,
                cells: Some(b.cells()),
                value: None,
                over: moves.is_empty(),
            },
        })
        .collect();
    let mut explanation = Vec::new();
    if sum.misere {
        let mut memo = HashMap::new();
        let mut winning_moves = Vec::new();
        for (i, moves) in all_moves.into_iter().enumerate() {
            for (mv, after) in moves {
                let mut next = sum.parts.clone();
                next[i] = after;
                if !misere_wins(rules, &next, &mut memo, limits.sum_positions, ctl)? {
                    winning_moves.push(mv);
                }
            }
        }
        let wins = over || !winning_moves.is_empty();
        explanation.push(format!(
            "Misère play: whoever cannot move wins. The values of the parts do not add under \
             misère play, so the {} sums reachable from this one were searched: a sum is won \
             when it has no move or a move to a lost sum.",
            memo.len()
        ));
        explanation.push(if over {
            "No part has a move: the player to move wins.".to_string()
        } else if wins {
            format!("{} winning moves.", winning_moves.len())
        } else {
            "Every move leaves a sum the opponent wins: the player to move loses.".to_string()
        });
        return Ok(SumAnswer {
            parts,
            misere: true,
            outcome: if wins { "N" } else { "P" },
            nim_sum: None,
            columns: None,
            over,
            winning_moves,
            explanation,
        });
    }
    // Normal play: the value of every part, then of the options that matter.
    let mut values = Vec::with_capacity(parts.len());
    for (i, st) in sum.parts.iter().enumerate() {
        let v = match st {
            PartState::Heaps(h) => {
                let vs = position::heap_values(rules.rule(i)?, h, ctl)?;
                let v = vs.iter().fold(0, |a, b| a ^ b);
                parts[i].values = Some(vs);
                v
            }
            PartState::Board(b) => board_value(b, ctl)?,
        };
        parts[i].value = Some(v);
        values.push(v);
    }
    let x = values.iter().fold(0, |a, b| a ^ b);
    let mut winning_moves = Vec::new();
    if x != 0 {
        for (i, moves) in all_moves.into_iter().enumerate() {
            let target = values[i] ^ x;
            // Heap parts: the part's value changes by the moved heap's value and its parts'.
            let mut table = match (&sum.parts[i], &sum.games[i]) {
                (PartState::Heaps(h), Some(_)) => {
                    Some(position::Values::new(rules.rule(i)?, h, ctl)?)
                }
                _ => None,
            };
            for (mut mv, after) in moves {
                let v = match (&after, &mv.heap_move, table.as_mut()) {
                    (PartState::Heaps(_), Some(m), Some(t)) => {
                        let parts_value = m.to.iter().fold(0, |a, &h| a ^ t.get(h));
                        values[i] ^ t.get(m.from) ^ parts_value
                    }
                    (PartState::Board(b), _, _) => board_value(b, ctl)?,
                    _ => return Err(ApiError::internal("a move of the wrong kind of part")),
                };
                if v == target {
                    mv.value = Some(v);
                    winning_moves.push(mv);
                }
            }
        }
    }
    let shown: Vec<String> = names
        .iter()
        .zip(&parts)
        .zip(&values)
        .map(|((n, p), v)| match &p.heaps {
            Some(h) => format!(
                "{n} {} → {v}",
                h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
            ),
            None if p.kind == "chomp" => format!("Chomp → {v}"),
            None => format!("Cram → {v}"),
        })
        .collect();
    explanation.push(format!(
        "Sprague–Grundy: each part plays like a Nim heap of its Grundy value ({}), so the sum \
         plays like Nim with those heaps.",
        shown.join(", ")
    ));
    explanation.push(if x == 0 {
        "The nim-sum of the values is 0: every move changes one value and leaves a nim-sum that \
         is not 0, which the opponent can make 0 again. The player to move loses."
            .to_string()
    } else {
        format!(
            "The nim-sum of the values is {x}, not 0: the player to move wins by moving one part \
             of value g to an option of value g xor {x}, which leaves nim-sum 0."
        )
    });
    Ok(SumAnswer {
        parts,
        misere: false,
        outcome: if x == 0 { "P" } else { "N" },
        nim_sum: Some(x),
        columns: Some(NimColumns::new(&values, x)),
        over,
        winning_moves,
        explanation,
    })
}

/// `POST /api/sum {parts, misere?}`: the sum's outcome, the parts' values and their nim-sum
/// (normal play), and every winning move.
pub async fn sum(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<SumRequest>,
) -> Result<Json<SumAnswer>, ApiError> {
    let (checked, cost) = check(&req, &state.limits)?;
    let limits = state.limits.clone();
    state
        .lane(cost)
        .run(move |ctl| {
            let rules = Rules::new(&checked.games, ctl)?;
            analyse(&checked, &rules, &limits, ctl).map(Json)
        })
        .await
}

/// `POST /api/sum/reply {parts, misere?}`: the engine's move in the sum (the first winning move,
/// else the first legal one; `null` when no move is left) and the sum after it.
pub async fn reply(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<SumRequest>,
) -> Result<Json<SumReply>, ApiError> {
    let (checked, cost) = check(&req, &state.limits)?;
    let limits = state.limits.clone();
    state
        .lane(cost.saturating_mul(2))
        .run(move |ctl| {
            let rules = Rules::new(&checked.games, ctl)?;
            let here = analyse(&checked, &rules, &limits, ctl)?;
            let (mv, winning) = match here.winning_moves.first() {
                Some(m) => (Some(m.clone()), true),
                None => {
                    let mut first = None;
                    for (i, st) in checked.parts.iter().enumerate() {
                        if let Some((m, _)) = rules.moves(i, st, ctl)?.into_iter().next() {
                            first = Some(m);
                            break;
                        }
                    }
                    (first, false)
                }
            };
            let Some(m) = mv else {
                return Ok(Json(SumReply {
                    mv: None,
                    winning: false,
                    sum: here,
                }));
            };
            let (_, after) = rules
                .moves(m.part, &checked.parts[m.part], ctl)?
                .into_iter()
                .find(|(c, _)| c.heap_move == m.heap_move && same_board(c, &m))
                .ok_or_else(|| ApiError::internal("the engine's move is not legal"))?;
            let mut next = checked.clone();
            next.parts[m.part] = after;
            let sum = analyse(&next, &rules, &limits, ctl)?;
            Ok(Json(SumReply {
                mv: Some(m),
                winning,
                sum,
            }))
        })
        .await
}

fn same_board(a: &SumMove, b: &SumMove) -> bool {
    match (&a.board_move, &b.board_move) {
        (Some(x), Some(y)) => x.after == y.after && x.cells == y.cells,
        (None, None) => true,
        _ => false,
    }
}
