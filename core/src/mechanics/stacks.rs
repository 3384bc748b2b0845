//! Pieces of several sizes that stack (`sizes()`): each side holds so many
//! pieces of each size; a move puts one from hand (`b2=L`) or moves one of
//! the mover's pieces that shows (`a1-b2`) onto an empty cell or over a
//! smaller piece of either side, which stays beneath and shows again when
//! its cover leaves. Lines are judged on the pieces that show, on the
//! whole board, after the whole move (see `whole_board`): lifting a piece
//! may reveal the opponent's line.
//!
//! Everything the mechanic does lives here: reading its hook, listing,
//! checking and making the moves, the hands, and the stacks' text in the
//! position text.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellName, CellSet};
use crate::position::{
    BySide, Ending, MAX_SIZES, MAX_STACK_CELLS, Move, MoveList, Position, Side, Stacks,
};
use crate::refusal::Refusal;
use crate::script::hooks::HookId;
use crate::setup_error::SetupErrorKind;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "stacks",
    hooks: &[HookId::Sizes],
    build,
};

/// The most pieces of one size a side may hold.
const MAX_PER_SIZE: i64 = 15;

/// The sizes pieces come in, smallest first; none where pieces do not stack.
#[derive(Debug, Clone, Default)]
pub struct Sizes {
    /// Each size's letter and how many pieces of it each side holds.
    all: Vec<(char, u8)>,
    /// Where a piece that shows may move, by cell, where `steps()` says;
    /// `None` for anywhere.
    steps: Option<Vec<u64>>,
    /// Every winning window of the board, where wins are windows: both
    /// sides' lines are read off them after each move, without a branch
    /// a window. Empty otherwise.
    windows: Vec<u64>,
}

/// Reads `sizes()`, and refuses sizes beside a mechanic they cannot go with.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let hook = HookId::Sizes;
    let Some(v) = load.call(hook, ())? else {
        return Ok(());
    };
    let bad = |why: String| load.bad(hook, format!("sizes(): {why}"));
    let form = "expected an array of [letter, pieces] pairs, smallest first, such as [[\"S\", 2], [\"M\", 2], [\"L\", 2]]";
    let list = load.array(hook, "sizes()", v)?;
    if list.is_empty() || list.len() > MAX_SIZES {
        return Err(bad(format!(
            "{} sizes: expected 1 to {MAX_SIZES}; {form}",
            list.len()
        )));
    }
    let mut all = Vec::new();
    for item in list {
        let pair = item.try_cast::<rhai::Array>().unwrap_or_default();
        let [letter, count] = &pair[..] else {
            return Err(bad(form.to_string()));
        };
        let letter = letter.clone().into_string().unwrap_or_default();
        let mut chars = letter.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() && Side::from_char(c).is_none() => c,
            _ => {
                return Err(bad(format!(
                    "`{}` is not a size's name: a capital letter other than X and O (a placement is written b2=L)",
                    letter.escape_debug()
                )));
            }
        };
        if all.iter().any(|&(l, _)| l == letter) {
            return Err(bad(format!("two sizes are named `{letter}`")));
        }
        let count = match count.as_int() {
            Ok(n) if (1..=MAX_PER_SIZE).contains(&n) => n as u8,
            _ => {
                return Err(bad(format!(
                    "size `{letter}`: pieces per side must be a number from 1 to {MAX_PER_SIZE}"
                )));
            }
        };
        all.push((letter, count));
    }
    if load.grid.len() > MAX_STACK_CELLS {
        return Err(bad(format!(
            "pieces stack on boards of at most {MAX_STACK_CELLS} cells; this one has {}",
            load.grid.len()
        )));
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
        P::Twists,
        P::TurnMarks,
        P::SidedWins,
    ];
    let other = t.first_in_use(&clash).or(if t.removes() {
        Some("removes()")
    } else if t.jumps.iter().any(|j| !j.is_empty()) {
        Some("jumps()")
    } else if t.fly_at != 0 || t.lose_at.is_some() {
        Some("fly_at() or lose_at()")
    } else if t.has_any_patterns() {
        Some("forbidden_patterns()")
    } else {
        None
    });
    if let Some(what) = other {
        return Err(bad(format!(
            "sizes cannot go with {what}: each side puts its own pieces from hand or moves one that shows, one a turn, on a plain board"
        )));
    }
    let steps = load
        .host
        .defines(HookId::Steps)
        .then(|| t.steps.iter().map(|s| s.prefix::<1>().words()[0]).collect());
    let every: Vec<Cell> = load.grid.cells().collect();
    let windows = t.windows_through_cells(&every).unwrap_or_default();
    t.stacks = Sizes {
        all,
        steps,
        windows,
    };
    Ok(())
}

