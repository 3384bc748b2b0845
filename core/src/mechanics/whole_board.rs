//! Lines judged on the whole board (`both_lines()`): after a move that
//! rewrites many cells (a slide, a twist), either side may hold a line, and
//! `both_lines()` says who wins when both do.
//!
//! Everything the mechanic does lives here: reading its hook, and judging
//! the lines after such a move or in a set-up position.

use super::load::{Load, Word};
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::position::{BySide, Ending, Outcome, Position, Side};
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "whole_board",
    hooks: &[HookId::BothLines],
    build,
};

/// Who wins when a move leaves lines for both sides (`both_lines()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BothLines {
    /// The side that moved.
    MoverWins,
    /// The other side.
    OpponentWins,
    /// Nobody.
    Draw,
}

impl Word for BothLines {
    const WORDS: &'static [(&'static str, BothLines)] = &[
        ("draw", BothLines::Draw),
        ("mover wins", BothLines::MoverWins),
        ("opponent wins", BothLines::OpponentWins),
    ];
}

/// Reads `both_lines()`, which only a move that rewrites the board needs.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    t.both_lines = load.word::<BothLines>(HookId::BothLines)?;
    if !t.judges_whole_board() && load.host.defines(HookId::BothLines) {
        return Err(load.bad(
            HookId::BothLines,
            "both_lines() without slides(), twists() or sizes(): only a move that rewrites the board can make lines for both sides".to_string(),
        ));
    }
    Ok(())
}

impl Mechanics {
    /// Whether moves rewrite cells beyond the one they fill (slides,
    /// twists, pieces lifted off a stack), so that lines are judged on the
    /// whole board for both sides.
    pub(crate) fn judges_whole_board(&self) -> bool {
        !self.slides.all.is_empty() || !self.twists.all.is_empty() || self.has_stacks()
    }

    /// Who wins when a move leaves lines for both sides, where moves
    /// rewrite the board (slides, twists, stacks); `None` elsewhere.
    pub fn both_lines(&self) -> Option<BothLines> {
        self.judges_whole_board().then_some(self.both_lines)
    }

    /// Judges the lines on the whole board after `mover`'s last move (a
    /// set-up position's).
    pub(crate) fn judge_whole_board(&self, p: &mut Position, mover: Side) {
        let lines = BySide {
            x: self.has_line(Side::X, p.marks(Side::X), p.marks(Side::O), self.all),
            o: self.has_line(Side::O, p.marks(Side::O), p.marks(Side::X), self.all),
        };
        p.result = self.judge_lines(lines, mover).map(|o| (o, Ending::Line));
    }

    /// The result when each side holds a line or not after `mover`'s move:
    /// one side's line as `line_result()` says, both sides' as
    /// `both_lines()` says.
    #[inline(always)]
    pub(crate) fn judge_lines(&self, lines: BySide<bool>, mover: Side) -> Option<Outcome> {
        let side = mover;
        let holder = |s: Side| self.line_result.holder(s, side);
        match (*lines.get(side), *lines.get(side.other())) {
            (false, false) => None,
            (true, false) => Some(self.line_result.outcome(holder(side))),
            (false, true) => Some(self.line_result.outcome(holder(side.other()))),
            (true, true) => Some(match self.both_lines {
                BothLines::MoverWins => Outcome::Win(side),
                BothLines::OpponentWins => Outcome::Win(side.other()),
                BothLines::Draw => Outcome::Draw,
            }),
        }
    }
}
