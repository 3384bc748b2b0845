//! Lines that remove (`removes()`): a move that completes a line does not
//! end the game; the mover removes one opponent piece, as part of the same
//! move (`d7xa1`, `d6-d7xa1`) — nine men's morris's mills. Read at load;
//! listed, checked, made and named in play.

use super::load::{Load, Word};
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::position::{Move, MoveList, Position, Removal, Side, UNLIMITED};
use crate::refusal::Refusal;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "removals",
    hooks: &[HookId::Removes, HookId::PlacingLines],
    build,
};

/// Which opponent pieces a completed line may remove (`removes()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoveRule {
    /// One outside the opponent's completed lines, any when all are in one.
    NotInLine,
    /// Any of the opponent's pieces.
    Any,
}

impl Word for RemoveRule {
    const WORDS: &'static [(&'static str, RemoveRule)] = &[
        ("not in a line", RemoveRule::NotInLine),
        ("any", RemoveRule::Any),
    ];
}

/// What a line a placement completes does (`placing_lines()`): Dara's
/// lines count only once every piece is on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlacingLines {
    /// It removes, as any line does.
    #[default]
    Remove,
    /// It stands on the board and removes nothing.
    CountForNothing,
    /// No placement may complete a line.
    Refused,
}

impl Word for PlacingLines {
    const WORDS: &'static [(&'static str, PlacingLines)] = &[
        ("remove", PlacingLines::Remove),
        ("count for nothing", PlacingLines::CountForNothing),
        ("refused", PlacingLines::Refused),
    ];
}

/// What `removes()` compiled to: the rule, and the winning windows (the
/// completed lines), each `words` words (the board's prefix width) one
/// after the other, so a test loads them beside the marks in registers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Removals {
    pub(crate) rule: Option<RemoveRule>,
    /// What a line a placement completes does (`placing_lines()`).
    pub(crate) placing: PlacingLines,
    /// Every distinct window of `min_run` cells along a line.
    windows: Vec<u64>,
    /// Where a line is exactly `min_run` long (`wins(run)` is `run == k`):
    /// per window, laid out as `windows`, the cells just beyond its two
    /// ends along its line; a full window is a line only while none of
    /// them is the same side's. Empty where longer runs are lines too.
    borders: Vec<u64>,
    /// Per cell, the windows through it: `through[start[c]..start[c + 1]]`.
    through: Vec<u64>,
    /// `borders` laid out as `through`.
    through_borders: Vec<u64>,
    start: Vec<u32>,
    words: usize,
    /// The windows' counts packed into one word, where they fit.
    pub(crate) tally: Option<Tally>,
}

/// Each window's count of one side's marks, packed `bits` bits a window
/// into one word: a move changes it by one add a cell it changes, and the
/// windows one mark short of a line, or complete, are read off it at once
/// rather than by testing every window every move (nine men's morris's
/// 16 mills cost a sixth of its playout that way).
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    /// Per cell, a 1 in the lane of each window through it.
    pub(crate) one: Vec<u64>,
    /// Per bit, the window whose lane starts there: a table, as a division
    /// by `bits` held up every move's read of the short windows.
    window_at: [u8; 64],
    bits: u32,
    /// The lowest bit of every lane in use.
    low: u64,
    /// A line's length less one, in every lane.
    short: u64,
    /// A line's length, in every lane.
    full: u64,
}

