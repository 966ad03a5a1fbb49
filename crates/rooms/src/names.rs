//! The players' names: optional free text a player gives for their seat, shown in the room and
//! written in the PGN's `[Red]` / `[Black]`.
//!
//! ```
//! use qi_rooms::clean_name;
//! assert_eq!(clean_name("  <b>Ann</b>\u{7} "), Some("<b>Ann</b>".to_string()));
//! assert_eq!(clean_name(" \n "), None);
//! assert_eq!(clean_name(&"x".repeat(99)).unwrap().chars().count(), qi_rooms::MAX_NAME_CHARS);
//! ```

/// Longest name, in characters (longer ones are cut).
pub const MAX_NAME_CHARS: usize = 24;

/// A name as kept: control characters dropped, trimmed, at most [`MAX_NAME_CHARS`]; none if
/// nothing is left. It stays plain text: pages show it as text, never as HTML.
pub fn clean_name(name: &str) -> Option<String> {
    let kept: String = name.chars().filter(|c| !c.is_control()).collect();
    let cut: String = kept.trim().chars().take(MAX_NAME_CHARS).collect();
    let cut = cut.trim_end();
    (!cut.is_empty()).then(|| cut.to_string())
}
