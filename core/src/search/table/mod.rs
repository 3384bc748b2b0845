//! An exact table of every position, for games too large for the graph of
//! [`super::retrograde`] whose positions are only the cells each side holds
//! (see [`Mechanics::retractable`]): each position is a place in an array
//! (its number, from [`numbering`]), not an entry in a map, so a game of
//! 170 million positions takes 2 bits of value and a byte of plies each to
//! keep, and 3 bytes each while it is solved, on every core.
//!
//! The positions are grouped in slots by their counts of marks and the side
//! to move. While pieces are placed, every move leads to the next slot: those
//! slots are valued from the last backwards, one pass each. Once all are
//! placed, moves lead within the two slots of the full board, where
//! positions come back: they are valued from the ends backwards, level by
//! level, finding the positions that lead to one by moving its pieces back.
//! What no level reaches is a draw, as in [`super::retrograde`].
//!
//! The slots' numbering is what would shard the work: see
//! `docs/architecture.md`, "A table at scale".

mod numbering;
mod parallel;

use super::Limit;
use super::kept::Kept;
use super::retrograde::{Unbuilt, Value, Values};
use crate::error::ScriptError;
use crate::geometry::{CellSet, WORDS};
use crate::mechanics::Mechanics;
use crate::position::{BySide, Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use numbering::Numbering;
use parallel::in_parallel;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Positions a table may hold: 3 bytes each while it is solved.
pub const MAX_TABLE_POSITIONS: u64 = 1 << 29;

/// What a position is worth to its side to move, in a table's 2 bits.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
/// Not a position of the game: a line already stands on the board.
const DEAD: u8 = 3;

/// The most plies a table counts to the end of a win.
const MOST_PLIES: usize = u8::MAX as usize;

/// Positions handed to a thread at a time.
const CHUNK: u64 = 4096;

/// The positions with `x` marks of X, `o` of O and `turn` to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    x: u32,
    o: u32,
    turn: Side,
    /// The number of its first position in the table.
    start: u64,
    len: u64,
}

/// Every position of a game, valued.
#[derive(Debug)]
pub(crate) struct Table {
    numbering: Numbering,
    slots: Vec<Slot>,
    pieces: u16,
    /// The values, 2 bits a position (32 to a word).
    values: Vec<u64>,
    /// Plies to the end of a win or a loss.
    plies: Vec<u8>,
}

/// How far a table's solving has come: what it is doing, the positions
/// done and how many there are to do (see [`Stage`]).
pub type Progress<'a> = &'a mut dyn FnMut(Stage, u64, u64);

/// What solving a table is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Looking at the moves of every position with all pieces placed.
    Moves,
    /// Walking back from the ends: the positions valued so far, at this
    /// many plies from the end.
    Back(u32),
    /// Valuing the positions while pieces are placed.
    Placements,
}

/// Why a pass over positions stopped.
enum Halt {
    Script(ScriptError),
    Unbuilt(Unbuilt),
}

impl From<ScriptError> for Halt {
    fn from(e: ScriptError) -> Halt {
        Halt::Script(e)
    }
}

/// The table while it is solved: each position's value, its unvalued
/// children (while pieces move) and its plies to the end.
struct Work<'a> {
    rules: &'a Rulebook,
    mechanics: &'a Mechanics,
    template: Position,
    numbering: &'a Numbering,
    slots: &'a [Slot],
    value: Vec<AtomicU8>,
    open: Vec<AtomicU8>,
    plies: Vec<AtomicU8>,
}

impl Table {
    /// Whether the method applies: positions alone decide the game (no
    /// per-move hooks, no pie rule), and they are only the cells each side
    /// holds, the moves placements or steps that can be taken back.
    pub(crate) fn applies(rules: &Rulebook) -> bool {
        !rules.has_per_move_hooks() && !rules.table().pie && rules.mechanics().retractable()
    }

