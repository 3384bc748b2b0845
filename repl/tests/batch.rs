//! The batch contract of DESIGN.md, through the real binary with stdin piped:
//! exact output lines, `error:` lines that change nothing, and the exit code.

mod common;

fn run(args: &[&str], input: &str) -> (String, String, i32) {
    let r = common::run_in(Path::new("."), args, input);
    (r.out, r.err, r.code)
}

use std::path::Path;

#[test]
fn piped_stdin_is_batch_mode_with_classic_loaded() {
    // G1 C3: X moves first; a completed column wins at once, and the result
    // names its cells; G3: nothing after, not even a list of moves.
    let (out, err, code) = run(&[], "status\na1\nb1\na2\nb2\na3\nstatus\nb3\nlegal\n");
    assert_eq!(
        out,
        "to move: X\nresult: X wins — a1 a2 a3\nresult: X wins — a1 a2 a3\nerror: b3: the game is over (X wins): no move is accepted after the result (G3)\nerror: legal: the game is over (X wins): no move is accepted after the result (G3)\n"
    );
    // Standard error says which input lines were refused: the output's
    // `error:` lines say why.
    assert_eq!(
        (err.as_str(), code),
        (
            "note: 2 of 9 commands were refused, on input lines 8 and 9\n",
            1
        )
    );
}

#[test]
fn legal_lists_every_move_on_one_line() {
    let (out, _, _) = run(&["--batch"], "legal\nb2\nlegal\nnew moving\nlegal\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "a1 b1 c1 a2 b2 c2 a3 b3 c3");
    assert_eq!(lines[1], "a1 b1 c1 a2 c2 a3 b3 c3");
    assert!(lines[2].starts_with("new game: moving"));
    assert_eq!(lines[3], "X: player 1, O: player 2; clock: off");
    assert_eq!(lines[4], "a1 b1 c1 a2 b2 c2 a3 b3 c3");
}

#[test]
fn refused_commands_print_one_error_line_and_change_nothing() {
    // G2: an occupied cell, a cell off the board, an unknown command, a bad
    // setup; the position is the same before and after.
    let (out, _, code) = run(
        &["--batch"],
        "b2\nposition\nb2\nd4\nfrobnicate\nperft x\nsetup XX1/3/3 O\nundo\nundo\nposition\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3/1X1/3 O - -");
    assert_eq!(
        lines[1],
        "error: b2 is taken: a mark goes on an empty cell (C2)"
    );
    assert_eq!(lines[2], "error: d4 is off the board: it is 3×3 (C1)");
    assert!(lines[3].starts_with("error: unknown command `frobnicate`"));
    assert!(lines[4].starts_with("error: depth `x`"));
    assert!(lines[5].starts_with("error: setup: wrong counts"));
    assert_eq!(lines[6], "undone: b2");
    assert_eq!(lines[7], "error: undo: no move has been played");
    assert_eq!(lines[8], "3/3/3 X - -");
    // The run went on, and its status says that commands were refused
    // (issue 26, item 13: it was 0); `--keep-going` makes it 0.
    assert_eq!(code, 1);
    let (kept, _, code) = run(
        &["--batch", "--keep-going"],
        "b2\nposition\nb2\nd4\nfrobnicate\nperft x\nsetup XX1/3/3 O\nundo\nundo\nposition\n",
    );
    assert_eq!((kept.as_str(), code), (out.as_str(), 0));
    let (_, _, code) = run(&["--batch"], "b2\nposition\n");
    assert_eq!(code, 0, "nothing refused");
    // A draw agreed before any move ends the game unscored (issue 26, item
    // 13: it counted as a game drawn).
    let (out, _, _) = run(&["--batch"], "draw offer\ndraw accept\nscore\n");
    assert!(
        out.contains("not scored: the draw was agreed before any move was played\nscore: player 1 (X) 0, player 2 (O) 0 (0 games)\n"),
        "{out}"
    );
    // A move that answers an offer says it declines it, as `draw decline`
    // does (it said nothing); the offerer's own move does not.
    let (out, _, _) = run(&["--batch"], "b2\ndraw offer\na1\nc3\n");
    assert!(
        out.ends_with("(a move declines)\nX's move declines the draw O offered (T3)\n"),
        "{out}"
    );
    // A draw command after the result is no move refused (it said "no
    // move is accepted after the result").
    let (out, _, _) = run(&["--batch"], "a1\nb1\na2\nb2\na3\ndraw offer\n");
    assert!(
        out.ends_with("error: draw: the game is over (X wins): there is no game left to draw; `again` starts the next game\n"),
        "{out}"
    );
    // `resign` after the result is not a move refused (issue 26, item 13:
    // it said "no move is accepted after the result").
    let (out, _, _) = run(&["--batch"], "a1\nb1\na2\nb2\na3\nresign\n");
    assert!(
        out.ends_with("error: resign: the game is over (X wins): there is nothing to resign; `again` starts the next game\n"),
        "{out}"
    );
    // Nor are `hint` and `solve`, which move nothing (a new user read
    // "no move is accepted" as `hint` refusing their move).
    let (out, _, _) = run(&["--batch"], "a1\nb1\na2\nb2\na3\nhint\nsolve\n");
    assert!(
        out.ends_with("error: hint: the game is over (X wins): there is no move left to suggest; `again` starts the next game\nerror: solve: the game is over (X wins): there is nothing left to solve; `again` starts the next game\n"),
        "{out}"
    );
}

/// A move typed in words apart is refused with the move they make
/// together, where that is legal (a player typed Pentago's `c3 1+`);
/// else as one move at a time, with commas where a turn is several marks.
#[test]
fn a_move_in_words_apart_is_named_joined() {
    let refusals = [
        (
            "pentago",
            "c3 1+",
            "error: `c3 1+`: a move is written without spaces: did you mean `c3/1+`?",
        ),
        (
            "pentago",
            "c3 9+",
            "error: `c3 9+`: one move at a time, written without spaces",
        ),
        (
            "classic",
            "b2 a1",
            "error: `b2 a1`: one move at a time, written without spaces",
        ),
        (
            "classic",
            "b 2",
            "error: `b 2`: a move is written without spaces: did you mean `b2`?",
        ),
        // A number run into a number is no suggestion: `a1 5` is no `a15`.
        (
            "gomoku",
            "a1 5",
            "error: `a1 5`: one move at a time, written without spaces",
        ),
        (
            "connect6",
            "play j10 k11",
            "error: `j10 k11`: one move at a time, written without spaces; the marks of one turn are joined by commas: `j10,k11`",
        ),
    ];
    for (rulebook, line, said) in refusals {
        let (out, _, _) = run(
            &["--batch", "--rules", rulebook],
            &format!("{line}\nposition\n"),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], said, "{rulebook}");
        // Nothing was played.
        assert!(lines[1].contains(" X "), "{rulebook}: {out}");
    }
    let (out, _, _) = run(
        &["--batch", "--rules", "nine-mens-morris"],
        "a1\nd5\nd1\ne5\ng1 xd5\n",
    );
    assert!(
        out.ends_with("error: `g1 xd5`: a move is written without spaces: did you mean `g1xd5`?\n"),
        "{out}"
    );
}

/// A hint the search's time cap cut short says so, as `ai`'s move does
/// (a variant author saw only a poor move). Slow by design: the cap is
/// 6 s.
#[test]
fn a_hint_cut_short_by_the_cap_says_so() {
    let dir = common::rulebook_dir(
        "slow",
        9,
        9,
        "fn lines() { lines::straight(5) }\nfn wins(run) { run >= 5 }\nfn refuse(state, mv) { let x = 0; for i in 0..20000 { x += i; } }\n",
    );
    let r = common::run_in(
        dir.path(),
        &["--batch", "--rules", "slow.toml"],
        "hint medium\n",
    );
    assert!(
        r.out.starts_with("hint: X could play ")
            && r.out
                .contains(" (medium) (medium stopped at its 6 s cap before its "),
        "{}",
        r.out
    );
}

/// Against the computer a person resigns for their own side only: naming
/// the computer's side scored the person a win the computer never gave.
#[test]
fn a_person_cannot_resign_for_the_computer() {
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        "vs hard O\nresign X\nscore\nresign\nscore\n",
    );
    assert!(
        out.contains(
            "error: resign: X is the computer's side (hard): you resign for your own, `resign O`\n\
                      score: player 1 (O) 0, computer (X, hard) 0 (0 games)\n\
                      result: X wins — O resigned\n\
                      score: player 1 (O) 0, computer (X, hard) 1 (1 game)\n"
        ),
        "{out}"
    );
    // Between two people either side may be resigned.
    let (out, _, _) = run(&["--batch"], "resign O\n");
    assert_eq!(out, "result: X wins — O resigned\n");
}

/// A move that wins at once is a win however large the game: `solve`
/// said "too large" on Pentago and Quixo positions `hint` won at once.
#[test]
fn solve_names_a_win_at_once_where_the_game_is_too_large() {
    for (rules, setup, win) in [
        ("pentago", "5O/6/X5/XO4/XO4/XO4 X - -", "a5"),
        // Pushing column e down brings X's e1 into the row as well.
        (
            "quixo",
            "5/5/5/XXXX1/OOOOX X - -",
            "e2-a2 or e2-e1 or e3-e1 or e4-e1 or e5-e1",
        ),
    ] {
        let each = if win.contains(" or ") { "each " } else { "" };
        let (out, _, code) = run(
            &["--batch", "--rules", rules],
            &format!("setup {setup}\nsolve 1\n"),
        );
        assert!(
            out.ends_with(&format!(
                "solve: X wins in 1 — {win} ({each}a win at once; the other moves are not valued)\n"
            )),
            "{rules}: {out}"
        );
        assert_eq!(code, 0, "{rules}");
    }
}

