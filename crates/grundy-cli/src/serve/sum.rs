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
//! **The answer** is the library's [`SolutionDocument`], the document `grundy solve --json`
//! writes for a game given by its rules: the sum as it was given, who wins, the Grundy value
//! (normal play), every winning move with the sum after it, and what the searches did. The
//! playground's fields stand beside it: the parts as the page draws them, the values in binary
//! columns, where each winning move is played ([`SumMove`]) and the explanation.
//!
//! **Notation.** A sum is written as its parts joined by ` + `: a heap part as its game and
//! heaps (`nim 5`, `kayles 3 4`; the game alone once played out), a board in its notation
//! (`chomp:4,4,4`, `cram:.../.../...`). A move is named by its part (from 1) and the move as the
//! part's own command names it: `part 1: heap 1: 5 -> 3` (`grundy position`), `part 2: (1,3)` or
//! `part 3: (1,1)-(1,2)` (`grundy solve --moves`).
//!
//! The engine's reply ([`reply`]) is the first winning move, else the first legal move.

use super::api::{ApiError, ApiJson};
use super::boards::{self, Checked};
use super::games::{self, CheckedGame};
use super::limits::Limits;
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::control::{Control, Reservation};
use grundy::heap::hint::{self, NimColumns};
use grundy::heap::position::{self, Move};
use grundy::heap::HeapGame;
use grundy::solve::search::{SolutionDocument, StatsDocument, WinningMove};
use grundy::solve::{Outcome, Play};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

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

/// Where a move of the sum is played: in part `part`, a heap move or the cells of a board
/// move.
#[derive(Serialize, Debug, Clone)]
pub struct SumMove {
    /// The part moved in (0-based).
    part: usize,
    /// The move of a heap part, as `/api/move` names it (heaps from 0).
    heap_move: Option<Move>,
    /// The cells of a board move, 0-based `[row, column]`, as `/api/board` gives them: the cell
    /// taken (Chomp) or the two cells of the domino (Cram).
    cells: Option<Vec<[usize; 2]>>,
    /// The part's Grundy value after the move (normal play).
    value: Option<u64>,
}

/// A legal move of the sum: where it is played, its name, and the part after it.
#[derive(Clone, Debug)]
struct PartMove {
    place: SumMove,
    name: String,
    after: PartState,
}

/// The answer of `/api/sum`: the library's [`SolutionDocument`] of the sum (module
/// documentation) with the playground's fields beside it.
#[derive(Serialize, Debug)]
pub struct SumAnswer {
    /// The solution of the sum.
    #[serde(flatten)]
    solution: SolutionDocument,
    misere: bool,
    /// Whether no part has a move.
    over: bool,
    /// The parts.
    parts: Vec<PartAnswer>,
    /// The parts' values and their xor in binary columns (normal play).
    columns: Option<NimColumns>,
    /// Where each winning move is played, in the order of `winning_moves`.
    winning_parts: Vec<SumMove>,
    /// Why, in plain lines.
    explanation: Vec<String>,
}

/// The engine's move in `/api/sum/reply`: its name and the sum after it, as in the
/// document's `winning_moves`, and where it is played.
#[derive(Serialize, Debug)]
pub struct ReplyMove {
    #[serde(flatten)]
    named: WinningMove,
    #[serde(flatten)]
    place: SumMove,
}

