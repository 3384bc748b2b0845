//! A user's own rulebook loads from a path, imports the built-in modules and a
//! module of its own, and its per-move hooks take part in play.

use gridrules_conformance::LINES_3X3;
use gridrules_core::playout::Rng;
use gridrules_core::search::{At, Budget, Level, Request, choose};
use gridrules_core::{
    Ending, Game, MoveList, Outcome, PlayError, ProblemKind, Refusal, Rulebook, Side,
};
use std::path::Path;
use std::sync::Arc;

fn nocentre() -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("user/nocentre.toml");
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn refuse_hook_removes_moves_and_gives_its_reason() {
    let rules = nocentre();
    assert!(rules.has_per_move_hooks());
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &[], &mut list).unwrap();
    let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
    assert_eq!(legal.join(" "), "a1 b1 c1 a2 c2 a3 b3 c3");
    let mut game = Game::new(rules.clone());
    let err = game.play(game.parse_move("b2").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "the first move may not take the centre");
    assert!(matches!(
        err,
        PlayError::Refused {
            refusal: Refusal::Script(_),
            ..
        }
    ));
    assert!(game.moves().is_empty());
    game.play(game.parse_move("a1").unwrap()).unwrap();
    game.play(game.parse_move("b2").unwrap())
        .expect("the centre is open after the first move");
}

/// A blank reason is no refusal: it would reach the player as `error:
/// b2: ` and nothing after. The hook's answer is named as wrong, with its
/// place, and the game is unchanged.
#[test]
fn a_blank_refusal_is_the_hooks_mistake() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("blank.rhai"),
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn refuse(state, mv) { if mv.to == 4 { \" \" } }\n",
    )
    .unwrap();
    let text = "name = \"blank\"\ntitle = \"t\"\nscript = \"blank.rhai\"\n\
                [board]\nwidth = 3\nheight = 3\n";
    let rules = Rulebook::from_str_at(text, "blank.toml", Some(dir.path().to_path_buf())).unwrap();
    let mut game = Game::new(Arc::new(rules));
    let err = game.play(game.parse_move("b2").unwrap()).unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("blank.rhai:3:") && said.contains("a refusal needs its reason"),
        "{said}"
    );
    assert!(game.moves().is_empty());
    game.play(game.parse_move("a1").unwrap()).unwrap();
}

#[test]
fn outcome_hook_ends_the_game() {
    let rules = nocentre();
    let mut game = Game::new(rules.clone());
    for mv in ["a1", "b1", "c1", "a2", "a3", "b2", "c3"] {
        game.play(game.parse_move(mv).unwrap()).unwrap();
    }
    assert_eq!(
        game.position().ending(),
        Some((Outcome::Win(Side::X), Ending::Script))
    );
}

#[test]
fn the_same_rules_without_hooks_take_the_fast_path() {
    let classic = Rulebook::builtin("classic").unwrap();
    assert!(!classic.has_per_move_hooks());
}

/// A rulebook of `tests/user/`, loaded from its path.
fn user(file: &str) -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("user")
        .join(file);
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// Plays `moves` (space-separated), each of which must be accepted.
fn play_all(game: &mut Game, moves: &str) {
    for mv in moves.split_whitespace() {
        let parsed = game.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        game.play(parsed)
            .unwrap_or_else(|e| panic!("{mv} should be played: {e}"));
    }
}

/// Why `game` refuses the move `text`, which parses.
fn refused(game: &mut Game, text: &str) -> String {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    game.play(mv).unwrap_err().to_string()
}

/// A rulebook of `script` on a `width`×`height` board, loaded from a
/// directory of its own (which is gone once it is read: a loaded rulebook
/// keeps its script).
fn scripted(script: &str, width: u32, height: u32) -> Arc<Rulebook> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.rhai"), script).unwrap();
    let text = format!(
        "name = \"s\"\ntitle = \"t\"\nscript = \"s.rhai\"\n[board]\nwidth = {width}\nheight = {height}\n"
    );
    Arc::new(
        Rulebook::from_str_at(&text, "s.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

#[test]
fn outcome_hook_alone_decides_a_misere_line() {
    let rules = user("misere_hook.toml");
    assert!(rules.has_per_move_hooks());
    // X completes the a-file on its third mark and loses.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a1 b1 a2 b2");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "a3");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::O), Ending::Script)));
    // O completes a row and loses.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a3 a1 b3 b1 c2 c1");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::X), Ending::Script)));
}

#[test]
fn outcome_hook_decides_the_move_that_fills_the_board() {
    let rules = user("misere_hook.toml");
    let mut game = Game::new(rules.clone());
    // X: a1 c1 b2 b3, O: b1 a2 c2 a3, no three in a row for either side.
    play_all(&mut game, "a1 b1 c1 a2 b2 c2 b3 a3");
    assert_eq!(game.ending(), None, "no line after eight moves");
    // The ninth mark fills the board and makes X's diagonal a1-b2-c3: the
    // hook runs before the no-legal-move rule, so X loses instead of a draw.
    play_all(&mut game, "c3");
    assert_eq!(game.position().marks(Side::X).count(), 5);
    assert_eq!(game.ending(), Some((Outcome::Win(Side::O), Ending::Script)));
}

#[test]
fn a_full_board_the_hook_leaves_alone_is_still_a_draw() {
    let rules = user("misere_hook.toml");
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "b2 a1 c3 a3 a2 c2 b3 b1 c1");
    assert_eq!(game.ending(), Some((Outcome::Draw, Ending::Full)));
}

#[test]
fn hooks_see_move_count_and_last_move() {
    let rules = user("watch.toml");
    rules.script().take_output();
    let mut game = Game::new(rules.clone());
    let refusal = |game: &mut Game| {
        game.play(game.parse_move("c3").unwrap())
            .unwrap_err()
            .to_string()
    };

    // At the start: no move played, no last move.
    assert_eq!(
        refusal(&mut game),
        "c3 is closed (move_count 0, last_move ())"
    );
    play_all(&mut game, "a1");
    assert_eq!(
        refusal(&mut game),
        "c3 is closed (move_count 1, last_move a1 (to 0, from (), mark X, step false))"
    );
    // Six placements, then X steps c1-c2 and O steps b2-b3: the eighth move
    // reaches the limit and the hook draws the game.
    play_all(&mut game, "b2 a2 a3 c1 b1");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "c1-c2");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "b2-b3");
    assert_eq!(game.ending(), Some((Outcome::Draw, Ending::Script)));
    assert_eq!(
        rules.script().take_output(),
        [
            "move_count 1, last_move a1 (to 0, from (), mark X, step false)",
            "move_count 2, last_move b2 (to 4, from (), mark O, step false)",
            "move_count 3, last_move a2 (to 3, from (), mark X, step false)",
            "move_count 4, last_move a3 (to 6, from (), mark O, step false)",
            "move_count 5, last_move c1 (to 2, from (), mark X, step false)",
            "move_count 6, last_move b1 (to 1, from (), mark O, step false)",
            "move_count 7, last_move c1-c2 (to 5, from 2, mark X, step true)",
            "move_count 8, last_move b2-b3 (to 7, from 4, mark O, step true)",
        ]
    );
}

