//! `Setup`: an unchecked arrangement of pieces, and the checks that turn it into a `Position`.

use crate::{Color, Piece, PieceKind, Square};
use core::fmt;

/// Any arrangement of pieces with a side to move; [`crate::Position::from_setup`] checks it.
///
/// `Setup` is the editable form: its fields are public and nothing is checked until it becomes
/// a [`crate::Position`]. Equality is structural (board, side and both counters).
///
/// ```
/// use xiangqi::{Color, Piece, PieceKind, Position, PositionError, Setup, Square};
/// let mut setup = Setup::empty();
/// let mut put = |sq: &str, color, kind| setup.board[sq.parse::<Square>().unwrap().index()] = Some(Piece::new(color, kind));
/// put("e0", Color::Red, PieceKind::King);
/// put("d9", Color::Black, PieceKind::King);
/// put("a0", Color::Red, PieceKind::Rook);
/// let pos = Position::from_setup(&setup)?;
/// assert_eq!(pos.fen(), "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
///
/// setup.board["e0".parse::<Square>().unwrap().index()] = None;
/// assert_eq!(Position::from_setup(&setup), Err(PositionError::MissingKing(Color::Red)));
/// # Ok::<(), PositionError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] (`rank * 9 + file`).
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u32,
    /// Move number, from 1.
    pub fullmoves: u32,
}

impl Setup {
    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup { board: [None; 90], turn: Color::Red, halfmoves: 0, fullmoves: 1 }
    }

    /// Checks everything that can be seen square by square; the checks that need move
    /// generation (check, facing kings) are done by `Position::from_setup`.
    pub(crate) fn validate(&self) -> Result<(), PositionError> {
        let mut counts = [[0u8; 7]; 2];
        for sq in Square::all() {
            let Some(piece) = self.board[sq.index()] else { continue };
            counts[piece.color.index()][piece.kind.index()] += 1;
            if !can_stand(piece, sq) {
                return Err(if piece.kind == PieceKind::King {
                    PositionError::KingOutsidePalace { color: piece.color, square: sq }
                } else {
                    PositionError::ImpossibleSquare { piece, square: sq }
                });
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = counts[color.index()][kind.index()];
                if kind == PieceKind::King && count == 0 {
                    return Err(PositionError::MissingKing(color));
                }
                if count > kind.initial_count() {
                    return Err(PositionError::TooMany { piece: Piece::new(color, kind), count });
                }
            }
        }
        Ok(())
    }
}

/// Whether `piece` can ever stand on `sq` in a game from the start position.
///
/// Kings and advisors stay in their palace (advisors on its five diagonal points), elephants
/// on the seven points of their own half, and pawns never stand behind their start rank and
/// keep to their five start files until they cross the river; horses, rooks and cannons can go
/// anywhere.
/// [`crate::Position::from_setup`] rejects a setup where this fails.
///
/// ```
/// use xiangqi::{can_stand, Color, Piece, PieceKind};
/// let red_elephant = Piece::new(Color::Red, PieceKind::Elephant);
/// assert!(can_stand(red_elephant, "c0".parse().unwrap()));
/// assert!(!can_stand(red_elephant, "c5".parse().unwrap())); // across the river
/// ```
pub fn can_stand(piece: Piece, sq: Square) -> bool {
    // Work from Red's side: Black's squares are Red's turned by 180 degrees.
    let sq = if piece.color == Color::Red { sq } else { sq.flip() };
    let (f, r) = (sq.file(), sq.rank());
    match piece.kind {
        PieceKind::King => sq.in_palace(Color::Red),
        PieceKind::Advisor => sq.in_palace(Color::Red) && (f + r) % 2 == 1,
        PieceKind::Elephant => r <= 4 && r % 2 == 0 && f % 2 == 0 && (f / 2 + r / 2) % 2 == 1,
        PieceKind::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

/// Why a setup is not a legal position.
///
/// [`crate::Position::from_setup`] reports the first check that fails, in this order: the
/// squares (square by square, in index order), the piece counts, then check and facing kings.
/// New checks may be added, so the enum is `#[non_exhaustive]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more pieces of a kind than the start position gives it.
    TooMany {
        /// The colour and kind of the surplus piece.
        piece: Piece,
        /// How many of it the setup has (more than [`PieceKind::initial_count`]).
        count: u8,
    },
    /// A king stands outside its palace.
    KingOutsidePalace {
        /// Whose king it is.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor, elephant or pawn stands on a square it can never reach (see [`can_stand`]).
    ImpossibleSquare {
        /// The piece that cannot stand there.
        piece: Piece,
        /// The square it stands on.
        square: Square,
    },
    /// The two kings face each other on an open file.
    FacingKings,
    /// The side that is not to move is in check: its king could be captured.
    OpponentInCheck,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooMany { piece, count } => {
                write!(f, "{} has {count} {}s, at most {} allowed", piece.color, piece.kind, piece.kind.initial_count())
            }
            PositionError::KingOutsidePalace { color, square } => {
                write!(f, "the {color} king on {square} is outside its palace")
            }
            PositionError::ImpossibleSquare { piece, square } => {
                write!(f, "a {} {} can never stand on {square}", piece.color, piece.kind)
            }
            PositionError::FacingKings => f.write_str("the kings face each other on an open file"),
            PositionError::OpponentInCheck => {
                f.write_str("the side not to move is in check (its king could be captured)")
            }
        }
    }
}

impl std::error::Error for PositionError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(kind: PieceKind) -> usize {
        Square::all().filter(|&s| can_stand(Piece::new(Color::Red, kind), s)).count()
    }

    #[test]
    fn reachable_squares() {
        assert_eq!(count(PieceKind::King), 9);
        assert_eq!(count(PieceKind::Advisor), 5);
        assert_eq!(count(PieceKind::Elephant), 7);
        assert_eq!(count(PieceKind::Pawn), 55);
        let black_elephant = Piece::new(Color::Black, PieceKind::Elephant);
        assert!(can_stand(black_elephant, "c9".parse().unwrap()));
        assert!(!can_stand(black_elephant, "c0".parse().unwrap()));
    }
}
