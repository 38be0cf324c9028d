//! The PGN form of SAN ([`SanForm::Pgn`]) against answers printed by
//! Fairy-Stockfish's `get_san` (pyffish 0.0.90 with
//! `tests/fsf/fsf-variants.ini`), and both forms read back.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{GameResult, Position, SanForm, VariantKind, parse_movetext, write_movetext};

const AFC: VariantKind = VariantKind::AjaxFalcon;
const AMRC: VariantKind = VariantKind::AjaxModernRandom;

/// (variant, FEN, UCI move, Fairy-Stockfish's SAN, the seeds' SAN)
const CASES: [(VariantKind, &str, &str, &str, &str); 11] = [
    (
        AFC,
        "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R1BMQKMBNR[FFff] w KQkq - 0 1",
        "F@b1",
        "F@b1",
        "(Fb1)",
    ),
    (
        AFC,
        "10/10/10/10/pp8/k9/2Q7/9K[F] w - - 0 1",
        "F@b1",
        "F@b1#",
        "(Fb1)#",
    ),
    (
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBKQABNR[MMmm] w ABCDEFGHIabcdefghi - 0 1",
        "b1c3m",
        "Nc3/M",
        "Nc3(Mb1)",
    ),
    (
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPP1/RNBKQABNR[MMmm] w ABCDEFGHIabcdefghi - 0 1",
        "f1e3m",
        "Ae3/M",
        "PMe3(Mf1)",
    ),
    (
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w AEIabcdefghi - 0 1",
        "e1i1m",
        "O-O/Me1",
        "O-O-Og(Me1)",
    ),
    (
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w AEIabcdefghi - 0 1",
        "i1e1m",
        "O-O/Mi1",
        "O-O-Og(Mi1)",
    ),
    (
        AMRC,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R[MMmm] w AEIabcdefghi - 0 1",
        "a1e1m",
        "O-O-O/Ma1",
        "O-O-Oc(Ma1)",
    ),
    (
        AMRC,
        "9/P8/9/9/9/9/9/9/K7k[] w - - 0 1",
        "a8a9a",
        "a9=A+",
        "a9=PM+",
    ),
    (
        AMRC,
        "rknrqnbba/1pp1ppppp/p2p5/9/9/7P1/4P4/PPPP1PP1P/ABBNQRNKR[MMmm] w IFABCDEGHdabcefghi - 0 3",
        "d1e2",
        "Nde2",
        "Nde2",
    ),
    (
        AFC,
        "4k5/10/10/10/10/10/10/1N1NK5[] w - - 0 1",
        "b1c3",
        "Nbc3",
        "Nbc3",
    ),
    (
        AMRC,
        "nmqrkbbar/n1pppppp1/1p6p/p8/9/4P4/6PN1/PPPPKP1PP/RABBMRQN1[Mm] w ABCDFGHidacefgh - 2 5",
        "h1i1m",
        "Ni1/M",
        "Ni1(Mh1)",
    ),
];

#[test]
fn pgn_san_is_fairy_stockfish_s_and_both_forms_read_back() {
    for (variant, fen, uci, fsf, seeds) in CASES {
        let pos = Position::from_fen(variant, fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        assert_eq!(pos.san_in(m, SanForm::Pgn), fsf, "{uci} at {fen}");
        assert_eq!(pos.san(m), seeds, "{uci} at {fen}");
        for text in [fsf, seeds] {
            assert_eq!(pos.parse_san(text), Ok(m), "{text} at {fen}");
        }
    }
}

#[test]
fn a_gating_move_fairy_stockfish_leaves_ambiguous_is_disambiguated() {
    // Fairy-Stockfish writes `Ne2/M` for both d1e2m and g1e2m.
    let pos = Position::from_fen(AMRC, CASES[8].1).unwrap();
    let m = pos.parse_uci("d1e2m").unwrap();
    assert_eq!(pos.san_in(m, SanForm::Pgn), "Nde2/M");
    assert!(pos.parse_san("Ne2/M").is_err());
}

#[test]
fn pgn_movetext_has_no_parenthesis_and_replays() {
    let pos = Position::from_fen(AMRC, CASES[2].1).unwrap();
    let mut moves = Vec::new();
    let mut p = pos;
    for uci in ["b1c3m", "b9c7m", "f1e3m"] {
        let m = p.parse_uci(uci).unwrap();
        p.play_unchecked(m);
        moves.push(m);
    }
    let comments = [String::new(), "+0.25/12 0.510s".to_owned()];
    let text = write_movetext(&pos, &moves, &comments, Some(GameResult::Draw));
    assert_eq!(text, "1. Nc3/M Nc7/M {+0.25/12 0.510s} 2. Ae3/M 1/2-1/2");
    assert_eq!(parse_movetext(&pos, &text), Ok(moves));
}
