//! `qi serve`'s room options: where rooms are kept, and how many a server holds.

use anyhow::{bail, Context, Result};
use qi_rooms::{Durability, Hub};
use qi_web::health::{probe, Readiness, PROBE_WAIT};
use qi_web::rooms::{Opened, Rooms, RoomsConfig};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct RoomArgs {
    /// Folder for the rooms' database (default: $XDG_DATA_HOME/qi, else ~/.local/share/qi,
    /// else ./qi-data).
    #[arg(long, env = "QI_DATA", value_name = "DIR")]
    data: Option<PathBuf>,
    /// Most rooms in memory at once.
    #[arg(long, env = "QI_MAX_ROOMS", default_value_t = RoomsConfig::default().limits.max_rooms)]
    max_rooms: usize,
    /// Most room WebSocket connections at once.
    #[arg(long, env = "QI_MAX_SOCKETS", default_value_t = RoomsConfig::default().max_sockets)]
    max_sockets: usize,
    /// New rooms one address may make per minute.
    #[arg(long, env = "QI_ROOM_CREATIONS_PER_MINUTE", default_value_t = RoomsConfig::default().creations_per_minute)]
    room_creations_per_minute: u32,
    /// Room messages per second one client address may send, all its sockets together (bursts
    /// of four times as many); 0 for no limit per address. Behind a reverse proxy name it with
    /// `--trust-proxy`, so that each client is counted at its own address.
    #[arg(long, env = "QI_ROOM_MESSAGES_PER_ADDRESS", default_value_t = RoomsConfig::default().socket.messages_per_address)]
    room_messages_per_address: f64,
    /// `full`: every acknowledged move is on disk (fsync) and survives a power cut; `process`:
    /// survives the server being killed, not a power cut (faster on slow disks).
    #[arg(long, env = "QI_DURABILITY", default_value = "full", value_parser = ["full", "process"])]
    durability: String,
    /// `off` turns the players' chat off in every room (lines are refused, the room page shows
    /// no chat).
    #[arg(long, env = "QI_CHAT", default_value = "on", value_parser = ["on", "off"])]
    chat: String,
    /// Join the instances that share this Redis server (`redis://HOST:PORT`): any of them
    /// serves any room. Needs `--database`.
    /// (QI_REDIS_URL rather than the flag when it holds a password: a command line is public.)
    #[arg(long, value_name = "URL", env = "QI_REDIS_URL", hide_env_values = true)]
    redis: Option<String>,
    /// A file holding the Redis URL (a secret mounted by the service manager).
    #[arg(long, value_name = "FILE", env = "QI_REDIS_URL_FILE", conflicts_with = "redis")]
    redis_file: Option<PathBuf>,
    /// Keep rooms in PostgreSQL (`postgres://USER@HOST:PORT/DB`) instead of SQLite in `--data`;
    /// the schema is created or migrated at start-up.
    /// (QI_DATABASE_URL rather than the flag when it holds a password: a command line is public.)
    #[arg(long, value_name = "URL", env = "QI_DATABASE_URL", hide_env_values = true)]
    database: Option<String>,
    /// A file holding the PostgreSQL URL (a secret mounted by the service manager).
    #[arg(long, value_name = "FILE", env = "QI_DATABASE_URL_FILE", conflicts_with = "database")]
    database_file: Option<PathBuf>,
}

/// A URL given directly or in a file (its first line).
fn url_from(direct: &Option<String>, file: &Option<PathBuf>, what: &str) -> Result<Option<String>> {
    let Some(path) = file else { return Ok(direct.clone()) };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read the {what} URL from {}", path.display()))?;
    let url = text.lines().next().unwrap_or("").trim().to_string();
    if url.is_empty() {
        bail!("{} holds no {what} URL", path.display());
    }
    Ok(Some(url))
}

impl RoomArgs {
    /// The data folder to use.
    pub fn folder(&self) -> PathBuf {
        if let Some(dir) = &self.data {
            return dir.clone();
        }
        let xdg = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share"));
        xdg.or(home).map_or_else(|| PathBuf::from("qi-data"), |base| base.join("qi"))
    }

