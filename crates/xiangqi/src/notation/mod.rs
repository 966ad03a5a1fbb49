//! Move notation: ICCS (`h2e2`), WXF (`C2.5`) and Chinese (`炮二平五`).
//!
//! [`format()`] writes a legal move in one notation; [`parse`] reads a move in any of the
//! three (it tells them apart by their characters) and returns the legal move it names.
//!
//! ```
//! use xiangqi::notation::{format, parse, Notation};
//! use xiangqi::Position;
//! let pos = Position::startpos();
//! let m = parse(&pos, "炮二平五").unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(format(&pos, m, Notation::Wxf), "C2.5");
//! assert_eq!(format(&pos, m, Notation::Chinese), "炮二平五");
//! assert_eq!(parse(&pos, "C2.5").unwrap(), m);
//! assert_eq!(parse(&pos, "H2-E2").unwrap(), m);
//! ```
//!
//! WXF and Chinese name a move by its piece (with the file it stands on, or its place among
//! identical pieces on one file), a direction and a number; both follow the WXF/AXF notation
//! rules (<http://www.wxf.org/xq/computer/wxf_notation.html>): files count 1-9 from the
//! mover's right; two identical pieces on a file are front/rear (`C+`, `C-`; 前, 后); three
//! pawns `P+`, `P3`, `P-` (前, 中, 后); four or five `++`, `P+`, (`P3`,) `P-`, `--` (前, 二, 三,
//! 四, (五)); when two files hold tandem pawns the file is named too (`3+`, `33`, `3-`; 前三,
//! 中三, 后三); advisors and elephants are always named by their file, as their direction tells
//! two on a file apart.
//!
//! Writing is canonical; reading is lenient where it cannot be misread: `+C.5` as well as
//! `C+.5`, `=` for `.`, `N`/`B` for `H`/`E`, traditional or simplified glyphs, Arabic,
//! full-width or Chinese digits for either side, 一二三四五 for the places of four or five
//! pawns, and a file number for one of two pieces when only it can move.

mod chinese;
mod designator;
mod error;
mod iccs;
mod wxf;

pub use error::NotationError;

use crate::{Excerpt, Move, Position};
use core::fmt;
use core::str::FromStr;

/// The three notations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// `h2e2`: the from and to squares (files a-i from Red's left, ranks 0-9 from Red's side).
    Iccs,
    /// `C2.5`: the World Xiangqi Federation's letters and digits.
    Wxf,
    /// `炮二平五`: the traditional Chinese notation.
    Chinese,
}

impl Notation {
    /// The three notations: ICCS, WXF, Chinese.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The name as in PGN's `Format` tag: `ICCS`, `WXF` or `Chinese`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that is not `iccs`, `uci`, `wxf` or `chinese`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown notation {} (expected iccs, wxf or chinese)", Excerpt(&self.0))
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;
    /// Reads `iccs` (or `uci`), `wxf`, `chinese` (or `cn`, `中文`), in any case.
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "uci" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "cn" | "zh" | "中文" => Ok(Notation::Chinese),
            _ => Err(UnknownNotation(s.to_string())),
        }
    }
}

/// Writes the legal move `m` of `pos` in `notation`.
///
/// `m` must be legal in `pos`; for another move the text is well-formed but meaningless.
pub fn format(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => iccs::format(m),
        Notation::Wxf => wxf::format(&designator::describe(pos, m)),
        Notation::Chinese => chinese::format(&designator::describe(pos, m), pos.turn()),
    }
}

/// Reads a move in any of the three notations and returns the legal move it names.
///
/// The notation is told apart by [`detect`]; leading and trailing white space is ignored.
///
/// # Errors
///
/// A [`NotationError`] when the text is empty, does not read, names a piece the side to move
/// does not have there, fits no legal move, or fits more than one.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match detect(text) {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => designator::resolve(pos, &wxf::read(text)?, text),
        Notation::Chinese => designator::resolve(pos, &chinese::read(text)?, text),
    }
}

/// Reads a move in the given notation only.
///
/// ```
/// use xiangqi::notation::{parse_as, Notation};
/// use xiangqi::Position;
/// let pos = Position::startpos();
/// assert_eq!(parse_as(&pos, "C2.5", Notation::Wxf).unwrap().to_string(), "h2e2");
/// assert!(parse_as(&pos, "C2.5", Notation::Chinese).is_err());
/// ```
///
/// # Errors
///
/// As [`parse`]; text written in another notation is an error, not read as that notation.
pub fn parse_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match notation {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => designator::resolve(pos, &wxf::read(text)?, text),
        Notation::Chinese => designator::resolve(pos, &chinese::read(text)?, text),
    }
}

/// Writes a line of moves played from `start` (each must be legal in turn), one text per move:
/// the move list of a game in one notation.
///
/// ```
/// use xiangqi::notation::{format_line, Notation};
/// use xiangqi::{Move, Position};
/// let moves: Vec<Move> = ["h2e2", "h9g7"].iter().map(|m| m.parse().unwrap()).collect();
/// assert_eq!(format_line(&Position::startpos(), &moves, Notation::Chinese), ["炮二平五", "马8进7"]);
/// ```
pub fn format_line(start: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let text = format(&pos, m, notation);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

/// Reads a line of moves from `start`, each in any notation; the error gives the index of the
/// move that did not read.
///
/// ```
/// use xiangqi::notation::parse_line;
/// use xiangqi::Position;
/// let moves = parse_line(&Position::startpos(), &["C2.5", "马8进7", "h0g2"]).unwrap();
/// assert_eq!(moves.len(), 3);
/// assert_eq!(parse_line(&Position::startpos(), &["C2.5", "R1+9"]).unwrap_err().0, 1);
/// ```
pub fn parse_line<S: AsRef<str>>(start: &Position, texts: &[S]) -> Result<Vec<Move>, (usize, NotationError)> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let m = parse(&pos, t.as_ref()).map_err(|e| (i, e))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// Which notation `text` is written in: non-ASCII is Chinese, two squares are ICCS, the rest
/// is WXF.
pub fn detect(text: &str) -> Notation {
    let text = text.trim();
    if !text.is_ascii() {
        Notation::Chinese
    } else if iccs::looks_like(text) {
        Notation::Iccs
    } else {
        Notation::Wxf
    }
}
