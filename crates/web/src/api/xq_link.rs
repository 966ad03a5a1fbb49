//! `POST /api/xq/link`: decodes a share link (compact `g=` or the seed's `p=&r=&s=`) into the
//! game it holds; `POST /api/xq/link/encode`: writes a game in both link formats.

use super::xq_game::replay;
use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_link::{self as link, LinkFormat};

/// A link is short; anything longer is not one (the URI limit bounds it anyway).
const MAX_LINK_CHARS: usize = 4096;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodeRequest {
    /// A full URL, a query string (`?g=...`, `?p=...&r=...&s=1`) or a bare value.
    pub link: String,
}

#[derive(Serialize)]
pub struct DecodedGame {
    /// `compact` or `seed`.
    pub format: &'static str,
    pub start_fen: String,
    /// ICCS moves, all legal.
    pub moves: Vec<String>,
    /// The seed's `s` value, kept as given.
    pub s: Option<String>,
}

pub async fn decode(Body(req): Body<DecodeRequest>) -> Result<Json<DecodedGame>, ApiError> {
    if req.link.len() > MAX_LINK_CHARS {
        return Err(ApiError::bad_request(format!("the link is longer than {MAX_LINK_CHARS} characters")));
    }
    cpu::GAMES
        .run(Duration::from_secs(5), move || {
            let game = link::decode(&req.link).map_err(|e| ApiError::bad_request(format!("bad link: {e}")))?;
            Ok(DecodedGame {
                format: game.format.name(),
                start_fen: game.start.fen(),
                moves: game.moves.iter().map(|m| m.to_string()).collect(),
                s: game.s,
            })
        })
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodeRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

#[derive(Serialize)]
pub struct EncodedLinks {
    /// The compact link's query (`g=...`), checked to decode back to the same game.
    pub compact: Option<String>,
    /// The seed's query (`p=...&r=...&s=1`), when the game can be written in it (checked too).
    pub seed: Option<String>,
    /// Why the seed format cannot hold this game.
    pub seed_error: Option<String>,
}

pub async fn encode(Body(req): Body<EncodeRequest>) -> Result<Json<EncodedLinks>, ApiError> {
    cpu::GAMES
        .run(Duration::from_secs(5), move || {
            let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
            let (seed, seed_error) = match link::encode_query(LinkFormat::Seed, &start, &moves) {
                Ok(query) => (Some(query), None),
                Err(e) => (None, Some(e.to_string())),
            };
            let compact = link::encode_query(LinkFormat::Compact, &start, &moves).ok();
            Ok(EncodedLinks { compact, seed, seed_error })
        })
        .await
        .map(Json)
}
