//! A player as a match or campaign file writes it, by its `engine`: the
//! builtin engine (its parameters and switched-off features) or a UCI
//! engine (its binary, arguments, options, time-outs and bench). A key of
//! the other kind is refused where the file is read, naming it: no player
//! holds both kinds' keys.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A player as written, by `engine`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "engine", rename_all = "lowercase")]
pub enum PlayerFile {
    /// `engine = "builtin"`.
    Builtin(BuiltinFile),
    /// `engine = "uci"`.
    Uci(UciFile),
}

impl Default for PlayerFile {
    /// The builtin engine with its default parameters.
    fn default() -> Self {
        PlayerFile::Builtin(BuiltinFile::default())
    }
}

impl PlayerFile {
    /// Its display name, if it gives one.
    pub fn name(&self) -> Option<&str> {
        match self {
            PlayerFile::Builtin(b) => b.name.as_deref(),
            PlayerFile::Uci(u) => u.name.as_deref(),
        }
    }

    /// The same player named `name`.
    #[must_use]
    pub fn named(mut self, name: &str) -> PlayerFile {
        match &mut self {
            PlayerFile::Builtin(b) => b.name = Some(name.to_owned()),
            PlayerFile::Uci(u) => u.name = Some(name.to_owned()),
        }
        self
    }

    /// Its own time control, if it gives one.
    pub fn tc(&self) -> Option<&String> {
        match self {
            PlayerFile::Builtin(b) => b.tc.as_ref(),
            PlayerFile::Uci(u) => u.tc.as_ref(),
        }
    }

    /// The same player at the file's time control (a flag set both
    /// players').
    #[must_use]
    pub fn without_tc(mut self) -> PlayerFile {
        match &mut self {
            PlayerFile::Builtin(b) => b.tc = None,
            PlayerFile::Uci(u) => u.tc = None,
        }
        self
    }
}

/// `engine = "builtin"`: the builtin engine.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BuiltinFile {
    /// Display name.
    pub name: Option<String>,
    /// Time control of this player.
    pub tc: Option<String>,
    /// Parameter file (TOML or JSON).
    pub params: Option<PathBuf>,
    /// Parameter values set over the defaults (and over `params`):
    /// `set = { "afc.falcon.mg" = 550 }`.
    pub set: Option<BTreeMap<String, i64>>,
    /// Search features to switch off (ablation): null-move, lmr, pruning,
    /// aspiration, check-extension, history, singular, iir.
    pub disable: Option<Vec<String>>,
}

/// `engine = "uci"`: an external UCI engine.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UciFile {
    /// Display name.
    pub name: Option<String>,
    /// Time control of this player.
    pub tc: Option<String>,
    /// The binary: in a campaign, shipped to the workers with it.
    pub path: Option<PathBuf>,
    /// Instead of `path`: a binary every worker has installed at this
    /// path, run there and not shipped (a match runs its engines so).
    pub worker_path: Option<PathBuf>,
    /// Arguments.
    pub args: Option<Vec<String>>,
    /// `setoption` values.
    pub options: Option<BTreeMap<String, toml::Value>>,
    /// For campaigns: options whose values are files to ship to the
    /// workers with the engine, beside those whose names end in `Path` or
    /// `File` (UCI's convention, `VariantPath`, `EvalFile`), which always are.
    pub file_options: Option<Vec<String>>,
    /// Seconds allowed for start-up.
    pub startup_timeout_s: Option<u64>,
    /// Seconds allowed per move under node/depth limits.
    pub move_timeout_s: Option<u64>,
    /// The build's bench node count, for campaigns: a worker runs the
    /// engine with `bench_args` before its first unit and refuses a build
    /// that prints another count.
    pub bench: Option<u64>,
    /// Arguments that make the engine print its bench (default `["bench"]`).
    pub bench_args: Option<Vec<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Players {
        #[allow(dead_code, reason = "read to be checked")]
        players: Vec<PlayerFile>,
    }

    fn players(text: &str) -> Result<Players, String> {
        toml::from_str(text).map_err(|e: toml::de::Error| e.to_string())
    }

    #[test]
    fn a_key_of_the_other_engine_is_refused_naming_it() {
        let e = players("[[players]]\nengine = \"builtin\"\npath = \"x\"\n").unwrap_err();
        assert!(e.contains("unknown field `path`"), "{e}");
        let e = players("[[players]]\nengine = \"uci\"\npath = \"x\"\nparams = \"p.toml\"\n")
            .unwrap_err();
        assert!(e.contains("unknown field `params`"), "{e}");
        let e = players("[[players]]\nengine = \"stockfish\"\n").unwrap_err();
        assert!(e.contains("unknown variant `stockfish`"), "{e}");
        let e = players("[[players]]\nname = \"a\"\n").unwrap_err();
        assert!(e.contains("missing field `engine`"), "{e}");
        let read = players(
            "[[players]]\nengine = \"uci\"\npath = \"x\"\noptions = { Hash = 16, Ponder = false, Style = \"x\" }\n",
        )
        .unwrap();
        let PlayerFile::Uci(u) = &read.players[0] else {
            panic!("{read:?}")
        };
        assert_eq!(
            u.options.as_ref().map(|o| o["Hash"].clone()),
            Some(toml::Value::Integer(16))
        );
    }
}
