//! Board geometry: 4 columns by 5 rows, cell index = row * 4 + col, and per-shape cell masks.
//!
//! Everything here is computed at compile time so move generation is table lookups and bit
//! operations only.

/// Board rows (row 0 is the top).
pub const ROWS: usize = 5;
/// Board columns.
pub const COLS: usize = 4;
/// Board cells.
pub const CELLS: usize = ROWS * COLS;
/// Mask with one bit per cell.
pub const FULL: u32 = (1 << CELLS) - 1;
/// The cell Cao Cao's top-left sits on when the puzzle is solved (row 3, column 1).
pub const GOAL_CELL: usize = 13;

/// Height and width of the piece with seed type code `t` (1..=4); type 0 is a blank.
pub(crate) const fn dims(t: usize) -> (usize, usize) {
    match t {
        1 => (2, 2),
        2 => (2, 1),
        3 => (1, 2),
        _ => (1, 1),
    }
}

/// `SHAPE[t][cell]`: the cells covered by a type-`t` piece whose top-left is `cell`, or 0 when
/// it would stick out of the board.
pub(crate) const SHAPE: [[u32; CELLS]; 5] = {
    let mut table = [[0u32; CELLS]; 5];
    let mut t = 1;
    while t < 5 {
        let (h, w) = dims(t);
        let mut cell = 0;
        while cell < CELLS {
            let (r, c) = (cell / COLS, cell % COLS);
            if r + h <= ROWS && c + w <= COLS {
                let mut mask = 0;
                let mut dr = 0;
                while dr < h {
                    let mut dc = 0;
                    while dc < w {
                        mask |= 1 << ((r + dr) * COLS + c + dc);
                        dc += 1;
                    }
                    dr += 1;
                }
                table[t][cell] = mask;
            }
            cell += 1;
        }
        t += 1;
    }
    table
};

/// Marks "no neighbour" in [`NEXT`].
pub(crate) const NONE: u8 = u8::MAX;

/// `NEXT[cell][dir]`: the neighbouring cell up, down, left, right, or [`NONE`] at the edge
/// (a plain +-1 would wrap around to the next row).
pub(crate) const NEXT: [[u8; 4]; CELLS] = {
    let mut table = [[NONE; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / COLS, cell % COLS);
        if r > 0 {
            table[cell][0] = (cell - COLS) as u8;
        }
        if r + 1 < ROWS {
            table[cell][1] = (cell + COLS) as u8;
        }
        if c > 0 {
            table[cell][2] = (cell - 1) as u8;
        }
        if c + 1 < COLS {
            table[cell][3] = (cell + 1) as u8;
        }
        cell += 1;
    }
    table
};

/// The cells covered by the pieces of a seed code (the code must be a valid layout).
#[inline]
pub(crate) fn occupied(code: u64) -> u32 {
    let mut occ = 0;
    let mut rest = code;
    while rest != 0 {
        let shift = rest.trailing_zeros() / 3 * 3;
        let t = (rest >> shift) & 7;
        occ |= SHAPE[t as usize][(shift / 3) as usize];
        rest &= !(7 << shift);
    }
    occ
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_stay_on_the_board() {
        assert_eq!(SHAPE[1][0], 0b11_0011);
        assert_eq!(SHAPE[1][3], 0, "2x2 at column 3 sticks out");
        assert_eq!(SHAPE[2][16], 0, "vertical on the last row sticks out");
        assert_eq!(SHAPE[3][19], 0);
        assert_eq!(SHAPE[4][19], 1 << 19);
        assert_eq!(NEXT[4][2], NONE, "no wrap from column 0 to the row above");
        assert_eq!(NEXT[4][0], 0);
    }
}
