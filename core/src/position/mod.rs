//! The game state: sides, moves, outcomes and the compact `Position`.

mod stacks;

use crate::geometry::{Bits, Cell, CellSet};
use std::fmt;

pub use stacks::{MAX_SIZES, MAX_STACK_CELLS, Stacks};

/// One of the two players. X always moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }

    /// The side's mark as a character, `X` or `O`.
    pub fn to_char(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }

    /// Parses `X`/`x` or `O`/`o`.
    pub fn from_char(c: char) -> Option<Side> {
        match c {
            'X' | 'x' => Some(Side::X),
            'O' | 'o' => Some(Side::O),
            _ => None,
        }
    }

    /// Both sides, X first.
    pub const ALL: [Side; 2] = [Side::X, Side::O];
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// One value per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BySide<T> {
    /// X's value.
    pub x: T,
    /// O's value.
    pub o: T,
}

impl<T> BySide<T> {
    /// Builds both values from a function of the side.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        BySide {
            x: f(Side::X),
            o: f(Side::O),
        }
    }

    /// The value of `side`.
    #[inline]
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::X => &self.x,
            Side::O => &self.o,
        }
    }

    /// The value of `side`, mutably.
    #[inline]
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::X => &mut self.x,
            Side::O => &mut self.o,
        }
    }
}

/// A move: a new mark placed, a piece moved to another cell, a line of
/// marks slid, a mark placed and a block of cells twisted, a piece of a
/// size put on a stack, or the pie rule's swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a mark (or a piece from hand) on an empty cell.
    Place {
        /// The cell.
        to: Cell,
        /// The mark placed: the mover's own, unless the rulebook lets a move
        /// choose it (`marks()` is `"either"`) or both sides share one.
        mark: Side,
    },
    /// Put the mover's piece of size `size` (from 0, the smallest) from
    /// hand on `to`, empty or topped by a smaller piece (`sizes()`).
    Sized {
        /// The cell.
        to: Cell,
        /// The piece's size, from 0.
        size: u8,
    },
    /// Move an own piece from one cell to another (a step or a jump); with
    /// sizes, the piece on top of `from`.
    Step {
        /// Where the piece stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
    /// A slide (`slides(cell)`): the mark at `from` leaves the board, the
    /// marks along the slide's path shift one cell back towards `from`, and
    /// the path's last cell, `to`, gets the mover's mark or is left empty.
    Slide {
        /// Where the path starts: the mark taken.
        from: Cell,
        /// Where it ends.
        to: Cell,
    },
    /// A twist (`twists()`): the mover's mark is placed on `to`, then the
    /// marks of a block of cells are permuted by twist number `twist` (a
    /// quarter turn of a quadrant).
    Twist {
        /// Where the mark is placed.
        to: Cell,
        /// The twist's number in the rulebook's table.
        twist: u8,
    },
    /// A placement or a step that completes a line where lines remove
    /// (`removes()`): the mover's piece goes to the removal's `to` (from
    /// hand when its `from` is `None`), then the opponent's piece on its
    /// `take` leaves the board.
    Take(Removal),
    /// The pie rule (PI1): the second player answers the first move by
    /// taking its side. The board and the side to move stay; the seats
    /// exchange marks, so the first player continues as O.
    Swap,
}

impl Move {
    /// The cell that receives a mark (none for a swap, nor for a slide,
    /// which moves many).
    #[inline]
    pub fn to(self) -> Option<Cell> {
        match self {
            Move::Place { to, .. }
            | Move::Sized { to, .. }
            | Move::Step { to, .. }
            | Move::Twist { to, .. } => Some(to),
            Move::Take(r) => Some(r.to()),
            Move::Slide { .. } | Move::Swap => None,
        }
    }

    /// The mark this move puts on the board; `mover` moves pieces of its
    /// own (and puts none down with a swap).
    #[inline]
    pub fn mark(self, mover: Side) -> Side {
        match self {
            Move::Place { mark, .. } => mark,
            Move::Sized { .. }
            | Move::Step { .. }
            | Move::Slide { .. }
            | Move::Twist { .. }
            | Move::Take(_)
            | Move::Swap => mover,
        }
    }

