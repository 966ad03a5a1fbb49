//! A room's game as PGN: the result, how it ended, the time control, when it was played, and
//! each move's clock as a `{[%clk 0:04:57]}` comment.
//!
//! ```
//! use qi_rooms::{room_pgn, Command, Room, RoomSpec};
//! use xiangqi::Color;
//! let now = tokio::time::Instant::now();
//! let mut room = Room::new(RoomSpec::standard(None), 0, now);
//! room.apply(Some(Color::Red), Command::Resign, now).unwrap();
//! let pgn = room_pgn(&room);
//! assert!(pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"resignation\"]"));
//! assert!(pgn.contains("[Date \"1970.01.01\"]"));
//! ```

use crate::room::Room;
use crate::status::EndReason;
use xiangqi::notation::Notation;
use xiangqi::outcome::Reason;
use xiangqi::pgn::PgnGame;

/// The PGN `[Result]`: `1-0` (red won), `0-1`, `1/2-1/2`, or `*` (going on, or aborted); the
/// rules library's [`xiangqi::outcome::Outcome::pgn_result`], except that an aborted game has none.
pub fn result_tag(room: &Room) -> &'static str {
    let status = room.status();
    if status.is_aborted() {
        return "*";
    }
    status.outcome.pgn_result()
}

/// The PGN `[Termination]`: how the game ended.
pub fn termination(reason: Option<EndReason>) -> &'static str {
    match reason {
        None => "unterminated",
        Some(EndReason::Rule(Reason::Checkmate)) => "checkmate",
        Some(EndReason::Rule(Reason::Stalemate)) => "stalemate",
        Some(EndReason::Rule(Reason::PerpetualCheck)) => "repetition ruling: perpetual check",
        Some(EndReason::Rule(Reason::PerpetualChase)) => "repetition ruling: perpetual chase",
        Some(EndReason::Rule(Reason::Repetition)) => "repetition ruling: draw",
        Some(EndReason::Rule(Reason::MoveLimit)) => "move limit",
        Some(EndReason::Rule(Reason::NoAttackers)) => "no attackers",
        Some(EndReason::Rule(other)) => other.name(),
        Some(EndReason::Resignation) => "resignation",
        Some(EndReason::Agreement) => "agreement",
        Some(EndReason::Flag) => "time forfeit",
        Some(EndReason::Abandonment) => "abandonment",
        Some(EndReason::Aborted) => "aborted",
    }
}

/// `h:mm:ss` for `%clk`.
fn clk(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The civil date (year, month, day) of a day count since 1970-01-01 (Howard Hinnant's method).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The room's game as PGN (moves in ICCS, which every reader takes), with the players' names
/// when given (`names`, red first).
pub fn room_pgn_named(room: &Room, names: [Option<&str>; 2]) -> String {
    let game = room.game();
    let mut pgn = PgnGame::new(game.start().clone(), game.moves());
    let wall_s = room.created_ms().div_euclid(1000);
    let (y, m, d) = civil(wall_s.div_euclid(86_400));
    let secs = wall_s.rem_euclid(86_400);
    pgn.set_tag("Event", "Qi online game");
    pgn.set_tag("Site", &format!("room {}", room.id()));
    pgn.set_tag("Date", &format!("{y:04}.{m:02}.{d:02}"));
    pgn.set_tag("UTCDate", &format!("{y:04}.{m:02}.{d:02}"));
    pgn.set_tag("UTCTime", &format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60));
    pgn.set_tag("Red", names[0].unwrap_or("?"));
    pgn.set_tag("Black", names[1].unwrap_or("?"));
    pgn.set_tag("Result", result_tag(room));
    pgn.set_tag("Termination", termination(room.status().reason));
    let tc = match room.clock() {
        Some(c) => format!("{}+{}", c.settings().initial_ms / 1000, c.settings().increment_ms / 1000),
        None => "-".to_string(),
    };
    pgn.set_tag("TimeControl", &tc);
    for (mv, &ms) in pgn.line.moves.iter_mut().zip(room.move_clocks()) {
        mv.comment = Some(format!("[%clk {}]", clk(ms)));
    }
    pgn.result = Some(result_tag(room).to_string());
    pgn.write(Notation::Iccs)
}

/// [`room_pgn_named`] with the names the players gave.
pub fn room_pgn(room: &Room) -> String {
    room_pgn_named(room, room.names())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClockSettings, Command, RoomSpec};
    use tokio::time::Instant;
    use xiangqi::Color;

    #[test]
    fn clocks_and_tags() {
        let t0 = Instant::now();
        let settings = ClockSettings { initial_ms: 300_000, increment_ms: 2_000 };
        // 2026-12-02 01:02:03 UTC
        let mut room = Room::new(RoomSpec::standard(Some(settings)), 1_796_173_323_000, t0);
        for (i, m) in ["h2e2", "h9g7", "h0g2"].into_iter().enumerate() {
            let seat = if i % 2 == 0 { Color::Red } else { Color::Black };
            let at = t0 + std::time::Duration::from_secs(5 * i as u64);
            room.apply(Some(seat), Command::Move { ply: i, mv: m.parse().unwrap() }, at).unwrap();
        }
        room.apply(Some(Color::Black), Command::Resign, t0).unwrap();
        let pgn = room_pgn(&room);
        for tag in [
            "[Result \"1-0\"]",
            "[Termination \"resignation\"]",
            "[TimeControl \"300+2\"]",
            "[Date \"2026.12.02\"]",
            "[UTCTime \"01:02:03\"]",
            "{[%clk 0:05:00]}",
        ] {
            assert!(pgn.contains(tag), "{tag} in {pgn}");
        }
        // Red's clock ran 5 s (from black's first move) before its second move, then +2 s.
        assert!(pgn.contains("{[%clk 0:04:57]}"), "{pgn}");
    }
}
