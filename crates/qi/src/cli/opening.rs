//! `qi opening [--fen FEN] [--json] FEN|MOVES...`: the ECCO code and names of an opening.
//!
//! Given moves (any notation, from `--fen`, the standard start by default), the game is named
//! by the deepest table position it reaches; given a FEN (an argument with a `/`), only that
//! position is looked up. `--json` prints `{"code", "name_zh", "name_en"}` (all null when the
//! table names nothing).

use anyhow::Result;
use serde_json::json;
use xiangqi_opening::Opening;

#[derive(clap::Args)]
pub struct Args {
    /// Start position of the moves (FEN or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Print one JSON object: {"code", "name_zh", "name_en"}.
    #[arg(long)]
    json: bool,
    /// A FEN, or moves (ICCS, WXF or Chinese; one per argument or several in one).
    #[arg(required = true)]
    position: Vec<String>,
}

pub fn run(args: Args) -> Result<()> {
    let joined = args.position.join(" ");
    let opening = if joined.contains('/') {
        xiangqi_opening::classify_position(&super::parse_position(&joined)?)
    } else {
        let mut pos = super::parse_position(&args.fen)?;
        let start = pos.clone();
        let words = super::moves::move_words(&args.position);
        let moves: Vec<_> = super::moves::play_all(&mut pos, &words)?.into_iter().map(|(_, m)| m).collect();
        xiangqi_opening::classify(&start, &moves)
    };
    if args.json {
        super::print_json(&opening_json(opening.as_ref()));
    } else {
        match opening {
            Some(o) => {
                println!("{} {}{}", o.code, o.name_zh, o.name_en.map(|en| format!(" ({en})")).unwrap_or_default())
            }
            None => println!("no ECCO opening"),
        }
    }
    Ok(())
}

fn opening_json(o: Option<&Opening<'_>>) -> serde_json::Value {
    json!({
        "code": o.map(|o| o.code),
        "name_zh": o.map(|o| o.name_zh),
        "name_en": o.and_then(|o| o.name_en),
    })
}
