//! FEN text a user can type that must be refused, each refusal naming where
//! the FEN is wrong (issue 16).

use ajaxlab_rules::{FenError, Position, VariantKind};

#[test]
fn an_empty_run_that_overflows_u32_is_refused_naming_the_rank() {
    // 4294967295 + 1 wrapped to 0 and silently dropped the knight.
    let fen = "rn4294967295k6/8/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        Position::from_fen(VariantKind::Chess, fen),
        Err(FenError::EmptyRunTooLong { rank: 8, files: 8 })
    );
}

#[test]
fn an_empty_run_of_many_digits_is_refused_naming_the_rank() {
    let fen = format!("4k3/8/8/8/8/{}/8/4K3 w - - 0 1", "9".repeat(40));
    assert_eq!(
        Position::from_fen(VariantKind::Chess, &fen),
        Err(FenError::EmptyRunTooLong { rank: 3, files: 8 })
    );
}

#[test]
fn an_empty_run_past_the_end_of_the_rank_is_refused_naming_the_rank() {
    let fen = "rn7k/8/8/8/8/8/8/4K3 w - - 0 1";
    let err = FenError::EmptyRunTooLong { rank: 8, files: 8 };
    assert_eq!(
        Position::from_fen(VariantKind::Chess, fen),
        Err(err.clone())
    );
    assert!(err.to_string().contains("rank 8"), "{err}");
}

#[test]
fn a_two_digit_run_that_fills_a_ten_file_rank_is_accepted() {
    let fen = "4k5/10/10/10/4F5/10/10/5K4[] w - - 0 1";
    let pos = Position::from_fen(VariantKind::AjaxFalcon, fen);
    assert_eq!(pos.map(|p| p.fen()), Ok(fen.to_owned()));
}
