//! Fuzzing, seeded so that a failure repeats: random command
//! streams against a batch session, and random mutations of rulebooks,
//! scripts, records and position texts. Nothing may panic, and a refused
//! command leaves the game as it was. Texts from outside full of control
//! characters and forged lines never reach the output raw, and
//! never start a line of it. CI runs a few thousand cases; the
//! long run is `cargo test -p gridrules-conformance --test fuzz -- --ignored`.

use gridrules::batch::step;
use gridrules::render::Style;
use gridrules::session::{Session, Setting};
use gridrules_core::playout::Rng;
use gridrules_core::{Rulebook, builtin, record};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Command words, with the arguments they may get (valid and not).
const WORDS: &[&str] = &[
    "help",
    "variants",
    "new",
    "rules",
    "show",
    "play",
    "swap",
    "legal",
    "undo",
    "status",
    "history",
    "ai",
    "vs",
    "first",
    "resign",
    "draw",
    "again",
    "score",
    "name",
    "clock",
    "ready",
    "pause",
    "resume",
    "alternate",
    "pie",
    "wait",
    "seed",
    "position",
    "setup",
    "perft",
    "check",
    "record",
    "save",
    "open",
    "load",
    "quit",
    "xyzzy",
    "#",
    "",
];
const ARGS: &[&str] = &[
    "",
    "X",
    "O",
    "x",
    "off",
    "on",
    "easy",
    "medium",
    "hard",
    "offer",
    "accept",
    "decline",
    "1",
    "2",
    "0",
    "-1",
    "15",
    "16",
    "99999999999",
    "Ada",
    "classic",
    "gomoku",
    "ultimate",
    "moving",
    "moving-jumps",
    "connect-four",
    "order-chaos",
    "pente",
    "connect6",
    "gomoku-swap",
    "qubic",
    "teeko",
    "three-mens-morris",
    "notakto",
    "wild",
    "misere",
    "--force",
    "\u{1b}[2J",
    "é",
    "=",
];

fn pick<'a>(rng: &mut Rng, list: &[&'a str]) -> &'a str {
    list[rng.below(list.len())]
}

/// A random cell name: mostly on small boards, sometimes off any board.
fn cell(rng: &mut Rng) -> String {
    let cols = if rng.below(8) == 0 { 27 } else { 9 };
    let col = (b'a' + rng.below(cols) as u8) as char;
    let rows = if rng.below(8) == 0 { 30 } else { 9 };
    format!("{col}{}", rng.below(rows) + 1)
}

/// One random line: a move, a command with arguments, or noise.
fn line(rng: &mut Rng, dir: &Path) -> String {
    match rng.below(10) {
        0..=3 => cell(rng),
        4 => format!("{}-{}", cell(rng), cell(rng)),
        5 => format!("{}={}", cell(rng), pick(rng, &["X", "O", "Z"])),
        6 => {
            // Files only inside the scratch directory.
            let word = pick(rng, &["save", "record", "open", "load", "record off"]);
            let file = pick(rng, &["g.toml", "s.txt", "r.toml", "missing.toml", ""]);
            format!("{word} {}", dir.join(file).display())
        }
        7 => {
            let n = rng.below(100);
            (0..n)
                .map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'))
                .collect()
        }
        _ => {
            let word = pick(rng, WORDS);
            let args: Vec<&str> = (0..rng.below(3)).map(|_| pick(rng, ARGS)).collect();
            match word {
                // Long by design, or reading files by name: kept small.
                "perft" => format!("perft {}", rng.below(3)),
                "check" | "record" | "save" | "open" | "load" => "status".to_string(),
                "setup" => format!("setup {}", pick(rng, SETUPS)),
                _ => format!("{word} {}", args.join(" ")),
            }
        }
    }
}

const SETUPS: &[&str] = &[
    "X2/1O1/3 X",
    "3/3/3 X - -",
    "XXX/OO1/3 O",
    "9/9/9/9/9/9/9/9/9 X - 5",
    "15/15/15/15/15/15/15/7X7/15/15/15/15/15/15/15 O",
    "x",
    "",
    "3/3/3 Q",
];

