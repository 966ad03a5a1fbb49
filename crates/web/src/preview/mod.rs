//! Link previews: a shared game or layout shows itself where it is pasted.
//!
//! - The board page (`/xq?g=…`, `?p=…&r=…`, `?fen=…&moves=…`) and the Huarong page
//!   (`/huarong?l=…`) carry Open Graph and Twitter card tags that say what the game is, in the
//!   request's language (`tags.rs`, `words.rs`);
//! - `/preview/xq.png?…` and `/preview/huarong.png?l=…` are their pictures, drawn from the
//!   link alone and cached within bounds (`cards.rs`);
//! - `/oembed?url=…&format=json` answers oEmbed with the embeddable board (`oembed.rs`).

mod cards;
pub(crate) mod game;
mod huarong;
mod oembed;
mod room;
pub(crate) mod tags;
pub(crate) mod words;

use crate::cpu;
use crate::origin::origin;
use crate::ApiError;
use axum::extract::RawQuery;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::time::Duration;
use words::Lang;

pub use cards::{MAX_CARDS, MAX_CARD_BYTES};
pub use huarong::MAX_SOLVED_LAYOUTS;
pub use oembed::{EMBED_HEIGHT, EMBED_WIDTH, MIN_EMBED_WIDTH};

/// Reading a link takes milliseconds; this is far beyond.
const READ_LIMIT: Duration = Duration::from_secs(5);

/// The pictures and the oEmbed endpoint.
pub(crate) fn routes() -> Router {
    Router::new()
        .route("/preview/xq.png", get(xq_card))
        .route("/preview/huarong.png", get(huarong::card))
        .route("/oembed", get(oembed::answer))
}

/// The game of a board page's query, read on the games pool.
pub(crate) async fn read_game(query: String) -> Result<game::LinkGame, ApiError> {
    cpu::GAMES.run(READ_LIMIT, move || game::read(&query)).await
}

/// The query of the link alone: the game's fields, without the ply on view or the orientation,
/// so that every view of one link shares one picture.
pub(crate) fn link_query(query: &str) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in form_urlencoded::parse(query.trim_start_matches('?').as_bytes()) {
        if matches!(k.as_ref(), "g" | "p" | "r" | "s" | "fen" | "moves") {
            out.append_pair(&k, &v);
        }
    }
    out.finish()
}

/// The card's caption: the move number (as a score sheet counts) and the last move.
fn caption(game: &game::LinkGame) -> String {
    match &game.last_chinese {
        Some(last) => format!("{} {last}", game.plies.div_ceil(2)),
        None => String::new(),
    }
}

async fn xq_card(RawQuery(query): RawQuery, headers: HeaderMap) -> Result<Response, ApiError> {
    let game = read_game(query.unwrap_or_default()).await?;
    let key = format!("xq {}", game.key);
    cards::answer(key, &headers, move || {
        qi_board_image::card_png(&game.last_position, game.last, &caption(&game))
            .map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR.as_u16(), e.to_string()))
    })
    .await
}

/// A page made for one request: never stored as the site's files are, and it depends on the
/// language asked for.
pub(crate) fn html(body: String) -> Response {
    let mut response = body.into_response();
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(VARY, HeaderValue::from_static("Accept-Language"));
    response
}

/// The board page `page` with the preview of the game in `query`; `None` when the query holds
/// no game or one that does not read (the page itself then says what is wrong).
async fn xq_page(page: &str, query: &str, headers: &HeaderMap) -> Option<Response> {
    if !game::has_game(query) {
        return None;
    }
    let game = read_game(query.to_string()).await.ok()?;
    let base = origin(headers);
    let lang = Lang::of_request(query, headers);
    let words = words::game(&game, None, lang);
    let link = link_query(query);
    let page_url = format!("{base}/xq?{query}");
    let at = tags::Addresses {
        image: format!("{base}/preview/xq.png?{link}"),
        oembed: Some(format!("{base}/oembed?{}", oembed::query_for(&page_url))),
        page: page_url,
    };
    Some(html(tags::into_page(page, &words, lang, &at)))
}

/// The page `name` (a file of the site) with the preview of what `query` holds, when it is a
/// board page or the Huarong page with a game or layout that reads, or a finished room's page.
pub(crate) async fn page(
    name: &str,
    query: &str,
    headers: &HeaderMap,
    rooms: Option<&crate::rooms::Rooms>,
) -> Option<Response> {
    let file = crate::site::by_name(name)?;
    let html = std::str::from_utf8(file.raw).ok()?;
    match name {
        "xq.html" | "embed.html" => xq_page(html, query, headers).await,
        "huarong.html" => huarong::page(html, query, headers).await,
        "room.html" => room::page(html, query, headers, rooms?).await,
        _ => None,
    }
}
