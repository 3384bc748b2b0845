//! Playing by a rulebook: the initial position, legal moves, making a move.
//!
//! This is the engine API that the REPL, perft, benchmarks, search and tests
//! all drive. Rulebooks without per-move hooks never enter the interpreter here.

use crate::bits::with_width;
use crate::error::ScriptError;
use crate::geometry::{Bits, Cell, CellSet};
use crate::notation::ParseMoveError;
use crate::position::{
    BySide, Ending, Move, MoveList, NO_REGION, Outcome, Position, Side, UNLIMITED,
};
use crate::rulebook::{FullRegion, Marks, Rulebook};
use crate::script::api::History;
use crate::script::hooks::HookId;
use rhai::Dynamic;
use std::fmt;

/// Why a move is refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The game is over (G3).
    GameOver(Outcome),
    /// The cell is taken. Holds the cell's name.
    Occupied(String),
    /// The cell is in a closed region. Holds the cell's name.
    ClosedRegion(String),
    /// The move must go to another region. Holds the cell and the region number.
    WrongRegion(String, usize),
    /// A movement while pieces are still to be placed.
    MustPlace,
    /// A placement when no pieces are left in hand.
    MustMove,
    /// The piece to move is not the mover's. Holds the cell's name.
    NotOwnPiece(String),
    /// The piece cannot reach that cell. Holds both names.
    Unreachable(String, String),
    /// A jump over a cell that is not empty. Holds both names.
    JumpBlocked(String, String),
    /// The cell does not rest on its support yet (gravity). Holds the cell
    /// and the cell of its column a mark would land on, if any.
    Unsupported(String, Option<String>),
    /// A column named for a drop has no room left. Holds the column's letter.
    ColumnFull(String),
    /// A column was named where marks do not drop. Holds the text.
    NoColumns(String),
    /// The move chose a mark it may not place. Holds the cell and the mark
    /// it must place.
    FixedMark(String, Side),
    /// `=` followed by something that is not a mark. Holds the cell and the text.
    UnknownMark(String, String),
    /// A cell or column off the board. Holds it as written.
    OffBoard(String),
    /// `swap` where the table has no pie rule (PI1).
    NoPieRule,
    /// `swap` other than in answer to the first move (PI1).
    SwapLate,
    /// The rulebook's `refuse` hook said no. Holds its reason.
    Script(String),
}

impl fmt::Display for Refusal {
    /// The reason, worded to follow the move: `e5: the cell is taken`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver(o) => write!(f, "the game is over ({o})"),
            Refusal::Occupied(_) => f.write_str("the cell is taken"),
            Refusal::ClosedRegion(_) => f.write_str("that board is closed (won or full)"),
            Refusal::WrongRegion(_, r) => write!(f, "the move must be played on board {}", r + 1),
            Refusal::MustPlace => {
                f.write_str("a move here places a mark: name an empty cell, like b2")
            }
            Refusal::MustMove => f.write_str("all pieces are placed: move one, like `b2-c2`"),
            Refusal::NotOwnPiece(c) => write!(f, "no piece of the side to move stands on {c}"),
            Refusal::Unreachable(a, b) => write!(f, "a piece on {a} cannot reach {b}"),
            Refusal::JumpBlocked(..) => f.write_str("the jump passes over an occupied cell"),
            Refusal::Unsupported(_, Some(landing)) => write!(
                f,
                "a mark cannot stand there yet: in that column it lands on {landing}"
            ),
            Refusal::Unsupported(..) => {
                f.write_str("a mark cannot stand there yet: the cells it rests on are empty")
            }
            Refusal::ColumnFull(col) => write!(f, "column {col} is full"),
            Refusal::NoColumns(_) => {
                f.write_str("marks do not drop into columns here: name a cell, like b2")
            }
            Refusal::FixedMark(cell, mark) => write!(
                f,
                "a move here places {mark}, not a mark of its choice: write {cell}"
            ),
            Refusal::UnknownMark(cell, text) => {
                write!(f, "`{text}` is not a mark: write {cell}=X or {cell}=O")
            }
            Refusal::OffBoard(_) => f.write_str("no such cell on this board"),
            Refusal::NoPieRule => {
                f.write_str("there is no pie rule at this table: `swap` is not a move here (PI1)")
            }
            Refusal::SwapLate => f.write_str(
                "the pie rule lets the second player swap only in answer to the first move, once (PI1)",
            ),
            Refusal::Script(reason) => f.write_str(reason),
        }
    }
}

