//! Boards drawn for people: coordinates on the edges, the last move, the
//! phase of moving tic-tac-toe, ultimate's closed and target boards, and a
//! 15×15 board that fits 80 columns. Snapshots; `cargo insta review` accepts.

use gridrules::batch::step;
use gridrules::render::{Style, board};
use gridrules::session::{Session, Setting};
use gridrules_core::Rulebook;

const PLAIN: Style = Style {
    boards: true,
    color: false,
    width: Some(80),
};

fn after(rulebook: &str, commands: &[&str]) -> Session {
    let mut session = Session::new(
        Rulebook::builtin(rulebook).unwrap(),
        rulebook,
        Setting::Batch,
    );
    for c in commands {
        let s = step(&mut session, c, Style::BATCH);
        assert!(!s.failed, "{c}: {}", s.text);
    }
    session
}

#[test]
fn classic_with_the_last_move() {
    insta::assert_snapshot!(board(&after("classic", &["b2", "a1", "c3"]), PLAIN));
}

#[test]
fn moving_shows_the_phase_and_pieces_in_hand() {
    let placing = board(&after("moving", &["b2", "a1", "c3"]), PLAIN);
    let moving = board(
        &after("moving", &["b2", "a1", "c3", "a3", "b1", "c2"]),
        PLAIN,
    );
    insta::assert_snapshot!(format!("{placing}\n{moving}"));
}

#[test]
fn ultimate_shows_won_drawn_and_target_boards() {
    // Board 1 won by X, board 2 drawn, the next move sent to board 5.
    let setup = "setup OO1OO4/9/9/9/9/9/2XXOX3/1X1XOO3/X2OXX3 X - 5";
    insta::assert_snapshot!(board(&after("ultimate", &[setup]), PLAIN));
}

/// Once the game is over no small board's empty cell is drawn open (`.`),
/// the board the last move sent play to included: every one is `·`.
#[test]
fn ultimate_shows_no_open_cell_after_the_result() {
    // O's i6 takes board 6 (g4–i6), its third won board in a row (4 5
    // 6), and sends play to board 9, which is empty.
    let setup = "setup 9/9/X1XX5/OOOOOOOO1/9/9/9/2X6/X1XX1XX2 O - 6";
    let mut session = after("ultimate", &[setup]);
    let s = step(&mut session, "i6", PLAIN);
    assert!(s.text.contains("result: O wins"), "{}", s.text);
    let drawn = board(&session, PLAIN);
    let grid: String = drawn
        .lines()
        .filter(|l| l.contains('|'))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!grid.contains('.'), "{drawn}");
    assert!(grid.contains('·'), "{drawn}");
    // A resignation ends it as well (a review found the board sent to
    // still open after one).
    let session = after("ultimate", &["e5", "resign"]);
    let drawn = board(&session, PLAIN);
    let grid: String = drawn.lines().filter(|l| l.contains('|')).collect();
    assert!(!grid.contains('.'), "{drawn}");
}

/// Every line of `text` fits an 80-column terminal.
fn assert_fits_80_columns(text: &str) {
    for line in text.lines() {
        let width = line.chars().count();
        assert!(width <= 80, "{width} columns: {line}");
    }
}

/// Every built-in's board, with its hints (how to drop, to slide, the
/// pieces in hand), fits 80 columns at the start and after a first move.
#[test]
fn every_built_in_board_fits_80_columns() {
    for name in Rulebook::builtin_names() {
        let mut session = after(name, &[]);
        assert_fits_80_columns(&board(&session, PLAIN));
        let rules = session.rulebook().clone();
        let mut list = gridrules_core::MoveList::new();
        rules
            .legal_moves(session.game().position(), &[], &mut list)
            .unwrap();
        if let Some(&mv) = list.first() {
            let mv = rules.move_text(mv);
            let s = step(&mut session, &mv, Style::BATCH);
            assert!(!s.failed, "{name} {mv}: {}", s.text);
            assert_fits_80_columns(&board(&session, PLAIN));
        }
    }
}

#[test]
fn gomoku_fits_in_80_columns() {
    let text = board(&after("gomoku", &["h8", "i9", "a1", "o15"]), PLAIN);
    assert_fits_80_columns(&text);
    insta::assert_snapshot!(text);
}

