//! The command registry: one entry per command drives parsing, running,
//! `help`, completion, hints and what goes into the transcript, so a new
//! command is one entry in [`COMMANDS`] and the session method it calls.

use gridrules_core::Side;
use gridrules_core::arena::Player;
use gridrules_core::search::{Budget, Level};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// What a command's argument is, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// No argument, or nothing to offer.
    Nothing,
    /// A legal move of the position.
    Move,
    /// A built-in rulebook name (or a `.toml` path).
    Rulebook,
    /// A file path.
    File,
    /// A command name.
    Command,
    /// A word from a fixed list.
    Word(&'static [&'static str]),
}

/// Whether a command goes into the session's transcript, which batch mode
/// replays exactly: everything that plays, or shows or refuses something
/// about the game, refused lines included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Log {
    /// Always.
    Always,
    /// Never: it writes files, measures, or leaves.
    Never,
    /// Only where batch mode's clock runs (`wait`): at the REPL it is
    /// refused, and the real time that passed is logged as a `wait` instead.
    VirtualClock,
}

/// Reads a command's arguments: the words after its name, as a [`Command`].
pub type Parse = fn(&Args<'_>) -> Result<Command, ParseError>;

/// One command's entry in the registry.
pub struct CommandSpec {
    /// The name typed.
    pub name: &'static str,
    /// Other names that work too.
    pub aliases: &'static [&'static str],
    /// Arguments, as shown in `help` and as the hint after the name.
    pub args: &'static str,
    /// What it does, in a line.
    pub summary: &'static str,
    /// More for `help <command>`: what happens in the cases that surprise.
    pub more: &'static [&'static str],
    /// An example line.
    pub example: &'static str,
    /// What its first argument is, for completion.
    pub arg: Arg,
    /// Whether it goes into the transcript.
    pub log: Log,
    /// It plays for the side to move, so it is refused as too late once
    /// that side's time has run out.
    pub plays: bool,
    /// It may run long by design (Ctrl-C stops it), so the scripts it runs
    /// have no time budget for the whole command, only per hook call.
    pub long: bool,
    /// How its arguments are read.
    pub parse: Parse,
}

impl fmt::Debug for CommandSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CommandSpec({})", self.name)
    }
}

/// Entries are one per name.
impl PartialEq for CommandSpec {
    fn eq(&self, other: &CommandSpec) -> bool {
        self.name == other.name
    }
}

impl Eq for CommandSpec {}

impl CommandSpec {
    /// `name args`, as in usage messages.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }

    const fn aka(mut self, aliases: &'static [&'static str]) -> CommandSpec {
        self.aliases = aliases;
        self
    }

    const fn example(mut self, example: &'static str) -> CommandSpec {
        self.example = example;
        self
    }

    const fn completing(mut self, arg: Arg) -> CommandSpec {
        self.arg = arg;
        self
    }

    const fn more(mut self, more: &'static [&'static str]) -> CommandSpec {
        self.more = more;
        self
    }

    const fn unlogged(mut self) -> CommandSpec {
        self.log = Log::Never;
        self
    }

    const fn virtual_clock(mut self) -> CommandSpec {
        self.log = Log::VirtualClock;
        self
    }

    const fn long(mut self) -> CommandSpec {
        self.long = true;
        self
    }

    const fn plays(mut self) -> CommandSpec {
        self.plays = true;
        self
    }
}

/// Games an `arena` match has unless told.
const ARENA_GAMES: u32 = 20;
/// Seconds within `range`, written `2` or `2s`.
fn seconds_in(text: &str, range: std::ops::RangeInclusive<f64>) -> Option<Duration> {
    let n = text.strip_suffix('s').unwrap_or(text).parse::<f64>().ok()?;
    range.contains(&n).then(|| Duration::from_secs_f64(n))
}

/// A number of playouts a tree, within what a rulebook may set.
fn playouts_of(text: &str) -> Option<u32> {
    text.parse::<u32>()
        .ok()
        .filter(|n| gridrules_core::table::AI_PLAYOUTS.contains(n))
}

/// Seconds a move an `arena` budget may give.
const ARENA_SECONDS: std::ops::RangeInclusive<f64> = 0.01..=600.0;

/// A budget as a player's suffix gives it: playouts a tree (`500000`) or
/// seconds a move by the clock (`2s`, the `s` required).
fn budget_of(text: &str) -> Option<Budget> {
    if text.ends_with('s') {
        seconds_in(text, ARENA_SECONDS).map(Budget::Time)
    } else {
        playouts_of(text).map(Budget::Playouts)
    }
}

/// The seed of an `arena` match unless told.
const ARENA_SEED: u64 = 1;

/// Seconds `solve` may take unless told.
const SOLVE_SECONDS: f64 = 10.0;

