//! Monte Carlo tree search (UCT) with random playouts, for games too large
//! to solve and without a line structure to weigh.

use super::Budget;
use crate::error::ScriptError;
use crate::playout::{Playout, Rng};
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use std::time::Instant;

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
pub(super) fn mcts(
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
