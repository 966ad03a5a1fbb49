//! `/xq/move`: reads a move typed in any notation (`炮二平五`, `C2.5`, `h2e2`) at the
//! end of a game and answers it in all three, or says precisely why it cannot be played
//! (the rule it breaks, from [`xiangqi::Position::why_illegal`]).

use crate::error;
use crate::game::{replay, MoveView};
use crate::ApiError;
use serde::Deserialize;
use xiangqi::notation::{self, NotationError};
use xiangqi::Move;

/// A typed move is a few characters; a longer text is not one.
const MAX_TEXT_CHARS: usize = 32;

/// A move typed at the end of a game.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The game's ICCS moves so far.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The move to read, in ICCS, WXF or Chinese.
    pub text: String,
}

/// Reads `req.text` in the position at the end of the game.
///
/// # Errors
/// A bad game, a text that does not read (`bad_move`) or an illegal move (`illegal_move` with
/// the rule it breaks).
pub fn read_move(req: &MoveRequest) -> Result<MoveView, ApiError> {
    if req.text.chars().count() > MAX_TEXT_CHARS {
        return Err(ApiError::bad_request(format!("a move is at most {MAX_TEXT_CHARS} characters")));
    }
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
            return Err(error::illegal_move(&pos, None, m));
        }
        Err(e) => return Err(error::bad_move(text, None, &e)),
    };
    Ok(MoveView::new(&pos, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(moves: &[&str], text: &str) -> Result<MoveView, ApiError> {
        read_move(&MoveRequest { fen: None, moves: moves.iter().map(|s| s.to_string()).collect(), text: text.into() })
    }

    #[test]
    fn reads_every_notation() {
        for text in ["炮二平五", "C2.5", "h2e2", " H2-E2 "] {
            let m = ask(&[], text).unwrap();
            assert_eq!((m.iccs.as_str(), m.wxf.as_str(), m.chinese.as_str()), ("h2e2", "C2.5", "炮二平五"), "{text}");
            assert_eq!((m.traditional.as_str(), m.vietnamese.as_str()), ("炮二平五", "P2-5"), "{text}");
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
