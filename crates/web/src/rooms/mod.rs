//! Play a friend by link: the HTTP and WebSocket side of [`qi_rooms`].
//!
//! - `POST /api/rooms` makes a room (see [`create`]);
//! - `GET /api/rooms/{room}` shows its state, `GET /api/rooms/{room}/pgn` its game as PGN;
//! - `GET /api/lobby/ws` is the lobby's WebSocket (see [`lobby`]);
//! - `GET /api/rooms/{room}/ws[?seat=TOKEN]` is the WebSocket of a player or a spectator (see
//!   [`socket`]).
//!
//! Everything a client can hold is bounded by [`RoomsConfig`]: rooms per server, sockets per
//! server and per room, message size and rate, room creations per minute per address; idle
//! sockets are closed.

mod create;
pub mod lobby;
mod socket;

use super::ApiError;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use qi_rooms::{Durability, Hub, HubError, Limits, PrunePolicy, RoomId, SqliteStore, StoreHandle};
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::Path as FsPath;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

pub use socket::SocketLimits;

/// The rooms' limits and where they are kept.
#[derive(Clone, Debug)]
pub struct RoomsConfig {
    /// Rooms in memory, clients per room, how soon an empty room leaves memory.
    pub limits: Limits,
    /// Per-socket limits.
    pub socket: SocketLimits,
    /// WebSocket connections the server holds at once.
    pub max_sockets: usize,
    /// Rooms one address may make per minute.
    pub creations_per_minute: u32,
    /// Commit durability.
    pub durability: Durability,
    /// How long finished and abandoned rooms are kept.
    pub prune: PrunePolicy,
    /// The lobby's bounds.
    pub lobby: lobby::LobbyLimits,
}

impl Default for RoomsConfig {
    fn default() -> RoomsConfig {
        RoomsConfig {
            limits: Limits::default(),
            socket: SocketLimits::default(),
            max_sockets: 16_384,
            creations_per_minute: 20,
            durability: Durability::Full,
            prune: PrunePolicy::default(),
            lobby: lobby::LobbyLimits::default(),
        }
    }
}

/// The rooms service: the hub, the limiters, and the signal that closes every socket at
/// shutdown. Cheap to clone.
#[derive(Clone)]
pub struct Rooms {
    hub: Hub,
    config: Arc<RoomsConfig>,
    creations: Arc<Mutex<HashMap<IpAddr, qi_rooms::TokenBucket>>>,
    sockets: Arc<Semaphore>,
    closing: watch::Sender<bool>,
    lobby: lobby::Lobby,
    /// Room-socket messages per client key (all of an address's sockets together).
    address_messages: Arc<Mutex<HashMap<IpAddr, qi_rooms::TokenBucket>>>,
}

/// What opening the data folder found.
pub struct Opened {
    /// The service.
    pub rooms: Rooms,
    /// How long the server was down (from the last time the store heard from it), in ms.
    pub downtime_ms: i64,
}

impl Rooms {
    /// Opens the room database in `folder` (created if needed).
    ///
    /// # Errors
    /// When the folder or database cannot be opened (another server may be using it).
    pub fn open(folder: &FsPath, config: RoomsConfig) -> Result<Opened, qi_rooms::StoreError> {
        let store = SqliteStore::open(folder, config.durability)?;
        let (handle, downtime_ms) = StoreHandle::start(store, config.prune, &qi_rooms::wire::new_instance())?;
        Ok(Opened { rooms: Rooms::with_hub(Hub::new(handle, config.limits), config), downtime_ms })
    }

    /// Rooms in memory only (tests).
    ///
    /// # Errors
    /// When SQLite cannot set up its schema.
    pub fn in_memory(config: RoomsConfig) -> Result<Rooms, qi_rooms::StoreError> {
        let (handle, _) = StoreHandle::start(SqliteStore::in_memory()?, config.prune, &qi_rooms::wire::new_instance())?;
        Ok(Rooms::with_hub(Hub::new(handle, config.limits), config))
    }

    /// The rooms service over `hub` (one of several servers when the hub has a bus).
    pub fn with_hub(hub: Hub, config: RoomsConfig) -> Rooms {
        Rooms {
            lobby: lobby::Lobby::start(hub.clone(), config.lobby),
            hub,
            sockets: Arc::new(Semaphore::new(config.max_sockets)),
            config: Arc::new(config),
            creations: Arc::new(Mutex::new(HashMap::new())),
            address_messages: Arc::new(Mutex::new(HashMap::new())),
            closing: watch::Sender::new(false),
        }
    }

    /// Closes every room socket (code 1012, "service restart": clients reconnect).
    pub fn close_sockets(&self) {
        self.closing.send_replace(true);
    }

    /// Completes once every room and lobby socket has ended, or at `deadline`.
    pub async fn sockets_closed(&self, deadline: tokio::time::Instant) {
        let all = u32::try_from(self.config.max_sockets).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout_at(deadline, self.sockets.acquire_many(all)).await;
    }

    /// Room and lobby sockets open now.
    pub fn sockets_open(&self) -> usize {
        self.config.max_sockets.saturating_sub(self.sockets.available_permits())
    }

    /// The hub (for figures such as the rooms in memory).
    pub fn hub(&self) -> &Hub {
        &self.hub
    }
}

/// The rooms' routes, to nest under `/api`.
pub fn routes(rooms: Rooms) -> Router {
    Router::new()
        .route("/rooms", post(create::create))
        .route("/rooms/{room}", get(show))
        .route("/rooms/{room}/ws", get(socket::connect))
        .route("/rooms/{room}/pgn", get(pgn))
        .route("/lobby/ws", get(lobby::connect))
        .with_state(rooms)
}

fn hub_error(e: HubError) -> ApiError {
    let status = match e {
        HubError::NotFound => StatusCode::NOT_FOUND,
        HubError::BadSeat => StatusCode::FORBIDDEN,
        HubError::Crowded | HubError::Full | HubError::Gone => StatusCode::SERVICE_UNAVAILABLE,
        HubError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
    };
    ApiError::new(status.as_u16(), e.to_string())
}

fn room_id(text: &str) -> Result<RoomId, ApiError> {
    text.parse().map_err(|_| ApiError::not_found("no such room"))
}

/// `GET /api/rooms/{room}`: the state, as the `state` message without `you`.
async fn show(State(rooms): State<Rooms>, Path(room): Path<String>) -> Result<Response, ApiError> {
    let frames = rooms.hub.snapshot(&room_id(&room)?).await.map_err(hub_error)?;
    Ok(([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], frames.api.clone())
        .into_response())
}

/// `GET /api/rooms/{room}/pgn`: the game as PGN, with its result, how it ended and each move's
/// clock.
async fn pgn(State(rooms): State<Rooms>, Path(room): Path<String>) -> Result<Response, ApiError> {
    let id = room_id(&room)?;
    let text = rooms.hub.pgn(&id).await.map_err(hub_error)?;
    let disposition = format!("attachment; filename=\"qi-{id}.pgn\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
            (header::CACHE_CONTROL, "no-store".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// How long a room socket may take to accept one frame before the server gives up on it.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
