//! The engine protocols' commands, parsed: UCI as Pikafish speaks it (squares `a0`-`i9`) and
//! UCCI as ElephantEye speaks it (`ucci`, `setoption NAME VALUE`, `banmoves`, `probe`,
//! `go time .. increment ..`). A GUI picks the dialect with its first command (`uci` or
//! `ucci`).
//!
//! Parsing is strict where a wrong guess would do harm: a bad FEN, an illegal move or more than
//! [`xiangqi::MAX_GAME_PLIES`] moves make the whole `position` line an error (so no half-set position is
//! searched). A `go` whose value is a whole number out of range is clamped into it, never
//! wrapped (`go depth 4294967297` searches to [`MAX_DEPTH`], not to depth 1), and the clamp is
//! noted in [`Go::clamped`] for the loop to report; a `go` with a value that is no whole
//! number, a keyword without its value or a word it does not know is an error, which the loop
//! answers with a `bestmove` of no move: a GUI never waits for an answer that will not come.
//!
//! ```
//! use xiangqi_engine::protocol::{parse, Command, Dialect};
//! let cmd = parse("position startpos moves h2e2 h9g7", Dialect::Uci).unwrap();
//! let Command::Position { position, history } = cmd else { panic!() };
//! assert_eq!(history.len(), 2);
//! assert_eq!(position.fullmoves(), 2);
//! let Command::Go(go) = parse("go depth 4294967297", Dialect::Uci).unwrap() else { panic!() };
//! assert_eq!(go.depth, Some(xiangqi_engine::MAX_DEPTH));
//! assert!(parse("go nodes 1e30", Dialect::Uci).is_err());
//! assert!(parse("position startpos moves h2e3", Dialect::Uci).is_err());
//! ```

use crate::search::MAX_DEPTH;
use crate::{Engine, Played};
use core::fmt;
use xiangqi::{FenError, GameTooLong, Move, Position};

/// The most milliseconds a `go` time (`movetime`, a clock, an increment) may give: about 11.6
/// days, far beyond any game, and small enough that the time arithmetic never overflows. Larger
/// values are clamped to it.
pub const MAX_TIME_MS: u64 = 1_000_000_000;

/// Which protocol the GUI speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Universal Chess Interface, Xiangqi variant (Pikafish).
    Uci,
    /// The Universal Chinese Chess Interface (ElephantEye).
    Ucci,
}

/// The limits of a `go` command; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Plies to search (1 to [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Nodes to search.
    pub nodes: Option<u64>,
    /// Milliseconds to think (1 to [`MAX_TIME_MS`]).
    pub movetime: Option<u64>,
    /// Red's clock in milliseconds (UCCI: the side to move's `time`), 0 to [`MAX_TIME_MS`].
    pub wtime: Option<u64>,
    /// Black's clock in milliseconds.
    pub btime: Option<u64>,
    /// Red's increment per move in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment per move in milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    /// The values that were out of range and were clamped into it, for the loop to report.
    pub clamped: Vec<Clamped>,
}

/// A `go` value out of range, and the value used instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clamped {
    /// The keyword.
    pub key: &'static str,
    /// What was given (its first 24 characters).
    pub value: String,
    /// The value used.
    pub used: u64,
}

impl fmt::Display for Clamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} is out of range: using {}", self.key, self.value, self.used)
    }
}

