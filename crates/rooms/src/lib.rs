//! Play a friend by link: durable Xiangqi rooms.
//!
//! A room has two seats, each taken by whoever holds its [`SeatToken`] (no accounts), and any
//! number of spectators. [`Room`] is the state machine (moves with an idempotent ply check,
//! draw and takeback offers, resignation, rematch, a server [`Clock`]); the [`Hub`] runs each
//! room in a task of its own, saves every change to a [`RoomStore`] before anyone hears of it,
//! and publishes states through a [`Fanout`].
//!
//! - One authority per room: only the room task calls [`Room::apply`]; connections parse and
//!   relay.
//! - Nothing acknowledged is lost: a change is broadcast only after [`RoomStore::save`]
//!   committed it ([`SqliteStore`]: WAL, group commit).
//! - Clocks run on monotonic time; the time a server was down is not charged
//!   ([`RoomStore::resume`]).
//!
//! ```
//! use qi_rooms::{protocol, Command, Room, RoomSpec};
//! use xiangqi::Color;
//! let now = tokio::time::Instant::now();
//! let mut room = Room::new(RoomSpec::standard(None), 0, now);
//! let protocol::ClientMessage::Command(cmd) = protocol::parse(r#"{"type":"resign"}"#).unwrap() else { panic!() };
//! room.apply(Some(Color::Black), cmd, now).unwrap();
//! assert_eq!(room.status().outcome.name(), "red wins");
//! ```
#![deny(missing_docs)]

mod clock;
mod command;
mod fanout;
mod hub;
mod id;
mod offers;
pub mod protocol;
mod rate;
mod record;
mod room;
mod status;
pub mod store;
mod view;

pub use clock::{Clock, ClockSettings, MAX_INCREMENT_MS, MAX_INITIAL_MS};
pub use command::{Answer, Command, Refusal};
pub use fanout::{Fanout, LocalFanout};
pub use hub::{Created, Hub, HubError, Joined, Limits, Reply};
pub use id::{BadId, RoomId, SeatToken};
pub use offers::Offers;
pub use rate::TokenBucket;
pub use record::{wall_ms, ClockRecord, RoomRecord};
pub use room::{Applied, Room, RoomSpec, SpecError, MAX_PLIES};
pub use status::{EndReason, RoomStatus};
pub use store::{Durability, PrunePolicy, RoomStore, SqliteStore, StoreError, StoreHandle};
pub use view::{share_path, state_frames, Presence, StateFrames};
