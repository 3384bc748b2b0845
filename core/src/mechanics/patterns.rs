//! Moves forbidden by what they make (`forbidden_patterns(side)`): Renju's
//! overline, double four and double three, forbidden to one side. Read at
//! load as a set of kinds per side; a move is judged natively from the
//! line tables and the side's `wins`, so no hook runs during play.
//!
//! The words are the side's own: with `k` its shortest winning run, a
//! *four* is a line a mark away from a win, a *straight four* one whose
//! both ends win (counted as one four), a *three* a line a mark away from
//! a straight four where that mark is itself allowed — judged again,
//! recursively, as the RIF defines it. A move that wins is never
//! forbidden. Every pattern a move makes lies in a line through it and
//! reaches the cells next to the move's run in that line, which keeps a
//! judgement to a few cells a line.

use super::load::Load;
use super::words::LineResult;
use super::{Mechanic, Mechanics, Primitive};
use crate::bits::with_width;
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::position::{Position, Side};
use crate::script::describe;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "patterns",
    hooks: &[HookId::ForbiddenPatterns],
    build,
};

pub use crate::refusal::Pattern;

/// What a mark placed on a cell makes, for the patterns its side forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing forbidden, and no win.
    Allowed,
    /// A winning line: never forbidden.
    Wins,
    /// A forbidden pattern.
    Forbidden(Pattern),
}

/// The patterns forbidden to each side, and the lines through each cell
/// they are judged along.
#[derive(Debug, Clone, Default)]
pub(crate) struct Patterns {
    /// Per side, the forbidden kinds as bits of [`Pattern`].
    by_side: [u8; 2],
    /// Per cell, where its strips start in `on_line` (and, `width` cells
    /// a strip, in `cells`): one per line through it, the next cell's
    /// start ending them.
    first: Vec<u32>,
    /// Each line through each cell as the cells of its strip, `width` a
    /// strip, the cell itself in the middle; a place off the line holds
    /// cell 0 and is left out by `on_line`.
    cells: Vec<u16>,
    /// Per strip, the places of it that are on its line.
    on_line: Vec<u64>,
    /// Cells a strip: `2 * reach + 1`.
    width: usize,
    /// How far along a line from a move its patterns look: `k + 1` for
    /// the longest `k` of the sides'.
    reach: u32,
    /// Per cell, the cells within `reach` of it along its lines, where
    /// every pattern a mark there makes has its marks.
    near: Vec<CellSet>,
    /// Per side, the fewest own marks near a cell that make a pattern
    /// its side may not: with fewer, a mark there is allowed unjudged.
    least: [u32; 2],
    /// Per side, how its lines are won.
    rule: [Rule; 2],
}

