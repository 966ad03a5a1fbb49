//! A room's actor: the task that hosts one room, the only code that changes it. It claims the
//! room from the store (fencing off any earlier owner's writes), answers the requests sent to it
//! one at a time, saves every change before it is published, renews its lease while it runs,
//! and stops when the lease is lost, a write is fenced, or nobody has been connected for a while.

use super::listing;
use super::registry::{leave_memory, lock, Inner, Msg};
use super::{HubError, PRESENCE_TTL};
use crate::bus::{Lease, LEASE};
use crate::command::{Command, Refusal};
use crate::id::RoomId;
use crate::live::{LiveGame, ANNOUNCE_EVERY};
use crate::record::{wall_ms, RoomRecord};
use crate::room::{Applied, Room};
use crate::store::{Save, SaveError};
use crate::view::{share_path, state_frames, Presence, StateFrames};
use crate::wire::{Failure, InstanceId, Request, Response, WireState};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use xiangqi::Color;

/// How a room task starts.
pub(super) enum Start {
    /// A room just made and saved (fence 0).
    Fresh(Box<Room>),
    /// A stored room, claimed from the store.
    Claim,
}

/// The task of room `id`: the running one, or a new one.
pub(super) fn spawn_room(inner: &Arc<Inner>, id: RoomId, start: Start) -> Result<mpsc::UnboundedSender<Msg>, HubError> {
    let mut rooms = lock(&inner.rooms);
    if let Some(tx) = rooms.get(&id) {
        if !tx.is_closed() {
            return Ok(tx.clone());
        }
        rooms.remove(&id);
    }
    if rooms.len() >= inner.limits.max_rooms {
        rooms.retain(|_, tx| !tx.is_closed());
        if rooms.len() >= inner.limits.max_rooms {
            return Err(HubError::Full);
        }
    }
    let (tx, rx) = mpsc::unbounded_channel();
    rooms.insert(id.clone(), tx.clone());
    tokio::spawn(run_room(Arc::clone(inner), id, start, tx.clone(), rx));
    Ok(tx)
}

/// Why a room task stops.
enum Stop {
    /// Its write was fenced: another instance owns the room now.
    Fenced,
}

/// One room's task state: the room, who is connected, and what it last wrote and published.
struct Actor {
    id: RoomId,
    room: Room,
    inner: Arc<Inner>,
    /// Each instance's sockets and when it last said so.
    presence: HashMap<InstanceId, (Presence, Instant)>,
    /// The fence this task writes under, and the version last written.
    fence: u64,
    saved: u64,
    /// The share link and the version it was made for (encoding it costs more than the rest).
    link: (u64, String),
    last_stamp: u64,
    /// The last state published (a chat line republishes it with the new line).
    last: Option<WireState>,
    /// The game as last announced to the lobby's list, and when; none while it is not listed.
    listed: Option<(LiveGame, Instant)>,
    /// When a change of the listing held back (see [`ANNOUNCE_EVERY`]) is due.
    list_due: Option<Instant>,
}

/// A room opened by its task: the room, the fence it writes under, and whether another server
/// hosted it before (its connections were cut).
struct Opened {
    room: Room,
    fence: u64,
    interrupted: bool,
}

async fn open_room(inner: &Inner, id: &RoomId, start: Start) -> Result<Opened, Failure> {
    match start {
        Start::Fresh(room) => Ok(Opened { room: *room, fence: 0, interrupted: false }),
        Start::Claim => match inner.store.claim(id.clone()).await {
            Ok(Some(claimed)) => Room::from_record(claimed.record, Instant::now(), wall_ms())
                .map(|room| Opened { room, fence: claimed.fence, interrupted: claimed.interrupted })
                .map_err(Failure::Store),
            Ok(None) => Err(Failure::NotFound),
            Err(e) => Err(Failure::Store(e.to_string())),
        },
    }
}

