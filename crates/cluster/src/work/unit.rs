//! A unit of work as both sides hold it: the lease, the pairs, the match
//! to play, and what its players ship with. The coordinator makes it, a
//! worker plays it; between machines it travels as the wire's
//! `WorkUnit`, converted here and only here.

use crate::artifacts::shared::SharedInputs;
use crate::artifacts::shipped::Shipped;
use crate::ids::CampaignId;
use crate::work::Lease;
use ajaxlab_arena::MatchConfig;
use ajaxlab_proto::convert::UnitSpec;
use ajaxlab_proto::v1;
use std::time::Duration;

/// A file template filled with one player's values, for the option that
/// names it to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilledTemplate {
    /// The UCI option.
    pub option: String,
    /// The file's text.
    pub text: String,
}

/// A unit of work: pairs `first_pair..first_pair + pair_count` of a
/// campaign's match, leased to one worker.
#[derive(Clone, Debug)]
pub struct WorkUnit {
    /// The campaign.
    pub campaign: CampaignId,
    /// The unit and the token it was leased with.
    pub lease: Lease,
    /// How long the lease lasts from when it was granted unless renewed.
    pub lease_duration: Duration,
    /// The first pair it plays.
    pub first_pair: u64,
    /// How many pairs it plays.
    pub pair_count: u32,
    /// The match, with the unit's perturbation applied (SPSA); UCI players
    /// as the campaign names them, their shipped files still to fetch.
    pub config: MatchConfig,
    /// What each player ships with, by hash.
    pub shipped: [Shipped; 2],
    /// SPSA tunes of a file template: each player's filled file.
    pub filled: Option<[FilledTemplate; 2]>,
    /// The texts every unit of the campaign shares, by hash (the wire
    /// names them instead of sending them).
    pub shared: SharedInputs,
}

impl WorkUnit {
    /// The wire form: the match with the shared texts, the shipped files
    /// and the filled templates named by hash or sent as text.
    pub fn to_wire(&self) -> v1::WorkUnit {
        let mut unit = v1::WorkUnit::from(UnitSpec {
            config: &self.config,
            campaign_id: &self.campaign,
            unit_id: &self.lease.unit,
            lease_token: self.lease.token.as_str(),
            lease: self.lease_duration,
            first_pair: self.first_pair,
            pair_count: self.pair_count,
        });
        ship(&mut unit, &self.shipped);
        self.shared.apply(&mut unit);
        if let Some(filled) = &self.filled {
            fill_templates(&mut unit, filled);
        }
        unit
    }

    /// The unit a wire unit is, once the shared texts it names are put
    /// back (`artifacts::shared::inline`).
    ///
    /// # Errors
    /// What is wrong with it, naming the field.
    pub fn from_wire(unit: &v1::WorkUnit, shared: SharedInputs) -> Result<WorkUnit, String> {
        let config = MatchConfig::try_from(unit).map_err(|e| e.to_string())?;
        let lease = Lease::of(unit).map_err(|e| format!("WorkUnit.unit_id: {e}"))?;
        let mut shipped: [Shipped; 2] = Default::default();
        let mut filled: [Option<FilledTemplate>; 2] = Default::default();
        for (i, player) in unit.players.iter().enumerate().take(2) {
            let Some(v1::player::Engine::Uci(engine)) = &player.engine else {
                continue;
            };
            shipped[i] =
                Shipped::of_wire(engine).map_err(|e| format!("WorkUnit.players[{i}]: {e}"))?;
            filled[i] = engine.options.iter().find_map(|o| {
                Some(FilledTemplate {
                    option: o.name.clone(),
                    text: o.file_text.clone()?,
                })
            });
        }
        let filled = match filled {
            [Some(a), Some(b)] => Some([a, b]),
            [None, None] => None,
            _ => {
                return Err(
                    "WorkUnit.players: one player has a filled template, the other none".into(),
                );
            }
        };
        Ok(WorkUnit {
            campaign: unit
                .campaign_id
                .parse()
                .map_err(|e| format!("WorkUnit.campaign_id: {e}"))?,
            lease,
            lease_duration: Duration::from_millis(unit.lease_ms),
            first_pair: unit.first_pair,
            pair_count: unit.pair_count,
            config,
            shipped,
            filled,
            shared,
        })
    }
}

/// Writes what each player ships with into `unit`: the binary's hash in
/// place of a worker path, and the hash of each option file.
fn ship(unit: &mut v1::WorkUnit, shipped: &[Shipped; 2]) {
    for (player, shipped) in unit.players.iter_mut().zip(shipped) {
        let Some(v1::player::Engine::Uci(uci)) = &mut player.engine else {
            continue;
        };
        if let Some(hash) = shipped.binary {
            uci.sha256 = Some(hash.to_string());
            uci.worker_path.clear();
        }
        for (name, hash) in &shipped.option_files {
            if let Some(option) = uci.options.iter_mut().find(|o| &o.name == name) {
                option.sha256 = Some(hash.to_string());
            }
        }
    }
}

/// Writes each player's filled SPSA template into `unit`: the text of the
/// file its option is to name, which the worker writes and points it at.
fn fill_templates(unit: &mut v1::WorkUnit, filled: &[FilledTemplate; 2]) {
    for (player, filled) in unit.players.iter_mut().zip(filled) {
        let Some(v1::player::Engine::Uci(uci)) = &mut player.engine else {
            continue;
        };
        if let Some(option) = uci.options.iter_mut().find(|o| o.name == filled.option) {
            option.file_text = Some(filled.text.clone());
        }
    }
}
