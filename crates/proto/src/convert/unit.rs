//! Work units: the match a worker plays (variant, openings, players with
//! their time controls, adjudication) and the lease it plays it under.

use super::vocab::WireEnum;
use super::{WireError, required};
use crate::v1;
use ajaxlab_arena::config::{PlayerConfig, PlayerKind};
use ajaxlab_arena::imbalance::Imbalance;
use ajaxlab_arena::opening::{OpeningSource, Openings, Order};
use ajaxlab_arena::player::{Bench, UciPlayerConfig};
use ajaxlab_arena::referee::{Adjudication, DEFAULT_TIME_MARGIN};
use ajaxlab_arena::tc::TimeControlError;
use ajaxlab_arena::{MatchConfig, TimeControl};
use ajaxlab_engine::{Features, Params};
use ajaxlab_rules::{Variant, VariantKind, VariantSet};
use ajaxlab_store::ids::{CampaignId, UnitId};
use std::path::PathBuf;
use std::time::Duration;

/// One unit of a match to hand out: which pairs, under which lease. Becomes
/// a [`v1::WorkUnit`] through `From`.
#[derive(Clone, Copy, Debug)]
pub struct UnitSpec<'a> {
    /// The match (with the unit's perturbation applied, for SPSA).
    pub config: &'a MatchConfig,
    /// The campaign it belongs to.
    pub campaign_id: &'a CampaignId,
    /// The unit's id.
    pub unit_id: &'a UnitId,
    /// The lease's secret, shown back on renewal and submission.
    pub lease_token: &'a str,
    /// How long the lease lasts from now unless renewed.
    pub lease: std::time::Duration,
    /// The first pair of the campaign the unit plays.
    pub first_pair: u64,
    /// How many pairs it plays.
    pub pair_count: u32,
}

impl From<UnitSpec<'_>> for v1::WorkUnit {
    fn from(u: UnitSpec<'_>) -> v1::WorkUnit {
        let config = u.config;
        let (imbalance_first, imbalance_second) = config.openings.imbalance.texts();
        let a = &config.adjudication;
        v1::WorkUnit {
            unit_id: u.unit_id.to_string(),
            lease_token: u.lease_token.into(),
            lease_ms: u64::try_from(u.lease.as_millis()).unwrap_or(u64::MAX),
            campaign_id: u.campaign_id.to_string(),
            run_id: config.run_id.clone(),
            variant: config
                .variant
                .builtin()
                .map_or(i32::from(v1::Variant::Unspecified), VariantKind::to_wire),
            file_variant: file_variant(config.variant),
            openings: Some(v1::Openings {
                in_order: config.openings.order == Order::Sequential,
                ..v1::Openings::from(&config.openings.source)
            }),
            random_plies: config.openings.random_plies,
            players: config.players.iter().map(v1::Player::from).collect(),
            first_pair: u.first_pair,
            pair_count: u.pair_count,
            seed: config.seed,
            adjudication: Some(v1::Adjudication {
                resign_score: a.resign_score,
                resign_moves: a.resign_moves,
                draw_score: a.draw_score,
                draw_moves: a.draw_moves,
                draw_after_move: a.draw_after_move,
                max_plies: a.max_plies,
            }),
            hash_mb: u32::try_from(config.hash_mb).unwrap_or(u32::MAX),
            imbalance_first,
            imbalance_second,
        }
    }
}

/// A variant of a user's file as sent, `None` for a built-in.
fn file_variant(variant: &'static Variant) -> Option<v1::FileVariant> {
    let text = variant.definition()?;
    Some(v1::FileVariant {
        name: variant.name().to_owned(),
        variants_ini: text.to_owned(),
        variants_sha256: String::new(),
    })
}

/// The variant a unit plays: a built-in, or a section of the file it
/// carries, loaded once per process.
fn unit_variant(unit: &v1::WorkUnit) -> Result<&'static Variant, WireError> {
    let Some(file) = &unit.file_variant else {
        return Ok(VariantKind::from_wire(unit.variant, "WorkUnit.variant")?.variant());
    };
    if unit.variant != i32::from(v1::Variant::Unspecified) {
        return Err(WireError::invalid(
            "WorkUnit.variant",
            "set together with file_variant: a unit plays one variant",
        ));
    }
    let field = "WorkUnit.file_variant.variants_ini";
    let set = VariantSet::with_text(field, &file.variants_ini)
        .map_err(|e| WireError::invalid(field, e))?;
    set.find(&file.name)
        .map_err(|e| WireError::invalid("WorkUnit.file_variant.name", e))
}