impl Go {
    /// How long to think, for the side `turn`: all of `movetime` (as Stockfish does: the GUI
    /// asked for exactly that), or a share of the clock (about a 30th of the time left, or of
    /// it over `movestogo`, plus most of the increment; never more than a third of the time
    /// left) less `overhead` milliseconds for the GUI's delays, which a clock charges.
    /// `None` when the search has no time limit (depth, nodes, infinite, ponder).
    ///
    /// The search treats this as the most it may use; with a clock it also aims at
    /// [`Go::optimum_time`], beginning no iteration after it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xiangqi::Color;
    /// use xiangqi_engine::protocol::Go;
    /// let go = Go { wtime: Some(60_000), winc: Some(1_000), ..Go::default() };
    /// let t = go.think_time(Color::Red, 10).unwrap();
    /// assert!(t > Duration::from_secs(2) && t < Duration::from_secs(20));
    /// let exact = Go { movetime: Some(100), ..Go::default() };
    /// assert_eq!(exact.think_time(Color::Red, 10), Some(Duration::from_millis(100)));
    /// ```
    pub fn think_time(&self, turn: xiangqi::Color, overhead: u64) -> Option<core::time::Duration> {
        use core::time::Duration;
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms.max(1)));
        }
        let (time, inc) = match turn {
            xiangqi::Color::Red => (self.wtime?, self.winc.unwrap_or(0)),
            xiangqi::Color::Black => (self.btime?, self.binc.unwrap_or(0)),
        };
        let left = time.saturating_sub(overhead).max(1);
        let moves = self.movestogo.map_or(30, |m| m.clamp(1, 50)) as u64;
        // Twice the average share: the search stops early when an iteration would not end.
        let share = 2 * (left / moves) + inc * 3 / 2;
        let cap = if moves == 1 { left * 9 / 10 } else { left / 3 };
        Some(Duration::from_millis(share.min(cap).max(1)))
    }

    /// With a clock, the time after which the search begins no new iteration: about the
    /// average share of the time left (the next iteration usually takes longer than all the
    /// ones before it, so it would often be cut off). `None` for `movetime` (use all of it)
    /// and searches without a time limit.
    ///
    /// ```
    /// use xiangqi::Color;
    /// use xiangqi_engine::protocol::Go;
    /// let go = Go { btime: Some(30_000), ..Go::default() };
    /// let (optimum, max) = (go.optimum_time(Color::Black, 0).unwrap(), go.think_time(Color::Black, 0).unwrap());
    /// assert!(optimum < max);
    /// assert_eq!(Go { movetime: Some(100), ..Go::default() }.optimum_time(Color::Red, 0), None);
    /// ```
    pub fn optimum_time(&self, turn: xiangqi::Color, overhead: u64) -> Option<core::time::Duration> {
        if self.movetime.is_some() {
            return None;
        }
        let max = self.think_time(turn, overhead)?;
        let (time, inc) = match turn {
            xiangqi::Color::Red => (self.wtime?, self.winc.unwrap_or(0)),
            xiangqi::Color::Black => (self.btime?, self.binc.unwrap_or(0)),
        };
        let left = time.saturating_sub(overhead).max(1);
        let moves = self.movestogo.map_or(30, |m| m.clamp(1, 50)) as u64;
        let share = core::time::Duration::from_millis(left / moves + inc * 3 / 4);
        Some(share.min(max))
    }
}

/// An option the engine announces and honours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// The evaluation: `<default>` (the built-in net), `classical` (the hand-written
    /// evaluation) or the path of a net file.
    EvalFile(String),
    /// Transposition table size in MiB (1 to [`Engine::MAX_HASH_MB`]).
    Hash(usize),
    /// Lines to report (1 to [`MAX_MULTIPV`]).
    MultiPv(usize),
    /// Milliseconds kept back from every move for the GUI's delays (0 to 5000).
    MoveOverhead(u64),
    /// Search threads (1 to [`Engine::MAX_THREADS`]).
    Threads(usize),
    /// Whether the GUI will ponder (the engine needs nothing for it).
    Ponder(bool),
    /// The computer's level, 1 to 8 ([`crate::level`]; 8, full strength, by default).
    Level(u8),
    /// Empty the transposition table.
    ClearHash,
    /// UCCI `setoption newgame`.
    NewGame,
    /// An option the engine does not have; ignored.
    Unknown,
}

