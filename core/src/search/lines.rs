//! Play by line threats, for wide boards where each side only places its own
//! marks: random playouts say little there, so every empty cell is weighed
//! by the lines it builds and blocks.

use crate::geometry::Cell;
use crate::playout::Rng;
use crate::position::{Move, Position, Side};
use crate::rulebook::{LineResult, Marks, Rulebook};

/// Boards of this many cells or more, with unlimited marks and no regions,
/// are played by line threats rather than by random playouts.
const WIDE_BOARD: usize = 100;

/// Whether `pos` is played by line threats: a wide board without regions,
/// where each side places its own marks without limit, they stay, and a
/// line wins for its owner.
pub(super) fn suits(rules: &Rulebook, pos: &Position) -> bool {
    rules.grid().len() >= WIDE_BOARD && read_by_own_lines(rules, pos)
}

/// Whether a side's own marks in `pos` are its attack, on a board of any
/// size: each side places its own mark without limit, they stay, a line
/// wins for its owner, and nothing but lines closes a cell.
pub(super) fn read_by_own_lines(rules: &Rulebook, pos: &Position) -> bool {
    let t = rules.mechanics();
    t.marks_stay_where_placed()
        && t.marks() == Marks::Own
        // Past the moves whose turns name their marks (a move may place
        // the opponent's).
        && pos.marks_played() >= t.turns().named_moves()
        && t.line_result() == LineResult::OwnerWins
        // Lines alone do not say which cells a move may not take.
        && !t.restricted(pos)
}

/// The candidate that builds and blocks the most: every window of `k` cells
/// along a line that holds marks of one side only is worth more the fuller it
/// is, to the cells still empty in it — attacking a little more than
/// defending; then the nearer the centre. Ties are broken at random.
pub(super) fn threat_move(
    rules: &Rulebook,
    pos: &Position,
    candidates: &[Move],
    rng: &mut Rng,
) -> Move {
    let score = super::threats::Threats::new(rules).cell_scores_of(pos);
    let value = |m: &Move| m.to().map_or(i64::MIN, |c| score[c.index()]);
    let best = candidates.iter().map(value).max().unwrap_or(0);
    let top: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|m| value(m) == best)
        .collect();
    top[rng.below(top.len())]
}

/// What the side to move (the second player) can expect after the first
/// turn on a wide board: less where the other side's mark nearest the
/// centre is within its central third and nearer than any of its own (a
/// turn that names its marks may have given it one: the swap opening).
pub(super) fn first_mark_value(rules: &Rulebook, pos: &Position) -> f64 {
    let g = rules.grid();
    let (w, h) = (f64::from(g.width()), f64::from(g.height()));
    let nearest = |side| {
        let away = |mark| {
            let dx = (f64::from(g.col(mark)) - (w - 1.0) / 2.0).abs() / (w / 2.0);
            let dy = (f64::from(g.row(mark)) - (h - 1.0) / 2.0).abs() / (h / 2.0);
            dx.max(dy)
        };
        pos.marks(side)
            .into_iter()
            .map(away)
            .fold(f64::INFINITY, f64::min)
    };
    let (theirs, mine) = (nearest(pos.turn().other()), nearest(pos.turn()));
    if theirs.is_infinite() {
        return 0.5;
    }
    // Within the central third either way the first mark is worth taking.
    if theirs < 1.0 / 3.0 && theirs <= mine {
        0.4
    } else {
        0.6
    }
}

/// Whether `side` does as well taking a draw as playing on, by the lines: it
/// declines while it can still make one and is not about to lose, and takes
/// the draw when it is.
pub(super) fn accepts_draw(rules: &Rulebook, pos: &Position, side: Side) -> bool {
    let (mine, theirs) = (
        winning_cells(rules, pos, side),
        winning_cells(rules, pos, side.other()),
    );
    let my_move = pos.turn() == side;
    if mine > 0 && (my_move || mine >= 2) {
        return false;
    }
    if theirs > 0 && (!my_move || theirs >= 2) {
        return true;
    }
    !has_open_window(rules, pos, side)
}

/// How many empty cells a mark of `side` would complete a line on.
fn winning_cells(rules: &Rulebook, pos: &Position, side: Side) -> usize {
    winning_cells_of(rules, pos, side).count()
}

/// The empty cells where a mark of `side` would complete a line.
pub(super) fn winning_cells_of<'a>(
    rules: &'a Rulebook,
    pos: &'a Position,
    side: Side,
) -> impl Iterator<Item = Cell> + 'a {
    let (own, theirs) = (pos.marks(side), pos.marks(side.other()));
    let t = rules.mechanics();
    rules
        .fillable(pos)
        .into_iter()
        .filter(move |&c| t.wins_through(c, own.with(c), theirs))
}

/// Whether some window of a line's length holds no mark of `side`'s
/// opponent: a line `side` could still complete.
fn has_open_window(rules: &Rulebook, pos: &Position, side: Side) -> bool {
    let k = rules.mechanics().min_run();
    let theirs = pos.marks(side.other());
    rules.mechanics().lines().iter().any(|line| {
        line.windows(k)
            .any(|w| w.iter().all(|&c| !theirs.contains(c)))
    })
}
