//! Cells forbidden by move number (`forbidden(side, n)`): the cells a side
//! may not take on its n-th move — 3×3×3's "X's first mark not in the
//! centre", Picaria's "no first piece on the centre" (its n-th placement,
//! with `pieces()`), or a first move that must go to the centre. Read at load into
//! one set per move of the game; play leaves those cells out of the moves
//! it lists (`Rulebook::board_moves`) and refuses a move to one.

use super::load::Load;
use super::{Mechanic, Mechanics, Primitive};
use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet};
use crate::position::{Position, Side};
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "restrictions",
    hooks: &[HookId::Forbidden],
    build,
};

/// Reads `forbidden(side, n)` for each side and n from 1 to the number of
/// cells (no side has more moves that take a cell), and lays the answers
/// out by the game's move number through the turn structure.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let hook = HookId::Forbidden;
    if !load.host.defines(hook) {
        return Ok(());
    }
    // A move number must follow from the position: where marks vanish,
    // are taken or slide, the same marks come back at other numbers.
    // Pieces that move do not clash: each side places all its pieces
    // before any moves, so the placements are the game's first moves.
    if t.turns.named_moves() > 0 {
        return Err(load.bad(
            hook,
            "forbidden() cannot go with turns that name their marks: it restricts a side's n-th mark, and a named mark may be the other side's".into(),
        ));
    }
    use Primitive as P;
    let clash = [P::Captures, P::KeepMarks, P::Slides];
    if let Some(what) = t.first_in_use(&clash) {
        return Err(load.bad(
            hook,
            format!(
                "forbidden() cannot go with {what}: it restricts a side's n-th placement, and only placements count"
            ),
        ));
    }
    // A side places at most its pieces (the rest of its moves move them).
    let n = load.grid.len().min(usize::from(t.pieces));
    let mut by_side = [Vec::new(), Vec::new()];
    for side in [Side::X, Side::O] {
        let sets = &mut by_side[side as usize];
        for k in 1..=n {
            let Some(v) = load.call(hook, (side.to_string(), k as i64))? else {
                break;
            };
            let cells = if v.is_unit() {
                Vec::new()
            } else {
                load.cells(hook, &format!("forbidden(\"{side}\", {k})"), v)?
            };
            sets.push(cells.into_iter().collect::<CellSet>());
        }
        while sets.last().is_some_and(|s| s.is_empty()) {
            sets.pop();
        }
    }
    // By move of the game: the side whose move it is, and which of its moves.
    let mut forbidden = Vec::new();
    let mut ply = 0;
    loop {
        let placed = t.turns.placed(ply);
        if placed.x as usize >= by_side[0].len() && placed.o as usize >= by_side[1].len() {
            break;
        }
        let side = t.turns.place(ply).side();
        let k = *placed.get(side) as usize;
        let set = by_side[side as usize].get(k).copied();
        forbidden.push(set.unwrap_or(CellSet::EMPTY));
        ply += 1;
    }
    t.forbidden = forbidden;
    Ok(())
}

impl Mechanics {
    /// The cells the side to move of `pos` may not take now.
    pub fn forbidden(&self, pos: &Position) -> CellSet {
        self.forbidden_after(pos, 0)
    }

    /// The cells the move `plies` after the next one of `pos` may not take
    /// (0: the next one).
    pub fn forbidden_after(&self, pos: &Position, plies: u32) -> CellSet {
        let ply = (pos.marks_played() + plies) as usize;
        self.forbidden.get(ply).copied().unwrap_or(CellSet::EMPTY)
    }

    /// Which of its moves the side to move of `pos` is about to make, from 1.
    pub fn move_number(&self, pos: &Position) -> u32 {
        self.turns.placed(pos.marks_played()).get(pos.turn) + 1
    }

    /// Whether some move from `pos` on may still be restricted: the searches
    /// that read lines alone do not know which cells a move may not take.
    pub fn restricted(&self, pos: &Position) -> bool {
        (pos.marks_played() as usize) < self.forbidden.len()
    }

    /// Every restriction, for `rules`: the side, which of its moves (from
    /// 1), and the cells that move may not take.
    pub fn restrictions(&self) -> Vec<(Side, u32, CellSet)> {
        let by_ply = self.forbidden.iter().zip(0u32..);
        by_ply
            .filter(|(cells, _)| !cells.is_empty())
            .map(|(&cells, ply)| {
                let side = self.turns.place(ply).side();
                (side, self.turns.placed(ply).get(side) + 1, cells)
            })
            .collect()
    }

