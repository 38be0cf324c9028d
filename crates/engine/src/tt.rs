//! The transposition table: buckets of entries indexed by the position's
//! hash, sized by the caller in megabytes.
//!
//! Each bucket holds [`BUCKET`] entries. A store goes to the entry of the
//! same position if the bucket has one, else to the entry least worth
//! keeping: shallow results and results of earlier searches (their age,
//! counted in searches since they were stored) go first. Entries keep the
//! static evaluation as well, so a position met again need not be
//! evaluated again.

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
    pub(crate) eval: i16,
    pub(crate) depth: i8,
    pub(crate) bound: Bound,
    /// Whether the position was on a principal variation when stored.
    pub(crate) tt_pv: bool,
    generation: u8,
}

/// Entries per bucket.
const BUCKET: usize = 4;

/// The table.
pub(crate) struct Table {
    buckets: Vec<[Option<Entry>; BUCKET]>,
    mask: usize,
    generation: u8,
}

/// What the search stores about one position.
pub(crate) struct Stored {
    /// Best move found, if any.
    pub(crate) best: Option<Move>,
    /// Score, already adjusted for mate distance from this position.
    pub(crate) score: i32,
    /// Static evaluation of the position.
    pub(crate) eval: i32,
    /// Depth searched.
    pub(crate) depth: i32,
    /// What the score means.
    pub(crate) bound: Bound,
    /// Whether the position is or was on a principal variation.
    pub(crate) tt_pv: bool,
}

fn clamp_i16(value: i32) -> i16 {
    i16::try_from(value.clamp(i32::from(i16::MIN), i32::from(i16::MAX))).unwrap_or_default()
}

impl Table {
    /// A table of at most `megabytes` MB (a power-of-two number of buckets).
    pub(crate) fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let wanted = (bytes / std::mem::size_of::<[Option<Entry>; BUCKET]>()).max(1);
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            buckets: vec![[None; BUCKET]; count],
            mask: count - 1,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None; BUCKET]);
        self.generation = 0;
    }

    /// Marks the start of a new search: entries stored before it age.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        // The low bits pick the bucket, the high bits check the entry.
        (hash as usize) & self.mask
    }

    /// The entry for `hash`, if one is stored.
    #[inline]
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry> {
        let check = (hash >> 32) as u32;
        self.buckets[self.index(hash)]
            .iter()
            .flatten()
            .find(|e| e.check == check)
            .copied()
    }

    /// Stores a result. An entry of the same position is replaced unless it
    /// is deeper by more than two plies and the new result is not exact;
    /// its best move survives a store that has none.
    #[inline]
    pub(crate) fn store(&mut self, hash: u64, stored: Stored) {
        let check = (hash >> 32) as u32;
        let generation = self.generation;
        let index = self.index(hash);
        let bucket = &mut self.buckets[index];
        let slot = match bucket
            .iter()
            .position(|e| e.is_some_and(|e| e.check == check))
        {
            Some(same) => same,
            None => {
                let worth = |e: &Option<Entry>| match e {
                    None => i32::MIN,
                    Some(e) => {
                        let age = i32::from(generation.wrapping_sub(e.generation));
                        i32::from(e.depth) - 8 * age
                    }
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            }
        };
        let mut best = stored.best;
        if let Some(old) = bucket[slot].filter(|e| e.check == check) {
            if old.generation == generation
                && i32::from(old.depth) > stored.depth + 2
                && stored.bound != Bound::Exact
            {
                return;
            }
            best = best.or(old.best);
        }
        bucket[slot] = Some(Entry {
            check,
            best,
            score: clamp_i16(stored.score),
            eval: clamp_i16(stored.eval),
            depth: i8::try_from(stored.depth.clamp(-1, 127)).unwrap_or(0),
            bound: stored.bound,
            tt_pv: stored.tt_pv,
            generation,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(depth: i32, score: i32) -> Stored {
        Stored {
            best: None,
            score,
            eval: score,
            depth,
            bound: Bound::Lower,
            tt_pv: false,
        }
    }

    #[test]
    fn positions_sharing_a_bucket_are_all_kept() {
        let mut table = Table::new(1);
        let hashes: Vec<u64> = (1..=BUCKET as u64).map(|i| i << 40 | 7).collect();
        for (i, &h) in hashes.iter().enumerate() {
            table.store(h, stored(5, i32::try_from(i).unwrap_or(0)));
        }
        for (i, &h) in hashes.iter().enumerate() {
            let e = table.probe(h).map(|e| i32::from(e.score));
            assert_eq!(e, Some(i32::try_from(i).unwrap_or(0)));
        }
    }

    #[test]
    fn an_entry_remembers_whether_it_was_on_a_principal_variation() {
        let mut table = Table::new(1);
        table.store(11, stored(4, 0));
        table.store(
            12,
            Stored {
                tt_pv: true,
                ..stored(4, 0)
            },
        );
        assert_eq!(table.probe(11).map(|e| e.tt_pv), Some(false));
        assert_eq!(table.probe(12).map(|e| e.tt_pv), Some(true));
    }

    #[test]
    fn old_shallow_entries_make_room_first() {
        let mut table = Table::new(1);
        let hashes: Vec<u64> = (1..=BUCKET as u64 + 1).map(|i| i << 40 | 9).collect();
        table.store(hashes[0], stored(2, 0));
        table.new_search();
        for &h in &hashes[1..BUCKET] {
            table.store(h, stored(6, 1));
        }
        table.store(hashes[BUCKET], stored(6, 2));
        assert!(table.probe(hashes[0]).is_none(), "the old shallow one goes");
        assert!(hashes[1..].iter().all(|&h| table.probe(h).is_some()));
    }
}
