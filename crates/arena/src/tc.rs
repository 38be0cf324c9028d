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
    "'{0}' is not a time control: expected nodes=N, nodes=N~P% (P from 1 to 50), depth=N, movetime=MS or BASE+INC (seconds, e.g. 10+0.1)"
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
            if let (Some((n, p)), "nodes") = (value.split_once('~'), key.trim()) {
                let nodes: u64 = n.trim().parse().map_err(|_| err())?;
                let percent: u32 = p
                    .trim()
                    .strip_suffix('%')
                    .and_then(|p| p.parse().ok())
                    .ok_or_else(err)?;
                if nodes == 0 || !(1..=50).contains(&percent) {
                    return Err(err());
                }
                return Ok(TimeControl::JitteredNodes { nodes, percent });
            }
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
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::JitteredNodes { nodes, percent } => write!(f, "nodes={nodes}~{percent}%"),
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
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        for tc in [
            "nodes=5000",
            "nodes=5000~10%",
            "depth=8",
            "movetime=100",
            "10+0.1",
        ] {
            assert_eq!(tc.parse::<TimeControl>().unwrap().to_string(), tc);
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
