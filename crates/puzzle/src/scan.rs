//! The first pass: every position of a game searched quickly for two lines, keeping those where
//! the side to move has a short mate, or a single winning move that the opponent's last move
//! allowed. The deeper check ([`crate::verify`]) decides which of them are puzzles.

use crate::{Kind, Settings};
use xiangqi::{Move, Position, Square};
use xiangqi_engine::{Engine, Limits, Line, Played};

/// A game to look through: its name (for the puzzle's source), start and moves (legal in turn).
#[derive(Clone, Debug)]
pub struct Game {
    /// The name puzzles cite as their source.
    pub name: String,
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
}

/// A position worth the deeper search.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The position, the solver to move.
    pub position: Position,
    /// The game before it, for the repetition rules.
    pub history: Vec<Played>,
    /// What the quick look saw.
    pub kind: Kind,
    /// The game's name and the ply, e.g. `wk-Hu_Ronghua-0000 ply 34`.
    pub source: String,
}

/// The candidates of `game` and the number of positions searched.
pub fn scan(engine: &mut Engine, game: &Game, settings: &Settings) -> (Vec<Candidate>, u64) {
    let limits = Limits { nodes: Some(settings.scan_nodes), multipv: 2, ..Limits::default() };
    let mut pos = game.start.clone();
    let mut history: Vec<Played> = Vec::with_capacity(game.moves.len());
    let mut found = Vec::new();
    let mut searched = 0;
    // The previous position's best score, from its mover's view.
    let mut previous: Option<i32> = None;
    // The ply of the last candidate: the same attack two plies later is the same puzzle.
    let mut last_found: Option<usize> = None;
    // Where the last move captured, if it did.
    let mut last_capture_square: Option<Square> = None;
    for ply in 0..=game.moves.len() {
        let looked = ply + 1 >= settings.first_ply && pos.legal_moves().len() >= 2;
        let mut best_score = None;
        if looked {
            searched += 1;
            let info = engine.search(&pos, &history, &limits, |_| {});
            if let Some(best) = info.lines.first() {
                let best_cp = best.score.centipawns();
                best_score = Some(best_cp);
                let repeat = last_found.is_some_and(|p| ply - p <= 2);
                if ply >= settings.first_ply && !repeat {
                    if let Some(kind) = classify(best, info.lines.get(1), previous, last_capture_square, settings) {
                        found.push(Candidate {
                            position: pos.clone(),
                            history: history.clone(),
                            kind,
                            source: format!("{} ply {ply}", game.name),
                        });
                        last_found = Some(ply);
                    }
                }
            }
        }
        previous = best_score;
        let Some(&mv) = game.moves.get(ply) else { break };
        last_capture_square = pos.is_capture(mv).then_some(mv.to());
        history.push(Played { hash: pos.hash(), mv });
        pos.play_unchecked(mv);
    }
    (found, searched)
}

/// What the quick look makes of a position: a mate within reach with no other as short, or a
/// win by one move only, given away by the opponent's last move (and not a plain recapture of
/// what that move took).
fn classify(
    best: &Line,
    second: Option<&Line>,
    previous: Option<i32>,
    last_capture_square: Option<Square>,
    settings: &Settings,
) -> Option<Kind> {
    if let Some(n) = best.score.mate_in() {
        let another_as_fast = second.and_then(|l| l.score.mate_in()).is_some_and(|m| (1..=n).contains(&m));
        return (n >= 1 && n.unsigned_abs() <= settings.max_mate && !another_as_fast).then_some(Kind::Mate);
    }
    let best_cp = best.score.centipawns();
    let alone = crate::settings::alone(best_cp, second.map(|s| s.score.centipawns()), settings.gap);
    // The solver's score before the opponent's move is minus the opponent's.
    let given_away = previous.is_some_and(|p| best_cp + p >= settings.swing);
    let first = *best.pv.first()?;
    let recapture = last_capture_square == Some(first.to());
    (best_cp >= settings.winning && alone && given_away && !recapture).then_some(Kind::Win)
}
