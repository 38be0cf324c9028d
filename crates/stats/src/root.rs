//! Brent's bracketing root finder (the method behind SciPy's `brentq`, which
//! Fishtest uses for every one-dimensional solve).

/// Absolute tolerance on the root, SciPy's `brentq` default.
const X_TOL: f64 = 2e-12;

/// Iteration cap, SciPy's `brentq` default.
const MAX_ITER: usize = 100;

/// Why no root was returned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RootError {
    /// `f(lo)` and `f(hi)` have the same sign (or one is NaN).
    NotBracketed,
    /// The iteration cap was reached; carries the last iterate.
    NoConvergence(f64),
}

/// Finds `x` in `[lo, hi]` with `f(x) = 0`, given that `f(lo)` and `f(hi)`
/// have opposite signs: Brent's combination of bisection, secant and inverse
/// quadratic interpolation, which never does worse than bisection.
pub(crate) fn brent(mut f: impl FnMut(f64) -> f64, lo: f64, hi: f64) -> Result<f64, RootError> {
    let (mut a, mut b) = (lo, hi);
    let (mut fa, mut fb) = (f(a), f(b));
    if fa.is_nan() || fb.is_nan() {
        return Err(RootError::NotBracketed);
    }
    if fa == 0.0 {
        return Ok(a);
    }
    if fb == 0.0 {
        return Ok(b);
    }
    if (fa > 0.0) == (fb > 0.0) {
        return Err(RootError::NotBracketed);
    }
    // `c` is the contrapoint: the root always lies between `b` and `c`.
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..MAX_ITER {
        if (fb > 0.0) == (fc > 0.0) {
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol = 2.0 * f64::EPSILON * b.abs() + 0.5 * X_TOL;
        let m = 0.5 * (c - b);
        if m.abs() <= tol || fb == 0.0 {
            return Ok(b);
        }
        if e.abs() >= tol && fa.abs() > fb.abs() {
            let s = fb / fa;
            let (mut p, mut q) = if a == c {
                (2.0 * m * s, 1.0 - s)
            } else {
                let q = fa / fc;
                let r = fb / fc;
                (
                    s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0)),
                    (q - 1.0) * (r - 1.0) * (s - 1.0),
                )
            };
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < (3.0 * m * q - (tol * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        } else {
            d = m;
            e = m;
        }
        a = b;
        fa = fb;
        b += if d.abs() > tol { d } else { tol.copysign(m) };
        fb = f(b);
        if fb.is_nan() {
            return Err(RootError::NoConvergence(b));
        }
    }
    Err(RootError::NoConvergence(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_simple_roots() {
        let r = brent(|x| x * x - 2.0, 0.0, 2.0).unwrap();
        assert!((r - 2.0_f64.sqrt()).abs() < 1e-11);
        let r = brent(|x| x.cos() - x, -1.0, 1.0).unwrap();
        assert!((r - 0.739_085_133_215_160_6).abs() < 1e-11);
        // Roots at the ends of the bracket.
        assert_eq!(brent(|x| x, 0.0, 1.0), Ok(0.0));
        assert_eq!(brent(|x| x - 1.0, 0.0, 1.0), Ok(1.0));
    }

    #[test]
    fn handles_steep_poles_like_the_secular_equation() {
        // Shaped like Fishtest's secular function near its poles.
        let f = |x: f64| 0.3 / (1.0 + x) - 0.7 / (1.0 - 2.0 * x);
        let r = brent(f, -1.0 + 1e-9, 0.5 - 1e-9).unwrap();
        assert!(f(r).abs() < 1e-9);
    }

    #[test]
    fn rejects_unbracketed_intervals() {
        assert_eq!(
            brent(|x| x * x + 1.0, -1.0, 1.0),
            Err(RootError::NotBracketed)
        );
        assert_eq!(brent(|_| f64::NAN, -1.0, 1.0), Err(RootError::NotBracketed));
    }
}
