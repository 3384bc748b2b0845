//! Random games: the benchmark's figure of merit and the test suite's source
//! of positions.

use crate::error::ScriptError;
use crate::interrupt::Interrupt;
use crate::position::{Move, MoveList, Outcome, Position};
pub use crate::rng::Rng;
use crate::rulebook::Rulebook;
use std::time::{Duration, Instant};

/// Reusable buffers for playing random games without allocating.
#[derive(Debug, Default)]
pub struct Playout {
    moves: MoveList,
    keys: Vec<u64>,
    /// The kernel's positions for the repetition rule.
    seen: crate::kernel::Seen,
    /// The kernel's counts of windows, on wide boards.
    lack: crate::kernel::Lack,
    /// The moves since the game's start, kept only for per-move hooks.
    line: Vec<Move>,
    plies: usize,
    /// Read between the moves of a game with per-move hooks, whose single
    /// game can run for minutes; the kernel's and the general path's
    /// games without hooks take microseconds and never read it.
    stop: Option<Interrupt>,
    /// The last game was cut short by `stop`.
    stopped: bool,
    /// How the kernel's games draw their moves (the general path's draw
    /// every move alike).
    policy: crate::kernel::Policy,
}

/// Games longer than this are cut short and counted as drawn, so a rulebook
/// without a repetition rule cannot make a benchmark run forever.
pub const MAX_PLIES: usize = 1000;

impl Playout {
    /// Fresh buffers.
    pub fn new() -> Playout {
        Playout::default()
    }

    /// Fresh buffers for games that end early, unscored, once `stop` is
    /// raised, where a game runs per-move hooks.
    pub fn stopping_on(stop: &Interrupt) -> Playout {
        Playout {
            stop: Some(stop.clone()),
            ..Playout::default()
        }
    }

    /// The same buffers, the kernel's games drawing by `policy`.
    pub(crate) fn drawing(self, policy: crate::kernel::Policy) -> Playout {
        Playout { policy, ..self }
    }

