//! Monte Carlo tree search with random playouts, for games too large to
//! solve and without a line structure to weigh.
//!
//! Hard's search is UCT with two additions the field uses: proven values
//! (an MCTS-Solver: a position whose result is known — the game over, a
//! move that wins, every move lost — is scored exactly and never sampled
//! again), and one tree per core, grown from its own seed and merged at
//! the root. Plain UCT, one tree and no proofs, is kept as the yardstick
//! `arena` measures it against.

use super::{At, Budget, Until};
use crate::error::ScriptError;
use crate::kernel::Policy;
use crate::playout::{Playout, Rng};
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use crate::script::ScriptBudget;
use std::time::Instant;

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Config {
    /// Keep proven values in the tree.
    pub(crate) solver: bool,
    /// Trees grown at once, each with the whole budget.
    pub(crate) threads: usize,
    /// How the playouts draw their moves.
    pub(crate) policy: Policy,
}

impl Config {
    /// UCT as textbooks give it: one tree, sampled values only.
    pub(crate) const PLAIN: Config = Config {
        solver: false,
        threads: 1,
        policy: Policy::Uniform,
    };

    /// Hard's search: proven values, and [`TREES`] trees on as many
    /// threads (one where per-move hooks run: their time limits are kept
    /// per thread). The count is fixed, not the machine's cores, so that a
    /// seed gives the same move on every machine.
    pub(crate) fn strong(rules: &Rulebook) -> Config {
        Config {
            solver: true,
            threads: if rules.has_per_move_hooks() { 1 } else { TREES },
            // Where lines remove, random games that take what they are
            // given (see `Policy::Removals`).
            policy: if rules.mechanics().removes() {
                Policy::Removals
            } else {
                Policy::Uniform
            },
        }
    }
}

/// Hard's exploration constant. The textbook √2 spreads the playouts too
/// thin on wide games: measured on the 9×9 board of nine regions with
/// `arena <rulebook> hard uct 20`, 0.5
/// scored 82.5 % against plain UCT, 1.0 77.5 %, 0.3 70 %, and √2 55 %.
const EXPLORATION: f64 = 0.5;

/// Trees hard grows, each on its own thread: two, the cores of the machine
/// the search was tuned on (a fixed count, see [`Config::strong`]).
const TREES: usize = 2;

/// One node of the search tree.
#[derive(Debug, Clone)]
struct Node {
    mv: Option<Move>,
    /// The side that made `mv` (within a turn of several marks, the side
    /// that moves next may be the same).
    mover: Side,
    /// The side to move in the node's position.
    to_move: Side,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: u32,
    /// Sum of results for the side that moved into this node (1 win, ½ draw).
    score: f64,
    /// The result under perfect play from here, once known.
    proven: Option<Outcome>,
}

/// What one tree says of a root move.
#[derive(Debug, Clone, Copy)]
struct RootChild {
    mv: Move,
    visits: u32,
    score: f64,
    proven: Option<Outcome>,
}

/// The trees of a game's last search, kept for the next (tree reuse): once
/// the moves since have been played, the subtree of the position they
/// reach already holds the playouts spent on it, and the search goes on
/// from there. Deterministic: the same calls give the same moves. The
/// trees are matched by the rulebook's name: a holder that changes the
/// rules under one name (a file edited and loaded again, a table rule
/// switched) starts a new `Memory`.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// The moves from the game's start to the trees' root.
    line: Vec<Move>,
    /// The trees' root position.
    root: Option<Position>,
    /// The rulebook's name and the search's settings the trees grew with.
    grown_by: Option<(String, Config)>,
    trees: Vec<Vec<Node>>,
}

impl Memory {
    /// Playouts the kept trees hold at their roots, all trees together.
    pub fn visits(&self) -> u64 {
        self.trees
            .iter()
            .filter_map(|t| t.first())
            .map(|root| u64::from(root.visits))
            .sum()
    }

