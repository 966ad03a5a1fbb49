//! A room store in memory with the same fencing as the real ones, and a [`MemoryControl`] that
//! makes it fail on purpose: the hub's rollback and retry paths are tested against it.

use super::{Claimed, PrunePolicy, RoomStore, Save, SaveError, StoreError};
use crate::id::RoomId;
use crate::record::RoomRecord;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Rows {
    rooms: HashMap<RoomId, (RoomRecord, u64)>,
    /// Who claimed each room last.
    owners: HashMap<RoomId, String>,
    /// Commits still to fail (a full disk, a lost connection).
    failing_commits: usize,
    /// Loads and claims still to fail.
    failing_loads: usize,
}

/// Rooms in a `HashMap` shared with its [`MemoryControl`].
pub struct MemoryStore {
    rows: Arc<Mutex<Rows>>,
}

/// The test's side of a [`MemoryStore`]: what is stored, and failures to inject.
#[derive(Clone)]
pub struct MemoryControl {
    rows: Arc<Mutex<Rows>>,
}

impl MemoryStore {
    /// An empty store and its control.
    pub fn new() -> (MemoryStore, MemoryControl) {
        let rows = Arc::new(Mutex::new(Rows::default()));
        (MemoryStore { rows: Arc::clone(&rows) }, MemoryControl { rows })
    }

    fn rows(&self) -> std::sync::MutexGuard<'_, Rows> {
        self.rows.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl MemoryControl {
    fn rows(&self) -> std::sync::MutexGuard<'_, Rows> {
        self.rows.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The stored state of room `id`.
    pub fn get(&self, id: &RoomId) -> Option<RoomRecord> {
        self.rows().rooms.get(id).map(|(r, _)| r.clone())
    }

    /// Makes the next `n` commits fail (nothing of them is written).
    pub fn fail_commits(&self, n: usize) {
        self.rows().failing_commits = n;
    }

    /// Makes the next `n` loads and claims fail.
    pub fn fail_loads(&self, n: usize) {
        self.rows().failing_loads = n;
    }

    /// Raises room `id`'s fence, as another server's claim would.
    pub fn steal(&self, id: &RoomId) {
        if let Some((_, fence)) = self.rows().rooms.get_mut(id) {
            *fence += 1;
        }
    }
}

impl RoomStore for MemoryStore {
    fn load(&mut self, id: &RoomId) -> Result<Option<RoomRecord>, StoreError> {
        let mut rows = self.rows();
        if rows.failing_loads > 0 {
            rows.failing_loads -= 1;
            return Err(StoreError("injected load failure".into()));
        }
        Ok(rows.rooms.get(id).map(|(r, _)| r.clone()))
    }

    fn claim(&mut self, id: &RoomId, owner: &str, _wall_ms: i64) -> Result<Option<Claimed>, StoreError> {
        let mut rows = self.rows();
        if rows.failing_loads > 0 {
            rows.failing_loads -= 1;
            return Err(StoreError("injected load failure".into()));
        }
        let rows = &mut *rows;
        let Some((record, fence)) = rows.rooms.get_mut(id) else { return Ok(None) };
        *fence += 1;
        let previous = rows.owners.insert(id.clone(), owner.to_string());
        Ok(Some(Claimed { record: record.clone(), fence: *fence, interrupted: previous.is_some_and(|p| p != owner) }))
    }

    fn commit(&mut self, jobs: &[Vec<Save>]) -> Result<Vec<Result<(), SaveError>>, StoreError> {
        let mut rows = self.rows();
        if rows.failing_commits > 0 {
            rows.failing_commits -= 1;
            return Err(StoreError("injected commit failure".into()));
        }
        let mut results = Vec::with_capacity(jobs.len());
        for job in jobs {
            let follows = |s: &Save| match (rows.rooms.get(&s.record.id), s.follows) {
                (None, None) => true,
                (Some((stored, fence)), Some(v)) => stored.version == v && *fence == s.fence,
                _ => false,
            };
            match job.iter().find(|s| !follows(s)) {
                Some(bad) => results.push(Err(SaveError::Conflict(bad.record.id.clone()))),
                None => {
                    for s in job {
                        let fence = rows.rooms.get(&s.record.id).map_or(s.fence, |(_, f)| *f);
                        rows.rooms.insert(s.record.id.clone(), (s.record.clone(), fence));
                    }
                    results.push(Ok(()));
                }
            }
        }
        Ok(results)
    }

    fn mark_alive(&mut self, _owner: &str, _wall_ms: i64) -> Result<(), StoreError> {
        Ok(())
    }

    fn resume(&mut self, _wall_ms: i64) -> Result<i64, StoreError> {
        Ok(0)
    }

    fn prune(&mut self, _policy: &PrunePolicy, _wall_ms: i64) -> Result<usize, StoreError> {
        Ok(0)
    }
}
