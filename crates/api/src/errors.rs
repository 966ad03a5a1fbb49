//! Errors about games with a code and values, so the page can say them in the user's language
//! (the English message stays for other clients): bad FENs, illegal moves with the rule they
//! break, moves that do not read.

use crate::ApiError;
use xiangqi::notation::{self, Notation, NotationError};
use xiangqi::{FenError, Move, Piece, Position, PositionError};

/// `bad_fen`, with `reason` (`missing_king`, `too_many`, `row_length`, ...) and its details.
pub fn bad_fen(error: &FenError) -> ApiError {
    let mut vars = Vec::new();
    let reason = match error {
        FenError::Empty => "empty",
        FenError::RowCount { found } => {
            vars.push(("found", found.to_string()));
            "row_count"
        }
        FenError::RowLength { row, points } => {
            vars.extend([("row", row.to_string()), ("found", points.to_string())]);
            "row_length"
        }
        FenError::BadChar { row, ch } => {
            vars.extend([("row", row.to_string()), ("found", ch.to_string())]);
            "bad_char"
        }
        FenError::BadTurn { found } => {
            vars.push(("found", found.clone()));
            "bad_turn"
        }
        FenError::BadCounter { found, .. } => {
            vars.push(("found", found.clone()));
            "bad_counter"
        }
        FenError::TooManyFields => "too_many_fields",
        FenError::Position(e) => position_reason(e, &mut vars),
        #[allow(unreachable_patterns)] // should the library add reasons
        _ => "other",
    };
    vars.push(("reason", reason.to_string()));
    ApiError::bad_request(format!("bad FEN: {error}")).with_code("bad_fen", vars)
}

fn position_reason(error: &PositionError, vars: &mut Vec<(&'static str, String)>) -> &'static str {
    match *error {
        PositionError::MissingKing(color) => {
            vars.push(("color", color.name().to_string()));
            "missing_king"
        }
        PositionError::TooMany { piece, count } => {
            piece_vars(piece, vars);
            vars.extend([("count", count.to_string()), ("max", piece.kind.initial_count().to_string())]);
            "too_many"
        }
        PositionError::KingOutsidePalace { color, square } => {
            vars.extend([("color", color.name().to_string()), ("square", square.to_string())]);
            "king_outside_palace"
        }
        PositionError::ImpossibleSquare { piece, square } => {
            piece_vars(piece, vars);
            vars.push(("square", square.to_string()));
            "impossible_square"
        }
        PositionError::FacingKings => "facing_kings",
        PositionError::OpponentInCheck => "opponent_in_check",
        #[allow(unreachable_patterns)]
        _ => "other",
    }
}

fn piece_vars(piece: Piece, vars: &mut Vec<(&'static str, String)>) {
    vars.extend([("color", piece.color.name().to_string()), ("piece", piece.kind.name().to_string())]);
}

/// `illegal_move`: `m` cannot be played in `pos`; `reason` names the rule
/// ([`Position::why_illegal`]), `piece`/`square` its details, `ply` where in the game.
pub fn illegal_move(pos: &Position, ply: Option<usize>, m: Move) -> ApiError {
    let reason = pos.why_illegal(m);
    let mut vars = vec![("move", m.to_string())];
    if let Some(ply) = ply {
        vars.push(("ply", ply.to_string()));
    }
    // The move as the player wrote it, in every notation (readable even when illegal, as long
    // as the side to move has a piece on its start point).
    if pos.piece_at(m.from()).is_some_and(|p| p.color == pos.turn()) && m.from() != m.to() {
        vars.push(("wxf", notation::format(pos, m, Notation::Wxf)));
        vars.push(("chinese", notation::format(pos, m, Notation::Chinese)));
        vars.push(("traditional", notation::format(pos, m, Notation::Traditional)));
        vars.push(("vietnamese", notation::format(pos, m, Notation::Vietnamese)));
    }
    if let Some(reason) = reason {
        vars.push(("reason", reason.code().replace(' ', "_")));
        if let Some(piece) = reason.piece() {
            piece_vars(piece, &mut vars);
        }
        if let Some(square) = reason.square() {
            vars.push(("square", square.to_string()));
        }
    }
    let why = reason.map_or_else(String::new, |r| format!(": {r}"));
    let message = match ply {
        Some(ply) => format!("move {ply} {m} is illegal{why}"),
        None => format!("{m} is illegal{why}"),
    };
    ApiError::bad_request(message).with_code("illegal_move", vars)
}

/// `bad_move`: a move text that does not read (or fits several moves), at `ply` if known.
pub fn bad_move(text: &str, ply: Option<usize>, error: &NotationError) -> ApiError {
    let mut vars = vec![("text", text.to_string())];
    if let Some(ply) = ply {
        vars.push(("ply", ply.to_string()));
    }
    let reason = match error {
        NotationError::Empty => "empty",
        NotationError::Syntax { .. } | NotationError::UnknownPiece(_) => "syntax",
        NotationError::NoSuchPiece { kind } => {
            vars.push(("piece", kind.name().to_string()));
            "no_such_piece"
        }
        NotationError::Ambiguous { .. } => "ambiguous",
        NotationError::Illegal { .. } => "illegal",
        #[allow(unreachable_patterns)]
        _ => "other",
    };
    vars.push(("reason", reason.to_string()));
    let message = match ply {
        Some(ply) => format!("move {ply} {text:?}: {error}"),
        None => format!("{text:?}: {error}"),
    };
    ApiError::bad_request(message).with_code("bad_move", vars)
}