    /// Whether `side` can have placed `marks` in some order, its n-th mark
    /// on a cell its n-th move may take (a position `setup` is given);
    /// else a restriction no order meets: which move, and a mark on a cell
    /// it may not take. Only within the moves restricted: past them a
    /// set-up stands as a study position (renju's problems of forbidden
    /// moves, tests/renju, put no X on h8).
    pub(crate) fn placeable(&self, side: Side, marks: CellSet) -> Result<(), (u32, Cell)> {
        let own: Vec<Cell> = marks.into_iter().collect();
        let mut moves: Vec<(u32, CellSet)> = (self.restrictions().into_iter())
            .filter(|&(s, _, _)| s == side)
            .map(|(_, n, cells)| (n, cells))
            .collect();
        if moves.iter().all(|&(n, _)| (n as usize) < own.len()) {
            return Ok(());
        }
        moves.retain(|&(n, _)| n as usize <= own.len());
        // A matching of each restricted move to a mark it may take, grown
        // one move at a time by augmenting paths; the other marks go to
        // the moves no rule restricts.
        let mut taken_by: Vec<Option<usize>> = vec![None; own.len()];
        for m in 0..moves.len() {
            let mut seen = vec![false; own.len()];
            if !augment(m, &moves, &own, &mut taken_by, &mut seen) {
                // Named: a mark the rule closes that no other move needs
                // (not the required first stone the others are matched to).
                let (n, cells) = moves[m];
                let closed = |&(_, c): &(usize, &Cell)| cells.contains(*c);
                let on = (own.iter().enumerate())
                    .filter(closed)
                    .find(|&(i, _)| taken_by[i].is_none())
                    .or_else(|| own.iter().enumerate().find(closed));
                return Err((n, on.map_or(own[0], |(_, &c)| c)));
            }
        }
        Ok(())
    }

    /// Whether any move is restricted by its number (`forbidden()`).
    pub fn has_restrictions(&self) -> bool {
        !self.forbidden.is_empty()
    }
}

