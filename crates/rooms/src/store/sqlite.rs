//! The SQLite room store: one row per room in a WAL-mode database file.

use super::jobs::{commit_jobs, JobWriter};
use super::row::{color_column, RoomRow, ROOM_COLUMNS};
use super::{Claimed, PrunePolicy, RoomStore, Save, SaveError, StoreError};
use crate::id::RoomId;
use crate::record::RoomRecord;
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::path::Path;

/// How hard a commit tries to survive a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Each commit is on disk (fsync) before it returns: survives a power cut.
    Full,
    /// Each commit is in the operating system before it returns: survives the process being
    /// killed (SIGKILL, a crash), not a power cut of the machine. Much faster on slow disks.
    Process,
}

/// Rooms in a SQLite database (bundled SQLite, WAL journal). The store holds an exclusive lock
/// on `rooms.lock` beside the database, so a second server on the same folder fails at start-up
/// instead of sharing rooms, while readers (`qi backup`) may still open the database itself.
pub struct SqliteStore {
    conn: Connection,
    /// The folder's lock, held for as long as the store is open (`None` in memory).
    _lock: Option<std::fs::File>,
    /// The server this process is (from [`RoomStore::mark_alive`]): a room it makes is its own,
    /// so that a later process's claim knows the room was hosted before.
    owner: Option<String>,
}

/// The database's file name in a data folder.
pub const DATABASE_FILE: &str = "rooms.sqlite3";

/// The file a server locks in its data folder (an advisory lock, released when it exits).
pub const LOCK_FILE: &str = "rooms.lock";

const SCHEMA_VERSION: i64 = 3;

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
    move_clocks TEXT NOT NULL DEFAULT '',
    fence INTEGER NOT NULL DEFAULT 0,
    owner TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_age ON rooms (outcome, updated_ms);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS room_names (id TEXT PRIMARY KEY, red TEXT, black TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS public_rooms (id TEXT PRIMARY KEY) WITHOUT ROWID;
";

fn db(e: rusqlite::Error) -> StoreError {
    StoreError(e.to_string())
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
        let lock = lock_folder(folder)?;
        let conn = Connection::open(folder.join(DATABASE_FILE)).map_err(db)?;
        SqliteStore::with_connection(conn, durability, Some(lock))
    }

    /// A store in memory (tests; nothing survives the process).
    ///
    /// # Errors
    /// When SQLite cannot set up the schema.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::with_connection(Connection::open_in_memory().map_err(db)?, Durability::Process, None)
    }

    fn with_connection(
        conn: Connection,
        durability: Durability,
        lock: Option<std::fs::File>,
    ) -> Result<SqliteStore, StoreError> {
        // A reader (a backup) never blocks a WAL writer; the short wait covers the moment a
        // reader's connection opens the shared-memory index.
        conn.busy_timeout(std::time::Duration::from_millis(1000)).map_err(db)?;
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
        if (1..3).contains(&version) {
            // Version 3 fences writes (see `RoomStore::commit`).
            conn.execute_batch(
                "ALTER TABLE rooms ADD COLUMN fence INTEGER NOT NULL DEFAULT 0; ALTER TABLE rooms ADD COLUMN owner TEXT",
            )
            .map_err(db)?;
        }
        // A table of the same name from something else: say so, rather than fail on first use.
        conn.prepare(&format!("SELECT {ROOM_COLUMNS}, fence, owner FROM rooms LIMIT 0")).map_err(|e| {
            StoreError(format!("not a Qi room database: its rooms table does not have Qi's columns ({e})"))
        })?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(db)?;
        Ok(SqliteStore { conn, _lock: lock, owner: None })
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

/// Takes the folder's lock, or says that another server holds it.
fn lock_folder(folder: &Path) -> Result<std::fs::File, StoreError> {
    let path = folder.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| StoreError(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(StoreError(format!("{} is locked (is another qi serve using this data folder?)", path.display())))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError(format!("cannot lock {}: {e}", path.display()))),
    }
}

