//! The playout kernel: lean random-game loops for rulebooks whose moves
//! place, slide or twist marks, place marks on a board of regions, place
//! and then move pieces, or stack pieces of sizes.
//!
//! Implementation note: a random playout is the figure of merit of a rules
//! engine and the inner loop of the computer's search. The general path
//! ([`crate::rulebook::Rulebook::apply`] on a whole [`Position`]) carries captures,
//! vanishing marks and the per-move hooks on every move, and the opening's
//! own rules (the pie rule, restrictions by move number) on its first
//! moves. A rulebook without any of these ([`eligible`] says which
//! loop serves it: placements, slides, twists, regions, pieces with
//! their steps, jumps, flights and removals, or stacks of sizes) is played here on two bit
//! sets, as wide as the board needs (one machine word for at most 64 cells, see
//! [`crate::bits`]). Each loop, drawing uniformly as the benchmark does
//! ([`Policy::Uniform`]), draws exactly the random numbers the
//! general path draws and reaches exactly its results;
//! `tests::same_games_as_the_general_path` holds it to that.

mod lack;
mod pieces;
mod regions;
mod seen;
mod stacks;
mod windows;

pub(crate) use lack::Lack;
pub(crate) use seen::Seen;

use crate::bits::with_width;
use crate::geometry::{Bits, CellSet};
use crate::mechanics::slides::Legal;
use crate::mechanics::words::Marks;
use crate::mechanics::{LineEnds, Mechanics};
use crate::position::Side;
use crate::position::{BySide, Outcome, Position, UNLIMITED};
use crate::rng::Rng;

/// Which of the kernel's loops plays a rulebook's random games, and from
/// which mark of the game on: the opening's rules (the pie rule's `swap`,
/// cells forbidden by move number) are the general path's, and the loop
/// takes over once they are spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kernel {
    /// The loop.
    pub(crate) kind: Loop,
    /// The marks played ([`Position::marks_played`]) from which on no rule
    /// of the opening applies.
    pub(crate) from_mark: u32,
}

/// Whether games under tables `t` can be played by the kernel, by which
/// loop: from the start, or once the opening's own rules are spent (see
/// [`Kernel`]). No captures or vanishing marks, no per-move hook; marks
/// placed, slid or twisted, placed on regions, or pieces placed and moved
/// (where lines may remove). Computed once per rulebook (the rulebook
/// keeps the answer): asked per game, it cost the smallest boards' random
/// games a twentieth of their speed.
pub(crate) fn eligible(
    t: &Mechanics,
    pie: bool,
    per_move_hooks: bool,
) -> (Option<Loop>, Option<Kernel>) {
    let Some(chosen) = loop_for(t, per_move_hooks) else {
        return (None, None);
    };
    // A full board judged apart from blocked pieces: the pieces' loop
    // tells them apart; the others leave it to the general path.
    if t.full_board.is_some() && chosen != Loop::Pieces {
        return (None, None);
    }
    // The pie rule's `swap` answers the first turn; a mark more and it is
    // gone, whether swapped or not. Restrictions by move number change
    // the free cells by the move, and turns that name their marks the mark
    // a move places: they are few, and over after the opening.
    let swap = if pie { t.turns.place(0).of + 1 } else { 0 };
    let restricted = t.forbidden.len() as u32;
    match swap.max(restricted).max(t.turns.named_moves()) {
        0 => (Some(chosen), None),
        // Where positions repeat, the kernel's count of them agrees with
        // the general path's only where it forgets them all at a piece put
        // from hand: other loops never take over mid-game.
        _ if t.repetition.is_some() && !chosen.forgets_at_placements() => (None, None),
        from_mark => (
            None,
            Some(Kernel {
                kind: chosen,
                from_mark,
            }),
        ),
    }
}

