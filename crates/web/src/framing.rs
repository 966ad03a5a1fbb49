//! Notices requests that give their length twice (`Content-Length` and `Transfer-Encoding`).
//!
//! A proxy in front may read such a request's end differently than we do (request smuggling).
//! hyper follows RFC 9112 (Transfer-Encoding wins, the connection closes after the answer) and
//! removes `Content-Length` before the app sees the request, so the app cannot tell. This reads
//! the same bytes as hyper, as they arrive: it finds each request head, notes whether it has
//! both headers, and skips the body by its framing to find the next head. The server refuses a
//! request so noted with 400.

use std::collections::VecDeque;

/// What the bytes of one connection said about each request head, in order.
#[derive(Debug, Default)]
pub struct Framing {
    state: State,
    /// The current head, or the current chunk-size or trailer line.
    text: Vec<u8>,
    /// One entry per complete (or too long) head not yet taken.
    doubled: VecDeque<Verdict>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    #[default]
    Head,
    Body(u64),
    ChunkSize,
    ChunkData(u64),
    ChunkEnd,
    Trailer,
    /// Past a head we cannot follow (an upgrade, CONNECT, a malformed length): nothing after it
    /// is checked.
    Lost,
}

/// Largest request head (request line and headers) hyper buffers; a longer one gets 431.
/// The address alone is limited to [`crate::MAX_URI_BYTES`].
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// Longest head or line followed; hyper refuses longer heads itself.
const MAX_TEXT: usize = MAX_HEAD_BYTES;

/// The verdict on the request hyper is about to serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// One way of giving the length, or none.
    Single,
    /// Both `Content-Length` and `Transfer-Encoding`.
    Doubled,
    /// The bytes could not be followed this far (after an upgrade request, say).
    Unknown,
    /// A head longer than [`MAX_HEAD_BYTES`] (refused with 431, however its bytes arrived).
    TooLarge,
}

impl Framing {
    /// Follows the bytes just read from the client.
    pub fn read(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            match self.state {
                State::Lost => return,
                State::Body(left) | State::ChunkData(left) => {
                    let n = left.min(bytes.len() as u64);
                    bytes = &bytes[n as usize..];
                    let left = left - n;
                    self.state = match self.state {
                        State::Body(_) if left == 0 => State::Head,
                        State::Body(_) => State::Body(left),
                        _ if left == 0 => State::ChunkEnd,
                        _ => State::ChunkData(left),
                    };
                }
                State::Head | State::ChunkSize | State::ChunkEnd | State::Trailer => {
                    let byte = bytes[0];
                    bytes = &bytes[1..];
                    self.byte(byte);
                }
            }
        }
    }

    /// The verdict on the next request, in the order hyper serves them.
    pub fn take(&mut self) -> Verdict {
        self.doubled.pop_front().unwrap_or(Verdict::Unknown)
    }

    fn byte(&mut self, byte: u8) {
        // Empty lines before a request line are ignored, as hyper does.
        if self.state == State::Head && self.text.is_empty() && (byte == b'\r' || byte == b'\n') {
            return;
        }
        if self.text.len() >= MAX_TEXT {
            if self.state == State::Head {
                self.doubled.push_back(Verdict::TooLarge);
            }
            self.state = State::Lost;
            return;
        }
        self.text.push(byte);
        if byte != b'\n' {
            return;
        }
        match self.state {
            State::Head if self.text.ends_with(b"\n\r\n") || self.text.ends_with(b"\n\n") => self.head(),
            State::Head => {}
            State::ChunkSize => {
                self.state = match chunk_size(&self.text) {
                    Some(0) => State::Trailer,
                    Some(n) => State::ChunkData(n),
                    None => State::Lost,
                };
                self.text.clear();
            }
            State::ChunkEnd => {
                self.state = State::ChunkSize;
                self.text.clear();
            }
            State::Trailer => {
                if self.text == b"\r\n" || self.text == b"\n" {
                    self.state = State::Head;
                }
                self.text.clear();
            }
            State::Body(_) | State::ChunkData(_) | State::Lost => unreachable!("no line is read in these states"),
        }
    }

    /// A complete head: note its verdict and go to its body.
    fn head(&mut self) {
        let text = std::mem::take(&mut self.text);
        let mut lines = text.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l));
        let request_line = lines.next().unwrap_or_default();
        let (mut length, mut chunked, mut upgrade) = (None, false, request_line.starts_with(b"CONNECT "));
        let mut bad_length = false;
        for line in lines {
            let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
            let name = line[..colon].trim_ascii();
            let value = line[colon + 1..].trim_ascii();
            if name.eq_ignore_ascii_case(b"content-length") {
                match std::str::from_utf8(value).ok().and_then(|v| v.parse::<u64>().ok()) {
                    Some(n) => length = Some(n),
                    None => bad_length = true,
                }
            } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
                chunked = true;
            } else if name.eq_ignore_ascii_case(b"upgrade") {
                upgrade = true;
            }
        }
        let doubled = chunked && (length.is_some() || bad_length);
        self.doubled.push_back(if doubled { Verdict::Doubled } else { Verdict::Single });
        self.state = if doubled || upgrade || bad_length {
            // hyper closes the connection after a doubled length or a bad one; after an upgrade
            // the bytes are no longer HTTP.
            State::Lost
        } else if chunked {
            State::ChunkSize
        } else {
            match length {
                Some(n) if n > 0 => State::Body(n),
                _ => State::Head,
            }
        };
    }
}

/// The size on a chunk-size line (`1a;name=value\r\n`).
fn chunk_size(line: &[u8]) -> Option<u64> {
    let digits = line.split(|&b| b == b';').next()?.trim_ascii();
    u64::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdicts(input: &[u8], pieces: usize) -> Vec<Verdict> {
        let mut framing = Framing::default();
        for piece in input.chunks(input.len().div_ceil(pieces).max(1)) {
            framing.read(piece);
        }
        std::iter::from_fn(|| Some(framing.take()).filter(|v| *v != Verdict::Unknown)).collect()
    }

    #[test]
    fn heads_are_found_after_bodies_of_either_framing_in_any_split() {
        let input = b"\r\nPOST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello\
            POST /b HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n\
            GET /c HTTP/1.1\r\nHost: x\r\n\r\n\
            POST /d HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        for pieces in [1, 2, 7, input.len()] {
            let expected = [Verdict::Single, Verdict::Single, Verdict::Single, Verdict::Doubled];
            assert_eq!(verdicts(input, pieces), expected, "in {pieces} pieces");
        }
    }

    #[test]
    fn the_order_of_the_two_headers_does_not_matter() {
        let input = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\ncontent-length: 3\r\n\r\n";
        assert_eq!(verdicts(input, 1), [Verdict::Doubled]);
    }

    #[test]
    fn nothing_is_checked_after_an_upgrade_request() {
        let input = b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\nPOST / HTTP/1.1\r\nContent-Length: 1\r\n\
            Transfer-Encoding: chunked\r\n\r\n";
        let mut framing = Framing::default();
        framing.read(input);
        assert_eq!(framing.take(), Verdict::Single);
        assert_eq!(framing.take(), Verdict::Unknown);
    }
}
