#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attack;
pub(crate) mod bits;
pub mod board;
mod book;
mod coder;
pub mod compact;
pub mod model;
pub mod seed;
pub mod train;

use core::fmt;
use xiangqi::{Move, Position};

pub use seed::SeedLink;

/// Which format a link is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkFormat {
    /// The seed's `p`/`r`/`s` format.
    Seed,
    /// Our compact `g` format.
    Compact,
}

impl LinkFormat {
    /// The lower-case name (`"seed"`, `"compact"`), as the CLI and the web API write it.
    pub fn name(self) -> &'static str {
        match self {
            LinkFormat::Seed => "seed",
            LinkFormat::Compact => "compact",
        }
    }
}

/// A decoded link: the game it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedLink {
    /// The format the link was written in.
    pub format: LinkFormat,
    /// The position the game starts from.
    pub start: Position,
    /// The moves, all legal, in order.
    pub moves: Vec<Move>,
    /// The seed's `s` value, kept as given (seed links only).
    pub s: Option<String>,
}

impl DecodedLink {
    /// The position after all the moves.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// Why a link could not be decoded or encoded.
///
/// Each error names the query field (`g`, `p`, `r`) and, where it can, the position or ply:
///
/// ```
/// use xiangqi_link::{decode, LinkError};
/// let err = decode("g=BQ*g").unwrap_err();
/// assert_eq!(err, LinkError::BadCharacter { field: "g", position: 2, character: '*' });
/// assert_eq!(err.to_string(), "bad character '*' at position 2 of g");
/// ```
///
/// New formats may bring new ways to fail, so the enum is `#[non_exhaustive]`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkError {
    /// The text has no value to decode.
    Empty,
    /// A character that is not base64url.
    BadCharacter {
        /// The query field: `g`, `p` or `r`.
        field: &'static str,
        /// Its byte offset in the field's value, from 0.
        position: usize,
        /// The character.
        character: char,
    },
    /// The data ends in the middle of a value.
    Truncated {
        /// The query field: `g`, `p` or `r`.
        field: &'static str,
    },
    /// A compact link of a version this library does not know.
    UnknownVersion(char),
    /// The board is not a legal position.
    BadBoard(String),
    /// The seed history does not fit the board (`ply_from_end` 1 is the newest move).
    BadHistory {
        /// Which move, counting back from the newest (1).
        ply_from_end: usize,
        /// What does not fit, in words.
        reason: String,
    },
    /// The move at `ply` (from 1) is illegal.
    IllegalMove {
        /// The ply, from 1 for the first move.
        ply: usize,
        /// The move in ICCS (`h2e2`).
        mv: String,
    },
    /// More moves than [`xiangqi::MAX_GAME_PLIES`] (the message is [`xiangqi::GameTooLong`]'s).
    TooLong,
    /// Data left over after the game ends.
    TrailingData {
        /// The query field: `g`, `p` or `r`.
        field: &'static str,
    },
    /// The game cannot be written in the seed's format.
    Unrepresentable(String),
    /// A link just written does not decode back to the same game (a codec bug; never sent).
    NotRoundTrip(LinkFormat),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Empty => f.write_str("no link value (expected g=... or p=...)"),
            LinkError::BadCharacter { field, position, character } => {
                write!(f, "bad character {character:?} at position {position} of {field}")
            }
            LinkError::Truncated { field } => write!(f, "truncated data in {field}"),
            LinkError::UnknownVersion(c) => write!(f, "unknown compact link version {c:?}"),
            LinkError::BadBoard(why) => write!(f, "bad board: {why}"),
            LinkError::BadHistory { ply_from_end, reason } => {
                write!(f, "bad history at the move {ply_from_end} from the end: {reason}")
            }
            LinkError::IllegalMove { ply, mv } => write!(f, "illegal move {mv} at ply {ply}"),
            LinkError::TooLong => xiangqi::GameTooLong.fmt(f),
            LinkError::TrailingData { field } => write!(f, "data left over after the game in {field}"),
            LinkError::Unrepresentable(why) => write!(f, "not representable in the seed format: {why}"),
            LinkError::NotRoundTrip(format) => {
                write!(f, "the {} link does not decode back to the same game", format.name())
            }
        }
    }
}

impl std::error::Error for LinkError {}

/// Encodes a game in the compact format; returns the value of `g` (about 3.2 bits per ply:
/// a 100-ply game takes about 55 characters).
/// `moves` must be legal from `start` (illegal moves panic; check with [`Position::is_legal`]).
pub fn encode_compact(start: &Position, moves: &[Move]) -> String {
    compact::encode(start, moves)
}

