//! Load-time hooks, evaluated once and compiled into lookup tables.
//!
//! Implementation note: this is what keeps the scripted rules fast. The
//! interpreter never runs for a cell of a move; play reads these tables only.

use super::primitives::{FullRegion, LineResult, Marks, NoMoves, Word};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet, Grid, Span, WORDS};
use crate::position::{NO_REGION, UNLIMITED};
use crate::script::hooks::HookId;
use crate::script::{ScriptHost, describe};
use crate::turns::Turns;
use rhai::Dynamic;

/// A jump: the destination and the cells that must be empty in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Jump {
    /// Where the piece lands.
    pub to: Cell,
    /// Cells jumped over; all must be empty.
    pub over: CellSet,
}

/// How a completed line is recognised.
#[derive(Debug, Clone)]
pub(crate) enum WinCheck {
    /// `wins(n)` holds exactly for `n >= k`: a move wins when any window of
    /// `k` consecutive cells through it is all own marks. Each window is
    /// `words` words (the board's prefix width), one after the other, so
    /// that a test loads it whole beside the marks held in registers.
    Windows {
        start: Vec<u32>,
        words: usize,
        masks: Vec<u64>,
    },
    /// The same on boards of more than four words, where a window as a
    /// [`Span`] of three words takes a quarter of the memory.
    Spans { start: Vec<u32>, spans: Vec<Span> },
    /// Any other `wins`: measure the run through the move along each line.
    Runs {
        lines: Vec<Vec<Cell>>,
        through: Vec<Vec<(u32, u32)>>,
        wins: Vec<bool>,
    },
}

/// A capture a mark placed on a cell may make: when every `take` cell holds
/// an opponent mark and `by` an own one, the `take` marks leave the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The cells whose opponent marks are taken.
    pub take: CellSet,
    /// The cell that must hold an own mark.
    pub by: Cell,
}

/// The most marks one turn may place.
const MAX_TURN_MARKS: i64 = 16;

/// Everything the load-time hooks said, as tables.
#[derive(Debug, Clone)]
pub struct Tables {
    pub(crate) all: CellSet,
    pub(crate) lines: Vec<Vec<Cell>>,
    pub(crate) win: WinCheck,
    pub(crate) pieces: u16,
    pub(crate) steps: Vec<CellSet>,
    pub(crate) jumps: Vec<Vec<Jump>>,
    pub(crate) regions: Vec<CellSet>,
    pub(crate) region_of: Vec<u8>,
    /// Per region: the region lines through it, as masks over region numbers.
    pub(crate) region_lines: Vec<Vec<u32>>,
    pub(crate) redirect: Vec<u8>,
    /// Names from the `region_name` hook; empty when it is not defined.
    pub(crate) region_names: Vec<String>,
    pub(crate) no_moves: NoMoves,
    pub(crate) repetition: Option<u32>,
    pub(crate) turns: Turns,
    /// Per cell: the captures a mark placed there may make (`captures()`);
    /// empty when the rulebook has none.
    pub(crate) captures: Vec<Vec<Capture>>,
    /// Captures that win the game (`capture_wins()`).
    pub(crate) capture_wins: Option<u16>,
    /// The shortest run that wins.
    pub(crate) min_run: usize,
    pub(crate) line_result: LineResult,
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

/// The narrowest compiled prefix width that holds `n` cells.
fn words_for(n: usize) -> usize {
    match n.div_ceil(64) {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        _ => WORDS,
    }
}

/// The unbroken run of `own` marks along `line` through its `i`-th cell, as
/// a range of places in the line (that cell is taken to hold a mark).
pub(crate) fn run_at<const W: usize>(
    line: &[Cell],
    i: usize,
    own: Bits<W>,
) -> std::ops::Range<usize> {
    let back = line[..i]
        .iter()
        .rev()
        .take_while(|&&c| own.contains(c))
        .count();
    let ahead = line[i + 1..]
        .iter()
        .take_while(|&&c| own.contains(c))
        .count();
    i - back..i + ahead + 1
}

/// Where the windows through `cell` lie in a window table.
#[inline(always)]
fn windows_of(start: &[u32], cell: Cell) -> std::ops::Range<usize> {
    start[cell.index()] as usize..start[cell.index() + 1] as usize
}

impl Tables {
    /// Whether `own` holds a winning run through `cell`.
    #[inline(always)]
    /// `own` may be a prefix of the marks (see [`crate::bits`]) when the
    /// board's cells fit it.
    pub(crate) fn wins_through<const W: usize>(&self, cell: Cell, own: Bits<W>) -> bool {
        match &self.win {
            WinCheck::Windows {
                start,
                words,
                masks,
            } => {
                let range = windows_of(start, cell);
                let masks = &masks[range.start * words..range.end * words];
                if *words == W {
                    masks
                        .chunks_exact(W)
                        .any(|m| Bits::<W>::from_words(m).is_subset(own))
                } else {
                    // Called at another width (set-up checks): word by word.
                    let own = CellSet::from_prefix(own).words();
                    masks
                        .chunks_exact(*words)
                        .any(|m| m.iter().zip(own).all(|(&m, o)| m & !o == 0))
                }
            }
            WinCheck::Spans { start, spans } => spans[windows_of(start, cell)]
                .iter()
                .any(|s| s.is_subset(&own)),
            WinCheck::Runs { .. } => self.run_through(cell, own),
        }
    }

