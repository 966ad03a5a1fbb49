//! Rooms across several `qi serve` instances: a [`RedisBus`] carries requests, states,
//! leases and rate limits between them, and a [`PostgresStore`] is the one store they share.
//!
//! Any instance accepts any room's sockets and requests; the room runs on whichever instance
//! holds its lease, and moves to another within a few seconds when that one dies. Safety does
//! not rest on the lease: every write is fenced by the store ([`qi_rooms::RoomStore::claim`]),
//! so an instance that lost a room (paused past its lease, cut off from Redis) can never
//! overwrite a newer state.
//!
//! ```no_run
//! # async fn run() -> Result<(), String> {
//! let hub = qi_rooms_cluster::connect(
//!     "redis://127.0.0.1:6379",
//!     "postgres://qi@127.0.0.1:5432/qi",
//!     qi_rooms::Limits::default(),
//!     qi_rooms::PrunePolicy::default(),
//! )
//! .await?;
//! println!("this is instance {}", hub.instance());
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

mod postgres_store;
mod probe;
mod redis_bus;

pub use postgres_store::{PostgresStore, CONNECT_WAIT, SCHEMA_VERSION};
pub use probe::{ping_postgres, ping_redis};
pub use redis_bus::RedisBus;

use qi_rooms::{Hub, Limits, PrunePolicy, StoreHandle};

/// Opens the room store in PostgreSQL at `database_url` on the store's own thread (the client
/// blocks), for the server named `instance`.
///
/// # Errors
/// A message saying which server failed and why.
pub async fn open_store(database_url: &str, policy: PrunePolicy, instance: &str) -> Result<StoreHandle, String> {
    let (url, owner) = (database_url.to_string(), instance.to_string());
    tokio::task::spawn_blocking(move || {
        let store = PostgresStore::connect(&url).map_err(|e| e.to_string())?;
        StoreHandle::start(store, policy, &owner).map(|(handle, _)| handle).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| format!("the store did not start: {e}"))?
}

/// A hub that is one instance of several: rooms in PostgreSQL at `database_url`, the others
/// reached through Redis at `redis_url`. Needs a tokio runtime.
///
/// # Errors
/// A message saying which server failed and why.
pub async fn connect(redis_url: &str, database_url: &str, limits: Limits, policy: PrunePolicy) -> Result<Hub, String> {
    let instance = qi_rooms::wire::new_instance();
    let store = open_store(database_url, policy, &instance).await?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let bus = RedisBus::connect(redis_url, instance, tx).await.map_err(|e| format!("{e} (at {redis_url})"))?;
    Ok(Hub::clustered(store, limits, bus, rx))
}
