//! The interactive front end: rustyline with completion and history around
//! the same `batch::step` that batch mode runs.

use crate::batch::{step, strip_comment};
use crate::command::COMMANDS;
use crate::render::{self, Style};
use crate::session::Session;
use gridrules_core::{MoveList, Rulebook};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Words the completer offers besides the commands: legal moves and rulebook names.
#[derive(Default)]
struct Words {
    moves: Vec<String>,
}

struct ReplHelper {
    words: Arc<Mutex<Words>>,
}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let first = before[..start].split_whitespace().next();
        let words = self.words.lock().unwrap_or_else(|e| e.into_inner());
        let pool: Vec<String> = match first {
            None => COMMANDS
                .iter()
                .map(|c| c.name.to_string())
                .chain(words.moves.iter().cloned())
                .collect(),
            Some("play" | "move") => words.moves.clone(),
            Some("new" | "bench") => Rulebook::builtin_names().map(str::to_string).collect(),
            Some("help") => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            _ => Vec::new(),
        };
        Ok((
            start,
            pool.into_iter().filter(|w| w.starts_with(word)).collect(),
        ))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}
impl Highlighter for ReplHelper {}
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
    let moves = match r.legal_moves(session.game().position(), &mut list) {
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
        game.position().turn().to_string()
    };
    match session.time_left() {
        Some(left) => format!("{} {turn} {}s> ", session.rulebook().name(), left.as_secs()),
        None => format!("{} {turn}> ", session.rulebook().name()),
    }
}

/// Runs the REPL on the terminal until `quit` or Ctrl-D.
///
/// # Errors
/// When the terminal cannot be driven.
pub fn run(mut session: Session) -> rustyline::Result<()> {
    let words = Arc::new(Mutex::new(Words::default()));
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::new()?;
    editor.set_helper(Some(ReplHelper {
        words: words.clone(),
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    let style = Style::interactive();
    println!("gridrules — type `help` for the commands, `quit` or Ctrl-D to leave");
    print!("{}", render::board(&session, style));
    loop {
        refresh(&words, &session);
        let prompt = prompt(&session);
        match editor.readline(&prompt) {
            Ok(line) => {
                let code = strip_comment(&line);
                if code.is_empty() {
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
