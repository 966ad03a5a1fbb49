//! The players' names: optional free text a player gives for their seat, shown in the room and
//! written in the PGN's `[Red]` / `[Black]`.
//!
//! ```
//! use qi_rooms::clean_name;
//! assert_eq!(clean_name("  <b>Ann</b>\u{7} "), Some("<b>Ann</b>".to_string()));
//! assert_eq!(clean_name(" \n "), None);
//! assert_eq!(clean_name(&"x".repeat(99)).unwrap().chars().count(), qi_rooms::MAX_NAME_CHARS);
//! // No bidirectional override: the name cannot turn the text after it round.
//! assert_eq!(clean_name("Ann\u{202E}\u{2066}"), Some("Ann".to_string()));
//! ```

/// Longest name, in characters (longer ones are cut).
pub const MAX_NAME_CHARS: usize = 24;

use crate::shown::is_hidden;
use unicode_segmentation::UnicodeSegmentation;

/// A name as kept: hidden characters ([`crate::is_hidden`]: controls, bidirectional and other
/// format characters) dropped, trimmed, at most [`MAX_NAME_CHARS`] characters, cut between
/// grapheme clusters (an emoji sequence or a letter with its accents is kept whole or not at
/// all); none if nothing is left. It stays plain text: pages show it as text, never as HTML.
pub fn clean_name(name: &str) -> Option<String> {
    let kept: String = name.chars().filter(|&c| !is_hidden(c)).collect();
    let mut cut = String::new();
    let mut chars = 0;
    for cluster in kept.trim().graphemes(true) {
        chars += cluster.chars().count();
        if chars > MAX_NAME_CHARS {
            break;
        }
        cut.push_str(cluster);
    }
    let cut = cut.trim_end();
    (!cut.is_empty()).then(|| cut.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_cut_between_grapheme_clusters() {
        // A family emoji is five characters (three people joined by two ZWJ): cut at 24
        // characters it lost its last person and kept a dangling joiner.
        let family = "👨\u{200D}👩\u{200D}👧";
        let name = format!("{}{family}", "x".repeat(MAX_NAME_CHARS - 3));
        assert_eq!(clean_name(&name), Some("x".repeat(MAX_NAME_CHARS - 3)));
        let fits = format!("{}{family}", "x".repeat(MAX_NAME_CHARS - 5));
        assert_eq!(clean_name(&fits), Some(fits.clone()));
        // A letter with its accent is one cluster of two characters.
        let accent = format!("{}e\u{301}", "x".repeat(MAX_NAME_CHARS - 1));
        assert_eq!(clean_name(&accent), Some("x".repeat(MAX_NAME_CHARS - 1)));
    }

    #[test]
    fn leading_spaces_do_not_cost_letters() {
        // The name is trimmed before it is cut: spaces in front take none of its characters.
        let name = format!("{}{}", " ".repeat(10), "y".repeat(MAX_NAME_CHARS));
        assert_eq!(clean_name(&name), Some("y".repeat(MAX_NAME_CHARS)));
        assert_eq!(clean_name("   Ann"), Some("Ann".into()));
        assert_eq!(clean_name(" \u{202E} Ann"), Some("Ann".into()));
    }

    #[test]
    fn bidirectional_and_format_characters_are_dropped() {
        assert_eq!(clean_name("\u{202E}nimda"), Some("nimda".into()));
        assert_eq!(clean_name("a\u{2066}b\u{2069}\u{2028}c\u{200F}\u{FEFF}"), Some("abc".into()));
        assert_eq!(clean_name("\u{202E}\u{2028}"), None);
    }
}
