//! `qi engine`: the engine's best move for a position (`go`), or the protocol loop (`uci`) for
//! Xiangqi GUIs and match runners: UCI as Pikafish speaks it (ICCS squares `h2e2`) or UCCI as
//! ElephantEye does, chosen by the first command (`uci` or `ucci`).

use anyhow::{bail, Result};
use serde_json::json;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi::{Move, Position};
use xiangqi_engine::protocol::{self, Command, Dialect, EngineOption, MAX_MOVE_OVERHEAD, MAX_MULTIPV};
use xiangqi_engine::{Engine, Limits, Played, SearchInfo, MAX_DEPTH};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Sub {
    /// Search a position and print the best move.
    Go(GoArgs),
    /// Speak UCI (or UCCI, if the first command is `ucci`) on standard input and output.
    Uci,
    /// Search fixed positions to a fixed depth and print the total node count: a signature of
    /// the search (any change to what the engine does changes it) and its speed.
    Bench(BenchArgs),
    /// Fit the evaluation's weights to the results of games (Texel tuning) and print them.
    Tune(TuneArgs),
}

#[derive(clap::Args)]
struct TuneArgs {
    /// PGN files of games with results (`qi match --pgn` writes them).
    #[arg(required = true)]
    pgn: Vec<std::path::PathBuf>,
    /// Plies at the start of each game to leave out (its opening).
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// Rounds over all weights, at most (1 to 1000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1000))]
    rounds: u64,
    /// Print one JSON object: samples, games, scale, loss_before, loss_after, rounds, weights.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Search depth in plies (1 to 80).
    #[arg(long, default_value_t = xiangqi_engine::bench::DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: u32,
    /// Print one JSON object: depth, positions, nodes, seconds, nps.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct GoArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from the start position, in ICCS, WXF or Chinese notation.
    moves: Vec<String>,
    /// Search depth in plies (1 to 80).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: Option<u32>,
    /// Time to think, in milliseconds (default 1000 when no depth or nodes are given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: Option<u64>,
    /// Stop after about this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=Engine::MAX_HASH_MB as u64))]
    hash: u64,
    /// How many best lines to report (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_MULTIPV as u64))]
    multipv: u64,
    /// Print one JSON object: bestmove, score, depth, nodes, seconds, pv, lines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Sub::Go(go) => run_go(go),
        Sub::Uci => run_uci(),
        Sub::Bench(args) => run_bench(args),
        Sub::Tune(args) => run_tune(args),
    }
}

/// Plays `moves` (any notation) from `pos`; returns the final position and the game before it
/// (for the repetition rules).
fn replay(mut pos: Position, moves: &[String]) -> Result<(Position, Vec<Played>)> {
    let played = super::moves::play_all(&mut pos, &super::moves::move_words(moves))?;
    Ok((pos, played.iter().map(|(before, mv)| Played { hash: before.hash(), mv: *mv }).collect()))
}

fn run_bench(args: BenchArgs) -> Result<()> {
    use xiangqi_engine::bench;
    let verbose = !args.json;
    let n = bench::POSITIONS.len();
    let result = bench::run(args.depth, |i, fen, info| {
        if verbose {
            let best = info.best.map_or("(none)".to_string(), |m| m.to_string());
            println!("position {}/{n}: {fen}: bestmove {best} score {} nodes {}", i + 1, info.score, info.nodes);
        }
    });
    if args.json {
        crate::cli::print_json(&json!({
            "depth": args.depth,
            "positions": n,
            "nodes": result.nodes,
            "seconds": result.elapsed.as_secs_f64(),
            "nps": result.nps(),
        }));
    } else {
        println!("Total time (ms) : {}", result.elapsed.as_millis());
        println!("Nodes searched  : {}", result.nodes);
        println!("Nodes/second    : {}", result.nps());
    }
    Ok(())
}

