//! Room ids and seat tokens: random, unguessable, URL-safe.
//!
//! A [`RoomId`] names a room in every link (96 random bits); a [`SeatToken`] is the secret that
//! seats its holder at one colour (128 random bits). Both are base64url without padding, so they
//! go into a path or a query string as they are.

use core::fmt;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` random bytes from the operating system, as base64url (no padding).
fn random_text<const BYTES: usize>() -> String {
    let mut raw = [0u8; BYTES];
    getrandom::fill(&mut raw).expect("the operating system's random source");
    let mut out = String::with_capacity(BYTES * 4 / 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for byte in raw {
        acc = (acc << 8) | u32::from(byte);
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(ALPHABET[((acc >> bits) & 63) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((acc << (6 - bits)) & 63) as usize] as char);
    }
    out
}

fn is_token_text(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| ALPHABET.contains(&b))
}

/// Why a text is not a room id or a seat token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadId;

impl fmt::Display for BadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a room id or seat token")
    }
}

impl std::error::Error for BadId {}

/// A room's public name: 16 base64url characters (96 random bits).
///
/// ```
/// use qi_rooms::RoomId;
/// let id = RoomId::random();
/// assert_eq!(id.as_str().len(), 16);
/// assert_eq!(id.as_str().parse::<RoomId>(), Ok(id.clone()));
/// assert!("../etc".parse::<RoomId>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomId(String);

impl RoomId {
    const LEN: usize = 16;

    /// A fresh id from the operating system's random source.
    pub fn random() -> RoomId {
        RoomId(random_text::<12>())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl core::str::FromStr for RoomId {
    type Err = BadId;

    /// # Errors
    /// [`BadId`] unless the text is 16 base64url characters.
    fn from_str(s: &str) -> Result<RoomId, BadId> {
        if is_token_text(s, RoomId::LEN) {
            Ok(RoomId(s.to_string()))
        } else {
            Err(BadId)
        }
    }
}

impl fmt::Display for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The secret that seats one colour: 22 base64url characters (128 random bits).
///
/// Compared in constant time, so the time an answer takes says nothing about how much of a
/// guessed token was right. `Debug` hides the value (it would otherwise end up in logs).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SeatToken(String);

impl SeatToken {
    const LEN: usize = 22;

    /// A fresh token from the operating system's random source.
    pub fn random() -> SeatToken {
        SeatToken(random_text::<16>())
    }

    /// The token as text (for the seat link).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `text` is this token, in time that does not depend on where they differ.
    pub fn matches(&self, text: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), text.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl core::str::FromStr for SeatToken {
    type Err = BadId;

    /// # Errors
    /// [`BadId`] unless the text is 22 base64url characters.
    fn from_str(s: &str) -> Result<SeatToken, BadId> {
        if is_token_text(s, SeatToken::LEN) {
            Ok(SeatToken(s.to_string()))
        } else {
            Err(BadId)
        }
    }
}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_url_safe() {
        let a = SeatToken::random();
        let b = SeatToken::random();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 22, "22 characters of 6 bits hold the 128 random bits");
        assert!(a.as_str().bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert!(a.matches(a.as_str()) && !a.matches(b.as_str()) && !a.matches(""));
        assert_eq!(format!("{a:?}"), "SeatToken(..)");
    }

    #[test]
    fn malformed_ids_are_refused() {
        for bad in ["", "short", "AAAAAAAAAAAAAAA/", "AAAAAAAAAAAAAAAAA", "ÄAAAAAAAAAAAAAA"] {
            assert!(bad.parse::<RoomId>().is_err(), "{bad}");
        }
        assert!("AAAAAAAAAAAAAAAAAAAAAA".parse::<SeatToken>().is_ok());
    }
}
