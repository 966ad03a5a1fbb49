//! The deeper check: a candidate becomes a puzzle only if a search with many more nodes agrees
//! that its first move is the only one, and finds the rest of the line the same way: for a
//! mate, every solver move the only one that mates within the moves left and the defender's
//! longest defence in between; for a win, further solver moves while each is the only winning
//! one.

use crate::scan::Candidate;
use crate::{rating, theme, Kind, Puzzle, Settings};
use xiangqi::{Move, Position};
use xiangqi_engine::{Engine, Limits, Played, SearchInfo};

/// Why a candidate was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The deeper search found no mate, or a mate longer than allowed.
    NoMate,
    /// Another move mates as fast (or within the puzzle's length).
    SecondMate,
    /// The deeper search does not score the best move as winning.
    NotWinning,
    /// Another move wins too (the best is not clear of the second).
    NotAlone,
    /// The line did not end in a mate where the search said it would.
    LineBroken,
    /// The confirming search (fresh, twice the nodes, from the position alone) chose another
    /// first move, or no longer sees the mate or the win (see [`crate::confirm`]).
    NotConfirmed,
}

/// A position and the game before it, moved along a line.
struct Walk {
    position: Position,
    history: Vec<Played>,
}

impl Walk {
    fn play(&mut self, mv: Move) {
        self.history.push(Played { hash: self.position.hash(), mv });
        self.position.play_unchecked(mv);
    }
}

/// Searches `walk`'s position for `lines` lines at `nodes`; also returns the nodes searched
/// when the final best move first became best (and stayed), for the rating.
fn search(engine: &mut Engine, walk: &Walk, nodes: u64, lines: usize) -> (SearchInfo, u64) {
    let limits = Limits { nodes: Some(nodes), multipv: lines, ..Limits::default() };
    let mut best: Option<Move> = None;
    let mut since = 0;
    let info = engine.search(&walk.position, &walk.history, &limits, |it| {
        if it.best != best {
            best = it.best;
            since = it.nodes;
        }
    });
    if info.best != best {
        since = info.nodes;
    }
    (info, since)
}

/// Checks `candidate` with deeper searches and builds its puzzle.
pub fn verify(engine: &mut Engine, candidate: &Candidate, settings: &Settings) -> Result<Puzzle, Rejection> {
    engine.clear();
    let mut walk = Walk { position: candidate.position.clone(), history: candidate.history.clone() };
    let (info, found_at) = search(engine, &walk, settings.verify_nodes, 2);
    let best = info.lines.first().ok_or(Rejection::NotWinning)?;
    let second = info.lines.get(1);
    let mut moves = Vec::new();
    let kind = match best.score.mate_in() {
        Some(n) if n >= 1 && n.unsigned_abs() <= settings.max_mate => {
            if second.and_then(|l| l.score.mate_in()).is_some_and(|m| (1..=n).contains(&m)) {
                return Err(Rejection::SecondMate);
            }
            mate_line(engine, &mut walk, info.best.ok_or(Rejection::NoMate)?, n.unsigned_abs(), settings, &mut moves)?;
            Kind::Mate
        }
        _ if candidate.kind == Kind::Mate => return Err(Rejection::NoMate),
        _ => {
            let best_cp = best.score.centipawns();
            if best_cp < settings.winning {
                return Err(Rejection::NotWinning);
            }
            if !crate::settings::alone(best_cp, second.map(|s| s.score.centipawns()), settings.gap) {
                return Err(Rejection::NotAlone);
            }
            win_line(engine, &mut walk, info.best.ok_or(Rejection::NotWinning)?, settings, &mut moves);
            Kind::Win
        }
    };
    let position = candidate.position.clone();
    let mate_in = (kind == Kind::Mate).then(|| moves.len().div_ceil(2) as u32);
    let themes = theme::themes(&position, &moves, kind);
    Ok(Puzzle {
        id: Puzzle::id_of(&position, moves[0]),
        rating: rating::rating(&rating::Difficulty::of(&position, &moves, kind, &themes, found_at)),
        position,
        moves,
        kind,
        mate_in,
        themes,
        source: candidate.source.clone(),
    })
}

/// Plays out a mate in `n` that starts with `first`: the defender's longest defence after each
/// solver move, and at each later solver move the search must again find a mate within the
/// moves left, by one move only.
fn mate_line(
    engine: &mut Engine,
    walk: &mut Walk,
    first: Move,
    n: u32,
    settings: &Settings,
    moves: &mut Vec<Move>,
) -> Result<(), Rejection> {
    let mut next = first;
    for left in (1..=n).rev() {
        moves.push(next);
        walk.play(next);
        if walk.position.legal_moves().is_empty() {
            return Ok(());
        }
        if left == 1 {
            return Err(Rejection::LineBroken);
        }
        // The defender's reply that holds out longest.
        let (defence, _) = search(engine, walk, settings.verify_nodes / 2, 1);
        let reply = defence.best.ok_or(Rejection::LineBroken)?;
        moves.push(reply);
        walk.play(reply);
        let (attack, _) = search(engine, walk, settings.verify_nodes / 2, 2);
        let mate = attack.lines.first().and_then(|l| l.score.mate_in()).ok_or(Rejection::LineBroken)?;
        if !(1..left as i32).contains(&mate) {
            return Err(Rejection::LineBroken);
        }
        if attack.lines.get(1).and_then(|l| l.score.mate_in()).is_some_and(|m| (1..=mate).contains(&m)) {
            return Err(Rejection::SecondMate);
        }
        next = attack.best.ok_or(Rejection::LineBroken)?;
    }
    Err(Rejection::LineBroken)
}

/// Plays out a win that starts with `first`: after the defender's best reply, one more solver
/// move while it is again the only winning one, up to [`Settings::max_win_moves`].
fn win_line(engine: &mut Engine, walk: &mut Walk, first: Move, settings: &Settings, moves: &mut Vec<Move>) {
    moves.push(first);
    walk.play(first);
    while moves.len().div_ceil(2) < settings.max_win_moves {
        let (defence, _) = search(engine, walk, settings.verify_nodes / 2, 1);
        let Some(reply) = defence.best else { return };
        let mut after = Walk { position: walk.position.clone(), history: walk.history.clone() };
        after.play(reply);
        let (attack, _) = search(engine, &after, settings.verify_nodes / 2, 2);
        let (Some(best), Some(next)) = (attack.lines.first(), attack.best) else { return };
        let second = attack.lines.get(1).map(|s| s.score.centipawns());
        let alone = crate::settings::alone(best.score.centipawns(), second, settings.gap);
        // Stop where the win is in hand: several moves keep it, or the advantage is gone.
        if best.score.centipawns() < settings.winning || !alone || best.score.is_mate() {
            return;
        }
        moves.push(reply);
        moves.push(next);
        *walk = after;
        walk.play(next);
    }
}
