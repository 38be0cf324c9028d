//! Names people give players and workers: printable text of bounded
//! length, refused otherwise, so that a name cannot break a PGN tag (a
//! newline ends one), a log line or a page, nor hide what it says (a
//! right-to-left override reverses what follows it).

/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 128;

/// A name that cannot be used, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// More than [`MAX_NAME_CHARS`] characters.
    #[error("{0} characters long: use at most {MAX_NAME_CHARS}")]
    TooLong(usize),
    /// A control character (newline, NUL, …) or an invisible formatting
    /// one (direction overrides, zero-width characters).
    #[error("character {position} is U+{code:04X}, which is not printable text")]
    NotPrintable {
        /// Its place, counting from 1.
        position: usize,
        /// Its code point.
        code: u32,
    },
}

/// Checks that `name` is printable text of at most [`MAX_NAME_CHARS`]
/// characters.
///
/// # Errors
/// [`NameError`] naming the first fault.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return Err(NameError::TooLong(length));
    }
    match name.chars().position(|c| !printable(c)) {
        Some(i) => Err(NameError::NotPrintable {
            position: i + 1,
            code: name.chars().nth(i).map_or(0, u32::from),
        }),
        None => Ok(()),
    }
}

/// Whether `c` shows as itself: not a control character, and not one of
/// Unicode's invisible formatting characters (zero-width, direction
/// marks, embeddings, overrides and isolates, the byte-order mark).
fn printable(c: char) -> bool {
    !c.is_control()
        && !matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_names_pass_and_others_are_named() {
        assert_eq!(check_name("Fairy-Stockfish 14 (dev) ♞ Élodie"), Ok(()));
        assert_eq!(
            check_name("a\nb"),
            Err(NameError::NotPrintable {
                position: 2,
                code: 0x0a
            })
        );
        assert_eq!(
            check_name("x\u{0}"),
            Err(NameError::NotPrintable {
                position: 2,
                code: 0
            })
        );
        assert_eq!(
            check_name("evil\u{202e}gpj.exe").unwrap_err().to_string(),
            "character 5 is U+202E, which is not printable text"
        );
        assert_eq!(check_name(&"n".repeat(129)), Err(NameError::TooLong(129)));
    }
}
