//! Submissions and counting: a unit's games are validated, written to their
//! own file, then counted in one transaction, exactly once (also when a
//! file is found uncounted on start-up); and SPSA trajectories follow.

use super::activity::UnitEvent;
use super::error::{LeaseError, StorageError, SubmissionError, file_error};
use super::leases::WorkerKey;
use super::tokens::TokenHash;
use super::verify::{self, Quarantined};
use super::{
    CampaignState, Coordinator, CoordinatorError, Submitted, bump, now_ms, outliers, validate,
};
use crate::coordinator::kinds::{Live, UnitPerturbation, first_player_balance};
use crate::ids::{CampaignId, UnitId, WorkerId};
use crate::work::Lease;
use ajaxlab_arena::live::LiveStats;
use ajaxlab_proto::convert::game_record;
use ajaxlab_proto::v1;
use ajaxlab_stats::Pentanomial;
use ajaxlab_store::atomic::TEMPORARY_MARK;
use ajaxlab_store::record::white_counts;
use ajaxlab_store::state::{
    CountedResult, GamesFileRecord, SpsaSnapshot, UnitCounts, UnitPlay, UnitState, campaigns,
    exclusions, rejections, results, spsa_history, starts, units, workers,
};
use ajaxlab_store::{
    GameRecord, SPSA_FILE, TrajectoryRow, read_games, write_games, write_trajectory,
};
use std::time::Duration;

/// White's wins, draws and losses per start of `games`, the start by its
/// number if it has one, else by its FEN.
fn white_by_start(games: &[GameRecord]) -> Vec<(starts::Start, ajaxlab_stats::Trinomial)> {
    let mut by_start: std::collections::BTreeMap<starts::Start, Vec<&GameRecord>> =
        std::collections::BTreeMap::new();
    for game in games {
        let start = game.start_number.map_or_else(
            || starts::Start::Fen(game.start_fen.clone()),
            starts::Start::Number,
        );
        by_start.entry(start).or_default().push(game);
    }
    by_start
        .into_iter()
        .map(|(start, games)| (start, white_counts(games)))
        .collect()
}

/// A unit's games as they come to be counted.
enum Submission<'a> {
    /// Sent by a worker over the wire: converted, replayed, checked.
    Sent(&'a [v1::GameRecord]),
    /// Played by this process: the unit's games, by id.
    Own(Vec<GameRecord>),
}

impl Submission<'_> {
    fn len(&self) -> usize {
        match self {
            Submission::Sent(games) => games.len(),
            Submission::Own(games) => games.len(),
        }
    }
}

/// An SPSA tune after one update.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaStep {
    /// Pairs applied so far.
    pub completed_pairs: u64,
    /// θ, in the order of the tune's parameters.
    pub theta: Vec<f64>,
}

/// The longest an SPSA trajectory file lags behind the database while a tune runs.
const TRAJECTORY_EVERY: Duration = Duration::from_secs(2);

/// Refused units after which a worker token gets no more units of a
/// campaign, and different tokens under which one unit is refused before
/// its campaign is paused.
pub const MAX_REJECTIONS: u64 = 3;

/// An SPSA tune's state after update `seq` (0: the start), made by `unit`'s
/// games (`None` for the start), as stored.
pub(super) fn spsa_snapshot(
    seq: u64,
    unit: Option<&UnitId>,
    spsa: &ajaxlab_stats::Spsa,
) -> SpsaSnapshot {
    SpsaSnapshot {
        seq,
        unit: unit.cloned(),
        completed: spsa.completed_iterations(),
        next_id: spsa.next_id(),
        theta: spsa.theta().to_vec(),
    }
}

impl Coordinator {
    /// Counts the units whose files are on disk but not yet counted (a
    /// crash between the two); a file that does not read is quarantined
    /// and its unit played again. Unfinished writes' temporary files are
    /// removed.
    pub(super) fn reconcile(&self) -> Result<Vec<Quarantined>, CoordinatorError> {
        // A unit given back has no worker (''): were its file there, it is
        // played again rather than counted to nobody.
        let pending = units::pending(&self.db())?;
        let unloaded = self.unloaded_lock().clone();
        let mut quarantined = Vec::new();
        for unit in pending
            .into_iter()
            .filter(|u| !unloaded.contains_key(&u.campaign))
        {
            let file = self.unit_file(&unit.campaign, &unit.id);
            if !file.exists() {
                continue;
            }
            let checked = read_games(&file)
                .map_err(|e| format!("its uncounted games file does not read: {e}"))
                .and_then(|read| {
                    self.belongs_to(&unit, &read.games)?;
                    Ok(read.games)
                });
            match (checked, &unit.worker) {
                (Ok(games), Some(worker)) => {
                    self.count_unit(&unit.campaign, &unit.id, worker, None, &games)?;
                }
                (Ok(_), None) => quarantined.push(self.quarantine_uncounted(
                    &unit.campaign,
                    &unit.id,
                    "its uncounted games file is of no worker's lease".to_owned(),
                )?),
                (Err(reason), _) => {
                    quarantined.push(self.quarantine_uncounted(&unit.campaign, &unit.id, reason)?)
                }
            }
        }
        quarantined.extend(self.quarantine_strays()?);
        self.remove_unfinished_writes()?;
        Ok(quarantined)
    }

