//! The search's features that can be switched off one by one, to measure
//! what each is worth (ablation matches: `disable = ["singular"]`).

/// Search features that can be switched off, to measure what each is worth
/// (ablation matches). All are on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility, futility and late-move pruning.
    pub pruning: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Check extension.
    pub check_extension: bool,
    /// Killer and history move ordering (hash move and MVV-LVA stay).
    pub history: bool,
    /// Singular extensions.
    pub singular: bool,
    /// Internal iterative reduction.
    pub iir: bool,
    /// Correction of the static eval by pawn structure and by each side's other pieces.
    pub correction: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            lmr: true,
            pruning: true,
            aspiration: true,
            check_extension: true,
            history: true,
            singular: true,
            iir: true,
            correction: true,
        }
    }
}

impl Features {
    /// Names accepted by [`Features::disable`].
    pub const NAMES: [&'static str; 9] = [
        "null-move",
        "lmr",
        "pruning",
        "aspiration",
        "check-extension",
        "history",
        "singular",
        "iir",
        "correction",
    ];

    /// The names of the features switched off.
    pub fn disabled(&self) -> Vec<&'static str> {
        let flags = [
            self.null_move,
            self.lmr,
            self.pruning,
            self.aspiration,
            self.check_extension,
            self.history,
            self.singular,
            self.iir,
            self.correction,
        ];
        Self::NAMES
            .iter()
            .zip(flags)
            .filter(|(_, on)| !on)
            .map(|(name, _)| *name)
            .collect()
    }

    /// Switches off the feature `name`; false if there is no such feature.
    pub fn disable(&mut self, name: &str) -> bool {
        let flag = match name {
            "null-move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "pruning" => &mut self.pruning,
            "aspiration" => &mut self.aspiration,
            "check-extension" => &mut self.check_extension,
            "history" => &mut self.history,
            "singular" => &mut self.singular,
            "iir" => &mut self.iir,
            "correction" => &mut self.correction,
            _ => return false,
        };
        *flag = false;
        true
    }
}
