//! The engine's net in the browser: the page fetches the net file once and installs it here
//! (the WebAssembly has none built in, to keep the page's first load small); every engine made
//! afterwards, and the computer's moves, evaluate with it, as the native build does.

use std::sync::Arc;
use wasm_bindgen::prelude::*;
use xiangqi::Position;
use xiangqi_engine::nnue::{self, Network};

/// Installs the net in `bytes` (a `.nnue` file as `qi engine train` writes it) for the engines
/// made from now on; returns its checksum as 16 hexadecimal digits.
///
/// # Errors
/// Bytes that are not a net of this version (the message says why); the net in use is kept.
#[wasm_bindgen(js_name = loadNet)]
pub fn load_net(bytes: &[u8]) -> Result<String, JsError> {
    let net = Network::from_bytes(bytes).map_err(|e| JsError::new(&format!("not a net: {e}")))?;
    let checksum = format!("{:016x}", net.checksum());
    nnue::set_default_net(Some(Arc::new(net)));
    Ok(checksum)
}

/// Goes back to the hand-written evaluation for the engines made from now on.
#[wasm_bindgen(js_name = unloadNet)]
pub fn unload_net() {
    nnue::set_default_net(None);
}

/// The checksum of the installed net (16 hexadecimal digits), or `undefined` when none is.
#[wasm_bindgen(js_name = netChecksum)]
pub fn net_checksum() -> Option<String> {
    nnue::default_net().map(|net| format!("{:016x}", net.checksum()))
}

/// The static evaluation of `fen` in centipawns for the side to move: the installed net's, or
/// the hand-written evaluation's when none is installed (the numbers `qi engine eval` prints).
///
/// # Errors
/// A FEN that does not read.
#[wasm_bindgen]
pub fn evaluate(fen: &str) -> Result<i32, JsError> {
    let pos = Position::from_fen(fen.trim()).map_err(|e| JsError::new(&format!("bad FEN: {e}")))?;
    Ok(match nnue::default_net() {
        Some(net) => nnue::accumulator::evaluate(&net, &pos),
        None => xiangqi_engine::evaluate(&pos),
    })
}
