//! Match statistics: the Elo difference with its 95 % interval, and the sequential probability
//! ratio test that stops a match once it has decided between two Elo hypotheses.
//!
//! Both use the logistic Elo model and the trinomial (win/draw/loss) variance of one game's
//! score; the SPRT's log-likelihood ratio is the usual normal approximation of the
//! generalised SPRT (as fishtest and fastchess compute it).

/// Wins, draws and losses from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// The expected score of a side `elo` points stronger.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `score` (0 < score < 1).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0 to 1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)
    }

    /// The Elo difference and its 95 % interval `(elo, low, high)`. A score of 0 or 1 gives
    /// infinite values, as it should: the data bound the difference on one side only.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let margin = 1.959964 * (self.variance() / n).sqrt();
        let clamp = |s: f64| s.clamp(0.0, 1.0);
        (elo_of(p), elo_of(clamp(p - margin)), elo_of(clamp(p + margin)))
    }

    /// The log-likelihood ratio of "the first engine is `elo1` stronger" against "`elo0`".
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// A sequential probability ratio test between `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not decided yet: play on.
    Continue,
    /// H1: the first engine is at least `elo1` stronger.
    AcceptH1,
    /// H0: it is at most `elo0` stronger.
    AcceptH0,
}

impl Sprt {
    /// The stopping bounds of the log-likelihood ratio `(lower, upper)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict after one more game, given the one before it: the first bound crossed
    /// decides and stays. The games under way when the test stops still finish and are
    /// counted, and one of them must not undo the decision (it did once: an LLR of 3.03
    /// reported as 2.93, "continue").
    pub fn verdict_after(&self, so_far: Verdict, wdl: &Wdl) -> Verdict {
        match so_far {
            Verdict::Continue => self.verdict(wdl),
            decided => decided,
        }
    }

    /// What the test says after `wdl`.
    pub fn verdict(&self, wdl: &Wdl) -> Verdict {
        let llr = wdl.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::AcceptH1
        } else if llr <= lower {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

/// Reads `elo0,elo1`.
///
/// # Errors
///
/// A message when the text is not two finite numbers with `elo0 < elo1`.
pub fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected elo0,elo1 (for example 0,10)")?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| format!("bad elo0 {a:?}"))?,
        b.trim().parse().map_err(|_| format!("bad elo1 {b:?}"))?,
    );
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(format!("need finite elo0 < elo1, got {a} and {b}"));
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let wdl = Wdl { wins: 30, draws: 40, losses: 30 };
        let (elo, low, high) = wdl.elo();
        assert!(elo.abs() < 1e-9);
        assert!(low < 0.0 && high > 0.0 && (low + high).abs() < 1e-6);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -100.0, 0.0, 35.0, 200.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-9);
        }
        // 75 % is about +191 Elo.
        assert!((elo_of(0.75) - 190.85).abs() < 0.01);
    }

    #[test]
    fn sprt_decides_clear_results() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(sprt.verdict(&Wdl { wins: 10, draws: 10, losses: 10 }), Verdict::Continue);
        assert_eq!(sprt.verdict(&Wdl { wins: 300, draws: 100, losses: 100 }), Verdict::AcceptH1);
        assert_eq!(sprt.verdict(&Wdl { wins: 100, draws: 100, losses: 300 }), Verdict::AcceptH0);
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 0.001 && (upper - 2.944).abs() < 0.001);
    }

    #[test]
    fn a_decision_survives_the_games_that_finish_after_it() {
        // The run that found the bug: [0, 20], H1 at 807 games, two more games under way.
        let sprt = Sprt { elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05 };
        let crossed = Wdl { wins: 281, draws: 301, losses: 225 };
        let after = Wdl { wins: 281, draws: 302, losses: 226 };
        assert_eq!(sprt.verdict(&crossed), Verdict::AcceptH1);
        assert_eq!(sprt.verdict(&after), Verdict::Continue);
        let kept = sprt.verdict_after(sprt.verdict_after(Verdict::Continue, &crossed), &after);
        assert_eq!(kept, Verdict::AcceptH1);
        assert_eq!(sprt.verdict_after(Verdict::Continue, &after), Verdict::Continue);
    }

    #[test]
    fn sprt_bounds_are_read() {
        assert_eq!(parse_sprt("0,10"), Ok((0.0, 10.0)));
        assert_eq!(parse_sprt(" -5 , 5 "), Ok((-5.0, 5.0)));
        assert!(parse_sprt("10,0").is_err());
        assert!(parse_sprt("x,1").is_err());
        assert!(parse_sprt("3").is_err());
    }
}
