//! The first layer's output for both sides' views, kept up to date move by move.

use super::features::feature_of_code;
use super::network::{Network, HIDDEN, QA, QB, SCALE};
use super::simd;
use xiangqi::{Color, Move, Position};

/// The first layer's neurons (before the activation) from Red's view and from Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// `views[0]` is Red's view, `views[1]` Black's.
    views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { views: [net.ft_bias; 2] };
        for (sq, &code) in pos.piece_codes().iter().enumerate() {
            if code == 0 {
                continue;
            }
            for view in Color::ALL {
                simd::add(&mut acc.views[view.index()], &net.ft_weights[feature_of_code(view, sq, code)]);
            }
        }
        acc
    }

    /// The accumulator after `m` is played in `before` (the position before the move), from
    /// this one, which must be `before`'s.
    #[inline]
    pub fn after_move(&self, net: &Network, before: &Position, m: Move) -> Accumulator {
        let codes = before.piece_codes();
        let (from, to) = (m.from().index(), m.to().index());
        let (moved, captured) = (codes[from], codes[to]);
        let mut next = *self;
        for view in Color::ALL {
            let acc = &mut next.views[view.index()];
            let add = &net.ft_weights[feature_of_code(view, to, moved)];
            let sub = &net.ft_weights[feature_of_code(view, from, moved)];
            if captured == 0 {
                simd::add_sub(acc, add, sub);
            } else {
                simd::add_sub_sub(acc, add, sub, &net.ft_weights[feature_of_code(view, to, captured)]);
            }
        }
        next
    }

    /// The net's score of the position, in centipawns for `turn`, the side to move.
    #[inline]
    pub fn evaluate(&self, net: &Network, turn: Color) -> i32 {
        let (us, them) = (&self.views[turn.index()], &self.views[turn.other().index()]);
        let (w_us, w_them) = net.out_weights.split_at(HIDDEN);
        let sum = i64::from(simd::screlu_dot(us, w_us.try_into().expect("HIDDEN")))
            + i64::from(simd::screlu_dot(them, w_them.try_into().expect("HIDDEN")));
        let out = sum / i64::from(QA) + i64::from(net.out_bias);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// The net's score of `pos` for the side to move, from scratch.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    Accumulator::new(net, pos).evaluate(net, pos.turn())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::tests::sample;

    #[test]
    fn updates_move_by_move_equal_a_fresh_computation() {
        let net = sample();
        let mut pos = Position::startpos();
        let mut acc = Accumulator::new(&net, &pos);
        // A game with captures (cannon takes horse, rook takes cannon) and quiet moves.
        for m in ["h2e2", "h9g7", "b2b9", "a9b9", "h0g2", "i9i8", "e2e6", "g6g5"] {
            let m: Move = m.parse().unwrap();
            acc = acc.after_move(&net, &pos, m);
            pos.play(m).unwrap();
            assert_eq!(acc, Accumulator::new(&net, &pos), "after {m}");
            assert_eq!(acc.evaluate(&net, pos.turn()), evaluate(&net, &pos));
        }
    }

    #[test]
    fn the_score_is_the_same_for_the_mirrored_position() {
        // Turning the board round and swapping colours and turn gives the same score.
        let net = sample();
        let pos: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".parse().unwrap();
        let mut setup = xiangqi::Setup::empty();
        for (sq, piece) in pos.pieces() {
            setup.board[89 - sq.index()] = Some(xiangqi::Piece::new(piece.color.other(), piece.kind));
        }
        setup.turn = pos.turn().other();
        let mirrored = Position::from_setup(&setup).unwrap();
        assert_eq!(evaluate(&net, &pos), evaluate(&net, &mirrored));
    }
}
