//! The rulebook language's mechanics: each module reads its load-time hooks
//! into its part of [`Mechanics`], once, and owns what play does with them.
//!
//! Implementation note: this is what keeps the scripted rules fast. The
//! interpreter never runs for a cell of a move; play reads these tables only.
//!
//! Adding a mechanic is one module here and one entry in [`MECHANICS`]; see
//! `docs/architecture.md`, "Adding a mechanic".

pub mod ageing;
pub mod captures;
mod combinations;
mod counts;
mod ends;
mod lines;
mod load;
pub mod patterns;
mod pieces;
mod regions;
pub mod removals;
mod repetition;
mod restrictions;
mod shape;
pub mod slides;
pub mod stacks;
mod support;
mod turns;
pub mod twists;
pub mod whole_board;
pub mod words;

pub use captures::{Capture, Captures};
pub(crate) use lines::run_at;
pub use pieces::Jump;

use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet, Grid, WORDS};
use crate::position::{Ending, Move, NO_REGION, Outcome, Position, Side, UNLIMITED};
use crate::script::ScriptHost;
use crate::script::hooks::HookId;
use crate::turns::Turns;
pub use lines::LineEnds;
use lines::WinCheck;
pub(crate) use lines::WindowList;
use load::Load;
use load::Word;
use words::{FullRegion, LineResult, Marks, NoMoves};

