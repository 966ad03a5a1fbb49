#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod bus;
mod chat;
mod clock;
mod colour;
mod command;
mod fanout;
mod hub;
mod id;
mod live;
pub mod lobby;
mod names;
mod offers;
mod pgn;
pub mod protocol;
mod rate;
mod record;
mod room;
mod seek;
mod shown;
mod status;
pub mod store;
mod view;
pub mod wire;

pub use bus::{Bus, BusError, BusFuture, Incoming, Lease, LEASE};
pub use chat::{Chat, ChatError, ChatLine, CHAT_HISTORY, MAX_CHAT_CHARS};
pub use clock::{Clock, ClockSettings, MAX_INCREMENT_MS, MAX_INITIAL_MS};
pub use command::{Answer, Command, Refusal};
pub use fanout::Fanout;
pub use hub::{Created, Hub, HubError, Joined, Limits, Reply, PRESENCE_EVERY, PRESENCE_TTL};
pub use id::{BadId, RoomId, SeatToken};
pub use live::{LiveClock, LiveGame, ANNOUNCE_EVERY, MAX_LIVE_SHOWN};
pub use lobby::{Lobby, LobbyLimits, LobbySocket};
pub use names::{clean_name, MAX_NAME_CHARS};
pub use offers::Offers;
pub use pgn::{result_tag, room_pgn, room_pgn_named, termination};
pub use rate::TokenBucket;
pub use record::{wall_ms, ClockRecord, RoomRecord};
pub use room::{Applied, Room, RoomSpec, SpecError, CLAIM_AFTER, FIRST_MOVE_WAIT, FIRST_MOVE_WAIT_ALONE, MAX_PLIES};
pub use seek::{LobbyEvent, SeekColour, SeekPosted, WireSeek};
pub use shown::is_hidden;
pub use status::{EndReason, RoomStatus};
pub use store::{
    backup, BackupSummary, Claimed, Durability, MemoryControl, MemoryStore, PrunePolicy, RoomStore, Save, SaveError,
    SqliteStore, StoreError, StoreHandle, DATABASE_FILE, LOCK_FILE,
};
pub use view::{share_path, state_frames, Presence, StateFrames};
