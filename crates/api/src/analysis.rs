//! Engine analysis for the page: the best lines of a position per completed depth
//! ([`analyse`]), and a whole game reviewed, each move judged ([`review`]). The server streams
//! what these report as server-sent events; the browser's engine worker posts them as messages.

use crate::game::{replay, MoveView};
use crate::ApiError;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use xiangqi::{Move, Position};
use xiangqi_engine::{Engine, Limits, Played, Score, SearchInfo};

/// The longest one analysis may think.
const MAX_ANALYSE: Duration = Duration::from_secs(10);
const DEFAULT_ANALYSE: Duration = Duration::from_secs(4);
/// A review thinks this long per position at most, and this long for the whole game.
const MAX_REVIEW_PER_POSITION: Duration = Duration::from_millis(1000);
const DEFAULT_REVIEW_PER_POSITION: Duration = Duration::from_millis(150);
const MAX_REVIEW: Duration = Duration::from_secs(60);
/// The transposition table of each search.
pub const HASH_MB: usize = 16;
const MAX_MULTIPV: usize = 3;

/// A position to analyse: the end of a game.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The game's ICCS moves.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Best lines wanted, 1 to 3 (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Thinking time in milliseconds (at most 10000; default 4000).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// A score as the page shows it: centipawns and, when the engine sees one, moves to mate,
/// both from Red's point of view (positive: Red is better).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Eval {
    /// Centipawns.
    pub cp: i32,
    /// Moves to mate (negative: Red is mated).
    pub mate: Option<i32>,
}

impl Eval {
    fn red(score: Score, turn: xiangqi::Color) -> Eval {
        let sign = if turn == xiangqi::Color::Red { 1 } else { -1 };
        Eval { cp: sign * score.centipawns(), mate: score.mate_in().map(|m| sign * m) }
    }

    /// Red's winning chances in percent (lichess's logistic curve; a mate is 0 or 100; mate 0,
    /// a side already mated, goes by the sign of `cp`).
    pub fn win_percent(self) -> f64 {
        match self.mate {
            Some(m) if m > 0 || (m == 0 && self.cp > 0) => 100.0,
            Some(_) => 0.0,
            None => 50.0 + 50.0 * (2.0 / (1.0 + (-0.004 * f64::from(self.cp)).exp()) - 1.0),
        }
    }
}

/// One of the best lines.
#[derive(Serialize, Debug)]
pub struct LineView {
    /// Its score.
    pub eval: Eval,
    /// The moves in all three notations.
    pub pv: Vec<MoveView>,
}

/// What a completed depth found.
#[derive(Serialize, Debug)]
pub struct InfoView {
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time_ms: u64,
    /// Best first.
    pub lines: Vec<LineView>,
}

fn notate(pos: &Position, line: &[Move]) -> Vec<MoveView> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&m| {
            let view = MoveView::new(&pos, m);
            pos.play_unchecked(m);
            view
        })
        .collect()
}

fn info_view(pos: &Position, info: &SearchInfo) -> InfoView {
    InfoView {
        depth: info.depth,
        nodes: info.nodes,
        time_ms: info.elapsed.as_millis() as u64,
        lines: info
            .lines
            .iter()
            .map(|l| LineView { eval: Eval::red(l.score, pos.turn()), pv: notate(pos, &l.pv) })
            .collect(),
    }
}

/// An analysis whose request was read and checked.
pub struct AnalysisJob {
    start: Position,
    moves: Vec<Move>,
    limits: Limits,
    stop: Arc<AtomicBool>,
}

