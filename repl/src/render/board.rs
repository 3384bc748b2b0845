//! The board as text: its cells with coordinates on the edges, sub-boards
//! and layers apart, the last move and the winning line marked; then what
//! the rules say about the next move, and who is to move (or the result).

use crate::edge::{self, Paint, outln};
use crate::session::Session;
use gridrules_core::mechanics::ageing;
use gridrules_core::mechanics::slides::{Put, Slide, Take};
use gridrules_core::mechanics::twists::Twist;
use gridrules_core::rulebook::Marks;
use gridrules_core::{Cell, Game, Move, Position, Rulebook, Side};
use std::fmt::Write as _;

/// The board as composed text (see [`crate::render::board()`]).
pub(crate) fn board_text(session: &Session) -> String {
    let rulebook = session.rulebook();
    let game = session.game();
    let frame = Frame::new(rulebook);
    let mut out = String::new();
    if rulebook.mechanics().has_stacks() {
        super::stacks::grid(&mut out, rulebook, game, frame.label);
        notes(&mut out, session);
        return out;
    }
    frame.heading(&mut out, rulebook, game);
    frame.grid(&mut out, rulebook, game);
    let files = frame.columns(&|c| char::from(b'a' + c as u8).to_string());
    outln!(out, "{:>label$} {files}", "", label = frame.label);
    notes(&mut out, session);
    out
}

/// Where the separators go, and how wide the row numbers are.
struct Frame {
    /// Columns and rows.
    width: u32,
    height: u32,
    /// Columns in each layer.
    layer_width: u32,
    /// After which columns a separator goes (the last has none).
    col_break: Vec<bool>,
    /// Under which rows (counted from the bottom) a separator goes.
    row_break: Vec<bool>,
    /// Characters of the widest row number.
    label: usize,
    /// On a board `shape()` cuts out of the grid: the lines steps follow,
    /// drawn between its cells (a morris board's squares).
    links: Option<Links>,
}

/// The lines drawn between the cells of a shaped board: where two cells
/// of a row or a column are a step apart, the cells and gaps between them.
struct Links {
    /// Grid cells (not of the board) crossed by a line along a row.
    across: Vec<bool>,
    /// Grid cells (not of the board) crossed by a line along a column.
    down: Vec<bool>,
    /// By cell: whether a line along the row runs on to the next column.
    gap: Vec<bool>,
    /// By cell: a diagonal step drawn in the gap after it, `/` or `\\`,
    /// where no line along the row takes that gap (twelve men's morris's
    /// corner diagonals).
    slant: Vec<Option<char>>,
}

impl Links {
    /// The links of a shaped board's steps, where some of them cross cells
    /// the board leaves out (morris's lines). Where every step joins cells
    /// side by side there is no row between two rows to draw one down, and
    /// links drawn along the rows alone would say pieces move only there:
    /// none is drawn, as on any grid.
    fn new(rulebook: &Rulebook) -> Option<Links> {
        let g = rulebook.grid();
        let t = rulebook.mechanics();
        let n = g.len();
        let mut links = Links {
            across: vec![false; n],
            down: vec![false; n],
            gap: vec![false; n],
            slant: vec![None; n],
        };
        let at = |col: u32, row: u32| g.cell(col.into(), row.into()).expect("on the grid");
        for a in t.cells() {
            for b in t.steps(a) {
                let (ca, ra, cb, rb) = (g.col(a), g.row(a), g.col(b), g.row(b));
                if ra == rb && ca < cb {
                    for c in ca..cb {
                        links.gap[at(c, ra).index()] = true;
                        if c > ca {
                            links.across[at(c, ra).index()] = true;
                        }
                    }
                } else if ca == cb && ra < rb {
                    for r in ra + 1..rb {
                        links.down[at(ca, r).index()] = true;
                    }
                }
            }
        }
        // Diagonal steps between neighbouring rows and columns, once the
        // rows' lines are known: in the gap between the two columns, on
        // the left cell's row, or else on the right cell's, where free.
        for a in t.cells() {
            for b in t.steps(a) {
                let (ca, ra, cb, rb) = (g.col(a), g.row(a), g.col(b), g.row(b));
                if cb != ca + 1 || ra.abs_diff(rb) != 1 {
                    continue;
                }
                let ch = if rb > ra { '/' } else { '\\' };
                let free = [at(ca, ra), at(ca, rb)]
                    .into_iter()
                    .find(|c| !links.gap[c.index()] && links.slant[c.index()].is_none());
                if let Some(c) = free {
                    links.slant[c.index()] = Some(ch);
                }
            }
        }
        let crosses = links.across.iter().chain(&links.down).any(|&x| x);
        crosses.then_some(links)
    }
}

