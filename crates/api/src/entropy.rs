//! A varied number for the callers of [`crate::call`] and the engine's weak levels.

/// The clock's nanoseconds: varied enough for the weak engine levels and an unseeded puzzle
/// (nothing secret depends on it). Native only: `wasm32-unknown-unknown` has no clock, so
/// the WebAssembly module takes its number from JavaScript's `Math.random` instead.
pub fn clock_entropy() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
