//! The JSON API of the playground: its errors, its JSON bodies and the checks every request
//! passes. The handlers are grouped by endpoint, one module each: [`super::games`] (the games
//! and the checks of a heap game), [`super::sequence`] (`/api/seq`, `/api/analyze`),
//! [`super::position`] (`/api/hint`, `/api/move`, `/api/moves`), [`super::graph`]
//! (`/api/graph`), [`super::boards`] (`/api/board`) and [`super::sum`] (`/api/sum`).
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

use super::games::{check_game, CheckedGame, GameRequest};
use super::graph::GraphRequest;
use super::limits::Limits;
use super::position::{check_position, MOVES_FIELDS};
use super::sequence::{analyze_max, check_seq};
use super::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use grundy::control::Control;
use grundy::notation::graph::{parse_graph, GraphFormat};
use serde::de::DeserializeOwned;
use serde_json::json;
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
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> Self {
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
                    "{}: each computation of the playground gets an equal share of the \
                     server's memory budget (grundy serve --memory SIZE; see the limits table in \
                     docs/playground.md); ask for less, or use the grundy command line",
                    l.what
                ))
            }
            _ => ApiError::bad(e.to_string()),
        }
    }
}

/// Library errors of a request that names a move or heap: bad ones are impossible (422).
pub(super) fn impossible(e: grundy::Error) -> ApiError {
    match e {
        grundy::Error::Invalid(m) => ApiError::unprocessable(m),
        e => e.into(),
    }
}

/// The 422 answer for a heap index beyond the heaps: the API counts heaps from 0.
pub(super) fn no_such_heap(i: usize, heaps: &[u64]) -> ApiError {
    ApiError::unprocessable(format!(
        "heap {i} does not exist: expected a heap index from 0 to {} (heaps are counted from 0)",
        heaps.len().saturating_sub(1)
    ))
}

/// The answer for a human move the library refused ([`grundy::heap::hint::apply`]), worded with
/// the API's 0-based heap index: a heap that does not exist, a size that does not match, or an
/// option the rule does not allow.
pub(super) fn illegal(
    e: grundy::Error,
    heaps: &[u64],
    mv: &grundy::heap::position::Move,
) -> ApiError {
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
            let req: GameRequest = body_as(body)?;
            let (game, _) = check_seq(&req, limits)?;
            analyze_max(&game.spec, limits);
            compile(&game)
        }
        "analyze" => {
            let req: GameRequest = body_as(body)?;
            req.only("/api/analyze", &[])?;
            let game = check_game(&req.game, req.script.as_deref(), limits)?;
            analyze_max(&game.spec, limits);
            compile(&game)
        }
        "hint" | "move" | "moves" => {
            let req: GameRequest = body_as(body)?;
            let takes: &[&str] = match endpoint {
                "moves" => &MOVES_FIELDS,
                _ => &["heaps", "misere", "human"],
            };
            compile(&check_position(&req, endpoint, takes, limits)?.0)
        }
        "graph" => {
            let req: GraphRequest = body_as(body)?;
            let format = match req.format.as_deref() {
                None | Some("adjacency") => GraphFormat::Adjacency,
                Some("arcs") => GraphFormat::Arcs,
                Some(_) => return Err(ApiError::bad("format: unknown")),
            };
            let memory = 64 * req.text.len() as u64 + 4096;
            let ctl = Control::none().with_memory(grundy::MemoryBudget::new(memory));
            parse_graph(req.text.as_bytes(), format, &ctl)?;
            Ok(())
        }
        _ => Err(ApiError::not_found(endpoint)),
    }
}
