//! The REPL's state and one small function per command.

use crate::command::{COMMANDS, Command, ParseError, spec};
use gridrules_core::playout::{BenchResult, bench};
use gridrules_core::setup::SetupError;
use gridrules_core::{
    Ending, Game, Outcome, ParseMoveError, PlayError, Rulebook, RulebookError, ScriptError, Side,
};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Seconds `bench` runs when not told.
pub const BENCH_SECONDS: f64 = 3.0;
/// `bench` reports the median of this many rounds: one noisy slice of time
/// on a shared machine does not move it.
pub const BENCH_ROUNDS: u32 = 5;

/// What a command produced, as data; `render` turns it into text.
#[derive(Debug)]
pub enum Reply {
    /// Nothing to say.
    Nothing,
    /// Lines of plain text.
    Lines(Vec<String>),
    /// Draw the current board.
    Board,
    /// A move was played.
    Moved {
        /// Who played it.
        side: Side,
        /// The move, as text.
        mv: String,
        /// The result, if the move ended the game.
        ending: Option<(Outcome, Ending)>,
    },
    /// A new game started (by `new`, `load` or `setup`).
    NewGame,
    /// A move was taken back.
    Undone(String),
    /// Benchmark figures.
    Bench {
        /// The rulebook measured.
        rulebook: String,
        /// Whether the rulebook runs per-move hooks (the slow path).
        per_move_hooks: bool,
        /// Each round's figures, sorted by speed.
        rounds: Vec<BenchResult>,
    },
    /// Leave the REPL.
    Quit,
}

/// A command that was refused. The session is unchanged.
#[derive(Debug)]
pub enum CommandError {
    /// The line is not a command.
    Parse(ParseError),
    /// The move text is not a move.
    Move(ParseMoveError),
    /// The move is not allowed (the text is the move as typed).
    Play(String, PlayError),
    /// A rulebook did not load.
    Rulebook(RulebookError),
    /// A position text was refused.
    Setup(SetupError),
    /// A script failed while answering the command.
    Script(ScriptError),
    /// Anything else, in words.
    Other(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Parse(e) => e.fmt(f),
            CommandError::Move(e) => e.fmt(f),
            CommandError::Play(mv, e) => write!(f, "{mv}: {e}"),
            CommandError::Rulebook(e) => e.fmt(f),
            CommandError::Setup(e) => write!(f, "setup: {e}"),
            CommandError::Script(e) => e.fmt(f),
            CommandError::Other(e) => f.write_str(e),
        }
    }
}

impl From<ScriptError> for CommandError {
    fn from(e: ScriptError) -> CommandError {
        CommandError::Script(e)
    }
}

impl From<RulebookError> for CommandError {
    fn from(e: RulebookError) -> CommandError {
        CommandError::Rulebook(e)
    }
}

/// The REPL's state: the rulebook and the game on it.
#[derive(Debug)]
pub struct Session {
    game: Game,
}

/// Loads a built-in rulebook by name, or a rulebook file by path.
///
/// # Errors
/// No such rulebook, or one that does not load.
pub fn open_rulebook(name: &str) -> Result<Rulebook, RulebookError> {
    let path = Path::new(name);
    if Rulebook::builtin_names().any(|n| n == name) || !(name.ends_with(".toml") || path.exists()) {
        Rulebook::builtin(name)
    } else {
        Rulebook::from_file(path)
    }
}

impl Session {
    /// A session with a new game on `rulebook`.
    pub fn new(rulebook: Rulebook) -> Session {
        Session {
            game: Game::new(Arc::new(rulebook)),
        }
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rulebook in use.
    pub fn rulebook(&self) -> &Arc<Rulebook> {
        self.game.rulebook()
    }

    /// Runs one command. On error nothing has changed.
    ///
    /// # Errors
    /// Why the command was refused.
    pub fn execute(&mut self, cmd: Command) -> Result<Reply, CommandError> {
        match cmd {
            Command::Help(topic) => help(topic.as_deref()),
            Command::Variants => Ok(variants()),
            Command::New(name) => self.new_game(name.as_deref()),
            Command::Load(path) => self.load(&path),
            Command::Rules => Ok(self.rules()),
            Command::Show => Ok(Reply::Board),
            Command::Play(text) => self.play(&text),
            Command::Legal => self.legal(),
            Command::Undo => self.undo(),
            Command::Status => Ok(self.status()),
            Command::History => Ok(self.history()),
            Command::Position => Ok(Reply::Lines(vec![
                self.rulebook().position_text(self.game.position()),
            ])),
            Command::Setup(text) => self.setup(&text),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(name, seconds) => self.bench(name.as_deref(), seconds),
            Command::Quit => Ok(Reply::Quit),
        }
    }

    /// Lines the rulebook's script printed since the last call.
    pub fn take_script_output(&self) -> Vec<String> {
        self.rulebook().script().take_output()
    }

    fn new_game(&mut self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => Arc::new(open_rulebook(n)?),
        };
        self.game = Game::new(rulebook);
        Ok(Reply::NewGame)
    }

    fn load(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let rulebook = Rulebook::from_file(path)?;
        self.game = Game::new(Arc::new(rulebook));
        Ok(Reply::NewGame)
    }

    fn rules(&self) -> Reply {
        let r = self.rulebook();
        let mut lines = vec![format!("{} — {}", r.name(), r.title())];
        if let Some(d) = r.description() {
            lines.push(String::new());
            lines.extend(wrap(d, 78));
        }
        lines.push(String::new());
        let g = r.grid();
        lines.push(format!(
            "board: {}×{}; rulebook {}; script {}",
            g.width(),
            g.height(),
            r.path(),
            r.script().path()
        ));
        if !r.params().is_empty() {
            let params: Vec<String> = r
                .params()
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            lines.push(format!("params: {}", params.join(", ")));
        }
        Reply::Lines(lines)
    }

