//! The parameter list of a campaign's `[spsa]` table, given exactly one of
//! three ways: `[[spsa.params]]` tables, Fishtest's lines inline
//! (`params_text = """…"""`), or Fishtest's lines in a file
//! (`params_file = "tune.txt"`, captured at create time like the
//! campaign's other files, see [`crate::campaign::inputs`]).
//!
//! Fishtest's type word: every engine parameter is an integer, so `float`
//! is taken as `int`. θ is a real number during the tune either way; each
//! game plays it rounded (stochastically) and the final values are rounded.

use ajaxlab_arena::ConfigError;
use ajaxlab_stats::parse_spsa_lines;
use serde::Deserialize;

/// The key of Fishtest's lines inline.
pub(crate) const PARAMS_TEXT: &str = "spsa.params_text";

/// The key of a file of Fishtest's lines.
pub(crate) const PARAMS_FILE: &str = "spsa.params_file";

/// The key of the `[[spsa.params]]` tables.
const PARAMS: &str = "spsa.params";

/// One `[[spsa.params]]` entry (or one line, read).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpsaParamTable {
    pub(crate) name: String,
    pub(crate) start: Option<f64>,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) c_end: f64,
    pub(crate) r_end: f64,
}

/// Where a parameter was given, so that an error names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The `i`-th `[[spsa.params]]` table.
    Table(usize),
    /// A line of [`PARAMS_TEXT`] or of the file of [`PARAMS_FILE`].
    Line {
        /// The key that gave the line.
        key: &'static str,
        /// `file PATH: ` for a file, else empty.
        origin: String,
        /// The line, counted from 1.
        line: usize,
    },
}

impl Place {
    /// An error about `field` (a `[[spsa.params]]` key) of this parameter.
    pub(crate) fn error(&self, field: &str, message: impl Into<String>) -> ConfigError {
        match self {
            Place::Table(i) => err(&format!("{PARAMS}[{i}].{field}"), message),
            Place::Line { key, origin, line } => {
                // Fishtest calls the start `value`.
                let field = if field == "start" { "value" } else { field };
                err(
                    key,
                    format!("{origin}line {line}: {field}: {}", message.into()),
                )
            }
        }
    }

    /// The error for a name that is no engine parameter; a line's name is
    /// not echoed (a file may hold anything).
    pub(crate) fn unknown_name(&self, name: &str) -> ConfigError {
        match self {
            Place::Table(_) => self.error("name", format!("'{name}' is not an engine parameter")),
            Place::Line { .. } => self.error(
                "name",
                "not an engine parameter (`ajaxlab params` lists them)",
            ),
        }
    }
}

/// The parameters of an `[spsa]` table with where each was given.
#[derive(Clone, Debug)]
pub(crate) struct ParamList {
    /// The key the list was given under.
    pub(crate) key: &'static str,
    /// The parameters, in order.
    pub(crate) entries: Vec<(Place, SpsaParamTable)>,
}

fn err(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::new(key.to_owned(), message.into())
}

/// The list from whichever of `params`, `text` (Fishtest's lines) and
/// `file` (a file of them, read now) is given.
///
/// # Errors
/// [`ConfigError`] if none or more than one is given, the file cannot be
/// read, a line does not read (naming the line and the field), or no line
/// names a parameter.
pub(crate) fn param_list(
    params: Option<Vec<SpsaParamTable>>,
    text: Option<String>,
    file: Option<String>,
) -> Result<ParamList, ConfigError> {
    let (key, origin, text) = match (params, text, file) {
        (Some(params), None, None) => {
            let entries = params
                .into_iter()
                .enumerate()
                .map(|(i, p)| (Place::Table(i), p))
                .collect();
            return Ok(ParamList {
                key: PARAMS,
                entries,
            });
        }
        (None, Some(text), None) => (PARAMS_TEXT, String::new(), text),
        (None, None, Some(path)) => {
            let text = ajaxlab_files::read_text(path.as_ref(), ajaxlab_files::limits::PARAMS_FILE)
                .map_err(|e| err(PARAMS_FILE, format!("file {path}: {e}")))?;
            (PARAMS_FILE, format!("file {path}: "), text)
        }
        _ => {
            return Err(err(
                "spsa",
                "give the parameters exactly one way: [[spsa.params]] tables, params_text (Fishtest's lines) or params_file (a file of them)",
            ));
        }
    };
    let lines = parse_spsa_lines(&text).map_err(|e| err(key, format!("{origin}{e}")))?;
    if lines.is_empty() {
        return Err(err(
            key,
            format!("{origin}no parameter lines (name,int,value,min,max,c_end,r_end)"),
        ));
    }
    let entries = lines
        .into_iter()
        .map(|l| {
            let place = Place::Line {
                key,
                origin: origin.clone(),
                line: l.line,
            };
            let p = l.param;
            let table = SpsaParamTable {
                name: p.name,
                start: Some(p.start),
                min: p.min,
                max: p.max,
                c_end: p.c_end,
                r_end: p.r_end,
            };
            (place, table)
        })
        .collect();
    Ok(ParamList { key, entries })
}

#[cfg(test)]
mod tests {
    use crate::campaign::{CampaignKind, parse_campaign};
    use ajaxlab_arena::ConfigError;
    use ajaxlab_engine::{ParamSpec, Params};
    use ajaxlab_stats::SpsaConfig;

    const HEAD: &str = "games = 20\n[campaign]\nname = \"t\"\nkind = \"spsa\"\n[spsa]\n";

