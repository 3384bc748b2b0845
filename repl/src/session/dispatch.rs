//! Which session method each command runs: the one place a [`Command`]
//! meets the [`Session`].

use super::Session;
use super::authoring::new_variant;
use super::describe::variants;
use crate::command::{Command, Invocation, Log, NO_REPLY, help};
use crate::error::CommandError;
use crate::reply::Reply;
use crate::table::TimeSource;

impl Session {
    /// Runs one parsed line. On error the game is unchanged (the clock may
    /// have made a move for a player whose time ran out first: see
    /// `take_pending`).
    ///
    /// # Errors
    /// Why the command was refused.
    pub fn execute(&mut self, inv: &Invocation) -> Result<Reply, CommandError> {
        self.hold = inv.hold;
        self.replied.clear();
        self.reply_failure = None;
        let result = self.execute_held(inv);
        self.hold = false;
        result
    }

    /// [`Session::execute`], with the computer held or not as set.
    fn execute_held(&mut self, inv: &Invocation) -> Result<Reply, CommandError> {
        // However a script misbehaves, a command spends a bounded time in
        // it; the budget ends with the command, so that what runs between
        // commands (the clock's move on Enter, the check before a game is
        // replaced) is not charged to the one before.
        use gridrules_core::script::ScriptBudget;
        // Ctrl-C stops a slow hook too, not only the loop that calls it.
        let budget = if inv.spec.long {
            ScriptBudget::UNLIMITED
        } else {
            ScriptBudget::command()
        };
        budget
            .stopped_by(&self.interrupt)
            .replacing(|| self.execute_within(inv))
    }

    /// [`Session::execute_held`] within the command's budget.
    fn execute_within(&mut self, inv: &Invocation) -> Result<Reply, CommandError> {
        let ran_out = self.clock_moves();
        if ran_out && inv.spec.plays {
            // In a replay the `wait` before it already made the clock's move,
            // so this line would play for the other side: keep it as a note.
            self.log(format!(
                "# {}  (typed after the time ran out, refused)",
                inv.text
            ));
            return Err(CommandError::TimeRanOut(inv.text.clone()));
        }
        let logged = match inv.spec.log {
            Log::Always => true,
            Log::Never => false,
            Log::VirtualClock => matches!(self.clock.source, TimeSource::Virtual(_)),
        };
        if logged {
            self.log(inv.text.clone());
        }
        // The arguments are read after the line is logged: a usage error is
        // in the transcript too, and the replay refuses it the same way.
        let command = inv.command()?;
        let result = self.run(command);
        if logged && self.interrupt.is_raised() {
            self.log_stopped(inv, &result);
        }
        result
    }

    /// Records what a command Ctrl-C stopped did, so that a replay does the
    /// same: a long command or the computer's search changed nothing, and
    /// is kept as a note; where the computer's reply was stopped, the line
    /// gets `--no-reply` and each reply made before the stop its own `ai`
    /// line, so the replay waits where the table waited.
    fn log_stopped(&mut self, inv: &Invocation, result: &Result<Reply, CommandError>) {
        let text = &inv.text;
        let amended = match result {
            _ if inv.spec.long => Some(format!("# {text}  (stopped by Ctrl-C: nothing changed)")),
            Err(CommandError::ThinkStopped(_)) => {
                Some(format!("# {text}  (stopped by Ctrl-C: nothing was played)"))
            }
            _ => None,
        };
        if let Some(line) = amended {
            self.amend_log(line);
            return;
        }
        let Some((side, level)) = self.computer_to_move() else {
            return;
        };
        if !inv.hold {
            self.amend_log(format!("{text} {NO_REPLY}"));
        }
        for level in std::mem::take(&mut self.replied) {
            self.log(format!("ai {level} {NO_REPLY}"));
        }
        self.log(format!(
            "# (Ctrl-C stopped the computer's ({level}) reply for {side})"
        ));
    }

