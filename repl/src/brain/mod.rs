//! `gridrules brain` (also installed as `pbrain-gridrules`): the computer's
//! hard level as a Gomocup brain, speaking the Piskvork "new protocol" on
//! standard input and output, so that tournament managers (Piskvork,
//! liskvork and the like) can play it against other brains.
//!
//! The manager sends one command a line (`START 15`, `INFO timeout_turn
//! 1000`, `BEGIN`, `TURN 7,7`, `BOARD` … `DONE`, `TAKEBACK 7,7`, `RESTART`,
//! `ABOUT`, `END`); the brain answers `OK`, its move as `x,y` (after a
//! `MESSAGE` saying how the search found it), or `ERROR` / `UNKNOWN` with
//! a reason, and stays alive whatever it reads. Every answer is a
//! [`Line`], which escapes the control characters of any text it holds (a
//! rulebook's refusal, a script's error, what the manager sent), so no text
//! can end a line early and write one the manager would read as the
//! brain's.
//! Coordinates count from 0: `x` is the column from the left, `y` the row
//! from the top — the rulebook's rows count from the bottom, so `y` is
//! flipped.
//!
//! Any rulebook where each side places its own mark, one a turn, and a run
//! of `k` wins can be played, on the manager's board size: the rulebook's
//! text is loaded with its `[board]` replaced when the size differs, and
//! with its boolean `overline` param set by the manager's rule (bit 1,
//! exactly five). Without `--rules` the rulebook is gomoku.
//!
//! ```
//! use gridrules::brain::{Brain, Options};
//!
//! let mut brain = Brain::new(Options::default());
//! assert_eq!(brain.handle("START 15").lines, ["OK"]);
//! assert!(brain.handle("INFO timeout_turn 200").lines.is_empty());
//! // A move comes after a `MESSAGE` saying how it was found.
//! let answer = brain.handle("TURN 7,7").lines;
//! assert!(answer[0].starts_with("MESSAGE "));
//! let (x, y) = answer[1].split_once(',').unwrap();
//! assert!(x.parse::<u32>().unwrap() < 15 && y.parse::<u32>().unwrap() < 15);
//! assert!(brain.handle("START 30").lines[0].starts_with("ERROR unsupported size 30×30"));
//! ```

mod board;
mod info;
mod io;
mod line;
mod rulebook;
mod think;

pub use info::Info;
pub use io::{main, run};
pub use line::Line;
pub use rulebook::make_rulebook;

use board::{cell_at, play_stone, xy_of};
use gridrules_core::gomocup::{self, RULE_CARO, RULE_CONTINUOUS, RULE_EXACT, RULE_RENJU};
use gridrules_core::playout::Rng;
use gridrules_core::program::clip;
use gridrules_core::script::ScriptBudget;
use gridrules_core::{Game, Move, PlayError, Rulebook, Side};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use think::{COMMAND_TIME, HOOKED, PLAIN, Plan, choose, out_of_time};

/// What `ABOUT` answers: the protocol's `key="value"` pairs. Only what is
/// known is said: no country, and no `www` while the package names no
/// repository (a made-up address would send people nowhere).
pub fn about() -> String {
    let mut line = format!(
        "name=\"gridrules\", version=\"{}\", author=\"the gridrules contributors\"",
        env!("CARGO_PKG_VERSION")
    );
    if let Some(www) = option_env!("CARGO_PKG_REPOSITORY").filter(|w| !w.is_empty()) {
        line.push_str(&format!(", www=\"{www}\""));
    }
    line
}

/// The rulebook played when `--rules` does not name one.
pub const DEFAULT_RULES: &str = "gomoku";

/// The time per move when the manager has not said (`INFO timeout_turn`).
pub const DEFAULT_TURN: Duration = Duration::from_secs(1);

/// The rule bits the brain cannot play, with their names. (Under
/// [`RULE_RENJU`] the built-in `renju` rulebook is played, whatever
/// `--rules` says: X is black, RJ1–RJ2; under [`RULE_CARO`], `--rules`
/// with Caro's rule.)
const UNSUPPORTED_RULES: [(u32, &str); 1] = [(RULE_CONTINUOUS, "continuous game")];

