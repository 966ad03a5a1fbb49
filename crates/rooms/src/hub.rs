//! The hub: every room in memory, each run by a task of its own (the only code that changes it),
//! loaded from the store on first use and let go when nobody has been connected for a while.

use crate::command::Command;
use crate::fanout::Fanout;
use crate::id::RoomId;
use crate::record::wall_ms;
use crate::room::{Applied, Room, RoomSpec};
use crate::store::{StoreError, StoreHandle};
use crate::view::{share_path, state_frames, Presence, StateFrames};
use core::fmt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use xiangqi::Color;

/// What one server holds at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rooms in memory at once (new rooms are refused beyond it).
    pub max_rooms: usize,
    /// Sockets per room, players and spectators together.
    pub max_clients_per_room: u32,
    /// A room with nobody connected leaves memory after this long (it stays in the store).
    pub idle_room: Duration,
    /// With a clock, how long a side may take over its first move once both players are
    /// connected; after it the game is aborted (no result).
    pub first_move: Duration,
    /// The same while a player is missing.
    pub first_move_alone: Duration,
    /// How long the player who stayed waits, once the opponent's seat is empty, before
    /// claiming the game.
    pub claim_after: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: 20_000,
            max_clients_per_room: 64,
            idle_room: Duration::from_secs(60),
            first_move: crate::room::FIRST_MOVE_WAIT,
            first_move_alone: crate::room::FIRST_MOVE_WAIT_ALONE,
            claim_after: crate::room::CLAIM_AFTER,
        }
    }
}

/// Why the hub could not serve a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// No such room (never made, or pruned).
    NotFound,
    /// The server holds as many rooms as it may.
    Full,
    /// The seat token is not one of this room's.
    BadSeat,
    /// The room has as many connections as it may.
    Crowded,
    /// The store failed.
    Store(StoreError),
    /// The room stopped answering (a bug); the client should reconnect.
    Gone,
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::NotFound => f.write_str("no such room"),
            HubError::Full => f.write_str("the server has no room for more games; try again later"),
            HubError::BadSeat => f.write_str("that seat token is not one of this room's"),
            HubError::Crowded => f.write_str("the room has as many visitors as it can take"),
            HubError::Store(e) => write!(f, "{e}"),
            HubError::Gone => f.write_str("the room is restarting; reconnect"),
        }
    }
}

impl std::error::Error for HubError {}

/// The room's answer to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Refused; the text says why (send it as an `error` message). Nothing changed.
    Refused(String),
    /// Nothing changed (a resend): the sender's `state` frame.
    State(String),
    /// Applied and saved; the new state is on its way to every subscriber.
    Applied,
}

/// A new room's id and seat tokens.
#[derive(Clone, Debug)]
pub struct Created {
    /// The room.
    pub id: RoomId,
    /// The seat tokens, red first.
    pub seats: [String; 2],
}

type Answer<T> = oneshot::Sender<Result<T, HubError>>;

enum Msg {
    Join { token: Option<String>, reply: Answer<(Option<Color>, watch::Receiver<Arc<StateFrames>>)> },
    Leave { seat: Option<Color> },
    Command { seat: Option<Color>, command: Command, reply: Answer<Reply> },
    Snapshot { reply: Answer<Arc<StateFrames>> },
    Pgn { reply: Answer<String> },
    Chat { seat: Option<Color>, text: String, reply: Answer<Reply> },
    Name { seat: Option<Color>, name: String, reply: Answer<Reply> },
}

impl Msg {
    fn fail(self, error: HubError) {
        match self {
            Msg::Join { reply, .. } => drop(reply.send(Err(error))),
            Msg::Command { reply, .. } | Msg::Chat { reply, .. } | Msg::Name { reply, .. } => {
                drop(reply.send(Err(error)))
            }
            Msg::Snapshot { reply } => drop(reply.send(Err(error))),
            Msg::Pgn { reply } => drop(reply.send(Err(error))),
            Msg::Leave { .. } => {}
        }
    }
}

struct Inner {
    rooms: Mutex<HashMap<RoomId, mpsc::UnboundedSender<Msg>>>,
    store: StoreHandle,
    fanout: Arc<dyn Fanout>,
    limits: Limits,
}

/// All rooms of one server. Cheap to clone.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