/// One mechanic of the language: the hooks it reads and how it builds its
/// part of a rulebook's [`Mechanics`] from them. The builders run in the order of
/// [`MECHANICS`], each seeing what the ones before it built, so a mechanic
/// that cannot go with another refuses it where the second one is read.
pub struct Mechanic {
    /// The mechanic's name: its module's, `mechanics/<name>.rs`.
    pub name: &'static str,
    /// The load-time hooks it reads.
    pub hooks: &'static [HookId],
    /// Reads the hooks into the rulebook's `Mechanics`.
    pub(crate) build: fn(&Load<'_>, &mut Mechanics) -> Result<(), RulebookError>,
}

/// Every mechanic, in the order their hooks are read.
pub const MECHANICS: &[Mechanic] = &[
    shape::MECHANIC,
    lines::MECHANIC,
    pieces::MECHANIC,
    regions::MECHANIC,
    words::MECHANIC,
    support::MECHANIC,
    combinations::MECHANIC,
    turns::MECHANIC,
    captures::MECHANIC,
    ageing::MECHANIC,
    slides::MECHANIC,
    twists::MECHANIC,
    removals::MECHANIC,
    counts::MECHANIC,
    restrictions::MECHANIC,
    patterns::MECHANIC,
    stacks::MECHANIC,
    whole_board::MECHANIC,
    ends::MECHANIC,
    repetition::MECHANIC,
];

/// Evaluates the load-time hooks of `host` into tables, mechanic by mechanic.
pub(crate) fn build(
    host: &ScriptHost,
    grid: Grid,
    params: &[(String, String)],
) -> Result<Mechanics, RulebookError> {
    let load = Load::new(host, grid, params);
    let mut mechanics = Mechanics::empty(grid);
    for mechanic in MECHANICS {
        (mechanic.build)(&load, &mut mechanics)?;
    }
    Ok(mechanics)
}

/// A rulebook's mechanics as every [`Mechanic`] built them: everything
/// the load-time hooks said, compiled into the tables play reads.
#[derive(Debug, Clone)]
pub struct Mechanics {
    /// What the load-time hooks said that loads but is likely not meant.
    pub(crate) warnings: Vec<crate::error::Problem>,
    pub(crate) all: CellSet,
    pub(crate) lines: Vec<Vec<Cell>>,
    pub(crate) win: WinCheck,
    /// O's test where its lines are won by other runs than X's
    /// (`wins(run, side)`, `sided`); `win` is X's then.
    pub(crate) win_o: WinCheck,
    /// Whether the sides' lines are won apart (`wins(run, side)`).
    pub(crate) sided: bool,
    /// The windows by number, where both sides' lines are won by `k` or
    /// more marks and the windows' masks outgrow the cache (`CACHED_MASKS`
    /// in lines.rs); `None` otherwise, and where lines remove.
    pub(crate) window_list: Option<WindowList>,
    /// Per side, whether a run of n marks wins, by n.
    pub(crate) wins: [Vec<bool>; 2],
    pub(crate) pieces: u16,
    pub(crate) steps: Vec<CellSet>,
    /// Per cell, the cells whose steps lead to it (`steps` turned round).
    pub(crate) steps_into: Vec<CellSet>,
    pub(crate) jumps: Vec<Vec<Jump>>,
    pub(crate) regions: Vec<CellSet>,
    pub(crate) region_of: Vec<u8>,
    /// Per region: the region lines through it, as masks over region numbers.
    pub(crate) region_lines: Vec<Vec<u32>>,
    pub(crate) redirect: Vec<u8>,
    /// Names from the `region_name` hook; empty when it is not defined.
    pub(crate) region_names: Vec<String>,
    pub(crate) no_moves: NoMoves,
    /// The result where no cell is left to play, where it is not
    /// `no_moves`' (`full_board()`).
    pub(crate) full_board: Option<NoMoves>,
    pub(crate) repetition: Option<u32>,
    pub(crate) turns: Turns,
    /// What placements capture (`captures()`, `capture_wins()`).
    pub(crate) captures: Captures,
    /// The marks each side keeps, the oldest vanishing (`keep_marks()`).
    pub(crate) keep: Option<u8>,
    /// Moves that rewrite a line of cells (`slides(cell)`).
    pub(crate) slides: slides::Slides,
    /// The twists that follow each placement (`twists()`).
    pub(crate) twists: twists::Twists,
    /// Who wins when a move leaves lines for both sides (`both_lines()`).
    pub(crate) both_lines: whole_board::BothLines,
    /// What a completed line removes, if lines remove (`removes()`).
    pub(crate) removals: removals::Removals,
    /// The pieces at which a side flies; 0 for never (`fly_at()`).
    pub(crate) fly_at: u16,
    /// The pieces at which a side loses (`lose_at()`).
    pub(crate) lose_at: Option<u16>,
    /// By the game's move number, the cells that move may not take
    /// (`forbidden()`); empty past the last restricted move.
    pub(crate) forbidden: Vec<CellSet>,
    /// What each side's moves may not make (`forbidden_patterns()`).
    pub(crate) patterns: patterns::Patterns,
    /// The sizes of pieces that stack (`sizes()`).
    pub(crate) stacks: stacks::Sizes,
    /// The shortest run that wins.
    pub(crate) min_run: usize,
    pub(crate) line_result: LineResult,
    /// What may lie beyond a winning run's ends (`line_ends()`).
    pub(crate) line_ends: LineEnds,
    pub(crate) marks: Marks,
    pub(crate) full_region: FullRegion,
    /// Whether some cell needs others occupied first (`support()`).
    pub(crate) gravity: bool,
    /// Per cell: the cells that must be occupied before it may be filled.
    pub(crate) support: Vec<CellSet>,
    /// Per cell: the cells whose support includes it.
    pub(crate) dependents: Vec<CellSet>,
    /// The cells that cannot be filled on an empty board.
    pub(crate) unsupported: CellSet,
    /// The words of a set the board's cells fill: 1, 2, 4 or all of them
    /// (see [`crate::bits`]); the hot paths are compiled for each.
    pub(crate) words: usize,
}

impl Mechanics {
    /// The tables of a board no mechanic has read a hook for yet.
    fn empty(grid: Grid) -> Mechanics {
        Mechanics {
            warnings: Vec::new(),
            all: grid.all(),
            lines: Vec::new(),
            win: WinCheck::default(),
            win_o: WinCheck::default(),
            sided: false,
            window_list: None,
            wins: [Vec::new(), Vec::new()],
            pieces: UNLIMITED,
            steps: Vec::new(),
            steps_into: Vec::new(),
            jumps: Vec::new(),
            regions: Vec::new(),
            region_of: Vec::new(),
            region_lines: Vec::new(),
            redirect: Vec::new(),
            region_names: Vec::new(),
            no_moves: NoMoves::default_word(),
            full_board: None,
            repetition: None,
            keep: None,
            slides: slides::Slides::default(),
            twists: twists::Twists::default(),
            both_lines: whole_board::BothLines::Draw,
            removals: removals::Removals::default(),
            fly_at: 0,
            lose_at: None,
            forbidden: Vec::new(),
            patterns: patterns::Patterns::default(),
            stacks: stacks::Sizes::default(),
            turns: Turns::default(),
            captures: Captures::default(),
            min_run: 0,
            line_result: LineResult::default_word(),
            line_ends: LineEnds::Any,
            marks: Marks::default_word(),
            full_region: FullRegion::default_word(),
            gravity: false,
            support: Vec::new(),
            dependents: Vec::new(),
            unsupported: CellSet::EMPTY,
            words: words_for(grid.len()),
        }
    }
}

impl Mechanics {
    /// What the mechanics do once a mark of `mark`, placed or moved by
    /// `mover`, lands on `to` (`own`: the marks of its kind, it included):
    /// captures, cells opened by their support, and a line or a line of
    /// regions deciding the game.
    #[inline(always)]
    pub(crate) fn land<const W: usize>(
        &self,
        p: &mut Position,
        to: Cell,
        mark: Side,
        mover: Side,
        own: Bits<W>,
    ) {
        if self.captures.any() {
            self.captures.take::<W>(p, to, mark, own);
        }
        if self.gravity {
            self.settle_support::<W>(p, to);
        }
        let line = self.wins_by(mark, to, own, p.marks(mark.other()).prefix::<W>());
        if self.regions.is_empty() {
            if line {
                let holder = self.line_result.holder(mark, mover);
                p.result = Some((self.line_result.outcome(holder), Ending::Line));
            } else if self.captures.any() {
                p.result = self.captures.decided(p, mover);
            }
        } else {
            self.settle_region::<W>(p, to, mark, mover, line);
        }
    }

