//! `/xq/pgn/import`: the first game of a PGN text as start FEN and ICCS moves;
//! `/xq/pgn/export`: a game written as PGN in a chosen notation.

use crate::game::{replay, status_of};
use crate::ApiError;
use serde::{Deserialize, Serialize};
use xiangqi::notation::Notation;
use xiangqi::pgn::PgnGame;
use xiangqi::record::{Format, Location, RecordError, RecordErrorKind, Summary};

/// A PGN text to read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// One or more games; the first is read.
    pub pgn: String,
}

/// The first game of a record and how many games it holds: PGN, a DhtmlXQ block or plain
/// text pasted from a forum (`1. 炮二平五 马８进７ …`), told apart by `xiangqi::record`; an error
/// (with the code the page translates) when there is none or the first one does not read.
pub(crate) fn first_game(text: &str) -> Result<(PgnGame, usize), ApiError> {
    first_record_game(text.as_bytes()).map(|(_, game, count)| (game, count))
}

/// A game picked from a record: its format, the game, how many games the record holds, and
/// each game that reads with its number, its summary and (in a record of at most
/// [`LIST_LINES_MAX_GAMES`] games) its start and main line.
pub(crate) type PickedGame = (Format, PgnGame, usize, Vec<(usize, Summary, Option<Listed>)>);

/// A collection's games carry their main lines in its list (for the page's opening names and
/// the user's opening explorer, which holds as many) when it holds at most this many games.
pub const LIST_LINES_MAX_GAMES: usize = 5_000;

/// A listed game's start and main line.
pub(crate) struct Listed {
    /// The start position's FEN when it is not the standard one.
    pub fen: Option<String>,
    /// The main line in ICCS, space-separated.
    pub line: String,
}

impl Listed {
    fn of(game: &PgnGame) -> Listed {
        let fen = (game.start != xiangqi::Position::startpos()).then(|| game.start.fen());
        let line = game.line.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>().join(" ");
        Listed { fen, line }
    }
}

/// Game `n` (from 1, counting those that do not read) of a record file in any format, its
/// format, how many games the file holds, and the summary of each game that reads (with its
/// number): the list a collection is picked from. Errors as [`first_record_game`], for game
/// `n`; `no_game` with `n` when the file holds fewer.
pub(crate) fn record_game(bytes: &[u8], n: usize) -> Result<PickedGame, ApiError> {
    let mut games = xiangqi::record::import_each(bytes);
    let format = games.format();
    let mut chosen = None;
    let mut list = Vec::new();
    let mut count = 0;
    for (i, game) in games.by_ref().enumerate() {
        count = i + 1;
        match game {
            Ok(g) => {
                let listed = (list.len() < LIST_LINES_MAX_GAMES).then(|| Listed::of(&g));
                list.push((i + 1, Summary::of(&g), listed));
                if i + 1 == n {
                    chosen = Some(g);
                }
            }
            Err(e) if i + 1 == n || e.kind == RecordErrorKind::Empty => return Err(record_error(&e)),
            // A game that does not read is left out of the list; the others can be picked.
            Err(_) => {}
        }
    }
    // Lines for all the games or for none: a page adding the collection to its explorer adds all.
    if list.len() > LIST_LINES_MAX_GAMES {
        list.iter_mut().for_each(|(_, _, listed)| *listed = None);
    }
    let game = chosen.ok_or_else(|| {
        ApiError::bad_request(format!("the record holds {count} games; there is no game {n}"))
            .with_code("no_game", [("n", n.to_string())])
    })?;
    Ok((format, game, count, list))
}

/// The first game of a record file in any format (XQF's bytes, or text in UTF-8 or GBK), its
/// format and how many games the file holds. A game that does not read is `bad_pgn` (with its
/// line) for PGN, as the page always said, and `bad_record` for the other formats, with where
/// (`at`: `line`, `offset` or `input`, and `n`) and why (`reason`, plus the reason's values).
pub(crate) fn first_record_game(bytes: &[u8]) -> Result<(Format, PgnGame, usize), ApiError> {
    // The rest are only counted (the reader holds one game at a time).
    let mut games = xiangqi::record::import_each(bytes);
    let format = games.format();
    let game = games
        .next()
        .ok_or_else(|| ApiError::bad_request("no game in the text").with_code("no_game", []))?
        .map_err(|e| record_error(&e))?;
    Ok((format, game, 1 + games.count()))
}