    fn tune(text: &str) -> SpsaConfig {
        match parse_campaign(text).unwrap().remove(0).kind {
            CampaignKind::Spsa { tune, .. } => tune,
            other => panic!("{other:?}"),
        }
    }

    fn error(spsa: &str) -> ConfigError {
        parse_campaign(&format!("{HEAD}{spsa}")).unwrap_err()
    }

    fn inline(lines: &str) -> String {
        format!("{HEAD}params_text = \"\"\"\n{lines}\"\"\"\n")
    }

    fn specs() -> Vec<&'static ParamSpec> {
        ajaxlab_engine::tune::read_by(ajaxlab_rules::VariantKind::AjaxFalcon.variant())
    }

    #[test]
    fn the_params_command_s_lines_tune_as_the_tables_do() {
        let mut values = Params::default();
        values.set("afc.falcon.mg", 601).unwrap();
        let lines = values.to_spsa(&specs());
        let tables: String = specs()
            .iter()
            .map(|s| {
                format!(
                    "[[spsa.params]]\nname = \"{}\"\nstart = {}\nmin = {}\nmax = {}\nc_end = {:?}\nr_end = {:?}\n",
                    s.name,
                    values.get(s.name).unwrap(),
                    s.min,
                    s.max,
                    s.c_end,
                    s.r_end
                )
            })
            .collect();
        let from_tables = tune(&format!("{HEAD}{tables}"));
        assert_eq!(from_tables.params.len(), specs().len());
        assert_eq!(tune(&inline(&lines)), from_tables);

        let path =
            std::env::temp_dir().join(format!("ajaxlab-spsa-list-{}.txt", std::process::id()));
        std::fs::write(&path, format!("# from ajaxlab params\n\n{lines}")).unwrap();
        let from_file = tune(&format!("{HEAD}params_file = \"{}\"\n", path.display()));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(from_file, from_tables);
    }

    #[test]
    fn float_is_taken_as_int() {
        let line = |kind: &str| {
            inline(&format!(
                "afc.falcon.mg, {kind}, 600.5, 250, 1000, 25, 0.002\n"
            ))
        };
        let float = tune(&line("float"));
        assert_eq!(float, tune(&line("int")));
        assert_eq!(float.params[0].start, 600.5);
    }

    #[test]
    fn a_bad_line_names_the_key_line_and_field() {
        let good = "afc.falcon.mg,int,556,250,1000,25,0.002\n";
        for (lines, message) in [
            (
                format!("{good}\nafc.falcon.eg,int,556,250,1000,25,x\n"),
                "line 3: r_end is not a number",
            ),
            (
                format!("{good}afc.falcon.eg,int,556,250\n"),
                "line 2: 4 fields where Fishtest's form has 7: name,int|float,value,min,max,c_end,r_end",
            ),
            (
                "afc.secret,int,556,250,1000,25,0.002\n".to_owned(),
                "line 1: name: not an engine parameter (`ajaxlab params` lists them)",
            ),
            (
                "afc.falcon.mg,int,556,250,99999,25,0.002\n".to_owned(),
                "line 1: max: 99999 is outside afc.falcon.mg's range 250..=1000",
            ),
            (
                "afc.falcon.mg,int,50,250,1000,25,0.002\n".to_owned(),
                "line 1: value: invalid SPSA configuration: parameter \"afc.falcon.mg\": start 50 is outside the range",
            ),
            (
                "afc.falcon.mg,int,556,250,1000,0,0.002\n".to_owned(),
                "line 1: c_end: invalid SPSA configuration: parameter \"afc.falcon.mg\": c_end 0 is not positive",
            ),
            (
                format!("{good}{good}"),
                "invalid SPSA configuration: parameter name \"afc.falcon.mg\" is used twice",
            ),
            (
                "# nothing\n".to_owned(),
                "no parameter lines (name,int,value,min,max,c_end,r_end)",
            ),
        ] {
            let e = parse_campaign(&inline(&lines)).unwrap_err();
            assert_eq!(
                (e.key.as_str(), e.message.as_str()),
                ("spsa.params_text", message),
                "{lines}"
            );
        }
    }

    #[test]
    fn a_file_s_errors_name_it_and_exactly_one_list_is_given() {
        let path =
            std::env::temp_dir().join(format!("ajaxlab-spsa-bad-{}.txt", std::process::id()));
        std::fs::write(
            &path,
            "afc.falcon.mg,int,556,250,1000,25,0.002\nafc.falcon.eg,int,556,250,1000,25,root:x\n",
        )
        .unwrap();
        let e = error(&format!("params_file = \"{}\"\n", path.display()));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            e.to_string(),
            format!(
                "spsa.params_file: file {}: line 2: r_end is not a number",
                path.display()
            )
        );
        let e = error(&format!("params_file = \"{}\"\n", path.display()));
        assert_eq!(e.key, "spsa.params_file");
        assert!(
            e.message.starts_with(&format!("file {}: ", path.display())),
            "{e}"
        );
        let table = "[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 300\nmax = 900\nc_end = 20\nr_end = 0.002\n";
        for spsa in [
            "",
            &format!("params_text = \"x\"\n{table}"),
            "params_text = \"\"\nparams_file = \"t.txt\"\n",
        ] {
            let e = error(spsa);
            assert_eq!(e.key, "spsa", "{spsa}");
            assert!(
                e.message.starts_with("give the parameters exactly one way"),
                "{e}"
            );
        }
    }
}
