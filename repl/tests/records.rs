//! Game records (`save`, `open`) and session transcripts (`record`), through
//! the binary in batch mode, in a scratch directory.

mod common;

use std::path::Path;

fn batch(dir: &Path, input: &str) -> String {
    // Refusals are part of what these runs show: they go on regardless.
    let r = common::run_in(dir, &["--batch", "--keep-going"], input);
    assert_eq!(
        (r.code, r.err.as_str()),
        (0, ""),
        "batch mode reports on stdout and, told to keep going, exits 0"
    );
    r.out
}

#[test]
fn a_saved_game_opens_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(
        dir.path(),
        "new moving\nname 1 Ada\nname 2 Bob\na1\nb2\nc1\nsave game.toml\nnew gomoku\nopen game.toml\nposition\nhistory\nscore\n",
    );
    let text = std::fs::read_to_string(dir.path().join("game.toml")).unwrap();
    assert_eq!(
        text,
        "# gridrules game record: edit it freely, then `open` it\nrulebook = \"moving\"\nx = \"Ada\"\no = \"Bob\"\nclock = 0\nmoves = \"a1 b2 c1\"\n"
    );
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            "score: Ada (X) 0, Bob (O) 0 (0 games)",
            "1. a1 b2 2. c1",
            "3/1O1/X1X O 1,2 -"
        ]
    );
    // No temporary file is left beside the record.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["game.toml"]);
}

/// `save` replaces the record of the game it saves (opened from it, or
/// saved to it before), but another game's record only with `--force`: a
/// player's finished game was replaced by a new game of two moves. A name
/// without an extension is saved as a `.toml` record.
#[test]
fn save_keeps_another_games_record_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(dir.path(), "b2\na1\nc3\nsave game\n");
    assert!(out.ends_with("saved: game.toml\n"), "{out}");
    let first = std::fs::read_to_string(dir.path().join("game.toml")).unwrap();
    assert!(first.ends_with("moves = \"b2 a1 c3\"\n"), "{first}");
    let out = batch(dir.path(), "a2\nsave game.toml\n");
    assert!(
        out.ends_with("error: save: game.toml holds the record of another game: choose another name, or add `--force` to replace it\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("game.toml")).unwrap(),
        first
    );
    // Opened, played on and saved again: its own record.
    batch(dir.path(), "open game.toml\nb1\nsave game.toml\n");
    let again = std::fs::read_to_string(dir.path().join("game.toml")).unwrap();
    assert!(again.ends_with("moves = \"b2 a1 c3 b1\"\n"), "{again}");
    // Saved to two files, the game may replace either of them.
    let out = batch(
        dir.path(),
        "open game.toml\nsave other\nsave game.toml\nsave other.toml\n",
    );
    assert!(!out.contains("error:"), "{out}");
    // A folder is no record's name.
    let out = batch(dir.path(), "save games/\n");
    assert!(
        out.ends_with("error: save: games/: a record is a .toml file\n"),
        "{out}"
    );
    // A new game in the same session is another game.
    let out = batch(
        dir.path(),
        "open game.toml\nnew\nsave game.toml\nsave --force game.toml\n",
    );
    assert!(out.contains("holds the record of another game"), "{out}");
    let forced = std::fs::read_to_string(dir.path().join("game.toml")).unwrap();
    assert!(forced.ends_with("moves = \"\"\n"), "{forced}");
}

