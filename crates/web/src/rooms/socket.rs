//! One WebSocket session: JSON text frames in, `state` / `chat` / `error` / `pong` frames out.
//!
//! The session never decides anything: it parses, rate-limits and forwards to the room, then
//! relays the room's states. Bounded: frames of at most [`SocketLimits::max_message_bytes`],
//! [`SocketLimits::messages_per_second`] on average (a flood closes the socket with 1008),
//! a WebSocket ping every [`SocketLimits::ping_every`] and a close after
//! [`SocketLimits::idle_after`] without a word from the client ([`SocketLimits::pinging_idle_after`]
//! for a client that sends `ping` messages).

use super::{hub_error, room_id, Rooms, SEND_TIMEOUT};
use crate::ApiError;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use qi_rooms::protocol::{self, ClientMessage};
use qi_rooms::{HubError, Joined, Reply, TokenBucket};
use serde::Deserialize;
use std::time::Duration;
use tokio::time::Instant;

/// Per-socket limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SocketLimits {
    /// Largest text frame accepted.
    pub max_message_bytes: usize,
    /// Sustained messages per second from one client.
    pub messages_per_second: f64,
    /// Messages a client may send in a burst.
    pub burst: f64,
    /// How often the server pings.
    pub ping_every: Duration,
    /// Silence after which the server closes the socket.
    pub idle_after: Duration,
    /// Silence after which a socket that has sent `ping` messages (the room page pings every
    /// 2 s) is closed: its player is shown as gone within seconds, not half a minute.
    pub pinging_idle_after: Duration,
    /// Sustained messages per second from one client address, all its sockets together (so
    /// that reconnecting buys no fresh allowance); bursts of four times as many. 0: no limit
    /// per address (`qi bench rooms`, whose thousands of clients share 127.0.0.1, or behind a
    /// proxy that limits per client itself).
    pub messages_per_address: f64,
    /// Whether players may chat: an operator may turn the chat off (`qi serve --chat off`);
    /// a chat line is then answered with an error and never reaches the room.
    pub chat: bool,
}

impl SocketLimits {
    /// The largest frame or message the WebSocket layer reads whole: four times
    /// [`Self::max_message_bytes`]. A message above `max_message_bytes` but within this is
    /// read to its end and answered with a 1009 close frame and a clean close; a larger one
    /// gets the 1009 frame too, but its unread rest may make the connection end in a reset.
    pub fn frame_bound(&self) -> usize {
        self.max_message_bytes.saturating_mul(4)
    }
}

impl Default for SocketLimits {
    fn default() -> SocketLimits {
        SocketLimits {
            max_message_bytes: 4096,
            messages_per_second: 5.0,
            burst: 20.0,
            ping_every: Duration::from_secs(10),
            idle_after: Duration::from_secs(30),
            pinging_idle_after: Duration::from_millis(4500),
            messages_per_address: 20.0,
            chat: true,
        }
    }
}

#[derive(Deserialize)]
pub struct SeatQuery {
    seat: Option<String>,
}

pub async fn connect(
    State(rooms): State<Rooms>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    Path(room): Path<String>,
    Query(query): Query<SeatQuery>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade =
        upgrade.map_err(|e| ApiError::new(e.status().as_u16(), format!("expected a WebSocket upgrade: {e}")))?;
    let id = room_id(&room)?;
    let permit = rooms.sockets.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE.as_u16(),
            "the server holds as many connections as it can; try again later",
        )
    })?;
    let token = query.seat.filter(|s| !s.is_empty());
    if token.as_deref().is_some_and(|t| t.parse::<qi_rooms::SeatToken>().is_err()) {
        return Err(hub_error(HubError::BadSeat));
    }
    let joined = rooms.hub.join(&id, token.as_deref()).await.map_err(hub_error)?;
    let limits = rooms.config.socket;
    let closing = rooms.closing.subscribe();
    let ip = peer.map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |p| p.0 .0.ip());
    let address = AddressRate { rooms: rooms.clone(), key: crate::address_cap::counted_as(ip) };
    Ok(upgrade
        .read_buffer_size(limits.max_message_bytes.max(1024))
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .max_message_size(limits.frame_bound())
        .max_frame_size(limits.frame_bound())
        .on_upgrade(move |socket| async move {
            session(socket, joined, limits, closing, address).await;
            drop(permit);
        }))
}

