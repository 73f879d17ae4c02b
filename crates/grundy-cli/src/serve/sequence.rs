//! `POST /api/seq` and `POST /api/analyze`: Grundy sequences and their analysis.

use super::api::{ApiError, ApiJson};
use super::games::{
    check_cost, check_game, need, sequence_cost, values_limit, CheckedGame, GameRequest,
    UNKNOWN_COST,
};
use super::limits::Limits;
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::game::spec::GameSpec;
use grundy::heap::sequence;
use grundy::pattern::runs::RunTable;
use grundy::pattern::value::{self, AnalysisDocument, SequenceAnalysis};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The analysis: the document of `grundy analyze --json`, under the server's name of the game
/// (`script` for a script sent in the request). Written by serde straight into the body, so a
/// count of `2^64` heaps stays an exact integer.
fn analysis_document(a: &SequenceAnalysis, game: String) -> AnalysisDocument {
    let mut doc = AnalysisDocument::from(a);
    doc.game = game;
    doc
}

/// The answer of `POST /api/seq`.
#[derive(Serialize)]
pub struct SeqAnswer {
    game: String,
    n: u64,
    values: Vec<u32>,
    analysis: AnalysisDocument,
    markers: Value,
}

/// The values `analyze` computes for a game under the server's limits.
pub(super) fn analyze_max(spec: &GameSpec, limits: &Limits) -> u64 {
    values_limit(
        spec,
        limits,
        value::default_max(spec).min(limits.analyze_max),
    )
}

/// The checked game and length of a `/api/seq` request.
pub(super) fn check_seq(
    req: &GameRequest,
    limits: &Limits,
) -> Result<(CheckedGame, u64), ApiError> {
    req.only("/api/seq", &["n"])?;
    let n = need(req.n, "n")?;
    let game = check_game(&req.game, req.script.as_deref(), limits)?;
    let most = values_limit(&game.spec, limits, limits.seq_n);
    if n == 0 || n > most {
        return Err(ApiError::bad(format!(
            "n: expected a number of values from 1 to {most} for this game, found {n}"
        )));
    }
    Ok((game, n))
}

/// `POST /api/seq {game, script?, n}`: G(0..n) and the analysis, with the markers to draw on the plot: the
/// preperiod and period, or the starts of runs of equal values (`divide:D` games).
pub async fn seq(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GameRequest>,
) -> Result<Json<SeqAnswer>, ApiError> {
    let limits = &state.limits;
    let (game, n) = check_seq(&req, limits)?;
    let max = analyze_max(&game.spec, limits);
    let cost = match (game.builtin(), &game.spec) {
        (_, GameSpec::Divide(_)) | (None, _) => UNKNOWN_COST,
        (Some(rule), _) => sequence_cost(&rule, n.max(max)),
    };
    check_cost(cost, limits)?;
    state
        .lane(cost)
        .run(move |ctl| {
            let rule = game.rule(ctl)?;
            let values = sequence::compute(&rule, n, ctl)?.to_vec();
            let a = value::analyze(&rule, max, ctl)?;
            let markers = match (a.period, a.run_count()) {
                (_, Some(_)) => {
                    // Run starts lie below n, so they fit a u64.
                    let table = RunTable::from_values(&values);
                    let starts: Vec<u64> = table.starts().iter().map(|&s| s as u64).collect();
                    json!({"kind": "runs", "starts": starts})
                }
                (Some(p), None) => json!({
                    "kind": "period", "preperiod": p.preperiod, "period": p.period,
                    "saltus": p.saltus
                }),
                (None, None) => json!({"kind": "none"}),
            };
            Ok(Json(SeqAnswer {
                game: game.name(),
                n,
                values,
                analysis: analysis_document(&a, game.name()),
                markers,
            }))
        })
        .await
}

/// `POST /api/analyze {game, script?}`: the period (proved or apparent) and pattern.
pub async fn analyze(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GameRequest>,
) -> Result<Json<AnalysisDocument>, ApiError> {
    req.only("/api/analyze", &[])?;
    let game = check_game(&req.game, req.script.as_deref(), &state.limits)?;
    let max = analyze_max(&game.spec, &state.limits);
    let cost = match (game.builtin(), &game.spec) {
        (_, GameSpec::Divide(_)) | (None, _) => UNKNOWN_COST,
        (Some(rule), _) => sequence_cost(&rule, max),
    };
    check_cost(cost, &state.limits)?;
    state
        .lane(cost)
        .run(move |ctl| {
            let rule = game.rule(ctl)?;
            let a = value::analyze(&rule, max, ctl)?;
            Ok(Json(analysis_document(&a, game.name())))
        })
        .await
}