/// Runs `lines` random lines from `seed`; panics with the seed and line on
/// a panic or on a refused command that changed the game.
fn command_stream(seed: u64, lines: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(seed);
    let classic = Rulebook::builtin("classic").unwrap();
    let mut session = Session::new(classic, "classic", Setting::Batch);
    for n in 0..lines {
        let text = line(&mut rng, dir.path());
        let before = (
            session.game().moves().to_vec(),
            session.rulebook().position_text(session.game().position()),
        );
        let result = catch_unwind(AssertUnwindSafe(|| step(&mut session, &text, Style::BATCH)));
        let Ok(done) = result else {
            panic!("seed {seed}, line {n}: `{text}` panicked");
        };
        // A refused command changes nothing; the clock may have moved first.
        if done.failed && !done.text.contains("time ran out") {
            let after = (
                session.game().moves().to_vec(),
                session.rulebook().position_text(session.game().position()),
            );
            assert_eq!(
                before, after,
                "seed {seed}, line {n}: `{text}` was refused but changed the game:\n{}",
                done.text
            );
        }
    }
}

#[test]
fn random_command_streams() {
    for seed in 0..6 {
        command_stream(seed, 500);
    }
}

#[test]
#[ignore = "long: a hundred thousand lines"]
fn random_command_streams_long() {
    for seed in 100..300 {
        command_stream(seed, 500);
    }
}

/// `text` with a few random edits: characters dropped, doubled or replaced,
/// lines swapped, numbers changed.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(4) {
        if chars.is_empty() {
            break;
        }
        let i = rng.below(chars.len());
        match rng.below(6) {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, chars[i]),
            2 => {
                chars[i] = pick(rng, &["{", "}", "\"", "=", "\n", "[", "0", "9", "-", "é"])
                    .chars()
                    .next()
                    .unwrap()
            }
            3 => {
                let digits: String = (0..rng.below(12) + 1).map(|_| '9').collect();
                chars.splice(i..i, digits.chars());
            }
            4 => {
                let j = rng.below(chars.len());
                chars.swap(i, j);
            }
            _ => chars.truncate(i),
        }
    }
    chars.into_iter().collect()
}

