//! The API's error, the one type every part of Qi answers a client with (the server through
//! its `axum` feature, the browser through `qi-wasm`): an HTTP status, a message, and, when a
//! page should say it in the user's language, a `code` and its `vars`. Below it, the errors
//! about games that carry a code: bad FENs, illegal moves with the rule they break, moves that
//! do not read.

use xiangqi::notation::{self, Notation, NotationError};
use xiangqi::{FenError, Move, Piece, Position, PositionError};

/// An error answered to the client. Bad input is always a 4xx with a message saying what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status the server answers with (400, 404, 422, 429, ...).
    pub status: u16,
    /// What is wrong, in English, at most [`MAX_MESSAGE_BYTES`].
    pub message: String,
    /// A stable name of the error (`"illegal_move"`) that the page translates, with the values
    /// its text needs; `None` for errors only shown as they are.
    pub code: Option<&'static str>,
    /// The values the translated text needs (`("ply", "3")`).
    pub vars: Vec<(&'static str, String)>,
}

/// Longest message sent; a longer one (a serde error quoting a whole field, a long path) keeps
/// its start and its end. Messages built here quote input through `xiangqi::Excerpt`.
pub const MAX_MESSAGE_BYTES: usize = 300;

impl ApiError {
    /// An error with `status` and `message` (shortened to [`MAX_MESSAGE_BYTES`]).
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError { status, message: shorten(message.into()), code: None, vars: Vec::new() }
    }

    /// The same error with a code for the page to translate and the values its text needs.
    pub fn with_code(mut self, code: &'static str, vars: impl IntoIterator<Item = (&'static str, String)>) -> ApiError {
        self.code = Some(code);
        self.vars.extend(vars);
        self
    }

    /// 400: the request is well formed but its content is wrong (bad FEN, illegal move...).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 404: no such thing (an unknown endpoint).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 422: the content is valid but cannot be processed (e.g. no puzzle fits the request).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }

    /// The error as the JSON body every client reads: `{"error"}`, plus `code` and `vars`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut body = serde_json::Map::new();
        body.insert("error".into(), self.message.clone().into());
        if let Some(code) = self.code {
            let vars: serde_json::Map<String, serde_json::Value> =
                self.vars.iter().map(|(k, v)| (k.to_string(), v.clone().into())).collect();
            body.insert("code".into(), code.into());
            body.insert("vars".into(), vars.into());
        }
        body.into()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

/// The message cut to [`MAX_MESSAGE_BYTES`] or a little less: its first 200 and last 80
/// bytes (on character boundaries), joined by `…`.
fn shorten(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let mut head = 200;
    while !message.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = message.len() - 80;
    while !message.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}…{}", &message[..head], &message[tail..])
}

/// The answer a server sends: the status, and the JSON body of [`ApiError::to_json`].
#[cfg(feature = "axum")]
impl axum::response::IntoResponse for ApiError {
    fn into_response(self) -> axum::response::Response {
        let status =
            axum::http::StatusCode::from_u16(self.status).unwrap_or(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.to_json())).into_response()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_keep_their_start_and_end() {
        let quoted = "象".repeat(20_000);
        let error = ApiError::bad_request(format!("invalid type: string \"{quoted}\", expected a move at column 9"));
        assert!(error.message.len() <= MAX_MESSAGE_BYTES, "{}", error.message.len());
        assert!(error.message.starts_with("invalid type: string \"象"), "{}", error.message);
        assert!(error.message.ends_with("expected a move at column 9"), "{}", error.message);
        assert_eq!(ApiError::bad_request("short").message, "short");
    }

    #[test]
    fn the_json_body_carries_code_and_vars_only_when_coded() {
        assert_eq!(ApiError::bad_request("x").to_json(), serde_json::json!({"error": "x"}));
        let coded = ApiError::bad_request("x").with_code("busy", [("n", "2".to_string())]);
        assert_eq!(coded.to_json(), serde_json::json!({"error": "x", "code": "busy", "vars": {"n": "2"}}));
    }
}
