//! How a room's game stands: the rules' verdict, or an ending the rules know nothing about
//! (resignation, agreed draw, a fallen flag).

use xiangqi::outcome::{Outcome, Reason, Status};

/// Why a room's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules ended it (mate, stalemate, perpetual check or chase, repetition, move limit,
    /// no attackers), as [`xiangqi::outcome::Game::status`] judges.
    Rule(Reason),
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A player's time ran out.
    Flag,
    /// The opponent left and the player who stayed claimed the game (a win or a draw).
    Abandonment,
    /// The game was aborted before both sides had made their first move: no result.
    Aborted,
}

impl EndReason {
    /// The reason's name in the protocol: the rules' names (`checkmate`, `perpetual check`, …)
    /// or `resignation`, `agreement`, `flag`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Rule(r) => r.name(),
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Flag => "flag",
            EndReason::Aborted => "aborted",
            EndReason::Abandonment => "abandonment",
        }
    }

    /// The reason named `name` (the inverse of [`EndReason::name`]).
    pub fn from_name(name: &str) -> Option<EndReason> {
        const RULES: [Reason; 7] = [
            Reason::Checkmate,
            Reason::Stalemate,
            Reason::PerpetualCheck,
            Reason::PerpetualChase,
            Reason::Repetition,
            Reason::MoveLimit,
            Reason::NoAttackers,
        ];
        match name {
            "resignation" => Some(EndReason::Resignation),
            "agreement" => Some(EndReason::Agreement),
            "flag" => Some(EndReason::Flag),
            "aborted" => Some(EndReason::Aborted),
            "abandonment" => Some(EndReason::Abandonment),
            _ => RULES.into_iter().find(|r| r.name() == name).map(EndReason::Rule),
        }
    }
}

/// A room's verdict: an outcome, and why when the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomStatus {
    /// Who won, if anyone yet.
    pub outcome: Outcome,
    /// Why the game ended; `None` while it goes on.
    pub reason: Option<EndReason>,
}

impl RoomStatus {
    /// The game goes on.
    pub const ONGOING: RoomStatus = RoomStatus { outcome: Outcome::Ongoing, reason: None };

    /// Aborted before both first moves: over, with no result (kept as a draw inside, named
    /// `aborted` in the protocol and `*` in a PGN).
    pub const ABORTED: RoomStatus = RoomStatus { outcome: Outcome::Draw, reason: Some(EndReason::Aborted) };

    /// Whether the game was aborted (no result).
    pub fn is_aborted(&self) -> bool {
        self.reason == Some(EndReason::Aborted)
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }

    /// The outcome as named in the protocol: `ongoing`, `red wins`, `black wins`, `draw`, or
    /// `aborted`.
    pub fn outcome_name(&self) -> &'static str {
        if self.is_aborted() {
            return "aborted";
        }
        self.outcome.name()
    }

    /// The outcome named `name` (the inverse of [`RoomStatus::outcome_name`]).
    pub fn outcome_from_name(name: &str) -> Option<Outcome> {
        if name == "aborted" {
            return Some(Outcome::Draw);
        }
        [Outcome::Ongoing, Outcome::RedWins, Outcome::BlackWins, Outcome::Draw].into_iter().find(|o| o.name() == name)
    }
}

impl From<Status> for RoomStatus {
    fn from(s: Status) -> RoomStatus {
        RoomStatus { outcome: s.outcome, reason: s.reason.map(EndReason::Rule) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_name_reads_back() {
        for r in
            [EndReason::Resignation, EndReason::Agreement, EndReason::Flag, EndReason::Rule(Reason::PerpetualChase)]
        {
            assert_eq!(EndReason::from_name(r.name()), Some(r));
        }
        assert_eq!(EndReason::from_name("boredom"), None);
    }
}
