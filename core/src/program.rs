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
//! turn, and nothing is taken off can be described so. A brain may be
//! given settings of its own ([`Setting`]: `MAX_DEPTH=12` is told as
//! `INFO MAX_DEPTH 12`), after the match's own `INFO` lines.

use crate::geometry::{Cell, Grid};
use crate::position::{Move, MoveList, Position, Side};
use crate::rulebook::{LineResult, Marks, Rulebook};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
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

/// Whether the program at `path` is a Gomocup brain: its file name
/// starts with `pbrain-`, as the protocol's managers expect.
pub fn is_brain(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("pbrain-"))
}

/// The `INFO` keys the match itself sets: a brain's own setting may not
/// override them, or its time and rule would differ from the match's.
const MATCH_KEYS: [&str; 3] = ["timeout_turn", "timeout_match", "rule"];

/// A setting a Gomocup brain is told before its first move, written
/// `KEY=VALUE` and sent as `INFO KEY VALUE` (`MAX_DEPTH=12`,
/// `THREAD_NUM=1`, `max_node=1000000`): what holds a brain to a depth, a
/// thread or a node count, so that a match against it repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    key: String,
    value: String,
}

/// Whether `key` may name a setting: letters, digits and `_`.
pub fn is_setting_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Setting {
    /// The key, as written.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl FromStr for Setting {
    type Err = String;

    fn from_str(s: &str) -> Result<Setting, String> {
        let Some((key, value)) = s.split_once('=') else {
            return Err(format!(
                "setting `{s}`: expected KEY=VALUE, as MAX_DEPTH=12"
            ));
        };
        if !is_setting_key(key) {
            return Err(format!(
                "setting `{s}`: a key is letters, digits and `_`, as MAX_DEPTH"
            ));
        }
        // One word on one line: a value cannot write a second command.
        if value.is_empty()
            || !value
                .chars()
                .all(|c| c.is_ascii_graphic() && c != ',' && c != '=')
        {
            return Err(format!(
                "setting `{s}`: a value is one word of printable characters, as 12"
            ));
        }
        if MATCH_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key)) {
            return Err(format!(
                "setting `{s}`: the match tells a brain its {key} itself (from the budget and the rulebook)"
            ));
        }
        Ok(Setting {
            key: key.to_string(),
            value: value.to_string(),
        })
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
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
        if !settings.is_empty() && !is_brain(path) {
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
            brain: is_brain(path).then_some(false),
            settings: settings.to_vec(),
            answered: None,
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
        // Lines left from before (a chatty program) answer nothing now.
        while self.lines.try_recv().is_ok() {}
        if self.brain.is_some() {
            return self.brain_move(rules, pos, &list, within);
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

    /// A Gomocup brain's move in `pos`, whose legal moves are `list`: told
    /// the board first (`START`: its `OK` may take up to a move's time, as
    /// the brain loads, before the move's own time starts), then the stones.
    fn brain_move(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        list: &MoveList,
        within: Duration,
    ) -> Result<Move, String> {
        if self.brain == Some(false) {
            self.send(brain_start(rules, within, &self.settings)?)?;
            self.brain = Some(true);
            // The first answer is `START`'s (`INFO` is never answered):
            // `UNKNOWN` there is a brain that cannot play this board.
            let started = |l: &str| match l {
                _ if l.starts_with("OK") => Some(Ok(())),
                _ if l.starts_with("UNKNOWN") => Some(Err(format!(
                    "answered `{}` to `{}`",
                    clip(l),
                    brain_size(rules)
                ))),
                _ => None,
            };
            self.answer(Instant::now() + within, started)??;
        }
        let board = brain_board(rules, pos, list)?;
        if let Some(wait) = self
            .answered
            .and_then(|at| (at + SETTLE).checked_duration_since(Instant::now()))
        {
            std::thread::sleep(wait);
        }
        self.send(board)?;
        // A brain is told its time a move; a little more is its answer's
        // way back, as managers allow.
        let tolerance = (within / 10).max(Duration::from_millis(200));
        let cell = self.answer(Instant::now() + within + tolerance, |l| {
            brain_cell(rules, l)
        })?;
        self.answered = Some(Instant::now());
        let mv = Move::Place {
            to: cell,
            mark: pos.turn(),
        };
        if list.contains(&mv) {
            return Ok(mv);
        }
        let (x, y) = brain_xy(rules, cell);
        Err(format!(
            "answered `{x},{y}` ({}), which is not a legal move",
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

    /// A brain's first line by `deadline` that `read` takes, past its
    /// `MESSAGE` and `DEBUG` lines; an `ERROR` is its failure.
    fn answer<T>(
        &mut self,
        deadline: Instant,
        read: impl Fn(&str) -> Option<T>,
    ) -> Result<T, String> {
        loop {
            let left = deadline.checked_duration_since(Instant::now());
            let line = match left.map(|left| self.lines.recv_timeout(left)) {
                Some(Ok(Ok(line))) => line,
                Some(Ok(Err(e))) => return Err(format!("unreadable answer: {e}")),
                None | Some(Err(RecvTimeoutError::Timeout)) => {
                    return Err("no answer in its time".to_string());
                }
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    return Err("quit before answering".to_string());
                }
            };
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

/// What a brain is told before its first move: the board, its time, the
/// rule, then its own settings. Refused where the protocol cannot
/// describe the rulebook.
fn brain_start(rules: &Rulebook, within: Duration, settings: &[Setting]) -> Result<String, String> {
    if let Some(what) = gomocup_lacks(rules) {
        return Err(format!(
            "a Gomocup brain plays rulebooks where each side places its own stone, one a turn, and nothing is taken off: the protocol needs {what}"
        ));
    }
    let t = rules.mechanics();
    let size = brain_size(rules);
    let k = t.min_run();
    let mut rule = 0;
    if !t.wins_run(Side::X, k + 1) {
        rule |= 1;
    }
    if t.has_patterns(Side::X) {
        rule |= 4;
    }
    let mut text = format!(
        "{size}\nINFO timeout_turn {}\nINFO timeout_match 0\nINFO rule {rule}\n",
        within.as_millis()
    );
    for Setting { key, value } in settings {
        text.push_str(&format!("INFO {key} {value}\n"));
    }
    Ok(text)
}

/// What the Gomocup protocol needs of a rulebook's game and this one
/// lacks, if anything: stones placed one a turn, each side its own,
/// nothing taken off, a line winning for its owner. The brain refuses such
/// a rulebook, and `arena` a brain on it.
pub fn gomocup_lacks(rules: &Rulebook) -> Option<&'static str> {
    let t = rules.mechanics();
    if t.marks() != Marks::Own {
        Some("each side places its own stone")
    } else if t.line_result() != LineResult::OwnerWins {
        Some("a line wins for its owner")
    } else if !t.turns().is_alternating() {
        Some("one stone a turn")
    } else if t.has_captures() {
        Some("no captures")
    } else if t.has_gravity()
        || t.pieces().is_some()
        || !t.regions().is_empty()
        || t.keep_marks().is_some()
        || t.has_slides()
        || t.has_twists()
    {
        Some("stones placed on any empty cell, and left there")
    } else {
        None
    }
}

/// The command that tells a brain the board's size.
fn brain_size(rules: &Rulebook) -> String {
    let (w, h) = (rules.grid().width(), rules.grid().height());
    if w == h {
        format!("START {w}")
    } else {
        format!("RECTSTART {w},{h}")
    }
}

/// The board as a brain reads it, for the side to move of `pos`; refused
/// where a legal move is not a stone of the mover's.
fn brain_board(rules: &Rulebook, pos: &Position, list: &MoveList) -> Result<String, String> {
    let me = pos.turn();
    if !list
        .iter()
        .all(|m| matches!(*m, Move::Place { mark, .. } if mark == me))
    {
        return Err(
            "a Gomocup brain only places its own stone: this rulebook has other moves".to_string(),
        );
    }
    let mut text = String::from("BOARD\n");
    for side in [me, me.other()] {
        let field = if side == me { 1 } else { 2 };
        for cell in pos.marks(side) {
            let (x, y) = brain_xy(rules, cell);
            text.push_str(&format!("{x},{y},{field}\n"));
        }
    }
    text.push_str("DONE\n");
    Ok(text)
}

/// A cell as `x,y`: the column from the left, the row from the top.
fn brain_xy(rules: &Rulebook, cell: Cell) -> (u32, u32) {
    gomocup_xy(rules.grid(), cell)
}

/// The cell a brain's `x,y` names, if the line is one on the board.
fn brain_cell(rules: &Rulebook, line: &str) -> Option<Cell> {
    let (x, y) = gomocup_pair(line)?;
    gomocup_cell(rules.grid(), x, y)
}

/// A cell as the Gomocup protocol names it, `x,y`: the column from the
/// left and the row from the top, from 0 (the brain and `arena` alike).
pub fn gomocup_xy(grid: Grid, cell: Cell) -> (u32, u32) {
    (grid.col(cell), grid.height() - 1 - grid.row(cell))
}

/// The cell at the protocol's `x,y`, if it is on the board.
pub fn gomocup_cell(grid: Grid, x: u32, y: u32) -> Option<Cell> {
    grid.cell(i64::from(x), i64::from(grid.height()) - 1 - i64::from(y))
}

/// `a,b` as two numbers, as the protocol writes a pair.
pub fn gomocup_pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
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

    /// Five in a row on `w`×`h`, with `extra` hooks.
    fn five(w: u32, h: u32, extra: &str) -> Rulebook {
        let script = format!("fn lines() {{ lines::straight(5) }}\n{extra}");
        Rulebook::scripted(&script, w, h).unwrap()
    }

    /// A brain is told the board's size, its time and the rule: 0 where an
    /// overline wins, 1 where it does not, 4 more where X has forbidden
    /// patterns.
    #[test]
    fn a_brain_is_told_the_board_its_time_and_the_rule() {
        let free = five(15, 15, "fn wins(run) { run >= 5 }");
        let start = brain_start(&free, Duration::from_millis(1500), &[]).unwrap();
        assert_eq!(
            start,
            "START 15\nINFO timeout_turn 1500\nINFO timeout_match 0\nINFO rule 0\n"
        );
        let exact = five(20, 12, "fn wins(run) { run == 5 }");
        let start = brain_start(&exact, Duration::from_secs(2), &[]).unwrap();
        assert!(start.starts_with("RECTSTART 20,12\n"), "{start}");
        assert!(start.ends_with("INFO rule 1\n"), "{start}");
        let patterned = five(
            15,
            15,
            "fn wins(run, side) { if side == \"X\" { run == 5 } else { run >= 5 } }\n\
             fn forbidden_patterns(side) { if side == \"X\" { [\"double three\"] } else { [] } }",
        );
        let start = brain_start(&patterned, Duration::from_secs(1), &[]).unwrap();
        assert!(start.ends_with("INFO rule 5\n"), "{start}");
        // A rulebook the protocol cannot describe is refused.
        let moving = five(7, 6, "fn wins(run) { run >= 5 }\nfn pieces() { 4 }");
        let refused = brain_start(&moving, Duration::from_secs(1), &[]).unwrap_err();
        assert!(refused.contains("places its own stone"), "{refused}");
    }

    /// A brain's own settings follow the match's `INFO` lines, one a line;
    /// a setting that is not one word, or would change the match's time or
    /// rule, is refused.
    #[test]
    fn a_brain_is_told_its_settings_after_the_match_lines() {
        let free = five(15, 15, "fn wins(run) { run >= 5 }");
        let settings: Vec<Setting> = ["MAX_DEPTH=12", "THREAD_NUM=1"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let start = brain_start(&free, Duration::from_secs(2), &settings).unwrap();
        assert!(
            start.ends_with("INFO rule 0\nINFO MAX_DEPTH 12\nINFO THREAD_NUM 1\n"),
            "{start}"
        );
        assert_eq!(settings[0].to_string(), "MAX_DEPTH=12");
        for (bad, why) in [
            ("MAX_DEPTH", "expected KEY=VALUE"),
            ("=12", "a key is"),
            ("MAX DEPTH=1", "a key is"),
            ("MAX_DEPTH=", "a value is"),
            ("MAX_DEPTH=1 2", "a value is"),
            ("MAX_DEPTH=1\nBEGIN", "a value is"),
            ("MAX_DEPTH=1=2", "a value is"),
            ("Timeout_Turn=5", "tells a brain its Timeout_Turn itself"),
            ("rule=1", "tells a brain its rule itself"),
        ] {
            let e = bad.parse::<Setting>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        // The line protocol has no place for settings.
        let e = Program::start(Path::new("./bot"), &settings).err().unwrap();
        assert!(e.contains("settings go to a Gomocup brain"), "{e}");
    }

    /// The board goes as `x,y,field` from the mover's side (1 its own, 2
    /// the opponent's), rows counted from the top; an answer `x,y` reads
    /// back as the cell it names, and one off the board as none.
    #[test]
    fn the_board_goes_from_the_top_and_answers_read_back() {
        let rules = five(15, 15, "fn wins(run) { run >= 5 }");
        let mut pos = rules.initial();
        for m in ["a1", "o15"] {
            let mv = rules.parse_move(&pos, &[], m).unwrap();
            pos = rules.play(&pos, &[], mv).unwrap();
        }
        let mut list = MoveList::new();
        rules.legal_moves(&pos, &[], &mut list).unwrap();
        assert_eq!(
            brain_board(&rules, &pos, &list).unwrap(),
            "BOARD\n0,14,1\n14,0,2\nDONE\n"
        );
        let a1 = rules.grid().parse_cell("a1").unwrap();
        assert_eq!(brain_cell(&rules, "0,14"), Some(a1));
        assert_eq!(brain_xy(&rules, a1), (0, 14));
        for off in ["15,0", "0,15", "-1,3", "7", "MESSAGE 7,7"] {
            assert_eq!(brain_cell(&rules, off), None, "{off}");
        }
    }
}