impl AnalysisJob {
    /// The flag that stops this job's search (the caller sets it when the client goes away).
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

/// Reads and checks an analysis request (before any search starts).
///
/// # Errors
/// MultiPV out of range, a bad FEN or move.
pub fn prepare_analysis(req: &AnalyseRequest) -> Result<AnalysisJob, ApiError> {
    let multipv = req.multipv.unwrap_or(1);
    if !(1..=MAX_MULTIPV).contains(&multipv) {
        return Err(ApiError::bad_request(format!("multipv {multipv} is out of range (1 to {MAX_MULTIPV})")));
    }
    let think =
        req.movetime_ms.map_or(DEFAULT_ANALYSE, Duration::from_millis).clamp(Duration::from_millis(50), MAX_ANALYSE);
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let limits = Limits { time: Some(think), multipv, ..Limits::default() };
    Ok(AnalysisJob { start, moves, limits, stop: Arc::default() })
}

/// Runs `job` on `engine`, calling `on_info` after each completed depth; the search stops
/// early when `on_info` returns `false`. Returns the final lines.
pub fn analyse(job: &AnalysisJob, engine: &mut Engine, mut on_info: impl FnMut(&InfoView) -> bool) -> InfoView {
    let (pos, history) = xiangqi_engine::replay(&job.start, &job.moves);
    let stop = job.stop_handle();
    engine.set_stop_handle(Arc::clone(&stop));
    let info = engine.search(&pos, &history, &job.limits, |info| {
        if !on_info(&info_view(&pos, info)) {
            stop.store(true, Ordering::Relaxed);
        }
    });
    info_view(&pos, &info)
}

/// A game to review.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The game's ICCS moves.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Thinking time per position in milliseconds (at most 1000; default 150).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// One position of the reviewed game.
#[derive(Serialize, Debug, Clone)]
pub struct PositionScore {
    /// 0 = the start.
    pub ply: usize,
    /// Its score.
    pub eval: Eval,
    /// The engine's move there (absent at the end of a game).
    pub best: Option<MoveView>,
}

/// How bad a move was: how many points of the mover's winning chances it gave away.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// 10 to 20 points.
    Inaccuracy,
    /// 20 to 30 points.
    Mistake,
    /// 30 points or more.
    Blunder,
}

impl Judgement {
    /// Thresholds in winning-chance points (10, 20, 30), as lichess's computer analysis does.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        match loss {
            l if l >= 30.0 => Some(Judgement::Blunder),
            l if l >= 20.0 => Some(Judgement::Mistake),
            l if l >= 10.0 => Some(Judgement::Inaccuracy),
            _ => None,
        }
    }
}

/// One move judged.
#[derive(Serialize, Debug)]
pub struct MoveJudgement {
    /// The move's ply (1 = the first move).
    pub ply: usize,
    /// Winning-chance points the mover lost with it (0 when it was as good as the best).
    pub loss: f64,
    /// How bad that was, if bad at all.
    pub judgement: Option<Judgement>,
    /// The engine's move instead, when the played one was judged.
    pub better: Option<MoveView>,
}

/// Judges each move from the scores of the positions before and after it.
pub fn judge(scores: &[PositionScore], moves: &[Move], start: &Position) -> Vec<MoveJudgement> {
    let mut red_to_move = start.turn() == xiangqi::Color::Red;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (scores.get(i), scores.get(i + 1)) else { break };
        let (b, a) = (before.eval.win_percent(), after.eval.win_percent());
        let loss = if red_to_move { b - a } else { a - b }.max(0.0);
        let same = before.best.as_ref().is_some_and(|m| m.iccs == played.to_string());
        let judgement = if same { None } else { Judgement::of_loss(loss) };
        let better = judgement.and(before.best.clone());
        out.push(MoveJudgement { ply: i + 1, loss: (loss * 10.0).round() / 10.0, judgement, better });
        red_to_move = !red_to_move;
    }
    out
}

/// A review whose request was read and checked.
pub struct ReviewJob {
    start: Position,
    moves: Vec<Move>,
    per_position: Duration,
    stop: Arc<AtomicBool>,
}

impl ReviewJob {
    /// The flag that stops this review (the caller sets it when the client goes away).
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
}

