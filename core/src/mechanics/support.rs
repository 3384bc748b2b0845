//! Gravity (`support(cell)`): a cell may be filled only once the cells it
//! rests on are; a move may then name a column (`d`) for the cell it lands on.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet};
use crate::position::Position;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "support",
    hooks: &[HookId::Support],
    build,
};

/// Reads `support(cell)` for every cell; the tables keep it only when some
/// cell needs support.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let (support, dependents, unsupported) = support(load)?;
    t.gravity = !unsupported.is_empty();
    if t.gravity {
        t.support = support;
        t.dependents = dependents;
    }
    t.unsupported = unsupported;
    Ok(())
}

/// `support(cell)` for every cell: the support sets, who depends on each
/// cell, and the cells unplayable on an empty board. Refuses a cell that
/// could never be filled (its support waits on itself).
fn support(load: &Load<'_>) -> Result<(Vec<CellSet>, Vec<CellSet>, CellSet), RulebookError> {
    let n = load.grid.len();
    let mut support = vec![CellSet::EMPTY; n];
    let mut dependents = vec![CellSet::EMPTY; n];
    if !load.host.defines(HookId::Support) {
        return Ok((support, dependents, CellSet::EMPTY));
    }
    for c in load.grid.cells() {
        let v = load
            .call(HookId::Support, (c.0 as i64,))?
            .unwrap_or_default();
        let what = format!("support({})", load.grid.name(c));
        for s in load.cells(HookId::Support, &what, v)? {
            support[c.index()].insert(s);
            dependents[s.index()].insert(c);
        }
    }
    // Fill the board in support order; whatever is never reached waits
    // on itself through a cycle.
    let mut filled = CellSet::EMPTY;
    loop {
        let next: CellSet = load
            .grid
            .cells()
            .filter(|c| support[c.index()].is_subset(filled))
            .collect();
        if next == filled {
            break;
        }
        filled = next;
    }
    let never = load.grid.all() & !filled;
    if let Some(c) = never.first() {
        // Follow the unfillable support down until it comes round.
        let mut path = vec![c];
        let mut at = c;
        let cycle = loop {
            at = (support[at.index()] & never)
                .first()
                .expect("an unfillable cell waits on another");
            if let Some(i) = path.iter().position(|&p| p == at) {
                break &path[i..];
            }
            path.push(at);
        };
        let names: Vec<String> = cycle
            .iter()
            .chain(cycle.first())
            .map(|&c| load.grid.name(c).to_string())
            .collect();
        return Err(load.bad(
            HookId::Support,
            format!(
                "cell {} can never be filled: support() goes round in a cycle, {}",
                load.grid.name(c),
                names.join(" → ")
            ),
        ));
    }
    let unsupported = load
        .grid
        .cells()
        .filter(|c| !support[c.index()].is_empty())
        .collect();
    Ok((support, dependents, unsupported))
}

impl Mechanics {
    /// Opens the cells that now rest on their support, after a mark on `to`.
    #[inline(always)]
    pub(crate) fn settle_support<const W: usize>(&self, p: &mut Position, to: Cell) {
        let t = self;
        let occupied = p.occupied_in::<W>();
        let open = |d: Cell| {
            t.support[d.index()].prefix::<W>().is_subset(occupied)
                && t.region_of(d)
                    .is_none_or(|r| p.regions_closed & (1 << r) == 0)
        };
        for d in t.dependents[to.index()].prefix::<W>() {
            if open(d) {
                p.closed_cells.remove(d);
            }
        }
    }
}
