//! `qi match`: plays two Xiangqi engines (UCI or UCCI) against each other.
//!
//! Each opening (the first plies of a game from a games file) is played twice, once with each
//! engine as Red. Every game is judged by the `xiangqi` rules ([`Game::status`]: mate,
//! stalemate, perpetual check and chase, repetition, the move limit, no attackers); an illegal
//! or unreadable move, a crash, a missing answer or an overstepped clock loses for the engine
//! at fault. The result is W/D/L from the first engine's view with the Elo difference and its
//! 95 % interval, and an optional SPRT that stops the match once it decides.

mod process;
mod stats;

use anyhow::{bail, Context, Result};
use process::{EngineProcess, EngineSpec, Fault, Go, Protocol};
use serde_json::json;
use stats::{Sprt, Verdict, Wdl};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use xiangqi::outcome::{Game, Outcome, Rules};
use xiangqi::pgn::PgnGame;
use xiangqi::{Color, Move, Position};

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

/// A starting point: a position and the moves that led to it from the file's start.
#[derive(Clone)]
struct Opening {
    name: String,
    start: Position,
    moves: Vec<Move>,
}

/// How one game ended.
struct Finished {
    index: usize,
    /// From the first engine's view: 1, 0.5 or 0.
    points_first: f64,
    result: &'static str,
    termination: String,
    pgn: String,
    /// Depth and nodes of each of the first and second engine's moves.
    depths: [Vec<u32>; 2],
    nodes: [Vec<u64>; 2],
    think: [Duration; 2],
}

#[derive(Clone)]
struct Setup {
    engines: [EngineSpec; 2],
    control: Control,
    margin: Duration,
    move_timeout: Duration,
    rules: Rules,
    max_plies: usize,
}

#[derive(Clone, Copy, Debug)]
enum Control {
    MoveTime(Duration),
    Nodes(u64),
    Clock { base: Duration, inc: Duration },
}

