//! The room state machine: two seats, the game, offers and the clock. It is the only code that
//! plays moves; the server's connection tasks only parse, forward and relay.
//!
//! ```
//! use qi_rooms::{Command, Refusal, Room, RoomSpec};
//! use xiangqi::Color;
//! let now = tokio::time::Instant::now();
//! let mut room = Room::new(RoomSpec::standard(None), 0, now);
//! let mv = "h2e2".parse().unwrap();
//! assert!(room.apply(Some(Color::Red), Command::Move { ply: 0, mv }, now).is_ok());
//! // The same move again (a resend after a lost acknowledgement) changes nothing.
//! assert_eq!(room.apply(Some(Color::Red), Command::Move { ply: 0, mv }, now), Ok(qi_rooms::Applied::Unchanged));
//! // A spectator or the wrong seat is refused.
//! assert_eq!(room.apply(None, Command::Resign, now), Err(Refusal::Spectator));
//! assert_eq!(room.apply(Some(Color::Red), Command::Move { ply: 1, mv: "h9g7".parse().unwrap() }, now), Err(Refusal::NotYourTurn));
//! ```

use crate::chat::{Chat, ChatError, ChatLine};
use crate::clock::{Clock, ClockSettings};
use crate::command::{Answer, Command, Refusal};
use crate::id::{RoomId, SeatToken};
use crate::offers::Offers;
use crate::record::{ClockRecord, RoomRecord};
use crate::status::{EndReason, RoomStatus};
use core::fmt;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use xiangqi::outcome::{Game, Outcome, Reason};
use xiangqi::{Color, Move, Position};

/// Most moves a room holds: the one limit for games everywhere. A game that reaches it ends,
/// drawn by the move limit.
pub const MAX_PLIES: usize = xiangqi::MAX_GAME_PLIES;

/// What a new room starts from: a position, moves already played, and a time control.
#[derive(Clone, Debug)]
pub struct RoomSpec {
    /// The start position.
    pub start: Position,
    /// Moves already played from `start` (all legal; the game is not over after them).
    pub moves: Vec<Move>,
    /// The time control, or none.
    pub clock: Option<ClockSettings>,
    /// Listed in the lobby's "games being played" while it goes on (lobby games are; a friend
    /// room is not unless a player says so).
    pub public: bool,
}

/// Why a room cannot be made from the given start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The FEN does not parse or is not a legal position.
    Fen(String),
    /// A move is not ICCS or not legal; `ply` counts from 0.
    Move {
        /// Where in the list.
        ply: usize,
        /// What is wrong.
        message: String,
    },
    /// More moves than [`MAX_PLIES`].
    TooLong,
    /// The game given is already over.
    Over,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Fen(m) => write!(f, "bad FEN: {m}"),
            SpecError::Move { ply, message } => write!(f, "move {}: {message}", ply + 1),
            SpecError::TooLong => write!(f, "at most {MAX_PLIES} moves"),
            SpecError::Over => f.write_str("that game is already over"),
        }
    }
}

impl std::error::Error for SpecError {}

impl RoomSpec {
    /// The standard start position, no moves.
    pub fn standard(clock: Option<ClockSettings>) -> RoomSpec {
        RoomSpec { start: Position::startpos(), moves: Vec::new(), clock, public: false }
    }

    /// A spec from the API's fields: an optional FEN (default: the standard start) and ICCS moves.
    ///
    /// # Errors
    /// [`SpecError`] for a bad FEN, a bad or illegal move, too many moves, or a game already over.
    pub fn parse(fen: Option<&str>, moves: &[String], clock: Option<ClockSettings>) -> Result<RoomSpec, SpecError> {
        let start = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f.trim()).map_err(|e| SpecError::Fen(e.to_string()))?,
        };
        if moves.len() > MAX_PLIES {
            return Err(SpecError::TooLong);
        }
        let mut game = Game::new(start.clone());
        let mut parsed = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let mv: Move = text.parse().map_err(|e| SpecError::Move { ply, message: format!("{e}") })?;
            game.play(mv).map_err(|e| SpecError::Move { ply, message: e.to_string() })?;
            parsed.push(mv);
        }
        if game.status().is_over() {
            return Err(SpecError::Over);
        }
        Ok(RoomSpec { start, moves: parsed, clock, public: false })
    }
}

/// The two offers that wait for the opponent's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OfferKind {
    Draw,
    Takeback,
}

/// What a successful request did.
#[derive(Clone, Debug)]
pub enum Applied {
    /// The room changed: save it, then tell everyone.
    Changed,
    /// Nothing changed (a resent move, a repeated offer): tell the sender the state.
    Unchanged,
    /// Both players want a rematch: this room now points at the new one (save both).
    Rematch(Box<Room>),
}

