//! Exact negamax with alpha-beta and a transposition table, for game trees
//! without cycles; it gives up when the tree is larger than its limit.

use super::Limit;
use crate::error::ScriptError;
use crate::position::{Move, MoveList, Outcome, Position};
use crate::rulebook::Rulebook;
use std::collections::HashMap;

/// A won game is worth `WIN - plies`: quicker wins score higher.
pub(super) const WIN: i32 = 1000;

/// Plies beyond which a solve gives up: a game without a repetition rule may
/// still cycle.
const MAX_DEPTH: u32 = 100;

/// What the table knows of a position.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Counted from the position itself (see [`to_node`]).
    value: i32,
    bound: Bound,
    best: Option<Move>,
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

/// One solve from one root: the table is valid only for that root, as values
/// count plies from it.
pub(super) struct Solver<'a> {
    rules: &'a Rulebook,
    /// The moves from the game's start to the node being searched.
    line: Vec<Move>,
    table: HashMap<u64, Entry>,
    nodes: u64,
    limit: Limit<'a>,
}

impl<'a> Solver<'a> {
    pub(super) fn new(rules: &'a Rulebook, history: &[Move], limit: Limit<'a>) -> Solver<'a> {
        Solver {
            rules,
            line: history.to_vec(),
            table: HashMap::new(),
            nodes: 0,
            limit,
        }
    }

    /// Whether the method applies: a repetition rule makes values depend on
    /// the path, which a transposition table ignores.
    pub(super) fn applies(rules: &Rulebook) -> bool {
        rules.tables().repetition().is_none()
    }

    /// The best of `moves` by exact value, preferring quick wins and slow
    /// losses; `None` when the tree is too big to solve.
    pub(super) fn best(
        &mut self,
        pos: &Position,
        moves: &[Move],
    ) -> Result<Option<Move>, ScriptError> {
        let mut best = None;
        let mut alpha = -i32::MAX;
        for &mv in moves {
            match self.move_value(pos, mv, alpha, i32::MAX) {
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
        let mut first = None;
        if by_path {
            self.table.clear();
        } else if let Some(&entry) = self.table.get(&key) {
            let v = from_node(entry.value, ply);
            match entry.bound {
                Bound::Exact => return Ok(v),
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return Ok(v);
            }
            first = entry.best;
        }
        let mut list = MoveList::new();
        self.rules.legal_moves(pos, &self.line, &mut list)?;
        let mut moves = list.to_vec();
        // The move that was best here before is tried first: it is likely
        // best again, and its value narrows the window for the rest.
        if let Some(i) = first.and_then(|m| moves.iter().position(|&x| x == m)) {
            moves.swap(0, i);
        }
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
                break;
            }
        }
        let by_path = by_path || (hooks && self.rules.script().has_read_history());
        if !by_path {
            let bound = if best <= window.0 {
                Bound::Upper
            } else if best >= window.1 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                value: to_node(best, ply),
                bound,
                best: best_move,
            };
            self.table.insert(key, entry);
        }
        Ok(best)
    }
}
