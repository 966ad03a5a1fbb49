#![no_main]
//! Any text: every line is parsed as a UCI and as a UCCI command; parsing answers a command or
//! an error, never panics, and a `go` it accepts gives a thinking time without overflow.

use libfuzzer_sys::fuzz_target;
use xiangqi::Color;
use xiangqi_engine::protocol::{parse, Command, Dialect};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            match parse(line, dialect) {
                Ok(Command::Go(go)) => {
                    for turn in [Color::Red, Color::Black] {
                        for overhead in [0, 10, 5000] {
                            let _ = go.think_time(turn, overhead);
                        }
                    }
                }
                Ok(Command::Position { position, history }) => {
                    let _ = position.legal_moves();
                    assert!(history.len() <= line.len());
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
});