    /// The `wins(run)` table applied to the run through `cell` along each line.
    #[inline(never)]
    fn run_through<const W: usize>(&self, cell: Cell, own: Bits<W>) -> bool {
        let WinCheck::Runs {
            lines,
            through,
            wins,
        } = &self.win
        else {
            unreachable!("only called for run tables")
        };
        through[cell.index()]
            .iter()
            .any(|&(l, i)| wins[run_at(&lines[l as usize], i as usize, own).len()])
    }

    /// The lines, as the `lines()` hook gave them.
    pub fn lines(&self) -> &[Vec<Cell>] {
        &self.lines
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

    /// The shortest run of marks that wins (`k` of k-in-a-row).
    pub fn min_run(&self) -> usize {
        self.min_run
    }

    /// Whether an unbroken run of `n` like marks completes a line (`wins(n)`).
    pub fn wins_run(&self, n: usize) -> bool {
        match &self.win {
            WinCheck::Runs { wins, .. } => wins.get(n).copied().unwrap_or(false),
            _ => n >= self.min_run,
        }
    }

    /// The repetition count that draws, if any.
    pub fn repetition(&self) -> Option<u32> {
        self.repetition
    }

    /// Marks per turn (`turn_marks()`).
    pub fn turns(&self) -> &Turns {
        &self.turns
    }

    /// Whether placements may capture (`captures()`).
    pub fn has_captures(&self) -> bool {
        !self.captures.is_empty()
    }

    /// The captures that win, if any (`capture_wins()`).
    pub fn capture_wins(&self) -> Option<u16> {
        self.capture_wins
    }

    /// What a completed line does.
    pub fn line_result(&self) -> LineResult {
        self.line_result
    }

    /// Which mark a placement puts down.
    pub fn marks(&self) -> Marks {
        self.marks
    }

    /// Who holds a region filled without a line.
    pub fn full_region(&self) -> FullRegion {
        self.full_region
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

/// Evaluates the load-time hooks of `host` into tables.
pub(crate) struct Builder<'a> {
    host: &'a ScriptHost,
    grid: Grid,
    params: &'a [(String, String)],
}

impl<'a> Builder<'a> {
    pub(crate) fn new(
        host: &'a ScriptHost,
        grid: Grid,
        params: &'a [(String, String)],
    ) -> Builder<'a> {
        Builder { host, grid, params }
    }

    /// An error about a hook's answer, located at the hook's definition.
    fn bad(&self, hook: HookId, message: String) -> RulebookError {
        self.host.bad_value(hook, message).into()
    }

    fn call(
        &self,
        hook: HookId,
        args: impl rhai::FuncArgs,
    ) -> Result<Option<Dynamic>, RulebookError> {
        if !self.host.defines(hook) {
            return Ok(None);
        }
        Ok(Some(self.host.call_load(hook, args)?))
    }

    fn cell(&self, hook: HookId, what: &str, v: &Dynamic) -> Result<Cell, RulebookError> {
        let found = || {
            format!(
                "{what}: expected a cell (a number from cell(col, row), or a name like \"b2\"), found {}",
                describe(v)
            )
        };
        if let Ok(n) = v.as_int() {
            if (0..self.grid.len() as i64).contains(&n) {
                return Ok(Cell(n as u16));
            }
            return Err(self.bad(
                hook,
                format!(
                    "{what}: cell {n} is off the {}×{} board",
                    self.grid.width(),
                    self.grid.height()
                ),
            ));
        }
        if let Some(s) = v.read_lock::<rhai::ImmutableString>() {
            return self.grid.parse_cell(&s).ok_or_else(|| {
                self.bad(
                    hook,
                    format!("{what}: `{}` is not a cell of this board", s.as_str()),
                )
            });
        }
        Err(self.bad(hook, found()))
    }

    fn array(&self, hook: HookId, what: &str, v: Dynamic) -> Result<rhai::Array, RulebookError> {
        let shown = describe(&v);
        v.try_cast::<rhai::Array>()
            .ok_or_else(|| self.bad(hook, format!("{what}: expected an array, found {shown}")))
    }

    fn cells(&self, hook: HookId, what: &str, v: Dynamic) -> Result<Vec<Cell>, RulebookError> {
        let items = self.array(hook, what, v)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = self.cell(hook, &format!("{what}, item {}", i + 1), item)?;
            if out.contains(&c) {
                return Err(self.bad(
                    hook,
                    format!("{what}: cell {} appears twice", self.grid.name(c)),
                ));
            }
            out.push(c);
        }
        Ok(out)
    }

