//! The list of games being played now, as this instance keeps it: the games of the rooms it
//! hosts (see [`crate::LiveGame`]). With one server that is the whole list and each change
//! tells the lobby at once; with several, each change goes to the broker, in order, through
//! one task, and is sent again when the broker comes back (it may have lost the list).

use super::registry::{lock, Inner, Listing};
use crate::bus::BusError;
use crate::id::RoomId;
use crate::live::LiveGame;
use crate::seek::LobbyEvent;
use std::sync::Weak;
use tokio::sync::mpsc;

/// Lists `game` (or updates its listing).
pub(super) fn list(inner: &Inner, game: LiveGame) {
    lock(&inner.live).insert(game.room.clone(), game.clone());
    changed(inner, Listing::Announce(game));
}

/// Takes room `room`'s game off the list, if it is listed.
pub(super) fn unlist(inner: &Inner, room: &RoomId) {
    if lock(&inner.live).remove(room).is_some() {
        changed(inner, Listing::End(room.clone()));
    }
}

fn changed(inner: &Inner, listing: Listing) {
    if inner.bus.is_some() {
        let _ = inner.listing.send(listing);
    } else {
        let _ = inner.lobby.send(LobbyEvent::Changed);
    }
}

/// The broker is back: every game listed here is announced again.
pub(super) fn relist_all(inner: &Inner) {
    for game in lock(&inner.live).values() {
        let _ = inner.listing.send(Listing::Announce(game.clone()));
    }
}

/// Every listed game: this instance's, or all instances' from the broker.
pub(super) async fn games(inner: &Inner) -> Result<Vec<LiveGame>, BusError> {
    match &inner.bus {
        None => Ok(lock(&inner.live).values().cloned().collect()),
        Some(bus) => bus.live_games().await,
    }
}

/// Hands the list's changes to the broker one after the other, so that a game's end never
/// overtakes its last announcement. Runs until the hub is gone.
pub(super) async fn tell_broker(inner: Weak<Inner>, mut changes: mpsc::UnboundedReceiver<Listing>) {
    while let Some(listing) = changes.recv().await {
        let Some(bus) = inner.upgrade().and_then(|i| i.bus.clone()) else { break };
        // A change the broker missed is sent again when it is back (`relist_all`).
        let _ = match listing {
            Listing::Announce(game) => bus.announce_game(&game).await,
            Listing::End(room) => bus.end_game(&room).await,
        };
    }
}
