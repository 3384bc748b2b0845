//! A line on the terminal while the computer thinks: which side, how long
//! so far, and that Ctrl-C stops it. Hard searches for a second or more, and
//! the move typed before it is shown only with the answer: a silent second
//! reads as a hang.
//!
//! The line waits a moment before it shows (an easy answer comes at once,
//! and a line drawn and wiped for it only flickers), counts the seconds
//! while it stands, and is wiped when the search ends, so the command's
//! output starts on a clean line. It is drawn on stderr at a terminal only:
//! batch output and pipes never see it.

use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a search runs before the line shows.
pub const DELAY: Duration = Duration::from_millis(300);

/// How often the seconds are redrawn.
const TICK: Duration = Duration::from_millis(100);

/// The line, while it may be up; dropping it wipes the line (when it was
/// drawn) before the caller prints anything.
pub struct Thinking {
    done: Option<Sender<()>>,
    drawer: Option<JoinHandle<()>>,
}

impl Thinking {
    /// Shows `what` on stderr after [`DELAY`], if stderr is a terminal
    /// `columns` wide.
    pub fn on_terminal(what: String, columns: usize) -> Option<Thinking> {
        let thinking = std::io::stderr()
            .is_terminal()
            .then(|| Thinking::to(std::io::stderr(), what, columns, DELAY))?;
        echo::off();
        Some(thinking)
    }

    /// Shows `what` on `out` once `delay` has passed, with the seconds since
    /// it began, until dropped; cut to fit `columns` less one, as a line
    /// that wrapped would leave a row behind at each redraw.
    pub fn to(
        mut out: impl Write + Send + 'static,
        what: String,
        columns: usize,
        delay: Duration,
    ) -> Thinking {
        let (done, wait) = mpsc::channel::<()>();
        let began = Instant::now();
        let drawer = std::thread::spawn(move || {
            // Done (or the sender gone) before the delay: nothing drawn.
            if !matches!(wait.recv_timeout(delay), Err(RecvTimeoutError::Timeout)) {
                return;
            }
            loop {
                let line = fitted(&what, began.elapsed().as_secs_f64(), columns);
                // Carriage return and erase to the end: one line, redrawn.
                let _ = write!(out, "\r\x1b[K{line}");
                let _ = out.flush();
                if !matches!(wait.recv_timeout(TICK), Err(RecvTimeoutError::Timeout)) {
                    break;
                }
            }
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
        });
        Thinking {
            done: Some(done),
            drawer: Some(drawer),
        }
    }
}

/// The line for `what` after `seconds`, in fewer than `columns`
/// characters: whole, else without its `Ctrl-C` hint, else cut (a line
/// that wrapped would leave a row behind at each redraw).
fn fitted(what: &str, seconds: f64, columns: usize) -> String {
    let room = columns.saturating_sub(1);
    const HINT: &str = " · Ctrl-C stops it";
    // Judged with room for the longest count of seconds a search takes,
    // so that the hint does not go as the count gains a digit.
    let widest = format!("{what} 999.9 s{HINT}");
    let short = format!("{what} {seconds:.1} s");
    if widest.chars().count() <= room {
        format!("{short}{HINT}")
    } else {
        short.chars().take(room).collect()
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // The line is wiped before the caller goes on to print.
        drop(self.done.take());
        if let Some(drawer) = self.drawer.take() {
            let _ = drawer.join();
        }
        echo::restore();
    }
}

/// The terminal's echo, off while the computer thinks: keys typed ahead
/// wait, unshown, for the prompt that follows, where the line editor shows
/// them; echoed, they stuck to the thinking line, and an Enter among them
/// left that line on the screen. Only the echo changes (the keys are kept),
/// and it is put back before anything else is printed, or the program
/// leaves (see [`restore_echo`]).
#[cfg(unix)]
mod echo {
    use nix::sys::termios::{LocalFlags, SetArg, Termios, tcgetattr, tcsetattr};
    use std::io::IsTerminal;
    use std::sync::Mutex;

    /// The terminal's settings before the echo went off.
    static SAVED: Mutex<Option<Termios>> = Mutex::new(None);