#[test]
fn a_set_up_position_counts_its_marks_and_has_no_last_move() {
    let rules = user("watch.toml");
    let start = rules.parse_position("3/1O1/X2 X 2,2").unwrap();
    let mut game = Game::from_position(rules.clone(), start);
    let err = game.play(game.parse_move("c3").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "c3 is closed (move_count 2, last_move ())");
    rules.script().take_output();
    play_all(&mut game, "c1");
    assert_eq!(
        rules.script().take_output(),
        ["move_count 3, last_move c1 (to 2, from (), mark X, step false)"]
    );
}

#[test]
fn a_hook_reads_the_move_history_in_play_and_after_undo() {
    let rules = user("apart.toml");
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a1 b1");
    let err = game.play(game.parse_move("a2").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "X played a1 last, in the same column");
    play_all(&mut game, "c2");
    // O's previous mark is b1: b3 is refused, a3 is not.
    let err = game.play(game.parse_move("b3").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "O played b1 last, in the same column");
    let mut list = MoveList::new();
    rules
        .legal_moves(game.position(), game.moves(), &mut list)
        .unwrap();
    let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
    assert_eq!(legal.join(" "), "c1 a2 a3 c3");
    // Undo takes the move out of the history: X's previous mark is a1 again.
    game.undo();
    let err = game.play(game.parse_move("a3").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "X played a1 last, in the same column");
}

/// Move paths of `depth` moves under the "apart" rule, counted without the
/// engine: a side may not place in the column of its own previous mark, and
/// three in a row ends the game.
fn apart_paths(board: &mut [Option<bool>; 9], history: &mut Vec<usize>, depth: u32) -> u64 {
    let x_to_move = history.len().is_multiple_of(2);
    let legal: Vec<usize> = (0..9)
        .filter(|&c| board[c].is_none())
        .filter(|&c| history.len() < 2 || history[history.len() - 2] % 3 != c % 3)
        .collect();
    if depth == 1 {
        return legal.len() as u64;
    }
    let mut total = 0;
    for c in legal {
        board[c] = Some(x_to_move);
        let line = LINES_3X3
            .iter()
            .any(|l| l.iter().all(|&i| board[i] == Some(x_to_move)));
        if !line {
            history.push(c);
            total += apart_paths(board, history, depth - 1);
            history.pop();
        }
        board[c] = None;
    }
    total
}

#[test]
fn perft_carries_the_history_to_the_hooks() {
    let game = Game::new(user("apart.toml"));
    for depth in 1..=6 {
        let want = apart_paths(&mut [None; 9], &mut Vec::new(), depth);
        let got = gridrules_core::perft::perft(&game, depth).unwrap();
        assert_eq!(got, want, "perft {depth}");
    }
    // Without the rule the counts would be classic's.
    assert_ne!(apart_paths(&mut [None; 9], &mut Vec::new(), 3), 504);
}

#[test]
fn the_computer_plays_by_the_history_rule() {
    use gridrules_core::playout::Rng;
    use gridrules_core::search::{At, Budget, Level, Request, choose};
    let rules = user("apart.toml");
    for seed in 0..4 {
        let mut game = Game::new(rules.clone());
        let mut rng = Rng::new(seed);
        while !game.is_over() {
            let level = if game.moves().len().is_multiple_of(2) {
                Level::Hard
            } else {
                Level::Medium
            };
            let mv = choose(
                At::new(&rules, game.position(), game.moves()),
                Request::new(level, Budget::Playouts(300)),
                &mut rng,
            )
            .unwrap()
            .expect("a move while the game runs");
            game.play(mv)
                .unwrap_or_else(|e| panic!("seed {seed}: the computer played a refused move: {e}"));
        }
    }
}

#[test]
fn the_table_commands_pass_the_game_history_to_the_hooks() {
    let out = gridrules::batch::replay(
        "load user/apart.toml\na1\nb1\nlegal\nperft 2\na2\nai medium\nhistory\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"c1 b2 c2 b3 c3"), "legal: {out}");
    assert!(lines.contains(&"perft 2: 22"), "perft: {out}");
    assert!(
        lines.contains(&"error: a2: X played a1 last, in the same column"),
        "refusal: {out}"
    );
    let reply = lines
        .iter()
        .find_map(|l| l.strip_prefix("X plays "))
        .unwrap_or_else(|| panic!("no computer move: {out}"));
    assert!(
        !reply.starts_with('a'),
        "the computer played {reply} in column a"
    );
}

/// A rulebook of `tests/variants/`, loaded from its path.
fn variant(file: &str) -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(file);
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn the_largest_board_plays_in_every_corner() {
    let rules = variant("five-26.toml");
    assert_eq!(rules.grid().len(), 676);
    // X fills the top row's last five cells (the highest words of a set),
    // O the bottom-left corner's column.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "v26 a1 w26 a2 x26 a3 y26 a4");
    assert_eq!(game.ending(), None);
    let text = rules.position_text(game.position());
    let again = rules.parse_position(&text).unwrap();
    assert_eq!(
        rules.position_text(&again),
        text,
        "position text round trip"
    );
    play_all(&mut game, "z26");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::X), Ending::Line)));
    // A line across the word boundaries of the middle rows.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a13 a1 b13 a2 c13 a3 d13 a4 e13");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::X), Ending::Line)));
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &[], &mut list).unwrap();
    assert_eq!(list.len(), 676);
    let start = Game::new(rules.clone());
    assert_eq!(gridrules_core::perft::perft(&start, 2).unwrap(), 676 * 675);
}

#[test]
fn hooks_see_the_turn_and_the_captures() {
    let rules = user("turns_watch.toml");
    rules.script().take_output();
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "e5 d4 d5 f6");
    assert_eq!(
        rules.script().take_output(),
        [
            r#"O mark 1 of 2; ["X"]; last X"#,
            r#"O mark 2 of 2; ["X", "O"]; last O"#,
            r#"X mark 1 of 2; ["X", "O", "O"]; last O"#,
            r#"X mark 2 of 2; ["X", "O", "O", "X"]; last X"#,
        ]
    );
    // A swap is no mark: O still places two after it, and the hooks see
    // the swap as O's (PI1, SX1).
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "e5 swap d4 d5 f6");
    let out = rules.script().take_output();
    assert_eq!(
        out.last().map(String::as_str),
        Some(r#"X mark 2 of 2; ["X", "O", "O", "O", "X"]; last X"#),
        "{out:?}"
    );

    let rules = user("captures_watch.toml");
    rules.script().take_output();
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "c5 d5 a1 e5 f5");
    assert_eq!(
        rules.script().take_output().last().map(String::as_str),
        Some("captures X 1, O 0")
    );
}

