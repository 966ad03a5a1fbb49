//! `qi game status [--fen FEN] [--json] MOVES...`: plays the moves and says how the game stands.

use anyhow::Result;
use serde_json::json;
use xiangqi::outcome::{Game, Rules};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Command {
    /// Print the outcome (ongoing, red wins, black wins, draw) and the reason.
    Status(StatusArgs),
}

#[derive(clap::Args)]
pub struct StatusArgs {
    /// Start position (FEN or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Plies without a capture that draw (0: no limit).
    #[arg(long, default_value_t = Rules::default().move_limit)]
    move_limit: u32,
    /// Occurrences of a position that end the game by the repetition rules.
    #[arg(long, default_value_t = Rules::default().repetitions)]
    repetitions: usize,
    /// Print one JSON object: {"outcome": ..., "reason": ..., "fen": ...}.
    #[arg(long)]
    json: bool,
    /// Moves in any notation, one per argument or space-separated.
    moves: Vec<String>,
}

pub fn run(args: Args) -> Result<()> {
    let Command::Status(args) = args.command;
    let start = super::parse_position(&args.fen)?;
    let mut pos = start.clone();
    let played = super::moves::play_all(&mut pos, &super::moves::move_words(&args.moves))?;
    let moves: Vec<_> = played.iter().map(|(_, m)| *m).collect();
    let rules = Rules { move_limit: args.move_limit, repetitions: args.repetitions };
    let game = Game::from_moves(start, &moves, rules)?;
    let status = game.status();
    let reason = status.reason.map(|r| r.name());
    if args.json {
        crate::cli::print_json(&json!({"outcome": status.outcome.name(), "reason": reason, "fen": pos.fen()}));
    } else {
        match reason {
            Some(r) => println!("{} ({r})", status.outcome),
            None => println!("{}", status.outcome),
        }
    }
    Ok(())
}
