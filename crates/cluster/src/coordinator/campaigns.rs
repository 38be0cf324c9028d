//! Campaigns as operators see them: created from their files, viewed with
//! their progress, paused, resumed and stopped, and rebuilt on start-up.

use super::error::{CampaignError, StorageError, file_error};
use super::schema::{
    campaign_inputs, campaign_pentanomial, campaign_shipped, running_totals, save_campaign_inputs,
    save_campaign_shipped, save_spsa,
};
use super::shipping;
use super::{Coordinator, CoordinatorError, now_ms};
use crate::campaign::parse_campaign_with;
use crate::coordinator::kinds::{Live, UnitPerturbation};
use crate::ids::CampaignId;
use crate::inputs::{Input, Inputs};
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1;
use ajaxlab_stats::{Pentanomial, Trinomial};
use ajaxlab_store::RunKind;
use rusqlite::{Connection, OptionalExtension, params};

/// Where a campaign is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CampaignState {
    /// Its units are handed out.
    Running,
    /// Held by an operator (or after repeated refusals); resumable.
    Paused,
    /// Ended by an operator.
    Stopped,
    /// Every pair counted, or its test decided.
    Finished,
}

impl CampaignState {
    /// Every state.
    pub const ALL: [CampaignState; 4] = [
        CampaignState::Running,
        CampaignState::Paused,
        CampaignState::Stopped,
        CampaignState::Finished,
    ];

    /// The name stored in the database and sent on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            CampaignState::Running => "running",
            CampaignState::Paused => "paused",
            CampaignState::Stopped => "stopped",
            CampaignState::Finished => "finished",
        }
    }

    /// Whether the campaign will play no more (finished or stopped).
    pub const fn is_over(self) -> bool {
        matches!(self, CampaignState::Finished | CampaignState::Stopped)
    }
}

impl std::fmt::Display for CampaignState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

ajaxlab_proto::wire_enum!(CampaignState, v1::CampaignState {
    Running <=> Running,
    Paused <=> Paused,
    Stopped <=> Stopped,
    Finished <=> Finished,
});

/// Text that names no [`CampaignState`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a campaign state (running, paused, stopped, finished)")]
pub struct UnknownCampaignState(pub String);

impl std::str::FromStr for CampaignState {
    type Err = UnknownCampaignState;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        CampaignState::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| UnknownCampaignState(text.to_owned()))
    }
}

/// Progress of a campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignView {
    /// Id (its name).
    pub id: CampaignId,
    /// Where it is in its life.
    pub state: CampaignState,
    /// Priority.
    pub priority: u32,
    /// Pairs to play.
    pub pairs_total: u64,
    /// Pairs counted.
    pub pairs_done: u64,
    /// First player's pair results.
    pub pentanomial: Pentanomial,
    /// What it measures.
    pub kind: RunKind,
    /// White's wins, draws and losses over every counted game.
    pub white: Trinomial,
    /// SPRT campaigns: the test.
    pub sprt: Option<SprtView>,
    /// SPSA campaigns: each tuned parameter's current value.
    pub spsa: Vec<ParamValue>,
}

/// A tuned parameter and its current value θ.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue {
    /// The parameter's name.
    pub name: String,
    /// Its value.
    pub value: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtView {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Its stopping bounds (with the overshoot correction).
    pub bounds: ajaxlab_stats::LlrBounds,
    /// Whether a bound is crossed, and which.
    pub verdict: ajaxlab_stats::Status,
    /// The design: the Elo hypotheses, their model, α and β.
    pub config: ajaxlab_stats::SprtConfig,
}

impl CampaignView {
    /// White's score over every counted game, if any.
    pub fn white_score(&self) -> Option<f64> {
        let Trinomial {
            wins: w,
            draws: d,
            losses: l,
        } = self.white;
        let n = w + d + l;
        (n > 0).then(|| (w as f64 + d as f64 / 2.0) / n as f64)
    }
}

