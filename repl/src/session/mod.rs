//! The REPL's state and one small function per command.

mod files;
mod seats;
mod tools;

use crate::command::{Command, ParseError};
use crate::table::{Clock, Offer, Seats, TimeSource};
use gridrules_core::playout::{BenchResult, Rng};
use gridrules_core::record::RecordError;
use gridrules_core::search::{self, Budget, Level};
use gridrules_core::setup::SetupError;
use gridrules_core::{
    Ending, Game, Move, Outcome, ParseMoveError, PlayError, Refusal, Rulebook, RulebookError,
    ScriptError, Side,
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
/// How much the computer searches for a hard move. A count, not a time, so
/// that the same seed and commands give the same moves at the REPL and in
/// batch mode (and `record` replays exactly); on 15×15 it stays well under
/// a second.
const THINK: Budget = Budget::Playouts(20_000);

/// Who made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// A person typed it.
    Person,
    /// The computer chose it (`ai`, or its seat's reply).
    Computer,
    /// The clock made it: the player's time ran out (T2).
    Clock,
}

/// A move made by a command, with the result if it ended the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The mover.
    pub side: Side,
    /// The move, as text.
    pub mv: String,
    /// Who chose it.
    pub by: By,
    /// The result, if this move ended the game.
    pub ending: Option<(Outcome, Ending)>,
    /// Its result line, naming the deciding line's cells.
    pub result: Option<String>,
    /// What else the move changed at the table (a swap: who plays which mark).
    pub note: Option<String>,
}

/// What a command produced, as data; `render` turns it into text.
#[derive(Debug)]
pub enum Reply {
    /// Nothing to say.
    Nothing,
    /// Lines of plain text.
    Lines(Vec<String>),
    /// Draw the current board.
    Board,
    /// Lines, then moves that followed (a person's, and any computer replies).
    Played(Vec<String>, Vec<Played>),
    /// A new game started (by `new`, `load`, `setup`, `open` or `again`),
    /// and the computer's first moves if it plays X.
    NewGame(Vec<Played>),
    /// Moves were taken back.
    Undone(Vec<String>),
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
    /// A game record could not be saved or opened.
    Record(RecordError),
    /// Documented examples failed: the report's lines, and how many failed.
    Check(Vec<String>, usize),
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
            CommandError::Record(e) => e.fmt(f),
            CommandError::Check(_, failed) => {
                write!(
                    f,
                    "check: {failed} example{} failed",
                    if *failed == 1 { "" } else { "s" }
                )
            }
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

impl From<RecordError> for CommandError {
    fn from(e: RecordError) -> CommandError {
        CommandError::Record(e)
    }
}

fn refused(msg: impl Into<String>) -> CommandError {
    CommandError::Other(msg.into())
}

/// Where the session runs, which decides its clock and its random seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// At a terminal: real time, a fresh seed.
    Interactive,
    /// Batch mode: time moves only with `wait`, and the seed is fixed, so
    /// every run prints the same.
    Batch,
}

/// The seed batch mode starts from.
pub const BATCH_SEED: u64 = 0x5eed;

/// The REPL's state: the rulebook and game, the table, the clock, the transcript.
#[derive(Debug)]
pub struct Session {
    game: Game,
    /// How the rulebook was named (a built-in name or a path), for records.
    rulebook_name: String,
    seats: Seats,
    offer: Option<Offer>,
    /// The last offer made: one per move (T3).
    last_offer: Option<Offer>,
    clock: Clock,
    rng: Rng,
    /// Moves made before the command ran (the clock's), for the front end to show.
    pending: Vec<Played>,
    /// The commands that changed or showed the session, replayable in batch mode.
    transcript: Vec<String>,
    /// Whether `again` swaps the marks, as chosen at the table (`alternate`);
    /// `None`: as the rulebook says.
    alternate: Option<bool>,
    /// The pie rule as chosen at the table (`pie`), for records; `None`: as
    /// the rulebook says.
    pie: Option<bool>,
}

