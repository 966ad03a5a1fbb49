//! The explorer's answer for one position, merged over several collections: what `qi explore
//! --json`, the server's `/api/xq/explore` and the browser's module all print.

use crate::{Explorer, ExplorerError, DEPTH};
use serde::{Deserialize, Serialize};
use xiangqi::notation::{self, Notation};
use xiangqi::{Move, Position};

/// A request: a start position and moves from it, in any notation the rules read (`h2e2`,
/// `C2.5`, `炮二平五`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves played from it.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// The ECCO opening of the game that reached the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ecco {
    /// `C00`.
    pub code: String,
    /// `中炮对屏风马`.
    pub name_zh: String,
    /// `Central cannon vs screen horse`, where there is an English name.
    pub name_en: Option<String>,
}

/// The game to open for a move: the first one of the collection that played it here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Typical {
    /// Its name in its collection.
    pub id: String,
    /// Its start position.
    pub fen: String,
    /// All its moves, ICCS, space-separated.
    pub moves: String,
    /// `1-0`, `1/2-1/2`, `0-1` or `*`.
    pub result: &'static str,
    /// The ply at which it played the move (0 for its first move).
    pub ply: usize,
}

/// One move played from the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// ICCS (`h2e2`).
    #[serde(rename = "move")]
    pub mv: String,
    /// WXF (`C2.5`).
    pub wxf: String,
    /// Chinese (`炮二平五`).
    pub chinese: String,
    /// Chinese in traditional characters (`馬８進７`).
    pub traditional: String,
    /// Vietnamese (`P2-5`).
    pub vietnamese: String,
    /// Games that played it here.
    pub games: u32,
    /// Of them, Red won.
    pub red: u32,
    /// Of them, drawn.
    pub draw: u32,
    /// Of them, Black won (the rest have no known result).
    pub black: u32,
    /// A game to open.
    pub typical: Typical,
}

/// The explorer's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The position.
    pub fen: String,
    /// The opening of the game that reached it, if the table names one.
    pub ecco: Option<Ecco>,
    /// How many plies of each game are indexed ([`DEPTH`]): past it no move is listed.
    pub depth: usize,
    /// Games that played a move here (the sum over `moves`).
    pub total: u32,
    /// Of them, Red won.
    pub red: u32,
    /// Of them, drawn.
    pub draw: u32,
    /// Of them, Black won.
    pub black: u32,
    /// The moves, most played first.
    pub moves: Vec<MoveReport>,
}

/// Reads a request's position and moves.
///
/// # Errors
/// A FEN that does not read or a move that is not legal, saying which.
pub fn read_request(request: &Request) -> Result<(Position, Vec<Move>), ExplorerError> {
    let start = match request.fen.as_deref().map(str::trim) {
        None | Some("") | Some("startpos") => Position::startpos(),
        Some(fen) => Position::from_fen(fen).map_err(|e| ExplorerError(format!("bad FEN: {e}")))?,
    };
    xiangqi::check_game_length(request.moves.len()).map_err(|e| ExplorerError(e.to_string()))?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(request.moves.len());
    for (i, text) in request.moves.iter().enumerate() {
        let m = notation::parse(&pos, text).map_err(|e| ExplorerError(format!("move {}: {e}", i + 1)))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok((start, moves))
}

/// The answer to `request` from the collections in `sources`, their counts added up.
///
/// # Errors
/// What [`read_request`] refuses.
pub fn answer(request: &Request, sources: &[&Explorer]) -> Result<Report, ExplorerError> {
    let (start, moves) = read_request(request)?;
    Ok(explore(sources, &start, &moves))
}

/// The answer for the position `moves` (legal) reach from `start`, from the collections in
/// `sources`: their counts added up, the typical game from the first that played the move.
pub fn explore(sources: &[&Explorer], start: &Position, moves: &[Move]) -> Report {
    let mut pos = start.clone();
    for &m in moves {
        pos.play_unchecked(m);
    }
    let mut merged: Vec<MoveReport> = Vec::new();
    for source in sources {
        for s in source.moves(&pos) {
            if let Some(r) = merged.iter_mut().find(|r| r.mv == s.mv.to_string()) {
                r.games += s.games;
                r.red += s.red;
                r.draw += s.draw;
                r.black += s.black;
                continue;
            }
            let Some(game) = source.game(s.typical) else { continue };
            merged.push(MoveReport {
                mv: s.mv.to_string(),
                wxf: notation::format(&pos, s.mv, Notation::Wxf),
                chinese: notation::format(&pos, s.mv, Notation::Chinese),
                traditional: notation::format(&pos, s.mv, Notation::Traditional),
                vietnamese: notation::format(&pos, s.mv, Notation::Vietnamese),
                games: s.games,
                red: s.red,
                draw: s.draw,
                black: s.black,
                typical: Typical {
                    id: game.id.clone(),
                    fen: game.start.fen(),
                    moves: game.moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" "),
                    result: game.result.pgn(),
                    ply: s.typical_ply,
                },
            });
        }
    }
    merged.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.mv.cmp(&b.mv)));
    let ecco = xiangqi_opening::classify(start, moves).map(|o| Ecco {
        code: o.code.to_string(),
        name_zh: o.name_zh.to_string(),
        name_en: o.name_en.map(str::to_string),
    });
    Report {
        fen: pos.fen(),
        ecco,
        depth: DEPTH,
        total: merged.iter().map(|r| r.games).sum(),
        red: merged.iter().map(|r| r.red).sum(),
        draw: merged.iter().map(|r| r.draw).sum(),
        black: merged.iter().map(|r| r.black).sum(),
        moves: merged,
    }
}
