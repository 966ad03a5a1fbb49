//! The clock of one HTTP connection: how long it may take to send a request head, stay idle
//! between requests, and leave its answer unread.
//!
//! hyper has one timer, from "ready for a request" to "head complete", so it cannot tell a
//! kept-alive connection waiting for its next request from a client dribbling a head. Here the
//! socket reports the bytes it moves and the service reports where each request starts and its
//! answer ends; [`Deadlines::expired`] completes when the deadline of the current phase passes,
//! and the server then drops the connection:
//!
//! | phase | deadline |
//! |---|---|
//! | opened, no complete head yet | header timeout from the opening |
//! | between requests, nothing sent | idle timeout from the end of the last answer (its last byte written) |
//! | a later head has begun to arrive | header timeout from its first byte |
//! | a request is being served | none (the body timeout and the handlers' own limits apply) |
//! | upgraded (a WebSocket) | none (the WebSocket code has its own idle and send rules) |
//!
//! In every phase but the last, a write the client does not take (the socket's send buffer
//! stays full) for the write timeout ends the connection: the timer restarts with every byte
//! the client accepts, as nginx's `send_timeout` does.

use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

/// The time limits of one connection (from [`super::ServerLimits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// A request head must be complete this long after the connection opens, or after its
    /// first byte on a kept-alive connection.
    pub header: Duration,
    /// A kept-alive connection may wait this long for its next request.
    pub idle: Duration,
    /// A write may wait this long for the client to take a byte.
    pub write: Duration,
}

/// Which limit ended a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expired {
    /// No complete request head in time.
    Header,
    /// Kept alive with no next request in time.
    Idle,
    /// The client took none of the answer in time.
    Write,
}

/// The shared clock of one connection: the socket and the service report to it, the server
/// waits on [`Deadlines::expired`].
#[derive(Debug)]
pub struct Deadlines {
    timeouts: Timeouts,
    state: Mutex<State>,
    /// Woken when a deadline may have moved earlier (a new phase, a write that stalls).
    changed: Notify,
}

#[derive(Debug, Clone, Copy)]
struct State {
    phase: Phase,
    /// When the client last took a byte of an answer.
    last_write: Instant,
    /// Since when a write waits for the client, if one does.
    write_stalled: Option<Instant>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Opened at this instant; no request yet.
    Opened(Instant),
    /// The last answer ended at this instant; no byte of the next request yet.
    Idle(Instant),
    /// A head that must be complete by the header timeout after this instant.
    Head(Instant),
    Busy,
    Upgraded,
}

impl Deadlines {
    /// The clock of a connection opened now.
    pub fn new(timeouts: Timeouts) -> Deadlines {
        let now = Instant::now();
        let state = State { phase: Phase::Opened(now), last_write: now, write_stalled: None };
        Deadlines { timeouts, state: Mutex::new(state), changed: Notify::new() }
    }

    /// The client sent bytes: the start of a head if none was under way.
    pub fn read(&self) {
        self.update(|state| match state.phase {
            Phase::Opened(at) => state.set(Phase::Head(at)),
            Phase::Idle(_) => state.set(Phase::Head(Instant::now())),
            Phase::Head(_) | Phase::Busy | Phase::Upgraded => false,
        });
    }

    /// The client took `n` bytes of an answer (`n > 0`).
    pub fn wrote(&self) {
        // Only moves deadlines later: nothing to wake.
        if let Ok(mut state) = self.state.lock() {
            state.last_write = Instant::now();
            state.write_stalled = None;
        }
    }

    /// A write found the socket's send buffer full.
    pub fn write_blocked(&self) {
        self.update(|state| {
            let first = state.write_stalled.is_none();
            state.write_stalled.get_or_insert_with(Instant::now);
            first
        });
    }

    /// A request head is complete and its request is being served.
    pub fn request_started(&self) {
        self.update(|state| state.set(Phase::Busy));
    }

    /// The answer's last byte has been handed to the socket.
    pub fn answer_finished(&self) {
        self.update(|state| state.phase == Phase::Busy && state.set(Phase::Idle(Instant::now())));
    }

    /// Whether a request is being served (its head complete, its answer not yet written).
    pub fn serving(&self) -> bool {
        self.state.lock().is_ok_and(|state| state.phase == Phase::Busy)
    }

    /// The connection was upgraded: the HTTP timeouts no longer apply.
    pub fn upgraded(&self) {
        self.update(|state| state.set(Phase::Upgraded));
    }