/// The answer of `/api/sum/reply`.
#[derive(Serialize, Debug)]
pub struct SumReply {
    /// The engine's move; `null` when no move was left.
    #[serde(rename = "move")]
    mv: Option<ReplyMove>,
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
    fn moves(&self, i: usize, st: &PartState, ctl: &Control) -> Result<Vec<PartMove>, ApiError> {
        let mut out = Vec::new();
        let place = |heap_move, cells| SumMove {
            part: i,
            heap_move,
            cells,
            value: None,
        };
        match st {
            PartState::Heaps(heaps) => {
                let rule = self.rule(i)?;
                for j in 0..heaps.len() {
                    for m in hint::legal_moves(rule, heaps, j, ctl)? {
                        let mut after = Vec::with_capacity(heaps.len() + m.to.len());
                        after.extend_from_slice(&heaps[..j]);
                        after.extend(m.to.iter().copied().filter(|&h| h > 0));
                        after.extend_from_slice(&heaps[j + 1..]);
                        let to: Vec<String> = m.to.iter().map(u64::to_string).collect();
                        out.push(PartMove {
                            name: format!(
                                "part {}: heap {}: {} -> {}",
                                i + 1,
                                j + 1,
                                m.from,
                                to.join(" ")
                            )
                            .trim_end()
                            .to_string(),
                            place: place(Some(m), None),
                            after: PartState::Heaps(after),
                        });
                    }
                }
            }
            PartState::Board(b) => {
                for m in b.moves() {
                    out.push(PartMove {
                        name: format!("part {}: {}", i + 1, m.name),
                        after: PartState::Board(boards::checked_after(&m)?),
                        place: place(None, Some(m.cells)),
                    });
                }
            }
        }
        Ok(out)
    }
}

/// What the searches of one answer did, summed into the document's [`StatsDocument`]: the
/// boards' solves and the misère search of the sum.
#[derive(Default)]
struct Searched {
    positions: u64,
    lookups: u64,
    hits: u64,
    table_bytes: u64,
}

impl Searched {
    /// The Grundy value of a board under normal play, its search counted.
    fn board_value(&mut self, b: &Checked, ctl: &Control) -> Result<u64, ApiError> {
        let s = grundy::solve::solve_loaded(&b.loaded(), Play::Normal, false, ctl)?;
        self.positions += s.stats.positions;
        self.lookups += s.stats.lookups;
        self.hits += s.stats.hits;
        self.table_bytes = self.table_bytes.max(s.stats.table_bytes);
        s.value
            .ok_or_else(|| ApiError::internal("a board's normal-play solve gave no value"))
    }

