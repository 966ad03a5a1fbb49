//! The tactical motifs of a solution, found from the board itself rather than from the
//! engine's words: what the first move attacks, uncovers and pins, and whether the solver gives
//! material away on the way.

use crate::Kind;
use xiangqi::{Color, Move, PieceKind, Position, Square};

/// A motif a puzzle shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The solution ends with the defender unable to move (checkmate, or no move at all).
    Mate,
    /// The solver gives up material on the way (at least an elephant's worth below where it
    /// started, after some defender's reply).
    Sacrifice,
    /// The first move's piece attacks two defender pieces it could win (the king counts).
    DoubleAttack,
    /// The first move pins a defender piece to its king (the piece's leaving would expose
    /// the king) that was free before.
    Pin,
    /// The first move uncovers an attack by another of the solver's pieces.
    DiscoveredAttack,
    /// The first move neither captures nor checks.
    QuietMove,
}

impl Theme {
    /// Every theme, in the order files list them.
    pub const ALL: [Theme; 6] =
        [Theme::Mate, Theme::Sacrifice, Theme::DoubleAttack, Theme::Pin, Theme::DiscoveredAttack, Theme::QuietMove];

    /// The name in files and JSON (`mate`, `sacrifice`, `double-attack`, `pin`,
    /// `discovered-attack`, `quiet-move`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::Sacrifice => "sacrifice",
            Theme::DoubleAttack => "double-attack",
            Theme::Pin => "pin",
            Theme::DiscoveredAttack => "discovered-attack",
            Theme::QuietMove => "quiet-move",
        }
    }

    /// The theme named `name`.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A piece's worth in centipawns, for counting material: a pawn across the river is worth two.
pub(crate) fn value(kind: PieceKind, color: Color, square: Square) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Horse => 400,
        PieceKind::Cannon => 450,
        PieceKind::Rook => 900,
        PieceKind::Pawn if color.owns_rank(square.rank()) => 100,
        PieceKind::Pawn => 200,
    }
}

/// `color`'s material less the other side's.
fn balance(pos: &Position, color: Color) -> i32 {
    pos.pieces()
        .map(|(sq, p)| if p.color == color { value(p.kind, p.color, sq) } else { -value(p.kind, p.color, sq) })
        .sum()
}

/// The themes of the solution `moves` from `start` (legal in turn), in [`Theme::ALL`]'s order.
pub fn themes(start: &Position, moves: &[Move], kind: Kind) -> Vec<Theme> {
    let Some(&first) = moves.first() else { return Vec::new() };
    let solver = start.turn();
    let mut found = Vec::new();
    if kind == Kind::Mate {
        found.push(Theme::Mate);
    }

    let mut pos = start.clone();
    let before = balance(&pos, solver);
    let mut lowest = before;
    for (i, &mv) in moves.iter().enumerate() {
        pos.play_unchecked(mv);
        if i % 2 == 1 {
            lowest = lowest.min(balance(&pos, solver));
        }
    }
    if lowest <= before - 200 {
        found.push(Theme::Sacrifice);
    }

    let mut after = start.clone();
    after.play_unchecked(first);
    if double_attack(&after, first.to()) {
        found.push(Theme::DoubleAttack);
    }
    let defender = solver.other();
    let pinned_before = pinned(start, defender);
    if pinned(&after, defender).iter().any(|sq| !pinned_before.contains(sq)) {
        found.push(Theme::Pin);
    }
    if discovered(start, &after, first) {
        found.push(Theme::DiscoveredAttack);
    }
    if !start.is_capture(first) && !after.is_check() {
        found.push(Theme::QuietMove);
    }
    found
}

/// Whether the piece on `from` (just moved, its opponent to move) attacks two enemy pieces it
/// could win: the king, or a piece worth more than itself, or one left unprotected.
fn double_attack(after: &Position, from: Square) -> bool {
    let Some(mover) = after.piece_at(from) else { return false };
    let own = value(mover.kind, mover.color, from);
    let targets = after
        .attacks_from(from)
        .into_iter()
        .filter(|&sq| {
            after.piece_at(sq).is_some_and(|p| {
                p.color != mover.color
                    && after.can_capture(from, sq)
                    && (p.kind == PieceKind::King
                        || value(p.kind, p.color, sq) > own
                        || !after.is_protected_against(sq, from))
            })
        })
        .count();
    targets >= 2
}

/// How many of the other side's pieces attack `side`'s king, counting the other king when the
/// two face each other on an open file.
fn king_attackers(pos: &Position, side: Color) -> usize {
    let king = pos.king(side);
    let other = pos.king(side.other());
    let facing = king.file() == other.file() && {
        let (low, high) = (king.rank().min(other.rank()), king.rank().max(other.rank()));
        (low + 1..high).all(|rank| Square::new(king.file(), rank).is_some_and(|sq| pos.piece_at(sq).is_none()))
    };
    let attackers = pos.pieces().filter(|&(from, p)| p.color != side && pos.attacks_from(from).contains(&king)).count();
    attackers + usize::from(facing)
}

