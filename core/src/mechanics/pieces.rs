//! Pieces that move (`pieces()`, `steps(cell)`, `jumps(cell)`): how many
//! marks a side has, and where a placed one may go once all are placed —
//! read at load, then listed, found and checked in play.

use super::lines::WinCheck;
use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::position::{Move, MoveList, Position, UNLIMITED};
use crate::refusal::Refusal;
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
            // 0: no mark is placed; `slides()` must then give every move.
            Some(p) if (0..=n as i64).contains(&p) => p as u16,
            Some(p) => {
                return Err(load.bad(
                    HookId::Pieces,
                    format!(
                        "pieces() is {p}: expected 1 to {n}, () for unlimited, or 0 with slides()"
                    ),
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
                        crate::suggest::with_hint(
                            format!("{what}: unknown key `{key}`, expected `to` or `over`"),
                            key,
                            ["to", "over"],
                        ),
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
    let mut into = vec![CellSet::EMPTY; n];
    for (from, to) in steps.iter().enumerate() {
        for to in *to {
            into[to.index()].insert(Cell(from as u16));
        }
    }
    t.steps = steps;
    t.steps_into = into;
    t.jumps = jumps;
    Ok(())
}

// Play: once a side's pieces are all placed, it moves one a turn.
impl Mechanics {
    /// Pushes every step and jump of the side to move's pieces that lands
    /// on a `free` cell.
    #[inline(always)]
    pub(crate) fn push_piece_moves<const W: usize>(
        &self,
        pos: &Position,
        free: Bits<W>,
        out: &mut MoveList,
    ) {
        if self.flies(pos) {
            return self.push_flights(pos, free, out);
        }
        let occupied = pos.occupied_in::<W>();
        for from in pos.marks.get(pos.turn).prefix::<W>() {
            for to in self.steps[from.index()].prefix::<W>() & free {
                out.push(Move::Step { from, to });
            }
            for j in &self.jumps[from.index()] {
                if free.contains(j.to) && !j.over.prefix::<W>().intersects(occupied) {
                    out.push(Move::Step { from, to: j.to });
                }
            }
        }
    }

    /// Whether some piece of the side to move can step or jump to a `free` cell.
    #[inline(always)]
    pub(crate) fn has_piece_move<const W: usize>(&self, pos: &Position, free: Bits<W>) -> bool {
        let occupied = pos.occupied_in::<W>();
        if self.flies(pos) {
            return !pos.marks.get(pos.turn).prefix::<W>().is_empty() && !free.is_empty();
        }
        pos.marks
            .get(pos.turn)
            .prefix::<W>()
            .into_iter()
            .any(|from| {
                !(self.steps[from.index()].prefix::<W>() & free).is_empty()
                    || self.jumps[from.index()]
                        .iter()
                        .any(|j| free.contains(j.to) && !j.over.prefix::<W>().intersects(occupied))
            })
    }

    /// Why the piece on `from` may not go to the empty cell `to`, if it may
    /// not: neither a step nor a jump leads there, or the jump is blocked.
    pub(crate) fn check_piece_move(
        &self,
        pos: &Position,
        from: Cell,
        to: Cell,
    ) -> Result<(), Refusal> {
        if self.steps[from.index()].contains(to) || self.flies(pos) {
            return Ok(());
        }
        match self.jumps[from.index()].iter().find(|j| j.to == to) {
            Some(j) if j.over.intersects(pos.occupied()) => Err(Refusal::JumpBlocked(from, to)),
            Some(_) => Ok(()),
            None => Err(Refusal::Unreachable(from, to)),
        }
    }
}

// What an exact table of every position may assume (`search::table`).
impl Mechanics {
    /// Whether a table of every position can be solved from the ends
    /// backwards (`search::table`), which needs three things:
    /// - a position is no more than the cells each side holds and the side
    ///   to move (the hands follow from the counts of a one-word board);
    /// - every move is a placement from hand or a step or jump to another
    ///   cell, each listed once, whose way back is a move too (symmetric
    ///   steps; jumps back over the same cells), so the positions that lead
    ///   to one are found by moving its pieces back and the moves counted
    ///   forwards are the moves found backwards;
    /// - a line, once made, stays made while marks are added, and stands
    ///   only through a cell a mark has just reached (`wins(n)` is "k or
    ///   more", the windows' test): a position with a line standing is no
    ///   position of the game.
    ///
    /// Flying never happens here: with no removals, a side keeps all its
    /// pieces, more than `fly_at()`.
    pub(crate) fn retractable(&self) -> bool {
        let symmetric_steps = self.steps.iter().enumerate().all(|(c, to)| {
            to.into_iter()
                .all(|d: Cell| self.steps[d.index()].contains(Cell(c as u16)))
        });
        let symmetric_jumps = self.jumps.iter().enumerate().all(|(c, jumps)| {
            jumps.iter().all(|j| {
                self.jumps[j.to.index()]
                    .iter()
                    .any(|back| back.to.index() == c && back.over == j.over)
            })
        });
        // One move a destination: a jump to a cell a step or another jump
        // reaches would be counted twice one way and once the other.
        let listed_once = self.jumps.iter().enumerate().all(|(c, jumps)| {
            jumps.iter().enumerate().all(|(i, j)| {
                !self.steps[c].contains(j.to) && jumps[..i].iter().all(|k| k.to != j.to)
            })
        });
        let monotone = |w: &WinCheck| !matches!(w, WinCheck::Runs { .. });
        self.pieces != UNLIMITED
            && self.words == 1
            && self.all.words()[0] == u64::MAX >> (64 - self.all.count().max(1))
            && self.turns.is_alternating()
            && self.marks == super::words::Marks::Own
            && self.regions.is_empty()
            && !self.gravity
            && !self.captures.any()
            && self.keep.is_none()
            && !self.judges_whole_board()
            && !self.removes()
            && self.forbidden.is_empty()
            && !self.has_any_patterns()
            && monotone(&self.win)
            && (!self.sided || monotone(&self.win_o))
            && symmetric_steps
            && symmetric_jumps
            && listed_once
    }
}
