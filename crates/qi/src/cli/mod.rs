//! Subcommands: each lives in its own file and owns its arguments.

use clap::{Parser, Subcommand};

mod backup;
mod bench;
mod bench_rooms;
mod engine;
mod engine_datagen;
mod engine_eval;
mod engine_train;
mod explore;
mod game;
mod huarong;
mod link;
mod r#match;
mod moves;
mod opening;
mod perft;
mod pgn;
mod puzzle;
mod record;
mod serve;
mod serve_config;
mod serve_rooms;
mod site;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "qi", version, about = "Xiangqi and Huarong Dao: rules, share links, solver, web app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// `defer`: a subcommand's arguments are built only when it is the one run, not all of them
// on every start (most of a short command's start-up was building and freeing that tree).
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// Count legal move paths to a depth (move generator test and speed).
    Perft(perft::Args),
    /// Measure move generation speed (perft leaves per second, medians).
    Bench(bench::Args),
    /// The engine: best move for a position, or a UCI loop.
    Engine(engine::Args),
    /// Run the web app: play, share and replay Xiangqi games; play and solve Huarong Dao.
    Serve(Box<serve::Args>),
    /// Write the single-player site (board, links, analysis, Huarong Dao) as static files.
    Site(site::Args),
    /// Convert PGN files between notations.
    Pgn(pgn::Args),
    /// Game records from other programs (XQF, DhtmlXQ, plain text, PGN): show, convert, draw.
    Record(record::Args),
    /// Convert moves between ICCS, WXF and Chinese notation.
    Moves(moves::Args),
    /// Name an opening: its ECCO code and Chinese and English names, from moves or a FEN.
    Opening(opening::Args),
    /// The opening explorer: the master games' moves from a position, with results and a typical game.
    Explore(explore::Args),
    /// Judge a game: checkmate, stalemate, repetition, move limit.
    Game(game::Args),
    /// Huarong Dao (华容道): solve, list the classics, survey every layout, look one up.
    Huarong(huarong::Args),
    /// Xiangqi puzzles: find them in games with the engine, list the shipped set.
    Puzzle(puzzle::Args),
    /// Share links: encode, decode, measure, train the compact format's model.
    Link(link::Args),
    /// Play two engines (UCI or UCCI) against each other: W/D/L, Elo, SPRT, PGN.
    Match(Box<r#match::Args>),
    /// Copy a data folder's rooms while `qi serve` keeps playing on it.
    Backup(backup::Args),
}

/// Parses the command line, runs the subcommand and turns its error into exit code 1.
pub fn run() -> ExitCode {
    let cli = match serve_config::parse::<Cli>(std::env::args_os().collect()) {
        Ok(serve_config::Parsed::Run(cli)) => cli,
        Ok(serve_config::Parsed::Printed) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    // The server must keep SIGPIPE ignored: a client closing its socket is no reason to die.
    if !matches!(cli.command, Command::Serve(_)) {
        restore_default_sigpipe();
    }
    let result: anyhow::Result<()> = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Serve(args) => serve::run(*args),
        Command::Site(args) => site::run(args),
        Command::Pgn(args) => pgn::run(args),
        Command::Record(args) => record::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Opening(args) => opening::run(args),
        Command::Explore(args) => explore::run(args),
        Command::Game(args) => game::run(args),
        Command::Huarong(args) => huarong::run(args),
        Command::Puzzle(args) => puzzle::run(args),
        Command::Link(args) => link::run(args),
        Command::Match(args) => r#match::run(*args),
        Command::Backup(args) => backup::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Parses `startpos` or a FEN.
pub fn parse_position(fen: &str) -> anyhow::Result<xiangqi::Position> {
    use anyhow::Context;
    if fen.trim() == "startpos" {
        return Ok(xiangqi::Position::startpos());
    }
    xiangqi::Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))
}

/// Prints one JSON object on its own line (the `--json` interface). Serialised into one
/// buffer and written at once: `Display` goes through the formatter token by token (6 % of a
/// one-shot `qi huarong solve --json`'s instructions).
pub fn print_json(value: &serde_json::Value) {
    use std::io::Write;
    let mut line = serde_json::to_vec(value).expect("a JSON value always serialises");
    line.push(b'\n');
    // Like `println!`: a closed pipe ends the process by SIGPIPE (see `restore_default_sigpipe`).
    std::io::stdout().lock().write_all(&line).expect("failed printing to stdout");
}

/// Rust ignores SIGPIPE, so `qi ... | head` would panic on the closed pipe; a command-line tool
/// should simply stop, as the shell expects.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The threads a job given `--threads` runs on: that many, else one per core; 1 to 256.
pub fn threads_or_cores(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, 256)
}
