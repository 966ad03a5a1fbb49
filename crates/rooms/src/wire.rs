//! What instances say to each other about rooms: requests to a room's owner and its answers,
//! each in an [`Envelope`] with a correlation id, and the room states the owner publishes.
//!
//! In one process the hub passes these values through channels as they are; between
//! instances they travel as JSON (see [`crate::Bus`]). Both directions are typed, as lila-ws
//! types its messages to and from lila.
//!
//! ```
//! use qi_rooms::wire::{Envelope, Request, Body};
//! let request = Request::Snapshot { room: "a1b2c3d4e5f6g7h8".parse().unwrap() };
//! let sent = Envelope { id: 7, from: "node-a".into(), body: Body::Request(request.clone()) };
//! let text = serde_json::to_string(&sent).unwrap();
//! let back: Envelope = serde_json::from_str(&text).unwrap();
//! assert_eq!(back.id, 7);
//! assert_eq!(back.body, Body::Request(request));
//! ```

use crate::colour::seat_name;
use crate::command::{Answer, Command};
use crate::id::RoomId;
use crate::view::StateFrames;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use xiangqi::{Color, Move};

/// One instance's name on the bus (random per process, so a restarted server is a new owner).
pub type InstanceId = String;

/// A fresh instance name: 16 random base64url characters.
pub fn new_instance() -> InstanceId {
    RoomId::random().as_str().to_string()
}

/// A request to the instance that hosts a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Check a seat token (none: a spectator), count the new socket as one of `instance`'s,
    /// and send the current state.
    Join {
        /// The room.
        room: RoomId,
        /// The seat token, if any.
        token: Option<String>,
        /// The instance that holds the socket.
        instance: InstanceId,
    },
    /// A command from a seat (none: a spectator, who is refused).
    Command {
        /// The room.
        room: RoomId,
        /// The sender's seat.
        #[serde(with = "seat_name")]
        seat: Option<Color>,
        /// What the seat asks.
        command: WireCommand,
    },
    /// The current state.
    Snapshot {
        /// The room.
        room: RoomId,
    },
    /// The game as PGN.
    Pgn {
        /// The room.
        room: RoomId,
    },
    /// A chat line from a seat.
    Chat {
        /// The room.
        room: RoomId,
        /// The sender's seat.
        #[serde(with = "seat_name")]
        seat: Option<Color>,
        /// What was said.
        text: String,
    },
    /// A player's name.
    Name {
        /// The room.
        room: RoomId,
        /// The player's seat.
        #[serde(with = "seat_name")]
        seat: Option<Color>,
        /// The name (empty: none).
        name: String,
    },
    /// How many sockets one instance holds for the room; the owner sums the instances' counts
    /// and forgets a count not repeated within [`crate::hub::PRESENCE_TTL`].
    Presence {
        /// The room.
        room: RoomId,
        /// The instance whose sockets these are.
        instance: InstanceId,
        /// Open sockets per seat, red first.
        seats: [u32; 2],
        /// Open spectator sockets.
        watchers: u32,
    },
}

impl Request {
    /// The room the request is about.
    pub fn room(&self) -> &RoomId {
        match self {
            Request::Join { room, .. }
            | Request::Command { room, .. }
            | Request::Snapshot { room }
            | Request::Pgn { room }
            | Request::Chat { room, .. }
            | Request::Name { room, .. }
            | Request::Presence { room, .. } => room,
        }
    }
}

/// The owner's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Response {
    /// The seat the token gives (none: a spectator) and the current state.
    Joined {
        /// The seat.
        #[serde(with = "seat_name")]
        seat: Option<Color>,
        /// The state.
        state: WireState,
    },
    /// Refused; nothing changed. The text says why.
    Refused {
        /// Why.
        error: String,
    },
    /// Nothing changed (a resend): the sender's `state` frame.
    Unchanged {
        /// The frame.
        frame: String,
    },
    /// Applied and saved; the new state is published.
    Applied,
    /// The current state.
    State {
        /// The state.
        state: WireState,
    },
    /// The game as PGN.
    Pgn {
        /// The PGN text.
        pgn: String,
    },
    /// Taken note of.
    Ok,
    /// The request could not be served.
    Failed {
        /// Why.
        error: Failure,
    },
}

/// Why an owner could not serve a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// No such room.
    NotFound,
    /// The seat token is not the room's.
    BadSeat,
    /// The room has as many connections as it may.
    Crowded,
    /// This instance does not host the room (any more): ask again who does.
    NotOwner,
    /// The store failed.
    Store(String),
}

/// A request or an answer, with the id that pairs them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// The correlation id: an answer carries its request's.
    pub id: u64,
    /// The sender (answers go to its inbox).
    pub from: InstanceId,
    /// What it says.
    pub body: Body,
}

/// The two directions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "snake_case")]
pub enum Body {
    /// To a room's owner.
    Request(Request),
    /// From it.
    Response(Response),
}

/// A room state as published: the frames for each recipient, and its order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireState {
    /// The room.
    pub room: RoomId,
    /// Orders states: the room's version first (a newer game always wins), then the owner's
    /// publication time in microseconds (presence and clock changes keep the version).
    pub stamp: (u64, u64),
    /// The `state` message for a red seat, a black seat and a spectator.
    pub for_seat: [String; 3],
    /// The `GET /api/rooms/{room}` body.
    pub api: String,
    /// Tells states apart (a state republished for a new chat line keeps it).
    pub state_id: u64,
    /// The chat's recent lines.
    pub chat: Vec<crate::chat::ChatLine>,
}

