//! Chat between the two players of a room: plain text lines, limited in length and rate per
//! seat, kept as a bounded recent history in memory (sent to every client on (re)join; it does
//! not survive a restart of the server or the room leaving memory).
//!
//! ```
//! use qi_rooms::{Chat, ChatError};
//! use xiangqi::Color;
//! let now = tokio::time::Instant::now();
//! let mut chat = Chat::default();
//! let line = chat.say(Some(Color::Red), "  good luck <b>!</b> ", now, 1_000).unwrap();
//! assert_eq!(line.text, "good luck <b>!</b>");
//! assert_eq!(line.frame, r#"{"type":"chat","from":"red","text":"good luck <b>!</b>","at":1000}"#);
//! assert_eq!(chat.say(None, "hi", now, 1_000), Err(ChatError::Spectator));
//! assert_eq!(chat.say(Some(Color::Black), &"x".repeat(201), now, 1_000), Err(ChatError::TooLong));
//! ```

use crate::rate::TokenBucket;
use core::fmt;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::time::Instant;
use xiangqi::Color;

/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 200;
/// Lines kept per room (older ones are forgotten).
pub const CHAT_HISTORY: usize = 50;
/// Lines one seat may say per second on average, and in a burst.
const LINES_PER_SECOND: f64 = 1.0;
const LINES_BURST: f64 = 5.0;

/// One line said in a room.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatLine {
    /// Its number in the room (1, 2, …), so that a socket sends each line once.
    pub seq: u64,
    /// Who said it.
    #[serde(with = "crate::colour::color_name")]
    pub from: Color,
    /// What was said (trimmed, control characters dropped).
    pub text: String,
    /// Wall time, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The `{"type":"chat","from","text","at"}` message.
    pub frame: String,
}

/// Why a line was not said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatError {
    /// Spectators read the chat; only the players write.
    Spectator,
    /// Nothing left once trimmed.
    Empty,
    /// Longer than [`MAX_CHAT_CHARS`].
    TooLong,
    /// The seat said too much too quickly.
    TooFast,
}

impl fmt::Display for ChatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChatError::Spectator => f.write_str("spectators can read the chat, not write in it"),
            ChatError::Empty => f.write_str("an empty chat line"),
            ChatError::TooLong => write!(f, "a chat line has at most {MAX_CHAT_CHARS} characters"),
            ChatError::TooFast => f.write_str("too many chat lines; wait a moment"),
        }
    }
}

impl std::error::Error for ChatError {}

#[derive(serde::Serialize)]
struct Frame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    from: &'static str,
    text: &'a str,
    at: i64,
}

/// A room's chat: the recent lines and each seat's allowance.
#[derive(Clone, Debug, Default)]
pub struct Chat {
    lines: VecDeque<Arc<ChatLine>>,
    next_seq: u64,
    buckets: [Option<TokenBucket>; 2],
}

impl Chat {
    /// Says `text` from `seat` at `now` (`wall_ms` dates it); returns the new line.
    ///
    /// # Errors
    /// [`ChatError`]: a spectator, an empty or too long line, a seat over its rate.
    pub fn say(
        &mut self,
        seat: Option<Color>,
        text: &str,
        now: Instant,
        wall_ms: i64,
    ) -> Result<Arc<ChatLine>, ChatError> {
        let seat = seat.ok_or(ChatError::Spectator)?;
        // No bidirectional override or line separator: a line cannot reorder what follows it.
        let cleaned = crate::shown::chat_text(text);
        let text = cleaned.trim();
        if text.is_empty() {
            return Err(ChatError::Empty);
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(ChatError::TooLong);
        }
        let bucket =
            self.buckets[seat.index()].get_or_insert_with(|| TokenBucket::new(LINES_PER_SECOND, LINES_BURST, now));
        if !bucket.allow(now) {
            return Err(ChatError::TooFast);
        }
        self.next_seq += 1;
        let from = seat.name();
        let frame =
            serde_json::to_string(&Frame { kind: "chat", from, text, at: wall_ms }).expect("a chat line serialises");
        let line = Arc::new(ChatLine { seq: self.next_seq, from: seat, text: text.to_string(), at_ms: wall_ms, frame });
        if self.lines.len() == CHAT_HISTORY {
            self.lines.pop_front();
        }
        self.lines.push_back(Arc::clone(&line));
        Ok(line)
    }

    /// The recent lines, oldest first.
    pub fn lines(&self) -> Vec<Arc<ChatLine>> {
        self.lines.iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rate_and_history_are_bounded() {
        let t0 = Instant::now();
        let mut chat = Chat::default();
        for i in 0..5 {
            chat.say(Some(Color::Red), &format!("line {i}"), t0, 0).unwrap();
        }
        assert_eq!(chat.say(Some(Color::Red), "one more", t0, 0), Err(ChatError::TooFast));
        // The other seat has its own allowance.
        chat.say(Some(Color::Black), "mine", t0, 0).unwrap();
        assert_eq!(chat.say(Some(Color::Red), "\u{7}\n \t", t0, 0), Err(ChatError::Empty));
        let mut at = t0;
        for i in 0..CHAT_HISTORY {
            at += Duration::from_secs(1);
            chat.say(Some(Color::Red), &format!("later {i}"), at, 0).unwrap();
        }
        let lines = chat.lines();
        assert_eq!(lines.len(), CHAT_HISTORY);
        assert_eq!(lines[0].text, "later 0");
        assert_eq!(lines.last().unwrap().seq, 6 + CHAT_HISTORY as u64);
        assert_eq!(
            chat.say(Some(Color::Red), &"é".repeat(MAX_CHAT_CHARS), at + Duration::from_secs(9), 0)
                .unwrap()
                .text
                .chars()
                .count(),
            MAX_CHAT_CHARS
        );
    }

    #[test]
    fn bidirectional_and_format_characters_never_reach_the_other_player() {
        let t0 = Instant::now();
        let mut chat = Chat::default();
        let line = chat.say(Some(Color::Red), "see \u{202E}gnp.exe\u{2066} and\u{2028}this", t0, 0).unwrap();
        assert_eq!(line.text, "see gnp.exe and this");
        assert!(!line.frame.contains('\u{202E}') && !line.frame.contains('\u{2028}'), "{}", line.frame);
        assert_eq!(chat.say(Some(Color::Black), "\u{202E}\u{2066}\u{2069}", t0, 0), Err(ChatError::Empty));
    }
}