    /// The cells a mark could fill in `pos`, in the first `W` words (see
    /// [`crate::bits`]): empty, and neither in a closed region nor waiting
    /// for their support.
    #[inline(always)]
    pub(crate) fn fillable_in<const W: usize>(&self, pos: &Position) -> Bits<W> {
        self.all.prefix::<W>() & !pos.occupied_in::<W>() & !pos.closed_cells.prefix::<W>()
    }
}

/// A primitive the mechanics built before may have turned on, named as
/// the refusal of a later one that cannot go with it says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Primitive {
    Pieces,
    ChosenMarks,
    Support,
    Regions,
    Captures,
    KeepMarks,
    Slides,
    Twists,
    TurnMarks,
    SidedWins,
}

impl Primitive {
    fn name(self) -> &'static str {
        match self {
            Primitive::Pieces => "pieces()",
            Primitive::ChosenMarks => "marks() other than \"own\"",
            Primitive::Support => "support()",
            Primitive::Regions => "regions()",
            Primitive::Captures => "captures()",
            Primitive::KeepMarks => "keep_marks()",
            Primitive::Slides => "slides()",
            Primitive::Twists => "twists()",
            Primitive::TurnMarks => "turn_marks()",
            Primitive::SidedWins => "wins(run, side)",
        }
    }
}

impl Mechanics {
    /// The name of the first of `clashes` this rulebook uses, in that
    /// order: what a mechanic that cannot go with them refuses.
    pub(crate) fn first_in_use(&self, clashes: &[Primitive]) -> Option<&'static str> {
        let in_use = |p: Primitive| match p {
            Primitive::Pieces => self.pieces != UNLIMITED,
            Primitive::ChosenMarks => self.marks != Marks::Own,
            Primitive::Support => self.gravity,
            Primitive::Regions => !self.regions.is_empty(),
            Primitive::Captures => self.captures.any(),
            Primitive::KeepMarks => self.keep.is_some(),
            Primitive::Slides => !self.slides.all.is_empty(),
            Primitive::Twists => !self.twists.all.is_empty(),
            Primitive::TurnMarks => !self.turns.is_alternating(),
            Primitive::SidedWins => self.sided,
        };
        clashes
            .iter()
            .copied()
            .find(|&p| in_use(p))
            .map(Primitive::name)
    }
}

/// The narrowest compiled prefix width that holds `n` cells.
fn words_for(n: usize) -> usize {
    match n.div_ceil(64) {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        _ => WORDS,
    }
}

