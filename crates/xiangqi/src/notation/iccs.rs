//! ICCS (and UCI): `h2e2`, also read as `H2-E2`.

use super::NotationError;
use crate::{Move, Position};

/// `h2e2`.
pub(crate) fn format(m: Move) -> String {
    m.to_string()
}

/// Whether `text` has the shape of an ICCS move (two squares, maybe with a dash).
pub(crate) fn looks_like(text: &str) -> bool {
    let b: Vec<u8> = text.bytes().filter(|&c| c != b'-').map(|c| c.to_ascii_lowercase()).collect();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

/// Reads an ICCS move and checks that it is legal.
pub(crate) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m: Move = text
        .parse()
        .map_err(|_| NotationError::Syntax { text: text.to_string(), expected: "two squares such as h2e2 or H2-E2" })?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(NotationError::Illegal { text: text.to_string() })
    }
}
