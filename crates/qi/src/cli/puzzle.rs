//! `qi puzzle generate|confirm|merge|rerate|list|endgames`: Xiangqi puzzles found by the engine in games
//! ([`xiangqi_puzzle`]), the set the site ships, and its endgame track (残局).

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xiangqi::record::import_all;
use xiangqi::{Move, Position};
use xiangqi_engine::nnue;
use xiangqi_puzzle::{endgames, file, generate, rating, Endgame, Game, Kind, Puzzle, Settings, Theme};

/// The set shipped with the site (made by `qi puzzle generate`, its command in the file's header).
const SHIPPED: &str = include_str!("../../../puzzle/data/puzzles.tsv");

/// The most games read from one input file.
const MAX_GAMES_PER_FILE: usize = 100_000;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Sub {
    /// Look through games with the engine and write the puzzles found.
    Generate(GenerateArgs),
    /// Join puzzle files into one: themes and ids worked out again from the board (so a better
    /// theme finder applies without searching again), one puzzle per position, easiest first.
    Merge {
        /// Puzzle files (as `qi puzzle generate` writes them).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Where to write the joined set.
        #[arg(long)]
        out: PathBuf,
        /// Print one JSON object with the totals.
        #[arg(long)]
        json: bool,
    },
    /// Check every puzzle of a file again with a fresh, deeper search (as `generate` does last)
    /// and write those it confirms: for sets made before that check, or at a deeper search.
    Confirm {
        /// A puzzle file.
        file: PathBuf,
        /// Where to write the confirmed puzzles (it may be the same file).
        #[arg(long)]
        out: PathBuf,
        /// Nodes for each puzzle's search.
        #[arg(long, default_value_t = Settings::default().confirm_nodes)]
        nodes: u64,
        /// Threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// The engine's evaluation: `<default>` (the built-in net), `classical` or a net file.
        #[arg(long, default_value = "<default>")]
        eval_file: String,
        /// Print one JSON object: file, checked, kept, and the puzzles taken out with the reason.
        #[arg(long)]
        json: bool,
    },
    /// Rate a puzzle file of the first rating formula again with the current one, without
    /// searching (the nodes each search took come back from the first ratings).
    Rerate {
        /// A puzzle file made before the current formula (its header lacks the formula's mark).
        file: PathBuf,
        /// Where to write the file rated again (it may be the same file).
        #[arg(long)]
        out: PathBuf,
        /// Print one JSON object: file, puzzles, and the ratings' min, p10, median, p90, max.
        #[arg(long)]
        json: bool,
    },
    /// The shipped puzzles (or those of `--file`).
    List {
        /// A puzzle file instead of the shipped set.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Only `mate` or `win` puzzles.
        #[arg(long)]
        kind: Option<String>,
        /// Only puzzles with this theme (mate, double-cannon, horse-cannon, smothered,
        /// trough-horse, facing-kings, sacrifice, double-attack, pin, discovered-attack,
        /// quiet-move).
        #[arg(long)]
        theme: Option<String>,
        /// Only mates in this many moves (1 to 7).
        #[arg(long)]
        mate_in: Option<u8>,
        /// Print one JSON array of {id, fen, moves, kind, mate_in, rating, themes, source}.
        #[arg(long)]
        json: bool,
    },
    /// The endgame track (残局): classic positions to win or hold against the engine.
    Endgames {
        /// Only this grade (1 basic to 5 hard).
        #[arg(long)]
        grade: Option<u8>,
        /// Print one JSON array of {id, grade, fen, goal, name_zh, name_en, source}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// Games files: tab-separated (name, start FEN, ICCS moves, as crates/xiangqi/tests/data/games.tsv)
    /// or records (PGN with any number of games, DhtmlXQ, XQF).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Where to write the puzzles.
    #[arg(long)]
    out: PathBuf,
    /// Nodes for the quick look at each position.
    #[arg(long, default_value_t = Settings::default().scan_nodes)]
    scan_nodes: u64,
    /// Nodes for the deeper check of each candidate (each solver move of its line).
    #[arg(long, default_value_t = Settings::default().verify_nodes)]
    verify_nodes: u64,
    /// Nodes for the last, independent check of each puzzle found (a fresh search from the
    /// position alone; 0 skips it).
    #[arg(long, default_value_t = Settings::default().confirm_nodes)]
    confirm_nodes: u64,
    /// Look at only the first N games.
    #[arg(long)]
    limit: Option<usize>,
    /// Threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// The engine's evaluation: `<default>` (the built-in net), `classical` or a net file.
    #[arg(long, default_value = "<default>")]
    eval_file: String,
    /// Print one JSON object with the totals instead of a progress bar.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Sub::Generate(args) => run_generate(args),
        Sub::Merge { files, out, json } => run_merge(&files, &out, json),
        Sub::Confirm { file, out, nodes, threads, eval_file, json } => {
            run_confirm(&file, &out, nodes, threads, &eval_file, json)
        }
        Sub::Rerate { file, out, json } => run_rerate(&file, &out, json),
        Sub::List { file, kind, theme, mate_in, json } => {
            run_list(file.as_deref(), &ListFilter { kind: kind.as_deref(), theme: theme.as_deref(), mate_in }, json)
        }
        Sub::Endgames { grade, json } => run_endgames(grade, json),
    }
}

