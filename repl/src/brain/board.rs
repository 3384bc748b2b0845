//! The board in the protocol's terms: `BOARD` blocks, and stones at
//! coordinates counted from the top left.

use super::{Answer, Brain, Skip, clip};
use gridrules_core::gomocup;
use gridrules_core::{Cell, Game, Move};
use std::time::Instant;

impl Brain {
    /// A line after `BOARD`: a stone, or `DONE`.
    pub(super) fn board_line(&mut self, line: &str, started: Instant) -> Answer {
        if line.is_empty() {
            return Answer::none();
        }
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board.take().unwrap_or_default();
            return match self.set_board(&stones) {
                Ok(()) => self.reply(started),
                Err(reason) => Answer::error(reason),
            };
        }
        let fields: Vec<Option<u32>> = line.split(',').map(|f| f.trim().parse().ok()).collect();
        match fields[..] {
            [Some(x), Some(y), Some(f @ 1..=3)] => {
                // Checked as it comes, so that a block holds at most a
                // board's worth of stones, however long it runs.
                let (w, h) = self.size.unwrap_or_default();
                let stones = self.board.get_or_insert_default();
                if x >= w || y >= h {
                    self.refuse_board(format!("{x},{y} is off the board ({w}×{h})"))
                } else if stones.iter().any(|&(a, b, _)| (a, b) == (x, y)) {
                    self.refuse_board(format!("{x},{y} is given twice in BOARD"))
                } else {
                    stones.push((x, y, f as u8));
                    Answer::none()
                }
            }
            _ => self.refuse_board(format!(
                "x,y,field or DONE expected after BOARD, not `{}`",
                clip(line)
            )),
        }
    }

    /// The board refused with one answer: the rest of the block, to its
    /// `DONE`, is read and set aside.
    fn refuse_board(&mut self, why: String) -> Answer {
        self.board = None;
        self.skipping = Some(Skip::RefusedBoard);
        Answer::error(why)
    }

    /// A new game with `stones` on the board (field 1 the brain's, 2 the
    /// opponent's), the brain to move: X if both have as many stones, O if
    /// the opponent has one more.
    fn set_board(&mut self, stones: &[(u32, u32, u8)]) -> Result<(), String> {
        if stones.iter().any(|s| s.2 == 3) {
            return Err(
                "field 3 (a winning line's stone) belongs to the continuous game, which is not supported"
                    .to_string(),
            );
        }
        self.drop_game();
        let game = self.game()?;
        let mine: Vec<(u32, u32)> = stones
            .iter()
            .filter(|s| s.2 == 1)
            .map(|s| (s.0, s.1))
            .collect();
        let theirs: Vec<(u32, u32)> = stones
            .iter()
            .filter(|s| s.2 == 2)
            .map(|s| (s.0, s.1))
            .collect();
        let (first, second) = if mine.len() == theirs.len() {
            (&mine, &theirs)
        } else if theirs.len() == mine.len() + 1 {
            (&theirs, &mine)
        } else {
            return Err(format!(
                "{} own stones and {} of the opponent's: the brain is to move with as many, or one fewer",
                mine.len(),
                theirs.len()
            ));
        };
        // Alternately, in the order given: a line on the board at the end
        // would be there in any order, and without one no order ends early.
        let mut order = Vec::with_capacity(stones.len());
        for (i, &stone) in first.iter().enumerate() {
            order.push(stone);
            if let Some(&s) = second.get(i) {
                order.push(s);
            }
        }
        for &(x, y) in &order {
            cell_at(game, x, y)?;
        }
        let over = "the board holds a finished game";
        let replayed = order
            .iter()
            .try_for_each(|&(x, y)| play_stone(game, x, y, over));
        match replayed {
            Err(why) if !why.starts_with(over) => {
                // An order the rules refuse on the way (renju's first stone
                // off the centre, a pattern only that order makes): the
                // position as it stands, set up.
                self.set_up(first, second)
                    .map_err(|e| format!("{why}; set up as a position: {e}"))
            }
            other => other,
        }
    }

    /// The game replaced by the position with `first`'s stones as X and
    /// `second`'s as O, the side with fewer to move.
    fn set_up(&mut self, first: &[(u32, u32)], second: &[(u32, u32)]) -> Result<(), String> {
        let game = self.game()?;
        let rules = game.rulebook().clone();
        let g = rules.grid();
        let mut rows = vec![vec!['.'; g.width() as usize]; g.height() as usize];
        for (stones, mark) in [(first, 'X'), (second, 'O')] {
            for &(x, y) in stones {
                let cell = cell_at(game, x, y)?;
                rows[g.row(cell) as usize][g.col(cell) as usize] = mark;
            }
        }
        let board: Vec<String> = rows.iter().rev().map(|r| r.iter().collect()).collect();
        let turn = if first.len() == second.len() {
            'X'
        } else {
            'O'
        };
        let pos = rules
            .parse_position(&format!("{} {turn}", board.join("/")))
            .map_err(|e| e.to_string())?;
        let set = Game::from_position(rules, pos);
        if let Some(result) = set.result_text() {
            return Err(format!("the board holds a finished game ({result})"));
        }
        *game = set;
        Ok(())
    }
}

/// Plays a stone for the side to move at `x,y`; a finished game refuses it
/// with `over` and the result.
pub(super) fn play_stone(game: &mut Game, x: u32, y: u32, over: &str) -> Result<(), String> {
    let cell = cell_at(game, x, y)?;
    if let Some(result) = game.result_text() {
        return Err(format!("{over} ({result})"));
    }
    let mv = Move::Place {
        to: cell,
        mark: game.position().turn(),
    };
    game.play(mv).map_err(|e| format!("{x},{y}: {e}"))?;
    Ok(())
}

/// The cell at protocol coordinates `x,y` (from the top left).
pub(super) fn cell_at(game: &Game, x: u32, y: u32) -> Result<Cell, String> {
    let grid = game.rulebook().grid();
    gomocup::cell(grid, x, y).ok_or_else(|| {
        format!(
            "{x},{y} is off the board ({}×{})",
            grid.width(),
            grid.height()
        )
    })
}

/// The protocol coordinates of `cell`.
pub(super) fn xy_of(game: &Game, cell: Cell) -> (u32, u32) {
    gomocup::xy(game.rulebook().grid(), cell)
}
