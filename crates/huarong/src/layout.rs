//! A layout on the seed's 64-bit code, its text form and its share code.
//!
//! The code stores 3 bits of piece type at each piece's top-left cell (`type << (3 * cell)`,
//! cell = row * 4 + col), 0 elsewhere. Same-shaped pieces therefore have the same code: the
//! representation is canonical without any sorting.

use crate::board::{CELLS, COLS, FULL, GOAL_CELL, SHAPE};
use std::fmt;
use std::str::FromStr;

/// A piece shape; the discriminant is the seed's type code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// The 2x2 block (Cao Cao, `C`).
    CaoCao = 1,
    /// A 1-wide, 2-tall general (`V`).
    Vertical = 2,
    /// A 2-wide, 1-tall general (`H`).
    Horizontal = 3,
    /// A 1x1 soldier (`S`).
    Soldier = 4,
}

impl Piece {
    /// The piece with seed type code `t` (1..=4).
    pub const fn from_type(t: u8) -> Option<Piece> {
        match t {
            1 => Some(Piece::CaoCao),
            2 => Some(Piece::Vertical),
            3 => Some(Piece::Horizontal),
            4 => Some(Piece::Soldier),
            _ => None,
        }
    }

    /// The letter of the text form.
    pub const fn letter(self) -> char {
        match self {
            Piece::CaoCao => 'C',
            Piece::Vertical => 'V',
            Piece::Horizontal => 'H',
            Piece::Soldier => 'S',
        }
    }

    /// Height and width in cells.
    pub const fn size(self) -> (usize, usize) {
        crate::board::dims(self as usize)
    }

    fn from_letter(letter: char) -> Option<Option<Piece>> {
        match letter.to_ascii_uppercase() {
            'C' => Some(Some(Piece::CaoCao)),
            'V' => Some(Some(Piece::Vertical)),
            'H' => Some(Some(Piece::Horizontal)),
            'S' => Some(Some(Piece::Soldier)),
            '.' => Some(None),
            _ => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a text form, share code or seed code is not a legal layout.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutError {
    /// The text does not have five `/`-separated rows.
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// A row does not have four cells.
    RowLength {
        /// 0-based row.
        row: usize,
        /// Characters found.
        found: usize,
    },
    /// A character other than `C V H S .`.
    UnknownLetter {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The character.
        letter: char,
    },
    /// Part of a piece: half a general, a partial 2x2, or a piece off the board.
    BrokenPiece {
        /// 0-based row of the piece's top-left cell.
        row: usize,
        /// 0-based column of the piece's top-left cell.
        col: usize,
        /// The piece.
        piece: Piece,
    },
    /// Not exactly one 2x2 block.
    CaoCaoCount {
        /// 2x2 blocks found.
        found: usize,
    },
    /// Fewer than two empty cells (nothing could move).
    TooFewEmpty {
        /// Empty cells found.
        found: usize,
    },
    /// A 64-bit seed code that is not a layout.
    BadSeedCode {
        /// The code.
        code: u64,
        /// What is wrong.
        reason: &'static str,
    },
    /// A share code that is not a layout.
    BadShareCode {
        /// What is wrong.
        reason: &'static str,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::RowCount { found } => write!(f, "expected 5 rows separated by '/', found {found}"),
            LayoutError::RowLength { row, found } => {
                write!(f, "row {} has {found} cells, expected 4", row + 1)
            }
            LayoutError::UnknownLetter { row, col, letter } => {
                write!(f, "unknown letter {letter:?} at row {}, column {} (use C V H S .)", row + 1, col + 1)
            }
            LayoutError::BrokenPiece { row, col, piece } => {
                let what = match piece {
                    Piece::CaoCao => "an incomplete 2x2 block",
                    Piece::Vertical => "half a vertical general",
                    Piece::Horizontal => "half a horizontal general",
                    Piece::Soldier => "a soldier that does not fit",
                };
                write!(f, "{what} ({piece}) at row {}, column {}", row + 1, col + 1)
            }
            LayoutError::CaoCaoCount { found } => write!(f, "expected exactly one 2x2 block (C), found {found}"),
            LayoutError::TooFewEmpty { found } => write!(f, "expected at least 2 empty cells, found {found}"),
            LayoutError::BadSeedCode { code, reason } => write!(f, "seed code {code} is not a layout: {reason}"),
            LayoutError::BadShareCode { reason } => write!(f, "bad share code: {reason}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Counts of the pieces other than Cao Cao; every layout has exactly one 2x2 block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceSet {
    /// Vertical generals.
    pub vertical: u8,
    /// Horizontal generals.
    pub horizontal: u8,
    /// Soldiers.
    pub soldiers: u8,
}

impl PieceSet {
    /// Empty cells of any layout with these pieces (0 if they do not even fit).
    pub const fn empty_cells(self) -> usize {
        let covered = 4 + 2 * (self.vertical as usize + self.horizontal as usize) + self.soldiers as usize;
        CELLS.saturating_sub(covered)
    }

    /// Every piece set with at least two empty cells, in a fixed order.
    pub fn all() -> Vec<PieceSet> {
        let mut sets = Vec::new();
        for generals in 0..=7u8 {
            for vertical in 0..=generals {
                for soldiers in 0..=(14 - 2 * generals) {
                    sets.push(PieceSet { vertical, horizontal: generals - vertical, soldiers });
                }
            }
        }
        sets
    }
}

impl fmt::Display for PieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C+{}V+{}H+{}S", self.vertical, self.horizontal, self.soldiers)
    }
}

/// A piece-set text that cannot be read (see [`PieceSet`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPieceSet {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for BadPieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad piece set {:?}: {} (write it like 4V+1H+4S or C+4V+1H+4S)", self.text, self.reason)
    }
}

impl std::error::Error for BadPieceSet {}

impl FromStr for PieceSet {
    type Err = BadPieceSet;

