//! The protocol loop for Xiangqi GUIs and match runners: UCI as Pikafish speaks it (ICCS
//! squares `h2e2`) or UCCI as ElephantEye does, chosen by the first command (`uci` or `ucci`).
//!
//! [`run`] reads commands from any reader and writes the answers to the writer it is given
//! (standard input and output for a GUI, in-memory pipes in a test); the library itself never
//! prints. A search runs on its own thread, so `stop`, `ponderhit` and `isready` are answered
//! while it thinks.
//!
//! No input ends the loop but `quit` or the end of the input: a line that is not UTF-8 or is
//! longer than [`MAX_LINE_BYTES`] is reported (`info string error: ...`) and skipped, and every
//! `go` ends in a `bestmove`: a value out of range is clamped (and reported), a `go` that does
//! not read is refused with an error and `bestmove (none)` (UCCI: `nobestmove`) at once.
//!
//! Pondering (`go ponder`, both dialects) searches with no time limit and holds its `bestmove`
//! back: `ponderhit` turns it into a normal search that has, from then on, the time its clock
//! gives (the `wtime`/`btime` or `movetime` of the `go ponder` command); `stop` ends it at once
//! with the best move found so far.
//!
//! ```
//! let input = "uci\nposition startpos moves h2e2\ngo depth 3\nquit\n";
//! let mut out = Vec::new();
//! xiangqi_engine::uci::run(input.as_bytes(), &mut out).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.contains("uciok"));
//! assert!(out.lines().any(|l| l.starts_with("bestmove ")));
//! ```

mod line;

pub use line::MAX_LINE_BYTES;

use crate::protocol::{self, Command, Dialect, EngineOption, Go, MAX_MOVE_OVERHEAD, MAX_MULTIPV};
use crate::{Engine, Limits, Played, SearchInfo, MAX_DEPTH};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;
use xiangqi::{Move, Position};

/// The transposition table the loop starts with, in MiB (`Hash` changes it).
pub const DEFAULT_HASH_MB: usize = 16;

/// Runs the protocol on `input` until `quit` or the end of the input, writing every answer to
/// `output` (a whole line at a time, from the command loop and the search thread alike). A
/// search still running at the end is stopped and gives its `bestmove` first.
///
/// # Errors
///
/// A failure to read `input` or to write `output` (a GUI that went away): the running search is
/// stopped before the error is returned.
pub fn run<R: BufRead, W: Write + Send>(mut input: R, output: W) -> io::Result<()> {
    let out = Mutex::new(output);
    std::thread::scope(|scope| {
        let mut session = Session::new(&out);
        let result = (|| {
            let mut buf = Vec::new();
            while let Some(line) = line::read(&mut input, &mut buf)? {
                match line {
                    Ok(text) => {
                        if !session.command(scope, &text)? {
                            break;
                        }
                    }
                    Err(bad) => session.refuse(&bad.first_word, &bad)?,
                }
            }
            Ok(())
        })();
        session.finish();
        result
    })
}

/// The `info` lines for one iteration (one per line of a multi-PV search).
///
/// ```
/// use xiangqi::Position;
/// use xiangqi_engine::{protocol::Dialect, uci::info_lines, Engine, Limits};
/// let info = Engine::new(1).search(&Position::startpos(), &[], &Limits::depth(2), |_| {});
/// let lines = info_lines(&info, Dialect::Uci, 1);
/// assert!(lines[0].starts_with("info depth 2 seldepth "), "{}", lines[0]);
/// assert!(info_lines(&info, Dialect::Ucci, 1)[0].starts_with("info depth 2 score "));
/// ```
pub fn info_lines(i: &SearchInfo, dialect: Dialect, multipv: usize) -> Vec<String> {
    let ms = i.elapsed.as_millis().max(1);
    let nps = i.nodes as u128 * 1000 / ms;
    i.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
            let score = match dialect {
                Dialect::Uci => line.score.to_string(),
                // UCCI has no mate form: a mate is a score near the mate value.
                Dialect::Ucci => line.score.centipawns().to_string(),
            };
            let multi = if multipv > 1 { format!(" multipv {}", k + 1) } else { String::new() };
            match dialect {
                Dialect::Uci => format!(
                    "info depth {} seldepth {}{multi} score {score} nodes {} nps {nps} hashfull {} time {ms} pv {}",
                    i.depth,
                    i.seldepth,
                    i.nodes,
                    i.hashfull,
                    pv.join(" ")
                ),
                Dialect::Ucci => {
                    format!("info depth {} score {score} time {ms} nodes {} pv {}", i.depth, i.nodes, pv.join(" "))
                }
            }
        })
        .collect()
}

