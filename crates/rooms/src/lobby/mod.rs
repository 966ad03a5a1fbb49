//! The lobby: "Play someone". A client posts a seek (a time control and a colour), everyone in
//! the lobby sees the open seeks live, and whoever accepts one lands with its maker in a new
//! room, each in their own seat. No accounts: a seek belongs to the socket that made it and
//! disappears when that socket closes.
//!
//! The shape is lila-ws's: one actor per lobby (`actor.rs`, the only code that changes seeks),
//! one typed file per message direction ([`ClientOut`]: what a client sends, [`ClientIn`]:
//! what it is sent), the seek book (`book.rs`: the lobby's own, or shared through the broker
//! with several servers, see [`crate::WireSeek`]) and the pairing (`pairing.rs`). The web
//! layer only turns a WebSocket into [`LobbySocket`] calls and frames.
//!
//! The lobby also lists the games being played that their players left public
//! ([`crate::LiveGame`]: names, clocks, spectators), at most [`crate::MAX_LIVE_SHOWN`], live:
//! the rooms announce them to the hub, the actor reads the list again on each change.
//!
//! Bounded: seeks per address ([`LobbyLimits::seeks_per_address`]), seeks in all
//! ([`LobbyLimits::max_seeks`]), frames waiting for a slow socket ([`SOCKET_FRAMES`]), names of
//! at most [`crate::MAX_NAME_CHARS`] characters (control characters dropped; the page shows
//! them as text, never as HTML); the socket layer bounds messages per second with
//! [`LobbyLimits::messages_per_second`] and [`LobbyLimits::burst`].
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use qi_rooms::lobby::{ClientOut, Lobby, LobbyLimits};
//! use qi_rooms::{Hub, Limits, MemoryStore, PrunePolicy, StoreHandle};
//! let (store, _) = MemoryStore::new();
//! let (handle, _) = StoreHandle::start(store, PrunePolicy::default(), "solo").unwrap();
//! let lobby = Lobby::start(Hub::new(handle, Limits::default()), LobbyLimits::default());
//! let mut ann = lobby.join("192.0.2.1".parse().unwrap()).unwrap();
//! assert!(ann.seeks().contains(r#""seeks":[]"#));
//! assert_eq!(ann.send(ClientOut::Ping).as_deref(), Some(r#"{"type":"pong"}"#));
//! ann.send(ClientOut::parse(r#"{"type": "seek", "clock": null, "name": "Ann"}"#).unwrap());
//! // Its own answer and the new list, in either order.
//! let frames = [ann.next_frame().await.unwrap(), ann.next_frame().await.unwrap()];
//! assert!(frames.iter().any(|f| f.contains(r#""seeking""#)));
//! assert!(frames.iter().any(|f| f.contains(r#""name":"Ann""#)));
//! # });
//! ```

mod actor;
mod book;
mod client_in;
mod client_out;
mod pairing;

pub use client_in::ClientIn;
pub use client_out::{parse_clock, ClientOut};

use crate::hub::Hub;
use crate::live::LiveGame;
use crate::record::wall_ms;
use actor::{LobbyActor, Msg};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// Frames a socket's queue holds for a slow client; past them the newest are dropped.
pub const SOCKET_FRAMES: usize = 64;

/// The lobby's bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LobbyLimits {
    /// Open seeks one client address may hold.
    pub seeks_per_address: usize,
    /// Open seeks in all.
    pub max_seeks: usize,
    /// Sustained messages per second from one socket.
    pub messages_per_second: f64,
    /// Messages a socket may send in a burst.
    pub burst: f64,
}

impl Default for LobbyLimits {
    fn default() -> LobbyLimits {
        LobbyLimits { seeks_per_address: 3, max_seeks: 2_000, messages_per_second: 5.0, burst: 20.0 }
    }
}

/// The lobby service: a handle on its actor. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    tx: mpsc::UnboundedSender<Msg>,
    seeks: watch::Receiver<Arc<String>>,
    games: watch::Receiver<Arc<Vec<LiveGame>>>,
    next_socket: Arc<AtomicU64>,
    limits: LobbyLimits,
}