/// A refused move deep in a long `moves` line is quoted around its carets,
/// the line cut to 80 columns: a player's terminal wrapped the whole line,
/// and its rest read as line 5 of the file.
#[test]
fn a_long_line_is_quoted_around_the_refused_move() {
    let dir = tempfile::tempdir().unwrap();
    let moves = "a2 a6 c8 g4 b1 f2 i4 h3 e8 e6 d9 a9 a8 c4 i2 h6 f7 g1 c1 h2 a1 c9 g9 a7 b1 b2 b3 b4 b5 b6 b7 b8 b9";
    std::fs::write(
        dir.path().join("u.toml"),
        format!("rulebook = \"ultimate\"\nmoves = \"{moves}\"\n"),
    )
    .unwrap();
    let out = batch(dir.path(), "open u.toml\n");
    assert!(
        out.starts_with("error: u.toml:2:70: move 21 `a1`: the next move must be played in the centre board, d4–f6 (U3)\n"),
        "{out}"
    );
    let quoted: Vec<&str> = out.lines().skip(1).collect();
    assert!(quoted.iter().all(|l| l.chars().count() <= 80), "{out}");
    let (line, carets) = (quoted[1], quoted[2]);
    let at = carets.find("^^").expect("carets");
    assert_eq!(&line[at..at + 2], "a1", "{out}");
    assert!(line.contains("..."), "{out}");
    // A refused word itself longer than the line, in characters two
    // columns wide: its first part is shown.
    let long = "字".repeat(400);
    std::fs::write(
        dir.path().join("w.toml"),
        format!("rulebook = \"ultimate\"\nmoves = \"a2 {long} c8\"\n"),
    )
    .unwrap();
    let out = batch(dir.path(), "open w.toml\n");
    let quoted: Vec<&str> = out.lines().skip(1).collect();
    assert!(quoted.len() >= 3, "{out}");
    let columns = |l: &str| unicode_width::UnicodeWidthStr::width(l);
    assert!(quoted.iter().all(|l| columns(l) <= 80), "{out}");
}

#[test]
fn a_finished_game_keeps_its_result() {
    let dir = tempfile::tempdir().unwrap();
    batch(dir.path(), "b2\nresign\nsave done.toml\n");
    let text = std::fs::read_to_string(dir.path().join("done.toml")).unwrap();
    assert!(
        text.ends_with("moves = \"b2\"\nresult = \"X wins\"\nending = \"resigned\"\n"),
        "{text}"
    );
    let out = batch(dir.path(), "open done.toml\nstatus\nscore\n");
    assert!(
        out.ends_with(
            "result: X wins — O resigned\nscore: player 1 (X) 0, player 2 (O) 0 (0 games)\n"
        ),
        "{out}"
    );
}

/// A game `arena` cut short at its move limit opens as the tally counted
/// it, a draw, and that result is final, as a resignation is.
#[test]
fn a_game_stopped_at_a_match_s_move_limit_opens_as_a_final_draw() {
    let dir = tempfile::tempdir().unwrap();
    let record = "rulebook = \"classic\"\nmoves = \"b2 a1 c3\"\nresult = \"draw\"\nending = \"move-limit\"\n";
    std::fs::write(dir.path().join("cut.toml"), record).unwrap();
    let out = batch(dir.path(), "open cut.toml\nstatus\nundo\nsave again.toml\n");
    assert!(
        out.contains(
            "result: draw — stopped by the match after 3 moves\nerror: undo: a draw at a match's move limit is final; `again` starts the next game\n"
        ),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("again.toml")).unwrap();
    assert!(
        text.ends_with("result = \"draw\"\nending = \"move-limit\"\n"),
        "{text}"
    );
}

