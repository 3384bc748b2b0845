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
//! on the board, and no region is then forced. A fifth field belongs to one
//! mechanic: who holds each region (where who moved decides it), the
//! captures made, or each side's marks oldest first where marks vanish.
//!
//! ```
//! # use gridrules_core::Rulebook;
//! let classic = Rulebook::builtin("classic")?;
//! let pos = classic.parse_position("X2/1O1/3 X")?;
//! assert_eq!(classic.position_text(&pos), "X2/1O1/3 X - -");
//! assert!(classic.parse_position("XX1/3/3 O").is_err()); // X two ahead
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::geometry::CellSet;
use crate::mechanics::removals::PlacingLines;
use crate::mechanics::stacks::StackError;
use crate::mechanics::{Captures, ageing};
use crate::position::{BySide, Ending, MAX_SIZES, NO_REGION, Position, Side, Stacks, UNLIMITED};
use crate::rulebook::{FullRegion, Marks, Rulebook};
use crate::script::api::History;
use std::fmt::Write as _;
use std::ops::Range;

pub use crate::setup_error::{FifthField, SetupError, SetupErrorKind};

use SetupErrorKind as K;

fn fail<T>(span: &Range<usize>, kind: SetupErrorKind) -> Result<T, SetupError> {
    Err(SetupError::new(kind, span.clone()))
}

/// One whitespace-separated field of a position text and its bytes.
#[derive(Debug, Clone)]
struct Field<'a> {
    text: &'a str,
    span: Range<usize>,
}

/// A position text split into its fields, each with its bytes: read, not
/// yet checked against a rulebook (shakmaty's `Setup` before `FromSetup`).
#[derive(Debug)]
struct Fields<'a> {
    /// The fields in order, without a last `swapped`.
    fields: Vec<Field<'a>>,
    /// The bytes of a last `swapped` word (the pie rule's swap is spent).
    swapped: Option<Range<usize>>,
}

impl<'a> Fields<'a> {
    /// Splits `text` at whitespace (as `str::split_whitespace` does),
    /// keeping where each field is.
    fn split(text: &'a str) -> Fields<'a> {
        let mut fields = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (start, c.is_whitespace()) {
                (None, false) => start = Some(i),
                (Some(s), true) => {
                    fields.push(Field {
                        text: &text[s..i],
                        span: s..i,
                    });
                    start = None;
                }
                _ => {}
            }
        }
        // A last word `swapped`: the second player has used the pie rule.
        let swapped = match &fields[..] {
            [_, _, .., last] if last.text == "swapped" => fields.pop().map(|f| f.span),
            _ => None,
        };
        Fields { fields, swapped }
    }

    /// Field `i` (from 0), if it was given.
    fn get(&self, i: usize) -> Option<&Field<'a>> {
        self.fields.get(i)
    }

    /// The empty range just after the last field: where a missing one goes.
    fn end(&self) -> Range<usize> {
        let end = self.fields.last().map_or(0, |f| f.span.end);
        end..end
    }
}

