//! How long rooms are kept.
//!
//! A finished game lives on in its share link, which needs no server, so its room is kept only
//! long enough for a rematch and for the players to come back to it: 7 days after its last
//! change. A game nobody has touched for 30 days is abandoned and goes too (a clock that ran
//! out meanwhile would have ended it anyway). The server prunes at start-up and then hourly.

use std::time::Duration;

/// The pruning policy (see the module documentation for the defaults and why).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrunePolicy {
    /// A finished room is deleted this long after its last change.
    pub finished: Duration,
    /// An unfinished room is deleted this long after its last change.
    pub abandoned: Duration,
    /// How often the server prunes.
    pub every: Duration,
}

impl Default for PrunePolicy {
    fn default() -> PrunePolicy {
        PrunePolicy {
            finished: Duration::from_secs(7 * 24 * 3600),
            abandoned: Duration::from_secs(30 * 24 * 3600),
            every: Duration::from_secs(3600),
        }
    }
}
