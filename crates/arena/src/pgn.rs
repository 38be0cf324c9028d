//! PGN export of game records: NOTATION.md's headers and the seeds' SAN.

use ajaxlab_rules::{Position, VariantKind, write_movetext};
use ajaxlab_store::GameRecord;

/// The PGN of one game, or `None` if the record does not replay (which a
/// record written by the arena always does).
pub fn game_pgn(record: &GameRecord) -> Option<String> {
    let variant = record.variant;
    let start = Position::from_fen(variant, &record.start_fen).ok()?;
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
    let standard = matches!(variant, VariantKind::Chess | VariantKind::AjaxFalcon)
        && Position::start(variant, &ajaxlab_rules::StartSpec::Default).is_ok_and(|s| s == start);
    let mut headers = vec![
        ("Event", format!("ajaxlab {}", record.run_id)),
        ("Site", "ajaxlab".to_owned()),
        (
            "Round",
            format!("{}.{}", record.pair_id + 1, record.game_id % 2 + 1),
        ),
        ("White", record.white.name.clone()),
        ("Black", record.black.name.clone()),
        ("Result", record.result.pgn().to_owned()),
        ("Variant", variant.name().to_owned()),
        ("TimeControl", record.time_control.clone()),
        ("Termination", record.termination.as_str().to_owned()),
    ];
    if !standard {
        headers.push(("FEN", record.start_fen.clone()));
        headers.push(("SetUp", "1".to_owned()));
    }
    if let (VariantKind::AjaxModernRandom, Some(n)) = (variant, record.start_number) {
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
    out.push_str(&write_movetext(&start, &moves, Some(record.result)));
    out.push_str("\n\n");
    Some(out)
}
