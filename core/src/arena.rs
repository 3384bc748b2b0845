//! Matches between computer players: the sides alternate from game to game,
//! the games run on every core, and the result is summed up as wins, draws
//! and losses, the first mover's share, and an Elo difference with its 95 %
//! interval. Each game has its own seed, so a match repeats exactly
//! whatever the number of threads.
//!
//! ```
//! use gridrules_core::Rulebook;
//! use gridrules_core::arena::{Match, Player};
//! use gridrules_core::interrupt::Interrupt;
//! use gridrules_core::search::{Budget, Level};
//!
//! let rules = Rulebook::builtin("classic").unwrap();
//! let players = [Player::Computer(Level::Hard), Player::Random];
//! let m = Match {
//!     games: 4,
//!     seed: 1,
//!     budgets: [Budget::Playouts(200); 2],
//!     threads: 2,
//!     openings: Vec::new(),
//! };
//! let tally = m.run(&rules, &players, &Interrupt::new(), &|_| {}).unwrap();
//! assert_eq!(tally.games(), 4);
//! assert_eq!(tally.losses, 0); // hard never loses at 3×3
//! ```

use crate::error::ScriptError;
use crate::gomocup::Setting;
use crate::interrupt::Interrupt;
use crate::playout::{MAX_PLIES, Rng};
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::program::{ANSWER_TIME, Program};
use crate::rulebook::Rulebook;
use crate::search::{self, At, Budget, Level, Request};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Who plays a side in a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    /// Uniformly random legal moves: the floor every level must beat.
    Random,
    /// The computer at a level.
    Computer(Level),
    /// Plain UCT with uniform random playouts and the same budget: the
    /// yardstick for hard's search.
    Uct,
    /// Another program, asked for its moves over the protocol of
    /// [`crate::program`], with the settings a Gomocup brain is told.
    Program(std::path::PathBuf, Vec<Setting>),
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Uct => f.write_str("uct"),
            Player::Computer(level) => level.fmt(f),
            // Its path only: a name with settings after an `@` would read
            // as a file whose name holds one (the report says them apart).
            Player::Program(path, _) => write!(f, "{}", path.display()),
        }
    }
}

impl Player {
    /// Whether a budget changes how this player moves: random and easy
    /// pick a move without searching.
    pub fn uses_budget(&self) -> bool {
        !matches!(self, Player::Random | Player::Computer(Level::Easy))
    }

    /// The budget this player thinks within where `budget` is given: a
    /// program thinks by the clock, and has [`ANSWER_TIME`] where the
    /// budget is playouts.
    pub fn budget(&self, budget: Budget) -> Budget {
        match self {
            Player::Program(..) => Budget::Time(program_time(budget)),
            _ => budget,
        }
    }
}

/// A program's time a move under `budget`.
fn program_time(budget: Budget) -> Duration {
    match budget {
        Budget::Time(d) => d,
        Budget::Playouts(_) => ANSWER_TIME,
    }
}

/// Player `seat` of `players` by name, told apart from the other where
/// both have one name (a program against itself, its settings apart).
fn seat_name(players: &[Player; 2], seat: usize) -> String {
    let name = players[seat].to_string();
    if name != players[1 - seat].to_string() {
        return name;
    }
    format!("{name} ({})", ["the first", "the second"][seat])
}

/// How long a program's failure waits for Ctrl-C before it is blamed:
/// Ctrl-C at a terminal reaches the program and gridrules at once, and
/// the program's end may come before gridrules' own handler is heard.
const CTRL_C_GRACE: Duration = Duration::from_millis(250);

/// Whether `stop` is raised, now or within [`CTRL_C_GRACE`].
fn raised_soon(stop: &Interrupt) -> bool {
    let until = Instant::now() + CTRL_C_GRACE;
    while !stop.is_raised() {
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

impl FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        match s {
            "random" => return Ok(Player::Random),
            "uct" => return Ok(Player::Uct),
            _ => {}
        }
        if let Ok(level) = s.parse::<Level>() {
            return Ok(Player::Computer(level));
        }
        // A program is named by its path: `./bot`, `bots/first.py`.
        if s.contains(std::path::MAIN_SEPARATOR) || s.contains('/') {
            return Ok(Player::Program(s.into(), Vec::new()));
        }
        const NAMES: [&str; 5] = ["random", "uct", "easy", "medium", "hard"];
        Err(match crate::suggest::nearest(s, NAMES) {
            Some(near) => {
                format!("player `{s}`: did you mean `{near}`? (or a program's path, `./{s}`)")
            }
            None => format!(
                "player `{s}`: expected {} or a program's path (`./{s}`)",
                NAMES.join(", ")
            ),
        })
    }
}

