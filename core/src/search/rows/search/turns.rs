//! Threat sequences where a turn has two marks (connect6): the attacker's
//! turn leaves windows it would fill with its next turn that no one mark
//! stops, so the defender's whole turn is forced — two marks that stop
//! them all — and the attacker goes on from each such answer, until a
//! turn leaves more than two marks can stop. A turn that leaves less (one
//! mark stops it all, the other free) is no part of a sequence: the free
//! mark could be anywhere, and the search would no longer be narrow.

use super::super::proofs::Kind;
use super::{Search, Unknown};
use crate::position::Side;

impl Search<'_, '_> {
    /// A first mark of a win for `att`, to move, by turns each forcing
    /// the defender's whole turn, within `depth` attacker turns and
    /// `nodes` nodes; and the plies to the win against the longest
    /// defence.
    pub(in crate::search::rows) fn turns_win(
        &mut self,
        att: Side,
        depth: u32,
        nodes: u64,
    ) -> Result<Option<(usize, u32)>, Unknown> {
        // Deeper only where some sequence was cut by its depth.
        self.shortest_win(att, depth, nodes, |s, d| {
            s.turns_cut = false;
            let found = s.attack_turn(att, d)?;
            Ok((found, s.turns_cut))
        })
    }

    /// A win for `att`, to move with what is left of its turn, within
    /// `depth` more of its turns.
    fn attack_turn(&mut self, att: Side, depth: u32) -> Result<Option<(usize, u32)>, Unknown> {
        self.threat_node()?;
        let b = &self.board;
        if let Some((c, needs)) = b.winning_cell(att, b.left()) {
            return Ok(Some((c, needs)));
        }
        if depth == 0 {
            self.turns_cut = true;
            return Ok(None);
        }
        let hash = b.hash;
        if let Some(settled) = self.proofs.get(hash, att, Kind::Turns, depth) {
            // A failure kept may have been cut at its depth: say it was.
            self.turns_cut |= settled.is_none();
            return Ok(settled);
        }
        let found = self.attack_turn_from(att, depth)?;
        self.proofs.put(hash, att, Kind::Turns, depth, found);
        Ok(found)
    }

    /// [`Search::attack_turn`] where nothing is settled yet: each mark on a
    /// window of the attacker's `k - 3` full or more (where threats are
    /// made) or on a window the defender would fill next (which the turn
    /// must stop) — with more turns to come, also `k - 4` full (where the
    /// next turn's threats are prepared) — and where the turn has a
    /// second mark, each such second; two marks that only prepare make no
    /// threat, so one of a pair is always on a threat's window.
    fn attack_turn_from(&mut self, att: Side, depth: u32) -> Result<Option<(usize, u32)>, Unknown> {
        // A turn that only prepares wins nothing in the last turn: there
        // a deeper sequence could find more.
        let prepare = depth >= 2;
        self.turns_cut |= !prepare;
        let threats = self.turn_cells(att);
        let mut cells = threats.clone();
        if prepare {
            self.board.add_preparing(att, &mut cells);
        }
        for (i, &first) in cells.iter().enumerate() {
            // A node here may try a thousand pairs, most of them no node
            // of their own: the clock is read at each first mark.
            if self.late() {
                return Err(Unknown);
            }
            self.board.play(first);
            let won = if self.board.turn == att {
                // The turn's second mark: a pair is tried once, from its
                // earlier cell in the list.
                let mut seconds = self.turn_cells(att);
                if prepare && i < threats.len() {
                    self.board.add_preparing(att, &mut seconds);
                }
                let mut won = Ok(None);
                for second in seconds {
                    if cells[..i].contains(&second) {
                        continue;
                    }
                    self.board.play(second);
                    let after = self.defend_turn(att, depth - 1);
                    self.board.undo(second);
                    won = after.map(|w| w.map(|p| p + 2));
                    if !matches!(won, Ok(None)) {
                        break;
                    }
                }
                won
            } else {
                self.defend_turn(att, depth - 1).map(|w| w.map(|p| p + 1))
            };
            self.board.undo(first);
            if let Some(plies) = won? {
                return Ok(Some((first, plies)));
            }
        }
        Ok(None)
    }

    /// The open cells of `att`'s windows `k - 3` full or more and of the
    /// defender's that it fills with its next turn, each once, the most
    /// promising first.
    fn turn_cells(&self, att: Side) -> Vec<usize> {
        let b = &self.board;
        let mut windows = b.threats(att, 3);
        windows.extend(b.threats(att.other(), b.next_marks()));
        let mut cells = b.cells_of(&windows, false);
        cells.sort_by_key(|&c| (std::cmp::Reverse(b.order(c)), c));
        cells
    }

