//! One engine as a child process speaking UCI or UCCI, with every wait bounded by a deadline.
//!
//! Moves are exchanged in ICCS squares (`h2e2`, ranks 0-9 as Pikafish and ElephantEye write
//! them); Fairy-Stockfish writes ranks 1-10 (`h3e3`), which is recognised from its `id name`
//! and converted both ways.

use anyhow::{anyhow, bail, Context, Result};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use xiangqi::{Move, Position, Square};

/// How long an engine may take to answer `uci` / `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// The longest line read from an engine; longer ones are cut (a runaway engine cannot make
/// the runner hold unbounded memory).
const MAX_LINE: usize = 64 * 1024;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Protocol {
    /// `uci` ... `uciok` (Pikafish, Fairy-Stockfish, qi).
    Uci,
    /// `ucci` ... `ucciok` (ElephantEye).
    Ucci,
}

/// How to start an engine and set it up.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// UCI or UCCI.
    pub protocol: Protocol,
    /// `setoption` pairs, sent after the handshake.
    pub options: Vec<(String, String)>,
    /// A name for reports; the engine's `id name` when absent.
    pub name: Option<String>,
}

/// What to ask for each move.
#[derive(Clone, Copy, Debug)]
pub enum Go {
    /// `go movetime MS`.
    MoveTime(Duration),
    /// `go nodes N`.
    Nodes(u64),
    /// `go wtime .. btime .. winc .. binc ..`: the clocks before this move.
    Clock {
        /// Red's clock.
        red: Duration,
        /// Black's clock.
        black: Duration,
        /// The increment per move, the same for both.
        inc: Duration,
    },
}

/// Why an engine failed to give a move.
#[derive(Debug)]
pub enum Fault {
    /// No `bestmove` before the deadline.
    Timeout,
    /// The process closed its output (crashed or quit).
    Crashed,
    /// A `bestmove` that is not a move at all.
    Unreadable(String),
}

/// The engine's answer to one `go`.
#[derive(Debug)]
pub struct Reply {
    /// The move as the engine wrote it, converted to our ranks (not yet checked for legality).
    pub mv: Option<Move>,
    /// The `bestmove` word as the engine wrote it (the whole line for `nobestmove`).
    pub text: String,
    /// From `go` sent to `bestmove` read.
    pub elapsed: Duration,
    /// From the last `info` line with a depth.
    pub depth: Option<u32>,
    /// The node count of that line (or of an earlier one).
    pub nodes: Option<u64>,
    /// The score of that line, for the side to move.
    pub score: Option<EngineScore>,
}

/// A score as an engine reports it in `info ... score cp N` or `score mate N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// Reads the words after `score` (`cp 35`, `mate -3`, optionally followed by a bound).
    fn parse(kind: &str, value: &str) -> Option<EngineScore> {
        let v: i32 = value.parse().ok()?;
        match kind {
            "cp" => Some(EngineScore::Centipawns(v)),
            "mate" => Some(EngineScore::Mate(v)),
            _ => None,
        }
    }
}

impl core::fmt::Display for EngineScore {
    /// As cutechess writes it in PGN comments: pawns with a sign, or `+M5` / `-M3`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            EngineScore::Centipawns(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            EngineScore::Mate(n) if n < 0 => write!(f, "-M{}", -n),
            EngineScore::Mate(n) => write!(f, "+M{n}"),
        }
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name to report.
    pub name: String,
    protocol: Protocol,
    /// Fairy-Stockfish numbers ranks from 1.
    ranks_from_one: bool,
}

