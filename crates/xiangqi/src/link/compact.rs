//! Our compact format (in progress).
use super::LinkError;
use crate::{Move, Position};

pub(crate) fn is_versioned(_text: &str) -> bool {
    false
}

pub(crate) fn encode(_start: &Position, _moves: &[Move]) -> String {
    String::new()
}

pub(crate) fn decode(text: &str) -> Result<(Position, Vec<Move>), LinkError> {
    Err(LinkError::UnknownVersion(text.chars().next().unwrap_or(' ')))
}
