//! `/xq/engine`: the engine's move for a game (start FEN and ICCS moves), after a bounded
//! time of thought.

use crate::game::replay;
use crate::ApiError;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_engine::level::FULL_STRENGTH;
use xiangqi_engine::{Engine, Level, Limits};

/// The longest a request may ask the engine to think.
pub const MAX_THINK: Duration = Duration::from_secs(3);
const DEFAULT_THINK: Duration = Duration::from_millis(800);
/// The deepest a request may ask for (a depth cap is how the page's weaker levels play).
const MAX_DEPTH: u32 = 64;

/// Searches this shallow, asked for without a level, play as the level of that number (the
/// page's weakest levels before it named levels).
const WEAK_DEPTH: u32 = 2;

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
    /// The computer's level, 1 (a beginner) to 8 (full strength, the default): see
    /// [`xiangqi_engine::level`].
    #[serde(default)]
    pub level: Option<u8>,
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
/// A depth or level out of range.
pub fn think_time(req: &EngineRequest) -> Result<Duration, ApiError> {
    if let Some(depth) = req.depth.filter(|d| !(1..=MAX_DEPTH).contains(d)) {
        return Err(ApiError::bad_request(format!("depth {depth} is out of range (1 to {MAX_DEPTH})")));
    }
    level_of(req)?;
    Ok(req.movetime_ms.map_or(DEFAULT_THINK, Duration::from_millis).clamp(Duration::from_millis(10), MAX_THINK))
}

/// The level `req` asks for: its `level`, or for a shallow `depth` alone the level of that
/// number, else full strength.
fn level_of(req: &EngineRequest) -> Result<&'static Level, ApiError> {
    let number = match (req.level, req.depth) {
        (Some(n), _) => n,
        (None, Some(d)) if d <= WEAK_DEPTH => d as u8,
        (None, _) => FULL_STRENGTH,
    };
    Level::get(number)
        .ok_or_else(|| ApiError::bad_request(format!("level {number} is out of range (1 to {FULL_STRENGTH})")))
}

/// The engine's move for the game of `req` at its level (the weak levels pick among near-best
/// moves with `entropy`, any varied number).
///
/// # Errors
/// A depth or level out of range, a bad FEN or move.
pub fn best_move(req: &EngineRequest, entropy: u64) -> Result<EngineView, ApiError> {
    let think = think_time(req)?;
    let level = level_of(req)?;
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let (pos, history) = xiangqi_engine::replay(&start, &moves);
    let limits = level.limits(&Limits { depth: req.depth, ..Limits::time(think) });
    let mut engine = Engine::new(16);
    if !level.net {
        engine.set_net(None);
    }
    let info = engine.search(&pos, &history, &limits, |_| {});
    let best = level.choose(&pos, &info, entropy);
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

/// One of the computer's levels, as the page's menu shows it.
#[derive(Serialize, Debug)]
pub struct LevelView {
    /// 1 (a beginner) to 8 (full strength): the request's `level`.
    pub level: u8,
    /// Its name (the page's words are `level.<name>`).
    pub name: &'static str,
    /// Its rough strength on an Elo-like scale (an estimate: engine README, "Levels").
    pub rating: u32,
}

/// The computer's levels, weakest first.
pub fn levels() -> Vec<LevelView> {
    xiangqi_engine::LEVELS.iter().map(|l| LevelView { level: l.number, name: l.name, rating: l.rating }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(level: Option<u8>, depth: Option<u32>) -> EngineRequest {
        EngineRequest { fen: None, moves: vec!["h2e2".into()], movetime_ms: Some(50), depth, level }
    }

    #[test]
    fn levels_are_asked_by_number_and_a_shallow_depth_alone_is_its_level() {
        assert_eq!(level_of(&request(None, None)).unwrap().number, 8);
        assert_eq!(level_of(&request(None, Some(1))).unwrap().number, 1);
        assert_eq!(level_of(&request(None, Some(6))).unwrap().number, 8);
        assert_eq!(level_of(&request(Some(3), Some(1))).unwrap().number, 3);
        for bad in [0, 9, 255] {
            assert_eq!(best_move(&request(Some(bad), None), 1).unwrap_err().status, 400);
        }
        let views = levels();
        assert_eq!(views.len(), 8);
        assert_eq!((views[0].level, views[0].name), (1, "beginner"));
    }

    #[test]
    fn every_level_answers_with_a_legal_move() {
        for level in 1..=8 {
            let view = best_move(&request(Some(level), None), 42).unwrap();
            let m: xiangqi::Move = view.bestmove.unwrap().parse().unwrap();
            let mut pos = xiangqi::Position::startpos();
            pos.play("h2e2".parse().unwrap()).unwrap();
            assert!(pos.is_legal(m), "level {level}: {m}");
        }
    }
}
