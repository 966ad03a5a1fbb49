//! The hub: the rooms this process hosts, each run by a task of its own (the only code that
//! changes it), and the way to every room, hosted here or elsewhere.
//!
//! Every request to a room is a [`Request`] answered by a [`Response`]. A room hosted here gets
//! it through a channel; with a [`Bus`] (several servers) the hub finds the room's owner by its
//! lease and sends the request there, or takes the lease and hosts the room itself when nobody
//! holds it. A room task claims its room from the store ([`crate::RoomStore::claim`]), so the
//! writes of any earlier owner are fenced off, renews its lease while it runs, and stops when
//! the lease is lost, a write is fenced, or nobody has been connected for a while.
//!
//! Presence is counted where the sockets are: each instance tells the owner how many sockets
//! it holds per seat, again every [`PRESENCE_EVERY`]; the owner sums the counts and forgets
//! one not repeated within [`PRESENCE_TTL`] (an instance that died).
//!
//! One file per job: this one is the hub's API (make, show and join rooms) and its bus
//! listener; [`registry`] the rooms and sockets it holds; [`room_actor`] a room's task;
//! [`router`] the way to a room's owner; [`remote`] the requests to other instances;
//! [`listing`] the games of its rooms listed in the lobby (see [`crate::LiveGame`]).

mod listing;
mod registry;
mod remote;
mod room_actor;
mod router;

use crate::bus::{Bus, BusError, Incoming, Lease};
use crate::command::Command;
use crate::id::RoomId;
use crate::live::LiveGame;
use crate::record::wall_ms;
use crate::room::{Room, RoomSpec};
use crate::seek::LobbyEvent;
use crate::store::{Save, SaveError, StoreError, StoreHandle};
use crate::view::{Presence, StateFrames};
use crate::wire::{Body, Envelope, Failure, InstanceId, Request, Response, WireCommand};
use core::fmt;
use registry::{lock, Inner, LocalRoom};
use room_actor::{spawn_room, Start};
use router::tell_presence;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;
use xiangqi::Color;

pub use registry::Limits;

/// An owner forgets an instance's socket count not repeated for this long.
pub const PRESENCE_TTL: Duration = Duration::from_secs(5);
/// How often an instance repeats its socket counts to the rooms' owners (with a bus).
pub const PRESENCE_EVERY: Duration = Duration::from_millis(1500);

/// Why the hub could not serve a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// No such room (never made, or pruned).
    NotFound,
    /// The server holds as many rooms as it may.
    Full,
    /// The seat token is not one of this room's.
    BadSeat,
    /// The room has as many connections as it may.
    Crowded,
    /// The store failed.
    Store(StoreError),
    /// The room has no owner that answers (it is being taken over, or the broker is down);
    /// the client should reconnect.
    Gone,
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::NotFound => f.write_str("no such room"),
            HubError::Full => f.write_str("the server has no room for more games; try again later"),
            HubError::BadSeat => f.write_str("that seat token is not one of this room's"),
            HubError::Crowded => f.write_str("the room has as many visitors as it can take"),
            HubError::Store(e) => write!(f, "{e}"),
            HubError::Gone => f.write_str("the room is restarting; reconnect"),
        }
    }
}

impl std::error::Error for HubError {}

impl From<Failure> for HubError {
    fn from(f: Failure) -> HubError {
        match f {
            Failure::NotFound => HubError::NotFound,
            Failure::BadSeat => HubError::BadSeat,
            Failure::Crowded => HubError::Crowded,
            Failure::NotOwner => HubError::Gone,
            Failure::Store(e) => HubError::Store(StoreError(e)),
        }
    }
}

/// The room's answer to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Refused; the text says why (send it as an `error` message). Nothing changed.
    Refused(String),
    /// Nothing changed (a resend): the sender's `state` frame.
    State(String),
    /// Applied and saved; the new state is on its way to every subscriber.
    Applied,
}

/// A new room's id and seat tokens.
#[derive(Clone, Debug)]
pub struct Created {
    /// The room.
    pub id: RoomId,
    /// The seat tokens, red first.
    pub seats: [String; 2],
}

/// All rooms, as one server sees them. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

impl Hub {
    /// A hub of one server: every room is hosted here, kept in `store`. Needs a tokio runtime.
    pub fn new(store: StoreHandle, limits: Limits) -> Hub {
        let instance = store.owner().to_string();
        Hub::build(store, limits, None, instance)
    }

