//! `qi backup --data DIR --out NEWDIR [--json]`: a consistent copy of a data folder's rooms,
//! taken while `qi serve` keeps playing on it; `qi serve --data NEWDIR` starts from the copy.

use anyhow::{Context, Result};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// The data folder to copy (the one `qi serve --data` uses; it may be in use).
    #[arg(long, env = "QI_DATA")]
    data: PathBuf,
    /// A new folder for the copy (it must not exist or be empty).
    #[arg(long)]
    out: PathBuf,
    /// Print one JSON object: file, bytes, rooms, ongoing, seconds.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let start = Instant::now();
    let summary = qi_rooms::backup(&args.data, &args.out)
        .with_context(|| format!("backup of {} into {}", args.data.display(), args.out.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        crate::cli::print_json(&json!({
            "file": summary.file.display().to_string(),
            "bytes": summary.bytes,
            "rooms": summary.rooms,
            "ongoing": summary.ongoing,
            "seconds": seconds,
        }));
    } else {
        println!(
            "{}: {} rooms ({} going on), {} bytes in {seconds:.2} s",
            summary.file.display(),
            summary.rooms,
            summary.ongoing,
            summary.bytes
        );
    }
    Ok(())
}
