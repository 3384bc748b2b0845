//! The table rules' commands: playing the computer, resigning, draw
//! offers, rematches and the clock.

use super::{By, CommandError, Reply, Session, clock_line, refused};
use crate::command::DrawAction;
use crate::table::{ClockRun, Offer, TimeSource};
use gridrules_core::search::{self, Level};
use gridrules_core::table::TableRules;
use gridrules_core::{Game, Refusal, Side};
use std::sync::Arc;
use std::time::Duration;

impl Session {
    pub(crate) fn vs(
        &mut self,
        level: Option<Level>,
        mark: Option<Side>,
    ) -> Result<Reply, CommandError> {
        let Some(level) = level else {
            self.seats.clear_computers();
            return Ok(Reply::Lines(vec!["both seats are played by people".into()]));
        };
        let underway = !self.game.moves().is_empty() && !self.game.is_over();
        let human = match (mark, self.seats.human_side()) {
            (Some(m), _) => m,
            // A new level against the computer: you keep your side.
            (None, Some(h)) => h,
            // Two people in mid-game: which one leaves is theirs to say.
            (None, None) if underway => {
                return Err(refused(format!(
                    "vs {level}: in mid-game, say which mark you keep: `vs {level} X` or `vs {level} O`"
                )));
            }
            // Before the first move: the person is seat 1, with the mark it
            // holds in this game (X at first; `again` may have passed it).
            (None, None) => self.seats.side_of(0),
        };
        self.seats.clear_computers();
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

    pub(crate) fn resign(&mut self, side: Option<Side>) -> Result<Reply, CommandError> {
        let side = side
            .or(self.seats.human_side())
            .unwrap_or(self.game.position().turn());
        self.game
            .resign(side)
            .map_err(|e| refused(format!("resign: {}", self.game.rulebook().explain(&e))))?;
        self.settle();
        Ok(Reply::Lines(vec![self.game.status_line()]))
    }

    pub(crate) fn draw(&mut self, action: DrawAction) -> Result<Reply, CommandError> {
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
                self.game
                    .agree_draw()
                    .map_err(|e| refused(e.describe(self.rulebook().grid())))?;
                self.settle();
                Ok(Reply::Lines(vec![
                    format!("{} accepts the draw", offer.by.other()),
                    self.game.status_line(),
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

    pub(crate) fn offer_draw(&mut self) -> Result<Reply, CommandError> {
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
                self.game
                    .agree_draw()
                    .map_err(|e| refused(e.describe(self.rulebook().grid())))?;
                self.settle();
                return Ok(Reply::Lines(vec![
                    format!("{by} offers a draw; the computer accepts"),
                    self.game.status_line(),
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
    pub(crate) fn computer_accepts_draw(&mut self, side: Side) -> Result<bool, CommandError> {
        let rules = self.game.rulebook().clone();
        let budget = self.think_budget();
        Ok(search::accepts_draw(
            &rules,
            self.game.position(),
            self.game.moves(),
            side,
            &mut self.rng,
            budget,
        )?)
    }

    pub(crate) fn again(&mut self) -> Result<Reply, CommandError> {
        if !self.game.is_over() {
            return Err(refused(
                "again: the game is still on: finish it, resign or agree a draw first (`new` abandons it)",
            ));
        }
        let swap = self.alternate.unwrap_or(self.rulebook().table().alternate);
        let rulebook = self.rulebook().clone();
        self.start(Game::new(rulebook), swap)
    }

    pub(crate) fn set_clock(&mut self, limit: Option<u32>) -> Result<Reply, CommandError> {
        // Before any person has moved (the computer may have opened), or
        // once the game is over, for the next.
        let positions = self.game.positions();
        let people_moved = (0..self.game.moves().len())
            .any(|i| self.seats.computer(positions[i].turn()).is_none());
        if people_moved && !self.game.is_over() {
            return Err(refused(
                "clock: the clock is set before the first move (or after the result, for the next game)",
            ));
        }
        let table = self.rulebook().table();
        if let Some(s) = limit
            && !table.allows_clock(s)
        {
            if table.clock_options.is_empty() {
                return Err(refused(format!(
                    "clock {s}: at most {} seconds per move (a day), or off",
                    gridrules_core::table::MAX_CLOCK
                )));
            }
            let options: Vec<String> = table.clock_options.iter().map(|o| format!("{o}")).collect();
            return Err(refused(format!(
                "clock {s}: this rulebook offers {} seconds per move, or off",
                options.join(" or ")
            )));
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

    /// The pie rule at this table (PI1), for this game and the next on the
    /// same rulebook: chosen before the first move, like the clock.
    pub(crate) fn set_pie(&mut self, on: bool) -> Result<Reply, CommandError> {
        if !self.game.moves().is_empty() || self.game.is_over() {
            return Err(refused("pie: the pie rule is chosen before the first move"));
        }
        let table = TableRules {
            pie: on,
            ..self.rulebook().table().clone()
        };
        let rulebook = Arc::new(self.rulebook().with_table(table));
        let start = *self.game.start();
        self.game = Game::from_position(rulebook, start);
        self.pie = Some(on);
        Ok(Reply::Lines(vec![if on {
            "pie rule: on — after the first move, O may answer `swap` (PI1)".to_string()
        } else {
            "pie rule: off".to_string()
        }]))
    }

    pub(crate) fn wait(&mut self, seconds: u32) -> Result<Reply, CommandError> {
        let TimeSource::Virtual(now) = &mut self.clock.source else {
            return Err(refused(
                "wait: only batch mode's clock can be moved; at the REPL time is real",
            ));
        };
        *now += Duration::from_secs(u64::from(seconds));
        self.run_clock()?;
        Ok(Reply::Nothing)
    }

    /// Makes the move of a player whose time ran out (T2), a random legal
    /// one, and the computer's reply. The next side's time begins now, when
    /// the move is shown (at the REPL, when Enter is pressed): never while
    /// the notice waits. Returns whether a move was made.
    pub(crate) fn run_clock(&mut self) -> Result<bool, CommandError> {
        if self.game.is_over()
            || self.seats.computer(self.game.position().turn()).is_some()
            || !self.clock.ran_out()
        {
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
        let mut replies = Vec::new();
        self.computer_replies(&mut replies)?;
        self.pending.extend(replies);
        Ok(true)
    }

    /// Starts the clock before the first move (`ready`).
    pub(crate) fn ready(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("ready")?;
        if !self.clock.start() {
            return Err(refused("ready: the clock is already running"));
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Holds the clock (`pause`).
    pub(crate) fn pause(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("pause")?;
        if !self.clock.pause() {
            return Err(refused(match self.clock.run() {
                ClockRun::Paused => "pause: the clock is paused already",
                _ => "pause: the clock has not started: it starts at the first move, or at `ready`",
            }));
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Runs the held clock again (`resume`).
    pub(crate) fn resume(&mut self) -> Result<Reply, CommandError> {
        self.clock_usable("resume")?;
        if !self.clock.resume() {
            return Err(refused("resume: the clock is not paused"));
        }
        Ok(Reply::Lines(vec![self.clock_state()]))
    }

    /// Refuses `what` where there is no clock to hold or start.
    fn clock_usable(&self, what: &str) -> Result<(), CommandError> {
        if self.clock.limit.is_none() {
            return Err(refused(format!(
                "{what}: the clock is off (`clock <seconds>` sets it)"
            )));
        }
        if self.game.is_over() {
            return Err(refused(format!("{what}: the game is over")));
        }
        Ok(())
    }

    /// `clock: running — X has 12 s left`, and the like.
    pub(crate) fn clock_state(&self) -> String {
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

    /// Who plays X in this game, before its first move: seat 1 or 2, or a
    /// seat's name. The computer opens if its seat now has X.
    pub(crate) fn first(&mut self, who: &str) -> Result<Reply, CommandError> {
        if !self.game.moves().is_empty() || self.game.is_over() {
            return Err(refused(
                "first: who plays X is chosen before the first move (`again` alternates it)",
            ));
        }
        let seat = match who {
            "1" => 0,
            "2" => 1,
            name => self.seats.seat_named(name).ok_or_else(|| {
                refused(format!(
                    "first: no seat is called `{name}`: 1, 2, `{}` or `{}`",
                    self.seats.person_name(self.seats.side_of(0)),
                    self.seats.person_name(self.seats.side_of(1))
                ))
            })?,
        };
        self.seats.give_mark(seat, Side::X);
        let lines = vec![
            format!(
                "{} plays X and moves first; {} plays O",
                self.seats.name(Side::X),
                self.seats.name(Side::O)
            ),
            self.seats.score_line(),
        ];
        let mut played = Vec::new();
        self.computer_replies(&mut played)?;
        Ok(Reply::Played(lines, played))
    }
}
