//! The lobby: "Play someone". A browser posts a seek (a time control and a colour), everyone
//! in the lobby sees the open seeks live, and whoever accepts one lands with its maker in a new
//! room, each in their own seat. No accounts: a seek belongs to the socket that made it and
//! disappears when that socket closes.
//!
//! WebSocket `/api/lobby/ws`. The client sends
//! `{"type": "seek", "clock": {"initial_s", "increment_s"}|null, "colour": "red"|"black"|"random",
//! "name"?}` (answered `{"type": "seeking", "id"}`), `{"type": "cancel", "id"}`,
//! `{"type": "accept", "id"}`, `{"type": "quick", "clock"}` (accepts the oldest seek with that
//! clock from someone else, or posts one) and `{"type": "ping"}`. The server sends
//! `{"type": "seeks", "seeks": [{id, clock, colour, name}]}` on connect and after every change,
//! `{"type": "paired", "room", "colour", "link"}` to both players of a new room, `pong`, and
//! `{"type": "error", "error"}`.
//!
//! One task owns this instance's seeks (the only code that changes them); with several
//! servers the seeks are kept in the broker and every instance's lobby shows them all (see
//! [`qi_rooms::WireSeek`]). Bounded: seeks per address
//! ([`LobbyLimits::seeks_per_address`]), seeks in all, messages per second per socket (a flood is
//! closed with 1008), names of at most 24 characters (control characters dropped; the page shows
//! them as text, never as HTML).

use super::{Rooms, SEND_TIMEOUT};
use crate::address_cap::counted_as;
use crate::ApiError;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use qi_rooms::{
    Bus, ClockSettings, LobbyEvent, RoomSpec, SeekColour, SeekPosted, TokenBucket, WireSeek, PRESENCE_EVERY,
};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

/// The lobby's bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LobbyLimits {
    /// Open seeks one client address may hold.
    pub seeks_per_address: usize,
    /// Open seeks in all.
    pub max_seeks: usize,
    /// Sustained messages per second from one socket.
    pub messages_per_second: f64,
    /// Messages a socket may send in a burst.
    pub burst: f64,
}

impl Default for LobbyLimits {
    fn default() -> LobbyLimits {
        LobbyLimits { seeks_per_address: 3, max_seeks: 2_000, messages_per_second: 5.0, burst: 20.0 }
    }
}

/// Longest seek id a client may send (an instance's name, a dash and a number).
const MAX_SEEK_ID: usize = 48;

/// Longest name shown with a seek, in characters: a room's (the seek's name becomes the
/// player's name in the room).
pub const MAX_NAME_CHARS: usize = qi_rooms::MAX_NAME_CHARS;

enum Msg {
    Join { socket: u64, out: mpsc::Sender<String> },
    Leave { socket: u64 },
    Seek { socket: u64, address: IpAddr, clock: Option<ClockSettings>, colour: SeekColour, name: Option<String> },
    Cancel { socket: u64, id: String },
    Accept { socket: u64, id: String },
    Quick { socket: u64, address: IpAddr, clock: Option<ClockSettings>, name: Option<String> },
}

/// The lobby service: a handle on its task. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    tx: mpsc::UnboundedSender<Msg>,
    seeks: watch::Receiver<Arc<String>>,
    next_socket: Arc<std::sync::atomic::AtomicU64>,
    limits: LobbyLimits,
}

impl Lobby {
    /// Starts the lobby's task; pairings make rooms through `rooms`' hub. When the hub is one
    /// of several servers, the seeks are shared through its bus.
    pub fn start(hub: qi_rooms::Hub, limits: LobbyLimits) -> Lobby {
        let (tx, rx) = mpsc::unbounded_channel();
        let (publish, seeks) = watch::channel(Arc::new(seeks_frame(&[])));
        let book = match hub.bus() {
            Some(bus) => Book::Shared(Arc::clone(bus)),
            None => Book::Local,
        };
        let events = hub.lobby_events();
        let task = LobbyTask {
            instance: hub.instance().to_string(),
            hub,
            limits,
            book,
            publish,
            sockets: HashMap::new(),
            mine: HashMap::new(),
            next_id: 1,
            unposted: false,
            stale: false,
        };
        tokio::spawn(task.run(rx, events));
        Lobby { tx, seeks, next_socket: Arc::new(std::sync::atomic::AtomicU64::new(1)), limits }
    }
}

