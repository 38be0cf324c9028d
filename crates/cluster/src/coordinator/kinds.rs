//! What each campaign kind adds to the plain match bookkeeping: the SPRT's
//! running test, and the SPSA tune with the perturbation each unit carries.
//! The coordinator keeps one [`Live`] per campaign in memory and saves what
//! it needs to rebuild it in the same transaction that counts a unit.

use super::validate::{IssuedOption, IssuedValue};
use crate::artifacts::ArtifactHash;
use crate::artifacts::shared::SharedInputs;
use crate::artifacts::shipped::Shipped;
use crate::campaign::{CampaignKind, CampaignSpec, SpsaTarget};
use crate::work::unit::FilledTemplate;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_stats::{
    Flip, GameScore, Pentanomial, Perturbation, PerturbationId, SplitMix64, Sprt, Spsa, Status,
    stochastic_round,
};
use ajaxlab_store::GameRecord;
use serde::{Deserialize, Serialize};

/// A campaign as the coordinator runs it.
#[derive(Clone, Debug)]
pub struct Live {
    /// The validated file.
    pub spec: CampaignSpec,
    /// The file's text (stored in every game file's metadata).
    pub toml: String,
    /// SPRT campaigns: the test, fed the running pentanomial after each unit.
    pub sprt: Option<Sprt>,
    /// SPSA campaigns: the tune.
    pub spsa: Option<Spsa>,
    /// What each player ships with (UCI binaries and option files).
    pub shipped: [Shipped; 2],
    /// The texts every unit shares (variants file, opening list), stored as
    /// artifacts and named by hash in the units.
    pub shared: SharedInputs,
}

impl Live {
    /// A campaign before any unit is counted, its players shipping
    /// `shipped`, its units sharing `shared`.
    pub fn new(
        spec: CampaignSpec,
        toml: String,
        shipped: [Shipped; 2],
        shared: SharedInputs,
    ) -> Live {
        let sprt = match &spec.kind {
            CampaignKind::Sprt(config) => Sprt::new(*config).ok(),
            _ => None,
        };
        let spsa = match &spec.kind {
            CampaignKind::Spsa { tune, .. } => Spsa::new(tune.clone()).ok(),
            _ => None,
        };
        Live {
            spec,
            toml,
            sprt,
            spsa,
            shipped,
            shared,
        }
    }

    /// Whether the SPRT has decided (a campaign that stops early).
    pub fn decided(&self) -> bool {
        self.sprt
            .as_ref()
            .is_some_and(|s| s.status() != Status::Continue)
    }

    /// The verdict: [`Status::Continue`] while the test runs (or for
    /// campaigns without one).
    pub fn verdict(&self) -> Status {
        self.sprt.as_ref().map_or(Status::Continue, Sprt::status)
    }

    /// Feeds the SPRT the campaign's running pentanomial.
    pub fn update_sprt(&mut self, total: Pentanomial) {
        if let Some(sprt) = &mut self.sprt
            && total.pairs() > 0
        {
            // A failed update (no MLE for degenerate counts) leaves the test running.
            let _ = sprt.update(total);
        }
    }

    /// Issues the perturbation of a new unit, rounded to the engine's
    /// integers; `None` for campaigns that tune nothing.
    pub fn issue_perturbation(&mut self) -> Option<UnitPerturbation> {
        let seed = self.spec.config.seed;
        let spsa = self.spsa.as_mut()?;
        let mut rng = SplitMix64::new(seed ^ spsa.next_id().wrapping_mul(0xA076_1D64_78BD_642F));
        let p = spsa.issue(&mut rng);
        let round = |values: &[f64], rng: &mut SplitMix64| {
            values
                .iter()
                .map(|v| i32::try_from(stochastic_round(*v, rng)).unwrap_or(0))
                .collect()
        };
        let plus = round(&p.plus, &mut rng);
        let minus = round(&p.minus, &mut rng);
        Some(UnitPerturbation {
            id: p.id.0,
            k: p.k,
            flips: p.flips.iter().map(|f| f.sign() as i8).collect(),
            plus,
            minus,
            plus_exact: p.plus,
            minus_exact: p.minus,
        })
    }