/// How the brain starts: which rulebook, and the seed of its randomness.
#[derive(Debug, Clone)]
pub struct Options {
    /// A built-in rulebook's name or a rulebook file (`--rules`).
    pub rules: String,
    /// The seed of the search's randomness.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rules: DEFAULT_RULES.to_string(),
            seed: 1,
        }
    }
}

/// What the brain says to one line, and whether it is done.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The lines to write, in order (none for `INFO`, `END`, a `BOARD` line).
    pub lines: Vec<Line>,
    /// `END`: stop after writing them.
    pub end: bool,
}

impl Answer {
    fn one(line: Line) -> Answer {
        Answer {
            lines: vec![line],
            end: false,
        }
    }

    fn ok() -> Answer {
        Answer::one(Line::ok())
    }

    fn error(reason: impl AsRef<str>) -> Answer {
        Answer::one(Line::error(reason.as_ref()))
    }

    fn unknown(reason: impl AsRef<str>) -> Answer {
        Answer::one(Line::unknown(reason.as_ref()))
    }

    fn none() -> Answer {
        Answer::default()
    }
}

/// A brain: the rulebook it plays, the board, and what the manager said.
pub struct Brain {
    options: Options,
    info: Info,
    /// The board's width and height since `START` / `RECTSTART`.
    size: Option<(u32, u32)>,
    /// The game: its rulebook fits the size and the rule it was made for.
    game: Option<(BrainKey, Game)>,
    /// Rulebooks made so far, by size and rule.
    made: HashMap<BrainKey, Arc<Rulebook>>,
    /// The stones of a `BOARD` being read: x, y, field.
    board: Option<Vec<(u32, u32, u8)>>,
    /// Inside a block read and set aside to its `DONE`: one this brain does
    /// not play (`SWAP2BOARD`), or a `BOARD` already refused.
    skipping: Option<Skip>,
    /// The side the brain plays, once it has moved or been told its move
    /// (`PLAY` is refused on the opponent's turn).
    own: Option<Side>,
    /// The brain's last move, answered but not yet played on its board:
    /// the rulebook's hooks play it when the next command needs the game,
    /// so that they never delay the answer.
    pending: Option<Move>,
    /// Why the board is no longer the manager's: the brain's own move,
    /// answered, could not be played on it. Until a new game, moves get
    /// `ERROR` with this.
    out_of_step: Option<String>,
    /// The deadlines of the command being answered.
    plan: Plan,
    rng: Rng,
}

/// A block whose lines are set aside to its `DONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// A block of a command not supported: answered `UNKNOWN` at its end.
    Unsupported(&'static str),
    /// A `BOARD` refused at a bad line, already answered.
    RefusedBoard,
}

/// A rulebook for a size, with or without "exactly five", with or without
/// Caro's rule.
type RuleKey = (u32, u32, bool, bool);

/// The brain's rulebook for a size and rule: renju's, or `--rules` with or
/// without "exactly five" and Caro's rule.
type BrainKey = (RuleKey, bool);

impl Brain {
    /// A brain that has not started a game yet.
    pub fn new(options: Options) -> Brain {
        let rng = Rng::new(options.seed);
        Brain {
            options,
            info: Info::default(),
            size: None,
            game: None,
            made: HashMap::new(),
            board: None,
            skipping: None,
            own: None,
            pending: None,
            out_of_step: None,
            plan: Plan::new(Instant::now(), DEFAULT_TURN, HOOKED),
            rng,
        }
    }

    /// Drops the game (and the brain's move not yet played on it).
    fn drop_game(&mut self) {
        self.game = None;
        self.own = None;
        self.pending = None;
        self.out_of_step = None;
    }

    /// Whether the rulebook of the game (or the one made for the board and
    /// rule in force) has per-move hooks; a rulebook not made yet is taken
    /// to have them.
    fn hooked(&self) -> bool {
        let rules = match (&self.game, self.size) {
            (Some((_, game)), _) => Some(game.rulebook()),
            (None, Some((w, h))) => self.made.get(&self.key(w, h)),
            (None, None) => None,
        };
        rules.is_none_or(|r| r.has_per_move_hooks())
    }