/// Writes `lines` as one block.
fn say<W: Write>(out: &Mutex<W>, lines: &[String]) -> io::Result<()> {
    let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()
}

/// What ends a running search and releases its `bestmove`.
struct Control {
    /// The engine's stop flag (a fresh one for every search).
    stop: Arc<AtomicBool>,
    phase: Mutex<Phase>,
    changed: Condvar,
}

#[derive(Default)]
struct Phase {
    /// The `bestmove` is held back (an infinite or pondering search) until `stop`/`ponderhit`.
    hold: bool,
    /// The search has answered.
    done: bool,
}

impl Control {
    fn phase(&self) -> MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Lets the search answer once it ends.
    fn release(&self) {
        self.phase().hold = false;
        self.changed.notify_all();
    }

    /// Ends the search now.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.release();
    }

    /// The search thread's end: waits while the answer is held, then gives it.
    fn answer(&self, give: impl FnOnce()) {
        let mut phase = self.phase();
        while phase.hold {
            phase = self.changed.wait(phase).unwrap_or_else(PoisonError::into_inner);
        }
        give();
        phase.done = true;
        self.changed.notify_all();
    }

    /// Stops the search `after` from now, unless it has answered by then (the timer then ends
    /// at once: no thread sleeps on for a search that is over).
    fn stop_after(&self, after: Duration) {
        let phase = self.phase();
        let (phase, _) =
            self.changed.wait_timeout_while(phase, after, |p| !p.done).unwrap_or_else(PoisonError::into_inner);
        if !phase.done {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// A running search: its thread (which hands the engine back) and what ends it.
struct Running<'scope> {
    thread: std::thread::ScopedJoinHandle<'scope, Engine>,
    control: Arc<Control>,
    /// A pondering search: the thinking time `ponderhit` gives (`None`: none of the clock's;
    /// the search then ends at its depth or node limit, or at once without one).
    ponder: Option<Option<Duration>>,
    /// Whether the search ends by itself (a depth or node limit).
    limited: bool,
}

/// Settings the GUI can change.
struct Settings {
    multipv: usize,
    overhead: u64,
    /// The `EvalFile` value in force.
    eval_file: String,
    /// Its net (`None`: the hand-written evaluation); the levels below the net's use none.
    net: Option<Arc<crate::nnue::Network>>,
    /// The `Level` in force (1 to 8).
    level: u8,
}

/// `EvalFile` at the start: the built-in net where there is one.
fn default_eval_file() -> &'static str {
    if crate::nnue::default_net().is_some() {
        "<default>"
    } else {
        "classical"
    }
}

/// The loop's state between commands.
struct Session<'scope, 'env, W: Write + Send> {
    out: &'env Mutex<W>,
    /// The engine, while no search has it.
    engine: Option<Engine>,
    running: Option<Running<'scope>>,
    dialect: Dialect,
    first: bool,
    settings: Settings,
    /// The position to search and the game before it (`None` after a refused `position`).
    position: Option<(Position, Vec<Played>)>,
    banned: Vec<Move>,
    /// Timers of ponder searches (ended when their search ends).
    timers: Vec<JoinHandle<()>>,
}

