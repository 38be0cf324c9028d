//! One test per rule of `docs/rules.md` (which cites each by name), each
//! decided point named after what it decides.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{
    Color, Game, Outcome, PieceKind, Position, Square, StartSpec, VariantKind, amrc_number,
    amrc_rank1,
};

const AFC: VariantKind = VariantKind::AjaxFalcon;
const AMRC: VariantKind = VariantKind::AjaxModernRandom;

fn pos(variant: VariantKind, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| p.uci(*m).to_string())
        .collect();
    v.sort();
    v
}

fn play(p: &Position, uci: &str) -> Position {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
    p.after(m).unwrap()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game_after(variant: VariantKind, fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(pos(variant, fen));
    for uci in moves {
        let m = game.position().parse_uci(uci).unwrap();
        game.play(m).unwrap();
    }
    game
}

// ---- §1 pieces ----

#[test]
fn falcon_reaches_horse_and_elephant_squares_only_through_empty_paths() {
    // Falcon on e4 alone: wazir steps, eight (1,2) and eight (2,3) targets, four mF steps.
    let p = pos(AFC, "4k5/10/10/10/4F5/10/10/5K4[] w - - 0 1");
    let from_e4: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("e4"))
        .collect();
    assert_eq!(from_e4.len(), 4 + 8 + 8 + 4, "{from_e4:?}");
    for target in ["e4f6", "e4g7", "e4d6", "e4c7", "e4f2", "e4g1"] {
        assert!(from_e4.contains(&target.to_owned()), "{target}");
    }
    // A piece on e5 blocks f6, g7, d6, c7 (their only path) but nothing else.
    let p = pos(AFC, "4k5/10/10/4p5/4F5/10/10/5K4[] w - - 0 1");
    let from_e4: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("e4"))
        .collect();
    for blocked in ["e4f6", "e4g7", "e4d6", "e4c7"] {
        assert!(!from_e4.contains(&blocked.to_owned()), "{blocked}");
    }
    assert!(
        from_e4.contains(&"e4e5".to_owned()),
        "the blocker itself can be captured"
    );
    assert_eq!(from_e4.len(), 24 - 4);
    // f6 empty but occupied by an enemy: capturable, and it blocks g7 behind it.
    let p = pos(AFC, "4k5/10/5p4/10/4F5/10/10/5K4[] w - - 0 1");
    let moves = legal(&p);
    assert!(moves.contains(&"e4f6".to_owned()));
    assert!(!moves.contains(&"e4g7".to_owned()));
}

#[test]
fn move_only_steps_never_give_check() {
    // Around the black king on e4: Ajax Rook d3 (diagonal, mF), Ajax Knight d4
    // (orthogonal, mK), Ajax Bishop f4 (orthogonal, mW): none gives check.
    let p = pos(AFC, "10/10/10/10/3NkB4/3R6/10/9K[] b - - 0 1");
    assert!(!p.in_check());
    assert!(p.checkers().is_empty());
    // The same steps move to empty squares.
    let w = pos(AFC, "k9/10/10/10/3N1B4/3R6/10/9K[] w - - 0 1");
    let moves = legal(&w);
    for m in ["d3e4", "d4e4", "f4e4", "d3c2", "d4d5", "f4f5"] {
        assert!(moves.contains(&m.to_owned()), "{m}");
    }
}

#[test]
fn move_only_steps_never_capture() {
    let p = pos(AFC, "k9/10/10/10/10/3p6/4R5/9K[] w - - 0 1");
    assert!(!legal(&p).contains(&"e2d3".to_owned()));
}

#[test]
fn minister_leaps_over_pieces() {
    let p = pos(AFC, "4k5/10/10/10/10/10/4P5/4MK4[] w - - 0 1");
    let moves = legal(&p);
    assert!(
        moves.contains(&"e1e3".to_owned()),
        "(0,2) leap over the pawn"
    );
    assert!(moves.contains(&"e1c3".to_owned()) && moves.contains(&"e1g3".to_owned()));
}