impl Tally {
    /// The packing of `windows` windows of `k` cells, if their counts fit
    /// one word.
    fn new(windows: &[CellSet], k: usize, cells: usize) -> Option<Tally> {
        let bits = usize::BITS - k.leading_zeros();
        if k < 2 || windows.len() * bits as usize > 64 {
            return None;
        }
        let lanes = |v: u64| (0..windows.len()).fold(0u64, |a, i| a | v << (i as u32 * bits));
        let one = (0..cells)
            .map(|c| {
                let c = Cell(c as u16);
                windows
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.contains(c))
                    .fold(0, |a, (i, _)| a | 1 << (i as u32 * bits))
            })
            .collect();
        let mut window_at = [0; 64];
        for (bit, w) in window_at.iter_mut().enumerate() {
            *w = (bit as u32 / bits) as u8;
        }
        Some(Tally {
            one,
            window_at,
            bits,
            low: lanes(1),
            short: lanes(k as u64 - 1),
            full: lanes(k as u64),
        })
    }

    /// The packed counts of `marks` (the first `W` words).
    pub(crate) fn of<const W: usize>(&self, marks: Bits<W>) -> u64 {
        marks.into_iter().map(|c| self.one[c.index()]).sum()
    }

    /// The low bit of each lane that holds zero.
    #[inline(always)]
    fn zero_lanes(&self, z: u64) -> u64 {
        let mut any = z;
        for i in 1..self.bits {
            any |= z >> i;
        }
        !any & self.low
    }

    /// The lanes of the windows a side (`own` counts) lacks one mark of,
    /// with no opponent mark (`theirs` counts) in them.
    #[inline(always)]
    pub(crate) fn short_lanes(&self, own: u64, theirs: u64) -> u64 {
        self.zero_lanes((own ^ self.short) | theirs)
    }

    /// The lanes of the windows a side (`own` counts) fills.
    #[inline(always)]
    pub(crate) fn full_lanes(&self, own: u64) -> u64 {
        self.zero_lanes(own ^ self.full)
    }

    /// The window a lane's low bit stands for.
    #[inline(always)]
    pub(crate) fn window(&self, bit: u32) -> usize {
        usize::from(self.window_at[bit as usize & 63])
    }

    /// Whether a piece going from `from` to the free cell `to` completes
    /// one of the windows `short` (as [`Tally::short_lanes`] gives them):
    /// one through `to` that `from` is not part of.
    #[inline(always)]
    pub(crate) fn completes_lane(&self, short: u64, from: Cell, to: Cell) -> bool {
        self.one[to.index()] & short & !self.one[from.index()] != 0
    }
}

/// Reads `removes()`. Its lines are the `lines()` windows of the shortest
/// winning run; once they remove, no line ends the game, so the line test
/// every move makes is emptied (the removal test below takes its place).
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    if !load.host.defines(HookId::Removes) {
        if load.host.defines(HookId::PlacingLines) {
            return Err(load.bad(
                HookId::PlacingLines,
                "placing_lines() needs removes(): it says what a line made while placing removes"
                    .to_string(),
            ));
        }
        return Ok(());
    }
    let rule: RemoveRule = load.word(HookId::Removes)?;
    use super::Primitive as P;
    let clash = [
        P::Regions,
        P::Captures,
        P::KeepMarks,
        P::Slides,
        P::Twists,
        P::Support,
        P::TurnMarks,
        P::ChosenMarks,
        P::SidedWins,
    ];
    if let Some(what) = t.first_in_use(&clash) {
        let why = if t.sided {
            "the sides' lines are won apart there, and a completed line here is one length for both"
        } else {
            "a removal follows a move of one own piece"
        };
        return Err(load.bad(
            HookId::Removes,
            format!("removes() cannot go with {what}: {why}"),
        ));
    }
    if load.host.defines(HookId::LineResult) {
        return Err(load.bad(
            HookId::Removes,
            "removes() cannot go with line_result(): a completed line removes a piece and the game goes on".to_string(),
        ));
    }
    let k = t.min_run;
    let longest = t.lines.iter().map(Vec::len).max().unwrap_or(0);
    let from_k_on = (1..=longest).all(|n| t.wins_run(Side::X, n) == (n >= k));
    let exactly_k = (1..=longest).all(|n| t.wins_run(Side::X, n) == (n == k));
    if !from_k_on && !exactly_k {
        return Err(load.bad(
            HookId::Removes,
            format!(
                "removes() needs wins(run) true from {k} on, or for {k} alone: a completed line is {k} cells"
            ),
        ));
    }
    // Each window with the cells beyond its ends, where a longer run is
    // no line (a window two lines share is bounded along both).
    let exact = !from_k_on;
    let mut windows: Vec<(CellSet, CellSet)> = Vec::new();
    for line in &t.lines {
        for (i, w) in line.windows(k).enumerate() {
            let set: CellSet = w.iter().copied().collect();
            let mut border = CellSet::EMPTY;
            if exact {
                let before = i.checked_sub(1).map(|b| line[b]);
                for c in before.into_iter().chain(line.get(i + k).copied()) {
                    border.insert(c);
                }
            }
            match windows.iter_mut().find(|(s, _)| *s == set) {
                Some((_, b)) => *b |= border,
                None => windows.push((set, border)),
            }
        }
    }
    let words = t.words;
    let flat = |w: &CellSet| w.words().into_iter().take(words).collect::<Vec<u64>>();
    let mut start = Vec::with_capacity(load.grid.len() + 1);
    let (mut through, mut through_borders) = (Vec::new(), Vec::new());
    for c in load.grid.cells() {
        start.push((through.len() / words) as u32);
        for (w, border) in windows.iter().filter(|(w, _)| w.contains(c)) {
            through.extend(flat(w));
            through_borders.extend(flat(border));
        }
    }
    start.push((through.len() / words) as u32);
    let cells: Vec<CellSet> = windows.iter().map(|(w, _)| *w).collect();
    t.removals = Removals {
        rule: Some(rule),
        placing: load.word(HookId::PlacingLines)?,
        windows: cells.iter().flat_map(flat).collect(),
        borders: if exact {
            windows.iter().flat_map(|(_, b)| flat(b)).collect()
        } else {
            Vec::new()
        },
        through,
        through_borders: if exact { through_borders } else { Vec::new() },
        start,
        words,
        // The packed counts see a window's cells, not what lies beyond.
        tally: if exact {
            None
        } else {
            Tally::new(&cells, k, load.grid.len())
        },
    };
    t.win = super::lines::WinCheck::never(load.grid.len(), t.words);
    t.window_list = None;
    Ok(())
}

