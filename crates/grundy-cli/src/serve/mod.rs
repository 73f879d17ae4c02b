//! `grundy serve`: the web playground on 127.0.0.1.
//!
//! [`router`] builds the whole application (the page, its assets and the JSON API of [`api`]),
//! so that tests drive it in-process; [`app`] adds the check of the Host header for a port, and
//! [`serve`] runs it on a listener with the connection limits of [`Limits`]; [`run`] binds the
//! port. Layers, outermost first: the Host check (421 unless the request is addressed to
//! 127.0.0.1, localhost or [::1] with the server's port: a page of another site, or a DNS name
//! rebound to 127.0.0.1, cannot reach the playground through the user's browser), a panic
//! anywhere becomes a JSON 500 (tower-http's `CatchPanicLayer`, the last resort: no handler is
//! meant to panic), and bodies above [`Limits::body_bytes`] are refused with 413. Heavy work runs
//! in the lanes of [`limits`] (a deadline, a memory budget, cancellation).
//!
//! Connections: each is served by hyper's HTTP/1 connection with a header-read timeout of
//! [`Limits::header_timeout`] (it runs whenever the server waits for a request's head, so it
//! closes half-sent heads and idle keep-alive connections alike); request bodies have
//! [`Limits::body_timeout`] to arrive whole (408); at most [`Limits::connections`] are open at
//! once, a new one closing the connection idle longest, or else the one whose body has been
//! arriving longest (see [`serve`]). A request with more than one Host header is answered 400.

pub mod api;
pub mod assets;
pub mod boards;
pub mod games;
pub mod graph;
pub mod limits;
pub mod position;
pub mod sequence;
pub mod sum;

use axum::extract::{Request, State};
use axum::http::{header, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use limits::{Lane, Limits};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt;
use tower_http::catch_panic::CatchPanicLayer;

/// The default port of the specification.
pub const DEFAULT_PORT: u16 = 7357;

/// What every handler shares: the limits and the two lanes of jobs.
#[derive(Debug)]
pub struct AppState {
    /// The limits in force.
    pub limits: Limits,
    /// The heavy lane.
    pub heavy: Lane,
    /// The fast lane, for requests whose cost estimate is at most [`Limits::fast_operations`].
    pub fast: Lane,
}

impl AppState {
    /// The lane for a request of cost estimate `cost` (options visited, at most).
    pub fn lane(&self, cost: u128) -> &Lane {
        if cost <= self.limits.fast_operations {
            &self.fast
        } else {
            &self.heavy
        }
    }
}

/// The playground with the default [`Limits`].
pub fn router() -> Router {
    router_with(Limits::default())
}

/// The playground with the given limits (tests use a short deadline).
pub fn router_with(limits: Limits) -> Router {
    build(limits).0
}

/// The playground and its shared state.
fn build(limits: Limits) -> (Router, Arc<AppState>) {
    let state = Arc::new(AppState {
        heavy: Lane::heavy(&limits),
        fast: Lane::fast(&limits),
        limits: limits.clone(),
    });
    let router = Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/style.css", get(assets::style_css))
        .route("/boards.js", get(assets::boards_js))
        .route("/sum.js", get(assets::sum_js))
        .route("/api/board", post(boards::board))
        .route("/api/board/reply", post(boards::reply))
        .route("/api/sum", post(sum::sum))
        .route("/api/sum/reply", post(sum::reply))
        .route("/api/games", get(games::games))
        .route("/api/seq", post(sequence::seq))
        .route("/api/analyze", post(sequence::analyze))
        .route("/api/hint", post(position::hint))
        .route("/api/move", post(position::play_move))
        .route("/api/moves", post(position::moves))
        .route("/api/graph", post(graph::graph))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state.clone())
        .layer(axum::extract::DefaultBodyLimit::max(limits.body_bytes))
        .layer(CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                api::ApiError::internal("internal error: the server failed on this request")
                    .into_response()
            },
        ));
    (router, state)
}

/// The playground with the given limits, answering only requests addressed to this machine on
/// `port` (see [`allowed_host`]); others get 421.
pub fn app(limits: Limits, port: u16) -> Router {
    with_host_check(router_with(limits), port)
}

