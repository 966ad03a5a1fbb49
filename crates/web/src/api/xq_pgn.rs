//! `POST /api/xq/pgn/import`: the first game of a PGN text as start FEN and ICCS moves;
//! `POST /api/xq/pgn/export`: a game written as PGN in a chosen notation.

use super::xq_game::{replay, status_of};
use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi::notation::Notation;
use xiangqi::outcome::Outcome;
use xiangqi::pgn::{self, PgnGame};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    pub pgn: String,
}

/// The first game of a PGN text and how many games the text holds; an error (with the code the
/// page translates) when there is none or the first one does not read.
pub(super) fn first_game(text: &str) -> Result<(PgnGame, usize), ApiError> {
    let games = pgn::read_games(text);
    let count = games.len();
    let game = games
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad_request("no game in the PGN text").with_code("no_game", []))?
        .map_err(|e| {
            ApiError::bad_request(format!("bad PGN: {e}")).with_code("bad_pgn", [("line", e.line.to_string())])
        })?;
    Ok((game, count))
}

/// The notation a request names, Chinese when it names none.
pub(super) fn notation_or_chinese(name: Option<&str>) -> Result<Notation, ApiError> {
    name.map_or(Ok(Notation::Chinese), |name| {
        name.parse::<Notation>().map_err(|e| ApiError::bad_request(e.to_string()))
    })
}

#[derive(Serialize)]
pub struct ImportedGame {
    pub start_fen: String,
    /// The main line in ICCS.
    pub moves: Vec<String>,
    pub tags: Vec<(String, String)>,
    /// Games found in the text (the first is imported).
    pub games: usize,
}

pub async fn import(Body(req): Body<ImportRequest>) -> Result<Json<ImportedGame>, ApiError> {
    cpu::GAMES
        .run(Duration::from_secs(5), move || {
            let (game, count) = first_game(&req.pgn)?;
            Ok(ImportedGame {
                start_fen: game.start.fen(),
                moves: game.main_line().iter().map(|m| m.to_string()).collect(),
                tags: game.tags,
                games: count,
            })
        })
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// `chinese` (default), `wxf` or `iccs`.
    #[serde(default)]
    pub notation: Option<String>,
}

#[derive(Serialize)]
pub struct ExportedGame {
    pub pgn: String,
}

pub async fn export(Body(req): Body<ExportRequest>) -> Result<Json<ExportedGame>, ApiError> {
    let notation = notation_or_chinese(req.notation.as_deref())?;
    cpu::GAMES
        .run(Duration::from_secs(5), move || {
            let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
            let mut game = PgnGame::new(start.clone(), &moves);
            let result = match status_of(&start, &moves).outcome {
                Outcome::RedWins => "1-0",
                Outcome::BlackWins => "0-1",
                Outcome::Draw => "1/2-1/2",
                Outcome::Ongoing => "*",
            };
            game.result = Some(result.to_string());
            Ok(ExportedGame { pgn: game.write(notation) })
        })
        .await
        .map(Json)
}
