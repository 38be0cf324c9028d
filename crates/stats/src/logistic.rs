//! Logistic regression by iteratively reweighted least squares (IRLS), with
//! standard errors, for responses in `[0, 1]` (a draw scores ½).
//!
//! The model is `E[y] = 1/(1 + e^(−x·β))`. A fractional response is fitted
//! by the same estimating equations as a binary one (quasi-likelihood); the
//! covariance of `β̂` is `φ·(XᵀWX)⁻¹` with `W = diag(μ(1−μ))` and the
//! dispersion `φ` either 1 (binomial) or Pearson's estimate
//! `Σ(y−μ)²/(μ(1−μ)) / (n − p)` (quasi-binomial, right when draws make the
//! variance smaller than the binomial one).

use crate::ratio::{self, NormalEstimate, RatioError, RatioEstimate};

/// IRLS iteration cap; a well-posed problem converges in under ten.
const MAX_ITERATIONS: usize = 100;

/// Convergence: the largest coefficient change relative to `1 + |β|`.
const TOLERANCE: f64 = 1e-10;

/// A Cholesky pivot below this fraction of its diagonal entry means the
/// design's columns are (numerically) linearly dependent.
const RANK_TOLERANCE: f64 = 1e-10;

/// Weights are kept above this so that a fitted probability of 0 or 1 does
/// not make the normal equations singular before separation is detected.
const MIN_WEIGHT: f64 = 1e-12;

/// A linear predictor beyond this in absolute value means the fit is running
/// off to infinity (complete separation).
const MAX_LINEAR_PREDICTOR: f64 = 30.0;

/// How the dispersion `φ` scales the covariance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dispersion {
    /// `φ = 1`: binary outcomes.
    Binomial,
    /// Pearson's estimate of `φ`: quasi-binomial, for fractional outcomes.
    Pearson,
}

/// Why a logistic regression could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RegressionError {
    /// No observation was given.
    #[error("no observations")]
    NoObservations,
    /// A row of the design has another length than the first.
    #[error("row {row} has {got} columns, the first row {expected}")]
    RaggedDesign {
        /// Row index.
        row: usize,
        /// Columns of the first row.
        expected: usize,
        /// Columns of this row.
        got: usize,
    },
    /// The design and the response have different lengths.
    #[error("{rows} design rows but {responses} responses")]
    LengthMismatch {
        /// Design rows.
        rows: usize,
        /// Responses.
        responses: usize,
    },
    /// A response is outside `[0, 1]` or a covariate is not finite.
    #[error("observation {row}: response outside [0, 1] or covariate not finite")]
    InvalidObservation {
        /// Row index.
        row: usize,
    },
    /// Fewer observations than coefficients (Pearson dispersion needs more).
    #[error("{observations} observations cannot fit {coefficients} coefficients")]
    TooFewObservations {
        /// Observations.
        observations: usize,
        /// Coefficients.
        coefficients: usize,
    },
    /// The columns of the design are linearly dependent: this coefficient
    /// is not identifiable from the others.
    #[error("column {column} of the design is a linear combination of the columns before it")]
    Singular {
        /// The first dependent column.
        column: usize,
    },
    /// The coefficients diverge: some combination of covariates separates
    /// the outcomes perfectly.
    #[error("the fit diverges: the outcomes are (quasi-)completely separated")]
    Separation,
    /// IRLS did not converge.
    #[error("IRLS did not converge in {0} iterations")]
    NoConvergence(usize),
}

/// A fitted logistic regression.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// `β̂`, one per design column.
    pub coefficients: Vec<f64>,
    /// `Cov(β̂)`, row-major `p × p`, already scaled by the dispersion.
    pub covariance: Vec<Vec<f64>>,
    /// The dispersion `φ` used (1 for [`Dispersion::Binomial`]).
    pub dispersion: f64,
    /// Number of observations.
    pub observations: usize,
    /// IRLS iterations taken.
    pub iterations: usize,
}

impl LogisticFit {
    /// The standard error of coefficient `j`, `None` if there is no such one.
    #[must_use]
    pub fn std_error(&self, j: usize) -> Option<f64> {
        self.covariance
            .get(j)
            .and_then(|row| row.get(j))
            .map(|v| v.max(0.0).sqrt())
    }

    /// The ratio `β_num/β_den` with its delta-method and Fieller intervals
    /// at the normal quantile `z`, using the fitted covariance; `None` if an
    /// index is out of range.
    ///
    /// # Errors
    ///
    /// [`RatioError`] if `β_den` is zero.
    pub fn ratio(
        &self,
        num: usize,
        den: usize,
        z: f64,
    ) -> Option<Result<RatioEstimate, RatioError>> {
        let a = NormalEstimate {
            value: *self.coefficients.get(num)?,
            variance: *self.covariance.get(num)?.get(num)?,
        };
        let b = NormalEstimate {
            value: *self.coefficients.get(den)?,
            variance: *self.covariance.get(den)?.get(den)?,
        };
        let c = *self.covariance.get(num)?.get(den)?;
        Some(ratio::ratio(a, b, c, z))
    }
}

