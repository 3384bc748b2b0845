//! Move text in a rulebook and a position: the column a mark drops into and
//! the mark a move chooses depend on both.

use crate::geometry::Cell;
use crate::notation::{MoveText, ParseMoveError, column_name, parse_move_text};
use crate::position::{Move, Position, Removal, Side};
use crate::refusal::{PlayError, Refusal};
use crate::rulebook::{Marks, Rulebook};

/// Moves as a rulebook writes and reads them, in a position: the column a
/// mark drops into and the mark a move chooses depend on the rulebook and on
/// the position.
impl Rulebook {
    /// A move's text in this rulebook's notation: `b2`, `b2-c2`, and `b2=O`
    /// where a move chooses its mark.
    pub fn move_text(&self, mv: Move) -> String {
        self.script.names.text(self.grid(), mv)
    }

    /// A move's text as played in `pos`: [`Rulebook::move_text`], and
    /// where the turn names a mark other than the mover's own (a swap
    /// opening's), that mark too (`h9=O`), so that what is said of a move
    /// says what it placed. The text parses back to the same move.
    pub fn move_text_in(&self, pos: &Position, mv: Move) -> String {
        let text = self.move_text(mv);
        match (mv, self.mechanics().marks_at(pos)) {
            (Move::Place { mark, .. }, (Marks::Own, named))
                if mark == named && named != pos.turn() =>
            {
                format!("{text}={mark}")
            }
            _ => text,
        }
    }

    /// The cell a mark dropped into column `col` lands on in `pos`: the one
    /// cell of that column that may be filled now, if there is exactly one.
    pub fn landing(&self, pos: &Position, col: u32) -> Option<Cell> {
        match self.column_cells(pos, col)[..] {
            [cell] => Some(cell),
            _ => None,
        }
    }

    /// The cells of column `col`, lowest first.
    fn column(&self, col: u32) -> impl Iterator<Item = Cell> {
        let g = self.grid();
        (0..g.height()).filter_map(move |row| g.cell(i64::from(col), i64::from(row)))
    }

    /// The cells of column `col` that may be filled now, lowest first.
    fn column_cells(&self, pos: &Position, col: u32) -> Vec<Cell> {
        let free = self.free_cells(pos);
        self.column(col).filter(|&c| free.contains(c)).collect()
    }

    /// Parses a move in this rulebook's notation, in position `pos` reached by
    /// `history` (see [`Rulebook::legal_moves`]): `b2`
    /// (the mover's mark), `b2=O` (a chosen mark), `d` (a drop into column d,
    /// where marks rest on support), `b2-c2` (a piece moves).
    ///
    /// # Errors
    /// [`PlayError::Notation`] for text that is not a move on this board;
    /// [`PlayError::Refused`] for a move the notation can say but the
    /// rulebook does not have (a chosen mark where marks are not chosen, a
    /// column where marks do not drop, a full column).
    pub fn parse_move(
        &self,
        pos: &Position,
        history: &[Move],
        text: &str,
    ) -> Result<Move, PlayError> {
        self.parse_written(pos, history, text).map_err(|e| match e {
            // Text in no notation: shown how this rulebook writes its moves.
            PlayError::Notation(ParseMoveError::Syntax(text)) => {
                PlayError::Notation(ParseMoveError::NotWritten {
                    like: self.written_like(pos, history),
                    text,
                })
            }
            e => e,
        })
    }

    /// A legal move here of each way of writing one (`a1`, `a1-a4`,
    /// `d7xa1`), at most three, the first of each kind found.
    fn written_like(&self, pos: &Position, history: &[Move]) -> Vec<String> {
        let mut list = crate::position::MoveList::new();
        if self.legal_moves(pos, history, &mut list).is_err() {
            return Vec::new();
        }
        let mut kinds = Vec::new();
        let mut like = Vec::new();
        for &mv in list.iter() {
            let kind = std::mem::discriminant(&mv);
            if like.len() < 3 && !kinds.contains(&kind) {
                kinds.push(kind);
                like.push(self.move_text(mv));
                // Where marks drop, a column alone names the cell too.
                if let (true, Move::Place { to, .. }) = (self.mechanics.gravity, mv)
                    && let [_] = self.column_cells(pos, self.grid().col(to))[..]
                {
                    like.push(column_name(self.grid().col(to)));
                }
            }
        }
        like
    }

