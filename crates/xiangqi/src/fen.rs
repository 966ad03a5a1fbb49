//! FEN: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Rows run from rank 9 (Black's back rank) down to rank 0; upper case is Red. The side is
//! `w` or `r` for Red and `b` for Black; `H`/`E` are read as horse/elephant. Missing trailing
//! fields take their defaults (Red to move, `- - 0 1`).

use crate::setup::{PositionError, Setup};
use crate::Excerpt;
use crate::{Color, Piece, Position, Square};
use core::fmt;
use core::str::FromStr;

/// Why a FEN was rejected. Rows are counted from 1 at the top (rank 9), as written.
///
/// The message names the field and, for the board, the row and its rank:
///
/// ```
/// use xiangqi::{FenError, Position};
/// let err = "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".parse::<Position>().unwrap_err();
/// assert_eq!(err, FenError::BadChar { row: 4, ch: 'x' });
/// assert_eq!(err.to_string(), "row 4 (rank 6): unknown piece 'x'");
/// ```
///
/// More checks may come, so the enum is `#[non_exhaustive]`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The board field does not have ten rows.
    RowCount {
        /// How many `/`-separated rows it has.
        found: usize,
    },
    /// A row does not describe exactly nine points.
    RowLength {
        /// The row, 1 (rank 9) to 10 (rank 0).
        row: usize,
        /// How many points it describes (digits count as that many, letters as one).
        points: usize,
    },
    /// A character in the board field is neither a piece letter nor a digit 1-9.
    BadChar {
        /// The row, 1 (rank 9) to 10 (rank 0).
        row: usize,
        /// The character.
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    BadTurn {
        /// The field as written.
        found: String,
    },
    /// A move counter is not a number (or the move number is 0).
    BadCounter {
        /// Which counter: `"halfmove clock"` or `"move number"`.
        field: &'static str,
        /// The field as written.
        found: String,
    },
    /// More than six fields.
    TooManyFields,
    /// The board is readable but not a legal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::RowCount { found } => write!(f, "the board has {found} rows, expected 10"),
            FenError::RowLength { row, points } => {
                write!(f, "row {row} (rank {}) has {points} points, expected 9", 10 - row)
            }
            FenError::BadChar { row, ch } => write!(f, "row {row} (rank {}): unknown piece {ch:?}", 10 - row),
            FenError::BadTurn { found } => write!(f, "side to move {} is not w, r or b", Excerpt(found)),
            FenError::BadCounter { field, found } => write!(f, "{field} {} is not a valid number", Excerpt(found)),
            FenError::TooManyFields => f.write_str("too many fields (at most 6)"),
            FenError::Position(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Position(e)
    }
}

impl FromStr for Setup {
    type Err = FenError;

    /// Reads a FEN without checking that the position is legal (so never
    /// [`FenError::Position`]); [`Position::from_setup`] does the checks.
    fn from_str(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::RowCount { found: rows.len() });
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(ch) {
                    if let Some(sq) = Square::new(file as u8, rank).filter(|_| file < 9) {
                        setup.board[sq.index()] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadChar { row: i + 1, ch });
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                let points = row.chars().map(|c| c.to_digit(10).unwrap_or(1) as usize).sum();
                return Err(FenError::RowLength { row: i + 1, points });
            }
        }
        let rest: Vec<&str> = fields.collect();
        if let Some(turn) = rest.first() {
            setup.turn = match *turn {
                "w" | "r" | "W" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => return Err(FenError::BadTurn { found: other.to_string() }),
            };
        }
        // Some writers leave out the two '-' fields and give the counters right away.
        let counters: &[&str] = match rest.len() {
            0..=1 => &[],
            3 if rest[1].parse::<u32>().is_ok() => &rest[1..],
            2..=5 => &rest[3.min(rest.len())..],
            _ => return Err(FenError::TooManyFields),
        };
        if let Some(h) = counters.first() {
            setup.halfmoves =
                h.parse().map_err(|_| FenError::BadCounter { field: "halfmove clock", found: h.to_string() })?;
        }
        if let Some(m) = counters.get(1) {
            setup.fullmoves = m
                .parse()
                .ok()
                .filter(|&n: &u32| n > 0)
                .ok_or_else(|| FenError::BadCounter { field: "move number", found: m.to_string() })?;
        }
        Ok(setup)
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Parses a FEN and checks the position.
    fn from_str(fen: &str) -> Result<Position, FenError> {
        let setup: Setup = fen.parse()?;
        Ok(Position::from_setup(&setup)?)
    }
}