#[test]
fn colour_marks_the_sides_and_the_last_move() {
    let session = after("classic", &["b2", "a1"]);
    let coloured = board(
        &session,
        Style {
            color: true,
            ..PLAIN
        },
    );
    assert!(
        coloured.contains("\x1b[1;31mX\x1b[0m"),
        "X in red: {coloured:?}"
    );
    // The last move, O on a1, is shown in reverse video.
    assert!(
        coloured.contains("\x1b[7m\x1b[1;34mO\x1b[0m"),
        "last move marked: {coloured:?}"
    );
    assert!(!board(&session, PLAIN).contains('\x1b'));
}

#[test]
fn connect_four_shows_the_columns_a_mark_may_drop_into() {
    // Column d filled to the top (no `v` above it), e holds one mark.
    let text = board(
        &after("connect-four", &["d", "d", "d", "d", "d", "d", "e"]),
        PLAIN,
    );
    let drops = text.lines().next().unwrap();
    assert_eq!(drops, "  v v v   v v v", "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn connect_four_typed_as_columns_or_cells() {
    // `d` and `d1`, `d` and `d2`: the same board either way.
    let by_column = board(&after("connect-four", &["d", "d", "e"]), PLAIN);
    let by_cell = board(&after("connect-four", &["d1", "d2", "e1"]), PLAIN);
    assert_eq!(by_column, by_cell);
    insta::assert_snapshot!(by_column);
}

#[test]
fn qubic_shows_four_named_layers_side_by_side() {
    // One mark in each layer, in different rows.
    let text = board(&after("qubic", &["a1", "f2", "k3", "p4", "b1"]), PLAIN);
    assert_fits_80_columns(&text);
    insta::assert_snapshot!(text);
}

#[test]
fn order_chaos_shows_the_roles_and_how_to_choose_a_mark() {
    insta::assert_snapshot!(board(&after("order-chaos", &["b2=O"]), PLAIN));
}

#[test]
fn ultimate_both_shows_a_drawn_small_board() {
    // Board 1 won by X, board 2 filled without a line (it counts for both),
    // the next move sent to board 5.
    let setup = "setup OO1OO4/9/9/9/9/9/2XXOX3/1X1XOO3/X2OXX3 X - 5";
    insta::assert_snapshot!(board(&after("ultimate-both", &[setup]), PLAIN));
}

#[test]
fn ultimate_both_does_not_show_a_drawn_board_as_won_by_x() {
    // Under the house rule a drawn board is held by both sides; drawn for X
    // alone, it tells the players that X won it.
    let setup = "setup OO1OO4/9/9/9/9/9/2XXOX3/1X1XOO3/X2OXX3 X - 5";
    let text = board(&after("ultimate-both", &[setup]), PLAIN);
    let closed = text
        .lines()
        .find(|l| l.starts_with("closed boards:"))
        .unwrap_or_else(|| panic!("no closed boards line:\n{text}"));
    assert!(!closed.contains("2 won by X"), "{text}");
    assert!(closed.contains("2 drawn"), "{text}");
    // Its marks stay visible, as a drawn board's do in ultimate: e2 holds O.
    let row2 = text.lines().find(|l| l.starts_with("2 ")).unwrap();
    assert!(row2.contains("| X O O |"), "{text}");
}

/// The winning line is marked on the board (bold, underlined)
/// where there is colour; each of its cells, and no other.
#[test]
fn the_winning_line_is_marked() {
    let color = Style {
        color: true,
        ..PLAIN
    };
    let drawn = board(&after("classic", &["a1", "b1", "b2", "c1", "c3"]), color);
    let marked = drawn.matches("\x1b[1m\x1b[4m").count();
    assert_eq!(marked, 3, "{drawn:?}");
    let plain = board(&after("classic", &["a1", "b1", "b2", "c1", "c3"]), PLAIN);
    assert!(plain.contains("result: X wins — a1 b2 c3"), "{plain}");
}

/// At the terminal every line fits 80 columns; `legal` and
/// `history` wrap between moves, never inside one, and batch mode keeps
/// each on its one line.
#[test]
fn terminal_lines_fit_80_columns_and_wrap_between_moves() {
    let mut session = after("gomoku", &[]);
    let moves = [
        "h8", "a1", "h9", "b1", "h10", "c1", "o15", "d1", "n15", "a2", "m15", "b2", "l15", "c2",
        "e15", "d2", "j15", "a3", "i15", "b3",
    ];
    for mv in moves {
        step(&mut session, mv, Style::BATCH);
    }
    for line in [
        "help",
        "help vs",
        "help clock",
        "rules",
        "legal",
        "history",
        "name 1 Abcdefghijklmnopqrstuvwx",
        "name 2 Zyxwvutsrqponmlkjihgfedc",
        "vs hard",
        "score",
        "undo 1",
    ] {
        let text = step(&mut session, line, PLAIN).text;
        for l in text.lines() {
            assert!(l.chars().count() <= 80, "`{line}` prints {l:?}");
        }
    }
    // `help` fits without the terminal's wrapping too.
    for topic in ["help", "help vs", "help clock", "help play"] {
        let text = step(&mut session, topic, Style::BATCH).text;
        for l in text.lines() {
            assert!(l.chars().count() <= 80, "batch `{topic}` prints {l:?}");
        }
    }
    for command in ["legal", "history"] {
        let wrapped = step(&mut session, command, PLAIN).text;
        let one = step(&mut session, command, Style::BATCH).text;
        assert!(wrapped.lines().count() > 1, "{wrapped}");
        assert_eq!(one.lines().count(), 1, "{one}");
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&wrapped), words(&one));
    }
}

