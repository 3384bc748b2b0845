//! Making a move: the marks it places, moves and takes, the regions it
//! closes and wins, and the result it settles.

use crate::bits::with_width;
use crate::error::ScriptError;
use crate::geometry::Bits;
use crate::position::{Ending, Move, Outcome, Position, Side, UNLIMITED};
use crate::refusal::PlayError;
use crate::rulebook::Rulebook;
use crate::script::api::History;
use crate::script::hooks::HookId;
use rhai::Dynamic;

impl Rulebook {
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
        with_width!(self.mechanics.words, W => self.apply_in::<W, true>(p, history, mv))
    }

    /// [`Rulebook::apply`] for a random game, which draws the next move at
    /// once: a side that may not make some patterns (`forbidden_patterns()`)
    /// is not judged stuck here, cell by cell, but where the draw finds no
    /// move ([`Rulebook::settle_stuck`]).
    #[inline]
    pub(crate) fn apply_drawing(
        &self,
        p: &mut Position,
        history: &[Move],
        mv: Move,
    ) -> Result<(), ScriptError> {
        with_width!(self.mechanics.words, W => self.apply_in::<W, false>(p, history, mv))
    }

    /// Whether the side to move of `p`, placing where cells are restricted
    /// by the move number or by what they make, has no cell to take; with
    /// `settle` false, a side with patterns is left to the next draw, which
    /// judges the cells it draws. Out of line: the other rulebooks' moves
    /// do not carry it.
    #[inline(never)]
    fn stuck_placing(&self, p: &Position, settle: bool) -> bool {
        if !settle && self.mechanics.has_patterns(p.turn) {
            self.free_cells(p).is_empty()
        } else {
            !self.has_placement(p)
        }
    }

    /// Settles `p`, whose side to move has no legal move, by `no_moves()`.
    pub(crate) fn settle_stuck(&self, p: &mut Position) {
        p.result = Some(self.stalemate(p));
    }

    #[inline(always)]
    fn apply_in<const W: usize, const SETTLE: bool>(
        &self,
        p: &mut Position,
        history: &[Move],
        mv: Move,
    ) -> Result<(), ScriptError> {
        let t = &self.mechanics;
        let side = p.turn;
        let landing = match mv {
            Move::Swap => {
                super::pie::apply_swap(p);
                return Ok(());
            }
            Move::Place { to, mark } => {
                let hand = p.in_hand.get_mut(side);
                if *hand != UNLIMITED {
                    *hand -= 1;
                }
                t.age(p, mark, to);
                Some((to, mark))
            }
            // A piece of a size: lifted and put down, out of line, and the
            // lines judged on the whole board.
            Move::Sized { .. } => {
                t.make_stack_move(p, side, mv);
                None
            }
            Move::Step { .. } if t.has_stacks() => {
                t.make_stack_move(p, side, mv);
                None
            }
            Move::Step { from, to } => {
                p.marks.get_mut(side).remove(from);
                Some((to, side))
            }
            // Placed and judged as any mark, then twisted: out of line, as
            // a slide is (inline here, it slowed every other rulebook's
            // moves: 8 % more instructions on a board of sub-boards).
            Move::Twist { to, twist } => {
                t.make_twist(p, side, to, twist);
                None
            }
            // A piece lands and one of the opponent's leaves: out of line,
            // as a twist is.
            Move::Take(r) => {
                t.make_take(p, side, r.from(), r.to(), r.take());
                None
            }
            // Many marks move: the slide judges the whole board itself.
            Move::Slide { from, to } => {
                t.make_slide::<W>(p, side, from, to);
                None
            }
        };
        if let Some((to, mark)) = landing {
            // Only the words the board fills are read and written.
            let marks = p.marks.get_mut(mark);
            let own = marks.prefix::<W>() | Bits::single(to);
            marks.set_prefix(own);
            t.land::<W>(p, to, mark, side, own);
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
            let stuck = if t.pieces == UNLIMITED && self.plain_placements {
                if self.judged_placements {
                    self.stuck_placing(p, SETTLE)
                } else {
                    self.fillable_in::<W>(p).is_empty()
                }
            } else {
                // A hook that fails here fails on the next side's moves:
                // said so, or the move just made takes the blame alone.
                !self.has_legal_move(p, &after).map_err(|mut e| {
                    e.help.get_or_insert_with(|| {
                        format!(
                            "it failed while the engine asked whether {} has a legal move after this one",
                            p.turn()
                        )
                    });
                    e
                })?
            };
            if stuck {
                p.result = Some(self.stalemate(p));
            }
        }
        Ok(())
    }

    /// The result when the side to move of `pos` has no legal move: the
    /// rulebook's `no_moves()` decides, and the ending says whether no cell is
    /// left to play (every cell taken or closed) or its pieces are blocked.
    pub(crate) fn stalemate(&self, pos: &Position) -> (Outcome, Ending) {
        let full = self.fillable(pos).is_empty();
        let outcome = self.mechanics.stuck(pos.turn, || full);
        let ending = if full {
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
            said => {
                let mut e = self.bad_hook_value(
                    HookId::Outcome,
                    format!(
                        "expected (), \"X\", \"O\" or \"draw\", found {}",
                        crate::script::describe(&v)
                    ),
                );
                // The words are case-sensitive: `"x"` for `"X"` is a slip.
                e.help = said.and_then(|said| {
                    ["X", "O", "draw"]
                        .into_iter()
                        .find(|w| w.eq_ignore_ascii_case(said))
                        .map(|w| format!("did you mean \"{w}\"? (the words are case-sensitive)"))
                });
                Err(e)
            }
        }
    }

    /// Ends the game in a draw when `pos` has now occurred the rulebook's
    /// repetition count of times. `earlier` holds the keys of the positions
    /// before it in this game.
    pub fn settle_repetition(&self, pos: &mut Position, earlier: &[u64]) {
        let Some(limit) = self.mechanics.repetition else {
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