    /// The empty cells of the board, for the share of the match time.
    fn empty_cells(&self) -> usize {
        match (&self.game, self.size) {
            (Some((_, game)), _) => {
                game.rulebook().grid().len() - game.position().occupied().count() as usize
            }
            (None, Some((w, h))) => w as usize * h as usize,
            (None, None) => 0,
        }
    }

    /// The position as `position` prints it (rows from the top), once a
    /// game has begun: what the brain believes the board is, its own last
    /// move included.
    pub fn position_text(&mut self) -> Option<String> {
        self.game.as_ref()?;
        let game = self.game().ok()?;
        Some(game.rulebook().position_text(game.position()))
    }

    /// Answers one line from the manager. Its scripts (the hooks that
    /// place a stone, search, or play the brain's last move) have until
    /// nine tenths of the time for a move; loading a rulebook has the 4 s
    /// of any load instead.
    pub fn handle(&mut self, line: &str) -> Answer {
        let started = Instant::now();
        let shares = if self.hooked() { HOOKED } else { PLAIN };
        self.plan = Plan::new(started, self.info.allowance(self.empty_cells()), shares);
        ScriptBudget::until(self.plan.scripts_by, COMMAND_TIME).run(|| self.command(line, started))
    }

    fn command(&mut self, line: &str, started: Instant) -> Answer {
        let line = line.trim();
        if let Some(skip) = self.skipping {
            // One answer for the whole block, when the manager awaits it:
            // at its `DONE`, or at a line that is not a stone (`END`,
            // say), which is then read as a command.
            // A stone: `x,y` (swap2's), or `x,y,field` (a board's).
            let stone = line.split(',').all(|f| f.trim().parse::<u32>().is_ok())
                && (2..=3).contains(&line.split(',').count());
            if stone || line.is_empty() {
                return Answer::none();
            }
            self.skipping = None;
            let refused = match skip {
                Skip::Unsupported(command) => {
                    vec![Line::unknown(&format!("{command} is not supported"))]
                }
                Skip::RefusedBoard => Vec::new(),
            };
            if line.eq_ignore_ascii_case("DONE") {
                return Answer {
                    lines: refused,
                    end: false,
                };
            }
            let mut answer = self.command(line, started);
            answer.lines.splice(0..0, refused);
            return answer;
        }
        if self.board.is_some() {
            return self.board_line(line, started);
        }
        if line.is_empty() {
            return Answer::none();
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_uppercase().as_str() {
            "START" => self.start(rest.parse().ok().map(|n| (n, n)), rest),
            "RECTSTART" => self.start(gomocup::pair(rest), rest),
            "RESTART" => self.restart(),
            "INFO" => self.info(rest),
            "BEGIN" => self.begin(started),
            "TURN" => self.turn(rest, started),
            "PLAY" => self.play_own(rest),
            "BOARD" => {
                if self.size.is_none() {
                    return Answer::error("no board yet: START comes first");
                }
                self.board = Some(Vec::new());
                Answer::none()
            }
            "TAKEBACK" => self.takeback(rest),
            // Swap2's opening moves come as a block, like BOARD's.
            "SWAP2BOARD" => {
                self.skipping = Some(Skip::Unsupported("SWAP2BOARD (swap2 openings)"));
                Answer::none()
            }
            "ABOUT" => Answer::one(Line::about()),
            "END" => Answer {
                lines: Vec::new(),
                end: true,
            },
            _ => Answer::unknown(format!("command `{}`", clip(word))),
        }
    }

    fn start(&mut self, size: Option<(u32, u32)>, text: &str) -> Answer {
        let Some((w, h)) = size.filter(|&(w, h)| w > 0 && h > 0) else {
            return Answer::error(format!("bad size `{}`", clip(text)));
        };
        self.size = None;
        self.drop_game();
        match self.rulebook(self.key(w, h)) {
            Ok(_) => {
                self.size = Some((w, h));
                Answer::ok()
            }
            Err(reason) => Answer::error(format!("unsupported size {w}×{h}: {reason}")),
        }
    }

    fn restart(&mut self) -> Answer {
        if self.size.is_none() {
            return Answer::error("no board yet: START comes first");
        }
        self.drop_game();
        Answer::ok()
    }

    fn info(&mut self, text: &str) -> Answer {
        let (key, value) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let value = value.trim();
        let slot = match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => &mut self.info.timeout_turn,
            "timeout_match" => &mut self.info.timeout_match,
            "time_left" => &mut self.info.time_left,
            "max_node" => &mut self.info.max_node,
            "rule" => {
                return match value.parse() {
                    Ok(rule) => {
                        self.info.rule = rule;
                        // Made now, in this command's time, not in the
                        // next move's: managers send the rule after START.
                        if let Some((w, h)) = self.size {
                            let _ = self.rulebook(self.key(w, h));
                        }
                        Answer::none()
                    }
                    Err(_) => Answer::error(format!("bad rule `{}`", clip(value))),
                };
            }
            // The protocol's other keys (max_memory, game_type, evaluate,
            // folder) change nothing here; unknown ones are ignored.
            _ => return Answer::none(),
        };
        match value.parse::<i64>() {
            // A negative time left: the match time is up; answer at once.
            Ok(ms) if ms >= 0 || key.eq_ignore_ascii_case("time_left") => {
                *slot = Some(ms.max(0) as u64);
                Answer::none()
            }
            // A negative limit is no limit the manager meant.
            _ => Answer::error(format!("bad value `{}` for {key}", clip(value))),
        }
    }

