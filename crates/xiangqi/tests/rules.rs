//! Hand-made positions for each rule that can forbid a move, and properties of play/undo.

use proptest::prelude::*;
use xiangqi::{Move, Position, Square};

fn legal(fen: &str) -> Vec<String> {
    let pos: Position = fen.parse().unwrap();
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}

#[test]
fn flying_general() {
    // e0 would face the black king on the open e-file; c0 is outside the palace.
    assert_eq!(legal("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), ["d0d1"]);
}

#[test]
fn cannon_screen_pin() {
    // The horse on e1 and the pawn on e3 stand between the king and the cannon on e7: the
    // horse may not leave (the pawn would become the screen); the pawn may advance on the file.
    // d0 faces the black king.
    assert_eq!(legal("3k5/9/4c4/9/9/9/4P4/9/4N4/4K4 w - - 0 1"), ["e0f0", "e3e4"]);
}

#[test]
fn a_move_may_not_create_a_screen() {
    // The rook may go anywhere but e1, where it would screen the cannon on e5 onto the king.
    let moves = legal("3k5/9/9/9/4c4/9/9/9/R8/4K4 w - - 0 1");
    assert!(!moves.contains(&"a1e1".to_string()));
    assert!(moves.contains(&"a1d1".to_string()) && moves.contains(&"a1f1".to_string()));
    assert_eq!(moves.len(), 18);
}

#[test]
fn horse_leg_and_elephant_eye() {
    let pos = Position::startpos();
    let from = |sq: &str| -> Vec<String> {
        let s: Square = sq.parse().unwrap();
        let mut v: Vec<String> = pos.legal_moves().iter().filter(|m| m.from() == s).map(ToString::to_string).collect();
        v.sort();
        v
    };
    // The horse's leg towards d1 is blocked by the elephant on c0.
    assert_eq!(from("b0"), ["b0a2", "b0c2"]);
    assert_eq!(from("c0"), ["c0a2", "c0e2"]);
    // An elephant with a blocked eye: the horse on d1 blocks c0 -> e2.
    let moves = legal("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1");
    assert!(moves.contains(&"c0a2".to_string()) && !moves.contains(&"c0e2".to_string()));
}

#[test]
fn checkmate_and_stalemate_have_no_moves() {
    // Two rooks on the a-file: check on rank 9, rank 8 covered.
    let mate: Position = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1".parse().unwrap();
    assert!(mate.is_check() && mate.legal_moves().is_empty());
    // Not in check, but d9 faces the red king, f9 and e8 are covered by the rooks.
    let stalemate: Position = "4k4/R8/9/9/9/9/9/9/9/3K1R3 b - - 0 1".parse().unwrap();
    assert!(!stalemate.is_check() && stalemate.legal_moves().is_empty());
}

/// A random legal game of up to `plies` moves, driven by `choices`.
fn random_game(choices: &[u8]) -> (Position, Vec<Move>) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for &c in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        pos.play(m).unwrap();
        moves.push(m);
    }
    (pos, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn play_undo_hash_and_is_legal_agree(choices in proptest::collection::vec(any::<u8>(), 0..200)) {
        let (pos, _) = random_game(&choices);
        // The position re-read from its own FEN is identical, hash included.
        let again: Position = pos.fen().parse().unwrap();
        prop_assert_eq!(&again, &pos);
        prop_assert_eq!(again.hash(), pos.hash());
        let legal = pos.legal_moves();
        prop_assert_eq!(pos.count_legal_moves(), legal.len());
        // The capture generator gives exactly the legal moves that capture, in or out of check.
        let mut captures: Vec<Move> = pos.legal_captures().to_vec();
        let mut expected: Vec<Move> = legal.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        captures.sort_by_key(|m| (m.from().index(), m.to().index()));
        expected.sort_by_key(|m| (m.from().index(), m.to().index()));
        prop_assert_eq!(captures, expected, "{}", pos.fen());
        // is_legal agrees with the list on every from/to pair.
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                prop_assert_eq!(pos.is_legal(m), legal.contains(&m), "{} in {}", m, pos.fen());
            }
        }
        // Every move undoes to the same position and hash.
        for &m in legal.iter() {
            let mut p = pos.clone();
            let undo = p.play_unchecked(m);
            let fresh: Position = p.fen().parse().unwrap();
            prop_assert_eq!(fresh.hash(), p.hash());
            p.undo(m, undo);
            prop_assert_eq!(&p, &pos);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any text gives a position or an error, never a panic; FEN-shaped text too.
    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,120}", shaped in "([rnbakcpRNBAKCPHEhe1-9]{0,10}/){0,11}[rnbakcpRNBAKCP1-9]{0,10}( [wrbx])?( - -)?( [0-9]{1,3}){0,2}") {
        let _ = text.parse::<Position>();
        if let Ok(pos) = shaped.parse::<Position>() {
            prop_assert_eq!(pos.fen().parse::<Position>().unwrap(), pos);
        }
    }
}
