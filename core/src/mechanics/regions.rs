//! Regions (sub-boards) and the redirect (`regions()`, `region_lines()`,
//! `redirect(cell)`, `region_name(r)`): boards of boards, each move sending the next.

use super::load::Load;
use super::words::{FullRegion, LineResult};
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::position::{BySide, Ending, NO_REGION, Position, Side};
use crate::script::describe;
use crate::script::hooks::HookId;
use crate::setup_error::{SetupError, SetupErrorKind};
use std::ops::Range;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "regions",
    hooks: &[
        HookId::Regions,
        HookId::RegionLines,
        HookId::Redirect,
        HookId::RegionName,
    ],
    build,
};

/// Reads the regions, the lines of regions, the redirect and the names.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let (regions, region_of, region_lines, redirect) = regions(load, &t.lines)?;
    let mut region_names = Vec::new();
    for r in 0..regions.len() {
        let Some(v) = load.call(HookId::RegionName, (r as i64,))? else {
            break;
        };
        let shown = describe(&v);
        let name = v.into_string().map_err(|_| {
            load.bad(
                HookId::RegionName,
                format!("region_name({r}): expected a string, found {shown}"),
            )
        })?;
        region_names.push(name);
    }

    t.regions = regions;
    t.region_of = region_of;
    t.region_lines = region_lines;
    t.redirect = redirect;
    t.region_names = region_names;
    Ok(())
}

#[allow(clippy::type_complexity)]
fn regions(
    load: &Load<'_>,
    lines: &[Vec<Cell>],
) -> Result<(Vec<CellSet>, Vec<u8>, Vec<Vec<u32>>, Vec<u8>), RulebookError> {
    let n = load.grid.len();
    let Some(v) = load.call(HookId::Regions, ())? else {
        for hook in [HookId::RegionLines, HookId::Redirect, HookId::RegionName] {
            if load.host.defines(hook) {
                return Err(load.bad(
                    hook,
                    format!("`{}` needs regions: define `regions()` too", hook.name()),
                ));
            }
        }
        return Ok((Vec::new(), Vec::new(), Vec::new(), Vec::new()));
    };
    let mut regions = Vec::new();
    let mut region_of = vec![NO_REGION; n];
    for (i, r) in load
        .array(HookId::Regions, "regions()", v)?
        .into_iter()
        .enumerate()
    {
        let cells = load.cells(HookId::Regions, &format!("region {i}"), r)?;
        for &c in &cells {
            if region_of[c.index()] != NO_REGION {
                return Err(load.bad(
                    HookId::Regions,
                    format!(
                        "cell {} is in regions {} and {i}",
                        load.grid.name(c),
                        region_of[c.index()]
                    ),
                ));
            }
            region_of[c.index()] = i as u8;
        }
        regions.push(cells.into_iter().collect::<CellSet>());
        if regions.len() > 32 {
            return Err(load.bad(HookId::Regions, "more than 32 regions".into()));
        }
    }
    if let Some(c) = load
        .grid
        .cells()
        .find(|c| region_of[c.index()] == NO_REGION)
    {
        return Err(load.bad(
            HookId::Regions,
            format!(
                "cell {} is in no region: regions must cover the board",
                load.grid.name(c)
            ),
        ));
    }
    for (i, line) in lines.iter().enumerate() {
        if line
            .iter()
            .any(|c| region_of[c.index()] != region_of[line[0].index()])
        {
            return Err(load.bad(
                HookId::Lines,
                format!(
                    "the {} line it returned crosses regions: with regions, every line lies inside one",
                    crate::ordinal::ordinal(i + 1)
                ),
            ));
        }
    }
    let count = regions.len();
    let region_lines = region_lines(load, count)?;
    let redirect = redirect(load, count)?;
    Ok((regions, region_of, region_lines, redirect))
}

/// `region_lines()`: per region, the lines of regions through it, each as a
/// mask over region numbers.
fn region_lines(load: &Load<'_>, count: usize) -> Result<Vec<Vec<u32>>, RulebookError> {
    let v = load.call(HookId::RegionLines, ())?.ok_or_else(|| {
        load.bad(
            HookId::Regions,
            "regions need `region_lines()`: which lines of regions win the game".into(),
        )
    })?;
    let mut region_lines = vec![Vec::new(); count];
    for (i, l) in load
        .array(HookId::RegionLines, "region_lines()", v)?
        .into_iter()
        .enumerate()
    {
        let what = format!("region line {}", i + 1);
        let mut mask = 0u32;
        for r in load.array(HookId::RegionLines, &what, l)? {
            match load.int(HookId::RegionLines, &what, &r)? {
                Some(r) if (0..count as i64).contains(&r) => mask |= 1 << r,
                _ => {
                    return Err(load.bad(
                        HookId::RegionLines,
                        format!("{what}: expected region numbers 0 to {}", count - 1),
                    ));
                }
            }
        }
        for (r, through) in region_lines.iter_mut().enumerate() {
            if mask & (1 << r) != 0 {
                through.push(mask);
            }
        }
    }
    Ok(region_lines)
}

