//! What a lobby socket's client is sent (lila-ws's `ClientIn`), each message as its JSON text
//! frame.
//!
//! ```
//! use qi_rooms::lobby::ClientIn;
//! let frame: serde_json::Value = serde_json::from_str(&ClientIn::Seeking { id: "7" }.frame()).unwrap();
//! assert_eq!(frame, serde_json::json!({"type": "seeking", "id": "7"}));
//! ```

use crate::clock::ClockSettings;
use crate::live::LiveGame;
use crate::seek::WireSeek;
use serde_json::json;

/// One message to a lobby client.
#[derive(Clone, Copy, Debug)]
pub enum ClientIn<'a> {
    /// `{"type": "seeks", "seeks": [{id, clock, colour, name}]}`: every open seek, oldest first;
    /// sent on connect and after every change.
    Seeks(&'a [WireSeek]),
    /// `{"type": "seeking", "id"}`: this socket's seek is open.
    Seeking {
        /// The seek.
        id: &'a str,
    },
    /// `{"type": "paired", "room", "colour", "link"}`: a seek was accepted; the room is made
    /// and this client plays `colour` through `link`.
    Paired {
        /// The room's id.
        room: &'a str,
        /// `red` or `black`.
        colour: &'a str,
        /// The player's seat token.
        token: &'a str,
    },
    /// `{"type": "games", "games": [{room, names: {red, black}, clock: {initial_s, increment_s,
    /// red_ms, black_ms, running}|null, plies, spectators, link}]}`: the games being played
    /// that their players left public, as [`LiveGame::shown`] orders and bounds them, the
    /// clocks read at wall time `now_ms` (the page runs them on); sent on connect and after
    /// every change.
    Games {
        /// The games.
        games: &'a [LiveGame],
        /// Wall milliseconds now.
        now_ms: i64,
    },
    /// `{"type": "pong"}`, the answer to a `ping`.
    Pong,
    /// `{"type": "error", "error"}`: what went wrong (nothing changed).
    Error(&'a str),
}

impl ClientIn<'_> {
    /// The message as a JSON text frame.
    pub fn frame(&self) -> String {
        match *self {
            ClientIn::Seeks(seeks) => {
                let list: Vec<_> = seeks
                    .iter()
                    .map(|s| json!({"id": s.id, "clock": clock_json(s.clock()), "colour": s.colour.as_str(), "name": s.name}))
                    .collect();
                json!({"type": "seeks", "seeks": list})
            }
            ClientIn::Games { games, now_ms } => {
                let list: Vec<_> = games.iter().map(|g| game_json(g, now_ms)).collect();
                json!({"type": "games", "games": list})
            }
            ClientIn::Seeking { id } => json!({"type": "seeking", "id": id}),
            ClientIn::Paired { room, colour, token } => {
                json!({"type": "paired", "room": room, "colour": colour, "link": format!("/xq?room={room}&seat={token}")})
            }
            ClientIn::Pong => json!({"type": "pong"}),
            ClientIn::Error(text) => json!({"type": "error", "error": text}),
        }
        .to_string()
    }
}

fn game_json(game: &LiveGame, now_ms: i64) -> serde_json::Value {
    let clock = game.clock.as_ref().map(|c| {
        let [red_ms, black_ms] = c.remaining_at(now_ms);
        json!({
            "initial_s": c.initial_ms / 1000, "increment_s": c.increment_ms / 1000,
            "red_ms": red_ms, "black_ms": black_ms, "running": c.running,
        })
    });
    let room = game.room.as_str();
    json!({
        "room": room,
        "names": {"red": game.names[0], "black": game.names[1]},
        "clock": clock,
        "plies": game.plies,
        "spectators": game.spectators,
        "link": format!("/xq?room={room}"),
    })
}

fn clock_json(clock: Option<ClockSettings>) -> serde_json::Value {
    match clock {
        None => serde_json::Value::Null,
        Some(c) => json!({"initial_s": c.initial_ms / 1000, "increment_s": c.increment_ms / 1000}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seek::SeekColour;

    #[test]
    fn frames_carry_the_wire_names() {
        let seek = WireSeek {
            id: "a-1".into(),
            instance: "a".into(),
            socket: 1,
            address: "192.0.2.1".into(),
            clock_ms: Some([180_000, 2_000]),
            colour: SeekColour::Random,
            name: None,
            posted_ms: 5,
        };
        let seeks: serde_json::Value = serde_json::from_str(&ClientIn::Seeks(&[seek]).frame()).unwrap();
        let expected = json!({"type": "seeks", "seeks": [
            {"id": "a-1", "clock": {"initial_s": 180, "increment_s": 2}, "colour": "random", "name": null}
        ]});
        assert_eq!(seeks, expected);
        let paired: serde_json::Value =
            serde_json::from_str(&ClientIn::Paired { room: "r", colour: "red", token: "t" }.frame()).unwrap();
        assert_eq!(paired, json!({"type": "paired", "room": "r", "colour": "red", "link": "/xq?room=r&seat=t"}));
        let game = LiveGame {
            room: "abcdefghjkmnpqrs".parse().unwrap(),
            instance: "a".into(),
            names: [Some("Ann".into()), None],
            clock: Some(crate::live::LiveClock {
                initial_ms: 180_000,
                increment_ms: 2_000,
                remaining_ms: [100_000, 90_000],
                running: Some("black".into()),
                at_ms: 1_000,
            }),
            plies: 3,
            spectators: 2,
            created_ms: 0,
        };
        let games: serde_json::Value =
            serde_json::from_str(&ClientIn::Games { games: &[game], now_ms: 1_500 }.frame()).unwrap();
        let clock =
            json!({"initial_s": 180, "increment_s": 2, "red_ms": 100_000, "black_ms": 89_500, "running": "black"});
        let expected = json!({"type": "games", "games": [{
            "room": "abcdefghjkmnpqrs", "names": {"red": "Ann", "black": null}, "clock": clock,
            "plies": 3, "spectators": 2, "link": "/xq?room=abcdefghjkmnpqrs"
        }]});
        assert_eq!(games, expected);
        let error: serde_json::Value = serde_json::from_str(&ClientIn::Error("no").frame()).unwrap();
        assert_eq!(error, json!({"type": "error", "error": "no"}));
    }
}
