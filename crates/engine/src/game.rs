//! The game before the searched position, as the search needs it for the repetition rules:
//! each earlier position's hash (to find a repetition fast) and the move played from it (to
//! judge the cycle by the Asian rules: perpetual check and perpetual chase lose).

use xiangqi::{Move, Position};

/// One earlier position of the game and the move played from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// [`Position::hash`] of the position before the move.
    pub hash: u64,
    /// The move played from that position.
    pub mv: Move,
}

/// Plays legal `moves` from `start`: the final position and the history the search takes.
///
/// The moves must be legal in turn (as for [`Position::play_unchecked`]); callers that read
/// moves from a user check them first.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::replay;
/// let moves = ["h2e2", "h9g7"].map(|m| m.parse().unwrap());
/// let (pos, history) = replay(&Position::startpos(), &moves);
/// assert_eq!(history.len(), 2);
/// assert_eq!(history[0].hash, Position::startpos().hash());
/// assert_eq!(pos.fullmoves(), 2);
/// ```
pub fn replay(start: &Position, moves: &[Move]) -> (Position, Vec<Played>) {
    let mut pos = start.clone();
    let mut history = Vec::with_capacity(moves.len());
    for &mv in moves {
        history.push(Played { hash: pos.hash(), mv });
        pos.play_unchecked(mv);
    }
    (pos, history)
}
