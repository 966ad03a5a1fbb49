//! The rooms load test behind `qi bench rooms`, on loopback.
//!
//! [`LoadTest::start`] starts `qi serve` as a child process on a fresh data folder; each
//! [`LoadTest::phase`] then plays that many games at once: two WebSocket clients per room
//! replay the first plies of real games (`data/bench_games.tsv`), thinking a random time in a
//! range before each move. A phase measures moves per second, the relay latency (move sent →
//! the opponent has the new state) at p50 / p99 / max, moves lost (sent but not in the room's
//! final state), and the server's memory and CPU time; [`LoadTest::idle`] holds idle clients
//! connected and measures the server's memory for them. Only 127.0.0.1 is used, every phase
//! is bounded in count and time, and the server is stopped when the test is dropped.

use crate::{create, http_ok, Client, ServerProcess};
use anyhow::{bail, Context, Result};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GAMES: &str = include_str!("../data/bench_games.tsv");
/// Longest a single phase may take before the test gives up on it.
const PHASE_LIMIT: Duration = Duration::from_secs(300);

/// The stored games' first `plies` moves (ICCS), those that are legal and not over by then.
///
/// # Errors
///
/// When no stored game is usable.
pub fn games(plies: usize) -> Result<Vec<Arc<Vec<String>>>> {
    let games: Vec<Arc<Vec<String>>> = GAMES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').nth(1))
        .map(|m| Arc::new(m.split_whitespace().take(plies).map(str::to_string).collect::<Vec<_>>()))
        .filter(|g| {
            let moves: Vec<xiangqi::Move> = g.iter().filter_map(|m| m.parse().ok()).collect();
            moves.len() == g.len()
                && xiangqi::outcome::Game::from_moves(xiangqi::Position::startpos(), &moves, Default::default())
                    .is_ok_and(|game| !game.status().is_over())
        })
        .collect();
    if games.is_empty() {
        bail!("no usable game in the bench data");
    }
    Ok(games)
}

/// What one phase measured.
#[derive(Clone, Debug)]
pub struct PhaseResult {
    /// Rooms played at once.
    pub rooms: usize,
    /// Moves sent.
    pub moves: usize,
    /// How long the games took.
    pub seconds: f64,
    /// Median relay latency, in milliseconds.
    pub p50_ms: f64,
    /// 99th percentile relay latency.
    pub p99_ms: f64,
    /// Largest relay latency.
    pub max_ms: f64,
    /// Moves sent but not in the room's final state.
    pub lost: usize,
    /// Error messages the clients got.
    pub errors: usize,
    /// Sides (clients) that did not finish their game.
    pub failed_rooms: usize,
    /// The server's memory before the phase, in bytes.
    pub rss_base: u64,
    /// The server's largest memory during the phase (sampled every 250 ms).
    pub rss_peak: u64,
    /// The server's CPU time (user + system) during the games, in seconds.
    pub server_cpu: f64,
}

impl PhaseResult {
    /// The phase as a JSON object (`moves_per_second`, `relay_p50_ms`, ... `server_bytes_per_room`).
    pub fn json(&self) -> Value {
        let r = self;
        json!({
            "rooms": r.rooms, "moves": r.moves, "seconds": r.seconds, "moves_per_second": r.moves as f64 / r.seconds,
            "relay_p50_ms": r.p50_ms, "relay_p99_ms": r.p99_ms, "relay_max_ms": r.max_ms, "lost": r.lost,
            "errors": r.errors, "failed_sides": r.failed_rooms, "server_rss_base_bytes": r.rss_base,
            "server_rss_peak_bytes": r.rss_peak, "server_cpu_seconds": r.server_cpu,
            "server_bytes_per_room": r.rss_peak.saturating_sub(r.rss_base) / r.rooms.max(1) as u64,
        })
    }
}

/// What the idle phase measured.
#[derive(Clone, Debug)]
pub struct IdleResult {
    /// Clients held connected.
    pub clients: usize,
    /// Rooms they sat in (two clients each).
    pub rooms: usize,
    /// The server's memory with them connected, in bytes.
    pub server_rss: u64,
    /// The server's memory before them.
    pub server_rss_before: u64,
    /// How long connecting them took.
    pub connect_seconds: f64,
}