#[test]
fn a_damaged_record_is_refused_and_the_game_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "syntax.toml",
            "rulebook = \"classic\nmoves = \"b2\"\n",
            "syntax.toml:1:",
        ),
        (
            "move.toml",
            "rulebook = \"classic\"\nmoves = \"b2 a1 b2\"\n",
            "move.toml:2:16: move 3 `b2`: b2 is taken: a mark goes on an empty cell (C2)",
        ),
        (
            "offboard.toml",
            "rulebook = \"classic\"\nmoves = \"b2 d4\"\n",
            "offboard.toml:2:13: move 2 `d4`: d4 is off the board: it is 3×3 (C1)",
        ),
        (
            "rulebook.toml",
            "rulebook = \"nosuch\"\n",
            // Said "does not load", then "/dir/nosuch: cannot read the
            // rulebook: a rulebook is a .toml file".
            "rulebook.toml:1:12: rulebook `nosuch`: no built-in rulebook has that name (`variants` lists them), and a rulebook file is named with its .toml",
        ),
        (
            "nofile.toml",
            "rulebook = \"nosuch.toml\"\n",
            "nofile.toml:1:12: rulebook `nosuch.toml` does not load:",
        ),
        (
            "key.toml",
            "rulebook = \"classic\"\nplayers = 2\n",
            "key.toml:2:1: unknown field `players`",
        ),
        (
            "result.toml",
            "rulebook = \"classic\"\nmoves = \"b2\"\nresult = \"X wins\"\n",
            "result.toml:3:10: result `X wins`, but after these moves the game goes on",
        ),
        (
            "name.toml",
            "rulebook = \"classic\"\no = \"Bartholomew the Unhurried Third\"\n",
            "name.toml:2:5: o: a name has at most 24 characters",
        ),
        (
            "draw.toml",
            "rulebook = \"classic\"\nmoves = \"b2\"\nresult = \"draw\"\n",
            "draw.toml:3:10: result `draw`, but after these moves the game goes on (for a draw agreed write ending = \"agreed\")",
        ),
        // An ending was never read: a slip was refused as if none were
        // written, one the moves contradict passed.
        (
            "slip.toml",
            "rulebook = \"classic\"\nmoves = \"b2 a1 c3\"\nresult = \"O wins\"\nending = \"resignd\"\n",
            "slip.toml:4:10: ending `resignd`: expected one of line, full, no-moves, repetition, script, captures, stones, reduced, resigned, agreed, move-limit",
        ),
        (
            "ending.toml",
            "rulebook = \"classic\"\nmoves = \"a1 a2 b1 b2 c1\"\nresult = \"X wins\"\nending = \"full\"\n",
            "ending.toml:4:10: ending `full`, but the moves end the game by `line`",
        ),
        (
            "agreed.toml",
            "rulebook = \"classic\"\nmoves = \"b2 a1\"\nresult = \"X wins\"\nending = \"agreed\"\n",
            "agreed.toml:4:10: ending `agreed` with result `X wins`: an agreed result is a draw",
        ),
        (
            "limit.toml",
            "rulebook = \"classic\"\nmoves = \"b2 a1\"\nresult = \"O wins\"\nending = \"move-limit\"\n",
            "limit.toml:4:10: ending `move-limit` with result `O wins`: a game stopped at a match's move limit is a draw",
        ),
    ];
    for (name, text, _) in &cases {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let mut input = String::from("new four\na1\nb2\n");
    for (name, _, _) in &cases {
        input.push_str(&format!("open {name}\nposition\n"));
    }
    input.push_str("open missing.toml\nposition\n");
    let out = batch(dir.path(), &input);
    for (name, _, want) in &cases {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("error: {name}")))
            .unwrap_or_else(|| panic!("{name}: no error in\n{out}"));
        assert!(
            line.starts_with(&format!("error: {want}")),
            "{name}: {line}"
        );
    }
    assert!(out.contains("error: missing.toml: cannot read"), "{out}");
    // After every refusal the four-in-a-row game is still there, unchanged.
    let positions: Vec<&str> = out.lines().filter(|l| l.ends_with(" - -")).collect();
    assert_eq!(positions.len(), cases.len() + 1, "{out}");
    assert!(
        positions.iter().all(|p| *p == "4/4/1O2/X3 X - -"),
        "{positions:?}"
    );
}

#[test]
fn a_recorded_session_replays_exactly() {
    // `ai easy`: hard's search, cut by its time cap on a loaded machine,
    // once played another move in the replay than in the session.
    let dir = tempfile::tempdir().unwrap();
    let session = "seed 7\nnew classic\nvs hard O\nb2\ndraw offer\nc3\nwait 20\nstatus\nagain\nnew ultimate\nvs medium\ne5\nai easy\nresign\nscore\nhelp\nrecord session.txt\n";
    let first = batch(dir.path(), session);
    let transcript = std::fs::read_to_string(dir.path().join("session.txt")).unwrap();
    assert!(
        transcript.starts_with("# gridrules session transcript"),
        "{transcript}"
    );
    assert!(
        !transcript.contains("help") && !transcript.contains("record"),
        "{transcript}"
    );
    let replayed = batch(dir.path(), &transcript);
    // The replay starts with `seed` and `new classic` of its own; from the
    // first command on, it prints what the session printed.
    let from_vs = |s: &str| {
        s[s.find("you play O").unwrap()..s.find("commands (").unwrap_or(s.len())].to_string()
    };
    assert_eq!(from_vs(&replayed), from_vs(&first));
}

