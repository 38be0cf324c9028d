//! The result of an SPSA tune, written into its campaign directory when
//! the campaign is over (finished, or stopped by the operator: then θ as
//! it stood): [`FINAL_TOML`], a parameter file the builtin engine loads
//! (`builtin:PATH`, `ajaxlab params --from PATH`), and [`FINAL_SPSA`],
//! Fishtest's lines with the final values, ready to start another tune.
//! Both hold θ rounded to the engine's integers; θ itself, unrounded, is
//! the last row of the trajectory file.

use super::error::StorageError;
use super::{Coordinator, CoordinatorError};
use crate::ids::CampaignId;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_engine::params::SPECS;
use ajaxlab_engine::{ParamError, ParamSpec, Params};
use ajaxlab_stats::{SpsaParam, SpsaValueType, spsa_line};

/// The tuned player's parameter file.
pub const FINAL_TOML: &str = "final.toml";

/// The final values as Fishtest's lines.
pub const FINAL_SPSA: &str = "final.spsa";

/// `theta` rounded to the nearest integer.
fn engine_value(theta: f64) -> i64 {
    // θ stays within the tune's range, itself inside the engine's i32 range;
    // `as` saturates anything else and the range check refuses it.
    theta.round() as i64
}

/// The texts of [`FINAL_TOML`] and [`FINAL_SPSA`] for the tune of
/// `campaign`: `base` (the tuned player's parameters) with each of
/// `params` set to its `theta`, rounded.
///
/// # Errors
/// [`ParamError`] for a value the engine does not take.
fn final_texts(
    campaign: &CampaignId,
    base: &Params,
    params: &[SpsaParam],
    theta: &[f64],
) -> Result<(String, String), ParamError> {
    let mut values = base.clone();
    let mut lines = String::new();
    for (param, theta) in params.iter().zip(theta) {
        values.set(&param.name, engine_value(*theta))?;
        let value = values.get(&param.name).map_or(*theta, f64::from);
        lines.push_str(&spsa_line(param, SpsaValueType::Int, value));
    }
    let tuned = |s: &ParamSpec| params.iter().any(|p| p.name == s.name);
    let defaults = Params::default();
    let tuned_specs: Vec<&ParamSpec> = params
        .iter()
        .filter_map(|p| ajaxlab_engine::params::spec(&p.name))
        .collect();
    let kept: Vec<&ParamSpec> = SPECS
        .iter()
        .filter(|s| !tuned(s) && base.get(s.name) != defaults.get(s.name))
        .collect();
    let mut toml = format!(
        "# SPSA campaign {campaign}: the tuned values, rounded for the engine.\n{}",
        values.to_toml(&tuned_specs)
    );
    if !kept.is_empty() {
        toml.push_str("# Not tuned: the tuned player's own values.\n");
        toml.push_str(&values.to_toml(&kept));
    }
    Ok((toml, lines))
}

impl Coordinator {
    /// Writes [`FINAL_TOML`] and [`FINAL_SPSA`] of an SPSA campaign that is
    /// over (nothing for a running one or another kind), atomically.
    ///
    /// # Errors
    /// Storage failure, or final values the engine does not take.
    pub(super) fn write_spsa_final(&self, campaign: &CampaignId) -> Result<(), CoordinatorError> {
        if !self.campaign(campaign)?.state.is_over() {
            return Ok(());
        }
        let texts = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let Some(live) = campaigns.get(campaign) else {
                return Ok(());
            };
            let (Some(spsa), PlayerKind::Builtin(base, _)) =
                (&live.spsa, &live.spec.config.players[0].kind)
            else {
                return Ok(());
            };
            final_texts(campaign, base, spsa.params(), spsa.theta())
                .map_err(|e| StorageError::Spsa(format!("final values: {e}")))?
        };
        let dir = self.campaign_dir(campaign);
        ajaxlab_store::atomic::write_text(&dir.join(FINAL_TOML), &texts.0)?;
        ajaxlab_store::atomic::write_text(&dir.join(FINAL_SPSA), &texts.1)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_stats::parse_spsa_lines;

    fn tune() -> CampaignId {
        CampaignId::new("tune").unwrap()
    }

    fn param(name: &str, min: f64, max: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            start: min,
            min,
            max,
            c_end: 25.0,
            r_end: 0.002,
        }
    }

    #[test]
    fn the_final_files_hold_theta_rounded_over_the_player_s_own_values() {
        let mut base = Params::default();
        base.set("afc.rook.mg", 500).unwrap();
        let params = [
            param("afc.falcon.mg", 250.0, 1000.0),
            param("afc.minister.mg", 300.5, 1100.0),
        ];
        let (toml, lines) = final_texts(&tune(), &base, &params, &[601.5, 300.6]).unwrap();
        let loaded = Params::from_text(&toml).unwrap();
        assert_eq!(loaded.afc_falcon_mg, 602);
        assert_eq!(loaded.afc_minister_mg, 301);
        assert_eq!(loaded.afc_rook_mg, 500, "the player's own value is kept");
        assert!(toml.starts_with("# SPSA campaign tune:"), "{toml}");
        assert_eq!(toml.lines().count(), 5, "{toml}");
        assert_eq!(
            lines,
            "afc.falcon.mg,int,602,250,1000,25,0.002\nafc.minister.mg,int,301,300.5,1100,25,0.002\n"
        );
        let read = parse_spsa_lines(&lines).unwrap();
        assert_eq!(read[1].param.start, 301.0);
        assert_eq!(read[1].param.min, 300.5);
    }

    #[test]
    fn a_value_the_engine_does_not_take_is_an_error() {
        let params = [param("afc.falcon.mg", 250.0, 1000.0)];
        let e = final_texts(&tune(), &Params::default(), &params, &[f64::INFINITY]).unwrap_err();
        assert!(matches!(e, ParamError::OutOfRange { .. }), "{e}");
    }
}
