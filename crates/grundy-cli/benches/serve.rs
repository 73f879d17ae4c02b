//! Latency of the playground's `/api/hint`: the median and 90th percentile of one request,
//! through the whole router in-process and over a real TCP connection to 127.0.0.1, beside the
//! library call the handler makes (`grundy::heap::hint::hint`) in the same run, so the table
//! shows what the HTTP layer, the JSON and the worker pool add.
//!
//! Run: `cargo bench -p grundy-cli --bench serve`.

use axum::body::Body;
use axum::http::Request;
use grundy::control::Control;
use grundy::heap::hint::hint;
use grundy::heap::HeapGame;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const REQUESTS: usize = 1000;

/// The median and 90th percentile of `times`.
fn stats(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort_unstable();
    (times[times.len() / 2], times[times.len() * 9 / 10])
}

fn us(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let app = grundy_cli::serve::router();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(grundy_cli::serve::serve(
        listener,
        grundy_cli::serve::limits::Limits::default(),
        std::future::pending(),
    ));
    let client: Client<_, Full<axum::body::Bytes>> =
        Client::builder(TokioExecutor::new()).build_http();

    println!("| /api/hint, {REQUESTS} requests | library call µs (median) | in-process router µs (median / p90) | TCP 127.0.0.1 µs (median / p90) | TCP / library |");
    println!("|---|---|---|---|---|");
    for (game, heaps) in [
        ("nim", vec![27u64, 16, 8, 2, 7]),
        ("kayles", vec![1000, 2000, 3000]),
        ("sub:1,3,4", vec![10_000, 9_999, 5_000, 17]),
    ] {
        let body = serde_json::json!({"game": game, "heaps": heaps}).to_string();
        // The library alone: parse the game, compute the hint (what the handler does).
        let lib: Vec<Duration> = (0..REQUESTS)
            .map(|_| {
                let t = Instant::now();
                let rule: HeapGame = game.parse().unwrap();
                std::hint::black_box(hint(&rule, &heaps, false, &Control::none()).unwrap());
                t.elapsed()
            })
            .collect();
        let router: Vec<Duration> = (0..REQUESTS)
            .map(|_| {
                let req = Request::post("/api/hint")
                    .header("content-type", "application/json")
                    .body(Body::from(body.clone()))
                    .unwrap();
                let t = Instant::now();
                rt.block_on(async {
                    let res = app.clone().oneshot(req).await.unwrap();
                    assert!(res.status().is_success());
                    res.into_body().collect().await.unwrap();
                });
                t.elapsed()
            })
            .collect();
        let tcp: Vec<Duration> = (0..REQUESTS)
            .map(|_| {
                let req = Request::post(format!("http://{addr}/api/hint"))
                    .header("content-type", "application/json")
                    .body(Full::from(body.clone()))
                    .unwrap();
                let t = Instant::now();
                rt.block_on(async {
                    let res = client.request(req).await.unwrap();
                    assert!(res.status().is_success());
                    res.into_body().collect().await.unwrap();
                });
                t.elapsed()
            })
            .collect();
        let (l, _) = stats(lib);
        let (r, r90) = stats(router);
        let (t, t90) = stats(tcp);
        println!(
            "| {game} {} | {} | {} / {} | {} / {} | {:.1}× |",
            heaps
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            us(l),
            us(r),
            us(r90),
            us(t),
            us(t90),
            t.as_secs_f64() / l.as_secs_f64()
        );
    }
}
