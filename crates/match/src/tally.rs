//! What a match adds up to: the running [`Tally`] and the final [`Summary`].

use crate::stats::{Sprt, Verdict, Wdl};
use crate::Finished;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The games so far, added up.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Wins, draws and losses from the first engine's view.
    pub wdl: Wdl,
    /// How many games ended each way ([`Finished::termination`]).
    pub terminations: BTreeMap<String, u32>,
    /// Depth of every move of the first and second engine.
    pub depths: [Vec<u32>; 2],
    /// Nodes of every move of the first and second engine.
    pub nodes: [Vec<u64>; 2],
    /// Time the first and second engine spent thinking.
    pub think: [Duration; 2],
}

impl Tally {
    /// Counts one more game.
    pub fn add(&mut self, f: &Finished) {
        match f.points_first {
            1.0 => self.wdl.wins += 1,
            0.0 => self.wdl.losses += 1,
            _ => self.wdl.draws += 1,
        }
        *self.terminations.entry(f.termination.clone()).or_default() += 1;
        for side in 0..2 {
            self.depths[side].extend_from_slice(&f.depths[side]);
            self.nodes[side].extend_from_slice(&f.nodes[side]);
            self.think[side] += f.think[side];
        }
    }

    /// The median depth of engine `side`'s moves (0 first, 1 second); `None` before any.
    pub fn median_depth(&self, side: usize) -> Option<u32> {
        let mut d = self.depths[side].clone();
        d.sort_unstable();
        d.get(d.len() / 2).copied()
    }

    /// Engine `side`'s nodes per second of thinking; `None` without node counts or time.
    pub fn nps(&self, side: usize) -> Option<u64> {
        let secs = self.think[side].as_secs_f64();
        let nodes = &self.nodes[side];
        (secs > 0.0 && !nodes.is_empty()).then(|| (nodes.iter().sum::<u64>() as f64 / secs).round() as u64)
    }
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The engines' names, first and second.
    pub names: Vec<String>,
    /// All games.
    pub tally: Tally,
    /// The SPRT and what it said at the end.
    pub sprt: Option<(Sprt, Verdict)>,
    /// How long the games took.
    pub elapsed: Duration,
    /// Whether the match was ended early by an [`Interrupt`](crate::Interrupt): the games
    /// are the finished ones, fewer than asked for.
    pub interrupted: bool,
}

impl Summary {
    /// The SPRT's part of the report: bounds, log-likelihood ratio, verdict (`continue`, `H1`, `H0`).
    fn sprt_json(&self) -> Option<Value> {
        let wdl = &self.tally.wdl;
        self.sprt.map(|(s, v)| {
            let (lower, upper) = s.bounds();
            json!({
                "elo0": s.elo0, "elo1": s.elo1, "llr": (wdl.llr(s.elo0, s.elo1) * 1000.0).round() / 1000.0,
                "lower": lower, "upper": upper,
                "verdict": match v { Verdict::Continue => "continue", Verdict::AcceptH1 => "H1", Verdict::AcceptH0 => "H0" },
            })
        })
    }

    /// The report as one JSON object: `engines`, `games`, `wins`, `draws`, `losses`, `score`,
    /// `elo`, `elo_low`, `elo_high` (null when infinite), `sprt`, `terminations`,
    /// `median_depth`, `nps`, `seconds`, `interrupted`.
    pub fn json(&self) -> Value {
        let (t, wdl) = (&self.tally, &self.tally.wdl);
        let (elo, low, high) = wdl.elo();
        let finite = |x: f64| if x.is_finite() { json!((x * 10.0).round() / 10.0) } else { json!(null) };
        json!({
            "engines": self.names,
            "games": wdl.games(), "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
            "score": (wdl.score() * 10000.0).round() / 10000.0,
            "elo": finite(elo), "elo_low": finite(low), "elo_high": finite(high),
            "sprt": self.sprt_json(),
            "terminations": t.terminations,
            "median_depth": [t.median_depth(0), t.median_depth(1)],
            "nps": [t.nps(0), t.nps(1)],
            "seconds": self.elapsed.as_secs_f64().round(),
            "interrupted": self.interrupted,
        })
    }
}

impl fmt::Display for Summary {
    /// The report for people: names and games, W/D/L with score and Elo, the SPRT, then one
    /// line per termination and per engine (each line ends in a newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, wdl, names) = (&self.tally, &self.tally.wdl, &self.names);
        let (elo, low, high) = wdl.elo();
        let interrupted = if self.interrupted { " (interrupted)" } else { "" };
        writeln!(
            f,
            "{} vs {}: {} games in {:.0} s{interrupted}",
            names[0],
            names[1],
            wdl.games(),
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "+{} ={} -{}  score {:.1} %  Elo {elo:+.1} (95 %: {low:+.1} to {high:+.1})",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * wdl.score()
        )?;
        if let Some(s) = self.sprt_json() {
            writeln!(
                f,
                "SPRT [{}, {}]: LLR {} (bounds {:.2}, {:.2}): {}",
                s["elo0"], s["elo1"], s["llr"], s["lower"], s["upper"], s["verdict"]
            )?;
        }
        for (reason, n) in &t.terminations {
            writeln!(f, "  {reason}: {n}")?;
        }
        for (side, name) in names.iter().enumerate().take(2) {
            writeln!(
                f,
                "  {name}: median depth {}, {} nodes/s",
                t.median_depth(side).map_or("-".into(), |d| d.to_string()),
                t.nps(side).map_or("-".into(), |n| n.to_string())
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_a_line_per_termination_and_engine() {
        let tally = Tally {
            wdl: Wdl { wins: 1, draws: 1, losses: 0 },
            terminations: [("checkmate".to_string(), 1)].into(),
            depths: [vec![3, 5, 4], vec![]],
            nodes: [vec![1000, 1000], vec![]],
            think: [Duration::from_secs(2), Duration::ZERO],
        };
        let summary = Summary {
            names: vec!["a".into(), "b".into()],
            tally,
            sprt: None,
            elapsed: Duration::ZERO,
            interrupted: false,
        };
        let text = summary.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "a vs b: 2 games in 0 s");
        assert!(lines[1].starts_with("+1 =1 -0  score 75.0 %"), "{text}");
        assert_eq!(
            &lines[2..],
            ["  checkmate: 1", "  a: median depth 4, 1000 nodes/s", "  b: median depth -, - nodes/s"]
        );
        assert!(text.ends_with('\n'));
        let json = summary.json();
        assert_eq!((json["games"].as_u64(), json["median_depth"][0].as_u64()), (Some(2), Some(4)));
        assert_eq!(json["nps"], serde_json::json!([1000, null]));
    }
}
