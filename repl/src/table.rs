//! The table around a game: two seats with names and a score, the computer
//! players, the draw offer, and the clock.

use gridrules_core::search::Level;
use gridrules_core::{Outcome, Side};
use std::time::{Duration, Instant};

/// A seat's name until it is given one: `player 1`, `player 2`.
fn default_name(seat: usize) -> String {
    format!("player {}", seat + 1)
}

/// The two seats. Seat 1 plays X in the first game; rematches may swap.
#[derive(Debug, Clone)]
pub struct Seats {
    names: [String; 2],
    computer: [Option<Level>; 2],
    /// Which seat (0 or 1) plays X in the current game.
    x_seat: usize,
    /// Swaps (PI1) in the current game so far: odd when the seats hold the
    /// other marks than at its start.
    swaps: u32,
    /// Points in halves, so a draw is exactly one each.
    half_points: [u32; 2],
    games: u32,
    /// Whether the current game's result is already in the score.
    scored: bool,
    /// The mark a seat chose for the next game after a result (`vs hard
    /// X`), which the next game gives it whatever a rematch would swap.
    next_mark: Option<(usize, Side)>,
}

impl Default for Seats {
    fn default() -> Seats {
        Seats {
            names: [default_name(0), default_name(1)],
            computer: [None, None],
            x_seat: 0,
            swaps: 0,
            half_points: [0, 0],
            games: 0,
            scored: false,
            next_mark: None,
        }
    }
}

impl Seats {
    /// The seats exchange marks mid-game (the pie rule's swap, PI1): names,
    /// computer levels and points stay with the seats.
    pub fn exchange_marks(&mut self) {
        self.x_seat = 1 - self.x_seat;
        self.swaps += 1;
    }

    /// A game opened from a record already holds `n` swaps: the seats hold
    /// the marks they swapped to (the first player, seat 1, plays O after
    /// one), and go back on the next game.
    pub fn opened_with_swaps(&mut self, n: u32) {
        if n % 2 == 1 {
            self.x_seat = 1 - self.x_seat;
        }
        self.swaps = n;
    }

    /// Takes back a swap (its move was undone).
    pub fn unexchange_marks(&mut self) {
        self.x_seat = 1 - self.x_seat;
        self.swaps = self.swaps.saturating_sub(1);
    }

    /// The seat (0 or 1) playing `side`.
    pub fn seat_of(&self, side: Side) -> usize {
        match side {
            Side::X => self.x_seat,
            Side::O => 1 - self.x_seat,
        }
    }

    /// The mark seat `seat` plays.
    pub fn side_of(&self, seat: usize) -> Side {
        if seat == self.x_seat {
            Side::X
        } else {
            Side::O
        }
    }

    /// The name of whoever plays `side`.
    pub fn name(&self, side: Side) -> String {
        self.shown(self.seat_of(side))
    }

    /// The name given to the seat playing `side`, whoever plays it now
    /// (what a record keeps).
    pub fn person_name(&self, side: Side) -> &str {
        &self.names[self.seat_of(side)]
    }

    /// Seat `seat` as shown: its name, and the computer where it plays the
    /// seat. A seat that was never named is just the computer; a named one
    /// keeps its name, so its points stay with it (G7).
    fn shown(&self, seat: usize) -> String {
        match self.computer[seat] {
            None => self.names[seat].clone(),
            Some(l) if self.names[seat] == default_name(seat) => format!("computer ({l})"),
            Some(l) => format!("{} (computer, {l})", self.names[seat]),
        }
    }

    /// Names seat `seat` (0 or 1).
    pub fn set_name(&mut self, seat: usize, name: String) {
        self.names[seat] = name;
    }

    /// The name given to the seat playing `side`, if it was given one: a
    /// seat's own number (`player 2`) names no one a record could keep.
    pub fn given_name(&self, side: Side) -> Option<&str> {
        let seat = self.seat_of(side);
        (self.names[seat] != default_name(seat)).then_some(self.names[seat].as_str())
    }

    /// Names the seats by mark from a record: where a person plays that
    /// mark here.
    pub fn set_names_by_side(&mut self, x: Option<String>, o: Option<String>) {
        for (side, name) in [(Side::X, x), (Side::O, o)] {
            let seat = self.seat_of(side);
            // A name the record leaves out stays as the seat has it; so
            // does a seat's number (older records wrote them: it would
            // label the other seat `player 1` once the seats have turned),
            // a name on the computer's seat (it is not the person who
            // played that mark then) and the other seat's own name.
            let kept = |name: &String| {
                (0..2).any(|seat| *name == default_name(seat))
                    || self.computer[seat].is_some()
                    || *name == self.names[1 - seat]
            };
            if let Some(name) = name.filter(|n| !kept(n)) {
                self.names[seat] = name;
            }
        }
    }

    /// The computer's level for `side`, if the computer plays it.
    pub fn computer(&self, side: Side) -> Option<Level> {
        self.computer[self.seat_of(side)]
    }

