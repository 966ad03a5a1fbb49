#![no_main]
//! Any bytes as the body of each JSON endpoint, through the real router (the limits, the
//! extractor, the handlers): always an answer below 500 with a JSON body, an `error` message
//! on every 4xx, and never a panic.

use axum::body::Body;
use axum::http::{header, Request};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

const ENDPOINTS: [&str; 8] = [
    "/api/xq/game",
    "/api/xq/link",
    "/api/xq/link/encode",
    "/api/xq/pgn/import",
    "/api/xq/pgn/export",
    "/api/xq/engine",
    "/api/huarong/layout",
    "/api/huarong/solve",
];

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap())
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the endpoint; the rest is the body.
    let Some((&pick, body)) = data.split_first() else { return };
    let path = ENDPOINTS[pick as usize % ENDPOINTS.len()];
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .unwrap();
    runtime().block_on(async {
        let response = qi_web::router().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert!(status.as_u16() < 500, "{path}: {status} {}", String::from_utf8_lossy(&bytes));
        let value: serde_json::Value = serde_json::from_slice(&bytes).expect("a JSON answer");
        if status.is_client_error() {
            let message = value["error"].as_str().expect("an error message");
            assert!(!message.is_empty() && message.len() <= 300, "{path}: {message}");
        }
    });
});
