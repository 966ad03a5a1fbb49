//! Text a player writes for others to see (names, chat): characters that change how the text
//! round them is shown without being seen themselves are taken out, so that a name or a chat
//! line cannot reverse, reorder or break the text after it (U+202E turned `gnp.exe` round).
//!
//! ```
//! use qi_rooms::is_hidden;
//! assert!(is_hidden('\u{202E}') && is_hidden('\u{2066}') && is_hidden('\u{2028}') && is_hidden('\n'));
//! // The zero-width joiner stays: emoji sequences and many scripts need it.
//! assert!(!is_hidden('\u{200D}') && !is_hidden('棋'));
//! ```

/// Whether `c` is taken out of text shown to others: control characters; the bidirectional
/// formatting characters (the Arabic letter mark, left-to-right and right-to-left marks,
/// embeddings, overrides and isolates); the line and paragraph separators; and the invisible
/// format characters (zero-width space, word joiner and invisible operators, the byte order
/// mark, interlinear annotation, the Mongolian vowel separator). The zero-width joiner and
/// non-joiner (U+200C, U+200D) stay.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// A chat line as shown: characters that break a line (controls, the line and paragraph
/// separators) become spaces, the other hidden ones are dropped.
pub(crate) fn chat_text(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\u{2028}' | '\u{2029}' => Some(' '),
            c if c.is_control() => Some(' '),
            c if is_hidden(c) => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_keeps_the_visible_text_and_its_breaks_as_spaces() {
        assert_eq!(chat_text("a\u{202E}gnp.exe\u{2066}b\u{2069}\u{200B}"), "agnp.exeb");
        assert_eq!(chat_text("one\u{2028}two\nthree"), "one two three");
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(chat_text(family), family);
    }
}
