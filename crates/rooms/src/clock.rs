//! Server clocks: Fischer time (a budget plus an increment per move) on monotonic time.
//!
//! The clock belongs to the room, never to a client: a client is told the remaining times and
//! which side runs, and counts down for display only. The side to move's clock starts running
//! after the first move of the game (so the room may wait for the second player to arrive).

use tokio::time::Instant;
use xiangqi::Color;

/// Longest budget a room accepts (3 hours) and largest increment (3 minutes).
pub const MAX_INITIAL_MS: u64 = 3 * 3600 * 1000;
/// See [`MAX_INITIAL_MS`].
pub const MAX_INCREMENT_MS: u64 = 180 * 1000;

/// The time control: each side's budget and what a move adds to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    /// Each side's budget at the start, in milliseconds (1 s to [`MAX_INITIAL_MS`]).
    pub initial_ms: u64,
    /// Added to the mover's clock after each move, in milliseconds (at most [`MAX_INCREMENT_MS`]).
    pub increment_ms: u64,
}

impl ClockSettings {
    /// Settings from whole seconds, as the API takes them.
    ///
    /// # Errors
    /// A message when the budget is not 1 s to 3 h or the increment is above 3 min.
    pub fn from_seconds(initial_s: u64, increment_s: u64) -> Result<ClockSettings, String> {
        let initial_ms = initial_s.saturating_mul(1000);
        let increment_ms = increment_s.saturating_mul(1000);
        if initial_ms == 0 || initial_ms > MAX_INITIAL_MS {
            return Err(format!("clock initial_s must be 1 to {}", MAX_INITIAL_MS / 1000));
        }
        if increment_ms > MAX_INCREMENT_MS {
            return Err(format!("clock increment_s must be 0 to {}", MAX_INCREMENT_MS / 1000));
        }
        Ok(ClockSettings { initial_ms, increment_ms })
    }
}

/// Both sides' remaining time, and which one is running since when.
#[derive(Clone, Debug)]
pub struct Clock {
    settings: ClockSettings,
    /// Remaining milliseconds, indexed by [`Color::index`], as of the running side's start.
    remaining: [u64; 2],
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// A fresh clock: both budgets full, nothing running.
    pub fn new(settings: ClockSettings) -> Clock {
        Clock { settings, remaining: [settings.initial_ms; 2], running: None }
    }

    /// A clock as saved: the remaining times, and the running side with how long it has run.
    pub fn restore(settings: ClockSettings, remaining: [u64; 2], running: Option<(Color, u64)>, now: Instant) -> Clock {
        let running = running.map(|(color, elapsed_ms)| {
            let since = now.checked_sub(std::time::Duration::from_millis(elapsed_ms)).unwrap_or(now);
            (color, since)
        });
        Clock { settings, remaining, running }
    }

    /// The time control.
    pub fn settings(&self) -> ClockSettings {
        self.settings
    }

    /// The side whose time is running, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// `color`'s remaining milliseconds at `now` (0 once its flag has fallen).
    pub fn remaining(&self, color: Color, now: Instant) -> u64 {
        let base = self.remaining[color.index()];
        match self.running {
            Some((c, since)) if c == color => base.saturating_sub(elapsed_ms(since, now)),
            _ => base,
        }
    }

    /// Both remaining times at `now`, red first.
    pub fn remaining_both(&self, now: Instant) -> [u64; 2] {
        [self.remaining(Color::Red, now), self.remaining(Color::Black, now)]
    }

    /// How long the running side has run at `now`, in milliseconds.
    pub fn running_for(&self, now: Instant) -> Option<(Color, u64)> {
        self.running.map(|(c, since)| (c, elapsed_ms(since, now)))
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<Instant> {
        self.running.map(|(c, since)| since + std::time::Duration::from_millis(self.remaining[c.index()]))
    }

    /// The side whose time has run out at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running().filter(|&c| self.remaining(c, now) == 0)
    }

    /// `mover` completed a move at `now`: its time is charged and the increment added, then
    /// `next` (the side to move) starts running. Call only when `mover` has not flagged.
    pub fn on_move(&mut self, mover: Color, next: Color, now: Instant) {
        self.stop(now);
        let slot = &mut self.remaining[mover.index()];
        *slot = slot.saturating_add(self.settings.increment_ms);
        self.running = Some((next, now));
    }

    /// Charges the running side up to `now` and stops the clock (the game ended).
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, since)) = self.running.take() {
            let slot = &mut self.remaining[c.index()];
            *slot = slot.saturating_sub(elapsed_ms(since, now));
        }
    }

    /// The server stalled for `stall` (its process was stopped, or its runtime starved): the
    /// running side is not charged for it. The running side's start moves later by `stall`,
    /// never past `now`.
    pub fn credit(&mut self, stall: std::time::Duration, now: Instant) {
        if let Some((_, since)) = &mut self.running {
            // A held clock (its start still ahead) is charged nothing yet: it stays held.
            *since = (*since + stall).min(now.max(*since));
        }
    }

    /// Charges the running side up to `now`, then holds its time until `until`: it is charged
    /// nothing before then (see [`Clock::release`]). Used after a restart or a takeover, while
    /// the player to move has no connection back yet.
    pub fn hold_until(&mut self, now: Instant, until: Instant) {
        if let Some((side, _)) = self.running {
            self.stop(now);
            self.running = Some((side, until.max(now)));
        }
    }

    /// Ends a hold at `now`: the running side is charged from `now` on. Nothing changes for a
    /// clock that is not held.
    pub fn release(&mut self, now: Instant) {
        if let Some((_, since)) = &mut self.running {
            *since = (*since).min(now);
        }
    }

    /// When the hold on the running side's time ends, if it is held at `now`.
    pub fn held_until(&self, now: Instant) -> Option<Instant> {
        self.running.and_then(|(_, since)| (since > now).then_some(since))
    }

    /// The side whose time goes down at `now`: the running side, unless it is held.
    pub fn ticking(&self, now: Instant) -> Option<Color> {
        self.running.filter(|&(_, since)| since <= now).map(|(c, _)| c)
    }

    /// Charges the running side up to `now` and runs `side` from now on (after a takeback).
    pub fn switch_to(&mut self, side: Color, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }
}

