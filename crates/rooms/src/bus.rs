//! The seam between instances: what a hub needs from a shared broker to run rooms across
//! several servers. `qi-rooms-cluster` implements it over Redis; without a bus a hub runs every
//! room in its own process, as a single server does.
//!
//! - **Leases**: one owner per room at a time, for [`LEASE`], renewed while it hosts the room.
//!   A lease alone is not safety: the store's fence ([`crate::RoomStore::claim`]) is.
//! - **Messages**: [`Envelope`]s to an instance's inbox (requests to an owner, its answers).
//! - **States**: an owner publishes each new [`WireState`]; every instance with sockets on the
//!   room watches it.
//! - **Rate limits** shared by all instances.
//! - **The lobby's seeks** ([`WireSeek`]): posted, taken (atomically) and withdrawn in the
//!   broker; every instance hears [`LobbyEvent::Changed`], and a seek's instance hears when it
//!   was accepted. Seeks of an instance that stopped beating ([`Bus::lobby_heartbeat`]) go.
//! - **The games being played** ([`LiveGame`]): each owner announces its public games and
//!   their ends; every instance's lobby lists them all and hears [`LobbyEvent::Changed`]. The
//!   games of an instance that stopped beating go too.

use crate::id::RoomId;
use crate::live::LiveGame;
use crate::seek::{LobbyEvent, SeekPosted, WireSeek};
use crate::wire::{Envelope, InstanceId, WireState};
use core::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A future a [`Bus`] returns (boxed, so the trait is object-safe).
pub type BusFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, BusError>> + Send + 'a>>;

/// How long a lease lasts without renewal: a dead owner's rooms are taken over after it.
pub const LEASE: Duration = Duration::from_secs(3);

/// The broker failed (down, restarting, a bad answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusError(pub String);

impl fmt::Display for BusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "room bus: {}", self.0)
    }
}

impl std::error::Error for BusError {}

/// Who holds a room's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lease {
    /// This instance (just acquired, or already held).
    Mine,
    /// Another instance.
    HeldBy(InstanceId),
}

/// What reaches an instance from the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A request or an answer sent to this instance's inbox.
    Message(Envelope),
    /// A state of a room this instance watches.
    State(WireState),
    /// The connection to the broker was lost and is back: states may have been missed.
    Reconnected,
    /// For the lobby.
    Lobby(LobbyEvent),
}

/// A shared broker. The bus delivers [`Incoming`] messages to the channel it was made with.
pub trait Bus: Send + Sync + 'static {
    /// This instance's name on the bus.
    fn instance(&self) -> &str;
    /// Takes room `room`'s lease for [`LEASE`] if nobody holds it; says who does.
    fn acquire<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, Lease>;
    /// Who holds room `room`'s lease, if anyone (without taking it).
    fn owner<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, Option<InstanceId>>;
    /// Extends this instance's lease of `room` (taking it again if it lapsed and nobody else
    /// took it); `false` when another instance holds it.
    fn renew<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, bool>;
    /// Gives up this instance's lease of `room`, if it holds it.
    fn release<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, ()>;
    /// Sends `envelope` to instance `to`'s inbox; `false` when nobody is listening there.
    fn send<'a>(&'a self, to: &'a str, envelope: &'a Envelope) -> BusFuture<'a, bool>;
    /// Publishes a state of its room to every instance watching the room.
    fn publish<'a>(&'a self, state: &'a WireState) -> BusFuture<'a, ()>;
    /// Starts (`true`) or stops receiving `room`'s states.
    fn watch<'a>(&'a self, room: &'a RoomId, on: bool) -> BusFuture<'a, ()>;
    /// Counts one event under `key` in the current window of `window`; `false` once `limit`
    /// events of the window were counted (by every instance together).
    fn allow<'a>(&'a self, key: &'a str, limit: u32, window: Duration) -> BusFuture<'a, bool>;

    /// Opens `seek` unless the lobby holds `max` seeks or its address `per_address`.
    fn post_seek<'a>(&'a self, seek: &'a WireSeek, per_address: usize, max: usize) -> BusFuture<'a, SeekPosted>;
    /// Removes seek `id` and returns it, if it was open: of several takers, one gets it.
    fn take_seek<'a>(&'a self, id: &'a str) -> BusFuture<'a, Option<WireSeek>>;
    /// Removes the seeks `ids` (those still open).
    fn withdraw_seeks<'a>(&'a self, ids: &'a [String]) -> BusFuture<'a, ()>;
    /// Every open seek, oldest first.
    fn seeks(&self) -> BusFuture<'_, Vec<WireSeek>>;
    /// Says this instance's lobby is alive, and removes the seeks of instances that stopped
    /// saying so (their sockets are gone with them).
    fn lobby_heartbeat(&self) -> BusFuture<'_, ()>;
    /// Sends `event` to instance `to`'s lobby.
    fn tell_lobby<'a>(&'a self, to: &'a str, event: &'a LobbyEvent) -> BusFuture<'a, ()>;

    /// Lists `game` among the games being played (or updates its listing), for every lobby.
    fn announce_game<'a>(&'a self, game: &'a LiveGame) -> BusFuture<'a, ()>;
    /// Takes room `room`'s game off the list, if this instance listed it.
    fn end_game<'a>(&'a self, room: &'a RoomId) -> BusFuture<'a, ()>;
    /// Every listed game, in no order.
    fn live_games(&self) -> BusFuture<'_, Vec<LiveGame>>;
}
