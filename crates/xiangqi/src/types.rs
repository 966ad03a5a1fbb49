//! The small value types: colours, piece kinds, pieces, squares and moves.

use core::fmt;
use core::ops::Not;
use core::str::FromStr;

/// A side: Red moves first and sits at ranks 0-4, Black at ranks 5-9.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// The side that moves first, written in upper case in FEN and `w` (or `r`) as the side to move.
    Red = 0,
    /// The side that moves second, written in lower case in FEN and `b` as the side to move.
    Black = 1,
}

impl Color {
    /// Both colours, Red first (in [`Color::index`] order).
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: an index into per-colour tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether `rank` lies on this side's half of the board.
    #[inline]
    pub const fn owns_rank(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }

    /// The side's name in lower case (`"red"`, `"black"`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The side a [`Color::name`] names (`"red"`, `"black"`, exactly); `None` for anything else.
    ///
    /// ```
    /// use xiangqi::Color;
    /// assert_eq!(Color::from_name("black"), Some(Color::Black));
    /// assert_eq!(Color::from_name(Color::Red.name()), Some(Color::Red));
    /// assert_eq!(Color::from_name("Red"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum PieceKind {
    /// The king (帅/将, FEN `K`): one step orthogonally, inside its palace; the two kings may
    /// not face each other on an open file.
    King = 0,
    /// The advisor (仕/士, FEN `A`): one step diagonally, inside its palace.
    Advisor = 1,
    /// The elephant (相/象, FEN `B`, also read as `E`): two steps diagonally on its own half,
    /// blocked by a piece on the point between ("the elephant's eye").
    Elephant = 2,
    /// The horse (马, FEN `N`, also read as `H`): one step orthogonally then one diagonally
    /// outwards, blocked by a piece on the first point ("the horse's leg").
    Horse = 3,
    /// The rook (车, FEN `R`): any distance orthogonally.
    Rook = 4,
    /// The cannon (炮, FEN `C`): moves like a rook, captures by jumping exactly one piece.
    Cannon = 5,
    /// The pawn (兵/卒, FEN `P`): one step forwards; once across the river also sideways.
    Pawn = 6,
}

impl PieceKind {
    /// The seven kinds in [`PieceKind::index`] order, king first.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// 0 (king) to 6 (pawn), the order of [`PieceKind::ALL`]: an index into per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The inverse of [`PieceKind::index`]; `None` for 7 and above.
    ///
    /// ```
    /// use xiangqi::PieceKind;
    /// assert_eq!(PieceKind::from_index(PieceKind::Cannon.index()), Some(PieceKind::Cannon));
    /// assert_eq!(PieceKind::from_index(7), None);
    /// ```
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 7 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// Whether this kind can cross the river and so help to mate: rook, horse, cannon, pawn
    /// (the king, advisors and elephants stay home). A side without any cannot win.
    ///
    /// ```
    /// use xiangqi::PieceKind;
    /// assert!(PieceKind::Pawn.is_attacking());
    /// assert!(!PieceKind::Elephant.is_attacking());
    /// ```
    #[inline]
    pub const fn is_attacking(self) -> bool {
        matches!(self, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn)
    }

    /// How many of this kind each side has in the start position.
    pub const fn initial_count(self) -> u8 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter, upper case (K A B N R C P).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `H` and `E` are accepted for horse and elephant.
    pub const fn from_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// The English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a kind and a colour.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of this colour and kind.
    ///
    /// ```
    /// use xiangqi::{Color, Piece, PieceKind};
    /// assert_eq!(Piece::new(Color::Black, PieceKind::Horse).fen_char(), 'n');
    /// ```
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// A dense code 1..=14 (0 is kept for an empty square): Red 1..=7, Black 8..=14.
    #[inline]
    pub const fn code(self) -> u8 {
        1 + self.color as u8 * 7 + self.kind as u8
    }

    /// The inverse of [`Piece::code`].
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 14 {
            return None;
        }
        let c = code - 1;
        let color = if c < 7 { Color::Red } else { Color::Black };
        match PieceKind::from_index((c % 7) as usize) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter; the case gives the colour.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece { color: if c.is_ascii_uppercase() { Color::Red } else { Color::Black }, kind }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// One of the 90 points of the board, `rank * 9 + file`.
///
/// Files run a..i (0..8) from left to right as Red sees the board; rank 0 is Red's back rank
/// and rank 9 Black's. This is the ICCS convention: Red's king starts on `e0`.
///
/// ```
/// use xiangqi::Square;
/// let sq: Square = "e0".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (4, 0));
/// assert_eq!(sq.flip().to_string(), "e9");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The number of squares (points) on the board: 9 files times 10 ranks.
    pub const COUNT: usize = 90;

