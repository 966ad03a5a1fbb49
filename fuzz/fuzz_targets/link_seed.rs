#![no_main]
//! Any text as the seed's `p` and `r`: a game or an error, never a panic or a hang; a decoded
//! game encodes back to a link that decodes to the same game.

use libfuzzer_sys::fuzz_target;
use xiangqi_link as link;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (p, r) = text.split_once('|').unwrap_or((&text, ""));
    // (Text with `?` or `#` can turn into another link, even a compact one: check seed links.)
    if let Some(game) = link::decode(&format!("p={p}&r={r}&s=1")).ok().filter(|g| g.format == link::LinkFormat::Seed) {
        let again = link::encode_seed(&game.start, &game.moves).expect("a decoded game is representable");
        let back = link::decode(&again.query()).expect("our own link decodes");
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.start, game.start);
    }
});
