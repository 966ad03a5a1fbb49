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

/// The net installed by [`set_default_net`], once one is (`Some(None)`: the hand-written
/// evaluation).
static INSTALLED: std::sync::Mutex<Option<Option<Arc<Network>>>> = std::sync::Mutex::new(None);

/// The net engines start with: the one installed by [`set_default_net`], else the one built
/// into this program. The WebAssembly build has none built in (its first load must stay small):
/// the page fetches the net when it first needs the engine and installs it.
pub fn default_net() -> Option<Arc<Network>> {
    match INSTALLED.lock().map(|installed| installed.clone()) {
        Ok(Some(net)) => net,
        _ => built_in(),
    }
}

/// Installs the net that engines made from now on start with (`None`: the hand-written
/// evaluation), in place of the built-in one.
pub fn set_default_net(net: Option<Arc<Network>>) {
    if let Ok(mut installed) = INSTALLED.lock() {
        *installed = Some(net);
    }
}

#[cfg(target_arch = "wasm32")]
fn built_in() -> Option<Arc<Network>> {
    None
}

#[cfg(not(target_arch = "wasm32"))]
fn built_in() -> Option<Arc<Network>> {
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
