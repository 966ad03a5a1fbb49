//! One endgame of the 残局 track: a classic position of endgame theory the player, the side to
//! move, must win or hold against the engine.

use xiangqi::Position;

/// What the player must reach from an endgame's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Win: mate, stalemate or a ruling against the opponent, before the move limit.
    Win,
    /// Hold: a draw (or better) against the side with more.
    Draw,
}

impl Goal {
    /// The name in files and JSON: `win` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Draw => "draw",
        }
    }

    /// The goal named `name`.
    pub fn from_name(name: &str) -> Option<Goal> {
        match name {
            "win" => Some(Goal::Win),
            "draw" => Some(Goal::Draw),
            _ => None,
        }
    }
}

/// An endgame: a position, how hard, what to reach, the theory's name and where it is described.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// A short stable name in lowercase words and dashes (`rook-two-advisors`), used in links.
    pub id: String,
    /// 1 (basic) to 5 (hard).
    pub grade: u8,
    /// The position; the player is the side to move.
    pub position: Position,
    /// Win or hold.
    pub goal: Goal,
    /// The theory's name in Chinese (`单车胜双士`).
    pub name_zh: String,
    /// The theory's name in English (`rook beats two advisors`).
    pub name_en: String,
    /// The published page that describes this class of endgame.
    pub source: String,
}

#[cfg(test)]
mod tests {
    use super::Goal;

    #[test]
    fn goals_round_trip() {
        for goal in [Goal::Win, Goal::Draw] {
            assert_eq!(Goal::from_name(goal.name()), Some(goal));
        }
        assert_eq!(Goal::from_name("mate"), None);
    }
}
