//! The JSON API of the playground: one handler per endpoint, every request validated first.
//!
//! Statuses: 400 bad notation or shape (and a request beyond a stated limit), 408 a body that
//! did not arrive in time, 413 body too large, 415 a POST whose Content-Type is not
//! `application/json`, 421 a request not addressed to this server (see [`super::app`]), 422 a
//! well-formed request that asks the impossible (an illegal move, a heap that does not exist)
//! or more memory than a job is granted, 503 busy or past the deadline, 404 and 405 for unknown
//! paths and methods, 500 as the last resort. Every error body is `{"error": "..."}`.
//!
//! Each compute endpoint first checks its request, then estimates its cost (an upper bound on
//! the options its engines visit, from the rule's bound on the options of a heap) to pick its
//! lane ([`AppState::lane`]), and refuses a request whose estimate exceeds
//! [`Limits::max_operations`].

use super::limits::Limits;
use super::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grundy::control::Control;
use grundy::game::spec::GameSpec;
use grundy::heap::hint::{self, Hint};
use grundy::heap::position::Move;
use grundy::heap::script::ScriptRule;
use grundy::heap::{sequence, HeapGame};
use grundy::notation::game::parse_game;
use grundy::notation::graph::{parse_graph, parse_graph_with, GraphFormat};
use grundy::pattern::runs::RunTable;
use grundy::pattern::value::{self, AnalysisDocument, SequenceAnalysis};
use grundy::solve::{loopy, outcome, Play};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;

/// An error answered as `{"error": message}` with its status.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong and what was expected.
    pub message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: bad notation, bad shape, or beyond a stated limit.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 422: well-formed but impossible.
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503: no worker free.
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 503: the deadline passed.
    pub fn timeout(seconds: f64) -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the computation was stopped at the {seconds} s deadline: ask for fewer values or \
                 smaller heaps, or use the grundy command line, which has no deadline"
            ),
        )
    }

    /// 421: the request names another host (DNS rebinding, a cross-site request).
    pub fn misdirected(port: u16) -> Self {
        Self::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server answers only requests addressed to 127.0.0.1:{port}, \
                 localhost:{port} or [::1]:{port} (the Host header)"
            ),
        )
    }

    /// 500: not the request's fault.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// 404.
    pub fn not_found(path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            format!(
                "no such page or endpoint: {path} (the API is under /api/, see GET /api/games)"
            ),
        )
    }

    /// 405.
    pub fn method_not_allowed(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} does not take {method}: the API's endpoints take POST except GET /api/games"),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<grundy::Error> for ApiError {
    /// Bad input and stated limits are the request's fault (400); a computation stopped on
    /// request is unavailable (503); anything else is ours (500).
    fn from(e: grundy::Error) -> Self {
        match e {
            grundy::Error::Internal(_) => ApiError::internal(e.to_string()),
            grundy::Error::Cancelled(_) => ApiError::busy("the computation was stopped"),
            grundy::Error::Limit(l) if l.kind == grundy::LimitKind::Memory => {
                ApiError::unprocessable(format!(
                    "{}: the playground grants each computation a fixed memory budget (see the \
                     limits table in docs/playground.md); ask for less, or use the grundy \
                     command line and its --memory option",
                    l.what
                ))
            }
            _ => ApiError::bad(e.to_string()),
        }
    }
}

/// Library errors of a request that names a move or heap: bad ones are impossible (422).
fn impossible(e: grundy::Error) -> ApiError {
    match e {
        grundy::Error::Invalid(m) => ApiError::unprocessable(m),
        e => e.into(),
    }
}

/// The 422 answer for a heap index beyond the heaps: the API counts heaps from 0.
fn no_such_heap(i: usize, heaps: &[u64]) -> ApiError {
    ApiError::unprocessable(format!(
        "heap {i} does not exist: expected a heap index from 0 to {} (heaps are counted from 0)",
        heaps.len().saturating_sub(1)
    ))
}

