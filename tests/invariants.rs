//! Seeded random-game invariants for every built-in rulebook, in the spirit of
//! OpenSpiel's `RandomSimTest` / `RandomSimTestWithUndo`.
//!
//! For each rulebook a fixed number of games is played with uniformly random
//! moves (`Rulebook::random_move`, one `Rng::new(seed)` per game; where the
//! plan says `step_back`, as for gobblet-gobblers, a side that stepped a
//! piece on its last turn mostly steps it back, so that positions recur),
//! and at every position reached the suite checks:
//!
//! 1. a position that is not final has a legal move, a final one has none
//!    (and `random_move` agrees);
//! 2. `Rulebook::check` accepts exactly the legal moves among every candidate
//!    move of the board (every placement, and with twists each placement
//!    with every twist; where pieces stack, every size on every cell; every
//!    step between two cells when the rulebook has pieces or stacks, a
//!    random sample of steps otherwise; where a mill removes, every
//!    removal beside each legal one, one beside each move that removes
//!    nothing and a random sample), and so does
//!    `Game::play`; a refused move leaves the game unchanged (G2), and once the
//!    game is over every move is refused as `GameOver` (G3);
//! 3. after playing each legal move, `Game::undo` restores the position (`==`
//!    and `position_text`) and the move list; at the end the game is undone
//!    back to its start, position by position;
//! 4. the result, the ending and the set of legal moves agree with an
//!    independent referee written here from `RULES.md`, reading only the marks,
//!    the side to move and the pieces in hand (never the engine's tables):
//!    k in a row for classic/four/gomoku (C3, C4, F1, K1, K2, K4, K5) and,
//!    with marks dropping onto the lowest empty cell of a column, for
//!    connect-four (CF1, CF2); three in a row of one's own marks losing for
//!    misere (MI1), and of the one shared mark X for notakto (NK1); a mark of
//!    the mover's choice, three of either mark winning for the mover, for wild
//!    (WI1); marks of either kind, exactly five like marks winning for Order
//!    (X) and a full board for Chaos (O), for order-chaos (OC1); exactly five
//!    in a row winning for X and five or more for O, X's first mark on h8, and
//!    X's overlines, double fours and double threes (a three counting only
//!    where the move making it a straight four is itself allowed, judged
//!    again to any depth) worked out here, for renju (RJ1, RJ2); the 76 lines
//!    of the 4×4×4 cube, worked out here, for qubic (QB1), and the 49 of the
//!    3×3×3 cube, its centre closed to X's first mark, for cube3 (CB1); placement, then
//!    steps (orthogonal, with jumps, to the eight neighbours, or along the
//!    lines of the morris board), k in a row (and, for teeko, the 2×2
//!    squares), no-move loss and third-repetition draw for moving/moving-jumps
//!    (M2–M9), teeko (TK1, TK2) and three-mens-morris (MM1); and sub-board
//!    states, redirect and the big board for ultimate (U2–U8, U10) and for
//!    ultimate-both, where a drawn sub-board counts for both sides (UH1); a
//!    placement, then a quarter turn of a quadrant worked out here (or the
//!    placement alone where it makes five), and the whole board judged for
//!    both sides after the move, for pentago (PG1–PG3); the 24 points and 16
//!    mills written out here, placement, then steps along the lines (or
//!    flying at three), a mill removing one piece outside the opponent's
//!    mills, the loss at two pieces or without a move and the
//!    third-repetition draw, for nine-mens-morris (NM1–NM3); the stacks
//!    replayed here from the moves (two pieces of each of three sizes a
//!    side, put from hand or moved where they show, each onto an empty
//!    cell or a strictly smaller top), their position text, the moves' own
//!    texts, the lines of the tops after the whole move, the opponent's
//!    judged first, and the third occurrence of the whole state drawing,
//!    for gobblet-gobblers (GB1, GB2);
//! 5. `position_text` parses back to the same `Position` (except after a
//!    repetition draw, which is a game-level ending the text cannot carry).
//!
//! Checks 1, 4 and 5 also run on child positions (legal moves played and
//! undone): on every child on the small boards, on a random dozen or so per
//! position on the large ones.
//! A failure prints the rulebook, the seed, the moves and the position text.

use gridrules_conformance::LINES_3X3;
use gridrules_core::playout::Rng;
use gridrules_core::{
    Cell, CellSet, Ending, Game, Grid, Move, MoveList, Outcome, PlayError, Position, Refusal,
    Removal, Rulebook, Side,
};
use std::collections::BTreeMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// A set of moves with a cheap hash (the default SipHash showed in profiles).
type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<MoveHasher>>;

/// A multiplicative hash, plenty for moves (a tag and one or two cell numbers).
#[derive(Default)]
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(7) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

// ---------------------------------------------------------------------------
// The plan per rulebook
// ---------------------------------------------------------------------------

/// The independent referee of a rulebook family.
#[derive(Debug, Clone, Copy)]
enum Referee {
    /// Marks are placed and never move; `k` or more in a row wins; a full board
    /// without a line is a draw. With `gravity`, a mark goes only on the lowest
    /// empty cell of a column (Connect Four).
    KInARow { k: i64, gravity: bool },
    /// 19×19 Connect6: X places one mark, then each turn is two marks of
    /// one side (SX1); six or more in a row win, on either mark (SX2).
    Connect6,
    /// Gomoku with the pie rule: as `KInARow { k: 5 }` on 15×15, and O may
    /// answer the first move with `swap`, which changes no mark and leaves
    /// O to move (PI1).
    GomokuSwap,
    /// 15×15 Renju: X's first mark goes on h8; exactly five in a row wins
    /// for X, five or more for O (RJ1); X may not make an overline, a
    /// double four or a double three unless the move makes exactly five, a
    /// three counting only where the move making it a straight four is
    /// itself allowed (RJ2); a full board, or a side left without a move,
    /// draws.
    Renju,
    /// 19×19 Pente: five or more in a row win (PE1); a mark flanking
    /// exactly two opponent marks with an own mark beyond takes them, in
    /// all eight directions (PE2), never the mover's own (PE3); five
    /// captures win (PE4).
    Pente,
    /// 3×3, marks placed: completing three in a row loses; a full board without
    /// a line is a draw. With `shared`, both sides place X (Notakto).
    Misere { shared: bool },
    /// 3×3, each move places X or O, the mover's choice; three in a row of
    /// either mark wins for the mover; a full board without a line is a draw.
    Wild,
    /// 6×6, each move places X or O, the mover's choice; exactly five like
    /// marks in a row win for Order (X), whoever placed them; a full board
    /// without them wins for Chaos (O).
    OrderChaos,
    /// A `size`×`size`×`size` cube shown as `size` layers side by side;
    /// `size` in a row along any line of the cube wins (76 lines at 4, 49
    /// at 3); a full cube is a draw. With `centre_closed`, X's first mark
    /// may not take the cube's centre (CB1).
    Cube { size: i64, centre_closed: bool },
    /// `pieces` each, placed then moved (see [`Steps`]); `k` in a row (or,
    /// with `squares`, the four cells of a 2×2 square) wins; no move loses; the
    /// third occurrence of a position draws.
    Moving {
        pieces: usize,
        k: i64,
        steps: Steps,
        squares: bool,
    },
    /// 3×3, each side keeps `keep` marks: a side that has them all places
    /// one more on an empty cell and its oldest vanishes (VA1); three in a
    /// row after the vanishing wins, the third occurrence of a position
    /// (marks, their age order, side to move) draws (VA2).
    Vanishing { keep: usize },
    /// 7×6 Connect Four (CF1, CF2) where a move may instead pop an own mark
    /// out of the bottom row, the marks above dropping (PO1); after any
    /// move four for the mover wins (even with four for the opponent), four
    /// for the opponent alone wins for the opponent; no move left draws, so
    /// does the third occurrence of a position (PO2).
    PopOut,
    /// 5×5 cubes, blank at the start, no mark placed: a move takes a border
    /// cube, blank or the mover's, and pushes it back in, marked, at another
    /// end of its row or column, the cubes between shifting (QX1); five of
    /// the opponent's after it wins for the opponent, even beside five of
    /// the mover's; five of the mover's alone wins; the third occurrence of
    /// a position draws (QX2).
    Quixo,
    /// 6×6 in four 3×3 quadrants: a move places the mover's mark on an
    /// empty cell, then turns one quadrant a quarter turn either way (PG1);
    /// a placement that makes five or more in a row wins at once, without
    /// a turn (PG2); after the turn, five for the mover alone wins, for the
    /// opponent alone wins for the opponent, for both draws; a full board
    /// without five draws (PG3).
    Pentago,
    /// Nine 3×3 boards in a 3×3 big board with the redirect rule. With `both`,
    /// a board filled without a line counts for both sides (ultimate-both).
    Ultimate { both: bool },
    /// Nine men's morris on the 24 points of [`MORRIS_POINTS`]: nine pieces
    /// each, placed, then stepped to the next point along a mill's line
    /// (NM1); a move that makes a mill removes one opponent piece outside
    /// the opponent's mills, or any when all are in one (NM2); at three
    /// pieces a side flies, at two (board and hand) or without a move it
    /// loses, the third occurrence of a position draws (NM3).
    NineMensMorris,
    /// Gobblet Gobblers on 3×3: each side holds two pieces of each of the
    /// sizes S < M < L; a move puts one from hand, or moves one of the
    /// mover's pieces that shows to another cell, onto an empty cell or
    /// over a strictly smaller top of either side, which stays beneath and
    /// shows again when its cover leaves (GB1); after the whole move three
    /// tops in a row of the mover's opponent win for the opponent (even
    /// beside three of the mover's), else three of the mover's win for the
    /// mover; the third occurrence of a position (every stack, covered
    /// pieces too, the hands and the side to move) draws (GB2). Worked out
    /// on [`GobbletState`], replayed from the moves.
    Gobblet,
}

/// Where a piece may go in a [`Referee::Moving`] rulebook.
#[derive(Debug, Clone, Copy)]
enum Steps {
    /// To an empty cell sharing a side; with `jumps`, also two cells along a
    /// row or column over an empty cell.
    Orthogonal { jumps: bool },
    /// To any of the eight neighbours (Teeko).
    King,
    /// Along a row or a column, or along a diagonal between the centre and a
    /// corner (three men's morris).
    Morris,
}

/// How one rulebook is exercised.
#[derive(Debug, Clone, Copy)]
struct Plan {
    referee: Referee,
    /// Board size the referee was written for.
    size: (u32, u32),
    /// Number of random games (seeds `SEED0..SEED0 + games`).
    games: u64,
    /// Random step candidates per position when the rulebook has no pieces
    /// (with pieces, every pair of cells is a candidate); where mills remove,
    /// also this many random removals.
    step_samples: usize,
    /// On how many child positions (legal moves played and undone) checks 1,
    /// 4 and 5 run at each position: all of them when there are at most this
    /// many, else about this many at random.
    children: usize,
    /// In how many quarters of its turns a side steps back the piece it
    /// moved last, where that is legal, instead of a random move: the
    /// shuffling that makes positions recur (0: always random).
    step_back: u64,
}

const SEED0: u64 = 0x6772_6964_0000;

/// The built-in rulebooks this file has a referee for; a new built-in must be
/// added here (see `every_builtin_rulebook_is_covered`).
const COVERED: &[&str] = &[
    "classic",
    "connect-four",
    "connect6",
    "cube3",
    "pente",
    "four",
    "gobblet-gobblers",
    "gomoku",
    "gomoku-swap",
    "misere",
    "moving",
    "moving-jumps",
    "nine-mens-morris",
    "notakto",
    "order-chaos",
    "pentago",
    "popout",
    "quixo",
    "qubic",
    "renju",
    "teeko",
    "three-mens-morris",
    "ultimate",
    "ultimate-both",
    "vanishing",
    "wild",
];