/// [`eligible`]'s loop, the result of a full board and the opening aside.
fn loop_for(t: &Mechanics, per_move_hooks: bool) -> Option<Loop> {
    if per_move_hooks
        || t.captures.any()
        || t.keep.is_some()
        || t.sided_wins()
        || t.has_any_patterns()
        // Windows of `k` marks do not see what lies beyond a run.
        || t.line_ends() != LineEnds::Any
    {
        return None;
    }
    if !t.regions.is_empty() {
        // Regions with marks placed one by one, nothing else.
        let plain = t.pieces == UNLIMITED
            && !t.gravity
            && t.slides.all.is_empty()
            && !t.has_twists()
            && !t.has_stacks()
            && !t.removes()
            && t.repetition.is_none();
        return plain.then_some(Loop::Wide);
    }
    if t.has_stacks() {
        return Some(Loop::Stacks);
    }
    if t.pieces != UNLIMITED && t.places() {
        // Pieces that change no other cell than their own, placed as the
        // mover's mark.
        let plain =
            t.slides.all.is_empty() && !t.has_twists() && !t.gravity && t.marks == Marks::Own;
        return plain.then_some(Loop::Pieces);
    }
    if t.removes() {
        return None;
    }
    Some(if t.has_twists() {
        // Twists go with placements alone: nothing repeats.
        Loop::Twists
    } else if t.slides.all.is_empty() && t.repetition.is_none() {
        // Where the windows' masks outgrow the cache, their counts.
        if t.window_list.is_some() {
            Loop::Wide
        } else {
            Loop::Places
        }
    } else {
        Loop::Slides
    })
}

/// The kernel's loops, compiled apart so that games of placements alone
/// do not test for slides, repetition or pieces on every move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loop {
    /// Marks only placed.
    Places,
    /// Marks placed or slid, positions perhaps repeating.
    Slides,
    /// Marks placed, each placement followed by a twist.
    Twists,
    /// Pieces placed from hand, then moved; lines may remove.
    Pieces,
    /// Marks placed on a board of regions (any size), or placed and judged
    /// by each window's count where the windows' masks outgrow the cache
    /// (`WindowList`): games of sixty moves and more, out of line ([`wide`]).
    Wide,
    /// Pieces of sizes put from hand or moved, covering smaller ones.
    Stacks,
}

impl Loop {
    /// Whether the loop forgets every earlier position at a piece put from
    /// hand, for the repetition rule: none comes back across it.
    pub(crate) fn forgets_at_placements(self) -> bool {
        matches!(self, Loop::Pieces | Loop::Stacks)
    }
}

/// A uniformly random placement among `n` free cells: which of them (by its
/// place in the set) and the mark, both marks being choices where a move
/// chooses. The general path and the playout kernel both draw with this, so
/// that one seed gives them the same games.
#[inline(always)]
pub(crate) fn draw_placement(marks: Marks, turn: Side, n: u32, rng: &mut Rng) -> (u32, Side) {
    if marks == Marks::Either {
        let r = rng.below(2 * n as usize) as u32;
        let mark = if r.is_multiple_of(2) {
            Side::X
        } else {
            Side::O
        };
        (r / 2, mark)
    } else {
        (rng.below(n as usize) as u32, marks.default_mark(turn))
    }
}

/// The cells whose support `to` completes, where marks drop (`support()`):
/// with `occupied` taken, they may be filled now.
#[inline(always)]
fn supported<const W: usize>(
    t: &Mechanics,
    to: crate::geometry::Cell,
    occupied: Bits<W>,
) -> Bits<W> {
    let mut open = Bits::EMPTY;
    for d in t.dependents[to.index()].prefix::<W>() {
        if t.support[d.index()].prefix::<W>().is_subset(occupied) {
            open |= Bits::single(d);
        }
    }
    open
}

/// The loops of [`Loop::Wide`], out of line: a call costs their games of
/// sixty moves and more nothing. One kind and one call for both: with a
/// kind more in [`playout`], the compiler stopped inlining the placements'
/// loop where random games are played (3 % more instructions in classic's
/// seven-move games, up to a tenth of their speed).
#[inline(never)]
fn wide(t: &Mechanics, start: &Position, rng: &mut Rng, lack: &mut Lack) -> Finished {
    if t.regions.is_empty() {
        with_width!(t.words, W => windows::run::<W>(t, start, rng, lack))
    } else {
        with_width!(t.words, W => regions::run::<W>(t, start, rng))
    }
}