/// PI1 with turns of several marks: `swap` answers the first player's whole
/// first turn, never the middle of it.
#[test]
fn the_swap_waits_for_the_end_of_the_first_turn() {
    let rules = variant("two-first-pie.toml");
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a1");
    assert!(
        game.play(gridrules_core::Move::Swap).is_err(),
        "swap after one of two marks"
    );
    play_all(&mut game, "b1");
    game.play(gridrules_core::Move::Swap)
        .expect("swap after the first turn");
    assert_eq!(game.status_line(), "to move: O — mark 1 of 2");
    // The position text after the swap reads back, whose turn included,
    // also once a line has ended the game on a turn's first mark.
    play_all(&mut game, "a9 b9 c1 d1 c9 d9 e1 h5 h6 h7 f1");
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::X)));
    for pos in game.positions() {
        let text = rules.position_text(pos);
        let back = rules
            .parse_position(&text)
            .unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert!(back.same_state(pos), "`{text}` reads back otherwise");
    }
}

#[test]
fn hard_answers_on_a_slow_hook_rulebook_within_the_command_budget() {
    // Two marks a turn on 9×9 with the pie rule and a printing `outcome`
    // hook: every node of the search runs the hook. The search is capped
    // as a whole, so hard plays instead of running out the command's 10 s
    // of script time (which refused the move before).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("user");
    let output = gridrules::batch::replay(&format!(
        "load {}\nb2\nai hard\n",
        dir.join("turns_watch.toml").display()
    ));
    let last = output
        .lines()
        .rfind(|l| !l.contains(" mark "))
        .unwrap_or("");
    assert!(
        output.lines().any(|l| l.starts_with("O plays ")),
        "no move: {last}"
    );
    assert!(!output.contains("ran out of time"), "{last}");
}

#[test]
fn a_function_one_slip_from_a_hook_is_warned_of_at_load() {
    // `fn outcom(state)` was meant as the `outcome` hook: the engine never
    // calls it, so the variant quietly plays without its rule. It loads,
    // with a warning at the function that names the hook.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("user");
    let rules = Rulebook::from_file(&dir.join("outcom_typo.toml")).unwrap();
    let warnings = rules.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert_eq!(w.location.as_ref().map(|l| (l.line, l.col)), Some((12, 4)));
    assert_eq!(w.kind, ProblemKind::NotAHook, "{w}");
    assert_eq!(w.help.as_deref(), Some("did you mean `fn outcome(state)`?"));
    // The player sees it with the new game, the author with `check`.
    let path = dir.join("outcom_typo.toml");
    for command in ["load", "check"] {
        let output = gridrules::batch::replay(&format!("{command} {}\n", path.display()));
        assert!(
            output.contains("warning: ") && output.contains("did you mean `fn outcome(state)`?"),
            "{command}: {output}"
        );
    }
}

#[test]
fn an_unused_param_and_an_example_of_an_unstated_rule_are_warned_of() {
    // `colour` is set but the script never reads `COLOUR`; the example
    // pins rule C9, which the description never states. Both load, with a
    // warning each, drawn at the key and at the rule ID.
    // Relative to the package (cargo runs tests there), as the snapshot shows it.
    let rules = Rulebook::from_file(Path::new("user/loose_ends.toml")).unwrap();
    let drawn: String = rules
        .warnings()
        .iter()
        .map(gridrules::render::warning)
        .collect();
    insta::assert_snapshot!(drawn);
}

#[test]
fn no_builtin_rulebook_has_warnings() {
    for name in Rulebook::builtin_names() {
        let rules = Rulebook::builtin(name).unwrap();
        assert!(
            rules.warnings().is_empty(),
            "{name}: {:?}",
            rules.warnings()
        );
    }
}

#[test]
fn per_move_hooks_read_the_top_level_tables() {
    // `outcome` walks a top-level `const LINES` built by an imported module,
    // `refuse` reads a top-level `let corners`: the examples pin both rules.
    let rules = user("scope.toml");
    assert!(rules.has_per_move_hooks());
    let checks = gridrules_core::check::run(&rules);
    assert_eq!(checks.len(), 5);
    for c in checks {
        assert!(
            c.failure.is_none(),
            "{} ({}): {}",
            c.example.text,
            c.example.location,
            c.failure.unwrap_or_default()
        );
    }
}

/// A worked example of the authoring guide, from `tests/user/`: it loads
/// with no per-move hook and its `examples` examples all pass.
fn guide_example(file: &str, examples: usize) -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("user")
        .join(file);
    let rules = Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")));
    assert!(!rules.has_per_move_hooks(), "{file}");
    let checked = gridrules_core::check::run(&rules);
    assert_eq!(checked.len(), examples, "{file}");
    assert!(checked.iter().all(|c| c.failure.is_none()), "{checked:?}");
    rules
}

/// The authoring guide's twists example: its examples pass, and every cell
/// comes with each of its nine twists.
#[test]
fn the_guides_twists_example_loads_and_plays() {
    let rules = guide_example("spin4.toml", 3);
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &[], &mut list).unwrap();
    assert_eq!(list.len(), 16 * 9);
    let names: Vec<&str> = rules
        .mechanics()
        .twists()
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["1+", "1-", "2+", "2-", "3+", "3-", "4+", "4-", "swap"]
    );
}

/// The authoring guide's shapes-and-removals example (six men's morris):
/// its examples pass, the board has its 16 points and no more, and a mill
/// is one move per piece it may remove.
#[test]
fn the_guides_removals_example_loads_and_plays() {
    let rules = guide_example("six_mens.toml", 3);
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &[], &mut list).unwrap();
    assert_eq!(list.len(), 16);
    // X on a1 and c1, O on b2 and c2: e1 makes a mill, one move per O piece.
    let pos = rules.parse_position("3/3/4/1OO/XX1 X 4,4 -").unwrap();
    rules.legal_moves(&pos, &[], &mut list).unwrap();
    let texts: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
    assert!(
        texts.contains(&"e1xc2".to_string()) && texts.contains(&"e1xd2".to_string()),
        "{texts:?}"
    );
    assert!(!texts.contains(&"e1".to_string()), "{texts:?}");
}

