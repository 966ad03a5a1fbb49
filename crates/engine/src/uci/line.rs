//! Reading the GUI's command lines as bytes, so that no line can end the loop: a line that is
//! not UTF-8 (a GUI that sends a GBK path) or longer than [`MAX_LINE_BYTES`] comes back as a
//! [`BadLine`] for the loop to report and skip, and a long line never holds more than the
//! bound in memory.

use core::fmt;
use std::io::{self, BufRead};

/// The longest command line the loop reads, in bytes: a `position` with a FEN and the most
/// moves a game may have (4,000 of 5 bytes) takes about 20 KB.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// A line the loop cannot take as a command.
#[derive(Debug)]
pub(super) struct BadLine {
    /// Its first word, as far as it reads (the loop answers a refused `go` and forgets the
    /// position after a refused `position`).
    pub(super) first_word: String,
    why: Why,
}

#[derive(Debug)]
enum Why {
    NotUtf8,
    TooLong(usize),
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.why {
            Why::NotUtf8 => f.write_str("a line that is not UTF-8 was ignored"),
            Why::TooLong(n) => write!(f, "a line of {n} bytes was ignored (at most {MAX_LINE_BYTES})"),
        }
    }
}

/// The next line of `input` without its `\n` or `\r\n` (as [`BufRead::lines`] gives it), or
/// `None` at the end of the input. `buf` is scratch space reused between calls.
///
/// # Errors
///
/// A failure to read `input`.
pub(super) fn read<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<Result<String, BadLine>>> {
    buf.clear();
    // Bytes of the line, counted past what is kept.
    let mut total = 0usize;
    let mut ended = false;
    while !ended {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let take = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => {
                ended = true;
                at + 1
            }
            None => chunk.len(),
        };
        // Room for the line and its `\r\n`; what is past it is only counted.
        let room = (MAX_LINE_BYTES + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        total += take;
        input.consume(take);
    }
    if ended {
        total -= 1;
        // A line cut short lost its `\n` already.
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
    }
    if total == buf.len() && buf.last() == Some(&b'\r') {
        buf.pop();
        total -= 1;
    }
    let first_word = || {
        let start = &buf[..buf.len().min(64)];
        String::from_utf8_lossy(start).split_whitespace().next().unwrap_or_default().to_string()
    };
    if total > MAX_LINE_BYTES {
        return Ok(Some(Err(BadLine { first_word: first_word(), why: Why::TooLong(total) })));
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(text) => Ok(text.to_string()),
        Err(_) => Err(BadLine { first_word: first_word(), why: Why::NotUtf8 }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Result<String, String>> {
        // A tiny buffer: lines arrive in many pieces, as from a pipe.
        let mut input = io::BufReader::with_capacity(7, bytes);
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while let Some(line) = read(&mut input, &mut buf).unwrap() {
            lines.push(line.map_err(|e| format!("{} {e}", e.first_word)));
        }
        lines
    }

    #[test]
    fn lines_end_at_newlines_as_lines_gives_them() {
        let want: Vec<Result<String, String>> =
            vec![Ok("uci".into()), Ok("".into()), Ok("isready".into()), Ok("go depth 1".into())];
        assert_eq!(all(b"uci\n\r\nisready\r\ngo depth 1"), want);
        assert!(all(b"").is_empty());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_next_is_read() {
        let lines = all(b"uci\n\xff\xfe\nposition fen \xc6\xe5\nisready\n");
        assert_eq!(lines[1], Err("\u{fffd}\u{fffd} a line that is not UTF-8 was ignored".into()));
        assert_eq!(lines[2], Err("position a line that is not UTF-8 was ignored".into()));
        assert_eq!(lines[3], Ok("isready".into()));
    }

    #[test]
    fn a_long_line_is_counted_not_kept() {
        let mut bytes = b"go ".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE_BYTES));
        bytes.extend_from_slice(b"\nisready\n");
        let mut input = io::BufReader::new(&bytes[..]);
        let mut buf = Vec::new();
        let err = read(&mut input, &mut buf).unwrap().unwrap().unwrap_err();
        assert!(buf.len() <= MAX_LINE_BYTES + 2, "{}", buf.len());
        assert_eq!(
            (err.first_word.as_str(), err.to_string()),
            ("go", format!("a line of {} bytes was ignored (at most 65536)", 3 + 3 * MAX_LINE_BYTES))
        );
        assert_eq!(read(&mut input, &mut buf).unwrap().unwrap().unwrap(), "isready");
        let exact = vec![b'a'; MAX_LINE_BYTES];
        assert!(all(&exact)[0].is_ok());
    }
}
