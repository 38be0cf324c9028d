//! Result counts: per-game [`Trinomial`] (losses, draws, wins) and per-pair
//! [`Pentanomial`] frequencies, and [`Counts`], either of them.
//!
//! Everything is seen from the side under test: a "win" is a win for it.
//! The descriptive statistics here (score, variance, draw ratio) are exact
//! functions of the counts; the Fishtest estimators in [`crate::elo`] and
//! [`crate::llr`] additionally regularize empty buckets.

use std::ops::{Add, AddAssign};

use crate::elo::{EloError, EloEstimate, NeloEstimate};
use crate::pdf::Pdf;

/// The result of one game for the side under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// Zero points.
    Loss,
    /// Half a point.
    Draw,
    /// One point.
    Win,
}

impl GameScore {
    /// Points scored, in half points (0, 1 or 2).
    #[must_use]
    pub const fn half_points(self) -> usize {
        match self {
            Self::Loss => 0,
            Self::Draw => 1,
            Self::Win => 2,
        }
    }
}

/// Game counts as `(losses, draws, wins)` for the side under test; the
/// trinomial model treats games as independent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won.
    pub wins: u64,
}

impl Trinomial {
    /// Counts from losses, draws and wins (Fishtest's order, low to high).
    #[must_use]
    pub const fn new(losses: u64, draws: u64, wins: u64) -> Self {
        Self {
            losses,
            draws,
            wins,
        }
    }

    /// Adds one game.
    pub const fn record(&mut self, score: GameScore) {
        match score {
            GameScore::Loss => self.losses = self.losses.saturating_add(1),
            GameScore::Draw => self.draws = self.draws.saturating_add(1),
            GameScore::Win => self.wins = self.wins.saturating_add(1),
        }
    }

    /// Number of games (saturating at `u64::MAX`).
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.losses
            .saturating_add(self.draws)
            .saturating_add(self.wins)
    }

    /// The counts low to high: `[losses, draws, wins]`.
    #[must_use]
    pub const fn buckets(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Mean score per game, in `[0, 1]`.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no game was recorded.
    pub fn score(&self) -> Result<f64, EloError> {
        Ok(moments(&self.buckets())?.0)
    }

    /// Variance of the score of one game (population variance).
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no game was recorded.
    pub fn variance(&self) -> Result<f64, EloError> {
        Ok(moments(&self.buckets())?.1)
    }

    /// Fraction of games drawn.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no game was recorded.
    pub fn draw_ratio(&self) -> Result<f64, EloError> {
        let games = self.games();
        if games == 0 {
            return Err(EloError::NoGames);
        }
        Ok(to_f64(self.draws) / to_f64(games))
    }

    /// Logistic Elo with its 95% interval and LOS, as Fishtest computes them.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no game was recorded.
    pub fn elo(&self) -> Result<EloEstimate, EloError> {
        Counts::from(*self).elo()
    }

    /// Normalized Elo with its 95% interval, as Fishtest computes it.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no game was recorded.
    pub fn nelo(&self) -> Result<NeloEstimate, EloError> {
        Counts::from(*self).nelo()
    }
}

impl AddAssign for Trinomial {
    fn add_assign(&mut self, rhs: Self) {
        self.losses = self.losses.saturating_add(rhs.losses);
        self.draws = self.draws.saturating_add(rhs.draws);
        self.wins = self.wins.saturating_add(rhs.wins);
    }
}

impl Add for Trinomial {
    type Output = Self;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}