async fn run_room(
    inner: Arc<Inner>,
    id: RoomId,
    start: Start,
    me: mpsc::UnboundedSender<Msg>,
    mut rx: mpsc::UnboundedReceiver<Msg>,
) {
    let Opened { mut room, fence, interrupted } = match open_room(&inner, &id, start).await {
        Ok(opened) => opened,
        Err(error) => {
            leave_memory(&inner, &id, &me, &mut rx);
            while let Ok(msg) = rx.try_recv() {
                let _ = msg.reply.send(Response::Failed { error: error.clone() });
            }
            if let Some(bus) = &inner.bus {
                let _ = bus.release(&id).await;
            }
            return;
        }
    };
    room.set_first_move_waits(inner.limits.first_move, inner.limits.first_move_alone);
    room.set_claim_after(inner.limits.claim_after);
    let mut presence = HashMap::new();
    // Sockets of this process that were there before the room was (re)hosted.
    if let Some(local) = lock(&inner.local).get(&id) {
        presence.insert(inner.instance.clone(), (local.presence, Instant::now()));
    }
    let link = (room.version(), share_path(&room));
    let saved = room.version();
    let mut actor = Actor {
        id,
        room,
        inner,
        presence,
        fence,
        saved,
        link,
        last_stamp: 0,
        last: None,
        listed: None,
        list_due: None,
    };
    actor.presence_changed();
    if interrupted {
        actor.room.hold_for_reconnection(Instant::now(), RECONNECT_GRACE);
    }
    let mut stop = None;
    if actor.room.check_flag(Instant::now(), wall_ms()) {
        if let Err(SaveError::Conflict(_)) = actor.save(Vec::new()).await {
            stop = Some(Stop::Fenced);
        }
    }
    actor.publish();
    let clustered = actor.inner.bus.is_some();
    let mut renew = tokio::time::interval(LEASE / 3);
    renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut renewed = Instant::now();
    let mut expire = tokio::time::interval(Duration::from_secs(1));
    expire.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut release = true;
    // When an unwatched room leaves memory: counted from when the last client left, not from
    // the task's last wake (the ticks below would push it back for ever).
    let mut idle_at: Option<Instant> = None;
    while stop.is_none() {
        let deadline = actor.room.deadline();
        idle_at = if actor.total() == Presence::default() {
            idle_at.or_else(|| Some(Instant::now() + actor.inner.limits.idle_room))
        } else {
            None
        };
        // While a clock runs the task wakes at least every STALL_CHECK: a wake much later than
        // that means the process or its runtime stalled (SIGSTOP, a starved machine), and the
        // player to move is not charged for the server's stall.
        let watching = actor.room.clock_running();
        let due = Instant::now() + STALL_CHECK;
        let hold_ends = actor.room.hold_ends(Instant::now());
        let event = tokio::select! {
            msg = rx.recv() => Event::Message(msg),
            _ = sleep_until(deadline), if deadline.is_some() => Event::Deadline,
            _ = sleep_until(idle_at), if idle_at.is_some() => Event::Idle,
            _ = renew.tick(), if clustered => Event::Renew,
            _ = expire.tick(), if clustered => Event::Expire,
            _ = sleep_until(actor.list_due), if actor.list_due.is_some() => Event::Relist,
            _ = tokio::time::sleep_until(due), if watching => Event::Watch,
            _ = sleep_until(hold_ends), if hold_ends.is_some() => Event::HoldEnded,
        };
        if watching {
            let now = Instant::now();
            let late = now.saturating_duration_since(due);
            if late > STALL_SLACK {
                actor.room.credit_stall(late, now);
            }
        }
        match event {
            Event::Message(msg) => match msg {
                Some(msg) => {
                    let (response, outcome) = actor.handle(msg.request).await;
                    let _ = msg.reply.send(response);
                    stop = outcome;
                }
                None => break,
            },
            Event::Deadline => {
                if actor.room.check_flag(Instant::now(), wall_ms()) {
                    match actor.save(Vec::new()).await {
                        Ok(()) => actor.publish(),
                        Err(SaveError::Conflict(_)) => stop = Some(Stop::Fenced),
                        Err(SaveError::Store(_)) => {}
                    }
                }
            }
            Event::Idle => break,
            Event::Renew => {
                let bus = actor.inner.bus.clone().expect("clustered");
                match bus.renew(&actor.id).await {
                    Ok(true) => renewed = Instant::now(),
                    // Another instance holds the lease: it hosts the room now.
                    Ok(false) => {
                        release = false;
                        break;
                    }
                    // The broker is away: keep the room while the lease would still run.
                    Err(_) if renewed.elapsed() >= LEASE => {
                        release = false;
                        break;
                    }
                    Err(_) => {}
                }
            }
            Event::Expire => actor.expire_presence(),
            Event::Relist => {
                actor.list_due = None;
                actor.relist();
            }
            Event::Watch => {}
            // The clock runs again without its player: the watchers' clocks tick from now.
            Event::HoldEnded => actor.publish(),
        }
    }
    if stop.is_some() {
        release = false;
    }
    // A room hosted elsewhere now is listed by its new owner (the broker keeps that listing).
    listing::unlist(&actor.inner, &actor.id);
    let Actor { inner, id, .. } = actor;
    // Requests still queued are dropped unanswered: their senders look the owner up again.
    leave_memory(&inner, &id, &me, &mut rx);
    if release {
        if let Some(bus) = &inner.bus {
            let _ = bus.release(&id).await;
        }
    }
    inner.fanout.forget_if_unwatched(&id);
}

