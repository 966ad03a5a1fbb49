//! `qi record show|convert|image`: game records from other programs (XQF, DhtmlXQ, PGN, plain
//! text; the format is told apart from the bytes), one file or every record file of a folder.
//!
//! `show FILE|DIR [--json]` prints each game; `--json` prints one object
//! `{"format", "games": [{"start_fen", "moves", "variations", "result", "headers", "format",
//! "file", "index", "ecco", "opening", "opening_en"}]}` (the top `format` is `folder` for a
//! folder), written as the games are read (at most `xiangqi::record::MAX_RECORD_GAMES` games in
//! all). `ecco` is the game's ECCO code and `opening` its Chinese name (`opening_en` the English
//! one), by `xiangqi-opening`; null when it has none. `--list` prints one line per game instead
//! (see `list`). `convert IN --to pgn|xqf|dhtmlxq|text [--out OUT]` writes the games in another
//! format and says on stderr what the target could not hold (checked by reading the output
//! back); a target that holds one game (XQF, text) writes each game to its own file when `--out`
//! is a folder; PGN gains the `ECCO`, `Opening` and `Variation` headers when the game has none
//! of them.

mod image;
mod list;
mod sources;

use anyhow::{bail, Context, Result};
use sources::{for_each_game, is_folder, Found};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi::notation::Notation;
use xiangqi::pgn::PgnGame;
use xiangqi::record::{count_comments, count_variations, dhtmlxq, import_each, result_marker, text, xqf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Command {
    /// Print the games of a record (XQF, DhtmlXQ, PGN or plain text) or of a folder of them.
    Show(ShowArgs),
    /// Write a record, or a folder of them, in another format.
    Convert(ConvertArgs),
    /// Draw a position of a game as PNG, SVG, or every move of the main line as a GIF.
    Image(image::ImageArgs),
}

#[derive(clap::Args)]
struct ShowArgs {
    /// The record (`-` for standard input), or a folder: its record files (.xqf, .pgn, .txt,
    /// .dhtml, .htm, .cbr, .cbl...) by name, not its subfolders.
    file: PathBuf,
    /// JSON instead of text: one object, or with `--list` one array.
    #[arg(long)]
    json: bool,
    /// One line per game: index in its file, red, black, event, date, result, plies, file.
    #[arg(long)]
    list: bool,
    /// With `--list`: the order of the lines (else as read).
    #[arg(long, requires = "list")]
    sort: Option<list::SortKey>,
    /// With `--list`: only the games whose players or event hold this text (any case).
    #[arg(long, requires = "list")]
    filter: Option<String>,
}

#[derive(clap::Args)]
struct ConvertArgs {
    /// The record (`-` for standard input), or a folder of records (all their games).
    file: PathBuf,
    /// Target format: pgn, xqf, dhtmlxq or text.
    #[arg(long)]
    to: Target,
    /// Write here instead of standard output. For XQF and text, which hold one game, an
    /// existing folder here gets each game as its own file (`NAME-N.xqf`: the game N of NAME).
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

/// Prints the games as they are read: the command holds the file and one game at a time,
/// however many games the file holds (a collection of 300,000 small games took 1.45 GB when
/// every game and its JSON were kept until the end).
fn show(args: ShowArgs) -> Result<()> {
    if args.list {
        return list::run(&args.file, args.sort, args.filter.as_deref(), args.json);
    }
    let folder = is_folder(&args.file);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut started = false;
    let mut count = 0;
    let tally = for_each_game(&args.file, |found: Found<'_>| {
        if !started {
            started = true;
            let format = if folder { "folder" } else { found.format.name() };
            if args.json {
                write!(out, "{{\"format\":{},\"games\":[", serde_json::Value::from(format))?;
            } else {
                writeln!(out, "format: {format}")?;
            }
        }
        count += 1;
        if args.json {
            if count > 1 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut out, &game_json(&found))?;
        } else {
            write_game_text(&mut out, count, &found, folder)?;
        }
        Ok(())
    })?;
    if args.json {
        if !started {
            out.write_all(b"{\"format\":null,\"games\":[")?;
        }
        out.write_all(b"]}\n")?;
    }
    out.flush()?;
    tally.finish()
}

/// One game of `show --json`.
fn game_json(found: &Found<'_>) -> serde_json::Value {
    let g = &found.game;
    let headers: serde_json::Map<String, serde_json::Value> =
        g.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect();
    let moves = g.main_line();
    let opening = xiangqi_opening::classify(&g.start, &moves);
    serde_json::json!({
        "start_fen": g.start.fen(),
        "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "variations": count_variations(&g.line),
        "result": result_marker(g),
        "headers": headers,
        "format": found.format.name(),
        "file": found.file.display().to_string(),
        "index": found.number,
        "ecco": opening.map(|o| o.code),
        "opening": opening.map(|o| o.name_zh),
        "opening_en": opening.and_then(|o| o.name_en),
    })
}

/// The game with the `ECCO`, `Opening` and `Variation` headers of its opening added, when it
/// has none of the three (a record's own naming is kept as it is).
fn with_opening_tags(g: &PgnGame) -> std::borrow::Cow<'_, PgnGame> {
    let named = ["ECCO", "Opening", "Variation"].iter().any(|k| g.tag(k).is_some());
    let Some(o) = xiangqi_opening::classify(&g.start, &g.main_line()).filter(|_| !named) else {
        return std::borrow::Cow::Borrowed(g);
    };
    let mut g = g.clone();
    g.set_tag("ECCO", o.code);
    g.set_tag("Opening", o.group_zh);
    if let Some(v) = o.variation() {
        g.set_tag("Variation", v);
    }
    std::borrow::Cow::Owned(g)
}

