#![no_main]
//! Any text as the body of each page-API path through `qi_api::call`, the entry point the
//! WebAssembly module gives JavaScript: an answer or an error below 500 with a short message,
//! never a panic (a panic would end the page's WebAssembly instance). The engine's path is left
//! out: it thinks for its time limit on every input.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else { return };
    let paths: Vec<&str> = qi_api::CALL_PATHS.iter().copied().filter(|p| *p != "/xq/engine").chain(["/huarong/puzzle"]).collect();
    let path = paths[pick as usize % paths.len()];
    let body = String::from_utf8_lossy(body);
    if let Err(e) = qi_api::call(path, &body, 7) {
        assert!(e.status < 500, "{path}: {e}");
        assert!(!e.message.is_empty() && e.message.len() <= qi_api::MAX_MESSAGE_BYTES, "{path}: {e}");
    }
});
