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

use crate::bus::{Bus, Incoming, Lease, LEASE};
use crate::command::{Command, Refusal};
use crate::fanout::Fanout;
use crate::id::RoomId;
use crate::record::{wall_ms, RoomRecord};
use crate::room::{Applied, Room, RoomSpec};
use crate::seek::LobbyEvent;
use crate::store::{Save, SaveError, StoreError, StoreHandle};
use crate::view::{share_path, state_frames, Presence, StateFrames};
use crate::wire::{Body, Envelope, Failure, InstanceId, Request, Response, WireCommand, WireState};
use core::fmt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;
use xiangqi::Color;

/// An owner forgets an instance's socket count not repeated for this long.
pub const PRESENCE_TTL: Duration = Duration::from_secs(5);
/// How often an instance repeats its socket counts to the rooms' owners (with a bus).
pub const PRESENCE_EVERY: Duration = Duration::from_millis(1500);
/// How long an answer from another instance may take before it counts as gone.
const REMOTE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a request keeps looking for a room's owner: a dead owner's lease must lapse first.
const ROUTE_PATIENCE: Duration = Duration::from_secs(LEASE.as_secs() * 2 + 2);
const RETRY_PAUSE: Duration = Duration::from_millis(150);
/// How long an owner found through the bus is asked directly before its lease is read again.
/// A wrong guess costs one refusal ([`Failure::NotOwner`]) or, for a dead owner, an unheard
/// message; a paused one costs [`REMOTE_TIMEOUT`], as an unpaused lease holder would.
const OWNER_KNOWN: Duration = LEASE;
/// Known owners kept before the stale ones are dropped.
const OWNERS_KNOWN: usize = 100_000;
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

struct Msg {
    request: Request,
    reply: oneshot::Sender<Response>,
}

/// How a room task starts.
enum Start {
    /// A room just made and saved (fence 0).
    Fresh(Box<Room>),
    /// A stored room, claimed from the store.
    Claim,
}

enum Route {
    Local(mpsc::UnboundedSender<Msg>),
    Remote(InstanceId),
    /// Nobody hosts the room (and the caller did not ask to host it).
    Nobody,
    /// The broker did not answer; try again.
    Retry,
}

/// This process's sockets on one room.
#[derive(Default)]
struct LocalRoom {
    presence: Presence,
    /// Joins under way (their seat is not known yet).
    joining: u32,
}

impl LocalRoom {
    fn is_empty(&self) -> bool {
        self.joining == 0 && self.presence == Presence::default()
    }
}

struct Inner {
    instance: InstanceId,
    rooms: Mutex<HashMap<RoomId, mpsc::UnboundedSender<Msg>>>,
    store: StoreHandle,
    fanout: Fanout,
    bus: Option<Arc<dyn Bus>>,
    limits: Limits,
    local: Mutex<HashMap<RoomId, LocalRoom>>,
    /// Rooms whose socket counts changed here: the presence task tells their owners.
    presence_changed: mpsc::UnboundedSender<RoomId>,
    /// Requests sent to other instances, by correlation id.
    pending: Mutex<HashMap<u64, oneshot::Sender<Response>>>,
    next_id: AtomicU64,
    /// Other instances found holding rooms' leases, and when: asked again directly, without
    /// the two Redis round trips of [`Bus::acquire`], until they refuse or fail to answer.
    owners: Mutex<HashMap<RoomId, (InstanceId, Instant)>>,
    /// What the bus says to the lobby (see [`Hub::lobby_events`]).
    lobby: broadcast::Sender<LobbyEvent>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
        let hub = Hub {
            inner: Arc::new(Inner {
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
            }),
        };
        tokio::spawn(tell_presence(Arc::downgrade(&hub.inner), changed));
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

