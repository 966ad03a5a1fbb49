//! A pairing: the room made for an accepted seek, and both players told where to go (the
//! maker perhaps on another instance, through the bus).

use super::client_in::ClientIn;
use crate::bus::Bus;
use crate::hub::Hub;
use crate::room::RoomSpec;
use crate::seek::{LobbyEvent, SeekColour, WireSeek};
use std::sync::Arc;
use tokio::sync::mpsc;

/// A socket told of its pairing: on this instance, or on another through the bus.
pub(super) enum Tell {
    /// A socket of this instance (none once it has left).
    Local(Option<mpsc::Sender<String>>),
    /// The bus, the maker's instance, the seek and the maker's socket.
    Remote(Arc<dyn Bus>, String, String, u64),
}

impl Tell {
    async fn send(&self, frame: String) {
        match self {
            Tell::Local(out) => {
                if let Some(out) = out {
                    let _ = out.try_send(frame);
                }
            }
            Tell::Remote(bus, instance, seek, socket) => {
                let event = LobbyEvent::Paired { seek: seek.clone(), socket: *socket, frame };
                let _ = bus.tell_lobby(instance, &event).await;
            }
        }
    }
}

/// Makes the room for `seek` and tells its maker and taker (`tells`, in that order) their seats.
pub(super) async fn pair(hub: Hub, tells: [Tell; 2], seek: WireSeek) {
    // Lobby games are listed for spectators unless a player says otherwise.
    let spec = RoomSpec { public: true, ..RoomSpec::standard(seek.clock()) };
    let created = match hub.create(spec).await {
        Ok(c) => c,
        Err(e) => {
            let text = ClientIn::Error(&e.to_string()).frame();
            for tell in &tells {
                tell.send(text.clone()).await;
            }
            return;
        }
    };
    let maker_red = match seek.colour {
        SeekColour::Red => true,
        SeekColour::Black => false,
        // The room id is random: its last character decides.
        SeekColour::Random => created.id.as_str().bytes().last().is_some_and(|b| b & 1 == 0),
    };
    let room = created.id.as_str();
    let [red, black] = &created.seats;
    let frame = |colour: &str, token: &str| ClientIn::Paired { room, colour, token }.frame();
    let (maker, other) =
        if maker_red { (frame("red", red), frame("black", black)) } else { (frame("black", black), frame("red", red)) };
    for (tell, text) in tells.iter().zip([maker, other]) {
        tell.send(text).await;
    }
}
