//! The [`RoomStore`] in PostgreSQL, shared by every instance.
//!
//! The schema is versioned (`qi_schema`) and migrated at start-up under an advisory lock, so
//! instances starting together do not race. Rooms have the columns of [`RoomRow`] plus
//! `fence` and `owner`; `instances` holds each server's last sign of life, so that a room
//! claimed from a dead owner is not charged for the time since ([`RoomStore::claim`]).
//!
//! The client is the blocking `postgres` crate: a store runs on a thread of its own
//! ([`qi_rooms::StoreHandle`]), never on the async runtime. Its connections come from an
//! `r2d2` pool that checks each one before use and replaces a broken one, so after a
//! PostgreSQL restart the next operation runs on a fresh connection instead of failing on the
//! dead one; while the server is down an operation waits at most [`CONNECT_WAIT`] and fails.

use postgres::{GenericClient, NoTls, Row};
use qi_rooms::store::jobs::{commit_jobs, JobWriter};
use qi_rooms::store::row::{color_column, RoomRow, ROOM_COLUMNS};
use qi_rooms::store::taken_over_at;
use qi_rooms::{Claimed, PrunePolicy, RoomId, RoomRecord, RoomStore, Save, SaveError, StoreError};
use r2d2_postgres::PostgresConnectionManager;
use std::time::Duration;

/// The schema version this code writes; a database of a newer one is refused.
pub const SCHEMA_VERSION: i32 = 2;

/// Migrations, the one at index `i` taking the schema from version `i` to `i + 1`.
const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    "
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    red TEXT NOT NULL,
    black TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    preset BIGINT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    red_ms BIGINT,
    black_ms BIGINT,
    clock_running TEXT,
    clock_at_ms BIGINT,
    outcome TEXT NOT NULL,
    reason TEXT,
    draw_offer TEXT,
    takeback_offer TEXT,
    rematch_offer TEXT,
    next_room TEXT,
    version BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    move_clocks TEXT NOT NULL DEFAULT '',
    fence BIGINT NOT NULL DEFAULT 0,
    owner TEXT,
    red_name TEXT,
    black_name TEXT
);
CREATE INDEX rooms_by_age ON rooms (outcome, updated_ms);
CREATE TABLE instances (id TEXT PRIMARY KEY, alive_ms BIGINT NOT NULL);
",
    "
ALTER TABLE rooms ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
",
];

/// A key for `pg_advisory_xact_lock`: "qirooms" in ASCII.
const MIGRATION_LOCK: i64 = 0x0071_6972_6f6f_6d73;

/// How long an instance's last sign of life is kept after it stopped.
const FORGET_INSTANCES_MS: i64 = 24 * 3600 * 1000;

/// The longest an operation waits for a connection (a new one is made when the pooled one is
/// broken): while PostgreSQL is down a move is refused after this, not held.
pub const CONNECT_WAIT: Duration = Duration::from_secs(3);

/// Connections kept: the store's thread uses one at a time; the second lets a replacement be
/// made while the first is being checked.
const POOL_SIZE: u32 = 2;

fn db(e: postgres::Error) -> StoreError {
    StoreError(format!("PostgreSQL: {e}"))
}

fn unreachable(e: r2d2::Error) -> StoreError {
    StoreError(format!("PostgreSQL: no connection within {CONNECT_WAIT:?} ({e})"))
}

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;
type PooledClient = r2d2::PooledConnection<PostgresConnectionManager<NoTls>>;

/// Rooms in a PostgreSQL database.
pub struct PostgresStore {
    pool: Pool,
    /// The server this store writes for (the name it marks alive): new rooms are its own.
    owner: String,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://USER@HOST:PORT/DB`) and creates or migrates the schema.
    ///
    /// # Errors
    /// When the server cannot be reached, the database has a newer schema than this qi knows,
    /// or it has a `rooms` table that is not Qi's.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let mut config: postgres::Config = url.parse().map_err(|e| StoreError(format!("bad database URL: {e}")))?;
        config.connect_timeout(CONNECT_WAIT);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            // A round trip per operation finds a connection the server closed (a restart) and
            // the pool replaces it, so no move is refused for a connection that is merely stale.
            .test_on_check_out(true)
            .connection_timeout(CONNECT_WAIT)
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(PostgresConnectionManager::new(config, NoTls));
        let store = PostgresStore { pool, owner: String::new() };
        migrate(&mut store.client()?)?;
        Ok(store)
    }

    /// A checked connection: the pooled one if it still answers, else a new one.
    fn client(&self) -> Result<PooledClient, StoreError> {
        self.pool.get().map_err(unreachable)
    }

    /// How many rooms are stored.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn count(&mut self) -> Result<usize, StoreError> {
        let n: i64 = self.client()?.query_one("SELECT COUNT(*) FROM rooms", &[]).map_err(db)?.get(0);
        Ok(usize::try_from(n).unwrap_or(0))
    }
}