/// Why a match stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchError {
    /// A per-move hook of the rulebook failed, in which game (from 1).
    Script {
        /// The game, counted from 1.
        game: u32,
        /// How the script failed (boxed: a script's error holds its
        /// source, and a match's result should stay small).
        error: Box<ScriptError>,
    },
    /// A player program failed: which, in which game, and how.
    Program {
        /// The program's path.
        player: String,
        /// The game, counted from 1.
        game: u32,
        /// What went wrong.
        message: String,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Script { game, error } => write!(f, "game {game}: {error}"),
            MatchError::Program {
                player,
                game,
                message,
            } => write!(f, "player `{player}`, game {game}: {message}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// How a match is played.
#[derive(Debug, Clone)]
pub struct Match {
    /// Games in all; the first player has X in the even-numbered ones.
    pub games: u32,
    /// Game `i` is seeded from `seed` and `i`.
    pub seed: u64,
    /// Each player's budget for a move, in the order of the players.
    pub budgets: [Budget; 2],
    /// Games played at once.
    pub threads: usize,
    /// Moves games start with (see [`crate::openings`]): games `2i` and
    /// `2i + 1` play the `i`-th (round the list), so each is played with
    /// both colours. None: every game starts from the start.
    pub openings: Vec<Vec<Move>>,
}

/// The result of a match, from the first player's side.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Games drawn (a game cut short at [`MAX_PLIES`] included).
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
    /// Games X (the first mover) won.
    pub x_wins: u32,
    /// Of the draws, games cut short unfinished at [`MAX_PLIES`].
    pub cut_short: u32,
    /// Moves of each player (first, second) whose search its time cap
    /// ([`search::SEARCH_CAP`]) ended before its budget in playouts was
    /// spent: it played below its level there. Of `searched`.
    pub capped: [u32; 2],
    /// Moves of each player (first, second) chosen by a search.
    pub searched: [u32; 2],
    /// Whether Ctrl-C stopped the match before every game was played.
    pub stopped: bool,
}

/// An Elo difference and its 95 % interval; infinite where the score is
/// all or nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub difference: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score: a win 1, a draw ½, over the games.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }

    /// X's share of the points: above ½ when moving first is an advantage.
    pub fn first_mover_share(&self) -> f64 {
        (f64::from(self.x_wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }

    /// The Elo difference of the first player over the second: the logistic
    /// inverse of the score, with the Wilson interval of the score (draws
    /// as half a point, so the interval is a little wide) mapped the same
    /// way; unlike the normal approximation it stays finite at one end
    /// when every game went one way.
    pub fn elo(&self) -> Elo {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let z2 = Z95 * Z95;
        let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
        // At a score of 0 or 1 one end is exactly 0 or 1, which rounding blurs.
        Elo {
            difference: elo_of(s),
            low: if s <= 0.0 {
                f64::NEG_INFINITY
            } else {
                elo_of(centre - half)
            },
            high: if s >= 1.0 {
                f64::INFINITY
            } else {
                elo_of(centre + half)
            },
        }
    }

    fn add(&mut self, first_player_side: Side, outcome: Outcome) {
        match outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Win(side) => {
                if side == Side::X {
                    self.x_wins += 1;
                }
                if side == first_player_side {
                    self.wins += 1;
                } else {
                    self.losses += 1;
                }
            }
        }
    }
}

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// The Elo difference that expects score `s`.
fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// What a match leaves: its tally, the games it finished, and what
/// stopped it, if a player or a script failed.
#[derive(Debug)]
pub struct Kept {
    /// The games finished, summed up.
    pub tally: Tally,
    /// The games finished, in the order of their numbers.
    pub played: Vec<Played>,
    /// Why the match stopped before its end, if it failed.
    pub failed: Option<MatchError>,
}

/// A finished game of a match, for its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The game's number, from 1.
    pub number: u32,
    /// The side the first player held at the end (the pie rule's swap
    /// exchanges them).
    pub first_player_side: Side,
    /// Every move from the start, the opening's included.
    pub moves: Vec<Move>,
    /// How it ended; a draw where it was cut short at [`MAX_PLIES`].
    pub outcome: Outcome,
    /// Whether the match stopped it unfinished at [`MAX_PLIES`] (its
    /// record then ends in a draw at the move limit).
    pub cut_short: bool,
    /// Moves of each player (first, second) its time cap cut short.
    pub capped: [u32; 2],
    /// Moves of each player (first, second) chosen by a search.
    pub searched: [u32; 2],
}