    /// A hub of one of several servers sharing `bus` (and the store behind `store`, which must
    /// be shared too): `incoming` is the channel the bus delivers to. Needs a tokio runtime.
    pub fn clustered(
        store: StoreHandle,
        limits: Limits,
        bus: Arc<dyn Bus>,
        mut incoming: mpsc::UnboundedReceiver<Incoming>,
    ) -> Hub {
        let instance = bus.instance().to_string();
        let hub = Hub::build(store, limits, Some(bus), instance);
        let weak = Arc::downgrade(&hub.inner);
        tokio::spawn(async move {
            while let Some(message) = incoming.recv().await {
                let Some(inner) = weak.upgrade() else { break };
                Hub { inner }.incoming(message);
            }
        });
        hub
    }

    fn build(store: StoreHandle, limits: Limits, bus: Option<Arc<dyn Bus>>, instance: InstanceId) -> Hub {
        let (presence_changed, changed) = mpsc::unbounded_channel();
        let (listing, listings) = mpsc::unbounded_channel();
        let hub = Hub { inner: Arc::new(Inner::new(store, limits, bus, instance, presence_changed, listing)) };
        tokio::spawn(tell_presence(Arc::downgrade(&hub.inner), changed));
        tokio::spawn(listing::tell_broker(Arc::downgrade(&hub.inner), listings));
        hub
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// This server's name (on the bus, and as the rooms' owner in the store).
    pub fn instance(&self) -> &str {
        &self.inner.instance
    }

    /// The bus, when this server is one of several.
    pub fn bus(&self) -> Option<&Arc<dyn Bus>> {
        self.inner.bus.as_ref()
    }

    /// What the bus tells this instance's lobby (nothing without a bus). A receiver that lags
    /// should read the seeks again, as on [`LobbyEvent::Changed`].
    pub fn lobby_events(&self) -> broadcast::Receiver<LobbyEvent> {
        self.inner.lobby.subscribe()
    }

    /// Every game listed in the lobby now (this server's, or every instance's with a bus), in
    /// no order; see [`LiveGame::shown`].
    ///
    /// # Errors
    /// The broker did not answer.
    pub async fn live_games(&self) -> Result<Vec<LiveGame>, BusError> {
        listing::games(&self.inner).await
    }

    /// How many rooms are hosted here now.
    pub fn rooms_in_memory(&self) -> usize {
        lock(&self.inner.rooms).len()
    }

    /// Makes a room from `spec` and saves it; returns its id and tokens once it is durable.
    ///
    /// # Errors
    /// [`HubError::Full`] when the server holds its limit of rooms, a store failure, or
    /// [`HubError::Gone`] when the bus is down.
    pub async fn create(&self, spec: RoomSpec) -> Result<Created, HubError> {
        if self.rooms_in_memory() >= self.inner.limits.max_rooms {
            return Err(HubError::Full);
        }
        let room = Room::new(spec, wall_ms(), Instant::now());
        if let Some(bus) = &self.inner.bus {
            if bus.acquire(room.id()).await != Ok(Lease::Mine) {
                return Err(HubError::Gone);
            }
        }
        let save = Save { record: room.to_record(Instant::now(), wall_ms()), follows: None, fence: 0 };
        self.inner.store.save(vec![save]).await.map_err(|e| match e {
            SaveError::Store(e) => HubError::Store(e),
            SaveError::Conflict(_) => HubError::Gone,
        })?;
        let created = Created {
            id: room.id().clone(),
            seats: [room.token(Color::Red).as_str().to_string(), room.token(Color::Black).as_str().to_string()],
        };
        // Saved, so a failure to host it now only means it is loaded on first use.
        let _ = spawn_room(&self.inner, room.id().clone(), Start::Fresh(Box::new(room)));
        Ok(created)
    }

    /// The room's state as `GET /api/rooms/{room}` shows it.
    ///
    /// # Errors
    /// [`HubError::NotFound`], [`HubError::Full`] (it would have to be loaded), a store failure.
    pub async fn snapshot(&self, id: &RoomId) -> Result<Arc<StateFrames>, HubError> {
        match self.ask(Request::Snapshot { room: id.clone() }).await? {
            Response::State { state } => Ok(Arc::new(state.frames())),
            _ => Err(HubError::Gone),
        }
    }

    /// The room's game as PGN (see [`crate::room_pgn`]).
    ///
    /// # Errors
    /// As [`Hub::snapshot`].
    pub async fn pgn(&self, id: &RoomId) -> Result<String, HubError> {
        match self.ask(Request::Pgn { room: id.clone() }).await? {
            Response::Pgn { pgn } => Ok(pgn),
            _ => Err(HubError::Gone),
        }
    }

    /// Connects to room `id`, seated by `token` or as a spectator without one.
    ///
    /// # Errors
    /// [`HubError::BadSeat`] for a token that is not the room's, [`HubError::Crowded`],
    /// [`HubError::NotFound`], [`HubError::Full`], a store failure.
    pub async fn join(&self, id: &RoomId, token: Option<&str>) -> Result<Joined, HubError> {
        // Watch the room's states before asking for the current one, so none is missed.
        let first = {
            let mut local = lock(&self.inner.local);
            let entry = local.entry(id.clone()).or_default();
            entry.joining += 1;
            entry.joining == 1 && entry.presence == Presence::default()
        };
        if first {
            if let Some(bus) = &self.inner.bus {
                let _ = bus.watch(id, true).await;
            }
        }
        let request =
            Request::Join { room: id.clone(), token: token.map(str::to_string), instance: self.inner.instance.clone() };
        let answer = self.ask(request).await;
        let seat = {
            let mut local = lock(&self.inner.local);
            let entry = local.entry(id.clone()).or_default();
            entry.joining -= 1;
            match &answer {
                Ok(Response::Joined { seat, .. }) => {
                    match seat {
                        Some(c) => entry.presence.seats[c.index()] += 1,
                        None => entry.presence.watchers += 1,
                    }
                    Ok(*seat)
                }
                Ok(_) => Err(HubError::Gone),
                Err(e) => Err(e.clone()),
            }
        };
        match (seat, answer) {
            (Ok(seat), Ok(Response::Joined { state, .. })) => {
                let updates = self.inner.fanout.subscribe(&state);
                Ok(Joined { seat, updates, room: id.clone(), hub: self.clone() })
            }
            (Err(e), _) | (_, Err(e)) => {
                self.forget_if_empty(id);
                Err(e)
            }
            _ => Err(HubError::Gone),
        }
    }

    fn forget_if_empty(&self, id: &RoomId) {
        let empty = {
            let mut local = lock(&self.inner.local);
            let empty = local.get(id).is_some_and(LocalRoom::is_empty);
            if empty {
                local.remove(id);
            }
            empty
        };
        if empty {
            if let Some(bus) = self.inner.bus.clone() {
                let id = id.clone();
                tokio::spawn(async move {
                    let _ = bus.watch(&id, false).await;
                });
            }
            self.inner.fanout.forget_if_unwatched(id);
        }
    }

    fn left(&self, id: &RoomId, seat: Option<Color>) {
        if let Some(entry) = lock(&self.inner.local).get_mut(id) {
            let slot = match seat {
                Some(c) => &mut entry.presence.seats[c.index()],
                None => &mut entry.presence.watchers,
            };
            *slot = slot.saturating_sub(1);
        }
        let _ = self.inner.presence_changed.send(id.clone());
        self.forget_if_empty(id);
    }

    /// Handles what the bus delivers.
    fn incoming(&self, message: Incoming) {
        match message {
            Incoming::Message(Envelope { id, body: Body::Response(response), .. }) => self.answered(id, response),
            Incoming::Message(Envelope { id, from, body: Body::Request(request) }) => {
                let hub = self.clone();
                tokio::spawn(async move {
                    let response = hub.serve_remote(request).await;
                    if let Some(bus) = &hub.inner.bus {
                        let envelope =
                            Envelope { id, from: hub.inner.instance.clone(), body: Body::Response(response) };
                        let _ = bus.send(&from, &envelope).await;
                    }
                });
            }
            Incoming::State(state) => {
                self.inner.fanout.publish(&state);
            }
            Incoming::Lobby(event) => {
                let _ = self.inner.lobby.send(event);
            }
            Incoming::Reconnected => {
                let _ = self.inner.lobby.send(LobbyEvent::Reconnected);
                listing::relist_all(&self.inner);
                // States may have been missed while the broker was away: fetch the current ones
                // and repeat the socket counts.
                let rooms: Vec<RoomId> = lock(&self.inner.local).keys().cloned().collect();
                for room in rooms {
                    let hub = self.clone();
                    tokio::spawn(async move {
                        if let Some(bus) = &hub.inner.bus {
                            let _ = bus.watch(&room, true).await;
                        }
                        if let Ok(Response::State { state }) = hub.ask(Request::Snapshot { room: room.clone() }).await {
                            hub.inner.fanout.publish(&state);
                        }
                        let _ = hub.inner.presence_changed.send(room);
                    });
                }
            }
        }
    }
}

/// A connection to a room: the seat it holds, its state updates, and the way to send commands.
/// Dropping it leaves the room (the opponent sees the player go offline).
pub struct Joined {
    /// The seat (`None`: a spectator).
    pub seat: Option<Color>,
    /// The room's latest state; the current one is there from the start.
    pub updates: watch::Receiver<Arc<StateFrames>>,
    room: RoomId,
    hub: Hub,
}

impl Joined {
    /// Sends `command` from this seat and waits for the room's verdict. An applied command is
    /// saved before this returns.
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room has no owner that answers; reconnect.
    pub async fn send(&self, command: Command) -> Result<Reply, HubError> {
        self.reply(Request::Command { room: self.room.clone(), seat: self.seat, command: WireCommand(command) }).await
    }

