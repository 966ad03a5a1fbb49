//! `Position`: a board that is always a legal Xiangqi position, with incremental occupancy
//! words (bit ranks and bit files) and a Zobrist key.

use crate::setup::{PositionError, Setup};
use crate::zobrist;
use crate::{Color, Move, Piece, PieceKind, Square};

/// A legal position: each side has one king in its palace, no piece stands where it could
/// never go, no side has more pieces of a kind than the start position gives it, and the
/// side that just moved is not in check.
///
/// Build one from FEN, from [`Position::startpos`] or from a checked [`Setup`].
///
/// `==` compares everything: the board, the side to move and both move counters. Two
/// positions that count as the same for repetition differ only in their counters; compare
/// [`Position::hash`] for that.
///
/// ```
/// use xiangqi::Position;
/// let pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 44);
/// let mut pos: Position = "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1".parse().unwrap();
/// pos.play("e0f0".parse().unwrap()).unwrap();
/// assert_eq!(pos.fen(), "4k4/9/9/9/9/9/9/9/4A4/3A1K3 b - - 1 1");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Piece codes ([`Piece::code`]), 0 for empty.
    pub(crate) board: [u8; 90],
    /// Occupancy of rank `r` in `ranks[r + 1]`, bit `f` for file `f`; `ranks[0]` and
    /// `ranks[11]` stay empty so that a square's diagonal neighbours can always be read.
    pub(crate) ranks: [u16; 12],
    /// Occupancy of file `f`, bit `r` for rank `r`.
    pub(crate) files: [u16; 9],
    /// Occupancy per colour, bit `s` for square `s`.
    pub(crate) by_color: [u128; 2],
    /// Occupancy per piece code, bit `s` for square `s` (index 0 unused).
    pub(crate) by_piece: [u128; 15],
    pub(crate) kings: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

/// What [`Position::play_unchecked`] returns so the move can be taken back with
/// [`Position::undo`]: the captured piece and the halfmove clock before the move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    halfmoves: u32,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// A move that is not legal in the position it was played in ([`Position::play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move that was refused.
    pub mv: Move,
}

impl core::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "illegal move {}", self.mv)
    }
}

impl std::error::Error for IllegalMoveError {}

