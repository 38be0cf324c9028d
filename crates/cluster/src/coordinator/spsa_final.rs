//! The result of an SPSA tune, written into its campaign directory when
//! the campaign is over (finished, or stopped by the operator: then θ as
//! it stood): [`FINAL_SPSA`], Fishtest's lines with the final values, ready
//! to start another tune, and the values in the form the tuned engine
//! takes them: for the builtin engine [`FINAL_TOML`], a parameter file it
//! loads (`builtin:PATH`, `ajaxlab params --from PATH`); for a UCI engine's
//! spin options [`FINAL_OPTIONS`], a player's `options` table; for a file
//! template `final-NAME`, the template filled (`NAME` is the template's
//! name without `.in`). All hold θ rounded to integers; θ itself,
//! unrounded, is the last row of the trajectory file.

use super::error::StorageError;
use super::{Coordinator, CoordinatorError};
use crate::campaign::{CampaignKind, SpsaTarget};
use crate::ids::CampaignId;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_engine::params::SPECS;
use ajaxlab_engine::{ParamError, ParamSpec, Params};
use ajaxlab_stats::{SpsaParam, SpsaValueType, spsa_line};

/// The tuned player's parameter file.
pub const FINAL_TOML: &str = "final.toml";

/// The final values as Fishtest's lines.
pub const FINAL_SPSA: &str = "final.spsa";

/// A tuned UCI engine's spin options, as a player's `options` table.
pub const FINAL_OPTIONS: &str = "final-options.toml";

/// θ rounded, by name.
fn rounded<'a>(params: &'a [SpsaParam], theta: &[f64]) -> Vec<(&'a str, i64)> {
    params
        .iter()
        .zip(theta)
        .map(|(p, t)| (p.name.as_str(), engine_value(*t)))
        .collect()
}

/// Fishtest's lines of the final values of `params`.
fn uci_lines(params: &[SpsaParam], theta: &[f64]) -> String {
    params
        .iter()
        .zip(rounded(params, theta))
        .map(|(p, (_, v))| spsa_line(p, SpsaValueType::Int, v as f64))
        .collect()
}

/// The text of [`FINAL_OPTIONS`].
fn options_text(campaign: &CampaignId, params: &[SpsaParam], theta: &[f64]) -> String {
    let mut table = toml::Table::new();
    for (name, value) in rounded(params, theta) {
        table.insert(name.to_owned(), value.into());
    }
    let mut wrapped = toml::Table::new();
    wrapped.insert("options".into(), table.into());
    format!(
        "# SPSA campaign {campaign}: the tuned UCI options, rounded; a player's options.\n{}",
        toml::to_string(&wrapped).unwrap_or_default()
    )
}

/// The files a finished tune leaves, by name: [`FINAL_SPSA`] and the
/// values in the form the tuned engine takes them.
fn final_files(
    campaign: &CampaignId,
    target: &SpsaTarget,
    player: &PlayerKind,
    params: &[SpsaParam],
    theta: &[f64],
) -> Result<Vec<(String, String)>, ParamError> {
    Ok(match (target, player) {
        (SpsaTarget::Template(t), _) => vec![
            (FINAL_SPSA.into(), uci_lines(params, theta)),
            (
                format!("final-{}", t.file_name),
                t.template.fill(&rounded(params, theta)),
            ),
        ],
        (_, PlayerKind::Builtin(base, _)) => {
            let (toml, lines) = final_texts(campaign, base, params, theta)?;
            vec![(FINAL_TOML.into(), toml), (FINAL_SPSA.into(), lines)]
        }
        (_, PlayerKind::Uci(_)) => vec![
            (FINAL_SPSA.into(), uci_lines(params, theta)),
            (FINAL_OPTIONS.into(), options_text(campaign, params, theta)),
        ],
    })
}

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
        .filter(|s| base.get(s.name) != defaults.get(s.name))
        .chain(base.generated_set())
        .filter(|s| !tuned(s))
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
    /// Writes the final files of an SPSA campaign that is
    /// over (nothing for a running one or another kind), atomically.
    ///
    /// # Errors
    /// Storage failure, or final values the engine does not take.
    pub(super) fn write_spsa_final(&self, campaign: &CampaignId) -> Result<(), CoordinatorError> {
        if !self.campaign(campaign)?.state.is_over() {
            return Ok(());
        }
        let files = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let Some(live) = campaigns.get(campaign) else {
                return Ok(());
            };
            let (Some(spsa), CampaignKind::Spsa { target, .. }) = (&live.spsa, &live.spec.kind)
            else {
                return Ok(());
            };
            final_files(
                campaign,
                target,
                &live.spec.config.players[0].kind,
                spsa.params(),
                spsa.theta(),
            )
            .map_err(|e| StorageError::Spsa(format!("final values: {e}")))?
        };
        let dir = self.campaign_dir(campaign);
        for (name, text) in files {
            ajaxlab_store::atomic::write_text(&dir.join(name), &text)?;
        }
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
