//! Training a network ([`super::net`]) on positions, on the CPU, all cores.
//!
//! Each sample is a position's active inputs from both perspectives (the
//! side to move's first) and a target: `λ·σ(score/400) + (1 − λ)·result`,
//! the side to move's search score and game result. The model is the
//! network in floating point: an accumulator per perspective (a bias plus
//! one weight row per active input: sparse, as the inputs are), the
//! activation, the output; its prediction `σ(output · SCALE / 400)` is
//! compared with the target by squared error. Gradients are exact (checked
//! against finite differences in the tests), summed over a batch on every
//! core, and followed by AdamW; weights stay within what the integer
//! network holds. [`Model::quantised`] gives the network to write.

use super::inputs::InputSet;
use super::net::{Activation, Network, QA, QB, SCALE, definition_hash};
use ajaxlab_rules::{Color, Position, Variant};

/// The largest input or output weight: what i16 holds on the scale `QA`
/// (and the accumulators' headroom over many active inputs).
const WEIGHT_LIMIT: f32 = 1.98;

/// One training position: its inputs and its target.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Active inputs from the side to move's perspective.
    pub ours: Vec<u16>,
    /// Active inputs from the other side's.
    pub theirs: Vec<u16>,
    /// The target: the side to move's expected score in `[0, 1]`.
    pub target: f32,
}

impl Sample {
    /// The sample of `pos` whose side to move scored `score` centipawns
    /// (its search) and `result` (the game's: 1, 0.5, 0), blended by
    /// `lambda` (1: the score alone, 0: the result alone).
    pub fn of(inputs: &InputSet, pos: &Position, score: i32, result: f32, lambda: f32) -> Sample {
        let us = pos.side_to_move();
        let list = |perspective: Color| {
            inputs
                .active(pos, perspective)
                .into_iter()
                .map(|i| u16::try_from(i).unwrap_or(u16::MAX))
                .collect()
        };
        Sample {
            ours: list(us),
            theirs: list(!us),
            target: lambda * sigmoid(score as f32 / 400.0) + (1.0 - lambda) * result,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network in floating point, with AdamW's moments.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    inputs: usize,
    hidden: usize,
    activation: Activation,
    /// Every parameter: input weights (`inputs × hidden`), hidden biases,
    /// output weights (`2 × hidden`), output bias.
    params: Vec<f32>,
    first_moment: Vec<f32>,
    second_moment: Vec<f32>,
    steps: u64,
}

/// How a model learns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Optimiser {
    /// AdamW's learning rate.
    pub learning_rate: f32,
    /// AdamW's weight decay (of the weights, not the biases).
    pub weight_decay: f32,
}

impl Default for Optimiser {
    fn default() -> Self {
        Optimiser {
            learning_rate: 0.001,
            weight_decay: 0.01,
        }
    }
}

impl Model {
    /// A model of `inputs` inputs and `hidden` units, its weights drawn from
    /// `seed` (Kaiming-like: small enough that the accumulators start inside
    /// the activation's range).
    pub fn new(inputs: usize, hidden: usize, activation: Activation, seed: u64) -> Model {
        let n = inputs * hidden + hidden + 2 * hidden + 1;
        let mut state = seed;
        let mut uniform = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        };
        let output_scale = 1.0 / (hidden as f32).sqrt();
        let mut params = vec![0.0; n];
        for (i, p) in params.iter_mut().enumerate() {
            *p = if i < inputs * hidden {
                0.1 * uniform()
            } else if i < inputs * hidden + hidden {
                0.1 + 0.05 * uniform()
            } else if i < n - 1 {
                output_scale * uniform()
            } else {
                0.0
            };
        }
        Model {
            inputs,
            hidden,
            activation,
            params,
            first_moment: vec![0.0; n],
            second_moment: vec![0.0; n],
            steps: 0,
        }
    }

    fn output_weights_at(&self) -> usize {
        self.inputs * self.hidden + self.hidden
    }

    fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        let bias = self.inputs * h;
        acc.copy_from_slice(&self.params[bias..bias + h]);
        for &i in active {
            let row = &self.params[usize::from(i) * h..(usize::from(i) + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    fn activate(&self, x: f32) -> (f32, f32) {
        let c = x.clamp(0.0, 1.0);
        let inside = if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
        match self.activation {
            Activation::CReLU => (c, inside),
            Activation::SCReLU => (c * c, 2.0 * c * inside),
        }
    }

    /// The prediction for `sample`, in `[0, 1]`.
    pub fn predict(&self, sample: &Sample) -> f32 {
        let mut scratch = Scratch::new(self.hidden);
        self.forward(sample, &mut scratch)
    }

    /// The squared error of `sample`.
    pub fn loss(&self, sample: &Sample) -> f32 {
        let d = self.predict(sample) - sample.target;
        d * d
    }

    fn forward(&self, sample: &Sample, s: &mut Scratch) -> f32 {
        self.accumulate(&sample.ours, &mut s.acc[0]);
        self.accumulate(&sample.theirs, &mut s.acc[1]);
        let w = self.output_weights_at();
        let h = self.hidden;
        let mut out = self.params[w + 2 * h];
        for side in 0..2 {
            for u in 0..h {
                out += self.activate(s.acc[side][u]).0 * self.params[w + side * h + u];
            }
        }
        sigmoid(out * SCALE as f32 / 400.0)
    }

    /// Adds the gradient of `sample`'s squared error to `gradient`; returns
    /// the error.
    fn backward(&self, sample: &Sample, s: &mut Scratch, gradient: &mut [f32]) -> f32 {
        let predicted = self.forward(sample, s);
        let error = predicted - sample.target;
        let g = 2.0 * error * predicted * (1.0 - predicted) * SCALE as f32 / 400.0;
        let (h, w) = (self.hidden, self.output_weights_at());
        let bias = self.inputs * h;
        gradient[w + 2 * h] += g;
        for (side, active) in [&sample.ours, &sample.theirs].into_iter().enumerate() {
            for u in 0..h {
                let (a, slope) = self.activate(s.acc[side][u]);
                gradient[w + side * h + u] += g * a;
                s.delta[u] = g * self.params[w + side * h + u] * slope;
            }
            for u in 0..h {
                gradient[bias + u] += s.delta[u];
            }
            for &i in active {
                let row = &mut gradient[usize::from(i) * h..(usize::from(i) + 1) * h];
                for (r, d) in row.iter_mut().zip(&s.delta) {
                    *r += d;
                }
            }
        }
        error * error
    }

    /// The mean squared error of `samples` and its gradient, over `threads`
    /// threads (the same sum whatever their number: each thread's share is
    /// a fixed chunk, added in order).
    pub fn gradient(&self, samples: &[Sample], threads: usize) -> (f32, Vec<f32>) {
        let n = self.params.len();
        let chunk = samples.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<(f32, Vec<f32>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut gradient = vec![0.0; n];
                        let mut s = Scratch::new(self.hidden);
                        let loss = part
                            .iter()
                            .map(|x| self.backward(x, &mut s, &mut gradient))
                            .sum::<f32>();
                        (loss, gradient)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        let mut total = vec![0.0; n];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (t, x) in total.iter_mut().zip(g) {
                *t += x;
            }
        }
        let scale = 1.0 / samples.len().max(1) as f32;
        total.iter_mut().for_each(|g| *g *= scale);
        (loss * scale, total)
    }

    /// One AdamW step on `gradient`; weights kept within what the integer
    /// network holds.
    pub fn step(&mut self, gradient: &[f32], optimiser: Optimiser) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        self.steps += 1;
        let t = self.steps as i32;
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        let weights = self.inputs * self.hidden;
        let output = self.output_weights_at();
        for (i, &g) in gradient.iter().enumerate() {
            let m = &mut self.first_moment[i];
            let v = &mut self.second_moment[i];
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let p = &mut self.params[i];
            let is_weight = i < weights || (output..output + 2 * self.hidden).contains(&i);
            if is_weight {
                *p -= optimiser.learning_rate * optimiser.weight_decay * *p;
            }
            *p -= optimiser.learning_rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            if is_weight {
                *p = p.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
            }
        }
    }

    /// The integer network of this model for `variant`.
    pub fn quantised(&self, variant: &Variant) -> Network {
        let q = |x: f32, scale: i32| {
            (x * scale as f32)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        };
        let h = self.hidden;
        let w = self.output_weights_at();
        Network {
            variant: variant.name().to_owned(),
            variant_hash: definition_hash(variant),
            inputs: self.inputs,
            hidden: h,
            activation: self.activation,
            input_weights: self.params[..self.inputs * h]
                .iter()
                .map(|&x| q(x, QA))
                .collect(),
            input_bias: self.params[self.inputs * h..w]
                .iter()
                .map(|&x| q(x, QA))
                .collect(),
            output_weights: self.params[w..w + 2 * h]
                .iter()
                .map(|&x| q(x, QB))
                .collect(),
            output_bias: (self.params[w + 2 * h] * (QA * QB) as f32).round() as i32,
        }
    }

    /// The parameters, for a checkpoint.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for n in [self.inputs, self.hidden] {
            out.extend_from_slice(&(n as u64).to_le_bytes());
        }
        out.push(u8::from(self.activation == Activation::SCReLU));
        out.extend_from_slice(&self.steps.to_le_bytes());
        for x in self
            .params
            .iter()
            .chain(&self.first_moment)
            .chain(&self.second_moment)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// A model from a checkpoint's bytes; `None` when they are not one.
    pub fn from_bytes(bytes: &[u8]) -> Option<Model> {
        let word = |at: usize| -> Option<u64> {
            Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
        };
        let inputs = usize::try_from(word(0)?).ok()?;
        let hidden = usize::try_from(word(8)?).ok()?;
        let activation = match bytes.get(16)? {
            0 => Activation::CReLU,
            1 => Activation::SCReLU,
            _ => return None,
        };
        let steps = word(17)?;
        let n = inputs.checked_mul(hidden)?.checked_add(3 * hidden + 1)?;
        let floats = bytes.get(25..)?;
        if hidden == 0 || floats.len() != 3 * n * 4 {
            return None;
        }
        let all: Vec<f32> = floats
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Some(Model {
            inputs,
            hidden,
            activation,
            params: all[..n].to_vec(),
            first_moment: all[n..2 * n].to_vec(),
            second_moment: all[2 * n..].to_vec(),
            steps,
        })
    }

    /// The hidden layer's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }
}

/// One thread's working memory for a sample.
struct Scratch {
    acc: [Vec<f32>; 2],
    delta: Vec<f32>,
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            delta: vec![0.0; hidden],
        }
    }
}

#[cfg(test)]
mod tests;
