//! `POST /api/hint`, `/api/move` and `/api/moves`: sums of heaps played against the engine,
//! with hints that explain the winning move.

use super::api::{illegal, impossible, no_such_heap, ApiError, ApiJson};
use super::games::{
    check_cost, check_game, check_heaps, need, position_cost, CheckedGame, GameRequest,
};
use super::limits::Limits;
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::control::Control;
use grundy::game::spec::GameSpec;
use grundy::heap::hint::{self, Hint};
use grundy::heap::position::Move;
use grundy::heap::HeapGame;
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// What `/api/hint` and `/api/move` take besides the game (`/api/move` also `human`).
const POSITION_FIELDS: [&str; 2] = ["heaps", "misere"];

/// The checked game and heaps of a request of `endpoint`, which takes the fields `takes`
/// (`heaps` among them), with the lane's cost of the job: `heaps` within the limits, and no
/// heap beyond [`Limits::misere_heap_size`] in misère play of a game other than Nim.
pub(super) fn check_position(
    req: &GameRequest,
    endpoint: &str,
    takes: &[&str],
    limits: &Limits,
) -> Result<(CheckedGame, Vec<u64>, u128), ApiError> {
    req.only(endpoint, takes)?;
    let heaps = need(req.heaps.clone(), "heaps")?;
    let game = check_game(&req.game, req.script.as_deref(), limits)?;
    check_heaps(&game, &heaps, limits)?;
    if req.misere() && game.spec != GameSpec::Nim {
        if let Some((i, h)) = heaps
            .iter()
            .enumerate()
            .find(|(_, &h)| h > limits.misere_heap_size)
        {
            return Err(ApiError::bad(format!(
                "heaps[{i}] has {h} tokens, above the limit of {} for misère play of games \
                 other than Nim (decided by a search over positions)",
                limits.misere_heap_size
            )));
        }
    }
    let cost = position_cost(&game, &heaps, req.misere());
    check_cost(cost, limits)?;
    Ok((game, heaps, cost))
}

/// The misère quotient behind a misère hint (Plambeck–Siegel, [`grundy::misere`]): the
/// quotient map `φ` sends each heap to an element of a finite commutative monoid `Q`, a sum of
/// heaps to the product of its heaps' elements, and the sum is a misère P-position exactly when
/// that product lies in the P-portion of `Q`. A winning move is one whose position maps into
/// the P-portion.
#[derive(Serialize, Debug)]
pub struct QuotientNote {
    /// The game of the quotient, in the notation.
    game: String,
    /// The quotient is that of the heaps up to this size (and of all sizes when proved).
    max_heap: u64,
    /// Elements of the quotient.
    order: usize,
    /// `tame` (a quotient of misère Nim: Conway's genus theory applies) or `wild`.
    tameness: &'static str,
    /// The element of each heap, as a word in the quotient's generators (`1` is the identity).
    heaps: Vec<String>,
    /// Their product, the element of the whole position.
    position: String,
    /// Whether it lies in the P-portion (the player to move loses).
    in_p_portion: bool,
    /// The P-portion, as words.
    p_portion: Vec<String>,
    /// The element of the position after the suggested move (in the P-portion).
    after: Option<String>,
    /// The same in words, one line each.
    explanation: Vec<String>,
}

/// The answer of `/api/hint`: the library's [`Hint`] and, for misère play of a game whose
/// quotient is known for these heaps, the [`QuotientNote`] that explains it.
#[derive(Serialize, Debug)]
pub struct HintAnswer {
    /// The hint.
    #[serde(flatten)]
    hint: Hint,
    /// The misère quotient behind it, when one answers the position.
    quotient: Option<QuotientNote>,
}

/// The [`QuotientNote`] of a misère position, when [`grundy::misere::through_quotient`] builds a
/// quotient for its heaps (it never does for Nim, which Bouton's rule explains).
fn quotient_note(
    rule: &HeapGame,
    heaps: &[u64],
    hint: &Hint,
    ctl: &Control,
) -> Result<Option<QuotientNote>, ApiError> {
    let Some(found) = grundy::misere::through_quotient(rule, heaps, ctl)? else {
        return Ok(None);
    };
    let q = &found.quotient;
    let Some(elems) = heaps
        .iter()
        .map(|&h| q.of_heap(h))
        .collect::<Option<Vec<usize>>>()
    else {
        return Ok(None);
    };
    let product = elems.iter().fold(q.identity(), |a, &b| q.mul(a, b));
    let after = match &hint.suggested {
        Some(m) => match hint::apply(rule, heaps, m)
            .ok()
            .and_then(|a| q.of_heaps(&a))
        {
            Some(e) => Some(e),
            None => return Ok(None),
        },
        None => None,
    };
    let tameness = match q.tameness() {
        grundy::misere::Tameness::Wild => "wild",
        _ => "tame",
    };
    let words: Vec<String> = elems.iter().map(|&e| q.word(e)).collect();
    let p_portion: Vec<String> = q.p_portion().into_iter().map(|e| q.word(e)).collect();
    let mut ex = vec![
        format!(
            "Misère quotient of {} over heaps up to {} ({tameness}, {} elements): every heap \
             maps to an element, a sum of heaps to the product of its heaps' elements, and the \
             sum is a P-position (the player to move loses) exactly when the product lies in \
             the P-portion {{{}}}.",
            q.game(),
            q.max_heap(),
            q.order(),
            p_portion.join(", ")
        ),
        format!(
            "Here {}; their product is {}, {} the P-portion: the player to move {}.",
            heaps
                .iter()
                .zip(&words)
                .map(|(h, w)| format!("heap {h} → {w}"))
                .collect::<Vec<_>>()
                .join(", "),
            q.word(product),
            if q.is_p(product) { "in" } else { "not in" },
            if q.is_p(product) { "loses" } else { "wins" }
        ),
    ];
    if let (Some(m), Some(e)) = (&hint.suggested, after) {
        let to: Vec<String> = m.to.iter().map(u64::to_string).collect();
        ex.push(format!(
            "Heap {} ({}) → {} leaves the element {}, in the P-portion: every reply leaves the \
             P-portion, and the next move can come back to it.",
            m.heap + 1,
            m.from,
            if to.is_empty() {
                "nothing".to_string()
            } else {
                to.join(" + ")
            },
            q.word(e)
        ));
    }
    Ok(Some(QuotientNote {
        game: q.game().to_string(),
        max_heap: q.max_heap(),
        order: q.order(),
        tameness,
        heaps: words,
        position: q.word(product),
        in_p_portion: q.is_p(product),
        p_portion,
        after: after.map(|e| q.word(e)),
        explanation: ex,
    }))
}