// Play: the moves that complete a line become one move per piece they may remove.
impl Mechanics {
    /// Whether a completed line removes a piece (`removes()`).
    #[inline(always)]
    pub fn removes(&self) -> bool {
        self.removals.rule.is_some()
    }

    /// Whether `own` (the first `W` words of the marks) completes a line
    /// through `cell`.
    #[inline(always)]
    pub(crate) fn completes<const W: usize>(&self, cell: Cell, own: Bits<W>) -> bool {
        let r = &self.removals;
        if r.through_borders.is_empty() {
            return self.completes_window(cell, own);
        }
        let through = super::lines::windows_of(&r.start, cell);
        let words = through.start * r.words..through.end * r.words;
        fills_one_exactly(
            &r.through[words.clone()],
            &r.through_borders[words],
            r.words,
            CellSet::from_prefix(own),
        )
    }

    /// [`Mechanics::completes`] where lines are not exactly so long: a
    /// window through `cell` that `own` fills.
    #[inline(always)]
    pub(crate) fn completes_window<const W: usize>(&self, cell: Cell, own: Bits<W>) -> bool {
        let r = &self.removals;
        debug_assert!(r.through_borders.is_empty());
        let through = super::lines::windows_of(&r.start, cell);
        super::lines::fills_one(
            &r.through[through.start * r.words..through.end * r.words],
            r.words,
            own,
        )
    }

    /// Whether lines are exactly `min_run` long, a longer run none.
    pub fn exact_lines(&self) -> bool {
        !self.removals.borders.is_empty()
    }

    /// Which opponent pieces a completed line may remove (`removes()`).
    pub fn remove_rule(&self) -> Option<RemoveRule> {
        self.removals.rule
    }

    /// What a line a placement completes does (`placing_lines()`).
    pub fn placing_lines(&self) -> PlacingLines {
        self.removals.placing
    }