fn with_host_check(router: Router, port: u16) -> Router {
    router.layer(axum::middleware::from_fn_with_state(port, host_check))
}

/// Whether `host` (a Host header, or the authority of an absolute request target) names this
/// server: `127.0.0.1`, `localhost` (any case) or `[::1]`, with `:port`; without a port only when
/// `port` is 80, the port a browser leaves out.
pub fn allowed_host(host: &str, port: u16) -> bool {
    let (name, rest) = match host.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((addr, rest)) => (&host[..addr.len() + 2], rest),
            None => return false,
        },
        None => match host.find(':') {
            Some(i) => (&host[..i], &host[i..]),
            None => (host, ""),
        },
    };
    let named = name == "127.0.0.1" || name == "[::1]" || name.eq_ignore_ascii_case("localhost");
    let port_ok = match rest.strip_prefix(':') {
        Some(p) => !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.parse() == Ok(port),
        None => rest.is_empty() && port == 80,
    };
    named && port_ok
}

/// The Host check: the Host header must be present, only once (400 otherwise), and allowed, and
/// so must the authority of a request target in absolute form.
async fn host_check(State(port): State<u16>, req: Request, next: Next) -> Response {
    if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
        // Which of them a proxy or a handler would read is anybody's guess (RFC 9112 §3.2: a
        // request with more than one Host is answered 400).
        return api::ApiError::bad("the request has more than one Host header").into_response();
    }
    let host = req.headers().get(header::HOST).map(|h| h.to_str());
    let ok = match (host, req.uri().authority()) {
        (Some(Ok(h)), a) => {
            allowed_host(h, port) && a.is_none_or(|a| allowed_host(a.as_str(), port))
        }
        (None, Some(a)) => allowed_host(a.as_str(), port),
        _ => false,
    };
    if ok {
        next.run(req).await
    } else {
        api::ApiError::misdirected(port).into_response()
    }
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

/// The open connections of [`serve`]: for each, whether it is answering a request now, when it
/// last finished one (or opened), and how to close it.
#[derive(Default)]
struct Connections {
    open: HashMap<u64, Connection>,
    next_id: u64,
}

struct Connection {
    busy: Arc<AtomicUsize>,
    /// 1 + milliseconds since the server started, when the body of the request being answered
    /// began to arrive; 0 when no body is arriving.
    receiving: Arc<AtomicU64>,
    /// Milliseconds since the server started, when it opened or last answered.
    active: Arc<AtomicU64>,
    close: Arc<Notify>,
}