/// An entry: `name`, its `args` and `summary`, and how they are read. The
/// example is the bare name until [`CommandSpec::example`] says otherwise.
const fn cmd(
    name: &'static str,
    args: &'static str,
    summary: &'static str,
    parse: Parse,
) -> CommandSpec {
    CommandSpec {
        name,
        aliases: &[],
        args,
        summary,
        more: &[],
        example: name,
        arg: Arg::Nothing,
        log: Log::Always,
        plays: false,
        long: false,
        parse,
    }
}

const LEVELS: &[&str] = &["easy", "medium", "hard", "off"];
const ON_OFF: &[&str] = &["on", "off"];

/// Every command, in the order `help` lists them.
pub static COMMANDS: &[CommandSpec] = &[
    cmd(
        "help",
        "[command]",
        "list the commands, or explain one",
        |a| Ok(Command::Help(a.optional("one command at a time")?.map(str::to_string))),
    )
    .aka(&["?"])
    .example("help vs")
    .completing(Arg::Command)
    .unlogged(),
    cmd("variants", "", "list the built-in rulebooks", |a| a.none().map(|()| Command::Variants))
    .aka(&["rulebooks"]),
    cmd(
        "new",
        "[rulebook]",
        "a new game: on a built-in rulebook or a .toml file, or the same one",
        |a| Ok(Command::New(a.optional("one rulebook at a time")?.map(str::to_string))),
    )
    .example("new ultimate")
    .completing(Arg::Rulebook),
    cmd(
        "load",
        "<file.toml>",
        "load a rulebook from a file and start a game on it",
        |a| Ok(Command::Load(a.path()?)),
    )
    .example("load my-variant.toml")
    .completing(Arg::File),
    cmd(
        "reload",
        "",
        "read the rulebook file again and replay the game under it",
        |a| a.none().map(|()| Command::Reload),
    )
    .more(&[
        "Says `same game`, or the first move now refused or after which the",
        "result (or the side to move) differs; the game then keeps the moves",
        "before that point (a refused move) or up to it (a changed result),",
        "under the new rules, and lists the moves dropped. A file that does not",
        "load changes nothing. `new` alone keeps the rules as loaded.",
    ]),
    cmd(
        "rules",
        "",
        "the rules of the loaded rulebook, in words",
        |a| a.none().map(|()| Command::Rules),
    ),
    cmd("show", "", "draw the board", |a| a.none().map(|()| Command::Show))
    .aka(&["board"]),
    cmd(
        "play",
        "<move>",
        "play a move; a bare move works too (see `help play`)",
        |a| Ok(Command::Play(normal_move(a.one("which move?", "one move at a time")?))),
    )
    .aka(&["move"])
    .example("play b2")
    .completing(Arg::Move)
    .plays()
    .more(&[
        "b2 places a mark, b2=O chooses the mark (where the rulebook lets you),",
        "d drops into column d, b2-c2 moves a piece; upper case reads the same.",
    ]),
    cmd(
        "swap",
        "",
        "under the pie rule, take the first move's side: the seats exchange marks",
        |a| a.none().map(|()| Command::Play("swap".to_string())),
    )
    .plays()
    .more(&["Only as O's first move, and only with `pie on` (PI1)."]),
    cmd("legal", "", "every legal move", |a| a.none().map(|()| Command::Legal))
    .aka(&["moves"]),
    cmd(
        "undo",
        "",
        "take back the last move (against the computer, one of each side)",
        |a| a.none().map(|()| Command::Undo),
    )
    .aka(&["takeback"]),
    cmd("status", "", "who is to move, or the result", |a| a.none().map(|()| Command::Status)),
    cmd("history", "", "the moves played so far", |a| a.none().map(|()| Command::History)),
    cmd(
        "ai",
        "[easy|medium|hard] | time <seconds>|default",
        "the computer makes one move for the side to move",
        |a| {
            if let ["time", rest @ ..] = &a.words()[..] {
                return match rest {
                    ["default"] => Ok(Command::Think(None)),
                    [t] => match seconds_in(t, 0.1..=60.0) {
                        Some(d) => Ok(Command::Think(Some(d))),
                        None => Err(a.usage(format!(
                            "time `{t}`: expected 0.1 to 60 seconds, or default"
                        ))),
                    },
                    _ => Err(a.usage("ai time needs seconds (0.1 to 60) or `default`")),
                };
            }
            let level = match a.optional("one level")? {
                Some(l) => l.parse::<Level>().map_err(|e| a.usage(e))?,
                None => Level::Hard,
            };
            Ok(Command::Ai(level))
        },
    )
    .example("ai hard")
    .more(&[
        "`ai time 2s` lets the computer think two seconds a move, by the",
        "clock, where its budget is a search (its moves then depend on the",
        "machine); `ai time default` goes back to the budget in playouts,",
        "under which a seed repeats every move. Exact methods and the",
        "threat search count nodes either way.",
    ])
    .completing(Arg::Word(LEVELS))
    .plays(),
    cmd(
        "hint",
        "[easy|medium|hard]",
        "the move the computer would make here, without playing it",
        |a| {
            let level = match a.optional("one level")? {
                Some(l) => l.parse::<Level>().map_err(|e| a.usage(e))?,
                None => Level::Hard,
            };
            Ok(Command::Hint(level))
        },
    )
    .example("hint")
    .completing(Arg::Word(LEVELS)),
    cmd(
        "vs",
        "<easy|medium|hard|off> [X|O]",
        "play against the computer (see `help vs`)",
        |a| {
            let (level, mark) = match a.words()[..] {
                [l] => (l, None),
                [l, m] => (l, Some(side(a, m)?)),
                _ => return Err(a.usage("which level?")),
            };
            match level {
                "off" if mark.is_some() => Err(a.usage("`vs off` takes no mark")),
                "off" => Ok(Command::Vs(None, None)),
                l => Ok(Command::Vs(Some(l.parse().map_err(|e| a.usage(e))?), mark)),
            }
        },
    )
    .aka(&["computer"])
    .example("vs hard O")
    .completing(Arg::Word(LEVELS))
    .more(&[
        "Before the first move you are seat 1: X or O is your mark, else the",
        "one seat 1 has in this game; the computer opens at once if it has X.",
        "In mid-game between two people, say which mark you keep: `vs hard X`;",
        "the computer takes the other seat and moves at once if it is to move.",
        "Against the computer, `vs medium` changes its level and you keep your",
        "side. The score stays with the seats: the computer plays under",
        "its seat's name. `vs off` hands both seats back to people.",
    ]),
    cmd(
        "first",
        "<1|2|name>",
        "who plays X, and so moves first, in this game: before its first move",
        |a| Ok(Command::First(a.rest("which seat: 1, 2 or a name?")?.to_string())),
    )
    .example("first 2")
    .completing(Arg::Word(&["1", "2"]))
    .more(&[
        "Two people choose who is X before the first game; `again` then passes",
        "X to the other seat while `alternate` is on.",
    ]),
    cmd(
        "resign",
        "[X|O]",
        "resign the game (the side to move, or your side against the computer)",
        |a| {
            let by = match a.optional("one side")? {
                Some(w) => Some(side(a, w)?),
                None => None,
            };
            Ok(Command::Resign(by))
        },
    )
    .completing(Arg::Word(&["X", "O"])),
    cmd(
        "draw",
        "offer|accept|decline",
        "offer a draw, or answer one (a move declines it)",
        |a| {
            let action = match a.words()[..] {
                ["offer"] => DrawAction::Offer,
                ["accept"] => DrawAction::Accept,
                ["decline"] => DrawAction::Decline,
                _ => return Err(a.usage("offer, accept or decline?")),
            };
            Ok(Command::Draw(action))
        },
    )
    .example("draw offer")
    .completing(Arg::Word(&["offer", "accept", "decline"])),
    cmd(
        "again",
        "",
        "the next game on the same rulebook; keeps the score",
        |a| a.none().map(|()| Command::Again),
    )
    .aka(&["rematch"]),
    cmd(
        "score",
        "",
        "the score by seat; a draw counts half",
        |a| a.none().map(|()| Command::Score),
    ),
    cmd("name", "<1|2> <name>", "name a seat", |a| {
        let Some((seat, name)) = a
            .rest("which seat (1 or 2), and what name?")?
            .split_once(' ')
        else {
            return Err(a.usage("which seat (1 or 2), and what name?"));
        };
        let seat = match seat {
            "1" => 0,
            "2" => 1,
            _ => return Err(a.usage("which seat (1 or 2), and what name?")),
        };
        let name = name.trim();
        if name.chars().count() > MAX_NAME {
            return Err(a.usage(format!("a name has at most {MAX_NAME} characters")));
        }
        if name == "1" || name == "2" {
            return Err(a.usage("`1` and `2` name the seats already"));
        }
        Ok(Command::Name(seat, name.to_string()))
    })
    .aka(&["seat"])
    .example("name 1 Alice")
    .completing(Arg::Word(&["1", "2"])),
    cmd(
        "clock",
        "<seconds>|off",
        "the time per move (see `help clock`)",
        |a| match a.one("how many seconds?", "one number, or off")? {
            "off" => Ok(Command::Clock(None)),
            n => match n.parse::<u32>() {
                Ok(n) if n > 0 => Ok(Command::Clock(Some(n))),
                _ => Err(a.usage(format!("`{n}`: expected seconds per move, or off"))),
            },
        },
    )
    .example("clock 30")
    .completing(Arg::Word(&["off"]))
    .more(&[
        "Set before any person has moved, or after the result for the next game;",
        "it holds for later games. The clock starts at the first move (or at",
        "`ready`); `pause` and `resume` hold it. A side whose time runs out gets",
        "a random legal move (T2).",
    ]),
    cmd(
        "ready",
        "",
        "start the clock now, before the first move",
        |a| a.none().map(|()| Command::Ready),
    )
    .aka(&["start"]),
    cmd(
        "pause",
        "",
        "hold the clock (a player is away); `resume` runs it again",
        |a| a.none().map(|()| Command::Pause),
    ),
    cmd(
        "resume",
        "",
        "run the held clock again, with the time that was left",
        |a| a.none().map(|()| Command::Resume),
    ),
    cmd(
        "alternate",
        "on|off",
        "whether `again` passes X and the first move to the other seat (G5)",
        |a| Ok(Command::Alternate(a.switch()?)),
    )
    .example("alternate off")
    .completing(Arg::Word(ON_OFF)),
    cmd(
        "pie",
        "on|off",
        "the pie rule, before the first move: O may answer it with `swap` (PI1)",
        |a| Ok(Command::Pie(a.switch()?)),
    )
    .example("pie on")
    .completing(Arg::Word(ON_OFF)),
    cmd(
        "wait",
        "<seconds>",
        "let time pass on batch mode's clock (for testing the clock)",
        |a| {
            let n = a.one("how many seconds?", "one number")?;
            let seconds = n
                .parse()
                .map_err(|_| a.usage(format!("`{n}`: expected whole seconds")))?;
            Ok(Command::Wait(seconds))
        },
    )
    .example("wait 16")
    .virtual_clock(),
    cmd(
        "seed",
        "<number>",
        "seed the randomness (computer moves, timed-out moves)",
        |a| {
            let n = a.one("which seed?", "one number")?;
            let seed = n
                .parse()
                .map_err(|_| a.usage(format!("`{n}`: expected a whole number")))?;
            Ok(Command::Seed(seed))
        },
    )
    .example("seed 42"),
    cmd(
        "save",
        "[--force] <file>",
        "save the game as a record that `open` reads",
        |a| {
            let (path, force) = a.forced_path()?;
            Ok(Command::Save { path, force })
        },
    )
    .example("save game.toml")
    .completing(Arg::File)
    .unlogged(),
    cmd("open", "<file>", "open a saved game record", |a| Ok(Command::Open(a.path()?)))
    .example("open game.toml")
    .completing(Arg::File),
    cmd(
        "record",
        "[--force] <file>|off",
        "record this session as a transcript that batch mode replays",
        |a| match a.rest("which file?")? {
            "off" => Ok(Command::RecordOff),
            _ => {
                let (path, force) = a.forced_path()?;
                Ok(Command::Record { path, force })
            }
        },
    )
    .example("record session.txt")
    .completing(Arg::File)
    .unlogged()
    .more(&[
        "Writes the session so far, and keeps the file up to date after every",
        "command until `record off`.",
    ]),
    cmd(
        "position",
        "",
        "the position as one line of text that `setup` accepts",
        |a| a.none().map(|()| Command::Position),
    )
    .aka(&["fen"]),
    cmd(
        "setup",
        "<position>",
        "start a game from a position text (see `position`)",
        |a| Ok(Command::Setup(a.rest("which position?")?.to_string())),
    )
    .example("setup X2/1O1/3 X"),
    cmd(
        "perft",
        "<depth>",
        "count the move sequences of that length from here",
        |a| {
            let d = a.one("which depth?", "one depth")?;
            match d.parse::<u32>() {
                Ok(d) if d <= 20 => Ok(Command::Perft(d)),
                _ => Err(a.usage(format!("depth `{d}`: expected a number from 0 to 20"))),
            }
        },
    )
    .example("perft 4")
    .long()
    .more(&["Ctrl-C stops it."]),
    cmd(
        "solve",
        "[seconds]",
        "the value under perfect play, and the moves that keep it",
        |a| {
            let within = match a.optional("one number of seconds")? {
                None => Duration::from_secs_f64(SOLVE_SECONDS),
                Some(w) => match seconds_in(w, 0.1..=3600.0) {
                    Some(d) => d,
                    None => {
                        return Err(a.usage(format!("seconds `{w}`: expected 0.1 to 3600")));
                    }
                },
            };
            Ok(Command::Solve(within))
        },
    )
    .example("solve 5")
    .long()
    .more(&[
        "Exact or nothing: `solve: X wins in 7 — b2 c3` (plies to the end, then",
        "the moves that keep the win), `solve: draw — ...`, or `too large`.",
        "Games with a repetition rule are solved over every reachable",
        "position; others by alpha-beta. Default: 10 s. Ctrl-C stops it.",
    ]),
    cmd(
        "arena",
        "<rulebook> <player> <player> [games] [--seed N] [--playouts N|--time S]",
        "a match between two players, sides alternating",
        |a| {
            let words = a.words();
            let mut plain = Vec::new();
            let mut seed = ARENA_SEED;
            let mut budget = None;
            let mut i = 0;
            while i < words.len() {
                let value = words.get(i + 1).copied();
                match words[i] {
                    "--seed" => {
                        let Some(n) = value.and_then(|w| w.parse::<u64>().ok()) else {
                            return Err(a.usage("--seed needs a number"));
                        };
                        seed = n;
                    }
                    "--playouts" | "--time" if budget.is_some() => {
                        return Err(a.usage("one budget: --playouts or --time"));
                    }
                    "--playouts" => match value.and_then(playouts_of) {
                        Some(n) => budget = Some(Budget::Playouts(n)),
                        None => return Err(a.usage("--playouts needs 100 to 10000000")),
                    },
                    "--time" => match value.and_then(|w| seconds_in(w, ARENA_SECONDS)) {
                        Some(d) => budget = Some(Budget::Time(d)),
                        None => return Err(a.usage("--time needs 0.01 to 600 seconds a move")),
                    },
                    w => {
                        plain.push(w);
                        i += 1;
                        continue;
                    }
                }
                i += 2;
            }
            let (rulebook, first, second, games) = match plain[..] {
                [r, p, q] => (r, p, q, ARENA_GAMES),
                [r, p, q, g] => match g.parse::<u32>() {
                    Ok(n) if (1..=100_000).contains(&n) => (r, p, q, n),
                    _ => return Err(a.usage(format!("games `{g}`: expected 1 to 100000"))),
                },
                [] => return Err(a.usage("a match needs a rulebook and two players")),
                [_] | [_, _] => return Err(a.usage("a match needs two players")),
                _ => return Err(a.usage("too many words: at most the number of games follows")),
            };
            // `hard`, or with its own budget: `hard@500000`, `hard@2s`.
            let player = |w: &str| {
                // A program's path may hold an `@` itself: only a suffix
                // after a level, or one that reads as a budget, is one.
                let (name, own) = match w.rsplit_once('@') {
                    Some((name, b))
                        if budget_of(b).is_some()
                            || (!name.contains('/') && name.parse::<Player>().is_ok()) =>
                    {
                        (name, Some(b))
                    }
                    _ => (w, None),
                };
                let player = name
                    .parse::<Player>()
                    .map_err(|e| a.usage(e))?;
                let own = match own {
                    None => None,
                    Some(b) => Some(budget_of(b).ok_or_else(|| {
                        a.usage(format!(
                            "budget `{b}` of `{w}`: expected 100 to 10000000 playouts or seconds (`2s`)"
                        ))
                    })?),
                };
                Ok::<_, ParseError>((player, own))
            };
            Ok(Command::Arena(ArenaMatch {
                rulebook: rulebook.to_string(),
                players: [player(first)?, player(second)?],
                games,
                seed,
                budget,
            }))
        },
    )
    .example("arena classic hard random 10")
    .long()
    .more(&[
        "Players: random, uct (plain UCT, hard's yardstick), easy, medium,",
        "hard, or a program's path (./bot: it reads `rules`, `position`,",
        "`legal`, `go` lines and answers a move; see the README). 20 games",
        "unless told. The first player has X in odd games, the second in",
        "even ones; games run on every core, each with its own seed",
        "(default 1), so a match repeats exactly. Prints wins, draws and",
        "losses of the first player, X's share of the points, and the Elo",
        "difference with its 95 % interval. Ctrl-C stops it after the games",
        "under way. Budget: the rulebook's playouts (`ai_playouts`) unless",
        "--playouts N or --time S (seconds a move, by the clock: the match",
        "then no longer repeats exactly) says otherwise; a player's own",
        "follows an @: hard@500000 (playouts a tree), hard@2s, ./bot@5s.",
    ]),
    cmd(
        "bench",
        "[rulebook] [seconds]",
        "random games for a while; prints playouts per second",
        |a| {
            let mut rulebook = None;
            let mut seconds = None;
            for w in a.words() {
                match w.parse::<f64>() {
                    Ok(x) if seconds.is_none() && x > 0.0 && x <= 3600.0 => seconds = Some(x),
                    Ok(_) => {
                        return Err(
                            a.usage(format!("seconds `{w}`: expected more than 0, at most 3600"))
                        );
                    }
                    Err(_) if rulebook.is_none() => rulebook = Some(w),
                    Err(_) => return Err(a.usage(format!("unexpected `{w}`"))),
                }
            }
            Ok(Command::Bench {
                rulebook: rulebook.map(str::to_string),
                seconds,
            })
        },
    )
    .example("bench gomoku 2")
    .completing(Arg::Rulebook)
    .unlogged()
    .long()
    .more(&["Ctrl-C stops it and reports what it measured."]),
    cmd(
        "check",
        "[rulebook|file|all]",
        "run a rulebook's documented examples; fails if any does",
        |a| {
            if a.words().first() == Some(&"--watch") {
                return Err(a.usage(
                    "--watch runs from the command line: gridrules check --watch <file.toml>",
                ));
            }
            Ok(Command::Check(a.optional("one rulebook at a time")?.map(str::to_string)))
        },
    )
    .example("check ultimate")
    .completing(Arg::Rulebook)
    .unlogged()
    .long(),
    cmd(
        "new-variant",
        "<name> [--from <rulebook>] [--dir <dir>]",
        "write a new rulebook, its script and a transcript that pass `check`",
        |a| {
            let words = a.words();
            let (mut name, mut from, mut dir) = (None, None, None);
            let mut i = 0;
            while i < words.len() {
                match (words[i], words.get(i + 1)) {
                    ("--from", Some(&w)) if from.is_none() => from = Some(w),
                    ("--dir", Some(&w)) if dir.is_none() => dir = Some(w),
                    ("--from" | "--dir", None) => {
                        return Err(a.usage(format!("{} needs a value", words[i])));
                    }
                    ("--from" | "--dir", Some(_)) => {
                        return Err(a.usage(format!("{} given twice", words[i])));
                    }
                    (w, _) if w.starts_with("--") => {
                        return Err(a.usage(format!("unknown option `{w}`")));
                    }
                    (w, _) if name.is_none() => {
                        name = Some(w);
                        i += 1;
                        continue;
                    }
                    (w, _) => return Err(a.usage(format!("unexpected `{w}`: one name"))),
                }
                i += 2;
            }
            let name = name.ok_or_else(|| a.usage("which name?"))?;
            Ok(Command::NewVariant {
                name: name.to_string(),
                from: from.map(str::to_string),
                dir: dir.map(str::to_string),
            })
        },
    )
    .example("new-variant my-game --from classic")
    .unlogged()
    .more(&[
        "Writes <name>.toml, <name>.rhai and <name>.txt (a transcript) into",
        "the current directory, or --dir, and runs their examples. The blank",
        "template is three in a row on 3×3, with a comment where each kind of",
        "rule goes; --from starts from a built-in or a rulebook file instead.",
        "Never replaces a file: if one is there, nothing is written.",
    ]),
    cmd("quit", "", "leave", |a| a.none().map(|()| Command::Quit))
    .aka(&["exit", "q"])
    .unlogged(),
];

