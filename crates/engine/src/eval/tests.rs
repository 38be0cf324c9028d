use super::*;

#[test]
fn start_positions_are_balanced() {
    let params = Params::default();
    for variant in VariantKind::ALL {
        let eval = Evaluator::new(variant.variant(), &params);
        let pos = Position::start(variant, &StartSpec::Default).unwrap();
        let tempo = match variant {
            VariantKind::Chess | VariantKind::Chess960 => params.chess_tempo,
            _ => params.tempo,
        };
        assert_eq!(eval.evaluate(&pos), tempo, "{variant}");
    }
}

/// The piece letter of the other colour.
fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The FEN of `fen` (chess or Chess960) seen from the other side: ranks
/// in reverse order, colours swapped, the other side to move.
fn colour_mirror(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap_case).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling: String = if fields[2] == "-" {
        "-".into()
    } else {
        let swapped: String = fields[2].chars().map(swap_case).collect();
        // White's rights come first.
        let (white, black): (String, String) = swapped.chars().partition(char::is_ascii_uppercase);
        white + &black
    };
    let en_passant = match fields[3].as_bytes() {
        [file, b'3'] => format!("{}6", char::from(*file)),
        [file, b'6'] => format!("{}3", char::from(*file)),
        _ => "-".into(),
    };
    format!(
        "{} {side} {castling} {en_passant} {} {}",
        board.join("/"),
        fields[4],
        fields[5]
    )
}

/// Colour symmetry: a position and its colour mirror are worth the
/// same to the side to move, so neither colour is favoured by the
/// evaluation itself (White's first-move edge must come from play).
#[test]
fn evaluation_is_colour_symmetric() {
    let params = Params::default();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 33) as usize
    };
    for variant in [VariantKind::Chess, VariantKind::Chess960] {
        let eval = Evaluator::new(variant.variant(), &params);
        for game in 0..40 {
            let spec = if variant == VariantKind::Chess960 {
                StartSpec::Number(game * 23 % 960)
            } else {
                StartSpec::Default
            };
            let mut pos = Position::start(variant, &spec).unwrap();
            for _ in 0..60 {
                let fen = pos.fen();
                let mirrored = Position::from_fen(variant, &colour_mirror(&fen)).unwrap();
                assert_eq!(
                    eval.evaluate(&pos),
                    eval.evaluate(&mirrored),
                    "{fen} against {}",
                    mirrored.fen()
                );
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[next() % moves.len()]);
            }
        }
    }
}

#[test]
fn a_falcon_in_hand_is_valued_apart_from_one_on_the_board() {
    let params = Params {
        afc_falcon_hand_mg: 300,
        afc_falcon_hand_eg: 300,
        ..Params::default()
    };
    let eval = Evaluator::new(VariantKind::AjaxFalcon.variant(), &params);
    let in_hand = Position::from_fen(
        VariantKind::AjaxFalcon,
        "4k5/10/10/10/10/10/10/5K4[F] w - - 0 1",
    )
    .unwrap();
    let on_board = Position::from_fen(
        VariantKind::AjaxFalcon,
        "4k5/10/10/10/10/10/10/F4K4[] w - - 0 1",
    )
    .unwrap();
    assert!(eval.evaluate(&on_board) > eval.evaluate(&in_hand) + 100);
}

/// AMRC: a Minister in hand enters only through a gate of its own, so
/// two in hand with one gate left are worth one, and a gate given up
/// while the hand is as large as the gates left costs a Minister.
#[test]
fn a_minister_in_hand_beyond_the_gates_left_counts_for_nothing() {
    let eval = Evaluator::new(VariantKind::AjaxModernRandom.variant(), &Params::default());
    let score =
        |fen: &str| eval.evaluate(&Position::from_fen(VariantKind::AjaxModernRandom, fen).unwrap());
    let two_gates_two_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[MM] w AB - 0 1");
    let one_gate_two_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[MM] w B - 0 1");
    let two_gates_one_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[M] w AB - 0 1");
    assert_eq!(one_gate_two_in_hand, two_gates_one_in_hand);
    assert!(two_gates_two_in_hand > one_gate_two_in_hand + 400);
}

/// How much more the chess position `fen` scores, for the side to
/// move, with the parameters `with` than with `without`.
fn chess_gain(with: &Params, without: &Params, fen: &str) -> i32 {
    let pos = Position::from_fen(VariantKind::Chess, fen).unwrap();
    let score = |p: &Params| Evaluator::new(VariantKind::Chess.variant(), p).evaluate(&pos);
    score(with) - score(without)
}