impl Frame {
    fn new(rulebook: &Rulebook) -> Frame {
        let g = rulebook.grid();
        let t = rulebook.mechanics();
        // A cell's block: its region, else the first twist that moves it
        // (Pentago's quadrants).
        let block = |c: Cell| {
            t.region_of(c)
                .or_else(|| t.twists().iter().position(|tw| tw.cells.contains(c)))
        };
        let region = |col: u32, row: u32| g.cell(col.into(), row.into()).and_then(block);
        // Separators go between columns (rows) whose cells lie in different
        // regions or blocks.
        let layer_width = g.width() / rulebook.layers();
        let col_break: Vec<bool> = (0..g.width())
            .map(|c| {
                c + 1 < g.width()
                    && ((c + 1) % layer_width == 0
                        || (0..g.height()).all(|r| region(c, r) != region(c + 1, r)))
            })
            .collect();
        let row_break: Vec<bool> = (0..g.height())
            .map(|r| r > 0 && (0..g.width()).all(|c| region(c, r) != region(c, r - 1)))
            .collect();
        Frame {
            width: g.width(),
            height: g.height(),
            layer_width,
            col_break,
            row_break,
            label: if g.height() >= 10 { 2 } else { 1 },
            links: t.is_shaped(g).then(|| Links::new(rulebook)).flatten(),
        }
    }

    /// What is drawn in the gap after `cell`: a line along the row, a
    /// diagonal, or nothing.
    fn gap_after(&self, cell: Cell) -> char {
        match &self.links {
            Some(l) if l.gap[cell.index()] => '-',
            Some(l) => l.slant[cell.index()].unwrap_or(' '),
            None => ' ',
        }
    }

    /// One entry per column: `text` for it, then the gap that follows it.
    fn columns(&self, text: &dyn Fn(u32) -> String) -> String {
        let mut line = String::new();
        for c in 0..self.width {
            line.push_str(&text(c));
            line.push(' ');
            if self.col_break[c as usize] {
                line.push_str("  ");
            }
        }
        line.trim_end().to_string()
    }

    /// Above the board: the layers' names, and the columns a mark may drop
    /// into.
    fn heading(&self, out: &mut String, rulebook: &Rulebook, game: &Game) {
        let label = self.label;
        if rulebook.layers() > 1 {
            let mut names = String::new();
            for l in 0..rulebook.layers() {
                // Each layer is `layer_width` columns of 2 characters plus a gap of 2.
                let name = format!("layer {}", l + 1);
                write!(
                    names,
                    "{name:<width$}",
                    width = (self.layer_width * 2 + 2) as usize
                )
                .unwrap();
            }
            outln!(out, "{:>label$} {}", "", names.trim_end());
        }
        if drops_now(rulebook, game) {
            let drops = self.columns(&|c| {
                if rulebook.landing(game.position(), c).is_some() {
                    "v".to_string()
                } else {
                    " ".to_string()
                }
            });
            outln!(out, "{:>label$} {drops}", "");
        }
    }

