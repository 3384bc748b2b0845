//! Wins shown by passes of growing horizon that stop at the first win:
//! by threats alone, where lines force replies ([`super::forcing`]) — the
//! winner's moves only those that leave it a cell to win on next, the
//! loser's only the replies they force, a tree small enough to search to
//! the win where the game's is not (qubic's 4×4×4 from mid-game; a win
//! found there is a win, and what it does not find it does not disprove) —
//! and the quickest, over every move.

use super::{FULL, MAX_DEPTH, Solver, Stop, WIN};
use crate::error::ScriptError;
use crate::geometry::CellSet;
use crate::position::{Move, MoveList, Position, Side};

/// What a search for the first win found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::search) enum FirstWin {
    /// A win: its first move and plies, the fewest the search allows.
    Win(Move, u32),
    /// No win the search allows.
    NoWin,
    /// The limit came first.
    Unknown,
}

impl Solver<'_> {
    /// The first move of a win for the side to move in `pos` (reached by
    /// the solver's line) by threats, and its plies: the fewest by threats.
    /// The side to move plays only moves that leave it a cell to win on
    /// next (or that lines force), the other side only the moves lines
    /// force; a position where the side to move has none of these counts
    /// as a draw. The solver is for this alone: its table holds values of
    /// that game.
    ///
    /// # Errors
    /// A failing per-move hook.
    pub(in crate::search) fn threat_win(
        &mut self,
        pos: &Position,
    ) -> Result<FirstWin, ScriptError> {
        if !self.forcing {
            return Ok(FirstWin::NoWin);
        }
        self.attacker = Some(pos.turn());
        let mut list = MoveList::new();
        self.rules.legal_moves(pos, &self.line, &mut list)?;
        let mut moves = list.to_vec();
        self.tried(pos, &mut moves);
        self.first_win(pos, &moves, MAX_DEPTH)
    }

    /// The quickest win among `moves` for the side to move in `pos`, if it
    /// takes fewer than `plies` plies, over every move (but those lines
    /// force).
    ///
    /// # Errors
    /// A failing per-move hook.
    pub(in crate::search) fn quicker_win(
        &mut self,
        pos: &Position,
        moves: &[Move],
        plies: u32,
    ) -> Result<FirstWin, ScriptError> {
        let mut moves = moves.to_vec();
        self.tried(pos, &mut moves);
        self.first_win(pos, &moves, plies.saturating_sub(1))
    }

    /// Keeps of `moves` (all legal in `pos`) those the search tries: where
    /// lines force moves, the forced ones if any are; in a threat proof,
    /// where none is, the attacker's threats and none of the defender's
    /// (the sequence has stopped forcing).
    pub(super) fn tried(&self, pos: &Position, moves: &mut Vec<Move>) {
        if !self.forcing || self.forced(pos, moves) {
            return;
        }
        match self.attacker {
            None => {}
            Some(att) if att == pos.turn() => {
                let cells = self.threat_cells(pos, att);
                moves.retain(|m| m.to().is_some_and(|c| cells.contains(c)));
            }
            Some(_) => moves.clear(),
        }
    }

    /// The empty cells where a mark of `side` leaves a window of a line's
    /// length with all its cells but one `side`'s and that one empty.
    fn threat_cells(&self, pos: &Position, side: Side) -> CellSet {
        let (own, theirs) = (pos.marks(side), pos.marks(side.other()));
        let mut cells = CellSet::default();
        for &w in &self.windows {
            if !w.intersects(theirs) && (w & own).count() + 2 == w.count() {
                cells |= w & !own;
            }
        }
        cells
    }

    /// Passes of growing horizon, up to `last` plies, each asking every
    /// one of `moves` whether it wins within it: the first win found.
    fn first_win(
        &mut self,
        pos: &Position,
        moves: &[Move],
        last: u32,
    ) -> Result<FirstWin, ScriptError> {
        // Lines are completed on the mover's own moves, the odd plies.
        let mut found = FirstWin::NoWin;
        for horizon in (1..=last).step_by(2) {
            self.horizon = horizon;
            let mut met_horizon = false;
            for &mv in moves {
                self.cut = false;
                // A null window at the edge of a proven win: won or not.
                match self.move_value(pos, mv, WIN / 2 - 1, WIN / 2) {
                    Ok(v) if v >= WIN / 2 => {
                        found = FirstWin::Win(mv, horizon);
                        break;
                    }
                    Ok(_) => met_horizon |= self.cut,
                    Err(Stop::TooBig) => {
                        found = FirstWin::Unknown;
                        break;
                    }
                    Err(Stop::Script(e)) => {
                        self.horizon = FULL;
                        return Err(e);
                    }
                }
            }
            if found != FirstWin::NoWin || !met_horizon {
                break;
            }
        }
        self.horizon = FULL;
        Ok(found)
    }

    /// Nodes visited so far.
    pub(in crate::search) fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::super::random_position;
    use super::*;
    use crate::playout::Rng;
    use crate::rulebook::Rulebook;
    use crate::search::Limit;

    /// On 3×3×3 and four-in-a-row positions small enough to value every
    /// move exactly, a win by threats is a win, in no fewer plies than the
    /// quickest, and the search for a quicker win finds the quickest (the
    /// threats' plies where none is quicker).
    #[test]
    fn threat_wins_agree_with_the_full_solve() {
        let (mut by_threats, mut won) = (0, 0);
        for name in ["cube3", "four"] {
            let (t, w) = agree_with_the_full_solve(&Rulebook::builtin(name).unwrap());
            by_threats += t;
            won += w;
        }
        // Every won position sampled there is won by threats, as it
        // happens; the positions not won check that none is found.
        assert!(
            by_threats >= 60 && won >= by_threats,
            "{by_threats} by threats of {won}"
        );
    }

    /// In `rules`' random positions, the wins by threats and the won
    /// positions, each checked.
    fn agree_with_the_full_solve(rules: &Rulebook) -> (u32, u32) {
        let mut rng = Rng::new(5);
        let mut list = MoveList::new();
        let (mut by_threats, mut won) = (0, 0);
        for _ in 0..200 {
            let plies = 5 + rng.below(6);
            let Some((pos, line)) = random_position(rules, &mut rng, plies) else {
                continue;
            };
            rules.legal_moves(&pos, &line, &mut list).unwrap();
            let moves = list.to_vec();
            let solver = || Solver::new(rules, &line, Limit::unbounded());
            let values = solver().values(&pos, &moves).unwrap().unwrap();
            let of = |m: Move| values[moves.iter().position(|&x| x == m).unwrap()];
            let best = *values.iter().max().unwrap();
            let text = rules.position_text(&pos);
            // Below no win, the quickest anywhere.
            match solver().quicker_win(&pos, &moves, 99).unwrap() {
                FirstWin::Win(m, p) => {
                    won += 1;
                    assert_eq!((of(m), p as i32), (best, WIN - best), "{text}");
                }
                FirstWin::NoWin => assert!(best <= WIN / 2, "{text}"),
                FirstWin::Unknown => panic!("an unbounded search ends: {text}"),
            }
            let threats = solver().threat_win(&pos).unwrap();
            let FirstWin::Win(mv, plies) = threats else {
                assert_eq!(threats, FirstWin::NoWin, "an unbounded search ends: {text}");
                continue;
            };
            by_threats += 1;
            assert!(of(mv) > WIN / 2, "{mv:?} wins: {text}");
            assert!(
                WIN - of(mv) <= plies as i32,
                "no sooner than it wins: {text}"
            );
            match solver().quicker_win(&pos, &moves, plies).unwrap() {
                FirstWin::Win(m, p) => assert_eq!((of(m), p as i32), (best, WIN - best), "{text}"),
                FirstWin::NoWin => assert_eq!(WIN - best, plies as i32, "{text}"),
                FirstWin::Unknown => panic!("an unbounded search ends: {text}"),
            }
        }
        (by_threats, won)
    }
}
