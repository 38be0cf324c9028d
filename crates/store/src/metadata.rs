//! A games file's key-value metadata as one typed [`FileMetadata`]: what
//! kind of run played its games, the campaign, the piece-value part or the
//! SPRT's design, and the names of the parameter vectors. Written by
//! [`FileMetadata::to_pairs`] and read by [`FileMetadata::from_pairs`], so
//! the keys and their text forms are defined once.
//!
//! | key | value |
//! |---|---|
//! | `ajaxlab.param_names` | JSON array of the parameter names: the engine's table, then a file variant's pieces' values |
//! | `ajaxlab.schema_version` | `1` |
//! | `ajaxlab.kind` | `match`, `sprt`, `spsa`, `piece-value` or `first-move`; absent in `ajaxlab match` files |
//! | `ajaxlab.campaign` | the campaign id (a piece-value campaign's parts are `NAME.PART`) |
//! | `ajaxlab.campaign_toml` | the campaign file's TOML text |
//! | `ajaxlab.part` | a piece-value part's imbalance name |
//! | `ajaxlab.calibration` | `true` for a piece-value campaign's pawn-odds part, else `false` |
//! | `ajaxlab.sprt` | an SPRT's design: `{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"normalized"}` |
//! | `ajaxlab.variants_ini` | the text of the user's variants file the games' variant comes from; absent when it is a built-in |
//! | `ajaxlab.variants_sha256` | that text's SHA-256, in hex, checked when the file is read |

use crate::ids::{CampaignId, NameError};
use ajaxlab_stats::{EloModel, SprtConfig};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Metadata key holding the parameter names.
pub const PARAM_NAMES_KEY: &str = "ajaxlab.param_names";
/// Metadata key holding the schema version.
pub const SCHEMA_VERSION_KEY: &str = "ajaxlab.schema_version";
/// Current schema version.
pub const SCHEMA_VERSION: &str = "1";
/// Metadata key holding the kind of run that played a file's games.
pub const KIND_KEY: &str = "ajaxlab.kind";
/// Metadata key holding the campaign id.
pub const CAMPAIGN_KEY: &str = "ajaxlab.campaign";
/// Metadata key holding the campaign file's TOML text.
pub const CAMPAIGN_TOML_KEY: &str = "ajaxlab.campaign_toml";
/// Metadata key of a piece-value campaign's part: the imbalance's name.
pub const PART_KEY: &str = "ajaxlab.part";
/// Metadata key marking a piece-value part as the pawn-odds calibration.
pub const CALIBRATION_KEY: &str = "ajaxlab.calibration";
/// Metadata key of an SPRT campaign's design, as JSON.
pub const SPRT_KEY: &str = "ajaxlab.sprt";
/// Metadata key holding the text of the user's variants file.
pub const VARIANTS_KEY: &str = "ajaxlab.variants_ini";
/// Metadata key holding the SHA-256 of [`VARIANTS_KEY`]'s text.
pub const VARIANTS_SHA256_KEY: &str = "ajaxlab.variants_sha256";

/// What a run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RunKind {
    /// A match between two players (`ajaxlab match`, or a campaign of that kind).
    Match,
    /// A sequential test of player 0 against player 1.
    Sprt,
    /// An SPSA tune.
    Spsa,
    /// Piece values from imbalanced starts, one part per imbalance.
    PieceValue,
    /// Self-play from many starts: White's advantage per start.
    FirstMove,
    /// Self-play whose positions are kept as training data, one row each.
    Datagen,
}

impl RunKind {
    /// Every kind.
    pub const ALL: [RunKind; 6] = [
        RunKind::Match,
        RunKind::Sprt,
        RunKind::Spsa,
        RunKind::PieceValue,
        RunKind::FirstMove,
        RunKind::Datagen,
    ];

