//! Result counts as users paste them: `--wdl` (W,D,L or keyed
//! `w=…,d=…,l=…`), cutechess-cli's `Score of A vs B: W - L - D [s] N`,
//! fastchess's `Games: N, Wins: W, Losses: L, Draws: D` and Fishtest's
//! `W: … L: … D: …` (with a `Ptnml(0-2): …` line, fastchess's or
//! Fishtest's, if pasted, preferred). Each form has its own order, so each is read by its own
//! parser and none is guessed from the numbers.

use crate::{Counts, Pentanomial, Trinomial};

/// Pasted counts that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountsError {
    /// A count that is not a non-negative integer.
    #[error("{flag}: '{text}' is not a count")]
    NotACount {
        /// The flag.
        flag: &'static str,
        /// The text.
        text: String,
    },
    /// The wrong number of counts.
    #[error("{flag}: {expected} comma-separated counts expected, {given} given")]
    Arity {
        /// The flag.
        flag: &'static str,
        /// How many are needed.
        expected: usize,
        /// How many were given.
        given: usize,
    },
    /// A key given twice, missing, or unknown.
    #[error("{flag}: {message}")]
    Keys {
        /// The flag.
        flag: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A cutechess-cli line without `W - L - D`.
    #[error(
        "--cutechess '{0}': expected cutechess-cli's \"Score of A vs B: W - L - D [score] N\" (wins - losses - draws) or fastchess's \"Games: N, Wins: W, Losses: L, Draws: D\""
    )]
    Cutechess(String),
    /// A cutechess-cli line whose total disagrees with its counts.
    #[error("--cutechess: {wins} - {losses} - {draws} makes {sum} games, the line says {total}")]
    CutechessTotal {
        /// Wins.
        wins: u64,
        /// Losses.
        losses: u64,
        /// Draws.
        draws: u64,
        /// Their sum.
        sum: u64,
        /// The total the line gives.
        total: u64,
    },
}

fn count(flag: &'static str, text: &str) -> Result<u64, CountsError> {
    text.trim().parse().map_err(|_| CountsError::NotACount {
        flag,
        text: text.trim().to_owned(),
    })
}

/// `n` comma-separated counts; each may be a sum (`40+5`).
///
/// # Errors
/// [`CountsError`] naming `flag`.
pub fn counts_list(flag: &'static str, text: &str, n: usize) -> Result<Vec<u64>, CountsError> {
    let values = text
        .split(',')
        .map(|part| part.split('+').map(|x| count(flag, x)).sum())
        .collect::<Result<Vec<u64>, _>>()?;
    if values.len() != n {
        return Err(CountsError::Arity {
            flag,
            expected: n,
            given: values.len(),
        });
    }
    Ok(values)
}

/// Wins, draws and losses from `(key, value)` pairs: each of the three keys
/// exactly once, matched case-insensitively.
fn keyed(
    flag: &'static str,
    pairs: impl Iterator<Item = (String, String)>,
    keys: [&str; 3],
) -> Result<Trinomial, CountsError> {
    let mut values: [Option<u64>; 3] = [None; 3];
    for (key, value) in pairs {
        let Some(i) = keys.iter().position(|k| k.eq_ignore_ascii_case(key.trim())) else {
            return Err(CountsError::Keys {
                flag,
                message: format!("unknown key '{}': expected {}", key.trim(), keys.join(", ")),
            });
        };
        if values[i].replace(count(flag, &value)?).is_some() {
            return Err(CountsError::Keys {
                flag,
                message: format!("{} given twice", keys[i]),
            });
        }
    }
    match values {
        [Some(wins), Some(draws), Some(losses)] => Ok(Trinomial::new(losses, draws, wins)),
        _ => Err(CountsError::Keys {
            flag,
            message: format!("all of {} needed", keys.join(", ")),
        }),
    }
}

/// `--wdl`: `W,D,L` (wins, draws, losses of the first player) or keyed
/// `w=W,d=D,l=L` in any order.
///
/// # Errors
/// [`CountsError`] naming `--wdl`.
pub fn wdl(text: &str) -> Result<Counts, CountsError> {
    const FLAG: &str = "--wdl";
    if text.contains('=') {
        let pairs = text.split(',').map(|part| {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            (k.to_owned(), v.to_owned())
        });
        return keyed(FLAG, pairs, ["w", "d", "l"]).map(Counts::from);
    }
    let v = counts_list(FLAG, text, 3)?;
    Ok(Trinomial::new(v[2], v[1], v[0]).into())
}

