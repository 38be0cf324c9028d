//! PGN opening books: each game's start (its `FEN` tag, or the variant's
//! start) followed by the first plies of its movetext becomes one opening
//! position, as fastchess's `-openings format=pgn plies=N` plays them.

use crate::opening::OpeningError;
use ajaxlab_rules::{Position, StartSpec, Variant, VariantKind, parse_movetext};
use std::path::Path;

/// One game of a PGN file: its tags and movetext, and the line it starts on.
#[derive(Debug, Default)]
struct PgnGame {
    line: usize,
    fen: Option<String>,
    variant: Option<String>,
    movetext: String,
}

/// Splits PGN text into games: a tag line after movetext starts a new game.
fn games(text: &str) -> Vec<PgnGame> {
    let mut games: Vec<PgnGame> = Vec::new();
    let mut in_movetext = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if in_movetext || games.is_empty() {
                games.push(PgnGame {
                    line: i + 1,
                    ..PgnGame::default()
                });
                in_movetext = false;
            }
            let (name, value) = tag.split_once(' ').unwrap_or((tag, ""));
            let value = value.trim().trim_matches('"').to_owned();
            if let Some(game) = games.last_mut() {
                match name {
                    "FEN" => game.fen = Some(value),
                    "Variant" => game.variant = Some(value),
                    _ => {}
                }
            }
        } else if !line.is_empty() {
            if games.is_empty() {
                games.push(PgnGame {
                    line: i + 1,
                    ..PgnGame::default()
                });
            }
            in_movetext = true;
            if let Some(game) = games.last_mut() {
                game.movetext.push_str(line);
                game.movetext.push('\n');
            }
        }
    }
    games
}

/// Reads a PGN book: the FEN after the first `plies` plies of every game
/// (all of its moves when `plies` is `None`).
///
/// # Errors
/// [`OpeningError::File`] for an unreadable file, a game of another variant,
/// a bad `FEN` tag or movetext that does not replay, with its line number.
pub fn read_pgn_book(
    variant: &'static Variant,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<String>, OpeningError> {
    let file_err = |message: String| OpeningError::File {
        path: path.display().to_string(),
        message,
    };
    let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::OPENINGS_FILE)
        .map_err(|e| file_err(e.to_string()))?;
    let mut fens = Vec::new();
    for game in games(&text) {
        let at = |message: String| file_err(format!("game at line {}: {message}", game.line));
        if let Some(named) = &game.variant
            && let Ok(kind) = VariantKind::from_name(named)
            && kind.variant() != variant
        {
            return Err(at(format!("variant {kind}, not {variant}")));
        }
        let start = match &game.fen {
            Some(fen) => Position::from_fen_in(variant, fen).map_err(|e| at(e.to_string()))?,
            None => {
                Position::start_in(variant, &StartSpec::Default).map_err(|e| at(e.to_string()))?
            }
        };
        let moves = parse_movetext(&start, &game.movetext).map_err(|e| at(e.to_string()))?;
        let keep = plies.map_or(moves.len(), |p| moves.len().min(p as usize));
        let mut pos = start;
        for &m in &moves[..keep] {
            pos.play_unchecked(m);
        }
        if let Some(over) = crate::opening::already_over(&pos) {
            let after = if keep == moves.len() {
                "after its moves".to_owned()
            } else {
                format!("after {keep} plies")
            };
            return Err(at(format!(
                "{after}, {over} (fewer plies=N for a book of finished games)"
            )));
        }
        fens.push(pos.fen());
    }
    if fens.is_empty() {
        return Err(file_err("no games".into()));
    }
    Ok(fens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(text: &str, plies: Option<u32>) -> Result<Vec<String>, OpeningError> {
        let path = std::env::temp_dir().join(format!(
            "ajaxlab-pgn-book-{}-{}.pgn",
            std::process::id(),
            text.len()
        ));
        std::fs::write(&path, text).unwrap();
        let fens = read_pgn_book(VariantKind::Chess.variant(), &path, plies);
        std::fs::remove_file(&path).unwrap();
        fens
    }

    #[test]
    fn a_pgn_book_gives_the_position_after_its_plies() {
        let text = "[Event \"a\"]\n[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 {main line} Nc6 *\n\n\
                    [Event \"b\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... d5 2. c4 *\n";
        let all = book(text, None).unwrap();
        assert_eq!(
            all,
            [
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
            ]
        );
        let two = book(text, Some(2)).unwrap();
        assert_eq!(
            two[0],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
    }

    #[test]
    fn a_bad_pgn_book_names_the_game() {
        let e = book("[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n", None).unwrap_err();
        assert!(e.to_string().contains("game at line 1"), "{e}");
        let e = book("[Variant \"ajax-falcon\"]\n\n1. e4 *\n", None).unwrap_err();
        assert!(e.to_string().contains("not chess"), "{e}");
    }

    #[test]
    fn a_finished_game_is_no_opening_unless_cut_short() {
        let mate = "[Event \"fool\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let e = book(mate, None).unwrap_err();
        assert!(
            e.to_string()
                .contains("after its moves, the game is already over (checkmate)"),
            "{e}"
        );
        assert!(book(mate, Some(3)).is_ok());
    }
}
