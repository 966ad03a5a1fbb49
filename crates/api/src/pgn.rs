//! `/xq/pgn/import`: the first game of a PGN text as start FEN and ICCS moves;
//! `/xq/pgn/export`: a game written as PGN in a chosen notation.

use crate::game::{replay, status_of};
use crate::ApiError;
use serde::{Deserialize, Serialize};
use xiangqi::notation::Notation;
use xiangqi::pgn::PgnGame;

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
    let (_, games) = xiangqi::record::import_all(text.as_bytes());
    let count = games.len();
    let game = games
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad_request("no game in the text").with_code("no_game", []))?
        .map_err(|e| {
            let line = match e.location {
                xiangqi::record::Location::Line(line) => line,
                _ => 0,
            };
            ApiError::bad_request(format!("bad {}: {e}", e.format.name()))
                .with_code("bad_pgn", [("line", line.to_string())])
        })?;
    Ok((game, count))
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
    /// `chinese` (default), `wxf` or `iccs`.
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
