//! A rating table over many players from their pairwise results: the
//! maximum-likelihood Bradley–Terry (logistic Elo) fit that Ordo and
//! BayesElo's `mm` make, a draw counting as half a win and half a loss.
//!
//! Player `i`'s expected score against `j` is
//! `E_ij = 1 / (1 + 10^((r_j − r_i) / 400))`; the ratings maximise
//! `Σ s_ij ln E_ij + (n_ij − s_ij) ln(1 − E_ij)` over every pairing, which
//! fixes them up to a common offset: the table's mean is 0. The fit is
//! Hunter's MM iteration (`γ_i ← S_i / Σ_j n_ij / (γ_i + γ_j)`), which
//! converges whenever every player has scored something and conceded
//! something within one connected field.
//!
//! The 95% intervals come from the observed information: with the Hessian
//! `H` of the log-likelihood in natural units (a graph Laplacian, weights
//! `n_ij p_ij (1 − p_ij)`), the covariance of the mean-centred ratings is
//! its pseudo-inverse `(H + 11ᵀ/n)⁻¹ − 11ᵀ/n`, scaled by `(400 / ln 10)²`.
//! For two players this is the binomial interval of the score's Elo
//! (draws counted as half points, as in Ordo's default).

use crate::ratio::Z_95;

/// The results of one pairing: `games` between players `a` and `b`, of
/// which `a` scored `score_a` points (a draw is half a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairingScore {
    /// First player's index.
    pub a: usize,
    /// Second player's index.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// The first player's points.
    pub score_a: f64,
}

/// A player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Logistic Elo, relative to the field's mean.
    pub elo: f64,
    /// Half the 95% interval, Elo.
    pub error_95: f64,
    /// Games played.
    pub games: f64,
    /// Points scored.
    pub score: f64,
}

/// Results that fix no finite rating table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// Fewer than two players.
    #[error("a rating table needs at least two players, {0} given")]
    TooFewPlayers(usize),
    /// A pairing names a player outside the table, itself, or holds
    /// impossible counts.
    #[error("pairing {index}: {reason}")]
    BadPairing {
        /// Its index in the input.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A player has all the points of their games, or none: their rating
    /// is infinite.
    #[error("player {0} has {1} of their games' points: the rating is unbounded")]
    Unbounded(usize, &'static str),
    /// Not every player is linked to every other through games.
    #[error("players {0} and {1} are not linked through games: their ratings are unrelated")]
    Disconnected(usize, usize),
}

/// Fits ratings of `players` players from `pairings`.
///
/// # Errors
/// [`RatingError`] when the results fix no finite table (see there).
pub fn fit_ratings(players: usize, pairings: &[PairingScore]) -> Result<Vec<Rating>, RatingError> {
    if players < 2 {
        return Err(RatingError::TooFewPlayers(players));
    }
    let mut games = vec![vec![0.0f64; players]; players];
    let mut score = vec![0.0f64; players];
    for (index, p) in pairings.iter().enumerate() {
        let bad = |reason: String| RatingError::BadPairing { index, reason };
        if p.a >= players || p.b >= players || p.a == p.b {
            return Err(bad(format!("players {} and {} of {players}", p.a, p.b)));
        }
        if !(p.games >= 0.0 && (0.0..=p.games).contains(&p.score_a)) {
            return Err(bad(format!("{} points in {} games", p.score_a, p.games)));
        }
        games[p.a][p.b] += p.games;
        games[p.b][p.a] += p.games;
        score[p.a] += p.score_a;
        score[p.b] += p.games - p.score_a;
    }
    check_connected(&games)?;
    for (i, row) in games.iter().enumerate() {
        let total: f64 = row.iter().sum();
        if score[i] <= 0.0 {
            return Err(RatingError::Unbounded(i, "none"));
        }
        if score[i] >= total {
            return Err(RatingError::Unbounded(i, "all"));
        }
    }
    let theta = mm_fit(&games, &score);
    let covariance = centred_covariance(&games, &theta);
    let scale = 400.0 / std::f64::consts::LN_10;
    Ok((0..players)
        .map(|i| Rating {
            elo: theta[i] * scale,
            error_95: Z_95 * covariance[i][i].max(0.0).sqrt() * scale,
            games: games[i].iter().sum(),
            score: score[i],
        })
        .collect())
}

fn check_connected(games: &[Vec<f64>]) -> Result<(), RatingError> {
    let mut seen = vec![false; games.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, &n) in games[i].iter().enumerate() {
            if n > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    match seen.iter().position(|s| !s) {
        Some(j) => Err(RatingError::Disconnected(0, j)),
        None => Ok(()),
    }
}

/// Natural-unit strengths `θ = ln γ`, mean 0, by Hunter's MM iteration.
fn mm_fit(games: &[Vec<f64>], score: &[f64]) -> Vec<f64> {
    let n = games.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let denominator: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = score[i] / denominator;
        }
        // Geometric mean 1 keeps the scale fixed.
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        let change = next
            .iter_mut()
            .zip(&gamma)
            .map(|(g, old)| {
                *g /= log_mean.exp();
                (g.ln() - old.ln()).abs()
            })
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| g.ln()).collect()
}

