use super::*;

fn offsets(text: &str) -> Vec<(i8, i8)> {
    let moves = PieceMoves::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut all: Vec<(i8, i8)> = moves
        .steps
        .iter()
        .flat_map(|s| s.offsets.iter().map(|o| (o.dx, o.dy)))
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

fn error(text: &str) -> (usize, BetzaErrorKind) {
    let e = PieceMoves::parse(text).expect_err(text);
    (e.position, e.kind)
}

#[test]
fn a_knight_leaps_to_its_eight_targets() {
    let moves = PieceMoves::parse("N").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(moves.steps.len(), 1);
    let step = &moves.steps[0];
    assert_eq!(step.reach, Reach::Leap);
    assert_eq!(step.mode, Mode::MoveAndCapture);
    assert_eq!(step.offsets.len(), 8);
    assert!(step.is_symmetric());
}

#[test]
fn riders_are_the_slider_letters_doubled_atoms_and_numbered_ranges() {
    let rook = PieceMoves::parse("R").unwrap_or_else(|e| panic!("{e}"));
    let doubled = PieceMoves::parse("WW").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rook, doubled);
    assert_eq!(rook.steps[0].reach, Reach::Ride(Range::Unlimited));
    let short = PieceMoves::parse("R4").unwrap_or_else(|e| panic!("{e}"));
    let four = NonZeroU8::new(4).map(Range::Limited);
    assert_eq!(Some(short.steps[0].reach), four.map(Reach::Ride));
    let nightrider = PieceMoves::parse("NN").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nightrider.steps[0].atom, Atom { long: 2, short: 1 });
    assert_eq!(nightrider.steps[0].reach, Reach::Ride(Range::Unlimited));
    assert_eq!(PieceMoves::parse("Q").map(|m| m.steps.len()), Ok(2));
}

#[test]
fn the_ajax_pieces_read_as_their_table_says() {
    let rook = PieceMoves::parse("RmF").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rook.steps[1].mode, Mode::MoveOnly);
    assert_eq!(rook.steps[1].reach, Reach::Leap);
    let falcon = PieceMoves::parse("WnNnZmF").unwrap_or_else(|e| panic!("{e}"));
    let reaches: Vec<Reach> = falcon.steps.iter().map(|s| s.reach).collect();
    assert_eq!(
        reaches,
        [Reach::Leap, Reach::Lame, Reach::Lame, Reach::Leap]
    );
    assert!(falcon.steps.iter().all(Step::is_symmetric));
}

#[test]
fn modality_m_moves_c_captures_and_both_or_none_do_both() {
    let modes = |t: &str| PieceMoves::parse(t).map(|m| m.steps[0].mode);
    assert_eq!(modes("mN"), Ok(Mode::MoveOnly));
    assert_eq!(modes("cN"), Ok(Mode::CaptureOnly));
    assert_eq!(modes("mcN"), Ok(Mode::MoveAndCapture));
}

#[test]
fn lame_paths_follow_the_longer_remaining_axis() {
    let path = |dx, dy| Step::lame_path(Offset { dx, dy });
    assert_eq!(path(1, 2), [Offset { dx: 0, dy: 1 }]);
    assert_eq!(
        path(2, 3),
        [Offset { dx: 0, dy: 1 }, Offset { dx: 1, dy: 2 }]
    );
    assert_eq!(path(2, 2), [Offset { dx: 1, dy: 1 }]);
    assert_eq!(
        path(-3, 0),
        [Offset { dx: -1, dy: 0 }, Offset { dx: -2, dy: 0 }]
    );
    assert!(path(1, 1).is_empty());
    assert_eq!(
        PieceMoves::parse("nD").map(|m| m.steps[0].reach),
        Ok(Reach::Lame)
    );
}

#[test]
fn directions_follow_fairy_stockfish() {
    assert_eq!(offsets("fW"), [(0, 1)]);
    assert_eq!(offsets("fsW"), [(-1, 0), (0, 1), (1, 0)]);
    assert_eq!(offsets("fN"), [(-1, 2), (1, 2)]);
    assert_eq!(offsets("ffN"), offsets("fN"));
    assert_eq!(offsets("fsN"), [(-2, 1), (2, 1)]);
    assert_eq!(offsets("rfN"), [(1, 2)]);
    assert_eq!(offsets("frN"), [(2, 1)]);
    assert_eq!(offsets("lvN"), [(-1, -2), (-1, 2)]);
    assert_eq!(offsets("bF"), [(-1, -1), (1, -1)]);
    assert_eq!(offsets("vW"), [(0, -1), (0, 1)]);
    assert_eq!(offsets("sR"), [(-1, 0), (1, 0)]);
    // On K (two atoms) a pair is not split: fsK is sideways W plus forward F.
    assert_eq!(offsets("fsK"), [(-1, 0), (-1, 1), (1, 0), (1, 1)]);
    // Gold: W and forward F.
    assert_eq!(offsets("WfF").len(), 6);
    assert!(!PieceMoves::parse("fR").is_ok_and(|m| m.steps[0].is_symmetric()));
}

