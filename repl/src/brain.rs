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

use gridrules_core::playout::Rng;
use gridrules_core::rulebook::{LineResult, Marks};
use gridrules_core::script::ScriptBudget;
use gridrules_core::script::hooks::HookId;
use gridrules_core::search::{self, Budget, Level, Report, Request};
use gridrules_core::{
    Cell, Game, Move, MoveList, PlayError, Rulebook, ScriptError, ScriptErrorKind,
};
use gridrules_core::{builtin, files};
use std::collections::HashMap;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

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

/// The rule bits of `INFO rule`: exactly five wins (an overline does not).
pub const RULE_EXACT: u32 = 1;

/// The rule bits the brain cannot play, with their names.
const UNSUPPORTED_RULES: [(u32, &str); 3] = [(2, "continuous game"), (4, "renju"), (8, "caro")];

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

pub use line::Line;

/// The protocol's lines, and the only way to make one.
mod line {
    use std::fmt;

    /// One line the brain writes, in one of the protocol's forms: `OK`, a
    /// stone `x,y`, `ERROR …`, `UNKNOWN …`, `MESSAGE …` or `ABOUT`'s
    /// `key="value"` pairs. Only this module makes one, and every text put
    /// in it — a rulebook's refusal or title, a script's error, what the
    /// manager sent — goes through [`push_one_line`]: no line holds a
    /// control character (nor a bidi or invisible one), so none can end
    /// early and start a line a manager would read as the brain's move, nor
    /// reach a terminal as an escape.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Line(String);

    impl Line {
        pub(super) fn ok() -> Line {
            Line("OK".to_string())
        }

        /// A stone at protocol coordinates: the brain's move, or `PLAY`'s echo.
        pub(super) fn stone(x: u32, y: u32) -> Line {
            Line(format!("{x},{y}"))
        }

        pub(super) fn error(reason: &str) -> Line {
            Line::with("ERROR ", reason)
        }

        pub(super) fn unknown(reason: &str) -> Line {
            Line::with("UNKNOWN ", reason)
        }

        pub(super) fn message(text: &str) -> Line {
            Line::with("MESSAGE ", text)
        }

        /// `ABOUT`'s answer.
        pub(super) fn about() -> Line {
            Line::with("", &super::about())
        }

        fn with(word: &str, text: &str) -> Line {
            let mut line = String::with_capacity(word.len() + text.len());
            line.push_str(word);
            push_one_line(&mut line, text);
            Line(line)
        }

        /// The line's text, without its end.
        pub fn as_str(&self) -> &str {
            &self.0
        }
    }

    /// `text` on one line: each character the REPL shows as an escape
    /// ([`crate::edge::hidden`]: control characters, bidi and invisible
    /// format characters, the line and paragraph separators), and newline
    /// and tab too, written as its escape, `\u{1b}`.
    pub fn push_one_line(out: &mut String, text: &str) {
        for c in text.chars() {
            if c == '\n' || c == '\t' || crate::edge::hidden(c) {
                out.extend(c.escape_unicode());
            } else {
                out.push(c);
            }
        }
    }

    impl std::ops::Deref for Line {
        type Target = str;
        fn deref(&self) -> &str {
            &self.0
        }
    }

    impl fmt::Display for Line {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl PartialEq<str> for Line {
        fn eq(&self, other: &str) -> bool {
            self.0 == other
        }
    }

    impl PartialEq<&str> for Line {
        fn eq(&self, other: &&str) -> bool {
            self.0 == *other
        }
    }

    impl From<Line> for String {
        fn from(line: Line) -> String {
            line.0
        }
    }
}

/// What the manager told the brain with `INFO`, times in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Info {
    /// Time for one move; 0: as fast as possible.
    pub timeout_turn: Option<u64>,
    /// Time for the whole match; 0: no limit.
    pub timeout_match: Option<u64>,
    /// Time left of the match.
    pub time_left: Option<u64>,
    /// The rule bits (1 exactly five, 2 continuous game, 4 renju, 8 caro).
    pub rule: u32,
}

impl Info {
    /// How long the brain may take for a move with `empty` cells left:
    /// the time per move, or the match time left shared among the moves
    /// still to come, whichever is less.
    pub fn allowance(&self, empty: usize) -> Duration {
        let turn = self
            .timeout_turn
            .map_or(DEFAULT_TURN, Duration::from_millis);
        let share = match (self.timeout_match, self.time_left) {
            (Some(0), _) | (_, None) => None,
            // About as many own moves to come as a fourth of the empty
            // cells, between 10 and 40: a five-in-a-row game rarely fills
            // the board.
            (_, Some(left)) => {
                let moves = (empty as u64 / 4).clamp(10, 40);
                Some(Duration::from_millis(left / moves))
            }
        };
        share.map_or(turn, |s| s.min(turn))
    }
}