/// The answer for a human move the library refused ([`hint::apply`]), worded with the API's
/// 0-based heap index: a heap that does not exist, a size that does not match, or an option the
/// rule does not allow.
fn illegal(e: grundy::Error, heaps: &[u64], mv: &grundy::heap::position::Move) -> ApiError {
    let grundy::Error::Invalid(_) = e else {
        return e.into();
    };
    let i = mv.heap;
    match heaps.get(i) {
        None => no_such_heap(i, heaps),
        Some(&h) if h != mv.from => {
            ApiError::unprocessable(format!("heaps[{i}] has {h} tokens, not {}", mv.from))
        }
        Some(&h) => {
            let to: Vec<String> = mv.to.iter().map(u64::to_string).collect();
            let to = if to.is_empty() {
                "nothing".to_string()
            } else {
                to.join(" ")
            };
            ApiError::unprocessable(format!(
                "heaps[{i}] ({h} tokens) cannot become {to} under this game's rule"
            ))
        }
    }
}

/// Whether a Content-Type header value is JSON: `application/json`, any case, with or without
/// parameters (`; charset=utf-8`).
pub fn is_json(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON body: its Content-Type must be `application/json` (415 otherwise: a page of another
/// site can send a form or text/plain to the playground without the browser asking, but not
/// JSON), read whole within [`Limits::body_timeout`] (408) and the body limit (413), then parsed
/// (400 with serde's line and column on bad JSON or a bad shape).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let content_type = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if !content_type.is_some_and(is_json) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "expected a JSON body with the header Content-Type: application/json, found {}",
                    content_type.map_or("no Content-Type".into(), |t| format!("{t:?}"))
                ),
            ));
        }
        let wait = state.limits.body_timeout;
        let read = tokio::time::timeout(wait, Bytes::from_request(req, state))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request body did not arrive within {} s",
                        wait.as_secs_f64()
                    ),
                )
            })?;
        let bytes = read.map_err(|r| {
            let status = r.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    status,
                    "the request body is larger than the limit (see the limits table in docs/playground.md)",
                )
            } else {
                ApiError::new(status, r.body_text())
            }
        })?;
        serde_json::from_slice(&bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
}

/// The game fields shared by the heap endpoints: GAME notation, and the script's source text
/// when `game` is `"script"`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// GAME notation, or `script`.
    pub game: String,
    /// The script's source (for `game: "script"`).
    #[serde(default)]
    pub script: Option<String>,
}

/// A game checked for notation and size, whose rule is built inside a job (a script gets the
/// job's deadline).
#[derive(Clone, Debug)]
pub struct CheckedGame {
    spec: GameSpec,
    script: Option<String>,
    script_operations: u64,
}

impl CheckedGame {
    /// The canonical notation (`script` for scripts).
    pub(super) fn name(&self) -> String {
        match self.spec {
            GameSpec::Script(_) => "script".into(),
            _ => self.spec.to_string(),
        }
    }

    /// The game; a script is compiled with the operation budget, watching the job's `ctl`,
    /// with `print` and `debug` silenced and `sleep` refused ([`ScriptRule::for_server`]).
    pub(super) fn rule(&self, ctl: &Control) -> Result<HeapGame, ApiError> {
        match &self.script {
            Some(src) => {
                let mut rule =
                    ScriptRule::compile_limited(src, "script", self.script_operations, ctl)?;
                rule.for_server();
                Ok(HeapGame::from_script("script", rule))
            }
            None => Ok(HeapGame::from_spec(self.spec.clone())?),
        }
    }

    /// The rule, for cost estimates: `None` for scripts, whose cost is unknown.
    fn builtin(&self) -> Option<HeapGame> {
        match self.script {
            Some(_) => None,
            None => HeapGame::from_spec(self.spec.clone()).ok(),
        }
    }
}

/// A cost estimate for work no bound is known for (scripts, misère searches, analyses of
/// divide games): it always runs in the heavy lane, under the deadline.
pub(super) const UNKNOWN_COST: u128 = u128::MAX;

/// An upper bound on the options visited to compute G(0..=max) of `rule`: each G(n) is the mex
/// of at most `option_count_bound(n)` option values, and the bound grows with n, so the sum is at
/// most `(max + 1) * option_count_bound(max)`.
fn sequence_cost(rule: &HeapGame, max: u64) -> u128 {
    (u128::from(max) + 1).saturating_mul(rule.option_count_bound(max).max(1))
}

