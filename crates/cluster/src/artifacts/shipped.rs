//! What a UCI player ships with: the campaign names its binary (and option
//! files, such as a `VariantPath` ini) by path on the operator's machine;
//! units name them by hash, and a worker runs local copies instead.

use super::{ArtifactError, ArtifactHash};
use ajaxlab_proto::v1;

/// The artifacts a UCI player comes with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shipped {
    /// The engine binary, unless it is installed on every worker.
    pub binary: Option<ArtifactHash>,
    /// Options whose value names a shipped file, with that file's hash.
    pub option_files: Vec<(String, ArtifactHash)>,
}

impl Shipped {
    /// What a UCI engine of a work unit ships with, read from its hashes.
    ///
    /// # Errors
    /// [`ArtifactError::BadHash`] for a hash that is not 64 hex digits.
    pub fn of_wire(engine: &v1::UciEngine) -> Result<Shipped, ArtifactError> {
        Ok(Shipped {
            binary: engine.sha256.as_deref().map(str::parse).transpose()?,
            option_files: engine
                .options
                .iter()
                .filter_map(|o| Some((o.name.clone(), o.sha256.as_deref()?)))
                .map(|(name, hash)| Ok((name, hash.parse()?)))
                .collect::<Result<_, ArtifactError>>()?,
        })
    }
}
