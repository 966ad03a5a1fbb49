#![no_main]
//! Any text as a compact link value: a game or an error, never a panic or a hang; a decoded
//! game encodes back to a value that decodes to the same game, move counters included.

use libfuzzer_sys::fuzz_target;
use xiangqi_link as link;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for candidate in [format!("g={text}"), format!("g=B{text}"), format!("g=C{text}"), text.to_string()] {
        if let Ok(game) = link::decode(&candidate) {
            if game.format == link::LinkFormat::Compact {
                let value = link::encode_compact(&game.start, &game.moves);
                let back = link::decode(&format!("g={value}")).expect("our own link decodes");
                assert_eq!(back.moves, game.moves);
                // The start comes back whole, move counters included (version 2).
                assert_eq!(back.start, game.start);
            }
        }
    }
});
