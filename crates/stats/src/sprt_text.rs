//! How an SPRT reads on a live line, the same on every view (`ajaxlab
//! match --sprt`, `ajaxlab campaign run`, the status page, `campaign list`):
//! its hypotheses as Fishtest writes them and its LLR with labelled bounds.

use crate::EloModel;

/// An SPRT's hypotheses as Fishtest writes them, with their scale:
/// `SPRT <-1.75, 0.25> normalized Elo`.
#[must_use]
pub fn hypotheses_text(elo0: f64, elo1: f64, model: EloModel) -> String {
    format!("SPRT <{elo0:.2}, {elo1:.2}> {model} Elo")
}

/// The LLR with the bounds in force, labelled: they carry Fishtest's
/// correction for the overshoot of a test updated in batches, so they lie
/// inside Wald's bounds (`ln(β/(1−α))`, `ln((1−β)/α)`) that `ajaxlab stats`
/// and `ajaxlab report` print.
#[must_use]
pub fn llr_text(llr: f64, lower: f64, upper: f64) -> String {
    format!("LLR {llr:.2} [{lower:.2}, {upper:.2}, overshoot-corrected]")
}

impl crate::Sprt {
    /// Where the test stands: `SPRT <0.00, 5.00> normalized Elo  LLR 1.23
    /// [-2.93, 2.93, overshoot-corrected]`.
    #[must_use]
    pub fn standing(&self) -> String {
        let c = self.config();
        let bounds = self.effective_bounds();
        format!(
            "{}  {}",
            hypotheses_text(c.elo0, c.elo1, c.model),
            llr_text(self.llr(), bounds.lower, bounds.upper)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hypotheses_and_the_llr_bounds_are_labelled() {
        assert_eq!(
            hypotheses_text(-1.75, 0.25, EloModel::Normalized),
            "SPRT <-1.75, 0.25> normalized Elo"
        );
        assert_eq!(
            llr_text(1.234, -2.93, 2.93),
            "LLR 1.23 [-2.93, 2.93, overshoot-corrected]"
        );
    }
}