    /// Reads the URLs given in files (`--database-file`, `--redis-file`).
    pub fn read_secrets(&mut self) -> Result<()> {
        self.database = url_from(&self.database, &self.database_file, "PostgreSQL")?;
        self.redis = url_from(&self.redis, &self.redis_file, "Redis")?;
        Ok(())
    }

    /// What `/readyz` checks: the shared servers, each on a connection of its own (the SQLite
    /// store is in this process: ready when it answers).
    pub fn readiness(&self) -> Readiness {
        let mut readiness = Readiness::default();
        if let Some(url) = self.database.clone() {
            readiness = readiness.with(
                "postgresql",
                probe(move || {
                    let url = url.clone();
                    async move {
                        let ping = move || qi_rooms_cluster::ping_postgres(&url, PROBE_WAIT);
                        tokio::task::spawn_blocking(ping).await.map_err(|e| e.to_string())?
                    }
                }),
            );
        }
        if let Some(url) = self.redis.clone() {
            readiness = readiness.with(
                "redis",
                probe(move || {
                    let url = url.clone();
                    async move { qi_rooms_cluster::ping_redis(&url, PROBE_WAIT).await }
                }),
            );
        }
        readiness
    }

    /// Where the rooms are kept, for the start-up line.
    pub fn describe(&self) -> String {
        match (&self.redis, &self.database) {
            (Some(redis), Some(database)) => {
                format!("{} (shared through {})", without_password(database), without_password(redis))
            }
            (None, Some(database)) => without_password(database),
            _ => self.folder().display().to_string(),
        }
    }

    /// Whether players may chat.
    pub fn chat_on(&self) -> bool {
        self.chat != "off"
    }

    /// Opens the rooms: SQLite in the data folder, or PostgreSQL (with Redis: as one of
    /// several instances).
    pub async fn open(&self) -> Result<Opened> {
        let mut config = RoomsConfig::default();
        config.limits.max_rooms = self.max_rooms;
        config.max_sockets = self.max_sockets;
        config.creations_per_minute = self.room_creations_per_minute;
        config.socket.messages_per_address = self.room_messages_per_address.max(0.0);
        config.socket.chat = self.chat_on();
        config.durability = if self.durability == "process" { Durability::Process } else { Durability::Full };
        let database = match (&self.redis, &self.database, &self.data) {
            (Some(_), None, _) => bail!(
                "--redis needs --database postgres://...: instances that share Redis must share one room store, \
                 or each SQLite folder would be a second authority for the same rooms"
            ),
            (_, Some(_), Some(_)) => bail!("--data (SQLite) and --database name two room stores: give one"),
            (None, None, _) => {
                let folder = self.folder();
                return Rooms::open(&folder, config)
                    .with_context(|| format!("opening the rooms in {}", folder.display()));
            }
            (_, Some(database), None) => database,
        };
        if !(database.starts_with("postgres://") || database.starts_with("postgresql://")) {
            bail!("--database takes a PostgreSQL URL (postgres://USER@HOST:PORT/DB), not {database:?}");
        }
        let hub = match &self.redis {
            Some(redis) => qi_rooms_cluster::connect(redis, database, config.limits, config.prune).await,
            None => {
                let instance = qi_rooms::wire::new_instance();
                qi_rooms_cluster::open_store(database, config.prune, &instance)
                    .await
                    .map(|s| Hub::new(s, config.limits))
            }
        }
        .map_err(anyhow::Error::msg)
        .context("opening the shared rooms")?;
        Ok(Opened { rooms: Rooms::with_hub(hub, config), downtime_ms: 0 })
    }
}

/// `url` with any password replaced by `***` (the start-up line is often logged).
pub fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &url[scheme + 3..at];
            match user.find(':') {
                Some(colon) => format!("{}{}:***{}", &url[..scheme + 3], &user[..colon], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_the_log() {
        assert_eq!(super::without_password("postgres://qi:secret@db:5432/qi"), "postgres://qi:***@db:5432/qi");
        assert_eq!(super::without_password("postgres://qi@db/qi"), "postgres://qi@db/qi");
        assert_eq!(super::without_password("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
    }
}
