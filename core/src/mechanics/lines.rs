//! Lines and the runs that win them (`lines()`, `wins(run)`): the tables a
//! move's line is judged by, through the cell it filled.

use super::load::{Load, Word};
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::{Bits, Cell, CellSet, Span, WORDS};
use crate::position::Side;
use crate::script::describe;
use crate::script::hooks::HookId;
use rhai::Dynamic;
use std::collections::HashMap;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "lines",
    hooks: &[HookId::Lines, HookId::Wins],
    build,
};

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
    /// A `line_ends()` other than `"any"`: measure the run as [`WinCheck::Runs`]
    /// does, then read the cells beyond its ends.
    Ends {
        lines: Vec<Vec<Cell>>,
        through: Vec<Vec<(u32, u32)>>,
        wins: Vec<bool>,
        ends: LineEnds,
    },
}

/// What the cells just beyond a winning run's two ends, along its line,
/// may hold (`line_ends()`). An end is *blocked* by an opponent mark there
/// and *open* where the cell is empty; the end of the line is neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnds {
    /// Anything: the run alone wins (the default).
    Any,
    /// Not an opponent mark beyond both ends (Caro).
    NotBothBlocked,
    /// An empty cell beyond each end.
    BothOpen,
}

impl Word for LineEnds {
    const WORDS: &'static [(&'static str, LineEnds)] = &[
        ("any", LineEnds::Any),
        ("not both blocked", LineEnds::NotBothBlocked),
        ("both open", LineEnds::BothOpen),
    ];
}

impl LineEnds {
    /// Whether the run `run` of `line` may win with `theirs` beyond it
    /// (the run's own marks are `own`).
    #[inline]
    pub(crate) fn allow<const W: usize>(
        self,
        line: &[Cell],
        run: std::ops::Range<usize>,
        own: Bits<W>,
        theirs: Bits<W>,
    ) -> bool {
        let beyond = [
            run.start.checked_sub(1).map(|j| line[j]),
            line.get(run.end).copied(),
        ];
        let blocked = |c: Option<Cell>| c.is_some_and(|c| theirs.contains(c));
        let open = |c: Option<Cell>| c.is_some_and(|c| !theirs.contains(c) && !own.contains(c));
        match self {
            LineEnds::Any => true,
            LineEnds::NotBothBlocked => !(blocked(beyond[0]) && blocked(beyond[1])),
            LineEnds::BothOpen => open(beyond[0]) && open(beyond[1]),
        }
    }
}

impl WinCheck {
    /// The table of `wins` (a side's answers by run length) on a board of
    /// `n` cells that reads the cells beyond each run as `ends` says
    /// (`line_ends()`).
    pub(crate) fn with_ends(
        n: usize,
        lines: &[Vec<Cell>],
        wins: Vec<bool>,
        ends: LineEnds,
    ) -> WinCheck {
        WinCheck::Ends {
            lines: lines.to_vec(),
            through: places_of(n, lines),
            wins,
            ends,
        }
    }

    /// No window through any of `n` cells: no line decides the game (lines
    /// remove pieces instead, `removes()`). A table, not a variant of its
    /// own, so the test every move makes is the same code for every rulebook.
    pub(crate) fn never(n: usize, words: usize) -> WinCheck {
        WinCheck::Windows {
            start: vec![0; n + 1],
            words,
            masks: Vec::new(),
        }
    }
}

impl Default for WinCheck {
    /// No line at all: what the tables hold before `lines()` is read.
    fn default() -> WinCheck {
        WinCheck::Runs {
            lines: Vec::new(),
            through: Vec::new(),
            wins: Vec::new(),
        }
    }
}

/// Every winning window once and the windows through each cell, where a
/// line is won by `k` or more marks alike for both sides and the windows'
/// masks outgrow the cache ([`CACHED_MASKS`]): the playout kernel keeps
/// per window how many cells each side still lacks, and a placement wins
/// when one of its windows lacks none.
///
/// Implementation note: testing the windows' masks reads 640 bytes a move
/// on 15×15 from a table of 92 KB (each window once per cell), most of
/// them misses in the first-level cache; the counts touch twenty bytes
/// of 1 KB. On small boards the masks stay cached and are the faster
/// test. Measured in `docs/development.md`, "Speed".
#[derive(Debug, Clone, Default)]
pub(crate) struct WindowList {
    /// Per cell, where its windows start in `ids` (one entry more than cells).
    start: Vec<u32>,
    ids: Vec<u16>,
    /// Per window, its number of cells.
    sizes: Vec<u8>,
}

