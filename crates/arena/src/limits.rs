//! The range of every numeric key of a match file (and so of a campaign
//! file), checked when the match is built, so that no value can exhaust a
//! machine or overflow the arithmetic that uses it. README "Ranges of the
//! numeric keys" lists them; time controls have theirs in [`crate::tc`].

use crate::config::ConfigError;
use crate::referee::Adjudication;
use std::fmt::Display;
use std::ops::RangeInclusive;

/// `games`: games of a match (an even number).
pub const GAMES: RangeInclusive<u64> = 2..=1_000_000_000;
/// `concurrency`: games played at once.
pub const CONCURRENCY: RangeInclusive<usize> = 1..=1024;
/// `hash_mb`: transposition table of each builtin player, MB (the range of
/// the engine's UCI `Hash` option).
pub const HASH_MB: RangeInclusive<usize> = 1..=65_536;
/// `random_plies`: random plies after each start.
pub const RANDOM_PLIES: RangeInclusive<u32> = 0..=100;
/// `time_margin_ms`: clock overrun allowed before a loss on time.
pub const TIME_MARGIN_MS: RangeInclusive<u64> = 0..=60_000;
/// `players[i].startup_timeout_s`: seconds a UCI engine has to start.
pub const STARTUP_TIMEOUT_S: RangeInclusive<u64> = 1..=600;
/// `players[i].move_timeout_s`: seconds a UCI engine has per move under
/// node or depth limits.
pub const MOVE_TIMEOUT_S: RangeInclusive<u64> = 1..=86_400;
/// `adjudication.resign_score`: centipawns.
pub const RESIGN_SCORE: RangeInclusive<i32> = 1..=100_000;
/// `adjudication.draw_score`: centipawns.
pub const DRAW_SCORE: RangeInclusive<i32> = 0..=100_000;
/// `adjudication.resign_moves` and `adjudication.draw_moves`: moves of
/// each side.
pub const ADJUDICATION_MOVES: RangeInclusive<u32> = 1..=1_000;
/// `adjudication.draw_after_move`: a move number.
pub const DRAW_AFTER_MOVE: RangeInclusive<u32> = 0..=10_000;
/// `adjudication.max_plies`: plies from the opening position.
pub const MAX_PLIES: RangeInclusive<u32> = 1..=10_000;

/// `value` of `key` if it lies in `range`.
///
/// # Errors
/// [`ConfigError`] naming `key`, with the value and the range.
pub fn check<T: PartialOrd + Display>(
    key: impl Into<String>,
    value: T,
    range: &RangeInclusive<T>,
) -> Result<T, ConfigError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(ConfigError::new(
            key,
            format!("{value}: must be from {} to {}", range.start(), range.end()),
        ))
    }
}

/// Checks every key of `[adjudication]` (the moves and move numbers even
/// where the score that uses them is unset).
///
/// # Errors
/// [`ConfigError`] naming the first key out of its range
/// (`adjudication.resign_moves`, …).
pub fn check_adjudication(a: &Adjudication) -> Result<(), ConfigError> {
    if let Some(score) = a.resign_score {
        check("adjudication.resign_score", score, &RESIGN_SCORE)?;
    }
    if let Some(score) = a.draw_score {
        check("adjudication.draw_score", score, &DRAW_SCORE)?;
    }
    if let Some(plies) = a.max_plies {
        check("adjudication.max_plies", plies, &MAX_PLIES)?;
    }
    check(
        "adjudication.resign_moves",
        a.resign_moves,
        &ADJUDICATION_MOVES,
    )?;
    check("adjudication.draw_moves", a.draw_moves, &ADJUDICATION_MOVES)?;
    check(
        "adjudication.draw_after_move",
        a.draw_after_move,
        &DRAW_AFTER_MOVE,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_out_of_range_names_the_key_and_the_range() {
        assert_eq!(check("adjudication.max_plies", 200, &MAX_PLIES), Ok(200));
        let e = check("adjudication.max_plies", 0, &MAX_PLIES);
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("adjudication.max_plies: 0: must be from 1 to 10000".to_owned())
        );
    }
}
