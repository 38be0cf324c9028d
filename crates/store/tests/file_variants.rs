//! Games of a variant from a user's file: written only with the file's
//! text in the metadata (with its SHA-256), read back through that text
//! alone, and refused when the text was changed afterwards.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{Position, StartSpec, VariantSet};
use ajaxlab_store::metadata::{VARIANTS_KEY, VARIANTS_SHA256_KEY};
use ajaxlab_store::{FileMetadata, GameRecord, StoreError, read_games, sha256_hex, write_games};
use std::path::{Path, PathBuf};

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fsf/model-variants.ini"
);

/// A game of `lamehorse` (the fixture match's first game, moved to it).
fn lamehorse_game() -> GameRecord {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/main-a564af6/match/games-00000.parquet");
    let mut game = read_games(&fixture).unwrap().games.remove(0);
    let set = VariantSet::with_file(Path::new(MODEL)).unwrap();
    game.variant = set.get("lamehorse").unwrap();
    let start = Position::start_in(game.variant, &StartSpec::Default).unwrap();
    game.start_fen = start.fen();
    game.final_fen = start.fen();
    game.opening_moves.clear();
    game.moves.clear();
    game
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "ajaxlab-store-{name}-{}.parquet",
        std::process::id()
    ))
}

#[test]
fn a_file_variant_is_written_with_its_definition_and_read_back_through_it() {
    let game = lamehorse_game();
    let path = scratch("file-variant");
    let without = write_games(&path, std::slice::from_ref(&game), &FileMetadata::default());
    match without {
        Err(StoreError::Row {
            game_id, problem, ..
        }) => {
            assert_eq!(game_id, game.game_id);
            assert!(problem.contains("lamehorse"), "{problem}");
            assert!(problem.contains(VARIANTS_KEY), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!path.exists(), "nothing written");
    let text = std::fs::read_to_string(MODEL).unwrap();
    let metadata = FileMetadata {
        variants_ini: Some(text.clone()),
        ..FileMetadata::default()
    };
    write_games(&path, std::slice::from_ref(&game), &metadata).unwrap();
    let read = read_games(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(read.metadata.variants_ini.as_deref(), Some(text.as_str()));
    assert_eq!(read.games, vec![game.clone()]);
    // The same variant, not a second copy of it.
    assert!(std::ptr::eq(read.games[0].variant, game.variant));
}

#[test]
fn a_definition_changed_after_the_games_were_written_is_refused() {
    let text = std::fs::read_to_string(MODEL).unwrap();
    let metadata = FileMetadata {
        variants_ini: Some(text.clone()),
        ..FileMetadata::default()
    };
    let mut pairs = metadata.to_pairs();
    assert_eq!(pairs[VARIANTS_SHA256_KEY], sha256_hex(text.as_bytes()));
    assert_eq!(FileMetadata::from_pairs(&pairs).unwrap(), metadata);
    pairs.insert(VARIANTS_KEY.to_owned(), text.replace("qrbh", "qrb"));
    let e = FileMetadata::from_pairs(&pairs).unwrap_err();
    assert_eq!(e.key, VARIANTS_SHA256_KEY);
    assert!(e.problem.contains("changed after"), "{e}");
    pairs.remove(VARIANTS_SHA256_KEY);
    assert_eq!(
        FileMetadata::from_pairs(&pairs).unwrap_err().key,
        VARIANTS_SHA256_KEY
    );
}
