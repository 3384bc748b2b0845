//! Slides (`slides(cell)`): a move that rewrites a line of
//! cells. The mark at the slide's first cell leaves the board, the marks
//! along its path shift one cell back towards it, and the last cell gets
//! the mover's mark or is left empty: a pop out of a column (the marks
//! above drop), or a cube taken from the edge and pushed back in at the
//! other end of its row. A slide moves many marks, so the lines are judged
//! on the whole board after it, for both sides (see `whole_board`).
//!
//! Everything the mechanic does lives here: reading its hooks, listing,
//! checking and naming slides, and playing one.

use super::load::{Load, Word, read_word};
use super::words::Marks;
use super::{Mechanic, Mechanics};
use crate::bits::{Bits, WORDS};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet};
use crate::position::{BySide, Ending, Move, MoveList, Outcome, Position, Side, UNLIMITED};
use crate::refusal::Refusal;
use crate::script::hooks::HookId;
use rhai::Dynamic;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "slides",
    hooks: &[HookId::Slides],
    build,
};

/// Which mark a slide may take from its first cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Only the mover's own.
    Own,
    /// The mover's own, or none (an empty cell: a blank cube).
    OwnOrEmpty,
}

impl Word for Take {
    const WORDS: &'static [(&'static str, Take)] =
        &[("own", Take::Own), ("own or empty", Take::OwnOrEmpty)];
}

/// What a slide leaves on its last cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// The mover's mark.
    Own,
    /// Nothing.
    Empty,
}

impl Word for Put {
    const WORDS: &'static [(&'static str, Put)] = &[("own", Put::Own), ("empty", Put::Empty)];
}

/// One slide: its path (the first cell is where the mark is taken), what
/// it may take and leaves, and its name in notation, if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slide {
    /// The cells, from where the mark is taken to where one goes in.
    pub path: Vec<Cell>,
    /// What may be taken from `path[0]`.
    pub take: Take,
    /// What the last cell gets.
    pub put: Put,
    /// Its notation (`^d`), else `from-to`.
    pub name: Option<String>,
    /// The cells whose mark it may change, and those resting on them: the
    /// cells that may open or close for a placement after it.
    pub(crate) touched: CellSet,
    /// The winning windows through its path, where wins are windows: the
    /// only lines it can make.
    windows: Option<Vec<u64>>,
    /// How far apart (in cell numbers) the path's cells are, when they are
    /// evenly spaced: the shift is then one shift of the bits.
    stride: Option<i32>,
}

/// A slide as the playout kernel reads it where the board fits one word,
/// every slide runs along evenly spaced cells and wins are windows: a few
/// words side by side (a [`Slide`] is some 200 bytes, its path and windows
/// elsewhere on the heap).
#[derive(Debug, Clone, Copy)]
struct Quick {
    /// The path's cells.
    path: u64,
    /// The path's cells but the first: the marks that move.
    rest: u64,
    /// The last cell where the mover's mark goes in there, else nothing.
    put: u64,
    /// How far the marks move: right by it when positive, left when not.
    stride: i32,
    /// Where its windows lie in `Slides::quick_windows`.
    windows: (u32, u32),
}

impl Slide {
    /// The cell the mark is taken from.
    pub fn from(&self) -> Cell {
        self.path[0]
    }

    /// The cell at the other end.
    pub fn to(&self) -> Cell {
        self.path[self.path.len() - 1]
    }
}

/// The slides a side may make: their numbers, where they fit a word, else
/// how many.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Legal {
    /// Bit `j` for `all[j]`.
    Numbers(u64),
    /// Their number.
    Count(u32),
}

impl Legal {
    /// How many.
    #[inline(always)]
    pub(crate) fn count(self) -> u32 {
        match self {
            Legal::Numbers(set) => set.count_ones(),
            Legal::Count(n) => n,
        }
    }
}

/// The number of the `i`-th set bit of `set` (which has more than `i`):
/// whole bytes skipped by their counts, then bits cleared one by one.
#[inline(always)]
fn nth_bit(set: u64, mut i: u32) -> u32 {
    let mut base = 0;
    loop {
        let n = (set >> base & 0xff).count_ones();
        if i < n {
            break;
        }
        i -= n;
        base += 8;
    }
    let mut byte = set >> base & 0xff;
    for _ in 0..i {
        byte &= byte - 1;
    }
    base + byte.trailing_zeros()
}

