//! What pages read from the coordinator, kept for at most [`MAX_AGE`] and
//! shared by every page that asks meanwhile. A change wakes every open page
//! at once: without this, a hundred pages would read the database a
//! hundred times for one change, and the workers' requests, which wait on
//! the same database, would wait behind them (`ajaxlab loadgen
//! --live-pages` measures it). An operator's action forgets what it
//! changed, so that its own page shows it at once. The live parts are kept
//! as sent, too: a hundred readers of one page are sent one rendering.

use super::campaign::Details;
use super::error::WebError;
use super::list::Summary;
use crate::coordinator::WorkerHealth;
use crate::ids::CampaignId;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The oldest a page's reading may be: the live updates' own pace.
pub const MAX_AGE: Duration = Duration::from_secs(1);

/// One reading and when it was taken.
type Slot<T> = Arc<Mutex<Option<(Instant, Arc<T>)>>>;

/// Readings by key, each at most [`MAX_AGE`] old.
pub(super) struct Fresh<K, T> {
    slots: Mutex<HashMap<K, Slot<T>>>,
}

impl<K, T> Default for Fresh<K, T> {
    fn default() -> Self {
        Fresh {
            slots: Mutex::new(HashMap::new()),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<K: Eq + Hash + Clone, T> Fresh<K, T> {
    /// `key`'s reading if it is younger than [`MAX_AGE`], else `read()`'s.
    /// One reader per key at a time: pages that ask meanwhile wait for it
    /// and share what it read. It blocks: call it off the async threads.
    pub(super) fn get(
        &self,
        key: &K,
        read: impl FnOnce() -> Result<T, WebError>,
    ) -> Result<Arc<T>, WebError> {
        let slot = Arc::clone(lock(&self.slots).entry(key.clone()).or_default());
        let mut slot = lock(&slot);
        if let Some((at, value)) = &*slot
            && at.elapsed() < MAX_AGE
        {
            return Ok(Arc::clone(value));
        }
        let value = Arc::new(read()?);
        *slot = Some((Instant::now(), Arc::clone(&value)));
        Ok(value)
    }

    /// Forgets `key`'s reading: the next page reads anew.
    pub(super) fn forget(&self, key: &K) {
        lock(&self.slots).remove(key);
    }
}

/// A live part's key: what it shows, and for whom (the session's CSRF
/// token its forms carry; none for a reader).
pub(super) type FragmentKey = (String, Option<String>);

/// The readings the pages share.
#[derive(Default)]
pub(super) struct Snapshots {
    /// The live parts as sent, by what they show and for whom.
    pub(super) fragments: Fresh<FragmentKey, axum::body::Bytes>,
    /// Each campaign's page.
    pub(super) campaigns: Fresh<CampaignId, Details>,
    /// The campaigns list.
    pub(super) list: Fresh<(), Vec<Summary>>,
    /// The workers page.
    pub(super) workers: Fresh<(), Vec<WorkerHealth>>,
}

impl Snapshots {
    /// Forgets what an action on campaign `id` changed.
    pub(super) fn changed(&self, id: &CampaignId) {
        self.campaigns.forget(id);
        self.list.forget(&());
        lock(&self.fragments.slots).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_reading_is_shared_and_a_forgotten_one_read_again() {
        let fresh: Fresh<u8, u32> = Fresh::default();
        let mut reads = 0;
        let mut read = |n| {
            reads += 1;
            Ok(n)
        };
        assert_eq!(
            *fresh
                .get(&1, || read(10))
                .unwrap_or_else(|_| unreachable!()),
            10
        );
        assert_eq!(
            *fresh
                .get(&1, || read(11))
                .unwrap_or_else(|_| unreachable!()),
            10
        );
        fresh.forget(&1);
        assert_eq!(
            *fresh
                .get(&1, || read(12))
                .unwrap_or_else(|_| unreachable!()),
            12
        );
        assert!(
            fresh
                .get(&2, || Err(WebError::NotFound("x".into())))
                .is_err()
        );
        assert_eq!(
            *fresh
                .get(&2, || read(20))
                .unwrap_or_else(|_| unreachable!()),
            20,
            "a failed reading is not kept"
        );
        assert_eq!(reads, 3);
    }
}
