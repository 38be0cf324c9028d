//! Fishtest's SPSA parameter lines, read and written:
//! `name,int|float,value,min,max,c_end,r_end`, one parameter a line.
//!
//! Blank lines and lines whose first non-blank character is `#` are
//! skipped; whitespace around each field is allowed. A bad line is an
//! [`SpsaLineError`] naming its line number (counted from 1) and the field,
//! never echoing the text (a file may hold anything).

use std::fmt;

use crate::spsa::SpsaParam;

/// The fields of a line, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpsaField {
    /// The parameter's name.
    Name,
    /// `int` or `float`.
    Type,
    /// The start value.
    Value,
    /// The smallest allowed value.
    Min,
    /// The largest allowed value.
    Max,
    /// The final perturbation.
    CEnd,
    /// The final learning rate.
    REnd,
}

impl fmt::Display for SpsaField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpsaField::Name => "name",
            SpsaField::Type => "type",
            SpsaField::Value => "value",
            SpsaField::Min => "min",
            SpsaField::Max => "max",
            SpsaField::CEnd => "c_end",
            SpsaField::REnd => "r_end",
        })
    }
}

/// Fishtest's type word: whether the engine takes the value as an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpsaValueType {
    /// `int`.
    Int,
    /// `float`.
    Float,
}

impl SpsaValueType {
    /// The type word.
    pub const fn as_str(self) -> &'static str {
        match self {
            SpsaValueType::Int => "int",
            SpsaValueType::Float => "float",
        }
    }
}

/// Number of fields in a line.
pub const SPSA_FIELDS: usize = 7;

/// What is wrong with one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpsaLineProblem {
    /// Not seven comma-separated fields.
    #[error(
        "{0} fields where Fishtest's form has {SPSA_FIELDS}: name,int|float,value,min,max,c_end,r_end"
    )]
    FieldCount(usize),
    /// A field with nothing in it.
    #[error("{0} is empty")]
    Empty(SpsaField),
    /// A type word other than `int` or `float`.
    #[error("type is neither int nor float")]
    UnknownType,
    /// A number field that is not a finite number.
    #[error("{0} is not a number")]
    NotANumber(SpsaField),
}

/// A line that does not read, with its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct SpsaLineError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: SpsaLineProblem,
}

/// One parameter line, read.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaLine {
    /// Where it is, counted from 1.
    pub line: usize,
    /// Its type word.
    pub value_type: SpsaValueType,
    /// The parameter, `value` as its start (unvalidated: [`crate::Spsa::new`]
    /// checks ranges and steps).
    pub param: SpsaParam,
}

/// Reads every parameter line of `text`.
///
/// # Errors
/// [`SpsaLineError`] for the first line that does not read.
pub fn parse_spsa_lines(text: &str) -> Result<Vec<SpsaLine>, SpsaLineError> {
    text.lines()
        .enumerate()
        .map(|(i, text)| (i + 1, text.trim()))
        .filter(|(_, text)| !text.is_empty() && !text.starts_with('#'))
        .map(|(line, text)| {
            let (value_type, param) =
                parse_line(text).map_err(|problem| SpsaLineError { line, problem })?;
            Ok(SpsaLine {
                line,
                value_type,
                param,
            })
        })
        .collect()
}

fn parse_line(text: &str) -> Result<(SpsaValueType, SpsaParam), SpsaLineProblem> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
        return Err(SpsaLineProblem::FieldCount(fields.len()));
    };
    if name.is_empty() {
        return Err(SpsaLineProblem::Empty(SpsaField::Name));
    }
    let value_type = if kind.eq_ignore_ascii_case("int") {
        SpsaValueType::Int
    } else if kind.eq_ignore_ascii_case("float") {
        SpsaValueType::Float
    } else if kind.is_empty() {
        return Err(SpsaLineProblem::Empty(SpsaField::Type));
    } else {
        return Err(SpsaLineProblem::UnknownType);
    };
    let number = |field: SpsaField, text: &str| match text.parse::<f64>() {
        _ if text.is_empty() => Err(SpsaLineProblem::Empty(field)),
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(SpsaLineProblem::NotANumber(field)),
    };
    let param = SpsaParam {
        name: name.to_owned(),
        start: number(SpsaField::Value, value)?,
        min: number(SpsaField::Min, min)?,
        max: number(SpsaField::Max, max)?,
        c_end: number(SpsaField::CEnd, c_end)?,
        r_end: number(SpsaField::REnd, r_end)?,
    };
    Ok((value_type, param))
}