fn read_row(row: &Row<'_>) -> rusqlite::Result<Result<RoomRecord, String>> {
    let text = |name: &str| -> rusqlite::Result<Option<String>> { row.get(name) };
    let room = RoomRow {
        id: row.get("id")?,
        red: row.get("red")?,
        black: row.get("black")?,
        start_fen: row.get("start_fen")?,
        moves: row.get("moves")?,
        preset: row.get("preset")?,
        clock_initial_ms: row.get("clock_initial_ms")?,
        clock_increment_ms: row.get("clock_increment_ms")?,
        red_ms: row.get("red_ms")?,
        black_ms: row.get("black_ms")?,
        clock_running: color_column(text("clock_running")?),
        clock_at_ms: row.get("clock_at_ms")?,
        outcome: row.get("outcome")?,
        reason: row.get("reason")?,
        draw_offer: color_column(text("draw_offer")?),
        takeback_offer: color_column(text("takeback_offer")?),
        rematch_offer: color_column(text("rematch_offer")?),
        next_room: row.get("next_room")?,
        version: row.get("version")?,
        created_ms: row.get("created_ms")?,
        updated_ms: row.get("updated_ms")?,
        move_clocks: row.get("move_clocks")?,
    };
    Ok(room.into_record())
}

/// Writes one save; `false` when the row is not where the save says it follows from.
fn write_row(conn: &Connection, save: &Save, owner: Option<&str>) -> rusqlite::Result<bool> {
    let r = RoomRow::from_record(&save.record);
    let values = params![
        r.id,
        r.red,
        r.black,
        r.start_fen,
        r.moves,
        r.preset,
        r.clock_initial_ms,
        r.clock_increment_ms,
        r.red_ms,
        r.black_ms,
        r.clock_running,
        r.clock_at_ms,
        r.outcome,
        r.reason,
        r.draw_offer,
        r.takeback_offer,
        r.rematch_offer,
        r.next_room,
        r.version,
        r.created_ms,
        r.updated_ms,
        r.move_clocks,
        i64::try_from(save.fence).unwrap_or(i64::MAX),
        save.follows.map(|v| i64::try_from(v).unwrap_or(i64::MAX)),
    ];
    let changed = match save.follows {
        None => conn
            .prepare_cached(&format!(
                "INSERT INTO rooms ({ROOM_COLUMNS}, fence, owner)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
                 ON CONFLICT (id) DO NOTHING"
            ))?
            .execute(rusqlite::params_from_iter(values[..23].iter().copied().chain([&owner as &dyn rusqlite::ToSql])))?,
        Some(_) => conn
            .prepare_cached(
                "UPDATE rooms SET red = ?2, black = ?3, start_fen = ?4, moves = ?5, preset = ?6,
                 clock_initial_ms = ?7, clock_increment_ms = ?8, red_ms = ?9, black_ms = ?10, clock_running = ?11,
                 clock_at_ms = ?12, outcome = ?13, reason = ?14, draw_offer = ?15, takeback_offer = ?16,
                 rematch_offer = ?17, next_room = ?18, version = ?19, created_ms = ?20, updated_ms = ?21,
                 move_clocks = ?22
                 WHERE id = ?1 AND fence = ?23 AND version = ?24",
            )?
            .execute(values)?,
    };
    Ok(changed == 1)
}

/// The players' names, for the rooms that have any (a table of their own).
fn write_names(conn: &Connection, r: &RoomRecord) -> rusqlite::Result<()> {
    if r.names.iter().any(Option::is_some) {
        conn.prepare_cached("INSERT OR REPLACE INTO room_names (id, red, black) VALUES (?1, ?2, ?3)")?
            .execute(params![r.id.as_str(), r.names[0], r.names[1]])?;
    }
    Ok(())
}

/// Whether the room is listed for spectators: the public rooms' ids, a table of their own (as
/// the names, so that older databases need no migration).
fn write_public(conn: &Connection, r: &RoomRecord) -> rusqlite::Result<()> {
    let sql = if r.public {
        "INSERT OR IGNORE INTO public_rooms (id) VALUES (?1)"
    } else {
        "DELETE FROM public_rooms WHERE id = ?1"
    };
    conn.prepare_cached(sql)?.execute([r.id.as_str()])?;
    Ok(())
}