/// A rulebook of `hooks` on a `size`×`size` board whose `outcome` hook
/// prints what it sees of the last move (`move.text`, `take`, `is_step`)
/// and of the marks' ages.
fn watching(hooks: &str, size: u32) -> Arc<Rulebook> {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "{hooks}\n\
         fn outcome(state) {{\n\
             let mv = state.last_move;\n\
             print(`${{mv.text}} take ${{mv.take}} step ${{mv.is_step}} ages ${{state.ages(\"X\")}} ${{state.ages(\"O\")}}`);\n\
         }}\n"
    );
    std::fs::write(dir.path().join("watch.rhai"), script).unwrap();
    let toml = format!(
        "name = \"watch\"\ntitle = \"watch\"\nscript = \"watch.rhai\"\n\
         [board]\nwidth = {size}\nheight = {size}\n"
    );
    let path = dir.path().join("watch.toml");
    std::fs::write(&path, toml).unwrap();
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// A hook's `move.text` is the move as the player writes it — a slide's
/// name, a twist's, a removal — and `state.ages` the order marks vanish in.
#[test]
fn hooks_see_moves_as_written_and_the_ages_of_marks() {
    let lines = "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n";
    let cases = [
        (
            format!(
                "{lines}fn support(c) {{ gravity::below(c) }}\nfn slides(c) {{ slides::pop(c) }}"
            ),
            3,
            "a1 b1 ^a",
            "^a take  step false ages [] []",
        ),
        (
            format!("{lines}fn twists() {{ twists::blocks(2) }}"),
            4,
            "a1/1+",
            "a1/1+ take  step false ages [] []",
        ),
        (
            format!(
                "{lines}fn pieces() {{ 3 }}\nfn steps(c) {{ movement::king(c) }}\nfn removes() {{ \"any\" }}"
            ),
            3,
            "a1 c3 c1 a3 b2 c2 b2-b1xc2",
            "b2-b1xc2 take 5 step true ages [] []",
        ),
        (
            format!("{lines}fn keep_marks() {{ 2 }}"),
            3,
            "a1 c3 b2 c1 a3",
            "a3 take  step false ages [4, 6] [8, 2]",
        ),
    ];
    for (hooks, size, moves, seen) in cases {
        let rules = watching(&hooks, size);
        let mut game = Game::new(rules.clone());
        rules.script().take_output();
        play_all(&mut game, moves);
        let out = rules.script().take_output();
        assert_eq!(
            out.last().map(String::as_str),
            Some(seen),
            "{moves}: {out:?}"
        );
    }
}

/// The authoring guide's move-number example: its examples pass with no
/// per-move hook; X's first move leaves out the centre, and every answer
/// of O's may take it.
#[test]
fn the_guides_move_number_example_loads_and_plays() {
    let rules = guide_example("centre_later.toml", 3);
    let start = rules.initial();
    let mut list = MoveList::new();
    rules.legal_moves(&start, &[], &mut list).unwrap();
    let first: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
    assert_eq!(first, ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]);
    for &mv in list.clone().iter() {
        let next = rules.play(&start, &[], mv).unwrap();
        rules.legal_moves(&next, &[mv], &mut list).unwrap();
        assert_eq!(list.len(), 8, "O may take any empty cell, the centre too");
    }
}

/// Picaria, the guide's move-number rule with pieces: its examples pass
/// with no per-move hook; X's first placement leaves out the centre, its
/// later ones and every step may take it, and a random game from every
/// position of the placements keeps to the rule.
#[test]
fn picarias_first_piece_is_kept_off_the_centre_and_its_steps_are_free() {
    let rules = guide_example("picaria.toml", 5);
    let centre = rules.grid().parse_cell("b2").unwrap();
    let mut list = MoveList::new();
    let mut rng = gridrules_core::Rng::new(7);
    for _ in 0..200 {
        let (mut pos, mut history) = (rules.initial(), Vec::new());
        while !pos.is_over() && history.len() < 40 {
            rules.legal_moves(&pos, &history, &mut list).unwrap();
            let x_first = pos.turn() == Side::X && pos.marks(Side::X).count() == 0;
            assert_eq!(
                list.iter().any(|m| m.to() == Some(centre)),
                !x_first && !pos.occupied().contains(centre),
                "{}",
                rules.position_text(&pos)
            );
            let mv = list[rng.below(list.len())];
            pos = rules.play(&pos, &history, mv).unwrap();
            history.push(mv);
        }
    }
}

/// Shisima, pieces that all start on the board: its examples pass with no
/// per-move hook, and `setup` refuses pieces in hand, which its start
/// never gives (a first-time author saw `setup 3/3/3 X 3,3` accepted, and
/// placements offered).
#[test]
fn shisimas_pieces_start_on_the_board_and_no_hand_comes_back() {
    let rules = guide_example("shisima.toml", 6);
    for text in ["3/3/3 X 3,3", "OO1/3/XXX O", "OO1/3/XXX O 0,1"] {
        let e = rules.parse_position(text).unwrap_err().to_string();
        assert!(
            e.contains(
                "but the game starts with 0 (the rulebook's start), and a hand only shrinks"
            ),
            "{text}: {e}"
        );
    }
    let pos = rules.parse_position("OO1/1O1/XXX X").unwrap();
    assert_eq!(rules.position_text(&pos), "OO1/1O1/XXX X 0,0 -");
}

/// Where lines remove pieces and the start holds fewer in hand than the
/// pieces, a set-up that leaves the hand out takes no more than the start
/// held: the board's count alone (pieces less those on the board) would
/// count removed pieces as in hand (a review found it refused).
#[test]
fn a_left_out_hand_after_removals_keeps_to_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toml = std::fs::read_to_string(root.join("rules/nine-mens-morris.toml")).unwrap();
    let toml = toml.replacen(
        "height = 7\n",
        "height = 7\nstart = \"X1X/3/3/6/3/X2/OO1 O 6,7\"\n",
        1,
    );
    std::fs::write(dir.path().join("started.toml"), toml).unwrap();
    std::fs::copy(
        root.join("scripts/nine_mens_morris.rhai"),
        dir.path().join("nine_mens_morris.rhai"),
    )
    .unwrap();
    let rules = Rulebook::from_file(&dir.path().join("started.toml")).unwrap();
    let mut game = Game::new(Arc::new(rules.clone()));
    play_all(&mut game, "g1xa7");
    let text = rules.position_text(game.position());
    assert_eq!(text, "2X/3/3/6/3/X2/OOO X 6,6 -");
    for written in [text.as_str(), "2X/3/3/6/3/X2/OOO X"] {
        let pos = rules
            .parse_position(written)
            .unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(rules.position_text(&pos), text, "{written}");
    }
    // More in hand than the start gave is refused, written or not.
    let e = rules.parse_position("2X/3/3/6/3/X2/OOO X 7,6").unwrap_err();
    assert!(e.to_string().contains("a hand only shrinks"), "{e}");
}