/// `POST /api/hint {game, script?, heaps, misere?}`: the [`Hint`] (outcome, values, nim-sum,
/// binary columns, winning moves, the suggested move and the explanation), with the misère
/// quotient behind a misère hint when one is known ([`HintAnswer`]).
pub async fn hint(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GameRequest>,
) -> Result<Json<HintAnswer>, ApiError> {
    let (game, heaps, cost) = check_position(&req, "/api/hint", &POSITION_FIELDS, &state.limits)?;
    let misere = req.misere();
    state
        .lane(cost)
        .run(move |ctl| {
            let rule = game.rule(ctl)?;
            let hint = hint::hint(&rule, &heaps, misere, ctl)?;
            let quotient = if misere {
                quotient_note(&rule, &heaps, &hint, ctl)?
            } else {
                None
            };
            Ok(Json(HintAnswer { hint, quotient }))
        })
        .await
}

/// Whether no heap can move: the player to move has lost (normal play) or won (misère).
fn game_over(rule: &HeapGame, heaps: &[u64], ctl: &Control) -> grundy::Result<bool> {
    for i in 0..heaps.len() {
        let can_move = match rule.spec() {
            GameSpec::Nim => heaps[i] > 0,
            _ => !hint::legal_moves(rule, heaps, i, ctl)?.is_empty(),
        };
        if can_move {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The answer of `/api/move`.
#[derive(Serialize, Debug)]
pub struct MoveAnswer {
    /// The human's move, as played.
    human: Option<Move>,
    /// The heaps after the human's move (the request's heaps when the engine moves first).
    after_human: Vec<u64>,
    /// The engine's reply (`None` when the human's move ended the game).
    engine: Option<Move>,
    /// The heaps after both moves.
    heaps: Vec<u64>,
    /// `"human"` or `"engine"` once the game is over, else `None`.
    winner: Option<&'static str>,
}

/// `POST /api/move {game, script?, heaps, misere?, human?}`: plays the human's move (if given;
/// 422 when illegal), then the engine's reply, and says who has won once nobody can move.
pub async fn play_move(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GameRequest>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let takes = [POSITION_FIELDS[0], POSITION_FIELDS[1], "human"];
    let (game, heaps, cost) = check_position(&req, "/api/move", &takes, &state.limits)?;
    let misere = req.misere();
    let human = req.human;
    state
        .lane(cost)
        .run(move |ctl| {
            let rule = game.rule(ctl)?;
            // Normal play: whoever cannot move loses; misère: whoever cannot move wins.
            let winner = |last_mover: &'static str, other: &'static str| {
                if misere {
                    other
                } else {
                    last_mover
                }
            };
            let after_human = match &human {
                Some(mv) => hint::apply(&rule, &heaps, mv).map_err(|e| illegal(e, &heaps, mv))?,
                None => {
                    if game_over(&rule, &heaps, ctl)? {
                        return Err(ApiError::unprocessable(
                            "the game is over: no heap can move",
                        ));
                    }
                    heaps.clone()
                }
            };
            let answer = |engine, heaps, w| MoveAnswer {
                human: human.clone(),
                after_human: after_human.clone(),
                engine,
                heaps,
                winner: w,
            };
            if human.is_some() && game_over(&rule, &after_human, ctl)? {
                return Ok(Json(answer(
                    None,
                    after_human.clone(),
                    Some(winner("human", "engine")),
                )));
            }
            let Some(mv) = hint::engine_move(&rule, &after_human, misere, ctl)? else {
                return Err(ApiError::internal(
                    "the engine found no move in a live game",
                ));
            };
            let after = hint::apply(&rule, &after_human, &mv)?;
            let w = game_over(&rule, &after, ctl)?.then(|| winner("engine", "human"));
            Ok(Json(answer(Some(mv), after, w)))
        })
        .await
}

/// What `/api/moves` takes besides the game: `heap` is 0-based.
pub(super) const MOVES_FIELDS: [&str; 2] = ["heaps", "heap"];

/// `POST /api/moves {game, script?, heaps, heap}`: every legal move of one heap (422 for a heap that does not exist).
pub async fn moves(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    let (game, heaps, cost) = check_position(&req, "/api/moves", &MOVES_FIELDS, &state.limits)?;
    let i = need(req.heap, "heap")?;
    state
        .lane(cost)
        .run(move |ctl| {
            let rule = game.rule(ctl)?;
            if i >= heaps.len() {
                return Err(no_such_heap(i, &heaps));
            }
            let moves = hint::legal_moves(&rule, &heaps, i, ctl).map_err(impossible)?;
            Ok(Json(json!({ "moves": moves })))
        })
        .await
}
