//! `/xq/game`: a game (start FEN and ICCS moves) checked by the rules library and described at
//! one ply: board, side to move, legal moves, check, the move list in notation.

use crate::error::{self, ApiError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use xiangqi::notation::{format, Notation};
use xiangqi::outcome::{Game, Outcome, Rules, Status};
use xiangqi::{Excerpt, Move, Position};

/// A game to describe.
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

/// One move in every notation.
#[derive(Serialize, Debug, Clone, Default)]
pub struct MoveView {
    /// `h2e2`.
    pub iccs: String,
    /// `C2.5`.
    pub wxf: String,
    /// `炮二平五`, `马8进7` (simplified characters).
    pub chinese: String,
    /// `炮二平五`, `馬８進７` (traditional characters).
    pub traditional: String,
    /// `P2-5`, `M8.7`.
    pub vietnamese: String,
}

impl MoveView {
    /// `m`, legal in `pos`, in every notation.
    pub fn new(pos: &Position, m: Move) -> MoveView {
        MoveView {
            iccs: m.to_string(),
            wxf: format(pos, m, Notation::Wxf),
            chinese: format(pos, m, Notation::Chinese),
            traditional: format(pos, m, Notation::Traditional),
            vietnamese: format(pos, m, Notation::Vietnamese),
        }
    }
}

/// A game described at one ply.
#[derive(Serialize, Debug)]
pub struct GameView {
    /// The start position, as FEN.
    pub start_fen: String,
    /// The ply described below and the number of moves in the game.
    pub ply: usize,
    /// The number of moves in the game.
    pub plies: usize,
    /// The position at `ply`.
    pub fen: String,
    /// `red` or `black`, to move at `ply`.
    pub turn: &'static str,
    /// Pieces by square name (`"e0": "K"`; upper case Red, FEN letters).
    pub board: BTreeMap<String, char>,
    /// Legal moves at `ply`, in ICCS.
    pub legal: Vec<String>,
    /// Whether the side to move is in check.
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
    /// Whether the game has ended.
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
    // Checked legal already; should they not be, the start position is judged.
    Game::from_moves(start.clone(), moves, Rules::default()).unwrap_or_else(|_| Game::new(start.clone())).status()
}

/// Reads the start position and plays the moves, saying precisely what is wrong if anything is.
pub fn replay(fen: Option<&str>, moves: &[String]) -> Result<(Position, Vec<Move>), ApiError> {
    let start = match fen.map(str::trim).filter(|f| !f.is_empty()) {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(|e| error::bad_fen(&e))?,
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
            return Err(error::illegal_move(&pos, Some(ply), m));
        }
        pos.play_unchecked(m);
        parsed.push(m);
    }
    Ok((start, parsed))
}

/// The game of `req` checked and described at its ply.
///
/// # Errors
/// A bad FEN, a move that does not read or is illegal, too many moves, a ply past the end.
pub fn describe(req: &GameRequest) -> Result<GameView, ApiError> {
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
        notated.push(MoveView::new(&pos, m));
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