    /// The match a unit plays: the campaign's, with the tuned parameters of
    /// an SPSA unit set to its `θ+` (first player) and `θ−` (second): the
    /// builtin engine's parameters or a UCI engine's options (a template's
    /// values reach the wire by [`Live::filled_templates`]).
    pub fn unit_config(&self, perturbation: Option<&UnitPerturbation>) -> MatchConfig {
        let mut config = self.spec.config.clone();
        let (Some(p), Some(spsa)) = (perturbation, &self.spsa) else {
            return config;
        };
        for (player, values) in config.players.iter_mut().zip([&p.plus, &p.minus]) {
            for (spec, value) in spsa.params().iter().zip(values) {
                match &mut player.kind {
                    PlayerKind::Builtin(params, _) => {
                        // Names and ranges were checked against the engine's table.
                        let _ = params.set(&spec.name, i64::from(*value));
                    }
                    PlayerKind::Uci(uci) if self.target() == Some(&SpsaTarget::UciOptions) => {
                        uci.set_option(&spec.name, value.to_string());
                    }
                    PlayerKind::Uci(_) => {}
                }
            }
        }
        config
    }

    /// What an SPSA campaign's values set; `None` for other kinds.
    fn target(&self) -> Option<&SpsaTarget> {
        match &self.spec.kind {
            CampaignKind::Spsa { target, .. } => Some(target),
            _ => None,
        }
    }

    /// For a unit of an SPSA campaign that tunes a file template: each
    /// player's option and the template filled with its values (`θ+`, `θ−`).
    pub fn filled_templates(
        &self,
        perturbation: Option<&UnitPerturbation>,
    ) -> Option<[FilledTemplate; 2]> {
        let (Some(p), Some(spsa), Some(SpsaTarget::Template(t))) =
            (perturbation, &self.spsa, self.target())
        else {
            return None;
        };
        Some([&p.plus, &p.minus].map(|values| {
            let named: Vec<(&str, i64)> = spsa
                .params()
                .iter()
                .zip(values)
                .map(|(spec, v)| (spec.name.as_str(), i64::from(*v)))
                .collect();
            FilledTemplate {
                option: t.option.clone(),
                text: t.template.fill(&named),
            }
        }))
    }
    /// What each player of a unit (with `perturbation`) was issued as UCI
    /// options: the values of [`Live::unit_config`], but for a file the
    /// campaign ships or the unit sends filled, the file's hash.
    pub fn issued_options(
        &self,
        perturbation: Option<&UnitPerturbation>,
    ) -> [Vec<IssuedOption>; 2] {
        let config = self.unit_config(perturbation);
        let filled = self.filled_templates(perturbation);
        std::array::from_fn(|i| {
            let PlayerKind::Uci(uci) = &config.players[i].kind else {
                return Vec::new();
            };
            uci.options
                .iter()
                .map(|(name, value)| {
                    let shipped = self.shipped[i]
                        .option_files
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, hash)| *hash);
                    let written = filled
                        .as_ref()
                        .filter(|f| f[i].option == *name)
                        .map(|f| ArtifactHash::of(f[i].text.as_bytes()));
                    IssuedOption {
                        name: name.clone(),
                        value: written
                            .or(shipped)
                            .map_or_else(|| IssuedValue::Text(value.clone()), IssuedValue::File),
                    }
                })
                .collect()
        })
    }
}

/// The SPSA perturbation a unit plays, as stored with the unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitPerturbation {
    /// The tune's perturbation id.
    pub id: u64,
    /// Its iteration `k`.
    pub k: u64,
    /// Its flips, ±1 per parameter.
    pub flips: Vec<i8>,
    /// The first player's values (rounded).
    pub plus: Vec<i32>,
    /// The second player's values (rounded).
    pub minus: Vec<i32>,
    /// `θ + c_k·flip` before rounding.
    pub plus_exact: Vec<f64>,
    /// `θ − c_k·flip` before rounding.
    pub minus_exact: Vec<f64>,
}

impl UnitPerturbation {
    /// The stored text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads the stored text; empty text is no perturbation.
    ///
    /// # Errors
    /// A message if the text is not a stored perturbation.
    pub fn from_text(text: &str) -> Result<Option<UnitPerturbation>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        serde_json::from_str(text)
            .map(Some)
            .map_err(|e| format!("stored perturbation: {e}"))
    }

    /// The tune's view of it.
    pub fn perturbation(&self) -> Perturbation {
        Perturbation {
            id: PerturbationId(self.id),
            k: self.k,
            flips: self
                .flips
                .iter()
                .map(|&f| if f > 0 { Flip::Plus } else { Flip::Minus })
                .collect(),
            plus: self.plus_exact.clone(),
            minus: self.minus_exact.clone(),
        }
    }
}

/// Wins minus losses of the first player over `games`.
pub fn first_player_balance(games: &[GameRecord]) -> f64 {
    games
        .iter()
        .map(|g| match g.first_player_score() {
            GameScore::Win => 1.0,
            GameScore::Loss => -1.0,
            GameScore::Draw => 0.0,
        })
        .sum()
}
