//! The whole run: games looked through on several threads, each with its own engine, the
//! candidates checked, duplicates left out, the set sorted by rating.

use crate::confirm::confirm;
use crate::scan::{scan, Game};
use crate::settings::HASH_MB;
use crate::verify::verify;
use crate::{Puzzle, Settings};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use xiangqi_engine::Engine;

/// How far a run has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games looked through.
    pub games: u64,
    /// Positions searched in the quick pass.
    pub positions: u64,
    /// Candidates the quick pass found.
    pub candidates: u64,
    /// Candidates the deeper search and the confirming search kept.
    pub kept: u64,
}

/// Finds the puzzles of `games` on `threads` threads (each game on one thread, with the engine's
/// table cleared before it, so a run gives the same set whatever the threads do). `on_progress`
/// hears after each game. Returns the puzzles, one per position, easiest first, and the totals.
pub fn generate(
    games: &[Game],
    settings: &Settings,
    threads: usize,
    on_progress: impl Fn(Progress) + Sync,
) -> Result<(Vec<Puzzle>, Progress), rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    let counters: [AtomicU64; 4] = Default::default();
    let snapshot = |c: &[AtomicU64; 4]| Progress {
        games: c[0].load(Ordering::Relaxed),
        positions: c[1].load(Ordering::Relaxed),
        candidates: c[2].load(Ordering::Relaxed),
        kept: c[3].load(Ordering::Relaxed),
    };
    let found: Vec<Vec<Puzzle>> = pool.install(|| {
        games
            .par_iter()
            .map_init(
                || Engine::new(HASH_MB),
                |engine, game| {
                    engine.clear();
                    let (candidates, searched) = scan(engine, game, settings);
                    let kept: Vec<Puzzle> = candidates
                        .iter()
                        .filter_map(|c| {
                            let puzzle = verify(engine, c, settings).ok()?;
                            let confirmed = settings.confirm_nodes == 0 || confirm(engine, &puzzle, settings).is_ok();
                            confirmed.then_some(puzzle)
                        })
                        .collect();
                    counters[0].fetch_add(1, Ordering::Relaxed);
                    counters[1].fetch_add(searched, Ordering::Relaxed);
                    counters[2].fetch_add(candidates.len() as u64, Ordering::Relaxed);
                    counters[3].fetch_add(kept.len() as u64, Ordering::Relaxed);
                    on_progress(snapshot(&counters));
                    kept
                },
            )
            .collect()
    });
    Ok((one_per_position(found.into_iter().flatten()), snapshot(&counters)))
}

/// A set as files keep it: the first puzzle of each position, easiest first (ties by id).
pub fn one_per_position(puzzles: impl IntoIterator<Item = Puzzle>) -> Vec<Puzzle> {
    let mut seen = HashSet::new();
    let mut kept: Vec<Puzzle> = puzzles.into_iter().filter(|p| seen.insert(p.position.hash())).collect();
    kept.sort_by(|a, b| a.rating.cmp(&b.rating).then_with(|| a.id.cmp(&b.id)));
    kept
}