impl IdleResult {
    /// As a JSON object: `clients`, `server_rss_bytes`, `server_rss_before_bytes`, `connect_seconds`.
    pub fn json(&self) -> Value {
        json!({"clients": self.clients, "server_rss_bytes": self.server_rss,
               "server_rss_before_bytes": self.server_rss_before, "connect_seconds": self.connect_seconds})
    }
}

/// A running load test: the servers, the games to replay and the think times.
pub struct LoadTest {
    servers: Vec<ServerProcess>,
    data: PathBuf,
    games: Vec<Arc<Vec<String>>>,
    think: (u64, u64),
    /// With several instances: the Redis and PostgreSQL they share (stopped with the test).
    _shared: Option<(crate::services::RedisServer, crate::services::PostgresServer)>,
}

impl LoadTest {
    /// Starts `qi` (the program at `qi`) as `qi serve` with limits raised for the test and the
    /// commit `durability` (`full` or `process`), on a fresh folder in the temporary directory.
    /// Games replay `games` (see [`games`]), each side thinking `think` milliseconds (min, max).
    ///
    /// # Errors
    ///
    /// When the server does not start.
    pub fn start(qi: &Path, durability: &str, games: Vec<Arc<Vec<String>>>, think: (u64, u64)) -> Result<LoadTest> {
        LoadTest::start_instances(qi, durability, games, think, 1)
    }