/// How a random game draws its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// Every legal move alike: the benchmark's games, and the general
    /// path's.
    #[default]
    Uniform,
    /// Where some move completes a line that removes a piece, one of those
    /// half the time, else any move alike: games in which a side takes
    /// what it is given, as players do, so that a piece up counts in
    /// their results. Hard's playouts on rulebooks whose lines remove,
    /// where the pieces' loop plays them (see docs/architecture.md for
    /// what it won against the uniform draw).
    Removals,
}

/// How a kernel game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finished {
    pub outcome: Outcome,
    /// Moves played.
    pub plies: usize,
    /// The marks on the board at the end.
    pub marks: BySide<CellSet>,
}

/// A loop's end: the outcome, the moves played and the marks, kept in the
/// loop's `W` words.
#[inline(always)]
fn end<const W: usize>(outcome: Outcome, plies: usize, marks: [Bits<W>; 2]) -> Finished {
    Finished {
        outcome,
        plies,
        marks: BySide {
            x: CellSet::from_prefix(marks[0]),
            o: CellSet::from_prefix(marks[1]),
        },
    }
}

/// Plays random moves from `start`, drawn by `policy` (only the pieces'
/// loop draws other than uniformly), to the result, or to `max_plies`
/// moves, a draw. `start` must not be over, and `rules` must be
/// [`eligible`]. `seen` is scratch space for the repetition rule, `lack`
/// for the counts of windows. `AFTER_OPENING` says the general path
/// played the game's opening ([`Kernel`]): a copy of the loops of its own,
/// so that each copy has one caller and is inlined there (with two
/// callers, classic's games took 3 % more instructions).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn playout<const AFTER_OPENING: bool>(
    kind: Loop,
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
    lack: &mut Lack,
    policy: Policy,
) -> Finished {
    match kind {
        Loop::Places => {
            with_width!(t.words, W => run::<W, false, AFTER_OPENING>(t, start, rng, max_plies, seen))
        }
        Loop::Slides => {
            with_width!(t.words, W => run::<W, true, AFTER_OPENING>(t, start, rng, max_plies, seen))
        }
        Loop::Twists => with_width!(t.words, W => run_twists::<W>(t, start, rng)),
        Loop::Pieces => {
            with_width!(t.words, W => pieces::run::<W>(t, start, rng, max_plies, seen, policy))
        }
        Loop::Stacks => stacks::run(t, start, rng, max_plies, seen),
        Loop::Wide => wide(t, start, rng, lack),
    }
}

/// The loop of [`Loop::Twists`]: a placement, then a twist unless the
/// placement made a line; the whole board judged after the twist. Never
/// inlined: one call a game costs nothing, and its five widths stay out of
/// the playout loop the general path's games share.
#[inline(never)]
fn run_twists<const W: usize>(t: &Mechanics, start: &Position, rng: &mut Rng) -> Finished {
    let mut marks: [Bits<W>; 2] = [start.marks.x.prefix(), start.marks.o.prefix()];
    let mut open: Bits<W> = t.fillable_in::<W>(start);
    let mut turn = start.turn;
    let twists = t.twists().len() as u32;
    let all = t.all.prefix::<W>();
    // The cells where the mover's placement makes a line: one move each.
    let (_, mut wins) = t.lines_and_wins(&marks, open, turn);
    for ply in 0.. {
        let n = open.count();
        if n == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        let w = wins.count();
        // The general path lists each cell's moves in cell order: the
        // placement alone where it makes a line, else one per twist.
        let (i, _) = draw_placement(t.marks, turn, w + (n - w) * twists, rng);
        let (to, twist) = if w == 0 {
            (open.nth(i / twists).expect("i < n cells"), i % twists)
        } else {
            let mut i = i;
            let mut found = None;
            for c in open {
                let moves = if wins.contains(c) { 1 } else { twists };
                if i < moves {
                    found = Some((c, i));
                    break;
                }
                i -= moves;
            }
            found.expect("i < the number of moves")
        };
        marks[turn as usize] |= Bits::single(to);
        if wins.contains(to) {
            let holder = t.line_result.holder(turn, turn);
            return end(t.line_result.outcome(holder), ply + 1, marks);
        }
        t.twist_at(twist as usize, &mut marks);
        // The twist moves empty cells too.
        open = all & !(marks[0] | marks[1]);
        let (lines, next) = t.lines_and_wins(&marks, open, turn.other());
        if let Some(outcome) = t.judge_lines(lines, turn) {
            return end(outcome, ply + 1, marks);
        }
        turn = turn.other();
        wins = next;
    }
    unreachable!("a board has finitely many cells")
}