/// The keys of a rulebook's `[refusals]` table, one per kind of refusal.
pub const REFUSAL_KEYS: &[&str] = &[
    "game_over",
    "occupied",
    "closed_board",
    "wrong_board",
    "must_place",
    "must_move",
    "not_own_piece",
    "unreachable",
    "jump_blocked",
    "unsupported",
    "column_full",
    "no_columns",
    "fixed_mark",
    "unknown_mark",
    "off_board",
    "no_pie_rule",
    "swap_late",
];

/// The placeholders a `[refusals]` text may use.
pub const REFUSAL_PLACEHOLDERS: &[&str] = &[
    "{cell}", "{from}", "{to}", "{board}", "{result}", "{mark}", "{text}",
];

/// The placeholders each refusal fills in (what [`Rulebook::explain`]
/// knows for that kind); any other would print empty.
pub fn refusal_placeholders(key: &str) -> &'static [&'static str] {
    match key {
        "occupied" | "unsupported" => &["{cell}", "{to}"],
        "closed_board" | "wrong_board" => &["{cell}", "{to}", "{board}"],
        "column_full" | "no_columns" | "off_board" => &["{text}"],
        "fixed_mark" => &["{cell}", "{to}", "{mark}"],
        "unknown_mark" => &["{cell}", "{to}", "{text}"],
        "not_own_piece" => &["{cell}", "{from}"],
        "unreachable" | "jump_blocked" => &["{cell}", "{from}", "{to}"],
        "game_over" => &["{result}"],
        _ => &[],
    }
}

impl Refusal {
    /// The key of this kind of refusal in a rulebook's `[refusals]` table.
    pub fn key(&self) -> &'static str {
        match self {
            Refusal::GameOver(_) => "game_over",
            Refusal::Occupied(_) => "occupied",
            Refusal::ClosedRegion(_) => "closed_board",
            Refusal::WrongRegion(..) => "wrong_board",
            Refusal::MustPlace => "must_place",
            Refusal::MustMove => "must_move",
            Refusal::NotOwnPiece(_) => "not_own_piece",
            Refusal::Unreachable(..) => "unreachable",
            Refusal::JumpBlocked(..) => "jump_blocked",
            Refusal::Unsupported(..) => "unsupported",
            Refusal::ColumnFull(_) => "column_full",
            Refusal::NoColumns(_) => "no_columns",
            Refusal::FixedMark(..) => "fixed_mark",
            Refusal::UnknownMark(..) => "unknown_mark",
            Refusal::OffBoard(_) => "off_board",
            Refusal::NoPieRule => "no_pie_rule",
            Refusal::SwapLate => "swap_late",
            Refusal::Script(_) => "script",
        }
    }
}

