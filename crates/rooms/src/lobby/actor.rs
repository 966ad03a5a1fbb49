//! The lobby's actor: the one task that changes this instance's seeks (lila-ws's
//! `LobbyClientActor` and lobby together). Sockets reach it through [`Msg`]; the bus through
//! [`LobbyEvent`]s; it answers with [`ClientIn`] frames and publishes the seeks' list.

use super::book::{Book, Unavailable};
use super::client_in::ClientIn;
use super::client_out::ClientOut;
use super::pairing::{pair, Tell};
use super::LobbyLimits;
use crate::clock::ClockSettings;
use crate::hub::{Hub, PRESENCE_EVERY};
use crate::live::LiveGame;
use crate::record::wall_ms;
use crate::seek::{LobbyEvent, SeekColour, SeekPosted, WireSeek};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, watch};

/// Told when the broker does not answer.
const UNAVAILABLE: &str = "the lobby is unavailable; try again shortly";

/// What a socket tells the lobby's actor.
pub(super) enum Msg {
    /// A socket opened: its frames go to `out`.
    Join {
        /// The socket's number on this instance.
        socket: u64,
        /// Its outgoing frames.
        out: mpsc::Sender<String>,
    },
    /// The socket closed: its seeks are withdrawn.
    Leave {
        /// The socket's number.
        socket: u64,
    },
    /// A message from the socket's client.
    Client {
        /// The socket's number.
        socket: u64,
        /// Its client's address, as the per-address bound counts it.
        address: IpAddr,
        /// The message (never a `ping`: the socket answers that itself).
        msg: ClientOut,
    },
}

/// The only code that changes seeks.
pub(super) struct LobbyActor {
    hub: Hub,
    instance: String,
    book: Book,
    publish: watch::Sender<Arc<String>>,
    /// The games being played, as the lobby shows them.
    publish_games: watch::Sender<Arc<Vec<LiveGame>>>,
    sockets: HashMap<u64, mpsc::Sender<String>>,
    /// The last read of the seeks failed: the sockets show an old list.
    stale: bool,
}

impl LobbyActor {
    /// The actor of `hub`'s lobby, publishing the seeks' list to `publish` and the games being
    /// played to `publish_games`.
    pub(super) fn new(
        hub: Hub,
        limits: LobbyLimits,
        publish: watch::Sender<Arc<String>>,
        publish_games: watch::Sender<Arc<Vec<LiveGame>>>,
    ) -> LobbyActor {
        let instance = hub.instance().to_string();
        let book = Book::new(hub.bus().cloned(), instance.clone(), limits);
        LobbyActor { hub, instance, book, publish, publish_games, sockets: HashMap::new(), stale: false }
    }