/// One word of a set of cells, on a board of at most 64.
#[inline]
fn word(set: CellSet) -> u64 {
    set.prefix::<1>().words()[0]
}

/// The move of a piece of size `size` from `from` (from hand when `None`)
/// to `to`.
fn piece_move(from: Option<Cell>, size: usize, to: Cell) -> Move {
    match from {
        None => Move::Sized {
            to,
            size: size as u8,
        },
        Some(from) => Move::Step { from, to },
    }
}

/// The cells of a word.
fn cells(mut w: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (w != 0).then(|| {
            let c = Cell(w.trailing_zeros() as u16);
            w &= w - 1;
            c
        })
    })
}

// Play: listing, checking and making the moves of pieces that stack.
impl Mechanics {
    /// Whether pieces have sizes and stack (`sizes()`).
    #[inline(always)]
    pub fn has_stacks(&self) -> bool {
        !self.stacks.all.is_empty()
    }

    /// Each size's letter and the pieces of it a side holds, smallest
    /// first; empty where pieces do not stack.
    pub fn sizes(&self) -> &[(char, u8)] {
        &self.stacks.all
    }

    /// The sizes' letters, smallest first; empty where pieces do not stack.
    pub fn size_letters(&self) -> Vec<char> {
        self.stacks.all.iter().map(|&(l, _)| l).collect()
    }

    /// The size named `letter` (either case), from 0.
    pub(crate) fn size_named(&self, letter: &str) -> Option<u8> {
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        (self.stacks.all.iter())
            .position(|&(l, _)| l == c.to_ascii_uppercase())
            .map(|s| s as u8)
    }

    /// The letter of size `size`.
    fn letter(&self, size: usize) -> char {
        self.stacks.all.get(size).map_or('?', |&(l, _)| l)
    }

    /// The pieces each side holds at the start, all sizes together.
    pub(crate) fn stack_pieces(&self) -> u16 {
        self.stacks.all.iter().map(|&(_, n)| u16::from(n)).sum()
    }

    /// How many pieces of size `size` `side` still holds in hand.
    #[inline]
    pub fn in_hand_of_size(&self, pos: &Position, side: Side, size: usize) -> u32 {
        let held = self.stacks.all.get(size).map_or(0, |&(_, n)| u32::from(n));
        held.saturating_sub(pos.stacks.count(side, size))
    }

    /// The cells a piece of size `size` on `from` (none for one from hand)
    /// may go to: empty, or topped by a smaller piece.
    #[inline]
    fn targets(&self, st: &Stacks, size: usize, from: Option<Cell>) -> u64 {
        let open = word(self.all) & !st.at_least(size);
        match (from, &self.stacks.steps) {
            (Some(from), Some(steps)) => open & steps[from.index()],
            _ => open,
        }
    }

    /// Pushes every move of the side to move: a piece of each size it
    /// holds onto each cell it may cover, then each piece of its that
    /// shows to each cell it may cover.
    pub(crate) fn push_stack_moves(&self, pos: &Position, out: &mut MoveList) {
        self.each_piece(pos, |from, size, to| {
            for to in cells(to) {
                out.push(piece_move(from, size, to));
            }
            false
        });
    }

    /// Each piece the side to move may move, with the cells it may go
    /// to: a size it holds (`from` none), then each of its pieces that
    /// shows; `visit` says when to stop.
    #[inline(always)]
    fn each_piece(&self, pos: &Position, mut visit: impl FnMut(Option<Cell>, usize, u64) -> bool) {
        let (side, st) = (pos.turn, &pos.stacks);
        for size in 0..self.stacks.all.len() {
            if self.in_hand_of_size(pos, side, size) > 0
                && visit(None, size, self.targets(st, size, None))
            {
                return;
            }
        }
        for from in cells(word(pos.marks(side))) {
            let size = st.top_size(from).unwrap_or(0);
            if visit(Some(from), size, self.targets(st, size, Some(from))) {
                return;
            }
        }
    }