impl Match {
    /// Games that run at once: `threads`, at least one and at most the
    /// games there are.
    pub fn games_at_once(&self) -> usize {
        self.threads.clamp(1, self.games.max(1) as usize)
    }

    /// Plays the match of `players[0]` against `players[1]` on `rules`,
    /// calling `progress` with the games finished so far. Ctrl-C (`stop`)
    /// ends it at once, the games under way not counted; the tally then
    /// counts those finished.
    ///
    /// # Errors
    /// A failing per-move hook, or a program that failed.
    pub fn run(
        &self,
        rules: &Rulebook,
        players: &[Player; 2],
        stop: &Interrupt,
        progress: &(dyn Fn(u32) + Sync),
    ) -> Result<Tally, MatchError> {
        let kept = self.run_kept(rules, players, stop, progress);
        match kept.failed {
            Some(e) => Err(e),
            None => Ok(kept.tally),
        }
    }

    /// [`Match::run`], keeping every finished game, in the order of their
    /// numbers, those finished before a failure too.
    pub fn run_kept(
        &self,
        rules: &Rulebook,
        players: &[Player; 2],
        stop: &Interrupt,
        progress: &(dyn Fn(u32) + Sync),
    ) -> Kept {
        let next = AtomicU32::new(0);
        // A failed game stops the others without raising the caller's flag.
        let failed = std::sync::atomic::AtomicBool::new(false);
        let done = AtomicU32::new(0);
        let results: Mutex<Vec<Option<Result<Played, MatchError>>>> =
            Mutex::new(vec![None; self.games as usize]);
        let threads = self.games_at_once();
        // The scripts' budget holds on every thread that runs them: each
        // game's requests take it from the thread they are made on.
        let budget = crate::script::ScriptBudget::current();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    budget.run(|| {
                        loop {
                            if stop.is_raised() || failed.load(Ordering::Relaxed) {
                                break;
                            }
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= self.games {
                                break;
                            }
                            // A game that Ctrl-C stopped has no result.
                            let ended = match self.game(rules, players, i, stop) {
                                Ok(None) => continue,
                                // A hook that Ctrl-C stopped fails: the
                                // game was stopped, and failed nothing.
                                Err(MatchError::Script { .. }) if stop.is_raised() => continue,
                                Ok(Some(e)) => Ok(e),
                                Err(e) => {
                                    failed.store(true, Ordering::Relaxed);
                                    Err(e)
                                }
                            };
                            results.lock().unwrap_or_else(|e| e.into_inner())[i as usize] =
                                Some(ended);
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                        }
                    });
                });
            }
        });
        let mut tally = Tally::default();
        let mut played = Vec::new();
        let mut failed = None;
        for result in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
            match result {
                Some(Ok(game)) => {
                    tally.add(game.first_player_side, game.outcome);
                    tally.cut_short += u32::from(game.cut_short);
                    for seat in 0..2 {
                        tally.capped[seat] += game.capped[seat];
                        tally.searched[seat] += game.searched[seat];
                    }
                    played.push(game);
                }
                Some(Err(e)) => failed = failed.or(Some(e)),
                None => tally.stopped = true,
            }
        }
        Kept {
            tally,
            played,
            failed,
        }
    }

    /// Game `i`: the first player has X when `i` is even; `None` when
    /// `stop` was raised before it ended.
    fn game(
        &self,
        rules: &Rulebook,
        players: &[Player; 2],
        i: u32,
        stop: &Interrupt,
    ) -> Result<Option<Played>, MatchError> {
        let mut rng = Rng::new(self.seed ^ u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let first_player_side = if i.is_multiple_of(2) {
            Side::X
        } else {
            Side::O
        };
        let failed = |seat: usize, message: String| MatchError::Program {
            player: seat_name(players, seat),
            game: i + 1,
            message,
        };
        let script = |error: ScriptError| MatchError::Script {
            game: i + 1,
            error: Box::new(error),
        };
        // The cores are shared among the games under way: a search by the
        // clock gets its part, not all of them.
        let search_threads = (crate::cores() / self.games_at_once()).max(1);
        // Programs start with the game and are told to quit at its end.
        let mut programs: [Option<Program>; 2] = [None, None];
        for (seat, player) in players.iter().enumerate() {
            if let Player::Program(path, settings) = player {
                programs[seat] = Some(Program::start(path, settings).map_err(|m| failed(seat, m))?);
            }
        }
        let mut line = Line::new(rules, first_player_side);
        if !self.openings.is_empty() {
            let opening = &self.openings[(i as usize / 2) % self.openings.len()];
            for &mv in opening {
                line.play(rules, mv).map_err(script)?;
            }
        }
        let mut list = MoveList::new();
        // Each player grows its own trees from move to move.
        let mut memories = [search::Memory::default(), search::Memory::default()];
        let (mut capped, mut searched) = ([0, 0], [0, 0]);
        while !line.pos.is_over() && line.moves.len() < MAX_PLIES {
            let (pos, moves) = (&line.pos, &line.moves);
            let mover = pos.turn();
            let seat = usize::from(mover != line.first_player_side);
            let budget = self.budgets[seat];
            let mv = match &players[seat] {
                Player::Random => rules
                    .random_move(pos, moves, &mut rng, &mut list)
                    .map_err(script)?,
                Player::Uct => search::plain_uct(At::new(rules, pos, moves), budget, &mut rng)
                    .map_err(script)?,
                Player::Computer(level) => {
                    let at = At::new(rules, pos, moves).after(&line.keys);
                    let mut report = search::Report::default();
                    let request = Request::new(*level, budget)
                        .memory(&mut memories[seat])
                        .threads(search_threads)
                        .stop(stop)
                        .report(&mut report);
                    let mv = search::choose(at, request, &mut rng).map_err(script)?;
                    capped[seat] += u32::from(report.cut);
                    searched[seat] += 1;
                    mv
                }
                Player::Program(..) => {
                    let within = program_time(budget);
                    let program = programs[seat].as_mut().expect("started above");
                    let answer = program.choose(rules, pos, moves, within, stop);
                    // Ctrl-C reaches the program too: what it then says (or
                    // that it quit) is no failure of its own.
                    if answer.is_err() && raised_soon(stop) {
                        return Ok(None);
                    }
                    Some(answer.map_err(|m| failed(seat, m))?)
                }
            };
            if stop.is_raised() {
                return Ok(None);
            }
            let Some(mv) = mv else { break };
            line.play(rules, mv).map_err(script)?;
        }
        Ok(Some(Played {
            number: i + 1,
            first_player_side: line.first_player_side,
            outcome: line.pos.outcome().unwrap_or(Outcome::Draw),
            cut_short: line.moves.len() >= MAX_PLIES && !line.pos.is_over(),
            capped,
            searched,
            moves: line.moves,
        }))
    }
}

