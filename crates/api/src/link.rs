//! `/xq/link`: a share link (compact `g=` or the seed's `p=&r=&s=`) decoded into the game it
//! holds; `/xq/link/encode`: a game written in both link formats.

use crate::game::replay;
use crate::ApiError;
use serde::{Deserialize, Serialize};
use xiangqi_link::{self as link, LinkFormat};

/// A link is short; anything longer is not one.
const MAX_LINK_CHARS: usize = 4096;

/// A link to decode.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodeRequest {
    /// A full URL, a query string (`?g=...`, `?p=...&r=...&s=1`) or a bare value.
    pub link: String,
}

/// The game a link holds.
#[derive(Serialize)]
pub struct DecodedGame {
    /// `compact` or `seed`.
    pub format: &'static str,
    /// The start position, as FEN.
    pub start_fen: String,
    /// ICCS moves, all legal.
    pub moves: Vec<String>,
    /// The seed's `s` value, kept as given.
    pub s: Option<String>,
}

/// Decodes `req.link`.
///
/// # Errors
/// A link that is too long or does not read (the message says where).
pub fn decode(req: &DecodeRequest) -> Result<DecodedGame, ApiError> {
    if req.link.len() > MAX_LINK_CHARS {
        return Err(ApiError::bad_request(format!("the link is longer than {MAX_LINK_CHARS} characters")));
    }
    let game = link::decode(&req.link).map_err(|e| ApiError::bad_request(format!("bad link: {e}")))?;
    Ok(DecodedGame {
        format: game.format.name(),
        start_fen: game.start.fen(),
        moves: game.moves.iter().map(|m| m.to_string()).collect(),
        s: game.s,
    })
}

/// A game to write as links.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodeRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// ICCS moves.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A game's links.
#[derive(Serialize)]
pub struct EncodedLinks {
    /// The compact link's query (`g=...`), checked to decode back to the same game.
    pub compact: Option<String>,
    /// The seed's query (`p=...&r=...&s=1`), when the game can be written in it (checked too).
    pub seed: Option<String>,
    /// Why the seed format cannot hold this game.
    pub seed_error: Option<String>,
}

/// Writes the game of `req` in both link formats.
///
/// # Errors
/// A bad FEN or move (as [`replay`] says).
pub fn encode(req: &EncodeRequest) -> Result<EncodedLinks, ApiError> {
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let (seed, seed_error) = match link::encode_query(LinkFormat::Seed, &start, &moves) {
        Ok(query) => (Some(query), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let compact = link::encode_query(LinkFormat::Compact, &start, &moves).ok();
    Ok(EncodedLinks { compact, seed, seed_error })
}
