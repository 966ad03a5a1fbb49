//! 象棋桥 (ChessBridge) files: `.cbr`, one record, and `.cbl`, a library of records.
//!
//! A record starts with the magic `CCBridge Record\0` and a fixed header of 2,214 bytes; its
//! text fields are UTF-16LE, ended by a NUL (the bytes after it are often left over from the
//! writer's memory, so nothing past the NUL is read): title at 180 (128 bytes), event at 692,
//! date at 884, site at 948, red at 1076 and black at 1300 (64 bytes each). Byte 2076 is the
//! result (1 red wins, 2 black wins, 3 and 4 a draw), byte 2112 the side to move (1 Red), and
//! the 90 bytes at 2120 the board, row by row from Black's back rank, each square a piece code
//! (`0x11`-`0x17` Red's rook, horse, elephant, advisor, king, cannon, pawn; `0x21`-`0x27`
//! Black's) or 0. At 2214 a 32-bit flag word says whether a comment before the first move
//! follows (as a 32-bit byte length and the text). Then the moves, in pre-order: each is four
//! bytes (flags, 0, from square, to square; squares numbered as the board), flag 1 ending its
//! line, flag 2 saying an alternative to it follows its line, flag 4 a comment after it (a
//! 32-bit byte length and the text).
//!
//! A record whose board is empty is a note (a library's section title or introduction): its
//! move records carry only text, so it reads as a game without moves whose comment is that text.
//!
//! A library starts with `CCBridgeLibrary\0` and the library's name (UTF-16LE at 64), then an
//! index, then the records, each in a slot of 4,096 bytes; the first record is found by its
//! magic, and a slot that does not start with it is skipped.
//!
//! Nothing here comes from another program's code: the layout was worked out from real files
//! (see `tests/data/records/SOURCE.md`) and a public description of the move records.

use super::tree::{check_comment, Failure, Tree};
use super::{Format, Location, RecordError, RecordErrorKind, MAX_RECORD_GAMES};
use crate::pgn::PgnGame;
use crate::{Color, Move, Piece, PieceKind, Position, Setup, Square};

/// The first bytes of a record (`.cbr`, and each game of a `.cbl`).
pub const RECORD_MAGIC: &[u8; 16] = b"CCBridge Record\0";
/// The first bytes of a library (`.cbl`).
pub const LIBRARY_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// The size of a record's header: the comment flag and the moves start here.
pub const HEADER_LEN: usize = 2214;
/// A library's games each take a slot of this size.
pub const SLOT_LEN: usize = 4096;
/// A library's header: magic, name; its index follows.
const LIBRARY_HEADER_LEN: usize = 576;
/// Where the board is.
const BOARD_AT: usize = 2120;

/// The text fields: tag, offset, size.
const FIELDS: [(&str, usize, usize); 6] = [
    ("Title", 180, 128),
    ("Event", 692, 64),
    ("Date", 884, 64),
    ("Site", 948, 64),
    ("Red", 1076, 64),
    ("Black", 1300, 64),
];

/// Whether `bytes` start like a ChessBridge record or library.
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.starts_with(RECORD_MAGIC) || bytes.starts_with(LIBRARY_MAGIC)
}

/// Text of a UTF-16LE field, up to its first NUL, trimmed.
fn utf16(raw: &[u8]) -> String {
    let units = raw.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).take_while(|&u| u != 0);
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect::<String>().trim().to_string()
}

/// The game's library name, when `bytes` are a library.
///
/// ```
/// let mut lib = b"CCBridgeLibrary\0".to_vec();
/// lib.resize(64, 0);
/// lib.extend("棋谱".encode_utf16().flat_map(u16::to_le_bytes));
/// lib.resize(576, 0);
/// assert_eq!(xiangqi::record::cbr::library_name(&lib).as_deref(), Some("棋谱"));
/// ```
pub fn library_name(bytes: &[u8]) -> Option<String> {
    if !bytes.starts_with(LIBRARY_MAGIC) || bytes.len() < LIBRARY_HEADER_LEN {
        return None;
    }
    Some(utf16(&bytes[64..LIBRARY_HEADER_LEN])).filter(|n| !n.is_empty())
}