/// Reads `forbidden_patterns(side)` for both sides.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let hook = HookId::ForbiddenPatterns;
    if !load.host.defines(hook) {
        return Ok(());
    }
    let mut by_side = [0u8; 2];
    for side in [Side::X, Side::O] {
        let v = load.call(hook, (side.to_string(),))?.unwrap_or_default();
        if v.is_unit() {
            continue;
        }
        let what = format!("forbidden_patterns(\"{side}\")");
        for item in load.array(hook, &what, v)? {
            let word = item.clone().into_string().ok();
            let Some(p) = Pattern::ALL
                .into_iter()
                .find(|p| word.as_deref() == Some(p.word()))
            else {
                return Err(load.bad(
                    hook,
                    format!(
                        "{what}: expected \"overline\", \"double four\" or \"double three\", found {}",
                        describe(&item)
                    ),
                ));
            };
            by_side[side as usize] |= p.bit();
        }
    }
    if by_side == [0, 0] {
        return Ok(());
    }
    if t.turns.named_moves() > 0 {
        return Err(load.bad(
            HookId::ForbiddenPatterns,
            "forbidden_patterns() cannot go with turns that name their marks: a pattern is forbidden to the side that moves, and a named mark may be the other side's".into(),
        ));
    }
    use Primitive as P;
    let clash = [
        P::Pieces,
        P::ChosenMarks,
        P::Support,
        P::Regions,
        P::Captures,
        P::KeepMarks,
        P::Slides,
        P::Twists,
    ];
    let other = t.first_in_use(&clash).or_else(|| {
        (t.line_result != LineResult::OwnerWins)
            .then_some("line_result()")
            .or_else(|| t.removes().then_some("removes()"))
    });
    if let Some(what) = other {
        return Err(load.bad(
            hook,
            format!(
                "forbidden_patterns() cannot go with {what}: patterns are judged on a plain board where each side places its own marks and a line wins for its owner"
            ),
        ));
    }
    let mut rule = [Rule::default(); 2];
    for side in [Side::X, Side::O] {
        let wins = &t.wins[side as usize];
        let k = wins.iter().position(|&w| w).unwrap_or(0);
        let exact = wins.iter().enumerate().all(|(n, &w)| w == (n == k));
        let more = wins.iter().enumerate().all(|(n, &w)| w == (n >= k));
        if by_side[side as usize] != 0 && (!(exact || more) || k > 30) {
            return Err(load.bad(
                hook,
                format!(
                    "forbidden_patterns(\"{side}\") needs {side}'s lines won by exactly k in a row or by k or more, k at most 30"
                ),
            ));
        }
        // Where the side's overlines win, forbidding them forbids nothing:
        // a slip (the sided `wins` meant, or the word for another side).
        if more && by_side[side as usize] & Pattern::Overline.bit() != 0 {
            return Err(load.bad(
                hook,
                format!(
                    "forbidden_patterns(\"{side}\"): \"overline\" forbids nothing where {side}'s longer runs win (wins(run) is true from {k} on): give {side} exactly {k} with wins(run, side), or leave \"overline\" out"
                ),
            ));
        }
        rule[side as usize] = Rule { k, exact: !more };
    }
    let n = load.grid.len();
    // Only the sides with patterns are judged: k + 1 of the longest k.
    let reach = (rule.iter().zip(by_side))
        .filter(|(_, b)| *b != 0)
        .map(|(r, _)| r.k as u32 + 1)
        .max()
        .unwrap_or(1);
    let width = 2 * reach as usize + 1;
    let mut through = vec![Vec::new(); n];
    for (l, line) in t.lines.iter().enumerate() {
        for (i, c) in line.iter().enumerate() {
            through[c.index()].push((l, i));
        }
    }
    if let Some(c) = (0..n).find(|&c| through[c].len() > MAX_LINES) {
        return Err(load.bad(
            hook,
            format!(
                "forbidden_patterns() judges at most {MAX_LINES} lines through a cell; {} lies on {}",
                load.grid.name(Cell(c as u16)),
                through[c].len()
            ),
        ));
    }
    let (mut first, mut cells, mut on_line) = (Vec::new(), Vec::new(), Vec::new());
    let mut near = vec![CellSet::EMPTY; n];
    for (c, lines) in through.iter().enumerate() {
        first.push(on_line.len() as u32);
        for &(l, i) in lines {
            let line = &t.lines[l];
            let mut on = 0u64;
            for b in 0..width {
                let j = (i + b)
                    .checked_sub(reach as usize)
                    .filter(|&j| j < line.len());
                cells.push(j.map_or(0, |j| line[j].0));
                if let Some(j) = j {
                    on |= 1 << b;
                    near[c].insert(line[j]);
                }
            }
            on_line.push(on);
        }
    }
    first.push(on_line.len() as u32);
    let least = [Side::X, Side::O].map(|s| least_marks(by_side[s as usize], rule[s as usize].k));
    t.patterns = Patterns {
        by_side,
        first,
        cells,
        on_line,
        width,
        reach,
        near,
        least,
        rule,
    };
    Ok(())
}

/// The fewest other own marks within `k` of a move, along its lines, that
/// make one of the patterns `forbids` holds with `k` the shortest win: an
/// overline has `k` of them; a double four on one line `k - 1` (a run of
/// `k - 2` with the move, one mark short of a win at each end) and on two
/// lines `2(k - 2)`; a double three `2(k - 3)`.
fn least_marks(forbids: u8, k: usize) -> u32 {
    let k = k as i64;
    let need = |p: Pattern| match p {
        Pattern::Overline => k,
        Pattern::DoubleFour => (k - 1).min(2 * (k - 2)),
        Pattern::DoubleThree => 2 * (k - 3),
    };
    (Pattern::ALL.into_iter())
        .filter(|p| forbids & p.bit() != 0)
        .map(need)
        .min()
        .unwrap_or(0)
        .max(0) as u32
}

