//! A player that is another program: `arena` starts it once per game and
//! asks it for each of its moves over a line protocol that works for every
//! rulebook, so a strategy written in any language can play gridrules'
//! levels.
//!
//! Before each of the program's moves gridrules writes four lines to its
//! standard input:
//!
//! ```text
//! rules classic
//! position 3/1X1/3 O - -
//! legal a1 b1 c1 a2 c2 a3 b3 c3
//! go
//! ```
//!
//! — the rulebook's name, the position text (as `setup` reads it), the
//! legal moves in the rulebook's notation, and `go`. The program answers
//! one line on its standard output: the move, in that notation. At the end
//! of the game it reads `quit`. Lines it writes before answering that start
//! with `#` are ignored (a place for its own comments). Only the process
//! started is stopped at the end: a wrapper script should `exec` its bot.

use crate::position::{Move, MoveList, Position};
use crate::rulebook::Rulebook;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::time::{Duration, Instant};

/// How long a program may take for a move when its budget is not a time.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);

/// The longest line read from a program: a longer one is cut.
const MAX_LINE: u64 = 64 * 1024;

/// A running player program. Its pipes are served by threads of their
/// own, so that a program that neither reads nor answers cannot block the
/// match: it is timed out and stopped.
pub struct Program {
    path: PathBuf,
    child: Child,
    /// Text for the program's standard input, written on its own thread.
    ask: Option<Sender<String>>,
    /// The program's output lines, read on their own thread.
    lines: Receiver<std::io::Result<String>>,
}

impl Program {
    /// Starts the program at `path`.
    ///
    /// # Errors
    /// The program cannot be started.
    pub fn start(path: &Path) -> Result<Program, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot start: no pipes".to_string());
        };
        let (ask, questions) = channel::<String>();
        std::thread::spawn(move || {
            // Ends when the sender is dropped or the program stops reading
            // for good (its pipe breaks once it is killed).
            for text in questions {
                if stdin
                    .write_all(text.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        // A few lines of slack: a program that floods its output waits.
        let (send, lines) = sync_channel(16);
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut out).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if send.send(Ok(text)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = send.send(Err(e));
                        break;
                    }
                }
            }
        });
        Ok(Program {
            path: path.to_path_buf(),
            child,
            ask: Some(ask),
            lines,
        })
    }

    /// The program's move in `pos` (reached by `history`), within `within`.
    ///
    /// # Errors
    /// What went wrong, in words: the program did not answer in time, quit,
    /// or answered something that is not a legal move.
    pub fn choose(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        history: &[Move],
        within: Duration,
    ) -> Result<Move, String> {
        let mut list = MoveList::new();
        rules
            .legal_moves(pos, history, &mut list)
            .map_err(|e| e.to_string())?;
        let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
        // Lines left from before (a chatty program) answer nothing now.
        while self.lines.try_recv().is_ok() {}
        let ask = format!(
            "rules {}\nposition {}\nlegal {}\ngo\n",
            rules.name(),
            rules.position_text(pos),
            legal.join(" ")
        );
        let sent = self.ask.as_ref().is_some_and(|a| a.send(ask).is_ok());
        if !sent {
            return Err("quit before answering".to_string());
        }
        let deadline = Instant::now() + within;
        let late = || format!("no answer within {} s", within.as_secs_f64());
        loop {
            // A program printing comments must still answer in time.
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return Err(late());
            };
            let line = match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => return Err(format!("unreadable answer: {e}")),
                Err(RecvTimeoutError::Timeout) => return Err(late()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("quit before answering".to_string());
                }
            };
            let answer = line.trim();
            if answer.is_empty() || answer.starts_with('#') {
                continue;
            }
            return match rules.parse_move(pos, history, answer) {
                Ok(mv) if list.contains(&mv) => Ok(mv),
                _ => Err(format!("answered `{answer}`, which is not a legal move")),
            };
        }
    }

    /// The program's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // Ask it to go, and close its input; one that lingers past a
        // moment is stopped.
        if let Some(ask) = self.ask.take() {
            let _ = ask.send("quit\n".to_string());
        }
        for _ in 0..40 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