impl Hub {
    /// A hub over `store`, publishing through `fanout`. Needs a tokio runtime.
    pub fn new(store: StoreHandle, fanout: Arc<dyn Fanout>, limits: Limits) -> Hub {
        Hub { inner: Arc::new(Inner { rooms: Mutex::new(HashMap::new()), store, fanout, limits }) }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// How many rooms are in memory now.
    pub fn rooms_in_memory(&self) -> usize {
        self.inner.rooms.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Makes a room from `spec` and saves it; returns its id and tokens once it is durable.
    ///
    /// # Errors
    /// [`HubError::Full`] when the server holds its limit of rooms, or a store failure.
    pub async fn create(&self, spec: RoomSpec) -> Result<Created, HubError> {
        if self.rooms_in_memory() >= self.inner.limits.max_rooms {
            return Err(HubError::Full);
        }
        let room = Room::new(spec, wall_ms(), Instant::now());
        self.inner.store.save(vec![room.to_record(Instant::now(), wall_ms())]).await.map_err(HubError::Store)?;
        let created = Created {
            id: room.id().clone(),
            seats: [room.token(Color::Red).as_str().to_string(), room.token(Color::Black).as_str().to_string()],
        };
        // Saved, so a failure to host it now only means it is loaded on first use.
        let _ = spawn_room(&self.inner, room.id().clone(), Some(room));
        Ok(created)
    }

    /// The room's state as `GET /api/rooms/{room}` shows it.
    ///
    /// # Errors
    /// [`HubError::NotFound`], [`HubError::Full`] (it would have to be loaded), a store failure.
    pub async fn snapshot(&self, id: &RoomId) -> Result<Arc<StateFrames>, HubError> {
        self.request(id, |reply| Msg::Snapshot { reply }).await
    }

    /// The room's game as PGN (see [`crate::room_pgn`]).
    ///
    /// # Errors
    /// As [`Hub::snapshot`].
    pub async fn pgn(&self, id: &RoomId) -> Result<String, HubError> {
        self.request(id, |reply| Msg::Pgn { reply }).await
    }

    /// Connects to room `id`, seated by `token` or as a spectator without one.
    ///
    /// # Errors
    /// [`HubError::BadSeat`] for a token that is not the room's, [`HubError::Crowded`],
    /// [`HubError::NotFound`], [`HubError::Full`], a store failure.
    pub async fn join(&self, id: &RoomId, token: Option<&str>) -> Result<Joined, HubError> {
        let token = token.map(str::to_string);
        let (room, (seat, updates)) = self.request_via(id, |reply| Msg::Join { token: token.clone(), reply }).await?;
        Ok(Joined { seat, updates, room })
    }

    async fn request<T>(&self, id: &RoomId, make: impl Fn(Answer<T>) -> Msg) -> Result<T, HubError> {
        self.request_via(id, make).await.map(|(_, answer)| answer)
    }

    /// Sends the message `make` builds to room `id`'s task and waits for the answer; returns
    /// the task's channel too. A room leaving memory drops the requests it had not started;
    /// they go to its next task.
    async fn request_via<T>(
        &self,
        id: &RoomId,
        make: impl Fn(Answer<T>) -> Msg,
    ) -> Result<(mpsc::UnboundedSender<Msg>, T), HubError> {
        for _ in 0..3 {
            let tx = self.handle(id)?;
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).is_err() {
                continue;
            }
            if let Ok(result) = answer.await {
                return result.map(|answer| (tx, answer));
            }
        }
        Err(HubError::Gone)
    }

    fn handle(&self, id: &RoomId) -> Result<mpsc::UnboundedSender<Msg>, HubError> {
        spawn_room(&self.inner, id.clone(), None)
    }
}

/// The task of room `id`: the running one, or a new one (that loads the room unless `fresh`).
fn spawn_room(inner: &Arc<Inner>, id: RoomId, fresh: Option<Room>) -> Result<mpsc::UnboundedSender<Msg>, HubError> {
    let mut rooms = inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
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
    tokio::spawn(run_room(Arc::clone(inner), id, fresh, tx.clone(), rx));
    Ok(tx)
}

/// A connection to a room: the seat it holds, its state updates, and the way to send commands.
/// Dropping it leaves the room (the opponent sees the player go offline).
pub struct Joined {
    /// The seat (`None`: a spectator).
    pub seat: Option<Color>,
    /// The room's latest state; the current one is there from the start.
    pub updates: watch::Receiver<Arc<StateFrames>>,
    room: mpsc::UnboundedSender<Msg>,
}

impl Joined {
    /// Sends `command` from this seat and waits for the room's verdict. An applied command is
    /// saved before this returns.
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room task is gone; reconnect.
    pub async fn send(&self, command: Command) -> Result<Reply, HubError> {
        let (reply, answer) = oneshot::channel();
        self.room.send(Msg::Command { seat: self.seat, command, reply }).map_err(|_| HubError::Gone)?;
        answer.await.map_err(|_| HubError::Gone)?
    }

