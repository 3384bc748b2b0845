//! Captures (`captures(cell)`, `capture_wins()`): a placed mark takes the
//! opponent's marks in a pattern around it, and enough captures win, counted
//! as captures made (pente's five pairs) or as marks taken (Keryo-Pente's
//! fifteen stones, taken two or three at a time). Custodial pairs (two marks
//! taken between two of the mover's) are one script of this.
//!
//! Everything the mechanic does lives here: reading its hooks, taking the
//! marks when a move is made, its field of the position text and what that
//! field must agree with, and its line of the board's status.

use super::load::Load;
use super::words::Marks;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::position::{BySide, CaptureUnit as Unit, Ending, Outcome, Position, Side, UNLIMITED};
use crate::script::hooks::HookId;
use crate::setup_error::SetupErrorKind;
use rhai::Dynamic;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "captures",
    hooks: &[HookId::Captures, HookId::CaptureWins],
    build,
};

/// A capture a mark placed on a cell may make: when every `take` cell holds
/// an opponent mark and `by` an own one, the `take` marks leave the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The cells whose opponent marks are taken.
    pub take: CellSet,
    /// The cell that must hold an own mark.
    pub by: Cell,
    /// What making it adds to the mover's count: 1 where captures are
    /// counted, the marks it takes where stones are.
    pub worth: u16,
}

/// What placements capture in a rulebook.
#[derive(Debug, Clone, Default)]
pub struct Captures {
    /// Per cell: the captures a mark placed there may make; empty when the
    /// rulebook has none, and play then never looks.
    pub(crate) per_cell: Vec<Vec<Capture>>,
    /// The count that wins the game (`capture_wins()`).
    pub(crate) wins: Option<u16>,
    /// What the count counts.
    pub(crate) unit: Unit,
}

/// Reads `captures(cell)` and `capture_wins()`, and refuses captures beside
/// a mechanic they cannot go with.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let mut per_cell = per_cell(load)?;
    let (wins, unit) = wins(load, &per_cell)?;
    if unit == Unit::Stones {
        for c in per_cell.iter_mut().flatten() {
            c.worth = c.take.count() as u16;
        }
    }
    if !per_cell.is_empty() {
        let clash = [
            (t.pieces != UNLIMITED, "pieces()"),
            (t.marks != Marks::Own, "marks() other than \"own\""),
            (t.gravity, "support()"),
            (!t.regions.is_empty(), "regions()"),
            (!t.turns.is_alternating(), "turn_marks()"),
        ];
        if let Some((_, what)) = clash.iter().find(|(bad, _)| *bad) {
            return Err(load.bad(
                HookId::Captures,
                format!("captures() cannot go with {what}: captures take the opponent's placed marks off a plain board, one mark a turn"),
            ));
        }
    }
    t.captures = Captures {
        per_cell,
        wins,
        unit,
    };
    Ok(())
}

/// `captures(cell)`, for every cell.
fn per_cell(load: &Load<'_>) -> Result<Vec<Vec<Capture>>, RulebookError> {
    let hook = HookId::Captures;
    if !load.host.defines(hook) {
        return Ok(Vec::new());
    }
    let mut all = vec![Vec::new(); load.grid.len()];
    for c in load.grid.cells() {
        let name = load.grid.name(c);
        let Some(v) = load.call(hook, (c.0 as i64,))? else {
            continue;
        };
        for (i, item) in load
            .array(hook, &format!("captures({name})"), v)?
            .into_iter()
            .enumerate()
        {
            let what = format!("captures({name}), item {}", i + 1);
            let map = item.try_cast::<rhai::Map>().ok_or_else(|| {
                load.bad(
                    hook,
                    format!("{what}: expected #{{ take: [cells], by: cell }}"),
                )
            })?;
            if let Some(key) = map.keys().find(|k| !["take", "by"].contains(&k.as_str())) {
                return Err(load.bad(
                    hook,
                    format!("{what}: unknown key `{key}`, expected `take` or `by`"),
                ));
            }
            let take = load.cells(
                hook,
                &format!("{what}, `take`"),
                map.get("take").cloned().unwrap_or(Dynamic::UNIT),
            )?;
            let by = load.cell(
                hook,
                &format!("{what}, `by`"),
                map.get("by").unwrap_or(&Dynamic::UNIT),
            )?;
            if take.is_empty() {
                return Err(load.bad(hook, format!("{what}: `take` names no cell")));
            }
            if take.contains(&c) || take.contains(&by) || by == c {
                return Err(load.bad(
                    hook,
                    format!("{what}: the pattern overlaps itself: `take`, `by` and {name} must be different cells"),
                ));
            }
            all[c.index()].push(Capture {
                take: take.into_iter().collect(),
                by,
                worth: 1,
            });
        }
    }
    // None at all: the table stays empty, and play never looks at it.
    if all.iter().all(Vec::is_empty) {
        all.clear();
    }
    Ok(all)
}