/// How often a room whose clock runs checks that it is not stalled.
const STALL_CHECK: Duration = Duration::from_millis(500);

/// How long a room taken over from an earlier host (a restart, another instance) holds the
/// clock of the side to move while that player connects again: a client retries within 10 s
/// of a cut (its backoff's cap, 8 s, and jitter), and gets the time back that the cut cost it.
pub(super) const RECONNECT_GRACE: Duration = Duration::from_secs(10);

/// How late a wake may be before the delay counts as the server's stall, not the player's
/// time (a busy but healthy runtime wakes within milliseconds).
const STALL_SLACK: Duration = Duration::from_millis(250);

/// What woke a room's task.
enum Event {
    Message(Option<Msg>),
    Deadline,
    Idle,
    Renew,
    Expire,
    Relist,
    Watch,
    HoldEnded,
}

async fn sleep_until(deadline: Option<Instant>) {
    if let Some(d) = deadline {
        tokio::time::sleep_until(d).await;
    }
}

impl Actor {
    fn total(&self) -> Presence {
        let mut total = Presence::default();
        for (p, _) in self.presence.values() {
            total.seats[0] += p.seats[0];
            total.seats[1] += p.seats[1];
            total.watchers += p.watchers;
        }
        total
    }

    fn frames(&mut self) -> StateFrames {
        if self.link.0 != self.room.version() {
            self.link = (self.room.version(), share_path(&self.room));
        }
        state_frames(&self.room, self.total(), &self.link.1, Instant::now())
    }

    fn next_stamp(&mut self) -> u64 {
        let micros = u64::try_from(wall_ms()).unwrap_or(0).saturating_mul(1000);
        self.last_stamp = micros.max(self.last_stamp + 1);
        self.last_stamp
    }

    fn wire_state(&mut self) -> WireState {
        let mut frames = self.frames();
        let stamp = self.next_stamp();
        // Unique across owners too: a takeover never reuses an id a socket has sent.
        frames.state_id = stamp;
        let state = WireState::new(self.id.clone(), &frames, stamp);
        self.last = Some(state.clone());
        state
    }

    fn publish(&mut self) {
        let state = self.wire_state();
        self.send_out(state);
        self.relist();
    }

