//! Computer players, for every rulebook, driven only by the engine API.
//!
//! Every level takes a win it sees. `easy` otherwise plays at random;
//! `medium` avoids moves that let the opponent win at once and now and then
//! plays a random move; `hard` solves the position exactly when the game tree
//! is small enough (classic: it never loses) and otherwise runs Monte Carlo
//! tree search over the moves that do not lose at once. On large boards
//! where marks are only placed (gomoku), random playouts say little, so
//! medium and hard weigh each cell by the lines it builds and blocks instead.

use crate::error::ScriptError;
use crate::playout::{Playout, Rng};
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::{LineResult, Marks, Rulebook};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How well the computer plays (T4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Wins when it sees a win; otherwise careless.
    Easy,
    /// Wins, blocks, but now and then plays a weaker move.
    Medium,
    /// Full strength within its time.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| format!("level `{s}`: expected easy, medium or hard"))
    }
}

/// How long the computer may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time, for people waiting at the REPL.
    Time(Duration),
    /// A fixed number of search playouts: the same seed gives the same move,
    /// for batch mode and tests.
    Playouts(u32),
}

impl Budget {
    fn scaled_down(self, by: u32) -> Budget {
        match self {
            Budget::Time(d) => Budget::Time(d / by),
            Budget::Playouts(n) => Budget::Playouts((n / by).max(1)),
        }
    }
}

/// How often `medium` ignores its search and plays any safe move.
const MEDIUM_SLIP: usize = 4;
/// Nodes the exact solver may visit before it gives up on a position.
const SOLVE_NODES: u64 = 400_000;
/// Plies beyond which the solver gives up (games with cycles never end).
const SOLVE_DEPTH: u32 = 40;

/// Chooses a move for the side to move of `pos`, reached by `history` (see
/// [`Rulebook::legal_moves`]), within about `budget`. `None` when the game
/// is over.
///
/// # Errors
/// A failing per-move hook.
pub fn choose(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    let moves: Vec<Move> = list.to_vec();
    choose_among(rules, pos, history, moves, level, rng, budget)
}

/// [`choose`] among `moves`, the legal moves of `pos` or some of them.
fn choose_among(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let mut list = MoveList::new();
    if moves.len() <= 1 {
        return Ok(moves.first().copied());
    }
    let me = pos.turn();
    for &mv in &moves {
        if rules.play_unchecked(pos, history, mv)?.outcome() == Some(Outcome::Win(me)) {
            return Ok(Some(mv));
        }
    }
    if level == Level::Easy {
        return Ok(Some(moves[rng.below(moves.len())]));
    }
    if moves.contains(&Move::Swap) {
        return choose_swap(rules, pos, history, moves, level, rng, budget);
    }
    let safe = safe_moves(rules, pos, history, &moves, &mut list)?;
    let candidates = if safe.is_empty() { moves } else { safe };
    if level == Level::Medium && rng.below(MEDIUM_SLIP) == 0 {
        return Ok(Some(candidates[rng.below(candidates.len())]));
    }
    let budget = if level == Level::Hard {
        budget
    } else {
        budget.scaled_down(5)
    };
    if wide_placement_board(rules, pos) {
        return Ok(Some(threat_move(rules, pos, &candidates, rng)));
    }
    if level == Level::Hard
        && let Some(mv) = Solver::new(rules, history).best(pos, &candidates)?
    {
        return Ok(Some(mv));
    }
    Ok(Some(mcts(rules, pos, history, &candidates, rng, budget)?.0))
}

/// The answer to the first move under the pie rule: `swap` when the side to
/// move expects less than half from the position as it is (then the other
/// side, which it takes, expects more), else the best move without it.
fn choose_swap(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let swapped = rules.play_unchecked(pos, history, Move::Swap)?;
    let mut line = history.to_vec();
    line.push(Move::Swap);
    // The same board with the same side to move, and no swap left: what
    // playing on is worth to the side to move.
    let half = budget.scaled_down(2);
    let stay = if wide_placement_board(rules, pos) {
        // No search to ask on a wide board: the first mark's pull, by its
        // distance from the centre (a central first mark favours X).
        first_mark_value(rules, pos)
    } else {
        expected_score(rules, &swapped, &line, rng, half)?
    };
    if stay < 0.5 {
        return Ok(Some(Move::Swap));
    }
    let others = moves.into_iter().filter(|&m| m != Move::Swap).collect();
    choose_among(rules, pos, history, others, level, rng, half)
}