#[test]
fn unsupported_constructs_are_named_with_their_position() {
    assert!(matches!(
        error("mRcpR"),
        (4, BetzaErrorKind::Unsupported { construct: 'p', .. })
    ));
    assert!(matches!(
        error("ifmnD"),
        (1, BetzaErrorKind::Unsupported { construct: 'i', .. })
    ));
    assert_eq!(error("NX"), (2, BetzaErrorKind::UnknownChar('X')));
    assert_eq!(
        error("Nmc"),
        (2, BetzaErrorKind::DanglingModifiers("mc".into()))
    );
    assert_eq!(error("nR"), (2, BetzaErrorKind::LameRider('R')));
    // Fairy-Stockfish gives nH, nC, nG, nW, nF, nK no moves at all.
    for (text, atom) in [
        ("nH", 'H'),
        ("WnC", 'C'),
        ("nG", 'G'),
        ("nW", 'W'),
        ("nK", 'K'),
    ] {
        let position = text.len();
        assert_eq!(
            error(text),
            (position, BetzaErrorKind::LameAtom(atom)),
            "{text}"
        );
    }
    assert_eq!(error("W0"), (2, BetzaErrorKind::BadRange("0".into())));
    assert_eq!(error("KR12"), (3, BetzaErrorKind::BadRange("12".into())));
    assert_eq!(
        error("vsN"),
        (1, BetzaErrorKind::EmptyDirection("vs".into()))
    );
    assert_eq!(error(""), (1, BetzaErrorKind::Empty));
    let message = PieceMoves::parse("BgQ").expect_err("hopper").to_string();
    assert!(
        message.contains("position 2") && message.contains("'g'"),
        "{message}"
    );
}

fn components(text: &str) -> Vec<Result<crate::variant::Component, Unplayable>> {
    let moves = PieceMoves::parse(text).unwrap_or_else(|e| panic!("{e}"));
    moves.steps.iter().map(Step::component).collect()
}

#[test]
fn steps_lower_to_the_generator_s_components() {
    use crate::variant::{Component, Geometry, Lines};
    let both = |geometry| {
        Ok(Component {
            geometry,
            mode: Mode::MoveAndCapture,
        })
    };
    assert_eq!(components("N"), vec![both(Geometry::Leap(2, 1))]);
    assert_eq!(
        components("Q"),
        vec![
            both(Geometry::Slide(Lines::Orthogonal)),
            both(Geometry::Slide(Lines::Diagonal))
        ]
    );
    assert_eq!(
        components("mF"),
        vec![Ok(Component {
            geometry: Geometry::Leap(1, 1),
            mode: Mode::MoveOnly
        })]
    );
    // The Falcon's Korean horse and elephant: forward first, then outward.
    assert_eq!(
        components("nN"),
        vec![both(Geometry::Lame(vec![(0, 1), (1, 1)]))]
    );
    assert_eq!(
        components("nZ"),
        vec![both(Geometry::Lame(vec![(0, 1), (1, 1), (1, 1)]))]
    );
    assert_eq!(
        components("nD"),
        vec![both(Geometry::Lame(vec![(0, 1), (0, 1)]))]
    );
}

#[test]
fn steps_the_rules_model_does_not_play_say_why() {
    let atom = |long, short| Atom { long, short };
    assert_eq!(
        components("fW"),
        vec![Err(Unplayable::Asymmetric(atom(1, 0)))]
    );
    assert_eq!(
        components("W3"),
        vec![Err(Unplayable::LimitedRide(
            NonZeroU8::MIN.saturating_add(2)
        ))]
    );
    assert_eq!(
        components("NN"),
        vec![Err(Unplayable::ObliqueRide(atom(2, 1)))]
    );
    let why = Unplayable::ObliqueRide(atom(2, 1)).to_string();
    assert!(why.contains("(2,1)"), "{why}");
}
