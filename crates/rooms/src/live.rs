//! The games being played now that their players left public ([`LiveGame`]), as the lobby
//! lists them under "Games being played": the players' names, the clocks and the number of
//! spectators.
//!
//! A room's task announces its game when it starts to be listed, when what the list shows
//! changes (a move, a spectator more or less; at most once per [`ANNOUNCE_EVERY`]), and at once
//! when it stops being listed (the game ended, the players left, a player made it private).
//! With one server the hub keeps the list; with several it lives in the broker (see
//! [`crate::Bus::announce_game`]), so that every instance lists the games of all, and the games
//! of an instance that stopped go with its lobby's heartbeat.
//!
//! ```
//! use qi_rooms::{LiveGame, Presence, Room, RoomSpec};
//! let now = tokio::time::Instant::now();
//! let mut spec = RoomSpec::standard(None);
//! spec.public = true;
//! let room = Room::new(spec, 0, now);
//! // Listed once a player is there.
//! assert!(LiveGame::of(&room, Presence::default(), "solo", now, 0).is_none());
//! let game = LiveGame::of(&room, Presence { seats: [1, 0], watchers: 2 }, "solo", now, 0).unwrap();
//! assert_eq!(game.spectators, 2);
//! ```

use crate::id::RoomId;
use crate::room::Room;
use crate::view::Presence;
use crate::wire::InstanceId;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::time::Instant;
use xiangqi::Color;

/// The most games the lobby shows (those with the most spectators first).
pub const MAX_LIVE_SHOWN: usize = 50;

/// A room announces a change of its listing at most this often (its end at once).
pub const ANNOUNCE_EVERY: Duration = Duration::from_secs(1);

/// A listed game's clock, read at `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveClock {
    /// The time control: initial milliseconds.
    pub initial_ms: u64,
    /// The time control: milliseconds added after each move.
    pub increment_ms: u64,
    /// Remaining milliseconds, red first, at `at_ms`.
    pub remaining_ms: [u64; 2],
    /// The side whose time runs (`red`, `black`), if any.
    pub running: Option<String>,
    /// Wall time of the reading, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl LiveClock {
    /// The remaining milliseconds at wall time `now_ms`, red first: the running side's time
    /// goes on from the reading.
    pub fn remaining_at(&self, now_ms: i64) -> [u64; 2] {
        let mut left = self.remaining_ms;
        if let Some(side) = self.running.as_deref().and_then(Color::from_name) {
            let elapsed = u64::try_from(now_ms.saturating_sub(self.at_ms)).unwrap_or(0);
            left[side.index()] = left[side.index()].saturating_sub(elapsed);
        }
        left
    }
}

/// One game listed in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    /// The room (watched at `/xq?room=…`).
    pub room: RoomId,
    /// The instance hosting the room (with several servers: its games go when it stops).
    pub instance: InstanceId,
    /// The players' names, red first, if they gave one.
    pub names: [Option<String>; 2],
    /// The clock; none for an untimed game.
    pub clock: Option<LiveClock>,
    /// Moves played.
    pub plies: usize,
    /// Sockets watching that are not a seated player's.
    pub spectators: u32,
    /// When the room was made (wall milliseconds): of games with as many spectators, the
    /// older is shown first.
    pub created_ms: i64,
}

impl LiveGame {
    /// The listing of `room`, hosted by `instance` with `presence` connected, at `now` (wall
    /// time `wall_ms`); none unless it is public, goes on, and a player is there.
    pub fn of(room: &Room, presence: Presence, instance: &str, now: Instant, wall_ms: i64) -> Option<LiveGame> {
        let seated = presence.seats.iter().any(|&n| n > 0);
        if !room.public() || room.status().is_over() || !seated {
            return None;
        }
        let [red, black] = room.names();
        Some(LiveGame {
            room: room.id().clone(),
            instance: instance.to_string(),
            names: [red.map(str::to_string), black.map(str::to_string)],
            clock: room.clock().map(|c| LiveClock {
                initial_ms: c.settings().initial_ms,
                increment_ms: c.settings().increment_ms,
                remaining_ms: c.remaining_both(now),
                running: c.ticking(now).map(|side| side.name().to_string()),
                at_ms: wall_ms,
            }),
            plies: room.game().moves().len(),
            spectators: presence.watchers,
            created_ms: room.created_ms(),
        })
    }