/// The cost estimate of a hint, a move or a move list on `heaps`: the sequence up to the largest
/// heap, then the options of every heap, a few times over (a move checks whether the game is
/// over before and after the engine's reply). Misère play of games other than Nim is a search
/// over positions: unknown.
pub(super) fn position_cost(game: &CheckedGame, heaps: &[u64], misere: bool) -> u128 {
    let Some(rule) = game.builtin() else {
        return UNKNOWN_COST;
    };
    if misere && game.spec != GameSpec::Nim {
        return UNKNOWN_COST;
    }
    // Positions of Nim and divide games need no sequence (G(n) = n; a divide game's value is
    // found by a walk of a few steps per heap).
    let values = match game.spec {
        GameSpec::Nim | GameSpec::Divide(_) => 0,
        _ => sequence_cost(&rule, heaps.iter().copied().max().unwrap_or(0)),
    };
    let options: u128 = heaps
        .iter()
        .map(|&h| rule.option_count_bound(h))
        .fold(0u128, u128::saturating_add);
    values.saturating_add(options.saturating_mul(4))
}

/// Refuses a request whose cost estimate is above [`Limits::max_operations`]: it could not end
/// within the deadline, and the engines' checks of the deadline may be far apart in such work.
pub(super) fn check_cost(cost: u128, limits: &Limits) -> Result<(), ApiError> {
    if cost != UNKNOWN_COST && cost > limits.max_operations {
        return Err(ApiError::bad(format!(
            "this request may visit up to {cost} options, above the limit of {} for the \
             playground: ask for fewer values or smaller heaps, or use the grundy command line",
            limits.max_operations
        )));
    }
    Ok(())
}

/// Checks the game of a request: the notation parses; a script comes as source text within the
/// limit, never as a path.
pub(super) fn check_game(
    game: &str,
    script: Option<&str>,
    limits: &Limits,
) -> Result<CheckedGame, ApiError> {
    let script_operations = limits.script_operations;
    if game == "script" {
        let Some(src) = script else {
            return Err(ApiError::bad(
                "game \"script\" needs the field \"script\": the Rhai source defining fn options(n)",
            ));
        };
        if src.len() > limits.script_bytes {
            return Err(ApiError::bad(format!(
                "the script has {} bytes, above the limit of {}",
                src.len(),
                limits.script_bytes
            )));
        }
        return Ok(CheckedGame {
            spec: GameSpec::Script(PathBuf::from("script")),
            script: Some(src.to_string()),
            script_operations,
        });
    }
    if script.is_some() {
        return Err(ApiError::bad(
            "the field \"script\" is only for game \"script\"",
        ));
    }
    if game.len() > limits.game_bytes {
        return Err(ApiError::bad(format!(
            "game: the notation has {} bytes, above the limit of {}",
            game.len(),
            limits.game_bytes
        )));
    }
    if game.starts_with("script:") {
        return Err(ApiError::bad(
            "scripts are not read from the server's disk: send game \"script\" and the source \
             text in the field \"script\"",
        ));
    }
    let spec = parse_game(game).map_err(|e| ApiError::bad(e.in_source("game").to_string()))?;
    Ok(CheckedGame {
        spec,
        script: None,
        script_operations,
    })
}

/// The most values a request may need of `spec`: [`Limits::three_heap_values`] for codes whose
/// moves may leave three heaps, `otherwise` for the rest.
fn values_limit(spec: &GameSpec, limits: &Limits, otherwise: u64) -> u64 {
    match spec.take_break() {
        Some(c) if c.max_heaps() >= 3 => otherwise.min(limits.three_heap_values),
        _ => otherwise,
    }
}

