//! `POST /api/xq/move`: reads a move typed in any notation (`炮二平五`, `C2.5`, `h2e2`) at the
//! end of a game and answers it in all three, or says precisely why it cannot be played
//! (the rule it breaks, from [`xiangqi::Position::why_illegal`]).

use super::xq_errors;
use super::xq_game::{replay, MoveView};
use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use serde::Deserialize;
use std::time::Duration;
use xiangqi::notation::{self, format, Notation, NotationError};
use xiangqi::Move;

/// A typed move is a few characters; a longer text is not one.
const MAX_TEXT_CHARS: usize = 32;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// The move to read, in ICCS, WXF or Chinese.
    pub text: String,
}

pub async fn read_move(Body(req): Body<MoveRequest>) -> Result<Json<MoveView>, ApiError> {
    if req.text.chars().count() > MAX_TEXT_CHARS {
        return Err(ApiError::bad_request(format!("a move is at most {MAX_TEXT_CHARS} characters")));
    }
    cpu::GAMES.run(Duration::from_secs(5), move || answer(&req)).await.map(Json)
}

fn answer(req: &MoveRequest) -> Result<MoveView, ApiError> {
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let mut pos = start;
    for &m in &moves {
        pos.play_unchecked(m);
    }
    let text = req.text.trim();
    let m = match notation::parse(&pos, text) {
        Ok(m) => m,
        // A well-formed ICCS move that is not legal: say which rule it breaks.
        Err(NotationError::Illegal { .. }) if text.parse::<Move>().is_ok() => {
            let m: Move = text.parse().expect("checked above");
            return Err(xq_errors::illegal_move(&pos, None, m));
        }
        Err(e) => return Err(xq_errors::bad_move(text, None, &e)),
    };
    Ok(MoveView {
        iccs: m.to_string(),
        wxf: format(&pos, m, Notation::Wxf),
        chinese: format(&pos, m, Notation::Chinese),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(moves: &[&str], text: &str) -> Result<MoveView, ApiError> {
        answer(&MoveRequest { fen: None, moves: moves.iter().map(|s| s.to_string()).collect(), text: text.into() })
    }

    #[test]
    fn reads_every_notation() {
        for text in ["炮二平五", "C2.5", "h2e2", " H2-E2 "] {
            let m = ask(&[], text).unwrap();
            assert_eq!((m.iccs.as_str(), m.wxf.as_str(), m.chinese.as_str()), ("h2e2", "C2.5", "炮二平五"), "{text}");
        }
        assert_eq!(ask(&["h2e2"], "马8进7").unwrap().iccs, "h9g7");
    }

    #[test]
    fn an_illegal_move_says_why_with_a_code() {
        let e = ask(&[], "b0b3").unwrap_err();
        assert_eq!(e.code, Some("illegal_move"));
        assert!(e.vars.contains(&("reason", "wrong_shape".into())), "{:?}", e.vars);
        assert!(e.vars.contains(&("piece", "horse".into())));
        let e = ask(&[], "a0a5").unwrap_err();
        assert!(e.message.contains("path is blocked"), "{}", e.message);
        let e = ask(&[], "xyz").unwrap_err();
        assert_eq!(e.code, Some("bad_move"));
    }
}