    /// Runs `command`: the match is exhaustive, so a command added to
    /// [`Command`] is refused by the compiler until it runs something.
    fn run(&mut self, command: Command) -> Result<Reply, CommandError> {
        match command {
            Command::Help(topic) => Ok(Reply::Help(help::topic(topic.as_deref())?)),
            Command::Variants => Ok(variants()),
            Command::New(rulebook) => self.new_game(rulebook.as_deref()),
            Command::Load(path) => self.load(&path),
            Command::Reload => self.reload(),
            Command::Rules => Ok(self.rules()),
            Command::Show => Ok(Reply::Board),
            Command::Play(mv) => self.play(&mv),
            Command::Legal => self.legal(),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Status => Ok(self.status()),
            Command::History => Ok(self.history()),
            Command::Ai(level) => self.ai(level),
            Command::Think(time) => self.set_think(time),
            Command::Hint(level) => self.hint(level),
            Command::Vs(level, mark) => self.vs(level, mark),
            Command::First(who) => self.first(&who),
            Command::Resign(side) => self.resign(side),
            Command::Draw(action) => self.draw(action),
            Command::Again => self.again(),
            Command::Score => Ok(self.score()),
            Command::Name(seat, name) => self.name_seat(seat, &name),
            Command::Clock(limit) => self.set_clock(limit),
            Command::ClockShown => Ok(self.clock_shown()),
            Command::Ready => self.ready(),
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::Alternate(on) => Ok(self.set_alternate(on)),
            Command::Pie(on) => self.set_pie(on),
            Command::Wait(seconds) => self.wait(seconds),
            Command::Seed(seed) => Ok(self.seed(seed)),
            Command::Save { path, force } => self.save(&path, force),
            Command::Open(path) => self.open(&path),
            Command::Record { path, force } => self.record(&path, force),
            Command::RecordOff => self.record_off(),
            Command::Position => Ok(self.position()),
            Command::Setup(text) => self.setup(&text),
            Command::Perft(depth) => self.perft(depth),
            Command::Solve(within) => self.solve(within),
            Command::Arena(m) => self.arena(&m),
            Command::Bench { rulebook, seconds } => self.bench(rulebook.as_deref(), seconds),
            Command::Check(rulebook) => self.check(rulebook.as_deref()),
            Command::NewVariant { name, from, dir } => {
                new_variant(&name, from.as_deref(), dir.as_deref())
            }
            Command::Quit => Ok(Reply::Quit),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Arg, COMMANDS, parse};
    use crate::error::CommandError;
    use crate::session::{Session, Setting};
    use gridrules_core::Rulebook;

    /// Every example that touches no file runs in a fresh batch session
    /// without a usage error (`new-variant` writes files: its tests use a
    /// temporary directory; `bench` takes seconds).
    #[test]
    fn every_example_runs() {
        for c in COMMANDS {
            if matches!(c.arg, Arg::File(_) | Arg::Kind(_))
                || ["bench", "new-variant"].contains(&c.name)
            {
                continue;
            }
            let mut session = Session::new(
                Rulebook::builtin("classic").unwrap(),
                "classic",
                Setting::Batch,
            );
            let inv = parse(c.example).unwrap();
            if let Err(e @ CommandError::Parse(_)) = session.execute(&inv) {
                panic!("{}: {e}", c.example);
            }
        }
    }

    /// A session on classic that ran `lines` (each taken).
    fn after(lines: &[&str]) -> Session {
        let classic = Rulebook::builtin("classic").unwrap();
        let mut session = Session::new(classic, "classic", Setting::Batch);
        for line in lines {
            let inv = parse(line).unwrap();
            session
                .execute(&inv)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        session
    }

    /// Completion offers a `draw` or `first` word exactly where the
    /// session would take it: `draw <Tab>` offered `accept` with no offer
    /// standing, `first <Tab>` the seats mid-game.
    #[test]
    fn completion_offers_what_the_session_takes_now() {
        let states: &[&[&str]] = &[
            &[],
            &["b2"],
            &["draw offer"],
            &["draw offer", "draw decline"],
            &["draw offer", "draw accept"],
            &["name 1 Ada", "name 2 Bo Li"],
            &["vs hard O"],
        ];
        for state in states {
            let offered = after(state).draw_words();
            for word in ["offer", "accept", "decline"] {
                let line = format!("draw {word}");
                let taken = after(state).execute(&parse(&line).unwrap()).is_ok();
                assert_eq!(offered.contains(&word), taken, "{state:?} then `{line}`");
            }
            let offered = after(state).first_words();
            for word in ["1", "2", "Ada", "Bo"] {
                let line = format!("first {word}");
                let taken = after(state).execute(&parse(&line).unwrap()).is_ok();
                assert_eq!(
                    offered.contains(&word.to_string()),
                    taken,
                    "{state:?} then `{line}`"
                );
            }
        }
    }
}
