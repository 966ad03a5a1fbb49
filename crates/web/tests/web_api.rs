//! The web app's router driven in-process: pages, the JSON API, and bad input of every kind
//! answered with a 4xx and a JSON message.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const SEED_QUERY: &str = "?p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1";

async fn send(req: Request<Body>) -> (StatusCode, Vec<u8>) {
    let response = qi_web::router().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes)
}

async fn post_raw(path: &str, content_type: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    let req = Request::post(path).header(header::CONTENT_TYPE, content_type).body(body.into()).unwrap();
    let (status, bytes) = send(req).await;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    post_raw(path, "application/json", body.to_string()).await
}

/// A 4xx whose JSON body has an `error` message.
fn assert_client_error(status: StatusCode, body: &Value, what: &str) {
    assert!(status.is_client_error(), "{what}: status {status}, body {body}");
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: no error message in {body}");
}

#[tokio::test]
async fn game_is_described_at_the_end_and_at_any_ply() {
    let (status, v) = post("/api/xq/game", json!({"moves": ["h2e2", "h9g7"]})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["start_fen"], START);
    assert_eq!(v["ply"], 2);
    assert_eq!(v["turn"], "red");
    assert_eq!(v["last"], "h9g7");
    assert_eq!(v["check"], false);
    assert_eq!(v["board"]["e2"], "C");
    let legal: Vec<&str> = v["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(legal.contains(&"e2e6") && !legal.contains(&"h2e2"), "{legal:?}");
    assert_eq!(
        v["moves"][0],
        json!({"iccs": "h2e2", "wxf": "C2.5", "chinese": "炮二平五", "traditional": "炮二平五", "vietnamese": "P2-5"})
    );
    assert!(v["link"].as_str().is_some_and(|l| l.starts_with("g=")), "the compact link: {v}");

    let (status, v) = post("/api/xq/game", json!({"moves": ["h2e2", "h9g7"], "ply": 0})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["fen"], START);
    assert_eq!(v["legal"].as_array().unwrap().len(), 44);
    assert_eq!(v["last"], Value::Null);
    assert_eq!(v["plies"], 2);
}

#[tokio::test]
async fn check_is_reported() {
    let (status, v) = post("/api/xq/game", json!({"fen": "3k5/9/9/9/9/9/9/9/9/4K3R w", "moves": ["i0i9"]})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["check"], true);
    assert_eq!(v["turn"], "black");
}

#[tokio::test]
async fn the_seed_example_link_decodes_to_twenty_moves() {
    let (status, v) = post("/api/xq/link", json!({"link": SEED_QUERY})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["format"], "seed");
    assert_eq!(v["start_fen"], START);
    assert_eq!(v["moves"].as_array().unwrap().len(), 20);
    assert_eq!(v["s"], "1");

    // The share link the game endpoint gives decodes back to the same moves.
    let (_, game) = post("/api/xq/game", json!({"moves": v["moves"]})).await;
    let link = game["link"].as_str().unwrap().to_string();
    let (status, back) = post("/api/xq/link", json!({"link": format!("?{link}&ply=3&flip=1")})).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["moves"], v["moves"]);

    let (status, enc) = post("/api/xq/link/encode", json!({"moves": v["moves"]})).await;
    assert_eq!(status, StatusCode::OK, "{enc}");
    assert_eq!(enc["seed"].as_str().unwrap(), &SEED_QUERY[1..]);
}

#[tokio::test]
async fn garbage_gets_a_4xx_with_a_message() {
    let cases: Vec<(&str, Value)> = vec![
        ("/api/xq/game", json!({"moves": "h2e2"})),
        ("/api/xq/game", json!({"moves": [1, 2]})),
        ("/api/xq/game", json!({"moves": ["zz99"]})),
        ("/api/xq/game", json!({"moves": ["e0e2"]})),
        ("/api/xq/game", json!({"moves": ["h2e2"], "ply": 5})),
        ("/api/xq/game", json!({"moves": ["h2e2"], "ply": -1})),
        ("/api/xq/game", json!({"fen": "rnbakabnr/9/9"})),
        ("/api/xq/game", json!({"fen": "4k4/9/9/9/9/9/9/9/9/4K4 w"})),
        ("/api/xq/game", json!({"fen": "k8/9/9/9/9/9/9/9/9/4K4 w"})),
        ("/api/xq/game", json!({"fen": 7})),
        ("/api/xq/game", json!({"colour": "red"})),
        ("/api/xq/game", json!(["h2e2"])),
        ("/api/xq/game", json!({"moves": vec!["h2e2"; 2000]})),
        ("/api/xq/link", json!({})),
        ("/api/xq/link", json!({"link": ""})),
        ("/api/xq/link", json!({"link": "?p=!!!&r=???"})),
        ("/api/xq/link", json!({"link": "?p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=AAAAAAAAAAAAAAAAAAAA"})),
        ("/api/xq/link", json!({"link": "?g=@@@@"})),
        ("/api/xq/link", json!({"link": "x".repeat(5000)})),
        ("/api/xq/link/encode", json!({"moves": ["h2e2", "h2e2"]})),
    ];
    for (path, body) in cases {
        let (status, v) = post(path, body.clone()).await;
        assert_client_error(status, &v, &format!("{path} {body}"));
    }
    for raw in ["", "garbage", "{", "\u{0}\u{1}", "{\"moves\": [\"h2e2\"", "null", "[]", "\"text\""] {
        let (status, v) = post_raw("/api/xq/game", "application/json", raw).await;
        assert_client_error(status, &v, &format!("body {raw:?}"));
    }
    let (status, v) = post_raw("/api/xq/game", "text/plain", "{}").await;
    assert_client_error(status, &v, "text/plain body");
    let (status, v) = post_raw("/api/xq/game", "application/json", vec![0xff, 0xfe, 0x00]).await;
    assert_client_error(status, &v, "invalid UTF-8");
}

