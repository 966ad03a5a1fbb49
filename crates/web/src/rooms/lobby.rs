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
//! One task owns every seek (the only code that changes them). Bounded: seeks per address
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
use qi_rooms::{ClockSettings, RoomSpec, TokenBucket};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
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

/// Longest name shown with a seek, in characters.
pub const MAX_NAME_CHARS: usize = 24;

#[derive(Clone, Debug)]
struct Seek {
    id: u64,
    owner: u64,
    address: IpAddr,
    clock: Option<ClockSettings>,
    colour: &'static str,
    name: Option<String>,
}

enum Msg {
    Join { socket: u64, out: mpsc::Sender<String> },
    Leave { socket: u64 },
    Seek { socket: u64, address: IpAddr, clock: Option<ClockSettings>, colour: &'static str, name: Option<String> },
    Cancel { socket: u64, id: u64 },
    Accept { socket: u64, id: u64 },
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
    /// Starts the lobby's task; pairings make rooms through `rooms`' hub.
    pub fn start(hub: qi_rooms::Hub, limits: LobbyLimits) -> Lobby {
        let (tx, rx) = mpsc::unbounded_channel();
        let (publish, seeks) = watch::channel(Arc::new(seeks_frame(&[])));
        tokio::spawn(run(hub, limits, rx, publish));
        Lobby { tx, seeks, next_socket: Arc::new(std::sync::atomic::AtomicU64::new(1)), limits }
    }
}

fn clock_json(clock: Option<ClockSettings>) -> serde_json::Value {
    match clock {
        None => serde_json::Value::Null,
        Some(c) => json!({"initial_s": c.initial_ms / 1000, "increment_s": c.increment_ms / 1000}),
    }
}

fn seeks_frame(seeks: &[Seek]) -> String {
    let list: Vec<_> = seeks
        .iter()
        .map(|s| json!({"id": s.id.to_string(), "clock": clock_json(s.clock), "colour": s.colour, "name": s.name}))
        .collect();
    json!({"type": "seeks", "seeks": list}).to_string()
}

fn error_frame(text: &str) -> String {
    json!({"type": "error", "error": text}).to_string()
}

async fn run(
    hub: qi_rooms::Hub,
    limits: LobbyLimits,
    mut rx: mpsc::UnboundedReceiver<Msg>,
    publish: watch::Sender<Arc<String>>,
) {
    let mut seeks: Vec<Seek> = Vec::new();
    let mut sockets: HashMap<u64, mpsc::Sender<String>> = HashMap::new();
    let mut next_id: u64 = 1;
    let tell = |sockets: &HashMap<u64, mpsc::Sender<String>>, socket: u64, text: String| {
        if let Some(out) = sockets.get(&socket) {
            let _ = out.try_send(text);
        }
    };
    while let Some(msg) = rx.recv().await {
        let before = seeks.len();
        let mut changed = false;
        match msg {
            Msg::Join { socket, out } => {
                sockets.insert(socket, out);
            }
            Msg::Leave { socket } => {
                sockets.remove(&socket);
                seeks.retain(|s| s.owner != socket);
            }
            Msg::Seek { socket, address, clock, colour, name } => {
                if let Err(e) = check_room(&seeks, &limits, address) {
                    tell(&sockets, socket, error_frame(e));
                    continue;
                }
                let id = next_id;
                next_id += 1;
                seeks.push(Seek { id, owner: socket, address, clock, colour, name });
                tell(&sockets, socket, json!({"type": "seeking", "id": id.to_string()}).to_string());
                changed = true;
            }
            Msg::Cancel { socket, id } => {
                seeks.retain(|s| !(s.id == id && s.owner == socket));
            }
            Msg::Accept { socket, id } => {
                let Some(at) = seeks.iter().position(|s| s.id == id) else {
                    tell(&sockets, socket, error_frame("that seek is gone"));
                    continue;
                };
                if seeks[at].owner == socket {
                    tell(&sockets, socket, error_frame("that seek is your own"));
                    continue;
                }
                let seek = seeks.remove(at);
                spawn_pair(&hub, &sockets, seek, socket);
            }
            Msg::Quick { socket, address, clock, name } => {
                if let Some(at) = seeks.iter().position(|s| s.owner != socket && s.clock == clock) {
                    let seek = seeks.remove(at);
                    spawn_pair(&hub, &sockets, seek, socket);
                } else if seeks.iter().any(|s| s.owner == socket && s.clock == clock) {
                    // Already waiting with that clock.
                } else if let Err(e) = check_room(&seeks, &limits, address) {
                    tell(&sockets, socket, error_frame(e));
                    continue;
                } else {
                    let id = next_id;
                    next_id += 1;
                    seeks.push(Seek { id, owner: socket, address, clock, colour: "random", name });
                    tell(&sockets, socket, json!({"type": "seeking", "id": id.to_string()}).to_string());
                    changed = true;
                }
            }
        }
        if changed || seeks.len() != before {
            publish.send_replace(Arc::new(seeks_frame(&seeks)));
        }
    }
}

fn check_room(seeks: &[Seek], limits: &LobbyLimits, address: IpAddr) -> Result<(), &'static str> {
    if seeks.len() >= limits.max_seeks {
        return Err("the lobby is full; try again shortly");
    }
    if seeks.iter().filter(|s| s.address == address).count() >= limits.seeks_per_address {
        return Err("you have as many open seeks as you may");
    }
    Ok(())
}

