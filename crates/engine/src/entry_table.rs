//! Evaluation parameters laid out as a table: rows (a piece) of columns
//! (a number of squares it reaches), with a middlegame and an endgame
//! entry in each cell, named `PREFIX.ROW.COLUMN.PHASE`
//! (`chess.mobility.knight.3.mg`). The evaluation adds one cell's entries
//! per feature it sees, so it is linear in every entry and a tuner fits
//! them on their exact gradient ([`Placed`] says which cells a position
//! uses). Chess's mobility tables are a table of this kind.

use crate::params::{ParamSpec, Reader, Variants};
use std::sync::OnceLock;

/// The largest size of an entry, either way, in centipawns.
const LIMIT: i32 = 200;

/// One row of a table: its name in the parameters' names and the labels
/// of its columns, in order.
pub(crate) struct Row {
    pub(crate) name: &'static str,
    pub(crate) columns: &'static [u8],
}

/// A table of entries; its parameters are made once, at first use.
pub(crate) struct EntryTable {
    /// The names' first part (`chess.mobility`).
    pub(crate) prefix: &'static str,
    pub(crate) rows: &'static [Row],
    /// What a cell means, for the parameters' documentation, given the
    /// row's name and the column's label (`a knight reaching 3 squares of
    /// its mobility area`).
    pub(crate) meaning: fn(&str, u8) -> String,
    /// The default of the cell at a row's and a column's index, middlegame
    /// or endgame.
    pub(crate) default: fn(usize, usize, bool) -> i32,
    pub(crate) specs: OnceLock<Vec<ParamSpec>>,
}

/// The two entries of one cell, and which way a feature counts from
/// White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    /// The middlegame entry's index into the table's parameters.
    pub(crate) middlegame: usize,
    /// The endgame entry's.
    pub(crate) endgame: usize,
    /// +1 for White's feature, −1 for Black's.
    pub(crate) sign: i32,
}

impl EntryTable {
    /// The parameters of every entry: by row, then phase, then column.
    pub(crate) fn specs(&self) -> &[ParamSpec] {
        self.specs.get_or_init(|| {
            let mut out = Vec::new();
            for (row_index, row) in self.rows.iter().enumerate() {
                for middlegame in [true, false] {
                    let (phase, words) = if middlegame {
                        ("mg", "middlegame")
                    } else {
                        ("eg", "endgame")
                    };
                    for (column_index, &column) in row.columns.iter().enumerate() {
                        let name = format!("{}.{}.{column}.{phase}", self.prefix, row.name);
                        let doc = format!(
                            "Chess and Chess960: {}, {words}.",
                            (self.meaning)(row.name, column)
                        );
                        out.push(ParamSpec {
                            name: Box::leak(name.into_boxed_str()),
                            default: (self.default)(row_index, column_index, middlegame),
                            min: -LIMIT,
                            max: LIMIT,
                            c_end: 4.0,
                            r_end: 0.002,
                            doc: Box::leak(doc.into_boxed_str()),
                            reader: Reader::Evaluation(Variants::CHESS),
                            piece: None,
                        });
                    }
                }
            }
            out
        })
    }

    /// The index into [`EntryTable::specs`] of the entry named `name`, if
    /// it is one of the table's.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        let rest = name.strip_prefix(self.prefix)?.strip_prefix('.')?;
        let mut parts = rest.split('.');
        let (row, column, phase) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let row = self.rows.iter().position(|r| r.name == row)?;
        // Digits only: the integer parser would also take a leading `+`.
        if !column.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let label: u8 = column.parse().ok()?;
        let column = self.rows[row].columns.iter().position(|&c| c == label)?;
        let middlegame = match phase {
            "mg" => true,
            "eg" => false,
            _ => return None,
        };
        self.index(row, column, middlegame)
    }

    /// The index into [`EntryTable::specs`] of the entry at a row's and a
    /// column's index in one phase, if the row has that column.
    fn index(&self, row: usize, column: usize, middlegame: bool) -> Option<usize> {
        let width = self.rows.get(row)?.columns.len();
        if column >= width {
            return None;
        }
        let before: usize = self.rows[..row].iter().map(|r| 2 * r.columns.len()).sum();
        Some(before + if middlegame { 0 } else { width } + column)
    }

    /// The cell at a row's index and a column's label, for a feature
    /// counting `sign` (+1 White, −1 Black) from White's side.
    pub(crate) fn placed(&self, row: usize, label: u8, sign: i32) -> Option<Placed> {
        let column = self
            .rows
            .get(row)?
            .columns
            .iter()
            .position(|&c| c == label)?;
        Some(Placed {
            middlegame: self.index(row, column, true)?,
            endgame: self.index(row, column, false)?,
            sign,
        })
    }

    /// The entries of the cell at a row's index and a column's label under
    /// `value_of` (a parameter set's reading), `(middlegame, endgame)`;
    /// zero for a cell the table does not have.
    pub(crate) fn values(
        &self,
        row: usize,
        label: u8,
        value_of: impl Fn(&ParamSpec) -> i32,
    ) -> (i32, i32) {
        let specs = self.specs();
        self.placed(row, label, 1).map_or((0, 0), |at| {
            (
                value_of(&specs[at.middlegame]),
                value_of(&specs[at.endgame]),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: EntryTable = EntryTable {
        prefix: "test.table",
        rows: &[
            Row {
                name: "short",
                columns: &[0, 1],
            },
            Row {
                name: "gapped",
                columns: &[0, 2, 3],
            },
        ],
        meaning: |row, column| format!("{row} {column}"),
        default: |row, column, middlegame| {
            (10 * row + column) as i32 * if middlegame { 1 } else { -1 }
        },
        specs: OnceLock::new(),
    };

    #[test]
    fn every_entry_has_one_name_one_index_and_its_default() {
        let specs = TABLE.specs();
        assert_eq!(specs.len(), 2 * (2 + 3));
        for (at, spec) in specs.iter().enumerate() {
            assert_eq!(TABLE.find(spec.name), Some(at), "{}", spec.name);
        }
        let at = TABLE.find("test.table.gapped.3.eg").unwrap();
        assert_eq!(specs[at].default, -12);
        let placed = TABLE.placed(1, 2, -1).unwrap();
        assert_eq!(specs[placed.middlegame].name, "test.table.gapped.2.mg");
        assert_eq!(specs[placed.endgame].name, "test.table.gapped.2.eg");
    }

    #[test]
    fn names_outside_the_table_are_not_entries() {
        for name in [
            "test.table.short.2.mg",
            "test.table.gapped.1.mg",
            "test.table.long.0.mg",
            "test.table.short.+1.mg",
            "test.table.short.1.xg",
            "test.table.short.1.mg.x",
            "test.tablet.short.1.mg",
            "test.table.short",
        ] {
            assert_eq!(TABLE.find(name), None, "{name}");
        }
        assert_eq!(TABLE.placed(0, 2, 1), None);
        assert_eq!(TABLE.values(0, 2, |s| s.default), (0, 0));
    }
}