/// Under a board of several marks a turn, the last line about the moves
/// names the whole last turn, as `history` groups it: on a 19×19 board at
/// 24 rows the `O plays` lines printed above it scroll away (issue 26,
/// item 12). A turn half played names the mark played so far.
#[test]
fn connect6_names_the_whole_last_turn_under_the_board() {
    let last = |moves: &[&str]| {
        board(&after("connect6", moves), PLAIN)
            .lines()
            .find(|l| l.starts_with("last "))
            .map(str::to_string)
    };
    assert_eq!(last(&["j10"]).as_deref(), Some("last move: X j10"));
    assert_eq!(
        last(&["j10", "k10", "k11"]).as_deref(),
        Some("last turn: O k10,k11")
    );
    assert_eq!(
        last(&["j10", "k10", "k11", "j11"]).as_deref(),
        Some("last move: X j11")
    );
    // Both marks of the turn are shown in reverse video, not only the
    // second.
    let coloured = board(
        &after("connect6", &["j10", "k10", "k11"]),
        Style {
            color: true,
            ..PLAIN
        },
    );
    assert_eq!(
        coloured.matches("\x1b[7m\x1b[1;34mO").count(),
        2,
        "{coloured:?}"
    );
}

/// The last move is shown where its mark stands once the move is made:
/// pentago's twist carries the placed mark on (it was shown at the cell it
/// was placed on, now empty); quixo's new mark goes in at the slide's far
/// end (nothing was shown); a pop puts no mark down.
#[test]
fn the_last_move_is_shown_where_its_mark_ends() {
    let colour = Style {
        color: true,
        ..PLAIN
    };
    let reversed = |text: &str| text.matches("\x1b[7m").count();
    // a1/1+ turns a1's quadrant a quarter clockwise: the mark goes to a3.
    let pentago = after("pentago", &["a1/1+"]);
    assert!(
        pentago
            .game()
            .position()
            .mark_at(cell(&pentago, "a3"))
            .is_some()
    );
    let shown = board(&pentago, colour);
    assert!(
        shown
            .lines()
            .any(|l| l.starts_with("3 ") && l.contains("\x1b[7m")),
        "{shown:?}"
    );
    assert_eq!(reversed(&shown), 1, "{shown:?}");
    // Quixo: a1-e1 takes a1's blank cube and pushes it in at e1 marked X.
    let quixo = board(&after("quixo", &["a1-e1"]), colour);
    let row1 = quixo.lines().find(|l| l.starts_with("1 ")).unwrap();
    assert!(row1.contains("\x1b[7m\x1b[1;31mX"), "{quixo:?}");
    assert_eq!(reversed(&quixo), 1, "{quixo:?}");
    // Pop Out: X drops on d, O on d, X pops d: no mark of the move is shown.
    let popout = board(&after("popout", &["d", "d", "^d"]), colour);
    assert_eq!(reversed(&popout), 0, "{popout:?}");
}

fn cell(session: &Session, name: &str) -> gridrules_core::Cell {
    session.rulebook().grid().parse_cell(name).unwrap()
}