/// The slides from the cells of a set, looked up a byte of it at a time,
/// for each thing a slide may take (a table is empty where no slide takes
/// that).
#[derive(Debug, Clone)]
struct ByByte {
    /// Slides that take an own mark, by the bytes of the mover's marks.
    own: Vec<[u64; 256]>,
    /// Slides that take an own mark or an empty cell, by the bytes of the
    /// cells the opponent does not hold.
    own_or_empty: Vec<[u64; 256]>,
}

impl ByByte {
    /// The tables for `all` on a board of `cells` cells.
    fn new(all: &[Slide], cells: usize) -> ByByte {
        let table = |take: Take| {
            if all.iter().all(|s| s.take != take) {
                return Vec::new();
            }
            let mut table = vec![[0u64; 256]; cells.div_ceil(8)];
            for (j, s) in all.iter().enumerate().filter(|(_, s)| s.take == take) {
                let c = s.from().index();
                for (value, slides) in table[c / 8].iter_mut().enumerate() {
                    if value & (1 << (c % 8)) != 0 {
                        *slides |= 1 << j;
                    }
                }
            }
            table
        };
        ByByte {
            own: table(Take::Own),
            own_or_empty: table(Take::OwnOrEmpty),
        }
    }

    /// The slides whose first cell is in `cells`, from `table`.
    #[inline(always)]
    fn lookup(table: &[[u64; 256]], cells: u64) -> u64 {
        let mut slides = 0;
        for (k, bytes) in table.iter().enumerate() {
            slides |= bytes[(cells >> (8 * k)) as usize & 0xff];
        }
        slides
    }
}

/// The slides of a rulebook.
#[derive(Debug, Clone)]
pub struct Slides {
    /// Every slide, in cell order.
    pub(crate) all: Vec<Slide>,
    /// Where the board and the slides fit one word each: for what each
    /// kind of slide may take, by byte of a set of cells and its value, the
    /// slides from those cells (as bits of their numbers), so that the
    /// slides a side may make are a few lookups and the n-th of them a
    /// bit's rank.
    by_byte: Option<ByByte>,
    /// Each slide's compact copy, where all have one (else empty).
    quick: Vec<Quick>,
    /// The windows of the compact copies, one after the other.
    quick_windows: Vec<u64>,
    /// Whether no slide can lower the number of marks (each leaves a mark
    /// on its last cell): a position then never returns once a move adds a
    /// mark.
    pub(crate) never_fewer: bool,
}

impl Default for Slides {
    fn default() -> Slides {
        Slides::new(Vec::new(), 0)
    }
}

impl Slides {
    /// Makes the compact copies, where every slide can have one: its path
    /// evenly spaced and its windows known (a board of one word).
    fn make_quick(&mut self) {
        let mut quick = Vec::new();
        let mut windows: Vec<u64> = Vec::new();
        for s in &self.all {
            let (Some(stride), Some(w)) = (s.stride, &s.windows) else {
                return;
            };
            let path: u64 = s.path.iter().fold(0, |p, c| p | 1 << c.0);
            let start = windows.len() as u32;
            windows.extend_from_slice(w);
            quick.push(Quick {
                path,
                rest: path & !(1 << s.from().0),
                put: if s.put == Put::Own { 1 << s.to().0 } else { 0 },
                stride,
                windows: (start, windows.len() as u32),
            });
        }
        self.quick = quick;
        self.quick_windows = windows;
    }

    /// The slides `all` (in cell order) on a board of `cells` cells.
    fn new(all: Vec<Slide>, cells: usize) -> Slides {
        let by_byte = (cells <= 64 && all.len() <= 64).then(|| ByByte::new(&all, cells));
        let never_fewer = all.iter().all(|s| s.put == Put::Own);
        Slides {
            all,
            by_byte,
            quick: Vec::new(),
            quick_windows: Vec::new(),
            never_fewer,
        }
    }
}