    fn document(&self, start: Instant) -> StatsDocument {
        StatsDocument {
            positions: self.positions,
            lookups: self.lookups,
            hits: self.hits,
            hit_rate: if self.lookups == 0 {
                0.0
            } else {
                self.hits as f64 / self.lookups as f64
            },
            table_bytes: self.table_bytes,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// A part in the notation of sums (module documentation).
fn part_notation(game: Option<&CheckedGame>, st: &PartState) -> Result<String, ApiError> {
    match (st, game) {
        (PartState::Heaps(h), Some(g)) => Ok(std::iter::once(g.name())
            .chain(h.iter().map(u64::to_string))
            .collect::<Vec<_>>()
            .join(" ")),
        (PartState::Board(b), _) => Ok(b.loaded().show()?),
        (PartState::Heaps(_), None) => Err(ApiError::internal("a heap part without its game")),
    }
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

/// Bytes held for one entry of the misère search's table besides its key's text: the key's
/// `String` header, the answer, and the hash table's control byte and slack.
const MEMO_ENTRY_BYTES: u64 = 24 + 8 + 8;

/// The misère search of a sum: a table of the sums searched, whether the player to move wins
/// each, its bytes held in the job's budget, and what it did.
struct MisereSearch<'r> {
    rules: &'r Rules,
    memo: HashMap<String, bool>,
    held: Reservation,
    limit: usize,
    lookups: u64,
    hits: u64,
}

impl MisereSearch<'_> {
    /// Whether the player to move wins the sum `parts` (no move: wins).
    fn wins(&mut self, parts: &[PartState], ctl: &Control) -> Result<bool, ApiError> {
        let k = key(parts);
        self.lookups += 1;
        if let Some(&w) = self.memo.get(&k) {
            self.hits += 1;
            return Ok(w);
        }
        if self.memo.len() >= self.limit {
            return Err(ApiError::bad(format!(
                "the misère search of this sum passed {} positions, the playground's limit: \
                 play smaller parts",
                self.limit
            )));
        }
        ctl.stop_check()?;
        let mut any = false;
        let mut wins = false;
        'parts: for (i, st) in parts.iter().enumerate() {
            for m in self.rules.moves(i, st, ctl)? {
                any = true;
                let mut next = parts.to_vec();
                next[i] = m.after;
                if !self.wins(&next, ctl)? {
                    wins = true;
                    break 'parts;
                }
            }
        }
        let w = wins || !any;
        self.held.grow(
            k.len() as u64 + MEMO_ENTRY_BYTES,
            "the misère search of a sum",
        )?;
        self.memo.insert(k, w);
        Ok(w)
    }
}

/// Analyses a sum: outcome, values (normal play) and every winning move.
fn analyse(
    sum: &SumPosition,
    rules: &Rules,
    limits: &Limits,
    ctl: &Control,
) -> Result<SumAnswer, ApiError> {
    let start = Instant::now();
    let names = sum
        .parts
        .iter()
        .enumerate()
        .map(|(i, p)| part_notation(sum.games[i].as_ref(), p))
        .collect::<Result<Vec<String>, ApiError>>()?;
    let mut all_moves: Vec<Vec<PartMove>> = Vec::new();
    for (i, st) in sum.parts.iter().enumerate() {
        all_moves.push(rules.moves(i, st, ctl)?);
    }
    let over = all_moves.iter().all(Vec::is_empty);
    let mut parts: Vec<PartAnswer> = sum
        .parts
        .iter()
        .enumerate()
        .zip(&all_moves)
        .map(|((i, p), moves)| match p {
            PartState::Heaps(h) => PartAnswer {
                game: sum.games[i].as_ref().map_or_else(String::new, |g| g.name()),
                kind: "heaps",
                heaps: Some(h.clone()),
                values: None,
                cells: None,
                value: None,
                over: moves.is_empty(),
            },
            PartState::Board(b) => PartAnswer {
                game: names[i].clone(),
                kind: b.kind(),
                heaps: None,
                values: None,
                cells: Some(b.cells()),
                value: None,
                over: moves.is_empty(),
            },
        })
        .collect();
    // The sum after a move of part `i`, in the notation.
    let after_notation = |i: usize, after: &PartState| -> Result<String, ApiError> {
        let mut shown = names.clone();
        shown[i] = part_notation(sum.games[i].as_ref(), after)?;
        Ok(shown.join(" + "))
    };
    let mut searched = Searched::default();
    let mut winning: Vec<(SumMove, WinningMove)> = Vec::new();
    let mut explanation = Vec::new();
    if sum.misere {
        let mut search = MisereSearch {
            rules,
            memo: HashMap::new(),
            held: ctl.reserve(0, "the misère search of a sum")?,
            limit: limits.sum_positions,
            lookups: 0,
            hits: 0,
        };
        for (i, moves) in all_moves.into_iter().enumerate() {
            for m in moves {
                let mut next = sum.parts.clone();
                next[i] = m.after.clone();
                if !search.wins(&next, ctl)? {
                    let named = WinningMove::new(m.name, after_notation(i, &m.after)?);
                    winning.push((m.place, named));
                }
            }
        }
        searched.positions = search.memo.len() as u64;
        searched.lookups = search.lookups;
        searched.hits = search.hits;
        searched.table_bytes = search.held.bytes();
        let wins = over || !winning.is_empty();
        explanation.push(format!(
            "Misère play: whoever cannot move wins. The values of the parts do not add under \
             misère play, so the {} sums reachable from this one were searched: a sum is won \
             when it has no move or a move to a lost sum.",
            search.memo.len()
        ));
        explanation.push(if over {
            "No part has a move: the player to move wins.".to_string()
        } else if wins {
            format!("{} winning moves.", winning.len())
        } else {
            "Every move leaves a sum the opponent wins: the player to move loses.".to_string()
        });
        return Ok(answer(
            names,
            wins,
            None,
            parts,
            None,
            over,
            winning,
            explanation,
            &searched,
            start,
        ));
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
            PartState::Board(b) => searched.board_value(b, ctl)?,
        };
        parts[i].value = Some(v);
        values.push(v);
    }
    let x = values.iter().fold(0, |a, b| a ^ b);
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
            for mut m in moves {
                let v = match (&m.after, &m.place.heap_move, table.as_mut()) {
                    (PartState::Heaps(_), Some(hm), Some(t)) => {
                        let parts_value = hm.to.iter().fold(0, |a, &h| a ^ t.get(h));
                        values[i] ^ t.get(hm.from) ^ parts_value
                    }
                    (PartState::Board(b), _, _) => searched.board_value(b, ctl)?,
                    _ => return Err(ApiError::internal("a move of the wrong kind of part")),
                };
                if v == target {
                    m.place.value = Some(v);
                    let named = WinningMove::new(m.name, after_notation(i, &m.after)?);
                    winning.push((m.place, named));
                }
            }
        }
    }
    let shown: Vec<String> = parts
        .iter()
        .zip(&values)
        .map(|(p, v)| match &p.heaps {
            Some(h) => format!(
                "{} {} → {v}",
                p.game,
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
    let columns = NimColumns::new(&values, x);
    Ok(answer(
        names,
        x != 0,
        Some(x),
        parts,
        Some(columns),
        over,
        winning,
        explanation,
        &searched,
        start,
    ))
}

/// The answer of an analysis: the solution document of the sum and the playground's fields.
#[allow(clippy::too_many_arguments)]
fn answer(
    names: Vec<String>,
    wins: bool,
    value: Option<u64>,
    parts: Vec<PartAnswer>,
    columns: Option<NimColumns>,
    over: bool,
    winning: Vec<(SumMove, WinningMove)>,
    explanation: Vec<String>,
    searched: &Searched,
    start: Instant,
) -> SumAnswer {
    let (winning_parts, winning_moves) = winning.into_iter().unzip();
    SumAnswer {
        solution: SolutionDocument {
            game: names.join(" + "),
            outcome: if wins { Outcome::N } else { Outcome::P },
            value,
            winning_moves,
            stats: searched.document(start),
        },
        misere: value.is_none(),
        over,
        parts,
        columns,
        winning_parts,
        explanation,
    }
}

/// `POST /api/sum {parts, misere?}`: the sum's solution document (outcome, Grundy value under
/// normal play, every winning move) with the parts, their values in binary columns and where
/// each winning move is played.
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
            // The winning move's name and place, else the first legal move's.
            let chosen = match (
                here.winning_parts.first(),
                here.solution.winning_moves.first(),
            ) {
                (Some(place), Some(named)) => Some((place.clone(), named.name.clone(), true)),
                _ => {
                    let mut first = None;
                    for (i, st) in checked.parts.iter().enumerate() {
                        if let Some(m) = rules.moves(i, st, ctl)?.into_iter().next() {
                            first = Some((m.place, m.name, false));
                            break;
                        }
                    }
                    first
                }
            };
            let Some((place, name, winning)) = chosen else {
                return Ok(Json(SumReply {
                    mv: None,
                    winning: false,
                    sum: here,
                }));
            };
            let m = rules
                .moves(place.part, &checked.parts[place.part], ctl)?
                .into_iter()
                .find(|c| c.name == name)
                .ok_or_else(|| ApiError::internal("the engine's move is not legal"))?;
            let mut next = checked.clone();
            next.parts[place.part] = m.after;
            let sum = analyse(&next, &rules, &limits, ctl)?;
            Ok(Json(SumReply {
                mv: Some(ReplyMove {
                    named: WinningMove::new(name, sum.solution.game.clone()),
                    place,
                }),
                winning,
                sum,
            }))
        })
        .await
}
