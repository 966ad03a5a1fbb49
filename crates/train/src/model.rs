//! The net in floating point, as it is trained: the same shape as the engine's quantised
//! [`Network`], its forward pass and gradients, its checkpoint file, and its quantisation.

use crate::samples::Sample;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::{self, Read, Write};
use xiangqi::Color;
use xiangqi_engine::nnue::features::{feature_of_code, FEATURES};
use xiangqi_engine::nnue::network::{NetError, Network, HIDDEN, QA, QB};

/// Weights are kept within ± this, so that the quantised net's integers cannot overflow.
pub const CLIP: f32 = 1.98;

/// The net's parameters in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// First layer, feature by feature, [`HIDDEN`] each.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights: the side to move's neurons, then the other side's.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
}

/// The feature indices of a sample's pieces from `view`'s side.
#[inline]
pub fn features(sample: &Sample, view: Color) -> impl Iterator<Item = usize> + '_ {
    sample.pieces().iter().map(move |&(sq, code)| feature_of_code(view, sq as usize, code))
}

/// The activation: clipped to [0, 1], squared.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// A net with small random weights.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = SmallRng::seed_from_u64(seed);
        // Scaled so that a position's 32 inputs give neurons of order 1.
        let a1 = 1.0 / (32f32).sqrt();
        let a2 = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        FloatNet {
            w1: (0..FEATURES * HIDDEN).map(|_| rng.random_range(-a1..a1) * 0.5).collect(),
            b1: (0..HIDDEN).map(|_| rng.random_range(0.0..0.2)).collect(),
            w2: (0..2 * HIDDEN).map(|_| rng.random_range(-a2..a2)).collect(),
            b2: 0.0,
        }
    }

    /// A net of zeros (a gradient's shape).
    pub fn zeros() -> FloatNet {
        FloatNet { w1: vec![0.0; FEATURES * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    /// The first layer's neurons from `view`'s side.
    fn accumulate(&self, sample: &Sample, view: Color, acc: &mut [f32; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        for f in features(sample, view) {
            let row = &self.w1[f * HIDDEN..(f + 1) * HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The net's output for a sample (the score for the side to move, in units of the
    /// engine's `SCALE` centipawns).
    pub fn forward(&self, sample: &Sample) -> f32 {
        let mut us = [0f32; HIDDEN];
        let mut them = [0f32; HIDDEN];
        self.accumulate(sample, sample.turn, &mut us);
        self.accumulate(sample, sample.turn.other(), &mut them);
        let (w_us, w_them) = self.w2.split_at(HIDDEN);
        let mut y = self.b2;
        for j in 0..HIDDEN {
            y += w_us[j] * screlu(us[j]) + w_them[j] * screlu(them[j]);
        }
        y
    }

    /// Adds the gradient of `d_loss_d_output` × output at `sample` to `grad`, and returns
    /// the output.
    pub fn backward(&self, sample: &Sample, grad: &mut FloatNet, loss_grad: impl FnOnce(f32) -> f32) -> f32 {
        let mut accs = [[0f32; HIDDEN]; 2];
        let views = [sample.turn, sample.turn.other()];
        for (acc, &view) in accs.iter_mut().zip(&views) {
            self.accumulate(sample, view, acc);
        }
        let mut y = self.b2;
        for (side, acc) in accs.iter().enumerate() {
            let w = &self.w2[side * HIDDEN..(side + 1) * HIDDEN];
            for j in 0..HIDDEN {
                y += w[j] * screlu(acc[j]);
            }
        }
        let g = loss_grad(y);
        grad.b2 += g;
        for (side, acc) in accs.iter().enumerate() {
            let mut d_acc = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[j];
                grad.w2[side * HIDDEN + j] += g * screlu(a);
                if a > 0.0 && a < 1.0 {
                    d_acc[j] = g * self.w2[side * HIDDEN + j] * 2.0 * a;
                }
            }
            for (b, d) in grad.b1.iter_mut().zip(&d_acc) {
                *b += d;
            }
            for f in features(sample, views[side]) {
                let row = &mut grad.w1[f * HIDDEN..(f + 1) * HIDDEN];
                for (w, d) in row.iter_mut().zip(&d_acc) {
                    *w += d;
                }
            }
        }
        y
    }

    /// Adds `other` to this net, parameter by parameter.
    pub fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.params_mut().into_iter().zip(other.params()) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    /// The parameters as slices (the output bias last, as a slice of one).
    pub fn params(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, core::slice::from_ref(&self.b2)]
    }

    /// The parameters as mutable slices, in the order of [`FloatNet::params`].
    pub fn params_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, core::slice::from_mut(&mut self.b2)]
    }

    /// The engine's integer net: first layer ×QA, output weights ×QB, output bias ×QA×QB.
    ///
    /// # Errors
    /// A [`NetError`] when the weights fall outside what the integers can hold (not for a
    /// net trained with clipping at [`CLIP`]).
    pub fn quantise(&self) -> Result<Network, NetError> {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let w1: Vec<i16> = self.w1.iter().map(|&x| q(x, QA)).collect();
        let b1: Vec<i16> = self.b1.iter().map(|&x| q(x, QA)).collect();
        let w2: Vec<i16> = self.w2.iter().map(|&x| q(x, QB)).collect();
        let b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        Network::from_parts(&w1, &b1, &w2, b2)
    }

    /// Writes a checkpoint: `QIXQCKPT`, then every parameter as `f32` little-endian.
    ///
    /// # Errors
    /// A write error.
    pub fn write_checkpoint(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(b"QIXQCKPT")?;
        for p in self.params() {
            for x in p {
                out.write_all(&x.to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// Reads a checkpoint [`FloatNet::write_checkpoint`] wrote.
    ///
    /// # Errors
    /// A read error, or `InvalidData` for a file that is not a checkpoint of this shape.
    pub fn read_checkpoint(input: &mut impl Read) -> io::Result<FloatNet> {
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        let mut net = FloatNet::zeros();
        let n: usize = net.params().iter().map(|p| p.len()).sum();
        if bytes.len() != 8 + 4 * n || &bytes[..8] != b"QIXQCKPT" {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "not a checkpoint of this net's shape"));
        }
        let mut values = bytes[8..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        for p in net.params_mut() {
            for x in p.iter_mut() {
                *x = values.next().expect("length checked");
            }
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameResult, Record};
    use xiangqi::Position;
    use xiangqi_engine::nnue::network::SCALE;

    fn sample(fen: &str) -> Sample {
        Sample::from_record(&Record::new(&fen.parse::<Position>().unwrap(), 0, GameResult::Draw))
    }

    #[test]
    fn the_quantised_net_scores_as_the_float_net_does() {
        let net = FloatNet::random(3);
        let q = net.quantise().unwrap();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
        ] {
            let s = sample(fen);
            let float_cp = net.forward(&s) * SCALE as f32;
            let int_cp = xiangqi_engine::nnue::accumulator::evaluate(&q, &fen.parse().unwrap()) as f32;
            assert!((float_cp - int_cp).abs() <= 3.0 + float_cp.abs() * 0.02, "{fen}: {float_cp} vs {int_cp}");
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let net = FloatNet::random(5);
        let s = sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        let mut grad = FloatNet::zeros();
        net.backward(&s, &mut grad, |_| 1.0);
        // Output weight 3, bias 7 of the first layer, and a weight of an active feature.
        let f = features(&s, s.turn).next().unwrap();
        let probes: [(usize, usize); 3] = [(2, 3), (1, 7), (0, f * HIDDEN + 7)];
        for (param, index) in probes {
            let h = 1e-3;
            let mut plus = net.clone();
            plus.params_mut()[param][index] += h;
            let mut minus = net.clone();
            minus.params_mut()[param][index] -= h;
            let numeric = (plus.forward(&s) - minus.forward(&s)) / (2.0 * h);
            let analytic = grad.params()[param][index];
            assert!((numeric - analytic).abs() < 1e-2, "param {param}[{index}]: {numeric} vs {analytic}");
        }
    }

    #[test]
    fn checkpoints_round_trip() {
        let net = FloatNet::random(9);
        let mut bytes = Vec::new();
        net.write_checkpoint(&mut bytes).unwrap();
        assert_eq!(FloatNet::read_checkpoint(&mut bytes.as_slice()).unwrap(), net);
        assert!(FloatNet::read_checkpoint(&mut &bytes[..100]).is_err());
    }
}
