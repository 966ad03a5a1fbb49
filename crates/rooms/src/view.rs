//! The `state` message: what every client is shown, built from one room at one instant.

use crate::chat::ChatLine;
use crate::room::Room;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::time::Instant;
use xiangqi::Color;

/// Who is connected: how many sockets each seat has open, and how many spectators watch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Open sockets per seat, red first (several tabs count as one player online).
    pub seats: [u32; 2],
    /// Open spectator sockets.
    pub watchers: u32,
}

/// The path of the game's link on the Xiangqi page. A finished game gets the compact share link
/// (`/xq?g=…`), which needs no server; a game in progress gets the plain form
/// (`/xq?fen=…&moves=h2e2.h9g7`), which costs nothing to make on every move.
pub fn share_path(room: &Room) -> String {
    let game = room.game();
    if room.status().is_over() {
        return format!("/xq?g={}", xiangqi_link::encode_compact(game.start(), game.moves()));
    }
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    let fen = game.start().fen().replace(' ', "+").replace('/', "%2F");
    if moves.is_empty() {
        format!("/xq?fen={fen}")
    } else {
        format!("/xq?fen={fen}&moves={}", moves.join("."))
    }
}

#[derive(Serialize)]
struct StatusView {
    outcome: &'static str,
    reason: Option<&'static str>,
}

#[derive(Serialize)]
struct ClockView {
    initial_s: u64,
    increment_s: u64,
    red_ms: u64,
    black_ms: u64,
    running: Option<&'static str>,
}

#[derive(Serialize)]
struct PlayerView {
    connected: bool,
}

#[derive(Serialize)]
struct PlayersView {
    red: PlayerView,
    black: PlayerView,
    watchers: u32,
}

#[derive(Serialize)]
struct OffersView {
    draw: Option<&'static str>,
    takeback: Option<&'static str>,
    rematch: Option<&'static str>,
}

#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    you: Option<Option<&'static str>>,
    room: &'a str,
    v: u64,
    start_fen: String,
    moves: Vec<String>,
    turn: &'static str,
    status: StatusView,
    clock: Option<ClockView>,
    players: PlayersView,
    offers: OffersView,
    link: String,
    next: Option<&'a str>,
    /// Before both first moves (with a clock): milliseconds left for the side to move's first
    /// move before the game is aborted.
    abort_in_ms: Option<u64>,
    /// Once the game has started and one seat is empty: milliseconds until the player who
    /// stayed may claim the game (0: now).
    claim_in_ms: Option<u64>,
    /// The players' names, if they gave one.
    names: NamesView<'a>,
    /// Listed for spectators in the lobby while the game goes on.
    public: bool,
}

#[derive(Serialize)]
struct NamesView<'a> {
    red: Option<&'a str>,
    black: Option<&'a str>,
}

/// The state as JSON for each kind of recipient: `[red, black, spectator]` (they differ only in
/// `you`), and the API's form without `you`.
#[derive(Clone, Debug)]
pub struct StateFrames {
    /// The room's version when the frames were made.
    pub version: u64,
    /// The `state` message for a red seat, a black seat and a spectator.
    pub for_seat: [String; 3],
    /// The `GET /api/rooms/{room}` body (no `you` key).
    pub api: String,
    /// Tells states apart: frames republished only for a new chat line keep it, so that a
    /// socket sends the state again only when it is a new one.
    pub state_id: u64,
    /// The chat's recent lines, oldest first (each socket sends the ones it has not sent).
    pub chat: Vec<Arc<ChatLine>>,
}

impl StateFrames {
    /// The frame for a recipient seated at `seat` (`None`: a spectator).
    pub fn frame(&self, seat: Option<Color>) -> &str {
        &self.for_seat[seat.map_or(2, Color::index)]
    }
}

fn ms_until(deadline: Instant, now: Instant) -> u64 {
    u64::try_from(deadline.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX)
}

/// Builds the state messages for `room` at `now`; `link` is its [`share_path`] (callers cache it).
pub fn state_frames(room: &Room, presence: Presence, link: &str, now: Instant) -> StateFrames {
    let game = room.game();
    let status = room.status();
    let offers = room.offers();
    let mut view = StateView {
        kind: "state",
        you: None,
        room: room.id().as_str(),
        v: room.version(),
        start_fen: game.start().fen(),
        moves: game.moves().iter().map(ToString::to_string).collect(),
        turn: game.position().turn().name(),
        status: StatusView { outcome: status.outcome_name(), reason: status.reason.map(|r| r.name()) },
        clock: room.clock().map(|c| {
            let [red_ms, black_ms] = c.remaining_both(now);
            let s = c.settings();
            ClockView {
                initial_s: s.initial_ms / 1000,
                increment_s: s.increment_ms / 1000,
                red_ms,
                black_ms,
                running: c.ticking(now).map(Color::name),
            }
        }),
        players: PlayersView {
            red: PlayerView { connected: presence.seats[0] > 0 },
            black: PlayerView { connected: presence.seats[1] > 0 },
            watchers: presence.watchers,
        },
        offers: OffersView {
            draw: offers.draw.map(Color::name),
            takeback: offers.takeback.map(Color::name),
            rematch: offers.rematch.map(Color::name),
        },
        link: link.to_string(),
        next: room.next().map(|n| n.as_str()),
        abort_in_ms: room.abort_deadline().map(|d| ms_until(d, now)),
        claim_in_ms: room.claim_deadline().map(|d| ms_until(d, now)),
        names: NamesView { red: room.names()[0], black: room.names()[1] },
        public: room.public(),
    };
    let api = serde_json::to_string(&view).expect("state serialises");
    let mut frame = |you: Option<Color>| {
        view.you = Some(you.map(Color::name));
        serde_json::to_string(&view).expect("state serialises")
    };
    let for_seat = [frame(Some(Color::Red)), frame(Some(Color::Black)), frame(None)];
    static STATES: AtomicU64 = AtomicU64::new(1);
    let state_id = STATES.fetch_add(1, Ordering::Relaxed);
    StateFrames { version: room.version(), for_seat, api, state_id, chat: room.chat_lines() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::RoomSpec;
    use serde_json::Value;

    #[test]
    fn the_state_has_the_protocol_keys() {
        let now = Instant::now();
        let room = Room::new(RoomSpec::standard(None), 0, now);
        let frames = state_frames(&room, Presence { seats: [1, 0], watchers: 2 }, &share_path(&room), now);
        let red: Value = serde_json::from_str(frames.frame(Some(Color::Red))).unwrap();
        for key in ["you", "start_fen", "moves", "status", "clock", "players", "offers", "link", "public"] {
            assert!(red.get(key).is_some(), "{key} in {red}");
        }
        assert_eq!(red["you"], "red");
        assert_eq!(red["type"], "state");
        assert_eq!(red["status"], serde_json::json!({"outcome": "ongoing", "reason": null}));
        assert_eq!(red["players"]["red"]["connected"], true);
        assert_eq!(red["players"]["black"]["connected"], false);
        let watcher: Value = serde_json::from_str(frames.frame(None)).unwrap();
        assert_eq!(watcher["you"], Value::Null);
        let api: Value = serde_json::from_str(&frames.api).unwrap();
        assert!(api.get("you").is_none());
        assert!(red["link"].as_str().unwrap().starts_with("/xq?fen="), "a game in progress: {red}");
    }
}
