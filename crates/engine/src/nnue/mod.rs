//! The learned evaluation: a network per variant ([`net`]) over the
//! inputs of [`inputs`], evaluated from two accumulators (one per side's
//! perspective) kept for every ply of the search's line. The root's are
//! computed in full; every other ply's from its parent's and the inputs the
//! move changed, so that a node costs a few additions per hidden unit.

pub mod inputs;
pub mod net;
pub mod train;

use crate::search::MAX_PLY;
use ajaxlab_rules::{Color, Position, Variant};
use inputs::{Changes, InputSet};
use net::{Activation, NetProblem, Network, QA, QB, SCALE};
use std::sync::Arc;

/// A network's evaluation along one search's line: the accumulators of
/// each ply, White's perspective then Black's.
#[derive(Clone, Debug)]
pub struct NetEval {
    net: Arc<Network>,
    inputs: InputSet,
    /// `(MAX_PLY + 1) × 2 × hidden` accumulators.
    accumulators: Vec<i16>,
    changes: Changes,
}

impl NetEval {
    /// The evaluation of `variant` by `net`.
    ///
    /// # Errors
    /// [`NetProblem`] when `net` is not a network for `variant`.
    pub fn new(net: Arc<Network>, variant: &Variant) -> Result<NetEval, NetProblem> {
        net.fits(variant)?;
        let size = (MAX_PLY + 1) * 2 * net.hidden;
        Ok(NetEval {
            inputs: InputSet::of(variant),
            accumulators: vec![0; size],
            changes: Changes::default(),
            net,
        })
    }

    fn range(&self, ply: usize, perspective: Color) -> std::ops::Range<usize> {
        let h = self.net.hidden;
        let start = (ply * 2 + perspective.index()) * h;
        start..start + h
    }

    /// Computes the accumulators of `pos` at `ply` from its inputs alone.
    pub fn refresh(&mut self, ply: usize, pos: &Position) {
        let h = self.net.hidden;
        for perspective in Color::ALL {
            let range = self.range(ply, perspective);
            let acc = &mut self.accumulators[range];
            acc.copy_from_slice(&self.net.input_bias);
            for input in self.inputs.active(pos, perspective) {
                let row = &self.net.input_weights[input * h..(input + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
    }

    /// The accumulators of `after` at `ply + 1`, from those of `before` at
    /// `ply` and the inputs the move between them changed.
    pub fn descend(&mut self, ply: usize, before: &Position, after: &Position) {
        let h = self.net.hidden;
        for perspective in Color::ALL {
            self.inputs
                .changes(before, after, perspective, &mut self.changes);
            let (from, to) = (
                self.range(ply, perspective),
                self.range(ply + 1, perspective),
            );
            let (parent, child) = self.accumulators.split_at_mut(to.start);
            let child = &mut child[..h];
            child.copy_from_slice(&parent[from]);
            for &input in &self.changes.added {
                let row = &self.net.input_weights[input * h..(input + 1) * h];
                for (a, w) in child.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            }
            for &input in &self.changes.removed {
                let row = &self.net.input_weights[input * h..(input + 1) * h];
                for (a, w) in child.iter_mut().zip(row) {
                    *a = a.wrapping_sub(*w);
                }
            }
        }
    }

    /// The accumulators at `ply`, White's perspective then Black's (for
    /// checking the incremental ones against a refresh).
    pub fn accumulators(&self, ply: usize) -> (&[i16], &[i16]) {
        (
            &self.accumulators[self.range(ply, Color::White)],
            &self.accumulators[self.range(ply, Color::Black)],
        )
    }

    /// The value of `pos`, whose accumulators are those at `ply`, for the
    /// side to move, in centipawns.
    pub fn evaluate(&self, ply: usize, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let h = self.net.hidden;
        let (ours, theirs) = (
            &self.accumulators[self.range(ply, us)],
            &self.accumulators[self.range(ply, !us)],
        );
        let weights = &self.net.output_weights;
        let sum = match self.net.activation {
            Activation::CReLU => crelu(ours, &weights[..h]) + crelu(theirs, &weights[h..]),
            Activation::SCReLU => {
                (screlu(ours, &weights[..h]) + screlu(theirs, &weights[h..])) / i64::from(QA)
            }
        };
        let out = (sum + i64::from(self.net.output_bias)) * i64::from(SCALE)
            / (i64::from(QA) * i64::from(QB));
        i32::try_from(out.clamp(-20_000, 20_000)).unwrap_or(0)
    }
}

fn crelu(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i64::from(i32::from(a).clamp(0, QA) * i32::from(w)))
        .sum()
}

fn screlu(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let x = i64::from(i32::from(a).clamp(0, QA));
            x * x * i64::from(w)
        })
        .sum()
}

#[cfg(test)]
mod tests;
