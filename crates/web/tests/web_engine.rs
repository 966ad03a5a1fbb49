//! `POST /api/xq/engine`: the computer's move, bounded in time, and bad input answered 4xx.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn post(body: &str) -> (StatusCode, Value) {
    let req = Request::post("/api/xq/engine")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = qi_web::router().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn engine_answers_a_legal_move_and_sees_mate() {
    let (status, v) = post(&json!({"moves": ["h2e2"], "movetime_ms": 100}).to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let best: xiangqi::Move = v["bestmove"].as_str().unwrap().parse().unwrap();
    let mut pos = xiangqi::Position::startpos();
    pos.play("h2e2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(best), "{best} in {}", pos.fen());

    // Mate in one: the rook checks on the d-file.
    let (status, v) = post(&json!({"fen": "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "movetime_ms": 200}).to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["bestmove"], "a1d1");
    assert_eq!(v["mate"], 1);
}

#[tokio::test]
async fn a_depth_cap_plays_the_weaker_levels() {
    for depth in [1, 3] {
        let (status, v) = post(&json!({"moves": ["h2e2"], "depth": depth, "movetime_ms": 3000}).to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["depth"], depth, "{v}");
        let best: xiangqi::Move = v["bestmove"].as_str().unwrap().parse().unwrap();
        let mut pos = xiangqi::Position::startpos();
        pos.play("h2e2".parse().unwrap()).unwrap();
        assert!(pos.is_legal(best), "{best}");
    }
}

#[tokio::test]
async fn engine_rejects_bad_input() {
    for body in [
        "not json",
        "[]",
        r#"{"moves": ["h2e9"]}"#,
        r#"{"fen": "garbage"}"#,
        r#"{"moves": "h2e2"}"#,
        r#"{"movetime_ms": -5}"#,
        r#"{"depth": 0}"#,
        r#"{"depth": 65}"#,
        r#"{"depth": "deep"}"#,
        r#"{"unknown": 1}"#,
    ] {
        let (status, v) = post(body).await;
        assert!(status.is_client_error(), "{body}: {status} {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}: {v}");
    }
}

#[tokio::test]
async fn the_weakest_level_plays_varied_moves_without_walking_its_king() {
    // Twenty moves of the beginner level against itself: legal, no king moves (nothing forces
    // one this early), and not always the same reply to the same position.
    let mut pos = xiangqi::Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        // Beginner play can be mated this early; a mated side has no move to ask for.
        if pos.legal_moves().is_empty() {
            break;
        }
        let (status, v) = post(&json!({"moves": moves, "depth": 1, "movetime_ms": 500}).to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let Some(best) = v["bestmove"].as_str() else { panic!("no move after {moves:?}: {v}") };
        let best: xiangqi::Move = best.parse().unwrap();
        assert!(pos.is_legal(best), "{best} in {}", pos.fen());
        let piece = pos.piece_at(best.from()).unwrap();
        assert!(pos.is_check() || piece.kind != xiangqi::PieceKind::King, "king move {best} in {}", pos.fen());
        pos.play(best).unwrap();
        moves.push(best.to_string());
    }
    let mut replies = std::collections::HashSet::new();
    for _ in 0..12 {
        let (_, v) = post(&json!({"moves": ["h2e2"], "depth": 1}).to_string()).await;
        replies.insert(v["bestmove"].as_str().unwrap().to_string());
    }
    assert!(replies.len() > 1, "{replies:?}");
}