/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: usize = 64;
/// The largest `Move Overhead`, in milliseconds.
pub const MAX_MOVE_OVERHEAD: u64 = 5000;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: answer `id` / `option` lines and `uciok`.
    Uci,
    /// `ucci`: the same for UCCI, ending with `ucciok`.
    Ucci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `setoption`, already checked.
    SetOption(EngineOption),
    /// `position`, with the moves played: the position to search and the game before it.
    Position {
        /// The position after the moves.
        position: Position,
        /// The positions before each move and the moves (for the repetition rules).
        history: Vec<Played>,
    },
    /// UCCI `probe`: report what the hash table knows of this position.
    Probe(Position),
    /// UCCI `banmoves`: moves the next search must not play.
    BanMoves(Vec<Move>),
    /// `go`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`: the opponent played the pondered move; go on with the real clock.
    PonderHit,
    /// `quit`.
    Quit,
    /// An empty line or a command to ignore (`debug`, `register`, unknown words).
    Ignore,
}

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// `position` without `startpos` or `fen`.
    NoStart,
    /// The FEN did not read.
    Fen(FenError),
    /// A move that is not ICCS (`h2e2`).
    BadMove(String),
    /// A move that is not legal where it is played.
    IllegalMove(String),
    /// A keyword without its value.
    MissingValue(&'static str),
    /// A value that is not a number of the right kind.
    BadNumber {
        /// The keyword.
        key: String,
        /// What was given.
        value: String,
    },
    /// A word `go` does not know.
    UnknownWord(String),
    /// A `position` with more moves than [`xiangqi::MAX_GAME_PLIES`].
    TooLong(GameTooLong),
    /// A number outside the allowed range.
    OutOfRange {
        /// The keyword.
        key: String,
        /// What was given.
        value: String,
        /// The smallest allowed.
        min: u64,
        /// The largest allowed.
        max: u64,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::NoStart => f.write_str("position needs startpos or fen"),
            CommandError::Fen(e) => write!(f, "bad FEN: {e}"),
            CommandError::BadMove(m) => write!(f, "{m:?} is not a move (ICCS, such as h2e2)"),
            CommandError::IllegalMove(m) => write!(f, "illegal move {m}"),
            CommandError::MissingValue(k) => write!(f, "{k} needs a value"),
            CommandError::BadNumber { key, value } => write!(f, "{key} {value:?} is not a valid number"),
            CommandError::UnknownWord(w) => write!(f, "go does not know {w:?}"),
            CommandError::TooLong(e) => write!(f, "{e}"),
            CommandError::OutOfRange { key, value, min, max } => {
                write!(f, "{key} {value} is out of range ({min} to {max})")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// Parses one command line.
pub fn parse(line: &str, dialect: Dialect) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else { return Ok(Command::Ignore) };
    Ok(match first {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "setoption" => Command::SetOption(parse_setoption(rest, dialect)?),
        "position" => {
            let (position, history) = parse_position(rest)?;
            Command::Position { position, history }
        }
        "probe" => Command::Probe(parse_position(rest)?.0),
        "banmoves" => Command::BanMoves(rest.iter().map(|w| parse_move(w)).collect::<Result<_, _>>()?),
        "go" => Command::Go(parse_go(rest, dialect)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        _ => Command::Ignore,
    })
}

fn parse_move(w: &str) -> Result<Move, CommandError> {
    w.parse().map_err(|_| CommandError::BadMove(w.chars().take(16).collect()))
}

/// `startpos | fen FEN [moves M..]`: the position after the moves and the hashes before them.
fn parse_position(words: &[&str]) -> Result<(Position, Vec<Played>), CommandError> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let mut pos = match words.first().copied() {
        Some("startpos") => Position::startpos(),
        Some("fen") => {
            let fen = words[1..moves_at].join(" ");
            // ElephantEye's GUIs may append a move list marker of their own kind; UCI has none.
            Position::from_fen(&fen).map_err(CommandError::Fen)?
        }
        _ => return Err(CommandError::NoStart),
    };
    let moves = words.get(moves_at + 1..).unwrap_or(&[]);
    // The same bound as every other way a game comes in (links, PGN, the web API, rooms).
    xiangqi::check_game_length(moves.len()).map_err(CommandError::TooLong)?;
    let mut history = Vec::with_capacity(moves.len());
    for w in moves {
        let m = parse_move(w)?;
        history.push(Played { hash: pos.hash(), mv: m });
        pos.play(m).map_err(|_| CommandError::IllegalMove(m.to_string()))?;
    }
    Ok((pos, history))
}

fn number<T: core::str::FromStr + Into<u64> + Copy>(
    key: &str,
    value: Option<&&str>,
    min: u64,
    max: u64,
) -> Result<T, CommandError> {
    let value = value.ok_or(CommandError::MissingValue(static_key(key)))?;
    let n: T = value.parse().map_err(|_| CommandError::BadNumber { key: key.into(), value: clip(value) })?;
    let v: u64 = n.into();
    if v < min || v > max {
        return Err(CommandError::OutOfRange { key: key.into(), value: clip(value), min, max });
    }
    Ok(n)
}

/// A `go` value: a whole number, clamped into `min..=max` (a negative clock, a GUI's
/// overstepped time, counts as `min`; a number too long for any integer type as `max`), the
/// clamp noted in `go`. Anything else (`1e30`, `x`, nothing) is an error.
fn go_number(go: &mut Go, key: &str, value: Option<&&str>, min: u64, max: u64) -> Result<u64, CommandError> {
    let value = *value.ok_or(CommandError::MissingValue(static_key(key)))?;
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::BadNumber { key: key.into(), value: clip(value) });
    }
    let used = if value.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        min
    } else {
        digits.parse::<u64>().map_or(max, |n| n.clamp(min, max))
    };
    // Clocks count negatives as 0 without a note: a GUI sends them when a clock has run out.
    let silent = value.starts_with('-') && min == 0;
    let exact = !value.starts_with('-') && digits.parse::<u64>().ok() == Some(used);
    if !silent && !exact {
        go.clamped.push(Clamped { key: static_key(key), value: clip(value), used });
    }
    Ok(used)
}

