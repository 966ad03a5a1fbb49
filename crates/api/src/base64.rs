//! Standard base64 (RFC 4648, with or without padding) for the bytes of a record file sent in
//! JSON: the page reads binary XQF files and the API speaks text.

use crate::ApiError;

fn value(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

/// Decodes `text`, refusing anything that would decode to more than `limit` bytes.
///
/// # Errors
/// A character outside the alphabet (`bad_base64`, with its offset), a length no encoder
/// writes, or more than `limit` bytes (`too_large`).
pub(crate) fn decode(text: &str, limit: usize) -> Result<Vec<u8>, ApiError> {
    let body = text.trim_end_matches('=').as_bytes();
    if body.len() / 4 * 3 > limit {
        return Err(ApiError::bad_request(format!("the file is larger than {limit} bytes"))
            .with_code("too_large", [("limit", limit.to_string())]));
    }
    let bad = |at: usize| {
        ApiError::bad_request(format!("bad base64 at character {at}")).with_code("bad_base64", [("at", at.to_string())])
    };
    if body.len() % 4 == 1 || text.len() - body.len() > 2 {
        return Err(bad(body.len()));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    for (k, chunk) in body.chunks(4).enumerate() {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc = acc << 6 | value(c).ok_or_else(|| bad(4 * k + i))?;
        }
        acc <<= 6 * (4 - chunk.len() as u32);
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    if out.len() > limit {
        return Err(ApiError::bad_request(format!("the file is larger than {limit} bytes"))
            .with_code("too_large", [("limit", limit.to_string())]));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_rfc_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(decode(coded, 100).unwrap(), plain.as_bytes(), "{coded}");
            assert_eq!(decode(coded.trim_end_matches('='), 100).unwrap(), plain.as_bytes(), "{coded} unpadded");
        }
        assert_eq!(decode("/+8A", 3).unwrap(), [0xff, 0xef, 0x00]);
    }

    #[test]
    fn refuses_what_no_encoder_writes() {
        assert_eq!(decode("Zm9v!", 100).unwrap_err().code, Some("bad_base64"));
        assert_eq!(decode("Z", 100).unwrap_err().code, Some("bad_base64"));
        assert_eq!(decode("Zg===", 100).unwrap_err().code, Some("bad_base64"));
        assert_eq!(decode("Zm9vYmFy", 5).unwrap_err().code, Some("too_large"));
    }
}