    pub(super) fn off() {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            return;
        }
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        if saved.is_some() {
            return;
        }
        let Ok(before) = tcgetattr(&stdin) else {
            return;
        };
        let mut quiet = before.clone();
        quiet.local_flags.remove(LocalFlags::ECHO);
        // At once, and without flushing: what was typed stays to be read.
        if tcsetattr(&stdin, SetArg::TCSANOW, &quiet).is_ok() {
            *saved = Some(before);
        }
    }

    pub(super) fn restore() {
        let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(before) = saved.take() {
            let _ = tcsetattr(std::io::stdin(), SetArg::TCSANOW, &before);
        }
    }
}

#[cfg(not(unix))]
mod echo {
    pub(super) fn off() {}
    pub(super) fn restore() {}
}

/// Puts the terminal's echo back if the computer's thinking turned it
/// off: called before the program leaves in mid-search (a second Ctrl-C).
pub fn restore_echo() {
    echo::restore();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// What the line drew, kept for the test.
    #[derive(Clone, Default)]
    struct Screen(Arc<Mutex<Vec<u8>>>);

    impl Write for Screen {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Screen {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// On a narrow terminal the hint goes before the words are cut (at 40
    /// columns it read `… 1.9 s · Ctrl-C st`).
    #[test]
    fn a_narrow_line_drops_the_hint_before_cutting() {
        let what = "X is thinking (hard)…";
        assert_eq!(
            fitted(what, 1.94, 80),
            "X is thinking (hard)… 1.9 s · Ctrl-C stops it"
        );
        assert_eq!(fitted(what, 1.94, 40), "X is thinking (hard)… 1.9 s");
        // Whether it fits does not change as the seconds gain a digit.
        let at = "X is thinking (hard)… 999.9 s · Ctrl-C stops it"
            .chars()
            .count()
            + 1;
        assert!(fitted(what, 9.9, at).ends_with("Ctrl-C stops it"));
        assert!(!fitted(what, 9.9, at - 1).contains("Ctrl-C"));
        assert_eq!(fitted(what, 1.94, 11), "X is think");
    }

    #[test]
    fn a_search_shorter_than_the_delay_draws_nothing() {
        let screen = Screen::default();
        let shown = Thinking::to(
            screen.clone(),
            "O is thinking".into(),
            80,
            Duration::from_secs(60),
        );
        drop(shown);
        assert_eq!(screen.text(), "");
    }

    #[test]
    fn a_longer_search_shows_the_side_and_seconds_then_wipes_the_line() {
        let screen = Screen::default();
        let shown = Thinking::to(
            screen.clone(),
            "O is thinking (hard)…".into(),
            80,
            Duration::ZERO,
        );
        // Until the line is drawn at least once.
        let start = Instant::now();
        while !screen.text().contains("Ctrl-C") && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(shown);
        let text = screen.text();
        assert!(
            text.starts_with("\r\x1b[KO is thinking (hard)… ")
                && text.contains(" s · Ctrl-C stops it"),
            "{text:?}"
        );
        // Wiped last: the output that follows starts on a clean line.
        assert!(text.ends_with("Ctrl-C stops it\r\x1b[K"), "{text:?}");
    }

    /// On a narrow terminal the line is cut to fit: a line that wrapped
    /// left a row behind at each redraw (a review saw 25 rows in 2.5 s).
    #[test]
    fn the_line_fits_a_narrow_terminal() {
        let screen = Screen::default();
        let shown = Thinking::to(
            screen.clone(),
            "O is thinking (hard)…".into(),
            20,
            Duration::ZERO,
        );
        let start = Instant::now();
        while screen.text().matches("\x1b[K").count() < 2
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(shown);
        let text = screen.text();
        let drawn: Vec<&str> = text.split("\r\x1b[K").filter(|d| !d.is_empty()).collect();
        assert!(!drawn.is_empty(), "{text:?}");
        for line in drawn {
            assert_eq!(line.chars().count(), 19, "{line:?}");
        }
    }
}