    /// A uniformly random move of the side to move, drawn from the counts
    /// of each piece's cells without listing them; `None` when it has none.
    #[inline(never)]
    pub(crate) fn random_stack_move(
        &self,
        pos: &Position,
        rng: &mut crate::rng::Rng,
    ) -> Option<Move> {
        let mut total = 0;
        self.each_piece(pos, |_, _, to| {
            total += to.count_ones();
            false
        });
        if total == 0 {
            return None;
        }
        let mut i = rng.below(total as usize) as u32;
        let mut drawn = None;
        self.each_piece(pos, |from, size, to| {
            let k = to.count_ones();
            if i >= k {
                i -= k;
                return false;
            }
            let to = cells(to).nth(i as usize).unwrap_or(Cell(0));
            drawn = Some(piece_move(from, size, to));
            true
        });
        drawn
    }

    /// Whether the side to move has a move.
    pub(crate) fn has_stack_move(&self, pos: &Position) -> bool {
        let mut any = false;
        self.each_piece(pos, |_, _, to| {
            any = to != 0;
            any
        });
        any
    }

    /// Why the side to move of `pos` may not make `mv`, if it may not: a
    /// piece comes from hand with its size named, or is one of the mover's
    /// that shows, and goes where the cell's top is smaller.
    pub(crate) fn check_stack_move(&self, pos: &Position, mv: Move) -> Result<(), Refusal> {
        let (side, st) = (pos.turn, &pos.stacks);
        let (size, from, to) = match mv {
            Move::Sized { to, size } => {
                let size = usize::from(size);
                if size >= self.stacks.all.len() {
                    return Err(Refusal::UnknownSize(
                        to,
                        format!("#{size}"),
                        self.size_letters(),
                    ));
                }
                if self.in_hand_of_size(pos, side, size) == 0 {
                    return Err(Refusal::NoneInHand(to, side, self.letter(size)));
                }
                (size, None, to)
            }
            Move::Step { from, to } => {
                let size = match st.top(from) {
                    Some((s, size)) if s == side => size,
                    _ => return Err(Refusal::NotOwnPiece(from)),
                };
                (size, Some(from), to)
            }
            Move::Place { to, .. } => return Err(Refusal::NoSize(to, self.size_letters())),
            Move::Twist { .. } | Move::Take(_) | Move::Slide { .. } | Move::Swap => {
                let to = mv.to().unwrap_or(Cell(0));
                return Err(Refusal::NoSize(to, self.size_letters()));
            }
        };
        if self.targets(st, size, from) & 1 << to.0 != 0 {
            return Ok(());
        }
        match (from, st.top(to)) {
            (Some(from), _) if from == to || self.stacks.steps.is_some() => {
                Err(Refusal::Unreachable(from, to))
            }
            (_, Some((s, top))) => Err(Refusal::CannotCover(
                to,
                self.letter(size),
                s,
                self.letter(top),
            )),
            // Not reached: an empty cell of the board is open to any piece.
            (_, None) => Err(Refusal::Occupied(to)),
        }
    }

    /// Makes `side`'s move `mv` (a piece from hand, or one that shows
    /// moved), then judges the lines of the pieces that show on the whole
    /// board. Out of line and cold, as a twist is: the other rulebooks'
    /// moves pass it.
    #[cold]
    #[inline(never)]
    pub(crate) fn make_stack_move(&self, p: &mut Position, side: Side, mv: Move) {
        match mv {
            Move::Sized { to, size } => {
                p.stacks.put(side, usize::from(size), to);
                let hand = p.in_hand.get_mut(side);
                *hand = hand.saturating_sub(1);
            }
            Move::Step { from, to } => {
                if let Some(size) = p.stacks.lift(from) {
                    p.stacks.put(side, size, to);
                }
            }
            _ => return,
        }
        p.marks = p.stacks.shown();
        if self.stacks.windows.is_empty() {
            return self.judge_whole_board(p, side);
        }
        let (x, o) = (word(p.marks.x), word(p.marks.o));
        let (mut x_line, mut o_line) = (false, false);
        for &w in &self.stacks.windows {
            x_line |= w & !x == 0;
            o_line |= w & !o == 0;
        }
        let lines = BySide {
            x: x_line,
            o: o_line,
        };
        p.result = self.judge_lines(lines, side).map(|o| (o, Ending::Line));
    }

