//! Alpha-beta and threat sequences on a [`Board`]: principal variation
//! search by iterative deepening with a transposition table, a forced
//! block searched without spending depth, and at the root a search for a
//! win by fours, then by fours and threes (VCF, VCT: [`sequences`]), for
//! the side to move and, after each candidate, for the opponent; where a
//! turn has two marks,
//! a win by forcing turns ([`turns`]) for the mover, then alpha-beta mark
//! by mark, at a turn's last mark over the candidates after which the
//! opponent has none. Where a turn is one mark, the mover's own threat
//! sequences run on a second thread, beside the rest; alpha-beta may
//! deepen on more threads sharing its table (Lazy SMP), where the move
//! need not repeat.

mod sequences;
mod turns;

use super::board::Board;
use super::proofs::Proofs;
use super::tt::{Bound, Table};
use crate::position::Side;
use crate::search::Until;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A win's score, less the plies to it (the threat search's scale, so a
/// report reads both alike).
pub(crate) const WIN: i32 = crate::search::threats::WIN;
/// Cells alpha-beta tries at each node, the most promising first.
const WIDTH: usize = 12;
/// Moves of a node searched at full depth at once; the later ones are
/// searched a ply shallower first. In `arena` on five in a row at a fixed
/// budget in nodes (docs/playing.md) this scored 62.5 % against the search
/// without.
const REDUCE_FROM: usize = 3;
/// Plies from the root past which no node searches deeper: forced blocks
/// extend a line without spending depth, and this bounds them.
const MAX_PLY: i32 = 60;
/// Attacker's moves a threat sequence may take.
const VCF_DEPTH: u32 = 14;
const VCT_DEPTH: u32 = 7;
/// Attacker's turns a threat sequence of two-mark turns may take.
const TURNS_DEPTH: u32 = 6;
/// Positions the threat sequences keep answers for: 2^16 (1 MiB).
const PROOF_BITS: u32 = 16;

/// A threat search that ran out of its nodes or time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unknown;

/// What the search found at the root.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Found {
    /// The cell to play.
    pub(super) cell: Option<usize>,
    /// Plies to the win a threat sequence found, against the longest
    /// defence it considered.
    pub(super) plies: Option<u32>,
    /// How it was found.
    pub(super) how: How,
    /// Alpha-beta's last complete depth and value for the mover.
    pub(super) depth: Option<u32>,
    pub(super) value: Option<i32>,
}

/// Which part of the search chose the move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum How {
    /// A line completed, or the opponent's blocked.
    #[default]
    AtOnce,
    /// A win by continuous fours.
    Fours,
    /// A win by fours and threes.
    Threats,
    /// Where a turn has two marks, a win by turns each forcing the
    /// opponent's whole turn.
    Turns,
    /// The centre of an empty board.
    Centre,
    /// Alpha-beta.
    AlphaBeta,
}

/// One move's search.
pub(super) struct Search<'s, 'u> {
    pub(super) board: Board<'s>,
    tt: Arc<Table>,
    /// Threads besides this one that deepen alpha-beta beside it, on the
    /// same table (Lazy SMP): none where the move must repeat.
    helpers: usize,
    /// What the threat sequences have settled.
    proofs: Proofs,
    pub(super) nodes: u64,
    /// Of `nodes`, those the helper threads visited.
    helper_nodes: u64,
    node_limit: u64,
    until: Until<'u>,
    /// Raised when a search beside this one has found the move: this
    /// one's answer will not be asked for.
    quit: Arc<AtomicBool>,
    threat_nodes: u64,
    threat_limit: u64,
    /// Whether a sequence of turns stopped at its depth since it was last
    /// asked: if none did, a deeper one finds nothing more.
    turns_cut: bool,
}

impl<'s, 'u> Search<'s, 'u> {
    /// A search of `board` within `nodes` alpha-beta nodes and `until`.
    pub(super) fn new(board: Board<'s>, nodes: u64, until: Until<'u>) -> Search<'s, 'u> {
        // About a node per entry for the searches a second allows, and a
        // table of 2^20 entries (16 MiB) at most.
        let bits = (64 - nodes.max(1 << 12).leading_zeros()).min(20);
        let quit = Arc::new(AtomicBool::new(false));
        Search::sharing(board, Arc::new(Table::new(bits)), nodes, until, quit)
    }

    /// A search of `board` on the table `tt`, which it may share, that
    /// stops when `quit` is raised.
    fn sharing(
        board: Board<'s>,
        tt: Arc<Table>,
        nodes: u64,
        until: Until<'u>,
        quit: Arc<AtomicBool>,
    ) -> Search<'s, 'u> {
        Search {
            board,
            tt,
            helpers: 0,
            proofs: Proofs::new(PROOF_BITS),
            nodes: 0,
            helper_nodes: 0,
            node_limit: nodes,
            until,
            quit,
            threat_nodes: 0,
            threat_limit: 0,
            turns_cut: false,
        }
    }

    /// This search, with `threads` threads for alpha-beta in all: its
    /// moves then depend on how fast each runs.
    pub(super) fn on_threads(mut self, threads: usize) -> Search<'s, 'u> {
        self.helpers = threads.saturating_sub(1);
        self
    }

    fn late(&self) -> bool {
        self.quit.load(Ordering::Relaxed) || self.until.passed()
    }