/// A move that was not played, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The rules refuse it: the kind of refusal, and the reason in the
    /// rulebook's words (its `[refusals]` text, naming the rule).
    Refused {
        /// What kind of refusal.
        refusal: Refusal,
        /// The reason as the rulebook words it.
        reason: String,
    },
    /// A per-move hook failed while checking or playing it (boxed: it
    /// carries its source snippet, and moves are played in hot loops).
    Script(Box<ScriptError>),
    /// The text is not a move in the notation.
    Notation(ParseMoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Refused { reason, .. } => f.write_str(reason),
            PlayError::Script(e) => e.fmt(f),
            PlayError::Notation(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<ScriptError> for PlayError {
    fn from(e: ScriptError) -> PlayError {
        PlayError::Script(Box::new(e))
    }
}

impl Rulebook {
    /// The starting position: empty board, X to move, all pieces in hand.
    pub fn initial(&self) -> Position {
        let t = &self.tables;
        Position {
            marks: BySide::default(),
            turn: Side::X,
            in_hand: BySide {
                x: t.pieces,
                o: t.pieces,
            },
            target: NO_REGION,
            regions_won: BySide::default(),
            regions_closed: 0,
            closed_cells: t.unsupported,
            result: None,
            ply: 0,
            last: None,
            captures: BySide::default(),
            swapped: false,
        }
    }

    /// Cells a mark could fill, wherever the next move is sent: empty, and
    /// neither in a closed region nor waiting for their support.
    #[inline]
    pub(crate) fn fillable(&self, pos: &Position) -> CellSet {
        self.fillable_in(pos)
    }

    /// [`Rulebook::fillable`] in the first `W` words (see [`crate::bits`]).
    #[inline(always)]
    fn fillable_in<const W: usize>(&self, pos: &Position) -> Bits<W> {
        self.tables.all.prefix::<W>() & !pos.occupied_in::<W>() & !pos.closed_cells.prefix::<W>()
    }

    /// Cells a mark may go to now: fillable, and in the target region if any.
    #[inline]
    pub(crate) fn free_cells(&self, pos: &Position) -> CellSet {
        self.free_in(pos)
    }

    #[inline(always)]
    fn free_in<const W: usize>(&self, pos: &Position) -> Bits<W> {
        let free = self.fillable_in::<W>(pos);
        match pos.target {
            NO_REGION => free,
            t => free & self.tables.regions[t as usize].prefix::<W>(),
        }
    }

    #[inline]
    fn placing(pos: &Position) -> bool {
        *pos.in_hand.get(pos.turn) > 0
    }

    /// Every legal move, by the board rules only (no per-move hook).
    fn board_moves(&self, pos: &Position, out: &mut MoveList) {
        with_width!(self.tables.words, W => self.board_moves_in::<W>(pos, out));
        if self.swap_legal(pos) {
            out.push(Move::Swap);
        }
    }

    /// Where the next move of `pos` falls in the turn structure.
    fn turn_place(&self, pos: &Position) -> crate::rulebook::TurnPlace {
        self.tables.turns.place(pos.marks_played())
    }

    /// Whether the side to move may answer with `swap` (PI1): the pie rule,
    /// and exactly one move played.
    #[inline]
    pub(crate) fn swap_legal(&self, pos: &Position) -> bool {
        // After the first turn (one mark, or as many as `turn_marks()` gives it).
        self.table().pie
            && !pos.swapped
            && pos.marks_played() == self.tables.turns.place(0).of
            && !pos.is_over()
    }

    #[inline(always)]
    fn board_moves_in<const W: usize>(&self, pos: &Position, out: &mut MoveList) {
        let free = self.free_in::<W>(pos);
        if Self::placing(pos) {
            let marks = self.tables.marks;
            if marks == Marks::Either {
                for to in free {
                    out.push(Move::Place { to, mark: Side::X });
                    out.push(Move::Place { to, mark: Side::O });
                }
            } else {
                let mark = marks.default_mark(pos.turn);
                for to in free {
                    out.push(Move::Place { to, mark });
                }
            }
            return;
        }
        let occupied = pos.occupied_in::<W>();
        for from in pos.marks.get(pos.turn).prefix::<W>() {
            for to in self.tables.steps[from.index()].prefix::<W>() & free {
                out.push(Move::Step { from, to });
            }
            for j in &self.tables.jumps[from.index()] {
                if free.contains(j.to) && !j.over.prefix::<W>().intersects(occupied) {
                    out.push(Move::Step { from, to: j.to });
                }
            }
        }
    }

    /// Fills `out` with every legal move of `pos` (none once the game is over).
    /// `history` holds the moves that led to `pos` since the game's start,
    /// which per-move hooks may read; empty for a start or set-up position.
    ///
    /// # Errors
    /// A failing `refuse` hook.
    pub fn legal_moves(
        &self,
        pos: &Position,
        history: &[Move],
        out: &mut MoveList,
    ) -> Result<(), ScriptError> {
        out.clear();
        if pos.is_over() {
            return Ok(());
        }
        self.board_moves(pos, out);
        if self.refuse_hook {
            let history = History::new(history, pos, &self.tables.turns);
            // The first failure ends the list: a hook that loops to its
            // limit would otherwise do so once per candidate.
            out.try_retain(|mv| Ok(self.script_refusal(pos, &history, mv)?.is_none()))?;
        }
        Ok(())
    }

    /// A uniformly random legal move, or `None` when there is none. `list` is
    /// scratch space. Placements are drawn straight from the free cells
    /// without listing them, which is what makes large boards fast.
    ///
    /// # Errors
    /// A failing `refuse` hook.
    // Always inlined: the playout loop is its hot caller, and once a second
    // caller appeared (`arena`), plain `#[inline]` left it a call there,
    // costing the nine-region board's random games a fifth of their speed.
    #[inline(always)]
    pub fn random_move(
        &self,
        pos: &Position,
        history: &[Move],
        rng: &mut crate::playout::Rng,
        list: &mut MoveList,
    ) -> Result<Option<Move>, ScriptError> {
        if !self.refuse_hook && !pos.is_over() && Self::placing(pos) && !self.swap_legal(pos) {
            return Ok(with_width!(self.tables.words, W => self.random_placement::<W>(pos, rng)));
        }
        self.legal_moves(pos, history, list)?;
        Ok((!list.is_empty()).then(|| list[rng.below(list.len())]))
    }

    #[inline(always)]
    fn random_placement<const W: usize>(
        &self,
        pos: &Position,
        rng: &mut crate::playout::Rng,
    ) -> Option<Move> {
        let free = self.free_in::<W>(pos);
        let n = free.count();
        if n == 0 {
            return None;
        }
        let (i, mark) = draw_placement(self.tables.marks, pos.turn, n, rng);
        let to = free.nth(i).expect("i < n cells");
        Some(Move::Place { to, mark })
    }

    /// Whether the side to move has a legal move (cheap without a `refuse` hook).
    pub(crate) fn has_legal_move(
        &self,
        pos: &Position,
        history: &History,
    ) -> Result<bool, ScriptError> {
        if self.refuse_hook {
            let mut list = MoveList::new();
            self.board_moves(pos, &mut list);
            for &mv in list.iter() {
                if self.script_refusal(pos, history, mv)?.is_none() {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        Ok(with_width!(self.tables.words, W => self.has_board_move::<W>(pos)))
    }

    /// Whether the board rules allow the side to move any move.
    #[inline(always)]
    fn has_board_move<const W: usize>(&self, pos: &Position) -> bool {
        let free = self.free_in::<W>(pos);
        if Self::placing(pos) {
            return !free.is_empty();
        }
        let occupied = pos.occupied_in::<W>();
        pos.marks
            .get(pos.turn)
            .prefix::<W>()
            .into_iter()
            .any(|from| {
                !(self.tables.steps[from.index()].prefix::<W>() & free).is_empty()
                    || self.tables.jumps[from.index()]
                        .iter()
                        .any(|j| free.contains(j.to) && !j.over.prefix::<W>().intersects(occupied))
            })
    }

    fn script_refusal(
        &self,
        pos: &Position,
        history: &History,
        mv: Move,
    ) -> Result<Option<String>, ScriptError> {
        let v = self.script.call_per_move(
            HookId::Refuse,
            self.grid(),
            pos,
            history,
            self.turn_place(pos),
            Some(mv),
        )?;
        if v.is_unit() {
            return Ok(None);
        }
        match v.clone().into_string() {
            Ok(reason) => Ok(Some(reason)),
            Err(_) => Err(self.bad_hook_value(
                HookId::Refuse,
                format!(
                    "expected () or a reason string, found {}",
                    crate::script::describe(&v)
                ),
            )),
        }
    }

    fn bad_hook_value(&self, hook: HookId, message: String) -> ScriptError {
        self.script.bad_value(hook, message)
    }

    /// Checks a move against the rules, saying why it is refused; `history`
    /// as for [`Rulebook::legal_moves`].
    ///
    /// # Errors
    /// [`PlayError::Refused`] with the reason, or a failing `refuse` hook.
    pub fn check(&self, pos: &Position, history: &[Move], mv: Move) -> Result<(), PlayError> {
        if let Some(o) = pos.outcome() {
            return Err(self.refused(Refusal::GameOver(o)));
        }
        let name = |c: Cell| self.grid().name(c).to_string();
        let refuse = |r| Err(self.refused(r));
        let Some(to) = mv.to() else {
            return match () {
                () if !self.table().pie => refuse(Refusal::NoPieRule),
                () if !self.swap_legal(pos) => refuse(Refusal::SwapLate),
                () => Ok(()),
            };
        };
        match mv {
            Move::Place { .. } if !Self::placing(pos) => return refuse(Refusal::MustMove),
            Move::Place { mark, .. } if !self.tables.marks.allows(pos.turn, mark) => {
                let own = self.tables.marks.default_mark(pos.turn);
                return refuse(Refusal::FixedMark(name(to), own));
            }
            Move::Step { .. } if Self::placing(pos) => return refuse(Refusal::MustPlace),
            Move::Step { from, .. } if !pos.marks(pos.turn).contains(from) => {
                return refuse(Refusal::NotOwnPiece(name(from)));
            }
            _ => {}
        }
        if pos.occupied().contains(to) {
            return refuse(Refusal::Occupied(name(to)));
        }
        if pos.closed_cells.contains(to) {
            let region_closed = self
                .tables
                .region_of(to)
                .is_some_and(|r| pos.regions_closed & (1 << r) != 0);
            if region_closed || !self.tables.gravity {
                return refuse(Refusal::ClosedRegion(name(to)));
            }
            let landing = self.landing(pos, self.grid().col(to)).map(name);
            return refuse(Refusal::Unsupported(name(to), landing));
        }
        if pos.target != NO_REGION && !self.tables.regions[pos.target as usize].contains(to) {
            return refuse(Refusal::WrongRegion(name(to), pos.target as usize));
        }
        if let Move::Step { from, to } = mv {
            let step = self.tables.steps[from.index()].contains(to);
            let jump = self.tables.jumps[from.index()].iter().find(|j| j.to == to);
            match jump {
                _ if step => {}
                Some(j) if j.over.intersects(pos.occupied()) => {
                    return refuse(Refusal::JumpBlocked(name(from), name(to)));
                }
                Some(_) => {}
                None => return refuse(Refusal::Unreachable(name(from), name(to))),
            }
        }
        if self.refuse_hook
            && let Some(reason) =
                self.script_refusal(pos, &History::new(history, pos, &self.tables.turns), mv)?
        {
            return refuse(Refusal::Script(reason));
        }
        Ok(())
    }

    /// A refusal of a move's text in `pos`: once the game is over every move
    /// is refused as such (G3), before its mark or column is looked at.
    pub(crate) fn refused_at(&self, pos: &Position, refusal: Refusal) -> PlayError {
        match pos.outcome() {
            Some(o) => self.refused(Refusal::GameOver(o)),
            None => self.refused(refusal),
        }
    }

    /// A refusal with its reason in this rulebook's words.
    pub fn refused(&self, refusal: Refusal) -> PlayError {
        PlayError::Refused {
            reason: self.explain(&refusal),
            refusal,
        }
    }

    /// The reason for a refusal: the rulebook's `[refusals]` text for its
    /// kind with `{cell}`, `{from}`, `{to}`, `{board}` and `{result}` filled
    /// in, or the engine's own words.
    pub fn explain(&self, refusal: &Refusal) -> String {
        let Some(template) = self.refusal_texts.get(refusal.key()) else {
            return refusal.to_string();
        };
        let mut mark = String::new();
        let mut text = String::new();
        let (cell, from, to, board, result) = match refusal {
            Refusal::Occupied(c) | Refusal::ClosedRegion(c) => {
                (c.clone(), "", c.as_str(), None, None)
            }
            Refusal::Unsupported(c, landing) => (
                c.clone(),
                "",
                landing.as_deref().unwrap_or_default(),
                None,
                None,
            ),
            Refusal::ColumnFull(t) | Refusal::NoColumns(t) | Refusal::OffBoard(t) => {
                text = t.clone();
                (String::new(), "", "", None, None)
            }
            Refusal::FixedMark(c, m) => {
                mark = m.to_string();
                (c.clone(), "", c.as_str(), None, None)
            }
            Refusal::UnknownMark(c, t) => {
                text = t.clone();
                (c.clone(), "", c.as_str(), None, None)
            }
            Refusal::WrongRegion(c, r) => (c.clone(), "", c.as_str(), Some(*r), None),
            Refusal::NotOwnPiece(c) => (c.clone(), c.as_str(), "", None, None),
            Refusal::Unreachable(a, b) | Refusal::JumpBlocked(a, b) => {
                (b.clone(), a.as_str(), b.as_str(), None, None)
            }
            Refusal::GameOver(o) => (String::new(), "", "", None, Some(o.to_string())),
            Refusal::MustPlace
            | Refusal::MustMove
            | Refusal::NoPieRule
            | Refusal::SwapLate
            | Refusal::Script(_) => (String::new(), "", "", None, None),
        };
        let board = match (refusal, board) {
            (_, Some(r)) => Some(r),
            (Refusal::ClosedRegion(c), None) => self
                .grid()
                .parse_cell(c)
                .and_then(|c| self.tables.region_of(c)),
            _ => None,
        };
        template
            .replace("{cell}", &cell)
            .replace("{from}", from)
            .replace("{to}", to)
            .replace(
                "{board}",
                // Named only when asked for: the name may come from the script.
                &board
                    .filter(|_| template.contains("{board}"))
                    .map_or(String::new(), |r| self.region_name(r)),
            )
            .replace("{result}", &result.unwrap_or_default())
            .replace("{mark}", &mark)
            .replace("{text}", &text)
    }

    /// A region's name: the `region_name` hook's, or `board N (a1–c3)`.
    pub fn region_name(&self, region: usize) -> String {
        match self.tables.region_names.get(region) {
            Some(name) => name.clone(),
            None => format!("board {}", self.region_place(region)),
        }
    }

    /// What completed the line that ended the game in `pos`, as a result
    /// line names it after ` — `: the cells of the run the last mark made
    /// (`c1 d2 e3`), or the held boards in a line (`boards 1 5 9`).
    pub fn decisive_line(&self, pos: &Position) -> Option<String> {
        let (_, Ending::Line) = pos.ending()? else {
            return None;
        };
        let t = &self.tables;
        let g = self.grid();
        if !t.regions.is_empty() {
            // The line of boards one side holds (the loser's, where a line loses).
            let line = Side::ALL.into_iter().find_map(|s| {
                let held = pos.regions_won(s);
                t.region_lines
                    .iter()
                    .flatten()
                    .copied()
                    .find(|&l| l & !held == 0)
            })?;
            let boards: Vec<String> = (0..32)
                .filter(|r| line & (1 << r) != 0)
                .map(|r| (r + 1).to_string())
                .collect();
            return Some(format!("boards {}", boards.join(" ")));
        }
        let run = self.decisive_run(pos)?;
        let names: Vec<String> = run.iter().map(|&c| g.name(c).to_string()).collect();
        Some(names.join(" "))
    }

    /// The cells of the run of marks that ended the game in `pos`, when a
    /// line of cells did (not a line of boards).
    pub fn decisive_run(&self, pos: &Position) -> Option<Vec<Cell>> {
        let (_, Ending::Line) = pos.ending()? else {
            return None;
        };
        let t = &self.tables;
        if !t.regions.is_empty() {
            return None;
        }
        let to = pos.last_move()?.to()?;
        let own = pos.marks(pos.mark_at(to)?);
        t.lines.iter().find_map(|line| {
            let i = line.iter().position(|&c| c == to)?;
            let run = &line[crate::rulebook::tables::run_at(line, i, own)];
            t.wins_run(run.len()).then(|| run.to_vec())
        })
    }

    /// A region's number from 1 and its first and last cells: `9 (g7–i9)`.
    pub fn region_place(&self, region: usize) -> String {
        let cells = self
            .tables
            .regions()
            .get(region)
            .copied()
            .unwrap_or_default();
        let g = self.grid();
        match (cells.first(), cells.into_iter().last()) {
            (Some(a), Some(b)) => format!("{} ({}–{})", region + 1, g.name(a), g.name(b)),
            _ => (region + 1).to_string(),
        }
    }

    /// Checks and plays a move, returning the new position.
    ///
    /// # Errors
    /// The reason it is refused; `pos` is never changed.
    pub fn play(&self, pos: &Position, history: &[Move], mv: Move) -> Result<Position, PlayError> {
        self.check(pos, history, mv)?;
        Ok(self.play_unchecked(pos, history, mv)?)
    }

    /// Plays a move known to be legal and settles the result.
    ///
    /// # Errors
    /// A failing per-move hook (`refuse` while testing for a legal reply, or `outcome`).
    ///
    /// # Panics
    /// May panic, or return nonsense, when `mv` is not legal in `pos`.
    #[inline]
    pub fn play_unchecked(
        &self,
        pos: &Position,
        history: &[Move],
        mv: Move,
    ) -> Result<Position, ScriptError> {
        let mut p = *pos;
        self.apply(&mut p, history, mv)?;
        Ok(p)
    }

    /// Plays a move known to be legal on `p` in place: the hot path of
    /// playouts and perft (no copy of the position through the return value).
    /// `history` holds the moves that led to `p`, as for [`Rulebook::legal_moves`].
    ///
    /// # Errors
    /// A failing per-move hook; `p` is then partly updated and must be dropped.
    ///
    /// # Panics
    /// May panic, or leave nonsense, when `mv` is not legal in `p`.
    #[inline]
    pub fn apply(&self, p: &mut Position, history: &[Move], mv: Move) -> Result<(), ScriptError> {
        with_width!(self.tables.words, W => self.apply_in::<W>(p, history, mv))
    }

    #[inline(always)]
    fn apply_in<const W: usize>(
        &self,
        p: &mut Position,
        history: &[Move],
        mv: Move,
    ) -> Result<(), ScriptError> {
        let t = &self.tables;
        let side = p.turn;
        let (to, mark) = match mv {
            // The seats exchange marks; the board and the side to move stay.
            Move::Swap => {
                p.ply = p.ply.saturating_add(1);
                p.swapped = true;
                p.last = Some(mv);
                return Ok(());
            }
            Move::Place { to, mark } => {
                let hand = p.in_hand.get_mut(side);
                if *hand != UNLIMITED {
                    *hand -= 1;
                }
                (to, mark)
            }
            Move::Step { from, to } => {
                p.marks.get_mut(side).remove(from);
                (to, side)
            }
        };
        // Only the words the board fills are read and written.
        let marks = p.marks.get_mut(mark);
        let own = marks.prefix::<W>() | Bits::single(to);
        marks.set_prefix(own);
        if !t.captures.is_empty() {
            self.capture::<W>(p, to, mark, own);
        }
        if t.gravity {
            self.settle_support::<W>(p, to);
        }
        let line = t.wins_through(to, own);
        if t.regions.is_empty() {
            if line {
                let holder = t.line_result.holder(mark, side);
                p.result = Some((t.line_result.outcome(holder), Ending::Line));
            } else if let Some(n) = t.capture_wins
                && *p.captures.get(side) >= n
            {
                p.result = Some((Outcome::Win(side), Ending::Captures(n)));
            }
        } else {
            self.settle_region::<W>(p, to, mark, side, line);
        }
        if t.turns.ends_turn(p.marks_played()) {
            p.turn = side.other();
        }
        p.ply = p.ply.saturating_add(1);
        p.last = Some(mv);
        // The hooks judge the new position, the move made included.
        let after = if self.has_per_move_hooks() {
            History::after(history, mv, p, &t.turns)
        } else {
            History::default()
        };
        if p.result.is_none() && self.outcome_hook {
            p.result = self.script_outcome(p, &after)?.map(|o| (o, Ending::Script));
        }
        if p.result.is_none() {
            // Marks only placed, no hook to ask: stuck exactly when no cell
            // may be filled (a target region always has one, see above).
            let stuck = if t.pieces == UNLIMITED && !self.refuse_hook {
                self.fillable_in::<W>(p).is_empty()
            } else {
                !self.has_legal_move(p, &after)?
            };
            if stuck {
                p.result = Some(self.stalemate(p));
            }
        }
        Ok(())
    }

    /// Takes the opponent's marks that the mark of `mark` on `to` captures
    /// (`own` holds it), in every pattern at once, and counts the captures.
    #[inline(never)]
    fn capture<const W: usize>(&self, p: &mut Position, to: Cell, mark: Side, own: Bits<W>) {
        let theirs = p.marks.get_mut(mark.other());
        let mut left = theirs.prefix::<W>();
        let mut made = 0;
        for c in &self.tables.captures[to.index()] {
            let take = c.take.prefix::<W>();
            if take.is_subset(left) && own.contains(c.by) {
                left = left & !take;
                made += 1;
            }
        }
        if made > 0 {
            theirs.set_prefix(left);
            *p.captures.get_mut(mark) += made;
        }
    }

    /// Opens the cells that now rest on their support, after a mark on `to`.
    #[inline(always)]
    fn settle_support<const W: usize>(&self, p: &mut Position, to: Cell) {
        let t = &self.tables;
        let occupied = p.occupied_in::<W>();
        let open = |d: Cell| {
            t.support[d.index()].prefix::<W>().is_subset(occupied)
                && t.region_of(d)
                    .is_none_or(|r| p.regions_closed & (1 << r) == 0)
        };
        for d in t.dependents[to.index()].prefix::<W>() {
            if open(d) {
                p.closed_cells.remove(d);
            }
        }
    }

    /// After a mark of `mark` by `mover` on `to`, in a rulebook with regions:
    /// the region is won by a line or closed when full, held as the rulebook
    /// says, and a line of held regions decides the game. Then the redirect.
    #[inline(always)]
    fn settle_region<const W: usize>(
        &self,
        p: &mut Position,
        to: Cell,
        mark: Side,
        mover: Side,
        line: bool,
    ) {
        let t = &self.tables;
        let r = t.region_of[to.index()] as usize;
        let bit = 1u32 << r;
        let region = t.regions[r].prefix::<W>();
        if p.regions_closed & bit == 0 {
            let full = region.is_subset(p.occupied_in::<W>());
            // The mover's lines are judged first.
            let holders = match (line, full, t.full_region) {
                (true, _, _) => [Some(t.line_result.holder(mark, mover)), None],
                (false, true, FullRegion::Mover) => [Some(mover), None],
                (false, true, FullRegion::Both) => [Some(mover), Some(mover.other())],
                _ => [None, None],
            };
            if line || full {
                p.regions_closed |= bit;
                let closed = p.closed_cells.prefix::<W>() | region;
                p.closed_cells.set_prefix(closed);
            }
            for h in holders.into_iter().flatten() {
                *p.regions_won.get_mut(h) |= bit;
            }
            for h in holders.into_iter().flatten() {
                let held = *p.regions_won.get(h);
                if t.region_lines[r].iter().any(|&l| l & !held == 0) {
                    p.result = Some((t.line_result.outcome(h), Ending::Line));
                    break;
                }
            }
        }
        p.target = t.redirect[to.index()];
        // Sent to a region where no cell may be filled now (closed, or with
        // support() every empty cell still waiting): a free choice (U4).
        if p.target != NO_REGION
            && (t.regions[p.target as usize].prefix::<W>() & self.fillable_in::<W>(p)).is_empty()
        {
            p.target = NO_REGION;
        }
    }

    /// The result when the side to move of `pos` has no legal move: the
    /// rulebook's `no_moves()` decides, and the ending says whether no cell is
    /// left to play (every cell taken or closed) or its pieces are blocked.
    pub(crate) fn stalemate(&self, pos: &Position) -> (Outcome, Ending) {
        let outcome = self.tables.no_moves.outcome(pos.turn);
        let ending = if self.fillable(pos).is_empty() {
            Ending::Full
        } else {
            Ending::NoMoves(pos.turn)
        };
        (outcome, ending)
    }

    fn script_outcome(
        &self,
        pos: &Position,
        history: &History,
    ) -> Result<Option<Outcome>, ScriptError> {
        let v: Dynamic = self.script.call_per_move(
            HookId::Outcome,
            self.grid(),
            pos,
            history,
            self.turn_place(pos),
            None,
        )?;
        if v.is_unit() {
            return Ok(None);
        }
        match v.clone().into_string().ok().as_deref() {
            Some("X") => Ok(Some(Outcome::Win(Side::X))),
            Some("O") => Ok(Some(Outcome::Win(Side::O))),
            Some("draw") => Ok(Some(Outcome::Draw)),
            _ => Err(self.bad_hook_value(
                HookId::Outcome,
                format!(
                    "expected (), \"X\", \"O\" or \"draw\", found {}",
                    crate::script::describe(&v)
                ),
            )),
        }
    }

    /// Ends the game in a draw when `pos` has now occurred the rulebook's
    /// repetition count of times. `earlier` holds the keys of the positions
    /// before it in this game.
    pub fn settle_repetition(&self, pos: &mut Position, earlier: &[u64]) {
        let Some(limit) = self.tables.repetition else {
            return;
        };
        if pos.is_over() {
            return;
        }
        let key = pos.key();
        let seen = earlier.iter().filter(|&&k| k == key).count() as u32 + 1;
        if seen >= limit {
            pos.result = Some((Outcome::Draw, Ending::Repetition(limit)));
        }
    }
}

/// A uniformly random placement among `n` free cells: which of them (by its
/// place in the set) and the mark, both marks being choices where a move
/// chooses. The general path and the playout kernel both draw with this, so
/// that one seed gives them the same games.
#[inline(always)]
pub(crate) fn draw_placement(
    marks: Marks,
    turn: Side,
    n: u32,
    rng: &mut crate::playout::Rng,
) -> (u32, Side) {
    if marks == Marks::Either {
        let r = rng.below(2 * n as usize) as u32;
        let mark = if r.is_multiple_of(2) {
            Side::X
        } else {
            Side::O
        };
        (r / 2, mark)
    } else {
        (rng.below(n as usize) as u32, marks.default_mark(turn))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placeholder a refusal key allows is filled in when that refusal
    /// is explained: none prints empty (the loader refuses the others).
    #[test]
    fn every_allowed_placeholder_is_filled_in() {
        let c = || "b2".to_string();
        let samples = [
            Refusal::GameOver(Outcome::Draw),
            Refusal::Occupied(c()),
            Refusal::ClosedRegion(c()),
            Refusal::WrongRegion(c(), 0),
            Refusal::MustPlace,
            Refusal::MustMove,
            Refusal::NotOwnPiece(c()),
            Refusal::Unreachable("a1".to_string(), c()),
            Refusal::JumpBlocked("a1".to_string(), c()),
            Refusal::Unsupported(c(), Some("b1".to_string())),
            Refusal::ColumnFull("b".to_string()),
            Refusal::NoColumns("b".to_string()),
            Refusal::FixedMark(c(), Side::X),
            Refusal::UnknownMark(c(), "Q".to_string()),
            Refusal::OffBoard("z9".to_string()),
            Refusal::NoPieRule,
            Refusal::SwapLate,
        ];
        let keys: Vec<&str> = samples.iter().map(Refusal::key).collect();
        assert_eq!(keys, REFUSAL_KEYS, "one sample per key, in order");
        // Regions give `{board}` a name to print.
        let script = "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\nfn regions() { [[0, 1, 2, 3, 4, 5, 6, 7, 8]] }\nfn region_lines() { [] }\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ph.rhai"), script).unwrap();
        let refusals: String = REFUSAL_KEYS
            .iter()
            .map(|k| format!("{k} = \"<{}>\"\n", refusal_placeholders(k).join("|")))
            .collect();
        let text = format!(
            "name = \"ph\"\ntitle = \"t\"\nscript = \"ph.rhai\"\n[board]\nwidth = 3\nheight = 3\n[refusals]\n{refusals}"
        );
        let rules = Rulebook::from_str_at(&text, "ph.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}"));
        for r in &samples {
            let shown = rules.explain(r);
            let inner = shown.trim_start_matches('<').trim_end_matches('>');
            if refusal_placeholders(r.key()).is_empty() {
                assert_eq!(inner, "", "{}", r.key());
            } else {
                assert!(
                    inner.split('|').all(|part| !part.is_empty()),
                    "{}: {shown}",
                    r.key()
                );
            }
        }
    }
}
