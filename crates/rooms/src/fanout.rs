//! Fan-out: how a room's newest state reaches every socket of this process that watches it.
//!
//! Each state is complete, so a slow socket needs only the newest one: subscriptions are
//! `watch` channels, never queues that grow. States come from a room hosted here or, with
//! several servers, from the [`crate::Bus`]; either way they are ordered by their stamp, so a
//! late or repeated state never replaces a newer one. A subscription starts from the state the
//! subscriber was given when it joined, so it is never empty.

use crate::id::RoomId;
use crate::view::StateFrames;
use crate::wire::WireState;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

struct Channel {
    stamp: (u64, u64),
    tx: watch::Sender<Arc<StateFrames>>,
}

/// The latest state of each watched room, for the sockets of this process.
#[derive(Default)]
pub struct Fanout {
    rooms: Mutex<HashMap<RoomId, Channel>>,
}

impl Fanout {
    /// An empty fan-out.
    pub fn new() -> Fanout {
        Fanout::default()
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, Channel>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `state` its room's latest for every subscriber, unless a newer one is there.
    /// Returns whether it was taken. A room nobody here watches is skipped.
    pub fn publish(&self, state: &WireState) -> bool {
        let mut rooms = self.rooms();
        let Some(channel) = rooms.get_mut(&state.room) else { return false };
        if state.stamp <= channel.stamp {
            return false;
        }
        if channel.tx.receiver_count() == 0 {
            rooms.remove(&state.room);
            return false;
        }
        channel.stamp = state.stamp;
        channel.tx.send_replace(Arc::new(state.frames()));
        true
    }

    /// A receiver of `current.room`'s states, starting from `current` (or from a newer state
    /// already here).
    pub fn subscribe(&self, current: &WireState) -> watch::Receiver<Arc<StateFrames>> {
        let mut rooms = self.rooms();
        match rooms.get_mut(&current.room) {
            Some(channel) => {
                if current.stamp > channel.stamp {
                    channel.stamp = current.stamp;
                    channel.tx.send_replace(Arc::new(current.frames()));
                }
                channel.tx.subscribe()
            }
            None => {
                let tx = watch::Sender::new(Arc::new(current.frames()));
                let rx = tx.subscribe();
                rooms.insert(current.room.clone(), Channel { stamp: current.stamp, tx });
                rx
            }
        }
    }

    /// Forgets `room` if nobody watches it any more.
    pub fn forget_if_unwatched(&self, room: &RoomId) {
        let mut rooms = self.rooms();
        if rooms.get(room).is_some_and(|c| c.tx.receiver_count() == 0) {
            rooms.remove(room);
        }
    }

    /// The rooms watched here.
    #[cfg(test)]
    fn watched(&self) -> Vec<RoomId> {
        self.rooms().keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(room: &RoomId, stamp: (u64, u64), text: &str) -> WireState {
        WireState {
            room: room.clone(),
            stamp,
            for_seat: [text.into(), text.into(), text.into()],
            api: text.into(),
            state_id: stamp.1,
            chat: Vec::new(),
        }
    }

    #[test]
    fn an_older_or_repeated_state_never_replaces_a_newer_one() {
        let fanout = Fanout::new();
        let room = RoomId::random();
        assert!(!fanout.publish(&state(&room, (1, 1), "nobody watches")));
        let mut rx = fanout.subscribe(&state(&room, (2, 5), "joined"));
        assert_eq!(rx.borrow_and_update().api, "joined");
        assert!(!fanout.publish(&state(&room, (2, 5), "same stamp")));
        assert!(!fanout.publish(&state(&room, (1, 9), "older version")));
        assert!(fanout.publish(&state(&room, (2, 6), "presence changed")));
        assert!(fanout.publish(&state(&room, (3, 0), "a move")));
        assert!(rx.has_changed().unwrap());
        assert_eq!(rx.borrow_and_update().api, "a move");
        // A second subscriber with an older snapshot starts from the newest state.
        let rx2 = fanout.subscribe(&state(&room, (2, 7), "stale snapshot"));
        assert_eq!(rx2.borrow().api, "a move");
        drop((rx, rx2));
        fanout.forget_if_unwatched(&room);
        assert!(fanout.watched().is_empty());
    }
}
