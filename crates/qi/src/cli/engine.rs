//! `qi engine`: the engine's best move for a position (`go`), or a UCI protocol loop (`uci`)
//! for Xiangqi GUIs (moves in ICCS squares as Pikafish writes them: `h2e2`).

use anyhow::{bail, Context, Result};
use serde_json::json;
use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi::Position;
use xiangqi_engine::{Engine, Limits, SearchInfo};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Search a position and print the best move.
    Go(GoArgs),
    /// Speak the UCI protocol on standard input and output.
    Uci,
}

#[derive(clap::Args)]
struct GoArgs {
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from the start position, in ICCS, WXF or Chinese notation.
    moves: Vec<String>,
    /// Search depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Time to think, in milliseconds (default 1000 when no depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Print one JSON object: bestmove, score, depth, nodes, seconds, pv.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Sub::Go(go) => run_go(go),
        Sub::Uci => run_uci(),
    }
}

/// Plays `moves` (any notation) from `pos`; returns the final position and the hashes of the
/// positions before each move (for repetition).
fn replay(mut pos: Position, moves: &[String]) -> Result<(Position, Vec<u64>)> {
    let played = super::moves::play_all(&mut pos, &super::moves::move_words(moves))?;
    Ok((pos, played.iter().map(|(before, _)| before.hash()).collect()))
}

fn run_go(args: GoArgs) -> Result<()> {
    let start = match &args.fen {
        Some(f) => super::parse_position(f)?,
        None => Position::startpos(),
    };
    let (pos, hashes) = replay(start, &args.moves)?;
    let movetime = args.movetime.or(if args.depth.is_none() { Some(1000) } else { None });
    let limits = Limits { depth: args.depth, time: movetime.map(Duration::from_millis), ..Limits::default() };
    let mut engine = Engine::new(args.hash);
    let verbose = !args.json;
    let info = engine.search(&pos, &hashes, &limits, |i| {
        if verbose {
            println!("{}", info_line(i));
        }
    });
    let best = info.best.map(|m| m.to_string());
    if args.json {
        crate::cli::print_json(&json!({
            "fen": pos.fen(),
            "bestmove": best,
            "score": info.score.centipawns(),
            "mate": info.score.mate_in(),
            "depth": info.depth,
            "nodes": info.nodes,
            "seconds": info.elapsed.as_secs_f64(),
            "pv": info.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }));
    } else {
        println!("bestmove {}", best.as_deref().unwrap_or("(none)"));
    }
    Ok(())
}

fn info_line(i: &SearchInfo) -> String {
    let ms = i.elapsed.as_millis().max(1);
    let pv: Vec<String> = i.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.score,
        i.nodes,
        i.nodes as u128 * 1000 / ms,
        ms,
        pv.join(" ")
    )
}

/// The UCI loop. A search runs on its own thread so that `stop` and `isready` are answered.
fn run_uci() -> Result<()> {
    let mut engine = Some(Engine::new(16));
    let mut worker: Option<JoinHandle<Engine>> = None;
    let mut stop = engine.as_ref().map(Engine::stop_handle).expect("engine present");
    let (mut pos, mut hashes) = (Position::startpos(), Vec::new());
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let finish = |worker: &mut Option<JoinHandle<Engine>>, engine: &mut Option<Engine>| {
            if let Some(w) = worker.take() {
                *engine = w.join().ok();
            }
        };
        match words.first().copied() {
            Some("uci") => println!("id name Qi\nid author the Qi developers\nuciok"),
            Some("isready") => println!("readyok"),
            Some("ucinewgame") => {
                finish(&mut worker, &mut engine);
                if let Some(e) = engine.as_mut() {
                    e.clear();
                }
            }
            Some("position") => match parse_position_command(&words[1..]) {
                Ok((p, h)) => (pos, hashes) = (p, h),
                Err(e) => println!("info string error: {e:#}"),
            },
            Some("go") => {
                finish(&mut worker, &mut engine);
                let Some(mut e) = engine.take() else { bail!("the search thread failed") };
                stop = e.stop_handle();
                let limits = parse_go(&words[1..], &pos);
                let (p, h) = (pos.clone(), hashes.clone());
                worker = Some(std::thread::spawn(move || {
                    let info = e.search(&p, &h, &limits, |i| println!("{}", info_line(i)));
                    println!("bestmove {}", info.best.map_or("(none)".to_string(), |m| m.to_string()));
                    e
                }));
            }
            Some("stop") => {
                stop.store(true, Ordering::Relaxed);
                finish(&mut worker, &mut engine);
            }
            Some("quit") => break,
            _ => {}
        }
    }
    stop.store(true, Ordering::Relaxed);
    if let Some(w) = worker.take() {
        let _ = w.join();
    }
    Ok(())
}

fn parse_position_command(words: &[&str]) -> Result<(Position, Vec<u64>)> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let start = match words.first().copied() {
        Some("startpos") => Position::startpos(),
        Some("fen") => words[1..moves_at].join(" ").parse().context("bad FEN")?,
        _ => bail!("position needs startpos or fen"),
    };
    let moves: Vec<String> = words.get(moves_at + 1..).unwrap_or(&[]).iter().map(|s| s.to_string()).collect();
    replay(start, &moves)
}

/// `go depth N`, `movetime MS`, `nodes N`, `infinite`, or clock times (a 30th of the time left
/// plus the increment).
fn parse_go(words: &[&str], pos: &Position) -> Limits {
    let value = |key: &str| -> Option<u64> {
        words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1)).and_then(|v| v.parse().ok())
    };
    let mut limits = Limits { depth: value("depth").map(|d| d as u32), nodes: value("nodes"), ..Limits::default() };
    let red = pos.turn() == xiangqi::Color::Red;
    let (time, inc) = if red { (value("wtime"), value("winc")) } else { (value("btime"), value("binc")) };
    if let Some(ms) = value("movetime") {
        limits.time = Some(Duration::from_millis(ms));
    } else if let Some(t) = time {
        limits.time = Some(Duration::from_millis(t / 30 + inc.unwrap_or(0) / 2));
    } else if limits.depth.is_none() && limits.nodes.is_none() && !words.contains(&"infinite") {
        limits.time = Some(Duration::from_secs(1));
    }
    limits
}
