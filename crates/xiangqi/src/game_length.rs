//! The one limit on the length of a game, applied wherever a game enters: share links (decode
//! and encode), PGN, the web API and the command line.

use core::fmt;

/// The most plies a game may have.
///
/// Every game the default rules let go on fits: 30 pieces can be captured, and at most 120
/// plies pass between two captures before the move limit draws the game
/// ([`crate::outcome::Rules::move_limit`]), so no game reaches 31 × 120 = 3,720 plies.
/// Real games have 14 to 400.
///
/// ```
/// use xiangqi::{check_game_length, GameTooLong, MAX_GAME_PLIES};
/// assert!(check_game_length(MAX_GAME_PLIES).is_ok());
/// assert_eq!(check_game_length(MAX_GAME_PLIES + 1), Err(GameTooLong));
/// ```
pub const MAX_GAME_PLIES: usize = 4000;

/// A game longer than [`MAX_GAME_PLIES`]; every reader and writer reports it with this message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTooLong;

impl fmt::Display for GameTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the game is longer than {MAX_GAME_PLIES} plies, the limit")
    }
}

impl std::error::Error for GameTooLong {}

/// `Ok` when a game of `plies` plies is within [`MAX_GAME_PLIES`].
///
/// # Errors
/// [`GameTooLong`] past the limit.
pub fn check_game_length(plies: usize) -> Result<(), GameTooLong> {
    if plies > MAX_GAME_PLIES {
        Err(GameTooLong)
    } else {
        Ok(())
    }
}
