//! The table's passes on every core: numbers handed out in chunks to
//! whichever thread is free, the calling thread watching the count.

use super::{CHUNK, Halt};
use crate::search::Limit;
use crate::search::retrograde::Unbuilt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Runs `each` on every number of `ids` on every core, chunk by chunk,
/// and gathers what the calls found; stops all at the first halt or when
/// `limit` is reached. This thread tells `progress` how many are done.
pub(super) fn in_parallel<T: Send>(
    ids: std::ops::Range<u64>,
    limit: &Limit<'_>,
    progress: &mut dyn FnMut(u64),
    each: impl Fn(u64, &mut Vec<T>) -> Result<(), Halt> + Sync,
) -> Result<Vec<T>, Halt> {
    let next = AtomicU64::new(ids.start);
    let done = AtomicU64::new(0);
    let halted = AtomicBool::new(false);
    let threads = crate::cores().min(ids.end.saturating_sub(ids.start).div_ceil(CHUNK) as usize);
    let run = || -> Result<Vec<T>, Halt> {
        let mut found = Vec::new();
        loop {
            let from = next.fetch_add(CHUNK, Relaxed);
            if from >= ids.end || halted.load(Relaxed) {
                return Ok(found);
            }
            if limit.ran_out() {
                halted.store(true, Relaxed);
                return Err(Halt::Unbuilt(Unbuilt::OutOfTime));
            }
            let to = (from + CHUNK).min(ids.end);
            for id in from..to {
                if let Err(e) = each(id, &mut found) {
                    halted.store(true, Relaxed);
                    return Err(e);
                }
            }
            done.fetch_add(to - from, Relaxed);
        }
    };
    let results: Vec<Result<Vec<T>, Halt>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(run)).collect();
        // Short passes (a small game's levels) end within the first naps.
        let mut nap = std::time::Duration::from_micros(100);
        while !handles
            .iter()
            .all(std::thread::ScopedJoinHandle::is_finished)
        {
            progress(done.load(Relaxed));
            std::thread::sleep(nap);
            nap = (nap * 2).min(std::time::Duration::from_millis(50));
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    progress(done.load(Relaxed));
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}
