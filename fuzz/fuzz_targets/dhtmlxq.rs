#![no_main]
//! Any bytes (UTF-8 or GBK) as DhtmlXQ blocks, and through the importer that detects the
//! format: never a panic; a block that reads writes DhtmlXQ and XQF that read back to the
//! same start, main line and number of variations (comments may change: XQF holds GBK only,
//! DhtmlXQ has no brackets).

use libfuzzer_sys::fuzz_target;
use xiangqi::pgn::decode;
use xiangqi::record::{count_variations, dhtmlxq, import_all, xqf};

fuzz_target!(|data: &[u8]| {
    let text = decode(data);
    for game in dhtmlxq::read_all(&text).into_iter().flatten() {
        let again = dhtmlxq::read(&dhtmlxq::write(&game)).expect("our own DhtmlXQ reads");
        assert_eq!((&again.start, again.main_line()), (&game.start, game.main_line()));
        assert_eq!(count_variations(&again.line), count_variations(&game.line));
        let bin = xqf::read(&xqf::write(&game)).expect("our own XQF reads");
        assert_eq!(bin.main_line(), game.main_line());
        assert_eq!(count_variations(&bin.line), count_variations(&game.line));
    }
    let _ = import_all(data);
});
