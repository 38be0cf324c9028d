//! Campaigns as operators see them: created from their files, viewed with
//! their progress, paused, resumed and stopped, and rebuilt on start-up.

use super::counting::spsa_snapshot;
use super::error::{CampaignError, StorageError, file_error};
use super::shipping;
use super::{CampaignState, Coordinator, CoordinatorError, now_ms};
use crate::artifacts::shared::SharedInputs;
use crate::campaign::inputs::{Input, Inputs, SentFile};
use crate::campaign::{CampaignSpec, parse_campaign_with};
use crate::coordinator::kinds::{Live, UnitPerturbation};
use crate::ids::CampaignId;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1;
use ajaxlab_stats::{Pentanomial, Trinomial};
use ajaxlab_store::RunKind;
use ajaxlab_store::state::files::{self, FileSet};
use ajaxlab_store::state::{BuildGate, NewCampaign, campaigns, results, spsa_history, units};
use rusqlite::Connection;

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
    /// The first player's wins, draws and losses over every counted game;
    /// `None` if some were counted before they were kept.
    pub first: Option<Trinomial>,
    /// SPRT campaigns: the test.
    pub sprt: Option<SprtView>,
    /// SPSA campaigns: each tuned parameter's current value.
    pub spsa: Vec<ParamValue>,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// Who created it: the label of the operator's token, `local` for a
    /// run on one machine, empty if not known.
    pub created_by: String,
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
    /// Its bounds, Wald's, as Fishtest prints them (it stops within the
    /// overshoot expected of a batch of them).
    pub bounds: ajaxlab_stats::LlrBounds,
    /// Whether a bound is crossed, and which.
    pub verdict: ajaxlab_stats::Status,
    /// The pairs the test had counted when it decided (0 while it runs);
    /// the campaign's later pairs were in flight then.
    pub pairs_at_verdict: u64,
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
            pairs_at_verdict: self.sprt.as_ref().map_or(0, |s| s.pairs_at_verdict),
            elo0: self.sprt.as_ref().map_or(0.0, |s| s.config.elo0),
            elo1: self.sprt.as_ref().map_or(0.0, |s| s.config.elo1),
            elo_model: self.sprt.as_ref().map_or(0, |s| s.config.model.to_wire()),
            spsa_names: self.spsa.iter().map(|p| p.name.clone()).collect(),
            spsa_values: self.spsa.iter().map(|p| p.value).collect(),
            white_score: self.white_score().unwrap_or(0.0),
        }
    }
}

