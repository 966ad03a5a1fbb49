//! The lobby's seeks as instances share them: one open offer to play ([`WireSeek`]), what
//! posting one can meet ([`SeekPosted`]) and what the bus tells a lobby ([`LobbyEvent`]).
//!
//! With one server the lobby keeps its seeks in its own task; with several, the seeks live in
//! the broker (see [`crate::Bus::post_seek`]), so that a seek made on one instance is seen and
//! accepted on every other, and taking one is atomic: of two players accepting at once, one
//! gets the seek and the other is told it is gone.
//!
//! ```
//! use qi_rooms::{SeekColour, WireSeek};
//! let seek = WireSeek {
//!     id: "s1".into(), instance: "node-a".into(), socket: 3, address: "192.0.2.1".into(),
//!     clock_ms: Some([180_000, 2_000]), colour: SeekColour::Red, name: Some("Ann".into()), posted_ms: 1,
//! };
//! let text = serde_json::to_string(&seek).unwrap();
//! let back: WireSeek = serde_json::from_str(&text).unwrap();
//! assert_eq!(back.clock().unwrap().increment_ms, 2_000);
//! ```

use crate::clock::ClockSettings;
use crate::wire::InstanceId;
use serde::{Deserialize, Serialize};
use xiangqi::Color;

/// The colour a seek's maker asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeekColour {
    /// The maker plays Red.
    Red,
    /// The maker plays Black.
    Black,
    /// Decided when the room is made.
    Random,
}

impl SeekColour {
    /// Its name on the lobby's wire.
    pub fn as_str(self) -> &'static str {
        match self {
            SeekColour::Red => Color::Red.name(),
            SeekColour::Black => Color::Black.name(),
            SeekColour::Random => "random",
        }
    }
}

/// One open seek, as the broker keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireSeek {
    /// Its id, unique among all instances' seeks.
    pub id: String,
    /// The instance holding the maker's socket (told when the seek is accepted).
    pub instance: InstanceId,
    /// The maker's socket on that instance.
    pub socket: u64,
    /// The maker's address, as the per-address bound counts it.
    pub address: String,
    /// The clock as `[initial, increment]` in milliseconds; none for an untimed game.
    pub clock_ms: Option<[u64; 2]>,
    /// The colour the maker asks for.
    pub colour: SeekColour,
    /// The maker's name, cleaned.
    pub name: Option<String>,
    /// When it was posted (wall milliseconds): "quick" takes the oldest.
    pub posted_ms: u64,
}

impl WireSeek {
    /// The clock, if it is a valid one (a seek from a broken peer is untimed, not an error).
    pub fn clock(&self) -> Option<ClockSettings> {
        let [initial, increment] = self.clock_ms?;
        ClockSettings::from_seconds(initial / 1000, increment / 1000).ok()
    }

    /// Orders seeks oldest first (ids of one instance, `N` or `name-N`, in the order made).
    pub fn older(a: &WireSeek, b: &WireSeek) -> core::cmp::Ordering {
        (a.posted_ms, a.id.len(), &a.id).cmp(&(b.posted_ms, b.id.len(), &b.id))
    }

    /// The wire form of `clock`.
    pub fn clock_of(clock: Option<ClockSettings>) -> Option<[u64; 2]> {
        clock.map(|c| [c.initial_ms, c.increment_ms])
    }
}

/// What a post of a seek met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekPosted {
    /// It is open.
    Open,
    /// The lobby holds its limit of seeks.
    LobbyFull,
    /// The maker's address holds its limit of seeks.
    AddressFull,
}

/// What the bus tells an instance's lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LobbyEvent {
    /// The shared seeks changed: read them again.
    Changed,
    /// Seek `seek` of socket `socket` on this instance was accepted: send it `frame`.
    Paired {
        /// The seek's id (no longer open: the maker's lobby forgets it).
        seek: String,
        /// The maker's socket.
        socket: u64,
        /// The lobby frame that sends it to the room.
        frame: String,
    },
    /// The broker was away and is back: seeks it lost must be posted again.
    Reconnected,
}
