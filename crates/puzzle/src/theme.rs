//! The tactical motifs of a solution, found from the board itself rather than from the
//! engine's words: what the first move attacks, uncovers and pins, whether the solver gives
//! material away on the way, and which classic kill (杀法) the mate is.

use crate::Kind;
use xiangqi::{Color, Move, PieceKind, Position, Square};

/// A motif a puzzle shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The solution ends with the defender unable to move (checkmate, or no move at all).
    Mate,
    /// 重炮: a cannon mates over the solver's other cannon.
    DoubleCannon,
    /// 马后炮: a cannon mates over the solver's horse.
    HorseCannon,
    /// 闷宫: a cannon mates a king hemmed in by its own pieces: every palace square next to it
    /// off the cannon's line is taken by one of them.
    Smothered,
    /// 卧槽马: a horse mates from the trough, the square a knight's move from the king's
    /// home (c8 or g8 against Black, c1 or g1 against Red).
    TroughHorse,
    /// 白脸将: the solver's king takes part: an escape of the mated king is shut only because
    /// the two kings would face each other on an open file.
    FacingKings,
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
    pub const ALL: [Theme; 11] = [
        Theme::Mate,
        Theme::DoubleCannon,
        Theme::HorseCannon,
        Theme::Smothered,
        Theme::TroughHorse,
        Theme::FacingKings,
        Theme::Sacrifice,
        Theme::DoubleAttack,
        Theme::Pin,
        Theme::DiscoveredAttack,
        Theme::QuietMove,
    ];

    /// The name in files and JSON (`mate`, `double-cannon`, `horse-cannon`, `smothered`,
    /// `trough-horse`, `facing-kings`, `sacrifice`, `double-attack`, `pin`, `discovered-attack`,
    /// `quiet-move`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::DoubleCannon => "double-cannon",
            Theme::HorseCannon => "horse-cannon",
            Theme::Smothered => "smothered",
            Theme::TroughHorse => "trough-horse",
            Theme::FacingKings => "facing-kings",
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
    let mut pos = start.clone();
    let before = balance(&pos, solver);
    let mut lowest = before;
    for (i, &mv) in moves.iter().enumerate() {
        pos.play_unchecked(mv);
        if i % 2 == 1 {
            lowest = lowest.min(balance(&pos, solver));
        }
    }
    if kind == Kind::Mate {
        found.push(Theme::Mate);
        found.extend(kills(&pos));
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

/// The classic kills (杀法) of `end`, a position where the side to move is mated, in
/// [`Theme::ALL`]'s order.
fn kills(end: &Position) -> Vec<Theme> {
    let defender = end.turn();
    let solver = defender.other();
    let king = end.king(defender);
    let mut found = Vec::new();
    let checkers: Vec<(Square, PieceKind)> = end
        .pieces()
        .filter(|&(sq, p)| p.color == solver && p.kind != PieceKind::King && end.attacks_from(sq).contains(&king))
        .map(|(sq, p)| (sq, p.kind))
        .collect();
    let screens: Vec<PieceKind> = checkers
        .iter()
        .filter(|&&(_, kind)| kind == PieceKind::Cannon)
        .filter_map(|&(sq, _)| between(sq, king).find_map(|s| end.piece_at(s)))
        .filter(|p| p.color == solver)
        .map(|p| p.kind)
        .collect();
    if screens.contains(&PieceKind::Cannon) {
        found.push(Theme::DoubleCannon);
    }
    if screens.contains(&PieceKind::Horse) {
        found.push(Theme::HorseCannon);
    }
    let hemmed = |cannon: Square| {
        let on_line =
            |sq: Square| if cannon.file() == king.file() { sq.file() == king.file() } else { sq.rank() == king.rank() };
        steps(king)
            .filter(|&sq| sq.in_palace(defender) && !on_line(sq))
            .all(|sq| end.piece_at(sq).is_some_and(|p| p.color == defender))
    };
    if checkers.iter().any(|&(sq, kind)| kind == PieceKind::Cannon && hemmed(sq)) {
        found.push(Theme::Smothered);
    }
    let trough_rank = if defender == Color::Black { 8 } else { 1 };
    if checkers
        .iter()
        .any(|&(sq, kind)| kind == PieceKind::Horse && sq.rank() == trough_rank && matches!(sq.file(), 2 | 6))
    {
        found.push(Theme::TroughHorse);
    }
    if facing_shuts_an_escape(end, king) {
        found.push(Theme::FacingKings);
    }
    found
}

/// The squares strictly between `a` and `b` on their file or rank (none when they share
/// neither).
fn between(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let (df, dr) = (i16::from(b.file()) - i16::from(a.file()), i16::from(b.rank()) - i16::from(a.rank()));
    let steps = if df == 0 || dr == 0 { df.abs().max(dr.abs()) - 1 } else { 0 };
    (1..=steps.max(0)).filter_map(move |i| {
        let file = u8::try_from(i16::from(a.file()) + df.signum() * i).ok()?;
        let rank = u8::try_from(i16::from(a.rank()) + dr.signum() * i).ok()?;
        Square::new(file, rank)
    })
}

/// The four squares a king's step away from `sq` that are on the board.
fn steps(sq: Square) -> impl Iterator<Item = Square> {
    [(0i16, 1i16), (0, -1), (1, 0), (-1, 0)].into_iter().filter_map(move |(df, dr)| {
        let file = u8::try_from(i16::from(sq.file()) + df).ok()?;
        let rank = u8::try_from(i16::from(sq.rank()) + dr).ok()?;
        Square::new(file, rank)
    })
}

/// Whether a step of the king on `king` (the side to move's) to a palace square not its own
/// is refused only because the kings would face each other: no other piece guards it.
fn facing_shuts_an_escape(end: &Position, king: Square) -> bool {
    let side = end.turn();
    steps(king).filter(|&to| to.in_palace(side) && end.piece_at(to).is_none_or(|p| p.color != side)).any(|to| {
        let mut after = end.clone();
        after.play_unchecked(Move::new(king, to));
        // The facing king is the square's one attacker.
        after.kings_face() && king_attackers(&after, side) == 1
    })
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
    let attackers = pos.pieces().filter(|&(from, p)| p.color != side && pos.attacks_from(from).contains(&king)).count();
    attackers + usize::from(pos.kings_face())
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

    /// The kills of `fen`, a position where the side to move is mated.
    fn kills_of(fen: &str) -> Vec<Theme> {
        let end = pos(fen);
        assert!(end.is_check(), "{fen}");
        assert_eq!(end.legal_moves().len(), 0, "{fen} is mate");
        kills(&end)
    }

    #[test]
    fn the_classic_kills_are_told_from_the_mated_position() {
        // 重炮: the cannon on e3 mates over the one on e4; the rooks on d5 and f5 shut the sides.
        assert_eq!(kills_of("4k4/9/9/9/3R1R3/4C4/4C4/9/9/3K5 b - - 0 1"), vec![Theme::DoubleCannon]);
        // 马后炮 and 闷宫 at once: the cannon on e4 mates over the horse on e8, which the pawn on
        // d8 guards, and the king's own advisors fill d9 and f9.
        assert_eq!(kills_of("3aka3/3PN4/9/9/9/4C4/9/9/9/3K5 b - - 0 1"), vec![Theme::HorseCannon, Theme::Smothered]);
        // 卧槽马: the horse on c8 mates; the rook on f0 keeps the king off f9.
        assert_eq!(kills_of("3ak4/2N1a4/9/9/9/9/9/9/9/3K1R3 b - - 0 1"), vec![Theme::TroughHorse]);
        // 白脸将: the rook on d1 mates; e9 is shut only by the red king on the open e-file.
        assert_eq!(kills_of("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1"), vec![Theme::FacingKings]);
        // A mate by two rooks is none of them.
        assert_eq!(kills_of("3R1k3/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1"), Vec::<Theme>::new());
    }

    #[test]
    fn a_mate_s_kill_is_among_its_themes() {
        // Red's rook goes to d1 and mates with the kings facing on the e-file.
        let start = pos("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
        let mv: Move = "a1d1".parse().unwrap();
        assert_eq!(themes(&start, &[mv], Kind::Mate)[..2], [Theme::Mate, Theme::FacingKings]);
        assert!(!themes(&start, &[mv], Kind::Win).contains(&Theme::FacingKings));
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
