//! Time controls: nodes, depth or time per move, or a clock with increment.

use ajaxlab_stats::{RandomSource, SplitMix64};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How much each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A node budget per move (deterministic for the builtin engine).
    Nodes(u64),
    /// A node budget per move drawn around `nodes` by up to ±`percent` %,
    /// fixed by the game's seed and the ply, so that self-play games from
    /// one start differ and replaying a run still gives the same games.
    /// Players see it as [`TimeControl::Nodes`] (see [`TimeControl::for_ply`]).
    JitteredNodes {
        /// Mean budget.
        nodes: u64,
        /// Largest deviation, in percent (1 to 50).
        percent: u32,
    },
    /// A search depth per move.
    Depth(u32),
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: `base` for the game plus `increment` per move; with
    /// `moves`, `base` is the time for each period of that many moves and
    /// is added again when a side completes one (cutechess's `40/60+0.5`).
    Clock {
        /// Starting time on each clock, and each period's time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
        /// Moves per period; `None` is one period for the whole game.
        moves: Option<u32>,
    },
}

/// Largest node budget per move (ten billion: hours of search at any speed).
pub const MAX_NODES: u64 = 10_000_000_000;
/// Largest search depth per move.
pub const MAX_DEPTH: u32 = 100;
/// Largest fixed time per move, milliseconds (one hour).
pub const MAX_MOVE_TIME_MS: u64 = 3_600_000;
/// Smallest clock base, seconds (one millisecond).
pub const MIN_BASE_SECONDS: f64 = 0.001;
/// Largest clock base, seconds (one day).
pub const MAX_BASE_SECONDS: f64 = 86_400.0;
/// Largest increment per move, seconds (one hour).
pub const MAX_INCREMENT_SECONDS: f64 = 3_600.0;
/// Largest number of moves in a clock period (the smallest is 1).
pub const MAX_PERIOD_MOVES: u32 = 1_000;
/// Largest jitter of a node budget, percent (the smallest is 1).
pub const MAX_JITTER_PERCENT: u32 = 50;

/// Text that is not a time control, or one outside the ranges above.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not of any form.
    #[error(
        "'{0}' is not a time control: expected nodes=N, nodes=N~P% (P from 1 to 50), depth=N, movetime=MS, BASE+INC (seconds, e.g. 10+0.1) or MOVES/BASE+INC (e.g. 40/60+0.5)"
    )]
    Syntax(String),
    /// Of a known form, with a number outside its range.
    #[error("'{text}': the {part} must be from {min} to {max}")]
    OutOfRange {
        /// The time control as given.
        text: String,
        /// Which number (`nodes`, `depth`, `movetime (ms)`, `base (s)`, …).
        part: &'static str,
        /// Smallest allowed.
        min: String,
        /// Largest allowed.
        max: String,
    },
}

/// `value` if it lies in `min..=max` (a NaN never does), else the error
/// naming `part` of the time control `text`.
fn in_range<T>(
    text: &str,
    part: &'static str,
    value: T,
    min: T,
    max: T,
) -> Result<T, TimeControlError>
where
    T: PartialOrd + fmt::Display,
{
    if value >= min && value <= max {
        Ok(value)
    } else {
        Err(TimeControlError::OutOfRange {
            text: text.to_owned(),
            part,
            min: min.to_string(),
            max: max.to_string(),
        })
    }
}

/// `value` parsed as a `T` in `min..=max`: a [`TimeControlError::Syntax`]
/// if it is no `T`, an [`TimeControlError::OutOfRange`] naming `part` if
/// it lies outside.
fn number<T>(
    text: &str,
    part: &'static str,
    value: &str,
    min: T,
    max: T,
) -> Result<T, TimeControlError>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    let n: T = value
        .trim()
        .parse()
        .map_err(|_| TimeControlError::Syntax(text.to_owned()))?;
    in_range(text, part, n, min, max)
}

/// Seconds of a clock in `min..=max`, parsed without a panic on any text.
fn seconds(
    text: &str,
    part: &'static str,
    value: &str,
    min: f64,
    max: f64,
) -> Result<Duration, TimeControlError> {
    let s = number(text, part, value, min, max)?;
    Duration::try_from_secs_f64(s).map_err(|_| TimeControlError::Syntax(text.to_owned()))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses `nodes=N`, `nodes=N~P%`, `depth=N`, `movetime=MS`, `BASE+INC`
    /// or `MOVES/BASE+INC`, each number within the ranges of this module's
    /// constants.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        if let Some((key, value)) = t.split_once('=') {
            if let (Some((n, p)), "nodes") = (value.split_once('~'), key.trim()) {
                let nodes = number(text, "nodes", n, 1, MAX_NODES)?;
                let p = p
                    .trim()
                    .strip_suffix('%')
                    .ok_or_else(|| TimeControlError::Syntax(text.to_owned()))?;
                let percent = number(text, "percent", p, 1, MAX_JITTER_PERCENT)?;
                return Ok(TimeControl::JitteredNodes { nodes, percent });
            }
            return match key.trim() {
                "nodes" => Ok(TimeControl::Nodes(number(
                    text, "nodes", value, 1, MAX_NODES,
                )?)),
                "depth" => Ok(TimeControl::Depth(number(
                    text, "depth", value, 1, MAX_DEPTH,
                )?)),
                "movetime" => Ok(TimeControl::MoveTime(Duration::from_millis(number(
                    text,
                    "movetime (ms)",
                    value,
                    1,
                    MAX_MOVE_TIME_MS,
                )?))),
                _ => Err(TimeControlError::Syntax(text.to_owned())),
            };
        }
        let (moves, clock) = match t.split_once('/') {
            Some((moves, clock)) => (
                Some(number(
                    text,
                    "moves per period",
                    moves,
                    1,
                    MAX_PERIOD_MOVES,
                )?),
                clock,
            ),
            None => (None, t),
        };
        let (base, inc) = clock.split_once('+').unwrap_or((clock, "0"));
        let base = seconds(text, "base (s)", base, MIN_BASE_SECONDS, MAX_BASE_SECONDS)?;
        let increment = seconds(text, "increment (s)", inc, 0.0, MAX_INCREMENT_SECONDS)?;
        Ok(TimeControl::Clock {
            base,
            increment,
            moves,
        })
    }
}

