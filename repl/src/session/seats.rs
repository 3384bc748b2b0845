//! The table's commands: the seats (who plays the computer, who plays X,
//! names), resigning, draw offers, rematches and the pie rule.

use super::Session;
use crate::command::DrawAction;
use crate::error::{Choice, CommandError, DrawError, SeatError, Unfinished};
use crate::reply::Reply;
use crate::table::Offer;
use gridrules_core::search::{self, Level};
use gridrules_core::table::TableRules;
use gridrules_core::{Game, Side};
use std::sync::Arc;

/// Said when `vs` seats a new player at an unnamed seat with points.
const NEW_PLAYERS: &str = "the score starts afresh: the computer has taken or left a seat never named (`name` keeps a seat's points)";

impl Session {
    pub(super) fn vs(
        &mut self,
        level: Option<Level>,
        mark: Option<Side>,
    ) -> Result<Reply, CommandError> {
        let before = self.seats.clone();
        let Some(level) = level else {
            self.seats.clear_computers();
            let mut lines = vec!["both seats are played by people".to_string()];
            if self.seats.restart_score_for_new_players(&before) {
                lines.push(NEW_PLAYERS.to_string());
                lines.push(self.seats.score_line());
            }
            return Ok(Reply::Lines(lines));
        };
        let underway = !self.game.moves().is_empty() && !self.game.is_over();
        let human = match (mark, self.seats.human_side()) {
            (Some(m), _) => m,
            // A new level against the computer: you keep your side.
            (None, Some(h)) => h,
            // Two people in mid-game: which one leaves is theirs to say.
            (None, None) if underway => {
                return Err(SeatError::WhichMark(level).into());
            }
            // Before the first move: the person is seat 1, with the mark it
            // holds in this game (X at first; `again` may have passed it).
            (None, None) => self.seats.side_of(0),
        };
        // After a result a mark named is the next game's: not "already".
        let next_game = mark.is_some() && self.game.is_over();
        if self.seats.computer(human.other()) == Some(level)
            && self.seats.computer(human).is_none()
            && !next_game
        {
            // Nothing changes; a reply Ctrl-C stopped is made all the same.
            let line = format!(
                "{} already plays {}; you play {human}",
                self.computer_named(level),
                human.other()
            );
            let mut played = Vec::new();
            self.computer_replies(&mut played);
            return Ok(if played.is_empty() {
                Reply::Lines(vec![line])
            } else {
                Reply::Played(vec![line], played)
            });
        }
        // The seat the person plays against the computer, if one does.
        let person = self.seats.human_side().map(|h| self.seats.seat_of(h));
        // Only the computer has moved (it opened as X): the marks are still
        // to choose (G6), so its opening is taken back rather than the
        // person moved to the other seat, which would start the score
        // afresh (a new user lost 4.5 points so).
        let take_back = mark.is_some() && self.seats.side_of(person.unwrap_or(0)) != human;
        self.seats.clear_computers();
        let mut lines = Vec::new();
        if next_game {
            // After a result the marks are history: the choice is the next
            // game's, whatever `again` would swap, and the person keeps its
            // seat and its points.
            let seat = person.unwrap_or(0);
            self.seats.give_mark_next_game(seat, human);
            self.seats.set_computer_at(1 - seat, Some(level));
            lines.push(format!(
                "next game: you play {human}; {} plays {}",
                self.computer_named(level),
                human.other()
            ));
        } else {
            if take_back {
                lines.extend(self.take_back_computers_opening());
            }
            if mark.is_some() && self.game.moves().is_empty() {
                // Marks are chosen before the game (G6): the person keeps
                // the seat it has against the computer, and its points;
                // between two people it is seat 1.
                self.seats.give_mark(person.unwrap_or(0), human);
            }
            self.seats.set_computer(human.other(), Some(level));
            lines.push(format!(
                "you play {human}; {} plays {}",
                self.computer_named(level),
                human.other()
            ));
        }
        if self.seats.restart_score_for_new_players(&before) {
            lines.push(NEW_PLAYERS.to_string());
        }
        lines.push(self.seats.score_line());
        let mut played = Vec::new();
        self.computer_replies(&mut played);
        Ok(Reply::Played(lines, played))
    }

