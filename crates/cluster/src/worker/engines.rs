//! The engines of a unit on this worker: the binaries and option files a
//! campaign ships are fetched into the cache (hash checked) and the UCI
//! players pointed at the copies, and a build that states its bench is
//! benched once; an engine that cannot be fetched, benched or started makes
//! the unit unplayable here, which the coordinator hears as an engine
//! failure.

use crate::artifacts::cache::DEFAULT_CACHE_BYTES;
use crate::artifacts::client::Client;
use crate::artifacts::shipped::{Shipped, localize};
use crate::artifacts::{ArtifactCache, ArtifactError};
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::player::bench;
use ajaxlab_proto::v1;
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

/// Points the UCI players of `config` (made from `unit`) at the cached
/// copies of what they ship with, fetching what the cache in `cache_dir`
/// lacks, and at the files an SPSA unit sends as text (filled templates),
/// written into that cache.
///
/// # Errors
/// [`EngineFailure`] for an artifact that cannot be fetched, is not what
/// its hash says, or cannot be cached.
pub(super) async fn localize_players(
    config: &mut MatchConfig,
    unit: &v1::WorkUnit,
    client: &mut Client,
    cache_dir: &Path,
) -> Result<(), EngineFailure> {
    for (player, wire) in config.players.iter_mut().zip(&unit.players) {
        let (PlayerKind::Uci(uci), Some(v1::player::Engine::Uci(engine))) =
            (&mut player.kind, &wire.engine)
        else {
            continue;
        };
        let failure = |e: ArtifactError| EngineFailure {
            player: player.name.clone(),
            reason: e.to_string(),
            lasting: !matches!(e, ArtifactError::Protocol(_)),
        };
        let shipped = Shipped::of_wire(engine).map_err(failure)?;
        let filled: Vec<(&str, &str)> = engine
            .options
            .iter()
            .filter_map(|o| Some((o.name.as_str(), o.file_text.as_deref()?)))
            .collect();
        if shipped == Shipped::default() && filled.is_empty() {
            continue;
        }
        // Opened (and its directory made) only once something is fetched.
        let cache = ArtifactCache::open(cache_dir, DEFAULT_CACHE_BYTES).map_err(failure)?;
        localize(uci, &shipped, client, &cache)
            .await
            .map_err(failure)?;
        for (name, text) in filled {
            let path = cache.put(text.as_bytes()).map_err(failure)?;
            uci.set_option(name, path.display().to_string());
        }
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