    /// The rows, top first, each after its number, with the separators.
    fn grid(&self, out: &mut String, rulebook: &Rulebook, game: &Game) {
        let label = self.label;
        let g = rulebook.grid();
        let pos = game.position();
        let last: Vec<Cell> = (last_turn(game).iter())
            .filter_map(|&m| rulebook.mechanics().placed_at(m))
            .collect();
        // The line that won, drawn struck (underlined) where there is colour;
        // the result line names its cells either way.
        let winning: Vec<Cell> = rulebook.decisive_runs(pos).concat();
        // Every line drawn, and the place of the twists' map beside them.
        let mut lines: Vec<String> = Vec::new();
        let map = self.block_map(rulebook).filter(|m| {
            // Beside the board, within its lines and 80 columns, or not at all.
            let breaks = self.col_break.iter().filter(|&&b| b).count();
            let board = label + 1 + 2 * (self.width as usize + breaks);
            let widest = m.iter().map(|l| l.chars().count()).max().unwrap_or(0);
            let lines = self.height as usize + self.row_break.iter().filter(|&&b| b).count();
            m.len() <= lines && board + 3 + widest <= 80
        });
        for r in (0..self.height).rev() {
            let mut line = format!("{:>label$} ", r + 1);
            for c in 0..self.width {
                let cell = g.cell(c.into(), r.into()).expect("on the board");
                if !rulebook.mechanics().cells().contains(cell) {
                    // A cell the board leaves out: blank, or a line crossing it.
                    let i = cell.index();
                    let ch = match &self.links {
                        Some(l) if l.across[i] => '-',
                        Some(l) if l.down[i] => '|',
                        _ => ' ',
                    };
                    line.push(ch);
                    line.push(self.gap_after(cell));
                    continue;
                }
                let mark = if winning.contains(&cell) {
                    &[Paint::Bold, Paint::Underline][..]
                } else if last.contains(&cell) {
                    &[Paint::Reverse][..]
                } else {
                    &[][..]
                };
                line.push_str(&cell_text(shown(rulebook, pos, game.is_over(), cell), mark));
                line.push(self.gap_after(cell));
                if self.col_break[c as usize] {
                    line.push_str("| ");
                }
            }
            lines.push(line);
            if self.row_break[r as usize] {
                let mut sep = format!("{:>label$} ", "");
                for c in 0..self.width {
                    sep.push_str("--");
                    if self.col_break[c as usize] {
                        sep.push_str("+-");
                    }
                }
                sep.pop(); // the last cell has a gap after it, not a line
                sep.push(' ');
                lines.push(sep);
            }
        }
        // The map's middle line beside the board's, its heading above.
        let first = map
            .as_ref()
            .map_or(0, |m| (lines.len() / 2).saturating_sub(m.len() / 2));
        for (i, line) in lines.iter().enumerate() {
            match map.as_ref().and_then(|m| m.get(i.wrapping_sub(first))) {
                Some(beside) => outln!(out, "{line}   {beside}"),
                None => outln!(out, "{}", line.trim_end()),
            }
        }
    }