fn plan(name: &str) -> Plan {
    let k_in_a_row = |k| Referee::KInARow { k, gravity: false };
    let cube = |size, centre_closed| Referee::Cube {
        size,
        centre_closed,
    };
    let moving = |pieces, k, steps, squares| Referee::Moving {
        pieces,
        k,
        steps,
        squares,
    };
    let (referee, size, games, step_samples, children) = match name {
        "classic" => (k_in_a_row(3), (3, 3), 3000, 32, usize::MAX),
        "four" => (k_in_a_row(4), (4, 4), 3000, 32, usize::MAX),
        "gomoku" => (k_in_a_row(5), (15, 15), 200, 300, 4),
        "gomoku-swap" => (Referee::GomokuSwap, (15, 15), 200, 300, 4),
        "renju" => (Referee::Renju, (15, 15), 200, 300, 4),
        "connect-four" => (
            Referee::KInARow {
                k: 4,
                gravity: true,
            },
            (7, 6),
            2000,
            32,
            usize::MAX,
        ),
        "misere" => (
            Referee::Misere { shared: false },
            (3, 3),
            3000,
            32,
            usize::MAX,
        ),
        "notakto" => (
            Referee::Misere { shared: true },
            (3, 3),
            3000,
            32,
            usize::MAX,
        ),
        "wild" => (Referee::Wild, (3, 3), 3000, 32, usize::MAX),
        "order-chaos" => (Referee::OrderChaos, (6, 6), 600, 32, 8),
        "qubic" => (cube(4, false), (16, 4), 600, 32, 8),
        "cube3" => (cube(3, true), (9, 3), 2000, 32, usize::MAX),
        "moving" => (
            moving(3, 3, Steps::Orthogonal { jumps: false }, false),
            (3, 3),
            3000,
            0,
            usize::MAX,
        ),
        "moving-jumps" => (
            moving(3, 3, Steps::Orthogonal { jumps: true }, false),
            (3, 3),
            3000,
            0,
            usize::MAX,
        ),
        // Random Teeko games run to ~400 moves, each checking 625 steps.
        "teeko" => (moving(4, 4, Steps::King, true), (5, 5), 30, 0, 8),
        "three-mens-morris" => (
            moving(3, 3, Steps::Morris, false),
            (3, 3),
            2000,
            0,
            usize::MAX,
        ),
        "connect6" => (Referee::Connect6, (19, 19), 60, 0, 4),
        "pente" => (Referee::Pente, (19, 19), 60, 0, 4),
        "ultimate" => (Referee::Ultimate { both: false }, (9, 9), 1500, 16, 12),
        "ultimate-both" => (Referee::Ultimate { both: true }, (9, 9), 800, 16, 12),
        "vanishing" => (Referee::Vanishing { keep: 3 }, (3, 3), 2000, 32, usize::MAX),
        "popout" => (Referee::PopOut, (7, 6), 1000, 32, usize::MAX),
        "quixo" => (Referee::Quixo, (5, 5), 1000, 32, usize::MAX),
        // Up to 288 moves a position (36 cells, 8 turns each), every one
        // played and undone: a sample of children is checked in depth.
        "pentago" => (Referee::Pentago, (6, 6), 300, 32, 8),
        // Random games run to about 70 moves, and each position asks `check`
        // about some 2,500 candidates (every step between two of the 49
        // cells): two dozen games, about 3 s, with a sample of children, as
        // flying and removals give dozens of moves a position.
        "nine-mens-morris" => (Referee::NineMensMorris, (7, 7), 24, 32, 8),
        // Random games last about a dozen moves, with up to ~70 legal moves
        // a position, every child checked; every sized placement and every
        // step is a candidate, so no step is sampled.
        "gobblet-gobblers" => (Referee::Gobblet, (3, 3), 400, 0, usize::MAX),
        other => panic!(
            "no independent referee for the built-in rulebook `{other}`: add one to tests/invariants.rs"
        ),
    };
    // Gobblet's random games end by a line in a dozen moves, long before a
    // position recurs: sides that often step their last moved piece back
    // reach the third occurrence too (GB2).
    let step_back = match name {
        "gobblet-gobblers" => 3,
        _ => 0,
    };
    Plan {
        referee,
        size,
        games,
        step_samples,
        children,
        step_back,
    }
}

// ---------------------------------------------------------------------------
// One game in progress, as the test sees it
// ---------------------------------------------------------------------------

/// The test's own record of a game: the moves and every position reached,
/// kept apart from `Game` so that undo can be checked against it.
struct Run<'a> {
    rb: &'a Rulebook,
    referee: Referee,
    seed: u64,
    moves: Vec<Move>,
    history: Vec<Position>,
    /// How many positions (children too) `check_position` checked.
    checked: std::cell::Cell<u64>,
}

impl Run<'_> {
    fn pos(&self) -> &Position {
        self.history.last().expect("a run has its start position")
    }

    fn push(&mut self, mv: Move, pos: Position) {
        self.moves.push(mv);
        self.history.push(pos);
    }

    fn pop(&mut self) -> Option<Move> {
        self.history.pop();
        self.moves.pop()
    }

    fn moves_text(&self, moves: &[Move]) -> String {
        let names: Vec<String> = moves.iter().map(|&m| self.rb.move_text(m)).collect();
        names.join(" ")
    }

    /// The failure message: what went wrong, and how to get there again.
    fn report(&self, what: fmt::Arguments<'_>) -> String {
        format!(
            "{what}\n  rulebook: {}\n  seed: {} (game {} of the run)\n  moves ({}): {}\n  position: {}\n  ending: {:?}",
            self.rb.name(),
            self.seed,
            self.seed - SEED0,
            self.moves.len(),
            self.moves_text(&self.moves),
            self.rb.position_text(self.pos()),
            self.pos().ending(),
        )
    }

    fn names(&self, moves: impl IntoIterator<Item = Move>) -> Vec<String> {
        let mut names: Vec<String> = moves.into_iter().map(|m| self.rb.move_text(m)).collect();
        names.sort();
        names
    }
}

/// `assert!` with the run's context (rulebook, seed, moves, position).
macro_rules! ensure {
    ($run:expr, $cond:expr, $($fmt:tt)+) => {
        if !$cond {
            panic!("{}", $run.report(format_args!($($fmt)+)));
        }
    };
}

// ---------------------------------------------------------------------------
// The independent referee
// ---------------------------------------------------------------------------

/// What the rules say about a position, worked out from the marks alone.
struct Verdict {
    ending: Option<(Outcome, Ending)>,
    legal: HashSet<Move>,
}

impl Verdict {
    /// `ending`, and `moves` legal unless it ended the game.
    fn unless_ended(ending: Option<(Outcome, Ending)>, moves: HashSet<Move>) -> Verdict {
        let legal = if ending.is_some() {
            HashSet::default()
        } else {
            moves
        };
        Verdict { ending, legal }
    }
}

/// Whether `a` and `b` have the same marks and the same side to move.
fn same_marks_and_turn(a: &Position, b: &Position) -> bool {
    Side::ALL.iter().all(|&s| a.marks(s) == b.marks(s)) && a.turn() == b.turn()
}

const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const NEIGHBOURS: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The marks as a plain grid of columns and rows, read once from the position.
struct Board {
    width: i64,
    height: i64,
    marks: Vec<Option<Side>>,
}

impl Board {
    fn new(g: Grid, pos: &Position) -> Board {
        let (width, height) = (i64::from(g.width()), i64::from(g.height()));
        let mut marks = Vec::with_capacity(g.len());
        for r in 0..height {
            for c in 0..width {
                marks.push(g.cell(c, r).and_then(|cell| pos.mark_at(cell)));
            }
        }
        Board {
            width,
            height,
            marks,
        }
    }

    /// The mark on column `c`, row `r`; `None` off the board.
    fn at(&self, c: i64, r: i64) -> Option<Option<Side>> {
        let on = (0..self.width).contains(&c) && (0..self.height).contains(&r);
        on.then(|| self.marks[(r * self.width + c) as usize])
    }

    /// Whether `side` has an unbroken run of `k` or more marks along a row, a
    /// column or a diagonal inside the rectangle `(col0, row0, width, height)`.
    fn has_run(&self, side: Side, k: i64, rect: (i64, i64, i64, i64)) -> bool {
        self.any_run(side, rect, |n| n >= k)
    }