/// Where several moves win at once, `solve` names each (it named the
/// first alone, as if no other did).
#[test]
fn solve_names_every_win_at_once() {
    let (out, _, _) = run(
        &["--batch", "--rules", "pentago"],
        "setup OOO1OO/6/XXO1OO/XX4/XX4/XX4 X - -\nsolve 1\n",
    );
    assert!(
        out.ends_with(
            "solve: X wins in 1 — a5 or b5 (each a win at once; the other moves are not valued)\n"
        ),
        "{out}"
    );
}

#[test]
fn comments_and_blank_lines_are_ignored() {
    let (out, _, _) = run(
        &["--batch"],
        "# a comment\n\n   \nb2 # the centre\nstatus # who now\n",
    );
    assert_eq!(out, "to move: O\n");
}

#[test]
fn perft_and_bench_lines() {
    let (out, _, _) = run(
        &["--batch"],
        "perft 2\nnew ultimate\nperft 2\nbench four 0.2\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "perft 2: 72");
    assert_eq!(lines[3], "perft 2: 720");
    let last = lines.last().unwrap();
    let n: u64 = last
        .strip_prefix("playouts/s: ")
        .expect("bench ends with playouts/s")
        .parse()
        .unwrap();
    assert!(n > 0);
}

#[test]
fn position_round_trips_through_setup() {
    // M2: after four placements two pieces each remain in hand.
    let (out, _, _) = run(
        &["--batch", "--rules", "moving"],
        "a1\nb2\nc3\na3\nposition\n",
    );
    let text = out.lines().next().unwrap().to_string();
    assert_eq!(text, "O1X/1O1/X2 X 1,1 -");
    let (again, _, _) = run(
        &["--batch", "--rules", "moving"],
        &format!("setup {text}\nposition\nlegal\n"),
    );
    let lines: Vec<&str> = again.lines().collect();
    assert_eq!(lines[2], text);
    assert_eq!(lines[3], "b1 c1 a2 c2 b3");
}

#[test]
fn history_numbers_the_moves() {
    let (out, _, _) = run(&["--batch"], "history\nb2\na1\nc3\nhistory\n");
    assert_eq!(out, "no moves yet\n1. b2 a1 2. c3\n");
}

#[test]
fn a_bad_rulebook_on_the_command_line_fails_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, "name = \"bad\"\ntitle = \"t\"\nscript = \"k_in_a_row.rhai\"\n[board]\nwidth = 3\nheigth = 3\n").unwrap();
    let (out, err, code) = run(&["--batch", "--rules", path.to_str().unwrap()], "");
    assert_eq!(out, "");
    assert_eq!(code, 1);
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "error: {}:6:1: unknown key `heigth` in `[board]`",
            path.display()
        )),
        "{err}"
    );
    assert!(err.contains("6 | heigth = 3"), "{err}");
    assert!(err.contains("  | ^^^^^^ not a key of `[board]`"), "{err}");
    assert!(err.contains("= help: did you mean `height`?"), "{err}");
}

#[test]
fn unknown_arguments_are_refused() {
    let (_, err, code) = run(&["--frobnicate"], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown argument `--frobnicate`"));
}

#[test]
fn a_runaway_hook_refuses_the_move_and_the_session_goes_on() {
    let rulebook = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/rulebooks/run_loop_outcome.toml"
    );
    let input = format!("load {rulebook}\na1\nb1\na2\nposition\nstatus\nnew classic\nb2\nstatus\n");
    let (out, _, code) = run(&["--batch"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("new game: run-loop-outcome"), "{out}");
    let lines = &lines[1..]; // the seats and clock line
    assert!(
        lines[1].starts_with("error: ")
            && lines[1].contains("run_loop_outcome.rhai:")
            && lines[1].contains("script stopped in hook `outcome`"),
        "{out}"
    );
    // Then the hook's source line, drawn under the error line.
    let drawn = lines[2..]
        .iter()
        .take_while(|l| l.starts_with(|c: char| c == ' ' || c.is_ascii_digit()) && l.contains('|'))
        .count();
    assert!(drawn > 0, "{out}");
    let lines = &lines[drawn..];
    // The refused move left the game as it was: two marks, X to move.
    assert_eq!(lines[2], "3/3/XO1 X - -");
    assert_eq!(lines[3], "to move: X");
    assert!(lines[4].starts_with("new game: classic"));
    assert_eq!(lines[6], "to move: O");
    assert_eq!(code, 1, "the refused move sets the status");
}

#[test]
fn check_reports_each_example_and_fails_with_a_broken_rule() {
    let r = common::run_in(Path::new("."), &["check", "all"], "");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .lines()
            .all(|l| l.starts_with("pass ") || l.starts_with("check")),
        "{}",
        r.out
    );
    assert!(r.out.ends_with(" 0 failed\n"), "{}", r.out);

    // Classic with two in a row winning: its C3 and C4 examples must fail.
    let dir = tempfile::tempdir().unwrap();
    let classic = gridrules_core::builtin::rulebook("classic")
        .unwrap()
        .replacen("k = 3", "k = 2", 1);
    let path = dir.path().join("classic-k2.toml");
    std::fs::write(&path, classic).unwrap();
    let r = common::run_in(Path::new("."), &["check", path.to_str().unwrap()], "");
    assert_eq!(r.code, 1, "{}", r.out);
    // The report is output, failures and all (it went to stderr whole, so
    // `check … | grep FAIL` found nothing exactly when something failed);
    // the error alone is on stderr.
    assert!(
        r.out
            .contains("FAIL C3   classic: three in a row wins at once"),
        "{}",
        r.out
    );
    assert!(r.out.contains("\npass "), "{}", r.out);
    assert_eq!(r.err, "error: check: 5 examples failed\n");
}

/// A line that is not UTF-8 is one `error:` line, and
/// the run goes on with the game as it was.
#[test]
fn an_invalid_utf8_line_is_one_error_and_the_run_goes_on() {
    let r = common::run_bytes(&["--batch"], b"b2\n\xff\xfe a1\na1\nposition\n");
    assert_eq!(
        r.out,
        "error: line 2 is not UTF-8 text (bytes ff fe …): nothing was done\n3/1X1/O2 X - -\n"
    );
    assert_eq!(
        (r.err.as_str(), r.code),
        ("note: 1 of 4 commands was refused, on input line 2\n", 1)
    );
}

/// A clock past the longest says the longest.
#[test]
fn a_clock_too_long_names_the_limit() {
    let (out, _, _) = run(&["--batch"], "clock 86401\nclock 86400\n");
    assert_eq!(
        out,
        "error: clock 86401: at most 86400 seconds per move (a day), or off\nclock: 86400 s per move\n"
    );
}

