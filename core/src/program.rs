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
//!
//! A program whose file name starts with `pbrain-` is a Gomocup brain
//! instead, and speaks that protocol (Piskvork's): `START` with the board's
//! size (`RECTSTART w,h` for a board that is not square), `INFO
//! timeout_turn` with its time a move and `INFO rule` (1 where an overline
//! does not win, 4 where the rulebook forbids patterns to X, as renju),
//! then for each move the whole board (`BOARD`, a stone a line as
//! `x,y,field` — 1 its own, 2 the opponent's — `DONE`), answered by `x,y`
//! (the column from the left and the row from the top, from 0); `END`
//! at the end. Only rulebooks where each side places its own stone, one a
//! turn, nothing is taken off and there is no swap can be described so
//! ([`gomocup::lacks`]). A brain may be
//! given settings of its own ([`Setting`]: `MAX_DEPTH=12` is told as
//! `INFO MAX_DEPTH 12`), after the match's own `INFO` lines. The
//! protocol's words are [`crate::gomocup`]'s; here is the process that
//! speaks them.

use crate::gomocup::{self, Setting};
use crate::interrupt::Interrupt;
use crate::position::{Move, MoveList, Position};
use crate::rulebook::Rulebook;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::time::{Duration, Instant};

/// How long a program may take for a move when its budget is not a time.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);

/// How long after a brain's answer its next `BOARD` waits. Rapfi (0.43)
/// writes its move before it marks itself idle, and drops a command that
/// arrives in between: a move answered at once (a forced block) raced it,
/// and its `BOARD` was lost. Managers are never that quick.
const SETTLE: Duration = Duration::from_millis(10);

/// The longest line read from a program: a longer one is cut.
const MAX_LINE: u64 = 64 * 1024;

/// How long a brain may take to answer `START` at least, whatever its
/// time a move: it loads first (Rapfi reads its weights for a quarter of
/// a second), and its time a move starts with the board.
const START_TIME: Duration = Duration::from_secs(10);

/// How often a wait for a program's line looks whether Ctrl-C was pressed.
const POLL: Duration = Duration::from_millis(50);

/// Why no line came from a program.
enum NoLine {
    /// Its time ran out.
    Late,
    /// Its output closed: it quit, or was stopped.
    Quit,
    /// Its output could not be read.
    Unreadable(std::io::Error),
    /// Ctrl-C was pressed.
    Stopped,
}

impl NoLine {
    /// In words, `late` saying what did not come in time.
    fn say(self, late: impl FnOnce() -> String) -> String {
        match self {
            NoLine::Late => late(),
            NoLine::Quit => "quit before answering".to_string(),
            NoLine::Unreadable(e) => format!("unreadable answer: {e}"),
            NoLine::Stopped => "stopped by Ctrl-C".to_string(),
        }
    }
}

/// A running player program. Its pipes are served by threads of their
/// own, so that a program that neither reads nor answers cannot block the
/// match: it is timed out and stopped.
pub struct Program {
    path: PathBuf,
    /// A Gomocup brain (its file name starts with `pbrain-`), and whether
    /// it has been told the board (`START`) yet.
    brain: Option<bool>,
    /// What a brain is told after the match's own `INFO` lines.
    settings: Vec<Setting>,
    /// When a brain last answered a move: its next `BOARD` waits until
    /// [`SETTLE`] after it.
    answered: Option<Instant>,
    child: Child,
    /// Text for the program's standard input, written on its own thread.
    ask: Option<Sender<String>>,
    /// The program's output lines, read on their own thread.
    lines: Receiver<std::io::Result<String>>,
}