/// The authoring guide's patterns example: its examples pass with no
/// per-move hook; the double three at f6 is left out of `legal` for X and,
/// with the colours swapped, for O; X's six in a row is no win, O's is.
#[test]
fn the_guides_patterns_example_loads_and_plays() {
    let rules = guide_example("fair_fives.toml", 3);
    let mut list = MoveList::new();
    for text in [
        "11/11/11/11/O10/3XX6/O4X5/5X5/O10/11/O10 X",
        "10X/11/11/11/X10/3OO6/X4O5/5O5/X10/11/X10 O",
    ] {
        let pos = rules.parse_position(text).unwrap();
        rules.legal_moves(&pos, &[], &mut list).unwrap();
        let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
        assert!(!legal.iter().any(|m| m == "f6"), "{text}");
        let empty = (pos.marks(Side::X) | pos.marks(Side::O)).count() as usize;
        assert_eq!(
            legal.len(),
            121 - empty - 1,
            "{text}: every other empty cell"
        );
    }
    let six = |text: &str| {
        let pos = rules.parse_position(text).unwrap();
        let mv = rules.parse_move(&pos, &[], "e1").unwrap();
        rules.play(&pos, &[], mv).unwrap().outcome()
    };
    let (x, o) = (
        "10O/11/O10/11/O10/11/O10/11/O10/11/XXXX1X5 X",
        "10X/11/X10/11/X10/11/X10/11/X10/X10/OOOO1O5 O",
    );
    assert_eq!(six(x), None, "FF1: six is no win for X");
    assert_eq!(six(o), Some(Outcome::Win(Side::O)), "FF1: O wins with six");
}

/// The authoring guide's start-position example (`[board] start`): a new
/// game starts from X on a1 with O to move, its eight replies are the
/// legal moves, and undo stops at the start.
#[test]
fn the_guides_start_position_example_loads_and_plays() {
    let rules = guide_example("corner_start.toml", 3);
    let start = rules.initial();
    assert_eq!(rules.position_text(&start), "3/3/X2 O - -");
    let mut list = MoveList::new();
    rules.legal_moves(&start, &[], &mut list).unwrap();
    assert_eq!(list.len(), 8);
    let mut game = Game::new(rules.clone());
    assert_eq!(game.position().turn(), Side::O);
    game.play(list[0]).unwrap();
    assert!(game.undo().is_some());
    assert!(game.undo().is_none(), "the start is where undo stops");
    assert_eq!(*game.position(), start);
    // A handicap: X starts with two marks and O to move; later positions
    // are counted from there.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("user/corner_start.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let handicap = text.replace("start = \"3/3/X2 O\"", "start = \"3/3/XX1 O\"");
    let dir = path.parent().map(Path::to_path_buf);
    let rules = Rulebook::from_str_at(&handicap, "handicap.toml", dir).unwrap();
    assert_eq!(rules.position_text(&rules.initial()), "3/3/XX1 O - -");
    assert!(rules.parse_position("3/1O1/XX1 X").is_ok());
    let e = rules.parse_position("3/1O1/XX1 O").unwrap_err();
    assert_eq!(
        e.to_string(),
        "wrong counts: with O to move, X must have 2 marks more than O (X has 2, O has 1): turns alternate (G1)"
    );
}

/// The authoring guide's stacks example: its examples pass with no
/// per-move hook; a piece that shows steps only to its neighbours, over
/// a smaller piece too, and every size from hand goes to each cell it may
/// cover.
#[test]
fn the_guides_stacks_example_loads_and_plays() {
    let rules = guide_example("step_stacks.toml", 5);
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &[], &mut list).unwrap();
    assert_eq!(list.len(), 16 * 2, "each size on each cell");
    let mut game = Game::new(rules.clone());
    for text in ["b2=S", "b2=L", "a1=S"] {
        let mv = game.parse_move(text).unwrap();
        game.play(mv).unwrap();
    }
    rules
        .legal_moves(game.position(), game.moves(), &mut list)
        .unwrap();
    let mut steps: Vec<String> = list
        .iter()
        .map(|&m| rules.move_text(m))
        .filter(|m| m.starts_with("b2-"))
        .collect();
    steps.sort();
    assert_eq!(
        steps,
        [
            "b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"
        ],
        "O's large piece steps to each neighbour, over X's small one on a1 too"
    );
}

/// TM3 of twelve men's morris, without a per-move hook: a board filled
/// while placing is a draw (`full_board()`), where pieces that cannot move
/// lose (`no_moves()`). It took an `outcome` hook before, 2 000 times
/// slower, whose result said only "decided by the rulebook's script".
#[test]
fn a_full_board_is_judged_apart_from_blocked_pieces() {
    let rules = user("twelve_mens.toml");
    assert!(!rules.has_per_move_hooks());
    let mut game = Game::new(rules.clone());
    play_all(
        &mut game,
        "d1 a1 g1 b2 f2 d2 c3 d3 a4 e3 b4 c4 e4 f4 e5 g4 d6 c5 f6 d5 a7 b6 d7 g7",
    );
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(
        game.status_line(),
        "result: draw — no cell left to play",
        "{}",
        game.status_line()
    );
    // The blocked side loses: `no_moves()`'s word stands.
    assert_eq!(
        rules.mechanics().no_moves(),
        gridrules_core::rulebook::NoMoves::Loss
    );
}

/// KP2–KP3 of Keryo-Pente, without a per-move hook: `capture_wins()`
/// counts stones (`#{ stones: 15 }`), so a capture of three counts three.
/// It took an `outcome` hook before, wrong after `setup`.
#[test]
fn captures_count_the_stones_they_take() {
    let rules = user("keryo_pente.toml");
    assert!(!rules.has_per_move_hooks());
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "j10 k10 a1 l10 a2 m10 n10");
    assert_eq!(game.position().captures(Side::X), 3, "a three taken");
    assert_eq!(
        rules
            .mechanics()
            .captures()
            .status(game.position())
            .as_deref(),
        Some("stones captured: X 3, O 0")
    );
    // Twelve stones taken; X's n10 takes three more and wins, though
    // O's four on row 19 would win next.
    let text = "OOOO15/19/19/19/19/19/19/19/19/9XOOO6/19/19/19/19/19/19/\
                X1X1X1X1X1X1X1X4/19/X1X1X1X1X1X1X1X1X1X X - - 12/0";
    let pos = rules.parse_position(text).unwrap();
    let mut won = Game::from_position(rules.clone(), pos);
    play_all(&mut won, "n10");
    assert_eq!(won.status_line(), "result: X wins — 15 stones captured");
    // The computer counts them too: it takes the win, not the block.
    assert_eq!(computer_moves(&rules, &pos), ["n10", "n10"]);
}

