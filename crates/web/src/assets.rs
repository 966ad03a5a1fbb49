//! The pages, scripts and styles, embedded in the binary at build time (no files needed at run
//! time), answered from the site table (`site.rs`) with validators and compression.

use crate::rooms::Rooms;
use crate::site::{self, NOT_FOUND_PAGE, PAGES};
use axum::extract::{Path, RawQuery};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};

pub fn routes() -> Router {
    let mut router = Router::new()
        .route("/assets/{*path}", get(asset))
        .route("/favicon.ico", get(|headers: HeaderMap| async move { by_url("/assets/favicon.ico", &headers) }))
        .route("/sw.js", get(|headers: HeaderMap| async move { page("sw.js", &headers) }));
    for (route, name) in PAGES {
        let handler = move |RawQuery(query): RawQuery, headers: HeaderMap, rooms: Option<Extension<Rooms>>| async move {
            let name = if name == "xq.html" && is_room(query.as_deref()) { ROOM_PAGE } else { name };
            // A page with a game or layout in its address carries its link preview.
            let rooms = rooms.as_ref().map(|Extension(r)| r);
            match crate::preview::page(name, query.as_deref().unwrap_or(""), &headers, rooms).await {
                Some(previewed) => previewed,
                None => page(name, &headers),
            }
        };
        router = router.route(route, get(handler));
    }
    router.fallback(missing_page)
}

/// A room's own page, served at `/xq?room=ID[&seat=TOKEN]` (the rooms' links keep this form).
const ROOM_PAGE: &str = "room.html";

fn is_room(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|pair| pair == "room" || pair.starts_with("room=")))
}

/// Any other address: a real 404 page (in the user's language, with a link home), not a blank one.
async fn missing_page(headers: HeaderMap) -> Response {
    let mut response = page(NOT_FOUND_PAGE, &headers);
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

fn page(name: &str, headers: &HeaderMap) -> Response {
    match site::by_name(name) {
        Some(file) => site::respond(file, false, headers),
        None => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    by_url(&format!("/assets/{path}"), &headers)
}

fn by_url(url: &str, headers: &HeaderMap) -> Response {
    match site::by_url(url) {
        Some((file, forever)) => site::respond(file, forever, headers),
        None => crate::ApiError::not_found(format!("no such file: {}", xiangqi::Excerpt(url))).into_response(),
    }
}
