//! Variants loaded from files stay for the life of the process (about
//! 115 KB each), so what a process loads is bounded: a refused file loads
//! nothing, a file has at most [`MAX_SECTIONS`] sections (counted before it
//! is parsed), and a process at most [`MAX_LOADED_SECTIONS`] in all. A
//! file of 20,000 chained sections once took a coordinator past 2 GB, and
//! refused files grew one by 140 MB each.
//!
//! One test in its own binary: it reads the process-wide count.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{
    MAX_LOADED_SECTIONS, MAX_SECTIONS, VariantKind, VariantSet, VariantSetError, loaded_sections,
};

/// A file of `count` sections named `PREFIX0`, `PREFIX1`, …, each chess.
fn sections(prefix: &str, count: usize) -> String {
    (0..count)
        .map(|i| format!("[{prefix}{i}:chess]\n"))
        .collect()
}

#[test]
fn a_refused_file_loads_nothing_and_a_process_loads_a_bounded_number() {
    let _ = VariantKind::Chess.variant();
    let before = loaded_sections();

    // A hundred good sections and one with more pieces than fit: refused
    // whole, and nothing of it stays.
    let mut refused = sections("good", 100);
    refused.push_str("[bad:chess]\n");
    for (i, letter) in "abcdeghijlmostuvwxyz".chars().enumerate() {
        refused.push_str(&format!("customPiece{} = {letter}:W\n", i + 1));
    }
    let e = VariantSet::with_text("refused.ini", &refused).unwrap_err();
    assert!(e.to_string().contains("at most 10 fit"), "{e}");
    assert_eq!(loaded_sections(), before, "nothing of a refused file stays");

    // Too many sections: refused before it is parsed.
    let e = VariantSet::with_text("many.ini", &sections("many", MAX_SECTIONS + 1)).unwrap_err();
    assert!(
        matches!(e, VariantSetError::TooManySections { count, .. } if count == MAX_SECTIONS + 1),
        "{e}"
    );
    assert_eq!(loaded_sections(), before);

    // Distinct files until the process has loaded what it loads.
    let mut files = 0;
    let full = loop {
        match VariantSet::with_text("f.ini", &sections(&format!("f{files}x"), MAX_SECTIONS)) {
            Ok(_) => files += 1,
            Err(e) => break e,
        }
        assert!(files <= MAX_LOADED_SECTIONS / MAX_SECTIONS, "never refused");
    };
    assert!(
        matches!(full, VariantSetError::ProcessFull { .. }),
        "{full}"
    );
    assert!(
        full.to_string().contains("restart it to load more"),
        "{full}"
    );
    assert!(loaded_sections() - before <= MAX_LOADED_SECTIONS);
    // A file loaded before is found again without loading anything.
    let again = VariantSet::with_text("f.ini", &sections("f0x", MAX_SECTIONS)).unwrap();
    assert!(again.get("f0x5").is_some());
}