/// A transaction as the shared commit loop writes through it.
struct Jobs<'a>(&'a Connection, Option<&'a str>);

impl JobWriter for Jobs<'_> {
    type Error = rusqlite::Error;

    fn batch(&mut self, sql: &str) -> rusqlite::Result<()> {
        self.0.execute_batch(sql)
    }

    fn write(&mut self, save: &Save) -> rusqlite::Result<bool> {
        if !write_row(self.0, save, self.1)? {
            return Ok(false);
        }
        write_names(self.0, &save.record)?;
        write_public(self.0, &save.record)?;
        Ok(true)
    }
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
            r.public = self
                .conn
                .prepare_cached("SELECT 1 FROM public_rooms WHERE id = ?1")
                .map_err(db)?
                .exists([id.as_str()])
                .map_err(db)?;
        }
        Ok(record)
    }

    fn claim(&mut self, id: &RoomId, owner: &str, _wall_ms: i64) -> Result<Option<Claimed>, StoreError> {
        // One server owns the whole file: its downtime was settled by `resume` at start-up.
        let previous: Option<Option<String>> = self
            .conn
            .prepare_cached("SELECT owner FROM rooms WHERE id = ?1")
            .map_err(db)?
            .query_row([id.as_str()], |r| r.get(0))
            .optional()
            .map_err(db)?;
        let interrupted = previous.flatten().is_some_and(|p| p != owner);
        let fence: Option<i64> = self
            .conn
            .prepare_cached("UPDATE rooms SET fence = fence + 1, owner = ?2 WHERE id = ?1 RETURNING fence")
            .map_err(db)?
            .query_row(params![id.as_str(), owner], |r| r.get(0))
            .optional()
            .map_err(db)?;
        let Some(fence) = fence else { return Ok(None) };
        Ok(self.load(id)?.map(|record| Claimed { record, fence: to_u64(fence), interrupted }))
    }

    fn commit(&mut self, jobs: &[Vec<Save>]) -> Result<Vec<Result<(), SaveError>>, StoreError> {
        let tx = self.conn.transaction().map_err(db)?;
        let results = commit_jobs(&mut Jobs(&tx, self.owner.as_deref()), jobs).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(results)
    }

    fn mark_alive(&mut self, owner: &str, wall_ms: i64) -> Result<(), StoreError> {
        if !owner.is_empty() {
            self.owner = Some(owner.to_string());
        }
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
        self.mark_alive("", wall_ms)?;
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
            self.conn.execute("DELETE FROM public_rooms WHERE id NOT IN (SELECT id FROM rooms)", []).map_err(db)?;
        }
        Ok(pruned)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::clock::ClockSettings;
    use crate::room::{Room, RoomSpec};
    use tokio::time::Instant;
    use xiangqi::Color;

    pub(crate) fn record(clock: bool, wall_ms: i64) -> RoomRecord {
        let now = Instant::now();
        let settings = clock.then_some(ClockSettings { initial_ms: 60_000, increment_ms: 0 });
        let spec = RoomSpec::parse(None, &["h2e2".into()], settings).unwrap();
        let mut record = Room::new(spec, wall_ms, now).to_record(now, wall_ms);
        if let Some(c) = &mut record.clock {
            c.running = Some(Color::Black);
        }
        record
    }

    fn save_new(store: &mut SqliteStore, records: &[RoomRecord]) {
        let job: Vec<Save> = records.iter().map(|r| Save { record: r.clone(), follows: None, fence: 0 }).collect();
        assert_eq!(store.commit(&[job]).unwrap(), vec![Ok(())]);
    }

    #[test]
    fn a_write_that_does_not_follow_the_stored_row_is_refused_alone() {
        let mut store = SqliteStore::in_memory().unwrap();
        let (a, b) = (record(false, 1_000), record(false, 1_000));
        save_new(&mut store, &[a.clone(), b.clone()]);
        // A second insert of the same id is a conflict, not an overwrite.
        assert_eq!(
            store.commit(&[vec![Save { record: a.clone(), follows: None, fence: 0 }]]).unwrap(),
            vec![Err(SaveError::Conflict(a.id.clone()))]
        );
        let mut newer = a.clone();
        newer.version += 1;
        let next = Save { record: newer.clone(), follows: Some(a.version), fence: 0 };
        // A claim raises the fence: the old owner's write fails, the new owner's goes through,
        // and in one commit the conflict undoes only its own job.
        let claimed = store.claim(&a.id, "new", 0).unwrap().unwrap();
        assert_eq!(claimed.fence, 1);
        let mut b2 = b.clone();
        b2.version += 1;
        let results = store
            .commit(&[vec![next.clone()], vec![Save { record: b2.clone(), follows: Some(b.version), fence: 0 }]])
            .unwrap();
        assert_eq!(results, vec![Err(SaveError::Conflict(a.id.clone())), Ok(())]);
        assert_eq!(store.load(&a.id).unwrap(), Some(a.clone()));
        assert_eq!(store.load(&b.id).unwrap(), Some(b2));
        let fenced = Save { fence: 1, ..next };
        assert_eq!(store.commit(&[vec![fenced.clone()]]).unwrap(), vec![Ok(())]);
        assert_eq!(store.load(&a.id).unwrap(), Some(newer));
        // The same write again does not follow the row any more.
        assert_eq!(store.commit(&[vec![fenced]]).unwrap(), vec![Err(SaveError::Conflict(a.id.clone()))]);
        assert!(store.claim(&RoomId::random(), "x", 0).unwrap().is_none());
    }

    #[test]
    fn a_version_2_database_is_migrated() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join("rooms.sqlite3")).unwrap();
            let v2 = SCHEMA.replace(",\n    fence INTEGER NOT NULL DEFAULT 0,\n    owner TEXT", "");
            assert_ne!(v2, SCHEMA);
            conn.execute_batch(&v2).unwrap();
            conn.pragma_update(None, "user_version", 2).unwrap();
        }
        let mut store = SqliteStore::open(dir.path(), Durability::Process).unwrap();
        let r = record(false, 5);
        save_new(&mut store, std::slice::from_ref(&r));
        assert_eq!(store.claim(&r.id, "a", 0).unwrap().unwrap().fence, 1);
    }

    #[test]
    fn a_saved_room_reads_back_the_same_after_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = record(true, 1_000);
        r.names = [Some("Ann \"the rook\"".into()), None];
        r.public = true;
        let private = record(false, 1_000);
        {
            let mut store = SqliteStore::open(dir.path(), Durability::Full).unwrap();
            save_new(&mut store, &[r.clone(), private.clone()]);
        }
        let mut store = SqliteStore::open(dir.path(), Durability::Full).unwrap();
        assert_eq!(store.load(&r.id).unwrap(), Some(r.clone()));
        assert_eq!(store.load(&private.id).unwrap(), Some(private));
        // Made private again: saved as such.
        let mut hidden = r.clone();
        hidden.public = false;
        hidden.version += 1;
        let save = Save { record: hidden.clone(), follows: Some(r.version), fence: 0 };
        assert_eq!(store.commit(&[vec![save]]).unwrap(), vec![Ok(())]);
        assert_eq!(store.load(&r.id).unwrap(), Some(hidden));
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
        save_new(&mut store, std::slice::from_ref(&r));
        // Alive until 13 s (3 s of thinking), then down until 100 s.
        store.mark_alive("", 13_000).unwrap();
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
        save_new(&mut store, &[old_finished.clone(), old_ongoing.clone(), recent.clone()]);
        assert_eq!(store.prune(&PrunePolicy::default(), 25 * day).unwrap(), 1);
        assert!(store.load(&old_finished.id).unwrap().is_none());
        assert!(store.load(&old_ongoing.id).unwrap().is_some());
        assert_eq!(store.prune(&PrunePolicy::default(), 31 * day).unwrap(), 1);
        assert!(store.load(&recent.id).unwrap().is_some());
    }
}