pub(crate) const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        START_FEN.parse().expect("the start position is legal")
    }

    /// Checks a setup and builds the position.
    ///
    /// A move number of 0 is read as 1.
    ///
    /// # Errors
    ///
    /// The first [`PositionError`] found: a missing king, too many pieces of a kind, a piece on
    /// a square it can never reach, facing kings, or the side not to move in check.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        setup.validate()?;
        let mut pos = Position {
            board: [0; 90],
            ranks: [0; 12],
            files: [0; 9],
            by_color: [0; 2],
            by_piece: [0; 15],
            kings: [0; 2],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            hash: 0,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.put(sq.index(), p.code());
                if p.kind == PieceKind::King {
                    pos.kings[p.color.index()] = sq.index() as u8;
                }
            }
        }
        if setup.turn == Color::Black {
            pos.hash ^= zobrist::BLACK_TO_MOVE;
        }
        if pos.king_attacked(setup.turn.other()) {
            return Err(if pos.kings_face() { PositionError::FacingKings } else { PositionError::OpponentInCheck });
        }
        Ok(pos)
    }

    /// The position as a [`Setup`] (for editing); [`Position::from_setup`] turns it back.
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 90];
        for (i, &c) in self.board.iter().enumerate() {
            board[i] = Piece::from_code(c);
        }
        Setup { board, turn: self.turn, halfmoves: self.halfmoves, fullmoves: self.fullmoves }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The whole board as piece codes, indexed by [`Square::index`]: 0 for an empty square,
    /// otherwise [`Piece::code`]. For code that scans every square (a link model, an
    /// evaluation) without one call per square.
    ///
    /// ```
    /// use xiangqi::{Piece, Position, Square};
    /// let pos = Position::startpos();
    /// let e0: Square = "e0".parse().unwrap();
    /// assert_eq!(Piece::from_code(pos.piece_codes()[e0.index()]), pos.piece_at(e0));
    /// assert_eq!(pos.piece_codes()["e5".parse::<Square>().unwrap().index()], 0);
    /// ```
    #[inline]
    pub fn piece_codes(&self) -> &[u8; 90] {
        &self.board
    }

    /// Where `color`'s king stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.kings[color.index()])
    }

    /// All pieces with their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.by_color[0] | self.by_color[1];
        core::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let s = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let sq = Square::from_index_unchecked(s);
            self.piece_at(sq).map(|p| (sq, p))
        })
    }

    /// The Zobrist key of the board and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and counting up after each Black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether the side to move is in check (its king could be captured, or the kings face
    /// each other on an open file).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.king_attacked(self.turn)
    }

    /// Whether `m` captures a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    /// Plays a legal move; an illegal one leaves the position unchanged and is an error.
    ///
    /// This checks legality first; a move taken from [`Position::legal_moves`] can go to the
    /// faster [`Position::play_unchecked`] instead, which can also be taken back.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] when `m` is not legal here.
    ///
    /// ```
    /// use xiangqi::{IllegalMoveError, Move, Position};
    /// let mut pos = Position::startpos();
    /// let m: Move = "h2h8".parse().unwrap(); // the black cannon on h7 is in the way
    /// assert_eq!(pos.play(m), Err(IllegalMoveError { mv: m }));
    /// assert_eq!(pos, Position::startpos());
    /// ```
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError { mv: m })
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]); returns what
    /// [`Position::undo`] needs. Playing an illegal move may leave an invalid position, on
    /// which later calls give meaningless answers (no undefined behaviour: nothing is unsafe).
    ///
    /// ```
    /// use xiangqi::{Color, Piece, PieceKind, Position};
    /// let mut pos = Position::startpos();
    /// // The cannon jumps the black cannon on h7 and takes the horse.
    /// let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == "h2h9").unwrap();
    /// let undo = pos.play_unchecked(m);
    /// assert_eq!(undo.captured(), Some(Piece::new(Color::Black, PieceKind::Horse)));
    /// pos.undo(m, undo);
    /// assert_eq!(pos, Position::startpos());
    /// ```
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from().index(), m.to().index());
        let piece = self.board[from];
        let captured = self.board[to];
        let undo = Undo { captured, halfmoves: self.halfmoves };
        if captured != 0 {
            self.remove(to, captured);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.remove(from, piece);
        self.put(to, piece);
        if piece == Piece::new(self.turn, PieceKind::King).code() {
            self.kings[self.turn.index()] = to as u8;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        undo
    }

    /// Takes back `m`, which [`Position::play_unchecked`] played and answered with `undo`.
    ///
    /// Moves must be taken back in the reverse order they were played; anything else leaves
    /// an invalid position.
    #[inline]
    pub fn undo(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from().index(), m.to().index());
        self.turn = self.turn.other();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        let piece = self.board[to];
        self.remove(to, piece);
        self.put(from, piece);
        if undo.captured != 0 {
            self.put(to, undo.captured);
        }
        if piece == Piece::new(self.turn, PieceKind::King).code() {
            self.kings[self.turn.index()] = from as u8;
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Passes the turn without moving (for search and analysis). The caller must make sure the
    /// side to move is not in check, or the result is not a legal position.
    pub fn swap_turn_unchecked(&mut self) {
        self.turn = self.turn.other();
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    #[inline]
    fn put(&mut self, s: usize, code: u8) {
        let (f, r) = (s % 9, s / 9);
        self.board[s] = code;
        self.ranks[r + 1] |= 1 << f;
        self.files[f] |= 1 << r;
        self.by_color[(code > 7) as usize] |= 1u128 << s;
        self.by_piece[code as usize] |= 1u128 << s;
        self.hash ^= zobrist::PIECE_SQUARE[code as usize][s];
    }

    #[inline]
    fn remove(&mut self, s: usize, code: u8) {
        let (f, r) = (s % 9, s / 9);
        self.board[s] = 0;
        self.ranks[r + 1] &= !(1 << f);
        self.files[f] &= !(1 << r);
        self.by_color[(code > 7) as usize] &= !(1u128 << s);
        self.by_piece[code as usize] &= !(1u128 << s);
        self.hash ^= zobrist::PIECE_SQUARE[code as usize][s];
    }

    /// Whether the two kings stand on one file with nothing between them (never in a legal
    /// position; a position changed by [`Position::play_unchecked`] may show it).
    pub fn kings_face(&self) -> bool {
        let (r, b) = (self.kings[0] as usize, self.kings[1] as usize);
        if r % 9 != b % 9 {
            return false;
        }
        let between = self.files[r % 9] & ((1 << (b / 9)) - 1) & !((2 << (r / 9)) - 1);
        between == 0
    }
}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl core::fmt::Display for Position {
    /// A text diagram, Black at the top, followed by the FEN.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on the board");
                let c = self.piece_at(sq).map_or('.', Piece::fen_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{}", self.fen())
    }
}