    /// Reads counts followed by `V`, `H` or `S` (any order, `+` and spaces optional, an
    /// optional leading `C` or `C+` for Cao Cao), as [`PieceSet`]'s `Display` writes them.
    ///
    /// ```
    /// use huarong::PieceSet;
    /// let set: PieceSet = "C+4V+1H+4S".parse()?;
    /// assert_eq!(set, PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
    /// assert_eq!("4v 1h 4s".parse::<PieceSet>()?, set);
    /// assert!("4V+1H+4X".parse::<PieceSet>().is_err());
    /// # Ok::<(), huarong::BadPieceSet>(())
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |reason| Err(BadPieceSet { text: text.to_string(), reason });
        let squeezed: String =
            text.chars().filter(|c| !c.is_whitespace() && *c != '+').collect::<String>().to_ascii_uppercase();
        let body = squeezed.strip_prefix('C').unwrap_or(&squeezed);
        let mut counts: [Option<u8>; 3] = [None; 3];
        let mut number = String::new();
        for ch in body.chars() {
            if ch.is_ascii_digit() {
                number.push(ch);
                continue;
            }
            let slot = match ch {
                'V' => 0,
                'H' => 1,
                'S' => 2,
                _ => return bad("unknown letter (use V, H and S)"),
            };
            if number.is_empty() {
                return bad("a letter without a count");
            }
            if counts[slot].is_some() {
                return bad("a letter given twice");
            }
            let Ok(n) = number.parse::<u8>() else { return bad("count too large") };
            counts[slot] = Some(n);
            number.clear();
        }
        if !number.is_empty() {
            return bad("a count without a letter");
        }
        if counts.iter().all(Option::is_none) && body.is_empty() && squeezed.is_empty() {
            return bad("empty");
        }
        let [vertical, horizontal, soldiers] = counts.map(|c| c.unwrap_or(0));
        let set = PieceSet { vertical, horizontal, soldiers };
        let covered = 4 + 2 * (vertical as usize + horizontal as usize) + soldiers as usize;
        if covered + 2 > CELLS {
            return bad("the pieces leave fewer than two empty cells");
        }
        Ok(set)
    }
}

/// A legal layout: one 2x2 block, any 1x2/2x1 generals and soldiers, at least two empty cells.
///
/// ```
/// use huarong::Layout;
/// let layout: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse()?;
/// assert_eq!(layout.to_string(), "VCCV/VCCV/VHHV/VSSV/S..S");
/// assert_eq!(Layout::from_share_code(&layout.share_code())?, layout);
/// assert_eq!(Layout::from_code(layout.code())?, layout);
/// assert!(!layout.is_solved());
/// # Ok::<(), huarong::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Layout(u64);

/// Places pieces one at a time, refusing overlaps and pieces off the board.
struct Builder {
    code: u64,
    occupied: u32,
    cao_caos: usize,
}

impl Builder {
    fn new() -> Self {
        Builder { code: 0, occupied: 0, cao_caos: 0 }
    }

