//! Conversions between the wire types and the workspace's own: `From` where
//! every value fits, `TryFrom` where a message can be wrong, with a
//! [`WireError`] that names the field (`WorkUnit.players[1].time_control.depth`).

mod game;
mod unit;
mod vocab;

pub use game::game_record;
pub use unit::UnitSpec;
pub use vocab::WireEnum;

/// What is wrong with one field of a wire message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A message field that must be present is absent.
    #[error("missing")]
    Missing,
    /// An enum field holds a number this build does not know.
    #[error("{0} is not a known value")]
    UnknownEnum(i32),
    /// An enum field holds its `…_UNSPECIFIED` zero.
    #[error("unspecified")]
    Unspecified,
    /// A value out of its range or of the wrong form.
    #[error("{0}")]
    Invalid(String),
}

/// A wire message that does not make sense, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct WireError {
    /// The path of the field, from the outermost message.
    pub field: String,
    /// What is wrong with it.
    pub problem: Problem,
}

impl WireError {
    /// The error `problem` at `field`.
    pub fn new(field: impl Into<String>, problem: Problem) -> WireError {
        WireError {
            field: field.into(),
            problem,
        }
    }

    /// An [`Problem::Invalid`] value at `field`, described by `message`.
    pub fn invalid(field: impl Into<String>, message: impl ToString) -> WireError {
        WireError::new(field, Problem::Invalid(message.to_string()))
    }

    /// The same error seen from the message that holds this one in `field`.
    #[must_use]
    pub fn within(self, field: &str) -> WireError {
        WireError {
            field: format!("{field}.{}", self.field),
            problem: self.problem,
        }
    }
}

/// The message in an optional field, or [`Problem::Missing`] at `field`.
fn required<'a, T>(value: Option<&'a T>, field: &str) -> Result<&'a T, WireError> {
    value.ok_or_else(|| WireError::new(field, Problem::Missing))
}