impl Lobby {
    /// Starts the lobby's actor; pairings make rooms through `hub`. When the hub is one of
    /// several servers, the seeks are shared through its bus. Needs a tokio runtime.
    pub fn start(hub: Hub, limits: LobbyLimits) -> Lobby {
        let (tx, rx) = mpsc::unbounded_channel();
        let (publish, seeks) = watch::channel(Arc::new(ClientIn::Seeks(&[]).frame()));
        let (publish_games, games) = watch::channel(Arc::new(Vec::new()));
        let events = hub.lobby_events();
        tokio::spawn(LobbyActor::new(hub, limits, publish, publish_games).run(rx, events));
        Lobby { tx, seeks, games, next_socket: Arc::new(AtomicU64::new(1)), limits }
    }

    /// The bounds in force.
    pub fn limits(&self) -> LobbyLimits {
        self.limits
    }

    /// A socket of a client at `address` joins the lobby; `None` when the lobby has stopped.
    pub fn join(&self, address: IpAddr) -> Option<LobbySocket> {
        let id = self.next_socket.fetch_add(1, Ordering::Relaxed);
        let (out_tx, out) = mpsc::channel::<String>(SOCKET_FRAMES);
        self.tx.send(Msg::Join { socket: id, out: out_tx }).ok()?;
        let games = self.games.clone();
        Some(LobbySocket { id, address, tx: self.tx.clone(), seeks: self.seeks.clone(), games, out })
    }
}

/// One socket in the lobby. Dropping it leaves the lobby (its seeks are withdrawn).
pub struct LobbySocket {
    id: u64,
    address: IpAddr,
    tx: mpsc::UnboundedSender<Msg>,
    seeks: watch::Receiver<Arc<String>>,
    /// The games being played, as shown (their frame is made when sent: the clocks run).
    games: watch::Receiver<Arc<Vec<LiveGame>>>,
    /// Frames for this socket alone (`seeking`, `paired`, `error`).
    out: mpsc::Receiver<String>,
}

impl LobbySocket {
    /// The `seeks` frame now (the list as the socket should show it), marked as seen.
    pub fn seeks(&mut self) -> String {
        self.seeks.borrow_and_update().to_string()
    }

    /// The `games` frame now (the games being played, their clocks read now), marked as seen.
    pub fn games(&mut self) -> String {
        games_frame(&mut self.games)
    }

    /// The next frame to send: one for this socket alone (`seeking`, `paired`, `error`), or the
    /// seeks' or the games' list when it has changed; `None` once the lobby has stopped.
    /// Cancel-safe.
    pub async fn next_frame(&mut self) -> Option<String> {
        tokio::select! {
            changed = self.seeks.changed() => match changed {
                Ok(()) => Some(self.seeks.borrow_and_update().to_string()),
                Err(_) => None,
            },
            changed = self.games.changed() => match changed {
                Ok(()) => Some(games_frame(&mut self.games)),
                Err(_) => None,
            },
            Some(frame) = self.out.recv() => Some(frame),
        }
    }

    /// Hands a client's message to the lobby; returns the immediate answer, if any (`pong`).
    /// The other answers come through [`LobbySocket::next_frame`].
    pub fn send(&self, msg: ClientOut) -> Option<String> {
        if msg == ClientOut::Ping {
            return Some(ClientIn::Pong.frame());
        }
        let _ = self.tx.send(Msg::Client { socket: self.id, address: self.address, msg });
        None
    }
}

/// The `games` frame of the list in `games`, its clocks read now; the list marked as seen.
fn games_frame(games: &mut watch::Receiver<Arc<Vec<LiveGame>>>) -> String {
    let list = Arc::clone(&games.borrow_and_update());
    ClientIn::Games { games: &list, now_ms: wall_ms() }.frame()
}

impl Drop for LobbySocket {
    fn drop(&mut self) {
        let _ = self.tx.send(Msg::Leave { socket: self.id });
    }
}