impl CampaignView {
    /// The wire form.
    pub fn to_proto(&self) -> v1::Campaign {
        let (elo, elo_error) = self
            .pentanomial
            .elo()
            .map_or((0.0, 0.0), |e| (e.elo, e.interval.half_width()));
        v1::Campaign {
            campaign_id: self.id.to_string(),
            name: self.id.to_string(),
            state: self.state.to_wire(),
            priority: self.priority,
            pairs_total: self.pairs_total,
            pairs_done: self.pairs_done,
            pentanomial: self.pentanomial.0.to_vec(),
            elo,
            elo_error,
            kind: self.kind.to_wire(),
            llr: self.sprt.as_ref().map_or(0.0, |s| s.llr),
            llr_lower: self.sprt.as_ref().map_or(0.0, |s| s.bounds.lower),
            llr_upper: self.sprt.as_ref().map_or(0.0, |s| s.bounds.upper),
            verdict: self
                .sprt
                .as_ref()
                .map_or(ajaxlab_stats::Status::Continue, |s| s.verdict)
                .to_wire(),
            elo0: self.sprt.as_ref().map_or(0.0, |s| s.config.elo0),
            elo1: self.sprt.as_ref().map_or(0.0, |s| s.config.elo1),
            elo_model: self.sprt.as_ref().map_or(0, |s| s.config.model.to_wire()),
            spsa_names: self.spsa.iter().map(|p| p.name.clone()).collect(),
            spsa_values: self.spsa.iter().map(|p| p.value).collect(),
            white_score: self.white_score().unwrap_or(0.0),
        }
    }
}

impl Coordinator {
    /// Creates a campaign from its TOML file.
    ///
    /// # Errors
    /// `InvalidArgument` naming the bad key; `FailedPrecondition` if the name is taken.
    /// A piece-value file makes one campaign per part (`NAME.PART`); the
    /// first part's view is returned.
    ///
    /// # Errors
    /// `InvalidArgument` naming the bad key; `FailedPrecondition` if the name is taken.
    pub fn create_campaign(&self, toml_text: &str) -> Result<Vec<CampaignView>, CoordinatorError> {
        self.create_shipped_campaign(toml_text, &[])
    }

    /// Creates a campaign whose UCI players' files were uploaded as
    /// artifacts: `shipped` names them (key, path as written, SHA-256).
    ///
    /// # Errors
    /// As [`Coordinator::create_campaign`]; also `InvalidArgument` naming
    /// the key of an artifact the coordinator does not hold, or of a UCI
    /// binary neither shipped nor installed (`worker_path`).
    pub fn create_shipped_campaign(
        &self,
        toml_text: &str,
        shipped: &[Input],
    ) -> Result<Vec<CampaignView>, CoordinatorError> {
        let inputs = Inputs::capture(toml_text, &self.inputs_dir()).map_err(CampaignError::File)?;
        let specs = parse_campaign_with(toml_text, &inputs).map_err(CampaignError::File)?;
        shipping::check_stored(shipped, self.artifacts()).map_err(CampaignError::File)?;
        let lives: Vec<Live> = specs
            .into_iter()
            .map(|spec| {
                let players = shipping::resolve(&spec, shipped).map_err(CampaignError::File)?;
                Ok(Live::new(spec, toml_text.to_owned(), players))
            })
            .collect::<Result<_, CoordinatorError>>()?;
        {
            let mut db = self.db();
            let tx = db.transaction()?;
            for live in &lives {
                let id = &live.spec.name;
                let taken: Option<CampaignId> = tx
                    .query_row("select id from campaigns where id = ?1", [id], |r| r.get(0))
                    .optional()?;
                if taken.is_some() {
                    return Err(CampaignError::Exists(id.clone()).into());
                }
                tx.execute(
                    "insert into campaigns (id, config_toml, state, priority, pairs_total, next_pair, signature, created_ms)
                     values (?1, ?2, ?7, ?3, ?4, 0, ?5, ?6)",
                    params![
                        id,
                        toml_text,
                        live.spec.priority,
                        live.spec.config.pairs as i64,
                        self.signature as i64,
                        now_ms(),
                        CampaignState::Running.as_str()
                    ],
                )?;
                save_campaign_inputs(&tx, id, inputs.files())?;
                save_campaign_shipped(&tx, id, shipped)?;
                if let Some(spsa) = &live.spsa {
                    save_spsa(&tx, id, 0, "", spsa)?;
                }
                let dir = self.campaign_dir(id);
                std::fs::create_dir_all(&dir).map_err(file_error(dir))?;
            }
            tx.commit()?;
        }
        let ids: Vec<CampaignId> = lives.iter().map(|l| l.spec.name.clone()).collect();
        {
            let mut campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for live in lives {
                campaigns.insert(live.spec.name.clone(), live);
            }
        }
        for id in &ids {
            self.write_spsa_trajectory(id, true)?;
        }
        self.changed();
        ids.iter().map(|id| self.campaign(id)).collect()
    }