/// Makes the room for `seek` accepted by socket `taker` (in a task of its own, so that the
/// lobby goes on while the room is saved) and tells both where to go.
fn spawn_pair(hub: &qi_rooms::Hub, sockets: &HashMap<u64, mpsc::Sender<String>>, seek: Seek, taker: u64) {
    let outs = [sockets.get(&seek.owner).cloned(), sockets.get(&taker).cloned()];
    tokio::spawn(pair(hub.clone(), outs, seek));
}

async fn pair(hub: qi_rooms::Hub, outs: [Option<mpsc::Sender<String>>; 2], seek: Seek) {
    let created = match hub.create(RoomSpec::standard(seek.clock)).await {
        Ok(c) => c,
        Err(e) => {
            let text = error_frame(&e.to_string());
            for out in outs.iter().flatten() {
                let _ = out.try_send(text.clone());
            }
            return;
        }
    };
    let maker_red = match seek.colour {
        "red" => true,
        "black" => false,
        // The room id is random: its last character decides.
        _ => created.id.as_str().bytes().last().is_some_and(|b| b & 1 == 0),
    };
    let room = created.id.as_str();
    let [red, black] = &created.seats;
    let frame = |colour: &str, token: &str| {
        json!({"type": "paired", "room": room, "colour": colour, "link": format!("/xq?room={room}&seat={token}")})
            .to_string()
    };
    let (maker, other) =
        if maker_red { (frame("red", red), frame("black", black)) } else { (frame("black", black), frame("red", red)) };
    for (out, text) in outs.iter().zip([maker, other]) {
        if let Some(out) = out {
            let _ = out.try_send(text);
        }
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

/// A name as shown: trimmed, control characters dropped, at most [`MAX_NAME_CHARS`]; none if empty.
pub fn clean_name(name: Option<String>) -> Option<String> {
    let cleaned: String = name?.chars().filter(|c| !c.is_control()).take(MAX_NAME_CHARS).collect();
    let cleaned = cleaned.trim().to_string();
    (!cleaned.is_empty()).then_some(cleaned)
}

pub async fn connect(
    State(rooms): State<Rooms>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|e| ApiError::new(e.status(), format!("expected a WebSocket upgrade: {e}")))?;
    let permit = rooms.sockets.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server holds as many connections as it can; try again later",
        )
    })?;
    let address = counted_as(peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.0 .0.ip()));
    let lobby = rooms.lobby.clone();
    let max = rooms.config.socket.max_message_bytes;
    let closing = rooms.closing.subscribe();
    Ok(upgrade.max_message_size(max).max_frame_size(max).on_upgrade(move |socket| async move {
        session(socket, lobby, address, closing).await;
        drop(permit);
    }))
}

async fn send(socket: &mut WebSocket, text: String) -> Result<(), ()> {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

async fn session(mut socket: WebSocket, lobby: Lobby, address: IpAddr, mut closing: watch::Receiver<bool>) {
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
                    let Some(Ok(message)) = incoming else { break None };
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
    let id_of = |s: &str| s.parse::<u64>().map_err(|_| error_frame("no such seek"));
    let msg = match wire {
        Wire::Ping => return Some(json!({"type": "pong"}).to_string()),
        Wire::Seek { clock, colour, name } => {
            let clock = match parse_clock(clock) {
                Ok(c) => c,
                Err(e) => return Some(error_frame(&e)),
            };
            let colour = match colour.as_deref() {
                None | Some("random") => "random",
                Some("red") => "red",
                Some("black") => "black",
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
    }
}
