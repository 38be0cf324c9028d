//! The create forms: which kinds there are, a form as posted, what is
//! wrong with it field by field, the page that shows it, and the campaign
//! file a structured form makes.

use super::layout::{Viewer, csrf_field};
use ajaxlab_arena::ConfigError;
use ajaxlab_rules::VariantKind;
use maud::{Markup, html};
use std::collections::BTreeMap;

/// The forms, one per kind; `File` takes a whole campaign file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FormKind {
    Sprt,
    Match,
    Spsa,
    PieceValue,
    FirstMove,
    Datagen,
    File,
}

impl FormKind {
    const ALL: [FormKind; 7] = [
        FormKind::Sprt,
        FormKind::Match,
        FormKind::Spsa,
        FormKind::PieceValue,
        FormKind::FirstMove,
        FormKind::Datagen,
        FormKind::File,
    ];

    /// The form of `name` (`sprt` when unknown or empty).
    pub(super) fn named(name: &str) -> FormKind {
        FormKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .unwrap_or(FormKind::Sprt)
    }

    fn name(self) -> &'static str {
        match self {
            FormKind::Sprt => "sprt",
            FormKind::Match => "match",
            FormKind::Spsa => "spsa",
            FormKind::PieceValue => "piece-value",
            FormKind::FirstMove => "first-move",
            FormKind::Datagen => "datagen",
            FormKind::File => "file",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FormKind::Sprt => "SPRT",
            FormKind::Match => "Match",
            FormKind::Spsa => "SPSA tune",
            FormKind::PieceValue => "Piece values",
            FormKind::FirstMove => "First move",
            FormKind::Datagen => "Training data",
            FormKind::File => "Campaign file",
        }
    }

    /// Whether the form has fields (else it is a campaign file to edit).
    fn structured(self) -> bool {
        matches!(self, FormKind::Sprt | FormKind::Match)
    }

    /// The field that names the campaign.
    pub(super) fn name_field(self) -> &'static str {
        if self.structured() { "name" } else { "file" }
    }

    /// The example a campaign-file form starts from.
    fn example(self) -> &'static str {
        match self {
            FormKind::Spsa => SPSA_EXAMPLE,
            FormKind::PieceValue => PIECE_VALUE_EXAMPLE,
            FormKind::FirstMove => FIRST_MOVE_EXAMPLE,
            FormKind::Datagen => DATAGEN_EXAMPLE,
            _ => "",
        }
    }
}

/// Self-play whose positions are kept as training data.
const DATAGEN_EXAMPLE: &str = include_str!("../../../../../../configs/datagen-afc.toml");

const SPSA_EXAMPLE: &str = r#"# Tune the Falcon's middlegame value in Ajax Falcon Chess.
variant = "ajax-falcon"
games = 2000
seed = 1
tc = "nodes=2000"
random_plies = 4

[campaign]
name = "tune-falcon"
kind = "spsa"

[[spsa.params]]
name = "afc.falcon.mg"
start = 556
min = 300
max = 900
c_end = 40
r_end = 0.002

[adjudication]
resign_score = 1000
resign_moves = 3
max_plies = 300
"#;

const PIECE_VALUE_EXAMPLE: &str = r#"# What a Falcon is worth against a Minister, in pawns.
variant = "ajax-falcon"
games = 400
seed = 3
tc = "nodes=2000"
random_plies = 6

[campaign]
name = "falcon-for-minister"
kind = "piece-value"

[piece_value]
pawn = ["-P@f2"]

[[piece_value.imbalances]]
name = "falcon-for-minister"
first = ["M=F"]

[[players]]
engine = "builtin"

[adjudication]
resign_score = 1000
resign_moves = 3
max_plies = 300
"#;

const FIRST_MOVE_EXAMPLE: &str = r#"# White's advantage per start of Ajax Modern Random Chess.
variant = "ajax-modern-random"
games = 400
seed = 17
tc = "nodes=2000"
openings = "numbers:0,288,1024,4349,7813,13602,15119"
random_plies = 0

