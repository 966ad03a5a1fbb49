//! `qi bench rooms`: a load test of play-a-friend rooms on loopback (`qi_rooms_client::load`
//! runs it: `qi serve` as a child process, two WebSocket clients per room replaying real games;
//! this command reads the flags and prints). It reports moves per second, the relay latency
//! at p50 / p99 / max, moves lost, and the server's memory per room and for idle clients.

use anyhow::{Context, Result};
use qi_rooms_client::load::{self, LoadTest};
use serde_json::{json, Value};
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Room counts to run, one phase each.
    #[arg(long, value_delimiter = ',', default_value = "200,1000")]
    rooms: Vec<usize>,
    /// Plies per game (at most 40, the length of the stored games).
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Shortest think time before a move, in milliseconds.
    #[arg(long, default_value_t = 200)]
    think_min_ms: u64,
    /// Longest think time before a move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_max_ms: u64,
    /// Idle clients to hold connected at the end (two per room); 0 skips the phase.
    #[arg(long, default_value_t = 10_000)]
    idle_clients: usize,
    /// The server's commit durability (`full` or `process`), as `qi serve --durability`.
    #[arg(long, default_value = "full", value_parser = ["full", "process"])]
    durability: String,
    /// Server instances: with more than one, they share a private Redis and PostgreSQL
    /// (Debian's redis-server and postgresql, started on loopback for the test), and every
    /// room is made on one instance with Red on the next and Black on the one after.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
    instances: u64,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let plies = args.plies.clamp(1, 40);
    let games = load::games(plies)?;
    let fd_limit = load::raise_fd_limit();
    let think = (args.think_min_ms, args.think_max_ms.max(args.think_min_ms));
    let runtime = tokio::runtime::Runtime::new()?;
    let exe = std::env::current_exe().context("finding the qi binary")?;
    let server = LoadTest::start_instances(&exe, &args.durability, games, think, args.instances as usize)?;
    let report = runtime.block_on(async {
        let mut phases = Vec::new();
        for (i, &n) in args.rooms.iter().enumerate() {
            let r = server.phase(n, 0x5EED + i as u64).await?;
            if !args.json {
                let per_room = r.rss_peak.saturating_sub(r.rss_base) as f64 / r.rooms.max(1) as f64 / 1024.0;
                println!(
                    "{:>5} rooms: {:>6} moves in {:>5.1} s = {:>6.1} moves/s; relay p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
                     lost {}, errors {}, failed sides {}; server RSS {:.1} -> {:.1} MiB ({per_room:.1} KiB/room), \
                     server CPU {:.1} s ({:.0} us/move)",
                    r.rooms,
                    r.moves,
                    r.seconds,
                    r.moves as f64 / r.seconds,
                    r.p50_ms,
                    r.p99_ms,
                    r.max_ms,
                    r.lost,
                    r.errors,
                    r.failed_rooms,
                    r.rss_base as f64 / 1048576.0,
                    r.rss_peak as f64 / 1048576.0,
                    r.server_cpu,
                    r.server_cpu * 1e6 / r.moves.max(1) as f64
                );
            }
            phases.push(r.json());
            // Let the finished rooms leave memory before the next phase is measured.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let idle_report = if args.idle_clients > 0 {
            let idle = server.idle(args.idle_clients).await?;
            if !args.json {
                println!(
                    "{} idle clients ({} rooms) connected in {:.1} s: server RSS {:.1} MiB (was {:.1} MiB before them)",
                    args.idle_clients,
                    args.idle_clients.div_ceil(2),
                    idle.connect_seconds,
                    idle.server_rss as f64 / 1048576.0,
                    idle.server_rss_before as f64 / 1048576.0
                );
            }
            idle.json()
        } else {
            Value::Null
        };
        anyhow::Ok(json!({
            "plies": plies, "think_ms": [think.0, think.1], "durability": args.durability, "instances": args.instances, "fd_limit": fd_limit,
            "phases": phases, "idle": idle_report,
        }))
    })?;
    if args.json {
        crate::cli::print_json(&report);
    }
    Ok(())
}