    /// Tells the lobby's list what changed about this game: a new listing at most once per
    /// [`ANNOUNCE_EVERY`] (a later one is held back until then), the end of one at once.
    fn relist(&mut self) {
        let now = Instant::now();
        let game = LiveGame::of(&self.room, self.total(), &self.inner.instance, now, wall_ms());
        match (game, &self.listed) {
            (None, None) => self.list_due = None,
            (None, Some(_)) => {
                self.listed = None;
                self.list_due = None;
                listing::unlist(&self.inner, &self.id);
            }
            (Some(game), Some((before, _))) if !game.differs_from(before) => {}
            (Some(game), listed) => {
                let due = listed.as_ref().map_or(now, |(_, at)| *at + ANNOUNCE_EVERY);
                if due <= now {
                    self.listed = Some((game.clone(), now));
                    self.list_due = None;
                    listing::list(&self.inner, game);
                } else {
                    self.list_due = Some(due);
                }
            }
        }
    }

    /// Republishes the last state with the chat's new lines (same state id: sockets send the
    /// lines, not the state again).
    fn publish_chat(&mut self) {
        let Some(mut state) = self.last.clone() else { return self.publish() };
        state.stamp = (self.room.version(), self.next_stamp());
        state.chat = self.room.chat_lines().iter().map(|l| (**l).clone()).collect();
        self.last = Some(state.clone());
        self.send_out(state);
    }

    fn send_out(&mut self, state: WireState) {
        self.inner.fanout.publish(&state);
        if let Some(bus) = self.inner.bus.clone() {
            tokio::spawn(async move {
                let _ = bus.publish(&state).await;
            });
        }
    }

    /// Saves the room (and `also`, new rooms such as a rematch) all or nothing.
    async fn save(&mut self, also: Vec<RoomRecord>) -> Result<(), SaveError> {
        let mut saves: Vec<Save> = also.into_iter().map(|record| Save { record, follows: None, fence: 0 }).collect();
        saves.push(Save {
            record: self.room.to_record(Instant::now(), wall_ms()),
            follows: Some(self.saved),
            fence: self.fence,
        });
        self.inner.store.save(saves).await?;
        self.saved = self.room.version();
        Ok(())
    }

    fn presence_changed(&mut self) {
        let [red, black] = self.total().seats;
        self.room.set_presence([red > 0, black > 0], Instant::now());
    }

    /// Forgets other instances' counts that were not repeated in time.
    fn expire_presence(&mut self) {
        let me = &self.inner.instance;
        let before = self.presence.len();
        self.presence.retain(|instance, (_, heard)| instance == me || heard.elapsed() < PRESENCE_TTL);
        if self.presence.len() != before {
            self.presence_changed();
            self.publish();
        }
    }