/// Loads a mutated copy of every built-in rulebook, and of its script:
/// refused with a message, or loaded — never a panic.
fn rulebook_mutants(seed: u64, rounds: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(seed);
    let names: Vec<&str> = Rulebook::builtin_names().collect();
    for n in 0..rounds {
        let name = names[rng.below(names.len())];
        let toml = builtin::rulebook(name).unwrap();
        let script_name = toml
            .lines()
            .find_map(|l| l.strip_prefix("script = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap();
        let script = builtin::script(script_name).unwrap();
        let (toml, script) = if rng.below(2) == 0 {
            (mutate(&mut rng, toml), script.to_string())
        } else {
            (toml.to_string(), mutate(&mut rng, script))
        };
        let toml = toml.replace(script_name, "mutant.rhai");
        std::fs::write(dir.path().join("mutant.toml"), &toml).unwrap();
        std::fs::write(dir.path().join("mutant.rhai"), &script).unwrap();
        let loaded = catch_unwind(AssertUnwindSafe(|| {
            Rulebook::from_file(&dir.path().join("mutant.toml"))
        }));
        match loaded {
            Err(_) => {
                panic!("seed {seed}, round {n} ({name}): loading panicked:\n{toml}\n{script}")
            }
            Ok(Err(e)) => assert!(
                !e.to_string().is_empty(),
                "seed {seed}, round {n}: empty error"
            ),
            Ok(Ok(r)) => {
                // A mutant that loads still plays without a panic.
                let mut rng = Rng::new(seed + n as u64);
                let mut list = gridrules_core::MoveList::new();
                let mut pos = r.initial();
                for _ in 0..40 {
                    let Ok(Some(mv)) = r.random_move(&pos, &[], &mut rng, &mut list) else {
                        break;
                    };
                    match r.play(&pos, &[], mv) {
                        Ok(next) if !next.is_over() => pos = next,
                        _ => break,
                    }
                }
            }
        }
    }
}

#[test]
fn mutated_rulebooks_and_scripts() {
    rulebook_mutants(1, 60);
}

#[test]
#[ignore = "long: thousands of mutants"]
fn mutated_rulebooks_and_scripts_long() {
    rulebook_mutants(2, 3000);
}

/// A script made of pieces that attack the sandbox's bounds:
/// large arrays copied into closures and variables, values named many
/// times in the hooks, deep nesting, closures that capture themselves, and
/// `import`s of every kind (beside the script, out of the folder, absolute,
/// missing, cyclic, built-in).
fn hostile_script(rng: &mut Rng) -> String {
    let mut script = format!("let big = [];\nbig.pad({}, 0);\n", rng.below(99_000) + 1);
    for k in 0..=rng.below(4) {
        let piece = match rng.below(6) {
            0 => format!(
                "let keep = [];\nfor i in 0..{} {{ let copy = big; keep.push(|| copy); }}\n",
                rng.below(30)
            ),
            1 => (0..rng.below(20))
                .map(|i| format!("let copy{i} = big;\n"))
                .collect(),
            2 => format!(
                "fn named{k}() {{ let x = [];{} x }}\n",
                " x = big;".repeat(rng.below(200))
            ),
            3 => format!(
                "let deep = [];\nfor i in 0..{} {{ deep = [deep]; }}\n",
                rng.below(100)
            ),
            4 => "let f = 0;\nf = || f;\n".to_string(),
            _ => format!(
                "import \"{}\" as m{};\n",
                pick(
                    rng,
                    &[
                        "helpers",
                        "../outside",
                        "/etc/passwd",
                        "missing",
                        "cycle",
                        "lines",
                        "sub/../helpers"
                    ]
                ),
                rng.below(1000)
            ),
        };
        script.push_str(&piece);
    }
    script.push_str("fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n");
    script
}

/// Loads hostile scripts: each loads, or is refused with a message that
/// names one of the bounds — never a panic, and never an error that
/// blames something else.
fn hostile_scripts(seed: u64, rounds: usize) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("rules");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(root.path().join("outside.rhai"), "fn evil() { 1 }\n").unwrap();
    std::fs::write(dir.join("helpers.rhai"), "fn three() { 3 }\n").unwrap();
    std::fs::write(dir.join("cycle.rhai"), "import \"cycle\" as again;\n").unwrap();
    std::fs::write(
        dir.join("hostile.toml"),
        "name = \"hostile\"\ntitle = \"hostile\"\nscript = \"hostile.rhai\"\n[board]\nwidth = 3\nheight = 3\n",
    )
    .unwrap();
    let causes = [
        "used too much memory",
        "the top level leaves more than",
        "nests values deeper than",
        "is outside the rulebook's folder",
        "imports itself",
        "not found: there is no `missing.rhai`",
        "ran out of time",
    ];
    let mut rng = Rng::new(seed);
    for n in 0..rounds {
        let script = hostile_script(&mut rng);
        std::fs::write(dir.join("hostile.rhai"), &script).unwrap();
        let loaded = catch_unwind(AssertUnwindSafe(|| {
            Rulebook::from_file(&dir.join("hostile.toml"))
        }));
        match loaded {
            Err(_) => panic!("seed {seed}, round {n}: loading panicked:\n{script}"),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                let message = e.to_string();
                assert!(
                    causes.iter().any(|c| message.contains(c)),
                    "seed {seed}, round {n}: an unexpected cause: {message}\n{script}"
                );
            }
        }
    }
}

#[test]
fn hostile_scripts_are_bounded() {
    hostile_scripts(3, 40);
}

#[test]
#[ignore = "long: hundreds of hostile scripts"]
fn hostile_scripts_are_bounded_long() {
    hostile_scripts(4, 600);
}

