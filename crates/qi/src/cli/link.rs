//! `qi link encode|decode|stats|train`: share links in the seed's format and our compact one.

use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use xiangqi::{Move, Position};
use xiangqi_link::{self as link, board::BoardModel, model::Model, train, LinkFormat};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Compact,
    Seed,
}

impl From<Format> for LinkFormat {
    fn from(format: Format) -> LinkFormat {
        match format {
            Format::Compact => LinkFormat::Compact,
            Format::Seed => LinkFormat::Seed,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Split {
    All,
    Train,
    Test,
}

#[derive(Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Cmd {
    /// Print the link of a game: the query string, or a full URL with --base.
    Encode {
        /// Start position (default: the standard one).
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, value_enum, default_value = "compact")]
        format: Format,
        /// Page address to put in front, e.g. https://example.org/xq
        #[arg(long)]
        base: Option<String>,
        /// Moves in ICCS (h2e2 ...).
        moves: Vec<String>,
    },
    /// Decode a full URL, a query string or a bare value of either format.
    Decode {
        link: String,
        /// Print one JSON object: format, start_fen, moves, fen.
        #[arg(long)]
        json: bool,
    },
    /// Encode and decode every game of a games file (fails on any mismatch) and report sizes.
    Stats {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "compact")]
        format: Format,
        /// Which games: all, or the shipped model's training or held-out games (1 in 5).
        #[arg(long, value_enum, default_value = "all")]
        split: Split,
        #[arg(long)]
        json: bool,
    },
    /// Build the compact format's model data from a games file (training games only).
    Train {
        file: PathBuf,
        /// Directory for link_v1_{weights.txt,book.bin,board.txt}.
        #[arg(long, default_value = "crates/xiangqi-link/data")]
        out: PathBuf,
        /// Passes over the training games (1 to 1000).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
        epochs: u32,
        /// Book positions must occur in at least this many training games (1 to 1,000,000).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        min_book: u32,
        /// Experiment: hold out the games whose id contains this text (e.g. one player's)
        /// instead of one game in five. Write such data elsewhere than the shipped files.
        #[arg(long)]
        hold_out_id: Option<String>,
    },
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Cmd::Encode { fen, format, base, moves } => encode(fen, format, base, &moves),
        Cmd::Decode { link, json } => decode(&link, json),
        Cmd::Stats { file, format, split, json } => stats(&file, format, split, json),
        Cmd::Train { file, out, epochs, min_book, hold_out_id } => {
            train_cmd(&file, &out, epochs as usize, min_book, hold_out_id.as_deref())
        }
    }
}

fn encode(fen: Option<String>, format: Format, base: Option<String>, moves: &[String]) -> Result<()> {
    let start = match fen {
        Some(f) => super::parse_position(&f)?,
        None => Position::startpos(),
    };
    // Any notation; an unreadable or illegal move is named before anything is encoded.
    let played = super::moves::play_all(&mut start.clone(), &super::moves::move_words(moves))?;
    let list: Vec<Move> = played.iter().map(|&(_, m)| m).collect();
    let query = link::encode_query(format.into(), &start, &list)?;
    match base {
        Some(b) => println!("{b}{}{query}", if b.contains('?') { '&' } else { '?' }),
        None => println!("{query}"),
    }
    Ok(())
}

fn decode(text: &str, as_json: bool) -> Result<()> {
    let game = link::decode(text)?;
    let moves: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
    let fen = game.final_position().fen();
    if as_json {
        crate::cli::print_json(&json!({
            "format": game.format.name(),
            "start_fen": game.start.fen(),
            "moves": moves,
            "fen": fen,
        }));
    } else {
        println!("format    {}", game.format.name());
        println!("start     {}", game.start.fen());
        println!("moves     {}", moves.join(" "));
        println!("final     {fen}");
    }
    Ok(())
}

fn read_games(file: &PathBuf) -> Result<Vec<train::Game>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    train::parse_games(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))
}