/// The removal note's example takes the phase's form, and is a move the
/// rules take where one removes now (a walkthrough found `g7xa1`, a
/// placement, offered in the moving phase, where it is refused).
#[test]
fn the_removal_example_is_written_as_the_phase_moves() {
    let note = |setup: &str| {
        let shown = board(&after("nine-mens-morris", &[setup]), PLAIN);
        let line = shown
            .lines()
            .find(|l| l.starts_with("a line removes"))
            .unwrap_or_else(|| panic!("{shown}"))
            .to_string();
        let (rest, now) = match line.strip_suffix("; none now") {
            Some(form) => (form, false),
            None => (line.strip_suffix(" now").unwrap(), true),
        };
        (rest.rsplit(' ').next().unwrap().to_string(), now)
    };
    // A step makes a mill here: the example is that move, and it plays.
    let setup = "setup X1X/1X1/3/1XX3/3/O1O/OOO X 0,0 -";
    let (example, now) = note(setup);
    assert_eq!((example.as_str(), now), ("d6-d7xb2", true));
    after("nine-mens-morris", &[setup, &example]);
    // No mill in reach: a step, written with a removal, still a step, and
    // shown as the form only (a walkthrough took `d1xa1` for a move).
    let (example, now) = note("setup XXO/XXO/3/X4O/2O/3/2O X 0,0 -");
    assert!(example.contains('-') && example.contains('x'), "{example}");
    assert!(!now);
}

/// A shaped board whose steps join cells side by side draws no links: a
/// row between two rows has no room for one down, and links along the
/// rows alone said pieces moved only there (a walkthrough's 5×5 without
/// corners). The cells it leaves out stay blank.
#[test]
fn a_shaped_board_of_side_by_side_steps_draws_no_links() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clipped.rhai"),
        "const HOLES = [cell(0, 0), cell(4, 0), cell(0, 4), cell(4, 4)];\n\
         fn shape() { let out = []; for c in cells() { if !(c in HOLES) { out.push(c); } } out }\n\
         fn open(cs) { let out = []; for c in cs { if !(c in HOLES) { out.push(c); } } out }\n\
         fn lines() { let out = []; for y in 1..4 { out.push(open(cells().filter(|c| row(c) == y))); } out }\n\
         fn wins(run) { run >= 3 }\n\
         fn pieces() { 5 }\n\
         fn steps(c) { open(movement::orthogonal(c)) }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("clipped.toml"),
        "name = \"clipped\"\ntitle = \"c\"\nscript = \"clipped.rhai\"\n[board]\nwidth = 5\nheight = 5\n",
    )
    .unwrap();
    let rules = Rulebook::from_file(&dir.path().join("clipped.toml")).unwrap();
    let session = Session::new(rules, "clipped", Setting::Batch);
    let shown = board(&session, PLAIN);
    let rows: Vec<&str> = shown.lines().take(5).collect();
    assert_eq!(
        rows,
        [
            "5   . . .",
            "4 . . . . .",
            "3 . . . . .",
            "2 . . . . .",
            "1   . . ."
        ],
        "{shown}"
    );
}

/// Twelve men's morris's corner diagonals are drawn beside the squares'
/// lines, in the gap between the two columns that no row's line takes (a
/// walkthrough found them missing: the board showed nine men's morris).
#[test]
fn a_shaped_board_draws_its_diagonal_steps() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/user/twelve_mens.toml");
    let rules = Rulebook::from_file(&path).unwrap();
    let session = Session::new(rules, "twelve-mens", Setting::Batch);
    let shown = board(&session, PLAIN);
    let rows: Vec<&str> = shown.lines().take(7).collect();
    assert_eq!(
        rows,
        [
            "7 .-----.-----.",
            "6 |\\.---.---./|",
            "5 | |\\.-.-./| |",
            "4 .-.-.   .-.-.",
            "3 | |/.-.-.\\| |",
            "2 |/.---.---.\\|",
            "1 .-----.-----.",
        ],
        "{shown}"
    );
}

/// Where a cell rests on another layer's (Score Four drawn in layers), a
/// column names no cell: its letter is refused as not a drop, not as a
/// full column, and the board offers no column to drop into.
#[test]
fn support_across_layers_offers_no_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("layers.rhai"),
        "fn lines() { cube::lines(4) }\nfn wins(run) { run >= 4 }\n\
         fn support(c) { if col(c) >= 4 { [cell(col(c) - 4, row(c))] } else { [] } }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("layers.toml"),
        "name = \"layers\"\ntitle = \"l\"\nscript = \"layers.rhai\"\n[board]\nwidth = 16\nheight = 4\nlayers = 4\n",
    )
    .unwrap();
    let rules = Rulebook::from_file(&dir.path().join("layers.toml")).unwrap();
    let mut session = Session::new(rules, "layers", Setting::Batch);
    let s = step(&mut session, "e", Style::BATCH);
    assert!(s.failed);
    assert!(
        s.text.contains("marks do not drop into columns here"),
        "{}",
        s.text
    );
    let shown = board(&session, PLAIN);
    assert!(!shown.contains("column marked v"), "{shown}");
    assert!(shown.lines().all(|l| !l.trim().is_empty()), "{shown:?}");
}

