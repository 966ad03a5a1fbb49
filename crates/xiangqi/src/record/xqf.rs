//! XQF, the binary game file of XQStudio (象棋演播室) and of most Chinese collections.
//!
//! A file is a 1024-byte header and a move tree. The header holds the version, the key bytes,
//! the squares of the 32 pieces (one byte each, `file * 10 + rank`, files and ranks from Red's
//! bottom left; 90 and above is off the board), the side to move, the result and the text
//! fields as Pascal strings in GBK. The tree follows in pre-order: each record is a from
//! square, a to square, a flag byte and a spare byte, then the length and the bytes of its
//! comment; a record's continuation comes next, then its alternatives.
//!
//! Versions 1.1 to 1.8 (header byte 11 to 18) are "encrypted": key bytes in the header give
//! an offset for the piece squares (and, from 1.2, a rotation of the piece table), offsets for
//! the move squares and the comment lengths, and a 32-byte stream subtracted from every byte
//! of the tree. Version 1.0 stores everything plain and always writes a comment length; later
//! versions flag the records that have a comment. The reader takes all of them; the writer
//! writes 1.0 without keys, which every reader takes. XQF keeps no move counter: a game read
//! from XQF starts at move 1.
//!
//! A header whose side to move contradicts the first move is common (editors forget to set
//! it); the reader follows the move.

use super::tree::{check_comment, Failure, Tree};
use super::{Format, Location, RecordError, RecordErrorKind};
use crate::pgn::PgnGame;
use crate::{Color, Move, Piece, PieceKind, Position, Setup, Square};

/// The size of the header; the tree starts here.
pub const HEADER_LEN: usize = 1024;

/// The kinds of the 16 piece slots of each side, in the header's order (rooks, horses,
/// elephants and advisors from the right, the king, the cannons, then the pawns).
const SLOTS: [PieceKind; 16] = {
    use PieceKind::*;
    [Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn]
};

/// The text fields: tag, offset, size.
const FIELDS: [(&str, usize, usize); 9] = [
    ("Title", 80, 64),
    ("Event", 208, 64),
    ("Date", 272, 16),
    ("Site", 288, 16),
    ("Red", 304, 16),
    ("Black", 320, 16),
    ("Opening", 336, 64),
    ("Annotator", 464, 16),
    ("Author", 480, 16),
];

/// The seed of the byte stream of versions 1.1 and later.
const STREAM_SEED: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Whether `bytes` start like an XQF file: the magic `XQ`, then a known version or a whole
/// header (so that a newer version is reported as such, not read as text).
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && bytes.starts_with(b"XQ") && (bytes[2] <= 18 || bytes.len() >= HEADER_LEN)
}

/// The keys of a file, worked out from its header.
struct Keys {
    version: u8,
    /// Offset of the piece squares.
    pieces: u8,
    /// Offsets of the from and to squares of moves.
    from: u8,
    to: u8,
    /// Offset of comment lengths.
    comment: u32,
    /// Subtracted from each tree byte, by offset modulo 32.
    stream: [u8; 32],
}

/// The polynomial XQStudio derives its offsets with (mod 256).
fn derive(key: u8, factor: u8) -> u8 {
    let k = u32::from(key);
    ((54 * k * k + 221) * u32::from(factor)) as u8
}

impl Keys {
    fn read(h: &[u8]) -> Keys {
        let version = h[2];
        if version <= 10 {
            return Keys { version, pieces: 0, from: 0, to: 0, comment: 0, stream: [0; 32] };
        }
        let (mask, sum, xy, xyf, xyt) = (h[3], h[12], h[13], h[14], h[15]);
        let pieces = derive(xy, xy);
        let from = derive(xyf, pieces);
        let to = derive(xyt, from);
        let comment = (u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767;
        let bytes = [(sum & mask) | h[8], (xy & mask) | h[9], (xyf & mask) | h[10], (xyt & mask) | h[11]];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = STREAM_SEED[i] & bytes[i % 4];
        }
        Keys { version, pieces, from, to, comment, stream }
    }
}

/// A reader over the tree bytes, decrypting as it goes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: &'a Keys,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<Vec<u8>, Failure> {
        let end =
            self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or((self.at, RecordErrorKind::Truncated))?;
        let out = (self.at..end).map(|p| self.bytes[p].wrapping_sub(self.keys.stream[p % 32])).collect();
        self.at = end;
        Ok(out)
    }

    fn comment(&mut self) -> Result<Option<String>, Failure> {
        let at = self.at;
        let b = self.take(4)?;
        let raw = i64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let len = raw - i64::from(self.keys.comment);
        if len <= 0 {
            return Ok(None);
        }
        let len = len as usize;
        if len > super::MAX_COMMENT_BYTES * 2 {
            return Err((at, RecordErrorKind::CommentTooLong(len)));
        }
        if len > self.bytes.len() - self.at {
            return Err((at, RecordErrorKind::Truncated));
        }
        let text = self.take(len)?;
        let text = encoding_rs::GB18030.decode_without_bom_handling(&text).0;
        check_comment(text.trim_end_matches('\0').to_string(), at)
    }
}