    fn place(&mut self, piece: Piece, cell: usize) -> bool {
        let mask = SHAPE[piece as usize][cell];
        if mask == 0 || mask & self.occupied != 0 {
            return false;
        }
        self.occupied |= mask;
        self.code |= (piece as u64) << (3 * cell);
        self.cao_caos += usize::from(piece == Piece::CaoCao);
        true
    }

    fn finish(self) -> Result<Layout, LayoutError> {
        if self.cao_caos != 1 {
            return Err(LayoutError::CaoCaoCount { found: self.cao_caos });
        }
        let empty = CELLS - self.occupied.count_ones() as usize;
        if empty < 2 {
            return Err(LayoutError::TooFewEmpty { found: empty });
        }
        Ok(Layout(self.code))
    }
}

/// URL-safe digits of the share code (base64url alphabet).
const SHARE_DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// Longest share code: at most 17 symbols of 5 values each fit in 42 bits.
const SHARE_MAX_LEN: usize = 7;

impl Layout {
    /// The layout of a seed code, checked: type codes 0..=4, pieces on the board and not
    /// overlapping, one 2x2 block, at least two empty cells.
    pub fn from_code(code: u64) -> Result<Layout, LayoutError> {
        let bad = |reason| Err(LayoutError::BadSeedCode { code, reason });
        if code >> (3 * CELLS) != 0 {
            return bad("bits above cell 19 are set");
        }
        let mut builder = Builder::new();
        for cell in 0..CELLS {
            let t = ((code >> (3 * cell)) & 7) as u8;
            if t == 0 {
                continue;
            }
            let Some(piece) = Piece::from_type(t) else { return bad("type code above 4") };
            if !builder.place(piece, cell) {
                return bad("a piece overlaps another or sticks out of the board");
            }
        }
        builder.finish().or_else(|_| bad("not one 2x2 block with at least two empty cells"))
    }

    /// Wraps a code known to be valid (from move generation or enumeration).
    pub(crate) const fn from_code_unchecked(code: u64) -> Layout {
        Layout(code)
    }

    /// The seed's 64-bit code.
    pub const fn code(self) -> u64 {
        self.0
    }

