//! Conversions between the wire types and the arena's and store's types. A missing or
//! malformed field is a typed error naming the field.

use ajaxlab_arena::config::{PlayerConfig, PlayerKind};
use ajaxlab_arena::imbalance::Imbalance;
use ajaxlab_arena::opening::{OpeningSource, Openings, Order};
use ajaxlab_arena::referee::{Adjudication, DEFAULT_TIME_MARGIN};
use ajaxlab_arena::{MatchConfig, TimeControl};
use ajaxlab_engine::{Features, Params};
use ajaxlab_proto::v1;
use ajaxlab_rules::VariantKind;
use ajaxlab_store::record::{UnknownResult, UnknownTermination, parse_result};
use ajaxlab_store::{GameRecord, MoveRecord, PlayerRecord};

/// A wire message that does not make sense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ProtoError {
    /// The field (`unit.players[1].time_control`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn bad(field: impl Into<String>, message: impl Into<String>) -> ProtoError {
    ProtoError {
        field: field.into(),
        message: message.into(),
    }
}

/// The opening spec string of a match's openings.
fn openings_spec(o: &Openings) -> (String, Vec<String>) {
    match &o.source {
        OpeningSource::Start => ("start".into(), Vec::new()),
        OpeningSource::RandomNumber => ("random".into(), Vec::new()),
        OpeningSource::NumberRange(a, b) => (format!("range:{a}-{b}"), Vec::new()),
        OpeningSource::Numbers(list) => (
            format!(
                "numbers:{}",
                list.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Vec::new(),
        ),
        OpeningSource::Fens(fens) => ("fens".into(), fens.clone()),
    }
}

/// The work unit for pairs `first_pair..first_pair+pair_count` of a match.
pub fn work_unit(
    config: &MatchConfig,
    campaign_id: &str,
    unit_id: &str,
    lease_token: &str,
    deadline_ms: i64,
    first_pair: u64,
    pair_count: u32,
) -> v1::WorkUnit {
    let (openings, opening_fens) = openings_spec(&config.openings);
    let imbalance = config.openings.imbalance.texts();
    let names: Vec<String> = ajaxlab_engine::params::SPECS
        .iter()
        .map(|s| s.name.to_owned())
        .collect();
    let a = &config.adjudication;
    v1::WorkUnit {
        unit_id: unit_id.into(),
        lease_token: lease_token.into(),
        lease_deadline_ms: deadline_ms,
        campaign_id: campaign_id.into(),
        run_id: config.run_id.clone(),
        variant: config.variant.name().into(),
        openings,
        opening_fens,
        random_plies: config.openings.random_plies,
        players: config
            .players
            .iter()
            .map(|p| v1::Player {
                name: p.name.clone(),
                engine: "builtin".into(),
                params: match &p.kind {
                    PlayerKind::Builtin(params, _) => params.iter().map(|(_, v)| v).collect(),
                    PlayerKind::Uci(_) => Vec::new(),
                },
                param_names: names.clone(),
                time_control: p.tc.to_string(),
                disable: match &p.kind {
                    PlayerKind::Builtin(_, features) => features
                        .disabled()
                        .iter()
                        .map(|s| (*s).to_owned())
                        .collect(),
                    PlayerKind::Uci(_) => Vec::new(),
                },
            })
            .collect(),
        first_pair,
        pair_count,
        seed: config.seed,
        adjudication: Some(v1::Adjudication {
            resign_score: a.resign_score,
            resign_moves: a.resign_moves,
            draw_score: a.draw_score,
            draw_moves: a.draw_moves,
            draw_after_move: a.draw_after_move,
            max_plies: a.max_plies,
        }),
        hash_mb: u32::try_from(config.hash_mb).unwrap_or(u32::MAX),
        imbalance_first: imbalance.0,
        imbalance_second: imbalance.1,
    }
}

/// The match a work unit describes (for the worker that plays it).
///
/// # Errors
/// [`ProtoError`] naming the first bad field.
pub fn match_config(unit: &v1::WorkUnit) -> Result<MatchConfig, ProtoError> {
    let variant =
        VariantKind::from_name(&unit.variant).map_err(|e| bad("unit.variant", e.to_string()))?;
    let source = if unit.openings == "fens" {
        OpeningSource::Fens(unit.opening_fens.clone())
    } else {
        Openings::parse(variant, &unit.openings, Some(0))
            .map_err(|e| bad("unit.openings", e.to_string()))?
            .source
    };
    finish(unit, variant, source)
}

fn finish(
    unit: &v1::WorkUnit,
    variant: VariantKind,
    source: OpeningSource,
) -> Result<MatchConfig, ProtoError> {
    if unit.players.len() != 2 {
        return Err(bad(
            "unit.players",
            format!("{} players, 2 needed", unit.players.len()),
        ));
    }
    let player = |i: usize| -> Result<PlayerConfig, ProtoError> {
        let p = &unit.players[i];
        let field = |f: &str| format!("unit.players[{i}].{f}");
        if p.engine != "builtin" {
            return Err(bad(
                field("engine"),
                format!("'{}': only builtin", p.engine),
            ));
        }
        if p.params.len() != p.param_names.len() {
            return Err(bad(field("params"), "as many values as param_names needed"));
        }
        let mut params = Params::default();
        for (name, value) in p.param_names.iter().zip(&p.params) {
            params
                .set(name, i64::from(*value))
                .map_err(|e| bad(field("params"), e.to_string()))?;
        }
        let tc: TimeControl =
            p.time_control
                .parse()
                .map_err(|e: ajaxlab_arena::tc::TimeControlError| {
                    bad(field("time_control"), e.to_string())
                })?;
        let mut features = Features::default();
        for name in &p.disable {
            if !features.disable(name) {
                return Err(bad(
                    field("disable"),
                    format!("'{name}' is not a search feature"),
                ));
            }
        }
        Ok(PlayerConfig {
            name: p.name.clone(),
            kind: PlayerKind::Builtin(Box::new(params), features),
            tc,
        })
    };
    let adj = unit.adjudication.unwrap_or_default();
    Ok(MatchConfig {
        variant,
        pairs: u64::from(unit.pair_count),
        concurrency: 1,
        seed: unit.seed,
        out: std::path::PathBuf::new(),
        run_id: unit.run_id.clone(),
        openings: Openings {
            variant,
            source,
            order: Order::Random,
            random_plies: unit.random_plies,
            imbalance: Imbalance::parse(&unit.imbalance_first, &unit.imbalance_second)
                .map_err(|e| bad("unit.imbalance_first", e.to_string()))?,
        },
        players: [player(0)?, player(1)?],
        adjudication: Adjudication {
            resign_score: adj.resign_score,
            resign_moves: adj.resign_moves,
            draw_score: adj.draw_score,
            draw_moves: adj.draw_moves,
            draw_after_move: adj.draw_after_move,
            max_plies: adj.max_plies,
        },
        hash_mb: usize::try_from(unit.hash_mb.max(1)).unwrap_or(16),
        pgn: false,
        time_margin: DEFAULT_TIME_MARGIN,
    })
}

/// A game record on the wire.
pub fn game_to_proto(g: &GameRecord) -> v1::GameRecord {
    v1::GameRecord {
        game_id: g.game_id,
        pair_id: g.pair_id,
        start_number: g.start_number,
        start_fen: g.start_fen.clone(),
        opening_moves: g.opening_moves.clone(),
        seed: g.seed,
        white_name: g.white.name.clone(),
        white_version: g.white.version.clone(),
        white_params: g.white.params.clone(),
        black_name: g.black.name.clone(),
        black_version: g.black.version.clone(),
        black_params: g.black.params.clone(),
        time_control: g.time_control.clone(),
        result: g.result.pgn().into(),
        termination: g.termination.to_string(),
        moves: g
            .moves
            .iter()
            .map(|m| v1::MoveRecord {
                uci: m.uci.clone(),
                score: m.score,
                depth: m.depth,
                nodes: m.nodes,
                time_ms: m.time_ms,
            })
            .collect(),
        final_fen: g.final_fen.clone(),
        started_at_ms: g.started_at_ms,
        ended_at_ms: g.ended_at_ms,
    }
}

/// A game record from the wire, for a run of `variant`.
///
/// # Errors
/// [`ProtoError`] for an unknown termination or result.
pub fn game_from_proto(
    g: &v1::GameRecord,
    run_id: &str,
    variant: VariantKind,
    index: usize,
) -> Result<GameRecord, ProtoError> {
    let termination = g.termination.parse().map_err(|e: UnknownTermination| {
        bad(format!("games[{index}].termination"), e.to_string())
    })?;
    let result = parse_result(&g.result)
        .map_err(|e: UnknownResult| bad(format!("games[{index}].result"), e.to_string()))?;
    Ok(GameRecord {
        run_id: run_id.into(),
        game_id: g.game_id,
        pair_id: g.pair_id,
        variant,
        start_number: g.start_number,
        start_fen: g.start_fen.clone(),
        opening_moves: g.opening_moves.clone(),
        seed: g.seed,
        white: PlayerRecord {
            name: g.white_name.clone(),
            version: g.white_version.clone(),
            params: g.white_params.clone(),
        },
        black: PlayerRecord {
            name: g.black_name.clone(),
            version: g.black_version.clone(),
            params: g.black_params.clone(),
        },
        time_control: g.time_control.clone(),
        result,
        termination,
        moves: g
            .moves
            .iter()
            .map(|m| MoveRecord {
                uci: m.uci.clone(),
                score: m.score,
                depth: m.depth,
                nodes: m.nodes,
                time_ms: m.time_ms,
            })
            .collect(),
        final_fen: g.final_fen.clone(),
        started_at_ms: g.started_at_ms,
        ended_at_ms: g.ended_at_ms,
    })
}
