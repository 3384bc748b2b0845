//! The REPL's state and one small function per command.

mod authoring;
mod dispatch;
mod files;
mod seats;
mod tools;
mod transcript;

use crate::error::{CommandError, SeatError, UndoError};
use crate::reply::{By, Played, Reply};
use crate::table::{Clock, ClockRun, Offer, Seats, TimeSource};
use gridrules_core::interrupt::Interrupt;
use gridrules_core::playout::Rng;
use gridrules_core::search::{self, Budget, Level};
use gridrules_core::{Ending, Game, Move, PlayError, Refusal, Rulebook, RulebookError, Side};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use transcript::Transcript;

/// Seconds `bench` runs when not told.
pub const BENCH_SECONDS: f64 = 3.0;
/// `bench` reports the median of this many rounds: one noisy slice of time
/// on a shared machine does not move it.
pub const BENCH_ROUNDS: u32 = 5;

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
    /// Raised by the front end (Ctrl-C) to stop a long command.
    interrupt: Interrupt,
    /// Where the session runs: a terminal shows progress for long commands.
    setting: Setting,
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
            interrupt: Interrupt::new(),
            setting,
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

    /// Lets the clock make the moves of players whose time ran out, with no
    /// command (the REPL calls it when Enter is pressed on an empty line).
    ///
    /// # Errors
    /// A failing per-move hook.
    pub fn tick(&mut self) -> bool {
        self.clock_moves()
    }

    /// Lets the clock move for a player whose time ran out. A script that
    /// fails on that move must not block the table: the failure is shown,
    /// the clock is paused (`resume` tries again), and every command still
    /// works.
    fn clock_moves(&mut self) -> bool {
        match self.run_clock() {
            Ok(moved) => moved,
            Err(e) => {
                self.clock.pause();
                self.notices.push(format!(
                    "error: the clock could not move for the side whose time ran out: {e}"
                ));
                self.notices
                    .push("the clock is paused; `resume` runs it again".to_string());
                false
            }
        }
    }

    /// A line that is not a command, refused before it ran: it goes into the
    /// transcript all the same, so the replay refuses it too.
    pub fn note_unparsed(&mut self, line: &str) {
        self.log(line.to_string());
    }

    /// Adds a line to the transcript, and to the file being recorded.
    fn log(&mut self, line: String) {
        if let Err(e) = self.transcript.push(line) {
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

    pub(crate) fn status(&self) -> Reply {
        Reply::Lines(vec![self.game.status_line()])
    }

    pub(crate) fn name_seat(&mut self, seat: usize, name: &str) -> Result<Reply, CommandError> {
        // Names pick seats (`first Ada`), so two seats never share one.
        if self.seats.seat_named(name).is_some_and(|s| s != seat) {
            return Err(SeatError::NameTaken(name.to_string()).into());
        }
        self.seats.set_name(seat, name.to_string());
        Ok(Reply::Lines(vec![self.seats.score_line()]))
    }

    pub(crate) fn set_alternate(&mut self, on: bool) -> Reply {
        self.alternate = Some(on);
        Reply::Lines(vec![if on {
            "alternate: on — `again` passes X and the first move to the other seat".to_string()
        } else {
            "alternate: off — `again` keeps the marks where they are".to_string()
        }])
    }

    pub(crate) fn seed(&mut self, seed: u64) -> Reply {
        self.rng = Rng::new(seed);
        Reply::Lines(vec![format!(
            "seed: {seed} — the same commands now give the same computer and clock moves"
        )])
    }

    pub(crate) fn position(&self) -> Reply {
        Reply::Lines(vec![self.rulebook().position_text(self.game.position())])
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
        self.clock.new_game();
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

    pub(crate) fn new_game(&mut self, name: Option<&str>) -> Result<Reply, CommandError> {
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

    pub(crate) fn load(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let rulebook = Arc::new(Rulebook::from_file(path)?);
        self.rulebook_name = rulebook_ref(path);
        self.clock.limit = self.clock_for(&rulebook);
        self.pie = None;
        self.start(Game::new(rulebook), false)
    }

    /// After any move: an offer the mover did not make is declined (T3); a
    /// finished game is scored; the next side's time begins.
    fn after_move(&mut self, mover: Side) {
        if self.offer.is_some_and(|o| o.by != mover) {
            self.offer = None;
        }
        self.clock.next_turn();
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

    /// The computer's move for the side to move; `remember`: grow on the
    /// trees of its last move and keep these for the next.
    fn think(&mut self, level: Level, remember: bool) -> Result<Option<Move>, CommandError> {
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
        let memory = remember.then_some(&mut self.memory);
        Ok(search::choose_in(
            &self.game,
            level,
            &mut self.rng,
            budget,
            memory,
        )?)
    }

    /// The computer plays while its seat is to move.
    fn computer_replies(&mut self, played: &mut Vec<Played>) -> Result<(), CommandError> {
        while !self.game.is_over() {
            let side = self.game.position().turn();
            let Some(level) = self.seats.computer(side) else {
                break;
            };
            let Some(mv) = self.think(level, true)? else {
                break;
            };
            played.push(self.make_move(mv, By::Computer)?);
        }
        Ok(())
    }

    pub(crate) fn play(&mut self, text: &str) -> Result<Reply, CommandError> {
        let mv = self.game.parse_move(text).map_err(|e| match e {
            PlayError::Notation(e) => CommandError::Move(e),
            e => CommandError::Play(text.to_string(), e),
        })?;
        let side = self.game.position().turn();
        if let Some(level) = self.seats.computer(side).filter(|_| !self.game.is_over()) {
            return Err(CommandError::ComputersTurn {
                mv: text.to_string(),
                side,
                level,
            });
        }
        let mut played = vec![self.make_move(mv, By::Person)?];
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(Vec::new(), played))
    }

    /// How long the computer thinks now.
    pub(crate) fn think_budget(&self) -> Budget {
        self.think
            .unwrap_or(Budget::Playouts(self.rulebook().table().ai_playouts))
    }

    /// Sets how long the computer thinks: `None` for the rulebook's budget
    /// in playouts (moves repeat for a seed), else a time a move.
    pub(crate) fn set_think(&mut self, time: Option<Duration>) -> Result<Reply, CommandError> {
        self.think = time.map(Budget::Time);
        let n = self.rulebook().table().ai_playouts;
        Ok(Reply::Lines(vec![match time {
            Some(t) => format!(
                "the computer thinks {} s a move, by the clock: its moves no longer repeat for a seed",
                t.as_secs_f64()
            ),
            None => format!(
                "the computer searches {n} playouts a tree, the rulebook's budget: its moves repeat for a seed"
            ),
        }]))
    }

    /// The move the computer would make for the side to move, not played.
    pub(crate) fn hint(&mut self, level: Level) -> Result<Reply, CommandError> {
        let mv = self.computer_move(level, "hint", false)?;
        let side = self.game.position().turn();
        Ok(Reply::Lines(vec![format!(
            "hint: {side} could play {} ({level})",
            self.rulebook().move_text(mv)
        )]))
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

    /// The move the computer chooses for the side to move; refused, in
    /// `command`'s name, after the result or without a legal move.
    fn computer_move(
        &mut self,
        level: Level,
        command: &'static str,
        remember: bool,
    ) -> Result<Move, CommandError> {
        self.refuse_if_over(command)?;
        self.think(level, remember)?
            .ok_or(CommandError::NoLegalMove(command))
    }

    pub(crate) fn ai(&mut self, level: Level) -> Result<Reply, CommandError> {
        let mv = self.computer_move(level, "ai", true)?;
        let mut played = vec![self.make_move(mv, By::Computer)?];
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(Vec::new(), played))
    }

    pub(crate) fn legal(&self) -> Result<Reply, CommandError> {
        self.refuse_if_over("legal")?;
        let r = self.rulebook();
        let mut list = gridrules_core::MoveList::new();
        r.legal_moves(self.game.position(), self.game.moves(), &mut list)?;
        let moves: Vec<String> = list.iter().map(|&m| r.move_text(m)).collect();
        Ok(Reply::Lines(vec![moves.join(" ")]))
    }

    pub(crate) fn undo(&mut self) -> Result<Reply, CommandError> {
        if let Some((_, ending @ (Ending::Resigned(_) | Ending::Agreed))) = self.game.ending() {
            return Err(UndoError::Final(ending).into());
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
            return Err(UndoError::NothingPlayed.into());
        }
        if seats.computer(game.position().turn()).is_some() {
            return Err(UndoError::ComputerOpening.into());
        }
        self.game = game;
        self.seats = seats;
        if let Some(o) = was_over {
            self.seats.unscore(o);
        }
        self.offer = None;
        self.clock.restart_turn();
        Ok(Reply::Undone(undone))
    }

    pub(crate) fn history(&self) -> Reply {
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

    pub(crate) fn setup(&mut self, text: &str) -> Result<Reply, CommandError> {
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