    /// The cells of `marks` (the first `W` words) that stand in a completed
    /// line of them.
    #[inline(always)]
    fn in_lines_in<const W: usize>(&self, marks: Bits<W>) -> Bits<W> {
        let r = &self.removals;
        let widen = |w: &[u64]| {
            if W <= r.words {
                Bits::<W>::from_words(w)
            } else {
                // Asked wider than the table (a check, not play): pad it.
                let mut all = [0; crate::geometry::WORDS];
                all[..w.len()].copy_from_slice(w);
                CellSet::from_words(&all).prefix::<W>()
            }
        };
        let mut out = Bits::<W>::EMPTY;
        for (i, w) in r.windows.chunks_exact(r.words).enumerate() {
            let w = widen(w);
            // Where lines are exactly `min_run`, none beyond its ends.
            let open = r.borders.is_empty()
                || !widen(&r.borders[i * r.words..][..r.words]).intersects(marks);
            if w.is_subset(marks) && open {
                out |= w;
            }
        }
        out
    }

    /// The `free` cells where a piece of the side holding `own` would
    /// complete a line: the one cell a line's window lacks. Every move that
    /// removes lands on one of them (the playout kernel's first test).
    /// Where lines are exactly `min_run` long, a placement (`placing`)
    /// completes a window with no own piece beyond its ends, and these are
    /// exactly its cells; a moved piece may leave one of those ends, and
    /// these are the cells it might complete a line on.
    #[inline(always)]
    pub(crate) fn completing_cells<const W: usize>(
        &self,
        own: Bits<W>,
        free: Bits<W>,
        placing: bool,
    ) -> Bits<W> {
        if !self.removals.borders.is_empty() {
            return self.completing_cells_exactly(own, free, placing);
        }
        self.completing_windows(own, free)
    }

    /// [`Mechanics::completing_cells`] where lines are not exactly so long:
    /// the one cell a window lacks.
    #[inline(always)]
    pub(crate) fn completing_windows<const W: usize>(
        &self,
        own: Bits<W>,
        free: Bits<W>,
    ) -> Bits<W> {
        // Read at the table's own width: play asks at the board's.
        debug_assert_eq!(W, self.removals.words);
        let (windows, _) = self.removals.windows.as_chunks::<W>();
        let mut out = Bits::<W>::EMPTY;
        for w in windows {
            let lacks = Bits::<W>::from_words(w) & !own;
            // Branch-free: which windows lack one cell is the game's chance.
            let one = u64::from(lacks.count() == 1).wrapping_neg();
            out |= Bits::<W>::from_words(&lacks.words().map(|l| l & one));
        }
        out & free
    }

    /// [`Mechanics::completing_cells`] where lines are exactly `min_run`
    /// long: out of line, so that the loops of other rulebooks stay as
    /// small as they were.
    #[inline(never)]
    fn completing_cells_exactly<const W: usize>(
        &self,
        own: Bits<W>,
        free: Bits<W>,
        placing: bool,
    ) -> Bits<W> {
        let (windows, _) = self.removals.windows.as_chunks::<W>();
        let (borders, _) = self.removals.borders.as_chunks::<W>();
        let beyond = u32::from(!placing);
        let mut out = Bits::<W>::EMPTY;
        for (w, b) in windows.iter().zip(borders) {
            let lacks = Bits::<W>::from_words(w) & !own;
            if lacks.count() == 1 && (Bits::<W>::from_words(b) & own).count() <= beyond {
                out |= lacks;
            }
        }
        out & free
    }

    /// The packed window counts, where they fit one word.
    #[inline(always)]
    pub(crate) fn tally(&self) -> Option<&Tally> {
        self.removals.tally.as_ref()
    }

    /// The cells of the windows whose lanes `lanes` holds (low bits, as
    /// [`Tally`] gives them).
    #[inline(always)]
    pub(crate) fn windows_of_lanes<const W: usize>(&self, tally: &Tally, lanes: u64) -> Bits<W> {
        debug_assert_eq!(W, self.removals.words);
        let (windows, _) = self.removals.windows.as_chunks::<W>();
        let mut out = Bits::<W>::EMPTY;
        let mut lanes = lanes;
        while lanes != 0 {
            out |= Bits::from_words(&windows[tally.window(lanes.trailing_zeros())]);
            lanes &= lanes - 1;
        }
        out
    }

