//! The REPL's state ([`Session`]) and what every command shares: starting
//! a game, making a move, the computer's replies, scoring a result.
//!
//! Each command is a small method in the file for its job (`game`,
//! `seats`, `clock`, `files`, `describe`, `measure`, `arena`, `check`,
//! `authoring`), and `dispatch` runs the one a [`crate::command::Command`]
//! names. Those files use this one; this one uses none of them but the
//! transcript, so the layers run one way.

mod arena;
mod authoring;
mod check;
mod clock;
mod describe;
mod dispatch;
mod files;
mod game;
mod measure;
mod seats;
mod transcript;

use crate::command::{Invocation, ParseError};
use crate::error::{CommandError, Unfinished};
use crate::reply::{By, Played, Reply};
use crate::table::{Clock, ClockRun, Offer, Seats, TimeSource};
use gridrules_core::interrupt::Interrupt;
use gridrules_core::playout::Rng;
use gridrules_core::search::{self, Budget, Level};
use gridrules_core::{Ending, Game, Move, Position, Refusal, Rulebook, RulebookError, Side};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use transcript::Transcript;

/// Where the session runs, which decides its clock and its random seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// At a terminal: real time, a fresh seed.
    Interactive,
    /// Batch mode: time moves only with `wait`, and the seed is fixed, so
    /// every run prints the same.
    Batch,
}

/// The computer's chosen move, and the budget in playouts the search's cap
/// cut short, if it did (the move then may not repeat for its seed).
#[derive(Debug, Clone, Copy)]
struct Thought {
    mv: Move,
    cut: Option<Budget>,
}

impl Thought {
    /// What `ai` and `hint` add where the search's cap cut it short.
    fn cut_note(&self, level: Level) -> Option<String> {
        let Some(Budget::Playouts(n)) = self.cut else {
            return None;
        };
        Some(format!(
            "({level} stopped at its {} s cap before its {n} playouts: with this seed another run may play another move)",
            search::SEARCH_CAP.as_secs()
        ))
    }
}

/// The computer's reply that failed: for whom, at which level, and why
/// (the moves before it stand).
#[derive(Debug)]
pub struct ReplyFailure {
    /// The side the computer was to move for.
    pub side: Side,
    /// Its level.
    pub level: Level,
    /// What went wrong: a script's error, mostly.
    pub error: CommandError,
}

/// The columns output is laid out in where no terminal says otherwise.
pub const DEFAULT_WIDTH: usize = 80;

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
    /// How long the computer thinks, when `ai time` said so; else the
    /// rulebook's budget in playouts.
    think: Option<Budget>,
    /// The computer's search trees from its last move, grown on by the
    /// next (tree reuse); `hint` neither reads nor changes them.
    memory: search::Memory,
    /// The rulebook the trees grew under: another one (a file loaded
    /// again, a table rule switched) starts them afresh.
    memory_of: Option<Arc<Rulebook>>,
    /// Moves made before the command ran (the clock's), for the front end to show.
    pending: Vec<Played>,
    /// The commands that changed or showed the session, replayable in batch
    /// mode, and the file `record` keeps up to date with them.
    transcript: Transcript,
    /// Whether `again` swaps the marks, as chosen at the table (`alternate`);
    /// `None`: as the rulebook says.
    alternate: Option<bool>,
    /// The pie rule as chosen at the table (`pie`), for records; `None`: as
    /// the rulebook says.
    pie: Option<bool>,

    /// Lines about what happened besides the command, for the front end.
    notices: Vec<String>,
    /// The columns the front end lays text out in (the terminal's width).
    width: usize,
    /// The command ends with `--no-reply`: the computer's seats wait.
    hold: bool,
    /// The computer's reply that failed during the command, for the front end.
    reply_failure: Option<ReplyFailure>,
    /// The levels of the computer's replies the command made, in order,
    /// for a record that must write them as `ai` lines.
    replied: Vec<Level>,
    /// Raised by the front end (Ctrl-C) to stop a long command.
    interrupt: Interrupt,
    /// Where the session runs: a terminal shows progress for long commands.
    setting: Setting,
    /// The moves of the game a record holds: the last `save` or `open`.
    kept: Option<Vec<Move>>,
    /// The files this game was opened from or saved to (as the system
    /// names them): `save` replaces these freely, another game's record
    /// only with `--force`.
    record_files: Vec<PathBuf>,
    /// The game's moves before the last `undo`, for `redo`.
    undone: Option<Undone>,
    /// No person has moved in this game: its moves, if any, are the
    /// computer's opening ([`Session::people_moved`]).
    computer_only: bool,
}