/// The longest seat name: it must fit the score line on a terminal.
const MAX_NAME: usize = 24;

/// What `draw` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the pending offer.
    Accept,
    /// Decline the pending offer.
    Decline,
}

/// A command line read into data: which command, its arguments typed.
/// The session runs it (`Session::execute`); each variant is one entry of
/// [`COMMANDS`], whose doc says what it does.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `help`: every command, or the one named.
    Help(Option<String>),
    /// `variants`.
    Variants,
    /// `new`: a built-in rulebook or a file, or (`None`) the same one.
    New(Option<String>),
    /// `load`: the rulebook file.
    Load(PathBuf),
    /// `reload`.
    Reload,
    /// `rules`.
    Rules,
    /// `show`.
    Show,
    /// `play`, a bare move, or `swap`: the move as notation writes it.
    Play(String),
    /// `legal`.
    Legal,
    /// `undo`.
    Undo,
    /// `status`.
    Status,
    /// `history`.
    History,
    /// `ai`: one computer move at this level.
    Ai(Level),
    /// `ai time`: seconds a move by the clock, or (`None`) the rulebook's
    /// budget in playouts.
    Think(Option<Duration>),
    /// `hint`: the move the computer would make at this level.
    Hint(Level),
    /// `vs`: the computer's level (`None`: `vs off`), and the mark the
    /// person keeps, if said.
    Vs(Option<Level>, Option<Side>),
    /// `first`: the seat (`1`, `2`) or a seat's name, as typed.
    First(String),
    /// `resign`: the side that resigns, if said.
    Resign(Option<Side>),
    /// `draw`.
    Draw(DrawAction),
    /// `again`.
    Again,
    /// `score`.
    Score,
    /// `name`: the seat (0 for seat 1) and its new name.
    Name(usize, String),
    /// `clock`: seconds per move, or (`None`) no clock.
    Clock(Option<u32>),
    /// `ready`.
    Ready,
    /// `pause`.
    Pause,
    /// `resume`.
    Resume,
    /// `alternate`: on or off.
    Alternate(bool),
    /// `pie`: on or off.
    Pie(bool),
    /// `wait`: whole seconds.
    Wait(u32),
    /// `seed`.
    Seed(u64),
    /// `save`: the record's path, and whether to replace a file gridrules
    /// did not write.
    Save {
        /// The record's path.
        path: PathBuf,
        /// `--force`.
        force: bool,
    },
    /// `open`: the record's path.
    Open(PathBuf),
    /// `record`: the transcript's path, and whether to replace a file
    /// gridrules did not write.
    Record {
        /// The transcript's path.
        path: PathBuf,
        /// `--force`.
        force: bool,
    },
    /// `record off`.
    RecordOff,
    /// `position`.
    Position,
    /// `setup`: the position text.
    Setup(String),
    /// `perft`: the depth.
    Perft(u32),
    /// `solve`: the time it may take.
    Solve(Duration),
    /// `arena`.
    Arena(ArenaMatch),
    /// `bench`: the rulebook (`None`: the one loaded) and seconds to run.
    Bench {
        /// A built-in rulebook or a file.
        rulebook: Option<String>,
        /// Seconds to run, if said.
        seconds: Option<f64>,
    },
    /// `check`: a rulebook, a file or `all` (`None`: the one loaded).
    Check(Option<String>),
    /// `new-variant`.
    NewVariant {
        /// The new rulebook's name.
        name: String,
        /// The rulebook it starts from (`--from`), if any.
        from: Option<String>,
        /// The folder to write into (`--dir`), if not the current one.
        dir: Option<String>,
    },
    /// `quit`.
    Quit,
}

