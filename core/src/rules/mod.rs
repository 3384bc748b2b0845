//! Playing by a rulebook: the initial position, legal moves, making a move.
//!
//! This is the engine API that the REPL, perft, benchmarks, search and tests
//! all drive. Rulebooks without per-move hooks never enter the interpreter here.

mod apply;
mod explain;
mod parse;
mod pie;
mod timeout;

pub use crate::refusal::{
    PlayError, REFUSAL_KEYS, REFUSAL_PLACEHOLDERS, Refusal, refusal_placeholders,
};

use crate::bits::with_width;
use crate::error::ScriptError;
use crate::geometry::{Bits, CellSet};
use crate::position::{BySide, Move, MoveList, NO_REGION, Position, Side};
use crate::rulebook::Rulebook;
use crate::script::api::History;
use crate::script::hooks::HookId;

impl Rulebook {
    /// The starting position: `[board] start`, else the empty board, X to
    /// move, all pieces in hand.
    pub fn initial(&self) -> Position {
        if let Some(start) = self.start {
            return start;
        }
        let t = &self.mechanics;
        let pieces = if t.has_stacks() {
            t.stack_pieces()
        } else {
            t.pieces
        };
        Position {
            marks: BySide::default(),
            turn: Side::X,
            in_hand: BySide {
                x: pieces,
                o: pieces,
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
            ages: BySide::default(),
            stacks: Default::default(),
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
        self.mechanics.fillable_in::<W>(pos)
    }

    /// Cells a mark may go to now: fillable, in the target region if any,
    /// and not forbidden to this move (`forbidden()`).
    #[inline]
    pub(crate) fn free_cells(&self, pos: &Position) -> CellSet {
        self.free_in(pos) & !self.mechanics.forbidden(pos)
    }

    /// Cells a mark may go to by the board and its regions. Restrictions
    /// by move number are not applied here, on every move of every game:
    /// a rulebook that has them lists its moves (see `listed`).
    #[inline(always)]
    fn free_in<const W: usize>(&self, pos: &Position) -> Bits<W> {
        let free = self.fillable_in::<W>(pos);
        match pos.target {
            NO_REGION => free,
            t => free & self.mechanics.regions[t as usize].prefix::<W>(),
        }
    }

    #[inline]
    fn placing(pos: &Position) -> bool {
        *pos.in_hand.get(pos.turn) > 0
    }

    /// Every legal move, by the board rules only (no per-move hook).
    fn board_moves(&self, pos: &Position, out: &mut MoveList) {
        with_width!(self.mechanics.words, W => self.board_moves_in::<W>(pos, out));
        if self.mechanics.has_restrictions() {
            let closed = self.mechanics.forbidden(pos);
            out.retain_from(0, |mv| !mv.to().is_some_and(|c| closed.contains(c)));
        }
        if self.mechanics.has_patterns(pos.turn) {
            let t = &self.mechanics;
            out.retain_from(0, |mv| {
                mv.to()
                    .is_none_or(|c| t.forbidden_pattern(pos, c).is_none())
            });
        }
        if self.swap_legal(pos) {
            out.push(Move::Swap);
        }
    }

    /// Where the next move of `pos` falls in the turn structure.
    fn turn_place(&self, pos: &Position) -> crate::turns::TurnPlace {
        self.mechanics.turns.place(pos.marks_played())
    }

    #[inline(always)]
    fn board_moves_in<const W: usize>(&self, pos: &Position, out: &mut MoveList) {
        let free = self.free_in::<W>(pos);
        if self.mechanics.has_stacks() {
            self.mechanics.push_stack_moves(pos, out);
        } else if self.mechanics.has_twists() {
            self.mechanics
                .push_twists(pos, CellSet::from_prefix(free), out);
        } else if Self::placing(pos) {
            let (marks, mover) = self.mechanics.marks_at(pos);
            marks.push_placements(mover, free, out);
        } else {
            self.mechanics.push_piece_moves(pos, free, out);
        }
        if self.mechanics.removes() {
            self.mechanics.expand_removals::<W>(pos, 0, out);
        }
        if !self.mechanics.slides.all.is_empty() {
            self.mechanics.push_slides(pos, out);
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
            let history = History::new(history, pos, &self.mechanics.turns);
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
        rng: &mut crate::rng::Rng,
        list: &mut MoveList,
    ) -> Result<Option<Move>, ScriptError> {
        if self.plain_placements && !pos.is_over() && Self::placing(pos) && !self.swap_legal(pos) {
            return Ok(
                with_width!(self.mechanics.words, W => self.random_placement::<W>(pos, rng)),
            );
        }
        self.legal_moves(pos, history, list)?;
        Ok((!list.is_empty()).then(|| list[rng.below(list.len())]))
    }

    #[inline(always)]
    fn random_placement<const W: usize>(
        &self,
        pos: &Position,
        rng: &mut crate::rng::Rng,
    ) -> Option<Move> {
        if self.judged_placements {
            return self.random_placement_judged::<W>(pos, rng);
        }
        let free = self.free_in::<W>(pos);
        let n = free.count();
        if n == 0 {
            return None;
        }
        let (marks, mover) = self.mechanics.marks_at(pos);
        let (i, mark) = crate::kernel::draw_placement(marks, mover, n, rng);
        let to = free.nth(i).expect("i < n cells");
        Some(Move::Place { to, mark })
    }

    /// [`Rulebook::random_placement`] where cells are restricted by the move
    /// number or by what they make (`judged_placements`): out of line, so
    /// that every other rulebook's random games run the code they ran
    /// before.
    #[inline(never)]
    fn random_placement_judged<const W: usize>(
        &self,
        pos: &Position,
        rng: &mut crate::rng::Rng,
    ) -> Option<Move> {
        let t = &self.mechanics;
        let mut free = self.free_in::<W>(pos) & !t.forbidden(pos).prefix::<W>();
        let (marks, mover) = t.marks_at(pos);
        loop {
            let n = free.count();
            if n == 0 {
                return None;
            }
            let (i, mark) = crate::kernel::draw_placement(marks, mover, n, rng);
            let to = free.nth(i).expect("i < n cells");
            // Drawn again without a forbidden cell: as uniform over the
            // allowed cells as listing them, and patterns are judged on a
            // few cells a game, not every free one a move.
            if !t.has_patterns(pos.turn) || t.forbidden_pattern(pos, to).is_none() {
                return Some(Move::Place { to, mark });
            }
            free.remove(to);
        }
    }

    /// Whether the side to move may place a mark: a free cell that is
    /// neither restricted now nor makes a forbidden pattern.
    pub(crate) fn has_placement(&self, pos: &Position) -> bool {
        let t = &self.mechanics;
        let free = self.free_cells(pos);
        if t.has_patterns(pos.turn) {
            free.into_iter()
                .any(|c| t.forbidden_pattern(pos, c).is_none())
        } else {
            !free.is_empty()
        }
    }

    /// Whether the side to move has a legal move (cheap without a `refuse`
    /// hook or restrictions by move number).
    pub(crate) fn has_legal_move(
        &self,
        pos: &Position,
        history: &History,
    ) -> Result<bool, ScriptError> {
        if self.judged_placements && Self::placing(pos) {
            return Ok(self.has_placement(pos));
        }
        if self.listed {
            let mut list = MoveList::new();
            self.board_moves(pos, &mut list);
            for &mv in list.iter() {
                if !self.refuse_hook || self.script_refusal(pos, history, mv)?.is_none() {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        Ok(with_width!(self.mechanics.words, W => self.has_board_move::<W>(pos)))
    }

    /// Whether the next move of `pos` may place `mark`.
    fn marks_allow(&self, pos: &Position, mark: Side) -> bool {
        let (marks, mover) = self.mechanics.marks_at(pos);
        marks.allows(mover, mark)
    }

    /// Whether the board rules allow the side to move any move.
    #[inline(always)]
    fn has_board_move<const W: usize>(&self, pos: &Position) -> bool {
        if self.mechanics.has_stacks() {
            return self.mechanics.has_stack_move(pos);
        }
        let free = self.free_in::<W>(pos);
        let board = if Self::placing(pos) {
            !self.mechanics.open_placements::<W>(pos, free).is_empty()
        } else {
            self.mechanics.has_piece_move(pos, free)
        };
        board || (!self.mechanics.slides.all.is_empty() && self.mechanics.has_slide(pos))
    }

    /// The first of the position's moves `shown` accepts, to show as an
    /// example in a refusal (its `refuse` hook not asked: a refused move
    /// runs no script but for the move itself).
    fn example(&self, pos: &Position, shown: impl Fn(&Move) -> bool) -> Option<Move> {
        let mut list = MoveList::new();
        self.board_moves(pos, &mut list);
        list.iter().copied().find(|m| *m != Move::Swap && shown(m))
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
            // A refusal says why: a blank one would reach the player as
            // `error: b2: ` and nothing after.
            Ok(reason) if reason.trim().is_empty() => Err(self.bad_hook_value(
                HookId::Refuse,
                "a refusal needs its reason: return a text that says why (or () to allow the move)"
                    .to_string(),
            )),
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
        let refuse = |r| Err(self.refused(r));
        if self.mechanics.has_stacks() && mv != Move::Swap {
            return self.check_stacked(pos, history, mv);
        }
        let to = match mv {
            Move::Swap => return self.check_swap(pos).map_err(|r| self.refused(r)),
            Move::Slide { from, to } => {
                self.mechanics
                    .check_slide(pos, from, to)
                    .map_err(|r| self.refused(r))?;
                return self.check_script(pos, history, mv);
            }
            // Built, not read: the notation has no sizes here.
            Move::Sized { to, size } => {
                return refuse(Refusal::UnknownSize(to, format!("#{size}"), Vec::new()));
            }
            Move::Place { to, .. } | Move::Step { to, .. } | Move::Twist { to, .. } => to,
            Move::Take(r) => r.to(),
        };
        if let Some(r) = self.off_board(mv) {
            return refuse(r);
        }
        match mv {
            Move::Place { .. } | Move::Twist { .. } | Move::Take(_)
                if mv.from().is_none() && !Self::placing(pos) =>
            {
                return refuse(Refusal::MustMove(self.example(pos, |m| m.from().is_some())));
            }
            Move::Place { mark, .. }
                if !self.marks_allow(pos, mark) && !pos.occupied().contains(to) =>
            {
                let (marks, mover) = self.mechanics.marks_at(pos);
                let own = marks.default_mark(mover);
                return refuse(Refusal::FixedMark(to, own));
            }
            Move::Step { .. } | Move::Take(_) if mv.from().is_some() && Self::placing(pos) => {
                return refuse(Refusal::MustPlace(
                    self.example(pos, |m| m.from().is_none()),
                ));
            }
            Move::Step { .. } | Move::Take(_) => {
                if let Some(from) = mv.from().filter(|&f| !pos.marks(pos.turn).contains(f)) {
                    return refuse(Refusal::NotOwnPiece(from));
                }
            }
            _ => {}
        }
        // Every cell of a closed region is refused as such, its marks'
        // too: the board shows a closed region as its winner's, not its
        // marks.
        let region_closed = self
            .mechanics
            .region_of(to)
            .is_some_and(|r| pos.regions_closed & (1 << r) != 0);
        if region_closed {
            return refuse(Refusal::ClosedRegion(to));
        }
        // A piece that cannot get there at all is told so, whether or not
        // the cell is empty: "g7 is taken" would say a7 could go there. A
        // piece "moved" onto its own cell stays refused as onto a taken one.
        if let (Move::Step { .. } | Move::Take(_), Some(from)) = (mv, mv.from())
            && from != to
            && let Err(r @ Refusal::Unreachable(..)) =
                self.mechanics.check_piece_move(pos, from, to)
        {
            return refuse(r);
        }
        if pos.occupied().contains(to) {
            return refuse(Refusal::Occupied(to));
        }
        if pos.closed_cells.contains(to) {
            if !self.mechanics.gravity {
                return refuse(Refusal::ClosedRegion(to));
            }
            let landing = self.landing(pos, self.grid().col(to));
            return refuse(Refusal::Unsupported(to, landing));
        }
        if self.mechanics.forbidden(pos).contains(to) {
            let n = self.mechanics.move_number(pos);
            return refuse(Refusal::Forbidden(to, pos.turn, n));
        }
        if let Move::Place { .. } = mv
            && let Some(p) = self.mechanics.forbidden_pattern(pos, to)
        {
            let lines = self.mechanics.pattern_lines(pos, to, p);
            return refuse(Refusal::Pattern(to, pos.turn, p, lines));
        }
        if pos.target != NO_REGION && !self.mechanics.regions[pos.target as usize].contains(to) {
            return refuse(Refusal::WrongRegion(to, pos.target as usize));
        }
        if let (Move::Step { .. } | Move::Take(_), Some(from)) = (mv, mv.from()) {
            self.mechanics
                .check_piece_move(pos, from, to)
                .map_err(|r| self.refused(r))?;
        }
        match self.mechanics.check_removal(pos, mv) {
            // The rulebook's own hook may refuse some removals, or all: the
            // example is one it allows, and where it allows none, its
            // reason, rather than a request to name a piece that would be
            // refused too.
            Err(Refusal::MustRemove(from, to, take)) if self.refuse_hook => {
                let take = self
                    .allowed_removal(pos, history, from, to)?
                    .unwrap_or(take);
                return refuse(Refusal::MustRemove(from, to, take));
            }
            Err(r) => return refuse(r),
            Ok(()) => {}
        }
        self.mechanics
            .check_twist(pos, mv)
            .map_err(|r| self.refused(r))?;
        self.check_script(pos, history, mv)
    }

    /// The refusal of a move that names a cell the board does not have:
    /// the cell it leaves or the one it goes to.
    fn off_board(&self, mv: Move) -> Option<Refusal> {
        let cells = self.mechanics.cells();
        let c = [mv.from(), mv.to()]
            .into_iter()
            .flatten()
            .find(|c| !cells.contains(*c))?;
        Some(Refusal::OffBoard(self.grid().name(c).to_string()))
    }

    /// [`Rulebook::check`] where pieces have sizes (`sizes()`): the
    /// stacks' own checks, then restrictions by move number and the hook.
    fn check_stacked(&self, pos: &Position, history: &[Move], mv: Move) -> Result<(), PlayError> {
        let refuse = |r| Err(self.refused(r));
        if let Some(r) = self.off_board(mv) {
            return refuse(r);
        }
        if let Err(r) = self.mechanics.check_stack_move(pos, mv) {
            return refuse(r);
        }
        if let Some(to) = mv.to()
            && self.mechanics.forbidden(pos).contains(to)
        {
            let n = self.mechanics.move_number(pos);
            return refuse(Refusal::Forbidden(to, pos.turn, n));
        }
        self.check_script(pos, history, mv)
    }

    /// The first piece the `refuse` hook lets the move from `from` to `to`
    /// remove; the hook's first reason where it refuses every one (`None`
    /// where none may be removed at all).
    fn allowed_removal(
        &self,
        pos: &Position,
        history: &[Move],
        from: Option<crate::geometry::Cell>,
        to: crate::geometry::Cell,
    ) -> Result<Option<crate::geometry::Cell>, PlayError> {
        let mut first = None;
        for take in self.mechanics.removable(pos) {
            let mv = Move::Take(crate::position::Removal::new(from, to, take));
            match self.check_script(pos, history, mv) {
                Ok(()) => return Ok(Some(take)),
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        first.map_or(Ok(None), Err)
    }

    /// The `refuse` hook's word on a move the board rules allow, last of
    /// [`Rulebook::check`]'s checks.
    fn check_script(&self, pos: &Position, history: &[Move], mv: Move) -> Result<(), PlayError> {
        if self.refuse_hook
            && let Some(reason) =
                self.script_refusal(pos, &History::new(history, pos, &self.mechanics.turns), mv)?
        {
            return Err(self.refused(Refusal::Script(reason)));
        }
        Ok(())
    }
}