    pub(super) fn resign(&mut self, side: Option<Side>) -> Result<Reply, CommandError> {
        if let Some((outcome, _)) = self.game.ending() {
            return Err(CommandError::Over(Unfinished::Resign, outcome));
        }
        if let Some(side) = side
            && !self.seats.may_resign(side)
            && let (Some(human), Some(level)) = (self.seats.human_side(), self.seats.computer(side))
        {
            return Err(CommandError::ComputersSide { side, level, human });
        }
        let side = side
            .or(self.seats.human_side())
            .unwrap_or(self.game.position().turn());
        self.game
            .resign(side)
            .map_err(|e| self.refused("resign", e))?;
        self.settle();
        Ok(Reply::Lines(vec![self.game.status_line()]))
    }

    pub(super) fn draw(&mut self, action: DrawAction) -> Result<Reply, CommandError> {
        if let Some((outcome, _)) = self.game.ending() {
            return Err(CommandError::Over(Unfinished::Draw, outcome));
        }
        match action {
            DrawAction::Offer => self.offer_draw(),
            DrawAction::Accept => {
                let Some(offer) = self.offer else {
                    return Err(DrawError::NoOffer(action).into());
                };
                self.game
                    .agree_draw()
                    .map_err(|e| self.refused("draw", e))?;
                self.settle();
                let mut lines = vec![
                    format!("{} accepts the draw", offer.by.other()),
                    self.game.status_line(),
                ];
                lines.extend(self.unscored_draw_line());
                Ok(Reply::Lines(lines))
            }
            DrawAction::Decline => {
                let Some(offer) = self.offer.take() else {
                    return Err(DrawError::NoOffer(action).into());
                };
                Ok(Reply::Lines(vec![format!(
                    "{} declines the draw",
                    offer.by.other()
                )]))
            }
        }
    }

