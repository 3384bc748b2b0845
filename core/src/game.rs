//! A game in progress: positions, moves, undo and repetition.

use crate::position::{Move, Outcome, Position};
use crate::rulebook::Rulebook;
use crate::rules::PlayError;
use std::sync::Arc;

/// A game under one rulebook: the start, every move, and each position reached.
#[derive(Debug, Clone)]
pub struct Game {
    rulebook: Arc<Rulebook>,
    positions: Vec<Position>,
    keys: Vec<u64>,
    moves: Vec<Move>,
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

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays a move; when it is refused, nothing changes.
    ///
    /// # Errors
    /// Why the move is refused, or a per-move hook's failure.
    pub fn play(&mut self, mv: Move) -> Result<&Position, PlayError> {
        let mut next = self.rulebook.play(self.position(), mv)?;
        self.rulebook.settle_repetition(&mut next, &self.keys);
        self.keys.push(next.key());
        self.positions.push(next);
        self.moves.push(mv);
        Ok(self.position())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(mv)
    }
}