fn elapsed_ms(since: Instant, now: Instant) -> u64 {
    u64::try_from(now.saturating_duration_since(since).as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ClockSettings { initial_ms: 60_000, increment_ms: 2_000 });
        assert_eq!(clock.running(), None);
        clock.on_move(Color::Red, Color::Black, t0);
        assert_eq!(clock.remaining_both(t0), [62_000, 60_000]);
        let t1 = t0 + Duration::from_millis(5_500);
        assert_eq!(clock.remaining(Color::Black, t1), 54_500);
        clock.on_move(Color::Black, Color::Red, t1);
        assert_eq!(clock.remaining_both(t1), [62_000, 56_500]);
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_millis(62_000)));
    }

    #[test]
    fn a_flag_falls_at_the_deadline_and_not_before() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ClockSettings { initial_ms: 1_000, increment_ms: 0 });
        clock.on_move(Color::Red, Color::Black, t0);
        assert_eq!(clock.flagged(t0 + Duration::from_millis(999)), None);
        assert_eq!(clock.flagged(t0 + Duration::from_millis(1_000)), Some(Color::Black));
        clock.stop(t0 + Duration::from_millis(5_000));
        assert_eq!(clock.remaining_both(t0 + Duration::from_secs(9)), [1_000, 0]);
    }

    #[test]
    fn a_restored_clock_keeps_the_elapsed_time() {
        let now = Instant::now();
        let settings = ClockSettings { initial_ms: 10_000, increment_ms: 0 };
        let clock = Clock::restore(settings, [7_000, 9_000], Some((Color::Black, 4_000)), now);
        assert_eq!(clock.remaining_both(now), [7_000, 5_000]);
    }

    #[test]
    fn settings_are_bounded() {
        assert!(ClockSettings::from_seconds(0, 0).is_err());
        assert!(ClockSettings::from_seconds(10_801, 0).is_err());
        assert!(ClockSettings::from_seconds(600, 181).is_err());
        assert_eq!(ClockSettings::from_seconds(600, 5), Ok(ClockSettings { initial_ms: 600_000, increment_ms: 5_000 }));
    }

    #[test]
    fn a_held_clock_keeps_what_was_charged_and_charges_nothing_until_released() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ClockSettings { initial_ms: 10_000, increment_ms: 0 });
        clock.on_move(Color::Red, Color::Black, t0);
        let t1 = t0 + Duration::from_millis(3_000);
        clock.hold_until(t1, t1 + Duration::from_secs(10));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.ticking(t1), None);
        assert_eq!(clock.held_until(t1), Some(t1 + Duration::from_secs(10)));
        // The flag cannot fall during the hold: the deadline is the hold's end plus what is left.
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_millis(17_000)));
        // A stall credited during the hold leaves it as it is.
        let t2 = t1 + Duration::from_millis(4_000);
        clock.credit(Duration::from_secs(2), t2);
        assert_eq!(clock.held_until(t2), Some(t1 + Duration::from_secs(10)));
        assert_eq!(clock.remaining_both(t2), [10_000, 7_000]);
        // Released: charged from then on.
        clock.release(t2);
        assert_eq!(clock.ticking(t2), Some(Color::Black));
        assert_eq!(clock.held_until(t2), None);
        assert_eq!(clock.remaining(Color::Black, t2 + Duration::from_millis(1_500)), 5_500);
        // Releasing a clock that runs changes nothing.
        clock.release(t2 + Duration::from_secs(1));
        assert_eq!(clock.remaining(Color::Black, t2 + Duration::from_millis(1_500)), 5_500);
        // A hold that is not released ends by itself.
        let mut unreleased = Clock::new(ClockSettings { initial_ms: 10_000, increment_ms: 0 });
        unreleased.on_move(Color::Red, Color::Black, t0);
        unreleased.hold_until(t0, t0 + Duration::from_secs(5));
        assert_eq!(unreleased.remaining(Color::Black, t0 + Duration::from_secs(7)), 8_000);
        assert_eq!(unreleased.ticking(t0 + Duration::from_secs(5)), Some(Color::Black));
        // A stopped clock is not held.
        let mut stopped = Clock::new(ClockSettings { initial_ms: 10_000, increment_ms: 0 });
        stopped.hold_until(t0, t0 + Duration::from_secs(5));
        assert_eq!(stopped.held_until(t0), None);
    }

    #[test]
    fn a_stall_credited_is_not_charged_and_never_runs_the_clock_backwards() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ClockSettings { initial_ms: 10_000, increment_ms: 0 });
        clock.on_move(Color::Red, Color::Black, t0);
        let t1 = t0 + Duration::from_millis(6_000);
        clock.credit(Duration::from_millis(5_000), t1);
        assert_eq!(clock.remaining_both(t1), [10_000, 9_000]);
        // More than has run: the running side is charged nothing, not paid.
        clock.credit(Duration::from_secs(60), t1);
        assert_eq!(clock.remaining_both(t1), [10_000, 10_000]);
        let mut stopped = Clock::new(ClockSettings { initial_ms: 10_000, increment_ms: 0 });
        stopped.credit(Duration::from_secs(1), t1);
        assert_eq!(stopped.remaining_both(t1), [10_000, 10_000]);
    }
}
