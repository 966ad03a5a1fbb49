//! `qi engine datagen`: self-play training positions for the evaluation net
//! ([`xiangqi_train::datagen`]), with a progress bar. Killed and started again on the same file,
//! it goes on where the file ends.

use anyhow::{anyhow, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xiangqi_engine::nnue;
use xiangqi_train::datagen::{generate, Opening, Options};

#[derive(clap::Args)]
pub struct DatagenArgs {
    /// The data file to write or extend (created with its header if missing).
    #[arg(long)]
    out: PathBuf,
    /// Stop when the file holds this many positions.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    /// Nodes searched for each move (100 to 10,000,000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(100..=10_000_000))]
    nodes: u64,
    /// A games file (tab-separated id, start FEN, ICCS moves) whose first `--book-plies` moves
    /// are the openings; without it, the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Moves of each game of `--openings` to play as the book.
    #[arg(long, default_value_t = 6)]
    book_plies: usize,
    /// Random legal moves after the book: at least this many...
    #[arg(long, default_value_t = 2)]
    random_min: usize,
    /// ...and at most this many.
    #[arg(long, default_value_t = 8)]
    random_max: usize,
    /// Games played at once (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// The random seed (default: from the clock, so that runs differ).
    #[arg(long)]
    seed: Option<u64>,
    /// The teacher's evaluation: `<default>` (the built-in net), `classical` (the hand-written
    /// one, the loop's first teacher) or a net file (the candidate whose own games make the next net).
    #[arg(long, default_value = "<default>")]
    eval_file: String,
    /// Print one JSON object at the end instead of a progress bar.
    #[arg(long)]
    json: bool,
}

pub fn run(args: DatagenArgs) -> Result<()> {
    // Every engine the games make starts with the installed net.
    nnue::set_default_net(nnue::load_eval_file(&args.eval_file).map_err(|e| anyhow!(e))?);
    let openings: Vec<Opening> = match &args.openings {
        Some(path) => qi_match::read_openings(path, args.book_plies, xiangqi::outcome::Rules::default())?
            .into_iter()
            .map(|o| Opening { start: o.start, moves: o.moves })
            .collect(),
        None => vec![Opening { start: xiangqi::Position::startpos(), moves: vec![] }],
    };
    let threads = crate::cli::threads_or_cores(args.threads);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let options = Options {
        nodes: args.nodes,
        random_plies: (args.random_min, args.random_max.max(args.random_min)),
        threads,
        target: args.positions,
        hash_mb: 16,
        seed,
    };
    let bar = if args.json { ProgressBar::hidden() } else { ProgressBar::new(args.positions) };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} positions, {per_sec} ({eta} left) {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let done = generate(&args.out, &openings, &options, &AtomicBool::new(false), |p| {
        bar.set_position(p.positions);
        bar.set_message(format!("{} games", p.games));
    })
    .with_context(|| format!("writing {}", args.out.display()))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let per_second = done.added as f64 / seconds.max(1e-9);
    if args.json {
        crate::cli::print_json(&json!({
            "file": args.out.display().to_string(),
            "positions": done.positions,
            "added": done.added,
            "games": done.games,
            "duplicates": done.duplicates,
            "seconds": seconds,
            "positions_per_second": per_second,
            "nodes": args.nodes,
            "threads": threads,
            "openings": openings.len(),
            "eval_file": args.eval_file,
        }));
    } else {
        println!(
            "{}: {} positions ({} added from {} games, {} duplicates left out) in {seconds:.0} s, {per_second:.0} positions/s",
            args.out.display(),
            done.positions,
            done.added,
            done.games,
            done.duplicates
        );
    }
    Ok(())
}
