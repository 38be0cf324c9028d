//! Live match statistics from the first player's view: W/D/L, pentanomial
//! pair counts, Elo with a 95% interval from the pentanomial variance, LOS
//! and the draw ratio.

use ajaxlab_rules::Color;
use ajaxlab_stats::{GameScore, Pentanomial, Trinomial};
use ajaxlab_store::GameRecord;
use std::fmt;

/// Running totals of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveStats {
    /// Games, first player's view.
    pub trinomial: Trinomial,
    /// Pairs, first player's view.
    pub pentanomial: Pentanomial,
}

impl LiveStats {
    /// Adds a finished pair: in `first` the first player is White, in `second` Black.
    pub fn add_pair(&mut self, first: &GameRecord, second: &GameRecord) {
        let a = first.score_of(Color::White);
        let b = second.score_of(Color::Black);
        for s in [a, b] {
            match s {
                GameScore::Win => self.trinomial.wins += 1,
                GameScore::Draw => self.trinomial.draws += 1,
                GameScore::Loss => self.trinomial.losses += 1,
            }
        }
        self.pentanomial.record_pair(a, b);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.trinomial.wins + self.trinomial.draws + self.trinomial.losses
    }

    /// Elo and its 95% half-width from the pentanomial counts, when defined.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let e = self.pentanomial.elo().ok()?;
        Some((e.elo, e.interval.half_width(), e.los))
    }
}

impl fmt::Display for LiveStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.trinomial;
        let p = self.pentanomial.0;
        write!(
            f,
            "W/D/L {}/{}/{}  penta [{} {} {} {} {}]",
            t.wins, t.draws, t.losses, p[0], p[1], p[2], p[3], p[4]
        )?;
        match self.elo() {
            Some((elo, pm, los)) => write!(
                f,
                "  Elo {elo:+.1} ± {pm:.1} (95%)  LOS {:.1}%",
                los * 100.0
            )?,
            None => write!(f, "  Elo n/a")?,
        }
        if self.games() > 0 {
            write!(
                f,
                "  draws {:.1}%",
                100.0 * t.draws as f64 / self.games() as f64
            )?;
        }
        Ok(())
    }
}