    fn int(&self, hook: HookId, what: &str, v: &Dynamic) -> Result<Option<i64>, RulebookError> {
        if v.is_unit() {
            return Ok(None);
        }
        v.as_int().map(Some).map_err(|_| {
            self.bad(
                hook,
                format!("{what}: expected a number or (), found {}", describe(v)),
            )
        })
    }

    /// ` (params: k = 4)`: the values a bad answer most likely comes from.
    fn params_hint(&self) -> String {
        if self.params.is_empty() {
            return String::new();
        }
        let shown: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        format!(" (params: {})", shown.join(", "))
    }

    pub(crate) fn build(&self) -> Result<Tables, RulebookError> {
        let n = self.grid.len();
        let lines_v = self.call(HookId::Lines, ())?.unwrap_or(Dynamic::UNIT);
        let mut lines = Vec::new();
        for (i, l) in self
            .array(HookId::Lines, "lines()", lines_v)?
            .into_iter()
            .enumerate()
        {
            let line = self.cells(HookId::Lines, &format!("line {}", i + 1), l)?;
            if line.is_empty() {
                return Err(self.bad(HookId::Lines, format!("line {} is empty", i + 1)));
            }
            lines.push(line);
        }
        if lines.is_empty() {
            return Err(self.bad(
                HookId::Lines,
                format!(
                    "lines() returned no line: is the line longer than the {}×{} board?{}",
                    self.grid.width(),
                    self.grid.height(),
                    self.params_hint()
                ),
            ));
        }
        let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
        let mut wins = vec![false; longest + 1];
        for (run, slot) in wins.iter_mut().enumerate().skip(1) {
            let v = self
                .call(HookId::Wins, (run as i64,))?
                .unwrap_or(Dynamic::FALSE);
            *slot = v.as_bool().map_err(|_| {
                self.bad(
                    HookId::Wins,
                    format!(
                        "wins({run}): expected true or false, found {}",
                        describe(&v)
                    ),
                )
            })?;
        }
        let Some(k) = wins.iter().position(|&w| w) else {
            return Err(self.bad(
                HookId::Wins,
                format!(
                    "no line can ever be won: wins(n) is false for every n up to {longest}, the longest line{}",
                    self.params_hint()
                ),
            ));
        };
        let monotone = wins.iter().enumerate().skip(1).all(|(r, &w)| w == (r >= k));
        let win = if monotone {
            windows(n, &lines, k)
        } else {
            let mut through = vec![Vec::new(); n];
            for (l, line) in lines.iter().enumerate() {
                for (i, c) in line.iter().enumerate() {
                    through[c.index()].push((l as u32, i as u32));
                }
            }
            WinCheck::Runs {
                lines: lines.clone(),
                through,
                wins,
            }
        };

        let pieces = match self.call(HookId::Pieces, ())? {
            None => UNLIMITED,
            Some(v) => match self.int(HookId::Pieces, "pieces()", &v)? {
                None => UNLIMITED,
                Some(p) if (1..=n as i64).contains(&p) => p as u16,
                Some(p) => {
                    return Err(self.bad(
                        HookId::Pieces,
                        format!("pieces() is {p}: expected 1 to {n}, or () for unlimited"),
                    ));
                }
            },
        };

        let mut steps = vec![CellSet::EMPTY; n];
        let mut jumps = vec![Vec::new(); n];
        for c in self.grid.cells() {
            let name = self.grid.name(c);
            if let Some(v) = self.call(HookId::Steps, (c.0 as i64,))? {
                for to in self.cells(HookId::Steps, &format!("steps({name})"), v)? {
                    if to == c {
                        return Err(self.bad(
                            HookId::Steps,
                            format!("steps({name}) contains {name} itself"),
                        ));
                    }
                    steps[c.index()].insert(to);
                }
            }
            if let Some(v) = self.call(HookId::Jumps, (c.0 as i64,))? {
                for (i, j) in self
                    .array(HookId::Jumps, &format!("jumps({name})"), v)?
                    .into_iter()
                    .enumerate()
                {
                    let what = format!("jumps({name}), item {}", i + 1);
                    let map = j.try_cast::<rhai::Map>().ok_or_else(|| {
                        self.bad(
                            HookId::Jumps,
                            format!("{what}: expected #{{ to: cell, over: [cells] }}"),
                        )
                    })?;
                    if let Some(key) = map.keys().find(|k| !["to", "over"].contains(&k.as_str())) {
                        return Err(self.bad(
                            HookId::Jumps,
                            format!("{what}: unknown key `{key}`, expected `to` or `over`"),
                        ));
                    }
                    let to = self.cell(
                        HookId::Jumps,
                        &format!("{what}, `to`"),
                        map.get("to").unwrap_or(&Dynamic::UNIT),
                    )?;
                    let over = match map.get("over") {
                        Some(o) => {
                            self.cells(HookId::Jumps, &format!("{what}, `over`"), o.clone())?
                        }
                        None => Vec::new(),
                    };
                    if to == c || over.contains(&to) || over.contains(&c) {
                        return Err(self.bad(HookId::Jumps, format!("{what}: a jump must land on another cell than it starts from or passes over")));
                    }
                    jumps[c.index()].push(Jump {
                        to,
                        over: over.into_iter().collect(),
                    });
                }
            }
        }

        let (regions, region_of, region_lines, redirect) = self.regions(&lines)?;
        let mut region_names = Vec::new();
        for r in 0..regions.len() {
            let Some(v) = self.call(HookId::RegionName, (r as i64,))? else {
                break;
            };
            let shown = describe(&v);
            let name = v.into_string().map_err(|_| {
                self.bad(
                    HookId::RegionName,
                    format!("region_name({r}): expected a string, found {shown}"),
                )
            })?;
            region_names.push(name);
        }

        let no_moves = self.word::<NoMoves>(HookId::NoMoves)?;
        let line_result = self.word::<LineResult>(HookId::LineResult)?;
        let marks = self.word::<Marks>(HookId::Marks)?;
        let full_region = self.word::<FullRegion>(HookId::FullRegion)?;
        let (support, dependents, unsupported) = self.support()?;
        let gravity = !unsupported.is_empty();
        self.check_combinations(pieces, marks, line_result, gravity, &regions)?;
        let turns = self.turns(pieces)?;
        let captures = self.captures()?;
        let capture_wins = self.capture_wins(&captures)?;
        if !captures.is_empty() {
            let clash = [
                (pieces != UNLIMITED, "pieces()"),
                (marks != Marks::Own, "marks() other than \"own\""),
                (gravity, "support()"),
                (!regions.is_empty(), "regions()"),
                (!turns.is_alternating(), "turn_marks()"),
            ];
            if let Some((_, what)) = clash.iter().find(|(bad, _)| *bad) {
                return Err(self.bad(
                    HookId::Captures,
                    format!("captures() cannot go with {what}: captures take the opponent's placed marks off a plain board, one mark a turn"),
                ));
            }
        }
        let repetition = match self.call(HookId::Repetition, ())? {
            None => None,
            Some(v) => match self.int(HookId::Repetition, "repetition()", &v)? {
                None | Some(0) => None,
                Some(r) if (2..=1000).contains(&r) => Some(r as u32),
                Some(r) => {
                    return Err(self.bad(
                        HookId::Repetition,
                        format!("repetition() is {r}: expected 2 to 1000, or () / 0 for never"),
                    ));
                }
            },
        };

        Ok(Tables {
            all: self.grid.all(),
            lines,
            win,
            pieces,
            steps,
            jumps,
            regions,
            region_of,
            region_lines,
            redirect,
            region_names,
            no_moves,
            repetition,
            turns,
            captures,
            capture_wins,
            min_run: k,
            line_result,
            marks,
            full_region,
            gravity,
            support: if gravity { support } else { Vec::new() },
            dependents: if gravity { dependents } else { Vec::new() },
            unsupported,
            words: words_for(n),
        })
    }

