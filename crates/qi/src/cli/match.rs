//! `qi match`: plays two Xiangqi engines (UCI or UCCI) against each other (the `qi-match`
//! library plays and judges the games; this command reads the flags and prints).

use anyhow::{bail, Context, Result};
use qi_match::process::{self, EngineSpec, Protocol};
use qi_match::stats::{self, Sprt};
use qi_match::{Opening, Settings};
use std::path::PathBuf;
use std::time::Duration;
use xiangqi::outcome::Rules;

#[derive(clap::Args)]
pub struct Args {
    /// The first engine's command line (program and arguments, split at spaces).
    first: String,
    /// The second engine's command line.
    second: String,
    /// Protocol of the first engine.
    #[arg(long, value_enum, default_value_t = Protocol::Uci)]
    protocol1: Protocol,
    /// Protocol of the second engine.
    #[arg(long, value_enum, default_value_t = Protocol::Uci)]
    protocol2: Protocol,
    /// A `setoption` for the first engine, NAME=VALUE (repeatable).
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    options1: Vec<String>,
    /// A `setoption` for the second engine, NAME=VALUE (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    options2: Vec<String>,
    /// Name of the first engine in reports (default: its `id name`).
    #[arg(long)]
    name1: Option<String>,
    /// Name of the second engine in reports.
    #[arg(long)]
    name2: Option<String>,
    /// Time control: per move (`100ms`, `2s`) or a clock per game (`10+0.1`: seconds plus
    /// increment per move).
    #[arg(long, conflicts_with = "nodes")]
    tc: Option<String>,
    /// Nodes per move (`go nodes N`) instead of a time control.
    #[arg(long)]
    nodes: Option<u64>,
    /// How far past its time an engine may answer before it loses on time, in milliseconds.
    #[arg(long, default_value_t = 300)]
    margin: u64,
    /// With `--nodes`: how long a move may take before the engine loses, in seconds.
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
    /// Openings: a games file (tab-separated id, start FEN, ICCS moves, ...), the first
    /// `--plies` of each game. Default: the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Plies of each game in the openings file to play before the engines take over.
    #[arg(long, default_value_t = 8)]
    plies: usize,
    /// Number of games (each opening twice, colours reversed); default: two per opening.
    #[arg(long)]
    games: Option<usize>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write every game here as PGN (ICCS moves, each engine move commented with its score/depth and time).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Stop early once a sequential probability ratio test decides between `elo0` and `elo1`
    /// (for example `0,10`).
    #[arg(long, value_parser = stats::parse_sprt, value_name = "ELO0,ELO1")]
    sprt: Option<(f64, f64)>,
    /// SPRT false positive and false negative rates.
    #[arg(long, default_value_t = 0.05)]
    sprt_error: f64,
    /// Plies without a capture that draw (the 60-move rule is 120).
    #[arg(long, default_value_t = 120)]
    move_limit: u32,
    /// Adjudicate a draw after this many plies (0: never).
    #[arg(long, default_value_t = 0)]
    max_plies: usize,
    /// Print one JSON summary object instead of the report.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let control = match (&args.tc, args.nodes) {
        (_, Some(0)) => bail!("--nodes must be at least 1"),
        (_, Some(n)) => qi_match::Control::Nodes(n),
        (Some(tc), None) => qi_match::parse_tc(tc)?,
        (None, None) => bail!("give a time control (--tc 100ms, --tc 10+0.1) or --nodes N"),
    };
    if args.concurrency == 0 || args.concurrency > 64 {
        bail!("--concurrency must be 1 to 64");
    }
    if !(0.0..0.5).contains(&args.sprt_error) || args.sprt_error == 0.0 {
        bail!("--sprt-error must be between 0 and 0.5");
    }
    let spec = |cmd: &str, protocol, options: &[String], name: &Option<String>| -> Result<EngineSpec> {
        let command: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            bail!("empty engine command");
        }
        let options = options.iter().map(|o| process::parse_option(o)).collect::<Result<_>>()?;
        Ok(EngineSpec { command, protocol, options, name: name.clone() })
    };
    let engines = [
        spec(&args.first, args.protocol1, &args.options1, &args.name1)?,
        spec(&args.second, args.protocol2, &args.options2, &args.name2)?,
    ];
    let rules = Rules { move_limit: args.move_limit, ..Rules::default() };
    let openings = match &args.openings {
        Some(path) => qi_match::read_openings(path, args.plies, rules)?,
        None => vec![Opening::startpos()],
    };
    let total = args.games.unwrap_or(openings.len() * 2);
    if total == 0 {
        bail!("no games to play");
    }
    let settings = Settings {
        engines,
        control,
        margin: Duration::from_millis(args.margin),
        move_timeout: Duration::from_secs(args.move_timeout.max(1)),
        rules,
        max_plies: args.max_plies,
        openings,
        games: total,
        concurrency: args.concurrency,
        sprt: args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1, alpha: args.sprt_error, beta: args.sprt_error }),
    };
    // Names for the report: start each engine once (this also checks the commands work).
    let started = qi_match::Match::new(settings)?;
    stop_on_signal(started.interrupt())?;
    let mut pgn_out = match &args.pgn {
        Some(p) => Some(std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?),
        None => None,
    };
    let pgn = pgn_out.as_mut().map(|f| f as &mut dyn std::io::Write);
    let summary = started.play(pgn, |f, tally| {
        // Progress goes to standard error, also with --json (which owns standard output).
        let wdl = &tally.wdl;
        let (elo, low, high) = wdl.elo();
        eprintln!(
            "game {:>4}/{total}: {} ({}) | +{} ={} -{} | {:.1} % | Elo {elo:+.0} [{low:+.0}, {high:+.0}]",
            f.index + 1,
            f.result,
            f.termination,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.score()
        );
    })?;
    if args.json {
        let mut report = summary.json();
        report["tc"] = serde_json::json!(args.tc);
        report["nodes"] = serde_json::json!(args.nodes);
        crate::cli::print_json(&report);
    } else {
        print!("{summary}");
    }
    Ok(())
}

/// SIGINT or SIGTERM ends the match with the games finished so far (their summary and PGN
/// are still written); a second one quits at once. Also when started in the background,
/// where a shell leaves SIGINT ignored.
fn stop_on_signal(interrupt: qi_match::Interrupt) -> Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_io().build().context("starting the signal listener")?;
    let (mut int, mut term) = runtime.block_on(async {
        Ok::<_, std::io::Error>((signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?))
    })?;
    std::thread::spawn(move || {
        runtime.block_on(async move {
            for first in [true, false] {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                }
                if first {
                    eprintln!("qi match: stopping; the games being played are abandoned (a second signal quits now)");
                    interrupt.stop();
                }
            }
            std::process::exit(130);
        })
    });
    Ok(())
}