/// `capture_wins()`: the count that wins, if any, and what it counts — a
/// number of captures, or `#{ stones: n }` marks taken.
fn wins(load: &Load<'_>, captures: &[Vec<Capture>]) -> Result<(Option<u16>, Unit), RulebookError> {
    let hook = HookId::CaptureWins;
    let Some(v) = load.call(hook, ())? else {
        return Ok((None, Unit::Captures));
    };
    if captures.is_empty() {
        return Err(load.bad(
            hook,
            "`capture_wins` needs captures: define `captures(cell)` too".into(),
        ));
    }
    let (unit, n) = match v.clone().try_cast::<rhai::Map>() {
        Some(map) => {
            let mut keys = map.keys().map(|k| k.as_str());
            let (Some(key), None) = (keys.next(), keys.next()) else {
                return Err(load.bad(hook, format!("capture_wins(): {WINS_SHAPE}")));
            };
            let unit = match key {
                "captures" => Unit::Captures,
                "stones" => Unit::Stones,
                _ => {
                    return Err(load.bad(
                        hook,
                        format!("capture_wins(): unknown key `{key}`; {WINS_SHAPE}"),
                    ));
                }
            };
            (
                unit,
                load.int(hook, &format!("capture_wins(), `{key}`"), &map[key])?,
            )
        }
        None => (Unit::Captures, load.int(hook, "capture_wins()", &v)?),
    };
    match n {
        None | Some(0) => Ok((None, unit)),
        Some(n) if (1..=1000).contains(&n) => Ok((Some(n as u16), unit)),
        Some(n) => Err(load.bad(
            hook,
            format!("capture_wins() is {n}: expected 1 to 1000, or () / 0 for never"),
        )),
    }
}

/// What `capture_wins()` may return, for its refusals.
const WINS_SHAPE: &str = "expected a number of captures, `#{ stones: n }` for a number of marks taken, or () / 0 for never";

impl Captures {
    /// Whether the rulebook has captures.
    #[inline]
    pub fn any(&self) -> bool {
        !self.per_cell.is_empty()
    }

    /// Takes the opponent's marks that the mark of `mark` on `to` captures
    /// (`own` holds it), in every pattern at once, and counts the captures.
    #[inline(never)]
    pub(crate) fn take<const W: usize>(
        &self,
        p: &mut Position,
        to: Cell,
        mark: Side,
        own: Bits<W>,
    ) {
        let theirs = p.marks.get_mut(mark.other());
        let mut left = theirs.prefix::<W>();
        let mut made = 0;
        for c in &self.per_cell[to.index()] {
            let take = c.take.prefix::<W>();
            if take.is_subset(left) && own.contains(c.by) {
                left = left & !take;
                made += c.worth;
            }
        }
        if made > 0 {
            theirs.set_prefix(left);
            *p.captures.get_mut(mark) += made;
        }
    }

    /// The result once `mover` has made the captures that win, if it has.
    #[inline]
    pub(crate) fn decided(&self, p: &Position, mover: Side) -> Option<(Outcome, Ending)> {
        let n = self.wins?;
        let ending = match self.unit {
            Unit::Captures => Ending::Captures(n),
            Unit::Stones => Ending::Stones(n),
        };
        (*p.captures.get(mover) >= n).then_some((Outcome::Win(mover), ending))
    }

