//! Where rooms are kept: the [`RoomStore`] trait, its SQLite implementation, an in-memory
//! [`MemoryStore`] for tests, and the [`StoreHandle`] that runs a store on its own thread with
//! group commit.
//!
//! The trait is synchronous and small on purpose: a backend shared by several servers (a SQL
//! server, a replicated key-value store) implements the same calls, and nothing in the room
//! logic changes.
//!
//! Writes are fenced. Every [`Save`] names the version it follows and the fence (the owner's
//! claim number) it was made under; the store refuses it with [`SaveError::Conflict`] when
//! either has moved on. So an owner that lost its room (its lease expired while it was paused,
//! another instance claimed the room) can never overwrite a newer state.

mod alive;
pub mod jobs;
mod memory;
mod prune;
pub mod row;
mod sqlite;
mod sqlite_backup;
mod writer;

pub use alive::{taken_over_at, ALIVE_EVERY, SHOWN_AFTER_ALIVE};
pub use memory::{MemoryControl, MemoryStore};
pub use prune::PrunePolicy;
pub use sqlite::{Durability, SqliteStore, DATABASE_FILE, LOCK_FILE};
pub use sqlite_backup::{backup, BackupSummary};
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

/// One room's state to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    /// The state.
    pub record: RoomRecord,
    /// The version the stored row must have for the write to go through; `None` for a new
    /// room, whose id must not exist yet.
    pub follows: Option<u64>,
    /// The fence the row must have (the writer's claim, see [`RoomStore::claim`]).
    pub fence: u64,
}

/// Why a group of saves was not written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// A room's row is not at the version or fence the save follows (someone else wrote it):
    /// the writer no longer owns the room.
    Conflict(RoomId),
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Conflict(id) => write!(f, "room store: room {id} was changed by another server"),
            SaveError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SaveError {}

impl From<StoreError> for SaveError {
    fn from(e: StoreError) -> SaveError {
        SaveError::Store(e)
    }
}

/// A room taken over by a new owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// Its state, with a running clock's reference time moved past the time its previous
    /// owner was gone (see [`RoomStore::claim`]).
    pub record: RoomRecord,
    /// The new fence: every save of the new owner carries it.
    pub fence: u64,
    /// Whether another server (an earlier process, another instance) hosted the room before:
    /// its connections were cut, so the player to move is given time to connect again (see
    /// `Room::hold_for_reconnection`).
    pub interrupted: bool,
}

/// Durable room storage.
///
/// [`RoomStore::commit`] must be atomic per job (all its records or none) and durable when it returns: the
/// server acknowledges a move only after that.
pub trait RoomStore: Send + 'static {
    /// The room `id`, if it is stored.
    ///
    /// # Errors
    /// When the store cannot be read or the row is corrupt.
    fn load(&mut self, id: &RoomId) -> Result<Option<RoomRecord>, StoreError>;

    /// Takes room `id` over for `owner`: raises its fence (so writes of any earlier owner are
    /// refused from now on) and returns it. A store shared by several servers also moves a
    /// running clock's reference time forward by the time since the previous owner could last
    /// have shown it ([`taken_over_at`]: [`SHOWN_AFTER_ALIVE`] past its last
    /// [`RoomStore::mark_alive`]), so that nobody is charged for a dead owner and a clock shown
    /// never goes back up.
    ///
    /// # Errors
    /// When the store cannot be read or written, or the row is corrupt.
    fn claim(&mut self, id: &RoomId, owner: &str, wall_ms: i64) -> Result<Option<Claimed>, StoreError>;

    /// Writes `jobs` in one transaction, each job all or nothing: a job whose room moved on
    /// ([`SaveError::Conflict`]) is left out and the others are written. Returns each job's
    /// result.
    ///
    /// # Errors
    /// When the transaction could not be committed; then none of the jobs is written.
    fn commit(&mut self, jobs: &[Vec<Save>]) -> Result<Vec<Result<(), SaveError>>, StoreError>;

    /// Records that this server (the `owner` of [`RoomStore::claim`]) is alive at `wall_ms`
    /// (called about once a second), so that [`RoomStore::resume`] or a later claim knows when
    /// it stopped.
    ///
    /// # Errors
    /// When the store cannot be written.
    fn mark_alive(&mut self, owner: &str, wall_ms: i64) -> Result<(), StoreError>;

    /// Called once at start-up. A store of one server moves every running clock's reference
    /// time forward by the time the server was down (from the last [`RoomStore::mark_alive`] to
    /// `wall_ms`), so that no player is charged for it, and returns that downtime in
    /// milliseconds (0 on a fresh store). A shared store leaves the rooms alone (other servers
    /// may be running them; [`RoomStore::claim`] does it per owner) and returns 0.
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
