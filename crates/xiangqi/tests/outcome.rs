//! Game ends, one hand-made case (or more) per rule; the differential test against pyffish is
//! tests/game_end_pyffish.rs, and the repetition rulings have their own table (tests/rulings.rs).

use xiangqi::outcome::{Game, Outcome, Reason, Rules, Status};
use xiangqi::{Move, Position};

fn status(fen: &str, moves: &str, rules: Rules) -> Status {
    let start: Position = fen.parse().unwrap();
    let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
    Game::from_moves(start, &moves, rules).unwrap().status()
}

fn verdict(fen: &str, moves: &str) -> (Outcome, Option<Reason>) {
    let s = status(fen, moves, Rules::default());
    (s.outcome, s.reason)
}

#[test]
fn checkmate_and_stalemate_lose() {
    assert_eq!(verdict("3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1", "i0i9"), (Outcome::RedWins, Some(Reason::Checkmate)));
    // Black mates with two rooks.
    assert_eq!(verdict("4k4/9/9/9/9/9/9/r8/1r7/3K5 b - - 0 1", "a2a0"), (Outcome::BlackWins, Some(Reason::Checkmate)));
    // Black's king has no move and nothing else: stalemate, and in Xiangqi that loses.
    assert_eq!(verdict("4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1", ""), (Outcome::RedWins, Some(Reason::Stalemate)));
    assert_eq!(verdict(Position::startpos().fen().as_str(), "h2e2"), (Outcome::Ongoing, None));
}

const CHECKS: &str = "4k4/9/9/9/R8/9/9/9/9/5K3 w - - 0 1";
const CHECK_MOVES: &str = "a5e5 e9d9 e5d5 d9e9 d5e5 e9d9 e5d5 d9e9 d5e5";

#[test]
fn perpetual_check_loses() {
    // The third occurrence comes with the ninth ply: Red checked on every move.
    assert_eq!(verdict(CHECKS, CHECK_MOVES), (Outcome::BlackWins, Some(Reason::PerpetualCheck)));
    let eight: Vec<&str> = CHECK_MOVES.split_whitespace().take(8).collect();
    assert_eq!(verdict(CHECKS, &eight.join(" ")), (Outcome::Ongoing, None));
    // Judged at the second occurrence when the rules say so.
    let twice = Rules { repetitions: 2, ..Rules::default() };
    let five: Vec<&str> = CHECK_MOVES.split_whitespace().take(5).collect();
    assert_eq!(status(CHECKS, &five.join(" "), twice).reason, Some(Reason::PerpetualCheck));
}

#[test]
fn perpetual_chase_loses() {
    // Red's rook follows Black's unprotected cannon between c7 and d7.
    let fen = "5k3/9/2c6/9/9/9/2R6/9/9/4K4 b - - 0 1";
    let moves = "c7d7 c3d3 d7c7 d3c3 c7d7 c3d3 d7c7 d3c3";
    assert_eq!(verdict(fen, moves), (Outcome::BlackWins, Some(Reason::PerpetualChase)));
    // The same with the cannon protected by a rook on the seventh rank: no chase, a draw.
    let fen = "5k3/9/2c4r1/9/9/9/2R6/9/9/4K4 b - - 0 1";
    assert_eq!(verdict(fen, moves), (Outcome::Draw, Some(Reason::Repetition)));
}

#[test]
fn pawns_may_chase_rooks_may_not() {
    // Black's pawn follows Red's unprotected cannon between h2 and g2: pawns may chase.
    let moves = "h2g2 h3g3 g2h2 g3h3 h2g2 h3g3 g2h2 g3h3";
    let pawn = "3k5/9/9/9/9/9/7p1/7C1/9/4K4 w - - 0 1";
    assert_eq!(verdict(pawn, moves), (Outcome::Draw, Some(Reason::Repetition)));
    // The same chase by a rook loses.
    let rook = "3k5/9/9/9/9/9/7r1/7C1/9/4K4 w - - 0 1";
    assert_eq!(verdict(rook, moves), (Outcome::RedWins, Some(Reason::PerpetualChase)));
}

#[test]
fn plain_repetition_is_a_draw() {
    let start = Position::startpos().fen();
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    assert_eq!(verdict(&start, moves), (Outcome::Draw, Some(Reason::Repetition)));
}

#[test]
fn move_limit_draws() {
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 80";
    assert_eq!(verdict(fen, ""), (Outcome::Ongoing, None));
    assert_eq!(verdict(fen, "a1a2"), (Outcome::Draw, Some(Reason::MoveLimit)));
    // A capture resets the clock; the limit is a parameter.
    let fifty = Rules { move_limit: 100, ..Rules::default() };
    assert_eq!(status("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 99 80", "a1a2", fifty).reason, Some(Reason::MoveLimit));
    assert_eq!(status("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 98 80", "a1a2", fifty).reason, None);
    let off = Rules { move_limit: 0, ..Rules::default() };
    assert_eq!(status(fen, "a1a2", off).reason, None);
}

#[test]
fn no_attackers_draw() {
    assert_eq!(verdict("3k5/4a4/9/9/9/9/9/4B4/9/4K4 w - - 0 1", ""), (Outcome::Draw, Some(Reason::NoAttackers)));
    // The last attacker is captured.
    assert_eq!(verdict("3k5/4a4/9/9/9/9/9/4B4/4p4/4K4 w - - 0 1", "e0e1"), (Outcome::Draw, Some(Reason::NoAttackers)));
    assert_eq!(verdict("3k5/4a4/9/9/P8/9/9/4B4/9/4K4 w - - 0 1", "").0, Outcome::Ongoing);
}

#[test]
fn only_new_threats_chase() {
    let fen = "3ak4/4a4/4b4/9/2p6/6R2/9/4B4/4A4/3AK1C2 w - - 0 1";
    // Red's cannon shuttles g4-g0 behind the rook on g6, attacking the elephant on g9 from both
    // squares: the threat is never new, so it is no chase.
    let static_target = "g4g6 e7g9 g0g4 e8f9 g4g0 f9e8 g0g4 e8f9 g4g0 f9e8";
    assert_eq!(verdict(fen, static_target), (Outcome::Draw, Some(Reason::Repetition)));
    // The rook attacks the elephant on e7; it flees to g9, into the rook's file, and the rook
    // backs off along that file: still attacking it, but that threat is not new, so only every
    // other move chases. (pyffish counts the retreat as a new attack: see hand-11 in
    // tests/data/rulings.tsv.)
    let backing_off = "g4g7 e7g9 g7g4 g9e7 g4g7 e7g9 g7g4 g9e7";
    assert_eq!(verdict(fen, backing_off), (Outcome::Draw, Some(Reason::Repetition)));
}