    /// The `draw` words that apply now, for completion: `offer` where
    /// one may be made, `accept` and `decline` while one stands.
    pub fn draw_words(&self) -> &'static [&'static str] {
        if self.game.is_over() {
            &[]
        } else if self.offer.is_some() {
            &["accept", "decline"]
        } else if self.last_offer == Some(self.offer_now()) {
            &[]
        } else {
            &["offer"]
        }
    }

    /// The offer `draw offer` would make now: by the person against the
    /// computer, else by the side to move.
    fn offer_now(&self) -> Offer {
        Offer {
            by: (self.seats.human_side()).unwrap_or(self.game.position().turn()),
            ply: self.game.moves().len(),
        }
    }

    fn offer_draw(&mut self) -> Result<Reply, CommandError> {
        let offer = self.offer_now();
        let by = offer.by;
        if self.offer.is_some() {
            return Err(DrawError::Waiting.into());
        }
        if self.last_offer == Some(offer) {
            return Err(DrawError::OfferedThisMove(by).into());
        }
        self.last_offer = Some(offer);
        let them = by.other();
        if self.seats.computer(them).is_some() {
            if self.computer_accepts_draw(them)? {
                self.game
                    .agree_draw()
                    .map_err(|e| self.refused("draw", e))?;
                self.settle();
                let mut lines = vec![
                    format!("{by} offers a draw; the computer accepts"),
                    self.game.status_line(),
                ];
                lines.extend(self.unscored_draw_line());
                return Ok(Reply::Lines(lines));
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
        // Judged as hard judges, whatever the seat's level.
        let request = search::Request::new(Level::Hard, self.think_budget());
        Ok(search::accepts_draw(
            &self.game,
            side,
            request,
            &mut self.rng,
        )?)
    }

    pub(super) fn again(&mut self) -> Result<Reply, CommandError> {
        if !self.game.is_over() {
            return Err(CommandError::GameOn);
        }
        // A draw agreed before any move was no game: the marks stay.
        let swap = self.alternate.unwrap_or(self.rulebook().table().alternate)
            && !self.agreed_before_any_move();
        let rulebook = self.rulebook().clone();
        self.start(Game::new(rulebook), swap)
    }

    /// The pie rule at this table (PI1), for this game and the next on the
    /// same rulebook: chosen before the first move, like the clock.
    pub(super) fn set_pie(&mut self, on: bool) -> Result<Reply, CommandError> {
        if self.too_late_to_choose() {
            return Err(CommandError::TooLateToChoose(Choice::Pie));
        }
        // Only a choice that changes the game takes the opening back: the
        // same again would only redraw the computer's move.
        let said = if on {
            "pie rule: on — after the first move, O may answer `swap` (PI1)".to_string()
        } else {
            "pie rule: off".to_string()
        };
        self.pie = Some(on);
        if self.rulebook().table().pie == on {
            return Ok(Reply::Lines(vec![said]));
        }
        let mut lines: Vec<String> = self.take_back_computers_opening().into_iter().collect();
        let table = TableRules {
            pie: on,
            ..self.rulebook().table().clone()
        };
        let rulebook = Arc::new(self.rulebook().with_table(table));
        let start = *self.game.start();
        self.game = Game::from_position(rulebook, start);
        lines.push(said);
        // The computer opens again where its opening was taken back.
        let mut played = Vec::new();
        self.computer_replies(&mut played);
        Ok(Reply::Played(lines, played))
    }

    /// The words `first` takes now, for completion: the seats and their
    /// one-word given names, and nothing once the game has begun.
    pub fn first_words(&self) -> Vec<String> {
        if self.too_late_to_choose() {
            return Vec::new();
        }
        let names = (Side::ALL.into_iter())
            .filter_map(|s| self.seats.given_name(s))
            .filter(|n| !n.contains(char::is_whitespace) && crate::edge::plain(n));
        ["1", "2"]
            .into_iter()
            .chain(names)
            .map(str::to_string)
            .collect()
    }

    /// Whether the game has begun, after which the players, marks and
    /// table rules stand. The computer's opening alone does not begin it:
    /// a choice takes that back ([`Session::take_back_computers_opening`]).
    fn too_late_to_choose(&self) -> bool {
        (!self.game.moves().is_empty() && self.people_moved()) || self.game.is_over()
    }

    /// Where only the computer has moved in a game under way, takes its
    /// opening back so that the table's choices (marks, the pie rule,
    /// who goes first) may still be made before a person's first move
    /// (G6), and says so. The computer opens again once they are.
    fn take_back_computers_opening(&mut self) -> Option<String> {
        let n = self.game.moves().len();
        if n == 0 || self.game.is_over() || self.people_moved() {
            return None;
        }
        let start = *self.game.start();
        self.game = Game::from_position(self.game.rulebook().clone(), start);
        self.computer_only = true;
        self.undone = None;
        self.clock.new_game();
        Some(format!(
            "the computer's opening ({n} move{}) is taken back: the table's choices are made before a person's first move",
            if n == 1 { "" } else { "s" }
        ))
    }

    /// Who plays X in this game, before its first move: seat 1 or 2, or a
    /// seat's name. The computer opens if its seat now has X.
    pub(super) fn first(&mut self, who: &str) -> Result<Reply, CommandError> {
        if self.too_late_to_choose() {
            return Err(CommandError::TooLateToChoose(Choice::First));
        }
        let seat = match who {
            "1" => 0,
            "2" => 1,
            name => self
                .seats
                .seat_named(name)
                .ok_or_else(|| SeatError::NoSuchSeat {
                    name: name.to_string(),
                    seats: [0, 1]
                        .map(|seat| self.seats.person_name(self.seats.side_of(seat)).to_string()),
                })?,
        };
        let changes = self.seats.side_of(seat) != Side::X;
        let mut lines: Vec<String> = (changes)
            .then(|| self.take_back_computers_opening())
            .flatten()
            .into_iter()
            .collect();
        self.seats.give_mark(seat, Side::X);
        lines.extend([
            format!(
                "{} plays X and moves first; {} plays O",
                self.seats.name(Side::X),
                self.seats.name(Side::O)
            ),
            self.seats.score_line(),
        ]);
        let mut played = Vec::new();
        self.computer_replies(&mut played);
        Ok(Reply::Played(lines, played))
    }

    pub(super) fn name_seat(&mut self, seat: usize, name: &str) -> Result<Reply, CommandError> {
        // Names pick seats (`first Ada`), so two seats never share one.
        if self.seats.seat_named(name).is_some_and(|s| s != seat) {
            return Err(SeatError::NameTaken(name.to_string()).into());
        }
        self.seats.set_name(seat, name.to_string());
        Ok(Reply::Lines(vec![self.seats.score_line()]))
    }

    pub(super) fn set_alternate(&mut self, on: bool) -> Reply {
        self.alternate = Some(on);
        Reply::Lines(vec![if on {
            "alternate: on — `again` passes X and the first move to the other seat".to_string()
        } else {
            "alternate: off — `again` keeps the marks where they are".to_string()
        }])
    }

    pub(super) fn score(&self) -> Reply {
        Reply::Lines(vec![self.seats.score_line()])
    }
}