    /// What a side's count counts.
    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The fewest a capture adds to the count: 1, or where stones are
    /// counted the fewest marks a pattern takes — so `count / per_capture()`
    /// is about the captures made, whatever the unit.
    pub fn per_capture(&self) -> u16 {
        let least = self.per_cell.iter().flatten().map(|c| c.worth).min();
        least.unwrap_or(1).max(1)
    }

    /// The position text's field: the counts of X, then of O (`2/1`), in
    /// the rulebook's unit.
    pub(crate) fn field(pos: &Position) -> String {
        format!("{}/{}", pos.captures(Side::X), pos.captures(Side::O))
    }

    /// Reads the position text's field; the caller knows where it is.
    pub(crate) fn parse_field(field: &str) -> Result<BySide<u16>, SetupErrorKind> {
        let bad = || SetupErrorKind::CapturesSyntax(field.to_string());
        let (x, o) = field.split_once('/').ok_or_else(bad)?;
        match (x.parse::<u16>(), o.parse::<u16>()) {
            (Ok(x), Ok(o)) if x <= 1000 && o <= 1000 => Ok(BySide { x, o }),
            _ => Err(bad()),
        }
    }

    /// The fewest and the most marks of each side that `made` (by the
    /// other side) can have taken off the board.
    pub(crate) fn marks_taken(&self, made: BySide<u16>) -> BySide<(u32, u32)> {
        // A count of stones is the marks taken; one of captures, so many
        // times the fewest to the most a pattern takes.
        let sizes = self
            .per_cell
            .iter()
            .flatten()
            .map(|c| c.take.count() / u32::from(c.worth));
        let (least, most) = sizes.fold((u32::MAX, 0), |(l, m), n| (l.min(n), m.max(n)));
        let least = if least == u32::MAX { 0 } else { least };
        BySide::new_with(|s| {
            let by = u32::from(*made.get(s.other()));
            (by * least, by * most)
        })
    }

    /// Whether the marks on the board, `count`, fit `turn` to move after
    /// the captures `made`: placed marks alternate (X placed as many as O,
    /// or one more), whatever captures then took.
    pub(crate) fn check_counts(
        &self,
        turn: Side,
        count: BySide<u32>,
        made: BySide<u16>,
    ) -> Result<(), SetupErrorKind> {
        let taken = self.marks_taken(made);
        let want = i64::from(turn == Side::O);
        let diff = |x: u32, o: u32| i64::from(count.x + x) - i64::from(count.o + o);
        let (low, high) = (diff(taken.x.0, taken.o.1), diff(taken.x.1, taken.o.0));
        if (low..=high).contains(&want) {
            return Ok(());
        }
        Err(SetupErrorKind::CaptureCounts {
            turn,
            found: count,
            made,
            unit: self.unit,
        })
    }

    /// Ends a set-up game when a side has made the captures that win: on
    /// its own last move, so never the side to move.
    pub(crate) fn settle(&self, pos: &mut Position) -> Result<(), SetupErrorKind> {
        let Some(n) = self.wins else {
            return Ok(());
        };
        if pos.captures(pos.turn) >= n {
            return Err(SetupErrorKind::CapturesButToMove {
                side: pos.turn,
                made: pos.captures(pos.turn),
                wins: n,
                unit: self.unit,
            });
        }
        if pos.result.is_none() {
            pos.result = self.decided(pos, pos.turn.other());
        }
        Ok(())
    }

    /// The board's status line for captures: `captures: X 2, O 1`, or
    /// where stones are counted `stones captured: X 6, O 3`.
    pub fn status(&self, pos: &Position) -> Option<String> {
        self.any().then(|| {
            format!(
                "{}: X {}, O {}",
                self.unit.words(),
                pos.captures(Side::X),
                pos.captures(Side::O)
            )
        })
    }
}
