//! `POST /api/rooms`: a new room, its seat tokens and its three links.
//!
//! Body: `{"fen"?: FEN, "moves"?: [ICCS], "clock"?: {"initial_s": N, "increment_s": N}}`.
//! Answer: `{"room": ID, "seats": {"red": TOKEN, "black": TOKEN},
//! "links": {"red": URL, "black": URL, "watch": URL}}`.

use super::{hub_error, Rooms};
use crate::extract::Body;
use crate::ApiError;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use qi_rooms::{RoomSpec, TokenBucket};
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use tokio::time::Instant;

/// Addresses remembered by the creation limiter before idle ones are forgotten.
const MAX_TRACKED_ADDRESSES: usize = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// An object `{initial_s, increment_s}`; an array such as `[600, 5]` is refused.
    clock: Option<serde_json::Map<String, Value>>,
}

pub async fn create(
    State(rooms): State<Rooms>,
    peer: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Body(request): Body<CreateRequest>,
) -> Result<Json<Value>, ApiError> {
    let clock = qi_rooms::lobby::parse_clock(request.clock).map_err(ApiError::bad_request)?;
    let spec = RoomSpec::parse(request.fen.as_deref(), &request.moves, clock)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    // Only requests that would make a room count against the address's allowance.
    let address = crate::address_cap::counted_as(peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.0 .0.ip()));
    if !allow_creation(&rooms, address) || !shared_allowance(&rooms, address).await {
        let per_minute = rooms.config.creations_per_minute;
        crate::refusal::refused("room_creations");
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS.as_u16(),
            format!("at most {per_minute} new rooms a minute from one address; try again shortly"),
        ));
    }
    let created = rooms.hub.create(spec).await.map_err(hub_error)?;
    let base = crate::origin::origin(&headers);
    let room = created.id.as_str();
    let [red, black] = &created.seats;
    Ok(Json(json!({
        "room": room,
        "seats": {"red": red, "black": black},
        "links": {
            "red": format!("{base}/xq?room={room}&seat={red}"),
            "black": format!("{base}/xq?room={room}&seat={black}"),
            "watch": format!("{base}/xq?room={room}"),
        },
    })))
}

fn allow_creation(rooms: &Rooms, address: IpAddr) -> bool {
    let now = Instant::now();
    let per_minute = f64::from(rooms.config.creations_per_minute.max(1));
    let mut buckets = rooms.creations.lock().unwrap_or_else(|e| e.into_inner());
    if buckets.len() >= MAX_TRACKED_ADDRESSES && !buckets.contains_key(&address) {
        buckets.retain(|_, b| !b.is_full(now));
        if buckets.len() >= MAX_TRACKED_ADDRESSES {
            // Too many addresses creating at once: refuse newcomers until some calm down.
            return false;
        }
    }
    buckets.entry(address).or_insert_with(|| TokenBucket::new(per_minute / 60.0, per_minute, now)).allow(now)
}

/// With several servers, the address's allowance counted by all of them together (one minute
/// windows). A broker that does not answer leaves the decision to this server's own count.
async fn shared_allowance(rooms: &Rooms, address: IpAddr) -> bool {
    let Some(bus) = rooms.hub.bus() else { return true };
    let per_minute = rooms.config.creations_per_minute.max(1);
    bus.allow(&format!("create:{address}"), per_minute, std::time::Duration::from_secs(60)).await.unwrap_or(true)
}
