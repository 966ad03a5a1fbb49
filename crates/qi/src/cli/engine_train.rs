//! `qi engine train`: trains an evaluation net on data files from `qi engine datagen`
//! ([`xiangqi_train::trainer`]) and writes it in the engine's net format, with a checkpoint
//! and a net after every epoch.

use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use xiangqi_train::model::FloatNet;
use xiangqi_train::trainer::{self, Options};

#[derive(clap::Args)]
pub struct TrainArgs {
    /// Data files (`qi engine datagen` writes them).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the net.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data (1 to 1000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1000))]
    epochs: u64,
    /// Positions per step (64 to 1,048,576).
    #[arg(long, default_value_t = 16_384, value_parser = clap::value_parser!(u64).range(64..=1_048_576))]
    batch: u64,
    /// Adam's starting learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// The share of the target taken from the game's result (0 to 1); the rest is the search's score.
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// Use at most this many positions (the first ones of the files).
    #[arg(long, default_value_t = 100_000_000)]
    limit: usize,
    /// The share of positions held back to measure the net on (the last ones, whole games).
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    /// Start from this checkpoint (written next to `--out` as `OUT.ckpt`) instead of random weights.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Seed of the first weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object at the end instead of a line per epoch.
    #[arg(long)]
    json: bool,
}

pub fn run(args: TrainArgs) -> Result<()> {
    let valid =
        (0.0..=1.0).contains(&args.wdl) && (0.0..0.5).contains(&args.validation) && args.lr > 0.0 && args.lr < 1.0;
    if !valid {
        bail!("--wdl must lie in 0..=1, --validation in 0..0.5 and --lr in (0, 1)");
    }
    let started = Instant::now();
    let paths: Vec<&std::path::Path> = args.data.iter().map(PathBuf::as_path).collect();
    let mut samples = xiangqi_train::samples::read_samples(&paths, args.limit).context("reading the data")?;
    let held = ((samples.len() as f64 * args.validation) as usize).min(samples.len().saturating_sub(1));
    let validation = samples.split_off(samples.len() - held);
    if samples.is_empty() {
        bail!("no positions to train on");
    }
    if !args.json {
        eprintln!("{} positions to train on, {} held back", samples.len(), validation.len());
    }
    let mut net = match &args.resume {
        Some(path) => {
            let mut file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            FloatNet::read_checkpoint(&mut file).with_context(|| format!("reading {}", path.display()))?
        }
        None => FloatNet::random(args.seed),
    };
    let options = Options {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        lr: args.lr,
        wdl: args.wdl,
        seed: args.seed,
    };
    let start_loss = trainer::loss(&net, &validation, args.wdl);
    let mut epochs = Vec::new();
    let mut failure = None;
    let checkpoint = args.out.with_extension("ckpt");
    trainer::train(&mut net, &mut samples, &validation, &options, |epoch, net| {
        if !args.json {
            eprintln!(
                "epoch {:3}: train loss {:.6}, validation loss {:.6}, lr {:.0e}, {:.1} s",
                epoch.epoch, epoch.train_loss, epoch.validation_loss, epoch.lr, epoch.seconds
            );
        }
        epochs.push(json!({
            "epoch": epoch.epoch,
            "train_loss": epoch.train_loss,
            "validation_loss": epoch.validation_loss,
            "lr": epoch.lr,
            "seconds": epoch.seconds,
        }));
        // A checkpoint and a net after every epoch, so that a stopped run keeps its work.
        let saved = save(net, &args.out, &checkpoint);
        if let Err(e) = saved {
            failure.get_or_insert(e);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let quantised = net.quantise().context("quantising the net")?;
    let summary = json!({
        "net": args.out.display().to_string(),
        "checksum": format!("{:016x}", quantised.checksum()),
        "bytes": quantised.to_bytes().len(),
        "positions": samples.len(),
        "validation_positions": validation.len(),
        "validation_loss_before": start_loss,
        "epochs": epochs,
        "batch": args.batch,
        "lr": args.lr,
        "wdl": args.wdl,
        "seconds": started.elapsed().as_secs_f64(),
    });
    if args.json {
        crate::cli::print_json(&summary);
    } else {
        println!(
            "{}: net {} ({} bytes) from {} positions in {:.0} s",
            args.out.display(),
            summary["checksum"].as_str().unwrap_or_default(),
            summary["bytes"],
            samples.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Writes the net and its checkpoint, each through a temporary file renamed into place.
fn save(net: &FloatNet, out: &std::path::Path, checkpoint: &std::path::Path) -> Result<()> {
    let bytes = net.quantise().context("quantising the net")?.to_bytes();
    let tmp = out.with_extension("nnue.tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .with_context(|| format!("writing {}", out.display()))?;
    let mut ckpt = Vec::new();
    net.write_checkpoint(&mut ckpt)?;
    let tmp = checkpoint.with_extension("ckpt.tmp");
    std::fs::write(&tmp, ckpt)
        .and_then(|()| std::fs::rename(&tmp, checkpoint))
        .with_context(|| format!("writing {}", checkpoint.display()))?;
    Ok(())
}
