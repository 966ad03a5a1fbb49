//! `qi record show|convert|image`: game records from other programs (XQF, DhtmlXQ, PGN, plain
//! text; the format is told apart from the bytes).
//!
//! `show FILE [--json]` prints each game; `--json` prints one object
//! `{"format", "games": [{"start_fen", "moves", "variations", "result", "headers", "ecco",
//! "opening", "opening_en"}]}`, written as the games are read (a file holds at most
//! `xiangqi::record::MAX_RECORD_GAMES` games). `ecco` is the game's ECCO code and `opening` its
//! Chinese name (`opening_en` the English one), by `xiangqi-opening`; null when it has none.
//! `convert IN --to pgn|xqf|dhtmlxq|text [--out OUT]` writes the games in another format and
//! says on stderr what the target could not hold (checked by reading the output back); PGN
//! gains the `ECCO`, `Opening` and `Variation` headers when the game has none of them.

mod image;

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi::notation::Notation;
use xiangqi::pgn::PgnGame;
use xiangqi::record::{
    count_comments, count_variations, dhtmlxq, import_each, parse_result, text, xqf, RecordError, RecordErrorKind,
    MAX_RECORD_GAMES,
};

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

/// The games of a record as they are read: each one that does not read is reported on stderr
/// and counted, and the end says what was missing.
struct Tally<'a> {
    file: &'a Path,
    good: usize,
    bad: usize,
    /// Whether the reader stopped at the games bound.
    cut: bool,
}

impl<'a> Tally<'a> {
    fn new(file: &'a Path) -> Self {
        Tally { file, good: 0, bad: 0, cut: false }
    }

    /// The game, or `None` after reporting why it did not read.
    fn take(&mut self, game: Result<PgnGame, RecordError>) -> Option<PgnGame> {
        match game {
            Ok(g) => {
                self.good += 1;
                Some(g)
            }
            Err(e) => {
                eprintln!("{}: {e}", self.file.display());
                if e.kind == RecordErrorKind::TooManyGames {
                    self.cut = true;
                } else {
                    self.bad += 1;
                }
                None
            }
        }
    }

    /// An error when a game did not read, or the file held more games than are read.
    fn finish(&self) -> Result<()> {
        if self.bad > 0 {
            bail!("{} of {} games could not be read", self.bad, self.good + self.bad);
        }
        if self.cut {
            bail!("only the first {MAX_RECORD_GAMES} games were read (the limit)");
        }
        Ok(())
    }
}

fn result_of(game: &PgnGame) -> &'static str {
    game.result.as_deref().or_else(|| game.tag("Result")).and_then(parse_result).unwrap_or("*")
}

/// Prints the games as they are read: the command holds the file and one game at a time,
/// however many games the file holds (a collection of 300,000 small games took 1.45 GB when
/// every game and its JSON were kept until the end).
fn show(args: ShowArgs) -> Result<()> {
    let bytes = read_input(&args.file)?;
    let games = import_each(&bytes);
    let format = games.format();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = Tally::new(&args.file);
    if args.json {
        write!(out, "{{\"format\":{},\"games\":[", serde_json::Value::from(format.name()))?;
    } else {
        writeln!(out, "format: {format}")?;
    }
    for game in games {
        let Some(g) = tally.take(game) else { continue };
        if args.json {
            if tally.good > 1 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut out, &game_json(&g))?;
        } else {
            write_game_text(&mut out, tally.good, &g)?;
        }
    }
    if args.json {
        out.write_all(b"]}\n")?;
    }
    out.flush()?;
    tally.finish()
}

/// One game of `show --json`.
fn game_json(g: &PgnGame) -> serde_json::Value {
    let headers: serde_json::Map<String, serde_json::Value> =
        g.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect();
    let moves = g.main_line();
    let opening = xiangqi_opening::classify(&g.start, &moves);
    serde_json::json!({
        "start_fen": g.start.fen(),
        "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "variations": count_variations(&g.line),
        "result": result_of(g),
        "headers": headers,
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

/// One game of `show` as text: its headers, start, counts and moves.
fn write_game_text(out: &mut impl Write, number: usize, g: &PgnGame) -> std::io::Result<()> {
    writeln!(out, "\ngame {number}")?;
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
        result_of(g)
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
    let bytes = read_input(&args.file)?;
    let one_game = matches!(args.to, Target::Xqf | Target::Text);
    let mut tally = Tally::new(&args.file);
    let mut output = Vec::new();
    // The first game's losses wait until it is known whether others follow: then every line
    // names its game.
    let mut first_losses: Option<Vec<String>> = None;
    for game in import_each(&bytes) {
        let Some(before) = tally.take(game) else { continue };
        let n = tally.good;
        if one_game && n > 1 {
            continue;
        }
        let written = match args.to {
            Target::Pgn => {
                let text = with_opening_tags(&before).write(Notation::Chinese);
                if n > 1 {
                    output.push(b'\n');
                }
                text.into_bytes()
            }
            Target::Dhtmlxq => dhtmlxq::write(&before).into_bytes(),
            Target::Xqf => xqf::write(&before),
            Target::Text => text::write(&before, Notation::Chinese).into_bytes(),
        };
        // What the target lost: read it back and compare.
        let prefix = if n > 1 { format!("game {n}: ") } else { String::new() };
        let after = match import_each(&written).next() {
            Some(Ok(a)) => a,
            Some(Err(e)) => bail!("{prefix}the output does not read back: {e}"),
            None => bail!("{prefix}the output does not read back"),
        };
        let losses = losses(&before, &after);
        match first_losses.take() {
            None if n == 1 => first_losses = Some(losses),
            earlier => {
                for line in earlier.into_iter().flatten() {
                    eprintln!("game 1: dropped: {line}");
                }
                for line in losses {
                    eprintln!("{prefix}dropped: {line}");
                }
            }
        }
        output.extend_from_slice(&written);
    }
    for line in first_losses.into_iter().flatten() {
        eprintln!("dropped: {line}");
    }
    if tally.good == 0 {
        bail!("no game could be read from {}", args.file.display());
    }
    if one_game && tally.good > 1 {
        eprintln!("dropped: games 2 to {} (the target holds one game)", tally.good);
    }
    match &args.out {
        Some(path) => std::fs::write(path, &output).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(&output)?,
    }
    tally.finish()
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