/// The moves medium and hard choose in `pos` (seed 1).
fn computer_moves(rules: &Rulebook, pos: &gridrules_core::Position) -> Vec<String> {
    [Level::Medium, Level::Hard]
        .into_iter()
        .map(|level| {
            let request = Request::new(level, Budget::Playouts(2_000));
            let mv = choose(At::new(rules, pos, &[]), request, &mut Rng::new(1));
            rules.move_text(mv.unwrap().unwrap())
        })
        .collect()
}

/// CA1–CA2 of Caro, without a per-move hook (`line_ends()`): a five with
/// the opponent's marks beyond both ends does not win — in play, in a
/// set-up position, and for the computer, which blocks a real threat
/// rather than fill that five.
#[test]
fn a_run_blocked_at_both_ends_does_not_win() {
    let rules = user("caro.toml");
    assert!(!rules.has_per_move_hooks());
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "c3 b3 d3 h3 e3 a15 f3 c15 g3");
    assert_eq!(game.outcome(), None, "c3–g3 is blocked by b3 and h3");
    // The same five, set up, is a game going on.
    let blocked = "O1O12/15/15/15/15/15/15/15/15/15/15/15/1OXXXXXO7/15/15 O";
    let pos = rules.parse_position(blocked).unwrap();
    assert_eq!(pos.outcome(), None);
    // X's g3 would make that blocked five; O's four on row 15 wins at e15
    // unless X blocks it.
    let text = "OOOO11/15/15/15/15/15/11X3/15/9X5/15/15/15/1OXXXX1O7/15/15 X";
    let pos = rules.parse_position(text).unwrap();
    assert_eq!(computer_moves(&rules, &pos), ["e15", "e15"]);
}

/// A refusal names the fault a move's text can be mended at: a wrong mark
/// on a taken cell is refused for the cell (it used to say "write b2", a
/// move refused as well). A step onto its own cell stays refused as onto
/// an occupied one, as M5's transcript pins.
#[test]
fn refusals_name_the_fault_that_can_be_mended() {
    let classic = Arc::new(Rulebook::builtin("classic").unwrap());
    let mut game = Game::new(classic);
    play_all(&mut game, "b2");
    let err = game.parse_move("b2=X").unwrap_err();
    assert!(
        matches!(
            err,
            PlayError::Refused {
                refusal: Refusal::Occupied(_),
                ..
            }
        ),
        "{err:?}"
    );
    let moving = Arc::new(Rulebook::builtin("moving").unwrap());
    let mut game = Game::new(moving);
    play_all(&mut game, "a1 b1 c1 a2 c2 b2");
    let mv = game.parse_move("a1-a1").unwrap();
    let err = game.play(mv).unwrap_err();
    assert!(
        matches!(
            err,
            PlayError::Refused {
                refusal: Refusal::Occupied(..),
                ..
            }
        ),
        "{err:?}"
    );
}

/// A `forbidden` refusal may say which move of the side's it is (`{n}`):
/// one text for a rule that closes other cells on each move.
#[test]
fn a_forbidden_refusal_names_the_move_number() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pro.rhai"),
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn forbidden(side, n) { if side == \"X\" && n == 2 { [cell(1, 1), cell(0, 0)] } else { [] } }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("pro.toml"),
        "name = \"pro\"\ntitle = \"p\"\nscript = \"pro.rhai\"\n[board]\nwidth = 3\nheight = 3\n\
         [refusals]\nforbidden = \"{cell} is closed to {mark}'s move {n} (P2)\"\n",
    )
    .unwrap();
    let rules = Arc::new(Rulebook::from_file(&dir.path().join("pro.toml")).unwrap());
    let mut game = Game::new(rules);
    play_all(&mut game, "c3 c2");
    let err = game
        .parse_move("b2")
        .and_then(|mv| game.play(mv))
        .unwrap_err();
    assert_eq!(err.to_string(), "b2 is closed to X's move 2 (P2)");
}

/// Gomoku's swap opening (SW1–SW3), the authoring guide's example of a
/// turn that names its marks (`turn_marks()` of `[["X", "O", "X"], 1]`):
/// its examples pass; the computer's opening places the marks named, X's
/// moves all three; past the opening hard plays gomoku with the row
/// search, and a set-up position counts the marks the turns place.
#[test]
fn a_turn_that_names_its_marks_opens_gomoku_with_a_swap() {
    use gridrules_core::search::Report;
    let rules = guide_example("swap1.toml", 6);
    let mut game = Game::new(rules.clone());
    for named in [Side::X, Side::O, Side::X] {
        assert_eq!(game.position().turn(), Side::X);
        let request = Request::new(Level::Hard, Budget::Playouts(300));
        let at = At::new(&rules, game.position(), game.moves());
        let mv = choose(at, request, &mut Rng::new(1)).unwrap().unwrap();
        assert!(
            matches!(mv, gridrules_core::Move::Place { mark, .. } if mark == named),
            "{}",
            rules.move_text(mv)
        );
        game.play(mv).unwrap();
    }
    assert_eq!(game.position().turn(), Side::O);
    // The status line names the mark a move of the opening places.
    let mut opening = Game::new(rules.clone());
    play_all(&mut opening, "h8");
    assert_eq!(opening.status_line(), "to move: X — mark 2 of 3, placing O");
    // Past the opening: the row search, as in gomoku. X has a four, closed
    // at c8; O must take h8.
    let text = "15/15/15/15/15/15/15/2OXXXX8/15/15/15/15/15/15/O1O12 O";
    let pos = rules.parse_position(text).unwrap();
    let mut report = Report::default();
    let request = Request::new(Level::Hard, Budget::Playouts(2_000)).report(&mut report);
    let mv = choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
    assert_eq!(rules.move_text(mv.unwrap()), "h8");
    let quiet = "15/15/15/15/15/15/7O7/6XX7/7O7/15/15/15/15/15/15 X";
    let pos = rules.parse_position(quiet).unwrap();
    let mut report = Report::default();
    let request = Request::new(Level::Hard, Budget::Playouts(2_000)).report(&mut report);
    choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
    assert_eq!(report.method, "alpha-beta", "{report:?}");
    // The counts the turns give: X placed three marks, one of them O's.
    let wrong = "15/15/15/15/15/15/7X7/6XX7/15/15/15/15/15/15/15 O";
    let e = rules.parse_position(wrong).unwrap_err().to_string();
    assert!(
        e.contains("the board holds 2 X and 1 O, by the turns"),
        "{e}"
    );
}