    /// A one-word primitive: the hook's answer, or the default without it.
    fn word<T: Word>(&self, hook: HookId) -> Result<T, RulebookError> {
        let Some(v) = self.call(hook, ())? else {
            return Ok(T::default_word());
        };
        v.clone()
            .into_string()
            .ok()
            .and_then(|w| T::from_word(&w))
            .ok_or_else(|| {
                self.bad(
                    hook,
                    format!(
                        "{}(): expected {}, found {}",
                        hook.name(),
                        T::choices(),
                        describe(&v)
                    ),
                )
            })
    }

    /// `support(cell)` for every cell: the support sets, who depends on each
    /// cell, and the cells unplayable on an empty board. Refuses a cell that
    /// could never be filled (its support waits on itself).
    fn support(&self) -> Result<(Vec<CellSet>, Vec<CellSet>, CellSet), RulebookError> {
        let n = self.grid.len();
        let mut support = vec![CellSet::EMPTY; n];
        let mut dependents = vec![CellSet::EMPTY; n];
        if !self.host.defines(HookId::Support) {
            return Ok((support, dependents, CellSet::EMPTY));
        }
        for c in self.grid.cells() {
            let v = self
                .call(HookId::Support, (c.0 as i64,))?
                .unwrap_or_default();
            let what = format!("support({})", self.grid.name(c));
            for s in self.cells(HookId::Support, &what, v)? {
                support[c.index()].insert(s);
                dependents[s.index()].insert(c);
            }
        }
        // Fill the board in support order; whatever is never reached waits
        // on itself through a cycle.
        let mut filled = CellSet::EMPTY;
        loop {
            let next: CellSet = self
                .grid
                .cells()
                .filter(|c| support[c.index()].is_subset(filled))
                .collect();
            if next == filled {
                break;
            }
            filled = next;
        }
        let never = self.grid.all() & !filled;
        if let Some(c) = never.first() {
            // Follow the unfillable support down until it comes round.
            let mut path = vec![c];
            let mut at = c;
            let cycle = loop {
                at = (support[at.index()] & never)
                    .first()
                    .expect("an unfillable cell waits on another");
                if let Some(i) = path.iter().position(|&p| p == at) {
                    break &path[i..];
                }
                path.push(at);
            };
            let names: Vec<String> = cycle
                .iter()
                .chain(cycle.first())
                .map(|&c| self.grid.name(c).to_string())
                .collect();
            return Err(self.bad(
                HookId::Support,
                format!(
                    "cell {} can never be filled: support() goes round in a cycle, {}",
                    self.grid.name(c),
                    names.join(" → ")
                ),
            ));
        }
        let unsupported = self
            .grid
            .cells()
            .filter(|c| !support[c.index()].is_empty())
            .collect();
        Ok((support, dependents, unsupported))
    }