pub fn run(args: Args) -> Result<()> {
    let control = match (&args.tc, args.nodes) {
        (_, Some(0)) => bail!("--nodes must be at least 1"),
        (_, Some(n)) => Control::Nodes(n),
        (Some(tc), None) => parse_tc(tc)?,
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
        Some(path) => read_openings(path, args.plies, rules)?,
        None => vec![Opening { name: "startpos".into(), start: Position::startpos(), moves: Vec::new() }],
    };
    let total = args.games.unwrap_or(openings.len() * 2);
    if total == 0 {
        bail!("no games to play");
    }
    // Names for the report: start each engine once (this also checks the commands work).
    let mut names = Vec::new();
    for e in &engines {
        names.push(EngineProcess::start(e).with_context(|| format!("engine {:?}", e.command.join(" ")))?.name.clone());
    }
    let setup = Arc::new(Setup {
        engines,
        control,
        margin: Duration::from_millis(args.margin),
        move_timeout: Duration::from_secs(args.move_timeout.max(1)),
        rules,
        max_plies: args.max_plies,
    });
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1, alpha: args.sprt_error, beta: args.sprt_error });
    let mut pgn_out = match &args.pgn {
        Some(p) => Some(std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?),
        None => None,
    };

    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let openings = Arc::new(openings);
    let names = Arc::new(names);
    let (tx, rx) = mpsc::channel();
    let workers: Vec<_> = (0..args.concurrency.min(total))
        .map(|_| {
            let (setup, next, stop, openings, names, tx) =
                (setup.clone(), next.clone(), stop.clone(), openings.clone(), names.clone(), tx.clone());
            std::thread::spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= total || stop.load(Ordering::SeqCst) {
                    break;
                }
                let opening = &openings[(index / 2) % openings.len()];
                let finished = play_game(&setup, &names, opening, index);
                if tx.send(finished).is_err() {
                    break;
                }
            })
        })
        .collect();
    drop(tx);

    let mut wdl = Wdl::default();
    let mut terminations: BTreeMap<String, u32> = BTreeMap::new();
    let (mut depths, mut nodes) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
    let mut think = [Duration::ZERO; 2];
    let mut verdict = Verdict::Continue;
    let started = Instant::now();
    // Games finish out of order; the PGN file gets them in order.
    let mut pending: BTreeMap<usize, String> = BTreeMap::new();
    let mut written = 0;
    for f in rx {
        match f.points_first {
            1.0 => wdl.wins += 1,
            0.0 => wdl.losses += 1,
            _ => wdl.draws += 1,
        }
        *terminations.entry(f.termination.clone()).or_default() += 1;
        for side in 0..2 {
            depths[side].extend_from_slice(&f.depths[side]);
            nodes[side].extend_from_slice(&f.nodes[side]);
            think[side] += f.think[side];
        }
        // Progress goes to standard error, also with --json (which owns standard output).
        {
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
        }
        pending.insert(f.index, f.pgn);
        if let Some(out) = pgn_out.as_mut() {
            while let Some(text) = pending.remove(&written) {
                out.write_all(text.as_bytes()).context("writing the PGN file")?;
                written += 1;
            }
        }
        if let Some(s) = &sprt {
            verdict = s.verdict(&wdl);
            if verdict != Verdict::Continue {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if let Some(out) = pgn_out.as_mut() {
        for text in pending.values() {
            out.write_all(text.as_bytes()).context("writing the PGN file")?;
        }
    }
    report(&args, &names, &wdl, &terminations, sprt.map(|s| (s, verdict)), &depths, &nodes, think, started.elapsed());
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn report(
    args: &Args,
    names: &[String],
    wdl: &Wdl,
    terminations: &BTreeMap<String, u32>,
    sprt: Option<(Sprt, Verdict)>,
    depths: &[Vec<u32>; 2],
    nodes: &[Vec<u64>; 2],
    think: [Duration; 2],
    elapsed: Duration,
) {
    let (elo, low, high) = wdl.elo();
    let finite = |x: f64| if x.is_finite() { json!((x * 10.0).round() / 10.0) } else { json!(null) };
    let median_depth = |d: &Vec<u32>| {
        let mut d = d.clone();
        d.sort_unstable();
        d.get(d.len() / 2).copied()
    };
    let nps = |side: usize| {
        let secs = think[side].as_secs_f64();
        (secs > 0.0 && !nodes[side].is_empty()).then(|| (nodes[side].iter().sum::<u64>() as f64 / secs).round() as u64)
    };
    let sprt_json = sprt.map(|(s, v)| {
        let (lower, upper) = s.bounds();
        json!({
            "elo0": s.elo0, "elo1": s.elo1, "llr": (wdl.llr(s.elo0, s.elo1) * 1000.0).round() / 1000.0,
            "lower": lower, "upper": upper,
            "verdict": match v { Verdict::Continue => "continue", Verdict::AcceptH1 => "H1", Verdict::AcceptH0 => "H0" },
        })
    });
    if args.json {
        crate::cli::print_json(&json!({
            "engines": names,
            "tc": args.tc, "nodes": args.nodes,
            "games": wdl.games(), "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
            "score": (wdl.score() * 10000.0).round() / 10000.0,
            "elo": finite(elo), "elo_low": finite(low), "elo_high": finite(high),
            "sprt": sprt_json,
            "terminations": terminations,
            "median_depth": [median_depth(&depths[0]), median_depth(&depths[1])],
            "nps": [nps(0), nps(1)],
            "seconds": elapsed.as_secs_f64().round(),
        }));
        return;
    }
    println!("{} vs {}: {} games in {:.0} s", names[0], names[1], wdl.games(), elapsed.as_secs_f64());
    println!(
        "+{} ={} -{}  score {:.1} %  Elo {elo:+.1} (95 %: {low:+.1} to {high:+.1})",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score()
    );
    if let Some(s) = sprt_json {
        println!(
            "SPRT [{}, {}]: LLR {} (bounds {:.2}, {:.2}): {}",
            s["elo0"], s["elo1"], s["llr"], s["lower"], s["upper"], s["verdict"]
        );
    }
    for (t, n) in terminations {
        println!("  {t}: {n}");
    }
    for side in 0..2 {
        println!(
            "  {}: median depth {}, {} nodes/s",
            names[side],
            median_depth(&depths[side]).map_or("-".into(), |d| d.to_string()),
            nps(side).map_or("-".into(), |n| n.to_string())
        );
    }
}

/// `100ms`, `2s`, `1.5s`, or `10+0.1` (seconds + increment).
fn parse_tc(tc: &str) -> Result<Control> {
    let secs = |s: &str| -> Result<Duration> {
        let v: f64 = s.trim().parse().with_context(|| format!("bad time {s:?} in --tc"))?;
        if !(0.0..=86_400.0).contains(&v) {
            bail!("time {v} in --tc is out of range (0 to 86400 s)");
        }
        Ok(Duration::from_secs_f64(v))
    };
    let control = if let Some((base, inc)) = tc.split_once('+') {
        Control::Clock { base: secs(base)?, inc: secs(inc)? }
    } else if let Some(ms) = tc.strip_suffix("ms") {
        Control::MoveTime(secs(ms)? / 1000)
    } else if let Some(s) = tc.strip_suffix('s') {
        Control::MoveTime(secs(s)?)
    } else {
        bail!("--tc {tc:?}: give a time per move (100ms, 2s) or a clock (10+0.1)")
    };
    match control {
        Control::MoveTime(t) | Control::Clock { base: t, .. } if t < Duration::from_millis(1) => {
            bail!("--tc {tc:?} gives no time to think")
        }
        c => Ok(c),
    }
}

/// The distinct openings of a games file: the first `plies` moves of each game (games that
/// are shorter, illegal, or already over by then are skipped).
fn read_openings(path: &PathBuf, plies: usize, rules: Rules) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(fen), Some(moves)) = (cols.first(), cols.get(1), cols.get(2)) else { continue };
        let Ok(start) = super::parse_position(fen) else { continue };
        let moves: Vec<Move> = match moves.split_whitespace().take(plies).map(str::parse).collect() {
            Ok(m) => m,
            Err(_) => continue,
        };
        if moves.len() < plies {
            continue;
        }
        let Ok(game) = Game::from_moves(start.clone(), &moves, rules) else { continue };
        if game.status().is_over() || !seen.insert((game.position().fen(), game.position().turn())) {
            continue;
        }
        openings.push(Opening { name: name.to_string(), start, moves });
    }
    if openings.is_empty() {
        bail!("{}: no usable opening of {plies} plies", path.display());
    }
    Ok(openings)
}