    /// As [`LoadTest::start`] with `instances` servers: more than one share a private Redis and
    /// PostgreSQL ([`crate::services`]), and each room is made on one instance with Red on the
    /// next and Black on the one after, so that every move crosses instances.
    ///
    /// # Errors
    /// When a server does not start.
    pub fn start_instances(
        qi: &Path,
        durability: &str,
        games: Vec<Arc<Vec<String>>>,
        think: (u64, u64),
        instances: usize,
    ) -> Result<LoadTest> {
        let data = std::env::temp_dir().join(format!("qi-bench-rooms-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let shared = if instances > 1 {
            Some((crate::services::RedisServer::start()?, crate::services::PostgresServer::start()?))
        } else {
            None
        };
        let store: Vec<std::ffi::OsString> = match &shared {
            None => vec!["--data".into(), data.clone().into_os_string()],
            Some((redis, postgres)) => {
                vec!["--redis".into(), redis.url().into(), "--database".into(), postgres.url().into()]
            }
        };
        let mut servers = Vec::with_capacity(instances.max(1));
        for _ in 0..instances.max(1) {
            servers.push(LoadTest::start_server(qi, durability, &store)?);
        }
        Ok(LoadTest { servers, data, games, think, _shared: shared })
    }

    fn start_server(qi: &Path, durability: &str, store: &[std::ffi::OsString]) -> Result<ServerProcess> {
        ServerProcess::start(
            qi,
            [
                "serve",
                "--room-creations-per-minute",
                "10000000",
                "--max-sockets",
                "30000",
                "--max-rooms",
                "30000",
                "--max-connections",
                "19000",
                "--max-connections-per-address",
                "19000",
                // Every client of the bench shares 127.0.0.1: no allowance per address.
                "--room-messages-per-address",
                "0",
                "--durability",
                durability,
            ]
            .iter()
            .map(std::ffi::OsStr::new)
            .chain(store.iter().map(std::ffi::OsString::as_os_str)),
        )
    }

    /// The servers' memory together.
    fn rss(&self) -> u64 {
        self.servers.iter().map(|s| rss_of(s.child.id())).sum()
    }

    /// The servers' CPU time together.
    fn cpu(&self) -> f64 {
        self.servers.iter().map(|s| cpu_seconds(s.child.id())).sum()
    }

    /// `n` rooms, room `i` made on instance `i % instances`.
    async fn rooms_across(&self, n: usize) -> Result<Vec<Room>> {
        let k = self.servers.len();
        let mut made = Vec::with_capacity(k);
        for (j, server) in self.servers.iter().enumerate() {
            made.push(create_rooms(&server.addr, (n + k - 1 - j) / k).await?.into_iter());
        }
        Ok((0..n).filter_map(|i| made[i % k].next()).collect())
    }

    /// Plays `n` games at once and measures them (`seed` varies the think times).
    ///
    /// # Errors
    ///
    /// A room or a socket that cannot be made, a phase longer than 300 s, or a room whose
    /// final state cannot be read.
    pub async fn phase(&self, n: usize, seed: u64) -> Result<PhaseResult> {
        let (games, think) = (&self.games[..], self.think);
        let k = self.servers.len();
        let rss_base = self.rss();
        let rooms = self.rooms_across(n).await?;
        let mut sockets = Vec::with_capacity(n);
        for (i, room) in rooms.iter().enumerate() {
            sockets.push((
                Client::open(&self.servers[(i + 1) % k].addr, &room.id, Some(&room.seats[0])).await?,
                Client::open(&self.servers[(i + 2) % k].addr, &room.id, Some(&room.seats[1])).await?,
            ));
        }
        let tally = Arc::new(Mutex::new(Tally::default()));
        let cpu_before = self.cpu();
        let started = Instant::now();
        let mut tasks = Vec::with_capacity(n);
        for (i, (red, black)) in sockets.into_iter().enumerate() {
            let moves = Arc::clone(&games[i % games.len()]);
            let sent = Arc::new(Mutex::new(vec![None; moves.len()]));
            let sides = [red, black].into_iter().enumerate().map(|(side, ws)| {
                let rng = Rng(seed ^ ((i as u64) << 8 | side as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
                tokio::spawn(play_side(ws, side, Arc::clone(&moves), Arc::clone(&sent), think, rng, Arc::clone(&tally)))
            });
            tasks.push(sides.collect::<Vec<_>>());
        }
        // Sample the servers' memory while the games run.
        let peak = Arc::new(Mutex::new(self.rss()));
        let pids: Vec<u32> = self.servers.iter().map(|s| s.child.id()).collect();
        let sampler = {
            let peak = Arc::clone(&peak);
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    let rss = pids.iter().map(|&pid| rss_of(pid)).sum();
                    let mut p = peak.lock().unwrap();
                    *p = (*p).max(rss);
                }
            })
        };
        let all = futures_util::future::join_all(tasks.into_iter().flatten());
        let results = tokio::time::timeout(PHASE_LIMIT, all).await.context("the phase took too long")?;
        let seconds = started.elapsed().as_secs_f64();
        let server_cpu = self.cpu() - cpu_before;
        sampler.abort();
        let mut failed = 0;
        for r in results {
            if !matches!(r, Ok(Ok(()))) {
                failed += 1;
            }
        }
        // Lost: a sent move that is not in the room's final state.
        let mut lost = 0;
        for (i, room) in rooms.iter().enumerate() {
            let expected = &games[i % games.len()];
            let state = http_ok(&self.servers[i % k].addr, "GET", &format!("/api/rooms/{}", room.id), None).await?;
            let got: Vec<&str> =
                state["moves"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            lost += expected
                .iter()
                .zip(got.iter().map(Some).chain(std::iter::repeat(None)))
                .filter(|(e, g)| g.is_none_or(|g| g != e))
                .count();
        }
        let mut tally = std::mem::take(&mut *tally.lock().unwrap());
        tally.failed_rooms = failed;
        tally.latencies_us.sort_unstable();
        let pct = |q: f64| {
            let l = &tally.latencies_us;
            if l.is_empty() {
                0.0
            } else {
                l[((l.len() as f64 * q).ceil() as usize).clamp(1, l.len()) - 1] as f64 / 1000.0
            }
        };
        let rss_peak = *peak.lock().unwrap();
        Ok(PhaseResult {
            rooms: n,
            moves: tally.moves,
            seconds,
            p50_ms: pct(0.50),
            p99_ms: pct(0.99),
            max_ms: pct(1.0),
            lost,
            errors: tally.errors,
            failed_rooms: tally.failed_rooms,
            rss_base,
            rss_peak,
            server_cpu,
        })
    }

    /// Connects `clients` idle seats (two per room) and measures the server's memory then.
    ///
    /// # Errors
    ///
    /// A room or a socket that cannot be made, or an idle client disconnected.
    pub async fn idle(&self, clients: usize) -> Result<IdleResult> {
        let server = &self.servers[0];
        let base = rss_of(server.child.id());
        let started = Instant::now();
        let rooms = create_rooms(&server.addr, clients.div_ceil(2)).await?;
        // Each client reads what comes (answering the server's pings, as a browser does) and
        // reports if its socket closes.
        let closed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut readers = Vec::with_capacity(clients);
        'rooms: for room in &rooms {
            for seat in &room.seats {
                if readers.len() == clients {
                    break 'rooms;
                }
                let mut ws = Client::open(&server.addr, &room.id, Some(seat)).await?.ws;
                let closed = Arc::clone(&closed);
                readers.push(tokio::spawn(async move {
                    while let Some(Ok(_)) = ws.next().await {}
                    closed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }));
            }
        }
        let connect_s = started.elapsed().as_secs_f64();
        // Let the presence updates settle, then measure.
        tokio::time::sleep(Duration::from_secs(5)).await;
        let rss = rss_of(server.child.id());
        let lost = closed.load(std::sync::atomic::Ordering::Relaxed);
        for r in readers {
            r.abort();
        }
        if lost > 0 {
            bail!("{lost} of {clients} idle clients were disconnected");
        }
        Ok(IdleResult {
            clients,
            rooms: rooms.len(),
            server_rss: rss,
            server_rss_before: base,
            connect_seconds: connect_s,
        })
    }
}