    /// Says `text` in the room's chat from this seat; the line reaches everyone through the
    /// updates ([`StateFrames::chat`]).
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room task is gone; reconnect.
    pub async fn chat(&self, text: String) -> Result<Reply, HubError> {
        let (reply, answer) = oneshot::channel();
        self.room.send(Msg::Chat { seat: self.seat, text, reply }).map_err(|_| HubError::Gone)?;
        answer.await.map_err(|_| HubError::Gone)?
    }

    /// Names this seat's player (saved before this returns, like a move).
    ///
    /// # Errors
    /// [`HubError::Gone`] when the room task is gone; reconnect.
    pub async fn name(&self, name: String) -> Result<Reply, HubError> {
        let (reply, answer) = oneshot::channel();
        self.room.send(Msg::Name { seat: self.seat, name, reply }).map_err(|_| HubError::Gone)?;
        answer.await.map_err(|_| HubError::Gone)?
    }

    /// The current state frame for this seat.
    pub fn current(&self) -> String {
        self.updates.borrow().frame(self.seat).to_string()
    }
}

impl Drop for Joined {
    fn drop(&mut self) {
        let _ = self.room.send(Msg::Leave { seat: self.seat });
    }
}

struct Actor {
    id: RoomId,
    room: Room,
    presence: Presence,
    inner: Arc<Inner>,
    /// The share link and the version it was made for (encoding it costs more than the rest).
    link: (u64, String),
}

async fn run_room(
    inner: Arc<Inner>,
    id: RoomId,
    fresh: Option<Room>,
    me: mpsc::UnboundedSender<Msg>,
    mut rx: mpsc::UnboundedReceiver<Msg>,
) {
    let room = match fresh {
        Some(room) => Ok(room),
        None => match inner.store.load(id.clone()).await {
            Ok(Some(record)) => {
                Room::from_record(record, Instant::now(), wall_ms()).map_err(|e| HubError::Store(StoreError(e)))
            }
            Ok(None) => Err(HubError::NotFound),
            Err(e) => Err(HubError::Store(e)),
        },
    };
    let room = match room {
        Ok(mut room) => {
            room.set_first_move_waits(inner.limits.first_move, inner.limits.first_move_alone);
            room.set_claim_after(inner.limits.claim_after);
            room
        }
        Err(error) => {
            leave_memory(&inner, &id, &me, &mut rx).await;
            while let Ok(msg) = rx.try_recv() {
                msg.fail(error.clone());
            }
            return;
        }
    };
    let link = (room.version(), share_path(&room));
    let mut actor = Actor { id, room, presence: Presence::default(), inner, link };
    if actor.room.check_flag(Instant::now(), wall_ms()) {
        let _ = actor.save(Vec::new()).await;
    }
    actor.publish();
    loop {
        let deadline = actor.room.deadline();
        let idle = actor.presence.seats == [0, 0] && actor.presence.watchers == 0;
        tokio::select! {
            msg = rx.recv() => match msg {
                Some(msg) => actor.handle(msg).await,
                None => break,
            },
            _ = sleep_until(deadline), if deadline.is_some() => {
                if actor.room.check_flag(Instant::now(), wall_ms()) && actor.save(Vec::new()).await.is_ok() {
                    actor.publish();
                }
            }
            _ = tokio::time::sleep(actor.inner.limits.idle_room), if idle => break,
        }
    }
    let Actor { inner, id, .. } = actor;
    leave_memory(&inner, &id, &me, &mut rx).await;
    inner.fanout.close(&id);
}

async fn sleep_until(deadline: Option<Instant>) {
    if let Some(d) = deadline {
        tokio::time::sleep_until(d).await;
    }
}

/// Takes the room out of the hub and drops the requests still queued, unanswered: their
/// senders retry with a fresh task, which loads the room as last saved.
async fn leave_memory(
    inner: &Inner,
    id: &RoomId,
    me: &mpsc::UnboundedSender<Msg>,
    rx: &mut mpsc::UnboundedReceiver<Msg>,
) {
    {
        let mut rooms = inner.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if rooms.get(id).is_some_and(|tx| tx.same_channel(me)) {
            rooms.remove(id);
        }
    }
    rx.close();
}

impl Actor {
    fn frames(&mut self) -> Arc<StateFrames> {
        if self.link.0 != self.room.version() {
            self.link = (self.room.version(), share_path(&self.room));
        }
        Arc::new(state_frames(&self.room, self.presence, &self.link.1, Instant::now()))
    }

