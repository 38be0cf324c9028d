//! The integer options a UCI engine offers (`option name N type spin
//! default D min A max B`), read from its answer to `uci`: what an SPSA
//! tune of a UCI engine may move, and within which range.

/// One `type spin` option of a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// Its name, as `setoption name` takes it (may hold spaces).
    pub name: String,
    /// The engine's default.
    pub default: i64,
    /// The smallest value the engine takes.
    pub min: i64,
    /// The largest value the engine takes.
    pub max: i64,
}

impl SpinOption {
    /// The spin option an `option` line declares; `None` for another line,
    /// another type, or a line missing a number.
    pub fn parse(line: &str) -> Option<SpinOption> {
        let rest = line.trim().strip_prefix("option name ")?;
        let (name, fields) = rest.split_once(" type ")?;
        let mut words = fields.split_whitespace();
        if words.next()? != "spin" {
            return None;
        }
        let (mut default, mut min, mut max) = (None, None, None);
        while let Some(key) = words.next() {
            let slot = match key {
                "default" => &mut default,
                "min" => &mut min,
                "max" => &mut max,
                _ => continue,
            };
            *slot = words.next().and_then(|v| v.parse().ok());
        }
        Some(SpinOption {
            name: name.trim().to_owned(),
            default: default?,
            min: min?,
            max: max?,
        })
    }

    /// Every spin option among an engine's `uci` answer lines.
    pub fn all<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<SpinOption> {
        lines.into_iter().filter_map(SpinOption::parse).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_options_are_read_with_names_that_hold_spaces_and_other_types_are_not() {
        let lines = [
            "id name Fairy-Stockfish",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name afc.falcon.mg type spin default 556 min 100 max 2000",
            "option name Ponder type check default false",
            "option name Contempt type spin default -10 min -100 max 100",
            "option name Broken type spin default x min 0 max 1",
            "uciok",
        ];
        let spins = SpinOption::all(lines);
        let names: Vec<&str> = spins.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["Hash", "Move Overhead", "afc.falcon.mg", "Contempt"]
        );
        assert_eq!(
            spins[3],
            SpinOption {
                name: "Contempt".into(),
                default: -10,
                min: -100,
                max: 100
            }
        );
    }
}