/// Reads a `.cbr` record: headers, start position, the move tree with comments.
///
/// # Errors
///
/// A [`RecordError`] with the file offset: a short file or tree, an unknown piece code, an
/// impossible start position, a square off the board, an illegal move, a comment or a tree
/// over the bounds.
pub fn read(bytes: &[u8]) -> Result<PgnGame, RecordError> {
    read_at(bytes, 0, 1, Format::Cbr)
}

/// Reads the record that starts at `base` of `file`, game `game` of a file in `format`.
fn read_at(file: &[u8], base: usize, game: usize, format: Format) -> Result<PgnGame, RecordError> {
    let err = |(at, kind): Failure| RecordError { format, game, location: Location::Offset(at), kind };
    let bytes = &file[base..];
    if bytes.len() < HEADER_LEN + 4 || !bytes.starts_with(RECORD_MAGIC) {
        return Err(err((file.len().min(base + HEADER_LEN), RecordErrorKind::Truncated)));
    }
    let mut setup = Setup::empty();
    for (i, &code) in bytes[BOARD_AT..BOARD_AT + 90].iter().enumerate() {
        if code == 0 {
            continue;
        }
        let at = base + BOARD_AT + i;
        let color = match code >> 4 {
            1 => Color::Red,
            2 => Color::Black,
            _ => return Err(err((at, RecordErrorKind::BadPiece(code)))),
        };
        use PieceKind::*;
        let kind = match code & 0x0F {
            1 => Rook,
            2 => Horse,
            3 => Elephant,
            4 => Advisor,
            5 => King,
            6 => Cannon,
            7 => Pawn,
            _ => return Err(err((at, RecordErrorKind::BadPiece(code)))),
        };
        setup.board[square(i as u8, at).map_err(err)?.index()] = Some(Piece::new(color, kind));
    }
    setup.turn = if bytes[2112] == 1 { Color::Red } else { Color::Black };

    let mut cursor = Cursor { bytes: file, at: base + HEADER_LEN };
    let tree = read_tree(&mut cursor).map_err(err)?;
    if setup.board.iter().all(Option::is_none) {
        // A note (a library's section title, an introduction): an empty board, whose move
        // records only carry text. It reads as a game without moves, its text as the comment.
        let text: Vec<&str> = tree.nodes.iter().filter_map(|n| n.comment.as_deref()).collect();
        let mut game = PgnGame::new(Position::startpos(), &[]);
        game.line.comment = check_comment(text.join("\n"), base + HEADER_LEN).map_err(err)?;
        add_headers(&mut game, bytes);
        return Ok(game);
    }
    // Editors leave the side to move wrong; the first move decides.
    if let Some(&first) = tree.nodes[0].children.first() {
        let mv = tree.nodes[first].mv.expect("a move");
        if let Some(piece) = setup.board[mv.from().index()] {
            setup.turn = piece.color;
        }
    }
    let start = Position::from_setup(&setup).map_err(|e| err((base + BOARD_AT, RecordErrorKind::BadPosition(e))))?;
    let line = tree.to_line(&start).map_err(err)?;

    let mut game = PgnGame::new(start, &[]);
    game.line = line;
    add_headers(&mut game, bytes);
    Ok(game)
}

/// The text fields and the result of the record `bytes` (its header read whole) as tags.
fn add_headers(game: &mut PgnGame, bytes: &[u8]) {
    for (tag, offset, size) in FIELDS {
        let text = utf16(&bytes[offset..offset + size]);
        if !text.is_empty() {
            game.tags.push((tag.to_string(), text));
        }
    }
    let result = match bytes[2076] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    game.tags.push(("Result".into(), result.into()));
    game.result = Some(result.into());
}

