//! Plain-text tables for the terminal: a header, a rule, rows; the first
//! column left-aligned, the others right-aligned.

use std::fmt::{self, Write as _};

/// A table being built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub(crate) fn new<S: ToString>(header: impl IntoIterator<Item = S>) -> Self {
        Self {
            header: header.into_iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; missing cells are blank.
    pub(crate) fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let columns = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.header.len()])
            .max()
            .unwrap_or(0);
        let mut widths = vec![0; columns];
        for row in self.rows.iter().chain([&self.header]) {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |row: &[String]| {
            let mut out = String::new();
            for (i, w) in widths.iter().enumerate() {
                let cell = row.get(i).map_or("", String::as_str);
                if i > 0 {
                    out.push_str("  ");
                }
                // `write!` to a String cannot fail.
                let _ = if i == 0 {
                    write!(out, "{cell:<w$}")
                } else {
                    write!(out, "{cell:>w$}")
                };
            }
            out.trim_end().to_owned()
        };
        writeln!(f, "  {}", line(&self.header))?;
        let total = widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
        writeln!(f, "  {}", "-".repeat(total))?;
        for row in &self.rows {
            writeln!(f, "  {}", line(row))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(["name", "value"]);
        t.row(["pawn", "1.00"]);
        t.row(["falcon", "5.5"]);
        let text = t.to_string();
        assert_eq!(
            text,
            "  name    value\n  -------------\n  pawn     1.00\n  falcon    5.5\n"
        );
    }
}