    /// The name stored in files and sent on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RunKind::Match => "match",
            RunKind::Sprt => "sprt",
            RunKind::Spsa => "spsa",
            RunKind::PieceValue => "piece-value",
            RunKind::FirstMove => "first-move",
            RunKind::Datagen => "datagen",
        }
    }
}

impl fmt::Display for RunKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`RunKind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not one of match, sprt, spsa, piece-value, first-move, datagen")]
pub struct UnknownRunKind(pub String);

impl FromStr for RunKind {
    type Err = UnknownRunKind;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        RunKind::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
            .ok_or_else(|| UnknownRunKind(text.to_owned()))
    }
}

/// An SPRT's design as stored in its files.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtMetadata {
    /// H0.
    pub elo0: f64,
    /// H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The Elo scale of the bounds.
    pub model: EloModel,
}

impl From<&SprtConfig> for SprtMetadata {
    fn from(c: &SprtConfig) -> Self {
        Self {
            elo0: c.elo0,
            elo1: c.elo1,
            alpha: c.alpha,
            beta: c.beta,
            model: c.model,
        }
    }
}

impl SprtMetadata {
    /// The test's configuration (updates after every sample).
    #[must_use]
    pub const fn config(&self) -> SprtConfig {
        SprtConfig {
            alpha: self.alpha,
            beta: self.beta,
            ..SprtConfig::new(self.elo0, self.elo1, self.model)
        }
    }
}

/// An SPRT's design as written: a campaign file's `[sprt]` table, and the
/// JSON of [`SPRT_KEY`] in its games files. One definition for both, so
/// that they cannot drift apart. `alpha`, `beta` and `model` may be left
/// out (Fishtest's defaults); the model stays a name until
/// [`SprtMetadata::try_from`] reads it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtDesign {
    /// H0, Elo.
    pub elo0: f64,
    /// H1, Elo.
    pub elo1: f64,
    /// False-positive rate.
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// False-negative rate.
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// The Elo scale of the bounds, by name (`normalized`, `logistic`).
    #[serde(default = "default_model")]
    pub model: String,
}

impl From<&SprtMetadata> for SprtDesign {
    fn from(s: &SprtMetadata) -> Self {
        SprtDesign {
            elo0: s.elo0,
            elo1: s.elo1,
            alpha: s.alpha,
            beta: s.beta,
            model: s.model.to_string(),
        }
    }
}

impl TryFrom<&SprtDesign> for SprtMetadata {
    type Error = ajaxlab_stats::UnknownEloModel;

    /// Reads the model's name.
    fn try_from(d: &SprtDesign) -> Result<Self, Self::Error> {
        Ok(SprtMetadata {
            elo0: d.elo0,
            elo1: d.elo1,
            alpha: d.alpha,
            beta: d.beta,
            model: d.model.parse()?,
        })
    }
}

fn default_error_rate() -> f64 {
    ajaxlab_stats::DEFAULT_ERROR_RATE
}

fn default_model() -> String {
    EloModel::Normalized.to_string()
}

/// A piece-value part as stored in its files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartMetadata {
    /// The imbalance's name; files without it name the part by the last
    /// component of the campaign id.
    pub name: Option<String>,
    /// Whether this is the pawn-odds calibration.
    pub calibration: bool,
}

/// The kind of run with what that kind stores.
#[derive(Clone, Debug, PartialEq)]
pub enum KindMetadata {
    /// A match.
    Match,
    /// An SPRT and its design.
    Sprt(SprtMetadata),
    /// An SPSA tune.
    Spsa,
    /// A piece-value part.
    PieceValue(PartMetadata),
    /// A first-move survey.
    FirstMove,
    /// Self-play for training positions.
    Datagen,
}

impl KindMetadata {
    /// The kind alone.
    #[must_use]
    pub const fn kind(&self) -> RunKind {
        match self {
            KindMetadata::Match => RunKind::Match,
            KindMetadata::Sprt(_) => RunKind::Sprt,
            KindMetadata::Spsa => RunKind::Spsa,
            KindMetadata::PieceValue(_) => RunKind::PieceValue,
            KindMetadata::FirstMove => RunKind::FirstMove,
            KindMetadata::Datagen => RunKind::Datagen,
        }
    }
}

/// A games file's metadata.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileMetadata {
    /// The names of the parameter vectors' entries.
    pub param_names: Vec<String>,
    /// The kind of run; `None` in files of `ajaxlab match`, which reports
    /// read as matches.
    pub kind: Option<KindMetadata>,
    /// The campaign id; `None` outside campaigns (one run per `run_id`).
    pub campaign: Option<CampaignId>,
    /// The campaign file's text.
    pub campaign_toml: Option<String>,
    /// The text of the user's variants file that defines the games'
    /// variant, so that they can be read and replayed without the file;
    /// `None` when the games are of a built-in variant.
    pub variants_ini: Option<String>,
}

/// The SHA-256 of `bytes` in lowercase hex: how ajaxlab names a file's
/// content (a variants definition in a games file's metadata, a
/// campaign's captured inputs, a token as the coordinator keeps it).
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A metadata entry that is malformed, or missing where its kind needs it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("metadata {key}: {problem}")]
pub struct MetadataError {
    /// The key.
    pub key: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

impl FileMetadata {
    /// The run kind, [`RunKind::Match`] when the file names none.
    #[must_use]
    pub fn run_kind(&self) -> RunKind {
        self.kind
            .as_ref()
            .map_or(RunKind::Match, KindMetadata::kind)
    }

    /// The key-value pairs stored in a file.
    #[must_use]
    pub fn to_pairs(&self) -> BTreeMap<String, String> {
        let names = serde_json::Value::from(self.param_names.clone()).to_string();
        let mut m = BTreeMap::from([
            (PARAM_NAMES_KEY.to_owned(), names),
            (SCHEMA_VERSION_KEY.to_owned(), SCHEMA_VERSION.to_owned()),
        ]);
        let mut put = |key: &str, value: String| m.insert(key.to_owned(), value);
        if let Some(kind) = &self.kind {
            put(KIND_KEY, kind.kind().to_string());
            match kind {
                KindMetadata::Sprt(s) => {
                    // Through a JSON value, whose keys are sorted, as files
                    // have always been written.
                    let json = serde_json::to_value(SprtDesign::from(s))
                        .map(|v| v.to_string())
                        .unwrap_or_default();
                    put(SPRT_KEY, json);
                }
                KindMetadata::PieceValue(part) => {
                    if let Some(name) = &part.name {
                        put(PART_KEY, name.clone());
                    }
                    put(CALIBRATION_KEY, part.calibration.to_string());
                }
                KindMetadata::Match
                | KindMetadata::Spsa
                | KindMetadata::FirstMove
                | KindMetadata::Datagen => {}
            }
        }
        if let Some(campaign) = &self.campaign {
            put(CAMPAIGN_KEY, campaign.to_string());
        }
        if let Some(text) = &self.campaign_toml {
            put(CAMPAIGN_TOML_KEY, text.clone());
        }
        if let Some(text) = &self.variants_ini {
            put(VARIANTS_KEY, text.clone());
            put(VARIANTS_SHA256_KEY, sha256_hex(text.as_bytes()));
        }
        m
    }

    /// The metadata of a file's key-value pairs; keys it does not know
    /// (Arrow's own, say) are ignored, and so are the parameter names when
    /// they are not a JSON array of strings.
    ///
    /// # Errors
    /// [`MetadataError`] naming the key of an unknown kind, a campaign id
    /// that breaks the rule of [`CampaignId`], a calibration flag other
    /// than `true`/`false`, or an SPRT design that is missing or malformed
    /// in an SPRT file.
    pub fn from_pairs<'a, I>(pairs: I) -> Result<FileMetadata, MetadataError>
    where
        I: IntoIterator<Item = (&'a String, &'a String)>,
    {
        let m: BTreeMap<&str, &str> = pairs
            .into_iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let param_names = m
            .get(PARAM_NAMES_KEY)
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or_default();
        let kind = match m.get(KIND_KEY) {
            None => None,
            Some(text) => Some(kind_metadata(text, &m)?),
        };
        Ok(FileMetadata {
            param_names,
            kind,
            campaign: m.get(CAMPAIGN_KEY).map(|s| s.parse()).transpose().map_err(
                |e: NameError| MetadataError {
                    key: CAMPAIGN_KEY,
                    problem: e.to_string(),
                },
            )?,
            campaign_toml: m.get(CAMPAIGN_TOML_KEY).map(|s| (*s).to_owned()),
            variants_ini: variants_ini(&m)?,
        })
    }
}

/// The variants text of a file's metadata, checked against its hash.
fn variants_ini(m: &BTreeMap<&str, &str>) -> Result<Option<String>, MetadataError> {
    match (m.get(VARIANTS_KEY), m.get(VARIANTS_SHA256_KEY)) {
        (None, None) => Ok(None),
        (Some(text), Some(hash)) => {
            let actual = sha256_hex(text.as_bytes());
            if actual == *hash {
                Ok(Some((*text).to_owned()))
            } else {
                Err(MetadataError {
                    key: VARIANTS_SHA256_KEY,
                    problem: format!(
                        "{hash} is not the hash of {VARIANTS_KEY}'s text ({actual}): the definition was changed after the games were written"
                    ),
                })
            }
        }
        (Some(_), None) => Err(MetadataError {
            key: VARIANTS_SHA256_KEY,
            problem: format!("missing beside {VARIANTS_KEY}"),
        }),
        (None, Some(_)) => Err(MetadataError {
            key: VARIANTS_KEY,
            problem: format!("missing beside {VARIANTS_SHA256_KEY}"),
        }),
    }
}

fn kind_metadata(text: &str, m: &BTreeMap<&str, &str>) -> Result<KindMetadata, MetadataError> {
    let kind: RunKind = text.parse().map_err(|e: UnknownRunKind| MetadataError {
        key: KIND_KEY,
        problem: e.to_string(),
    })?;
    Ok(match kind {
        RunKind::Match => KindMetadata::Match,
        RunKind::Spsa => KindMetadata::Spsa,
        RunKind::FirstMove => KindMetadata::FirstMove,
        RunKind::Datagen => KindMetadata::Datagen,
        RunKind::Sprt => KindMetadata::Sprt(sprt_metadata(m.get(SPRT_KEY).copied())?),
        RunKind::PieceValue => KindMetadata::PieceValue(PartMetadata {
            name: m.get(PART_KEY).map(|s| (*s).to_owned()),
            calibration: match m.get(CALIBRATION_KEY).copied() {
                None | Some("false") => false,
                Some("true") => true,
                Some(other) => {
                    return Err(MetadataError {
                        key: CALIBRATION_KEY,
                        problem: format!("'{other}' is neither true nor false"),
                    });
                }
            },
        }),
    })
}

fn sprt_metadata(text: Option<&str>) -> Result<SprtMetadata, MetadataError> {
    let problem = |problem: String| MetadataError {
        key: SPRT_KEY,
        problem,
    };
    let text = text.ok_or_else(|| problem("missing in an sprt file".to_owned()))?;
    let design: SprtDesign =
        serde_json::from_str(text).map_err(|e| problem(format!("'{text}': {e}")))?;
    SprtMetadata::try_from(&design).map_err(|e| problem(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(m: &FileMetadata) -> FileMetadata {
        let pairs = m.to_pairs();
        FileMetadata::from_pairs(&pairs).unwrap_or_default()
    }

    #[test]
    fn kinds_round_trip() {
        for k in RunKind::ALL {
            assert_eq!(k.as_str().parse::<RunKind>(), Ok(k));
        }
        assert!("tune".parse::<RunKind>().is_err());
    }

    #[test]
    fn every_kind_of_metadata_round_trips() {
        let sprt = SprtMetadata {
            elo0: -1.5,
            elo1: 4.0,
            alpha: 0.1,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let kinds = [
            None,
            Some(KindMetadata::Match),
            Some(KindMetadata::Sprt(sprt)),
            Some(KindMetadata::Spsa),
            Some(KindMetadata::PieceValue(PartMetadata {
                name: Some("vs-rook".to_owned()),
                calibration: false,
            })),
            Some(KindMetadata::PieceValue(PartMetadata {
                name: None,
                calibration: true,
            })),
            Some(KindMetadata::FirstMove),
        ];
        for kind in kinds {
            let m = FileMetadata {
                param_names: vec!["a.b".to_owned(), "c".to_owned()],
                kind,
                campaign: CampaignId::new("camp").ok(),
                campaign_toml: Some("games = 2\n".to_owned()),
                variants_ini: Some("[mine:chess]\n".to_owned()),
            };
            assert_eq!(round_trip(&m), m);
        }
        assert_eq!(
            round_trip(&FileMetadata::default()),
            FileMetadata::default()
        );
    }

    #[test]
    fn an_sprt_design_may_leave_out_its_error_rates_and_model() {
        let pairs = BTreeMap::from([
            (KIND_KEY.to_owned(), "sprt".to_owned()),
            (SPRT_KEY.to_owned(), r#"{"elo0":0,"elo1":5}"#.to_owned()),
        ]);
        let m = FileMetadata::from_pairs(&pairs).map(|m| m.kind);
        let expected = SprtMetadata {
            elo0: 0.0,
            elo1: 5.0,
            alpha: ajaxlab_stats::DEFAULT_ERROR_RATE,
            beta: ajaxlab_stats::DEFAULT_ERROR_RATE,
            model: EloModel::Normalized,
        };
        assert_eq!(m, Ok(Some(KindMetadata::Sprt(expected))));
    }

    /// The design is written as files have always held it (keys sorted,
    /// as main at a564af6 wrote the fixtures), and read back the same.
    #[test]
    fn an_sprt_design_is_written_as_before_and_read_back() {
        let design = SprtMetadata {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
            model: EloModel::Logistic,
        };
        let metadata = FileMetadata {
            kind: Some(KindMetadata::Sprt(design)),
            ..FileMetadata::default()
        };
        let pairs = metadata.to_pairs();
        assert_eq!(
            pairs[SPRT_KEY],
            r#"{"alpha":0.05,"beta":0.1,"elo0":0.0,"elo1":5.0,"model":"logistic"}"#
        );
        assert_eq!(
            FileMetadata::from_pairs(&pairs).map(|m| m.kind),
            Ok(Some(KindMetadata::Sprt(design)))
        );
    }

    #[test]
    fn malformed_entries_name_their_key() {
        let cases = [
            (vec![(KIND_KEY, "tournament")], KIND_KEY),
            (vec![(KIND_KEY, "sprt")], SPRT_KEY),
            (vec![(KIND_KEY, "sprt"), (SPRT_KEY, "{")], SPRT_KEY),
            (
                vec![
                    (KIND_KEY, "sprt"),
                    (SPRT_KEY, r#"{"elo0":0,"elo1":5,"model":"bayes"}"#),
                ],
                SPRT_KEY,
            ),
            (
                vec![(KIND_KEY, "piece-value"), (CALIBRATION_KEY, "yes")],
                CALIBRATION_KEY,
            ),
            (vec![(CAMPAIGN_KEY, "../etc")], CAMPAIGN_KEY),
            (vec![(CAMPAIGN_KEY, "")], CAMPAIGN_KEY),
        ];
        for (pairs, key) in cases {
            let pairs: BTreeMap<String, String> = pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            let err = FileMetadata::from_pairs(&pairs).map(|_| ());
            assert_eq!(err.map_err(|e| e.key), Err(key), "{pairs:?}");
        }
    }
}
