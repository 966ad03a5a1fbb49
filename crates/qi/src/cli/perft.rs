//! `qi perft FEN DEPTH [--divide] [--json]`: counts legal move paths and reports the speed.

use anyhow::Result;
use serde_json::json;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// A FEN, or `startpos`.
    fen: String,
    /// Plies to search (0 to 64).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=xiangqi::MAX_PERFT_DEPTH as i64))]
    depth: u32,
    /// Print each root move (ICCS) with its count.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object: fen, depth, nodes, seconds, nps (and divide when asked).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let pos = super::parse_position(&args.fen)?;
    let start = Instant::now();
    let (nodes, divide) = if args.divide {
        let split = xiangqi::perft_divide(&pos, args.depth);
        (split.iter().map(|(_, n)| n).sum(), Some(split))
    } else {
        (xiangqi::perft(&pos, args.depth), None)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 { (nodes as f64 / seconds).round() as u64 } else { 0 };
    if args.json {
        let mut out = json!({"fen": pos.fen(), "depth": args.depth, "nodes": nodes, "seconds": seconds, "nps": nps});
        if let Some(split) = &divide {
            out["divide"] =
                split.iter().map(|(m, n)| (m.to_string(), json!(n))).collect::<serde_json::Map<_, _>>().into();
        }
        crate::cli::print_json(&out);
    } else {
        if let Some(split) = &divide {
            for (m, n) in split {
                println!("{m}: {n}");
            }
            println!();
        }
        println!("nodes {nodes}");
        println!("time  {seconds:.3} s");
        println!("speed {:.2} M nodes/s", nps as f64 / 1e6);
    }
    Ok(())
}
