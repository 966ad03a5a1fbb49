//! A position as a table key: the board and the side to move, and its left-right mirror.

use xiangqi::{Color, Position};

/// The 90 squares' piece codes and the side to move (the last byte). Move counters are left
/// out: a line and a game that reach the same board with the same side to move are one opening.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Key([u8; 91]);

impl Key {
    /// The key of `pos`.
    pub(crate) fn of(pos: &Position) -> Key {
        let mut k = [0u8; 91];
        k[..90].copy_from_slice(pos.piece_codes());
        k[90] = u8::from(pos.turn() == Color::Black);
        Key(k)
    }

    /// The key of the position seen in a mirror down the middle file: ECCO names an opening
    /// and its mirror image alike (`炮八平五` is a central cannon as much as `炮二平五`).
    pub(crate) fn mirrored(&self) -> Key {
        let mut k = self.0;
        for rank in 0..10 {
            k[rank * 9..rank * 9 + 9].reverse();
        }
        Key(k)
    }

    /// How many pieces stand on the board.
    pub(crate) fn pieces(&self) -> usize {
        self.0[..90].iter().filter(|&&c| c != 0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_of_a_mirror_is_the_position_and_the_start_is_its_own_mirror() {
        let start = Key::of(&Position::startpos());
        assert_eq!(start.mirrored(), start);
        let mut pos = Position::startpos();
        pos.play("h2e2".parse().unwrap()).unwrap();
        let right = Key::of(&pos);
        let mut pos = Position::startpos();
        pos.play("b2e2".parse().unwrap()).unwrap();
        let left = Key::of(&pos);
        assert_ne!(left, right);
        assert_eq!(right.mirrored(), left);
        assert_eq!(left.mirrored().mirrored(), left);
        assert_eq!(start.pieces(), 32);
    }
}