/// `clock` alone says what the clock is (a new user got `error: how many
/// seconds?`): the time per move, and whether it waits or how long the
/// side to move has.
#[test]
fn clock_alone_shows_the_clock() {
    let (out, _, code) = run(
        &["--batch", "--rules", "gomoku"],
        "clock\nh8\nclock\nclock off\nnew\nclock off\nclock\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "clock: 15 s per move", "{out}");
    assert_eq!(lines[1], "it starts with the first move", "{out}");
    assert_eq!(
        lines[2], "`clock <seconds>` or `clock off` sets it now, before a person's first move",
        "{out}"
    );
    assert_eq!(lines[3], "clock: 15 s per move", "{out}");
    assert_eq!(lines[4], "O has 15 s left for this move", "{out}");
    assert_eq!(
        lines[5], "`clock <seconds>` or `clock off` sets the next game's, after the result",
        "{out}"
    );
    assert!(
        out.ends_with("clock: off\n`clock <seconds>` or `clock off` sets it now, before a person's first move\n"),
        "{out}"
    );
    // After the result: the next game's.
    let (over, _, _) = run(&["--batch"], "a1\nb1\na2\nb2\na3\nclock\n");
    assert!(
        over.ends_with("clock: 15 s per move\nthe game is over: `clock <seconds>` or `clock off` sets the next game's\n"),
        "{over}"
    );
    assert_eq!(code, 1, "the third, after a move, is refused: {out}");
}

/// In a swap opening, `undo` and `redo` name the mark a move placed where
/// it is the opponent's, as `history` and the `ai` line do.
#[test]
fn undo_and_redo_name_a_named_mark() {
    let (out, _, code) = run(
        &["--batch", "--rules", "../tests/user/swap1.toml"],
        "h8\nh9\nundo\nredo\nhistory\n",
    );
    assert_eq!(out, "undone: h9=O\nredone: h9=O\n1. h8,h9=O\n");
    assert_eq!(code, 0);
}

/// Where only the computer has moved (it opened as X), `vs <level> X`
/// takes its opening back and the person keeps its seat and points: the
/// marks are still to choose. Before, the person moved to the other seat
/// and the score started afresh (a new user lost 4.5 points so).
#[test]
fn choosing_x_after_the_computers_opening_keeps_the_score() {
    let (out, _, code) = run(
        &["--batch"],
        "a1\nb1\na2\nb2\na3\nagain\nvs easy O\nvs easy X\nstatus\nhistory\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("the computer's opening"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        &lines[at..],
        [
            "the computer's opening (1 move) is taken back: the table's choices are made before a person's first move",
            "you play X; the computer (easy) plays O",
            "score: player 1 (X) 1, computer (O, easy) 0 (1 game)",
            "to move: X",
            "no moves yet",
        ],
        "{out}"
    );
    assert!(!out.contains("starts afresh"), "{out}");
    assert_eq!(code, 0, "{out}");
    // A person's move on a side the computer then takes over is the
    // person's still: nothing is taken back, and the clock stays as it
    // was chosen (a review found a1 gone and `clock 5` taken mid-game, as
    // who moved was read off the seats of the moment).
    let (out, _, _) = run(&["--batch"], "a1\nvs hard O\nclock 5\nvs hard X\nhistory\n");
    assert!(!out.contains("taken back"), "{out}");
    assert!(
        out.contains("error: clock: the clock is set before a person's first move"),
        "{out}"
    );
    assert!(
        out.lines().last().is_some_and(|l| l.starts_with("1. a1 ")),
        "{out}"
    );
}

/// `pie on` and `first` after the computer's opening alone take it back
/// and are made, as `vs` and `clock` are; the computer opens again where
/// it still holds X. They were refused as after the first move.
#[test]
fn the_tables_choices_take_back_the_computers_opening() {
    let (out, _, code) = run(
        &["--batch"],
        "a1\nb1\na2\nb2\na3\nvs easy O\nagain\npie on\nstatus\n",
    );
    assert_eq!(code, 0, "{out}");
    let at = out
        .find("the computer's opening")
        .unwrap_or_else(|| panic!("{out}"));
    let lines: Vec<&str> = out[at..].lines().collect();
    assert_eq!(
        lines[0],
        "the computer's opening (1 move) is taken back: the table's choices are made before a person's first move"
    );
    assert_eq!(
        lines[1],
        "pie rule: on — after the first move, O may answer `swap` (PI1)"
    );
    // The computer opened again, and the person may swap.
    assert!(lines[2].starts_with("X plays "), "{out}");
    assert_eq!(
        *lines.last().unwrap(),
        "to move: O — may answer `swap` (pie rule)",
        "{out}"
    );
    // `first` with a seat that does not exist changes nothing.
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        "a1\nb1\na2\nb2\na3\nvs easy O\nagain\nfirst Zed\nhistory\nfirst 1\nstatus\n",
    );
    let at = out.find("error: first").unwrap_or_else(|| panic!("{out}"));
    let lines: Vec<&str> = out[at..].lines().collect();
    assert!(lines[1].starts_with("1. "), "the opening was kept: {out}");
    assert!(
        lines[2].starts_with("the computer's opening (1 move) is taken back"),
        "{out}"
    );
    assert_eq!(
        lines[3], "player 1 plays X and moves first; computer (easy) plays O",
        "{out}"
    );
    assert_eq!(*lines.last().unwrap(), "to move: X", "{out}");
    // A choice that changes nothing takes nothing back: the same pie
    // rule again, or X for the seat that has it (a review redrew the
    // computer's opening so, as often as it liked).
    let (out, _, _) = run(
        &["--batch"],
        "seed 1\nvs easy O\npie off\nfirst 2\nhistory\n",
    );
    assert!(!out.contains("taken back"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("X plays ")).count(),
        1,
        "one opening: {out}"
    );
    // Moves a person asked `ai` for on their own side are theirs: too late
    // (it took all four back).
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        "vs easy\nai easy\nai easy\npie on\nfirst 2\nhistory\n",
    );
    assert!(!out.contains("taken back"), "{out}");
    assert!(
        out.contains("error: pie: the pie rule is chosen before a person's first move"),
        "{out}"
    );
    assert!(out.ends_with("1. a1 a2 2. b2 c2\n"), "{out}");
    // After a person's move it is too late, as before.
    let (out, _, _) = run(&["--batch", "--keep-going"], "a1\nvs easy X\npie on\n");
    assert!(
        out.contains("error: pie: the pie rule is chosen before a person's first move"),
        "{out}"
    );
}

/// `undo` never leaves the computer to move with no
/// move of the person's to take back: the computer's opening stays, and the
/// person can play on.
#[test]
fn undo_never_strands_the_computer() {
    let (out, _, _) = run(
        &["--batch"],
        "vs hard O\nb2\nundo\nundo\nstatus\nc3\nstatus\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[lines.len() - 5..],
        [
            "undone: b1, b2",
            "error: undo: only the computer's opening move is left, and it would make it again; `new` starts over",
            "to move: O",
            "X plays c1",
            "to move: O",
        ][..],
        "{out}"
    );
}

