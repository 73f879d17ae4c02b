//! The playground's board games: Chomp and Cram, solved by the library's search engine
//! ([`families::load`], [`Loaded::solve`]).
//!
//! - `POST /api/board {game, misere?}`: the solution document of `grundy solve --moves --json`
//!   (who wins, the Grundy value under normal play, every winning move and the board after it),
//!   with the board as cells and the cells of each winning move.
//! - `POST /api/board/reply {game, misere?}`: the engine's move (a winning move when there is
//!   one, else the first legal move; `null` when no move is left) and the board after it,
//!   analysed as by `/api/board`.
//!
//! Only `chomp:` and `cram:` games are played here, within [`Limits::chomp_side`],
//! [`Limits::cram_side`] and [`Limits::cram_cells`], all checked before any work starts; the
//! solve runs in a lane of [`super::limits`] (deadline, cancel token, memory budget).
//!
//! Cells are `cells[r][c]`, `"free"`, `"taken"` (Chomp: eaten) or `"blocked"` (Cram: covered
//! or blocked), with rows as in the notation: Chomp's row 0 is the bottom row holding the
//! poisoned corner `(0, 0)`, Cram's row 0 is the top row.

use super::api::{ApiError, ApiJson};
use super::limits::Limits;
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::control::Control;
use grundy::game::families::{self, chomp, Loaded};
use grundy::notation::board::{parse_board_game, BoardGame};
use grundy::solve::search::SolutionDocument;
use grundy::solve::Play;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The body of both endpoints.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// `chomp:A,B,C`, `chomp:RxC`, `cram:RxC` or `cram:ROWS`.
    pub game: String,
    /// Misère play: the player who cannot move wins.
    #[serde(default)]
    pub misere: bool,
}

/// A move: its name (as `grundy solve --moves` prints it), its cells and the board after it.
#[derive(Serialize, Debug, Clone)]
pub struct BoardMove {
    /// `(row,column)` for Chomp, `(row,column)-(row,column)` for Cram, 1-based.
    #[serde(rename = "move")]
    pub name: String,
    /// The cells of the move, 0-based `[row, column]`: the cell taken (Chomp) or the two cells
    /// of the domino (Cram).
    pub cells: Vec<[usize; 2]>,
    /// The board after the move, in the notation.
    pub after: String,
}

/// The answer of `/api/board`: the library's [`SolutionDocument`], the document `grundy solve
/// GAME --moves --json` writes (the board in the notation, who wins, the Grundy value under
/// normal play, every winning move and what the search did), with the playground's fields
/// beside it.
#[derive(Serialize, Debug)]
pub struct BoardAnswer {
    /// The solution.
    #[serde(flatten)]
    solution: SolutionDocument,
    /// `"chomp"` or `"cram"`.
    kind: &'static str,
    misere: bool,
    /// Whether no move is left.
    over: bool,
    /// Rows of cells, each `"free"`, `"taken"` or `"blocked"`.
    cells: Vec<Vec<&'static str>>,
    /// The cells of each winning move, in the order of `winning_moves` (see
    /// [`BoardMove::cells`]).
    winning_cells: Vec<Vec<[usize; 2]>>,
    /// The winning moves as the playground plays them.
    #[serde(skip)]
    winning: Vec<BoardMove>,
}

/// The answer of `/api/board/reply`.
#[derive(Serialize, Debug)]
pub struct ReplyAnswer {
    /// The engine's move; `null` when no move was left.
    #[serde(rename = "move")]
    mv: Option<BoardMove>,
    /// Whether the engine's move wins (a perfect reply can still lose from a P-position).
    winning: bool,
    /// The board after the move (the request's board when there was none).
    board: BoardAnswer,
}

/// A board checked against the limits.
#[derive(Debug, Clone)]
pub(super) enum Checked {
    Chomp(chomp::Rows),
    Cram(families::cram::Board),
}

