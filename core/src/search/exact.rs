//! Exact negamax with alpha-beta and a transposition table, for game trees
//! without cycles; it gives up when the tree is larger than its limit.
//!
//! Where the whole tree is too large, [`Solver::deepen`] proves what it can
//! by iterative deepening: positions past the horizon count as unknown
//! (valued 0, like a draw), so a value beyond ±[`WIN`]/2 is still a proof.
//! Each pass asks every root move the one question that matters — won,
//! lost, or open — with the window (−WIN/2, WIN/2), which prunes like a
//! null window. The table keeps what a pass proved for the next, and the
//! best move it found to try first; cells on many lines and moves that cut
//! off before come next.

use super::Limit;
use crate::error::ScriptError;
use crate::geometry::CellSet;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::{LineResult, Marks, Rulebook};
use std::collections::HashMap;

mod wins;

pub(super) use wins::FirstWin;

/// A won game is worth `WIN - plies`: quicker wins score higher.
pub(super) const WIN: i32 = 1000;

/// Plies beyond which a solve gives up: a game without a repetition rule may
/// still cycle.
pub const MAX_DEPTH: u32 = 100;

/// What the table knows of a position.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Counted from the position itself (see [`to_node`]).
    value: i32,
    bound: Bound,
    best: Option<Move>,
    /// The plies below the position that the search saw; [`FULL`] when
    /// it met no horizon, so the value holds at any depth.
    depth: u32,
}

/// The depth of an entry that no horizon cut.
const FULL: u32 = u32::MAX;

impl Entry {
    /// What a search of a node at `ply` with the window `window` found:
    /// its value `best` (counted from the root) and the move that gave it,
    /// seeing `depth` plies below.
    fn found(best: i32, window: (i32, i32), ply: u32, mv: Option<Move>, depth: u32) -> Entry {
        let bound = if best <= window.0 {
            Bound::Upper
        } else if best >= window.1 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Entry {
            value: to_node(best, ply),
            bound,
            best: mv,
            depth,
        }
    }

    /// Narrows the window `alpha`..`beta` by the entry's value `v`, counted
    /// from the root: whether that settles the node's value.
    fn narrows(&self, v: i32, alpha: &mut i32, beta: &mut i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => {
                *alpha = (*alpha).max(v);
                *alpha >= *beta
            }
            Bound::Upper => {
                *beta = (*beta).min(v);
                *alpha >= *beta
            }
        }
    }

    /// Whether the value holds however deep a later search looks: a won or
    /// lost value is a proof, whatever the horizon it was found within.
    fn proves(&self) -> bool {
        match self.bound {
            Bound::Exact => self.value.abs() > WIN / 2,
            Bound::Lower => self.value > WIN / 2,
            Bound::Upper => self.value < -WIN / 2,
        }
    }
}

/// Whether a stored value is exact or bounds the true one.
#[derive(Debug, Clone, Copy)]
enum Bound {
    Exact,
    /// The true value is at least this (the search was cut off).
    Lower,
    /// The true value is at most this (no move reached the window).
    Upper,
}

/// A value counted from the root, seen from a position `ply` plies below
/// it: a win `d` plies after the root is `d - ply` plies after the position.
fn to_node(v: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    match v {
        v if v > WIN / 2 => v + ply,
        v if v < -WIN / 2 => v - ply,
        v => v,
    }
}

/// The inverse of [`to_node`].
fn from_node(v: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    match v {
        v if v > WIN / 2 => v - ply,
        v if v < -WIN / 2 => v + ply,
        v => v,
    }
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

/// What [`Solver::deepen`] proved of the root's moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Proof {
    /// This move wins within so many plies (the first found in the first
    /// pass that found one).
    Win(Move, u32),
    /// Every move is lost: this one holds out longest.
    Lost(Move),
    /// The whole tree was searched: these moves draw, the rest lose.
    Draws(Vec<Move>),
    /// The limit came first, or only one move is not lost: these moves are
    /// not known to lose (all of them when nothing was proven).
    Open(Vec<Move>),
}

