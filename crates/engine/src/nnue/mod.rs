//! The learned evaluation (NNUE): a net whose first layer reads which piece stands on which
//! square, seen from each side, kept up to date move by move in an accumulator, so that a
//! position costs a few vector additions and one small dot product.
//!
//! - [`features`]: the input, a piece on a square from one side's view (the board turned
//!   round for Black);
//! - [`network`]: the quantised net and its versioned, checksummed file format;
//! - [`accumulator`]: the first layer's output for both sides, updated incrementally;
//! - `simd`: the vector kernels, with a scalar path that gives the same numbers.

pub mod accumulator;
pub mod features;
pub mod network;
pub(crate) mod simd;

pub use accumulator::Accumulator;
pub use network::{NetError, Network};

use std::sync::Arc;

/// The WebAssembly build's net: none built in (the page's first load must stay small), so the
/// page fetches the net when it first needs the engine and installs it here.
#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::Mutex<Option<Arc<Network>>> = std::sync::Mutex::new(None);

/// The net engines start with: in the WebAssembly build, the one installed by
/// [`set_default_net`] (none until then).
#[cfg(target_arch = "wasm32")]
pub fn default_net() -> Option<Arc<Network>> {
    INSTALLED.lock().map_or(None, |net| net.clone())
}

/// Installs the net that engines made from now on start with (`None`: the hand-written
/// evaluation). WebAssembly only: a native build has its net built in.
#[cfg(target_arch = "wasm32")]
pub fn set_default_net(net: Option<Arc<Network>>) {
    if let Ok(mut installed) = INSTALLED.lock() {
        *installed = net;
    }
}

/// The net built into this program, if it was built with one. The WebAssembly build has none
/// built in: its first load must stay small, so the page fetches a net when it needs one.
#[cfg(not(target_arch = "wasm32"))]
pub fn default_net() -> Option<Arc<Network>> {
    use std::sync::OnceLock;
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| {
        let bytes: &[u8] = include_bytes!("../../nets/default.nnue");
        Network::from_bytes(bytes).ok().map(Arc::new)
    })
    .clone()
}

/// What an `EvalFile` value names: `<default>` the built-in net, `classical` the hand-written
/// evaluation (`None`), anything else a net file's path.
///
/// # Errors
/// A message for a file that cannot be read or is not a net, or for `<default>` in a program
/// built without one.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_eval_file(name: &str) -> Result<Option<Arc<Network>>, String> {
    match name.trim() {
        "classical" => Ok(None),
        "<default>" | "" => default_net().map(Some).ok_or_else(|| "this build has no built-in net".to_string()),
        path => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Network::from_bytes(&bytes).map(|n| Some(Arc::new(n))).map_err(|e| format!("{path}: {e}"))
        }
    }
}