/// `redo` plays again what `undo` took back, the computer's reply from
/// the line (not thought anew), and one mark at a time between people;
/// once another move leaves the line, or another game starts, it is
/// refused and changes nothing.
#[test]
fn redo_plays_the_undone_line_until_it_is_left() {
    let (out, _, _) = run(
        &["--batch"],
        "vs medium O\nb2\nundo\nhistory\nredo\nhistory\nredo\nundo\nc3\nredo\nhistory\nnew\nredo\n",
    );
    let kept: Vec<&str> = out
        .lines()
        .filter(|l| {
            ["X plays", "undone:", "redone:", "error:", "1. "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    let nothing = "error: redo: nothing to redo: `redo` plays again what `undo` took back, until another move is played or another game starts";
    assert_eq!(
        kept,
        [
            "X plays c1",
            "X plays a2",
            "undone: a2, b2",
            "1. c1",
            "redone: b2",
            "X plays a2",
            "1. c1 b2 2. a2",
            nothing,
            "undone: a2, b2",
            "X plays a2",
            nothing,
            "1. c1 c3 2. a2",
            "X plays a1",
            nothing,
        ],
        "{out}"
    );
}

/// Against the computer a turn of several marks is taken back and played
/// again whole (undo left the person at the second mark of their turn);
/// between two people, a mark at a time.
#[test]
fn undo_and_redo_take_a_persons_turn_whole() {
    let (out, _, _) = run(
        &["--batch"],
        "new connect6\nvs medium O\nk11,k9\nundo\nstatus\nredo\nstatus\n",
    );
    let kept: Vec<&str> = out
        .lines()
        .filter(|l| {
            ["undone:", "redone:", "to move:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    assert_eq!(kept.len(), 4, "{out}");
    assert!(kept[0].ends_with(", k9, k11"), "{out}");
    assert_eq!(kept[1], "to move: O — mark 1 of 2", "{out}");
    assert_eq!(kept[2], "redone: k11, k9", "{out}");
    assert_eq!(kept[3], "to move: O — mark 1 of 2", "{out}");
    let (out, _, _) = run(&["--batch"], "new connect6\nj10\nk11,k9\nundo\nstatus\n");
    assert!(
        out.contains("undone: k9\nto move: O — mark 2 of 2"),
        "{out}"
    );
}

/// A win `undo` takes back leaves the score; `redo` plays it again, and
/// it counts again.
#[test]
fn a_redone_win_is_scored_again() {
    let (out, _, _) = run(
        &["--batch"],
        "a1\nb1\na2\nb2\na3\nundo\nscore\nredo\nscore\n",
    );
    let scores: Vec<&str> = out.lines().filter(|l| l.starts_with("score:")).collect();
    assert_eq!(
        scores,
        [
            "score: player 1 (X) 0, player 2 (O) 0 (0 games)",
            "score: player 1 (X) 1, player 2 (O) 0 (1 game)",
        ],
        "{out}"
    );
}

/// When the computer takes over a named seat mid-game,
/// the seat keeps its name and its points; a seat never named shows the
/// computer.
#[test]
fn the_score_stays_with_the_seats_whoever_plays_them() {
    let (out, _, _) = run(
        &["--batch"],
        "name 1 Ada\nname 2 Bob\na1\nb1\na2\nb2\na3\nagain\nb2\nvs medium X\nscore\nvs off\nscore\nnew\nvs hard X\nscore\n",
    );
    let scores: Vec<&str> = out.lines().filter(|l| l.starts_with("score:")).collect();
    // `vs` prints the score too: after it, after `score`, after `vs off`,
    // and at a new game's `vs` (the person keeps seat 1 and chooses X).
    assert_eq!(
        scores[scores.len() - 5..],
        [
            "score: Ada (O, computer, medium) 1, Bob (X) 0 (1 game)",
            "score: Ada (O, computer, medium) 1, Bob (X) 0 (1 game)",
            "score: Ada (O) 1, Bob (X) 0 (1 game)",
            "score: Ada (X) 1, Bob (O, computer, hard) 0 (1 game)",
            "score: Ada (X) 1, Bob (O, computer, hard) 0 (1 game)",
        ][..],
        "{out}"
    );
    let (out, _, _) = run(&["--batch"], "vs hard X\nscore\n");
    assert!(
        out.contains("score: player 1 (X) 0, computer (O, hard) 0 (0 games)"),
        "{out}"
    );
    // A seat never named is the computer's while it plays it: after `vs
    // off` a person sits there, and the computer's points do not pass to
    // them, nor to the name they take (issue 26, item 7).
    let (out, _, _) = run(
        &["--batch"],
        "vs hard X\nb2\nresign\nvs off\nscore\nname 2 Bob\nscore\n",
    );
    let scores: Vec<&str> = out.lines().filter(|l| l.starts_with("score:")).collect();
    assert_eq!(
        scores[1..],
        [
            "score: player 1 (X) 0, player 2 (O) 0 (0 games)",
            "score: player 1 (X) 0, player 2 (O) 0 (0 games)",
            "score: player 1 (X) 0, Bob (O) 0 (0 games)",
            "score: player 1 (X) 0, Bob (O) 0 (0 games)",
        ][..],
        "{out}"
    );
    assert!(out.contains("the score starts afresh"), "{out}");
    // Against the computer, a new level and mark before the first move
    // leave the person in its seat with its points: it was moved to seat 1,
    // the computer to the person's seat, and the score started afresh.
    // (The computer's opening as X is taken back for the person's X.)
    let (out, _, _) = run(
        &["--batch"],
        "vs easy O\nvs easy X\nsetup XX1/OO1/3 X\nc3\nnew\nvs medium O\nvs medium X\nscore\n",
    );
    let scores: Vec<&str> = out.lines().filter(|l| l.starts_with("score:")).collect();
    assert_eq!(
        scores.last(),
        Some(&"score: player 1 (X) 1, computer (O, medium) 0 (1 game)"),
        "{out}"
    );
    assert!(
        out.contains("the computer's opening (1 move) is taken back"),
        "{out}"
    );
    assert!(!out.contains("the score starts afresh"), "{out}");
}

/// One rule for positions that are already decided: a
/// finished position set up (like a finished record opened) is not scored.
#[test]
fn a_decided_setup_is_not_scored() {
    let (out, _, _) = run(
        &["--batch"],
        "setup XXX/OO1/3 O\nscore\nsetup XXX/OO1/3 O\nscore\nsetup 3/3/3 X\na1\nb1\na2\nb2\na3\nscore\n",
    );
    let scores: Vec<&str> = out.lines().filter(|l| l.starts_with("score:")).collect();
    assert_eq!(
        scores,
        [
            "score: player 1 (X) 0, player 2 (O) 0 (0 games)",
            "score: player 1 (X) 0, player 2 (O) 0 (0 games)",
            "score: player 1 (X) 1, player 2 (O) 0 (1 game)",
        ],
        "{out}"
    );
}

/// The clock can be set while only the computer has
/// moved, and after a result (for the next game); the players' choice
/// holds for `new <rulebook>` as for a bare `new`.
#[test]
fn the_clock_is_the_players_choice() {
    let (out, _, _) = run(
        &["--batch"],
        "vs hard O\nclock 30\nvs off\nnew\na1\nb1\na2\nb2\na3\nclock off\nnew classic\nnew gomoku\nclock 20\nnew moving\n",
    );
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("clock") || l.starts_with("X: ") || l.starts_with("error"))
        .collect();
    assert_eq!(
        lines,
        // (After `vs hard O`, player 1 keeps O for the games that follow.)
        // (The computer's opening move started the clock for O.)
        [
            "clock: 30 s per move",
            "clock: running — O has 30 s left",
            "X: player 2, O: player 1; clock: 30 s per move",
            "clock: off",
            "X: player 2, O: player 1; clock: off",
            "X: player 2, O: player 1; clock: off",
            "clock: 20 s per move",
            "X: player 2, O: player 1; clock: 20 s per move",
        ],
        "{out}"
    );
}

/// What a person did at the REPL replays the same in
/// batch mode: a `wait` the REPL refused is not carried out in the replay,
/// and a line that is not a command is recorded and refused there too.
#[test]
fn a_repl_session_replays_the_same_in_batch_mode() {
    use gridrules::batch::step;
    use gridrules::render::Style;
    use gridrules::session::{Session, Setting};
    let classic = gridrules_core::Rulebook::builtin("classic").unwrap();
    let mut repl = Session::new(classic, "classic", Setting::Interactive);
    let typed = ["clock 30", "wait 40", "b2", "xyzzy", "status"];
    let at_the_repl: Vec<String> = typed
        .iter()
        .map(|line| step(&mut repl, line, Style::BATCH).text)
        .collect();
    assert!(at_the_repl[1].starts_with("error: wait"), "{at_the_repl:?}");
    assert!(at_the_repl[3].starts_with("error:"), "{at_the_repl:?}");
    let transcript = repl.transcript().join("\n");
    assert!(!transcript.contains("wait 40"), "{transcript}");
    assert!(transcript.contains("xyzzy"), "{transcript}");
    let replayed = gridrules::batch::replay(&transcript);
    // The replay echoes each line after `> `; what follows must match.
    for (line, out) in typed
        .iter()
        .zip(&at_the_repl)
        .filter(|(l, _)| **l != "wait 40")
    {
        let echo = format!("> {line}\n{out}");
        assert!(
            replayed.contains(&echo),
            "`{line}` replays otherwise:\n{replayed}"
        );
    }
}

/// On gomoku the computer judges a draw offer as it
/// judges its moves: it declines with a four it will complete, and as X
/// after its first move; it takes the draw when the person is about to win.
#[test]
fn the_computer_declines_a_draw_it_is_winning() {
    let four = "15/15/15/15/15/15/15/4XXXX7/15/15/15/15/15/15/O1O1O10 O";
    let (out, _, _) = run(
        &["--batch"],
        &format!(
            "new gomoku\nsetup {four}\nvs hard O\ndraw offer\nnew gomoku\nvs hard O\ndraw offer\n"
        ),
    );
    let answers: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("offers a draw"))
        .collect();
    assert_eq!(
        answers, ["O offers a draw; the computer declines"; 2],
        "{out}"
    );
    // The person, to move, has a four open at both ends: the computer (O)
    // cannot stop it and takes the draw.
    let losing = "15/15/15/15/15/15/15/4XXXX7/15/15/15/15/15/15/O1O1O1O8 X";
    let (out, _, _) = run(
        &["--batch"],
        &format!("new gomoku\nsetup {losing}\nvs hard X\ndraw offer\n"),
    );
    assert!(
        out.contains("X offers a draw; the computer accepts"),
        "{out}"
    );
}

/// Terminal manners: moves and commands in upper case are read as
/// in lower case; a seat name has a sane length; `rules` shows the table in
/// force (the clock as chosen, the pie rule).
#[test]
fn upper_case_long_names_and_the_table_in_rules() {
    let (out, _, _) = run(
        &["--batch"],
        &format!(
            "B2\nSTATUS\nname 1 {}\nnew\nclock off\npie on\nrules\n",
            "n".repeat(25)
        ),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "to move: O", "{out}");
    assert!(
        lines[1].starts_with("error: a name has at most 24 characters"),
        "{out}"
    );
    assert!(
        lines.contains(&"at this table — clock: off; pie rule: on"),
        "{out}"
    );
}

/// Alternating the first move is a table setting too
/// (`alternate on|off`, G5), whatever the rulebook says.
#[test]
fn alternate_is_a_table_setting() {
    let game = "a1\nb1\na2\nb2\na3\nagain\n";
    let (out, _, _) = run(
        &["--batch"],
        &format!("alternate off\n{game}alternate on\n{game}"),
    );
    let seats: Vec<&str> = out.lines().filter(|l| l.starts_with("X: ")).collect();
    assert_eq!(
        seats,
        [
            "X: player 1, O: player 2; clock: 15 s per move",
            "X: player 2, O: player 1; clock: 15 s per move",
        ],
        "{out}"
    );
}

/// From a review: a game the computer wins on its first reply to a set-up
/// position is scored; `pie on` cannot bring a resigned game back.
#[test]
fn setup_scores_what_is_played_and_pie_keeps_a_result() {
    let (out, _, _) = run(&["--batch"], "vs easy X\nsetup XX1/OO1/X2 O\nscore\n");
    assert!(out.ends_with("(1 game)\n"), "{out}");
    let (out, _, _) = run(&["--batch"], "resign\npie on\nstatus\n");
    assert!(
        out.ends_with("error: pie: the pie rule is chosen before a person's first move\nresult: O wins — X resigned\n"),
        "{out}"
    );
}

/// From a review: after a swap in connect6, a position won on the last mark
/// of a turn reads back with the right side to move.
#[test]
fn a_swapped_connect6_position_reads_back() {
    let moves = "a1\nswap\na10\nb10\na19\nb19\nc10\nd10\nc19\nd19\ne10\nf10\n";
    let (out, _, _) = run(
        &["--batch"],
        &format!("new connect6\npie on\n{moves}position\n"),
    );
    let text = out.lines().last().unwrap().to_string();
    let (out, _, _) = run(
        &["--batch"],
        &format!("new connect6\npie on\nsetup {text}\nposition\n"),
    );
    assert_eq!(out.lines().last(), Some(text.as_str()), "{out}");
}

/// A game decided off the board (resigned, agreed) has no legal moves
/// either: `legal` is refused and `perft` counts nothing, as after a line.
#[test]
fn a_decided_game_has_no_moves_to_list_or_count() {
    for decide in ["resign", "draw offer\ndraw accept"] {
        let (out, _, _) = run(&["--batch"], &format!("b2\n{decide}\nlegal\nperft 2\n"));
        let tail: Vec<&str> = out.lines().rev().take(2).collect();
        assert!(
            tail[1].starts_with("error: legal: the game is over"),
            "{out}"
        );
        assert_eq!(tail[0], "perft 2: 0", "{out}");
    }
}

/// Before the first move, `vs` without a mark leaves the person seat 1 with
/// the mark it has in this game (after `again`, O): the score stays put.
#[test]
fn vs_before_the_first_move_keeps_the_person_in_seat_one() {
    let (out, _, _) = run(
        &["--batch"],
        "name 1 Ada\nname 2 Bob\nb2\nresign\nagain\nvs hard\nname 1 Bob\nname 2 1\n",
    );
    assert!(
        out.contains("you play O; the computer (hard) plays X\nscore: Ada (O) 1, Bob (X, computer, hard) 0 (1 game)"),
        "{out}"
    );
    assert!(
        out.contains("error: name: the other seat is called `Bob` already"),
        "{out}"
    );
    assert!(out.contains("`1` and `2` name the seats already"), "{out}");
}

#[test]
fn a_rulebook_given_on_the_command_line_shows_its_warnings_on_stderr() {
    let rulebook = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/user/outcom_typo.toml"
    );
    let (out, err, code) = run(&["--batch", "--rules", rulebook], "status\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "to move: X\n");
    assert!(
        err.starts_with("warning: ") && err.contains("help: did you mean `fn outcome(state)`?"),
        "{err}"
    );
}

/// A move alone on the command line is played in a game that ends with
/// the run: it says so, and where to play on (issue 26, item 13: it
/// printed nothing); a refused one says why, with status 1.
#[test]
fn a_move_as_the_one_command_says_where_to_play() {
    let (out, err, code) = run(&["b2"], "");
    assert_eq!(out, "");
    assert_eq!(
        err,
        "note: `b2` is legal here; a one-command run ends with its move: play at the REPL (`gridrules`) or pipe moves to batch mode (`echo b2 | gridrules --batch`)\n"
    );
    assert_eq!(code, 0);
    let (_, err, code) = run(&["d4"], "");
    assert_eq!(err, "error: d4 is off the board: it is 3×3 (C1)\n");
    assert_eq!(code, 1);
    let (out, _, code) = run(&["--help"], "");
    assert!(out.contains("--version"), "{out}");
    assert_eq!(code, 0);
    // `--keep-going` holds for one command as for batch mode.
    let (_, err, code) = run(&["--keep-going", "d4"], "");
    assert_eq!(
        (err.as_str(), code),
        ("error: d4 is off the board: it is 3×3 (C1)\n", 0)
    );
    // `--batch b2` ran `b2` alone, ignoring both --batch and stdin.
    let (out, err, code) = run(&["--batch", "b2"], "");
    assert_eq!(out, "");
    assert!(
        err.starts_with("error: --batch reads commands from stdin, and `b2` was given as well"),
        "{err}"
    );
    assert_eq!(code, 2);
}

/// Ctrl-C (SIGINT) stops a one-command run as it stops a command at the
/// prompt: `bench` prints the figures of the time it ran and exits 0
/// (issue 26, item 9: it ended with no output).
#[test]
fn ctrl_c_stops_a_one_command_bench_with_its_figures() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .args(["bench", "classic", "600"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(status.success(), "{status:?}: {out}");
    assert!(out.contains("Ctrl-C stopped the rest"), "{out}");
    assert!(out.contains("playouts/s:"), "{out}");
}

/// A built-in rulebook without its repetition rule, written as `file` into
/// a new directory with its script: the `repetition` param's line and the
/// `repetition()` hook (its doc line `doc`) taken out, and `edit` applied to
/// the TOML.
fn without_repetition(
    rulebook: &str,
    script: &str,
    doc: &str,
    file: &str,
    edit: impl Fn(String) -> String,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toml = std::fs::read_to_string(root.join(format!("rules/{rulebook}.toml"))).unwrap();
    let text = std::fs::read_to_string(root.join(format!("scripts/{script}"))).unwrap();
    let toml: String = edit(toml)
        .lines()
        .filter(|l| !l.starts_with("repetition ="))
        .map(|l| format!("{l}\n"))
        .collect();
    let hook = format!("/// {doc}\nfn repetition() {{\n    REPETITION\n}}");
    assert!(text.contains(&hook), "the hook to take out is there");
    std::fs::write(dir.path().join(file), toml).unwrap();
    std::fs::write(dir.path().join(script), text.replace(&hook, "")).unwrap();
    dir
}

/// A looping game with no repetition rule (three men's morris without its
/// repetition: Achi as many play it) is solved over its graph of positions
/// (issue 26, item 10: alpha-beta never ends there, and `solve` said "too
/// large" of some 5 700 positions).
#[test]
fn solve_answers_a_looping_game_without_a_repetition_rule() {
    let dir = without_repetition(
        "three-mens-morris",
        "three_mens_morris.rhai",
        "The REPETITION-th occurrence of a position is a draw.",
        "achi.toml",
        |toml| toml,
    );
    let r = common::run_in(
        dir.path(),
        &["--rules", "achi.toml", "--batch"],
        "solve 10\n",
    );
    assert_eq!(
        (r.out.as_str(), r.code),
        ("solve: X wins in 9 — b2\n", 0),
        "{}",
        r.err
    );
}

/// A draw found over the graph of a looping game with no repetition rule
/// says that play may go on forever (issue 26, item 10). Moving
/// tic-tac-toe with two pieces a side, and no repetition: nobody can make
/// three, and the pieces step back and forth without end.
#[test]
fn solve_says_a_looping_draw_may_go_on_forever() {
    let dir = without_repetition(
        "moving",
        "moving.rhai",
        "The REPETITION-th occurrence of a position, same side to move, is a draw.",
        "two-pieces.toml",
        |toml| {
            assert!(
                toml.contains("\npieces = 3\n"),
                "the param to change is there"
            );
            toml.replace("\npieces = 3\n", "\npieces = 2\n")
        },
    );
    let r = common::run_in(
        dir.path(),
        &["--rules", "two-pieces.toml", "--batch"],
        "solve 10\n",
    );
    assert_eq!(
        (r.out.as_str(), r.code),
        (
            "solve: draw — a1 b1 c1 a2 b2 c2 a3 b3 c3\n(neither side can force a win: positions come back and no repetition rule ends the play, so it may go on forever)\n",
            0
        ),
        "{}",
        r.err
    );
}

/// `vs` at the level the computer already plays changes nothing and says
/// so, without the seats and score again (the help tour: it repeated them
/// and, at the REPL, the whole board).
#[test]
fn vs_at_the_same_level_says_nothing_changed() {
    let (out, _, code) = run(&["--batch"], "vs medium\nvs medium\nscore\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[2..],
        [
            "the computer (medium) already plays O; you play X",
            "score: player 1 (X) 0, computer (O, medium) 0 (0 games)"
        ],
        "{out}"
    );
    assert_eq!(code, 0);
}

/// `tests/players/gridrules.sh`, the player that measures one build
/// against another in `arena`, answers a move by the playouts and by the
/// clock (`$AI_TIME`: it set the clock and played nothing).
#[test]
fn the_build_against_build_player_moves_by_playouts_and_by_the_clock() {
    use std::io::Write;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/players/gridrules.sh");
    for time in [None, Some("0.2")] {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg(&script)
            .env("GRIDRULES", env!("CARGO_BIN_EXE_gridrules"))
            .env_remove("AI_TIME")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        if let Some(t) = time {
            cmd.env("AI_TIME", t);
        }
        let mut child = cmd.spawn().unwrap();
        // X holds a1 and b1, O a3 and b3: X wins on c1.
        let lines = "rules classic\nposition OO1/3/XX1 X - -\ngo\nquit\n";
        child
            .stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let out = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out, "c1\n", "AI_TIME {time:?}");
    }
}

/// A program whose name starts with `pbrain-` plays `arena` over the
/// Gomocup protocol: gridrules' own brain, against hard, both colours. A
/// rulebook the protocol cannot describe is refused with why.
#[test]
fn arena_plays_a_gomocup_brain_over_its_protocol() {
    let brain = env!("CARGO_BIN_EXE_pbrain-gridrules");
    let line = format!("arena gomoku hard@0.1s {brain}@0.2s 2 --threads 1\n");
    let (out, _, code) = run(&["--batch"], &line);
    assert_eq!(code, 0, "{out}");
    let score = out.lines().nth(1).unwrap_or_default();
    let games: u32 = ["win", "draw", "loss"]
        .iter()
        .filter_map(|w| {
            let at = score.find(&format!(" {w}"))?;
            score[..at].rsplit(' ').next()?.parse::<u32>().ok()
        })
        .sum();
    assert_eq!(games, 2, "{out}");
    let (out, _, code) = run(
        &["--batch"],
        &format!("arena connect-four hard {brain} 2\n"),
    );
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("places its own stone"), "{out}");
    // The Gomocup match's board and openings, and the ladder's, as
    // docs/playing.md gives them: every opening is legal there.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (openings, games) in [("gomocup-20.txt", 12), ("gomoku-20.txt", 52)] {
        let line = format!(
            "arena {} random random {games} --openings {}\n",
            root.join("tests/variants/gomoku-20.toml").display(),
            root.join("tests/openings").join(openings).display()
        );
        let (out, _, code) = run(&["--batch"], &line);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.contains(&format!("{games} games")) && out.contains("random: "),
            "{out}"
        );
    }
}

/// A shell script at `dir/name` that runs as a program: a brain of the
/// tests' own making.
#[cfg(unix)]
fn shell_program(dir: &Path, name: &str, script: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A brain that cannot play the board says `UNKNOWN` to `START`: the
/// match stops at once with its answer, not after its time.
#[cfg(unix)]
#[test]
fn arena_reports_a_brain_that_does_not_know_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let brain = shell_program(
        dir.path(),
        "pbrain-nosize",
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in \
         START*) echo 'UNKNOWN unsupported size' ;; END*) exit 0 ;; esac; done\n",
    );
    let line = format!("arena gomoku hard {}@5s 2\n", brain.display());
    let started = std::time::Instant::now();
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("answered `UNKNOWN unsupported size` to `START 15`"),
        "{out}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "{out}"
    );
}