/// What the side to move (the second player) can expect after the first
/// mark on a wide board: less the nearer the mark is to the centre.
fn first_mark_value(rules: &Rulebook, pos: &Position) -> f64 {
    let g = rules.grid();
    let Some(mark) = pos.marks(pos.turn().other()).first() else {
        return 0.5;
    };
    let (w, h) = (f64::from(g.width()), f64::from(g.height()));
    let dx = (f64::from(g.col(mark)) - (w - 1.0) / 2.0).abs() / (w / 2.0);
    let dy = (f64::from(g.row(mark)) - (h - 1.0) / 2.0).abs() / (h / 2.0);
    // Within the central third either way the first mark is worth taking.
    if dx.max(dy) < 1.0 / 3.0 { 0.4 } else { 0.6 }
}

/// Boards of this many cells or more, with unlimited marks and no regions,
/// are played by line threats rather than by random playouts.
const WIDE_BOARD: usize = 100;

fn wide_placement_board(rules: &Rulebook, pos: &Position) -> bool {
    let t = rules.tables();
    // The threat weights read a side's own marks as its attack: only true
    // where each side places its own mark and a line wins for its owner.
    rules.grid().len() >= WIDE_BOARD
        && t.regions().is_empty()
        && pos.in_hand(pos.turn()).is_none()
        && t.marks() == Marks::Own
        && t.line_result() == LineResult::OwnerWins
        && !t.has_gravity()
}

/// The candidate that builds and blocks the most: every window of `k` cells
/// along a line that holds marks of one side only is worth more the fuller it
/// is, to the cells still empty in it — attacking a little more than
/// defending. Ties are broken at random.
fn threat_move(rules: &Rulebook, pos: &Position, candidates: &[Move], rng: &mut Rng) -> Move {
    let k = rules.tables().min_run();
    let me = pos.turn();
    let (mine, theirs) = (pos.marks(me), pos.marks(me.other()));
    let mut score = vec![0i64; rules.grid().len()];
    // Ten times more per mark; a window one short of a line outweighs any sum of lesser ones.
    let weight = |n: u32| 10i64.pow(n.min(9));
    for line in rules.tables().lines() {
        for window in line.windows(k) {
            let cells: crate::geometry::CellSet = window.iter().copied().collect();
            let (m, t) = ((cells & mine).count(), (cells & theirs).count());
            let value = match (m, t) {
                (0, 0) => 1,
                (m, 0) => 11 * weight(m),
                (0, t) => 10 * weight(t),
                _ => continue,
            };
            for &c in window {
                score[c.index()] += value;
            }
        }
    }
    let best = candidates
        .iter()
        .map(|m| m.to().map_or(i64::MIN, |c| score[c.index()]))
        .max()
        .unwrap_or(0);
    let top: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|m| m.to().map_or(i64::MIN, |c| score[c.index()]) == best)
        .collect();
    top[rng.below(top.len())]
}

/// What the side to move of `pos` (reached by `history`) can expect from it:
/// 1 for a win, ½ for a draw, 0 for a loss. Exact when the game tree is small
/// enough to solve, else the search's estimate for its best move.
///
/// # Errors
/// A failing per-move hook.
pub fn expected_score(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    rng: &mut Rng,
    budget: Budget,
) -> Result<f64, ScriptError> {
    if let Some(o) = pos.outcome() {
        return Ok(match o {
            Outcome::Draw => 0.5,
            Outcome::Win(s) if s == pos.turn() => 1.0,
            Outcome::Win(_) => 0.0,
        });
    }
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    let moves = list.to_vec();
    if let Some(v) = Solver::new(rules, history).value_of(pos)? {
        return Ok(match v.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        });
    }
    Ok(mcts(rules, pos, history, &moves, rng, budget)?.1)
}

