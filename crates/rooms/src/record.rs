//! A room as it is saved: plain data that a [`crate::RoomStore`] writes and reads back.

use crate::clock::ClockSettings;
use crate::id::{RoomId, SeatToken};
use crate::offers::Offers;
use xiangqi::{Color, Move};

/// A saved clock: the remaining times when the record was made, and the wall time then, so that
/// a room loaded later charges the running side for the time in between (and, thanks to
/// [`crate::RoomStore::resume`], not for time the server was down).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockRecord {
    /// The time control.
    pub settings: ClockSettings,
    /// Remaining milliseconds, red first, at `at_ms`.
    pub remaining_ms: [u64; 2],
    /// The side whose time was running at `at_ms`.
    pub running: Option<Color>,
    /// Wall time of the record, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// Everything a room needs to come back after a restart. Connections are not in it: clients
/// reconnect by themselves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRecord {
    /// The room's public id.
    pub id: RoomId,
    /// The seat tokens, red first.
    pub seats: [SeatToken; 2],
    /// The position the room's game starts from (a FEN).
    pub start_fen: String,
    /// The moves played, in order (the first `preset` were given when the room was made).
    pub moves: Vec<Move>,
    /// How many of `moves` came with the room (a takeback never goes below them; a rematch
    /// starts after them).
    pub preset: usize,
    /// The clock, if the room has one.
    pub clock: Option<ClockRecord>,
    /// The outcome's protocol name (`ongoing`, `red wins`, …).
    pub outcome: String,
    /// The reason's protocol name when the game is over.
    pub reason: Option<String>,
    /// Standing offers.
    pub offers: Offers,
    /// The rematch room, once both players asked for one.
    pub next: Option<RoomId>,
    /// The number of changes the room has seen (each broadcast state carries it as `v`).
    pub version: u64,
    /// Wall time of creation, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Wall time of the last change (pruning counts from it).
    pub updated_ms: i64,
    /// With a clock: the mover's remaining milliseconds after each move (empty otherwise).
    pub move_clocks: Vec<u64>,
    /// The players' names, red first, if they gave one.
    pub names: [Option<String>; 2],
    /// Listed for spectators in the lobby while the game goes on.
    pub public: bool,
}

/// Wall-clock milliseconds since the Unix epoch (for records only; clocks run on monotonic time).
pub fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}