    /// Where every block the separators draw is turned by twists of its
    /// own, a map of the blocks by the names the twists start with
    /// (Pentago's quadrants, `3 | 4` over `1 | 2`): a move names its
    /// block by that number, which the board shows nowhere else. Its first
    /// line is a heading.
    fn block_map(&self, rulebook: &Rulebook) -> Option<Vec<String>> {
        let twists = rulebook.mechanics().twists();
        if twists.is_empty() {
            return None;
        }
        let g = rulebook.grid();
        // The first column (row) of each block: after each separator.
        let starts = |breaks: &[bool]| -> Vec<u32> {
            let mut v = vec![0];
            v.extend(
                (0..breaks.len() as u32)
                    .filter(|&i| breaks[i as usize])
                    .map(|i| i + 1),
            );
            v
        };
        let cols = starts(&self.col_break);
        // Rows break under a row (counted from the bottom): the block starts there.
        let rows: Vec<u32> = (0..self.height)
            .filter(|&r| r == 0 || self.row_break[r as usize])
            .collect();
        // The cells from `start` up to the next start (or the edge).
        let span =
            |starts: &[u32], i: usize, end: u32| starts[i]..*starts.get(i + 1).unwrap_or(&end);
        let mut names: Vec<Vec<String>> = Vec::new();
        for (ri, &row) in rows.iter().enumerate().rev() {
            let mut line = Vec::new();
            for (ci, &col) in cols.iter().enumerate() {
                let cell = g.cell(col.into(), row.into())?;
                let mut turning = twists.iter().filter(|tw| tw.cells.contains(cell));
                let first = turning.next()?;
                // The twists turn this block, the whole of it and no more.
                let block = span(&rows, ri, self.height)
                    .flat_map(|r| span(&cols, ci, self.width).map(move |c| (c, r)))
                    .filter_map(|(c, r)| g.cell(c.into(), r.into()));
                if !block.clone().all(|c| first.cells.contains(c))
                    || first.cells.count() as usize != block.count()
                {
                    return None;
                }
                let mut prefix = first.name.as_str();
                for tw in turning {
                    // Twists of one block alike: another block through
                    // this cell would make the map a lie.
                    if tw.cells != first.cells {
                        return None;
                    }
                    let common = prefix
                        .char_indices()
                        .zip(tw.name.chars())
                        .find(|((_, a), b)| a != b)
                        .map_or(prefix.len().min(tw.name.len()), |((i, _), _)| i);
                    prefix = &prefix[..common];
                }
                let name = prefix.trim_end_matches(|c: char| !c.is_alphanumeric());
                // The name each twist's starts with, whole: `cw` and `ccw`
                // share a `c`, which names no block.
                let whole = |tw: &Twist| {
                    (tw.name.strip_prefix(name))
                        .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric))
                };
                let mut own = twists.iter().filter(|tw| tw.cells == first.cells);
                if name.is_empty() || !own.all(whole) {
                    return None;
                }
                line.push(name.to_string());
            }
            names.push(line);
        }
        let all: Vec<&String> = names.iter().flatten().collect();
        if all.iter().enumerate().any(|(i, a)| all[..i].contains(a)) {
            return None;
        }
        let w = all.iter().map(|n| n.chars().count()).max().unwrap_or(1);
        let across = vec!["-".repeat(w + 2); cols.len()].join("+");
        let mut map = vec!["blocks:".to_string()];
        for (i, line) in names.iter().enumerate() {
            if i > 0 {
                map.push(across.clone());
            }
            let cells: Vec<String> = line.iter().map(|n| format!("{n:^w$}")).collect();
            map.push(format!(" {} ", cells.join(" | ")).trim_end().to_string());
        }
        Some(map)
    }
}

/// A cell as drawn: its character, in its colour and in the styles of
/// `mark` (the winning line, the last move) where there is colour.
fn cell_text(shown: Shown, mark: &[Paint]) -> String {
    let (ch, code) = match shown {
        Shown::Mark(Side::X) => ("X", Some(Paint::X)),
        Shown::Mark(Side::O) => ("O", Some(Paint::O)),
        Shown::Big(Side::X) => ("X", Some(Paint::X)),
        Shown::Big(Side::O) => ("O", Some(Paint::O)),
        Shown::Open => (".", None),
        Shown::Blocked => ("·", Some(Paint::Dim)),
        Shown::Blank => (" ", None),
        Shown::Drawn => ("-", Some(Paint::Dim)),
    };
    if mark.is_empty() && code.is_none() {
        return ch.to_string();
    }
    // Marks: without colour they are nothing (`edge::finish`).
    let mut text: String = mark.iter().map(|&p| edge::paint(p)).collect();
    text.push_str(code.map_or("", edge::paint));
    text.push_str(ch);
    text.push_str(edge::paint(Paint::Reset));
    text
}

