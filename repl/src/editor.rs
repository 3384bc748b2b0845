//! The interactive front end: rustyline with completion, hints and history
//! around the same `batch::step` that batch mode runs.

use crate::batch::{step, strip_comment};
use crate::command::{Arg, COMMANDS, spec};
use crate::render::{self, Style};
use crate::session::Session;
use gridrules_core::{MoveList, Rulebook};
use rustyline::ExternalPrinter;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the completer needs from the session: the legal moves of the position.
#[derive(Default)]
struct Words {
    moves: Vec<String>,
}

struct ReplHelper {
    words: Arc<Mutex<Words>>,
    files: FilenameCompleter,
    color: bool,
}

fn pairs(words: impl IntoIterator<Item = String>, prefix: &str) -> Vec<Pair> {
    words
        .into_iter()
        .filter(|w| w.starts_with(prefix))
        .map(|w| Pair {
            display: w.clone(),
            replacement: w,
        })
        .collect()
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    /// The first word completes to a command or a legal move; later words
    /// to what the command's entry in `COMMANDS` says it takes.
    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let moves = || {
            self.words
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .moves
                .clone()
        };
        let commands = || COMMANDS.iter().map(|c| c.name.to_string());
        let Some(first) = before[..start].split_whitespace().next() else {
            return Ok((start, pairs(commands().chain(moves()), word)));
        };
        let found = match spec(first).map_or(Arg::Nothing, |s| s.arg) {
            Arg::Nothing => Vec::new(),
            Arg::Move => pairs(moves(), word),
            Arg::Rulebook => pairs(Rulebook::builtin_names().map(str::to_string), word),
            Arg::Command => pairs(commands(), word),
            Arg::Word(list) => pairs(list.iter().map(|w| w.to_string()), word),
            Arg::File => return self.files.complete(line, pos, ctx),
        };
        Ok((start, found))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    /// After a command name, its arguments as `help` shows them.
    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        let name = line.trim_end();
        let s = spec(name).filter(|s| !s.args.is_empty())?;
        let gap = if line.ends_with(' ') { "" } else { " " };
        Some(format!("{gap}{}", s.args))
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for ReplHelper {}
impl Helper for ReplHelper {}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("gridrules").join("history"))
}

fn refresh(words: &Mutex<Words>, session: &Session) {
    let mut list = MoveList::new();
    let r = session.rulebook();
    let moves = match r.legal_moves(session.game().position(), session.game().moves(), &mut list) {
        Ok(()) => list.iter().map(|&m| r.move_text(m)).collect(),
        Err(_) => Vec::new(),
    };
    words.lock().unwrap_or_else(|e| e.into_inner()).moves = moves;
}

/// `classic X 12s> `: the rulebook, the side to move, and its time left.
fn prompt(session: &Session) -> String {
    let game = session.game();
    let turn = if game.is_over() {
        "over".to_string()
    } else {
        let pos = game.position();
        let side = pos.turn();
        // A rulebook's roles (Order, Chaos) beside the side's name.
        let name = match session.rulebook().role(side) {
            Some(role) => format!("{side} ({role})"),
            None => side.to_string(),
        };
        // Within a turn of several marks (Connect6), which one is next.
        let place = session
            .rulebook()
            .tables()
            .turns()
            .place(pos.marks_played());
        if place.of > 1 {
            format!("{name} {}/{}", place.mark + 1, place.of)
        } else {
            name
        }
    };
    match session.time_left() {
        Some(left) => format!("{} {turn} {}s> ", session.rulebook().name(), left.as_secs()),
        None => format!("{} {turn}> ", session.rulebook().name()),
    }
}

/// An alarm for the move clock. The line editor cannot be interrupted, so
/// when the time of the side to move runs out this thread prints a notice
/// above the prompt; the clock's move is made at the next Enter.
fn alarm(mut printer: impl ExternalPrinter + Send + 'static) -> Sender<Option<(Instant, String)>> {
    let (tx, rx): (Sender<Option<(Instant, String)>>, Receiver<_>) = channel();
    std::thread::spawn(move || {
        let mut armed: Option<(Instant, String)> = None;
        loop {
            let wait = armed.as_ref().map_or(Duration::from_secs(3600), |(at, _)| {
                at.saturating_duration_since(Instant::now())
            });
            match rx.recv_timeout(wait) {
                Ok(next) => armed = next,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some((_, msg)) = armed.take() {
                        let _ = printer.print(msg);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    });
    tx
}

/// Runs the REPL on the terminal until `quit` or Ctrl-D.
///
/// # Errors
/// When the terminal cannot be driven.
pub fn run(mut session: Session) -> rustyline::Result<()> {
    let words = Arc::new(Mutex::new(Words::default()));
    let style = Style::interactive();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::new()?;
    editor.set_helper(Some(ReplHelper {
        words: words.clone(),
        files: FilenameCompleter::new(),
        color: style.color,
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    let alarm = editor.create_external_printer().ok().map(alarm);
    println!("gridrules — type `help` for the commands, `quit` or Ctrl-D to leave");
    print!("{}", render::board(&session, style));
    loop {
        refresh(&words, &session);
        let prompt = prompt(&session);
        if let Some(alarm) = &alarm {
            let side = session.game().position().turn();
            let _ = alarm.send(session.time_left().map(|left| {
                let msg =
                    format!("time is up for {side}: press Enter to see the move the clock made");
                (Instant::now() + left, msg)
            }));
        }
        match editor.readline(&prompt) {
            Ok(line) => {
                let code = strip_comment(&line);
                if code.is_empty() {
                    // Enter alone: show what the clock did meanwhile, if anything.
                    match session.tick() {
                        Ok(true) => {
                            print!("{}", render::played(&session.take_pending()));
                            print!("{}", render::board(&session, style));
                        }
                        Ok(false) => {}
                        Err(e) => print!("{}", render::error(&e)),
                    }
                    continue;
                }
                let _ = editor.add_history_entry(code);
                let step = step(&mut session, code, style);
                print!("{}", step.text);
                if step.quit {
                    break;
                }
            }
            // Ctrl-C abandons the line being typed, as in a shell; Ctrl-D leaves.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            // Bytes that are not text (a stray key, a pasted binary): one
            // error, and the game goes on.
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                println!("error: that line is not UTF-8 text: nothing was done");
                continue;
            }
            Err(e) => return Err(e),
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(h);
    }
    Ok(())
}
