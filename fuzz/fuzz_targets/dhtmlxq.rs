#![no_main]
//! Any bytes (UTF-8 or GBK) as DhtmlXQ blocks, and through the importer that detects the
//! format: never a panic; a block that reads writes DhtmlXQ and XQF that read back to the
//! same start and tree.

use libfuzzer_sys::fuzz_target;
use xiangqi::pgn::decode;
use xiangqi::record::{dhtmlxq, import_all, xqf};

fuzz_target!(|data: &[u8]| {
    let text = decode(data);
    for game in dhtmlxq::read_all(&text).into_iter().flatten() {
        let again = dhtmlxq::read(&dhtmlxq::write(&game)).expect("our own DhtmlXQ reads");
        assert_eq!((&again.start, &again.line), (&game.start, &game.line));
        let bin = xqf::read(&xqf::write(&game)).expect("our own XQF reads");
        assert_eq!(bin.line, game.line);
    }
    let _ = import_all(data);
});
