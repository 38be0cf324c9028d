//! The workspace's vocabulary enums as wire enums, each mapped in one table.

use super::WireError;
use crate::v1;
use ajaxlab_rules::{GameResult, VariantKind};
use ajaxlab_stats::{EloModel, Status};
use ajaxlab_store::{CampaignState, RunKind, Termination};

/// A workspace enum sent as a wire enum (an `i32` field of a message).
pub trait WireEnum: Sized {
    /// The value of the `i32` in the wire field `field`.
    ///
    /// # Errors
    /// [`Problem::UnknownEnum`](super::Problem::UnknownEnum) for a number this build does not know,
    /// [`Problem::Unspecified`](super::Problem::Unspecified) for an `…_UNSPECIFIED` zero.
    fn from_wire(value: i32, field: &str) -> Result<Self, WireError>;

    /// The `i32` sent for it.
    fn to_wire(self) -> i32;
}

/// Implements [`WireEnum`] for `$rust` from a table of its variants and
/// those of the generated `$wire` enum; a wire variant left out of the
/// table (the `…_UNSPECIFIED` zero) is refused on reading.
#[macro_export]
macro_rules! wire_enum {
    ($rust:path, $wire:path { $($r:ident <=> $w:ident),+ $(,)? }) => {
        impl $crate::convert::WireEnum for $rust {
            fn from_wire(
                value: i32,
                field: &str,
            ) -> Result<Self, $crate::convert::WireError> {
                use $rust as R;
                use $wire as W;
                match W::try_from(value) {
                    $(Ok(W::$w) => Ok(R::$r),)+
                    #[allow(unreachable_patterns, reason = "enums whose zero is a value")]
                    Ok(_) => Err($crate::convert::WireError::new(
                        field,
                        $crate::convert::Problem::Unspecified,
                    )),
                    Err(_) => Err($crate::convert::WireError::new(
                        field,
                        $crate::convert::Problem::UnknownEnum(value),
                    )),
                }
            }

            fn to_wire(self) -> i32 {
                use $rust as R;
                use $wire as W;
                match self {
                    $(R::$r => i32::from(W::$w),)+
                }
            }
        }
    };
}

wire_enum!(VariantKind, v1::Variant {
    AjaxFalcon <=> AjaxFalcon,
    AjaxModernRandom <=> AjaxModernRandom,
    Chess <=> Chess,
    Chess960 <=> Chess960,
});

wire_enum!(GameResult, v1::GameResult {
    WhiteWins <=> WhiteWins,
    BlackWins <=> BlackWins,
    Draw <=> Draw,
});

wire_enum!(Termination, v1::Termination {
    Checkmate <=> Checkmate,
    Stalemate <=> Stalemate,
    FiftyMoveRule <=> FiftyMoveRule,
    ThreefoldRepetition <=> ThreefoldRepetition,
    InsufficientMaterial <=> InsufficientMaterial,
    AdjudicatedResign <=> AdjudicatedResign,
    AdjudicatedDraw <=> AdjudicatedDraw,
    MaxPlies <=> MaxPlies,
    TimeForfeit <=> TimeForfeit,
    IllegalMove <=> IllegalMove,
    EngineCrash <=> EngineCrash,
    EngineTimeout <=> EngineTimeout,
    AdjudicatedBareKings <=> AdjudicatedBareKings,
});

wire_enum!(RunKind, v1::CampaignKind {
    Match <=> Match,
    Sprt <=> Sprt,
    Spsa <=> Spsa,
    PieceValue <=> PieceValue,
    FirstMove <=> FirstMove,
    Datagen <=> Datagen,
});

wire_enum!(CampaignState, v1::CampaignState {
    Running <=> Running,
    Paused <=> Paused,
    Stopped <=> Stopped,
    Finished <=> Finished,
});

wire_enum!(EloModel, v1::EloModel {
    Logistic <=> Logistic,
    Normalized <=> Normalized,
});

wire_enum!(Status, v1::Verdict {
    Continue <=> None,
    AcceptH0 <=> H0Accepted,
    AcceptH1 <=> H1Accepted,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Problem;

    fn round_trip<T: WireEnum + Copy + PartialEq + std::fmt::Debug>(all: &[T]) {
        for &value in all {
            assert_eq!(T::from_wire(value.to_wire(), "f"), Ok(value));
        }
    }

    #[test]
    fn every_value_survives_the_wire() {
        round_trip(&VariantKind::ALL);
        round_trip(&Termination::ALL);
        round_trip(&RunKind::ALL);
        round_trip(&[
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ]);
        round_trip(&[Status::Continue, Status::AcceptH0, Status::AcceptH1]);
        round_trip(&EloModel::ALL);
    }

    #[test]
    fn unknown_and_unspecified_values_are_refused_naming_the_field() {
        assert_eq!(
            VariantKind::from_wire(0, "WorkUnit.variant"),
            Err(WireError::new("WorkUnit.variant", Problem::Unspecified))
        );
        let err = Termination::from_wire(99, "GameRecord.termination").unwrap_err();
        assert_eq!(
            err.to_string(),
            "GameRecord.termination: 99 is not a known value"
        );
        // The verdict's zero is a value: no bound crossed.
        assert_eq!(
            Status::from_wire(0, "Campaign.verdict"),
            Ok(Status::Continue)
        );
    }
}