/// The defaults without the scaling of endgames with few pawns, for
/// tests that read one term's full value in a sparse endgame.
fn unscaled() -> Params {
    Params {
        scale_pawns_base: 64,
        ..Params::default()
    }
}

/// A rook on a file without pawns earns the open-file bonus, on a file
/// with only enemy pawns the semi-open one, behind its own pawn none.
#[test]
fn a_rook_is_scored_by_the_pawns_on_its_file() {
    // The open and semi-open bonuses, each the same in both phases.
    let terms = |open: i32, semi_open: i32| Params {
        chess_rook_open_mg: open,
        chess_rook_open_eg: open,
        chess_rook_semi_open_mg: semi_open,
        chess_rook_semi_open_eg: semi_open,
        ..unscaled()
    };
    let (with_terms, without_terms) = (terms(40, 16), terms(0, 0));
    let gain = |fen: &str| chess_gain(&with_terms, &without_terms, fen);
    assert_eq!(gain("4k3/8/8/8/8/8/7P/R3K3 w - - 0 1"), 40);
    assert_eq!(gain("4k3/p7/8/8/8/8/7P/R3K3 w - - 0 1"), 16);
    assert_eq!(gain("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1"), 0);
    // A queen slides along files too, but also along diagonals: not a rook.
    assert_eq!(gain("4k3/8/8/8/8/8/7P/Q3K3 w - - 0 1"), 0);
}

/// Chess's mobility tables add their entry for each piece by the
/// squares it reaches: a knight on a1 beside its own pawn reaches two,
/// and the same knight of Black's cancels it; the entries of the
/// tuner's exact gradient are the same ones.
#[test]
fn a_chess_piece_earns_its_mobility_table_entry() {
    let entry = |value: i64| {
        let mut p = unscaled();
        p.set("chess.mobility.knight.2.mg", value).unwrap();
        p.set("chess.mobility.knight.2.eg", value).unwrap();
        p
    };
    let (with_entry, without_entry) = (entry(40), entry(0));
    let lone = "4k3/p7/8/8/8/8/P7/N3K3 w - - 0 1";
    assert_eq!(chess_gain(&with_entry, &without_entry, lone), 40);
    let both = "n3k3/p7/8/8/8/8/P7/N3K3 w - - 0 1";
    assert_eq!(chess_gain(&with_entry, &without_entry, both), 0);
    let eval = Evaluator::new(VariantKind::Chess.variant(), &unscaled());
    let pos = Position::from_fen(VariantKind::Chess, both).unwrap();
    let entries = eval.chess_mobility_entries(&pos);
    let specs = crate::chess_mobility::TABLE.specs();
    let names: Vec<(&str, i32)> = entries
        .iter()
        .map(|e| (specs[e.middlegame].name, e.sign))
        .collect();
    assert_eq!(
        names,
        [
            ("chess.mobility.knight.2.mg", 1),
            ("chess.mobility.knight.2.mg", -1)
        ]
    );
    // The Ajax variants have no such tables.
    let afc = Position::start(VariantKind::AjaxFalcon, &StartSpec::Default).unwrap();
    let afc_score =
        |p: &Params| Evaluator::new(VariantKind::AjaxFalcon.variant(), p).evaluate(&afc);
    let mut trapped = with_entry;
    trapped.set("chess.mobility.knight.0.mg", -200).unwrap();
    trapped.set("chess.mobility.knight.1.mg", -200).unwrap();
    assert_eq!(afc_score(&trapped), afc_score(&unscaled()));
}

/// In the middlegame a king pays for each file it stands from the
/// nearer edge: castled on g1 it pays one, uncastled on e8 three.
#[test]
fn a_king_in_the_centre_pays_in_the_middlegame() {
    let without_term = Params {
        chess_king_file_mg: 0,
        ..Params::default()
    };
    let with_term = Params {
        chess_king_file_mg: 10,
        ..Params::default()
    };
    let fen = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w kq - 5 5";
    assert_eq!(chess_gain(&with_term, &without_term, fen), 3 * 10 - 10);
}