pub(super) fn check(game: &str, limits: &Limits) -> Result<Checked, ApiError> {
    if game.len() > limits.game_bytes {
        return Err(ApiError::bad(format!(
            "game: {} bytes, above the limit of {}",
            game.len(),
            limits.game_bytes
        )));
    }
    if !(game.starts_with("chomp:") || game.starts_with("cram:")) {
        return Err(ApiError::bad(format!(
            "game {game:?}: the boards of the playground are chomp:A,B,C, chomp:RxC, cram:RxC \
             and cram:ROWS (rows separated by /, '.' free, '#' blocked)"
        )));
    }
    let parsed = parse_board_game(game)
        .map_err(|e| ApiError::from(grundy::Error::Parse(e.in_source("game"))))?;
    match parsed {
        BoardGame::Chomp(rows) => {
            let (r, c) = (rows.len(), rows.first().copied().unwrap_or(0) as usize);
            let side = limits.chomp_side;
            if r > side || c > side {
                return Err(ApiError::bad(format!(
                    "game: a Chomp board of {r} rows and {c} columns, above the playground's \
                     limit of {side}×{side} (use grundy solve on the command line)"
                )));
            }
            Ok(Checked::Chomp(rows))
        }
        BoardGame::Cram(b) => {
            let (r, c) = (b.rows(), b.cols());
            let side = limits.cram_side;
            let free = free_cells(&b);
            if r > side || c > side || free > limits.cram_cells {
                return Err(ApiError::bad(format!(
                    "game: a Cram board of {r}×{c} with {free} free cells, above the \
                     playground's limit of {side} rows, {side} columns and {} free cells (use \
                     grundy solve on the command line)",
                    limits.cram_cells
                )));
            }
            Ok(Checked::Cram(b))
        }
        _ => Err(ApiError::bad(
            "game: only chomp: and cram: boards are played here",
        )),
    }
}

fn free_cells(b: &families::cram::Board) -> usize {
    (0..b.rows())
        .map(|r| (0..b.cols()).filter(|&c| b.is_free(r, c)).count())
        .sum()
}

/// What one move of a board position costs, counted in the heap options of the lanes' cost
/// estimates: the search builds the position after it, puts it in canonical form and looks it
/// up in a hash table, where a heap option is one table read. (A Chomp 8×8 solve, at most
/// 823 680 position-moves, takes most of a second: it belongs in the heavy lane, not in the
/// fast lane's 2·10^6 options within 1 s.)
const BOARD_MOVE_COST: u128 = 16;

/// An upper bound on the positions the search visits times the moves of each, times
/// [`BOARD_MOVE_COST`]: Chomp has at most `C(r + c, r)` positions on an `r × c` board; Cram at
/// most `2^free`.
pub(super) fn cost(board: &Checked) -> u128 {
    BOARD_MOVE_COST.saturating_mul(moves_bound(board))
}

fn moves_bound(board: &Checked) -> u128 {
    match board {
        Checked::Chomp(rows) => {
            let r = rows.len() as u128;
            let c = u128::from(rows.first().copied().unwrap_or(0));
            let mut binom: u128 = 1;
            for i in 1..=r {
                binom = binom * (c + i) / i;
            }
            binom.saturating_mul(r * c)
        }
        Checked::Cram(b) => {
            let free = free_cells(b) as u32;
            (1u128 << free.min(100)).saturating_mul(u128::from(free) * 2)
        }
    }
}

impl Checked {
    pub(super) fn loaded(&self) -> Loaded {
        match self {
            Checked::Chomp(rows) => Loaded::Chomp(rows.clone()),
            Checked::Cram(b) => Loaded::Cram(b.clone()),
        }
    }

