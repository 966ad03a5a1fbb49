//! Game records from other Xiangqi programs: XQF (XQStudio's binary files), 象棋桥
//! (ChessBridge) records and libraries (`.cbr`, `.cbl`), DhtmlXQ blocks (dpxq.com and the
//! forums that copy its viewer), plain text pasted from a forum, and PGN.
//!
//! [`import`] tells the format apart by itself (XQF and ChessBridge by their magic bytes, DhtmlXQ by its tags,
//! PGN by its tag pairs, anything else as text) and returns the games as [`PgnGame`]s: the
//! start position, the headers as tags, the move tree with comments and variations. Every
//! reader is bounded (plies by [`crate::MAX_GAME_PLIES`], the tree by [`MAX_TREE_MOVES`],
//! nesting by [`MAX_VARIATION_DEPTH`], comments by [`MAX_COMMENT_BYTES`], a file by
//! [`MAX_RECORD_GAMES`]) and reports hostile input as a [`RecordError`] that says where: a file
//! offset in XQF, a line elsewhere. [`import_each`] gives the games one at a time, so that a
//! caller that does not keep them holds the file and one game, however many games it holds.
//!
//! ```
//! use xiangqi::record::{import, Format};
//! let text = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 红胜";
//! let (format, games) = import(text.as_bytes()).unwrap();
//! assert_eq!(format, Format::Text);
//! let game = &games[0];
//! assert_eq!(game.main_line().len(), 4);
//! assert_eq!(game.result.as_deref(), Some("1-0"));
//! // Written as DhtmlXQ and read back: the same moves.
//! let block = xiangqi::record::dhtmlxq::write(game);
//! let (format, again) = import(block.as_bytes()).unwrap();
//! assert_eq!((format, again[0].main_line()), (Format::DhtmlXq, game.main_line()));
//! ```

pub mod cbr;
mod detect;
pub mod dhtmlxq;
mod dhtmlxq_records;
mod error;
mod games;
mod summary;
pub mod text;
mod tree;
pub mod xqf;

pub use detect::{detect, import, import_all};
pub use error::{Location, RecordError, RecordErrorKind};
pub use games::{import_each, RecordGames};
pub use summary::{result_marker, Summary};
pub use tree::{count_comments, count_variations};

pub use crate::pgn::{
    Line, PgnGame, PgnMove, MAX_COMMENT_BYTES, MAX_GAME_TOKENS, MAX_RECORD_GAMES, MAX_VARIATION_DEPTH,
};
use core::fmt;

/// The most moves a record's tree may hold, counting every variation.
///
/// The largest annotated collections hold a few tens of thousands; the bound keeps a hostile
/// file from asking for more memory than its own size suggests.
pub const MAX_TREE_MOVES: usize = 200_000;

/// The record formats Qi reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// XQStudio's binary `.xqf` file.
    Xqf,
    /// A 象棋桥 (ChessBridge) record, `.cbr`.
    Cbr,
    /// A 象棋桥 (ChessBridge) library of records, `.cbl`.
    Cbl,
    /// `[DhtmlXQ]...[/DhtmlXQ]` blocks.
    DhtmlXq,
    /// PGN with Xiangqi moves.
    Pgn,
    /// Moves as plain text (Chinese, WXF or ICCS), with or without a FEN.
    Text,
}

impl Format {
    /// The name used on the command line and in JSON: `xqf`, `cbr`, `cbl`, `dhtmlxq`, `pgn`,
    /// `text`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Xqf => "xqf",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::DhtmlXq => "dhtmlxq",
            Format::Pgn => "pgn",
            Format::Text => "text",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a result written as PGN (`1-0`), in Chinese (`红胜`, `黑负`, `和棋`...) or as an
/// unknown (`*`, `未知`), into the PGN marker.
///
/// ```
/// use xiangqi::record::parse_result;
/// assert_eq!(parse_result("红胜"), Some("1-0"));
/// assert_eq!(parse_result("黑勝"), Some("0-1"));
/// assert_eq!(parse_result("红方胜"), Some("1-0"));
/// assert_eq!(parse_result("红先负"), Some("0-1"));
/// assert_eq!(parse_result("和局"), Some("1/2-1/2"));
/// assert_eq!(parse_result("未知"), Some("*"));
/// assert_eq!(parse_result("炮二平五"), None);
/// ```
pub fn parse_result(text: &str) -> Option<&'static str> {
    let t = text.trim();
    Some(match t {
        "1-0" | "红胜" | "紅勝" | "红先胜" | "紅先勝" | "红方胜" | "紅方勝" | "黑负" | "黑負" | "黑方负" | "黑方負"
        | "红胜利" => "1-0",
        "0-1" | "黑胜" | "黑勝" | "黑方胜" | "黑方勝" | "红负" | "紅負" | "红方负" | "紅方負" | "红先负" | "紅先負" => {
            "0-1"
        }
        "1/2-1/2" | "½-½" | "和" | "和棋" | "和局" | "红和" | "紅和" | "红先和" | "紅先和" => {
            "1/2-1/2"
        }
        "*" | "未知" | "" => "*",
        _ => return None,
    })
}
