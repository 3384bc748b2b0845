//! The command registry: every command once, with its name, aliases,
//! usage, help text, what completes its argument, whether the transcript
//! keeps it, and how its arguments are read. Parsing, `help`, completion
//! and hints all read this one table.

use super::entry::{Arg, Ask, CommandSpec, Log, Parse, Place, Want};
use super::parsed::{Command, DrawAction};
use super::words::{self, normal_move, side};

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
        more: "",
        example: name,
        arg: Arg::NOTHING,
        log: Log::Always,
        plays: false,
        long: false,
        parse,
    }
}

/// What `vs` takes: a level, or `off`.
const LEVELS: &[&str] = &["easy", "medium", "hard", "off"];
/// What `ai` takes: a level, or `time`.
const AI_WORDS: &[&str] = &["easy", "medium", "hard", "time"];
/// What `hint` takes: a level.
const HINT_LEVELS: &[&str] = &["easy", "medium", "hard"];
const ON_OFF: &[&str] = &["on", "off"];
const SIDES: &[&str] = &["X", "O"];
/// What follows `vs`'s level: the person's mark.
const VS_THEN: &[(&str, &[&str])] = &[("easy", SIDES), ("medium", SIDES), ("hard", SIDES)];
/// What follows `ai time`.
const AI_THEN: &[(&str, &[&str])] = &[("time", &["default"])];
/// A built-in rulebook's name or a rulebook file.
const RULEBOOK: Place = Place::Rulebook(&[]);
/// `arena`'s rulebook, its two players, and the number of games.
const ARENA_PLACES: &[Place] = &[
    RULEBOOK,
    Place::WordOrFile(PLAYERS),
    Place::WordOrFile(PLAYERS),
    Place::Typed,
];
/// The players `arena` knows by name; any other is a program's path.
const PLAYERS: &[&str] = &["random", "uct", "easy", "medium", "hard"];