[campaign]
name = "amrc-first-move"
kind = "first-move"

[[players]]
engine = "builtin"

[adjudication]
resign_score = 1000
resign_moves = 3
max_plies = 300
"#;

/// A form as posted.
#[derive(Debug, Default)]
pub(super) struct Submitted {
    /// Its text fields.
    pub(super) fields: BTreeMap<String, String>,
    /// Its files: field → (file name, bytes).
    pub(super) files: BTreeMap<String, (String, Vec<u8>)>,
    /// A file field whose file was over the limit.
    pub(super) oversized: Option<String>,
}

impl Submitted {
    /// Text field `name`, empty if absent.
    pub(super) fn field(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", String::as_str)
    }

    /// Takes the uploaded engines out of the form (they may be large, and
    /// a browser cannot be sent a file back): player index, the name its
    /// campaign file gives it, its bytes.
    pub(super) fn take_engines(&mut self) -> Vec<(usize, String, Vec<u8>)> {
        let mut engines = Vec::new();
        for i in 0..2 {
            if self.field(&format!("p{i}_engine")) != "uci" {
                continue;
            }
            if let Some((name, bytes)) = self.files.remove(&format!("p{i}_file")) {
                engines.push((i, engine_path(i, &name), bytes));
            }
        }
        engines
    }
}

/// The name an uploaded engine goes by in its campaign file: the
/// player's number and the file's name, any odd character replaced.
fn engine_path(player: usize, file_name: &str) -> String {
    let clean: String = file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("player-{}-{clean}", player + 1)
}

/// What is wrong with a form: by field, and in general.
#[derive(Debug, Default)]
pub(super) struct Problems {
    by_field: BTreeMap<String, Vec<String>>,
    general: Vec<String>,
}

impl Problems {
    /// Notes `message` beside `field`.
    pub(super) fn add(&mut self, field: &str, message: String) {
        self.by_field
            .entry(field.to_owned())
            .or_default()
            .push(message);
    }

    fn is_empty(&self) -> bool {
        self.by_field.is_empty() && self.general.is_empty()
    }

    /// Every fault of a refused campaign file, each beside the field that
    /// wrote its key (a campaign-file form: beside the file, by key).
    pub(super) fn from_config(kind: FormKind, error: &ConfigError) -> Problems {
        let mut problems = Problems::default();
        for (key, message) in error.all() {
            match field_of(kind, key) {
                Some(field) => problems.add(field.as_str(), message.to_owned()),
                None if kind.structured() => problems.general.push(format!("{key}: {message}")),
                None => problems.add("file", format!("{key}: {message}")),
            }
        }
        problems
    }

    fn beside(&self, field: &str) -> Markup {
        html! {
            @if let Some(messages) = self.by_field.get(field) {
                @for m in messages { p.field-error id={ (field) "-error" } { (m) } }
            }
        }
    }

    fn class(&self, field: &str) -> Option<&'static str> {
        self.by_field.contains_key(field).then_some("invalid")
    }
}

/// The field of a structured form that writes campaign-file key `key`.
fn field_of(kind: FormKind, key: &str) -> Option<String> {
    if !kind.structured() {
        return None;
    }
    let plain = match key {
        "campaign.name" | "name" => "name",
        "campaign.priority" => "priority",
        "variant" | "games" | "tc" | "seed" | "random_plies" => key,
        "sprt.elo0" | "sprt.elo1" | "sprt.alpha" | "sprt.beta" | "sprt.model" => &key[5..],
        "adjudication.max_plies" => "max_plies",
        _ => "",
    };
    if !plain.is_empty() {
        return Some(plain.to_owned());
    }
    let rest = key.strip_prefix("players[")?;
    let (index, rest) = rest.split_once(']')?;
    let field = match rest.trim_start_matches('.') {
        "name" => "name",
        "set" | "params" => "set",
        "disable" => "disable",
        "path" => "file",
        "options" => "options",
        _ => "engine",
    };
    Some(format!("p{index}_{field}"))
}

