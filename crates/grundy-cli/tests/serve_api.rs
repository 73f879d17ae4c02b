//! The playground's JSON API, driven in-process (`tower::ServiceExt::oneshot` on the router, no
//! port): every endpoint with good and bad requests, answers checked against slow computations
//! written here from the definitions, the limits, and responsiveness during long work.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use grundy_cli::serve::limits::Limits;
use grundy_cli::serve::{router, router_with};
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// Sends one request and returns the status and the body as text.
async fn call_text(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<String>,
) -> (StatusCode, String) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// Sends one request and returns the status and the JSON body (every answer of the API is JSON).
async fn call(app: &Router, method: &str, path: &str, body: Option<String>) -> (StatusCode, Value) {
    let (status, text) = call_text(app, method, path, body).await;
    let doc: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
    (status, doc)
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", path, Some(body.to_string())).await
}

/// Asserts an error status and a non-empty `error` message containing `needle`.
fn assert_error(answer: &(StatusCode, Value), status: StatusCode, needle: &str) {
    let (s, doc) = answer;
    assert_eq!(*s, status, "{doc}");
    let msg = doc["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {doc}"));
    assert!(msg.contains(needle), "{msg:?} should contain {needle:?}");
}

fn mex(set: &BTreeSet<u64>) -> u64 {
    (0..).find(|v| !set.contains(v)).unwrap()
}