// ---- §2 Ajax Falcon Chess ----

#[test]
fn falcon_drop_goes_on_any_empty_square_of_the_own_first_rank() {
    let p = pos(AFC, "4k5/10/10/10/10/10/10/R4K3R[Ff] w KQ - 0 1");
    let drops: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("F@"))
        .collect();
    assert_eq!(
        drops,
        ["F@b1", "F@c1", "F@d1", "F@e1", "F@g1", "F@h1", "F@i1"]
    );
    let black = pos(AFC, "4k5/10/10/10/10/10/10/R4K3R[Ff] b KQ - 0 1");
    assert_eq!(
        legal(&black).iter().filter(|m| m.starts_with("F@")).count(),
        9
    );
}

#[test]
fn falcon_drop_may_give_check() {
    let p = pos(AFC, "10/10/10/10/10/4k5/10/5K4[F] w - - 0 1");
    let after = play(&p, "F@d1");
    assert!(after.in_check(), "the dropped falcon checks e3 through d2");
}

#[test]
fn falcon_drop_may_give_mate() {
    let p = pos(AFC, "10/10/10/10/pp8/k9/2Q7/9K[F] w - - 0 1");
    let m = p.parse_uci("F@b1").unwrap();
    assert_eq!(p.san(m), "(Fb1)#");
    let mut game = Game::new(p);
    game.play(m).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn falcon_drop_resets_halfmove_clock() {
    let p = pos(AFC, "4k5/10/10/10/10/10/10/5K4[Ff] w - - 37 40");
    assert_eq!(play(&p, "F@a1").halfmove_clock(), 0);
}

#[test]
fn afc_castling_moves_king_three_squares() {
    let p = pos(AFC, "r4k3r/10/10/10/10/10/10/R4K3R[] w KQkq - 0 1");
    let after = play(&p, "f1i1");
    assert_eq!(after.fen(), "r4k3r/10/10/10/10/10/10/R6RK1[] b kq - 1 1");
    let after = play(&p, "f1c1");
    assert_eq!(after.fen(), "r4k3r/10/10/10/10/10/10/2KR5R[] b kq - 1 1");
    assert_eq!(p.san(p.parse_uci("f1i1").unwrap()), "O-O");
    assert_eq!(p.san(p.parse_uci("f1c1").unwrap()), "O-O-O");
}

#[test]
fn afc_castling_needs_unmoved_king_and_rook() {
    let p = pos(AFC, "r4k3r/10/10/10/10/10/10/R4K3R[] w KQkq - 0 1");
    let p = play(&play(&play(&play(&p, "j1j2"), "a8a7"), "j2j1"), "a7a8");
    let moves = legal(&p);
    assert!(!moves.contains(&"f1i1".to_owned()), "the j-rook has moved");
    assert!(moves.contains(&"f1c1".to_owned()));
    let k = play(&play(&play(&play(&p, "f1f2"), "a8a7"), "f2f1"), "a7a8");
    assert!(
        !legal(&k).iter().any(|m| m == "f1c1" || m == "f1i1"),
        "the king has moved"
    );
}

#[test]
fn afc_castling_path_must_be_empty() {
    let p = pos(AFC, "5k4/10/10/10/10/10/10/R4K1N1R[] w KQ - 0 1");
    let moves = legal(&p);
    assert!(!moves.contains(&"f1i1".to_owned()));
    assert!(moves.contains(&"f1c1".to_owned()));
}

#[test]
fn afc_castling_king_may_not_pass_attacked_square() {
    // The black rook on h8 attacks h1, a square the king passes.
    let p = pos(AFC, "4k2r2/10/10/10/10/10/10/5K3R[] w K - 0 1");
    assert!(!legal(&p).contains(&"f1i1".to_owned()));
    let safe = pos(AFC, "4k5/10/10/10/10/10/10/5K3R[] w K - 0 1");
    assert!(legal(&safe).contains(&"f1i1".to_owned()));
}

#[test]
fn afc_castling_not_out_of_check() {
    let p = pos(AFC, "4kr4/10/10/10/10/10/10/R4K3R[] w KQ - 0 1");
    assert!(p.in_check());
    assert!(!legal(&p).iter().any(|m| m == "f1c1" || m == "f1i1"));
}

#[test]
fn afc_promotion_choices_are_q_r_m_f_b_n() {
    let p = pos(AFC, "5k4/P9/10/10/10/10/10/5K4[] w - - 0 1");
    let promotions: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("a7a8"))
        .collect();
    assert_eq!(
        promotions,
        ["a7a8b", "a7a8f", "a7a8m", "a7a8n", "a7a8q", "a7a8r"]
    );
}