/// One record of the tree, decrypted.
struct Record {
    at: usize,
    from: u8,
    to: u8,
    next: bool,
    sibling: bool,
    comment: Option<String>,
}

fn read_record(c: &mut Cursor<'_>) -> Result<Record, Failure> {
    let at = c.at;
    let b = c.take(4)?;
    let from = b[0].wrapping_sub(0x18).wrapping_sub(c.keys.from);
    let to = b[1].wrapping_sub(0x20).wrapping_sub(c.keys.to);
    let tag = b[2];
    let (next, sibling, comment) = if c.keys.version <= 10 {
        (tag & 0xF0 != 0, tag & 0x0F != 0, c.comment()?)
    } else {
        let comment = if tag & 0x20 != 0 { c.comment()? } else { None };
        (tag & 0x80 != 0, tag & 0x40 != 0, comment)
    };
    Ok(Record { at, from, to, next, sibling, comment })
}

fn square(xy: u8, at: usize) -> Result<Square, Failure> {
    if xy >= 90 {
        return Err((at, RecordErrorKind::BadSquare(xy)));
    }
    Ok(Square::new(xy / 10, xy % 10).expect("file below 9, rank below 10"))
}

/// Reads an XQF file: headers, start position, the whole move tree with comments.
///
/// # Errors
///
/// A [`RecordError`] with the file offset: a short file, an unknown version, an impossible
/// start position, a square off the board, an illegal move, a comment or a tree over the
/// bounds.
pub fn read(bytes: &[u8]) -> Result<PgnGame, RecordError> {
    let err = |(at, kind): Failure| RecordError { format: Format::Xqf, game: 1, location: Location::Offset(at), kind };
    if bytes.len() < HEADER_LEN || !bytes.starts_with(b"XQ") {
        return Err(err((bytes.len().min(HEADER_LEN), RecordErrorKind::Truncated)));
    }
    let h = &bytes[..HEADER_LEN];
    if h[2] > 18 {
        return Err(err((2, RecordErrorKind::UnknownVersion(h[2]))));
    }
    let keys = Keys::read(h);

    // The piece table: rotated from 1.2, offset from 1.1.
    let mut squares = [0u8; 32];
    for i in 0..32 {
        let at = if keys.version >= 12 { (i + usize::from(keys.pieces) + 1) % 32 } else { i };
        squares[at] = h[16 + i];
    }
    let mut setup = Setup::empty();
    for (i, &raw) in squares.iter().enumerate() {
        let xy = raw.wrapping_sub(keys.pieces);
        if xy < 90 {
            let color = if i < 16 { Color::Red } else { Color::Black };
            let sq = square(xy, 16 + i).map_err(err)?;
            setup.board[sq.index()] = Some(Piece::new(color, SLOTS[i % 16]));
        }
    }
    setup.turn = if h[50] == 1 { Color::Black } else { Color::Red };

    // The tree.
    let mut cursor = Cursor { bytes, at: HEADER_LEN, keys: &keys };
    let tree = read_tree(&mut cursor).map_err(err)?;

    // The first move decides who moves first.
    if let Some(&first) = tree.nodes[0].children.first() {
        let mv = tree.nodes[first].mv.expect("a move");
        if let Some(piece) = setup.board[mv.from().index()] {
            setup.turn = piece.color;
        }
    }
    let start = Position::from_setup(&setup).map_err(|e| err((16, RecordErrorKind::BadPosition(e))))?;
    let line = tree.to_line(&start).map_err(err)?;

    let mut game = PgnGame::new(start, &[]);
    game.line = line;
    for (tag, offset, size) in FIELDS {
        let len = usize::from(h[offset]).min(size - 1);
        let raw = &h[offset + 1..offset + 1 + len];
        let raw = raw.split(|&b| b == 0).next().unwrap_or_default();
        let text = encoding_rs::GB18030.decode_without_bom_handling(raw).0;
        let text = text.trim();
        if !text.is_empty() {
            game.tags.push((tag.to_string(), text.to_string()));
        }
    }
    let result = match h[51] {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    };
    game.tags.push(("Result".into(), result.into()));
    game.result = Some(result.into());
    Ok(game)
}

