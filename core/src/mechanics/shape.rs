//! Boards that are not rectangles (`shape()`): the cells of the grid that
//! exist for play. The rest is drawn as blank, named by no move and left out
//! of the position text; every other hook may name only the cells here.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::CellSet;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "shape",
    hooks: &[HookId::Shape],
    build,
};

/// Reads `shape()`: a set of cells, at least one; the whole grid without it.
/// Read first, so the hooks after it are checked against it.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let Some(v) = load.call(HookId::Shape, ())? else {
        return Ok(());
    };
    let cells: CellSet = load
        .cells(HookId::Shape, "shape()", v)?
        .into_iter()
        .collect();
    if cells.is_empty() {
        return Err(load.bad(
            HookId::Shape,
            "shape() is empty: a board needs at least one cell".to_string(),
        ));
    }
    t.all = cells;
    load.shape.set(cells);
    Ok(())
}

impl Mechanics {
    /// The cells that exist for play: the whole grid unless `shape()` says.
    pub fn cells(&self) -> CellSet {
        self.all
    }

    /// Whether `shape()` leaves some cell of the grid out of the board.
    pub fn is_shaped(&self, grid: crate::geometry::Grid) -> bool {
        self.all != grid.all()
    }
}
