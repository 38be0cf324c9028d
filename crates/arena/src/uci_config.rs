//! A UCI player as a match or campaign file writes it (`engine = "uci"`):
//! its binary (shipped `path` or installed `worker_path`), arguments,
//! options (and which of them name files to ship), time-outs and stated
//! bench, each checked and named by its key.

use crate::config::{ConfigError, PlayerKind, UciFile, err};
use crate::limits;
use crate::player::{Bench, UciPlayerConfig};
use ajaxlab_rules::Variant;
use std::time::Duration;

/// An option's value as `setoption` sends it: a string as written, any
/// other TOML value as TOML prints it.
fn option_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The UCI player `players[index]` of a file.
///
/// # Errors
/// [`ConfigError`] naming the key: no binary or two, a `file_options`
/// entry that is no option, a time-out out of
/// range, `bench_args` without `bench`.
pub(crate) fn uci_kind(
    index: usize,
    file: &UciFile,
    variant: &'static Variant,
) -> Result<PlayerKind, ConfigError> {
    let key = |k: &str| format!("players[{index}].{k}");
    let command = match (&file.path, &file.worker_path) {
        (Some(path), None) | (None, Some(path)) => path.clone(),
        (None, None) => {
            return Err(err(key("path"), "required for engine = \"uci\""));
        }
        (Some(_), Some(_)) => {
            return Err(err(
                key("worker_path"),
                "give path (shipped with a campaign) or worker_path (installed on every worker), not both",
            ));
        }
    };
    if let Some(unset) = file.file_options.iter().flatten().find(|name| {
        !file
            .options
            .as_ref()
            .is_some_and(|options| options.contains_key(*name))
    }) {
        return Err(err(
            key("file_options"),
            format!("'{unset}' is not among the player's options"),
        ));
    }
    Ok(PlayerKind::Uci(UciPlayerConfig {
        name: String::new(),
        command,
        args: file.args.clone().unwrap_or_default(),
        options: file
            .options
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), option_text(v)))
            .collect(),
        variant,
        startup_timeout: Duration::from_secs(limits::check(
            key("startup_timeout_s"),
            file.startup_timeout_s.unwrap_or(10),
            &limits::STARTUP_TIMEOUT_S,
        )?),
        move_timeout: Duration::from_secs(limits::check(
            key("move_timeout_s"),
            file.move_timeout_s.unwrap_or(60),
            &limits::MOVE_TIMEOUT_S,
        )?),
        bench: match (file.bench, &file.bench_args) {
            (Some(nodes), args) => Some(Bench {
                args: args.clone().unwrap_or_else(|| vec!["bench".into()]),
                nodes,
            }),
            (None, Some(_)) => {
                return Err(err(key("bench_args"), "only with bench = NODES"));
            }
            (None, None) => None,
        },
    }))
}