/// A rulebook of 3×3 blocks that twists turn, made in a temporary folder.
fn twisting(width: u32, height: u32, twists: &str) -> Session {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "fn lines() {{ lines::straight(4) }}\nfn wins(run) {{ run >= 4 }}\nfn twists() {{ {twists} }}\n"
    );
    std::fs::write(dir.path().join("t.rhai"), script).unwrap();
    let text = format!(
        "name = \"t\"\ntitle = \"t\"\nscript = \"t.rhai\"\n[board]\nwidth = {width}\nheight = {height}\n"
    );
    let rulebook = Rulebook::from_str_at(&text, "t.toml", Some(dir.path().to_path_buf())).unwrap();
    Session::new(rulebook, "t", Setting::Batch)
}

/// Where each block the separators draw has twists of its own, a map beside
/// the board names them (`4 | 5 | 6` over `1 | 2 | 3` on 9×6); where a cell
/// is turned by two blocks' twists, no map, which would name one of them.
#[test]
fn the_blocks_twists_turn_are_mapped_beside_the_board() {
    let six = board(&twisting(9, 6, "twists::blocks(3)"), PLAIN);
    assert!(six.contains("blocks:"), "{six}");
    assert!(six.contains(" 4 | 5 | 6"), "{six}");
    assert!(six.contains("---+---+---"), "{six}");
    assert!(six.contains(" 1 | 2 | 3"), "{six}");
    assert_fits_80_columns(&six);
    // Blocks 1 and 2 of 6×6 blocks overlap on an 8-wide board: columns c–f.
    let overlap = "twists::quarter_turns(0, 0, 6, \"1\") + twists::quarter_turns(2, 0, 6, \"2\")";
    let none = board(&twisting(8, 6, overlap), PLAIN);
    assert!(!none.contains("blocks:"), "{none}");
    // Eight blocks across: the map would push the rows past 80 columns.
    let wide = board(&twisting(24, 6, "twists::blocks(3)"), PLAIN);
    assert!(!wide.contains("blocks:"), "{wide}");
    assert_fits_80_columns(&wide);
    // Twists whose names share no whole block name (`cw`, `ccw`): no map.
    let turns = "let t = twists::quarter_turns(0, 0, 3, \"\") + twists::quarter_turns(3, 0, 3, \"\"); t[0].name = \"cw\"; t[1].name = \"ccw\"; t[2].name = \"2cw\"; t[3].name = \"2ccw\"; t";
    let unnamed = board(&twisting(6, 3, turns), PLAIN);
    assert!(!unnamed.contains("blocks:"), "{unnamed}");
}

/// Dara (`placing_lines()` "count for nothing"): while pieces are placed
/// the note says a line removes nothing yet, and shows no removal's form
/// (there is none to make); once all are placed it is the usual note,
/// with a step that removes now.
#[test]
fn the_removal_note_says_what_a_line_does_while_placing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/user/dara.toml");
    let rules = Rulebook::from_file(&path).unwrap();
    let mut session = Session::new(rules, "dara", Setting::Batch);
    let note = |session: &Session| {
        board(session, PLAIN)
            .lines()
            .find(|l| l.contains("removes an opponent piece"))
            .unwrap_or_else(|| panic!("{}", board(session, PLAIN)))
            .to_string()
    };
    for c in ["a1", "a5", "b1", "b5", "c1"] {
        assert!(!step(&mut session, c, Style::BATCH).failed, "{c}");
    }
    assert_eq!(
        note(&session),
        "a line made while placing removes nothing; once all are placed, a line removes an opponent piece, named after an x"
    );
    let s = step(
        &mut session,
        "setup O5/O5/O5/5O/XX1X2 X 0,0 -",
        Style::BATCH,
    );
    assert!(!s.failed, "{}", s.text);
    assert_eq!(
        note(&session),
        "a line removes an opponent piece, named after an x: d1-c1xf2 now"
    );
}