#[tokio::test]
async fn oversized_requests_and_unknown_paths_are_refused() {
    let (status, v) = post_raw("/api/xq/game", "application/json", "x".repeat(200_000)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_client_error(status, &v, "huge body");

    let long = format!("/xq?p={}", "A".repeat(10_000));
    let (status, body) = send(Request::get(long).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::URI_TOO_LONG, "{}", String::from_utf8_lossy(&body));

    let (status, v) = post("/api/nothing/here", json!({})).await;
    assert_client_error(status, &v, "unknown endpoint");
    let (status, _) = send(Request::get("/api/xq/game").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    for path in ["/assets/../Cargo.toml", "/assets/nothing.js", "/nothing"] {
        let (status, _) = send(Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn pages_and_assets_are_embedded() {
    for (path, kind, needle) in [
        ("/", "text/html", "/xq"),
        ("/xq", "text/html", "board"),
        ("/assets/xq.js", "text/javascript", "import"),
        ("/assets/board.js", "text/javascript", "楚"),
        ("/assets/style.css", "text/css", ".xq-board"),
    ] {
        let response = qi_web::router().oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let ct = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        let text = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(text.contains(needle), "{path} lacks {needle:?}");
    }
}

#[tokio::test]
async fn the_end_of_the_game_is_judged() {
    let mate = json!({"fen": "3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1", "moves": ["i0i9"]});
    let (status, v) = post("/api/xq/game", mate).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], json!({"over": true, "winner": "red", "reason": "checkmate"}));

    // Viewed before the last move, the same game is still going.
    let (_, v) =
        post("/api/xq/game", json!({"fen": "3k5/9/3P5/9/9/9/9/9/9/4K3R w", "moves": ["i0i9"], "ply": 0})).await;
    assert_eq!(v["status"]["over"], false);
}

#[tokio::test]
async fn pgn_exports_and_imports() {
    let (status, v) = post("/api/xq/pgn/export", json!({"moves": ["h2e2", "h9g7"], "notation": "chinese"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let pgn = v["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("炮二平五"), "{pgn}");
    let (status, back) = post("/api/xq/pgn/import", json!({ "pgn": pgn })).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["moves"], json!(["h2e2", "h9g7"]));
    assert_eq!(back["start_fen"], START);
    // Vietnamese and traditional Chinese PGN read back to the same moves.
    for (notation, text) in [("vietnamese", "1. P2-5 M8.7"), ("traditional", "1. 炮二平五 馬８進７")] {
        let (status, v) = post("/api/xq/pgn/export", json!({"moves": ["h2e2", "h9g7"], "notation": notation})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let pgn = v["pgn"].as_str().unwrap().to_string();
        assert!(pgn.contains(text), "{pgn}");
        let (_, back) = post("/api/xq/pgn/import", json!({ "pgn": pgn })).await;
        assert_eq!(back["moves"], json!(["h2e2", "h9g7"]), "{notation}");
    }

    for bad in [json!({"pgn": "1. C2.9"}), json!({"pgn": ""}), json!({"pgn": "[Event \"x"}), json!({"pgn": 5})] {
        let (status, v) = post("/api/xq/pgn/import", bad.clone()).await;
        assert_client_error(status, &v, &format!("import {bad}"));
    }
    for bad in [json!({"moves": ["h2e2"], "notation": "klingon"}), json!({"moves": ["e0e5"]})] {
        let (status, v) = post("/api/xq/pgn/export", bad.clone()).await;
        assert_client_error(status, &v, &format!("export {bad}"));
    }
}

#[tokio::test]
async fn the_explorer_answers_as_the_crate_does() {
    let (status, v) = post("/api/xq/explore", json!({"moves": ["炮二平五", "h9g7"]})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let request = xiangqi_explorer::Request { fen: None, moves: vec!["h2e2".into(), "h9g7".into()] };
    let native = xiangqi_explorer::answer(&request, &[xiangqi_explorer::master()]).unwrap();
    assert_eq!(v, serde_json::to_value(&native).unwrap());
    assert!(v["total"].as_u64().unwrap() > 100, "{v}");
    assert!(v["ecco"]["code"].as_str().is_some_and(|c| c.starts_with('B')), "a central cannon: {v}");

    let (status, v) = post("/api/xq/explore", json!({"moves": ["h2e2", "h2e2"]})).await;
    assert_client_error(status, &v, "an illegal move");
    assert!(v["error"].as_str().unwrap().contains("move 2"), "{v}");
    let (status, v) = post("/api/xq/explore", json!({"fen": "nope"})).await;
    assert_client_error(status, &v, "a bad FEN");
}
