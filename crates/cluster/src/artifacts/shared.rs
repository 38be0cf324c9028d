//! Texts that every unit of a campaign shares (a variants file, an opening
//! list of positions), sent to workers once as artifacts instead of in
//! every unit: the coordinator stores each when the campaign is loaded and
//! writes its hash into the units; a worker fetches it into its cache and
//! puts the text back before it reads the unit. A 5 MB variants file once
//! made every 2-game unit 6.7 MB, and a 70 MB one every unit larger than a
//! message may be, which stopped each worker that asked.

use super::client::{Client, fetch};
use super::{ArtifactCache, ArtifactError, ArtifactHash, ArtifactStore};
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::opening::OpeningSource;
use ajaxlab_proto::v1;

/// The shared texts of one campaign, by hash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedInputs {
    /// The variants file of a file variant.
    pub variants: Option<ArtifactHash>,
    /// The opening list of positions, one a line.
    pub fens: Option<ArtifactHash>,
}

/// The text of an opening list of positions as it is shared.
fn fens_text(fens: &[String]) -> String {
    fens.join("\n")
}

impl SharedInputs {
    /// Stores the shared texts of `config` in `store` (once: a text stored
    /// already is found by its hash).
    ///
    /// # Errors
    /// A file-system failure of the store.
    pub fn store(
        config: &MatchConfig,
        store: &ArtifactStore,
    ) -> Result<SharedInputs, ArtifactError> {
        let variants = config
            .variant
            .definition()
            .map(|text| store.put_bytes(text.as_bytes()))
            .transpose()?;
        let fens = match &config.openings.source {
            OpeningSource::Fens(fens) => Some(store.put_bytes(fens_text(fens).as_bytes())?),
            _ => None,
        };
        Ok(SharedInputs { variants, fens })
    }

    /// Replaces the shared texts of `unit` by their hashes.
    pub fn apply(&self, unit: &mut v1::WorkUnit) {
        if let (Some(hash), Some(file)) = (self.variants, &mut unit.file_variant) {
            file.variants_ini.clear();
            file.variants_sha256 = hash.to_string();
        }
        if let (Some(hash), Some(v1::openings::Source::Fens(list))) = (
            self.fens,
            unit.openings.as_mut().and_then(|o| o.source.as_mut()),
        ) {
            list.fens.clear();
            list.fens_sha256 = hash.to_string();
        }
    }

    /// The hashes `unit` names instead of texts.
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`] for a hash that is not 64 hex digits.
    pub fn of_unit(unit: &v1::WorkUnit) -> Result<SharedInputs, ArtifactError> {
        let named = |hash: &str| (!hash.is_empty()).then(|| hash.parse()).transpose();
        Ok(SharedInputs {
            variants: unit
                .file_variant
                .as_ref()
                .map(|f| named(&f.variants_sha256))
                .transpose()?
                .flatten(),
            fens: match unit.openings.as_ref().and_then(|o| o.source.as_ref()) {
                Some(v1::openings::Source::Fens(list)) => named(&list.fens_sha256)?,
                _ => None,
            },
        })
    }

    /// Puts the texts back into `unit`, each read by `read` from its hash.
    ///
    /// # Errors
    /// What `read` says, or [`ArtifactError::Protocol`] for a text that is
    /// not UTF-8.
    pub fn inline_with(
        &self,
        unit: &mut v1::WorkUnit,
        mut read: impl FnMut(ArtifactHash) -> Result<Vec<u8>, ArtifactError>,
    ) -> Result<(), ArtifactError> {
        let mut text = |hash: ArtifactHash| {
            String::from_utf8(read(hash)?)
                .map_err(|_| ArtifactError::Protocol(format!("artifact {hash}: not UTF-8 text")))
        };
        if let (Some(hash), Some(file)) = (self.variants, &mut unit.file_variant) {
            file.variants_ini = text(hash)?;
            file.variants_sha256.clear();
        }
        if let (Some(hash), Some(v1::openings::Source::Fens(list))) = (
            self.fens,
            unit.openings.as_mut().and_then(|o| o.source.as_mut()),
        ) {
            list.fens = text(hash)?.split('\n').map(str::to_owned).collect();
            list.fens_sha256.clear();
        }
        Ok(())
    }
}

/// Puts the shared texts a unit names back into it, fetching each from the
/// coordinator into `cache` if it is not there already.
///
/// # Errors
/// As [`fetch`], or a cached file that cannot be read.
pub async fn inline(
    unit: &mut v1::WorkUnit,
    client: &mut Client,
    cache: &ArtifactCache,
) -> Result<(), ArtifactError> {
    let shared = SharedInputs::of_unit(unit)?;
    let mut texts = Vec::new();
    for hash in [shared.variants, shared.fens].into_iter().flatten() {
        let path = fetch(client, hash, cache).await?;
        let bytes = std::fs::read(&path).map_err(ArtifactError::io(&path))?;
        texts.push((hash, bytes));
    }
    shared.inline_with(unit, |hash| {
        texts
            .iter()
            .find(|(h, _)| *h == hash)
            .map(|(_, bytes)| bytes.clone())
            .ok_or(ArtifactError::NotFound(hash))
    })
}