fn run_generate(args: GenerateArgs) -> Result<()> {
    nnue::set_default_net(nnue::load_eval_file(&args.eval_file).map_err(|e| anyhow::anyhow!(e))?);
    if args.scan_nodes == 0 || args.verify_nodes < args.scan_nodes {
        bail!("--scan-nodes must be at least 1 and --verify-nodes at least as many");
    }
    if args.confirm_nodes != 0 && args.confirm_nodes < args.verify_nodes {
        bail!("--confirm-nodes must be 0 (no confirming search) or at least --verify-nodes");
    }
    let mut games = Vec::new();
    for path in &args.games {
        games.extend(read_games(path)?);
    }
    if let Some(limit) = args.limit {
        games.truncate(limit);
    }
    let settings = Settings {
        scan_nodes: args.scan_nodes,
        verify_nodes: args.verify_nodes,
        confirm_nodes: args.confirm_nodes,
        ..Settings::default()
    };
    let threads = crate::cli::threads_or_cores(args.threads);
    let bar = if args.json { ProgressBar::hidden() } else { ProgressBar::new(games.len() as u64) };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games ({eta} left) {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let (puzzles, totals) = generate(&games, &settings, threads, |p| {
        bar.set_position(p.games);
        bar.set_message(format!("{} positions, {} candidates, {} kept", p.positions, p.candidates, p.kept));
    })?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let inputs: Vec<String> = args.games.iter().map(|p| p.display().to_string()).collect();
    let header = [
        "Xiangqi puzzles found by Qi's engine (qi puzzle generate); every line checked by a deeper search.".to_string(),
        format!(
            "qi puzzle generate {} --scan-nodes {} --verify-nodes {} --confirm-nodes {} --eval-file {}",
            inputs.join(" "),
            args.scan_nodes,
            args.verify_nodes,
            args.confirm_nodes,
            args.eval_file
        ),
        format!(
            "{} games, {} positions, {} candidates, {} kept ({} mates, {} wins)",
            totals.games,
            totals.positions,
            totals.candidates,
            puzzles.len(),
            puzzles.iter().filter(|p| p.kind == Kind::Mate).count(),
            puzzles.iter().filter(|p| p.kind == Kind::Win).count()
        ),
        rating::MARK.to_string(),
    ];
    std::fs::write(&args.out, file::write(&puzzles, &header))
        .with_context(|| format!("writing {}", args.out.display()))?;
    let summary = json!({
        "file": args.out.display().to_string(),
        "games": totals.games,
        "positions": totals.positions,
        "candidates": totals.candidates,
        "kept": puzzles.len(),
        "mates": puzzles.iter().filter(|p| p.kind == Kind::Mate).count(),
        "wins": puzzles.iter().filter(|p| p.kind == Kind::Win).count(),
        "rating": spread(&puzzles),
        "seconds": seconds,
        "threads": threads,
    });
    if args.json {
        crate::cli::print_json(&summary);
    } else {
        println!(
            "{}: {} puzzles from {} games ({} positions, {} candidates) in {seconds:.0} s; ratings {} to {}, median {}",
            args.out.display(),
            puzzles.len(),
            totals.games,
            totals.positions,
            totals.candidates,
            summary["rating"]["min"],
            summary["rating"]["max"],
            summary["rating"]["median"]
        );
    }
    Ok(())
}

/// The games of one file: a tab-separated games list, or any record format Qi reads.
fn read_games(path: &Path) -> Result<Vec<Game>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.file_stem().map_or("games".into(), |s| s.to_string_lossy().into_owned());
    let is_tsv = path.extension().is_some_and(|e| e == "tsv");
    if is_tsv {
        // The games-file reader of `qi link stats` / `train` (every move checked, the length bound).
        let text = String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?;
        let read = xiangqi_link::train::parse_games(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if read.len() > MAX_GAMES_PER_FILE {
            bail!("{}: more than {MAX_GAMES_PER_FILE} games", path.display());
        }
        return Ok(read.into_iter().map(|g| Game { name: g.id, start: g.start, moves: g.moves }).collect());
    }
    let (_, read) = import_all(&bytes);
    let mut games = Vec::new();
    for (i, game) in read.into_iter().enumerate() {
        let game = game.with_context(|| format!("{} game {}", path.display(), i + 1))?;
        let title = ["Red", "Black", "Event"]
            .iter()
            .filter_map(|tag| game.tags.iter().find(|(k, _)| k == tag).map(|(_, v)| v.as_str()))
            .collect::<Vec<_>>()
            .join(" ");
        let label = if title.is_empty() { format!("{name} #{}", i + 1) } else { format!("{name} #{} {title}", i + 1) };
        games.push(checked(label, game.start.clone(), game.main_line())?);
        if games.len() > MAX_GAMES_PER_FILE {
            bail!("{}: more than {MAX_GAMES_PER_FILE} games", path.display());
        }
    }
    Ok(games)
}

/// A game whose moves are checked legal in turn (the finder plays them unchecked).
fn checked(name: String, start: Position, moves: Vec<Move>) -> Result<Game> {
    let mut pos = start.clone();
    for (ply, &m) in moves.iter().enumerate() {
        pos.play(m).map_err(|_| anyhow::anyhow!("{name}: move {} ({m}) is not legal", ply + 1))?;
    }
    Ok(Game { name, start, moves })
}

fn run_merge(files: &[PathBuf], out: &Path, as_json: bool) -> Result<()> {
    let mut header =
        vec!["Xiangqi puzzles found by Qi's engine, joined by qi puzzle merge from these runs:".to_string()];
    let mut puzzles = Vec::new();
    let mut marked = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        marked.push(rated_now(&text));
        header.extend(
            text.lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| l.trim_start_matches('#').trim())
                .filter(|l| is_history(l))
                .map(str::to_string),
        );
        for mut p in file::read(&text).with_context(|| format!("reading {}", path.display()))? {
            p.themes = xiangqi_puzzle::themes(&p.position, &p.moves, p.kind);
            p.id = Puzzle::id_of(&p.position, p.moves[0]);
            puzzles.push(p);
        }
    }
    if marked.iter().any(|&m| m != marked[0]) {
        bail!("some files are rated by the first formula: rate them again with `qi puzzle rerate` first");
    }
    if marked[0] {
        header.push(rating::MARK.to_string());
    }
    let puzzles = xiangqi_puzzle::one_per_position(puzzles);
    std::fs::write(out, file::write(&puzzles, &header)).with_context(|| format!("writing {}", out.display()))?;
    let mates = puzzles.iter().filter(|p| p.kind == Kind::Mate).count();
    if as_json {
        crate::cli::print_json(
            &json!({"file": out.display().to_string(), "puzzles": puzzles.len(), "mates": mates, "wins": puzzles.len() - mates}),
        );
    } else {
        println!("{}: {} puzzles ({mates} mates)", out.display(), puzzles.len());
    }
    Ok(())
}