/// A square of the board's numbering: rows from Black's back rank, files from Red's left.
fn square(n: u8, at: usize) -> Result<Square, Failure> {
    if n >= 90 {
        return Err((at, RecordErrorKind::BadSquare(n)));
    }
    Ok(Square::new(n % 9, 9 - n / 9).expect("file below 9, rank below 10"))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Failure> {
        let end =
            self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or((self.at, RecordErrorKind::Truncated))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, Failure> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A comment: its byte length, then UTF-16LE text.
    fn comment(&mut self) -> Result<Option<String>, Failure> {
        let at = self.at;
        let len = self.u32()? as usize;
        // UTF-16 takes at most twice the bytes of the UTF-8 the bound counts.
        if len > super::MAX_COMMENT_BYTES * 2 {
            return Err((at, RecordErrorKind::CommentTooLong(len)));
        }
        let text = utf16(self.take(len)?);
        check_comment(text, at)
    }
}

/// Reads the comment before the first move and the moves into a tree. Pre-order: a move's
/// line comes first, then its alternative; a stack keeps the parents of alternatives to come.
fn read_tree(c: &mut Cursor<'_>) -> Result<Tree, Failure> {
    let mut tree = Tree::new(c.at);
    if c.u32()? != 0 {
        tree.nodes[0].comment = c.comment()?;
    }
    // No moves: the record ends, or its slot is zeros.
    let rest = &c.bytes[c.at..];
    if rest.len() < 4 || rest[..4] == [0; 4] {
        return Ok(tree);
    }
    let mut pending: Vec<usize> = Vec::new();
    let mut parent = 0;
    loop {
        let at = c.at;
        let b = c.take(4)?;
        let (flags, from, to) = (b[0], b[2], b[3]);
        if b == [0; 4] {
            // A zero record where a move was promised: the data ends early.
            return Err((at, RecordErrorKind::Truncated));
        }
        let mv = Move::new(square(from, at + 2)?, square(to, at + 3)?);
        let id = tree.add(parent, mv, at)?;
        if flags & 4 != 0 {
            tree.nodes[id].comment = c.comment()?;
        }
        let (ends, alternative) = (flags & 1 != 0, flags & 2 != 0);
        if !ends {
            if alternative {
                pending.push(parent);
            }
            parent = id;
        } else if !alternative {
            match pending.pop() {
                Some(p) => parent = p,
                None => break,
            }
        }
    }
    Ok(tree)
}

/// The games of a `.cbl` library one at a time: see [`library`].
pub struct Library<'a> {
    bytes: &'a [u8],
    /// The next slot to look at; `None` once done.
    next: Option<usize>,
    /// Games given so far.
    given: usize,
}

/// Reads the games of a `.cbl` library one at a time, each as [`read`] does. A game that does
/// not read is an error and does not stop the others; past [`MAX_RECORD_GAMES`] games comes
/// one error and the end. A library without a game gives nothing.
///
/// ```
/// let mut lib = xiangqi::record::cbr::LIBRARY_MAGIC.to_vec();
/// lib.resize(1000, 0);
/// assert_eq!(xiangqi::record::cbr::library(&lib).count(), 0);
/// ```
pub fn library(bytes: &[u8]) -> Library<'_> {
    let first = if bytes.starts_with(LIBRARY_MAGIC) && bytes.len() > LIBRARY_HEADER_LEN {
        find(&bytes[LIBRARY_HEADER_LEN..], RECORD_MAGIC).map(|i| i + LIBRARY_HEADER_LEN)
    } else {
        None
    };
    Library { bytes, next: first, given: 0 }
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl Iterator for Library<'_> {
    type Item = Result<PgnGame, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let at = self.next?;
            if at >= self.bytes.len() {
                self.next = None;
                return None;
            }
            self.next = at.checked_add(SLOT_LEN);
            if !self.bytes[at..].starts_with(RECORD_MAGIC) {
                // The rest of a long record, or an empty slot.
                continue;
            }
            if self.given == MAX_RECORD_GAMES {
                self.next = None;
                let kind = RecordErrorKind::TooManyGames;
                return Some(Err(RecordError {
                    format: Format::Cbl,
                    game: self.given + 1,
                    location: Location::Offset(at),
                    kind,
                }));
            }
            self.given += 1;
            return Some(read_at(self.bytes, at, self.given, Format::Cbl));
        }
    }
}