    async fn handle(&mut self, request: Request) -> (Response, Option<Stop>) {
        match request {
            Request::Join { token, instance, .. } => {
                let seat = match token {
                    None => None,
                    Some(t) => match self.room.seat_of(&t) {
                        Some(seat) => Some(seat),
                        None => return (Response::Failed { error: Failure::BadSeat }, None),
                    },
                };
                let total = self.total();
                if total.seats[0] + total.seats[1] + total.watchers >= self.inner.limits.max_clients_per_room {
                    return (Response::Failed { error: Failure::Crowded }, None);
                }
                let entry = self.presence.entry(instance).or_insert((Presence::default(), Instant::now()));
                match seat {
                    Some(c) => entry.0.seats[c.index()] += 1,
                    None => entry.0.watchers += 1,
                }
                entry.1 = Instant::now();
                self.presence_changed();
                self.publish();
                (Response::Joined { seat, state: self.wire_state() }, None)
            }
            Request::Presence { instance, seats, watchers, .. } => {
                let counts = Presence { seats, watchers };
                let before = self.total();
                if counts == Presence::default() {
                    self.presence.remove(&instance);
                } else {
                    self.presence.insert(instance, (counts, Instant::now()));
                }
                if self.total() != before {
                    self.presence_changed();
                    self.publish();
                }
                (Response::Ok, None)
            }
            Request::Snapshot { .. } => (Response::State { state: self.wire_state() }, None),
            Request::Chat { seat, text, .. } => match self.room.chat(seat, &text, Instant::now(), wall_ms()) {
                Err(e) => (Response::Refused { error: e.to_string() }, None),
                Ok(_) => {
                    self.publish_chat();
                    (Response::Applied, None)
                }
            },
            Request::Name { seat, name, .. } => {
                let before = self.room.clone();
                match self.room.set_name(seat, &name, wall_ms()) {
                    Err(refusal) => (Response::Refused { error: refusal.to_string() }, None),
                    Ok(false) => (Response::Unchanged { frame: self.frames().frame(seat).to_string() }, None),
                    Ok(true) => match self.save(Vec::new()).await {
                        Ok(()) => {
                            self.publish();
                            (Response::Applied, None)
                        }
                        Err(SaveError::Conflict(_)) => {
                            self.room = before;
                            (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced))
                        }
                        Err(SaveError::Store(e)) => {
                            self.room = before;
                            (Response::Refused { error: format!("not saved, nothing changed ({e}); try again") }, None)
                        }
                    },
                }
            }
            Request::Pgn { .. } => (Response::Pgn { pgn: crate::pgn::room_pgn(&self.room) }, None),
            Request::Command { seat, command, .. } => self.command(seat, command.0).await,
        }
    }

    async fn command(&mut self, seat: Option<Color>, command: Command) -> (Response, Option<Stop>) {
        let (now, wall) = (Instant::now(), wall_ms());
        if self.room.check_flag(now, wall) {
            match self.save(Vec::new()).await {
                Ok(()) => self.publish(),
                Err(SaveError::Conflict(_)) => {
                    return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced))
                }
                Err(SaveError::Store(_)) => {}
            }
        }
        let before = self.room.clone();
        let is_move = matches!(command, Command::Move { .. });
        let also = match self.room.apply_at(seat, command, now, wall) {
            // A client ahead of this task's game saw a newer state: with several servers this
            // task is stale (another instance took the room over while this one still thought
            // it owned it). Hand the room over rather than refuse on old news; the request is
            // served by the new owner, or by this instance after a fresh claim.
            Err(Refusal::StalePly { expected, got }) if got > expected && self.inner.bus.is_some() => {
                return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced));
            }
            Err(refusal) => return (Response::Refused { error: refusal.to_string() }, None),
            Ok(Applied::Unchanged) => {
                let frame = self.frames().frame(seat).to_string();
                return (Response::Unchanged { frame }, None);
            }
            Ok(Applied::Changed) => None,
            Ok(Applied::Rematch(next)) => Some(*next),
        };
        let records = also.iter().map(|r| r.to_record(now, wall)).collect();
        match self.save(records).await {
            Ok(()) => {
                if is_move {
                    metrics::counter!("qi_moves_committed_total").increment(1);
                }
            }
            Err(SaveError::Conflict(_)) => {
                self.room = before;
                return (Response::Failed { error: Failure::NotOwner }, Some(Stop::Fenced));
            }
            Err(SaveError::Store(e)) => {
                self.room = before;
                return (Response::Refused { error: format!("not saved, nothing changed ({e}); try again") }, None);
            }
        }
        if let Some(next) = also {
            // Saved: if it cannot be hosted now it is loaded on first use.
            let ours = match &self.inner.bus {
                None => true,
                Some(bus) => bus.acquire(next.id()).await == Ok(Lease::Mine),
            };
            if ours {
                let _ = spawn_room(&self.inner, next.id().clone(), Start::Fresh(Box::new(next)));
            }
        }
        self.publish();
        (Response::Applied, None)
    }
}