enum Flow {
    Continue,
    Close(u16, &'static str),
}

async fn send(socket: &mut WebSocket, text: String) -> Result<(), ()> {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// The message allowance of one client address (all its sockets together), so that
/// reconnecting does not buy a fresh allowance.
struct AddressRate {
    rooms: Rooms,
    key: std::net::IpAddr,
}

/// Addresses remembered by the message limiter before idle ones are forgotten.
const MAX_TRACKED_ADDRESSES: usize = 10_000;

impl AddressRate {
    fn allow(&self, now: Instant) -> bool {
        let rate = self.rooms.config.socket.messages_per_address;
        if rate <= 0.0 {
            return true;
        }
        let burst = rate * ADDRESS_BURST;
        let mut buckets = self.rooms.address_messages.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_TRACKED_ADDRESSES && !buckets.contains_key(&self.key) {
            buckets.retain(|_, b| !b.is_full(now));
        }
        buckets.entry(self.key).or_insert_with(|| TokenBucket::new(rate, burst, now)).allow(now)
    }
}

impl AddressRate {
    /// With several servers, the address's messages to all of them together, in windows of
    /// [`SHARED_WINDOW`]: reconnecting to another server buys no fresh allowance either. A
    /// broker that does not answer leaves the decision to this server's own count.
    async fn allow_shared(&self) -> bool {
        let Some(bus) = self.rooms.hub.bus() else { return true };
        let rate = self.rooms.config.socket.messages_per_address;
        if rate <= 0.0 {
            return true;
        }
        let window = SHARED_WINDOW.as_secs_f64();
        let limit = (rate * (window + ADDRESS_BURST)) as u32;
        bus.allow(&format!("messages:{}", self.key), limit, SHARED_WINDOW).await.unwrap_or(true)
    }
}

/// The window of the shared message count.
const SHARED_WINDOW: Duration = Duration::from_secs(10);

/// An address's burst, in seconds of its sustained rate (a few tabs, a player and a spectator
/// on one home network reconnecting at once).
const ADDRESS_BURST: f64 = 4.0;

/// The close frame that answers a frame the WebSocket layer refused (RFC 6455, 7.4.1): 1009
/// for a message too big, 1007 for text that is not UTF-8, 1002 for any other breach of the
/// protocol (an unmasked frame, reserved bits, a bad continuation). None when the connection
/// itself failed: there is nobody to tell.
pub(super) fn close_for(e: axum::Error) -> Option<(u16, &'static str)> {
    use tokio_tungstenite::tungstenite::error::{Error, ProtocolError};
    match e.into_inner().downcast::<Error>().map(|e| *e) {
        Ok(Error::Capacity(_)) => Some((close_code::SIZE, "message too big")),
        Ok(Error::Utf8(_)) => Some((close_code::INVALID, "text is not UTF-8")),
        Ok(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)) => None,
        Ok(Error::Protocol(_)) => Some((close_code::PROTOCOL, "protocol error")),
        _ => None,
    }
}

/// Sends the close frame, then waits a moment for the client's own close (or the end of the
/// stream), so that the client sees the code rather than a reset connection.
pub(super) async fn close_with(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame { code, reason: reason.into() };
    if tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Close(Some(frame)))).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

async fn session(
    mut socket: WebSocket,
    mut joined: Joined,
    limits: SocketLimits,
    mut closing: tokio::sync::watch::Receiver<bool>,
    address: AddressRate,
) {
    let seat = joined.seat;
    // What this socket has sent: the state (by its id) and the chat's last line.
    let mut sent = Sent { state: 0, chat: 0 };
    let first = joined.updates.borrow_and_update().clone();
    if relay(&mut socket, &first, seat, &mut sent).await.is_err() {
        return;
    }
    let mut bucket = TokenBucket::new(limits.messages_per_second, limits.burst, Instant::now());
    let mut last_heard = Instant::now();
    let mut pinging = false;
    let mut ping = tokio::time::interval_at(Instant::now() + limits.ping_every, limits.ping_every);
    let close = loop {
        let flow = tokio::select! {
            incoming = socket.recv() => {
                let message = match incoming {
                    Some(Ok(message)) => message,
                    Some(Err(e)) => break close_for(e),
                    None => break None,
                };
                last_heard = Instant::now();
                if matches!(message, Message::Pong(_)) {
                    continue;
                }
                if !bucket.allow(last_heard) || !address.allow(last_heard) || !address.allow_shared().await {
                    break Some((close_code::POLICY, "too many messages"));
                }
                match message {
                    Message::Text(text) if text.len() > limits.max_message_bytes => {
                        break Some((close_code::SIZE, "message too big"));
                    }
                    Message::Text(text) => match handle(&mut socket, &joined, text.as_str(), &mut pinging, limits.chat).await {
                        Ok(flow) => flow,
                        Err(()) => break None,
                    },
                    Message::Binary(_) => reply_error(&mut socket, "send JSON text frames").await,
                    Message::Close(_) => break None,
                    Message::Ping(_) | Message::Pong(_) => Flow::Continue,
                }
            }
            changed = joined.updates.changed() => {
                if changed.is_err() {
                    break Some((close_code::RESTART, "the room is restarting"));
                }
                let frames = joined.updates.borrow_and_update().clone();
                if relay(&mut socket, &frames, seat, &mut sent).await.is_err() {
                    break None;
                }
                Flow::Continue
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > limits.idle_after {
                    break Some((close_code::AWAY, "no answer to pings"));
                }
                match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Ping(Default::default()))).await {
                    Ok(Ok(())) => Flow::Continue,
                    _ => break None,
                }
            }
            _ = tokio::time::sleep_until(last_heard + limits.pinging_idle_after), if pinging => {
                break Some((close_code::AWAY, "no ping"));
            }
            _ = closing.changed() => break Some((close_code::RESTART, "the server is restarting")),
        };
        if let Flow::Close(code, reason) = flow {
            break Some((code, reason));
        }
    };
    if let Some((code, reason)) = close {
        close_with(&mut socket, code, reason).await;
    }
}