/// Mutated records and position texts: refused or accepted, never a panic;
/// a position text that is accepted reads back the same.
fn text_mutants(seed: u64, rounds: usize) {
    let mut rng = Rng::new(seed);
    let names: Vec<&str> = Rulebook::builtin_names().collect();
    let rulebooks: Vec<Rulebook> = names
        .iter()
        .map(|n| Rulebook::builtin(n).unwrap())
        .collect();
    for n in 0..rounds {
        let i = rng.below(names.len());
        let (name, r) = (names[i], &rulebooks[i]);
        // A game a few random moves in, as a record and as a position text.
        let mut game = gridrules_core::Game::new(std::sync::Arc::new(r.clone()));
        let mut list = gridrules_core::MoveList::new();
        for _ in 0..rng.below(12) {
            let pos = *game.position();
            let Ok(Some(mv)) = r.random_move(&pos, game.moves(), &mut rng, &mut list) else {
                break;
            };
            if game.play(mv).is_err() || game.is_over() {
                break;
            }
        }
        let terms = record::Terms {
            x: Some("Ada".into()),
            o: None,
            clock: Some(15),
            pie: None,
        };
        let text = mutate(&mut rng, &record::to_text(&game, name, &terms));
        let opened = catch_unwind(AssertUnwindSafe(|| {
            record::parse(&text, "mutant.toml", Path::new(".")).is_ok()
        }));
        assert!(
            opened.is_ok(),
            "seed {seed}, round {n}: record panicked:\n{text}"
        );
        let position = mutate(&mut rng, &r.position_text(game.position()));
        let parsed = catch_unwind(AssertUnwindSafe(|| r.parse_position(&position).ok()));
        let Ok(parsed) = parsed else {
            panic!("seed {seed}, round {n} ({name}): position `{position}` panicked");
        };
        if let Some(pos) = parsed {
            let again = r.position_text(&pos);
            assert_eq!(
                r.parse_position(&again).ok(),
                Some(pos),
                "seed {seed}, round {n} ({name}): `{position}` read back otherwise as `{again}`"
            );
        }
    }
}

#[test]
fn mutated_records_and_positions() {
    text_mutants(3, 1500);
}

#[test]
#[ignore = "long: a hundred thousand mutants"]
fn mutated_records_and_positions_long() {
    text_mutants(4, 100_000);
}

/// Round trips along random games of every built-in rulebook: every
/// position reads back from its text, every legal move from its notation,
/// and the game from its record.
fn round_trips(seed: u64, games: usize) {
    let mut rng = Rng::new(seed);
    for name in Rulebook::builtin_names() {
        let r = std::sync::Arc::new(Rulebook::builtin(name).unwrap());
        for g in 0..games {
            let mut game = gridrules_core::Game::new(r.clone());
            let mut list = gridrules_core::MoveList::new();
            loop {
                let pos = *game.position();
                let text = r.position_text(&pos);
                // The text holds the position, not the way to it (the last
                // move, the number of moves once pieces move):
                // the same key, and the same text again.
                let back = r.parse_position(&text).ok();
                assert_eq!(
                    back.map(|p| (p.key(), r.position_text(&p))),
                    Some((pos.key(), text.clone())),
                    "{name}, game {g}: `{text}` reads back otherwise"
                );
                r.legal_moves(&pos, game.moves(), &mut list).unwrap();
                for &mv in list.iter() {
                    let written = r.move_text(mv);
                    assert_eq!(
                        r.parse_move(&pos, game.moves(), &written).ok(),
                        Some(mv),
                        "{name}, game {g}: `{written}` reads back otherwise in `{text}`"
                    );
                }
                if list.is_empty() || game.is_over() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                game.play(mv).unwrap();
                if game.moves().len() > 120 {
                    break;
                }
            }
            let terms = record::Terms {
                x: Some("Ada \"the\" first".into()),
                o: Some("Bob\tB.".into()),
                clock: None,
                pie: None,
            };
            let text = record::to_text(&game, name, &terms);
            let opened = record::parse(&text, "game.toml", Path::new(".")).unwrap_or_else(|e| {
                panic!("{name}, game {g}: its record does not open: {e}\n{text}")
            });
            assert_eq!(opened.game.moves(), game.moves(), "{name}, game {g}");
            assert_eq!(opened.game.position(), game.position(), "{name}, game {g}");
            assert_eq!(opened.game.ending(), game.ending(), "{name}, game {g}");
            assert_eq!(opened.terms, terms, "{name}, game {g}");
        }
    }
}