fn run_tune(args: TuneArgs) -> Result<()> {
    use xiangqi_engine::tune;
    // Every fifth game is held out, to tell a better fit from one that learnt the games by heart.
    let (mut data, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in &args.pgn {
        let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let text = xiangqi::pgn::decode(&bytes);
        for (i, game) in xiangqi::pgn::read_games(&text).into_iter().enumerate() {
            let game = game.map_err(|e| anyhow::anyhow!("{}, game {}: {e}", path.display(), i + 1))?;
            let red_score = match game.result.as_deref() {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                // A game without a result teaches nothing.
                _ => continue,
            };
            games += 1;
            let into = if games % 5 == 0 { &mut held_out } else { &mut data };
            into.extend(tune::samples(&game.start, &game.main_line(), red_score, args.skip));
        }
    }
    if data.is_empty() {
        bail!("no positions to learn from: the files hold no finished games");
    }
    let verbose = !args.json;
    if verbose {
        eprintln!("{} positions to fit and {} held out, from {games} games", data.len(), held_out.len());
    }
    let tuned = tune::tune(&data, xiangqi_engine::Weights::DEFAULT, args.rounds as usize, |round, loss| {
        if verbose {
            eprintln!("round {round}: error {loss:.6}");
        }
    });
    let weights: serde_json::Map<String, serde_json::Value> =
        xiangqi_engine::Weights::names().zip(tuned.weights.values()).map(|(name, &v)| (name, json!(v))).collect();
    let held_out_before = tune::loss(&held_out, &xiangqi_engine::Weights::DEFAULT, tuned.scale);
    let held_out_after = tune::loss(&held_out, &tuned.weights, tuned.scale);
    if args.json {
        crate::cli::print_json(&json!({
            "games": games,
            "samples": data.len(),
            "held_out_samples": held_out.len(),
            "held_out_loss_before": held_out_before,
            "held_out_loss_after": held_out_after,
            "scale": tuned.scale,
            "loss_before": tuned.loss_before,
            "loss_after": tuned.loss_after,
            "rounds": tuned.rounds,
            "weights": weights,
        }));
    } else {
        println!(
            "scale {:.4}; error {:.6} -> {:.6} in {} rounds; on the held-out games {:.6} -> {:.6}",
            tuned.scale, tuned.loss_before, tuned.loss_after, tuned.rounds, held_out_before, held_out_after
        );
        for (name, (&old, &new)) in xiangqi_engine::Weights::names()
            .zip(xiangqi_engine::Weights::DEFAULT.values().iter().zip(tuned.weights.values()))
        {
            let mark = if old != new { " *" } else { "" };
            println!("{name:40} {old:6} -> {new:6}{mark}");
        }
    }
    Ok(())
}

fn run_go(args: GoArgs) -> Result<()> {
    let start = match &args.fen {
        Some(f) => super::parse_position(f)?,
        None => Position::startpos(),
    };
    let (pos, hashes) = replay(start, &args.moves)?;
    let movetime = args.movetime.or(if args.depth.is_none() && args.nodes.is_none() { Some(1000) } else { None });
    let limits = Limits {
        depth: args.depth,
        time: movetime.map(Duration::from_millis),
        optimum: None,
        nodes: args.nodes,
        multipv: args.multipv as usize,
    };
    let mut engine = Engine::new(args.hash as usize);
    let verbose = !args.json;
    let info = engine.search(&pos, &hashes, &limits, |i| {
        if verbose {
            for line in info_lines(i, Dialect::Uci, limits.multipv) {
                println!("{line}");
            }
        }
    });
    let best = info.best.map(|m| m.to_string());
    if args.json {
        let moves = |pv: &[Move]| pv.iter().map(ToString::to_string).collect::<Vec<_>>();
        crate::cli::print_json(&json!({
            "fen": pos.fen(),
            "bestmove": best,
            "score": info.score.centipawns(),
            "mate": info.score.mate_in(),
            "depth": info.depth,
            "seldepth": info.seldepth,
            "nodes": info.nodes,
            "seconds": info.elapsed.as_secs_f64(),
            "pv": moves(&info.pv),
            "lines": info.lines.iter().map(|l| json!({
                "score": l.score.centipawns(), "mate": l.score.mate_in(), "pv": moves(&l.pv),
            })).collect::<Vec<_>>(),
        }));
    } else {
        println!("bestmove {}", best.as_deref().unwrap_or("(none)"));
    }
    Ok(())
}

/// The `info` lines for one iteration (one per line of a multi-PV search).
fn info_lines(i: &SearchInfo, dialect: Dialect, multipv: usize) -> Vec<String> {
    let ms = i.elapsed.as_millis().max(1);
    let nps = i.nodes as u128 * 1000 / ms;
    i.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
            let score = match (dialect, line.score.mate_in()) {
                (Dialect::Uci, _) => line.score.to_string(),
                // UCCI has no mate form: a mate is a score near the mate value.
                (Dialect::Ucci, _) => line.score.centipawns().to_string(),
            };
            let multi = if multipv > 1 { format!(" multipv {}", k + 1) } else { String::new() };
            match dialect {
                Dialect::Uci => format!(
                    "info depth {} seldepth {}{multi} score {score} nodes {} nps {nps} hashfull {} time {ms} pv {}",
                    i.depth,
                    i.seldepth,
                    i.nodes,
                    i.hashfull,
                    pv.join(" ")
                ),
                Dialect::Ucci => {
                    format!("info depth {} score {score} time {ms} nodes {} pv {}", i.depth, i.nodes, pv.join(" "))
                }
            }
        })
        .collect()
}