/// A brain's settings after its `@` are told as `INFO` lines after the
/// match's own, before the board: this brain writes down what it read,
/// then stops the match with an `ERROR`, which is reported.
#[cfg(unix)]
#[test]
fn arena_tells_a_brain_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    let brain = shell_program(
        dir.path(),
        "pbrain-notes",
        &format!(
            "#!/bin/sh\nwhile read -r line; do echo \"$line\" >> '{}'; case \"$line\" in \
             START*) echo OK ;; DONE*) echo 'ERROR noted' ;; END*) exit 0 ;; esac; done\n",
            notes.display()
        ),
    );
    let line = format!(
        "arena gomoku {}@3s,MAX_DEPTH=12,THREAD_NUM=1 hard 2 --threads 1\n",
        brain.display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("pbrain-notes`, game 1: ") && out.contains("ERROR noted"),
        "{out}"
    );
    let told = std::fs::read_to_string(&notes).unwrap();
    assert!(
        told.starts_with(
            "START 15\nINFO timeout_turn 3000\nINFO timeout_match 0\nINFO rule 0\n\
             INFO MAX_DEPTH 12\nINFO THREAD_NUM 1\nBOARD\n"
        ),
        "{told}"
    );
    // A program whose own name holds an `@` is that program, settings
    // and all: nothing after it is told.
    let named = dir.path().join("pbrain-notes@DEPTH=3");
    std::fs::copy(&brain, &named).unwrap();
    std::fs::remove_file(&notes).unwrap();
    let (out, _, _) = run(
        &["--batch"],
        &format!("arena gomoku {} hard 2 --threads 1\n", named.display()),
    );
    assert!(out.contains("ERROR noted"), "{out}");
    let told = std::fs::read_to_string(&notes).unwrap();
    assert!(!told.contains("DEPTH"), "{told}");
}

