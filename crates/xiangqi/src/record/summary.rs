//! One line about a game, for the list of a collection's games.

use super::parse_result;
use crate::pgn::PgnGame;

/// What a list of games shows about each one: players, event, date, result, length.
///
/// ```
/// let game = &xiangqi::pgn::read_games("[Red \"胡荣华\"]\n[Event \"全国赛\"]\n1. h2e2 h9g7 1-0")[0];
/// let s = xiangqi::record::Summary::of(game.as_ref().unwrap());
/// assert_eq!((s.red.as_str(), s.black.as_str(), s.result, s.moves), ("胡荣华", "", "1-0", 2));
/// assert!(s.matches("全国") && !s.matches("柳大华"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The red player (the `Red` header), empty when the record names none.
    pub red: String,
    /// The black player (`Black`).
    pub black: String,
    /// The event (`Event`).
    pub event: String,
    /// The date (`Date`), as the record writes it.
    pub date: String,
    /// The result as a PGN marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// Plies in the main line.
    pub moves: usize,
}

impl Summary {
    /// The summary of `game`.
    pub fn of(game: &PgnGame) -> Summary {
        let tag = |k: &str| game.tag(k).unwrap_or_default().trim().to_string();
        Summary {
            red: tag("Red"),
            black: tag("Black"),
            event: tag("Event"),
            date: tag("Date"),
            result: result_marker(game),
            moves: game.line.moves.len(),
        }
    }

    /// Whether `filter` is found in a player's name or the event, ignoring case; an empty
    /// filter matches every game.
    pub fn matches(&self, filter: &str) -> bool {
        let filter = filter.trim().to_lowercase();
        [&self.red, &self.black, &self.event].iter().any(|f| f.to_lowercase().contains(&filter))
    }
}

/// The result of `game` as a PGN marker, from its result or its `Result` header, in whatever
/// form they were written (`*` when neither reads).
pub fn result_marker(game: &PgnGame) -> &'static str {
    game.result.as_deref().or_else(|| game.tag("Result")).and_then(parse_result).unwrap_or("*")
}