    /// Which of the opponent's pieces `theirs` (their packed counts
    /// `counts`) a completed line may remove: [`Mechanics::removable_of`]
    /// read off the tally.
    #[inline(always)]
    pub(crate) fn removable_by_tally<const W: usize>(
        &self,
        tally: &Tally,
        theirs: Bits<W>,
        counts: u64,
    ) -> Bits<W> {
        self.removable_outside(theirs, || {
            self.windows_of_lanes(tally, tally.full_lanes(counts))
        })
    }

    /// The cells of `marks` that stand in a completed line of them.
    pub fn in_lines(&self, marks: CellSet) -> CellSet {
        self.in_lines_in(marks)
    }

    /// The mover's piece lands on `to` (from `from`, or from hand): whether
    /// that completes a line of its own.
    #[inline(always)]
    fn move_completes<const W: usize>(&self, pos: &Position, from: Option<Cell>, to: Cell) -> bool {
        let mut own = pos.marks.get(pos.turn).prefix::<W>();
        if let Some(from) = from {
            own = own & !Bits::single(from);
        }
        self.completes(to, own | Bits::single(to))
    }

    /// The opponent pieces a line the side to move completes may remove.
    pub fn removable(&self, pos: &Position) -> CellSet {
        CellSet::from_prefix(self.removable_in::<{ crate::geometry::WORDS }>(pos))
    }

    #[inline(always)]
    fn removable_in<const W: usize>(&self, pos: &Position) -> Bits<W> {
        self.removable_of(pos.marks.get(pos.turn.other()).prefix::<W>())
    }

    /// Which of the opponent's pieces `theirs` (the first `W` words) a
    /// completed line may remove.
    #[inline(always)]
    pub(crate) fn removable_of<const W: usize>(&self, theirs: Bits<W>) -> Bits<W> {
        self.removable_outside(theirs, || self.in_lines_in(theirs))
    }

    /// Which of `theirs` the rule lets a line remove, `in_lines` giving
    /// those of them that stand in a completed line (asked only where the
    /// rule cares).
    #[inline(always)]
    fn removable_outside<const W: usize>(
        &self,
        theirs: Bits<W>,
        in_lines: impl FnOnce() -> Bits<W>,
    ) -> Bits<W> {
        match self.removals.rule {
            Some(RemoveRule::NotInLine) => {
                let free = theirs & !in_lines();
                if free.is_empty() { theirs } else { free }
            }
            Some(RemoveRule::Any) => theirs,
            None => Bits::EMPTY,
        }
    }

    /// Replaces each move of `out` from `start` on that completes a line by
    /// one move per piece it may remove. With no opponent piece on the board
    /// there is nothing to remove, and the move stays as it is.
    pub(crate) fn expand_removals<const W: usize>(
        &self,
        pos: &Position,
        start: usize,
        out: &mut MoveList,
    ) {
        // Lines a placement completes, where they remove nothing or are
        // refused: such placements stay plain, or go.
        let plain = |mv: &Move| match mv {
            Move::Place { .. } => self.removals.placing != PlacingLines::Remove,
            _ => false,
        };
        if self.removals.placing == PlacingLines::Refused {
            out.retain_from(start, |mv| match mv {
                Move::Place { to, .. } => !self.move_completes::<W>(pos, None, to),
                _ => true,
            });
        }
        if pos.marks.get(pos.turn.other()).prefix::<W>().is_empty() {
            return;
        }
        let end = out.len();
        // Worked out at the first move that completes a line: most lists have none.
        let mut removable = None;
        for i in start..end {
            let (from, to) = match out[i] {
                mv if plain(&mv) => continue,
                Move::Place { to, .. } => (None, to),
                Move::Step { from, to } => (Some(from), to),
                _ => continue,
            };
            if self.move_completes::<W>(pos, from, to) {
                let takes = *removable.get_or_insert_with(|| self.removable_in::<W>(pos));
                for take in takes {
                    out.push(Move::Take(Removal::new(from, to, take)));
                }
            }
        }
        if removable.is_some() {
            out.retain_from(start, |mv| match mv {
                mv if plain(&mv) => true,
                Move::Place { to, .. } => !self.move_completes::<W>(pos, None, to),
                Move::Step { from, to } => !self.move_completes::<W>(pos, Some(from), to),
                _ => true,
            });
        }
    }

