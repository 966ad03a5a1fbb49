//! The API's limits driven in-process: one game-length limit with one message at every door,
//! and error messages that quote only a short excerpt of what was sent.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use xiangqi::{GameTooLong, MAX_GAME_PLIES};

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path).header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string()));
    let response = qi_web::router().oneshot(req.unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn horse_dance(plies: usize) -> Vec<&'static str> {
    ["h0g2", "h9g7", "g2h0", "g7h9"].into_iter().cycle().take(plies).collect()
}

#[tokio::test]
async fn every_door_takes_a_game_at_the_limit_and_refuses_one_past_it_with_one_message() {
    let message = GameTooLong.to_string();
    let at_limit = horse_dance(MAX_GAME_PLIES);
    let past = horse_dance(MAX_GAME_PLIES + 1);
    for path in ["/api/xq/game", "/api/xq/link/encode", "/api/xq/pgn/export"] {
        let (status, v) = post(path, json!({ "moves": at_limit })).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
        let (status, v) = post(path, json!({ "moves": past })).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some(message.as_str())), "{path}");
    }
    let (status, v) = post("/api/xq/pgn/import", json!({ "pgn": at_limit.join(" ") })).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = post("/api/xq/pgn/import", json!({ "pgn": past.join(" ") })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().ends_with(&message), "{v}");
}

#[tokio::test]
async fn errors_quote_at_most_a_short_excerpt_of_the_input() {
    let long = "x".repeat(60_000);
    for (path, body) in [
        ("/api/xq/game", json!({ "moves": [long] })),
        ("/api/xq/game", json!({ "fen": format!("9/9/9/9/9/9/9/9/9/9 {long}") })),
        ("/api/xq/game", json!({ "moves": 5, "fen": long })),
        ("/api/xq/game", json!({ "ply": long })),
        ("/api/xq/pgn/import", json!({ "pgn": format!("1. {long}") })),
        ("/api/xq/pgn/export", json!({ "notation": long })),
    ] {
        let (status, v) = post(path, body).await;
        assert!(status.is_client_error(), "{path}: {status}");
        let error = v["error"].as_str().unwrap();
        assert!(error.len() <= 300, "{path}: a {}-byte message: {}", error.len(), &error[..200]);
    }
}