    /// The plies to `att`'s win against the longest of the defender's
    /// turns that stop every window `att` would fill with its next turn,
    /// if it wins against all, the defender to move with its whole turn:
    /// `None` when the defender completes a line first, or stops them all
    /// with a mark to spare.
    fn defend_turn(&mut self, att: Side, depth: u32) -> Result<Option<u32>, Unknown> {
        let def = att.other();
        let b = &self.board;
        let left = b.left();
        if b.winning_cell(def, left).is_some() {
            return Ok(None);
        }
        let wins = b.threats(att, b.next_marks());
        if wins.is_empty() || !b.cells_of(&wins, true).is_empty() {
            return Ok(None);
        }
        // (At most two marks to the turn, and one cannot stop them.)
        let pairs = if left >= 2 {
            b.pairs_stopping(&wins)
        } else {
            Vec::new()
        };
        if pairs.is_empty() {
            // This turn, then the attacker's line: at most two marks.
            return Ok(Some(left + 2));
        }
        let mut longest = 0;
        for (a, c) in pairs {
            self.board.play(a);
            self.board.play(c);
            let won = self.attack_turn(att, depth);
            self.board.undo(c);
            self.board.undo(a);
            match won? {
                Some((_, plies)) => longest = longest.max(plies + 2),
                None => return Ok(None),
            }
        }
        Ok(Some(longest))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::board::tests::placed;
    use super::super::super::board::{Board, Shape};
    use super::super::TURNS_DEPTH;
    use super::*;
    use crate::geometry::Cell;
    use crate::rulebook::Rulebook;
    use crate::search::Until;

    /// Nodes enough for every sequence here.
    const NODES: u64 = 1_000_000;

    /// X: a three on row 10 (l10 m10 n10) and two twos, d5 d6 on column d
    /// and e7 f7 on row 7, that a mark on d7 makes threes at once; O's
    /// marks far apart, making nothing. X to place the first of its two.
    const XS: [&str; 7] = ["l10", "m10", "n10", "d5", "d6", "e7", "f7"];
    const OS: [&str; 8] = ["a19", "e19", "j19", "o19", "s19", "c1", "h1", "m1"];

    fn connect6() -> Rulebook {
        Rulebook::builtin("connect6").unwrap()
    }

    /// A search within `nodes` of the position of `rules` with X's marks
    /// on `xs`, O's on `os` and `turn` to move.
    fn search<'s>(
        rules: &Rulebook,
        shape: &'s Shape<'s>,
        (xs, os): (&[&str], &[&str]),
        turn: Side,
        nodes: u64,
    ) -> Search<'s, 'static> {
        let open = vec![true; rules.grid().len()];
        let pos = placed(rules, xs, os, turn);
        Search::new(Board::new(shape, &pos, &open), nodes, Until::never())
    }

