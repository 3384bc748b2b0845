//! The one-line position text (like chess's FEN) that `position` prints and
//! `setup` reads.
//!
//! Four fields separated by spaces:
//!
//! 1. the board, top row first, rows separated by `/`: `X` and `O` for marks,
//!    a number for that many empty cells (`.` is one empty cell too);
//! 2. the side to move, `X` or `O`;
//! 3. pieces in hand, `X,O` counts such as `3,2`, or `-` when marks are unlimited;
//! 4. the region (sub-board) the next move is sent to, numbered from 1 in the
//!    order of the rulebook's `regions()`, or `-` for none.
//!
//! Fields 3 and 4 may be left out: the pieces in hand follow from the marks
//! on the board, and no region is then forced.
//!
//! ```
//! # use gridrules_core::Rulebook;
//! let classic = Rulebook::builtin("classic")?;
//! let pos = classic.parse_position("X2/1O1/3 X")?;
//! assert_eq!(classic.position_text(&pos), "X2/1O1/3 X - -");
//! assert!(classic.parse_position("XX1/3/3 O").is_err()); // X two ahead
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::geometry::{Cell, CellSet};
use crate::mechanics::Captures;
use crate::position::{BySide, Ending, NO_REGION, Position, Side, UNLIMITED};
use crate::rulebook::{FullRegion, LineResult, Marks, Rulebook};
use crate::script::api::History;
use std::fmt;
use std::fmt::Write as _;

/// A position text that was refused, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

fn fail<T>(msg: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError(msg.into()))
}

impl Rulebook {
    /// The position as one line of text that [`Rulebook::parse_position`] reads back.
    pub fn position_text(&self, pos: &Position) -> String {
        let g = self.grid();
        let mut out = String::new();
        for row in (0..g.height()).rev() {
            let mut empty = 0;
            for col in 0..g.width() {
                let cell = g
                    .cell(i64::from(col), i64::from(row))
                    .expect("on the board");
                match pos.mark_at(cell) {
                    None => empty += 1,
                    Some(side) => {
                        if empty > 0 {
                            write!(out, "{empty}").unwrap();
                            empty = 0;
                        }
                        out.push(side.to_char());
                    }
                }
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
            }
            if row > 0 {
                out.push('/');
            }
        }
        write!(out, " {}", pos.turn()).unwrap();
        match (pos.in_hand(Side::X), pos.in_hand(Side::O)) {
            (Some(x), Some(o)) => write!(out, " {x},{o}").unwrap(),
            _ => out.push_str(" -"),
        }
        match pos.target() {
            Some(r) => write!(out, " {}", r + 1).unwrap(),
            None => out.push_str(" -"),
        }
        if self.holding_in_text() {
            let list = |side: Side| {
                let held: Vec<String> = (0..self.tables.regions.len())
                    .filter(|r| pos.regions_won(side) & (1 << r) != 0)
                    .map(|r| (r + 1).to_string())
                    .collect();
                if held.is_empty() {
                    "-".to_string()
                } else {
                    held.join(",")
                }
            };
            write!(out, " {}/{}", list(Side::X), list(Side::O)).unwrap();
        }
        if self.tables.captures.any() {
            write!(out, " {}", Captures::field(pos)).unwrap();
        }
        // The pie rule's swap is spent: said last, after every field.
        if pos.swapped {
            out.push_str(" swapped");
        }
        out
    }