    /// Refuses primitives that cannot go together, at the hook that adds the
    /// second one.
    fn check_combinations(
        &self,
        pieces: u16,
        marks: Marks,
        line_result: LineResult,
        gravity: bool,
        regions: &[CellSet],
    ) -> Result<(), RulebookError> {
        let moving = pieces != UNLIMITED;
        if gravity && moving {
            return Err(self.bad(
                HookId::Support,
                "support() cannot go with pieces(): a piece that moves away would leave the marks above it unsupported".into(),
            ));
        }
        if marks != Marks::Own && moving {
            return Err(self.bad(
                HookId::Marks,
                format!(
                    "marks() is \"{}\": with pieces() each side moves its own pieces, so marks must be \"own\"",
                    if marks == Marks::Either { "either" } else { "shared" }
                ),
            ));
        }
        if marks == Marks::Shared && line_result.needs_owner() {
            let hook = if self.host.defines(HookId::LineResult) {
                HookId::LineResult
            } else {
                HookId::Marks
            };
            return Err(self.bad(
                hook,
                "with a shared mark a line has no owner: line_result() must be \"mover wins\", \"mover loses\", \"X wins\" or \"O wins\"".into(),
            ));
        }
        if self.host.defines(HookId::FullRegion) && regions.is_empty() {
            return Err(self.bad(
                HookId::FullRegion,
                "`full_region` needs regions: define `regions()` too".into(),
            ));
        }
        Ok(())
    }