impl WindowList {
    /// The windows through `cell`, by number.
    #[inline(always)]
    pub(crate) fn through(&self, cell: Cell) -> &[u16] {
        &self.ids[windows_of(&self.start, cell)]
    }

    /// Per window, its number of cells.
    pub(crate) fn sizes(&self) -> &[u8] {
        &self.sizes
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

/// Whether `own` fills one of `masks`, windows of `words` words each, one
/// after the other.
#[inline(always)]
pub(super) fn fills_one<const W: usize>(masks: &[u64], words: usize, own: Bits<W>) -> bool {
    if words == W {
        masks
            .chunks_exact(W)
            .any(|m| Bits::<W>::from_words(m).is_subset(own))
    } else {
        // Called at another width (set-up checks): word by word.
        let own = CellSet::from_prefix(own).words();
        masks
            .chunks_exact(words)
            .any(|m| m.iter().zip(own).all(|(&m, o)| m & !o == 0))
    }
}

/// Where the windows through `cell` lie in a window table.
#[inline(always)]
pub(super) fn windows_of(start: &[u32], cell: Cell) -> std::ops::Range<usize> {
    start[cell.index()] as usize..start[cell.index() + 1] as usize
}

impl Mechanics {
    /// The distinct winning windows through any of `cells`, one after the
    /// other at the table's width, where wins are windows (else `None`):
    /// a move that changes several cells tests each window once.
    pub(crate) fn windows_through_cells(&self, cells: &[Cell]) -> Option<Vec<u64>> {
        let WinCheck::Windows {
            start,
            words,
            masks,
        } = &self.win
        else {
            return None;
        };
        let mut out: Vec<u64> = Vec::new();
        for &c in cells {
            let range = windows_of(start, c);
            for w in masks[range.start * words..range.end * words].chunks_exact(*words) {
                if !out.chunks_exact(*words).any(|o| o == w) {
                    out.extend_from_slice(w);
                }
            }
        }
        Some(out)
    }

    /// Whether `own` fills one of `windows` (from
    /// [`Self::windows_through_cells`]).
    #[inline(always)]
    pub(crate) fn fills_window<const W: usize>(&self, windows: &[u64], own: Bits<W>) -> bool {
        let WinCheck::Windows { words, .. } = &self.win else {
            return false;
        };
        fills_one(windows, *words, own)
    }

    /// Whether `side`'s marks `own` within `within` hold a winning line (a
    /// set-up check: every cell is tried, not only the last move's).
    pub(crate) fn has_line(
        &self,
        side: Side,
        own: CellSet,
        theirs: CellSet,
        within: CellSet,
    ) -> bool {
        let own = own & within;
        let win = self.win_for(side);
        own.into_iter().any(|c: Cell| win.through(c, own, theirs))
    }

    /// Whether an unbroken run of `n` of `side`'s marks completes a line
    /// (`wins(n)`, or `wins(n, side)`). No run is longer than the longest
    /// line: beyond it, the answer for that one.
    pub fn wins_run(&self, side: Side, n: usize) -> bool {
        let wins = &self.wins[side as usize];
        wins.get(n).or(wins.last()).copied().unwrap_or(false)
    }

    /// Whether the sides' lines are won by different runs (`wins(run, side)`).
    pub fn sided_wins(&self) -> bool {
        self.sided
    }

    /// Whether `own` holds a winning run through `cell` by the table both
    /// sides share, or X's where they differ (see [`Self::wins_by`]).
    /// `own` may be a prefix of the marks (see [`crate::bits`]) when the
    /// board's cells fit it.
    /// `theirs`, the opponent's marks, count only where `line_ends()`
    /// says what lies beyond a run.
    #[inline(always)]
    pub(crate) fn wins_through<const W: usize>(
        &self,
        cell: Cell,
        own: Bits<W>,
        theirs: Bits<W>,
    ) -> bool {
        self.win.through(cell, own, theirs)
    }

    /// Whether `side`'s marks `own` hold a run through `cell` that wins
    /// for `side` (`wins(run, side)`).
    #[inline(always)]
    pub(crate) fn wins_by<const W: usize>(
        &self,
        side: Side,
        cell: Cell,
        own: Bits<W>,
        theirs: Bits<W>,
    ) -> bool {
        self.win_for(side).through(cell, own, theirs)
    }

    /// What may lie beyond a winning run's ends (`line_ends()`).
    pub fn line_ends(&self) -> LineEnds {
        self.line_ends
    }

    /// Whether the run `run` of `line` (`side`'s marks `own`, the
    /// opponent's `theirs`) wins: its length, and what lies beyond it.
    pub(crate) fn run_wins(
        &self,
        side: Side,
        line: &[Cell],
        run: std::ops::Range<usize>,
        own: CellSet,
        theirs: CellSet,
    ) -> bool {
        self.wins_run(side, run.len()) && self.line_ends.allow(line, run, own, theirs)
    }

    /// The table `side`'s lines are judged by.
    #[inline(always)]
    fn win_for(&self, side: Side) -> &WinCheck {
        // A choice of address, not a branch on the table's kind.
        if self.sided & (side == Side::O) {
            &self.win_o
        } else {
            &self.win
        }
    }
}

impl WinCheck {
    /// Whether `own` holds a winning run through `cell` by this table.
    #[inline(always)]
    fn through<const W: usize>(&self, cell: Cell, own: Bits<W>, theirs: Bits<W>) -> bool {
        match self {
            WinCheck::Windows {
                start,
                words,
                masks,
            } => {
                let range = windows_of(start, cell);
                fills_one(&masks[range.start * words..range.end * words], *words, own)
            }
            WinCheck::Spans { start, spans } => spans[windows_of(start, cell)]
                .iter()
                .any(|s| s.is_subset(&own)),
            WinCheck::Runs { .. } => self.run_through(cell, own),
            WinCheck::Ends { .. } => self.ends_through(cell, own, theirs),
        }
    }

    /// The `wins(run)` table and `line_ends()` applied to the run through
    /// `cell` along each line.
    #[inline(never)]
    fn ends_through<const W: usize>(&self, cell: Cell, own: Bits<W>, theirs: Bits<W>) -> bool {
        let WinCheck::Ends {
            lines,
            through,
            wins,
            ends,
        } = self
        else {
            unreachable!("only called for tables with ends")
        };
        through[cell.index()].iter().any(|&(l, i)| {
            let line = &lines[l as usize];
            let run = run_at(line, i as usize, own);
            wins[run.len()] && ends.allow(line, run, own, theirs)
        })
    }

    /// The `wins(run)` table applied to the run through `cell` along each line.
    #[inline(never)]
    fn run_through<const W: usize>(&self, cell: Cell, own: Bits<W>) -> bool {
        let WinCheck::Runs {
            lines,
            through,
            wins,
        } = self
        else {
            unreachable!("only called for run tables")
        };
        through[cell.index()]
            .iter()
            .any(|&(l, i)| wins[run_at(&lines[l as usize], i as usize, own).len()])
    }
}

/// Reads `lines()` and `wins(run)` (or `wins(run, side)`): a monotone
/// `wins` (every run from `k` on wins) becomes a table of windows of `k`
/// cells, any other a table of the lines through each cell. Where the sides'
/// answers differ, O gets a table of its own.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let n = load.grid.len();
    let lines_v = load.call(HookId::Lines, ())?.unwrap_or(Dynamic::UNIT);
    let mut lines = Vec::new();
    for (i, l) in load
        .array(HookId::Lines, "lines()", lines_v)?
        .into_iter()
        .enumerate()
    {
        let nth = format!("the {} line it returned", crate::ordinal::ordinal(i + 1));
        let line = load.cells(HookId::Lines, &nth, l)?;
        if line.is_empty() {
            return Err(load.bad(HookId::Lines, format!("{nth} is empty")));
        }
        lines.push(line);
    }
    if lines.is_empty() {
        return Err(load.bad(
            HookId::Lines,
            format!(
                "lines() returned no line: is the line longer than the {}×{} board?{}",
                load.grid.width(),
                load.grid.height(),
                load.params_hint()
            ),
        ));
    }
    let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
    let sided = load.host.defines_sided(HookId::Wins);
    let x = wins_table(load, longest, sided.then_some(Side::X))?;
    let o = if sided {
        wins_table(load, longest, Some(Side::O))?
    } else {
        x.clone()
    };
    let k = |wins: &[bool]| wins.iter().position(|&w| w);
    let (Some(kx), Some(ko)) = (k(&x), k(&o)) else {
        let side = if k(&x).is_none() { "X" } else { "O" };
        let whose = if sided {
            format!(" for {side}")
        } else {
            String::new()
        };
        return Err(load.bad(
            HookId::Wins,
            format!(
                "no line can ever be won{whose}: wins(n) is false for every n up to {longest}, the longest line{}",
                load.params_hint()
            ),
        ));
    };
    (t.win, t.window_list) = win_check(n, &lines, x.clone(), kx, t.words);
    if x != o {
        // The kernel does not play games whose sides win apart.
        t.window_list = None;
        t.win_o = win_check(n, &lines, o.clone(), ko, t.words).0;
        t.sided = true;
    }
    t.wins = [x, o];
    t.lines = lines;
    t.min_run = kx.min(ko);
    warn_of_split_runs(load, t)?;
    Ok(())
}

/// Warns where `wins(run)` is false for a run one longer than every line,
/// and the lines are windows that cut a longer run: a run of `k + 1` is
/// then seen as windows of `k`, each a line (the wrapped lines of a board
/// whose edges are joined are all windows).
fn warn_of_split_runs(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let k = t.min_run;
    if !t.lines_are_windows() {
        return Ok(());
    }
    let next = (k + 1) as i64;
    // Asked as written: a two-parameter `wins` may answer both alike.
    let sides: &[Option<Side>] = if load.host.defines_sided(HookId::Wins) {
        &[Some(Side::X), Some(Side::O)]
    } else {
        &[None]
    };
    for &side in sides {
        let answer = match side {
            None => load.call(HookId::Wins, (next,))?,
            Some(s) => load.call(HookId::Wins, (next, s.to_string()))?,
        };
        if answer.and_then(|v| v.as_bool().ok()) == Some(false) {
            let mut warning = load
                .bad(
                    HookId::Wins,
                    format!(
                        "wins({next}) is false, yet no line is longer than {k}: lines given as windows of {k} cells cut a longer run into windows, so it counts as a line of {k} (give whole lines, such as lines::straight({k})'s, for \"exactly {k}\"; around a board whose edges are joined no run has ends to be read)"
                    ),
                )
                .problems
                .remove(0);
            warning.kind = crate::error::ProblemKind::SplitRuns;
            t.warnings.push(warning);
            return Ok(());
        }
    }
    Ok(())
}

impl Mechanics {
    /// Whether the lines are windows of the shortest winning run `k`
    /// rather than whole lines: none is longer than `k`, and two of them
    /// share `k - 1` cells (as the windows along a row do), so a longer
    /// run is never seen whole, nor what lies beyond a run's ends.
    pub(crate) fn lines_are_windows(&self) -> bool {
        let k = self.min_run;
        if k < 2 || self.lines.iter().any(|l| l.len() > k) {
            return false;
        }
        // Each line's subsets of k - 1 cells: two lines with one in common
        // overlap so (mills that share one point do not, for k > 2).
        let mut seen: HashMap<Vec<Cell>, usize> = HashMap::new();
        for (i, line) in self.lines.iter().enumerate().filter(|(_, l)| l.len() == k) {
            for skip in 0..k {
                let mut part: Vec<Cell> = (line.iter().enumerate())
                    .filter(|&(j, _)| j != skip)
                    .map(|(_, &c)| c)
                    .collect();
                part.sort_unstable_by_key(|c| c.index());
                if seen.insert(part, i).is_some_and(|j| j != i) {
                    return true;
                }
            }
        }
        false
    }
}

/// `wins(run)` (or `wins(run, side)` for `side`) for every run up to `longest`.
fn wins_table(
    load: &Load<'_>,
    longest: usize,
    side: Option<Side>,
) -> Result<Vec<bool>, RulebookError> {
    let mut wins = vec![false; longest + 1];
    for (run, slot) in wins.iter_mut().enumerate().skip(1) {
        let v = match side {
            None => load.call(HookId::Wins, (run as i64,))?,
            Some(s) => load.call(HookId::Wins, (run as i64, s.to_string()))?,
        }
        .unwrap_or(Dynamic::FALSE);
        *slot = v.as_bool().map_err(|_| {
            let args = match side {
                None => run.to_string(),
                Some(s) => format!("{run}, \"{s}\""),
            };
            load.bad(
                HookId::Wins,
                format!(
                    "wins({args}): expected true or false, found {}",
                    describe(&v)
                ),
            )
        })?;
    }
    Ok(wins)
}

/// The test a move's line is judged by, from one side's `wins` table whose
/// shortest winning run is `k`, and its windows by number where it has some.
fn win_check(
    n: usize,
    lines: &[Vec<Cell>],
    wins: Vec<bool>,
    k: usize,
    words: usize,
) -> (WinCheck, Option<WindowList>) {
    let monotone = wins.iter().enumerate().skip(1).all(|(r, &w)| w == (r >= k));
    if monotone {
        return windows(n, lines, k, words);
    }
    let check = WinCheck::Runs {
        lines: lines.to_vec(),
        through: places_of(n, lines),
        wins,
    };
    (check, None)
}

/// For each of `n` cells, the lines through it and its place in each.
fn places_of(n: usize, lines: &[Vec<Cell>]) -> Vec<Vec<(u32, u32)>> {
    let mut through = vec![Vec::new(); n];
    for (l, line) in lines.iter().enumerate() {
        for (i, c) in line.iter().enumerate() {
            through[c.index()].push((l as u32, i as u32));
        }
    }
    through
}

/// The size of window masks up to which a move reads them faster than the
/// kernel keeps counts: a first-level data cache (32 KB on the x86-64
/// machines measured). Classic's masks take 192 bytes, 11×11 five in a
/// row's 20 KB (about as fast either way), 12×12's 51 KB (a board of more
/// than 128 cells takes four words a mask), 15×15's 92 KB (counts 1.2×).
const CACHED_MASKS: usize = 32 * 1024;

/// The windows through each cell, by number; none where there are more
/// windows than a `u16` numbers or one has more cells than a `u8` counts.
fn window_list(per_cell: &[Vec<CellSet>]) -> Option<WindowList> {
    let mut number: HashMap<CellSet, u16> = HashMap::new();
    let mut list = WindowList::default();
    for windows in per_cell {
        list.start.push(list.ids.len() as u32);
        for &mask in windows {
            let id = match number.get(&mask) {
                Some(&id) => id,
                None => {
                    let id = u16::try_from(list.sizes.len()).ok()?;
                    list.sizes.push(u8::try_from(mask.count()).ok()?);
                    number.insert(mask, id);
                    id
                }
            };
            list.ids.push(id);
        }
    }
    list.start.push(list.ids.len() as u32);
    Some(list)
}

fn windows(
    n: usize,
    lines: &[Vec<Cell>],
    k: usize,
    words: usize,
) -> (WinCheck, Option<WindowList>) {
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
    // A window through k cells is read once per cell: the masks weigh k
    // times the windows, each as wide as the board.
    let mask_bytes = per_cell.iter().map(Vec::len).sum::<usize>() * words * 8;
    let list = if mask_bytes > CACHED_MASKS {
        window_list(&per_cell)
    } else {
        None
    };
    let mut start = Vec::with_capacity(n + 1);
    let mut masks = Vec::new();
    for list in per_cell {
        start.push(masks.len() as u32);
        masks.extend(list);
    }
    start.push(masks.len() as u32);
    if words == WORDS
        && let Some(spans) = masks.iter().map(|&m| Span::of(m, words)).collect()
    {
        return (WinCheck::Spans { start, spans }, list);
    }
    let masks = masks
        .iter()
        .flat_map(|m| m.words().into_iter().take(words))
        .collect();
    let check = WinCheck::Windows {
        start,
        words,
        masks,
    };
    (check, list)
}

#[cfg(test)]
mod tests {
    use crate::error::ProblemKind;
    use crate::rulebook::Rulebook;