    /// Why a move that completes a line, or claims to, is refused: a
    /// completing move must name a piece to remove, a removal must follow a
    /// completed line, and the piece must be one the rule lets go.
    pub(crate) fn check_removal(&self, pos: &Position, mv: Move) -> Result<(), Refusal> {
        if !self.removes() {
            return match mv {
                Move::Take(r) => Err(Refusal::RemovesNothing(r.to())),
                _ => Ok(()),
            };
        }
        let (from, to, take) = match mv {
            Move::Place { to, .. } => (None, to, None),
            Move::Step { from, to } => (Some(from), to, None),
            Move::Take(r) => (r.from(), r.to(), Some(r.take())),
            _ => return Ok(()),
        };
        let completes = self.move_completes::<{ crate::geometry::WORDS }>(pos, from, to);
        let theirs = pos.marks(pos.turn.other());
        if from.is_none() && completes {
            match (self.removals.placing, take) {
                (PlacingLines::Remove, _) => {}
                (PlacingLines::CountForNothing, None) => return Ok(()),
                (PlacingLines::CountForNothing, Some(_)) => {
                    return Err(Refusal::PlacedLineRemoves(to));
                }
                (PlacingLines::Refused, _) => return Err(Refusal::PlacedLine(to)),
            }
        }
        match take {
            // The first piece it may remove, for the example: there is one
            // wherever the opponent has a piece (any, if all are in lines).
            None if completes && !theirs.is_empty() => match self.removable(pos).into_iter().next()
            {
                Some(take) => Err(Refusal::MustRemove(from, to, take)),
                None => Ok(()),
            },
            None => Ok(()),
            Some(_) if !completes => Err(Refusal::RemovesNothing(to)),
            Some(take) if !theirs.contains(take) => {
                Err(Refusal::NotRemovable(take, pos.turn.other()))
            }
            Some(take) if !self.removable(pos).contains(take) => {
                Err(Refusal::TakeInLine(take, pos.turn.other()))
            }
            Some(_) => Ok(()),
        }
    }

    /// The cells of `free` the side to move of `pos` may place on: all,
    /// but where a placement may not complete a line (`placing_lines()`).
    #[inline(always)]
    pub(crate) fn open_placements<const W: usize>(&self, pos: &Position, free: Bits<W>) -> Bits<W> {
        if self.removals.placing != PlacingLines::Refused {
            return free;
        }
        free & !self.completing_cells(pos.marks.get(pos.turn).prefix::<W>(), free, true)
    }

    /// Why `base` (a placement or step onto `to`, which the rules allow
    /// as it stands) written with an `x` and no piece after it is refused:
    /// a placement whose line removes nothing, or a move that makes no line.
    pub(crate) fn bare_removal(&self, pos: &Position, base: Move, to: Cell) -> Refusal {
        if matches!(base, Move::Place { .. })
            && self.removals.placing == PlacingLines::CountForNothing
            && self.move_completes::<{ crate::geometry::WORDS }>(pos, None, to)
        {
            Refusal::PlacedLineRemoves(to)
        } else {
            Refusal::RemovesNothing(to)
        }
    }

    /// Makes a removing move: the piece lands, the opponent's on `take`
    /// leaves, and a side left with `lose_at()` pieces loses.
    #[cold]
    #[inline(never)]
    pub(crate) fn make_take(
        &self,
        p: &mut Position,
        side: Side,
        from: Option<Cell>,
        to: Cell,
        take: Cell,
    ) {
        match from {
            Some(from) => p.marks.get_mut(side).remove(from),
            None => {
                let hand = p.in_hand.get_mut(side);
                if *hand != UNLIMITED {
                    *hand -= 1;
                }
            }
        }
        p.marks.get_mut(side).insert(to);
        p.marks.get_mut(side.other()).remove(take);
        self.settle_count(p, side.other());
    }
}

