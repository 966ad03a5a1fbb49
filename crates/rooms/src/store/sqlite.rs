//! The SQLite room store: one row per room in a WAL-mode database file.

use super::{PrunePolicy, RoomStore, StoreError};
use crate::clock::ClockSettings;
use crate::id::RoomId;
use crate::offers::Offers;
use crate::record::{ClockRecord, RoomRecord};
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;
use xiangqi::Color;

/// How hard a commit tries to survive a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Each commit is on disk (fsync) before it returns: survives a power cut.
    Full,
    /// Each commit is in the operating system before it returns: survives the process being
    /// killed (SIGKILL, a crash), not a power cut of the machine. Much faster on slow disks.
    Process,
}

/// Rooms in a SQLite database (bundled SQLite, WAL journal). The connection holds an exclusive
/// lock, so a second server on the same folder fails at start-up instead of sharing rooms.
pub struct SqliteStore {
    conn: Connection,
}

const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    red TEXT NOT NULL,
    black TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    preset INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    red_ms INTEGER,
    black_ms INTEGER,
    clock_running TEXT,
    clock_at_ms INTEGER,
    outcome TEXT NOT NULL,
    reason TEXT,
    draw_offer TEXT,
    takeback_offer TEXT,
    rematch_offer TEXT,
    next_room TEXT,
    version INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    move_clocks TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_age ON rooms (outcome, updated_ms);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS room_names (id TEXT PRIMARY KEY, red TEXT, black TEXT) WITHOUT ROWID;
";