    /// Whether `side` has a maximal unbroken run (one that cannot be made
    /// longer inside the rectangle) along a row, a column or a diagonal whose
    /// length `fits`.
    fn any_run(
        &self,
        side: Side,
        (c0, r0, w, h): (i64, i64, i64, i64),
        fits: impl Fn(i64) -> bool,
    ) -> bool {
        let own = |c: i64, r: i64| {
            (c0..c0 + w).contains(&c)
                && (r0..r0 + h).contains(&r)
                && self.at(c, r) == Some(Some(side))
        };
        for r in r0..r0 + h {
            for c in c0..c0 + w {
                if !own(c, r) {
                    continue;
                }
                for (dc, dr) in DIRECTIONS {
                    if own(c - dc, r - dr) {
                        continue; // count each run once, from its first cell
                    }
                    let mut n = 1;
                    while own(c + n * dc, r + n * dr) {
                        n += 1;
                    }
                    if fits(n) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `side` holds the four cells of a 2×2 square inside the rectangle.
    fn has_square(&self, side: Side, (c0, r0, w, h): (i64, i64, i64, i64)) -> bool {
        let own = |c: i64, r: i64| self.at(c, r) == Some(Some(side));
        (r0..r0 + h - 1).any(|r| {
            (c0..c0 + w - 1)
                .any(|c| own(c, r) && own(c + 1, r) && own(c, r + 1) && own(c + 1, r + 1))
        })
    }

    /// Whether `side` holds every cell of one of the lines of the cube of
    /// side `size`.
    fn has_cube_line(&self, side: Side, size: i64) -> bool {
        cube_lines(size)
            .iter()
            .any(|line| line.iter().all(|&(c, r)| self.at(c, r) == Some(Some(side))))
    }

    /// Whether every cell of the rectangle holds a mark.
    fn full(&self, (c0, r0, w, h): (i64, i64, i64, i64)) -> bool {
        (r0..r0 + h).all(|r| (c0..c0 + w).all(|c| self.at(c, r) != Some(None)))
    }
}

/// A line through a cube, its cells as (column, row) on the board.
type CubeLine = Vec<(i64, i64)>;

/// The lines through the cube of side `n` (76 at 4, 49 at 3), as (column,
/// row) on the board: cell (x, y, z) of the cube is column `z * n + x`, row
/// `y`.
fn cube_lines(n: i64) -> &'static [CubeLine] {
    static LINES: [OnceLock<Vec<CubeLine>>; 2] = [OnceLock::new(), OnceLock::new()];
    let slot = match n {
        3 => 0,
        4 => 1,
        _ => panic!("no cube of side {n} here"),
    };
    LINES[slot].get_or_init(|| {
        let on = |v: i64| (0..n).contains(&v);
        let mut lines = Vec::new();
        for dx in -1..=1_i64 {
            for dy in -1..=1_i64 {
                for dz in -1..=1_i64 {
                    // One of each pair of opposite directions: 13 in all.
                    if [dx, dy, dz].into_iter().find(|&d| d != 0) != Some(1) {
                        continue;
                    }
                    for (x, y, z) in (0..n * n * n).map(|i| (i % n, i / n % n, i / (n * n))) {
                        if on(x + (n - 1) * dx) && on(y + (n - 1) * dy) && on(z + (n - 1) * dz) {
                            lines.push(
                                (0..n)
                                    .map(|i| ((z + i * dz) * n + x + i * dx, y + i * dy))
                                    .collect(),
                            );
                        }
                    }
                }
            }
        }
        let want = (n + 2).pow(3) - n.pow(3);
        assert_eq!(
            lines.len() as i64,
            want / 2,
            "the cube of side {n} has ((n+2)³ − n³)/2 lines"
        );
        lines
    })
}

/// What RJ2 makes of X's mark on an empty renju cell, judged here from the
/// marks alone (the algorithm of `tests/perft/derive/renju.py`, the RIF
/// reading with its decisions: a four or a three must hold the new mark; one
/// completion point at most on each side of it; a straight four is one four).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RenjuCell {
    /// Exactly five in some direction: allowed whatever else it makes, and
    /// it wins (RJ1, RJ2).
    Five,
    /// An unbroken run of six or more X through the mark.
    Overline,
    /// Two or more fours, two on one line included.
    DoubleFour,
    /// Threes in two or more directions.
    DoubleThree,
    /// None of these.
    Allowed,
}

impl RenjuCell {
    /// Whether X may not play there (RJ2).
    fn forbidden(self) -> bool {
        matches!(
            self,
            RenjuCell::Overline | RenjuCell::DoubleFour | RenjuCell::DoubleThree
        )
    }
}

/// Renju's judge (RJ2) on the marks of a [`Board`], which it changes while it
/// looks and leaves as it found them. Cells are (column, row).
impl Board {
    fn put(&mut self, (c, r): (i64, i64), mark: Option<Side>) {
        self.marks[(r * self.width + c) as usize] = mark;
    }

    /// The cell `k` steps from `s` along `d`.
    fn renju_step((c, r): (i64, i64), (dc, dr): (i64, i64), k: i64) -> (i64, i64) {
        (c + k * dc, r + k * dr)
    }

    fn renju_x(&self, (c, r): (i64, i64)) -> bool {
        self.at(c, r) == Some(Some(Side::X))
    }

    /// The length of the unbroken run of X through `s` along `d`, `s`
    /// counted as X.
    fn renju_run(&self, s: (i64, i64), d: (i64, i64)) -> i64 {
        let mut n = 1;
        for sign in [-1, 1] {
            let mut k = 1;
            while self.renju_x(Self::renju_step(s, d, sign * k)) {
                n += 1;
                k += 1;
            }
        }
        n
    }

    /// The first cell from `s` along `d` (`sign` 1) or against it (-1) that
    /// holds no X, if it is on the board and empty.
    fn renju_gap(&self, s: (i64, i64), d: (i64, i64), sign: i64) -> Option<(i64, i64)> {
        let mut k = 1;
        loop {
            let at = Self::renju_step(s, d, sign * k);
            match self.at(at.0, at.1) {
                Some(Some(Side::X)) => k += 1,
                Some(None) => return Some(at),
                _ => return None,
            }
        }
    }

    /// The fours X, already on `s`, makes along `d`: each empty cell where a
    /// further X makes exactly five through `s` is one, but the two of a
    /// straight four (.XXXX.) are one together.
    fn renju_fours(&mut self, s: (i64, i64), d: (i64, i64)) -> usize {
        let mut points = 0;
        for sign in [-1, 1] {
            if let Some(q) = self.renju_gap(s, d, sign) {
                self.put(q, Some(Side::X));
                points += usize::from(self.renju_run(s, d) == 5);
                self.put(q, None);
            }
        }
        // Every cell between the two points is X: four of them are a
        // straight four, one four; more (X.XXX.X, XX.XX.XX-like) are two.
        if points == 2 && self.renju_run(s, d) == 4 {
            1
        } else {
            points
        }
    }

    /// Whether the run of X through `s` along `d` is a straight four: four
    /// long, the cell just beyond each end on the board and empty, the one
    /// two beyond not X (each completion then makes exactly five).
    fn renju_straight_four(&self, s: (i64, i64), d: (i64, i64)) -> bool {
        self.renju_run(s, d) == 4
            && [-1, 1].into_iter().all(|sign| {
                let mut k = 1;
                while self.renju_x(Self::renju_step(s, d, sign * k)) {
                    k += 1;
                }
                let (c, r) = Self::renju_step(s, d, sign * k);
                self.at(c, r) == Some(None) && !self.renju_x(Self::renju_step(s, d, sign * (k + 1)))
            })
    }

    /// Whether X, already on `s`, makes a three along `d`: the first cell
    /// without X on either side of `s` is empty, X there makes a straight
    /// four through `s`, and that move is itself not forbidden (judged with
    /// `s` on the board, to any depth).
    fn renju_three(&mut self, s: (i64, i64), d: (i64, i64)) -> bool {
        for sign in [-1, 1] {
            let Some(p) = self.renju_gap(s, d, sign) else {
                continue;
            };
            self.put(p, Some(Side::X));
            let straight = self.renju_straight_four(s, d);
            self.put(p, None);
            if straight && !self.renju_judge(p).forbidden() {
                return true;
            }
        }
        false
    }

    /// RJ2's verdict on X's mark on the empty cell `s`: five first, then
    /// overline, double four, double three.
    fn renju_judge(&mut self, s: (i64, i64)) -> RenjuCell {
        assert_eq!(self.at(s.0, s.1), Some(None), "X judged on a taken cell");
        self.put(s, Some(Side::X));
        let runs = DIRECTIONS.map(|d| self.renju_run(s, d));
        let verdict = if runs.contains(&5) {
            RenjuCell::Five
        } else if runs.iter().any(|&n| n >= 6) {
            RenjuCell::Overline
        } else if DIRECTIONS
            .iter()
            .map(|&d| self.renju_fours(s, d))
            .sum::<usize>()
            >= 2
        {
            RenjuCell::DoubleFour
        } else if DIRECTIONS
            .iter()
            .filter(|&&d| self.renju_three(s, d))
            .count()
            >= 2
        {
            RenjuCell::DoubleThree
        } else {
            RenjuCell::Allowed
        };
        self.put(s, None);
        verdict
    }
}

/// The 24 points of the nine men's morris board, as NM1 names them on the
/// 7×7 grid; the other 25 cells do not exist for play.
const MORRIS_POINTS: [&str; 24] = [
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
    "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7",
];

/// The 16 mills of NM1, each in order along its line: the sides of the
/// three squares, then the lines joining their midpoints. A piece steps
/// between neighbours in one of them.
const MORRIS_MILLS: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

/// The cell a point's name (`a1`, column letter and row digit, row 1 at the
/// bottom) stands for, read here rather than by the engine's parser.
fn point(g: Grid, name: &str) -> Cell {
    let &[col, row] = name.as_bytes() else {
        panic!("`{name}` is not a point's name");
    };
    let cell = g
        .cell(i64::from(col - b'a'), i64::from(row - b'1'))
        .unwrap_or_else(|| panic!("{name} is off the {}×{} grid", g.width(), g.height()));
    // The engine's name for it must agree, or the messages would mislead.
    assert_eq!(
        g.name(cell).to_string(),
        name,
        "the grid names {name} otherwise"
    );
    cell
}

fn empty_cells(g: Grid, pos: &Position) -> impl Iterator<Item = Cell> + '_ {
    g.cells().filter(move |&c| pos.mark_at(c).is_none())
}

fn coords(g: Grid, c: Cell) -> (i64, i64) {
    (i64::from(g.col(c)), i64::from(g.row(c)))
}

/// How often the position `same` recognises occurred before the last one
/// in `run`; a third occurrence ends the game, so more is a fault.
fn earlier_occurrences(run: &Run<'_>, same: impl Fn(&Position) -> bool) -> usize {
    let earlier = run.history[..run.history.len() - 1]
        .iter()
        .filter(|p| same(p))
        .count();
    ensure!(
        run,
        earlier < 3,
        "the position occurred {} times: the game should have ended at the third",
        earlier + 1
    );
    earlier
}

/// Gobblet Gobblers' sizes, smallest first (GB1).
const GOBBLET_SIZES: [char; 3] = ['S', 'M', 'L'];
/// The pieces of each size a side holds at the start (GB1).
const GOBBLET_EACH: u8 = 2;
/// The most pieces a cell could hold: every piece of both sides.
const GOBBLET_DEPTH: usize = 2 * GOBBLET_SIZES.len() * GOBBLET_EACH as usize;
/// How often the random Gobblet games met a position after a move where
/// the mover's opponent shows a line: `[0]` beside a line of the mover's,
/// `[1]` alone (the mover uncovered it). Positions, children included.
static GOBBLET_OPPONENT_LINES: [std::sync::atomic::AtomicU64; 2] = [
    std::sync::atomic::AtomicU64::new(0),
    std::sync::atomic::AtomicU64::new(0),
];

/// A Gobblet Gobblers move as the referee reads it: a piece of a size from
/// hand to a cell, or the piece that shows on one cell to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GobbletMove {
    Hand { to: usize, size: usize },
    Shift { from: usize, to: usize },
}

/// A cell index's name: column letter, row digit from 1 at the bottom.
fn gobblet_name(i: usize) -> String {
    format!("{}{}", char::from(b'a' + (i % 3) as u8), i / 3 + 1)
}

impl GobbletMove {
    /// The move's text as GB1 writes it: `b2=L`, `a1-b2`.
    fn text(self) -> String {
        match self {
            GobbletMove::Hand { to, size } => {
                format!("{}={}", gobblet_name(to), GOBBLET_SIZES[size])
            }
            GobbletMove::Shift { from, to } => {
                format!("{}-{}", gobblet_name(from), gobblet_name(to))
            }
        }
    }
}

/// The whole state of a Gobblet Gobblers game as the referee keeps it,
/// replayed from the moves: what GB2's repetition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GobbletState {
    /// Each cell's pieces, bottom first, as (side, size from 0 = S); the
    /// unused slots above them `None`.
    cells: [[Option<(Side, usize)>; GOBBLET_DEPTH]; 9],
    /// The pieces each side (X, O) holds, by size.
    hands: [[u8; 3]; 2],
    turn: Side,
}

impl GobbletState {
    /// The start: an empty board, two of each size in each hand, X to move.
    fn new() -> GobbletState {
        GobbletState {
            cells: [[None; GOBBLET_DEPTH]; 9],
            hands: [[GOBBLET_EACH; 3]; 2],
            turn: Side::X,
        }
    }

    /// How many pieces stand on cell `i`.
    fn height(&self, i: usize) -> usize {
        self.cells[i].iter().take_while(|p| p.is_some()).count()
    }

    /// The piece that shows on cell `i`.
    fn top(&self, i: usize) -> Option<(Side, usize)> {
        self.cells[i].iter().rev().find_map(|&p| p)
    }

    /// Cell `i`'s pieces, top first.
    fn pieces(&self, i: usize) -> Vec<(Side, usize)> {
        self.cells[i].iter().rev().filter_map(|&p| p).collect()
    }

    /// Whether a piece of `size` may arrive on cell `i`: it is empty or its
    /// top is strictly smaller, whoever's it is (GB1).
    fn open(&self, i: usize, size: usize) -> bool {
        self.top(i).is_none_or(|(_, top)| top < size)
    }

    /// Every move of the side to move (GB1).
    fn moves(&self) -> Vec<GobbletMove> {
        let side = self.turn;
        let mut out = Vec::new();
        for size in 0..GOBBLET_SIZES.len() {
            if self.hands[side as usize][size] > 0 {
                out.extend(
                    (0..9)
                        .filter(|&to| self.open(to, size))
                        .map(|to| GobbletMove::Hand { to, size }),
                );
            }
        }
        for from in 0..9 {
            if let Some((owner, size)) = self.top(from)
                && owner == side
            {
                out.extend(
                    (0..9)
                        .filter(|&to| to != from && self.open(to, size))
                        .map(|to| GobbletMove::Shift { from, to }),
                );
            }
        }
        out
    }

    /// Makes `mv` for the side to move, or says which part of GB1 it breaks.
    fn apply(&mut self, mv: GobbletMove) -> Result<(), String> {
        let side = self.turn;
        let (piece, to) = match mv {
            GobbletMove::Hand { to, size } => {
                let held = &mut self.hands[side as usize][size];
                if *held == 0 {
                    return Err(format!("{side} has no {} in hand", GOBBLET_SIZES[size]));
                }
                *held -= 1;
                ((side, size), to)
            }
            GobbletMove::Shift { from, to } => {
                let h = self.height(from);
                match self.top(from) {
                    Some((owner, size)) if owner == side && from != to => {
                        self.cells[from][h - 1] = None;
                        ((side, size), to)
                    }
                    _ => return Err(format!("{side} has no piece showing to move there")),
                }
            }
        };
        if !self.open(to, piece.1) {
            return Err(format!(
                "{} is not empty nor topped by a smaller piece",
                gobblet_name(to)
            ));
        }
        let h = self.height(to);
        self.cells[to][h] = Some(piece);
        self.turn = side.other();
        Ok(())
    }

    /// Whether the tops of `side` stand three in a row (GB2).
    fn shows_line(&self, side: Side) -> bool {
        LINES_3X3.iter().any(|line| {
            line.iter()
                .all(|&i| self.top(i).is_some_and(|(s, _)| s == side))
        })
    }

