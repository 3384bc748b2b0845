//! The table's passes on every core: numbers handed out in chunks to
//! whichever thread is free, the calling thread watching the count.

use super::{CHUNK, Halt};
use crate::search::Limit;
use crate::search::retrograde::Unbuilt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

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
    let ended = AtomicUsize::new(0);
    let results: Vec<Result<Vec<T>, Halt>> = std::thread::scope(|scope| {
        // Each worker wakes this thread as it ends, so a pass's end is seen
        // at once; between, it wakes to report progress.
        let watcher = std::thread::current();
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let watcher = watcher.clone();
                let run = &run;
                let ended = &ended;
                scope.spawn(move || {
                    let _wake = Wake { ended, watcher };
                    run()
                })
            })
            .collect();
        while ended.load(Relaxed) < threads {
            progress(done.load(Relaxed));
            std::thread::park_timeout(std::time::Duration::from_millis(50));
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

/// Counts a worker as ended and wakes the watcher when it drops: at the
/// end of its work, or as a panic unwinds it (the watcher then joins it and
/// passes the panic on). Counted before the wake: a thread still exiting
/// is not yet `is_finished`, and the watcher would nap on.
struct Wake<'a> {
    ended: &'a AtomicUsize,
    watcher: std::thread::Thread,
}

impl Drop for Wake<'_> {
    fn drop(&mut self) {
        self.ended.fetch_add(1, Relaxed);
        self.watcher.unpark();
    }
}
