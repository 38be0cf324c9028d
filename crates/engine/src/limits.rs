//! Search limits and the time they allow.

use ajaxlab_rules::Color;
use std::time::{Duration, Instant};

/// A side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
}

/// What bounds a search. Every limit set applies; none set means search
/// until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to complete.
    pub depth: Option<u32>,
    /// Nodes to search; a node-limited search is deterministic.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// White's and Black's clocks, when playing on a clock.
    pub clocks: Option<[Clock; 2]>,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
}

/// When to stop: a soft limit (no new iteration after it) and a hard one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// Time kept back from the clock for communication overhead.
const CLOCK_MARGIN: Duration = Duration::from_millis(30);

impl Limits {
    pub(crate) fn deadline(&self, _started: Instant, side: Color) -> Deadline {
        if self.infinite {
            return Deadline {
                soft: None,
                hard: None,
            };
        }
        let mut soft = self.movetime;
        let mut hard = self.movetime;
        if let Some(clocks) = self.clocks {
            let clock = clocks[side.index()];
            let left = clock.remaining.saturating_sub(CLOCK_MARGIN);
            let moves = self.moves_to_go.map_or(30, |m| m.clamp(1, 50));
            let share = left / moves + clock.increment * 3 / 4;
            let share = share.min(left / 2);
            let cap = (share * 3).min(left * 3 / 4);
            soft = Some(soft.map_or(share, |s| s.min(share)));
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        Deadline { soft, hard }
    }
}

impl Deadline {
    pub(crate) fn soft_expired(&self, started: Instant) -> bool {
        self.soft.is_some_and(|d| started.elapsed() >= d)
    }

    pub(crate) fn hard_expired(&self, started: Instant) -> bool {
        self.hard.is_some_and(|d| started.elapsed() >= d)
    }
}