impl PartialEq for Applied {
    /// Same kind; two rematches are equal when they made the same room.
    fn eq(&self, other: &Applied) -> bool {
        match (self, other) {
            (Applied::Changed, Applied::Changed) | (Applied::Unchanged, Applied::Unchanged) => true,
            (Applied::Rematch(a), Applied::Rematch(b)) => a.id() == b.id(),
            _ => false,
        }
    }
}

/// A room: seats, game, offers, clock. Always consistent: the moves are legal from the start,
/// the status matches them, and a finished game's clock is stopped.
#[derive(Clone, Debug)]
pub struct Room {
    id: RoomId,
    seats: [SeatToken; 2],
    game: Game,
    preset: usize,
    clock: Option<Clock>,
    status: RoomStatus,
    offers: Offers,
    next: Option<RoomId>,
    version: u64,
    created_ms: i64,
    updated_ms: i64,
    /// With a clock: the mover's remaining milliseconds after each move (for the PGN's `%clk`).
    move_clocks: Vec<u64>,
    /// Since when the side to move has been waited for, before both first moves (memory only).
    waiting_since: Instant,
    /// Whether both seats are connected now (the hub says so; memory only).
    both_present: bool,
    /// Since when each seat has had nobody connected, red first (memory only).
    gone_since: [Option<Instant>; 2],
    /// How long the player who stayed waits before claiming a game the opponent left.
    claim_after: Duration,
    /// How long a side may take over its first move: with both seats connected, and otherwise.
    first_move_waits: (Duration, Duration),
    /// The players' chat (memory only).
    chat: Chat,
    /// The players' names, red first.
    names: [Option<String>; 2],
    /// Listed for spectators in the lobby while the game goes on.
    public: bool,
}

/// How long a side may take over its first move once both players are connected (as lichess).
pub const FIRST_MOVE_WAIT: Duration = Duration::from_secs(30);
/// How long a side may take over its first move while a player is missing.
pub const FIRST_MOVE_WAIT_ALONE: Duration = Duration::from_secs(600);
/// How long a player who stayed waits, once the opponent has gone, before claiming the game.
pub const CLAIM_AFTER: Duration = Duration::from_secs(20);

impl Room {
    /// A new room with a fresh id and fresh seat tokens.
    pub fn new(spec: RoomSpec, wall_ms: i64, now: Instant) -> Room {
        let mut game = Game::new(spec.start);
        for &m in &spec.moves {
            game.play(m).expect("a RoomSpec holds legal moves");
        }
        let status = game.status().into();
        Room {
            id: RoomId::random(),
            seats: [SeatToken::random(), SeatToken::random()],
            preset: spec.moves.len(),
            game,
            clock: spec.clock.map(Clock::new),
            status,
            offers: Offers::default(),
            next: None,
            version: 1,
            created_ms: wall_ms,
            updated_ms: wall_ms,
            move_clocks: match spec.clock {
                Some(c) => vec![c.initial_ms; spec.moves.len()],
                None => Vec::new(),
            },
            waiting_since: now,
            both_present: false,
            gone_since: [None; 2],
            claim_after: CLAIM_AFTER,
            first_move_waits: (FIRST_MOVE_WAIT, FIRST_MOVE_WAIT_ALONE),
            chat: Chat::default(),
            names: [None, None],
            public: spec.public,
        }
    }

    /// Sets how long a side may take over its first move (with both seats connected, and
    /// otherwise); the defaults are [`FIRST_MOVE_WAIT`] and [`FIRST_MOVE_WAIT_ALONE`].
    pub fn set_first_move_waits(&mut self, together: Duration, alone: Duration) {
        self.first_move_waits = (together, alone);
    }

    /// Sets how long a player who stayed waits before claiming a game the opponent left
    /// (default [`CLAIM_AFTER`]).
    pub fn set_claim_after(&mut self, wait: Duration) {
        self.claim_after = wait;
    }

    /// Tells the room which seats are connected at `now` (red first): the first-move wait is
    /// short from the moment both are there, and a seat left empty starts the claim countdown.
    pub fn set_presence(&mut self, present: [bool; 2], now: Instant) {
        let both = present[0] && present[1];
        if both != self.both_present && !self.started() {
            self.waiting_since = now;
        }
        self.both_present = both;
        for (slot, here) in self.gone_since.iter_mut().zip(present) {
            if here {
                *slot = None;
            } else if slot.is_none() {
                *slot = Some(now);
            }
        }
        // The side to move is back: a clock held for its reconnection runs again.
        if let Some(clock) = &mut self.clock {
            if clock.running().is_some_and(|side| present[side.index()]) {
                clock.release(now);
            }
        }
    }

    /// The room was loaded after its host stopped with this clock running (a restart of the
    /// server, a takeover in a cluster): every connection was cut, so the side to move, if it
    /// is not connected yet, is charged nothing until it is, for at most `grace`.
    pub fn hold_for_reconnection(&mut self, now: Instant, grace: Duration) {
        if self.status.is_over() {
            return;
        }
        if let Some(clock) = &mut self.clock {
            if clock.running().is_some_and(|side| self.gone_since[side.index()].is_some()) {
                clock.hold_until(now, now + grace);
            }
        }
    }