/// Game-pair counts for the side under test, indexed by the pair's total in
/// half points: `[LL, LD, DD + WL, WD, WW]`, i.e. a pair score of 0, ¼, ½, ¾
/// or 1 per game.
///
/// Pairs play the same opening with colours swapped, so their two games are
/// correlated; the pentanomial model is the honest one for such matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts from the five pair buckets, low to high.
    #[must_use]
    pub const fn new(buckets: [u64; 5]) -> Self {
        Self(buckets)
    }

    /// Adds one pair from the results of its two games, in either order.
    pub const fn record_pair(&mut self, first: GameScore, second: GameScore) {
        let bucket = first.half_points() + second.half_points();
        self.0[bucket] = self.0[bucket].saturating_add(1);
    }

    /// Number of game pairs (saturating at `u64::MAX`).
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().fold(0, |acc, &n| acc.saturating_add(n))
    }

    /// Number of games, twice the pairs (saturating at `u64::MAX`).
    #[must_use]
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// The counts low to high.
    #[must_use]
    pub const fn buckets(&self) -> [u64; 5] {
        self.0
    }

    /// Mean score per game, in `[0, 1]`.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no pair was recorded.
    pub fn score(&self) -> Result<f64, EloError> {
        Ok(moments(&self.0)?.0)
    }

    /// Variance of the per-game score of one pair (the pair's points divided
    /// by two); the variance of the mean score is this over the pair count.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no pair was recorded.
    pub fn variance(&self) -> Result<f64, EloError> {
        Ok(moments(&self.0)?.1)
    }

    /// Fraction of pairs scoring exactly one point (DD or WL), Fishtest's
    /// "pentanomial draw ratio".
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no pair was recorded.
    pub fn draw_ratio(&self) -> Result<f64, EloError> {
        let pairs = self.pairs();
        if pairs == 0 {
            return Err(EloError::NoGames);
        }
        Ok(to_f64(self.0[2]) / to_f64(pairs))
    }

    /// Logistic Elo with its 95% interval and LOS, as Fishtest computes them.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no pair was recorded.
    pub fn elo(&self) -> Result<EloEstimate, EloError> {
        Counts::from(*self).elo()
    }

    /// Normalized Elo with its 95% interval, as Fishtest computes it.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if no pair was recorded.
    pub fn nelo(&self) -> Result<NeloEstimate, EloError> {
        Counts::from(*self).nelo()
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, rhs: Self) {
        for (mine, theirs) in self.0.iter_mut().zip(rhs.0) {
            *mine = mine.saturating_add(theirs);
        }
    }
}

impl Add for Pentanomial {
    type Output = Self;

    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}

/// Either kind of counts; the statistical routines accept both.
///
/// A *sample* is one game for [`Counts::Trinomial`] and one game pair for
/// [`Counts::Pentanomial`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counts {
    /// Per-game counts.
    Trinomial(Trinomial),
    /// Per-pair counts.
    Pentanomial(Pentanomial),
}

impl Counts {
    /// Number of samples: games (trinomial) or pairs (pentanomial).
    #[must_use]
    pub fn samples(&self) -> u64 {
        match self {
            Self::Trinomial(t) => t.games(),
            Self::Pentanomial(p) => p.pairs(),
        }
    }

    /// Number of games.
    #[must_use]
    pub fn games(&self) -> u64 {
        match self {
            Self::Trinomial(t) => t.games(),
            Self::Pentanomial(p) => p.games(),
        }
    }

    /// Logistic Elo with its 95% interval and LOS, as Fishtest computes them.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if the counts are empty.
    pub fn elo(&self) -> Result<EloEstimate, EloError> {
        crate::elo::estimate(self)
    }

    /// Normalized Elo with its 95% interval, as Fishtest computes it.
    ///
    /// # Errors
    ///
    /// [`EloError::NoGames`] if the counts are empty.
    pub fn nelo(&self) -> Result<NeloEstimate, EloError> {
        crate::elo::nelo_estimate(self)
    }

    /// The counts low to high, 3 or 5 of them.
    pub(crate) fn buckets(&self) -> Vec<u64> {
        match self {
            Self::Trinomial(t) => t.buckets().to_vec(),
            Self::Pentanomial(p) => p.buckets().to_vec(),
        }
    }

    /// Whether both counts are of the same kind.
    pub(crate) const fn same_kind(&self, other: &Self) -> bool {
        matches!(
            (self, other),
            (Self::Trinomial(_), Self::Trinomial(_)) | (Self::Pentanomial(_), Self::Pentanomial(_))
        )
    }
}

impl From<Trinomial> for Counts {
    fn from(t: Trinomial) -> Self {
        Self::Trinomial(t)
    }
}

