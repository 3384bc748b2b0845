//! Threat-space search for k-in-a-row games on wide boards, where each side
//! places its own mark and a line wins for its owner.
//!
//! A threat is a window of `k` cells along a line that holds only one
//! side's marks: with `k - 1` of them its last cell wins (a four, in
//! five-in-a-row), and a side with two such cells at once cannot be
//! stopped. The search looks for a win by continuous fours (each forces
//! the one reply that blocks it) for both sides, then runs alpha-beta over
//! the few cells that build and block the most, reading a position with a
//! win in one or an unstoppable double threat as decided. Its size is
//! counted in nodes, so a seed gives the same move on every machine.
//!
//! Where the row search (`rows/`) applies, hard plays by it instead; this
//! one serves the wide boards it does not (per-move hooks, win rules that
//! do not hold from `k` on) and answers [`super::continuous_fours`]: an
//! implementation apart from the row search's, so that tests of hard's
//! moves (`tests/ai.rs`) check them against a second reading, not its own.

use super::Until;
use crate::error::ScriptError;
use crate::geometry::Cell;
use crate::mechanics::LineEnds;
use crate::position::{Move, Outcome, Position, Side};
use crate::rulebook::Rulebook;

/// A win's score in alpha-beta, less the plies to it: far above any
/// evaluation, so the evaluation's clamp below half of it is never reached
/// in practice (a clamp at ±499, near the evaluations' own size, made
/// every position with a three read alike).
pub(super) const WIN: i32 = 1 << 30;
/// Cells alpha-beta tries at each node, the most promising first.
const WIDTH: usize = 10;
/// Plies alpha-beta looks ahead, at most (even: the opponent answers last).
const DEPTH: u32 = 10;
/// Fours in a row the continuous-four search follows, at most.
pub(super) const VCF_DEPTH: u32 = 12;
/// A capture's weight in the evaluation, times the captures made.
const CAPTURE: i64 = 300;
/// Nodes one move's search may visit per playout of the budget, before it
/// settles for the deepest answer it completed (20 000 playouts: 60 000).
pub(super) const NODES_PER_PLAYOUT: u64 = 3;
/// Nodes one continuous-four search may visit; beyond them it reports
/// that it does not know, which is not read as "no win".
const VCF_NODES: u64 = 20_000;

/// The windows of the board, and which hold each cell.
pub(super) struct Threats<'a> {
    rules: &'a Rulebook,
    k: usize,
    windows: Vec<Vec<u16>>,
    /// Each cell's nearness to the centre, below `scale`: what breaks a tie
    /// between cells the windows weigh alike.
    centre: Vec<i64>,
    /// What one unit of window weight counts, above any `centre`.
    scale: i64,
    nodes: u64,
    /// Nodes one move's alpha-beta may visit.
    node_limit: u64,
    /// When the search must stop, whatever its nodes say: its request's
    /// (never for a search on its own).
    until: Until<'a>,
    /// Nodes of the continuous-four search under way.
    vcf_nodes: u64,
    /// The depth the continuous-four search under way started from.
    vcf_top: u32,
    /// Plies to the win the last continuous-four search found.
    vcf_plies: u32,
    /// Whether a four must be blocked on its cell and two fours cannot
    /// both be: not where a capture can take marks out of a line.
    sound: bool,
    /// What one capture adds to a side's count, at the fewest: the
    /// evaluation weighs captures, not stones.
    per_capture: u16,
    /// What the last [`Threats::best`] found, for its report.
    pub(super) found: Found,
}

/// What [`Threats::best`] found: how it chose, the plies of its last
/// complete pass and that pass's value for the mover.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Found {
    /// Plies to the win by continuous fours found (no alpha-beta then).
    pub(super) fours_plies: Option<u32>,
    pub(super) depth: Option<u32>,
    pub(super) value: Option<i32>,
}

/// A search that ran out of nodes before it knew.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unknown;