/// Reads and checks a review request.
///
/// # Errors
/// A bad FEN or move.
pub fn prepare_review(req: &ReviewRequest) -> Result<ReviewJob, ApiError> {
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let positions = moves.len() as u32 + 1;
    let per_position = req
        .movetime_ms
        .map_or(DEFAULT_REVIEW_PER_POSITION, Duration::from_millis)
        .clamp(Duration::from_millis(20), MAX_REVIEW_PER_POSITION)
        .min(MAX_REVIEW / positions);
    Ok(ReviewJob { start, moves, per_position, stop: Arc::default() })
}

/// Scores every position of `job`'s game in turn, calling `on_position` with each, then judges
/// every move. Stops, returning `None`, as soon as `on_position` returns `false` or the job's
/// stop flag is set.
pub fn review(
    job: &ReviewJob,
    engine: &mut Engine,
    mut on_position: impl FnMut(&PositionScore) -> bool,
) -> Option<Vec<MoveJudgement>> {
    engine.set_stop_handle(job.stop_handle());
    let cancelled = || job.stop.load(Ordering::Relaxed);
    let mut scores = Vec::with_capacity(job.moves.len() + 1);
    let mut pos = job.start.clone();
    let mut history = Vec::with_capacity(job.moves.len());
    for ply in 0..=job.moves.len() {
        if cancelled() {
            return None;
        }
        let info = engine.search(&pos, &history, &Limits::time(job.per_position), |_| {});
        let score = PositionScore {
            ply,
            eval: Eval::red(info.score, pos.turn()),
            best: info.best.map(|m| MoveView::new(&pos, m)),
        };
        if !on_position(&score) {
            return None;
        }
        scores.push(score);
        if let Some(&m) = job.moves.get(ply) {
            history.push(Played { hash: pos.hash(), mv: m });
            pos.play_unchecked(m);
        }
    }
    Some(judge(&scores, &job.moves, &job.start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: usize, cp: i32, best: Option<&str>) -> PositionScore {
        let best = best.map(|b| MoveView { iccs: b.into(), ..MoveView::default() });
        PositionScore { ply, eval: Eval { cp, mate: None }, best }
    }

    #[test]
    fn judges_by_the_winning_chances_the_mover_gives_away() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"].iter().map(|m| m.parse().unwrap()).collect();
        // Red keeps its edge; Black's reply throws away 600 centipawns; Red's best move is no mistake.
        let scores = [at(0, 20, Some("h2e2")), at(1, 30, Some("b9c7")), at(2, 630, Some("h0g2")), at(3, 600, None)];
        let verdicts = judge(&scores, &moves, &start);
        assert_eq!(verdicts.len(), 3);
        assert_eq!(verdicts[0].judgement, None);
        assert_eq!(verdicts[1].judgement, Some(Judgement::Blunder));
        assert_eq!(verdicts[1].better.as_ref().unwrap().iccs, "b9c7");
        assert_eq!(verdicts[2].judgement, None, "the engine's own move");
        assert_eq!(Judgement::of_loss(12.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(25.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(5.0), None);
    }

    #[test]
    fn scores_are_from_reds_side() {
        let pos: Position = "5k3/9/9/9/9/9/9/9/9/3RK4 b - - 0 1".parse().unwrap();
        let info = Engine::new(1).search(&pos, &[], &Limits::depth(2), |_| {});
        let e = Eval::red(info.score, pos.turn());
        assert!(e.cp > 300, "Black alone against a rook: Red is far ahead ({})", e.cp);
        assert!(e.win_percent() > 50.0);
        // Black already mated: "mate 0", and Red's chances are 100%.
        let mated: Position = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1".parse().unwrap();
        let info = Engine::new(1).search(&mated, &[], &Limits::depth(2), |_| {});
        assert_eq!(Eval::red(info.score, mated.turn()).win_percent(), 100.0);
        assert_eq!(Eval { cp: 0, mate: Some(-3) }.win_percent(), 0.0);
    }
}