    /// `captures(cell)`, for every cell.
    fn captures(&self) -> Result<Vec<Vec<Capture>>, RulebookError> {
        let hook = HookId::Captures;
        if !self.host.defines(hook) {
            return Ok(Vec::new());
        }
        let mut all = vec![Vec::new(); self.grid.len()];
        for c in self.grid.cells() {
            let name = self.grid.name(c);
            let Some(v) = self.call(hook, (c.0 as i64,))? else {
                continue;
            };
            for (i, item) in self
                .array(hook, &format!("captures({name})"), v)?
                .into_iter()
                .enumerate()
            {
                let what = format!("captures({name}), item {}", i + 1);
                let map = item.try_cast::<rhai::Map>().ok_or_else(|| {
                    self.bad(
                        hook,
                        format!("{what}: expected #{{ take: [cells], by: cell }}"),
                    )
                })?;
                if let Some(key) = map.keys().find(|k| !["take", "by"].contains(&k.as_str())) {
                    return Err(self.bad(
                        hook,
                        format!("{what}: unknown key `{key}`, expected `take` or `by`"),
                    ));
                }
                let take = self.cells(
                    hook,
                    &format!("{what}, `take`"),
                    map.get("take").cloned().unwrap_or(Dynamic::UNIT),
                )?;
                let by = self.cell(
                    hook,
                    &format!("{what}, `by`"),
                    map.get("by").unwrap_or(&Dynamic::UNIT),
                )?;
                if take.is_empty() {
                    return Err(self.bad(hook, format!("{what}: `take` names no cell")));
                }
                if take.contains(&c) || take.contains(&by) || by == c {
                    return Err(self.bad(
                        hook,
                        format!("{what}: the pattern overlaps itself: `take`, `by` and {name} must be different cells"),
                    ));
                }
                all[c.index()].push(Capture {
                    take: take.into_iter().collect(),
                    by,
                });
            }
        }
        // None at all: the table stays empty, and play never looks at it.
        if all.iter().all(Vec::is_empty) {
            all.clear();
        }
        Ok(all)
    }

