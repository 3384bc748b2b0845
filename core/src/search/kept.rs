//! What the exact methods build once per rulebook and keep: graphs and
//! tables of positions.
//!
//! Implementation note: the search keeps them, not the rulebook nor its
//! callers. What is built depends on nothing but the rules (not on the
//! budget, the deadline or who asks), so sharing it is invisible but for
//! speed, and every caller that asks twice — a session's moves and
//! `solve`s, an arena's games on all its threads, a brain's turns, the
//! tests that solve every position — gets it without carrying a cache. A
//! load is named by its script host, which only the copies of one load
//! share (under other table rules, of which only the pie rule changes the
//! moves, and nothing is built under it); the host's weak pointer keeps
//! its address from being reused by a later load, and what was built for
//! rulebooks that are all gone is dropped at the next look.

use crate::script::ScriptHost;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

/// What was built for each load (`None`: too large).
pub(super) struct Kept<T>(Mutex<Vec<Entry<T>>>);

/// A load and what was built for it.
type Entry<T> = (Weak<ScriptHost>, Option<Arc<T>>);

impl<T> Kept<T> {
    /// Nothing kept yet.
    pub(super) const fn new() -> Kept<T> {
        Kept(Mutex::new(Vec::new()))
    }

    /// The list, once what was built for loads no longer alive is dropped.
    fn all(&self) -> MutexGuard<'_, Vec<Entry<T>>> {
        let mut all = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        all.retain(|(load, _)| load.strong_count() > 0);
        all
    }

    /// What is kept for `load`, if anything was built.
    pub(super) fn get(&self, load: &Weak<ScriptHost>) -> Option<Option<Arc<T>>> {
        self.all()
            .iter()
            .find(|(l, _)| l.ptr_eq(load))
            .map(|(_, built)| built.clone())
    }

    /// Keeps `built` for `load`, unless another thread kept one first: then
    /// that one, so that every caller shares one.
    pub(super) fn keep(&self, load: Weak<ScriptHost>, built: Option<Arc<T>>) -> Option<Arc<T>> {
        let mut all = self.all();
        if let Some((_, first)) = all.iter().find(|(l, _)| l.ptr_eq(&load)) {
            return first.clone();
        }
        all.push((load, built.clone()));
        built
    }
}
