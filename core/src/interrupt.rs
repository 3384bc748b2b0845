//! A request to stop a long computation, raised from outside it (the REPL's
//! Ctrl-C) and read between units of work.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A shared flag: clones see the same request (and are equal: the same
/// flag, not the same state).
///
/// ```
/// use gridrules_core::interrupt::Interrupt;
/// let stop = Interrupt::new();
/// let handler = stop.clone();
/// handler.raise();
/// assert!(stop.is_raised());
/// stop.clear();
/// assert!(!handler.is_raised());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl PartialEq for Interrupt {
    fn eq(&self, other: &Interrupt) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Interrupt {}

impl Interrupt {
    /// A flag not raised.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Asks whatever is running to stop; returns whether it was raised already.
    pub fn raise(&self) -> bool {
        self.0.swap(true, Ordering::Relaxed)
    }

    /// Lowers the flag, before the next command.
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `result`, where an error met once the flag is raised reads as the
    /// stop (`Ok(None)`): a script that the flag stopped fails, but the
    /// failure is the stop's doing (see `ScriptBudget::stopped_by`).
    pub fn settle<T, E>(&self, result: Result<Option<T>, E>) -> Result<Option<T>, E> {
        match result {
            Err(_) if self.is_raised() => Ok(None),
            other => other,
        }
    }
}