    /// The square at `file` (0..9) and `rank` (0..10).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with this index (0..90).
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// `index` must be below 90 (checked in debug builds).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// `rank * 9 + file`, always below [`Square::COUNT`]: an index into per-square tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`, Red's left) to 8 (`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square after turning the board by 180 degrees.
    #[inline]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// The square mirrored left to right.
    #[inline]
    pub const fn mirror(self) -> Square {
        Square(self.rank() * 9 + 8 - self.file())
    }

    /// Whether the square is inside `color`'s palace (files d-f, three back ranks).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let (f, r) = (self.file(), self.rank());
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Iterates over all 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Why a square name did not parse: it is not a file `a`-`i` followed by a rank `0`-`9`.
///
/// ```
/// use xiangqi::Square;
/// let err = "j2".parse::<Square>().unwrap_err();
/// assert_eq!(err.to_string(), "\"j2\" is not a square (a file a-i followed by a rank 0-9)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    text: String,
}

impl ParseSquareError {
    /// The text that did not parse.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a square (a file a-i followed by a rank 0-9)", self.text)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    /// Reads `e0` (or `E0`).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f, r] if (b'a'..=b'i').contains(&f.to_ascii_lowercase()) && r.is_ascii_digit() => {
                Ok(Square((r - b'0') * 9 + (f.to_ascii_lowercase() - b'a')))
            }
            _ => Err(ParseSquareError { text: s.to_string() }),
        }
    }
}

/// A move from one square to another, packed into 16 bits (7 bits each).
///
/// The move itself carries no piece: a [`crate::Position`] gives it meaning.
/// Its text form is ICCS: `h2e2`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`. Any two squares make a `Move`; whether it is legal is
    /// for a [`crate::Position`] to say.
    ///
    /// ```
    /// use xiangqi::{Move, Square};
    /// let (h2, e2) = (Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
    /// assert_eq!(Move::new(h2, e2).to_string(), "h2e2");
    /// ```
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// The square the piece moves from.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// The square the piece moves to (where a captured piece stood).
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// The packed form: `from | to << 7`.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::to_u16`]; `None` if a square is off the board.
    pub const fn from_u16(v: u16) -> Option<Move> {
        let (from, to) = ((v & 0x7f) as u8, (v >> 7) as u8);
        if from < 90 && to < 90 && v >> 14 == 0 {
            Some(Move(v))
        } else {
            None
        }
    }

    /// The same move seen on a board turned by 180 degrees.
    pub const fn flip(self) -> Move {
        Move::new(self.from().flip(), self.to().flip())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

/// Why an ICCS move did not parse: it is not two squares such as `h2e2` or `H2-E2`.
///
/// ```
/// use xiangqi::Move;
/// let err = "h2x2".parse::<Move>().unwrap_err();
/// assert_eq!(err.to_string(), "\"h2x2\" is not an ICCS move (two squares such as h2e2 or H2-E2)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    text: String,
}

impl ParseMoveError {
    /// The text that did not parse (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not an ICCS move (two squares such as h2e2 or H2-E2)", self.text)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;
    /// Reads `h2e2` or `H2-E2`.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        let err = || ParseMoveError { text: s.to_string() };
        if !s.is_ascii() {
            return Err(err());
        }
        let (a, b) = match s.len() {
            4 => (&s[..2], &s[2..]),
            5 if s.as_bytes()[2] == b'-' => (&s[..2], &s[3..]),
            _ => return Err(err()),
        };
        let from = a.parse().map_err(|_| err())?;
        let to = b.parse().map_err(|_| err())?;
        Ok(Move::new(from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(15), None);
    }

    #[test]
    fn squares_and_moves_parse() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.from().to_string(), "h2");
        assert_eq!(m.to().to_string(), "e2");
        assert_eq!("H2-E2".parse::<Move>().unwrap(), m);
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        assert!("j2e2".parse::<Move>().is_err());
        assert!("h2e".parse::<Move>().is_err());
        assert!("é2e2".parse::<Move>().is_err());
        assert_eq!(Move::from_u16(0x7f), None);
    }

    #[test]
    fn palace() {
        let inside: Vec<_> = Square::all().filter(|s| s.in_palace(Color::Red)).collect();
        assert_eq!(inside.len(), 9);
        assert!("e9".parse::<Square>().unwrap().in_palace(Color::Black));
    }
}