    /// The table of `rules`' positions, solved on first use within `limit`
    /// and kept (see [`TABLES`]): `None` when the method does not apply or
    /// the table would be too large (which is kept too), or when `limit`
    /// ran out first (which is not: a later call may have the time).
    pub(super) fn of_rulebook(
        rules: &Rulebook,
        limit: &Limit<'_>,
        progress: Progress<'_>,
    ) -> Result<Option<Arc<Table>>, ScriptError> {
        let load = Arc::downgrade(&rules.script);
        if let Some(kept) = TABLES.get(&load) {
            return Ok(kept);
        }
        let built = match Table::build(rules, limit, progress)? {
            Ok(t) => Some(Arc::new(t)),
            Err(Unbuilt::TooLarge) => None,
            Err(Unbuilt::OutOfTime) => return Ok(None),
        };
        Ok(TABLES.keep(load, built))
    }

    /// The table kept for `rules`, if one was solved.
    pub(super) fn kept(rules: &Rulebook) -> Option<Arc<Table>> {
        TABLES.get(&Arc::downgrade(&rules.script)).flatten()
    }

    /// The number of `pos` in the table.
    fn number(&self, pos: &Position) -> Option<u64> {
        let hands = BySide::new_with(|s| *pos.in_hand.get(s));
        let (slot, rank) = place(&self.slots, &self.numbering, pos)?;
        (pos.result.is_none() && hands == hands_of(self.pieces, slot)).then_some(slot.start + rank)
    }

    /// Solves every position of `rules` on every core within `limit`,
    /// telling `progress` how far it has come.
    pub(crate) fn build(
        rules: &Rulebook,
        limit: &Limit<'_>,
        progress: Progress<'_>,
    ) -> Result<Result<Table, Unbuilt>, ScriptError> {
        let t = rules.mechanics();
        if !Table::applies(rules) {
            return Ok(Err(Unbuilt::TooLarge));
        }
        let root = rules.initial();
        let pieces = t.pieces;
        let numbering = Numbering::new(t.all.count());
        let Some(slots) = slots(&numbering, &root, pieces) else {
            return Ok(Err(Unbuilt::TooLarge));
        };
        let total: u64 = slots.iter().map(|s| s.len).sum();
        if total > MAX_TABLE_POSITIONS {
            return Ok(Err(Unbuilt::TooLarge));
        }
        let atomics = || (0..total).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
        let work = Work {
            rules,
            mechanics: t,
            template: root,
            numbering: &numbering,
            slots: &slots,
            value: atomics(),
            open: atomics(),
            plies: atomics(),
        };
        let solved = work
            .solve_moving(limit, progress)
            .and_then(|()| work.solve_placing(limit, progress));
        match solved {
            Ok(()) => {}
            Err(Halt::Script(e)) => return Err(e),
            Err(Halt::Unbuilt(why)) => return Ok(Err(why)),
        }
        let mut values = vec![0u64; total.div_ceil(32) as usize];
        for (id, v) in work.value.iter().enumerate() {
            values[id / 32] |= u64::from(v.load(Relaxed)) << (id % 32 * 2);
        }
        let plies = work.plies.into_iter().map(AtomicU8::into_inner).collect();
        Ok(Ok(Table {
            numbering,
            slots,
            pieces,
            values,
            plies,
        }))
    }
}

impl Values for Table {
    fn value(&self, pos: &Position) -> Option<Value> {
        let id = self.number(pos)?;
        let code = (self.values[(id / 32) as usize] >> (id % 32 * 2)) as u8 & 3;
        let plies = u32::from(self.plies[id as usize]);
        let me = pos.turn;
        match code {
            WIN => Some(Value::Win { side: me, plies }),
            LOSS => Some(Value::Win {
                side: me.other(),
                plies,
            }),
            DEAD => None,
            _ => Some(Value::Draw),
        }
    }
}