    /// The side a person plays against the computer (the other side's seat is the computer's).
    pub fn human_side(&self) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&s| self.computer(s).is_none() && self.computer(s.other()).is_some())
    }

    /// Whether a person may resign for `side`: against the computer, only
    /// for their own (resigning for the computer's would score them a win
    /// it never gave).
    pub fn may_resign(&self, side: Side) -> bool {
        self.human_side().is_none_or(|h| h == side)
    }

    /// Hands the seat of `side` to the computer at `level` (or back to a person).
    pub fn set_computer(&mut self, side: Side, level: Option<Level>) {
        let seat = self.seat_of(side);
        self.computer[seat] = level;
    }

    /// Both seats to people.
    pub fn clear_computers(&mut self) {
        for side in Side::ALL {
            self.set_computer(side, None);
        }
    }

    /// After `vs`: where the computer took or left a seat never named that
    /// holds points, they were another player's (the computer's are not
    /// the person's who sits down, nor the reverse), so the score starts
    /// afresh; a named seat keeps its points whoever plays it (G7), and a
    /// seat without points hands nothing over (G8: the score goes on).
    /// Returns whether it started afresh.
    pub fn restart_score_for_new_players(&mut self, before: &Seats) -> bool {
        let new_player = (0..2).any(|seat| {
            self.names[seat] == default_name(seat)
                && self.half_points[seat] > 0
                && before.computer[seat].is_some() != self.computer[seat].is_some()
        });
        if !new_player {
            return false;
        }
        self.half_points = [0, 0];
        self.games = 0;
        // A result already counted is not taken out again by `undo`.
        self.scored = false;
        true
    }

    /// The seat (0 or 1) named `name`, ignoring case.
    pub fn seat_named(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n.eq_ignore_ascii_case(name))
    }

    /// Makes seat `seat` play `side` (before a game's first move).
    pub fn give_mark(&mut self, seat: usize, side: Side) {
        self.x_seat = if side == Side::X { seat } else { 1 - seat };
    }

    /// Counts a finished game once (G7: a draw is half a point each).
    pub fn score_result(&mut self, outcome: Outcome) {
        if self.scored {
            return;
        }
        self.scored = true;
        self.games += 1;
        match outcome {
            Outcome::Win(s) => self.half_points[self.seat_of(s)] += 2,
            Outcome::Draw => {
                self.half_points[0] += 1;
                self.half_points[1] += 1;
            }
        }
    }

    /// Takes a result back out of the score (its last move was undone, or
    /// the game came from a file).
    pub fn unscore(&mut self, outcome: Outcome) {
        if !self.scored {
            return;
        }
        self.scored = false;
        self.games -= 1;
        match outcome {
            Outcome::Win(s) => self.half_points[self.seat_of(s)] -= 2,
            Outcome::Draw => {
                self.half_points[0] -= 1;
                self.half_points[1] -= 1;
            }
        }
    }

    /// A new game starts; with `swap`, marks change seats (G5). The seats
    /// first go back to the marks they held when the last game started:
    /// a pie-rule swap lasts one game, and the first move still alternates.
    pub fn next_game(&mut self, swap: bool) {
        self.scored = false;
        if self.swaps % 2 == 1 {
            self.x_seat = 1 - self.x_seat;
        }
        self.swaps = 0;
        if swap {
            self.x_seat = 1 - self.x_seat;
        }
        if let Some((seat, side)) = self.next_mark.take() {
            self.give_mark(seat, side);
        }
    }

    /// Seat `seat` plays `side` in the next game (chosen after a result,
    /// when this game's marks are history).
    pub fn give_mark_next_game(&mut self, seat: usize, side: Side) {
        self.next_mark = Some((seat, side));
    }

    /// Sets the computer's level at seat `seat` (`None`: a person).
    pub fn set_computer_at(&mut self, seat: usize, level: Option<Level>) {
        self.computer[seat] = level;
    }

    /// `score: player 1 1.5, player 2 0.5 (2 games)`.
    pub fn score_line(&self) -> String {
        let points = |s: usize| {
            let h = self.half_points[s];
            if h.is_multiple_of(2) {
                (h / 2).to_string()
            } else {
                format!("{}.5", h / 2)
            }
        };
        let games = if self.games == 1 {
            "1 game".to_string()
        } else {
            format!("{} games", self.games)
        };
        format!(
            "score: {} {}, {} {} ({games})",
            self.with_side(0),
            points(0),
            self.with_side(1),
            points(1)
        )
    }

    /// Seat `seat` with its side in one pair of brackets: `Ada (O)`,
    /// `computer (O, hard)`, `Ada (O, computer, hard)`.
    fn with_side(&self, seat: usize) -> String {
        let side = self.side_of(seat);
        match self.computer[seat] {
            None => format!("{} ({side})", self.names[seat]),
            Some(l) if self.names[seat] == default_name(seat) => format!("computer ({side}, {l})"),
            Some(l) => format!("{} ({side}, computer, {l})", self.names[seat]),
        }
    }
}