    /// The cell a piece leaves, for a movement.
    #[inline]
    pub fn from(self) -> Option<Cell> {
        match self {
            Move::Place { .. } | Move::Sized { .. } | Move::Twist { .. } | Move::Swap => None,
            Move::Step { from, .. } | Move::Slide { from, .. } => Some(from),
            Move::Take(r) => r.from(),
        }
    }
}

/// The three cells of a removing move ([`Move::Take`]), packed ten bits
/// each into four bytes so that a `Move` stays six bytes: an eight-byte one
/// cost every rulebook's moves (3 % more instructions on a board of
/// sub-boards, which copies the last move into every position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Removal([u16; 2]);

impl Removal {
    /// A piece from `from` (from hand when `None`) to `to`, removing the
    /// opponent's on `take`. Cells are below 1024 ([`crate::geometry::MAX_CELLS`]).
    pub fn new(from: Option<Cell>, to: Cell, take: Cell) -> Removal {
        let from = from.map_or(0, |c| u32::from(c.0) + 1);
        let bits = u32::from(to.0) | u32::from(take.0) << 10 | from << 20;
        Removal([bits as u16, (bits >> 16) as u16])
    }

    fn bits(self) -> u32 {
        u32::from(self.0[0]) | u32::from(self.0[1]) << 16
    }

    /// Where the piece stands, for a step; `None` for a placement.
    pub fn from(self) -> Option<Cell> {
        let from = self.bits() >> 20 & 0x3ff;
        (from != 0).then(|| Cell((from - 1) as u16))
    }

    /// Where the piece goes.
    pub fn to(self) -> Cell {
        Cell((self.bits() & 0x3ff) as u16)
    }

    /// The opponent's piece removed.
    pub fn take(self) -> Cell {
        Cell((self.bits() >> 10 & 0x3ff) as u16)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(s) => Some(s),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// The contract text: `X wins`, `O wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(s) => write!(f, "{s} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// Why a game ended; the engine reports it beside the [`Outcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A winning line was completed (or, with regions, a line of regions).
    Line,
    /// The side to move had no legal move; the rulebook's `no_moves()`
    /// decided. Holds that side.
    NoMoves(Side),
    /// No cell is left to play (all taken, or in closed regions): as
    /// [`Ending::NoMoves`], but said the way people say it.
    Full,
    /// The same position occurred the rulebook's `repetition()` number of
    /// times; holds that number.
    Repetition(u32),
    /// The rulebook's per-move `outcome(state)` hook declared it.
    Script,
    /// The winner made the rulebook's `capture_wins()` number of captures;
    /// holds that number.
    Captures(u16),
    /// The winner took the rulebook's `capture_wins()` number of stones
    /// (`#{ stones: n }`); holds that number.
    Stones(u16),
    /// The loser was left with the rulebook's `lose_at()` number of pieces
    /// or fewer; holds the loser and the pieces it has left.
    Reduced(Side, u16),
    /// A player resigned (G4); the other side won. Set by [`crate::Game`], not the board.
    Resigned(Side),
    /// The players agreed to a draw (T3). Set by [`crate::Game`], not the board.
    Agreed,
    /// A match stopped the game, unfinished, at its move limit and counted
    /// it a draw; holds the moves played. Set by [`crate::Game`], not the board.
    MoveLimit(u32),
}

impl Ending {
    /// One ending of each kind, for what must cover them all (the names a
    /// record may give, the reference's words). A new kind stops this from
    /// compiling until it is added here.
    pub fn one_of_each() -> [Ending; 11] {
        let all = [
            Ending::Line,
            Ending::NoMoves(Side::X),
            Ending::Full,
            Ending::Repetition(3),
            Ending::Script,
            Ending::Captures(5),
            Ending::Stones(15),
            Ending::Reduced(Side::O, 2),
            Ending::Resigned(Side::X),
            Ending::Agreed,
            Ending::MoveLimit(1000),
        ];
        for e in all {
            match e {
                Ending::Line
                | Ending::NoMoves(_)
                | Ending::Full
                | Ending::Repetition(_)
                | Ending::Script
                | Ending::Captures(_)
                | Ending::Stones(_)
                | Ending::Reduced(..)
                | Ending::Resigned(_)
                | Ending::Agreed
                | Ending::MoveLimit(_) => {}
            }
        }
        all
    }
}

/// What a side's capture count counts (`capture_wins()`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CaptureUnit {
    /// Captures made, whatever each takes (`capture_wins() { 5 }`).
    #[default]
    Captures,
    /// Opponent marks taken (`capture_wins() { #{ stones: 15 } }`).
    Stones,
}