/// The tables solved for rulebooks (see [`Kept`]).
static TABLES: Kept<Table> = Kept::new();

/// The cells of a one-word mask.
fn set(mask: u64) -> CellSet {
    let mut words = [0; WORDS];
    words[0] = mask;
    CellSet::from_words(&words)
}

/// The slot among `slots` with `pos`'s counts of marks and side to move,
/// and `pos`'s rank within it.
fn place<'s>(slots: &'s [Slot], numbering: &Numbering, pos: &Position) -> Option<(&'s Slot, u64)> {
    let (x, o) = (pos.marks.x.words()[0], pos.marks.o.words()[0]);
    let slot = slots
        .iter()
        .find(|s| s.x == x.count_ones() && s.o == o.count_ones() && s.turn == pos.turn)?;
    Some((slot, numbering.rank_pair(x, o)))
}

/// Each side's pieces in hand in `slot`.
fn hands_of(pieces: u16, slot: &Slot) -> BySide<u16> {
    BySide {
        x: pieces - slot.x as u16,
        o: pieces - slot.o as u16,
    }
}

/// The slots from `root` on: one for each placement while pieces are in
/// hand, the side to move alternating, then the full board with either side
/// to move; `None` when a side would have to move pieces while the other
/// still places (the slots would not follow one another), or when they
/// would hold more than [`MAX_TABLE_POSITIONS`].
fn slots(numbering: &Numbering, root: &Position, pieces: u16) -> Option<Vec<Slot>> {
    let pieces = u32::from(pieces);
    let count = |s: Side| root.marks(s).count();
    let (mut x, mut o, mut turn) = (count(Side::X), count(Side::O), root.turn);
    let mut slots = Vec::new();
    let mut start = 0;
    // Sizes past the table's most are refused before they can overflow.
    let mut push = |x: u32, o: u32, turn: Side, slots: &mut Vec<Slot>| -> Option<()> {
        let len = numbering.pairs(x, o);
        slots.push(Slot {
            x,
            o,
            turn,
            start,
            len,
        });
        start = start
            .checked_add(len)
            .filter(|&end| end <= MAX_TABLE_POSITIONS)?;
        Some(())
    };
    while x < pieces || o < pieces {
        let placed = match turn {
            Side::X => &mut x,
            Side::O => &mut o,
        };
        if *placed >= pieces {
            return None;
        }
        push(x, o, turn, &mut slots)?;
        *match turn {
            Side::X => &mut x,
            Side::O => &mut o,
        } += 1;
        turn = turn.other();
    }
    if x != pieces || o != pieces || 2 * pieces > numbering.cells() {
        return None;
    }
    push(x, o, Side::X, &mut slots)?;
    push(x, o, Side::O, &mut slots)?;
    Some(slots)
}