/// A Gomocup brain in shell that plays the first free cell of a 15×15
/// board, row by row; `on_start` runs before it answers `START`,
/// `on_board` as each `BOARD` comes, `on_answer` before each answer and
/// `on_end` at `END` (`:` for nothing).
#[cfg(unix)]
fn first_free_brain(
    dir: &Path,
    on_start: &str,
    on_board: &str,
    on_answer: &str,
    on_end: &str,
) -> std::path::PathBuf {
    shell_program(
        dir,
        "pbrain-firstfree",
        &format!(
            r#"#!/bin/sh
occ=" "
while read -r line; do
  case "$line" in
    START*) {on_start}; echo OK ;;
    BOARD*) {on_board}; occ=" " ;;
    DONE*) y=0; found=""
      while [ -z "$found" ]; do
        x=0
        while [ $x -lt 15 ]; do
          case "$occ" in *" $x,$y "*) ;; *) found="$x,$y"; break ;; esac
          x=$((x + 1))
        done
        y=$((y + 1))
      done
      {on_answer}; echo "$found" ;;
    END*) {on_end}; exit 0 ;;
    *,*) occ="$occ${{line%,*}} " ;;
  esac
done
"#
        ),
    )
}

/// A match stopped by a failing brain still saves the games finished
/// before (`--save`), and says so with the failure: this brain plays its
/// first game, then answers `ERROR` in the second.
#[cfg(unix)]
#[test]
fn arena_saves_the_games_finished_before_a_brain_failed() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("played-once");
    let brain = first_free_brain(
        dir.path(),
        ":",
        ":",
        &format!(
            "[ -e '{}' ] && {{ echo 'ERROR tired'; continue; }}",
            mark.display()
        ),
        &format!("touch '{}'", mark.display()),
    );
    let games = dir.path().join("games");
    let line = format!(
        "arena gomoku {}@2s random 3 --threads 1 --save {}\n",
        brain.display(),
        games.display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("game 2: answered ERROR tired\nnote: games saved: 1 record in")
            && out.contains("(game-01.toml to game-01.toml)"),
        "{out}"
    );
    assert!(games.join("game-01.toml").is_file(), "{out}");
    assert!(!games.join("game-02.toml").exists(), "{out}");
}

/// A match stopped by a rulebook's script that fails saves the games
/// finished before it too, and the error names the game and the place in
/// the script: the hook throws at the second move of games 3 and 4 only,
/// which open with X on c3.
#[test]
fn arena_saves_the_games_finished_before_a_script_failed() {
    let dir = common::rulebook_dir(
        "fragile",
        3,
        3,
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn outcome(state) {\n    if state.move_count == 2 && state.mark(cell(2, 2)) == \"X\" { throw \"cracked\"; }\n}\n",
    );
    std::fs::write(dir.path().join("openings.txt"), "a1\nc3\n").unwrap();
    let games = dir.path().join("games");
    let line = format!(
        "arena {} random random 4 --threads 1 --openings {} --save {}\n",
        dir.path().join("fragile.toml").display(),
        dir.path().join("openings.txt").display(),
        games.display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("error: arena: game 3: ") && out.contains("fragile.rhai:4:"),
        "{out}"
    );
    assert!(out.contains("cracked"), "{out}");
    assert!(
        out.contains("note: games saved: 2 records in")
            && out.contains("(game-01.toml to game-02.toml)"),
        "{out}"
    );
    assert!(games.join("game-02.toml").is_file(), "{out}");
    assert!(!games.join("game-03.toml").exists(), "{out}");
}

/// Two pieces a side that step for ever, where a line takes three: the
/// match cuts each game short at its move limit, the report says how many
/// of its draws are such, and each record opens as that final draw.
#[test]
fn arena_reports_and_saves_games_cut_short_at_its_move_limit() {
    let dir = common::rulebook_dir(
        "endless",
        3,
        3,
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn pieces() { 2 }\nfn steps(c) { movement::king(c) }\n",
    );
    let games = dir.path().join("games");
    let input = format!(
        "arena {} random random 2 --save {}\nopen {}\n",
        dir.path().join("endless.toml").display(),
        games.display(),
        games.join("game-02.toml").display()
    );
    let (out, _, code) = run(&["--batch"], &input);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("random: 0 wins, 2 draws (2 cut short at 1000 moves), 0 losses"),
        "{out}"
    );
    assert!(
        out.contains("result: draw — stopped by the match after 1000 moves"),
        "{out}"
    );
}

/// A brain's failure says why: a move the rules refuse with the rules'
/// reason (renju's first stone goes in the centre, which the protocol
/// cannot tell), a move that does not come with the time it had. A
/// program of the line protocol, where the match's budget is playouts,
/// thinks 10 s a move, and the report says so.
#[cfg(unix)]
#[test]
fn arena_says_why_a_brain_failed_and_what_time_a_program_had() {
    let dir = tempfile::tempdir().unwrap();
    let corner = shell_program(
        dir.path(),
        "pbrain-corner",
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in \
         START*) echo OK ;; DONE*) echo 0,0 ;; END*) exit 0 ;; esac; done\n",
    );
    let line = format!("arena renju {}@1s random 1\n", corner.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("answered `0,0` (a15), which is not a legal move: ") && out.contains("(RJ1)"),
        "{out}"
    );
    let mute = shell_program(
        dir.path(),
        "pbrain-mute",
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in \
         START*) echo OK ;; END*) exit 0 ;; esac; done\n",
    );
    let line = format!("arena gomoku {}@0.2s random 1\n", mute.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("game 1: no move within 0.4 s"), "{out}");
    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/players/first-legal.sh");
    let line = format!("arena classic random {} 2\n", program.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("arena classic: random vs ")
            && out.contains("first-legal.sh (10 s a move), 2 games"),
        "{out}"
    );
}

/// A brain's next `BOARD` comes a moment after its answer, never at once:
/// Rapfi drops a command that arrives while it is still marking itself
/// idle after writing its move. This brain plays the first free cell and
/// writes down, in nanoseconds, how long after its answer the next board
/// came; its opponent, `random`, answers at once.
#[cfg(target_os = "linux")]
#[test]
fn arena_gives_a_brain_a_moment_after_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let gaps = dir.path().join("gaps.txt");
    let gaps_file = gaps.display();
    let brain = first_free_brain(
        dir.path(),
        ":",
        &format!("t1=$(date +%s%N); [ -n \"$t0\" ] && echo $((t1 - t0)) >> '{gaps_file}'"),
        "t0=$(date +%s%N)",
        ":",
    );
    let line = format!("arena gomoku {}@2s random 2 --threads 1\n", brain.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_eq!(code, 0, "{out}");
    let gaps: Vec<u64> = std::fs::read_to_string(&gaps)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(gaps.len() >= 4, "{gaps:?}");
    assert!(gaps.iter().all(|&ns| ns >= 10_000_000), "{gaps:?}");
}