/// `param` as a Fishtest line (with its newline), `value` in the value
/// column; numbers as Rust writes them (`556`, `0.002`), as
/// `ajaxlab params --format spsa` does.
pub fn spsa_line(param: &SpsaParam, value_type: SpsaValueType, value: f64) -> String {
    format!(
        "{},{},{value},{},{},{},{}\n",
        param.name,
        value_type.as_str(),
        param.min,
        param.max,
        param.c_end,
        param.r_end
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn falcon(start: f64) -> SpsaParam {
        SpsaParam {
            name: "afc.falcon.mg".into(),
            start,
            min: 250.0,
            max: 1000.0,
            c_end: 25.0,
            r_end: 0.002,
        }
    }

    fn problem(text: &str) -> SpsaLineError {
        parse_spsa_lines(text).unwrap_err()
    }

    #[test]
    fn lines_read_skipping_blanks_and_comments_with_spaces_around_fields() {
        let text = "# tune the falcon\n\n  afc.falcon.mg , int , 556.5, 250,1000 ,25, 0.002 \r\n   # done\nx,FLOAT,1,0,2,0.5,0\n";
        let lines = parse_spsa_lines(text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line, 3);
        assert_eq!(lines[0].value_type, SpsaValueType::Int);
        assert_eq!(lines[0].param, falcon(556.5));
        assert_eq!(lines[1].line, 5);
        assert_eq!(lines[1].value_type, SpsaValueType::Float);
        assert_eq!(lines[1].param.r_end, 0.0);
        assert!(parse_spsa_lines("\n# nothing\n").unwrap().is_empty());
    }

    #[test]
    fn a_written_line_reads_back() {
        let line = spsa_line(&falcon(300.0), SpsaValueType::Int, 556.0);
        assert_eq!(line, "afc.falcon.mg,int,556,250,1000,25,0.002\n");
        let read = parse_spsa_lines(&line).unwrap();
        assert_eq!(read[0].param, falcon(556.0));
    }

    #[test]
    fn each_bad_field_is_named_with_its_line() {
        let good = ["afc.falcon.mg", "int", "556", "250", "1000", "25", "0.002"];
        let fields = [
            SpsaField::Name,
            SpsaField::Type,
            SpsaField::Value,
            SpsaField::Min,
            SpsaField::Max,
            SpsaField::CEnd,
            SpsaField::REnd,
        ];
        for (i, field) in fields.into_iter().enumerate() {
            for (bad, wanted) in [
                ("", SpsaLineProblem::Empty(field)),
                ("x", SpsaLineProblem::NotANumber(field)),
                ("inf", SpsaLineProblem::NotANumber(field)),
                ("NaN", SpsaLineProblem::NotANumber(field)),
            ] {
                let wanted = match (field, bad) {
                    (_, "") => wanted,
                    (SpsaField::Name, _) => continue,
                    (SpsaField::Type, _) => SpsaLineProblem::UnknownType,
                    _ => wanted,
                };
                let mut line = good;
                line[i] = bad;
                let text = format!("{}\n\n{}\n", good.join(","), line.join(","));
                assert_eq!(
                    problem(&text),
                    SpsaLineError {
                        line: 3,
                        problem: wanted
                    },
                    "{text}"
                );
            }
        }
        assert_eq!(
            problem("a,int,1,0,2,1\n").problem,
            SpsaLineProblem::FieldCount(6)
        );
        assert_eq!(
            problem("a,int,1,0,2,1,0.1,9\n").problem,
            SpsaLineProblem::FieldCount(8)
        );
    }

    #[test]
    fn the_error_names_the_field_without_echoing_the_text() {
        let e = problem("a,int,1,0,2,1,root:x:0\n").to_string();
        assert_eq!(e, "line 1: r_end is not a number");
        let e = problem("a,double,1,0,2,1,0.1\n").to_string();
        assert_eq!(e, "line 1: type is neither int nor float");
        let e = problem("a;int;1\n").to_string();
        assert!(
            e.starts_with("line 1: 1 fields where Fishtest's form has 7"),
            "{e}"
        );
    }
}