impl TimeControl {
    /// The time control a player is given at ply `ply` of the game seeded
    /// `seed`: a jittered node budget becomes a plain one, drawn uniformly
    /// within its range; every other control is unchanged.
    pub fn for_ply(self, seed: u64, ply: usize) -> TimeControl {
        match self {
            TimeControl::JitteredNodes { nodes, percent } => {
                let mut rng =
                    SplitMix64::new(seed ^ (ply as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
                let spread = nodes * u64::from(percent) / 100;
                let low = nodes - spread;
                TimeControl::Nodes((low + rng.next_u64() % (2 * spread + 1)).max(1))
            }
            other => other,
        }
    }

    /// Moves left in the current period of a side that has made `made`
    /// moves on this clock (what UCI's `movestogo` says); `None` without
    /// periods.
    #[must_use]
    pub fn moves_to_go(self, made: u32) -> Option<u32> {
        match self {
            TimeControl::Clock { moves: Some(m), .. } if m > 0 => Some(m - made % m),
            _ => None,
        }
    }
}

impl TimeControl {
    /// This time control if every number lies in its range, as
    /// [`FromStr`] demands of text: for one built from parts (a wire message).
    ///
    /// # Errors
    /// [`TimeControlError::OutOfRange`] naming the part.
    pub fn validated(self) -> Result<TimeControl, TimeControlError> {
        let text = self.to_string();
        match self {
            TimeControl::Nodes(nodes) => {
                in_range(&text, "nodes", nodes, 1, MAX_NODES)?;
            }
            TimeControl::JitteredNodes { nodes, percent } => {
                in_range(&text, "nodes", nodes, 1, MAX_NODES)?;
                in_range(&text, "percent", percent, 1, MAX_JITTER_PERCENT)?;
            }
            TimeControl::Depth(depth) => {
                in_range(&text, "depth", depth, 1, MAX_DEPTH)?;
            }
            TimeControl::MoveTime(t) => {
                let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
                in_range(&text, "movetime (ms)", ms, 1, MAX_MOVE_TIME_MS)?;
            }
            TimeControl::Clock {
                base,
                increment,
                moves,
            } => {
                let (b, i) = (base.as_secs_f64(), increment.as_secs_f64());
                if let Some(m) = moves {
                    in_range(&text, "moves per period", m, 1, MAX_PERIOD_MOVES)?;
                }
                in_range(&text, "base (s)", b, MIN_BASE_SECONDS, MAX_BASE_SECONDS)?;
                in_range(&text, "increment (s)", i, 0.0, MAX_INCREMENT_SECONDS)?;
            }
        }
        Ok(self)
    }

    /// The time-control text of a game record: one time control, or
    /// White's and Black's as `W / B` when they differ.
    pub fn record_text(white: TimeControl, black: TimeControl) -> String {
        if white == black {
            white.to_string()
        } else {
            format!("{white} / {black}")
        }
    }

    /// White's and Black's time controls from a record's text (the inverse
    /// of [`TimeControl::record_text`]).
    ///
    /// # Errors
    /// [`TimeControlError`] for text that is neither form.
    pub fn from_record_text(text: &str) -> Result<(TimeControl, TimeControl), TimeControlError> {
        match text.split_once(" / ") {
            Some((white, black)) => Ok((white.parse()?, black.parse()?)),
            None => text.parse().map(|tc| (tc, tc)),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::JitteredNodes { nodes, percent } => write!(f, "nodes={nodes}~{percent}%"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Clock {
                base,
                increment,
                moves,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_counts_down_to_its_last_move_then_starts_again() {
        let tc: TimeControl = "3/60".parse().unwrap();
        let to_go: Vec<Option<u32>> = (0..7).map(|made| tc.moves_to_go(made)).collect();
        assert_eq!(to_go, [3, 2, 1, 3, 2, 1, 3].map(Some));
        let sudden_death: TimeControl = "60+1".parse().unwrap();
        assert_eq!(sudden_death.moves_to_go(5), None);
    }

    #[test]
    fn a_time_control_built_from_parts_is_held_to_the_ranges_of_text() {
        assert_eq!(TimeControl::Depth(8).validated(), Ok(TimeControl::Depth(8)));
        for (tc, part) in [
            (TimeControl::Nodes(0), "nodes"),
            (TimeControl::Depth(MAX_DEPTH + 1), "depth"),
            (TimeControl::MoveTime(Duration::ZERO), "movetime (ms)"),
            (
                TimeControl::JitteredNodes {
                    nodes: 9,
                    percent: 0,
                },
                "percent",
            ),
            (
                TimeControl::Clock {
                    base: Duration::ZERO,
                    increment: Duration::ZERO,
                    moves: None,
                },
                "base (s)",
            ),
            (
                TimeControl::Clock {
                    base: Duration::from_secs(60),
                    increment: Duration::ZERO,
                    moves: Some(0),
                },
                "moves per period",
            ),
        ] {
            assert!(
                matches!(tc.validated(), Err(TimeControlError::OutOfRange { part: p, .. }) if p == part),
                "{tc}"
            );
        }
    }

    #[test]
    fn a_records_time_control_text_names_both_sides_when_they_differ() {
        let (a, b) = (TimeControl::Nodes(5), TimeControl::Depth(3));
        assert_eq!(TimeControl::record_text(a, a), "nodes=5");
        assert_eq!(TimeControl::record_text(a, b), "nodes=5 / depth=3");
        assert_eq!(
            TimeControl::from_record_text("nodes=5 / depth=3"),
            Ok((a, b))
        );
        assert_eq!(TimeControl::from_record_text("nodes=5"), Ok((a, a)));
        assert!(TimeControl::from_record_text("nodes=5 / x").is_err());
    }

    #[test]
    fn parses_every_form() {
        assert_eq!("nodes=5000".parse(), Ok(TimeControl::Nodes(5000)));
        assert_eq!("depth=8".parse(), Ok(TimeControl::Depth(8)));
        assert_eq!(
            "movetime=100".parse(),
            Ok(TimeControl::MoveTime(Duration::from_millis(100)))
        );
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves: None,
            })
        );
        assert_eq!(
            "40/60".parse(),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves: Some(40),
            })
        );
        assert_eq!(
            "nodes=5000~10%".parse(),
            Ok(TimeControl::JitteredNodes {
                nodes: 5000,
                percent: 10
            })
        );
        for bad in [
            "",
            "nodes=",
            "nodes=0",
            "speed=3",
            "10+x",
            "-1+0",
            "0+1",
            "nodes=5000~10",
            "nodes=5000~0%",
            "nodes=5000~51%",
            "depth=5~10%",
            "0/60",
            "1001/60",
            "x/60",
            "40/",
            "40/nodes=5",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for tc in [
            "nodes=5000",
            "nodes=5000~10%",
            "depth=8",
            "movetime=100",
            "10+0.1",
            "40/60+0.5",
            "40/60+0",
        ] {
            assert_eq!(tc.parse::<TimeControl>().unwrap().to_string(), tc);
        }
    }

    #[test]
    fn numbers_outside_their_ranges_are_refused_naming_the_part() {
        for (text, part) in [
            ("1e20+0", "base (s)"),
            ("inf+0", "base (s)"),
            ("NaN+0", "base (s)"),
            ("0+1", "base (s)"),
            ("-1+0", "base (s)"),
            ("86400.5+0", "base (s)"),
            ("10+1e20", "increment (s)"),
            ("10+-0.5", "increment (s)"),
            ("nodes=0", "nodes"),
            ("nodes=10000000001", "nodes"),
            ("nodes=18446744073709551615~50%", "nodes"),
            ("nodes=5000~51%", "percent"),
            ("depth=101", "depth"),
            ("movetime=3600001", "movetime (ms)"),
        ] {
            match text.parse::<TimeControl>() {
                Err(TimeControlError::OutOfRange { part: p, .. }) => assert_eq!(p, part, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_ends_of_each_range_are_accepted() {
        for tc in [
            "nodes=1",
            "nodes=10000000000",
            "nodes=10000000000~50%",
            "depth=100",
            "movetime=3600000",
            "0.001+0",
            "86400+3600",
        ] {
            assert_eq!(
                tc.parse::<TimeControl>().map(|t| t.to_string()),
                Ok(tc.to_owned())
            );
        }
    }

    #[test]
    fn jittered_nodes_stay_in_range_vary_and_repeat() {
        let tc = TimeControl::JitteredNodes {
            nodes: 1000,
            percent: 10,
        };
        let budgets: Vec<u64> = (0..200)
            .map(|ply| match tc.for_ply(42, ply) {
                TimeControl::Nodes(n) => n,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(budgets.iter().all(|n| (900..=1100).contains(n)));
        assert!(budgets.iter().any(|&n| n < 950) && budgets.iter().any(|&n| n > 1050));
        assert_eq!(tc.for_ply(42, 7), tc.for_ply(42, 7));
        assert_eq!(TimeControl::Depth(3).for_ply(42, 7), TimeControl::Depth(3));
    }
}
