//! Game records as a worker submits them.

use super::vocab::WireEnum;
use super::{WireError, required};
use crate::v1;
use ajaxlab_arena::TimeControl;
use ajaxlab_rules::{GameResult, Variant};
use ajaxlab_store::{EngineOption, GameRecord, MoveRecord, PlayerRecord, Termination};

impl TryFrom<&GameRecord> for v1::GameRecord {
    type Error = WireError;

    /// The record on the wire; its time-control text must be one the arena
    /// writes ([`TimeControl::record_text`]).
    fn try_from(g: &GameRecord) -> Result<v1::GameRecord, WireError> {
        let (white_tc, black_tc) = TimeControl::from_record_text(&g.time_control)
            .map_err(|e| WireError::invalid("GameRecord.time_control", e))?;
        Ok(v1::GameRecord {
            game_id: g.game_id,
            pair_id: g.pair_id,
            start_number: g.start_number,
            start_fen: g.start_fen.clone(),
            opening_moves: g.opening_moves.clone(),
            seed: g.seed,
            white_name: g.white.name.clone(),
            white_version: g.white.version.clone(),
            white_params: g.white.params.clone(),
            white_options: wire_options(&g.white.options),
            black_name: g.black.name.clone(),
            black_version: g.black.version.clone(),
            black_params: g.black.params.clone(),
            black_options: wire_options(&g.black.options),
            white_time_control: Some(white_tc.into()),
            black_time_control: Some(black_tc.into()),
            result: g.result.to_wire(),
            termination: g.termination.to_wire(),
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
        })
    }
}

fn wire_options(options: &[EngineOption]) -> Vec<v1::EngineOption> {
    options
        .iter()
        .map(|o| v1::EngineOption {
            name: o.name.clone(),
            value: o.value.clone(),
        })
        .collect()
}

fn stored_options(options: &[v1::EngineOption]) -> Vec<EngineOption> {
    options
        .iter()
        .map(|o| EngineOption {
            name: o.name.clone(),
            value: o.value.clone(),
        })
        .collect()
}

/// A submitted game as the record stored for run `run_id` of `variant`
/// (which the unit, not the game, says).
///
/// # Errors
/// [`WireError`] naming `games[index]`'s bad field: an unknown result or
/// termination, a missing or invalid time control.
pub fn game_record(
    g: &v1::GameRecord,
    run_id: &str,
    variant: &'static Variant,
    index: usize,
) -> Result<GameRecord, WireError> {
    let at = |e: WireError| e.within(&format!("games[{index}]"));
    let tc = |tc: Option<&v1::TimeControl>, field: &str| {
        TimeControl::try_from(required(tc, field)?).map_err(|e| e.within(field))
    };
    let white_tc = tc(g.white_time_control.as_ref(), "white_time_control").map_err(at)?;
    let black_tc = tc(g.black_time_control.as_ref(), "black_time_control").map_err(at)?;
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
            options: stored_options(&g.white_options),
        },
        black: PlayerRecord {
            name: g.black_name.clone(),
            version: g.black_version.clone(),
            params: g.black_params.clone(),
            options: stored_options(&g.black_options),
        },
        time_control: TimeControl::record_text(white_tc, black_tc),
        result: GameResult::from_wire(g.result, "result").map_err(at)?,
        termination: Termination::from_wire(g.termination, "termination").map_err(at)?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::VariantKind;

    fn record(time_control: &str) -> GameRecord {
        let player = |name: &str| PlayerRecord {
            name: name.into(),
            version: "v".into(),
            params: vec![1, 2],
            options: vec![EngineOption {
                name: "Skill Level".into(),
                value: name.into(),
            }],
        };
        GameRecord {
            run_id: "r".into(),
            game_id: 7,
            pair_id: 3,
            variant: VariantKind::Chess960.variant(),
            start_number: Some(518),
            start_fen: "s".into(),
            opening_moves: vec!["e2e4".into()],
            seed: 9,
            white: player("a"),
            black: player("b"),
            time_control: time_control.into(),
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            moves: vec![MoveRecord {
                uci: "e7e5".into(),
                score: Some(-3),
                depth: Some(4),
                nodes: None,
                time_ms: 12,
            }],
            final_fen: "f".into(),
            started_at_ms: 1,
            ended_at_ms: 2,
        }
    }

    #[test]
    fn a_record_survives_the_wire_with_either_players_time_control() {
        for tc in ["nodes=1000", "10+0.1 / depth=5"] {
            let sent = record(tc);
            let wire = v1::GameRecord::try_from(&sent).unwrap();
            assert_eq!(
                game_record(&wire, "r", VariantKind::Chess960.variant(), 0),
                Ok(sent)
            );
        }
    }

    #[test]
    fn a_bad_game_is_named_by_its_index_and_field() {
        let mut wire = v1::GameRecord::try_from(&record("depth=2")).unwrap();
        wire.result = 0;
        let e = game_record(&wire, "r", VariantKind::Chess.variant(), 3).unwrap_err();
        assert_eq!(e.to_string(), "games[3].result: unspecified");
        wire.result = 1;
        wire.black_time_control = None;
        let e = game_record(&wire, "r", VariantKind::Chess.variant(), 0).unwrap_err();
        assert_eq!(e.to_string(), "games[0].black_time_control: missing");
        let e = v1::GameRecord::try_from(&record("fast")).unwrap_err();
        assert!(
            e.to_string().starts_with("GameRecord.time_control: 'fast'"),
            "{e}"
        );
    }
}
