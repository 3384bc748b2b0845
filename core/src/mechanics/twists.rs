//! Twists (`twists()`): every placement is followed by a twist chosen from
//! a load-time table, a permutation of the marks on a block of cells
//! (Pentago's quarter turns of a quadrant). One move places and twists,
//! written `c3/2+`; a placement that already makes a line ends the game
//! with it, written `c3`. A twist moves many marks, so the lines are then
//! judged on the whole board for both sides (see `whole_board`).
//!
//! Everything the mechanic does lives here: reading its hook, listing,
//! checking and naming the moves, and making a twist.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::bits::Bits;
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet};
use crate::position::{BySide, Ending, Move, MoveList, Outcome, Position, Side};
use crate::refusal::Refusal;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "twists",
    hooks: &[HookId::Twists],
    build,
};

/// The most twists a rulebook may have: a move holds a twist's number in a byte.
const MAX_TWISTS: usize = 255;

/// One twist: where each mark of its block goes, and its name in notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Twist {
    /// Its name after the `/` of a move (`2+`).
    pub name: String,
    /// Pairs `(from, to)`: the mark on `from` goes to `to`, all at once.
    pub moves: Vec<(Cell, Cell)>,
    /// The cells it permutes.
    pub cells: CellSet,
    /// The winning windows through its cells, where wins are windows: the
    /// only lines it can make.
    windows: Option<Vec<u64>>,
}

/// A twist as the playout kernel reads it where the board fits one word:
/// the cells it permutes, and where its tables lie in [`Twists::bytes`].
#[derive(Debug, Clone, Copy)]
struct Quick {
    /// The cells it permutes.
    cells: u64,
    /// The first byte of the board its cells touch.
    low_byte: u32,
    /// Its first table in `Twists::bytes`, and how many it has (one per
    /// byte from `low_byte` on).
    tables: (u32, u32),
}

/// The twists of a rulebook.
#[derive(Debug, Clone, Default)]
pub struct Twists {
    /// Every twist, in the order `twists()` gave them.
    pub(crate) all: Vec<Twist>,
    /// Each twist's compact copy, where the board fits one word (else empty).
    quick: Vec<Quick>,
    /// For each compact copy and byte of the board it touches: by the
    /// byte's value, where the twist sends those of its marks (one lookup a
    /// byte, instead of a test a cell).
    bytes: Vec<[u64; 256]>,
    /// Every winning window of the board, where it fits a word and wins
    /// are windows (else empty): the playout kernel scans them all once a
    /// move, for both sides' lines and the next mover's winning cells.
    windows: Vec<u64>,
}

impl Twists {
    /// Makes the compact copies, on a board of one word.
    fn make_quick(&mut self) {
        for tw in &self.all {
            let cells = tw.cells.prefix::<1>().words()[0];
            let low_byte = cells.trailing_zeros() / 8;
            let high_byte = (63 - cells.leading_zeros()) / 8;
            let first = self.bytes.len() as u32;
            for k in low_byte..=high_byte {
                let mut table = [0u64; 256];
                for (value, image) in table.iter_mut().enumerate() {
                    let marks = (value as u64) << (8 * k) & cells;
                    for &(from, to) in &tw.moves {
                        if marks & 1 << from.0 != 0 {
                            *image |= 1 << to.0;
                        }
                    }
                }
                self.bytes.push(table);
            }
            self.quick.push(Quick {
                cells,
                low_byte,
                tables: (first, high_byte - low_byte + 1),
            });
        }
    }
}