impl TryFrom<&v1::WorkUnit> for MatchConfig {
    type Error = WireError;

    /// The match a work unit describes, for the worker that plays it.
    fn try_from(unit: &v1::WorkUnit) -> Result<MatchConfig, WireError> {
        let variant = unit_variant(unit)?;
        let openings = required(unit.openings.as_ref(), "WorkUnit.openings")?;
        let source = OpeningSource::try_from(openings)
            .map_err(|e| e.within("WorkUnit.openings"))?
            .checked(variant)
            .map_err(|e| WireError::invalid("WorkUnit.openings", e))?;
        let [first, second] = unit.players.as_slice() else {
            return Err(WireError::invalid(
                "WorkUnit.players",
                format!("{} players, 2 needed", unit.players.len()),
            ));
        };
        let player = |i: usize, p: &v1::Player| {
            player_config(p, variant).map_err(|e| e.within(&format!("WorkUnit.players[{i}]")))
        };
        let adj = unit.adjudication.unwrap_or_default();
        Ok(MatchConfig {
            variant,
            pairs: u64::from(unit.pair_count),
            concurrency: 1,
            seed: unit.seed,
            out: PathBuf::new(),
            run_id: unit.run_id.clone(),
            openings: Openings {
                variant,
                source,
                order: if openings.in_order {
                    Order::Sequential
                } else {
                    Order::Random
                },
                random_plies: unit.random_plies,
                imbalance: Imbalance::parse(&unit.imbalance_first, &unit.imbalance_second)
                    .map_err(|e| WireError::invalid("WorkUnit.imbalance_first", e))?,
            },
            players: [player(0, first)?, player(1, second)?],
            adjudication: Adjudication {
                resign_score: adj.resign_score,
                resign_moves: adj.resign_moves,
                draw_score: adj.draw_score,
                draw_moves: adj.draw_moves,
                draw_after_move: adj.draw_after_move,
                max_plies: adj.max_plies,
            },
            hash_mb: usize::try_from(unit.hash_mb.max(1)).unwrap_or(16),
            pgn: false,
            time_margin: DEFAULT_TIME_MARGIN,
        })
    }
}

impl From<&OpeningSource> for v1::Openings {
    fn from(source: &OpeningSource) -> v1::Openings {
        use v1::openings::Source;
        let source = match source {
            OpeningSource::Start => Source::Start(v1::StartPosition {}),
            OpeningSource::RandomNumber => Source::Random(v1::RandomNumber {}),
            OpeningSource::NumberRange(first, last) => Source::Range(v1::NumberRange {
                first: *first,
                last: *last,
            }),
            OpeningSource::Numbers(numbers) => Source::Numbers(v1::NumberList {
                numbers: numbers.clone(),
            }),
            OpeningSource::Fens(fens) => Source::Fens(v1::FenList {
                fens: fens.clone(),
                fens_sha256: String::new(),
            }),
        };
        v1::Openings {
            source: Some(source),
            in_order: false,
        }
    }
}

impl TryFrom<&v1::Openings> for OpeningSource {
    type Error = WireError;

    /// The source as sent; whether the variant can play it is
    /// [`OpeningSource::checked`]'s to say.
    fn try_from(o: &v1::Openings) -> Result<OpeningSource, WireError> {
        use v1::openings::Source;
        Ok(match required(o.source.as_ref(), "source")? {
            Source::Start(_) => OpeningSource::Start,
            Source::Random(_) => OpeningSource::RandomNumber,
            Source::Range(r) if r.first > r.last => {
                return Err(WireError::invalid(
                    "range",
                    format!("first {} after last {}", r.first, r.last),
                ));
            }
            Source::Range(r) => OpeningSource::NumberRange(r.first, r.last),
            Source::Numbers(n) if n.numbers.is_empty() => {
                return Err(WireError::invalid("numbers", "no numbers"));
            }
            Source::Numbers(n) => OpeningSource::Numbers(n.numbers.clone()),
            Source::Fens(f) if f.fens.is_empty() => {
                return Err(WireError::invalid("fens", "no positions"));
            }
            Source::Fens(f) => OpeningSource::Fens(f.fens.clone()),
        })
    }
}

