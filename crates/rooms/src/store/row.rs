//! A room as one row of SQL columns, shared by every SQL store (SQLite here, PostgreSQL in
//! `qi-rooms-cluster`): the mapping is written once.

use crate::clock::ClockSettings;
use crate::offers::Offers;
use crate::record::{ClockRecord, RoomRecord};
use xiangqi::Color;

/// The columns of the `rooms` table, in order, as plain SQL values.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs)] // each field is the column of the same name
pub struct RoomRow {
    pub id: String,
    pub red: String,
    pub black: String,
    pub start_fen: String,
    /// ICCS moves separated by spaces.
    pub moves: String,
    pub preset: i64,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub red_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub clock_running: Option<&'static str>,
    pub clock_at_ms: Option<i64>,
    pub outcome: String,
    pub reason: Option<String>,
    pub draw_offer: Option<&'static str>,
    pub takeback_offer: Option<&'static str>,
    pub rematch_offer: Option<&'static str>,
    pub next_room: Option<String>,
    pub version: i64,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// Milliseconds separated by spaces.
    pub move_clocks: String,
}

/// The column names of [`RoomRow`], in order, separated by commas.
pub const ROOM_COLUMNS: &str = "id, red, black, start_fen, moves, preset, clock_initial_ms, clock_increment_ms, \
    red_ms, black_ms, clock_running, clock_at_ms, outcome, reason, draw_offer, takeback_offer, rematch_offer, \
    next_room, version, created_ms, updated_ms, move_clocks";

/// A colour column's value (`red`, `black`: [`Color::from_name`]; anything else is none).
pub fn color_from(name: Option<&str>) -> Option<Color> {
    name.and_then(Color::from_name)
}

fn to_i64(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

fn to_u64(x: i64) -> u64 {
    u64::try_from(x).unwrap_or(0)
}

impl RoomRow {
    /// The row of `r`.
    pub fn from_record(r: &RoomRecord) -> RoomRow {
        let c = r.clock.as_ref();
        RoomRow {
            id: r.id.as_str().to_string(),
            red: r.seats[0].as_str().to_string(),
            black: r.seats[1].as_str().to_string(),
            start_fen: r.start_fen.clone(),
            moves: r.moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
            preset: r.preset as i64,
            clock_initial_ms: c.map(|c| to_i64(c.settings.initial_ms)),
            clock_increment_ms: c.map(|c| to_i64(c.settings.increment_ms)),
            red_ms: c.map(|c| to_i64(c.remaining_ms[0])),
            black_ms: c.map(|c| to_i64(c.remaining_ms[1])),
            clock_running: c.and_then(|c| c.running).map(Color::name),
            clock_at_ms: c.map(|c| c.at_ms),
            outcome: r.outcome.clone(),
            reason: r.reason.clone(),
            draw_offer: r.offers.draw.map(Color::name),
            takeback_offer: r.offers.takeback.map(Color::name),
            rematch_offer: r.offers.rematch.map(Color::name),
            next_room: r.next.as_ref().map(|n| n.as_str().to_string()),
            version: to_i64(r.version),
            created_ms: r.created_ms,
            updated_ms: r.updated_ms,
            move_clocks: r.move_clocks.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
        }
    }

    /// The record of the row.
    ///
    /// # Errors
    /// A message naming the room and the bad column.
    pub fn into_record(self) -> Result<RoomRecord, String> {
        let id = self.id;
        let moves = self
            .moves
            .split_ascii_whitespace()
            .map(|m| m.parse().map_err(|_| format!("room {id}: bad move {m:?}")))
            .collect::<Result<Vec<_>, _>>()?;
        let clock = match self.clock_initial_ms {
            None => None,
            Some(initial_ms) => Some(ClockRecord {
                settings: ClockSettings {
                    initial_ms: to_u64(initial_ms),
                    increment_ms: to_u64(self.clock_increment_ms.unwrap_or(0)),
                },
                remaining_ms: [to_u64(self.red_ms.unwrap_or(0)), to_u64(self.black_ms.unwrap_or(0))],
                running: color_from(self.clock_running),
                at_ms: self.clock_at_ms.unwrap_or(0),
            }),
        };
        Ok(RoomRecord {
            seats: [
                self.red.parse().map_err(|_| format!("room {id}: bad red token"))?,
                self.black.parse().map_err(|_| format!("room {id}: bad black token"))?,
            ],
            start_fen: self.start_fen,
            moves,
            preset: to_u64(self.preset) as usize,
            clock,
            outcome: self.outcome,
            reason: self.reason,
            offers: Offers {
                draw: color_from(self.draw_offer),
                takeback: color_from(self.takeback_offer),
                rematch: color_from(self.rematch_offer),
            },
            next: match self.next_room {
                None => None,
                Some(n) => Some(n.parse().map_err(|_| format!("room {id}: bad next room {n:?}"))?),
            },
            version: to_u64(self.version),
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            move_clocks: self.move_clocks.split_ascii_whitespace().filter_map(|m| m.parse().ok()).collect(),
            // Names are kept beside the row (each store says where).
            names: [None, None],
            // Kept beside the row too.
            public: false,
            id: id.parse().map_err(|_| format!("bad room id {id:?}"))?,
        })
    }
}

/// A column that holds a colour, read as text: one of the fixed names, so that [`RoomRow`] can
/// keep `&'static str`.
pub fn color_column(text: Option<String>) -> Option<&'static str> {
    color_from(text.as_deref()).map(Color::name)
}