/// Reads the records after the header into a tree. Pre-order: a record's continuation comes
/// first, then its next alternative; a stack keeps the parents of alternatives still to come.
fn read_tree(c: &mut Cursor<'_>) -> Result<Tree, Failure> {
    let root = read_record(c)?;
    let mut tree = Tree::new(root.at);
    tree.nodes[0].comment = root.comment;
    if !root.next {
        return Ok(tree);
    }
    let mut pending: Vec<usize> = Vec::new();
    let mut parent = 0;
    loop {
        let r = read_record(c)?;
        let mv = Move::new(square(r.from, r.at)?, square(r.to, r.at + 1)?);
        let id = tree.add(parent, mv, r.at)?;
        tree.nodes[id].comment = r.comment;
        if r.next {
            if r.sibling {
                pending.push(parent);
            }
            parent = id;
        } else if !r.sibling {
            match pending.pop() {
                Some(p) => parent = p,
                None => break,
            }
        }
    }
    Ok(tree)
}

/// Writes a game as XQF version 1.0, without keys: every variation and comment, the headers
/// XQF has fields for (`Title`, `Event`, `Date`, `Site`, `Red`, `Black`, `Opening`,
/// `Annotator`, `Author`; cut to the field's size), the result.
///
/// ```
/// use xiangqi::record::xqf;
/// let mut game = xiangqi::pgn::read_games("[Red \"胡荣华\"]\n1. h2e2 {中炮} (1. b2e2) h9g7 1-0")[0].clone().unwrap();
/// let bytes = xqf::write(&game);
/// let back = xqf::read(&bytes).unwrap();
/// assert_eq!(back.line, game.line);
/// assert_eq!(back.tag("Red"), Some("胡荣华"));
/// assert_eq!(back.result.as_deref(), Some("1-0"));
/// ```
pub fn write(game: &PgnGame) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_LEN];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = 10;
    // Pieces into the slots of their kind.
    let mut slots = [0xFFu8; 32];
    for (sq, piece) in game.start.pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        if let Some(i) = (0..16).find(|&i| SLOTS[i] == piece.kind && slots[base + i] == 0xFF) {
            slots[base + i] = sq.file() * 10 + sq.rank();
        }
    }
    out[16..48].copy_from_slice(&slots);
    out[50] = u8::from(game.start.turn() == Color::Black);
    out[51] = match game.result.as_deref().or_else(|| game.tag("Result")) {
        Some("1-0") => 1,
        Some("0-1") => 2,
        Some("1/2-1/2") => 3,
        _ => 0,
    };
    for (tag, offset, size) in FIELDS {
        if let Some(value) = game.tag(tag) {
            let bytes = gbk_prefix(value, size - 1);
            out[offset] = bytes.len() as u8;
            out[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
        }
    }
    let tree = Tree::from_line(&game.line);
    let record = |out: &mut Vec<u8>, mv: Option<Move>, next: bool, sibling: bool, comment: &Option<String>| {
        let (from, to) =
            mv.map_or((0, 0), |m| (m.from().file() * 10 + m.from().rank(), m.to().file() * 10 + m.to().rank()));
        let tag = if next { 0xF0 } else { 0 } | if sibling { 0x0F } else { 0 };
        out.extend_from_slice(&[from + 0x18, to + 0x20, tag, 0]);
        let text = comment.as_deref().map(gbk).unwrap_or_default();
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(&text);
    };
    let root = &tree.nodes[0];
    record(&mut out, None, !root.children.is_empty(), false, &root.comment);
    // Pre-order: (parent, index among its children) still to write.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    if !root.children.is_empty() {
        stack.push((0, 0));
    }
    while let Some((parent, i)) = stack.pop() {
        let siblings = &tree.nodes[parent].children;
        let id = siblings[i];
        let node = &tree.nodes[id];
        let sibling = i + 1 < siblings.len();
        record(&mut out, node.mv, !node.children.is_empty(), sibling, &node.comment);
        if sibling {
            stack.push((parent, i + 1));
        }
        if !node.children.is_empty() {
            stack.push((id, 0));
        }
    }
    out
}

fn gbk(text: &str) -> Vec<u8> {
    encoding_rs::GBK.encode(text).0.into_owned()
}

/// The longest prefix of `text` whose GBK bytes fit in `max`, never cutting a character.
fn gbk_prefix(text: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for ch in text.chars() {
        let bytes = gbk(ch.encode_utf8(&mut buf));
        if out.len() + bytes.len() > max {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// The tags [`write()`] keeps; the others are lost in XQF (the CLI says so).
pub const TAGS: [&str; 10] =
    ["Title", "Event", "Date", "Site", "Red", "Black", "Opening", "Annotator", "Author", "Result"];