/// Loads a built-in rulebook by name, or a rulebook file by path.
///
/// # Errors
/// No such rulebook, or one that does not load.
pub fn open_rulebook(name: &str) -> Result<Rulebook, RulebookError> {
    let path = Path::new(name);
    if Rulebook::is_builtin(name) || !(name.ends_with(".toml") || path.exists()) {
        Rulebook::builtin(name)
    } else {
        Rulebook::from_file(path)
    }
}

/// How the session names a rulebook: a built-in by its name, a file by its
/// absolute path, so records and transcripts find it from any directory.
fn rulebook_ref(name_or_path: &Path) -> String {
    let text = name_or_path.display().to_string();
    if Rulebook::is_builtin(&text) {
        return text;
    }
    std::fs::canonicalize(name_or_path).map_or(text, |p| p.display().to_string())
}

impl Session {
    /// A session with a new game on `rulebook`, named `name` (built-in name or path).
    pub fn new(rulebook: Rulebook, name: &str, setting: Setting) -> Session {
        let (source, seed) = match setting {
            Setting::Interactive => {
                // Seeds are kept small so that `seed N` lines stay readable.
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.subsec_nanos() as u64 % 1_000_000);
                (TimeSource::Real(std::time::Instant::now()), seed)
            }
            Setting::Batch => (TimeSource::Virtual(Duration::ZERO), BATCH_SEED),
        };
        let clock = Clock {
            limit: rulebook.table().clock,
            chosen: None,
            turn_began: Duration::ZERO,
            source,
        };
        let first = if Rulebook::is_builtin(name) {
            "new"
        } else {
            "load"
        };
        let transcript = vec![
            format!("seed {seed}"),
            format!("{first} {}", rulebook_ref(Path::new(name))),
        ];
        Session {
            game: Game::new(Arc::new(rulebook)),
            rulebook_name: rulebook_ref(Path::new(name)),
            seats: Seats::default(),
            offer: None,
            last_offer: None,
            clock,
            rng: Rng::new(seed),
            pending: Vec::new(),
            alternate: None,
            pie: None,
            transcript,
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

    /// The seats, names and score.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The pending draw offer, if any.
    pub fn offer(&self) -> Option<Offer> {
        self.offer
    }

    /// Seconds per move, when the clock is on.
    pub fn clock_limit(&self) -> Option<u32> {
        self.clock.limit
    }

    /// Time left for the side to move, when the clock runs for it.
    pub fn time_left(&self) -> Option<Duration> {
        let turn = self.game.position().turn();
        if self.game.is_over() || self.seats.computer(turn).is_some() {
            return None;
        }
        self.clock.left()
    }

    /// Lines the rulebook's script printed since the last call.
    pub fn take_script_output(&self) -> Vec<String> {
        self.rulebook().script().take_output()
    }

    /// Moves the clock made before the last command ran.
    pub fn take_pending(&mut self) -> Vec<Played> {
        std::mem::take(&mut self.pending)
    }

    /// Lets the clock make the moves of players whose time ran out, with no
    /// command (the REPL calls it when Enter is pressed on an empty line).
    ///
    /// # Errors
    /// A failing per-move hook.
    pub fn tick(&mut self) -> Result<bool, CommandError> {
        self.run_clock()
    }

    /// Runs one command. On error the game is unchanged (the clock may have
    /// made a move for a player whose time ran out first: see `take_pending`).
    ///
    /// # Errors
    /// Why the command was refused.
    pub fn execute(&mut self, cmd: Command) -> Result<Reply, CommandError> {
        let ran_out = self.run_clock()?;
        // Every command that plays, or shows or refuses something about the
        // game, goes into the transcript, refused ones too: with the seed and
        // the clock's waits, batch mode replays it exactly, errors included.
        let logged = !matches!(
            cmd,
            Command::Record(_)
                | Command::Save(_)
                | Command::Bench(..)
                | Command::Check(_)
                | Command::Quit
                | Command::Help(_)
        ) && !self.refused_here_only(&cmd);
        if ran_out && matches!(cmd, Command::Play(_) | Command::Ai(_)) {
            // In a replay the `wait` before it already made the clock's move,
            // so this line would play for the other side: keep it as a note.
            self.transcript
                .push(format!("# {cmd}  (typed after the time ran out, refused)"));
            return Err(refused(format!(
                "{cmd}: too late: the time for the move ran out"
            )));
        }
        if logged {
            self.transcript.push(cmd.to_string());
        }
        self.dispatch(cmd)
    }

    /// A command refused at the REPL that batch mode would carry out (`wait`
    /// moves only batch mode's clock): kept out of the transcript, where the
    /// real time passed is already a `wait` of its own.
    fn refused_here_only(&self, cmd: &Command) -> bool {
        matches!(cmd, Command::Wait(_)) && !matches!(self.clock.source, TimeSource::Virtual(_))
    }

    /// A line that is not a command, refused before it ran: it goes into the
    /// transcript all the same, so the replay refuses it too.
    pub fn note_unparsed(&mut self, line: &str) {
        self.transcript.push(line.to_string());
    }

    /// The transcript so far, as `record` writes it (without its header).
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }

    fn dispatch(&mut self, cmd: Command) -> Result<Reply, CommandError> {
        match cmd {
            Command::Help(topic) => tools::help(topic.as_deref()),
            Command::Variants => Ok(tools::variants()),
            Command::New(name) => self.new_game(name.as_deref()),
            Command::Load(path) => self.load(&path),
            Command::Rules => Ok(self.rules()),
            Command::Show => Ok(Reply::Board),
            Command::Play(text) => self.play(&text),
            Command::Legal => self.legal(),
            Command::Undo => self.undo(),
            Command::Status => Ok(Reply::Lines(vec![self.game.status_line()])),
            Command::History => Ok(self.history()),
            Command::Ai(level) => self.ai(level.unwrap_or(Level::Hard)),
            Command::Vs(level, mark) => self.vs(level, mark),
            Command::Resign(side) => self.resign(side),
            Command::Draw(action) => self.draw(action),
            Command::Again => self.again(),
            Command::Score => Ok(Reply::Lines(vec![self.seats.score_line()])),
            Command::Name(seat, name) => {
                self.seats.set_name(seat - 1, name);
                Ok(Reply::Lines(vec![self.seats.score_line()]))
            }
            Command::Clock(limit) => self.set_clock(limit),
            Command::Pie(on) => self.set_pie(on),
            Command::Alternate(on) => {
                self.alternate = Some(on);
                Ok(Reply::Lines(vec![if on {
                    "alternate: on — `again` passes X and the first move to the other seat"
                        .to_string()
                } else {
                    "alternate: off — `again` keeps the marks where they are".to_string()
                }]))
            }
            Command::Wait(seconds) => self.wait(seconds),
            Command::Seed(seed) => {
                self.rng = Rng::new(seed);
                Ok(Reply::Nothing)
            }
            Command::Save(path) => self.save(&path),
            Command::Open(path) => self.open(&path),
            Command::Record(path) => self.record(&path),
            Command::Position => Ok(Reply::Lines(vec![
                self.rulebook().position_text(self.game.position()),
            ])),
            Command::Setup(text) => self.setup(&text),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(name, seconds) => self.bench(name.as_deref(), seconds),
            Command::Check(name) => self.check(name.as_deref()),
            Command::Quit => Ok(Reply::Quit),
        }
    }

    /// Starts `game` as the next one at the table: scores, offers and the
    /// clock start afresh; the computer moves first if it has X.
    fn start(&mut self, game: Game, swap: bool) -> Result<Reply, CommandError> {
        self.start_seated(game, swap, |_| {})
    }