/// `arena --save DIR` leaves a record of each finished game, which `open`
/// replays: the rulebook file named from the folder, the seats by who
/// played them, the result as the match counted it.
#[test]
fn arena_saves_each_game_for_open() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let rulebook = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/user/corner_start.toml");
    let line = format!(
        "arena {} hard random 3 --save {}\nopen {}\n",
        rulebook.display(),
        games.display(),
        games.join("game-02.toml").display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("games saved: 3 records in") && out.contains("(game-01.toml to game-03.toml)"),
        "{out}"
    );
    // Game 2: the first player, hard, has O; O moves first from the start.
    let text = std::fs::read_to_string(games.join("game-02.toml")).unwrap();
    assert!(
        text.contains("rulebook = \"../") && text.contains("x = \"random\"\no = \"hard\""),
        "{text}"
    );
    assert!(
        out.contains("game-02.toml, ") && out.contains(" of corner-start — "),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    // Hard never loses at 3×3: every record ends in a draw or its win.
    for n in 1..=3 {
        let text = std::fs::read_to_string(games.join(format!("game-0{n}.toml"))).unwrap();
        let hard = if n % 2 == 1 { "X" } else { "O" };
        assert!(
            text.contains("result = \"draw\"")
                || text.contains(&format!("result = \"{hard} wins\"")),
            "{text}"
        );
    }
    // A folder that holds a match's games already is refused, before the
    // games: the records of two matches would mix.
    let line = format!("arena classic hard random 2 --save {}\n", games.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("the folder already holds games (game-0"),
        "{out}"
    );
    assert!(!out.contains("score"), "{out}");
    // A folder that cannot be made is said before any game is played.
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "").unwrap();
    let line = format!(
        "arena classic hard random 2 --save {}\n",
        blocked.join("g").display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("cannot make the folder") && !out.contains("score"),
        "{out}"
    );
    // A file where the folder would be is said to be one.
    let line = format!("arena classic hard random 2 --save {}\n", blocked.display());
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("is a file, not a folder"), "{out}");
    // A match that finishes no game leaves no folder it made behind.
    let empty = dir.path().join("empty").join("deeper");
    let line = format!(
        "arena classic ./pbrain-none@1s random 1 --save {}\n",
        empty.display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("games saved: none (no game finished)"),
        "{out}"
    );
    assert!(!dir.path().join("empty").exists(), "{out}");
    assert!(dir.path().is_dir(), "{out}");
}

/// A Gomocup brain may take longer to start than its time a move (it loads
/// first): this one answers `START` after half a second, at 0.2 s a move.
/// A budget after a program that is there is read as its budget, and said
/// wrong when it is; the report names the program by its path, its
/// settings beside its budget.
#[cfg(unix)]
#[test]
fn arena_gives_a_brain_time_to_start_and_names_it_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let brain = first_free_brain(dir.path(), "sleep 0.5", ":", ":", ":");
    let line = format!(
        "arena gomoku random {}@0.2s,MAX_DEPTH=3 2 --threads 1\n",
        brain.display()
    );
    let (out, _, code) = run(&["--batch"], &line);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!(
            "random vs {} (0.2 s a move, MAX_DEPTH=3)",
            brain.display()
        )),
        "{out}"
    );
    for (suffix, said) in [
        ("@abc", "budget `abc` of `"),
        (
            "@1s,FOO",
            "expected seconds, 0.01 to 600 (`2s`), or a setting KEY=VALUE",
        ),
    ] {
        let line = format!("arena gomoku random {}{suffix} 1\n", brain.display());
        let (out, _, code) = run(&["--batch"], &line);
        assert_ne!(code, 0, "{out}");
        assert!(out.contains(said), "{suffix}: {out}");
    }
}

/// `arena --threads N` plays N games at once; by the clock, where the
/// results depend on it, the first line says how many. A second
/// `--threads`, or `--openings` followed by another option, is refused.
#[test]
fn arena_threads_sets_the_games_at_once_and_the_clock_match_says_so() {
    for (threads, said) in [("1", "1 game at a time"), ("2", "2 games at once")] {
        let line = format!("arena classic hard random 2 --time 0.01 --threads {threads}\n");
        let (out, _, code) = run(&["--batch"], &line);
        let first = out.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("arena classic: hard vs random, 2 games,")
                && first.ends_with(&format!("0.01 s a move, {said}")),
            "{out}"
        );
        assert_eq!(code, 0);
    }
    for (line, error) in [
        (
            "arena classic random random 2 --threads 1 --threads 2",
            "--threads given twice",
        ),
        (
            "arena classic random random 2 --openings --threads 1",
            "--openings needs a file",
        ),
    ] {
        let (out, _, _) = run(&["--batch"], &format!("{line}\n"));
        assert!(out.starts_with(&format!("error: {error}")), "{line}: {out}");
    }
}

/// A long line refused is quoted by its start and its length: a pasted
/// line of 6 000 characters was echoed whole in its error, 150 lines of a
/// terminal.
#[test]
fn a_long_line_refused_is_quoted_short() {
    let long = "b2".repeat(3000);
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        &format!("{long}\nnew {long}\n"),
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(
        errors[0].starts_with(
            "error: `b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2…` (6000 characters) is not a move"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with(
            "error: no built-in rulebook `b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2…` (6000 characters)"
        ),
        "{}",
        &errors[1][..200.min(errors[1].len())]
    );
    assert!(out.len() < 2000, "{}", out.len());
}

/// `hint` draws nothing from the seed: asked again it names the same move,
/// and `ai` at its level plays it (medium's hints on moving named three
/// moves, and `ai medium` a fourth).
#[test]
fn a_hint_names_the_move_ai_then_plays() {
    for (rulebook, level) in [
        ("moving", "medium"),
        ("ultimate", "medium"),
        ("teeko", "hard"),
    ] {
        let (out, _, _) = run(
            &["--batch"],
            &format!(
                "new {rulebook}\nseed 3\nhint {level}\nhint {level}\nhint {level}\nai {level}\n"
            ),
        );
        let named: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("hint: X could play "))
            .map(|l| l.trim_end_matches(&format!(" ({level})")))
            .collect();
        let played = out.lines().find_map(|l| l.strip_prefix("X plays "));
        assert_eq!(named.len(), 3, "{out}");
        assert!(
            named.iter().all(|m| Some(*m) == played),
            "{rulebook}: {out}"
        );
    }
}

/// `clock 0` is `off`, as a record's `clock = 0` says (it was refused at
/// the prompt); a number past any clock says the limit.
#[test]
fn clock_0_is_off_and_too_many_seconds_say_the_limit() {
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        "clock 20\nclock 0\nclock 99999999999\n",
    );
    assert_eq!(
        out,
        "clock: 20 s per move\nclock: off\nerror: `99999999999`: at most 86400 seconds per move (a day), or off: usage: clock [<seconds>|off]\n"
    );
}

/// A turn's marks typed as `history` writes them, `k10,k11`: played
/// together, or refused together; a record's moves read the same way, in
/// any case, as the prompt does.
#[test]
fn a_turn_of_marks_joined_by_commas_is_played_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c6.toml"),
        "rulebook = \"connect6\"\nmoves = \"J10 K10,K11\"\n",
    )
    .unwrap();
    let r = common::run_in(
        dir.path(),
        &["--batch"],
        "new connect6\nj10\nk10,k11\nl10,l11,l12\nl10,k10\nhistory\nopen c6.toml\nhistory\n",
    );
    let kept: Vec<&str> = r
        .out
        .lines()
        .filter(|l| l.starts_with("1. ") || l.starts_with("error:"))
        .collect();
    assert_eq!(
        kept,
        [
            "error: `l10,l11,l12`: the turn ends after 2 marks; the marks joined by commas are one turn's",
            "error: k10 is taken: a mark goes on an empty cell (SX1)",
            "1. j10 k10,k11",
            "1. j10 k10,k11",
        ],
        "{}",
        r.out
    );
}

/// A built-in rulebook's name is read in any case, as commands are.
#[test]
fn a_built_in_name_is_read_in_any_case() {
    let (out, err, _) = run(&["--batch"], "new Classic\nnew GOMOKU\n");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("new game:")).collect();
    assert_eq!(games.len(), 2, "{out}{err}");
    assert!(
        games[0].starts_with("new game: classic —") && games[1].starts_with("new game: gomoku —")
    );
}

/// A draw agreed before any move was no game: `again` keeps the marks
/// (it used to pass X to the computer).
#[test]
fn again_after_a_draw_agreed_before_any_move_keeps_the_marks() {
    let (out, _, _) = run(&["--batch"], "vs hard X\ndraw offer\nagain\n");
    let seats: Vec<&str> = out.lines().filter(|l| l.starts_with("X: ")).collect();
    assert_eq!(
        seats.last(),
        Some(&"X: player 1, O: computer (hard); clock: 15 s per move"),
        "{out}"
    );
}

/// After a result, `vs hard X` is the next game's choice: the person keeps
/// its seat and its points, and the next game gives it X whatever the
/// rematch would swap (it used to move the person to the other seat and
/// start the score afresh).
#[test]
fn a_mark_chosen_after_a_result_is_the_next_games() {
    let (out, _, _) = run(
        &["--batch"],
        "vs hard X\nresign\nagain\nresign\nvs hard X\nscore\nagain\nvs hard X\nresign\nvs hard X\nagain\n",
    );
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("score:") || l.starts_with("X: ") || l.starts_with("next game:"))
        .collect();
    assert_eq!(
        lines,
        [
            "score: player 1 (X) 0, computer (O, hard) 0 (0 games)",
            "X: computer (hard), O: player 1; clock: 15 s per move",
            "next game: you play X; the computer (hard) plays O",
            "score: player 1 (O) 0, computer (X, hard) 2 (2 games)",
            "score: player 1 (O) 0, computer (X, hard) 2 (2 games)",
            "X: player 1, O: computer (hard); clock: 15 s per move",
            "next game: you play X; the computer (hard) plays O",
            "score: player 1 (X) 0, computer (O, hard) 3 (3 games)",
            "X: player 1, O: computer (hard); clock: 15 s per move",
        ],
        "{out}"
    );
}