/// Writes lines to standard output as one block (the search thread and the command loop both
/// write).
fn say(lines: &[String]) {
    let out = std::io::stdout();
    let mut out = out.lock();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}

/// Settings the GUI can change.
struct Settings {
    multipv: usize,
    overhead: u64,
}

/// A running search: its thread, and the flags that end it.
struct Running {
    thread: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// While set, the search holds its `bestmove` back (infinite search, pondering).
    hold: Arc<AtomicBool>,
    /// With pondering: the thinking time to allow once `ponderhit` comes.
    ponder_time: Option<Duration>,
    /// Which search this is (see `searches` in the loop).
    id: u64,
}

/// The protocol loop. A search runs on its own thread so that `stop`, `ponderhit` and
/// `isready` are answered while it thinks.
fn run_uci() -> Result<()> {
    let mut engine = Some(Engine::new(16));
    let mut running: Option<Running> = None;
    // Counts the searches begun, so that a timer set for one cannot stop the next.
    let searches = Arc::new(AtomicU64::new(0));
    let mut dialect = Dialect::Uci;
    let mut settings = Settings { multipv: 1, overhead: 10 };
    let mut position: Option<(Position, Vec<Played>)> = Some((Position::startpos(), Vec::new()));
    let mut banned: Vec<Move> = Vec::new();
    let error = |dialect: Dialect, e: &dyn std::fmt::Display| match dialect {
        Dialect::Uci => say(&[format!("info string error: {e}")]),
        Dialect::Ucci => say(&[format!("info error: {e}")]),
    };
    let finish = |running: &mut Option<Running>, engine: &mut Option<Engine>| {
        if let Some(r) = running.take() {
            r.hold.store(false, Ordering::SeqCst);
            // Each search has its own flag, which the search never clears.
            r.stop.store(true, Ordering::SeqCst);
            *engine = r.thread.join().ok();
        }
    };
    let stdin = std::io::stdin();
    let mut first = true;
    for line in stdin.lock().lines() {
        let line = line?;
        // The dialect is the first command's; a later `uci` / `ucci` may switch it.
        let command = match protocol::parse(&line, if first && line.trim() == "ucci" { Dialect::Ucci } else { dialect })
        {
            Ok(c) => c,
            Err(e) => {
                if line.split_whitespace().next() == Some("position") {
                    // No stale position: the next `go` must not search the previous one.
                    position = None;
                }
                error(dialect, &e);
                continue;
            }
        };
        if !matches!(command, Command::Ignore) {
            first = false;
        }
        // A finished search's thread is collected before anything else touches the engine.
        if running.as_ref().is_some_and(|r| r.thread.is_finished()) {
            finish(&mut running, &mut engine);
        }
        match command {
            Command::Uci | Command::Ucci => {
                dialect = if command == Command::Uci { Dialect::Uci } else { Dialect::Ucci };
                let hash = engine.as_ref().map_or(16, Engine::hash_mb);
                let max = Engine::MAX_HASH_MB;
                say(&match dialect {
                    Dialect::Uci => vec![
                        format!("id name Qi {}", env!("CARGO_PKG_VERSION")),
                        "id author the Qi developers".into(),
                        format!("option name Hash type spin default {hash} min 1 max {max}"),
                        "option name Clear Hash type button".into(),
                        "option name Threads type spin default 1 min 1 max 1".into(),
                        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                        format!("option name Move Overhead type spin default 10 min 0 max {MAX_MOVE_OVERHEAD}"),
                        "option name Ponder type check default false".into(),
                        "uciok".into(),
                    ],
                    Dialect::Ucci => vec![
                        format!("id name Qi {}", env!("CARGO_PKG_VERSION")),
                        "id author the Qi developers".into(),
                        format!("option hashsize type spin min 1 max {max} default {hash}"),
                        "option newgame type button".into(),
                        "ucciok".into(),
                    ],
                });
            }
            Command::IsReady => say(&["readyok".into()]),
            Command::NewGame
            | Command::SetOption(EngineOption::NewGame)
            | Command::SetOption(EngineOption::ClearHash) => {
                finish(&mut running, &mut engine);
                if let Some(e) = engine.as_mut() {
                    e.clear();
                }
            }
            Command::SetOption(option) => match option {
                EngineOption::Hash(mb) => {
                    finish(&mut running, &mut engine);
                    if let Some(Err(e)) = engine.as_mut().map(|e| e.set_hash(mb)) {
                        error(dialect, &e);
                    }
                }
                EngineOption::MultiPv(n) => settings.multipv = n,
                EngineOption::MoveOverhead(ms) => settings.overhead = ms,
                _ => {}
            },
            Command::Position { position: p, history } => {
                position = Some((p, history));
                banned.clear();
            }
            Command::BanMoves(moves) => banned = moves,
            Command::Probe(p) => {
                let found = engine.as_ref().and_then(|e| e.probe(&p));
                say(&[match found {
                    Some((mv, score, depth)) => format!(
                        "pophash bestmove {} score {} depth {depth}",
                        mv.map_or("0000".to_string(), |m| m.to_string()),
                        score.centipawns()
                    ),
                    None => "pophash".into(),
                }]);
            }
            Command::Go(go) => {
                finish(&mut running, &mut engine);
                let Some((pos, history)) = position.clone() else {
                    error(dialect, &"no position to search: the last position command was refused");
                    say(&[match dialect {
                        Dialect::Uci => "bestmove (none)".into(),
                        Dialect::Ucci => "nobestmove".into(),
                    }]);
                    continue;
                };
                let Some(mut e) = engine.take() else { bail!("the search thread failed") };
                let think = go.think_time(pos.turn(), settings.overhead);
                let waits = go.infinite || go.ponder;
                let limits = Limits {
                    depth: go.depth.map(|d| d.min(MAX_DEPTH)),
                    nodes: go.nodes,
                    time: if waits { None } else { think },
                    optimum: if waits { None } else { go.optimum_time(pos.turn(), settings.overhead) },
                    multipv: settings.multipv,
                };
                let only: Option<Vec<Move>> = if !go.searchmoves.is_empty() {
                    Some(go.searchmoves.clone())
                } else if !banned.is_empty() {
                    Some(pos.legal_moves().iter().copied().filter(|m| !banned.contains(m)).collect())
                } else {
                    None
                };
                let stop = Arc::new(AtomicBool::new(false));
                e.set_stop_handle(Arc::clone(&stop));
                let hold = Arc::new(AtomicBool::new(waits));
                let (hold2, stop2, multipv) = (hold.clone(), stop.clone(), settings.multipv);
                let thread = std::thread::spawn(move || {
                    let info = e.search_moves(&pos, &history, &limits, only.as_deref(), |i| {
                        say(&info_lines(i, dialect, multipv));
                    });
                    // An infinite or pondering search answers only when told to stop.
                    while hold2.load(Ordering::SeqCst) && !stop2.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    let ponder = info.pv.get(1).map(|m| format!(" ponder {m}")).unwrap_or_default();
                    say(&[match (info.best, dialect) {
                        (Some(m), _) => format!("bestmove {m}{ponder}"),
                        (None, Dialect::Uci) => "bestmove (none)".into(),
                        (None, Dialect::Ucci) => "nobestmove".into(),
                    }]);
                    e
                });
                let id = searches.fetch_add(1, Ordering::SeqCst) + 1;
                running = Some(Running { thread, stop, hold, ponder_time: if go.ponder { think } else { None }, id });
            }
            Command::PonderHit => {
                if let Some(r) = running.as_mut() {
                    // The search goes on; from now on it has the time the clock gives.
                    r.hold.store(false, Ordering::SeqCst);
                    match r.ponder_time.take() {
                        Some(t) => {
                            let (stop, searches, id) = (r.stop.clone(), searches.clone(), r.id);
                            std::thread::spawn(move || {
                                std::thread::sleep(t);
                                // Only this search: a later one has another number.
                                if searches.load(Ordering::SeqCst) == id {
                                    stop.store(true, Ordering::SeqCst);
                                }
                            });
                        }
                        None => r.stop.store(true, Ordering::SeqCst),
                    }
                }
            }
            Command::Stop => finish(&mut running, &mut engine),
            Command::Quit => break,
            Command::Ignore => {}
        }
    }
    finish(&mut running, &mut engine);
    Ok(())
}
