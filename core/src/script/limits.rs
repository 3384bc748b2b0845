//! What a script may spend: time per hook call, time for a whole piece of
//! work (a command, a load, a brain's turn), and memory per call.
//!
//! Rhai counts operations and the items of each value, but not time, nor
//! what values hold in all (a closure's captured value counts as nothing,
//! and a hundred copies of a large array are a hundred values within
//! their limit). So the engine's progress callback reads the clock every
//! few dozen operations, and every few milliseconds how much memory the
//! program holds.
//!
//! The budget for a piece of work is a value, [`ScriptBudget`]: the code
//! that starts threads hands it to each of them ([`ScriptBudget::run`]), so
//! it holds on every thread the work uses, not just the one that set it.
//! It may carry the front end's Ctrl-C ([`ScriptBudget::stopped_by`]), so
//! that a slow hook never holds a stopped command past its next check.

use crate::interrupt::Interrupt;
use std::cell::RefCell;
use std::time::{Duration, Instant};

/// How long one hook call may run. Operations are counted too, but one
/// operation on a large value can take long.
pub const HOOK_SECONDS: u64 = 2;
/// How long the scripts may run in all for one command, where the front end
/// sets a budget (see [`ScriptBudget::command`]).
pub const COMMAND_SCRIPT_SECONDS: u64 = 10;
/// How long a rulebook's scripts may run in all while it loads: its top
/// level, the modules it imports and every load-time hook.
pub const LOAD_SECONDS: u64 = 4;
/// How much a hook call (or a script's top level) may grow the program's
/// memory, in MiB.
pub const MEMORY_MIB: u64 = 256;
/// What a script's top level may leave behind for the hooks, in MiB,
/// counted through closures: it stays for as long as the rulebook does.
pub const KEPT_MIB: u64 = 16;

/// How often (in operations) the clock is read: reading it costs as much
/// as a few dozen operations.
const CLOCK_EVERY: u64 = 64;
/// How often the memory is read: a read costs about as much as a thousand
/// operations, and a script grows memory by well under a megabyte a
/// millisecond (about 0.4 MB/ms measured, copying a 99 000-item array in
/// a loop), so this lets a call overshoot by a few megabytes at most.
const MEMORY_EVERY: Duration = Duration::from_millis(10);

/// The time the scripts of a piece of work may take in all, and why: an
/// end, or none; and the flag that stops them at once, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptBudget {
    end: Option<(Instant, &'static str)>,
    stop: Option<Interrupt>,
}

thread_local! {
    /// The budget of the work running on this thread.
    static BUDGET: RefCell<ScriptBudget> = const { RefCell::new(ScriptBudget::UNLIMITED) };
    /// The hook call running on this thread, if one is.
    static CALL: RefCell<Option<Call>> = const { RefCell::new(None) };
}

/// Why a script is stopped by the budget's flag.
const STOPPED_WHY: &str = "stopped (Ctrl-C)";

impl ScriptBudget {
    /// No limit beyond each hook call's own.
    pub const UNLIMITED: ScriptBudget = ScriptBudget {
        end: None,
        stop: None,
    };

    /// Scripts may run until `end`; `why` says so in the error of a script
    /// stopped there ("ran out of time: `why`").
    pub fn until(end: Instant, why: &'static str) -> ScriptBudget {
        ScriptBudget {
            end: Some((end, why)),
            stop: None,
        }
    }

    /// This budget, and the scripts stop as soon as `stop` is raised (at
    /// the next hook call, or within a few dozen operations of one under
    /// way), whatever time is left.
    #[must_use]
    pub fn stopped_by(self, stop: &Interrupt) -> ScriptBudget {
        ScriptBudget {
            stop: Some(stop.clone()),
            ..self
        }
    }

    /// A command's budget: [`COMMAND_SCRIPT_SECONDS`] from now.
    pub fn command() -> ScriptBudget {
        ScriptBudget::until(
            Instant::now() + Duration::from_secs(COMMAND_SCRIPT_SECONDS),
            "a command's scripts may run 10 s in all",
        )
    }

    /// A load's budget: [`LOAD_SECONDS`] from now.
    pub fn load() -> ScriptBudget {
        ScriptBudget::until(
            Instant::now() + Duration::from_secs(LOAD_SECONDS),
            "a rulebook's scripts may run 4 s in all while it loads",
        )
    }

    /// The budget of the work running on this thread: what a thread that
    /// starts others hands to them.
    pub fn current() -> ScriptBudget {
        BUDGET.with_borrow(ScriptBudget::clone)
    }

    /// When the budget ends, if it does.
    pub fn end(&self) -> Option<Instant> {
        self.end.map(|(end, _)| end)
    }

    /// The sooner-ending of two budgets, stopped by either's flag (the
    /// first's where both have one).
    #[must_use]
    pub fn min(self, other: ScriptBudget) -> ScriptBudget {
        let end = match (self.end, other.end) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        ScriptBudget {
            end,
            stop: self.stop.or(other.stop),
        }
    }