/// An `arena` match as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ArenaMatch {
    /// The rulebook: a built-in name or a file.
    pub rulebook: String,
    /// The two players, each with its own budget if it has one (`hard@2s`).
    pub players: [(Player, Option<Budget>); 2],
    /// Games to play.
    pub games: u32,
    /// The seed of the first game.
    pub seed: u64,
    /// The budget of players without their own; `None`: the rulebook's
    /// playouts.
    pub budget: Option<Budget>,
}

/// The command called `word` (or one of its aliases).
pub fn spec(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// A line that is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No command by that name, and not a move either. Holds the word.
    Unknown(String),
    /// The arguments do not fit. Holds the command and what is wrong.
    Usage(&'static CommandSpec, String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(w) => write!(f, "unknown command `{w}`: type `help` for the list"),
            ParseError::Usage(spec, why) => write!(f, "{why}: usage: {}", spec.usage()),
        }
    }
}

/// The words after a command's name, with readers that refuse what does
/// not fit with the command's usage.
#[derive(Debug)]
pub struct Args<'a> {
    spec: &'static CommandSpec,
    rest: &'a str,
}

impl<'a> Args<'a> {
    /// The words after `spec`'s name.
    pub fn new(spec: &'static CommandSpec, rest: &'a str) -> Args<'a> {
        Args {
            spec,
            rest: rest.trim(),
        }
    }

    /// The command's usage error: `why`, then how it is used.
    pub fn usage(&self, why: impl Into<String>) -> ParseError {
        ParseError::Usage(self.spec, why.into())
    }

    /// The words, split at white space.
    pub fn words(&self) -> Vec<&'a str> {
        self.rest.split_whitespace().collect()
    }

    /// No argument.
    pub fn none(&self) -> Result<(), ParseError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(self.usage(format!("`{}` takes no argument", self.spec.name)))
        }
    }

    /// At most one word; `many` says why more are refused.
    pub fn optional(&self, many: &str) -> Result<Option<&'a str>, ParseError> {
        match self.words()[..] {
            [] => Ok(None),
            [w] => Ok(Some(w)),
            _ => Err(self.usage(many)),
        }
    }

    /// Exactly one word; `missing` and `many` say what is wrong otherwise.
    pub fn one(&self, missing: &str, many: &str) -> Result<&'a str, ParseError> {
        match self.words()[..] {
            [] => Err(self.usage(missing)),
            [w] => Ok(w),
            _ => Err(self.usage(many)),
        }
    }

    /// Everything after the name, spaces kept (a name, a path, a position).
    pub fn rest(&self, missing: &str) -> Result<&'a str, ParseError> {
        if self.rest.is_empty() {
            Err(self.usage(missing))
        } else {
            Ok(self.rest)
        }
    }

    /// A file path: everything after the name.
    pub fn path(&self) -> Result<PathBuf, ParseError> {
        self.rest("which file?").map(PathBuf::from)
    }

    /// A file to write, after an optional `--force` (to replace a file
    /// that gridrules did not write).
    pub fn forced_path(&self) -> Result<(PathBuf, bool), ParseError> {
        let rest = self.rest("which file?")?;
        match rest.strip_prefix("--force") {
            Some(path) if path.starts_with(char::is_whitespace) => {
                Ok((PathBuf::from(path.trim()), true))
            }
            Some("") => Err(self.usage("which file?")),
            _ => Ok((PathBuf::from(rest), false)),
        }
    }

    /// `on` or `off`.
    pub fn switch(&self) -> Result<bool, ParseError> {
        match self.words()[..] {
            ["on"] => Ok(true),
            ["off"] => Ok(false),
            _ => Err(self.usage("on or off?")),
        }
    }
}

