//! `grundy serve`: the web playground on 127.0.0.1.
//!
//! [`router`] builds the whole application (the page, its assets and the JSON API of [`api`]),
//! so that tests drive it in-process; [`run`] binds it to a port. Layers, outermost first:
//! a panic anywhere becomes a JSON 500 (tower-http's `CatchPanicLayer`, the last resort: no
//! handler is meant to panic), and bodies above [`Limits::body_bytes`] are refused with 413.
//! Heavy work runs through [`limits::Heavy`] (at most two jobs, a deadline, cancellation).

pub mod api;
pub mod assets;
pub mod limits;

use axum::http::{Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use limits::{Heavy, Limits};
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;

/// The default port of the specification.
pub const DEFAULT_PORT: u16 = 7357;

/// What every handler shares: the limits and the pool of heavy jobs.
#[derive(Debug)]
pub struct AppState {
    /// The limits in force.
    pub limits: Limits,
    /// The heavy-job pool.
    pub heavy: Heavy,
}

/// The playground with the default [`Limits`].
pub fn router() -> Router {
    router_with(Limits::default())
}

/// The playground with the given limits (tests use a short deadline).
pub fn router_with(limits: Limits) -> Router {
    let state = Arc::new(AppState {
        heavy: Heavy::new(&limits),
        limits: limits.clone(),
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/style.css", get(assets::style_css))
        .route("/api/games", get(api::games))
        .route("/api/seq", post(api::seq))
        .route("/api/analyze", post(api::analyze))
        .route("/api/hint", post(api::hint))
        .route("/api/move", post(api::play_move))
        .route("/api/moves", post(api::moves))
        .route("/api/graph", post(api::graph))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .layer(axum::extract::DefaultBodyLimit::max(limits.body_bytes))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                api::ApiError::internal("internal error: the server failed on this request")
                    .into_response()
            },
        ))
}

async fn not_found(uri: Uri) -> Response {
    api::ApiError::not_found(uri.path()).into_response()
}

async fn method_not_allowed(method: Method, uri: Uri) -> Response {
    api::ApiError::method_not_allowed(method.as_str(), uri.path()).into_response()
}

/// Why the server could not start.
#[derive(Debug)]
pub struct StartError {
    /// The message (naming the port).
    pub message: String,
    /// The exit status: 2 when the port is taken or not allowed (the user picks another), 1
    /// otherwise.
    pub status: i32,
}

/// Serves the playground on 127.0.0.1:`port` until interrupted (Ctrl-C), printing
/// `listening on http://127.0.0.1:PORT` to stderr once the port is bound.
pub fn run(port: u16) -> Result<(), StartError> {
    let internal = |e: std::io::Error| StartError {
        message: format!("cannot start the server: {e}"),
        status: 1,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(internal)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .map_err(|e| StartError {
                message: format!(
                    "--port {port}: cannot listen on 127.0.0.1:{port}: {e} (pick another port \
                     with --port P, or 0 for any free port)"
                ),
                status: 2,
            })?;
        let bound = listener.local_addr().map_err(internal)?.port();
        eprintln!("listening on http://127.0.0.1:{bound}");
        axum::serve(listener, router())
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(internal)
    })
}