/// Whether one of `windows` (each `words` words) is all `own`'s with none
/// of the cells beyond its ends (`borders`, laid out alike) `own`'s. Out
/// of line, as [`Mechanics::completing_cells_exactly`].
#[inline(never)]
fn fills_one_exactly(windows: &[u64], borders: &[u64], words: usize, own: CellSet) -> bool {
    let own = own.words();
    (windows.chunks_exact(words))
        .zip(borders.chunks_exact(words))
        .any(|(w, b)| is_line(w, b, &own))
}

/// Whether the window `w` (words) is all `own`'s and none of the cells
/// beyond its ends, `b`, is.
#[inline(always)]
fn is_line(w: &[u64], b: &[u64], own: &[u64]) -> bool {
    w.iter()
        .zip(b)
        .zip(own)
        .all(|((&w, &b), &o)| w & !o == 0 && b & o == 0)
}

#[cfg(test)]
mod tests {
    use crate::rulebook::Rulebook;

    /// A morris-like 3×3 where every line removes, with `extra` hooks.
    fn rulebook(extra: &str) -> Result<Rulebook, String> {
        let script = format!(
            "fn lines() {{ lines::straight(3) }}\nfn wins(run) {{ run >= 3 }}\nfn removes() {{ \"not in a line\" }}\n{extra}"
        );
        Rulebook::scripted(&script, 3, 3)
    }

    /// A removal's cells survive their packing, at both ends of the
    /// largest board.
    #[test]
    fn a_removal_keeps_its_cells() {
        use crate::geometry::{Cell, MAX_CELLS};
        use crate::position::Removal;
        let last = Cell(MAX_CELLS as u16 - 1);
        for from in [None, Some(Cell(0)), Some(last)] {
            for (to, take) in [(Cell(0), last), (last, Cell(0)), (Cell(5), Cell(700))] {
                let r = Removal::new(from, to, take);
                assert_eq!((r.from(), r.to(), r.take()), (from, to, take));
            }
        }
    }

    #[test]
    fn removes_refuses_what_it_cannot_go_with() {
        assert!(rulebook("fn pieces() { 4 }").is_ok());
        let err = rulebook("fn line_result() { \"owner loses\" }").unwrap_err();
        assert!(
            err.contains("removes() cannot go with line_result()"),
            "{err}"
        );
        let err = rulebook("fn keep_marks() { 3 }").unwrap_err();
        assert!(
            err.contains("removes() cannot go with keep_marks()"),
            "{err}"
        );
        let err = rulebook("fn lose_at() { 2 }").unwrap_err();
        assert!(err.contains("lose_at() needs pieces()"), "{err}");
        // Sides won apart: said as such, not as a move of one piece. The
        // same answer for both sides is no clash (the sides are one).
        let sided = |o: &str| {
            Rulebook::scripted(
                &format!(
                    "fn lines() {{ lines::straight(3) }}\nfn wins(run, side) {{ if side == \"X\" {{ run >= 3 }} else {{ {o} }} }}\nfn removes() {{ \"any\" }}\n"
                ),
                4,
                4,
            )
        };
        let err = sided("run == 3").unwrap_err();
        assert!(
            err.contains("cannot go with wins(run, side): the sides' lines are won apart"),
            "{err}"
        );
        assert!(sided("run >= 3").is_ok());
    }