    /// The board, the side to move and the hands as the position text
    /// writes them: rows from the top, `/` between them, a run of empty
    /// cells as its length, a stack as its top then the covered pieces, top
    /// first, in brackets; each hand smallest first, `-` for none.
    fn text(&self) -> String {
        let piece = |(s, size): (Side, usize)| format!("{s}{}", GOBBLET_SIZES[size]);
        let rows: Vec<String> = (0..3)
            .rev()
            .map(|r| {
                let (mut row, mut empty) = (String::new(), 0);
                for c in 0..3 {
                    let pieces = self.pieces(3 * r + c);
                    let Some((&top, covered)) = pieces.split_first() else {
                        empty += 1;
                        continue;
                    };
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row += &piece(top);
                    if !covered.is_empty() {
                        let covered: Vec<String> = covered.iter().map(|&p| piece(p)).collect();
                        row += &format!("({})", covered.concat());
                    }
                }
                if empty > 0 {
                    row += &empty.to_string();
                }
                row
            })
            .collect();
        let hand = |s: Side| {
            let held: String = (0..GOBBLET_SIZES.len())
                .flat_map(|size| {
                    std::iter::repeat_n(GOBBLET_SIZES[size], self.hands[s as usize][size].into())
                })
                .collect();
            if held.is_empty() { "-".into() } else { held }
        };
        format!(
            "{} {} {},{}",
            rows.join("/"),
            self.turn,
            hand(Side::X),
            hand(Side::O)
        )
    }
}

/// GB1–GB2, worked out on the referee's own [`GobbletState`] replayed from
/// the moves: the stacks, hands and text the engine shows must be the
/// replay's, the legal moves (and their texts) those GB1 allows, and the
/// ending the one GB2 gives.
fn gobblet_verdict(run: &Run<'_>) -> Verdict {
    let g = run.rb.grid();
    let pos = run.pos();
    let cell = |i: usize| {
        g.cell((i % 3) as i64, (i / 3) as i64)
            .expect("on the 3×3 board")
    };
    let index = |c: Cell| {
        let (col, row) = coords(g, c);
        (3 * row + col) as usize
    };
    // Replay the game, each move checked against GB1, keeping every state.
    let mut state = GobbletState::new();
    let mut seen = vec![state];
    for (ply, &mv) in run.moves.iter().enumerate() {
        let read = match mv {
            Move::Sized { to, size } => GobbletMove::Hand {
                to: index(to),
                size: usize::from(size),
            },
            Move::Step { from, to } => GobbletMove::Shift {
                from: index(from),
                to: index(to),
            },
            _ => panic!(
                "{}",
                run.report(format_args!(
                    "move {} `{}` neither puts a sized piece from hand nor moves one (GB1)",
                    ply + 1,
                    run.rb.move_text(mv)
                ))
            ),
        };
        if let Err(why) = state.apply(read) {
            panic!(
                "{}",
                run.report(format_args!(
                    "move {} `{}` breaks GB1: {why}",
                    ply + 1,
                    read.text()
                ))
            );
        }
        seen.push(state);
    }
    // What the engine shows is the replay's: every stack top first, the
    // marks (the tops), the text's board, side to move and hands.
    for i in 0..9 {
        let shown: Vec<(Side, usize)> = pos.stacks().pieces(cell(i)).collect();
        ensure!(
            run,
            shown == state.pieces(i),
            "{} holds {shown:?} (top first), the replay {:?} (GB1)",
            gobblet_name(i),
            state.pieces(i)
        );
        ensure!(
            run,
            pos.mark_at(cell(i)) == state.top(i).map(|(s, _)| s),
            "{} shows {:?}, the replay's top is {:?} (GB1)",
            gobblet_name(i),
            pos.mark_at(cell(i)),
            state.top(i)
        );
    }
    let text = run.rb.position_text(pos);
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    ensure!(
        run,
        fields.join(" ") == state.text(),
        "the position text begins `{}`, the replay writes `{}` (GB1)",
        fields.join(" "),
        state.text()
    );
    // The moves GB1 allows, each written as GB1 writes it.
    let mut legal: HashSet<Move> = HashSet::default();
    for gm in state.moves() {
        let mv = match gm {
            GobbletMove::Hand { to, size } => Move::Sized {
                to: cell(to),
                size: size as u8,
            },
            GobbletMove::Shift { from, to } => Move::Step {
                from: cell(from),
                to: cell(to),
            },
        };
        ensure!(
            run,
            run.rb.move_text(mv) == gm.text(),
            "the engine writes `{}` for the move GB1 writes `{}`",
            run.rb.move_text(mv),
            gm.text()
        );
        legal.insert(mv);
    }
    // GB2: the lines of the tops after the whole move, the mover's
    // opponent's first; then the third occurrence; then no move.
    let occurrences = seen.iter().filter(|&&s| s == state).count();
    ensure!(
        run,
        occurrences <= 3,
        "the position occurred {occurrences} times: the game should have ended at the third (GB2)"
    );
    let (opponent, mover) = (state.turn, state.turn.other());
    let moved = !run.moves.is_empty();
    let ending = if moved && state.shows_line(opponent) {
        let alone = !state.shows_line(mover);
        GOBBLET_OPPONENT_LINES[usize::from(alone)]
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some((Outcome::Win(opponent), Ending::Line))
    } else if moved && state.shows_line(mover) {
        Some((Outcome::Win(mover), Ending::Line))
    } else if occurrences >= 3 {
        Some((Outcome::Draw, Ending::Repetition(3)))
    } else if legal.is_empty() {
        Some((Outcome::Draw, Ending::NoMoves(state.turn)))
    } else {
        None
    };
    Verdict::unless_ended(ending, legal)
}

impl Referee {
    /// The side to move after `moves`, and the marks each side has placed.
    fn turns(self, moves: &[Move]) -> (Side, [usize; 2]) {
        let mut placed = [0, 0];
        let mut side = Side::X;
        for (ply, mv) in moves.iter().enumerate() {
            // A swap (PI1) places nothing, and O is still to move.
            if *mv == Move::Swap {
                continue;
            }
            placed[side as usize] += 1;
            // One mark for X, then two a turn: O, O, X, X, O, O, … (SX1).
            let ends_turn = match self {
                Referee::Connect6 => ply.is_multiple_of(2),
                _ => true,
            };
            if ends_turn {
                side = side.other();
            }
        }
        (side, placed)
    }

    /// The side to move after `moves`.
    fn side_after(self, moves: &[Move]) -> Side {
        self.turns(moves).0
    }