/// One game of `show` as text: its headers, start, counts and moves (in a folder, first its
/// file, format and number there).
fn write_game_text(out: &mut impl Write, number: usize, found: &Found<'_>, folder: bool) -> std::io::Result<()> {
    let g = &found.game;
    writeln!(out, "\ngame {number}")?;
    if folder {
        writeln!(out, "  file: {} ({}, game {})", found.file.display(), found.format, found.number)?;
    }
    for (k, v) in &g.tags {
        writeln!(out, "  {k}: {v}")?;
    }
    writeln!(out, "  start: {}", g.start.fen())?;
    if let Some(o) = xiangqi_opening::classify(&g.start, &g.main_line()) {
        match o.name_en {
            Some(en) => writeln!(out, "  opening: {} {} ({en})", o.code, o.name_zh)?,
            None => writeln!(out, "  opening: {} {}", o.code, o.name_zh)?,
        }
    }
    writeln!(
        out,
        "  {} plies, {} variations, {} comments, result {}",
        g.line.moves.len(),
        count_variations(&g.line),
        count_comments(&g.line),
        result_marker(g)
    )?;
    for l in text::write(g, Notation::Chinese).lines() {
        writeln!(out, "  {l}")?;
    }
    Ok(())
}

/// Converts game by game: each is written and read back on its own, so the command holds
/// the input, the output and one game (it held every game, 250 MB for 100,000 small ones).
/// Nothing is written unless every game converts.
fn convert(args: ConvertArgs) -> Result<()> {
    let one_game = matches!(args.to, Target::Xqf | Target::Text);
    // A one-game target with a folder to write to: one file per game.
    let out_folder = args.out.as_deref().filter(|p| one_game && p.is_dir());
    let folder = is_folder(&args.file);
    let mut output = Vec::new();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut names = HashSet::new();
    let mut count = 0;
    // The first game's losses wait until it is known whether others follow: then every line
    // names its game.
    let mut first_losses: Option<Vec<String>> = None;
    let tally = for_each_game(&args.file, |found: Found<'_>| {
        count += 1;
        let n = count;
        if one_game && n > 1 && out_folder.is_none() {
            return Ok(());
        }
        let before = &found.game;
        let written = match args.to {
            Target::Pgn => {
                let text = with_opening_tags(before).write(Notation::Chinese);
                if n > 1 {
                    output.push(b'\n');
                }
                text.into_bytes()
            }
            Target::Dhtmlxq => dhtmlxq::write(before).into_bytes(),
            Target::Xqf => xqf::write(before),
            Target::Text => text::write(before, Notation::Chinese).into_bytes(),
        };
        // What the target lost: read it back and compare.
        let prefix = if folder {
            format!("{} game {}: ", found.file.display(), found.number)
        } else if n > 1 {
            format!("game {n}: ")
        } else {
            String::new()
        };
        let after = match import_each(&written).next() {
            Some(Ok(a)) => a,
            Some(Err(e)) => bail!("{prefix}the output does not read back: {e}"),
            None => bail!("{prefix}the output does not read back"),
        };
        let losses = losses(before, &after);
        match first_losses.take() {
            None if n == 1 && !folder => first_losses = Some(losses),
            earlier => {
                for line in earlier.into_iter().flatten() {
                    eprintln!("game 1: dropped: {line}");
                }
                for line in losses {
                    eprintln!("{prefix}dropped: {line}");
                }
            }
        }
        match out_folder {
            Some(dir) => {
                let name = game_file_name(found.file, found.number, args.to);
                if !names.insert(name.clone()) {
                    bail!("two games would be written to {} in {}", name, dir.display());
                }
                files.push((dir.join(name), written));
            }
            None => output.extend_from_slice(&written),
        }
        Ok(())
    })?;
    for line in first_losses.into_iter().flatten() {
        eprintln!("dropped: {line}");
    }
    if tally.good == 0 {
        bail!("no game could be read from {}", args.file.display());
    }
    if one_game && tally.good > 1 && out_folder.is_none() {
        eprintln!(
            "dropped: games 2 to {} (the target holds one game; --out FOLDER writes each to its own file)",
            tally.good
        );
    }
    for (path, bytes) in &files {
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    match (&args.out, out_folder) {
        (_, Some(dir)) => eprintln!("wrote {} files in {}", files.len(), dir.display()),
        (Some(path), None) => {
            std::fs::write(path, &output).with_context(|| format!("cannot write {}", path.display()))?
        }
        (None, None) => std::io::stdout().write_all(&output)?,
    }
    tally.finish()
}

/// The file a game gets in an output folder: its record's name, its number there and the
/// target's extension (`a.pgn`'s third game as XQF: `a-3.xqf`).
fn game_file_name(record: &Path, number: usize, to: Target) -> String {
    let stem = record.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into());
    let stem = if stem == "-" { "game".to_string() } else { stem };
    let ext = match to {
        Target::Xqf => "xqf",
        Target::Text => "txt",
        Target::Pgn => "pgn",
        Target::Dhtmlxq => "dhtml",
    };
    format!("{stem}-{number}.{ext}")
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
            None if k == "Result" && result_marker(before) == result_marker(after) => {}
            None => out.push(format!("header {k}")),
            Some(w) if w != v && !(k == "Result" && result_marker(before) == result_marker(after)) => {
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
