//! The files a campaign file names (opening lists `list:FILE`, books
//! `file:FILE`, a `variants` file, the players' `params` files, an SPSA
//! tune's `params_file` and `template`): read by the operator's command
//! where the campaign file was written ([`read_named_files`]), each within
//! its size limit, and sent with it; the coordinator reads no path a
//! campaign names (one that did let an operator token read any file the
//! coordinator could). What was sent is copied into the coordinator's
//! state under its SHA-256, owner-only, and read from that copy ever
//! after, so that the campaign never changes mid-run.

use ajaxlab_arena::ConfigError;
use ajaxlab_files::limits;
use ajaxlab_store::sha256_hex;
use std::path::{Path, PathBuf};

/// A file a campaign names, read where the campaign file was written and
/// sent with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentFile {
    /// Where the campaign names it: `variants`, `openings`,
    /// `players[1].params`, `spsa.template`.
    pub key: String,
    /// The path as the campaign file writes it.
    pub path: String,
    /// Its bytes.
    pub content: Vec<u8>,
}

impl From<ajaxlab_proto::v1::SentFile> for SentFile {
    fn from(f: ajaxlab_proto::v1::SentFile) -> SentFile {
        SentFile {
            key: f.key,
            path: f.path,
            content: f.content,
        }
    }
}

impl From<&SentFile> for ajaxlab_proto::v1::SentFile {
    fn from(f: &SentFile) -> ajaxlab_proto::v1::SentFile {
        ajaxlab_proto::v1::SentFile {
            key: f.key.clone(),
            path: f.path.clone(),
            content: f.content.clone(),
        }
    }
}

/// The largest file the campaign key `key` may name, bytes.
fn limit_of(key: &str) -> u64 {
    match key {
        "variants" => limits::VARIANTS_FILE,
        "openings" => limits::OPENINGS_FILE,
        "spsa.template" => limits::TEMPLATE,
        _ => limits::PARAMS_FILE,
    }
}

/// Reads every file the campaign file `text` names from this machine
/// (paths relative to the current directory), each a regular file within
/// its key's size limit. A text that is not TOML names no files (the
/// campaign parser reports it).
///
/// # Errors
/// [`ConfigError`] naming the key and the file that cannot be read.
pub fn read_named_files(text: &str) -> Result<Vec<SentFile>, ConfigError> {
    match text.parse::<toml::Table>() {
        Ok(table) => named_files(&table),
        Err(_) => Ok(Vec::new()),
    }
}

/// [`read_named_files`] of a file's parsed TOML.
///
/// # Errors
/// [`ConfigError`] naming the key and the file that cannot be read.
pub fn named_files(table: &toml::Table) -> Result<Vec<SentFile>, ConfigError> {
    references(table)
        .into_iter()
        .map(|(key, path)| {
            let content = ajaxlab_files::read_bytes(Path::new(&path), limit_of(&key))
                .map_err(|e| err(&key, format!("file {path}: {e}")))?;
            Ok(SentFile { key, path, content })
        })
        .collect()
}

/// One file a campaign file names, as captured (or, for the artifacts a
/// campaign ships to its workers, as uploaded): the record the
/// coordinator's state keeps of it.
pub use ajaxlab_store::state::Input;

/// The captured files of one campaign file and the directory of their copies.
#[derive(Clone, Debug)]
pub struct Inputs {
    dir: PathBuf,
    files: Vec<Input>,
    /// The copies [`Inputs::capture`] wrote (not there before it).
    created: Vec<PathBuf>,
}

/// Writes `bytes` to `path` through a temporary file, readable and
/// writable by the owner only (the directory made owner-only too).
fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn err(key: &str, message: String) -> ConfigError {
    ConfigError::new(key, message)
}

