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

/// "Spread" masks put cell `i` at bit `3 * i`, the low bit of its triple in the seed code, so
/// masks and codes combine without converting: one cell to the right is `<< 3`, one row down
/// is `<< 12`.
pub(crate) const LOW: u64 = spread(FULL);

/// Spread form of a cell mask.
pub(crate) const fn spread(mask: u32) -> u64 {
    let mut out = 0;
    let mut cell = 0;
    while cell < CELLS {
        if mask >> cell & 1 == 1 {
            out |= 1 << (3 * cell);
        }
        cell += 1;
    }
    out
}

/// [`SHAPE`] in spread form.
pub(crate) const SPREAD_SHAPE: [[u64; CELLS]; 5] = {
    let mut table = [[0u64; CELLS]; 5];
    let mut t = 0;
    while t < 5 {
        let mut cell = 0;
        while cell < CELLS {
            table[t][cell] = spread(SHAPE[t][cell]);
            cell += 1;
        }
        t += 1;
    }
    table
};

const COL0: u64 = spread(0x1_1111);
const COL3: u64 = spread(0x8_8888);

/// Column `c`'s triples in the code.
const fn column_triples(c: usize) -> u64 {
    spread(0x1_1111 << c) * 7
}

/// The left-right mirror image of a code: a 1-wide piece moves from column c to 3 - c, a
/// 2-wide one (Cao Cao, horizontal: the types with the low bit set) from c to 2 - c.
#[inline(always)]
pub(crate) fn mirror(code: u64) -> u64 {
    const T0: u64 = column_triples(0);
    const T1: u64 = column_triples(1);
    const T2: u64 = column_triples(2);
    const T3: u64 = column_triples(3);
    let wide = code & ((code & LOW) * 7);
    let narrow = code ^ wide;
    ((wide & T0) << 6)
        | (wide & T1)
        | ((wide & T2) >> 6)
        | ((narrow & T0) << 9)
        | ((narrow & T1) << 3)
        | ((narrow & T2) >> 3)
        | ((narrow & T3) >> 9)
}

/// `MIRROR_SHIFT[t][3 * cell]`: the code shift of a type-`t` piece's top-left cell in the
/// mirror image (lets move generation update a mirror image as cheaply as the code). Eight
/// rows, so any three code bits index it without a bounds check (rows 5-7 are unused).
pub(crate) const MIRROR_SHIFT: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut t = 1;
    while t < 5 {
        let width = dims(t).1;
        let mut cell = 0;
        while cell < CELLS {
            let (r, c) = (cell / COLS, cell % COLS);
            if c + width <= COLS {
                table[t][3 * cell] = (3 * (r * COLS + COLS - c - width)) as u8;
            }
            cell += 1;
        }
        t += 1;
    }
    table
};

/// The four one-cell slides of a spread mask: up, down, left, right (no wrap between rows).
#[inline(always)]
pub(crate) fn slide(mask: u64, dir: usize) -> u64 {
    match dir {
        0 => mask >> 12,
        1 => (mask << 12) & LOW,
        2 => (mask & !COL0) >> 3,
        _ => (mask & !COL3) << 3,
    }
}

/// Cells one slide away from any cell of a spread mask, or in it.
#[inline(always)]
pub(crate) fn dilate(mask: u64) -> u64 {
    mask | (mask << 12 | mask >> 12 | (mask & !COL3) << 3 | (mask & !COL0) >> 3) & LOW
}

/// Per type code, masks that switch off the three fit conditions a shape does not have:
/// the cell to the right, the cell below, the cell diagonally below right.
const FIT_OFF: [[u64; 3]; 8] = {
    let mut table = [[LOW; 3]; 8];
    table[1] = [0, 0, 0];
    table[2] = [LOW, 0, LOW];
    table[3] = [0, LOW, LOW];
    table
};

/// Top-left cells where a piece of type code `t` (1..=4) fits entirely inside `free`
/// (spread masks), without a branch on the type.
#[inline(always)]
pub(crate) fn fitting_any(t: u64, free: u64) -> u64 {
    let [right, below, diagonal] = FIT_OFF[(t & 7) as usize];
    free & ((free >> 3) & !COL3 | right) & ((free >> 12) | below) & ((free >> 15) & !COL3 | diagonal)
}

/// `SPREAD_SHAPE_AT[t][3 * cell]`: [`SPREAD_SHAPE`] indexed by the code shift of the cell
/// (eight rows like [`MIRROR_SHIFT`]; rows 5-7 and shifts of no cell are 0).
pub(crate) const SPREAD_SHAPE_AT: [[u64; 64]; 8] = {
    let mut table = [[0u64; 64]; 8];
    let mut t = 0;
    while t < 5 {
        let mut cell = 0;
        while cell < CELLS {
            table[t][3 * cell] = SPREAD_SHAPE[t][cell];
            cell += 1;
        }
        t += 1;
    }
    table
};

/// Empty cells and the top-left cells of Cao Cao, the vertical and horizontal generals and
/// the soldiers (all spread), bit-parallel on the code.
#[inline(always)]
pub(crate) fn empty_and_pieces(code: u64) -> (u64, [u64; 4]) {
    let b0 = code & LOW;
    let b1 = (code >> 1) & LOW;
    let b2 = (code >> 2) & LOW;
    let cao = b0 & !b1 & !b2;
    let vertical = b1 & !b0;
    let horizontal = b0 & b1;
    let soldier = b2;
    let occupied =
        cao | cao << 3 | cao << 12 | cao << 15 | vertical | vertical << 12 | horizontal | horizontal << 3 | soldier;
    (!occupied & LOW, [cao, vertical, horizontal, soldier])
}