/// Whether `side` does as well taking a draw as playing on from `pos`
/// (reached by `history`), judged as the computer judges its moves: exactly
/// where the game can be solved; on wide placement boards by the lines (it
/// declines while it can still make one and is not about to lose, and takes
/// the draw when it is); elsewhere by the search's estimate.
///
/// # Errors
/// A failing per-move hook.
pub fn accepts_draw(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    side: crate::Side,
    rng: &mut Rng,
    budget: Budget,
) -> Result<bool, ScriptError> {
    if !pos.is_over() && wide_placement_board(rules, pos) {
        let (mine, theirs) = (
            winning_cells(rules, pos, side),
            winning_cells(rules, pos, side.other()),
        );
        let my_move = pos.turn() == side;
        if mine > 0 && (my_move || mine >= 2) {
            return Ok(false);
        }
        if theirs > 0 && (!my_move || theirs >= 2) {
            return Ok(true);
        }
        return Ok(!has_open_window(rules, pos, side));
    }
    let expected = expected_score(rules, pos, history, rng, budget)?;
    // `expected` is for the side to move; `side` may be the other one.
    let mine = if pos.turn() == side {
        expected
    } else {
        1.0 - expected
    };
    Ok(mine <= 0.5)
}

/// The empty cells where a mark of `side` would complete a line.
fn winning_cells(rules: &Rulebook, pos: &Position, side: crate::Side) -> usize {
    let own = pos.marks(side);
    let t = rules.tables();
    rules
        .fillable(pos)
        .into_iter()
        .filter(|&c| t.wins_through(c, own.with(c)))
        .count()
}

/// Whether some window of a line's length holds no mark of `side`'s
/// opponent: a line `side` could still complete.
fn has_open_window(rules: &Rulebook, pos: &Position, side: crate::Side) -> bool {
    let k = rules.tables().min_run();
    let theirs = pos.marks(side.other());
    rules.tables().lines().iter().any(|line| {
        line.windows(k)
            .any(|w| w.iter().all(|&c| !theirs.contains(c)))
    })
}

/// The moves that do not lose at once and after which the opponent cannot
/// win at once (a line that loses for its maker, as in misère, is a move
/// that loses at once).
fn safe_moves(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: &[Move],
    list: &mut MoveList,
) -> Result<Vec<Move>, ScriptError> {
    let them = pos.turn().other();
    let mut safe = Vec::new();
    let mut line = history.to_vec();
    'moves: for &mv in moves {
        let next = rules.play_unchecked(pos, history, mv)?;
        if next.is_over() {
            if next.outcome() != Some(Outcome::Win(them)) {
                safe.push(mv);
            }
            continue;
        }
        line.truncate(history.len());
        line.push(mv);
        rules.legal_moves(&next, &line, list)?;
        for &reply in list.iter() {
            if rules.play_unchecked(&next, &line, reply)?.outcome() == Some(Outcome::Win(them)) {
                continue 'moves;
            }
        }
        safe.push(mv);
    }
    Ok(safe)
}

/// Exact negamax with alpha-beta and a transposition table, abandoned when the
/// tree is too big.
struct Solver<'a> {
    rules: &'a Rulebook,
    /// The moves from the game's start to the node being searched.
    line: Vec<Move>,
    table: HashMap<u64, i32>,
    nodes: u64,
}

/// Why a solve stopped without an answer.
enum Stop {
    TooBig,
    Script(ScriptError),
}

impl From<ScriptError> for Stop {
    fn from(e: ScriptError) -> Stop {
        Stop::Script(e)
    }
}