/// G(0..n) of an octal game with digits `code[k]` (k = 1, 2, ...), from the definition: taking
/// k tokens may leave 0 heaps (bit 1, only when the heap is exactly k), 1 heap (bit 2) or 2
/// non-empty heaps (bit 4).
fn slow_octal(code: &[u8], n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n];
    for h in 0..n {
        let mut seen = BTreeSet::new();
        for (k, &d) in code.iter().enumerate().skip(1) {
            if k > h {
                break;
            }
            let rest = h - k;
            if d & 1 != 0 && rest == 0 {
                seen.insert(0);
            }
            if d & 2 != 0 && rest > 0 {
                seen.insert(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g[h] = mex(&seen);
    }
    g
}

/// G(0..n) of a subtraction game, from the definition.
fn slow_subtraction(set: &[usize], n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n];
    for h in 0..n {
        let seen: BTreeSet<u64> = set.iter().filter(|&&s| s <= h).map(|&s| g[h - s]).collect();
        g[h] = mex(&seen);
    }
    g
}

fn values(doc: &Value) -> Vec<u64> {
    doc["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_lists_every_named_game_and_each_one_plays() {
    let app = router();
    let (s, doc) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
    let games = doc["games"].as_array().unwrap();
    assert!(games.len() >= 9);
    assert!(!doc["notation"].as_array().unwrap().is_empty());
    for g in games {
        let game = g["game"].as_str().unwrap();
        if game == "script" {
            continue;
        }
        let (s, seq) = post(&app, "/api/seq", json!({"game": game, "n": 30})).await;
        assert_eq!(s, StatusCode::OK, "{game}: {seq}");
        assert_eq!(values(&seq).len(), 30);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seq_matches_the_definition_and_marks_the_proved_period() {
    let app = router();
    let (s, doc) = post(
        &app,
        "/api/seq",
        json!({"game": "dawsons-kayles", "n": 300}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    let got = values(&doc);
    assert_eq!(got, slow_octal(&[0, 0, 7], 300));
    let m = &doc["markers"];
    assert_eq!(m["kind"], "period");
    assert_eq!(doc["analysis"]["proved"], true);
    assert!(doc["analysis"]["proof"]
        .as_str()
        .unwrap()
        .contains("Guy-Smith"));
    // The marked period holds in the values sent.
    let (pre, p) = (
        m["preperiod"].as_u64().unwrap() as usize,
        m["period"].as_u64().unwrap() as usize,
    );
    assert!(pre + 2 * p < got.len());
    for n in pre..got.len() - p {
        assert_eq!(got[n + p], got[n], "G({}) != G({n})", n + p);
    }
    // ...and no smaller preperiod does (the marker is the smallest one).
    if pre > 0 {
        assert!((pre - 1..got.len() - p).any(|n| got[n + p] != got[n]));
    }

    // Subtraction games, against the definition.
    let (_, doc) = post(&app, "/api/seq", json!({"game": "sub:1,3,4", "n": 100})).await;
    assert_eq!(values(&doc), slow_subtraction(&[1, 3, 4], 100));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seq_of_a_divide_game_marks_its_runs() {
    let app = router();
    let (s, doc) = post(&app, "/api/seq", json!({"game": "divide:2,3", "n": 500})).await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    let got = values(&doc);
    // From the definition: G(n) = mex G(n / d).
    let mut want = vec![0u64; 500];
    for n in 1..500 {
        want[n] = mex(&[2usize, 3].iter().map(|d| want[n / d]).collect());
    }
    assert_eq!(got, want);
    assert_eq!(doc["markers"]["kind"], "runs");
    let starts: Vec<u64> = doc["markers"]["starts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let changes: Vec<u64> = (0..500)
        .filter(|&n| n == 0 || want[n] != want[n - 1])
        .map(|n| n as u64)
        .collect();
    assert_eq!(starts, changes);
    // Covered heaps reach 2^64: an exact integer, as in `grundy analyze --json`.
    let (_, text) = call_text(
        &app,
        "POST",
        "/api/analyze",
        Some(json!({"game": "divide:2,3"}).to_string()),
    )
    .await;
    assert!(
        text.contains("\"computed\":18446744073709551616,"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seq_runs_scripts_sent_as_text_and_never_reads_paths() {
    let app = router();
    let script =
        "fn options(n) { let r = []; for k in [1, 3, 4] { if k <= n { r.push([n - k]); } } r }";
    let (s, doc) = post(
        &app,
        "/api/seq",
        json!({"game": "script", "script": script, "n": 60}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    assert_eq!(values(&doc), slow_subtraction(&[1, 3, 4], 60));
    assert_error(
        &post(
            &app,
            "/api/seq",
            json!({"game": "script:/etc/passwd", "n": 5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "not read from the server's disk",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "script", "n": 5})).await,
        StatusCode::BAD_REQUEST,
        "field \"script\"",
    );
    assert_error(
        &post(
            &app,
            "/api/seq",
            json!({"game": "nim", "script": script, "n": 5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "only for game \"script\"",
    );
    assert_error(
        &post(
            &app,
            "/api/seq",
            json!({"game": "script", "script": "fn options(n) {", "n": 5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "script",
    );
    let long = "// padding\n".repeat(2000);
    assert_error(
        &post(
            &app,
            "/api/seq",
            json!({"game": "script", "script": long, "n": 5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "above the limit",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_json_errors_with_the_right_status() {
    let app = router();
    let bad = StatusCode::BAD_REQUEST;
    assert_error(
        &post(&app, "/api/seq", json!({"game": "octal:0.1x7", "n": 5})).await,
        bad,
        "column 10",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "chess", "n": 5})).await,
        bad,
        "unknown game",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "nim", "n": 0})).await,
        bad,
        "n:",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "nim", "n": 100_001})).await,
        bad,
        "100000",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "octal:0.8", "n": 5001})).await,
        bad,
        "5000",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "nim", "n": -1})).await,
        bad,
        "request body",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "nim"})).await,
        bad,
        "missing field `n`",
    );
    assert_error(
        &post(&app, "/api/seq", json!({"game": "nim", "n": 5, "x": 1})).await,
        bad,
        "unknown field",
    );
    assert_error(
        &call(&app, "POST", "/api/hint", Some("{\"game\": ".into())).await,
        bad,
        "line 1",
    );
    assert_error(
        &post(&app, "/api/hint", json!({"game": "nim", "heaps": []})).await,
        bad,
        "at least one",
    );
    assert_error(
        &post(
            &app,
            "/api/hint",
            json!({"game": "nim", "heaps": vec![1; 33]}),
        )
        .await,
        bad,
        "33 heaps",
    );
    assert_error(
        &post(
            &app,
            "/api/hint",
            json!({"game": "nim", "heaps": [1, 10_001]}),
        )
        .await,
        bad,
        "heaps[1] has 10001 tokens",
    );
    // Misère play of games other than Nim is a search: small heaps only; Nim has Bouton's rule.
    assert_error(
        &post(
            &app,
            "/api/hint",
            json!({"game": "kayles", "heaps": [1, 201], "misere": true}),
        )
        .await,
        bad,
        "heaps[1] has 201 tokens",
    );
    let (s, _) = post(
        &app,
        "/api/hint",
        json!({"game": "nim", "heaps": [10_000], "misere": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    // A three-heap code's heap of 2000 has about 2000²/12 moves to enumerate.
    assert_error(
        &post(
            &app,
            "/api/moves",
            json!({"game": "octal:0.8", "heaps": [2000], "heap": 0}),
        )
        .await,
        bad,
        "heaps[0] (2000 tokens) may have up to",
    );
    let (s, _) = post(
        &app,
        "/api/moves",
        json!({"game": "octal:0.8", "heaps": [500], "heap": 0}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_error(
        &post(&app, "/api/graph", json!({"text": "a: b", "format": "dot"})).await,
        bad,
        "format",
    );
    // A body above the limit: 413, still JSON.
    let huge = json!({"game": "nim", "heaps": [1], "pad": "x".repeat(70_000)});
    assert_error(
        &post(&app, "/api/hint", huge).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "larger than the limit",
    );
    // Unknown paths and methods.
    assert_error(
        &call(&app, "GET", "/api/nothing", None).await,
        StatusCode::NOT_FOUND,
        "/api/nothing",
    );
    assert_error(
        &call(&app, "GET", "/api/hint", None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "GET",
    );
    assert_error(
        &call(&app, "POST", "/api/games", None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "POST",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_reports_the_period_and_its_proof() {
    let app = router();
    let (s, doc) = post(&app, "/api/analyze", json!({"game": "sub:1,3,4"})).await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    // The canonical notation.
    let canonical = grundy::notation::game::parse_game("sub:1,3,4")
        .unwrap()
        .to_string();
    assert_eq!(doc["game"], canonical);
    assert_eq!(doc["proved"], true);
    let p = doc["period"].as_u64().unwrap() as usize;
    let pre = doc["preperiod"].as_u64().unwrap() as usize;
    let g = slow_subtraction(&[1, 3, 4], 400);
    for n in pre..400 - p {
        assert_eq!(g[n + p], g[n]);
    }
    // Not proved for a game no theorem covers.
    let (_, doc) = post(&app, "/api/analyze", json!({"game": "squares"})).await;
    assert_eq!(doc["proved"], false, "{doc}");
    assert_error(
        &post(&app, "/api/analyze", json!({"game": "sub:"})).await,
        StatusCode::BAD_REQUEST,
        "game",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_explains_the_worked_example() {
    let app = router();
    let heaps = [27u64, 16, 8, 2, 7];
    let (s, doc) = post(&app, "/api/hint", json!({"game": "nim", "heaps": heaps})).await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    let x = heaps.iter().fold(0, |a, h| a ^ h);
    assert_eq!(doc["nim_sum"], x);
    assert_eq!(doc["outcome"], "N");
    let rows: Vec<u64> = doc["columns"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| u64::from_str_radix(r.as_str().unwrap(), 2).unwrap())
        .collect();
    assert_eq!(rows, heaps);
    // The suggested move leaves nim-sum 0.
    let mv = &doc["suggested"];
    let i = mv["heap"].as_u64().unwrap() as usize;
    let to = mv["to"][0].as_u64().unwrap_or(0);
    assert_eq!(x ^ heaps[i] ^ to, 0);
    assert!(to < heaps[i]);
    // A P position: no suggestion.
    let (_, doc) = post(
        &app,
        "/api/hint",
        json!({"game": "nim", "heaps": [1, 2, 3]}),
    )
    .await;
    assert_eq!(doc["outcome"], "P");
    assert!(doc["suggested"].is_null());
    // Other games: the Grundy value of each heap, from the definition.
    let (_, doc) = post(
        &app,
        "/api/hint",
        json!({"game": "kayles", "heaps": [5, 9, 14]}),
    )
    .await;
    let g = slow_octal(&[0, 7, 7], 15);
    assert_eq!(doc["values"], json!([g[5], g[9], g[14]]));
    assert_eq!(doc["nim_sum"], json!(g[5] ^ g[9] ^ g[14]));
    // Misère Nim: Bouton's rule, all heaps of one token: the player to move wins iff even.
    let (_, doc) = post(
        &app,
        "/api/hint",
        json!({"game": "nim", "heaps": [1, 1, 1], "misere": true}),
    )
    .await;
    assert_eq!(doc["outcome"], "P", "{doc}");
    assert_error(
        &post(
            &app,
            "/api/hint",
            json!({"game": "nim", "heaps": [1], "human": {"heap": 0, "from": 1, "to": []}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "/api/move",
    );
}

/// Nim's outcome from the definition (memoised over sorted positions).
fn nim_wins(heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'out: for i in 0..key.len() {
        for t in 0..key[i] {
            let mut next = key.clone();
            next[i] = t;
            if !nim_wins(&next, memo) {
                win = true;
                break 'out;
            }
        }
    }
    memo.insert(key, win);
    win
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_the_hints_wins_a_whole_game_of_nim() {
    let app = router();
    let mut heaps: Vec<u64> = vec![27, 16, 8, 2, 7];
    let mut turns = 0;
    loop {
        let (_, hint) = post(&app, "/api/hint", json!({"game": "nim", "heaps": heaps})).await;
        let human = hint["suggested"].clone();
        assert!(
            !human.is_null(),
            "the human, following the hints, is never in a P position"
        );
        let (s, doc) = post(
            &app,
            "/api/move",
            json!({"game": "nim", "heaps": heaps, "human": human}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{doc}");
        turns += 1;
        if let Some(w) = doc["winner"].as_str() {
            assert_eq!(w, "human");
            assert!(doc["engine"].is_null());
            assert!(doc["heaps"].as_array().unwrap().iter().all(|h| h == 0));
            break;
        }
        heaps = doc["heaps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        assert!(turns < 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_checks_the_human_and_the_engine_plays_perfectly() {
    let app = router();
    let mut memo = HashMap::new();
    // Illegal moves: 422.
    let illegal =
        json!({"game": "nim", "heaps": [3, 1], "human": {"heap": 0, "from": 3, "to": [4]}});
    assert_error(
        &post(&app, "/api/move", illegal).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "heaps[0] (3 tokens) cannot become 4",
    );
    let missing =
        json!({"game": "nim", "heaps": [3, 1], "human": {"heap": 5, "from": 3, "to": []}});
    assert_error(
        &post(&app, "/api/move", missing).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "heap 5 does not exist: expected a heap index from 0 to 1",
    );
    // /api/moves counts heaps from 0 too.
    assert_error(
        &post(
            &app,
            "/api/moves",
            json!({"game": "nim", "heaps": [3, 1], "heap": 2}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "heap 2 does not exist",
    );
    let wrong = json!({"game": "kayles", "heaps": [3], "human": {"heap": 0, "from": 2, "to": [1]}});
    assert_error(
        &post(&app, "/api/move", wrong).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "heaps[0] has 3 tokens, not 2",
    );
    // The engine moving first from a finished game.
    assert_error(
        &post(&app, "/api/move", json!({"game": "nim", "heaps": [0]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "over",
    );
    // From every small N position, the engine (moving first) leaves a P position.
    for a in 0..5u64 {
        for b in 0..5u64 {
            for c in 0..4u64 {
                let heaps = vec![a, b, c];
                if !nim_wins(&heaps, &mut memo) {
                    continue;
                }
                let (s, doc) =
                    post(&app, "/api/move", json!({"game": "nim", "heaps": heaps})).await;
                assert_eq!(s, StatusCode::OK, "{doc}");
                let after: Vec<u64> = doc["heaps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h.as_u64().unwrap())
                    .collect();
                assert!(!nim_wins(&after, &mut memo), "{heaps:?} -> {after:?}");
                assert!(after.iter().sum::<u64>() < heaps.iter().sum::<u64>());
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_lists_the_options_of_one_heap() {
    let app = router();
    let (s, doc) = post(
        &app,
        "/api/moves",
        json!({"game": "kayles", "heaps": [2, 6], "heap": 1}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    let got: BTreeSet<Vec<u64>> = doc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["heap"], 1);
            assert_eq!(m["from"], 6);
            m["to"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_u64().unwrap())
                .collect()
        })
        .collect();
    // Kayles from the definition: take 1 or 2 pins, leaving a row on each side.
    let mut want = BTreeSet::new();
    for k in 1..=2u64 {
        for a in 0..=6 - k {
            let mut parts: Vec<u64> = [a, 6 - k - a].into_iter().filter(|&p| p > 0).collect();
            parts.sort_unstable();
            want.insert(parts);
        }
    }
    assert_eq!(got, want);
    assert_error(
        &post(
            &app,
            "/api/moves",
            json!({"game": "nim", "heaps": [2], "heap": 3}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "heap 3 does not exist",
    );
}

/// Checks a solved graph against the definitions: P iff every option is N (so terminal
/// positions are P), N iff some option is P, D otherwise; remoteness 0 exactly at terminals,
/// an N position one more than its best P option, a P position one more than its longest N
/// option; layers equal remoteness, draws after the last layer. The vertices are the graph
/// document of `grundy graph solve --json` (the library's type reads them, unknown keys
/// refused), the drawing's fields beside them.
fn check_graph(doc: &Value) {
    let mut keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["arcs", "layers", "misere", "places", "vertices"]);
    let document: grundy::solve::loopy::GraphDocument =
        serde_json::from_value(json!({"vertices": doc["vertices"]})).unwrap();
    assert_eq!(
        serde_json::to_value(&document).unwrap()["vertices"],
        doc["vertices"]
    );
    let vs = doc["vertices"].as_array().unwrap();
    let places = doc["places"].as_array().unwrap();
    assert_eq!(places.len(), vs.len());
    let arcs: Vec<(usize, usize)> = doc["arcs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a[0].as_u64().unwrap() as usize,
                a[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let out = |v: usize| arcs.iter().filter(move |a| a.0 == v).map(|a| a.1);
    let o = |v: usize| vs[v]["outcome"].as_str().unwrap();
    let r = |v: usize| vs[v]["remoteness"].as_u64();
    let deepest = vs
        .iter()
        .filter_map(|v| v["remoteness"].as_u64())
        .max()
        .map_or(0, |m| m + 1);
    for (v, place) in places.iter().enumerate() {
        let opts: Vec<usize> = out(v).collect();
        match o(v) {
            "P" => {
                assert!(opts.iter().all(|&w| o(w) == "N"), "vertex {v}");
                let want = opts.iter().map(|&w| r(w).unwrap() + 1).max().unwrap_or(0);
                assert_eq!(r(v), Some(want));
            }
            "N" => {
                let best = opts
                    .iter()
                    .filter(|&&w| o(w) == "P")
                    .map(|&w| r(w).unwrap() + 1)
                    .min();
                assert!(best.is_some(), "vertex {v}");
                assert_eq!(r(v), best);
            }
            "D" => {
                assert!(opts.iter().all(|&w| o(w) != "P"));
                assert!(opts.iter().any(|&w| o(w) == "D"));
                assert_eq!(r(v), None);
            }
            x => panic!("outcome {x}"),
        }
        assert_eq!(place[0].as_u64().unwrap(), r(v).unwrap_or(deepest));
    }
    // Slots number each layer's vertices 0, 1, ... and `layers` counts them.
    let layers = doc["layers"].as_array().unwrap();
    for (l, width) in layers.iter().enumerate() {
        let mut slots: Vec<u64> = places
            .iter()
            .filter(|p| p[0] == l)
            .map(|p| p[1].as_u64().unwrap())
            .collect();
        slots.sort_unstable();
        assert_eq!(slots, (0..width.as_u64().unwrap()).collect::<Vec<_>>());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_solves_and_lays_out_small_graphs() {
    let app = router();
    let text = "a: b c\nb: d\nc: d e\nd:\ne: f\nf: e\n";
    let (s, doc) = post(&app, "/api/graph", json!({"text": text})).await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    check_graph(&doc);
    let names: Vec<&str> = doc["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(doc["vertices"][4]["outcome"], "D");
    assert_eq!(doc["vertices"][3]["value"], 0);
    // e and f only move to each other: value ∞(∅), written as the command line writes it.
    assert_eq!(doc["vertices"][4]["value"], Value::Null);
    assert_eq!(doc["vertices"][4]["infinite_options"], json!([]));
    // d is terminal, so b (its only option is d) has value 1, c (options d, e) value ∞({0}).
    assert_eq!(doc["vertices"][1]["value"], 1);
    assert_eq!(doc["vertices"][2]["infinite_options"], json!([0]));
    // Arc lists too.
    let (s, doc) = post(
        &app,
        "/api/graph",
        json!({"text": "1 2\n2 3\n3 1\n3 4", "format": "arcs"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{doc}");
    check_graph(&doc);
    // Errors name the line and column.
    assert_error(
        &post(&app, "/api/graph", json!({"text": "a: b\nb c"})).await,
        StatusCode::BAD_REQUEST,
        "line 2",
    );
    assert_error(
        &post(&app, "/api/graph", json!({"text": "# nothing\n"})).await,
        StatusCode::BAD_REQUEST,
        "at least one vertex",
    );
    let big: String = (0..600).map(|i| format!("v{i}: v{}\n", i + 1)).collect();
    assert_error(
        &post(&app, "/api/graph", json!({"text": big})).await,
        StatusCode::BAD_REQUEST,
        "above the limits",
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// Random small graphs (cycles and self-loops included): the answer obeys the definitions.
    #[test]
    fn random_graphs_obey_the_definitions(n in 1usize..12, arcs in proptest::collection::vec((0usize..12, 0usize..12), 0..30)) {
        let mut text = String::new();
        for v in 0..n {
            let opts: Vec<String> = arcs.iter().filter(|a| a.0 % n == v).map(|a| format!("v{}", a.1 % n)).collect();
            text += &format!("v{v}: {}\n", opts.join(" "));
        }
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let (s, doc) = rt.block_on(post(&router(), "/api/graph", json!({"text": text})));
        prop_assert_eq!(s, StatusCode::OK);
        check_graph(&doc);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_assets_are_served() {
    let app = router();
    for (path, kind, needle) in [
        ("/", "text/html", "id=\"hint-button\""),
        ("/app.js", "text/javascript", "/api/move"),
        ("/style.css", "text/css", "body"),
        ("/boards.js", "text/javascript", "/api/board/reply"),
        ("/sum.js", "text/javascript", "/api/sum/reply"),
    ] {
        let res = app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with(kind));
        let body = res.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains(needle), "{path}");
    }
}

/// A script that spends about a million operations on every heap: a sequence of many values
/// takes minutes without a deadline.
const SLOW_SCRIPT: &str = "fn options(n) { let s = 0; for i in 0..300000 { s += i; } [[n - 1]] }";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_stays_responsive_while_a_long_computation_runs_and_stops_it() {
    let limits = Limits {
        deadline: Duration::from_secs(3),
        ..Limits::default()
    };
    let app = router_with(limits);
    let slow = {
        let app = app.clone();
        tokio::spawn(async move {
            let start = Instant::now();
            let answer = post(
                &app,
                "/api/seq",
                json!({"game": "script", "script": SLOW_SCRIPT, "n": 100_000}),
            )
            .await;
            (answer, start.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..5 {
        let start = Instant::now();
        let (s, _) = call(&app, "GET", "/api/games", None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(
            start.elapsed() < Duration::from_millis(500),
            "games took {:?}",
            start.elapsed()
        );
        // A light heavy-pool request gets the second worker.
        let start = Instant::now();
        let (s, _) = post(&app, "/api/hint", json!({"game": "nim", "heaps": [3, 5]})).await;
        assert_eq!(s, StatusCode::OK);
        assert!(
            start.elapsed() < Duration::from_millis(1000),
            "hint took {:?}",
            start.elapsed()
        );
    }
    assert!(
        !slow.is_finished(),
        "the slow request should still be running"
    );
    let (answer, took) = slow.await.unwrap();
    assert_error(&answer, StatusCode::SERVICE_UNAVAILABLE, "deadline");
    assert!(took < Duration::from_secs(5), "stopped after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_in_engines_stop_at_the_deadline() {
    // A deadline that has passed by the engine's first check: it returns at once, cancelled,
    // and the server goes on answering (in both lanes: this sequence is cheap).
    let limits = Limits {
        deadline: Duration::from_millis(1),
        fast_deadline: Duration::from_millis(1),
        ..Limits::default()
    };
    let app = router_with(limits);
    for _ in 0..3 {
        assert_error(
            &post(&app, "/api/seq", json!({"game": "sub:1,3,4", "n": 100_000})).await,
            StatusCode::SERVICE_UNAVAILABLE,
            "deadline",
        );
    }
    let (s, _) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_hints_stop_at_the_deadline_and_free_their_worker() {
    // One worker, a short deadline, and a short wait for a worker: a job that ran on past its
    // deadline would keep the next request waiting beyond the busy wait (503 "busy").
    let deadline = Duration::from_millis(200);
    let limits = Limits {
        workers: 1,
        busy_wait: Duration::from_millis(400),
        deadline,
        heap_size: 100_000,
        three_heap_values: 100_000,
        moves_per_heap: u128::MAX,
        max_operations: u128::MAX,
        ..Limits::default()
    };
    let app = router_with(limits);
    let long_hints = [
        // Misère Grundy's game on heaps whose quotient is not built: seconds of positions searched.
        json!({"game": "grundys-game", "heaps": [30, 31, 33], "misere": true}),
        // A game leaving three heaps, near the limits: minutes of values.
        json!({"game": "octal:0.8", "heaps": [60_000]}),
    ];
    for body in long_hints {
        let start = Instant::now();
        let answer = post(&app, "/api/hint", body.clone()).await;
        let took = start.elapsed();
        assert_error(&answer, StatusCode::SERVICE_UNAVAILABLE, "deadline");
        assert!(took >= deadline, "{body}: answered after {took:?}");
        assert!(
            took < deadline + Duration::from_secs(2),
            "{body}: answered after {took:?}"
        );
        // The same (only) worker takes the next heavy request at once.
        let start = Instant::now();
        let (s, doc) = post(&app, "/api/hint", heavy_hint()).await;
        assert_eq!(s, StatusCode::OK, "after {body}: {doc}");
        assert!(
            start.elapsed() < Duration::from_millis(400),
            "after {body}: the next hint took {:?}",
            start.elapsed()
        );
    }
}

/// A quick request of the heavy lane: a script's cost is unknown, so it never takes the fast one.
fn heavy_hint() -> Value {
    json!({
        "game": "script",
        "script": "fn options(n) { let r = []; for k in 1..=n { r.push([n - k]); } r }",
        "heaps": [3, 5]
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_pool_answers_busy() {
    let limits = Limits {
        workers: 1,
        busy_wait: Duration::from_millis(100),
        deadline: Duration::from_secs(2),
        ..Limits::default()
    };
    let app = router_with(limits);
    let slow = {
        let app = app.clone();
        tokio::spawn(async move {
            post(
                &app,
                "/api/seq",
                json!({"game": "script", "script": SLOW_SCRIPT, "n": 100_000}),
            )
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_error(
        &post(&app, "/api/hint", heavy_hint()).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
    );
    // A cheap request takes the fast lane meanwhile.
    let (s, _) = post(&app, "/api/hint", json!({"game": "nim", "heaps": [3, 5]})).await;
    assert_eq!(s, StatusCode::OK);
    assert_error(
        &slow.await.unwrap(),
        StatusCode::SERVICE_UNAVAILABLE,
        "deadline",
    );
    // Once the slow job is stopped, its worker is free again.
    let (s, _) = post(&app, "/api/hint", heavy_hint()).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_job_is_a_500_and_frees_its_worker() {
    use grundy_cli::serve::limits::Lane;
    let limits = Limits {
        workers: 1,
        fast_workers: 1,
        busy_wait: Duration::from_millis(500),
        ..Limits::default()
    };
    for lane in [Lane::heavy(&limits), Lane::fast(&limits)] {
        let failed = lane
            .run(|_| -> Result<(), grundy_cli::serve::api::ApiError> { panic!("a bug") })
            .await
            .unwrap_err();
        assert_eq!(failed.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!failed.message.contains("a bug"), "internals are not shown");
        // The only worker is free again.
        assert_eq!(lane.run(|_| Ok(7)).await.unwrap(), 7);
    }
}

/// A position of the sums below, written from the rules: a Nim heap, a Chomp board (row
/// lengths from the poisoned corner's row up; a move eats a cell other than the corner and every
/// cell above and to its right) and a Cram board (free cells; a move covers two free
/// neighbours).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Sum3 {
    nim: u64,
    chomp: Vec<u32>,
    cram: Vec<Vec<bool>>,
}

impl Sum3 {
    fn new(nim: u64, chomp: (usize, u32), cram: (usize, usize)) -> Sum3 {
        Sum3 {
            nim,
            chomp: vec![chomp.1; chomp.0],
            cram: vec![vec![true; cram.1]; cram.0],
        }
    }

    fn boards(&self) -> (String, String) {
        let chomp: Vec<String> = self.chomp.iter().map(u32::to_string).collect();
        let cram: Vec<String> = self
            .cram
            .iter()
            .map(|r| r.iter().map(|&f| if f { '.' } else { '#' }).collect())
            .collect();
        (
            format!("chomp:{}", chomp.join(",")),
            format!("cram:{}", cram.join("/")),
        )
    }

    fn request(&self, misere: bool) -> Value {
        let (chomp, cram) = self.boards();
        json!({"parts": [
            {"game": "nim", "heaps": [self.nim]},
            {"game": chomp},
            {"game": cram},
        ], "misere": misere})
    }

    /// The sum in the notation of sums, as the answer names it: its parts joined by ` + `, the
    /// heap part as its game and heaps (a heap moved to 0 is gone, one given as 0 stays).
    fn notation(&self, heap_gone: bool) -> String {
        let (chomp, cram) = self.boards();
        let nim = if heap_gone && self.nim == 0 {
            "nim".to_string()
        } else {
            format!("nim {}", self.nim)
        };
        format!("{nim} + {chomp} + {cram}")
    }

    /// Each option, with the part moved in (0, 1 or 2).
    fn options(&self) -> Vec<(usize, Sum3)> {
        let mut out = Vec::new();
        for t in 0..self.nim {
            out.push((
                0,
                Sum3 {
                    nim: t,
                    ..self.clone()
                },
            ));
        }
        for (r, &len) in self.chomp.iter().enumerate() {
            for c in u32::from(r == 0)..len {
                let mut rows = self.chomp.clone();
                for row in rows.iter_mut().skip(r) {
                    *row = (*row).min(c);
                }
                while rows.last() == Some(&0) {
                    rows.pop();
                }
                out.push((
                    1,
                    Sum3 {
                        chomp: rows,
                        ..self.clone()
                    },
                ));
            }
        }
        let (h, w) = (self.cram.len(), self.cram[0].len());
        for r in 0..h {
            for c in 0..w {
                for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                    if r2 < h && c2 < w && self.cram[r][c] && self.cram[r2][c2] {
                        let mut g = self.cram.clone();
                        g[r][c] = false;
                        g[r2][c2] = false;
                        out.push((
                            2,
                            Sum3 {
                                cram: g,
                                ..self.clone()
                            },
                        ));
                    }
                }
            }
        }
        out
    }

    /// Whether the player to move wins, from the definition.
    fn wins(&self, misere: bool, memo: &mut HashMap<(Sum3, bool), bool>) -> bool {
        if let Some(&w) = memo.get(&(self.clone(), misere)) {
            return w;
        }
        let options = self.options();
        let w = if options.is_empty() {
            misere
        } else {
            options.iter().any(|(_, o)| !o.wins(misere, memo))
        };
        memo.insert((self.clone(), misere), w);
        w
    }

    /// The Grundy value of one part alone (the others emptied), from the definition.
    fn part_value(&self, part: usize, memo: &mut HashMap<Sum3, u64>) -> u64 {
        let alone = Sum3 {
            nim: if part == 0 { self.nim } else { 0 },
            chomp: if part == 1 {
                self.chomp.clone()
            } else {
                vec![1]
            },
            cram: if part == 2 {
                self.cram.clone()
            } else {
                vec![vec![false]]
            },
        };
        fn g(s: &Sum3, memo: &mut HashMap<Sum3, u64>) -> u64 {
            if let Some(&v) = memo.get(s) {
                return v;
            }
            let set: BTreeSet<u64> = s.options().iter().map(|(_, o)| g(o, memo)).collect();
            let v = mex(&set);
            memo.insert(s.clone(), v);
            v
        }
        g(&alone, memo)
    }

    /// The position after a move of the answer (`/api/sum`'s `winning_parts` or the reply's
    /// `move`), applied from the rules.
    fn after(&self, mv: &Value) -> Sum3 {
        let mut s = self.clone();
        match mv["part"].as_u64().unwrap() {
            0 => s.nim = mv["heap_move"]["to"][0].as_u64().unwrap_or(0),
            1 => {
                let cell = &mv["cells"][0];
                let (r, c) = (
                    cell[0].as_u64().unwrap() as usize,
                    cell[1].as_u64().unwrap(),
                );
                for row in s.chomp.iter_mut().skip(r) {
                    *row = (*row).min(c as u32);
                }
                while s.chomp.last() == Some(&0) {
                    s.chomp.pop();
                }
            }
            _ => {
                for cell in mv["cells"].as_array().unwrap() {
                    let (r, c) = (cell[0].as_u64().unwrap(), cell[1].as_u64().unwrap());
                    assert!(s.cram[r as usize][c as usize], "{mv}");
                    s.cram[r as usize][c as usize] = false;
                }
            }
        }
        s
    }
}

/// The answer of `/api/sum` is the solution document of `grundy solve --json` (the library's
/// type reads it, unknown keys refused) with the playground's fields beside it: the sum in the
/// notation of sums, each winning move named by its part and leading to the sum after it.
fn check_sum_document(doc: &Value, s: &Sum3, misere: bool) {
    let beside = [
        "misere",
        "over",
        "parts",
        "columns",
        "winning_parts",
        "explanation",
    ];
    let read = common::solution_beside(doc, &beside);
    assert_eq!(read.game, s.notation(false));
    assert_eq!(doc["misere"], misere);
    let places = doc["winning_parts"].as_array().unwrap();
    assert_eq!(read.winning_moves.len(), places.len());
    for (m, place) in read.winning_moves.iter().zip(places) {
        let part = place["part"].as_u64().unwrap();
        assert!(m.name.starts_with(&format!("part {}: ", part + 1)), "{m:?}");
        assert_eq!(m.after, s.after(place).notation(part == 0), "{m:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sums_of_a_heap_and_two_boards_match_the_definition() {
    let app = router();
    let mut memo = HashMap::new();
    let mut values = HashMap::new();
    let sums = [
        Sum3::new(5, (3, 4), (3, 3)),
        Sum3::new(3, (2, 3), (2, 3)),
        Sum3::new(0, (2, 2), (1, 2)),
        Sum3::new(6, (1, 7), (2, 2)),
        Sum3::new(2, (3, 2), (2, 4)),
        Sum3::new(1, (1, 1), (1, 1)),
    ];
    for s in &sums {
        for misere in [false, true] {
            let (status, doc) = post(&app, "/api/sum", s.request(misere)).await;
            assert_eq!(status, StatusCode::OK, "{doc}");
            let wins = s.wins(misere, &mut memo);
            assert_eq!(doc["outcome"], if wins { "N" } else { "P" }, "{s:?} {doc}");
            // Every winning move, and only those: the moves to a position the opponent loses.
            let count = s
                .options()
                .iter()
                .filter(|(_, o)| !o.wins(misere, &mut memo))
                .count();
            let listed = doc["winning_parts"].as_array().unwrap();
            assert_eq!(listed.len(), count, "{s:?} misère {misere}: {doc}");
            for mv in listed {
                assert!(!s.after(mv).wins(misere, &mut memo), "{s:?}: {mv}");
            }
            check_sum_document(&doc, s, misere);
            if misere {
                assert!(doc["value"].is_null());
                continue;
            }
            // Sprague-Grundy: each part's value from the definition, their xor the nim-sum; a
            // winning move takes its part to the value that makes the nim-sum 0.
            let v: Vec<u64> = (0..3).map(|p| s.part_value(p, &mut values)).collect();
            for mv in listed {
                let part = mv["part"].as_u64().unwrap() as usize;
                let after = s.after(mv).part_value(part, &mut values);
                assert_eq!(mv["value"], after, "{s:?}: {mv}");
                assert_eq!(v.iter().fold(after, |a, b| a ^ b) ^ v[part], 0, "{mv}");
            }
            for (p, &vp) in v.iter().enumerate() {
                assert_eq!(doc["parts"][p]["value"], vp, "{s:?} part {p}");
            }
            assert_eq!(doc["value"], v[0] ^ v[1] ^ v[2]);
            assert_eq!(doc["outcome"] == "P", v[0] ^ v[1] ^ v[2] == 0);
        }
    }
    // The engine's reply: a winning move from an N-position, and the sum after it.
    let s = Sum3::new(5, (3, 4), (3, 3));
    let (status, doc) = post(&app, "/api/sum/reply", s.request(false)).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert_eq!(doc["winning"], true);
    let after = s.after(&doc["move"]);
    assert!(!after.wins(false, &mut memo));
    assert_eq!(doc["move"]["after"], after.notation(true));
    assert_eq!(doc["sum"]["game"], after.notation(true));
    assert_eq!(doc["sum"]["outcome"], "P");
    assert_eq!(doc["sum"]["value"], 0);
    check_sum_document(&doc["sum"], &after, false);
    // No move left: no reply, and the sum is over.
    let done = Sum3 {
        nim: 0,
        chomp: vec![1],
        cram: vec![vec![false]],
    };
    // A played-out heap part is still a part.
    let body = json!({"parts": [{"game": "nim", "heaps": []}, {"game": "chomp:1"}]});
    let (status, doc) = post(&app, "/api/sum", body).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert_eq!(doc["over"], true);
    assert_eq!(doc["outcome"], "P");
    let (status, doc) = post(&app, "/api/sum/reply", done.request(false)).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert!(doc["move"].is_null());
    assert_eq!(doc["sum"]["over"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sums_refuse_bad_parts() {
    let app = router();
    let bad = StatusCode::BAD_REQUEST;
    let cases = [
        (json!({"parts": []}), "expected 1 to 4"),
        (
            json!({"parts": vec![json!({"game": "nim", "heaps": [1]}); 5]}),
            "expected 1 to 4",
        ),
        (
            json!({"parts": [{"game": "chomp:2x2", "heaps": [1]}]}),
            "parts[0]: a board has no heaps",
        ),
        (
            json!({"parts": [{"game": "kayles"}]}),
            "parts[0]: a heap game needs",
        ),
        (
            json!({"parts": [{"game": "nim", "heaps": [1]}, {"game": "script", "heaps": [1]}]}),
            "parts[1]",
        ),
        (
            json!({"parts": [{"game": "chomp:9x9"}]}),
            "parts[0]: game: a Chomp board",
        ),
        (
            json!({"parts": [{"game": "nim", "heaps": [1]}], "extra": 1}),
            "unknown field",
        ),
        (
            json!({"parts": [{"game": "nim", "heaps": [10001]}]}),
            "parts[0]: heaps[0]",
        ),
    ];
    for (body, needle) in cases {
        assert_error(&post(&app, "/api/sum", body.clone()).await, bad, needle);
        assert_error(&post(&app, "/api/sum/reply", body).await, bad, needle);
    }
}

/// Kayles under misère play, from the definition: a heap of n takes 1 or 2 tokens, leaving at
/// most two heaps; whoever cannot move wins.
fn misere_kayles_wins(heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut any = false;
    let mut win = false;
    for i in 0..key.len() {
        for take in 1..=2u64.min(key[i]) {
            for left in 0..=(key[i] - take) {
                let mut next = key.clone();
                next[i] = left;
                next.push(key[i] - take - left);
                any = true;
                if !misere_kayles_wins(&next, memo) {
                    win = true;
                }
            }
        }
    }
    let w = win || !any;
    memo.insert(key, w);
    w
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn misere_hints_are_explained_through_the_quotient() {
    let app = router();
    let mut memo = HashMap::new();
    for heaps in [
        vec![3u64, 4, 7],
        vec![2, 5],
        vec![1, 1, 4],
        vec![6],
        vec![3, 3, 2],
    ] {
        let (s, doc) = post(
            &app,
            "/api/hint",
            json!({"game": "kayles", "heaps": heaps, "misere": true}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{doc}");
        let wins = misere_kayles_wins(&heaps, &mut memo);
        assert_eq!(doc["outcome"], if wins { "N" } else { "P" }, "{heaps:?}");
        let q = &doc["quotient"];
        assert!(q.is_object(), "{heaps:?}: {doc}");
        // The product of the heaps' elements is in the P-portion exactly when the player to move
        // loses; the suggested move leaves an element of the P-portion.
        assert_eq!(q["in_p_portion"], !wins, "{heaps:?}: {q}");
        let p: Vec<&Value> = q["p_portion"].as_array().unwrap().iter().collect();
        assert_eq!(p.contains(&&q["position"]), !wins);
        assert_eq!(q["heaps"].as_array().unwrap().len(), heaps.len());
        if wins {
            assert!(p.contains(&&q["after"]), "{q}");
        } else {
            assert!(q["after"].is_null());
        }
        assert!(q["explanation"][0]
            .as_str()
            .unwrap()
            .starts_with("Misère quotient of octal:0.77"));
    }
    // Normal play and misère Nim (Bouton's rule) have no quotient to show.
    for body in [
        json!({"game": "kayles", "heaps": [3, 4]}),
        json!({"game": "nim", "heaps": [3, 4], "misere": true}),
    ] {
        let (_, doc) = post(&app, "/api/hint", body).await;
        assert!(doc["quotient"].is_null(), "{doc}");
    }
}