/// The covariance of the mean-centred strengths: the pseudo-inverse of the
/// information matrix.
fn centred_covariance(games: &[Vec<f64>], theta: &[f64]) -> Vec<Vec<f64>> {
    let n = games.len();
    let inv_n = 1.0 / n as f64;
    let mut m = vec![vec![inv_n; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let w = games[i][j] * p * (1.0 - p);
                m[i][j] -= w;
                m[i][i] += w;
            }
        }
    }
    let mut inverse = invert(m);
    for row in &mut inverse {
        for v in row.iter_mut() {
            *v -= inv_n;
        }
    }
    inverse
}

/// Gauss–Jordan inverse with partial pivoting of a positive-definite matrix.
fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                for j in 0..n {
                    a[row][j] -= f * a[col][j];
                    inv[row][j] -= f * inv[col][j];
                }
            }
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::score_to_elo;

    fn expected(a: f64, b: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
    }

    #[test]
    fn two_players_give_the_score_s_elo_and_binomial_interval() {
        let r = fit_ratings(
            2,
            &[PairingScore {
                a: 0,
                b: 1,
                games: 400.0,
                score_a: 240.0,
            }],
        )
        .unwrap();
        let diff = score_to_elo(0.6).unwrap();
        assert!((r[0].elo - r[1].elo - diff).abs() < 1e-6, "{r:?}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9);
        // Var(θa − θb) = 1 / (n p (1 − p)); each centred rating has a quarter.
        let sd_diff = (1.0f64 / (400.0 * 0.6 * 0.4)).sqrt() * 400.0 / std::f64::consts::LN_10;
        assert!((r[0].error_95 - Z_95 * sd_diff / 2.0).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn results_at_their_expectation_give_back_the_true_ratings() {
        let truth = [-150.0, 0.0, 50.0, 100.0];
        let mut pairings = Vec::new();
        for a in 0..4 {
            for b in a + 1..4 {
                pairings.push(PairingScore {
                    a,
                    b,
                    games: 200.0,
                    score_a: 200.0 * expected(truth[a], truth[b]),
                });
            }
        }
        let r = fit_ratings(4, &pairings).unwrap();
        for (fit, t) in r.iter().zip(truth) {
            assert!((fit.elo - t).abs() < 1e-6, "{r:?}");
        }
        // A player with fewer opponents is less certain: drop 0-vs-3.
        pairings.retain(|p| !(p.a == 0 && p.b == 3));
        let fewer = fit_ratings(4, &pairings).unwrap();
        assert!(fewer[0].error_95 > r[0].error_95);
    }

    #[test]
    fn a_cycle_gives_equal_ratings() {
        let p = |a, b| PairingScore {
            a,
            b,
            games: 4.0,
            score_a: 3.0,
        };
        let r = fit_ratings(3, &[p(0, 1), p(1, 2), p(2, 0)]).unwrap();
        assert!(r.iter().all(|x| x.elo.abs() < 1e-9), "{r:?}");
    }

    #[test]
    fn tables_without_finite_ratings_are_refused() {
        let p = |a, b, score_a| PairingScore {
            a,
            b,
            games: 10.0,
            score_a,
        };
        assert_eq!(
            fit_ratings(3, &[p(0, 1, 5.0), p(1, 2, 10.0)]),
            Err(RatingError::Unbounded(2, "none"))
        );
        assert_eq!(
            fit_ratings(4, &[p(0, 1, 5.0), p(2, 3, 5.0)]),
            Err(RatingError::Disconnected(0, 2))
        );
        assert!(matches!(
            fit_ratings(2, &[p(0, 0, 5.0)]),
            Err(RatingError::BadPairing { index: 0, .. })
        ));
        assert_eq!(fit_ratings(1, &[]), Err(RatingError::TooFewPlayers(1)));
    }
}