/// One solve from one root: the table is valid only for that root, as values
/// count plies from it.
pub(super) struct Solver<'a> {
    rules: &'a Rulebook,
    /// The moves from the game's start to the node being searched.
    line: Vec<Move>,
    table: HashMap<u64, Entry>,
    nodes: u64,
    limit: Limit<'a>,
    /// Plies from the root at which a position counts as unknown; [`FULL`]
    /// in a full solve.
    horizon: u32,
    /// Whether the subtree being searched met the horizon.
    cut: bool,
    /// Per cell, how early to try moves to it: the winning windows through
    /// it, plus a bonus each time a move there cut a search off.
    order: Vec<u32>,
    /// Whether moves are forced by lines (see [`Solver::forced`]).
    forcing: bool,
    /// In a threat proof, the side proven to win: its moves are only
    /// threats, the other's only forced ones (see [`Solver::threat_win`]).
    attacker: Option<Side>,
    /// Each window of a line's length: where threats are looked for.
    windows: Vec<CellSet>,
}

impl<'a> Solver<'a> {
    pub(super) fn new(rules: &'a Rulebook, history: &[Move], limit: Limit<'a>) -> Solver<'a> {
        let k = rules.mechanics().min_run().max(1);
        let forcing = forcing(rules);
        let mut order = vec![0u32; rules.grid().len()];
        let mut windows = Vec::new();
        for line in rules.mechanics().lines() {
            for window in line.windows(k) {
                for c in window {
                    order[c.index()] += 1;
                }
                if forcing {
                    windows.push(window.iter().copied().collect());
                }
            }
        }
        Solver {
            rules,
            line: history.to_vec(),
            table: HashMap::new(),
            nodes: 0,
            limit,
            horizon: FULL,
            cut: false,
            order,
            forcing,
            attacker: None,
            windows,
        }
    }

    /// Keeps of `moves` (all legal in `pos`) those that are forced: the
    /// moves that win at once if there are any, else, if the opponent could
    /// win at once on a cell, the moves that take it (when one can). Any
    /// other move loses sooner or no later, so the value is the same, found
    /// on far fewer moves: 3×3×3 is proved in a fraction of a second.
    /// Returns whether any move was forced.
    fn forced(&self, pos: &Position, moves: &mut Vec<Move>) -> bool {
        let (rules, me) = (self.rules, pos.turn());
        let wins: CellSet = super::lines::winning_cells_of(rules, pos, me).collect();
        if moves
            .iter()
            .any(|m| m.to().is_some_and(|c| wins.contains(c)))
        {
            moves.retain(|m| m.to().is_some_and(|c| wins.contains(c)));
            return true;
        }
        // The opponent's winning cells, but for those its next move may not take.
        let after = rules.mechanics().forbidden_after(pos, 1);
        let threats: CellSet = super::lines::winning_cells_of(rules, pos, me.other())
            .filter(|&c| !after.contains(c))
            .collect();
        let any = moves
            .iter()
            .any(|m| m.to().is_some_and(|c| threats.contains(c)));
        if any {
            moves.retain(|m| m.to().is_some_and(|c| threats.contains(c)));
        }
        any
    }

    /// What iterative deepening proves of `moves` from `pos` within the
    /// limit: a win as soon as one is found, else the moves not known to
    /// lose (exactly the drawing ones once a pass meets no horizon).
    pub(super) fn deepen(&mut self, pos: &Position, moves: &[Move]) -> Result<Proof, ScriptError> {
        // For each move, the pass that proved it lost: later is longer.
        let mut lost: Vec<Option<u32>> = vec![None; moves.len()];
        let open = |lost: &[Option<u32>]| -> Vec<Move> {
            moves
                .iter()
                .zip(lost)
                .filter(|(_, l)| l.is_none())
                .map(|(&m, _)| m)
                .collect()
        };
        for horizon in 1..=MAX_DEPTH {
            self.horizon = horizon;
            let mut met_horizon = false;
            for (i, &mv) in moves.iter().enumerate() {
                if lost[i].is_some() {
                    continue;
                }
                self.cut = false;
                match self.move_value(pos, mv, -WIN / 2, WIN / 2) {
                    Ok(v) if v >= WIN / 2 => return Ok(Proof::Win(mv, horizon)),
                    Ok(v) if v <= -WIN / 2 => lost[i] = Some(horizon),
                    Ok(_) => met_horizon |= self.cut,
                    Err(Stop::TooBig) => {
                        self.horizon = FULL;
                        return Ok(self.verdict(moves, &lost, open(&lost), false));
                    }
                    Err(Stop::Script(e)) => return Err(e),
                }
            }
            let still = open(&lost);
            if !met_horizon || still.len() <= 1 {
                self.horizon = FULL;
                return Ok(self.verdict(moves, &lost, still, !met_horizon));
            }
        }
        self.horizon = FULL;
        Ok(self.verdict(moves, &lost, open(&lost), false))
    }

    /// The proof from the moves still `open` after the passes, and whether
    /// the last pass searched the whole tree.
    fn verdict(&self, moves: &[Move], lost: &[Option<u32>], open: Vec<Move>, whole: bool) -> Proof {
        if open.is_empty() {
            let longest = moves
                .iter()
                .zip(lost)
                .max_by_key(|(_, l)| *l)
                .map(|(&m, _)| m);
            if let Some(m) = longest {
                return Proof::Lost(m);
            }
        }
        if whole {
            Proof::Draws(open)
        } else {
            Proof::Open(open)
        }
    }

    /// Whether the method applies: a repetition rule makes values depend on
    /// the path, which a transposition table ignores.
    pub(super) fn applies(rules: &Rulebook) -> bool {
        rules.mechanics().repetition().is_none()
    }

    /// The exact value of each of `moves` for the side to move in `pos`
    /// (`WIN - plies` for a win, its negation for a loss, 0 for a draw), or
    /// `None` when the tree is too big.
    pub(super) fn values(
        &mut self,
        pos: &Position,
        moves: &[Move],
    ) -> Result<Option<Vec<i32>>, ScriptError> {
        let mut values = Vec::with_capacity(moves.len());
        for &mv in moves {
            match self.move_value(pos, mv, -i32::MAX, i32::MAX) {
                Ok(v) => values.push(v),
                Err(Stop::TooBig) => return Ok(None),
                Err(Stop::Script(e)) => return Err(e),
            }
        }
        Ok(Some(values))
    }

    /// The exact value of `pos` for its side to move, if the tree is small enough.
    pub(super) fn value_of(&mut self, pos: &Position) -> Result<Option<i32>, ScriptError> {
        match self.value(pos, 0, -i32::MAX, i32::MAX) {
            Ok(v) => Ok(Some(v)),
            Err(Stop::TooBig) => Ok(None),
            Err(Stop::Script(e)) => Err(e),
        }
    }

    fn move_value(&mut self, pos: &Position, mv: Move, alpha: i32, beta: i32) -> Result<i32, Stop> {
        let next = self.rules.play_unchecked(pos, &self.line, mv)?;
        self.line.push(mv);
        let value = self.child_value(pos, &next, 1, alpha, beta);
        self.line.pop();
        value
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

    /// The value of `pos` for its side to move, counted from the root (a
    /// win at ply `p` is `WIN - p`). The table holds values counted from
    /// their own position, with whether each is exact or a bound, so that a
    /// position reached at another depth reads its own distance.
    fn value(
        &mut self,
        pos: &Position,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Stop> {
        self.nodes += 1;
        if ply > MAX_DEPTH || self.limit.reached(self.nodes) {
            return Err(Stop::TooBig);
        }
        if let Some(o) = pos.outcome() {
            let ply = ply as i32;
            return Ok(match o {
                Outcome::Draw => 0,
                Outcome::Win(s) if s == pos.turn() => WIN - ply,
                Outcome::Win(_) => ply - WIN,
            });
        }
        if ply >= self.horizon {
            self.cut = true;
            return Ok(0);
        }
        let remaining = if self.horizon == FULL {
            FULL
        } else {
            self.horizon - ply
        };
        // Once a per-move hook has read the whole history, a value belongs
        // to its path and no position is looked up or stored.
        let hooks = self.rules.has_per_move_hooks();
        let key = table_key(pos, hooks);
        let by_path = hooks && self.rules.script().has_read_history();
        let mut first = None;
        // Whether a bound read from the table was itself cut by a horizon.
        let mut limited = false;
        if by_path {
            self.table.clear();
        } else if let Some(&entry) = self.table.get(&key) {
            // A value found within a shallower horizon says nothing here,
            // unless it is a proof.
            if entry.depth >= remaining || entry.proves() {
                let v = from_node(entry.value, ply);
                let settled = entry.narrows(v, &mut alpha, &mut beta);
                // What a horizon limited stays limited up the tree.
                limited = entry.depth != FULL && !entry.proves();
                if settled {
                    self.cut |= limited;
                    return Ok(v);
                }
            }
            first = entry.best;
        }
        let mut list = MoveList::new();
        self.rules.legal_moves(pos, &self.line, &mut list)?;
        let mut moves = list.to_vec();
        self.tried(pos, &mut moves);
        if moves.is_empty() && self.attacker.is_some() {
            // A threat proof goes on only by threats: here it has proven
            // nothing, which it reads as a draw.
            return Ok(0);
        }
        // The move that was best here before first: it is likely best
        // again, and its value narrows the window for the rest. Then the
        // cells most likely to matter.
        let weight = |m: &Move| m.to().map_or(0, |c| self.order[c.index()]);
        moves.sort_by_key(|m| (Some(*m) != first, std::cmp::Reverse(weight(m))));
        let outer_cut = std::mem::replace(&mut self.cut, limited);
        let mut best = -i32::MAX;
        let mut best_move = None;
        let window = (alpha, beta);
        for &mv in &moves {
            let next = self.rules.play_unchecked(pos, &self.line, mv)?;
            self.line.push(mv);
            let v = self.child_value(pos, &next, ply + 1, alpha, beta);
            self.line.pop();
            let v = v?;
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                if let Some(c) = mv.to() {
                    let bonus = remaining.min(32);
                    self.order[c.index()] = self.order[c.index()].saturating_add(bonus * bonus);
                }
                break;
            }
        }
        let depth = if self.cut { remaining } else { FULL };
        self.cut |= outer_cut;
        let by_path = by_path || (hooks && self.rules.script().has_read_history());
        if !by_path {
            let entry = Entry::found(best, window, ply, best_move, depth);
            self.table.insert(key, entry);
        }
        Ok(best)
    }
}