/// Checks heaps against the limits: at least one, at most [`Limits::heaps`], each at most
/// [`Limits::heap_size`] (less for three-heap codes, see [`values_limit`]).
pub(super) fn check_heaps(
    game: &CheckedGame,
    heaps: &[u64],
    limits: &Limits,
) -> Result<(), ApiError> {
    let heap_size = values_limit(&game.spec, limits, limits.heap_size);
    if heaps.is_empty() {
        return Err(ApiError::bad("heaps: expected at least one heap"));
    }
    if heaps.len() > limits.heaps {
        return Err(ApiError::bad(format!(
            "heaps: {} heaps, above the limit of {}",
            heaps.len(),
            limits.heaps
        )));
    }
    if let Some((i, h)) = heaps.iter().enumerate().find(|(_, &h)| h > heap_size) {
        return Err(ApiError::bad(format!(
            "heaps[{i}] has {h} tokens, above the limit of {heap_size} for this game",
        )));
    }
    if game.script.is_none() {
        let rule = HeapGame::from_spec(game.spec.clone())?;
        if let Some((i, h, m)) = heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| (i, h, rule.option_count_bound(h)))
            .find(|&(_, _, m)| m > limits.moves_per_heap)
        {
            return Err(ApiError::bad(format!(
                "heaps[{i}] ({h} tokens) may have up to {m} moves in this game, above the \
                 limit of {} moves a heap; use smaller heaps",
                limits.moves_per_heap
            )));
        }
    }
    Ok(())
}

/// `GET /api/games`: the named games and the notation, for the page's menu and help.
pub async fn games() -> Json<Value> {
    Json(json!({
        "games": [
            {"game": "nim", "name": "Nim", "about": "take any number of tokens from one heap"},
            {"game": "kayles", "name": "Kayles", "about": "knock down one pin or two adjacent pins (octal 0.77)"},
            {"game": "dawsons-kayles", "name": "Dawson's Kayles", "about": "knock down two adjacent pins (octal 0.07)"},
            {"game": "dawsons-chess", "name": "Dawson's Chess", "about": "octal 0.137"},
            {"game": "officers", "name": "Officers", "about": "octal 0.6"},
            {"game": "grundys-game", "name": "Grundy's game", "about": "split a heap into two unequal heaps"},
            {"game": "sub:1,3,4", "name": "Subtraction {1, 3, 4}", "about": "take 1, 3 or 4 tokens"},
            {"game": "squares", "name": "Subtract a square", "about": "take a positive square number of tokens"},
            {"game": "divide:2,3,4,5,6", "name": "Divide by 2..6", "about": "replace n by floor(n/d), d from 2 to 6"},
            {"game": "script", "name": "Script", "about": "your own rule in Rhai: fn options(n) returns the options of heap n as an array of arrays of heaps"}
        ],
        "notation": [
            "nim",
            "sub:S, e.g. sub:1,3,4 or sub:1-3,5 (take k tokens, k in S)",
            "octal:CODE, e.g. octal:0.77 (take-and-break; hexadecimal digits 8-F may leave three heaps)",
            "kayles, dawsons-kayles, dawsons-chess, officers (octal aliases)",
            "grundys-game",
            "divide:D, e.g. divide:2,3 (n becomes floor(n/d), d in D)",
            "squares",
            "script (with the field \"script\": Rhai source defining fn options(n))"
        ],
        "graph_format": "one line per vertex, V: W1 W2 ... (V's options); names are letters, digits, _ . -; lines starting with # are comments; cycles allowed. Or format \"arcs\": one arc U V per line, U and V numbers."
    }))
}

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
fn analyze_max(spec: &GameSpec, limits: &Limits) -> u64 {
    values_limit(
        spec,
        limits,
        value::default_max(spec).min(limits.analyze_max),
    )
}

/// `POST /api/seq {game, script?, n}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct SeqRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    n: u64,
}

/// `POST /api/seq`: G(0..n) and the analysis, with the markers to draw on the plot: the
/// preperiod and period, or the starts of runs of equal values (`divide:D` games).
pub async fn seq(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<SeqRequest>,
) -> Result<Json<SeqAnswer>, ApiError> {
    let limits = &state.limits;
    let game = check_game(&req.game, req.script.as_deref(), limits)?;
    let most = values_limit(&game.spec, limits, limits.seq_n);
    if req.n == 0 || req.n > most {
        return Err(ApiError::bad(format!(
            "n: expected a number of values from 1 to {most} for this game, found {}",
            req.n
        )));
    }
    let n = req.n;
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

/// `POST /api/hint` and `/api/move` bodies.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    heaps: Vec<u64>,
    #[serde(default)]
    misere: bool,
    /// `/api/move` only: the human's move, played before the engine answers.
    #[serde(default)]
    human: Option<Move>,
}

