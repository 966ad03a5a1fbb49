//! The known ways pyffish (Fairy-Stockfish) judges a repetition differently from the rules as
//! `xiangqi::repetition` documents them, each with a case in `tests/data/rulings.tsv`. The
//! differential tests accept a disagreement only when one of these explains it, found from our
//! own chase sets, never from pyffish's answer alone.

use xiangqi::repetition::{chased_pieces, judge, Ruling};
use xiangqi::{Color, Move, PieceKind, Position, Square};

/// Why pyffish's verdict differs from ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// R8: pyffish counts a move's attack on a piece that was already attacked before it.
    AlreadyAttacked,
    /// R6: pyffish takes a protector as pinned by the facing kings when other pieces stand
    /// between them.
    FalsePin,
}

/// The known difference that explains pyffish saying `pyffish` where we say `ours` (outcome
/// names) after `moves` from `fen`, if there is one.
pub fn known_difference(fen: &str, moves: &str, pyffish: &str, ours: &str) -> Option<Difference> {
    let loser = match pyffish {
        "red wins" => Color::Black,
        "black wins" => Color::Red,
        _ => return None,
    };
    if ours != "draw" {
        return None;
    }
    let start: Position = fen.parse().ok()?;
    let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse()).collect::<Result<_, _>>().ok()?;
    // Only the cycle counts: from the earliest occurrence of the final position.
    let mut positions = vec![start.clone()];
    for &m in &moves {
        let mut next = positions.last()?.clone();
        next.play(m).ok()?;
        positions.push(next);
    }
    let last = positions.last()?;
    let board = |p: &Position| p.fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let first = positions.iter().position(|p| board(p) == board(last))?;
    let (pos, moves) = (&positions[first], &moves[first..]);
    if chases_only_what_was_attacked(pos, moves, loser) {
        Some(Difference::AlreadyAttacked)
    } else if lone_piece_between_kings_not_alone(pos, moves, loser) {
        Some(Difference::FalsePin)
    } else {
        None
    }
}

/// The one known way pyffish judges a chase differently (the rulings table's hand-11):
/// whether `loser` chases one piece with every move when a move that attacks a piece that was
/// already attacked *before* it counts too. True when it does under that reading, while under
/// R8 (only new attacks) it does not and the other side does not chase either, so R8 alone
/// makes the difference.
fn chases_only_what_was_attacked(start: &Position, moves: &[Move], loser: Color) -> bool {
    let mut pos = start.clone();
    let (mut loose, mut strict): (Option<Vec<Square>>, Option<Vec<Square>>) = (None, None);
    for &m in moves {
        let side = pos.turn();
        let before = chased_pieces(&pos, side);
        pos.play(m).unwrap();
        if side == loser {
            let after = chased_pieces(&pos, side);
            let new: Vec<Square> = after.iter().copied().filter(|s| !before.contains(s)).collect();
            loose = Some(loose.map_or(after.clone(), |l| l.into_iter().filter(|s| after.contains(s)).collect()));
            strict = Some(strict.map_or(new.clone(), |l| l.into_iter().filter(|s| new.contains(s)).collect()));
        } else {
            for set in [&mut loose, &mut strict].into_iter().flatten() {
                set.iter_mut().filter(|s| **s == m.from()).for_each(|s| *s = m.to());
            }
        }
    }
    let other_chases = judge(start, moves) == Ruling::PerpetualChase { loser: loser.other() };
    loose.is_some_and(|l| !l.is_empty()) && strict.is_some_and(|s| s.is_empty()) && !other_chases
}

/// The second known way pyffish differs (the rulings table's hand-15): it takes the only
/// piece of a side on the file of the other king, with its own king on that file, as pinned by
/// the facing kings even when other pieces stand between them, and so as no protector. True
/// when that arrangement occurs after one of `loser`'s moves with another piece between the
/// kings, so the pin is not real.
fn lone_piece_between_kings_not_alone(start: &Position, moves: &[Move], loser: Color) -> bool {
    let mut pos = start.clone();
    for &m in moves {
        let side = pos.turn();
        pos.play(m).unwrap();
        if side != loser {
            continue;
        }
        let (ours, theirs) = (pos.king(loser), pos.king(loser.other()));
        if ours.file() != theirs.file() {
            continue;
        }
        let on_file: Vec<_> = (0..10u8)
            .filter_map(|r| Square::new(ours.file(), r))
            .filter_map(|s| pos.piece_at(s).map(|p| (s, p)))
            .filter(|(_, p)| p.kind != PieceKind::King)
            .collect();
        let theirs_alone = on_file.iter().filter(|(_, p)| p.color != loser).count() == 1;
        let (lo, hi) = (ours.rank().min(theirs.rank()), ours.rank().max(theirs.rank()));
        let between = on_file.iter().filter(|(s, _)| (lo..hi).contains(&s.rank()) && s.rank() > lo).count();
        if theirs_alone && between > 1 {
            return true;
        }
    }
    false
}
