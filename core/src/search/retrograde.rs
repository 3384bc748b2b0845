//! Retrograde analysis: every position reachable from a root, valued from
//! the ends backwards. Exact for games with cycles, where a tree search never
//! ends: a position from which neither side can force a result is a draw,
//! which is what a repetition rule makes of it. A winner that follows the
//! shortest win never repeats a position, so the repetition rule cannot take
//! a win away. The graph from a rulebook's initial position is built once
//! and kept for as long as the rulebook is.

use super::Limit;
use super::kept::Kept;
use crate::error::ScriptError;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Positions the analysis may hold before it gives up (about 30 MB while
/// it builds, a tenth of that kept).
pub const MAX_POSITIONS: usize = 300_000;

/// The value of a position under perfect play from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Neither side can force a result.
    Draw,
    /// `side` wins, in `plies` moves when the winner hurries and the loser
    /// holds out.
    Win {
        /// The winner.
        side: Side,
        /// Moves to the end.
        plies: u32,
    },
}

/// Every position reachable from a root, with its value.
#[derive(Debug)]
pub(crate) struct Graph {
    index: HashMap<u64, u32>,
    values: Vec<Value>,
}

/// Exact values of positions, from a graph or a table.
pub(super) trait Values {
    /// The value of `pos`, if it is held.
    fn value(&self, pos: &Position) -> Option<Value>;
}

impl Values for Graph {
    fn value(&self, pos: &Position) -> Option<Value> {
        self.index.get(&pos.key()).map(|&i| self.values[i as usize])
    }
}

/// Why a graph or a table was not built.
pub(super) enum Unbuilt {
    /// More positions than [`MAX_POSITIONS`], or moves it cannot follow.
    TooLarge,
    /// The limit's time ran out or it was interrupted first.
    OutOfTime,
}

impl Graph {
    /// Whether the method applies: positions alone must decide the game,
    /// which per-move hooks (they may read the path) and the pie rule's swap
    /// (it exchanges the players, not the sides) do not allow.
    pub(super) fn applies(rules: &Rulebook) -> bool {
        !rules.has_per_move_hooks() && !rules.table().pie
    }

    /// The graph of the positions reachable from `root`.
    pub(super) fn build(
        rules: &Rulebook,
        root: &Position,
        limit: &Limit<'_>,
    ) -> Result<Result<Graph, Unbuilt>, ScriptError> {
        let mut positions = vec![*root];
        let mut index = HashMap::from([(root.key(), 0u32)]);
        // The children of position i are children[first[i]..first[i + 1]].
        let mut first = vec![0u32];
        let mut children: Vec<u32> = Vec::new();
        let mut list = MoveList::new();
        let mut i = 0;
        while i < positions.len() {
            if limit.reached(i as u64) {
                return Ok(Err(Unbuilt::OutOfTime));
            }
            let pos = positions[i];
            if !pos.is_over() {
                rules.legal_moves(&pos, &[], &mut list)?;
                for &mv in list.iter() {
                    if mv == Move::Swap {
                        return Ok(Err(Unbuilt::TooLarge));
                    }
                    let next = rules.play_unchecked(&pos, &[], mv)?;
                    let n = positions.len() as u32;
                    let child = *index.entry(next.key()).or_insert(n);
                    if child == n {
                        if positions.len() >= MAX_POSITIONS {
                            return Ok(Err(Unbuilt::TooLarge));
                        }
                        positions.push(next);
                    }
                    children.push(child);
                }
            }
            first.push(children.len() as u32);
            i += 1;
        }
        let values = solve(&positions, &first, &children);
        Ok(Ok(Graph { index, values }))
    }

    /// The graph from `rules`' initial position, built on first use within
    /// `limit` and kept (see [`GRAPHS`]): `None` when it is too large
    /// (which is kept too) or when `limit` ran out first (which is not: a
    /// later call may have the time).
    pub(super) fn of_rulebook(
        rules: &Rulebook,
        limit: &Limit<'_>,
    ) -> Result<Option<Arc<Graph>>, ScriptError> {
        let load = Arc::downgrade(&rules.script);
        if let Some(kept) = GRAPHS.get(&load) {
            return Ok(kept);
        }
        let built = match Graph::build(rules, &rules.initial(), limit)? {
            Ok(g) => Some(Arc::new(g)),
            Err(Unbuilt::TooLarge) => None,
            Err(Unbuilt::OutOfTime) => return Ok(None),
        };
        Ok(GRAPHS.keep(load, built))
    }
}

/// The graphs built from rulebooks' initial positions (see [`Kept`]).
static GRAPHS: Kept<Graph> = Kept::new();

/// Values every position from the ends backwards, breadth first: a position
/// is won for its mover as soon as one child is, with the shortest such win;
/// lost once every child is lost, with the longest; what is left is drawn.
fn solve(positions: &[Position], first: &[u32], children: &[u32]) -> Vec<Value> {
    let n = positions.len();
    // Parents in the same layout as children: parents of i in parents[up[i]..up[i + 1]].
    let mut up = vec![0u32; n + 1];
    for &c in children {
        up[c as usize + 1] += 1;
    }
    for i in 0..n {
        up[i + 1] += up[i];
    }
    let mut fill = up.clone();
    let mut parents = vec![0u32; children.len()];
    for p in 0..n {
        for &c in &children[first[p] as usize..first[p + 1] as usize] {
            parents[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    let mut value: Vec<Option<Value>> = vec![None; n];
    let mut unresolved: Vec<u32> = (0..n).map(|i| first[i + 1] - first[i]).collect();
    let mut queue = VecDeque::new();
    for (i, pos) in positions.iter().enumerate() {
        match pos.outcome() {
            Some(Outcome::Win(side)) => {
                value[i] = Some(Value::Win { side, plies: 0 });
                queue.push_back(i);
            }
            Some(Outcome::Draw) => value[i] = Some(Value::Draw),
            None => {}
        }
    }
    while let Some(c) = queue.pop_front() {
        let Some(Value::Win { side, plies }) = value[c] else {
            continue;
        };
        for &p in &parents[up[c] as usize..up[c + 1] as usize] {
            let p = p as usize;
            if value[p].is_some() {
                continue;
            }
            let mover = positions[p].turn();
            if side == mover {
                value[p] = Some(Value::Win {
                    side,
                    plies: plies + 1,
                });
                queue.push_back(p);
            } else {
                unresolved[p] -= 1;
                if unresolved[p] == 0 {
                    value[p] = Some(Value::Win {
                        side,
                        plies: plies + 1,
                    });
                    queue.push_back(p);
                }
            }
        }
    }
    value
        .into_iter()
        .map(|v| v.unwrap_or(Value::Draw))
        .collect()
}

#[cfg(test)]
/// Every position reachable from the initial one, found by the engine.
pub(super) fn reachable(rules: &Rulebook) -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    let mut all = vec![rules.initial()];
    seen.insert(all[0].key());
    let mut list = MoveList::new();
    let mut i = 0;
    while i < all.len() {
        let pos = all[i];
        i += 1;
        if pos.is_over() {
            continue;
        }
        rules.legal_moves(&pos, &[], &mut list).unwrap();
        for &mv in list.iter() {
            let next = rules.play_unchecked(&pos, &[], mv).unwrap();
            if seen.insert(next.key()) {
                all.push(next);
            }
        }
    }
    all
}
