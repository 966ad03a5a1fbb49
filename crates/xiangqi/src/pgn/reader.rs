//! The PGN reader: takes the tokens of one game at a time, and reads each game on its own.

use super::lexer::{is_result, Lexer, Token};
use super::{
    Line, PgnError, PgnErrorKind, PgnGame, PgnMove, MAX_COMMENT_BYTES, MAX_GAME_TOKENS, MAX_RECORD_GAMES,
    MAX_VARIATION_DEPTH,
};
use crate::notation::{parse, parse_as, Notation, NotationError};
use crate::{check_game_length, Move, Position};
use std::borrow::Cow;

/// Reads every game of a PGN text, in order; one that does not read is an error that says
/// where, and does not stop the others. At most [`MAX_RECORD_GAMES`] games are read: past
/// them comes one [`PgnErrorKind::TooManyGames`]. [`games`] reads them one at a time.
///
/// ```
/// let text = "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n1. e1e8 *\n\n[Red \"x\"]\n1. zz *\n";
/// let games = xiangqi::pgn::read_games(text);
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].as_ref().unwrap().main_line()[0].to_string(), "e1e8");
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!((err.game, err.line), (2, 5));
/// ```
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    games(text).collect()
}

/// The games of a PGN text one at a time, as [`read_games`] reads them: the reader holds the
/// tokens of one game at once (at most [`MAX_GAME_TOKENS`]), so a caller that does not keep
/// the games needs memory for the text and one game, however many games the text holds.
///
/// ```
/// let text = "1. h2e2 h9g7 *\n1. b0c2 *\n".repeat(3);
/// let mut games = xiangqi::pgn::games(&text);
/// assert_eq!(games.next().unwrap().unwrap().main_line().len(), 2);
/// assert_eq!(games.count(), 5);
/// ```
pub fn games(text: &str) -> Games<'_> {
    Games::new(Cow::Borrowed(text))
}

/// The games of a PGN text, read one at a time: see [`games`].
pub struct Games<'a> {
    text: Cow<'a, str>,
    lexer: Lexer,
    /// A tag read past the end of the previous game: the first token of the next.
    pending: Option<(usize, Token)>,
    /// Games given so far.
    given: usize,
    /// Whether the reader stopped (at the games bound).
    stopped: bool,
}

