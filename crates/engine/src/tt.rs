//! The transposition table: a fixed-size hash table of search results,
//! sized by the caller in megabytes.

use ajaxlab_rules::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    check: u32,
    pub(crate) best: Option<Move>,
    pub(crate) score: i16,
    pub(crate) depth: i8,
    pub(crate) bound: Bound,
}

/// The table.
pub(crate) struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of at most `megabytes` MB (a power-of-two number of entries).
    pub(crate) fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let wanted = bytes / std::mem::size_of::<Option<Entry>>();
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![None; count.max(1)],
            mask: count.max(1) - 1,
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        (hash as usize) & self.mask
    }

    /// The entry for `hash`, if one is stored.
    #[inline]
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry> {
        self.entries[self.index(hash)].filter(|e| e.check == (hash >> 32) as u32)
    }

    /// Stores a result, keeping a deeper result of the same position unless
    /// the new one is exact.
    #[inline]
    pub(crate) fn store(
        &mut self,
        hash: u64,
        best: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let i = self.index(hash);
        let check = (hash >> 32) as u32;
        if let Some(old) = self.entries[i]
            && old.check == check
            && i32::from(old.depth) > depth + 2
            && bound != Bound::Exact
        {
            return;
        }
        let best = best.or_else(|| {
            self.entries[i]
                .filter(|e| e.check == check)
                .and_then(|e| e.best)
        });
        self.entries[i] = Some(Entry {
            check,
            best,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
        });
    }
}
