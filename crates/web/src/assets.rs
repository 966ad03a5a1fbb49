//! The pages, scripts and styles, embedded in the binary at build time (no files needed at run time).

use super::ApiError;
use axum::extract::{Path, RawQuery};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use include_dir::{include_dir, Dir};

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

pub fn routes() -> Router {
    Router::new()
        .route("/", get(|| async { page("index.html") }))
        .route("/xq", get(xq_page))
        .route("/huarong", get(|| async { page("huarong.html") }))
        .route("/assets/{*path}", get(asset))
        .route("/favicon.ico", get(|| async { page("favicon.ico") }))
        .fallback(missing_page)
}

/// `/xq`: the Xiangqi page, or a room's own page for `/xq?room=ID[&seat=TOKEN]` (the rooms'
/// links keep this form).
async fn xq_page(RawQuery(query): RawQuery) -> Response {
    let room = query.is_some_and(|q| q.split('&').any(|pair| pair == "room" || pair.starts_with("room=")));
    page(if room { "room.html" } else { "xq.html" })
}

/// Any other address: a real 404 page (in the user's language, with a link home), not a blank one.
async fn missing_page() -> Response {
    let mut response = page("404.html");
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

fn page(name: &str) -> Response {
    file(name).unwrap_or_else(|e| e.into_response())
}

async fn asset(Path(path): Path<String>) -> Response {
    file(&path).unwrap_or_else(|e| e.into_response())
}

fn file(path: &str) -> Result<Response, ApiError> {
    // include_dir paths never contain `..`, so a lookup cannot leave the embedded tree.
    let found = ASSETS.get_file(path).ok_or_else(|| ApiError::not_found(format!("no such file: {path}")))?;
    let headers = [(CONTENT_TYPE, content_type(path)), (CACHE_CONTROL, "no-cache")];
    Ok((headers, found.contents()).into_response())
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("txt") | Some("md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