    /// Sends `request` to its room's owner and waits for the answer, looking the owner up
    /// again (and hosting the room when nobody does) until [`ROUTE_PATIENCE`] has passed.
    async fn ask(&self, request: Request) -> Result<Response, HubError> {
        let give_up = Instant::now() + ROUTE_PATIENCE;
        loop {
            let answer = match self.route(request.room(), true).await? {
                Route::Local(tx) => {
                    let (reply, answer) = oneshot::channel();
                    match tx.send(Msg { request: request.clone(), reply }) {
                        Ok(()) => answer.await.ok(),
                        Err(_) => None,
                    }
                }
                Route::Remote(owner) => self.remote(&owner, request.clone()).await,
                Route::Nobody | Route::Retry => None,
            };
            match answer {
                None | Some(Response::Failed { error: Failure::NotOwner }) => {
                    lock(&self.inner.owners).remove(request.room());
                }
                Some(Response::Failed { error }) => return Err(error.into()),
                Some(response) => return Ok(response),
            }
            if Instant::now() >= give_up {
                return Err(HubError::Gone);
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    /// Where room `id` is hosted. With `host`, a room nobody hosts is taken on here.
    async fn route(&self, id: &RoomId, host: bool) -> Result<Route, HubError> {
        if let Some(tx) = hosted(&self.inner, id) {
            return Ok(Route::Local(tx));
        }
        let Some(bus) = &self.inner.bus else {
            return if host {
                spawn_room(&self.inner, id.clone(), Start::Claim).map(Route::Local)
            } else {
                Ok(Route::Nobody)
            };
        };
        if host {
            let known = lock(&self.inner.owners).get(id).filter(|(_, at)| at.elapsed() < OWNER_KNOWN).cloned();
            if let Some((owner, _)) = known {
                return Ok(Route::Remote(owner));
            }
        }
        let lease = if host {
            bus.acquire(id).await
        } else {
            match bus.owner(id).await {
                Ok(None) => return Ok(Route::Nobody),
                Ok(Some(owner)) if owner == self.inner.instance => Ok(Lease::Mine),
                Ok(Some(owner)) => Ok(Lease::HeldBy(owner)),
                Err(e) => Err(e),
            }
        };
        match lease {
            Ok(Lease::HeldBy(owner)) if owner != self.inner.instance => {
                let mut owners = lock(&self.inner.owners);
                if owners.len() >= OWNERS_KNOWN {
                    owners.retain(|_, (_, at)| at.elapsed() < OWNER_KNOWN);
                }
                owners.insert(id.clone(), (owner.clone(), Instant::now()));
                Ok(Route::Remote(owner))
            }
            // The lease is this instance's (just taken, or held from before a restart).
            Ok(_) => spawn_room(&self.inner, id.clone(), Start::Claim).map(Route::Local),
            Err(_) => Ok(Route::Retry),
        }
    }

    /// Sends `request` to instance `to`; `None` when it does not answer in time.
    async fn remote(&self, to: &str, request: Request) -> Option<Response> {
        let bus = self.inner.bus.as_ref()?;
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.inner.pending).insert(id, tx);
        let envelope = Envelope { id, from: self.inner.instance.clone(), body: Body::Request(request) };
        let answer = match bus.send(to, &envelope).await {
            Ok(true) => tokio::time::timeout(REMOTE_TIMEOUT, rx).await.ok().and_then(Result::ok),
            _ => None,
        };
        lock(&self.inner.pending).remove(&id);
        answer
    }

    /// Handles what the bus delivers.
    fn incoming(&self, message: Incoming) {
        match message {
            Incoming::Message(Envelope { id, body: Body::Response(response), .. }) => {
                if let Some(tx) = lock(&self.inner.pending).remove(&id) {
                    let _ = tx.send(response);
                }
            }
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

    /// A request from another instance: served if the room is hosted here (or its lease is
    /// this instance's), otherwise [`Failure::NotOwner`].
    async fn serve_remote(&self, request: Request) -> Response {
        // `route` loads nothing itself (the room's task does), so its only failure is `Full`:
        // whatever the reason, the asker should look for the owner again.
        let Ok(Route::Local(tx)) = self.route(request.room(), false).await else {
            return Response::Failed { error: Failure::NotOwner };
        };
        let (reply, answer) = oneshot::channel();
        if tx.send(Msg { request, reply }).is_err() {
            return Response::Failed { error: Failure::NotOwner };
        }
        answer.await.unwrap_or(Response::Failed { error: Failure::NotOwner })
    }

    async fn tell_owner(&self, room: RoomId) {
        let counts = lock(&self.inner.local).get(&room).map(|l| l.presence).unwrap_or_default();
        let request = Request::Presence {
            room: room.clone(),
            instance: self.inner.instance.clone(),
            seats: counts.seats,
            watchers: counts.watchers,
        };
        if counts == Presence::default() {
            // Nobody here: tell a running owner, but never load the room for it.
            match self.route(&room, false).await {
                Ok(Route::Local(tx)) => {
                    let (reply, _answer) = oneshot::channel();
                    let _ = tx.send(Msg { request, reply });
                }
                Ok(Route::Remote(owner)) => {
                    let _ = self.remote(&owner, request).await;
                }
                _ => {}
            }
        } else {
            let _ = self.ask(request).await;
        }
    }
}

/// Tells rooms' owners this process's socket counts: when they change, and (with a bus) again
/// every [`PRESENCE_EVERY`], which also gets a room whose owner died a new one.
async fn tell_presence(inner: std::sync::Weak<Inner>, mut changed: mpsc::UnboundedReceiver<RoomId>) {
    let mut every = tokio::time::interval(PRESENCE_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let rooms = tokio::select! {
            room = changed.recv() => match room {
                Some(room) => vec![room],
                None => return,
            },
            _ = every.tick() => {
                let Some(inner) = inner.upgrade() else { return };
                if inner.bus.is_none() {
                    continue;
                }
                let local = lock(&inner.local);
                local.iter().filter(|(_, l)| l.presence != Presence::default()).map(|(id, _)| id.clone()).collect()
            }
        };
        let Some(inner) = inner.upgrade() else { return };
        for room in rooms {
            let hub = Hub { inner: Arc::clone(&inner) };
            tokio::spawn(async move { hub.tell_owner(room).await });
        }
    }
}

fn hosted(inner: &Inner, id: &RoomId) -> Option<mpsc::UnboundedSender<Msg>> {
    lock(&inner.rooms).get(id).filter(|tx| !tx.is_closed()).cloned()
}

/// The task of room `id`: the running one, or a new one.
fn spawn_room(inner: &Arc<Inner>, id: RoomId, start: Start) -> Result<mpsc::UnboundedSender<Msg>, HubError> {
    let mut rooms = lock(&inner.rooms);
    if let Some(tx) = rooms.get(&id) {
        if !tx.is_closed() {
            return Ok(tx.clone());
        }
        rooms.remove(&id);
    }
    if rooms.len() >= inner.limits.max_rooms {
        rooms.retain(|_, tx| !tx.is_closed());
        if rooms.len() >= inner.limits.max_rooms {
            return Err(HubError::Full);
        }
    }
    let (tx, rx) = mpsc::unbounded_channel();
    rooms.insert(id.clone(), tx.clone());
    tokio::spawn(run_room(Arc::clone(inner), id, start, tx.clone(), rx));
    Ok(tx)
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

/// Why a room task stops.
enum Stop {
    /// Its write was fenced: another instance owns the room now.
    Fenced,
}

struct Actor {
    id: RoomId,
    room: Room,
    inner: Arc<Inner>,
    /// Each instance's sockets and when it last said so.
    presence: HashMap<InstanceId, (Presence, Instant)>,
    /// The fence this task writes under, and the version last written.
    fence: u64,
    saved: u64,
    /// The share link and the version it was made for (encoding it costs more than the rest).
    link: (u64, String),
    last_stamp: u64,
    /// The last state published (a chat line republishes it with the new line).
    last: Option<WireState>,
}

async fn open_room(inner: &Inner, id: &RoomId, start: Start) -> Result<(Room, u64), Failure> {
    match start {
        Start::Fresh(room) => Ok((*room, 0)),
        Start::Claim => match inner.store.claim(id.clone()).await {
            Ok(Some(claimed)) => Room::from_record(claimed.record, Instant::now(), wall_ms())
                .map(|room| (room, claimed.fence))
                .map_err(Failure::Store),
            Ok(None) => Err(Failure::NotFound),
            Err(e) => Err(Failure::Store(e.to_string())),
        },
    }
}

async fn run_room(
    inner: Arc<Inner>,
    id: RoomId,
    start: Start,
    me: mpsc::UnboundedSender<Msg>,
    mut rx: mpsc::UnboundedReceiver<Msg>,
) {
    let (mut room, fence) = match open_room(&inner, &id, start).await {
        Ok(opened) => opened,
        Err(error) => {
            leave_memory(&inner, &id, &me, &mut rx);
            while let Ok(msg) = rx.try_recv() {
                let _ = msg.reply.send(Response::Failed { error: error.clone() });
            }
            if let Some(bus) = &inner.bus {
                let _ = bus.release(&id).await;
            }
            return;
        }
    };
    room.set_first_move_waits(inner.limits.first_move, inner.limits.first_move_alone);
    room.set_claim_after(inner.limits.claim_after);
    let mut presence = HashMap::new();
    // Sockets of this process that were there before the room was (re)hosted.
    if let Some(local) = lock(&inner.local).get(&id) {
        presence.insert(inner.instance.clone(), (local.presence, Instant::now()));
    }
    let link = (room.version(), share_path(&room));
    let saved = room.version();
    let mut actor = Actor { id, room, inner, presence, fence, saved, link, last_stamp: 0, last: None };
    actor.presence_changed();
    let mut stop = None;
    if actor.room.check_flag(Instant::now(), wall_ms()) {
        if let Err(SaveError::Conflict(_)) = actor.save(Vec::new()).await {
            stop = Some(Stop::Fenced);
        }
    }
    actor.publish();
    let clustered = actor.inner.bus.is_some();
    let mut renew = tokio::time::interval(LEASE / 3);
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut renewed = Instant::now();
    let mut expire = tokio::time::interval(Duration::from_secs(1));
    expire.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut release = true;
    while stop.is_none() {
        let deadline = actor.room.deadline();
        let idle = actor.total() == Presence::default();
        tokio::select! {
            msg = rx.recv() => match msg {
                Some(msg) => {
                    let (response, outcome) = actor.handle(msg.request).await;
                    let _ = msg.reply.send(response);
                    stop = outcome;
                }
                None => break,
            },
            _ = sleep_until(deadline), if deadline.is_some() => {
                if actor.room.check_flag(Instant::now(), wall_ms()) {
                    match actor.save(Vec::new()).await {
                        Ok(()) => actor.publish(),
                        Err(SaveError::Conflict(_)) => stop = Some(Stop::Fenced),
                        Err(SaveError::Store(_)) => {}
                    }
                }
            }
            _ = tokio::time::sleep(actor.inner.limits.idle_room), if idle => break,
            _ = renew.tick(), if clustered => {
                let bus = actor.inner.bus.clone().expect("clustered");
                match bus.renew(&actor.id).await {
                    Ok(true) => renewed = Instant::now(),
                    // Another instance holds the lease: it hosts the room now.
                    Ok(false) => { release = false; break }
                    // The broker is away: keep the room while the lease would still run.
                    Err(_) if renewed.elapsed() >= LEASE => { release = false; break }
                    Err(_) => {}
                }
            }
            _ = expire.tick(), if clustered => actor.expire_presence(),
        }
    }
    if stop.is_some() {
        release = false;
    }
    let Actor { inner, id, .. } = actor;
    // Requests still queued are dropped unanswered: their senders look the owner up again.
    leave_memory(&inner, &id, &me, &mut rx);
    if release {
        if let Some(bus) = &inner.bus {
            let _ = bus.release(&id).await;
        }
    }
    inner.fanout.forget_if_unwatched(&id);
}

async fn sleep_until(deadline: Option<Instant>) {
    if let Some(d) = deadline {
        tokio::time::sleep_until(d).await;
    }
}

/// Takes the room out of the hub and closes its queue.
fn leave_memory(inner: &Inner, id: &RoomId, me: &mpsc::UnboundedSender<Msg>, rx: &mut mpsc::UnboundedReceiver<Msg>) {
    {
        let mut rooms = lock(&inner.rooms);
        if rooms.get(id).is_some_and(|tx| tx.same_channel(me)) {
            rooms.remove(id);
        }
    }
    rx.close();
}

impl Actor {
    fn total(&self) -> Presence {
        let mut total = Presence::default();
        for (p, _) in self.presence.values() {
            total.seats[0] += p.seats[0];
            total.seats[1] += p.seats[1];
            total.watchers += p.watchers;
        }
        total
    }

    fn frames(&mut self) -> StateFrames {
        if self.link.0 != self.room.version() {
            self.link = (self.room.version(), share_path(&self.room));
        }
        state_frames(&self.room, self.total(), &self.link.1, Instant::now())
    }

    fn next_stamp(&mut self) -> u64 {
        let micros = u64::try_from(wall_ms()).unwrap_or(0).saturating_mul(1000);
        self.last_stamp = micros.max(self.last_stamp + 1);
        self.last_stamp
    }

    fn wire_state(&mut self) -> WireState {
        let mut frames = self.frames();
        let stamp = self.next_stamp();
        // Unique across owners too: a takeover never reuses an id a socket has sent.
        frames.state_id = stamp;
        let state = WireState::new(self.id.clone(), &frames, stamp);
        self.last = Some(state.clone());
        state
    }

    fn publish(&mut self) {
        let state = self.wire_state();
        self.send_out(state);
    }

    /// Republishes the last state with the chat's new lines (same state id: sockets send the
    /// lines, not the state again).
    fn publish_chat(&mut self) {
        let Some(mut state) = self.last.clone() else { return self.publish() };
        state.stamp = (self.room.version(), self.next_stamp());
        state.chat = self.room.chat_lines().iter().map(|l| (**l).clone()).collect();
        self.last = Some(state.clone());
        self.send_out(state);
    }

    fn send_out(&mut self, state: WireState) {
        self.inner.fanout.publish(&state);
        if let Some(bus) = self.inner.bus.clone() {
            tokio::spawn(async move {
                let _ = bus.publish(&state).await;
            });
        }
    }

    /// Saves the room (and `also`, new rooms such as a rematch) all or nothing.
    async fn save(&mut self, also: Vec<RoomRecord>) -> Result<(), SaveError> {
        let mut saves: Vec<Save> = also.into_iter().map(|record| Save { record, follows: None, fence: 0 }).collect();
        saves.push(Save {
            record: self.room.to_record(Instant::now(), wall_ms()),
            follows: Some(self.saved),
            fence: self.fence,
        });
        self.inner.store.save(saves).await?;
        self.saved = self.room.version();
        Ok(())
    }

    fn presence_changed(&mut self) {
        let [red, black] = self.total().seats;
        self.room.set_presence([red > 0, black > 0], Instant::now());
    }

    /// Forgets other instances' counts that were not repeated in time.
    fn expire_presence(&mut self) {
        let me = &self.inner.instance;
        let before = self.presence.len();
        self.presence.retain(|instance, (_, heard)| instance == me || heard.elapsed() < PRESENCE_TTL);
        if self.presence.len() != before {
            self.presence_changed();
            self.publish();
        }
    }

    async fn handle(&mut self, request: Request) -> (Response, Option<Stop>) {
        match request {
            Request::Join { token, instance, .. } => {
                let seat = match token {
                    None => None,
                    Some(t) => match self.room.seat_of(&t) {
                        Some(seat) => Some(seat),
                        None => return (Response::Failed { error: Failure::BadSeat }, None),
                    },
                };
                let total = self.total();
                if total.seats[0] + total.seats[1] + total.watchers >= self.inner.limits.max_clients_per_room {
                    return (Response::Failed { error: Failure::Crowded }, None);
                }
                let entry = self.presence.entry(instance).or_insert((Presence::default(), Instant::now()));
                match seat {
                    Some(c) => entry.0.seats[c.index()] += 1,
                    None => entry.0.watchers += 1,
                }
                entry.1 = Instant::now();
                self.presence_changed();
                self.publish();
                (Response::Joined { seat, state: self.wire_state() }, None)
            }
            Request::Presence { instance, seats, watchers, .. } => {
                let counts = Presence { seats, watchers };
                let before = self.total();
                if counts == Presence::default() {
                    self.presence.remove(&instance);
                } else {
                    self.presence.insert(instance, (counts, Instant::now()));
                }
                if self.total() != before {
                    self.presence_changed();
                    self.publish();
                }
                (Response::Ok, None)
            }
            Request::Snapshot { .. } => (Response::State { state: self.wire_state() }, None),
            Request::Chat { seat, text, .. } => match self.room.chat(seat, &text, Instant::now(), wall_ms()) {
                Err(e) => (Response::Refused { error: e.to_string() }, None),
                Ok(_) => {
                    self.publish_chat();
                    (Response::Applied, None)
                }
            },
            Request::Name { seat, name, .. } => {
                let before = self.room.clone();
                match self.room.set_name(seat, &name, wall_ms()) {
                    Err(refusal) => (Response::Refused { error: refusal.to_string() }, None),
                    Ok(false) => (Response::Unchanged { frame: self.frames().frame(seat).to_string() }, None),
                    Ok(true) => match self.save(Vec::new()).await {
                        Ok(()) => {
                            self.publish();
                            (Response::Applied, None)
                        }
                        Err(SaveError::Conflict(_)) => {
                            self.room = before;
                            (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced))
                        }
                        Err(SaveError::Store(e)) => {
                            self.room = before;
                            (Response::Refused { error: format!("not saved, nothing changed ({e}); try again") }, None)
                        }
                    },
                }
            }
            Request::Pgn { .. } => (Response::Pgn { pgn: crate::pgn::room_pgn(&self.room) }, None),
            Request::Command { seat, command, .. } => self.command(seat, command.0).await,
        }
    }

    async fn command(&mut self, seat: Option<Color>, command: Command) -> (Response, Option<Stop>) {
        let (now, wall) = (Instant::now(), wall_ms());
        if self.room.check_flag(now, wall) {
            match self.save(Vec::new()).await {
                Ok(()) => self.publish(),
                Err(SaveError::Conflict(_)) => {
                    return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced))
                }
                Err(SaveError::Store(_)) => {}
            }
        }
        let before = self.room.clone();
        let also = match self.room.apply_at(seat, command, now, wall) {
            // A client ahead of this task's game saw a newer state: with several servers this
            // task is stale (another instance took the room over while this one still thought
            // it owned it). Hand the room over rather than refuse on old news; the request is
            // served by the new owner, or by this instance after a fresh claim.
            Err(Refusal::StalePly { expected, got }) if got > expected && self.inner.bus.is_some() => {
                return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced));
            }
            Err(refusal) => return (Response::Refused { error: refusal.to_string() }, None),
            Ok(Applied::Unchanged) => {
                let frame = self.frames().frame(seat).to_string();
                return (Response::Unchanged { frame }, None);
            }
            Ok(Applied::Changed) => None,
            Ok(Applied::Rematch(next)) => Some(*next),
        };
        let records = also.iter().map(|r| r.to_record(now, wall)).collect();
        match self.save(records).await {
            Ok(()) => {}
            Err(SaveError::Conflict(_)) => {
                self.room = before;
                return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced));
            }
            Err(SaveError::Store(e)) => {
                self.room = before;
                return (Response::Refused { error: format!("not saved, nothing changed ({e}); try again") }, None);
            }
        }
        if let Some(next) = also {
            // Saved: if it cannot be hosted now it is loaded on first use.
            let ours = match &self.inner.bus {
                None => true,
                Some(bus) => bus.acquire(next.id()).await == Ok(Lease::Mine),
            };
            if ours {
                let _ = spawn_room(&self.inner, next.id().clone(), Start::Fresh(Box::new(next)));
            }
        }
        self.publish();
        (Response::Applied, None)
    }
}

#[cfg(test)]
mod tests {
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