// ---- §3 Ajax Modern Random Chess ----

#[expect(non_snake_case, reason = "named after the start it checks")]
#[test]
fn amrc_start_number_4349_is_BRKNQNRBA() {
    assert_eq!(amrc_rank1(4349).as_deref(), Some("BRKNQNRBA"));
}

#[test]
fn amrc_start_numbering_is_sorted_ascii_order() {
    for (n, rank) in [
        (0, "ABBNNQRKR"),
        (4349, "BRKNQNRBA"),
        (7813, "NRKBQABRN"),
        (13602, "RNBKQABNR"),
        (15119, "RQNNKRBBA"),
    ] {
        assert_eq!(amrc_number(rank), Some(n));
        let p = Position::start(AMRC, &StartSpec::Number(n)).unwrap();
        assert_eq!(
            Position::start(AMRC, &StartSpec::Rank1(rank.into())).unwrap(),
            p
        );
    }
    assert!(Position::start(AMRC, &StartSpec::Number(15120)).is_err());
    assert!(
        Position::start(AMRC, &StartSpec::Rank1("KNBRQABNR".into())).is_err(),
        "king not between rooks"
    );
}

#[test]
fn amrc_black_start_is_the_point_reflection_of_white() {
    let p = Position::start(AMRC, &StartSpec::Rank1("BRKNQNRBA".into())).unwrap();
    assert_eq!(
        p.fen(),
        "abrnqnkrb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BRKNQNRBA[MMmm] w GBACDEFHIhcabdefgi - 0 1"
    );
}

#[test]
fn gating_places_a_minister_on_the_vacated_square() {
    let p = Position::start(AMRC, &StartSpec::Default).unwrap();
    let m = p.parse_uci("h1g3m").unwrap();
    assert_eq!(p.san(m), "Ng3(Mh1)");
    let after = p.after(m).unwrap();
    assert_eq!(
        after.piece_at(sq("h1")).map(|x| x.kind),
        Some(PieceKind::MINISTER)
    );
    assert_eq!(after.hand_count(Color::White), 1);
}

#[test]
fn unused_gating_right_is_gone() {
    let p = Position::start(AMRC, &StartSpec::Default).unwrap();
    let p = play(&p, "b1c3");
    assert_eq!(
        p.fen(),
        "rnbaqkbnr/ppppppppp/9/9/9/9/2N6/PPPPPPPPP/R1BKQABNR[MMmm] b IACDEFGHiabcdefgh - 1 1"
    );
    let p = play(&play(&p, "b9c7"), "c3b1");
    let p = play(&p, "c7b9");
    assert!(
        !legal(&p)
            .iter()
            .any(|m| m.starts_with("b1") && m.ends_with('m')),
        "no second chance on b1"
    );
}

#[test]
fn pawns_and_promoted_pieces_never_gate() {
    let p = Position::start(AMRC, &StartSpec::Default).unwrap();
    assert!(
        !legal(&p)
            .iter()
            .any(|m| m.len() == 5 && m.as_bytes()[1] == b'2')
    );
}

