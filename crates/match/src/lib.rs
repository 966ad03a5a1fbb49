#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod game;
mod openings;
pub mod process;
pub mod stats;
mod tally;

pub use game::Finished;
pub use openings::{read_openings, Opening};
pub use tally::{Summary, Tally};

use anyhow::{bail, Context, Result};
use process::{EngineProcess, EngineSpec};
use stats::{Sprt, Verdict};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use xiangqi::outcome::Rules;

/// How long the engines may think.
#[derive(Clone, Copy, Debug)]
pub enum Control {
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
    /// A node count per move (`go nodes`).
    Nodes(u64),
    /// A clock per game: `base` at the start, `inc` added after each move.
    Clock {
        /// Each side's time at the start.
        base: Duration,
        /// Added to the mover's clock after each move.
        inc: Duration,
    },
}

/// Reads a time control: `100ms`, `2s`, `1.5s`, or `10+0.1` (seconds + increment).
///
/// # Errors
///
/// A message naming `--tc` when the text is none of these, is out of range (0 to 86,400 s)
/// or gives less than a millisecond.
pub fn parse_tc(tc: &str) -> Result<Control> {
    let secs = |s: &str| -> Result<Duration> {
        let v: f64 = s.trim().parse().with_context(|| format!("bad time {s:?} in --tc"))?;
        if !(0.0..=86_400.0).contains(&v) {
            bail!("time {v} in --tc is out of range (0 to 86400 s)");
        }
        Ok(Duration::from_secs_f64(v))
    };
    let control = if let Some((base, inc)) = tc.split_once('+') {
        Control::Clock { base: secs(base)?, inc: secs(inc)? }
    } else if let Some(ms) = tc.strip_suffix("ms") {
        Control::MoveTime(secs(ms)? / 1000)
    } else if let Some(s) = tc.strip_suffix('s') {
        Control::MoveTime(secs(s)?)
    } else {
        bail!("--tc {tc:?}: give a time per move (100ms, 2s) or a clock (10+0.1)")
    };
    match control {
        Control::MoveTime(t) | Control::Clock { base: t, .. } if t < Duration::from_millis(1) => {
            bail!("--tc {tc:?} gives no time to think")
        }
        c => Ok(c),
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The first and the second engine.
    pub engines: [EngineSpec; 2],
    /// How long they may think.
    pub control: Control,
    /// How far past its time an engine may answer before it loses on time.
    pub margin: Duration,
    /// With [`Control::Nodes`]: how long a move may take before the engine loses.
    pub move_timeout: Duration,
    /// The game-end rules (the move limit).
    pub rules: Rules,
    /// Adjudicate a draw after this many plies (0: never).
    pub max_plies: usize,
    /// Where games start; game `i` plays opening `(i / 2) % len`, the first engine Red in even games.
    pub openings: Vec<Opening>,
    /// Games to play (fewer when the SPRT decides).
    pub games: usize,
    /// Games played at the same time (at least 1).
    pub concurrency: usize,
    /// Stop once this test decides.
    pub sprt: Option<Sprt>,
}

/// A match whose engines answered: [`Match::new`] starts each engine once (for its name;
/// this also checks the commands work), [`Match::play`] plays the games.
#[derive(Debug)]
pub struct Match {
    settings: Settings,
    names: Vec<String>,
    interrupt: Interrupt,
}

/// Ends a match early from another thread (a signal handler, say): no game starts after
/// [`Interrupt::stop`], the games being played are abandoned before their next move (an
/// unfinished game is not counted), and [`Match::play`] returns the summary of the finished
/// ones, marked [`Summary::interrupted`].
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// Asks the match to end.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Interrupt::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl Match {
    /// Starts each engine once to learn its name (or takes the name given in its spec).
    ///
    /// # Errors
    ///
    /// When an engine does not start or misses its handshake.
    pub fn new(settings: Settings) -> Result<Match> {
        let mut names = Vec::new();
        for e in &settings.engines {
            let engine = EngineProcess::start(e).with_context(|| format!("engine {:?}", e.command.join(" ")))?;
            names.push(engine.name.clone());
        }
        Ok(Match { settings, names, interrupt: Interrupt::default() })
    }

    /// A handle that ends this match early (see [`Interrupt`]).
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// The engines' names for reports, first and second.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Plays the games on `settings.concurrency` threads. After each game, in the order they
    /// finish, `on_game` gets it and the tally so far. `pgn`, when given, receives every game
    /// as PGN in game order.
    ///
    /// # Errors
    ///
    /// When writing the PGN fails.
    pub fn play(self, pgn: Option<&mut dyn Write>, on_game: impl FnMut(&Finished, &Tally)) -> Result<Summary> {
        play(self.settings, self.names, self.interrupt, pgn, on_game)
    }
}

fn play(
    settings: Settings,
    names: Vec<String>,
    interrupt: Interrupt,
    mut pgn: Option<&mut dyn Write>,
    mut on_game: impl FnMut(&Finished, &Tally),
) -> Result<Summary> {
    let total = settings.games;
    let sprt = settings.sprt;
    let concurrency = settings.concurrency.max(1).min(total);
    let setup = Arc::new(settings);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let names = Arc::new(names);
    let (tx, rx) = mpsc::channel();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (setup, next, stop, names, tx) = (setup.clone(), next.clone(), stop.clone(), names.clone(), tx.clone());
            let interrupt = interrupt.clone();
            std::thread::spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= total || stop.load(Ordering::SeqCst) || interrupt.is_stopped() {
                    break;
                }
                let opening = &setup.openings[(index / 2) % setup.openings.len()];
                let Some(finished) = game::play_game(&setup, &names, opening, index, &interrupt) else { break };
                if tx.send(finished).is_err() {
                    break;
                }
            })
        })
        .collect();
    drop(tx);

    let mut tally = Tally::default();
    let mut verdict = Verdict::Continue;
    let started = Instant::now();
    // Games finish out of order; the PGN file gets them in order.
    let mut pending: BTreeMap<usize, String> = BTreeMap::new();
    let mut written = 0;
    for f in rx {
        tally.add(&f);
        on_game(&f, &tally);
        pending.insert(f.index, f.pgn);
        if let Some(out) = pgn.as_mut() {
            while let Some(text) = pending.remove(&written) {
                out.write_all(text.as_bytes()).context("writing the PGN file")?;
                written += 1;
            }
        }
        if let Some(s) = &sprt {
            verdict = s.verdict_after(verdict, &tally.wdl);
            if verdict != Verdict::Continue {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    if let Some(out) = pgn.as_mut() {
        for text in pending.values() {
            out.write_all(text.as_bytes()).context("writing the PGN file")?;
        }
    }
    let names = Arc::try_unwrap(names).unwrap_or_else(|n| (*n).clone());
    // A stop that came after the last game cut nothing short.
    let interrupted = interrupt.is_stopped() && (tally.wdl.games() as usize) < total;
    Ok(Summary { names, tally, sprt: sprt.map(|s| (s, verdict)), elapsed: started.elapsed(), interrupted })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_read() {
        assert!(matches!(parse_tc("100ms").unwrap(), Control::MoveTime(t) if t == Duration::from_millis(100)));
        assert!(matches!(parse_tc("1.5s").unwrap(), Control::MoveTime(t) if t == Duration::from_millis(1500)));
        assert!(matches!(parse_tc("10+0.1").unwrap(),
            Control::Clock { base, inc } if base == Duration::from_secs(10) && inc == Duration::from_millis(100)));
        for bad in ["", "100", "abc", "0ms", "-1s", "1e9s", "5+x"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