fn clock_json(clock: Option<ClockSettings>) -> serde_json::Value {
    match clock {
        None => serde_json::Value::Null,
        Some(c) => json!({"initial_s": c.initial_ms / 1000, "increment_s": c.increment_ms / 1000}),
    }
}

fn seeks_frame(seeks: &[WireSeek]) -> String {
    let list: Vec<_> = seeks
        .iter()
        .map(|s| json!({"id": s.id, "clock": clock_json(s.clock()), "colour": s.colour.as_str(), "name": s.name}))
        .collect();
    json!({"type": "seeks", "seeks": list}).to_string()
}

fn error_frame(text: &str) -> String {
    json!({"type": "error", "error": text}).to_string()
}

const UNAVAILABLE: &str = "the lobby is unavailable; try again shortly";

/// Where the seeks are kept.
enum Book {
    /// One server: they are the task's own (`LobbyTask::mine`).
    Local,
    /// Several: in the broker, shared by every instance's lobby.
    Shared(Arc<dyn Bus>),
}

/// The only code that changes seeks.
struct LobbyTask {
    hub: qi_rooms::Hub,
    instance: String,
    limits: LobbyLimits,
    book: Book,
    publish: watch::Sender<Arc<String>>,
    sockets: HashMap<u64, mpsc::Sender<String>>,
    /// The open seeks of this instance's sockets (all the seeks with a [`Book::Local`]).
    mine: HashMap<String, WireSeek>,
    next_id: u64,
    /// The broker was back before this instance's seeks could be posted again.
    unposted: bool,
    /// The last read of the seeks failed: the sockets show an old list.
    stale: bool,
}