impl Work<'_> {
    /// The position numbered `id`, and its slot.
    fn position(&self, id: u64) -> (Position, &Slot) {
        let slot = self
            .slots
            .iter()
            .find(|s| (s.start..s.start + s.len).contains(&id))
            .expect("every number is in a slot");
        let (x, o) = self.numbering.unrank_pair(id - slot.start, slot.x, slot.o);
        let mut pos = self.template;
        pos.marks = BySide {
            x: set(x),
            o: set(o),
        };
        pos.turn = slot.turn;
        pos.in_hand = hands_of(self.mechanics.pieces, slot);
        pos.ply = (slot.x + slot.o) as u16;
        pos.result = None;
        pos.last = None;
        (pos, slot)
    }

    /// The number of `pos`, a position the game can reach that is not over,
    /// if it lies in the slots from `first` on.
    fn number(&self, pos: &Position, first: usize) -> Option<u64> {
        let (slot, rank) = place(&self.slots[first..], self.numbering, pos)?;
        Some(slot.start + rank)
    }

    /// Whether a line already stands on `pos`'s board: no move of the game
    /// leads there without ending it.
    fn dead(&self, pos: &Position) -> bool {
        // The board is one word (`retractable`): its sets, not the widest.
        Side::ALL.into_iter().any(|s| {
            let own = pos.marks(s).prefix::<1>();
            let theirs = pos.marks(s.other()).prefix::<1>();
            own.into_iter()
                .any(|c| self.mechanics.wins_by(s, c, own, theirs))
        })
    }

    /// The full board's positions, from the ends backwards.
    fn solve_moving(&self, limit: &Limit<'_>, progress: Progress<'_>) -> Result<(), Halt> {
        let full = self.slots.len() - 2;
        let ids = self.slots[full].start..self.slots[full + 1].start + self.slots[full + 1].len;
        let all = ids.end - ids.start;
        let mut level = in_parallel(
            ids,
            limit,
            &mut |done| progress(Stage::Moves, done, all),
            |id, found| self.first_look(id, found),
        )?;
        let (mut plies, mut valued) = (1, 0);
        while !level.is_empty() {
            if plies >= MOST_PLIES {
                return Err(Halt::Unbuilt(Unbuilt::TooLarge));
            }
            valued += level.len() as u64;
            let before = valued;
            let next = in_parallel(
                0..level.len() as u64,
                limit,
                &mut |_| progress(Stage::Back(plies as u32), before, all),
                |i, found| {
                    self.walk_back(u64::from(level[i as usize]), plies as u8 + 1, full, found)
                },
            )?;
            level = next;
            plies += 1;
        }
        Ok(())
    }

    /// The position numbered `id` and its moves, or `None` where no game
    /// comes (then marked dead): a line stands on its board, or its side to
    /// move has no move (the move before ends the game, by `no_moves()`).
    fn live(&self, id: u64) -> Result<Option<(Position, MoveList)>, Halt> {
        let (pos, _) = self.position(id);
        let mut list = MoveList::new();
        if !self.dead(&pos) {
            self.rules.legal_moves(&pos, &[], &mut list)?;
            if !list.is_empty() {
                return Ok(Some((pos, list)));
            }
        }
        self.value[id as usize].store(DEAD, Relaxed);
        Ok(None)
    }

    /// A full-board position's own moves: a win at once ends it, and its
    /// other moves are counted for the walk back to settle.
    fn first_look(&self, id: u64, found: &mut Vec<u32>) -> Result<(), Halt> {
        let Some((pos, list)) = self.live(id)? else {
            return Ok(());
        };
        // The open moves are counted in a byte: many pieces with many
        // steps or jumps each could pass it.
        if list.len() > usize::from(u8::MAX) {
            return Err(Halt::Unbuilt(Unbuilt::TooLarge));
        }
        let me = pos.turn;
        let mut open = 0u8;
        for &mv in list.iter() {
            let next = self.rules.play_unchecked(&pos, &[], mv)?;
            match next.outcome() {
                Some(Outcome::Win(side)) if side == me => {
                    self.settle(id, WIN, 1, found);
                    return Ok(());
                }
                Some(Outcome::Win(_)) => {}
                Some(Outcome::Draw) => open += 1,
                // A step keeps the counts: the child is on the full board.
                None if matches!(mv, Move::Step { .. }) => open += 1,
                None => return Err(Halt::Unbuilt(Unbuilt::TooLarge)),
            }
        }
        if open == 0 {
            self.settle(id, LOSS, 1, found);
        } else {
            self.open[id as usize].store(open, Relaxed);
        }
        Ok(())
    }

    /// Values `id` once: the first to settle it wins the race.
    fn settle(&self, id: u64, value: u8, plies: u8, found: &mut Vec<u32>) {
        let cell = &self.value[id as usize];
        if cell
            .compare_exchange(UNKNOWN, value, Relaxed, Relaxed)
            .is_ok()
        {
            self.plies[id as usize].store(plies, Relaxed);
            // Numbers fit: a table holds at most `MAX_TABLE_POSITIONS`.
            found.push(id as u32);
        }
    }

    /// From a position valued at the last level, the positions that lead to
    /// it: the other side's pieces moved back. A loss here makes each a win
    /// there; a win here closes one of their moves, and one with none left
    /// open is lost.
    fn walk_back(&self, id: u64, plies: u8, full: usize, found: &mut Vec<u32>) -> Result<(), Halt> {
        let (pos, _) = self.position(id);
        let lost = self.value[id as usize].load(Relaxed) == LOSS;
        let back = pos.turn.other();
        let mut mover = pos;
        mover.turn = back;
        let mut list = MoveList::new();
        self.rules.legal_moves(&mover, &[], &mut list)?;
        for &mv in list.iter() {
            let Move::Step { from, to } = mv else {
                continue;
            };
            let mut before = mover;
            before.marks.get_mut(back).remove(from);
            before.marks.get_mut(back).insert(to);
            // No line stands here, so there the only one can be the moved
            // piece's: a position no game reaches without ending.
            if self.mechanics.wins_by(
                back,
                to,
                before.marks(back).prefix::<1>(),
                before.marks(back.other()).prefix::<1>(),
            ) {
                continue;
            }
            let Some(prev) = self.number(&before, full) else {
                continue;
            };
            if lost {
                self.settle(prev, WIN, plies, found);
            } else if self.value[prev as usize].load(Relaxed) == UNKNOWN
                && self.open[prev as usize].fetch_sub(1, Relaxed) == 1
            {
                self.settle(prev, LOSS, plies, found);
            }
        }
        Ok(())
    }

    /// The slots of the placements, from the last backwards: each move
    /// leads to a slot already valued.
    fn solve_placing(&self, limit: &Limit<'_>, progress: Progress<'_>) -> Result<(), Halt> {
        let placing = &self.slots[..self.slots.len() - 2];
        let all: u64 = placing.iter().map(|s| s.len).sum();
        let mut before = 0;
        for s in (0..placing.len()).rev() {
            let slot = placing[s];
            in_parallel(
                slot.start..slot.start + slot.len,
                limit,
                &mut |done| progress(Stage::Placements, before + done, all),
                |id, _: &mut Vec<()>| self.look_ahead(id, s + 1),
            )?;
            before += slot.len;
        }
        Ok(())
    }

    /// A placing position's value from its children's: a win as soon as one
    /// child is lost (the quickest), a loss when every one is won (the
    /// longest), a draw otherwise.
    fn look_ahead(&self, id: u64, after: usize) -> Result<(), Halt> {
        let Some((pos, list)) = self.live(id)? else {
            return Ok(());
        };
        let me = pos.turn;
        let (mut win, mut loss, mut drawn) = (None::<u8>, 0u8, false);
        for &mv in list.iter() {
            let next = self.rules.play_unchecked(&pos, &[], mv)?;
            let (value, plies) = match next.outcome() {
                Some(Outcome::Win(side)) if side == me => (LOSS, 0),
                Some(Outcome::Win(_)) => (WIN, 0),
                Some(Outcome::Draw) => (UNKNOWN, 0),
                None => {
                    let Some(n) = self.number(&next, after) else {
                        return Err(Halt::Unbuilt(Unbuilt::TooLarge));
                    };
                    let n = n as usize;
                    (self.value[n].load(Relaxed), self.plies[n].load(Relaxed))
                }
            };
            // Plies are a byte: a longer win is not kept rather than miscounted.
            let Some(plies) = plies.checked_add(1) else {
                return Err(Halt::Unbuilt(Unbuilt::TooLarge));
            };
            match value {
                LOSS => win = Some(win.map_or(plies, |w| w.min(plies))),
                WIN => loss = loss.max(plies),
                DEAD => return Err(Halt::Unbuilt(Unbuilt::TooLarge)),
                _ => drawn = true,
            }
        }
        let (value, plies) = match win {
            Some(w) => (WIN, w),
            None if drawn => (UNKNOWN, 0),
            None => (LOSS, loss),
        };
        self.value[id as usize].store(value, Relaxed);
        self.plies[id as usize].store(plies, Relaxed);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::retrograde::{Graph, reachable};

    /// The table gives every position the game reaches the value, plies
    /// included, that the graph of reachable positions gives it: the two
    /// walk back from the ends by different roads (moves taken back on the
    /// table, children stored in the graph).
    #[test]
    fn the_table_agrees_with_the_graph() {
        // The 4×3 board's players can be walled in (a loss, M6): a win the
        // table sees only through the engine's settling of the move.
        let walled = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/variants/moving-4x3.toml");
        for name in ["moving", "moving-jumps", "three-mens-morris", "moving-4x3"] {
            let rules = match name {
                "moving-4x3" => Rulebook::from_file(&walled).unwrap(),
                _ => Rulebook::builtin(name).unwrap(),
            };
            assert!(Table::applies(&rules), "{name}");
            let table = Table::build(&rules, &Limit::unbounded(), &mut |_, _, _| {})
                .unwrap()
                .unwrap_or_else(|_| panic!("{name}: not built"));
            let graph = Graph::of_rulebook(&rules, &Limit::unbounded())
                .unwrap()
                .expect("small");
            let (mut won, mut drawn) = (0, 0);
            for pos in reachable(&rules).iter().filter(|p| !p.is_over()) {
                let text = rules.position_text(pos);
                let value = table.value(pos);
                assert_eq!(value, graph.value(pos), "{name}: {text}");
                match value {
                    Some(Value::Draw) => drawn += 1,
                    _ => won += 1,
                }
            }
            assert!(won > 0 && drawn > 0, "{name}: {won} won, {drawn} drawn");
        }
    }

    /// A rulebook of pieces that step, changed in one hook: `wins`, or
    /// `jumps`.
    fn stepping(hook: &str) -> Rulebook {
        let dir = tempfile::tempdir().unwrap();
        let mut script = String::from(
            "fn lines() { lines::straight(3) }\nfn pieces() { 3 }\nfn steps(c) { movement::king(c) }\n",
        );
        script.push_str(hook);
        if !hook.starts_with("fn wins") {
            script.push_str("fn wins(run) { run >= 3 }\n");
        }
        std::fs::write(dir.path().join("s.rhai"), script).unwrap();
        let text =
            "name = \"s\"\ntitle = \"t\"\nscript = \"s.rhai\"\n[board]\nwidth = 4\nheight = 4\n";
        Rulebook::from_str_at(text, "s.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The table's assumptions, each broken by one hook: a line that a
    /// further mark unmakes (exactly three wins: four in a row does not,
    /// and a step out of it can leave a three standing through no moved
    /// piece), and a jump to a cell a step reaches too (two moves one way,
    /// one back). The same rulebook with neither is tabled.
    #[test]
    fn rules_the_table_cannot_walk_back_are_not_tabled() {
        assert!(Table::applies(&stepping("")));
        assert!(!Table::applies(&stepping("fn wins(run) { run == 3 }\n")));
        let twice = "fn jumps(c) { movement::king(c).map(|d| #{ to: d }) }\n";
        assert!(!Table::applies(&stepping(twice)));
    }

    /// Marks without limit, twists, removals, ages, support, stacks,
    /// slides and captures each make a position more than its cells, or a
    /// move one that cannot be stepped back.
    #[test]
    fn games_with_more_to_a_position_are_not_tabled() {
        for name in [
            "classic",
            "pentago",
            "nine-mens-morris",
            "vanishing",
            "connect-four",
            "gobblet-gobblers",
            "quixo",
            "pente",
        ] {
            let rules = Rulebook::builtin(name).unwrap();
            assert!(!Table::applies(&rules), "{name}");
        }
    }
}
