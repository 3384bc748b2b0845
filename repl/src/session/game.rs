//! The game's own commands: start one, play, ask the computer, take
//! back, and show the moves, the legal ones and the position.

use super::{Session, Undone, open_rulebook, rulebook_ref};
use crate::command::Command;
use crate::error::{CommandError, UndoError, Unfinished};
use crate::reply::{By, Reply};
use gridrules_core::playout::Rng;
use gridrules_core::search::{Budget, Level};
use gridrules_core::{Ending, Game, Move, PlayError, Rulebook, Side};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A built-in rulebook's name typed in any case (`new Classic`), where no
/// file of that name is; else the name as typed.
fn builtin_in_any_case(name: &str) -> String {
    let lower = name.to_lowercase();
    if !Path::new(name).exists() && Rulebook::is_builtin(&lower) {
        lower
    } else {
        name.to_string()
    }
}

/// The legal move in `game` that the words of `text` make written
/// together, by a slash (a twist: `c3 1+`) or by nothing (a removal:
/// `d6-d7 xa1`; a cell, `b 2`) — but for a number run into a number
/// (`a1 5` is no `a15`).
fn joined_move(game: &Game, text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let numbers_meet = words.windows(2).any(|w| {
        w[0].ends_with(|c: char| c.is_ascii_digit())
            && w[1].starts_with(|c: char| c.is_ascii_digit())
    });
    let joins: &[&str] = if numbers_meet { &["/"] } else { &["/", ""] };
    joins.iter().find_map(|&by| {
        let joined = words.join(by);
        let mv = game.parse_move(&joined).ok()?;
        game.clone().play(mv).ok()?;
        Some(game.rulebook().move_text(mv))
    })
}

