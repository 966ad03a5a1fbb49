//! Move notation: ICCS (`h2e2`), WXF (`C2.5`), Chinese in simplified (`马8进7`) or
//! traditional characters (`馬８進７`), and Vietnamese (`M8.7`).
//!
//! [`format()`] writes a legal move in one notation; [`parse`] reads a move in any of them
//! (it tells them apart by their characters) and returns the legal move it names.
//!
//! ```
//! use xiangqi::notation::{format, parse, Notation};
//! use xiangqi::Position;
//! let pos = Position::startpos();
//! let m = parse(&pos, "炮二平五").unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(format(&pos, m, Notation::Wxf), "C2.5");
//! assert_eq!(format(&pos, m, Notation::Chinese), "炮二平五");
//! assert_eq!(format(&pos, m, Notation::Vietnamese), "P2-5");
//! assert_eq!(parse(&pos, "X2/1").unwrap_err().to_string(), "no such rook to move");
//! assert_eq!(parse(&pos, "C2.5").unwrap(), m);
//! assert_eq!(parse(&pos, "H2-E2").unwrap(), m);
//! ```
//!
//! WXF, Chinese and Vietnamese name a move by its piece (with the file it stands on, or its place among
//! identical pieces on one file), a direction and a number; both follow the WXF/AXF notation
//! rules (<http://www.wxf.org/xq/computer/wxf_notation.html>): files count 1-9 from the
//! mover's right; two identical pieces on a file are front/rear (`C+`, `C-`; 前, 后); three
//! pawns `P+`, `P3`, `P-` (前, 中, 后); four or five `++`, `P+`, (`P3`,) `P-`, `--` (前, 二, 三,
//! 四, (五)); when two files hold tandem pawns the file is named too (`3+`, `33`, `3-`; 前三,
//! 中三, 后三); advisors and elephants are always named by their file, as their direction tells
//! two on a file apart.
//!
//! Vietnamese writes the same facts with its own letters and signs (`X1/1`, `Pt-5`, `2B.1`;
//! see the [`Notation::Vietnamese`] variant).
//!
//! Writing is canonical; reading is lenient where it cannot be misread: `+C.5` as well as
//! `C+.5`, `=` for `.`, `N`/`B` for `H`/`E`, traditional or simplified glyphs, Arabic,
//! full-width or Chinese digits for either side, 一二三四五 for the places of four or five
//! pawns, and a file number for one of two pieces when only it can move.
//!
//! Vietnamese and WXF share two letters: `P` (pháo, the cannon, but the WXF pawn) and `B`
//! (binh, the pawn, but a WXF elephant). [`parse`] reads a move that fits both, such as `P3.4`,
//! as WXF, and as Vietnamese only when the WXF reading fits no legal move; [`parse_as`] with
//! [`Notation::Vietnamese`] never guesses.

mod chinese;
mod designator;
mod error;
mod fullwidth;
mod iccs;
mod vietnamese;
mod wxf;

pub use error::NotationError;

use crate::{Excerpt, Move, Position};
use chinese::Script;
use core::fmt;
use core::str::FromStr;

/// The notations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Notation {
    /// `h2e2`: the from and to squares (files a-i from Red's left, ranks 0-9 from Red's side).
    Iccs,
    /// `C2.5`: the World Xiangqi Federation's letters and digits.
    Wxf,
    /// `炮二平五`, `马8进7`: the Chinese notation in simplified characters.
    Chinese,
    /// `炮二平五`, `馬８進７`: the Chinese notation in traditional characters, as Taiwan and
    /// Hong Kong print it (帥傌俥 for Red, 將馬車 for Black, 進, 後, Black's numbers full-width).
    /// Read as [`Notation::Chinese`], which takes either script.
    Traditional,
    /// `P2-5`, `M8.7`, `X1/1`, `Xt.1`: the Vietnamese notation. Letters `Tg` (tướng), `S` (sĩ),
    /// `T` (tượng), `X` (xe), `P` (pháo), `M` (mã), `B` (binh / tốt); files counted 1-9 from
    /// the mover's right; `.` advances, `/` retreats, `-` moves sideways; two identical pieces
    /// on a file are `t` (trước, front) and `s` (sau, rear) in place of the file, three or
    /// more pawns their order from the front before the letter (`1B.1`, `2B.1`, `3B.1`).
    Vietnamese,
}