    /// When the hold of [`Room::hold_for_reconnection`] ends, if the clock is held at `now`.
    pub fn hold_ends(&self, now: Instant) -> Option<Instant> {
        self.clock.as_ref().filter(|_| !self.status.is_over()).and_then(|c| c.held_until(now))
    }

    /// [`Room::set_presence`] with both seats connected or not.
    pub fn set_both_present(&mut self, both: bool, now: Instant) {
        self.set_presence([both; 2], now);
    }

    /// When the player who stayed may claim the game: the game has started, is not over, and
    /// exactly one seat has had nobody connected since the returned instant minus the wait.
    pub fn claim_deadline(&self) -> Option<Instant> {
        if self.status.is_over() || !self.started() {
            return None;
        }
        match self.gone_since {
            [Some(since), None] | [None, Some(since)] => Some(since + self.claim_after),
            _ => None,
        }
    }

    /// Whether both sides have made their first move (the clock runs only from then on).
    pub fn started(&self) -> bool {
        self.game.moves().len() >= self.preset + 2
    }

    /// When the game is aborted if the side to move has not made its first move: only before
    /// both first moves, only with a clock.
    pub fn abort_deadline(&self) -> Option<Instant> {
        if self.status.is_over() || self.started() || self.clock.is_none() {
            return None;
        }
        let wait = if self.both_present { self.first_move_waits.0 } else { self.first_move_waits.1 };
        Some(self.waiting_since + wait)
    }

    /// Says `text` in the chat from `seat` (see [`Chat::say`]); the room's game is untouched.
    ///
    /// # Errors
    /// As [`Chat::say`].
    pub fn chat(
        &mut self,
        seat: Option<Color>,
        text: &str,
        now: Instant,
        wall_ms: i64,
    ) -> Result<Arc<ChatLine>, ChatError> {
        self.chat.say(seat, text, now, wall_ms)
    }

    /// Names `seat`'s player (see [`crate::clean_name`]; an empty name removes it); whether
    /// the name changed. The name is part of the room: save it.
    ///
    /// # Errors
    /// [`Refusal::Spectator`] without a seat.
    pub fn set_name(&mut self, seat: Option<Color>, name: &str, wall_ms: i64) -> Result<bool, Refusal> {
        let seat = seat.ok_or(Refusal::Spectator)?;
        let name = crate::names::clean_name(name);
        if self.names[seat.index()] == name {
            return Ok(false);
        }
        self.names[seat.index()] = name;
        self.touch(wall_ms);
        Ok(true)
    }

    /// Whether the game is listed for spectators in the lobby while it goes on.
    pub fn public(&self) -> bool {
        self.public
    }

    /// The players' names, red first.
    pub fn names(&self) -> [Option<&str>; 2] {
        [self.names[0].as_deref(), self.names[1].as_deref()]
    }

    /// The chat's recent lines, oldest first.
    pub fn chat_lines(&self) -> Vec<Arc<ChatLine>> {
        self.chat.lines()
    }

    /// The room's id.
    pub fn id(&self) -> &RoomId {
        &self.id
    }