/// A draw offer waiting for an answer (T3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// Who offered.
    pub by: Side,
    /// How many moves had been played when it was made.
    pub ply: usize,
}

/// Where the clock reads its time: the wall clock at the REPL, or a clock
/// that only `wait` moves in batch mode, so transcripts replay exactly.
#[derive(Debug, Clone)]
pub enum TimeSource {
    /// Real time since the session began.
    Real(Instant),
    /// Virtual time, advanced by `wait`.
    Virtual(Duration),
}

impl TimeSource {
    /// The time now, from the session's start.
    pub fn now(&self) -> Duration {
        match self {
            TimeSource::Real(start) => start.elapsed(),
            TimeSource::Virtual(t) => *t,
        }
    }
}

/// Whether the clock runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockRun {
    /// A new game's clock waits for its first move, or for `ready`: no
    /// time counts before both players are there.
    Waiting,
    /// Held by `pause`: the side to move keeps the time it had.
    Paused,
    /// The side to move's time is passing.
    Running,
}

/// The per-move clock (T2, U9).
#[derive(Debug, Clone)]
pub struct Clock {
    /// Seconds per move, if on.
    pub limit: Option<u32>,
    /// What the players chose with `clock`, kept for later games and other
    /// rulebooks (where the rulebook allows it); `None` until they choose.
    pub chosen: Option<Option<u32>>,
    /// Where the time comes from.
    pub source: TimeSource,
    run: ClockRun,
    /// When the side to move began its move, while the clock runs.
    turn_began: Duration,
    /// The time the side to move has used, while the clock is held.
    spent: Duration,
}

impl Clock {
    /// A clock of `limit` seconds per move, waiting for a game's first move.
    pub fn new(limit: Option<u32>, source: TimeSource) -> Clock {
        Clock {
            limit,
            chosen: None,
            source,
            run: ClockRun::Waiting,
            turn_began: Duration::ZERO,
            spent: Duration::ZERO,
        }
    }

    /// Whether it runs, waits or is paused.
    pub fn run(&self) -> ClockRun {
        self.run
    }

    /// A new game: the clock waits for its first move.
    pub fn new_game(&mut self) {
        self.run = ClockRun::Waiting;
        self.spent = Duration::ZERO;
    }

    /// A move was made: the next side's time begins now. The first move
    /// starts a waiting clock; a paused one stays paused.
    pub fn next_turn(&mut self) {
        if self.run == ClockRun::Waiting {
            self.run = ClockRun::Running;
        }
        self.restart_turn();
    }

    /// The side to move starts its time afresh (after `undo`, or a new
    /// limit), running or not as before.
    pub fn restart_turn(&mut self) {
        self.spent = Duration::ZERO;
        self.turn_began = self.source.now();
    }

    /// Starts a waiting clock (`ready`). False if it was not waiting.
    pub fn start(&mut self) -> bool {
        if self.run != ClockRun::Waiting {
            return false;
        }
        self.run = ClockRun::Running;
        self.turn_began = self.source.now().saturating_sub(self.spent);
        true
    }

    /// Holds a running clock. False if it was not running.
    pub fn pause(&mut self) -> bool {
        if self.run != ClockRun::Running {
            return false;
        }
        self.spent = self.used();
        self.run = ClockRun::Paused;
        true
    }

    /// Runs a paused clock again, with the time that was left. False if it
    /// was not paused.
    pub fn resume(&mut self) -> bool {
        if self.run != ClockRun::Paused {
            return false;
        }
        self.run = ClockRun::Running;
        self.turn_began = self.source.now().saturating_sub(self.spent);
        true
    }

    /// The time the side to move has used.
    pub fn used(&self) -> Duration {
        match self.run {
            ClockRun::Running => self.source.now().saturating_sub(self.turn_began),
            ClockRun::Waiting | ClockRun::Paused => self.spent,
        }
    }

    /// Time left for the side to move, if the clock is on.
    pub fn left(&self) -> Option<Duration> {
        let limit = Duration::from_secs(u64::from(self.limit?));
        Some(limit.saturating_sub(self.used()))
    }

    /// Whether the side to move has used all its time (and the clock runs).
    pub fn ran_out(&self) -> bool {
        self.run == ClockRun::Running && self.left() == Some(Duration::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the computer a person resigns for their own side only;
    /// between two people, for either.
    #[test]
    fn a_person_resigns_only_for_a_side_a_person_plays() {
        let mut seats = Seats::default();
        assert!(Side::ALL.into_iter().all(|s| seats.may_resign(s)));
        seats.set_computer(Side::X, Some(Level::Hard));
        assert!(!seats.may_resign(Side::X));
        assert!(seats.may_resign(Side::O));
    }
}
