//! The second, independent check of a finished puzzle: a fresh search of twice the verifying
//! nodes from the puzzle's position alone (no game before it, as the page shows it), which must
//! choose the same first move and still see it as the only one. The verifying search lets
//! through some wins that a deeper look does not hold (127 of 378 in the set made before this
//! check), so every puzzle passes this one before it is kept.

use crate::settings::alone;
use crate::{Kind, Puzzle, Rejection, Settings};
use xiangqi_engine::{Engine, Limits};

/// Checks `puzzle` with a fresh search of [`Settings::confirm_nodes`] nodes and two lines: the
/// same first move; for a mate, a mate within the puzzle's length and no second move that mates
/// as fast; for a win, still at least [`Settings::confirm_winning`] ahead and the next move at
/// least [`Settings::confirm_gap`] of expected score behind.
pub fn confirm(engine: &mut Engine, puzzle: &Puzzle, settings: &Settings) -> Result<(), Rejection> {
    engine.clear();
    let limits = Limits { nodes: Some(settings.confirm_nodes), multipv: 2, ..Limits::default() };
    let info = engine.search(&puzzle.position, &[], &limits, |_| {});
    let best = info.lines.first().ok_or(Rejection::NotConfirmed)?;
    if info.best != puzzle.moves.first().copied() {
        return Err(Rejection::NotConfirmed);
    }
    let second = info.lines.get(1);
    match puzzle.kind {
        Kind::Mate => {
            let n = puzzle.mate_in.ok_or(Rejection::NotConfirmed)? as i32;
            if !best.score.mate_in().is_some_and(|m| (1..=n).contains(&m)) {
                return Err(Rejection::NotConfirmed);
            }
            if second.and_then(|l| l.score.mate_in()).is_some_and(|m| (1..=n).contains(&m)) {
                return Err(Rejection::SecondMate);
            }
        }
        Kind::Win => {
            let cp = best.score.centipawns();
            if cp < settings.confirm_winning {
                return Err(Rejection::NotConfirmed);
            }
            if !alone(cp, second.map(|s| s.score.centipawns()), settings.confirm_gap) {
                return Err(Rejection::NotAlone);
            }
        }
    }
    Ok(())
}

/// What [`confirm_set`] answers: the puzzles confirmed, and those taken out with the reason.
pub type Confirmed = (Vec<Puzzle>, Vec<(Puzzle, Rejection)>);

/// Confirms every puzzle of a set on `threads` threads (each with its own engine, cleared
/// before each puzzle, so the answer does not depend on the threads): the puzzles kept, in
/// their order, and those taken out with the reason.
pub fn confirm_set(
    puzzles: Vec<Puzzle>,
    settings: &Settings,
    threads: usize,
) -> Result<Confirmed, rayon::ThreadPoolBuildError> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    let checked: Vec<(Puzzle, Result<(), Rejection>)> = pool.install(|| {
        puzzles
            .into_par_iter()
            .map_init(
                || Engine::new(crate::settings::HASH_MB),
                |engine, p| {
                    let verdict = confirm(engine, &p, settings);
                    (p, verdict)
                },
            )
            .collect()
    });
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for (p, verdict) in checked {
        match verdict {
            Ok(()) => kept.push(p),
            Err(why) => dropped.push((p, why)),
        }
    }
    Ok((kept, dropped))
}
