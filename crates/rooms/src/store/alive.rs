//! An owner's signs of life ([`super::RoomStore::mark_alive`]) and what a takeover makes of
//! them: the running side is not charged for the time its room had no owner, and the clock
//! shown after the takeover is never above one shown before it.

use std::time::Duration;

/// How often a server tells its store that it is alive.
pub const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// How long after its last sign of life an owner may still have shown a running clock: until
/// its next one, due [`ALIVE_EVERY`] later, with slack for a commit that holds the store's
/// thread. An owner whose lease vanished while it ran (a Redis restart) is taken over within
/// that time, and its clock had been shown until the takeover.
pub const SHOWN_AFTER_ALIVE: Duration = Duration::from_millis(1_250);

/// A running clock's reference time (`at_ms`, wall milliseconds) when a room is taken over at
/// `wall_ms` from an owner last alive at `alive_ms`: the clock ran until the owner could last
/// have shown it ([`SHOWN_AFTER_ALIVE`] past its last sign of life), not after. Moving the
/// reference time forward by less would charge the time without an owner; by more would show
/// a clock above the one shown before.
pub fn taken_over_at(at_ms: i64, alive_ms: i64, wall_ms: i64) -> i64 {
    let shown_until = alive_ms.saturating_add(i64::try_from(SHOWN_AFTER_ALIVE.as_millis()).unwrap_or(i64::MAX));
    let unowned = wall_ms.saturating_sub(shown_until).max(0);
    wall_ms.min(at_ms.saturating_add(unowned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_owner_s_clock_is_charged_to_the_takeover() {
        // Saved at 10 s, the owner alive at 13 s and taken over 0.6 s later (its lease went
        // with a Redis restart): it showed the clock until then, so all 3.6 s count.
        assert_eq!(taken_over_at(10_000, 13_000, 13_600), 10_000);
        assert_eq!(taken_over_at(10_000, 13_000, 14_250), 10_000);
    }

    #[test]
    fn a_dead_owner_s_time_without_an_owner_is_not_charged() {
        // Last alive at 13 s, taken over at 100 s: the 85.75 s after 14.25 s are not charged.
        assert_eq!(taken_over_at(10_000, 13_000, 100_000), 95_750);
        // Never past the takeover itself, whatever the numbers.
        assert_eq!(taken_over_at(99_900, 13_000, 100_000), 100_000);
        assert_eq!(taken_over_at(i64::MAX, i64::MIN, i64::MAX), i64::MAX);
    }
}