impl Connections {
    /// Makes room for one more connection when `cap` are open: closes the one idle longest (no
    /// request being answered; a half-sent head counts as idle), else the one whose request
    /// body has been arriving longest (a body trickled byte by byte holds its connection until
    /// the body timeout). False when every open connection is computing an answer.
    fn make_room(&mut self, cap: usize) -> bool {
        if self.open.len() < cap {
            return true;
        }
        let idlest = self
            .open
            .iter()
            .filter(|(_, c)| c.busy.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, c)| c.active.load(Ordering::Acquire))
            .or_else(|| {
                self.open
                    .iter()
                    .map(|(id, c)| (id, c.receiving.load(Ordering::Acquire)))
                    .filter(|&(_, since)| since > 0)
                    .min_by_key(|&(_, since)| since)
                    .and_then(|(id, _)| self.open.get_key_value(id))
            })
            .map(|(&id, _)| id);
        match idlest.and_then(|id| self.open.remove(&id)) {
            Some(c) => {
                c.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// A request body that marks its connection as receiving a body (see [`Connection`]) until
/// it has arrived whole, failed, or been dropped.
struct Receiving {
    inner: Incoming,
    since: Arc<AtomicU64>,
}

impl Receiving {
    fn new(inner: Incoming, since: Arc<AtomicU64>, epoch: Instant) -> Receiving {
        use hyper::body::Body as _;
        if !inner.is_end_stream() {
            since.store(epoch.elapsed().as_millis() as u64 + 1, Ordering::Release);
        }
        Receiving { inner, since }
    }
}

impl hyper::body::Body for Receiving {
    type Data = axum::body::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let frame = std::pin::Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(frame, std::task::Poll::Ready(None | Some(Err(_))))
            || self.inner.is_end_stream()
        {
            self.since.store(0, Ordering::Release);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Receiving {
    fn drop(&mut self) {
        self.since.store(0, Ordering::Release);
    }
}

/// Counts a request as being answered on its connection while it lives.
struct Busy {
    busy: Arc<AtomicUsize>,
    active: Arc<AtomicU64>,
    epoch: Instant,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.active
            .store(self.epoch.elapsed().as_millis() as u64, Ordering::Release);
        self.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves the playground (with the Host check of [`app`]) on `listener` until `shutdown`
/// completes. Each connection is served by hyper's HTTP/1 connection with the header-read
/// timeout of [`Limits::header_timeout`]. At most [`Limits::connections`] are open at once: a
/// new connection beyond that closes the open one that has been idle longest, or else the one
/// whose request body has been arriving longest, so a flood of idle, half-sent or
/// slowly-sending connections cannot keep a real client out (when every open connection is
/// computing an answer, the new one is closed instead). At shutdown it stops accepting, tells
/// every running job to stop, and gives open connections one second to finish their answers.
pub async fn serve<F>(listener: TcpListener, limits: Limits, shutdown: F) -> std::io::Result<()>
where
    F: Future<Output = ()> + Send,
{
    let port = listener.local_addr()?.port();
    let (router, state) = build(limits.clone());
    let app = with_host_check(router, port);
    let epoch = Instant::now();
    let connections = Arc::new(Mutex::new(Connections::default()));
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let cap = limits.connections.max(1);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was accepted: wait a
                // little rather than spin, then accept again.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let now = epoch.elapsed().as_millis() as u64;
        let (id, busy, active, receiving, close) = {
            let Ok(mut open) = connections.lock() else {
                break;
            };
            if !open.make_room(cap) {
                continue; // dropping the stream closes it
            }
            let id = open.next_id;
            open.next_id += 1;
            let c = Connection {
                busy: Arc::new(AtomicUsize::new(0)),
                active: Arc::new(AtomicU64::new(now)),
                receiving: Arc::new(AtomicU64::new(0)),
                close: Arc::new(Notify::new()),
            };
            let handles = (
                id,
                c.busy.clone(),
                c.active.clone(),
                c.receiving.clone(),
                c.close.clone(),
            );
            open.open.insert(id, c);
            handles
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            busy.fetch_add(1, Ordering::AcqRel);
            let guard = Busy {
                busy: busy.clone(),
                active: active.clone(),
                epoch,
            };
            let body = |b| axum::body::Body::new(Receiving::new(b, receiving.clone(), epoch));
            let answer = app.clone().oneshot(req.map(body));
            async move {
                let answer = answer.await;
                drop(guard);
                answer
            }
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let mut stop = stop.clone();
        let connections = connections.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = close.notified() => {}
                () = async { let _ = stop.wait_for(|&s| s).await; } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(1), connection.as_mut()).await;
                }
            }
            if let Ok(mut open) = connections.lock() {
                open.open.remove(&id);
            }
        });
    }
    drop(listener);
    state.heavy.stop_all();
    state.fast.stop_all();
    let _ = stopping.send(true);
    // Wait for the connections to finish (each has a second at most).
    let end = Instant::now() + Duration::from_millis(1200);
    while Instant::now() < end && connections.lock().is_ok_and(|c| !c.open.is_empty()) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Serves the playground on 127.0.0.1:`port` until interrupted (Ctrl-C), printing
/// `listening on http://127.0.0.1:PORT` to stderr once the port is bound, its jobs sharing the
/// memory budget `memory` ([`Limits::sharing`]). Ctrl-C stops it within about a second,
/// running jobs or not: they are told to stop, and the threads of any job still running are not
/// waited for.
pub fn run(port: u16, memory: u64) -> Result<(), StartError> {
    let internal = |e: std::io::Error| StartError {
        message: format!("cannot start the server: {e}"),
        status: 1,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(internal)?;
    let served = runtime.block_on(async {
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
        serve(listener, Limits::default().sharing(memory), async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(internal)
    });
    // The blocking pool (file reads of the handlers), which a plain drop of the runtime would
    // wait for.
    runtime.shutdown_timeout(Duration::from_millis(200));
    served
}