    /// The pieces on `cell` as the position text writes them: the top,
    /// then what it covers in brackets, top first (`XL(OMXS)`).
    pub(crate) fn stack_text(&self, st: &Stacks, cell: Cell) -> String {
        let mut out = String::new();
        for (i, (side, size)) in st.pieces(cell).enumerate() {
            if i == 1 {
                out.push('(');
            }
            out.push(side.to_char());
            out.push(self.letter(size));
        }
        if out.len() > 2 {
            out.push(')');
        }
        out
    }

    /// The hands as the position text writes them: each side's pieces,
    /// smallest first, `-` for none (`SSMMLL,SML`).
    pub(crate) fn hands_text(&self, pos: &Position) -> String {
        let hand = |side: Side| {
            let mut out = String::new();
            for size in 0..self.stacks.all.len() {
                for _ in 0..self.in_hand_of_size(pos, side, size) {
                    out.push(self.letter(size));
                }
            }
            if out.is_empty() {
                out.push('-');
            }
            out
        };
        format!("{},{}", hand(Side::X), hand(Side::O))
    }

    /// Reads one cell's pieces from the board field, top first, from the
    /// mark of its top on: `XL`, `XL(OMXS)`. Returns the pieces and the
    /// bytes read.
    pub(crate) fn read_stack(&self, text: &str) -> Result<(Vec<(Side, usize)>, usize), StackError> {
        let b = text.as_bytes();
        let mut pieces = Vec::new();
        let mut i = 0;
        let mut piece = |i: &mut usize| -> Result<(), StackError> {
            let side = b
                .get(*i)
                .and_then(|&c| Side::from_char(char::from(c)))
                .ok_or(StackError::At(*i))?;
            let letter = b.get(*i + 1).map(|&c| char::from(c).to_string());
            let size = letter
                .as_deref()
                .and_then(|l| self.size_named(l))
                .ok_or(StackError::NoSize(*i + 1))?;
            pieces.push((side, usize::from(size)));
            *i += 2;
            Ok(())
        };
        piece(&mut i)?;
        if b.get(i) == Some(&b'(') {
            let open = i;
            i += 1;
            while b.get(i) != Some(&b')') {
                // The row goes on (`/`, a count, `.`) or ends inside it.
                if b.get(i)
                    .is_none_or(|c| c.is_ascii_digit() || b"/.".contains(c))
                {
                    return Err(StackError::Unclosed(open));
                }
                piece(&mut i)?;
            }
            i += 1;
        }
        Ok((pieces, i))
    }

    /// Puts the pieces read for `cell` (top first) on `st`: each smaller
    /// than the one above it.
    pub(crate) fn stack_up(
        &self,
        st: &mut Stacks,
        (cell, name): (Cell, CellName),
        pieces: &[(Side, usize)],
    ) -> Result<(), SetupErrorKind> {
        if pieces.windows(2).any(|w| w[1].1 >= w[0].1) {
            return Err(SetupErrorKind::StackOrder {
                cell: name,
                text: {
                    let each: Vec<String> = (pieces.iter())
                        .map(|&(s, z)| format!("{s}{}", self.letter(z)))
                        .collect();
                    format!("{}({})", each[0], each[1..].concat())
                },
            });
        }
        for &(side, size) in pieces {
            st.put(side, size, cell);
        }
        Ok(())
    }

    /// Checks that no side has more pieces of a size on the board than it
    /// holds, and that a hand field, if given, says what the board leaves.
    pub(crate) fn check_stacks(
        &self,
        pos: &Position,
        hands: Option<&str>,
    ) -> Result<(), SetupErrorKind> {
        for side in Side::ALL {
            for (size, &(letter, n)) in self.stacks.all.iter().enumerate() {
                let on = pos.stacks.count(side, size);
                if on > u32::from(n) {
                    return Err(SetupErrorKind::TooManyOfSize {
                        side,
                        letter,
                        on,
                        pieces: n,
                    });
                }
            }
        }
        match hands {
            Some(text) if text != "-" && text != self.hands_text(pos) => {
                Err(SetupErrorKind::Hands {
                    found: text.to_string(),
                    want: self.hands_text(pos),
                })
            }
            _ => Ok(()),
        }
    }
}

/// What is wrong in a cell's stack as written, at a byte of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StackError {
    /// Not a mark where one should be.
    At(usize),
    /// A mark without a size letter after it.
    NoSize(usize),
    /// The `(` at this byte opens the pieces covered and nothing closes it
    /// before the row does.
    Unclosed(usize),
}
