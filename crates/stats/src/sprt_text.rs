//! How an SPRT reads, the same on every view (`ajaxlab match --sprt`,
//! `ajaxlab campaign run`, the status page, `campaign list`, `ajaxlab
//! stats`, `ajaxlab report`): its hypotheses as Fishtest writes them, its
//! LLR with one pair of bounds, Fishtest's, and its verdict with the pairs
//! played after it.

use crate::{EloModel, LlrBounds, Status};

/// An SPRT's hypotheses as Fishtest writes them, with their scale:
/// `SPRT <-1.75, 0.25> normalized Elo`.
#[must_use]
pub fn hypotheses_text(elo0: f64, elo1: f64, model: EloModel) -> String {
    format!("SPRT <{elo0:.2}, {elo1:.2}> {model} Elo")
}

/// The LLR with the bounds every view prints, Fishtest's: Wald's
/// `ln(β/(1−α))` and `ln((1−β)/α)`, `LLR 1.23 (-2.94, 2.94 Fishtest's
/// bounds)`.
///
/// Like Fishtest, a test updated in batches stops once its LLR comes within
/// the overshoot expected of a batch of a bound, so a verdict's LLR may lie
/// a little inside them; [`verdict_text`] says so.
#[must_use]
pub fn llr_text(llr: f64, bounds: LlrBounds) -> String {
    format!(
        "LLR {llr:.2} ({:.2}, {:.2} Fishtest's bounds)",
        bounds.lower, bounds.upper
    )
}

/// A verdict with where the test stopped, and the pairs that were in
/// flight then: `H1 accepted after 120 pairs (6 pairs played after the
/// verdict: stored, not in the test)`. Empty while no bound is crossed.
///
/// `decided_at` is the pairs the test had counted when it decided,
/// `played` every pair counted since the start.
#[must_use]
pub fn verdict_text(status: Status, decided_at: u64, played: u64) -> String {
    if status == Status::Continue {
        return String::new();
    }
    let mut out = format!("{status} after {decided_at} pairs");
    let after = played.saturating_sub(decided_at);
    if after > 0 {
        let s = if after == 1 { "" } else { "s" };
        out.push_str(&format!(
            " ({after} pair{s} played after the verdict: stored, not in the test)"
        ));
    }
    out
}

impl crate::Sprt {
    /// Where the test stands: `SPRT <0.00, 5.00> normalized Elo  LLR 1.23
    /// (-2.94, 2.94 Fishtest's bounds)`.
    #[must_use]
    pub fn standing(&self) -> String {
        let c = self.config();
        format!(
            "{}  {}",
            hypotheses_text(c.elo0, c.elo1, c.model),
            llr_text(self.llr(), self.bounds())
        )
    }

    /// The samples (pairs of pentanomial counts, games of trinomial ones)
    /// the test had counted when it decided; `None` while it runs.
    #[must_use]
    pub fn decided_at(&self) -> Option<u64> {
        (self.status() != Status::Continue)
            .then(|| self.counts().map(|c| c.samples()))
            .flatten()
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
        let wald = LlrBounds {
            lower: -2.944,
            upper: 2.944,
        };
        assert_eq!(
            llr_text(1.234, wald),
            "LLR 1.23 (-2.94, 2.94 Fishtest's bounds)"
        );
    }

    #[test]
    fn a_verdict_names_the_pairs_played_after_it() {
        assert_eq!(verdict_text(Status::Continue, 0, 12), "");
        assert_eq!(
            verdict_text(Status::AcceptH1, 120, 120),
            "H1 accepted after 120 pairs"
        );
        assert_eq!(
            verdict_text(Status::AcceptH0, 120, 121),
            "H0 accepted after 120 pairs (1 pair played after the verdict: stored, not in the test)"
        );
    }
}