impl Session {
    pub(super) fn new_game(&mut self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => {
                let n = &builtin_in_any_case(n);
                let r = Arc::new(open_rulebook(n)?);
                self.rulebook_name = rulebook_ref(Path::new(n));
                self.clock.limit = self.clock_for(&r);
                self.pie = None;
                r
            }
        };
        self.start(Game::new(rulebook), false)
    }

    /// Whether `command` would replace the game under way: `new`, `load`,
    /// `open` and `setup`, where what they name can be read (one that is
    /// refused leaves the game as it is).
    pub fn would_replace(&self, command: &Command) -> bool {
        match command {
            Command::New(None) => true,
            Command::New(Some(name)) => open_rulebook(&builtin_in_any_case(name)).is_ok(),
            Command::Load(path) => Rulebook::from_file(path).is_ok(),
            Command::Open(path) => gridrules_core::record::open(path).is_ok(),
            Command::Setup(text) => self.rulebook().parse_position(text).is_ok(),
            _ => false,
        }
    }

    pub(super) fn load(&mut self, path: &Path) -> Result<Reply, CommandError> {
        // A built-in's name where no file of that name is: the player
        // meant `new`.
        if let Some(name) = path
            .to_str()
            .filter(|n| !path.exists() && Rulebook::builtin_names().any(|b| b == *n))
        {
            return Err(CommandError::BuiltinLoad(name.to_string()));
        }
        let rulebook = Arc::new(Rulebook::from_file(path)?);
        self.rulebook_name = rulebook_ref(path);
        self.clock.limit = self.clock_for(&rulebook);
        self.pie = None;
        self.start(Game::new(rulebook), false)
    }

    pub(super) fn setup(&mut self, text: &str) -> Result<Reply, CommandError> {
        let pos = self
            .rulebook()
            .parse_position(text)
            .map_err(CommandError::Setup)?;
        let game = Game::from_position(self.rulebook().clone(), pos);
        self.start(game, false)
    }

    /// Plays a move, or the marks of one turn joined by commas, as
    /// `history` writes them (`k10,k11`): all of them, or none.
    pub(super) fn play(&mut self, text: &str) -> Result<Reply, CommandError> {
        let side = self.game.position().turn();
        if let Some(level) = self.seats.computer(side).filter(|_| !self.game.is_over()) {
            return Err(CommandError::ComputersTurn {
                mv: text.to_string(),
                side,
                level,
            });
        }
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() > 1 && parts.iter().any(|p| p.is_empty()) {
            return Err(CommandError::EmptyMark(text.to_string()));
        }
        // Tried on a copy: each mark must be legal after the ones before,
        // and all of them the mover's.
        let mut trial = self.game.clone();
        let mut moves = Vec::new();
        for part in &parts {
            if part.contains(char::is_whitespace) {
                return Err(CommandError::SpacedMove {
                    text: part.to_string(),
                    joined: joined_move(&trial, part),
                    turns_of_marks: !self.rulebook().mechanics().turns().is_alternating(),
                });
            }
            let mv = trial.parse_move(part).map_err(|e| match e {
                PlayError::Notation(e) => CommandError::Move(e),
                e => CommandError::Play(part.to_string(), e),
            })?;
            if trial.position().turn() != side {
                return Err(CommandError::TurnOver {
                    text: text.to_string(),
                    marks: moves.len(),
                });
            }
            // Named as the rules write it (`b4` for the column `b`).
            trial
                .play(mv)
                .map_err(|e| CommandError::Play(self.rulebook().move_text(mv), e))?;
            moves.push(mv);
        }
        let mut played = Vec::new();
        for mv in moves {
            played.push(self.make_move(mv, By::Person)?);
        }
        self.computer_replies(&mut played);
        Ok(Reply::Played(Vec::new(), played))
    }

    pub(super) fn ai(&mut self, level: Level) -> Result<Reply, CommandError> {
        // A move after the result: the rulebook's refusal (G3).
        self.refuse_if_over("ai")?;
        // For a person's side, a move the person asked for: theirs, as a
        // move typed is (no choice of the table takes it back).
        let persons = self.computer_to_move().is_none();
        let thought = self.computer_move(level, "ai", true)?;
        let mut played = vec![self.play_thought(thought, level)?];
        self.computer_only &= !persons;
        self.computer_replies(&mut played);
        Ok(Reply::Played(Vec::new(), played))
    }

    /// The move the computer would make for the side to move, not played.
    pub(super) fn hint(&mut self, level: Level) -> Result<Reply, CommandError> {
        // A hint thinks as `ai` would, on the trees `ai` would grow, and
        // leaves no trace: asked again it names the same move, and `ai` at
        // its level then plays what it named (three hints named three
        // moves, and `ai` a fourth).
        let kept = (
            self.rng.clone(),
            self.memory.clone(),
            self.memory_of.clone(),
        );
        // No move is made: not the rulebook's refusal of a move.
        self.refuse_after_result(Unfinished::Suggest)?;
        let thought = self.computer_move(level, "hint", true);
        (self.rng, self.memory, self.memory_of) = kept;
        let thought = thought?;
        let side = self.game.position().turn();
        let mut line = format!(
            "hint: {side} could play {} ({level})",
            self.rulebook()
                .move_text_in(self.game.position(), thought.mv)
        );
        // As `ai` says it: a hint cut short names what a full search may not.
        if let Some(cut) = thought.cut_note(level) {
            line = format!("{line} {cut}");
        }
        Ok(Reply::Lines(vec![line]))
    }

    /// Sets how long the computer thinks: `None` for the rulebook's budget
    /// in playouts (moves repeat for a seed), else a time a move.
    pub(super) fn set_think(&mut self, time: Option<Duration>) -> Result<Reply, CommandError> {
        self.think = time.map(Budget::Time);
        let n = self.rulebook().table().ai_playouts;
        use gridrules_core::script::COMMAND_SCRIPT_SECONDS;
        let most = self.think_most();
        let held = most.filter(|&m| time.is_some_and(|t| t.as_secs_f64() > m as f64));
        let mut lines = vec![match time {
            Some(t) => format!(
                "the computer thinks {} s a move, by the clock, until `ai time default`: its moves no longer repeat for a seed",
                t.as_secs_f64()
            ),
            None => format!(
                "the computer searches {n} playouts a tree, the rulebook's budget: its moves repeat for a seed"
            ),
        }];
        if let Some(most) = held {
            lines.push(format!(
                "note: with this rulebook's per-move hooks it thinks {most} s at most: a command's scripts may run {COMMAND_SCRIPT_SECONDS} s in all"
            ));
        }
        Ok(Reply::Lines(lines))
    }

    pub(super) fn legal(&self) -> Result<Reply, CommandError> {
        self.refuse_if_over("legal")?;
        let r = self.rulebook();
        let mut list = gridrules_core::MoveList::new();
        r.legal_moves(self.game.position(), self.game.moves(), &mut list)?;
        let moves: Vec<String> = list.iter().map(|&m| r.move_text(m)).collect();
        Ok(Reply::Lines(vec![moves.join(" ")]))
    }

    pub(super) fn undo(&mut self) -> Result<Reply, CommandError> {
        if let Some((_, ending @ (Ending::Resigned(_) | Ending::Agreed | Ending::MoveLimit(_)))) =
            self.game.ending()
        {
            return Err(UndoError::Final(ending).into());
        }
        let was_over = self.game.ending().map(|(o, _)| o);
        // Worked out on copies: refused, it changes nothing.
        let (mut game, mut seats) = (self.game.clone(), self.seats.clone());
        let mut undone = Vec::new();
        // Against the computer, take back its reply too (every mark of it,
        // in a turn of several) and the turn it answered, whole, so it is
        // the person's turn again from its first mark.
        while let Some(mv) = game.undo() {
            if mv == Move::Swap {
                seats.unexchange_marks();
            }
            undone.push(self.rulebook().move_text_in(game.position(), mv));
            if persons_turn_begins(&seats, &game) {
                break;
            }
        }
        if undone.is_empty() {
            return Err(UndoError::NothingPlayed.into());
        }
        if seats.computer(game.position().turn()).is_some() {
            return Err(UndoError::ComputerOpening.into());
        }
        // Undone again, the line `redo` follows stays the longest.
        if !self.undone.as_ref().is_some_and(|u| u.holds(&self.game)) {
            self.undone = Some(Undone::of(&self.game));
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

    /// Plays again what `undo` took back: the next move of the line, and
    /// against the computer its reply too, as `undo` took both. Refused
    /// once another move (or game) has left that line.
    pub(super) fn redo(&mut self) -> Result<Reply, CommandError> {
        let Some(undone) = self.undone.clone().filter(|u| u.holds(&self.game)) else {
            return Err(CommandError::NothingToRedo);
        };
        let next = &undone.line[self.game.moves().len()..];
        // The moves to play: the person's, then while the computer's seat
        // is to move its replies on the line. Tried on a copy first, so a
        // refused one changes nothing.
        let mut trial = self.game.clone();
        let mut count = 0;
        for &mv in next {
            if count > 0 && persons_turn_begins(&self.seats, &trial) {
                break;
            }
            trial
                .play(mv)
                .map_err(|e| CommandError::Play(self.rulebook().move_text(mv), e))?;
            count += 1;
        }
        if count == 0 {
            return Err(CommandError::NothingToRedo);
        }
        let mut played = Vec::new();
        // A person's moves are named, as `undo` names what it took back
        // (they are not echoed, and the board alone would not say which
        // came back); the computer's replies print as its moves do.
        let mut redone = Vec::new();
        for &mv in &next[..count] {
            let by = match self.seats.computer(self.game.position().turn()) {
                Some(_) => By::Computer,
                None => By::Person,
            };
            if by == By::Person {
                redone.push(self.rulebook().move_text_in(self.game.position(), mv));
            }
            played.push(self.make_move(mv, by)?);
        }
        self.computer_replies(&mut played);
        let said = (!redone.is_empty()).then(|| format!("redone: {}", redone.join(", ")));
        Ok(Reply::Played(said.into_iter().collect(), played))
    }

    pub(super) fn history(&self) -> Reply {
        let r = self.rulebook();
        if self.game.moves().is_empty() {
            return Reply::Lines(vec!["no moves yet".into()]);
        }
        // A number for each round, X's turn then O's, each turn as many
        // marks as the rulebook says, a turn's marks joined by commas
        // (connect6: `1. j10 k10,k11 2. j11,j12`); a game set up with O to
        // move starts `1. …`.
        let positions = self.game.positions();
        let mut text = String::new();
        let mut round = 0;
        for (i, &mv) in self.game.moves().iter().enumerate() {
            let mover = positions[i].turn();
            let same_turn = self.game.continues_turn(i);
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
            text.push(if same_turn { ',' } else { ' ' });
            text.push_str(&r.move_text_in(&positions[i], mv));
        }
        Reply::Lines(vec![text])
    }

    pub(super) fn status(&self) -> Reply {
        Reply::Lines(vec![self.game.status_line()])
    }

    pub(super) fn position(&self) -> Reply {
        Reply::Lines(vec![self.rulebook().position_text(self.game.position())])
    }

    pub(super) fn seed(&mut self, seed: u64) -> Reply {
        self.rng = Rng::new(seed);
        Reply::Lines(vec![format!(
            "seed: {seed} — the same commands now give the same computer and clock moves"
        )])
    }
}

/// Where `undo` and `redo` stop: a person is to move, and against the
/// computer at the first mark of their turn (a turn of several marks is
/// taken back whole; between two people, a mark at a time).
fn persons_turn_begins(seats: &crate::table::Seats, game: &Game) -> bool {
    let vs_computer = Side::ALL.into_iter().any(|s| seats.computer(s).is_some());
    seats.computer(game.position().turn()).is_none() && !(vs_computer && game.mid_turn())
}
