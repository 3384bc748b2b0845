//! A game in progress: positions, moves, undo and repetition.

use crate::position::{Ending, Move, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use crate::rules::{PlayError, Refusal};
use std::sync::Arc;

/// A game under one rulebook: the start, every move, and each position reached.
#[derive(Debug, Clone)]
pub struct Game {
    rulebook: Arc<Rulebook>,
    positions: Vec<Position>,
    keys: Vec<u64>,
    moves: Vec<Move>,
    /// A result decided off the board: a resignation, an agreed draw, or
    /// a match's move limit.
    decided: Option<(Outcome, Ending)>,
}

impl Game {
    /// A new game from the rulebook's initial position.
    pub fn new(rulebook: Arc<Rulebook>) -> Game {
        let start = rulebook.initial();
        Game::from_position(rulebook, start)
    }

    /// A game that starts from a set-up position.
    pub fn from_position(rulebook: Arc<Rulebook>, start: Position) -> Game {
        Game {
            rulebook,
            keys: vec![start.key()],
            positions: vec![start],
            moves: Vec::new(),
            decided: None,
        }
    }

    /// The rulebook.
    pub fn rulebook(&self) -> &Arc<Rulebook> {
        &self.rulebook
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether move `i` is a further mark of the turn move `i - 1` began
    /// (connect6's second mark): the same side moved both, and neither is
    /// a swap, which leaves O to move but changes seats, not marks.
    pub fn continues_turn(&self, i: usize) -> bool {
        i > 0
            && i < self.moves.len()
            && self.positions[i - 1].turn() == self.positions[i].turn()
            && self.moves[i - 1] != Move::Swap
            && self.moves[i] != Move::Swap
    }

    /// The keys of the positions reached, the start's first.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ending().map(|(o, _)| o)
    }

    /// The result and why, on the board or off it (resignation, agreement).
    pub fn ending(&self) -> Option<(Outcome, Ending)> {
        self.decided.or(self.position().ending())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// `side` resigns and the other side wins (G4).
    ///
    /// # Errors
    /// When the game is already over.
    pub fn resign(&mut self, side: Side) -> Result<(), Refusal> {
        self.decide((Outcome::Win(side.other()), Ending::Resigned(side)))
    }

    /// The game ends in a draw by agreement (T3).
    ///
    /// # Errors
    /// When the game is already over.
    pub fn agree_draw(&mut self) -> Result<(), Refusal> {
        self.decide((Outcome::Draw, Ending::Agreed))
    }

    /// The game, unfinished after its `moves().len()` moves, is counted a
    /// draw by a match's move limit.
    ///
    /// # Errors
    /// When the game is already over.
    pub fn draw_at_move_limit(&mut self) -> Result<(), Refusal> {
        let played = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.decide((Outcome::Draw, Ending::MoveLimit(played)))
    }

    fn decide(&mut self, result: (Outcome, Ending)) -> Result<(), Refusal> {
        if let Some((o, _)) = self.ending() {
            return Err(Refusal::GameOver(o));
        }
        self.decided = Some(result);
        Ok(())
    }

    /// Plays a move; when it is refused, nothing changes.
    ///
    /// # Errors
    /// Why the move is refused, or a per-move hook's failure.
    pub fn play(&mut self, mv: Move) -> Result<&Position, PlayError> {
        if let Some((o, _)) = self.decided {
            return Err(self.rulebook.refused(Refusal::GameOver(o)));
        }
        let mut next = self.rulebook.play(self.position(), &self.moves, mv)?;
        self.rulebook.settle_repetition(&mut next, &self.keys);
        self.keys.push(next.key());
        self.positions.push(next);
        self.moves.push(mv);
        Ok(self.position())
    }

    /// Parses a move's text in the current position (see [`Rulebook::parse_move`]).
    ///
    /// # Errors
    /// Text that is not a move here, or a move the notation allows but the
    /// rulebook does not have.
    pub fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        self.rulebook.parse_move(self.position(), &self.moves, text)
    }

    /// Takes back the last move; `None` at the start, and once the game was
    /// decided off the board (a resignation, an agreement or a match's
    /// move limit is final).
    pub fn undo(&mut self) -> Option<Move> {
        if self.decided.is_some() {
            return None;
        }
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(mv)
    }
}

/// The contract's result line: `result: X wins`, with the reason after ` — `
/// when the game did not end on a line.
pub fn result_line((outcome, ending): (Outcome, Ending)) -> String {
    let why = match ending {
        Ending::Line => None,
        Ending::Full => Some("no cell left to play".to_string()),
        Ending::NoMoves(stuck) => Some(format!("{stuck} has no legal move")),
        Ending::Repetition(n) => Some(format!(
            "the same position for the {} time",
            crate::ordinal::ordinal(n as usize)
        )),
        Ending::Script => Some("decided by the rulebook's script".to_string()),
        Ending::Captures(n) => Some(format!("{n} captures")),
        Ending::Stones(n) => Some(format!("{n} stones captured")),
        Ending::Reduced(side, n) => Some(format!(
            "{side} is down to {n} piece{}",
            if n == 1 { "" } else { "s" }
        )),
        Ending::Resigned(side) => Some(format!("{side} resigned")),
        Ending::Agreed => Some("agreed".to_string()),
        Ending::MoveLimit(n) => Some(format!("stopped by the match after {n} moves")),
    };
    match why {
        Some(w) => format!("result: {outcome} — {w}"),
        None => format!("result: {outcome}"),
    }
}

impl Game {
    /// `to move: X` while the game runs, else the result line (the `status`
    /// contract), naming the line that decided it: `result: X wins — a1 b2 c3`.
    /// Where a turn has several marks, which one is next follows after ` — `:
    /// `to move: O — mark 2 of 2`.
    pub fn status_line(&self) -> String {
        self.status(true)
    }

    /// The result line, with the cells of the deciding line when it is one.
    pub fn result_text(&self) -> Option<String> {
        let ending = self.ending()?;
        let line = match ending.1 {
            Ending::Line => self.rulebook.decisive_line(self.position()),
            _ => None,
        };
        Some(match line {
            Some(cells) => format!("{} — {cells}", result_line(ending)),
            None => result_line(ending),
        })
    }

    /// Whether the side to move has placed a mark of its turn already (a
    /// turn of several marks, `turn_marks()`): the turn is under way.
    pub fn mid_turn(&self) -> bool {
        let pos = self.position();
        self.rulebook
            .mechanics()
            .turns()
            .place(pos.marks_played())
            .mark
            > 0
    }

    /// [`Game::status_line`], with the deciding line's cells or without.
    pub fn status(&self, with_line: bool) -> String {
        if with_line && let Some(text) = self.result_text() {
            return text;
        }
        match self.ending() {
            None => {
                let pos = self.position();
                let turns = self.rulebook.mechanics().turns();
                let place = turns.place(pos.marks_played());
                // Where the turn names the mark, which one: it may be the
                // opponent's (the swap opening of five in a row).
                let named = turns.named_mark(pos.marks_played());
                let line = if place.of > 1 {
                    format!(
                        "to move: {} — mark {} of {}{}",
                        pos.turn(),
                        place.mark + 1,
                        place.of,
                        named.map_or(String::new(), |mark| format!(", placing {mark}"))
                    )
                } else if let Some(mark) = named {
                    format!("to move: {} — placing {mark}", pos.turn())
                } else {
                    format!("to move: {}", pos.turn())
                };
                // The pie rule's one chance, said where it stands: else only
                // `legal`'s last word shows it.
                if self.rulebook.swap_legal(pos) {
                    let joint = if line.contains(" — ") {
                        ", "
                    } else {
                        " — "
                    };
                    format!("{line}{joint}may answer `swap` (pie rule)")
                } else {
                    line
                }
            }
            Some(ending) => result_line(ending),
        }
    }
}