    /// [`Rulebook::parse_move`], text in no notation told as such.
    fn parse_written(
        &self,
        pos: &Position,
        history: &[Move],
        text: &str,
    ) -> Result<Move, PlayError> {
        let g = self.grid();
        let (marks, mover) = self.mechanics.marks_at(pos);
        let mark = |cell: Cell, given: Option<&str>| -> Result<Side, PlayError> {
            let Some(given) = given else {
                return Ok(marks.default_mark(mover));
            };
            let mut chars = given.chars();
            let side = match (chars.next().and_then(Side::from_char), chars.next()) {
                (Some(side), None) => side,
                _ => {
                    return Err(self.refused_at(pos, Refusal::UnknownMark(cell, given.to_string())));
                }
            };
            if !marks.allows(mover, side) {
                // On a taken cell, the reason is the cell: "write b2"
                // would name a move refused as well.
                let refusal = if pos.occupied().contains(cell) {
                    Refusal::Occupied(cell)
                } else {
                    Refusal::FixedMark(cell, marks.default_mark(mover))
                };
                return Err(self.refused_at(pos, refusal));
            }
            Ok(side)
        };
        if text == "swap" {
            return Ok(Move::Swap);
        }
        if text.starts_with('^') {
            return match self.mechanics.slide_named(text) {
                Some(s) => Ok(Move::Slide {
                    from: s.from(),
                    to: s.to(),
                }),
                // No slide has a name (Quixo's `a1-e1`): the text is in no
                // notation of this rulebook, and is shown the ones it has.
                None if self.mechanics.slides().iter().all(|s| s.name.is_none()) => Err(
                    PlayError::Notation(ParseMoveError::Syntax(text.to_string())),
                ),
                None => Err(self.refused_at(pos, Refusal::NoSlideNamed(text.to_string()))),
            };
        }
        // A move and the piece it removes: `d7xa1`, `d6-d7xa1` (a twist's
        // name may end in `x`: `c3/2x` is a twist not named).
        if let Some((base, take)) = crate::notation::split_take(text)
            && !(take.is_empty() && base.contains('/'))
        {
            return self.parse_removal(pos, history, text, base, take);
        }
        // A placement and a twist: `c3/2+`.
        if let Some((place, name)) = text.split_once('/') {
            return self.parse_twist(pos, history, text, place, name);
        }
        let parsed = parse_move_text(g, text).map_err(|e| match e {
            ParseMoveError::OffBoard(cell) => self.refused_at(pos, Refusal::OffBoard(cell)),
            // `b2=` where pieces have sizes: the size is what is missing.
            ParseMoveError::NoMark(text) if self.mechanics.has_stacks() => {
                match g.parse_cell(&text) {
                    Some(cell) => {
                        self.refused_at(pos, Refusal::NoSize(cell, self.mechanics.size_letters()))
                    }
                    None => self.refused_at(pos, Refusal::NoColumns(format!("{text}="))),
                }
            }
            // `b2=` where the move's mark is fixed: say which mark it places.
            ParseMoveError::NoMark(text) if marks != Marks::Either => {
                let own = marks.default_mark(mover);
                // A cell only where the text names it as the board does
                // (`b2`, not `b02`): the reason repeats the text as written.
                let refusal = match g.parse_cell(&text) {
                    Some(cell) if g.name(cell).to_string() == text => Refusal::FixedMark(cell, own),
                    _ => Refusal::FixedMarkText(text, own),
                };
                self.refused_at(pos, refusal)
            }
            e => PlayError::Notation(e),
        })?;
        // A cell of the grid that `shape()` leaves out is off the board too.
        let cells = self.mechanics.cells();
        let named = match &parsed {
            MoveText::Place { to, .. } => [Some(*to), None],
            MoveText::Step { from, to } => [Some(*from), Some(*to)],
            MoveText::Column { .. } => [None, None],
        };
        let outside = named.into_iter().flatten().find(|c| !cells.contains(*c));
        if let Some(c) = outside {
            return Err(self.refused_at(pos, Refusal::OffBoard(g.name(c).to_string())));
        }
        match parsed {
            // Pieces of sizes: `b2=L` names the size, and `b2` alone no piece.
            MoveText::Place { to, mark: m } if self.mechanics.has_stacks() => {
                let sizes = self.mechanics.size_letters();
                match m.as_deref().map(|l| (l, self.mechanics.size_named(l))) {
                    Some((_, Some(size))) => Ok(Move::Sized { to, size }),
                    Some((text, None)) => {
                        Err(self.refused_at(pos, Refusal::UnknownSize(to, text.to_string(), sizes)))
                    }
                    None => Err(self.refused_at(pos, Refusal::NoSize(to, sizes))),
                }
            }
            MoveText::Place { to, mark: m } => Ok(Move::Place {
                to,
                mark: mark(to, m.as_deref())?,
            }),
            // Where moves slide, `a1-e1` names a slide.
            MoveText::Step { from, to } if !self.mechanics.slides.all.is_empty() => {
                Ok(Move::Slide { from, to })
            }
            MoveText::Step { from, to } => Ok(Move::Step { from, to }),
            MoveText::Column { col, mark: m } => {
                let letter = column_name(col);
                if !self.mechanics.gravity {
                    return Err(self.refused_at(pos, Refusal::NoColumns(text.to_string())));
                }
                if col >= g.width() {
                    return Err(self.refused_at(pos, Refusal::OffBoard(letter)));
                }
                match self.column_cells(pos, col)[..] {
                    [to] => Ok(Move::Place {
                        to,
                        mark: mark(to, m.as_deref())?,
                    }),
                    // Several cells of the column may be filled: a column
                    // does not name one of them.
                    [_, _, ..] => Err(self.refused_at(pos, Refusal::NoColumns(text.to_string()))),
                    // None may: the column is full, or the board's own rules
                    // refuse the empty cell that rests on filled ones (a
                    // board the move is not sent to).
                    [] => {
                        let occupied = pos.occupied();
                        let resting = self.column(col).find(|&c| {
                            !occupied.contains(c) && self.mechanics.support(c).is_subset(occupied)
                        });
                        let Some(to) = resting else {
                            // Full, or its empty cells rest on other
                            // columns' (support across layers): a column
                            // names no cell there.
                            let full = self.column(col).all(|c| occupied.contains(c));
                            return Err(self.refused_at(
                                pos,
                                if full {
                                    Refusal::ColumnFull(letter)
                                } else {
                                    Refusal::NoColumns(text.to_string())
                                },
                            ));
                        };
                        let mv = Move::Place {
                            to,
                            mark: mark(to, m.as_deref())?,
                        };
                        self.check(pos, history, mv)?;
                        Err(self.refused(Refusal::NoColumns(text.to_string())))
                    }
                }
            }
        }
    }
    /// `text`, a move and the piece it removes (`d7xa1`, `d6-d7xa1`):
    /// `base` the move, `take` what follows its `x`.
    fn parse_removal(
        &self,
        pos: &Position,
        history: &[Move],
        text: &str,
        base: &str,
        take: &str,
    ) -> Result<Move, PlayError> {
        let g = self.grid();
        if !self.mechanics.removes() {
            // No move removes a piece here: the text is in no notation
            // of this rulebook, and is shown the ones it has.
            return Err(PlayError::Notation(ParseMoveError::Syntax(
                text.to_string(),
            )));
        }
        if take.is_empty() {
            // `d1x`, the piece left out: refused as the rules refuse
            // the move written whole — a mill that names no piece, or a
            // removal after a move that makes none.
            let base = self.parse_written(pos, history, base)?;
            let (Move::Place { to, .. } | Move::Step { to, .. }) = base else {
                return Err(PlayError::Notation(ParseMoveError::Syntax(
                    text.to_string(),
                )));
            };
            // The move written without the `x` is refused for its own
            // reason (a taken cell, a step out of reach, a line that
            // must name its piece); where it stands, the `x` is.
            self.check(pos, history, base)?;
            let refusal = self.mechanics.bare_removal(pos, base, to);
            return Err(self.refused_at(pos, refusal));
        }
        // One piece a move, however many lines it makes (the move itself
        // read first: `z9xa1xb2` is off the board before anything).
        if take.contains('x') {
            self.parse_written(pos, history, base)?;
        }
        if let [first, _, ..] = take
            .split('x')
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()[..]
        {
            return Err(PlayError::Notation(ParseMoveError::ManyRemovals {
                text: text.to_string(),
                first: format!("{base}x{first}"),
            }));
        }
        let take = match g.parse_cell(take) {
            Some(c) if self.mechanics.cells().contains(c) => c,
            _ => return Err(self.refused_at(pos, Refusal::OffBoard(take.to_string()))),
        };
        match self.parse_written(pos, history, base)? {
            Move::Place { to, .. } => Ok(Move::Take(Removal::new(None, to, take))),
            Move::Step { from, to } => Ok(Move::Take(Removal::new(Some(from), to, take))),
            _ => Err(PlayError::Notation(ParseMoveError::Syntax(
                text.to_string(),
            ))),
        }
    }