    /// Parses the text form: five rows top to bottom separated by `/`, letters `C V H S .`
    /// (lower case accepted).
    ///
    /// ```
    /// use huarong::{Layout, LayoutError};
    /// assert!(matches!(Layout::parse("VCCV/VCCV/VHHV/VSSV"), Err(LayoutError::RowCount { found: 4 })));
    /// assert!(matches!(Layout::parse("VCCV/VCCV/VHHV/VSSV/SS.S"), Err(LayoutError::TooFewEmpty { found: 1 })));
    /// ```
    pub fn parse(text: &str) -> Result<Layout, LayoutError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 5 {
            return Err(LayoutError::RowCount { found: rows.len() });
        }
        let mut grid = [None; CELLS];
        for (row, line) in rows.iter().enumerate() {
            let found = line.chars().count();
            if found != COLS {
                return Err(LayoutError::RowLength { row, found });
            }
            for (col, letter) in line.chars().enumerate() {
                let Some(piece) = Piece::from_letter(letter) else {
                    return Err(LayoutError::UnknownLetter { row, col, letter });
                };
                grid[row * COLS + col] = piece;
            }
        }
        // Row-major scan: the first cell not yet covered is always a piece's top-left cell,
        // which also splits runs like `VVVV` (two verticals) or `HHHH` the only possible way.
        let mut builder = Builder::new();
        for cell in 0..CELLS {
            if builder.occupied >> cell & 1 == 1 {
                continue;
            }
            let Some(piece) = grid[cell] else { continue };
            let mask = SHAPE[piece as usize][cell];
            let whole = mask != 0 && (0..CELLS).all(|c| mask >> c & 1 == 0 || grid[c] == Some(piece));
            if !whole || !builder.place(piece, cell) {
                return Err(LayoutError::BrokenPiece { row: cell / COLS, col: cell % COLS, piece });
            }
        }
        builder.finish()
    }

    /// The text form, e.g. `VCCV/VCCV/VHHV/VSSV/S..S`.
    pub fn to_text(self) -> String {
        let grid = self.grid();
        let mut text = String::with_capacity(24);
        for (i, cell) in grid.iter().enumerate() {
            if i > 0 && i % COLS == 0 {
                text.push('/');
            }
            text.push(cell.map_or('.', Piece::letter));
        }
        text
    }

    /// The piece covering each cell.
    pub fn grid(self) -> [Option<Piece>; CELLS] {
        let mut grid = [None; CELLS];
        for (piece, cell) in self.pieces() {
            let mask = SHAPE[piece as usize][cell];
            for (c, slot) in grid.iter_mut().enumerate() {
                if mask >> c & 1 == 1 {
                    *slot = Some(piece);
                }
            }
        }
        grid
    }

    /// Every piece with its top-left cell, in cell order.
    pub fn pieces(self) -> impl Iterator<Item = (Piece, usize)> {
        (0..CELLS).filter_map(move |cell| Piece::from_type(((self.0 >> (3 * cell)) & 7) as u8).map(|p| (p, cell)))
    }

    /// The piece whose top-left cell is `cell`, if any.
    pub fn piece_at(self, cell: usize) -> Option<Piece> {
        if cell >= CELLS {
            return None;
        }
        Piece::from_type(((self.0 >> (3 * cell)) & 7) as u8)
    }

    /// Mask of the empty cells (bit `cell`).
    pub fn empty_cells(self) -> u32 {
        !crate::board::occupied(self.0) & FULL
    }

    /// The pieces other than Cao Cao.
    pub fn piece_set(self) -> PieceSet {
        let mut set = PieceSet { vertical: 0, horizontal: 0, soldiers: 0 };
        for (piece, _) in self.pieces() {
            match piece {
                Piece::CaoCao => {}
                Piece::Vertical => set.vertical += 1,
                Piece::Horizontal => set.horizontal += 1,
                Piece::Soldier => set.soldiers += 1,
            }
        }
        set
    }

    /// Cao Cao covers rows 3-4, columns 1-2 (he can walk out of the exit).
    pub const fn is_solved(self) -> bool {
        is_solved_code(self.0)
    }

    /// A short URL-safe code (at most 7 characters of `A-Z a-z 0-9 - _`).
    ///
    /// It is the row-major sequence of pieces and empty cells, each a base-5 digit (the
    /// first uncovered cell always holds a piece's top-left), written in base 64.
    pub fn share_code(self) -> String {
        let mut value: u64 = 0;
        let mut scale: u64 = 1;
        let mut covered = 0u32;
        while covered != FULL {
            let cell = (!covered & FULL).trailing_zeros() as usize;
            let t = (self.0 >> (3 * cell)) & 7;
            covered |= if t == 0 { 1 << cell } else { SHAPE[t as usize][cell] };
            value += t * scale;
            scale *= 5;
        }
        let mut code = String::new();
        loop {
            code.push(SHARE_DIGITS[(value % 64) as usize] as char);
            value /= 64;
            if value == 0 {
                return code;
            }
        }
    }

    /// Decodes [`Layout::share_code`]; only the canonical spelling is accepted.
    pub fn from_share_code(code: &str) -> Result<Layout, LayoutError> {
        let bad = |reason| Err(LayoutError::BadShareCode { reason });
        let code = code.trim();
        if code.is_empty() {
            return bad("empty");
        }
        if code.len() > SHARE_MAX_LEN {
            return bad("too long");
        }
        if code.len() > 1 && code.ends_with('A') {
            return bad("not canonical (trailing 'A')");
        }
        let mut value: u64 = 0;
        for byte in code.bytes().rev() {
            let Some(digit) = SHARE_DIGITS.iter().position(|&d| d == byte) else {
                return bad("unknown character");
            };
            value = value * 64 + digit as u64;
        }
        let mut builder = Builder::new();
        let mut blanks = 0u32;
        loop {
            let free = !(builder.occupied | blanks) & FULL;
            if free == 0 {
                break;
            }
            let cell = free.trailing_zeros() as usize;
            let t = (value % 5) as u8;
            value /= 5;
            match Piece::from_type(t) {
                None => blanks |= 1 << cell,
                Some(piece) => {
                    if !builder.place(piece, cell) {
                        return bad("a piece does not fit");
                    }
                }
            }
        }
        if value != 0 {
            return bad("digits left over after the board is full");
        }
        builder.finish().map_err(|e| LayoutError::BadShareCode {
            reason: match e {
                LayoutError::CaoCaoCount { .. } => "not exactly one 2x2 block",
                _ => "fewer than two empty cells",
            },
        })
    }
}