/// The files `table` names: `(key, path)` for `openings = "list:…"` or
/// `"file:…"`, `variants`, each `[[players]] params` and `[spsa]
/// params_file`.
fn references(table: &toml::Table) -> Vec<(String, String)> {
    let mut refs = Vec::new();
    if let Some(path) = table.get("variants").and_then(toml::Value::as_str) {
        refs.push(("variants".to_owned(), path.to_owned()));
    }
    if let Some(path) = table
        .get("openings")
        .and_then(toml::Value::as_str)
        .and_then(opening_path)
    {
        refs.push(("openings".to_owned(), path.to_owned()));
    }
    let players = table.get("players").and_then(toml::Value::as_array);
    for (i, player) in players.into_iter().flatten().enumerate() {
        if let Some(path) = player.get("params").and_then(toml::Value::as_str) {
            refs.push((format!("players[{i}].params"), path.to_owned()));
        }
    }
    for name in SPSA_FILES {
        if let Some(path) = spsa_file(table, name) {
            refs.push((format!("spsa.{name}"), path.to_owned()));
        }
    }
    refs
}

/// The keys of the `[spsa]` table that name files.
const SPSA_FILES: [&str; 2] = ["params_file", "template"];

/// The path of `[spsa] NAME`.
fn spsa_file<'a>(table: &'a toml::Table, name: &str) -> Option<&'a str> {
    table.get("spsa")?.get(name)?.as_str()
}

/// The path of a `list:FILE[,…]` or `file:FILE[,…]` opening spec.
fn opening_path(spec: &str) -> Option<&str> {
    let rest = spec
        .strip_prefix("list:")
        .or_else(|| spec.strip_prefix("file:"))?;
    Some(rest.split_once(',').map_or(rest, |(path, _)| path))
}

impl Inputs {
    /// Stores a copy of each file `text` names, from `sent` (what the
    /// operator's command read and sent with it), in `dir` named by its
    /// hash, owner-only, and returns what was captured. A file that does
    /// not parse as TOML names no files (the campaign parser reports it).
    ///
    /// # Errors
    /// [`ConfigError`] naming the key of a file not sent or over its size
    /// limit, or of a copy that cannot be written.
    pub fn capture(text: &str, sent: &[SentFile], dir: &Path) -> Result<Inputs, ConfigError> {
        let Ok(table) = text.parse::<toml::Table>() else {
            return Ok(Inputs::stored(dir, Vec::new()));
        };
        let references = references(&table);
        if let Some(extra) = sent
            .iter()
            .find(|f| !references.iter().any(|(k, p)| *k == f.key && *p == f.path))
        {
            return Err(err(
                &extra.key,
                format!(
                    "file {} was sent but the campaign does not name it",
                    extra.path
                ),
            ));
        }
        let mut inputs = Inputs::stored(dir, Vec::new());
        for (key, path) in references {
            let file = sent
                .iter()
                .find(|f| f.key == key && f.path == path)
                .ok_or_else(|| {
                    err(
                        &key,
                        format!(
                            "file {path} was not sent with the campaign (the coordinator reads no path a campaign names; `ajaxlab campaign create` sends them)"
                        ),
                    )
                })?;
            let limit = limit_of(&key);
            if file.content.len() as u64 > limit {
                return Err(err(
                    &key,
                    format!("file {path}: {}", ajaxlab_files::too_large(limit)),
                ));
            }
            let input = Input {
                key,
                sha256: sha256_hex(&file.content),
                path,
            };
            let copy = inputs.copy_of(&input);
            if !copy.exists() {
                let copy_err =
                    |e: std::io::Error| err(&input.key, format!("copying {}: {e}", input.path));
                write_owner_only(&copy, &file.content).map_err(copy_err)?;
                inputs.created.push(copy);
            }
            inputs.files.push(input);
        }
        Ok(inputs)
    }

    /// Removes the copies this capture made, for a campaign refused after
    /// its files were captured: a refusal leaves nothing behind.
    pub fn discard_created(&self) {
        for copy in &self.created {
            if let Err(e) = std::fs::remove_file(copy) {
                tracing::warn!("removing {}: {e}", copy.display());
            }
        }
    }

    /// Files captured earlier, with their copies in `dir`.
    pub fn stored(dir: &Path, files: Vec<Input>) -> Inputs {
        Inputs {
            dir: dir.to_owned(),
            files,
            created: Vec::new(),
        }
    }

    /// What was captured.
    pub fn files(&self) -> &[Input] {
        &self.files
    }