fn clip(s: &str) -> String {
    s.chars().take(24).collect()
}

fn static_key(key: &str) -> &'static str {
    const KEYS: [&str; 15] = [
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "time",
        "increment",
        "opptime",
        "oppincrement",
        "oppmovestogo",
        "mate",
        "value",
    ];
    KEYS.iter().find(|&&k| k == key).copied().unwrap_or("a keyword")
}

fn parse_go(words: &[&str], dialect: Dialect) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut i = 0;
    let depth = MAX_DEPTH as u64;
    // UCCI gives the side to move's clock as `time`; it is filed under Red's and Black's both
    // (the engine reads the side to move's).
    while i < words.len() {
        let key = words[i];
        let next = words.get(i + 1);
        let mut takes_value = true;
        match key {
            "depth" => go.depth = Some(go_number(&mut go, key, next, 1, depth)? as u32),
            "nodes" => go.nodes = Some(go_number(&mut go, key, next, 1, u64::MAX)?),
            "movetime" => go.movetime = Some(go_number(&mut go, key, next, 1, MAX_TIME_MS)?),
            "wtime" => go.wtime = Some(go_number(&mut go, key, next, 0, MAX_TIME_MS)?),
            "btime" => go.btime = Some(go_number(&mut go, key, next, 0, MAX_TIME_MS)?),
            "winc" => go.winc = Some(go_number(&mut go, key, next, 0, MAX_TIME_MS)?),
            "binc" => go.binc = Some(go_number(&mut go, key, next, 0, MAX_TIME_MS)?),
            "movestogo" => go.movestogo = Some(go_number(&mut go, key, next, 1, u32::MAX as u64)? as u32),
            "mate" => go.depth = Some(2 * go_number(&mut go, key, next, 1, depth / 2)? as u32),
            "time" if dialect == Dialect::Ucci => {
                let t = go_number(&mut go, key, next, 0, MAX_TIME_MS)?;
                go.wtime = Some(t);
                go.btime = Some(t);
            }
            "increment" if dialect == Dialect::Ucci => {
                let t = go_number(&mut go, key, next, 0, MAX_TIME_MS)?;
                go.winc = Some(t);
                go.binc = Some(t);
            }
            "opptime" | "oppincrement" | "oppmovestogo" if dialect == Dialect::Ucci => {
                go_number(&mut go, key, next, 0, MAX_TIME_MS)?;
            }
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "draw" => takes_value = false,
            "searchmoves" => {
                for w in &words[i + 1..] {
                    go.searchmoves.push(parse_move(w)?);
                }
                break;
            }
            // An unknown word might have been meant as a limit: searching without it could run
            // for ever, so the whole `go` is refused.
            _ => return Err(CommandError::UnknownWord(clip(key))),
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(go)
}

/// UCI `setoption name N [value V]`; UCCI `setoption N [V]`.
fn parse_setoption(words: &[&str], dialect: Dialect) -> Result<EngineOption, CommandError> {
    let (name, value) = if words.first() == Some(&"name") {
        let value_at = words.iter().position(|&w| w == "value").unwrap_or(words.len());
        (words[1..value_at].join(" "), words.get(value_at + 1..).map(|v| v.join(" ")))
    } else if dialect == Dialect::Ucci {
        (words.first().map_or(String::new(), |w| w.to_string()), words.get(1..).map(|v| v.join(" ")))
    } else {
        return Ok(EngineOption::Unknown);
    };
    let value = value.filter(|v| !v.is_empty());
    let v = value.as_deref();
    let num = |key: &str, min: u64, max: u64| -> Result<u64, CommandError> {
        let s = v.ok_or(CommandError::MissingValue("value"))?;
        number::<u64>(key, Some(&s), min, max)
    };
    Ok(match name.to_ascii_lowercase().as_str() {
        "hash" | "hashsize" => EngineOption::Hash(num("Hash", 1, Engine::MAX_HASH_MB as u64)? as usize),
        "multipv" => EngineOption::MultiPv(num("MultiPV", 1, MAX_MULTIPV as u64)? as usize),
        "move overhead" => EngineOption::MoveOverhead(num("Move Overhead", 0, MAX_MOVE_OVERHEAD)?),
        "threads" => EngineOption::Threads(num("Threads", 1, Engine::MAX_THREADS as u64)? as usize),
        "ponder" => EngineOption::Ponder(v.is_some_and(|v| v.eq_ignore_ascii_case("true"))),
        "level" => EngineOption::Level(num("Level", 1, crate::level::FULL_STRENGTH.into())? as u8),
        "clear hash" | "clearhash" => EngineOption::ClearHash,
        "newgame" => EngineOption::NewGame,
        "evalfile" => EngineOption::EvalFile(v.ok_or(CommandError::MissingValue("EvalFile"))?.to_string()),
        _ => EngineOption::Unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::MAX_GAME_PLIES;

    fn uci(line: &str) -> Result<Command, CommandError> {
        parse(line, Dialect::Uci)
    }

    #[test]
    fn go_limits() {
        let Command::Go(go) = uci("go wtime 1000 btime -5 winc 10 binc 10 movestogo 3").unwrap() else { panic!() };
        assert_eq!((go.wtime, go.btime, go.winc, go.movestogo), (Some(1000), Some(0), Some(10), Some(3)));
        let Command::Go(go) = uci("go infinite").unwrap() else { panic!() };
        assert!(go.infinite);
        let Command::Go(go) = uci("go ponder movetime 50").unwrap() else { panic!() };
        assert!(go.ponder && go.movetime == Some(50));
        let Command::Go(go) = uci("go searchmoves h2e2 b2e2").unwrap() else { panic!() };
        assert_eq!(go.searchmoves.len(), 2);
    }

    fn go(line: &str) -> Go {
        match uci(line) {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn out_of_range_go_values_are_clamped_and_noted() {
        let g = go("go depth -5");
        assert_eq!((g.depth, g.clamped[0].to_string()), (Some(1), "depth -5 is out of range: using 1".into()));
        assert_eq!((go("go depth 0").depth, go("go depth -1").clamped.len()), (Some(1), 1));
        assert_eq!(go("go depth 4294967297").depth, Some(MAX_DEPTH));
        assert_eq!(go("go mate 1000").depth, Some(MAX_DEPTH));
        let g = go("go movetime -1");
        assert_eq!((g.movetime, g.clamped.len()), (Some(1), 1));
        let g = go("go wtime 99999999999999999999 btime 1");
        assert_eq!((g.wtime, g.btime, g.clamped.len()), (Some(MAX_TIME_MS), Some(1), 1));
        assert_eq!(go("go nodes 99999999999999999999999").nodes, Some(u64::MAX));
        // An overstepped clock is no mistake of the GUI's: 0, and nothing to report.
        let g = go("go btime -5 wtime 100");
        assert_eq!((g.btime, g.clamped.len()), (Some(0), 0));
        assert!(go("go depth 3 nodes 100 movetime 50").clamped.is_empty());
        // Clamped times never overflow the time arithmetic.
        let g = go("go wtime 99999999999999999999 winc 99999999999999999999 movestogo 1");
        assert!(g.think_time(xiangqi::Color::Red, 0).is_some());
    }

    #[test]
    fn go_values_that_are_not_whole_numbers_and_unknown_words_are_errors() {
        for bad in
            ["go nodes 1e30", "go depth", "go movetime x", "go depth 1e3", "go depth --1", "go foo", "go depth 3 foo"]
        {
            assert!(uci(bad).is_err(), "{bad}");
        }
        assert_eq!(uci("go nodes 1e30").unwrap_err().to_string(), "nodes \"1e30\" is not a valid number");
        assert_eq!(uci("go foo").unwrap_err().to_string(), "go does not know \"foo\"");
    }

    #[test]
    fn a_position_longer_than_the_game_limit_is_refused() {
        let line = |plies: usize| {
            let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
            let moves: Vec<&str> = cycle.iter().copied().cycle().take(plies).collect();
            format!("position startpos moves {}", moves.join(" "))
        };
        assert!(matches!(uci(&line(MAX_GAME_PLIES)), Ok(Command::Position { .. })));
        let err = uci(&line(MAX_GAME_PLIES + 1)).unwrap_err();
        assert_eq!(err.to_string(), "the game is longer than 4000 plies, the limit");
    }

    #[test]
    fn position_errors_leave_nothing_half_done() {
        assert!(matches!(uci("position"), Err(CommandError::NoStart)));
        assert!(matches!(uci("position fen xyz"), Err(CommandError::Fen(_))));
        assert!(matches!(uci("position startpos moves h2e2 zz"), Err(CommandError::BadMove(_))));
        assert!(matches!(uci("position startpos moves h2e2 h2e2"), Err(CommandError::IllegalMove(_))));
        let fen = "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2";
        assert!(matches!(uci(fen), Ok(Command::Position { .. })));
    }

    #[test]
    fn options() {
        assert_eq!(uci("setoption name Hash value 64").unwrap(), Command::SetOption(EngineOption::Hash(64)));
        assert!(matches!(uci("setoption name Hash value 1099511627776"), Err(CommandError::OutOfRange { .. })));
        assert!(uci("setoption name Hash value 0").is_err());
        assert!(uci("setoption name Hash").is_err());
        assert_eq!(
            uci("setoption name Move Overhead value 30").unwrap(),
            Command::SetOption(EngineOption::MoveOverhead(30))
        );
        assert_eq!(uci("setoption name MultiPV value 3").unwrap(), Command::SetOption(EngineOption::MultiPv(3)));
        assert_eq!(uci("setoption name Foo value 3").unwrap(), Command::SetOption(EngineOption::Unknown));
        assert_eq!(parse("setoption hashsize 32", Dialect::Ucci).unwrap(), Command::SetOption(EngineOption::Hash(32)));
        assert_eq!(parse("setoption newgame", Dialect::Ucci).unwrap(), Command::SetOption(EngineOption::NewGame));
    }

    #[test]
    fn ucci_commands() {
        let Command::Go(go) = parse("go time 60000 increment 500 opptime 50000", Dialect::Ucci).unwrap() else {
            panic!()
        };
        assert_eq!((go.wtime, go.btime, go.winc), (Some(60000), Some(60000), Some(500)));
        assert_eq!(
            parse("banmoves h2e2 b2e2", Dialect::Ucci).unwrap(),
            Command::BanMoves(vec!["h2e2".parse().unwrap(), "b2e2".parse().unwrap()])
        );
        assert!(matches!(parse("probe startpos", Dialect::Ucci), Ok(Command::Probe(_))));
    }
}