/// `record` rewrites a transcript of its own session (every line it held
/// is among the session's), never one of another session without
/// `--force`: the second session's `record` replaced the first's 82 lines
/// with its own 3.
#[test]
fn record_keeps_the_transcript_of_another_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.txt");
    batch(
        dir.path(),
        "b2\nrecord t.txt\na1\nrecord off\nc3\nrecord t.txt\n",
    );
    let first = std::fs::read_to_string(&path).unwrap();
    assert!(first.ends_with("b2\na1\nc3\n"), "{first}");
    let out = batch(dir.path(), "c1\nrecord t.txt\n");
    assert!(
        out.contains("t.txt: cannot write: the file holds the transcript of another session: choose another name, or add `--force` to replace it"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), first);
    batch(dir.path(), "c1\nrecord --force t.txt\n");
    let forced = std::fs::read_to_string(&path).unwrap();
    assert!(
        forced.ends_with("\nc1\n") && !forced.contains("b2"),
        "{forced}"
    );
}

#[test]
fn a_record_finds_its_rulebook_file_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("games")).unwrap();
    let rulebook = gridrules_core::builtin::rulebook("classic")
        .unwrap()
        .replace("name = \"classic\"", "name = \"mine\"");
    std::fs::write(dir.path().join("variants/mine.toml"), rulebook).unwrap();
    batch(
        dir.path(),
        "load variants/mine.toml\nb2\nsave games/g.toml\n",
    );
    let text = std::fs::read_to_string(dir.path().join("games/g.toml")).unwrap();
    assert!(
        text.contains("rulebook = \"../variants/mine.toml\""),
        "{text}"
    );
    // Opened from another directory, the record still finds the rulebook.
    let out = batch(&dir.path().join("games"), "open g.toml\nposition\n");
    assert!(out.starts_with("opened: g.toml, 1 move of mine"), "{out}");
    assert!(out.ends_with("3/1X1/3 O - -\n"), "{out}");
    // Saved again from there, and opened from the top, it still does.
    batch(&dir.path().join("games"), "open g.toml\nsave again.toml\n");
    let out = batch(dir.path(), "open games/again.toml\nposition\n");
    assert!(out.ends_with("3/1X1/3 O - -\n"), "{out}");
}

/// The line `moves = "…"` of a record, unquoted.
fn moves_field(record: &str) -> &str {
    let line = record
        .lines()
        .find(|l| l.starts_with("moves = "))
        .unwrap_or_else(|| panic!("no moves line in\n{record}"));
    line["moves = ".len()..].trim_matches('"')
}

#[test]
fn chosen_marks_and_dropped_marks_are_saved_as_written_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    // Wild: `b2=O` chooses the mark, a bare `a1` places the mover's own (O);
    // connect-four: `d` `d` `e` name columns, the marks land on d1 d2 e1.
    let cases = [
        (
            "wild",
            "b2=O\na1\nc3=X\n",
            "b2=O a1=O c3=X",
            "2X/1O1/O2 O - -",
        ),
        (
            "connect-four",
            "d\nd\ne\n",
            "d1 d2 e1",
            "7/7/7/7/3O3/3XX2 O - -",
        ),
    ];
    for (rulebook, moves, saved, position) in cases {
        let file = format!("{rulebook}.toml");
        let out = batch(
            dir.path(),
            &format!(
                "new {rulebook}\n{moves}position\nsave {file}\nnew classic\nopen {file}\nposition\n"
            ),
        );
        let positions: Vec<&str> = out.lines().filter(|l| l.ends_with(" - -")).collect();
        assert_eq!(positions, [position, position], "{rulebook}:\n{out}");
        let text = std::fs::read_to_string(dir.path().join(&file)).unwrap();
        assert!(
            text.contains(&format!("rulebook = \"{rulebook}\"\n")),
            "{text}"
        );
        assert_eq!(moves_field(&text), saved, "{rulebook}: {text}");
        // A record written by hand in the short forms opens the same way.
        let short = moves.split_whitespace().collect::<Vec<_>>().join(" ");
        std::fs::write(
            dir.path().join("short.toml"),
            format!("rulebook = \"{rulebook}\"\nmoves = \"{short}\"\n"),
        )
        .unwrap();
        let out = batch(dir.path(), "open short.toml\nposition\nhistory\n");
        let history = saved
            .split(' ')
            .collect::<Vec<_>>()
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            out.ends_with(&format!("{position}\n{history}\n")),
            "{rulebook}: {out}"
        );
    }
}

