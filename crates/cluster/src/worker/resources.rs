//! What this worker's machine can afford: no more games at once than it
//! has cores, and no unit whose builtin engines' hash tables need more
//! memory than is free for it (the host's available memory, or its cgroup's
//! limit in a container or a Slurm job, whichever is less). A unit it
//! cannot afford is declined with the arithmetic, never started: a
//! `hash_mb = 65536` campaign once aborted every small worker, and under a
//! supervisor they crash-looped.

use super::engines::EngineFailure;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::config::PlayerKind;

/// One mebibyte.
const MIB: u64 = 1 << 20;

/// The share of the free memory a unit's hash tables may take: the rest is
/// for the engines' other tables, the games and the process itself.
const HASH_SHARE: f64 = 0.8;

/// The cores of this machine (or of the CPU set it may run on).
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The bytes of memory free for this process: the host's `MemAvailable`,
/// lowered to what its cgroup (v2 or v1) still allows; `None` where
/// neither can be read.
pub(super) fn free_memory() -> Option<u64> {
    let host = meminfo_available();
    let cgroup = cgroup_v2_room().or_else(cgroup_v1_room);
    match (host, cgroup) {
        (Some(h), Some(c)) => Some(h.min(c)),
        (h, c) => h.or(c),
    }
}

fn meminfo_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The value of `key` in a cgroup `memory.stat` file, 0 if absent.
fn stat_value(dir: &std::path::Path, key: &str) -> u64 {
    std::fs::read_to_string(dir.join("memory.stat"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// What this process's cgroup v2 allows beyond what it uses, counting the
/// inactive page cache (which the kernel gives back) as free.
fn cgroup_v2_room() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let max = std::fs::read_to_string(dir.join("memory.max")).ok()?;
    let max: u64 = max.trim().parse().ok()?; // "max": no limit
    let used: u64 = std::fs::read_to_string(dir.join("memory.current"))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let used = used.saturating_sub(stat_value(&dir, "inactive_file"));
    Some(max.saturating_sub(used))
}

/// What this process's cgroup v1 memory controller allows beyond what it uses.
fn cgroup_v1_room() -> Option<u64> {
    let dir = std::path::Path::new("/sys/fs/cgroup/memory");
    let read = |name: &str| -> Option<u64> {
        std::fs::read_to_string(dir.join(name))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let limit = read("memory.limit_in_bytes")?;
    // An unlimited v1 group reports a huge page-rounded number.
    if limit >= 1 << 60 {
        return None;
    }
    let used =
        read("memory.usage_in_bytes")?.saturating_sub(stat_value(dir, "total_inactive_file"));
    Some(limit.saturating_sub(used))
}

/// The bytes the hash tables of `config`'s builtin players take with
/// `games` games at once (each game has its own two players).
pub(super) fn hash_bytes(config: &MatchConfig, games: usize) -> u64 {
    let builtin = config
        .players
        .iter()
        .filter(|p| matches!(p.kind, PlayerKind::Builtin(..)))
        .count() as u64;
    builtin
        .saturating_mul(games as u64)
        .saturating_mul(config.hash_mb as u64)
        .saturating_mul(MIB)
}

/// Checks that `games` games of `config` at once fit in `free` bytes.
///
/// # Errors
/// An [`EngineFailure`] (lasting: this worker will not afford it) that
/// gives the arithmetic and the way out.
pub(super) fn check_affordable(
    config: &MatchConfig,
    games: usize,
    free: Option<u64>,
) -> Result<(), EngineFailure> {
    let Some(free) = free else {
        return Ok(());
    };
    let needed = hash_bytes(config, games);
    if needed as f64 <= free as f64 * HASH_SHARE {
        return Ok(());
    }
    Err(EngineFailure {
        player: config.players[0].name.clone(),
        reason: format!(
            "this worker cannot afford the unit: hash tables of {games} games at once × {} MB = {} MiB, with {} MiB free here (at most {:.0}% for hash tables); run workers with fewer --threads, or a campaign with a smaller hash_mb",
            config.hash_mb,
            needed / MIB,
            free / MIB,
            HASH_SHARE * 100.0
        ),
        lasting: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(hash_mb: usize) -> MatchConfig {
        let file: ajaxlab_arena::MatchFile = toml::from_str(&format!(
            "variant = \"chess\"\ngames = 2\ntc = \"nodes=100\"\nhash_mb = {hash_mb}\n"
        ))
        .unwrap();
        MatchConfig::build(file, ajaxlab_arena::Overrides::default()).unwrap()
    }

    #[test]
    fn a_unit_whose_hash_tables_do_not_fit_is_declined_with_the_arithmetic() {
        let big = config(65_536);
        assert_eq!(hash_bytes(&big, 4), 2 * 4 * 65_536 * MIB);
        let e = check_affordable(&big, 1, Some(4 << 30)).unwrap_err();
        assert!(e.lasting);
        assert!(
            e.reason.contains("131072 MiB, with 4096 MiB free here"),
            "{}",
            e.reason
        );
        let small = config(16);
        assert!(check_affordable(&small, 2, Some(4 << 30)).is_ok());
        assert!(
            check_affordable(&big, 1, None).is_ok(),
            "unknown: not refused"
        );
    }

    #[test]
    fn this_machine_reports_its_free_memory() {
        let free = free_memory().unwrap_or(0);
        assert!(free > 16 * MIB, "{free}");
    }
}
