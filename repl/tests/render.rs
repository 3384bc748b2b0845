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

#[test]
fn gomoku_fits_in_80_columns() {
    let text = board(&after("gomoku", &["h8", "i9", "a1", "o15"]), PLAIN);
    for line in text.lines() {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    insta::assert_snapshot!(text);
}

#[test]
fn colour_marks_the_sides_and_the_last_move() {
    let session = after("classic", &["b2", "a1"]);
    let coloured = board(
        &session,
        Style {
            boards: true,
            color: true,
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