/// A passer whose path to promotion is empty and unattacked earns the
/// free-path bonus, one whose next square alone is safe the smaller
/// one, one whose next square the enemy controls neither, each times
/// its progress (a pawn on a5 has advanced three ranks: 9 of 36).
#[test]
fn a_passer_earns_by_how_free_its_path_is() {
    let terms = |free: i32, safe: i32| Params {
        chess_passed_free_eg: free,
        chess_passed_safe_eg: safe,
        chess_passed_unstoppable: 0,
        ..unscaled()
    };
    let (with_terms, without_terms) = (terms(10, 5), terms(0, 0));
    let gain = |fen: &str| chess_gain(&with_terms, &without_terms, fen);
    assert_eq!(gain("8/8/8/P7/8/8/8/K6k w - - 0 1"), 9 * 10);
    // The king on b8 guards a7 and a8, not a6.
    assert_eq!(gain("1k6/8/8/P7/8/8/8/K7 w - - 0 1"), 9 * 5);
    // On b7 it guards a6.
    assert_eq!(gain("8/1k6/8/P7/8/8/8/K7 w - - 0 1"), 0);
    // On a8 it stands on the path and guards a7: a6 alone is safe.
    assert_eq!(gain("k7/8/8/P7/8/8/8/K7 w - - 0 1"), 9 * 5);
}

/// The rule of the square: a passer whose promotion square the bare
/// enemy king cannot reach in time is worth the unstoppable bonus; one
/// the king catches, or one of a side whose opponent keeps a piece, is
/// not.
#[test]
fn a_passer_outside_the_square_of_a_bare_king_is_unstoppable() {
    let with_term = Params {
        chess_passed_unstoppable: 400,
        ..unscaled()
    };
    let without_term = Params {
        chess_passed_unstoppable: 0,
        ..unscaled()
    };
    let gain = |fen: &str| chess_gain(&with_term, &without_term, fen);
    // a4 needs four moves; the king on h5 needs seven to reach a8.
    assert_eq!(gain("8/8/8/7k/P7/8/8/7K w - - 0 1"), 400);
    // From c5 it needs three.
    assert_eq!(gain("8/8/8/2k5/P7/8/8/7K w - - 0 1"), 0);
    // From e8 it needs four: in time, though the pawn moves first.
    assert_eq!(gain("4k3/8/8/8/P7/8/8/7K w - - 0 1"), 0);
    // From f8 it needs five: with White to move the pawn runs through;
    // with Black to move the king's tempo catches it.
    assert_eq!(gain("5k2/8/8/8/P7/8/8/7K w - - 0 1"), 400);
    assert_eq!(gain("5k2/8/8/8/P7/8/8/7K b - - 0 1"), 0);
    // From its start square the pawn may step twice: a2 needs five moves.
    assert_eq!(gain("6k1/8/8/8/8/8/P7/7K w - - 0 1"), 400);
    // A knight left to the defender: no rule of the square.
    assert_eq!(gain("8/8/8/7k/P7/8/8/n6K w - - 0 1"), 0);
}

