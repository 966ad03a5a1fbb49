//! What a lobby socket's client sends (lila-ws's `ClientOut`): the messages, parsed and checked
//! here so that the socket layer only hands them on.
//!
//! ```
//! use qi_rooms::lobby::ClientOut;
//! let msg = ClientOut::parse(r#"{"type": "quick", "clock": {"initial_s": 180, "increment_s": 2}}"#).unwrap();
//! assert!(matches!(msg, ClientOut::Quick { clock: Some(c), name: None } if c.increment_ms == 2_000));
//! assert_eq!(ClientOut::parse(r#"{"type": "accept", "id": "no such"}"#).unwrap_err(), "no such seek");
//! ```

use crate::clock::ClockSettings;
use crate::names;
use crate::seek::SeekColour;
use serde::Deserialize;

/// Longest seek id a client may send (an instance's name, a dash and a number).
const MAX_SEEK_ID: usize = 48;

/// One message from a lobby client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientOut {
    /// `{"type": "seek", "clock": {"initial_s", "increment_s"}|null, "colour": "red"|"black"|"random", "name"?}`:
    /// posts a seek (answered `seeking`).
    Seek {
        /// The clock; none for an untimed game.
        clock: Option<ClockSettings>,
        /// The colour the maker asks for.
        colour: SeekColour,
        /// The maker's name, cleaned.
        name: Option<String>,
    },
    /// `{"type": "cancel", "id"}`: withdraws one of this socket's seeks.
    Cancel {
        /// The seek.
        id: String,
    },
    /// `{"type": "accept", "id"}`: takes someone else's seek.
    Accept {
        /// The seek.
        id: String,
    },
    /// `{"type": "quick", "clock"}`: accepts the oldest seek with that clock from someone else,
    /// or posts one.
    Quick {
        /// The clock; none for an untimed game.
        clock: Option<ClockSettings>,
        /// The maker's name, cleaned.
        name: Option<String>,
    },
    /// `{"type": "ping"}` (answered `pong`).
    Ping,
}

/// The JSON shape, before its fields are checked.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Wire {
    Seek {
        clock: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(default)]
        colour: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    Cancel {
        id: String,
    },
    Accept {
        id: String,
    },
    Quick {
        clock: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(default)]
        name: Option<String>,
    },
    Ping,
}

impl ClientOut {
    /// Parses one text frame.
    ///
    /// # Errors
    /// The text of the `error` message the client is sent: bad JSON, a bad clock or colour, a
    /// seek id no seek can have.
    pub fn parse(text: &str) -> Result<ClientOut, String> {
        let wire: Wire = serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
        Ok(match wire {
            Wire::Ping => ClientOut::Ping,
            Wire::Seek { clock, colour, name } => {
                let clock = parse_clock(clock)?;
                let colour = match colour.as_deref() {
                    None | Some("random") => SeekColour::Random,
                    Some("red") => SeekColour::Red,
                    Some("black") => SeekColour::Black,
                    Some(_) => return Err("colour must be red, black or random".to_string()),
                };
                ClientOut::Seek { clock, colour, name: clean_name(name) }
            }
            Wire::Quick { clock, name } => ClientOut::Quick { clock: parse_clock(clock)?, name: clean_name(name) },
            Wire::Cancel { id } => ClientOut::Cancel { id: seek_id(id)? },
            Wire::Accept { id } => ClientOut::Accept { id: seek_id(id)? },
        })
    }
}

/// A seek id as a client may send it: short, letters, digits, `-` and `_`.
fn seek_id(id: String) -> Result<String, String> {
    let plausible = !id.is_empty()
        && id.len() <= MAX_SEEK_ID
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if plausible {
        Ok(id)
    } else {
        Err("no such seek".to_string())
    }
}

/// A clock from the wire: an object `{initial_s, increment_s}` (an array is refused). The room
/// form's clock (`POST /api/rooms`) is read the same way.
///
/// # Errors
/// An unknown field, a missing `initial_s`, a value that is not a whole number, or a clock out
/// of bounds ([`ClockSettings::from_seconds`]).
pub fn parse_clock(clock: Option<serde_json::Map<String, serde_json::Value>>) -> Result<Option<ClockSettings>, String> {
    let Some(map) = clock else { return Ok(None) };
    let get = |k: &str| map.get(k).map(|v| v.as_u64().ok_or_else(|| format!("clock {k} must be a whole number")));
    if let Some(k) = map.keys().find(|k| *k != "initial_s" && *k != "increment_s") {
        return Err(format!("unknown clock field {k:?}"));
    }
    let initial = get("initial_s").ok_or("clock needs initial_s")??;
    let increment = get("increment_s").transpose()?.unwrap_or(0);
    ClockSettings::from_seconds(initial, increment).map(Some)
}

/// A name as shown, cleaned as a room's ([`crate::clean_name`]: no bidirectional or other
/// hidden characters, cut between grapheme clusters); none if empty.
fn clean_name(name: Option<String>) -> Option<String> {
    names::clean_name(&name?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::MAX_NAME_CHARS;
    use serde_json::json;

    #[test]
    fn clocks_are_objects_and_names_are_plain() {
        let obj = |v: serde_json::Value| v.as_object().cloned();
        assert_eq!(parse_clock(obj(json!({"initial_s": 180, "increment_s": 2}))).unwrap().unwrap().increment_ms, 2000);
        assert!(parse_clock(obj(json!({"initial_s": 0}))).is_err());
        assert!(parse_clock(obj(json!({"initial_s": 60, "extra": 1}))).is_err());
        assert_eq!(clean_name(Some("  <b>Ann</b>\u{7}  ".into())), Some("<b>Ann</b>".into()));
        assert_eq!(clean_name(Some("   ".into())), None);
        assert_eq!(clean_name(Some("x".repeat(100))).unwrap().chars().count(), MAX_NAME_CHARS);
        // A seek's name spoofed the lobby's list: a right-to-left override passed through.
        assert_eq!(clean_name(Some("Ann\u{202E}\u{2066}x".into())), Some("Annx".into()));
    }

    #[test]
    fn each_message_parses_and_bad_ones_say_why() {
        let seek = ClientOut::parse(r#"{"type": "seek", "clock": null, "colour": "black", "name": " Bo "}"#);
        assert_eq!(seek, Ok(ClientOut::Seek { clock: None, colour: SeekColour::Black, name: Some("Bo".into()) }));
        let seek = ClientOut::parse(r#"{"type": "seek", "clock": null}"#);
        assert_eq!(seek, Ok(ClientOut::Seek { clock: None, colour: SeekColour::Random, name: None }));
        assert_eq!(
            ClientOut::parse(r#"{"type": "cancel", "id": "node-a-7"}"#),
            Ok(ClientOut::Cancel { id: "node-a-7".into() })
        );
        assert_eq!(ClientOut::parse(r#"{"type": "ping"}"#), Ok(ClientOut::Ping));
        let colour = ClientOut::parse(r#"{"type": "seek", "clock": null, "colour": "green"}"#);
        assert_eq!(colour.unwrap_err(), "colour must be red, black or random");
        assert_eq!(
            ClientOut::parse(&format!(r#"{{"type": "accept", "id": "{}"}}"#, "1".repeat(49))).unwrap_err(),
            "no such seek"
        );
        assert!(ClientOut::parse(r#"{"type": "dance"}"#).unwrap_err().starts_with("bad message: "));
        assert!(ClientOut::parse(r#"{"type": "quick", "clock": [180, 2]}"#).unwrap_err().starts_with("bad message: "));
    }
}