    /// Says `text` in the room's chat from this seat; the line reaches everyone through the
    /// updates ([`StateFrames::chat`]).
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room has no owner that answers; reconnect.
    pub async fn chat(&self, text: String) -> Result<Reply, HubError> {
        self.reply(Request::Chat { room: self.room.clone(), seat: self.seat, text }).await
    }

    /// Names this seat's player (saved before this returns, like a move).
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room has no owner that answers; reconnect.
    pub async fn name(&self, name: String) -> Result<Reply, HubError> {
        self.reply(Request::Name { room: self.room.clone(), seat: self.seat, name }).await
    }

    async fn reply(&self, request: Request) -> Result<Reply, HubError> {
        match self.hub.ask(request).await? {
            Response::Refused { error } => Ok(Reply::Refused(error)),
            Response::Unchanged { frame } => Ok(Reply::State(frame)),
            Response::Applied => Ok(Reply::Applied),
            _ => Err(HubError::Gone),
        }
    }

    /// The current state frame for this seat.
    pub fn current(&self) -> String {
        self.updates.borrow().frame(self.seat).to_string()
    }
}

impl Drop for Joined {
    fn drop(&mut self) {
        self.hub.left(&self.room, self.seat);
    }
}

#[cfg(test)]
mod tests {
    use super::registry::hosted;
    use super::*;
    use crate::store::{MemoryControl, MemoryStore, PrunePolicy};