    /// `text`, a placement and a twist (`c3/2+`): `place` the placement,
    /// `name` the twist's.
    fn parse_twist(
        &self,
        pos: &Position,
        history: &[Move],
        text: &str,
        place: &str,
        name: &str,
    ) -> Result<Move, PlayError> {
        // Without twists the `/` is in no notation of this rulebook: the
        // text is shown the ones it has.
        if !self.mechanics.has_twists() {
            return Err(PlayError::Notation(ParseMoveError::Syntax(
                text.to_string(),
            )));
        }
        // `c3/`: the twist left out, read as the placement alone, which
        // the rules then take or refuse for its own reason.
        if name.is_empty() {
            return self.parse_written(pos, history, place);
        }
        let Some(twist) = self.mechanics.twist_named(name) else {
            return Err(self.refused_at(pos, Refusal::NoTwist(name.to_string())));
        };
        match self.parse_written(pos, history, place)? {
            Move::Place { to, .. } => Ok(Move::Twist { to, twist }),
            _ => Err(PlayError::Notation(ParseMoveError::Syntax(
                text.to_string(),
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two removals in one move are named as such, with the move that
    /// removes one (they were told `a1xb2 is not a point of the board`).
    #[test]
    fn a_move_naming_two_removals_is_shown_the_one() {
        let rules = Rulebook::builtin("nine-mens-morris").unwrap();
        let pos = rules.initial();
        match rules.parse_move(&pos, &[], "d7xa1xb2") {
            Err(PlayError::Notation(e)) => assert_eq!(
                e.to_string(),
                "`d7xa1xb2` names more than one piece: a move removes one, named after one x, like d7xa1"
            ),
            other => panic!("{other:?}"),
        }
    }

    /// A `/` names a twist only where there are twists: elsewhere `c3/`
    /// is no move (it was played as `c3`), and is shown how moves are
    /// written.
    #[test]
    fn a_twist_is_written_only_where_there_are_twists() {
        let rules = Rulebook::builtin("classic").unwrap();
        let pos = rules.initial();
        for text in ["c3/", "c3/1+"] {
            match rules.parse_move(&pos, &[], text) {
                Err(PlayError::Notation(e)) => {
                    assert!(e.to_string().contains("moves here are written like"), "{e}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        let nmm = Rulebook::builtin("nine-mens-morris").unwrap();
        match nmm.parse_move(&nmm.initial(), &[], "z9xa1xb2") {
            Err(PlayError::Refused { reason, .. }) => assert!(reason.starts_with("z9"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    /// `…=` where marks are not chosen: a cell as the board names it is a
    /// cell; any other text is kept as written, and the reason (here the
    /// rulebook's `[refusals]` text) repeats it.
    #[test]
    fn a_chosen_mark_is_refused_at_the_cell_or_the_text_written() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let pos = rules.initial();
        let g = rules.grid();
        let refusal = |text: &str| match rules.parse_move(&pos, &[], text) {
            Err(PlayError::Refused { refusal, reason }) => (refusal, reason),
            other => panic!("{text}: {other:?}"),
        };
        let a1 = g.parse_cell("a1").unwrap();
        assert_eq!(
            refusal("a1="),
            (
                Refusal::FixedMark(a1, Side::X),
                "a move drops the mover's own mark: write a1 (CF1)".to_string()
            )
        );
        for text in ["d", "a01"] {
            assert_eq!(
                refusal(&format!("{text}=")),
                (
                    Refusal::FixedMarkText(text.to_string(), Side::X),
                    format!("a move drops the mover's own mark: write {text} (CF1)")
                )
            );
        }
    }
}
