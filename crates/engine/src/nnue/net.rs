//! A network and its file. One hidden layer per perspective (the side to
//! move's first, the other's second), a clipped (`CReLU`) or squared clipped
//! (`SCReLU`) activation, integer weights: inputs and hidden layer in i16
//! on the scale [`QA`], the output's in i16 on [`QB`], and the score in
//! centipawns `output · SCALE / (QA · QB)`.
//!
//! The file, little-endian: `AJAXNNUE`, the format version (u32), the input
//! set (u32), the variant's name (u16 length, UTF-8) and the hash of its
//! definition (u64), the number of inputs and the hidden width (u32 each),
//! the activation (u8), then the input weights (inputs × hidden, one input
//! after another), the hidden biases, the output weights (2 × hidden) and
//! the output bias (i32), and last an FNV-1a hash of everything before it
//! (u64). A file that is not one, is cut short, belongs to another variant
//! or input set, or whose hash does not match is refused, saying which.

use super::inputs::InputSet;
use ajaxlab_rules::Variant;
use std::path::{Path, PathBuf};

/// The scale of the input weights, biases and accumulators: 1.0 is `QA`.
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"AJAXNNUE";
/// The file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The input set ([`InputSet`]): pieces by kind, side and square, the
/// pieces in hand one by one, the gates.
pub const INPUT_SET: u32 = 1;

/// The activation of the hidden layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    CReLU,
    /// `clamp(x, 0, 1)²`.
    SCReLU,
}

impl Activation {
    fn code(self) -> u8 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    fn of_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// A network for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub(super) variant: String,
    pub(super) variant_hash: u64,
    /// How many inputs ([`InputSet::len`] of its variant).
    pub(super) inputs: usize,
    pub(super) hidden: usize,
    pub(super) activation: Activation,
    /// `input_weights[i * hidden + h]`: input `i` to hidden unit `h`.
    pub(super) input_weights: Vec<i16>,
    pub(super) input_bias: Vec<i16>,
    /// The side to move's hidden units first, then the other side's.
    pub(super) output_weights: Vec<i16>,
    pub(super) output_bias: i32,
}

/// A network file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct NetError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub problem: NetProblem,
}

/// What is wrong with a network file.
#[derive(Debug, thiserror::Error)]
pub enum NetProblem {
    /// It cannot be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It does not start as a network file does.
    #[error("not an ajaxlab network file (it does not start with AJAXNNUE)")]
    Magic,
    /// Another format version.
    #[error("format version {0}; this build reads version {FORMAT_VERSION}")]
    Version(u32),
    /// Another input set.
    #[error("input set {0}; this build knows input set {INPUT_SET}")]
    InputSet(u32),
    /// It ends before what its header announces.
    #[error("cut short: it ends at byte {at}, before its {what}")]
    Truncated {
        /// Where it ends.
        at: usize,
        /// What was being read.
        what: &'static str,
    },
    /// Bytes after the checksum.
    #[error("{0} bytes after the end of the network")]
    Trailing(usize),
    /// The checksum does not match: the file was changed or damaged.
    #[error("its checksum does not match its contents (damaged or changed)")]
    Checksum,
    /// A network for another variant.
    #[error("a network for {net}, not for {wanted}")]
    Variant {
        /// The network's variant.
        net: String,
        /// The variant asked for.
        wanted: String,
    },
    /// A network for a variant of the same name but another definition.
    #[error("a network for another definition of {0} (its rules or pieces differ)")]
    Definition(String),
    /// Its input count is not the variant's.
    #[error("{net} inputs; {variant} has {wanted}")]
    Inputs {
        /// The network's.
        net: usize,
        /// The variant's.
        wanted: usize,
        /// The variant.
        variant: String,
    },
    /// A hidden layer of no units.
    #[error("a hidden layer of 0 units")]
    HiddenZero,
    /// An activation this build does not know.
    #[error("activation {0}; this build knows 0 (CReLU) and 1 (SCReLU)")]
    Activation(u8),
}

/// FNV-1a, 64 bits: the checksum of a network file and the hash of a
/// variant's definition.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of `variant`'s definition: its name, and for a variant of a
/// user's file the file's text.
pub(super) fn definition_hash(variant: &Variant) -> u64 {
    let mut text = variant.name().as_bytes().to_vec();
    if let Some(definition) = variant.definition() {
        text.extend_from_slice(definition.as_bytes());
    }
    fnv1a(&text)
}