/// A move's PGN comment as cutechess writes it: score (side to move's view) / depth and the
/// time taken, e.g. `+0.35/12 0.100s`.
fn move_comment(reply: &process::Reply) -> String {
    let seconds = format!("{:.3}s", reply.elapsed.as_secs_f64());
    match (reply.score, reply.depth) {
        (Some(score), Some(depth)) => format!("{score}/{depth} {seconds}"),
        _ => seconds,
    }
}

/// Plays game `index`: the first engine is Red in even games.
fn play_game(setup: &Setup, names: &[String], opening: &Opening, index: usize) -> Finished {
    let first_is_red = index.is_multiple_of(2);
    // seat[c]: which engine (0 first, 1 second) plays colour c (0 Red, 1 Black).
    let seat = if first_is_red { [0, 1] } else { [1, 0] };
    let mut game = Game::from_moves(opening.start.clone(), &opening.moves, setup.rules).expect("openings are checked");
    let mut depths = [Vec::new(), Vec::new()];
    let mut nodes = [Vec::new(), Vec::new()];
    let mut think = [Duration::ZERO; 2];
    // One comment per engine move (the opening's moves have none).
    let mut comments: Vec<String> = Vec::new();
    let (mut clock, inc) = match setup.control {
        Control::Clock { base, inc } => ([base, base], inc),
        _ => ([Duration::ZERO; 2], Duration::ZERO),
    };
    let mut engines: Vec<Option<EngineProcess>> = Vec::new();
    let mut failed_start = None;
    for (i, spec) in setup.engines.iter().enumerate() {
        match EngineProcess::start(spec).and_then(|mut e| e.new_game().map(|_| e)) {
            Ok(e) => engines.push(Some(e)),
            Err(_) => {
                engines.push(None);
                failed_start.get_or_insert(i);
            }
        }
    }
    let (outcome, termination) = 'game: {
        if let Some(i) = failed_start {
            let color = if seat[0] == i { Color::Red } else { Color::Black };
            break 'game (Outcome::win(color.other()), "engine failed to start".to_string());
        }
        loop {
            let status = game.status();
            if status.is_over() {
                break 'game (status.outcome, status.reason.map_or("over".into(), |r| r.name().to_string()));
            }
            if setup.max_plies > 0 && game.moves().len() >= setup.max_plies {
                break 'game (Outcome::Draw, "adjudicated: ply limit".into());
            }
            let turn = game.position().turn();
            let who = seat[turn.index()];
            let engine = engines[who].as_mut().expect("engines started");
            let (go, allowed) = match setup.control {
                Control::MoveTime(t) => (Go::MoveTime(t), t + setup.margin),
                Control::Nodes(n) => (Go::Nodes(n), setup.move_timeout),
                Control::Clock { .. } => {
                    (Go::Clock { red: clock[0], black: clock[1], inc }, clock[turn.index()] + setup.margin)
                }
            };
            let lose = |why: String| (Outcome::win(turn.other()), format!("{} {why}", names[who]));
            let reply = match engine.best_move(game.start(), game.moves(), go, Instant::now() + allowed) {
                Ok(r) => r,
                Err(Fault::Timeout) => break 'game lose("lost on time".into()),
                Err(Fault::Crashed) => break 'game lose("crashed".into()),
                Err(Fault::Unreadable(t)) => break 'game lose(format!("sent an unreadable move {t:?}")),
            };
            think[who] += reply.elapsed;
            depths[who].extend(reply.depth);
            nodes[who].extend(reply.nodes);
            if let Control::Clock { .. } = setup.control {
                let c = &mut clock[turn.index()];
                if reply.elapsed > *c + setup.margin {
                    break 'game lose("lost on time".into());
                }
                *c = c.saturating_sub(reply.elapsed) + inc;
            } else if let Control::MoveTime(_) = setup.control {
                if reply.elapsed > allowed {
                    break 'game lose("lost on time".into());
                }
            }
            let Some(m) = reply.mv else { break 'game lose("gave no move".into()) };
            if game.play(m).is_err() {
                break 'game lose(format!("played an illegal move {}", reply.text));
            }
            comments.push(move_comment(&reply));
        }
    };
    drop(engines);
    let result = match outcome {
        Outcome::RedWins => "1-0",
        Outcome::BlackWins => "0-1",
        _ => "1/2-1/2",
    };
    let points_red = match outcome {
        Outcome::RedWins => 1.0,
        Outcome::BlackWins => 0.0,
        _ => 0.5,
    };
    let points_first = if first_is_red { points_red } else { 1.0 - points_red };
    let mut pgn = PgnGame::new(opening.start.clone(), game.moves());
    let engine_moves = pgn.line.moves.len() - comments.len();
    for (m, c) in pgn.line.moves[engine_moves..].iter_mut().zip(comments) {
        m.comment = Some(c);
    }
    pgn.set_tag("Event", "qi match");
    pgn.set_tag("Round", &(index + 1).to_string());
    pgn.set_tag("Red", &names[seat[0]]);
    pgn.set_tag("Black", &names[seat[1]]);
    pgn.set_tag("Opening", &opening.name);
    pgn.set_tag("Termination", &termination);
    pgn.set_tag("PlyCount", &game.moves().len().to_string());
    pgn.result = Some(result.to_string());
    let text = pgn.write(xiangqi::notation::Notation::Iccs) + "\n";
    // Reasons are counted without the engine's name when the rules decided.
    Finished { index, points_first, result, termination, pgn: text, depths, nodes, think }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_read() {
        assert!(matches!(parse_tc("100ms").unwrap(), Control::MoveTime(t) if t == Duration::from_millis(100)));
        assert!(matches!(parse_tc("1.5s").unwrap(), Control::MoveTime(t) if t == Duration::from_millis(1500)));
        assert!(matches!(parse_tc("10+0.1").unwrap(),
            Control::Clock { base, inc } if base == Duration::from_secs(10) && inc == Duration::from_millis(100)));
        for bad in ["", "100", "abc", "0ms", "-1s", "1e9s", "5+x"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