#[test]
fn castling_gates_on_king_or_rook_square_not_both() {
    let p = pos(
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w AEIabcdefghi - 0 1",
    );
    assert_eq!(
        p.fen(),
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w IAEiabcdefgh - 0 1"
    );
    let castles: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| ["e1i1", "e1a1", "i1e1", "a1e1"].contains(&&m[..4]))
        .collect();
    assert_eq!(
        castles,
        ["a1e1m", "e1a1", "e1a1m", "e1i1", "e1i1m", "i1e1m"]
    );
    let after = play(&p, "i1e1m");
    assert_eq!(
        after.fen(),
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R4RK1M[Mmm] b Aiabcdefgh - 1 1"
    );
    assert_eq!(p.san(p.parse_uci("i1e1m").unwrap()), "O-O-Og(Mi1)");
    assert_eq!(p.san(p.parse_uci("e1a1m").unwrap()), "O-O-Oc(Me1)");
}

#[test]
fn castling_gate_square_must_be_empty_after_castling() {
    // King d1 castles to c1 with the rook a1 going to d1: the king's square is taken again.
    let p = pos(
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R2KQ3R[MMmm] w ADEIabcdefghi - 0 1",
    );
    let castles: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("d1a1") || m.starts_with("a1d1"))
        .collect();
    assert_eq!(castles, ["a1d1m", "d1a1"]);
}

#[test]
fn empty_hand_clears_gates_keeps_castling() {
    let p = Position::start(AMRC, &StartSpec::Default).unwrap();
    let p = play(&play(&play(&p, "b1c3m"), "b9c7m"), "h1g3m");
    assert_eq!(
        p.fen(),
        "rmbaqkbnr/ppppppppp/2n6/9/9/9/2N3N2/PPPPPPPPP/RMBKQABMR[m] b IAiacdefgh - 3 2"
    );
    assert!(p.gates(Color::White).is_empty());
}

#[test]
fn amrc_castling_king_may_already_stand_on_destination() {
    let p = pos(AMRC, "4k4/9/9/9/9/9/9/9/1RK5R[] w BI - 0 1");
    let after = play(&p, "c1b1");
    assert_eq!(after.fen(), "4k4/9/9/9/9/9/9/9/2KR4R[] b - - 1 1");
}

#[test]
fn amrc_castling_rook_may_already_stand_on_destination() {
    let p = pos(AMRC, "4k4/9/9/9/9/9/9/9/R3KR3[] w FA - 0 1");
    let after = play(&p, "e1f1");
    assert_eq!(after.fen(), "4k4/9/9/9/9/9/9/9/R4RK2[] b - - 1 1");
}

#[test]
fn amrc_castling_needs_empty_squares_between_both_starts_and_destinations() {
    // Rook b1 castling c-side must reach d1: d1 is taken by a bishop.
    let p = pos(AMRC, "4k4/9/9/9/9/9/9/9/1RKB4R[] w BI - 0 1");
    assert!(!legal(&p).contains(&"c1b1".to_owned()));
}

#[test]
fn amrc_castling_king_may_not_pass_or_land_on_an_attacked_square() {
    // Castling i-side the king goes e1 to g1 through f1; a-side to c1 through d1.
    for (rank9, refused, allowed) in [
        ("4kr3", "e1i1", "e1a1"),
        ("4k1r2", "e1i1", "e1a1"),
        ("3rk4", "e1a1", "e1i1"),
        ("2r1k4", "e1a1", "e1i1"),
        // An attacked rook does not matter.
        ("4k3r", "none", "e1i1"),
    ] {
        let p = pos(AMRC, &format!("{rank9}/9/9/9/9/9/9/9/R3K3R[] w IA - 0 1"));
        let moves = legal(&p);
        assert!(!moves.contains(&refused.to_owned()), "{rank9}: {refused}");
        assert!(moves.contains(&allowed.to_owned()), "{rank9}: {allowed}");
    }
}