#[test]
fn positions_moves_and_records_round_trip() {
    round_trips(5, 4);
}

#[test]
#[ignore = "long: hundreds of games per rulebook"]
fn positions_moves_and_records_round_trip_long() {
    round_trips(6, 300);
}

// Text from outside: a rulebook's title, description, roles,
// refusals and examples, what its script prints, returns and throws, the
// names in a record and a name typed at the table, filled with control
// characters and with lines that pass for gridrules' own. The program's
// output must hold no raw control or bidi character (at a colour terminal:
// none but its own colours), and its stable lines must be those of the same
// session with harmless texts: none comes from outside.

/// Escape sequences a terminal obeys: colours (SGR, which gridrules' own
/// colours once let through), clearing, the window title, the clipboard,
/// the 8-bit CSI.
const ESCAPES: &[&str] = &[
    "\u{1b}[31m",
    "\u{1b}[8m",
    "\u{1b}[0m",
    "\u{1b}[1;34m",
    "\u{1b}[2J",
    "\u{1b}[H",
    "\u{1b}[A",
    "\u{1b}]0;title\u{7}",
    "\u{1b}]52;c;cHduZWQ=\u{1b}\\",
    "\u{9b}2J",
    "\u{1b}c",
];

/// Format characters that reorder or hide text, and the line separators.
const FORMATS: &[char] = &[
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200e}',
    '\u{200f}',
    '\u{061c}',
    '\u{200b}',
    '\u{2060}',
    '\u{feff}',
    '\u{e0041}',
    '\u{00ad}',
    '\u{2028}',
    '\u{2029}',
];

/// Lines of the batch contract, as text from outside would forge them.
const FORGERIES: &[&str] = &[
    "result: X wins — a1 b2 c3",
    "result: draw — a full board",
    "error: forged",
    "to move: O",
    "X plays a1",
    "O plays b2",
    "time ran out: X plays c3",
    "perft 1: 9",
    "playouts/s: 1",
    "a1 b1 c1",
    "3/3/3 X - -",
    "> b2",
];

/// One line of text with control characters: C0, DEL, C1, escape
/// sequences and format characters among words (no line break: a name as
/// typed).
fn control_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    for _ in 0..=rng.below(5) {
        match rng.below(6) {
            0 => text.push(char::from_u32(rng.below(0x20) as u32).unwrap()),
            1 => text.push(char::from_u32(0x7f + rng.below(0x21) as u32).unwrap()),
            2 => text.push_str(pick(rng, ESCAPES)),
            3 => text.push(FORMATS[rng.below(FORMATS.len())]),
            _ => text.push_str(pick(rng, &["Ada", "red", " ", "é", "名前", "x"])),
        }
    }
    // A line break would end a typed command; `#` starts a comment.
    text.replace(['\n', '#'], " ")
}

/// Text of several lines whose later lines forge the contract's, broken
/// by every line break there is, with control characters mixed in.
fn multi_line_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    if rng.below(3) == 0 {
        // Text that is a stable line by itself (a printed line).
        text.push_str(pick(rng, FORGERIES));
    } else {
        text.push_str(&control_text(rng));
    }
    for _ in 0..=rng.below(3) {
        text.push_str(pick(
            rng,
            &["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\n\n"],
        ));
        text.push_str(pick(rng, FORGERIES));
        if rng.below(2) == 0 {
            text.push_str(&control_text(rng));
        }
    }
    text
}

/// Either kind of hostile text.
fn outside_text(rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        control_text(rng)
    } else {
        multi_line_text(rng)
    }
}

/// `text` as the contents of a TOML basic string or a Rhai string
/// literal: the two read the same escapes (`\"`, `\\`, `\U0001F600`).
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => "\\\"".to_string(),
            '\\' => "\\\\".to_string(),
            c if c.is_ascii_graphic() || c == ' ' => c.to_string(),
            c => format!("\\U{:08X}", c as u32),
        })
        .collect()
}