impl Notation {
    /// Every notation: ICCS, WXF, Chinese, Traditional, Vietnamese.
    pub const ALL: [Notation; 5] =
        [Notation::Iccs, Notation::Wxf, Notation::Chinese, Notation::Traditional, Notation::Vietnamese];

    /// The name: `ICCS`, `WXF`, `Chinese`, `Traditional` or `Vietnamese` (PGN's `Format` tag
    /// writes `Chinese` for both scripts).
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::Traditional => "Traditional",
            Notation::Vietnamese => "Vietnamese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that is not one of those [`Notation`]'s `from_str` reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNotation(pub String);

impl fmt::Display for UnknownNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown notation {} (expected iccs, wxf, chinese, traditional or vietnamese)", Excerpt(&self.0))
    }
}

impl std::error::Error for UnknownNotation {}

impl FromStr for Notation {
    type Err = UnknownNotation;
    /// Reads `iccs` (or `uci`), `wxf`, `chinese` (or `cn`, `zh`, `zh-hans`, `simplified`,
    /// `中文`, `简体`), `traditional` (or `zh-hant`, `繁體`, `繁体`), `vietnamese` (or `vi`), in
    /// any case.
    fn from_str(s: &str) -> Result<Notation, UnknownNotation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "iccs" | "uci" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" | "cn" | "zh" | "zh-hans" | "simplified" | "中文" | "简体" => Ok(Notation::Chinese),
            "traditional" | "zh-hant" | "繁體" | "繁体" => Ok(Notation::Traditional),
            "vietnamese" | "vi" => Ok(Notation::Vietnamese),
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
        Notation::Chinese => chinese::format(&designator::describe(pos, m), pos.turn(), Script::Simplified),
        Notation::Traditional => chinese::format(&designator::describe(pos, m), pos.turn(), Script::Traditional),
        Notation::Vietnamese => vietnamese::format(&designator::describe(pos, m)),
    }
}

/// Reads a move in any notation and returns the legal move it names.
///
/// The notation is told apart by [`detect`]; leading and trailing white space is ignored. A
/// move that reads both as WXF and as Vietnamese (`P3.4`) is WXF unless that fits no legal
/// move.
///
/// # Errors
///
/// A [`NotationError`] when the text is empty, does not read, names a piece the side to move
/// does not have there, fits no legal move, or fits more than one.
pub fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = &*fullwidth::fold_ascii(text.trim());
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match detect(text) {
        Notation::Wxf if vietnamese::might_be(text) => {
            let wxf = parse_as(pos, text, Notation::Wxf);
            match wxf {
                Ok(m) => Ok(m),
                Err(e) => parse_as(pos, text, Notation::Vietnamese).map_err(|_| e),
            }
        }
        n => parse_as(pos, text, n),
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
    let text = &*fullwidth::fold_ascii(text.trim());
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match notation {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => designator::resolve(pos, &wxf::read(text)?, text),
        Notation::Chinese | Notation::Traditional => designator::resolve(pos, &chinese::read(text)?, text),
        Notation::Vietnamese => designator::resolve(pos, &vietnamese::read(text)?, text),
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

/// Which notation `text` is written in (full-width forms read as ASCII): non-ASCII is Chinese
/// (either script: never [`Notation::Traditional`]), two squares are ICCS, letters or signs
/// only Vietnamese has (`X`, `M`, `T`, `S`, `/`, `Pt`) are Vietnamese, the rest is WXF.
///
/// ```
/// use xiangqi::notation::{detect, Notation};
/// assert_eq!(detect("馬８進７"), Notation::Chinese);
/// assert_eq!(detect("M8.7"), Notation::Vietnamese);
/// assert_eq!(detect("Ｘ１／１"), Notation::Vietnamese);
/// assert_eq!(detect("H8+7"), Notation::Wxf);
/// assert_eq!(detect("P3.4"), Notation::Wxf);
/// assert_eq!(detect("Ｃ２．５"), Notation::Wxf);
/// ```
pub fn detect(text: &str) -> Notation {
    let text = &*fullwidth::fold_ascii(text.trim());
    if !text.is_ascii() {
        Notation::Chinese
    } else if iccs::looks_like(text) {
        Notation::Iccs
    } else if vietnamese::looks_like(text) {
        Notation::Vietnamese
    } else {
        Notation::Wxf
    }
}