#[test]
fn a_position_with_a_winning_capture_is_not_quiet() {
    let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
    let hanging =
        Position::from_fen(VariantKind::Chess, "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let defended =
        Position::from_fen(VariantKind::Chess, "4k3/8/4p3/3n4/8/8/3R4/4K3 w - - 0 1").unwrap();
    assert!(!eval.is_quiet(&hanging));
    assert!(eval.is_quiet(&defended));
}

/// The endgame scale of the chess position `fen` under the defaults.
fn chess_endgame_scale(fen: &str) -> i32 {
    let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
    let pos = Position::from_fen(VariantKind::Chess, fen).unwrap();
    eval.blend(&pos).eg_scale
}

#[test]
fn a_side_ahead_with_few_pawns_has_its_endgame_scaled_down() {
    let p = Params::default();
    // A knight and a pawn against a bishop: one pawn.
    let one = chess_endgame_scale("4k3/8/8/8/3b4/8/3P4/3NK3 w - - 0 1");
    assert_eq!(one, p.scale_pawns_base + p.scale_pawns_step);
    // Black ahead: its pawns count.
    let black = chess_endgame_scale("4k3/pp6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(black, p.scale_pawns_base + 2 * p.scale_pawns_step);
    // Five pawns: the full scale.
    assert_eq!(
        chess_endgame_scale("4k3/8/8/8/8/8/PPPPP3/4K3 w - - 0 1"),
        64
    );
}

#[test]
fn bishops_on_opposite_colours_scale_the_endgame_down_further() {
    let p = Params::default();
    // The d6 bishop is dark, the e2 one light.
    let alone = chess_endgame_scale("4k3/8/3b4/8/8/3P4/4B3/4K3 w - - 0 1");
    assert_eq!(alone, p.scale_ocb);
    let with_rooks = chess_endgame_scale("r3k3/8/3b4/8/8/3P4/4B3/R3K3 w - - 0 1");
    assert_eq!(with_rooks, p.scale_pawns_base + p.scale_ocb_step);
    // Bishops on the same colour (e6 is light) scale only by the pawns.
    let same = chess_endgame_scale("4k3/8/4b3/8/8/3P4/4B3/4K3 w - - 0 1");
    assert_eq!(same, p.scale_pawns_base + p.scale_pawns_step);
    // The Ajax Bishop steps orthogonally too: not bound to a colour.
    let afc = Evaluator::new(VariantKind::AjaxFalcon.variant(), &p);
    assert!(afc.light_squares.is_none());
}

#[test]
fn extra_material_scores_for_its_owner_from_either_side() {
    let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
    let w = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let b = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    assert!(eval.evaluate(&w) > 800);
    assert!(eval.evaluate(&b) < -800);
}

#[test]
fn chess_reads_its_own_positional_terms_and_the_ajax_variants_theirs() {
    let chess = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let afc = Position::from_fen(
        VariantKind::AjaxFalcon,
        "4k5/10/10/10/10/10/10/5K4[] w - - 0 1",
    )
    .unwrap();
    let score = |variant: VariantKind, pos: &Position, p: &Params| {
        Evaluator::new(variant.variant(), p).evaluate(pos)
    };
    let defaults = Params::default();
    let mut ajax_tempo = defaults.clone();
    ajax_tempo.tempo += 10;
    let mut chess_tempo = defaults.clone();
    chess_tempo.chess_tempo += 10;
    // Bare kings: the score is the tempo bonus of the side to move.
    assert_eq!(
        score(VariantKind::Chess, &chess, &ajax_tempo),
        score(VariantKind::Chess, &chess, &defaults)
    );
    assert_eq!(
        score(VariantKind::Chess, &chess, &chess_tempo),
        score(VariantKind::Chess, &chess, &defaults) + 10
    );
    assert_eq!(
        score(VariantKind::AjaxFalcon, &afc, &chess_tempo),
        score(VariantKind::AjaxFalcon, &afc, &defaults)
    );
    assert_eq!(
        score(VariantKind::AjaxFalcon, &afc, &ajax_tempo),
        score(VariantKind::AjaxFalcon, &afc, &defaults) + 10
    );
}

/// A variant from a file has values derived from its pieces' moves:
/// on an 8 × 8 board, in knights of 3, the usual values within three
/// quarters of a pawn (the archbishop, 7 by Scharnagl, comes out 6.3:
/// reach cannot tell how well its two moves complement each other).
#[test]
fn a_file_variant_values_its_pieces_by_their_reach() {
    let text = "[values:chess]\narchbishop = a\nchancellor = c\n\
                startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
    let set = ajaxlab_rules::VariantSet::with_text("values.ini", text).unwrap();
    let variant = set.get("values").unwrap();
    let eval = Evaluator::new(variant, &Params::default());
    let knight = eval.piece_value(PieceKind::KNIGHT);
    assert_eq!(knight, Params::default().chess_knight_mg);
    for (letter, usual) in [
        ('N', 3.0),
        ('B', 3.25),
        ('R', 5.0),
        ('Q', 9.0),
        ('A', 7.0),
        ('C', 8.0),
    ] {
        let kind = variant.from_letter(letter).unwrap();
        let derived = 3.0 * f64::from(eval.piece_value(kind)) / f64::from(knight);
        assert!(
            (derived - usual).abs() <= 0.75,
            "{letter}: derived {derived:.2}, usual {usual}"
        );
    }
    // Values the file gives are taken, in Fairy-Stockfish's pawns.
    let given = format!("{text}pieceValueMg = c:1260\npieceValueEg = p:416\n");
    let set = ajaxlab_rules::VariantSet::with_text("values.ini", &given).unwrap();
    let valued = Evaluator::new(set.get("values").unwrap(), &Params::default());
    let chancellor = variant.from_letter('C').unwrap();
    let p = Params::default();
    assert_eq!(valued.piece_value(chancellor), 10 * p.chess_pawn_mg);
    assert_eq!(
        valued.value_eg[PieceKind::PAWN.index()],
        2 * p.chess_pawn_eg
    );
    assert_eq!(
        valued.value_eg[chancellor.index()],
        eval.value_eg[chancellor.index()]
    );
    let extra = |fen| eval.evaluate(&Position::from_fen_in(variant, fen).unwrap());
    assert!(extra("4k3/8/8/8/8/8/8/C3K3 w - - 0 1") > extra("4k3/8/8/8/8/8/8/A3K3 w - - 0 1"));
}
