//! Fan-out: how a room's new state reaches every socket watching it.
//!
//! Each state is complete, so a slow socket needs only the newest one: subscriptions are
//! `watch` channels, never queues that grow. [`LocalFanout`] serves one process; a backend for
//! several servers would publish to a shared broker and feed the same local channels from it.

use crate::id::RoomId;
use crate::view::StateFrames;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Delivers room states to subscribers.
pub trait Fanout: Send + Sync + 'static {
    /// Makes `frames` the latest state of `room` for every subscriber.
    fn publish(&self, room: &RoomId, frames: Arc<StateFrames>);
    /// A receiver of `room`'s latest state, if the room has published one.
    fn subscribe(&self, room: &RoomId) -> Option<watch::Receiver<Arc<StateFrames>>>;
    /// The room is no longer hosted here; subscribers see their channel close.
    fn close(&self, room: &RoomId);
}

/// Fan-out inside one process: a `watch` channel per room.
#[derive(Default)]
pub struct LocalFanout {
    rooms: Mutex<HashMap<RoomId, watch::Sender<Arc<StateFrames>>>>,
}

impl LocalFanout {
    /// An empty fan-out.
    pub fn new() -> LocalFanout {
        LocalFanout::default()
    }
}

impl Fanout for LocalFanout {
    fn publish(&self, room: &RoomId, frames: Arc<StateFrames>) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        match rooms.get(room) {
            Some(tx) => {
                tx.send_replace(frames);
            }
            None => {
                rooms.insert(room.clone(), watch::Sender::new(frames));
            }
        }
    }

    fn subscribe(&self, room: &RoomId) -> Option<watch::Receiver<Arc<StateFrames>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).get(room).map(watch::Sender::subscribe)
    }

    fn close(&self, room: &RoomId) {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner()).remove(room);
    }
}
