//! Zobrist keys, generated at compile time from a fixed seed so hashes never change between
//! builds or machines.

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// `PIECE_SQUARE[code][square]`, code 1..=14 as [`crate::Piece::code`]; row 0 is all zero.
pub(crate) static PIECE_SQUARE: [[u64; 90]; 15] = build();
/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = 0x6c62_272e_07bb_0142;

const fn build() -> [[u64; 90]; 15] {
    let mut t = [[0; 90]; 15];
    let mut state = 0x5169_2024_0000_0001u64;
    let mut p = 1;
    while p < 15 {
        let mut s = 0;
        while s < 90 {
            let (next, key) = splitmix64(state);
            state = next;
            t[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    t
}