impl WireState {
    /// The frames of `room` stamped at `micros`.
    pub fn new(room: RoomId, frames: &StateFrames, micros: u64) -> WireState {
        WireState {
            room,
            stamp: (frames.version, micros),
            for_seat: frames.for_seat.clone(),
            api: frames.api.clone(),
            state_id: frames.state_id,
            chat: frames.chat.iter().map(|l| (**l).clone()).collect(),
        }
    }

    /// The frames, for local subscribers.
    pub fn frames(&self) -> StateFrames {
        StateFrames {
            version: self.stamp.0,
            for_seat: self.for_seat.clone(),
            api: self.api.clone(),
            state_id: self.state_id,
            chat: self.chat.iter().cloned().map(std::sync::Arc::new).collect(),
        }
    }
}

/// [`Command`] on the wire: the client protocol's names, the move in ICCS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireCommand(pub Command);

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum CommandForm {
    Move {
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
    },
    Resign,
    Draw {
        answer: AnswerForm,
    },
    Takeback {
        answer: AnswerForm,
    },
    Rematch,
    Claim {
        win: bool,
    },
    Abort,
    Public {
        public: bool,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum AnswerForm {
    Propose,
    Accept,
    Decline,
}

impl From<Answer> for AnswerForm {
    fn from(a: Answer) -> AnswerForm {
        match a {
            Answer::Propose => AnswerForm::Propose,
            Answer::Accept => AnswerForm::Accept,
            Answer::Decline => AnswerForm::Decline,
        }
    }
}

impl From<AnswerForm> for Answer {
    fn from(a: AnswerForm) -> Answer {
        match a {
            AnswerForm::Propose => Answer::Propose,
            AnswerForm::Accept => Answer::Accept,
            AnswerForm::Decline => Answer::Decline,
        }
    }
}

impl Serialize for WireCommand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let form = match self.0 {
            Command::Move { ply, mv } => CommandForm::Move { ply, mv: mv.to_string() },
            Command::Resign => CommandForm::Resign,
            Command::Draw(a) => CommandForm::Draw { answer: a.into() },
            Command::Takeback(a) => CommandForm::Takeback { answer: a.into() },
            Command::Rematch => CommandForm::Rematch,
            Command::Claim { win } => CommandForm::Claim { win },
            Command::Abort => CommandForm::Abort,
            Command::Public(public) => CommandForm::Public { public },
        };
        form.serialize(s)
    }
}

impl<'de> Deserialize<'de> for WireCommand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<WireCommand, D::Error> {
        Ok(WireCommand(match CommandForm::deserialize(d)? {
            CommandForm::Move { ply, mv } => {
                let mv: Move = mv.parse().map_err(|_| serde::de::Error::custom(format!("bad move {mv:?}")))?;
                Command::Move { ply, mv }
            }
            CommandForm::Resign => Command::Resign,
            CommandForm::Draw { answer } => Command::Draw(answer.into()),
            CommandForm::Takeback { answer } => Command::Takeback(answer.into()),
            CommandForm::Rematch => Command::Rematch,
            CommandForm::Claim { win } => Command::Claim { win },
            CommandForm::Abort => Command::Abort,
            CommandForm::Public { public } => Command::Public(public),
        }))
    }
}

impl Serialize for RoomId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RoomId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RoomId, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(|_| serde::de::Error::custom(format!("bad room id {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(body: Body) {
        let envelope = Envelope { id: 42, from: "b".into(), body };
        let text = serde_json::to_string(&envelope).unwrap();
        assert_eq!(serde_json::from_str::<Envelope>(&text).unwrap(), envelope, "{text}");
    }

    #[test]
    fn every_request_and_answer_survives_json() {
        let room: RoomId = "a1b2c3d4e5f6g7h8".parse().unwrap();
        let commands = [
            Command::Move { ply: 3, mv: "h2e2".parse().unwrap() },
            Command::Resign,
            Command::Draw(Answer::Propose),
            Command::Takeback(Answer::Decline),
            Command::Rematch,
            Command::Claim { win: true },
            Command::Abort,
        ];
        for command in commands {
            round_trip(Body::Request(Request::Command {
                room: room.clone(),
                seat: Some(Color::Black),
                command: WireCommand(command),
            }));
        }
        round_trip(Body::Request(Request::Join { room: room.clone(), token: Some("t".into()), instance: "c".into() }));
        round_trip(Body::Request(Request::Presence {
            room: room.clone(),
            instance: "a".into(),
            seats: [1, 2],
            watchers: 3,
        }));
        let state = WireState {
            room: room.clone(),
            stamp: (5, 99),
            for_seat: ["r".into(), "b".into(), "s".into()],
            api: "{}".into(),
            state_id: 3,
            chat: Vec::new(),
        };
        round_trip(Body::Response(Response::Joined { seat: None, state }));
        round_trip(Body::Response(Response::Failed { error: Failure::Store("disk".into()) }));
        round_trip(Body::Response(Response::Failed { error: Failure::NotOwner }));
    }

    #[test]
    fn hostile_envelopes_are_errors() {
        for text in [
            r#"{"id":1,"from":"a","body":{"kind":"request","message":{"op":"snapshot","room":"../x"}}}"#,
            r#"{"id":1,"from":"a","body":{"kind":"request","message":{"op":"command","room":"a1b2c3d4e5f6g7h8","seat":"green","command":{"type":"resign"}}}}"#,
            r#"{"id":1,"from":"a","body":{"kind":"request","message":{"op":"command","room":"a1b2c3d4e5f6g7h8","seat":null,"command":{"type":"move","ply":0,"move":"z0z0"}}}}"#,
            "[]",
        ] {
            assert!(serde_json::from_str::<Envelope>(text).is_err(), "{text}");
        }
    }
}