    /// The last game ended because the stop was raised, not by the rules.
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }

    /// Plays random legal moves from `start`, reached by `history` (see
    /// [`Rulebook::legal_moves`]), to the end of the game: uniformly, but
    /// where the kernel's loop draws by another policy (`Playout::drawing`).
    /// A game the opening takes past the move limit is played again on the
    /// general path, which draws uniformly.
    ///
    /// # Errors
    /// A failing per-move hook.
    pub fn run(
        &mut self,
        rules: &Rulebook,
        start: &Position,
        history: &[Move],
        rng: &mut Rng,
    ) -> Result<Outcome, ScriptError> {
        self.stopped = false;
        if let Some(kind) = rules.kernel
            && !start.is_over()
        {
            let (t, seen, lack) = (rules.mechanics(), &mut self.seen, &mut self.lack);
            let end = crate::kernel::playout::<false>(
                kind,
                t,
                start,
                rng,
                MAX_PLIES,
                seen,
                lack,
                self.policy,
            );
            self.plies = end.plies;
            return Ok(end.outcome);
        }
        if rules.after_opening.is_some() {
            return self.opening(rules, start, history, rng);
        }
        self.general::<false>(rules, start, history, rng, MAX_PLIES)
    }

    /// [`Playout::run`] where the kernel takes over once the opening is
    /// played: out of line, so that the kernel's path in `run` is
    /// compiled as it was without (a hand-over there cost classic's games
    /// 1.3 % more instructions).
    #[inline(never)]
    fn opening(
        &mut self,
        rules: &Rulebook,
        start: &Position,
        history: &[Move],
        rng: &mut Rng,
    ) -> Result<Outcome, ScriptError> {
        self.general::<true>(rules, start, history, rng, MAX_PLIES)
    }

    /// The general path's game from `start`: to its end or `limit` moves,
    /// or, with `HAND_OVER`, to where the kernel takes over after the
    /// opening.
    #[inline(always)]
    fn general<const HAND_OVER: bool>(
        &mut self,
        rules: &Rulebook,
        start: &Position,
        history: &[Move],
        rng: &mut Rng,
        limit: usize,
    ) -> Result<Outcome, ScriptError> {
        let track = rules.mechanics().repetition().is_some();
        // Where the kernel serves the game once its opening is played, the
        // general path plays the opening and hands over. Where positions
        // repeat, the kernel does not know the opening's: it takes over
        // at the start, where both count from it alone, or from a piece
        // put from hand, which none comes back across (its loops forget
        // every earlier position there too).
        // (`kernel::eligible` gives no loop to take over where it cannot.)
        let hand_over = rules.after_opening.filter(|_| HAND_OVER);
        self.keys.clear();
        if track {
            self.keys.push(start.key());
        }
        let hooks = rules.has_per_move_hooks();
        self.line.clear();
        if hooks {
            self.line.extend_from_slice(history);
        }
        let mut pos = *start;
        let stop = self.stop.as_ref().filter(|_| hooks);
        for ply in 0..limit {
            if let Some(o) = pos.outcome() {
                self.plies = ply;
                return Ok(o);
            }
            if let Some(kernel) = hand_over
                && pos.marks_played() >= kernel.from_mark
                && (!track || ply == 0 || pos.last_move().is_some_and(|m| m.from().is_none()))
            {
                return self.in_kernel(rules, kernel.kind, &pos, rng, ply);
            }
            if stop.is_some_and(Interrupt::is_raised) {
                self.plies = ply;
                self.stopped = true;
                return Ok(Outcome::Draw);
            }
            let Some(mv) = rules.random_move(&pos, &self.line, rng, &mut self.moves)? else {
                // A position without a legal move is settled by `no_moves()`
                // when it arises, but for a side whose every free cell makes
                // a forbidden pattern: `apply_drawing` leaves that to here.
                rules.settle_stuck(&mut pos);
                self.plies = ply;
                return Ok(pos.outcome().unwrap_or(Outcome::Draw));
            };
            rules.apply_drawing(&mut pos, &self.line, mv)?;
            if hooks {
                self.line.push(mv);
            }
            if track {
                rules.settle_repetition(&mut pos, &self.keys);
                self.keys.push(pos.key());
            }
        }
        self.plies = limit;
        Ok(pos.outcome().unwrap_or(Outcome::Draw))
    }

    /// Plays the rest of a game from `pos`, `played` moves into it, in
    /// the kernel's `kind` of loop (its copy for games whose opening the
    /// general path played), out of line.
    #[inline(never)]
    fn in_kernel(
        &mut self,
        rules: &Rulebook,
        kind: crate::kernel::Loop,
        pos: &Position,
        rng: &mut Rng,
        played: usize,
    ) -> Result<Outcome, ScriptError> {
        let (t, seen, lack) = (rules.mechanics(), &mut self.seen, &mut self.lack);
        // Told the limit, not what is left of it: a constant in every call,
        // the loops are compiled for it (told less here, nine men's morris's
        // games took 2 % more instructions).
        let numbers = rng.clone();
        let end =
            crate::kernel::playout::<true>(kind, t, pos, rng, MAX_PLIES, seen, lack, self.policy);
        if played + end.plies > MAX_PLIES {
            // A game the opening's moves take past the limit (about one
            // in a hundred of teeko's): played again from the same random
            // numbers on the general path, which stops drawing them where
            // the limit cuts the game, as a game played there throughout.
            *rng = numbers;
            let outcome = self.general::<false>(rules, pos, &[], rng, MAX_PLIES - played)?;
            self.plies += played;
            return Ok(outcome);
        }
        self.plies = played + end.plies;
        Ok(end.outcome)
    }

    /// Moves played in the last game.
    pub fn plies(&self) -> usize {
        self.plies
    }
}