/// The page: the kinds as tabs, the form of `kind` with what was typed
/// and what is wrong.
pub(super) fn page(viewer: &Viewer, kind: FormKind, s: &Submitted, problems: &Problems) -> Markup {
    html! {
        h1 { "New campaign" }
        nav.kinds.actions {
            @for k in FormKind::ALL {
                @if k == kind { b { (k.title()) } } @else { a href={ "/new?kind=" (k.name()) } { (k.title()) } }
            }
        }
        @if viewer.session().is_none() {
            p.error { "Sign in with an operator token to create a campaign: " a href="/sign-in?next=/new" { "sign in" } }
        }
        @if !problems.is_empty() {
            div.error #form-errors {
                p { "The campaign was not created: see the fields marked below." }
                @for g in &problems.general { p { (g) } }
            }
        }
        form.card #create method="post" action="/new" enctype="multipart/form-data" {
            @if let Some(session) = viewer.session() { (csrf_field(session)) }
            input type="hidden" name="form" value=(kind.name());
            @if kind.structured() { (structured(kind, s, problems)) } @else { (file_form(kind, s, problems)) }
            p { button type="submit" #create-button { "Create campaign" } }
        }
    }
}

fn file_form(kind: FormKind, s: &Submitted, problems: &Problems) -> Markup {
    let text = if s.fields.contains_key("file") {
        s.field("file")
    } else {
        kind.example()
    };
    html! {
        label for="file" { "Campaign file (TOML, as " code { "ajaxlab campaign create" } " takes it)" }
        (problems.beside("file"))
        textarea #file name="file" class=[problems.class("file")] spellcheck="false" { (text) }
    }
}

/// A text input with its label and its problems.
fn input(s: &Submitted, problems: &Problems, name: &str, label: &str, default: &str) -> Markup {
    let value = s.fields.get(name).map_or(default, String::as_str);
    html! {
        div {
            label for=(name) { (label) }
            input id=(name) name=(name) value=(value) class=[problems.class(name)];
            (problems.beside(name))
        }
    }
}

fn select(s: &Submitted, problems: &Problems, name: &str, label: &str, options: &[&str]) -> Markup {
    let chosen = s.fields.get(name).map_or(options[0], String::as_str);
    html! {
        div {
            label for=(name) { (label) }
            select id=(name) name=(name) class=[problems.class(name)] {
                @for o in options { option value=(o) selected[*o == chosen] { (o) } }
            }
            (problems.beside(name))
        }
    }
}

fn structured(kind: FormKind, s: &Submitted, p: &Problems) -> Markup {
    let variants: Vec<&str> = VariantKind::ALL.iter().map(|v| v.name()).collect();
    html! {
        div.grid {
            (input(s, p, "name", "Name (letters, digits, - and _)", ""))
            (select(s, p, "variant", "Variant", &variants))
            (input(s, p, "games", "Games (at most, for an SPRT)", "2000"))
            (input(s, p, "tc", "Time control (nodes=N, movetime=MS, or base+inc seconds)", "nodes=2000"))
            (input(s, p, "random_plies", "Random plies after the start", "4"))
            (input(s, p, "seed", "Seed", "1"))
            (input(s, p, "priority", "Priority (share of the workers, 1 to 1000)", "1"))
            (input(s, p, "max_plies", "Draw after this many plies", "300"))
        }
        @if kind == FormKind::Sprt {
            fieldset {
                legend { "SPRT (Fishtest's bounds)" }
                div.grid {
                    (input(s, p, "elo0", "Elo0", "0"))
                    (input(s, p, "elo1", "Elo1", "5"))
                    (input(s, p, "alpha", "α", "0.05"))
                    (input(s, p, "beta", "β", "0.05"))
                    (select(s, p, "model", "Elo model", &["normalized", "logistic"]))
                }
            }
        }
        div.players {
            @for i in 0..2 { (player(s, p, i)) }
        }
    }
}