/// Pente's captures, a Connect6 game in the middle of a turn and a swapped
/// gomoku-swap game each save and open as they were: position (captures
/// included), history, whose turn and who sits at which mark.
#[test]
fn records_of_the_wider_family_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for (rulebook, moves) in [
        ("pente", "j10 k10 a1 l10 m10"),
        ("connect6", "j10 k10 k11 j11"),
        ("gomoku-swap", "h8 swap h9"),
    ] {
        let play: String = moves.split(' ').map(|m| format!("{m}\n")).collect();
        let before = batch(
            dir.path(),
            &format!(
                "new {rulebook}\nname 1 Ada\nname 2 Bob\n{play}save {rulebook}.toml\nposition\nhistory\nstatus\nscore\n"
            ),
        );
        let after = batch(
            dir.path(),
            &format!("new classic\nopen {rulebook}.toml\nposition\nhistory\nstatus\nscore\n"),
        );
        let tail =
            |out: &str| -> Vec<String> { out.lines().rev().take(4).map(str::to_string).collect() };
        assert_eq!(tail(&before), tail(&after), "{rulebook}");
    }
    // The pie rule chosen at the table travels with the record.
    let classic = batch(
        dir.path(),
        "new classic\npie on\nb2\nswap\na1\nsave pie.toml\nnew classic\nopen pie.toml\nhistory\n",
    );
    assert!(classic.ends_with("1. b2 swap a1\n"), "{classic}");
    assert!(
        std::fs::read_to_string(dir.path().join("pie.toml"))
            .unwrap()
            .contains("pie = true\n")
    );
    let swapped = batch(dir.path(), "open gomoku-swap.toml\nscore\n");
    assert!(
        swapped.contains("score: Ada (O) 0, Bob (X) 0"),
        "after the swap Bob plays X: {swapped}"
    );
}

/// A record without names leaves the seats' names as
/// they are.
#[test]
fn a_record_without_names_keeps_the_seats_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bare.toml"),
        "rulebook = \"classic\"\nmoves = \"b2 a1\"\n",
    )
    .unwrap();
    let out = batch(
        dir.path(),
        "name 1 Ada\nname 2 Bob\nopen bare.toml\nscore\n",
    );
    assert!(
        out.ends_with("score: Ada (X) 0, Bob (O) 0 (0 games)\n"),
        "{out}"
    );
}

/// A record's start position is checked as `setup`
/// checks it: a target board before any move is refused by both.
#[test]
fn a_record_start_is_checked_like_setup() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("sent.toml"),
        "rulebook = \"ultimate\"\nstart = \"9/9/9/9/9/9/9/9/9 X - 5\"\nmoves = \"\"\n",
    )
    .unwrap();
    let out = batch(
        dir.path(),
        "new ultimate\nsetup 9/9/9/9/9/9/9/9/9 X - 5\nopen sent.toml\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let reason =
        "target board 5 on an empty board: no move has sent the game there yet (U2): write `-`";
    assert!(
        lines.contains(&format!("error: setup: {reason}").as_str()),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error: ") && l.contains("sent.toml:2:") && l.contains(reason)),
        "{out}"
    );
}

/// From a review: `open` seats the record's players before the computer may
/// move, a table's `pie off` travels with the record, and saved names are
/// the seats' own, not how the computer is shown.
#[test]
fn opening_seats_before_the_computer_moves() {
    let dir = tempfile::tempdir().unwrap();
    batch(dir.path(), "new gomoku-swap\nh8\nswap\nsave s.toml\n");
    let out = batch(
        dir.path(),
        "new gomoku-swap\nvs easy X\nopen s.toml\nstatus\n",
    );
    assert!(
        !out.lines()
            .any(|l| l.starts_with("X plays") || l.starts_with("O plays")),
        "the computer moved for the person: {out}"
    );
    assert!(out.ends_with("to move: O\n"), "{out}");

    let out = batch(
        dir.path(),
        "new gomoku-swap\npie off\nh8\nsave p.toml\nopen p.toml\nswap\n",
    );
    assert!(
        out.ends_with(
            "error: swap: there is no pie rule at this table: `swap` is not a move here (PI1)\n"
        ),
        "{out}"
    );
    batch(dir.path(), "new classic\nvs easy O\nb2\nsave c.toml\n");
    let record = std::fs::read_to_string(dir.path().join("c.toml")).unwrap();
    // The seats were never named: a seat's number names no one.
    assert!(
        !record.contains("x = ") && !record.contains("o = ") && !record.contains("computer"),
        "{record}"
    );
}