/// The squares of `side`'s pieces that are pinned to their king: taking the piece off the
/// board would let more of the enemy's pieces attack the king (or the kings face each other).
/// A king already in check pins nothing by being attacked: only a new attacker counts.
fn pinned(pos: &Position, side: Color) -> Vec<Square> {
    let now = king_attackers(pos, side);
    pos.pieces()
        .filter(|(_, p)| p.color == side && p.kind != PieceKind::King)
        .filter(|&(sq, _)| {
            let mut setup = pos.to_setup();
            setup.board[sq.index()] = None;
            // A refusal means the kings would face each other, or the side not to move would be
            // in check: either way the piece was shielding its king.
            match Position::from_setup(&setup) {
                Ok(without) => king_attackers(&without, side) > now,
                Err(_) => true,
            }
        })
        .map(|(sq, _)| sq)
        .collect()
}

/// Whether `first` uncovers an attack: some other piece of the mover attacks an enemy piece
/// (the king included) after the move that it did not attack before.
fn discovered(before: &Position, after: &Position, first: Move) -> bool {
    let mover = before.turn();
    let enemy_targets = |pos: &Position, from: Square| -> Vec<Square> {
        pos.attacks_from(from)
            .into_iter()
            .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.color != mover) && pos.can_capture(from, sq))
            .collect()
    };
    after.pieces().filter(|&(sq, p)| p.color == mover && sq != first.to() && p.kind.is_attacking()).any(|(sq, _)| {
        let old = enemy_targets(before, sq);
        enemy_targets(after, sq).iter().any(|t| !old.contains(t) && Some(*t) != Some(first.to()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn names_round_trip() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_name(t.name()), Some(t));
        }
        assert_eq!(Theme::from_name("fork"), None);
    }

    #[test]
    fn a_horse_forking_king_and_rook_is_a_double_attack() {
        // The red horse jumps from c5 to d7: it checks the king on e9 (over the empty d8) and
        // attacks the rook on f6 (over the empty e7), a rook worth more than the horse.
        let start = pos("4k4/9/9/5r3/2N6/9/9/9/9/3K5 w - - 0 1");
        let mv: Move = "c5d7".parse().unwrap();
        assert!(start.is_legal(mv));
        let themes = themes(&start, &[mv], Kind::Win);
        assert!(themes.contains(&Theme::DoubleAttack), "{themes:?}");
        assert!(!themes.contains(&Theme::QuietMove));
    }

    #[test]
    fn a_rook_leaving_a_cannon_line_discovers_an_attack() {
        // Red's cannon on e0 sees two pieces (its rook on e4, Black's pawn on e6) before the
        // king on e9; the rook steps aside and the pawn alone screens the cannon's check.
        let start = pos("4k4/9/9/4p4/9/4R4/9/9/9/3KC4 w - - 0 1");
        let mv: Move = "e4a4".parse().unwrap();
        assert!(start.is_legal(mv));
        let mut after = start.clone();
        after.play_unchecked(mv);
        assert!(after.is_check());
        assert!(themes(&start, &[mv], Kind::Win).contains(&Theme::DiscoveredAttack));
    }

    #[test]
    fn a_quiet_move_and_a_sacrifice_are_seen() {
        // Red offers its rook on d5, and the black rook takes it: a rook down on the way.
        let start = pos("4k4/9/9/3r5/9/3R5/9/9/9/3K5 w - - 0 1");
        let line: Vec<Move> = ["d4d5", "d6d5"].iter().map(|m| m.parse().unwrap()).collect();
        assert!(start.is_legal(line[0]));
        let t = themes(&start, &line, Kind::Win);
        assert!(t.contains(&Theme::Sacrifice), "{t:?}");
        assert!(t.contains(&Theme::QuietMove), "{t:?}");
        assert!(!t.contains(&Theme::Mate));
        assert!(themes(&start, &[], Kind::Win).is_empty());
        assert_eq!(themes(&start, &line[..1], Kind::Mate)[0], Theme::Mate);
    }

    #[test]
    fn a_king_in_check_does_not_make_every_piece_pinned() {
        // Black is in check from the rook on e2 with nothing between; its advisor on d9 and
        // horse on a9 are not pinned by that.
        let p = pos("n2ak4/9/9/9/9/9/9/4R4/9/3K5 b - - 0 1");
        assert!(p.is_check());
        assert!(pinned(&p, Color::Black).is_empty());
    }

    #[test]
    fn pins_are_found_by_taking_the_piece_away() {
        // The black horse on e7 stands between its king on e9 and the red rook on e2.
        let p = pos("4k4/9/4n4/9/9/9/9/4R4/9/3K5 b - - 0 1");
        assert_eq!(pinned(&p, Color::Black), vec!["e7".parse::<Square>().unwrap()]);
        assert!(pinned(&p, Color::Red).is_empty());
        // The same seen with Red to move: Black's horse is still pinned.
        let p = pos("4k4/9/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1");
        assert_eq!(pinned(&p, Color::Black), vec!["e7".parse::<Square>().unwrap()]);
        // The rook arriving on e2 makes the pin: a new pin for the theme.
        let start = pos("4k4/9/4n4/9/9/9/9/R8/9/3K5 w - - 0 1");
        let mv: Move = "a2e2".parse().unwrap();
        assert!(themes(&start, &[mv], Kind::Win).contains(&Theme::Pin));
    }
}