#[test]
fn amrc_castling_not_out_of_check() {
    let p = pos(AMRC, "4r1k2/9/9/9/9/9/9/9/R3K3R[] w IA - 0 1");
    assert!(p.in_check());
    let moves = legal(&p);
    assert!(!moves.contains(&"e1i1".to_owned()) && !moves.contains(&"e1a1".to_owned()));
}

#[test]
fn a_castling_right_goes_with_the_gate_of_its_rook_or_king() {
    // White: castling rooks a1 and i1 (A, I), the king's gate E.
    let p = pos(
        AMRC,
        "r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w IAEiae - 0 1",
    );
    // The a1 rook moves, gating or not: its castling right and its gate go at once.
    for m in ["a1b1", "a1b1m"] {
        let rights = play(&p, m).fen().split(' ').nth(2).unwrap().to_owned();
        assert_eq!(rights, "IEiae", "{m}");
    }
    // The king moves: both castling rights and its gate go; the rooks keep
    // their gates, now plain gates (file order).
    for m in ["e1f1", "e1f1m"] {
        let rights = play(&p, m).fen().split(' ').nth(2).unwrap().to_owned();
        assert_eq!(rights, "AIiae", "{m}");
    }
}

#[test]
fn gated_minister_does_not_block_check() {
    // The bishop on c1 is pinned by the black rook on a1 against the king on d1.
    let p = pos(AMRC, "5k3/9/9/9/9/9/9/9/r1BK5[M] w C - 0 1");
    let moves = legal(&p);
    assert!(
        !moves.contains(&"c1d2m".to_owned()),
        "a gated minister never replaces a pinned piece"
    );
    assert!(!moves.contains(&"c1d2".to_owned()));
    assert!(
        moves.contains(&"c1b1m".to_owned()),
        "staying on the line is fine, gated or not"
    );
    assert!(moves.contains(&"c1b1".to_owned()));
}

#[test]
fn gated_minister_may_give_check() {
    let p = pos(AMRC, "9/9/9/9/9/9/2k6/9/2B1K4[M] w C - 0 1");
    assert!(!p.in_check());
    let m = p.parse_uci("c1a3m").unwrap();
    assert_eq!(p.san(m), "Ba3(Mc1)+");
    assert!(p.after(m).unwrap().in_check());
}

#[test]
fn amrc_promotion_choices_are_q_pm_r_m_b_n() {
    let p = pos(AMRC, "4k4/P8/9/9/9/9/9/9/4K4[] w - - 0 1");
    let promotions: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("a8a9"))
        .collect();
    assert_eq!(
        promotions,
        ["a8a9a", "a8a9b", "a8a9m", "a8a9n", "a8a9q", "a8a9r"]
    );
    assert_eq!(p.san(p.parse_uci("a8a9a").unwrap()), "a9=PM");
}

// ---- §4 end of the game ----

