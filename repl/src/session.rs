//! The REPL's state and one small function per command.

use crate::command::{COMMANDS, Command, DrawAction, ParseError, spec};
use crate::table::{Clock, Offer, Seats, TimeSource};
use gridrules_core::playout::{BenchResult, Rng, bench};
use gridrules_core::record::{self, RecordError};
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
const THINK_PLAYOUTS: u32 = 20_000;

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
    /// The seed the session started from (or `seed` set), for transcripts.
    seed: u64,
    budget: Budget,
    /// Moves made before the command ran (the clock's), for the front end to show.
    pending: Vec<Played>,
    /// The commands that changed or showed the session, replayable in batch mode.
    transcript: Vec<String>,
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
            turn_began: Duration::ZERO,
            source,
        };
        let first = if Rulebook::builtin_names().any(|n| n == name) {
            "new"
        } else {
            "load"
        };
        let transcript = vec![format!("seed {seed}"), format!("{first} {name}")];
        Session {
            game: Game::new(Arc::new(rulebook)),
            rulebook_name: name.to_string(),
            seats: Seats::default(),
            offer: None,
            last_offer: None,
            clock,
            rng: Rng::new(seed),
            seed,
            budget: Budget::Playouts(THINK_PLAYOUTS),
            pending: Vec::new(),
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
        );
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

    fn dispatch(&mut self, cmd: Command) -> Result<Reply, CommandError> {
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
            Command::Status => Ok(Reply::Lines(vec![status_line(&self.game)])),
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
            Command::Wait(seconds) => self.wait(seconds),
            Command::Seed(seed) => {
                self.seed = seed;
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
        self.game = game;
        self.seats.next_game(swap);
        self.offer = None;
        self.last_offer = None;
        self.clock.restart();
        let mut played = Vec::new();
        self.computer_replies(&mut played)?;
        self.settle();
        Ok(Reply::NewGame(played))
    }

    fn new_game(&mut self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => {
                let r = Arc::new(open_rulebook(n)?);
                self.rulebook_name = n.to_string();
                self.clock.limit = r.table().clock;
                r
            }
        };
        self.start(Game::new(rulebook), false)
    }

    fn load(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let rulebook = Arc::new(Rulebook::from_file(path)?);
        self.rulebook_name = path.display().to_string();
        self.clock.limit = rulebook.table().clock;
        self.start(Game::new(rulebook), false)
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
        let t = r.table();
        let clock = match (t.clock, t.clock_options.is_empty()) {
            (Some(s), _) => format!("{s} s per move"),
            (None, true) => "none".to_string(),
            (None, false) => {
                let o: Vec<String> = t.clock_options.iter().map(u32::to_string).collect();
                format!("none by default; {} s can be chosen", o.join(" or "))
            }
        };
        let swap = if t.alternate {
            "the marks change seats"
        } else {
            "the seats keep their marks"
        };
        lines.push(format!("clock: {clock}; in a rematch {swap}"));
        Reply::Lines(lines)
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
        self.after_move(side);
        Ok(Played {
            side,
            mv: text,
            by,
            ending: self.game.ending(),
        })
    }

    fn think(&mut self, level: Level) -> Result<Option<Move>, CommandError> {
        let rules = self.game.rulebook().clone();
        Ok(search::choose(
            &rules,
            self.game.position(),
            level,
            &mut self.rng,
            self.budget,
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
        let mv = self
            .rulebook()
            .parse_move(text)
            .map_err(CommandError::Move)?;
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

    fn vs(&mut self, level: Option<Level>, mark: Option<Side>) -> Result<Reply, CommandError> {
        self.seats.clear_computers();
        let Some(level) = level else {
            return Ok(Reply::Lines(vec!["both seats are played by people".into()]));
        };
        let human = mark.unwrap_or(self.game.position().turn());
        if mark.is_some() && self.game.moves().is_empty() {
            // Marks are chosen before the game (G6): the person keeps seat 1.
            self.seats.give_mark(0, human);
        }
        self.seats.set_computer(human.other(), Some(level));
        let lines = vec![
            format!(
                "you play {human}; the computer ({level}) plays {}",
                human.other()
            ),
            self.seats.score_line(),
        ];
        let mut played = Vec::new();
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(lines, played))
    }

    fn resign(&mut self, side: Option<Side>) -> Result<Reply, CommandError> {
        let side = side
            .or(self.seats.human_side())
            .unwrap_or(self.game.position().turn());
        self.game
            .resign(side)
            .map_err(|e| refused(format!("resign: {}", self.game.rulebook().explain(&e))))?;
        self.settle();
        Ok(Reply::Lines(vec![status_line(&self.game)]))
    }

    fn draw(&mut self, action: DrawAction) -> Result<Reply, CommandError> {
        if let Some((o, _)) = self.game.ending() {
            return Err(refused(format!(
                "draw: {}",
                self.rulebook().explain(&Refusal::GameOver(o))
            )));
        }
        match action {
            DrawAction::Offer => self.offer_draw(),
            DrawAction::Accept => {
                let Some(offer) = self.offer else {
                    return Err(refused("draw accept: there is no draw offer to answer"));
                };
                self.game.agree_draw().map_err(|e| refused(e.to_string()))?;
                self.settle();
                Ok(Reply::Lines(vec![
                    format!("{} accepts the draw", offer.by.other()),
                    status_line(&self.game),
                ]))
            }
            DrawAction::Decline => {
                let Some(offer) = self.offer.take() else {
                    return Err(refused("draw decline: there is no draw offer to answer"));
                };
                Ok(Reply::Lines(vec![format!(
                    "{} declines the draw",
                    offer.by.other()
                )]))
            }
        }
    }

    fn offer_draw(&mut self) -> Result<Reply, CommandError> {
        let by = self
            .seats
            .human_side()
            .unwrap_or(self.game.position().turn());
        let ply = self.game.moves().len();
        if self.offer.is_some() {
            return Err(refused(
                "draw offer: an offer is already waiting for an answer",
            ));
        }
        if self.last_offer == Some(Offer { by, ply }) {
            return Err(refused(format!(
                "draw offer: {by} has offered a draw this move already (one offer per move)"
            )));
        }
        let offer = Offer { by, ply };
        self.last_offer = Some(offer);
        let them = by.other();
        if self.seats.computer(them).is_some() {
            if self.computer_accepts_draw(them)? {
                self.game.agree_draw().map_err(|e| refused(e.to_string()))?;
                self.settle();
                return Ok(Reply::Lines(vec![
                    format!("{by} offers a draw; the computer accepts"),
                    status_line(&self.game),
                ]));
            }
            return Ok(Reply::Lines(vec![format!(
                "{by} offers a draw; the computer declines"
            )]));
        }
        self.offer = Some(offer);
        Ok(Reply::Lines(vec![format!(
            "{by} offers a draw: {them} may `draw accept` or `draw decline` (a move declines)"
        )]))
    }

    /// The computer takes a draw unless it expects to do better than one:
    /// exactly when the game can be solved, else by its search's estimate.
    fn computer_accepts_draw(&mut self, side: Side) -> Result<bool, CommandError> {
        let rules = self.game.rulebook().clone();
        let pos = self.game.position();
        let expected = search::expected_score(&rules, pos, &mut self.rng, self.budget)?;
        // `expected` is for the side to move; the computer may be the other one.
        let mine = if pos.turn() == side {
            expected
        } else {
            1.0 - expected
        };
        Ok(mine <= 0.5)
    }

    fn again(&mut self) -> Result<Reply, CommandError> {
        if !self.game.is_over() {
            return Err(refused(
                "again: the game is still on: finish it, resign or agree a draw first (`new` abandons it)",
            ));
        }
        let swap = self.rulebook().table().alternate;
        let rulebook = self.rulebook().clone();
        self.start(Game::new(rulebook), swap)
    }

    fn set_clock(&mut self, limit: Option<u32>) -> Result<Reply, CommandError> {
        if !self.game.moves().is_empty() {
            return Err(refused("clock: the clock is set before the first move"));
        }
        let table = self.rulebook().table();
        if let Some(s) = limit
            && !table.allows_clock(s)
        {
            let options: Vec<String> = table.clock_options.iter().map(|o| format!("{o}")).collect();
            return Err(refused(format!(
                "clock {s}: this rulebook offers {} seconds per move, or off",
                options.join(" or ")
            )));
        }
        self.clock.limit = limit;
        self.clock.restart();
        Ok(Reply::Lines(vec![clock_line(limit)]))
    }

    fn wait(&mut self, seconds: u32) -> Result<Reply, CommandError> {
        let TimeSource::Virtual(now) = &mut self.clock.source else {
            return Err(refused(
                "wait: only batch mode's clock can be moved; at the REPL time is real",
            ));
        };
        *now += Duration::from_secs(u64::from(seconds));
        self.run_clock()?;
        Ok(Reply::Nothing)
    }

    /// Makes the moves of players whose time ran out (T2): a random move, and
    /// the computer's reply. Returns whether any was made.
    fn run_clock(&mut self) -> Result<bool, CommandError> {
        let Some(limit) = self.clock.limit.map(|s| Duration::from_secs(u64::from(s))) else {
            return Ok(false);
        };
        let mut ran_out = false;
        let waited = self
            .clock
            .source
            .now()
            .saturating_sub(self.clock.turn_began);
        while !self.game.is_over()
            && self.seats.computer(self.game.position().turn()).is_none()
            && self
                .clock
                .source
                .now()
                .saturating_sub(self.clock.turn_began)
                >= limit
        {
            let rules = self.game.rulebook().clone();
            let Some(mv) = rules.timeout_move(self.game.position(), &mut self.rng)? else {
                break;
            };
            if !ran_out && matches!(self.clock.source, TimeSource::Real(_)) {
                // Whole seconds, rounded down, time out as often as the real wait did.
                self.transcript.push(format!("wait {}", waited.as_secs()));
            }
            let deadline = self.clock.turn_began + limit;
            let p = self.make_move(mv, By::Clock)?;
            // The next move's time began when this one's ran out.
            self.clock.turn_began = deadline;
            self.pending.push(p);
            let mut replies = Vec::new();
            self.computer_replies(&mut replies)?;
            if !replies.is_empty() {
                self.clock.turn_began = deadline;
            }
            self.pending.extend(replies);
            ran_out = true;
        }
        Ok(ran_out)
    }

    fn legal(&self) -> Result<Reply, CommandError> {
        let r = self.rulebook();
        let mut list = gridrules_core::MoveList::new();
        r.legal_moves(self.game.position(), &mut list)?;
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
        let Some(mv) = self.game.undo() else {
            return Err(refused("undo: no move has been played"));
        };
        let mut undone = vec![self.rulebook().move_text(mv)];
        // Against the computer, take back its reply too, so it is the person's move.
        if self.seats.computer(self.game.position().turn()).is_some()
            && let Some(mv) = self.game.undo()
        {
            undone.push(self.rulebook().move_text(mv));
        }
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
        // Number full moves from the side that moved first (a set-up position may start with O).
        let first = self.game.start().turn();
        let mut text = String::new();
        for (i, &mv) in self.game.moves().iter().enumerate() {
            if i % 2 == 0 {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&format!("{}.", i / 2 + 1));
                if first == Side::O && i == 0 {
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

    fn save(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let table = record::Table {
            x: self.seats.name(Side::X).to_string(),
            o: self.seats.name(Side::O).to_string(),
            clock: self.clock.limit,
        };
        let text = record::to_text(&self.game, &self.rulebook_name, &table);
        record::write_atomic(path, &text)?;
        Ok(Reply::Lines(vec![format!("saved: {}", path.display())]))
    }

    fn open(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let opened = record::open(path)?;
        self.rulebook_name = opened.rulebook;
        self.clock.limit = opened.table.clock;
        let over = opened.game.ending();
        let reply = self.start(opened.game, false)?;
        self.seats.set_names_by_side(opened.table.x, opened.table.o);
        if let Some((outcome, _)) = over {
            // A finished game from a file is history, not a new result at this table.
            self.seats.unscore(outcome);
        }
        Ok(reply)
    }

    fn record(&self, path: &Path) -> Result<Reply, CommandError> {
        let mut text = String::from(
            "# gridrules session transcript: replay it with `gridrules --batch < FILE`\n",
        );
        for line in &self.transcript {
            text.push_str(line);
            text.push('\n');
        }
        record::write_atomic(path, &text)?;
        Ok(Reply::Lines(vec![format!(
            "recorded: {} ({} lines)",
            path.display(),
            self.transcript.len()
        )]))
    }

    fn perft(&self, depth: u32) -> Result<Reply, CommandError> {
        let n = gridrules_core::perft::perft(self.rulebook(), self.game.position(), depth)?;
        Ok(Reply::Lines(vec![format!("perft {depth}: {n}")]))
    }

    /// Runs the documented examples of one rulebook, or of every built-in.
    fn check(&self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebooks = match name {
            None => vec![self.rulebook().clone()],
            Some("all") => Rulebook::builtin_names()
                .map(|n| Rulebook::builtin(n).map(Arc::new))
                .collect::<Result<Vec<_>, _>>()?,
            Some(n) => vec![Arc::new(open_rulebook(n)?)],
        };
        let mut lines = Vec::new();
        let (mut total, mut failed) = (0, 0);
        for r in &rulebooks {
            let results = gridrules_core::check::run(r);
            let bad = results.iter().filter(|c| c.failure.is_some()).count();
            for c in &results {
                let e = &c.example;
                match &c.failure {
                    None => lines.push(format!("pass {:<4} {}: {}", e.rule, r.name(), e.text)),
                    Some(why) => lines.push(format!(
                        "FAIL {:<4} {}: {} — {why} ({})",
                        e.rule,
                        r.name(),
                        e.text,
                        e.location
                    )),
                }
            }
            lines.push(format!(
                "check {}: {} examples, {} passed, {bad} failed",
                r.name(),
                results.len(),
                results.len() - bad
            ));
            total += results.len();
            failed += bad;
        }
        if rulebooks.len() > 1 {
            lines.push(format!(
                "check: {total} examples, {} passed, {failed} failed",
                total - failed
            ));
        }
        if failed > 0 {
            return Err(CommandError::Check(lines, failed));
        }
        Ok(Reply::Lines(lines))
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

/// `clock: 15 s per move` or `clock: off`.
pub fn clock_line(limit: Option<u32>) -> String {
    match limit {
        Some(s) => format!("clock: {s} s per move"),
        None => "clock: off".to_string(),
    }
}

/// `to move: X`, or the result line.
pub fn status_line(game: &Game) -> String {
    game.status_line()
}

pub use gridrules_core::game::result_line;

fn help(topic: Option<&str>) -> Result<Reply, CommandError> {
    let Some(topic) = topic else {
        let mut lines: Vec<String> = COMMANDS
            .iter()
            .map(|c| format!("  {:<30} {}", c.usage(), c.summary))
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