/// Empty cells and, by type code (index 1 Cao Cao ... 4 soldier; index 0 unused), the
/// top-left cells of the pieces that can move (all spread), from bit-parallel arithmetic on
/// the code: no loop over pieces.
///
/// A piece can move when the cells it would enter by one slide in some direction are all
/// empty; pieces that touch an empty cell but cannot slide into it are left out, so move
/// generation never visits a piece without moves.
#[inline(always)]
pub(crate) fn empty_and_movable(code: u64) -> (u64, [u64; 5]) {
    const COL2: u64 = spread(0x4_4444);
    let (empty, [cao, vertical, horizontal, soldier]) = empty_and_pieces(code);
    // At cell c: is the cell above / below / left / right of c empty (no wrap between rows)?
    let up = (empty << 12) & LOW;
    let down = empty >> 12;
    let left = (empty << 3) & !COL0 & LOW;
    let right = (empty >> 3) & !COL3;
    // Two rows below (under a vertical piece or Cao Cao), two columns right (beside a
    // horizontal piece or Cao Cao, never from column 2).
    let down2 = empty >> 24;
    let right2 = (empty >> 6) & !COL2 & !COL3;
    // Pairs: both cells of a 2-wide piece's edge (`>> 3`) or a 2-tall one's (`>> 12`).
    let up_pair = up & (up >> 3);
    let left_pair = left & (left >> 12);
    let right_pair = right & (right >> 12);
    let movable = [
        0,
        cao & (up_pair | down2 & (down2 >> 3) | left_pair | right2 & (right2 >> 12)),
        vertical & (up | down2 | left_pair | right_pair),
        horizontal & (left | right2 | up_pair | down & (down >> 3)),
        soldier & (up | down | left | right),
    ];
    (empty, movable)
}

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
        assert_eq!(slide(spread(1 << 4), 2), 0, "no wrap from column 0 to the row above");
        assert_eq!(slide(spread(1 << 4), 0), spread(1));
    }

    #[test]
    fn fitting_agrees_with_the_shapes() {
        let mut random = crate::puzzle::SplitMix64::new(3);
        for _ in 0..2000 {
            let free = (random.next_u64() | random.next_u64()) as u32 & FULL;
            for (t, shapes) in SHAPE.iter().enumerate().skip(1) {
                let expected =
                    (0..CELLS).filter(|&c| shapes[c] != 0 && shapes[c] & !free == 0).fold(0, |mask, c| mask | 1 << c);
                assert_eq!(fitting_any(t as u64, spread(free)), spread(expected), "type {t} free {free:#x}");
            }
        }
    }

    #[test]
    fn mirror_shift_table_agrees_with_mirror() {
        for t in 1..5u64 {
            for cell in 0..CELLS {
                if SHAPE[t as usize][cell] != 0 {
                    let shifted = t << MIRROR_SHIFT[t as usize][3 * cell];
                    assert_eq!(mirror(t << (3 * cell)), shifted, "type {t} cell {cell}");
                }
            }
        }
    }

    #[test]
    fn mirror_flips_columns() {
        let code = |s: &str| crate::Layout::parse(s).unwrap().code();
        assert_eq!(mirror(code("VCCV/VCCV/VHHV/VSSV/S..S")), code("VCCV/VCCV/VHHV/VSSV/S..S"));
        assert_eq!(mirror(code("CCHH/CCVS/VVVS/VVSS/.HH.")), code("HHCC/SVCC/SVVV/SSVV/.HH."));
        assert_eq!(mirror(code("SSSV/CCVV/CCVV/.HHV/.SHH")), code("VSSS/VVCC/VVCC/VHH./HHS."));
    }

    #[test]
    fn bit_parallel_empty_cells_match_the_loop() {
        // 横刀立马: empties at 17 and 18; movable: the soldiers at 13, 14, 16, 19.
        let code = crate::Layout::parse("VCCV/VCCV/VHHV/VSSV/S..S").unwrap().code();
        let (empty, movable) = empty_and_movable(code);
        assert_eq!(empty, spread(!occupied(code) & FULL));
        assert_eq!(movable.iter().fold(0, |all, m| all | m), spread((1 << 13) | (1 << 14) | (1 << 16) | (1 << 19)));
    }

    #[test]
    fn movable_pieces_are_exactly_those_with_a_move() {
        for layout in crate::enumerate::sampled(&[(4, 1, 4), (1, 4, 2), (0, 2, 8), (3, 0, 1)], 97) {
            let code = layout.code();
            let expected = layout.moves(crate::Convention::Unit).iter().fold(0u32, |cells, (m, _)| cells | 1 << m.from);
            let movable = empty_and_movable(code).1;
            for (t, &mask) in movable.iter().enumerate() {
                let mut rest = mask;
                while rest != 0 {
                    let shift = rest.trailing_zeros();
                    assert_eq!((code >> shift) & 7, t as u64, "{layout}: cell {}", shift / 3);
                    rest &= rest - 1;
                }
            }
            assert_eq!(movable.iter().fold(0, |all, m| all | m), spread(expected), "{layout}");
        }
    }
}
