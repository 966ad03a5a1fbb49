//! Openings: the first plies of the games of a games file.

use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::path::Path;
use xiangqi::outcome::{Game, Rules};
use xiangqi::{Move, Position};

/// A starting point: a position and the moves that led to it from the file's start.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The game's id in the file (`startpos` for the start position), for the PGN's `Opening` tag.
    pub name: String,
    /// The file's start position of the game.
    pub start: Position,
    /// The opening's moves from `start`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos() -> Opening {
        Opening { name: "startpos".into(), start: Position::startpos(), moves: Vec::new() }
    }
}

/// The distinct openings of a games file (tab-separated id, start FEN or `startpos`, ICCS
/// moves, ...): the first `plies` moves of each game. Games that are shorter, illegal, or
/// already over by then are skipped, and so is an opening that reaches a position seen before.
///
/// # Errors
///
/// When the file cannot be read or holds no usable opening.
pub fn read_openings(path: &Path, plies: usize, rules: Rules) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(fen), Some(moves)) = (cols.first(), cols.get(1), cols.get(2)) else { continue };
        let start = if fen.trim() == "startpos" { Ok(Position::startpos()) } else { Position::from_fen(fen) };
        let Ok(start) = start else { continue };
        let moves: Vec<Move> = match moves.split_whitespace().take(plies).map(str::parse).collect() {
            Ok(m) => m,
            Err(_) => continue,
        };
        if moves.len() < plies {
            continue;
        }
        let Ok(game) = Game::from_moves(start.clone(), &moves, rules) else { continue };
        if game.status().is_over() || !seen.insert((game.position().fen(), game.position().turn())) {
            continue;
        }
        openings.push(Opening { name: name.to_string(), start, moves });
    }
    if openings.is_empty() {
        bail!("{}: no usable opening of {plies} plies", path.display());
    }
    Ok(openings)
}