    /// A campaign's progress.
    ///
    /// # Errors
    /// `NotFound` for an unknown id.
    pub fn campaign(&self, id: &CampaignId) -> Result<CampaignView, CoordinatorError> {
        let db = self.db();
        let row = db
            .query_row(
                "select state, priority, pairs_total from campaigns where id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                },
            )
            .optional()?
            .ok_or_else(|| CampaignError::Unknown(id.clone()))?;
        let penta = campaign_pentanomial(&db, id, None)?;
        let white: (i64, i64, i64) = db.query_row(
            "select white_wins, white_draws, white_losses from campaigns where id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        drop(db);
        let campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = campaigns.get(id);
        let state = row
            .0
            .parse()
            .map_err(|e: UnknownCampaignState| StorageError::Campaign {
                id: id.clone(),
                reason: e.to_string(),
            })?;
        Ok(CampaignView {
            id: id.clone(),
            state,
            priority: row.1,
            pairs_total: row.2 as u64,
            pairs_done: penta.pairs(),
            pentanomial: penta,
            kind: live.map_or(RunKind::Match, |l| l.spec.kind.run_kind()),
            white: {
                let [wins, draws, losses] = [white.0, white.1, white.2].map(|n| n.max(0) as u64);
                Trinomial::new(losses, draws, wins)
            },
            sprt: live.and_then(|l| {
                l.sprt.as_ref().map(|s| SprtView {
                    llr: s.llr(),
                    bounds: s.effective_bounds(),
                    verdict: l.verdict(),
                    config: *s.config(),
                })
            }),
            spsa: live
                .and_then(|l| l.spsa.as_ref())
                .map(|s| {
                    s.params()
                        .iter()
                        .zip(s.theta())
                        .map(|(p, &value)| ParamValue {
                            name: p.name.clone(),
                            value,
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
    }

    /// The campaign file `id` was created from, as stored then.
    ///
    /// # Errors
    /// `NotFound` for an unknown id.
    pub fn campaign_file(&self, id: &CampaignId) -> Result<String, CoordinatorError> {
        self.db()
            .query_row(
                "select config_toml from campaigns where id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| CampaignError::Unknown(id.clone()).into())
    }

    /// Every campaign.
    ///
    /// # Errors
    /// Storage failure.
    pub fn campaigns(&self) -> Result<Vec<CampaignView>, CoordinatorError> {
        let ids: Vec<CampaignId> = {
            let db = self.db();
            let mut stmt = db.prepare("select id from campaigns order by created_ms")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        ids.iter().map(|id| self.campaign(id)).collect()
    }

    /// Pauses, resumes or stops a campaign.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` for a finished or stopped campaign.
    pub fn set_campaign_state(
        &self,
        id: &CampaignId,
        state: CampaignState,
    ) -> Result<CampaignView, CoordinatorError> {
        let current = self.campaign(id)?.state;
        if current.is_over() {
            return Err(CampaignError::Over {
                id: id.clone(),
                state: current,
            }
            .into());
        }
        self.db().execute(
            "update campaigns set state = ?2 where id = ?1",
            params![id, state.as_str()],
        )?;
        self.write_spsa_trajectory(id, true)?;
        if state.is_over() {
            self.write_campaign_pgn_or_warn(id);
        }
        self.changed();
        self.campaign(id)
    }
}

/// Rebuilds a stored campaign: its files from the copies taken at create
/// time (taken now for a campaign made before copies were), its SPRT from
/// the counted units in order, its SPSA tune from the last saved state and
/// the perturbations still in flight.
pub(super) fn restore_campaign(
    db: &Connection,
    id: &CampaignId,
    text: &str,
    inputs_dir: &std::path::Path,
    artifacts: &crate::artifacts::ArtifactStore,
) -> Result<Live, CoordinatorError> {
    let internal = |reason: String| StorageError::Campaign {
        id: id.clone(),
        reason,
    };
    let stored = campaign_inputs(db, id)?;
    let inputs = if stored.is_empty() {
        let captured = Inputs::capture(text, inputs_dir).map_err(|e| internal(e.to_string()))?;
        save_campaign_inputs(db, id, captured.files())?;
        captured
    } else {
        Inputs::stored(inputs_dir, stored)
    };
    inputs.verify().map_err(|e| internal(e.to_string()))?;
    let spec = parse_campaign_with(text, &inputs)
        .map_err(|e| internal(e.to_string()))?
        .into_iter()
        .find(|s| &s.name == id)
        .ok_or_else(|| internal("its file no longer defines it".into()))?;
    let files = campaign_shipped(db, id)?;
    shipping::check_stored(&files, artifacts).map_err(|e| internal(e.to_string()))?;
    let shipped = shipping::resolve(&spec, &files).map_err(|e| internal(e.to_string()))?;
    let mut live = Live::new(spec, text.to_owned(), shipped);
    if live.sprt.is_some() {
        for total in running_totals(db, id)? {
            live.update_sprt(total);
        }
    }
    if live.spsa.is_some() {
        let saved: Option<(i64, i64, String)> = db
            .query_row(
                "select completed, next_id, theta from spsa_history where campaign_id = ?1 order by seq desc limit 1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        if let Some((completed, next_id, theta)) = saved {
            let theta: Vec<f64> =
                serde_json::from_str(&theta).map_err(|e| internal(e.to_string()))?;
            let mut stmt = db.prepare(
                "select spsa from units where campaign_id = ?1 and state != 'done' and spsa != ''",
            )?;
            let in_flight = stmt
                .query_map([id], |r| r.get::<_, String>(0))?
                .map(|text| {
                    let text = text?;
                    UnitPerturbation::from_text(&text)
                        .map_err(internal)?
                        .map(|p| p.perturbation())
                        .ok_or_else(|| internal("empty perturbation".into()).into())
                })
                .collect::<Result<Vec<_>, CoordinatorError>>()?;
            let config = match &live.spec.kind {
                crate::campaign::CampaignKind::Spsa(c) => c.clone(),
                _ => return Err(internal("not an SPSA campaign".into()).into()),
            };
            let restored = ajaxlab_stats::Spsa::restore(
                config,
                theta,
                completed as u64,
                next_id as u64,
                &in_flight,
            )
            .map_err(|e| internal(e.to_string()))?;
            live.spsa = Some(restored);
        }
    }
    Ok(live)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campaign_states_round_trip_through_their_names() {
        for state in CampaignState::ALL {
            assert_eq!(state.as_str().parse::<CampaignState>(), Ok(state));
            assert_eq!(format!("{state:<9}|"), format!("{:<9}|", state.as_str()));
        }
        assert!("done".parse::<CampaignState>().is_err());
        let over: Vec<_> = CampaignState::ALL
            .into_iter()
            .filter(|s| s.is_over())
            .collect();
        assert_eq!(over, [CampaignState::Stopped, CampaignState::Finished]);
    }
}
