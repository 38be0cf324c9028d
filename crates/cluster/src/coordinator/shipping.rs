//! What a campaign ships to its workers: each UCI player's binary (unless
//! it is installed on every worker, `worker_path`) and each option value
//! that names a file (a `VariantPath` ini), as artifacts the operator
//! uploaded before creating the campaign. Resolved once at create time
//! (every hash must be in the store), recorded with the campaign, and
//! named in every work unit by hash for the worker to fetch. An SPSA tune
//! of a file template sends each player's filled file as text instead.

use crate::artifacts::shipped::Shipped;
use crate::artifacts::{ArtifactHash, ArtifactStore};
use crate::campaign::CampaignSpec;
use crate::campaign::inputs::Input;
use ajaxlab_arena::ConfigError;
use ajaxlab_arena::config::PlayerKind;

fn err(key: &str, message: String) -> ConfigError {
    ConfigError::new(key, message)
}

/// Checks that every file the operator says was shipped is in `store`.
///
/// # Errors
/// [`ConfigError`] naming the key of a bad hash or of an artifact the
/// coordinator does not hold.
pub(super) fn check_stored(files: &[Input], store: &ArtifactStore) -> Result<(), ConfigError> {
    for f in files {
        let hash: ArtifactHash = f.sha256.parse().map_err(|e| err(&f.key, format!("{e}")))?;
        if !store.contains(hash) {
            return Err(err(
                &f.key,
                format!(
                    "{}: artifact {hash} is not stored on the coordinator (upload it with `ajaxlab campaign create`)",
                    f.path
                ),
            ));
        }
    }
    Ok(())
}

/// The artifacts each player of `spec` comes with, from the files shipped
/// with the campaign (matched by the path the campaign file writes).
///
/// # Errors
/// [`ConfigError`] naming the player's `path` when its binary was not
/// shipped and is not installed on the workers (`worker_path`).
pub(super) fn resolve(spec: &CampaignSpec, files: &[Input]) -> Result<[Shipped; 2], ConfigError> {
    let hash_of = |path: &str, key_suffix: &str| {
        files
            .iter()
            .find(|f| f.path == path && f.key.ends_with(key_suffix))
            .and_then(|f| f.sha256.parse::<ArtifactHash>().ok())
    };
    let mut shipped: [Shipped; 2] = Default::default();
    for (i, player) in spec.config.players.iter().enumerate() {
        let PlayerKind::Uci(uci) = &player.kind else {
            continue;
        };
        if !spec.installed[i] {
            let path = uci.command.display().to_string();
            let hash = hash_of(&path, ".path").ok_or_else(|| {
                err(
                    &format!("players[{i}].path"),
                    format!(
                        "'{path}' was not shipped with the campaign: create it with `ajaxlab campaign create`, which uploads it, or name a binary every worker has with worker_path"
                    ),
                )
            })?;
            shipped[i].binary = Some(hash);
        }
        for (name, value) in &uci.options {
            if let Some(hash) = hash_of(value, &format!(".options.{name}")) {
                shipped[i].option_files.push((name.clone(), hash));
            }
        }
    }
    Ok(shipped)
}