impl Rulebook {
    /// The position as one line of text that [`Rulebook::parse_position`] reads back.
    pub fn position_text(&self, pos: &Position) -> String {
        let mut out = String::new();
        for row in (0..self.grid().height()).rev() {
            let mut empty = 0;
            for cell in self.row_cells(row) {
                match pos.mark_at(cell) {
                    None => empty += 1,
                    Some(side) => {
                        if empty > 0 {
                            write!(out, "{empty}").unwrap();
                            empty = 0;
                        }
                        if self.mechanics.has_stacks() {
                            out.push_str(&self.mechanics.stack_text(&pos.stacks, cell));
                        } else {
                            out.push(side.to_char());
                        }
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
            _ if !self.mechanics.places() => out.push_str(" -"),
            _ if self.mechanics.has_stacks() => {
                write!(out, " {}", self.mechanics.hands_text(pos)).unwrap();
            }
            (Some(x), Some(o)) => write!(out, " {x},{o}").unwrap(),
            _ => out.push_str(" -"),
        }
        match pos.target() {
            Some(r) => write!(out, " {}", r + 1).unwrap(),
            None => out.push_str(" -"),
        }
        match self.mechanics.fifth_field() {
            Some(FifthField::Held) => write!(out, " {}", self.mechanics.held_field(pos)).unwrap(),
            Some(FifthField::Captures) => write!(out, " {}", Captures::field(pos)).unwrap(),
            Some(FifthField::Ages) => write!(out, " {}", ageing::field(self.grid(), pos)).unwrap(),
            None => {}
        }
        // The pie rule's swap is spent: said last, after every field.
        if pos.swapped {
            out.push_str(" swapped");
        }
        out
    }

    /// The cells of `row` (0 at the bottom) that exist for play, left to
    /// right: what a row of the position text lists.
    fn row_cells(&self, row: u32) -> impl Iterator<Item = crate::geometry::Cell> + '_ {
        let g = self.grid();
        let cells = self.mechanics.cells();
        (0..g.width())
            .filter_map(move |col| g.cell(i64::from(col), i64::from(row)))
            .filter(move |c| cells.contains(*c))
    }

    /// Reads a position text, checking that it could arise under this rulebook
    /// as far as the text shows: counts, pieces in hand, lines, regions.
    ///
    /// # Errors
    /// [`SetupError`] naming the first field that is wrong, and why, with
    /// the bytes of `text` it concerns.
    pub fn parse_position(&self, text: &str) -> Result<Position, SetupError> {
        self.check_fields(&Fields::split(text), true)
    }

    /// [`Rulebook::parse_position`] for `[board] start`: the counts of its
    /// marks are what the author says they are (a handicap), and the
    /// positions after it are counted from them.
    pub(crate) fn parse_start(&self, text: &str) -> Result<Position, SetupError> {
        self.check_fields(&Fields::split(text), false)
    }

    /// Checks the fields against this rulebook, field by field in the
    /// order the text gives them.
    ///
    /// Implementation note: the fields are read and checked in one pass, in
    /// the order below, not all read first and then checked: a text with
    /// several faults reports the first in this order, and that message is
    /// part of the contract (transcripts quote it).
    fn check_fields(&self, fields: &Fields<'_>, counted: bool) -> Result<Position, SetupError> {
        if let Some(at) = &fields.swapped
            && !self.table().pie
        {
            return fail(at, K::SwappedWithoutPie);
        }
        let fifth = self.mechanics.fifth_field();
        let most = if fifth.is_some() { 5 } else { 4 };
        let found = fields.fields.len();
        if !(2..=most).contains(&found) {
            // The fields past the last allowed one, or where one is missing.
            let at = match (fields.get(most), fields.fields.last()) {
                (Some(first), Some(last)) => first.span.start..last.span.end,
                _ => fields.end(),
            };
            return fail(&at, K::FieldCount { found, fifth });
        }
        let board = &fields.fields[0];
        let side = &fields.fields[1];
        let (marks, stacks) = self.parse_board(board)?;
        let turn = match side.text {
            "X" | "x" => Side::X,
            "O" | "o" => Side::O,
            other => return fail(&side.span, K::SideToMove(other.to_string())),
        };
        let count = BySide::new_with(|s| marks.get(s).count());
        let in_hand = if self.mechanics.has_stacks() {
            // Checked with the stacks below: the hands follow from them.
            BySide::default()
        } else {
            self.parse_hand(fields.get(2), board, count)?
        };
        let captures = match fields.get(4) {
            Some(f) if fifth == Some(FifthField::Captures) => {
                Captures::parse_field(f.text).map_err(|k| SetupError::new(k, f.span.clone()))?
            }
            _ => BySide::default(),
        };
        // The marks captures took off the board were placed too.
        let taken = self.mechanics.captures.marks_taken(captures);
        let placed = BySide::new_with(|s| count.get(s) + taken.get(s.other()).0);
        let placing = |s: Side| *in_hand.get(s) > 0;
        if self.mechanics.has_stacks() {
            // Pieces move from cell to cell at any time: no count says
            // whose turn it is.
        } else if self.mechanics.has_slides() {
            // Slides change the counts of each side; where each move adds or
            // removes one mark, the parity of all of them still says whose
            // turn it is (a push that marks a blank cube does not).
            let marks = count.x + count.o;
            if self.mechanics.slides_remove_one() && marks.is_multiple_of(2) != (turn == Side::X) {
                return fail(&board.span, K::Parity { turn, marks });
            }
        } else if self.mechanics.removes() {
            // Pieces removed since: the placements say whose turn it is.
            let placed = BySide::new_with(|s| {
                u32::from(self.mechanics.pieces).saturating_sub(u32::from(*in_hand.get(s)))
            });
            let fits = match turn {
                Side::X => placed.x == placed.o,
                Side::O => placed.x == placed.o + 1,
            };
            let span = fields.get(2).map_or(&board.span, |f| &f.span);
            if (placing(Side::X) || placing(Side::O)) && !fits {
                return fail(
                    span,
                    K::Placed {
                        turn,
                        x: placed.x,
                        o: placed.o,
                    },
                );
            }
            self.check_removed(placed, count, in_hand)
                .map_err(|k| SetupError::new(k, span.clone()))?;
            self.check_placed_lines(&marks, in_hand)
                .map_err(|k| SetupError::new(k, board.span.clone()))?;
        } else if counted
            && (self.mechanics.pieces == UNLIMITED || placing(Side::X) || placing(Side::O))
        {
            self.check_counts(turn, count, captures, board, side)?;
        }
        let ages = match (self.mechanics.keep, fields.get(4)) {
            (None, _) => BySide::default(),
            (Some(keep), Some(f)) => ageing::parse_field(self.grid(), keep, f.text, &marks)
                .map_err(|k| SetupError::new(k, f.span.clone()))?,
            (Some(_), None) => {
                ageing::unstated(&marks).map_err(|k| SetupError::new(k, fields.end()))?
            }
        };
        let mut pos = self.initial();
        pos.marks = marks;
        pos.ages = ages;
        pos.turn = turn;
        pos.in_hand = in_hand;
        pos.captures = captures;
        pos.ply = u16::try_from(placed.x + placed.o).unwrap_or(u16::MAX);
        if self.mechanics.has_stacks() {
            pos.stacks = stacks;
            let hands = fields.get(2).filter(|f| f.text != "-");
            self.mechanics
                .check_stacks(&pos, hands.map(|f| f.text))
                .map_err(|k| SetupError::new(k, hands.map_or(&board.span, |f| &f.span).clone()))?;
            let pieces = self.mechanics.stack_pieces();
            let on = |s: Side| (0..MAX_SIZES).map(|z| pos.stacks.count(s, z)).sum::<u32>();
            pos.in_hand = BySide::new_with(|s| pieces.saturating_sub(on(s) as u16));
            pos.ply = u16::try_from(on(Side::X) + on(Side::O)).unwrap_or(u16::MAX);
        }
        if self.mechanics.removes() {
            // The hands say how many were placed; removals took some off.
            let pieces = 2 * u32::from(self.mechanics.pieces);
            let hands = u32::from(in_hand.x) + u32::from(in_hand.o);
            pos.ply = u16::try_from(pieces.saturating_sub(hands)).unwrap_or(u16::MAX);
        }
        if let Some(at) = &fields.swapped {
            if pos.ply == 0 {
                return fail(at, K::SwappedEmpty);
            }
            let of = self.mechanics.turns.place(0).of;
            if u32::from(pos.ply) < of {
                let marks = u32::from(pos.ply);
                return fail(at, K::SwappedEarly { marks, of });
            }
            pos.swapped = true;
            pos.ply = pos.ply.saturating_add(1);
        }
        self.check_support(&mut pos, board)?;
        // Once every piece is placed, pieces may have moved anywhere: the
        // restrictions on placements no longer say where marks stand.
        let moving = self.mechanics.pieces != UNLIMITED && pos.in_hand.x == 0 && pos.in_hand.o == 0;
        for side in Side::ALL.into_iter().filter(|_| !moving) {
            if let Err((n, cell)) = self.mechanics.placeable(side, pos.marks(side)) {
                let rule = self.explain(&crate::Refusal::Forbidden(cell, side, n));
                return fail(&board.span, K::NeverPlaced { side, rule });
            }
        }
        let held = match fields.get(4) {
            Some(f) if fifth == Some(FifthField::Held) => Some(
                self.mechanics
                    .parse_held(f.text)
                    .map_err(|k| SetupError::new(k, f.span.clone()))?,
            ),
            _ => None,
        };
        let fifth_at = fields
            .get(4)
            .map_or_else(|| fields.end(), |f| f.span.clone());
        self.settle_lines(&mut pos, held, board, &fifth_at)?;
        for s in [turn, turn.other()] {
            if pos.result.is_none() {
                self.mechanics.settle_count(&mut pos, s);
            }
        }
        self.mechanics
            .captures
            .settle(&mut pos)
            .map_err(|k| SetupError::new(k, fifth_at.clone()))?;
        pos.target = match fields.get(3) {
            Some(f) if f.text != "-" => self
                .mechanics
                .parse_target(f.text, &pos)
                .map_err(|k| SetupError::new(k, f.span.clone()))?,
            _ => NO_REGION,
        };
        let whole = fields.fields[0].span.start..fields.end().end;
        if pos.result.is_none()
            && !self
                .has_legal_move(&pos, &History::default())
                .map_err(|e| SetupError::new(K::Script(Box::new(e)), whole))?
        {
            pos.result = Some(self.stalemate(&pos));
        }
        Ok(pos)
    }

    /// The marks on the board must fit the side to move: each side places
    /// its own in turn, or (with a chosen or shared mark) one mark a move.
    /// `taken` bounds the marks of each side that captures took off.
    /// Where lines remove pieces: a side lost pieces only to lines the
    /// opponent completed (all placements while it still has pieces in
    /// hand), and the game ended when the first side was down to
    /// `lose_at()`, so both cannot be.
    fn check_removed(
        &self,
        placed: BySide<u32>,
        count: BySide<u32>,
        in_hand: BySide<u16>,
    ) -> Result<(), SetupErrorKind> {
        let line = u32::try_from(self.mechanics.min_run).unwrap_or(u32::MAX);
        let placed_remove = self.mechanics.placing_lines() == PlacingLines::Remove;
        for side in Side::ALL {
            let removed = placed.get(side).saturating_sub(*count.get(side));
            let other = side.other();
            // A side with pieces in hand has only placed, and where a
            // placement's line removes nothing (or is refused) it has
            // removed nothing.
            if !placed_remove && *in_hand.get(other) > 0 && removed > 0 {
                return Err(K::RemovedWhilePlacing {
                    side,
                    removed,
                    by: other,
                });
            }
            // Its first line completed by its `line`-th placement, each
            // placement after at most one more.
            let most = (placed.get(other) + 1).saturating_sub(line);
            if *in_hand.get(other) > 0 && removed > most {
                return Err(K::Unremoved {
                    side,
                    removed,
                    by: other,
                    placed: *placed.get(other),
                });
            }
        }
        if let Some(at) = self.mechanics.lose_at() {
            let left = |s: Side| count.get(s) + u32::from(*in_hand.get(s));
            if Side::ALL.into_iter().all(|s| left(s) <= u32::from(at)) {
                return Err(K::BothReduced {
                    at,
                    x: left(Side::X),
                    o: left(Side::O),
                });
            }
        }
        Ok(())
    }

    /// Where no placement may complete a line (`placing_lines()`
    /// "refused"): a side with pieces in hand has only placed, so no line
    /// of its stands.
    fn check_placed_lines(
        &self,
        marks: &BySide<CellSet>,
        in_hand: BySide<u16>,
    ) -> Result<(), SetupErrorKind> {
        if self.mechanics.placing_lines() != PlacingLines::Refused {
            return Ok(());
        }
        for side in Side::ALL {
            let line = self.mechanics.in_lines(*marks.get(side));
            if *in_hand.get(side) > 0 && !line.is_empty() {
                return Err(K::LineWhilePlacing {
                    side,
                    cells: line.into_iter().map(|c| self.grid().name(c)).collect(),
                });
            }
        }
        Ok(())
    }

    fn check_counts(
        &self,
        turn: Side,
        count: BySide<u32>,
        captures: BySide<u16>,
        board: &Field<'_>,
        side: &Field<'_>,
    ) -> Result<(), SetupError> {
        if captures.x + captures.o > 0 {
            return self
                .mechanics
                .captures
                .check_counts(turn, count, captures)
                .map_err(|k| SetupError::new(k, board.span.clone()));
        }
        if let Some(keep) = self.mechanics.keep
            && ageing::check_counts(keep, count)
                .map_err(|k| SetupError::new(k, board.span.clone()))?
        {
            return Ok(());
        }
        let (x, o) = (count.x, count.o);
        if self.mechanics.marks == Marks::Shared && o > 0 {
            return fail(&board.span, K::SharedO { o });
        }
        let turns = &self.mechanics.turns;
        if !turns.is_alternating() {
            // Turns of several marks: the marks placed say whose turn it is.
            let ply = count.x + count.o;
            let place = turns.place(ply);
            let want = turns.marks_after(ply);
            if self.mechanics.marks == Marks::Own && (want.x, want.o) != (count.x, count.o) {
                return fail(
                    &board.span,
                    K::TurnCounts {
                        ply,
                        want,
                        found: count,
                    },
                );
            }
            if place.side() != turn {
                return fail(
                    &side.span,
                    K::TurnSide {
                        ply,
                        side: place.side(),
                        mark: place.mark + 1,
                        of: place.of,
                    },
                );
            }
            return Ok(());
        }
        if self.mechanics.marks != Marks::Own {
            let even = (x + o) % 2 == 0;
            if even != (turn == Side::X) {
                return fail(&board.span, K::Parity { turn, marks: x + o });
            }
            return Ok(());
        }
        // Counted from the start: the empty board with X to move, or the
        // rulebook's `[board] start`, whose own counts are its author's.
        let (ahead, first) = match &self.start {
            Some(s) => (
                i64::from(s.marks(Side::X).count()) - i64::from(s.marks(Side::O).count()),
                s.turn,
            ),
            None => (0, Side::X),
        };
        let more = match (turn == first, first) {
            (true, _) => ahead,
            (false, Side::X) => ahead + 1,
            (false, Side::O) => ahead - 1,
        };
        if i64::from(x) - i64::from(o) == more {
            return Ok(());
        }
        fail(&board.span, K::Counts { turn, more, x, o })
    }

    /// With gravity, every mark must rest on its support; the empty cells
    /// that do not yet rest on theirs are closed.
    fn check_support(&self, pos: &mut Position, board: &Field<'_>) -> Result<(), SetupError> {
        let t = &self.mechanics;
        if !t.gravity {
            return Ok(());
        }
        let occupied = pos.occupied();
        let supported = t.supported(occupied);
        if let Some(c) = (occupied & !supported).first() {
            let under = (t.support[c.index()] & !occupied)
                .into_iter()
                .map(|u| self.grid().name(u))
                .collect();
            return fail(
                &board.span,
                K::Unsupported {
                    cell: self.grid().name(c),
                    under,
                },
            );
        }
        pos.closed_cells = t.all & !supported;
        Ok(())
    }

    /// Reads the board field: rows top first, separated by `/`.
    fn parse_board(&self, board: &Field<'_>) -> Result<(BySide<CellSet>, Stacks), SetupError> {
        let g = self.grid();
        let rows: Vec<&str> = board.text.split('/').collect();
        if rows.len() != g.height() as usize {
            return fail(
                &board.span,
                K::Rows {
                    rows: g.height(),
                    found: rows.len(),
                },
            );
        }
        let mut marks = BySide::<CellSet>::default();
        let mut stacks = Stacks::default();
        let t = &self.mechanics;
        let mut row_start = board.span.start;
        for (i, row_text) in rows.iter().enumerate() {
            let row_span = row_start..row_start + row_text.len();
            row_start = row_span.end + 1;
            let row = g.height() as usize - 1 - i;
            let cells: Vec<_> = self.row_cells(row as u32).collect();
            let mut col = 0usize;
            let mut chars = row_text.char_indices().peekable();
            while let Some((at, c)) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d as usize;
                    while let Some(d) = chars.peek().and_then(|&(_, c)| c.to_digit(10)) {
                        // Saturating: an absurd count is reported as a wrong row, not an overflow.
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    col = col.saturating_add(n);
                } else if c == '.' {
                    col = col.saturating_add(1);
                } else if t.has_stacks() && Side::from_char(c).is_some() {
                    // A stack: `XL`, `XL(OMXS)`.
                    let at = row_span.start + at;
                    let (pieces, len) = match t.read_stack(&row_text[at - row_span.start..]) {
                        Ok(read) => read,
                        Err(StackError::At(k)) => {
                            // Past the end of the row: a `(` left open.
                            let next = row_text[at - row_span.start + k..].chars().next();
                            let at = at + k;
                            let span = at..at + next.map_or(0, char::len_utf8);
                            let found = next.unwrap_or('(');
                            return fail(&span, K::RowChar { row: i + 1, found });
                        }
                        Err(StackError::Unclosed(k)) => {
                            let span = at + k..at + k + 1;
                            return fail(&span, K::StackUnclosed { row: i + 1 });
                        }
                        Err(StackError::NoSize(k)) => {
                            let sizes = t.size_letters().into_iter().collect();
                            let span = at + k..at + k + 1;
                            return fail(&span, K::PieceSize { row: i + 1, sizes });
                        }
                    };
                    while chars
                        .peek()
                        .is_some_and(|&(j, _)| row_span.start + j < at + len)
                    {
                        chars.next();
                    }
                    if let Some(&cell) = cells.get(col) {
                        t.stack_up(&mut stacks, (cell, g.name(cell)), &pieces)
                            .map_err(|k| SetupError::new(k, at..at + len))?;
                    }
                    col = col.saturating_add(1);
                } else if let Some(side) = Side::from_char(c) {
                    if let Some(&cell) = cells.get(col) {
                        marks.get_mut(side).insert(cell);
                    }
                    col = col.saturating_add(1);
                } else {
                    let at = row_span.start + at;
                    return fail(
                        &(at..at + c.len_utf8()),
                        K::RowChar {
                            row: i + 1,
                            found: c,
                        },
                    );
                }
            }
            if col != cells.len() {
                return fail(
                    &row_span,
                    K::RowLength {
                        row: i + 1,
                        found: (col <= crate::geometry::MAX_CELLS).then_some(col),
                        width: cells.len() as u32,
                    },
                );
            }
        }
        if t.has_stacks() {
            marks = stacks.shown();
        }
        Ok((marks, stacks))
    }

    /// Reads the pieces in hand (field 3), or works them out from the
    /// marks on the board when it is left out.
    fn parse_hand(
        &self,
        field: Option<&Field<'_>>,
        board: &Field<'_>,
        count: BySide<u32>,
    ) -> Result<BySide<u16>, SetupError> {
        let pieces = self.mechanics.pieces;
        if pieces == 0 {
            return match field.filter(|f| f.text != "-") {
                None => Ok(BySide { x: 0, o: 0 }),
                Some(f) => fail(&f.span, K::HandNone(f.text.to_string())),
            };
        }
        if pieces == UNLIMITED {
            return match field.filter(|f| f.text != "-") {
                None => Ok(BySide {
                    x: UNLIMITED,
                    o: UNLIMITED,
                }),
                Some(f) => fail(&f.span, K::HandUnlimited(f.text.to_string())),
            };
        }
        let derived = BySide::new_with(|s| i64::from(pieces) - i64::from(*count.get(s)));
        for s in Side::ALL {
            if *derived.get(s) < 0 {
                return fail(
                    &board.span,
                    K::HandTooMany {
                        side: s,
                        on_board: *count.get(s),
                        pieces,
                    },
                );
            }
        }
        // Left out, the hand is what the board leaves of the pieces; where
        // lines remove pieces, no more than the start held.
        let start = self.initial().in_hand;
        let given = match field {
            None if self.mechanics.removes() => {
                BySide::new_with(|s| (*derived.get(s)).min(i64::from(*start.get(s))))
            }
            None => derived,
            Some(f) => {
                let parsed = f
                    .text
                    .split_once(',')
                    .and_then(|(x, o)| Some((x.parse::<i64>().ok()?, o.parse::<i64>().ok()?)));
                let Some((x, o)) = parsed else {
                    return fail(&f.span, K::HandSyntax(f.text.to_string()));
                };
                BySide { x, o }
            }
        };
        // Where lines remove pieces, fewer may stand than were placed.
        let removes = self.mechanics.removes();
        for s in Side::ALL {
            let (given, derived) = (*given.get(s), *derived.get(s));
            if given != derived && !(removes && (0..derived).contains(&given)) {
                // Only a given field can differ from the derived counts.
                let at = field.map_or(&board.span, |f| &f.span);
                return fail(
                    at,
                    K::HandMismatch {
                        side: s,
                        on_board: *count.get(s),
                        in_hand: given,
                        pieces,
                    },
                );
            }
        }
        // No position after a start with fewer in hand comes back to more
        // (Shisima's pieces all start on the board: nothing is placed).
        for s in Side::ALL {
            let (in_hand, start) = (*given.get(s) as u16, *start.get(s));
            if in_hand > start {
                let at = field.map_or(&board.span, |f| &f.span);
                return fail(
                    at,
                    K::HandAboveStart {
                        side: s,
                        in_hand,
                        start,
                    },
                );
            }
        }
        Ok(BySide::new_with(|s| *given.get(s) as u16))
    }

    /// Works out held and closed regions and any completed line from the
    /// marks, as if the last move made it; `given` is the fifth field, who
    /// holds each region, where the marks cannot tell.
    /// `board` and `fifth` are the bytes of the board field and of the
    /// fifth field (or where it would go).
    fn settle_lines(
        &self,
        pos: &mut Position,
        given: Option<BySide<u32>>,
        board: &Field<'_>,
        fifth: &Range<usize>,
    ) -> Result<(), SetupError> {
        let t = &self.mechanics;
        let rule = t.line_result;
        // Who made the last move: the other side, unless a turn has several
        // marks and the side to move is in the middle of its own.
        let mover = match pos.ply {
            0 => pos.turn.other(),
            _ if t.turns.is_alternating() => pos.turn.other(),
            _ => t.turns.place(pos.marks_played().saturating_sub(1)).side(),
        };
        // A slide or a twist can make a line for either side, or both:
        // judged as it is.
        if t.judges_whole_board() {
            t.judge_whole_board(pos, mover);
            return Ok(());
        }
        let line_but_to_move = |side: Side| fail(&board.span, K::LineButToMove(side));
        let holders = if t.regions.is_empty() {
            let lines: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|&mark| t.has_line(mark, pos.marks(mark), pos.marks(mark.other()), t.all))
                .collect();
            match lines[..] {
                // Own marks: a line is made on its owner's move, whatever it means.
                [mark] if t.marks == Marks::Own && mark != mover => {
                    return line_but_to_move(mark);
                }
                _ => lines.iter().map(|&mark| rule.holder(mark, mover)).collect(),
            }
        } else {
            t.settle_held(pos, given, mover, &board.span, fifth)?
        };
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
            _ => fail(&board.span, K::BothLines),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rulebook;

    /// The kind and the bytes of `text` that `rulebook` refuses it for.
    fn refused(rulebook: &str, text: &'static str) -> (SetupErrorKind, &'static str) {
        let rules = Rulebook::builtin(rulebook).unwrap();
        let e = rules.parse_position(text).expect_err(text);
        (e.kind, &text[e.span])
    }

    #[test]
    fn an_error_names_what_is_wrong_and_where() {
        use SetupErrorKind as K;
        assert_eq!(
            refused("classic", "XX1/3/3 O"),
            (
                K::Counts {
                    turn: Side::O,
                    more: 1,
                    x: 2,
                    o: 0
                },
                "XX1/3/3"
            )
        );
        assert_eq!(
            refused("classic", "3/3/Z2 X"),
            (K::RowChar { row: 3, found: 'Z' }, "Z")
        );
        assert_eq!(
            refused("classic", "3/XOXO/3 X"),
            (
                K::RowLength {
                    row: 2,
                    found: Some(4),
                    width: 3
                },
                "XOXO"
            )
        );
        assert_eq!(
            refused("classic", "  3/3/3   Y "),
            (K::SideToMove("Y".into()), "Y")
        );
        assert_eq!(
            refused("classic", "3/3/3 X - - extra more"),
            (
                K::FieldCount {
                    found: 6,
                    fifth: None
                },
                "extra more"
            )
        );
        let (kind, at) = refused("classic", "3/3/3 ");
        assert_eq!(
            (kind, at),
            (
                K::FieldCount {
                    found: 1,
                    fifth: None
                },
                ""
            )
        );
        assert_eq!(
            refused("classic", "3/3/3 X - 1"),
            (K::TargetNoRegions("1".into()), "1")
        );
        assert_eq!(
            refused("classic", "XXX/OO1/O2 X"),
            (K::LineButToMove(Side::X), "XXX/OO1/O2")
        );
    }

    #[test]
    fn a_cell_is_named_as_the_board_names_it() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let e = rules.parse_position("7/7/7/7/3X3/7 O").unwrap_err();
        let g = rules.grid();
        let name = |text: &str| g.name(g.parse_cell(text).unwrap());
        assert_eq!(
            e.kind,
            SetupErrorKind::Unsupported {
                cell: name("d2"),
                under: vec![name("d1")],
            }
        );
        assert_eq!(
            e.to_string(),
            "the mark on d2 does not rest on anything: d1 must be filled first"
        );
    }
}
