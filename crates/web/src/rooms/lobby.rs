//! The lobby's WebSocket, `/api/lobby/ws`: the socket side of [`qi_rooms::lobby`], which holds
//! the seeks, the pairing and the typed messages each way (see there for the wire). This file
//! only turns frames into [`ClientOut`] messages and sends the lobby's frames back; it bounds
//! what the socket layer sees: message size ([`super::SocketLimits`]) and messages per second
//! per socket ([`LobbyLimits::messages_per_second`]; a flood is closed with 1008).

use super::{Rooms, SEND_TIMEOUT};
use crate::address_cap::counted_as;
use crate::ApiError;
use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use qi_rooms::lobby::{ClientIn, ClientOut};
use qi_rooms::TokenBucket;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use tokio::sync::watch;
use tokio::time::Instant;

pub use qi_rooms::lobby::{Lobby, LobbyLimits};

/// `GET /api/lobby/ws`: upgrades to the lobby's WebSocket.
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

/// How long a flooding socket waits for the answers to its earlier messages before its 1008.
const FLOOD_ANSWERS_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

async fn session(
    mut socket: WebSocket,
    lobby: Lobby,
    address: IpAddr,
    mut closing: watch::Receiver<bool>,
    max_message_bytes: usize,
) {
    let Some(mut member) = lobby.join(address) else { return };
    let first = [member.seeks(), member.games()];
    let limits = lobby.limits();
    let mut bucket = TokenBucket::new(limits.messages_per_second, limits.burst, Instant::now());
    let mut greeted = true;
    for frame in first {
        greeted = greeted && send(&mut socket, frame).await.is_ok();
    }
    let close = if !greeted {
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
                        if send(&mut socket, ClientIn::Error("send JSON text frames").frame()).await.is_err() { break None; }
                        continue;
                    };
                    let reply = match ClientOut::parse(text.as_str()) {
                        Ok(msg) => member.send(msg),
                        Err(why) => Some(ClientIn::Error(&why).frame()),
                    };
                    if let Some(reply) = reply {
                        if send(&mut socket, reply).await.is_err() { break None; }
                    }
                }
                frame = member.next_frame() => {
                    let Some(frame) = frame else { break Some((close_code::RESTART, "the lobby is restarting")) };
                    if send(&mut socket, frame).await.is_err() { break None; }
                }
                _ = closing.changed() => break Some((close_code::RESTART, "the server is restarting")),
            }
        }
    };
    if matches!(close, Some((close_code::POLICY, _))) {
        // The messages taken before the flood are answered first: with several instances their
        // answers come back from the lobby task over the bus, after the flood was seen.
        let until = tokio::time::Instant::now() + FLOOD_ANSWERS_WAIT;
        while let Ok(Some(frame)) = tokio::time::timeout_at(until, member.next_frame()).await {
            if send(&mut socket, frame).await.is_err() {
                break;
            }
        }
    }
    // Leaves the lobby (its seeks are withdrawn) before the close handshake.
    drop(member);
    if let Some((code, reason)) = close {
        super::socket::close_with(&mut socket, code, reason).await;
    }
}