impl From<TimeControl> for v1::TimeControl {
    fn from(tc: TimeControl) -> v1::TimeControl {
        use v1::time_control::Limit;
        let limit = match tc {
            TimeControl::Nodes(n) => Limit::Nodes(n),
            TimeControl::JitteredNodes { nodes, percent } => {
                Limit::JitteredNodes(v1::JitteredNodes { nodes, percent })
            }
            TimeControl::Depth(d) => Limit::Depth(d),
            TimeControl::MoveTime(t) => {
                Limit::MoveTimeMs(u64::try_from(t.as_millis()).unwrap_or(u64::MAX))
            }
            TimeControl::Clock {
                base,
                increment,
                moves,
            } => Limit::Clock(v1::Clock {
                base_seconds: base.as_secs_f64(),
                increment_seconds: increment.as_secs_f64(),
                moves_per_period: moves,
            }),
        };
        v1::TimeControl { limit: Some(limit) }
    }
}

impl TryFrom<&v1::TimeControl> for TimeControl {
    type Error = WireError;

    /// The time control, every number in the range its text form allows.
    fn try_from(tc: &v1::TimeControl) -> Result<TimeControl, WireError> {
        use v1::time_control::Limit;
        let seconds = |field: &str, s: f64| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| WireError::invalid(field, format!("{s} is not a number of seconds")))
        };
        let (tc, field) = match required(tc.limit.as_ref(), "limit")? {
            Limit::Nodes(n) => (TimeControl::Nodes(*n), "nodes"),
            Limit::JitteredNodes(j) => (
                TimeControl::JitteredNodes {
                    nodes: j.nodes,
                    percent: j.percent,
                },
                "jittered_nodes",
            ),
            Limit::Depth(d) => (TimeControl::Depth(*d), "depth"),
            Limit::MoveTimeMs(ms) => (
                TimeControl::MoveTime(Duration::from_millis(*ms)),
                "move_time_ms",
            ),
            Limit::Clock(c) => (
                TimeControl::Clock {
                    base: seconds("clock.base_seconds", c.base_seconds)?,
                    increment: seconds("clock.increment_seconds", c.increment_seconds)?,
                    moves: c.moves_per_period,
                },
                "clock",
            ),
        };
        tc.validated().map_err(|e| {
            let field = match &e {
                TimeControlError::OutOfRange { part, .. } => match *part {
                    "base (s)" => "clock.base_seconds",
                    "increment (s)" => "clock.increment_seconds",
                    "moves per period" => "clock.moves_per_period",
                    "percent" => "jittered_nodes.percent",
                    "nodes" if field == "jittered_nodes" => "jittered_nodes.nodes",
                    _ => field,
                },
                TimeControlError::Syntax(_) => field,
            };
            WireError::invalid(field, e)
        })
    }
}