/// Whether a mark may drop into some column now: with gravity, in a game
/// going on, where a column names one cell (not where cells rest on
/// another layer's): the board then marks those columns and says how.
fn drops_now(rulebook: &Rulebook, game: &Game) -> bool {
    let pos = game.position();
    rulebook.mechanics().has_gravity()
        && !game.is_over()
        && (0..rulebook.grid().width()).any(|c| rulebook.landing(pos, c).is_some())
}

/// Under the board: the last move, captures, roles, how to move now,
/// closed sub-boards and where the next move goes, a draw offer, and the
/// status line.
fn notes(out: &mut String, session: &Session) {
    let rulebook = session.rulebook();
    let game = session.game();
    let pos = game.position();
    let t = rulebook.mechanics();
    if let Some(&mv) = game.moves().last() {
        // The side that moved: within a turn of several marks, maybe the
        // side to move now. A turn of several marks is said whole, as
        // `history` writes it: on a tall board the replies printed above
        // it scroll away.
        let positions = game.positions();
        let mover = positions[game.moves().len() - 1].turn();
        let turn = last_turn(game);
        let first = game.moves().len() - turn.len();
        let turn: Vec<String> = (turn.iter().enumerate())
            .map(|(i, &m)| rulebook.move_text_in(&positions[first + i], m))
            .collect();
        let note = if mv == Move::Swap {
            " (the seats exchanged marks; O moves next, now played by the other seat)"
        } else {
            ""
        };
        let label = if turn.len() == 1 {
            "last move"
        } else {
            "last turn"
        };
        let text = turn.join(",");
        // What the turn captured, which its notation does not say.
        let taken = if t.captures().any() {
            let before = positions[first].marks(mover.other());
            let taken: Vec<String> = (before & !pos.marks(mover.other()))
                .into_iter()
                .map(|c| rulebook.grid().name(c).to_string())
                .collect();
            match &taken[..] {
                [] => String::new(),
                cells => format!(", capturing {}", cells.join(" ")),
            }
        } else {
            String::new()
        };
        outln!(out, "{label}: {mover} {text}{taken}{note}");
    }
    if let Some(status) = t.captures().status(pos) {
        outln!(out, "{status}");
    }
    if let Some(keep) = t.keep_marks() {
        for line in ageing::status(rulebook.grid(), keep, pos) {
            outln!(out, "{line}");
        }
    }
    if let (Some(x), Some(o)) = (rulebook.role(Side::X), rulebook.role(Side::O)) {
        outln!(out, "roles: X is {x}, O is {o}");
    }
    // The example a column open now, the nearest the middle (`d` of a
    // full column was refused); looked for only where marks drop.
    let width = rulebook.grid().width();
    let open_column = || {
        (0..width)
            .filter_map(|c| Some((c, rulebook.landing(pos, c)?)))
            .min_by_key(|&(c, _)| (2 * c).abs_diff(width - 1))
    };
    if let Some((_, cell)) = drops_now(rulebook, game).then(open_column).flatten() {
        let cell = rulebook.grid().name(cell).to_string();
        let letter: String = cell.chars().take_while(char::is_ascii_lowercase).collect();
        outln!(
            out,
            "drop a mark into a column marked v: type its letter ({letter}) or the cell ({cell})"
        );
    }
    // Listed once, where a note's example asks.
    let listed = std::cell::OnceCell::new();
    let legal = || listed.get_or_init(|| legal_moves(rulebook, pos)).as_slice();
    if let (Some(slide), false) = (t.slides().first(), game.is_over()) {
        // The example a slide legal now where there is one (`^a` of an
        // empty a1 was refused).
        let slide_now = legal().iter().find_map(|&m| match m {
            Move::Slide { from, to } => Some((from, to)),
            _ => None,
        });
        let shown = slide_now.unwrap_or((slide.from(), slide.to()));
        let slide = (t.slides().iter())
            .find(|s| (s.from(), s.to()) == shown)
            .unwrap_or(slide);
        let like = rulebook.move_text(Move::Slide {
            from: shown.0,
            to: shown.1,
        });
        let lead = if t.places() {
            "a move may instead"
        } else {
            "each move:"
        };
        // At most 80 columns with a short name (`a1-e1`, `^d`); a name
        // that does not say its cell gets it (`^a` takes a1).
        // Where none is legal now the form alone, and that said.
        let from = rulebook.grid().name(shown.0).to_string();
        let like = match slide_now {
            None => format!("{like} (none now)"),
            Some(_) if like.contains(&from) => like,
            Some(_) => format!("{like} takes {from}"),
        };
        let hint = slide_hint(slide).replace("{line}", line_word(rulebook, t.slides()));
        outln!(out, "{lead} {hint}: {like}");
    }
    if let (Some(first), false) = (t.twists().first(), game.is_over()) {
        outln!(out, "{}", twist_hint(rulebook, first));
    }
    if t.marks() == Marks::Either && !game.is_over() {
        outln!(
            out,
            "a move places X or O: b2=X or b2=O (b2 alone: your own)"
        );
    }
    if t.has_stacks() {
        super::stacks::notes(out, rulebook, game);
    } else if let (Some(x), Some(o), false, true) = (
        pos.in_hand(Side::X),
        pos.in_hand(Side::O),
        game.is_over(),
        t.places(),
    ) {
        if x > 0 || o > 0 {
            outln!(out, "placing: X has {x} in hand, O {o}");
        } else if t.flies(pos) {
            outln!(
                out,
                "moving: {} is down to {} pieces and flies: one to any empty point, like {}",
                pos.turn(),
                pos.marks(pos.turn()).count(),
                first_move(rulebook, legal())
            );
        } else {
            outln!(
                out,
                "moving: all pieces placed; move one, like {}",
                first_move(rulebook, legal())
            );
        }
    }
    if t.removes() && !game.is_over() {
        use gridrules_core::mechanics::removals::PlacingLines;
        let placing = pos.in_hand(pos.turn()).is_some_and(|n| n > 0);
        match removal_example(rulebook, pos, legal()) {
            // No removal is in sight while placing: no form to show.
            _ if placing && t.placing_lines() != PlacingLines::Remove => {
                let now = match t.placing_lines() {
                    PlacingLines::Refused => "no placement may make a line",
                    _ => "a line made while placing removes nothing",
                };
                outln!(
                    out,
                    "{now}; once all are placed, a line removes an opponent piece, named after an x"
                );
            }
            (text, true) => outln!(
                out,
                "a line removes an opponent piece, named after an x: {text} now"
            ),
            (text, false) => outln!(
                out,
                "a line removes an opponent piece, named after an x, as in {text}; none now"
            ),
        }
    }
    let closed: Vec<String> = (0..t.regions().len())
        .filter(|r| pos.regions_closed() & (1 << r) != 0)
        .map(|r| match region_holder(pos, r) {
            Some(s) => format!("{} won by {s}", r + 1),
            None if pos.regions_won(Side::X) & (1 << r) != 0 => {
                format!("{} drawn, counts for both", r + 1)
            }
            None => format!("{} drawn", r + 1),
        })
        .collect();
    if !closed.is_empty() {
        outln!(out, "closed boards: {}", closed.join(", "));
    }
    if !game.is_over() && !t.regions().is_empty() {
        match pos.target() {
            Some(r) => outln!(out, "next move on board {}", region_name(rulebook, r)),
            None => outln!(out, "next move on any open board"),
        }
    }
    if let Some(offer) = session.offer() {
        outln!(
            out,
            "{} offers a draw: `draw accept` or `draw decline`",
            offer.by
        );
    }
    outln!(out, "{}", game.status_line());
}