    /// Reads a position text, checking that it could arise under this rulebook
    /// as far as the text shows: counts, pieces in hand, lines, regions.
    ///
    /// # Errors
    /// [`SetupError`] naming the first field that is wrong, and why.
    pub fn parse_position(&self, text: &str) -> Result<Position, SetupError> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        // A last word `swapped`: the second player has used the pie rule.
        let swapped = fields.len() > 2 && fields.last() == Some(&"swapped");
        if swapped {
            fields.pop();
            if !self.table().pie {
                return fail("`swapped`: there is no pie rule at this table (PI1)");
            }
        }
        let fifth = if self.holding_in_text() {
            Some(", boards held")
        } else if self.tables.captures.any() {
            Some(", captures")
        } else {
            None
        };
        let most = if fifth.is_some() { 5 } else { 4 };
        if !(2..=most).contains(&fields.len()) {
            return fail(format!(
                "expected 2 to {most} fields (board, side to move, pieces in hand, target board{}), found {}",
                fifth.unwrap_or_default(),
                fields.len()
            ));
        }
        let marks = self.parse_board(fields[0])?;
        let turn = match fields[1] {
            "X" | "x" => Side::X,
            "O" | "o" => Side::O,
            other => return fail(format!("side to move `{other}`: expected X or O")),
        };
        let count = BySide::new_with(|s| marks.get(s).count());
        let in_hand = self.parse_hand(fields.get(2).copied(), count)?;
        let captures = match fields.get(4) {
            Some(f) if self.tables.captures.any() => {
                Captures::parse_field(f).map_err(SetupError)?
            }
            _ => BySide::default(),
        };
        // The marks captures took off the board were placed too.
        let taken = self.tables.captures.marks_taken(captures);
        let placed = BySide::new_with(|s| count.get(s) + taken.get(s.other()).0);
        let placing = |s: Side| *in_hand.get(s) > 0;
        if self.tables.pieces == UNLIMITED || placing(Side::X) || placing(Side::O) {
            self.check_counts(turn, count, captures)?;
        }
        let mut pos = self.initial();
        pos.marks = marks;
        pos.turn = turn;
        pos.in_hand = in_hand;
        pos.captures = captures;
        pos.ply = u16::try_from(placed.x + placed.o).unwrap_or(u16::MAX);
        if swapped {
            if pos.ply == 0 {
                return fail(
                    "`swapped`: the pie rule's swap answers the first move, and no mark is on the board (PI1)",
                );
            }
            pos.swapped = true;
            pos.ply = pos.ply.saturating_add(1);
        }
        self.check_support(&mut pos)?;
        let held = match fields.get(4) {
            Some(f) if self.holding_in_text() => Some(self.parse_held(f)?),
            _ => None,
        };
        self.settle_lines(&mut pos, held)?;
        self.tables.captures.settle(&mut pos).map_err(SetupError)?;
        pos.target = self.parse_target(fields.get(3).copied(), &pos)?;
        if pos.result.is_none()
            && !self
                .has_legal_move(&pos, &History::default())
                .map_err(|e| SetupError(e.to_string()))?
        {
            pos.result = Some(self.stalemate(&pos));
        }
        Ok(pos)
    }

    /// The marks on the board must fit the side to move: each side places
    /// its own in turn, or (with a chosen or shared mark) one mark a move.
    /// `taken` bounds the marks of each side that captures took off.
    fn check_counts(
        &self,
        turn: Side,
        count: BySide<u32>,
        captures: BySide<u16>,
    ) -> Result<(), SetupError> {
        if captures.x + captures.o > 0 {
            return self
                .tables
                .captures
                .check_counts(turn, count, captures)
                .map_err(SetupError);
        }
        let (x, o) = (i64::from(count.x), i64::from(count.o));
        if self.tables.marks == Marks::Shared && o > 0 {
            return fail(format!(
                "both sides place X here: the board cannot hold O ({o} found)"
            ));
        }
        let turns = &self.tables.turns;
        if !turns.is_alternating() {
            // Turns of several marks: the marks placed say whose turn it is.
            let ply = count.x + count.o;
            let place = turns.place(ply);
            let want = turns.placed(ply);
            if self.tables.marks == Marks::Own && (want.x, want.o) != (count.x, count.o) {
                return fail(format!(
                    "wrong counts: after {ply} marks X has placed {} and O {} (X has {x}, O has {o})",
                    want.x, want.o
                ));
            }
            if place.side() != turn {
                return fail(format!(
                    "wrong side to move: after {ply} marks it is {}'s turn, mark {} of {}",
                    place.side(),
                    place.mark + 1,
                    place.of
                ));
            }
            return Ok(());
        }
        if self.tables.marks != Marks::Own {
            let even = (x + o) % 2 == 0;
            if even != (turn == Side::X) {
                let want = if turn == Side::X { "an even" } else { "an odd" };
                return fail(format!(
                    "wrong counts: with {turn} to move the board holds {want} number of marks (it holds {})",
                    x + o
                ));
            }
            return Ok(());
        }
        let ok = match turn {
            Side::X => x == o,
            Side::O => x == o + 1,
        };
        if ok {
            return Ok(());
        }
        let want = match turn {
            Side::X => "as many marks as O",
            Side::O => "one mark more than O",
        };
        fail(format!(
            "wrong counts: with {turn} to move, X must have {want} (X has {x}, O has {o})"
        ))
    }

    /// With gravity, every mark must rest on its support; the empty cells
    /// that do not yet rest on theirs are closed.
    fn check_support(&self, pos: &mut Position) -> Result<(), SetupError> {
        let t = &self.tables;
        if !t.gravity {
            return Ok(());
        }
        let occupied = pos.occupied();
        let supported = t.supported(occupied);
        if let Some(c) = (occupied & !supported).first() {
            let under: Vec<String> = (t.support[c.index()] & !occupied)
                .into_iter()
                .map(|u| self.grid().name(u).to_string())
                .collect();
            return fail(format!(
                "the mark on {} does not rest on anything: {} must be filled first",
                self.grid().name(c),
                under.join(" ")
            ));
        }
        pos.closed_cells = t.all & !supported;
        Ok(())
    }

    fn parse_board(&self, text: &str) -> Result<BySide<CellSet>, SetupError> {
        let g = self.grid();
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != g.height() as usize {
            return fail(format!(
                "the board has {} rows, the text {}: write rows top first, separated by `/`",
                g.height(),
                rows.len()
            ));
        }
        let mut marks = BySide::<CellSet>::default();
        for (i, row_text) in rows.iter().enumerate() {
            let row = g.height() as usize - 1 - i;
            let mut col = 0usize;
            let mut chars = row_text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        // Saturating: an absurd count is reported as a wrong row, not an overflow.
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    col = col.saturating_add(n);
                } else if c == '.' {
                    col = col.saturating_add(1);
                } else if let Some(side) = Side::from_char(c) {
                    if let Some(cell) = g.cell(col as i64, row as i64) {
                        marks.get_mut(side).insert(cell);
                    }
                    col = col.saturating_add(1);
                } else {
                    return fail(format!(
                        "row {} from the top: `{c}` is not X, O, `.` or a number of empty cells",
                        i + 1
                    ));
                }
            }
            if col != g.width() as usize {
                // A count past any board is said as such, not as its number.
                let found = if col > crate::geometry::MAX_CELLS {
                    "far too many".to_string()
                } else {
                    col.to_string()
                };
                return fail(format!(
                    "row {} from the top has {found} cells, expected {}",
                    i + 1,
                    g.width()
                ));
            }
        }
        Ok(marks)
    }

    fn parse_hand(
        &self,
        field: Option<&str>,
        count: BySide<u32>,
    ) -> Result<BySide<u16>, SetupError> {
        let pieces = self.tables.pieces;
        if pieces == UNLIMITED {
            return match field {
                None | Some("-") => Ok(BySide {
                    x: UNLIMITED,
                    o: UNLIMITED,
                }),
                Some(f) => fail(format!(
                    "pieces in hand `{f}`: this rulebook has unlimited marks, write `-`"
                )),
            };
        }
        let derived = BySide::new_with(|s| i64::from(pieces) - i64::from(*count.get(s)));
        for s in Side::ALL {
            if *derived.get(s) < 0 {
                return fail(format!(
                    "wrong counts: {s} has {} pieces on the board, only {pieces} are allowed",
                    count.get(s)
                ));
            }
        }
        let given = match field {
            None => derived,
            Some(f) => {
                let parsed = f
                    .split_once(',')
                    .and_then(|(x, o)| Some((x.parse::<i64>().ok()?, o.parse::<i64>().ok()?)));
                let Some((x, o)) = parsed else {
                    return fail(format!(
                        "pieces in hand `{f}`: expected two numbers, X's then O's, like `3,2`"
                    ));
                };
                BySide { x, o }
            }
        };
        for s in Side::ALL {
            if given.get(s) != derived.get(s) {
                return fail(format!(
                    "wrong counts: {s} has {} on the board and {} in hand, but {pieces} pieces in all",
                    count.get(s),
                    given.get(s)
                ));
            }
        }
        Ok(BySide::new_with(|s| *given.get(s) as u16))
    }

    /// Whether who holds a region depends on who moved, which the marks do
    /// not show: then the position text has a fifth field, the regions held
    /// by X and by O (`1,3/2`, `-` for none).
    fn holding_in_text(&self) -> bool {
        let t = &self.tables;
        !t.regions.is_empty()
            && (t.full_region == FullRegion::Mover
                || matches!(
                    t.line_result,
                    LineResult::MoverWins | LineResult::MoverLoses
                ))
    }

    /// Reads the fifth field: regions held by X, then by O (`1,3/2`).
    fn parse_held(&self, field: &str) -> Result<BySide<u32>, SetupError> {
        let count = self.tables.regions.len();
        let bad = || {
            SetupError(format!(
                "boards held `{field}`: expected X's boards, `/`, O's boards, each a list like `1,3` or `-`"
            ))
        };
        let (x, o) = field.split_once('/').ok_or_else(bad)?;
        let list = |text: &str| -> Result<u32, SetupError> {
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

    /// Works out held and closed regions and any completed line from the
    /// marks, as if the last move made it; `given` is the fifth field, who
    /// holds each region, where the marks cannot tell.
    fn settle_lines(
        &self,
        pos: &mut Position,
        given: Option<BySide<u32>>,
    ) -> Result<(), SetupError> {
        let t = &self.tables;
        let rule = t.line_result;
        // Who made the last move: the other side, unless a turn has several
        // marks and the side to move is in the middle of its own.
        let mover = match pos.ply {
            0 => pos.turn.other(),
            _ if t.turns.is_alternating() => pos.turn.other(),
            _ => t.turns.place(pos.marks_played().saturating_sub(1)).side(),
        };
        let has_line = |own: CellSet, within: CellSet| {
            (own & within)
                .into_iter()
                .any(|c: Cell| t.wins_through(c, own & within))
        };
        let line_but_to_move = |side: Side| {
            fail(format!(
                "{side} has a line but is to move: the game ended on {side}'s last move"
            ))
        };
        let mut holders = Vec::new();
        if t.regions.is_empty() {
            let lines: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|&mark| has_line(pos.marks(mark), t.all))
                .collect();
            match lines[..] {
                // Own marks: a line is made on its owner's move, whatever it means.
                [mark] if t.marks == Marks::Own && mark != mover => {
                    return line_but_to_move(mark);
                }
                _ => holders.extend(lines.iter().map(|&mark| rule.holder(mark, mover))),
            }
        } else {
            for (r, &cells) in t.regions.iter().enumerate() {
                let lines: Vec<Side> = Side::ALL
                    .into_iter()
                    .filter(|&s| has_line(pos.marks(s), cells))
                    .collect();
                let bit = 1u32 << r;
                let full = cells.is_subset(pos.occupied());
                // The one side the fifth field says holds region r.
                let said = |why: &str| -> Result<Side, SetupError> {
                    let listed = given.map(|g| (g.x & bit != 0, g.o & bit != 0));
                    match listed {
                        Some((true, false)) => Ok(Side::X),
                        Some((false, true)) => Ok(Side::O),
                        _ => fail(format!(
                            "board {} {why}: name the one side that holds it in the fifth field (X's boards/O's boards)",
                            r + 1
                        )),
                    }
                };
                let one;
                let held: &[Side] = match (&lines[..], full) {
                    ([mark], _) => match rule {
                        LineResult::MoverWins | LineResult::MoverLoses => {
                            one = [said("has a line")?];
                            &one
                        }
                        _ => {
                            one = [rule.holder(*mark, mover)];
                            &one
                        }
                    },
                    ([], true) => match t.full_region {
                        FullRegion::Nobody => &[],
                        FullRegion::Both => &Side::ALL,
                        FullRegion::Mover => {
                            one = [said("is full")?];
                            &one
                        }
                    },
                    ([], false) => &[],
                    _ => return fail(format!("board {} has a line of X and a line of O", r + 1)),
                };
                if let Some(g) = given {
                    let listed = (g.x & bit != 0, g.o & bit != 0);
                    let holds = (held.contains(&Side::X), held.contains(&Side::O));
                    if listed != holds {
                        return fail(format!(
                            "board {}: the fifth field does not match the marks on it",
                            r + 1
                        ));
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
            for s in Side::ALL {
                let won = pos.regions_won(s);
                if t.region_lines.iter().flatten().any(|&l| l & !won == 0) {
                    holders.push(s);
                }
            }
        }
        // A region held by both sides can complete a line for the side that
        // did not fill it, or for both at once (the mover's is judged first).
        let shared_regions = t.full_region == FullRegion::Both;
        match holders[..] {
            [] => Ok(()),
            // Own marks, owner rules: a line of regions is its owner's, made
            // on its own move.
            [h] if t.marks == Marks::Own && rule.needs_owner() && h != mover && !shared_regions => {
                line_but_to_move(h)
            }
            [h] => {
                pos.result = Some((rule.outcome(h), Ending::Line));
                Ok(())
            }
            [_, _] if shared_regions => {
                pos.result = Some((rule.outcome(mover), Ending::Line));
                Ok(())
            }
            _ => fail("both X and O have a line: the game would have ended at the first"),
        }
    }

    fn parse_target(&self, field: Option<&str>, pos: &Position) -> Result<u8, SetupError> {
        let Some(f) = field.filter(|&f| f != "-") else {
            return Ok(NO_REGION);
        };
        let count = self.tables.regions.len();
        if count == 0 {
            return fail(format!(
                "target board `{f}`: this rulebook has no sub-boards, write `-`"
            ));
        }
        match f.parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => {
                let fillable = self.tables.regions[n - 1] & self.fillable(pos);
                if pos.regions_closed & (1 << (n - 1)) != 0 {
                    fail(format!(
                        "target board {n} is closed (won or full): write `-` for a free choice"
                    ))
                } else if fillable.is_empty() {
                    fail(format!(
                        "target board {n} has no cell that may be filled now: write `-` for a free choice"
                    ))
                } else if pos.occupied().is_empty() {
                    // Only a move sends the game to a board, and none was made.
                    fail(format!(
                        "target board {n} on an empty board: no move has sent the game there yet (U2): write `-`"
                    ))
                } else {
                    Ok((n - 1) as u8)
                }
            }
            _ => fail(format!(
                "target board `{f}`: expected a board number 1 to {count}, or `-`"
            )),
        }
    }
}
