//! Telling the formats apart, and the one importer.

use super::{cbr, dhtmlxq, xqf, Format, RecordError};
use crate::pgn::{decode, PgnGame};

/// Which format `bytes` are in: XQF and ChessBridge by their magic bytes, DhtmlXQ by its tags, PGN by a tag
/// pair (`[Event "..."]`) or a PGN move number followed by a variation or comment, anything
/// else is plain text.
///
/// ```
/// use xiangqi::record::{detect, Format};
/// assert_eq!(detect(b"[Event \"x\"]\n1. h2e2 *"), Format::Pgn);
/// assert_eq!(detect("[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]".as_bytes()), Format::DhtmlXq);
/// assert_eq!(detect("炮二平五 马8进7".as_bytes()), Format::Text);
/// ```
pub fn detect(bytes: &[u8]) -> Format {
    if xqf::looks_like(bytes) {
        return Format::Xqf;
    }
    if cbr::looks_like(bytes) {
        return if bytes.starts_with(cbr::LIBRARY_MAGIC) { Format::Cbl } else { Format::Cbr };
    }
    detect_text(&decode(bytes))
}

fn detect_text(text: &str) -> Format {
    if dhtmlxq::looks_like(text) {
        return Format::DhtmlXq;
    }
    let is_tag = |l: &str| {
        let l = l.trim();
        l.starts_with('[')
            && l.ends_with(']')
            && l.contains('"')
            && l[1..].starts_with(|c: char| c.is_ascii_alphabetic())
    };
    if text.lines().take(200).any(is_tag) {
        return Format::Pgn;
    }
    Format::Text
}

/// Reads every game of a record in any of the four formats, telling the format apart with
/// [`detect`]; a game that does not read is an error, and does not stop the others (PGN,
/// DhtmlXQ and ChessBridge libraries hold several games, at most [`super::MAX_RECORD_GAMES`]; XQF and plain text one).
/// [`super::import_each`] gives them one at a time.
pub fn import_all(bytes: &[u8]) -> (Format, Vec<Result<PgnGame, RecordError>>) {
    let games = super::import_each(bytes);
    (games.format(), games.collect())
}

/// Reads a record in any format (see [`import_all`]): the format and its games.
///
/// ```
/// let (format, games) = xiangqi::record::import(b"h2e2 h9g7").unwrap();
/// assert_eq!((format.name(), games[0].main_line().len()), ("text", 2));
/// assert!(xiangqi::record::import(b"XQ\x0a\x00").is_err());
/// ```
///
/// # Errors
///
/// The first game that does not read, as a [`RecordError`] that says where and why.
pub fn import(bytes: &[u8]) -> Result<(Format, Vec<PgnGame>), RecordError> {
    let (format, games) = import_all(bytes);
    Ok((format, games.into_iter().collect::<Result<_, _>>()?))
}