    /// Runs until every handle on the lobby is gone.
    pub(super) async fn run(
        mut self,
        mut rx: mpsc::UnboundedReceiver<Msg>,
        mut events: broadcast::Receiver<LobbyEvent>,
    ) {
        let mut beat = tokio::time::interval(PRESENCE_EVERY);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => self.handle(msg).await,
                    None => return,
                },
                event = events.recv() => self.event(event, &mut events).await,
                _ = beat.tick() => self.beat().await,
            }
        }
    }

    fn tell(&self, socket: u64, message: ClientIn<'_>) {
        if let Some(out) = self.sockets.get(&socket) {
            let _ = out.try_send(message.frame());
        }
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { socket, out } => {
                self.sockets.insert(socket, out);
            }
            Msg::Leave { socket } => {
                self.sockets.remove(&socket);
                let ids = self.book.of_socket(socket);
                self.withdraw(ids).await;
            }
            Msg::Client { socket, address, msg } => self.client(socket, address, msg).await,
        }
    }

    async fn client(&mut self, socket: u64, address: IpAddr, msg: ClientOut) {
        match msg {
            ClientOut::Seek { clock, colour, name } => {
                self.post(socket, address, clock, colour, name).await;
            }
            ClientOut::Cancel { id } => {
                if self.book.is_of(&id, socket) {
                    self.withdraw(vec![id]).await;
                }
            }
            ClientOut::Accept { id } => {
                if self.book.is_of(&id, socket) {
                    return self.tell(socket, ClientIn::Error("that seek is your own"));
                }
                match self.take(&id).await {
                    Ok(Some(seek)) => self.pair(seek, socket),
                    Ok(None) => self.tell(socket, ClientIn::Error("that seek is gone")),
                    Err(Unavailable) => self.tell(socket, ClientIn::Error(UNAVAILABLE)),
                }
            }
            ClientOut::Quick { clock, name } => {
                let wanted = WireSeek::clock_of(clock);
                let Ok(open) = self.book.list().await else { return self.tell(socket, ClientIn::Error(UNAVAILABLE)) };
                let me = self.instance.clone();
                let others =
                    open.into_iter().filter(|s| s.clock_ms == wanted && !(s.instance == me && s.socket == socket));
                for candidate in others {
                    // Another player may take it first: then the next one.
                    if let Ok(Some(seek)) = self.take(&candidate.id).await {
                        return self.pair(seek, socket);
                    }
                }
                if !self.book.has_clock(socket, wanted) {
                    self.post(socket, address, clock, SeekColour::Random, name).await;
                }
            }
            // Answered by the socket itself.
            ClientOut::Ping => {}
        }
    }

    async fn event(
        &mut self,
        event: Result<LobbyEvent, broadcast::error::RecvError>,
        events: &mut broadcast::Receiver<LobbyEvent>,
    ) {
        let mut refresh = false;
        let mut next = event;
        // Many changes at once are one read of the seeks.
        loop {
            match next {
                Ok(LobbyEvent::Paired { seek, socket, frame }) => {
                    // Taken on another instance: not to be withdrawn or posted again from here.
                    self.book.forget(&seek);
                    if let Some(out) = self.sockets.get(&socket) {
                        let _ = out.try_send(frame);
                    }
                }
                Ok(LobbyEvent::Reconnected) => {
                    self.book.reconnected().await;
                    refresh = true;
                }
                Ok(LobbyEvent::Changed) | Err(broadcast::error::RecvError::Lagged(_)) => refresh = true,
                Err(broadcast::error::RecvError::Closed) => break,
            }
            next = match events.try_recv() {
                Ok(event) => Ok(event),
                Err(broadcast::error::TryRecvError::Lagged(n)) => Err(broadcast::error::RecvError::Lagged(n)),
                Err(_) => break,
            };
        }
        if refresh {
            self.refresh().await;
        }
    }

    /// Tells the broker this lobby is alive, and catches up with what failed while it was away.
    async fn beat(&mut self) {
        if !self.book.beat().await {
            return;
        }
        if self.stale {
            self.refresh().await;
        }
    }

    /// Shows the seeks and the games being played to every socket of this instance.
    async fn refresh(&mut self) {
        let listed = self.book.list().await;
        let games = self.hub.live_games().await;
        self.stale = listed.is_err() || games.is_err();
        if let Ok(seeks) = listed {
            metrics::gauge!("qi_lobby_seeks_open").set(seeks.len() as f64);
            self.publish.send_replace(Arc::new(ClientIn::Seeks(&seeks).frame()));
        }
        if let Ok(games) = games {
            metrics::gauge!("qi_live_games").set(games.len() as f64);
            let shown = LiveGame::shown(games);
            // The same list again (a seek changed) is not sent again.
            self.publish_games.send_if_modified(|old| {
                let changed = **old != shown;
                if changed {
                    *old = Arc::new(shown);
                }
                changed
            });
        }
    }

    async fn post(
        &mut self,
        socket: u64,
        address: IpAddr,
        clock: Option<ClockSettings>,
        colour: SeekColour,
        name: Option<String>,
    ) {
        let id = self.book.new_id();
        let seek = WireSeek {
            id: id.clone(),
            instance: self.instance.clone(),
            socket,
            address: address.to_string(),
            clock_ms: WireSeek::clock_of(clock),
            colour,
            name,
            posted_ms: u64::try_from(wall_ms()).unwrap_or(0),
        };
        match self.book.post(seek).await {
            Err(Unavailable) => self.tell(socket, ClientIn::Error(UNAVAILABLE)),
            Ok(SeekPosted::Open) => {
                metrics::counter!("qi_lobby_seeks_total").increment(1);
                self.tell(socket, ClientIn::Seeking { id: &id });
                self.refresh().await;
            }
            Ok(SeekPosted::LobbyFull) => self.tell(socket, ClientIn::Error("the lobby is full; try again shortly")),
            Ok(SeekPosted::AddressFull) => self.tell(socket, ClientIn::Error("you have as many open seeks as you may")),
        }
    }

    /// Removes and returns seek `id` if it is still open.
    async fn take(&mut self, id: &str) -> Result<Option<WireSeek>, Unavailable> {
        let taken = self.book.take(id).await?;
        if taken.is_some() {
            self.refresh().await;
        }
        Ok(taken)
    }

    async fn withdraw(&mut self, ids: Vec<String>) {
        if ids.is_empty() {
            return;
        }
        self.book.withdraw(&ids).await;
        self.refresh().await;
    }

    /// Makes the room for `seek` accepted by socket `taker` (in a task of its own, so that the
    /// lobby goes on while the room is saved) and tells both where to go.
    fn pair(&self, seek: WireSeek, taker: u64) {
        let maker = if seek.instance == self.instance {
            Tell::Local(self.sockets.get(&seek.socket).cloned())
        } else {
            match self.book.shared() {
                Some(bus) => Tell::Remote(Arc::clone(bus), seek.instance.clone(), seek.id.clone(), seek.socket),
                None => Tell::Local(None),
            }
        };
        let taker = Tell::Local(self.sockets.get(&taker).cloned());
        metrics::counter!("qi_lobby_pairings_total").increment(1);
        tokio::spawn(pair(self.hub.clone(), [maker, taker], seek));
    }
}