fn stats(file: &PathBuf, format: Format, split: Split, as_json: bool) -> Result<()> {
    let games = read_games(file)?;
    let t0 = Instant::now();
    let (mut n, mut plies, mut bits, mut chars, mut board_bits) = (0usize, 0usize, 0usize, 0usize, 0usize);
    for (i, g) in games.iter().enumerate() {
        match split {
            Split::Train if train::is_held_out(i) => continue,
            Split::Test if !train::is_held_out(i) => continue,
            _ => {}
        }
        // Fails on any game that does not come back the same.
        link::encode_query(format.into(), &g.start, &g.moves).with_context(|| format!("game {}", g.id))?;
        let game_bits = match format {
            Format::Compact => {
                let value = link::compact::try_encode(&g.start, &g.moves)?;
                chars += value.len();
                // All of the value but the version character: the whole game's code.
                link::compact::stream_bits(&g.start, &g.moves)?
            }
            Format::Seed => {
                let (l, hist_bits, _) = link::seed::encode_counted(&g.start, &g.moves)?;
                chars += l.p.len() + l.r.len();
                hist_bits
            }
        };
        let last = g.final_position();
        board_bits += match format {
            Format::Compact => BoardModel::v1().bits(&last),
            Format::Seed => link::seed::encode_counted(&last, &[])?.2,
        };
        bits += game_bits;
        plies += g.moves.len();
        n += 1;
    }
    if n == 0 {
        bail!("no games in {}", file.display());
    }
    let seconds = t0.elapsed().as_secs_f64();
    let bpp = bits as f64 / plies.max(1) as f64;
    let cpg = chars as f64 / n as f64;
    let bb = board_bits as f64 / n as f64;
    if as_json {
        crate::cli::print_json(&json!({
            "games": n, "plies": plies, "bits_per_ply": bpp, "chars_per_game": cpg, "board_bits": bb,
            "seconds": seconds,
        }));
    } else {
        println!("games           {n}");
        println!("plies           {plies}");
        println!("bits per ply    {bpp:.4}");
        println!("chars per game  {cpg:.2}");
        println!("board bits      {bb:.2}");
        println!("time            {seconds:.2} s (encode + decode + check)");
    }
    Ok(())
}

fn train_cmd(file: &PathBuf, out: &PathBuf, epochs: usize, min_book: u32, hold_out_id: Option<&str>) -> Result<()> {
    let games = read_games(file)?;
    let (mut tr, mut te) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        let held_out = match hold_out_id {
            Some(text) => g.id.contains(text),
            None => train::is_held_out(i),
        };
        if held_out {
            te.push(g)
        } else {
            tr.push(g)
        }
    }
    let t0 = Instant::now();
    let weights = train::train_weights(&tr, epochs);
    let book = train::build_book(&tr, min_book);
    let board = train::build_board(&tr);
    let wtext = train::weights_text(&weights);
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("link_v1_weights.txt"), &wtext)?;
    std::fs::write(out.join("link_v1_book.bin"), &book)?;
    std::fs::write(out.join("link_v1_board.txt"), &board)?;
    let model = Model::from_data(&wtext, &book);
    let no_book = Model::from_data(&wtext, &[]);
    let bm = BoardModel::from_text(&board);
    println!("trained on {} games, {} held out, in {:.1} s", tr.len(), te.len(), t0.elapsed().as_secs_f64());
    for (name, set) in [("train", &tr), ("test", &te)] {
        let (b, p) = train::ideal_bits(&model, set);
        let (b0, _) = train::ideal_bits(&no_book, set);
        let boards: f64 = set.iter().map(|g| bm.bits(&g.final_position()) as f64).sum::<f64>() / set.len() as f64;
        println!(
            "{name:5}: {p} plies, ideal {:.4} bits/ply with book, {:.4} without; board {boards:.2} bits",
            b / p as f64,
            b0 / p as f64
        );
    }
    Ok(())
}