/// Which builds may play `spec`: any, if all its players are UCI engines;
/// else only workers whose builtin engine benches to `signature`, this
/// coordinator's.
fn build_gate(spec: &CampaignSpec, signature: u64) -> BuildGate {
    if spec
        .config
        .players
        .iter()
        .all(|p| matches!(p.kind, PlayerKind::Uci(_)))
    {
        BuildGate::AnyBuild
    } else {
        BuildGate::Signature(signature)
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
        self.create_shipped_campaign(toml_text, &[], &[])
    }

    /// Creates a campaign with the files it names sent along (`sent`, read
    /// where the campaign file was written: the coordinator reads no path
    /// a campaign names) and its UCI players' files uploaded as artifacts
    /// (`shipped`: key, path as written, SHA-256). A refused campaign
    /// leaves no copy of what was sent.
    ///
    /// # Errors
    /// As [`Coordinator::create_campaign`]; also `InvalidArgument` naming
    /// the key of a file not sent or over its limit, of an artifact the
    /// coordinator does not hold, or of a UCI binary neither shipped nor
    /// installed (`worker_path`).
    pub fn create_shipped_campaign(
        &self,
        toml_text: &str,
        sent: &[SentFile],
        shipped: &[Input],
    ) -> Result<Vec<CampaignView>, CoordinatorError> {
        self.create_campaign_as("", toml_text, sent, shipped)
    }

    /// Creates a campaign as [`Coordinator::create_shipped_campaign`] does,
    /// recording who created it (`by`: the label of the operator's token,
    /// or `local`).
    ///
    /// # Errors
    /// As [`Coordinator::create_shipped_campaign`].
    pub fn create_campaign_as(
        &self,
        by: &str,
        toml_text: &str,
        sent: &[SentFile],
        shipped: &[Input],
    ) -> Result<Vec<CampaignView>, CoordinatorError> {
        if toml_text.len() as u64 > ajaxlab_files::limits::CONFIG_FILE {
            return Err(CampaignError::File(ajaxlab_arena::ConfigError::new(
                "campaign file",
                ajaxlab_files::too_large(ajaxlab_files::limits::CONFIG_FILE).to_string(),
            ))
            .into());
        }
        let inputs =
            Inputs::capture(toml_text, sent, &self.inputs_dir()).map_err(CampaignError::File)?;
        let created = self.create_captured(by, toml_text, &inputs, shipped);
        if created.is_err() {
            inputs.discard_created();
        }
        created
    }

    /// Creates the campaigns of `toml_text` whose files are captured.
    fn create_captured(
        &self,
        by: &str,
        toml_text: &str,
        inputs: &Inputs,
        shipped: &[Input],
    ) -> Result<Vec<CampaignView>, CoordinatorError> {
        let specs = parse_campaign_with(toml_text, inputs).map_err(CampaignError::File)?;
        shipping::check_stored(shipped, self.artifacts()).map_err(CampaignError::File)?;
        let lives: Vec<Live> = specs
            .into_iter()
            .map(|spec| {
                let players = shipping::resolve(&spec, shipped).map_err(CampaignError::File)?;
                let shared = SharedInputs::store(&spec.config, self.artifacts())
                    .map_err(StorageError::from)?;
                Ok(Live::new(spec, toml_text.to_owned(), players, shared))
            })
            .collect::<Result<_, CoordinatorError>>()?;
        {
            let mut db = self.db();
            let tx = db.transaction()?;
            for live in &lives {
                let id = &live.spec.name;
                if campaigns::exists(&tx, id)? {
                    return Err(CampaignError::Exists(id.clone()).into());
                }
                campaigns::insert(
                    &tx,
                    &NewCampaign {
                        id,
                        config_toml: toml_text,
                        priority: live.spec.priority,
                        pairs_total: live.spec.config.pairs,
                        gate: build_gate(&live.spec, self.signature),
                        created_ms: now_ms(),
                        created_by: by,
                    },
                )?;
                files::save(&tx, FileSet::Inputs, id, inputs.files())?;
                files::save(&tx, FileSet::Shipped, id, shipped)?;
                if let Some(spsa) = &live.spsa {
                    spsa_history::save(&tx, id, &spsa_snapshot(0, None, spsa))?;
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
                self.log_created(&live);
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
        let record = campaigns::record(&self.reader(), id)?
            .ok_or_else(|| CampaignError::Unknown(id.clone()))?;
        let campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = campaigns.get(id);
        let penta = record.pentanomial;
        Ok(CampaignView {
            id: id.clone(),
            state: record.state,
            priority: record.priority,
            pairs_total: record.pairs_total,
            pairs_done: penta.pairs(),
            pentanomial: penta,
            kind: live.map_or(RunKind::Match, |l| l.spec.kind.run_kind()),
            white: record.white,
            first: (record.first.wins + record.first.draws + record.first.losses == penta.games())
                .then_some(record.first),
            sprt: live.and_then(|l| {
                l.sprt.as_ref().map(|s| SprtView {
                    llr: s.llr(),
                    bounds: s.bounds(),
                    verdict: l.verdict(),
                    pairs_at_verdict: s.decided_at().unwrap_or(0),
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
            created_ms: record.created_ms,
            created_by: record.created_by,
        })
    }

    /// The campaign file `id` was created from, as stored then.
    ///
    /// # Errors
    /// `NotFound` for an unknown id.
    pub fn campaign_file(&self, id: &CampaignId) -> Result<String, CoordinatorError> {
        campaigns::config_toml(&self.reader(), id)?
            .ok_or_else(|| CampaignError::Unknown(id.clone()).into())
    }

    /// An SPRT campaign's test as it stands: its LLR, its verdict and the
    /// counts it decided on; `None` for other kinds and unknown ids.
    pub fn sprt_test(&self, id: &CampaignId) -> Option<ajaxlab_stats::Sprt> {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .and_then(|live| live.sprt.clone())
    }

    /// Every campaign.
    ///
    /// # Errors
    /// Storage failure.
    pub fn campaigns(&self) -> Result<Vec<CampaignView>, CoordinatorError> {
        let ids = campaigns::ids(&self.reader())?;
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
        self.refuse_if_over(id)?;
        if state == CampaignState::Running {
            self.reload_if_unloaded(id)?;
        }
        campaigns::set_state(&self.db(), id, state)?;
        self.write_spsa_trajectory(id, true)?;
        if state.is_over() {
            self.write_campaign_pgn_or_warn(id);
        }
        self.changed();
        self.campaign(id)
    }
}

impl Coordinator {
    /// Refuses a change to campaign `id` once it is over (finished or
    /// stopped).
    ///
    /// # Errors
    /// `NotFound`; [`CampaignError::Over`] naming where it ended.
    pub(super) fn refuse_if_over(&self, id: &CampaignId) -> Result<(), CoordinatorError> {
        let current = self.campaign(id)?.state;
        if current.is_over() {
            return Err(CampaignError::Over {
                id: id.clone(),
                state: current,
            }
            .into());
        }
        Ok(())
    }

    /// Rebuilds campaign `id` if start-up could not (its inputs restored
    /// since, say), so that it can run again.
    ///
    /// # Errors
    /// [`CampaignError::Unloaded`] with why it still cannot be rebuilt.
    fn reload_if_unloaded(&self, id: &CampaignId) -> Result<(), CoordinatorError> {
        if !self.unloaded_lock().contains_key(id) {
            return Ok(());
        }
        let text = self.campaign_file(id)?;
        let live = restore_campaign(&self.db(), id, &text, &self.inputs_dir(), self.artifacts())
            .map_err(|e| CampaignError::Unloaded {
                id: id.clone(),
                reason: e.to_string(),
            })?;
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.clone(), live);
        self.unloaded_lock().remove(id);
        Ok(())
    }
}

/// Rebuilds a stored campaign: its files from the copies taken at create
/// time, its SPRT from
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
    let inputs = Inputs::stored(inputs_dir, files::of(db, FileSet::Inputs, id)?);
    inputs.verify().map_err(|e| internal(e.to_string()))?;
    let spec = parse_campaign_with(text, &inputs)
        .map_err(|e| internal(e.to_string()))?
        .into_iter()
        .find(|s| &s.name == id)
        .ok_or_else(|| internal("its file no longer defines it".into()))?;
    let shipped = files::of(db, FileSet::Shipped, id)?;
    shipping::check_stored(&shipped, artifacts).map_err(|e| internal(e.to_string()))?;
    let shipped = shipping::resolve(&spec, &shipped).map_err(|e| internal(e.to_string()))?;
    let shared = SharedInputs::store(&spec.config, artifacts).map_err(StorageError::from)?;
    let mut live = Live::new(spec, text.to_owned(), shipped, shared);
    if live.sprt.is_some() {
        for total in results::running_totals(db, id)? {
            live.update_sprt(total);
        }
    }
    if live.spsa.is_some()
        && let Some(saved) = spsa_history::latest(db, id)?
    {
        let in_flight = units::perturbations_in_flight(db, id)?
            .into_iter()
            .map(|text| {
                UnitPerturbation::from_text(&text)
                    .map_err(internal)?
                    .map(|p| p.perturbation())
                    .ok_or_else(|| internal("empty perturbation".into()).into())
            })
            .collect::<Result<Vec<_>, CoordinatorError>>()?;
        let config = match &live.spec.kind {
            crate::campaign::CampaignKind::Spsa { tune, .. } => tune.clone(),
            _ => return Err(internal("not an SPSA campaign".into()).into()),
        };
        let restored = ajaxlab_stats::Spsa::restore(
            config,
            saved.theta,
            saved.completed,
            saved.next_id,
            &in_flight,
        )
        .map_err(|e| internal(e.to_string()))?;
        live.spsa = Some(restored);
    }
    Ok(live)
}
