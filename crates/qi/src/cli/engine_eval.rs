//! `qi engine eval`: the engine's static evaluation of positions, with the built-in net, another
//! net file or the hand-written evaluation: what the browser's engine must answer alike (its
//! `evaluate` in packages/qi), and a quick look at what a net thinks.

use anyhow::{anyhow, Context, Result};
use serde_json::json;
use std::io::BufRead;
use xiangqi::Position;
use xiangqi_engine::nnue;

/// At most this many positions from standard input (a bound on the output's size).
const MAX_POSITIONS: usize = 1_000_000;

#[derive(clap::Args)]
pub struct EvalArgs {
    /// FENs to evaluate; `-` (or none) reads one FEN a line from standard input.
    fens: Vec<String>,
    /// The evaluation: `<default>` (the built-in net), `classical` or a net file.
    #[arg(long, default_value = "<default>")]
    eval_file: String,
    /// Print one JSON array: {fen, score, classical} for each position.
    #[arg(long)]
    json: bool,
}

pub fn run(args: EvalArgs) -> Result<()> {
    let net = nnue::load_eval_file(&args.eval_file).map_err(|e| anyhow!(e))?;
    let fens: Vec<String> = if args.fens.is_empty() || args.fens == ["-"] {
        let mut fens = Vec::new();
        for line in std::io::stdin().lock().lines() {
            let line = line.context("reading standard input")?;
            if !line.trim().is_empty() {
                anyhow::ensure!(fens.len() < MAX_POSITIONS, "more than {MAX_POSITIONS} positions");
                fens.push(line.trim().to_string());
            }
        }
        fens
    } else {
        args.fens
    };
    let mut out = Vec::with_capacity(fens.len());
    for fen in &fens {
        let pos = Position::from_fen(fen).map_err(|e| anyhow!("bad FEN {fen:?}: {e}"))?;
        let classical = xiangqi_engine::evaluate(&pos);
        let score = net.as_ref().map_or(classical, |net| nnue::accumulator::evaluate(net, &pos));
        if args.json {
            out.push(json!({ "fen": fen, "score": score, "classical": classical }));
        } else {
            println!("{score:>6} {classical:>6}  {fen}");
        }
    }
    if args.json {
        crate::cli::print_json(&serde_json::Value::Array(out));
    }
    Ok(())
}