impl CaptureUnit {
    /// What the counts are called: `captures`, `stones captured`.
    pub fn words(self) -> &'static str {
        match self {
            CaptureUnit::Captures => "captures",
            CaptureUnit::Stones => "stones captured",
        }
    }
}

/// Sentinel for "no region" in [`Position`]'s `target` field.
pub const NO_REGION: u8 = u8::MAX;
/// Sentinel for "no limit" in [`Position`]'s pieces in hand.
pub const UNLIMITED: u16 = u16::MAX;

/// The whole state of a game at one moment: `Copy`, no heap.
///
/// Everything a rulebook's rules need lives here: the marks of each side, the
/// side to move, the pieces each side still holds, the region the next move is
/// sent to, which regions are closed and who owns them, and the result once the
/// game is over. History (for undo and repetition) is kept by [`crate::Game`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) marks: BySide<CellSet>,
    pub(crate) turn: Side,
    pub(crate) in_hand: BySide<u16>,
    pub(crate) target: u8,
    pub(crate) regions_won: BySide<u32>,
    pub(crate) regions_closed: u32,
    /// Cells no mark may enter yet: those of closed regions, and those that
    /// do not rest on their `support()` cells.
    pub(crate) closed_cells: CellSet,
    pub(crate) result: Option<(Outcome, Ending)>,
    /// Moves played since the rulebook's initial position (a set-up position
    /// counts the marks on its board).
    pub(crate) ply: u16,
    /// The last move, if any (per-move hooks see it).
    pub(crate) last: Option<Move>,
    /// Captures each side has made (`captures()`).
    pub(crate) captures: BySide<u16>,
    /// Whether the second player has swapped (the pie rule, PI1).
    pub(crate) swapped: bool,
    /// Each side's marks oldest first, where the rulebook keeps a bounded
    /// number (`keep_marks()`); empty otherwise.
    pub(crate) ages: BySide<Ages>,
    /// Every piece by size, covered or not, where pieces have sizes
    /// (`sizes()`); empty otherwise.
    pub(crate) stacks: Stacks,
}

/// The most marks a side may keep under `keep_marks()`.
pub const MAX_KEPT: usize = 8;

/// One side's marks in the order they were placed, oldest first, where the
/// rulebook keeps a bounded number of them (`keep_marks()`): the order
/// says which vanishes next, so it is part of the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Ages {
    cells: [u16; MAX_KEPT],
    len: u8,
}

impl Ages {
    /// The marks, oldest first.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells[..self.len as usize].iter().map(|&c| Cell(c))
    }

    /// How many marks are kept.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the newest mark; the caller keeps at most [`MAX_KEPT`].
    #[inline]
    pub(crate) fn push(&mut self, cell: Cell) {
        self.cells[self.len as usize] = cell.0;
        self.len += 1;
    }

    /// Takes out the oldest mark.
    #[inline]
    pub(crate) fn pop_oldest(&mut self) -> Option<Cell> {
        let len = self.len as usize;
        if len == 0 {
            return None;
        }
        let oldest = Cell(self.cells[0]);
        self.cells.copy_within(1..len, 0);
        self.cells[len - 1] = 0;
        self.len -= 1;
        Some(oldest)
    }

    /// The ages as built from `cells`, oldest first; `None` past [`MAX_KEPT`].
    pub(crate) fn from_cells(cells: &[Cell]) -> Option<Ages> {
        let mut ages = Ages::default();
        if cells.len() > MAX_KEPT {
            return None;
        }
        for &c in cells {
            ages.push(c);
        }
        Some(ages)
    }
}