/// Finds move `m` a mark, moving the moves that hold marks it may take
/// on to others (one augmenting path of the matching).
fn augment(
    m: usize,
    moves: &[(u32, CellSet)],
    own: &[Cell],
    taken_by: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for (i, &cell) in own.iter().enumerate() {
        if seen[i] || moves[m].1.contains(cell) {
            continue;
        }
        seen[i] = true;
        if taken_by[i].is_none_or(|other| augment(other, moves, own, taken_by, seen)) {
            taken_by[i] = Some(m);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::position::Side;
    use crate::rulebook::Rulebook;

    /// A 3×3 rulebook of three in a row with `extra` hooks.
    fn rulebook(extra: &str) -> Result<Rulebook, String> {
        let script =
            format!("fn lines() {{ lines::straight(3) }}\nfn wins(run) {{ run >= 3 }}\n{extra}");
        Rulebook::scripted(&script, 3, 3)
    }

    /// A set-up position no order of moves reaches names the mark that
    /// breaks the rule, not the one another move needs: X's first mark
    /// must be the centre and its second outside the centre's 5×5 (the
    /// pro opening), so with X on h8 and i9 it is i9 (it named h8).
    #[test]
    fn setup_names_the_mark_that_breaks_a_rule_by_move_number() {
        let script = "fn lines() { lines::straight(5) }\nfn wins(run) { run >= 5 }\n\
            fn forbidden(side, n) {\n\
                if side != \"X\" { return []; }\n\
                let out = [];\n\
                for c in cells() {\n\
                    let near = (col(c) - 7).abs() <= 2 && (row(c) - 7).abs() <= 2;\n\
                    if (n == 1 && c != cell(7, 7)) || (n == 2 && near) { out.push(c); }\n\
                }\n\
                out\n\
            }";
        let rules = Rulebook::scripted(script, 15, 15).unwrap();
        let err = rules
            .parse_position("15/15/15/15/15/15/8X6/7X7/15/15/15/15/15/15/O14 O")
            .unwrap_err()
            .to_string();
        assert!(err.contains("i9") && !err.contains("h8"), "{err}");
    }

    /// Each side's moves are counted through the turn structure: with
    /// turns of one mark, then two, O's first and second moves are the
    /// game's second and third.
    #[test]
    fn a_sides_moves_are_counted_through_its_turns() {
        let rules = rulebook(
            "fn turn_marks() { [1, 2] }\n\
             fn forbidden(side, n) { if side == \"O\" { [n - 1] } }",
        )
        .unwrap();
        let t = rules.mechanics();
        let listed: Vec<(Side, u32, String)> = t
            .restrictions()
            .into_iter()
            .map(|(s, n, cells)| (s, n, cells.into_iter().map(|c| c.0.to_string()).collect()))
            .collect();
        // O's moves 1 to 9 each close one cell, at the game's moves 2, 3,
        // 6, 7, …, 18: the table ends with O's ninth.
        assert_eq!(
            &listed[..2],
            [(Side::O, 1, "0".into()), (Side::O, 2, "1".into())]
        );
        assert_eq!(t.forbidden.len(), 18);
        assert!(t.forbidden[3].is_empty() && t.forbidden[4].is_empty());
    }

    /// A set-up's marks need some order that keeps to every restriction:
    /// found by matching the restricted moves to marks, where the order
    /// written (cell number) would fail.
    #[test]
    fn marks_are_placeable_in_some_order_or_the_move_that_fails_is_named() {
        use crate::geometry::{Cell, CellSet};
        let cells = |c: &[u16]| c.iter().map(|&c| Cell(c)).collect::<CellSet>();
        let rules = rulebook(
            "fn forbidden(side, n) { if side == \"X\" && n == 1 { [0] } else if side == \"X\" && n == 2 { [1] } }",
        )
        .unwrap();
        let t = rules.mechanics();
        assert_eq!(t.placeable(Side::X, cells(&[0, 1])), Ok(()), "1 then 0");
        assert_eq!(t.placeable(Side::X, cells(&[0])), Err((1, Cell(0))));
        assert_eq!(t.placeable(Side::O, cells(&[0])), Ok(()));
        // Past the moves restricted, a study position: any marks.
        assert_eq!(t.placeable(Side::X, cells(&[0, 1, 2])), Ok(()));
        // The first move's first choice (0) must give way to the second's.
        let rules = rulebook(
            "fn forbidden(side, n) { if side == \"X\" && n == 1 { [2] } else if side == \"X\" && n == 2 { [1] } }",
        )
        .unwrap();
        assert_eq!(rules.mechanics().placeable(Side::X, cells(&[0, 1])), Ok(()));
        let rules =
            rulebook("fn forbidden(side, n) { if side == \"X\" && n <= 2 { [0, 1] } }").unwrap();
        let t = rules.mechanics();
        assert_eq!(t.placeable(Side::X, cells(&[0, 2])), Err((2, Cell(0))));
        assert_eq!(t.placeable(Side::X, cells(&[0, 1])), Err((1, Cell(0))));
    }

    /// With `pieces()`, a side's n-th placement is restricted (Picaria's
    /// first piece): every piece is placed before any moves, so the
    /// placements are the game's first moves. Steps are not placements,
    /// and a set-up where pieces may have moved is not held to the rule.
    #[test]
    fn with_pieces_the_placements_are_restricted_and_the_steps_are_not() {
        let rules = rulebook(
            "fn pieces() { 3 }\nfn steps(c) { movement::king(c) }\n\
             fn forbidden(side, n) { if side == \"X\" && n == 1 { [0, 1, 2, 3, 5, 6, 7, 8] } \
             else if n == 4 { [4] } }",
        )
        .unwrap();
        let t = rules.mechanics();
        // X's first piece must go on the centre; n = 4 is past the pieces.
        assert_eq!(t.restrictions().len(), 1);
        let start = rules.initial();
        let names = |pos: &crate::position::Position| {
            let mut list = crate::position::MoveList::new();
            rules.legal_moves(pos, &[], &mut list).unwrap();
            list.iter().map(|&m| rules.move_text(m)).collect::<Vec<_>>()
        };
        assert_eq!(names(&start), ["b2"]);
        let mut pos = start;
        for m in ["b2", "a1", "c3", "a3", "c1", "b3"] {
            let mv = rules.parse_move(&pos, &[], m).unwrap();
            pos = rules.play(&pos, &[], mv).unwrap();
        }
        // The movement phase: the centre piece may leave, to any neighbour.
        assert!(
            names(&pos).contains(&"b2-a2".to_string()),
            "{:?}",
            names(&pos)
        );
        // Placing, X must hold the centre; once all are placed, it need not.
        let err = rules.parse_position("3/3/X2 O 2,3").unwrap_err();
        assert!(err.to_string().contains("cannot have been placed"), "{err}");
        assert!(rules.parse_position("OXO/3/XOX X 0,0").is_ok());
    }

    #[test]
    fn forbidden_refuses_what_it_cannot_go_with_and_bad_cells() {
        let err = rulebook("fn keep_marks() { 3 }\nfn forbidden(side, n) { [] }").unwrap_err();
        assert!(
            err.contains("forbidden() cannot go with keep_marks()"),
            "{err}"
        );
        let err = rulebook("fn forbidden(side, n) { [9] }").unwrap_err();
        assert!(err.contains("forbidden(\"X\", 1), item 1"), "{err}");
        let rules = rulebook("fn forbidden(side, n) { () }").unwrap();
        assert!(!rules.mechanics().has_restrictions());
    }
}