/// The logistic function `1/(1 + e^(−η))`.
#[must_use]
pub fn logistic(eta: f64) -> f64 {
    1.0 / (1.0 + (-eta).exp())
}

/// Fits `E[y] = logistic(x·β)` by IRLS from `β = 0`.
///
/// `design` holds one row of covariates per observation; include a column of
/// ones for an intercept. `response` values lie in `[0, 1]`.
///
/// # Errors
///
/// [`RegressionError`] for empty, ragged or invalid input, a rank-deficient
/// design (naming the first dependent column), separation, or no
/// convergence.
pub fn logistic_regression(
    design: &[Vec<f64>],
    response: &[f64],
    dispersion: Dispersion,
) -> Result<LogisticFit, RegressionError> {
    let p = check(design, response)?;
    let n = design.len();
    let mut beta = vec![0.0; p];
    for iteration in 1..=MAX_ITERATIONS {
        // Normal equations of the weighted least-squares step,
        // (XᵀWX) β_new = XᵀW z with z = η + (y − μ)/w.
        let mut xtwx = vec![vec![0.0; p]; p];
        let mut xtwz = vec![0.0; p];
        for (row, &y) in design.iter().zip(response) {
            let eta = dot(row, &beta);
            let mu = logistic(eta);
            let w = (mu * (1.0 - mu)).max(MIN_WEIGHT);
            let z = eta + (y - mu) / w;
            for (j, &xj) in row.iter().enumerate() {
                xtwz[j] += w * xj * z;
                for (k, &xk) in row.iter().enumerate().take(j + 1) {
                    xtwx[j][k] += w * xj * xk;
                }
            }
        }
        let factor = cholesky(&mirror(xtwx))?;
        let next = factor.solve(&xtwz);
        let step = next
            .iter()
            .zip(&beta)
            .map(|(a, b)| (a - b).abs() / (1.0 + a.abs()))
            .fold(0.0, f64::max);
        beta = next;
        let diverging = design
            .iter()
            .any(|row| dot(row, &beta).abs() > MAX_LINEAR_PREDICTOR);
        if step < TOLERANCE {
            if diverging {
                return Err(RegressionError::Separation);
            }
            return Ok(finish(design, response, beta, dispersion, n, p, iteration));
        }
        if diverging && iteration > 25 {
            return Err(RegressionError::Separation);
        }
    }
    Err(RegressionError::NoConvergence(MAX_ITERATIONS))
}

/// Validates the input and returns the number of columns.
fn check(design: &[Vec<f64>], response: &[f64]) -> Result<usize, RegressionError> {
    let first = design.first().ok_or(RegressionError::NoObservations)?;
    let p = first.len();
    if design.len() != response.len() {
        return Err(RegressionError::LengthMismatch {
            rows: design.len(),
            responses: response.len(),
        });
    }
    for (row, (x, &y)) in design.iter().zip(response).enumerate() {
        if x.len() != p {
            return Err(RegressionError::RaggedDesign {
                row,
                expected: p,
                got: x.len(),
            });
        }
        if !(0.0..=1.0).contains(&y) || x.iter().any(|v| !v.is_finite()) {
            return Err(RegressionError::InvalidObservation { row });
        }
    }
    if design.len() <= p || p == 0 {
        return Err(RegressionError::TooFewObservations {
            observations: design.len(),
            coefficients: p,
        });
    }
    Ok(p)
}

