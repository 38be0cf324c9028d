//! The engines of a unit on this worker: the binaries and option files a
//! campaign ships are fetched into the cache (hash checked) and the UCI
//! players pointed at the copies, and a build that states its bench is
//! benched once; an engine that cannot be fetched, benched or started makes
//! the unit unplayable here, which the coordinator hears as an engine
//! failure.

use crate::artifacts::cache::DEFAULT_CACHE_BYTES;
use crate::artifacts::shipped::Shipped;
use crate::artifacts::{ArtifactCache, ArtifactError};
use crate::work::source::WorkSource;
use crate::work::unit::WorkUnit;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::player::{UciPlayerConfig, bench};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Why this worker cannot play a unit's engines.
#[derive(Debug, thiserror::Error)]
#[error("player '{player}': {reason}")]
pub(super) struct EngineFailure {
    /// The player's name.
    pub(super) player: String,
    /// What went wrong: fetching, checking or starting its engine.
    pub(super) reason: String,
    /// Whether it will stay so (a bad build, a missing artifact) rather
    /// than pass (the coordinator unreachable while fetching).
    pub(super) lasting: bool,
}

impl EngineFailure {
    /// A fetch from the coordinator that failed: lasting unless the
    /// coordinator could not answer now (a protocol or transport error, a
    /// damaged copy it holds).
    pub(super) fn fetching(e: &ArtifactError) -> EngineFailure {
        EngineFailure {
            player: String::new(),
            reason: e.to_string(),
            lasting: !matches!(e, ArtifactError::Protocol(_)),
        }
    }
}

/// Points the UCI players of `unit` at local copies of what they ship
/// with, each from `source` (fetched into the worker's cache from a remote
/// coordinator), and at the files an SPSA unit sends as text (filled
/// templates), written into the cache in `cache_dir`.
///
/// # Errors
/// [`EngineFailure`] for an artifact that cannot be fetched, is not what
/// its hash says, or cannot be cached, or a shipped option file for an
/// option the player does not set.
pub(super) async fn localize_players(
    unit: &mut WorkUnit,
    source: &mut impl WorkSource,
    cache_dir: &Path,
) -> Result<(), EngineFailure> {
    for (i, player) in unit.config.players.iter_mut().enumerate() {
        let PlayerKind::Uci(uci) = &mut player.kind else {
            continue;
        };
        let name = uci.name.clone();
        let failure = |e: ArtifactError| EngineFailure {
            player: name.clone(),
            reason: e.to_string(),
            lasting: !matches!(e, ArtifactError::Protocol(_)),
        };
        if let Err(e) = localize(uci, &unit.shipped[i], source).await {
            return Err(failure(e));
        }
        if let Some(filled) = &unit.filled {
            // Opened (and its directory made) only once something is written.
            let path = ArtifactCache::open(cache_dir, DEFAULT_CACHE_BYTES)
                .and_then(|cache| cache.put(filled[i].text.as_bytes()))
                .map_err(failure)?;
            uci.set_option(&filled[i].option, path.display().to_string());
        }
    }
    Ok(())
}

/// Points `player` at local copies of what it ships with (`shipped`), each
/// from `source`.
///
/// # Errors
/// An artifact that cannot be had or is not what its hash says, or an
/// option file for an option the player does not set.
pub async fn localize(
    player: &mut UciPlayerConfig,
    shipped: &Shipped,
    source: &mut impl WorkSource,
) -> Result<(), ArtifactError> {
    if let Some(hash) = shipped.binary {
        player.command = source.artifact(hash).await?;
    }
    for (option, hash) in &shipped.option_files {
        let path = source.artifact(*hash).await?;
        if !player.options.iter().any(|(n, _)| n == option) {
            return Err(ArtifactError::Protocol(format!(
                "player '{}': option {option} ships file {hash} but the player does not set it",
                player.name
            )));
        }
        player.set_option(option, path.display().to_string());
    }
    Ok(())
}

/// The builds this worker has benched and found as stated: each is
/// benched before its first unit only.
#[derive(Debug, Default)]
pub(super) struct Benched(HashSet<(PathBuf, Vec<String>, u64)>);

/// Benches every UCI player of `config` that states a bench and has not
/// been benched yet (its command is the cached copy, so a build is one
/// binary).
///
/// # Errors
/// [`EngineFailure`] with both node counts for a build that prints
/// another count, or saying why its bench did not run.
pub(super) async fn check_benches(
    config: &MatchConfig,
    benched: &mut Benched,
) -> Result<(), EngineFailure> {
    for player in &config.players {
        let PlayerKind::Uci(uci) = &player.kind else {
            continue;
        };
        let Some(stated) = &uci.bench else {
            continue;
        };
        let build = (uci.command.clone(), stated.args.clone(), stated.nodes);
        if benched.0.contains(&build) {
            continue;
        }
        let (command, check) = (uci.command.clone(), stated.clone());
        tokio::task::spawn_blocking(move || bench::check(&command, &check, bench::BENCH_TIMEOUT))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()))
            .map_err(|reason| EngineFailure {
                player: player.name.clone(),
                reason,
                lasting: true,
            })?;
        benched.0.insert(build);
    }
    Ok(())
}
