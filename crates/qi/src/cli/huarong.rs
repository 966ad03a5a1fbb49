//! `qi huarong solve|list|survey|lookup|random|hardest|puzzles`: the Huarong Dao solver, catalog,
//! survey database and puzzles by difficulty.

use anyhow::{bail, Context, Result};
use huarong::database::{Database, DatabaseFile};
use huarong::distance::{self, Table, Tables, UNSOLVABLE};
use huarong::puzzle::{self, SplitMix64};
use huarong::survey::Survey;
use huarong::{catalog, shortest, solve, Convention, Layout, PieceSet};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
#[command(defer = true)] // built only when run (see `cli::Command`)
enum Sub {
    /// Minimum steps and a shortest solution of a layout.
    Solve {
        /// A grid (`VCCV/VCCV/VHHV/VSSV/S..S`), a classic's name (横刀立马 or hengdaolima) or a share code.
        layout: String,
        /// What counts as one step: piece (any path, the Chinese convention), straight or unit.
        #[arg(long, default_value = "piece")]
        convention: Convention,
        /// Print one JSON object: steps (null if unsolvable), states, solution.
        #[arg(long)]
        json: bool,
        /// Solve this many times in-process and report the median and fastest time.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
        /// Time the full search of the reachable group (which also counts `states`) instead of
        /// the search that stops at the goal layer.
        #[arg(long)]
        full: bool,
    },
    /// The classic layouts with their minimum steps.
    List {
        /// Print one JSON object with a `layouts` array.
        #[arg(long)]
        json: bool,
    },
    /// Every legal layout: groups, distances to a solution, the database for `lookup`.
    Survey {
        /// Where to write the database (one byte per layout).
        #[arg(long, default_value = "huarong.qdb")]
        out: PathBuf,
        /// Print one JSON object instead of the tables.
        #[arg(long)]
        json: bool,
    },
    /// A random solvable layout whose minimum is exactly N steps (or in a range), from the
    /// survey database when there is one, else by surveying the piece sets wanted.
    Random {
        /// Minimum steps wanted.
        #[arg(long, conflicts_with_all = ["min", "max"])]
        steps: Option<u8>,
        /// Fewest minimum steps wanted.
        #[arg(long)]
        min: Option<u8>,
        /// Most minimum steps wanted.
        #[arg(long)]
        max: Option<u8>,
        /// The pieces besides Cao Cao (`4V+1H+4S`) or a classic's name for its pieces; default:
        /// every set in the database, or without one the classic family (five generals, four soldiers).
        #[arg(long)]
        pieces: Option<String>,
        /// Seed of the choice (the same seed and database give the same layout).
        #[arg(long)]
        seed: Option<u64>,
        /// The database written by `qi huarong survey` (used when it exists).
        #[arg(long, default_value = "huarong.qdb")]
        db: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The hardest layouts of a piece set (most minimum steps).
    Hardest {
        /// The pieces besides Cao Cao (`4V+1H+4S`) or a classic's name; default as for `random`.
        #[arg(long)]
        pieces: Option<String>,
        /// The database written by `qi huarong survey` (used when it exists).
        #[arg(long, default_value = "huarong.qdb")]
        db: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Writes the shipped puzzle list (`crates/huarong/data/puzzles.tsv`): a few layouts of the
    /// classic family for every minimum number of steps.
    Puzzles {
        /// Layouts per piece set and number of steps.
        #[arg(long, default_value_t = 1)]
        per_step: usize,
        /// Seed of the choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Minimum steps of a layout, read from the survey database.
    Lookup {
        /// A grid, a classic's name or a share code.
        layout: String,
        /// The database written by `qi huarong survey`.
        #[arg(long, default_value = "huarong.qdb")]
        db: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Sub::Solve { layout, convention, json, repeat, full } => solve_cmd(&layout, convention, json, repeat, full),
        Sub::List { json } => list(json),
        Sub::Survey { out, json } => survey(out, json),
        Sub::Lookup { layout, db, json } => lookup(&layout, db, json),
        Sub::Random { steps, min, max, pieces, seed, db, json } => {
            let range = match steps {
                Some(n) => n..=n,
                None => min.unwrap_or(1)..=max.unwrap_or(UNSOLVABLE - 1),
            };
            random(range, pieces.as_deref(), seed, &db, json)
        }
        Sub::Hardest { pieces, db, json } => hardest(pieces.as_deref(), &db, json),
        Sub::Puzzles { per_step, seed } => puzzles(per_step, seed),
    }
}

/// A grid, a catalog name, a share code or a seed code (decimal u64), in that order.
fn parse_layout(text: &str) -> Result<(Layout, Option<&'static str>)> {
    let text = text.trim();
    if text.contains('/') {
        return Ok((Layout::parse(text).with_context(|| format!("bad grid {text:?}"))?, None));
    }
    if let Some(classic) = catalog::find(text) {
        return Ok((classic.layout, Some(classic.name)));
    }
    match Layout::from_share_code(text) {
        Ok(layout) => Ok((layout, None)),
        Err(share_err) => match text.parse::<u64>() {
            Ok(code) => Ok((Layout::from_code(code)?, None)),
            Err(_) => {
                bail!("{text:?} is not a grid, a classic's name (see `qi huarong list`) or a share code ({share_err})")
            }
        },
    }
}

fn cell(c: usize) -> serde_json::Value {
    json!({"row": c / 4, "col": c % 4})
}

fn solve_cmd(text: &str, convention: Convention, as_json: bool, repeat: u32, full: bool) -> Result<()> {
    let (layout, name) = parse_layout(text)?;
    // Each run is timed on its own, so the median is not skewed by other processes. With
    // `--repeat` the timed search is the one that stops at the goal layer unless `--full`, and
    // `states` comes from one more, full search; a single run is one full search (it answers
    // everything at once, which is what a one-shot process wants).
    let full = full || repeat == 1;
    let mut times = Vec::new();
    let mut timed = None;
    for _ in 0..repeat {
        let started = Instant::now();
        timed = Some(if full {
            let s = solve(layout, convention);
            (s.steps, s.path, Some(s.states))
        } else {
            let s = shortest(layout, convention);
            (s.steps, s.path, None)
        });
        times.push(started.elapsed().as_secs_f64());
    }
    let (steps, path, states) = timed.expect("repeat is at least 1");
    let states = states.unwrap_or_else(|| solve(layout, convention).states);
    let solution = huarong::Solution { start: layout, convention, steps, states, path };
    times.sort_by(f64::total_cmp);
    let (seconds, fastest) = (times[times.len() / 2], times[0]);
    let search = if full { "full" } else { "shortest" };
    if as_json {
        let steps: Vec<_> = solution
            .path
            .iter()
            .map(|s| {
                json!({"piece": s.mv.piece.letter().to_string(), "from": cell(s.mv.from), "to": cell(s.mv.to),
                       "layout": s.layout.to_string()})
            })
            .collect();
        crate::cli::print_json(&json!({
            "layout": layout.to_string(), "name": name, "share_code": layout.share_code(),
            "convention": convention.name(), "steps": solution.steps, "states": solution.states,
            "seconds": seconds, "fastest_seconds": fastest, "repeat": repeat, "search": search, "solution": steps,
        }));
        return Ok(());
    }
    let title = name.map(|n| format!("{n} ")).unwrap_or_default();
    println!("{title}{layout} (share code {})", layout.share_code());
    match solution.steps {
        None => println!("unsolvable in the {convention} convention ({} reachable layouts)", solution.states),
        Some(n) => {
            println!("{n} steps ({convention} convention), {} reachable layouts", solution.states);
            if repeat > 1 {
                println!(
                    "time ({search} search): median {:.3} ms, fastest {:.3} ms over {repeat} runs",
                    seconds * 1e3,
                    fastest * 1e3
                );
            } else {
                println!("time ({search} search): {:.3} ms", seconds * 1e3);
            }
            println!("  0. {:<16} {layout}", "start");
            for (i, step) in solution.path.iter().enumerate() {
                println!("{:>3}. {:<16} {}", i + 1, step.mv.to_string(), step.layout);
            }
        }
    }
    Ok(())
}

fn opt(v: Option<u32>) -> String {
    v.map_or("none".to_string(), |n| n.to_string())
}

fn list(as_json: bool) -> Result<()> {
    let all = catalog::classics();
    if as_json {
        let layouts: Vec<_> = all
            .iter()
            .map(|c| {
                json!({"name": c.name, "pinyin": c.pinyin, "layout": c.layout.to_string(), "share_code": c.layout.share_code(),
                       "piece": c.piece, "straight": c.straight, "unit": c.unit, "states": c.states})
            })
            .collect();
        crate::cli::print_json(&json!({ "layouts": layouts }));
        return Ok(());
    }
    println!(
        "{:<10} {:<22} {:<26} {:>5} {:>8} {:>5} {:>7}",
        "name", "pinyin", "layout", "piece", "straight", "unit", "states"
    );
    for c in all {
        // Chinese names are two columns wide per character in a terminal.
        let pad = 10usize.saturating_sub(c.name.chars().map(|ch| if ch.is_ascii() { 1 } else { 2 }).sum());
        println!(
            "{}{} {:<22} {:<26} {:>5} {:>8} {:>5} {:>7}",
            c.name,
            " ".repeat(pad),
            c.pinyin,
            c.layout.to_string(),
            opt(c.piece),
            opt(c.straight),
            opt(c.unit),
            c.states
        );
    }
    Ok(())
}

fn survey(out: PathBuf, as_json: bool) -> Result<()> {
    let started = Instant::now();
    let bar = ProgressBar::new(huarong::enumerate::TOTAL_LAYOUTS);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} layouts ({eta} left)")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let survey = Survey::run(&|n| bar.inc(n));
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut file = BufWriter::new(File::create(&out).with_context(|| format!("cannot create {}", out.display()))?);
    survey
        .database
        .write(&mut file)
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", out.display()))?;
    let solvable_groups: usize = survey.sets.iter().map(|s| s.solvable_groups).sum();
    if as_json {
        let sets: Vec<_> = survey
            .sets
            .iter()
            .map(|s| {
                json!({"vertical": s.set.vertical, "horizontal": s.set.horizontal, "soldiers": s.set.soldiers,
                       "layouts": s.layouts, "groups": s.groups, "solvable_groups": s.solvable_groups, "solvable": s.solvable,
                       "hardest_steps": s.hardest.map(|h| h.0), "hardest_count": s.hardest.map(|h| h.1),
                       "hardest_layout": s.hardest.map(|h| h.2.to_string())})
            })
            .collect();
        crate::cli::print_json(&json!({
            "layouts": survey.layouts(), "groups": survey.groups(), "solvable_groups": solvable_groups,
            "solvable": survey.solvable(), "seconds": seconds, "database": out.display().to_string(), "sets": sets,
        }));
        return Ok(());
    }
    println!(
        "{:<14} {:>9} {:>7} {:>9} {:>9} {:>7} {:>6}  example",
        "pieces", "layouts", "groups", "solv.grp", "solvable", "hardest", "count"
    );
    for s in &survey.sets {
        let (steps, count, example) = match s.hardest {
            Some((d, n, l)) => (d.to_string(), n.to_string(), l.to_string()),
            None => ("-".into(), "-".into(), String::new()),
        };
        println!(
            "{:<14} {:>9} {:>7} {:>9} {:>9} {:>7} {:>6}  {example}",
            s.set.to_string(),
            s.layouts,
            s.groups,
            s.solvable_groups,
            s.solvable,
            steps,
            count
        );
    }
    println!();
    println!("layouts   {}", survey.layouts());
    println!("groups    {} ({solvable_groups} contain a solution)", survey.groups());
    println!("solvable  {}", survey.solvable());
    if let Some(top) = survey.sets.iter().filter_map(|s| s.hardest.map(|h| (h.0, h.2))).max_by_key(|h| h.0) {
        println!("hardest   {} steps: {}", top.0, top.1);
    }
    println!("time      {seconds:.1} s");
    println!("database  {} ({} bytes)", out.display(), std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0));
    Ok(())
}

fn lookup(text: &str, db: PathBuf, as_json: bool) -> Result<()> {
    let (layout, name) = parse_layout(text)?;
    let mut file = BufReader::new(
        File::open(&db).with_context(|| format!("cannot open {} (run `qi huarong survey` first)", db.display()))?,
    );
    let database = Database::read_header(&mut file).with_context(|| format!("reading {}", db.display()))?;
    let Some(byte) = database.lookup(&mut file, layout).with_context(|| format!("reading {}", db.display()))? else {
        bail!("{} has no entry for the piece set {}", db.display(), layout.piece_set());
    };
    let steps = (byte != UNSOLVABLE).then_some(byte);
    if as_json {
        crate::cli::print_json(&json!({"layout": layout.to_string(), "name": name, "share_code": layout.share_code(),
                                       "convention": "piece", "steps": steps}));
    } else {
        let title = name.map(|n| format!("{n} ")).unwrap_or_default();
        match steps {
            Some(n) => println!("{title}{layout}: {n} steps (piece convention)"),
            None => println!("{title}{layout}: unsolvable"),
        }
    }
    Ok(())
}

/// The piece sets a `--pieces` argument names: a set (`4V+1H+4S`) or a classic's name.
fn parse_pieces(text: &str) -> Result<PieceSet> {
    if let Some(classic) = catalog::find(text) {
        return Ok(classic.layout.piece_set());
    }
    Ok(text.parse::<PieceSet>()?)
}

/// The classic family: Cao Cao, five generals (any split), four soldiers.
fn classic_family() -> Vec<PieceSet> {
    (0..=5).map(|vertical| PieceSet { vertical, horizontal: 5 - vertical, soldiers: 4 }).collect()
}

/// The tables of `pieces` (or the default sets) from the database at `db` if it exists, else
/// by surveying the sets here.
fn load_tables(pieces: Option<&str>, db: &Path) -> Result<Tables> {
    let wanted = pieces.map(parse_pieces).transpose()?;
    if let Some(mut file) = DatabaseFile::open(db)? {
        let sets: Vec<PieceSet> = match wanted {
            Some(set) => vec![set],
            None => file.database.sets.iter().map(|&(s, _)| s).collect(),
        };
        return Ok(file.read_tables(&sets)?);
    }
    Ok(survey_tables(&wanted.map_or_else(classic_family, |s| vec![s])))
}

/// The tables of `sets` by surveying them here (in parallel).
fn survey_tables(sets: &[PieceSet]) -> Tables {
    Survey::run_sets(sets, &|_| {}).tables()
}

/// A uniform pick among the layouts of the wanted sets whose distance is in `range`: from the
/// database if there is one (which reads only the set chosen), else by surveying the sets.
fn pick_random(
    range: &RangeInclusive<u8>,
    pieces: Option<&str>,
    random: u64,
    db: &Path,
) -> Result<(Tables, Option<(Layout, u8)>)> {
    let wanted = pieces.map(parse_pieces).transpose()?;
    let Some(mut file) = DatabaseFile::open(db)? else {
        let tables = survey_tables(&wanted.map_or_else(classic_family, |s| vec![s]));
        let picked = puzzle::pick(&tables.views(), range.clone(), random);
        return Ok((tables, picked));
    };
    Ok(file.pick(range, wanted, random)?)
}

fn random(range: RangeInclusive<u8>, pieces: Option<&str>, seed: Option<u64>, db: &Path, as_json: bool) -> Result<()> {
    if range.is_empty() {
        bail!("--min is above --max");
    }
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    let (tables, picked) = pick_random(&range, pieces, SplitMix64::new(seed).next_u64(), db)?;
    let Some((layout, steps)) = picked else {
        bail!("no solvable layout needs {}-{} steps in these piece sets", range.start(), range.end());
    };
    // The table says `steps`; the solver must agree (a damaged database would show here).
    let solved = shortest(layout, Convention::Piece).steps;
    if solved != Some(steps as usize) {
        bail!("{layout}: the {} says {steps} steps but the solver finds {solved:?}", tables.source.name());
    }
    if as_json {
        crate::cli::print_json(&json!({
            "layout": layout.to_string(), "name": null, "share_code": layout.share_code(), "convention": "piece",
            "steps": steps, "pieces": layout.piece_set().to_string(), "seed": seed, "source": tables.source.name(),
        }));
    } else {
        println!("{layout} (share code {}): {steps} steps, pieces {}", layout.share_code(), layout.piece_set());
    }
    Ok(())
}

fn hardest(pieces: Option<&str>, db: &Path, as_json: bool) -> Result<()> {
    let tables = load_tables(pieces, db)?;
    let sets: Vec<String> = tables.sets.iter().map(|(index, _)| index.set().to_string()).collect();
    let Some((steps, at)) = distance::hardest(&tables.views()) else {
        bail!("no layout of {} can be solved", sets.join(", "));
    };
    if as_json {
        let layouts: Vec<_> = at
            .iter()
            .map(
                |l| json!({"layout": l.to_string(), "share_code": l.share_code(), "pieces": l.piece_set().to_string()}),
            )
            .collect();
        crate::cli::print_json(&json!({
            "pieces": sets, "convention": "piece", "steps": steps, "count": at.len(), "layouts": layouts,
            "source": tables.source.name(),
        }));
    } else {
        let which = if sets.len() <= 6 { sets.join(", ") } else { format!("{} piece sets", sets.len()) };
        println!("{steps} steps, {} layouts ({which})", at.len());
        for l in &at {
            println!("  {l}  {:<8} {}", l.share_code(), l.piece_set());
        }
    }
    Ok(())
}

fn puzzles(per_step: usize, seed: u64) -> Result<()> {
    let tables = survey_tables(&classic_family());
    let mut random = SplitMix64::new(seed);
    println!("# steps<TAB>layout: {per_step} random layout(s) per piece set and minimum, classic family");
    println!(
        "# (Cao Cao, five generals, four soldiers); made by `qi huarong puzzles --per-step {per_step} --seed {seed}`"
    );
    for (index, distance) in &tables.sets {
        let table = [Table { index, distance }];
        let max = distance.iter().copied().filter(|&d| d != UNSOLVABLE).max().unwrap_or(0);
        for steps in 1..=max {
            let mut chosen = Vec::new();
            for _ in 0..per_step * 4 {
                if chosen.len() == per_step {
                    break;
                }
                if let Some((layout, _)) = puzzle::pick(&table, steps..=steps, random.next_u64()) {
                    if !chosen.contains(&layout) {
                        chosen.push(layout);
                    }
                }
            }
            for layout in chosen {
                println!("{steps}\t{layout}");
            }
        }
    }
    Ok(())
}
