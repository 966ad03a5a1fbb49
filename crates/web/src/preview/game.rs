//! The game a board page's address holds, in any of its link forms: the compact `g=`, the
//! seed's `p=&r=` and the plain `fen=&moves=`; and what a preview says about it.

use crate::ApiError;
use xiangqi::notation::{format, Notation};
use xiangqi::outcome::{Game, Outcome, Rules};
use xiangqi::{Move, Position};

/// A link is short; a longer one is refused before any decoding (the address cap is larger).
pub(crate) const MAX_LINK_CHARS: usize = 4096;

/// A game read from a link, with what its preview shows.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LinkGame {
    /// The position after the last move.
    pub last_position: Position,
    /// The last move, if any.
    pub last: Option<Move>,
    /// The last move in Chinese notation (`炮二平五`).
    pub last_chinese: Option<String>,
    /// The position before the last move, to write that move in another notation.
    pub before_last: Option<Position>,
    /// The number of moves (plies).
    pub plies: usize,
    /// The result, when the game is over: the winner (`None` for a draw) and the rule.
    pub result: Option<(Option<xiangqi::Color>, &'static str)>,
    /// One key for the same game whatever its link form: the start FEN and the moves.
    pub key: String,
}

/// Whether `query` holds a game in one of the link forms (it may still not decode).
pub(crate) fn has_game(query: &str) -> bool {
    pairs(query).any(|(k, _)| matches!(k.as_ref(), "g" | "p" | "fen" | "moves"))
}

fn pairs(query: &str) -> impl Iterator<Item = (std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)> {
    form_urlencoded::parse(query.trim_start_matches('?').as_bytes())
}

/// Reads the game in `query` (the board page's query string).
///
/// # Errors
/// A 400 that says what is wrong: no game, a link too long, a link that does not decode, a bad
/// FEN or an illegal move.
pub(crate) fn read(query: &str) -> Result<LinkGame, ApiError> {
    if query.len() > MAX_LINK_CHARS {
        return Err(ApiError::bad_request(format!("the link is longer than {MAX_LINK_CHARS} characters")));
    }
    let get = |key: &str| pairs(query).find(|(k, _)| k == key).map(|(_, v)| v.into_owned());
    let (start, moves) = if get("g").is_some() || get("p").is_some() {
        let link = xiangqi_link::decode(query).map_err(|e| ApiError::bad_request(format!("bad link: {e}")))?;
        (link.start, link.moves)
    } else if get("fen").is_some() || get("moves").is_some() {
        let texts: Vec<String> = get("moves")
            .unwrap_or_default()
            .split(|c: char| c == '.' || c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        qi_api::game::replay(get("fen").as_deref(), &texts)?
    } else {
        return Err(ApiError::bad_request("the link holds no game: give g=, p=&r= or fen=&moves="));
    };
    Ok(describe(start, &moves))
}

impl LinkGame {
    /// The last move written in `notation`, if there is one.
    pub(crate) fn last_in(&self, notation: Notation) -> Option<String> {
        Some(format(self.before_last.as_ref()?, self.last?, notation))
    }
}

fn describe(start: Position, moves: &[Move]) -> LinkGame {
    let mut pos = start.clone();
    let mut last_chinese = None;
    let mut before_last = None;
    for &m in moves {
        last_chinese = Some(format(&pos, m, Notation::Chinese));
        before_last = Some(pos.clone());
        pos.play_unchecked(m);
    }
    let status = Game::from_moves(start.clone(), moves, Rules::default())
        .map_or_else(|_| Game::new(start.clone()).status(), |g| g.status());
    let result = status.is_over().then(|| {
        let winner = match status.outcome {
            Outcome::RedWins => Some(xiangqi::Color::Red),
            Outcome::BlackWins => Some(xiangqi::Color::Black),
            Outcome::Draw | Outcome::Ongoing => None,
        };
        (winner, status.reason.map_or("", |r| r.name()))
    });
    let key = format!("{} {}", start.fen(), moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" "));
    LinkGame {
        last_position: pos,
        last: moves.last().copied(),
        last_chinese,
        before_last,
        plies: moves.len(),
        result,
        key,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_link_forms_of_one_game_are_one_game() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7"].iter().map(|m| m.parse().unwrap()).collect();
        let compact = xiangqi_link::encode_query(xiangqi_link::LinkFormat::Compact, &start, &moves).unwrap();
        let seed = xiangqi_link::encode_query(xiangqi_link::LinkFormat::Seed, &start, &moves).unwrap();
        let plain = read("moves=h2e2.h9g7").unwrap();
        assert_eq!(read(&compact).unwrap(), plain);
        assert_eq!(read(&format!("?{seed}&ply=1")).unwrap(), plain);
        assert_eq!(plain.plies, 2);
        assert_eq!(plain.last_chinese.as_deref(), Some("马8进7"));
        assert!(plain.result.is_none());
    }

    #[test]
    fn a_finished_game_says_who_won_and_bad_links_say_why() {
        // Two rooks: one holds rank 8, the other checks on rank 9.
        let mated = read("fen=3k5/R8/9/9/9/9/9/9/8R/4K4%20w%20-%20-%200%201&moves=i1i9").unwrap();
        assert_eq!(mated.result, Some((Some(xiangqi::Color::Red), "checkmate")));
        assert_eq!(mated.last_chinese.as_deref(), Some("车一进八"));
        for bad in ["g=BQ*g", "p=zzz&r=", "moves=h2e2.h2e2", "fen=nonsense", "flip=1"] {
            assert_eq!(read(bad).unwrap_err().status, axum::http::StatusCode::BAD_REQUEST, "{bad}");
        }
        assert!(has_game("?g=x") && has_game("fen=x") && !has_game("room=abc") && !has_game(""));
    }
}