impl LobbyTask {
    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Msg>, mut events: broadcast::Receiver<LobbyEvent>) {
        let mut beat = tokio::time::interval(PRESENCE_EVERY);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => return,
                },
                event = events.recv() => self.event(event, &mut events).await,
                _ = beat.tick() => self.beat().await,
            }
        }
    }

    fn tell(&self, socket: u64, text: String) {
        if let Some(out) = self.sockets.get(&socket) {
            let _ = out.try_send(text);
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { socket, out } => {
                self.sockets.insert(socket, out);
            }
            Msg::Leave { socket } => {
                self.sockets.remove(&socket);
                let ids: Vec<String> =
                    self.mine.values().filter(|s| s.socket == socket).map(|s| s.id.clone()).collect();
                self.withdraw(ids).await;
            }
            Msg::Seek { socket, address, clock, colour, name } => {
                self.post(socket, address, clock, colour, name).await;
            }
            Msg::Cancel { socket, id } => {
                if self.mine.get(&id).is_some_and(|s| s.socket == socket) {
                    self.withdraw(vec![id]).await;
                }
            }
            Msg::Accept { socket, id } => {
                if self.mine.get(&id).is_some_and(|s| s.socket == socket) {
                    return self.tell(socket, error_frame("that seek is your own"));
                }
                match self.take(&id).await {
                    Ok(Some(seek)) => self.pair(seek, socket),
                    Ok(None) => self.tell(socket, error_frame("that seek is gone")),
                    Err(()) => self.tell(socket, error_frame(UNAVAILABLE)),
                }
            }
            Msg::Quick { socket, address, clock, name } => {
                let wanted = WireSeek::clock_of(clock);
                let Ok(open) = self.list().await else { return self.tell(socket, error_frame(UNAVAILABLE)) };
                let me = self.instance.clone();
                let others =
                    open.into_iter().filter(|s| s.clock_ms == wanted && !(s.instance == me && s.socket == socket));
                for candidate in others {
                    // Another player may take it first: then the next one.
                    if let Ok(Some(seek)) = self.take(&candidate.id).await {
                        return self.pair(seek, socket);
                    }
                }
                if !self.mine.values().any(|s| s.socket == socket && s.clock_ms == wanted) {
                    self.post(socket, address, clock, SeekColour::Random, name).await;
                }
            }
        }
    }

    async fn event(
        &mut self,
        event: Result<LobbyEvent, broadcast::error::RecvError>,
        events: &mut broadcast::Receiver<LobbyEvent>,
    ) {
        let mut refresh = false;
        let mut next = event;
        // Many changes at once are one read of the seeks.
        loop {
            match next {
                Ok(LobbyEvent::Paired { seek, socket, frame }) => {
                    // Taken on another instance: not to be withdrawn or posted again from here.
                    self.mine.remove(&seek);
                    self.tell(socket, frame);
                }
                Ok(LobbyEvent::Reconnected) => {
                    // The broker may have lost them (a restart): post this instance's again.
                    self.unposted = true;
                    self.repost().await;
                    refresh = true;
                }
                Ok(LobbyEvent::Changed) | Err(broadcast::error::RecvError::Lagged(_)) => refresh = true,
                Err(broadcast::error::RecvError::Closed) => break,
            }
            next = match events.try_recv() {
                Ok(event) => Ok(event),
                Err(broadcast::error::TryRecvError::Lagged(n)) => Err(broadcast::error::RecvError::Lagged(n)),
                Err(_) => break,
            };
        }
        if refresh {
            self.refresh().await;
        }
    }

    /// Tells the broker this lobby is alive, and catches up with what failed while it was away.
    async fn beat(&mut self) {
        let Book::Shared(bus) = &self.book else { return };
        if bus.lobby_heartbeat().await.is_err() {
            return;
        }
        if self.unposted {
            self.repost().await;
        }
        if self.stale {
            self.refresh().await;
        }
    }

    /// Posts this instance's seeks again (the broker keeps one copy of each, by id).
    async fn repost(&mut self) {
        let Book::Shared(bus) = &self.book else { return };
        let mut all = true;
        for seek in self.mine.values() {
            all &= bus.post_seek(seek, usize::MAX, self.limits.max_seeks).await.is_ok();
        }
        self.unposted = !all;
    }

    /// Every open seek, oldest first.
    async fn list(&self) -> Result<Vec<WireSeek>, ()> {
        match &self.book {
            Book::Local => {
                let mut seeks: Vec<WireSeek> = self.mine.values().cloned().collect();
                seeks.sort_by(WireSeek::older);
                Ok(seeks)
            }
            Book::Shared(bus) => bus.seeks().await.map_err(|_| ()),
        }
    }

    /// Shows the seeks to every socket of this instance.
    async fn refresh(&mut self) {
        let listed = self.list().await;
        self.stale = listed.is_err();
        if let Ok(seeks) = listed {
            self.publish.send_replace(Arc::new(seeks_frame(&seeks)));
        }
    }

    async fn post(
        &mut self,
        socket: u64,
        address: IpAddr,
        clock: Option<ClockSettings>,
        colour: SeekColour,
        name: Option<String>,
    ) {
        let id = match &self.book {
            Book::Local => self.next_id.to_string(),
            Book::Shared(_) => format!("{}-{}", self.instance, self.next_id),
        };
        self.next_id += 1;
        let seek = WireSeek {
            id: id.clone(),
            instance: self.instance.clone(),
            socket,
            address: address.to_string(),
            clock_ms: WireSeek::clock_of(clock),
            colour,
            name,
            posted_ms: u64::try_from(qi_rooms::wall_ms()).unwrap_or(0),
        };
        let posted = match &self.book {
            Book::Local => {
                if self.mine.len() >= self.limits.max_seeks {
                    SeekPosted::LobbyFull
                } else if self.mine.values().filter(|s| s.address == seek.address).count()
                    >= self.limits.seeks_per_address
                {
                    SeekPosted::AddressFull
                } else {
                    SeekPosted::Open
                }
            }
            Book::Shared(bus) => match bus.post_seek(&seek, self.limits.seeks_per_address, self.limits.max_seeks).await
            {
                Ok(posted) => posted,
                Err(_) => return self.tell(socket, error_frame(UNAVAILABLE)),
            },
        };
        match posted {
            SeekPosted::Open => {
                self.mine.insert(id.clone(), seek);
                self.tell(socket, json!({"type": "seeking", "id": id}).to_string());
                self.refresh().await;
            }
            SeekPosted::LobbyFull => self.tell(socket, error_frame("the lobby is full; try again shortly")),
            SeekPosted::AddressFull => self.tell(socket, error_frame("you have as many open seeks as you may")),
        }
    }

    /// Removes and returns seek `id` if it is still open; `Err` when the broker is away.
    async fn take(&mut self, id: &str) -> Result<Option<WireSeek>, ()> {
        let taken = match &self.book {
            Book::Local => self.mine.get(id).cloned(),
            // Forgotten here only once the broker has given it up: a seek still open there
            // must stay withdrawable when its socket leaves.
            Book::Shared(bus) => bus.take_seek(id).await.map_err(|_| ())?,
        };
        if taken.is_some() {
            self.mine.remove(id);
            self.refresh().await;
        }
        Ok(taken)
    }

    async fn withdraw(&mut self, ids: Vec<String>) {
        if ids.is_empty() {
            return;
        }
        for id in &ids {
            self.mine.remove(id);
        }
        if let Book::Shared(bus) = &self.book {
            // A seek the broker could not remove now goes with this instance's heartbeat
            // only if the instance dies; the next change or reconnect will not post it again.
            let _ = bus.withdraw_seeks(&ids).await;
        }
        self.refresh().await;
    }

    /// Makes the room for `seek` accepted by socket `taker` (in a task of its own, so that the
    /// lobby goes on while the room is saved) and tells both where to go.
    fn pair(&self, seek: WireSeek, taker: u64) {
        let maker = if seek.instance == self.instance {
            Tell::Local(self.sockets.get(&seek.socket).cloned())
        } else {
            match &self.book {
                Book::Shared(bus) => Tell::Remote(Arc::clone(bus), seek.instance.clone(), seek.id.clone(), seek.socket),
                Book::Local => Tell::Local(None),
            }
        };
        let taker = Tell::Local(self.sockets.get(&taker).cloned());
        tokio::spawn(pair(self.hub.clone(), [maker, taker], seek));
    }
}

