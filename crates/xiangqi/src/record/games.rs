//! The games of a record one at a time, in any format.

use super::dhtmlxq::Blocks;
use super::{cbr, detect, text, xqf, Format, Location, RecordError, RecordErrorKind};
use crate::pgn::{decode, Games, PgnError, PgnGame};
use std::borrow::Cow;

/// Reads the games of a record in any of the formats one at a time, telling the format
/// apart with [`super::detect`]: the importer holds the file's text and the game it is on,
/// never the games before it. As [`super::import_all`] (which collects it): a game that does
/// not read is an error and does not stop the others, a file without any game gives one
/// [`RecordErrorKind::Empty`], and past [`super::MAX_RECORD_GAMES`] games comes one error and
/// the end.
///
/// ```
/// use xiangqi::record::{import_each, Format};
/// let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. zz *\n";
/// let mut games = import_each(text.as_bytes());
/// assert_eq!(games.format(), Format::Pgn);
/// assert_eq!(games.next().unwrap().unwrap().main_line().len(), 2);
/// assert_eq!(games.next().unwrap().unwrap_err().game, 2);
/// assert!(games.next().is_none());
/// ```
pub fn import_each(bytes: &[u8]) -> RecordGames<'_> {
    let format = detect(bytes);
    let source = match format {
        Format::Xqf => Source::One(Some(Box::new(xqf::read(bytes)))),
        Format::Cbr => Source::One(Some(Box::new(cbr::read(bytes)))),
        Format::Cbl => Source::Cbl(cbr::library(bytes)),
        Format::Pgn => Source::Pgn(Games::new(decode(bytes))),
        Format::DhtmlXq => {
            let text = decode(bytes);
            Source::DhtmlXq(Blocks::new(&text), text)
        }
        Format::Text => Source::One(Some(Box::new(text::read(&decode(bytes))))),
    };
    RecordGames { format, source, given: 0 }
}

/// The games of a record, one at a time: see [`import_each`].
pub struct RecordGames<'a> {
    format: Format,
    source: Source<'a>,
    /// Games (and errors) given so far.
    given: usize,
}

enum Source<'a> {
    /// XQF, ChessBridge records and plain text: one game, read at once.
    One(Option<Box<Result<PgnGame, RecordError>>>),
    Pgn(Games<'a>),
    DhtmlXq(Blocks, Cow<'a, str>),
    Cbl(cbr::Library<'a>),
}

impl RecordGames<'_> {
    /// The record's format.
    pub fn format(&self) -> Format {
        self.format
    }
}

fn pgn_error(e: PgnError) -> RecordError {
    let kind = match e.kind {
        crate::pgn::PgnErrorKind::TooManyGames => RecordErrorKind::TooManyGames,
        kind => RecordErrorKind::Pgn(kind),
    };
    RecordError { format: Format::Pgn, game: e.game, location: Location::Line(e.line), kind }
}

impl Iterator for RecordGames<'_> {
    type Item = Result<PgnGame, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = match &mut self.source {
            Source::One(game) => game.take().map(|g| *g),
            Source::Pgn(games) => games.next().map(|g| g.map_err(pgn_error)),
            Source::DhtmlXq(blocks, text) => blocks.next(text),
            Source::Cbl(games) => games.next(),
        };
        let next = match next {
            None if self.given == 0 => Some(Err(RecordError {
                format: self.format,
                game: 1,
                location: Location::Input,
                kind: RecordErrorKind::Empty,
            })),
            next => next,
        };
        self.given += usize::from(next.is_some());
        next
    }
}