    /// "Exactly five" over windows is warned of with no other primitive:
    /// on a torus a six won with no word (only `removes()` warned).
    #[test]
    fn exactly_k_over_windows_is_warned_of() {
        let split = |lines: &str, wins: &str| {
            let script = format!("fn lines() {{ {lines} }}\nfn wins(run) {{ {wins} }}\n");
            let rules = Rulebook::scripted(&script, 9, 9).unwrap();
            rules
                .warnings()
                .iter()
                .any(|w| w.kind == ProblemKind::SplitRuns)
        };
        assert!(split("lines::wrapped(5, true, true)", "run == 5"));
        assert!(!split("lines::wrapped(5, true, true)", "run >= 5"));
        assert!(!split("lines::straight(5)", "run == 5"));
    }

    /// A `wins(run, side)` that answers both alike loads over windows (it
    /// was called with one argument, and failed).
    #[test]
    fn a_two_parameter_wins_over_windows_loads() {
        let script =
            "fn lines() { lines::wrapped(5, true, true) }\nfn wins(run, side) { run >= 5 }\n";
        assert!(Rulebook::scripted(script, 9, 9).is_ok());
        let exact =
            "fn lines() { lines::wrapped(5, true, true) }\nfn wins(run, side) { run == 5 }\n";
        let rules = Rulebook::scripted(exact, 9, 9).unwrap();
        assert!(
            rules
                .warnings()
                .iter()
                .any(|w| w.kind == ProblemKind::SplitRuns)
        );
    }
}
