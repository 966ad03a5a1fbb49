//! The net's input features: a piece of one of 14 kinds (7 of the side whose view it is, then
//! 7 of the other side) on one of 90 squares, from that side's view. For Black the board is
//! turned round (square `i` becomes `89 - i`), so both sides see their own pieces at the bottom.

use xiangqi::{Color, Piece};

/// The number of input features from one side's view: 14 piece kinds on 90 squares.
pub const FEATURES: usize = 14 * 90;

/// The feature of `piece` on the square with index `square` (`rank * 9 + file`), from
/// `view`'s side.
///
/// ```
/// use xiangqi::{Color, Piece, PieceKind};
/// use xiangqi_engine::nnue::features::feature;
/// // Red's king on e0 seen by Red is Black's king on e9 seen by Black.
/// let red_king = Piece::new(Color::Red, PieceKind::King);
/// let black_king = Piece::new(Color::Black, PieceKind::King);
/// assert_eq!(feature(Color::Red, 4, red_king), feature(Color::Black, 85, black_king));
/// ```
#[inline]
pub fn feature(view: Color, square: usize, piece: Piece) -> usize {
    feature_of_code(view, square, piece.code())
}

/// [`feature`] for a piece code ([`Piece::code`], 1..=14), as the board stores pieces: the one
/// formula, used by the search's accumulator and by the trainer.
#[inline]
pub fn feature_of_code(view: Color, square: usize, code: u8) -> usize {
    // Codes: Red 1..=7, Black 8..=14, each by kind.
    let c = (code - 1) as usize;
    let (color_black, kind) = (c >= 7, c % 7);
    let own = color_black == (view == Color::Black);
    let kind = kind + if own { 0 } else { 7 };
    let square = if view == Color::Red { square } else { 89 - square };
    kind * 90 + square
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::PieceKind;

    #[test]
    fn codes_and_pieces_give_the_same_feature() {
        for code in 1..=14u8 {
            let piece = Piece::from_code(code).unwrap();
            for view in Color::ALL {
                for sq in [0, 4, 44, 89] {
                    assert_eq!(feature_of_code(view, sq, code), feature(view, sq, piece));
                }
            }
        }
    }

    #[test]
    fn features_are_in_range_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for kind in PieceKind::ALL {
            for color in Color::ALL {
                for sq in 0..90 {
                    let f = feature(Color::Black, sq, Piece::new(color, kind));
                    assert!(f < FEATURES);
                    assert!(seen.insert(f));
                }
            }
        }
    }
}
