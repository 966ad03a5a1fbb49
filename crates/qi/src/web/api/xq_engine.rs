//! `POST /api/xq/engine`: the engine's move for a game (start FEN and ICCS moves), after a
//! bounded time of thought, one search at a time.

use super::xq_game::replay;
use crate::web::cpu;
use crate::web::extract::Body;
use crate::web::ApiError;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_engine::{Engine, Limits};

/// The longest a request may ask the engine to think.
const MAX_THINK: Duration = Duration::from_secs(3);
const DEFAULT_THINK: Duration = Duration::from_millis(800);
/// The deepest a request may ask for (a depth cap is how the page's weaker levels play).
const MAX_DEPTH: u32 = 64;

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
    let mut pos = start;
    let mut history = Vec::with_capacity(moves.len());
    for &m in &moves {
        history.push(pos.hash());
        pos.play_unchecked(m);
    }
    let limits = Limits { depth: req.depth, ..Limits::time(think) };
    let info = Engine::new(16).search(&pos, &history, &limits, |_| {});
    Ok(EngineView {
        bestmove: info.best.map(|m| m.to_string()),
        score: info.score.centipawns(),
        mate: info.score.mate_in(),
        depth: info.depth,
        nodes: info.nodes,
        pv: info.pv.iter().map(ToString::to_string).collect(),
    })
}