impl<'a> Games<'a> {
    /// The games of `text` (decoded text may be owned: see [`super::decode`]).
    pub fn new(text: Cow<'a, str>) -> Games<'a> {
        Games { text, lexer: Lexer::default(), pending: None, given: 0, stopped: false }
    }

    /// The next game's tokens: a tag after movetext, or anything after a result, starts a new
    /// game. Past [`MAX_GAME_TOKENS`] the tokens are only counted, to the game's end.
    fn next_chunk(&mut self) -> Option<Chunk> {
        let mut chunk = Chunk { tokens: Vec::new(), dropped: 0, last_line: 1 };
        let mut in_movetext = false;
        let mut depth = 0usize;
        loop {
            let Some((line, token)) = self.pending.take().or_else(|| self.lexer.next(&self.text)) else {
                // Trailing comments alone do not make a game.
                let any = chunk.dropped > 0 || chunk.tokens.iter().any(|(_, t)| !matches!(t, Token::Comment(_)));
                return any.then_some(chunk);
            };
            let is_tag = matches!(token, Token::Tag(..) | Token::BadTag(_));
            if is_tag && in_movetext {
                self.pending = Some((line, token));
                return Some(chunk);
            }
            match token {
                Token::Open => depth += 1,
                Token::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
            let ends = matches!(token, Token::Result(_)) && depth == 0;
            in_movetext |= !is_tag;
            chunk.last_line = line;
            if chunk.tokens.len() < MAX_GAME_TOKENS {
                chunk.tokens.push((line, token));
            } else {
                chunk.dropped += 1;
            }
            if ends {
                return Some(chunk);
            }
        }
    }
}

/// One game's tokens.
struct Chunk {
    tokens: Vec<(usize, Token)>,
    /// Tokens past [`MAX_GAME_TOKENS`], counted and not kept.
    dropped: usize,
    /// The line of the last token.
    last_line: usize,
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        let chunk = self.next_chunk()?;
        self.given += 1;
        let game = self.given;
        if game > MAX_RECORD_GAMES {
            self.stopped = true;
            let kind = PgnErrorKind::TooManyGames;
            return Some(Err(PgnError { game, line: chunk.tokens.first().map_or(chunk.last_line, |t| t.0), kind }));
        }
        if chunk.dropped > 0 {
            let tokens = chunk.tokens.len() + chunk.dropped;
            let line = chunk.tokens.first().map_or(chunk.last_line, |t| t.0);
            return Some(Err(PgnError { game, line, kind: PgnErrorKind::TooManyTokens(tokens) }));
        }
        Some(read_game(game, &chunk.tokens))
    }
}

fn read_game(game: usize, tokens: &[(usize, Token)]) -> Result<PgnGame, PgnError> {
    let err = |line: usize, kind: PgnErrorKind| PgnError { game, line, kind };
    let mut tags = Vec::new();
    let mut start = Position::startpos();
    let mut i = 0;
    while let Some((line, token)) = tokens.get(i) {
        match token {
            Token::Tag(k, v) => {
                if k.eq_ignore_ascii_case("FEN") {
                    start = Position::from_fen(v).map_err(|e| err(*line, PgnErrorKind::BadFen(e)))?;
                }
                tags.push((k.clone(), v.clone()));
            }
            Token::BadTag(t) => return Err(err(*line, PgnErrorKind::BadTag(t.clone()))),
            _ => break,
        }
        i += 1;
    }
    let mut result = None;
    let read_move = move_reader(&tags);
    let line = read_line(tokens, &mut i, start.clone(), 0, 0, &mut result, read_move)
        .map_err(|(line, kind)| err(line, kind))?;
    // A `Result` tag counts only when it holds a termination marker (the writer puts the
    // result in the movetext, where anything else would read as a move).
    let result = result.or_else(|| {
        let tag = tags.iter().find(|(k, _)| k == "Result").map(|(_, v)| v.trim())?;
        is_result(tag).then(|| tag.to_string())
    });
    Ok(PgnGame { tags, start, line, result })
}

type Failure = (usize, PgnErrorKind);

/// Reads one move text in a position.
type MoveReader = fn(&Position, &str) -> Result<Move, NotationError>;

/// Any notation, but Vietnamese first where the `Format` tag says so: `P3.4` reads as WXF
/// (a pawn moving sideways) otherwise.
fn move_reader(tags: &[(String, String)]) -> MoveReader {
    let vietnamese = tags.iter().any(|(k, v)| k == "Format" && v.parse() == Ok(Notation::Vietnamese));
    if vietnamese {
        |pos, text| parse_as(pos, text, Notation::Vietnamese).or_else(|_| parse(pos, text))
    } else {
        parse
    }
}

/// Reads moves from `pos`, `ply` plies into the game, until the end of the tokens, or the `)`
/// that closes this variation.
fn read_line(
    tokens: &[(usize, Token)],
    i: &mut usize,
    mut pos: Position,
    ply: usize,
    depth: usize,
    result: &mut Option<String>,
    read_move: MoveReader,
) -> Result<Line, Failure> {
    let mut line = Line::default();
    let mut before: Option<Position> = None;
    while let Some((at, token)) = tokens.get(*i) {
        *i += 1;
        match token {
            Token::Word(text) => {
                let number = pos.fullmoves();
                let mv = read_move(&pos, text)
                    .map_err(|error| (*at, PgnErrorKind::BadMove { number, text: text.clone(), error }))?;
                check_game_length(ply + line.moves.len() + 1).map_err(|e| (*at, PgnErrorKind::TooLong(e)))?;
                before = Some(pos.clone());
                pos.play_unchecked(mv);
                line.moves.push(PgnMove { mv, comment: None, variations: Vec::new() });
            }
            Token::Comment(c) => {
                let slot = match line.moves.last_mut() {
                    Some(m) => &mut m.comment,
                    None => &mut line.comment,
                };
                match slot {
                    Some(s) => {
                        // Comments in a row are one comment, under the same bound.
                        let joined = s.len() + 1 + c.len();
                        if joined > MAX_COMMENT_BYTES {
                            return Err((*at, PgnErrorKind::CommentTooLong(joined)));
                        }
                        s.push(' ');
                        s.push_str(c);
                    }
                    None => *slot = Some(c.clone()),
                }
            }
            Token::Open => {
                let from = before.clone().ok_or((*at, PgnErrorKind::UnbalancedVariation))?;
                if depth >= MAX_VARIATION_DEPTH {
                    return Err((*at, PgnErrorKind::TooDeep));
                }
                // The variation replaces the last move, so it starts one ply before it.
                let variation = read_line(tokens, i, from, ply + line.moves.len() - 1, depth + 1, result, read_move)?;
                if let Some(m) = line.moves.last_mut() {
                    m.variations.push(variation);
                }
            }
            Token::Close if depth > 0 => return Ok(line),
            Token::Close => return Err((*at, PgnErrorKind::UnbalancedVariation)),
            Token::Result(_) if depth > 0 => return Err((*at, PgnErrorKind::ResultInVariation)),
            Token::Result(r) => *result = Some(r.clone()),
            Token::UnterminatedComment => return Err((*at, PgnErrorKind::UnterminatedComment)),
            Token::CommentTooLong(n) => return Err((*at, PgnErrorKind::CommentTooLong(*n))),
            Token::Tag(..) | Token::BadTag(_) => {}
        }
    }
    if depth > 0 {
        let last = tokens.last().map_or(1, |(l, _)| *l);
        return Err((last, PgnErrorKind::UnbalancedVariation));
    }
    Ok(line)
}