fn player(s: &Submitted, p: &Problems, i: usize) -> Markup {
    let f = |name: &str| format!("p{i}_{name}");
    let title = if i == 0 {
        "First player (its Elo is reported)"
    } else {
        "Second player"
    };
    html! {
        fieldset {
            legend { (title) }
            (input(s, p, &f("name"), "Name", if i == 0 { "new" } else { "base" }))
            (select(s, p, &f("engine"), "Engine", &["builtin", "uci"]))
            (input(s, p, &f("set"), "Builtin: parameters set, as TOML (\"afc.falcon.mg\" = 456, …)", ""))
            (input(s, p, &f("disable"), "Builtin: search features switched off (comma-separated)", ""))
            div {
                label for=(f("file")) { "UCI: the engine binary (uploaded, shipped to the workers)" }
                input type="file" id=(f("file")) name=(f("file")) class=[p.class(&f("file"))];
                (p.beside(&f("file")))
            }
            (input(s, p, &f("options"), "UCI: options, as TOML (Hash = 16, …)", ""))
        }
    }
}

/// The campaign file a structured form describes, or what is wrong with
/// its fields before any campaign rule is checked (a number that is no
/// number); a campaign-file form's text as typed.
pub(super) fn campaign_file(kind: FormKind, s: &Submitted) -> Result<String, Problems> {
    if !kind.structured() {
        return Ok(s.field("file").to_owned());
    }
    let mut problems = Problems::default();
    let mut root = toml::Table::new();
    let mut number = |table: &mut toml::Table, key: &str, field: &str, float: bool| {
        let text = s.field(field).trim();
        let value = if float {
            text.parse::<f64>().ok().map(toml::Value::Float)
        } else {
            text.parse::<i64>().ok().map(toml::Value::Integer)
        };
        match value {
            Some(v) => {
                table.insert(key.to_owned(), v);
            }
            None => problems.add(field, format!("'{text}' is not a number")),
        }
    };
    root.insert("variant".into(), s.field("variant").into());
    root.insert("tc".into(), s.field("tc").trim().into());
    number(&mut root, "games", "games", false);
    number(&mut root, "seed", "seed", false);
    number(&mut root, "random_plies", "random_plies", false);
    let mut campaign = toml::Table::new();
    campaign.insert("name".into(), s.field("name").trim().into());
    campaign.insert("kind".into(), kind.name().into());
    number(&mut campaign, "priority", "priority", false);
    root.insert("campaign".into(), campaign.into());
    if kind == FormKind::Sprt {
        let mut sprt = toml::Table::new();
        for key in ["elo0", "elo1", "alpha", "beta"] {
            number(&mut sprt, key, key, true);
        }
        sprt.insert("model".into(), s.field("model").into());
        root.insert("sprt".into(), sprt.into());
    }
    let mut adjudication = toml::Table::new();
    number(&mut adjudication, "max_plies", "max_plies", false);
    root.insert("adjudication".into(), adjudication.into());
    let players: Vec<toml::Value> = (0..2)
        .map(|i| player_table(s, i, &mut problems).into())
        .collect();
    root.insert("players".into(), players.into());
    if !problems.is_empty() {
        return Err(problems);
    }
    toml::to_string(&root).map_err(|e| {
        let mut problems = Problems::default();
        problems.general.push(e.to_string());
        problems
    })
}

/// Player `i`'s table of the campaign file.
fn player_table(s: &Submitted, i: usize, problems: &mut Problems) -> toml::Table {
    let f = |name: &str| format!("p{i}_{name}");
    let mut table = toml::Table::new();
    let engine = s.field(&f("engine"));
    table.insert("engine".into(), engine.into());
    table.insert("name".into(), s.field(&f("name")).trim().into());
    if engine == "uci" {
        match s.files.get(&f("file")) {
            Some((name, _)) => {
                table.insert("path".into(), engine_path(i, name).into());
            }
            None => problems.add(&f("file"), "a UCI player needs its engine uploaded".into()),
        }
        inline_table(s, &f("options"), "options", &mut table, problems);
    } else {
        inline_table(s, &f("set"), "set", &mut table, problems);
        let disable: Vec<toml::Value> = s
            .field(&f("disable"))
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(Into::into)
            .collect();
        if !disable.is_empty() {
            table.insert("disable".into(), disable.into());
        }
    }
    table
}

