//! Standing offers in a room: each is the colour that made it, or nothing.

use xiangqi::Color;

/// Who offers what. An offer stands until it is answered, or until a move makes it moot (a
/// move by the side offered a draw declines it; any move ends a takeback request).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// The side offering a draw.
    pub draw: Option<Color>,
    /// The side asking to take its last move back.
    pub takeback: Option<Color>,
    /// The side asking for a rematch (after the end).
    pub rematch: Option<Color>,
}
