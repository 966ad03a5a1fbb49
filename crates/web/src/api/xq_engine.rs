//! `POST /api/xq/engine`: the engine's move for a game (start FEN and ICCS moves), after a
//! bounded time of thought, one search at a time.

use super::xq_game::replay;
use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_engine::{Engine, Limits, SearchInfo};

/// The longest a request may ask the engine to think.
const MAX_THINK: Duration = Duration::from_secs(3);
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
fn human_choice(pos: &xiangqi::Position, info: &SearchInfo) -> Option<xiangqi::Move> {
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
    // No need for a strong generator: the clock and the position are varied enough.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let pick = (pos.hash() ^ nanos as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    Some(candidates[pick as usize % candidates.len()])
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// Thinking time in milliseconds (at most 3000).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Stop after this many plies of full-width search (1 to 64), within the thinking time.
    #[serde(default)]
    pub depth: Option<u32>,
}

#[derive(Serialize, Debug)]
pub struct EngineView {
    /// The engine's move in ICCS; absent when the side to move has no legal move.
    pub bestmove: Option<String>,
    /// Centipawns for the side to move.
    pub score: i32,
    /// Moves to mate (negative: being mated), when the engine sees one.
    pub mate: Option<i32>,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
}

pub async fn best_move(Body(req): Body<EngineRequest>) -> Result<Json<EngineView>, ApiError> {
    let think =
        req.movetime_ms.map_or(DEFAULT_THINK, Duration::from_millis).clamp(Duration::from_millis(10), MAX_THINK);
    if let Some(depth) = req.depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
        return Err(ApiError::bad_request(format!("depth {depth} is out of range (1 to {MAX_DEPTH})")));
    }
    cpu::ENGINE.run(think + Duration::from_secs(2), move || search(&req, think)).await.map(Json)
}

fn search(req: &EngineRequest, think: Duration) -> Result<EngineView, ApiError> {
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let (pos, history) = xiangqi_engine::replay(&start, &moves);
    let weak = req.depth.is_some_and(|d| d <= WEAK_DEPTH);
    let multipv = if weak { WEAK_CHOICES } else { 1 };
    let limits = Limits { depth: req.depth, multipv, ..Limits::time(think) };
    let info = Engine::new(16).search(&pos, &history, &limits, |_| {});
    let best = if weak { human_choice(&pos, &info) } else { info.best };
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