impl Mechanics {
    /// Whether any move of `side` may be forbidden by what it makes.
    #[inline(always)]
    pub fn has_patterns(&self, side: Side) -> bool {
        self.patterns.by_side[side as usize] != 0
    }

    /// Whether a move of either side may be forbidden by what it makes.
    pub(crate) fn has_any_patterns(&self) -> bool {
        self.patterns.by_side != [0, 0]
    }

    /// The patterns forbidden to `side`, for `rules`.
    pub fn forbidden_patterns(&self, side: Side) -> Vec<Pattern> {
        let bits = self.patterns.by_side[side as usize];
        (Pattern::ALL.into_iter())
            .filter(|p| bits & p.bit() != 0)
            .collect()
    }

    /// The pattern a mark of the side to move of `pos` on the empty cell
    /// `cell` makes that its side may not, if any.
    #[inline]
    pub fn forbidden_pattern(&self, pos: &Position, cell: Cell) -> Option<Pattern> {
        let side = pos.turn;
        if !self.has_patterns(side) {
            return None;
        }
        with_width!(self.words, W => self.forbidden_in::<W>(
            side,
            pos.marks(side).prefix::<W>(),
            || pos.occupied_in::<W>(),
            cell,
        ))
    }

    /// [`Mechanics::forbidden_pattern`] for a mark of `side` on `cell`
    /// where `own` holds its marks and `occupied` every mark: for a search
    /// that keeps its own board rather than a [`Position`].
    #[inline]
    pub(crate) fn forbidden_on(
        &self,
        side: Side,
        own: &CellSet,
        occupied: &CellSet,
        cell: Cell,
    ) -> Option<Pattern> {
        if !self.has_patterns(side) {
            return None;
        }
        with_width!(self.words, W => self.forbidden_in::<W>(
            side,
            own.prefix::<W>(),
            || occupied.prefix::<W>(),
            cell,
        ))
    }

    #[inline(always)]
    fn forbidden_in<const W: usize>(
        &self,
        side: Side,
        own: Bits<W>,
        // Asked only past the quick test below: most cells stop there.
        occupied: impl FnOnce() -> Bits<W>,
        cell: Cell,
    ) -> Option<Pattern> {
        let near = self.patterns.near[cell.index()].prefix::<W>();
        if (own & near).count() < self.patterns.least[side as usize] {
            return None;
        }
        let empty = self.all.prefix::<W>() & !occupied();
        match self.judge::<W>(side, own, empty, cell) {
            Verdict::Forbidden(p) => Some(p),
            _ => None,
        }
    }

    /// The strips of the lines through `cell`: each one's cells and the
    /// places of it on its line.
    #[inline(always)]
    fn strips_of(&self, cell: Cell) -> impl Iterator<Item = (&[u16], u64)> {
        let p = &self.patterns;
        let range = p.first[cell.index()] as usize..p.first[cell.index() + 1] as usize;
        let cells = &p.cells[range.start * p.width..range.end * p.width];
        cells
            .chunks_exact(p.width)
            .zip(&p.on_line[range])
            .map(|(c, &on)| (c, on))
    }

