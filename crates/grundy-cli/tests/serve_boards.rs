//! The playground's boards (`/api/board`, `/api/board/reply`), driven in-process: answers
//! checked against the library's solve, bad input, the size limits, the JSON Content-Type.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use grundy::control::Control;
use grundy::notation::board::parse_board_game;
use grundy::solve::Play;
use grundy_cli::serve::limits::Limits;
use grundy_cli::serve::{router, router_with};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn send(app: &Router, path: &str, content_type: &str, body: String) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", content_type)
        .body(Body::from(body))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let doc: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, doc)
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    send(app, path, "application/json", body.to_string()).await
}

fn assert_error(answer: &(StatusCode, Value), status: StatusCode, needle: &str) {
    let (s, doc) = answer;
    assert_eq!(*s, status, "{doc}");
    let msg = doc["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {doc}"));
    assert!(msg.contains(needle), "{msg:?} should contain {needle:?}");
}

/// The library's answer: outcome, value and the boards after the winning moves.
fn library(game: &str, misere: bool) -> (String, Option<u64>, Vec<String>) {
    let parsed = parse_board_game(game).unwrap();
    let ctl = Control::none();
    let loaded = grundy::notation::board::load(&parsed, &ctl).unwrap();
    let play = if misere { Play::Misere } else { Play::Normal };
    let s = grundy::solve::solve_loaded(&loaded, play, true, &ctl).unwrap();
    (
        s.outcome.to_string(),
        s.value,
        s.winning_moves.into_iter().map(|m| m.after).collect(),
    )
}

const GAMES: &[&str] = &[
    "chomp:3x4",
    "chomp:1",
    "chomp:4,2,1",
    "chomp:8x8",
    "chomp:2x1",
    "cram:3x3",
    "cram:2x2",
    "cram:4x5",
    "cram:.../.#./...",
    "cram:#.#/...",
    "cram:.",
];