/// Covariance and dispersion at the converged `β`.
fn finish(
    design: &[Vec<f64>],
    response: &[f64],
    beta: Vec<f64>,
    dispersion: Dispersion,
    n: usize,
    p: usize,
    iterations: usize,
) -> LogisticFit {
    let mut xtwx = vec![vec![0.0; p]; p];
    let mut pearson = 0.0;
    for (row, &y) in design.iter().zip(response) {
        let mu = logistic(dot(row, &beta));
        let w = (mu * (1.0 - mu)).max(MIN_WEIGHT);
        pearson += (y - mu) * (y - mu) / w;
        for (j, &xj) in row.iter().enumerate() {
            for (k, &xk) in row.iter().enumerate().take(j + 1) {
                xtwx[j][k] += w * xj * xk;
            }
        }
    }
    let phi = match dispersion {
        Dispersion::Binomial => 1.0,
        Dispersion::Pearson => pearson / count(n - p),
    };
    // The matrix was factorized at the last step; a failure here would need
    // the weights to move by orders of magnitude in a converged step.
    let inverse = cholesky(&mirror(xtwx))
        .map_or_else(|_| vec![vec![f64::NAN; p]; p], |factor| factor.inverse());
    let covariance = inverse
        .into_iter()
        .map(|row| row.into_iter().map(|v| v * phi).collect())
        .collect();
    LogisticFit {
        coefficients: beta,
        covariance,
        dispersion: phi,
        observations: n,
        iterations,
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Converts a count to `f64` (exact below 2⁵³).
fn count(n: usize) -> f64 {
    // No lossless `From<usize> for f64`; observation counts are far below 2^53.
    n as f64
}

/// Fills the upper triangle of a matrix built in its lower triangle.
fn mirror(m: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let lower = m.clone();
    m.into_iter()
        .enumerate()
        .map(|(j, row)| {
            row.into_iter()
                .enumerate()
                .map(|(k, v)| if k > j { lower[k][j] } else { v })
                .collect()
        })
        .collect()
}

/// The lower-triangular Cholesky factor `L` of a symmetric positive definite
/// matrix `A = L·Lᵀ`.
struct Cholesky {
    lower: Vec<Vec<f64>>,
}

fn cholesky(a: &[Vec<f64>]) -> Result<Cholesky, RegressionError> {
    let p = a.len();
    let mut lower = vec![vec![0.0; p]; p];
    for j in 0..p {
        let pivot = a[j][j] - (0..j).map(|k| lower[j][k] * lower[j][k]).sum::<f64>();
        if pivot.is_nan() || pivot <= RANK_TOLERANCE * a[j][j].abs() || pivot.is_infinite() {
            return Err(RegressionError::Singular { column: j });
        }
        let d = pivot.sqrt();
        lower[j][j] = d;
        for i in (j + 1)..p {
            let s = a[i][j] - (0..j).map(|k| lower[i][k] * lower[j][k]).sum::<f64>();
            lower[i][j] = s / d;
        }
    }
    Ok(Cholesky { lower })
}

impl Cholesky {
    /// Solves `A·x = b`.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let l = &self.lower;
        let p = l.len();
        let mut y = vec![0.0; p];
        for i in 0..p {
            y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
        }
        let mut x = vec![0.0; p];
        for i in (0..p).rev() {
            x[i] = (y[i] - ((i + 1)..p).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
        }
        x
    }

    /// `A⁻¹`, column by column.
    fn inverse(&self) -> Vec<Vec<f64>> {
        let p = self.lower.len();
        let mut inv = vec![vec![0.0; p]; p];
        for j in 0..p {
            let mut e = vec![0.0; p];
            e[j] = 1.0;
            for (i, v) in self.solve(&e).into_iter().enumerate() {
                inv[i][j] = v;
            }
        }
        inv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{RandomSource, SplitMix64};

    fn logit(p: f64) -> f64 {
        (p / (1.0 - p)).ln()
    }

    #[test]
    fn intercept_only_is_the_logit_of_the_mean() {
        // 30 ones, 70 zeros: β = logit(0.3), SE = 1/√(n·p·(1−p)).
        let design = vec![vec![1.0]; 100];
        let response: Vec<f64> = (0..100).map(|i| if i < 30 { 1.0 } else { 0.0 }).collect();
        let fit = logistic_regression(&design, &response, Dispersion::Binomial).unwrap();
        assert!((fit.coefficients[0] - logit(0.3)).abs() < 1e-12);
        let se = 1.0 / (100.0_f64 * 0.3 * 0.7).sqrt();
        assert!((fit.std_error(0).unwrap() - se).abs() < 1e-12);
        assert_eq!(fit.dispersion, 1.0);
    }

    #[test]
    fn two_by_two_table_gives_the_log_odds_ratio() {
        // Group x=0: 20 of 50 succeed; x=1: 35 of 50. Closed forms:
        // β0 = logit(0.4), β1 = ln((35·30)/(15·20)),
        // SE(β1) = √(1/20 + 1/30 + 1/35 + 1/15) (Woolf).
        let mut design = Vec::new();
        let mut response = Vec::new();
        for (x, successes) in [(0.0, 20), (1.0, 35)] {
            for i in 0..50 {
                design.push(vec![1.0, x]);
                response.push(if i < successes { 1.0 } else { 0.0 });
            }
        }
        let fit = logistic_regression(&design, &response, Dispersion::Binomial).unwrap();
        assert!((fit.coefficients[0] - logit(0.4)).abs() < 1e-10);
        let log_or = (35.0_f64 * 30.0 / (15.0 * 20.0)).ln();
        assert!((fit.coefficients[1] - log_or).abs() < 1e-10);
        let se = (1.0 / 20.0 + 1.0 / 30.0 + 1.0 / 35.0 + 1.0 / 15.0_f64).sqrt();
        assert!((fit.std_error(1).unwrap() - se).abs() < 1e-10);
        // Cov(β0, β1) = −Var(β0) = −(1/20 + 1/30).
        assert!((fit.covariance[0][1] + (1.0 / 20.0 + 1.0 / 30.0)).abs() < 1e-10);
        assert!(fit.iterations < 15);
    }

    #[test]
    fn pearson_dispersion_of_all_draws_like_data() {
        // Half points everywhere with a balanced design: μ = ½ exactly, so
        // Pearson's φ is 0 and the standard errors vanish.
        let design: Vec<Vec<f64>> = (0..20).map(|i| vec![1.0, f64::from(i % 2)]).collect();
        let response = vec![0.5; 20];
        let fit = logistic_regression(&design, &response, Dispersion::Pearson).unwrap();
        assert!(fit.coefficients.iter().all(|b| b.abs() < 1e-12));
        assert!(fit.dispersion.abs() < 1e-12);
    }

    #[test]
    fn recovers_planted_coefficients_and_ratio() {
        // Two covariates like material differences: β = (0.1, 0.4, 1.2), so
        // the second piece is worth 3 of the first.
        let beta = [0.1, 0.4, 1.2];
        let mut rng = SplitMix64::new(7);
        let (mut design, mut response) = (Vec::new(), Vec::new());
        for _ in 0..40_000 {
            let d1 = f64::from(u8::try_from(rng.next_u64() % 5).unwrap()) - 2.0;
            let d2 = f64::from(u8::try_from(rng.next_u64() % 3).unwrap()) - 1.0;
            let p = logistic(beta[0] + beta[1] * d1 + beta[2] * d2);
            // Trinomial outcome with mean p: win, draw or loss.
            let draw = 0.4 * (1.0 - (2.0 * p - 1.0).abs());
            let u = rng.next_f64();
            let y = if u < p - draw / 2.0 {
                1.0
            } else if u < p + draw / 2.0 {
                0.5
            } else {
                0.0
            };
            design.push(vec![1.0, d1, d2]);
            response.push(y);
        }
        let fit = logistic_regression(&design, &response, Dispersion::Pearson).unwrap();
        for (j, want) in beta.iter().enumerate() {
            let se = fit.std_error(j).unwrap();
            assert!(
                (fit.coefficients[j] - want).abs() < 4.0 * se,
                "β{j} = {} ± {se}, planted {want}",
                fit.coefficients[j]
            );
        }
        // Draws make the quasi-binomial dispersion smaller than 1.
        assert!(
            fit.dispersion < 0.95 && fit.dispersion > 0.5,
            "{}",
            fit.dispersion
        );
        let r = fit.ratio(2, 1, crate::ratio::Z_95).unwrap().unwrap();
        assert!(r.delta.contains(3.0), "{r:?}");
        assert!(r.fieller.unwrap().contains(3.0));
    }

    #[test]
    fn dependent_columns_are_named() {
        let design: Vec<Vec<f64>> = (0..10)
            .map(|i| vec![1.0, f64::from(i), 2.0 * f64::from(i)])
            .collect();
        let response: Vec<f64> = (0..10).map(|i| f64::from(i % 2)).collect();
        assert_eq!(
            logistic_regression(&design, &response, Dispersion::Binomial),
            Err(RegressionError::Singular { column: 2 })
        );
    }

    #[test]
    fn separation_and_bad_input_are_errors() {
        let design: Vec<Vec<f64>> = (0..10).map(|i| vec![1.0, f64::from(i)]).collect();
        let separated: Vec<f64> = (0..10).map(|i| if i < 5 { 0.0 } else { 1.0 }).collect();
        assert_eq!(
            logistic_regression(&design, &separated, Dispersion::Binomial),
            Err(RegressionError::Separation)
        );
        assert_eq!(
            logistic_regression(&[], &[], Dispersion::Binomial),
            Err(RegressionError::NoObservations)
        );
        assert_eq!(
            logistic_regression(&design, &[0.5; 9], Dispersion::Binomial),
            Err(RegressionError::LengthMismatch {
                rows: 10,
                responses: 9
            })
        );
        let mut bad = vec![0.5; 10];
        bad[3] = 1.5;
        assert_eq!(
            logistic_regression(&design, &bad, Dispersion::Binomial),
            Err(RegressionError::InvalidObservation { row: 3 })
        );
        assert_eq!(
            logistic_regression(&design[..2], &[0.0, 1.0], Dispersion::Pearson),
            Err(RegressionError::TooFewObservations {
                observations: 2,
                coefficients: 2
            })
        );
    }
}
