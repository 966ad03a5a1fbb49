//! How a game ends: [`Game`] keeps the moves and positions and [`Game::status`] judges them.
//!
//! In order:
//! 1. No legal move: the side to move loses ([`Reason::Checkmate`], [`Reason::Stalemate`]).
//! 2. Repetition ([`Rules::repetitions`], by default the third occurrence of a position with
//!    the same side to move): over the plies since the first of those occurrences, a side
//!    whose every move gave check loses if the other side's did not ([`Reason::PerpetualCheck`];
//!    both: draw); otherwise a side that chased on every move loses if the other did not
//!    ([`Reason::PerpetualChase`]); otherwise a draw ([`Reason::Repetition`]). A check
//!    anywhere in the cycle leaves chases out of it. [`crate::repetition`] applies these
//!    rules and says what counts as a chase.
//! 3. [`Rules::move_limit`] plies (default 120, the 60-move rule) without a capture: draw
//!    ([`Reason::MoveLimit`]); the clock includes the FEN's half-move counter.
//! 4. Neither side has a rook, horse, cannon or pawn: draw ([`Reason::NoAttackers`]).
//!
//! Compared with pyffish (Fairy-Stockfish), tested in `tests/game_end_pyffish.rs`: pyffish
//! uses 3-fold repetition and nearly the same check and chase judgement (where it differs, see
//! [`crate::repetition`]); its move limit is 100 plies
//! (pass `Rules { move_limit: 100, .. }` to match); it never ends a game for lack of
//! attackers (its `has_insufficient_material` says both sides are short instead).
//!
//! ```
//! use xiangqi::outcome::{Game, Outcome, Reason};
//! use xiangqi::Position;
//! // Red's rook mates on the back rank.
//! let pos: Position = "3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1".parse().unwrap();
//! let mut game = Game::new(pos);
//! game.play("i0i9".parse().unwrap()).unwrap();
//! let status = game.status();
//! assert_eq!((status.outcome, status.reason), (Outcome::RedWins, Some(Reason::Checkmate)));
//! ```

use crate::repetition::{judge, Ruling};
use crate::{Color, IllegalMoveError, Move, Position};
use core::fmt;

/// The parameters of the game-end rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies without a capture that make a draw (120: the 60-move rule). 0 turns it off.
    pub move_limit: u32,
    /// How many times a position must occur for the repetition rules to judge (at least 2).
    pub repetitions: usize,
}

impl Rules {
    /// The default [`Rules::move_limit`]: 120 plies, the 60-move rule (the engine draws there too).
    pub const DEFAULT_MOVE_LIMIT: u32 = 120;
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { move_limit: Rules::DEFAULT_MOVE_LIMIT, repetitions: 3 }
    }
}

