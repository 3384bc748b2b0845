//! The board the row search plays on: each window of `k` cells along a line
//! keeps how many marks each side has in it, and each cell the weight of
//! the windows through it, both brought up to date as a mark is placed or
//! taken back — a node costs a few hundred additions, not a board built
//! afresh. Where a mark captures (pente), the marks it takes leave the
//! windows as a taken-back mark does, and come back when it is undone.

use crate::geometry::{Cell, CellSet};
use crate::mechanics::LineEnds;
use crate::position::{Position, Side};

mod captures;
mod order;
mod shape;

pub(super) use shape::Shape;
use shape::{CAUGHT_KEYS, NONE};

/// A cell no mark can take: off the board's land, or not open at the root.
const BLOCKED: u8 = 3;
/// A window's weight for a side with `m` marks in it and none of the
/// other's: ten times more a mark, so one window a mark short of a line
/// outweighs any sum of lesser ones — up to seven marks, so that a cell's
/// sum of a few dozen windows fits 32 bits (a cell's weights are added
/// up on every move: half the bytes of 64 bits is a tenth of a node's time).
const WEIGHT: [i32; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// A mark of `side` as a digit of the codes in X's view and in O's: its
/// own (1) in one, blocked (2) in the other.
fn side_digits(side: Side) -> [u32; 2] {
    match side {
        Side::X => [1, 2],
        Side::O => [2, 1],
    }
}

/// Windows of one side at one fullness, as a bit set over the windows,
/// and how many there are: most positions have none of the fuller kinds,
/// and every node asks (a scan of the words would cost a fifth of a node).
#[derive(Clone, Debug, PartialEq, Eq)]
struct WindowSet {
    words: Vec<u64>,
    len: u32,
}

impl WindowSet {
    fn new(windows: usize) -> WindowSet {
        WindowSet {
            words: vec![0; windows.div_ceil(64)],
            len: 0,
        }
    }
    fn set(&mut self, w: usize, on: bool) {
        let bit = 1u64 << (w % 64);
        let word = &mut self.words[w / 64];
        if (*word & bit != 0) != on {
            *word ^= bit;
            if on {
                self.len += 1;
            } else {
                self.len -= 1;
            }
        }
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let words = if self.len == 0 {
            &[][..]
        } else {
            &self.words[..]
        };
        words.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i * 64 + b
                })
            })
        })
    }
}

/// A position of the row search, kept up to date move by move.
#[derive(Clone)]
pub(super) struct Board<'s> {
    pub(super) shape: &'s Shape<'s>,
    /// 0 empty, 1 + side, or [`BLOCKED`].
    stone: Vec<u8>,
    /// Each side's marks, and both, as the forbidden patterns' judge
    /// reads them.
    marks: [CellSet; 2],
    occupied: CellSet,
    /// Each window's marks of X and of O.
    count: Vec<[u8; 2]>,
    /// Per cell, per side: the weight of the windows through it that the
    /// side can still fill (the sides side by side: one load for both).
    weight: Vec<[i32; 2]>,
    /// Per side: the weight of all its windows that hold a mark.
    total: [i64; 2],
    /// Per side, the live windows `k - 1` full (`short[s][0]`), `k - 2`
    /// (`short[s][1]`) and `k - 3` (`short[s][2]`): the lines a move
    /// completes, the fours a move makes, and the threes.
    short: [[WindowSet; 3]; 2],
    /// Marks within two steps of each cell: the cells worth a move.
    near: Vec<u16>,
    /// Per slot of the move order by shapes, its neighbours in X's view
    /// and in O's (see [`order::ShapeOrder`]); empty without.
    codes: Vec<[u32; 2]>,
    /// Per side, the captures made (pente's pairs).
    caught: [u16; 2],
    /// Where marks capture: each side's marks, and each marked cell's
    /// place in its side's list — what captures are looked for from.
    stones: [Vec<u16>; 2],
    slot: Vec<u16>,
    /// The cells whose marks captures took, the last move's last, and per
    /// move played where its cells start and how many captures it made.
    taken: Vec<u16>,
    taken_at: Vec<(u32, u16)>,
    pub(super) hash: u64,
    /// The side to move.
    pub(super) turn: Side,
    /// Marks played since the game began: where the turns stand.
    played: u32,
    /// Empty cells a mark can take.
    pub(super) empty: usize,
}

