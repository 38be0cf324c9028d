//! The `[spsa]` table of a campaign file: what a tune's values set in the
//! engine (the builtin engine's parameters, a UCI engine's spin options, or
//! the placeholders of a file template), and the tune itself.

use super::err;
use crate::campaign::spsa_list::ParamList;
use crate::campaign::spsa_list::SpsaParamTable;
use crate::campaign::spsa_template::Template;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::{ConfigError, MatchConfig};
use ajaxlab_stats::{SpsaConfig, SpsaParam, SpsaViolation};
use serde::Deserialize;
use std::num::NonZeroU64;

/// The `[spsa]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpsaTable {
    #[serde(default = "default_a_ratio")]
    pub(super) a_ratio: f64,
    #[serde(default = "default_alpha")]
    pub(super) alpha: f64,
    #[serde(default = "default_gamma")]
    pub(super) gamma: f64,
    /// `[[spsa.params]]`; or Fishtest's lines in `params_text` or `params_file`.
    pub(super) params: Option<Vec<SpsaParamTable>>,
    pub(super) params_text: Option<String>,
    pub(super) params_file: Option<String>,
    /// For a UCI engine whose values live in a file: the file as a
    /// template with a `{name}` placeholder per tuned parameter.
    pub(super) template: Option<String>,
    /// The UCI option that names the filled template to the engine.
    #[serde(default = "default_template_option")]
    pub(super) template_option: String,
}

fn default_template_option() -> String {
    "VariantPath".into()
}

fn default_a_ratio() -> f64 {
    ajaxlab_stats::DEFAULT_A_RATIO
}

fn default_alpha() -> f64 {
    ajaxlab_stats::DEFAULT_ALPHA
}

fn default_gamma() -> f64 {
    ajaxlab_stats::DEFAULT_GAMMA
}

/// What an SPSA campaign's values set in the tuned engine.
#[derive(Clone, Debug, PartialEq)]
pub enum SpsaTarget {
    /// The builtin engine's parameters of the same names.
    Builtin,
    /// The UCI engine's spin options of the same names (`setoption`).
    UciOptions,
    /// The placeholders of a file template, filled per player and named to
    /// the UCI engine by an option (Fairy-Stockfish: `VariantPath`).
    Template(FileTemplate),
}

/// An SPSA campaign's file template.
#[derive(Clone, Debug, PartialEq)]
pub struct FileTemplate {
    /// The UCI option the filled file is given to.
    pub option: String,
    /// The file's name as the campaign wrote it, without a trailing `.in`:
    /// the name of the tune's result (`final-NAME`).
    pub file_name: String,
    /// The template.
    pub template: Template,
}

/// What the tune's values set: the builtin engine's parameters, or a UCI
/// engine's spin options, or the placeholders of `[spsa] template` (then
/// the tuned player's `template_option` is set to the template, filled per
/// unit). `template_name` is `[spsa] template` as the campaign wrote it.
pub(super) fn spsa_target(
    t: &SpsaTable,
    list: &ParamList,
    template_name: Option<String>,
    config: &mut MatchConfig,
) -> Result<SpsaTarget, ConfigError> {
    let uci = config
        .players
        .iter_mut()
        .all(|p| matches!(p.kind, PlayerKind::Uci(_)));
    let Some(path) = &t.template else {
        return Ok(if uci {
            SpsaTarget::UciOptions
        } else {
            SpsaTarget::Builtin
        });
    };
    if !uci {
        return Err(err(
            "spsa.template",
            "a template is for a UCI engine whose values live in a file; the builtin engine's parameters are tuned by name",
        ));
    }
    let text = ajaxlab_files::read_text(path.as_ref(), ajaxlab_files::limits::TEMPLATE)
        .map_err(|e| err("spsa.template", format!("file {path}: {e}")))?;
    let template =
        Template::parse(&text).map_err(|e| err("spsa.template", format!("{path}: {e}")))?;
    let tuned: Vec<&str> = list.entries.iter().map(|(_, p)| p.name.as_str()).collect();
    if let Some(unknown) = template
        .placeholders()
        .into_iter()
        .find(|n| !tuned.contains(n))
    {
        return Err(err(
            "spsa.template",
            format!(
                "{path}: placeholder {{{unknown}}} is not a tuned parameter (tuned: {})",
                tuned.join(", ")
            ),
        ));
    }
    if let Some((place, p)) = list
        .entries
        .iter()
        .find(|(_, p)| !template.placeholders().contains(p.name.as_str()))
    {
        return Err(place.error(
            "name",
            format!("'{}' has no placeholder {{{}}} in {path}", p.name, p.name),
        ));
    }
    let option = t.template_option.clone();
    for player in &mut config.players {
        if let PlayerKind::Uci(uci) = &mut player.kind {
            if uci.options.iter().any(|(n, _)| *n == option) {
                return Err(err(
                    &format!("players[0].options.{option}"),
                    "set by spsa.template: each player gets the template filled with its own values",
                ));
            }
            uci.options.push((option.clone(), path.clone()));
        }
    }
    let written = template_name.unwrap_or_else(|| path.clone());
    let base = std::path::Path::new(&written)
        .file_name()
        .map_or_else(|| "template".into(), |n| n.to_string_lossy().into_owned());
    let file_name = base.strip_suffix(".in").map_or(base.clone(), str::to_owned);
    Ok(SpsaTarget::Template(FileTemplate {
        option,
        file_name,
        template,
    }))
}