/// The time the scripts get when there is none ("as fast as possible", or
/// the match time used up): enough to place a stone and answer at once.
const NO_TIME_SCRIPTS: Duration = Duration::from_millis(100);

/// The deadlines of one move, counted from when its command was read. Each
/// stage has one, scripts included; the last stage runs none.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// The search's budget: half the allowance (none without time).
    think: Option<Duration>,
    /// When the search thread stops, its scripts too: seven tenths.
    search_by: Instant,
    /// How long the answer waits for the search thread: three quarters.
    wait_until: Instant,
    /// When the move found without search must be ready, its scripts
    /// stopped: 88 hundredths. Past it, the tables alone choose, at once.
    fallback_by: Instant,
    /// When every script the command runs must have stopped: nine tenths.
    scripts_by: Instant,
}

impl Plan {
    fn new(started: Instant, allowance: Duration) -> Plan {
        let think = (!allowance.is_zero()).then_some(allowance / 2);
        let a = allowance.max(NO_TIME_SCRIPTS);
        Plan {
            think,
            search_by: started + a * 7 / 10,
            wait_until: started + a * 3 / 4,
            fallback_by: started + a * 88 / 100,
            scripts_by: started + a * 9 / 10,
        }
    }
}

/// Why a script stopped at each deadline (its error says "ran out of
/// time: …").
const COMMAND_TIME: &str = "a brain's command has nine tenths of the time for a move";
const SEARCH_TIME: &str = "the brain's search stops at seven tenths of the time for a move";
const FALLBACK_TIME: &str =
    "the move found without search is due at 88 hundredths of the time for a move";

/// Whether `e` is a script stopped for time, past `by`: the stage ran out
/// of time rather than failing.
fn out_of_time(e: &ScriptError, by: Instant) -> bool {
    e.kind == ScriptErrorKind::Limit && Instant::now() >= by
}