impl Position {
    /// Parses a FEN and checks the position; same as `fen.parse()`.
    ///
    /// The side to move may be `w`, `r` or `b`, the two `-` fields may be left out, and
    /// missing trailing fields take their defaults (Red to move, counters 0 and 1).
    ///
    /// # Errors
    ///
    /// A [`FenError`] naming the field (and row) that does not read, or
    /// [`FenError::Position`] when the board reads but is not a legal position.
    ///
    /// ```
    /// use xiangqi::{FenError, Position, PositionError};
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R b")?;
    /// assert_eq!(pos.fen(), "3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1");
    /// assert_eq!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"), Err(FenError::Position(PositionError::FacingKings)));
    /// # Ok::<(), FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        fen.parse()
    }

    /// The FEN of this position (`w`/`b`, the two `-` fields and both counters).
    pub fn fen(&self) -> String {
        self.to_setup().fen()
    }
}

impl Setup {
    /// The FEN of this setup, in the same form as [`Position::fen`]. A setup whose move number
    /// is at least 1 reads back from its FEN unchanged, legal or not.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on the board");
                match self.board[sq.index()] {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let turn = if self.turn == Color::Red { 'w' } else { 'b' };
        format!("{s} {turn} - - {} {}", self.halfmoves, self.fullmoves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PieceKind;

    fn err(fen: &str) -> FenError {
        fen.parse::<Position>().unwrap_err()
    }

    #[test]
    fn start_round_trips() {
        let start = crate::position::START_FEN;
        assert_eq!(Position::from_fen(start).unwrap().fen(), start);
        let short: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR".parse().unwrap();
        assert_eq!(short.fen(), start);
        let he: Position = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r".parse().unwrap();
        assert_eq!(he.fen(), start);
        let b: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7".parse().unwrap();
        assert_eq!(b.turn(), Color::Black);
        assert_eq!((b.halfmoves(), b.fullmoves()), (3, 7));
        let counters_only: Position = "3k5/9/9/9/9/9/9/9/9/4K3R b 5 9".parse().unwrap();
        assert_eq!((counters_only.halfmoves(), counters_only.fullmoves()), (5, 9));
    }

    #[test]
    fn precise_errors() {
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("9/9/9"), FenError::RowCount { found: 3 });
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            FenError::RowLength { row: 10, points: 8 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
            FenError::RowLength { row: 10, points: 10 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::BadChar { row: 4, ch: 'x' }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            FenError::BadTurn { found: "x".into() }
        );
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - a 1"),
            FenError::BadCounter { .. }
        ));
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0"),
            FenError::BadCounter { .. }
        ));
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 x"),
            FenError::TooManyFields
        );
    }

    #[test]
    fn illegal_positions() {
        use PositionError::*;
        let red = |k| Piece::new(Color::Red, k);
        assert_eq!(err("9/9/9/9/9/9/9/9/9/4K4 w"), FenError::Position(MissingKing(Color::Black)));
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/4KK3 w"),
            FenError::Position(TooMany { piece: red(PieceKind::King), count: 2 })
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/K8 w"),
            FenError::Position(KingOutsidePalace { color: Color::Red, square: "a0".parse().unwrap() })
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/3KA4 w"),
            FenError::Position(ImpossibleSquare { piece: red(PieceKind::Advisor), square: "e0".parse().unwrap() })
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/P8/4K4 w"),
            FenError::Position(ImpossibleSquare { piece: red(PieceKind::Pawn), square: "a1".parse().unwrap() })
        );
        assert_eq!(
            err("3k5/9/9/9/9/9/4B4/9/9/4K4 w"),
            FenError::Position(ImpossibleSquare { piece: red(PieceKind::Elephant), square: "e3".parse().unwrap() })
        );
        assert!("3k5/9/9/9/9/9/9/4B4/9/4K4 w".parse::<Position>().is_ok());
        assert_eq!(
            err("3k5/9/9/9/9/9/9/9/9/RRR1K4 w"),
            FenError::Position(TooMany { piece: red(PieceKind::Rook), count: 3 })
        );
        assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::Position(FacingKings));
        // Red to move, but Black's king is attacked by the red rook: Black moved into check.
        assert_eq!(err("3k5/9/9/9/9/9/9/9/9/3RK4 w"), FenError::Position(OpponentInCheck));
        // Black to move and in check is fine.
        assert!("3k5/9/9/9/9/9/9/9/9/3RK4 b".parse::<Position>().is_ok());
    }
}
