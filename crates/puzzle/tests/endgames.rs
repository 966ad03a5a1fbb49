//! The shipped endgame track (data/endgames.tsv) read back, and every position checked by the
//! engine: a search with a fixed node budget (not timed) must not contradict the goal. A win
//! scores clearly winning for the player; a draw is not lost (no mate against the player, and
//! not hopelessly behind).

use xiangqi_engine::{Engine, Limits};
use xiangqi_puzzle::{endgames, Goal};

/// Nodes for each position's check (deterministic on one thread).
const NODES: u64 = 150_000;
/// A win must score at least this, in centipawns for the player.
const CLEARLY_WINNING: i32 = 200;
/// A draw may score no worse than this (material down is normal; a lost position is not).
const NOT_LOST: i32 = -500;

#[test]
fn the_track_reads_back_with_enough_positions_over_five_grades() {
    let track = endgames::shipped();
    assert!(track.len() >= 30, "{} endgames", track.len());
    for grade in 1..=endgames::MAX_GRADE {
        assert!(track.iter().any(|e| e.grade == grade), "grade {grade} has a position");
    }
    assert!(track.windows(2).all(|w| w[0].grade <= w[1].grade), "easiest first");
    assert!(track.iter().any(|e| e.goal == Goal::Draw) && track.iter().any(|e| e.goal == Goal::Win));
    assert!(track.iter().all(|e| e.position.halfmoves() == 0), "the move limit starts at the position");
}

#[test]
fn the_engine_agrees_with_every_goal() {
    let mut engine = Engine::new(16);
    for endgame in endgames::shipped() {
        engine.clear();
        let limits = Limits { nodes: Some(NODES), ..Limits::default() };
        let info = engine.search(&endgame.position, &[], &limits, |_| {});
        let score = info.lines[0].score;
        match endgame.goal {
            Goal::Win => assert!(
                score.mate_in().is_some_and(|m| m > 0) || score.centipawns() >= CLEARLY_WINNING,
                "{}: a win, but the engine scores {score:?}",
                endgame.id
            ),
            Goal::Draw => assert!(
                score.mate_in().is_none_or(|m| m >= 0) && score.centipawns() >= NOT_LOST,
                "{}: a draw to hold, but the engine scores {score:?}",
                endgame.id
            ),
        }
    }
}