impl<'a> Solver<'a> {
    fn new(rules: &'a Rulebook, history: &[Move]) -> Solver<'a> {
        Solver {
            rules,
            line: history.to_vec(),
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// The best of `moves` by exact value, preferring quick wins and slow
    /// losses; `None` when the tree is too big to solve.
    fn best(&mut self, pos: &Position, moves: &[Move]) -> Result<Option<Move>, ScriptError> {
        // Repetition draws depend on the path, which a transposition table ignores.
        if self.rules.tables().repetition().is_some() {
            return Ok(None);
        }
        let mut best = None;
        let mut alpha = -i32::MAX;
        for &mv in moves {
            let next = self.rules.play_unchecked(pos, &self.line, mv)?;
            self.line.push(mv);
            let value = self.child_value(pos, &next, 1, alpha, i32::MAX);
            self.line.pop();
            match value {
                Ok(v) => {
                    if v > alpha {
                        alpha = v;
                        best = Some(mv);
                    }
                }
                Err(Stop::TooBig) => return Ok(None),
                Err(Stop::Script(e)) => return Err(e),
            }
        }
        Ok(best)
    }

    /// The exact value of `pos` for its side to move, if the tree is small enough.
    fn value_of(&mut self, pos: &Position) -> Result<Option<i32>, ScriptError> {
        if self.rules.tables().repetition().is_some() {
            return Ok(None);
        }
        match self.value(pos, 0, -i32::MAX, i32::MAX) {
            Ok(v) => Ok(Some(v)),
            Err(Stop::TooBig) => Ok(None),
            Err(Stop::Script(e)) => Err(e),
        }
    }

    /// The value of `next`, reached from `pos`, for the side to move in
    /// `pos`: negated when the turn passed, as is, within a turn of several
    /// marks, when the same side moves again.
    fn child_value(
        &mut self,
        pos: &Position,
        next: &Position,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Stop> {
        // A swap keeps the side to move but hands the mover the other side.
        let swap = next.last_move() == Some(Move::Swap);
        if (next.turn() == pos.turn()) != swap {
            self.value(next, ply, alpha, beta)
        } else {
            Ok(-self.value(next, ply, -beta, -alpha)?)
        }
    }

    /// The value of `pos` for its side to move.
    fn value(&mut self, pos: &Position, ply: u32, mut alpha: i32, beta: i32) -> Result<i32, Stop> {
        self.nodes += 1;
        if self.nodes > SOLVE_NODES || ply > SOLVE_DEPTH {
            return Err(Stop::TooBig);
        }
        if let Some(o) = pos.outcome() {
            let ply = ply as i32;
            return Ok(match o {
                Outcome::Draw => 0,
                Outcome::Win(s) if s == pos.turn() => 1000 - ply,
                Outcome::Win(_) => ply - 1000,
            });
        }
        // Per-move hooks may read the move count and the last move, which
        // the key leaves out; once one has read the whole history, a value
        // belongs to its path and no position is looked up or stored.
        let hooks = self.rules.has_per_move_hooks();
        let key = if hooks {
            let last = match pos.last_move() {
                None => 0,
                Some(Move::Place { to, mark }) => 1 + (u64::from(to.0) << 1 | mark as u64),
                Some(Move::Step { from, to }) => {
                    1 << 40 | u64::from(from.0) << 16 | u64::from(to.0)
                }
                Some(Move::Swap) => 2 << 40,
            };
            pos.key()
                ^ u64::from(pos.ply()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ last.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        } else {
            pos.key()
        };
        let by_path = hooks && self.rules.script().has_read_history();
        if by_path {
            self.table.clear();
        } else if let Some(&v) = self.table.get(&key) {
            return Ok(v);
        }
        let mut list = MoveList::new();
        self.rules.legal_moves(pos, &self.line, &mut list)?;
        let mut best = -i32::MAX;
        let exact_window = alpha;
        for &mv in list.iter() {
            let next = self.rules.play_unchecked(pos, &self.line, mv)?;
            self.line.push(mv);
            let v = self.child_value(pos, &next, ply + 1, alpha, beta);
            self.line.pop();
            let v = v?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        // Only values inside the window are exact; bounds are not stored.
        let by_path = by_path || (hooks && self.rules.script().has_read_history());
        if !by_path && best > exact_window && best < beta {
            self.table.insert(key, best);
        }
        Ok(best)
    }
}

/// One node of the search tree.
struct Node {
    mv: Option<Move>,
    /// The side that made `mv` (within a turn of several marks, the side
    /// that moves next may be the same).
    mover: Side,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: u32,
    /// Sum of results for the side that moved into this node (1 win, ½ draw).
    score: f64,
}

/// Monte Carlo tree search (UCT) from `pos`, over `root_moves`, within
/// `budget`: the most visited move and its average score for the mover.
fn mcts(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    root_moves: &[Move],
    rng: &mut Rng,
    budget: Budget,
) -> Result<(Move, f64), ScriptError> {
    let started = Instant::now();
    let done = |iterations: u32| match budget {
        // Reading the clock costs about a 3×3 playout: look every 64 iterations.
        Budget::Time(d) => {
            iterations > 0 && iterations.is_multiple_of(64) && started.elapsed() >= d
        }
        Budget::Playouts(n) => iterations >= n,
    };
    let mut nodes = vec![Node {
        mv: None,
        mover: pos.turn().other(),
        children: Vec::new(),
        untried: root_moves.to_vec(),
        visits: 0,
        score: 0.0,
    }];
    let mut playout = Playout::new();
    let mut list = MoveList::new();
    let mut path = Vec::new();
    // The moves from the game's start, for per-move hooks only.
    let hooks = rules.has_per_move_hooks();
    let mut line = Vec::new();
    let mut iterations = 0u32;
    loop {
        if done(iterations) {
            break;
        }
        iterations += 1;
        path.clear();
        path.push(0);
        let mut state = *pos;
        line.clear();
        if hooks {
            line.extend_from_slice(history);
        }
        let mut node = 0;
        // Select.
        while nodes[node].untried.is_empty() && !nodes[node].children.is_empty() {
            let log_n = f64::from(nodes[node].visits).ln();
            node = *nodes[node]
                .children
                .iter()
                .max_by(|&&a, &&b| uct(&nodes[a], log_n).total_cmp(&uct(&nodes[b], log_n)))
                .expect("children is not empty");
            let mv = nodes[node].mv.expect("non-root nodes have a move");
            rules.apply(&mut state, &line, mv)?;
            if hooks {
                line.push(mv);
            }
            path.push(node);
        }
        // Expand.
        if !nodes[node].untried.is_empty() && !state.is_over() {
            let i = rng.below(nodes[node].untried.len());
            let mv = nodes[node].untried.swap_remove(i);
            // Whose result the node scores: the mover's, or after a swap
            // the side the mover takes.
            let mover = match mv {
                Move::Swap => state.turn().other(),
                _ => state.turn(),
            };
            rules.apply(&mut state, &line, mv)?;
            if hooks {
                line.push(mv);
            }
            let untried = if state.is_over() {
                Vec::new()
            } else {
                rules.legal_moves(&state, &line, &mut list)?;
                list.to_vec()
            };
            nodes.push(Node {
                mv: Some(mv),
                mover,
                children: Vec::new(),
                untried,
                visits: 0,
                score: 0.0,
            });
            let child = nodes.len() - 1;
            nodes[node].children.push(child);
            path.push(child);
        }
        // Simulate, then back up from the point of view of each node's mover.
        let outcome = playout.run(rules, &state, &line, rng)?;
        for &n in &path[1..] {
            let node = &mut nodes[n];
            node.visits += 1;
            node.score += match outcome {
                Outcome::Draw => 0.5,
                Outcome::Win(s) if s == node.mover => 1.0,
                Outcome::Win(_) => 0.0,
            };
        }
        nodes[0].visits += 1;
    }
    let best = nodes[0]
        .children
        .iter()
        .max_by_key(|&&c| nodes[c].visits)
        .map(|&c| &nodes[c]);
    Ok(match best {
        Some(n) => (
            n.mv.expect("children have moves"),
            n.score / f64::from(n.visits.max(1)),
        ),
        None => (root_moves[0], 0.5),
    })
}

fn uct(node: &Node, log_parent: f64) -> f64 {
    if node.visits == 0 {
        return f64::INFINITY;
    }
    let n = f64::from(node.visits);
    node.score / n + (2.0 * log_parent / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print() {
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
        assert!("expert".parse::<Level>().is_err());
    }
}