    /// Why scripts under this budget must not start now, if they must not.
    fn spent(&self, now: Instant) -> Option<&'static str> {
        if self.stop.as_ref().is_some_and(Interrupt::is_raised) {
            return Some(STOPPED_WHY);
        }
        self.end.and_then(|(end, why)| (now >= end).then_some(why))
    }

    /// Makes this the budget of everything that follows on this thread,
    /// until set again (the REPL sets one before each command).
    pub fn set(self) {
        BUDGET.with_borrow_mut(|b| *b = self);
    }

    /// Runs `work` on this thread with this budget in place of the one set
    /// here (which may be sooner: a load inside a move has its own), and
    /// puts that one back after, even if `work` panics.
    pub fn replacing<T>(&self, work: impl FnOnce() -> T) -> T {
        let _restore = Restore(ScriptBudget::current());
        self.clone().set();
        work()
    }

    /// Runs `work` on this thread within this budget and the one already
    /// set here, whichever ends sooner; the budget before is restored
    /// after, even if `work` panics.
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        let before = ScriptBudget::current();
        before.clone().min(self.clone()).set();
        let _restore = Restore(before);
        work()
    }
}

/// Puts back the budget that was set before.
struct Restore(ScriptBudget);

impl Drop for Restore {
    fn drop(&mut self) {
        std::mem::take(&mut self.0).set();
    }
}

/// A hook call under way on this thread.
struct Call {
    deadline: Instant,
    /// Why the call must stop at `deadline`: its own limit or the budget's.
    why: &'static str,
    /// When memory is next read.
    next_look: Instant,
    /// What the program held when memory was first read in this call.
    held_at_start: Option<u64>,
}

/// Why a call stopped at its own limit (its number is the constant's,
/// which a unit test keeps in step).
const HOOK_WHY: &str = "a hook call may run 2 s";

/// Why a call never started or was stopped: the message of its error.
pub(crate) type Stop = String;

/// Runs `call` as one hook call: with this thread's hook deadline set to
/// the sooner of [`HOOK_SECONDS`] from now and the budget's end, and its
/// memory watched. A nested call (a module's top level, run by `import`)
/// is part of the outer one. A call that would start after the budget's
/// end is not made: a hook of a few operations never reaches the checks
/// in [`progress`], and a search may call thousands of them.
pub(crate) fn within_limits<T, E>(
    call: impl FnOnce() -> Result<T, E>,
    stopped: impl FnOnce(Stop) -> E,
) -> Result<T, E> {
    if CALL.with_borrow(Option::is_some) {
        return call();
    }
    let now = Instant::now();
    // Read in place: a search makes thousands of calls, on every thread,
    // and a copy would touch the flag's shared count each time.
    let (spent, end) = BUDGET.with_borrow(|b| (b.spent(now), b.end));
    if let Some(why) = spent {
        return Err(stopped(stop_message(why)));
    }
    let own = now + Duration::from_secs(HOOK_SECONDS);
    let (deadline, why) = match end {
        Some((end, why)) if end < own => (end, why),
        _ => (own, HOOK_WHY),
    };
    CALL.with_borrow_mut(|c| {
        *c = Some(Call {
            deadline,
            why,
            next_look: now + MEMORY_EVERY,
            held_at_start: None,
        });
    });
    /// Ends the call's watch, even if `call` panics.
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            CALL.with_borrow_mut(|c| *c = None);
        }
    }
    let _end = End;
    call()
}

/// The engine's progress callback: why the script running on this thread
/// must stop now, if it must. Called at every operation, so the common
/// case is kept to one test, inlined.
#[inline(always)]
pub(crate) fn progress(ops: u64) -> Option<Stop> {
    if !ops.is_multiple_of(CLOCK_EVERY) {
        return None;
    }
    look()
}

/// [`progress`], every [`CLOCK_EVERY`] operations.
#[cold]
fn look() -> Option<Stop> {
    CALL.with_borrow_mut(|c| {
        let call = c.as_mut()?;
        if BUDGET.with_borrow(|b| b.stop.as_ref().is_some_and(Interrupt::is_raised)) {
            return Some(stop_message(STOPPED_WHY));
        }
        let now = Instant::now();
        if now >= call.deadline {
            return Some(stop_message(call.why));
        }
        if now < call.next_look {
            return None;
        }
        call.next_look = now + MEMORY_EVERY;
        resident_bytes().and_then(|held| match call.held_at_start {
            None => {
                call.held_at_start = Some(held);
                None
            }
            Some(start) => (held > start + (MEMORY_MIB << 20)).then(|| {
                format!(
                    "used too much memory: a hook call may grow the program by {MEMORY_MIB} MiB, and this one grew it from {} to {} MiB",
                    start >> 20,
                    held >> 20
                )
            }),
        })
    })
}

/// The error of a script stopped for `why`: its time ran out, or its
/// budget's flag was raised.
fn stop_message(why: &'static str) -> Stop {
    if why == STOPPED_WHY {
        why.to_string()
    } else {
        format!("ran out of time: {why}")
    }
}

