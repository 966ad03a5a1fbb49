//! `qi record show|convert|image`: game records from other programs (XQF, DhtmlXQ, PGN, plain
//! text; the format is told apart from the bytes).
//!
//! `show FILE [--json]` prints each game; `--json` prints one object
//! `{"format", "games": [{"start_fen", "moves", "variations", "result", "headers"}]}`.
//! `convert IN --to pgn|xqf|dhtmlxq|text [--out OUT]` writes the games in another format and
//! says on stderr what the target could not hold (checked by reading the output back).

mod image;

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi::notation::Notation;
use xiangqi::pgn::PgnGame;
use xiangqi::record::{count_comments, count_variations, dhtmlxq, import_all, parse_result, text, xqf, Format};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Command {
    /// Print the games of a record (XQF, DhtmlXQ, PGN or plain text).
    Show(ShowArgs),
    /// Write a record in another format.
    Convert(ConvertArgs),
    /// Draw a position of a game as PNG, SVG, or every move of the main line as a GIF.
    Image(image::ImageArgs),
}

#[derive(clap::Args)]
struct ShowArgs {
    /// The record (`-` for standard input).
    file: PathBuf,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// The record (`-` for standard input).
    file: PathBuf,
    /// Target format: pgn, xqf, dhtmlxq or text.
    #[arg(long)]
    to: Target,
    /// Write here instead of standard output.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    Pgn,
    Xqf,
    Dhtmlxq,
    Text,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Show(a) => show(a),
        Command::Convert(a) => convert(a),
        Command::Image(a) => image::run(a),
    }
}

fn read_input(file: &Path) -> Result<Vec<u8>> {
    if file.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))
    }
}

/// Reads a record; the games that read, after reporting the others on stderr.
fn load(file: &Path) -> Result<(Format, Vec<PgnGame>, usize)> {
    let bytes = read_input(file)?;
    let (format, games) = import_all(&bytes);
    let mut good = Vec::new();
    let mut bad = 0;
    for g in games {
        match g {
            Ok(g) => good.push(g),
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                bad += 1;
            }
        }
    }
    Ok((format, good, bad))
}

fn result_of(game: &PgnGame) -> &'static str {
    game.result.as_deref().or_else(|| game.tag("Result")).and_then(parse_result).unwrap_or("*")
}

fn show(args: ShowArgs) -> Result<()> {
    let (format, games, bad) = load(&args.file)?;
    if args.json {
        let games: Vec<serde_json::Value> = games
            .iter()
            .map(|g| {
                let headers: serde_json::Map<String, serde_json::Value> =
                    g.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect();
                serde_json::json!({
                    "start_fen": g.start.fen(),
                    "moves": g.main_line().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                    "variations": count_variations(&g.line),
                    "result": result_of(g),
                    "headers": headers,
                })
            })
            .collect();
        super::print_json(&serde_json::json!({ "format": format.name(), "games": games }));
    } else {
        let mut out = String::new();
        out.push_str(&format!("format: {format}\n"));
        for (i, g) in games.iter().enumerate() {
            out.push_str(&format!("\ngame {}\n", i + 1));
            for (k, v) in &g.tags {
                out.push_str(&format!("  {k}: {v}\n"));
            }
            out.push_str(&format!("  start: {}\n", g.start.fen()));
            out.push_str(&format!(
                "  {} plies, {} variations, {} comments, result {}\n",
                g.line.moves.len(),
                count_variations(&g.line),
                count_comments(&g.line),
                result_of(g)
            ));
            for l in text::write(g, Notation::Chinese).lines() {
                out.push_str(&format!("  {l}\n"));
            }
        }
        std::io::stdout().write_all(out.as_bytes())?;
    }
    if bad > 0 {
        bail!("{bad} of {} games could not be read", games.len() + bad);
    }
    Ok(())
}

fn convert(args: ConvertArgs) -> Result<()> {
    let (_, games, bad) = load(&args.file)?;
    if games.is_empty() {
        bail!("no game could be read from {}", args.file.display());
    }
    let one_game = matches!(args.to, Target::Xqf | Target::Text);
    if one_game && games.len() > 1 {
        eprintln!("dropped: games 2 to {} (the target holds one game)", games.len());
    }
    let written = if one_game { &games[..1] } else { &games[..] };
    let bytes: Vec<u8> = match args.to {
        Target::Pgn => written.iter().map(|g| g.write(Notation::Chinese)).collect::<Vec<_>>().join("\n").into_bytes(),
        Target::Dhtmlxq => written.iter().map(dhtmlxq::write).collect::<String>().into_bytes(),
        Target::Xqf => xqf::write(&written[0]),
        Target::Text => text::write(&written[0], Notation::Chinese).into_bytes(),
    };
    // What the target lost: read it back and compare.
    let (_, back) = import_all(&bytes);
    for (i, (before, after)) in written.iter().zip(back).enumerate() {
        let prefix = if written.len() > 1 { format!("game {}: ", i + 1) } else { String::new() };
        let after = match after {
            Ok(a) => a,
            Err(e) => bail!("{prefix}the output does not read back: {e}"),
        };
        for line in losses(before, &after) {
            eprintln!("{prefix}dropped: {line}");
        }
    }
    match &args.out {
        Some(path) => std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(&bytes)?,
    }
    if bad > 0 {
        bail!("{bad} of {} games could not be read", games.len() + bad);
    }
    Ok(())
}

/// What `after` (the output read back) lacks of `before`, in words.
fn losses(before: &PgnGame, after: &PgnGame) -> Vec<String> {
    let mut out = Vec::new();
    let (vb, va) = (count_variations(&before.line), count_variations(&after.line));
    if va < vb {
        out.push(format!("{} of {vb} variations", vb - va));
    }
    let (cb, ca) = (count_comments(&before.line), count_comments(&after.line));
    if ca < cb {
        out.push(format!("{} of {cb} comments", cb - ca));
    } else if before.line != after.line && va == vb && before.main_line() == after.main_line() {
        out.push("comment text that the target's encoding cannot hold (changed)".into());
    }
    for (k, v) in &before.tags {
        if k == "FEN" || k == "Game" || k == "Format" {
            continue;
        }
        match after.tag(k) {
            None if k == "Result" && result_of(before) == result_of(after) => {}
            None => out.push(format!("header {k}")),
            Some(w) if w != v && !(k == "Result" && result_of(before) == result_of(after)) => {
                out.push(format!("part of header {k} ({w:?} kept)"))
            }
            _ => {}
        }
    }
    if before.start.fullmoves() != after.start.fullmoves() {
        out.push(format!("the move counter (starts at {} again)", after.start.fullmoves()));
    }
    out
}