/// Reads `slides(cell)` for every cell, and refuses
/// slides beside a mechanic they cannot go with.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let all = slides(load)?;
    if !all.is_empty() {
        let clash = [
            (
                t.pieces != UNLIMITED && t.pieces != 0,
                "pieces() other than 0",
            ),
            (t.marks != Marks::Own, "marks() other than \"own\""),
            (!t.regions.is_empty(), "regions()"),
            (t.captures.any(), "captures()"),
            (t.keep.is_some(), "keep_marks()"),
            (!t.turns.is_alternating(), "turn_marks()"),
            (t.sided_wins(), "wins(run, side)"),
        ];
        if let Some((_, what)) = clash.iter().find(|(bad, _)| *bad) {
            return Err(load.bad(
                HookId::Slides,
                format!("slides() cannot go with {what}: a slide moves each side's own marks along a plain board, one move a turn"),
            ));
        }
        // With support(), a slide must keep every mark resting on another:
        // it runs up a stack, each cell resting on the one before it alone,
        // and leaves its top empty (a pop).
        if t.gravity
            && let Some(s) = all.iter().find(|s| {
                s.put != Put::Empty
                    || s.path.windows(2).any(|w| {
                        t.support[w[1].index()] != std::iter::once(w[0]).collect::<CellSet>()
                    })
            })
        {
            return Err(load.bad(
                HookId::Slides,
                format!(
                    "slides({}): with support(), a slide runs up a stack of cells, each resting on the one before it, and leaves its last cell empty, so that no mark is left floating",
                    load.grid.name(s.from())
                ),
            ));
        }
    } else if t.pieces == 0 {
        return Err(load.bad(
            HookId::Pieces,
            "pieces() is 0 without slides(): a side with no pieces to place has a move only where slides() gives it one".to_string(),
        ));
    }
    let mut all = all;
    for s in &mut all {
        if t.gravity {
            for &c in &s.path {
                s.touched |= t.dependents[c.index()];
            }
        }
        s.windows = t.windows_through_cells(&s.path);
    }
    let cells = load.grid.len();
    t.slides = Slides::new(all, cells);
    if cells <= 64 {
        t.slides.make_quick();
    }
    Ok(())
}

/// `slides(cell)`, for every cell.
fn slides(load: &Load<'_>) -> Result<Vec<Slide>, RulebookError> {
    let hook = HookId::Slides;
    if !load.host.defines(hook) {
        return Ok(Vec::new());
    }
    let mut all: Vec<Slide> = Vec::new();
    for c in load.grid.cells() {
        let cell = load.grid.name(c);
        let Some(v) = load.call(hook, (c.0 as i64,))? else {
            continue;
        };
        let bad = |why: String| load.bad(hook, format!("slides({cell}): {why}"));
        let bad_text = |why: String| load.bad(hook, why);
        let Some(list) = v.try_cast::<rhai::Array>() else {
            return Err(bad(
                "expected an array of #{ path, take, put, name } maps".to_string()
            ));
        };
        for item in list {
            let Some(map) = item.try_cast::<rhai::Map>() else {
                return Err(bad(
                    "each slide is a map #{ path: [cells], take, put, name }".to_string(),
                ));
            };
            let field = |key: &str| map.get(key).cloned();
            let path = match field("path") {
                Some(p) => load.cells(hook, &format!("slides({cell}).path"), p)?,
                None => return Err(bad("a slide needs a `path`".to_string())),
            };
            if path.first() != Some(&c) || path.len() < 2 {
                return Err(bad(format!(
                    "a path starts at {cell} and has at least two cells"
                )));
            }
            let distinct: CellSet = path.iter().copied().collect();
            if distinct.count() as usize != path.len() {
                return Err(bad("a path names each cell once".to_string()));
            }
            let take: Take =
                map_word(field("take"), &format!("slides({cell}).take")).map_err(bad_text)?;
            let put: Put =
                map_word(field("put"), &format!("slides({cell}).put")).map_err(bad_text)?;
            let name = match field("name") {
                None => None,
                Some(n) => Some(slide_name(n).map_err(&bad)?),
            };
            let touched: CellSet = path.iter().copied().collect();
            let stride = i32::from(path[1].0) - i32::from(path[0].0);
            let even = path
                .windows(2)
                .all(|w| i32::from(w[1].0) - i32::from(w[0].0) == stride);
            let slide = Slide {
                path,
                take,
                put,
                name,
                touched,
                windows: None,
                stride: even.then_some(stride),
            };
            if all
                .iter()
                .any(|s| (s.from(), s.to()) == (slide.from(), slide.to()))
            {
                return Err(bad(format!(
                    "two slides from {cell} end at {}",
                    load.grid.name(slide.to())
                )));
            }
            if let Some(n) = &slide.name
                && all.iter().any(|s| s.name.as_ref() == Some(n))
            {
                return Err(bad(format!("two slides are named `{n}`")));
            }
            all.push(slide);
        }
    }
    Ok(all)
}