#[inline]
fn run<const W: usize, const SLIDES: bool, const AFTER_OPENING: bool>(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
) -> Finished {
    let mut marks: [Bits<W>; 2] = [start.marks.x.prefix(), start.marks.o.prefix()];
    let places = !SLIDES || t.places();
    let mut open: Bits<W> = if places {
        t.fillable_in::<W>(start)
    } else {
        Bits::EMPTY
    };
    let mut turn = start.turn;
    let min_run = t.min_run as u32;
    let repetition = if SLIDES { t.repetition } else { None };
    // Where no move lowers the number of marks, a position with fewer
    // marks never returns: those kept are dropped as one is added.
    let never_fewer = t.slides.never_fewer;
    let mut count = (marks[0] | marks[1]).count();
    if repetition.is_some() {
        seen.clear();
        seen.count(&marks, turn);
    }
    for ply in 0.. {
        // Only slides make a game that need not end.
        if SLIDES && ply == max_plies {
            return end(Outcome::Draw, ply, marks);
        }
        let n = open.count();
        let legal = if SLIDES {
            t.legal_slides(&marks, turn)
        } else {
            Legal::Count(0)
        };
        let slides = legal.count();
        if n + slides == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        // The general path lists placements before slides and draws one.
        let (i, mark) = draw_placement(t.marks, turn, n + slides, rng);
        if SLIDES && i >= n {
            let j = t.pick_slide(legal, &marks, turn, i - n);
            t.shift_at(j, &mut marks, turn);
            if places {
                let occupied = marks[0] | marks[1];
                for c in t.slide_at(j).touched.prefix::<W>() {
                    if t.may_fill(c, occupied) {
                        open.insert(c);
                    } else {
                        open.remove(c);
                    }
                }
            }
            if let Some(outcome) = t.result_at(j, &marks, turn) {
                return end(outcome, ply + 1, marks);
            }
        } else {
            let to = open.nth(i).expect("i < n cells");
            let bit = Bits::single(to);
            // Computed once and kept: reading the set back from the array
            // just written stalls store forwarding.
            let own = marks[mark as usize] | bit;
            marks[mark as usize] = own;
            open = open & !bit;
            // Not `supported()`: written out here, the loop of connect four
            // took 6 % fewer instructions.
            if t.gravity {
                let occupied = marks[0] | marks[1];
                for d in t.dependents[to.index()].prefix::<W>() {
                    if t.support[d.index()].prefix::<W>().is_subset(occupied) {
                        open |= Bits::single(d);
                    }
                }
            }
            // Fewer marks than the shortest winning run cannot hold a line.
            if own.count() >= min_run && t.wins_through(to, own, marks[1 - mark as usize]) {
                let holder = t.line_result.holder(mark, turn);
                return end(t.line_result.outcome(holder), ply + 1, marks);
            }
        }
        if t.turns.ends_turn(start.marks_played() + ply as u32) {
            turn = turn.other();
        }
        if let Some(limit) = repetition {
            if never_fewer {
                let now = (marks[0] | marks[1]).count();
                if now != count {
                    seen.clear();
                    count = now;
                }
            }
            if seen.count(&marks, turn) >= limit {
                return end(Outcome::Draw, ply + 1, marks);
            }
        }
    }
    unreachable!("a board has finitely many cells")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::MoveList;
    use crate::rulebook::Rulebook;

    /// A `width`×`height` rulebook of the script `script`.
    fn scripted(script: &str, width: u32, height: u32) -> Rulebook {
        Rulebook::scripted(script, width, height).unwrap()
    }

    /// Quixo's pushes on 4×4, three in a row, where a push along a row
    /// takes only an own mark.
    fn mixed_pushes() -> Rulebook {
        let script = "fn lines() { lines::straight(3) }\n\
            fn wins(run) { run >= 3 }\n\
            fn pieces() { 0 }\n\
            fn slides(c) {\n\
                let out = [];\n\
                for m in slides::push_in(c) {\n\
                    if row(m.path[m.path.len() - 1]) == row(c) { m.take = \"own\"; }\n\
                    out.push(m);\n\
                }\n\
                out\n\
            }\n\
            fn repetition() { 3 }\n";
        scripted(script, 4, 4)
    }

    /// Nine 3×3 boards in one, where a full board goes to the mover, a
    /// line loses the mover and the mover chooses the mark.
    fn regions_of_the_mover() -> Rulebook {
        let script = "fn regions() { regions::blocks(3, 3) }\n\
            fn lines() { regions::lines_in_blocks(3, 3, 3) }\n\
            fn wins(run) { run >= 3 }\n\
            fn region_lines() { regions::block_lines(3, 3, 3) }\n\
            fn redirect(c) { regions::same_place(c, 3, 3) }\n\
            fn full_region() { \"mover\" }\n\
            fn line_result() { \"mover loses\" }\n\
            fn marks() { \"either\" }\n";
        scripted(script, 9, 9)
    }

    /// Pieces on 5×5: king steps and jumps, any piece removed, flying at
    /// three, two pieces lose, positions repeating.
    fn king_removals() -> Rulebook {
        let script = "fn lines() { lines::straight(3) }\n\
            fn wins(run) { run >= 3 }\n\
            fn pieces() { 6 }\n\
            fn steps(c) { movement::king(c) }\n\
            fn jumps(c) { movement::orthogonal_jumps(c) }\n\
            fn removes() { \"any\" }\n\
            fn fly_at() { 3 }\n\
            fn lose_at() { 2 }\n\
            fn repetition() { 3 }\n";
        scripted(script, 5, 5)
    }

    /// Pieces that may fill a 4×4 board while placing (eight each):
    /// a full board draws (`full_board()`), pieces blocked later lose.
    fn full_board_draws() -> Rulebook {
        let script = "fn lines() { lines::straight(4) }\n\
            fn wins(run) { run >= 4 }\n\
            fn pieces() { 8 }\n\
            fn steps(c) { movement::orthogonal(c) }\n\
            fn no_moves() { \"loss\" }\n\
            fn full_board() { \"draw\" }\n\
            fn repetition() { 3 }\n";
        scripted(script, 4, 4)
    }

    /// Pieces on 9×9 (two words): mills of four outside which a piece is
    /// removed, a side without a move drawing.
    fn wide_mills() -> Rulebook {
        let script = "fn lines() { lines::straight(4) }\n\
            fn wins(run) { run >= 4 }\n\
            fn pieces() { 12 }\n\
            fn steps(c) { movement::orthogonal(c) }\n\
            fn removes() { \"not in a line\" }\n\
            fn no_moves() { \"draw\" }\n\
            fn repetition() { 2 }\n";
        scripted(script, 9, 9)
    }

    /// Pieces on 6×5 whose lines are exactly three along rows and columns,
    /// with `placing` the rule for lines made while placing and `rule` the
    /// pieces a line may remove.
    fn exact_threes(placing: &str, rule: &str, pieces: u32) -> Rulebook {
        let script = format!(
            "fn lines() {{ lines::straight(3).filter(|l| l[1] - l[0] == 1 || l[1] - l[0] == width()) }}\n\
             fn wins(run) {{ run == 3 }}\n\
             fn pieces() {{ {pieces} }}\n\
             fn steps(c) {{ movement::orthogonal(c) }}\n\
             fn removes() {{ \"{rule}\" }}\n\
             fn placing_lines() {{ \"{placing}\" }}\n\
             fn lose_at() {{ 2 }}\n\
             fn fly_at() {{ 3 }}\n\
             fn no_moves() {{ \"loss\" }}\n\
             fn repetition() {{ 3 }}\n"
        );
        scripted(&script, 6, 5)
    }

    /// Pieces on 4×4 whose line loses its owner, with jumps and no
    /// repetition rule: games run to the ply limit.
    fn losing_lines() -> Rulebook {
        let script = "fn lines() { lines::straight(3) }\n\
            fn wins(run) { run >= 3 }\n\
            fn line_result() { \"owner loses\" }\n\
            fn pieces() { 4 }\n\
            fn steps(c) { movement::orthogonal(c) }\n\
            fn jumps(c) { movement::orthogonal_jumps(c) }\n";
        scripted(script, 4, 4)
    }

    /// The kernel plays the same games as `random_move` + `apply`: the same
    /// marks, result and number of moves, seed for seed.
    #[test]
    fn same_games_as_the_general_path() {
        // Beside the built-ins, boards of every set width: 26×26 (all eleven
        // words, windows as spans), exactly five on 20×20 (runs), gravity
        // on 26×20 and 10×10 (two words), and a pop on 4×3.
        let board = |script: &str, w: u32, h: u32, params: &str| {
            let text = format!(
                "name = \"wide\"\ntitle = \"wide\"\nscript = \"{script}\"\n\
                 [board]\nwidth = {w}\nheight = {h}\n[params]\n{params}\n"
            );
            Rulebook::from_str_at(&text, "wide.toml", None).unwrap()
        };
        let extra = [
            (
                "26×26 five",
                board("k_in_a_row.rhai", 26, 26, "k = 5\noverline = true"),
            ),
            (
                "20×20 exactly five",
                board("k_in_a_row.rhai", 20, 20, "k = 5\noverline = false"),
            ),
            (
                "26×20 drop four",
                board("connect_four.rhai", 26, 20, "k = 4"),
            ),
            // Pop Out on a board where few games end in a line: repeated
            // positions and games cut at the ply limit.
            (
                "4×3 pop four",
                board("popout.rhai", 4, 3, "k = 4\nrepetition = 3"),
            ),
            (
                "10×10 four",
                board("k_in_a_row.rhai", 10, 10, "k = 4\noverline = true"),
            ),
            // Pushes whose takes differ from one cell: along its row a
            // border cell gives only an own mark, along its column a blank
            // cube too.
            ("4×4 mixed pushes", mixed_pushes()),
            // Twists on boards the compact copies do not serve (81 cells)
            // and with a line shorter than the blocks' side.
            ("9×9 twists five", board("pentago.rhai", 9, 9, "k = 5")),
            ("6×6 twists four", board("pentago.rhai", 6, 6, "k = 4")),
            // Pieces: jumps, flights, removals of either rule, the loss at
            // two pieces, two words, a line that loses, and no rule to end
            // a game but the ply limit.
            // Regions whose full board goes to the mover, whose line
            // loses the mover, and where the mover chooses the mark.
            ("9×9 regions, mover's", regions_of_the_mover()),
            // Window counts where the mover chooses the mark.
            (
                "15×15 five, either mark",
                scripted(
                    "fn lines() { lines::straight(5) }\n\
                     fn wins(run) { run >= 5 }\n\
                     fn marks() { \"either\" }\n",
                    15,
                    15,
                ),
            ),
            ("5×5 king removals", king_removals()),
            ("9×9 mills of four", wide_mills()),
            ("4×4 losing lines", losing_lines()),
            ("4×4 full board draws", full_board_draws()),
            // Lines of exactly three, those made while placing inert or
            // refused (Dara's), of either rule for the removed piece.
            (
                "6×5 exact threes, inert while placing",
                exact_threes("count for nothing", "any", 12),
            ),
            (
                "6×5 exact threes, refused while placing",
                exact_threes("refused", "not in a line", 12),
            ),
            (
                "6×5 exact threes removing while placing",
                exact_threes("remove", "not in a line", 8),
            ),
        ];
        let rulebooks = Rulebook::builtin_names()
            .map(|name| (name, Rulebook::builtin(name).unwrap()))
            .chain(extra);
        let mut covered = 0;
        for (name, rules) in rulebooks {
            let (kind, from_mark) = match (rules.kernel, rules.after_opening) {
                (Some(kind), _) => (kind, 0),
                (None, Some(Kernel { kind, from_mark })) => (kind, from_mark),
                (None, None) => continue,
            };
            covered += 1;
            let games = if rules.grid().len() > 100 { 30 } else { 300 };
            for seed in 0..games {
                // Every other game from a few random moves in, so that the
                // loops also start from marks on the board; each past the
                // opening the general path plays (`Playout::run`).
                let mut start = rules.initial();
                let mut list = MoveList::new();
                let mut opening = Rng::new(seed + 1_000_000);
                let moves_in = (seed % 2) * (seed % 11);
                for i in 0.. {
                    if i >= moves_in && start.marks_played() >= from_mark {
                        break;
                    }
                    let Some(mv) = rules
                        .random_move(&start, &[], &mut opening, &mut list)
                        .unwrap()
                    else {
                        break;
                    };
                    let mut next = start;
                    rules.apply(&mut next, &[], mv).unwrap();
                    if next.is_over() {
                        break;
                    }
                    start = next;
                }
                let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
                let kernel = playout::<false>(
                    kind,
                    rules.mechanics(),
                    &start,
                    &mut a,
                    crate::playout::MAX_PLIES,
                    &mut Seen::default(),
                    &mut Lack::default(),
                    Policy::Uniform,
                );
                let mut pos = start;
                let mut general_plies = 0;
                let mut keys = vec![pos.key()];
                while !pos.is_over() && general_plies < crate::playout::MAX_PLIES {
                    let mv = rules
                        .random_move(&pos, &[], &mut b, &mut list)
                        .unwrap()
                        .unwrap();
                    rules.apply(&mut pos, &[], mv).unwrap();
                    rules.settle_repetition(&mut pos, &keys);
                    keys.push(pos.key());
                    general_plies += 1;
                }
                let general = Finished {
                    outcome: pos.outcome().unwrap_or(Outcome::Draw),
                    plies: general_plies,
                    marks: pos.marks,
                };
                assert_eq!(kernel, general, "{name}, seed {seed}");
            }
        }
        assert!(covered >= 12, "only {covered} rulebooks use the kernel");
    }

    /// Hard's draw where lines remove takes a removal half the time one is
    /// there, and the benchmark's every move alike: X to place, g1 closing
    /// a mill, 2 of its 21 moves remove.
    #[test]
    fn the_search_draws_removals_half_the_time() {
        let rules = Rulebook::builtin("nine-mens-morris").unwrap();
        let pos = rules.parse_position("3/3/3/6/3/OO1/XX1 X 7,7 -").unwrap();
        let removed = |policy: Policy| {
            (0..400u64)
                .filter(|&seed| {
                    let end = playout::<false>(
                        Loop::Pieces,
                        rules.mechanics(),
                        &pos,
                        &mut Rng::new(seed),
                        1,
                        &mut Seen::default(),
                        &mut Lack::default(),
                        policy,
                    );
                    end.marks.o.count() == 1
                })
                .count()
        };
        let (uniform, removals) = (removed(Policy::Uniform), removed(Policy::Removals));
        // Expected 400 × 2/21 = 38, and 400 × (1/2 + 1/2 × 2/21) = 219.
        assert!((20..60).contains(&uniform), "{uniform}");
        assert!((180..260).contains(&removals), "{removals}");
    }
}
