//! What the tests know of `tests/fsf/model-variants.ini`: Fairy-Stockfish's
//! coded variants written as sections, and three invented ones.

/// The file's sections, in their order: six of Fairy-Stockfish's variants,
/// a lame leaper (`lamehorse`), drops (`dropwazir`) and chess without
/// castling (`nocastle`).
pub(crate) const MODEL_SECTIONS: [&str; 9] = [
    "capablanca-ini",
    "gothic-ini",
    "embassy-ini",
    "janus-ini",
    "modern-ini",
    "chancellor-ini",
    "lamehorse",
    "dropwazir",
    "nocastle",
];