impl Mechanics {
    /// How moves are written beyond the grid's names: a chosen mark, the
    /// slides' and twists' names.
    pub(crate) fn move_names(&self) -> crate::notation::MoveNames {
        crate::notation::MoveNames {
            explicit_mark: self.marks == Marks::Either,
            slides: self.slide_names(),
            twists: self.twist_names(),
            sizes: self.size_letters(),
        }
    }

    /// The lines, as the `lines()` hook gave them.
    pub fn lines(&self) -> &[Vec<Cell>] {
        &self.lines
    }

    /// Whether a move may place a mark: not where `pieces()` is 0, and
    /// every move is a slide.
    pub fn places(&self) -> bool {
        self.pieces != 0
    }

    /// Whether a position can come back: pieces move, lines slide, marks
    /// vanish or are captured. Where none of these is, every move adds a
    /// mark for good and a game cannot loop.
    pub fn positions_recur(&self) -> bool {
        self.pieces().is_some()
            || self.has_slides()
            || self.keep_marks().is_some()
            || self.has_captures()
    }

    /// Pieces per side, if limited.
    pub fn pieces(&self) -> Option<u16> {
        (self.pieces != UNLIMITED).then_some(self.pieces)
    }

    /// The regions (sub-boards); empty when the rulebook has none.
    pub fn regions(&self) -> &[CellSet] {
        &self.regions
    }

    /// The region of a cell, when the rulebook has regions.
    pub fn region_of(&self, cell: Cell) -> Option<usize> {
        self.region_of
            .get(cell.index())
            .filter(|&&r| r != NO_REGION)
            .map(|&r| r as usize)
    }

    /// The regions' names from the `region_name` hook; empty without it.
    pub fn region_names(&self) -> &[String] {
        &self.region_names
    }

    /// Where a piece on `cell` may step.
    pub fn steps(&self, cell: Cell) -> CellSet {
        self.steps[cell.index()]
    }

    /// Where a piece on `cell` may jump.
    pub fn jumps(&self, cell: Cell) -> &[Jump] {
        &self.jumps[cell.index()]
    }

    /// What having no legal move means.
    pub fn no_moves(&self) -> NoMoves {
        self.no_moves
    }

    /// The fifth field of the position text, where this rulebook's has
    /// one: the one mechanic that owns it. The three go with no other
    /// (their builders refuse each other), so at most one answers.
    pub(crate) fn fifth_field(&self) -> Option<crate::setup_error::FifthField> {
        use crate::setup_error::FifthField as F;
        if self.held_in_text() {
            Some(F::Held)
        } else if self.captures.any() {
            Some(F::Captures)
        } else if self.keep.is_some() {
            Some(F::Ages)
        } else {
            None
        }
    }

    /// The result for `turn`, the side to move, having no legal move:
    /// `full_board()`'s where no cell is left to play (`full`, asked only
    /// where that differs), else `no_moves()`'s.
    #[inline]
    pub(crate) fn stuck(&self, turn: Side, full: impl FnOnce() -> bool) -> Outcome {
        match self.full_board {
            Some(w) if full() => w.outcome(turn),
            _ => self.no_moves.outcome(turn),
        }
    }

    /// The shortest run of marks that wins (`k` of k-in-a-row).
    pub fn min_run(&self) -> usize {
        self.min_run
    }

    /// The repetition count that draws, if any.
    pub fn repetition(&self) -> Option<u32> {
        self.repetition
    }

    /// Whether moves may slide a line of cells (`slides(cell)`).
    pub fn has_slides(&self) -> bool {
        !self.slides.all.is_empty()
    }

    /// The slides, in cell order.
    pub fn slides(&self) -> &[slides::Slide] {
        &self.slides.all
    }

    /// Where the mark `mv` puts down stands once the move is made — a
    /// twist may carry it on, a slide's new mark goes in at its far end —
    /// for showing the last move; none for a pop or a swap.
    pub fn placed_at(&self, mv: Move) -> Option<Cell> {
        match mv {
            Move::Twist { to, twist } => Some(self.twisted(to, twist)),
            Move::Slide { from, to } => self.slide_put(from, to),
            _ => mv.to(),
        }
    }