    /// [`Session::start`], with `seat` arranging the seats (a record's
    /// names and swaps) before the computer makes any move, and a game that
    /// was decided before it began left out of the score.
    fn start_seated(
        &mut self,
        game: Game,
        swap: bool,
        seat: impl FnOnce(&mut crate::table::Seats),
    ) -> Result<Reply, CommandError> {
        let decided = game.ending();
        self.game = game;
        self.seats.next_game(swap);
        seat(&mut self.seats);
        self.offer = None;
        self.last_offer = None;
        self.clock.restart();
        let mut played = Vec::new();
        self.computer_replies(&mut played)?;
        self.settle();
        if let Some((outcome, _)) = decided {
            // Set up or opened already decided: a study, not a result here.
            self.seats.unscore(outcome);
        }
        Ok(Reply::NewGame(played))
    }

    /// The clock for a game on `rulebook`: the players' choice where the
    /// rulebook allows it, else the rulebook's own.
    fn clock_for(&self, rulebook: &Rulebook) -> Option<u32> {
        match self.clock.chosen {
            Some(None) => None,
            Some(Some(s)) if rulebook.table().allows_clock(s) => Some(s),
            _ => rulebook.table().clock,
        }
    }

    fn new_game(&mut self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => {
                let r = Arc::new(open_rulebook(n)?);
                self.rulebook_name = rulebook_ref(Path::new(n));
                self.clock.limit = self.clock_for(&r);
                self.pie = None;
                r
            }
        };
        self.start(Game::new(rulebook), false)
    }

    fn load(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let rulebook = Arc::new(Rulebook::from_file(path)?);
        self.rulebook_name = rulebook_ref(path);
        self.clock.limit = self.clock_for(&rulebook);
        self.pie = None;
        self.start(Game::new(rulebook), false)
    }

    /// After any move: an offer the mover did not make is declined (T3); a
    /// finished game is scored; the clock restarts.
    fn after_move(&mut self, mover: Side) {
        if self.offer.is_some_and(|o| o.by != mover) {
            self.offer = None;
        }
        self.clock.restart();
        self.settle();
    }

    fn settle(&mut self) {
        if let Some((outcome, _)) = self.game.ending() {
            self.seats.score_result(outcome);
            self.offer = None;
        }
    }

    fn make_move(&mut self, mv: Move, by: By) -> Result<Played, CommandError> {
        let side = self.game.position().turn();
        let text = self.rulebook().move_text(mv);
        self.game
            .play(mv)
            .map_err(|e| CommandError::Play(text.clone(), e))?;
        // The pie rule: the seats exchange marks, names, levels and score
        // going with the seats (PI1).
        let note = (mv == Move::Swap).then(|| {
            self.seats.exchange_marks();
            format!(
                "the seats exchange marks: {} plays X, {} plays O",
                self.seats.name(Side::X),
                self.seats.name(Side::O)
            )
        });
        self.after_move(side);
        Ok(Played {
            side,
            mv: text,
            by,
            ending: self.game.ending(),
            result: self.game.result_text(),
            note,
        })
    }

    fn think(&mut self, level: Level) -> Result<Option<Move>, CommandError> {
        let rules = self.game.rulebook().clone();
        Ok(search::choose(
            &rules,
            self.game.position(),
            self.game.moves(),
            level,
            &mut self.rng,
            THINK,
        )?)
    }

    /// The computer plays while its seat is to move.
    fn computer_replies(&mut self, played: &mut Vec<Played>) -> Result<(), CommandError> {
        while !self.game.is_over() {
            let side = self.game.position().turn();
            let Some(level) = self.seats.computer(side) else {
                break;
            };
            let Some(mv) = self.think(level)? else { break };
            played.push(self.make_move(mv, By::Computer)?);
        }
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<Reply, CommandError> {
        let mv = self.game.parse_move(text).map_err(|e| match e {
            PlayError::Notation(e) => CommandError::Move(e),
            e => CommandError::Play(text.to_string(), e),
        })?;
        let side = self.game.position().turn();
        if let Some(level) = self.seats.computer(side).filter(|_| !self.game.is_over()) {
            return Err(refused(format!(
                "{text}: {side} is the computer's ({level}) to play"
            )));
        }
        let mut played = vec![self.make_move(mv, By::Person)?];
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(Vec::new(), played))
    }

    fn ai(&mut self, level: Level) -> Result<Reply, CommandError> {
        if let Some((o, _)) = self.game.ending() {
            return Err(refused(format!(
                "ai: {}",
                self.rulebook().explain(&Refusal::GameOver(o))
            )));
        }
        let Some(mv) = self.think(level)? else {
            return Err(refused("ai: there is no legal move"));
        };
        let mut played = vec![self.make_move(mv, By::Computer)?];
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(Vec::new(), played))
    }

    fn legal(&self) -> Result<Reply, CommandError> {
        let r = self.rulebook();
        let mut list = gridrules_core::MoveList::new();
        r.legal_moves(self.game.position(), self.game.moves(), &mut list)?;
        let moves: Vec<String> = list.iter().map(|&m| r.move_text(m)).collect();
        Ok(Reply::Lines(vec![moves.join(" ")]))
    }

    fn undo(&mut self) -> Result<Reply, CommandError> {
        if let Some((_, ending @ (Ending::Resigned(_) | Ending::Agreed))) = self.game.ending() {
            let what = if ending == Ending::Agreed {
                "an agreed draw"
            } else {
                "a resignation"
            };
            return Err(refused(format!(
                "undo: {what} is final; `again` starts the next game"
            )));
        }
        let was_over = self.game.ending().map(|(o, _)| o);
        // Worked out on copies: refused, it changes nothing.
        let (mut game, mut seats) = (self.game.clone(), self.seats.clone());
        let mut undone = Vec::new();
        // Against the computer, take back its reply too (every mark of it,
        // in a turn of several) and the move it answered, so it is the
        // person's move again.
        while let Some(mv) = game.undo() {
            if mv == Move::Swap {
                seats.unexchange_marks();
            }
            undone.push(self.rulebook().move_text(mv));
            if seats.computer(game.position().turn()).is_none() {
                break;
            }
        }
        if undone.is_empty() {
            return Err(refused("undo: no move has been played"));
        }
        if seats.computer(game.position().turn()).is_some() {
            return Err(refused(
                "undo: only the computer's opening move is left, and it would make it again; `new` starts over",
            ));
        }
        self.game = game;
        self.seats = seats;
        if let Some(o) = was_over {
            self.seats.unscore(o);
        }
        self.offer = None;
        self.clock.restart();
        Ok(Reply::Undone(undone))
    }

    fn history(&self) -> Reply {
        let r = self.rulebook();
        if self.game.moves().is_empty() {
            return Reply::Lines(vec!["no moves yet".into()]);
        }
        // A number for each round, X's turn then O's, each turn as many
        // marks as the rulebook says; a game set up with O to move starts
        // `1. …`.
        let positions = self.game.positions();
        let mut text = String::new();
        let mut round = 0;
        for (i, &mv) in self.game.moves().iter().enumerate() {
            let mover = positions[i].turn();
            let new_round = match i {
                0 => true,
                _ => mover == Side::X && positions[i - 1].turn() == Side::O,
            };
            if new_round {
                round += 1;
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&format!("{round}."));
                if i == 0 && mover == Side::O {
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
        let game = Game::from_position(self.rulebook().clone(), pos);
        self.start(game, false)
    }
}

/// `clock: 15 s per move` or `clock: off`.
pub fn clock_line(limit: Option<u32>) -> String {
    match limit {
        Some(s) => format!("clock: {s} s per move"),
        None => "clock: off".to_string(),
    }
}
