//! The registry: the rooms this process hosts (a channel to each room's task), this process's
//! sockets per room, the requests waiting for other instances, and the limits it all keeps to.
//! A leaf of the hub: it knows no room task and no route (the spawn of a room's task lives in
//! [`super::room_actor`]).

use crate::bus::Bus;
use crate::fanout::Fanout;
use crate::id::RoomId;
use crate::live::LiveGame;
use crate::seek::LobbyEvent;
use crate::store::StoreHandle;
use crate::view::Presence;
use crate::wire::{InstanceId, Request, Response};
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

/// Lobby events buffered for a slow lobby task (past them it reads the seeks again).
const LOBBY_EVENTS: usize = 256;

/// What one server holds at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rooms in memory at once (new rooms are refused beyond it).
    pub max_rooms: usize,
    /// Sockets per room, players and spectators together.
    pub max_clients_per_room: u32,
    /// A room with nobody connected leaves memory after this long (it stays in the store).
    pub idle_room: Duration,
    /// With a clock, how long a side may take over its first move once both players are
    /// connected; after it the game is aborted (no result).
    pub first_move: Duration,
    /// The same while a player is missing.
    pub first_move_alone: Duration,
    /// How long the player who stayed waits, once the opponent's seat is empty, before
    /// claiming the game.
    pub claim_after: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: 20_000,
            max_clients_per_room: 64,
            idle_room: Duration::from_secs(60),
            first_move: crate::room::FIRST_MOVE_WAIT,
            first_move_alone: crate::room::FIRST_MOVE_WAIT_ALONE,
            claim_after: crate::room::CLAIM_AFTER,
        }
    }
}

/// A request to a room hosted here, and where its answer goes.
pub(super) struct Msg {
    pub(super) request: Request,
    pub(super) reply: oneshot::Sender<Response>,
}

/// This process's sockets on one room.
#[derive(Default)]
pub(super) struct LocalRoom {
    pub(super) presence: Presence,
    /// Joins under way (their seat is not known yet).
    pub(super) joining: u32,
}

impl LocalRoom {
    pub(super) fn is_empty(&self) -> bool {
        self.joining == 0 && self.presence == Presence::default()
    }
}

/// What the hub's parts share: one per hub, behind an [`Arc`].
pub(super) struct Inner {
    /// This server's name (on the bus, and as the rooms' owner in the store).
    pub(super) instance: InstanceId,
    /// The rooms hosted here: the queue of each one's task.
    pub(super) rooms: Mutex<HashMap<RoomId, mpsc::UnboundedSender<Msg>>>,
    pub(super) store: StoreHandle,
    pub(super) fanout: Fanout,
    pub(super) bus: Option<Arc<dyn Bus>>,
    pub(super) limits: Limits,
    pub(super) local: Mutex<HashMap<RoomId, LocalRoom>>,
    /// Rooms whose socket counts changed here: the presence task tells their owners.
    pub(super) presence_changed: mpsc::UnboundedSender<RoomId>,
    /// Requests sent to other instances, by correlation id.
    pub(super) pending: Mutex<HashMap<u64, oneshot::Sender<Response>>>,
    pub(super) next_id: AtomicU64,
    /// Other instances found holding rooms' leases, and when: asked again directly, without
    /// the two Redis round trips of [`Bus::acquire`], until they refuse or fail to answer.
    pub(super) owners: Mutex<HashMap<RoomId, (InstanceId, Instant)>>,
    /// What the bus says to the lobby (see [`super::Hub::lobby_events`]).
    pub(super) lobby: broadcast::Sender<LobbyEvent>,
    /// The games of the rooms hosted here that are listed in the lobby (see [`super::listing`]).
    pub(super) live: Mutex<HashMap<RoomId, LiveGame>>,
    /// Changes of `live` on their way to the broker (with a bus).
    pub(super) listing: mpsc::UnboundedSender<Listing>,
}

impl Inner {
    pub(super) fn new(
        store: StoreHandle,
        limits: Limits,
        bus: Option<Arc<dyn Bus>>,
        instance: InstanceId,
        presence_changed: mpsc::UnboundedSender<RoomId>,
        listing: mpsc::UnboundedSender<Listing>,
    ) -> Inner {
        Inner {
            instance,
            rooms: Mutex::new(HashMap::new()),
            store,
            fanout: Fanout::new(),
            bus,
            limits,
            local: Mutex::new(HashMap::new()),
            presence_changed,
            pending: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            owners: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(LOBBY_EVENTS).0,
            live: Mutex::new(HashMap::new()),
            listing,
        }
    }
}

/// A change of the lobby's list of games being played, for the broker (see [`super::listing`]).
pub(super) enum Listing {
    /// The game is listed, or its listing changed.
    Announce(LiveGame),
    /// The room's game is no longer listed.
    End(RoomId),
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The queue of room `id`'s task, if it is hosted here and running.
pub(super) fn hosted(inner: &Inner, id: &RoomId) -> Option<mpsc::UnboundedSender<Msg>> {
    lock(&inner.rooms).get(id).filter(|tx| !tx.is_closed()).cloned()
}

/// Takes the room out of the hub and closes its queue.
pub(super) fn leave_memory(
    inner: &Inner,
    id: &RoomId,
    me: &mpsc::UnboundedSender<Msg>,
    rx: &mut mpsc::UnboundedReceiver<Msg>,
) {
    {
        let mut rooms = lock(&inner.rooms);
        if rooms.get(id).is_some_and(|tx| tx.same_channel(me)) {
            rooms.remove(id);
        }
    }
    rx.close();
}