    /// Completes when the current deadline passes, with the limit that ran out.
    pub async fn expired(&self) -> Expired {
        loop {
            // Made before reading the state, so a change after the read wakes this one.
            let changed = self.changed.notified();
            let next = self.state.lock().ok().and_then(|state| state.deadline(&self.timeouts));
            match next {
                Some((at, why)) if at <= Instant::now() => return why,
                Some((at, _)) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }

    /// Applies `change`; when it says a deadline may have moved earlier, wakes the waiter.
    fn update(&self, change: impl FnOnce(&mut State) -> bool) {
        let moved = self.state.lock().is_ok_and(|mut state| change(&mut state));
        if moved {
            self.changed.notify_one();
        }
    }
}

impl State {
    /// Enters `phase`; true (its deadline may be earlier).
    fn set(&mut self, phase: Phase) -> bool {
        self.phase = phase;
        true
    }

    /// The earliest deadline that applies now, and the limit it belongs to.
    fn deadline(&self, timeouts: &Timeouts) -> Option<(Instant, Expired)> {
        let write = self.write_stalled.map(|since| (since + timeouts.write, Expired::Write));
        let read = match self.phase {
            Phase::Opened(at) | Phase::Head(at) => Some((at + timeouts.header, Expired::Header)),
            // Idle once the answer has left: while a write waits, only the write timeout runs.
            Phase::Idle(at) if self.write_stalled.is_none() => {
                Some((at.max(self.last_write) + timeouts.idle, Expired::Idle))
            }
            Phase::Idle(_) | Phase::Busy => None,
            Phase::Upgraded => return None,
        };
        match (read, write) {
            (Some(r), Some(w)) => Some(if w.0 < r.0 { w } else { r }),
            (r, w) => r.or(w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUTS: Timeouts =
        Timeouts { header: Duration::from_secs(10), idle: Duration::from_secs(5), write: Duration::from_secs(30) };

    /// How long after now the connection expires, and why (with the clock paused).
    async fn expires_in(deadlines: &Deadlines) -> (Duration, Expired) {
        let started = Instant::now();
        let why = deadlines.expired().await;
        (started.elapsed(), why)
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_connection_has_the_header_timeout_from_its_opening() {
        let deadlines = Deadlines::new(TIMEOUTS);
        tokio::time::advance(Duration::from_secs(4)).await;
        deadlines.read();
        assert_eq!(expires_in(&deadlines).await, (Duration::from_secs(6), Expired::Header));
    }

    #[tokio::test(start_paused = true)]
    async fn between_requests_the_idle_timeout_runs_then_the_header_timeout_from_the_first_byte() {
        let deadlines = Deadlines::new(TIMEOUTS);
        deadlines.read();
        deadlines.request_started();
        deadlines.wrote();
        deadlines.answer_finished();
        assert_eq!(expires_in(&deadlines).await, (Duration::from_secs(5), Expired::Idle));

        let deadlines = Deadlines::new(TIMEOUTS);
        deadlines.request_started();
        deadlines.answer_finished();
        tokio::time::advance(Duration::from_secs(4)).await;
        deadlines.read();
        assert_eq!(expires_in(&deadlines).await, (Duration::from_secs(10), Expired::Header));
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_being_served_has_no_deadline_until_its_answer_stalls() {
        let deadlines = std::sync::Arc::new(Deadlines::new(TIMEOUTS));
        deadlines.request_started();
        let watching = tokio::spawn({
            let deadlines = deadlines.clone();
            async move { expires_in(&deadlines).await }
        });
        tokio::time::sleep(Duration::from_secs(100)).await;
        assert!(!watching.is_finished(), "a slow handler is not cut");
        // The answer stalls; the client takes a byte after 20 s, then nothing more.
        deadlines.write_blocked();
        tokio::time::sleep(Duration::from_secs(20)).await;
        deadlines.wrote();
        deadlines.write_blocked();
        assert_eq!(watching.await.unwrap(), (Duration::from_secs(150), Expired::Write));
    }

    #[tokio::test(start_paused = true)]
    async fn the_idle_timeout_waits_for_the_answer_to_leave_and_an_upgrade_ends_the_clock() {
        let deadlines = Deadlines::new(TIMEOUTS);
        deadlines.request_started();
        deadlines.write_blocked();
        deadlines.answer_finished();
        assert_eq!(expires_in(&deadlines).await, (Duration::from_secs(30), Expired::Write));

        let deadlines = std::sync::Arc::new(Deadlines::new(TIMEOUTS));
        deadlines.request_started();
        deadlines.upgraded();
        deadlines.answer_finished();
        let watching = tokio::spawn({
            let deadlines = deadlines.clone();
            async move { deadlines.expired().await }
        });
        tokio::time::sleep(Duration::from_secs(3600)).await;
        assert!(!watching.is_finished(), "an upgraded connection has no HTTP deadline");
        watching.abort();
    }
}