/// From a walkthrough: opening a record against the computer relabelled
/// the seats — the record's `x = "player 1"` went to the computer's seat
/// (`player 1 (X, computer, hard)`), and a named person's to the computer
/// too (`Ada (computer, hard)` beside `Ada`). A person's seat keeps its
/// label; only a seat a person plays takes the record's name.
#[test]
fn opening_a_record_against_the_computer_keeps_the_seats_labels() {
    let dir = tempfile::tempdir().unwrap();
    let (old, named) = ("old.toml", "named.toml");
    std::fs::write(
        dir.path().join(old),
        "rulebook = \"classic\"\nx = \"player 1\"\no = \"player 2\"\nmoves = \"b2\"\n",
    )
    .unwrap();
    batch(dir.path(), &format!("name 1 Ada\nb2\nsave {named}\n"));
    for record in [old, named] {
        let out = batch(
            dir.path(),
            &format!("name 1 Ada\nvs hard O\nopen {record}\nscore\n"),
        );
        assert!(
            out.ends_with("score: Ada (O) 0, computer (X, hard) 0 (0 games)\n"),
            "{record}: {out}"
        );
    }
    // Between two people the record's names take their marks.
    let out = batch(dir.path(), &format!("open {named}\nscore\n"));
    assert!(
        out.ends_with("score: Ada (X) 0, player 2 (O) 0 (0 games)\n"),
        "{out}"
    );
}

/// `record` says what it does and keeps recording until `record
/// off`: the file follows every later command, the one that stops it aside.
#[test]
fn record_keeps_the_file_up_to_date_until_record_off() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(
        dir.path(),
        "b2\nrecord live.txt\na1\nstatus\nrecord off\nc3\nrecord off\n",
    );
    assert!(
        out.contains(
            "recording: live.txt (3 lines so far); every command is added until `record off`"
        ),
        "{out}"
    );
    assert!(
        out.contains("recorded: live.txt (5 lines); recording stopped"),
        "{out}"
    );
    assert!(
        out.ends_with("error: record off: nothing is being recorded\n"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.path().join("live.txt")).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines[1..], ["new classic", "b2", "a1", "status"], "{text}");
    assert!(lines[0].starts_with("seed "), "{text}");
}

/// The wrong kind of file is named as such, in one line, and the game in
/// progress stays: `load` of a saved game says to `open` it, `open` of a
/// rulebook says to `load` it (they printed every key the other format
/// lacks, or serde's "unknown field `board`").
#[test]
fn a_record_and_a_rulebook_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/classic.toml"),
        )
        .unwrap(),
    )
    .unwrap();
    let out = batch(
        dir.path(),
        "new classic\nb2\nsave game.toml\nload game.toml\nopen mine.toml\nposition\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "error: game.toml: this is a game record, not a rulebook: open it with `open game.toml`",
            "error: mine.toml: this is a rulebook, not a game record: play it with `load mine.toml`",
            "3/1X1/3 O - -",
        ],
        "{out}"
    );
}

/// From a walkthrough: a slip in a record gets the nearest name, as a
/// rulebook's does, and a file in a folder that does not exist is said to
/// be so (it was the system's `No such file or directory (os error 2)`),
/// as is a record that is not there.
#[test]
fn slips_in_records_and_missing_folders_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("r1.toml"),
        "rulebook = \"clasic\"\nmoves = \"b2\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("r2.toml"),
        "rulebook = \"classic\"\nclok = 0\nmoves = \"b2\"\n",
    )
    .unwrap();
    let out = batch(
        dir.path(),
        "b2\nopen r1.toml\nopen r2.toml\nsave nodir/x.toml\nrecord nodir/s.txt\n\
         open nofile.toml\nopen nofile\nposition\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    for help in ["did you mean `classic`?", "did you mean `clock`?"] {
        assert!(
            lines.contains(&format!("  = help: {help}").as_str()),
            "{out}"
        );
    }
    for file in ["nodir/x.toml", "nodir/s.txt"] {
        let said = format!("error: {file}: cannot write: there is no folder nodir");
        assert!(lines.contains(&said.as_str()), "{out}");
    }
    // A record that is not there: said as a rulebook's is.
    assert!(
        lines.contains(&"error: nofile.toml: cannot read: no such file"),
        "{out}"
    );
    // Named without its extension, as `save` names it: the same (it said
    // that a record is a .toml file).
    assert_eq!(
        lines
            .iter()
            .filter(|l| **l == "error: nofile.toml: cannot read: no such file")
            .count(),
        2,
        "{out}"
    );
    assert!(out.ends_with("3/1X1/3 O - -\n"), "{out}");
}