/// Every command, in the order `help` lists them.
pub static COMMANDS: &[CommandSpec] = &[
    cmd(
        "help",
        "[command]",
        "list the commands, or explain one",
        |a| {
            Ok(Command::Help(
                a.optional("one command at a time")?.map(str::to_string),
            ))
        },
    )
    .aka(&["?"])
    .example("help vs")
    .completing(Arg::Places(&[Place::Command], &[]))
    .unlogged(),
    cmd("variants", "", "list the built-in rulebooks", |a| {
        a.none().map(|()| Command::Variants)
    })
    .aka(&["rulebooks"]),
    cmd(
        "new",
        "[rulebook]",
        "a new game: on a built-in rulebook or a .toml file, or the same one",
        |a| {
            Ok(Command::New(a.rulebook()))
        },
    )
    .example("new ultimate")
    .completing(Arg::Places(&[RULEBOOK], &[])),
    cmd(
        "load",
        "<file.toml>",
        "load a rulebook from a file and start a game on it",
        |a| Ok(Command::Load(a.path()?)),
    )
    .example("load my-variant.toml")
    .completing(Arg::Kind(Want::Rulebook)),
    cmd(
        "reload",
        "",
        "read the rulebook file again and replay the game under it",
        |a| a.none().map(|()| Command::Reload),
    )
    .more(
        "Says `same game`, or the first move now refused or after which the \
         result (or the side to move) differs; the game then keeps the \
         moves before that point (a refused move) or up to it (a changed \
         result), under the new rules, and lists the moves dropped. A file \
         that does not load changes nothing. `new` alone keeps the rules as \
         loaded.",
    ),
    cmd(
        "rules",
        "",
        "the rules of the loaded rulebook, in words",
        |a| a.none().map(|()| Command::Rules),
    ),
    cmd("show", "", "draw the board", |a| {
        a.none().map(|()| Command::Show)
    })
    .aka(&["board"]),
    cmd(
        "play",
        "<move>",
        "play a move; a bare move works too (see `help play`)",
        |a| match a.words()[..] {
            [] => Err(a.usage("which move?")),
            // A quoted empty word is no part of a move (`play b2 ''`).
            ref words if words.iter().any(|w| w.trim().is_empty()) => {
                Err(a.usage("an empty word is no move"))
            }
            // Words apart are the session's to refuse, where the rulebook
            // can tell which move they meant (`c3 1+`: `c3/1+`).
            ref words => Ok(Command::Play(
                words.iter().map(|w| normal_move(w)).collect::<Vec<_>>().join(" "),
            )),
        },
    )
    .aka(&["move"])
    .example("play b2")
    .completing(Arg::Places(&[Place::Known(Ask::Moves)], &[]))
    .plays()
    .more(
        "b2 places a mark, b2=O chooses the mark (where the rulebook lets \
         you) and b2=L a piece's size (gobblet-gobblers), d drops into \
         column d, b2-c2 moves a piece, ^d or a1-e1 slides a line (where \
         the rulebook has slides), c3/2+ places and then turns a quadrant \
         (pentago), d6-d7xa1 removes a piece after a line (nine men's \
         morris); `legal` lists this rulebook's moves as written. Upper \
         case reads the same. Any line ending in --no-reply is played without the \
         computer's answer: its seat waits until `ai` plays for it (a \
         record writes this where Ctrl-C stopped the computer's reply).",
    ),
    cmd(
        "swap",
        "",
        "under the pie rule, take the first move's side: the seats exchange marks",
        |a| a.none().map(|()| Command::Play("swap".to_string())),
    )
    .plays()
    .more("Only as O's first move, under the pie rule: `pie on`, or a rulebook that has it (gomoku-swap) (PI1)."),
    cmd("legal", "", "every legal move", |a| {
        a.none().map(|()| Command::Legal)
    })
    .aka(&["moves"]),
    cmd(
        "undo",
        "",
        "take back the last move (against the computer, your last turn and its reply)",
        |a| a.none().map(|()| Command::Undo),
    )
    .aka(&["takeback"]),
    cmd(
        "redo",
        "",
        "play again what `undo` took back (against the computer, its reply too)",
        |a| a.none().map(|()| Command::Redo),
    )
    .plays()
    .more("Only while the game is on the line the moves were taken back from: another move, or another game, ends it."),
    cmd("status", "", "who is to move, or the result", |a| {
        a.none().map(|()| Command::Status)
    }),
    cmd("history", "", "the moves played so far", |a| {
        a.none().map(|()| Command::History)
    }),
    cmd(
        "ai",
        "[easy|medium|hard|time <seconds>|time default]",
        "the computer makes one move for the side to move",
        words::ai,
    )
    .example("ai hard")
    .more(
        "`ai time 2s` lets the computer think two seconds a move, by the \
         clock, where its budget is a search (its moves then depend on the \
         machine); `ai time default` goes back to the budget in playouts, \
         under which a seed repeats every move (a move the 6 s cap cuts \
         says so). Ctrl-C stops the computer thinking: nothing is played.",
    )
    .completing(Arg::Then(AI_WORDS, AI_THEN))
    .plays(),
    cmd(
        "hint",
        "[easy|medium|hard]",
        "the move the computer would make here, without playing it",
        |a| Ok(Command::Hint(words::level(a)?)),
    )
    .example("hint")
    .completing(Arg::Places(&[Place::Word(HINT_LEVELS)], &[]))
    .more(
        "It draws nothing from the seed: asked again it names the same \
         move, and `ai` at that level plays it (where the computer thinks \
         by the clock, `ai time`, a run may differ).",
    ),
    cmd(
        "vs",
        "<easy|medium|hard|off> [X|O]",
        "play against the computer (see `help vs`)",
        words::vs,
    )
    .aka(&["computer"])
    .example("vs hard O")
    .completing(Arg::Then(LEVELS, VS_THEN))
    .more(
        "Before the first move you keep your seat against the computer \
         (between two people you are seat 1): X or O is your mark, else \
         the one your seat has in this game; the computer opens at once if \
         it has X. In mid-game between two people, say which mark you keep: \
         `vs hard X`; the computer takes the other seat and moves at once \
         if it is to move. Against the computer, `vs medium` changes its \
         level and you keep your side. The score stays with the seats: the \
         computer plays under its seat's name. `vs off` hands both seats \
         back to people; points the computer won at a seat never named are \
         not handed to a person: the score starts afresh.",
    ),
    cmd(
        "first",
        "<1|2|name>",
        "who plays X, and so moves first, in this game: before its first move",
        |a| {
            Ok(Command::First(
                a.rest("which seat: 1, 2 or a name?")?.to_string(),
            ))
        },
    )
    .example("first 2")
    .completing(Arg::Places(&[Place::Known(Ask::Seats)], &[]))
    .more(
        "Two people choose who is X before the first game; `again` then \
         passes X to the other seat while `alternate` is on.",
    ),
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
    .completing(Arg::Places(&[Place::Known(Ask::OwnSides)], &[]))
    // Typed after the time ran out it meant the side the clock moved for,
    // and would have resigned for the other.
    .plays(),
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
    // As `resign`: an offer or an answer for the side to move.
    .plays()
    .example("draw offer")
    .completing(Arg::Places(&[Place::Known(Ask::DrawActions)], &[])),
    cmd(
        "again",
        "",
        "the next game on the same rulebook; keeps the score",
        |a| a.none().map(|()| Command::Again),
    )
    .aka(&["rematch"]),
    cmd("score", "", "the score by seat; a draw counts half", |a| {
        a.none().map(|()| Command::Score)
    }),
    cmd("name", "<1|2> <name>", "name a seat", words::name)
        .aka(&["seat"])
        .example("name 1 Alice")
        .completing(Arg::Places(&[Place::Word(&["1", "2"])], &[])),
    cmd(
        "clock",
        "[<seconds>|off]",
        "the time per move (see `help clock`)",
        |a| match a.optional("one number, or off")? {
            // Alone, what the clock is now.
            None => Ok(Command::ClockShown),
            // 0 is off, as a record's `clock = 0` says.
            Some("off" | "0") => Ok(Command::Clock(None)),
            Some(n) => match n.parse::<u64>() {
                Ok(s) => match u32::try_from(s) {
                    Ok(s) => Ok(Command::Clock(Some(s))),
                    // Too many for a clock: the limit says so.
                    Err(_) => Err(a.usage(format!(
                        "`{n}`: at most {} seconds per move (a day), or off",
                        gridrules_core::table::MAX_CLOCK
                    ))),
                },
                _ => Err(a.usage(format!(
                    "`{n}`: expected seconds per move (1 to {}), or off",
                    gridrules_core::table::MAX_CLOCK
                ))),
            },
        },
    )
    .example("clock 30")
    .completing(Arg::Places(&[Place::Word(&["off"])], &[]))
    .more(
        "Set before any person has moved, or after the result for the next \
         game; it holds for later games. The clock starts at the first move \
         (or at `ready`); `pause` and `resume` hold it. A side whose time \
         runs out gets a legal move at random, on wide boards one next to the \
         marks (T2).",
    ),
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
    .completing(Arg::Places(&[Place::Word(ON_OFF)], &[])),
    cmd(
        "pie",
        "on|off",
        "the pie rule, before the first move: O may answer it with `swap` (PI1)",
        |a| Ok(Command::Pie(a.switch()?)),
    )
    .example("pie on")
    .completing(Arg::Places(&[Place::Word(ON_OFF)], &[])),
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
    .more(
        "A record is a .toml file (`save game` writes game.toml). It may \
         replace the record this game was opened from or saved to; another \
         game's record, or a file gridrules did not write, only with \
         `--force`.",
    )
    // Logged, though it writes a file: a transcript that opens its own
    // record later must write it first (it replayed with `cannot read`).
    .example("save game.toml")
    .completing(Arg::Kind(Want::Record)),
    cmd("open", "<file>", "open a saved game record", |a| {
        Ok(Command::Open(a.path()?))
    })
    .example("open game.toml")
    .completing(Arg::Kind(Want::Record)),
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
    .completing(Arg::File(None))
    .unlogged()
    .more(
        "Writes the session so far, and keeps the file up to date after \
         every command until `record off`. Replaces a transcript this \
         session recorded, but not one of another session (or any other \
         file) without --force.",
    ),
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
    .example("setup X2/1O1/3 X")
    .more(
        "The text is the rulebook's own (the example is classic's 3×3): \
         `position` prints the current one, to copy and edit.",
    ),
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
    .more("Ctrl-C stops it."),
    cmd(
        "solve",
        "[seconds]",
        "the value under perfect play, and the moves that keep it",
        words::solve,
    )
    .example("solve 5")
    .long()
    .more(
        "Exact where it can be: `solve: X wins in 7 — b2 c3` (plies to the \
         end, then the moves that keep the win), `solve: draw — ...`, or \
         `too large`. Where a line wins and forces the reply but the game \
         is too large (qubic), a win made of threats the loser can only \
         answer: `solve: X wins in at most 11 — a2 (shown by threats; ...)`. \
         In any game too large, the moves that win at once are still \
         named: `solve: X wins in 1 — a5 (a win at once; ...)`. \
         Games with a repetition rule are solved over every \
         reachable position; others by alpha-beta. Where pieces are placed \
         and then stepped and too many positions are reachable, over a \
         table of every position on every core: minutes for the largest \
         (`solve 600` in teeko), with a bar; hard then plays from it. \
         Default: 10 s. Ctrl-C stops it.",
    ),
    cmd(
        "arena",
        "<rulebook> <player> <player> [games] [--seed N] [--playouts N|--time S] [--openings FILE] [--threads N] [--save DIR]",
        "a match between two players, sides alternating",
        words::arena,
    )
    .example("arena classic hard random 10")
    .completing(Arg::Places(ARENA_PLACES, words::ARENA_OPTIONS))
    .long()
    .more(
        "Players: random, uct (plain UCT, hard's yardstick), easy, medium, \
         hard, or a program's path (./bot: it reads `rules`, `position`, \
         `legal`, `go` lines and answers a move; ./pbrain-name: a Gomocup \
         brain, over its protocol; see docs/playing.md).\n\n\
         20 games unless told. The first player has X in odd games, the second in \
         even ones; games run on every core (unless --threads), each with its own seed \
         (default 1), so a match repeats exactly. Prints wins, draws and \
         losses of the first player, X's share of the points, and the Elo \
         difference with its 95 % interval. Ctrl-C stops it at once: the \
         games under way are not counted.\n\nBudget: the rulebook's playouts (`ai_playouts`) unless \
         --playouts N or --time S (seconds a move, by the clock: the match \
         then no longer repeats exactly) says otherwise; a player's own \
         follows an @: hard@500000 (playouts a tree), hard@2s, ./bot@5s (a \
         program thinks by the clock: seconds only); \
         a Gomocup brain's settings follow it, told as INFO lines: \
         ./pbrain-x@2s,MAX_DEPTH=12 (more after commas).\n\n\
         --openings FILE (.txt): each line a sequence of moves the games \
         start with, each played with both colours (games 1 and 2 the \
         first, 3 and 4 the next, round the list); moves in any case, `#` \
         starts a comment.\n\n\
         --threads N: games at once (default: one a core); by the clock \
         (--time S or a player's @Ns), each game's search gets the cores \
         its game has to itself, so --threads 1 plays one game at a time, \
         each move with every core, and the first line says how many \
         games ran at once.\n\n--save DIR: a record of each finished game in \
         DIR (game-01.toml, …; the folder is made if need be, and one \
         that holds a match's games already is refused), which `open` \
         replays; the games finished are saved when a player or a script \
         fails, or Ctrl-C stops the match.",
    ),
    cmd(
        "bench",
        "[rulebook] [seconds]",
        "random games for a while; prints playouts per second",
        words::bench,
    )
    .example("bench gomoku 2")
    .completing(Arg::Places(&[RULEBOOK, Place::Typed], &[]))
    .unlogged()
    .long()
    .more("Ctrl-C stops it and reports what it measured."),
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
            Ok(Command::Check(a.rulebook()))
        },
    )
    .example("check ultimate")
    .completing(Arg::Places(&[Place::Rulebook(&["all"])], &[]))
    .unlogged()
    .long(),
    cmd(
        "new-variant",
        "<name> [--from <rulebook>] [--dir <dir>]",
        "write a new rulebook, its script and a transcript that pass `check`",
        words::new_variant,
    )
    .example("new-variant my-game --from classic")
    .completing(Arg::Places(
        &[Place::Typed],
        &[("--from", RULEBOOK), ("--dir", Place::File(None))],
    ))
    .unlogged()
    .more(
        "Writes <name>.toml, <name>.rhai and <name>.txt (a transcript) into \
         the current directory, or --dir, and runs their examples. The \
         blank template is three in a row on 3×3, with a comment where each \
         kind of rule goes; --from starts from a built-in or a rulebook \
         file instead. Never replaces a file: if one is there, nothing is \
         written.",
    ),
    cmd("quit", "", "leave", |a| a.none().map(|()| Command::Quit))
        .aka(&["exit", "q"])
        .unlogged()
        .more(
            "Ctrl-D too. At the prompt, in the middle of a game no `save`, \
             `open` or `record` keeps, the first says the game would be lost \
             and the same line again leaves. Where `q` is a move (column q \
             of a board 17 wide where marks drop), it plays: leave by \
             `quit`.",
        ),
];

/// The command called `word` (or one of its aliases).
pub fn spec(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}