    fn exact(&self) -> bool {
        self.info.rule & RULE_EXACT != 0
    }

    /// The rulebook key for a `w`×`h` board under the rule in force.
    fn key(&self, w: u32, h: u32) -> BrainKey {
        let renju = self.info.rule & RULE_RENJU != 0;
        let caro = self.info.rule & RULE_CARO != 0 && !renju;
        ((w, h, self.exact() && !renju, caro), renju)
    }

    /// The game, made (or remade under a rule that changed) for the board,
    /// with the brain's last move played.
    fn game(&mut self) -> Result<&mut Game, String> {
        if let Some(why) = &self.out_of_step {
            return Err(why.clone());
        }
        if let (Some(mv), Some((_, game))) = (self.pending.take(), &mut self.game)
            && let Err(e) = game.play(mv)
        {
            let (x, y) = mv.to().map_or((0, 0), |cell| xy_of(game, cell));
            if let PlayError::Script(script) = &e
                && out_of_time(script, self.plan.scripts_by)
            {
                // Not refused: tried again by the next command.
                self.pending = Some(mv);
                return Err(format!(
                    "no time left to play the brain's move {x},{y} on its board ({e})"
                ));
            }
            let why = format!(
                "the brain's move {x},{y} was answered, but the rulebook does not play it ({e}): \
                 the board is no longer the manager's; BOARD or RESTART starts again"
            );
            self.out_of_step = Some(why.clone());
            return Err(why);
        }
        let Some((w, h)) = self.size else {
            return Err("no board yet: START comes first".to_string());
        };
        let unsupported: Vec<&str> = UNSUPPORTED_RULES
            .iter()
            .filter(|(bit, _)| self.info.rule & bit != 0)
            .map(|&(_, name)| name)
            .collect();
        if !unsupported.is_empty() {
            return Err(format!(
                "unsupported rule {}: {} (gridrules plays gomoku, with or without exactly five and Caro's rule, and renju)",
                self.info.rule,
                unsupported.join(", ")
            ));
        }
        let key = self.key(w, h);
        if self.game.as_ref().is_none_or(|(k, _)| *k != key) {
            let rules = self.rulebook(key)?;
            let mut game = Game::new(rules);
            // The same stones under the new rule.
            if let Some((_, old)) = &self.game {
                for &mv in old.moves() {
                    game.play(mv).map_err(|e| e.to_string())?;
                }
            }
            self.game = Some((key, game));
        }
        Ok(&mut self.game.as_mut().expect("made above").1)
    }