    /// The best of `candidates` (open cells) for the side to move.
    pub(super) fn best(&mut self, candidates: &[usize]) -> Found {
        let me = self.board.turn;
        let mut found = Found::default();
        if let [only] = candidates {
            found.cell = Some(*only);
            return found;
        }
        if self.board.is_bare() {
            // No mark yet: every cell is as good to the search, so the
            // centre, where the most lines cross (the shapes there say
            // nothing: a lone mark by the edge is a closed one).
            let b = &self.board;
            let rank = |c: usize| b.weights_order(c) * b.shape.centre_scale + b.shape.centre[c];
            found.cell = candidates.iter().copied().max_by_key(|&c| rank(c));
            found.how = How::Centre;
            return found;
        }
        if !self.board.shape.alternating() {
            return self.best_of_turns(candidates);
        }
        let legal = |c: &usize| candidates.contains(c);
        if let Some(&c) = self.board.wins(me, 1).iter().find(|c| legal(c)) {
            found.cell = Some(c);
            return found;
        }
        if self.board.shape.captures() {
            let theirs = self.board.wins(me.other(), usize::MAX);
            if !theirs.is_empty() {
                return self.best_answer(&theirs, candidates);
            }
        }
        let theirs = self.board.wins(me.other(), 2);
        if let Some(&c) = theirs.iter().find(|c| legal(c)) {
            found.cell = Some(c);
            // Two winning cells cannot both be blocked: lost in two.
            found.value = (theirs.len() >= 2).then_some(2 - WIN);
            return found;
        }
        // A threat sequence's budget: a share of the whole, no more.
        let share = (self.node_limit / 8).clamp(2_000, 200_000);
        let mut ordered: Vec<usize> = candidates.to_vec();
        self.ranked(&mut ordered);
        // The mover's own threat sequences and the search of the moves
        // after which the opponent has none ask nothing of each other: they
        // run side by side, the first on a copy of the board, so that on a
        // budget in nodes the move is the one they would give one after the
        // other, sooner (by the clock alpha-beta gets more of the time).
        let mut threats = self.copy(Arc::new(Table::new(0)), Arc::new(AtomicBool::new(false)));
        let quit = Arc::clone(&self.quit);
        let own = move || {
            let won = threats.own_threat_win(share, &legal);
            if won.is_some() {
                quit.store(true, Ordering::Relaxed);
            }
            won
        };
        std::thread::scope(|scope| {
            // Where no thread can be started, one after the other.
            let (own, searched) = match std::thread::Builder::new().spawn_scoped(scope, own) {
                Ok(thread) => {
                    let searched = self.safe_then_deepen(ordered, share);
                    (thread.join(), searched)
                }
                Err(_) => {
                    let mut threats = self.copy(Arc::new(Table::new(0)), Arc::clone(&self.quit));
                    match threats.own_threat_win(share, &legal) {
                        Some(won) => return won,
                        None => (Ok(None), self.safe_then_deepen(ordered, share)),
                    }
                }
            };
            self.quit.store(false, Ordering::Relaxed);
            match own {
                Ok(Some(won)) => won,
                Ok(None) => searched,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }

    /// A copy of this search's board and limits on the alpha-beta table
    /// `tt`, stopped by `quit`: for another thread.
    fn copy(&self, tt: Arc<Table>, quit: Arc<AtomicBool>) -> Search<'s, 'u> {
        Search::sharing(self.board.clone(), tt, self.node_limit, self.until, quit)
    }

    /// A win for the side to move by continuous fours, else by fours and
    /// threes, each within `share` nodes, on a cell `legal` accepts.
    fn own_threat_win(&mut self, share: u64, legal: &impl Fn(&usize) -> bool) -> Option<Found> {
        let me = self.board.turn;
        for (threes, how, depth) in [
            (false, How::Fours, VCF_DEPTH),
            (true, How::Threats, VCT_DEPTH),
        ] {
            if let Ok(Some((c, plies))) = self.threat_win(me, depth, threes, share)
                && legal(&c)
            {
                return Some(Found {
                    cell: Some(c),
                    plies: Some(plies),
                    how,
                    ..Found::default()
                });
            }
        }
        None
    }

    /// Alpha-beta over the most promising of `ordered` (best first) after
    /// which the opponent has no win by threats, each looked for within a
    /// part of `share`.
    fn safe_then_deepen(&mut self, ordered: Vec<usize>, share: u64) -> Found {
        let me = self.board.turn;
        // A move after which the opponent wins by threats loses: look at
        // as many of the most promising as alpha-beta will try.
        let each = (share / 8).max(500);
        let mut safe = self.keep_safe(&ordered, WIDTH, |s, c| {
            s.board.play(c);
            let theirs = s.threat_win(me.other(), VCF_DEPTH, false, each);
            let theirs = match theirs {
                Ok(None) => s.threat_win(me.other(), VCT_DEPTH, true, each / 2),
                other => other,
            };
            s.board.undo(c);
            // Unknown is not a loss.
            !matches!(theirs, Ok(Some(_)))
        });
        if safe.is_empty() {
            safe = ordered.iter().copied().take(WIDTH).collect();
        }
        self.deepen(&mut safe)
    }

    /// The best answer among `candidates` to the opponent's cells `theirs`
    /// that win at once, where a capture may answer too: the one answer
    /// there is, else alpha-beta over them all.
    fn best_answer(&mut self, theirs: &[usize], candidates: &[usize]) -> Found {
        let mut answers = self.answers(theirs);
        answers.retain(|c| candidates.contains(c));
        match answers[..] {
            [] => Found {
                // Lost in two, whatever the move: block one of them.
                cell: theirs.iter().copied().find(|c| candidates.contains(c)),
                value: Some(2 - WIN),
                ..Found::default()
            },
            [only] => Found {
                cell: Some(only),
                ..Found::default()
            },
            _ => {
                self.ranked(&mut answers);
                self.deepen(&mut answers)
            }
        }
    }

    /// The side to move's moves that stop every one of the opponent's
    /// cells `theirs` that win at once: a mark on the one cell, where
    /// nothing is captured; where marks capture, also a mark that takes
    /// part of the line away (or the mark that would capture), each tried.
    /// Empty when nothing stops them.
    fn answers(&mut self, theirs: &[usize]) -> Vec<usize> {
        let b = &self.board;
        let me = b.turn;
        if !b.shape.captures() {
            return match *theirs {
                [c] if b.may(me, c) => vec![c],
                _ => Vec::new(),
            };
        }
        let mut cells = b.capture_cells(me);
        for &c in theirs {
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        cells.retain(|&c| b.may(me, c));
        cells.retain(|&c| {
            self.board.play_at_horizon(c);
            let stopped = !self.board.has_win(me.other());
            self.board.undo_at_horizon(c);
            stopped
        });
        let mut scored: Vec<(i64, usize)> = cells
            .into_iter()
            .map(|c| (self.board.order(c), c))
            .collect();
        self.board.capture_order(&mut scored);
        scored.sort_by_key(|&(s, c)| (std::cmp::Reverse(s), c));
        scored.into_iter().map(|(_, c)| c).collect()
    }

    /// Alpha-beta over `moves` by iterative deepening, until the budget
    /// runs out or a pass proves a win or a loss: the last complete
    /// pass's move and value. Helper threads, if any, search the same
    /// moves meanwhile on copies of the board, half of them starting a
    /// pass deeper, and leave what they find in the shared table; the move
    /// is this thread's.
    fn deepen(&mut self, moves: &mut [usize]) -> Found {
        if self.helpers == 0 {
            return self.deepen_from(moves, 1);
        }
        let helpers_quit = Arc::new(AtomicBool::new(false));
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..=self.helpers)
                .filter_map(|i| {
                    let mut helper = self.copy(Arc::clone(&self.tt), Arc::clone(&helpers_quit));
                    let mut own = moves.to_vec();
                    // Half of them a pass ahead: the table then holds
                    // deeper values sooner for the rest.
                    let first = 1 + (i % 2) as u32;
                    let work = move || {
                        helper.deepen_from(&mut own, first);
                        helper.nodes
                    };
                    // A helper that cannot start is done without.
                    std::thread::Builder::new().spawn_scoped(scope, work).ok()
                })
                .collect();
            let found = self.deepen_from(moves, 1);
            helpers_quit.store(true, Ordering::Relaxed);
            for helper in helpers {
                match helper.join() {
                    Ok(nodes) => {
                        self.nodes += nodes;
                        self.helper_nodes += nodes;
                    }
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            found
        })
    }

    /// [`Search::deepen`] on this thread alone, from `depth`.
    fn deepen_from(&mut self, moves: &mut [usize], mut depth: u32) -> Found {
        let mut found = Found {
            how: How::AlphaBeta,
            cell: moves.first().copied(),
            ..Found::default()
        };
        while depth <= MAX_PLY as u32 {
            let Some((cell, value)) = self.root(moves, depth) else {
                break;
            };
            found.cell = Some(cell);
            found.depth = Some(depth);
            found.value = Some(value);
            if value.abs() >= WIN / 2 {
                break;
            }
            depth += 1;
        }
        found
    }

    /// [`Search::best`] where a turn may have several marks (connect6):
    /// a line the mover completes within its turn, else a win by forcing
    /// turns, else alpha-beta over marks (a child of the same side
    /// searched for that side), at the turn's last mark among those after
    /// which the opponent has no such win. Fours and threes are left out:
    /// they are one-mark threats, answered by one mark.
    fn best_of_turns(&mut self, candidates: &[usize]) -> Found {
        let me = self.board.turn;
        let mut found = Found::default();
        let legal = |c: &usize| candidates.contains(c);
        let left = self.board.left();
        if let Some((c, _)) = self.board.winning_cell(me, left).filter(|(c, _)| legal(c)) {
            found.cell = Some(c);
            return found;
        }
        // A floor above the fours' (2 000): a win of two forcing turns
        // and its defences take a few thousand nodes, and each look after
        // a last mark gets an eighth of this.
        let share = (self.node_limit / 8).clamp(20_000, 200_000);
        if let Ok(Some((c, plies))) = self.turns_win(me, TURNS_DEPTH, share)
            && legal(&c)
        {
            return Found {
                cell: Some(c),
                plies: Some(plies),
                how: How::Turns,
                ..Found::default()
            };
        }
        let theirs = self.board.threats(me.other(), self.board.next_marks());
        let blocks = self.board.cells_of(&theirs, left == 1);
        let mut ordered: Vec<usize> = (candidates.iter().copied())
            .filter(|c| blocks.contains(c))
            .collect();
        let forced = !ordered.is_empty();
        if !forced {
            ordered = candidates.to_vec();
        }
        ordered.sort_by_key(|&c| std::cmp::Reverse(self.rank(c)));
        if left == 1 {
            // A turn after which the opponent wins by forcing turns loses.
            // (At its last mark only: a look after each second mark of the
            // first won one game more in 48, within the noise, for a dozen
            // searches where this makes one.) Forced blocks are all looked
            // at: they are few, and none may be cut.
            let most = if forced { usize::MAX } else { WIDTH };
            ordered = self.safe_last_marks(ordered, most, share);
        }
        if !forced {
            ordered.truncate(WIDTH);
        }
        self.deepen(&mut ordered)
    }

    /// Of `ordered`, the turn's last marks, up to `most` of the most
    /// promising (of twice as many) after which the opponent has no win by
    /// forcing turns, in order; all of them if none is. Each look gets an
    /// eighth of `share`, and all `share`.
    fn safe_last_marks(&mut self, ordered: Vec<usize>, most: usize, share: u64) -> Vec<usize> {
        let mut left = share;
        let safe = self.keep_safe(&ordered, most, |s, c| s.safe_after(c, share / 8, &mut left));
        if safe.is_empty() { ordered } else { safe }
    }

    /// Up to `most` of `ordered` (the most promising first, looked at among
    /// twice as many) that `safe` accepts, in order.
    fn keep_safe(
        &mut self,
        ordered: &[usize],
        most: usize,
        mut safe: impl FnMut(&mut Self, usize) -> bool,
    ) -> Vec<usize> {
        let mut kept = Vec::new();
        for &c in ordered.iter().take(most.saturating_mul(2)) {
            if safe(self, c) {
                kept.push(c);
            }
            if kept.len() == most {
                break;
            }
        }
        kept
    }

    /// Whether after the turn's last mark `c` the opponent has no win by
    /// forcing turns found within `each` nodes of the `left` there are
    /// (spent from): unknown, or not looked for, is not a loss.
    fn safe_after(&mut self, c: usize, each: u64, left: &mut u64) -> bool {
        if *left == 0 {
            return true;
        }
        let me = self.board.turn;
        self.board.play(c);
        let theirs = self.turns_win(me.other(), TURNS_DEPTH, each.min(*left));
        self.board.undo(c);
        *left = left.saturating_sub(self.threat_nodes);
        !matches!(theirs, Ok(Some(_)))
    }

    /// The value of the position after a mark of `me`, for `me`: the same
    /// side's to move again within its turn, or the other's, negated.
    fn child(&mut self, me: Side, depth: i32, ply: i32, alpha: i32, beta: i32) -> Option<i32> {
        match (self.board.shape.alternating(), self.board.turn == me) {
            (true, _) => self.negamax(depth, ply, -beta, -alpha).map(|v| -v),
            (false, true) => self.negamax_turns(depth, ply, alpha, beta),
            (false, false) => self.negamax_turns(depth, ply, -beta, -alpha).map(|v| -v),
        }
    }

    /// Alpha-beta where a turn may have several marks, for the side to
    /// move; `None` when the budget ran out.
    fn negamax_turns(&mut self, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.node_limit || (self.nodes.is_multiple_of(1024) && self.late()) {
            return None;
        }
        let b = &self.board;
        let me = b.turn;
        let left = b.left();
        if let Some((_, needs)) = b.winning_cell(me, left) {
            return Some(WIN - ply - needs as i32);
        }
        if b.empty == 0 {
            return Some(0);
        }
        // The opponent's windows it would fill next turn: every one needs
        // a mark of the mover's, within this turn.
        let theirs = b.threats(me.other(), b.next_marks());
        let key = b.hash;
        let tt_best = match self.probe(key, depth, ply, alpha, beta) {
            Ok(best) => best,
            Err(v) => return Some(v),
        };
        if (theirs.is_empty() && depth <= 0) || ply >= MAX_PLY {
            return Some(clamp(b.eval()));
        }
        let moves = if theirs.is_empty() {
            self.moves(tt_best)
        } else {
            // The mover's last mark must stop them all at once.
            let mut cells = b.cells_of(&theirs, left == 1);
            if cells.is_empty() {
                // This turn's marks, then the opponent's line.
                let needs = b
                    .winning_cell(me.other(), b.next_marks())
                    .map_or(1, |(_, n)| n);
                return Some(ply + left as i32 + needs as i32 - WIN);
            }
            cells.sort_by_key(|&c| std::cmp::Reverse(b.order(c)));
            cells
        };
        if moves.is_empty() {
            return Some(0);
        }
        // A single block spends no depth, as for one mark a turn; a choice
        // of blocks does, or chains of them would eat the budget.
        let next = if moves.len() == 1 { depth } else { depth - 1 };
        let horizon = next <= 0;
        let alpha0 = alpha;
        let mut best = -WIN;
        let mut best_cell = moves[0];
        for &c in &moves {
            self.board.play_to(c, horizon);
            let v = self.child(me, next, ply + 1, alpha, beta);
            self.board.undo_to(c, horizon);
            let v = v?;
            if v > best {
                best = v;
                best_cell = c;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.store(key, depth, ply, (alpha0, beta), best, best_cell);
        Some(best)
    }

    /// What the table knows of `key` searched to `depth`: a value that
    /// settles the node in the window `alpha..beta` (`Err`), else the best
    /// move found before, to try first.
    fn probe(
        &self,
        key: u64,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<usize>, i32> {
        let Some(e) = self.tt.get(key) else {
            return Ok(None);
        };
        let v = from_table(e.value, ply);
        if i32::from(e.depth) >= depth {
            match e.bound {
                Bound::Exact => return Err(v),
                Bound::Lower if v >= beta => return Err(v),
                Bound::Upper if v <= alpha => return Err(v),
                _ => {}
            }
        }
        Ok((e.best != u16::MAX).then_some(e.best as usize))
    }

    /// Keeps a node's value `best`, searched in `window` to `depth`, and
    /// its best move.
    fn store(&self, key: u64, depth: i32, ply: i32, window: (i32, i32), best: i32, cell: usize) {
        let bound = if best <= window.0 {
            Bound::Upper
        } else if best >= window.1 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .put(key, to_table(best, ply), depth as i16, bound, cell as u16);
    }

    /// A cell's rank among the root's moves (captures aside).
    fn rank(&self, c: usize) -> i64 {
        self.board.order(c) * self.board.shape.centre_scale + self.board.shape.centre[c]
    }

    /// `cells` sorted by rank, the best first, captures counted.
    fn ranked(&self, cells: &mut [usize]) {
        let b = &self.board;
        let mut scored: Vec<(i64, usize)> = cells.iter().map(|&c| (b.order(c), c)).collect();
        b.capture_order(&mut scored);
        let rank = |(s, c): (i64, usize)| s * b.shape.centre_scale + b.shape.centre[c];
        scored.sort_by_key(|&sc| std::cmp::Reverse(rank(sc)));
        for (cell, (_, c)) in cells.iter_mut().zip(scored) {
            *cell = c;
        }
    }

    /// One pass of the root at `depth`: its best move and value, the moves
    /// reordered best first; `None` when the budget ran out first.
    fn root(&mut self, moves: &mut [usize], depth: u32) -> Option<(usize, i32)> {
        let mut alpha = -WIN;
        let mut best = 0;
        let me = self.board.turn;
        let d = depth as i32 - 1;
        for (i, &c) in moves.iter().enumerate() {
            self.board.play(c);
            let v = if i == 0 {
                self.child(me, d, 1, -WIN, WIN)
            } else {
                match self.child(me, d, 1, alpha, alpha + 1) {
                    Some(v) if v > alpha => self.child(me, d, 1, alpha, WIN),
                    other => other,
                }
            };
            self.board.undo(c);
            let v = v?;
            if v > alpha || i == 0 {
                alpha = v;
                best = i;
            }
        }
        moves[..=best].rotate_right(1);
        Some((moves[0], alpha))
    }

    /// Alpha-beta for the side to move; `None` when the budget ran out.
    fn negamax(&mut self, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.node_limit || (self.nodes.is_multiple_of(1024) && self.late()) {
            return None;
        }
        let b = &self.board;
        let me = b.turn;
        if b.has_win(me) {
            return Some(WIN - ply - 1);
        }
        let captures = b.shape.captures();
        let theirs = b.wins(me.other(), if captures { usize::MAX } else { 2 });
        if theirs.len() >= 2 && !captures {
            return Some(ply + 2 - WIN);
        }
        if b.empty == 0 {
            return Some(0);
        }
        let key = b.hash;
        let tt_best = match self.probe(key, depth, ply, alpha, beta) {
            Ok(best) => best,
            Err(v) => return Some(v),
        };
        // Captures could run a chain of fours and answers on and on.
        let stop = if captures { ply >= MAX_PLY } else { false };
        if (theirs.is_empty() && (depth <= 0 || ply >= MAX_PLY)) || stop {
            // Two winning cells at once, with none for the opponent to
            // answer by, win in three plies (unless a capture answers).
            if !captures && b.double_fours(me).into_iter().any(|c| b.may(me, c)) {
                return Some(WIN - ply - 3);
            }
            return Some(clamp(b.eval()));
        }
        let moves = if theirs.is_empty() {
            self.moves(tt_best)
        } else {
            let answers = self.answers(&theirs);
            // No answer, or a block the mover may not make: lost.
            if answers.is_empty() {
                return Some(ply + 2 - WIN);
            }
            answers
        };
        if moves.is_empty() {
            // No cell the mover may take: where the opponent has a three,
            // its open four comes, then the line.
            let b = &self.board;
            let three = b
                .double_fours(me.other())
                .into_iter()
                .any(|t| b.may(me.other(), t));
            return Some(if three { ply + 4 - WIN } else { 0 });
        }
        // A forced block spends no depth; a choice of answers does.
        let next = if theirs.is_empty() || moves.len() > 1 {
            depth - 1
        } else {
            depth
        };
        // Below the horizon no node asks for moves but forced blocks.
        let horizon = next <= 0;
        let alpha0 = alpha;
        let mut best = -WIN;
        let mut best_cell = moves[0];
        for (i, &c) in moves.iter().enumerate() {
            self.board.play_to(c, horizon);
            let v = if i == 0 {
                self.negamax(next, ply + 1, -beta, -alpha)
            } else {
                // A late move of a node that answers no four is searched a
                // ply shallower first, and at its depth only if it then
                // beats the best so far (late move reduction).
                let late = theirs.is_empty() && i >= REDUCE_FROM && next >= 2;
                let mut v = self.negamax(next - i32::from(late), ply + 1, -alpha - 1, -alpha);
                if late && v.is_some_and(|v| -v > alpha) {
                    v = self.negamax(next, ply + 1, -alpha - 1, -alpha);
                }
                match v {
                    Some(v) if -v > alpha && -v < beta => {
                        self.negamax(next, ply + 1, -beta, -alpha)
                    }
                    other => other,
                }
            };
            self.board.undo_to(c, horizon);
            let v = -v?;
            if v > best {
                best = v;
                best_cell = c;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.store(key, depth, ply, (alpha0, beta), best, best_cell);
        Some(best)
    }

    /// The side to move's most promising cells, the table's best first.
    /// Where the opponent threatens two winning cells at once next move
    /// (a three) and the mover has no four to answer with first, only the
    /// cells that stop it: any other move loses to it.
    fn moves(&mut self, first: Option<usize>) -> Vec<usize> {
        let b = &self.board;
        let me = b.turn;
        // (A three is a threat of one mark a turn: with two, the
        // opponent's windows it fills next turn are answered before this.)
        let threes: Vec<usize> = if b.shape.alternating() {
            (b.double_fours(me.other()).into_iter())
                .filter(|&t| b.may(me.other(), t))
                .collect()
        } else {
            Vec::new()
        };
        let threats = if threes.is_empty() {
            Vec::new()
        } else {
            self.board.capture_threats(me)
        };
        self.moves_given(first, &threes, threats)
    }

    /// [`Search::moves`], the opponent's threes and the mover's threats
    /// of the winning capture found.
    fn moves_given(
        &self,
        first: Option<usize>,
        threes: &[usize],
        threats: Vec<usize>,
    ) -> Vec<usize> {
        let b = &self.board;
        let me = b.turn;
        let mut scored: Vec<(i64, usize)> = if threes.is_empty() {
            b.candidates().map(|c| (b.order(c), c)).collect()
        } else {
            let mut cells = Vec::new();
            for &t in threes {
                b.stoppers(me.other(), t, &mut cells);
            }
            // A four of the mover's, or a capture, comes first.
            let firsts = b.fours(me).into_iter().map(|(c, _)| c);
            let captures = b.capture_cells(me).into_iter();
            for c in firsts.chain(captures).chain(threats) {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            cells.into_iter().map(|c| (b.order(c), c)).collect()
        };
        b.capture_order(&mut scored);
        if scored.is_empty() {
            scored = b.open_cells().map(|c| (self.rank(c), c)).collect();
        }
        let order = |&(s, c): &(i64, usize)| (std::cmp::Reverse(s), c);
        let forbids = b.shape.forbids(me);
        // The answers to a three are all there are: none is cut.
        let width = if threes.is_empty() {
            WIDTH.min(scored.len())
        } else {
            scored.len()
        };
        if forbids {
            // Judged best first, until the width is filled: a judgement
            // costs more than the sort.
            let judged = |mut scored: Vec<(i64, usize)>| {
                scored.sort_unstable_by_key(order);
                let mut kept = 0;
                scored.retain(|&(_, c)| {
                    let keep = kept < WIDTH.max(width) && b.may(me, c);
                    kept += usize::from(keep);
                    keep
                });
                scored
            };
            scored = judged(scored);
            if scored.is_empty() && threes.is_empty() {
                // Every cell near the marks is forbidden: the others.
                scored = judged(b.open_cells().map(|c| (self.rank(c), c)).collect());
            }
        } else if scored.len() > width {
            scored.select_nth_unstable_by_key(width - 1, order);
            scored.truncate(width);
        }
        scored.sort_unstable_by_key(order);
        let mut moves: Vec<usize> = scored.into_iter().map(|(_, c)| c).collect();
        if let Some(f) = first.filter(|&f| b.is_open(f) && b.may(me, f)) {
            moves.retain(|&c| c != f);
            moves.insert(0, f);
        }
        moves
    }
}

/// An evaluation within the range a win's score never reaches.
fn clamp(v: i64) -> i32 {
    v.clamp(-i64::from(WIN / 4), i64::from(WIN / 4)) as i32
}

/// A win's score as stored: counted from the node, not the root.
fn to_table(v: i32, ply: i32) -> i32 {
    if v >= WIN / 2 {
        v + ply
    } else if v <= -WIN / 2 {
        v - ply
    } else {
        v
    }
}

fn from_table(v: i32, ply: i32) -> i32 {
    if v >= WIN / 2 {
        v - ply
    } else if v <= -WIN / 2 {
        v + ply
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Shape;
    use super::*;
    use crate::game::Game;
    use crate::geometry::Cell;
    use crate::position::Move;
    use crate::rulebook::Rulebook;
    use std::sync::Arc;

    /// Five or more in a row on 15×15 without captures, after `cells`
    /// played alternately from X.
    fn rules() -> Rulebook {
        let text = "name = \"five\"\ntitle = \"five\"\nscript = \"k_in_a_row.rhai\"\n\
                    [board]\nwidth = 15\nheight = 15\n[params]\nk = 5\noverline = true\n";
        Rulebook::from_str_at(text, "five.toml", None).unwrap()
    }

    fn board<'s>(shape: &'s Shape, rules: &Rulebook, cells: &[&str]) -> Board<'s> {
        let mut game = Game::new(Arc::new(rules.clone()));
        for name in cells {
            let to = rules.grid().parse_cell(name).unwrap();
            let mark = game.position().turn();
            game.play(Move::Place { to, mark }).unwrap();
        }
        let open = vec![true; rules.grid().len()];
        Board::new(shape, game.position(), &open)
    }

    /// Whether `att`, to move, wins by the threat search's moves against
    /// every answer at all (not only those the search considers).
    fn holds(s: &mut Search<'_, '_>, att: Side, left: u32) -> bool {
        if s.board.has_win(att) {
            return true;
        }
        let Ok(Some((c, _))) = s.threat_win(att, VCT_DEPTH, true, 100_000) else {
            return false;
        };
        if left == 0 {
            return false;
        }
        s.board.play(c);
        let answers: Vec<usize> = s.board.open_cells().collect();
        let all = answers.into_iter().all(|r| {
            s.board.play(r);
            let won = holds(s, att, left - 1);
            s.board.undo(r);
            won
        });
        s.board.undo(c);
        all
    }

    /// X: g7 h7 (a two along row 7), i9 i10 (a two along column i); O's
    /// marks far off. X at i7 makes two open threes at once.
    const TWO_TWOS: [&str; 8] = ["g7", "a1", "h7", "a3", "i9", "c1", "i10", "o15"];

    #[test]
    fn two_threes_at_once_win_against_every_answer() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &TWO_TWOS);
        let mut s = Search::new(b, 10_000, Until::never());
        assert_eq!(s.threat_win(Side::X, VCF_DEPTH, false, 100_000), Ok(None));
        // Two threes, an open four, the line: five plies.
        let first = s.threat_win(Side::X, VCT_DEPTH, true, 100_000);
        assert!(matches!(first, Ok(Some((_, 5)))), "{first:?}");
        assert!(holds(&mut s, Side::X, 3));
        // O to move instead has no such win.
        s.board.turn = Side::O;
        assert_eq!(s.threat_win(Side::O, VCT_DEPTH, true, 100_000), Ok(None));
    }

    /// The mover's own threat sequence, found on the second thread, is
    /// the move; the flag that stopped alpha-beta then is lowered, so the
    /// same search asked again searches.
    #[test]
    fn a_win_by_threats_found_beside_alpha_beta_is_played_and_the_search_goes_on() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &TWO_TWOS);
        let mut s = Search::new(b, 50_000, Until::never());
        let cells: Vec<usize> = s.board.open_cells().collect();
        let found = s.best(&cells);
        assert_eq!(found.how, How::Threats, "{found:?}");
        // O to move instead: no threat sequence, so alpha-beta decides.
        s.board.turn = Side::O;
        let found = s.best(&cells);
        assert_eq!(found.how, How::AlphaBeta, "{found:?}");
        assert!(found.depth.is_some_and(|d| d >= 2), "{found:?}");
    }

    /// Helper threads stop with the search they help: by a deadline, on
    /// three threads, the move comes soon after it.
    #[test]
    fn on_several_threads_the_search_stops_at_its_deadline() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &["h8", "h9", "i9", "g7", "j10", "k11"]);
        let cells: Vec<usize> = b.open_cells().collect();
        let started = std::time::Instant::now();
        let until = Until::at(started + std::time::Duration::from_millis(200));
        let mut s = Search::new(b, u64::MAX, until).on_threads(3);
        let found = s.best(&cells);
        let took = started.elapsed();
        assert!(found.cell.is_some(), "{found:?}");
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
    }

    #[test]
    fn a_four_whose_block_is_forbidden_to_the_defender_wins() {
        use super::super::board::tests::placed;
        // X's g5 g6 g7 g9 g10: a mark on g8 would be six in a row. O's
        // c8 d8 e8, closed by X's b8: O's f8 makes a four whose only
        // block is g8.
        let xs = ["b8", "g5", "g6", "g7", "g9", "g10"];
        let os = ["c8", "d8", "e8", "a1", "o1"];
        let f8 = |rules: &Rulebook| rules.grid().parse_cell("f8").unwrap().index();
        // In renju X may not make an overline, so the four wins at once.
        let renju = Rulebook::builtin("renju").unwrap();
        let shape = Shape::new(&renju);
        let pos = placed(&renju, &xs, &os, Side::O);
        let open = vec![true; renju.grid().len()];
        let mut s = Search::new(Board::new(&shape, &pos, &open), 10_000, Until::never());
        let won = s.threat_win(Side::O, VCF_DEPTH, false, 100_000);
        assert_eq!(won, Ok(Some((f8(&renju), 3))));
        // Where X may block there (an overline wins for it), it does not.
        let five = rules();
        let shape = Shape::new(&five);
        let pos = placed(&five, &xs, &os, Side::O);
        let mut s = Search::new(Board::new(&shape, &pos, &open), 10_000, Until::never());
        assert_eq!(s.threat_win(Side::O, VCF_DEPTH, false, 100_000), Ok(None));
    }

    #[test]
    fn a_three_whose_every_answer_is_forbidden_to_the_mover_is_lost() {
        use super::super::board::tests::placed;
        let renju = Rulebook::builtin("renju").unwrap();
        let shape = Shape::new(&renju);
        // O's f8 g8 h8: an open three, answered only on d8, e8, i8 or j8.
        // X's marks on rows 5–7 and 9–10 of those columns make each of the
        // four an overline for X; O's on rows 4 and 11 leave X no four.
        let mut xs = Vec::new();
        for col in ["d", "e", "i", "j"] {
            for row in [5, 6, 7, 9, 10] {
                xs.push(format!("{col}{row}"));
            }
        }
        let xs: Vec<&str> = xs.iter().map(String::as_str).collect();
        let os = [
            "f8", "g8", "h8", "d4", "e4", "i4", "j4", "d11", "e11", "i11", "j11", "a1", "a4", "a7",
            "a10", "a13", "m1", "m4", "m7", "m10",
        ];
        let pos = placed(&renju, &xs, &os, Side::X);
        let open = vec![true; renju.grid().len()];
        let mut s = Search::new(Board::new(&shape, &pos, &open), 10_000, Until::never());
        assert!(s.moves(None).is_empty());
        let v = s.negamax(2, 0, -WIN, WIN).unwrap();
        assert_eq!(v, 4 - WIN);
    }

    #[test]
    fn alpha_beta_never_tries_a_move_forbidden_to_the_mover() {
        use super::super::board::tests::placed;
        let renju = Rulebook::builtin("renju").unwrap();
        let shape = Shape::new(&renju);
        let g8 = renju.grid().parse_cell("g8").unwrap().index();
        let os = ["a1", "a3", "a5", "a7", "a9"];
        let open = vec![true; renju.grid().len()];
        // g8 weighs most for both: an overline for X, forbidden; O's block.
        // (With O to move, X has a mark more, far off.)
        for (turn, tried) in [(Side::X, false), (Side::O, true)] {
            let xs: &[&str] = match turn {
                Side::X => &["g5", "g6", "g7", "g9", "g10"],
                Side::O => &["g5", "g6", "g7", "g9", "g10", "o15"],
            };
            let pos = placed(&renju, xs, &os, turn);
            let mut s = Search::new(Board::new(&shape, &pos, &open), 10_000, Until::never());
            assert_eq!(s.moves(Some(g8)).contains(&g8), tried, "{turn:?}");
        }
    }

    #[test]
    fn with_two_marks_a_turn_both_go_where_the_opponent_would_make_six() {
        use super::super::board::tests::placed;
        let rules = Rulebook::builtin("connect6").unwrap();
        let shape = Shape::new(&rules);
        let open = vec![true; rules.grid().len()];
        let cell = |name: &str| rules.grid().parse_cell(name).unwrap().index();
        // 15 marks played: X to place the first of its two. X's marks
        // make nothing; O's c5 d5 e5 f5 are two marks from six three ways
        // (a5–f5, b5–g5, c5–h5).
        let xs = ["a1", "c1", "e1", "g1", "i1", "k1", "m1"];
        let os = ["c5", "d5", "e5", "f5", "p15", "r15", "p17", "r17"];
        let pos = placed(&rules, &xs, &os, Side::X);
        let mut s = Search::new(Board::new(&shape, &pos, &open), 50_000, Until::never());
        assert_eq!((s.board.left(), s.board.next_marks()), (2, 2));
        let all: Vec<usize> = s.board.open_cells().collect();
        let first = s.best(&all).cell.unwrap();
        assert!(["a5", "b5", "g5", "h5"].map(cell).contains(&first));
        s.board.play(first);
        assert_eq!((s.board.turn, s.board.left()), (Side::X, 1));
        let all: Vec<usize> = s.board.open_cells().collect();
        let second = s.best(&all).cell.unwrap();
        s.board.play(second);
        assert_eq!(s.board.turn, Side::O);
        assert!(s.board.threats(Side::O, 2).is_empty(), "{first} {second}");
        // A second such four, on row 10, needs more than two marks: lost.
        let os = ["c5", "d5", "e5", "f5", "c10", "d10", "e10", "f10"];
        let pos = placed(&rules, &xs, &os, Side::X);
        let mut s = Search::new(Board::new(&shape, &pos, &open), 50_000, Until::never());
        let all: Vec<usize> = s.board.open_cells().collect();
        let found = s.best(&all);
        assert!(found.value.unwrap() <= -WIN / 2, "{found:?}");
    }

    /// A sequence of threats reaches the same position by many orders of
    /// the same moves: each is searched once. Without the settled answers
    /// kept, this VCT (a corner of a Gomocup game) runs out of its nodes.
    #[test]
    fn a_threat_search_settles_each_position_once() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let cells = [
            "d3", "e2", "h2", "g6", "g3", "g5", "f4", "e5", "f3", "e3", "e4", "d4",
        ];
        let b = board(&shape, &rules, &cells);
        let mut s = Search::new(b, 10_000, Until::never());
        assert_eq!(s.threat_win(Side::X, VCT_DEPTH, true, 80_000), Ok(None));
        assert!(s.threat_nodes < 80_000, "{}", s.threat_nodes);
    }

    #[test]
    fn a_lone_open_three_is_no_win() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &["g7", "a1", "h7", "a3"]);
        let mut s = Search::new(b, 10_000, Until::never());
        // X makes an open three; O answers at either end and it is over.
        assert_eq!(s.threat_win(Side::X, VCT_DEPTH, true, 100_000), Ok(None));
    }

    /// Caro (`line_ends()` "not both blocked"): a four whose five would
    /// have opponent marks beyond both ends is no threat, a five or six
    /// with one end free wins; the board's edge blocks nothing.
    #[test]
    fn in_caro_a_run_blocked_at_both_ends_is_no_win() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/user/caro.toml");
        let caro = Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let five = rules();
        for (cells, caro_wins) in [
            // X d7-g7, O on c7 and i7: h7 makes a five blocked at both ends.
            (&["d7", "c7", "e7", "i7", "f7", "a1", "g7"][..], false),
            // The same with i7 free: h7 wins.
            (&["d7", "c7", "e7", "a3", "f7", "a1", "g7"][..], true),
            // X c7 d7 e7 f7 h7, O on b7 and i7: g7 makes six, blocked.
            (
                &["c7", "b7", "d7", "i7", "e7", "a1", "f7", "a3", "h7"][..],
                false,
            ),
            // At the edge: X a7-d7, O on f7; e7 wins (the edge blocks nothing).
            (&["a7", "f7", "b7", "o1", "c7", "o3", "d7"][..], true),
        ] {
            let shape = Shape::new(&caro);
            let b = board(&shape, &caro, cells);
            assert_eq!(b.has_win(Side::X), caro_wins, "caro: {cells:?}");
            let shape = Shape::new(&five);
            assert!(
                board(&shape, &five, cells).has_win(Side::X),
                "five: {cells:?}"
            );
        }
        // O to move against X's live four blocks it.
        let shape = Shape::new(&caro);
        let b = board(&shape, &caro, &["d7", "c7", "e7", "a3", "f7", "a1", "g7"]);
        let cells: Vec<usize> = b.open_cells().collect();
        let found = Search::new(b, 50_000, Until::never()).best(&cells);
        let h7 = caro.grid().parse_cell("h7").unwrap().index();
        assert_eq!(found.cell, Some(h7), "{found:?}");
    }

    /// O threatens f7-g7-h7 open; X's marks are scattered.
    const OPEN_THREE: [&str; 6] = ["a1", "f7", "a3", "g7", "o1", "h7"];

    /// Whether `found` stops [`OPEN_THREE`]: at e7 or i7, or the far ends
    /// d7 and j7, which leave O only a four.
    fn assert_stops_the_open_three(rules: &Rulebook, found: &Found) {
        let name = rules
            .grid()
            .name(Cell(found.cell.unwrap() as u16))
            .to_string();
        assert!(
            ["e7", "i7", "d7", "j7"].contains(&name.as_str()),
            "{name}: {found:?}"
        );
    }

    #[test]
    fn alpha_beta_blocks_an_open_three_it_cannot_ignore() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &OPEN_THREE);
        let cells: Vec<usize> = b.open_cells().collect();
        let mut s = Search::new(b, 200_000, Until::never());
        assert_stops_the_open_three(&rules, &s.best(&cells));
    }

    /// With helper threads on the shared table (Lazy SMP) the answer to
    /// a threat is the same, and the helpers' nodes are counted.
    #[test]
    fn on_several_threads_alpha_beta_still_blocks_the_open_three() {
        let rules = rules();
        let shape = Shape::new(&rules);
        let b = board(&shape, &rules, &OPEN_THREE);
        let cells: Vec<usize> = b.open_cells().collect();
        let mut one = Search::new(b.clone(), 200_000, Until::never());
        let alone = one.best(&cells);
        let mut three = Search::new(b, 200_000, Until::never()).on_threads(3);
        let found = three.best(&cells);
        assert_stops_the_open_three(&rules, &found);
        // Counted apart: on a loaded machine the helpers may visit few
        // nodes, and the table they fill may spare this thread some, so
        // the total need not pass one thread's alone.
        assert!(three.helper_nodes > 0, "no helper node counted");
        assert!(three.nodes > three.helper_nodes, "{}", three.nodes);
        assert_eq!(found.how, alone.how);
    }

    #[test]
    fn a_capture_that_breaks_an_open_four_answers_it() {
        use super::super::board::tests::placed;
        // X's j10 j11 j12 j13: an open four, two winning cells. X's k11
        // beside j11, O's i11 flanking them: O's l11 takes j11 and k11
        // (PE2) and breaks the four. Without captures the four wins.
        let xs = ["j10", "j11", "j12", "j13", "k11"];
        let os = ["i11", "a1", "a3", "a5"];
        let pente = Rulebook::builtin("pente").unwrap();
        let l11 = pente.grid().parse_cell("l11").unwrap().index();
        let shape = Shape::new(&pente);
        let pos = placed(&pente, &xs, &os, Side::O);
        let open = vec![true; pente.grid().len()];
        let mut s = Search::new(Board::new(&shape, &pos, &open), 20_000, Until::never());
        let theirs = s.board.wins(Side::X, usize::MAX);
        assert_eq!(theirs.len(), 2);
        assert_eq!(s.answers(&theirs), [l11]);
        let all: Vec<usize> = s.board.open_cells().collect();
        assert_eq!(s.best(&all).cell, Some(l11));
        // The capture holds one move: X puts j11 back and the four is open
        // again, so O is lost in four plies, not two.
        assert_eq!(s.negamax(2, 0, -WIN, WIN), Some(4 - WIN));
        // Nineteen by nineteen, five in a row, no captures: lost in two.
        let text = "name = \"five\"\ntitle = \"five\"\nscript = \"k_in_a_row.rhai\"\n\
                    [board]\nwidth = 19\nheight = 19\n[params]\nk = 5\noverline = true\n";
        let five = Rulebook::from_str_at(text, "five.toml", None).unwrap();
        let shape = Shape::new(&five);
        let pos = placed(&five, &xs, &os, Side::O);
        let mut s = Search::new(Board::new(&shape, &pos, &open), 20_000, Until::never());
        assert!(s.answers(&s.board.wins(Side::X, 2)).is_empty());
        assert_eq!(s.negamax(2, 0, -WIN, WIN), Some(2 - WIN));
    }

    #[test]
    fn on_an_empty_board_the_first_mark_goes_to_the_centre() {
        // One mark a turn (15×15) and two (connect6, 19×19).
        for (rules, centre) in [
            (rules(), "h8"),
            (Rulebook::builtin("connect6").unwrap(), "j10"),
        ] {
            let shape = Shape::new(&rules);
            let open = vec![true; rules.grid().len()];
            let board = Board::new(&shape, &rules.initial(), &open);
            let mut s = Search::new(board, 20_000, Until::never());
            let all: Vec<usize> = s.board.open_cells().collect();
            let found = s.best(&all);
            let cell = found
                .cell
                .map(|c| rules.grid().name(Cell(c as u16)).to_string());
            assert_eq!(cell.as_deref(), Some(centre));
            // Without a search: the alpha-beta it replaced chose h9 and j8.
            assert_eq!((found.how, s.nodes), (How::Centre, 0));
        }
    }

    #[test]
    fn a_threat_to_make_the_winning_capture_answers_a_three() {
        use super::super::board::tests::placed_with;
        // Pente, O to move with four captures (PE4) against X's open three
        // h10 i10 j10. X's c5 d5 lie open at both ends: O's b5 or e5
        // threatens the fifth capture, which X must answer as a four.
        let pente = Rulebook::builtin("pente").unwrap();
        let shape = Shape::new(&pente);
        let xs = ["h10", "i10", "j10", "c5", "d5"];
        let os = [
            "a19", "c19", "e19", "g19", "a17", "c17", "e17", "g17", "a15", "c15", "e15", "g15",
        ];
        let pos = placed_with(&pente, &xs, &os, Side::O, " 0/4");
        let open = vec![true; pente.grid().len()];
        let mut s = Search::new(Board::new(&shape, &pos, &open), 20_000, Until::never());
        let cell = |name: &str| pente.grid().parse_cell(name).unwrap().index();
        assert_eq!(s.board.capture_threats(Side::O), [cell("b5"), cell("e5")]);
        // Beside the cells that stop the three, O may answer by them.
        let moves = s.moves(None);
        for name in ["g10", "k10", "b5", "e5"] {
            assert!(moves.contains(&cell(name)), "{name} not among the answers");
        }
        assert!(!moves.contains(&cell("a1")));
        // X, three captures short, has no such threat.
        assert!(s.board.capture_threats(Side::X).is_empty());
    }
}