#[tokio::test]
async fn answers_match_the_library() {
    let app = router();
    for &game in GAMES {
        for misere in [false, true] {
            let (status, doc) =
                post(&app, "/api/board", json!({"game": game, "misere": misere})).await;
            assert_eq!(status, StatusCode::OK, "{game}: {doc}");
            let (outcome, value, afters) = library(game, misere);
            assert_eq!(doc["outcome"], json!(outcome), "{game} misere {misere}");
            assert_eq!(doc["value"], json!(value), "{game}");
            let got: Vec<&str> = doc["winning_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["after"].as_str().unwrap())
                .collect();
            assert_eq!(got, afters, "{game} misere {misere}");
            assert_eq!(doc["misere"], json!(misere));
            assert_eq!(
                doc["winning_cells"].as_array().unwrap().len(),
                afters.len(),
                "{game}"
            );
            check_solution_document(&doc);
        }
    }
}

/// The answer is the solution document of `grundy solve --json` (the library's type reads it,
/// unknown keys refused) with the playground's fields beside it.
fn check_solution_document(doc: &Value) {
    let beside = ["kind", "misere", "over", "cells", "winning_cells"];
    common::solution_beside(doc, &beside);
}

#[tokio::test]
async fn cells_and_move_cells() {
    let app = router();
    let (_, doc) = post(&app, "/api/board", json!({"game": "chomp:3,1"})).await;
    assert_eq!(doc["kind"], "chomp");
    assert_eq!(doc["game"], "chomp:3,1");
    assert_eq!(
        doc["cells"],
        json!([["free", "free", "free"], ["free", "taken", "taken"]])
    );
    assert_eq!(doc["over"], false);
    // chomp:3,1 is N: taking (0,2) leaves the P-position chomp:2,1 (an L of equal arms).
    let moves = doc["winning_moves"].as_array().unwrap();
    let i = moves
        .iter()
        .position(|m| m["after"] == "chomp:2,1")
        .expect("a move to chomp:2,1");
    assert_eq!(doc["winning_cells"][i], json!([[0, 2]]));
    assert_eq!(moves[i]["move"], "(1,3)");

    let (_, doc) = post(&app, "/api/board", json!({"game": "cram:.#/.."})).await;
    assert_eq!(doc["kind"], "cram");
    assert_eq!(doc["cells"], json!([["free", "blocked"], ["free", "free"]]));
    assert!(!doc["winning_cells"].as_array().unwrap().is_empty());
    for cells in doc["winning_cells"].as_array().unwrap() {
        assert_eq!(cells.as_array().unwrap().len(), 2, "{cells}");
    }

    let (_, doc) = post(&app, "/api/board", json!({"game": "chomp:1"})).await;
    assert_eq!(doc["over"], true);
    assert_eq!(doc["outcome"], "P");
    assert_eq!(doc["winning_moves"], json!([]));
    assert_eq!(doc["winning_cells"], json!([]));
}

#[tokio::test]
async fn the_engine_replies_with_a_winning_move_when_it_has_one() {
    let app = router();
    for &game in GAMES {
        for misere in [false, true] {
            let (status, doc) = post(
                &app,
                "/api/board/reply",
                json!({"game": game, "misere": misere}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{game}: {doc}");
            let (outcome, _, afters) = library(game, misere);
            if doc["move"].is_null() {
                // Nothing left to play: the board is returned as it was.
                assert_eq!(doc["board"]["over"], true, "{game}");
                continue;
            }
            let after = doc["move"]["after"].as_str().unwrap();
            assert_eq!(doc["board"]["game"], after);
            assert_eq!(doc["winning"], json!(outcome == "N"), "{game}");
            if outcome == "N" {
                assert!(
                    afters.iter().any(|a| a == after),
                    "{game}: {after} not winning"
                );
                // The board left is lost for the player to move (the human).
                assert_eq!(doc["board"]["outcome"], "P", "{game} misere {misere}");
            }
        }
    }
}

#[tokio::test]
async fn bad_input_is_refused() {
    let app = router();
    for body in [
        json!({"game": "nim"}),
        json!({"game": "wythoff:3,5"}),
        json!({"game": "node-kayles:path:5"}),
        json!({"game": "chomp:2,3"}),
        json!({"game": "chomp:"}),
        json!({"game": "cram:../."}),
        json!({"game": "cram:..x"}),
        json!({"game": "chomp:3x3", "extra": 1}),
        json!({"misere": true}),
        json!({"game": 5}),
    ] {
        let (status, doc) = post(&app, "/api/board", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {doc}");
        assert!(
            doc["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{doc}"
        );
        let (status, _) = post(&app, "/api/board/reply", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
    let a = send(
        &app,
        "/api/board",
        "text/plain",
        json!({"game": "chomp:2x2"}).to_string(),
    )
    .await;
    assert_error(&a, StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type");
    let a = send(&app, "/api/board", "application/json", "{".into()).await;
    assert_error(&a, StatusCode::BAD_REQUEST, "request body");
}

#[tokio::test]
async fn limits_are_checked_before_work() {
    let app = router();
    let limits = Limits::default();
    assert_eq!(
        (limits.chomp_side, limits.cram_side, limits.cram_cells),
        (8, 6, 25)
    );
    let ok = post(&app, "/api/board", json!({"game": "chomp:8x8"})).await;
    assert_eq!(ok.0, StatusCode::OK);
    for game in ["chomp:9x2", "chomp:2x9", "chomp:9,1"] {
        let a = post(&app, "/api/board", json!({"game": game})).await;
        assert_error(&a, StatusCode::BAD_REQUEST, "8×8");
    }
    // Beyond the library's own cap, refused by the notation.
    let a = post(&app, "/api/board", json!({"game": "chomp:1000x1000"})).await;
    assert_eq!(a.0, StatusCode::BAD_REQUEST);
    // 6×6 Cram is within the sides but has 36 free cells; blocked cells bring it within.
    let a = post(&app, "/api/board", json!({"game": "cram:6x6"})).await;
    assert_error(&a, StatusCode::BAD_REQUEST, "25 free cells");
    let a = post(&app, "/api/board", json!({"game": "cram:7x1"})).await;
    assert_error(&a, StatusCode::BAD_REQUEST, "6 rows");
    let sparse = "cram:######/#....#/#....#/#....#/#....#/######";
    let a = post(&app, "/api/board", json!({"game": sparse})).await;
    assert_eq!(a.0, StatusCode::OK, "{}", a.1);
    let long = format!("cram:{}", ".".repeat(5000));
    let a = post(&app, "/api/board", json!({"game": long})).await;
    assert_error(&a, StatusCode::BAD_REQUEST, "bytes");

    // Smaller limits, and the memory budget of a job.
    let small = router_with(Limits {
        chomp_side: 3,
        ..Limits::default()
    });
    let a = post(&small, "/api/board", json!({"game": "chomp:4x2"})).await;
    assert_error(&a, StatusCode::BAD_REQUEST, "3×3");
    let tight = router_with(Limits {
        job_memory: 1,
        ..Limits::default()
    });
    let a = post(&tight, "/api/board", json!({"game": "cram:4x5"})).await;
    assert_error(&a, StatusCode::UNPROCESSABLE_ENTITY, "memory");
}

#[tokio::test]
async fn the_page_includes_the_boards_section() {
    let app = router();
    let req = Request::builder().uri("/").body(Body::empty()).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let html = res.into_body().collect().await.unwrap().to_bytes();
    let html = String::from_utf8_lossy(&html);
    assert!(html.contains("/boards.js"));
    assert!(html.contains("id=\"boards\""));
    let req = Request::builder()
        .uri("/boards.js")
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
}
