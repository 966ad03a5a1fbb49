//! The preview pictures (`og:image`): drawn on the server from the link alone, on the image
//! pool, and kept in a cache bounded both in entries and in bytes, so that a popular link is
//! drawn once and a crawler walking many links holds a fixed amount of memory.

use crate::cpu;
use crate::ApiError;
use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use lru::LruCache;
use std::hash::{Hash, Hasher};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Pictures kept at most.
pub const MAX_CARDS: usize = 256;
/// Bytes of pictures kept at most (a card is 10 to 80 KB).
pub const MAX_CARD_BYTES: usize = 24 * 1024 * 1024;
/// Drawing a card takes tens of milliseconds; this is far beyond.
const DRAW_LIMIT: Duration = Duration::from_secs(5);
/// The picture of a link never changes (a new drawing comes with a new release, and the
/// validator tells): kept for a month.
const CACHING: &str = "public, max-age=2592000";

/// A drawn picture and its validator.
pub(crate) struct Card {
    png: Bytes,
    etag: HeaderValue,
}

/// The cache: the most recently asked cards, within [`MAX_CARDS`] and [`MAX_CARD_BYTES`].
struct Cache {
    cards: LruCache<String, Arc<Card>>,
    bytes: usize,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

fn cached(key: &str) -> Option<Arc<Card>> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.as_mut()?.cards.get(key).cloned()
}

fn keep(key: String, card: Arc<Card>) {
    let mut guard = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = guard.get_or_insert_with(|| Cache {
        cards: LruCache::new(NonZeroUsize::new(MAX_CARDS).unwrap_or(NonZeroUsize::MIN)),
        bytes: 0,
    });
    let size = card.png.len();
    if let Some((_, old)) = cache.cards.push(key, card) {
        cache.bytes -= old.png.len();
    }
    cache.bytes += size;
    while cache.bytes > MAX_CARD_BYTES {
        match cache.cards.pop_lru() {
            Some((_, old)) => cache.bytes -= old.png.len(),
            None => break,
        }
    }
}

/// The cards held now and their bytes (for the tests of the bounds).
#[cfg(test)]
pub(crate) fn held() -> (usize, usize) {
    let cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.as_ref().map_or((0, 0), |c| (c.cards.len(), c.bytes))
}

/// The card under `key` (a kind and the game or layout it shows), drawn by `draw` on the image
/// pool when it is not cached, answered with its validator (304 when the client has it).
pub(crate) async fn answer<F>(key: String, headers: &HeaderMap, draw: F) -> Result<Response, ApiError>
where
    F: FnOnce() -> Result<Vec<u8>, ApiError> + Send + 'static,
{
    let card = match cached(&key) {
        Some(card) => card,
        None => {
            let png = cpu::IMAGES.run(DRAW_LIMIT, draw).await?;
            // The validator is the bytes' hash: the same picture, the same tag, in any process
            // of the same build (SipHash with fixed keys).
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            png.hash(&mut hasher);
            let etag = HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
                .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR.as_u16(), "internal error"))?;
            let card = Arc::new(Card { png: Bytes::from(png), etag });
            keep(key, card.clone());
            card
        }
    };
    let fresh = headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|tag| tag.trim().as_bytes() == card.etag.as_bytes()));
    let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { card.png.clone().into_response() };
    let h = response.headers_mut();
    if !fresh {
        h.insert(CONTENT_TYPE, HeaderValue::from_static("image/png"));
    }
    h.insert(ETAG, card.etag.clone());
    h.insert(CACHE_CONTROL, HeaderValue::from_static(CACHING));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_within_its_entries_and_bytes() {
        let big = MAX_CARD_BYTES / 4 + 1;
        for i in 0..8 {
            let card = Card { png: Bytes::from(vec![0u8; big]), etag: HeaderValue::from_static("\"x\"") };
            keep(format!("test-big-{i}"), Arc::new(card));
            let (_, bytes) = held();
            assert!(bytes <= MAX_CARD_BYTES, "{bytes}");
        }
        assert!(cached("test-big-7").is_some() && cached("test-big-0").is_none());
        for i in 0..MAX_CARDS + 10 {
            let card = Card { png: Bytes::from_static(b"png"), etag: HeaderValue::from_static("\"y\"") };
            keep(format!("test-small-{i}"), Arc::new(card));
        }
        assert_eq!(held().0, MAX_CARDS);
    }
}
