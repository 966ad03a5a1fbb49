//! The seek book: where the open seeks are kept. With one server they are the lobby's own; with
//! several they live in the broker, shared by every instance's lobby (see
//! [`crate::Bus::post_seek`]), and this instance remembers its own sockets' seeks so that it
//! can withdraw them when a socket leaves and post them again when the broker lost them.

use super::LobbyLimits;
use crate::bus::Bus;
use crate::seek::{SeekPosted, WireSeek};
use std::collections::HashMap;
use std::sync::Arc;

/// The broker did not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Unavailable;

/// The open seeks, as this instance's lobby sees them.
pub(super) struct Book {
    /// The broker's shared book; none with one server.
    shared: Option<Arc<dyn Bus>>,
    instance: String,
    limits: LobbyLimits,
    /// The open seeks of this instance's sockets (all the seeks with one server).
    mine: HashMap<String, WireSeek>,
    next_id: u64,
    /// The broker was back before this instance's seeks could be posted again.
    unposted: bool,
}

impl Book {
    /// A book for `instance`, shared through `shared` when it is one of several servers.
    pub(super) fn new(shared: Option<Arc<dyn Bus>>, instance: String, limits: LobbyLimits) -> Book {
        Book { shared, instance, limits, mine: HashMap::new(), next_id: 1, unposted: false }
    }

    /// The bus the book is shared through, with several servers.
    pub(super) fn shared(&self) -> Option<&Arc<dyn Bus>> {
        self.shared.as_ref()
    }

    /// A new seek's id: a number, prefixed with the instance's name when the book is shared so
    /// that it is unique among all instances' seeks.
    pub(super) fn new_id(&mut self) -> String {
        let id = match &self.shared {
            None => self.next_id.to_string(),
            Some(_) => format!("{}-{}", self.instance, self.next_id),
        };
        self.next_id += 1;
        id
    }

    /// Whether seek `id` is open and made by `socket` of this instance.
    pub(super) fn is_of(&self, id: &str, socket: u64) -> bool {
        self.mine.get(id).is_some_and(|s| s.socket == socket)
    }

    /// Whether `socket` has an open seek with clock `clock_ms`.
    pub(super) fn has_clock(&self, socket: u64, clock_ms: Option<[u64; 2]>) -> bool {
        self.mine.values().any(|s| s.socket == socket && s.clock_ms == clock_ms)
    }

    /// The ids of `socket`'s open seeks.
    pub(super) fn of_socket(&self, socket: u64) -> Vec<String> {
        self.mine.values().filter(|s| s.socket == socket).map(|s| s.id.clone()).collect()
    }

    /// Forgets seek `id`, taken on another instance: not to be withdrawn or posted again from here.
    pub(super) fn forget(&mut self, id: &str) {
        self.mine.remove(id);
    }

    /// Every open seek, oldest first.
    pub(super) async fn list(&self) -> Result<Vec<WireSeek>, Unavailable> {
        match &self.shared {
            None => {
                let mut seeks: Vec<WireSeek> = self.mine.values().cloned().collect();
                seeks.sort_by(WireSeek::older);
                Ok(seeks)
            }
            Some(bus) => bus.seeks().await.map_err(|_| Unavailable),
        }
    }

    /// Posts `seek` within the lobby's bounds; it is open if the answer is [`SeekPosted::Open`].
    pub(super) async fn post(&mut self, seek: WireSeek) -> Result<SeekPosted, Unavailable> {
        let posted = match &self.shared {
            None => {
                if self.mine.len() >= self.limits.max_seeks {
                    SeekPosted::LobbyFull
                } else if self.mine.values().filter(|s| s.address == seek.address).count()
                    >= self.limits.seeks_per_address
                {
                    SeekPosted::AddressFull
                } else {
                    SeekPosted::Open
                }
            }
            Some(bus) => bus
                .post_seek(&seek, self.limits.seeks_per_address, self.limits.max_seeks)
                .await
                .map_err(|_| Unavailable)?,
        };
        if posted == SeekPosted::Open {
            self.mine.insert(seek.id.clone(), seek);
        }
        Ok(posted)
    }

