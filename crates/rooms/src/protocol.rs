//! The wire form of what clients send: JSON objects tagged by `type`.
//!
//! `{"type": "move", "ply": N, "move": ICCS}`, `{"type": "resign"}`,
//! `{"type": "draw", "action": "offer"|"accept"|"decline"}`,
//! `{"type": "takeback", "action": "request"|"accept"|"decline"}`, `{"type": "rematch"}`,
//! `{"type": "abort"}` (before both first moves), `{"type": "claim", "result": "win"|"draw"}`
//! (once the opponent has been gone for the grace period), and
//! `{"type": "ping"}` (answered `{"type": "pong"}`, for pages that cannot send WebSocket pings),
//! `{"type": "chat", "text"}` (a seat's chat line, see [`crate::Chat`]) and
//! `{"type": "name", "name"}` (the seat's player's name, for the room and the PGN) and
//! `{"type": "public", "public": true|false}` (either player lists the game for spectators in
//! the lobby, or takes it off the list).
//! Keys a message does not use are ignored, so that newer clients may add some.
//!
//! ```
//! use qi_rooms::protocol::{parse, ClientMessage};
//! use qi_rooms::Command;
//! let msg = parse(r#"{"type":"move","ply":0,"move":"h2e2"}"#).unwrap();
//! assert_eq!(msg, ClientMessage::Command(Command::Move { ply: 0, mv: "h2e2".parse().unwrap() }));
//! assert!(parse(r#"{"type":"move","ply":0,"move":"z9z9"}"#).is_err());
//! assert!(parse("garbage").is_err());
//! ```

use crate::command::{Answer, Command};
use serde::Deserialize;

/// A parsed client message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// A request for the room.
    Command(Command),
    /// A keep-alive; answered with `{"type": "pong"}`.
    Ping,
    /// A chat line (checked by the room: see [`crate::Chat::say`]).
    Chat(String),
    /// The sender's name for its seat (see [`crate::clean_name`]; empty: none).
    Name(String),
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Wire {
    Move {
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
    },
    Resign,
    Draw {
        action: DrawAction,
    },
    Takeback {
        action: TakebackAction,
    },
    Rematch,
    Abort,
    Claim {
        result: ClaimResult,
    },
    Ping,
    Chat {
        text: String,
    },
    Name {
        name: String,
    },
    Public {
        public: bool,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum ClaimResult {
    Win,
    Draw,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum DrawAction {
    Offer,
    Accept,
    Decline,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum TakebackAction {
    Request,
    Accept,
    Decline,
}

/// Parses one text frame.
///
/// # Errors
/// A message saying what is wrong: not JSON, an unknown `type`, a missing or unknown key, a
/// move that is not ICCS.
pub fn parse(text: &str) -> Result<ClientMessage, String> {
    let wire: Wire = serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
    Ok(match wire {
        Wire::Move { ply, mv } => {
            let mv = mv.parse().map_err(|_| format!("bad move {mv:?}: expected ICCS such as h2e2"))?;
            ClientMessage::Command(Command::Move { ply, mv })
        }
        Wire::Resign => ClientMessage::Command(Command::Resign),
        Wire::Draw { action } => ClientMessage::Command(Command::Draw(match action {
            DrawAction::Offer => Answer::Propose,
            DrawAction::Accept => Answer::Accept,
            DrawAction::Decline => Answer::Decline,
        })),
        Wire::Takeback { action } => ClientMessage::Command(Command::Takeback(match action {
            TakebackAction::Request => Answer::Propose,
            TakebackAction::Accept => Answer::Accept,
            TakebackAction::Decline => Answer::Decline,
        })),
        Wire::Rematch => ClientMessage::Command(Command::Rematch),
        Wire::Abort => ClientMessage::Command(Command::Abort),
        Wire::Claim { result } => ClientMessage::Command(Command::Claim { win: matches!(result, ClaimResult::Win) }),
        Wire::Ping => ClientMessage::Ping,
        Wire::Chat { text } => ClientMessage::Chat(text),
        Wire::Name { name } => ClientMessage::Name(name),
        Wire::Public { public } => ClientMessage::Command(Command::Public(public)),
    })
}

/// The `error` message sent to the sender alone.
pub fn error_frame(text: &str) -> String {
    serde_json::json!({"type": "error", "error": text}).to_string()
}

/// The `error` message for a refused chat line: `about` tells it from a refused command, so
/// that a page does not take it for the answer to a move.
pub fn chat_error_frame(text: &str) -> String {
    serde_json::json!({"type": "error", "error": text, "about": "chat"}).to_string()
}

/// The answer to a `ping`.
pub const PONG_FRAME: &str = r#"{"type":"pong"}"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_keep_their_protocol_names() {
        assert_eq!(
            parse(r#"{"type":"draw","action":"offer"}"#),
            Ok(ClientMessage::Command(Command::Draw(Answer::Propose)))
        );
        assert_eq!(
            parse(r#"{"type":"takeback","action":"request"}"#),
            Ok(ClientMessage::Command(Command::Takeback(Answer::Propose)))
        );
        assert!(parse(r#"{"type":"draw","action":"request"}"#).is_err());
        assert!(parse(r#"{"type":"takeback","action":"offer"}"#).is_err());
        assert!(parse(r#"{"type":"move","ply":-1,"move":"h2e2"}"#).is_err());
        // Extra keys are ignored, so a newer client can add some.
        assert!(parse(r#"{"type":"resign","id":1}"#).is_ok());
        assert!(parse(r#"{"type":"fly"}"#).is_err());
        assert_eq!(parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
        assert_eq!(parse(r#"{"type":"chat","text":"gg"}"#), Ok(ClientMessage::Chat("gg".into())));
        assert!(parse(r#"{"type":"chat"}"#).is_err());
        assert_eq!(parse(r#"{"type":"public","public":true}"#), Ok(ClientMessage::Command(Command::Public(true))));
        assert!(parse(r#"{"type":"public","public":"yes"}"#).is_err());
    }
}