    /// Checks that `games`, found in the file of the uncounted `unit`, are
    /// that unit's (its game ids, pairs, seeds and run), so that a file
    /// named like an unfinished unit is counted only if it is the unit's own.
    ///
    /// # Errors
    /// Why they are not, as text.
    fn belongs_to(&self, unit: &units::PendingUnit, games: &[GameRecord]) -> Result<(), String> {
        let perturbation = UnitPerturbation::from_text(&unit.spsa).map_err(|e| e.to_string())?;
        let config = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&unit.campaign)
            .ok_or("its campaign is not loaded")?
            .unit_config(perturbation.as_ref());
        if games.len() as u64 != 2 * unit.pair_count {
            return Err(format!(
                "its uncounted games file holds {} games; the unit is {}",
                games.len(),
                2 * unit.pair_count
            ));
        }
        validate::check_identity(&config, unit.id.first_pair(), unit.pair_count, games)
            .map_err(|r| format!("its uncounted games file is not the unit's: {r}"))
    }

    /// Moves to `quarantine/` every file of a campaign's directory named
    /// like a unit's games (`unit-*.parquet`) that is of no unit of the
    /// campaign, so that a stray file never reaches a reader's glob.
    fn quarantine_strays(&self) -> Result<Vec<Quarantined>, CoordinatorError> {
        let mut moved = Vec::new();
        for campaign in self.loaded_ids() {
            let dir = self.campaign_dir(&campaign);
            let Ok(files) = std::fs::read_dir(&dir) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                let Some(stem) = name
                    .strip_prefix("unit-")
                    .and_then(|n| n.strip_suffix(".parquet"))
                else {
                    continue;
                };
                let known = stem
                    .parse::<UnitId>()
                    .ok()
                    .filter(|u| u.campaign() == &campaign)
                    .map(|u| units::status(&self.db(), &u))
                    .transpose()?
                    .flatten()
                    .is_some();
                if !known {
                    moved.push(self.quarantine_stray(&campaign, &file.path(), &name)?);
                }
            }
        }
        Ok(moved)
    }

    /// Removes the temporary files of writes a crash cut short.
    fn remove_unfinished_writes(&self) -> Result<(), CoordinatorError> {
        let root = self.dir.join("campaigns");
        let Ok(campaigns) = std::fs::read_dir(&root) else {
            return Ok(());
        };
        for dir in campaigns.flatten() {
            let Ok(files) = std::fs::read_dir(dir.path()) else {
                continue;
            };
            for file in files.flatten() {
                if file.file_name().to_string_lossy().contains(TEMPORARY_MARK) {
                    let path = file.path();
                    std::fs::remove_file(&path).map_err(file_error(&path))?;
                }
            }
        }
        Ok(())
    }

    /// Validates, stores and counts the games of a unit a worker sent,
    /// exactly once: each game is replayed, and a token whose games are
    /// implausible next to the others' is counted out.
    ///
    /// # Errors
    /// `NotFound` for an unknown unit; `InvalidArgument` with the reason if a
    /// game does not hold up (nothing of the unit is stored).
    pub fn submit(
        &self,
        key: &WorkerKey,
        lease: &Lease,
        games: &[v1::GameRecord],
    ) -> Result<Submitted, CoordinatorError> {
        self.accept(key, lease, Submission::Sent(games))
    }

    /// Stores and counts the games of a unit this very process played
    /// (`ajaxlab campaign run`), exactly once: they are the unit's games
    /// (checked by id), played by this build, so not replayed.
    ///
    /// # Errors
    /// As [`Coordinator::submit`].
    pub fn submit_own(
        &self,
        key: &WorkerKey,
        lease: &Lease,
        games: Vec<GameRecord>,
    ) -> Result<Submitted, CoordinatorError> {
        self.accept(key, lease, Submission::Own(games))
    }

    fn accept(
        &self,
        key: &WorkerKey,
        lease: &Lease,
        games: Submission<'_>,
    ) -> Result<Submitted, CoordinatorError> {
        let (worker, unit) = (&key.id, &lease.unit);
        let _span = tracing::info_span!("submit", %unit, %worker).entered();
        // Claimed before its state is read: a submission that finds the
        // unit open holds it until it is counted or refused.
        let Some(_claim) = self.submitting.claim(unit) else {
            bump(&self.counters.duplicate, 1);
            return Ok(Submitted::Duplicate);
        };
        let held = self.held_unit(key, lease)?;
        if held.done {
            bump(&self.counters.duplicate, 1);
            return Ok(Submitted::Duplicate);
        }
        if !held.held {
            bump(&self.counters.stale, 1);
            return Ok(Submitted::Stale);
        }
        let campaign = held.campaign;
        let perturbation = UnitPerturbation::from_text(&held.spsa).map_err(StorageError::Spsa)?;
        let (config, options, mut metadata) = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let live = campaigns
                .get(&campaign)
                .ok_or_else(|| StorageError::NotLoaded(campaign.clone()))?;
            (
                live.unit_config(perturbation.as_ref()),
                live.issued_options(perturbation.as_ref()),
                live.spec.file_metadata(&live.toml),
            )
        };
        // Counted before anything of them is converted: a submission of
        // more games than the unit has costs no more than the unit would.
        if games.len() as u64 != 2 * held.pair_count {
            let rejection = validate::Rejection {
                game_id: 2 * held.first_pair,
                reason: format!(
                    "{} games submitted; the unit is {} games",
                    games.len(),
                    2 * held.pair_count
                ),
            };
            return Err(self.refuse(&campaign, unit, &key.token, rejection));
        }
        let sorted = match games {
            Submission::Sent(games) => {
                let records: Vec<GameRecord> = games
                    .iter()
                    .enumerate()
                    .map(|(i, g)| game_record(g, &config.run_id, config.variant, i))
                    .collect::<Result<_, _>>()
                    .map_err(SubmissionError::Wire)?;
                if let Err(rejection) = validate::validate_unit(
                    &config,
                    &options,
                    held.first_pair,
                    held.pair_count,
                    &records,
                ) {
                    return Err(self.refuse(&campaign, unit, &key.token, rejection));
                }
                let mut sorted = records;
                sorted.sort_by_key(|g| g.game_id);
                if let Some(why) = self.implausible_for_token(&campaign, &key.token, &sorted)? {
                    let rejection = validate::Rejection {
                        game_id: 2 * held.first_pair,
                        reason: format!("{why}; the token's units go to other workers"),
                    };
                    let refused = self.refuse(&campaign, unit, &key.token, rejection);
                    self.exclude_implausible(&campaign, worker);
                    return Err(refused);
                }
                sorted
            }
            Submission::Own(mut games) => {
                if let Err(rejection) =
                    validate::check_ids(held.first_pair, held.pair_count, &games)
                {
                    return Err(self.refuse(&campaign, unit, &key.token, rejection));
                }
                games.sort_by_key(|g| g.game_id);
                games
            }
        };
        metadata.param_names = ajaxlab_engine::params::specs_for(config.variant)
            .iter()
            .map(|s| s.name.to_owned())
            .collect();
        let file = self.unit_file(&campaign, unit);
        write_games(&file, &sorted, &metadata)?;
        self.count_unit(&campaign, unit, worker, Some(&key.token), &sorted)?;
        bump(&self.counters.accepted, 1);
        bump(&self.counters.games, sorted.len() as u64);
        Ok(Submitted::Accepted)
    }

    /// Why `games`, added to the counted games of `token` in `campaign`,
    /// are implausible next to the other tokens' ([`outliers::implausible_play`]).
    fn implausible_for_token(
        &self,
        campaign: &CampaignId,
        token: &TokenHash,
        games: &[GameRecord],
    ) -> Result<Option<String>, CoordinatorError> {
        let (mine, others) = self.token_play(campaign, token)?;
        Ok(outliers::implausible_play(
            mine + UnitPlay::of(games),
            others,
        ))
    }

    /// Counts the games of `worker`'s token out of `campaign` (they are
    /// played again by others) after an implausible unit; an SPSA tune's
    /// updates cannot be taken back, so there the refusals alone keep the
    /// token out.
    fn exclude_implausible(&self, campaign: &CampaignId, worker: &WorkerId) {
        match self.exclude_worker(campaign, worker) {
            Ok(_) => {
                tracing::warn!(%campaign, %worker, "implausible games: the token's games are counted out")
            }
            Err(e) => tracing::warn!(%campaign, %worker, "implausible games, not counted out: {e}"),
        }
    }

    /// The error a refused submission answers, once the refusal is noted
    /// ([`Coordinator::note_rejection`]); a failure to note it, if it fails.
    fn refuse(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        token: &TokenHash,
        rejection: validate::Rejection,
    ) -> CoordinatorError {
        bump(&self.counters.rejected, 1);
        match self.note_rejection(campaign, unit, token) {
            Ok(()) => SubmissionError::Rejected {
                unit: unit.clone(),
                rejection,
            }
            .into(),
            Err(e) => e,
        }
    }

    /// A refused unit goes back to the pool, and the refusal is noted
    /// against the token that sent it: one token cannot stop a campaign for
    /// everyone. A token refused [`MAX_REJECTIONS`] times in a campaign gets
    /// no more of its units (its counted games stay until an operator
    /// excludes it and counts them out). A unit refused under
    /// [`MAX_REJECTIONS`] different tokens (workers that agree with each
    /// other and not with this coordinator: a bug, or a build that
    /// disagrees) pauses its campaign for an operator to look at.
    fn note_rejection(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        token: &TokenHash,
    ) -> Result<(), CoordinatorError> {
        let db = self.db();
        units::refuse(&db, unit)?;
        rejections::record(&db, campaign, unit, token, now_ms())?;
        let by_token = rejections::of_token(&db, campaign, token)?;
        if by_token >= MAX_REJECTIONS {
            let fresh = exclusions::exclude_token(&db, campaign, token, now_ms())?;
            if fresh {
                tracing::warn!(
                    %campaign,
                    "a worker token sent {by_token} refused units; it gets no more units of this campaign"
                );
            }
        }
        let tokens = rejections::tokens_refusing(&db, unit)?;
        if tokens >= MAX_REJECTIONS {
            let paused = campaigns::change_state(
                &db,
                campaign,
                CampaignState::Running,
                CampaignState::Paused,
            )?;
            if paused {
                tracing::warn!(
                    %unit,
                    %campaign,
                    "unit refused under {tokens} different worker tokens; campaign paused"
                );
            }
        }
        Ok(())
    }

    /// Marks a unit done and adds its pairs to the campaign, in one transaction.
    fn count_unit(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        worker: &WorkerId,
        token: Option<&TokenHash>,
        games: &[GameRecord],
    ) -> Result<(), CoordinatorError> {
        let file = verify::digest(&self.unit_file(campaign, unit))?;
        self.write_unit_positions(campaign, unit, games)?;
        let mut stats = LiveStats::default();
        for pair in games.chunks_exact(2) {
            stats.add_pair(&pair[0], &pair[1]);
        }
        let penta = stats.pentanomial;
        let white = white_counts(games);
        let by_start = self.first_move(campaign).then(|| white_by_start(games));
        let mut db = self.db();
        let tx = db.transaction()?;
        let Some(status) = units::status(&tx, unit)? else {
            return Err(LeaseError::UnknownUnit(unit.clone()).into());
        };
        if status.state == UnitState::Done {
            return Ok(());
        }
        results::insert(
            &tx,
            &CountedResult {
                unit,
                worker,
                pentanomial: penta,
                white,
                first: stats.trinomial,
                done_ms: now_ms(),
                file: &GamesFileRecord {
                    sha256: file.sha256,
                    bytes: file.bytes,
                    games: u64::try_from(games.len()).unwrap_or(u64::MAX),
                },
                play: UnitPlay::of(games),
            },
        )?;
        units::mark_done(&tx, unit)?;
        if let Some(by_start) = &by_start {
            starts::insert(&tx, unit, by_start)?;
        }
        campaigns::add_counts(
            &tx,
            campaign,
            &UnitCounts {
                pentanomial: penta,
                white,
                first: stats.trinomial,
            },
        )?;
        let elapsed_min = units::minutes_leased(&tx, unit, now_ms())?;
        if let Some(minutes) = elapsed_min.filter(|m| *m > 0.0) {
            let rate = penta.pairs() as f64 / minutes;
            workers::set_pace(&tx, worker, rate)?;
        }
        let complete = campaigns::progress(&tx, campaign)?.complete();
        // The kind's own state moves on a copy, saved in this transaction and
        // kept only once it commits.
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut next = campaigns.get(campaign).cloned();
        let was_decided = next.as_ref().is_some_and(Live::decided);
        if let Some(live) = &mut next {
            if live.sprt.is_some() {
                live.update_sprt(campaigns::pentanomial(&tx, campaign)?);
            }
            if let (Some(spsa), Some(perturbation)) = (
                &mut live.spsa,
                UnitPerturbation::from_text(&status.spsa).map_err(StorageError::Spsa)?,
            ) {
                spsa.apply(
                    &perturbation.perturbation(),
                    first_player_balance(games),
                    games.len() as u64,
                )
                .map_err(|source| StorageError::SpsaUpdate {
                    unit: unit.clone(),
                    source,
                })?;
                let seq = spsa_history::next_seq(&tx, campaign)?;
                spsa_history::save(&tx, campaign, &spsa_snapshot(seq, Some(unit), spsa))?;
            }
        }
        let decided = next.as_ref().is_some_and(Live::decided);
        if complete || decided {
            campaigns::finish(&tx, campaign)?;
        }
        tx.commit()?;
        match token {
            Some(token) => self.play_totals.add(campaign, token, UnitPlay::of(games)),
            None => self.play_totals.forget(campaign),
        }
        if let Some(live) = next {
            campaigns.insert(campaign.clone(), live);
        }
        drop(campaigns);
        drop(db);
        self.write_spsa_trajectory(campaign, complete)?;
        self.log_unit(
            campaign,
            unit,
            UnitEvent::Counted {
                pairs: penta.pairs(),
            },
        );
        if decided && !was_decided {
            self.log_verdict(campaign);
        }
        if complete || decided {
            self.write_campaign_pgn_or_warn(campaign);
        }
        self.changed();
        Ok(())
    }

    /// Rewrites an SPSA campaign's trajectory file from the stored history
    /// (nothing for other kinds): always if `now`, else at most every
    /// [`TRAJECTORY_EVERY`]; if `now` and the campaign is over, its final
    /// values too (`spsa_final`).
    pub(super) fn write_spsa_trajectory(
        &self,
        campaign: &CampaignId,
        now: bool,
    ) -> Result<(), CoordinatorError> {
        let mut written = self
            .trajectories
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !now
            && written
                .get(campaign)
                .is_some_and(|t| t.elapsed() < TRAJECTORY_EVERY)
        {
            return Ok(());
        }
        let names: Vec<String> = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match campaigns.get(campaign).and_then(|l| l.spsa.as_ref()) {
                Some(spsa) => spsa.params().iter().map(|p| p.name.clone()).collect(),
                None => return Ok(()),
            }
        };
        let history = spsa_history::history(&self.db(), campaign)?;
        let mut rows = Vec::new();
        for snapshot in history {
            let unit_id = snapshot
                .unit
                .as_ref()
                .map_or_else(String::new, ToString::to_string);
            for (param, &value) in names.iter().zip(&snapshot.theta) {
                rows.push(TrajectoryRow {
                    seq: snapshot.seq,
                    completed_pairs: snapshot.completed,
                    unit_id: unit_id.clone(),
                    param: param.clone(),
                    value,
                });
            }
        }
        write_trajectory(&self.campaign_dir(campaign).join(SPSA_FILE), &rows)?;
        if now {
            self.write_spsa_final(campaign)?;
        }
        written.insert(campaign.clone(), std::time::Instant::now());
        Ok(())
    }

    /// Pair counts of a campaign after each counted unit, in order (for plots).
    ///
    /// # Errors
    /// Storage failure.
    pub fn history(&self, campaign: &CampaignId) -> Result<Vec<Pentanomial>, CoordinatorError> {
        Ok(results::running_totals(&self.reader(), campaign)?)
    }

    /// An SPSA campaign's θ after each update, the start first.
    ///
    /// # Errors
    /// Storage failure.
    pub fn spsa_history(&self, campaign: &CampaignId) -> Result<Vec<SpsaStep>, CoordinatorError> {
        let history = spsa_history::history(&self.reader(), campaign)?;
        Ok(history
            .into_iter()
            .map(|s| SpsaStep {
                completed_pairs: s.completed,
                theta: s.theta,
            })
            .collect())
    }

    /// Every worker's standing in a campaign (outlier check).
    ///
    /// # Errors
    /// Storage failure.
    pub fn standings(
        &self,
        campaign: &CampaignId,
    ) -> Result<Vec<outliers::WorkerStanding>, CoordinatorError> {
        let per_worker = results::per_worker(&self.reader(), campaign)?;
        Ok(outliers::standings(&per_worker))
    }
}