    /// Whether the list would show `self` otherwise than `before` (a clock that merely ran on
    /// is no change: the page runs it).
    pub fn differs_from(&self, before: &LiveGame) -> bool {
        let running = |g: &LiveGame| g.clock.as_ref().map(|c| c.running.clone());
        self.room != before.room
            || self.instance != before.instance
            || self.names != before.names
            || self.plies != before.plies
            || self.spectators != before.spectators
            || running(self) != running(before)
    }

    /// The games as the lobby shows them: the most watched first (then the oldest), at most
    /// [`MAX_LIVE_SHOWN`].
    pub fn shown(mut games: Vec<LiveGame>) -> Vec<LiveGame> {
        games.sort_by(|a, b| {
            (b.spectators, a.created_ms, a.room.as_str()).cmp(&(a.spectators, b.created_ms, b.room.as_str()))
        });
        games.truncate(MAX_LIVE_SHOWN);
        games
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockSettings;
    use crate::command::Command;
    use crate::room::RoomSpec;

    fn public_room(clock: Option<ClockSettings>) -> Room {
        let mut spec = RoomSpec::standard(clock);
        spec.public = true;
        Room::new(spec, 0, Instant::now())
    }

    const PLAYING: Presence = Presence { seats: [1, 1], watchers: 0 };

    #[test]
    fn only_public_games_going_on_with_a_player_are_listed() {
        let now = Instant::now();
        let friend = Room::new(RoomSpec::standard(None), 0, now);
        assert!(LiveGame::of(&friend, PLAYING, "a", now, 0).is_none(), "a friend room is private by default");
        let mut room = public_room(None);
        assert!(LiveGame::of(&room, PLAYING, "a", now, 0).is_some());
        assert!(LiveGame::of(&room, Presence { seats: [0, 0], watchers: 3 }, "a", now, 0).is_none(), "nobody plays");
        room.apply(Some(Color::Black), Command::Public(false), now).unwrap();
        assert!(LiveGame::of(&room, PLAYING, "a", now, 0).is_none(), "made private");
        room.apply(Some(Color::Red), Command::Public(true), now).unwrap();
        room.apply(Some(Color::Red), Command::Resign, now).unwrap();
        assert!(LiveGame::of(&room, PLAYING, "a", now, 0).is_none(), "over");
    }

    #[test]
    fn a_listing_changes_with_moves_and_spectators_not_with_time() {
        let now = Instant::now();
        let mut room = public_room(Some(ClockSettings::from_seconds(60, 0).unwrap()));
        // The clock runs once both sides have moved.
        room.apply(Some(Color::Red), Command::Move { ply: 0, mv: "h2e2".parse().unwrap() }, now).unwrap();
        room.apply(Some(Color::Black), Command::Move { ply: 1, mv: "h9g7".parse().unwrap() }, now).unwrap();
        let first = LiveGame::of(&room, PLAYING, "a", now, 1_000).unwrap();
        let later = LiveGame::of(&room, PLAYING, "a", now + Duration::from_secs(2), 3_000).unwrap();
        assert!(!later.differs_from(&first), "the clock ran on");
        let clock = later.clock.as_ref().unwrap();
        assert_eq!(clock.running.as_deref(), Some("red"));
        assert_eq!(clock.remaining_at(4_000)[0] + 1_000, clock.remaining_ms[0]);
        assert_eq!(clock.remaining_at(4_000)[1], clock.remaining_ms[1], "black's time stands");
        let watched = LiveGame::of(&room, Presence { seats: [1, 1], watchers: 1 }, "a", now, 1_000).unwrap();
        assert!(watched.differs_from(&first));
        room.apply(Some(Color::Red), Command::Move { ply: 2, mv: "h0g2".parse().unwrap() }, now).unwrap();
        assert!(LiveGame::of(&room, PLAYING, "a", now, 1_000).unwrap().differs_from(&first));
    }

    #[test]
    fn the_list_shows_the_most_watched_first_and_is_bounded() {
        let now = Instant::now();
        let games: Vec<LiveGame> = (0..MAX_LIVE_SHOWN as u32 + 10)
            .map(|i| {
                let presence = Presence { seats: [1, 1], watchers: i % 7 };
                LiveGame::of(&public_room(None), presence, "a", now, 0).unwrap()
            })
            .collect();
        let shown = LiveGame::shown(games);
        assert_eq!(shown.len(), MAX_LIVE_SHOWN);
        assert_eq!(shown[0].spectators, 6);
        assert!(shown.windows(2).all(|w| w[0].spectators >= w[1].spectators));
    }
}