/// `--cutechess`: the `Score of A vs B: W - L - D [score] N` line
/// cutechess-cli (and fastchess in its cutechess mode) print, or
/// fastchess's own result block (`Games: N, Wins: W, Losses: L, Draws: D`,
/// its `Ptnml(0-2): [..]` preferred when pasted too); a total, when
/// present, must agree.
///
/// # Errors
/// [`CountsError`] naming `--cutechess`.
pub fn cutechess(text: &str) -> Result<Counts, CountsError> {
    const FLAG: &str = "--cutechess";
    if let Some(penta) = ptnml(FLAG, text) {
        return penta;
    }
    if text.contains("Wins:") {
        return fastchess_games(text);
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let found = tokens.windows(5).enumerate().find_map(|(i, w)| {
        let numbers = [w[0], w[2], w[4]].map(|t| t.parse::<u64>().ok());
        match (w[1], w[3], numbers) {
            ("-", "-", [Some(a), Some(b), Some(c)]) => Some((i, [a, b, c])),
            _ => None,
        }
    });
    let Some((at, [wins, losses, draws])) = found else {
        return Err(CountsError::Cutechess(text.to_owned()));
    };
    // `[0.550] 400` follows the counts in cutechess-cli's line.
    let total = tokens
        .get(at + 5..at + 7)
        .filter(|t| t[0].starts_with('['))
        .map(|t| count(FLAG, t[1]))
        .transpose()?;
    let sum = wins + losses + draws;
    if let Some(total) = total.filter(|&t| t != sum) {
        return Err(CountsError::CutechessTotal {
            wins,
            losses,
            draws,
            sum,
            total,
        });
    }
    Ok(Trinomial::new(losses, draws, wins).into())
}

/// `--fishtest`: the counts as Fishtest shows them, `W: 120 L: 80 D: 200`
/// (any order; the rest of a pasted block such as `LLR:` and `Total:`
/// ignored); if `Ptnml(0-2): LL, LD, DD+WL, WD, WW`
/// is pasted too, the pentanomial counts are used, as Fishtest does.
///
/// # Errors
/// [`CountsError`] naming `--fishtest`.
pub fn fishtest(text: &str) -> Result<Counts, CountsError> {
    const FLAG: &str = "--fishtest";
    if let Some(penta) = ptnml(FLAG, text) {
        return penta;
    }
    // Only `W:`, `L:` and `D:` are read: the rest of a pasted block
    // (`LLR: …`, `Total: …`, `Elo: …`) is not counts.
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let pairs = tokens
        .windows(2)
        .filter(|w| ["W:", "L:", "D:"].contains(&w[0]))
        .map(|w| (w[0].trim_end_matches(':').to_owned(), w[1].to_owned()));
    keyed(FLAG, pairs, ["W", "D", "L"]).map(Counts::from)
}

/// The pentanomial counts of a pasted `Ptnml(0-2): LL, LD, DD+WL, WD, WW`
/// line, Fishtest's bare or fastchess's in brackets; `None` without one.
fn ptnml(flag: &'static str, text: &str) -> Option<Result<Counts, CountsError>> {
    let (_, rest) = text.split_once("Ptnml(0-2):")?;
    let list: String = rest
        .trim_start()
        .trim_start_matches('[')
        .split_whitespace()
        .map(|t| t.trim_end_matches(',').trim_end_matches(']'))
        .take_while(|t| t.parse::<u64>().is_ok())
        .collect::<Vec<_>>()
        .join(",");
    Some(
        counts_list(flag, &list, 5)
            .map(|v| Pentanomial::new([v[0], v[1], v[2], v[3], v[4]]).into()),
    )
}

/// fastchess's `Games: N, Wins: W, Losses: L, Draws: D, Points: …` line.
fn fastchess_games(text: &str) -> Result<Counts, CountsError> {
    const FLAG: &str = "--cutechess";
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let pairs = tokens
        .windows(2)
        .filter(|w| ["Wins:", "Losses:", "Draws:"].contains(&w[0]))
        .map(|w| (w[0][..1].to_owned(), w[1].to_owned()));
    let counts = keyed(FLAG, pairs, ["W", "D", "L"])?;
    let total = tokens
        .windows(2)
        .find(|w| w[0] == "Games:")
        .map(|w| count(FLAG, w[1]))
        .transpose()?;
    let sum = counts.wins + counts.draws + counts.losses;
    if let Some(total) = total.filter(|&t| t != sum) {
        return Err(CountsError::CutechessTotal {
            wins: counts.wins,
            losses: counts.losses,
            draws: counts.draws,
            sum,
            total,
        });
    }
    Ok(counts.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl_of(counts: Counts) -> (u64, u64, u64) {
        match counts {
            Counts::Trinomial(t) => (t.wins, t.draws, t.losses),
            Counts::Pentanomial(_) => panic!("trinomial expected"),
        }
    }

    #[test]
    fn every_pasted_form_reads_the_same_counts() {
        let expected = (120, 200, 80);
        assert_eq!(wdl_of(wdl("120,200,80").unwrap()), expected);
        assert_eq!(wdl_of(wdl("w=120,d=200,l=80").unwrap()), expected);
        assert_eq!(wdl_of(wdl("l=80, W=120, d=200").unwrap()), expected);
        assert_eq!(
            wdl_of(cutechess("Score of A vs B: 120 - 80 - 200 [0.550] 400").unwrap()),
            expected
        );
        assert_eq!(wdl_of(cutechess("120 - 80 - 200").unwrap()), expected);
        assert_eq!(wdl_of(fishtest("W: 120 L: 80 D: 200").unwrap()), expected);
        assert_eq!(
            wdl_of(
                cutechess("Games: 400, Wins: 120, Losses: 80, Draws: 200, Points: 220.0 (55.00 %)")
                    .unwrap()
            ),
            expected
        );
        assert_eq!(
            wdl_of(
                fishtest("LLR: 0.33 (-2.94,2.94) <-1.75,0.25>\nTotal: 400 W: 120 L: 80 D: 200")
                    .unwrap()
            ),
            expected
        );
    }

    #[test]
    fn fishtest_pentanomial_counts_win_over_its_game_counts() {
        let c = fishtest("Total: 400 W: 120 L: 80 D: 200\nPtnml(0-2): 10, 30, 80, 50, 30").unwrap();
        assert_eq!(c, Pentanomial::new([10, 30, 80, 50, 30]).into());
        let fastchess = "Games: 400, Wins: 120, Losses: 80, Draws: 200, Points: 220.0 (55.00 %)\n\
                         Ptnml(0-2): [10, 30, 80, 50, 30], WL/DD Ratio: 1.00";
        assert_eq!(
            cutechess(fastchess).unwrap(),
            Pentanomial::new([10, 30, 80, 50, 30]).into()
        );
        assert!(matches!(
            cutechess("Games: 401, Wins: 120, Losses: 80, Draws: 200"),
            Err(CountsError::CutechessTotal {
                sum: 400,
                total: 401,
                ..
            })
        ));
    }

    #[test]
    fn bad_pastes_are_named() {
        assert!(matches!(wdl("w=1,d=2"), Err(CountsError::Keys { .. })));
        assert!(matches!(
            wdl("w=1,d=2,l=3,w=4"),
            Err(CountsError::Keys { .. })
        ));
        assert!(matches!(wdl("w=1,d=2,x=3"), Err(CountsError::Keys { .. })));
        assert!(matches!(wdl("1,2"), Err(CountsError::Arity { .. })));
        assert!(matches!(
            cutechess("Score of A vs B: 120 - 80 - 200 [0.550] 401"),
            Err(CountsError::CutechessTotal {
                sum: 400,
                total: 401,
                ..
            })
        ));
        assert!(matches!(
            cutechess("120 80 200"),
            Err(CountsError::Cutechess(_))
        ));
        assert!(matches!(
            fishtest("W: 120 L: 80"),
            Err(CountsError::Keys { .. })
        ));
        assert!(matches!(
            fishtest("W: 120 L: x D: 3"),
            Err(CountsError::NotACount { .. })
        ));
    }
}