impl Network {
    /// A network for `variant` with `hidden` units, its weights drawn from
    /// `seed` (small, so that the accumulators stay well inside i16): the
    /// start of training, and a network for tests.
    ///
    /// # Panics
    /// Never for `hidden > 0`; a hidden width of 0 is refused by the callers
    /// that read it from users ([`NetProblem::HiddenZero`]).
    pub fn random(variant: &Variant, hidden: usize, activation: Activation, seed: u64) -> Network {
        let inputs = InputSet::of(variant).len();
        let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
        let mut draw = |span: i16| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let width = u64::from(span.unsigned_abs()) * 2 + 1;
            i16::try_from(z % width).unwrap_or(0) - span
        };
        Network {
            variant: variant.name().to_owned(),
            variant_hash: definition_hash(variant),
            hidden,
            activation,
            input_weights: (0..inputs * hidden).map(|_| draw(24)).collect(),
            input_bias: (0..hidden).map(|_| draw(64)).collect(),
            output_weights: (0..2 * hidden).map(|_| draw(48)).collect(),
            output_bias: i32::from(draw(512)),
            inputs,
        }
    }

    /// The network's variant's name.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The hidden layer's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whether this is a network for `variant` (its name and definition).
    ///
    /// # Errors
    /// [`NetProblem::Variant`], [`NetProblem::Definition`] or
    /// [`NetProblem::Inputs`].
    pub fn fits(&self, variant: &Variant) -> Result<(), NetProblem> {
        if self.variant != variant.name() {
            return Err(NetProblem::Variant {
                net: self.variant.clone(),
                wanted: variant.name().to_owned(),
            });
        }
        if self.variant_hash != definition_hash(variant) {
            return Err(NetProblem::Definition(self.variant.clone()));
        }
        let wanted = InputSet::of(variant).len();
        if self.inputs != wanted {
            return Err(NetProblem::Inputs {
                net: self.inputs,
                wanted,
                variant: self.variant.clone(),
            });
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.input_weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&INPUT_SET.to_le_bytes());
        let name = self.variant.as_bytes();
        out.extend_from_slice(&u16::try_from(name.len()).unwrap_or(u16::MAX).to_le_bytes());
        out.extend_from_slice(&name[..name.len().min(usize::from(u16::MAX))]);
        out.extend_from_slice(&self.variant_hash.to_le_bytes());
        for n in [self.inputs, self.hidden] {
            out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
        }
        out.push(self.activation.code());
        for w in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the network to `path` (through a temporary file beside it,
    /// renamed into place, so that a reader never sees half a network).
    ///
    /// # Errors
    /// [`NetError`] if the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), NetError> {
        let fail = |e: std::io::Error| NetError {
            path: path.to_path_buf(),
            problem: NetProblem::Io(e),
        };
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.to_bytes()).map_err(fail)?;
        std::fs::rename(&temporary, path).map_err(fail)
    }

    /// Reads the network file at `path` for `variant`.
    ///
    /// # Errors
    /// [`NetError`] naming the file and what is wrong with it.
    pub fn read(path: &Path, variant: &Variant) -> Result<Network, NetError> {
        let fail = |problem| NetError {
            path: path.to_path_buf(),
            problem,
        };
        let bytes = std::fs::read(path).map_err(|e| fail(NetProblem::Io(e)))?;
        let net = Network::from_bytes(&bytes).map_err(fail)?;
        net.fits(variant).map_err(fail)?;
        Ok(net)
    }

    /// The network of a file's `bytes`, for whichever variant it names
    /// (checked by [`Network::fits`]).
    ///
    /// # Errors
    /// [`NetProblem`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetProblem> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len(), "header")? != MAGIC {
            return Err(NetProblem::Magic);
        }
        let version = r.u32("format version")?;
        if version != FORMAT_VERSION {
            return Err(NetProblem::Version(version));
        }
        let input_set = r.u32("input set")?;
        if input_set != INPUT_SET {
            return Err(NetProblem::InputSet(input_set));
        }
        let name_len = usize::from(u16::from_le_bytes(r.array("variant name")?));
        let variant = String::from_utf8_lossy(r.take(name_len, "variant name")?).into_owned();
        let variant_hash = u64::from_le_bytes(r.array("variant hash")?);
        let inputs = r.u32("input count")? as usize;
        let hidden = r.u32("hidden width")? as usize;
        if hidden == 0 {
            return Err(NetProblem::HiddenZero);
        }
        let code = r.take(1, "activation")?[0];
        let activation = Activation::of_code(code).ok_or(NetProblem::Activation(code))?;
        let input_weights = r.i16s(inputs.saturating_mul(hidden), "input weights")?;
        let input_bias = r.i16s(hidden, "hidden biases")?;
        let output_weights = r.i16s(2 * hidden, "output weights")?;
        let output_bias = i32::from_le_bytes(r.array("output bias")?);
        let body = r.at;
        let sum = u64::from_le_bytes(r.array("checksum")?);
        if r.at != bytes.len() {
            return Err(NetProblem::Trailing(bytes.len() - r.at));
        }
        if fnv1a(&bytes[..body]) != sum {
            return Err(NetProblem::Checksum);
        }
        Ok(Network {
            variant,
            variant_hash,
            inputs,
            hidden,
            activation,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        })
    }
}

/// Reads a network file's fields in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], NetProblem> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetProblem::Truncated {
                at: self.bytes.len(),
                what,
            });
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], NetProblem> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, NetProblem> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    fn i16s(&mut self, n: usize, what: &'static str) -> Result<Vec<i16>, NetProblem> {
        let bytes = self.take(n.saturating_mul(2), what)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}