/// The side to move's legal moves, for the notes' examples (none where a
/// hook fails: the examples then fall back).
fn legal_moves(rulebook: &Rulebook, pos: &Position) -> Vec<Move> {
    let mut list = gridrules_core::MoveList::new();
    match rulebook.legal_moves(pos, &[], &mut list) {
        Ok(()) => list.to_vec(),
        Err(_) => Vec::new(),
    }
}

/// A move that removes, as written, and whether it is one of `legal`;
/// else the first legal move written as if it removed (a step in the
/// moving phase, a placement before), so that the form shown is the one
/// the phase takes.
fn removal_example(rulebook: &Rulebook, pos: &Position, legal: &[Move]) -> (String, bool) {
    if let Some(&mv) = legal.iter().find(|m| matches!(m, Move::Take(_))) {
        return (rulebook.move_text(mv), true);
    }
    (removal_form(rulebook, pos, legal), false)
}

/// A removal's notation where no legal move removes: the form only, built
/// from a move and an opponent piece (or two cells), which no rule checks.
fn removal_form(rulebook: &Rulebook, pos: &Position, legal: &[Move]) -> String {
    let g = rulebook.grid();
    let cells = rulebook.mechanics().cells();
    let first = cells.first().unwrap_or(Cell(0));
    let last = cells.into_iter().last().unwrap_or(first);
    let Some(taken) = pos.marks(pos.turn().other()).first() else {
        // Nothing to remove yet: two cells of the board, its last and first.
        return format!("{}x{}", g.name(last), g.name(first));
    };
    let moved = legal
        .first()
        .map_or_else(|| g.name(last).to_string(), |&mv| rulebook.move_text(mv));
    format!("{moved}x{}", g.name(taken))
}