/// A socket told of its pairing: on this instance, or on another through the bus.
enum Tell {
    Local(Option<mpsc::Sender<String>>),
    /// The bus, the maker's instance, the seek and the maker's socket.
    Remote(Arc<dyn Bus>, String, String, u64),
}

impl Tell {
    async fn send(&self, frame: String) {
        match self {
            Tell::Local(out) => {
                if let Some(out) = out {
                    let _ = out.try_send(frame);
                }
            }
            Tell::Remote(bus, instance, seek, socket) => {
                let event = LobbyEvent::Paired { seek: seek.clone(), socket: *socket, frame };
                let _ = bus.tell_lobby(instance, &event).await;
            }
        }
    }
}

async fn pair(hub: qi_rooms::Hub, tells: [Tell; 2], seek: WireSeek) {
    let created = match hub.create(RoomSpec::standard(seek.clock())).await {
        Ok(c) => c,
        Err(e) => {
            let text = error_frame(&e.to_string());
            for tell in &tells {
                tell.send(text.clone()).await;
            }
            return;
        }
    };
    let maker_red = match seek.colour {
        SeekColour::Red => true,
        SeekColour::Black => false,
        // The room id is random: its last character decides.
        SeekColour::Random => created.id.as_str().bytes().last().is_some_and(|b| b & 1 == 0),
    };
    let room = created.id.as_str();
    let [red, black] = &created.seats;
    let frame = |colour: &str, token: &str| {
        json!({"type": "paired", "room": room, "colour": colour, "link": format!("/xq?room={room}&seat={token}")})
            .to_string()
    };
    let (maker, other) =
        if maker_red { (frame("red", red), frame("black", black)) } else { (frame("black", black), frame("red", red)) };
    for (tell, text) in tells.iter().zip([maker, other]) {
        tell.send(text).await;
    }
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Wire {
    Seek {
        clock: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(default)]
        colour: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    Cancel {
        id: String,
    },
    Accept {
        id: String,
    },
    Quick {
        clock: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(default)]
        name: Option<String>,
    },
    Ping,
}