    /// `capture_wins()`: the captures that win, if any.
    fn capture_wins(&self, captures: &[Vec<Capture>]) -> Result<Option<u16>, RulebookError> {
        let hook = HookId::CaptureWins;
        let Some(v) = self.call(hook, ())? else {
            return Ok(None);
        };
        if captures.is_empty() {
            return Err(self.bad(
                hook,
                "`capture_wins` needs captures: define `captures(cell)` too".into(),
            ));
        }
        match self.int(hook, "capture_wins()", &v)? {
            None | Some(0) => Ok(None),
            Some(n) if (1..=1000).contains(&n) => Ok(Some(n as u16)),
            Some(n) => Err(self.bad(
                hook,
                format!("capture_wins() is {n}: expected 1 to 1000, or () / 0 for never"),
            )),
        }
    }

    /// `turn_marks()`: marks per turn, by turn number.
    fn turns(&self, pieces: u16) -> Result<Turns, RulebookError> {
        let Some(v) = self.call(HookId::TurnMarks, ())? else {
            return Ok(Turns::default());
        };
        let hook = HookId::TurnMarks;
        let items = self.array(hook, "turn_marks()", v)?;
        if items.is_empty() {
            return Err(self.bad(
                hook,
                "turn_marks() is empty: expected marks per turn, such as [1, 2]".into(),
            ));
        }
        let mut counts = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item.as_int() {
                Ok(n) if (1..=MAX_TURN_MARKS).contains(&n) => counts.push(n as u32),
                _ => {
                    return Err(self.bad(
                        hook,
                        format!(
                            "turn_marks(), item {}: a turn places 1 to {MAX_TURN_MARKS} marks, found {}",
                            i + 1,
                            describe(item)
                        ),
                    ));
                }
            }
        }
        if counts != [1] && pieces != UNLIMITED {
            return Err(self.bad(
                hook,
                "turn_marks() cannot go with pieces(): a turn of several moves needs marks that are only placed".into(),
            ));
        }
        Ok(Turns::new(counts))
    }

