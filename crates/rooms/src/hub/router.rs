//! The router: the way to a room, hosted here or on another instance. A request looks up the
//! room's owner (its lease on the bus), is sent there, and is sent again, to a new owner or to a
//! room task started here, until it is answered or [`ROUTE_PATIENCE`] has passed. This
//! process's socket counts reach the rooms' owners the same way.

use super::registry::{hosted, lock, Inner, Msg};
use super::room_actor::{spawn_room, Start};
use super::{Hub, HubError, PRESENCE_EVERY};
use crate::bus::{Lease, LEASE};
use crate::id::RoomId;
use crate::view::Presence;
use crate::wire::{Failure, InstanceId, Request, Response};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// How long a request keeps looking for a room's owner: a dead owner's lease must lapse first.
const ROUTE_PATIENCE: Duration = Duration::from_secs(LEASE.as_secs() * 2 + 2);
/// The pause between two tries to reach a room.
const RETRY_PAUSE: Duration = Duration::from_millis(150);
/// How long an owner found through the bus is asked directly before its lease is read again.
/// A wrong guess costs one refusal ([`Failure::NotOwner`]) or, for a dead owner, an unheard
/// message; a paused one costs the remote timeout, as an unpaused lease holder would.
const OWNER_KNOWN: Duration = LEASE;
/// Known owners kept before the stale ones are dropped.
const OWNERS_KNOWN: usize = 100_000;

/// Where a room is hosted.
enum Route {
    /// Here: its task's queue.
    Local(mpsc::UnboundedSender<Msg>),
    /// On that instance.
    Remote(InstanceId),
    /// Nobody hosts the room (and the caller did not ask to host it).
    Nobody,
    /// The broker did not answer; try again.
    Retry,
}

impl Hub {
    /// Sends `request` to its room's owner and waits for the answer, looking the owner up
    /// again (and hosting the room when nobody does) until [`ROUTE_PATIENCE`] has passed.
    pub(super) async fn ask(&self, request: Request) -> Result<Response, HubError> {
        let give_up = Instant::now() + ROUTE_PATIENCE;
        loop {
            let answer = match self.route(request.room(), true).await? {
                Route::Local(tx) => {
                    let (reply, answer) = oneshot::channel();
                    match tx.send(Msg { request: request.clone(), reply }) {
                        Ok(()) => answer.await.ok(),
                        Err(_) => None,
                    }
                }
                Route::Remote(owner) => self.remote(&owner, request.clone()).await,
                Route::Nobody | Route::Retry => None,
            };
            match answer {
                None | Some(Response::Failed { error: Failure::NotOwner }) => {
                    lock(&self.inner.owners).remove(request.room());
                }
                Some(Response::Failed { error }) => return Err(error.into()),
                Some(response) => return Ok(response),
            }
            if Instant::now() >= give_up {
                return Err(HubError::Gone);
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    /// Where room `id` is hosted. With `host`, a room nobody hosts is taken on here.
    async fn route(&self, id: &RoomId, host: bool) -> Result<Route, HubError> {
        if let Some(tx) = hosted(&self.inner, id) {
            return Ok(Route::Local(tx));
        }
        let Some(bus) = &self.inner.bus else {
            return if host {
                spawn_room(&self.inner, id.clone(), Start::Claim).map(Route::Local)
            } else {
                Ok(Route::Nobody)
            };
        };
        if host {
            let known = lock(&self.inner.owners).get(id).filter(|(_, at)| at.elapsed() < OWNER_KNOWN).cloned();
            if let Some((owner, _)) = known {
                return Ok(Route::Remote(owner));
            }
        }
        let lease = if host {
            bus.acquire(id).await
        } else {
            match bus.owner(id).await {
                Ok(None) => return Ok(Route::Nobody),
                Ok(Some(owner)) if owner == self.inner.instance => Ok(Lease::Mine),
                Ok(Some(owner)) => Ok(Lease::HeldBy(owner)),
                Err(e) => Err(e),
            }
        };
        match lease {
            Ok(Lease::HeldBy(owner)) if owner != self.inner.instance => {
                let mut owners = lock(&self.inner.owners);
                if owners.len() >= OWNERS_KNOWN {
                    owners.retain(|_, (_, at)| at.elapsed() < OWNER_KNOWN);
                }
                owners.insert(id.clone(), (owner.clone(), Instant::now()));
                Ok(Route::Remote(owner))
            }
            // The lease is this instance's (just taken, or held from before a restart).
            Ok(_) => spawn_room(&self.inner, id.clone(), Start::Claim).map(Route::Local),
            Err(_) => Ok(Route::Retry),
        }
    }

    /// A request from another instance: served if the room is hosted here (or its lease is
    /// this instance's), otherwise [`Failure::NotOwner`].
    pub(super) async fn serve_remote(&self, request: Request) -> Response {
        // `route` loads nothing itself (the room's task does), so its only failure is `Full`:
        // whatever the reason, the asker should look for the owner again.
        let Ok(Route::Local(tx)) = self.route(request.room(), false).await else {
            return Response::Failed { error: Failure::NotOwner };
        };
        let (reply, answer) = oneshot::channel();
        if tx.send(Msg { request, reply }).is_err() {
            return Response::Failed { error: Failure::NotOwner };
        }
        answer.await.unwrap_or(Response::Failed { error: Failure::NotOwner })
    }

    async fn tell_owner(&self, room: RoomId) {
        let counts = lock(&self.inner.local).get(&room).map(|l| l.presence).unwrap_or_default();
        let request = Request::Presence {
            room: room.clone(),
            instance: self.inner.instance.clone(),
            seats: counts.seats,
            watchers: counts.watchers,
        };
        if counts == Presence::default() {
            // Nobody here: tell a running owner, but never load the room for it.
            match self.route(&room, false).await {
                Ok(Route::Local(tx)) => {
                    let (reply, _answer) = oneshot::channel();
                    let _ = tx.send(Msg { request, reply });
                }
                Ok(Route::Remote(owner)) => {
                    let _ = self.remote(&owner, request).await;
                }
                _ => {}
            }
        } else {
            let _ = self.ask(request).await;
        }
    }
}

/// Tells rooms' owners this process's socket counts: when they change, and (with a bus) again
/// every [`PRESENCE_EVERY`], which also gets a room whose owner died a new one.
pub(super) async fn tell_presence(inner: std::sync::Weak<Inner>, mut changed: mpsc::UnboundedReceiver<RoomId>) {
    let mut every = tokio::time::interval(PRESENCE_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let rooms = tokio::select! {
            room = changed.recv() => match room {
                Some(room) => vec![room],
                None => return,
            },
            _ = every.tick() => {
                let Some(inner) = inner.upgrade() else { return };
                if inner.bus.is_none() {
                    continue;
                }
                let local = lock(&inner.local);
                local.iter().filter(|(_, l)| l.presence != Presence::default()).map(|(id, _)| id.clone()).collect()
            }
        };
        let Some(inner) = inner.upgrade() else { return };
        for room in rooms {
            let hub = Hub { inner: Arc::clone(&inner) };
            tokio::spawn(async move { hub.tell_owner(room).await });
        }
    }
}