/// A game of a match under way: its position, moves and position keys
/// (for a repetition rule), and the side the first player holds.
struct Line {
    pos: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
    first_player_side: Side,
}

impl Line {
    fn new(rules: &Rulebook, first_player_side: Side) -> Line {
        let pos = rules.initial();
        Line {
            pos,
            moves: Vec::new(),
            keys: vec![pos.key()],
            first_player_side,
        }
    }

    /// A move made, by a player or an opening: the pie rule's swap
    /// exchanges the players' sides.
    fn play(&mut self, rules: &Rulebook, mv: Move) -> Result<(), ScriptError> {
        self.pos = rules.play_unchecked(&self.pos, &self.moves, mv)?;
        self.moves.push(mv);
        rules.settle_repetition(&mut self.pos, &self.keys);
        self.keys.push(self.pos.key());
        if mv == Move::Swap {
            self.first_player_side = self.first_player_side.other();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slip of a player's name is named (`hardd` was only "expected
    /// random, uct, …").
    #[test]
    fn a_players_slip_is_named() {
        assert_eq!(
            "hardd".parse::<Player>().unwrap_err(),
            "player `hardd`: did you mean `hard`? (or a program's path, `./hardd`)"
        );
        assert!(
            "expert"
                .parse::<Player>()
                .unwrap_err()
                .contains("expected random, uct")
        );
    }

    /// A match keeps each game it finishes, in order, each starting from
    /// its opening: replayed, its moves end as the tally counts it.
    #[test]
    fn a_match_keeps_its_games_and_they_replay_to_their_results() {
        let rules = Rulebook::builtin("classic").unwrap();
        let opening = vec![rules.parse_move(&rules.initial(), &[], "a1").unwrap()];
        let m = Match {
            games: 4,
            seed: 5,
            budgets: [Budget::Playouts(200); 2],
            threads: 2,
            openings: vec![opening.clone()],
        };
        let players = [Player::Computer(Level::Hard), Player::Random];
        let Kept {
            tally,
            played,
            failed,
        } = m.run_kept(&rules, &players, &Interrupt::new(), &|_| {});
        assert!(failed.is_none(), "{failed:?}");
        assert_eq!(
            played.iter().map(|p| p.number).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        let mut wins = 0;
        for p in &played {
            assert_eq!(p.moves[..1], opening[..], "game {}", p.number);
            let mut pos = rules.initial();
            for (i, &mv) in p.moves.iter().enumerate() {
                pos = rules.play(&pos, &p.moves[..i], mv).unwrap();
            }
            assert_eq!(pos.outcome(), Some(p.outcome), "game {}", p.number);
            wins += u32::from(p.outcome == Outcome::Win(p.first_player_side));
        }
        assert_eq!(wins, tally.wins);
        assert_eq!(
            tally,
            m.run(&rules, &players, &Interrupt::new(), &|_| {}).unwrap()
        );
    }

    #[test]
    fn elo_of_even_scores_is_zero_and_grows_with_the_score() {
        let even = Tally {
            wins: 5,
            draws: 0,
            losses: 5,
            ..Tally::default()
        };
        let e = even.elo();
        assert!(e.difference.abs() < 1e-9);
        assert!(e.low < 0.0 && e.high > 0.0);
        // 75 %: the textbook 191 Elo.
        let better = Tally {
            wins: 3,
            losses: 1,
            ..Tally::default()
        };
        assert!((better.elo().difference - 190.85).abs() < 0.1);
        let all = Tally {
            wins: 10,
            ..Tally::default()
        };
        let e = all.elo();
        assert_eq!((e.difference, e.high), (f64::INFINITY, f64::INFINITY));
        // Ten wins in ten: the Wilson bound n / (n + z²) is a score of 72 %,
        // about +166 Elo, where the normal approximation says +inf.
        assert!((e.low - 166.0).abs() < 1.0, "{e:?}");
    }

    #[test]
    fn each_opening_is_played_with_both_colours() {
        // Hard draws classic from the start; after these four moves the
        // side to move (X) wins at a3, whoever holds it.
        let rules = Rulebook::builtin("classic").unwrap();
        let opening = crate::openings::parse(&rules, "a1 b1 a2 b2").unwrap();
        let hard = Player::Computer(Level::Hard);
        let m = Match {
            games: 2,
            seed: 1,
            budgets: [Budget::Playouts(200); 2],
            threads: 1,
            openings: opening,
        };
        let t = m.run(&rules, &[hard.clone(), hard], &Interrupt::new(), &|_| {});
        let t = t.unwrap();
        assert_eq!((t.wins, t.draws, t.losses), (1, 0, 1), "{t:?}");
        assert_eq!(t.first_mover_share(), 1.0);
    }

    /// Two pieces a side that step for ever, where a line takes three: each game is cut
    /// short at the move limit, counted a draw and marked so.
    #[test]
    fn a_game_without_an_end_is_cut_short_at_the_move_limit() {
        let script = "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
                      fn pieces() { 2 }\nfn steps(c) { movement::king(c) }\n";
        let rules = Rulebook::scripted(script, 3, 3).unwrap_or_else(|e| panic!("{e}"));
        let m = Match {
            games: 2,
            seed: 3,
            budgets: [Budget::Playouts(10); 2],
            threads: 1,
            openings: Vec::new(),
        };
        let kept = m.run_kept(
            &rules,
            &[Player::Random, Player::Random],
            &Interrupt::new(),
            &|_| {},
        );
        assert!(kept.failed.is_none(), "{:?}", kept.failed);
        assert_eq!(
            (kept.tally.draws, kept.tally.cut_short),
            (2, 2),
            "{:?}",
            kept.tally
        );
        for p in &kept.played {
            assert!(p.cut_short, "game {}", p.number);
            assert_eq!((p.moves.len(), p.outcome), (MAX_PLIES, Outcome::Draw));
        }
    }

    #[test]
    fn players_parse_and_print() {
        for p in [Player::Random, Player::Uct, Player::Computer(Level::Medium)] {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
        assert!("expert".parse::<Player>().is_err());
    }
}
