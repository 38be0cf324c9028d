//! The flags of `ajaxlab match` that override a match file (`--variant`,
//! `--games`, `--tc`, `--player` …): each as the file's key it stands for,
//! so that a match's flags can be written into its file
//! ([`MatchFile::with_overrides`]) and the file played as a campaign.

use crate::config::{BuiltinFile, ConfigError, MatchFile, PlayerFile, UciFile, err};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Flags that override the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--variant`
    pub variant: Option<String>,
    /// `--variants`
    pub variants: Option<PathBuf>,
    /// `--games`
    pub games: Option<u64>,
    /// `--concurrency`
    pub concurrency: Option<usize>,
    /// `--tc` (both players)
    pub tc: Option<String>,
    /// `--player`, zero or two
    pub players: Vec<String>,
    /// `--openings`
    pub openings: Option<String>,
    /// `--random-plies`
    pub random_plies: Option<u32>,
    /// `--out`
    pub out: Option<PathBuf>,
    /// `--seed`
    pub seed: Option<u64>,
}

/// Parses a `--player` spec: `builtin[:PARAMS]` or `uci:PATH[,option=value…]`
/// (`arg=X` adds a command-line argument, `name=X` names the player).
///
/// # Errors
/// [`ConfigError`] naming `--player`.
pub fn player_from_spec(spec: &str) -> Result<PlayerFile, ConfigError> {
    let key = format!("--player {spec}");
    if spec == "builtin" {
        return Ok(PlayerFile::default());
    }
    if let Some(params) = spec.strip_prefix("builtin:") {
        return Ok(PlayerFile::Builtin(BuiltinFile {
            params: Some(params.into()),
            ..BuiltinFile::default()
        }));
    }
    let Some(rest) = spec.strip_prefix("uci:") else {
        return Err(err(
            key,
            "expected builtin[:PARAMS.toml] or uci:PATH[,option=value...]",
        ));
    };
    let mut parts = rest.split(',');
    let path = parts
        .next()
        .filter(|p| !p.is_empty())
        .ok_or_else(|| err(&key, "missing engine path"))?;
    let mut file = UciFile {
        path: Some(path.into()),
        ..UciFile::default()
    };
    let mut options = BTreeMap::new();
    let mut args = Vec::new();
    for part in parts {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| err(&key, format!("'{part}' is not option=value")))?;
        match k {
            "arg" => args.push(v.to_owned()),
            "name" => file.name = Some(v.to_owned()),
            "tc" => file.tc = Some(v.to_owned()),
            _ => {
                options.insert(k.to_owned(), toml::Value::String(v.to_owned()));
            }
        }
    }
    file.options = Some(options);
    file.args = Some(args);
    Ok(PlayerFile::Uci(file))
}

impl MatchFile {
    /// The file with the flags written into it, as if the user had
    /// written them there: what a match plays, as one file (the campaign
    /// `ajaxlab match` runs is made of it).
    ///
    /// # Errors
    /// [`ConfigError`] naming `--player` for a spec that does not parse.
    pub fn with_overrides(mut self, o: Overrides) -> Result<MatchFile, ConfigError> {
        self.variant = o.variant.or(self.variant);
        self.variants = o.variants.or(self.variants);
        self.games = o.games.or(self.games);
        self.concurrency = o.concurrency.or(self.concurrency);
        self.openings = o.openings.or(self.openings);
        self.random_plies = o.random_plies.or(self.random_plies);
        self.out = o.out.or(self.out);
        self.seed = o.seed.or(self.seed);
        if !o.players.is_empty() {
            let players = o.players.iter().map(|s| player_from_spec(s));
            self.players = Some(players.collect::<Result<_, _>>()?);
        }
        if let Some(tc) = o.tc {
            // `--tc` is both players' time control, over their own.
            self.players = self
                .players
                .map(|players| players.into_iter().map(PlayerFile::without_tc).collect());
            self.tc = Some(tc);
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{MatchConfig, build_text as build};
    use crate::tc::TimeControl;

    #[test]
    fn flags_override_the_file() {
        let o = Overrides {
            games: Some(10),
            tc: Some("depth=3".into()),
            variant: Some("amrc".into()),
            ..Overrides::default()
        };
        let c = build("games = 100\ntc = \"nodes=100\"\nvariant = \"chess\"", o).unwrap();
        assert_eq!(c.pairs, 5);
        assert_eq!(
            c.variant,
            ajaxlab_rules::VariantKind::AjaxModernRandom.variant()
        );
        assert!(c.players.iter().all(|p| p.tc == TimeControl::Depth(3)));
    }

    #[test]
    fn flags_written_into_the_file_and_the_file_as_toml_build_the_same_match() {
        let file: MatchFile = toml::from_str(
            "games = 100\ntc = \"nodes=100\"\nvariant = \"chess\"\n[[players]]\nengine = \"builtin\"\ntc = \"depth=2\"\nset = { \"chess.knight.mg\" = 300 }\n[[players]]\nengine = \"builtin\"\n[adjudication]\nmax_plies = 50\n",
        )
        .unwrap();
        let cases = [
            Overrides::default(),
            Overrides {
                games: Some(10),
                tc: Some("depth=3".into()),
                seed: Some(9),
                openings: Some("start".into()),
                random_plies: Some(2),
                ..Overrides::default()
            },
            Overrides {
                players: vec!["builtin".into(), "uci:/bin/engine,Hash=8,arg=uci".into()],
                variant: Some("amrc".into()),
                ..Overrides::default()
            },
        ];
        for o in cases {
            let direct = MatchConfig::build(file.clone(), o.clone()).unwrap();
            let written = file.clone().with_overrides(o).unwrap();
            let text = toml::to_string(&written).unwrap();
            let read: MatchFile = toml::from_str(&text).unwrap();
            let rebuilt = MatchConfig::build(read, Overrides::default()).unwrap();
            assert_eq!(format!("{direct:?}"), format!("{rebuilt:?}"), "{text}");
        }
    }

    #[test]
    fn player_specs_parse() {
        let p = player_from_spec("uci:/usr/games/stockfish,Hash=16,UCI_LimitStrength=true,name=sf")
            .unwrap();
        assert_eq!(p.name(), Some("sf"));
        let PlayerFile::Uci(u) = p else {
            panic!("{p:?}")
        };
        assert_eq!(u.options.unwrap().len(), 2);
        assert!(player_from_spec("stockfish").is_err());
        assert!(player_from_spec("uci:/x,oops").is_err());
    }
}
