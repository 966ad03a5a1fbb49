//! What a seat asks a room to do, and why a room says no.

use core::fmt;
use xiangqi::{Color, Move};

/// A request from a seat (already parsed; see [`crate::protocol`] for the wire form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play `mv` as move number `ply` (the number of moves played before it). Idempotent: if
    /// move `ply` already is `mv`, nothing changes.
    Move {
        /// How many moves were played before this one.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// Give up the game.
    Resign,
    /// Offer, accept or decline a draw.
    Draw(Answer),
    /// Ask to take back one's last move, or accept or decline the opponent's request.
    Takeback(Answer),
    /// Ask for (or agree to) a new game with colours swapped, once this one is over.
    Rematch,
    /// Claim the game the opponent left (a win, or a draw when `win` is false), allowed once
    /// the opponent's seat has been empty for the grace period.
    Claim {
        /// A win rather than a draw.
        win: bool,
    },
    /// Abort the game (no result), allowed before both sides have made their first move.
    Abort,
    /// List the game for spectators in the lobby (`true`) or take it off the list.
    Public(bool),
}

/// The three things one can do with an offer. On the wire a draw is `offer`ed and a takeback
/// `request`ed; both are [`Answer::Propose`] here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Make the offer (offering what the opponent already offers accepts it).
    Propose,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// Why a room refused a request. Nothing changed; only the sender is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A spectator may watch, not act.
    Spectator,
    /// The game is over.
    GameOver,
    /// The game is not over yet (a rematch was asked for).
    NotOver,
    /// It is the other side's move.
    NotYourTurn,
    /// The move's ply is not the number of moves played.
    StalePly {
        /// The number of moves played, the only ply a new move may carry.
        expected: usize,
        /// The ply the move carried.
        got: usize,
    },
    /// The move is not legal in the current position.
    Illegal(Move),
    /// The room holds as many moves as it may.
    TooLong,
    /// There is no offer from the opponent to accept or decline.
    NoOffer,
    /// There is no move of the asker's to take back.
    NothingToTakeBack,
    /// The sender's colour ran out of time.
    Flagged(Color),
    /// The opponent is there (or has not been gone long enough): nothing to claim.
    NothingToClaim,
    /// Both sides have moved: the game can no longer be aborted.
    Started,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Spectator => f.write_str("spectators cannot play: open your seat link"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotOver => f.write_str("the game is not over"),
            Refusal::NotYourTurn => f.write_str("it is not your move"),
            Refusal::StalePly { expected, got } => {
                write!(f, "move {got} is not the next one: {expected} moves have been played")
            }
            Refusal::Illegal(m) => write!(f, "illegal move {m}"),
            Refusal::TooLong => f.write_str("the game is too long for a room"),
            Refusal::NoOffer => f.write_str("your opponent has offered nothing to answer"),
            Refusal::NothingToTakeBack => f.write_str("you have no move to take back"),
            Refusal::Flagged(c) => write!(f, "{}'s time has run out", c.name()),
            Refusal::NothingToClaim => f.write_str("your opponent has not left long enough to claim the game"),
            Refusal::Started => f.write_str("both sides have moved: the game can no longer be aborted"),
        }
    }
}

impl std::error::Error for Refusal {}