impl<'s> Board<'s> {
    /// The board of `pos`, where the cells `open` lists are those a mark
    /// may take.
    pub(super) fn new(shape: &'s Shape<'s>, pos: &Position, open: &[bool]) -> Board<'s> {
        let windows = shape.window_count();
        let mut b = Board {
            shape,
            stone: vec![0; shape.n],
            marks: [CellSet::default(); 2],
            occupied: CellSet::default(),
            count: vec![[0, 0]; windows],
            weight: vec![[0, 0]; shape.n],
            total: [0, 0],
            short: std::array::from_fn(|_| std::array::from_fn(|_| WindowSet::new(windows))),
            near: vec![0; shape.n],
            codes: (shape.order.as_ref())
                .map_or(Vec::new(), |s| s.start.iter().map(|&c| [c, c]).collect()),
            caught: [pos.captures(Side::X), pos.captures(Side::O)],
            stones: [Vec::new(), Vec::new()],
            slot: vec![0; shape.n],
            taken: Vec::new(),
            taken_at: Vec::new(),
            hash: 0,
            turn: pos.turn(),
            played: pos.marks_played(),
            empty: 0,
        };
        // Every window starts empty, open to both; marks and blocked cells
        // are then added one by one, as moves are.
        for w in 0..windows {
            for &c in shape.window(w) {
                b.weight[c as usize] = [
                    b.weight[c as usize][0] + WEIGHT[0],
                    b.weight[c as usize][1] + WEIGHT[0],
                ];
            }
        }
        for (c, &open) in open.iter().enumerate().take(shape.n) {
            let cell = Cell(c as u16);
            let held = [Side::X, Side::O]
                .into_iter()
                .find(|&s| pos.marks(s).contains(cell));
            match held {
                Some(s) => b.put::<true>(c, s),
                None if !open => b.block(c),
                None => b.empty += 1,
            }
        }
        for s in [Side::X, Side::O] {
            b.hash ^= b.caught_key(s);
        }
        b.turn = pos.turn();
        b
    }

    /// The table's key for `side`'s captures so far.
    fn caught_key(&self, side: Side) -> u64 {
        let n = usize::from(self.caught[side as usize]);
        self.shape.caught_keys[side as usize][n % CAUGHT_KEYS]
    }

    /// Whether a mark can go on `c`.
    pub(super) fn is_open(&self, c: usize) -> bool {
        self.stone[c] == 0
    }

    /// A cell no side can take: every window through it dies.
    fn block(&mut self, c: usize) {
        for s in [Side::X, Side::O] {
            self.add::<true>(c, s, 1);
        }
        self.see(c, [2, 2], 1);
        self.stone[c] = BLOCKED;
    }

    /// Adds `delta` (±1) to `side`'s count in every window through `c`,
    /// and brings what depends on the counts up to date.
    /// `WEIGHTS` false leaves the cells' weights and the near counts as
    /// they are: what a node at the search's horizon plays, which only
    /// counts and totals are asked of (most of a move's cost saved).
    fn add<const WEIGHTS: bool>(&mut self, c: usize, side: Side, delta: i8) {
        let shape = self.shape;
        let k = shape.k;
        let me = side as usize;
        for &w in shape.through(c) {
            let w = w as usize;
            let before = self.count[w];
            let mut after = before;
            after[me] = before[me].wrapping_add_signed(delta);
            self.count[w] = after;
            let mut d = [0i32; 2];
            for i in 0..2 {
                // A side's weight of a window is nothing once the other
                // side has a mark in it.
                let live_before = before[1 - i] == 0;
                let live_after = after[1 - i] == 0;
                let (nb, na) = (usize::from(before[i]), usize::from(after[i]));
                let vb = if live_before { WEIGHT[nb.min(7)] } else { 0 };
                let va = if live_after { WEIGHT[na.min(7)] } else { 0 };
                d[i] = va - vb;
                // An empty window counts for nobody's total.
                self.total[i] +=
                    i64::from(if na > 0 { va } else { 0 } - if nb > 0 { vb } else { 0 });
                if live_before && nb > 0 && nb + 3 >= k && nb < k {
                    self.short[i][k - 1 - nb].set(w, false);
                }
                if live_after && na > 0 && na + 3 >= k && na < k {
                    self.short[i][k - 1 - na].set(w, true);
                }
            }
            if WEIGHTS && d != [0, 0] {
                for &cell in shape.window(w) {
                    let v = &mut self.weight[cell as usize];
                    *v = [v[0] + d[0], v[1] + d[1]];
                }
            }
        }
    }

    fn put<const WEIGHTS: bool>(&mut self, c: usize, side: Side) {
        self.add::<WEIGHTS>(c, side, 1);
        self.stone[c] = 1 + side as u8;
        if !self.shape.captures.is_empty() {
            let list = &mut self.stones[side as usize];
            self.slot[c] = list.len() as u16;
            list.push(c as u16);
        }
        if self.shape.forbids != [false, false] {
            self.marks[side as usize].insert(Cell(c as u16));
            self.occupied.insert(Cell(c as u16));
        }
        self.hash ^= self.shape.keys[side as usize][c];
        if WEIGHTS {
            for &d in self.shape.near(c) {
                self.near[d as usize] += 1;
            }
            self.see(c, side_digits(side), 1);
        }
    }

    /// Adds (`delta` 1) or takes away (−1) `digits` (in X's view and in
    /// O's) at `c`'s place in the codes of the cells that see it.
    #[inline]
    fn see(&mut self, c: usize, digits: [u32; 2], delta: i32) {
        if let Some(order) = &self.shape.order {
            for &(slot, power) in order.seen(c) {
                let code = &mut self.codes[slot as usize];
                for (v, d) in code.iter_mut().zip(digits) {
                    *v = v.wrapping_add_signed(delta * (d * power) as i32);
                }
            }
        }
    }

    /// The side to move places a mark on `c`, an open cell.
    pub(super) fn play(&mut self, c: usize) {
        self.place::<true>(c);
    }

    /// [`Board::play`] for a position at the search's horizon and below:
    /// the cells' weights and near counts (move ordering) are left stale,
    /// so nothing after it may ask for moves until [`Board::undo_at_horizon`].
    pub(super) fn play_at_horizon(&mut self, c: usize) {
        self.place::<false>(c);
    }

    /// [`Board::play_at_horizon`] where `horizon`, else [`Board::play`].
    pub(super) fn play_to(&mut self, c: usize, horizon: bool) {
        if horizon {
            self.place::<false>(c);
        } else {
            self.place::<true>(c);
        }
    }

    /// Takes back a mark [`Board::play_to`] placed with the same `horizon`.
    pub(super) fn undo_to(&mut self, c: usize, horizon: bool) {
        if horizon {
            self.take::<false>(c);
        } else {
            self.take::<true>(c);
        }
    }

    #[inline]
    fn place<const WEIGHTS: bool>(&mut self, c: usize) {
        let side = self.turn;
        self.put::<WEIGHTS>(c, side);
        self.empty -= 1;
        if !self.shape.captures.is_empty() {
            self.capture::<WEIGHTS>(c, side);
        }
        self.next_turn();
    }

    /// The turn after a mark: the other side's, unless the mover has
    /// marks left in its turn.
    fn next_turn(&mut self) {
        // As the rules turn: on the mark that ends a turn.
        if self.shape.turns.ends_turn(self.played) {
            self.turn = self.turn.other();
        }
        self.played += 1;
    }

    /// The side whose mark was the last placed, its turn again.
    fn last_turn(&mut self) -> Side {
        self.played -= 1;
        if self.shape.turns.ends_turn(self.played) {
            self.turn = self.turn.other();
        }
        self.turn
    }

    /// The marks the side to move has left in its turn, this one included.
    pub(super) fn left(&self) -> u32 {
        let at = self.shape.turns.place(self.played);
        at.of - at.mark
    }

    /// The marks of the next turn of the side not to move.
    pub(super) fn next_marks(&self) -> u32 {
        self.shape.turns.place(self.played + self.left()).of
    }

    /// Takes back the mark on `c`, the last placed.
    pub(super) fn undo(&mut self, c: usize) {
        self.take::<true>(c);
    }

    /// Takes back a mark [`Board::play_at_horizon`] placed.
    pub(super) fn undo_at_horizon(&mut self, c: usize) {
        self.take::<false>(c);
    }

    #[inline]
    fn take<const WEIGHTS: bool>(&mut self, c: usize) {
        let side = self.last_turn();
        if !self.shape.captures.is_empty() {
            self.uncapture::<WEIGHTS>(side);
        }
        self.lift::<WEIGHTS>(c, side);
    }

    /// Takes `side`'s mark off `c`: undone, or captured.
    #[inline]
    fn lift<const WEIGHTS: bool>(&mut self, c: usize, side: Side) {
        self.add::<WEIGHTS>(c, side, -1);
        self.stone[c] = 0;
        if !self.shape.captures.is_empty() {
            let list = &mut self.stones[side as usize];
            let at = self.slot[c] as usize;
            list.swap_remove(at);
            if let Some(&moved) = list.get(at) {
                self.slot[moved as usize] = at as u16;
            }
        }
        if self.shape.forbids != [false, false] {
            self.marks[side as usize].remove(Cell(c as u16));
            self.occupied.remove(Cell(c as u16));
        }
        self.hash ^= self.shape.keys[side as usize][c];
        if WEIGHTS {
            for &d in self.shape.near(c) {
                self.near[d as usize] -= 1;
            }
            self.see(c, side_digits(side), -1);
        }
        self.empty += 1;
    }

    /// Whether a mark of `side` on the open cell `c` makes no pattern
    /// `side` may not make (a winning move never does).
    pub(super) fn may(&self, side: Side, c: usize) -> bool {
        !self.shape.forbids[side as usize]
            || (self.shape.mechanics)
                .forbidden_on(
                    side,
                    &self.marks[side as usize],
                    &self.occupied,
                    Cell(c as u16),
                )
                .is_none()
    }

    /// Whether filling window `w` with `side`'s marks would make a line
    /// that wins for it: always, unless it wins only with exactly `k` and
    /// a mark of its own lies just past an end, or what lies beyond the
    /// run it would be part of says otherwise (`line_ends()`).
    #[inline(always)]
    fn wins_in(&self, side: Side, w: usize) -> bool {
        // The common case (k or more wins, whatever lies beyond) costs one
        // test, on every window the search judges.
        !self.shape.judged[side as usize] || self.judged_win(side, w)
    }

    /// [`Board::wins_in`] where exactly `k` wins or the ends count.
    #[inline(never)]
    fn judged_win(&self, side: Side, w: usize) -> bool {
        let own = 1 + side as u8;
        let exact_ok = !self.shape.exact[side as usize]
            || self.shape.beyond[w]
                .iter()
                .all(|&c| c == NONE || self.stone[c as usize] != own);
        exact_ok && (self.shape.ends == LineEnds::Any || self.ends_allow(side, w))
    }

    /// Whether the ends of the run that filling window `w` with `side`'s
    /// marks would make allow it to win, as [`LineEnds`] judges them: the
    /// run goes on through `side`'s marks past the window, and an end is
    /// blocked by an opponent mark, open where the cell is empty, neither
    /// at the edge of the line.
    fn ends_allow(&self, side: Side, w: usize) -> bool {
        let own = 1 + side as u8;
        let theirs = 2 - side as u8;
        let (l, start) = self.shape.placed[w];
        let line = &self.shape.mechanics.lines()[l as usize];
        let stone = |i: usize| self.stone[line[i].index()];
        let mut a = start as usize;
        while a > 0 && stone(a - 1) == own {
            a -= 1;
        }
        let mut b = start as usize + self.shape.k;
        while b < line.len() && stone(b) == own {
            b += 1;
        }
        let past = [
            a.checked_sub(1).map(stone),
            (b < line.len()).then(|| stone(b)),
        ];
        match self.shape.ends {
            LineEnds::Any => true,
            LineEnds::NotBothBlocked => !past.iter().all(|&s| s == Some(theirs)),
            LineEnds::BothOpen => past.iter().all(|&s| s == Some(0)),
        }
    }

    /// `side`'s windows `k - 1 - short` full, open to it, whose filling
    /// would win for it.
    fn live(&self, side: Side, short: usize) -> impl Iterator<Item = usize> + '_ {
        self.short[side as usize][short]
            .iter()
            .filter(move |&w| self.wins_in(side, w))
    }

    /// The open cells in window `w`.
    fn open_in(&self, w: usize) -> impl Iterator<Item = usize> + '_ {
        self.shape
            .window(w)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.stone[c] == 0)
    }

    /// Up to `most` distinct cells where `side` wins at once: completes a
    /// line, or makes the captures that win (looked for only within two
    /// captures of them: see [`Board::near_capture_win`]).
    pub(super) fn wins(&self, side: Side, most: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for w in self.live(side, 0) {
            for c in self.open_in(w) {
                if !out.contains(&c) {
                    out.push(c);
                    if out.len() >= most {
                        return out;
                    }
                }
            }
        }
        if self.near_capture_win(side) {
            self.capture_wins(side, most, &mut out);
        }
        out
    }

    /// Whether no mark is on the board.
    pub(super) fn is_bare(&self) -> bool {
        self.stone.iter().all(|&s| s == 0 || s == BLOCKED)
    }

    /// `side`'s windows that `marks` marks of its own fill to a line that
    /// wins for it (`marks` at most 3).
    pub(super) fn threats(&self, side: Side, marks: u32) -> Vec<usize> {
        (0..(marks as usize).min(3))
            .flat_map(|short| self.live(side, short))
            .collect()
    }

    /// A cell toward a line `side` completes with `marks` marks, one of
    /// the fullest such window's open cells, and the marks that line
    /// needs.
    pub(super) fn winning_cell(&self, side: Side, marks: u32) -> Option<(usize, u32)> {
        (0..(marks as usize).min(3))
            .find_map(|short| Some((self.live(side, short).next()?, short as u32 + 1)))
            .and_then(|(w, needs)| Some((self.open_in(w).next()?, needs)))
    }

    /// The open cells of `windows`, each once; with `all`, only those in
    /// every one of them.
    pub(super) fn cells_of(&self, windows: &[usize], all: bool) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &w in windows {
            for c in self.open_in(w) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        if all {
            out.retain(|&c| {
                windows
                    .iter()
                    .all(|&w| self.shape.window(w).contains(&(c as u16)))
            });
        }
        out
    }

    /// Adds to `cells` the open cells of `side`'s live windows `k - 4`
    /// full (at least one mark) not there yet, the most promising first:
    /// where its next threats are prepared. A scan of every window: the
    /// window sets do not keep that fullness.
    pub(super) fn add_preparing(&self, side: Side, cells: &mut Vec<usize>) {
        let i = side as usize;
        let marks = self.shape.k.saturating_sub(4).max(1);
        let from = cells.len();
        for (w, n) in self.count.iter().enumerate() {
            if n[1 - i] == 0 && usize::from(n[i]) == marks && self.wins_in(side, w) {
                for c in self.open_in(w) {
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
            }
        }
        cells[from..].sort_by_key(|&c| (std::cmp::Reverse(self.order(c)), c));
    }

    /// The pairs of open cells of `windows` (`a < b`) that hold a cell of
    /// each: the ways two marks stop them all.
    pub(super) fn pairs_stopping(&self, windows: &[usize]) -> Vec<(usize, usize)> {
        let cells = self.cells_of(windows, false);
        let holds = |w: usize, c: usize| self.shape.window(w).contains(&(c as u16));
        let mut out = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if windows.iter().all(|&w| holds(w, a) || holds(w, b)) {
                    out.push((a.min(b), a.max(b)));
                }
            }
        }
        out
    }

    /// Whether `side` has a cell that wins at once (the captures that win
    /// as [`Board::wins`] looks for them).
    #[inline]
    pub(super) fn has_win(&self, side: Side) -> bool {
        self.live(side, 0).next().is_some()
            || (self.near_capture_win(side) && self.has_capture_win(side))
    }

    /// Cells where `side` makes a four (a window one short of a line), each
    /// with the cell that four would then win on.
    pub(super) fn fours(&self, side: Side) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for w in self.live(side, 1) {
            let mut open = self.open_in(w);
            if let (Some(a), Some(b)) = (open.next(), open.next()) {
                out.push((a, b));
                out.push((b, a));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Cells where `side` makes two winning cells at once (an open four,
    /// or two fours), which one answer cannot stop.
    pub(super) fn double_fours(&self, side: Side) -> Vec<usize> {
        let fours = self.fours(side);
        let mut out = Vec::new();
        for pair in fours.windows(2) {
            if pair[0].0 == pair[1].0 && out.last() != Some(&pair[0].0) {
                out.push(pair[0].0);
            }
        }
        out
    }

    /// Cells worth a move: open, within two steps of a mark.
    pub(super) fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.shape.n).filter(|&c| self.stone[c] == 0 && self.near[c] > 0)
    }

    /// Cells where `side` adds to a window `k - 3` full: where its threes
    /// are made.
    pub(super) fn three_cells(&self, side: Side) -> Vec<usize> {
        let mut out: Vec<usize> = self.live(side, 2).flat_map(|w| self.open_in(w)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The open cells of `side`'s windows `k - 2` full through `c`, `c`
    /// included: where a mark of the other side stops what a mark of
    /// `side` on `c` would make.
    pub(super) fn stoppers(&self, side: Side, c: usize, out: &mut Vec<usize>) {
        for &w in self.shape.through(c) {
            let w = w as usize;
            let n = self.count[w];
            let i = side as usize;
            if n[1 - i] == 0 && usize::from(n[i]) + 2 == self.shape.k && self.wins_in(side, w) {
                for d in self.open_in(w) {
                    if !out.contains(&d) {
                        out.push(d);
                    }
                }
            }
        }
    }

    /// Every open cell.
    pub(super) fn open_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.shape.n).filter(|&c| self.stone[c] == 0)
    }

    /// How much a mark of the side to move on `c` builds and blocks: by
    /// shapes first where the rulebook has that order, the weights
    /// breaking ties; else by the weights alone.
    /// Its lines only: [`Board::capture_order`] adds what captures do, for
    /// a whole list of cells at once.
    #[inline]
    pub(super) fn order(&self, c: usize) -> i64 {
        let weights = self.weights_order(c);
        match &self.shape.order {
            Some(order) => (order.order(&self.codes, c, self.turn) << 32) + weights.min(1 << 31),
            None => weights,
        }
    }

    /// The order by the weights alone: the windows a mark builds and
    /// blocks, attack a little above defence.
    #[inline]
    pub(super) fn weights_order(&self, c: usize) -> i64 {
        let me = self.turn as usize;
        11 * i64::from(self.weight[c][me]) + 10 * i64::from(self.weight[c][1 - me])
    }

    /// The position's worth to the side to move, by its windows: each
    /// holding one side's marks only counts for that side, fuller ones far
    /// more, the side to move's a little more (it moves first); and by the
    /// captures each has made, each worth more than the last.
    pub(super) fn eval(&self) -> i64 {
        let me = self.turn as usize;
        let caught = |s: usize| {
            let n = i64::from(self.caught[s] / self.shape.per_capture);
            // 1 000, 3 000, 6 000, 10 000, …: a window of three marks apiece
            // for five in a row, more as the captures that win come near.
            n * (n + 1) / 2 * i64::from(WEIGHT[(self.shape.k - 2).min(7)])
        };
        let worth = |s: usize| self.total[s] + caught(s);
        (12 * worth(me) - 10 * worth(1 - me)) / 10
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rulebook::Rulebook;
    use std::sync::Arc;

    /// A position of `rules` with X's marks on `xs`, O's on `os` and
    /// `turn` to move, through the position text `setup` reads.
    pub(in crate::search::rows) fn placed(
        rules: &Rulebook,
        xs: &[&str],
        os: &[&str],
        turn: Side,
    ) -> Position {
        placed_with(rules, xs, os, turn, "")
    }

    /// [`placed`], with the position text's further fields `more` (the
    /// captures made: ` 0/4`).
    pub(in crate::search::rows) fn placed_with(
        rules: &Rulebook,
        xs: &[&str],
        os: &[&str],
        turn: Side,
        more: &str,
    ) -> Position {
        let grid = rules.grid();
        let rows: Vec<String> = (1..=grid.height())
            .rev()
            .map(|y| {
                let mut row = String::new();
                let mut empty = 0;
                for x in 0..grid.width() {
                    let name = format!("{}{y}", char::from(b'a' + x as u8));
                    let mark = [(xs, 'X'), (os, 'O')]
                        .into_iter()
                        .find(|(names, _)| names.contains(&name.as_str()));
                    match mark {
                        Some((_, m)) => {
                            if empty > 0 {
                                row += &empty.to_string();
                            }
                            empty = 0;
                            row.push(m);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    row += &empty.to_string();
                }
                row
            })
            .collect();
        let text = format!("{} {} - -{more}", rows.join("/"), turn.to_char());
        rules.parse_position(&text).unwrap()
    }

    #[test]
    fn with_two_marks_a_turn_the_kept_board_turns_as_the_rules_do() {
        let rules = Rulebook::builtin("connect6").unwrap();
        let shape = Shape::new(&rules);
        let open = vec![true; shape.n];
        let cells = ["j10", "k10", "k11", "j9", "j8", "a1", "b1"];
        let mut kept = Board::new(&shape, &rules.initial(), &open);
        for (i, name) in cells.iter().enumerate() {
            let (pos, _) = board_after(&rules, &cells[..i]);
            let fresh = Board::new(&shape, &pos, &open);
            assert_eq!(
                (kept.turn, kept.left(), kept.next_marks(), kept.hash),
                (pos.turn(), fresh.left(), fresh.next_marks(), fresh.hash),
                "after {i} marks"
            );
            kept.play(rules.grid().parse_cell(name).unwrap().index());
        }
        // X j10 | O k10 k11 | X j9 j8 | O a1 b1: X to place the first of two.
        assert_eq!((kept.turn, kept.left(), kept.next_marks()), (Side::X, 2, 2));
        for name in cells.iter().rev() {
            kept.undo(rules.grid().parse_cell(name).unwrap().index());
        }
        let empty = Board::new(&shape, &rules.initial(), &open);
        assert_eq!(
            (kept.turn, kept.left(), kept.hash),
            (Side::X, 1, empty.hash)
        );
        assert_eq!(kept.count, empty.count);
    }

    #[test]
    fn an_open_four_of_six_is_stopped_by_three_pairs_and_prepared_from_twos() {
        // connect6, X: f10 g10 h10 i10, open both ways; O's marks far off.
        let rules = Rulebook::builtin("connect6").unwrap();
        let shape = Shape::new(&rules);
        let open = vec![true; shape.n];
        let xs = ["f10", "g10", "h10", "i10", "a1"];
        let os = ["s19", "s17", "s15", "s13"];
        let b = Board::new(&shape, &placed(&rules, &xs, &os, Side::O), &open);
        let cell = |n: &str| rules.grid().parse_cell(n).unwrap().index();
        let name = |c: usize| rules.grid().name(Cell(c as u16)).to_string();
        // The windows d–i, e–j and f–k: no one cell is in all three.
        let fours = b.threats(Side::X, 2);
        assert_eq!(fours.len(), 3);
        assert!(b.cells_of(&fours, true).is_empty());
        let mut pairs: Vec<(String, String)> = (b.pairs_stopping(&fours).into_iter())
            .map(|(a, c)| (name(a), name(c)))
            .collect();
        pairs.sort();
        let want = [("d10", "j10"), ("e10", "j10"), ("e10", "k10")];
        assert_eq!(pairs, want.map(|(a, c)| (a.to_string(), c.to_string())));
        // O's s13 s15 s17 s19 are two to the windows s10–s15 and s11–s16
        // (three to the others): their open cells prepare, s18 (in
        // windows of three only) does not. X's lone a1 prepares nothing.
        let mut cells = vec![cell("s14")];
        b.add_preparing(Side::O, &mut cells);
        let mut names: Vec<String> = cells.iter().map(|&c| name(c)).collect();
        assert_eq!(names[0], "s14", "kept first");
        names.sort();
        assert_eq!(names, ["s10", "s11", "s12", "s14", "s16"]);
        let mut none = Vec::new();
        let lone = Board::new(&shape, &placed(&rules, &["a1"], &[], Side::O), &open);
        lone.add_preparing(Side::X, &mut none);
        assert!(none.is_empty(), "{none:?}");
    }

    #[test]
    fn a_side_that_wins_with_exactly_k_has_no_win_in_an_overline() {
        // Renju: X wins with exactly five, O with five or more. Each has
        // four in a row with a mark of its own one cell past an end.
        let rules = Rulebook::builtin("renju").unwrap();
        let shape = Shape::new(&rules);
        let xs = ["g8", "h8", "i8", "j8", "l8"];
        let os = ["g4", "h4", "i4", "j4", "l4"];
        let pos = placed(&rules, &xs, &os, Side::X);
        let open = vec![true; shape.n];
        let b = Board::new(&shape, &pos, &open);
        let name = |c: usize| rules.grid().name(Cell(c as u16)).to_string();
        let names = |cells: Vec<usize>| {
            let mut v: Vec<String> = cells.into_iter().map(name).collect();
            v.sort();
            v
        };
        // k8 would make six for X: no win; f8 makes exactly five.
        assert_eq!(names(b.wins(Side::X, 9)), ["f8"]);
        assert_eq!(names(b.wins(Side::O, 9)), ["f4", "k4"]);
        // An overline is forbidden to X as well; f8 wins, so it never is.
        assert!(!b.may(Side::X, rules.grid().parse_cell("k8").unwrap().index()));
        assert!(b.may(Side::X, rules.grid().parse_cell("f8").unwrap().index()));
        assert!(b.may(Side::O, rules.grid().parse_cell("k4").unwrap().index()));
    }

    #[test]
    fn a_capture_leaves_the_kept_board_as_the_board_built_afresh_and_its_undo_restores_it() {
        // Pente (PE2): X's m10 flanks O's k10 l10 with j10 and takes them.
        let rules = Rulebook::builtin("pente").unwrap();
        let shape = Shape::new(&rules);
        let open = vec![true; shape.n];
        let start = rules.initial();
        let cells = ["j10", "k10", "a1", "l10", "m10"];
        let (pos, played) = board_after(&rules, &cells);
        assert_eq!(pos.captures(Side::X), 1);
        for horizon in [false, true] {
            let mut kept = Board::new(&shape, &start, &open);
            for &c in &played {
                kept.play_to(c, horizon);
            }
            let fresh = Board::new(&shape, &pos, &open);
            assert_eq!(kept.stone, fresh.stone, "horizon {horizon}");
            assert_eq!(kept.count, fresh.count);
            assert_eq!((kept.total, kept.hash), (fresh.total, fresh.hash));
            assert_eq!(
                (kept.caught, kept.empty, kept.turn),
                ([1, 0], fresh.empty, Side::O)
            );
            if !horizon {
                assert_eq!((&kept.weight, &kept.near), (&fresh.weight, &fresh.near));
            }
            for &c in played.iter().rev() {
                kept.undo_to(c, horizon);
            }
            let empty = Board::new(&shape, &start, &open);
            assert_eq!(kept.stone, empty.stone);
            assert_eq!((kept.count, kept.weight), (empty.count, empty.weight));
            assert_eq!(
                (kept.total, kept.hash, kept.caught),
                (empty.total, empty.hash, [0, 0])
            );
            assert_eq!((kept.near, kept.empty), (empty.near, empty.empty));
        }
    }

    #[test]
    fn along_random_games_with_captures_the_kept_board_is_the_board_built_afresh() {
        // Pente's marks kept to a 6×6 corner of the centre, so that pairs
        // are flanked often; every move is the engine's, so the board's
        // captures must be the rules' (PE2, PE3).
        use crate::position::{Move, MoveList};
        use crate::rng::Rng;
        let rules = Rulebook::builtin("pente").unwrap();
        let shape = Shape::new(&rules);
        let open = vec![true; shape.n];
        let start = rules.initial();
        let near = |m: &Move| match *m {
            Move::Place { to, .. } => {
                let (x, y) = (to.index() % 19, to.index() / 19);
                (7..13).contains(&x) && (7..13).contains(&y)
            }
            _ => false,
        };
        let mut captured = 0;
        for seed in 1..=40 {
            let mut rng = Rng::new(seed);
            let mut kept = Board::new(&shape, &start, &open);
            let (mut pos, mut line, mut cells) = (start, Vec::new(), Vec::new());
            let mut list = MoveList::new();
            while !pos.is_over() && line.len() < 30 {
                rules.legal_moves(&pos, &line, &mut list).unwrap();
                let moves: Vec<Move> = list.iter().copied().filter(near).collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let Move::Place { to, .. } = mv else {
                    unreachable!()
                };
                pos = rules.play_unchecked(&pos, &line, mv).unwrap();
                line.push(mv);
                kept.play_to(to.index(), seed % 2 == 0);
                cells.push(to.index());
                let fresh = Board::new(&shape, &pos, &open);
                let at = format!("seed {seed}, move {}", line.len());
                assert_eq!(kept.stone, fresh.stone, "{at}");
                assert_eq!(kept.count, fresh.count, "{at}");
                assert_eq!(kept.short, fresh.short, "{at}");
                assert_eq!((kept.total, kept.hash), (fresh.total, fresh.hash), "{at}");
                assert_eq!(
                    (kept.caught, kept.empty),
                    (fresh.caught, fresh.empty),
                    "{at}"
                );
                assert_eq!(kept.turn, pos.turn(), "{at}");
                for side in 0..2 {
                    let mut stones = kept.stones[side].clone();
                    stones.sort_unstable();
                    assert_eq!(stones, fresh.stones[side], "{at}");
                    for (i, &c) in kept.stones[side].iter().enumerate() {
                        assert_eq!(kept.slot[c as usize] as usize, i, "{at}");
                    }
                }
                if seed % 2 == 1 {
                    assert_eq!(
                        (&kept.weight, &kept.near),
                        (&fresh.weight, &fresh.near),
                        "{at}"
                    );
                }
            }
            captured += kept.caught[0] + kept.caught[1];
            for &c in cells.iter().rev() {
                kept.undo_to(c, seed % 2 == 0);
            }
            let empty = Board::new(&shape, &start, &open);
            assert_eq!((kept.count, kept.weight), (empty.count, empty.weight));
            assert_eq!(
                (kept.hash, kept.caught, kept.empty),
                (empty.hash, [0, 0], empty.empty)
            );
        }
        // The games did capture: otherwise they test nothing of captures.
        assert!(captured >= 20, "{captured} captures in 40 games");
    }

    #[test]
    fn a_side_one_capture_short_wins_where_a_mark_captures() {
        // Pente (PE4): O has four captures; its e5 would flank X's c5 d5
        // with b5 and make the fifth.
        let rules = Rulebook::builtin("pente").unwrap();
        let shape = Shape::new(&rules);
        let xs = ["c5", "d5"];
        let os = [
            "b5", "o15", "q15", "s15", "o17", "q17", "s17", "o19", "q19", "s19",
        ];
        let pos = placed_with(&rules, &xs, &os, Side::X, " 0/4");
        let b = Board::new(&shape, &pos, &vec![true; shape.n]);
        let e5 = rules.grid().parse_cell("e5").unwrap().index();
        assert_eq!(b.wins(Side::O, 9), [e5]);
        assert!(b.has_win(Side::O));
        assert!(!b.has_win(Side::X));
        assert_eq!(b.capture_cells(Side::O), [e5]);
    }

    #[test]
    fn stones_counted_make_a_capture_of_three_worth_three() {
        // Keryo-Pente: fifteen stones win. O has taken twelve; its e5
        // flanks X's b5 c5 d5 with a5 and takes the last three.
        let script = "fn lines() { lines::straight(5) }\n\
            fn wins(run) { run >= 5 }\n\
            fn captures(c) { captures::flank(c, 2) + captures::flank(c, 3) }\n\
            fn capture_wins() { #{ stones: 15 } }";
        let rules = Rulebook::scripted(script, 19, 19).unwrap();
        let shape = Shape::new(&rules);
        let xs = ["b5", "c5", "d5"];
        let os = [
            "a5", "a19", "c19", "e19", "g19", "i19", "k19", "m19", "o19", "q19", "s19", "a17",
            "c17", "e17",
        ];
        let pos = placed_with(&rules, &xs, &os, Side::O, " 0/12");
        let b = Board::new(&shape, &pos, &vec![true; shape.n]);
        let e5 = rules.grid().parse_cell("e5").unwrap().index();
        assert_eq!(b.wins(Side::O, 9), [e5]);
        assert!(b.near_capture_win(Side::O));
    }

    fn board_after(rules: &Rulebook, cells: &[&str]) -> (Position, Vec<usize>) {
        let mut game = Game::new(Arc::new(rules.clone()));
        let mut played = Vec::new();
        for name in cells {
            let to = rules.grid().parse_cell(name).unwrap();
            played.push(to.index());
            let mark = game.position().turn();
            game.play(crate::position::Move::Place { to, mark })
                .unwrap();
        }
        (*game.position(), played)
    }

    #[test]
    fn a_board_kept_move_by_move_is_the_board_built_afresh() {
        // Nineteen by nineteen, five in a row, by the rulebook's own tables.
        let rules = Rulebook::builtin("pente").unwrap();
        let shape = Shape::new(&rules);
        let start = rules.initial();
        let open = vec![true; shape.n];
        let mut kept = Board::new(&shape, &start, &open);
        let cells = ["j10", "k10", "j11", "k11", "j12", "a1", "l12", "k12", "j9"];
        let (pos, played) = board_after(&rules, &cells);
        for &c in &played {
            kept.play(c);
        }
        let fresh = Board::new(&shape, &pos, &open);
        assert_eq!(kept.count, fresh.count);
        assert_eq!(kept.weight, fresh.weight);
        assert_eq!(kept.total, fresh.total);
        assert_eq!(kept.short, fresh.short);
        assert_eq!(kept.hash, fresh.hash);
        assert_eq!(kept.near, fresh.near);
        // X: j9 j10 j11 j12 — wins at j8 or j13.
        let name = |c: usize| rules.grid().name(Cell(c as u16)).to_string();
        let mut wins: Vec<String> = kept.wins(Side::X, 9).into_iter().map(name).collect();
        wins.sort();
        assert_eq!(wins, ["j13", "j8"]);
        for &c in played.iter().rev() {
            kept.undo(c);
        }
        // A move at the horizon brings all but the weights up to date, and
        // its undo leaves the board as it was.
        // a2: an open cell (a1 holds O's mark).
        let a2 = rules.grid().parse_cell("a2").unwrap().index();
        assert!(fresh.is_open(a2));
        let mut full = Board::new(&shape, &pos, &open);
        full.play(a2);
        let mut light = Board::new(&shape, &pos, &open);
        light.play_at_horizon(a2);
        assert_eq!(light.count, full.count);
        assert_eq!(light.short, full.short);
        assert_eq!(
            (light.total, light.hash, light.turn),
            (full.total, full.hash, full.turn)
        );
        assert_eq!(light.wins(Side::X, 9), full.wins(Side::X, 9));
        assert_eq!(light.fours(Side::O), full.fours(Side::O));
        light.undo_at_horizon(a2);
        assert_eq!(light.short, fresh.short);
        assert_eq!(
            (light.count, light.weight),
            (fresh.count.clone(), fresh.weight.clone())
        );
        assert_eq!((light.total, light.hash), (fresh.total, fresh.hash));
        let empty = Board::new(&shape, &start, &open);
        assert_eq!(kept.count, empty.count);
        assert_eq!(kept.weight, empty.weight);
        assert_eq!((kept.total, kept.hash), (empty.total, empty.hash));
        assert_eq!(kept.short, empty.short);
    }

    /// Five or more in a row on 15×15, one mark a turn.
    fn five() -> Rulebook {
        let text = "name = \"five\"\ntitle = \"five\"\nscript = \"k_in_a_row.rhai\"\n\
                    [board]\nwidth = 15\nheight = 15\n[params]\nk = 5\noverline = true\n";
        Rulebook::from_str_at(text, "five.toml", None).unwrap()
    }

    #[test]
    fn the_codes_of_the_order_by_shapes_are_kept_as_built_afresh() {
        // Five in a row on 15×15, one mark a turn: the order by shapes is
        // kept; a blocked cell (not open at the root) is an end of its lines.
        let rules = five();
        let shape = Shape::new(&rules);
        assert!(shape.order.is_some());
        let start = rules.initial();
        let mut open = vec![true; shape.n];
        open[rules.grid().parse_cell("g7").unwrap().index()] = false;
        let cells = ["h8", "h9", "i8", "a1", "j9", "o15", "k10", "g9"];
        let (pos, played) = board_after(&rules, &cells);
        let mut kept = Board::new(&shape, &start, &open);
        for &c in &played {
            kept.play(c);
        }
        let fresh = Board::new(&shape, &pos, &open);
        assert_eq!(kept.codes, fresh.codes);
        for &c in played.iter().rev() {
            kept.undo(c);
        }
        assert_eq!(kept.codes, Board::new(&shape, &start, &open).codes);
    }

    #[test]
    fn the_order_by_shapes_puts_a_four_before_a_three_and_an_open_four_before_a_closed() {
        // X (to move): h8 i9 j10 on a diagonal, open at both ends, and
        // c2 d2 e2 with O's b2 beside.
        let rules = five();
        let shape = Shape::new(&rules);
        let open = vec![true; shape.n];
        let pos = placed(
            &rules,
            &["h8", "i9", "j10", "c2", "d2", "e2"],
            &["b2", "o1", "o2", "o3", "n15", "m15"],
            Side::X,
        );
        let b = Board::new(&shape, &pos, &open);
        let at = |name: &str| b.order(rules.grid().parse_cell(name).unwrap().index());
        // k11 makes an open four; f2 a closed four (b2 holds O's mark);
        // h2, past a gap, a closed three at most.
        assert!(at("k11") > at("f2"), "open four before closed");
        assert!(at("f2") > at("h2"), "four before three");
        assert!(at("f2") > at("j8"), "four before twos");
        // The shapes decide; the weights only break their ties.
        let order = shape.order.as_ref().unwrap();
        for c in b.candidates() {
            assert_eq!(b.order(c) >> 32, order.order(&b.codes, c, Side::X));
        }
    }
}