    /// Lines of exactly three along rows and columns of 6×5, checked
    /// against runs counted cell by cell, not through the windows: a
    /// placement completes a line exactly when the run it joins along a row
    /// or column is three long, and a piece stands in a line exactly when
    /// its run along a row or column is.
    #[test]
    fn exact_lines_are_runs_of_exactly_k() {
        use crate::geometry::{Cell, CellSet};
        use crate::rng::Rng;
        let rules = Rulebook::scripted(
            "fn lines() { lines::straight(3).filter(|l| l[1] - l[0] == 1 || l[1] - l[0] == width()) }\n\
             fn wins(run) { run == 3 }\nfn pieces() { 12 }\nfn removes() { \"not in a line\" }\n",
            6,
            5,
        )
        .unwrap();
        let t = rules.mechanics();
        assert!(t.exact_lines());
        let (w, h) = (6i32, 5i32);
        let at = |c: i32, r: i32| Cell((r * w + c) as u16);
        // The run of `own` through (c, r) along (dc, dr), the cell counted.
        let run = |own: CellSet, c: i32, r: i32, (dc, dr): (i32, i32)| {
            let inside = |c: i32, r: i32| (0..w).contains(&c) && (0..h).contains(&r);
            let mut n = 1;
            for s in [1, -1] {
                let (mut x, mut y) = (c + s * dc, r + s * dr);
                while inside(x, y) && own.contains(at(x, y)) {
                    n += 1;
                    x += s * dc;
                    y += s * dr;
                }
            }
            n
        };
        let mut rng = Rng::new(7);
        let (mut made, mut longer) = (0, 0);
        for _ in 0..3000 {
            let mut own = CellSet::EMPTY;
            for _ in 0..rng.below(16) {
                own.insert(Cell(rng.below(30) as u16));
            }
            for r in 0..h {
                for c in 0..w {
                    let cell = at(c, r);
                    let runs = [(1, 0), (0, 1)].map(|d| run(own | CellSet::single(cell), c, r, d));
                    if !own.contains(cell) {
                        let want = runs.contains(&3);
                        made += usize::from(want);
                        longer += usize::from(runs.iter().any(|&n| n > 3));
                        assert_eq!(
                            t.completes(cell, own | CellSet::single(cell)),
                            want,
                            "{own:?} + {cell:?}"
                        );
                    } else {
                        assert_eq!(
                            t.in_lines(own).contains(cell),
                            runs.contains(&3),
                            "{own:?} at {cell:?}"
                        );
                    }
                }
            }
        }
        // Both kinds of run were met.
        assert!(
            made > 1000 && longer > 1000,
            "{made} lines, {longer} longer runs"
        );
    }

    #[test]
    fn placing_lines_and_exact_lines_refuse_what_they_cannot_be() {
        let err = Rulebook::scripted(
            "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\nfn pieces() { 4 }\nfn placing_lines() { \"refused\" }\n",
            3,
            3,
        )
        .unwrap_err();
        assert!(err.contains("placing_lines() needs removes()"), "{err}");
        let err = rulebook("fn placing_lines() { \"count for none\" }").unwrap_err();
        assert!(err.contains("\"count for nothing\""), "{err}");
        let err = Rulebook::scripted(
            "fn lines() { lines::straight(3) }\nfn wins(run) { run == 3 || run == 5 }\nfn removes() { \"any\" }\n",
            5,
            5,
        )
        .unwrap_err();
        assert!(err.contains("from 3 on, or for 3 alone"), "{err}");
    }

    /// "Exactly three" over lines given as windows of three is warned of:
    /// a run of four is never seen. Mills that share one point are not.
    #[test]
    fn exactly_k_over_windows_is_warned_of() {
        use crate::error::ProblemKind;
        let split = |lines: &str| {
            let script = format!(
                "fn lines() {{ {lines} }}\nfn wins(run) {{ run == 3 }}\nfn pieces() {{ 6 }}\nfn removes() {{ \"any\" }}\n"
            );
            let rules = Rulebook::scripted(&script, 5, 5).unwrap();
            assert!(!rules.mechanics().exact_lines(), "{lines}");
            rules
                .warnings()
                .iter()
                .any(|w| w.kind == ProblemKind::SplitRuns)
        };
        assert!(split("lines::wrapped(3, false, false)"));
        assert!(!split("morris::mills(2)"));
        let whole = Rulebook::scripted(
            "fn lines() { lines::straight(3) }\nfn wins(run) { run == 3 }\nfn pieces() { 6 }\nfn removes() { \"any\" }\n",
            5,
            5,
        )
        .unwrap();
        assert!(whole.mechanics().exact_lines());
        assert!(whole.warnings().is_empty(), "{:?}", whole.warnings());
    }
}