/// A clock from the wire: an object `{initial_s, increment_s}` (an array is refused).
pub fn parse_clock(clock: Option<serde_json::Map<String, serde_json::Value>>) -> Result<Option<ClockSettings>, String> {
    let Some(map) = clock else { return Ok(None) };
    let get = |k: &str| map.get(k).map(|v| v.as_u64().ok_or_else(|| format!("clock {k} must be a whole number")));
    if let Some(k) = map.keys().find(|k| *k != "initial_s" && *k != "increment_s") {
        return Err(format!("unknown clock field {k:?}"));
    }
    let initial = get("initial_s").ok_or("clock needs initial_s")??;
    let increment = get("increment_s").transpose()?.unwrap_or(0);
    ClockSettings::from_seconds(initial, increment).map(Some)
}

/// A name as shown, cleaned as a room's ([`qi_rooms::clean_name`]: no bidirectional or other
/// hidden characters, cut between grapheme clusters); none if empty.
pub fn clean_name(name: Option<String>) -> Option<String> {
    qi_rooms::clean_name(&name?)
}

pub async fn connect(
    State(rooms): State<Rooms>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade =
        upgrade.map_err(|e| ApiError::new(e.status().as_u16(), format!("expected a WebSocket upgrade: {e}")))?;
    let permit = rooms.sockets.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE.as_u16(),
            "the server holds as many connections as it can; try again later",
        )
    })?;
    let address = counted_as(peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.0 .0.ip()));
    let lobby = rooms.lobby.clone();
    let (max, bound) = (rooms.config.socket.max_message_bytes, rooms.config.socket.frame_bound());
    let closing = rooms.closing.subscribe();
    Ok(upgrade.max_message_size(bound).max_frame_size(bound).on_upgrade(move |socket| async move {
        session(socket, lobby, address, closing, max).await;
        drop(permit);
    }))
}

