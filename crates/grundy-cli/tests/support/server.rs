//! The playground on a real TCP port of 127.0.0.1, for the tests and benchmarks that speak HTTP
//! to it: [`Server`] runs `grundy_cli::serve::serve` on a runtime of its own, [`exchange`] sends
//! raw bytes and reads the answer, and [`load`] is a load generator of many keep-alive clients.
#![allow(dead_code)] // each test file uses part of this module

use grundy_cli::serve::limits::Limits;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A playground listening on 127.0.0.1 (any free port), stopped when dropped.
pub struct Server {
    /// The port it listens on.
    pub port: u16,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Starts the playground with `limits`, on a runtime of two worker threads.
    pub fn start(limits: Limits) -> Server {
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                port_tx.send(listener.local_addr().unwrap().port()).unwrap();
                grundy_cli::serve::serve(listener, limits, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
            rt.shutdown_timeout(Duration::from_millis(100));
        });
        Server {
            port: port_rx.recv().unwrap(),
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// `127.0.0.1:PORT`, the Host of its requests.
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Sends `raw` (a whole request, usually with `Connection: close`) to `port` and reads until the
/// server closes the connection (at most `wait`): the status (0 when there is no status line)
/// and the body.
pub fn exchange(port: u16, raw: &[u8], wait: Duration) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(raw).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    parse_answer(&answer)
}

/// The status and body of an HTTP/1.1 answer (status 0 when there is none).
pub fn parse_answer(answer: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(answer);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| text.strip_prefix("HTTP/1.0 "))
        .and_then(|t| t.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// A POST of `json` to `path`, addressed to `host`, with `Connection: close`.
pub fn post_raw(host: &str, path: &str, content_type: Option<&str>, json: &str) -> Vec<u8> {
    let ct = content_type.map_or(String::new(), |t| format!("Content-Type: {t}\r\n"));
    format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\n{ct}Content-Length: {}\r\nConnection: close\r\n\r\n{json}",
        json.len()
    )
    .into_bytes()
}

/// POSTs `json` to `path` of `server` as JSON and returns the status, the body and the time taken.
pub fn post(server: &Server, path: &str, json: &str) -> (u16, String, Duration) {
    let start = Instant::now();
    let raw = post_raw(&server.host(), path, Some("application/json"), json);
    let (status, body) = exchange(server.port, &raw, Duration::from_secs(60));
    (status, body, start.elapsed())
}

/// What a group of clients of [`load`] saw.
#[derive(Debug, Default)]
pub struct Stats {
    /// Requests answered.
    pub count: usize,
    /// Answered 200.
    pub ok: usize,
    /// Answered 503.
    pub busy: usize,
    /// Answered anything else, or failed.
    pub other: usize,
    /// Latencies of all requests, sorted.
    pub latencies: Vec<Duration>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Stats {
    /// The `q` quantile of the latencies (0 when there are none).
    pub fn quantile(&self, q: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((q * self.latencies.len() as f64).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[i - 1]
    }

    /// Requests answered per second.
    pub fn rate(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64()
    }

    /// The share answered 503, in percent.
    pub fn busy_percent(&self) -> f64 {
        100.0 * self.busy as f64 / self.count.max(1) as f64
    }

    /// One row of the figures' table.
    pub fn row(&self, label: &str) -> String {
        format!(
            "| {label} | {} | {:.0} | {:.1} | {:.1} | {:.1} % |",
            self.count,
            self.rate(),
            self.quantile(0.5).as_secs_f64() * 1e3,
            self.quantile(0.99).as_secs_f64() * 1e3,
            self.busy_percent()
        )
    }
}

/// Cheap requests: hints and moves of small Nim and Kayles positions, the game list, a short
/// sequence of a subtraction game. Each is `(method, path, body)`.
pub const CHEAP: &[(&str, &str, &str)] = &[
    (
        "POST",
        "/api/hint",
        r#"{"game":"nim","heaps":[27,16,8,2,7]}"#,
    ),
    (
        "POST",
        "/api/move",
        r#"{"game":"nim","heaps":[27,16,8,2,7],"human":{"heap":0,"from":27,"to":[20]}}"#,
    ),
    (
        "POST",
        "/api/hint",
        r#"{"game":"kayles","heaps":[100,200,300]}"#,
    ),
    ("GET", "/api/games", ""),
    ("POST", "/api/seq", r#"{"game":"sub:1,3,4","n":1000}"#),
];

/// Expensive requests, each running until its deadline or for seconds: the values and analysis
/// of Grundy's game to 100 000, and a misère position of Dawson's Kayles with heaps past those
/// whose quotient is known (its quotient or search takes far longer than a job's deadline).
pub const EXPENSIVE: &[(&str, &str, &str)] = &[
    ("POST", "/api/seq", r#"{"game":"grundys-game","n":100000}"#),
    (
        "POST",
        "/api/hint",
        r#"{"game":"dawsons-kayles","heaps":[44,43,42,41,40],"misere":true}"#,
    ),
];

/// A run of [`load`]: how many clients of each kind, and for how long.
pub struct Load {
    /// Clients sending [`CHEAP`] requests, one after another.
    pub cheap_clients: usize,
    /// Clients sending [`EXPENSIVE`] requests, one after another.
    pub expensive_clients: usize,
    /// How long clients start new requests.
    pub duration: Duration,
    /// The most requests one client sends.
    pub max_per_client: usize,
}

/// Runs `load` against the playground on `port` (each client on a keep-alive connection of its
/// own, all on a runtime of two threads) and returns what the cheap and the expensive clients
/// saw. Bounded: every client stops after `duration` or `max_per_client` requests, whichever
/// comes first (an expensive request under way ends at its deadline).
pub fn load(port: u16, load: &Load) -> (Stats, Stats) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let duration = load.duration;
    let max = load.max_per_client;
    rt.block_on(async move {
        let start = Instant::now();
        let client = |requests: &'static [(&'static str, &'static str, &'static str)],
                      offset: usize| {
            tokio::spawn(async move {
                let http: Client<_, Full<axum::body::Bytes>> =
                    Client::builder(TokioExecutor::new()).build_http();
                let mut seen = Vec::new();
                let mut i = offset;
                while start.elapsed() < duration && seen.len() < max {
                    let (method, path, body) = requests[i % requests.len()];
                    i += 1;
                    let req = hyper::Request::builder()
                        .method(method)
                        .uri(format!("http://127.0.0.1:{port}{path}"))
                        .header("content-type", "application/json")
                        .body(Full::from(body))
                        .unwrap();
                    let t = Instant::now();
                    let status = match http.request(req).await {
                        Ok(res) => {
                            let status = res.status().as_u16();
                            match res.into_body().collect().await {
                                Ok(_) => status,
                                Err(_) => 0,
                            }
                        }
                        Err(_) => 0,
                    };
                    seen.push((status, t.elapsed()));
                }
                seen
            })
        };
        let cheap: Vec<_> = (0..load.cheap_clients).map(|i| client(CHEAP, i)).collect();
        let expensive: Vec<_> = (0..load.expensive_clients)
            .map(|i| client(EXPENSIVE, i))
            .collect();
        let mut out = Vec::new();
        for group in [cheap, expensive] {
            let mut stats = Stats::default();
            for handle in group {
                for (status, took) in handle.await.unwrap() {
                    stats.count += 1;
                    match status {
                        200 => stats.ok += 1,
                        503 => stats.busy += 1,
                        _ => stats.other += 1,
                    }
                    stats.latencies.push(took);
                }
            }
            stats.latencies.sort_unstable();
            stats.elapsed = start.elapsed();
            out.push(stats);
        }
        let expensive = out.pop().unwrap();
        let cheap = out.pop().unwrap();
        (cheap, expensive)
    })
}
