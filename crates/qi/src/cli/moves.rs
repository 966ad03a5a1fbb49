//! `qi moves convert --to iccs|wxf|chinese|traditional|vietnamese [--fen FEN] [--json] MOVES...`:
//! reads moves in any notation and prints them in another.

use anyhow::{anyhow, Result};
use serde_json::json;
use xiangqi::notation::{format, parse, Notation};
use xiangqi::{Move, Position};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Command {
    /// Convert moves (ICCS, WXF, Chinese or Vietnamese, mixed freely) to one notation.
    Convert(ConvertArgs),
}

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// Target notation: iccs, wxf, chinese (simplified), traditional (Chinese in traditional
    /// characters) or vietnamese.
    #[arg(long)]
    to: Notation,
    /// Start position (FEN or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Print one JSON object: {"moves": [...], "fen": final FEN}.
    #[arg(long)]
    json: bool,
    /// Moves, one per argument or several in one space-separated argument.
    #[arg(required = true)]
    moves: Vec<String>,
}

/// Splits the arguments into move texts, dropping move numbers such as `1.` or `12...`.
pub fn move_words(args: &[String]) -> Vec<String> {
    args.iter()
        .flat_map(|a| a.split_whitespace())
        .filter(|w| !(w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) && w.ends_with('.')))
        .map(str::to_string)
        .collect()
}

/// Plays the move texts from `pos`; an unreadable or illegal move is an error naming it, and
/// so is a game longer than [`xiangqi::MAX_GAME_PLIES`].
pub fn play_all(pos: &mut Position, words: &[String]) -> Result<Vec<(Position, Move)>> {
    xiangqi::check_game_length(words.len())?;
    let mut played = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let m = parse(pos, w).map_err(|e| anyhow!("move {} {w:?}: {e}", i + 1))?;
        played.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    Ok(played)
}

pub fn run(args: Args) -> Result<()> {
    let Command::Convert(args) = args.command;
    let mut pos = super::parse_position(&args.fen)?;
    let played = play_all(&mut pos, &move_words(&args.moves))?;
    let out: Vec<String> = played.iter().map(|(p, m)| format(p, *m, args.to)).collect();
    if args.json {
        crate::cli::print_json(&json!({"moves": out, "fen": pos.fen()}));
    } else {
        println!("{}", out.join(" "));
    }
    Ok(())
}