impl From<&PlayerConfig> for v1::Player {
    /// A UCI player is sent with its own path as the worker path; the
    /// coordinator replaces it by the hash of the binary it ships, if any.
    fn from(p: &PlayerConfig) -> v1::Player {
        use v1::player::Engine;
        let engine = match &p.kind {
            PlayerKind::Builtin(params, features) => Engine::Builtin(v1::BuiltinEngine {
                params: params
                    .iter()
                    .map(|(name, value)| v1::Param {
                        name: name.into(),
                        value,
                    })
                    .collect(),
                disable: features
                    .disabled()
                    .iter()
                    .map(|s| (*s).to_owned())
                    .collect(),
            }),
            PlayerKind::Uci(u) => {
                let path = u.command.display().to_string();
                Engine::Uci(v1::UciEngine {
                    path: path.clone(),
                    args: u.args.clone(),
                    options: u
                        .options
                        .iter()
                        .map(|(name, value)| v1::UciOption {
                            name: name.clone(),
                            value: value.clone(),
                            sha256: None,
                            file_text: None,
                        })
                        .collect(),
                    sha256: None,
                    worker_path: path,
                    startup_timeout_ms: millis(u.startup_timeout),
                    move_timeout_ms: millis(u.move_timeout),
                    bench_nodes: u.bench.as_ref().map(|b| b.nodes),
                    bench_args: u.bench.as_ref().map(|b| b.args.clone()).unwrap_or_default(),
                })
            }
        };
        v1::Player {
            name: p.name.clone(),
            time_control: Some(p.tc.into()),
            engine: Some(engine),
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The player a wire player describes, in a unit of `variant`; errors name
/// fields from the player down.
fn player_config(p: &v1::Player, variant: &'static Variant) -> Result<PlayerConfig, WireError> {
    use v1::player::Engine;
    let tc = TimeControl::try_from(required(p.time_control.as_ref(), "time_control")?)
        .map_err(|e| e.within("time_control"))?;
    let kind = match required(p.engine.as_ref(), "engine")? {
        Engine::Builtin(b) => builtin(b).map_err(|e| e.within("builtin"))?,
        Engine::Uci(u) => uci(u, &p.name, variant).map_err(|e| e.within("uci"))?,
    };
    Ok(PlayerConfig {
        name: p.name.clone(),
        kind,
        tc,
    })
}

fn builtin(b: &v1::BuiltinEngine) -> Result<PlayerKind, WireError> {
    let mut params = Params::default();
    for (i, p) in b.params.iter().enumerate() {
        params
            .set(&p.name, i64::from(p.value))
            .map_err(|e| WireError::invalid(format!("params[{i}]"), e))?;
    }
    let mut features = Features::default();
    for (i, name) in b.disable.iter().enumerate() {
        if !features.disable(name) {
            return Err(WireError::invalid(
                format!("disable[{i}]"),
                format!("'{name}' is not a search feature"),
            ));
        }
    }
    Ok(PlayerKind::Builtin(Box::new(params), features))
}

/// A UCI engine from the wire. A binary shipped as an artifact (`sha256`)
/// has an empty command here: the worker runs its fetched copy (and the
/// fetched copies of option files) instead, so a unit with one cannot be
/// played before that.
fn uci(u: &v1::UciEngine, name: &str, variant: &'static Variant) -> Result<PlayerKind, WireError> {
    let command = match (&u.sha256, u.worker_path.is_empty()) {
        (Some(_), true) => PathBuf::new(),
        (None, false) => PathBuf::from(&u.worker_path),
        (None, true) => {
            return Err(WireError::invalid(
                "worker_path",
                "empty, and no sha256 of a shipped binary either",
            ));
        }
        (Some(_), false) => {
            return Err(WireError::invalid(
                "worker_path",
                "set together with sha256: the binary is either shipped or installed",
            ));
        }
    };
    Ok(PlayerKind::Uci(UciPlayerConfig {
        name: name.to_owned(),
        command,
        args: u.args.clone(),
        options: u
            .options
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect(),
        variant,
        startup_timeout: Duration::from_millis(u.startup_timeout_ms),
        move_timeout: Duration::from_millis(u.move_timeout_ms),
        bench: u.bench_nodes.map(|nodes| Bench {
            args: u.bench_args.clone(),
            nodes,
        }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_arena::MatchFile;
    use ajaxlab_arena::config::Overrides;

    fn config(toml_text: &str) -> MatchConfig {
        let file: MatchFile = toml::from_str(toml_text).unwrap();
        MatchConfig::build(file, Overrides::default()).unwrap()
    }

    fn unit(config: &MatchConfig) -> v1::WorkUnit {
        let campaign = CampaignId::new("c").unwrap();
        v1::WorkUnit::from(UnitSpec {
            config,
            campaign_id: &campaign,
            unit_id: &UnitId::new(&campaign, 0),
            lease_token: "t",
            lease: std::time::Duration::from_millis(5),
            first_pair: 3,
            pair_count: 2,
        })
    }

    const TWO_KINDS: &str = r#"
variant = "ajax-modern-random"
openings = "range:10-20"
random_plies = 4
[[players]]
engine = "builtin"
tc = "nodes=500~10%"
set = { "afc.falcon.mg" = 400 }
disable = ["lmr"]
[[players]]
engine = "uci"
path = "/bin/sh"
args = ["-c", "true"]
options = { Hash = 16, UCI_Variant = "amrc" }
tc = "10+0.1"
bench = 151414
"#;

    #[test]
    fn a_unit_reads_back_as_the_match_it_was_made_from() {
        let sent = config(TWO_KINDS);
        let wire = unit(&sent);
        assert_eq!((wire.first_pair, wire.pair_count), (3, 2));
        let got = MatchConfig::try_from(&wire).unwrap();
        assert_eq!(got.variant, sent.variant);
        assert_eq!(got.openings.source, OpeningSource::NumberRange(10, 20));
        assert_eq!(got.openings.random_plies, 4);
        for (g, s) in got.players.iter().zip(&sent.players) {
            assert_eq!((&g.name, g.tc), (&s.name, s.tc));
        }
        let PlayerKind::Builtin(params, features) = &got.players[0].kind else {
            panic!("{:?}", got.players[0].kind);
        };
        assert_eq!(params.get("afc.falcon.mg"), Some(400));
        assert_eq!(features.disabled(), ["lmr"]);
        let PlayerKind::Uci(u) = &got.players[1].kind else {
            panic!("{:?}", got.players[1].kind);
        };
        assert_eq!(u.command, PathBuf::from("/bin/sh"));
        assert_eq!(u.args, ["-c", "true"]);
        assert_eq!(u.options.len(), 2);
        assert_eq!(
            u.bench,
            Some(Bench {
                args: vec!["bench".into()],
                nodes: 151_414
            })
        );
        // The wire form of the wire form is the same unit.
        assert_eq!(unit(&got), wire);
    }

    /// A variant of a user's file travels whole: a worker with no copy of
    /// the file plays the same variant (the same value, loaded once).
    #[test]
    fn a_file_variant_travels_with_its_definition() {
        let model = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fsf/model-variants.ini"
        );
        let sent = config(&format!(
            "variant = \"dropwazir\"\nvariants = \"{model}\"\ntc = \"nodes=100\"\n"
        ));
        let wire = unit(&sent);
        assert_eq!(wire.variant, i32::from(v1::Variant::Unspecified));
        let file = wire.file_variant.as_ref().unwrap();
        assert_eq!(file.name, "dropwazir");
        assert_eq!(Some(file.variants_ini.as_str()), sent.variant.definition());
        let got = MatchConfig::try_from(&wire).unwrap();
        assert!(std::ptr::eq(got.variant, sent.variant));
        assert_eq!(unit(&got), wire);
        type Break = fn(&mut v1::WorkUnit);
        let cases: [(Break, &str); 3] = [
            (
                |u| u.variant = 3,
                "WorkUnit.variant: set together with file_variant",
            ),
            (
                |u| u.file_variant.as_mut().unwrap().name = "nosuch".into(),
                "WorkUnit.file_variant.name: unknown variant 'nosuch'",
            ),
            (
                |u| u.file_variant.as_mut().unwrap().variants_ini = "[x:chess]\nbogus = 1\n".into(),
                "WorkUnit.file_variant.variants_ini: WorkUnit.file_variant.variants_ini:2: bogus",
            ),
        ];
        for (break_it, want) in cases {
            let mut bad = wire.clone();
            break_it(&mut bad);
            let e = MatchConfig::try_from(&bad).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}\nwanted {want}");
        }
    }

    #[test]
    fn every_time_control_and_opening_source_crosses_the_wire() {
        for text in [
            "nodes=7",
            "nodes=100~50%",
            "depth=3",
            "movetime=250",
            "0.5+0.01",
            "60+0",
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(
                TimeControl::try_from(&v1::TimeControl::from(tc)),
                Ok(tc),
                "{text}"
            );
        }
        for source in [
            OpeningSource::Start,
            OpeningSource::RandomNumber,
            OpeningSource::NumberRange(1, 2),
            OpeningSource::Numbers(vec![5, 9]),
            OpeningSource::Fens(vec!["8/8/8/8/8/8/8/K6k w - - 0 1".into()]),
        ] {
            let wire = v1::Openings::from(&source);
            assert_eq!(OpeningSource::try_from(&wire), Ok(source));
        }
    }

    #[test]
    fn a_bad_field_is_named_from_the_work_unit_down() {
        use v1::time_control::Limit;
        let good = unit(&config(TWO_KINDS));
        type Break = fn(&mut v1::WorkUnit);
        let cases: Vec<(Break, &str)> = vec![
            (|u| u.variant = 0, "WorkUnit.variant: unspecified"),
            (
                |u| u.variant = 77,
                "WorkUnit.variant: 77 is not a known value",
            ),
            (|u| u.openings = None, "WorkUnit.openings: missing"),
            (
                |u| u.openings = Some(v1::Openings::from(&OpeningSource::NumberRange(9, 20_000))),
                "WorkUnit.openings: ",
            ),
            (
                |u| u.openings = Some(v1::Openings::from(&OpeningSource::NumberRange(9, 2))),
                "WorkUnit.openings.range: first 9 after last 2",
            ),
            (
                |u| u.players.truncate(1),
                "WorkUnit.players: 1 players, 2 needed",
            ),
            (
                |u| u.players[1].time_control = None,
                "WorkUnit.players[1].time_control: missing",
            ),
            (
                |u| {
                    u.players[1].time_control = Some(v1::TimeControl {
                        limit: Some(Limit::Clock(v1::Clock {
                            base_seconds: 1.0,
                            increment_seconds: 1e9,
                            moves_per_period: None,
                        })),
                    });
                },
                "WorkUnit.players[1].time_control.clock.increment_seconds: ",
            ),
            (
                |u| {
                    u.players[0].time_control = Some(v1::TimeControl {
                        limit: Some(Limit::Clock(v1::Clock {
                            base_seconds: f64::NAN,
                            increment_seconds: 0.0,
                            moves_per_period: None,
                        })),
                    });
                },
                "WorkUnit.players[0].time_control.clock.base_seconds: NaN is not",
            ),
            (
                |u| {
                    u.players[0].time_control = Some(v1::TimeControl {
                        limit: Some(Limit::Clock(v1::Clock {
                            base_seconds: 60.0,
                            increment_seconds: 0.0,
                            moves_per_period: Some(0),
                        })),
                    });
                },
                "WorkUnit.players[0].time_control.clock.moves_per_period: ",
            ),
            (
                |u| {
                    u.players[0].time_control = Some(v1::TimeControl {
                        limit: Some(Limit::JitteredNodes(v1::JitteredNodes {
                            nodes: 5,
                            percent: 80,
                        })),
                    });
                },
                "WorkUnit.players[0].time_control.jittered_nodes.percent: ",
            ),
            (
                |u| {
                    u.players[0].time_control = Some(v1::TimeControl {
                        limit: Some(Limit::Depth(0)),
                    })
                },
                "WorkUnit.players[0].time_control.depth: ",
            ),
            (
                |u| u.players[0].engine = None,
                "WorkUnit.players[0].engine: missing",
            ),
            (
                |u| {
                    if let Some(v1::player::Engine::Builtin(b)) = &mut u.players[0].engine {
                        b.disable.push("telepathy".into());
                    }
                },
                "WorkUnit.players[0].builtin.disable[1]: 'telepathy' is not a search feature",
            ),
            (
                |u| {
                    if let Some(v1::player::Engine::Builtin(b)) = &mut u.players[0].engine {
                        b.params[0].value = i32::MAX;
                    }
                },
                "WorkUnit.players[0].builtin.params[0]: ",
            ),
            (
                |u| {
                    if let Some(v1::player::Engine::Uci(e)) = &mut u.players[1].engine {
                        e.worker_path.clear();
                    }
                },
                "WorkUnit.players[1].uci.worker_path: empty, and no sha256",
            ),
            (
                |u| {
                    if let Some(v1::player::Engine::Uci(e)) = &mut u.players[1].engine {
                        e.sha256 = Some("ab".into());
                    }
                },
                "WorkUnit.players[1].uci.worker_path: set together with sha256",
            ),
        ];
        for (break_it, expected) in cases {
            let mut u = good.clone();
            break_it(&mut u);
            let e = MatchConfig::try_from(&u).unwrap_err().to_string();
            assert!(e.starts_with(expected), "{e} (expected {expected})");
        }
    }
}