    /// What a mark of `side` on the empty cell `cell` makes, with `own`
    /// its marks and `empty` the empty cells before it.
    fn judge<const W: usize>(
        &self,
        side: Side,
        own: Bits<W>,
        empty: Bits<W>,
        cell: Cell,
    ) -> Verdict {
        let forbids = self.patterns.by_side[side as usize];
        let rule = self.patterns.rule[side as usize];
        let at = self.patterns.reach;
        let own = own.with(cell);
        let mut empty = empty;
        empty.remove(cell);
        let mut strips = [Strip::default(); MAX_LINES];
        let mut lines = 0;
        let mut overline = false;
        for (s, (cells, on)) in strips.iter_mut().zip(self.strips_of(cell)) {
            s.own = gather(cells, on, own);
            lines += 1;
            let n = s.run(at).len();
            if rule.wins(n) {
                return Verdict::Wins;
            }
            overline |= n > rule.k;
        }
        if overline && forbids & Pattern::Overline.bit() != 0 {
            return Verdict::Forbidden(Pattern::Overline);
        }
        let checks_threes = forbids & Pattern::DoubleThree.bit() != 0;
        if forbids & Pattern::DoubleFour.bit() == 0 && !checks_threes {
            return Verdict::Allowed;
        }
        // A four has `k - 1` marks in its line, a three `k - 2`: a strip
        // with fewer makes neither, and its empty cells are not read.
        for (s, (cells, on)) in strips[..lines].iter_mut().zip(self.strips_of(cell)) {
            if s.own.count_ones() as usize + 2 >= rule.k {
                s.empty = gather(cells, on, empty);
            }
        }
        let strips = &strips[..lines];
        let mut fours = [0u8; MAX_LINES];
        for (f, s) in fours.iter_mut().zip(strips) {
            if s.empty != 0 {
                *f = s.fours(rule, at).count as u8;
            }
        }
        if fours.iter().sum::<u8>() >= 2 && forbids & Pattern::DoubleFour.bit() != 0 {
            return Verdict::Forbidden(Pattern::DoubleFour);
        }
        if checks_threes {
            let mut threes = 0;
            let each = strips.iter().zip(self.strips_of(cell)).zip(&fours);
            for ((s, (cells, _)), &f) in each {
                if f == 0 && s.empty != 0 && self.three_in(side, s, cells, own, empty).is_some() {
                    threes += 1;
                    if threes >= 2 {
                        return Verdict::Forbidden(Pattern::DoubleThree);
                    }
                }
            }
        }
        Verdict::Allowed
    }

    /// The straight four a three the move makes along the line of strip
    /// `s` (`cells` its cells) would become, if it makes one: a mark on an
    /// end of its run would make a straight four through it, and that mark
    /// is allowed.
    fn three_in<const W: usize>(
        &self,
        side: Side,
        s: &Strip,
        cells: &[u16],
        own: Bits<W>,
        empty: Bits<W>,
    ) -> Option<std::ops::Range<u32>> {
        let rule = self.patterns.rule[side as usize];
        let at = self.patterns.reach;
        let run = s.run(at);
        let ends = [run.start.checked_sub(1), Some(run.end)];
        ends.into_iter().flatten().find_map(|e| {
            if e >= 64 || s.empty & (1 << e) == 0 {
                return None;
            }
            let with = Strip {
                own: s.own | 1 << e,
                empty: s.empty & !(1 << e),
            };
            if !with.straight_four(rule, at) {
                return None;
            }
            let p = Cell(cells[e as usize]);
            let allowed = !matches!(self.judge(side, own, empty, p), Verdict::Forbidden(_));
            // The three's marks: the straight four but the mark it lacks
            // (a split three's far mark included).
            allowed.then(|| with.run(at))
        })
    }

    /// For a refusal: the marks of each line that makes `pattern` when the
    /// side to move of `pos` plays `cell` (the run for an overline, each
    /// four's or three's marks).
    pub fn pattern_lines(&self, pos: &Position, cell: Cell, pattern: Pattern) -> Vec<Vec<Cell>> {
        let side = pos.turn;
        let rule = self.patterns.rule[side as usize];
        let at = self.patterns.reach;
        let mut empty = self.all & !pos.occupied();
        let own = pos.marks(side).with(cell);
        empty.remove(cell);
        let mut out = Vec::new();
        for (cells, on) in self.strips_of(cell) {
            let s = Strip::of(cells, on, own, empty);
            let span = match pattern {
                Pattern::Overline => Some(s.run(at)).filter(|run| run.len() > rule.k),
                Pattern::DoubleFour => s.fours(rule, at).span,
                Pattern::DoubleThree if s.fours(rule, at).count == 0 => {
                    self.three_in(side, &s, cells, own, empty)
                }
                Pattern::DoubleThree => None,
            };
            if let Some(span) = span {
                let marks = span.map(|b| Cell(cells[b as usize]));
                out.push(marks.filter(|&c| own.contains(c)).collect());
            }
        }
        out
    }
}

