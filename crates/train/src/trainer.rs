//! Training: Adam on the squared error between the net's win probability and a blend of the
//! search score's and the game result's, over shuffled mini-batches on every core.

use crate::model::{FloatNet, CLIP};
use crate::samples::Sample;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::time::Instant;
use xiangqi_engine::nnue::network::SCALE;

/// How to train.
#[derive(Clone, Debug)]
pub struct Options {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's learning rate at the start; it drops to a tenth after 60 % of the epochs and to
    /// a hundredth after 85 %.
    pub lr: f32,
    /// The share of the target that is the game's result (the rest is the search's score).
    pub wdl: f32,
    /// Seed of the shuffles.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { epochs: 20, batch: 16_384, lr: 0.001, wdl: 0.3, seed: 1 }
    }
}

/// What one epoch did.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// The epoch's number, from 1.
    pub epoch: usize,
    /// The mean loss over the epoch's training batches.
    pub train_loss: f64,
    /// The loss on the held-back samples after the epoch.
    pub validation_loss: f64,
    /// The learning rate used.
    pub lr: f32,
    /// Seconds the epoch took.
    pub seconds: f64,
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target win probability of a sample for the side to move.
#[inline]
fn target(s: &Sample, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(f32::from(s.score) / SCALE as f32) + wdl * s.result
}

/// The mean loss of `net` on `samples`.
pub fn loss(net: &FloatNet, samples: &[Sample], wdl: f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_iter()
        .map(|s| {
            let e = sigmoid(net.forward(s)) - target(s, wdl);
            f64::from(e * e)
        })
        .sum();
    total / samples.len() as f64
}

/// Adam's moments, one per parameter.
struct Adam {
    m: FloatNet,
    v: FloatNet,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, grad: &FloatNet, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let params = net.params_mut();
        let moments = self.m.params_mut().into_iter().zip(self.v.params_mut());
        for ((p, g), (m, v)) in params.into_iter().zip(grad.params()).zip(moments) {
            for i in 0..p.len() {
                m[i] = B1 * m[i] + (1.0 - B1) * g[i];
                v[i] = B2 * v[i] + (1.0 - B2) * g[i] * g[i];
                let update = lr * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
                p[i] = (p[i] - update).clamp(-CLIP, CLIP);
            }
        }
    }
}

/// Trains `net` on `samples` (shuffled in place), reporting each epoch to `on_epoch` with the
/// net as it then is (to write checkpoints); `validation` is only measured.
pub fn train(
    net: &mut FloatNet,
    samples: &mut [Sample],
    validation: &[Sample],
    options: &Options,
    mut on_epoch: impl FnMut(&Epoch, &FloatNet),
) {
    let mut adam = Adam { m: FloatNet::zeros(), v: FloatNet::zeros(), t: 0 };
    let mut rng = SmallRng::seed_from_u64(options.seed);
    let threads = rayon::current_num_threads().max(1);
    for epoch in 1..=options.epochs {
        let started = Instant::now();
        let progress = (epoch - 1) as f32 / options.epochs as f32;
        let lr = options.lr
            * if progress >= 0.85 {
                0.01
            } else if progress >= 0.6 {
                0.1
            } else {
                1.0
            };
        samples.shuffle(&mut rng);
        let mut total = 0.0f64;
        for batch in samples.chunks(options.batch.max(1)) {
            let scale = 1.0 / batch.len() as f32;
            let chunk = batch.len().div_ceil(threads);
            let (grad, batch_loss) = batch
                .par_chunks(chunk)
                .map(|part| {
                    let mut grad = FloatNet::zeros();
                    let mut sum = 0.0f64;
                    for s in part {
                        let t = target(s, options.wdl);
                        net.backward(s, &mut grad, |y| {
                            let p = sigmoid(y);
                            sum += f64::from((p - t) * (p - t));
                            2.0 * (p - t) * p * (1.0 - p) * scale
                        });
                    }
                    (grad, sum)
                })
                .reduce_with(|(mut g1, l1), (g2, l2)| {
                    g1.add(&g2);
                    (g1, l1 + l2)
                })
                .expect("a batch has samples");
            adam.step(net, &grad, lr);
            total += batch_loss;
        }
        let report = Epoch {
            epoch,
            train_loss: total / samples.len().max(1) as f64,
            validation_loss: loss(net, validation, options.wdl),
            lr,
            seconds: started.elapsed().as_secs_f64(),
        };
        on_epoch(&report, net);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameResult, Record};
    use xiangqi::Position;

    /// Positions after a few moves, labelled with a score that is the material balance: the
    /// net must learn to tell them apart.
    fn material_samples() -> Vec<Sample> {
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        let moves = ["h2e2", "h9g7", "b2b9", "a9b9", "h0g2", "i9i8", "e2e6", "g6g5"];
        for (i, m) in moves.iter().enumerate() {
            pos.play(m.parse().unwrap()).unwrap();
            let red = pos.pieces().filter(|(_, p)| p.color == xiangqi::Color::Red).count() as i16;
            let black = pos.pieces().count() as i16 - red;
            let red_score = (red - black) * 300;
            let score = if pos.turn() == xiangqi::Color::Red { red_score } else { -red_score };
            let result = [GameResult::RedWin, GameResult::Draw, GameResult::BlackWin][i % 3];
            out.push(Sample::from_record(&Record::new(&pos, score, result)));
        }
        out
    }

    #[test]
    fn training_lowers_the_loss() {
        let mut samples = material_samples();
        let validation = samples.clone();
        let mut net = FloatNet::random(11);
        let before = loss(&net, &validation, 0.0);
        let options = Options { epochs: 60, batch: 4, lr: 0.01, wdl: 0.0, seed: 2 };
        let mut epochs = 0;
        train(&mut net, &mut samples, &validation, &options, |_, _| epochs += 1);
        let after = loss(&net, &validation, 0.0);
        assert_eq!(epochs, 60);
        assert!(after < before / 4.0, "loss {before} -> {after}");
    }
}
