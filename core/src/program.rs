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
//! with `#` are ignored (a place for its own comments).

use crate::position::{Move, MoveList, Position};
use crate::rulebook::Rulebook;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long a program may take for a move when its budget is not a time.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);

/// A running player program.
pub struct Program {
    path: PathBuf,
    child: Child,
    stdin: ChildStdin,
    /// The program's output lines, read on their own thread so that a
    /// silent program can be timed out.
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
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("cannot start: no pipes".to_string());
        };
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Program {
            path: path.to_path_buf(),
            child,
            stdin,
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
        let ask = format!(
            "rules {}\nposition {}\nlegal {}\ngo\n",
            rules.name(),
            rules.position_text(pos),
            legal.join(" ")
        );
        self.stdin
            .write_all(ask.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|_| "quit before answering".to_string())?;
        let deadline = std::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => return Err(format!("unreadable answer: {e}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} s", within.as_secs_f64()));
                }
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
        // Ask it to go; one that lingers past a moment is stopped.
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
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