fn migrate(client: &mut PooledClient) -> Result<(), StoreError> {
    let mut tx = client.transaction().map_err(db)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).map_err(db)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS qi_schema (version INTEGER NOT NULL)").map_err(db)?;
    let version: i32 = match tx.query_opt("SELECT version FROM qi_schema", &[]).map_err(db)? {
        Some(row) => row.get(0),
        None => {
            tx.execute("INSERT INTO qi_schema (version) VALUES (0)", &[]).map_err(db)?;
            0
        }
    };
    if version > SCHEMA_VERSION {
        return Err(StoreError(format!("the database has schema version {version}; this qi knows {SCHEMA_VERSION}")));
    }
    for (from, migration) in MIGRATIONS.iter().enumerate().skip(usize::try_from(version).unwrap_or(0)) {
        tx.batch_execute(migration).map_err(|e| {
            StoreError(format!("cannot migrate the database from schema version {from}: {e} (not a Qi room database?)"))
        })?;
    }
    tx.execute("UPDATE qi_schema SET version = $1", &[&SCHEMA_VERSION]).map_err(db)?;
    // A table of the same name from something else: say so, rather than fail on first use.
    tx.query(&format!("SELECT {}, fence, owner FROM rooms LIMIT 0", columns()), &[])
        .map_err(|e| StoreError(format!("not a Qi room database: its rooms table does not have Qi's columns ({e})")))?;
    tx.commit().map_err(db)
}

fn read_row(row: &Row) -> Result<RoomRecord, StoreError> {
    let text = |name: &str| -> Option<String> { row.get(name) };
    let mut record = RoomRow {
        id: row.get("id"),
        red: row.get("red"),
        black: row.get("black"),
        start_fen: row.get("start_fen"),
        moves: row.get("moves"),
        preset: row.get("preset"),
        clock_initial_ms: row.get("clock_initial_ms"),
        clock_increment_ms: row.get("clock_increment_ms"),
        red_ms: row.get("red_ms"),
        black_ms: row.get("black_ms"),
        clock_running: color_column(text("clock_running")),
        clock_at_ms: row.get("clock_at_ms"),
        outcome: row.get("outcome"),
        reason: row.get("reason"),
        draw_offer: color_column(text("draw_offer")),
        takeback_offer: color_column(text("takeback_offer")),
        rematch_offer: color_column(text("rematch_offer")),
        next_room: row.get("next_room"),
        version: row.get("version"),
        created_ms: row.get("created_ms"),
        updated_ms: row.get("updated_ms"),
        move_clocks: row.get("move_clocks"),
    }
    .into_record()
    .map_err(StoreError)?;
    record.names = [row.get("red_name"), row.get("black_name")];
    record.public = row.get("public");
    Ok(record)
}

/// The columns read back: the shared ones, the names and whether the room is listed.
fn columns() -> String {
    format!("{ROOM_COLUMNS}, red_name, black_name, public")
}