fn db(e: rusqlite::Error) -> StoreError {
    StoreError(e.to_string())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn color_from(name: Option<String>) -> Option<Color> {
    match name.as_deref() {
        Some("red") => Some(Color::Red),
        Some("black") => Some(Color::Black),
        _ => None,
    }
}

fn to_i64(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

fn to_u64(x: i64) -> u64 {
    u64::try_from(x).unwrap_or(0)
}

impl SqliteStore {
    /// Opens (or creates) `rooms.sqlite3` in `folder`, creating the folder if needed.
    ///
    /// # Errors
    /// When the folder or the database cannot be created, the file is not a Qi room database of
    /// a known version, or another server holds it.
    pub fn open(folder: &Path, durability: Durability) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(folder).map_err(|e| StoreError(format!("cannot create {}: {e}", folder.display())))?;
        let conn = Connection::open(folder.join("rooms.sqlite3")).map_err(db)?;
        SqliteStore::with_connection(conn, durability)
    }

    /// A store in memory (tests; nothing survives the process).
    ///
    /// # Errors
    /// When SQLite cannot set up the schema.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::with_connection(Connection::open_in_memory().map_err(db)?, Durability::Process)
    }

    fn with_connection(conn: Connection, durability: Durability) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(std::time::Duration::from_millis(0)).map_err(db)?;
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE").map_err(db)?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(db)?;
        if mode != "wal" && mode != "memory" {
            return Err(StoreError(format!("the database refused WAL mode ({mode})")));
        }
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Process => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync).map_err(db)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(db)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError(format!(
                "the database has schema version {version}; this qi knows {SCHEMA_VERSION}"
            )));
        }
        let busy = |e: &rusqlite::Error| {
            matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            )
        };
        conn.execute_batch(SCHEMA).map_err(|e| {
            if busy(&e) {
                StoreError(format!("{e} (is another qi serve using this data folder?)"))
            } else {
                StoreError(format!("not a Qi room database: {e}"))
            }
        })?;
        if version == 1 {
            // Version 2 keeps each move's clock.
            conn.execute_batch("ALTER TABLE rooms ADD COLUMN move_clocks TEXT NOT NULL DEFAULT ''").map_err(db)?;
        }
        // A table of the same name from something else: say so, rather than fail on first use.
        conn.prepare(
            "SELECT id, red, black, start_fen, moves, preset, clock_initial_ms, clock_increment_ms, red_ms, black_ms,
             clock_running, clock_at_ms, outcome, reason, draw_offer, takeback_offer, rematch_offer, next_room,
             version, created_ms, updated_ms, move_clocks FROM rooms LIMIT 0",
        )
        .map_err(|e| StoreError(format!("not a Qi room database: its rooms table does not have Qi's columns ({e})")))?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(db)?;
        Ok(SqliteStore { conn })
    }

    /// How many rooms are stored (finished or not).
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn count(&self) -> Result<usize, StoreError> {
        let n: i64 = self.conn.query_row("SELECT COUNT(*) FROM rooms", [], |r| r.get(0)).map_err(db)?;
        Ok(to_u64(n) as usize)
    }
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<Result<RoomRecord, String>> {
    let id: String = row.get("id")?;
    let red: String = row.get("red")?;
    let black: String = row.get("black")?;
    let moves: String = row.get("moves")?;
    let initial: Option<i64> = row.get("clock_initial_ms")?;
    let clock = match initial {
        None => None,
        Some(initial_ms) => Some(ClockRecord {
            settings: ClockSettings {
                initial_ms: to_u64(initial_ms),
                increment_ms: to_u64(row.get("clock_increment_ms")?),
            },
            remaining_ms: [to_u64(row.get("red_ms")?), to_u64(row.get("black_ms")?)],
            running: color_from(row.get("clock_running")?),
            at_ms: row.get("clock_at_ms")?,
        }),
    };
    let offers = Offers {
        draw: color_from(row.get("draw_offer")?),
        takeback: color_from(row.get("takeback_offer")?),
        rematch: color_from(row.get("rematch_offer")?),
    };
    let next: Option<String> = row.get("next_room")?;
    let outcome: String = row.get("outcome")?;
    let reason: Option<String> = row.get("reason")?;
    let preset: i64 = row.get("preset")?;
    let version: i64 = row.get("version")?;
    let created_ms: i64 = row.get("created_ms")?;
    let updated_ms: i64 = row.get("updated_ms")?;
    let start_fen: String = row.get("start_fen")?;
    let move_clocks: String = row.get("move_clocks")?;
    Ok((|| {
        let parsed_moves = moves
            .split_ascii_whitespace()
            .map(|m| m.parse().map_err(|_| format!("room {id}: bad move {m:?}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RoomRecord {
            id: id.parse().map_err(|_| format!("bad room id {id:?}"))?,
            seats: [
                red.parse().map_err(|_| format!("room {id}: bad red token"))?,
                black.parse().map_err(|_| format!("room {id}: bad black token"))?,
            ],
            start_fen,
            moves: parsed_moves,
            preset: to_u64(preset) as usize,
            clock,
            outcome,
            reason,
            offers,
            next: match next {
                None => None,
                Some(n) => Some(n.parse().map_err(|_| format!("room {id}: bad next room {n:?}"))?),
            },
            version: to_u64(version),
            created_ms,
            updated_ms,
            move_clocks: move_clocks.split_ascii_whitespace().filter_map(|m| m.parse().ok()).collect(),
            names: [None, None],
        })
    })())
}

impl RoomStore for SqliteStore {
    fn load(&mut self, id: &RoomId) -> Result<Option<RoomRecord>, StoreError> {
        let row = self
            .conn
            .prepare_cached("SELECT * FROM rooms WHERE id = ?1")
            .map_err(db)?
            .query_row([id.as_str()], read_row)
            .optional()
            .map_err(db)?;
        let mut record = row.transpose().map_err(StoreError)?;
        if let Some(r) = &mut record {
            // The players' names, for the rooms that have any (a table of their own).
            let names: Option<(Option<String>, Option<String>)> = self
                .conn
                .prepare_cached("SELECT red, black FROM room_names WHERE id = ?1")
                .map_err(db)?
                .query_row([id.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
                .map_err(db)?;
            if let Some((red, black)) = names {
                r.names = [red, black];
            }
        }
        Ok(record)
    }

    fn save(&mut self, records: &[RoomRecord]) -> Result<(), StoreError> {
        let tx = self.conn.transaction().map_err(db)?;
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO rooms (id, red, black, start_fen, moves, preset, clock_initial_ms,
                     clock_increment_ms, red_ms, black_ms, clock_running, clock_at_ms, outcome, reason, draw_offer,
                     takeback_offer, rematch_offer, next_room, version, created_ms, updated_ms, move_clocks)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
                )
                .map_err(db)?;
            for r in records {
                let moves = r.moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
                let c = r.clock.as_ref();
                insert
                    .execute(params![
                        r.id.as_str(),
                        r.seats[0].as_str(),
                        r.seats[1].as_str(),
                        r.start_fen,
                        moves,
                        r.preset as i64,
                        c.map(|c| to_i64(c.settings.initial_ms)),
                        c.map(|c| to_i64(c.settings.increment_ms)),
                        c.map(|c| to_i64(c.remaining_ms[0])),
                        c.map(|c| to_i64(c.remaining_ms[1])),
                        c.and_then(|c| c.running).map(color_name),
                        c.map(|c| c.at_ms),
                        r.outcome,
                        r.reason,
                        r.offers.draw.map(color_name),
                        r.offers.takeback.map(color_name),
                        r.offers.rematch.map(color_name),
                        r.next.as_ref().map(RoomId::as_str),
                        to_i64(r.version),
                        r.created_ms,
                        r.updated_ms,
                        r.move_clocks.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
                    ])
                    .map_err(db)?;
            }
            let mut names = tx
                .prepare_cached("INSERT OR REPLACE INTO room_names (id, red, black) VALUES (?1, ?2, ?3)")
                .map_err(db)?;
            for r in records.iter().filter(|r| r.names.iter().any(Option::is_some)) {
                names.execute(params![r.id.as_str(), r.names[0], r.names[1]]).map_err(db)?;
            }
        }
        tx.commit().map_err(db)
    }

    fn mark_alive(&mut self, wall_ms: i64) -> Result<(), StoreError> {
        self.conn
            .prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES ('alive_ms', ?1)")
            .map_err(db)?
            .execute([wall_ms])
            .map_err(db)?;
        Ok(())
    }

    fn resume(&mut self, wall_ms: i64) -> Result<i64, StoreError> {
        let alive: Option<i64> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'alive_ms'", [], |r| r.get(0))
            .optional()
            .map_err(db)?;
        let downtime = alive.map_or(0, |a| (wall_ms - a).max(0));
        if let Some(alive) = alive {
            // Charged before the stop: alive - at (if positive); after: from now on.
            self.conn
                .execute(
                    "UPDATE rooms SET clock_at_ms = MIN(?1, clock_at_ms + ?1 - ?2)
                     WHERE outcome = 'ongoing' AND clock_running IS NOT NULL",
                    params![wall_ms, alive],
                )
                .map_err(db)?;
        }
        self.mark_alive(wall_ms)?;
        Ok(downtime)
    }

    fn prune(&mut self, policy: &PrunePolicy, wall_ms: i64) -> Result<usize, StoreError> {
        let finished = wall_ms - i64::try_from(policy.finished.as_millis()).unwrap_or(i64::MAX / 2);
        let abandoned = wall_ms - i64::try_from(policy.abandoned.as_millis()).unwrap_or(i64::MAX / 2);
        let pruned = self
            .conn
            .execute(
                "DELETE FROM rooms WHERE (outcome != 'ongoing' AND updated_ms < ?1)
                 OR (outcome = 'ongoing' AND updated_ms < ?2)",
                params![finished, abandoned],
            )
            .map_err(db)?;
        if pruned > 0 {
            self.conn.execute("DELETE FROM room_names WHERE id NOT IN (SELECT id FROM rooms)", []).map_err(db)?;
        }
        Ok(pruned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::{Room, RoomSpec};
    use tokio::time::Instant;

    fn record(clock: bool, wall_ms: i64) -> RoomRecord {
        let now = Instant::now();
        let settings = clock.then_some(ClockSettings { initial_ms: 60_000, increment_ms: 0 });
        let spec = RoomSpec::parse(None, &["h2e2".into()], settings).unwrap();
        let mut record = Room::new(spec, wall_ms, now).to_record(now, wall_ms);
        if let Some(c) = &mut record.clock {
            c.running = Some(Color::Black);
        }
        record
    }

    #[test]
    fn a_saved_room_reads_back_the_same_after_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = record(true, 1_000);
        r.names = [Some("Ann \"the rook\"".into()), None];
        {
            let mut store = SqliteStore::open(dir.path(), Durability::Full).unwrap();
            store.save(std::slice::from_ref(&r)).unwrap();
        }
        let mut store = SqliteStore::open(dir.path(), Durability::Full).unwrap();
        assert_eq!(store.load(&r.id).unwrap(), Some(r));
        assert_eq!(store.load(&RoomId::random()).unwrap(), None);
    }

    #[test]
    fn a_second_server_cannot_share_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let _first = SqliteStore::open(dir.path(), Durability::Process).unwrap();
        assert!(SqliteStore::open(dir.path(), Durability::Process).is_err());
    }

    #[test]
    fn downtime_is_not_charged() {
        let mut store = SqliteStore::in_memory().unwrap();
        let r = record(true, 10_000);
        store.save(std::slice::from_ref(&r)).unwrap();
        // Alive until 13 s (3 s of thinking), then down until 100 s.
        store.mark_alive(13_000).unwrap();
        assert_eq!(store.resume(100_000).unwrap(), 87_000);
        let back = store.load(&r.id).unwrap().unwrap();
        // At 100 s only the 3 s before the stop count.
        assert_eq!(back.clock.unwrap().at_ms, 97_000);
    }

    #[test]
    fn pruning_follows_the_policy() {
        let mut store = SqliteStore::in_memory().unwrap();
        let day = 24 * 3600 * 1000;
        let mut old_finished = record(false, 0);
        old_finished.outcome = "draw".into();
        old_finished.reason = Some("agreement".into());
        let old_ongoing = record(false, 0);
        let recent = record(false, 20 * day);
        store.save(&[old_finished.clone(), old_ongoing.clone(), recent.clone()]).unwrap();
        assert_eq!(store.prune(&PrunePolicy::default(), 25 * day).unwrap(), 1);
        assert!(store.load(&old_finished.id).unwrap().is_none());
        assert!(store.load(&old_ongoing.id).unwrap().is_some());
        assert_eq!(store.prune(&PrunePolicy::default(), 31 * day).unwrap(), 1);
        assert!(store.load(&recent.id).unwrap().is_some());
    }
}
