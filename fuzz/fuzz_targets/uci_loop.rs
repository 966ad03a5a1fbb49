#![no_main]
//! Any bytes fed to the engine's protocol loop as a GUI would (`qi engine uci` runs the same
//! `uci::run`, on standard input and output): lines that are not UTF-8, longer than the
//! line bound, `\r\n` endings, a missing last newline. The loop never panics or fails on
//! in-memory input, and every line whose first word is `go` (before a `quit`) gets exactly
//! one `bestmove` / `nobestmove`.
//!
//! Searches are kept tiny: every `go` that reads is given `depth 3 nodes 3000` first (its own
//! limits, which come later, win; a search still running is stopped by the next command and
//! at the end of the input anyway). `setoption` lines about the hash, threads or an eval file
//! are dropped: they allocate up to gigabytes, start dozens of threads or read files, which
//! is not the loop's input handling.

use libfuzzer_sys::fuzz_target;
use xiangqi_engine::uci::{run, MAX_LINE_BYTES};

/// The first word of `line` (without its `\n`) as the loop sees it: the whole line's when it
/// reads as a command, else that of its first 64 bytes (what the loop answers a refused
/// line by).
fn first_word(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match std::str::from_utf8(line) {
        Ok(text) if line.len() <= MAX_LINE_BYTES => text.split_whitespace().next().unwrap_or("").to_string(),
        _ => String::from_utf8_lossy(&line[..line.len().min(64)]).split_whitespace().next().unwrap_or("").to_string(),
    }
}

/// Whether the loop reads `line` whole as a command (UTF-8, within the bound).
fn reads(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.len() <= MAX_LINE_BYTES && std::str::from_utf8(line).is_ok()
}

/// The input with bounded searches, as described above.
fn tame(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 64);
    let mut lines = data.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        if last && line.is_empty() {
            break;
        }
        let word = first_word(line);
        let lower = String::from_utf8_lossy(line).to_lowercase();
        let costly = ["hash", "thread", "evalfile"].iter().any(|w| lower.contains(w));
        if word == "setoption" && costly {
            continue;
        }
        match line.windows(2).position(|w| w == b"go") {
            Some(at) if word == "go" && reads(line) => {
                out.extend_from_slice(&line[..at + 2]);
                out.extend_from_slice(b" depth 3 nodes 3000");
                out.extend_from_slice(&line[at + 2..]);
            }
            _ => out.extend_from_slice(line),
        }
        if !last {
            out.push(b'\n');
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let input = tame(data);
    let mut gos = 0;
    for line in input.split(|&b| b == b'\n') {
        match first_word(line).as_str() {
            "quit" if reads(line) => break,
            "go" => gos += 1,
            _ => {}
        }
    }
    // A last empty piece after the final newline is no line; it has no first word either.
    let mut out = Vec::new();
    run(&input[..], &mut out).expect("reading and writing memory never fails");
    let text = String::from_utf8(out).expect("the engine writes UTF-8");
    let answers = text.lines().filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove")).count();
    assert_eq!(answers, gos, "{gos} go lines, {answers} answers:\n{text}");
});