/// A word of a slide's map, or the default without it.
fn map_word<T: Word>(v: Option<Dynamic>, what: &str) -> Result<T, String> {
    v.map_or(Ok(T::default_word()), |v| read_word(&v, what))
}

/// A slide's name: `^` and then letters or digits (`^d`), so that it reads
/// as a move and as nothing else.
fn slide_name(n: Dynamic) -> Result<String, String> {
    let text = n
        .into_string()
        .map_err(|_| "a slide's `name` is a string such as \"^d\"".to_string())?;
    // The REPL reads as a move what notation says looks like one.
    if !text.starts_with('^') || !crate::notation::looks_like_move(&text) {
        return Err(format!(
            "slide name `{}`: expected `^` and then lower-case letters or digits, such as \"^d\"",
            text.escape_debug()
        ));
    }
    Ok(text)
}

// Play: listing, checking, naming and making slides.
impl Mechanics {
    /// Whether `side` may take the mark (or the empty cell) at the start of
    /// `slide`, with `marks` (a prefix of each side's, X's first) on the board.
    #[inline(always)]
    fn may_take<const W: usize>(slide: &Slide, marks: &[Bits<W>; 2], side: Side) -> bool {
        let from = slide.from();
        match slide.take {
            Take::Own => marks[side as usize].contains(from),
            Take::OwnOrEmpty => !marks[side.other() as usize].contains(from),
        }
    }

    /// Whether the side to move of `pos` may make `slide`.
    fn may_take_in(slide: &Slide, pos: &Position) -> bool {
        Self::may_take::<WORDS>(slide, &[pos.marks.x, pos.marks.o], pos.turn)
    }

    /// Pushes every slide the side to move may make.
    pub(crate) fn push_slides(&self, pos: &Position, out: &mut MoveList) {
        for s in &self.slides.all {
            if Self::may_take_in(s, pos) {
                out.push(Move::Slide {
                    from: s.from(),
                    to: s.to(),
                });
            }
        }
    }

    /// Whether the side to move may make some slide.
    pub(crate) fn has_slide(&self, pos: &Position) -> bool {
        self.slides.all.iter().any(|s| Self::may_take_in(s, pos))
    }

    /// The slides `side` may make, for the playout kernel to count and draw
    /// from.
    #[inline(always)]
    pub(crate) fn legal_slides<const W: usize>(&self, marks: &[Bits<W>; 2], side: Side) -> Legal {
        if W == 1
            && let Some(tables) = &self.slides.by_byte
        {
            let own = marks[side as usize].words()[0];
            let not_theirs = !marks[side.other() as usize].words()[0];
            let legal =
                ByByte::lookup(&tables.own, own) | ByByte::lookup(&tables.own_or_empty, not_theirs);
            return Legal::Numbers(legal);
        }
        Legal::Count(self.count_slides(marks, side))
    }

    /// The number of the `i`-th of the `legal` slides of `side`, in the
    /// order [`Self::push_slides`] lists them.
    #[inline(always)]
    pub(crate) fn pick_slide<const W: usize>(
        &self,
        legal: Legal,
        marks: &[Bits<W>; 2],
        side: Side,
        i: u32,
    ) -> usize {
        match legal {
            Legal::Numbers(set) => nth_bit(set, i) as usize,
            Legal::Count(_) => self.nth_slide(marks, side, i),
        }
    }

    /// Slide number `j`.
    #[inline(always)]
    pub(crate) fn slide_at(&self, j: usize) -> &Slide {
        &self.slides.all[j]
    }

