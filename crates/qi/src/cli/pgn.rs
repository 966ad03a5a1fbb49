//! `qi pgn convert FILE --to iccs|wxf|chinese [-o OUT]`: rewrites every game of a PGN file
//! (UTF-8 or GBK) in another notation; a game that does not read is reported on stderr with
//! its number, line and reason, and the others are still written.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::PathBuf;
use xiangqi::notation::Notation;
use xiangqi::pgn::{decode, games};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Command {
    /// Convert the moves of every game to one notation.
    Convert(ConvertArgs),
}

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The PGN file (`-` for standard input).
    file: PathBuf,
    /// Target notation: iccs, wxf, chinese (simplified), traditional or vietnamese.
    #[arg(long)]
    to: Notation,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    let Command::Convert(args) = args.command;
    let bytes = if args.file.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
        buf
    } else {
        std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?
    };
    let text = decode(&bytes);
    let mut out = String::new();
    let (mut good, mut bad) = (0, 0);
    for game in games(&text) {
        match game {
            Ok(g) => {
                if good > 0 {
                    out.push('\n');
                }
                out.push_str(&g.write(args.to));
                good += 1;
            }
            Err(e) => {
                eprintln!("{}: {e}", args.file.display());
                bad += 1;
            }
        }
    }
    match &args.output {
        Some(path) => std::fs::write(path, &out).with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().write_all(out.as_bytes())?,
    }
    if bad > 0 {
        bail!("{bad} of {} games could not be read", good + bad);
    }
    Ok(())
}