#[test]
fn checkmate_wins() {
    let game = game_after(
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["f2f3", "e7e5", "g2g4", "d8h4"],
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn stalemate_is_a_draw() {
    let game = Game::new(pos(AFC, "k9/2Q7/10/10/10/10/10/9K[] b - - 0 1"));
    assert_eq!(game.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn a_falcon_in_hand_prevents_stalemate() {
    let game = Game::new(pos(AFC, "k9/2Q7/10/10/10/10/10/9K[f] b - - 0 1"));
    assert_eq!(game.outcome(), None);
}

#[test]
fn fifty_move_rule_is_automatic() {
    let game = game_after(AFC, "5k4/10/10/10/10/10/10/R4K4[] w - - 99 80", &["a1a2"]);
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(game.outcome(), Some(Outcome::FiftyMoveRule));
}

#[test]
fn checkmate_on_hundredth_ply_stands() {
    let game = game_after(
        AFC,
        "5k4/4ppp3/10/10/10/10/10/R4K4[] w - - 99 80",
        &["a1a8"],
    );
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn minister_gating_does_not_reset_halfmove_clock() {
    let p = pos(
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBKQABNR[MMmm] w IABCDEFGHiabcdefgh - 10 6",
    );
    assert_eq!(play(&p, "b1c3m").halfmove_clock(), 11);
}

#[test]
fn threefold_repetition_is_automatic() {
    let shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    let start = Position::start(AFC, &StartSpec::Default).unwrap().fen();
    let moves: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let game = game_after(AFC, &start, &moves[..7]);
    assert_eq!(game.outcome(), None);
    let game = game_after(AFC, &start, &moves);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn gating_rights_distinguish_repeated_positions() {
    // After the first round the knights are home but their gates are gone:
    // a different position from the start, which therefore does not count.
    let shuffle = ["b1c3", "b9c7", "c3b1", "c7b9"];
    let start = Position::start(AMRC, &StartSpec::Default).unwrap().fen();
    let moves: Vec<&str> = shuffle.iter().cycle().take(12).copied().collect();
    let game = game_after(AMRC, &start, &moves[..8]);
    assert_eq!(
        game.repetitions(),
        2,
        "the start position had gating rights"
    );
    assert_eq!(game.outcome(), None);
    let game = game_after(AMRC, &start, &moves);
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
}

#[test]
fn undo_restores_the_exact_position() {
    let mut game = Game::new(Position::start(AMRC, &StartSpec::Number(4349)).unwrap());
    let before = *game.position();
    let m = before
        .parse_uci("c1b1m")
        .or_else(|_| before.parse_uci("e2e4"))
        .unwrap();
    game.play(m).unwrap();
    assert_ne!(*game.position(), before);
    assert_eq!(game.undo(), Some(m));
    assert_eq!(*game.position(), before);
}

#[test]
fn chess_dead_positions_are_insufficient_material() {
    let outcome = |variant, fen| Game::new(pos(variant, fen)).outcome();
    for (variant, fen) in [
        (VariantKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        (VariantKind::Chess, "4k3/8/8/8/8/8/8/4KN2 b - - 0 1"),
        (VariantKind::Chess960, "4k3/8/8/8/8/8/2b5/4K3 w - - 0 1"),
    ] {
        assert_eq!(
            outcome(variant, fen),
            Some(Outcome::InsufficientMaterial),
            "{fen}"
        );
    }
    for fen in [
        "4k3/8/8/8/8/8/8/4KR2 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",
    ] {
        assert_eq!(
            outcome(VariantKind::Chess, fen),
            None,
            "{fen}: mate is possible"
        );
    }
    // The Ajax variants have no such rule (the runner's bare-kings draw is
    // the arena's, recorded as an adjudication).
    assert_eq!(outcome(AFC, "4k5/10/10/10/10/10/10/5K4[] w - - 0 1"), None);
}

/// The test functions of this file, by name.
fn decided_rule_tests() -> std::collections::BTreeSet<&'static str> {
    let source = include_str!("decided_rules.rs");
    let lines: Vec<&str> = source.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[test]")
        .filter_map(|w| w[1].strip_prefix("fn "))
        .filter_map(|rest| rest.split('(').next())
        .collect()
}

#[test]
fn docs_rules_md_cites_every_decided_rule_test() {
    let docs = include_str!("../../../docs/rules.md");
    let tests = decided_rule_tests();
    // Backticked snake_case names (`UCI_Variant` is an option) are test names.
    let cited: std::collections::BTreeSet<&str> = docs
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.contains('_') && t.starts_with(|c: char| c.is_ascii_lowercase()))
        .filter(|t| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let unknown: Vec<_> = cited.difference(&tests).collect();
    assert!(
        unknown.is_empty(),
        "docs/rules.md cites no such test: {unknown:?}"
    );
    let uncited: Vec<_> = tests
        .iter()
        .filter(|t| !cited.contains(*t) && **t != "docs_rules_md_cites_every_decided_rule_test")
        .collect();
    assert!(
        uncited.is_empty(),
        "docs/rules.md does not cite: {uncited:?}"
    );
    assert!(tests.len() >= 35, "only {} tests found", tests.len());
}
