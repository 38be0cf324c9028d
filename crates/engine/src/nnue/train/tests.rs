use super::*;
use crate::nnue::NetEval;
use ajaxlab_rules::{StartSpec, VariantKind};
use std::sync::Arc;

fn random_samples(inputs: usize, n: usize, seed: u64) -> Vec<Sample> {
    let mut state = seed;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    };
    (0..n)
        .map(|_| {
            let mut pick =
                |k: usize| -> Vec<u16> { (0..k).map(|_| next(inputs as u64) as u16).collect() };
            let (ours, theirs) = (pick(3), pick(2));
            Sample {
                ours,
                theirs,
                target: next(1000) as f32 / 1000.0,
            }
        })
        .collect()
}

#[test]
fn the_gradient_is_the_loss_s_slope_by_finite_differences() {
    for activation in [Activation::CReLU, Activation::SCReLU] {
        let model = Model::new(7, 4, activation, 3);
        let samples = random_samples(7, 6, 5);
        let (_, analytic) = model.gradient(&samples, 2);
        let loss =
            |m: &Model| samples.iter().map(|s| m.loss(s)).sum::<f32>() / samples.len() as f32;
        let eps = 1e-3;
        for (i, &slope) in analytic.iter().enumerate() {
            let (mut up, mut down) = (model.clone(), model.clone());
            up.params[i] += eps;
            down.params[i] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * eps);
            assert!(
                (slope - numeric).abs() <= 2e-4 + 0.03 * numeric.abs(),
                "{activation:?} parameter {i}: analytic {slope} numeric {numeric}"
            );
        }
    }
}

/// Positions of random chess games.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let chess = VariantKind::Chess.variant();
    let mut state = seed;
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start_in(chess, &StartSpec::Default).unwrap();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            pos.play_unchecked(moves[((state >> 33) % moves.len() as u64) as usize]);
            out.push(pos);
        }
    }
    out.truncate(n);
    out
}

#[test]
fn a_planted_function_of_the_inputs_is_learnt() {
    let chess = VariantKind::Chess.variant();
    let inputs = InputSet::of(chess);
    // The planted value: a fixed weight per input, ours less theirs.
    let planted: Vec<f32> = (0..inputs.len())
        .map(|i| ((i * 7919) % 61) as f32 / 61.0 - 0.5)
        .collect();
    let samples: Vec<Sample> = positions(2400, 9)
        .iter()
        .map(|pos| {
            let mut s = Sample::of(&inputs, pos, 0, 0.0, 0.0);
            let sum = |active: &[u16]| active.iter().map(|&i| planted[usize::from(i)]).sum::<f32>();
            s.target = sigmoid(0.3 * (sum(&s.ours) - sum(&s.theirs)));
            s
        })
        .collect();
    let (train, held) = samples.split_at(2000);
    let mut model = Model::new(inputs.len(), 16, Activation::SCReLU, 1);
    let held_loss = |m: &Model| held.iter().map(|s| m.loss(s)).sum::<f32>() / held.len() as f32;
    let before = held_loss(&model);
    let optimiser = Optimiser {
        learning_rate: 0.01,
        weight_decay: 0.0,
    };
    for step in 0..300 {
        let batch = &train[(step * 200) % 2000..(step * 200) % 2000 + 200];
        let (_, g) = model.gradient(batch, 2);
        model.step(&g, optimiser);
    }
    let after = held_loss(&model);
    assert!(after < 0.2 * before, "held-out loss {before} -> {after}");
}

#[test]
fn the_quantised_network_scores_as_the_model_does() {
    let afc = VariantKind::AjaxFalcon.variant();
    let inputs = InputSet::of(afc);
    let model = Model::new(inputs.len(), 32, Activation::SCReLU, 4);
    let net = Arc::new(model.quantised(afc));
    let mut eval = NetEval::new(net, afc).unwrap();
    let pos = Position::start_in(afc, &StartSpec::Default).unwrap();
    eval.refresh(0, &pos);
    let sample = Sample::of(&inputs, &pos, 0, 0.5, 0.0);
    let predicted = model.predict(&sample).clamp(1e-6, 1.0 - 1e-6);
    let model_cp = 400.0 * (predicted / (1.0 - predicted)).ln();
    let net_cp = eval.evaluate(0, &pos) as f32;
    assert!(
        (model_cp - net_cp).abs() < 5.0,
        "model {model_cp} cp, network {net_cp} cp"
    );
    let restored = Model::from_bytes(&model.to_bytes()).unwrap();
    assert_eq!(restored, model);
    assert!(Model::from_bytes(&model.to_bytes()[..100]).is_none());
}