/// Whether a line decides the game as soon as it is made, for its owner,
/// and marks are placed one a move, never moved, taken or dropped: then a
/// win in one and a block of the opponent's win in one are forced.
pub(super) fn forcing(rules: &Rulebook) -> bool {
    let t = rules.mechanics();
    t.marks() == Marks::Own
        && t.line_result() == LineResult::OwnerWins
        && t.turns().is_alternating()
        && t.pieces().is_none()
        && t.regions().is_empty()
        && !t.has_gravity()
        && !t.has_captures()
        && t.keep_marks().is_none()
        && !t.has_slides()
        && !t.has_twists()
        && !t.has_stacks()
        && !t.removes()
        && !rules.table().pie
        && !rules.has_per_move_hooks()
}

/// The key `pos` is kept under in the table: its own, and where per-move
/// `hooks` run, which may read the move count and the last move (the
/// position's key leaves them out), those too.
fn table_key(pos: &Position, hooks: bool) -> u64 {
    if !hooks {
        return pos.key();
    }
    let last = match pos.last_move() {
        None => 0,
        Some(Move::Place { to, mark }) => 1 + (u64::from(to.0) << 1 | mark as u64),
        Some(Move::Slide { from, to }) => 1 << 41 | u64::from(from.0) << 16 | u64::from(to.0),
        Some(Move::Step { from, to }) => 1 << 40 | u64::from(from.0) << 16 | u64::from(to.0),
        Some(Move::Twist { to, twist }) => 1 << 42 | u64::from(twist) << 16 | u64::from(to.0),
        Some(Move::Sized { to, size }) => 1 << 43 | u64::from(size) << 16 | u64::from(to.0),
        Some(Move::Take(r)) => {
            1 << 56
                | u64::from(r.from().map_or(u16::MAX, |c| c.0)) << 32
                | u64::from(r.to().0) << 16
                | u64::from(r.take().0)
        }
        Some(Move::Swap) => 2 << 40,
    };
    pos.key()
        ^ u64::from(pos.ply()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ last.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// A position `plies` random moves from the start of `rules`, with its
/// line: `None` where the game ended first.
#[cfg(test)]
pub(super) fn random_position(
    rules: &Rulebook,
    rng: &mut crate::playout::Rng,
    plies: usize,
) -> Option<(Position, Vec<Move>)> {
    let mut list = MoveList::new();
    let mut pos = rules.initial();
    let mut line = Vec::new();
    for _ in 0..plies {
        if pos.is_over() {
            return None;
        }
        let mv = rules.random_move(&pos, &line, rng, &mut list).unwrap()?;
        pos = rules.play_unchecked(&pos, &line, mv).unwrap();
        line.push(mv);
    }
    (!pos.is_over()).then_some((pos, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::Rng;

    /// `deepen` says what the full solve says of every move: a win is a
    /// winning move, `Lost` only when every move loses (and the one it
    /// names holds out longest), `Draws` exactly the drawing moves.
    fn agrees_with_the_full_solve(rules: &Rulebook, pos: &Position) {
        let mut list = MoveList::new();
        rules.legal_moves(pos, &[], &mut list).unwrap();
        let moves = list.to_vec();
        let values = Solver::new(rules, &[], Limit::unbounded())
            .values(pos, &moves)
            .unwrap()
            .unwrap();
        let of = |m: Move| values[moves.iter().position(|&x| x == m).unwrap()];
        let best = *values.iter().max().unwrap();
        let text = rules.position_text(pos);
        match Solver::new(rules, &[], Limit::unbounded())
            .deepen(pos, &moves)
            .unwrap()
        {
            Proof::Win(m, plies) => {
                assert_eq!(of(m), best, "the quickest win: {text}");
                assert_eq!(WIN - best, plies as i32, "{text}");
            }
            Proof::Lost(m) => assert_eq!(of(m), best, "all lose: {text}"),
            Proof::Draws(draws) => {
                let expected: Vec<Move> = moves.iter().copied().filter(|&m| of(m) == 0).collect();
                assert_eq!(best, 0, "{text}");
                assert_eq!(draws, expected, "{text}");
            }
            // Only one move not lost: nothing left to choose.
            Proof::Open(open) if open.len() == 1 => assert_eq!(of(open[0]), best, "{text}"),
            Proof::Open(_) => panic!("an unbounded search ends: {text}"),
        }
    }

    #[test]
    fn deepening_agrees_with_the_full_solve_on_every_position_of_small_games() {
        for name in ["classic", "misere", "wild"] {
            let rules = Rulebook::builtin(name).unwrap();
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![rules.initial()];
            let mut list = MoveList::new();
            while let Some(pos) = stack.pop() {
                if pos.is_over() || !seen.insert(pos.key()) {
                    continue;
                }
                agrees_with_the_full_solve(&rules, &pos);
                rules.legal_moves(&pos, &[], &mut list).unwrap();
                for &mv in list.iter() {
                    stack.push(rules.play_unchecked(&pos, &[], mv).unwrap());
                }
            }
        }
    }

    #[test]
    fn deepening_agrees_with_the_full_solve_on_four_in_a_row() {
        let rules = Rulebook::builtin("four").unwrap();
        let mut rng = Rng::new(7);
        let mut list = MoveList::new();
        for _ in 0..40 {
            // Six to nine marks in: small enough to solve fully here.
            let mut pos = rules.initial();
            for _ in 0..6 + rng.below(4) {
                if pos.is_over() {
                    break;
                }
                let mv = rules
                    .random_move(&pos, &[], &mut rng, &mut list)
                    .unwrap()
                    .unwrap();
                pos = rules.play_unchecked(&pos, &[], mv).unwrap();
            }
            if !pos.is_over() {
                agrees_with_the_full_solve(&rules, &pos);
            }
        }
    }

    #[test]
    fn deepening_stops_at_its_limit_with_the_moves_it_could_not_refute() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let pos = rules.initial();
        let mut list = MoveList::new();
        rules.legal_moves(&pos, &[], &mut list).unwrap();
        let proof = Solver::new(&rules, &[], Limit::nodes(2_000))
            .deepen(&pos, &list)
            .unwrap();
        assert_eq!(proof, Proof::Open(list.to_vec()));
    }
}