/// The checked game and heaps of a position request.
fn check_position(
    req: &PositionRequest,
    limits: &Limits,
) -> Result<(CheckedGame, Vec<u64>), ApiError> {
    let game = check_game(&req.game, req.script.as_deref(), limits)?;
    check_heaps(&game, &req.heaps, limits)?;
    if req.misere && game.spec != GameSpec::Nim {
        if let Some((i, h)) = req
            .heaps
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
    Ok((game, req.heaps.clone()))
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
    ApiJson(req): ApiJson<PositionRequest>,
) -> Result<Json<HintAnswer>, ApiError> {
    if req.human.is_some() {
        return Err(ApiError::bad("the field \"human\" is for /api/move"));
    }
    let (game, heaps) = check_position(&req, &state.limits)?;
    let misere = req.misere;
    let cost = position_cost(&game, &heaps, misere);
    check_cost(cost, &state.limits)?;
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
    ApiJson(req): ApiJson<PositionRequest>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let (game, heaps) = check_position(&req, &state.limits)?;
    let misere = req.misere;
    let human = req.human;
    let cost = position_cost(&game, &heaps, misere);
    check_cost(cost, &state.limits)?;
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

/// `POST /api/moves {game, script?, heaps, heap}` (`heap` 0-based).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MovesRequest {
    game: String,
    #[serde(default)]
    script: Option<String>,
    heaps: Vec<u64>,
    heap: usize,
}

/// `POST /api/moves`: every legal move of one heap (422 for a heap that does not exist).
pub async fn moves(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<MovesRequest>,
) -> Result<Json<Value>, ApiError> {
    let game = check_game(&req.game, req.script.as_deref(), &state.limits)?;
    check_heaps(&game, &req.heaps, &state.limits)?;
    let (heaps, i) = (req.heaps, req.heap);
    let cost = position_cost(&game, &heaps, false);
    check_cost(cost, &state.limits)?;
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

/// `POST /api/graph {text, format?, misere?}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GraphRequest {
    text: String,
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    misere: bool,
}

/// One vertex of a solved graph, placed for drawing.
#[derive(Serialize, Debug)]
struct VertexDoc {
    name: String,
    /// `P`, `N` or `D`.
    outcome: String,
    remoteness: Option<u32>,
    /// The generalized Sprague-Grundy value (`3`, `inf{0,2}`), normal play only.
    value: Option<String>,
    /// Column of the layered drawing: the remoteness (P and N), one past the largest for D.
    layer: usize,
    /// Row within the layer.
    slot: usize,
}

/// `POST /api/graph`: outcomes (P, N, D), remoteness, generalized Sprague-Grundy values and a
/// layered layout of a small graph of the SPEC's "Game graphs" format.
///
/// Layout: vertex `v` goes to layer `remoteness(v)` (terminal positions at 0; a P position of
/// remoteness r has all its options in layers below r, and an N position a winning option at
/// r - 1), draws in a layer of their own after the last; within a layer, in input order.
pub async fn graph(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GraphRequest>,
) -> Result<Json<Value>, ApiError> {
    let limits = state.limits.clone();
    let format = match req.format.as_deref() {
        None | Some("adjacency") => GraphFormat::Adjacency,
        Some("arcs") => GraphFormat::Arcs,
        Some(f) => {
            return Err(ApiError::bad(format!(
                "format: expected \"adjacency\" or \"arcs\", found {f:?}"
            )))
        }
    };
    let play = if req.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    // Parsing and solving a graph of t bytes visits at most about t vertices times t arcs.
    let cost = (req.text.len() as u128).pow(2);
    state
        .lane(cost)
        .run(move |ctl| {
            // The reader draws on the job's memory budget and stops at its deadline.
            let parsed =
                parse_graph_with(req.text.as_bytes(), format, ctl).map_err(|e| match e {
                    grundy::Error::Parse(p) => ApiError::bad(p.in_source("text").to_string()),
                    e => e.into(),
                })?;
            let g = &parsed.graph;
            let (nv, na) = (g.vertex_count(), g.arc_count());
            if nv == 0 {
                return Err(ApiError::bad(
                    "text: expected at least one vertex line V: W1 W2 ...",
                ));
            }
            if nv > limits.graph_vertices || na > limits.graph_arcs {
                return Err(ApiError::bad(format!(
                    "the graph has {nv} vertices and {na} arcs, above the limits of {} vertices \
                     and {} arcs (use grundy graph solve for large graphs)",
                    limits.graph_vertices, limits.graph_arcs
                )));
            }
            let outcomes = outcome::solve(g, play, ctl)?;
            let values = match play {
                Play::Normal => Some(loopy::solve(g, ctl)?),
                Play::Misere => None,
            };
            let draw_layer = (0..nv as u32)
                .filter_map(|v| outcomes.remoteness(v))
                .max()
                .map_or(0, |r| r as usize + 1);
            let mut widths: Vec<usize> = vec![0; draw_layer + 1];
            let mut vertices = Vec::with_capacity(nv);
            for v in 0..nv as u32 {
                let layer = outcomes.remoteness(v).map_or(draw_layer, |r| r as usize);
                vertices.push(VertexDoc {
                    name: parsed.names.get(v).to_string(),
                    outcome: outcomes.outcome(v).to_string(),
                    remoteness: outcomes.remoteness(v),
                    value: values.as_ref().map(|vals| vals.value(g, v).to_string()),
                    layer,
                    slot: widths[layer],
                });
                widths[layer] += 1;
            }
            while widths.last() == Some(&0) {
                widths.pop();
            }
            let arcs: Vec<[u32; 2]> = (0..nv as u32)
                .flat_map(|v| g.options(v).iter().map(move |&w| [v, w]))
                .collect();
            Ok(Json(json!({
                "vertices": vertices,
                "arcs": arcs,
                "layers": widths,
                "misere": req.misere,
            })))
        })
        .await
}

/// The checks a request body passes before its job starts, for one endpoint (`seq`, `analyze`,
/// `hint`, `move`, `moves` or `graph`): the JSON shape, the game notation, the limits, a
/// script's compilation and a graph's text. This is the part of the API that reads arbitrary
/// bytes from a client; the fuzz targets and their replay test call it (docs/fuzzing.md).
#[doc(hidden)]
pub fn check_request(endpoint: &str, body: &[u8], limits: &Limits) -> Result<(), ApiError> {
    fn body_as<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
        serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
    let compile = |game: &CheckedGame| game.rule(&Control::none()).map(drop);
    match endpoint {
        "seq" => {
            let req: SeqRequest = body_as(body)?;
            let game = check_game(&req.game, req.script.as_deref(), limits)?;
            let most = values_limit(&game.spec, limits, limits.seq_n);
            if req.n == 0 || req.n > most {
                return Err(ApiError::bad("n: out of range"));
            }
            analyze_max(&game.spec, limits);
            compile(&game)
        }
        "analyze" => {
            let req: GameRequest = body_as(body)?;
            let game = check_game(&req.game, req.script.as_deref(), limits)?;
            analyze_max(&game.spec, limits);
            compile(&game)
        }
        "hint" | "move" => {
            let req: PositionRequest = body_as(body)?;
            compile(&check_position(&req, limits)?.0)
        }
        "moves" => {
            let req: MovesRequest = body_as(body)?;
            let game = check_game(&req.game, req.script.as_deref(), limits)?;
            check_heaps(&game, &req.heaps, limits)?;
            compile(&game)
        }
        "graph" => {
            let req: GraphRequest = body_as(body)?;
            let format = match req.format.as_deref() {
                None | Some("adjacency") => GraphFormat::Adjacency,
                Some("arcs") => GraphFormat::Arcs,
                Some(_) => return Err(ApiError::bad("format: unknown")),
            };
            let memory = 64 * req.text.len() as u64 + 4096;
            parse_graph(req.text.as_bytes(), format, memory)?;
            Ok(())
        }
        _ => Err(ApiError::not_found(endpoint)),
    }
}