    /// The kept trees re-rooted at the position `history` reaches, with the
    /// root's moves limited to `root_moves`; empty trees where nothing
    /// matches (another rulebook or setting, a move undone, a move the
    /// tree never tried).
    fn take(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        history: &[Move],
        root_moves: &[Move],
        config: Config,
    ) -> Vec<Vec<Node>> {
        let trees = std::mem::take(&mut self.trees);
        let same = self.grown_by.as_ref() == Some(&(rules.name().to_string(), config))
            && history.starts_with(&self.line);
        let Some(mut reached) = self.root.filter(|_| same) else {
            return Vec::new();
        };
        let since = &history[self.line.len()..];
        // The same moves from another start (a new game set up) reach
        // another position, or none: replay them, checked, to be sure.
        let mut line = self.line.clone();
        for &mv in since {
            match rules.play(&reached, &line, mv) {
                Ok(next) => reached = next,
                Err(_) => return Vec::new(),
            }
            line.push(mv);
        }
        if reached != *pos {
            return Vec::new();
        }
        trees
            .into_iter()
            .filter_map(|nodes| reroot(&nodes, since, root_moves))
            .collect()
    }

    fn keep(
        &mut self,
        rules: &Rulebook,
        pos: &Position,
        history: &[Move],
        config: Config,
        trees: Vec<Vec<Node>>,
    ) {
        self.line = history.to_vec();
        self.root = Some(*pos);
        self.grown_by = Some((rules.name().to_string(), config));
        self.trees = trees;
    }
}

/// The subtree of `nodes` reached by `since` from its root, copied so that
/// its root is node 0, with the root's moves limited to `root_moves`.
fn reroot(nodes: &[Node], since: &[Move], root_moves: &[Move]) -> Option<Vec<Node>> {
    let mut at = 0;
    for &mv in since {
        at = *nodes[at]
            .children
            .iter()
            .find(|&&c| nodes[c].mv == Some(mv))?;
    }
    let mut out: Vec<Node> = Vec::new();
    // Breadth first, renumbering: a node's children are copied after it.
    let mut queue = std::collections::VecDeque::from([(at, usize::MAX)]);
    while let Some((old, parent)) = queue.pop_front() {
        let mut node = nodes[old].clone();
        let children = std::mem::take(&mut node.children);
        let new = out.len();
        out.push(node);
        if parent != usize::MAX {
            out[parent].children.push(new);
        }
        for c in children {
            // The root keeps only the moves still asked about.
            if parent != usize::MAX
                || root_moves.contains(&nodes[c].mv.expect("a child has a move"))
            {
                queue.push_back((c, new));
            }
        }
    }
    let tried: Vec<Move> = out[0].children.iter().filter_map(|&c| out[c].mv).collect();
    let root = &mut out[0];
    root.mv = None;
    root.untried = root_moves
        .iter()
        .copied()
        .filter(|m| !tried.contains(m))
        .collect();
    // Proven from moves no longer all asked about: prove it again.
    root.proven = None;
    Some(out)
}

/// What bounds a search: its budget; when it must stop, whatever the
/// budget says; and the scripts' budget, which holds on every thread that
/// grows a tree.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds<'a> {
    pub(super) budget: Budget,
    pub(super) until: Until<'a>,
    pub(super) scripts: &'a ScriptBudget,
}

impl Bounds<'_> {
    /// Whether a tree that started growing at `started` is done after
    /// `iterations`: its budget spent, or its `until` passed. `hooks`: the
    /// rulebook has per-move hooks, and an iteration may take long.
    fn spent(&self, iterations: u32, started: Instant, hooks: bool) -> bool {
        // Reading the clock costs about a 3×3 playout: look every 64
        // iterations, or every one where a hook's calls cost far more.
        let look = hooks || iterations.is_multiple_of(64);
        match self.budget {
            Budget::Time(d) => {
                iterations > 0 && look && (started.elapsed() >= d || self.until.passed())
            }
            Budget::Playouts(n) => iterations >= n || (look && self.until.passed()),
        }
    }
}

