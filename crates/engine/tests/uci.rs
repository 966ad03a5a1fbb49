//! The protocol loop (`xiangqi_engine::uci::run`) driven as a GUI drives it: commands through an
//! in-memory channel, answers read line by line as they come, with the time each took.

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use xiangqi::Position;

/// A writer that hands every complete line to a channel.
struct Lines {
    partial: Vec<u8>,
    tx: Sender<String>,
}

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            let _ = self.tx.send(String::from_utf8_lossy(&line[..at]).into_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The loop's input: what the GUI sends, as it sends it (the end of the input once the GUI's
/// sender is dropped).
struct Commands {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for Commands {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            match self.rx.recv() {
                Ok(bytes) => (self.buf, self.at) = (bytes, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The GUI's end of a running loop.
struct Gui {
    to: Option<Sender<Vec<u8>>>,
    from: Receiver<String>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

/// Generous bounds: the machine may be loaded.
const SOON: Duration = Duration::from_secs(5);

impl Gui {
    fn start() -> Gui {
        let (to, rx) = channel();
        let reader = Commands { rx, buf: Vec::new(), at: 0 };
        let (tx, from) = channel();
        let thread = std::thread::spawn(move || {
            xiangqi_engine::uci::run(BufReader::new(reader), Lines { partial: Vec::new(), tx })
        });
        Gui { to: Some(to), from, thread: Some(thread) }
    }

    fn send(&mut self, line: &str) {
        self.to.as_ref().unwrap().send(format!("{line}\n").into_bytes()).unwrap();
    }

    /// The lines up to and including the first that starts with `prefix`, and when it came.
    fn until(&self, prefix: &str, within: Duration) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from.recv_timeout(left) {
                Ok(line) => {
                    let found = line.starts_with(prefix);
                    seen.push(line);
                    if found {
                        return (seen, Instant::now());
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no {prefix:?} within {within:?}; got {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the loop ended before {prefix:?}; got {seen:?}"),
            }
        }
    }

    /// Every line that comes within `during`.
    fn collect(&self, during: Duration) -> Vec<String> {
        let deadline = Instant::now() + during;
        let mut seen = Vec::new();
        while let Ok(line) = self.from.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    /// Closes the input; the loop must end by itself, and what it printed last is returned.
    fn close(mut self) -> Vec<String> {
        drop(self.to.take());
        let result = self.thread.take().unwrap().join().unwrap();
        assert!(result.is_ok(), "{result:?}");
        self.from.try_iter().collect()
    }
}

fn bestmove(line: &str) -> &str {
    line.strip_prefix("bestmove ").unwrap().split(' ').next().unwrap()
}

fn assert_legal(pos: &Position, mv: &str) {
    let m = mv.parse().unwrap_or_else(|_| panic!("{mv} is not a move"));
    assert!(pos.legal_moves().contains(&m), "{mv} is not legal in {}", pos.fen());
}

#[test]
fn handshake_announces_threads_and_ponder() {
    let mut gui = Gui::start();
    gui.send("uci");
    let (lines, _) = gui.until("uciok", SOON);
    for want in
        ["id name Qi", "option name Hash type spin", "option name Threads type spin", "option name Ponder type check"]
    {
        assert!(lines.iter().any(|l| l.starts_with(want)), "{want}: {lines:?}");
    }
    gui.send("isready");
    gui.until("readyok", SOON);
    gui.send("quit");
    gui.close();
}

#[test]
fn ponder_search_waits_for_ponderhit_then_keeps_to_its_time() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    gui.send("position startpos moves h2e2");
    gui.send("go ponder movetime 400");
    // Pondering has no time limit: far past the 400 ms there is still no answer, only info.
    let early = gui.collect(Duration::from_millis(900));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    assert!(early.iter().any(|l| l.starts_with("info depth")), "{early:?}");
    // isready is answered while it thinks.
    gui.send("isready");
    gui.until("readyok", SOON);
    let hit = Instant::now();
    gui.send("ponderhit");
    let (lines, when) = gui.until("bestmove", SOON);
    let took = when - hit;
    // From the ponderhit on, the search has the 400 ms of its clock, not more and not none.
    assert!(took >= Duration::from_millis(300), "answered {took:?} after ponderhit");
    assert!(took < Duration::from_millis(3000), "answered {took:?} after ponderhit");
    let mut pos = Position::startpos();
    pos.play("h2e2".parse().unwrap()).unwrap();
    assert_legal(&pos, bestmove(lines.last().unwrap()));
    gui.send("quit");
    gui.close();
}

#[test]
fn stop_while_pondering_answers_at_once() {
    let mut gui = Gui::start();
    gui.send("position startpos");
    gui.send("go ponder wtime 60000 btime 60000");
    let early = gui.collect(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    let asked = Instant::now();
    gui.send("stop");
    let (lines, when) = gui.until("bestmove", SOON);
    assert!(when - asked < Duration::from_millis(1500), "{:?}", when - asked);
    let last = lines.last().unwrap();
    assert_legal(&Position::startpos(), bestmove(last));
    // The expected reply comes with the answer, for the next ponder.
    assert!(last.contains(" ponder "), "{last}");
    // The engine is free again: a new search runs and ends by itself.
    gui.send("position startpos moves h2e2");
    gui.send("go depth 3");
    gui.until("bestmove", SOON);
    gui.send("quit");
    gui.close();
}

#[test]
fn a_ponder_search_that_ends_by_itself_holds_its_answer_until_ponderhit() {
    let mut gui = Gui::start();
    gui.send("position startpos");
    gui.send("go ponder depth 3");
    // Depth 3 takes milliseconds; the answer waits.
    let (info, _) = gui.until("info depth 3", SOON);
    assert!(info.iter().all(|l| !l.starts_with("bestmove")), "{info:?}");
    let more = gui.collect(Duration::from_millis(400));
    assert!(more.iter().all(|l| !l.starts_with("bestmove")), "{more:?}");
    let hit = Instant::now();
    gui.send("ponderhit");
    let (_, when) = gui.until("bestmove", SOON);
    assert!(when - hit < Duration::from_millis(1000), "{:?}", when - hit);
    gui.send("quit");
    gui.close();
}

#[test]
fn the_timer_of_a_ponderhit_never_stops_a_later_search() {
    let mut gui = Gui::start();
    gui.send("position startpos");
    gui.send("go ponder movetime 300");
    gui.collect(Duration::from_millis(100));
    gui.send("ponderhit");
    gui.send("stop");
    gui.until("bestmove", SOON);
    // The 300 ms given at the ponderhit run out while this infinite search thinks: it must
    // go on until its own stop.
    gui.send("go infinite");
    let quiet = gui.collect(Duration::from_millis(900));
    assert!(quiet.iter().all(|l| !l.starts_with("bestmove")), "{quiet:?}");
    gui.send("stop");
    gui.until("bestmove", SOON);
    gui.send("quit");
    gui.close();
}

#[test]
fn ucci_ponders_too() {
    let mut gui = Gui::start();
    gui.send("ucci");
    let (lines, _) = gui.until("ucciok", SOON);
    assert!(lines.iter().any(|l| l.starts_with("option ponder ")), "{lines:?}");
    gui.send("position startpos moves h2e2");
    gui.send("go ponder time 20000 increment 0");
    let early = gui.collect(Duration::from_millis(500));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    // UCCI's info lines carry no seldepth and plain scores.
    assert!(early.iter().any(|l| l.starts_with("info depth ") && l.contains(" score ")), "{early:?}");
    let hit = Instant::now();
    gui.send("ponderhit");
    // A 30th of 20 s, twice: well under two seconds, and more than nothing.
    let (_, when) = gui.until("bestmove", SOON);
    assert!(when - hit < Duration::from_millis(4000), "{:?}", when - hit);
    // A mated side has no move: nobestmove, even when pondering.
    gui.send("position fen R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    gui.send("go ponder depth 2");
    gui.send("stop");
    gui.until("nobestmove", SOON);
    gui.send("quit");
    gui.close();
}

#[test]
fn the_end_of_the_input_stops_the_search_with_an_answer() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    gui.send("position startpos");
    gui.send("go infinite");
    gui.until("info depth 2", SOON);
    let rest = gui.close();
    assert!(rest.iter().any(|l| l.starts_with("bestmove ")), "{rest:?}");
}

#[test]
fn threads_can_be_set_and_out_of_range_is_refused() {
    let mut gui = Gui::start();
    gui.send("uci");
    let (lines, _) = gui.until("uciok", SOON);
    let threads = lines.iter().find(|l| l.starts_with("option name Threads")).unwrap();
    let max: usize = threads.rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(max, xiangqi_engine::Engine::MAX_THREADS);
    gui.send(&format!("setoption name Threads value {}", max + 1));
    gui.send(&format!("setoption name Threads value {max}"));
    gui.send("position startpos");
    gui.send("go depth 5");
    let (lines, _) = gui.until("bestmove", SOON);
    assert!(lines[0].starts_with("info string error: Threads"), "{lines:?}");
    assert_legal(&Position::startpos(), bestmove(lines.last().unwrap()));
    gui.send("quit");
    gui.close();
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_loop_goes_on() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    // A GUI that sends a GBK path (棋谱) in a command.
    gui.to.as_ref().unwrap().send(b"setoption name Book value C:\\\xc6\xe5\xc6\xd7\n".to_vec()).unwrap();
    gui.send("isready");
    let (lines, _) = gui.until("readyok", SOON);
    assert_eq!(lines, ["info string error: a line that is not UTF-8 was ignored", "readyok"]);
    gui.send("quit");
    gui.close();
}

#[test]
fn a_position_that_is_not_utf8_leaves_no_position_and_go_still_answers() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    gui.send("position startpos moves h2e2");
    gui.to.as_ref().unwrap().send(b"position fen \xff\n".to_vec()).unwrap();
    gui.send("go depth 2");
    let (lines, _) = gui.until("bestmove", SOON);
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    gui.send("quit");
    gui.close();
}

#[test]
fn every_go_with_a_bad_value_ends_in_a_bestmove() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    // Black to move: `btime 1` is the clock that counts.
    gui.send("position startpos moves h2e2");
    let after = {
        let mut p = Position::startpos();
        p.play("h2e2".parse().unwrap()).unwrap();
        p
    };
    for (go, note) in [
        ("go depth -5", "info string depth -5 is out of range: using 1"),
        ("go depth 0", "info string depth 0 is out of range: using 1"),
        ("go movetime -1", "info string movetime -1 is out of range: using 1"),
        (
            "go wtime 99999999999999999999 btime 1",
            "info string wtime 99999999999999999999 is out of range: using 1000000000",
        ),
    ] {
        gui.send(go);
        let (lines, _) = gui.until("bestmove", SOON);
        assert_eq!(lines[0], note, "{go}: {lines:?}");
        assert_legal(&after, bestmove(lines.last().unwrap()));
    }
    for (go, error) in [
        ("go nodes 1e30", "info string error: nodes \"1e30\" is not a valid number"),
        ("go foo", "info string error: go does not know \"foo\""),
        ("go depth", "info string error: depth needs a value"),
    ] {
        gui.send(go);
        let (lines, _) = gui.until("bestmove", SOON);
        assert_eq!(lines, [error, "bestmove (none)"], "{go}");
    }
    gui.send("quit");
    gui.close();
}

#[test]
fn a_refused_go_in_ucci_answers_nobestmove_after_the_running_search() {
    let mut gui = Gui::start();
    gui.send("ucci");
    gui.until("ucciok", SOON);
    gui.send("position startpos");
    gui.send("go infinite");
    gui.until("info depth 2", SOON);
    gui.send("go time x");
    let (lines, _) = gui.until("nobestmove", SOON);
    let answers: Vec<&String> = lines.iter().filter(|l| !l.starts_with("info depth")).collect();
    assert!(answers[0].starts_with("bestmove "), "{lines:?}");
    assert_eq!(answers[1..], ["info error: time \"x\" is not a valid number", "nobestmove"]);
    gui.send("quit");
    gui.close();
}

#[test]
fn a_position_past_the_game_limit_is_refused() {
    let mut gui = Gui::start();
    gui.send("uci");
    gui.until("uciok", SOON);
    let moves: Vec<&str> = ["h0g2", "h9g7", "g2h0", "g7h9"].iter().copied().cycle().take(5000).collect();
    gui.send(&format!("position startpos moves {}", moves.join(" ")));
    gui.send("go depth 1");
    let (lines, _) = gui.until("bestmove", SOON);
    assert_eq!(
        lines,
        [
            "info string error: the game is longer than 4000 plies, the limit",
            "info string error: no position to search: the last position command was refused",
            "bestmove (none)"
        ]
    );
    gui.send("quit");
    gui.close();
}
