//! A finished room's page (`/xq?room=ID`) previews its game: the players, the result and the
//! moves, with the picture of its last position. A room still being played shows no preview
//! (its position changes under the link).

use super::{link_query, tags, words};
use crate::origin::origin;
use crate::rooms::Rooms;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use xiangqi::Color;

/// The parts of a room's state (`GET /api/rooms/{room}`) a preview needs.
#[derive(Deserialize)]
struct RoomState {
    status: RoomStatus,
    link: String,
    names: Names,
}

#[derive(Deserialize)]
struct RoomStatus {
    outcome: String,
    reason: Option<String>,
}

#[derive(Deserialize)]
struct Names {
    red: Option<String>,
    black: Option<String>,
}

/// The room's page `page` with the preview of its finished game; `None` for an unknown room or
/// one still being played.
pub(crate) async fn page(page: &str, query: &str, headers: &HeaderMap, rooms: &Rooms) -> Option<Response> {
    let id = form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "room")?.1.parse().ok()?;
    let frames = rooms.hub().snapshot(&id).await.ok()?;
    let state: RoomState = serde_json::from_str(&frames.api).ok()?;
    let winner = match state.status.outcome.as_str() {
        "red wins" => Some(Color::Red),
        "black wins" => Some(Color::Black),
        "draw" | "aborted" => None,
        _ => return None,
    };
    let link = state.link.split_once('?').map_or("", |(_, q)| q).to_string();
    let mut played = super::read_game(link.clone()).await.ok()?;
    // The room's own ending (resignation, flag, agreement…) is the result, not only the rules'.
    played.result = Some((winner, room_reason(state.status.reason.as_deref())));
    let lang = words::Lang::of_request(query, headers);
    let (red, black) = (state.names.red, state.names.black);
    let red = red.unwrap_or_else(|| lang.side(Color::Red).into());
    let black = black.unwrap_or_else(|| lang.side(Color::Black).into());
    let words = words::game(&played, Some((&red, &black)), lang);
    let base = origin(headers);
    let at = tags::Addresses {
        page: format!("{base}/xq?{query}"),
        image: format!("{base}/preview/xq.png?{}", link_query(&link)),
        oembed: None,
    };
    Some(super::html(tags::into_page(page, &words, lang, &at)))
}

/// The reason names of the rooms' endings, as `'static` for a preview's result.
fn room_reason(reason: Option<&str>) -> &'static str {
    const NAMES: [&str; 12] = [
        "checkmate",
        "stalemate",
        "perpetual check",
        "perpetual chase",
        "repetition",
        "move limit",
        "no attackers",
        "resignation",
        "agreement",
        "flag",
        "aborted",
        "abandonment",
    ];
    reason.and_then(|r| NAMES.iter().find(|n| **n == r)).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_room_ending_keeps_its_name() {
        assert_eq!(super::room_reason(Some("resignation")), "resignation");
        assert_eq!(super::room_reason(Some("something new")), "");
        assert_eq!(super::room_reason(None), "");
    }
}