/// Whether a header line tells how a file's puzzles were made or checked: a run's command and
/// totals, a confirming search, or puzzles taken out by hand. `merge` keeps those lines.
fn is_history(line: &str) -> bool {
    line.starts_with("qi puzzle generate")
        || line.starts_with("qi puzzle confirm")
        || line.starts_with("then ")
        || line.contains(" candidates, ")
}

/// Whether a puzzle file's header says it is rated by the current formula.
fn rated_now(text: &str) -> bool {
    text.lines().take_while(|l| l.starts_with('#')).any(|l| l.trim_start_matches('#').trim() == rating::MARK)
}

/// The spread of a set's ratings: min, p10, median, p90, max.
fn spread(puzzles: &[Puzzle]) -> Value {
    let mut ratings: Vec<u32> = puzzles.iter().map(|p| p.rating).collect();
    ratings.sort_unstable();
    let percentile = |q: f64| ratings.get(((ratings.len().max(1) - 1) as f64 * q) as usize).copied();
    json!({"min": percentile(0.0), "p10": percentile(0.1), "median": percentile(0.5), "p90": percentile(0.9), "max": percentile(1.0)})
}

fn run_confirm(
    path: &Path,
    out: &Path,
    nodes: u64,
    threads: Option<usize>,
    eval_file: &str,
    as_json: bool,
) -> Result<()> {
    nnue::set_default_net(nnue::load_eval_file(eval_file).map_err(|e| anyhow::anyhow!(e))?);
    if nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let puzzles = file::read(&text).with_context(|| format!("reading {}", path.display()))?;
    let checked = puzzles.len();
    let settings = Settings { confirm_nodes: nodes, ..Settings::default() };
    let threads = crate::cli::threads_or_cores(threads);
    let started = Instant::now();
    let (kept, dropped) = xiangqi_puzzle::confirm_set(puzzles, &settings, threads)?;
    let seconds = started.elapsed().as_secs_f64();
    let mut header: Vec<String> =
        text.lines().take_while(|l| l.starts_with('#')).map(|l| l.trim_start_matches('#').trim().to_string()).collect();
    header.pop_if(|l| l.starts_with("id\t"));
    header.push(format!(
        "qi puzzle confirm --nodes {nodes} --eval-file {eval_file}: {} of {checked} confirmed, {} taken out",
        kept.len(),
        dropped.len()
    ));
    std::fs::write(out, file::write(&kept, &header)).with_context(|| format!("writing {}", out.display()))?;
    if as_json {
        let taken_out: Vec<Value> = dropped
            .iter()
            .map(|(p, why)| json!({"id": p.id, "kind": p.kind.name(), "reason": format!("{why:?}")}))
            .collect();
        crate::cli::print_json(&json!({
            "file": out.display().to_string(),
            "checked": checked,
            "kept": kept.len(),
            "taken_out": taken_out,
            "seconds": seconds,
            "threads": threads,
        }));
    } else {
        for (p, why) in &dropped {
            println!("{}  {}  taken out: {why:?}", p.id, p.kind.name());
        }
        println!("{}: {} of {checked} puzzles confirmed in {seconds:.0} s", out.display(), kept.len());
    }
    Ok(())
}