impl From<Pentanomial> for Counts {
    fn from(p: Pentanomial) -> Self {
        Self::Pentanomial(p)
    }
}

/// Converts a count to `f64`; exact below 2⁵³, which any real count is.
pub(crate) fn to_f64(n: u64) -> f64 {
    // No `From<u64> for f64` exists; the cast rounds to nearest above 2^53.
    n as f64
}

/// Exact mean and population variance of the per-unit score.
fn moments(buckets: &[u64]) -> Result<(f64, f64), EloError> {
    Pdf::exact(buckets)
        .map(|pdf| pdf.mean_variance())
        .ok_or(EloError::NoGames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trinomial_descriptive_statistics() {
        let t = Trinomial::new(20, 50, 30);
        assert_eq!(t.games(), 100);
        assert!((t.score().unwrap() - 0.55).abs() < 1e-15);
        // E[x²] − E[x]² = (50·¼ + 30)/100 − 0.55².
        assert!((t.variance().unwrap() - (0.425 - 0.3025)).abs() < 1e-15);
        assert!((t.draw_ratio().unwrap() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn pentanomial_descriptive_statistics() {
        let p = Pentanomial::new([10, 20, 40, 20, 10]);
        assert_eq!(p.pairs(), 100);
        assert_eq!(p.games(), 200);
        assert!((p.score().unwrap() - 0.5).abs() < 1e-15);
        // Σ n·(x − ½)² / N with x = 0, ¼, ½, ¾, 1.
        let want = (10.0 * 0.25 + 20.0 * 0.0625 + 20.0 * 0.0625 + 10.0 * 0.25) / 100.0;
        assert!((p.variance().unwrap() - want).abs() < 1e-15);
        assert!((p.draw_ratio().unwrap() - 0.4).abs() < 1e-15);
    }

    #[test]
    fn recording_games_and_pairs() {
        let mut t = Trinomial::default();
        t.record(GameScore::Win);
        t.record(GameScore::Draw);
        t.record(GameScore::Draw);
        t.record(GameScore::Loss);
        assert_eq!(t, Trinomial::new(1, 2, 1));

        let mut p = Pentanomial::default();
        p.record_pair(GameScore::Win, GameScore::Loss);
        p.record_pair(GameScore::Draw, GameScore::Draw);
        p.record_pair(GameScore::Draw, GameScore::Win);
        p.record_pair(GameScore::Loss, GameScore::Loss);
        assert_eq!(p, Pentanomial::new([1, 0, 2, 1, 0]));
    }

    #[test]
    fn merging_counts_saturates() {
        let a = Trinomial::new(1, 2, 3) + Trinomial::new(4, 5, 6);
        assert_eq!(a, Trinomial::new(5, 7, 9));
        let b = Pentanomial::new([u64::MAX, 0, 1, 0, 0]) + Pentanomial::new([1, 0, 1, 0, 2]);
        assert_eq!(b, Pentanomial::new([u64::MAX, 0, 2, 0, 2]));
        assert_eq!(Trinomial::new(u64::MAX, 1, 0).games(), u64::MAX);
    }

    #[test]
    fn empty_counts_are_typed_errors() {
        assert_eq!(Trinomial::default().score(), Err(EloError::NoGames));
        assert_eq!(Trinomial::default().draw_ratio(), Err(EloError::NoGames));
        assert_eq!(Pentanomial::default().variance(), Err(EloError::NoGames));
        assert_eq!(Pentanomial::default().draw_ratio(), Err(EloError::NoGames));
        assert_eq!(
            Counts::from(Pentanomial::default()).elo(),
            Err(EloError::NoGames)
        );
        assert_eq!(Trinomial::default().nelo(), Err(EloError::NoGames));
    }

    #[test]
    fn samples_are_games_or_pairs() {
        assert_eq!(Counts::from(Trinomial::new(1, 1, 1)).samples(), 3);
        let p = Counts::from(Pentanomial::new([1, 1, 1, 1, 1]));
        assert_eq!(p.samples(), 5);
        assert_eq!(p.games(), 10);
    }
}