/// How much memory the program holds now (its resident set), where the
/// system says (Linux's `/proc`); elsewhere `None`, and memory is not
/// watched.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib << 10)
}

/// How deep [`bytes_held`] looks: deeper values (or a closure that
/// captured itself) are refused rather than counted.
pub(crate) const KEPT_DEPTH: usize = 64;

/// About how many bytes `value` holds, counting into arrays, maps, blobs,
/// strings and the values closures captured; counting stops once past
/// `limit` (the answer is then only known to be over it). `None` when it
/// nests deeper than [`KEPT_DEPTH`].
pub(crate) fn bytes_held(value: &rhai::Dynamic, limit: u64) -> Option<u64> {
    let mut total = 0;
    add_bytes(value, limit, KEPT_DEPTH, &mut total)?;
    Some(total)
}

fn add_bytes(value: &rhai::Dynamic, limit: u64, depth: usize, total: &mut u64) -> Option<()> {
    // Every value takes a slot of this size wherever it is kept.
    *total += std::mem::size_of::<rhai::Dynamic>() as u64;
    if *total > limit {
        return Some(());
    }
    let depth = depth.checked_sub(1)?;
    let each = |items: &mut dyn Iterator<Item = &rhai::Dynamic>, total: &mut u64| {
        for item in items {
            add_bytes(item, limit, depth, total)?;
            if *total > limit {
                break;
            }
        }
        Some(())
    };
    if value.is_shared() {
        // A closure's captured variable: read through the lock, not copied.
        // One that cannot be read is not counted as nothing: refused.
        let inner = value.read_lock::<rhai::Dynamic>()?;
        each(&mut std::iter::once(&*inner), total)?;
    } else if let Some(items) = value.read_lock::<rhai::Array>() {
        each(&mut items.iter(), total)?;
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        *total += map.keys().map(|k| k.len() as u64).sum::<u64>();
        each(&mut map.values(), total)?;
    } else if let Some(blob) = value.read_lock::<rhai::Blob>() {
        *total += blob.len() as u64;
    } else if let Some(text) = value.read_lock::<rhai::ImmutableString>() {
        *total += text.len() as u64;
    } else if let Some(f) = value.read_lock::<rhai::FnPtr>() {
        each(&mut f.iter_curry(), total)?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::{Array, Dynamic, Engine};

    #[test]
    fn a_budget_run_within_another_keeps_the_sooner_end_and_restores_the_outer() {
        let now = Instant::now();
        let late = ScriptBudget::until(now + Duration::from_secs(60), "late");
        let soon = ScriptBudget::until(now + Duration::from_secs(1), "soon");
        late.run(|| {
            assert_eq!(ScriptBudget::current(), late);
            soon.run(|| assert_eq!(ScriptBudget::current(), soon));
            // A later budget inside a sooner one does not extend it.
            soon.run(|| late.run(|| assert_eq!(ScriptBudget::current(), soon)));
            assert_eq!(ScriptBudget::current(), late);
        });
        assert_eq!(ScriptBudget::current(), ScriptBudget::UNLIMITED);
    }

    #[test]
    fn the_messages_say_the_limits_the_constants_set() {
        let why = |b: ScriptBudget| b.end.map(|(_, why)| why).unwrap_or_default();
        assert!(why(ScriptBudget::command()).contains(&format!(" {COMMAND_SCRIPT_SECONDS} s ")));
        assert!(why(ScriptBudget::load()).contains(&format!(" {LOAD_SECONDS} s ")));
        assert!(HOOK_WHY.ends_with(&format!(" {HOOK_SECONDS} s")));
    }

    #[test]
    fn a_call_after_the_budget_ends_is_not_made() {
        let spent = ScriptBudget::until(Instant::now(), "spent");
        let mut ran = false;
        let result: Result<(), String> = spent.run(|| {
            within_limits(
                || {
                    ran = true;
                    Ok(())
                },
                |why| why,
            )
        });
        assert_eq!(result, Err("ran out of time: spent".to_string()));
        assert!(!ran);
    }

    #[test]
    fn bytes_held_counts_what_closures_captured() {
        let engine = Engine::new();
        let big: Dynamic = engine
            .eval("let a = []; a.pad(1000, 0); let keep = []; for i in 0..10 { let c = a; keep.push(|| c); } keep")
            .unwrap();
        assert_eq!(big.clone().cast::<Array>().len(), 10);
        let slot = std::mem::size_of::<Dynamic>() as u64;
        // Ten closures, each holding a thousand items.
        let held = bytes_held(&big, u64::MAX).unwrap();
        assert!(held >= 10 * 1000 * slot, "{held}");
        // Counting stops past the limit.
        assert!(bytes_held(&big, 100).unwrap() <= 100 + 2 * slot);
        let cycle: Dynamic = engine.eval("let f = 0; f = || f; f").unwrap();
        assert_eq!(bytes_held(&cycle, u64::MAX), None);
    }
}