    /// The rulebook for `key`, made once, when the board's size or the
    /// rule is given (`START`, `INFO rule`), so that no move waits for it.
    ///
    /// A load has its own budget ([`ScriptBudget::load`]), not the move's:
    /// the game needs the rulebook whole.
    fn rulebook(&mut self, key: BrainKey) -> Result<Arc<Rulebook>, String> {
        if let Some(r) = self.made.get(&key) {
            return Ok(r.clone());
        }
        let rules = if key.1 { "renju" } else { &self.options.rules };
        let made = ScriptBudget::UNLIMITED.replacing(|| make_rulebook(rules, key.0));
        let rules = Arc::new(made?);
        self.made.insert(key, rules.clone());
        Ok(rules)
    }

    fn begin(&mut self, started: Instant) -> Answer {
        match self.game() {
            Ok(game) if !game.moves().is_empty() => {
                Answer::error("BEGIN on a board with stones: RESTART first")
            }
            Ok(_) => self.reply(started),
            Err(reason) => Answer::error(reason),
        }
    }

    fn turn(&mut self, text: &str, started: Instant) -> Answer {
        let Some((x, y)) = gomocup::pair(text) else {
            return Answer::error(format!("bad coordinates `{}`", clip(text)));
        };
        if let Err(reason) = self.place(x, y) {
            return Answer::error(reason);
        }
        self.reply(started)
    }

    /// `PLAY x,y`: the manager's choice of the brain's own move.
    fn play_own(&mut self, text: &str) -> Answer {
        let Some((x, y)) = gomocup::pair(text) else {
            return Answer::error(format!("bad coordinates `{}`", clip(text)));
        };
        let turn = match self.game() {
            Ok(game) => game.position().turn(),
            Err(reason) => return Answer::error(reason),
        };
        if let Some(own) = self.own.filter(|&own| own != turn) {
            return Answer::error(format!(
                "PLAY {x},{y}: the brain plays {own} and {turn} is to move; the opponent's stone comes with TURN"
            ));
        }
        match self.place(x, y) {
            Ok(()) => {
                self.own = Some(turn);
                Answer::one(Line::stone(x, y))
            }
            Err(reason) => Answer::error(reason),
        }
    }

    /// Plays a stone for the side to move at `x,y`.
    fn place(&mut self, x: u32, y: u32) -> Result<(), String> {
        play_stone(self.game()?, x, y, "the game is over")
    }

    fn takeback(&mut self, text: &str) -> Answer {
        let Some((x, y)) = gomocup::pair(text) else {
            return Answer::error(format!("bad coordinates `{}`", clip(text)));
        };
        let game = match self.game() {
            Ok(game) => game,
            Err(reason) => return Answer::error(reason),
        };
        let cell = match cell_at(game, x, y) {
            Ok(cell) => cell,
            Err(reason) => return Answer::error(reason),
        };
        if game.moves().last().and_then(|m| m.to()) != Some(cell) {
            return Answer::error(format!("{x},{y} is not the last stone played"));
        }
        game.undo();
        Answer::ok()
    }

    /// The brain's move, answered as `x,y` and played when the next
    /// command needs the game.
    fn reply(&mut self, started: Instant) -> Answer {
        let seed = self.rng.next_u64();
        let plan = self.plan;
        let nodes = self.info.max_node.filter(|&n| n > 0);
        let game = match self.game() {
            Ok(game) => game,
            Err(reason) => return Answer::error(reason),
        };
        if let Some(result) = game.result_text() {
            return Answer::error(format!("the game is over ({result})"));
        }
        let turn = game.position().turn();
        let (mv, how) = match choose(game, plan, nodes, started, seed) {
            Ok(chosen) => chosen,
            Err(reason) => return Answer::error(reason),
        };
        let (x, y) = match mv.to() {
            Some(cell) => xy_of(game, cell),
            None => return Answer::error("the search chose a move that places no stone"),
        };
        self.pending = Some(mv);
        self.own = Some(turn);
        Answer {
            lines: vec![Line::message(&how), Line::stone(x, y)],
            end: false,
        }
    }
}