    /// [`Self::shift`] for slide number `j`, from its compact copy where
    /// there is one.
    #[inline(always)]
    pub(crate) fn shift_at<const W: usize>(&self, j: usize, marks: &mut [Bits<W>; 2], side: Side) {
        if W == 1
            && let Some(q) = self.slides.quick.get(j)
        {
            // Every mark after the first cell moves back by the stride at once.
            for m in marks.iter_mut() {
                let w = m.words()[0];
                let moved = if q.stride > 0 {
                    (w & q.rest) >> q.stride
                } else {
                    (w & q.rest) << -q.stride
                };
                *m = Bits::from_words(&[(w & !q.path) | moved]);
            }
            let own = &mut marks[side as usize];
            *own = Bits::from_words(&[own.words()[0] | q.put]);
            return;
        }
        Self::shift(&self.slides.all[j], marks, side);
    }

    /// [`Self::slide_result`] for slide number `j`, from its compact copy
    /// where there is one.
    #[inline(always)]
    pub(crate) fn result_at<const W: usize>(
        &self,
        j: usize,
        marks: &[Bits<W>; 2],
        mover: Side,
    ) -> Option<Outcome> {
        if W == 1
            && let Some(q) = self.slides.quick.get(j)
        {
            let windows = &self.slides.quick_windows[q.windows.0 as usize..q.windows.1 as usize];
            let line = |s: Side| {
                let own = marks[s as usize].words()[0];
                // Every window tested, without a branch each: a line is rare.
                own.count_ones() as usize >= self.min_run
                    && windows.iter().fold(false, |won, &m| won | (m & !own == 0))
            };
            let lines = BySide {
                x: line(Side::X),
                o: line(Side::O),
            };
            return self.judge_lines(lines, mover);
        }
        self.slide_result(&self.slides.all[j], marks, mover)
    }

    /// How many slides `side` may make.
    #[inline(always)]
    pub(crate) fn count_slides<const W: usize>(&self, marks: &[Bits<W>; 2], side: Side) -> u32 {
        let may = |s: &&Slide| Self::may_take(s, marks, side);
        self.slides.all.iter().filter(may).count() as u32
    }

    /// The `i`-th slide `side` may make, in the order [`Self::push_slides`]
    /// lists them.
    #[inline(always)]
    pub(crate) fn nth_slide<const W: usize>(
        &self,
        marks: &[Bits<W>; 2],
        side: Side,
        i: u32,
    ) -> usize {
        let may = |(_, s): &(usize, &Slide)| Self::may_take(s, marks, side);
        let mut legal = self.slides.all.iter().enumerate().filter(may);
        legal
            .nth(i as usize)
            .expect("i < the number of legal slides")
            .0
    }

    /// The cell the slide from `from` to `to` puts the mover's mark on (its
    /// far end), if it puts one down (a pop leaves the cell empty).
    pub(crate) fn slide_put(&self, from: Cell, to: Cell) -> Option<Cell> {
        let slide = self.slide(from, to)?;
        (slide.put == Put::Own).then(|| slide.to())
    }

    /// The slide from `from` to `to`, if there is one.
    pub(crate) fn slide(&self, from: Cell, to: Cell) -> Option<&Slide> {
        self.slides
            .all
            .iter()
            .find(|s| s.from() == from && s.to() == to)
    }

    /// The slides that start at `from`, in the rulebook's order.
    pub(crate) fn slides_from(&self, from: Cell) -> impl Iterator<Item = &Slide> {
        (self.slides.all.iter()).filter(move |s| s.from() == from)
    }

    /// The slide named `name` (`^d`).
    pub(crate) fn slide_named(&self, name: &str) -> Option<&Slide> {
        self.slides
            .all
            .iter()
            .find(|s| s.name.as_deref() == Some(name))
    }

    /// Why the side to move may not slide from `from` to `to`, if it may not.
    pub(crate) fn check_slide(&self, pos: &Position, from: Cell, to: Cell) -> Result<(), Refusal> {
        let Some(slide) = self.slide(from, to) else {
            return Err(if self.slides_from(from).next().is_none() {
                Refusal::NoSlideFrom(from, to)
            } else {
                Refusal::NoSlide(from, to)
            });
        };
        if Self::may_take_in(slide, pos) {
            Ok(())
        } else {
            Err(match pos.mark_at(from) {
                Some(mark) => Refusal::SlideTake(from, mark),
                None => Refusal::SlideEmpty(from),
            })
        }
    }

