//! `qi bench rooms`: a load test of play-a-friend rooms on loopback.
//!
//! Starts `qi serve` as a child process on a fresh data folder, then for each room count plays
//! that many games at once: two WebSocket clients per room replay the first 40 plies of real
//! games (`data/bench_games.tsv`), thinking 0.2–1.0 s before each move. It reports moves per
//! second, the relay latency (move sent → the opponent has the new state) at p50 / p99 / max,
//! moves lost (sent but not in the room's final state), and the server's memory per room; then
//! holds idle clients connected and reports the server's memory for them. Only 127.0.0.1 is
//! used, every phase is bounded in count and time, and the server is stopped at the end.

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

const GAMES: &str = include_str!("../../data/bench_games.tsv");
/// Longest a single phase may take before the bench gives up on it.
const PHASE_LIMIT: Duration = Duration::from_secs(300);

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
    /// Print one JSON object instead of the report.
    #[arg(long)]
    json: bool,
}

struct Server {
    child: Child,
    addr: String,
    data: std::path::PathBuf,
}

impl Server {
    fn start(durability: &str) -> Result<Server> {
        let data = std::env::temp_dir().join(format!("qi-bench-rooms-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let exe = std::env::current_exe().context("finding the qi binary")?;
        let mut child = Command::new(exe)
            .args(["serve", "--addr", "127.0.0.1:0", "--room-creations-per-minute", "10000000"])
            .args(["--max-sockets", "30000", "--max-rooms", "30000", "--max-connections", "19000"])
            .args(["--max-connections-per-address", "19000"])
            .args(["--durability", durability, "--data"])
            .arg(&data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting qi serve")?;
        let mut lines = BufReader::new(child.stdout.take().context("server stdout")?).lines();
        let addr = loop {
            let Some(line) = lines.next() else { bail!("qi serve exited before printing its address") };
            if let Some(rest) = line?.split("http://").nth(1) {
                break rest.split('/').next().unwrap_or_default().to_string();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Ok(Server { child, addr, data })
    }

    /// The server's resident memory in bytes.
    fn rss(&self) -> u64 {
        rss_of(self.child.id())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// Lets this process (and the server it starts) open as many sockets as the hard limit allows.
fn raise_fd_limit() -> u64 {
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

async fn http(addr: &str, method: &str, path: &str, body: &str) -> Result<Value> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw)).await??;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").context("an HTTP answer")?;
    if !head.starts_with("HTTP/1.1 200") {
        bail!("{method} {path}: {}", head.lines().next().unwrap_or_default());
    }
    Ok(serde_json::from_str(body)?)
}

struct Room {
    id: String,
    seats: [String; 2],
}

async fn create_rooms(addr: &str, n: usize) -> Result<Vec<Room>> {
    let mut rooms = Vec::with_capacity(n);
    // 50 at a time: creations are commits too, and group commit serves them together.
    for chunk in (0..n).collect::<Vec<_>>().chunks(50) {
        let answers =
            futures_util::future::join_all(chunk.iter().map(|_| http(addr, "POST", "/api/rooms", "{}"))).await;
        for answer in answers {
            let v = answer?;
            let text = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
            rooms.push(Room { id: text("/room"), seats: [text("/seats/red"), text("/seats/black")] });
        }
    }
    Ok(rooms)
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: &str, room: &str, seat: &str) -> Result<Socket> {
    let url = format!("ws://{addr}/api/rooms/{room}/ws?seat={seat}");
    Ok(tokio_tungstenite::connect_async(url).await?.0)
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

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    moves: usize,
    errors: usize,
    failed_rooms: usize,
}

/// Plays one side of a game: waits for its turn, thinks, moves; notes when each opponent move
/// arrives. `sent[p]` is when ply `p` was sent.
async fn play_side(
    mut ws: Socket,
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
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next()).await.context("no state for 30 s")?;
        let Some(Ok(Message::Text(text))) = frame else {
            match frame {
                Some(Ok(_)) => continue,
                _ => bail!("the socket closed"),
            }
        };
        let arrived = Instant::now();
        let v: Value = serde_json::from_str(text.as_str())?;
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
            ws.send(Message::text(json!({"type": "move", "ply": n, "move": moves[n]}).to_string())).await?;
            tally.lock().unwrap().moves += 1;
        }
    }
}

struct PhaseResult {
    rooms: usize,
    moves: usize,
    seconds: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    lost: usize,
    errors: usize,
    failed_rooms: usize,
    rss_base: u64,
    rss_peak: u64,
    server_cpu: f64,
}

async fn phase(
    server: &Server,
    n: usize,
    games: &[Arc<Vec<String>>],
    think: (u64, u64),
    seed: u64,
) -> Result<PhaseResult> {
    let rss_base = server.rss();
    let rooms = create_rooms(&server.addr, n).await?;
    let mut sockets = Vec::with_capacity(n);
    for room in &rooms {
        sockets.push((
            connect(&server.addr, &room.id, &room.seats[0]).await?,
            connect(&server.addr, &room.id, &room.seats[1]).await?,
        ));
    }
    let tally = Arc::new(Mutex::new(Tally::default()));
    let cpu_before = cpu_seconds(server.child.id());
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
    // Sample the server's memory while the games run.
    let peak = Arc::new(Mutex::new(server.rss()));
    let pid = server.child.id();
    let sampler = {
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(250)).await;
                let rss = rss_of(pid);
                let mut p = peak.lock().unwrap();
                *p = (*p).max(rss);
            }
        })
    };
    let all = futures_util::future::join_all(tasks.into_iter().flatten());
    let results = tokio::time::timeout(PHASE_LIMIT, all).await.context("the phase took too long")?;
    let seconds = started.elapsed().as_secs_f64();
    let server_cpu = cpu_seconds(server.child.id()) - cpu_before;
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
        let state = http(&server.addr, "GET", &format!("/api/rooms/{}", room.id), "").await?;
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

