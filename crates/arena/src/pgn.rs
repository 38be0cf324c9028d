//! PGN export of game records in the form other tools read: the Seven Tag
//! Roster with `Date`, `Variant`, `FEN`/`SetUp` for a non-standard start,
//! `TimeControl` and `Termination`; SAN in Fairy-Stockfish's forms (`F@b1`,
//! `Nc3/M`), and after each engine move a cutechess-style `{eval/depth time}`.

use ajaxlab_rules::{Position, Variant, VariantKind, write_movetext};
use ajaxlab_store::{GameRecord, MoveRecord};

/// The PGN of one game, or `None` if the record does not replay (which a
/// record written by the arena always does).
pub fn game_pgn(record: &GameRecord) -> Option<String> {
    let variant = record.variant;
    let start = Position::from_fen_in(variant, &record.start_fen).ok()?;
    let mut pos = start;
    let mut moves = Vec::new();
    for uci in record
        .opening_moves
        .iter()
        .chain(record.moves.iter().map(|m| &m.uci))
    {
        let m = pos.parse_uci(uci).ok()?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    // A variant with one start needs no FEN when the game starts there.
    let standard = variant.start_count().is_none()
        && Position::start_in(variant, &ajaxlab_rules::StartSpec::Default)
            .is_ok_and(|s| s == start);
    let mut headers = vec![
        ("Event", format!("ajaxlab {}", record.run_id)),
        ("Site", "ajaxlab".to_owned()),
        ("Date", pgn_date(record.started_at_ms)),
        (
            "Round",
            format!("{}.{}", record.pair_id + 1, record.game_id % 2 + 1),
        ),
        ("White", record.white.name.clone()),
        ("Black", record.black.name.clone()),
        ("Result", record.result.pgn().to_owned()),
        ("Variant", pgn_variant(variant).to_owned()),
        ("TimeControl", record.time_control.clone()),
        ("Termination", record.termination.as_str().to_owned()),
    ];
    if !standard {
        headers.push(("FEN", record.start_fen.clone()));
        headers.push(("SetUp", "1".to_owned()));
    }
    if let (Some(VariantKind::AjaxModernRandom), Some(n)) = (variant.builtin(), record.start_number)
    {
        headers.push(("AmrcStart", n.to_string()));
    }
    let mut out = String::new();
    for (key, value) in headers {
        out.push_str(&format!(
            "[{key} \"{}\"]\n",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    out.push('\n');
    let comments: Vec<String> = std::iter::repeat_n(String::new(), record.opening_moves.len())
        .chain(record.moves.iter().map(move_comment))
        .collect();
    out.push_str(&write_movetext(
        &start,
        &moves,
        &comments,
        Some(record.result),
    ));
    out.push_str("\n\n");
    Some(out)
}

/// The `Variant` tag: `Standard` for chess (as lichess writes it, the one
/// python-chess reads), else the variant's name.
fn pgn_variant(variant: &Variant) -> &str {
    match variant.builtin() {
        Some(VariantKind::Chess) => "Standard",
        _ => variant.name(),
    }
}

/// cutechess-cli's move comment: the mover's score in pawns (`+0.25`) over
/// the depth, then the time (`+0.25/12 0.510s`); the parts the engine did
/// not report are left out.
fn move_comment(m: &MoveRecord) -> String {
    let time = format!("{:.3}s", f64::from(m.time_ms) / 1000.0);
    match (m.score, m.depth) {
        (Some(cp), Some(depth)) => format!("{:+.2}/{depth} {time}", f64::from(cp) / 100.0),
        (Some(cp), None) => format!("{:+.2} {time}", f64::from(cp) / 100.0),
        (None, _) => time,
    }
}

/// The PGN `Date` (`YYYY.MM.DD`, UTC) of Unix time `ms`, or `????.??.??`
/// when it is not set.
fn pgn_date(ms: i64) -> String {
    if ms <= 0 {
        return "????.??.??".to_owned();
    }
    let (year, month, day) = utc_date(ms);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The UTC civil date `(year, month, day)` of Unix time `ms` (Howard
/// Hinnant's `civil_from_days`), for the dates people read: PGN tags, the
/// web UI.
#[must_use]
pub fn utc_date(ms: i64) -> (i64, i64, i64) {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(pgn_date(0), "????.??.??");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_083_200_000), "2026.12.01");
    }

    #[test]
    fn move_comments_are_cutechess_s() {
        let m = MoveRecord {
            uci: "e2e4".into(),
            score: Some(-25),
            depth: Some(12),
            nodes: None,
            time_ms: 510,
        };
        assert_eq!(move_comment(&m), "-0.25/12 0.510s");
        let bare = MoveRecord { score: None, ..m };
        assert_eq!(move_comment(&bare), "0.510s");
    }
}
