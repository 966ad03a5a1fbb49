//! `qi record image IN [--ply N] --out x.png|x.svg|x.gif`: a picture of a game's position
//! after N plies of the main line (the end by default), the last move marked; a GIF has one
//! frame per move of the main line (plies + 1 frames). The drawing is `qi-board-image`'s.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ImageArgs {
    /// The record (XQF, DhtmlXQ, PGN or plain text; `-` for standard input).
    file: PathBuf,
    /// The picture to write; its extension (.png, .svg or .gif) chooses the format.
    #[arg(long)]
    out: PathBuf,
    /// Draw the position after this many plies of the main line (default: its end). A GIF
    /// plays the main line up to here.
    #[arg(long)]
    ply: Option<usize>,
    /// Which game of the record (from 1).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Pixels between two lines of the board.
    #[arg(long, default_value_t = 48)]
    cell: u32,
    /// Leave out the file numbers.
    #[arg(long)]
    no_coordinates: bool,
    /// GIF: hundredths of a second per frame.
    #[arg(long, default_value_t = 100)]
    delay: u16,
}

pub fn run(args: ImageArgs) -> Result<()> {
    // Only the game asked for is kept; the others are counted.
    let bytes = super::sources::read_input(&args.file)?;
    let mut tally = super::sources::Tally::default();
    let mut chosen = None;
    for game in xiangqi::record::import_each(&bytes) {
        if let Some(g) = tally.take(&args.file, game) {
            if tally.good == args.game {
                chosen = Some(g);
            }
        }
    }
    let Some(game) = chosen.as_ref() else {
        bail!("{} has {} readable games; there is no game {}", args.file.display(), tally.good, args.game);
    };
    let line = game.main_line();
    let ply = args.ply.unwrap_or(line.len());
    if ply > line.len() {
        bail!("the main line has {} plies; there is no ply {ply}", line.len());
    }
    let style = qi_board_image::Style { cell: args.cell, coordinates: !args.no_coordinates };
    let ext = args.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let bytes = match ext.as_deref() {
        Some("svg") | Some("png") => {
            let mut pos = game.start.clone();
            for &m in &line[..ply] {
                pos.play_unchecked(m);
            }
            let last = ply.checked_sub(1).map(|i| line[i]);
            if ext.as_deref() == Some("svg") {
                qi_board_image::svg(&pos, last, &style).into_bytes()
            } else {
                qi_board_image::png(&pos, last, &style)?
            }
        }
        Some("gif") => qi_board_image::gif(&game.start, &line[..ply], &style, args.delay)?,
        _ => bail!("{}: the picture's name must end in .png, .svg or .gif", args.out.display()),
    };
    std::fs::write(&args.out, bytes).with_context(|| format!("cannot write {}", args.out.display()))
}
