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
    /// Whether the soft limit is a share of a clock, and so may be stretched
    /// or shortened by how settled the search is; a `movetime` is not.
    on_clock: bool,
}

/// Time kept back from the clock for communication overhead.
const CLOCK_MARGIN: Duration = Duration::from_millis(30);

impl Limits {
    pub(crate) fn deadline(&self, _started: Instant, side: Color) -> Deadline {
        if self.infinite {
            return Deadline {
                soft: None,
                hard: None,
                on_clock: false,
            };
        }
        let mut soft = self.movetime;
        let mut hard = self.movetime;
        let mut on_clock = false;
        if let Some(clocks) = self.clocks {
            let clock = clocks[side.index()];
            let left = clock.remaining.saturating_sub(CLOCK_MARGIN);
            let moves = self.moves_to_go.map_or(30, |m| m.clamp(1, 50));
            let share = left / moves + clock.increment * 3 / 4;
            let share = share.min(left / 2);
            let cap = (share * 3).min(left * 3 / 4);
            on_clock = self.movetime.is_none_or(|m| m > share);
            soft = Some(soft.map_or(share, |s| s.min(share)));
            hard = Some(hard.map_or(cap, |h| h.min(cap)));
        }
        Deadline {
            soft,
            hard,
            on_clock,
        }
    }
}

impl Deadline {
    /// Whether the soft limit has passed, stretched to `percent` of itself
    /// when it is a share of a clock (never beyond the hard limit).
    pub(crate) fn soft_expired(&self, started: Instant, percent: u32) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        let soft = if self.on_clock {
            let scaled = soft * percent / 100;
            self.hard.map_or(scaled, |h| scaled.min(h))
        } else {
            soft
        };
        started.elapsed() >= soft
    }

    pub(crate) fn hard_expired(&self, started: Instant) -> bool {
        self.hard.is_some_and(|d| started.elapsed() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An instant `ms` milliseconds ago.
    fn ago(ms: u64) -> Instant {
        let now = Instant::now();
        now.checked_sub(Duration::from_millis(ms)).unwrap_or(now)
    }

    fn on_clock(seconds: u64) -> Limits {
        let clock = Clock {
            remaining: Duration::from_secs(seconds),
            increment: Duration::ZERO,
        };
        Limits {
            clocks: Some([clock, clock]),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_share_stretches_and_shrinks_with_the_percent() {
        // 30 s left, 30 moves assumed: about one second a move, three at most.
        let started = ago(600);
        let deadline = on_clock(30).deadline(started, Color::White);
        assert!(!deadline.soft_expired(started, 100));
        assert!(deadline.soft_expired(started, 50));
        let late = ago(2000);
        assert!(deadline.soft_expired(late, 100));
        assert!(!deadline.soft_expired(late, 250));
    }

    #[test]
    fn no_stretch_passes_the_hard_limit() {
        let started = ago(3500);
        let deadline = on_clock(30).deadline(started, Color::White);
        assert!(deadline.soft_expired(started, 1000));
    }

    #[test]
    fn a_movetime_is_used_whole() {
        let limits = Limits {
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let started = ago(600);
        let deadline = limits.deadline(started, Color::White);
        assert!(!deadline.soft_expired(started, 50));
        assert!(deadline.soft_expired(ago(1100), 200));
    }
}
