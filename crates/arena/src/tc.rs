//! Time controls: nodes, depth or time per move, or a clock with increment.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How much each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A node budget per move (deterministic for the builtin engine).
    Nodes(u64),
    /// A search depth per move.
    Depth(u32),
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: `base` for the game plus `increment` per move.
    Clock {
        /// Starting time on each clock.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

/// Text that is not a time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a time control: expected nodes=N, depth=N, movetime=MS or BASE+INC (seconds, e.g. 10+0.1)"
)]
pub struct TimeControlError(pub String);

fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = || TimeControlError(text.to_owned());
        let t = text.trim();
        if let Some((key, value)) = t.split_once('=') {
            let n: u64 = value.trim().parse().map_err(|_| err())?;
            if n == 0 {
                return Err(err());
            }
            return match key.trim() {
                "nodes" => Ok(TimeControl::Nodes(n)),
                "depth" => Ok(TimeControl::Depth(u32::try_from(n).map_err(|_| err())?)),
                "movetime" => Ok(TimeControl::MoveTime(Duration::from_millis(n))),
                _ => Err(err()),
            };
        }
        let (base, inc) = t.split_once('+').unwrap_or((t, "0"));
        let base = seconds(base).filter(|d| !d.is_zero()).ok_or_else(err)?;
        let increment = seconds(inc).ok_or_else(err)?;
        Ok(TimeControl::Clock { base, increment })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                increment: Duration::from_millis(100)
            })
        );
        for bad in ["", "nodes=", "nodes=0", "speed=3", "10+x", "-1+0", "0+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for tc in ["nodes=5000", "depth=8", "movetime=100", "10+0.1"] {
            assert_eq!(tc.parse::<TimeControl>().unwrap().to_string(), tc);
        }
    }
}
