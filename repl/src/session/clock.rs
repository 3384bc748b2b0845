//! The clock's commands (`clock`, `ready`, `pause`, `resume`, `wait`),
//! and the moves it makes for a player whose time ran out (T2).

use super::{Session, clock_line};
use crate::error::{Choice, ClockError, CommandError};
use crate::reply::{By, Reply};
use crate::table::{ClockRun, TimeSource};
use std::time::Duration;

impl Session {
    /// `clock` alone: the time per move, and where it runs, the time the
    /// side to move has left.
    pub(super) fn clock_shown(&self) -> Reply {
        let mut lines = vec![clock_line(self.clock.limit)];
        if self.game.is_over() {
            lines.push(
                "the game is over: `clock <seconds>` or `clock off` sets the next game's"
                    .to_string(),
            );
            return Reply::Lines(lines);
        }
        if self.clock.limit.is_some() {
            let side = self.game.position().turn();
            lines.push(match (self.clock_run(), self.time_left()) {
                (ClockRun::Running, Some(left)) => {
                    format!("{side} has {} s left for this move", left.as_secs())
                }
                (ClockRun::Paused, _) => "paused: `resume` runs it again".to_string(),
                (ClockRun::Waiting, _) => "it starts with the first move".to_string(),
                (ClockRun::Running, None) => format!("{side} is not on the clock now"),
            });
        }
        lines.push(if self.people_moved() {
            "`clock <seconds>` or `clock off` sets the next game's, after the result".to_string()
        } else {
            "`clock <seconds>` or `clock off` sets it now, before a person's first move".to_string()
        });
        Reply::Lines(lines)
    }

    /// Lets the clock make the moves of players whose time ran out, with no
    /// command (the REPL calls it when Enter is pressed on an empty line).
    ///
    /// # Errors
    /// A failing per-move hook.
    pub fn tick(&mut self) -> bool {
        // As a command: a Ctrl-C that stopped the one before is forgotten,
        // and one now stops the computer's answer and its scripts.
        self.interrupt.clear();
        // Between commands: the move has a command's budget of its own.
        (gridrules_core::script::ScriptBudget::command())
            .stopped_by(&self.interrupt)
            .replacing(|| self.clock_moves())
    }

    /// Lets the clock move for a player whose time ran out. A script that
    /// fails on that move must not block the table: the failure is shown,
    /// the clock is paused (`resume` tries again), and every command still
    /// works. A computer's reply to it that fails is the reply's failure
    /// ([`Session::take_reply_failure`]), as after any move.
    pub(super) fn clock_moves(&mut self) -> bool {
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

    pub(super) fn set_clock(&mut self, limit: Option<u32>) -> Result<Reply, CommandError> {
        // Before any person has moved (the computer may have opened), or
        // once the game is over, for the next.
        if self.people_moved() && !self.game.is_over() {
            return Err(CommandError::TooLateToChoose(Choice::Clock));
        }
        let table = self.rulebook().table();
        if let Some(s) = limit
            && !table.allows_clock(s)
        {
            if table.clock_options.is_empty() {
                return Err(ClockError::TooLong {
                    seconds: s,
                    max: gridrules_core::table::MAX_CLOCK,
                }
                .into());
            }
            return Err(ClockError::NotOffered {
                seconds: s,
                offered: table.clock_options.clone(),
            }
            .into());
        }
        self.clock.limit = limit;
        self.clock.chosen = Some(limit);
        self.clock.restart_turn();
        let mut lines = vec![clock_line(limit)];
        // Already started (`ready`): say so, it counts from now.
        if limit.is_some() && self.clock.run() != ClockRun::Waiting && !self.game.is_over() {
            lines.push(self.clock_state());
        }
        Ok(Reply::Lines(lines))
    }

    pub(super) fn wait(&mut self, seconds: u32) -> Result<Reply, CommandError> {
        let TimeSource::Virtual(now) = &mut self.clock.source else {
            return Err(ClockError::RealTime.into());
        };
        *now += Duration::from_secs(u64::from(seconds));
        self.run_clock()?;
        Ok(Reply::Nothing)
    }

    /// Lets `time` pass on batch mode's clock with no command, as it passes
    /// at the REPL between two lines: the clock moves at the next command.
    #[cfg(test)]
    pub(crate) fn let_time_pass(&mut self, time: Duration) {
        if let TimeSource::Virtual(now) = &mut self.clock.source {
            *now += time;
        }
    }

    /// Makes the move of a player whose time ran out (T2), a random legal
    /// one, and the computer's reply. The next side's time begins now, when
    /// the move is shown (at the REPL, when Enter is pressed): never while
    /// the notice waits. Returns whether a move was made.
    fn run_clock(&mut self) -> Result<bool, CommandError> {
        if !self.time_ran_out() {
            return Ok(false);
        }
        let rules = self.game.rulebook().clone();
        let Some(mv) =
            rules.timeout_move(self.game.position(), self.game.moves(), &mut self.rng)?
        else {
            return Ok(false);
        };
        if matches!(self.clock.source, TimeSource::Real(_)) {
            // Whole seconds, rounded down: still at least the limit, so the
            // replay times out here too, once.
            let used = self.clock.used().as_secs();
            self.log(format!("wait {used}"));
        }
        let p = self.make_move(mv, By::Clock)?;
        self.pending.push(p);
        // The replay's `wait` line makes these replies, whatever the line
        // that noticed the time: they are neither held by its `--no-reply`
        // nor among its own replies.
        let hold = std::mem::replace(&mut self.hold, false);
        let mut replies = Vec::new();
        self.computer_replies(&mut replies);
        self.hold = hold;
        self.replied.clear();
        self.pending.extend(replies);
        Ok(true)
    }

    /// Starts the clock before the first move (`ready`).
    pub(super) fn ready(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("ready")?;
        if !self.clock.start() {
            return Err(ClockError::Running.into());
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Holds the clock (`pause`).
    pub(super) fn pause(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("pause")?;
        if !self.clock.pause() {
            return Err(match self.clock.run() {
                ClockRun::Paused => ClockError::Paused,
                _ => ClockError::NotStarted,
            }
            .into());
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Runs the held clock again (`resume`).
    pub(super) fn resume(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("resume")?;
        if !self.clock.resume() {
            return Err(ClockError::NotPaused.into());
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Refuses `what` where there is no clock to hold or start.
    fn clock_usable(&self, what: &'static str) -> Result<(), ClockError> {
        if self.clock.limit.is_none() {
            return Err(ClockError::Off(what));
        }
        if self.game.is_over() {
            return Err(ClockError::GameOver(what));
        }
        Ok(())
    }

    /// `clock: running — X has 12 s left`, and the like.
    fn clock_state(&self) -> String {
        let side = self.game.position().turn();
        // Rounded up, as the prompt shows it: 0 only when the time is up.
        let left = self
            .clock
            .left()
            .map_or(0, |d| d.as_millis().div_ceil(1000));
        match self.clock.run() {
            ClockRun::Running => format!("clock: running — {side} has {left} s left"),
            ClockRun::Paused => {
                format!("clock: paused — {side} has {left} s left; `resume` runs it again")
            }
            ClockRun::Waiting => {
                "clock: waiting — it starts at the first move, or at `ready`".to_string()
            }
        }
    }
}