    fn verdict(self, run: &Run<'_>) -> Verdict {
        let g = run.rb.grid();
        let pos = run.pos();
        let n = run.moves.len();
        // The side that made the last move (meaningless, and harmless, at the start).
        let mover = self.side_after(&run.moves[..n.saturating_sub(1)]);
        let whole = (0, 0, i64::from(g.width()), i64::from(g.height()));
        let count = |s: Side| pos.marks(s).count() as usize;
        let board = Board::new(g, pos);
        // The mark the last move put on the board: the mover's own, or the one
        // the move names where a move places X or O.
        let placed = run
            .moves
            .last()
            .filter(|&&mv| mv != Move::Swap)
            .map(|mv| mv.mark(mover));
        // A swap changes no mark (PI1).
        if let (Some(Move::Swap), [.., before, _]) = (run.moves.last(), &run.history[..]) {
            ensure!(
                run,
                pos.marks(Side::X) == before.marks(Side::X)
                    && pos.marks(Side::O) == before.marks(Side::O),
                "a swap changed the marks (PI1)"
            );
        }
        // A move adds its mark on its cell (taking it off its old cell for a
        // step) and changes nothing else (C2, M5), but the pairs it captures
        // (PE2, PE3).
        if let (Some(&mv), Some(mark), [.., before, _], false) = (
            run.moves.last(),
            placed,
            &run.history[..],
            // Vanishing takes a mark off too, a pop moves a column, a push
            // a row or column, a turn a quadrant, a mill an opponent piece:
            // judged in their own arms (VA1, PO1, QX1, PG1, NM2).
            matches!(
                self,
                Referee::Vanishing { .. }
                    | Referee::PopOut
                    | Referee::Quixo
                    | Referee::Pentago
                    | Referee::NineMensMorris
                    | Referee::Gobblet
            ),
        ) {
            let mut expected = before.marks(mark);
            if let Move::Step { from, .. } = mv {
                expected.remove(from);
            }
            let to = mv.to().expect("a move that places a mark has a cell");
            expected.insert(to);
            let mut theirs = before.marks(mark.other());
            let mut captured = 0;
            if matches!(self, Referee::Pente) {
                let (c, r) = coords(g, to);
                let at = |i: i64, (dc, dr): (i64, i64)| g.cell(c + i * dc, r + i * dr);
                for d in NEIGHBOURS {
                    if let (Some(a), Some(b), Some(own)) = (at(1, d), at(2, d), at(3, d))
                        && theirs.contains(a)
                        && theirs.contains(b)
                        && expected.contains(own)
                    {
                        theirs.remove(a);
                        theirs.remove(b);
                        captured += 1;
                    }
                }
            }
            ensure!(
                run,
                pos.marks(mark) == expected && pos.marks(mark.other()) == theirs,
                "the marks after `{}` are not the marks before it with that move made (C2, M5, PE2, PE3)",
                run.rb.move_text(mv)
            );
            ensure!(
                run,
                pos.captures(mark) == before.captures(mark) + captured
                    && pos.captures(mark.other()) == before.captures(mark.other()),
                "`{}` made {captured} captures, but the counts went from {}/{} to {}/{} (PE2)",
                run.rb.move_text(mv),
                before.captures(Side::X),
                before.captures(Side::O),
                pos.captures(Side::X),
                pos.captures(Side::O)
            );
        }
        match self {
            Referee::KInARow { .. }
            | Referee::GomokuSwap
            | Referee::Connect6
            | Referee::Pente
            | Referee::Renju
            | Referee::Misere { .. }
            | Referee::Wild
            | Referee::OrderChaos
            | Referee::Cube { .. } => {
                let turn = pos.turn();
                // The marks a move may place, and how many of each the board holds.
                let (placeable, counts_ok) = match self {
                    Referee::Wild | Referee::OrderChaos => {
                        (&Side::ALL[..], count(Side::X) + count(Side::O) == n)
                    }
                    Referee::Misere { shared: true } => {
                        (&[Side::X][..], count(Side::X) == n && count(Side::O) == 0)
                    }
                    // Each capture takes two marks of the other side.
                    Referee::Pente => {
                        let lost = |s: Side| 2 * usize::from(pos.captures(s.other()));
                        (
                            std::slice::from_ref(&turn),
                            count(Side::X) + lost(Side::X) == n.div_ceil(2)
                                && count(Side::O) + lost(Side::O) == n / 2,
                        )
                    }
                    _ => {
                        let placed = self.turns(&run.moves).1;
                        (
                            std::slice::from_ref(&turn),
                            count(Side::X) == placed[0] && count(Side::O) == placed[1],
                        )
                    }
                };
                ensure!(
                    run,
                    counts_ok,
                    "a mark was lost or added: X has {}, O has {} after {n} moves (C2)",
                    count(Side::X),
                    count(Side::O)
                );
                for s in Side::ALL {
                    ensure!(
                        run,
                        pos.in_hand(s).is_none(),
                        "{s} has pieces in hand in a placement-only rulebook"
                    );
                }
                let gravity = matches!(self, Referee::KInARow { gravity: true, .. });
                // With gravity, the cells a mark may go to: the lowest empty
                // cell of each column, which must have no mark above it (CF1).
                let lowest = |c: i64| (0..board.height).find(|&r| board.at(c, r) == Some(None));
                if gravity {
                    for c in 0..board.width {
                        let floor = lowest(c).unwrap_or(board.height);
                        ensure!(
                            run,
                            (floor..board.height).all(|r| board.at(c, r) == Some(None)),
                            "a mark floats above an empty cell in column {} (CF1)",
                            (b'a' + c as u8) as char
                        );
                    }
                }
                // Whether the marks of `s` stand in a line.
                let line = |s: Side| match self {
                    Referee::KInARow { k, .. } => board.has_run(s, k, whole),
                    Referee::GomokuSwap => board.has_run(s, 5, whole),
                    Referee::Connect6 => board.has_run(s, 6, whole),
                    Referee::Pente => board.has_run(s, 5, whole),
                    // Exactly five for X, five or more for O (RJ1).
                    Referee::Renju => match s {
                        Side::X => board.any_run(s, whole, |n| n == 5),
                        Side::O => board.has_run(s, 5, whole),
                    },
                    Referee::Misere { .. } | Referee::Wild => board.has_run(s, 3, whole),
                    Referee::OrderChaos => board.any_run(s, whole, |n| n == 5),
                    Referee::Cube { size, .. } => board.has_cube_line(s, size),
                    Referee::Moving { .. }
                    | Referee::Ultimate { .. }
                    | Referee::Vanishing { .. }
                    | Referee::PopOut
                    | Referee::Quixo
                    | Referee::Pentago
                    | Referee::NineMensMorris
                    | Referee::Gobblet => unreachable!(),
                };
                // Only the mark just placed can have made a line: one of the
                // other mark would have ended the game before.
                for s in Side::ALL.into_iter().filter(|&s| Some(s) != placed) {
                    ensure!(
                        run,
                        !line(s),
                        "the {s} marks stand in a line the last move did not make: the game should have ended before"
                    );
                }
                let ending = if placed.is_some_and(line) {
                    let winner = match self {
                        // Completing a line loses (MI1, NK1).
                        Referee::Misere { .. } => turn,
                        // Five like marks win for Order, whoever placed them (OC1).
                        Referee::OrderChaos => Side::X,
                        _ => mover,
                    };
                    Some((Outcome::Win(winner), Ending::Line))
                } else if matches!(self, Referee::Pente) && pos.captures(mover) >= 5 {
                    Some((Outcome::Win(mover), Ending::Captures(5)))
                } else if pos.occupied().count() as usize == g.len() {
                    let outcome = match self {
                        // A full board without five wins for Chaos (OC1).
                        Referee::OrderChaos => Outcome::Win(Side::O),
                        _ => Outcome::Draw,
                    };
                    Some((outcome, Ending::Full))
                } else {
                    None
                };
                let mut cells: Vec<Cell> = if gravity {
                    (0..board.width)
                        .filter_map(|c| lowest(c).and_then(|r| g.cell(c, r)))
                        .collect()
                } else {
                    empty_cells(g, pos)
                        // X's first mark may not take the centre (CB1).
                        .filter(|&c| match self {
                            Referee::Cube {
                                size,
                                centre_closed: true,
                            } => {
                                let at = (i64::from(g.col(c)), i64::from(g.row(c)));
                                n > 0 || at != (size * size / 2, size / 2)
                            }
                            _ => true,
                        })
                        .collect()
                };
                if matches!(self, Referee::Renju) {
                    if n == 0 {
                        // X's first mark goes on the centre (RJ1).
                        let h8 = point(g, "h8");
                        cells.retain(|&c| c == h8);
                    } else if turn == Side::X {
                        // No overline, double four or double three for X,
                        // unless the move makes exactly five (RJ2).
                        let mut marks = Board::new(g, pos);
                        cells.retain(|&c| !marks.renju_judge(coords(g, c)).forbidden());
                    }
                }
                let mut legal: HashSet<Move> = match ending {
                    Some(_) => HashSet::default(),
                    None => cells
                        .iter()
                        .flat_map(|&to| placeable.iter().map(move |&mark| Move::Place { to, mark }))
                        .collect(),
                };
                // The pie rule: swap answers the first move, once (PI1).
                if matches!(self, Referee::GomokuSwap) && n == 1 && ending.is_none() {
                    legal.insert(Move::Swap);
                }
                // A side left without a move (only X can be, every empty
                // cell forbidden to it) draws: renju's no_moves().
                let ending = match ending {
                    None if legal.is_empty() && matches!(self, Referee::Renju) => {
                        Some((Outcome::Draw, Ending::NoMoves(turn)))
                    }
                    ending => ending,
                };
                Verdict { ending, legal }
            }
            Referee::Moving {
                pieces,
                k,
                steps,
                squares,
            } => {
                for s in Side::ALL {
                    let on_board = match s {
                        Side::X => n.div_ceil(2),
                        Side::O => n / 2,
                    }
                    .min(pieces);
                    ensure!(
                        run,
                        count(s) == on_board,
                        "{s} has {} pieces on the board, expected {on_board} (M1, M2, M5)",
                        count(s)
                    );
                    ensure!(
                        run,
                        pos.in_hand(s) == Some((pieces - on_board) as u16),
                        "{s} has {:?} in hand, expected {} (M2)",
                        pos.in_hand(s),
                        pieces - on_board
                    );
                }
                // k in a row, or (Teeko) the four cells of a 2×2 square (TK2).
                let line =
                    |s: Side| board.has_run(s, k, whole) || (squares && board.has_square(s, whole));
                ensure!(
                    run,
                    !line(pos.turn()),
                    "the side to move has a line: the game should have ended before"
                );
                let empty = |c: i64, r: i64| {
                    (board.at(c, r) == Some(None))
                        .then(|| g.cell(c, r))
                        .flatten()
                };
                // b2, the centre of the morris board, the one point with diagonals.
                let centre = |c: i64, r: i64| (c, r) == (1, 1);
                let mut moves = HashSet::default();
                if pos.in_hand(pos.turn()) != Some(0) {
                    let mark = pos.turn();
                    moves.extend(empty_cells(g, pos).map(|to| Move::Place { to, mark }));
                } else {
                    for from in pos.marks(pos.turn()) {
                        let (c, r) = coords(g, from);
                        for (dc, dr) in NEIGHBOURS {
                            let diagonal = dc != 0 && dr != 0;
                            let along = match steps {
                                Steps::Orthogonal { .. } => !diagonal,
                                Steps::King => true,
                                Steps::Morris => {
                                    !diagonal || centre(c, r) || centre(c + dc, r + dr)
                                }
                            };
                            if !along {
                                continue;
                            }
                            if let Some(to) = empty(c + dc, r + dr) {
                                moves.insert(Move::Step { from, to });
                                if matches!(steps, Steps::Orthogonal { jumps: true })
                                    && let Some(to) = empty(c + 2 * dc, r + 2 * dr)
                                {
                                    moves.insert(Move::Step { from, to });
                                }
                            }
                        }
                    }
                }
                let same = |p: &Position| {
                    same_marks_and_turn(p, pos)
                        && Side::ALL.iter().all(|&s| p.in_hand(s) == pos.in_hand(s))
                };
                let earlier = earlier_occurrences(run, same);
                let ending = if line(mover) {
                    Some((Outcome::Win(mover), Ending::Line))
                } else if moves.is_empty() {
                    Some((Outcome::Win(mover), Ending::NoMoves(mover.other())))
                } else if earlier + 1 >= 3 {
                    Some((Outcome::Draw, Ending::Repetition(3)))
                } else {
                    None
                };
                Verdict::unless_ended(ending, moves)
            }
            Referee::Vanishing { keep } => {
                // Each side's marks oldest first, replayed from the moves (VA1).
                let mut kept: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
                for &mv in &run.moves {
                    let Move::Place { to, mark } = mv else {
                        panic!(
                            "{}: a vanishing move only places a mark",
                            run.rb.move_text(mv)
                        );
                    };
                    let queue = &mut kept[mark as usize];
                    queue.push(to);
                    if queue.len() > keep {
                        queue.remove(0);
                    }
                }
                for s in Side::ALL {
                    let queue = &kept[s as usize];
                    let ages: Vec<Cell> = pos.ages(s).cells().collect();
                    ensure!(
                        run,
                        count(s) == queue.len() && queue.iter().all(|&c| pos.marks(s).contains(c)),
                        "{s}'s marks are not the last {keep} it placed (VA1)"
                    );
                    ensure!(
                        run,
                        ages == *queue,
                        "{s}'s marks oldest first are {ages:?}, the moves give {queue:?} (VA1)"
                    );
                }
                let line = |s: Side| board.has_run(s, 3, whole);
                ensure!(
                    run,
                    !line(pos.turn()),
                    "the side to move has a line: the game should have ended before (VA2)"
                );
                let same = |p: &Position| {
                    same_marks_and_turn(p, pos)
                        && Side::ALL.iter().all(|&s| p.ages(s) == pos.ages(s))
                };
                let earlier = earlier_occurrences(run, same);
                let ending = if n > 0 && line(mover) {
                    Some((Outcome::Win(mover), Ending::Line))
                } else if earlier + 1 >= 3 {
                    Some((Outcome::Draw, Ending::Repetition(3)))
                } else {
                    None
                };
                let mark = pos.turn();
                let legal = match ending {
                    Some(_) => HashSet::default(),
                    None => empty_cells(g, pos)
                        .map(|to| Move::Place { to, mark })
                        .collect(),
                };
                Verdict { ending, legal }
            }
            Referee::PopOut => {
                // The cell of column `c`, row `r` (both from 0).
                let cell = |c: i64, r: i64| g.cell(c, r).expect("on the board");
                // After a pop, the marks are those before it with the popped
                // column shifted down one cell (PO1).
                if let (Some(&Move::Slide { from, to }), [.., before, _]) =
                    (run.moves.last(), &run.history[..])
                {
                    let c = i64::from(g.col(from));
                    ensure!(
                        run,
                        g.row(from) == 0 && to == cell(c, board.height - 1),
                        "a pop runs from the bottom of a column to its top (PO1)"
                    );
                    ensure!(
                        run,
                        before.marks(mover).contains(from),
                        "{mover} popped a mark that was not its own (PO1)"
                    );
                    for r in 0..board.height {
                        let above = (r + 1 < board.height)
                            .then(|| before.mark_at(cell(c, r + 1)))
                            .flatten();
                        ensure!(
                            run,
                            pos.mark_at(cell(c, r)) == above,
                            "after the pop, {} does not hold what stood above it (PO1)",
                            g.name(cell(c, r))
                        );
                    }
                }
                for c in 0..board.width {
                    let floor = (0..board.height)
                        .find(|&r| board.at(c, r) == Some(None))
                        .unwrap_or(board.height);
                    ensure!(
                        run,
                        (floor..board.height).all(|r| board.at(c, r) == Some(None)),
                        "a mark floats above an empty cell in column {} (CF1, PO1)",
                        (b'a' + c as u8) as char
                    );
                }
                let line = |s: Side| board.has_run(s, 4, whole);
                let turn = pos.turn();
                let mut moves: HashSet<Move> = HashSet::default();
                for c in 0..board.width {
                    if let Some(r) = (0..board.height).find(|&r| board.at(c, r) == Some(None)) {
                        moves.insert(Move::Place {
                            to: cell(c, r),
                            mark: turn,
                        });
                    }
                    if board.at(c, 0) == Some(Some(turn)) {
                        moves.insert(Move::Slide {
                            from: cell(c, 0),
                            to: cell(c, board.height - 1),
                        });
                    }
                }
                let same = |p: &Position| same_marks_and_turn(p, pos);
                let earlier = earlier_occurrences(run, same);
                let full = pos.occupied().count() as usize == g.len();
                let ending = if n > 0 && line(mover) {
                    Some((Outcome::Win(mover), Ending::Line))
                } else if n > 0 && line(mover.other()) {
                    Some((Outcome::Win(mover.other()), Ending::Line))
                } else if moves.is_empty() {
                    let ending = if full {
                        Ending::Full
                    } else {
                        Ending::NoMoves(turn)
                    };
                    Some((Outcome::Draw, ending))
                } else if earlier + 1 >= 3 {
                    Some((Outcome::Draw, Ending::Repetition(3)))
                } else {
                    None
                };
                Verdict::unless_ended(ending, moves)
            }
            Referee::Quixo => {
                let (w, h) = (board.width, board.height);
                let cell = |c: i64, r: i64| g.cell(c, r).expect("on the board");
                let border = |c: i64, r: i64| c == 0 || r == 0 || c == w - 1 || r == h - 1;
                // The cells from `from` to `to` along their row or column.
                let path = |from: Cell, to: Cell| {
                    let (fc, fr) = coords(g, from);
                    let (tc, tr) = coords(g, to);
                    let (dc, dr) = ((tc - fc).signum(), (tr - fr).signum());
                    let len = (tc - fc).abs().max((tr - fr).abs());
                    (0..=len)
                        .map(|i| cell(fc + i * dc, fr + i * dr))
                        .collect::<Vec<_>>()
                };
                if let (Some(&mv), [.., before, _]) = (run.moves.last(), &run.history[..]) {
                    let Move::Slide { from, to } = mv else {
                        panic!(
                            "{}",
                            run.report(format_args!(
                                "`{}` is not a push: no mark is placed (QX1)",
                                run.rb.move_text(mv)
                            ))
                        );
                    };
                    ensure!(
                        run,
                        before.mark_at(from) != Some(mover.other()),
                        "{mover} took {}, a cube showing the opponent's mark (QX1)",
                        g.name(from)
                    );
                    // The cubes between shift one place towards `from`; the
                    // taken cube, marked, goes in at `to` (QX1).
                    let cells = path(from, to);
                    for (i, &c) in cells.iter().enumerate() {
                        let want = match cells.get(i + 1) {
                            Some(&next) => before.mark_at(next),
                            None => Some(mover),
                        };
                        ensure!(
                            run,
                            pos.mark_at(c) == want,
                            "after {}-{}, {} does not hold what the push leaves there (QX1)",
                            g.name(from),
                            g.name(to),
                            g.name(c)
                        );
                    }
                    for c in g.cells().filter(|c| !cells.contains(c)) {
                        ensure!(
                            run,
                            pos.mark_at(c) == before.mark_at(c),
                            "the push {}-{} changed {}, off its line (QX1)",
                            g.name(from),
                            g.name(to),
                            g.name(c)
                        );
                    }
                }
                let line = |s: Side| board.has_run(s, 5, whole);
                let turn = pos.turn();
                let mut moves: HashSet<Move> = HashSet::default();
                for c in 0..w {
                    for r in 0..h {
                        if !border(c, r) || board.at(c, r) == Some(Some(turn.other())) {
                            continue;
                        }
                        for (ec, er) in [(0, r), (w - 1, r), (c, 0), (c, h - 1)] {
                            if (ec, er) != (c, r) {
                                moves.insert(Move::Slide {
                                    from: cell(c, r),
                                    to: cell(ec, er),
                                });
                            }
                        }
                    }
                }
                let same = |p: &Position| same_marks_and_turn(p, pos);
                let earlier = earlier_occurrences(run, same);
                let ending = if n > 0 && line(mover.other()) {
                    Some((Outcome::Win(mover.other()), Ending::Line))
                } else if n > 0 && line(mover) {
                    Some((Outcome::Win(mover), Ending::Line))
                } else if earlier + 1 >= 3 {
                    Some((Outcome::Draw, Ending::Repetition(3)))
                } else {
                    ensure!(run, !moves.is_empty(), "{turn} has no push left (QX1)");
                    None
                };
                Verdict::unless_ended(ending, moves)
            }
            Referee::Pentago => {
                let (w, h) = (board.width, board.height);
                let cell = |c: i64, r: i64| g.cell(c, r).expect("on the board");
                // Marks are placed, one a move, and never leave (PG1).
                ensure!(
                    run,
                    count(Side::X) == n.div_ceil(2) && count(Side::O) == n / 2,
                    "a mark was lost or added: X has {}, O has {} after {n} moves (PG1)",
                    count(Side::X),
                    count(Side::O)
                );
                // The quadrants, numbered from 0 row by row from the
                // bottom-left; turn `t` is quadrant `t / 2` clockwise for
                // an even `t`, anticlockwise for an odd one (1+ 1- … 4-).
                let across = w / 3;
                let turns = (2 * across * (h / 3)) as u8;
                // Where turn `t` sends the mark on column `c`, row `r`: about
                // the quadrant's centre, (dx, dy) goes to (dy, -dx) clockwise
                // (x right, y up: row 6 at the top), to (-dy, dx) the other way.
                let turned = |t: u8, c: i64, r: i64| {
                    let q = i64::from(t / 2);
                    let (c0, r0) = (q % across * 3, q / across * 3);
                    if !(c0..c0 + 3).contains(&c) || !(r0..r0 + 3).contains(&r) {
                        return (c, r);
                    }
                    let (dx, dy) = (c - c0 - 1, r - r0 - 1);
                    let (tx, ty) = if t.is_multiple_of(2) {
                        (dy, -dx)
                    } else {
                        (-dy, dx)
                    };
                    (c0 + 1 + tx, r0 + 1 + ty)
                };
                let index = |c: i64, r: i64| (r * w + c) as usize;
                // The marks of `before` with `side`'s mark on `to`, then
                // turned by `t`, if any.
                let after = |before: &Board, to: Cell, side: Side, t: Option<u8>| {
                    let mut placed = before.marks.clone();
                    let (tc, tr) = coords(g, to);
                    placed[index(tc, tr)] = Some(side);
                    let Some(t) = t else {
                        return placed;
                    };
                    let mut out = vec![None; placed.len()];
                    for r in 0..h {
                        for c in 0..w {
                            let (nc, nr) = turned(t, c, r);
                            out[index(nc, nr)] = placed[index(c, r)];
                        }
                    }
                    out
                };
                let five = |marks: &[Option<Side>], s: Side| {
                    let b = Board {
                        width: w,
                        height: h,
                        marks: marks.to_vec(),
                    };
                    b.has_run(s, 5, whole)
                };
                // The last move: a mark on an empty cell, then its turn, or
                // alone where it made five (PG1, PG2).
                if let (Some(&mv), [.., before, _]) = (run.moves.last(), &run.history[..]) {
                    let prior = Board::new(g, before);
                    let (to, t) = match mv {
                        Move::Twist { to, twist } => {
                            ensure!(
                                run,
                                twist < turns,
                                "`{}` names turn {twist}: there are {turns} (PG1)",
                                run.rb.move_text(mv)
                            );
                            (to, Some(twist))
                        }
                        Move::Place { to, mark } => {
                            ensure!(run, mark == mover, "{mover} placed {mark}'s mark (PG1)");
                            ensure!(
                                run,
                                five(&after(&prior, to, mover, None), mover),
                                "`{}` placed a mark without a turn, and it makes no five (PG1, PG2)",
                                run.rb.move_text(mv)
                            );
                            (to, None)
                        }
                        _ => panic!(
                            "{}",
                            run.report(format_args!(
                                "`{}` is neither a placement nor a placement and a turn (PG1)",
                                run.rb.move_text(mv)
                            ))
                        ),
                    };
                    ensure!(
                        run,
                        before.mark_at(to).is_none(),
                        "`{}` put a mark on the taken {} (PG1)",
                        run.rb.move_text(mv),
                        g.name(to)
                    );
                    let want = after(&prior, to, mover, t);
                    for r in 0..h {
                        for c in 0..w {
                            ensure!(
                                run,
                                board.marks[index(c, r)] == want[index(c, r)],
                                "after `{}`, {} holds {:?}, the quarter turn leaves {:?} there (PG1)",
                                run.rb.move_text(mv),
                                g.name(cell(c, r)),
                                board.marks[index(c, r)],
                                want[index(c, r)]
                            );
                        }
                    }
                }
                // Each empty cell: the placement alone where it makes five
                // (PG2), else the placement with every turn (PG1).
                let turn = pos.turn();
                let mut moves: HashSet<Move> = HashSet::default();
                for to in empty_cells(g, pos) {
                    if five(&after(&board, to, turn, None), turn) {
                        moves.insert(Move::Place { to, mark: turn });
                    } else {
                        moves.extend((0..turns).map(|twist| Move::Twist { to, twist }));
                    }
                }
                // The whole board is judged after the move (PG3).
                let line = |s: Side| board.has_run(s, 5, whole);
                let ending = match (line(mover), line(mover.other())) {
                    (true, true) => Some((Outcome::Draw, Ending::Line)),
                    (true, false) => Some((Outcome::Win(mover), Ending::Line)),
                    (false, true) => Some((Outcome::Win(mover.other()), Ending::Line)),
                    (false, false) if moves.is_empty() => Some((Outcome::Draw, Ending::Full)),
                    (false, false) => None,
                };
                Verdict::unless_ended(ending, moves)
            }
            Referee::NineMensMorris => {
                const PIECES: u16 = 9;
                let points: Vec<Cell> = MORRIS_POINTS.iter().map(|p| point(g, p)).collect();
                let mills: Vec<[Cell; 3]> = MORRIS_MILLS
                    .iter()
                    .map(|m| m.map(|p| point(g, p)))
                    .collect();
                let hand = |p: &Position, s: Side| {
                    p.in_hand(s).unwrap_or_else(|| {
                        panic!(
                            "{}",
                            run.report(format_args!("{s} has no count of pieces in hand (NM1)"))
                        )
                    })
                };
                // Pieces stand on the 24 points only (NM1).
                for s in Side::ALL {
                    for c in pos.marks(s) {
                        ensure!(
                            run,
                            points.contains(&c),
                            "a piece of {s}'s stands on {}, not a point of the board (NM1)",
                            g.name(c)
                        );
                    }
                }
                // Each side's nine pieces: in hand, placed, or removed by a
                // mill of the other side's (a take), never back (NM1, NM2).
                for s in Side::ALL {
                    let mine = |i: usize| i.is_multiple_of(2) == (s == Side::X);
                    let placed = (run.moves.iter().enumerate())
                        .filter(|&(i, mv)| mine(i) && mv.from().is_none())
                        .count();
                    let lost = (run.moves.iter().enumerate())
                        .filter(|&(i, mv)| !mine(i) && matches!(mv, Move::Take(_)))
                        .count();
                    ensure!(
                        run,
                        usize::from(hand(pos, s)) + placed == usize::from(PIECES)
                            && count(s) + lost == placed,
                        "{s} has {} on the board and {} in hand: it placed {placed} of {PIECES} and lost {lost} (NM1, NM2)",
                        count(s),
                        hand(pos, s)
                    );
                }
                // Whether `own` holds all three points of a mill through `c`.
                let in_mill = |c: Cell, own: CellSet| {
                    mills
                        .iter()
                        .any(|m| m.contains(&c) && m.iter().all(|&p| own.contains(p)))
                };
                // The last move: the mover's piece from hand or from its
                // point to an empty point, and the removed piece off the
                // board; nothing else changes (NM1, NM2).
                if let (Some(&mv), [.., before, _]) = (run.moves.last(), &run.history[..]) {
                    let (from, to, take) = match mv {
                        Move::Place { to, mark } => {
                            ensure!(run, mark == mover, "{mover} placed {mark}'s piece (NM1)");
                            (None, to, None)
                        }
                        Move::Step { from, to } => (Some(from), to, None),
                        Move::Take(r) => (r.from(), r.to(), Some(r.take())),
                        _ => panic!(
                            "{}",
                            run.report(format_args!(
                                "`{}` is not a placement or a step (NM1)",
                                run.rb.move_text(mv)
                            ))
                        ),
                    };
                    let mut mine = before.marks(mover);
                    if let Some(from) = from {
                        mine.remove(from);
                    }
                    mine.insert(to);
                    let mut theirs = before.marks(mover.other());
                    if let Some(take) = take {
                        theirs.remove(take);
                    }
                    let placed = u16::from(from.is_none());
                    ensure!(
                        run,
                        pos.marks(mover) == mine
                            && pos.marks(mover.other()) == theirs
                            && hand(pos, mover) + placed == hand(before, mover)
                            && hand(pos, mover.other()) == hand(before, mover.other()),
                        "the board after `{}` is not the board before it with that move made (NM1, NM2)",
                        run.rb.move_text(mv)
                    );
                }
                // The moves of the side to move: from hand while it has
                // pieces there, else each piece to the next empty point
                // along a line, or to any empty point at three (NM1, NM3);
                // one that makes a mill once for each removable piece (NM2).
                let turn = pos.turn();
                let own = pos.marks(turn);
                let theirs = pos.marks(turn.other());
                let outside: Vec<Cell> = theirs
                    .into_iter()
                    .filter(|&c| !in_mill(c, theirs))
                    .collect();
                let removable = if outside.is_empty() {
                    theirs.into_iter().collect()
                } else {
                    outside
                };
                let empty: Vec<Cell> = points
                    .iter()
                    .copied()
                    .filter(|&c| pos.mark_at(c).is_none())
                    .collect();
                let next = |c: Cell| {
                    mills.iter().flat_map(move |m| {
                        let i = m.iter().position(|&p| p == c);
                        [i.and_then(|i| i.checked_sub(1)), i.map(|i| i + 1)]
                            .into_iter()
                            .flatten()
                            .filter_map(|j| m.get(j).copied())
                    })
                };
                let mut pairs: Vec<(Option<Cell>, Cell)> = Vec::new();
                if hand(pos, turn) > 0 {
                    pairs.extend(empty.iter().map(|&to| (None, to)));
                } else if count(turn) <= 3 {
                    for from in own {
                        pairs.extend(empty.iter().map(|&to| (Some(from), to)));
                    }
                } else {
                    for from in own {
                        pairs.extend(
                            next(from)
                                .filter(|c| empty.contains(c))
                                .map(|to| (Some(from), to)),
                        );
                    }
                }
                let mut moves: HashSet<Move> = HashSet::default();
                for (from, to) in pairs {
                    let mut after = own;
                    if let Some(from) = from {
                        after.remove(from);
                    }
                    after.insert(to);
                    if in_mill(to, after) && !removable.is_empty() {
                        moves.extend(
                            (removable.iter())
                                .map(|&take| Move::Take(Removal::new(from, to, take))),
                        );
                    } else {
                        moves.insert(match from {
                            None => Move::Place { to, mark: turn },
                            Some(from) => Move::Step { from, to },
                        });
                    }
                }
                // Down to two, board and hand, loses at once; so does a
                // side without a move; the third occurrence draws (NM3).
                let left = |s: Side| count(s) + usize::from(hand(pos, s));
                ensure!(
                    run,
                    n == 0 || left(mover) > 2,
                    "{mover}, which just moved, has {} pieces left: the game should have ended before (NM3)",
                    left(mover)
                );
                let same = |p: &Position| {
                    same_marks_and_turn(p, pos)
                        && Side::ALL.iter().all(|&s| p.in_hand(s) == pos.in_hand(s))
                };
                let earlier = earlier_occurrences(run, same);
                let ending = if left(turn) <= 2 {
                    let reduced = Ending::Reduced(turn, left(turn) as u16);
                    Some((Outcome::Win(turn.other()), reduced))
                } else if moves.is_empty() {
                    Some((Outcome::Win(turn.other()), Ending::NoMoves(turn)))
                } else if earlier + 1 >= 3 {
                    Some((Outcome::Draw, Ending::Repetition(3)))
                } else {
                    None
                };
                Verdict::unless_ended(ending, moves)
            }
            Referee::Gobblet => gobblet_verdict(run),
            Referee::Ultimate { both } => {
                ensure!(
                    run,
                    count(Side::X) == n.div_ceil(2) && count(Side::O) == n / 2,
                    "a mark was lost or added: X has {}, O has {} after {n} moves",
                    count(Side::X),
                    count(Side::O)
                );
                // Boards numbered row by row from the bottom-left, 0..9.
                let board_of = |c: Cell| (g.row(c) / 3 * 3 + g.col(c) / 3) as usize;
                let (mut won_x, mut won_o, mut closed) = (0u32, 0u32, 0u32);
                for b in 0..9 {
                    let rect = (b as i64 % 3 * 3, b as i64 / 3 * 3, 3, 3);
                    let x = board.has_run(Side::X, 3, rect);
                    let o = board.has_run(Side::O, 3, rect);
                    ensure!(run, !(x && o), "board {} has a line of X and of O", b + 1);
                    let full = board.full(rect);
                    // A board filled without a line counts for both (UH1).
                    let drawn = both && full && !x && !o;
                    won_x |= u32::from(x || drawn) << b;
                    won_o |= u32::from(o || drawn) << b;
                    closed |= u32::from(x || o || full) << b;
                }
                ensure!(
                    run,
                    pos.regions_won(Side::X) == won_x
                        && pos.regions_won(Side::O) == won_o
                        && pos.regions_closed() == closed,
                    "board states: engine won X {:09b}, O {:09b}, closed {:09b}; referee X {won_x:09b}, O {won_o:09b}, closed {closed:09b} (U5, U6, UH1)",
                    pos.regions_won(Side::X),
                    pos.regions_won(Side::O),
                    pos.regions_closed()
                );
                // The boards are numbered like the cells of one 3×3 board.
                let big_line = |won: u32| {
                    LINES_3X3
                        .iter()
                        .any(|l| l.iter().all(|&b| won & (1 << b) != 0))
                };
                let won = |s: Side| match s {
                    Side::X => won_x,
                    Side::O => won_o,
                };
                // The move that fills a board held by both may complete a line
                // for the side to move too; else that side's boards are as they were.
                ensure!(
                    run,
                    both || !big_line(won(pos.turn())),
                    "the side to move has a line of boards: the game should have ended before"
                );
                // U2 (free first move), U3 (redirect), U4 (closed target: free choice).
                let target = run.moves.last().and_then(|mv| {
                    let to = mv.to().expect("ultimate's moves place marks");
                    let t = (g.row(to) % 3 * 3 + g.col(to) % 3) as usize;
                    (closed & (1 << t) == 0).then_some(t)
                });
                ensure!(
                    run,
                    pos.target() == target,
                    "target board: engine {:?}, referee {target:?} (boards from 0) (U3, U4)",
                    pos.target()
                );
                let ending = if big_line(won(mover)) {
                    // The mover's line is judged first (UH1).
                    Some((Outcome::Win(mover), Ending::Line))
                } else if big_line(won(pos.turn())) {
                    Some((Outcome::Win(pos.turn()), Ending::Line))
                } else if closed == 0x1ff {
                    // Every cell is taken or in a closed board.
                    Some((Outcome::Draw, Ending::Full))
                } else {
                    None
                };
                let legal = match ending {
                    Some(_) => HashSet::default(),
                    None => empty_cells(g, pos)
                        .filter(|&c| closed & (1 << board_of(c)) == 0)
                        .filter(|&c| target.is_none_or(|t| board_of(c) == t))
                        .map(|to| Move::Place {
                            to,
                            mark: pos.turn(),
                        })
                        .collect(),
                };
                Verdict { ending, legal }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------

/// Checks 1, 4 and 5 on the run's current position; returns its legal moves.
fn check_position(run: &Run<'_>, list: &mut MoveList) -> HashSet<Move> {
    let rb = run.rb;
    let pos = run.pos();
    run.checked.set(run.checked.get() + 1);
    // Whose move it is follows from the number of moves alone, also after
    // the last: a game won by the first mark of a turn leaves it with the
    // side that made it (SX1).
    let turn = run.referee.side_after(&run.moves);
    ensure!(
        run,
        pos.turn() == turn,
        "{} to move after {} moves (G1, SX1)",
        pos.turn(),
        run.moves.len()
    );
    if let Err(e) = rb.legal_moves(pos, &[], list) {
        panic!("{}", run.report(format_args!("legal_moves failed: {e}")));
    }
    let legal: HashSet<Move> = list.iter().copied().collect();
    ensure!(
        run,
        legal.len() == list.len(),
        "legal_moves lists a move twice: {}",
        run.moves_text(list)
    );

    // 1. Final positions have no legal move, the others at least one.
    ensure!(
        run,
        pos.is_over() == legal.is_empty(),
        "is_over is {} with {} legal moves",
        pos.is_over(),
        legal.len()
    );

    // 4. The independent referee.
    let verdict = run.referee.verdict(run);
    ensure!(
        run,
        pos.ending() == verdict.ending,
        "engine ending {:?}, independent referee {:?}",
        pos.ending(),
        verdict.ending
    );
    ensure!(
        run,
        legal == verdict.legal,
        "legal moves differ: only the engine lists {:?}, only the referee {:?}",
        run.names(legal.difference(&verdict.legal).copied()),
        run.names(verdict.legal.difference(&legal).copied())
    );

    // 5. The position text round-trips.
    if !matches!(pos.ending(), Some((_, Ending::Repetition(_)))) {
        let text = rb.position_text(pos);
        match rb.parse_position(&text) {
            Ok(back) => ensure!(
                run,
                back.same_state(pos),
                "`{text}` parses to another position:\n    printed {pos:?}\n    parsed  {back:?}"
            ),
            Err(e) => panic!(
                "{}",
                run.report(format_args!("`{text}` does not parse back: {e}"))
            ),
        }
    }
    legal
}

/// Every move to ask `check` about: all placements (with twists, also each
/// placement with every twist; where pieces stack, each size on each cell,
/// and one size beyond the last), and all
/// steps between two cells when the rulebook has pieces or stacks, else
/// `samples` random steps. Where a mill removes a piece, each legal removal's placement or
/// step with every cell to remove (the wrong ones refused), each move that
/// removes nothing with a cell to remove, and `samples` random removals.
/// Legal moves not among them are added, so that each one is played
/// and undone.
fn candidates(rb: &Rulebook, legal: &HashSet<Move>, samples: usize, rng: &mut Rng) -> Vec<Move> {
    let g = rb.grid();
    // Both marks: a move choosing a mark it may not place must be refused.
    let mut out: Vec<Move> = g
        .cells()
        .flat_map(|to| Side::ALL.map(|mark| Move::Place { to, mark }))
        .collect();
    if rb.mechanics().has_twists() {
        let twists = rb.mechanics().twists().len() as u8;
        for to in g.cells() {
            out.extend((0..twists).map(|twist| Move::Twist { to, twist }));
        }
    }
    // Pieces that stack: each size (and one size too many) on each cell.
    if rb.mechanics().has_stacks() {
        let sizes = rb.mechanics().size_letters().len() as u8;
        for to in g.cells() {
            out.extend((0..=sizes).map(|size| Move::Sized { to, size }));
        }
    }
    if rb.mechanics().pieces().is_some() || rb.mechanics().has_stacks() {
        for from in g.cells() {
            out.extend(g.cells().map(|to| Move::Step { from, to }));
        }
    } else {
        let cell = |rng: &mut Rng| Cell(rng.below(g.len()) as u16);
        for _ in 0..samples {
            let from = cell(rng);
            let to = cell(rng);
            out.push(Move::Step { from, to });
        }
        out.extend(legal.iter().filter(|m| m.from().is_some()));
    }
    if rb.mechanics().removes() {
        let cell = |rng: &mut Rng| Cell(rng.below(g.len()) as u16);
        let mut makes_mill: Vec<(Option<Cell>, Cell)> = Vec::new();
        for &mv in legal {
            match mv {
                Move::Take(r) if !makes_mill.contains(&(r.from(), r.to())) => {
                    makes_mill.push((r.from(), r.to()));
                }
                // A move that makes no mill names no piece to remove.
                Move::Place { to, .. } | Move::Step { to, .. } => {
                    out.push(Move::Take(Removal::new(mv.from(), to, cell(rng))));
                }
                _ => {}
            }
        }
        for (from, to) in makes_mill {
            out.extend(
                g.cells()
                    .map(|take| Move::Take(Removal::new(from, to, take))),
            );
        }
        for _ in 0..samples {
            let from = (rng.below(2) == 0).then(|| cell(rng));
            let (to, take) = (cell(rng), cell(rng));
            out.push(Move::Take(Removal::new(from, to, take)));
        }
    }
    out
}

/// Checks 2 and 3 at the game's current position: `check` and `Game::play`
/// accept exactly the legal moves; each legal move is played, its child
/// checked (all of them, or about `children` at random), and undone.
fn check_moves(
    run: &mut Run<'_>,
    game: &mut Game,
    legal: &HashSet<Move>,
    cands: &[Move],
    children: usize,
    list: &mut MoveList,
    sampler: &mut Rng,
) {
    let rb = run.rb;
    let pos = *run.pos();
    let text = rb.position_text(&pos);
    for &mv in cands {
        let is_legal = legal.contains(&mv);
        match rb.check(&pos, &[], mv) {
            Ok(()) => ensure!(
                run,
                is_legal,
                "check accepts `{}`, which legal_moves does not list",
                rb.move_text(mv)
            ),
            Err(PlayError::Refused { refusal: r, .. }) => {
                ensure!(
                    run,
                    !is_legal,
                    "check refuses the legal move `{}`: {}",
                    rb.move_text(mv),
                    rb.explain(&r)
                );
                if let Some(o) = pos.outcome() {
                    ensure!(
                        run,
                        r == Refusal::GameOver(o),
                        "`{}` after the end is refused as {r:?}, not GameOver (G3)",
                        rb.move_text(mv)
                    );
                }
            }
            Err(e) => panic!(
                "{}",
                run.report(format_args!("check `{}` failed: {e}", rb.move_text(mv)))
            ),
        }
        // Game::play must refuse too (G2): asked for about 16 refused moves
        // per position, as it only adds the history to `check`.
        if !is_legal && sampler.below(cands.len()) < 16 {
            ensure!(
                run,
                game.play(mv).is_err(),
                "Game::play accepts `{}`, which check refuses",
                rb.move_text(mv)
            );
            ensure!(
                run,
                *game.position() == pos && game.moves() == run.moves,
                "the refused move `{}` changed the game (G2)",
                rb.move_text(mv)
            );
        }
        if !is_legal {
            continue;
        }
        let direct = match rb.play(&pos, &[], mv) {
            Ok(p) => p,
            Err(e) => panic!(
                "{}",
                run.report(format_args!(
                    "Rulebook::play refuses the legal `{}`: {e}",
                    rb.move_text(mv)
                ))
            ),
        };
        let child = match game.play(mv) {
            Ok(p) => *p,
            Err(e) => panic!(
                "{}",
                run.report(format_args!(
                    "Game::play refuses the legal `{}`: {e}",
                    rb.move_text(mv)
                ))
            ),
        };
        if matches!(child.ending(), Some((_, Ending::Repetition(_)))) {
            ensure!(
                run,
                direct.ending().is_none() && rb.position_text(&direct) == rb.position_text(&child),
                "after `{}` Game::play and Rulebook::play disagree: {child:?} vs {direct:?}",
                rb.move_text(mv)
            );
        } else {
            ensure!(
                run,
                child == direct,
                "after `{}` Game::play and Rulebook::play disagree: {child:?} vs {direct:?}",
                rb.move_text(mv)
            );
        }
        // play_unchecked and apply (the playout path) give the same position.
        let unchecked = rb.play_unchecked(&pos, &[], mv).ok();
        let mut in_place = pos;
        let applied = rb.apply(&mut in_place, &[], mv).is_ok();
        ensure!(
            run,
            unchecked == Some(direct) && applied && in_place == direct,
            "after `{}` play_unchecked gives {unchecked:?}, apply {in_place:?}, play {direct:?}",
            rb.move_text(mv)
        );
        let deep = legal.len() <= children || sampler.below(legal.len()) < children;
        if deep {
            run.push(mv, child);
            check_position(run, list);
            run.pop();
        }
        // 3. Undo restores the position and the move list.
        ensure!(
            run,
            game.undo() == Some(mv),
            "undo after `{}` does not give the move back",
            rb.move_text(mv)
        );
        ensure!(
            run,
            *game.position() == pos
                && (!deep || rb.position_text(game.position()) == text)
                && game.moves() == run.moves,
            "undo after `{}` leaves {:?} (`{}`), moves {}",
            rb.move_text(mv),
            game.position(),
            rb.position_text(game.position()),
            run.moves_text(game.moves())
        );
    }
}

/// Plays `plan.games` seeded random games of the built-in `name`, checking
/// every position; returns the tally of results.
fn random_games(name: &str) -> BTreeMap<String, u64> {
    let began = Instant::now();
    let plan = plan(name);
    let rb = Arc::new(
        Rulebook::builtin(name).unwrap_or_else(|e| panic!("built-in `{name}` loads: {e}")),
    );
    let g = rb.grid();
    assert_eq!(
        (g.width(), g.height()),
        plan.size,
        "{name}: the referee is written for another board"
    );
    let mut tally = BTreeMap::new();
    let (mut plies, mut positions) = (0, 0);
    let mut list = MoveList::new();
    let mut scratch = MoveList::new();
    for seed in SEED0..SEED0 + plan.games {
        let mut rng = Rng::new(seed);
        let mut sampler = Rng::new(!seed);
        let mut game = Game::new(rb.clone());
        let mut run = Run {
            rb: &rb,
            referee: plan.referee,
            seed,
            moves: Vec::new(),
            history: vec![*game.position()],
            checked: std::cell::Cell::new(0),
        };
        ensure!(
            run,
            *game.position() == rb.initial(),
            "a new game does not start from the initial position"
        );
        loop {
            ensure!(
                run,
                run.moves.len() <= 5000,
                "the game is still going after 5000 moves"
            );
            let pos = *run.pos();
            ensure!(
                run,
                game.ending() == pos.ending() && game.moves() == run.moves,
                "the game's ending {:?} or moves differ from its position's",
                game.ending()
            );
            let legal = check_position(&run, &mut list);
            let cands = candidates(&rb, &legal, plan.step_samples, &mut sampler);
            check_moves(
                &mut run,
                &mut game,
                &legal,
                &cands,
                plan.children,
                &mut list,
                &mut sampler,
            );

            // The side's own last move, if a step, taken back (only where
            // the plan steps back: else the random draws are as they were).
            let back = match run.moves.len().checked_sub(2).map(|i| run.moves[i]) {
                Some(Move::Step { from, to }) => Some(Move::Step { from: to, to: from }),
                _ => None,
            }
            .filter(|mv| plan.step_back > 0 && legal.contains(mv));
            let chosen = match back {
                Some(mv) if rng.below(4) < plan.step_back as usize => Some(mv),
                _ => match rb.random_move(&pos, &[], &mut rng, &mut scratch) {
                    Ok(m) => m,
                    Err(e) => panic!("{}", run.report(format_args!("random_move failed: {e}"))),
                },
            };
            let Some(mv) = chosen else {
                ensure!(
                    run,
                    pos.is_over(),
                    "random_move finds no move in a live game"
                );
                break;
            };
            ensure!(
                run,
                legal.contains(&mv),
                "random_move chose `{}`, which is not legal",
                rb.move_text(mv)
            );
            let next = match game.play(mv) {
                Ok(p) => *p,
                Err(e) => panic!(
                    "{}",
                    run.report(format_args!(
                        "Game::play refuses the random move `{}`: {e}",
                        rb.move_text(mv)
                    ))
                ),
            };
            run.push(mv, next);
        }

        let key = match run.pos().ending() {
            Some((o, e)) => format!("{o} ({e:?})"),
            None => unreachable!("the loop ends on a final position"),
        };
        *tally.entry(key).or_insert(0) += 1;
        plies += run.moves.len();
        positions += run.checked.get();

        // RandomSimTestWithUndo: take the whole game back, position by position.
        while let Some(mv) = game.undo() {
            let popped = run.pop();
            ensure!(
                run,
                popped == Some(mv),
                "undo gives `{}` back, expected {:?}",
                rb.move_text(mv),
                popped.map(|m| rb.move_text(m))
            );
            ensure!(
                run,
                *game.position() == *run.pos()
                    && rb.position_text(game.position()) == rb.position_text(run.pos())
                    && game.moves() == run.moves,
                "undo of `{}` does not restore the position before it",
                rb.move_text(mv)
            );
        }
        ensure!(
            run,
            run.moves.is_empty() && *game.position() == rb.initial(),
            "undoing every move does not lead back to the start"
        );
    }
    eprintln!(
        "{name}: {} games, {plies} moves, {positions} positions checked (children too), in {:.2?}: {tally:?}",
        plan.games,
        began.elapsed()
    );
    tally
}

/// Asserts that each of `kinds` ("X wins (Line)", …) occurred at least once,
/// so that the random games really reach every ending the referee models.
fn assert_reached(name: &str, tally: &BTreeMap<String, u64>, kinds: &[&str]) {
    for kind in kinds {
        assert!(
            tally.contains_key(*kind),
            "{name}: no random game ended as `{kind}`: {tally:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn every_builtin_rulebook_is_covered() {
    let builtins: Vec<&str> = Rulebook::builtin_names().collect();
    for name in &builtins {
        assert!(
            COVERED.contains(name),
            "the built-in rulebook `{name}` has no random-game test in tests/invariants.rs"
        );
        plan(name);
    }
    assert_eq!(
        builtins.len(),
        COVERED.len(),
        "COVERED names a rulebook that is not built in"
    );
}

/// One test per rulebook (they run in parallel): its random games, and the
/// endings they must reach.
macro_rules! random_game_tests {
    ($($test:ident: $name:literal => [$($ending:literal),* $(,)?],)*) => {$(
        #[test]
        fn $test() {
            let tally = random_games($name);
            assert_reached($name, &tally, &[$($ending),*]);
        }
    )*};
}

random_game_tests! {
    classic_random_games: "classic" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    four_random_games: "four" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    gomoku_random_games: "gomoku" => ["X wins (Line)", "O wins (Line)"],
    gomoku_swap_random_games: "gomoku-swap" => ["X wins (Line)", "O wins (Line)"],
    moving_random_games: "moving" => ["X wins (Line)", "O wins (Line)"],
    moving_jumps_random_games: "moving-jumps" => ["X wins (Line)", "O wins (Line)"],
    ultimate_random_games: "ultimate" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    connect_four_random_games: "connect-four" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    misere_random_games: "misere" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    notakto_random_games: "notakto" => ["X wins (Line)", "O wins (Line)"],
    wild_random_games: "wild" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    order_chaos_random_games: "order-chaos" => ["X wins (Line)", "O wins (Full)"],
    qubic_random_games: "qubic" => ["X wins (Line)", "O wins (Line)"],
    // A full 3×3×3 cube always holds a line: no random game is drawn.
    cube3_random_games: "cube3" => ["X wins (Line)", "O wins (Line)"],
    teeko_random_games: "teeko" => ["X wins (Line)", "O wins (Line)"],
    three_mens_morris_random_games: "three-mens-morris" => ["X wins (Line)", "O wins (Line)", "draw (Repetition(3))"],
    ultimate_both_random_games: "ultimate-both" => ["X wins (Line)", "O wins (Line)", "draw (Full)"],
    // Random games end by removals, now and then by repetition; no side was
    // seen without a move, and the no-move loss (NM3) is pinned by an example.
    nine_mens_morris_random_games: "nine-mens-morris" => ["X wins (Reduced(O, 2))", "O wins (Reduced(X, 2))", "draw (Repetition(3))"],
    connect6_random_games: "connect6" => ["X wins (Line)", "O wins (Line)"],
    renju_random_games: "renju" => ["X wins (Line)", "O wins (Line)"],
    pente_random_games: "pente" => ["X wins (Line)", "O wins (Line)", "X wins (Captures(5))", "O wins (Captures(5))"],
    // Random games end by a line long before a position recurs three times
    // (16 plies at the least); the repetition draw is pinned by an example.
    vanishing_random_games: "vanishing" => ["X wins (Line)", "O wins (Line)"],
    popout_random_games: "popout" => ["X wins (Line)", "O wins (Line)"],
    quixo_random_games: "quixo" => ["X wins (Line)", "O wins (Line)", "draw (Repetition(3))"],
    pentago_random_games: "pentago" => ["X wins (Line)", "O wins (Line)", "draw (Line)", "draw (Full)"],
}

/// Gobblet Gobblers' random games reach both wins and the repetition draw,
/// and GB2's order is exercised: positions where the mover's opponent
/// shows a line beside the mover's, and where the mover uncovered it alone.
#[test]
fn gobblet_gobblers_random_games() {
    let name = "gobblet-gobblers";
    let tally = random_games(name);
    assert_reached(
        name,
        &tally,
        &["X wins (Line)", "O wins (Line)", "draw (Repetition(3))"],
    );
    let [beside, alone] = GOBBLET_OPPONENT_LINES
        .each_ref()
        .map(|n| n.load(std::sync::atomic::Ordering::Relaxed));
    eprintln!(
        "{name}: the opponent's line won for the opponent {beside} times beside the mover's, {alone} times alone (GB2)"
    );
    assert!(
        beside > 0 && alone > 0,
        "{name}: the random games never judged the opponent's line beside the mover's ({beside}) or alone ({alone}) (GB2)"
    );
}

/// The playout kernel plays nine men's morris's random games move for move
/// as the loop written by hand in `by_hand.rs` (the 24 points and 16 mills
/// written out there, NM1–NM3): one seed, one game, the same result at the
/// same length. It keeps that loop an honest yardstick for
/// `examples/limit.rs`, and reads the kernel's removals, flights and
/// repetition draws a second time.
#[test]
fn the_kernel_plays_the_games_written_by_hand() {
    use gridrules_conformance::by_hand::Morris;
    use gridrules_core::playout::Playout;
    let rules = Rulebook::builtin("nine-mens-morris").expect("built-in");
    let start = rules.initial();
    let (mut playout, mut by_hand) = (Playout::new(), Morris::new());
    let mut endings = BTreeMap::new();
    for seed in 0..3000 {
        let engine = playout
            .run(&rules, &start, &[], &mut Rng::new(seed))
            .expect("no per-move hook");
        let (outcome, plies) = by_hand.play(&mut Rng::new(seed));
        assert_eq!(
            (engine, playout.plies()),
            (outcome, plies as usize),
            "seed {seed}: the engine's game (left) and the one written by hand"
        );
        *endings.entry(format!("{outcome:?}")).or_insert(0) += 1;
    }
    eprintln!("nine-mens-morris by hand: {endings:?}");
    assert_eq!(endings.len(), 3, "both wins and a draw: {endings:?}");
}