    /// The marks each side keeps before its oldest vanishes, if limited.
    pub fn keep_marks(&self) -> Option<u8> {
        self.keep
    }

    /// Marks per turn (`turn_marks()`).
    pub fn turns(&self) -> &Turns {
        &self.turns
    }

    /// What placements capture (`captures()`, `capture_wins()`).
    pub fn captures(&self) -> &Captures {
        &self.captures
    }

    /// Whether placements may capture (`captures()`).
    pub fn has_captures(&self) -> bool {
        !self.captures.per_cell.is_empty()
    }

    /// The captures that win, if any (`capture_wins()`).
    pub fn capture_wins(&self) -> Option<u16> {
        self.captures.wins
    }

    /// What a completed line does.
    pub fn line_result(&self) -> LineResult {
        self.line_result
    }

    /// Which mark a placement puts down.
    pub fn marks(&self) -> Marks {
        self.marks
    }

    /// Which mark the next move of `pos` places: the rulebook's word and
    /// whose "own" mark it means — the mover's, or, where the move's turn
    /// names its mark (`turn_marks()`), that mark, as if its side moved.
    /// A pair rather than a word more, so that the playout kernel's draws
    /// stay as they were (a fourth word cost classic 2 % more instructions).
    #[inline(always)]
    pub fn marks_at(&self, pos: &Position) -> (Marks, Side) {
        // Asked on every random move of the general path: most rulebooks
        // name no marks, and pay one test.
        if self.turns.named_moves() == 0 {
            return (self.marks, pos.turn);
        }
        self.named_marks_at(pos)
    }

    /// [`Mechanics::marks_at`] where some turn names its marks.
    #[inline(never)]
    fn named_marks_at(&self, pos: &Position) -> (Marks, Side) {
        match self.turns.named_mark(pos.marks_played()) {
            Some(mark) => (Marks::Own, mark),
            None => (self.marks, pos.turn),
        }
    }

    /// Who holds a region filled without a line.
    pub fn full_region(&self) -> FullRegion {
        self.full_region
    }

    /// Whether every move puts a mark on any empty cell, where it stays
    /// until a capture takes it: no pieces to move or stack, no support,
    /// regions, vanishing marks, slides or twists. What the Gomocup
    /// protocol can say and what the searches by lines read.
    pub fn marks_stay_where_placed(&self) -> bool {
        self.pieces == UNLIMITED
            && !self.has_stacks()
            && !self.gravity
            && self.regions.is_empty()
            && self.keep.is_none()
            && !self.has_slides()
            && !self.has_twists()
    }

    /// Whether marks need support (gravity): a move may then name a column.
    pub fn has_gravity(&self) -> bool {
        self.gravity
    }

    /// The cells that must be occupied before `cell` may be filled.
    pub fn support(&self, cell: Cell) -> CellSet {
        self.support.get(cell.index()).copied().unwrap_or_default()
    }

    /// The cells `occupied` lets a mark rest on: every cell whose support is
    /// occupied (occupied cells included).
    pub(crate) fn supported(&self, occupied: CellSet) -> CellSet {
        if !self.gravity {
            return self.all;
        }
        self.all
            .into_iter()
            .filter(|c| self.support[c.index()].is_subset(occupied))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::hooks::{HOOKS, HookKind};

    /// The registry is the one list of what the language reads at load:
    /// every load-time hook belongs to exactly one mechanic, so a hook added
    /// without its mechanic (or read twice) fails here.
    #[test]
    fn every_load_hook_has_one_mechanic() {
        for hook in HOOKS.iter().filter(|h| h.kind == HookKind::Load) {
            let owners: Vec<&str> = MECHANICS
                .iter()
                .filter(|m| m.hooks.contains(&hook.id))
                .map(|m| m.name)
                .collect();
            assert_eq!(owners.len(), 1, "{}: read by {owners:?}", hook.id.name());
        }
        for m in MECHANICS {
            for id in m.hooks {
                let hook = HOOKS.iter().find(|h| h.id == *id).expect("a hook");
                assert_eq!(hook.kind, HookKind::Load, "{}: {}", m.name, id.name());
            }
        }
    }
}