impl Position {
    /// The marks of `side`.
    #[inline]
    pub fn marks(&self, side: Side) -> CellSet {
        *self.marks.get(side)
    }

    /// All occupied cells.
    #[inline]
    pub fn occupied(&self) -> CellSet {
        self.marks.x | self.marks.o
    }

    /// The occupied cells in the first `W` words (see [`crate::bits`]).
    #[inline(always)]
    pub(crate) fn occupied_in<const W: usize>(&self) -> Bits<W> {
        self.marks.x.prefix::<W>() | self.marks.o.prefix::<W>()
    }

    /// The side whose mark is on `cell`.
    pub fn mark_at(&self, cell: Cell) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&s| self.marks(s).contains(cell))
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Pieces `side` still has to place; `None` when marks are unlimited.
    pub fn in_hand(&self, side: Side) -> Option<u16> {
        let n = *self.in_hand.get(side);
        (n != UNLIMITED).then_some(n)
    }

    /// The region the next move must be played in, if the rules restrict it.
    pub fn target(&self) -> Option<usize> {
        (self.target != NO_REGION).then_some(self.target as usize)
    }

    /// Regions won by `side`, as a bit mask over region numbers.
    pub fn regions_won(&self, side: Side) -> u32 {
        *self.regions_won.get(side)
    }

    /// Closed regions (won or full), as a bit mask over region numbers.
    pub fn regions_closed(&self) -> u32 {
        self.regions_closed
    }

    /// Empty cells no mark may enter now: their region is closed, or they do
    /// not yet rest on the cells that support them.
    pub fn closed_cells(&self) -> CellSet {
        self.closed_cells
    }

    /// Moves played so far (a set-up position counts the marks on its board).
    pub fn ply(&self) -> u32 {
        u32::from(self.ply)
    }

    /// The move that led here, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.last
    }

    /// The moves that put a mark down or moved one, the count the turn
    /// structure goes by: every move but a swap.
    pub fn marks_played(&self) -> u32 {
        self.ply() - u32::from(self.swapped)
    }

    /// Whether the second player has swapped (the pie rule, PI1).
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The captures `side` has made (`captures()`).
    pub fn captures(&self, side: Side) -> u16 {
        *self.captures.get(side)
    }

    /// `side`'s marks oldest first, where the rulebook keeps a bounded
    /// number (`keep_marks()`); empty otherwise.
    pub fn ages(&self, side: Side) -> &Ages {
        self.ages.get(side)
    }

    /// Every piece on the board by size, where pieces have sizes
    /// (`sizes()`); empty otherwise.
    pub fn stacks(&self) -> &Stacks {
        &self.stacks
    }

    /// The result, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.result.map(|(o, _)| o)
    }

    /// The result and why the game ended.
    pub fn ending(&self) -> Option<(Outcome, Ending)> {
        self.result
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Whether the two are the same game state: equal in everything but the
    /// move count and the last move, which the position text does not hold.
    pub fn same_state(&self, other: &Position) -> bool {
        Position {
            ply: other.ply,
            last: other.last,
            ..*self
        } == *other
    }

    /// A 64-bit key of everything that makes two positions the same for
    /// repetition: marks, side to move, pieces in hand, target region, the
    /// regions each side holds, the captures each has made, whether the
    /// pie rule's swap was made, the age order of marks that vanish and
    /// the pieces stacked under the tops.
    pub fn key(&self) -> u64 {
        const M: u64 = 0xff51_afd7_ed55_8ccd;
        let mut h = 0x9e37_79b9_7f4a_7c15_u64;
        let mut mix = |v: u64, m: u64| {
            h = (h ^ v).wrapping_mul(m);
            h ^= h >> 32;
        };
        // Only the words that hold a mark are mixed, each with its own
        // multiplier so that the same word in another place hashes apart:
        // a small board costs one word of the wide sets, not all of them.
        let (x, o) = (self.marks.x.words(), self.marks.o.words());
        for i in 0..x.len() {
            if x[i] | o[i] != 0 {
                let m = M.wrapping_add((i as u64) << 33);
                mix(x[i], m);
                mix(o[i], m ^ 0x9e37_79b9_7f4a_7c14);
            }
        }
        mix(self.turn as u64, M);
        mix(
            u64::from(self.in_hand.x) << 16 | u64::from(self.in_hand.o),
            M,
        );
        mix(u64::from(self.target), M);
        // Held regions follow from the marks except where a filled region
        // goes to whoever filled it; most positions hold none.
        let held = u64::from(self.regions_won.x) << 32 | u64::from(self.regions_won.o);
        if held != 0 {
            mix(held, M);
        }
        // Captures can win: two boards alike with other counts differ.
        let captures = u64::from(self.captures.x) << 16 | u64::from(self.captures.o);
        if captures != 0 {
            mix(captures, M);
        }
        // Before the swap and after it, the same board is another position:
        // the second player's choice is made.
        if self.swapped {
            mix(0x5ea7, M);
        }
        // Marks that age (the same marks in another order vanish
        // otherwise), and pieces of sizes (the marks show the tops; what
        // they cover and how large they are is the rest of the position).
        // Neither where the rulebook has none: one test, the work out of
        // line.
        if self.ages.x.len | self.ages.o.len | u8::from(self.stacks.in_use()) != 0 {
            h = self.rare_key(h);
        }
        h
    }

    /// `h` with the age order of both sides' marks and every stacked
    /// piece mixed in; out of line so that the other rulebooks pay one
    /// test in `key`.
    #[inline(never)]
    fn rare_key(&self, mut h: u64) -> u64 {
        const M: u64 = 0xff51_afd7_ed55_8ccd;
        for (side, ages) in [(1u64, &self.ages.x), (2, &self.ages.o)] {
            for c in ages.cells() {
                h = (h ^ (u64::from(c.0) << 2 | side)).wrapping_mul(M);
                h ^= h >> 32;
            }
        }
        if self.stacks.in_use() {
            const S: u64 = 0xc4ce_b9fe_1a85_ec53;
            for w in self.stacks.words() {
                h = (h ^ w).wrapping_mul(S);
                h ^= h >> 32;
            }
        }
        h
    }
}

/// A reusable list of moves; `clear` keeps its buffer so the hot loop does not allocate.
#[derive(Debug, Clone, Default)]
pub struct MoveList(Vec<Move>);

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList(Vec::with_capacity(256))
    }

    /// Removes every move, keeping the buffer.
    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    /// Keeps, from `start` on, only the moves for which `keep` says yes, in order.
    pub(crate) fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = start;
        for i in start..self.0.len() {
            let mv = self.0[i];
            if keep(mv) {
                self.0[kept] = mv;
                kept += 1;
            }
        }
        self.0.truncate(kept);
    }

    /// Keeps only the moves for which `keep` says yes, in order; the first
    /// error ends the walk, leaves the list empty, and is returned.
    pub fn try_retain<E>(
        &mut self,
        mut keep: impl FnMut(Move) -> Result<bool, E>,
    ) -> Result<(), E> {
        let mut kept = 0;
        for i in 0..self.0.len() {
            let mv = self.0[i];
            match keep(mv) {
                Ok(true) => {
                    self.0[kept] = mv;
                    kept += 1;
                }
                Ok(false) => {}
                Err(e) => {
                    self.0.clear();
                    return Err(e);
                }
            }
        }
        self.0.truncate(kept);
        Ok(())
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.0
    }
}