    fn hub() -> (Hub, MemoryControl) {
        let (store, control) = MemoryStore::new();
        let (handle, _) = StoreHandle::start(store, PrunePolicy::default(), "test").unwrap();
        (Hub::new(handle, Limits::default()), control)
    }

    fn mv(text: &str) -> xiangqi::Move {
        text.parse().unwrap()
    }

    /// The next `games` frame the lobby socket is sent whose list passes `wanted`.
    async fn games_where(
        socket: &mut crate::LobbySocket,
        wanted: impl Fn(&[serde_json::Value]) -> bool,
    ) -> Vec<serde_json::Value> {
        let first: serde_json::Value = serde_json::from_str(&socket.games()).unwrap();
        if let Some(games) = first["games"].as_array().filter(|g| wanted(g)) {
            return games.clone();
        }
        tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let frame: serde_json::Value = serde_json::from_str(&socket.next_frame().await.unwrap()).unwrap();
                if let Some(games) = frame["games"].as_array().filter(|g| frame["type"] == "games" && wanted(g)) {
                    return games.clone();
                }
            }
        })
        .await
        .expect("the lobby shows the games")
    }

    #[tokio::test]
    async fn the_lobby_lists_public_games_with_their_spectators_until_they_end() {
        let (hub, _control) = hub();
        let lobby = crate::Lobby::start(hub.clone(), crate::LobbyLimits::default());
        let mut socket = lobby.join("192.0.2.1".parse().unwrap()).unwrap();
        let friend = hub.create(RoomSpec::standard(None)).await.unwrap();
        let public = hub.create(RoomSpec { public: true, ..RoomSpec::standard(None) }).await.unwrap();
        let friend_red = hub.join(&friend.id, Some(&friend.seats[0])).await.unwrap();
        let red = hub.join(&public.id, Some(&public.seats[0])).await.unwrap();
        let _black = hub.join(&public.id, Some(&public.seats[1])).await.unwrap();
        let _watchers = [hub.join(&public.id, None).await.unwrap(), hub.join(&public.id, None).await.unwrap()];
        assert_eq!(red.send(Command::Move { ply: 0, mv: mv("h2e2") }).await.unwrap(), Reply::Applied);
        // The friend room is private: only the lobby game, with its two spectators.
        let games = games_where(&mut socket, |g| g.len() == 1 && g[0]["spectators"] == 2 && g[0]["plies"] == 1).await;
        assert_eq!(games[0]["room"], public.id.as_str());
        assert_eq!(games[0]["link"], format!("/xq?room={}", public.id));
        // A player of the friend room lists it; then takes it off again.
        assert_eq!(friend_red.send(Command::Public(true)).await.unwrap(), Reply::Applied);
        games_where(&mut socket, |g| g.len() == 2).await;
        assert_eq!(friend_red.send(Command::Public(false)).await.unwrap(), Reply::Applied);
        games_where(&mut socket, |g| g.len() == 1).await;
        // The game ends: off the list.
        assert_eq!(red.send(Command::Resign).await.unwrap(), Reply::Applied);
        games_where(&mut socket, <[serde_json::Value]>::is_empty).await;
        assert!(hub.live_games().await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_failed_commit_changes_nothing_and_the_resend_goes_through() {
        let (hub, control) = hub();
        let created = hub.create(RoomSpec::standard(None)).await.unwrap();
        let red = hub.join(&created.id, Some(&created.seats[0])).await.unwrap();
        control.fail_commits(1);
        let reply = red.send(Command::Move { ply: 0, mv: mv("h2e2") }).await.unwrap();
        assert!(matches!(&reply, Reply::Refused(why) if why.contains("not saved")), "{reply:?}");
        let snapshot: serde_json::Value = serde_json::from_str(&hub.snapshot(&created.id).await.unwrap().api).unwrap();
        assert_eq!(snapshot["moves"], serde_json::json!([]), "rolled back");
        assert_eq!(control.get(&created.id).unwrap().moves, vec![]);
        assert_eq!(red.send(Command::Move { ply: 0, mv: mv("h2e2") }).await.unwrap(), Reply::Applied);
        assert_eq!(control.get(&created.id).unwrap().moves, vec![mv("h2e2")]);
        // A resend of the same move is answered with the state, not applied twice.
        assert!(matches!(red.send(Command::Move { ply: 0, mv: mv("h2e2") }).await.unwrap(), Reply::State(_)));
    }

    #[tokio::test]
    async fn a_fenced_owner_gives_the_room_up_and_the_next_request_reclaims_it() {
        let (hub, control) = hub();
        let created = hub.create(RoomSpec::standard(None)).await.unwrap();
        let red = hub.join(&created.id, Some(&created.seats[0])).await.unwrap();
        let black = hub.join(&created.id, Some(&created.seats[1])).await.unwrap();
        assert_eq!(red.send(Command::Move { ply: 0, mv: mv("h2e2") }).await.unwrap(), Reply::Applied);
        // Another server claims the room: this task's next write is refused by the fence, it
        // stops hosting, and the request is served by a task that claimed the room afresh.
        control.steal(&created.id);
        assert_eq!(black.send(Command::Move { ply: 1, mv: mv("h9g7") }).await.unwrap(), Reply::Applied);
        assert_eq!(control.get(&created.id).unwrap().moves, vec![mv("h2e2"), mv("h9g7")]);
        // The new task knows who is connected.
        let state: serde_json::Value = serde_json::from_str(&red.current()).unwrap();
        assert_eq!(state["players"]["red"]["connected"], true);
        assert_eq!(state["players"]["black"]["connected"], true);
    }

    #[tokio::test]
    async fn a_failed_load_is_reported_and_the_next_request_loads_again() {
        let (hub, control) = hub();
        let created = hub.create(RoomSpec::standard(None)).await.unwrap();
        // Out of memory: the next request loads it.
        let tx = hosted(&hub.inner, &created.id).unwrap();
        drop(tx);
        lock(&hub.inner.rooms).clear();
        control.fail_loads(1);
        assert!(matches!(hub.snapshot(&created.id).await, Err(HubError::Store(_))));
        assert!(hub.snapshot(&created.id).await.is_ok());
        assert_eq!(hub.snapshot(&RoomId::random()).await.unwrap_err(), HubError::NotFound);
        assert_eq!(hub.join(&created.id, Some("A".repeat(22).as_str())).await.err(), Some(HubError::BadSeat));
    }

    #[tokio::test]
    async fn leaving_is_seen_by_the_opponent() {
        let (hub, _control) = hub();
        let created = hub.create(RoomSpec::standard(None)).await.unwrap();
        let mut red = hub.join(&created.id, Some(&created.seats[0])).await.unwrap();
        let black = hub.join(&created.id, Some(&created.seats[1])).await.unwrap();
        drop(black);
        let connected = |red: &Joined| -> serde_json::Value {
            serde_json::from_str::<serde_json::Value>(&red.current()).unwrap()["players"]["black"]["connected"].clone()
        };
        tokio::time::timeout(Duration::from_secs(5), async {
            while connected(&red) != false {
                red.updates.changed().await.unwrap();
            }
        })
        .await
        .unwrap();
    }
}
