//! The UCI engine an SPSA campaign tunes, asked before the campaign is
//! made (by `ajaxlab campaign create` and `campaign run`, on the machine
//! that has the binary; the coordinator never runs an engine): every tuned
//! name must be one of its spin options, with the tune's range inside the
//! engine's; a template, filled with the start values, must give a file the
//! engine starts with and reads without an error (an engine that cannot
//! read it says so in an `info string` and plays on its defaults, and a
//! whole tune would run on them).

use crate::artifacts::ArtifactHash;
use crate::campaign::{CampaignKind, CampaignSpec, SpsaTarget};
use ajaxlab_arena::ConfigError;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::player::{SpinOption, UciPlayer, UciPlayerConfig};
use ajaxlab_stats::SpsaParam;

fn err(key: &str, message: String) -> ConfigError {
    ConfigError::new(key, message)
}

/// Checks the UCI engine an SPSA campaign tunes; nothing for other
/// campaigns, or for an engine installed on the workers that this machine
/// lacks.
///
/// # Errors
/// [`ConfigError`] naming `spsa` (a name the engine does not offer, a range
/// outside its own) or `spsa.template` (a filled template the engine does
/// not start with), or `players[0].path` for an engine that does not start.
pub fn check_tuned_engine(spec: &CampaignSpec) -> Result<(), ConfigError> {
    let CampaignKind::Spsa { tune, target } = &spec.kind else {
        return Ok(());
    };
    let PlayerKind::Uci(player) = &spec.config.players[0].kind else {
        return Ok(());
    };
    if spec.installed[0] && !player.command.is_file() {
        return Ok(());
    }
    match target {
        SpsaTarget::Builtin => Ok(()),
        SpsaTarget::UciOptions => {
            let engine = start(player.clone(), "players[0].path")?;
            check_spin_options(&tune.params, engine.spin_options(), &player.name)
        }
        SpsaTarget::Template(t) => {
            let start_values: Vec<(&str, i64)> = tune
                .params
                .iter()
                .map(|p| (p.name.as_str(), p.start.round() as i64))
                .collect();
            let text = t.template.fill(&start_values);
            let filled = std::env::temp_dir().join(format!(
                "ajaxlab-{}-{}-{}",
                std::process::id(),
                ArtifactHash::of(text.as_bytes()),
                t.file_name
            ));
            std::fs::write(&filled, text)
                .map_err(|e| err("spsa.template", format!("{}: {e}", filled.display())))?;
            let mut player = player.clone();
            player.set_option(&t.option, filled.display().to_string());
            let started = start(player, "spsa.template")
                .and_then(|engine| match engine.option_errors().first() {
                    Some(said) => Err(err(
                        "spsa.template",
                        format!("the engine could not read it: {said}"),
                    )),
                    None => Ok(()),
                })
                .map_err(|e| {
                    err(
                        "spsa.template",
                        format!("filled with the start values: {}", e.message),
                    )
                });
            let _ = std::fs::remove_file(&filled);
            started
        }
    }
}

fn start(player: UciPlayerConfig, key: &str) -> Result<UciPlayer, ConfigError> {
    UciPlayer::start(player).map_err(|e| err(key, e.to_string()))
}

/// Every tuned name among `offered`, its range inside the engine's.
fn check_spin_options(
    params: &[SpsaParam],
    offered: &[SpinOption],
    engine: &str,
) -> Result<(), ConfigError> {
    for p in params {
        let Some(option) = offered
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&p.name))
        else {
            let names: Vec<&str> = offered.iter().map(|o| o.name.as_str()).collect();
            return Err(err(
                "spsa",
                format!(
                    "parameter '{}': '{engine}' has no spin option of that name (its spin options: {})",
                    p.name,
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ),
            ));
        };
        let (min, max) = (option.min as f64, option.max as f64);
        if p.min < min || p.max > max {
            return Err(err(
                "spsa",
                format!(
                    "parameter '{}': the range {}..={} is outside the engine's {}..={}",
                    p.name, p.min, p.max, option.min, option.max
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, min: f64, max: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            start: min,
            min,
            max,
            c_end: 10.0,
            r_end: 0.002,
        }
    }

    #[test]
    fn a_name_the_engine_lacks_or_a_range_beyond_its_own_is_refused() {
        let offered = [SpinOption {
            name: "Falcon Value".into(),
            default: 500,
            min: 0,
            max: 2000,
        }];
        assert!(check_spin_options(&[param("falcon value", 100.0, 900.0)], &offered, "e").is_ok());
        let e = check_spin_options(&[param("Minister", 100.0, 900.0)], &offered, "e").unwrap_err();
        assert_eq!(e.key, "spsa");
        assert!(
            e.message.contains("'Minister'") && e.message.contains("Falcon Value"),
            "{e}"
        );
        let e =
            check_spin_options(&[param("Falcon Value", -1.0, 900.0)], &offered, "e").unwrap_err();
        assert!(e.message.contains("outside the engine's 0..=2000"), "{e}");
    }
}