fn run_rerate(path: &Path, out: &Path, as_json: bool) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    if rated_now(&text) {
        bail!("{} is already rated by the current formula", path.display());
    }
    let mut puzzles = file::read(&text).with_context(|| format!("reading {}", path.display()))?;
    for p in &mut puzzles {
        let first = rating::Difficulty::of(&p.position, &p.moves, p.kind, &p.themes, 0);
        let found_at = rating::nodes_from_first_rating(p.rating, first.solver_moves, first.tempting);
        p.rating = rating::rating(&rating::Difficulty { found_at, ..first });
    }
    let puzzles = xiangqi_puzzle::one_per_position(puzzles);
    let mut header: Vec<String> =
        text.lines().take_while(|l| l.starts_with('#')).map(|l| l.trim_start_matches('#').trim().to_string()).collect();
    // The last comment line is the column names, which `file::write` adds again.
    header.pop_if(|l| l.starts_with("id\t"));
    header.push(rating::MARK.to_string());
    std::fs::write(out, file::write(&puzzles, &header)).with_context(|| format!("writing {}", out.display()))?;
    let summary = json!({"file": out.display().to_string(), "puzzles": puzzles.len(), "rating": spread(&puzzles)});
    if as_json {
        crate::cli::print_json(&summary);
    } else {
        println!("{}: {} puzzles rated again: {}", out.display(), puzzles.len(), summary["rating"]);
    }
    Ok(())
}

