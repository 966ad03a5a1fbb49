//! A game's result as the explorer counts it.

/// Who won a game of a collection, where the collection says (or the rules decide).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won.
    RedWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
    /// Not known: the record gives none (`*`) and the game does not end on the board.
    Unknown,
}

impl GameResult {
    /// Reads a PGN result (`1-0`, `1/2-1/2`, `0-1`); anything else is [`GameResult::Unknown`].
    pub fn from_pgn(text: &str) -> GameResult {
        match text.trim() {
            "1-0" => GameResult::RedWins,
            "1/2-1/2" => GameResult::Draw,
            "0-1" => GameResult::BlackWins,
            _ => GameResult::Unknown,
        }
    }

    /// The PGN result: `1-0`, `1/2-1/2`, `0-1`, or `*` when unknown.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
            GameResult::Unknown => "*",
        }
    }

    pub(crate) fn byte(self) -> u8 {
        match self {
            GameResult::Unknown => 0,
            GameResult::RedWins => 1,
            GameResult::Draw => 2,
            GameResult::BlackWins => 3,
        }
    }

    pub(crate) fn from_byte(b: u8) -> GameResult {
        match b {
            1 => GameResult::RedWins,
            2 => GameResult::Draw,
            3 => GameResult::BlackWins,
            _ => GameResult::Unknown,
        }
    }
}