    pub(super) fn cells(&self) -> Vec<Vec<&'static str>> {
        match self {
            Checked::Chomp(rows) => {
                let width = rows.first().copied().unwrap_or(0);
                rows.iter()
                    .map(|&len| {
                        (0..width)
                            .map(|c| if c < len { "free" } else { "taken" })
                            .collect()
                    })
                    .collect()
            }
            Checked::Cram(b) => (0..b.rows())
                .map(|r| {
                    (0..b.cols())
                        .map(|c| if b.is_free(r, c) { "free" } else { "blocked" })
                        .collect()
                })
                .collect(),
        }
    }

    /// Every legal move, in the order of the library's `described_moves`.
    pub(super) fn moves(&self) -> Vec<BoardMove> {
        match self {
            Checked::Chomp(rows) => {
                let mut out = Vec::new();
                for (r, &len) in rows.iter().enumerate() {
                    for c in u32::from(r == 0)..len {
                        let after = chomp::take(rows, r, c);
                        let shown: Vec<String> = after.iter().map(u32::to_string).collect();
                        out.push(BoardMove {
                            name: format!("({},{})", r + 1, c + 1),
                            cells: vec![[r, c as usize]],
                            after: format!("chomp:{}", shown.join(",")),
                        });
                    }
                }
                out
            }
            Checked::Cram(b) => b
                .dominoes()
                .into_iter()
                .map(|(x, y)| BoardMove {
                    name: format!("({},{})-({},{})", x.0 + 1, x.1 + 1, y.0 + 1, y.1 + 1),
                    cells: vec![[x.0, x.1], [y.0, y.1]],
                    after: b.place(x, y).to_string(),
                })
                .collect(),
        }
    }

    pub(super) fn kind(&self) -> &'static str {
        match self {
            Checked::Chomp(_) => "chomp",
            Checked::Cram(_) => "cram",
        }
    }
}

fn play(misere: bool) -> Play {
    if misere {
        Play::Misere
    } else {
        Play::Normal
    }
}

/// Solves `board` with its winning moves.
fn analyse(board: &Checked, misere: bool, ctl: &Control) -> Result<BoardAnswer, ApiError> {
    let loaded = board.loaded();
    let s = grundy::solve::solve_loaded(&loaded, play(misere), true, ctl)?;
    let legal = board.moves();
    let winning = s
        .winning_moves
        .iter()
        .map(|w| {
            legal
                .iter()
                .find(|m| m.after == w.after)
                .cloned()
                .ok_or_else(|| {
                    ApiError::internal(format!("the winning move {} is not a legal move", w.name))
                })
        })
        .collect::<Result<Vec<BoardMove>, ApiError>>()?;
    Ok(BoardAnswer {
        solution: SolutionDocument::new(loaded.show()?, &s),
        kind: board.kind(),
        misere,
        over: legal.is_empty(),
        cells: board.cells(),
        winning_cells: winning.iter().map(|m| m.cells.clone()).collect(),
        winning,
    })
}

pub(super) fn checked_after(mv: &BoardMove) -> Result<Checked, ApiError> {
    match parse_board_game(&mv.after) {
        Ok(BoardGame::Chomp(rows)) => Ok(Checked::Chomp(rows)),
        Ok(BoardGame::Cram(b)) => Ok(Checked::Cram(b)),
        _ => Err(ApiError::internal(
            "the board after a move could not be read back",
        )),
    }
}

/// `POST /api/board {game, misere?}`.
pub async fn board(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<BoardRequest>,
) -> Result<Json<BoardAnswer>, ApiError> {
    let board = check(&req.game, &state.limits)?;
    let cost = cost(&board);
    let misere = req.misere;
    state
        .lane(cost)
        .run(move |ctl| analyse(&board, misere, ctl).map(Json))
        .await
}

/// `POST /api/board/reply {game, misere?}`.
pub async fn reply(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<BoardRequest>,
) -> Result<Json<ReplyAnswer>, ApiError> {
    let board = check(&req.game, &state.limits)?;
    let cost = cost(&board).saturating_mul(2);
    let misere = req.misere;
    state
        .lane(cost)
        .run(move |ctl| {
            let here = analyse(&board, misere, ctl)?;
            let (mv, winning) = match here.winning.first() {
                Some(m) => (Some(m.clone()), true),
                None => (board.moves().into_iter().next(), false),
            };
            let board = match &mv {
                Some(m) => analyse(&checked_after(m)?, misere, ctl)?,
                None => here,
            };
            Ok(Json(ReplyAnswer { mv, winning, board }))
        })
        .await
}