    fn play(&mut self, text: &str) -> Result<Reply, CommandError> {
        let mv = self
            .rulebook()
            .parse_move(text)
            .map_err(CommandError::Move)?;
        let side = self.game.position().turn();
        let mv_text = self.rulebook().move_text(mv);
        let pos = self
            .game
            .play(mv)
            .map_err(|e| CommandError::Play(mv_text.clone(), e))?;
        Ok(Reply::Moved {
            side,
            mv: mv_text,
            ending: pos.ending(),
        })
    }

    fn legal(&self) -> Result<Reply, CommandError> {
        let r = self.rulebook();
        let mut list = gridrules_core::MoveList::new();
        r.legal_moves(self.game.position(), &mut list)?;
        let moves: Vec<String> = list.iter().map(|&m| r.move_text(m)).collect();
        Ok(Reply::Lines(vec![moves.join(" ")]))
    }

    fn undo(&mut self) -> Result<Reply, CommandError> {
        match self.game.undo() {
            Some(mv) => Ok(Reply::Undone(self.rulebook().move_text(mv))),
            None => Err(CommandError::Other(
                "nothing to undo: no move has been played".into(),
            )),
        }
    }

    fn status(&self) -> Reply {
        Reply::Lines(vec![status_line(self.game.position())])
    }

    fn history(&self) -> Reply {
        let r = self.rulebook();
        if self.game.moves().is_empty() {
            return Reply::Lines(vec!["no moves yet".into()]);
        }
        // Number full moves from the side that moved first (a set-up position may start with O).
        let first = self.game.start().turn();
        let mut text = String::new();
        for (i, &mv) in self.game.moves().iter().enumerate() {
            let side = if i % 2 == 0 { first } else { first.other() };
            if i % 2 == 0 {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&format!("{}.", i / 2 + 1));
                if side == Side::O {
                    text.push_str(" …");
                }
            }
            text.push(' ');
            text.push_str(&r.move_text(mv));
        }
        Reply::Lines(vec![text])
    }

    fn setup(&mut self, text: &str) -> Result<Reply, CommandError> {
        let pos = self
            .rulebook()
            .parse_position(text)
            .map_err(CommandError::Setup)?;
        self.game = Game::from_position(self.rulebook().clone(), pos);
        Ok(Reply::NewGame)
    }

    fn perft(&self, depth: u32) -> Result<Reply, CommandError> {
        let n = gridrules_core::perft::perft(self.rulebook(), self.game.position(), depth)?;
        Ok(Reply::Lines(vec![format!("perft {depth}: {n}")]))
    }

    fn bench(&self, name: Option<&str>, seconds: Option<f64>) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => Arc::new(open_rulebook(n)?),
        };
        let round =
            Duration::from_secs_f64(seconds.unwrap_or(BENCH_SECONDS) / f64::from(BENCH_ROUNDS));
        let mut rounds = (0..BENCH_ROUNDS)
            .map(|i| bench(&rulebook, round, 0x5eed + u64::from(i)))
            .collect::<Result<Vec<_>, _>>()?;
        rounds.sort_by(|a, b| a.playouts_per_second().total_cmp(&b.playouts_per_second()));
        Ok(Reply::Bench {
            rulebook: rulebook.name().to_string(),
            per_move_hooks: rulebook.has_per_move_hooks(),
            rounds,
        })
    }
}

/// `to move: X`, or the result line.
pub fn status_line(pos: &gridrules_core::Position) -> String {
    match pos.ending() {
        None => format!("to move: {}", pos.turn()),
        Some(ending) => result_line(ending),
    }
}

/// The contract's result line: `result: X wins`, with the reason when it is not a line.
pub fn result_line((outcome, ending): (Outcome, Ending)) -> String {
    let why = match ending {
        Ending::Line => None,
        Ending::NoMoves => Some(match outcome {
            Outcome::Draw => "no legal move",
            Outcome::Win(_) => "the other side has no legal move",
        }),
        Ending::Repetition => Some("the same position for the third time"),
        Ending::Script => Some("decided by the rulebook's script"),
    };
    match why {
        Some(w) => format!("result: {outcome} — {w}"),
        None => format!("result: {outcome}"),
    }
}

fn help(topic: Option<&str>) -> Result<Reply, CommandError> {
    let Some(topic) = topic else {
        let mut lines: Vec<String> = COMMANDS
            .iter()
            .map(|c| format!("  {:<28} {}", c.usage(), c.summary))
            .collect();
        lines.insert(
            0,
            "commands (a bare move such as `b2` or `b2-c2` plays it):".into(),
        );
        lines.push("`help <command>` shows an example; `#` starts a comment.".into());
        return Ok(Reply::Lines(lines));
    };
    let Some(c) = spec(topic) else {
        return Err(CommandError::Parse(ParseError::Unknown(topic.to_string())));
    };
    let mut lines = vec![format!("{} — {}", c.usage(), c.summary)];
    if !c.aliases.is_empty() {
        lines.push(format!("also: {}", c.aliases.join(", ")));
    }
    lines.push(format!("example: {}", c.example));
    Ok(Reply::Lines(lines))
}

fn variants() -> Reply {
    let lines = Rulebook::builtin_names()
        .map(|n| match Rulebook::builtin(n) {
            Ok(r) => format!("{n:<14} {}", r.title()),
            Err(e) => format!("{n:<14} (does not load: {e})"),
        })
        .collect();
    Reply::Lines(lines)
}

/// Wraps prose at `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
