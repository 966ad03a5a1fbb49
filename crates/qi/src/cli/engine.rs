//! `qi engine`: the engine's best move for a position (`go`), or the protocol loop (`uci`, the
//! engine crate's [`xiangqi_engine::uci`] on standard input and output) for Xiangqi GUIs and
//! match runners: UCI as Pikafish speaks it (ICCS squares `h2e2`) or UCCI as ElephantEye does,
//! chosen by the first command (`uci` or `ucci`).

use anyhow::{bail, Result};
use serde_json::json;
use std::time::Duration;
use xiangqi::{Move, Position};
use xiangqi_engine::protocol::{Dialect, MAX_MULTIPV};
use xiangqi_engine::{uci, Engine, Limits, Played, MAX_DEPTH};

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
    /// Play the engine against itself at a fixed number of nodes and write its quiet positions,
    /// scored and with the game's result, to a training data file (resumable).
    Datagen(super::engine_datagen::DatagenArgs),
    /// Train an evaluation net on data files from `datagen`, and write it in the engine's format.
    Train(super::engine_train::TrainArgs),
    /// Print the static evaluation of positions (centipawns for the side to move): the net's and
    /// the hand-written one's.
    Eval(super::engine_eval::EvalArgs),
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
    /// The evaluation: `<default>`, `classical` or a net file (default: the engine's own).
    #[arg(long)]
    eval_file: Option<String>,
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
    /// Search threads (lazy SMP, 1 to 64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=Engine::MAX_THREADS as u64))]
    threads: u64,
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
        Sub::Uci => Ok(xiangqi_engine::uci::run(std::io::stdin().lock(), std::io::stdout())?),
        Sub::Bench(args) => run_bench(args),
        Sub::Tune(args) => run_tune(args),
        Sub::Datagen(args) => super::engine_datagen::run(args),
        Sub::Train(args) => super::engine_train::run(args),
        Sub::Eval(args) => super::engine_eval::run(args),
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
    let net = match &args.eval_file {
        Some(name) => xiangqi_engine::nnue::load_eval_file(name).map_err(|e| anyhow::anyhow!(e))?,
        None => xiangqi_engine::nnue::default_net(),
    };
    let result = bench::run_with(args.depth, net, |i, fen, info| {
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
        for (i, game) in xiangqi::pgn::games(&text).enumerate() {
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
    engine.set_threads(args.threads as usize)?;
    let verbose = !args.json;
    let info = engine.search(&pos, &hashes, &limits, |i| {
        if verbose {
            for line in uci::info_lines(i, Dialect::Uci, limits.multipv) {
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