impl<'scope, 'env: 'scope, W: Write + Send> Session<'scope, 'env, W> {
    fn new(out: &'env Mutex<W>) -> Self {
        Session {
            out,
            engine: Some(Engine::new(DEFAULT_HASH_MB)),
            running: None,
            dialect: Dialect::Uci,
            first: true,
            settings: Settings {
                multipv: 1,
                overhead: 10,
                eval_file: default_eval_file().to_string(),
                net: crate::nnue::default_net(),
                level: crate::level::FULL_STRENGTH,
            },
            position: Some((Position::startpos(), Vec::new())),
            banned: Vec::new(),
            timers: Vec::new(),
        }
    }

    fn say(&self, lines: &[String]) -> io::Result<()> {
        say(self.out, lines)
    }

    /// The answer to a `go` that searches nothing.
    fn no_move(&self) -> String {
        match self.dialect {
            Dialect::Uci => "bestmove (none)".into(),
            Dialect::Ucci => "nobestmove".into(),
        }
    }

    /// Reports a line that was refused, and undoes what it would have done: a refused
    /// `position` leaves no position (the next `go` must not search the previous one), a
    /// refused `go` is answered at once (a GUI waits for its `bestmove`).
    fn refuse(&mut self, first_word: &str, e: &dyn std::fmt::Display) -> io::Result<()> {
        match first_word {
            "position" => self.position = None,
            "go" => {
                // A running search answers first, as at any `go`.
                self.finish();
                self.error(e)?;
                return self.say(&[self.no_move()]);
            }
            _ => {}
        }
        self.error(e)
    }

    fn error(&self, e: &dyn std::fmt::Display) -> io::Result<()> {
        self.say(&[match self.dialect {
            Dialect::Uci => format!("info string error: {e}"),
            Dialect::Ucci => format!("info error: {e}"),
        }])
    }

    /// Stops the running search (it answers first) and takes the engine back.
    fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            self.engine = r.thread.join().ok();
        }
        for t in self.timers.drain(..) {
            let _ = t.join();
        }
    }

    /// Handles one line; `false` at `quit`.
    fn command(&mut self, scope: &'scope std::thread::Scope<'scope, 'env>, line: &str) -> io::Result<bool> {
        // The dialect is the first command's; a later `uci` / `ucci` may switch it.
        let dialect = if self.first && line.trim() == "ucci" { Dialect::Ucci } else { self.dialect };
        let command = match protocol::parse(line, dialect) {
            Ok(c) => c,
            Err(e) => {
                self.refuse(line.split_whitespace().next().unwrap_or_default(), &e)?;
                return Ok(true);
            }
        };
        if !matches!(command, Command::Ignore) {
            self.first = false;
        }
        // A finished search's thread is collected before anything else touches the engine.
        if self.running.as_ref().is_some_and(|r| r.thread.is_finished()) {
            self.finish();
        }
        match command {
            Command::Uci | Command::Ucci => {
                self.dialect = if command == Command::Uci { Dialect::Uci } else { Dialect::Ucci };
                self.say(&self.announce())?;
            }
            Command::IsReady => self.say(&["readyok".into()])?,
            Command::NewGame
            | Command::SetOption(EngineOption::NewGame)
            | Command::SetOption(EngineOption::ClearHash) => {
                self.finish();
                if let Some(e) = self.engine.as_mut() {
                    e.clear();
                }
            }
            Command::SetOption(option) => match option {
                EngineOption::Hash(mb) => {
                    self.finish();
                    if let Some(Err(e)) = self.engine.as_mut().map(|e| e.set_hash(mb)) {
                        self.error(&e)?;
                    }
                }
                EngineOption::Threads(n) => {
                    self.finish();
                    if let Some(Err(e)) = self.engine.as_mut().map(|e| e.set_threads(n)) {
                        self.error(&e)?;
                    }
                }
                EngineOption::EvalFile(name) => {
                    self.finish();
                    match crate::nnue::load_eval_file(&name) {
                        Ok(net) => {
                            if let Some(e) = self.engine.as_mut() {
                                e.set_net(net.clone());
                            }
                            self.settings.eval_file = name;
                            self.settings.net = net;
                        }
                        Err(why) => self.error(&why)?,
                    }
                }
                EngineOption::MultiPv(n) => self.settings.multipv = n,
                EngineOption::MoveOverhead(ms) => self.settings.overhead = ms,
                EngineOption::Level(n) => self.settings.level = n,
                _ => {}
            },
            Command::Position { position, history } => {
                self.position = Some((position, history));
                self.banned.clear();
            }
            Command::BanMoves(moves) => self.banned = moves,
            Command::Probe(p) => {
                let found = self.engine.as_ref().and_then(|e| e.probe(&p));
                self.say(&[match found {
                    Some((mv, score, depth)) => format!(
                        "pophash bestmove {} score {} depth {depth}",
                        mv.map_or("0000".to_string(), |m| m.to_string()),
                        score.centipawns()
                    ),
                    None => "pophash".into(),
                }])?;
            }
            Command::Go(go) => self.go(scope, go)?,
            Command::PonderHit => {
                if let Some(r) = self.running.as_mut() {
                    // The search goes on; from now on it has the time the clock gives.
                    if let Some(time) = r.ponder.take() {
                        r.control.release();
                        match time {
                            Some(t) => {
                                let control = Arc::clone(&r.control);
                                self.timers.push(std::thread::spawn(move || control.stop_after(t)));
                            }
                            None if r.limited => {}
                            None => r.control.stop(),
                        }
                    }
                }
            }
            Command::Stop => self.finish(),
            Command::Quit => return Ok(false),
            Command::Ignore => {}
        }
        Ok(true)
    }

    /// The `id` and `option` lines, and `uciok` / `ucciok`.
    fn announce(&self) -> Vec<String> {
        let hash = self.engine.as_ref().map_or(DEFAULT_HASH_MB, Engine::hash_mb);
        let threads = self.engine.as_ref().map_or(1, Engine::threads);
        let (max, max_threads) = (Engine::MAX_HASH_MB, Engine::MAX_THREADS);
        let id = [format!("id name Qi {}", env!("CARGO_PKG_VERSION")), "id author the Qi developers".into()];
        let options = match self.dialect {
            Dialect::Uci => vec![
                format!("option name Hash type spin default {hash} min 1 max {max}"),
                "option name Clear Hash type button".into(),
                format!("option name Threads type spin default {threads} min 1 max {max_threads}"),
                format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                format!("option name Move Overhead type spin default 10 min 0 max {MAX_MOVE_OVERHEAD}"),
                "option name Ponder type check default false".into(),
                format!("option name EvalFile type string default {}", self.settings.eval_file),
                format!(
                    "option name Level type spin default {FULL} min 1 max {FULL}",
                    FULL = crate::level::FULL_STRENGTH
                ),
                "uciok".into(),
            ],
            Dialect::Ucci => vec![
                format!("option hashsize type spin min 1 max {max} default {hash}"),
                format!("option threads type spin min 1 max {max_threads} default {threads}"),
                "option ponder type check default false".into(),
                "option newgame type button".into(),
                "ucciok".into(),
            ],
        };
        id.into_iter().chain(options).collect()
    }

    fn go(&mut self, scope: &'scope std::thread::Scope<'scope, 'env>, go: Go) -> io::Result<()> {
        self.finish();
        let dialect = self.dialect;
        let Some((pos, history)) = self.position.clone() else {
            self.error(&"no position to search: the last position command was refused")?;
            return self.say(&[self.no_move()]);
        };
        let notes: Vec<String> = go
            .clamped
            .iter()
            .map(|c| match dialect {
                Dialect::Uci => format!("info string {c}"),
                Dialect::Ucci => format!("info {c}"),
            })
            .collect();
        self.say(&notes)?;
        let Some(mut engine) = self.engine.take() else {
            return Err(io::Error::other("the search thread failed"));
        };
        let think = go.think_time(pos.turn(), self.settings.overhead);
        let waits = go.infinite || go.ponder;
        let level = *crate::Level::get(self.settings.level).unwrap_or(crate::Level::full());
        let limits = level.limits(&Limits {
            depth: go.depth.map(|d| d.min(MAX_DEPTH)),
            nodes: go.nodes,
            time: if waits { None } else { think },
            optimum: if waits { None } else { go.optimum_time(pos.turn(), self.settings.overhead) },
            multipv: self.settings.multipv,
        });
        // The weakest levels evaluate by hand; switching clears the evaluation cache, so only
        // when the evaluation changes.
        let net = if level.net { self.settings.net.clone() } else { None };
        if engine.net().map(Arc::as_ptr) != net.as_ref().map(Arc::as_ptr) {
            engine.set_net(net);
        }
        let entropy =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let only: Option<Vec<Move>> = if !go.searchmoves.is_empty() {
            Some(go.searchmoves.clone())
        } else if !self.banned.is_empty() {
            Some(pos.legal_moves().iter().copied().filter(|m| !self.banned.contains(m)).collect())
        } else {
            None
        };
        let stop = Arc::new(AtomicBool::new(false));
        engine.set_stop_handle(Arc::clone(&stop));
        let control =
            Arc::new(Control { stop, phase: Mutex::new(Phase { hold: waits, done: false }), changed: Condvar::new() });
        let (out, multipv, answer) = (self.out, limits.multipv, Arc::clone(&control));
        let limited = limits.depth.is_some() || limits.nodes.is_some();
        let thread = scope.spawn(move || {
            let info = engine.search_moves(&pos, &history, &limits, only.as_deref(), |i| {
                let _ = say(out, &info_lines(i, dialect, multipv));
            });
            // A level that chooses among near-best lines may play another than the first.
            let best = level.choose(&pos, &info, entropy);
            let line = info.lines.iter().find(|l| l.pv.first().copied() == best).map_or(&info.pv, |l| &l.pv);
            // An infinite or pondering search answers only when told to stop.
            answer.answer(|| {
                let ponder = line.get(1).map(|m| format!(" ponder {m}")).unwrap_or_default();
                let _ = say(
                    out,
                    &[match (best, dialect) {
                        (Some(m), _) => format!("bestmove {m}{ponder}"),
                        (None, Dialect::Uci) => "bestmove (none)".into(),
                        (None, Dialect::Ucci) => "nobestmove".into(),
                    }],
                );
            });
            engine
        });
        self.running = Some(Running { thread, control, ponder: go.ponder.then_some(think), limited });
        Ok(())
    }
}