    /// Whether `att`, at the start of its turn, wins within `turns` more
    /// of them by the marks `turns_win` gives, against every pair of
    /// cells the defender could answer with (not only those the search
    /// considers).
    fn holds(s: &mut Search<'_, '_>, att: Side, turns: u32) -> bool {
        if s.board.winning_cell(att, s.board.left()).is_some() {
            return true;
        }
        if turns == 0 {
            return false;
        }
        let mut played = Vec::new();
        while s.board.turn == att {
            let Ok(Some((c, _))) = s.turns_win(att, turns, NODES) else {
                break;
            };
            s.board.play(c);
            played.push(c);
        }
        let def = att.other();
        let mut all = s.board.turn == def && s.board.winning_cell(def, 2).is_none();
        let open: Vec<usize> = s.board.open_cells().collect();
        'pairs: for (i, &a) in open.iter().enumerate() {
            for &b in &open[i + 1..] {
                if !all {
                    break 'pairs;
                }
                s.board.play_at_horizon(a);
                s.board.play_at_horizon(b);
                let at_once = s.board.winning_cell(att, 2).is_some();
                s.board.undo_at_horizon(b);
                s.board.undo_at_horizon(a);
                if !at_once {
                    s.board.play(a);
                    s.board.play(b);
                    all = holds(s, att, turns - 1);
                    s.board.undo(b);
                    s.board.undo(a);
                }
            }
        }
        for &c in played.iter().rev() {
            s.board.undo(c);
        }
        all
    }

    #[test]
    fn a_turn_that_forces_the_reply_and_makes_two_threes_wins_with_the_next() {
        let rules = connect6();
        let shape = Shape::new(&rules);
        let mut s = search(&rules, &shape, (&XS, &OS), Side::X, NODES);
        assert_eq!(
            s.turns_win(Side::X, 1, NODES),
            Ok(None),
            "no win in one turn"
        );
        let (_, plies) = s.turns_win(Side::X, 2, NODES).unwrap().unwrap();
        // X's two marks, O's, X's, O's, and X's line.
        assert_eq!(plies, 10);
        assert!(holds(&mut s, Side::X, 2));
    }

    #[test]
    fn two_threes_win_nothing_while_the_defender_holds_a_four() {
        // X's threes on rows 3 and 10 make two open fours in one turn, four
        // marks to stop; but O's k15–n15 needs both of X's marks now, or O
        // makes six first.
        let rules = connect6();
        let shape = Shape::new(&rules);
        let xs = ["c3", "d3", "e3", "c10", "d10", "e10", "s10"];
        let os = ["k15", "l15", "m15", "n15", "a19", "s19", "a1", "s1"];
        let mut s = search(&rules, &shape, (&xs, &os), Side::X, NODES);
        assert_eq!(s.turns_win(Side::X, TURNS_DEPTH, NODES), Ok(None));
        // Without O's four, the same threes win at once.
        let os = ["k15", "l15", "m15", "b17", "a19", "s19", "a1", "s1"];
        let mut s = search(&rules, &shape, (&xs, &os), Side::X, NODES);
        assert_eq!(
            s.turns_win(Side::X, 1, NODES).map(|w| w.map(|(_, p)| p)),
            Ok(Some(6))
        );
    }

    #[test]
    fn a_four_one_mark_stops_forces_nothing_the_spare_mark_breaks_a_three() {
        // X has just moved: f10–i10, closed at e10 by O, which j10 or k10
        // stops alone, and two open threes (rows 3 and 16). O stops the
        // four with one mark and breaks a three with the other: no win.
        let rules = connect6();
        let shape = Shape::new(&rules);
        let threes = ["h3", "i3", "j3", "h16", "i16", "j16", "a1"];
        let xs = [&["f10", "g10", "h10", "i10"][..], &threes].concat();
        let far = ["a19", "e19", "j19", "o19", "s19", "s1", "s5", "n1", "a14"];
        let os = [&far[..], &["e10"]].concat();
        let mut s = search(&rules, &shape, (&xs, &os), Side::O, NODES);
        assert_eq!((s.board.turn, s.board.left()), (Side::O, 2));
        s.threat_limit = NODES;
        assert_eq!(s.defend_turn(Side::X, 1), Ok(None));
        // Open at e10 too, the four needs both of O's marks: the threes
        // then make two open fours at once.
        let os = [&far[..], &["q12"]].concat();
        let mut s = search(&rules, &shape, (&xs, &os), Side::O, NODES);
        s.threat_limit = NODES;
        assert!(matches!(s.defend_turn(Side::X, 1), Ok(Some(_))));
    }

    #[test]
    fn a_lone_three_wins_nothing_however_deep() {
        let rules = connect6();
        let shape = Shape::new(&rules);
        let xs = ["h10", "i10", "j10", "a3", "s3", "a15", "s15"];
        let mut s = search(&rules, &shape, (&xs, &OS), Side::X, NODES);
        assert_eq!(s.turns_win(Side::X, TURNS_DEPTH, NODES), Ok(None));
    }

    #[test]
    fn the_turns_last_mark_is_the_one_that_leaves_no_win_by_forcing_turns() {
        // X: a three on row 10 and d4 d6 f7, which d5 and e6 would join
        // in lines; O's marks far apart, the first of its turn placed.
        // Every last mark but d5 leaves X a win by forcing turns (a
        // search of each says so); alpha-beta alone plays f19.
        let rules = connect6();
        let shape = Shape::new(&rules);
        let xs = ["l10", "m10", "n10", "d4", "d6", "f7", "s1"];
        let mut s = search(&rules, &shape, (&xs, &OS[..7]), Side::O, 600_000);
        assert_eq!(s.board.left(), 1);
        let all: Vec<usize> = s.board.open_cells().collect();
        let c = s.best(&all).cell.unwrap();
        assert_eq!(rules.grid().name(Cell(c as u16)).to_string(), "d5");
        s.board.play(c);
        assert_eq!(s.turns_win(Side::X, TURNS_DEPTH, NODES), Ok(None));
        s.board.undo(c);
        let f19 = rules.grid().parse_cell("f19").unwrap().index();
        s.board.play(f19);
        assert!(matches!(
            s.turns_win(Side::X, TURNS_DEPTH, NODES),
            Ok(Some(_))
        ));
    }
}