/// What a benchmark run measured.
#[derive(Debug, Clone, Copy)]
pub struct BenchResult {
    /// Games played.
    pub playouts: u64,
    /// Moves played in them.
    pub plies: u64,
    /// Time taken.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Games per second.
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Plays random games from the initial position for about `duration`,
/// single-threaded, or until `stop` is raised (the figures then cover the
/// games finished and their time). The time is noticed after the game
/// under way, the stop too but in a game with per-move hooks, which it
/// ends between two moves, uncounted: a slow rulebook's game at a time,
/// a fast one's in batches of a millisecond or so (reading the clock
/// costs as much as a 3×3 game).
///
/// # Errors
/// A failing per-move hook.
pub fn bench(
    rules: &Rulebook,
    duration: Duration,
    seed: u64,
    stop: &Interrupt,
) -> Result<BenchResult, ScriptError> {
    /// The time between two looks at the clock, at most (but a game).
    const LOOK_EVERY: Duration = Duration::from_millis(1);
    let start = rules.initial();
    let mut rng = Rng::new(seed);
    let mut playout = Playout::stopping_on(stop);
    let began = Instant::now();
    let mut playouts: u64 = 0;
    let mut plies = 0;
    let mut batch: u64 = 1;
    // When the last whole batch ended: the time of the games counted.
    let mut counted = Duration::ZERO;
    loop {
        for _ in 0..batch {
            let ran = playout.run(rules, &start, &[], &mut rng);
            // A hook that Ctrl-C stopped fails: that game is cut short too.
            let failed_on_stop = ran.is_err() && stop.is_raised();
            if !failed_on_stop {
                ran?;
            }
            if playout.was_stopped() || failed_on_stop {
                // Cut short: not a game, and neither it nor its time counts.
                return Ok(BenchResult {
                    playouts,
                    plies,
                    elapsed: counted,
                });
            }
            plies += playout.plies as u64;
            playouts += 1;
        }
        let elapsed = began.elapsed();
        counted = elapsed;
        if elapsed >= duration || stop.is_raised() {
            return Ok(BenchResult {
                playouts,
                plies,
                elapsed,
            });
        }
        // As many games as fit in `LOOK_EVERY` at the speed so far.
        let per_game = elapsed.as_secs_f64() / playouts.max(1) as f64;
        batch = ((LOOK_EVERY.as_secs_f64() / per_game.max(1e-9)) as u64).clamp(1, 64);
    }
}

/// [`bench()`] on `threads` threads at once, each its own games from its own
/// seed (`seed` plus the thread's number): what all the cores play in the
/// time, the games and moves summed, the time the longest thread took.
///
/// # Errors
/// A failing per-move hook (the first thread's that failed).
pub fn bench_on(
    rules: &Rulebook,
    duration: Duration,
    seed: u64,
    stop: &Interrupt,
    threads: usize,
) -> Result<BenchResult, ScriptError> {
    let budget = &crate::script::ScriptBudget::current();
    let results: Vec<Result<BenchResult, ScriptError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1) as u64)
            .map(|t| {
                let seed = seed.wrapping_add(t);
                scope.spawn(move || budget.run(|| bench(rules, duration, seed, stop)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut all = BenchResult {
        playouts: 0,
        plies: 0,
        elapsed: Duration::ZERO,
    };
    for r in results {
        let r = r?;
        all.playouts += r.playouts;
        all.plies += r.plies;
        all.elapsed = all.elapsed.max(r.elapsed);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::TableRules;

    /// `bench` looks at its time and its stop after the first game, not
    /// after a batch of 64 (issue 26, item 9: a slow rulebook's `bench 1`
    /// ran 64 games a round, whatever it was told).
    #[test]
    fn bench_notices_its_time_and_its_stop_after_the_first_game() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let never = Interrupt::new();
        let timed = bench(&rules, Duration::ZERO, 1, &never).unwrap();
        assert_eq!(timed.playouts, 1);
        let stop = Interrupt::new();
        stop.raise();
        let stopped = bench(&rules, Duration::from_secs(3600), 1, &stop).unwrap();
        assert_eq!(stopped.playouts, 1);
        assert!(stopped.plies > 0);
    }

    /// Where the opening has rules of its own (the pie rule's `swap`,
    /// cells forbidden by move number), the general path plays it and the
    /// kernel the rest: the same games, move for move, as the general path
    /// alone plays from the same seed.
    #[test]
    fn the_kernel_takes_over_after_the_opening_with_the_same_games() {
        let with_pie = |name: &str| {
            let rules = Rulebook::builtin(name).unwrap();
            let table = TableRules {
                pie: true,
                ..rules.table().clone()
            };
            rules.with_table(table)
        };
        let named = Rulebook::scripted(
            "fn lines() { lines::straight(4) }\n\
             fn wins(run) { run >= 4 }\n\
             fn turn_marks() { [[\"X\", \"O\", \"X\"], 1] }\n",
            7,
            7,
        )
        .unwrap();
        let rulebooks = [
            ("cube3", Rulebook::builtin("cube3").unwrap()),
            ("classic with the pie rule", with_pie("classic")),
            ("connect6 with the pie rule", with_pie("connect6")),
            ("moving with the pie rule", with_pie("moving")),
            ("a turn that names its marks", named.clone()),
            ("a turn that names its marks, with the pie rule", {
                let table = TableRules {
                    pie: true,
                    ..named.table().clone()
                };
                named.with_table(table)
            }),
            (
                "nine men's morris with the pie rule",
                with_pie("nine-mens-morris"),
            ),
            (
                "gobblet gobblers with the pie rule",
                with_pie("gobblet-gobblers"),
            ),
        ];
        for (name, rules) in rulebooks {
            assert!(rules.kernel.is_none(), "{name}: the kernel from the start");
            let kernel = rules.after_opening.expect(name);
            assert!(kernel.from_mark > 0, "{name}: no opening");
            let (mut playout, mut list) = (Playout::new(), MoveList::new());
            let games = if rules.grid().len() > 100 { 40 } else { 400 };
            for seed in 0..games {
                // Every other game from some random moves in: past the
                // opening, where positions repeat, in the moves of pieces.
                let mut pos = rules.initial();
                let mut opening = Rng::new(seed + 1_000_000);
                for _ in 0..(seed % 2) * (seed % 40) {
                    let mv = rules
                        .random_move(&pos, &[], &mut opening, &mut list)
                        .unwrap();
                    let mut next = pos;
                    rules.apply(&mut next, &[], mv.unwrap()).unwrap();
                    if next.is_over() {
                        break;
                    }
                    pos = next;
                }
                let start = pos;
                let outcome = playout
                    .run(&rules, &start, &[], &mut Rng::new(seed))
                    .unwrap();
                let mut rng = Rng::new(seed);
                let (mut plies, mut keys) = (0, vec![pos.key()]);
                while !pos.is_over() && plies < MAX_PLIES {
                    let mv = rules.random_move(&pos, &[], &mut rng, &mut list).unwrap();
                    rules.apply(&mut pos, &[], mv.unwrap()).unwrap();
                    rules.settle_repetition(&mut pos, &keys);
                    keys.push(pos.key());
                    plies += 1;
                }
                let general = (pos.outcome().unwrap_or(Outcome::Draw), plies);
                assert_eq!((outcome, playout.plies()), general, "{name}, seed {seed}");
            }
        }
    }

    /// Games cut at the limit of moves after a hand-over leave the random
    /// numbers where the general path leaves them, so the games after
    /// them on the same generator (`bench`, a search's playouts) are the
    /// general path's too. Teeko under the pie rule: about one random game
    /// in a hundred reaches the limit.
    #[test]
    fn games_cut_at_the_limit_after_a_hand_over_draw_what_the_general_path_draws() {
        let teeko = Rulebook::builtin("teeko").unwrap();
        let table = TableRules {
            pie: true,
            ..teeko.table().clone()
        };
        let rules = teeko.with_table(table);
        assert!(rules.after_opening.is_some());
        let (mut playout, mut list) = (Playout::new(), MoveList::new());
        let (mut kernel_rng, mut general_rng) = (Rng::new(20), Rng::new(20));
        let mut cut = 0;
        for game in 0..300 {
            let outcome = playout
                .run(&rules, &rules.initial(), &[], &mut kernel_rng)
                .unwrap();
            let mut pos = rules.initial();
            let (mut plies, mut keys) = (0, vec![pos.key()]);
            while !pos.is_over() && plies < MAX_PLIES {
                let mv = (rules.random_move(&pos, &[], &mut general_rng, &mut list)).unwrap();
                rules.apply(&mut pos, &[], mv.unwrap()).unwrap();
                rules.settle_repetition(&mut pos, &keys);
                keys.push(pos.key());
                plies += 1;
            }
            cut += usize::from(plies == MAX_PLIES);
            let general = (pos.outcome().unwrap_or(Outcome::Draw), plies);
            assert_eq!((outcome, playout.plies()), general, "game {game}");
        }
        assert!(cut > 0, "no game reached the limit");
    }

    /// On several threads each plays its own games and the figures add up:
    /// with no time, each thread's one game.
    #[test]
    fn bench_on_threads_sums_each_threads_games() {
        let rules = Rulebook::builtin("classic").unwrap();
        let never = Interrupt::new();
        let all = bench_on(&rules, Duration::ZERO, 1, &never, 3).unwrap();
        assert_eq!(all.playouts, 3);
        let one = bench(&rules, Duration::ZERO, 1, &never).unwrap();
        assert!(all.plies >= 3 * 5 && one.plies >= 5, "{all:?} {one:?}");
    }

    /// A game with per-move hooks, which can be slow enough for one game
    /// to take minutes, ends between two moves once the stop is raised, and
    /// is not counted (issue 26, item 9: a single such game ran to its end).
    #[test]
    fn a_stop_ends_a_hooked_game_between_two_moves() {
        let dir = tempfile::tempdir().unwrap();
        // Every move is judged by a hook that runs a while.
        let script = "fn lines() { lines::straight(5) }\nfn wins(run) { run >= 5 }\n\
                      fn refuse(state, mv) { let n = 0; for i in 0..20000 { n += i; } () }\n";
        std::fs::write(dir.path().join("slow.rhai"), script).unwrap();
        let text = "name = \"slow\"\ntitle = \"t\"\nscript = \"slow.rhai\"\n[board]\nwidth = 15\nheight = 15\n";
        let rules = Rulebook::from_str_at(text, "slow.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(rules.has_per_move_hooks());
        let stop = Interrupt::new();
        let mut playout = Playout::stopping_on(&stop);
        let raiser = stop.clone();
        let raised = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            raiser.raise();
        });
        playout
            .run(&rules, &rules.initial(), &[], &mut Rng::new(1))
            .unwrap();
        raised.join().unwrap();
        assert!(playout.was_stopped(), "{} plies", playout.plies());
        assert!(playout.plies() < 225, "{} plies", playout.plies());
        // Raised before it starts, a bench counts no game.
        let counted = bench(&rules, Duration::from_secs(3600), 1, &stop).unwrap();
        assert_eq!(counted.playouts, 0);
    }
}
