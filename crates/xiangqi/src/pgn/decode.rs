//! Text from bytes: UTF-8 (with or without a byte order mark), else GBK.

use std::borrow::Cow;

/// Decodes a PGN file: UTF-8 when the bytes are valid UTF-8, else GBK (read as GB18030, its
/// superset), the encoding of most Chinese game collections. Never fails: bytes that are not
/// GBK either become U+FFFD.
///
/// ```
/// // "炮二平五" in GBK.
/// let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5];
/// assert_eq!(xiangqi::pgn::decode(&gbk), "炮二平五");
/// assert_eq!(xiangqi::pgn::decode("\u{feff}h2e2".as_bytes()), "h2e2");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match core::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => encoding_rs::GB18030.decode_without_bom_handling(bytes).0,
    }
}