/// Encodes a game in the seed's format (fails only for positions the seed cannot describe,
/// such as two unmoved soldiers on one file, or for an illegal move).
///
/// ```
/// use xiangqi_link as link;
/// let game = link::decode("p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1").unwrap();
/// assert_eq!(game.moves.len(), 20);
/// let again = link::encode_seed(&game.start, &game.moves).unwrap();
/// assert_eq!(again.query(), "p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1");
/// ```
pub fn encode_seed(start: &Position, moves: &[Move]) -> Result<SeedLink, LinkError> {
    seed::encode(start, moves)
}

/// The query string (`g=...`, or `p=...&r=...&s=1`) of a game in `format`, checked to
/// decode back to the same game: the same start position, move counters included, and the
/// same moves. Every link the server and the command line hand out is made here.
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_link::{self as link, LinkError, LinkFormat};
/// let late: Position = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80".parse().unwrap();
/// let query = link::encode_query(LinkFormat::Compact, &late, &[]).unwrap();
/// assert_eq!(link::decode(&query).unwrap().start.fen(), late.fen());
/// assert!(matches!(link::encode_query(LinkFormat::Seed, &late, &[]), Err(LinkError::Unrepresentable(_))));
/// ```
///
/// # Errors
/// An illegal move, a game longer than [`xiangqi::MAX_GAME_PLIES`], a game the seed format
/// cannot hold, or [`LinkError::NotRoundTrip`] should the link not decode back to the game.
pub fn encode_query(format: LinkFormat, start: &Position, moves: &[Move]) -> Result<String, LinkError> {
    let query = match format {
        LinkFormat::Compact => format!("g={}", compact::try_encode(start, moves)?),
        LinkFormat::Seed => seed::encode(start, moves)?.query(),
    };
    match decode(&query) {
        Ok(back) if back.format == format && back.start == *start && back.moves == moves => Ok(query),
        _ => Err(LinkError::NotRoundTrip(format)),
    }
}

/// The share link's query for a game: the compact form, or the seed's when the compact one
/// cannot carry the game; both checked as [`encode_query`] does.
///
/// # Errors
/// The compact format's error when neither format can carry the game.
pub fn share_query(start: &Position, moves: &[Move]) -> Result<String, LinkError> {
    encode_query(LinkFormat::Compact, start, moves)
        .or_else(|e| encode_query(LinkFormat::Seed, start, moves).map_err(|_| e))
}

/// Decodes a full URL, a query string or a bare value of either format.
///
/// A bare value is read as compact when it starts with a known version character and
/// decodes as such, otherwise as a seed board (`p`). Errors name what is wrong: a bad
/// character, truncated data, an illegal move at ply N, an unknown version...
///
/// ```
/// use xiangqi_link::{self as link, LinkError};
/// assert!(matches!(link::decode("g=Z0"), Err(LinkError::UnknownVersion('Z'))));
/// assert_eq!(link::decode("xq?g=BQV").unwrap().moves[0].to_string(), "h2e2");
/// ```
pub fn decode(text: &str) -> Result<DecodedLink, LinkError> {
    let text = text.trim();
    let query = match text.find('?') {
        Some(i) => &text[i + 1..],
        None => text,
    };
    let query = query.split('#').next().unwrap_or("");
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for part in query.split('&').filter(|s| !s.is_empty()) {
        match part.split_once('=') {
            Some((k, v)) => fields.push((k, v)),
            None => fields.push(("", part)),
        }
    }
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    if let Some(g) = get("g") {
        let (start, moves) = compact::decode(g)?;
        return Ok(DecodedLink { format: LinkFormat::Compact, start, moves, s: None });
    }
    if let Some(p) = get("p") {
        let (start, moves) = seed::decode(p, get("r").unwrap_or(""))?;
        return Ok(DecodedLink { format: LinkFormat::Seed, start, moves, s: get("s").map(str::to_string) });
    }
    match fields.as_slice() {
        [("", bare)] => match compact::decode(bare) {
            Ok((start, moves)) => Ok(DecodedLink { format: LinkFormat::Compact, start, moves, s: None }),
            Err(e) if compact::is_versioned(bare) => match seed::decode(bare, "") {
                Ok((start, moves)) => Ok(DecodedLink { format: LinkFormat::Seed, start, moves, s: None }),
                Err(_) => Err(e),
            },
            Err(_) => {
                let (start, moves) = seed::decode(bare, "")?;
                Ok(DecodedLink { format: LinkFormat::Seed, start, moves, s: None })
            }
        },
        _ => Err(LinkError::Empty),
    }
}