    /// Removes and returns seek `id` if it is still open.
    pub(super) async fn take(&mut self, id: &str) -> Result<Option<WireSeek>, Unavailable> {
        let taken = match &self.shared {
            None => self.mine.get(id).cloned(),
            // Forgotten here only once the broker has given it up: a seek still open there
            // must stay withdrawable when its socket leaves.
            Some(bus) => bus.take_seek(id).await.map_err(|_| Unavailable)?,
        };
        if taken.is_some() {
            self.mine.remove(id);
        }
        Ok(taken)
    }

    /// Withdraws seeks `ids` of this instance's sockets.
    pub(super) async fn withdraw(&mut self, ids: &[String]) {
        for id in ids {
            self.mine.remove(id);
        }
        if let Some(bus) = &self.shared {
            // A seek the broker could not remove now goes with this instance's heartbeat
            // only if the instance dies; the next change or reconnect will not post it again.
            let _ = bus.withdraw_seeks(ids).await;
        }
    }

    /// The broker was away and is back: it may have lost this instance's seeks (a restart),
    /// so they are posted again (the broker keeps one copy of each, by id).
    pub(super) async fn reconnected(&mut self) {
        self.unposted = true;
        self.repost().await;
    }

    /// Tells the broker this lobby is alive and posts again what the last reconnection could
    /// not; false without a shared book or when the broker does not answer.
    pub(super) async fn beat(&mut self) -> bool {
        let Some(bus) = &self.shared else { return false };
        if bus.lobby_heartbeat().await.is_err() {
            return false;
        }
        if self.unposted {
            self.repost().await;
        }
        true
    }

    async fn repost(&mut self) {
        let Some(bus) = &self.shared else { return };
        let mut all = true;
        for seek in self.mine.values() {
            all &= bus.post_seek(seek, usize::MAX, self.limits.max_seeks).await.is_ok();
        }
        self.unposted = !all;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seek::SeekColour;

    fn seek(id: String, socket: u64, address: &str) -> WireSeek {
        WireSeek {
            id,
            instance: "solo".into(),
            socket,
            address: address.into(),
            clock_ms: None,
            colour: SeekColour::Random,
            name: None,
            posted_ms: 0,
        }
    }

    #[tokio::test]
    async fn a_local_book_keeps_its_bounds_and_gives_each_seek_once() {
        let limits = LobbyLimits { seeks_per_address: 2, max_seeks: 3, ..LobbyLimits::default() };
        let mut book = Book::new(None, "solo".into(), limits);
        let ids: Vec<String> = (0..4).map(|_| book.new_id()).collect();
        assert_eq!(ids, ["1", "2", "3", "4"]);
        assert_eq!(book.post(seek(ids[0].clone(), 1, "192.0.2.1")).await, Ok(SeekPosted::Open));
        assert_eq!(book.post(seek(ids[1].clone(), 1, "192.0.2.1")).await, Ok(SeekPosted::Open));
        assert_eq!(book.post(seek(ids[2].clone(), 2, "192.0.2.1")).await, Ok(SeekPosted::AddressFull));
        assert_eq!(book.post(seek(ids[2].clone(), 2, "192.0.2.2")).await, Ok(SeekPosted::Open));
        assert_eq!(book.post(seek(ids[3].clone(), 3, "192.0.2.3")).await, Ok(SeekPosted::LobbyFull));
        assert!(book.is_of("1", 1) && !book.is_of("1", 2));
        assert_eq!(book.take("3").await.unwrap().map(|s| s.socket), Some(2));
        assert_eq!(book.take("3").await, Ok(None));
        let mut left = book.of_socket(1);
        left.sort();
        assert_eq!(left, ["1", "2"]);
        book.withdraw(&left).await;
        assert_eq!(book.list().await, Ok(vec![]));
        assert!(!book.beat().await, "no broker to tell");
    }
}
