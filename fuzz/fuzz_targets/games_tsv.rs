#![no_main]
//! Any text as a games file (`qi link stats`, `qi link train`): games or an error naming the
//! line, never a panic; every game read fits the game-length limit and comes back the same
//! from a checked compact link.

use libfuzzer_sys::fuzz_target;
use xiangqi_link::{self as link, train, LinkFormat};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match train::parse_games(&text) {
        Ok(games) => {
            for game in &games {
                assert!(game.moves.len() <= xiangqi::MAX_GAME_PLIES);
                let query = link::encode_query(LinkFormat::Compact, &game.start, &game.moves)
                    .expect("the compact format carries every legal game");
                assert!(query.starts_with("g="));
                let _ = game.final_position();
            }
        }
        Err(message) => assert!(message.starts_with("line "), "{message}"),
    }
});
