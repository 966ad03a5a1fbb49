//! `qi explore [--fen FEN] [--json] FEN|MOVES...`: the opening explorer on the master games.
//!
//! For the position a FEN gives (an argument with a `/`), or that moves (any notation, from
//! `--fen`, the standard start by default) reach: the moves the master games played from it,
//! each with its games, Red wins, draws, Black wins and a typical game, and the ECCO opening.
//! `--json` prints the explorer's report (`xiangqi_explorer::Report`), the same object the
//! server's `/api/xq/explore` and the browser's explorer module answer.

use anyhow::Result;
use xiangqi_explorer::{explore, master, Report};

#[derive(clap::Args)]
pub struct Args {
    /// Start position of the moves (FEN or `startpos`).
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// Print one JSON object: {"fen", "ecco", "depth", "total", "red", "draw", "black", "moves"}.
    #[arg(long)]
    json: bool,
    /// A FEN, or moves (ICCS, WXF or Chinese; one per argument or several in one); none for
    /// the start position.
    position: Vec<String>,
}

pub fn run(args: Args) -> Result<()> {
    let joined = args.position.join(" ");
    let report = if joined.contains('/') {
        explore(&[master()], &super::parse_position(&joined)?, &[])
    } else {
        let mut pos = super::parse_position(&args.fen)?;
        let start = pos.clone();
        let words = super::moves::move_words(&args.position);
        let moves: Vec<_> = super::moves::play_all(&mut pos, &words)?.into_iter().map(|(_, m)| m).collect();
        explore(&[master()], &start, &moves)
    };
    if args.json {
        super::print_json(&serde_json::to_value(&report)?);
    } else {
        print_text(&report);
    }
    Ok(())
}

/// A share of `part` in `whole`, in whole per cent.
fn percent(part: u32, whole: u32) -> u32 {
    (part * 100 + whole / 2).checked_div(whole).unwrap_or(0)
}

fn print_text(report: &Report) {
    match &report.ecco {
        Some(e) => {
            println!("{} {}{}", e.code, e.name_zh, e.name_en.as_ref().map(|en| format!(" ({en})")).unwrap_or_default())
        }
        None => println!("no ECCO opening"),
    }
    if report.moves.is_empty() {
        println!("no master game reached this position in its first {} plies", report.depth);
        return;
    }
    println!("{} games", report.total);
    for m in &report.moves {
        println!(
            "{:<5} {:<6} {:<10} {:>5}  red {:>3}%  draw {:>3}%  black {:>3}%  {}",
            m.mv,
            m.wxf,
            m.chinese,
            m.games,
            percent(m.red, m.games),
            percent(m.draw, m.games),
            percent(m.black, m.games),
            m.typical.id
        );
    }
}