async fn send(socket: &mut WebSocket, text: String) -> Result<(), ()> {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

async fn session(
    mut socket: WebSocket,
    lobby: Lobby,
    address: IpAddr,
    mut closing: watch::Receiver<bool>,
    max_message_bytes: usize,
) {
    let id = lobby.next_socket.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (out_tx, mut out) = mpsc::channel::<String>(64);
    if lobby.tx.send(Msg::Join { socket: id, out: out_tx }).is_err() {
        return;
    }
    let mut seeks = lobby.seeks.clone();
    let first = seeks.borrow_and_update().to_string();
    let mut bucket = TokenBucket::new(lobby.limits.messages_per_second, lobby.limits.burst, Instant::now());
    let close = if send(&mut socket, first).await.is_err() {
        None
    } else {
        loop {
            tokio::select! {
                incoming = socket.recv() => {
                    let message = match incoming {
                        Some(Ok(message)) => message,
                        Some(Err(e)) => break super::socket::close_for(e),
                        None => break None,
                    };
                    if matches!(message, Message::Text(ref t) if t.len() > max_message_bytes) {
                        break Some((close_code::SIZE, "message too big"));
                    }
                    if matches!(message, Message::Pong(_) | Message::Ping(_)) {
                        continue;
                    }
                    if !bucket.allow(Instant::now()) {
                        break Some((close_code::POLICY, "too many messages"));
                    }
                    let Message::Text(text) = message else {
                        if matches!(message, Message::Close(_)) { break None; }
                        if send(&mut socket, error_frame("send JSON text frames")).await.is_err() { break None; }
                        continue;
                    };
                    let reply = handle(&lobby, id, address, text.as_str());
                    if let Some(reply) = reply {
                        if send(&mut socket, reply).await.is_err() { break None; }
                    }
                }
                changed = seeks.changed() => {
                    if changed.is_err() { break Some((close_code::RESTART, "the lobby is restarting")); }
                    let frame = seeks.borrow_and_update().to_string();
                    if send(&mut socket, frame).await.is_err() { break None; }
                }
                Some(text) = out.recv() => {
                    if send(&mut socket, text).await.is_err() { break None; }
                }
                _ = closing.changed() => break Some((close_code::RESTART, "the server is restarting")),
            }
        }
    };
    let _ = lobby.tx.send(Msg::Leave { socket: id });
    if let Some((code, reason)) = close {
        super::socket::close_with(&mut socket, code, reason).await;
    }
}

/// Parses one message and hands it to the lobby's task; returns an immediate answer, if any.
fn handle(lobby: &Lobby, socket: u64, address: IpAddr, text: &str) -> Option<String> {
    let wire: Wire = match serde_json::from_str(text) {
        Ok(w) => w,
        Err(e) => return Some(error_frame(&format!("bad message: {e}"))),
    };
    let id_of = |s: &str| {
        let plausible = !s.is_empty()
            && s.len() <= MAX_SEEK_ID
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if plausible {
            Ok(s.to_string())
        } else {
            Err(error_frame("no such seek"))
        }
    };
    let msg = match wire {
        Wire::Ping => return Some(json!({"type": "pong"}).to_string()),
        Wire::Seek { clock, colour, name } => {
            let clock = match parse_clock(clock) {
                Ok(c) => c,
                Err(e) => return Some(error_frame(&e)),
            };
            let colour = match colour.as_deref() {
                None | Some("random") => SeekColour::Random,
                Some("red") => SeekColour::Red,
                Some("black") => SeekColour::Black,
                Some(_) => return Some(error_frame("colour must be red, black or random")),
            };
            Msg::Seek { socket, address, clock, colour, name: clean_name(name) }
        }
        Wire::Quick { clock, name } => match parse_clock(clock) {
            Ok(clock) => Msg::Quick { socket, address, clock, name: clean_name(name) },
            Err(e) => return Some(error_frame(&e)),
        },
        Wire::Cancel { id } => match id_of(&id) {
            Ok(id) => Msg::Cancel { socket, id },
            Err(e) => return Some(e),
        },
        Wire::Accept { id } => match id_of(&id) {
            Ok(id) => Msg::Accept { socket, id },
            Err(e) => return Some(e),
        },
    };
    let _ = lobby.tx.send(msg);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_objects_and_names_are_plain() {
        let obj = |v: serde_json::Value| v.as_object().cloned();
        assert_eq!(parse_clock(obj(json!({"initial_s": 180, "increment_s": 2}))).unwrap().unwrap().increment_ms, 2000);
        assert!(parse_clock(obj(json!({"initial_s": 0}))).is_err());
        assert!(parse_clock(obj(json!({"initial_s": 60, "extra": 1}))).is_err());
        assert_eq!(clean_name(Some("  <b>Ann</b>\u{7}  ".into())), Some("<b>Ann</b>".into()));
        assert_eq!(clean_name(Some("   ".into())), None);
        assert_eq!(clean_name(Some("x".repeat(100))).unwrap().chars().count(), MAX_NAME_CHARS);
        // A seek's name spoofed the lobby's list: a right-to-left override passed through.
        assert_eq!(clean_name(Some("Ann\u{202E}\u{2066}x".into())), Some("Annx".into()));
    }
}
