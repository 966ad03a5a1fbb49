//! Texel tuning: fitting the evaluation's [`Weights`] to game results.
//!
//! Each quiet position of a game is labelled with the game's result for Red (1, ½ or 0). The
//! evaluation `e` (Red's view) predicts that result as `1 / (1 + 10^(-k e / 400))`; the tuner
//! changes one weight at a time by a small step while the mean squared error of the
//! predictions falls (a local search, as Peter Österlund described for Texel), fitting the
//! scale `k` again after every round: with `k` fixed, making every value larger would pass
//! for a better fit. Positions in check or with a capture that wins material
//! by exchange are left out: their static evaluation says little about them.
//!
//! ```
//! use xiangqi::Position;
//! use xiangqi_engine::tune::{samples, tune};
//! use xiangqi_engine::Weights;
//! // Red's extra rook won this (made-up) game: positions from it teach that a rook is worth much.
//! let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
//! let moves: Vec<_> = ["a1a2", "d9d8", "a2a3", "d8d9"].iter().map(|m| m.parse().unwrap()).collect();
//! let data = samples(&start, &moves, 1.0, 0);
//! assert_eq!(data.len(), 5);
//! let tuned = tune(&data, Weights::DEFAULT, 2, |_, _| {});
//! assert!(tuned.loss_after <= tuned.loss_before);
//! ```

use crate::eval::evaluate_with;
use crate::see::see;
use crate::Weights;
use xiangqi::{Color, Move, Position};

/// A position and the result of its game for Red (1 won, 0.5 drawn, 0 lost).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub position: Position,
    /// The game's result for Red.
    pub red_score: f64,
}

/// The positions of a game worth learning from: those after the first `skip` plies (an
/// opening book's), not in check and quiet, each with the game's result for Red. `moves`
/// must be legal in turn from `start`.
pub fn samples(start: &Position, moves: &[Move], red_score: f64, skip: usize) -> Vec<Sample> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for ply in 0..=moves.len() {
        if ply >= skip && is_quiet(&pos) {
            out.push(Sample { position: pos.clone(), red_score });
        }
        if let Some(&m) = moves.get(ply) {
            pos.play_unchecked(m);
        }
    }
    out
}

/// Not in check, and no capture wins material by exchange.
fn is_quiet(pos: &Position) -> bool {
    !pos.is_check() && !pos.legal_captures().iter().any(|&m| see(pos, m) > 0)
}

/// The evaluation from Red's view.
fn red_eval(pos: &Position, weights: &Weights) -> f64 {
    let e = evaluate_with(pos, weights) as f64;
    if pos.turn() == Color::Red {
        e
    } else {
        -e
    }
}

/// The mean squared error of the predicted results with `weights` and scale `k`.
pub fn loss(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * red_eval(&s.position, weights) / 400.0));
            (s.red_score - predicted).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// The scale `k` (between 0.05 and 4) that fits `weights` best, by golden-section search.
pub fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (loss(samples, weights, a), loss(samples, weights, b));
    for _ in 0..40 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - g * (hi - lo);
            fa = loss(samples, weights, a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + g * (hi - lo);
            fb = loss(samples, weights, b);
        }
    }
    (lo + hi) / 2.0
}

/// What [`tune`] found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The fitted weights.
    pub weights: Weights,
    /// The scale `k` fitted to the final weights.
    pub scale: f64,
    /// The error with the starting weights (and the scale fitted to them).
    pub loss_before: f64,
    /// The error with the fitted weights (never more than `loss_before`).
    pub loss_after: f64,
    /// Rounds over all weights that were run.
    pub rounds: usize,
}

/// Fits `start` to `samples`: at most `max_rounds` rounds, each trying every tunable weight
/// one step up and down (a step is about 5 % of the value, at least 1) and keeping what
/// lowers the error; it stops early when a round changes nothing. `progress` hears the round
/// and the error after it.
pub fn tune(samples: &[Sample], start: Weights, max_rounds: usize, mut progress: impl FnMut(usize, f64)) -> Tuned {
    let mut k = fit_scale(samples, &start);
    let loss_before = loss(samples, &start, k);
    let mut best = start;
    let mut best_loss = loss_before;
    let mut rounds = 0;
    while rounds < max_rounds {
        rounds += 1;
        let mut improved = false;
        for i in 0..best.values().len() {
            if !Weights::tunable(i) {
                continue;
            }
            let step = (best.values()[i].abs() / 20).max(1);
            for delta in [step, -step] {
                let mut trial = best;
                trial.values_mut()[i] += delta;
                let l = loss(samples, &trial, k);
                if l < best_loss {
                    (best, best_loss, improved) = (trial, l, true);
                    break;
                }
            }
        }
        k = fit_scale(samples, &best);
        best_loss = loss(samples, &best, k);
        progress(rounds, best_loss);
        if !improved {
            break;
        }
    }
    Tuned { weights: best, scale: k, loss_before, loss_after: best_loss, rounds }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_and_checks_are_left_out() {
        // Red to move can take a free rook: not quiet. After the capture nothing is left to take.
        let start: Position = "3k5/9/9/9/9/9/9/r8/9/R3K4 w - - 0 1".parse().unwrap();
        assert!(!is_quiet(&start));
        let moves = ["a0a2".parse().unwrap()];
        let data = samples(&start, &moves, 1.0, 0);
        assert_eq!(data.len(), 1);
        assert_eq!(data[0].position.turn(), Color::Black);
    }

    #[test]
    fn the_fitted_scale_is_where_the_error_is_least() {
        let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
        let lost: Position = "3k5/9/9/9/9/9/9/9/r8/4K4 w - - 0 1".parse().unwrap();
        let mut data = samples(&start, &[], 1.0, 0);
        data.extend(samples(&lost, &[], 0.0, 0));
        data.extend(samples(&start, &[], 0.5, 0));
        let k = fit_scale(&data, &Weights::DEFAULT);
        let at = |k: f64| loss(&data, &Weights::DEFAULT, k);
        assert!(at(k) <= at(k * 1.2) && at(k) <= at(k / 1.2), "k = {k}");
    }
}