fn to_i64(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// Writes one save; `false` when the row is not where the save says it follows from.
fn write_row(client: &mut impl GenericClient, save: &Save, owner: &str) -> Result<bool, postgres::Error> {
    let r = RoomRow::from_record(&save.record);
    let fence = to_i64(save.fence);
    let [red_name, black_name] = &save.record.names;
    let public = save.record.public;
    let values: [&(dyn postgres::types::ToSql + Sync); 27] = [
        &r.id,
        &r.red,
        &r.black,
        &r.start_fen,
        &r.moves,
        &r.preset,
        &r.clock_initial_ms,
        &r.clock_increment_ms,
        &r.red_ms,
        &r.black_ms,
        &r.clock_running,
        &r.clock_at_ms,
        &r.outcome,
        &r.reason,
        &r.draw_offer,
        &r.takeback_offer,
        &r.rematch_offer,
        &r.next_room,
        &r.version,
        &r.created_ms,
        &r.updated_ms,
        &r.move_clocks,
        &fence,
        red_name,
        black_name,
        &owner,
        &public,
    ];
    let changed = match save.follows {
        None => client.execute(
            &format!(
                "INSERT INTO rooms ({ROOM_COLUMNS}, fence, red_name, black_name, owner, public)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 $21, $22, $23, $24, $25, $26, $27)
                 ON CONFLICT (id) DO NOTHING"
            ),
            &values,
        )?,
        Some(follows) => {
            let follows = to_i64(follows);
            let mut all: Vec<&(dyn postgres::types::ToSql + Sync)> = values[..25].to_vec();
            all.push(&follows);
            all.push(&public);
            client.execute(
                "UPDATE rooms SET red = $2, black = $3, start_fen = $4, moves = $5, preset = $6,
                 clock_initial_ms = $7, clock_increment_ms = $8, red_ms = $9, black_ms = $10, clock_running = $11,
                 clock_at_ms = $12, outcome = $13, reason = $14, draw_offer = $15, takeback_offer = $16,
                 rematch_offer = $17, next_room = $18, version = $19, created_ms = $20, updated_ms = $21,
                 move_clocks = $22, red_name = $24, black_name = $25, public = $27
                 WHERE id = $1 AND fence = $23 AND version = $26",
                &all,
            )?
        }
    };
    Ok(changed == 1)
}

/// A transaction as the shared commit loop writes through it.
struct Jobs<'a, 't> {
    tx: &'a mut postgres::Transaction<'t>,
    /// The server writing: a new room is its own.
    owner: &'a str,
}

impl JobWriter for Jobs<'_, '_> {
    type Error = postgres::Error;

    fn batch(&mut self, sql: &str) -> Result<(), postgres::Error> {
        self.tx.batch_execute(sql)
    }

    fn write(&mut self, save: &Save) -> Result<bool, postgres::Error> {
        write_row(self.tx, save, self.owner)
    }
}

impl RoomStore for PostgresStore {
    fn load(&mut self, id: &RoomId) -> Result<Option<RoomRecord>, StoreError> {
        let row = self
            .client()?
            .query_opt(&format!("SELECT {} FROM rooms WHERE id = $1", columns()), &[&id.as_str()])
            .map_err(db)?;
        row.as_ref().map(read_row).transpose()
    }

    fn claim(&mut self, id: &RoomId, owner: &str, wall_ms: i64) -> Result<Option<Claimed>, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let Some(row) = tx
            .query_opt(
                &format!("SELECT {}, fence, owner FROM rooms WHERE id = $1 FOR UPDATE", columns()),
                &[&id.as_str()],
            )
            .map_err(db)?
        else {
            return Ok(None);
        };
        let mut record = read_row(&row)?;
        let previous: Option<String> = row.get("owner");
        let fence: i64 = row.get::<_, i64>("fence") + 1;
        // The previous owner's last sign of life: the clock ran until it could last have been
        // shown, not after (an owner that lost its lease with a Redis restart was alive).
        let alive: Option<i64> = match previous.as_deref() {
            Some(previous) if previous != owner => tx
                .query_opt("SELECT alive_ms FROM instances WHERE id = $1", &[&previous])
                .map_err(db)?
                .map(|r| r.get(0)),
            _ => None,
        };
        if let (Some(alive), Some(clock)) = (alive, record.clock.as_mut()) {
            if record.outcome == "ongoing" && clock.running.is_some() {
                clock.at_ms = taken_over_at(clock.at_ms, alive, wall_ms);
            }
        }
        let interrupted = previous.is_some_and(|p| p != owner);
        let at = record.clock.as_ref().map(|c| c.at_ms);
        tx.execute(
            "UPDATE rooms SET fence = $2, owner = $3, clock_at_ms = $4 WHERE id = $1",
            &[&id.as_str(), &fence, &owner, &at],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Some(Claimed { record, fence: u64::try_from(fence).unwrap_or(0), interrupted }))
    }

    fn commit(&mut self, jobs: &[Vec<Save>]) -> Result<Vec<Result<(), SaveError>>, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let results = commit_jobs(&mut Jobs { tx: &mut tx, owner: &self.owner }, jobs).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(results)
    }

    fn mark_alive(&mut self, owner: &str, wall_ms: i64) -> Result<(), StoreError> {
        // The server marks itself alive before anything else: the rooms it makes are its own.
        self.owner = owner.to_string();
        self.client()?
            .execute(
                "INSERT INTO instances (id, alive_ms) VALUES ($1, $2)
                 ON CONFLICT (id) DO UPDATE SET alive_ms = EXCLUDED.alive_ms",
                &[&owner, &wall_ms],
            )
            .map_err(db)?;
        Ok(())
    }

    fn resume(&mut self, _wall_ms: i64) -> Result<i64, StoreError> {
        // Other servers may be running the rooms: each claim settles its owner's downtime.
        Ok(0)
    }

    fn prune(&mut self, policy: &PrunePolicy, wall_ms: i64) -> Result<usize, StoreError> {
        let finished = wall_ms - i64::try_from(policy.finished.as_millis()).unwrap_or(i64::MAX / 2);
        let abandoned = wall_ms - i64::try_from(policy.abandoned.as_millis()).unwrap_or(i64::MAX / 2);
        let mut client = self.client()?;
        let n = client
            .execute(
                "DELETE FROM rooms WHERE (outcome != 'ongoing' AND updated_ms < $1)
                 OR (outcome = 'ongoing' AND updated_ms < $2)",
                &[&finished, &abandoned],
            )
            .map_err(db)?;
        client.execute("DELETE FROM instances WHERE alive_ms < $1", &[&(wall_ms - FORGET_INSTANCES_MS)]).map_err(db)?;
        Ok(usize::try_from(n).unwrap_or(0))
    }
}