/// Where the rulebook text comes from.
#[derive(Debug, Clone)]
enum Source {
    Builtin(&'static str),
    File(PathBuf),
}

/// A brain: the rulebook it plays, the board, and what the manager said.
pub struct Brain {
    options: Options,
    info: Info,
    /// The board's width and height since `START` / `RECTSTART`.
    size: Option<(u32, u32)>,
    /// The game: its rulebook fits the size and the rule it was made for.
    game: Option<(RuleKey, Game)>,
    /// Rulebooks made so far, by size and rule.
    made: HashMap<RuleKey, Arc<Rulebook>>,
    /// The stones of a `BOARD` being read: x, y, field.
    board: Option<Vec<(u32, u32, u8)>>,
    /// Inside a block this brain does not play (`SWAP2BOARD` … `DONE`):
    /// the command that opened it.
    skipping: Option<&'static str>,
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

/// A rulebook for a size, with or without "exactly five".
type RuleKey = (u32, u32, bool);

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
            pending: None,
            out_of_step: None,
            plan: Plan::new(Instant::now(), DEFAULT_TURN),
            rng,
        }
    }

    /// Drops the game (and the brain's move not yet played on it).
    fn drop_game(&mut self) {
        self.game = None;
        self.pending = None;
        self.out_of_step = None;
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
        self.plan = Plan::new(started, self.info.allowance(self.empty_cells()));
        ScriptBudget::until(self.plan.scripts_by, COMMAND_TIME).run(|| self.command(line, started))
    }

    fn command(&mut self, line: &str, started: Instant) -> Answer {
        let line = line.trim();
        if let Some(command) = self.skipping {
            // One answer for the whole block, when the manager awaits it:
            // at its `DONE`, or at a line that is not a stone (`END`,
            // say), which is then read as a command.
            if parse_pair(line).is_some() || line.is_empty() {
                return Answer::none();
            }
            self.skipping = None;
            let refused = Line::unknown(&format!("{command} is not supported"));
            if line.eq_ignore_ascii_case("DONE") {
                return Answer::one(refused);
            }
            let mut answer = self.command(line, started);
            answer.lines.insert(0, refused);
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
            "RECTSTART" => self.start(parse_pair(rest), rest),
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
                self.skipping = Some("SWAP2BOARD (swap2 openings)");
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
        match self.rulebook((w, h, self.exact())) {
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
            "rule" => {
                return match value.parse() {
                    Ok(rule) => {
                        self.info.rule = rule;
                        // Made now, in this command's time, not in the
                        // next move's: managers send the rule after START.
                        if let Some((w, h)) = self.size {
                            let _ = self.rulebook((w, h, self.exact()));
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
            Ok(ms) => {
                *slot = Some(ms.max(0) as u64);
                Answer::none()
            }
            Err(_) => Answer::error(format!("bad value `{}` for {key}", clip(value))),
        }
    }

    fn exact(&self) -> bool {
        self.info.rule & RULE_EXACT != 0
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
                "unsupported rule {}: {} (gridrules plays gomoku, with or without exactly five)",
                self.info.rule,
                unsupported.join(", ")
            ));
        }
        let key = (w, h, self.exact());
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
    fn rulebook(&mut self, key: RuleKey) -> Result<Arc<Rulebook>, String> {
        if let Some(r) = self.made.get(&key) {
            return Ok(r.clone());
        }
        let made = ScriptBudget::UNLIMITED.replacing(|| make_rulebook(&self.options.rules, key));
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
        let Some((x, y)) = parse_pair(text) else {
            return Answer::error(format!("bad coordinates `{}`", clip(text)));
        };
        if let Err(reason) = self.place(x, y) {
            return Answer::error(reason);
        }
        self.reply(started)
    }

    /// `PLAY x,y`: the manager's choice of the brain's own move.
    fn play_own(&mut self, text: &str) -> Answer {
        let Some((x, y)) = parse_pair(text) else {
            return Answer::error(format!("bad coordinates `{}`", clip(text)));
        };
        match self.place(x, y) {
            Ok(()) => Answer::one(Line::stone(x, y)),
            Err(reason) => Answer::error(reason),
        }
    }

    /// Plays a stone for the side to move at `x,y`.
    fn place(&mut self, x: u32, y: u32) -> Result<(), String> {
        play_stone(self.game()?, x, y, "the game is over")
    }

    fn takeback(&mut self, text: &str) -> Answer {
        let Some((x, y)) = parse_pair(text) else {
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

    /// A line after `BOARD`: a stone, or `DONE`.
    fn board_line(&mut self, line: &str, started: Instant) -> Answer {
        if line.is_empty() {
            return Answer::none();
        }
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board.take().unwrap_or_default();
            return match self.set_board(&stones) {
                Ok(()) => self.reply(started),
                Err(reason) => Answer::error(reason),
            };
        }
        let fields: Vec<Option<u32>> = line.split(',').map(|f| f.trim().parse().ok()).collect();
        match fields[..] {
            [Some(x), Some(y), Some(f @ 1..=3)] => {
                if let Some(stones) = &mut self.board {
                    stones.push((x, y, f as u8));
                }
                Answer::none()
            }
            _ => {
                // As the protocol's own skeleton does: the board ends here.
                self.board = None;
                Answer::error(format!(
                    "x,y,field or DONE expected after BOARD, not `{}`",
                    clip(line)
                ))
            }
        }
    }

    /// A new game with `stones` on the board (field 1 the brain's, 2 the
    /// opponent's), the brain to move: X if both have as many stones, O if
    /// the opponent has one more.
    fn set_board(&mut self, stones: &[(u32, u32, u8)]) -> Result<(), String> {
        if stones.iter().any(|s| s.2 == 3) {
            return Err(
                "field 3 (a winning line's stone) belongs to the continuous game, which is not supported"
                    .to_string(),
            );
        }
        self.drop_game();
        let game = self.game()?;
        let mine: Vec<(u32, u32)> = stones
            .iter()
            .filter(|s| s.2 == 1)
            .map(|s| (s.0, s.1))
            .collect();
        let theirs: Vec<(u32, u32)> = stones
            .iter()
            .filter(|s| s.2 == 2)
            .map(|s| (s.0, s.1))
            .collect();
        let (first, second) = if mine.len() == theirs.len() {
            (&mine, &theirs)
        } else if theirs.len() == mine.len() + 1 {
            (&theirs, &mine)
        } else {
            return Err(format!(
                "{} own stones and {} of the opponent's: the brain is to move with as many, or one fewer",
                mine.len(),
                theirs.len()
            ));
        };
        // Alternately, in the order given: a line on the board at the end
        // would be there in any order, and without one no order ends early.
        let mut order = Vec::with_capacity(stones.len());
        for (i, &stone) in first.iter().enumerate() {
            order.push(stone);
            if let Some(&s) = second.get(i) {
                order.push(s);
            }
        }
        for (x, y) in order {
            play_stone(game, x, y, "the board holds a finished game")?;
        }
        Ok(())
    }

    /// The brain's move, answered as `x,y` and played when the next
    /// command needs the game.
    fn reply(&mut self, started: Instant) -> Answer {
        let seed = self.rng.next_u64();
        let plan = self.plan;
        let game = match self.game() {
            Ok(game) => game,
            Err(reason) => return Answer::error(reason),
        };
        if let Some(result) = game.result_text() {
            return Answer::error(format!("the game is over ({result})"));
        }
        let (mv, how) = match choose(game, plan, started, seed) {
            Ok(chosen) => chosen,
            Err(reason) => return Answer::error(reason),
        };
        let (x, y) = match mv.to() {
            Some(cell) => xy_of(game, cell),
            None => return Answer::error("the search chose a move that places no stone"),
        };
        self.pending = Some(mv);
        Answer {
            lines: vec![Line::message(&how), Line::stone(x, y)],
            end: false,
        }
    }
}

/// Hard's move in `game` by `plan`'s deadlines, and how it was found (the
/// `MESSAGE` line's text). Each stage has a deadline, its scripts too:
///
/// 1. the search, on a thread of its own: it stops, scripts and all, at
///    `search_by`; the answer waits for it until `wait_until`;
/// 2. should it overrun (or with no time at all), the move found without
///    search (`search::at_once`), its scripts stopped at `fallback_by`;
/// 3. should that run out of time too, the move the rulebook's tables
///    alone give (`search::by_tables`), which runs no script.
fn choose(game: &Game, plan: Plan, started: Instant, seed: u64) -> Result<(Move, String), String> {
    let searched = match plan.think {
        None => Err("no time to search"),
        Some(think) => {
            let (send, receive) = channel();
            let searched = game.clone();
            let spawned = std::thread::Builder::new()
                .name("brain-search".to_string())
                .stack_size(16 << 20)
                .spawn(move || {
                    // The thread's scripts (and its workers') stop when
                    // its search does.
                    let mut rng = Rng::new(seed);
                    let mut report = Report::default();
                    let chosen = ScriptBudget::until(plan.search_by, SEARCH_TIME).run(|| {
                        let request = Request::new(Level::Hard, Budget::Time(think))
                            .deadline(plan.search_by)
                            .report(&mut report);
                        search::choose(&searched, request, &mut rng)
                    });
                    let _ = send.send(chosen.map(|mv| (mv, report)));
                });
            match spawned {
                Ok(_) => receive
                    .recv_timeout(plan.wait_until.saturating_duration_since(Instant::now()))
                    .map_err(|e| match e {
                        RecvTimeoutError::Timeout => "the search ran out of time",
                        RecvTimeoutError::Disconnected => "the search failed",
                    }),
                Err(_) => Err("the search could not start"),
            }
        }
    };
    let (mv, how) = match searched {
        Ok(Ok((Some(mv), report))) => (mv, report.to_string()),
        Ok(Ok((None, _))) => return Err("no move left: the game is over".to_string()),
        Ok(Err(e)) if out_of_time(&e, plan.search_by) => {
            fallback(game, "the search ran out of time", plan, seed)?
        }
        Ok(Err(e)) => return Err(e.to_string()),
        Err(why) => fallback(game, why, plan, seed)?,
    };
    Ok((mv, format!("{how} tm {}", started.elapsed().as_millis())))
}

/// The move found without search, `why` there was none; its scripts stop
/// at `plan.fallback_by`, and past it the rulebook's tables alone choose:
/// among the legal moves if listing them (which asks the `refuse` hook)
/// was done in time, else among the empty cells.
fn fallback(game: &Game, why: &str, plan: Plan, seed: u64) -> Result<(Move, String), String> {
    let mut rng = Rng::new(seed);
    let mut legal = None;
    let found = ScriptBudget::until(plan.fallback_by, FALLBACK_TIME).run(|| {
        let mut list = MoveList::new();
        game.rulebook()
            .legal_moves(game.position(), game.moves(), &mut list)?;
        legal = Some(list.to_vec());
        search::at_once_among(game, list.to_vec(), &mut rng)
    });
    match found {
        Ok(Some(mv)) => Ok((mv, format!("{why}: static evaluation"))),
        Ok(None) => Err("no move left: the game is over".to_string()),
        Err(e) if out_of_time(&e, plan.fallback_by) => {
            let refuse = game.rulebook().script().defines(HookId::Refuse);
            let mv = search::by_tables(game, legal.as_deref(), &mut rng)
                .ok_or_else(|| format!("{why}, and its scripts too: {e}"))?;
            let unasked = if legal.is_none() && refuse {
                ", the refuse hook not asked"
            } else {
                ""
            };
            Ok((
                mv,
                format!(
                    "{why}, and the static evaluation's scripts too: the tables' move{unasked}"
                ),
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Plays a stone for the side to move at `x,y`; a finished game refuses it
/// with `over` and the result.
fn play_stone(game: &mut Game, x: u32, y: u32, over: &str) -> Result<(), String> {
    let cell = cell_at(game, x, y)?;
    if let Some(result) = game.result_text() {
        return Err(format!("{over} ({result})"));
    }
    let mv = Move::Place {
        to: cell,
        mark: game.position().turn(),
    };
    game.play(mv).map_err(|e| format!("{x},{y}: {e}"))?;
    Ok(())
}

/// The cell at protocol coordinates `x,y` (from the top left).
fn cell_at(game: &Game, x: u32, y: u32) -> Result<Cell, String> {
    let grid = game.rulebook().grid();
    let row = i64::from(grid.height()) - 1 - i64::from(y);
    grid.cell(i64::from(x), row).ok_or_else(|| {
        format!(
            "{x},{y} is off the board ({}×{})",
            grid.width(),
            grid.height()
        )
    })
}

/// The protocol coordinates of `cell`.
fn xy_of(game: &Game, cell: Cell) -> (u32, u32) {
    let grid = game.rulebook().grid();
    (grid.col(cell), grid.height() - 1 - grid.row(cell))
}

/// `a,b` as two numbers.
fn parse_pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// At most 40 characters of what the manager sent, for an error line.
fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// The rulebook named by `rules` (built-in or file) on a `w`×`h` board,
/// with overlines losing their win when `exact`: the rulebook as it is
/// when it fits, else its text with `[board]` (and the boolean `overline`
/// param) replaced. It must be a game the protocol can describe.
///
/// # Errors
/// Why it cannot be played: what the loader says of the size, or what
/// the rulebook lacks.
pub fn make_rulebook(rules: &str, (w, h, exact): RuleKey) -> Result<Rulebook, String> {
    let path = Path::new(rules);
    let source = if let Some(name) = Rulebook::builtin_names().find(|n| *n == rules) {
        Source::Builtin(name)
    } else if rules.ends_with(".toml") || path.exists() {
        Source::File(path.to_path_buf())
    } else {
        return Err(format!("no rulebook `{rules}`"));
    };
    let (text, shown, dir) = match &source {
        Source::Builtin(name) => (
            builtin::rulebook(name).unwrap_or_default().to_string(),
            format!("rules/{name}.toml"),
            None,
        ),
        // Read as `load` and `--rules` read one: only a regular `.toml`
        // file of at most 1 MiB (a FIFO would block, `/dev/zero` never end).
        Source::File(path) => (
            files::read(path, files::RULEBOOK)
                .map_err(|e| format!("{}: cannot read the rulebook: {e}", path.display()))?,
            path.display().to_string(),
            Some(path.parent().map(Path::to_path_buf).unwrap_or_default()),
        ),
    };
    // The first problem is the one to fix first (the line it is written
    // on escapes whatever it quotes).
    let first_problem = |e: gridrules_core::RulebookError| {
        e.problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default()
    };
    let base = Rulebook::from_str_at(&text, &shown, dir.clone()).map_err(first_problem)?;
    let fits_size = base.grid().width() == w && base.grid().height() == h;
    let fits_rule = overline_fits(&base, exact);
    let rulebook = if fits_size && fits_rule {
        base
    } else {
        let derived = resized(&text, &base, w, h, (!fits_rule).then_some(exact))?;
        Rulebook::from_str_at(&derived, &format!("{shown} ({w}×{h})"), dir)
            .map_err(first_problem)?
    };
    playable(&rulebook)?;
    if !overline_fits(&rulebook, exact) {
        return Err(format!(
            "rulebook `{}` cannot be played with{} exactly five",
            rulebook.name(),
            if exact { "" } else { "out" }
        ));
    }
    // The manager runs the openings: no pie rule at this table.
    let mut table = rulebook.table().clone();
    table.pie = false;
    Ok(rulebook.with_table(table))
}

/// Whether a run one longer than the rulebook's `k` wins as the rule says:
/// not with "exactly five", yes without.
fn overline_fits(rules: &Rulebook, exact: bool) -> bool {
    let t = rules.tables();
    t.wins_run(t.min_run() + 1) != exact
}

/// The rulebook text with the board `w`×`h`, the `overline` param set to
/// `!exact` if given, a name that says so, and no `[[example]]`s (they
/// are `check`'s, written for the original board).
fn resized(
    text: &str,
    base: &Rulebook,
    w: u32,
    h: u32,
    exact: Option<bool>,
) -> Result<String, String> {
    let mut doc: toml::Table = text.parse().map_err(|e| format!("{e}"))?;
    let board = doc
        .entry("board")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let Some(board) = board.as_table_mut() else {
        return Err("its `board` is not a table".to_string());
    };
    board.insert("width".into(), toml::Value::Integer(w.into()));
    board.insert("height".into(), toml::Value::Integer(h.into()));
    let mut name = format!("{}-{w}x{h}", base.name());
    if let Some(exact) = exact {
        let overline = doc
            .get_mut("params")
            .and_then(|p| p.get_mut("overline"))
            .filter(|v| v.is_bool());
        let Some(overline) = overline else {
            return Err(format!(
                "rulebook `{}` has no boolean `overline` param to play {} exactly five",
                base.name(),
                if exact { "with" } else { "without" }
            ));
        };
        *overline = toml::Value::Boolean(!exact);
        if exact {
            name.push_str("-exact");
        }
    }
    doc.insert("name".into(), toml::Value::String(name));
    doc.remove("example");
    toml::to_string(&doc).map_err(|e| e.to_string())
}

/// Whether the protocol can describe the rulebook's game: stones placed
/// one a turn, each side its own, nothing taken off, a line winning for
/// its owner.
fn playable(rules: &Rulebook) -> Result<(), String> {
    let t = rules.tables();
    let lacks = if t.marks() != Marks::Own {
        Some("each side places its own stone")
    } else if t.line_result() != LineResult::OwnerWins {
        Some("a line wins for its owner")
    } else if !t.turns().is_alternating() {
        Some("one stone a turn")
    } else if t.has_captures() {
        Some("no captures")
    } else if t.has_gravity() || t.pieces().is_some() || !t.regions().is_empty() {
        Some("stones placed on any empty cell, and left there")
    } else {
        None
    };
    match lacks {
        Some(what) => Err(format!(
            "rulebook `{}` is not a gomoku-like game: the protocol needs {what}",
            rules.name()
        )),
        None => Ok(()),
    }
}

/// The longest line read from the manager: the rest of a longer one is
/// dropped, as the protocol allows.
const MAX_LINE: usize = 64 * 1024;

/// Runs the brain over `input` and `output` until `END` or the end of the
/// input, writing each answer as soon as it is made. Bytes that are not
/// UTF-8 are read as replacement characters (and refused as a command).
///
/// # Errors
/// Reading or writing failed.
pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    options: Options,
) -> std::io::Result<()> {
    let mut brain = Brain::new(options);
    let mut line = Vec::new();
    loop {
        line.clear();
        if (&mut input)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(());
        }
        if line.len() == MAX_LINE && line.last() != Some(&b'\n') {
            // Past the cut, up to the end of the line, holding none of it.
            loop {
                let buf = input.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        input.consume(i + 1);
                        break;
                    }
                    None => {
                        let n = buf.len();
                        input.consume(n);
                    }
                }
            }
        }
        let answer = brain.handle(&String::from_utf8_lossy(&line));
        // The one place the brain writes: each `Line` holds no control
        // character, so each is one line for the manager.
        for text in &answer.lines {
            writeln!(output, "{text}")?;
        }
        output.flush()?;
        if answer.end {
            return Ok(());
        }
    }
}

/// The brain as a program (`gridrules brain`, `pbrain-gridrules`): stdin
/// and stdout, until `END` or the end of the input.
pub fn main(rules: String) -> std::process::ExitCode {
    let options = Options {
        rules,
        ..Options::default()
    };
    match run(std::io::stdin().lock(), std::io::stdout().lock(), options) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The manager went away: nothing to say to it.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