/// Which puzzles `qi puzzle list` prints: every one by default.
struct ListFilter<'a> {
    kind: Option<&'a str>,
    theme: Option<&'a str>,
    mate_in: Option<u8>,
}

fn run_list(path: Option<&Path>, filter: &ListFilter, as_json: bool) -> Result<()> {
    let text = match path {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?,
        None => SHIPPED.to_string(),
    };
    let kind = match filter.kind {
        Some(k) => Some(Kind::from_name(k).with_context(|| format!("--kind {k:?}: mate or win"))?),
        None => None,
    };
    let theme = match filter.theme {
        Some(name) => Some(Theme::from_name(name).with_context(|| {
            let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
            format!("--theme {name:?}: one of {}", names.join(", "))
        })?),
        None => None,
    };
    if let Some(n) = filter.mate_in {
        if !(1..=7).contains(&n) {
            bail!("--mate-in {n}: 1 to 7");
        }
    }
    let puzzles: Vec<Puzzle> = file::read(&text)?
        .into_iter()
        .filter(|p| kind.is_none_or(|k| p.kind == k))
        .filter(|p| theme.is_none_or(|t| p.themes.contains(&t)))
        .filter(|p| filter.mate_in.is_none_or(|n| p.mate_in == Some(u32::from(n))))
        .collect();
    if as_json {
        crate::cli::print_json(&Value::Array(puzzles.iter().map(puzzle_json).collect()));
    } else {
        for p in &puzzles {
            let moves: Vec<String> = p.moves.iter().map(Move::to_string).collect();
            println!("{}  {}  {}  {}  {}", p.id, p.rating, p.kind.name(), moves.join(" "), p.position.fen());
        }
        eprintln!("{} puzzles", puzzles.len());
    }
    Ok(())
}

/// One puzzle as `qi puzzle list --json` prints it.
fn puzzle_json(p: &Puzzle) -> Value {
    json!({
        "id": p.id,
        "fen": p.position.fen(),
        "moves": p.moves.iter().map(Move::to_string).collect::<Vec<_>>(),
        "kind": p.kind.name(),
        "mate_in": p.mate_in,
        "rating": p.rating,
        "themes": p.themes.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "source": p.source,
    })
}

fn run_endgames(grade: Option<u8>, as_json: bool) -> Result<()> {
    if let Some(g) = grade {
        if !(1..=endgames::MAX_GRADE).contains(&g) {
            bail!("--grade {g}: 1 to {}", endgames::MAX_GRADE);
        }
    }
    let track: Vec<Endgame> = endgames::shipped().into_iter().filter(|e| grade.is_none_or(|g| e.grade == g)).collect();
    if as_json {
        let list = track
            .iter()
            .map(|e| {
                json!({
                    "id": e.id,
                    "grade": e.grade,
                    "fen": e.position.fen(),
                    "goal": e.goal.name(),
                    "name_zh": e.name_zh,
                    "name_en": e.name_en,
                    "source": e.source,
                })
            })
            .collect();
        crate::cli::print_json(&Value::Array(list));
    } else {
        for e in &track {
            println!(
                "{}  grade {}  {}  {} ({})  {}",
                e.id,
                e.grade,
                e.goal.name(),
                e.name_zh,
                e.name_en,
                e.position.fen()
            );
        }
        eprintln!("{} endgames", track.len());
    }
    Ok(())
}
