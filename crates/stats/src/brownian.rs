//! Brownian motion with drift between two absorbing barriers, the continuous
//! model of an SPRT's LLR path (Fishtest's `brownian.py`), used to estimate
//! Elo after a sequential test without the bias of stopping early.

use std::f64::consts::PI;

use crate::normal;

/// Terms of the exact series before giving up on it.
const MAX_SERIES_TERMS: u32 = 100_000;

/// A Brownian motion `W(t)` with `W(0) = 0`, drift `mu` and variance
/// `sigma2` per unit time, absorbed at `a < 0 < b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Brownian {
    pub(crate) a: f64,
    pub(crate) b: f64,
    pub(crate) mu: f64,
    pub(crate) sigma2: f64,
}

impl Brownian {
    /// The probability that the path ends "worse" than the point `(t, y)`:
    /// it is absorbed at `a` before time `t`, or it is still running at `t`
    /// below `y` (Fishtest: "passes to the right of (T, y)"). Uses the exact series
    /// unless it would converge slowly, then Siegmund's approximation,
    /// exactly as Fishtest switches between them.
    pub(crate) fn outcome_cdf(&self, t: f64, y: f64) -> f64 {
        let gamma = self.mu / self.sigma2;
        let width = self.b - self.a;
        let value = if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(t, y)
        } else {
            self.series(t, y).unwrap_or_else(|| self.siegmund(t, y))
        };
        // Fishtest asserts the value is within 1e-3 of [0, 1]; clamp instead.
        value.clamp(0.0, 1.0)
    }

    /// The exact eigenfunction expansion (Fishtest's `outcome_cdf_alt1`);
    /// `None` if it has not converged after [`MAX_SERIES_TERMS`] terms.
    fn series(&self, t: f64, y: f64) -> Option<f64> {
        let (mu, sigma2) = (self.mu, self.sigma2);
        let width = self.b - self.a;
        let x = -self.a;
        let y = y - self.a;
        let gamma = mu / sigma2;
        let lambda = |n: f64| (n * PI / width).powi(2) * sigma2 / 2.0 + (mu * mu / sigma2) / 2.0;
        let lambda_1 = lambda(1.0);
        let t0 = (-lambda_1 * t - x * gamma + y * gamma).exp();
        let mut sum = 0.0;
        let mut converged = false;
        for k in 1..=MAX_SERIES_TERMS {
            let n = f64::from(k);
            let t1 = (-(lambda(n) - lambda_1) * t).exp();
            let t3 = primitive(n, gamma, width, y);
            let t4 = (n * PI * x / width).sin();
            sum += t1 * t3 * t4;
            if (t0 * t1 * t3).abs() <= 1e-9 {
                converged = true;
                break;
            }
        }
        if !converged {
            return None;
        }
        let pre = if gamma * width > 30.0 {
            (-2.0 * gamma * x).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - x) / width
        } else {
            (1.0 - (2.0 * gamma * (width - x)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        Some(pre + t0 * sum)
    }

    /// Siegmund's approximation (Fishtest's `outcome_cdf_alt2`), with the
    /// asymptotic expansion of Φ where the exponential factors would overflow.
    fn siegmund(&self, t: f64, y: f64) -> f64 {
        let denom = (t * self.sigma2).sqrt();
        let offset = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let (a, b) = (self.a, self.b);
        let z = (y - offset) / denom;
        let za = (-y + offset + 2.0 * a) / denom;
        let zb = (y - offset - 2.0 * b) / denom;
        let t1 = normal::cdf(z);
        let t2 = scaled_tail(2.0 * gamma * a, za);
        let t3 = scaled_tail(2.0 * gamma * b, zb);
        t1 + t2 - t3
    }
}

/// `e^k · Φ(z)`, through `Φ(z) ≈ φ(z)·(−1/z + 1/z³)` when `k/2 ≥ 5`.
fn scaled_tail(k: f64, z: f64) -> f64 {
    if k / 2.0 >= 5.0 {
        -(-(z * z) / 2.0 + k).exp() / (2.0 * PI).sqrt() * (1.0 / z - 1.0 / z.powi(3))
    } else {
        k.exp() * normal::cdf(z)
    }
}

/// A primitive of `e^(γy)·sin(nπy/A)` times `(2/A)·e^(−γy)` (Fishtest's `U`).
fn primitive(n: f64, gamma: f64, width: f64, y: f64) -> f64 {
    let angle = PI * n * y / width;
    (2.0 * width * gamma * angle.sin() - 2.0 * PI * n * angle.cos())
        / (width * width * gamma * gamma + PI * PI * n * n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_and_siegmund_agree_where_both_apply() {
        let w = Brownian {
            a: -2.94,
            b: 2.94,
            mu: 0.002,
            sigma2: 0.004,
        };
        for (t, y) in [(200.0, 0.5), (500.0, -1.0), (1_000.0, 2.0), (300.0, 0.0)] {
            let exact = w.series(t, y).unwrap();
            let approx = w.siegmund(t, y);
            assert!(
                (exact - approx).abs() < 1e-3,
                "t={t} y={y}: {exact} vs {approx}"
            );
            assert!((0.0..=1.0).contains(&w.outcome_cdf(t, y)));
        }
    }

    #[test]
    fn more_drift_means_fewer_worse_outcomes() {
        let at = |mu: f64| {
            Brownian {
                a: -2.94,
                b: 2.94,
                mu,
                sigma2: 0.01,
            }
            .outcome_cdf(400.0, 0.3)
        };
        assert!(at(-0.005) > at(0.0));
        assert!(at(0.0) > at(0.005));
    }

    #[test]
    fn without_barriers_in_reach_it_is_a_normal_tail() {
        // Barriers out of reach: P(W(t) < y) = Φ((y − μt)/√(σ²t)).
        let w = Brownian {
            a: -100.0,
            b: 100.0,
            mu: 0.01,
            sigma2: 0.04,
        };
        let (t, y) = (100.0, 1.5);
        let want = normal::cdf((y - 1.0) / 2.0);
        assert!((w.outcome_cdf(t, y) - want).abs() < 1e-9);
    }
}