    /// The colour `token` seats, if any: a token only ever seats its own colour.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| self.seats[c.index()].matches(token))
    }

    /// The seat token of `color`.
    pub fn token(&self, color: Color) -> &SeatToken {
        &self.seats[color.index()]
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The verdict so far.
    pub fn status(&self) -> RoomStatus {
        self.status
    }

    /// The clock, if the room has one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The server stalled for `stall` while a clock ran: nobody is charged for it (as nobody
    /// is for the time a dead server was down).
    pub fn credit_stall(&mut self, stall: std::time::Duration, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.credit(stall, now);
        }
    }

    /// Whether a clock is running (a game on, both first moves made).
    pub fn clock_running(&self) -> bool {
        !self.status.is_over() && self.clock.as_ref().is_some_and(|c| c.running().is_some())
    }

    /// Standing offers.
    pub fn offers(&self) -> Offers {
        self.offers
    }

    /// The rematch room, once agreed.
    pub fn next(&self) -> Option<&RoomId> {
        self.next.as_ref()
    }

    /// How many changes the room has seen.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Wall time of the last change.
    pub fn updated_ms(&self) -> i64 {
        self.updated_ms
    }

    /// Wall time of creation.
    pub fn created_ms(&self) -> i64 {
        self.created_ms
    }

    /// With a clock: the mover's remaining milliseconds after each move, one per move (empty
    /// when the room has no clock or was saved before these were kept).
    pub fn move_clocks(&self) -> &[u64] {
        if self.move_clocks.len() == self.game.moves().len() {
            &self.move_clocks
        } else {
            &[]
        }
    }

    /// When the running side's flag falls, if a clock runs.
    pub fn deadline(&self) -> Option<Instant> {
        if self.status.is_over() {
            return None;
        }
        let flag = self.clock.as_ref().and_then(Clock::deadline);
        match (flag, self.abort_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Ends the game if the side to move has run out of time at `now`; says whether it did.
    /// A side whose opponent has no piece able to mate (rook, horse, cannon, pawn) only draws.
    /// Before both first moves, a side that let its first-move wait run out aborts the game.
    pub fn check_flag(&mut self, now: Instant, wall_ms: i64) -> bool {
        if self.abort_deadline().is_some_and(|d| d <= now) {
            self.finish(RoomStatus::ABORTED, now);
            self.touch(wall_ms);
            return true;
        }
        let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) else { return false };
        if self.status.is_over() {
            return false;
        }
        let winner = loser.other();
        let can_mate = self.game.position().pieces().any(|(_, p)| p.color == winner && p.kind.is_attacking());
        let outcome = if can_mate { Outcome::win(winner) } else { Outcome::Draw };
        self.finish(RoomStatus { outcome, reason: Some(EndReason::Flag) }, now);
        self.touch(wall_ms);
        true
    }

    /// Applies `command` from `seat` (`None`: a spectator) at `now`.
    ///
    /// # Errors
    /// A [`Refusal`] when the request is not allowed; the room is then unchanged.
    pub fn apply(&mut self, seat: Option<Color>, command: Command, now: Instant) -> Result<Applied, Refusal> {
        self.apply_at(seat, command, now, crate::record::wall_ms())
    }

    /// [`Room::apply`] with the wall time given (it only dates the change).
    ///
    /// # Errors
    /// As [`Room::apply`].
    pub fn apply_at(
        &mut self,
        seat: Option<Color>,
        command: Command,
        now: Instant,
        wall_ms: i64,
    ) -> Result<Applied, Refusal> {
        let seat = seat.ok_or(Refusal::Spectator)?;
        if let Command::Move { ply, mv } = command {
            if self.game.moves().get(ply) == Some(&mv) {
                return Ok(Applied::Unchanged);
            }
        }
        if let Some(c) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            if !self.status.is_over() {
                return Err(Refusal::Flagged(c));
            }
        }
        let applied = match command {
            Command::Move { ply, mv } => self.play(seat, ply, mv, now)?,
            Command::Resign => {
                self.require_ongoing()?;
                self.finish(
                    RoomStatus { outcome: Outcome::win(seat.other()), reason: Some(EndReason::Resignation) },
                    now,
                );
                Applied::Changed
            }
            Command::Draw(answer) => self.answer_offer(OfferKind::Draw, seat, answer, now)?,
            Command::Takeback(answer) => self.answer_offer(OfferKind::Takeback, seat, answer, now)?,
            Command::Rematch => self.rematch(seat, now, wall_ms)?,
            // Either player may list the game or take it off the list, at any time.
            Command::Public(public) if public == self.public => return Ok(Applied::Unchanged),
            Command::Public(public) => {
                self.public = public;
                Applied::Changed
            }
            Command::Claim { win } => {
                self.require_ongoing()?;
                let ready =
                    self.gone_since[seat.other().index()].is_some() && self.claim_deadline().is_some_and(|d| d <= now);
                if !ready {
                    return Err(Refusal::NothingToClaim);
                }
                let outcome = if win { Outcome::win(seat) } else { Outcome::Draw };
                self.finish(RoomStatus { outcome, reason: Some(EndReason::Abandonment) }, now);
                Applied::Changed
            }
            Command::Abort => {
                self.require_ongoing()?;
                if self.started() {
                    return Err(Refusal::Started);
                }
                self.finish(RoomStatus::ABORTED, now);
                Applied::Changed
            }
        };
        if applied != Applied::Unchanged {
            self.touch(wall_ms);
        }
        Ok(applied)
    }

    fn touch(&mut self, wall_ms: i64) {
        self.version += 1;
        self.updated_ms = self.updated_ms.max(wall_ms);
    }

    fn require_ongoing(&self) -> Result<(), Refusal> {
        if self.status.is_over() {
            Err(Refusal::GameOver)
        } else {
            Ok(())
        }
    }

    fn finish(&mut self, status: RoomStatus, now: Instant) {
        self.status = status;
        self.offers.draw = None;
        self.offers.takeback = None;
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
    }

    fn play(&mut self, seat: Color, ply: usize, mv: Move, now: Instant) -> Result<Applied, Refusal> {
        self.require_ongoing()?;
        let played = self.game.moves().len();
        if ply != played {
            return Err(Refusal::StalePly { expected: played, got: ply });
        }
        if self.game.position().turn() != seat {
            return Err(Refusal::NotYourTurn);
        }
        if played >= MAX_PLIES {
            return Err(Refusal::TooLong);
        }
        self.game.play(mv).map_err(|_| Refusal::Illegal(mv))?;
        // No clock runs until both sides have made their first move (as on lichess); then the
        // side to move's starts, and from the next move on each move is charged.
        let started = self.started();
        if let Some(clock) = &mut self.clock {
            if clock.running().is_some() {
                clock.on_move(seat, seat.other(), now);
            } else if started {
                clock.switch_to(seat.other(), now);
            }
        }
        self.waiting_since = now;
        if let Some(clock) = &self.clock {
            self.move_clocks.truncate(played);
            self.move_clocks.push(clock.remaining(seat, now));
        }
        if self.offers.draw == Some(seat.other()) {
            self.offers.draw = None;
        }
        self.offers.takeback = None;
        let mut status: RoomStatus = self.game.status().into();
        if !status.is_over() && self.game.moves().len() >= MAX_PLIES {
            status = RoomStatus { outcome: Outcome::Draw, reason: Some(EndReason::Rule(Reason::MoveLimit)) };
        }
        if status.is_over() {
            self.finish(status, now);
        }
        Ok(Applied::Changed)
    }

    fn offer_slot(&mut self, kind: OfferKind) -> &mut Option<Color> {
        match kind {
            OfferKind::Draw => &mut self.offers.draw,
            OfferKind::Takeback => &mut self.offers.takeback,
        }
    }

    /// A draw offer or a takeback request, or the answer to the opponent's.
    fn answer_offer(&mut self, kind: OfferKind, seat: Color, answer: Answer, now: Instant) -> Result<Applied, Refusal> {
        self.require_ongoing()?;
        let standing = *self.offer_slot(kind);
        let by_opponent = standing == Some(seat.other());
        match answer {
            Answer::Propose if standing == Some(seat) => Ok(Applied::Unchanged),
            Answer::Propose | Answer::Accept if by_opponent => {
                match kind {
                    OfferKind::Draw => {
                        self.finish(RoomStatus { outcome: Outcome::Draw, reason: Some(EndReason::Agreement) }, now)
                    }
                    OfferKind::Takeback => self.take_back(seat.other(), now),
                }
                Ok(Applied::Changed)
            }
            Answer::Propose => {
                if kind == OfferKind::Takeback {
                    self.takeback_plies(seat).ok_or(Refusal::NothingToTakeBack)?;
                }
                *self.offer_slot(kind) = Some(seat);
                Ok(Applied::Changed)
            }
            Answer::Decline if by_opponent => {
                *self.offer_slot(kind) = None;
                Ok(Applied::Changed)
            }
            Answer::Accept | Answer::Decline => Err(Refusal::NoOffer),
        }
    }

    /// How many plies a takeback for `asker` removes: its last move, and the opponent's reply
    /// if there is one; never the moves the room was made with.
    fn takeback_plies(&self, asker: Color) -> Option<usize> {
        let played = self.game.moves().len();
        let turn = self.game.position().turn();
        let n = if turn == asker { 2 } else { 1 };
        (played >= self.preset + n).then_some(n)
    }

    fn take_back(&mut self, asker: Color, now: Instant) {
        self.offers.takeback = None;
        self.offers.draw = None;
        // The request was valid when made and no move came since (a move clears it).
        let Some(n) = self.takeback_plies(asker) else { return };
        let keep = self.game.moves().len() - n;
        self.move_clocks.truncate(keep);
        let moves = self.game.moves()[..keep].to_vec();
        self.game =
            Game::from_moves(self.game.start().clone(), &moves, self.game.rules()).expect("a prefix of legal moves");
        let turn = self.game.position().turn();
        self.waiting_since = now;
        let started = self.started();
        if let Some(clock) = &mut self.clock {
            if !started {
                clock.stop(now);
            } else {
                clock.switch_to(turn, now);
            }
        }
    }

    fn rematch(&mut self, seat: Color, now: Instant, wall_ms: i64) -> Result<Applied, Refusal> {
        if !self.status.is_over() {
            return Err(Refusal::NotOver);
        }
        if self.next.is_some() || self.offers.rematch == Some(seat) {
            return Ok(Applied::Unchanged);
        }
        if self.offers.rematch != Some(seat.other()) {
            self.offers.rematch = Some(seat);
            return Ok(Applied::Changed);
        }
        // Colours swap: whoever held red now holds black, with the same token.
        let spec = RoomSpec {
            start: self.game.start().clone(),
            moves: self.game.moves()[..self.preset].to_vec(),
            clock: self.clock.as_ref().map(Clock::settings),
            public: self.public,
        };
        let mut next = Room::new(spec, wall_ms, now);
        next.seats = [self.seats[1].clone(), self.seats[0].clone()];
        next.names = [self.names[1].clone(), self.names[0].clone()];
        self.next = Some(next.id.clone());
        self.offers.rematch = None;
        Ok(Applied::Rematch(Box::new(next)))
    }

    /// The room as plain data to save, with the clock read at `now` / `wall_ms`.
    pub fn to_record(&self, now: Instant, wall_ms: i64) -> RoomRecord {
        RoomRecord {
            id: self.id.clone(),
            seats: self.seats.clone(),
            start_fen: self.game.start().fen(),
            moves: self.game.moves().to_vec(),
            preset: self.preset,
            clock: self.clock.as_ref().map(|c| ClockRecord {
                settings: c.settings(),
                remaining_ms: c.remaining_both(now),
                running: c.running(),
                at_ms: wall_ms,
            }),
            outcome: self.status.outcome_name().to_string(),
            reason: self.status.reason.map(|r| r.name().to_string()),
            offers: self.offers,
            next: self.next.clone(),
            version: self.version,
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            move_clocks: self.move_clocks().to_vec(),
            names: self.names.clone(),
            public: self.public,
        }
    }

    /// The room a record describes; the running clock is charged for the wall time since the
    /// record was made.
    ///
    /// # Errors
    /// A message when the record is inconsistent (a bad FEN, an illegal move, unknown names).
    pub fn from_record(record: RoomRecord, now: Instant, wall_ms: i64) -> Result<Room, String> {
        let start = Position::from_fen(&record.start_fen).map_err(|e| format!("room {}: bad FEN: {e}", record.id))?;
        let game = Game::from_moves(start, &record.moves, Default::default())
            .map_err(|e| format!("room {}: {e}", record.id))?;
        let outcome = RoomStatus::outcome_from_name(&record.outcome)
            .ok_or_else(|| format!("room {}: unknown outcome {:?}", record.id, record.outcome))?;
        let reason = match &record.reason {
            None => None,
            Some(name) => {
                Some(EndReason::from_name(name).ok_or_else(|| format!("room {}: unknown reason {name:?}", record.id))?)
            }
        };
        let clock = record.clock.map(|c| {
            let elapsed = u64::try_from(wall_ms.saturating_sub(c.at_ms)).unwrap_or(0);
            Clock::restore(c.settings, c.remaining_ms, c.running.map(|side| (side, elapsed)), now)
        });
        Ok(Room {
            id: record.id,
            seats: record.seats,
            game,
            preset: record.preset.min(record.moves.len()),
            clock,
            status: RoomStatus { outcome, reason },
            offers: record.offers,
            next: record.next,
            version: record.version,
            created_ms: record.created_ms,
            updated_ms: record.updated_ms,
            move_clocks: record.move_clocks,
            waiting_since: now,
            both_present: false,
            gone_since: [None; 2],
            claim_after: CLAIM_AFTER,
            first_move_waits: (FIRST_MOVE_WAIT, FIRST_MOVE_WAIT_ALONE),
            chat: Chat::default(),
            names: record.names,
            public: record.public,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn play(room: &mut Room, seat: Color, m: &str, now: Instant) -> Result<Applied, Refusal> {
        let ply = room.game().moves().len();
        room.apply(Some(seat), Command::Move { ply, mv: mv(m) }, now)
    }

    #[test]
    fn refusals_leave_the_room_unchanged() {
        let now = Instant::now();
        let mut room = Room::new(RoomSpec::standard(None), 0, now);
        play(&mut room, Color::Red, "h2e2", now).unwrap();
        let version = room.version();
        assert_eq!(
            room.apply(Some(Color::Black), Command::Move { ply: 0, mv: mv("h9g7") }, now),
            Err(Refusal::StalePly { expected: 1, got: 0 })
        );
        assert_eq!(
            room.apply(Some(Color::Black), Command::Move { ply: 2, mv: mv("h9g7") }, now),
            Err(Refusal::StalePly { expected: 1, got: 2 })
        );
        assert_eq!(play(&mut room, Color::Black, "h9h5", now), Err(Refusal::Illegal(mv("h9h5"))));
        assert_eq!(play(&mut room, Color::Red, "b2e2", now), Err(Refusal::NotYourTurn));
        assert_eq!(room.apply(Some(Color::Black), Command::Draw(Answer::Accept), now), Err(Refusal::NoOffer));
        assert_eq!(room.apply(Some(Color::Black), Command::Rematch, now), Err(Refusal::NotOver));
        assert_eq!(room.version(), version);
        assert_eq!(room.game().moves(), &[mv("h2e2")]);
    }

    #[test]
    fn a_token_seats_only_its_colour() {
        let room = Room::new(RoomSpec::standard(None), 0, Instant::now());
        assert_eq!(room.seat_of(room.token(Color::Red).as_str()), Some(Color::Red));
        assert_eq!(room.seat_of(room.token(Color::Black).as_str()), Some(Color::Black));
        assert_eq!(room.seat_of("AAAAAAAAAAAAAAAAAAAAAA"), None);
        assert_eq!(room.seat_of(room.id().as_str()), None);
    }

    #[test]
    fn takeback_removes_the_askers_move_and_the_reply() {
        let now = Instant::now();
        let mut room = Room::new(RoomSpec::standard(None), 0, now);
        assert_eq!(
            room.apply(Some(Color::Red), Command::Takeback(Answer::Propose), now),
            Err(Refusal::NothingToTakeBack)
        );
        play(&mut room, Color::Red, "h2e2", now).unwrap();
        play(&mut room, Color::Black, "h9g7", now).unwrap();
        room.apply(Some(Color::Red), Command::Takeback(Answer::Propose), now).unwrap();
        assert_eq!(room.offers().takeback, Some(Color::Red));
        room.apply(Some(Color::Black), Command::Takeback(Answer::Accept), now).unwrap();
        assert!(room.game().moves().is_empty());
        assert_eq!(room.offers(), Offers::default());
    }

    #[test]
    fn a_move_declines_the_opponents_draw_offer() {
        let now = Instant::now();
        let mut room = Room::new(RoomSpec::standard(None), 0, now);
        room.apply(Some(Color::Black), Command::Draw(Answer::Propose), now).unwrap();
        play(&mut room, Color::Red, "h2e2", now).unwrap();
        assert_eq!(room.offers().draw, None);
        room.apply(Some(Color::Red), Command::Draw(Answer::Propose), now).unwrap();
        room.apply(Some(Color::Black), Command::Draw(Answer::Accept), now).unwrap();
        assert_eq!(room.status().reason, Some(EndReason::Agreement));
        assert_eq!(play(&mut room, Color::Black, "h9g7", now), Err(Refusal::GameOver));
    }

    #[test]
    fn the_flag_falls_on_the_side_to_move() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 1_000, increment_ms: 0 };
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 0, t0);
        play(&mut room, Color::Red, "h2e2", t0).unwrap();
        play(&mut room, Color::Black, "h9g7", t0).unwrap();
        play(&mut room, Color::Red, "h0g2", t0).unwrap();
        let late = t0 + Duration::from_millis(1_500);
        assert_eq!(play(&mut room, Color::Black, "b9c7", late), Err(Refusal::Flagged(Color::Black)));
        assert!(room.check_flag(late, 0));
        assert_eq!(room.status().outcome, Outcome::RedWins);
        assert_eq!(room.status().reason, Some(EndReason::Flag));
        assert_eq!(room.deadline(), None);
    }

    #[test]
    fn no_clock_runs_before_both_first_moves() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 60_000, increment_ms: 2_000 };
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 0, t0);
        room.set_both_present(true, t0);
        let t1 = t0 + Duration::from_secs(20);
        play(&mut room, Color::Red, "h2e2", t1).unwrap();
        assert_eq!(room.clock().unwrap().running(), None);
        let t2 = t1 + Duration::from_secs(25);
        play(&mut room, Color::Black, "h9g7", t2).unwrap();
        // Neither first move is charged nor earns the increment; red's clock starts now.
        let clock = room.clock().unwrap();
        assert_eq!(clock.running(), Some(Color::Red));
        assert_eq!(clock.remaining_both(t2), [60_000, 60_000]);
        assert_eq!(room.abort_deadline(), None);
        assert_eq!(room.apply(Some(Color::Red), Command::Abort, t2), Err(Refusal::Started));
    }

    #[test]
    fn an_unstarted_game_is_aborted_with_no_result() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 60_000, increment_ms: 0 };
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 0, t0);
        // Alone, red has the long wait; once black is there, 30 s from then.
        assert_eq!(room.abort_deadline(), Some(t0 + FIRST_MOVE_WAIT_ALONE));
        let t1 = t0 + Duration::from_secs(100);
        room.set_both_present(true, t1);
        assert_eq!(room.deadline(), Some(t1 + FIRST_MOVE_WAIT));
        play(&mut room, Color::Red, "h2e2", t1 + Duration::from_secs(29)).unwrap();
        let t2 = t1 + Duration::from_secs(29);
        assert!(!room.check_flag(t2 + Duration::from_secs(29), 0));
        assert!(room.check_flag(t2 + FIRST_MOVE_WAIT, 0));
        assert_eq!(room.status(), RoomStatus::ABORTED);
        assert_eq!(room.status().outcome_name(), "aborted");
        assert_eq!(room.clock().unwrap().remaining_both(t2), [60_000, 60_000]);
        let back = Room::from_record(room.to_record(t2, 0), t2, 0).unwrap();
        assert_eq!(back.status(), RoomStatus::ABORTED);
        // A player may also abort before both have moved.
        let mut other = Room::new(RoomSpec::standard(None), 0, t0);
        assert_eq!(other.apply(Some(Color::Black), Command::Abort, t0), Ok(Applied::Changed));
        assert!(other.status().is_aborted());
    }

    #[test]
    fn the_player_who_stayed_may_claim_after_the_grace() {
        let t0 = Instant::now();
        let mut room = Room::new(RoomSpec::standard(None), 0, t0);
        room.set_presence([true, true], t0);
        play(&mut room, Color::Red, "h2e2", t0).unwrap();
        play(&mut room, Color::Black, "h9g7", t0).unwrap();
        let claim = Command::Claim { win: true };
        assert_eq!(room.apply(Some(Color::Red), claim, t0), Err(Refusal::NothingToClaim));
        room.set_presence([true, false], t0);
        assert_eq!(room.claim_deadline(), Some(t0 + CLAIM_AFTER));
        assert_eq!(room.apply(Some(Color::Red), claim, t0 + CLAIM_AFTER / 2), Err(Refusal::NothingToClaim));
        // The one who left cannot claim.
        assert_eq!(room.apply(Some(Color::Black), claim, t0 + CLAIM_AFTER), Err(Refusal::NothingToClaim));
        room.apply(Some(Color::Red), claim, t0 + CLAIM_AFTER).unwrap();
        assert_eq!(room.status(), RoomStatus { outcome: Outcome::RedWins, reason: Some(EndReason::Abandonment) });
    }

    #[test]
    fn rematch_swaps_the_tokens() {
        let now = Instant::now();
        let mut room = Room::new(RoomSpec::standard(None), 0, now);
        room.apply(Some(Color::Red), Command::Resign, now).unwrap();
        assert_eq!(room.apply(Some(Color::Red), Command::Rematch, now), Ok(Applied::Changed));
        let Ok(Applied::Rematch(next)) = room.apply(Some(Color::Black), Command::Rematch, now) else { panic!() };
        assert_eq!(next.token(Color::Black), room.token(Color::Red));
        assert_eq!(next.token(Color::Red), room.token(Color::Black));
        assert_eq!(room.next(), Some(next.id()));
    }

    #[test]
    fn a_record_brings_the_room_back() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 60_000, increment_ms: 1_000 };
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 0, t0);
        play(&mut room, Color::Red, "h2e2", t0).unwrap();
        play(&mut room, Color::Black, "h9g7", t0).unwrap();
        play(&mut room, Color::Red, "h0g2", t0).unwrap();
        room.apply(Some(Color::Red), Command::Draw(Answer::Propose), t0).unwrap();
        let record = room.to_record(t0 + Duration::from_secs(3), 10_000);
        // Loaded 2 s (wall) after the record was made: black has used 3 + 2 seconds.
        let back = Room::from_record(record.clone(), t0, 12_000).unwrap();
        assert_eq!(back.to_record(t0, 12_000).clock.unwrap().remaining_ms, [61_000, 55_000]);
        assert_eq!(back.move_clocks(), &[60_000, 60_000, 61_000]);
        assert_eq!(back.offers().draw, Some(Color::Red));
        assert_eq!(back.game().moves(), room.game().moves());
        assert_eq!(back.version(), room.version());
    }

    #[test]
    fn after_a_restart_the_side_to_move_is_charged_from_its_return_and_within_the_grace() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 60_000, increment_ms: 0 };
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 0, t0);
        play(&mut room, Color::Red, "h2e2", t0).unwrap();
        play(&mut room, Color::Black, "h9g7", t0).unwrap();
        play(&mut room, Color::Red, "h0g2", t0).unwrap();
        // Black has used 4 s when the server stops; the room is loaded again when red connects.
        let record = room.to_record(t0 + Duration::from_secs(4), 10_000);
        let t1 = t0 + Duration::from_secs(100);
        let mut back = Room::from_record(record.clone(), t1, 10_000).unwrap();
        back.set_presence([true, false], t1);
        let grace = Duration::from_secs(10);
        back.hold_for_reconnection(t1, grace);
        assert_eq!(back.hold_ends(t1), Some(t1 + grace));
        assert_eq!(back.clock().unwrap().remaining_both(t1 + Duration::from_secs(3)), [60_000, 56_000]);
        // Black is back 3 s later: its time runs from then.
        let t2 = t1 + Duration::from_secs(3);
        back.set_presence([true, true], t2);
        assert_eq!(back.hold_ends(t2), None);
        assert_eq!(back.clock().unwrap().remaining_both(t2 + Duration::from_secs(2)), [60_000, 54_000]);

        // Black never comes back: the hold ends after the grace and the flag falls as usual.
        let mut away = Room::from_record(record.clone(), t1, 10_000).unwrap();
        away.set_presence([true, false], t1);
        away.hold_for_reconnection(t1, grace);
        assert_eq!(away.deadline(), Some(t1 + grace + Duration::from_secs(56)));
        assert!(!away.check_flag(t1 + grace + Duration::from_secs(55), 0));
        assert!(away.check_flag(t1 + grace + Duration::from_secs(56), 0));

        // The side to move already connected when the room is loaded: nothing is held.
        let mut here = Room::from_record(record, t1, 10_000).unwrap();
        here.set_presence([false, true], t1);
        here.hold_for_reconnection(t1, grace);
        assert_eq!(here.hold_ends(t1), None);
        assert_eq!(here.clock().unwrap().remaining_both(t1 + Duration::from_secs(1)), [60_000, 55_000]);
    }
}