/// `[spsa] template` as written, before the coordinator points it at its copy.
pub(super) fn spsa_template_name(table: &toml::Table) -> Option<String> {
    Some(table.get("spsa")?.get("template")?.as_str()?.to_owned())
}

pub(super) fn spsa_config(
    t: &SpsaTable,
    list: &ParamList,
    target: &SpsaTarget,
    config: &MatchConfig,
) -> Result<SpsaConfig, ConfigError> {
    let mut params = Vec::with_capacity(list.entries.len());
    for (place, p) in &list.entries {
        let start = match (&config.players[0].kind, target) {
            (PlayerKind::Builtin(base, _), _) => {
                let spec = ajaxlab_engine::params::spec(&p.name)
                    .ok_or_else(|| place.unknown_name(&p.name))?;
                for (field, value) in [("min", p.min), ("max", p.max)] {
                    if value < f64::from(spec.min) || value > f64::from(spec.max) {
                        return Err(place.error(
                            field,
                            format!(
                                "{value} is outside {}'s range {}..={}",
                                p.name, spec.min, spec.max
                            ),
                        ));
                    }
                }
                p.start
                    .unwrap_or_else(|| f64::from(base.get(&p.name).unwrap_or(spec.default)))
            }
            (PlayerKind::Uci(uci), SpsaTarget::UciOptions) => p
                .start
                .or_else(|| {
                    let (_, value) = uci.options.iter().find(|(n, _)| *n == p.name)?;
                    value.parse().ok()
                })
                .ok_or_else(|| {
                    place.error(
                        "start",
                        "give the start value (or set the option in the player's options): the coordinator does not run the engine to learn its default",
                    )
                })?,
            (PlayerKind::Uci(_), _) => p.start.ok_or_else(|| {
                place.error("start", "give the start value of a template's placeholder")
            })?,
        };
        params.push(SpsaParam {
            name: p.name.clone(),
            start,
            min: p.min,
            max: p.max,
            c_end: p.c_end,
            r_end: p.r_end,
        });
    }
    let tune = SpsaConfig {
        params,
        iterations: NonZeroU64::new(config.pairs).ok_or_else(|| err("games", "must be ≥ 2"))?,
        a_ratio: t.a_ratio,
        alpha: t.alpha,
        gamma: t.gamma,
    };
    ajaxlab_stats::Spsa::new(tune.clone()).map_err(|e| match e.violations.first() {
        Some(SpsaViolation::Param { name, problem }) => {
            let field = match problem {
                ajaxlab_stats::ParamProblem::StartOutOfRange(_) => "start",
                ajaxlab_stats::ParamProblem::NonPositiveCEnd(_) => "c_end",
                ajaxlab_stats::ParamProblem::NegativeREnd(_) => "r_end",
                _ => "min",
            };
            match list.entries.iter().find(|(_, p)| &p.name == name) {
                Some((place, _)) => place.error(field, e.to_string()),
                None => err(list.key, e.to_string()),
            }
        }
        Some(SpsaViolation::Schedule { name, .. }) => err(&format!("spsa.{name}"), e.to_string()),
        _ => err(list.key, e.to_string()),
    })?;
    Ok(tune)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{CampaignKind, CampaignSpec, parse_campaign};

    fn error(text: &str) -> ConfigError {
        parse_campaign(text).unwrap_err()
    }

    const UCI_TUNE: &str = "games = 20\n[campaign]\nname = \"t\"\nkind = \"spsa\"\n[[players]]\nengine = \"uci\"\npath = \"engines/x\"\n";

    fn uci_tune(extra: &str) -> Result<Vec<CampaignSpec>, ConfigError> {
        parse_campaign(&format!("{UCI_TUNE}{extra}"))
    }

    #[test]
    fn a_uci_engine_is_tuned_by_its_options_from_a_given_start() {
        let spec = uci_tune(
            "options = { \"Falcon Value\" = 600 }\n[spsa]\nparams_text = \"\"\"\nFalcon Value, int, 500, 100, 900, 20, 0.002\nMinister, int, 700, 100, 900, 20, 0.002\n\"\"\"\n",
        )
        .unwrap()
        .remove(0);
        let CampaignKind::Spsa { tune, target } = &spec.kind else {
            panic!("{:?}", spec.kind)
        };
        assert_eq!(target, &SpsaTarget::UciOptions);
        assert_eq!(
            tune.params[0].start, 500.0,
            "the line's start, not the option"
        );
        let e = uci_tune("options = { Minister = 650 }\n[spsa]\n[[spsa.params]]\nname = \"Minister\"\nmin = 100\nmax = 900\nc_end = 20\nr_end = 0.002\n[[spsa.params]]\nname = \"Falcon\"\nmin = 100\nmax = 900\nc_end = 20\nr_end = 0.002\n")
            .unwrap_err();
        assert_eq!(e.key, "spsa.params[1].start", "{e}");
        assert!(e.message.contains("does not run the engine"), "{e}");
    }

    fn template_file(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("ajaxlab-template-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    fn template_tune(path: &str, players_extra: &str) -> Result<Vec<CampaignSpec>, ConfigError> {
        uci_tune(&format!(
            "{players_extra}[spsa]\ntemplate = \"{path}\"\n[[spsa.params]]\nname = \"falcon\"\nstart = 500\nmin = 100\nmax = 900\nc_end = 20\nr_end = 0.002\n"
        ))
    }

    #[test]
    fn a_template_names_each_tuned_value_and_is_given_by_its_option() {
        let path = template_file(
            "afc.ini.in",
            "[ajax-falcon:ajax-falcon]\npieceValueMg = f:{falcon}\n",
        );
        let spec = template_tune(&path, "").unwrap().remove(0);
        let CampaignKind::Spsa {
            target: SpsaTarget::Template(t),
            ..
        } = &spec.kind
        else {
            panic!("{:?}", spec.kind)
        };
        assert_eq!(
            (t.option.as_str(), t.file_name.as_str()),
            ("VariantPath", "afc.ini")
        );
        assert_eq!(
            t.template.fill(&[("falcon", 640)]),
            "[ajax-falcon:ajax-falcon]\npieceValueMg = f:640\n"
        );
        for player in &spec.config.players {
            let PlayerKind::Uci(u) = &player.kind else {
                panic!()
            };
            assert_eq!(u.options, [("VariantPath".to_owned(), path.clone())]);
        }
    }

    #[test]
    fn a_template_with_an_unknown_placeholder_or_a_value_it_lacks_is_refused() {
        let unknown = template_file("unknown.ini.in", "a = {falcon}\nb = {minister}\n");
        let e = template_tune(&unknown, "").unwrap_err();
        assert_eq!(e.key, "spsa.template");
        assert!(
            e.message
                .contains("placeholder {minister} is not a tuned parameter"),
            "{e}"
        );
        let lacking = template_file("lacking.ini.in", "a = 1\n");
        let e = template_tune(&lacking, "").unwrap_err();
        assert_eq!(e.key, "spsa.params[0].name");
        assert!(e.message.contains("no placeholder {falcon}"), "{e}");
        let stray = template_file("stray.ini.in", "a = {falcon}\nb = {oops\n");
        let e = template_tune(&stray, "").unwrap_err();
        assert_eq!(e.key, "spsa.template");
        assert!(e.message.contains("line 2, column 5"), "{e}");
        let e = template_tune("/no/such/template.in", "").unwrap_err();
        assert_eq!(e.key, "spsa.template");
        let good = template_file("good.ini.in", "a = {falcon}\n");
        let e = template_tune(&good, "options = { VariantPath = \"mine.ini\" }\n").unwrap_err();
        assert_eq!(e.key, "players[0].options.VariantPath", "{e}");
        let builtin = format!(
            "games = 20\n[campaign]\nname = \"t\"\nkind = \"spsa\"\n[spsa]\ntemplate = \"{good}\"\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 300\nmax = 900\nc_end = 20\nr_end = 0.002\n"
        );
        assert_eq!(error(&builtin).key, "spsa.template");
    }
}