/// `redirect(cell)` for every cell: the region the next move is sent to.
fn redirect(load: &Load<'_>, count: usize) -> Result<Vec<u8>, RulebookError> {
    let n = load.grid.len();
    let mut redirect = vec![NO_REGION; n];
    for c in load.grid.cells() {
        if let Some(v) = load.call(HookId::Redirect, (c.0 as i64,))? {
            let what = format!("redirect({})", load.grid.name(c));
            match load.int(HookId::Redirect, &what, &v)? {
                None => {}
                Some(r) if (0..count as i64).contains(&r) => redirect[c.index()] = r as u8,
                Some(r) => {
                    return Err(load.bad(
                        HookId::Redirect,
                        format!(
                            "{what} is {r}: expected a region number 0 to {}, or ()",
                            count - 1
                        ),
                    ));
                }
            }
        }
    }
    Ok(redirect)
}

/// A region a placement closed: which, and who holds it now.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Closed {
    /// The region's number.
    pub region: usize,
    /// Its holders, the mover's line first; none for a full region that
    /// belongs to nobody.
    pub holders: [Option<Side>; 2],
}

impl Mechanics {
    /// After a mark of `mark` by `mover` on `to`, in a rulebook with regions:
    /// the region is won by a line or closed when full, held as the rulebook
    /// says, and a line of held regions decides the game. Then the redirect.
    #[inline(always)]
    pub(crate) fn settle_region<const W: usize>(
        &self,
        p: &mut Position,
        to: Cell,
        mark: Side,
        mover: Side,
        line: bool,
    ) {
        let t = self;
        let occupied = p.occupied_in::<W>();
        if let Some(c) = t.closing::<W>(p.regions_closed, occupied, to, mark, mover, line) {
            p.regions_closed |= 1 << c.region;
            let closed = p.closed_cells.prefix::<W>() | t.regions[c.region].prefix::<W>();
            p.closed_cells.set_prefix(closed);
            for h in c.holders.into_iter().flatten() {
                *p.regions_won.get_mut(h) |= 1 << c.region;
            }
            if let Some(h) = t.region_line(c, |h| *p.regions_won.get(h)) {
                p.result = Some((t.line_result.outcome(h), Ending::Line));
            }
        }
        p.target = t.sent_to(to, t.fillable_in::<W>(p));
    }

    /// The region of `to` if the mark just placed there closes it (a line,
    /// or the region full): `closed` are the regions closed before,
    /// `occupied` the cells taken now.
    #[inline(always)]
    pub(crate) fn closing<const W: usize>(
        &self,
        closed: u32,
        occupied: Bits<W>,
        to: Cell,
        mark: Side,
        mover: Side,
        line: bool,
    ) -> Option<Closed> {
        let r = self.region_of[to.index()] as usize;
        if closed & (1 << r) != 0 {
            return None;
        }
        let full = self.regions[r].prefix::<W>().is_subset(occupied);
        // The mover's lines are judged first.
        let holders = match (line, full, self.full_region) {
            (true, _, _) => [Some(self.line_result.holder(mark, mover)), None],
            (false, true, FullRegion::Mover) => [Some(mover), None],
            (false, true, FullRegion::Both) => [Some(mover), Some(mover.other())],
            _ => [None, None],
        };
        (line || full).then_some(Closed { region: r, holders })
    }

    /// The first holder of the region `c` closed whose regions held now
    /// (`held`) make a line of regions through it: that side's line decides.
    #[inline(always)]
    pub(crate) fn region_line(&self, c: Closed, held: impl Fn(Side) -> u32) -> Option<Side> {
        c.holders.into_iter().flatten().find(|&h| {
            let held = held(h);
            self.region_lines[c.region].iter().any(|&l| l & !held == 0)
        })
    }

    /// The region a mark on `to` sends the next move to, where `fillable`
    /// are the cells a mark could fill now; none where the region named has
    /// no such cell (closed, or with support() every empty cell still
    /// waiting): a free choice (U4).
    #[inline(always)]
    pub(crate) fn sent_to<const W: usize>(&self, to: Cell, fillable: Bits<W>) -> u8 {
        let target = self.redirect[to.index()];
        if target != NO_REGION
            && (self.regions[target as usize].prefix::<W>() & fillable).is_empty()
        {
            NO_REGION
        } else {
            target
        }
    }
}

// The position text's part: the target region (field 4), and who holds
// each region (field 5) where the marks cannot tell.
impl Mechanics {
    /// Whether who holds a region depends on who moved, which the marks do
    /// not show: then the position text has a fifth field, the regions held
    /// by X and by O (`1,3/2`, `-` for none).
    pub(crate) fn held_in_text(&self) -> bool {
        !self.regions.is_empty()
            && (self.full_region == FullRegion::Mover
                || matches!(
                    self.line_result,
                    LineResult::MoverWins | LineResult::MoverLoses
                ))
    }

    /// The fifth field: the regions held by X, then by O (`1,3/2`).
    pub(crate) fn held_field(&self, pos: &Position) -> String {
        let list = |side: Side| {
            let held: Vec<String> = (0..self.regions.len())
                .filter(|r| pos.regions_won(side) & (1 << r) != 0)
                .map(|r| (r + 1).to_string())
                .collect();
            if held.is_empty() {
                "-".to_string()
            } else {
                held.join(",")
            }
        };
        format!("{}/{}", list(Side::X), list(Side::O))
    }