/// Who won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The side `color` wins.
    pub fn win(color: Color) -> Outcome {
        match color {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// `ongoing`, `red wins`, `black wins` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::RedWins => "red wins",
            Outcome::BlackWins => "black wins",
            Outcome::Draw => "draw",
        }
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    ///
    /// ```
    /// use xiangqi::outcome::Outcome;
    /// assert_eq!(Outcome::RedWins.pgn_result(), "1-0");
    /// assert_eq!(Outcome::Draw.pgn_result(), "1/2-1/2");
    /// assert_eq!(Outcome::Ongoing.pgn_result(), "*");
    /// ```
    pub fn pgn_result(self) -> &'static str {
        match self {
            Outcome::Ongoing => "*",
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the game ended. New rules may add reasons, so matches need a catch-all arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: in Xiangqi it loses too.
    Stalemate,
    /// A repetition in which one side checked with every move: it loses
    /// ([`Ruling::PerpetualCheck`]).
    PerpetualCheck,
    /// A repetition in which one side chased a piece with every move: it loses
    /// ([`Ruling::PerpetualChase`]).
    PerpetualChase,
    /// A repetition that nobody (or both sides) is to blame for: a draw.
    Repetition,
    /// [`Rules::move_limit`] plies without a capture: a draw.
    MoveLimit,
    /// Neither side has a piece that can cross the river: a draw.
    NoAttackers,
}

impl Reason {
    /// `checkmate`, `stalemate`, `perpetual check`, `perpetual chase`, `repetition`,
    /// `move limit` or `no attackers`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move limit",
            Reason::NoAttackers => "no attackers",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict: an outcome, and the reason when the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Status {
    /// Who won, if anyone; [`Outcome::Ongoing`] while the game goes on.
    pub outcome: Outcome,
    /// Why the game ended; `None` exactly when the outcome is [`Outcome::Ongoing`].
    pub reason: Option<Reason>,
}

impl Status {
    const ONGOING: Status = Status { outcome: Outcome::Ongoing, reason: None };

    fn new(outcome: Outcome, reason: Reason) -> Status {
        Status { outcome, reason: Some(reason) }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }
}

impl From<Ruling> for Status {
    /// The game-end status of a repetition ruling.
    fn from(ruling: Ruling) -> Status {
        match ruling {
            Ruling::PerpetualCheck { loser } => Status::new(Outcome::win(loser.other()), Reason::PerpetualCheck),
            Ruling::PerpetualChase { loser } => Status::new(Outcome::win(loser.other()), Reason::PerpetualChase),
            Ruling::Draw => Status::new(Outcome::Draw, Reason::Repetition),
        }
    }
}

/// A game: a start position, the moves played, and every position on the way.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    moves: Vec<Move>,
    /// `positions[i]` is the position before `moves[i]`; the last is the current one.
    positions: Vec<Position>,
}

impl Game {
    /// A game from `start` under the default [`Rules`].
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, Rules::default())
    }

    /// A game from `start` under `rules`.
    pub fn with_rules(start: Position, rules: Rules) -> Game {
        Game { rules, moves: Vec::new(), positions: vec![start] }
    }

    /// Plays `moves` from `start`.
    ///
    /// # Errors
    /// The first illegal move, as an [`IllegalMoveError`].
    pub fn from_moves(start: Position, moves: &[Move], rules: Rules) -> Result<Game, IllegalMoveError> {
        let mut game = Game::with_rules(start, rules);
        for &m in moves {
            game.play(m)?;
        }
        Ok(game)
    }

    /// Plays a legal move (whether or not the game is already over).
    ///
    /// # Errors
    /// An illegal move is an [`IllegalMoveError`], and the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        let mut next = self.position().clone();
        next.play(m)?;
        self.moves.push(m);
        self.positions.push(next);
        Ok(())
    }

    /// The rules the game is judged by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions from the start to the current one (one more than the moves).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Judges the current position; see the module documentation for the rules.
    pub fn status(&self) -> Status {
        let pos = self.position();
        if pos.legal_moves().is_empty() {
            let reason = if pos.is_check() { Reason::Checkmate } else { Reason::Stalemate };
            return Status::new(Outcome::win(pos.turn().other()), reason);
        }
        if let Some(first) = self.repetition_start() {
            return Status::from(judge(&self.positions[first], &self.moves[first..]));
        }
        if self.rules.move_limit > 0 && pos.halfmoves() >= self.rules.move_limit {
            return Status::new(Outcome::Draw, Reason::MoveLimit);
        }
        if !has_attackers(pos) {
            return Status::new(Outcome::Draw, Reason::NoAttackers);
        }
        Status::ONGOING
    }

    /// The index of the earliest of the last [`Rules::repetitions`] occurrences of the current
    /// position, if it occurred that often (only since the last capture can it have).
    fn repetition_start(&self) -> Option<usize> {
        let n = self.positions.len() - 1;
        let current = &self.positions[n];
        let window = (current.halfmoves() as usize).min(n);
        let needed = self.rules.repetitions.max(2) - 1;
        let mut found = 0;
        for i in (n - window..n).rev() {
            let p = &self.positions[i];
            if p.turn() == current.turn() && p.hash() == current.hash() && p.board == current.board {
                found += 1;
                if found == needed {
                    return Some(i);
                }
            }
        }
        None
    }
}

/// Whether either side still has a piece that can cross the river (rook, horse, cannon, pawn).
fn has_attackers(pos: &Position) -> bool {
    pos.pieces().any(|(_, p)| p.kind.is_attacking())
}
