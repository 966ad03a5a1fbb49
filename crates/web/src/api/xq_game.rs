//! `POST /api/xq/game`: a game (start FEN and ICCS moves) checked by the rules library and
//! described at one ply: board, side to move, legal moves, check, the move list in notation.

use super::xq_errors;
use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;
use xiangqi::notation::{format, Notation};
use xiangqi::outcome::{Game, Outcome, Rules, Status};
use xiangqi::{Excerpt, Move, Position};

#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The start position; the standard one when absent or empty.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves in ICCS (`h2e2`), in order.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The ply to describe (0 = start); the last when absent.
    #[serde(default)]
    pub ply: Option<usize>,
}

/// One move in the three notations.
#[derive(Serialize, Debug, Clone)]
pub struct MoveView {
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
}

#[derive(Serialize, Debug)]
pub struct GameView {
    /// The start position, as FEN.
    pub start_fen: String,
    /// The ply described below and the number of moves in the game.
    pub ply: usize,
    pub plies: usize,
    /// The position at `ply`.
    pub fen: String,
    pub turn: &'static str,
    /// Pieces by square name (`"e0": "K"`; upper case Red, FEN letters).
    pub board: BTreeMap<String, char>,
    /// Legal moves at `ply`, in ICCS.
    pub legal: Vec<String>,
    pub check: bool,
    /// The move that led to `ply`, in ICCS.
    pub last: Option<String>,
    /// The whole game's moves.
    pub moves: Vec<MoveView>,
    /// Whether the game is over at `ply`, who won and why.
    pub status: StatusView,
    /// The whole game as a share link's query string (`g=...`, or the seed's `p=...&r=...&s=1`
    /// when the compact codec cannot write it), checked to decode back to this very game;
    /// absent when neither format can carry it.
    pub link: Option<String>,
}

/// The verdict of the game-end rules.
#[derive(Serialize, Debug)]
pub struct StatusView {
    pub over: bool,
    /// `red` or `black`; absent for a draw or a game still going.
    pub winner: Option<&'static str>,
    /// `checkmate`, `stalemate`, `perpetual check`, `perpetual chase`, `repetition`,
    /// `move limit` or `no attackers`.
    pub reason: Option<&'static str>,
}

impl From<Status> for StatusView {
    fn from(status: Status) -> StatusView {
        let winner = match status.outcome {
            Outcome::RedWins => Some("red"),
            Outcome::BlackWins => Some("black"),
            Outcome::Draw | Outcome::Ongoing => None,
        };
        StatusView { over: status.is_over(), winner, reason: status.reason.map(|r| r.name()) }
    }
}

/// Judges the game made of `moves` (legal, as [`replay`] checked them) from `start`.
pub fn status_of(start: &Position, moves: &[Move]) -> Status {
    let mut game = Game::with_rules(start.clone(), Rules::default());
    for &m in moves {
        // Already checked legal; a failure here would only cut the judged game short.
        if game.play(m).is_err() {
            break;
        }
    }
    game.status()
}

pub async fn handle(Body(req): Body<GameRequest>) -> Result<Json<GameView>, ApiError> {
    cpu::GAMES.run(Duration::from_secs(5), move || view(&req)).await.map(Json)
}

/// Reads the start position and plays the moves, saying precisely what is wrong if anything is.
pub fn replay(fen: Option<&str>, moves: &[String]) -> Result<(Position, Vec<Move>), ApiError> {
    let start = match fen.map(str::trim).filter(|f| !f.is_empty()) {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(|e| xq_errors::bad_fen(&e))?,
    };
    xiangqi::check_game_length(moves.len()).map_err(|e| {
        ApiError::bad_request(e.to_string()).with_code("too_many_moves", [("max", xiangqi::MAX_GAME_PLIES.to_string())])
    })?;
    let mut pos = start.clone();
    let mut parsed = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let m: Move = text.parse().map_err(|e| {
            ApiError::bad_request(format!("move {ply} {}: {e}", Excerpt(text)))
                .with_code("bad_move", [("text", text.clone()), ("ply", ply.to_string()), ("reason", "syntax".into())])
        })?;
        if !pos.is_legal(m) {
            return Err(xq_errors::illegal_move(&pos, Some(ply), m));
        }
        pos.play_unchecked(m);
        parsed.push(m);
    }
    Ok((start, parsed))
}

fn view(req: &GameRequest) -> Result<GameView, ApiError> {
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let ply = req.ply.unwrap_or(moves.len());
    if ply > moves.len() {
        return Err(ApiError::bad_request(format!("ply {ply} is past the end of the game ({} moves)", moves.len())));
    }
    let mut pos = start.clone();
    let mut notated = Vec::with_capacity(moves.len());
    let mut at_ply = None;
    for (i, &m) in moves.iter().enumerate() {
        if i == ply {
            at_ply = Some(pos.clone());
        }
        notated.push(MoveView {
            iccs: m.to_string(),
            wxf: format(&pos, m, Notation::Wxf),
            chinese: format(&pos, m, Notation::Chinese),
        });
        pos.play_unchecked(m);
    }
    let pos = at_ply.unwrap_or(pos);
    Ok(GameView {
        start_fen: start.fen(),
        ply,
        plies: moves.len(),
        fen: pos.fen(),
        turn: pos.turn().name(),
        board: pos.pieces().map(|(sq, p)| (sq.to_string(), p.fen_char())).collect(),
        legal: pos.legal_moves().iter().map(|m| m.to_string()).collect(),
        check: pos.is_check(),
        last: ply.checked_sub(1).map(|i| moves[i].to_string()),
        moves: notated,
        status: status_of(&start, &moves[..ply]).into(),
        link: xiangqi_link::share_query(&start, &moves).ok(),
    })
}