/// Cao Cao's top-left on cell 13 (row 3, column 1).
#[inline]
pub(crate) const fn is_solved_code(code: u64) -> bool {
    (code >> (3 * GOAL_CELL)) & 7 == Piece::CaoCao as u64
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl FromStr for Layout {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Layout::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HENG_DAO_LI_MA: &str = "VCCV/VCCV/VHHV/VSSV/S..S";

    #[test]
    fn seed_code_matches_the_article_encoding() {
        // The seed: a General on cell 1 and a VChessman on cell 0 give 0b001_010.
        let layout = Layout::parse("VCC./VCC./..../..../....").unwrap();
        assert_eq!(layout.code(), 0b001_010);
        // The seed's worked example: Int64 577606461035643914 is 横刀立马.
        assert_eq!(Layout::from_code(577_606_461_035_643_914).unwrap().to_text(), HENG_DAO_LI_MA);
    }

    #[test]
    fn text_round_trip_and_pieces() {
        let layout = Layout::parse(HENG_DAO_LI_MA).unwrap();
        assert_eq!(layout.to_text(), HENG_DAO_LI_MA);
        assert_eq!(layout.piece_set(), PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
        assert_eq!(layout.empty_cells(), (1 << 17) | (1 << 18));
        assert_eq!(layout.piece_at(1), Some(Piece::CaoCao));
        assert_eq!(Layout::parse("vccv/vccv/vhhv/vssv/s..s").unwrap(), layout);
    }

    #[test]
    fn runs_of_generals_split_in_scan_order() {
        let layout = Layout::parse("CCHH/CCHH/VVHH/VVSS/S..S").unwrap();
        assert_eq!(layout.piece_set(), PieceSet { vertical: 2, horizontal: 3, soldiers: 4 });
        let layout = Layout::parse("SCCS/VCCV/VVVV/SVVS/.HH.").unwrap();
        assert_eq!(layout.piece_set().vertical, 4);
    }

    #[test]
    fn parse_errors() {
        use LayoutError::*;
        let err = |s: &str| Layout::parse(s).unwrap_err();
        assert_eq!(err("VCCV/VCCV/VHHV/VSSV/S..S/...."), RowCount { found: 6 });
        assert_eq!(err("VCCV/VCCV/VHHV/VSSV/S..SS"), RowLength { row: 4, found: 5 });
        assert_eq!(err("VCCV/VCCV/VHHV/VSXV/S..S"), UnknownLetter { row: 3, col: 2, letter: 'X' });
        assert_eq!(err("VCCV/VCCV/VHHV/VSSV/SV.S"), BrokenPiece { row: 4, col: 1, piece: Piece::Vertical });
        assert_eq!(err("VCCV/VCCV/VHSV/VSSV/S..S"), BrokenPiece { row: 2, col: 1, piece: Piece::Horizontal });
        assert_eq!(err("VCCV/VC.V/VHHV/VSSV/S..S"), BrokenPiece { row: 0, col: 1, piece: Piece::CaoCao });
        assert_eq!(err("VSSV/VSSV/VHHV/VSSV/S..S"), CaoCaoCount { found: 0 });
        assert_eq!(err("CCCC/CCCC/..../..../...."), CaoCaoCount { found: 2 });
        assert_eq!(err("VCCV/VCCV/VHHV/VSSV/SSSS"), TooFewEmpty { found: 0 });
        assert!(err("").to_string().contains("5 rows"));
    }

    #[test]
    fn share_code_round_trips_and_rejects_junk() {
        let layout = Layout::parse(HENG_DAO_LI_MA).unwrap();
        let code = layout.share_code();
        assert!(code.len() <= SHARE_MAX_LEN);
        assert_eq!(Layout::from_share_code(&code).unwrap(), layout);
        for junk in ["", "A", "!!", "________", "AAAA"] {
            assert!(Layout::from_share_code(junk).is_err(), "{junk:?}");
        }
    }

    #[test]
    fn seed_code_checks() {
        assert!(Layout::from_code(0).is_err());
        assert!(Layout::from_code(1 << 62).is_err());
        assert!(Layout::from_code(7).is_err());
        assert!(Layout::from_code(1 << (3 * 3)).is_err(), "2x2 off the right edge");
        assert!(Layout::from_code(0b001_001).is_err(), "two overlapping 2x2");
        assert_eq!(Layout::from_code(1).unwrap().to_text(), "CC../CC../..../..../....");
    }

    #[test]
    fn every_piece_set_has_two_empty_cells() {
        let sets = PieceSet::all();
        assert_eq!(sets.len(), 204);
        assert!(sets.iter().all(|s| s.empty_cells() >= 2));
        assert_eq!(PieceSet { vertical: 200, horizontal: 200, soldiers: 200 }.empty_cells(), 0);
    }
}