/// `X` or `O`, either case.
fn side(a: &Args<'_>, word: &str) -> Result<Side, ParseError> {
    match word {
        "X" | "x" => Ok(Side::X),
        "O" | "o" => Ok(Side::O),
        _ => Err(a.usage(format!("`{word}`: expected X or O"))),
    }
}

/// A move as notation writes it: cells in lower case, a chosen mark in
/// upper case (`B2=o` is `b2=O`).
fn normal_move(text: &str) -> String {
    match text.split_once('=') {
        Some((cell, mark)) => format!("{}={}", cell.to_lowercase(), mark.to_uppercase()),
        None => text.to_lowercase(),
    }
}

/// A parsed line: the command, its arguments, and the line as the
/// transcript keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// The command.
    pub spec: &'static CommandSpec,
    /// The words after its name.
    pub args: String,
    /// The line in its usual form: the command's name (not an alias) in
    /// lower case, or a bare move as notation writes it.
    pub text: String,
}

impl Invocation {
    /// The command with its arguments read.
    ///
    /// # Errors
    /// The arguments do not fit the command's usage.
    pub fn command(&self) -> Result<Command, ParseError> {
        (self.spec.parse)(&Args::new(self.spec, &self.args))
    }
}

/// Parses one command line (comments already removed, not empty): the
/// first word names a command, or the whole line is a move.
///
/// # Errors
/// The first word is neither a command nor a move.
pub fn parse(line: &str) -> Result<Invocation, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    // Commands and moves are written in lower case; upper case is read the
    // same (`STATUS`, `A1-A2`). Arguments keep their case (names, files).
    if let Some(spec) = spec(&word.to_lowercase()) {
        let text = if rest.is_empty() {
            spec.name.to_string()
        } else {
            format!("{} {rest}", spec.name)
        };
        return Ok(Invocation {
            spec,
            args: rest.to_string(),
            text,
        });
    }
    let mv = normal_move(word);
    if rest.is_empty() && gridrules_core::notation::looks_like_move(&mv) {
        let play = spec("play").expect("`play` is in the registry");
        return Ok(Invocation {
            spec: play,
            args: mv.clone(),
            text: mv,
        });
    }
    Err(ParseError::Unknown(word.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `line` and its arguments; `Err` for a line that is not a
    /// command or a usage error.
    fn usage_of(line: &str) -> Result<(), String> {
        let inv = parse(line).map_err(|e| e.to_string())?;
        inv.command().map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn names_and_aliases_are_unique_and_every_example_is_its_own_command() {
        let mut seen = std::collections::HashSet::new();
        for c in COMMANDS {
            for n in std::iter::once(&c.name).chain(c.aliases) {
                assert!(seen.insert(*n), "`{n}` names two commands");
            }
            let inv = parse(c.example).unwrap_or_else(|e| panic!("{}: {e}", c.example));
            assert_eq!(inv.spec.name, c.name, "{}", c.example);
            assert_eq!(parse(&inv.text), Ok(inv.clone()), "{}", c.example);
            // Every example reads without a usage error (the session's
            // tests run them).
            assert_eq!(usage_of(c.example), Ok(()), "{}", c.example);
        }
    }

    #[test]
    fn bare_moves_and_errors() {
        let text = |l: &str| parse(l).map(|i| (i.spec.name, i.text));
        assert_eq!(text("b2"), Ok(("play", "b2".into())));
        assert_eq!(text("b2-c2"), Ok(("play", "b2-c2".into())));
        assert_eq!(text("B2=o"), Ok(("play", "b2=O".into())));
        assert_eq!(text("A1-B2"), Ok(("play", "a1-b2".into())));
        assert_eq!(text("d"), Ok(("play", "d".into())));
        assert_eq!(text("STATUS"), Ok(("status", "status".into())));
        assert_eq!(text("computer hard"), Ok(("vs", "vs hard".into())));
        // A command or alias wins over a column of the same letter.
        assert_eq!(text("q"), Ok(("quit", "quit".into())));
        assert_eq!(
            parse("frobnicate"),
            Err(ParseError::Unknown("frobnicate".into()))
        );
        for bad in [
            "perft x",
            "legal now",
            "vs expert",
            "vs hard Z",
            "vs off X",
            "draw maybe",
            "clock 0",
            "name 3 Zed",
            "name 1 Abcdefghijklmnopqrstuvwxyz",
            "resign Q",
            "bench 0",
            "bench a b",
            "pie maybe",
            "seed -1",
            "wait x",
        ] {
            assert!(usage_of(bad).is_err(), "{bad}");
        }
        for good in ["vs off", "name 2 Ada Lovelace", "bench classic 0.01", "ai"] {
            assert_eq!(usage_of(good), Ok(()), "{good}");
        }
    }
}
