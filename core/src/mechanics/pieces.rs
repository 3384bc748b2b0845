//! Pieces that move (`pieces()`, `steps(cell)`, `jumps(cell)`): how many
//! marks a side has, and where a placed one may go once all are placed.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet};
use crate::position::UNLIMITED;
use crate::script::hooks::HookId;
use rhai::Dynamic;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "pieces",
    hooks: &[HookId::Pieces, HookId::Steps, HookId::Jumps],
    build,
};

/// A jump: the destination and the cells that must be empty in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// Where the piece lands.
    pub to: Cell,
    /// Cells jumped over; all must be empty.
    pub over: CellSet,
}

/// Reads `pieces()`, then `steps(cell)` and `jumps(cell)` for every cell.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let n = load.grid.len();
    t.pieces = match load.call(HookId::Pieces, ())? {
        None => UNLIMITED,
        Some(v) => match load.int(HookId::Pieces, "pieces()", &v)? {
            None => UNLIMITED,
            Some(p) if (1..=n as i64).contains(&p) => p as u16,
            Some(p) => {
                return Err(load.bad(
                    HookId::Pieces,
                    format!("pieces() is {p}: expected 1 to {n}, or () for unlimited"),
                ));
            }
        },
    };

    let mut steps = vec![CellSet::EMPTY; n];
    let mut jumps = vec![Vec::new(); n];
    for c in load.grid.cells() {
        let name = load.grid.name(c);
        if let Some(v) = load.call(HookId::Steps, (c.0 as i64,))? {
            for to in load.cells(HookId::Steps, &format!("steps({name})"), v)? {
                if to == c {
                    return Err(load.bad(
                        HookId::Steps,
                        format!("steps({name}) contains {name} itself"),
                    ));
                }
                steps[c.index()].insert(to);
            }
        }
        if let Some(v) = load.call(HookId::Jumps, (c.0 as i64,))? {
            for (i, j) in load
                .array(HookId::Jumps, &format!("jumps({name})"), v)?
                .into_iter()
                .enumerate()
            {
                let what = format!("jumps({name}), item {}", i + 1);
                let map = j.try_cast::<rhai::Map>().ok_or_else(|| {
                    load.bad(
                        HookId::Jumps,
                        format!("{what}: expected #{{ to: cell, over: [cells] }}"),
                    )
                })?;
                if let Some(key) = map.keys().find(|k| !["to", "over"].contains(&k.as_str())) {
                    return Err(load.bad(
                        HookId::Jumps,
                        format!("{what}: unknown key `{key}`, expected `to` or `over`"),
                    ));
                }
                let to = load.cell(
                    HookId::Jumps,
                    &format!("{what}, `to`"),
                    map.get("to").unwrap_or(&Dynamic::UNIT),
                )?;
                let over = match map.get("over") {
                    Some(o) => load.cells(HookId::Jumps, &format!("{what}, `over`"), o.clone())?,
                    None => Vec::new(),
                };
                if to == c || over.contains(&to) || over.contains(&c) {
                    return Err(load.bad(HookId::Jumps, format!("{what}: a jump must land on another cell than it starts from or passes over")));
                }
                jumps[c.index()].push(Jump {
                    to,
                    over: over.into_iter().collect(),
                });
            }
        }
    }
    t.steps = steps;
    t.jumps = jumps;
    Ok(())
}
