//! The Huarong Dao endpoints driven in-process: classics, a layout's moves, the solver, bad input.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

async fn call(req: Request<Body>) -> (StatusCode, Value) {
    let response = qi_web::router().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(path).header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string()));
    call(req.unwrap()).await
}

#[tokio::test]
async fn the_classics_are_listed_with_their_minimum_steps() {
    let (status, v) = call(Request::get("/api/huarong/classics").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let classics = v["classics"].as_array().unwrap();
    assert_eq!(classics.len(), 40);
    assert_eq!(classics[0]["name"], "横刀立马");
    assert_eq!(classics[0]["layout"], "VCCV/VCCV/VHHV/VSSV/S..S");
    assert_eq!(classics[0]["steps"], 81);
}

#[tokio::test]
async fn a_layout_is_described_by_text_or_share_code() {
    let (status, v) = post("/api/huarong/layout", json!({"layout": "VCCV/VCCV/VHHV/VSSV/S..S"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["solved"], false);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 10);
    let moves = v["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m["from"] == 16 && m["to"] == 17 && m["layout"] == "VCCV/VCCV/VHHV/VSSV/.S.S"));
    let code = v["code"].as_str().unwrap().to_string();
    let (status, again) = post("/api/huarong/layout", json!({"layout": code})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["layout"], v["layout"]);
}

#[tokio::test]
async fn solve_gives_the_minimum_and_a_path_to_the_goal() {
    let (status, v) = post("/api/huarong/solve", json!({"layout": "VCCV/VCCV/VHHV/VSSV/S..S"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["steps"], 81);
    let path = v["path"].as_array().unwrap();
    assert_eq!(path.len(), 81);
    assert_eq!(path.last().unwrap()["solved"], true);

    // A layout that cannot be solved is an answer, not an error.
    let (status, v) = post("/api/huarong/solve", json!({"layout": "SSSS/SSSS/HHHH/..SS/CC.."})).await;
    assert!(status == StatusCode::OK || status.is_client_error(), "{status} {v}");
}

#[tokio::test]
async fn bad_layouts_get_a_4xx_with_a_message() {
    for layout in [
        json!(""),
        json!("VCCV/VCCV/VHHV/VSSV"),
        json!("VCCV/VCCV/VHHV/VSSV/SS.S"),
        json!("XXXX/XXXX/XXXX/XXXX/XXXX"),
        json!("CC../CC../..CC/..CC/...."),
        json!("!!!!"),
        json!("A".repeat(500)),
        json!(12),
        json!(null),
    ] {
        for path in ["/api/huarong/layout", "/api/huarong/solve", "/api/huarong/hint"] {
            let (status, v) = post(path, json!({ "layout": layout })).await;
            assert!(status.is_client_error(), "{path} {layout}: {status} {v}");
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path} {layout}: {v}");
        }
    }
}

#[tokio::test]
async fn a_hint_is_the_first_move_of_a_shortest_solution() {
    let (status, v) = post("/api/huarong/hint", json!({"layout": "VCCV/VCCV/VHHV/VSSV/S..S"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["steps"], 81);
    let after = v["move"]["layout"].as_str().unwrap().to_string();
    let (_, next) = post("/api/huarong/hint", json!({ "layout": after })).await;
    assert_eq!(next["steps"], 80, "the hinted move is on a shortest path");
    let (_, solved) = post("/api/huarong/hint", json!({"layout": "VSSV/VSSV/HH.V/VCCV/VCC."})).await;
    assert_eq!((solved["steps"].clone(), solved["move"].clone()), (json!(0), Value::Null));
}

#[tokio::test]
async fn puzzles_come_by_difficulty_and_the_same_seed_gives_the_same_one() {
    for (min, max) in [(10, 30), (81, 81), (121, 138)] {
        let (status, v) = post("/api/huarong/puzzle", json!({"min": min, "max": max})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let steps = v["steps"].as_u64().unwrap();
        assert!((min..=max).contains(&steps), "{v}");
        let (_, solved) = post("/api/huarong/solve", json!({"layout": v["layout"]})).await;
        assert_eq!(solved["steps"].as_u64(), Some(steps), "{v}");
    }
    let daily = json!({"min": 40, "max": 100, "seed": "2026-12-01"});
    let (_, a) = post("/api/huarong/puzzle", daily.clone()).await;
    let (_, b) = post("/api/huarong/puzzle", daily).await;
    assert_eq!(a, b);
    let (status, v) = post("/api/huarong/puzzle", json!({"min": 50, "max": 60, "pieces": "4V+1H+4S"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["pieces"], "C+4V+1H+4S");
    for bad in [
        json!({"min": 30, "max": 10}),
        json!({"pieces": "9V"}),
        json!({"min": 139}),
        json!({"seed": "x".repeat(100)}),
        json!({"min": -1}),
        json!({"size": 3}),
    ] {
        let (status, v) = post("/api/huarong/puzzle", bad.clone()).await;
        assert!(status.is_client_error(), "{bad}: {status} {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{bad}: {v}");
    }
}