/// `solve` after the result is refused as `legal` and `ai` are (it said
/// "X wins in 0").
#[test]
fn solve_after_the_result_is_refused() {
    let (out, err, _) = run(&["--batch", "--keep-going"], "a1\nb1\na2\nb2\na3\nsolve\n");
    let all = format!("{out}{err}");
    assert!(!all.contains("solve: X wins"), "{all}");
    assert!(all.contains("error: solve: the game is over"), "{all}");
}

/// `ai time` holds for later moves and games until `ai time default`, so
/// `vs` says the computer thinks by it (it was set and forgotten).
#[test]
fn vs_names_the_time_ai_time_gave_the_computer() {
    let (out, _, _) = run(
        &["--batch"],
        "ai time 0.2\nvs medium O\nai time default\nvs easy O\n",
    );
    let said: Vec<&str> = out.lines().filter(|l| l.starts_with("you play")).collect();
    assert_eq!(
        said,
        [
            "you play O; the computer (medium, 0.2 s a move) plays X",
            "you play O; the computer (easy) plays X",
        ],
        "{out}"
    );
}

/// Enter alone at the REPL lets the clock move for a player whose time ran
/// out, and the computer answers: a Ctrl-C that stopped the command before
/// must not stop that answer too (the flag was lowered only by the next
/// command, so the reply failed as stopped).
#[test]
fn the_clocks_move_on_enter_is_answered_after_an_earlier_ctrl_c() {
    use gridrules::batch::step;
    use gridrules::render::Style;
    use gridrules::session::{Session, Setting};
    let classic = gridrules_core::Rulebook::builtin("classic").unwrap();
    let mut repl = Session::new(classic, "classic", Setting::Interactive);
    for line in ["clock 1", "vs easy X", "ready"] {
        let s = step(&mut repl, line, Style::BATCH);
        assert!(!s.failed, "{line}: {}", s.text);
    }
    // Ctrl-C during a command now over; the time runs out at the prompt.
    repl.interrupt().raise();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert!(repl.tick(), "the clock moved for X");
    assert!(repl.take_reply_failure().is_none());
    assert_eq!(repl.game().moves().len(), 2, "the computer answered");
}

/// `solve` names a move that places the opponent's mark as `hint` does,
/// `a1=O`: a bare `a1` beside it read as X's (the review of the swap
/// opening's wording).
#[test]
fn solve_names_a_named_mark_of_the_opponent() {
    // X's first turn places an X and then an O.
    let dir = common::rulebook_dir(
        "xo",
        3,
        3,
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\nfn turn_marks() { [[\"X\", \"O\"], 1] }\n",
    );
    let r = common::run_in(
        dir.path(),
        &["--batch", "--rules", "xo.toml"],
        "b2\nsolve\n",
    );
    assert_eq!(
        r.out, "solve: draw — a1=O b1=O c1=O a2=O c2=O a3=O b3=O c3=O\n",
        "{}",
        r.err
    );
}

/// On a board 17 columns wide where marks drop, `q` is column q, not
/// `quit`'s alias: a player could not play there, and batch mode stopped
/// at it silently (a variant author's finding). `quit` still leaves, and
/// `q` quits where it is no move.
#[test]
fn q_is_a_column_where_the_board_has_one() {
    let dir = common::rulebook_dir(
        "wide",
        17,
        2,
        "fn lines() { lines::straight(4) }\nfn wins(run) { run >= 4 }\nfn support(c) { gravity::below(c) }\n",
    );
    let r = common::run_in(
        dir.path(),
        &["--batch", "--keep-going", "--rules", "wide.toml"],
        "q\nQ\nq\nhistory\nquit\nstatus\n",
    );
    assert_eq!(r.out, "error: q: column q is full\n1. q1 q2\n", "{}", r.err);
    let (out, _, _) = run(&["--batch"], "q\nstatus\n");
    assert_eq!(out, "", "q quits classic");
    // After the result no move is made there: `q` leaves.
    let r = common::run_in(
        dir.path(),
        &["--batch", "--rules", "wide.toml"],
        "a\nb\nresign\nq\nstatus\n",
    );
    assert_eq!(
        (r.out.lines().last(), r.code),
        (Some("result: O wins — X resigned"), 0),
        "{}",
        r.out
    );
}

/// The note on standard error counts every refusal, blank lines and
/// comments counted as input lines but not as commands, and names at most
/// ten lines; `--keep-going` (refusals on purpose) leaves it out.
#[test]
fn standard_error_names_the_refused_input_lines() {
    let (_, err, code) = run(&["--batch"], "z9\nb2\n\n# a comment\nfoo\n");
    assert_eq!(
        (err.as_str(), code),
        (
            "note: 2 of 3 commands were refused, on input lines 1 and 5\n",
            1
        )
    );
    let many = "z9\n".repeat(12);
    let (_, err, _) = run(&["--batch"], &many);
    assert_eq!(
        err,
        "note: 12 of 12 commands were refused, on input lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …\n"
    );
    let (_, err, code) = run(&["--batch", "--keep-going"], "z9\n");
    assert_eq!((err.as_str(), code), ("", 0));
    let (_, err, code) = run(&["--batch"], "b2\n");
    assert_eq!((err.as_str(), code), ("", 0));
}

/// `rules` says what the hooks list only names: which pieces a line
/// removes, the pieces each side has, flying, the loss at a count, the
/// repetition draw; and for Dara, exact lines and lines made while placing.
#[test]
fn rules_say_what_lines_remove_and_what_the_counts_do() {
    let said = |args: &[&str]| {
        let (out, err, code) = run(args, "rules\n");
        assert_eq!(code, 0, "{err}");
        // Wrapped lines go on indented: one line each again.
        out.replace("\n  ", " ")
    };
    let morris = said(&["--batch", "--rules", "nine-mens-morris"]);
    for line in [
        "a completed line: removes an opponent piece outside the opponent's lines (any, if all are in one); no legal move: that side loses",
        "pieces: 9 each, placed, then moved; a side down to 3 flies; a side down to 2 loses",
        "a position met 3 times (the same side to move) is a draw",
    ] {
        assert!(morris.lines().any(|l| l == line), "{line}\n{morris}");
    }
    let dara = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/user/dara.toml");
    let dara = said(&["--batch", "--rules", dara.to_str().unwrap()]);
    let line = "a completed line of exactly 3 (a longer run is none): removes an opponent piece (any); one made while placing removes nothing; no legal move: that side loses";
    assert!(dara.lines().any(|l| l == line), "{dara}");
}

/// A comma with no mark on one side of it is said to be so (`a1,` said
/// "`` is not a move").
#[test]
fn a_comma_needs_a_mark_on_each_side() {
    let (out, _, _) = run(
        &["--batch", "--keep-going"],
        "new connect6\nj10,\nj10\nk10,,k11\nhistory\n",
    );
    let said = |t: &str| {
        format!(
            "error: `{t}`: a comma joins the marks of one turn, and a mark stands on each side of it"
        )
    };
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&said("j10,").as_str()), "{out}");
    assert!(lines.contains(&said("k10,,k11").as_str()), "{out}");
    assert!(out.ends_with("1. j10\n"), "{out}");
}

/// A game too large for the exact search says why, at once (it said
/// "too large to solve exactly" and no more).
#[test]
fn solve_says_why_a_game_is_too_large() {
    let (out, _, _) = run(&["--batch", "--keep-going"], "new gomoku\nsolve 5\n");
    assert!(
        out.ends_with(
            "solve: too large to solve exactly: its games run longer, or reach more positions, than the exact search holds (more than 100 moves, or 300000 positions)\n"
        ),
        "{out}"
    );
}

/// A folder holding `t.toml`, a `size`×`size` board played by `script`
/// (`t.rhai`).
fn rulebook_of(size: u32, script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "name = \"t\"\ntitle = \"t\"\nscript = \"t.rhai\"\ndescription = \"A test.\"\n[board]\nwidth = {size}\nheight = {size}\n"
    );
    std::fs::write(dir.path().join("t.toml"), toml).unwrap();
    std::fs::write(dir.path().join("t.rhai"), script).unwrap();
    dir
}

/// `rules` says the length that wins where not every longer run does
/// (`run == 5`): it said who a line wins for, and no length.
#[test]
fn rules_says_an_exact_win_length() {
    let dir = rulebook_of(
        9,
        "fn lines() { lines::straight(5) }\nfn wins(run) { run == 5 }\n",
    );
    let r = common::run_in(dir.path(), &["--batch", "--rules", "t.toml"], "rules\n");
    assert!(
        r.out.contains("\na line wins with exactly 5 in a row\n"),
        "{}",
        r.out
    );
    let r = common::run_in(Path::new("."), &["--batch"], "new gomoku\nrules\n");
    assert!(!r.out.contains("a line wins with"), "{}", r.out);
}

/// A hook that fails while the engine asks whether the next side can move
/// says so: the move just made took the blame alone.
#[test]
fn a_hook_failing_on_the_next_sides_moves_says_so() {
    let dir = rulebook_of(
        3,
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\nfn refuse(state, mv) { if state.to_move == \"O\" { throw \"O's check failed\"; } }\n",
    );
    let r = common::run_in(dir.path(), &["--batch", "--rules", "t.toml"], "a1\n");
    assert!(
        r.out.contains(
            "help: it failed while the engine asked whether O has a legal move after this one"
        ),
        "{}",
        r.out
    );
}
