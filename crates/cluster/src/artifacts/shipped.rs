//! A UCI player as a worker runs it: the campaign names its binary (and
//! option files, such as a `VariantPath` ini) by path on the operator's
//! machine; the worker fetches them by hash into its cache and runs the
//! cached copies instead.

use super::client::{Client, fetch};
use super::{ArtifactCache, ArtifactError, ArtifactHash};
use ajaxlab_arena::player::UciPlayerConfig;
use ajaxlab_proto::v1;

/// The artifacts a UCI player comes with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shipped {
    /// The engine binary, unless it is installed on every worker.
    pub binary: Option<ArtifactHash>,
    /// Options whose value names a shipped file, with that file's hash.
    pub option_files: Vec<(String, ArtifactHash)>,
}

impl Shipped {
    /// What a UCI engine of a work unit ships with, read from its hashes.
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`] for a hash that is not 64 hex digits.
    pub fn of_wire(engine: &v1::UciEngine) -> Result<Shipped, ArtifactError> {
        Ok(Shipped {
            binary: engine.sha256.as_deref().map(str::parse).transpose()?,
            option_files: engine
                .options
                .iter()
                .filter_map(|o| Some((o.name.clone(), o.sha256.as_deref()?)))
                .map(|(name, hash)| Ok((name, hash.parse()?)))
                .collect::<Result<_, ArtifactError>>()?,
        })
    }
}

/// Points `player` at the cached copies of what it ships with, fetching
/// each from the coordinator if the cache lacks it.
///
/// # Errors
/// An artifact the coordinator lacks or whose bytes do not match, a cache
/// failure, or an option file for an option the player does not set.
pub async fn localize(
    player: &mut UciPlayerConfig,
    shipped: &Shipped,
    client: &mut Client,
    cache: &ArtifactCache,
) -> Result<(), ArtifactError> {
    if let Some(hash) = shipped.binary {
        player.command = fetch(client, hash, cache).await?;
    }
    for (name, hash) in &shipped.option_files {
        let path = fetch(client, *hash, cache).await?;
        let value = player
            .options
            .iter_mut()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                ArtifactError::Protocol(format!(
                    "player '{}': option {name} ships file {hash} but the player does not set it",
                    player.name
                ))
            })?;
        *value = path.display().to_string();
    }
    Ok(())
}