impl Program {
    /// Starts the program at `path`; a Gomocup brain is told `settings`
    /// with the board.
    ///
    /// # Errors
    /// The program cannot be started, or is given settings and is no
    /// Gomocup brain (the line protocol has no place for them).
    pub fn start(path: &Path, settings: &[Setting]) -> Result<Program, String> {
        if !settings.is_empty() && !gomocup::is_brain(path) {
            return Err(no_settings(path));
        }
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
            brain: gomocup::is_brain(path).then_some(false),
            settings: settings.to_vec(),
            answered: None,
            child,
            ask: Some(ask),
            lines,
        })
    }

    /// The program's move in `pos` (reached by `history`), within `within`;
    /// the wait ends early when `stop` is raised.
    ///
    /// # Errors
    /// What went wrong, in words: the program did not answer in time, quit,
    /// or answered something that is not a legal move; or Ctrl-C.
    pub fn choose(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        history: &[Move],
        within: Duration,
        stop: &Interrupt,
    ) -> Result<Move, String> {
        let mut list = MoveList::new();
        rules
            .legal_moves(pos, history, &mut list)
            .map_err(|e| e.to_string())?;
        // Lines left from before (a chatty program) answer nothing now.
        while self.lines.try_recv().is_ok() {}
        if self.brain.is_some() {
            return self.brain_move(rules, pos, history, &list, within, stop);
        }
        let deadline = Instant::now() + within;
        let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
        let ask = format!(
            "rules {}\nposition {}\nlegal {}\ngo\n",
            rules.name(),
            rules.position_text(pos),
            legal.join(" ")
        );
        self.send(ask)?;
        let late = || format!("no answer within {} s", within.as_secs_f64());
        loop {
            // A program printing comments must still answer in time.
            let line = self.next_line(deadline, stop).map_err(|e| e.say(late))?;
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

    /// A Gomocup brain's move in `pos`, whose legal moves are `list`: told
    /// the board first (`START`: its `OK` may take up to a move's time, as
    /// the brain loads, before the move's own time starts), then the stones.
    fn brain_move(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        history: &[Move],
        list: &MoveList,
        within: Duration,
        stop: &Interrupt,
    ) -> Result<Move, String> {
        if self.brain == Some(false) {
            self.send(gomocup::start_text(rules, within, &self.settings)?)?;
            self.brain = Some(true);
            // The first answer is `START`'s (`INFO` is never answered):
            // `UNKNOWN` there is a brain that cannot play this board.
            let start = gomocup::size_command(rules);
            let started = |l: &str| match l {
                _ if l.starts_with("OK") => Some(Ok(())),
                _ if l.starts_with("UNKNOWN") => {
                    Some(Err(format!("answered `{}` to `{start}`", clip(l))))
                }
                _ => None,
            };
            let time = within.max(START_TIME);
            let late = || format!("no answer to `{start}` within {} s", time.as_secs_f64());
            self.answer(Instant::now() + time, stop, late, started)??;
        }
        let board = gomocup::board_text(rules, pos, list)?;
        if let Some(wait) = self
            .answered
            .and_then(|at| (at + SETTLE).checked_duration_since(Instant::now()))
        {
            std::thread::sleep(wait);
        }
        self.send(board)?;
        // A brain is told its time a move; a little more is its answer's
        // way back, as managers allow.
        let time = within + (within / 10).max(Duration::from_millis(200));
        let late = || format!("no move within {} s", time.as_secs_f64());
        let cell = self.answer(Instant::now() + time, stop, late, |l| {
            gomocup::answer_cell(rules.grid(), l)
        })?;
        self.answered = Some(Instant::now());
        let mv = Move::Place {
            to: cell,
            mark: pos.turn(),
        };
        if list.contains(&mv) {
            return Ok(mv);
        }
        let (x, y) = gomocup::xy(rules.grid(), cell);
        // Why, as the rules say it: the protocol cannot tell a brain every
        // rule (renju's first stone in the centre).
        let why = match rules.play(pos, history, mv) {
            Err(e) => format!(": {e}"),
            Ok(_) => String::new(),
        };
        Err(format!(
            "answered `{x},{y}` ({}), which is not a legal move{why}",
            rules.move_text(mv)
        ))
    }

    /// The program's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn send(&self, text: String) -> Result<(), String> {
        let sent = self.ask.as_ref().is_some_and(|a| a.send(text).is_ok());
        sent.then_some(())
            .ok_or_else(|| "quit before answering".to_string())
    }

    /// The program's next line by `deadline`, unless `stop` is raised
    /// first.
    fn next_line(&self, deadline: Instant, stop: &Interrupt) -> Result<String, NoLine> {
        loop {
            if stop.is_raised() {
                return Err(NoLine::Stopped);
            }
            let left = deadline.checked_duration_since(Instant::now());
            match self.lines.recv_timeout(left.ok_or(NoLine::Late)?.min(POLL)) {
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(e)) => return Err(NoLine::Unreadable(e)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(NoLine::Quit),
            }
        }
    }

    /// A brain's first line by `deadline` that `read` takes, past its
    /// `MESSAGE` and `DEBUG` lines; an `ERROR` is its failure, and `late`
    /// says what did not come in time.
    fn answer<T>(
        &mut self,
        deadline: Instant,
        stop: &Interrupt,
        late: impl Fn() -> String,
        read: impl Fn(&str) -> Option<T>,
    ) -> Result<T, String> {
        loop {
            let line = self.next_line(deadline, stop).map_err(|e| e.say(&late))?;
            let line = line.trim();
            if let Some(error) = line.strip_prefix("ERROR") {
                return Err(format!("answered ERROR{}", clip(error)));
            }
            if let Some(found) = read(line) {
                return Ok(found);
            }
            if !(line.is_empty()
                || ["MESSAGE", "DEBUG", "UNKNOWN", "OK"]
                    .iter()
                    .any(|w| line.starts_with(w)))
            {
                return Err(format!("answered `{}`, which is not a move", clip(line)));
            }
        }
    }
}

/// At most 40 characters of a program's line, for a message (the brain's
/// own messages clip what it is sent alike).
pub fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// Why a program that is no Gomocup brain takes no settings.
pub fn no_settings(path: &Path) -> String {
    format!(
        "settings go to a Gomocup brain, as `INFO` lines: {} speaks the line protocol (only a program named pbrain-… is a brain)",
        path.display()
    )
}

impl Drop for Program {
    fn drop(&mut self) {
        // Ask it to go, and close its input; one that lingers past a
        // moment is stopped.
        if let Some(ask) = self.ask.take() {
            let last = if self.brain.is_some() { "END" } else { "quit" };
            let _ = ask.send(format!("{last}\n"));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The line protocol has no place for settings: a program that is no
    /// Gomocup brain given some is refused before it starts.
    #[test]
    fn settings_go_to_a_brain_only() {
        let settings = ["MAX_DEPTH=12".parse().unwrap()];
        let e = Program::start(Path::new("./bot"), &settings).err().unwrap();
        assert!(e.contains("settings go to a Gomocup brain"), "{e}");
    }
}
