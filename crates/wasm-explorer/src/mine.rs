//! The user's own explorer: games from the collections they open, read and bounded.

use serde::Deserialize;
use serde_json::{json, Value};
use xiangqi::notation;
use xiangqi::Position;
use xiangqi_explorer::{Explorer, Game, GameResult};

/// The most games the user's explorer holds: about 0.7 MB packed for games of 90 plies, which the page keeps in
/// the browser's local storage (base64, under its usual 5 MB per site).
pub const MAX_MY_GAMES: usize = 5_000;

/// A game to add, as the page sends it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGame {
    id: String,
    #[serde(default)]
    fen: Option<String>,
    moves: Vec<String>,
    #[serde(default)]
    result: Option<String>,
}

/// Reads `games` and adds them all, or none: `{added, games}`.
pub(crate) fn add(explorer: &mut Explorer, games: &[NewGame]) -> Result<Value, String> {
    if explorer.len() + games.len() > MAX_MY_GAMES {
        return Err(format!(
            "{} games and {} more: your explorer holds at most {MAX_MY_GAMES}",
            explorer.len(),
            games.len()
        ));
    }
    let mut read = Vec::with_capacity(games.len());
    for g in games {
        let start = match g.fen.as_deref().map(str::trim) {
            None | Some("") => Position::startpos(),
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("game {}: bad FEN: {e}", g.id))?,
        };
        xiangqi::check_game_length(g.moves.len()).map_err(|e| format!("game {}: {e}", g.id))?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(g.moves.len());
        for (i, text) in g.moves.iter().enumerate() {
            let m = notation::parse(&pos, text).map_err(|e| format!("game {}: move {}: {e}", g.id, i + 1))?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        let result = GameResult::from_pgn(g.result.as_deref().unwrap_or("*"));
        read.push(Game { id: g.id.clone(), start, moves, result });
    }
    let added = explorer.add_games(read).map_err(|e| e.0)?;
    Ok(json!({ "added": added, "games": explorer.len() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, moves: &[&str], result: &str) -> NewGame {
        NewGame {
            id: id.into(),
            fen: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result: Some(result.into()),
        }
    }

    #[test]
    fn games_are_added_all_or_none_and_bounded() {
        let mut ex = Explorer::new();
        let v = add(&mut ex, &[game("a", &["炮二平五", "马8进7"], "1-0"), game("b", &["h2e2"], "0-1")]).unwrap();
        assert_eq!(v, json!({"added": 2, "games": 2}));
        let err = add(&mut ex, &[game("c", &["h2e2"], "*"), game("d", &["h2e2", "h2e2"], "*")]).unwrap_err();
        assert!(err.starts_with("game d: move 2"), "{err}");
        assert_eq!(ex.len(), 2);
        let many: Vec<NewGame> = (0..MAX_MY_GAMES - 1).map(|i| game(&i.to_string(), &[], "*")).collect();
        assert!(add(&mut ex, &many).unwrap_err().contains("at most 5000"));
        assert_eq!(ex.len(), 2);
    }
}
