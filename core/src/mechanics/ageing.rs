//! Marks that age (`keep_marks()`): each side keeps at most so many marks
//! on the board, and placing one more makes its oldest vanish. The age
//! order says which goes next, so it is part of the position, of its text
//! and of its key.
//!
//! Everything the mechanic does lives here: reading its hook, the vanishing
//! when a mark is placed, its field of the position text and what that field
//! must agree with, and its line of the board's status.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet, Grid};
use crate::position::{Ages, BySide, MAX_KEPT, Position, Side};
use crate::script::hooks::HookId;
use crate::setup_error::SetupErrorKind;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "ageing",
    hooks: &[HookId::KeepMarks],
    build,
};

/// Reads `keep_marks()`: 1 to [`MAX_KEPT`], or no limit; and refuses it
/// beside a mechanic it cannot go with.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let hook = HookId::KeepMarks;
    t.keep = match load.call(hook, ())? {
        None => None,
        Some(v) => match load.int(hook, "keep_marks()", &v)? {
            None | Some(0) => None,
            Some(n) if (1..=MAX_KEPT as i64).contains(&n) => Some(n as u8),
            Some(n) => {
                return Err(load.bad(
                    hook,
                    format!(
                        "keep_marks() is {n}: expected 1 to {MAX_KEPT}, or () / 0 for no limit"
                    ),
                ));
            }
        },
    };
    if t.keep.is_some() {
        use super::Primitive as P;
        let clash = [
            P::Pieces,
            P::ChosenMarks,
            P::Support,
            P::Regions,
            P::Captures,
            P::TurnMarks,
        ];
        if let Some(what) = t.first_in_use(&clash) {
            return Err(load.bad(
                hook,
                format!("keep_marks() cannot go with {what}: marks that vanish are each side's own, placed one a turn on a plain board"),
            ));
        }
    }
    Ok(())
}

// Play: the oldest mark vanishes before the new one is judged.
impl Mechanics {
    /// Records a mark of `side` placed on `to`; when the side already keeps
    /// as many as it may, its oldest leaves the board first. The caller has
    /// checked that `to` was empty before the move.
    #[inline]
    pub(crate) fn age(&self, p: &mut Position, side: Side, to: Cell) {
        let Some(keep) = self.keep else {
            return;
        };
        let ages = p.ages.get_mut(side);
        if ages.len() >= keep as usize
            && let Some(oldest) = ages.pop_oldest()
        {
            p.marks.get_mut(side).remove(oldest);
        }
        p.ages.get_mut(side).push(to);
    }
}

/// The position text's field of marks that age: each side's marks oldest
/// first, X's then O's (`a1,b2,c3/c1,a3`, `-` for none).
pub(crate) fn field(grid: Grid, pos: &Position) -> String {
    let list = |side: Side| {
        let names: Vec<String> = pos
            .ages(side)
            .cells()
            .map(|c| grid.name(c).to_string())
            .collect();
        if names.is_empty() {
            "-".to_string()
        } else {
            names.join(",")
        }
    };
    format!("{}/{}", list(Side::X), list(Side::O))
}

/// Reads the field of marks that age against the marks on the board: each
/// side lists exactly its marks, at most `keep` of them.
pub(crate) fn parse_field(
    grid: Grid,
    keep: u8,
    field: &str,
    marks: &BySide<CellSet>,
) -> Result<BySide<Ages>, SetupErrorKind> {
    let bad = || SetupErrorKind::AgesSyntax(field.to_string());
    let (x, o) = field.split_once('/').ok_or_else(bad)?;
    let list = |side: Side, text: &str| -> Result<Ages, SetupErrorKind> {
        let mut cells = Vec::new();
        if text != "-" {
            for name in text.split(',') {
                let cell = grid.parse_cell(name).ok_or_else(bad)?;
                if cells.contains(&cell) {
                    return Err(bad());
                }
                cells.push(cell);
            }
        }
        let listed: CellSet = cells.iter().copied().collect();
        if listed != *marks.get(side) || cells.len() > keep as usize {
            return Err(SetupErrorKind::AgesMismatch { side, keep });
        }
        Ages::from_cells(&cells).ok_or(SetupErrorKind::AgesMismatch { side, keep })
    };
    Ok(BySide {
        x: list(Side::X, x)?,
        o: list(Side::O, o)?,
    })
}

/// The marks on the board against the marks each side keeps: no side
/// holds more. `Ok(true)` once both hold all they may: each placement then
/// makes one vanish, and either side may be to move; `Ok(false)`: the
/// usual counts say whose turn it is.
pub(crate) fn check_counts(keep: u8, count: BySide<u32>) -> Result<bool, SetupErrorKind> {
    for side in Side::ALL {
        let found = *count.get(side);
        if found > u32::from(keep) {
            return Err(SetupErrorKind::AgesTooMany { side, keep, found });
        }
    }
    Ok(count.x == u32::from(keep) && count.o == u32::from(keep))
}

/// Without the field, the order of age is known only where a side has at
/// most one mark; else the text must give it.
pub(crate) fn unstated(marks: &BySide<CellSet>) -> Result<BySide<Ages>, SetupErrorKind> {
    let one = |side: Side| {
        let cells: Vec<Cell> = marks.get(side).into_iter().collect();
        match cells.len() {
            0 | 1 => Ok(Ages::from_cells(&cells).unwrap_or_default()),
            _ => Err(SetupErrorKind::AgesUnstated(side)),
        }
    };
    Ok(BySide {
        x: one(Side::X)?,
        o: one(Side::O)?,
    })
}

/// The board's status lines for marks that age, X's then O's: each
/// side's marks oldest first, and, while the game goes on, which vanishes
/// at its next placement once it keeps all it may.
pub fn status(grid: Grid, keep: u8, pos: &Position) -> [String; 2] {
    Side::ALL.map(|side| {
        let ages = pos.ages(side);
        let order: Vec<String> = ages.cells().map(|c| grid.name(c).to_string()).collect();
        match ages.cells().next() {
            None => format!("{side} keeps {keep} marks: none yet"),
            Some(oldest) if ages.len() >= keep as usize && !pos.is_over() => format!(
                "{side} keeps {keep} marks, oldest first: {} ({} vanishes next)",
                order.join(" "),
                grid.name(oldest)
            ),
            Some(_) => format!(
                "{side} keeps {keep} marks, oldest first: {}",
                order.join(" ")
            ),
        }
    })
}