impl Drop for LoadTest {
    fn drop(&mut self) {
        for server in &mut self.servers {
            let _ = server.child.kill();
            let _ = server.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    moves: usize,
    errors: usize,
    failed_rooms: usize,
}

/// Lets this process (and the server it starts) open as many sockets as the hard limit allows.
pub fn raise_fd_limit() -> u64 {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
            return limit.rlim_cur;
        }
    }
    0
}

/// A room made for the test: its id and its two seat tokens (red, black).
struct Room {
    id: String,
    seats: [String; 2],
}

/// Makes `n` rooms with default settings.
async fn create_rooms(addr: &str, n: usize) -> Result<Vec<Room>> {
    let mut rooms = Vec::with_capacity(n);
    // 50 at a time: creations are commits too, and group commit serves them together.
    let defaults = json!({});
    for chunk in (0..n).collect::<Vec<_>>().chunks(50) {
        let answers = futures_util::future::join_all(chunk.iter().map(|_| create(addr, &defaults))).await;
        for answer in answers {
            let v = answer?;
            let text = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
            rooms.push(Room { id: text("/room"), seats: [text("/seats/red"), text("/seats/black")] });
        }
    }
    Ok(rooms)
}

/// A small xorshift generator: think times need no better.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Plays one side of a game: waits for its turn, thinks, moves; notes when each opponent move
/// arrives. `sent[p]` is when ply `p` was sent.
async fn play_side(
    mut ws: Client,
    side: usize,
    moves: Arc<Vec<String>>,
    sent: Arc<Mutex<Vec<Option<Instant>>>>,
    think: (u64, u64),
    mut rng: Rng,
    tally: Arc<Mutex<Tally>>,
) -> Result<()> {
    let total = moves.len();
    let mut seen = 0;
    let mut asked = usize::MAX;
    loop {
        let Some(v) = ws.next().await? else { bail!("the socket closed") };
        let arrived = Instant::now();
        if v["type"] == "error" {
            tally.lock().unwrap().errors += 1;
            continue;
        }
        let n = v["moves"].as_array().map_or(0, Vec::len);
        if n > seen {
            let sent = sent.lock().unwrap();
            let mut tally = tally.lock().unwrap();
            for p in seen..n {
                if p % 2 != side {
                    if let Some(t) = sent[p] {
                        tally.latencies_us.push(arrived.duration_since(t).as_micros() as u64);
                    }
                }
            }
            seen = n;
        }
        if n >= total {
            return Ok(());
        }
        if n % 2 == side && asked != n {
            asked = n;
            let wait = think.0 + rng.below(think.1.saturating_sub(think.0) + 1);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            sent.lock().unwrap()[n] = Some(Instant::now());
            ws.send_move(n, &moves[n]).await?;
            tally.lock().unwrap().moves += 1;
        }
    }
}

/// The server's CPU time so far (user + system), in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 12th, stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf only reads a system constant.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (ticks(11) + ticks(12)) / hz
}

/// A process's resident memory in bytes (0 when unknown).
fn rss_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}
