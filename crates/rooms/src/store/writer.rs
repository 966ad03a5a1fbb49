//! Runs a [`RoomStore`] on a thread of its own, with group commit: every save that arrives
//! while a commit is under way goes into the next one, so one disk flush serves many moves.

use super::{Claimed, PrunePolicy, RoomStore, Save, SaveError, StoreError, ALIVE_EVERY};
use crate::id::RoomId;
use crate::record::{wall_ms, RoomRecord};
use std::sync::mpsc;
use std::time::Instant;
use tokio::sync::oneshot;

/// Most saves folded into one transaction.
const MAX_BATCH: usize = 512;

enum Job {
    Load(RoomId, oneshot::Sender<Result<Option<RoomRecord>, StoreError>>),
    Claim(RoomId, oneshot::Sender<Result<Option<Claimed>, StoreError>>),
    Save(Vec<Save>, oneshot::Sender<Result<(), SaveError>>),
}

/// A cheap, cloneable handle to the store thread. The thread stops when the last handle is
/// dropped (after finishing the jobs it has).
#[derive(Clone)]
pub struct StoreHandle {
    jobs: mpsc::Sender<Job>,
    owner: std::sync::Arc<str>,
}

impl StoreHandle {
    /// Starts the store thread for the server named `owner` (see [`RoomStore::claim`]):
    /// resumes the clocks after the downtime, prunes, and then serves jobs. Returns the handle
    /// and the downtime (milliseconds since the store last heard the server was alive; 0 for a
    /// new or shared store).
    ///
    /// # Errors
    /// When the store cannot be resumed or pruned at start-up.
    pub fn start(
        mut store: impl RoomStore,
        policy: PrunePolicy,
        owner: &str,
    ) -> Result<(StoreHandle, i64), StoreError> {
        let downtime = store.resume(wall_ms())?;
        store.mark_alive(owner, wall_ms())?;
        store.prune(&policy, wall_ms())?;
        let (jobs, rx) = mpsc::channel();
        let owner: std::sync::Arc<str> = owner.into();
        let thread_owner = std::sync::Arc::clone(&owner);
        std::thread::Builder::new()
            .name("room-store".into())
            .spawn(move || serve(store, rx, policy, &thread_owner))
            .map_err(|e| StoreError(format!("cannot start the store thread: {e}")))?;
        Ok((StoreHandle { jobs, owner }, downtime))
    }

    /// Takes room `id` over for this server (see [`RoomStore::claim`]).
    ///
    /// # Errors
    /// When the store fails or has stopped.
    pub async fn claim(&self, id: RoomId) -> Result<Option<Claimed>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.jobs.send(Job::Claim(id, tx)).map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
    }

    /// The room `id`, if stored.
    ///
    /// # Errors
    /// When the store fails or has stopped.
    pub async fn load(&self, id: RoomId) -> Result<Option<RoomRecord>, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.jobs.send(Job::Load(id, tx)).map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
    }

    /// Saves `saves` all or nothing; returns once they are committed.
    ///
    /// # Errors
    /// [`SaveError::Conflict`] when a room moved on (another server owns it now), or a store
    /// failure (nothing of it is saved), or the store has stopped.
    pub async fn save(&self, saves: Vec<Save>) -> Result<(), SaveError> {
        let (tx, rx) = oneshot::channel();
        self.jobs.send(Job::Save(saves, tx)).map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
    }
}

impl StoreHandle {
    /// The server name this store claims rooms for.
    pub fn owner(&self) -> &str {
        &self.owner
    }
}

fn stopped() -> StoreError {
    StoreError("the store has stopped".into())
}

fn serve(mut store: impl RoomStore, rx: mpsc::Receiver<Job>, policy: PrunePolicy, owner: &str) {
    let mut next_alive = Instant::now() + ALIVE_EVERY;
    let mut next_prune = Instant::now() + policy.every;
    let mut pending: Option<Job> = None;
    loop {
        let job = match pending.take() {
            Some(job) => job,
            None => match rx.recv_timeout(next_alive.saturating_duration_since(Instant::now())) {
                Ok(job) => job,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    housekeeping(&mut store, owner, &policy, &mut next_alive, &mut next_prune);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            },
        };
        match job {
            Job::Load(id, reply) => {
                let _ = reply.send(store.load(&id));
            }
            Job::Claim(id, reply) => {
                let _ = reply.send(store.claim(&id, owner, wall_ms()));
            }
            Job::Save(saves, reply) => {
                // Group commit: take every save already waiting, up to a load or the batch limit.
                let mut jobs = vec![saves];
                let mut replies = vec![reply];
                while replies.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(Job::Save(more, reply)) => {
                            jobs.push(more);
                            replies.push(reply);
                        }
                        Ok(other) => {
                            pending = Some(other);
                            break;
                        }
                        Err(_) => break,
                    }
                }
                let started = Instant::now();
                let committed = store.commit(&jobs);
                metrics::histogram!("qi_room_commit_duration_seconds").record(started.elapsed().as_secs_f64());
                match committed {
                    Ok(results) => {
                        for (reply, result) in replies.into_iter().zip(results) {
                            let outcome = if result.is_ok() { "saved" } else { "conflict" };
                            metrics::counter!("qi_room_saves_total", "result" => outcome).increment(1);
                            let _ = reply.send(result);
                        }
                    }
                    Err(e) => {
                        metrics::counter!("qi_room_saves_total", "result" => "failed").increment(replies.len() as u64);
                        for reply in replies {
                            let _ = reply.send(Err(SaveError::Store(e.clone())));
                        }
                    }
                }
            }
        }
        if Instant::now() >= next_alive {
            housekeeping(&mut store, owner, &policy, &mut next_alive, &mut next_prune);
        }
    }
}

fn housekeeping(
    store: &mut impl RoomStore,
    owner: &str,
    policy: &PrunePolicy,
    next_alive: &mut Instant,
    next_prune: &mut Instant,
) {
    // A failure here is retried next time; the rooms themselves are unaffected.
    let _ = store.mark_alive(owner, wall_ms());
    *next_alive = Instant::now() + ALIVE_EVERY;
    if Instant::now() >= *next_prune {
        let _ = store.prune(policy, wall_ms());
        *next_prune = Instant::now() + policy.every;
    }
}