/// A folder with a space in its name: a path quoted, escaped as Tab
/// completes it (`my\ games/`), or left bare, names the same file, at the
/// prompt and on the command line.
#[test]
fn a_path_with_a_space_is_read_quoted_escaped_or_bare() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("my games");
    std::fs::create_dir(&games).unwrap();
    let r = common::run_in(
        dir.path(),
        &["--batch"],
        "b2\nsave \"my games/a.toml\"\nopen my\\ games/a.toml\nposition\nsave --force 'my games/a.toml'\nopen my games/a.toml\nposition\n",
    );
    assert_eq!(r.err, "", "{}", r.out);
    let positions: Vec<&str> = r.out.lines().filter(|l| l.starts_with("3/")).collect();
    assert_eq!(positions, ["3/1X1/3 O - -", "3/1X1/3 O - -"], "{}", r.out);
    for file in ["caro.toml", "caro.rhai"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/user")
            .join(file);
        std::fs::copy(from, games.join(file)).unwrap();
    }
    let r = common::run_in(dir.path(), &["check", "my games/caro.toml"], "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

/// A transcript keeps `save`: one that saves a game and opens it again
/// later replays, in a fresh directory, what the session printed (it
/// stopped at `open` with `cannot read`, the save left out).
#[test]
fn a_transcript_that_saves_and_opens_its_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let session = "seed 3\nnew classic\nrecord s.txt\nb2\nsave g\na1\nsave g\nopen g.toml\nundo\nhistory\nrecord off\n";
    let first = batch(dir.path(), session);
    let transcript = std::fs::read_to_string(dir.path().join("s.txt")).unwrap();
    assert_eq!(transcript.matches("\nsave g\n").count(), 2, "{transcript}");
    let fresh = tempfile::tempdir().unwrap();
    let replayed = batch(fresh.path(), &transcript);
    let from = |s: &str| s[s.find("saved: g.toml").unwrap_or_else(|| panic!("{s}"))..].to_string();
    assert!(!replayed.contains("error:"), "{replayed}");
    let first = from(&first);
    assert_eq!(
        from(&replayed),
        first[..first.find("recorded: s.txt").unwrap()]
    );
}

/// `open game` reads game.toml where no file `game` is, as `save game`
/// wrote it (it answered "did you mean `game.toml`?").
#[test]
fn open_takes_the_name_save_gave() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(dir.path(), "b2\nsave game\nnew\nopen game\nhistory\n");
    assert!(
        out.contains("opened: game.toml, 1 move of classic"),
        "{out}"
    );
    assert!(out.ends_with("1. b2\n"), "{out}");
}

/// `save .toml` names no record: refused (it wrote the hidden file
/// `.toml.toml`), and nothing is written.
#[test]
fn save_refuses_a_bare_extension() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(dir.path(), "b2\nsave .toml\n");
    assert!(
        out.contains("error: save: .toml: name the record, like game.toml"),
        "{out}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{out}");
}

/// A name quoted whole keeps an apostrophe inside it (`"Bob's game.toml"`
/// was saved as `Bobs game.toml`).
#[test]
fn a_quoted_name_keeps_its_apostrophe() {
    let dir = tempfile::tempdir().unwrap();
    let out = batch(dir.path(), "b2\nsave \"Bob's game.toml\"\n");
    assert!(out.contains("saved: Bob's game.toml"), "{out}");
    assert!(dir.path().join("Bob's game.toml").is_file(), "{out}");
}