/// The texts of one session: the rulebook's, the script's, the record's
/// and a typed name.
struct Texts {
    title: String,
    description: String,
    roles: [String; 2],
    occupied: String,
    off_board: String,
    example: String,
    printed: String,
    debugged: String,
    refused: String,
    thrown: String,
    names: [String; 2],
    typed: String,
}

impl Texts {
    fn hostile(rng: &mut Rng) -> Texts {
        // `{…}` would be a placeholder in a refusal: the rulebook would not load.
        let mut t = || outside_text(rng).replace(['{', '}'], "");
        // A title and roles are names: something to see comes first.
        let mut named = |name: &str| format!("{name} {}", t());
        Texts {
            title: named("title"),
            roles: [named("Order"), named("Chaos")],
            description: t(),
            occupied: t(),
            off_board: t(),
            example: t(),
            printed: t(),
            debugged: t(),
            refused: t(),
            thrown: t(),
            names: [t(), t()],
            // A name of at most 24 characters, as `name` takes.
            typed: format!("n{}", control_text(rng)).chars().take(20).collect(),
        }
    }

    fn harmless() -> Texts {
        let t = |what: &str| format!("the {what}");
        Texts {
            title: t("title"),
            description: t("description"),
            roles: [t("first role"), t("second role")],
            occupied: t("occupied refusal"),
            off_board: t("off-board refusal"),
            example: t("example"),
            printed: t("printed line"),
            debugged: t("debugged line"),
            refused: t("hook's refusal"),
            thrown: t("thrown message"),
            names: [t("first name"), t("second name")],
            typed: t("typed name"),
        }
    }

    /// Writes the rulebook, its script and a record into `dir`. The hook
    /// refuses c3, and throws on c2 as the first move.
    fn write(&self, dir: &Path) {
        let (toml, rhai) = (quoted, quoted);
        let rulebook = format!(
            "name = \"outside\"\ntitle = \"{}\"\ndescription = \"{}\"\nroles = [\"{}\", \"{}\"]\nscript = \"outside.rhai\"\n\n[board]\nwidth = 3\nheight = 3\n\n[refusals]\noccupied = \"{}\"\noff_board = \"{} {{text}}\"\n\n[[example]]\nrule = \"C1\"\ntext = \"{}\"\nmoves = \"b2\"\nexpect = \"to move: O\"\n",
            toml(&self.title),
            toml(&self.description),
            toml(&self.roles[0]),
            toml(&self.roles[1]),
            toml(&self.occupied),
            toml(&self.off_board),
            toml(&self.example),
        );
        let script = format!(
            "fn lines() {{\n    print(\"{}\");\n    debug(\"{}\");\n    lines::straight(3)\n}}\n\nfn wins(run) {{\n    run >= 3\n}}\n\nfn refuse(state, mv) {{\n    if mv.text == \"c3\" {{\n        return \"{}\";\n    }}\n    if mv.text == \"c2\" && state.history.len() == 0 {{\n        throw \"{}\";\n    }}\n}}\n",
            rhai(&self.printed),
            rhai(&self.debugged),
            rhai(&self.refused),
            rhai(&self.thrown),
        );
        let record = format!(
            "rulebook = \"outside.toml\"\nx = \"{}\"\no = \"{}\"\nmoves = \"b2\"\n",
            // A record's names are held to the `name` command's length.
            toml(&clip(&self.names[0])),
            toml(&clip(&self.names[1])),
        );
        std::fs::write(dir.join("outside.toml"), rulebook).unwrap();
        std::fs::write(dir.join("outside.rhai"), script).unwrap();
        std::fs::write(dir.join("record.toml"), record).unwrap();
    }

    /// The commands that show every text.
    fn commands(&self, dir: &Path) -> Vec<String> {
        let at = |f: &str| dir.join(f).display().to_string();
        [
            format!("load {}", at("outside.toml")),
            "rules".into(),
            "show".into(),
            // Thrown only on the first move, so that `legal` lists the rest.
            "c2".into(),
            "c3".into(),
            "b2".into(),
            "b2".into(),
            "z9".into(),
            format!("name 1 {}", self.typed),
            "score".into(),
            format!("check {}", at("outside.toml")),
            format!("open {}", at("record.toml")),
            "score".into(),
            "status".into(),
            "legal".into(),
            "a1".into(),
            "a2".into(),
            "b1".into(),
            "a3".into(),
            "c1".into(),
            "status".into(),
        ]
        .into()
    }
}