    /// Where the copy of `input` is: its hash, with the original's
    /// extension (a `.pgn` book is read as PGN).
    fn copy_of(&self, input: &Input) -> PathBuf {
        let ext = Path::new(&input.path)
            .extension()
            .and_then(|e| e.to_str())
            .filter(|e| e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()));
        self.dir.join(match ext {
            Some(ext) => format!("{}.{ext}", input.sha256),
            None => input.sha256.clone(),
        })
    }

    /// Checks that every copy is there with the hash recorded at create time.
    ///
    /// # Errors
    /// [`ConfigError`] naming the key and the original file.
    pub fn verify(&self) -> Result<(), ConfigError> {
        for input in &self.files {
            let copy = self.copy_of(input);
            let bytes = std::fs::read(&copy).map_err(|e| {
                err(
                    &input.key,
                    format!(
                        "the copy of {} taken at create time ({}): {e}",
                        input.path,
                        copy.display()
                    ),
                )
            })?;
            if sha256_hex(&bytes) != input.sha256 {
                return Err(err(
                    &input.key,
                    format!(
                        "the copy of {} taken at create time ({}) has changed",
                        input.path,
                        copy.display()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Points every file `table` names at its copy.
    ///
    /// # Errors
    /// [`ConfigError`] for a file that was not captured.
    pub(crate) fn redirect(&self, table: &mut toml::Table) -> Result<(), ConfigError> {
        for (key, path) in references(table) {
            let input = self
                .files
                .iter()
                .find(|i| i.key == key && i.path == path)
                .ok_or_else(|| err(&key, format!("file {path} was not captured at create time")))?;
            let copy = self.copy_of(input).display().to_string();
            if copy.contains(',') {
                return Err(err(
                    &key,
                    format!("the state directory's path {copy} holds a ','"),
                ));
            }
            if key == "openings" {
                let spec = table
                    .get("openings")
                    .and_then(toml::Value::as_str)
                    .unwrap_or_default();
                // `list:` or `file:`, as `references` found.
                let (kind, rest) = spec.split_at_checked(5).unwrap_or_default();
                let options = rest.strip_prefix(path.as_str()).unwrap_or_default();
                let redirected = format!("{kind}{copy}{options}");
                table.insert(key, redirected.into());
            } else if key == "variants" {
                table.insert(key, copy.into());
            } else if let Some(name) = key.strip_prefix("spsa.") {
                if let Some(spsa) = table.get_mut("spsa").and_then(toml::Value::as_table_mut) {
                    spsa.insert(name.into(), copy.into());
                }
            } else if let Some(player) = table
                .get_mut("players")
                .and_then(toml::Value::as_array_mut)
                .and_then(|players| {
                    players.iter_mut().find(|p| {
                        p.get("params").and_then(toml::Value::as_str) == Some(path.as_str())
                    })
                })
                .and_then(toml::Value::as_table_mut)
            {
                player.insert("params".into(), copy.into());
            }
        }
        Ok(())
    }

    /// `e` with each copy's path replaced by the original's, so that an
    /// error names the file the operator wrote.
    pub(crate) fn unredirect(&self, e: ConfigError) -> ConfigError {
        e.map_messages(|mut message| {
            for input in &self.files {
                let copy = self.copy_of(input).display().to_string();
                message = message.replace(&copy, &input.path);
            }
            message
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_files_are_found_with_their_keys() {
        let table: toml::Table = "variants = \"v.ini\"\nopenings = \"list:a.txt,order=random\"\n[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\nparams = \"p.toml\"\n[spsa]\nparams_file = \"tune.txt\"\ntemplate = \"afc.ini.in\"\n"
            .parse()
            .unwrap();
        assert_eq!(
            references(&table),
            [
                ("variants".to_owned(), "v.ini".to_owned()),
                ("openings".to_owned(), "a.txt".to_owned()),
                ("players[1].params".to_owned(), "p.toml".to_owned()),
                ("spsa.params_file".to_owned(), "tune.txt".to_owned()),
                ("spsa.template".to_owned(), "afc.ini.in".to_owned())
            ]
        );
        let none: toml::Table = "openings = \"random\"\n".parse().unwrap();
        assert!(references(&none).is_empty());
    }
}
