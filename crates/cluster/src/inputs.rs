//! The files a campaign file names (opening lists `list:FILE`, books
//! `file:FILE`, a `variants` file, the players' `params` files, an SPSA
//! tune's `params_file` and `template`): read once when the campaign
//! is created, copied into the coordinator's state under their SHA-256,
//! and read from that copy ever after, so that deleting or editing the
//! original changes nothing mid-campaign.

use ajaxlab_arena::ConfigError;
use ajaxlab_store::sha256_hex;
use std::path::{Path, PathBuf};

/// One file a campaign file names, as captured (or, for the artifacts a
/// campaign ships to its workers, as uploaded): the record the
/// coordinator's state keeps of it.
pub use ajaxlab_store::state::Input;

/// The captured files of one campaign file and the directory of their copies.
#[derive(Clone, Debug)]
pub struct Inputs {
    dir: PathBuf,
    files: Vec<Input>,
}

fn err(key: &str, message: String) -> ConfigError {
    ConfigError {
        key: key.to_owned(),
        message,
    }
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
    /// Reads every file `text` names, stores a copy of each in `dir` named
    /// by its hash, and returns what was captured. A file that does not
    /// parse as TOML names no files (the campaign parser reports it).
    ///
    /// # Errors
    /// [`ConfigError`] naming the key and the file that cannot be read or copied.
    pub fn capture(text: &str, dir: &Path) -> Result<Inputs, ConfigError> {
        let Ok(table) = text.parse::<toml::Table>() else {
            return Ok(Inputs::stored(dir, Vec::new()));
        };
        let mut files = Vec::new();
        for (key, path) in references(&table) {
            let bytes = std::fs::read(&path).map_err(|e| err(&key, format!("file {path}: {e}")))?;
            let input = Input {
                key,
                sha256: sha256_hex(&bytes),
                path,
            };
            let copy = Inputs::stored(dir, Vec::new()).copy_of(&input);
            if !copy.exists() {
                let copy_err =
                    |e: std::io::Error| err(&input.key, format!("copying {}: {e}", input.path));
                std::fs::create_dir_all(dir).map_err(copy_err)?;
                let tmp = copy.with_extension("tmp");
                std::fs::write(&tmp, &bytes)
                    .and_then(|()| std::fs::rename(&tmp, &copy))
                    .map_err(copy_err)?;
            }
            files.push(input);
        }
        Ok(Inputs::stored(dir, files))
    }

    /// Files captured earlier, with their copies in `dir`.
    pub fn stored(dir: &Path, files: Vec<Input>) -> Inputs {
        Inputs {
            dir: dir.to_owned(),
            files,
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
    pub(crate) fn unredirect(&self, mut e: ConfigError) -> ConfigError {
        for input in &self.files {
            let copy = self.copy_of(input).display().to_string();
            e.message = e.message.replace(&copy, &input.path);
        }
        e
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