    /// Makes the slide from `from` to `to` for `side`: the marks shift, the
    /// cells that rest on others open or close again, and the lines are
    /// judged. Out of line: the general path's `apply` compiled around it
    /// ran the moves of games without slides slower (2.5 % more
    /// instructions on a board of sub-boards).
    // Cold, as `make_twist` is, for the same reason.
    #[cold]
    #[inline(never)]
    pub(crate) fn make_slide<const W: usize>(
        &self,
        p: &mut Position,
        side: Side,
        from: Cell,
        to: Cell,
    ) {
        let Some(slide) = self.slide(from, to) else {
            return;
        };
        let mut marks = [p.marks.x.prefix::<W>(), p.marks.o.prefix::<W>()];
        Self::shift(slide, &mut marks, side);
        p.marks.x.set_prefix(marks[0]);
        p.marks.o.set_prefix(marks[1]);
        if self.gravity {
            let occupied = marks[0] | marks[1];
            for c in slide.touched {
                if self.may_fill(c, occupied) || occupied.contains(c) {
                    p.closed_cells.remove(c);
                } else {
                    p.closed_cells.insert(c);
                }
            }
        }
        p.result = self
            .slide_result(slide, &marks, side)
            .map(|o| (o, Ending::Line));
    }

    /// Shifts `marks` along `slide` for `side`: the mark at the path's
    /// start leaves, the marks along it move one cell back, and the last
    /// cell gets `side`'s mark or nothing.
    #[inline(always)]
    pub(crate) fn shift<const W: usize>(slide: &Slide, marks: &mut [Bits<W>; 2], side: Side) {
        let path = &slide.path;
        for m in marks.iter_mut() {
            m.remove(path[0]);
        }
        for w in path.windows(2) {
            for m in marks.iter_mut() {
                if m.contains(w[1]) {
                    m.remove(w[1]);
                    m.insert(w[0]);
                }
            }
        }
        if slide.put == Put::Own {
            marks[side as usize].insert(slide.to());
        }
    }

    /// Whether an empty `c` may be filled with `occupied` taken: it rests
    /// on taken cells, or nothing rests anywhere.
    #[inline(always)]
    pub(crate) fn may_fill<const W: usize>(&self, c: Cell, occupied: Bits<W>) -> bool {
        !occupied.contains(c)
            && (!self.gravity || self.support[c.index()].prefix::<W>().is_subset(occupied))
    }

    /// The result of the lines on the board after `mover`'s `slide` left
    /// `marks`.
    #[inline(always)]
    pub(crate) fn slide_result<const W: usize>(
        &self,
        slide: &Slide,
        marks: &[Bits<W>; 2],
        mover: Side,
    ) -> Option<Outcome> {
        // The position before had no line (else the game was over), and a
        // line the slide made runs through a cell whose mark it changed: the
        // path's cells are the only ones to try.
        let line = |s: Side| {
            let (own, theirs) = (marks[s as usize], marks[1 - s as usize]);
            // Fewer marks than the shortest winning run cannot hold a line.
            own.count() as usize >= self.min_run
                && match &slide.windows {
                    Some(windows) => self.fills_window(windows, own),
                    None => (slide.path.iter())
                        .any(|&c| own.contains(c) && self.wins_through(c, own, theirs)),
                }
        };
        let lines = BySide {
            x: line(Side::X),
            o: line(Side::O),
        };
        self.judge_lines(lines, mover)
    }

    /// Whether every slide takes exactly one mark off (an own mark taken,
    /// the last cell left empty): then each move changes the number of
    /// marks by one, as a placement does, and its parity says whose turn
    /// it is.
    pub(crate) fn slides_remove_one(&self) -> bool {
        self.slides
            .all
            .iter()
            .all(|s| s.take == Take::Own && s.put == Put::Empty)
    }

    /// The slides that have a name (`^d`), for the notation: from, to, name.
    pub(crate) fn slide_names(&self) -> Vec<(Cell, Cell, String)> {
        let named = self.slides.all.iter();
        named
            .filter_map(|s| Some((s.from(), s.to(), s.name.clone()?)))
            .collect()
    }
}
