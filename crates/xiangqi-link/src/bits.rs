//! Bits packed most significant bit first, and base64url text (RFC 4648 §5, no `=` padding).

use super::LinkError;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The value 0..64 of a base64url character.
pub(crate) fn char_value(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    })
}

/// The base64url character of a 6-bit value.
pub(crate) fn value_char(v: u8) -> char {
    ALPHABET[(v & 63) as usize] as char
}

/// Bytes to base64url without padding.
pub(crate) fn to_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(value_char((n >> (18 - 6 * i)) as u8));
        }
    }
    out
}

/// Base64url without padding to bytes; the leftover bits of the last character are dropped.
/// `field` names the query field in errors.
pub(crate) fn from_base64(text: &str, field: &'static str) -> Result<Vec<u8>, LinkError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut nbits) = (0u32, 0u32);
    for (i, c) in text.bytes().enumerate() {
        let v = char_value(c).ok_or(LinkError::BadCharacter { field, position: i, character: char_of(text, i) })?;
        acc = acc << 6 | v as u32;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((acc >> nbits) as u8);
            acc &= (1 << nbits) - 1;
        }
    }
    if text.len() % 4 == 1 {
        return Err(LinkError::Truncated { field });
    }
    Ok(out)
}

/// The character starting at byte `i` of `text` (for error messages).
pub(crate) fn char_of(text: &str, i: usize) -> char {
    text.get(i..).and_then(|s| s.chars().next()).unwrap_or('\u{fffd}')
}

/// Appends bits most significant first.
#[derive(Default, Clone, Debug)]
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    /// Writes the low `n` bits of `value` (n <= 32), most significant first.
    pub fn write(&mut self, value: u32, n: u32) {
        for i in (0..n).rev() {
            self.push(value >> i & 1 != 0);
        }
    }

    pub fn push(&mut self, bit: bool) {
        if self.len % 8 == 0 {
            self.bytes.push(0);
        }
        if bit {
            let last = self.bytes.len() - 1;
            self.bytes[last] |= 0x80 >> (self.len % 8);
        }
        self.len += 1;
    }

    /// Drops zero bits at the end (a reader that reads zeros past the end gets them back).
    pub fn trim_trailing_zeros(&mut self) {
        while self.len > 0 && self.bytes[(self.len - 1) / 8] & (0x80 >> ((self.len - 1) % 8)) == 0 {
            self.len -= 1;
            if self.len % 8 == 0 {
                self.bytes.pop();
            }
        }
    }

    /// Number of bits written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The bytes, the unused bits of the last one filled with `fill`.
    pub fn into_bytes(mut self, fill: bool) -> Vec<u8> {
        while fill && self.len % 8 != 0 {
            self.push(true);
        }
        self.bytes
    }

    /// The bits as 6-bit groups (base64url characters), the last group padded with zeros.
    pub fn to_base64_bits(&self) -> String {
        let mut out = String::with_capacity(self.len.div_ceil(6));
        for start in (0..self.len).step_by(6) {
            let mut v = 0u8;
            for i in 0..6 {
                let k = start + i;
                let bit = k < self.len && self.bytes[k / 8] & (0x80 >> (k % 8)) != 0;
                v = v << 1 | bit as u8;
            }
            out.push(value_char(v));
        }
        out
    }
}

/// Reads bits most significant first.
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BitReader<'a> {
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() * 8 - self.pos
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn bit(&mut self) -> Option<bool> {
        let b = *self.bytes.get(self.pos / 8)? & (0x80 >> (self.pos % 8)) != 0;
        self.pos += 1;
        Some(b)
    }

    /// Reads `n` bits (n <= 32) as a number, or `None` if fewer remain.
    pub fn read(&mut self, n: u32) -> Option<u32> {
        if self.remaining() < n as usize {
            return None;
        }
        let mut v = 0u32;
        for _ in 0..n {
            v = v << 1 | self.bit()? as u32;
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        for n in 0..20usize {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            let text = to_base64(&bytes);
            assert_eq!(text.len(), (n * 4).div_ceil(3));
            assert_eq!(from_base64(&text, "p").unwrap(), bytes);
        }
        assert!(matches!(from_base64("ab=c", "p"), Err(LinkError::BadCharacter { position: 2, .. })));
        assert!(matches!(from_base64("abcde", "p"), Err(LinkError::Truncated { .. })));
    }

    #[test]
    fn bits_round_trip() {
        let mut w = BitWriter::new();
        w.write(5, 3);
        w.write(0x1234, 16);
        w.push(true);
        assert_eq!(w.len(), 20);
        let bytes = w.into_bytes(true);
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.read(3), Some(5));
        assert_eq!(r.read(16), Some(0x1234));
        assert_eq!(r.bit(), Some(true));
        assert_eq!(r.read(4), Some(15));
        assert_eq!(r.read(1), None);
    }
}