/// The most lines through one cell a judgement keeps on the stack; more
/// are refused at load.
const MAX_LINES: usize = 16;

/// How a side's lines are won, as patterns read it: `k` in a row exactly,
/// or `k` or more.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Rule {
    k: usize,
    exact: bool,
}

impl Rule {
    #[inline(always)]
    fn wins(self, n: usize) -> bool {
        n == self.k || (!self.exact && n > self.k)
    }
}

/// One line through a move as bits, `reach` cells either side of it (the
/// move on bit `reach`): the side's marks and the empty cells. A run that
/// reaches the strip's end is longer than `k + 1`, which wins or not as
/// any longer run does, so nothing beyond it matters.
#[derive(Debug, Clone, Copy, Default)]
struct Strip {
    own: u64,
    empty: u64,
}

/// The cells of a strip that `set` holds, as bits.
#[inline(always)]
fn gather<const W: usize>(cells: &[u16], on_line: u64, set: Bits<W>) -> u64 {
    let mut bits = 0u64;
    for (b, &c) in cells.iter().enumerate() {
        bits |= set.bit(c as usize) << b;
    }
    bits & on_line
}

/// The fours a move makes along one line: how many, and the marks they
/// span (with the winning ends' runs).
struct Fours {
    count: usize,
    span: Option<std::ops::Range<u32>>,
}

impl Strip {
    /// Gathers a strip's cells without a branch: a board's marks are
    /// random to the branch predictor.
    #[inline(always)]
    fn of<const W: usize>(cells: &[u16], on_line: u64, own: Bits<W>, empty: Bits<W>) -> Strip {
        Strip {
            own: gather(cells, on_line, own),
            empty: gather(cells, on_line, empty),
        }
    }

    /// The run of own marks through bit `at`.
    #[inline(always)]
    fn run(&self, at: u32) -> std::ops::Range<u32> {
        let up = (!(self.own >> at)).trailing_zeros();
        let down = (!(self.own << (63 - at))).leading_zeros();
        at + 1 - down..at + up
    }

    /// The run through `at` with one more mark on the empty bit `e`, if
    /// that wins.
    #[inline(always)]
    fn completes(&self, at: u32, e: u32, rule: Rule) -> Option<std::ops::Range<u32>> {
        if e >= 64 || self.empty & (1 << e) == 0 {
            return None;
        }
        let with = Strip {
            own: self.own | 1 << e,
            empty: self.empty,
        };
        Some(with.run(at)).filter(|r| rule.wins(r.len()))
    }

    /// The fours the move on bit `at` makes: the ends of its run where one
    /// more mark wins, a straight four counted once.
    #[inline(always)]
    fn fours(&self, rule: Rule, at: u32) -> Fours {
        let run = self.run(at);
        let left = run
            .start
            .checked_sub(1)
            .and_then(|e| self.completes(at, e, rule));
        let right = self.completes(at, run.end, rule);
        let straight = |r: &std::ops::Range<u32>| r.len() == run.len() + 1;
        let count = match (&left, &right) {
            // Both ends win with the run's marks alone: one straight four.
            (Some(a), Some(b)) if straight(a) && straight(b) => 1,
            (a, b) => usize::from(a.is_some()) + usize::from(b.is_some()),
        };
        let span = [left, right]
            .into_iter()
            .flatten()
            .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end));
        Fours { count, span }
    }

    /// Whether the marks hold a straight four through bit `at`: its run,
    /// both ends empty and each winning with one more mark.
    #[inline(always)]
    fn straight_four(&self, rule: Rule, at: u32) -> bool {
        let run = self.run(at);
        let wins_at = |e: u32| {
            self.completes(at, e, rule)
                .is_some_and(|r| r.len() == run.len() + 1)
        };
        run.start > 0 && wins_at(run.start - 1) && wins_at(run.end)
    }
}