    fn publish(&mut self) {
        let frames = self.frames();
        self.inner.fanout.publish(&self.id, frames);
    }

    /// Saves the room (and `also`, e.g. a rematch room) in one transaction.
    async fn save(&self, also: Vec<crate::record::RoomRecord>) -> Result<(), StoreError> {
        let mut records = also;
        records.push(self.room.to_record(Instant::now(), wall_ms()));
        self.inner.store.save(records).await
    }

    fn presence_changed(&mut self) {
        let [red, black] = self.presence.seats;
        self.room.set_presence([red > 0, black > 0], Instant::now());
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Join { token, reply } => {
                let seat = match token {
                    None => None,
                    Some(t) => match self.room.seat_of(&t) {
                        Some(seat) => Some(seat),
                        None => return drop(reply.send(Err(HubError::BadSeat))),
                    },
                };
                let members = self.presence.seats[0] + self.presence.seats[1] + self.presence.watchers;
                if members >= self.inner.limits.max_clients_per_room {
                    return drop(reply.send(Err(HubError::Crowded)));
                }
                match seat {
                    Some(c) => self.presence.seats[c.index()] += 1,
                    None => self.presence.watchers += 1,
                }
                self.presence_changed();
                self.publish();
                match self.inner.fanout.subscribe(&self.id) {
                    Some(updates) => drop(reply.send(Ok((seat, updates)))),
                    None => drop(reply.send(Err(HubError::Gone))),
                }
            }
            Msg::Leave { seat } => {
                let slot = match seat {
                    Some(c) => &mut self.presence.seats[c.index()],
                    None => &mut self.presence.watchers,
                };
                *slot = slot.saturating_sub(1);
                self.presence_changed();
                self.publish();
            }
            Msg::Snapshot { reply } => {
                let frames = self.frames();
                let _ = reply.send(Ok(frames));
            }
            Msg::Pgn { reply } => {
                let _ = reply.send(Ok(crate::pgn::room_pgn(&self.room)));
            }
            Msg::Command { seat, command, reply } => {
                let answer = self.command(seat, command).await;
                let _ = reply.send(Ok(answer));
            }
            Msg::Chat { seat, text, reply } => {
                let answer = match self.room.chat(seat, &text, Instant::now(), wall_ms()) {
                    Err(e) => Reply::Refused(e.to_string()),
                    Ok(_) => {
                        crate::chat::publish(&*self.inner.fanout, &self.id, self.room.chat_lines());
                        Reply::Applied
                    }
                };
                let _ = reply.send(Ok(answer));
            }
            Msg::Name { seat, name, reply } => {
                let before = self.room.clone();
                let answer = match self.room.set_name(seat, &name, wall_ms()) {
                    Err(refusal) => Reply::Refused(refusal.to_string()),
                    Ok(false) => Reply::State(self.frames().frame(seat).to_string()),
                    Ok(true) => match self.save(Vec::new()).await {
                        Ok(()) => {
                            self.publish();
                            Reply::Applied
                        }
                        Err(e) => {
                            self.room = before;
                            Reply::Refused(format!("not saved, nothing changed ({e}); try again"))
                        }
                    },
                };
                let _ = reply.send(Ok(answer));
            }
        }
    }

    async fn command(&mut self, seat: Option<Color>, command: Command) -> Reply {
        let (now, wall) = (Instant::now(), wall_ms());
        if self.room.check_flag(now, wall) && self.save(Vec::new()).await.is_ok() {
            self.publish();
        }
        let before = self.room.clone();
        let also = match self.room.apply_at(seat, command, now, wall) {
            Err(refusal) => return Reply::Refused(refusal.to_string()),
            Ok(Applied::Unchanged) => return Reply::State(self.frames().frame(seat).to_string()),
            Ok(Applied::Changed) => None,
            Ok(Applied::Rematch(next)) => Some(*next),
        };
        let records = also.iter().map(|r| r.to_record(now, wall)).collect();
        if let Err(e) = self.save(records).await {
            self.room = before;
            return Reply::Refused(format!("not saved, nothing changed ({e}); try again"));
        }
        if let Some(next) = also {
            // Saved: if it cannot be hosted now it is loaded on first use.
            let _ = spawn_room(&self.inner, next.id().clone(), Some(next));
        }
        self.publish();
        Reply::Applied
    }
}
