//! Where rooms are kept: the [`RoomStore`] trait, its SQLite implementation, and the
//! [`StoreHandle`] that runs a store on its own thread with group commit.
//!
//! The trait is synchronous and small on purpose: a backend shared by several servers (a SQL
//! server, a replicated key-value store) implements the same five calls, and nothing in the
//! room logic changes.

mod prune;
mod sqlite;
mod writer;

pub use prune::PrunePolicy;
pub use sqlite::{Durability, SqliteStore};
pub use writer::StoreHandle;

use crate::id::RoomId;
use crate::record::RoomRecord;
use core::fmt;

/// A store failed (the disk, the database file, a corrupt row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "room store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Durable room storage.
///
/// [`RoomStore::save`] must be atomic (all records or none) and durable when it returns: the
/// server acknowledges a move only after that.
pub trait RoomStore: Send + 'static {
    /// The room `id`, if it is stored.
    ///
    /// # Errors
    /// When the store cannot be read or the row is corrupt.
    fn load(&mut self, id: &RoomId) -> Result<Option<RoomRecord>, StoreError>;

    /// Saves `records` (new or changed rooms) in one transaction.
    ///
    /// # Errors
    /// When the transaction could not be committed; then none of the records is saved.
    fn save(&mut self, records: &[RoomRecord]) -> Result<(), StoreError>;

    /// Records that the server is alive at `wall_ms` (called about once a second), so that
    /// [`RoomStore::resume`] knows when it stopped.
    ///
    /// # Errors
    /// When the store cannot be written.
    fn mark_alive(&mut self, wall_ms: i64) -> Result<(), StoreError>;

    /// Called once at start-up: moves every running clock's reference time forward by the time
    /// the server was down (from the last [`RoomStore::mark_alive`] to `wall_ms`), so that no
    /// player is charged for it. Returns that downtime in milliseconds (0 on a fresh store).
    ///
    /// # Errors
    /// When the store cannot be written.
    fn resume(&mut self, wall_ms: i64) -> Result<i64, StoreError>;

    /// Deletes the rooms `policy` says are done with; returns how many.
    ///
    /// # Errors
    /// When the store cannot be written.
    fn prune(&mut self, policy: &PrunePolicy, wall_ms: i64) -> Result<usize, StoreError>;
}