/// `text` cut to the longest name a record may hold.
fn clip(text: &str) -> String {
    text.chars()
        .take(gridrules_core::record::MAX_NAME)
        .collect()
}

/// Characters no output may hold raw (`edge::hidden`, spelt out here).
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c,
            '\u{00ad}'
            | '\u{061c}'
            | '\u{200b}'
            | '\u{200e}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{e0000}'..='\u{e007f}')
}

/// What kind of stable line `line` is, if it is one.
fn stable_kind(line: &str) -> Option<&'static str> {
    const PREFIXES: &[&str] = &[
        "result:",
        "error:",
        "to move:",
        "X plays",
        "O plays",
        "time ran out:",
        "perft ",
        "playouts/s:",
        "> ",
    ];
    if let Some(p) = PREFIXES.iter().find(|p| line.starts_with(**p)) {
        return Some(p);
    }
    // A list of moves (`legal`), or a position text.
    let cell = |w: &str| {
        let letters = w.trim_end_matches(|c: char| c.is_ascii_digit());
        !letters.is_empty()
            && letters.len() < w.len()
            && letters.chars().all(|c| c.is_ascii_lowercase())
    };
    if !line.is_empty() && line.split(' ').all(cell) {
        return Some("moves");
    }
    if line.split(' ').next().is_some_and(|w| w.contains('/')) {
        return Some("position");
    }
    None
}

/// Runs `texts`' session in a fresh `dir`, in `style`: its output.
fn outside_session(texts: &Texts, style: Style) -> String {
    let dir = tempfile::tempdir().unwrap();
    texts.write(dir.path());
    let classic = Rulebook::builtin("classic").unwrap();
    let mut session = Session::new(classic, "classic", Setting::Batch);
    let mut out = String::new();
    for line in texts.commands(dir.path()) {
        out.push_str(&step(&mut session, &line, style).text);
    }
    // The paths differ from run to run; they are gridrules' words anyway.
    out.replace(&dir.path().display().to_string(), "DIR")
}

fn outside_texts(seed: u64, cases: usize) {
    let mut rng = Rng::new(seed);
    let kinds = |out: &str| out.lines().filter_map(stable_kind).collect::<Vec<_>>();
    let expected = kinds(&outside_session(&Texts::harmless(), Style::BATCH));
    let color = Style {
        boards: true,
        color: true,
        width: Some(80),
    };
    let own = gridrules::edge::own_escapes();
    for n in 0..cases {
        let texts = Texts::hostile(&mut rng);
        let out = outside_session(&texts, Style::BATCH);
        let raw: Vec<char> = out.chars().filter(|&c| hidden(c)).collect();
        assert!(
            raw.is_empty(),
            "seed {seed}, case {n}: {raw:?} got through:\n{out}"
        );
        assert_eq!(
            kinds(&out),
            expected,
            "seed {seed}, case {n}: the stable lines differ from a harmless session's:\n{out}"
        );
        // At a colour terminal, the only escapes are gridrules' colours.
        let mut out = outside_session(&texts, color);
        for sgr in own {
            out = out.replace(sgr, "");
        }
        let raw: Vec<char> = out.chars().filter(|&c| hidden(c)).collect();
        assert!(
            raw.is_empty(),
            "seed {seed}, case {n}: at a colour terminal {raw:?} got through:\n{out:?}"
        );
    }
}

#[test]
fn texts_from_outside_never_control_the_terminal_or_forge_a_line() {
    outside_texts(7, 40);
}

#[test]
#[ignore = "long: hundreds of hostile rulebooks, scripts and records"]
fn texts_from_outside_never_control_the_terminal_or_forge_a_line_long() {
    outside_texts(8, 500);
}