/// A board as signed cells: 1 for `side`'s marks, -1 for the other's.
struct Board {
    cells: Vec<i8>,
    open: Vec<bool>,
    /// The side whose marks are 1, and each side's marks.
    side: Side,
    marks: [crate::geometry::CellSet; 2],
}

impl<'a> Threats<'a> {
    /// Whether the search applies: one mark a turn (a turn of several
    /// marks makes a single threat unstoppable).
    pub(super) fn applies(rules: &Rulebook) -> bool {
        rules.mechanics().turns().is_alternating()
    }

    /// Whether the continuous-four search applies: also no captures (a
    /// capture can answer a four without blocking it, and capturing can
    /// win); where they exist, alpha-beta plays them out instead.
    pub(super) fn reads_fours(rules: &Rulebook) -> bool {
        Threats::applies(rules) && !rules.mechanics().has_captures()
    }

    /// Nodes alpha-beta has visited so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Allows one move's alpha-beta `nodes` nodes.
    pub(super) fn with_nodes(self, nodes: u64) -> Threats<'a> {
        Threats {
            node_limit: nodes,
            ..self
        }
    }

    /// Stops the search when `until` passes; past it, alpha-beta keeps its
    /// last complete pass and the continuous-four search does not know.
    pub(super) fn until(self, until: Until<'a>) -> Threats<'a> {
        Threats { until, ..self }
    }

    /// Whether the search must stop.
    fn late(&self) -> bool {
        self.until.passed()
    }

    pub(super) fn new(rules: &'a Rulebook) -> Threats<'a> {
        let k = rules.mechanics().min_run();
        let windows = rules
            .mechanics()
            .lines()
            .iter()
            .flat_map(|line| line.windows(k))
            .map(|w| w.iter().map(|c| c.0).collect())
            .collect();
        let (centre, scale) = centre_nearness(rules);
        Threats {
            rules,
            k,
            windows,
            centre,
            scale,
            nodes: 0,
            node_limit: 20_000 * NODES_PER_PLAYOUT,
            until: Until::never(),
            vcf_nodes: 0,
            vcf_top: 0,
            vcf_plies: 0,
            sound: Threats::reads_fours(rules),
            per_capture: rules.mechanics().captures().per_capture(),
            found: Found::default(),
        }
    }

    fn board(&self, pos: &Position, side: Side) -> Board {
        let n = self.rules.grid().len();
        let mut cells = vec![0i8; n];
        for c in pos.marks(side) {
            cells[c.index()] = 1;
        }
        for c in pos.marks(side.other()) {
            cells[c.index()] = -1;
        }
        let mut open = vec![false; n];
        for c in self.rules.fillable(pos) {
            open[c.index()] = true;
        }
        Board {
            cells,
            open,
            side,
            marks: [pos.marks(Side::X), pos.marks(Side::O)],
        }
    }

    /// The counts of (own, other) marks in window `w`.
    fn counts(&self, b: &Board, w: usize) -> (usize, usize) {
        let (mut m, mut t) = (0, 0);
        for &c in &self.windows[w] {
            match b.cells[c as usize] {
                1 => m += 1,
                -1 => t += 1,
                _ => {}
            }
        }
        (m, t)
    }

    /// The open cells that complete a window, without repeats: for the
    /// board's side when `sign` is 1, the other's when it is -1. Where the
    /// sides' lines are won apart (`wins(run, side)`), only those that make
    /// a winning line; where what lies beyond a run counts (`line_ends()`),
    /// only those whose run may win.
    fn winning_cells(&self, b: &Board, sign: i8) -> Vec<u16> {
        let mut out = self.window_cells(b, sign);
        let t = self.rules.mechanics();
        if t.sided_wins() || t.line_ends() != LineEnds::Any {
            let side = if sign == 1 { b.side } else { b.side.other() };
            let (own, theirs) = (b.marks[side as usize], b.marks[1 - side as usize]);
            out.retain(|&c| t.wins_by(side, Cell(c), own.with(Cell(c)), theirs));
        }
        out
    }

    fn window_cells(&self, b: &Board, sign: i8) -> Vec<u16> {
        let mut out: Vec<u16> = Vec::new();
        for (w, cells) in self.windows.iter().enumerate() {
            let (m, t) = self.counts(b, w);
            let (own, other) = if sign == 1 { (m, t) } else { (t, m) };
            if own == self.k - 1 && other == 0 {
                for &c in cells {
                    if b.cells[c as usize] == 0 && b.open[c as usize] && !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    /// Every open cell's worth to the board's side: windows it would
    /// extend for either side, fuller ones worth far more, attack a little
    /// above defence; among equals, the one nearer the centre.
    fn cell_scores(&self, b: &Board) -> Vec<i64> {
        let mut score = vec![0i64; b.cells.len()];
        for (w, cells) in self.windows.iter().enumerate() {
            let value = match self.counts(b, w) {
                (0, 0) => 1,
                (m, 0) => 11 * weight(m),
                (0, t) => 10 * weight(t),
                _ => continue,
            };
            for &c in cells {
                score[c as usize] += value;
            }
        }
        for (i, s) in score.iter_mut().enumerate() {
            *s = if b.cells[i] != 0 || !b.open[i] {
                i64::MIN
            } else {
                *s * self.scale + self.centre[i]
            };
        }
        score
    }

    /// [`Threats::cell_scores`] for the side to move of `pos`: the one-move
    /// weights that medium and the line method play by.
    pub(super) fn cell_scores_of(&self, pos: &Position) -> Vec<i64> {
        self.cell_scores(&self.board(pos, pos.turn()))
    }

    /// The position's worth to its side to move, by its windows: each
    /// holding only one side's marks counts for that side, fuller ones far
    /// more, and the side to move a little more (it moves first).
    fn eval(&self, pos: &Position, b: &Board) -> i32 {
        // Captures that count towards a win (a rulebook without them has
        // none): each pair taken weighs more the nearer the count is to it.
        let me = pos.turn();
        let per = i64::from(self.per_capture);
        let (cm, ct) = (
            i64::from(pos.captures(me)) / per,
            i64::from(pos.captures(me.other())) / per,
        );
        let mut total = CAPTURE * (cm * cm - ct * ct);
        for w in 0..self.windows.len() {
            total += match self.counts(b, w) {
                (m, 0) if m > 0 => 12 * weight(m),
                (0, t) if t > 0 => -10 * weight(t),
                _ => 0,
            };
        }
        // Far below a win: a won position must outrank any count.
        (total / 10).clamp(-i64::from(WIN / 2 - 1), i64::from(WIN / 2 - 1)) as i32
    }

    /// The best of `candidates` for the side to move of `pos`.
    pub(super) fn best(
        &mut self,
        pos: &Position,
        history: &[Move],
        candidates: &[Move],
    ) -> Result<Option<Move>, ScriptError> {
        let me = pos.turn();
        self.found = Found::default();
        // A win by continuous fours.
        if self.sound
            && let Ok(Some(mv)) = self.vcf(pos, history, VCF_DEPTH)?
            && candidates.contains(&mv)
        {
            self.found.fours_plies = Some(self.vcf_plies);
            return Ok(Some(mv));
        }
        let b = self.board(pos, me);
        let scores = self.cell_scores(&b);
        let mut ordered: Vec<Move> = candidates.to_vec();
        ordered.sort_by_key(|m| std::cmp::Reverse(m.to().map_or(i64::MIN, |c| scores[c.index()])));
        // Moves that leave the opponent a win by continuous fours lose;
        // look at the most promising ones, as many as alpha-beta will.
        let mut sound = Vec::new();
        for &mv in ordered.iter().take(WIDTH * 2) {
            let next = self.rules.play_unchecked(pos, history, mv)?;
            let mut line = history.to_vec();
            line.push(mv);
            // A search that ran out of nodes proves nothing either way:
            // only a move after which the opponent surely has none is sound.
            if !self.sound || next.is_over() || self.vcf(&next, &line, VCF_DEPTH)? == Ok(None) {
                sound.push(mv);
            }
            if sound.len() == WIDTH {
                break;
            }
        }
        if sound.is_empty() {
            sound = ordered.into_iter().take(WIDTH).collect();
        }
        // Iterative deepening, keeping the deepest complete answer.
        let mut best = sound[0];
        let mut depth = 2;
        while depth <= DEPTH {
            let before = self.nodes;
            let mut alpha = -i32::MAX;
            let mut chosen = None;
            let mut complete = true;
            let mut line = history.to_vec();
            for &mv in &sound {
                let next = self.rules.play_unchecked(pos, history, mv)?;
                line.truncate(history.len());
                line.push(mv);
                let Some(v) = self.negamax(&next, &mut line, depth - 1, 1, -i32::MAX, -alpha)?
                else {
                    complete = false;
                    break;
                };
                let v = -v;
                if v > alpha {
                    alpha = v;
                    chosen = Some(mv);
                }
            }
            if !complete {
                break;
            }
            if let Some(mv) = chosen {
                best = mv;
            }
            self.found.depth = Some(depth);
            self.found.value = Some(alpha);
            // Proven either way (within the width searched): deeper
            // passes would only say it again.
            if alpha.abs() >= WIN / 2 {
                break;
            }
            // Two plies more cost about `WIDTH` times this pass: a pass
            // that cannot finish would only spend the nodes.
            let pass = self.nodes - before;
            if self.nodes + pass * WIDTH as u64 > self.node_limit {
                break;
            }
            depth += 2;
        }
        Ok(Some(best))
    }

    /// Alpha-beta for the side to move of `pos`; `None` when the node
    /// budget ran out.
    fn negamax(
        &mut self,
        pos: &Position,
        line: &mut Vec<Move>,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<Option<i32>, ScriptError> {
        self.nodes += 1;
        // The clock is read every 1024 nodes: a choice's cap holds here too.
        if self.nodes > self.node_limit || (self.nodes.is_multiple_of(1024) && self.late()) {
            return Ok(None);
        }
        let me = pos.turn();
        if let Some(o) = pos.outcome() {
            return Ok(Some(match o {
                Outcome::Draw => 0,
                Outcome::Win(s) if s == me => WIN - ply,
                Outcome::Win(_) => ply - WIN,
            }));
        }
        let b = self.board(pos, me);
        if !self.winning_cells(&b, 1).is_empty() {
            return Ok(Some(WIN - ply - 1));
        }
        let theirs = self.winning_cells(&b, -1);
        if self.sound && theirs.len() >= 2 {
            return Ok(Some(ply + 2 - WIN));
        }
        if depth == 0 {
            return Ok(Some(self.eval(pos, &b)));
        }
        let forced = theirs.first().filter(|_| self.sound);
        let t = self.rules.mechanics();
        let allowed = |c: Cell| t.forbidden_pattern(pos, c).is_none();
        let moves: Vec<Move> = if let Some(&c) = forced {
            // A block the mover may not make (a forbidden pattern) loses.
            if !allowed(Cell(c)) {
                return Ok(Some(ply + 2 - WIN));
            }
            vec![Move::Place {
                to: Cell(c),
                mark: me,
            }]
        } else {
            let scores = self.cell_scores(&b);
            let mut cells: Vec<usize> = (0..scores.len())
                .filter(|&i| scores[i] > i64::MIN)
                .collect();
            cells.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
            cells
                .into_iter()
                .filter(|&i| allowed(Cell(i as u16)))
                .take(WIDTH)
                .map(|i| Move::Place {
                    to: Cell(i as u16),
                    mark: me,
                })
                .collect()
        };
        let mut best = -i32::MAX;
        for mv in moves {
            let next = self.rules.play_unchecked(pos, line, mv)?;
            line.push(mv);
            let v = self.negamax(&next, line, depth - 1, ply + 1, -beta, -alpha);
            line.pop();
            let Some(v) = v? else { return Ok(None) };
            best = best.max(-v);
            alpha = alpha.max(-v);
            if alpha >= beta {
                break;
            }
        }
        Ok(Some(best))
    }

    /// A first move of a win by continuous fours for the side to move: a
    /// sequence of moves each making a four, the opponent's only answer
    /// blocking it, until a move makes two fours at once or a line.
    /// `Err(Unknown)` inside the result when its node budget ran out.
    pub(super) fn vcf(
        &mut self,
        pos: &Position,
        history: &[Move],
        depth: u32,
    ) -> Result<Result<Option<Move>, Unknown>, ScriptError> {
        let mut line = history.to_vec();
        self.vcf_nodes = 0;
        self.vcf_top = depth;
        self.vcf_from(pos, &mut line, depth)
    }

    fn vcf_from(
        &mut self,
        pos: &Position,
        line: &mut Vec<Move>,
        depth: u32,
    ) -> Result<Result<Option<Move>, Unknown>, ScriptError> {
        if depth == 0 || pos.is_over() {
            return Ok(Ok(None));
        }
        let me = pos.turn();
        let b = self.board(pos, me);
        // The opponent's four must be answered first: no continuous fours then.
        if !self.winning_cells(&b, -1).is_empty() {
            return Ok(Ok(None));
        }
        let t = self.rules.mechanics();
        for cell in self.four_cells(&b) {
            if t.forbidden_pattern(pos, Cell(cell)).is_some() {
                continue;
            }
            self.vcf_nodes += 1;
            // A choice's cap holds here too: past it, the search does not know.
            if self.vcf_nodes > VCF_NODES || (self.vcf_nodes.is_multiple_of(256) && self.late()) {
                return Ok(Err(Unknown));
            }
            let mv = Move::Place {
                to: Cell(cell),
                mark: me,
            };
            let next = self.rules.play_unchecked(pos, line, mv)?;
            // Two plies for each four before this one.
            let plies = 2 * (self.vcf_top - depth) + 1;
            if next.outcome() == Some(Outcome::Win(me)) {
                self.vcf_plies = plies;
                return Ok(Ok(Some(mv)));
            }
            if next.is_over() {
                continue;
            }
            let after = self.board(&next, me);
            let mine = self.winning_cells(&after, 1);
            if !self.winning_cells(&after, -1).is_empty() {
                continue;
            }
            if mine.len() >= 2 {
                // One four blocked, the other completed.
                self.vcf_plies = plies + 2;
                return Ok(Ok(Some(mv)));
            }
            let Some(&block) = mine.first() else { continue };
            // A block the defender may not make leaves the line to complete.
            if t.forbidden_pattern(&next, Cell(block)).is_some() {
                self.vcf_plies = plies + 2;
                return Ok(Ok(Some(mv)));
            }
            line.push(mv);
            let reply = Move::Place {
                to: Cell(block),
                mark: me.other(),
            };
            let blocked = self.rules.play_unchecked(&next, line, reply)?;
            line.push(reply);
            let found = if blocked.is_over() {
                Ok(None)
            } else {
                self.vcf_from(&blocked, line, depth - 1)?
            };
            line.truncate(line.len() - 2);
            match found {
                Ok(Some(_)) => return Ok(Ok(Some(mv))),
                Ok(None) => {}
                Err(Unknown) => return Ok(Err(Unknown)),
            }
        }
        Ok(Ok(None))
    }

    /// Open cells where the board's side would make a four: complete a
    /// window to one short of a line, with no mark of the other side in it.
    fn four_cells(&self, b: &Board) -> Vec<u16> {
        let mut out: Vec<u16> = Vec::new();
        for (w, cells) in self.windows.iter().enumerate() {
            let (m, t) = self.counts(b, w);
            if m == self.k - 2 && t == 0 {
                for &c in cells {
                    if b.cells[c as usize] == 0 && b.open[c as usize] && !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }
}

/// Each cell's nearness to the board's centre, and one more than the
/// largest: what breaks a tie between cells the windows weigh alike. On an
/// open board every cell `k - 1` or more from the edges lies in as many
/// windows: without it the first of them by index (a corner of that block)
/// would be played, far from the centre. Squared distance in half-cells
/// keeps it symmetric and whole.
pub(super) fn centre_nearness(rules: &Rulebook) -> (Vec<i64>, i64) {
    let g = rules.grid();
    let (w, h) = (i64::from(g.width()), i64::from(g.height()));
    let far = (w - 1).pow(2) + (h - 1).pow(2);
    let centre = g
        .cells()
        .map(|c| {
            let dx = 2 * i64::from(g.col(c)) - (w - 1);
            let dy = 2 * i64::from(g.row(c)) - (h - 1);
            far - dx * dx - dy * dy
        })
        .collect();
    (centre, far + 1)
}

/// Ten times more per mark: a window one short of a line outweighs any sum
/// of lesser ones.
fn weight(n: usize) -> i64 {
    10i64.pow(n.min(9) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use std::sync::Arc;

    /// Pente (five in a row, 19×19) after `cells`, X first, alternately;
    /// none of them captures.
    fn five_after(cells: &[&str]) -> Game {
        let mut game = Game::new(Arc::new(Rulebook::builtin("pente").unwrap()));
        for name in cells {
            let to = game.rulebook().grid().parse_cell(name).unwrap();
            let mark = game.position().turn();
            game.play(Move::Place { to, mark }).unwrap();
        }
        game
    }

    fn eval(game: &Game) -> i32 {
        let t = Threats::new(game.rulebook());
        let pos = game.position();
        t.eval(pos, &t.board(pos, pos.turn()))
    }

    #[test]
    fn a_run_blocked_at_both_ends_is_no_winning_cell() {
        // Caro: X's c3–f3 lies between O's b3 and h3, so g3 would make a
        // five blocked at both ends; X's l5–o5 is open, and k5 or p5 wins.
        let script = "fn lines() { lines::straight(5) }\n\
            fn wins(run) { run >= 5 }\n\
            fn line_ends() { \"not both blocked\" }";
        let rules = Arc::new(Rulebook::scripted(script, 16, 16).unwrap());
        let mut game = Game::new(rules.clone());
        for name in [
            "c3", "b3", "d3", "h3", "e3", "a16", "f3", "c16", "l5", "e16",
        ] {
            game.play(game.parse_move(name).unwrap()).unwrap();
        }
        for name in ["m5", "g16", "n5", "i16", "o5", "k16"] {
            game.play(game.parse_move(name).unwrap()).unwrap();
        }
        let pos = game.position();
        let names = |cells: Vec<u16>| -> Vec<String> {
            let mut v: Vec<String> = cells
                .into_iter()
                .map(|c| rules.grid().name(Cell(c)).to_string())
                .collect();
            v.sort();
            v
        };
        let t = Threats::new(&rules);
        let b = t.board(pos, Side::X);
        assert_eq!(names(t.winning_cells(&b, 1)), ["k5", "p5"]);
        let immediate = crate::search::lines::winning_cells_of(&rules, pos, Side::X);
        assert_eq!(names(immediate.map(|c| c.0).collect()), ["k5", "p5"]);
    }

    #[test]
    fn the_evaluation_tells_fuller_lines_apart_far_below_a_win() {
        // X to move with an open three, then with two of them; O's stones
        // far off. Both used to read as the same capped value.
        let three = five_after(&["g8", "a1", "h8", "a3", "i8", "a5"]);
        let two_threes = five_after(&["g8", "a1", "h8", "a3", "i8", "a5", "h7", "o1", "h9", "o3"]);
        let (one, two) = (eval(&three), eval(&two_threes));
        assert!(0 < one && one < two, "{one} then {two}");
        assert!(two < WIN / 2, "{two} reads as a win");
    }
}