/// Field `field`'s `key = value` pairs as key `key` of `table` (nothing
/// if it is empty).
fn inline_table(
    s: &Submitted,
    field: &str,
    key: &str,
    table: &mut toml::Table,
    problems: &mut Problems,
) {
    let text = s.field(field).trim();
    if text.is_empty() {
        return;
    }
    match format!("v = {{ {text} }}").parse::<toml::Table>() {
        Ok(mut parsed) => {
            if let Some(v) = parsed.remove("v") {
                table.insert(key.into(), v);
            }
        }
        Err(e) => problems.add(
            field,
            format!("not TOML key = value pairs: {}", e.message()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt_form(fields: &[(&str, &str)]) -> Submitted {
        let mut s = Submitted::default();
        for (k, v) in [
            ("name", "t"),
            ("variant", "chess"),
            ("games", "20"),
            ("tc", "nodes=100"),
            ("random_plies", "2"),
            ("seed", "1"),
            ("priority", "1"),
            ("max_plies", "100"),
            ("elo0", "0"),
            ("elo1", "5"),
            ("alpha", "0.05"),
            ("beta", "0.05"),
            ("model", "normalized"),
            ("p0_name", "a"),
            ("p0_engine", "builtin"),
            ("p1_name", "b"),
            ("p1_engine", "builtin"),
        ] {
            s.fields.insert(k.into(), v.into());
        }
        for (k, v) in fields {
            s.fields.insert((*k).into(), (*v).into());
        }
        s
    }

    #[test]
    fn a_structured_form_makes_a_campaign_file_that_parses() {
        let s = sprt_form(&[
            ("p1_disable", "pruning"),
            ("p0_set", "\"afc.falcon.mg\" = 456"),
        ]);
        let file = campaign_file(FormKind::Sprt, &s).unwrap_or_else(|p| panic!("{p:?}"));
        let specs =
            crate::campaign::parse_campaign(&file).unwrap_or_else(|e| panic!("{e}\n{file}"));
        assert_eq!(specs[0].name.as_str(), "t");
        assert_eq!(specs[0].config.pairs, 10);
    }

    #[test]
    fn a_field_that_is_no_number_is_named() {
        let Err(problems) = campaign_file(FormKind::Sprt, &sprt_form(&[("games", "many")])) else {
            panic!("accepted");
        };
        assert_eq!(problems.by_field["games"], ["'many' is not a number"]);
    }

    #[test]
    fn campaign_file_keys_land_beside_their_fields() {
        assert_eq!(
            field_of(FormKind::Sprt, "campaign.name").as_deref(),
            Some("name")
        );
        assert_eq!(
            field_of(FormKind::Sprt, "sprt.elo1").as_deref(),
            Some("elo1")
        );
        assert_eq!(
            field_of(FormKind::Sprt, "players[1].set").as_deref(),
            Some("p1_set")
        );
        assert_eq!(
            field_of(FormKind::Sprt, "players[0].path").as_deref(),
            Some("p0_file")
        );
        assert_eq!(field_of(FormKind::File, "campaign.name"), None);
    }

    #[test]
    fn an_uploaded_engine_keeps_a_plain_name() {
        assert_eq!(engine_path(0, "../../bin/my engine"), "player-1-my_engine");
        assert_eq!(engine_path(1, "C:\\x\\sf.exe"), "player-2-sf.exe");
    }

    #[test]
    fn the_examples_parse() {
        for kind in [FormKind::Spsa, FormKind::PieceValue, FormKind::FirstMove] {
            crate::campaign::parse_campaign(kind.example())
                .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        }
    }
}