/// The line of moves `undo` took back from: `redo` plays them again while
/// the game is still on that line (the same rulebook, start and moves).
#[derive(Debug, Clone)]
struct Undone {
    rules: Arc<Rulebook>,
    start: Position,
    line: Vec<Move>,
}

impl Undone {
    /// The line `game` is on now, as it stands.
    fn of(game: &Game) -> Undone {
        Undone {
            rules: game.rulebook().clone(),
            start: *game.start(),
            line: game.moves().to_vec(),
        }
    }

    /// `line` under `rules`, from `game`'s start, where `game` is on it and
    /// it goes further.
    fn ahead_of(game: &Game, rules: &Arc<Rulebook>, line: Vec<Move>) -> Option<Undone> {
        let undone = Undone {
            rules: rules.clone(),
            start: *game.start(),
            line,
        };
        (undone.holds(game) && undone.line.len() > game.moves().len()).then_some(undone)
    }

    /// Whether `game` is on this line: its moves lead along it.
    fn holds(&self, game: &Game) -> bool {
        Arc::ptr_eq(&self.rules, game.rulebook())
            && *game.start() == self.start
            && self.line.starts_with(game.moves())
    }
}

/// Loads a built-in rulebook by name, or a rulebook file by path.
///
/// # Errors
/// No such rulebook, or one that does not load.
pub fn open_rulebook(name: &str) -> Result<Rulebook, RulebookError> {
    let path = Path::new(name);
    if Rulebook::is_builtin(name) || !(name.ends_with(".toml") || path.exists()) {
        // `check my-game` for the file `new-variant my-game` wrote.
        let file = format!("{name}.toml");
        Rulebook::builtin(name).map_err(|mut e| {
            if Path::new(&file).is_file() {
                for p in &mut e.problems {
                    p.help = Some(format!("did you mean the file `{file}`?"));
                }
            }
            e
        })
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
        let clock = Clock::new(rulebook.table().clock, source);
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
            think: None,
            memory: search::Memory::default(),
            memory_of: None,
            pending: Vec::new(),
            alternate: None,
            pie: None,
            transcript: Transcript::new(transcript),
            notices: Vec::new(),
            width: DEFAULT_WIDTH,
            hold: false,
            reply_failure: None,
            replied: Vec::new(),
            interrupt: Interrupt::new(),
            setting,
            kept: None,
            record_files: Vec::new(),
            undone: None,
            computer_only: true,
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

    /// `line` read as a command on this board: a command's alias that the
    /// board reads as a move is the move (`q` on a board 17 columns wide
    /// where marks drop: a player could not play column q, and quit).
    ///
    /// # Errors
    /// As [`crate::command::parse`].
    pub fn parse(&self, line: &str) -> Result<Invocation, ParseError> {
        use gridrules_core::PlayError;
        crate::command::parse_on(line, |word| {
            // After the result no move is made: `q` leaves. Before, a move
            // refused (a full column) is still one: the board's to refuse,
            // not `quit`'s to leave.
            !self.game.is_over()
                && !matches!(
                    self.rulebook()
                        .parse_move(self.game.position(), self.game.moves(), word),
                    Err(PlayError::Notation(_)
                        | PlayError::Refused {
                            refusal: Refusal::NoColumns(_) | Refusal::OffBoard(_),
                            ..
                        })
                )
        })
    }

    /// The seats, names and score.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// The moves of a game under way that no file keeps (no `save`,
    /// `open` or `record` holds them), if there are any: what `new`,
    /// `load`, `open` and `setup` would lose.
    pub fn unkept_moves(&self) -> Option<usize> {
        let moves = self.game.moves();
        let kept = self.transcript.is_recording() || self.kept.as_deref() == Some(moves);
        // The computer's opening alone loses nobody anything: it makes it
        // again (a new user was asked twice for `new` after it).
        (!moves.is_empty() && !self.game.is_over() && !kept && self.people_moved())
            .then_some(moves.len())
    }

    /// Whether a person (or the clock for one) has moved in this game, or
    /// it came with moves (a record, a reload): before that, the
    /// computer's opening aside, the table's choices are still open. Kept
    /// as moves are made, not read off the seats: a side the computer
    /// took over by `vs` may hold a person's moves.
    fn people_moved(&self) -> bool {
        !self.computer_only
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

    /// Whether a person to move has used all their time (T2): the clock
    /// then moves for them.
    pub fn time_ran_out(&self) -> bool {
        let turn = self.game.position().turn();
        !self.game.is_over() && self.seats.computer(turn).is_none() && self.clock.ran_out()
    }

    /// Whether the clock runs, waits for the first move, or is paused.
    pub fn clock_run(&self) -> ClockRun {
        self.clock.run()
    }

    /// Lines the rulebook's script printed since the last call.
    pub fn take_script_output(&self) -> Vec<String> {
        self.rulebook().script().take_output()
    }

    /// Moves the clock made before the last command ran.
    pub fn take_pending(&mut self) -> Vec<Played> {
        std::mem::take(&mut self.pending)
    }

    /// A line that is not a command, refused before it ran: it goes into the
    /// transcript all the same, so the replay refuses it too.
    pub fn note_unparsed(&mut self, line: &str) {
        self.log(line.to_string());
    }

    /// Adds a line to the transcript, and to the file being recorded.
    fn log(&mut self, line: String) {
        let written = self.transcript.push(line);
        self.notice_unrecorded(written);
    }

    /// Replaces the transcript's last line (a command that turned out
    /// otherwise than its text says), in the file being recorded too.
    fn amend_log(&mut self, line: String) {
        let written = self.transcript.amend_last(line);
        self.notice_unrecorded(written);
    }

    /// Says so when the file being recorded could not be written.
    fn notice_unrecorded(&mut self, written: Result<(), gridrules_core::record::RecordError>) {
        if let Err(e) = written {
            self.notices.push(format!(
                "error: {e}: recording stopped (`record <file>` starts it again)"
            ));
        }
    }

    /// The transcript so far, as `record` writes it (without its header).
    pub fn transcript(&self) -> &[String] {
        self.transcript.lines()
    }

    /// Lines for the front end about what happened besides the command
    /// (a recording that stopped).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The flag the front end raises to stop a long command (Ctrl-C).
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
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
        seat: impl FnOnce(&mut Seats),
    ) -> Result<Reply, CommandError> {
        let decided = game.ending();
        self.computer_only = game.moves().is_empty();
        self.game = game;
        self.undone = None;
        self.record_files.clear();
        self.seats.next_game(swap);
        seat(&mut self.seats);
        self.offer = None;
        self.last_offer = None;
        self.clock.new_game();
        let mut played = Vec::new();
        self.computer_replies(&mut played);
        self.settle();
        if let Some((outcome, _)) = decided {
            // Set up or opened already decided: a study, not a result here.
            self.seats.unscore(outcome);
        }
        Ok(Reply::NewGame {
            opened: None,
            played,
        })
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

    /// After any move: an offer the mover did not make is declined (T3); a
    /// finished game is scored; the next side's time begins.
    fn after_move(&mut self, mover: Side) {
        if let Some(offer) = self.offer.filter(|o| o.by != mover) {
            self.offer = None;
            // Said as `draw decline` says it: a move answers the offer too.
            self.notices.push(format!(
                "{mover}'s move declines the draw {} offered (T3)",
                offer.by
            ));
        }
        self.clock.next_turn();
        self.settle();
    }

    /// Scores a game that has just ended. A draw agreed before any move
    /// ends the game but is no result between the players: not scored.
    fn settle(&mut self) {
        if let Some((outcome, _)) = self.game.ending() {
            if !self.agreed_before_any_move() {
                self.seats.score_result(outcome);
            }
            self.offer = None;
        }
    }

    /// The game ended in a draw agreed before any move: no result between
    /// the players.
    fn agreed_before_any_move(&self) -> bool {
        matches!(self.game.ending(), Some((_, Ending::Agreed))) && self.game.moves().is_empty()
    }

    /// The line said after an agreed draw: not scored before any move.
    fn unscored_draw_line(&self) -> Option<String> {
        self.agreed_before_any_move()
            .then(|| "not scored: the draw was agreed before any move was played".to_string())
    }

    fn make_move(&mut self, mv: Move, by: By) -> Result<Played, CommandError> {
        let side = self.game.position().turn();
        let text = self.rulebook().move_text_in(self.game.position(), mv);
        self.game
            .play(mv)
            .map_err(|e| CommandError::Play(text.clone(), e))?;
        self.computer_only &= by == By::Computer;
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

    /// The computer's move for the side to move, for `command`;
    /// `remember`: grow on the trees of its last move and keep these for
    /// the next. Ctrl-C stops it with nothing chosen.
    fn think(
        &mut self,
        level: Level,
        remember: bool,
        command: &'static str,
    ) -> Result<Option<Thought>, CommandError> {
        let budget = self.think_budget();
        let rules = self.game.rulebook();
        if !self
            .memory_of
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, rules))
        {
            self.memory = search::Memory::default();
            self.memory_of = Some(rules.clone());
        }
        // A stopped search leaves the table as it was: its draws from the
        // seed and the trees it grew are put back, so that what follows
        // (and its replay) goes on as if it had not started.
        let rng = self.rng.clone();
        let memory =
            (remember && self.setting == Setting::Interactive).then(|| self.memory.clone());
        let side = self.game.position().turn();
        let shown = self.thinking_line(|| match command {
            "hint" => format!("thinking of a hint for {side} ({level})…"),
            _ => format!("{side} is thinking ({level})…"),
        });
        let mut report = search::Report::default();
        let request = search::Request::new(level, budget)
            .stop(&self.interrupt)
            .report(&mut report);
        let request = if remember {
            request.memory(&mut self.memory)
        } else {
            request
        };
        let chosen = search::choose(&self.game, request, &mut self.rng);
        drop(shown);
        // A hook that Ctrl-C stopped fails: the move was stopped, not failed.
        let mv = match chosen {
            Err(_) if self.interrupt.is_raised() => None,
            other => other?,
        };
        if self.interrupt.is_raised() {
            self.rng = rng;
            if let Some(memory) = memory {
                self.memory = memory;
            }
            return Err(CommandError::ThinkStopped(command));
        }
        Ok(mv.map(|mv| Thought {
            mv,
            cut: report.cut.then_some(budget),
        }))
    }

    /// Plays the computer's `thought` as `level` (see [`Thought::cut_note`]),
    /// saying on the move when
    /// the search's cap cut it.
    fn play_thought(&mut self, thought: Thought, level: Level) -> Result<Played, CommandError> {
        let mut played = self.make_move(thought.mv, By::Computer)?;
        if let Some(cut) = thought.cut_note(level) {
            played.note = Some(match played.note.take() {
                Some(note) => format!("{note} {cut}"),
                None => cut,
            });
        }
        Ok(played)
    }

    /// The computer plays while its seat is to move, until Ctrl-C (or
    /// not at all under `--no-reply`). A reply that fails (a script's
    /// error in its search) is kept for the front end as the computer's
    /// failure: the moves before it stand, and the command that led to it
    /// is not refused for it.
    fn computer_replies(&mut self, played: &mut Vec<Played>) {
        while !self.hold
            && let Some((side, level)) = self.computer_to_move()
        {
            let reply = match self.think(level, true, "ai") {
                Ok(None) | Err(CommandError::ThinkStopped(_)) => break,
                Ok(Some(thought)) => self.play_thought(thought, level),
                Err(error) => Err(error),
            };
            match reply {
                Ok(p) => played.push(p),
                Err(error) => {
                    self.reply_failure = Some(ReplyFailure { side, level, error });
                    break;
                }
            }
            self.replied.push(level);
        }
    }

    /// Lays text out for `width` columns from the next command on (the
    /// front end reads the terminal's before each).
    pub fn set_width(&mut self, width: usize) {
        self.width = width;
    }

    /// The columns a line of prose may take (see
    /// [`crate::layout::prose_columns`]).
    fn columns(&self) -> usize {
        crate::layout::prose_columns(self.width)
    }

    /// Why the computer's reply during the last command failed, if it did.
    pub fn take_reply_failure(&mut self) -> Option<ReplyFailure> {
        self.reply_failure.take()
    }

    /// The computer's seat to move, if the game goes on: (side, level).
    pub fn computer_to_move(&self) -> Option<(Side, Level)> {
        let side = self.game.position().turn();
        self.seats
            .computer(side)
            .filter(|_| !self.game.is_over())
            .map(|level| (side, level))
    }

    /// The computer at `level` as `vs` names it, with the time `ai time`
    /// gave it, which holds until `ai time default`: `the computer (hard,
    /// 3 s a move)`.
    fn computer_named(&self, level: Level) -> String {
        match self.think {
            Some(Budget::Time(t)) => {
                let most = self.think_most().filter(|m| t.as_secs_f64() > *m as f64);
                let secs = most.map_or(t.as_secs_f64(), |m| m as f64);
                format!("the computer ({level}, {secs} s a move)")
            }
            _ => format!("the computer ({level})"),
        }
    }

    /// The most seconds a move may take by `ai time` where per-move hooks
    /// run: the search ends before the command's scripts must, with a hook
    /// call's time to spare (see `Request`).
    fn think_most(&self) -> Option<u64> {
        use gridrules_core::script::{COMMAND_SCRIPT_SECONDS, HOOK_SECONDS};
        (self.rulebook().has_per_move_hooks()).then_some(COMMAND_SCRIPT_SECONDS - HOOK_SECONDS)
    }

    /// How long the computer thinks now.
    fn think_budget(&self) -> Budget {
        self.think
            .unwrap_or(Budget::Playouts(self.rulebook().table().ai_playouts))
    }

    /// `refusal` of `command`, in the rulebook's words.
    fn refused(&self, command: &'static str, refusal: Refusal) -> CommandError {
        let reason = self.rulebook().explain(&refusal);
        CommandError::Refused {
            command,
            refusal,
            reason,
        }
    }

    /// Refuses `command` once the game is over.
    fn refuse_if_over(&self, command: &'static str) -> Result<(), CommandError> {
        match self.game.ending() {
            Some((o, _)) => Err(self.refused(command, Refusal::GameOver(o))),
            None => Ok(()),
        }
    }

    /// Refuses what a command would do (`what`) once the game is over.
    fn refuse_after_result(&self, what: Unfinished) -> Result<(), CommandError> {
        match self.game.ending() {
            Some((o, _)) => Err(CommandError::Over(what, o)),
            None => Ok(()),
        }
    }

    /// The move the computer chooses for the side to move; refused, in
    /// `command`'s name, without a legal move. After the result the
    /// callers refuse, each in its own words.
    fn computer_move(
        &mut self,
        level: Level,
        command: &'static str,
        remember: bool,
    ) -> Result<Thought, CommandError> {
        self.think(level, remember, command)?
            .ok_or(CommandError::NoLegalMove(command))
    }

    /// The line that says a search runs ([`crate::thinking`]), at a
    /// terminal only.
    fn thinking_line(&self, what: impl FnOnce() -> String) -> Option<crate::thinking::Thinking> {
        (self.setting == Setting::Interactive)
            .then(|| crate::thinking::Thinking::on_terminal(what(), self.width))
            .flatten()
    }

    /// A progress bar of `len` steps drawn by `template`, at a terminal only
    /// (indicatif draws on stderr).
    fn progress_bar(&self, len: u64, template: &str) -> Option<indicatif::ProgressBar> {
        (self.setting == Setting::Interactive).then(|| {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            // Between updates (a perft branch can take a minute) the
            // clock still moves: a bar that stands still reads as a hang.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
            bar
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