/// The text of the first of `legal`, as an example (`b2-c2` where there
/// is none to show).
fn first_move(rulebook: &Rulebook, legal: &[Move]) -> String {
    legal
        .first()
        .map_or_else(|| "b2-c2".to_string(), |&mv| rulebook.move_text(mv))
}

/// What a cell shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    Mark(Side),
    /// Part of a won board's big mark.
    Big(Side),
    /// An empty cell a move may go to now.
    Open,
    /// An empty cell no move may go to now (another board is the target).
    Blocked,
    /// A cell of a won board outside its winner's big mark.
    Blank,
    /// A cell of a board closed without a winner.
    Drawn,
}

/// Whether `cell` of a won region belongs to the big mark drawn for `side`
/// (X: the two diagonals of the region's rectangle; O: its border). A region
/// that is not a full rectangle of at least 3×3 shows the mark everywhere.
fn in_big_mark(rules: &Rulebook, region: usize, cell: Cell, side: Side) -> bool {
    let g = rules.grid();
    let cells = rules.mechanics().regions()[region];
    let cols = cells.into_iter().map(|c| g.col(c));
    let rows = cells.into_iter().map(|c| g.row(c));
    let (Some(c0), Some(c1), Some(r0), Some(r1)) = (
        cols.clone().min(),
        cols.max(),
        rows.clone().min(),
        rows.max(),
    ) else {
        return true;
    };
    let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
    if w < 3 || h < 3 || cells.count() != w * h {
        return true;
    }
    let (c, r) = (g.col(cell) - c0, g.row(cell) - r0);
    match side {
        Side::X => {
            // The column each diagonal crosses row `r` at, scaled to the width.
            let along = (r * (w - 1) + (h - 1) / 2) / (h - 1);
            c == along || c == w - 1 - along
        }
        Side::O => c == 0 || r == 0 || c == w - 1 || r == h - 1,
    }
}

/// The one side that holds closed region `r`; `None` when nobody or both
/// do (a region filled without a line).
fn region_holder(pos: &Position, r: usize) -> Option<Side> {
    let held = |s: Side| pos.regions_won(s) & (1 << r) != 0;
    match (held(Side::X), held(Side::O)) {
        (true, false) => Some(Side::X),
        (false, true) => Some(Side::O),
        _ => None,
    }
}