fn rss_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Connects `clients` idle seats (two per room) and reports the server's memory then.
async fn idle(server: &Server, clients: usize) -> Result<(u64, u64, f64)> {
    let base = server.rss();
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
            let mut ws = connect(&server.addr, &room.id, seat).await?;
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
    let rss = server.rss();
    let lost = closed.load(std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        r.abort();
    }
    if lost > 0 {
        bail!("{lost} of {clients} idle clients were disconnected");
    }
    Ok((base, rss, connect_s))
}

pub fn run(args: Args) -> Result<()> {
    let plies = args.plies.clamp(1, 40);
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
    let fd_limit = raise_fd_limit();
    let think = (args.think_min_ms, args.think_max_ms.max(args.think_min_ms));
    let runtime = tokio::runtime::Runtime::new()?;
    let server = Server::start(&args.durability)?;
    let report = runtime.block_on(async {
        let mut phases = Vec::new();
        for (i, &n) in args.rooms.iter().enumerate() {
            let r = phase(&server, n, &games, think, 0x5EED + i as u64).await?;
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
            phases.push(json!({
                "rooms": r.rooms, "moves": r.moves, "seconds": r.seconds, "moves_per_second": r.moves as f64 / r.seconds,
                "relay_p50_ms": r.p50_ms, "relay_p99_ms": r.p99_ms, "relay_max_ms": r.max_ms, "lost": r.lost,
                "errors": r.errors, "failed_sides": r.failed_rooms, "server_rss_base_bytes": r.rss_base,
                "server_rss_peak_bytes": r.rss_peak, "server_cpu_seconds": r.server_cpu,
                "server_bytes_per_room": r.rss_peak.saturating_sub(r.rss_base) / r.rooms.max(1) as u64,
            }));
            // Let the finished rooms leave memory before the next phase is measured.
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
        let idle_report = if args.idle_clients > 0 {
            let (base, rss, connect_s) = idle(&server, args.idle_clients).await?;
            if !args.json {
                println!(
                    "{} idle clients ({} rooms) connected in {connect_s:.1} s: server RSS {:.1} MiB (was {:.1} MiB before them)",
                    args.idle_clients,
                    args.idle_clients.div_ceil(2),
                    rss as f64 / 1048576.0,
                    base as f64 / 1048576.0
                );
            }
            json!({"clients": args.idle_clients, "server_rss_bytes": rss, "server_rss_before_bytes": base, "connect_seconds": connect_s})
        } else {
            Value::Null
        };
        anyhow::Ok(json!({
            "plies": plies, "think_ms": [think.0, think.1], "durability": args.durability, "fd_limit": fd_limit,
            "phases": phases, "idle": idle_report,
        }))
    })?;
    if args.json {
        crate::cli::print_json(&report);
    }
    Ok(())
}