/// What is said of a move of the swap opening says the mark it placed
/// where that is the opponent's (`h9=O`, which parses back to the move),
/// and the status line says when `swap` may answer (a new user saw `X
/// plays e1` beside an O on e1, and nothing said that `swap` was open).
#[test]
fn the_swap_opening_says_each_mark_placed_and_when_swap_may_answer() {
    let rules = guide_example("swap1.toml", 6);
    let mut game = Game::new(rules.clone());
    let mut said = Vec::new();
    for text in ["h8", "h9", "g9"] {
        let mv = rules
            .parse_move(game.position(), game.moves(), text)
            .unwrap();
        let written = rules.move_text_in(game.position(), mv);
        assert_eq!(
            rules.parse_move(game.position(), game.moves(), &written),
            Ok(mv),
            "{written}"
        );
        said.push(written);
        game.play(mv).unwrap();
    }
    assert_eq!(said, ["h8", "h9=O", "g9"]);
    assert_eq!(
        game.status_line(),
        "to move: O — may answer `swap` (pie rule)"
    );
    // Past the opening an own mark is written bare, and swap is spent.
    play_all(&mut game, "h7");
    let mv = rules
        .parse_move(game.position(), game.moves(), "g8")
        .unwrap();
    assert_eq!(rules.move_text_in(game.position(), mv), "g8");
    assert_eq!(game.status_line(), "to move: X");
}

/// The swap opening's choice (SW2) reads every mark of the first turn:
/// the second player takes X where X's mark nearest the centre is nearer
/// than O's, whichever X mark came first (a review found that only X's
/// first-numbered mark was read, so two mirror images were answered
/// apart); and `setup` refuses a swap before the whole first turn.
#[test]
fn the_swap_opening_is_weighed_by_all_its_marks() {
    let rules = guide_example("swap1.toml", 6);
    let answer = |moves: &str| {
        let mut game = Game::new(rules.clone());
        play_all(&mut game, moves);
        let request = Request::new(Level::Hard, Budget::Playouts(300));
        let at = At::new(&rules, game.position(), game.moves());
        let mv = choose(at, request, &mut Rng::new(1)).unwrap().unwrap();
        rules.move_text(mv)
    };
    assert_eq!(answer("a1 o15 h8"), "swap");
    assert_eq!(answer("o15 a1 h8"), "swap");
    assert_ne!(answer("a1 h8 o15"), "swap", "O holds the centre");
    let early = "15/15/15/15/15/15/15/7X7/15/15/15/15/15/15/15 X - - swapped";
    let e = rules.parse_position(early).unwrap_err().to_string();
    assert!(
        e.contains("answers the whole first turn, 3 marks, and the board holds 1"),
        "{e}"
    );
}

/// Turns that name their marks are refused with rules judged for the
/// side that moves: forbidden patterns and restrictions by move number
/// (a named mark may be the other side's; a review found X's double
/// three refused on an O that X placed).
#[test]
fn named_marks_refuse_rules_of_the_mover() {
    let dir = tempfile::tempdir().unwrap();
    for (name, hook, said) in [
        (
            "patterns",
            "fn forbidden_patterns(side) { if side == \"X\" { [\"double three\"] } }",
            "forbidden_patterns() cannot go with turns that name their marks",
        ),
        (
            "restricted",
            "fn forbidden(side, n) { if side == \"X\" && n == 1 { [cell(4, 4)] } }",
            "forbidden() cannot go with turns that name their marks",
        ),
    ] {
        std::fs::write(
            dir.path().join(format!("{name}.rhai")),
            format!(
                "fn lines() {{ lines::straight(5) }}\nfn wins(run) {{ run >= 5 }}\n\
                 fn turn_marks() {{ [[\"X\", \"O\", \"X\"], 1] }}\n{hook}\n"
            ),
        )
        .unwrap();
        let text = format!(
            "name = \"{name}\"\ntitle = \"t\"\nscript = \"{name}.rhai\"\n\
             [board]\nwidth = 9\nheight = 9\n"
        );
        let e = Rulebook::from_str_at(&text, "t.toml", Some(dir.path().to_path_buf()))
            .unwrap_err()
            .to_string();
        assert!(e.contains(said), "{name}: {e}");
    }
}

/// `lines::wrapped`: on a cylinder (`across`) or a torus (both), each line
/// is `k` distinct cells, each a step on from the one before in one of the
/// four directions, the step taken across a joined edge where it goes off
/// the board; no two lines hold the same cells; and there are as many as
/// counted by hand: a start cell for each line in each direction, less
/// the starts whose window would leave an edge that is not joined, and
/// less the repeats where a window is a whole wrapped row (3×3: its three
/// rows from each of three cells).
#[test]
fn wrapped_lines_go_on_across_the_joined_edges() {
    // (width, height, k, across, down, lines)
    let cases = [
        (3, 3, 3, true, true, 12),
        (4, 4, 3, true, true, 64),
        // Rows: 5 starts a row; a column is one whole wrapped column;
        // a diagonal wraps round all 15 cells before it comes back, so
        // each of its 15 starts is its own window.
        (5, 3, 3, true, true, 15 + 5 + 2 * 15),
        // Rows: 7 starts a row; columns: 3 starts a column; each diagonal
        // direction: 7 × 3.
        (7, 6, 4, true, false, 42 + 21 + 42),
        (6, 7, 4, false, true, 3 * 7 + 6 * 7 + 2 * 3 * 7),
        // Nothing joined: the windows of straight lines.
        (4, 4, 3, false, false, 8 + 8 + 4 + 4),
    ];
    for (w, h, k, across, down, want) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("w.rhai"),
            format!("fn lines() {{ lines::wrapped({k}, {across}, {down}) }}\nfn wins(run) {{ run >= {k} }}\n"),
        )
        .unwrap();
        let text = format!(
            "name = \"w\"\ntitle = \"t\"\nscript = \"w.rhai\"\n[board]\nwidth = {w}\nheight = {h}\n"
        );
        let rules = Rulebook::from_str_at(&text, "w.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}"));
        let g = rules.grid();
        let lines = rules.mechanics().lines();
        let case = format!("{w}×{h}, k {k}, across {across}, down {down}");
        assert_eq!(lines.len(), want, "{case}");
        let mut sets = std::collections::BTreeSet::new();
        for line in lines {
            assert_eq!(line.len(), k as usize, "{case}");
            let mut cells: Vec<usize> = line.iter().map(|c| c.index()).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), k as usize, "{case}: a cell twice");
            assert!(sets.insert(cells), "{case}: the same cells twice");
            let step = |a, b, n: u32, wraps: bool| -> i64 {
                let d = i64::from(b) - i64::from(a);
                match d {
                    _ if wraps && d == i64::from(n) - 1 => -1,
                    _ if wraps && d == 1 - i64::from(n) => 1,
                    _ => d,
                }
            };
            let steps: Vec<(i64, i64)> = line
                .windows(2)
                .map(|p| {
                    (
                        step(g.col(p[0]), g.col(p[1]), w, across),
                        step(g.row(p[0]), g.row(p[1]), h, down),
                    )
                })
                .collect();
            assert!(
                steps.iter().all(|&s| s == steps[0])
                    && [(1, 0), (0, 1), (1, 1), (1, -1)].contains(&steps[0]),
                "{case}: {steps:?}"
            );
        }
    }
    // A window longer than a wrapped row is refused at load, where it is.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("w.rhai"),
        "fn lines() { lines::wrapped(4, true, true) }\nfn wins(run) { run >= 4 }\n",
    )
    .unwrap();
    let text = "name = \"w\"\ntitle = \"t\"\nscript = \"w.rhai\"\n[board]\nwidth = 3\nheight = 5\n";
    let e = Rulebook::from_str_at(text, "w.toml", Some(dir.path().to_path_buf()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a row that wraps has 3 cells: lines::wrapped cannot take windows of 4")
            && e.contains("w.rhai:1:14"),
        "{e}"
    );
}