fn record_error(e: &RecordError) -> ApiError {
    let (at, n) = match e.location {
        Location::Line(line) => ("line", line),
        Location::Offset(offset) => ("offset", offset),
        _ => ("input", 0),
    };
    let error = ApiError::bad_request(format!("bad {}: {e}", e.format.name()));
    if e.format == Format::Pgn {
        return error.with_code("bad_pgn", [("line", n.to_string())]);
    }
    let mut vars = vec![
        ("format", e.format.name().to_string()),
        ("at", at.to_string()),
        ("n", n.to_string()),
        ("detail", e.kind.to_string()),
    ];
    let reason = match &e.kind {
        RecordErrorKind::Empty => "empty",
        RecordErrorKind::Truncated => "truncated",
        RecordErrorKind::UnknownVersion(v) => {
            vars.push(("version", v.to_string()));
            "unknown_version"
        }
        RecordErrorKind::BadPosition(_) => "bad_position",
        RecordErrorKind::BadFen(_) => "bad_fen",
        RecordErrorKind::BadSquare(s) => {
            vars.push(("square", s.to_string()));
            "bad_square"
        }
        RecordErrorKind::BadPiece(p) => {
            vars.push(("code", format!("{p:#04x}")));
            "bad_piece"
        }
        RecordErrorKind::BadMove { ply, number, text, .. } => {
            vars.extend([
                ("ply", ply.to_string()),
                ("number", number.to_string()),
                ("text", text.chars().take(40).collect()),
            ]);
            "bad_move"
        }
        RecordErrorKind::CommentTooLong(_) => "comment_too_long",
        RecordErrorKind::TooManyMoves => "too_many_moves",
        RecordErrorKind::TooDeep => "too_deep",
        RecordErrorKind::TooLong(_) => "too_long",
        RecordErrorKind::DetachedBranch(_) => "detached_branch",
        _ => "other",
    };
    vars.push(("reason", reason.to_string()));
    error.with_code("bad_record", vars)
}

/// The notation a request names, Chinese when it names none.
pub(crate) fn notation_or_chinese(name: Option<&str>) -> Result<Notation, ApiError> {
    name.map_or(Ok(Notation::Chinese), |name| {
        name.parse::<Notation>().map_err(|e| ApiError::bad_request(e.to_string()))
    })
}

/// The first game of a PGN text, flat.
#[derive(Serialize)]
pub struct ImportedGame {
    /// The start position, as FEN.
    pub start_fen: String,
    /// The main line in ICCS.
    pub moves: Vec<String>,
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// Games found in the text (the first is imported).
    pub games: usize,
}

/// Reads the first game of `req.pgn`.
///
/// # Errors
/// No game in the text (`no_game`), or the first one does not read (`bad_pgn` with its line).
pub fn import(req: &ImportRequest) -> Result<ImportedGame, ApiError> {
    let (game, count) = first_game(&req.pgn)?;
    Ok(ImportedGame {
        start_fen: game.start.fen(),
        moves: game.main_line().iter().map(|m| m.to_string()).collect(),
        tags: game.tags,
        games: count,
    })
}

/// A game to write as PGN.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// ICCS moves.
    #[serde(default)]
    pub moves: Vec<String>,
    /// `chinese` (default), `traditional`, `vietnamese`, `wxf` or `iccs`.
    #[serde(default)]
    pub notation: Option<String>,
}

/// A game as PGN.
#[derive(Serialize)]
pub struct ExportedGame {
    /// The PGN text, its Result tag judged by the rules.
    pub pgn: String,
}

/// Writes the game of `req` as PGN.
///
/// # Errors
/// An unknown notation, a bad FEN or move.
pub fn export(req: &ExportRequest) -> Result<ExportedGame, ApiError> {
    let notation = notation_or_chinese(req.notation.as_deref())?;
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let mut game = PgnGame::new(start.clone(), &moves);
    game.result = Some(status_of(&start, &moves).outcome.pgn_result().to_string());
    Ok(ExportedGame { pgn: game.write(notation) })
}