    #[allow(clippy::type_complexity)]
    fn regions(
        &self,
        lines: &[Vec<Cell>],
    ) -> Result<(Vec<CellSet>, Vec<u8>, Vec<Vec<u32>>, Vec<u8>), RulebookError> {
        let n = self.grid.len();
        let Some(v) = self.call(HookId::Regions, ())? else {
            for hook in [HookId::RegionLines, HookId::Redirect, HookId::RegionName] {
                if self.host.defines(hook) {
                    return Err(self.bad(
                        hook,
                        format!("`{}` needs regions: define `regions()` too", hook.name()),
                    ));
                }
            }
            return Ok((Vec::new(), Vec::new(), Vec::new(), Vec::new()));
        };
        let mut regions = Vec::new();
        let mut region_of = vec![NO_REGION; n];
        for (i, r) in self
            .array(HookId::Regions, "regions()", v)?
            .into_iter()
            .enumerate()
        {
            let cells = self.cells(HookId::Regions, &format!("region {i}"), r)?;
            for &c in &cells {
                if region_of[c.index()] != NO_REGION {
                    return Err(self.bad(
                        HookId::Regions,
                        format!(
                            "cell {} is in regions {} and {i}",
                            self.grid.name(c),
                            region_of[c.index()]
                        ),
                    ));
                }
                region_of[c.index()] = i as u8;
            }
            regions.push(cells.into_iter().collect::<CellSet>());
            if regions.len() > 32 {
                return Err(self.bad(HookId::Regions, "more than 32 regions".into()));
            }
        }
        if let Some(c) = self
            .grid
            .cells()
            .find(|c| region_of[c.index()] == NO_REGION)
        {
            return Err(self.bad(
                HookId::Regions,
                format!(
                    "cell {} is in no region: regions must cover the board",
                    self.grid.name(c)
                ),
            ));
        }
        for (i, line) in lines.iter().enumerate() {
            if line
                .iter()
                .any(|c| region_of[c.index()] != region_of[line[0].index()])
            {
                return Err(self.bad(
                    HookId::Lines,
                    format!(
                        "line {} crosses regions: with regions, every line lies inside one",
                        i + 1
                    ),
                ));
            }
        }
        let count = regions.len();
        let v = self.call(HookId::RegionLines, ())?.ok_or_else(|| {
            self.bad(
                HookId::Regions,
                "regions need `region_lines()`: which lines of regions win the game".into(),
            )
        })?;
        let mut region_lines = vec![Vec::new(); count];
        for (i, l) in self
            .array(HookId::RegionLines, "region_lines()", v)?
            .into_iter()
            .enumerate()
        {
            let what = format!("region line {}", i + 1);
            let mut mask = 0u32;
            for r in self.array(HookId::RegionLines, &what, l)? {
                match self.int(HookId::RegionLines, &what, &r)? {
                    Some(r) if (0..count as i64).contains(&r) => mask |= 1 << r,
                    _ => {
                        return Err(self.bad(
                            HookId::RegionLines,
                            format!("{what}: expected region numbers 0 to {}", count - 1),
                        ));
                    }
                }
            }
            for (r, through) in region_lines.iter_mut().enumerate() {
                if mask & (1 << r) != 0 {
                    through.push(mask);
                }
            }
        }
        let mut redirect = vec![NO_REGION; n];
        for c in self.grid.cells() {
            if let Some(v) = self.call(HookId::Redirect, (c.0 as i64,))? {
                let what = format!("redirect({})", self.grid.name(c));
                match self.int(HookId::Redirect, &what, &v)? {
                    None => {}
                    Some(r) if (0..count as i64).contains(&r) => redirect[c.index()] = r as u8,
                    Some(r) => {
                        return Err(self.bad(
                            HookId::Redirect,
                            format!(
                                "{what} is {r}: expected a region number 0 to {}, or ()",
                                count - 1
                            ),
                        ));
                    }
                }
            }
        }
        Ok((regions, region_of, region_lines, redirect))
    }
}

fn windows(n: usize, lines: &[Vec<Cell>], k: usize) -> WinCheck {
    let mut per_cell: Vec<Vec<CellSet>> = vec![Vec::new(); n];
    for line in lines {
        for w in line.windows(k) {
            let mask: CellSet = w.iter().copied().collect();
            for c in w {
                if !per_cell[c.index()].contains(&mask) {
                    per_cell[c.index()].push(mask);
                }
            }
        }
    }
    let mut start = Vec::with_capacity(n + 1);
    let mut masks = Vec::new();
    for list in per_cell {
        start.push(masks.len() as u32);
        masks.extend(list);
    }
    start.push(masks.len() as u32);
    let words = words_for(n);
    if words == WORDS
        && let Some(spans) = masks.iter().map(|&m| Span::of(m, words)).collect()
    {
        return WinCheck::Spans { start, spans };
    }
    let masks = masks
        .iter()
        .flat_map(|m| m.words().into_iter().take(words))
        .collect();
    WinCheck::Windows {
        start,
        words,
        masks,
    }
}