/// Reads `twists()`, and refuses twists beside a mechanic they cannot go with.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let hook = HookId::Twists;
    let Some(v) = load.call(hook, ())? else {
        return Ok(());
    };
    let bad = |why: String| load.bad(hook, format!("twists(): {why}"));
    let Some(list) = v.try_cast::<rhai::Array>() else {
        return Err(bad(
            "expected an array of #{ name, from, to } maps".to_string()
        ));
    };
    if list.len() > MAX_TWISTS {
        return Err(bad(format!(
            "{} twists: a rulebook may have at most {MAX_TWISTS}",
            list.len()
        )));
    }
    let mut all: Vec<Twist> = Vec::new();
    for item in list {
        let Some(map) = item.try_cast::<rhai::Map>() else {
            return Err(bad(
                "each twist is a map #{ name: \"1+\", from: [cells], to: [cells] }".to_string(),
            ));
        };
        let name = match map.get("name").map(|n| n.clone().into_string()) {
            Some(Ok(n)) if valid_name(&n) => n,
            Some(Ok(n)) => {
                return Err(bad(format!(
                    "twist name `{}`: expected lower-case letters, digits, `+` and `-`, such as \"2+\"",
                    n.escape_debug()
                )));
            }
            _ => {
                return Err(bad(
                    "a twist needs a `name`, a string such as \"2+\"".to_string()
                ));
            }
        };
        let what = format!("twist `{name}`");
        let cells = |key: &str| match map.get(key) {
            Some(v) => load.cells(hook, &format!("{what}.{key}"), v.clone()),
            None => Err(bad(format!("{what} needs `{key}`, a list of cells"))),
        };
        let (from, to) = (cells("from")?, cells("to")?);
        let set = |list: &[Cell]| list.iter().copied().collect::<CellSet>();
        if from.is_empty()
            || from.len() != to.len()
            || set(&from).count() as usize != from.len()
            || set(&from) != set(&to)
        {
            return Err(bad(format!(
                "{what}: `from` and `to` name the same cells, each once, in two orders (the mark on from[i] goes to to[i])"
            )));
        }
        if all.iter().any(|tw| tw.name == name) {
            return Err(bad(format!("two twists are named `{name}`")));
        }
        all.push(Twist {
            name,
            cells: set(&from),
            moves: from.into_iter().zip(to).collect(),
            windows: None,
        });
    }
    if all.is_empty() {
        return Ok(());
    }
    use super::Primitive as P;
    let clash = [
        P::Pieces,
        P::ChosenMarks,
        P::Support,
        P::Regions,
        P::Captures,
        P::KeepMarks,
        P::Slides,
        P::TurnMarks,
        P::SidedWins,
    ];
    if let Some(what) = t.first_in_use(&clash) {
        return Err(bad(format!(
            "twists cannot go with {what}: a move places the mover's own mark on a plain board, one a turn, and twists"
        )));
    }
    for tw in &mut all {
        let cells: Vec<Cell> = tw.cells.into_iter().collect();
        tw.windows = t.windows_through_cells(&cells);
    }
    t.twists = Twists {
        all,
        ..Twists::default()
    };
    if load.grid.len() <= 64 {
        t.twists.make_quick();
        let cells: Vec<Cell> = load.grid.cells().collect();
        t.twists.windows = t.windows_through_cells(&cells).unwrap_or_default();
    }
    Ok(())
}

/// A twist's name: lower-case letters, digits, `+` and `-`, so that a move
/// with it reads as a move and as nothing else.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '+' || c == '-')
}

// Play: listing, checking, naming and making twists.
impl Mechanics {
    /// Whether every placement is followed by a twist (`twists()`).
    #[inline(always)]
    pub fn has_twists(&self) -> bool {
        !self.twists.all.is_empty()
    }

    /// The twists, in the rulebook's order.
    pub fn twists(&self) -> &[Twist] {
        &self.twists.all
    }

    /// Where a mark placed on `to` stands after twist number `twist`: the
    /// twist carries it along where it turns the mark's block.
    pub(crate) fn twisted(&self, to: Cell, twist: u8) -> Cell {
        let carried = self.twists.all.get(usize::from(twist));
        carried
            .and_then(|t| t.moves.iter().find(|&&(from, _)| from == to))
            .map_or(to, |&(_, dest)| dest)
    }

    /// Whether `side`'s mark on the empty `to` makes a line, with `own`
    /// its marks before: the game then ends with the placement.
    ///
    /// Implementation note: the twists' general path works on whole
    /// [`CellSet`]s, not on the narrowest words (`Bits<W>`) the other
    /// mechanics compile for: a new caller of the window tests at a narrow
    /// width kept the compiler from inlining them in everyone's moves (a
    /// board of sub-boards: 9 % more instructions). The playout kernel
    /// plays twists on a word of its own.
    fn placement_wins(&self, to: Cell, own: CellSet, theirs: CellSet) -> bool {
        let own = own | CellSet::single(to);
        own.count() as usize >= self.min_run && self.wins_through(to, own, theirs)
    }

