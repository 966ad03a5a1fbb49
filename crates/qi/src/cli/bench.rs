//! `qi bench`: move generation speed as a table of medians (perft leaves per second).

use anyhow::Result;
use serde_json::json;
use std::time::Instant;
use xiangqi::{perft, Position};

/// The start position and two middle games (the folium self-test and a cpw position).
const CASES: [(&str, &str, u32); 3] = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 5),
    ("folium (middle game)", "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1", 5),
    ("cpw2 (middle game)", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 5),
];

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    what: Option<What>,
    /// Runs per position (1 to 1000); the table shows the median.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    runs: u32,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum What {
    /// Load-test play-a-friend rooms on loopback: moves/s, relay latency, memory per room.
    Rooms(super::bench_rooms::Args),
}

pub fn run(args: Args) -> Result<()> {
    if let Some(What::Rooms(rooms)) = args.what {
        return super::bench_rooms::run(rooms);
    }
    let runs = args.runs as usize;
    let mut rows = Vec::new();
    if !args.json {
        println!("{:<22} {:>5} {:>13} {:>10} {:>14}", "position", "depth", "leaves", "median s", "leaves/s");
    }
    for (name, fen, depth) in CASES {
        let pos: Position = fen.parse()?;
        let mut times = Vec::with_capacity(runs);
        let mut leaves = 0;
        for _ in 0..runs {
            let start = Instant::now();
            leaves = perft(&pos, depth);
            times.push(start.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let nps = leaves as f64 / median;
        if !args.json {
            println!("{name:<22} {depth:>5} {leaves:>13} {median:>10.3} {:>12.1} M", nps / 1e6);
        }
        rows.push(json!({"name": name, "fen": fen, "depth": depth, "leaves": leaves, "median_seconds": median, "nps": nps.round()}));
    }
    if args.json {
        crate::cli::print_json(&json!({"runs": runs, "positions": rows}));
    }
    Ok(())
}