/// The guide's boards whose lines wrap: their examples pass with no
/// per-move hook.
#[test]
fn the_guides_wrapping_boards_pass_their_examples() {
    guide_example("torus.toml", 5);
    guide_example("cylinder.toml", 5);
}

/// A move that completes a line, written without its removal, where the
/// rulebook's `refuse` hook refuses it whatever it removes (Dara's "no
/// three while placing"): the hook's reason, not a request to name a piece
/// that would be refused as well (a variant author was asked for `c1x…`,
/// then refused). Where the hook allows some removal, the request stands,
/// its example a removal the hook allows.
#[test]
fn a_move_its_hook_refuses_with_any_removal_gets_the_hooks_reason() {
    let rules = scripted(
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn pieces() { 4 }\nfn steps(c) { movement::orthogonal(c) }\nfn removes() { \"any\" }\n\
         fn refuse(state, mv) {\n\
             if mv.from == () && mv.take != () { return \"no three in a row while placing (DA3)\"; }\n\
             if mv.take == cell(3, 2) { return \"d3 is kept (DA9)\"; }\n\
         }\n",
        4,
        4,
    );
    let mut game = Game::new(rules);
    play_all(&mut game, "a1 d4 b1 d3");
    assert_eq!(
        refused(&mut game, "c1"),
        "no three in a row while placing (DA3)"
    );
    assert_eq!(
        refused(&mut game, "c1xd4"),
        "no three in a row while placing (DA3)"
    );
    // A step that completes a line: the hook keeps d3, the first piece
    // it could remove, so the example names the next.
    play_all(&mut game, "a3 c4 c2 a4");
    let said = refused(&mut game, "c2-c1");
    assert!(
        said.contains("name the piece it removes too, like c2-c1xa4"),
        "{said}"
    );
    assert_eq!(refused(&mut game, "c2-c1xd3"), "d3 is kept (DA9)");
}

/// The guide's Dara (`placing_lines()` "count for nothing", lines of
/// exactly three): its examples pass with no per-move hook, so it plays in
/// the playout kernel.
#[test]
fn the_guides_dara_passes_its_examples() {
    let rules = guide_example("dara.toml", 9);
    assert!(rules.plays_in_kernel(), "dara plays outside the kernel");
    // A move written with an `x` and no piece: a placement whose line
    // removes nothing says so, but a taken cell is refused as taken (it
    // was answered as a three that removes nothing).
    let mut game = Game::new(rules);
    play_all(&mut game, "a1 a5 b1 b5");
    let said = |game: &Game, text: &str| game.parse_move(text).unwrap_err().to_string();
    assert!(said(&game, "c1x").contains("removes nothing: write c1 alone (DA1)"));
    assert!(
        !said(&game, "b1x").contains("three"),
        "{}",
        said(&game, "b1x")
    );
}

/// `placing_lines()` "refused": a placement that would make a line is
/// refused, whether or not it names a piece, and is no legal move; a step
/// that makes one removes as usual.
#[test]
fn placing_lines_refused_keeps_placements_from_making_lines() {
    let rules = scripted(
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn pieces() { 4 }\nfn steps(c) { movement::orthogonal(c) }\nfn removes() { \"any\" }\n\
         fn placing_lines() { \"refused\" }\nfn no_moves() { \"loss\" }\n",
        4,
        4,
    );
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a1 d4 b1 d3");
    let said =
        "c1 would complete a line while pieces are placed, which the rules refuse: place elsewhere";
    assert_eq!(refused(&mut game, "c1"), said);
    assert_eq!(refused(&mut game, "c1xd4"), said);
    let mut list = MoveList::new();
    rules.legal_moves(game.position(), &[], &mut list).unwrap();
    let c1 = rules.grid().parse_cell("c1").unwrap();
    assert!(!list.iter().any(|m| m.to() == Some(c1)), "{list:?}");
    assert_eq!(list.len(), 16 - 4 - 1, "every open cell but c1: {list:?}");
    // A step that makes a line removes as usual.
    play_all(&mut game, "c2 c4 a3 d1");
    let said = refused(&mut game, "c2-c1");
    assert!(
        said.contains("c1 completes a line: name the piece"),
        "{said}"
    );
    play_all(&mut game, "c2-c1xd4");
    assert_eq!(game.position().marks(gridrules_core::Side::O).count(), 3);
}

/// `setup` keeps to what `placing_lines()` lets a game reach: where a
/// placement's line removes nothing, no piece is gone while the opponent
/// still places; where it is refused, no line of a side still placing
/// stands. The same positions load where lines made while placing remove.
#[test]
fn setup_keeps_to_what_placing_lines_allows() {
    let dara = guide_example("dara.toml", 9);
    let err = dara
        .parse_position("OO4/6/6/6/XXX3 X 6,6 -")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("X has lost 3 pieces while O still has pieces to place"),
        "{err}"
    );
    let load = |placing: &str| {
        let script = format!(
            "fn lines() {{ lines::straight(3) }}\nfn wins(run) {{ run >= 3 }}\n\
             fn pieces() {{ 12 }}\nfn steps(c) {{ movement::orthogonal(c) }}\nfn removes() {{ \"any\" }}\n\
             fn placing_lines() {{ \"{placing}\" }}\n"
        );
        scripted(&script, 6, 5)
    };
    let standing = "OOO3/6/6/6/XXX3 X 9,9 -";
    let err = load("refused")
        .parse_position(standing)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("X has a line standing (a1 b1 c1) while it still has pieces to place"),
        "{err}"
    );
    assert!(load("count for nothing").parse_position(standing).is_ok());
    assert!(
        load("remove")
            .parse_position("OO4/6/6/6/XXX3 X 6,6 -")
            .is_ok()
    );
}