    /// Pushes the moves of the side to move onto the `free` cells: each
    /// placement with every twist, or alone where it makes a line.
    pub(crate) fn push_twists(&self, pos: &Position, free: CellSet, out: &mut MoveList) {
        let (own, theirs) = (pos.marks(pos.turn), pos.marks(pos.turn.other()));
        for to in free {
            if self.placement_wins(to, own, theirs) {
                out.push(Move::Place { to, mark: pos.turn });
            } else {
                for twist in 0..self.twists.all.len() {
                    out.push(Move::Twist {
                        to,
                        twist: twist as u8,
                    });
                }
            }
        }
    }

    /// Why the side to move of `pos` may not make placement `mv` (a
    /// placement alone, or with a twist), if it may not: a twist follows
    /// every placement but one that makes a line, and is one the rulebook
    /// has.
    pub(crate) fn check_twist(&self, pos: &Position, mv: Move) -> Result<(), Refusal> {
        if let Move::Twist { twist, .. } = mv
            && twist as usize >= self.twists.all.len()
        {
            return Err(Refusal::NoTwist(format!("#{twist}")));
        }
        if !self.has_twists() {
            return Ok(());
        }
        let (own, theirs) = (pos.marks(pos.turn), pos.marks(pos.turn.other()));
        match mv {
            Move::Place { to, .. } if !self.placement_wins(to, own, theirs) => {
                Err(Refusal::MustTwist(to))
            }
            Move::Twist { to, .. } if self.placement_wins(to, own, theirs) => {
                Err(Refusal::LineBeforeTwist(to))
            }
            _ => Ok(()),
        }
    }

    /// The number of the twist named `name` (`2+`).
    pub(crate) fn twist_named(&self, name: &str) -> Option<u8> {
        (self.twists.all.iter())
            .position(|tw| tw.name == name)
            .map(|i| i as u8)
    }

    /// The twists' names by number, for the notation (`c3/2+`).
    pub(crate) fn twist_names(&self) -> Vec<String> {
        self.twists.all.iter().map(|tw| tw.name.clone()).collect()
    }

    /// Makes `side`'s move: its mark on `to`, judged as any placement, then
    /// (unless that made a line) twist number `twist` and the lines on the
    /// whole board. Out of line, as `make_slide` is: the general path's
    /// `apply` is shared by every rulebook.
    // Cold: the other rulebooks' moves pass this arm of `apply`; marked
    // so, their code is laid out as before twists (a board of sub-boards:
    // 10 % more instructions without it).
    #[cold]
    #[inline(never)]
    pub(crate) fn make_twist(&self, p: &mut Position, side: Side, to: Cell, twist: u8) {
        if self.placement_wins(to, p.marks(side), p.marks(side.other())) {
            p.marks.get_mut(side).insert(to);
            let holder = self.line_result.holder(side, side);
            p.result = Some((self.line_result.outcome(holder), Ending::Line));
            return;
        }
        p.marks.get_mut(side).insert(to);
        let j = twist as usize;
        let mut marks = [p.marks.x, p.marks.o];
        self.twist_at(j, &mut marks);
        [p.marks.x, p.marks.o] = marks;
        p.result = self
            .twist_result(j, &marks, side)
            .map(|o| (o, Ending::Line));
    }

    /// Permutes both sides' `marks` by twist number `j`.
    #[inline(always)]
    pub(crate) fn twist_at<const W: usize>(&self, j: usize, marks: &mut [Bits<W>; 2]) {
        if W == 1
            && let Some(q) = self.twists.quick.get(j)
        {
            let tables = &self.twists.bytes[q.tables.0 as usize..][..q.tables.1 as usize];
            for m in marks.iter_mut() {
                let w = m.words()[0];
                let image = (tables.iter().enumerate()).fold(0, |image, (k, table)| {
                    image | table[(w >> (8 * (q.low_byte as usize + k))) as usize & 0xff]
                });
                *m = Bits::from_words(&[(w & !q.cells) | image]);
            }
            return;
        }
        let tw = &self.twists.all[j];
        for m in marks.iter_mut() {
            let before = *m;
            *m = before & !tw.cells.prefix::<W>();
            for &(from, to) in &tw.moves {
                if before.contains(from) {
                    m.insert(to);
                }
            }
        }
    }

