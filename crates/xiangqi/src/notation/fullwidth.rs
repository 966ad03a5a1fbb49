//! Full-width forms, as Chinese and Vietnamese input methods type them (`Ｐ２－５`, `Ｈ２＋３`).

/// The text with full-width ASCII forms folded to ASCII and other dashes (`–`, `—`, `−`) to `-`.
pub(crate) fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            '–' | '—' | '−' => '-',
            _ => c,
        })
        .collect()
}

/// The text folded when that leaves it ASCII (a WXF, ICCS or Vietnamese move typed full-width);
/// as given otherwise (Chinese, whose reader takes full-width digits itself).
pub(crate) fn fold_ascii(text: &str) -> std::borrow::Cow<'_, str> {
    let folded = fold(text);
    if folded.is_ascii() && !text.is_ascii() {
        folded.into()
    } else {
        text.into()
    }
}