/// The state and the chat lines a socket has sent.
struct Sent {
    state: u64,
    chat: u64,
}

/// Sends what `frames` holds that this socket has not sent yet: the state if it is a new one,
/// then the chat lines after the last one sent (on joining: the whole recent history).
async fn relay(
    socket: &mut WebSocket,
    frames: &qi_rooms::StateFrames,
    seat: Option<xiangqi::Color>,
    sent: &mut Sent,
) -> Result<(), ()> {
    if frames.state_id != sent.state {
        send(socket, frames.frame(seat).to_string()).await?;
        sent.state = frames.state_id;
    }
    let seen = sent.chat;
    for line in frames.chat.iter().filter(|l| l.seq > seen) {
        send(socket, line.frame.clone()).await?;
        sent.chat = line.seq;
    }
    Ok(())
}

async fn reply_error(socket: &mut WebSocket, text: &str) -> Flow {
    match send(socket, protocol::error_frame(text)).await {
        Ok(()) => Flow::Continue,
        Err(()) => Flow::Close(close_code::ERROR, "send failed"),
    }
}

/// What the server says to a chat line when its operator turned the chat off.
pub const CHAT_OFF: &str = "the chat is turned off on this server";

async fn handle(
    socket: &mut WebSocket,
    joined: &Joined,
    text: &str,
    pinging: &mut bool,
    chat_on: bool,
) -> Result<Flow, ()> {
    let command = match protocol::parse(text) {
        Err(e) => return Ok(reply_error(socket, &e).await),
        Ok(ClientMessage::Ping) => {
            *pinging = true;
            send(socket, protocol::PONG_FRAME.to_string()).await?;
            return Ok(Flow::Continue);
        }
        Ok(ClientMessage::Command(c)) => c,
        Ok(ClientMessage::Name(name)) => {
            return match joined.name(name).await {
                Ok(Reply::Refused(why)) => Ok(reply_error(socket, &why).await),
                Ok(Reply::State(frame)) => send(socket, frame).await.map(|()| Flow::Continue),
                Ok(Reply::Applied) => Ok(Flow::Continue),
                Err(_) => Ok(Flow::Close(close_code::RESTART, "the room is restarting")),
            };
        }
        Ok(ClientMessage::Chat(_)) if !chat_on => {
            return match send(socket, protocol::chat_error_frame(CHAT_OFF)).await {
                Ok(()) => Ok(Flow::Continue),
                Err(()) => Ok(Flow::Close(close_code::ERROR, "send failed")),
            };
        }
        Ok(ClientMessage::Chat(text)) => {
            return match joined.chat(text).await {
                Ok(Reply::Refused(why)) => match send(socket, protocol::chat_error_frame(&why)).await {
                    Ok(()) => Ok(Flow::Continue),
                    Err(()) => Ok(Flow::Close(close_code::ERROR, "send failed")),
                },
                Ok(_) => Ok(Flow::Continue),
                Err(_) => Ok(Flow::Close(close_code::RESTART, "the room is restarting")),
            };
        }
    };
    match joined.send(command).await {
        Ok(Reply::Refused(why)) => Ok(reply_error(socket, &why).await),
        Ok(Reply::State(frame)) => send(socket, frame).await.map(|()| Flow::Continue),
        // The new state arrives through the updates, like everyone else's.
        Ok(Reply::Applied) => Ok(Flow::Continue),
        Err(_) => Ok(Flow::Close(close_code::RESTART, "the room is restarting")),
    }
}
