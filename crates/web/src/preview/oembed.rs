//! `GET /oembed?url=…&format=json`: the oEmbed answer for a board link (type `rich`, its
//! `html` the embeddable board in an iframe), so that forums that speak oEmbed embed a shared
//! game by themselves. See <https://oembed.com>.

use super::{link_query, read_game, words};
use crate::origin::origin;
use crate::ApiError;
use axum::extract::RawQuery;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Serialize;

/// The embedded board's size when the consumer sets no bounds: room for the board, the
/// replay buttons and a few lines of moves.
pub const EMBED_WIDTH: u32 = 400;
/// See [`EMBED_WIDTH`].
pub const EMBED_HEIGHT: u32 = 600;
/// The embed page fits any width from this.
pub const MIN_EMBED_WIDTH: u32 = 280;

/// The oEmbed answer.
#[derive(Serialize)]
pub(crate) struct OEmbed {
    version: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    provider_name: &'static str,
    provider_url: String,
    title: String,
    html: String,
    width: u32,
    height: u32,
    thumbnail_url: String,
    thumbnail_width: u32,
    thumbnail_height: u32,
    cache_age: u32,
}

/// The query of an oEmbed request for `page` (a board link).
pub(crate) fn query_for(page: &str) -> String {
    form_urlencoded::Serializer::new(String::new()).append_pair("url", page).append_pair("format", "json").finish()
}

/// The iframe snippet that embeds the game of `link` (a link's query) from `base`.
pub(crate) fn iframe(base: &str, link: &str, width: u32, height: u32, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" title=\"{}\" style=\"border:0;max-width:100%\" loading=\"lazy\"></iframe>",
        super::tags::escape(&format!("{base}/embed?{link}")),
        super::tags::escape(title)
    )
}

pub(crate) async fn answer(RawQuery(query): RawQuery, headers: HeaderMap) -> Result<Json<OEmbed>, ApiError> {
    let mut url = None;
    let mut format = None;
    let mut max = (None, None);
    for (k, v) in form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match k.as_ref() {
            "url" => url = Some(v.into_owned()),
            "format" => format = Some(v.into_owned()),
            "maxwidth" => max.0 = v.parse::<u32>().ok(),
            "maxheight" => max.1 = v.parse::<u32>().ok(),
            _ => {}
        }
    }
    if format.as_deref().is_some_and(|f| f != "json") {
        return Err(ApiError::new(StatusCode::NOT_IMPLEMENTED.as_u16(), "only format=json is answered"));
    }
    let url = url.ok_or_else(|| ApiError::bad_request("give the link to embed as url=…"))?;
    // A board link of this site, whatever host it was shared under: /xq?… or /embed?….
    let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let path_and_query = rest.find('/').map_or("", |i| &rest[i..]);
    let (path, link) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
    if path != "/xq" && path != "/embed" {
        return Err(ApiError::not_found("only board links (/xq?… or /embed?…) are embedded"));
    }
    let link = link.split('#').next().unwrap_or("").to_string();
    let game = read_game(link.clone()).await?;
    let words = words::game(&game, None, words::Lang::of_request(&link, &headers));
    let width = max.0.map_or(EMBED_WIDTH, |m| m.clamp(MIN_EMBED_WIDTH, EMBED_WIDTH));
    let height = max.1.map_or(EMBED_HEIGHT, |m| m.min(EMBED_HEIGHT));
    let base = origin(&headers);
    let link = link_query(&link);
    let (tw, th) = qi_board_image::CARD_SIZE;
    Ok(Json(OEmbed {
        version: "1.0",
        kind: "rich",
        provider_name: "Qi",
        html: iframe(&base, &link, width, height, &words.title),
        title: words.title,
        width,
        height,
        thumbnail_url: format!("{base}/preview/xq.png?{link}"),
        thumbnail_width: tw,
        thumbnail_height: th,
        provider_url: base,
        cache_age: 86_400,
    }))
}