fn shown(rules: &Rulebook, pos: &Position, over: bool, cell: Cell) -> Shown {
    let t = rules.mechanics();
    if let Some(r) = t.region_of(cell)
        && pos.regions_closed() & (1 << r) != 0
    {
        return match region_holder(pos, r) {
            Some(s) if in_big_mark(rules, r, cell, s) => Shown::Big(s),
            Some(_) => Shown::Blank,
            None => match pos.mark_at(cell) {
                Some(s) => Shown::Mark(s),
                None => Shown::Drawn,
            },
        };
    }
    match pos.mark_at(cell) {
        Some(s) => Shown::Mark(s),
        None => match (pos.target(), t.region_of(cell)) {
            // After the result (a line, a resignation, a draw agreed) no
            // cell is open, whichever board the last move sent play to.
            (_, Some(_)) if over => Shown::Blocked,
            (Some(target), Some(r)) if target != r => Shown::Blocked,
            _ => Shown::Open,
        },
    }
}

/// A region as `9 (g7–i9)`: its number and its first and last cells.
fn region_name(rulebook: &Rulebook, r: usize) -> String {
    let place = rulebook.region_place(r);
    match rulebook.mechanics().region_names().get(r) {
        Some(name) => format!("{place}, the {name} one"),
        None => place,
    }
}

/// The line the slides' paths run along, in words: `column` where each
/// path keeps to one (Pop Out's), `row` where each keeps to a row, else
/// `line`.
fn line_word(rulebook: &Rulebook, slides: &[Slide]) -> &'static str {
    let g = rulebook.grid();
    let along = |same: &dyn Fn(Cell) -> u32| {
        slides
            .iter()
            .all(|s| s.path.iter().all(|&c| same(c) == same(s.from())))
    };
    if along(&|c| g.col(c)) {
        "column"
    } else if along(&|c| g.row(c)) {
        "row"
    } else {
        "line"
    }
}

/// What a slide does, in words, by what it takes and what it leaves;
/// `{line}` for the line its path runs along ([`line_word`]).
fn slide_hint(slide: &Slide) -> &'static str {
    match (slide.take, slide.put) {
        // Which cells a slide starts from and ends at is the rulebook's
        // (Pop Out's bottom row, Quixo's edge): the example move names them.
        (Take::Own, Put::Empty) => "pop your own mark out, its {line} shifting",
        (Take::Own, Put::Own) => "take your mark off its line, push it in at a line's end",
        (Take::OwnOrEmpty, Put::Own) => {
            "take a blank or own edge cell, push your mark in at an end"
        }
        (Take::OwnOrEmpty, Put::Empty) => "empty a blank or own cell, its {line} shifting",
    }
}

/// How a move with a twist is written, and the twists' names while they
/// fit the line (`each move: a mark, then a twist: c3/1+ (twists: 1+ …)`).
fn twist_hint(rulebook: &Rulebook, first: &Twist) -> String {
    // A cell of the twist's block: the example moves a mark there.
    let cell = first.cells.into_iter().last().unwrap_or(Cell(0));
    let like = rulebook.move_text(Move::Twist { to: cell, twist: 0 });
    let lead = format!("each move: a mark, then a twist: {like}");
    let names: Vec<&str> = rulebook
        .mechanics()
        .twists()
        .iter()
        .map(|tw| tw.name.as_str())
        .collect();
    let all = format!("{lead} (twists: {})", names.join(" "));
    if all.chars().count() <= 80 {
        all
    } else {
        format!("{lead} (`legal` lists the twists)")
    }
}

/// The moves of the last turn: the last move and those the same side made
/// just before it in the same turn (connect6's two marks), oldest first.
pub(crate) fn last_turn(game: &Game) -> &[Move] {
    let moves = game.moves();
    let mut first = moves.len().saturating_sub(1);
    while game.continues_turn(first) {
        first -= 1;
    }
    &moves[first..]
}