    /// The result of the lines on the board after `mover`'s placement and
    /// twist number `j` left `marks`.
    fn twist_result(&self, j: usize, marks: &[CellSet; 2], mover: Side) -> Option<Outcome> {
        let tw = &self.twists.all[j];
        // The placement made no line (else no twist followed it), so a line
        // now runs through a cell the twist changed.
        let line = |s: Side| {
            let (own, theirs) = (marks[s as usize], marks[1 - s as usize]);
            own.count() as usize >= self.min_run
                && match &tw.windows {
                    Some(windows) => self.fills_window(windows, own),
                    None => (tw.cells.into_iter())
                        .any(|c| own.contains(c) && self.wins_through(c, own, theirs)),
                }
        };
        let lines = BySide {
            x: line(Side::X),
            o: line(Side::O),
        };
        self.judge_lines(lines, mover)
    }

    /// For the playout kernel, after a move left `marks` with `open` cells
    /// free: whether each side holds a line, and the open cells where
    /// `next` would make one with a placement (its moves that need no
    /// twist).
    #[inline(always)]
    pub(crate) fn lines_and_wins<const W: usize>(
        &self,
        marks: &[Bits<W>; 2],
        open: Bits<W>,
        next: Side,
    ) -> (BySide<bool>, Bits<W>) {
        if W == 1 && !self.twists.windows.is_empty() {
            let [x, o] = marks.map(|m| m.words()[0]);
            let own = if next == Side::X { x } else { o };
            let free = open.words()[0];
            let (mut x_line, mut o_line, mut wins) = (false, false, 0);
            let k = self.min_run as u32;
            // Too few marks for a line, or for a line with one more: the
            // windows are not read (a third of a game's moves).
            if own.count_ones() + 1 >= k {
                // Every window, without a branch each: lines are rare.
                for &w in &self.twists.windows {
                    x_line |= w & !x == 0;
                    o_line |= w & !o == 0;
                    // One cell short of the window, and that cell free.
                    let rest = w & !own;
                    let one = rest & rest.wrapping_sub(1) == 0;
                    wins |= rest & free & (one as u64).wrapping_neg();
                }
            } else if x.count_ones().max(o.count_ones()) >= k {
                for &w in &self.twists.windows {
                    x_line |= w & !x == 0;
                    o_line |= w & !o == 0;
                }
            }
            let lines = BySide {
                x: x_line,
                o: o_line,
            };
            return (lines, Bits::from_words(&[wins]));
        }
        // Boards of more than a word: at full width (see `placement_wins`).
        let [x, o] = marks.map(CellSet::from_prefix);
        let lines = BySide {
            x: self.has_line(Side::X, x, o, self.all),
            o: self.has_line(Side::O, o, x, self.all),
        };
        let (own, theirs) = if next == Side::X { (x, o) } else { (o, x) };
        let mut wins = Bits::EMPTY;
        for c in open {
            if self.placement_wins(c, own, theirs) {
                wins.insert(c);
            }
        }
        (lines, wins)
    }
}

#[cfg(test)]
mod tests {
    use crate::geometry::Cell;
    use crate::position::Move;
    use crate::refusal::{PlayError, Refusal};
    use crate::rulebook::Rulebook;

    /// A twist the rulebook does not have (a move built, not read: the
    /// notation has no name for it) is refused, never played.
    #[test]
    fn a_twist_the_rulebook_lacks_is_refused() {
        for name in ["classic", "pentago"] {
            let rules = Rulebook::builtin(name).unwrap();
            let mv = Move::Twist {
                to: Cell(0),
                twist: 200,
            };
            let played = rules.play(&rules.initial(), &[], mv);
            assert!(
                matches!(
                    played,
                    Err(PlayError::Refused {
                        refusal: Refusal::NoTwist(_),
                        ..
                    })
                ),
                "{name}: {played:?}"
            );
        }
    }
}
