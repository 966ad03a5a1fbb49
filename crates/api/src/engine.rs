//! `/xq/engine`: the engine's move for a game (start FEN and ICCS moves), after a bounded
//! time of thought.

use crate::game::replay;
use crate::ApiError;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_engine::{Engine, Limits, SearchInfo};

/// The longest a request may ask the engine to think.
pub const MAX_THINK: Duration = Duration::from_secs(3);
const DEFAULT_THINK: Duration = Duration::from_millis(800);
/// The deepest a request may ask for (a depth cap is how the page's weaker levels play).
const MAX_DEPTH: u32 = 64;

/// Searches this shallow are the page's weakest levels: they pick among the good-looking moves.
const WEAK_DEPTH: u32 = 2;
/// How many candidate moves a weak level considers.
const WEAK_CHOICES: usize = 6;
/// How much worse than the best (centipawns) a weak level's move may be.
const WEAK_MARGIN: i32 = 80;

/// A weak level's move: one of the lines within [`WEAK_MARGIN`] of the best, picked at random,
/// the way a beginner plays plausible but not best moves. King moves are only played when
/// nothing else is close (a beginner does not walk the king to and fro).
fn human_choice(pos: &xiangqi::Position, info: &SearchInfo, entropy: u64) -> Option<xiangqi::Move> {
    let best = info.lines.first()?;
    if best.score.is_mate() {
        return info.best;
    }
    let is_king = |m: xiangqi::Move| pos.piece_at(m.from()).is_some_and(|p| p.kind == xiangqi::PieceKind::King);
    let candidates: Vec<xiangqi::Move> = info
        .lines
        .iter()
        .filter(|l| !l.score.is_mate() && l.score.centipawns() >= best.score.centipawns() - WEAK_MARGIN)
        .filter_map(|l| l.pv.first().copied())
        .filter(|&m| !is_king(m))
        .collect();
    if candidates.is_empty() {
        return info.best;
    }
    // No need for a strong generator: the caller's entropy and the position are varied enough.
    let pick = (pos.hash() ^ entropy).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    Some(candidates[pick as usize % candidates.len()])
}

/// A game whose next move the engine is asked for.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The game's ICCS moves so far.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Thinking time in milliseconds (at most 3000).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Stop after this many plies of full-width search (1 to 64), within the thinking time.
    #[serde(default)]
    pub depth: Option<u32>,
}

/// The engine's answer.
#[derive(Serialize, Debug)]
pub struct EngineView {
    /// The engine's move in ICCS; absent when the side to move has no legal move.
    pub bestmove: Option<String>,
    /// Centipawns for the side to move.
    pub score: i32,
    /// Moves to mate (negative: being mated), when the engine sees one.
    pub mate: Option<i32>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The line expected after the move, in ICCS, the move first.
    pub pv: Vec<String>,
}

/// How long `req` may think: its `movetime_ms` within 10 ms to [`MAX_THINK`].
///
/// # Errors
/// A depth out of range.
pub fn think_time(req: &EngineRequest) -> Result<Duration, ApiError> {
    if let Some(depth) = req.depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
        return Err(ApiError::bad_request(format!("depth {depth} is out of range (1 to {MAX_DEPTH})")));
    }
    Ok(req.movetime_ms.map_or(DEFAULT_THINK, Duration::from_millis).clamp(Duration::from_millis(10), MAX_THINK))
}

/// The engine's move for the game of `req` (the weak levels pick among near-best moves with
/// `entropy`, any varied number).
///
/// # Errors
/// A depth out of range, a bad FEN or move.
pub fn best_move(req: &EngineRequest, entropy: u64) -> Result<EngineView, ApiError> {
    let think = think_time(req)?;
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let (pos, history) = xiangqi_engine::replay(&start, &moves);
    let weak = req.depth.is_some_and(|d| d <= WEAK_DEPTH);
    let multipv = if weak { WEAK_CHOICES } else { 1 };
    let limits = Limits { depth: req.depth, multipv, ..Limits::time(think) };
    let info = Engine::new(16).search(&pos, &history, &limits, |_| {});
    let best = if weak { human_choice(&pos, &info, entropy) } else { info.best };
    // The line of the move played (a weak level's may not be the first).
    let line = info.lines.iter().find(|l| l.pv.first().copied() == best);
    let (score, pv) = line.map_or((info.score, &info.pv), |l| (l.score, &l.pv));
    Ok(EngineView {
        bestmove: best.map(|m| m.to_string()),
        score: score.centipawns(),
        mate: score.mate_in(),
        depth: info.depth,
        nodes: info.nodes,
        pv: pv.iter().map(ToString::to_string).collect(),
    })
}