impl EngineProcess {
    /// Starts the engine, does the handshake and sets its options.
    ///
    /// # Errors
    ///
    /// When the program does not start or misses the handshake's deadline (10 s).
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess> {
        let (program, args) = spec.command.split_first().context("empty engine command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {program:?}"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            name: spec.name.clone().unwrap_or_else(|| program.clone()),
            protocol: spec.protocol,
            ranks_from_one: false,
        };
        let (hello, ok) = match spec.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        engine.send(hello)?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut id_name = None;
        loop {
            let line = engine.next_line(deadline).map_err(|f| anyhow!("{program}: no {ok} ({f:?})"))?;
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
            if line == ok {
                break;
            }
        }
        let fairy = id_name.as_deref().is_some_and(|n| n.starts_with("Fairy-Stockfish"));
        if fairy {
            engine.ranks_from_one = true;
            if !spec.options.iter().any(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant")) {
                engine.send("setoption name UCI_Variant value xiangqi")?;
            }
        }
        if spec.name.is_none() {
            if let Some(n) = id_name {
                engine.name = n;
            }
        }
        for (k, v) in &spec.options {
            engine.send(&format!("setoption name {k} value {v}"))?;
        }
        engine.sync()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).context("engine closed its input")
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Crashed),
        }
    }

    /// `isready` and wait for `readyok`.
    fn sync(&mut self) -> Result<()> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.next_line(deadline).map_err(|f| anyhow!("{}: no readyok ({f:?})", self.name))? != "readyok" {}
        Ok(())
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    ///
    /// When the engine closed its input or does not answer `isready`.
    pub fn new_game(&mut self) -> Result<()> {
        if self.protocol == Protocol::Uci {
            self.send("ucinewgame")?;
        }
        self.sync()
    }

    fn write_move(&self, m: Move) -> String {
        if !self.ranks_from_one {
            return m.to_string();
        }
        let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
        format!("{}{}", sq(m.from()), sq(m.to()))
    }

    fn read_move(&self, text: &str) -> Option<Move> {
        if !self.ranks_from_one {
            return text.parse().ok();
        }
        // Files a-i, then ranks 1-10: split at the second letter.
        let b = text.as_bytes();
        let second = b.iter().skip(1).position(|c| c.is_ascii_alphabetic())? + 1;
        let square = |s: &str| -> Option<Square> {
            let f = s.as_bytes().first()?.checked_sub(b'a')?;
            let r: u8 = s.get(1..)?.parse().ok()?;
            Square::new(f, r.checked_sub(1)?)
        };
        Some(Move::new(square(&text[..second])?, square(&text[second..])?))
    }

    /// Sends the position and `go`, and waits for `bestmove` until `deadline`.
    ///
    /// # Errors
    ///
    /// The [`Fault`] that kept the engine from answering with a readable move.
    pub fn best_move(&mut self, start: &Position, moves: &[Move], go: Go, deadline: Instant) -> Result<Reply, Fault> {
        let mut position = format!("position fen {}", start.fen());
        if !moves.is_empty() {
            position.push_str(" moves");
            for &m in moves {
                position.push(' ');
                position.push_str(&self.write_move(m));
            }
        }
        let red_to_move = moves.len().is_multiple_of(2) && start.turn() == xiangqi::Color::Red
            || moves.len() % 2 == 1 && start.turn() == xiangqi::Color::Black;
        let go_line = match (go, self.protocol) {
            (Go::MoveTime(t), Protocol::Uci) => format!("go movetime {}", t.as_millis()),
            (Go::MoveTime(t), Protocol::Ucci) => format!("go time {} movestogo 1", t.as_millis()),
            (Go::Nodes(n), _) => format!("go nodes {n}"),
            (Go::Clock { red, black, inc }, Protocol::Uci) => format!(
                "go wtime {} btime {} winc {} binc {}",
                red.as_millis(),
                black.as_millis(),
                inc.as_millis(),
                inc.as_millis()
            ),
            (Go::Clock { red, black, inc }, Protocol::Ucci) => {
                let (own, opp) = if red_to_move { (red, black) } else { (black, red) };
                format!(
                    "go time {} increment {} opptime {} oppincrement {}",
                    own.as_millis(),
                    inc.as_millis(),
                    opp.as_millis(),
                    inc.as_millis()
                )
            }
        };
        let started = Instant::now();
        self.send(&position).map_err(|_| Fault::Crashed)?;
        self.send(&go_line).map_err(|_| Fault::Crashed)?;
        let (mut depth, mut nodes, mut score) = (None, None, None);
        loop {
            let line = match self.next_line(deadline) {
                Ok(l) => l,
                Err(f) => {
                    let _ = self.send("stop");
                    return Err(f);
                }
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let words: Vec<&str> = words.collect();
                    let value = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1));
                    if let Some(d) = value("depth").and_then(|d| d.parse().ok()) {
                        depth = Some(d);
                        nodes = value("nodes").and_then(|n| n.parse().ok()).or(nodes);
                        let at = words.iter().position(|&w| w == "score");
                        let kind_value = at.and_then(|i| Some((*words.get(i + 1)?, *words.get(i + 2)?)));
                        score = kind_value.and_then(|(k, v)| EngineScore::parse(k, v)).or(score);
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("").to_string();
                    let elapsed = started.elapsed();
                    if matches!(text.as_str(), "" | "(none)" | "0000" | "nomove" | "resign") {
                        return Ok(Reply { mv: None, text, elapsed, depth, nodes, score });
                    }
                    let mv = self.read_move(&text);
                    if mv.is_none() {
                        return Err(Fault::Unreadable(text));
                    }
                    return Ok(Reply { mv, text, elapsed, depth, nodes, score });
                }
                Some("nobestmove") => {
                    return Ok(Reply { mv: None, text: line.clone(), elapsed: started.elapsed(), depth, nodes, score })
                }
                _ => {}
            }
        }
    }
}

impl Drop for EngineProcess {
    /// `quit`, a short grace period, then kill: no engine outlives its game.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits `NAME=VALUE`.
///
/// # Errors
///
/// When there is no `=` or no name before it.
pub fn parse_option(s: &str) -> Result<(String, String)> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => bail!("engine option {s:?} is not NAME=VALUE"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_name_value_pairs() {
        assert_eq!(parse_option("Hash=64").unwrap(), ("Hash".into(), "64".into()));
        assert_eq!(parse_option("Move Overhead = 10").unwrap(), ("Move Overhead".into(), "10".into()));
        assert!(parse_option("Hash").is_err());
        assert!(parse_option("=3").is_err());
    }

    #[test]
    fn scores_read_and_written_as_cutechess_does() {
        assert_eq!(EngineScore::parse("cp", "-35"), Some(EngineScore::Centipawns(-35)));
        assert_eq!(EngineScore::parse("mate", "4"), Some(EngineScore::Mate(4)));
        assert_eq!(EngineScore::parse("lowerbound", "4"), None);
        assert_eq!(EngineScore::parse("cp", "x"), None);
        assert_eq!(EngineScore::Centipawns(-35).to_string(), "-0.35");
        assert_eq!(EngineScore::Centipawns(120).to_string(), "+1.20");
        assert_eq!(EngineScore::Mate(-3).to_string(), "-M3");
        assert_eq!(EngineScore::Mate(5).to_string(), "+M5");
    }
}
