//! Names of run directories and plot files, made from names users give.

/// `name` fit to be part of a file name on any system: characters other
/// than letters, digits, `.`, `_` and `-` replaced by `_`.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::file_safe;

    #[test]
    fn only_letters_digits_dots_underscores_and_hyphens_remain() {
        assert_eq!(file_safe("fsf a/b:c-1.2_x"), "fsf_a_b_c-1.2_x");
    }
}
