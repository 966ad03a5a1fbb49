//! The clock the search reads: `std::time::Instant` natively, the browser's clock on
//! WebAssembly (where `std`'s panics: `wasm32-unknown-unknown` has no system clock).

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::Instant;