    /// Reads the fifth field: regions held by X, then by O (`1,3/2`).
    pub(crate) fn parse_held(&self, field: &str) -> Result<BySide<u32>, SetupErrorKind> {
        let count = self.regions.len();
        let bad = || SetupErrorKind::HeldSyntax(field.to_string());
        let (x, o) = field.split_once('/').ok_or_else(bad)?;
        let list = |text: &str| -> Result<u32, SetupErrorKind> {
            if text == "-" {
                return Ok(0);
            }
            text.split(',')
                .try_fold(0u32, |mask, n| match n.parse::<usize>() {
                    Ok(n) if (1..=count).contains(&n) => Ok(mask | 1 << (n - 1)),
                    _ => Err(bad()),
                })
        };
        Ok(BySide {
            x: list(x)?,
            o: list(o)?,
        })
    }

    /// Works out from the marks which regions are won and closed, as if
    /// `mover` made the last move; `given` is the fifth field, where the
    /// marks cannot tell. Returns the sides holding a line of regions.
    /// `board` and `fifth` are the bytes of the board field and of the
    /// fifth field (or where it would go).
    pub(crate) fn settle_held(
        &self,
        pos: &mut Position,
        given: Option<BySide<u32>>,
        mover: Side,
        board: &Range<usize>,
        fifth: &Range<usize>,
    ) -> Result<Vec<Side>, SetupError> {
        let fail = |at: &Range<usize>, kind| SetupError::new(kind, at.clone());
        let rule = self.line_result;
        for (r, &cells) in self.regions.iter().enumerate() {
            let lines: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|&s| self.has_line(s, pos.marks(s), pos.marks(s.other()), cells))
                .collect();
            let bit = 1u32 << r;
            let full = cells.is_subset(pos.occupied());
            // The one side the fifth field says holds region r.
            let said = |full: bool| -> Result<Side, SetupError> {
                match given.map(|g| (g.x & bit != 0, g.o & bit != 0)) {
                    Some((true, false)) => Ok(Side::X),
                    Some((false, true)) => Ok(Side::O),
                    _ => Err(fail(
                        fifth,
                        SetupErrorKind::HolderUnnamed { region: r, full },
                    )),
                }
            };
            let one;
            let held: &[Side] = match (&lines[..], full) {
                ([mark], _) => match rule {
                    LineResult::MoverWins | LineResult::MoverLoses => {
                        one = [said(false)?];
                        &one
                    }
                    _ => {
                        one = [rule.holder(*mark, mover)];
                        &one
                    }
                },
                ([], true) => match self.full_region {
                    FullRegion::Nobody => &[],
                    FullRegion::Both => &Side::ALL,
                    FullRegion::Mover => {
                        one = [said(true)?];
                        &one
                    }
                },
                ([], false) => &[],
                _ => return Err(fail(board, SetupErrorKind::RegionLines(r))),
            };
            if let Some(g) = given {
                let listed = (g.x & bit != 0, g.o & bit != 0);
                let holds = (held.contains(&Side::X), held.contains(&Side::O));
                if listed != holds {
                    return Err(fail(fifth, SetupErrorKind::HeldMismatch(r)));
                }
            }
            if held.is_empty() && !full && lines.is_empty() {
                continue;
            }
            for &h in held {
                *pos.regions_won.get_mut(h) |= bit;
            }
            pos.regions_closed |= bit;
            pos.closed_cells |= cells;
        }
        Ok(Side::ALL
            .into_iter()
            .filter(|&s| {
                let won = pos.regions_won(s);
                self.region_lines.iter().flatten().any(|&l| l & !won == 0)
            })
            .collect())
    }

    /// Reads the target region (field 4, not `-`) and checks that a move
    /// can have sent the game there.
    pub(crate) fn parse_target(&self, field: &str, pos: &Position) -> Result<u8, SetupErrorKind> {
        let count = self.regions.len();
        if count == 0 {
            return Err(SetupErrorKind::TargetNoRegions(field.to_string()));
        }
        match field.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => {
                let r = n - 1;
                let fillable = self.regions[r] & self.fillable_in(pos);
                if pos.regions_closed & (1 << r) != 0 {
                    Err(SetupErrorKind::TargetClosed(r))
                } else if fillable.is_empty() {
                    Err(SetupErrorKind::TargetFull(r))
                } else if pos.occupied().is_empty() {
                    // Only a move sends the game to a board, and none was made.
                    Err(SetupErrorKind::TargetEmpty(r))
                } else if !(pos.occupied().into_iter())
                    .any(|c| usize::from(self.redirect[c.index()]) == r)
                {
                    // The last move sent the game here: its mark is on a
                    // cell that sends to `r` (either mark, as wild plays).
                    Err(SetupErrorKind::TargetUnexplained(r))
                } else {
                    Ok(r as u8)
                }
            }
            _ => Err(SetupErrorKind::TargetRange {
                field: field.to_string(),
                count,
            }),
        }
    }
}
