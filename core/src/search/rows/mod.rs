//! The row search: hard's player for k-in-a-row on wide boards where a line
//! of `k` or more (or exactly `k`) wins for its owner, each side places its
//! own marks, one or two a turn, and nothing else happens but captures of
//! the opponent's marks (pente's pairs; no per-move hooks) — so a position
//! is its marks and the captures made, and a board kept move by move
//! ([`board`]) answers every question the search asks without asking the
//! rulebook but one: whether a side may make what a move makes (renju's
//! forbidden patterns), which the rulebook's own judge answers from the
//! board's marks.
//!
//! A move is chosen in order: a line completed, the opponent's blocked, a
//! win by continuous fours, a win by fours and threes; else principal
//! variation search by iterative deepening with a transposition table
//! ([`search`]) over the moves after which the opponent has no such win.
//! Where marks capture, a line (or the captures that win) may also be
//! answered by a capture that takes part of it away: every such answer is
//! tried, in the threat sequences and in alpha-beta alike.
//! Where a turn has two marks (connect6), fours and threes are one-mark
//! threats and are left out: a line filled within the turn is taken, a
//! win by forcing turns (each leaving windows no one mark stops, so the
//! opponent's whole turn answers) is played, every window the opponent
//! could fill in its next turn is hit within this one, a turn's last mark
//! is one (of the two dozen most promising) after which the opponent has
//! no win by forcing turns where there is one, and alpha-beta searches
//! mark by mark.
//! Where a rulebook does not qualify, the threat search of `threats` plays
//! instead, through the rulebook's own moves.

mod board;
mod proofs;
mod search;
mod tt;

use crate::geometry::Cell;
use crate::position::{Move, Position, Side};
use crate::rulebook::Rulebook;
use board::{Board, Shape};
pub(crate) use search::How;
use search::Search;

/// Alpha-beta nodes per playout of a budget counted in playouts: the
/// rulebook's budget (30 000 playouts on 15×15) gives 900 000 nodes, about
/// a second on the machines the docs' figures come from.
pub(crate) const NODES_PER_PLAYOUT: u64 = 30;

/// Whether the row search plays `rules`: a line of `k` or more wins for
/// each side (or exactly `k`: renju's X, or both under the exactly-five rule), one or
/// two marks a turn (connect6), and no move does more than place it and
/// capture (pente) — though some may be forbidden by the patterns they make
/// (renju's X).
pub(crate) fn applies(rules: &Rulebook, pos: &Position) -> bool {
    let t = rules.mechanics();
    // Past an opening of other turns (the swap opening of five in a row), one mark a
    // turn: the search reads the turns from there.
    let alternates = t.turns().alternates_from(pos.marks_played());
    let k = t.min_run();
    let longest = t.lines().iter().map(Vec::len).max().unwrap_or(0);
    let from_k = [Side::X, Side::O].iter().all(|&s| {
        let wins = |n: usize| t.wins_run(s, n);
        (1..k).all(|n| !wins(n)) && wins(k) && (k + 1..=longest).all(|n| wins(n) == wins(k + 1))
    });
    k >= 3
        && from_k
        && (alternates
            || (t.turns().counts().iter().all(|&n| n <= 2) && t.turns().named_moves() == 0))
        // The forbidden patterns are judged for one mark a turn only.
        && (alternates || !(t.has_patterns(Side::X) || t.has_patterns(Side::O)))
        && !rules.has_per_move_hooks()
}

// The search's tables index cells in 16 bits: every board allowed fits.
const _: () = assert!(crate::geometry::MAX_CELLS < u16::MAX as usize);

/// What [`choose`] found, for the search's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chosen {
    pub(crate) mv: Move,
    pub(crate) how: How,
    /// Plies to a win a threat sequence found.
    pub(crate) plies: Option<u32>,
    pub(crate) depth: Option<u32>,
    pub(crate) value: Option<i32>,
    pub(crate) nodes: u64,
}

/// The row search's move among `candidates` for the side to move of `pos`,
/// within `nodes` alpha-beta nodes and `until`, alpha-beta on `threads`
/// threads (one repeats its move for a budget in nodes; more do not);
/// `None` when no candidate places the mover's mark.
pub(crate) fn choose(
    rules: &Rulebook,
    pos: &Position,
    candidates: &[Move],
    nodes: u64,
    until: super::Until<'_>,
    threads: usize,
) -> Option<Chosen> {
    let me = pos.turn();
    let cells: Vec<usize> = candidates
        .iter()
        .filter_map(|m| match *m {
            Move::Place { to, mark } if mark == me => Some(to.index()),
            _ => None,
        })
        .collect();
    if cells.is_empty() {
        return None;
    }
    let shape = Shape::from_move(rules, pos.marks_played());
    let fillable = rules.fillable(pos);
    let open: Vec<bool> = (0..rules.grid().len())
        .map(|c| fillable.contains(Cell(c as u16)))
        .collect();
    let board = Board::new(&shape, pos, &open);
    let mut search = Search::new(board, nodes, until).on_threads(threads);
    let found = search.best(&cells);
    let cell = found.cell?;
    Some(Chosen {
        mv: Move::Place {
            to: Cell(cell as u16),
            mark: me,
        },
        how: found.how,
        plies: found.plies,
        depth: found.depth,
        value: found.value,
        nodes: search.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_search_plays_lines_with_patterns_two_marks_a_turn_or_captures() {
        for name in ["renju", "connect6", "pente"] {
            let rules = Rulebook::builtin(name).unwrap();
            assert!(applies(&rules, &rules.initial()), "{name}");
        }
        // Five in a row on 15×15, with and without the exactly-five rule;
        // two in a row is too short for fours and threes.
        for (k, overline, plays) in [(5, true, true), (5, false, true), (2, true, false)] {
            let text = format!(
                "name = \"five\"\ntitle = \"five\"\nscript = \"k_in_a_row.rhai\"\n\
                 [board]\nwidth = 15\nheight = 15\n[params]\nk = {k}\noverline = {overline}\n"
            );
            let rules = Rulebook::from_str_at(&text, "five.toml", None).unwrap();
            assert_eq!(
                applies(&rules, &rules.initial()),
                plays,
                "k = {k}, overline = {overline}"
            );
        }
    }
}
