//! `qi serve`'s room options: where rooms are kept, and how many a server holds.

use anyhow::{Context, Result};
use qi_rooms::Durability;
use qi_web::rooms::{Opened, Rooms, RoomsConfig};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct RoomArgs {
    /// Folder for the rooms' database (default: $XDG_DATA_HOME/qi, else ~/.local/share/qi,
    /// else ./qi-data).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Most rooms in memory at once.
    #[arg(long, default_value_t = RoomsConfig::default().limits.max_rooms)]
    max_rooms: usize,
    /// Most room WebSocket connections at once.
    #[arg(long, default_value_t = RoomsConfig::default().max_sockets)]
    max_sockets: usize,
    /// New rooms one address may make per minute.
    #[arg(long, default_value_t = RoomsConfig::default().creations_per_minute)]
    room_creations_per_minute: u32,
    /// Room messages per second one client address may send, all its sockets together (bursts
    /// of four times as many); 0 for no limit per address. Behind a reverse proxy every client
    /// has the proxy's address: set 0 there and limit per client in the proxy.
    #[arg(long, default_value_t = RoomsConfig::default().socket.messages_per_address)]
    room_messages_per_address: f64,
    /// `full`: every acknowledged move is on disk (fsync) and survives a power cut; `process`:
    /// survives the server being killed, not a power cut (faster on slow disks).
    #[arg(long, default_value = "full", value_parser = ["full", "process"])]
    durability: String,
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

    /// Opens the rooms in the data folder.
    pub fn open(&self) -> Result<Opened> {
        let mut config = RoomsConfig::default();
        config.limits.max_rooms = self.max_rooms;
        config.max_sockets = self.max_sockets;
        config.creations_per_minute = self.room_creations_per_minute;
        config.socket.messages_per_address = self.room_messages_per_address.max(0.0);
        config.durability = if self.durability == "process" { Durability::Process } else { Durability::Full };
        let folder = self.folder();
        Rooms::open(&folder, config).with_context(|| format!("opening the rooms in {}", folder.display()))
    }
}