/// Monte Carlo tree search from `at`, over `root_moves`, within `bounds`:
/// the chosen move and its average score for the mover; `None` without
/// moves. With a `memory`, the search starts from the trees kept there
/// (where they match) and keeps its own for the next.
pub(super) fn mcts(
    at: &At<'_>,
    root_moves: &[Move],
    rng: &mut Rng,
    bounds: Bounds,
    config: Config,
    memory: Option<&mut Memory>,
) -> Result<Option<(Move, f64)>, ScriptError> {
    let (rules, pos, history) = (at.rules, at.pos, at.history);
    let seeds: Vec<u64> = (0..config.threads.max(1)).map(|_| rng.next_u64()).collect();
    let mut memory = memory;
    let mut kept = match memory.as_deref_mut() {
        Some(m) => m.take(rules, pos, history, root_moves, config),
        None => Vec::new(),
    };
    kept.resize_with(seeds.len(), Vec::new);
    let grow_tree = |seed, tree| {
        // The request's scripts' budget holds on every thread a tree grows on.
        bounds
            .scripts
            .run(|| grow(at, root_moves, seed, bounds, config, tree))
    };
    let grown: Vec<Result<Vec<Node>, ScriptError>> = if seeds.len() == 1 {
        let tree = kept.pop().unwrap_or_default();
        vec![grow_tree(seeds[0], tree)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = seeds
                .iter()
                .zip(kept)
                .map(|(&seed, tree)| scope.spawn(move || grow_tree(seed, tree)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    let grown: Vec<Vec<Node>> = grown.into_iter().collect::<Result<_, _>>()?;
    let trees: Vec<Vec<RootChild>> = grown.iter().map(|nodes| root_children(nodes)).collect();
    if let Some(m) = memory {
        m.keep(rules, pos, history, config, grown);
    }
    let me = pos.turn();
    let mut merged: Vec<RootChild> = Vec::new();
    for tree in trees {
        for c in tree {
            match merged.iter_mut().find(|m| m.mv == c.mv) {
                Some(m) => {
                    m.visits += c.visits;
                    m.score += c.score;
                    m.proven = m.proven.or(c.proven);
                }
                None => merged.push(c),
            }
        }
    }
    let mover_of = |mv: Move| if mv == Move::Swap { me.other() } else { me };
    // A proven win is played at once; proven losses only when all are.
    if let Some(win) = merged
        .iter()
        .find(|c| c.proven == Some(Outcome::Win(mover_of(c.mv))))
    {
        return Ok(Some((win.mv, 1.0)));
    }
    let lost = |c: &RootChild| matches!(c.proven, Some(Outcome::Win(s)) if s != mover_of(c.mv));
    let best = merged
        .iter()
        .filter(|c| !lost(c))
        .max_by_key(|c| c.visits)
        .or_else(|| merged.iter().max_by_key(|c| c.visits));
    // No child at all (no budget): the first move, worth what nobody knows.
    Ok(match best {
        Some(c) => Some((c.mv, c.score / f64::from(c.visits.max(1)))),
        None => root_moves.first().map(|&m| (m, 0.5)),
    })
}

/// One tree, from its own seed, grown from `tree` (empty: from the root
/// alone), keeping proven values and drawing its playouts as `config`
/// says. It stops at its budget or at its deadline, whichever comes first.
fn grow(
    at: &At<'_>,
    root_moves: &[Move],
    seed: u64,
    bounds: Bounds,
    config: Config,
    tree: Vec<Node>,
) -> Result<Vec<Node>, ScriptError> {
    let (rules, pos, history) = (at.rules, at.pos, at.history);
    let solver = config.solver;
    let mut rng = Rng::new(seed);
    let c = if solver {
        EXPLORATION
    } else {
        std::f64::consts::SQRT_2
    };
    let started = Instant::now();
    let mut nodes = tree;
    if nodes.is_empty() {
        nodes.push(Node::new(
            None,
            pos.turn().other(),
            pos,
            root_moves.to_vec(),
        ));
    }
    let mut playout = Playout::new().drawing(config.policy);
    let mut list = MoveList::new();
    let mut path = Vec::new();
    let mut walk = Walk {
        state: *pos,
        line: Vec::new(),
        hooks: rules.has_per_move_hooks(),
    };
    let mut iterations = 0u32;
    while !bounds.spent(iterations, started, walk.hooks) && nodes[0].proven.is_none() {
        iterations += 1;
        path.clear();
        path.push(0);
        walk.restart(pos, history);
        let mut node = 0;
        // Select, stopping at a node whose value is known.
        while nodes[node].untried.is_empty()
            && !nodes[node].children.is_empty()
            && nodes[node].proven.is_none()
        {
            let log_n = f64::from(nodes[node].visits).ln();
            node = *nodes[node]
                .children
                .iter()
                .max_by(|&&a, &&b| uct(&nodes[a], log_n, c).total_cmp(&uct(&nodes[b], log_n, c)))
                .expect("children is not empty");
            let mv = nodes[node].mv.expect("non-root nodes have a move");
            walk.play(rules, mv)?;
            path.push(node);
        }
        // Expand.
        let state = &walk.state;
        if !nodes[node].untried.is_empty() && nodes[node].proven.is_none() && !state.is_over() {
            let i = rng.below(nodes[node].untried.len());
            let mv = nodes[node].untried.swap_remove(i);
            // Whose result the node scores: the mover's, or after a swap
            // the side the mover takes.
            let mover = match mv {
                Move::Swap => state.turn().other(),
                _ => state.turn(),
            };
            walk.play(rules, mv)?;
            let (state, line) = (&walk.state, &walk.line);
            let untried = if state.is_over() {
                Vec::new()
            } else {
                rules.legal_moves(state, line, &mut list)?;
                list.to_vec()
            };
            let mut child = Node::new(Some(mv), mover, state, untried);
            child.proven = if solver { state.outcome() } else { None };
            nodes.push(child);
            let child = nodes.len() - 1;
            nodes[node].children.push(child);
            path.push(child);
        }
        // Simulate (a proven node needs none), then back up.
        let leaf = *path.last().expect("the path holds the root");
        let outcome = match nodes[leaf].proven {
            Some(o) => o,
            None => playout.run(rules, &walk.state, &walk.line, &mut rng)?,
        };
        back_up(&mut nodes, &path, outcome, solver);
    }
    Ok(nodes)
}

impl Node {
    /// A node not yet visited, reached by `mv` (the root: none) made by
    /// `mover`, whose position is `state`, with `untried` moves.
    fn new(mv: Option<Move>, mover: Side, state: &Position, untried: Vec<Move>) -> Node {
        Node {
            mv,
            mover,
            to_move: state.turn(),
            children: Vec::new(),
            untried,
            visits: 0,
            score: 0.0,
            proven: None,
        }
    }
}

/// One iteration's walk down a tree: the position reached, and the moves
/// from the game's start to it (kept for per-move hooks only).
struct Walk {
    state: Position,
    line: Vec<Move>,
    hooks: bool,
}

impl Walk {
    /// Back at the root, `pos` reached by `history`.
    fn restart(&mut self, pos: &Position, history: &[Move]) {
        self.state = *pos;
        self.line.clear();
        if self.hooks {
            self.line.extend_from_slice(history);
        }
    }

    /// One step down, by `mv`.
    fn play(&mut self, rules: &Rulebook, mv: Move) -> Result<(), ScriptError> {
        rules.apply(&mut self.state, &self.line, mv)?;
        if self.hooks {
            self.line.push(mv);
        }
        Ok(())
    }
}

/// Scores `outcome` on every node of `path` from the point of view of the
/// node's mover, deepest first, proving what can be proven.
fn back_up(nodes: &mut [Node], path: &[usize], outcome: Outcome, solver: bool) {
    for &n in path.iter().rev() {
        if solver && nodes[n].proven.is_none() {
            nodes[n].proven = prove(nodes, n);
        }
        let node = &mut nodes[n];
        node.visits += 1;
        node.score += match outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(s) if s == node.mover => 1.0,
            Outcome::Win(_) => 0.0,
        };
    }
}

/// What a tree says of each of its root's moves.
fn root_children(nodes: &[Node]) -> Vec<RootChild> {
    nodes[0]
        .children
        .iter()
        .map(|&c| RootChild {
            mv: nodes[c].mv.expect("children have moves"),
            visits: nodes[c].visits,
            score: nodes[c].score,
            proven: nodes[c].proven,
        })
        .collect()
}

/// The value of node `n` if its children prove it: a child won for the
/// side to move wins; once every move is tried and proven, the best of
/// them for the side to move.
fn prove(nodes: &[Node], n: usize) -> Option<Outcome> {
    let node = &nodes[n];
    // After a swap the players change sides, so "the side to move" does
    // not say whose choice it is: such nodes stay unproven.
    if node
        .children
        .iter()
        .any(|&c| nodes[c].mv == Some(Move::Swap))
    {
        return None;
    }
    let s = node.to_move;
    let mut all = node.untried.is_empty() && !node.children.is_empty();
    let mut draw = false;
    for &c in &node.children {
        match nodes[c].proven {
            Some(Outcome::Win(w)) if w == s => return Some(Outcome::Win(w)),
            Some(Outcome::Draw) => draw = true,
            Some(Outcome::Win(_)) => {}
            None => all = false,
        }
    }
    if !all {
        return None;
    }
    Some(if draw {
        Outcome::Draw
    } else {
        Outcome::Win(s.other())
    })
}

/// The UCT value of a child for its mover; a proven child is worth its
/// proof, without exploration.
fn uct(node: &Node, log_parent: f64, c: f64) -> f64 {
    match node.proven {
        Some(Outcome::Win(s)) if s == node.mover => return f64::INFINITY,
        Some(Outcome::Win(_)) => return f64::NEG_INFINITY,
        Some(Outcome::Draw) => return 0.5,
        None => {}
    }
    if node.visits == 0 {
        return f64::INFINITY;
    }
    let n = f64::from(node.visits);
    node.score / n + c * (log_parent / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_proves_a_double_threat_that_sampling_only_estimates() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        // X: b1 c1, O: b2 c2. X d1 threatens a1 and e1 at once: a win in 3.
        let moves = ["b1", "b2", "c1", "c2"];
        let (pos, line) = after(&rules, &moves);
        let d1 = rules.parse_move(&pos, &line, "d1").unwrap();
        let (mv, value) = search_with(&rules, &moves, 3000, STRONG, None);
        assert_eq!((mv, value), (d1, 1.0), "proven: {}", rules.move_text(mv));
        let (_, sampled) = search_with(&rules, &moves, 3000, Config::PLAIN, None);
        assert!(sampled < 1.0, "plain UCT only estimates: {sampled}");
    }

    /// The position `texts` reach from the start, with its history.
    fn after(rules: &Rulebook, texts: &[&str]) -> (Position, Vec<Move>) {
        let mut pos = rules.initial();
        let mut line = Vec::new();
        for t in texts {
            let mv = rules.parse_move(&pos, &line, t).unwrap();
            pos = rules.play(&pos, &line, mv).unwrap();
            line.push(mv);
        }
        (pos, line)
    }

    static UNLIMITED: ScriptBudget = ScriptBudget::UNLIMITED;

    /// `playouts` a tree, without a deadline.
    fn bounds(playouts: u32) -> Bounds<'static> {
        Bounds {
            budget: Budget::Playouts(playouts),
            until: Until::never(),
            scripts: &UNLIMITED,
        }
    }

    /// Hard's search: proven values, two trees.
    const STRONG: Config = Config {
        solver: true,
        threads: 2,
        policy: Policy::Uniform,
    };

    /// Hard draws removals first only where lines remove; medium and
    /// `uct` (the plain search) never do.
    #[test]
    fn hard_draws_removals_first_only_where_lines_remove() {
        let nmm = Rulebook::builtin("nine-mens-morris").unwrap();
        let classic = Rulebook::builtin("classic").unwrap();
        assert_eq!(Config::strong(&nmm).policy, Policy::Removals);
        assert_eq!(Config::strong(&classic).policy, Policy::Uniform);
        assert_eq!(Config::PLAIN.policy, Policy::Uniform);
    }

    /// The search's move and value after `texts`, at `playouts` a tree.
    fn search_with(
        rules: &Rulebook,
        texts: &[&str],
        playouts: u32,
        config: Config,
        memory: Option<&mut Memory>,
    ) -> (Move, f64) {
        let (pos, line) = after(rules, texts);
        let mut list = MoveList::new();
        rules.legal_moves(&pos, &line, &mut list).unwrap();
        let mut rng = Rng::new(1);
        let at = At::new(rules, &pos, &line);
        mcts(&at, &list, &mut rng, bounds(playouts), config, memory)
            .unwrap()
            .unwrap()
    }

    /// Hard's move after `texts`.
    fn search(
        rules: &Rulebook,
        texts: &[&str],
        playouts: u32,
        memory: Option<&mut Memory>,
    ) -> Move {
        search_with(rules, texts, playouts, STRONG, memory).0
    }

    #[test]
    fn the_next_search_grows_the_subtree_of_the_moves_played_since() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let mut memory = Memory::default();
        let first = search(&rules, &["d1"], 3000, Some(&mut memory));
        assert_eq!(memory.visits(), 2 * 3000, "two trees of 3000 playouts");
        // The computer's move and an answer: the answer's subtree already
        // holds playouts, which the next search starts from.
        let mv = rules.move_text(first);
        let (pos, line) = after(&rules, &["d1", &mv]);
        let mut list = MoveList::new();
        rules.legal_moves(&pos, &line, &mut list).unwrap();
        let answer = rules.move_text(list[0]);
        search(&rules, &["d1", &mv, &answer], 100, Some(&mut memory));
        assert!(memory.visits() > 2 * 100, "reused: {}", memory.visits());
        // Undone moves, or none kept: the search starts afresh.
        search(&rules, &["d1"], 100, Some(&mut memory));
        assert_eq!(memory.visits(), 2 * 100);
    }

    #[test]
    fn trees_from_another_rulebook_or_start_are_not_grown_on() {
        let four = Rulebook::builtin("four").unwrap();
        let drop = Rulebook::builtin("connect-four").unwrap();
        let mut memory = Memory::default();
        search(&four, &[], 500, Some(&mut memory));
        search(&drop, &[], 100, Some(&mut memory));
        assert_eq!(memory.visits(), 2 * 100, "another rulebook");
        search(&drop, &["d1"], 100, Some(&mut memory));
        assert!(memory.visits() > 2 * 100, "the same rulebook, a move on");
        // The same (empty) history from another start: not the same game.
        let set_up = drop.parse_position("7/7/7/7/7/3X3 O - -").unwrap();
        let mut list = MoveList::new();
        drop.legal_moves(&set_up, &[], &mut list).unwrap();
        let mut rng = Rng::new(1);
        let at = At::new(&drop, &set_up, &[]);
        mcts(&at, &list, &mut rng, bounds(100), STRONG, Some(&mut memory)).unwrap();
        assert_eq!(memory.visits(), 2 * 100, "another start");
    }
}
